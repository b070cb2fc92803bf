/* Private: the build from level geometry (build_geometry.c) as the tiles' file (tiles_chunk.c) sees
 * it: the scene's grid, the agent in steps and cells, and each tile's polygons. */
#ifndef NAV_MESH_BUILD_GEOMETRY_H
#define NAV_MESH_BUILD_GEOMETRY_H

#include <stdatomic.h>
#include <time.h>

#include "nav/geometry.h"
#include "voxel.h"

/* What one tile's build made. */
typedef struct tile_result {
    nav__polygons polygons;
    uint64_t spans;
    uint32_t tops, kept_tops, regions, contour_points;
    double stage_ms[NAV_GEOMETRY_STAGES];
    uint64_t source;     /* kept tiles: the fingerprint of what the tile was built from (tiles.c) */
    bool broken;         /* an outline did not close */
    uint8_t too_large;   /* a stage that did not fit its share of max_memory (NAV__FIT_...), or 0 */
    uint64_t need, room; /* what it needed (0: more than room) and what was left to it, bytes */
} tile_result;

/* The stages checked against a tile's share of max_memory as they go (build_memory.c). */
enum { NAV__FIT_OUTLINES = 1, NAV__FIT_POLYGONS, NAV__FIT_HEIGHTS, NAV__FIT_RESULTS };

/* The build: the scene's grid, the agent in steps and cells, the tiles and their triangles. */
typedef struct build {
    const nav_triangles *triangles;
    nav_geometry_build_desc desc; /* resolved */
    nav_vec3 origin;              /* the scene's box's low corner: column 0, step 0 */
    int32_t width, depth;         /* the scene's columns */
    uint32_t steps;               /* its height in steps */
    int32_t tile, border;         /* a tile's side and border in cells (tile 0: one tile, no border) */
    int32_t tiles_x, tiles_z;
    uint32_t height, climb, radius, islands;
    float max_error, max_edge;        /* cells */
    uint32_t *tile_first, *tile_tris; /* stb_ds: tile t's triangles, tile_tris[tile_first[t] ..] */
    tile_result *results;             /* stb_ds, a tile each */
    /* memory (build_memory.c), bytes */
    uint64_t memory_limit;          /* desc.max_memory, resolved */
    uint64_t bookkeeping;           /* the results array and the tiles' triangle lists */
    uint64_t estimate;              /* the bookkeeping and stages 1 to 5 of the tiles built at once */
    uint64_t share;                 /* what one tile may hold while it is built */
    uint64_t results_room;          /* what the tiles' kept polygons may take together */
    _Atomic uint64_t *results_held; /* while tiles are built: their kept polygons' bytes so far */
    uint32_t tiles_at_once;         /* threads building tiles (fewer than asked when memory is short) */
    uint32_t stage_threads;         /* threads sharing a whole level's stages */
} build;

/* Tiles kept for rebuilding one (nav/geometry.h). The arrays the options point to are the tiles'
 * own copies. */
struct nav_geometry_tiles {
    nav_allocator allocator;
    build b;                      /* its tiles' polygons (stb_ds, the system heap, as a build's scratch) */
    nav_geometry_volume *volumes; /* stb_ds copies of the options' */
    float *volume_points;         /* stb_ds: the volumes' points, one after another */
    nav_mesh_link_desc *links;    /* stb_ds */
    double area_cost[256];
    uint16_t area_flags[256];
};

/* ---- The build's steps, shared with the tiles kept for rebuilding (tiles.c) ----------------------- */

/* Checks the triangles and options and sets the build up (b empty): the scene's grid, the agent in
 * steps and cells, the tiles (their bookkeeping checked against max_memory); the counts into stats. */
nav_status nav__geometry_prepare(build *b, const nav_triangles *triangles,
                                 const nav_geometry_build_desc *desc, nav_geometry_build_stats *stats);
/* Buckets the triangles and builds every tile into b->results, on the threads the options say (fewer
 * when memory is short). */
nav_status nav__geometry_build_all(build *b);
/* Each tile's triangles into b->tile_first and b->tile_tris: those whose box meets the tile's with its
 * border, or with only != UINT32_MAX, those of that tile alone (the others' lists empty); the lists
 * checked against max_memory before they are made. NAV_SUCCESS, or NAV_FAILURE with NAV_TOO_LARGE
 * (logged) or NAV_OUT_OF_MEMORY. */
nav_status nav__geometry_bucket(build *b, uint32_t only);
/* Builds tile `item` (stages 1 to 8) into r (empty), each stage within b->share. False when memory runs
 * out or a stage does not fit (r->too_large); r's polygons are then only good for freeing. Runs on any
 * thread: stb_ds scratch only. */
bool nav__geometry_build_tile(build *b, uint32_t item, tile_result *r);
/* Counts a built tile's polygons among those kept (b->results_held): false, r marked, past their room. */
bool nav__geometry_keep_results(build *b, tile_result *r);
/* The status of a build whose tiles ran (s: the run's): the first tile of results[count] that did not
 * fit named in the log (NAV_TOO_LARGE), else s. */
nav_status nav__geometry_tiles_status(const build *b, const tile_result *results, uint32_t count,
                                      nav_status s);
/* A level whose every floor faces down: NAV_FAILURE | NAV_INVALID_PARAM, saying which way is up. */
nav_status nav__geometry_check_facing(const nav_triangles *t, float max_slope, const nav_log *log);
/* Milliseconds since *at, which becomes now. */
double nav__geometry_since(struct timespec *at);

/* Derives the agent in steps and cells, and the tiles, from b->desc (resolved) and the scene's
 * grid (b->origin, width, depth, steps); checks the tiles' bookkeeping against b->memory_limit (with
 * b->triangles [opt]: their lists too); sets b->results to a tile each, empty. Returns NAV_SUCCESS, or
 * NAV_FAILURE with NAV_TOO_LARGE (logged) or NAV_OUT_OF_MEMORY. */
nav_status nav__geometry_derive(build *b);
/* The mesh of the tiles' polygons, stitched; the tiles' counts and times into stats. */
nav_status nav__geometry_assemble(build *b, nav_geometry_build_stats *stats, nav_mesh **out);
void nav__geometry_free_build(build *b);
/* What is wrong with resolved options d (a message of its own, or written into why, size bytes), or
 * null. */
const char *nav__geometry_check_desc(const nav_geometry_build_desc *d, char *why, size_t size);
/* Sets each tile's source (tiles.c: the fingerprint of the options, the grid and the tile's triangles,
 * b->triangles bucketed). */
void nav__geometry_tile_sources(build *b);
/* Points t->b.desc's arrays (volumes, links, costs, flags) at t's own copies of desc's. False when memory
 * runs out (t->b.desc as it was). */
bool nav__geometry_tiles_own_arrays(nav_geometry_tiles *t, const nav_geometry_build_desc *desc);

/* ---- Memory (build_memory.c) ---------------------------------------------------------------------- */

/* Bytes an stb_ds array holds (its capacity), with its header. */
uint64_t nav__array_bytes(const void *array, size_t elem_size);
uint64_t nav__open_space_bytes(const nav__open_space *os);
uint64_t nav__contours_bytes(const nav__contours *c);
uint64_t nav__polygons_bytes(const nav__polygons *p);
/* The most stage 7 may take for outlines of `points` points in `regions` regions. */
uint64_t nav__polygons_build_bound(uint64_t points, uint64_t regions);
/* The most stage 8 may take for `polygons` polygons over `tops` tops, the largest polygon's box
 * `largest_box` cells, on `threads` threads. */
uint64_t nav__detail_bound(uint64_t tops, uint64_t polygons, uint64_t largest_box, uint32_t threads);
/* The most the mesh made of the tiles' polygons (results bytes) may take beside them. */
uint64_t nav__assembly_bound(uint64_t results);
/* Sets b->bookkeeping (a result a tile, the tiles' lists of triangle_tiles triangles) and checks it
 * against b->memory_limit: NAV_SUCCESS, or NAV_FAILURE | NAV_TOO_LARGE (logged). */
nav_status nav__geometry_check_bookkeeping(build *b, uint64_t triangle_tiles);
/* Bounds stages 1 to 5 of the tiles (their triangles bucketed) and plans the build within
 * b->memory_limit, beside the bookkeeping and `held` bytes already held (a rebuild's kept tiles): the
 * tiles built at once (at most tile_threads) and a whole level's stage threads (at most stage_threads),
 * each tile's share and the results' room. NAV_SUCCESS, or NAV_FAILURE | NAV_TOO_LARGE (logged with
 * the estimate and the limit) when even one tile on one thread does not fit. */
nav_status nav__geometry_plan_memory(build *b, uint32_t tile_threads, uint32_t stage_threads, uint64_t held);
/* Whether a stage that needs `need` bytes fits beside `held` in `room`; if not, marks r (the first
 * stage that did not fit) and returns false. */
bool nav__geometry_fits(tile_result *r, uint8_t stage, uint64_t held, uint64_t need, uint64_t room);
/* Logs why tile `item` did not fit (r->too_large). */
void nav__geometry_report_too_large(const build *b, uint32_t item, const tile_result *r);
/* Logs that the mesh (need bytes) does not fit beside the tiles' polygons (results bytes). */
void nav__geometry_report_mesh_too_large(const build *b, uint64_t results, uint64_t need);

/* The build's float options, in the order the TILS chunk keeps them and a tile's source hashes
 * them: pointers to d's fields, for an array's initialiser. */
#define NAV__GEOMETRY_FLOAT_OPTIONS(d)                                                                       \
    &(d)->cell_size, &(d)->cell_height, &(d)->agent_height, &(d)->agent_radius, &(d)->agent_climb,           \
        &(d)->max_slope, &(d)->min_island_area, &(d)->max_edge_length, &(d)->max_edge_error,                 \
        &(d)->detail_sample_distance, &(d)->detail_max_error, &(d)->link_extents.x, &(d)->link_extents.y,    \
        &(d)->link_extents.z

#endif
