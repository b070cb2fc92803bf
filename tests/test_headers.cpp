// Every public header compiles as C++ (extern "C" guards) and links, and the README's C++ forms of
// its C examples work: the tour's grid, made with a named descriptor (any C++) and with designated
// initialisers (C++20), gives the tour's path.
#include <nav/core.h>
#include <nav/vec3.h>
#include <nav/heap.h>
#include <nav/path.h>
#include <nav/grid.h>
#include <nav/search.h>
#include <nav/smooth.h>
#include <nav/flow.h>
#include <nav/scen.h>
#include <nav/io.h>
#include <nav/region.h>
#include <nav/hpa.h>
#include <nav/anyangle.h>
#include <nav/mesh.h>
#include <nav/geometry.h>
#include <nav/waypoints.h>
#include <nav/world.h>
#include <nav/agents.h>

#include <cmath>
#include <cstdio>
#include <initializer_list>

// The README's tour (tests/consumer/example.c) in C++: its cost, or -1.
static double tour(bool designated)
{
    nav_grid *grid = nullptr;
    nav_status s;
    if (designated) {
        nav_grid_desc desc{.width = 32, .height = 12}; // C++20: in the order the struct declares them
        s = nav_grid_create(&desc, &grid);
    } else {
        nav_grid_desc desc{}; // any C++: zero is every field's default
        desc.width = 32;
        desc.height = 12;
        s = nav_grid_create(&desc, &grid);
    }
    if (nav_failed(s)) return -1;
    enum { FOREST = 2 };
    nav_grid_set_terrain_cost(grid, FOREST, 5.0);
    for (int32_t y = 2; y < 10; y++) nav_grid_set_cell(grid, 8, y, FOREST);
    for (int32_t y = 0; y < 12; y++)
        if (y != 6) nav_grid_set_cell(grid, 20, y, NAV_TERRAIN_BLOCKED);
    nav_grid_build_reachability(grid);
    nav_grid_query *query = nullptr;
    if (nav_failed(nav_grid_query_create(grid, nullptr, &query))) return -1;
    nav_path path;
    nav_path_init(&path, nullptr);
    nav_search_desc search{};
    search.algo = NAV_ALGO_ASTAR;
    nav_search_result result;
    s = nav_grid_find_path(query, &search, 1, 6, 30, 6, &path, &result);
    double cost = nav_failed(s) || path.count != 30 ? -1 : result.cost;
    nav_path_destroy(&path);
    nav_grid_query_destroy(query);
    nav_grid_destroy(grid);
    return cost;
}

int main()
{
    if (nav_waypoints_count(nullptr) != 0) return 1;
    if (nav_world_memory_bytes(nullptr) != 0) return 1;
    if (nav_version() != NAV_VERSION_NUMBER) return 1;
    for (bool designated : {false, true}) {
        double cost = tour(designated);
        if (std::fabs(cost - 32.314) > 0.001) {
            std::printf("the tour in C++ (%s): cost %.3f, expected 32.314\n",
                        designated ? "designated" : "named descriptor", cost);
            return 1;
        }
    }
    return 0;
}
