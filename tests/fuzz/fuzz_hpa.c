/* libFuzzer harness for the HPA chunk reader against random grids (see README.md beside it).
 *
 * Input: a mode byte, 8 bytes that seed a grid (random_grid: 1 to 40 cells a side, walls, costly
 * terrains, heights with one-way steps, every connectivity and corner policy), then raw HPA chunk
 * data, read against that grid by nav_hpa_read_chunk. Mode bit 0 set: the harness first writes the
 * grid's size and fingerprint into the chunk's header, so that mutations of the grid seed or of the
 * chunk reach the checks behind the fingerprint (edges against another grid's moves); clear: the
 * chunk as it is, where a bake of another grid must be refused with NAV_SOURCE_MISMATCH.
 *
 * Besides "no crash, no sanitizer report, no leak", a chunk that loads must write back to exactly
 * its bytes, and every query on it (pairs drawn from the input) must return a valid path between
 * the right ends at the cost it reports and no cheaper than A*'s, or a clean status.
 *
 * NAV_FUZZ_MAKE_SEEDS builds a program that writes seeds (bakes of several random grids with four
 * option sets, in both modes); NAV_FUZZ_STANDALONE a main() that replays files. */
#define NAV_FUZZ_WITH_HPA
#include "fuzz_common.h"

enum { HEADER = 9 }; /* mode byte, grid seed */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < HEADER) return 0;
    nav_grid *grid = random_grid(load_u64(data + 1));
    CHECK(grid);
    size_t n = size - HEADER;
    uint8_t *chunk = fuzz_copy(data + HEADER, n);
    if ((data[0] & 1u) && n >= 16) {
        store_u32(chunk, (uint32_t)nav_grid_width(grid));
        store_u32(chunk + 4, (uint32_t)nav_grid_height(grid));
        store_u64(chunk + 8, nav_grid_fingerprint(grid));
    }
    nav_hpa *hpa = (nav_hpa *)&hpa;
    nav_status s = nav_hpa_read_chunk(chunk, n, grid, NULL, &hpa);
    if (nav_failed(s)) {
        CHECK(hpa == NULL);
        CHECK(s == (NAV_FAILURE | NAV_CORRUPT_DATA) || s == (NAV_FAILURE | NAV_SOURCE_MISMATCH) ||
              s == (NAV_FAILURE | NAV_OUT_OF_MEMORY));
    } else {
        CHECK(nav_hpa_grid_fingerprint(hpa) == nav_grid_fingerprint(grid));
        nav_writer w;
        nav_writer_init(&w, NULL);
        CHECK(nav_hpa_write_chunk(hpa, &w) == NAV_SUCCESS);
        CHECK(w.size == n && memcmp(w.data, chunk, n) == 0);
        nav_writer_destroy(&w);
        uint64_t rng = fuzz_seed(data, size);
        check_hpa_queries(hpa, grid, &rng, 8, false);
        nav_hpa_destroy(hpa);
    }
    free(chunk);
    nav_grid_destroy(grid);
    return 0;
}

#if defined(NAV_FUZZ_MAKE_SEEDS)
static void make_seeds(const char *dir)
{
    static const nav_hpa_desc options[] = {
        {.cluster_size = 4, .levels = 1},
        {.cluster_size = 4, .levels = 2, .level_ratio = 2},
        {.cluster_size = 3, .levels = 3, .level_ratio = 2},
        {.cluster_size = 6, .levels = 2, .level_ratio = 3, .long_entrance = 2},
    };
    for (uint64_t seed = 1; seed <= 6; seed++) {
        nav_grid *grid = random_grid(seed * 0x51ed2701u);
        for (size_t k = 0; k < sizeof options / sizeof options[0]; k++) {
            nav_hpa *hpa;
            if (nav_failed(nav_hpa_bake(grid, &options[k], &hpa))) exit(1);
            nav_writer w;
            nav_writer_init(&w, NULL);
            uint8_t header[HEADER - 1];
            store_u64(header, seed * 0x51ed2701u);
            nav_writer_put_bytes(&w, header, sizeof header);
            nav_hpa_write_chunk(hpa, &w);
            for (uint8_t mode = 0; mode < 2; mode++) {
                char name[64];
                snprintf(name, sizeof name, "hpa_%u_%zu_%s", (unsigned)seed, k, mode ? "patched" : "as_is");
                write_seed(dir, name, mode, w.data, w.size);
            }
            nav_writer_destroy(&w);
            nav_hpa_destroy(hpa);
        }
        nav_grid_destroy(grid);
    }
}
#endif
