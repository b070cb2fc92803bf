/* Hub labels on generated graphs and on the shared maps: how long the bake takes, how large the
 * labels come out, and whether sampled routes are exact.
 *
 *   chain N          N waypoints in a row (a long road), links of length 1
 *   lattice W H      a W x H grid of waypoints, 4-connected, links of length 1 (many equal routes)
 *   wlattice W H     the same, each link costing 1 to 2 (drawn the same way every run: one route a pair)
 *   map FILE         the corner graph of a Moving AI map (nav_waypoints_bake_grid)
 *
 * options: --threads T (default 2), --pairs P (default 1000: random pairs whose distance and route
 * are checked against Dijkstra on the same bake, nav_waypoints_query_route with
 * NAV_WAYPOINTS_DIJKSTRA). Prints one JSON line: waypoints, links, bake seconds (wall clock, and the
 * process's CPU seconds over the bake, which a busy machine disturbs less), label entries a waypoint
 * (mean, the out- and in-labels counted apart on one-way graphs, and the largest label), baked
 * bytes, and `wrong`, the pairs whose distance or route cost differs (exits 1 if any). Peak memory:
 * run it under /usr/bin/time -v (bench/waypoints_labels.sh does).
 *
 * Reads the label arrays through the library's private header (waypoints/src), as the tests do;
 * built by bench/waypoints_labels.sh. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nav/waypoints.h"
#include "waypoints_internal.h"

static double now_s(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

/* A generated graph in arrays of its own. */
typedef struct made {
    nav_waypoint *points;
    nav_waypoint_link *links;
    uint32_t count, link_count;
} made;

static made make_chain(uint32_t n)
{
    made m = {calloc(n, sizeof *m.points), calloc(n ? n : 1, sizeof *m.links), n, 0};
    for (uint32_t i = 0; i < n; i++) {
        m.points[i].position = (nav_vec3){(float)i, 0, 0};
        if (i) m.links[m.link_count++] = (nav_waypoint_link){.from = i - 1, .to = i};
    }
    return m;
}

static made make_lattice(uint32_t w, uint32_t h, bool weighted)
{
    uint32_t n = w * h;
    made m = {calloc(n, sizeof *m.points), calloc(2 * (size_t)n + 1, sizeof *m.links), n, 0};
    uint64_t seed = 0x2545f4914f6cdd1dull;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint32_t i = y * w + x;
            m.points[i].position = (nav_vec3){(float)x, 0, (float)y};
            for (int k = 0; k < 2; k++) {
                if (k == 0 ? x + 1 == w : y + 1 == h) continue;
                double cost = weighted ? 1 + (double)(next_random(&seed) >> 11) / 9007199254740992.0 : 0;
                m.links[m.link_count++] =
                    (nav_waypoint_link){.from = i, .to = k == 0 ? i + 1 : i + w, .cost = cost};
            }
        }
    return m;
}

int main(int argc, char **argv)
{
    uint32_t threads = 2, pairs = 1000;
    const char *kind = NULL, *args[2] = {0};
    int positional = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--pairs") && i + 1 < argc)
            pairs = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!kind)
            kind = argv[i];
        else if (positional < 2)
            args[positional++] = argv[i];
    }
    if (!kind || !args[0]) {
        fprintf(stderr,
                "usage: %s chain N | lattice W H | wlattice W H | map FILE [--threads T] [--pairs P]\n",
                argv[0]);
        return 2;
    }
    made m = {0};
    nav_grid *grid = NULL;
    char name[256];
    if (!strcmp(kind, "chain")) {
        m = make_chain((uint32_t)strtoul(args[0], NULL, 10));
        snprintf(name, sizeof name, "chain %s", args[0]);
    } else if ((!strcmp(kind, "lattice") || !strcmp(kind, "wlattice")) && args[1]) {
        m = make_lattice((uint32_t)strtoul(args[0], NULL, 10), (uint32_t)strtoul(args[1], NULL, 10),
                         kind[0] == 'w');
        snprintf(name, sizeof name, "%s %s x %s", kind, args[0], args[1]);
    } else if (!strcmp(kind, "map")) {
        if (nav_failed(nav_grid_load_map_file(args[0], NULL, &grid))) {
            fprintf(stderr, "%s: cannot load\n", args[0]);
            return 2;
        }
        const char *base = strrchr(args[0], '/');
        snprintf(name, sizeof name, "%s", base ? base + 1 : args[0]);
    } else {
        fprintf(stderr, "%s: unknown graph kind\n", kind);
        return 2;
    }
    nav_waypoints *wp = NULL;
    double wall = now_s(CLOCK_MONOTONIC), cpu = now_s(CLOCK_PROCESS_CPUTIME_ID);
    nav_status s;
    if (grid) {
        s = nav_waypoints_bake_grid(grid, &(nav_waypoint_grid_desc){.threads = threads}, &wp);
    } else {
        nav_waypoint_graph g = {
            .waypoints = m.points, .waypoint_count = m.count, .links = m.links, .link_count = m.link_count};
        s = nav_waypoints_bake(&g, &(nav_waypoints_bake_desc){.threads = threads}, &wp);
    }
    wall = now_s(CLOCK_MONOTONIC) - wall, cpu = now_s(CLOCK_PROCESS_CPUTIME_ID) - cpu;
    if (nav_failed(s)) {
        printf("{\"graph\":\"%s\",\"failed\":\"%s\"}\n", name, nav_status_str(s));
        return 3;
    }
    uint32_t n = nav_waypoints_count(wp);
    double entries = 0;
    uint32_t longest = 0;
    if (nav_waypoints_compressed(wp))
        for (int side = 0; side < (wp->symmetric ? 1 : 2); side++) {
            entries += wp->label_first[side][n];
            for (uint32_t v = 0; v < n; v++) {
                uint32_t size = wp->label_first[side][v + 1] - wp->label_first[side][v];
                if (size > longest) longest = size;
            }
        }
    /* sampled pairs against Dijkstra on the same bake */
    nav_waypoints_query *q = NULL;
    uint32_t wrong = 0, checked = 0;
    if (nav_failed(nav_waypoints_query_create(wp, NULL, &q))) return 2;
    nav_path path;
    nav_path_init(&path, NULL);
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    nav_waypoints_filter dijkstra = {.method = NAV_WAYPOINTS_DIJKSTRA};
    for (uint32_t i = 0; i < pairs && n > 1; i++) {
        uint32_t a = (uint32_t)(next_random(&seed) % n), b = (uint32_t)(next_random(&seed) % n);
        nav_waypoints_route_result ref, got;
        nav_status rs = nav_waypoints_query_route(q, a, b, &dijkstra, &path, &ref);
        nav_status gs = nav_waypoints_query_route(q, a, b, NULL, &path, &got);
        double d = nav_waypoints_distance(wp, a, b);
        checked++;
        if (rs != gs) {
            wrong++;
            continue;
        }
        if (rs != NAV_SUCCESS) {
            wrong += !isinf(d);
            continue;
        }
        double room = 1e-9 * (ref.cost > 1 ? ref.cost : 1);
        if (fabs(got.cost - ref.cost) > room || fabs(d - ref.cost) > 1e-6 * (ref.cost > 1 ? ref.cost : 1)) {
            fprintf(stderr, "%u -> %u: route %.17g, distance %.9g, Dijkstra %.17g\n", a, b, got.cost, d,
                    ref.cost);
            wrong++;
        }
    }
    printf(
        "{\"graph\":\"%s\",\"waypoints\":%u,\"links\":%u,\"threads\":%u,\"bake_s\":%.3f,\"bake_cpu_s\":%.3f,"
        "\"labels\":%s,\"entries_per_waypoint\":%.2f,\"longest_label\":%u,\"bytes\":%zu,\"pairs\":%u,"
        "\"wrong\":%u}\n",
        name, n, nav_waypoints_link_count(wp), threads, wall, cpu,
        nav_waypoints_compressed(wp) ? "true" : "false", n ? entries / n : 0, longest,
        nav_waypoints_memory_bytes(wp), checked, wrong);
    nav_path_destroy(&path);
    nav_waypoints_query_destroy(q);
    nav_waypoints_destroy(wp);
    nav_grid_destroy(grid);
    free(m.points);
    free(m.links);
    return wrong ? 1 : 0;
}
