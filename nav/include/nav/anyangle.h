/* nav/anyangle.h - the any-angle rule on a grid: which straight segments between arbitrary points
 * an agent may walk, and what they cost.
 *
 * Any-angle planners (navigation meshes, waypoint graphs) return paths whose points lie anywhere,
 * not only at cell centres; their optimal paths bend exactly at the corners of blocked cells. This
 * is the rule they are checked against (the rule of Anya and Polyanya on grid maps):
 *   - each blocked cell is a closed unit square and the map's border is a wall;
 *   - a segment may run along a blocked square's edge or touch its corner, but never enter its
 *     interior, and never run between two blocked squares (it must stay in the closure of the free
 *     cells);
 *   - it never passes through a pinch: a grid vertex where two blocked squares meet only at their
 *     corner and the two other squares are free (the grid's no-corner-cutting rule). A path may
 *     touch a pinch and turn back to the side it came from, never cross to the other side;
 *   - crossing from one cell's interior into another's, the step up may not exceed max_climb
 *     (stepping down is always allowed). Portions that run along a grid line between two cells are
 *     not checked for climbs.
 * The cost of a segment is the integral of terrain cost along it: its length in each cell times
 * that cell's cost factor, and along a grid line between two free cells the cheaper of the two.
 * The test is exact at grid vertices and cell centres (every coordinate a multiple of 1/2^20 below
 * 2^15 is handled exactly); nav_grid_segment_cost (nav/smooth.h) is the stricter rule of centre to
 * centre smoothing, which also refuses to touch a blocked corner.
 *
 * Coordinates here are in grid units: x in [0, width], y in [0, height], (0, 0) the outer corner of
 * cell (0, 0), and cell (x, y)'s centre at (x + 0.5, y + 0.5). World points convert through the
 * grid's origin and cell size (world x -> grid x, world z -> grid y).
 *
 *     double cost;
 *     if (nav_grid_anyangle_segment(grid, 0.5, 0.5, 7.0, 3.0, &cost)) ...   // walkable, costs `cost`
 *     nav_status s = nav_grid_validate_anyangle_path(grid, &path, &cost);  // a mesh planner's path
 */
#ifndef NAV_ANYANGLE_H
#define NAV_ANYANGLE_H

#include "nav/core.h"
#include "nav/grid.h"
#include "nav/path.h"

#ifdef __cplusplus
extern "C" {
#endif

/* True when the straight segment from (ax, ay) to (bx, by) (grid units) is walkable under the rule
 * above; then *cost [opt] is its terrain-weighted length in cells. A zero-length segment is
 * walkable where the point lies in a free cell's closed square. False for points off the map or
 * not finite. */
NAV_API bool nav_grid_anyangle_segment(const nav_grid *grid, double ax, double ay, double bx, double by,
                                       double *cost);

/* True when a path arriving at grid vertex (x, y) from direction (in_x, in_y) (a point before it
 * minus the vertex) may leave towards (out_x, out_y): false only where the vertex is a pinch and the
 * two directions lie on its two different sides. */
NAV_API bool nav_grid_anyangle_turn(const nav_grid *grid, int32_t x, int32_t y, double in_x, double in_y,
                                    double out_x, double out_y);

/* World position (x, z) to grid units, and back (y of the result: 0). */
NAV_API void nav_grid_world_to_units(const nav_grid *grid, nav_vec3 world, double *x, double *y);
NAV_API nav_vec3 nav_grid_units_to_world(const nav_grid *grid, double x, double y);

/* Checks a path of world points (path->points) under the rule: every segment, and every turn at a
 * pinch. Writes the path's cost [opt] (terrain-weighted length in cells). Reports the first bad
 * segment to the grid's log. Returns NAV_SUCCESS, or NAV_FAILURE | NAV_INVALID_PARAM for an empty
 * path or one that breaks the rule. */
NAV_API nav_status nav_grid_validate_anyangle_path(const nav_grid *grid, const nav_path *path, double *cost);

#ifdef __cplusplus
}
#endif
#endif
