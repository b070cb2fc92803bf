/* navtool demo: the bundled village (data/worlds/village: a two-storey house, a town, a road, a
 * bridge over a river to a second town), written out to ./village/ and loaded as a world: a route
 * from the house's upper floor to the far town, leg by leg, drawn as a PNG; then the bridge goes up.
 * Then the basin of seed tutorial 002, solved as drawn and with its ramp opened; prints each route
 * over the map, smooths it, and writes PNG pictures of the searches. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

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

struct navtool_file {
    const char *name, *text;
};
extern const struct navtool_file navtool_village[];

/* Writes the bundled village into folder `dir` (made if missing). Returns 0, or 1 having said why. */
static int write_village(const char *dir)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "navtool demo: cannot make the folder %s: %s\n", dir, strerror(errno));
        return 1;
    }
    for (const struct navtool_file *f = navtool_village; f->name; f++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, f->name);
        FILE *out = fopen(path, "wb");
        if (!out || fputs(f->text, out) < 0 || fclose(out) != 0) {
            fprintf(stderr, "navtool demo: cannot write %s\n", path);
            if (out) fclose(out);
            return 1;
        }
    }
    return 0;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int village(void)
{
    const char *dir = "village";
    if (write_village(dir)) return 1;
    nav_world *w = NULL;
    double t0 = now_ms();
    nav_status s =
        nav_world_load_json("village/village.json", &(nav_world_load_desc){.log = &navtool_stderr_log}, &w);
    if (nav_failed(s)) {
        fprintf(stderr, "navtool demo: the village does not load: %s\n", nav_status_str(s));
        return 1;
    }
    double load_ms = now_ms() - t0;
    nav_world_info info;
    nav_world_get_info(w, &info);
    printf("libnav %s demo: the village (%s/village.json, written out here from the program).\n",
           nav_version_str(), dir);
    printf("%u regions, %u links, %u chokepoints; loaded and baked in %.1f ms, %zu bytes of world tables\n",
           info.regions, info.links, info.chokepoints, load_ms, info.bytes);
    for (uint32_t r = 0; r < info.regions; r++)
        printf("  %-19s %s\n", nav_world_region_name(w, r), navtool_planner_of(w, r));
    nav_world_query *q = NULL;
    if (nav_failed(nav_world_query_create(w, NULL, &q))) {
        nav_world_destroy(w);
        fprintf(stderr, "navtool demo: out of memory\n");
        return 1;
    }
    nav_vec3 start = {12.5f, 3, 8.5f}, goal = {125.5f, 0, 20.5f};
    nav_path path;
    nav_path_init(&path, NULL);
    nav_world_result r;
    int rc = 0;
    printf("\nFrom the upper floor of the house (%.1f, %.1f, %.1f) to the east town (%.1f, %.1f, %.1f):\n",
           (double)start.x, (double)start.y, (double)start.z, (double)goal.x, (double)goal.y, (double)goal.z);
    t0 = now_ms();
    s = nav_world_find_path(q, start, goal, &path, &r);
    double ms = now_ms() - t0;
    if (s != NAV_SUCCESS) {
        printf("  no route: %s\n", nav_status_str(s));
        rc = 1;
    } else {
        navtool_print_legs(w, q);
        printf("  cost %.2f, %u points, %u legs, %.3f ms\n", r.cost, path.count, r.legs, ms);
        uint32_t n;
        const nav_world_leg *legs = nav_world_query_legs(q, &n);
        if (navtool_write_world_png("demo_world.png", w, legs, n, &path, 8) == 0)
            printf("  picture (each leg in its region's colour, links yellow): demo_world.png\n");
    }
    uint32_t bridge = NAV_WORLD_NONE;
    for (uint32_t k = 0; k < info.links; k++) {
        nav_world_link_desc d;
        if (nav_world_link(w, k, &d) && d.kind == NAV_LINK_BRIDGE) bridge = k;
    }
    if (bridge != NAV_WORLD_NONE) {
        nav_world_set_links(w, &(nav_world_link_change){bridge, false}, 1);
        printf("\nThe bridge goes up (nav_world_set_links, no re-bake):\n");
        s = nav_world_find_path(q, start, goal, &path, &r);
        if (nav_has_detail(s, NAV_UNREACHABLE))
            printf("  unreachable: the river has no other crossing (%u chokepoints searched)\n",
                   r.chokepoints_expanded);
        else if (s == NAV_SUCCESS)
            navtool_print_legs(w, q);
        if (navtool_write_world_png("demo_world_bridge_up.png", w, NULL, 0, NULL, 8) == 0)
            printf("  picture (the bridge grey): demo_world_bridge_up.png\n");
    }
    nav_path_destroy(&path);
    nav_world_query_destroy(q);
    nav_world_destroy(w);
    return rc;
}

int navtool_demo(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "navtool demo takes no arguments\n");
        return 2;
    }
    int rc = village();
    printf("\nThe basin of seed tutorial 002.\n"
           "Walking down into the basin is allowed, climbing more than 7 out of it is not.\n");
    rc |= solve("basin, as drawn", navtool_world_basin, "demo_basin.png");
    rc |= solve("basin, with a ramp at row 6, column 36", navtool_world_basin_ramp, "demo_basin_ramp.png");
    return rc;
}
