/* The open world of issue 13: T x T tiles of S x S cells (generated terrain: round rocks scattered
 * over plain ground, a tile's rocks from its own seed), each a grid region, joined where they touch
 * (by entrances, as HPA* places transitions, or by every move), baked; then random queries across
 * the whole world, each timed in parts (locate, plan, legs) and checked: every path a walk of the
 * one grid the tiles make (8-connected, corners never cut), and, on a sample, its cost against A*
 * on that one grid (built for the comparison only). Prints, last, one JSON line.
 *
 * usage: open_world [--tiles T] [--side S] [--queries N] [--sample M] [--threads K] [--seed X]
 *                   [--join entrances|every] [--long N] [--save FILE.nav] [--write DIR]
 *        defaults: 64 tiles, 256 cells, 1000 queries, a sample of 100, every core, seed 1, entrances
 *        (--long: an entrance this long or longer gets two links, at its ends; 0: the join's default,
 *        6, as in HPA*; the default here: never, one link in the middle of each entrance, which halves
 *        the chokepoints and the bake's time for routes a little dearer: bench/README.md)
 *        --save: the baked world is written to FILE.nav and read back (timed, with its bytes), and
 *        the queries run on the world read back;
 *        --write: the tiles are written to DIR as Moving AI maps with DIR/world.json joining them the
 *        same way (for navtool bake and tools/split_bake.sh), before the bake;
 *        --load FILE.nav [--budget MB]: no bake: the world of an earlier --save (same --tiles, --side,
 *        --seed) read whole, or with its regions on demand within MB, then the queries, checked
 *        as walks of the one grid, with the process's peak memory */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "nav/search.h"
#include "nav/world.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30, x *= 0xbf58476d1ce4e5b9ull, x ^= x >> 27, x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

typedef struct rng {
    uint64_t s;
} rng;

static uint32_t next(rng *r)
{
    r->s = mix64(r->s + 0x9e3779b97f4a7c15ull);
    return (uint32_t)r->s;
}

static double peak_rss_mb(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_maxrss / 1024.0;
}

/* A tile: plain ground with round rocks (radius 2 to 7), one for every 400 cells. */
static void rocks(uint8_t *cells, int32_t side, uint64_t seed)
{
    rng r = {seed};
    memset(cells, 1, (size_t)side * (size_t)side);
    for (int32_t k = 0; k < side * side / 400; k++) {
        int32_t cx = (int32_t)(next(&r) % (uint32_t)side), cy = (int32_t)(next(&r) % (uint32_t)side),
                rad = 2 + (int32_t)(next(&r) % 6);
        for (int32_t y = cy - rad; y <= cy + rad; y++)
            for (int32_t x = cx - rad; x <= cx + rad; x++)
                if (x >= 0 && y >= 0 && x < side && y < side &&
                    (x - cx) * (x - cx) + (y - cy) * (y - cy) <= rad * rad)
                    cells[(size_t)y * (size_t)side + (size_t)x] = 0;
    }
}

typedef struct world_map {
    int32_t tiles, side;
    uint8_t **cells; /* a tile's cells, row-major */
    uint64_t seed;
    /* --load: tiles made again when a check needs them, and freed after each query (so that the
     * process's memory is the world's, not a copy of the map's) */
    bool on_demand;
    uint32_t *made, made_count;
} world_map;

static bool free_at(world_map *m, int64_t x, int64_t y)
{
    int64_t n = (int64_t)m->tiles * m->side;
    if (x < 0 || y < 0 || x >= n || y >= n) return false;
    int64_t t = (y / m->side) * m->tiles + x / m->side;
    if (!m->cells[t]) {
        m->cells[t] = malloc((size_t)m->side * (size_t)m->side);
        rocks(m->cells[t], m->side, mix64(m->seed * 1000003u + (uint64_t)t));
        m->made[m->made_count++] = (uint32_t)t;
    }
    return m->cells[t][(y % m->side) * m->side + x % m->side] != 0;
}

static void forget_tiles(world_map *m)
{
    for (uint32_t i = 0; m->on_demand && i < m->made_count; i++) {
        free(m->cells[m->made[i]]);
        m->cells[m->made[i]] = NULL;
    }
    if (m->on_demand) m->made_count = 0;
}

/* A path of world points (cell centres) is a walk of the one grid: each step to a neighbouring free
 * cell, diagonals only with both side cells free; its length summed. False when not. */
static bool walk(world_map *m, const nav_path *p, double *length)
{
    *length = 0;
    for (uint32_t i = 0; i < p->count; i++) {
        int64_t x = (int64_t)floor(p->points[i].x), y = (int64_t)floor(p->points[i].z);
        if (!free_at(m, x, y)) return false;
        if (i == 0) continue;
        int64_t px = (int64_t)floor(p->points[i - 1].x), py = (int64_t)floor(p->points[i - 1].z);
        int64_t dx = x - px, dy = y - py;
        if (dx < -1 || dx > 1 || dy < -1 || dy > 1) return false;
        if (dx && dy && (!free_at(m, px + dx, py) || !free_at(m, px, py + dy))) return false;
        *length += dx && dy ? sqrt(2.0) : dx || dy ? 1.0 : 0.0;
    }
    return true;
}

/* The tiles as Moving AI maps in dir (made if missing), and dir/world.json: a grid region a tile at
 * its place, joined as the bake here joins them. Returns 0, or 1 having said why. */
static int write_world(const char *dir, const world_map *m, nav_world_join_mode mode, int32_t long_entrance)
{
    char path[4096];
    snprintf(path, sizeof path, "mkdir -p '%s'", dir);
    if (system(path) != 0) return 1;
    snprintf(path, sizeof path, "%s/world.json", dir);
    FILE *json = fopen(path, "w");
    if (!json) {
        perror(path);
        return 1;
    }
    fprintf(json, "{\n  \"regions\": [\n");
    char *row = malloc((size_t)m->side + 2);
    for (int32_t ty = 0; ty < m->tiles; ty++)
        for (int32_t tx = 0; tx < m->tiles; tx++) {
            const uint8_t *cells = m->cells[(size_t)ty * (size_t)m->tiles + (size_t)tx];
            snprintf(path, sizeof path, "%s/tile_%d_%d.map", dir, tx, ty);
            FILE *f = fopen(path, "w");
            if (!f) {
                perror(path);
                return 1;
            }
            fprintf(f, "type octile\nheight %d\nwidth %d\nmap\n", m->side, m->side);
            for (int32_t y = 0; y < m->side; y++) {
                for (int32_t x = 0; x < m->side; x++)
                    row[x] = cells[(size_t)y * (size_t)m->side + (size_t)x] ? '.' : '@';
                row[m->side] = '\n';
                fwrite(row, 1, (size_t)m->side + 1, f);
            }
            fclose(f);
            fprintf(
                json,
                "    {\"name\": \"tile %d,%d\", \"grid\": \"tile_%d_%d.map\", \"origin\": [%d, 0, %d]}%s\n",
                tx, ty, tx, ty, tx * m->side, ty * m->side,
                tx + 1 == m->tiles && ty + 1 == m->tiles ? "" : ",");
        }
    free(row);
    fprintf(json, "  ],\n  \"join\": {\"mode\": \"%s\"",
            mode == NAV_WORLD_JOIN_EVERY ? "every" : "entrances");
    if (long_entrance) fprintf(json, ", \"long_entrance\": %d", long_entrance);
    fprintf(json, "},\n  \"links\": []\n}\n");
    return fclose(json) != 0;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* --load FILE [--budget MB]: the world read from its file (whole, or its regions on demand within
 * the budget), then the queries, each checked as a walk of the one grid (the tiles made again for
 * the check and let go after it, outside the timing), with the process's peak memory. */
static int run_loaded(const char *path, double budget_mb, world_map *m, uint32_t queries, uint64_t seed)
{
    double t0 = now();
    nav_world *w;
    nav_status s = nav_world_load_nav(
        path, &(nav_world_load_desc){.region_budget = (size_t)(budget_mb * 1024 * 1024)}, &w);
    if (nav_failed(s)) {
        fprintf(stderr, "open_world: %s does not load: %s\n", path, nav_status_str(s));
        return 1;
    }
    double load_s = now() - t0, rss_loaded = peak_rss_mb();
    nav_world_query *q;
    if (nav_failed(nav_world_query_create(w, NULL, &q))) return 1;
    nav_path path_points;
    nav_path_init(&path_points, NULL);
    rng r = {seed ^ 0x5eed};
    int64_t n = (int64_t)m->tiles * m->side;
    double *total = calloc(queries ? queries : 1, sizeof *total);
    uint32_t invalid = 0, found = 0, failed = 0;
    for (uint32_t i = 0; i < queries; i++) {
        nav_vec3 ends[2];
        for (int e = 0; e < 2; e++) {
            int64_t x, y;
            do x = next(&r) % (uint64_t)n, y = next(&r) % (uint64_t)n;
            while (!free_at(m, x, y));
            ends[e] = (nav_vec3){(float)x + 0.5f, 0, (float)y + 0.5f};
        }
        nav_world_result res;
        double a = now();
        s = nav_world_find_path(q, ends[0], ends[1], &path_points, &res);
        total[i] = now() - a;
        if (nav_failed(s)) failed++;
        if (s == NAV_SUCCESS) {
            found++;
            double length;
            if (!walk(m, &path_points, &length) || fabs(length - res.cost) > 1e-6 * fmax(1, res.cost))
                invalid++;
        }
        forget_tiles(m);
    }
    qsort(total, queries, sizeof *total, by_value);
    double mean = 0;
    for (uint32_t i = 0; i < queries; i++) mean += total[i];
    mean /= queries ? queries : 1;
    nav_world_cache_info c;
    nav_world_get_cache_info(w, &c);
    nav_world_info info;
    nav_world_get_info(w, &info);
    printf("{\"load\":\"%s\",\"budget_mb\":%.0f,\"load_s\":%.2f,\"world_table_bytes\":%zu,\"queries\":%u,"
           "\"found\":%u,\"failed\":%u,\"invalid\":%u,\"mean_ms\":%.3f,\"p95_ms\":%.3f,\"region_loads\":%llu,"
           "\"evictions\":%llu,\"peak_loaded_region_mb\":%.1f,\"rss_after_load_mb\":%.0f,\"peak_rss_mb\":%."
           "0f}\n",
           path, budget_mb, load_s, info.bytes, queries, found, failed, invalid, mean * 1e3,
           queries ? total[(size_t)(0.95 * (queries - 1))] * 1e3 : 0, (unsigned long long)c.loads,
           (unsigned long long)c.evictions, (double)c.peak_loaded_bytes / (1024.0 * 1024.0), rss_loaded,
           peak_rss_mb());
    nav_path_destroy(&path_points);
    nav_world_query_destroy(q);
    nav_world_destroy(w);
    free(total);
    return failed || invalid;
}

int main(int argc, char **argv)
{
    int32_t tiles = 64, side = 256;
    uint32_t queries = 1000, sample = 100, threads = 0;
    uint64_t seed = 1;
    nav_world_join_mode mode = NAV_WORLD_JOIN_ENTRANCES;
    int32_t long_entrance = INT32_MAX;
    const char *save = NULL, *write_dir = NULL, *load = NULL;
    double budget_mb = 0;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : "";
        if (!strcmp(argv[i], "--tiles"))
            tiles = atoi(v), i++;
        else if (!strcmp(argv[i], "--side"))
            side = atoi(v), i++;
        else if (!strcmp(argv[i], "--queries"))
            queries = (uint32_t)atoi(v), i++;
        else if (!strcmp(argv[i], "--sample"))
            sample = (uint32_t)atoi(v), i++;
        else if (!strcmp(argv[i], "--threads"))
            threads = (uint32_t)atoi(v), i++;
        else if (!strcmp(argv[i], "--seed"))
            seed = strtoull(v, NULL, 10), i++;
        else if (!strcmp(argv[i], "--long"))
            long_entrance = atoi(v), i++;
        else if (!strcmp(argv[i], "--save"))
            save = v, i++;
        else if (!strcmp(argv[i], "--write"))
            write_dir = v, i++;
        else if (!strcmp(argv[i], "--load"))
            load = v, i++;
        else if (!strcmp(argv[i], "--budget"))
            budget_mb = atof(v), i++;
        else if (!strcmp(argv[i], "--join"))
            mode = strcmp(v, "every") ? NAV_WORLD_JOIN_ENTRANCES : NAV_WORLD_JOIN_EVERY, i++;
        else {
            fprintf(stderr, "open_world: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (tiles < 1 || side < 2 || (int64_t)tiles * side > 32768) {
        fprintf(stderr, "open_world: 1 tile or more, sides of 2 or more, at most 32768 cells across\n");
        return 2;
    }
    world_map m = {tiles, side,         calloc((size_t)tiles * (size_t)tiles, sizeof(uint8_t *)),
                   seed,  load != NULL, calloc((size_t)tiles * (size_t)tiles, sizeof(uint32_t)),
                   0};
    if (load) return run_loaded(load, budget_mb, &m, queries, seed);
    nav_grid **grids = calloc((size_t)tiles * (size_t)tiles, sizeof *grids);
    nav_world_builder *b;
    if (!m.cells || !grids || nav_failed(nav_world_builder_create(NULL, NULL, &b))) return 1;
    double t0 = now();
    for (int32_t ty = 0; ty < tiles; ty++)
        for (int32_t tx = 0; tx < tiles; tx++) {
            size_t t = (size_t)ty * (size_t)tiles + (size_t)tx;
            free_at(&m, tx * side, ty * side); /* makes the tile */
            nav_grid_desc d = {
                .width = side, .height = side, .origin = {(float)(tx * side), 0, (float)(ty * side)}};
            if (nav_failed(nav_grid_create(&d, &grids[t]))) return 1;
            for (int32_t y = 0; y < side; y++)
                for (int32_t x = 0; x < side; x++)
                    if (!m.cells[t][(size_t)y * (size_t)side + (size_t)x])
                        nav_grid_set_cell(grids[t], x, y, NAV_TERRAIN_BLOCKED);
            char name[32];
            snprintf(name, sizeof name, "tile %d,%d", tx, ty);
            if (nav_failed(nav_world_builder_add_grid(b, name, grids[t], NULL))) return 1;
        }
    double made = now();
    if (write_dir && write_world(write_dir, &m, mode, long_entrance)) return 1;
    uint32_t joined = 0;
    nav_world *w;
    nav_status js = nav_world_builder_join_touching(
        b, &(nav_world_join_desc){.mode = mode, .long_entrance = long_entrance}, &joined);
    double join_end = now();
    if (nav_failed(js) || nav_failed(nav_world_bake(b, &(nav_world_bake_desc){.threads = threads}, &w))) {
        fprintf(stderr, "open_world: the bake failed\n");
        return 1;
    }
    nav_world_builder_destroy(b);
    double baked = now();
    nav_world_info info;
    nav_world_get_info(w, &info);
    double save_s = 0, load_s = 0, rss_loaded = 0;
    long long file_bytes = 0;
    if (save) { /* through its file: the queries run on the world read back */
        double s0 = now();
        if (nav_failed(nav_world_save_nav(w, save))) return 1;
        double s1 = now();
        nav_world_destroy(w);
        nav_status ls = nav_world_load_nav(save, NULL, &w);
        load_s = now() - s1, save_s = s1 - s0;
        if (nav_failed(ls)) {
            fprintf(stderr, "open_world: %s does not load: %s\n", save, nav_status_str(ls));
            return 1;
        }
        FILE *f = fopen(save, "rb");
        if (f && fseek(f, 0, SEEK_END) == 0) file_bytes = ftell(f);
        if (f) fclose(f);
        rss_loaded = peak_rss_mb();
        fprintf(stderr, "saved to %s in %.1f s (%lld bytes), read back in %.1f s\n", save, save_s, file_bytes,
                load_s);
    }
    fprintf(stderr,
            "%d x %d tiles of %d x %d: made in %.1f s, joined (%u links) and baked in %.1f s, %u "
            "chokepoints, %zu bytes\n",
            tiles, tiles, side, side, made - t0, joined, baked - made, info.chokepoints, info.bytes);

    nav_world_query *q;
    if (nav_failed(nav_world_query_create(w, NULL, &q))) return 1;
    nav_path path;
    nav_path_init(&path, NULL);
    rng r = {seed ^ 0x5eed};
    int64_t n = (int64_t)tiles * side;
    double *total = calloc(queries ? queries : 1, sizeof *total), locate = 0, plan = 0, legs = 0;
    nav_vec3 *ends = calloc(2 * (size_t)(queries ? queries : 1), sizeof *ends);
    double *costs = calloc(queries ? queries : 1, sizeof *costs);
    uint32_t invalid = 0, found = 0;
    double cells = 0, chokes = 0; /* the plans' work: the ends' tiles' cells (their fans) and chokepoints */
    double fans_s = 0, search_s = 0; /* and their time (nav_world_query_set_timing) */
    nav_world_query_set_timing(q, true);
    for (uint32_t i = 0; i < queries; i++) {
        for (int e = 0; e < 2; e++) {
            int64_t x, y;
            do x = next(&r) % (uint64_t)n, y = next(&r) % (uint64_t)n;
            while (!free_at(&m, x, y));
            ends[2 * i + (uint32_t)e] = (nav_vec3){(float)x + 0.5f, 0, (float)y + 0.5f};
        }
        nav_world_place pa, pb;
        nav_world_result res;
        double a = now();
        nav_world_locate(w, ends[2 * i], &pa);
        nav_world_locate(w, ends[2 * i + 1], &pb);
        double c = now();
        nav_status s = nav_world_plan(q, ends[2 * i], ends[2 * i + 1], &res);
        double d = now();
        nav_path_clear(&path);
        uint32_t count;
        nav_world_query_legs(q, &count);
        double cost = 0;
        for (uint32_t k = 0; s == NAV_SUCCESS && k < count; k++) {
            if (nav_failed(nav_world_refine_leg(q, k, &path))) invalid++;
            const nav_world_leg *l = &nav_world_query_legs(q, NULL)[k];
            cost += l->cost + l->link_cost;
        }
        double e = now();
        locate += c - a, plan += d - c - (c - a), legs += e - d; /* plan locates again: counted once */
        cells += res.cells_expanded, chokes += res.chokepoints_expanded;
        fans_s += res.fans_s, search_s += res.search_s;
        total[i] = e - c;
        costs[i] = s == NAV_SUCCESS ? cost : INFINITY;
        if (s == NAV_SUCCESS) {
            found++;
            double length;
            if (!walk(&m, &path, &length) || fabs(length - cost) > 1e-6 * fmax(1, cost)) invalid++;
        }
    }
    double rss_worlds = peak_rss_mb();
    /* the sample against A* on the one grid */
    uint32_t wrong = 0, compared = 0;
    double ratio_sum = 0;
    if (sample > queries) sample = queries;
    if (sample) {
        nav_grid *flat;
        if (nav_failed(nav_grid_create(&(nav_grid_desc){.width = (int32_t)n, .height = (int32_t)n}, &flat)))
            return 1;
        for (int64_t y = 0; y < n; y++)
            for (int64_t x = 0; x < n; x++)
                if (!free_at(&m, x, y)) nav_grid_set_cell(flat, (int32_t)x, (int32_t)y, NAV_TERRAIN_BLOCKED);
        nav_grid_query *fq;
        if (nav_failed(nav_grid_query_create(flat, NULL, &fq))) return 1;
        nav_path fp;
        nav_path_init(&fp, NULL);
        for (uint32_t i = 0; i < sample; i++) {
            nav_search_result fr;
            nav_vec3 a = ends[2 * i], c = ends[2 * i + 1];
            nav_status s = nav_grid_find_path(fq, &(nav_search_desc){.algo = NAV_ALGO_ASTAR}, (int32_t)a.x,
                                              (int32_t)a.z, (int32_t)c.x, (int32_t)c.z, &fp, &fr);
            bool reach = nav_succeeded(s) && !nav_has_detail(s, NAV_PARTIAL_RESULT);
            if (reach != (costs[i] < INFINITY)) wrong++;
            if (reach && costs[i] < INFINITY) {
                ratio_sum += fr.cost > 0 ? costs[i] / fr.cost : 1;
                compared++;
            }
        }
        nav_path_destroy(&fp);
        nav_grid_query_destroy(fq);
        nav_grid_destroy(flat);
    }
    qsort(total, queries, sizeof *total, by_value);
    double mean = 0;
    for (uint32_t i = 0; i < queries; i++) mean += total[i];
    mean /= queries ? queries : 1;
    printf(
        "{\"tiles\":%d,\"side\":%d,\"cells\":%lld,\"join\":\"%s\",\"long_entrance\":%d,\"links\":%u,"
        "\"chokepoints\":%u,\"bake_"
        "s\":%.2f,"
        "\"join_s\":%.2f,\"make_s\":%.2f,\"bytes\":%zu,\"queries\":%u,\"found\":%u,\"wrong\":%u,"
        "\"invalid\":%u,\"mean_ms\":%.3f,"
        "\"p95_ms\":%.3f,\"locate_ms\":%.4f,\"plan_ms\":%.3f,\"legs_ms\":%.3f,\"fans_ms\":%.3f,\"search_ms\":"
        "%.3f,\"fan_cells\":%.0f,"
        "\"chokepoints_searched\":%.0f,\"sample\":%u,"
        "\"mean_cost_ratio\":%.5f,\"peak_rss_mb\":%.0f,\"peak_rss_mb_before_flat\":%.0f,\"file_bytes\":%lld,"
        "\"save_s\":%.2f,\"load_s\":%.2f}\n",
        tiles, side, (long long)n * n, mode == NAV_WORLD_JOIN_EVERY ? "every" : "entrances",
        long_entrance ? long_entrance : 6, joined, info.chokepoints, baked - made, join_end - made, made - t0,
        info.bytes, queries, found, wrong, invalid, mean * 1e3,
        queries ? total[(size_t)(0.95 * (queries - 1))] * 1e3 : 0, locate / (queries ? queries : 1) * 1e3,
        plan / (queries ? queries : 1) * 1e3, legs / (queries ? queries : 1) * 1e3,
        fans_s / (queries ? queries : 1) * 1e3, search_s / (queries ? queries : 1) * 1e3,
        cells / (queries ? queries : 1), chokes / (queries ? queries : 1), compared,
        compared ? ratio_sum / compared : 0, peak_rss_mb(), rss_worlds, file_bytes, save_s, load_s);
    (void)rss_loaded;
    nav_path_destroy(&path);
    nav_world_query_destroy(q);
    nav_world_destroy(w);
    for (size_t t = 0; t < (size_t)tiles * (size_t)tiles; t++) {
        nav_grid_destroy(grids[t]);
        free(m.cells[t]);
    }
    free(grids), free(m.cells), free(total), free(ends), free(costs);
    return 0;
}
