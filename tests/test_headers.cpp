// Every public header compiles as C++ (extern "C" guards) and links.
#include <nav/core.h>
#include <nav/vec3.h>
#include <nav/heap.h>
#include <nav/path.h>
#include <nav/grid.h>
#include <nav/search.h>
#include <nav/io.h>
#include <nav/region.h>
#include <nav/hpa.h>
#include <nav/anyangle.h>
#include <nav/mesh.h>
#include <nav/geometry.h>
#include <nav/waypoints.h>
#include <nav/world.h>

int main()
{
    nav_path path;
    nav_path_init(&path, nullptr);
    nav_path_destroy(&path);
    if (nav_waypoints_count(nullptr) != 0) return 1;
    if (nav_world_memory_bytes(nullptr) != 0) return 1;
    return nav_version() == NAV_VERSION_NUMBER ? 0 : 1;
}
