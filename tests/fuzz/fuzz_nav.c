/* libFuzzer harness for whole .nav files whose GRID and HPA chunks vary together (see README.md
 * beside it): the class of issue 10's first finding, a bake loaded with a grid it was not made
 * from. Each input is a mode byte and a .nav file, loaded the way users load one, through
 * nav_hpa_load_nav on a path (an in-memory file, /proc/self/fd/N of a memfd):
 *   0: the file as it is;
 *   1: its size field and CRCs repaired first, so that mutations reach the chunk readers;
 *   2: repaired, and the HPA chunk's grid size and fingerprint set to those of the file's GRID
 *      chunk: a stale or forged bake that claims the grid it sits beside, which the reader's
 *      checks of every edge against the grid must still keep from returning an invalid path;
 *   3: a stale pair made here: the GRID chunk (repaired, at most 4096 cells) is baked with options
 *      drawn from the input, then edited (cells, terrain costs, heights drawn from the input), and
 *      the edited grid is written with the bake of the unedited one. Loading must fail with
 *      NAV_SOURCE_MISMATCH exactly when the edits changed the grid's fingerprint; a pair that loads
 *      must answer like a fresh bake: "unreachable" only where A* finds no path.
 * Besides "no crash, no sanitizer report, no leak", a file that loads must write both chunks back
 * to exactly their bytes, its grid must move only between free cells of one reachability label,
 * and every HPA* query (pairs drawn from the input) must return a valid path between the right
 * ends, at the cost it reports and no cheaper than A*'s, or a clean status.
 *
 * NAV_FUZZ_MAKE_SEEDS builds a seed writer (bakes of random grids as files in every mode, plus
 * stale pairs), NAV_FUZZ_STANDALONE a main() that replays files. Linux only (memfd_create). */
#define NAV_FUZZ_WITH_HPA
#include "fuzz_common.h"

enum { MAX_STALE_CELLS = 4096 };

/* The file's only chunk of this tag (a loaded file has exactly one). */
static const nav_chunk *the_chunk(const uint8_t *file, size_t size, nav_container *c, uint32_t tag)
{
    CHECK(nav_container_open(file, size, NULL, c) == NAV_SUCCESS);
    const nav_chunk *chunk = nav_container_find(c, tag);
    CHECK(chunk);
    return chunk;
}

static bool same_bytes(const nav_writer *w, const nav_chunk *chunk)
{
    return w->size == chunk->size && (w->size == 0 || memcmp(w->data, chunk->data, w->size) == 0);
}

/* Loads the file and checks what it promises. expect: -1, it must fail with NAV_SOURCE_MISMATCH;
 * 1, it must load; 0, either. */
static void load_and_check(const uint8_t *file, size_t size, uint64_t *rng, bool complete, int expect)
{
    nav_grid *grid = (nav_grid *)&grid;
    nav_hpa *hpa = (nav_hpa *)&hpa;
    nav_status s = nav_hpa_load_nav(memory_file(file, size), NULL, &grid, &hpa);
    FUZZ_TRACE("  load: %s (expected: %s)\n", nav_status_str(s),
               expect < 0 ? "mismatch"
               : expect   ? "load"
                          : "any");
    if (expect < 0) CHECK(s == (NAV_FAILURE | NAV_SOURCE_MISMATCH));
    if (expect > 0) CHECK(s == NAV_SUCCESS);
    if (nav_failed(s)) {
        CHECK(grid == NULL && hpa == NULL);
        CHECK(s == (NAV_FAILURE | NAV_CORRUPT_DATA) || s == (NAV_FAILURE | NAV_WRONG_VERSION) ||
              s == (NAV_FAILURE | NAV_TOO_LARGE) || s == (NAV_FAILURE | NAV_SOURCE_MISMATCH) ||
              s == (NAV_FAILURE | NAV_OUT_OF_MEMORY));
        return;
    }
    CHECK(nav_hpa_grid_fingerprint(hpa) == nav_grid_fingerprint(grid));
    nav_container c;
    nav_writer w;
    nav_writer_init(&w, NULL);
    CHECK(nav_grid_write_chunk(grid, &w) == NAV_SUCCESS);
    CHECK(same_bytes(&w, the_chunk(file, size, &c, NAV_CHUNK_GRID)));
    nav_writer_destroy(&w);
    nav_writer_init(&w, NULL);
    CHECK(nav_hpa_write_chunk(hpa, &w) == NAV_SUCCESS);
    CHECK(same_bytes(&w, the_chunk(file, size, &c, NAV_CHUNK_HPA)));
    nav_writer_destroy(&w);
    check_grid_moves(grid);
    check_hpa_queries(hpa, grid, rng, 6, complete);
    nav_hpa_destroy(hpa);
    nav_grid_destroy(grid);
}

/* Mode 2: gives the HPA chunk the size and fingerprint of the grid in the GRID chunk. */
static void claim_the_grid(uint8_t *file, size_t size)
{
    size_t grid_at, grid_size, hpa_at, hpa_size;
    if (!find_chunk_bytes(file, size, NAV_CHUNK_GRID, &grid_at, &grid_size) ||
        !find_chunk_bytes(file, size, NAV_CHUNK_HPA, &hpa_at, &hpa_size) || hpa_size < 16)
        return;
    nav_grid *grid;
    if (nav_failed(nav_grid_read_chunk(file + grid_at, grid_size, NULL, &grid))) return;
    store_u32(file + hpa_at, (uint32_t)nav_grid_width(grid));
    store_u32(file + hpa_at + 4, (uint32_t)nav_grid_height(grid));
    store_u64(file + hpa_at + 8, nav_grid_fingerprint(grid));
    nav_grid_destroy(grid);
    repair_container(file, size);
}

/* Writes grid and bake as one file (the grid's chunk first). */
static void write_pair(const nav_grid *grid, const nav_hpa *hpa, nav_writer *file)
{
    nav_writer g, h;
    nav_writer_init(&g, NULL);
    nav_writer_init(&h, NULL);
    CHECK(nav_grid_write_chunk(grid, &g) == NAV_SUCCESS);
    CHECK(nav_hpa_write_chunk(hpa, &h) == NAV_SUCCESS);
    nav_chunk chunks[2] = {{NAV_CHUNK_GRID, NAV_GRID_CHUNK_VERSION, g.data, g.size},
                           {NAV_CHUNK_HPA, NAV_HPA_CHUNK_VERSION, h.data, h.size}};
    nav_writer_init(file, NULL);
    CHECK(nav_container_write(file, chunks, 2) == NAV_SUCCESS);
    nav_writer_destroy(&h);
    nav_writer_destroy(&g);
}

static nav_hpa_desc draw_options(uint64_t *rng)
{
    uint64_t r = fuzz_next(rng);
    return (nav_hpa_desc){.cluster_size = (int32_t)(2 + r % 9),
                          .levels = (int32_t)(1 + (r >> 8) % 3),
                          .level_ratio = (int32_t)(2 + (r >> 16) % 3),
                          .long_entrance = (int32_t)(1 + (r >> 24) % 8)};
}

/* Up to three edits of a cell, a terrain cost or a height. */
static void edit_grid(nav_grid *grid, uint64_t *rng)
{
    static const double costs[] = {NAV_COST_BLOCKED, 1.0, 2.0, 5.0, NAV_COST_MIN, NAV_COST_MAX};
    int32_t w = nav_grid_width(grid), h = nav_grid_height(grid);
    for (uint64_t k = fuzz_next(rng) % 4; k > 0; k--) {
        uint64_t r = fuzz_next(rng);
        int32_t x = (int32_t)((r >> 8) % (uint32_t)w), y = (int32_t)((r >> 24) % (uint32_t)h);
        switch (r % 3) {
        case 0:
            nav_grid_set_cell(grid, x, y, (uint8_t)((r >> 40) % 6));
            break;
        case 1:
            nav_grid_set_terrain_cost(grid, (uint8_t)(1 + (r >> 40) % 5), costs[(r >> 48) % 6]);
            break;
        default:
            nav_grid_set_cell_height(grid, x, y, (float)((r >> 40) % 4));
            break;
        }
    }
}

/* Mode 3: a stale pair made from the file's grid. */
static void run_stale_pair(const uint8_t *file, size_t size, uint64_t *rng)
{
    size_t at, length;
    if (!find_chunk_bytes(file, size, NAV_CHUNK_GRID, &at, &length)) return;
    nav_grid *grid;
    if (nav_failed(nav_grid_read_chunk(file + at, length, NULL, &grid))) return;
    if ((uint64_t)nav_grid_width(grid) * (uint64_t)nav_grid_height(grid) > MAX_STALE_CELLS) {
        nav_grid_destroy(grid);
        return;
    }
    nav_hpa_desc options = draw_options(rng);
    nav_hpa *hpa;
    nav_status s = nav_hpa_bake(grid, &options, &hpa);
    CHECK(s == NAV_SUCCESS);
    uint64_t before = nav_grid_fingerprint(grid);
    edit_grid(grid, rng);
    bool changed = nav_grid_fingerprint(grid) != before;
    nav_writer pair;
    write_pair(grid, hpa, &pair);
    load_and_check(pair.data, pair.size, rng, true, changed ? -1 : 1);
    nav_writer_destroy(&pair);
    nav_hpa_destroy(hpa);
    nav_grid_destroy(grid);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0;
    uint8_t mode = data[0] % 4;
    uint64_t rng = fuzz_seed(data, size);
    size_t n = size - 1;
    uint8_t *file = malloc(n ? n : 1);
    CHECK(file);
    memcpy(file, data + 1, n);
    if (mode >= 1) repair_container(file, n);
    if (mode == 2) claim_the_grid(file, n);
    if (mode == 3)
        run_stale_pair(file, n, &rng);
    else
        load_and_check(file, n, &rng, false, 0);
    free(file);
    return 0;
}

#if defined(NAV_FUZZ_MAKE_SEEDS)
static void make_seeds(const char *dir)
{
    static const nav_hpa_desc options[] = {
        {.cluster_size = 4, .levels = 2, .level_ratio = 2},
        {.cluster_size = 3, .levels = 3, .level_ratio = 2, .long_entrance = 2},
    };
    for (uint64_t seed = 1; seed <= 8; seed++) {
        nav_grid *grid = random_grid(seed * 0x2545f491u);
        nav_hpa *hpa;
        if (nav_failed(nav_hpa_bake(grid, &options[seed % 2], &hpa))) exit(1);
        nav_writer file;
        write_pair(grid, hpa, &file);
        for (uint8_t mode = 0; mode < 4; mode++) {
            char name[64];
            snprintf(name, sizeof name, "nav_%u_mode%u", (unsigned)seed, (unsigned)mode);
            write_seed(dir, name, mode, file.data, file.size);
        }
        nav_writer_destroy(&file);
        /* a stale pair as users made them before the fingerprint: one cell opened after the bake */
        uint64_t rng = seed;
        for (int tries = 0; tries < 64; tries++) {
            uint64_t r = fuzz_next(&rng);
            int32_t x = (int32_t)(r % (uint32_t)nav_grid_width(grid));
            int32_t y = (int32_t)((r >> 32) % (uint32_t)nav_grid_height(grid));
            if (nav_grid_passable(grid, x, y)) continue;
            nav_grid_set_cell(grid, x, y, NAV_TERRAIN_PLAIN);
            break;
        }
        write_pair(grid, hpa, &file);
        char name[64];
        snprintf(name, sizeof name, "stale_%u", (unsigned)seed);
        write_seed(dir, name, 0, file.data, file.size);
        nav_writer_destroy(&file);
        nav_hpa_destroy(hpa);
        nav_grid_destroy(grid);
    }
}
#endif
