/* A generated level (tests and fuzz seeds only, not part of libnav): what the suites that must
 * run on a fresh clone build navigation meshes from, in place of a copy of Recast's sample scene
 * (the suites' shared cases read that one from the shared data: support.h's test_shared).
 *
 * One fixed level, 96 x 90 metres, y up, made to have what the sample scenes have: a floor of many
 * quads and a bank down from it to a lower walk (floors at heights that are no multiple of a voxel's);
 * rooms walled round with doorways; a platform 3 m up reached by a ramp and by stairs; a
 * bridge from it to a second platform over a walkway (floors above floors); ramps of 15, 30, 40 and
 * 55 degrees (the last too steep to walk) up to small landings; boxes an agent steps onto, boxes too
 * high to climb (small islands on top) and a terrace 1.5 m up with no way onto it; a row of crates;
 * octagonal pillars and a colonnade. Its .obj text is over 64 KiB (the file reader's first window).
 * At RecastDemo's cell size (0.3) it spans 320 x 300 columns. Its .obj text is written as exporters
 * write one: objects, groups, materials, smoothing, texture coordinates and normals, faces of 3 to
 * 8 corners in every index form ("i", "i/t", "i//n", "i/t/n", negative), vertices with 9
 * significant digits (read back as the same floats). */
#ifndef NAV_TEST_LEVELGEN_H
#define NAV_TEST_LEVELGEN_H

#include <stddef.h>
#include <stdint.h>

typedef struct test_level {
    float *vertices; /* x, y, z */
    uint32_t vertex_count;
    uint32_t *corners; /* face f's vertices (from 0) are corners[first[f]] .. corners[first[f + 1] - 1] */
    uint32_t *first;   /* face_count + 1 */
    uint8_t *form;     /* per face: how the .obj writes its corners (levelgen.c) */
    uint32_t
        *object_first; /* objects: faces object_first[o] .. object_first[o + 1] - 1, and their vertices */
    uint32_t *object_vertex_first;
    const char **object_name;
    uint32_t face_count, object_count;
    uint32_t triangle_count; /* each face's fan: corners - 2 */
} test_level;

/* Points of the level for routes: two on the open floor in sight of each other (the straight line
 * is the path); one on the top of the raised platform (reached by its ramp and stairs); one on the
 * floor near the level's east edge (a door to a region beside it). */
#define TEST_LEVEL_OPEN_A_X   6.5f
#define TEST_LEVEL_OPEN_A_Z   4.0f
#define TEST_LEVEL_OPEN_B_X   22.0f
#define TEST_LEVEL_OPEN_B_Z   13.5f
#define TEST_LEVEL_PLATFORM_X 66.0f
#define TEST_LEVEL_PLATFORM_Y 3.0f
#define TEST_LEVEL_PLATFORM_Z 66.0f
#define TEST_LEVEL_EDGE_X     94.5f
#define TEST_LEVEL_EDGE_Z     12.0f

/* Makes the level (always the same). Aborts when out of memory (this is test code). */
void test_level_generate(test_level *level);
void test_level_destroy(test_level *level);

/* The level as .obj text (malloc'd; its length in size). */
char *test_level_obj(const test_level *level, size_t *size);

#endif
