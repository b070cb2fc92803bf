/* A big grid as a world region, searched flat or through its HPA* bake (issue 13: "a grid, searched
 * flat, or through its HPA* bake when it is big"): one map, a hut of 4 x 4 cells beside it joined by a
 * door, random queries between free cells of the map (and from the hut), each planned and refined,
 * timed, and checked as walks of the map; the flat region's costs (exact) against the HPA* region's.
 * Prints, last, one JSON line.
 *
 * usage: world_hpa MAP [--queries N] [--cluster C] [--levels L] [--seed X]
 *        (defaults: 500 queries, HPA*'s defaults) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nav/world.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t state = 1;
static uint32_t next(void)
{
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return (uint32_t)state;
}

/* Each world's queries through a function of its own: `bench/world_hpa.sh --callgrind` counts the
 * instructions of the HPA* world's alone (--toggle-collect=hpa_world_query; noipa: not folded into one). */
static __attribute__((noipa)) nav_status flat_world_query(nav_world_query *q, const nav_vec3 *ends,
                                                          nav_path *path, nav_world_result *r)
{
    return nav_world_find_path(q, ends[0], ends[1], path, r);
}

static __attribute__((noipa)) nav_status hpa_world_query(nav_world_query *q, const nav_vec3 *ends,
                                                         nav_path *path, nav_world_result *r)
{
    return nav_world_find_path(q, ends[0], ends[1], path, r);
}

/* A world of the map (flat or through hpa) and the hut; the bake's time to *bake_s. */
static nav_world *make_world(const nav_grid *map, const nav_hpa *hpa, const nav_grid *hut, nav_vec3 door_map,
                             nav_vec3 door_hut, double *bake_s)
{
    nav_world_builder *b;
    nav_world *w = NULL;
    if (nav_failed(nav_world_builder_create(NULL, NULL, &b))) return NULL;
    nav_status s = hpa ? nav_world_builder_add_grid_hpa(b, "map", map, hpa, NULL)
                       : nav_world_builder_add_grid(b, "map", map, NULL);
    if (!nav_failed(s)) s = nav_world_builder_add_grid(b, "hut", hut, NULL);
    if (!nav_failed(s))
        s = nav_world_builder_add_link(
            b, &(nav_world_link_desc){.from_region = 0, .from = door_map, .to_region = 1, .to = door_hut},
            NULL);
    double t0 = now();
    if (!nav_failed(s)) s = nav_world_bake(b, NULL, &w);
    *bake_s = now() - t0;
    nav_world_builder_destroy(b);
    return nav_failed(s) ? NULL : w;
}

/* Whether path is a walk of the map and the hut (consecutive points one allowed move apart in one
 * region, or the door). */
static bool walk(const nav_world *w, const nav_world_query *q, const nav_path *path)
{
    uint32_t n;
    const nav_world_leg *legs = nav_world_query_legs(q, &n);
    for (uint32_t i = 0; i < n; i++) {
        const nav_grid *g = nav_world_region_grid(w, legs[i].region);
        int32_t wd = nav_grid_width(g);
        for (uint32_t k = legs[i].first_point + 1; k < legs[i].first_point + legs[i].point_count; k++) {
            int32_t ax = (int32_t)(path->nodes[k - 1] % (uint32_t)wd),
                    ay = (int32_t)(path->nodes[k - 1] / (uint32_t)wd),
                    bx = (int32_t)(path->nodes[k] % (uint32_t)wd),
                    by = (int32_t)(path->nodes[k] / (uint32_t)wd);
            int d = 0;
            for (; d < 8; d++) {
                int32_t dx, dy;
                nav_dir_offset((nav_dir)d, &dx, &dy);
                if (ax + dx == bx && ay + dy == by) break;
            }
            if (d == 8 || nav_grid_move_cost(g, ax, ay, (nav_dir)d) == NAV_COST_BLOCKED) return false;
        }
    }
    return true;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: world_hpa MAP [--queries N] [--cluster C] [--levels L] [--seed X]\n");
        return 2;
    }
    uint32_t queries = 500;
    nav_hpa_desc hd = {0};
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--queries"))
            queries = (uint32_t)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--cluster"))
            hd.cluster_size = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--levels"))
            hd.levels = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed"))
            state = strtoull(argv[i + 1], NULL, 10) | 1;
    }
    nav_grid *map, *hut;
    if (nav_failed(nav_grid_load_map_file(argv[1], NULL, &map))) {
        fprintf(stderr, "world_hpa: %s does not load\n", argv[1]);
        return 1;
    }
    int32_t W = nav_grid_width(map), H = nav_grid_height(map);
    /* the hut west of the map, its door onto the map's first free cell of column 0 (or any) */
    nav_grid_create(&(nav_grid_desc){.width = 4, .height = 4, .origin = {-5, 0, 0}}, &hut);
    int32_t dx = -1, dy = -1;
    for (int32_t y = 0; y < H && dx < 0; y++)
        for (int32_t x = 0; x < W && dx < 0; x++)
            if (nav_grid_passable(map, x, y)) dx = x, dy = y;
    nav_vec3 door_map = nav_grid_cell_center(map, dx, dy), door_hut = {-1.5f, 0, 1.5f};
    double hpa_bake_s = now();
    nav_hpa *hpa;
    if (nav_failed(nav_hpa_bake(map, &hd, &hpa))) return 1;
    hpa_bake_s = now() - hpa_bake_s;
    double flat_world_s, hpa_world_s;
    nav_world *flat = make_world(map, NULL, hut, door_map, door_hut, &flat_world_s),
              *through = make_world(map, hpa, hut, door_map, door_hut, &hpa_world_s);
    if (!flat || !through) return 1;
    nav_world_query *qf, *qh;
    nav_world_query_create(flat, NULL, &qf);
    nav_world_query_create(through, NULL, &qh);
    nav_path path;
    nav_path_init(&path, NULL);
    double time_f = 0, time_h = 0, ratio = 0, worst = 1;
    uint32_t found = 0, invalid = 0, wrong = 0, done = 0;
    for (uint32_t i = 0; i < queries; i++) {
        nav_vec3 ends[2];
        for (int e = 0; e < 2; e++) {
            if (e == 0 && i % 10 == 0) { /* one query in ten from the hut */
                ends[0] = (nav_vec3){-4.5f + (float)(next() % 4), 0, 0.5f + (float)(next() % 4)};
                continue;
            }
            int32_t x, y;
            do x = (int32_t)(next() % (uint32_t)W), y = (int32_t)(next() % (uint32_t)H);
            while (!nav_grid_passable(map, x, y));
            ends[e] = nav_grid_cell_center(map, x, y);
        }
        nav_world_result rf, rh;
        double t0 = now();
        nav_status sf = flat_world_query(qf, ends, &path, &rf);
        double t1 = now();
        nav_status sh = hpa_world_query(qh, ends, &path, &rh);
        double t2 = now();
        time_f += t1 - t0, time_h += t2 - t1;
        done++;
        if (sf != sh) wrong++; /* reachable in one and not the other */
        if (sh != NAV_SUCCESS) continue;
        found++;
        if (!walk(through, qh, &path)) invalid++;
        if (rh.cost < rf.cost * (1 - 1e-9)) wrong++; /* HPA* below the optimum */
        double r = rh.cost / fmax(rf.cost, 1e-9);
        ratio += r, worst = fmax(worst, r);
    }
    nav_hpa_info info;
    nav_hpa_get_info(hpa, &info);
    printf("%s: %d x %d, clusters of %d, %d levels\n", argv[1], W, H, info.cluster_side[1], info.levels);
    printf("{\"map\":\"%s\",\"cells\":%lld,\"queries\":%u,\"found\":%u,\"wrong\":%u,\"invalid\":%u,"
           "\"hpa_bake_s\":%.3f,\"flat_world_bake_s\":%.3f,\"hpa_world_bake_s\":%.3f,\"flat_mean_ms\":%.3f,"
           "\"hpa_mean_ms\":%.3f,\"speedup\":%.2f,\"mean_cost_ratio\":%.5f,\"worst_cost_ratio\":%.4f,"
           "\"hpa_bytes\":%zu,\"flat_query_bytes\":%zu,\"hpa_query_bytes\":%zu}\n",
           argv[1], (long long)W * H, done, found, wrong, invalid, hpa_bake_s, flat_world_s, hpa_world_s,
           time_f / done * 1e3, time_h / done * 1e3, time_f / fmax(time_h, 1e-12), found ? ratio / found : 0,
           worst, info.bytes, nav_world_query_memory_bytes(qf), nav_world_query_memory_bytes(qh));
    nav_path_destroy(&path);
    nav_world_query_destroy(qf);
    nav_world_query_destroy(qh);
    nav_world_destroy(flat);
    nav_world_destroy(through);
    nav_hpa_destroy(hpa);
    nav_grid_destroy(hut);
    nav_grid_destroy(map);
    return wrong || invalid;
}
