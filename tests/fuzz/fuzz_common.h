/* What the libFuzzer harnesses beside this file share (see README.md here): the trap that marks a
 * broken promise, little-endian byte access, the repair of a .nav file's size field and CRCs, the
 * check every loaded grid must pass, an in-memory file for the _file loaders, and the two extra
 * programs each harness builds into:
 *   NAV_FUZZ_MAKE_SEEDS: a main() that writes the harness's seed corpus into a folder (the harness
 *     defines make_seeds(dir) and calls write_seed);
 *   NAV_FUZZ_STANDALONE: a main() that runs the files named on its command line, to replay a crash
 *     without libFuzzer (under gcc, valgrind or a debugger).
 * Header-only, included once by each harness. */
#ifndef NAV_FUZZ_COMMON_H
#define NAV_FUZZ_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "nav/grid.h"
#include "nav/io.h"

#define CHECK(cond)                                                                                          \
    do {                                                                                                     \
        if (!(cond)) __builtin_trap();                                                                       \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What a harness saw, told only by the standalone replayer (libFuzzer runs stay quiet). */
#if defined(NAV_FUZZ_STANDALONE)
#define FUZZ_TRACE(...) fprintf(stderr, __VA_ARGS__)
#else
#define FUZZ_TRACE(...) ((void)0)
#endif

/* An exact-size copy of data[0 .. n) (malloc'd; the caller frees it): ASan then sees a loader's
 * reads past the end of its input, which libFuzzer's own buffer may hide. */
static inline uint8_t *fuzz_copy(const uint8_t *data, size_t n)
{
    uint8_t *copy = malloc(n ? n : 1);
    CHECK(copy);
    memcpy(copy, data, n);
    return copy;
}

static inline uint32_t load_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t load_u64(const uint8_t *p)
{
    return (uint64_t)load_u32(p) | (uint64_t)load_u32(p + 4) << 32;
}

static inline void store_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static inline void store_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Makes a .nav file's size field and every checksum that can be computed agree with its bytes, so
 * that mutations reach the checks behind the CRCs. */
static inline void repair_container(uint8_t *file, size_t size)
{
    if (size < 32) return;
    store_u64(file + 16, size);
    uint64_t count = load_u32(file + 12);
    if (count > (size - 32) / 32) return;
    for (uint64_t i = 0; i < count; i++) {
        uint8_t *entry = file + 32 + 32 * i;
        uint64_t offset = load_u64(entry + 8), length = load_u64(entry + 16);
        if (offset <= size && length <= size - offset)
            store_u32(entry + 24, nav_crc32(0, file + offset, (size_t)length));
    }
    uint32_t crc = nav_crc32(0, file, 28);
    store_u32(file + 28, nav_crc32(crc, file + 32, (size_t)count * 32));
}

/* The chunk with this tag in a repaired-or-not file: its offset and size, when the table entry
 * lies inside the file. */
static inline bool find_chunk_bytes(const uint8_t *file, size_t size, uint32_t tag, size_t *offset,
                                    size_t *length)
{
    if (size < 32) return false;
    uint64_t count = load_u32(file + 12);
    if (count > (size - 32) / 32) return false;
    for (uint64_t i = 0; i < count; i++) {
        const uint8_t *entry = file + 32 + 32 * i;
        uint64_t o = load_u64(entry + 8), n = load_u64(entry + 16);
        if (load_u32(entry) == tag && o <= size && n <= size - o) {
            *offset = (size_t)o;
            *length = (size_t)n;
            return true;
        }
    }
    return false;
}

/* Writes the bytes to an in-memory file (one memfd a process, reused) and returns a path that opens
 * it, /proc/self/fd/N: the _file loaders then read an input without touching the disk. Linux only. */
static inline const char *memory_file(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("nav_fuzz", 0);
        CHECK(fd >= 0);
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    CHECK(ftruncate(fd, 0) == 0);
    for (size_t done = 0; done < size;) {
        ssize_t n = pwrite(fd, data + done, size - done, (off_t)done);
        CHECK(n > 0);
        done += (size_t)n;
    }
    return path;
}

/* A loaded grid moves only between free cells, and only within one reachability label. */
static inline void check_grid_moves(const nav_grid *grid)
{
    CHECK(nav_grid_has_reachability(grid));
    for (int32_t y = 0; y < nav_grid_height(grid); y++) {
        for (int32_t x = 0; x < nav_grid_width(grid); x++) {
            uint8_t moves = nav_grid_moves(grid, x, y);
            CHECK(moves == 0 || nav_grid_passable(grid, x, y));
            for (int d = 0; d < 8; d++) {
                if (!(moves >> d & 1)) continue;
                int32_t dx, dy;
                nav_dir_offset((nav_dir)d, &dx, &dy);
                CHECK(nav_grid_passable(grid, x + dx, y + dy));
                CHECK(nav_grid_component(grid, x, y) == nav_grid_component(grid, x + dx, y + dy));
            }
        }
    }
}

/* A small deterministic generator (splitmix64) for harnesses that draw grids or edits from input
 * bytes. */
static inline uint64_t fuzz_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static inline uint64_t fuzz_seed(const uint8_t *data, size_t size)
{
    uint64_t h = 0xcbf29ce484222325u; /* FNV-1a */
    for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 0x100000001b3u;
    return h;
}

/* A grid drawn from a seed: 1 to 40 cells a side, walls, up to four costly terrains, heights with
 * one-way steps or none, every connectivity and corner policy. Null only when out of memory. */
static inline nav_grid *random_grid(uint64_t seed)
{
    uint64_t rng = seed;
    uint64_t r = fuzz_next(&rng);
    nav_grid_desc desc = {
        .width = (int32_t)(1 + r % 40),
        .height = (int32_t)(1 + (r >> 8) % 40),
        .connectivity = (r >> 16) % 3 == 0 ? NAV_CONNECT_4 : NAV_CONNECT_8,
        .corner_policy = (nav_corner_policy)(1 + (r >> 20) % 3),
        .max_climb = (r >> 24) % 2 ? 1.0f : 0.0f,
    };
    bool heights = (r >> 24) % 2, costs = (r >> 28) % 2;
    uint32_t wall_percent = (uint32_t)(r >> 32) % 45;
    nav_grid *grid;
    if (nav_failed(nav_grid_create(&desc, &grid))) return NULL;
    static const double cost_choice[] = {0.5, 1.0, 1.5, 2.0, 3.0, 8.0, NAV_COST_MIN, NAV_COST_MAX};
    for (int t = 2; t <= 5 && costs; t++)
        nav_grid_set_terrain_cost(grid, (uint8_t)t, cost_choice[fuzz_next(&rng) % 8]);
    for (int32_t y = 0; y < desc.height; y++)
        for (int32_t x = 0; x < desc.width; x++) {
            uint64_t c = fuzz_next(&rng);
            uint8_t terrain = c % 100 < wall_percent ? NAV_TERRAIN_BLOCKED
                              : costs                ? (uint8_t)(1 + (c >> 8) % 5)
                                                     : 1;
            nav_grid_set_cell(grid, x, y, terrain);
            if (heights) nav_grid_set_cell_height(grid, x, y, (float)((c >> 16) % 4));
        }
    if (nav_failed(nav_grid_build_reachability(grid))) {
        nav_grid_destroy(grid);
        return NULL;
    }
    return grid;
}

#if defined(NAV_FUZZ_WITH_HPA)
#include <math.h>

#include "nav/hpa.h"
#include "nav/search.h"

/* Queries a loaded bake between `pairs` cell pairs drawn from rng and traps on a broken promise:
 * every path HPA* returns is valid, joins the right ends and costs what its result says, never less
 * than A*'s optimum. With `complete` (the bake is known to be a genuine bake of this grid) also
 * "unreachable" only where A* finds no path. A forged chunk gets only the first promise: a chunk
 * whose bytes are all checkable cannot be checked for the edges it leaves out. */
static inline void check_hpa_queries(const nav_hpa *hpa, const nav_grid *grid, uint64_t *rng, int pairs,
                                     bool complete)
{
    nav_hpa_query *q;
    nav_grid_query *gq;
    int32_t near = (int32_t)(fuzz_next(rng) % 3) - 1; /* -1: always abstract; 0: default; 1 */
    CHECK(nav_hpa_query_create(hpa, grid, &(nav_hpa_query_desc){.near_clusters = near}, &q) == NAV_SUCCESS);
    CHECK(nav_grid_query_create(grid, NULL, &gq) == NAV_SUCCESS);
    nav_path path, best;
    nav_path_init(&path, NULL);
    nav_path_init(&best, NULL);
    int32_t w = nav_grid_width(grid), h = nav_grid_height(grid);
    for (int k = 0; k < pairs; k++) {
        uint64_t r = fuzz_next(rng);
        int32_t sx = (int32_t)(r % (uint32_t)w), sy = (int32_t)((r >> 16) % (uint32_t)h);
        int32_t gx = (int32_t)((r >> 32) % (uint32_t)w), gy = (int32_t)((r >> 48) % (uint32_t)h);
        nav_hpa_result hr;
        nav_status s = nav_hpa_find_path(q, sx, sy, gx, gy, &path, &hr);
        /* damaged distance fields no leg search can mend fail cleanly */
        CHECK(s == NAV_SUCCESS || s == (NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE) ||
              s == (NAV_FAILURE | NAV_BLOCKED_ENDPOINT) ||
              (!complete && s == (NAV_FAILURE | NAV_CORRUPT_DATA)));
        nav_search_result ar;
        nav_status a = nav_grid_find_path(gq, NULL, sx, sy, gx, gy, &best, &ar);
        if (s == (NAV_FAILURE | NAV_BLOCKED_ENDPOINT)) CHECK(a == s);
        if (complete && nav_has_detail(s, NAV_UNREACHABLE)) CHECK(nav_has_detail(a, NAV_UNREACHABLE));
        if (s != NAV_SUCCESS) continue;
        CHECK(a == NAV_SUCCESS);
        double cost;
        CHECK(nav_grid_validate_cells(grid, &path, &cost) == NAV_SUCCESS);
        CHECK(path.nodes[0] == nav_grid_index(grid, sx, sy));
        CHECK(path.nodes[path.count - 1] == nav_grid_index(grid, gx, gy));
        CHECK(fabs(cost - hr.cost) <= 1e-9 * (1.0 + cost));
        CHECK(cost >= ar.cost - 1e-9 * (1.0 + cost));
    }
    nav_path_destroy(&best);
    nav_path_destroy(&path);
    nav_grid_query_destroy(gq);
    nav_hpa_query_destroy(q);
}
#endif

#if defined(NAV_FUZZ_MAKE_SEEDS)
/* Writes mode byte + bytes as DIR/NAME; exits on failure. */
static void write_seed(const char *dir, const char *name, uint8_t mode, const void *bytes, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(1);
    }
    fputc(mode, f);
    if (size) fwrite(bytes, 1, size, f);
    if (fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

static void make_seeds(const char *dir);

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
        return 2;
    }
    make_seeds(argv[1]);
    return 0;
}
#elif defined(NAV_FUZZ_STANDALONE)
int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            return 1;
        }
        static uint8_t buffer[1 << 22];
        size_t n = fread(buffer, 1, sizeof buffer, f);
        fclose(f);
        uint8_t *input = malloc(n ? n : 1); /* exact size, so that tools see reads past the end */
        if (!input) return 1;
        memcpy(input, buffer, n);
        LLVMFuzzerTestOneInput(input, n);
        free(input);
        printf("%s: ok\n", argv[i]);
    }
    return 0;
}
#endif

#endif
