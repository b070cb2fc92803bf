/* Private: large convex polygons from a grid's rectangles (merge.c). */
#ifndef NAV_MESH_MERGE_H
#define NAV_MESH_MERGE_H

#include <stdbool.h>
#include <stdint.h>

/* Turns rectangles (polygon p: vertices poly_verts[poly_first[p] .. poly_first[p + 1] - 1],
 * clockwise on screen from the top-left corner, T-junction vertices included; vertex v at grid
 * corner (x[v], y[v])) into convex polygons of at most NAV_MESH_MAX_POLY_VERTS vertices covering
 * the same area, never joining rectangles of different areas or vertices. Appends to the stb_ds
 * arrays *out_first (a leading 0, then one end a polygon), *out_verts and *out_source (the
 * rectangle whose area, flags and height each polygon has). False when a rectangle is malformed. */
bool nav__merge_rectangles(const int32_t *x, const int32_t *y, const uint32_t *poly_first,
                           const uint32_t *poly_verts, const uint8_t *area, uint32_t poly_count,
                           uint32_t **out_first, uint32_t **out_verts, uint32_t **out_source);

#endif
