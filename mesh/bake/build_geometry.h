/* Private: the build from level geometry (build_geometry.c) as the tiles' file (tiles_chunk.c) sees
 * it: the scene's grid, the agent in steps and cells, and each tile's polygons. */
#ifndef NAV_MESH_BUILD_GEOMETRY_H
#define NAV_MESH_BUILD_GEOMETRY_H

#include "nav/geometry.h"
#include "voxel.h"

/* What one tile's build made. */
typedef struct tile_result {
    nav__polygons polygons;
    uint64_t spans;
    uint32_t tops, kept_tops, regions, contour_points;
    double stage_ms[NAV_GEOMETRY_STAGES];
    bool broken; /* an outline did not close */
} tile_result;

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

/* Derives the agent in steps and cells, and the tiles, from b->desc (resolved) and the scene's
 * grid (b->origin, width, depth, steps); sets b->results to a tile each, empty. False when memory
 * runs out. */
bool nav__geometry_derive(build *b);
/* The mesh of the tiles' polygons, stitched; the tiles' counts and times into stats. */
nav_status nav__geometry_assemble(build *b, nav_geometry_build_stats *stats, nav_mesh **out);
void nav__geometry_free_build(build *b);
/* What is wrong with resolved options d (a message of its own, or written into why, size bytes), or
 * null. */
const char *nav__geometry_check_desc(const nav_geometry_build_desc *d, char *why, size_t size);
/* Points t->b.desc's arrays (volumes, links, costs, flags) at t's own copies of desc's. False when memory
 * runs out (t->b.desc as it was). */
bool nav__geometry_tiles_own_arrays(nav_geometry_tiles *t, const nav_geometry_build_desc *desc);

#endif
