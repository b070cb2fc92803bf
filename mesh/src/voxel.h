/* Private: the heightfield of a level's triangles, the first stage of the build from geometry
 * (docs/geometry_build.md).
 *
 * The box of the scene is cut into columns of cell x cell (x, z); each column holds the solid
 * spans the triangles fill, sorted from the bottom, as [bottom, top) in steps of cell_height above
 * the box's floor. A triangle fills, in each column its (x, z) shadow meets, the heights it takes
 * over that part of the column (a floor: one step; a wall: its height). Spans that touch or
 * overlap merge. A span carries the area type of the triangle that made its top (0 where that
 * triangle is steeper than the walkable slope, or faces down): its top is where an agent may
 * stand, once later stages have checked the room above it.
 *
 * Bake-time scratch: stb_ds arrays from the system heap (nav/src/ds.h). */
#ifndef NAV_MESH_VOXEL_H
#define NAV_MESH_VOXEL_H

#include "nav/geometry.h"

#define NAV__NO_SPAN         UINT32_MAX
#define NAV__SPAN_MAX_HEIGHT 0xffffu /* steps a column holds */

typedef struct nav__span {
    uint16_t bottom, top; /* [bottom, top) in cell_height steps above the box's floor */
    uint8_t area;         /* of the triangle that made its top; 0: no agent stands on it */
    uint32_t next;        /* the span above in the column, or NAV__NO_SPAN */
} nav__span;

typedef struct nav__heightfield {
    int32_t width, depth; /* columns along x and z */
    float cell, cell_height;
    nav_vec3 origin;  /* the box's low corner: column (0, 0) starts here, step 0 at its height */
    uint32_t steps;   /* the box's height in steps (spans are clamped to it) */
    uint32_t *column; /* stb_ds, width * depth: each column's lowest span (NAV__NO_SPAN: none) */
    nav__span *spans; /* stb_ds pool */
    uint32_t free;    /* spans let go by merges, linked through next */
    uint64_t span_count;
} nav__heightfield;

/* A heightfield over the box [min, max] in columns of cell and steps of cell_height. Returns
 * NAV_SUCCESS, or NAV_FAILURE with NAV_INVALID_PARAM (a cell or step that is not positive and
 * finite, an empty or non-finite box) or NAV_TOO_LARGE (over 2^28 columns, or more steps than a
 * span holds). */
nav_status nav__heightfield_init(nav__heightfield *hf, nav_vec3 min, nav_vec3 max, float cell,
                                 float cell_height);
void nav__heightfield_free(nav__heightfield *hf);

/* Adds one span to column (x, z), merging it with the spans it touches or overlaps: the merged top
 * is the highest, its area that top's, or the larger area when the tops lie within merge steps. */
void nav__heightfield_add_span(nav__heightfield *hf, int32_t x, int32_t z, uint32_t bottom, uint32_t top,
                               uint8_t area, uint32_t merge);

/* Rasterises every triangle (a view checked by nav_triangles_check): the area of a triangle whose
 * upward normal leans more than max_slope degrees from the vertical (or that faces down) is 0, else
 * its own. Spans whose tops lie within merge steps merge their areas. */
void nav__rasterize(nav__heightfield *hf, const nav_triangles *triangles, float max_slope, uint32_t merge);

#endif
