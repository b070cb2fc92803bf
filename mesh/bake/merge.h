/* Private: large convex polygons from a grid's rectangles (merge.c). */
#ifndef NAV_MESH_MERGE_H
#define NAV_MESH_MERGE_H

#include <stdbool.h>
#include <stdint.h>

#include "nav/core.h"

/* Turns rectangles (polygon p: vertices poly_verts[poly_first[p] .. poly_first[p + 1] - 1],
 * clockwise on screen from the top-left corner, T-junction vertices included; vertex v at grid
 * corner (x[v], y[v]), v below vert_count) into convex polygons of at most NAV_MESH_MAX_POLY_VERTS vertices
 * covering the same area, never joining rectangles of different areas or vertices. Appends to the stb_ds
 * arrays *out_first (a leading 0, then one end a polygon), *out_verts and *out_source (the
 * rectangle whose area, flags and height each polygon has). Returns NAV_SUCCESS, or NAV_FAILURE with
 * NAV_CORRUPT_DATA when a rectangle is malformed or NAV_OUT_OF_MEMORY (the arrays are then only good
 * for freeing). */
nav_status nav__merge_rectangles(const int32_t *x, const int32_t *y, const uint32_t *poly_first,
                                 const uint32_t *poly_verts, uint32_t vert_count, const uint8_t *area,
                                 uint32_t poly_count, uint32_t **out_first, uint32_t **out_verts,
                                 uint32_t **out_source);

/* The same merge (Delaunay flips, then unions longest shared edge first, then straight-side vertices
 * dropped) for triangles (tris: tri_count x 3 vertex ids, either winding; vertex v at integer
 * (x[v], y[v])), each from source tri_source[t] with area area[tri_source[t]]: triangles of
 * different areas, or that share no edge (by vertex ids), are never joined. Polygons have at most
 * max_verts (<= NAV_MESH_MAX_POLY_VERTS) vertices, wound as orient > 0 (clockwise on screen with y
 * down). Appends to the stb_ds arrays as nav__merge_rectangles does; tri_poly [opt] (tri_count
 * entries): the polygon each triangle ended in (triangles flip on the way: each keeps its source). False
 * when memory runs out (the arrays are then only good for freeing). */
bool nav__merge_triangles(const int32_t *x, const int32_t *y, uint32_t vert_count, const uint32_t *tris,
                          const uint32_t *tri_source, uint32_t tri_count, const uint8_t *area,
                          uint32_t max_verts, uint32_t **out_first, uint32_t **out_verts,
                          uint32_t **out_source, uint32_t *tri_poly);

/* Sorts order[0 .. n - 1] (ids) by key[id], stably: a bottom-up merge sort through tmp (n entries). */
void nav__sort_by_key(uint32_t *order, uint32_t *tmp, uint32_t n, const uint64_t *key);

/* rep[v]: the least vertex at v's grid corner (x[v], y[v]: 0..NAV_GRID_MAX_SIDE), for n vertices,
 * and with the same height (the same bits of height[v]) unless height is null; a radix sort of the
 * corners, no hashing. False when memory runs out. */
bool nav__corner_reps(const int32_t *x, const int32_t *y, const float *height, uint32_t n, uint32_t *rep);

/* For each of n directed edges from[i] -> to[i] (vertex ids below vert_count), twin[i]: the edge
 * to[i] -> from[i], or UINT32_MAX when there is none (the first such, should there be several).
 * Edges grouped by their start vertex, so a lookup reads the few edges of one vertex. False when memory
 * runs out. */
bool nav__match_edges(const uint32_t *from, const uint32_t *to, uint32_t n, uint32_t vert_count,
                      uint32_t *twin);

#endif
