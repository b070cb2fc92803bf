/* The README's tour of the API, compiled and run by the consumer test against an installed
 * libnav (find_package and pkg-config) and through add_subdirectory. */
#include <stdio.h>

#include <nav/grid.h>
#include <nav/search.h>
#include <nav/smooth.h>

int main(void)
{
    /* a 32 x 12 field with a forest (cost 5) and a wall with one gap */
    nav_grid *grid;
    if (nav_failed(nav_grid_create(&(nav_grid_desc){.width = 32, .height = 12}, &grid))) return 1;
    enum { FOREST = 2 };
    nav_grid_set_terrain_cost(grid, FOREST, 5.0);
    for (int32_t y = 2; y < 10; y++) nav_grid_set_cell(grid, 8, y, FOREST);
    for (int32_t y = 0; y < 12; y++)
        if (y != 6) nav_grid_set_cell(grid, 20, y, NAV_TERRAIN_BLOCKED);
    nav_grid_build_reachability(grid); /* "unreachable" in O(1) from now on */

    /* one query object per thread; it owns the search scratch and is reused across queries */
    nav_grid_query *query;
    if (nav_failed(nav_grid_query_create(grid, NULL, &query))) return 1;
    nav_path path, smooth;
    nav_path_init(&path, NULL);
    nav_path_init(&smooth, NULL);

    nav_search_result result;
    nav_status status =
        nav_grid_find_path(query, &(nav_search_desc){.algo = NAV_ALGO_ASTAR}, 1, 6, 30, 6, &path, &result);
    if (nav_failed(status) || nav_has_detail(status, NAV_PARTIAL_RESULT)) {
        printf("no path: %s\n", nav_status_str(status));
        return 1;
    }
    printf("cost %.3f, %u cells, %u expanded\n", result.cost, path.count, result.expanded);

    nav_grid_smooth_path(grid, &path, &smooth); /* world-space points, never dearer */
    for (uint32_t i = 0; i < smooth.count; i++)
        printf("  (%.1f, %.1f, %.1f)\n", smooth.points[i].x, smooth.points[i].y, smooth.points[i].z);

    nav_path_destroy(&smooth);
    nav_path_destroy(&path);
    nav_grid_query_destroy(query);
    nav_grid_destroy(grid);
    return 0;
}
