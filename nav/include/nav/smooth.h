/* nav/smooth.h - string pulling: straighten a grid path by line of sight.
 *
 * A cell path zig-zags along the grid's eight directions. Smoothing keeps a point only where the
 * straight segment from the previous kept point to the point after it would be blocked, climb too
 * steeply, or cost more than the cells it replaces. So the smoothed path is never more expensive
 * than the grid path, and it never crosses a blocked cell, cuts a blocked corner or breaks the
 * climb rule. A straight segment's cost is the integral of terrain cost along it: its length in each
 * cell it crosses times that cell's cost factor.
 *
 *     nav_path smooth;
 *     nav_path_init(&smooth, NULL);
 *     nav_grid_smooth_path(grid, &cells, &smooth);   // points in world coordinates
 */
#ifndef NAV_SMOOTH_H
#define NAV_SMOOTH_H

#include "nav/core.h"
#include "nav/grid.h"
#include "nav/path.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Cost of walking straight from the centre of cell a to the centre of cell b (in cells, weighted
 * by terrain). Returns false (cost unset) when the segment touches a blocked cell or off-map area,
 * passes exactly through a corner beside a blocked cell, or steps up more than max_climb between
 * two cells it crosses in turn. */
NAV_API bool nav_grid_segment_cost(const nav_grid *grid, int32_t ax, int32_t ay, int32_t bx, int32_t by,
                                   double *cost);

/* Smooths a cell path (cells->nodes, as planners return it) into out (cleared first): world points
 * at the centres of the kept cells, nodes the kept cells, out->cost the smoothed cost.
 * Returns NAV_SUCCESS, NAV_FAILURE | NAV_INVALID_PARAM when cells is not a valid cell path, or
 * NAV_FAILURE | NAV_OUT_OF_MEMORY. cells and out must be different buffers. */
NAV_API nav_status nav_grid_smooth_path(const nav_grid *grid, const nav_path *cells, nav_path *out);

/* The same for cells a libnav planner returned on this grid, unchanged since: each cell is checked
 * to be on the map and free, but the steps are not checked to be allowed moves (that check is
 * about a third of the work on one-cost grids). Cells that are not such a path may give a path
 * that is not walkable, but never a read outside the grid. Returns as nav_grid_smooth_path. */
NAV_API nav_status nav_grid_smooth_planned_path(const nav_grid *grid, const nav_path *cells, nav_path *out);

/* Checks a smoothed path: every segment between consecutive kept cells is walkable as above.
 * Writes the cost to *cost [opt]. Returns NAV_SUCCESS or NAV_FAILURE | NAV_INVALID_PARAM. */
NAV_API nav_status nav_grid_validate_segments(const nav_grid *grid, const nav_path *path, double *cost);

#ifdef __cplusplus
}
#endif
#endif
