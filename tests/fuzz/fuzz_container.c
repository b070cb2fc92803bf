/* libFuzzer harness for the .nav container and the GRID chunk (see README.md beside it).
 *
 * The first input byte picks what the rest is fed to, so that one corpus reaches past the CRCs:
 *   0: a .nav file, as is: nav_container_open, then nav_grid_read_chunk on a GRID chunk;
 *   1: a .nav file whose size field and CRCs the harness repairs first, so that mutations reach the
 *      table checks (bounds, alignment, overlap, padding) and the GRID reader instead of dying at
 *      the first checksum;
 *   2: raw GRID chunk data: nav_grid_read_chunk alone.
 * Besides "no crash, no sanitizer report", it checks what a valid result promises: an opened
 * container re-written and re-opened gives the same chunks, and a loaded grid writes back to exactly
 * the bytes it was read from, with no move into a blocked cell. A broken promise traps.
 *
 * Build with NAV_FUZZ_MAKE_SEEDS to get a program that writes a seed corpus into a folder, or with
 * NAV_FUZZ_STANDALONE to get a main() that runs the files named on its command line (to reproduce
 * a crash without libFuzzer, e.g. under gcc). */
#include "fuzz_common.h"

/* A loaded grid must write back to the very bytes it came from, and move only into free cells. */
static void check_grid(const nav_grid *grid, const uint8_t *data, size_t size)
{
    nav_writer w;
    nav_writer_init(&w, NULL);
    CHECK(nav_succeeded(nav_grid_write_chunk(grid, &w)));
    CHECK(w.size == size && memcmp(w.data, data, size) == 0);
    nav_writer_destroy(&w);
    check_grid_moves(grid);
}

static void run_grid(const void *data, size_t size)
{
    nav_grid *grid = (nav_grid *)&grid;
    nav_status s = nav_grid_read_chunk(data, size, NULL, &grid);
    if (nav_failed(s)) {
        CHECK(grid == NULL);
        CHECK(s == (NAV_FAILURE | NAV_CORRUPT_DATA));
        return;
    }
    check_grid(grid, data, size);
    nav_grid_destroy(grid);
}

static void run_container(const uint8_t *data, size_t size)
{
    nav_container c;
    nav_status s = nav_container_open(data, size, NULL, &c);
    if (nav_failed(s)) {
        CHECK(c.count == 0);
        CHECK(nav_has_detail(s, NAV_CORRUPT_DATA | NAV_WRONG_VERSION | NAV_TOO_LARGE));
        return;
    }
    /* Every chunk lies inside the buffer. */
    for (uint32_t i = 0; i < c.count; i++) {
        const uint8_t *p = c.chunks[i].data;
        CHECK(p >= data && (size_t)(p - data) <= size && c.chunks[i].size <= size - (size_t)(p - data));
    }
    /* Written again, the chunks read back the same. */
    nav_writer w;
    nav_writer_init(&w, NULL);
    CHECK(nav_succeeded(nav_container_write(&w, c.chunks, c.count)));
    nav_container again;
    CHECK(nav_succeeded(nav_container_open(w.data, w.size, NULL, &again)));
    CHECK(again.count == c.count);
    for (uint32_t i = 0; i < c.count; i++) {
        CHECK(again.chunks[i].tag == c.chunks[i].tag && again.chunks[i].version == c.chunks[i].version);
        CHECK(again.chunks[i].size == c.chunks[i].size);
        CHECK(c.chunks[i].size == 0 ||
              memcmp(again.chunks[i].data, c.chunks[i].data, (size_t)c.chunks[i].size) == 0);
    }
    nav_writer_destroy(&w);

    const nav_chunk *grid_chunk = nav_container_find(&c, NAV_CHUNK_GRID);
    if (grid_chunk) run_grid(grid_chunk->data, (size_t)grid_chunk->size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0;
    uint8_t mode = data[0] % 3;
    data++;
    size--;
    /* An exact-size heap copy: ASan then catches any read past the end, and mode 1 may write. */
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy) return 0;
    if (size) memcpy(copy, data, size);
    switch (mode) {
    case 0:
        run_container(copy, size);
        break;
    case 1:
        repair_container(copy, size);
        run_container(copy, size);
        break;
    default:
        run_grid(copy, size);
        break;
    }
    free(copy);
    return 0;
}

#if defined(NAV_FUZZ_MAKE_SEEDS)
static nav_grid *seed_grid(int32_t w, int32_t h, bool heights)
{
    nav_grid *grid;
    nav_grid_desc desc = {.width = w, .height = h, .max_climb = heights ? 1.0f : 0.0f};
    if (nav_failed(nav_grid_create(&desc, &grid))) exit(1);
    nav_grid_set_terrain_cost(grid, 2, 3.0);
    nav_grid_set_terrain_cost(grid, 5, NAV_COST_BLOCKED);
    for (int32_t y = 0; y < h; y++) {
        for (int32_t x = 0; x < w; x++) {
            nav_grid_set_cell(grid, x, y, (uint8_t)((x + 2 * y) % 6));
            if (heights) nav_grid_set_cell_height(grid, x, y, (float)((x * y) % 4));
        }
    }
    return grid;
}

static void make_seeds(const char *dir)
{
    struct {
        const char *name;
        int32_t w, h;
        bool heights;
    } grids[] = {{"grid_4x3", 4, 3, false}, {"grid_9x7_heights", 9, 7, true}, {"grid_1x1", 1, 1, false}};
    for (size_t i = 0; i < sizeof grids / sizeof grids[0]; i++) {
        nav_grid *grid = seed_grid(grids[i].w, grids[i].h, grids[i].heights);
        nav_writer chunk, file;
        nav_writer_init(&chunk, NULL);
        nav_writer_init(&file, NULL);
        nav_grid_write_chunk(grid, &chunk);
        nav_chunk chunks[2] = {{NAV_CHUNK_GRID, NAV_GRID_CHUNK_VERSION, chunk.data, chunk.size},
                               {NAV_TAG('M', 'I', 'S', 'C'), 1, "misc", 4}};
        nav_container_write(&file, chunks, 2);
        char name[64];
        snprintf(name, sizeof name, "raw_%s", grids[i].name);
        write_seed(dir, name, 2, chunk.data, chunk.size);
        snprintf(name, sizeof name, "file_%s", grids[i].name);
        write_seed(dir, name, 0, file.data, file.size);
        snprintf(name, sizeof name, "repaired_%s", grids[i].name);
        write_seed(dir, name, 1, file.data, file.size);
        nav_writer_destroy(&file);
        nav_writer_destroy(&chunk);
        nav_grid_destroy(grid);
    }
    nav_chunk three[3] = {{NAV_TAG('A', 'A', 'A', 'A'), 1, "hello", 5},
                          {NAV_TAG('E', 'M', 'T', 'Y'), 2, NULL, 0},
                          {NAV_TAG('C', 'C', 'C', 'C'), 3, "0123456789abcdefghijklmnopqrstuvwxyz", 36}};
    nav_writer file;
    nav_writer_init(&file, NULL);
    nav_container_write(&file, three, 3);
    write_seed(dir, "file_three", 0, file.data, file.size);
    write_seed(dir, "repaired_three", 1, file.data, file.size);
    nav_writer_destroy(&file);
}
#endif
