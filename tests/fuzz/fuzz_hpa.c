/* libFuzzer harness for the HPA chunk reader (see README.md beside it).
 *
 * The first input byte picks one of two fixed grids (built here), the rest is raw HPA chunk data
 * read against it by nav_hpa_read_chunk: byte 0 even, walls, a costly terrain and heights with
 * one-way steps; odd, walls on plain ground, where bakes carry distance fields. Besides "no crash, no
 * sanitizer report, no leak", it checks the reader's promise: a chunk that loads gives only valid paths. A
 * loaded bake is queried between a few fixed cell pairs; a path with a step the grid does not
 * allow, or the wrong ends, traps. A loaded bake must also write back to exactly the input.
 *
 * Build with NAV_FUZZ_MAKE_SEEDS for a program that writes seeds (bakes of the grid with several
 * options) into a folder, or with NAV_FUZZ_STANDALONE for a main() that replays files. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nav/hpa.h"
#include "nav/io.h"
#include "nav/search.h"

#define CHECK(cond)                                                                                          \
    do {                                                                                                     \
        if (!(cond)) __builtin_trap();                                                                       \
    } while (0)

enum { W = 23, H = 17 };

static nav_grid *make_grid(bool plain)
{
    nav_grid *grid;
    if (nav_failed(nav_grid_create(&(nav_grid_desc){.width = W, .height = H, .max_climb = 1.0f}, &grid)))
        return NULL;
    nav_grid_set_terrain_cost(grid, 2, 4.0);
    for (int32_t y = 0; y < H; y++)
        for (int32_t x = 0; x < W; x++) {
            uint32_t r = (uint32_t)(x * 7919 + y * 104729) % 17;
            nav_grid_set_cell(grid, x, y, r < 4 ? NAV_TERRAIN_BLOCKED : r < 6 && !plain ? 2 : 1);
            if (!plain) nav_grid_set_cell_height(grid, x, y, (float)((x / 5 + y / 4) % 3));
        }
    nav_grid_build_reachability(grid);
    return grid;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0;
    nav_grid *grid = make_grid(data[0] & 1u);
    CHECK(grid);
    data++;
    size--;
    nav_hpa *hpa = NULL;
    nav_status s = nav_hpa_read_chunk(data, size, grid, NULL, &hpa);
    if (nav_failed(s)) {
        CHECK(hpa == NULL);
        CHECK(s == (NAV_FAILURE | NAV_CORRUPT_DATA) || s == (NAV_FAILURE | NAV_INVALID_PARAM) ||
              s == (NAV_FAILURE | NAV_OUT_OF_MEMORY));
        nav_grid_destroy(grid);
        return 0;
    }
    nav_writer w;
    nav_writer_init(&w, NULL);
    CHECK(nav_hpa_write_chunk(hpa, &w) == NAV_SUCCESS);
    CHECK(w.size == size && memcmp(w.data, data, size) == 0);
    nav_writer_destroy(&w);

    nav_hpa_query *q;
    CHECK(nav_hpa_query_create(hpa, grid, &(nav_hpa_query_desc){.near_clusters = -1}, &q) == NAV_SUCCESS);
    nav_path path;
    nav_path_init(&path, NULL);
    static const int32_t pairs[][4] = {{0, 0, W - 1, H - 1}, {W - 1, 0, 0, H - 1}, {3, 8, 19, 9},
                                       {11, 1, 12, 15},      {1, 14, 21, 2},       {6, 6, 16, 11}};
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        const int32_t *p = pairs[k];
        nav_hpa_result r;
        s = nav_hpa_find_path(q, p[0], p[1], p[2], p[3], &path, &r);
        /* damaged distance fields no leg search can mend fail cleanly */
        CHECK(s == NAV_SUCCESS || s == (NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE) ||
              s == (NAV_FAILURE | NAV_BLOCKED_ENDPOINT) || s == (NAV_FAILURE | NAV_CORRUPT_DATA));
        if (s != NAV_SUCCESS) continue;
        double cost;
        CHECK(nav_grid_validate_cells(grid, &path, &cost) == NAV_SUCCESS);
        CHECK(path.nodes[0] == nav_grid_index(grid, p[0], p[1]));
        CHECK(path.nodes[path.count - 1] == nav_grid_index(grid, p[2], p[3]));
    }
    nav_path_destroy(&path);
    nav_hpa_query_destroy(q);
    nav_hpa_destroy(hpa);
    nav_grid_destroy(grid);
    return 0;
}

#if defined(NAV_FUZZ_MAKE_SEEDS)
int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    const nav_hpa_desc options[] = {
        {.cluster_size = 4, .levels = 1},
        {.cluster_size = 4, .levels = 2, .level_ratio = 2},
        {.cluster_size = 3, .levels = 3, .level_ratio = 2},
        {.cluster_size = 6, .levels = 2, .level_ratio = 3, .long_entrance = 2},
    };
    for (size_t i = 0; i < 2 * sizeof options / sizeof options[0]; i++) {
        bool plain = i % 2;
        nav_grid *grid = make_grid(plain);
        nav_hpa *hpa;
        if (nav_failed(nav_hpa_bake(grid, &options[i / 2], &hpa))) return 1;
        nav_writer w;
        nav_writer_init(&w, NULL);
        nav_hpa_write_chunk(hpa, &w);
        char path[4096];
        snprintf(path, sizeof path, "%s/hpa%zu", argv[1], i);
        FILE *f = fopen(path, "wb");
        if (!f) {
            perror(path);
            return 1;
        }
        fputc(plain ? 1 : 0, f);
        fwrite(w.data, 1, w.size, f);
        fclose(f);
        nav_writer_destroy(&w);
        nav_hpa_destroy(hpa);
        nav_grid_destroy(grid);
    }
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
        static uint8_t buffer[1 << 20];
        size_t n = fread(buffer, 1, sizeof buffer, f);
        fclose(f);
        LLVMFuzzerTestOneInput(buffer, n);
        printf("%s: ok\n", argv[i]);
    }
    return 0;
}
#endif
