/* nav/geometry.h - level geometry: the triangles a navigation mesh is built from.
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
 *     ...
 *     nav_geometry_destroy(level);
 *
 * The .obj reader takes what level exporters write: "v x y z" (any further numbers, a w or a
 * colour, are ignored), "f" with three or more vertices (a polygon is cut into a fan of triangles
 * from its first vertex), each vertex "i", "i/t", "i//n" or "i/t/n" with i counted from 1, or from
 * the end when negative (-1: the last vertex read so far); "#" comments; and skips texture
 * coordinates, normals, groups, objects, smoothing, materials and the other statements of the
 * format. Errors name the file and line ("level.obj:12: face vertex 0: indices count from 1"). */
#ifndef NAV_GEOMETRY_H
#define NAV_GEOMETRY_H

#include "nav/core.h"
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
nav_status nav_triangles_check(const nav_triangles *triangles, const nav_log *log);

/* The box of the vertices the triangles use (false, and the box untouched, when there are none). */
bool nav_triangles_bounds(const nav_triangles *triangles, nav_vec3 *min, nav_vec3 *max);

typedef struct nav_geometry nav_geometry;

/* Reads .obj text (size bytes; it need not end with a NUL). name [opt]: for messages (null:
 * "obj"). [in] allocator [opt], log [opt]: copied where needed. Returns NAV_SUCCESS; NAV_FAILURE with
 * NAV_PARSE_ERROR (bad text, named by line; a file without faces), NAV_TOO_LARGE (more vertices or
 * triangles than the limits, or a line over 1 MiB), NAV_INVALID_PARAM (null text with a size) or
 * NAV_OUT_OF_MEMORY; *out is null on failure. */
nav_status nav_geometry_load_obj(const char *text, size_t size, const char *name,
                                 const nav_allocator *allocator, const nav_log *log, nav_geometry **out);
/* The same from a file, read a window at a time (messages name its base name). Returns as above,
 * and NAV_FAILURE | NAV_IO_ERROR when it cannot be read. */
nav_status nav_geometry_load_obj_file(const char *path, const nav_allocator *allocator, const nav_log *log,
                                      nav_geometry **out);
void nav_geometry_destroy(nav_geometry *geometry);

/* The geometry's triangles (valid while it lives, unchanged). */
nav_triangles nav_geometry_triangles(const nav_geometry *geometry);
/* Its triangles' area types, for the caller to mark (water, a road): triangle_count bytes, every
 * one NAV_GEOMETRY_DEFAULT_AREA when read. */
uint8_t *nav_geometry_areas(nav_geometry *geometry);
size_t nav_geometry_memory_bytes(const nav_geometry *geometry);

#ifdef __cplusplus
}
#endif
#endif
