/* navtool demo: the basin of seed tutorial 002, solved as drawn and with its ramp opened; prints
 * each route over the map, smooths it, and writes PNG pictures of the searches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "navtool.h"
#include "nav/flow.h"
#include "nav/smooth.h"

extern const char navtool_world_basin[];
extern const char navtool_world_basin_ramp[];

/* Prints the world's own rows (after its "map" line) with the path drawn over them. */
static void print_route(const char *world, const nav_grid *grid, const nav_path *path)
{
    const char *rows = strstr(world, "\nmap\n");
    if (!rows) return;
    rows += 5;
    int32_t w = nav_grid_width(grid), h = nav_grid_height(grid);
    for (int32_t y = 0; y < h && *rows; y++) {
        char line[NAV_GRID_MAX_SIDE + 1];
        const char *end = strchr(rows, '\n');
        size_t n = end ? (size_t)(end - rows) : strlen(rows);
        if (n > (size_t)w) n = (size_t)w;
        memcpy(line, rows, n);
        line[n] = '\0';
        for (uint32_t i = 0; i < path->count; i++) {
            uint32_t cell = path->nodes[i];
            if ((int32_t)(cell / (uint32_t)w) == y && cell % (uint32_t)w < n)
                line[cell % (uint32_t)w] = i == 0 ? 's' : i + 1 == path->count ? 't' : '.';
        }
        printf("  %s\n", line);
        rows = end ? end + 1 : rows + n;
    }
}

static int solve(const char *title, const char *world, const char *png)
{
    nav_grid_desc options = {.log = &navtool_stderr_log};
    nav_grid *grid = NULL;
    nav_status s = nav_grid_load_ascii(world, strlen(world), title, &options, &grid);
    if (nav_failed(s)) {
        fprintf(stderr, "navtool demo: cannot load the sample world: %s\n", nav_status_str(s));
        return 1;
    }
    nav_grid_query *query = NULL;
    if (nav_failed(nav_grid_query_create(grid, NULL, &query))) {
        nav_grid_destroy(grid);
        fprintf(stderr, "navtool demo: out of memory\n");
        return 1;
    }
    nav_path path, smooth;
    nav_path_init(&path, NULL);
    nav_path_init(&smooth, NULL);
    nav_search_result r;
    const int32_t sx = 10, sy = 13, gx = 40,
                  gy = 1; /* the tutorial's s (row 13, col 10) and t (row 1, col 40) */
    s = nav_grid_find_path(query, NULL, sx, sy, gx, gy, &path, &r);
    int rc = 0;
    printf("\n== %s ==\n", title);
    if (nav_failed(s) || nav_has_detail(s, NAV_PARTIAL_RESULT)) {
        printf("no route: %s\n", nav_status_str(s));
        rc = 1;
    } else {
        bool entered = false;
        for (uint32_t i = 0; i < path.count; i++)
            entered |= nav_grid_cell_height(grid, (int32_t)(path.nodes[i] % 58),
                                            (int32_t)(path.nodes[i] / 58)) <= -10;
        printf("A* from (%d,%d) to (%d,%d): cost %.1f (%.0f in the tutorial's units of 10), %u cells, "
               "%u expanded; the route %s the basin\n",
               sx, sy, gx, gy, r.cost, r.cost * 10, path.count, r.expanded,
               entered ? "crosses" : "stays out of");
        print_route(world, grid, &path);
        if (nav_succeeded(nav_grid_smooth_path(grid, &path, &smooth)))
            printf("smoothed by line of sight: %u points instead of %u, cost %.2f\n", smooth.count,
                   path.count, smooth.cost);
        nav_flow_field *flow = NULL;
        int32_t goal[2] = {gx, gy};
        if (nav_succeeded(nav_flow_field_create(grid, NULL, &flow)) &&
            nav_succeeded(nav_flow_field_compute(flow, goal, 1))) {
            int reach = 0, total = 0;
            for (int32_t y = 0; y < nav_grid_height(grid); y++)
                for (int32_t x = 0; x < nav_grid_width(grid); x++) {
                    total++;
                    reach += nav_flow_field_distance(flow, x, y) < INFINITY;
                }
            printf("flow field to t: %d of %d cells can walk there%s\n", reach, total,
                   reach < total ? " (the others are down in the basin)" : "");
        }
        nav_flow_field_destroy(flow);
        if (navtool_write_png(png, grid, query, &path, 12) == 0)
            printf("picture (closed cells blue, open green, route red): %s\n", png);
    }
    nav_path_destroy(&smooth);
    nav_path_destroy(&path);
    nav_grid_query_destroy(query);
    nav_grid_destroy(grid);
    return rc;
}

int navtool_demo(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "navtool demo takes no arguments\n");
        return 2;
    }
    printf("libnav %s demo: the basin of seed tutorial 002.\n"
           "Walking down into the basin is allowed, climbing more than 7 out of it is not.\n",
           nav_version_str());
    int rc = solve("basin, as drawn", navtool_world_basin, "demo_basin.png");
    rc |= solve("basin, with a ramp at row 6, column 36", navtool_world_basin_ramp, "demo_basin_ramp.png");
    return rc;
}
