/* The bundled village world (data/worlds/village/village.json: a house of two floors, towns of
 * navmeshes, a road of waypoints, a bridge) queried end to end: every ordered pair of six points
 * (those of tests/test_world.c's test_world_file: each floor of the house, the towns, the road), R
 * rounds of nav_world_find_path on one query object. Prints one JSON line: queries, failed, total
 * and mean time, the legs and the sum of the costs of the first round (two builds that give the same
 * routes give the same sum), the query object's bytes, and the first round's legs by kind (mesh and
 * waypoint legs at a route's ends or between). The yardstick of the world's per-kind layer (issue
 * 44): bench/world_village.sh, under callgrind for instructions.
 *
 * With `filtered`, the query has a mesh filter that gives every area the cost it has (the same
 * routes, planned lazily over the tables: nav_world_query_set_mesh_filter), for its cost. With
 * `grid-filtered`, a grid filter that doubles the cost of every terrain type of the house's floors
 * (their tables then lower bounds, the plans lazy: nav_world_query_set_grid_filter).
 *
 * usage: world_village VILLAGE.json [ROUNDS (50)] [filtered | grid-filtered] */
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "nav/world.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: world_village VILLAGE.json [ROUNDS] [filtered | grid-filtered]\n");
        return 2;
    }
    int rounds = argc > 2 ? atoi(argv[2]) : 50;
    nav_world *w;
    nav_world_query *q;
    if (nav_failed(nav_world_load_json(argv[1], NULL, &w))) {
        fprintf(stderr, "world_village: %s does not load\n", argv[1]);
        return 1;
    }
    if (nav_failed(nav_world_query_create(w, NULL, &q))) return 1;
    double costs[256];
    for (int t = 0; t < 256; t++) costs[t] = 1; /* (the village's meshes: every area costs 1) */
    const nav_mesh_filter same = {.area_cost = costs};
    nav_grid_filter twice;
    nav_grid_filter_init(&twice, NULL);
    for (int t = 1; t < 256; t++) twice.terrain_cost[t] = 2;
    bool by_grid = argc > 3 && !strcmp(argv[3], "grid-filtered");
    if (argc > 3 && nav_failed(by_grid ? nav_world_query_set_grid_filter(q, &twice)
                                       : nav_world_query_set_mesh_filter(q, &same)))
        return 1;
    const nav_vec3 p[6] = {{12.5f, 3, 8.5f}, {125.5f, 0, 20.5f}, {30.5f, 0, 8.5f},
                           {72, 0, 18},      {3.5f, 0.2f, 8.5f}, {3.5f, 3.2f, 8.5f}};
    nav_path path;
    nav_path_init(&path, NULL);
    double sum = 0, t0 = now();
    unsigned n = 0, legs = 0, failed = 0, mesh_ends = 0, mesh_between = 0, ways_ends = 0, ways_between = 0;
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < 6; i++)
            for (int j = 0; j < 6; j++) {
                if (i == j) continue;
                nav_world_result res;
                if (nav_failed(nav_world_find_path(q, p[i], p[j], &path, &res))) failed++;
                n++;
                if (r > 0) continue;
                sum += path.cost, legs += res.legs;
                uint32_t count;
                const nav_world_leg *l = nav_world_query_legs(q, &count);
                for (uint32_t k = 0; k < count; k++) {
                    nav_world_region_kind kind = nav_world_region_kind_of(w, l[k].region);
                    bool end = k == 0 || k + 1 == count;
                    if (kind == NAV_WORLD_REGION_MESH) (*(end ? &mesh_ends : &mesh_between))++;
                    if (kind == NAV_WORLD_REGION_WAYPOINTS) (*(end ? &ways_ends : &ways_between))++;
                }
            }
    double t = now() - t0;
    printf("{\"queries\":%u,\"failed\":%u,\"total_ms\":%.3f,\"mean_us\":%.2f,\"legs_round0\":%u,"
           "\"cost_sum_round0\":%.6f,\"query_bytes\":%zu,\"mesh_end_legs\":%u,\"mesh_between_legs\":%u,"
           "\"waypoint_end_legs\":%u,\"waypoint_between_legs\":%u}\n",
           n, failed, t * 1e3, t / n * 1e6, legs, sum, nav_world_query_memory_bytes(q), mesh_ends,
           mesh_between, ways_ends, ways_between);
    nav_path_destroy(&path);
    nav_world_query_destroy(q);
    nav_world_destroy(w);
    return failed != 0;
}
