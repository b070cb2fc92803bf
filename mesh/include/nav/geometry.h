/* nav/geometry.h - level geometry: the triangles a navigation mesh is built from, and the build.
 *
 * Engines and bake tools hand a navigation library the level's triangles. libnav takes them two
 * ways: as a nav_triangles view of the caller's own arrays (nothing copied: an engine passes its
 * buffers), or read from a Wavefront .obj file into a nav_geometry, which owns them and gives the
 * same view. Coordinates are world units with y up; each triangle carries an area type, the
 * terrain type of the navigation mesh built from it (NAV_TERRAIN_BLOCKED, 0: never walkable; 1 by
 * default; the costs of the types are set on the mesh, as for a grid's terrain).
 *
 *     nav_geometry *level;
 *     nav_status s = nav_geometry_load_obj_file("dungeon.obj", NULL, &log, &level);
 *     nav_triangles t = nav_geometry_triangles(level);   // t.triangle_count triangles
 *     nav_geometry_areas(level)[17] = 2;                  // triangle 17 is water
 *     nav_mesh *mesh;                                     // RecastDemo's agent, in tiles on every core
 *     s = nav_mesh_build_from_geometry(&t, &(nav_geometry_build_desc){.tile_size = 128}, &mesh, NULL);
 *     // (C++: nav_geometry_build_desc d{}; d.tile_size = 128; then &d, nullptr)
 *     ...                                                 // nav/mesh.h's queries, both modes
 *     nav_mesh_destroy(mesh);
 *     nav_geometry_destroy(level);
 *
 * The .obj reader takes what level exporters write: "v x y z" (any further numbers, a w or a
 * colour, are ignored), "f" with three or more vertices (a polygon is cut into a fan of triangles
 * from its first vertex), each vertex "i", "i/t", "i//n" or "i/t/n" with i counted from 1, or from
 * the end when negative (-1: the last vertex read so far); "#" comments; and skips texture
 * coordinates, normals, groups, objects, smoothing, materials and the other statements of the
 * format. Lines end in LF, CRLF or CR alone. Errors name the file and line ("level.obj:12: face vertex
 * 0: indices count from 1"). */
#ifndef NAV_GEOMETRY_H
#define NAV_GEOMETRY_H

#include "nav/core.h"
#include "nav/mesh.h"
#include "nav/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NAV_GEOMETRY_MAX_VERTICES  (1u << 28) /* in one geometry */
#define NAV_GEOMETRY_MAX_TRIANGLES (1u << 28)
#define NAV_GEOMETRY_DEFAULT_AREA  1 /* a triangle's area type unless told otherwise */

/* Triangles in the caller's arrays (a view: nothing is copied or freed). */
typedef struct nav_triangles {
    const float *vertices; /* vertex_count x 3 floats: x, y, z */
    uint32_t vertex_count;
    const uint32_t *indices; /* triangle_count x 3 vertex indices (from 0) */
    uint32_t triangle_count;
    const uint8_t *areas; /* [opt] triangle_count area types; null: every one
                             NAV_GEOMETRY_DEFAULT_AREA */
} nav_triangles;

/* Checks a view before a build uses it. Returns NAV_SUCCESS, or NAV_FAILURE with NAV_INVALID_PARAM
 * (null arrays for nonzero counts, an index out of range, a coordinate that is not finite) or
 * NAV_TOO_LARGE (counts over the limits above), the first fault told to log [opt]. */
NAV_BAKE_API nav_status nav_triangles_check(const nav_triangles *triangles, const nav_log *log);

/* The box of the vertices the triangles use (false, and the box untouched, when there are none). */
NAV_BAKE_API bool nav_triangles_bounds(const nav_triangles *triangles, nav_vec3 *min, nav_vec3 *max);

typedef struct nav_geometry nav_geometry;

/* Reads .obj text (size bytes; it need not end with a NUL). name [opt]: for messages (null:
 * "obj"). [in] allocator [opt], log [opt]: copied where needed. Returns NAV_SUCCESS; NAV_FAILURE with
 * NAV_PARSE_ERROR (bad text, named by line; a file without faces), NAV_TOO_LARGE (more vertices or
 * triangles than the limits, or a line over 1 MiB), NAV_INVALID_PARAM (null text with a size) or
 * NAV_OUT_OF_MEMORY; *out is null on failure. */
NAV_BAKE_API nav_status nav_geometry_load_obj(const char *text, size_t size, const char *name,
                                              const nav_allocator *allocator, const nav_log *log,
                                              nav_geometry **out);
/* The same from a file, read a window at a time (messages name its base name). Returns as above,
 * and NAV_FAILURE | NAV_IO_ERROR when it cannot be read. */
NAV_BAKE_API nav_status nav_geometry_load_obj_file(const char *path, const nav_allocator *allocator,
                                                   const nav_log *log, nav_geometry **out);
NAV_BAKE_API void nav_geometry_destroy(nav_geometry *geometry);

/* The geometry's triangles (valid while it lives, unchanged). */
NAV_BAKE_API nav_triangles nav_geometry_triangles(const nav_geometry *geometry);
/* Its triangles' area types, for the caller to mark (water, a road): triangle_count bytes, every
 * one NAV_GEOMETRY_DEFAULT_AREA when read. */
NAV_BAKE_API uint8_t *nav_geometry_areas(nav_geometry *geometry);
NAV_BAKE_API size_t nav_geometry_memory_bytes(const nav_geometry *geometry);

/* ---- Navigation meshes from level geometry --------------------------------------------------- */

/* A convex volume that marks the floors inside it after the agent's limits are applied: a door
 * zone, a road, a no-go zone (area 0). */
typedef struct nav_geometry_volume {
    const float *points; /* point_count x 2 floats: x, z of a convex polygon, either winding */
    uint32_t point_count;
    float min_y, max_y; /* the floors it marks lie between these heights */
    uint8_t area;       /* the area type it gives them (0: no walking there) */
} nav_geometry_volume;

/* The default bound on a build's memory: 4 GiB, room for a level of about 80 million columns built
 * whole (2.7 km a side in RecastDemo's cells of 0.3 m, its floors one storey deep); a level in tiles
 * takes its tiles' scratch, a few MiB a thread, and its mesh. It refuses at once what would have
 * taken a machine's memory: a 60-byte .obj, two triangles 4.9 km a side, grew past 10 GB before. */
#define NAV_GEOMETRY_DEFAULT_MAX_MEMORY ((uint64_t)4 << 30)

/* The least detail_sample_distance, in cells (as Recast's detailSampleDist): samples closer than a
 * cell read the same column's floor, and a tiny distance made a build take minutes and gigabytes. */
#define NAV_GEOMETRY_MIN_SAMPLE_CELLS 0.9f
/* The most samples a polygon takes inside it for its heights (bounds the stage's work and memory). */
#define NAV_GEOMETRY_MAX_DETAIL_SAMPLES 65536u

/* Build options, in world units; a zero field takes its default (nav_geometry_build_desc_defaults
 * says what was used). The defaults are RecastDemo's. */
typedef struct nav_geometry_build_desc {
    float cell_size;              /* the side of a column of the voxel grid (0: 0.3) */
    float cell_height;            /* the height of a voxel (0: 0.2) */
    float agent_height;           /* the room an agent needs above a floor (0: 2.0) */
    float agent_radius;           /* how far it keeps from walls and drops (0: 0.6; negative: 0) */
    float agent_climb;            /* the highest step it walks up or down (0: 0.9; negative: 0) */
    float max_slope;              /* degrees from level of the steepest floor it walks (0: 45) */
    float min_island_area;        /* walkable pieces joined to nothing larger are dropped below this area
                                   * (0: 64 cells; negative: none are) */
    float max_edge_length;        /* walls longer are split (0: 12; negative: no limit) */
    float max_edge_error;         /* how far a simplified outline may stray from the voxels' edges (0: 1.3
                                   * cells) */
    uint32_t max_poly_verts;      /* most vertices of a polygon (0: 6; at most NAV_MESH_MAX_POLY_VERTS) */
    float detail_sample_distance; /* heights: the floor is sampled this far apart along each polygon's
                                   * edges and inside it (0: 6 cells; negative: no heights, a
                                   * polygon's floor is the fan of its corners; else at least
                                   * NAV_GEOMETRY_MIN_SAMPLE_CELLS cells). A polygon takes at most
                                   * NAV_GEOMETRY_MAX_DETAIL_SAMPLES samples inside: a larger one's
                                   * are further apart */
    float detail_max_error;       /* heights: samples further than this from the polygon's height
                                   * triangles become their points (0: one cell height; finite, not
                                   * negative) */
    uint32_t tile_size;           /* cells a side of the square tiles built apart, in parallel, and stitched
                                   * (0: the level as one tile) */
    uint32_t threads;             /* threads building tiles, or sharing a whole level's stages out (0: one
                                   * a core); the mesh is the same on any count. At most: a build starts
                                   * no more helper threads than the cores idle when it starts (on a
                                   * machine whose cores are all busy it runs on the calling thread
                                   * alone, never slower than one thread), and a whole level no more
                                   * than the cores and 16; its helper threads wait between its stages
                                   * spinning for about 2 ms, then asleep, and are gone when the build
                                   * returns */
    uint64_t max_memory;          /* bytes the build may allocate at once: its scratch and the mesh it
                                   * makes (0: NAV_GEOMETRY_DEFAULT_MAX_MEMORY). Estimated before it
                                   * allocates (the voxels of the tiles built at once, from the level's
                                   * box and triangles), and each later stage checked before it grows;
                                   * over the limit: NAV_TOO_LARGE, the estimate in the log. A tiled build
                                   * runs fewer tiles (a whole one fewer stage threads) at once when
                                   * that fits and all of them do not */
    const nav_geometry_volume *volumes; /* [opt] marked after erosion, in order */
    uint32_t volume_count;
    const nav_mesh_link_desc *links; /* [opt] off-mesh links (ladders, jumps), as for a grid's mesh */
    uint32_t link_count;
    nav_vec3 link_extents;          /* how far from a link's end to look for the mesh (0: a cell
                                     * horizontally and the agent's height vertically) */
    const double *area_cost;        /* [opt] 256 cost factors of the area types (null: 1) */
    const uint16_t *area_flags;     /* [opt] 256: the flags of each area type's polygons (null, or an
                                     * entry of 0: NAV_POLY_FLAG_WALK) */
    const nav_allocator *allocator; /* [opt] for the mesh (the build's scratch uses the system heap) */
    const nav_log *log;             /* [opt] errors */
    const nav_progress *progress;   /* [opt] stages "geometry: ..."; returning false cancels */
} nav_geometry_build_desc;

/* The options a build takes from desc [opt]: every zero field resolved. */
NAV_BAKE_API nav_geometry_build_desc nav_geometry_build_desc_defaults(const nav_geometry_build_desc *desc);

/* The build's stages, in order (see nav_geometry_stage_name). */
typedef enum nav_geometry_stage {
    NAV_GEOMETRY_RASTERIZE,  /* triangles to solid spans */
    NAV_GEOMETRY_FILTER,     /* what an agent may stand on */
    NAV_GEOMETRY_OPEN_SPACE, /* walkable tops and their neighbours */
    NAV_GEOMETRY_ERODE,      /* the radius, the volumes and the islands */
    NAV_GEOMETRY_REGIONS,    /* monotone regions */
    NAV_GEOMETRY_CONTOURS,   /* outlines, simplified */
    NAV_GEOMETRY_POLYGONS,   /* triangles merged into convex polygons */
    NAV_GEOMETRY_HEIGHTS,    /* each polygon's height triangles */
    NAV_GEOMETRY_MESH,       /* the nav_mesh: neighbours, index, links */
    NAV_GEOMETRY_STAGES
} nav_geometry_stage;

NAV_BAKE_API const char *nav_geometry_stage_name(nav_geometry_stage stage);

/* What a build made, stage by stage. */
typedef struct nav_geometry_build_stats {
    uint32_t triangles; /* in */
    uint32_t tiles;
    int32_t width, depth; /* columns of the voxel grid */
    uint64_t spans;       /* solid spans */
    uint32_t tops;        /* walkable tops, before erosion */
    uint32_t kept_tops;   /* after erosion, volumes and islands */
    uint32_t regions;
    uint32_t contour_points; /* of the simplified outlines */
    uint32_t failed_regions; /* outlines cut only in part (their simplification crossed itself) */
    uint32_t polygons, vertices;
    size_t bytes;                         /* of the mesh */
    uint64_t memory_estimate;             /* the build's estimate of its memory before it allocated:
                                           * the tiles' bookkeeping and the voxels of the tiles built
                                           * at once (bytes; at most max_memory) */
    uint32_t tiles_at_once;               /* threads that built tiles, or a whole level's stages */
    double stage_ms[NAV_GEOMETRY_STAGES]; /* summed over tiles and threads */
    double total_ms;                      /* wall time */
} nav_geometry_build_stats;

/* Builds the navigation mesh of the floors an agent can walk in a level (triangles, checked as
 * nav_triangles_check does): the triangles are voxelised in columns of cell_size, the tops an agent
 * of agent_height that climbs agent_climb may stand on kept (not under a lower ceiling, not a
 * ledge, not steeper than max_slope), eroded by agent_radius, cut into regions without holes,
 * outlined, and the outlines cut into convex polygons (docs/geometry_build.md). Floors above
 * floors stay apart, joined only where an agent steps from one to the other. The result is a
 * nav_mesh like a grid's: every query works on it, and it saves into the MESH chunk. Vertices lie
 * on the voxels' corners, at the height of the floor there. Deterministic.
 * A triangle's top, the side an agent stands on, is the one from which its corners a, b, c are seen
 * counter-clockwise: seen from above, with x to the right and z down the page, (b - a) x (c - a)
 * points up (y > 0), as for Recast and OpenGL. A level whose every floor faces down (a level wound the
 * other way round: an exporter's flipped normals) is refused, saying so, rather than built empty;
 * some floors facing down are normal (the undersides of slabs).
 * [out] out: null on failure; stats [opt]. Returns NAV_SUCCESS, or NAV_FAILURE with
 * NAV_INVALID_PARAM (bad triangles or options, a link off the mesh, every floor facing down: named in
 * the log),
 * NAV_TOO_LARGE (over 2^28 columns, over 65534 a side, taller than 65535 voxels, or more memory than
 * max_memory: the log gives the estimate and the limit),
 * NAV_OUT_OF_MEMORY, or NAV_WRONG_STATE when the progress callback cancelled. */
NAV_BAKE_API nav_status nav_mesh_build_from_geometry(const nav_triangles *triangles,
                                                     const nav_geometry_build_desc *desc, nav_mesh **out,
                                                     nav_geometry_build_stats *stats);

/* ---- Tiles kept for rebuilding one -------------------------------------------------------------- */

/* A level built in tiles, each tile's polygons kept so that one tile can be built again alone when
 * the level changes there (a wall falls, a door is placed) and a new mesh made of them all:
 *
 *     nav_geometry_tiles *tiles;
 *     nav_mesh *mesh;
 *     nav_geometry_tiles_build(&level, &(nav_geometry_build_desc){.tile_size = 64}, &tiles, &mesh, NULL);
 *     ...                                        // the level changes in tile (3, 5)
 *     nav_mesh *next;
 *     nav_geometry_tiles_rebuild(tiles, &changed_level, 3, 5, &next, NULL);
 *     // queries on other threads go on with `mesh` meanwhile (it is never written); swap in `next`
 *     // (new query objects: one belongs to one mesh) and destroy `mesh` once no thread uses it
 *
 * Building one tile reads the level's triangles round it (the tile and a border of the radius and 3
 * cells): a change that close to a tile's edge changes the tile beside it too. Each tile keeps a
 * fingerprint of what it was built from (its source: the options, the level's grid and the triangles it
 * reads, their corners' coordinates and area types; XXH64 of a little-endian encoding, the same on every
 * machine), and a rebuild checks that every tile it does not build again still reads the triangles it
 * was built from: a level changed only in that tile passes, one changed in another tile too (or across
 * a tile's edge) is refused with NAV_SOURCE_MISMATCH, naming a tile that changed and both fingerprints,
 * and so are another level's triangles (no tile reads the triangles it was built from). A change across
 * tiles is rebuilt by nav_geometry_tiles_rebuild_changed, every tile whose source changed. */
typedef struct nav_geometry_tiles nav_geometry_tiles;

/* Builds the level as nav_mesh_build_from_geometry does (desc [in]: tile_size must not be 0; the
 * tiles keep copies of the arrays it points to: volumes, links, costs and flags) and keeps the tiles. [out]
 * tiles; mesh [opt]: the mesh (null: not made now); stats [opt]. The tiles' own memory (the struct) comes
 * from desc's allocator, their polygons from the system heap. Returns as nav_mesh_build_from_geometry, and
 * NAV_FAILURE | NAV_INVALID_PARAM without a tile size. */
NAV_BAKE_API nav_status nav_geometry_tiles_build(const nav_triangles *triangles,
                                                 const nav_geometry_build_desc *desc,
                                                 nav_geometry_tiles **tiles, nav_mesh **mesh,
                                                 nav_geometry_build_stats *stats);

/* Builds tile (tile_x, tile_z) again from triangles (the whole level as it is now, checked as
 * nav_triangles_check does; in the first build's box: what lies outside it is left out), and makes a
 * new mesh of all the tiles into *mesh: the mesh a tiled build of the changed level makes, the change
 * lying in this tile away from its border (every other tile must read the triangles it was built from,
 * above). The old mesh is not touched. stats [opt]: the new mesh's. Returns NAV_SUCCESS, or NAV_FAILURE
 * with NAV_INVALID_PARAM (no such tile, bad triangles), NAV_SOURCE_MISMATCH (another tile's triangles
 * changed too, or they are another level's: logged), NAV_TOO_LARGE (over max_memory), NAV_OUT_OF_MEMORY,
 * NAV_CORRUPT_DATA; on failure the tiles keep the rebuilt tile (a later rebuild may try again), or the
 * tile as it was when it could not be built. */
NAV_BAKE_API nav_status nav_geometry_tiles_rebuild(nav_geometry_tiles *tiles, const nav_triangles *triangles,
                                                   int32_t tile_x, int32_t tile_z, nav_mesh **mesh,
                                                   nav_geometry_build_stats *stats);
/* Builds again every tile whose source changed (none: the mesh of the tiles as they are), on the
 * threads the options say, and makes a new mesh of all the tiles into *mesh: the mesh a tiled build of
 * the changed level makes. rebuilt [opt]: how many tiles were built. Returns as
 * nav_geometry_tiles_rebuild (NAV_SOURCE_MISMATCH: another level's triangles); on failure the tiles keep
 * what they had. */
NAV_BAKE_API nav_status nav_geometry_tiles_rebuild_changed(nav_geometry_tiles *tiles,
                                                           const nav_triangles *triangles, nav_mesh **mesh,
                                                           uint32_t *rebuilt,
                                                           nav_geometry_build_stats *stats);
NAV_BAKE_API void nav_geometry_tiles_destroy(nav_geometry_tiles *tiles);
/* How many tiles there are along x and z (tile (x, z) covers the cells x * tile_size .. from the
 * level box's low corner). */
NAV_BAKE_API void nav_geometry_tiles_count(const nav_geometry_tiles *tiles, int32_t *tiles_x,
                                           int32_t *tiles_z);
/* The options the tiles were built with, resolved (the arrays they point to are the tiles' own). */
NAV_BAKE_API nav_geometry_build_desc nav_geometry_tiles_desc(const nav_geometry_tiles *tiles);

/* ---- Tiles in a .nav file ---------------------------------------------------------------------- */

/* The TILS chunk keeps a tiled level as its tiles: the build's options (with the volumes, links,
 * area costs and flags) and the level's grid, then a directory of the tiles (each one's offset, size
 * and CRC-32) and each tile's source (above), polygons and height triangles in a block of its own,
 * 16-byte aligned, in cells and steps of the level's grid (version 2; a version 1 chunk, without the
 * sources, is refused with NAV_WRONG_VERSION: bake the level again). A tile's block depends on nothing but
 * that tile: after nav_geometry_tiles_rebuild, the chunk written again differs from the old one in that
 * tile's block, the directory and the offsets of the blocks after it, and every other tile's block is the
 * same to the byte (tested). A file of tiles holds the mesh stitched from them too (a MESH chunk):
 * the run time's nav_mesh_load_nav reads that, and only the bake reads the tiles (to rebuild one).
 * Layout: mesh/bake/tiles_chunk.c. */
#define NAV_CHUNK_MESH_TILES         NAV_TAG('T', 'I', 'L', 'S')
#define NAV_MESH_TILES_CHUNK_VERSION 2

/* Appends the tiles' TILS chunk data to out. Returns NAV_SUCCESS, or the writer's failure. */
NAV_BAKE_API nav_status nav_geometry_tiles_write_chunk(const nav_geometry_tiles *tiles, nav_writer *out);
/* Reads tiles from TILS chunk data (nothing in it trusted: every count against the bytes left, every
 * index, every polygon convex and clockwise inside its tile, every option as a build checks it).
 * opts [opt]: the allocator, log, progress, threads and max_memory to use from now on (the rest is the
 * file's).
 * [out] out: null on failure. Returns NAV_SUCCESS, or NAV_FAILURE with NAV_CORRUPT_DATA (the log says
 * what), NAV_OUT_OF_MEMORY, NAV_TOO_LARGE (more tiles than max_memory holds) or NAV_INVALID_PARAM. */
NAV_BAKE_API nav_status nav_geometry_tiles_read_chunk(const void *data, size_t size,
                                                      const nav_geometry_build_desc *opts,
                                                      nav_geometry_tiles **out);
/* The mesh of the tiles, stitched as a build stitches them, and checked as a MESH chunk is (a
 * stitched mesh that would fail that check gives NAV_CORRUPT_DATA). stats [opt]: the mesh's counts.
 * Returns NAV_SUCCESS, or NAV_FAILURE with NAV_CORRUPT_DATA, NAV_INVALID_PARAM (a link that lands on
 * no polygon, named in the log), NAV_TOO_LARGE (over max_memory), NAV_OUT_OF_MEMORY or NAV_WRONG_STATE
 * (cancelled). */
NAV_BAKE_API nav_status nav_geometry_tiles_mesh(nav_geometry_tiles *tiles, nav_mesh **mesh,
                                                nav_geometry_build_stats *stats);
/* Writes a .nav file holding the tiles' TILS chunk and the MESH chunk of the mesh stitched from them
 * (atomically, as nav_container_write_file; the failures of nav_geometry_tiles_mesh too), and reads
 * the tiles of one back (opts and out as nav_geometry_tiles_read_chunk; messages as "PATH: message"). */
NAV_BAKE_API nav_status nav_geometry_tiles_save_nav(const nav_geometry_tiles *tiles, const char *path);
NAV_BAKE_API nav_status nav_geometry_tiles_load_nav(const char *path, const nav_geometry_build_desc *opts,
                                                    nav_geometry_tiles **out);

#ifdef __cplusplus
}
#endif
#endif
