/* Waypoint to waypoint: the tables against a Dijkstra search on the same graph, in one run.
 *
 * Bakes the waypoint graph of a map (nav_waypoints_bake_grid, every core), draws random pairs of
 * waypoints with a route between them, and times, over the same pairs:
 *   distance  nav_waypoints_distance (a table read)
 *   route     nav_waypoints_query_route with no filter (the route by first moves)
 *   dijkstra  the same call with method NAV_WAYPOINTS_DIJKSTRA (a search, the tables unused)
 * then, with a filter that closes a random 2% of the links (doors shut):
 *   filtered  method AUTO (the table's route where it stays open, else A* on the table's distances)
 *   filtered dijkstra  method NAV_WAYPOINTS_DIJKSTRA under the same filter
 * Every route's cost must equal Dijkstra's (1e-9 relative), or it exits 1.
 *
 * usage: waypoints_routes MAP [PAIRS]   (default 2000 pairs)
 * prints one JSON line; exits 3 when the bake refuses the map (too many corners).
 * Built and run over the shared maps by bench/waypoints_routes.sh. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nav/waypoints.h"

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

typedef struct timing {
    double us;            /* mean per query */
    double expanded;      /* mean waypoints expanded */
    double searched;      /* share of queries that searched */
    uint32_t mismatches;  /* costs that differ from `against` */
    uint32_t unreachable; /* queries that found no route */
} timing;

/* Times the routes of every pair under filter f [opt], writing their
 * costs to cost (or comparing them with against [opt]). */
static timing time_routes(nav_waypoints_query *q, const uint32_t *pairs, uint32_t count,
                          const nav_waypoints_filter *f, double *cost, const double *against)
{
    nav_path path;
    nav_path_init(&path, NULL);
    timing t = {0};
    double start = now_us();
    for (uint32_t i = 0; i < count; i++) {
        nav_waypoints_route_result r;
        nav_status s = nav_waypoints_query_route(q, pairs[2 * i], pairs[2 * i + 1], f, &path, &r);
        cost[i] = s == NAV_SUCCESS ? r.cost : INFINITY;
        t.expanded += r.expanded;
        t.searched += r.searched;
        t.unreachable += s != NAV_SUCCESS;
    }
    t.us = (now_us() - start) / count;
    t.expanded /= count;
    t.searched /= count;
    if (against)
        for (uint32_t i = 0; i < count; i++)
            if (!(cost[i] == against[i] || fabs(cost[i] - against[i]) <= 1e-9 * against[i])) t.mismatches++;
    nav_path_destroy(&path);
    return t;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s MAP [PAIRS]\n", argv[0]);
        return 2;
    }
    uint32_t count = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 2000;
    if (count == 0) count = 1;
    nav_grid *grid = NULL;
    nav_waypoints *wp = NULL;
    nav_waypoints_query *q = NULL;
    if (nav_failed(nav_grid_load_map_file(argv[1], NULL, &grid))) {
        fprintf(stderr, "%s: cannot load\n", argv[1]);
        return 2;
    }
    const char *name = strrchr(argv[1], '/') ? strrchr(argv[1], '/') + 1 : argv[1];
    double bake_start = now_us();
    nav_status built = nav_waypoints_bake_grid(grid, NULL, &wp);
    double bake_s = (now_us() - bake_start) / 1e6;
    if (nav_has_detail(built, NAV_TOO_LARGE)) {
        printf("{\"map\":\"%s\",\"refused\":true}\n", name);
        return 3;
    }
    if (nav_failed(built) || nav_failed(nav_waypoints_query_create(wp, NULL, &q))) {
        fprintf(stderr, "%s: cannot bake\n", argv[1]);
        return 2;
    }
    uint32_t n = nav_waypoints_count(wp), links = nav_waypoints_link_count(wp);
    /* pairs with a route, drawn the same way every run */
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    uint32_t *pairs = malloc(2 * sizeof *pairs * count);
    double *dijkstra = malloc(sizeof *dijkstra * count), *cost = malloc(sizeof *cost * count);
    uint8_t *closed = calloc(links ? links : 1, 1);
    uint32_t found = 0;
    for (uint64_t tries = 0; found < count && n > 1 && tries < 100ull * count; tries++) {
        uint32_t a = (uint32_t)(next_random(&seed) % n), b = (uint32_t)(next_random(&seed) % n);
        if (a == b || !(nav_waypoints_distance(wp, a, b) < INFINITY)) continue;
        pairs[2 * found] = a, pairs[2 * found + 1] = b;
        found++;
    }
    if (found == 0) {
        fprintf(stderr, "%s: no two waypoints with a route between them\n", argv[1]);
        return 2;
    }
    count = found;
    for (uint32_t i = 0; i < links; i++) closed[i] = next_random(&seed) % 50 == 0;

    nav_waypoints_filter search = {.method = NAV_WAYPOINTS_DIJKSTRA};
    timing dij = time_routes(q, pairs, count, &search, dijkstra, NULL);
    timing route = time_routes(q, pairs, count, NULL, cost, dijkstra);
    /* a table read takes nanoseconds: time many rounds of them */
    double sum = 0, start = now_us();
    uint32_t rounds = 200;
    for (uint32_t r = 0; r < rounds; r++)
        for (uint32_t i = 0; i < count; i++)
            sum += nav_waypoints_distance(wp, pairs[2 * i], pairs[2 * i + 1]);
    double distance_us = (now_us() - start) / ((double)rounds * count);
    uint32_t distance_off = 0;
    for (uint32_t i = 0; i < count; i++) {
        double d = nav_waypoints_distance(wp, pairs[2 * i], pairs[2 * i + 1]);
        if (fabs(d - dijkstra[i]) > 1e-6 * dijkstra[i]) distance_off++; /* floats: 1e-7 relative */
    }
    nav_waypoints_filter shut = {.closed_links = closed, .method = NAV_WAYPOINTS_DIJKSTRA};
    timing shut_dij = time_routes(q, pairs, count, &shut, dijkstra, NULL);
    shut.method = NAV_WAYPOINTS_AUTO;
    timing shut_auto = time_routes(q, pairs, count, &shut, cost, dijkstra);

    uint32_t wrong = route.mismatches + shut_auto.mismatches + distance_off;
    printf(
        "{\"map\":\"%s\",\"waypoints\":%u,\"links\":%u,\"bake_s\":%.3f,\"bytes\":%zu,\"query_bytes\":%zu,"
        "\"pairs\":%u,\"distance_us\":%.4f,\"route_us\":%.3f,\"dijkstra_us\":%.2f,\"dijkstra_expanded\":%.1f,"
        "\"route_speedup\":%.1f,\"distance_speedup\":%.0f,"
        "\"filtered_us\":%.3f,\"filtered_searched\":%.3f,\"filtered_expanded\":%.1f,"
        "\"filtered_dijkstra_us\":%.2f,\"filtered_speedup\":%.1f,\"filtered_unreachable\":%u,"
        "\"wrong\":%u,\"checksum\":%.6g}\n",
        name, n, links, bake_s, nav_waypoints_memory_bytes(wp), nav_waypoints_query_memory_bytes(q), count,
        distance_us, route.us, dij.us, dij.expanded, dij.us / route.us, dij.us / distance_us, shut_auto.us,
        shut_auto.searched, shut_auto.expanded, shut_dij.us, shut_dij.us / shut_auto.us,
        shut_auto.unreachable, wrong, sum);
    free(pairs);
    free(dijkstra);
    free(cost);
    free(closed);
    nav_waypoints_query_destroy(q);
    nav_waypoints_destroy(wp);
    nav_grid_destroy(grid);
    return wrong ? 1 : 0;
}
