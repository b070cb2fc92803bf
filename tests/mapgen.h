/* Generated Moving AI maps and scenarios (tests and fuzz seeds only, not part of libnav).
 *
 * The suites that must run on a fresh clone make their own benchmark-like data here instead of
 * keeping copies of the Moving AI maps (those are read from the shared data when it is there:
 * support.h's test_shared). A map is made from a seed by a fixed generator (its own random numbers,
 * not the C library's), so every run and machine gets the same cells; a scenario's optimal lengths
 * come from this file's own Dijkstra (8-connected, diagonal sqrt(2), no corner cutting: the rules of
 * the Moving AI files), written apart from libnav's planners.
 *
 *     test_map m;
 *     test_map_generate(&m, &test_bench_maps[TEST_BENCH_DEN]);
 *     size_t size;
 *     char *text = test_map_text(&m, &size);                 // a .map file's bytes
 *     char *scen = test_scen_text(&m, &test_bench_maps[TEST_BENCH_DEN], &size);
 *     ...
 *     free(scen), free(text), test_map_destroy(&m);
 */
#ifndef NAV_TEST_MAPGEN_H
#define NAV_TEST_MAPGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum test_map_style {
    /* Dragon Age-like: caves grown by a cellular automaton, rock '@' inside and trees 'T' along
     * the open space, clumps of trees in the open (corners to cut or not), and sealed chambers
     * that nothing outside reaches (unreachable problems). */
    TEST_MAP_CAVES,
    /* city streets: blocks of buildings '@' of uneven sizes between streets 1 to 4 cells wide,
     * courtyards, squares with trees 'T'. */
    TEST_MAP_STREETS,
} test_map_style;

/* What to generate: a map and its scenario. */
typedef struct test_map_desc {
    const char *name; /* file name stem: NAME.map, NAME.map.scen */
    int32_t width, height;
    test_map_style style;
    uint32_t seed;
    uint32_t problems;    /* in the scenario */
    uint32_t unreachable; /* of them, with the goal in a sealed chamber (optimal length 0) */
    int rock;             /* caves: percent of rock sown before the automaton (more: narrower caves) */
} test_map_desc;

/* Stand-ins for the benchmark maps the suites check on the shared data, of the same sizes and
 * problem counts: arena (49 x 49, 160 problems), den312d (65 x 81, not square, 320), brc000d
 * (257 x 261, 850 with 10 unreachable), Berlin_0_256 (256 x 256 streets, 930). */
enum { TEST_BENCH_ARENA, TEST_BENCH_DEN, TEST_BENCH_BRC, TEST_BENCH_STREETS, TEST_BENCH_COUNT };
extern const test_map_desc test_bench_maps[TEST_BENCH_COUNT];

typedef struct test_map {
    int32_t width, height;
    char *cells;         /* row y at cells + y * width: '.', '@' or 'T' */
    uint32_t *component; /* per cell: 0 blocked, else its 8-connected piece (1 the largest) */
    uint32_t free_cells, components;
} test_map;

/* Makes the map of desc (deterministic). Aborts when out of memory (this is test code). */
void test_map_generate(test_map *map, const test_map_desc *desc);
void test_map_destroy(test_map *map);

/* A cell is free ('.'); off the map it is not. */
bool test_map_free(const test_map *map, int32_t x, int32_t y);

/* The moves from a free cell as nav_grid_moves gives them (bit NAV_DIR_*): a cardinal move into a
 * free cell; a diagonal one when it and both cells beside it are free. 0 from a blocked cell. */
uint8_t test_map_moves(const test_map *map, int32_t x, int32_t y);

/* The .map file's text: "type octile", height, width, "map", the rows, each ending in a newline.
 * malloc'd; its length in size. */
char *test_map_text(const test_map *map, size_t *size);

/* Shortest 8-connected lengths from (sx, sy) to every cell (Dijkstra, no corner cutting), INFINITY
 * where unreachable; width * height doubles, malloc'd. */
double *test_map_distances(const test_map *map, int32_t sx, int32_t sy);

/* The scenario file of the map: "version 1", then desc->problems lines "bucket map width height
 * sx sy gx gy optimal" sorted by length (bucket = length / 4), lengths with 8 decimals; the first
 * desc->unreachable problems (bucket 0, length 0) have their goal in a sealed chamber and their
 * start outside it. The map column reads maps/generated/NAME.map. malloc'd; its length in size. */
char *test_scen_text(const test_map *map, const test_map_desc *desc, size_t *size);

#endif
