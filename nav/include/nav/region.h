/* nav/region.h - searches bounded to a rectangle of the grid: the grid planner's leg and fan.
 *
 * The abstract layer (nav/hpa.h) asks each planner two questions about the space it owns
 * (../shared/DESIGN.md): the path from A to B inside a region (a leg), and the cost from A to
 * each of several chokepoints inside it (a fan: one search, many targets). On a grid a region is
 * a rectangle of cells (an HPA* cluster); every move of these searches starts and ends inside it.
 *
 * A nav_region_query owns the scratch of one thread, sized for rectangles of up to max_cells
 * cells; it is reused across searches without clearing (generation stamps) and allocates after
 * creation only to grow the caller's path buffer and, for fans over a whole grid, its buckets (to
 * the largest frontier a fan has had: a few bytes a cell of it; kept for the next fan).
 *
 *     nav_region_query *rq;
 *     nav_region_query_create(grid, 16 * 16, NULL, &rq);
 *     nav_grid_rect cluster = {.x = 32, .y = 16, .width = 16, .height = 16};
 *     uint32_t doors[2] = {nav_grid_index(grid, 32, 20), nav_grid_index(grid, 47, 30)};
 *     double cost[2];
 *     nav_region_fan(rq, cluster, nav_grid_index(grid, 40, 24), false, doors, 2, cost);
 *     nav_region_fan_path(rq, doors[1], &path);     // the cells to the second door
 *     nav_region_query_destroy(rq);
 */
#ifndef NAV_REGION_H
#define NAV_REGION_H

#include "nav/core.h"
#include "nav/grid.h"
#include "nav/path.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A rectangle of cells: columns x .. x + width - 1, rows y .. y + height - 1. */
typedef struct nav_grid_rect {
    int32_t x, y, width, height;
} nav_grid_rect;

typedef struct nav_region_query nav_region_query;

/* Makes a query object for rectangles of up to max_cells cells (about 24 bytes a cell; more than
 * the grid has is allowed, for a query that later serves larger grids: nav_region_query_set_grid).
 * [in] allocator [opt] copied. Returns NAV_FAILURE with NAV_INVALID_PARAM (no grid, max_cells 0) or
 * NAV_OUT_OF_MEMORY; *out is null on failure. */
NAV_API nav_status nav_region_query_create(const nav_grid *grid, uint32_t max_cells,
                                           const nav_allocator *allocator, nav_region_query **out);
NAV_API void nav_region_query_destroy(nav_region_query *query);
/* Points the query at another grid (a world's grid regions share one query object); its max_cells
 * stays. The last fan's results are dropped. Returns NAV_FAILURE | NAV_INVALID_PARAM for null
 * arguments. */
NAV_API nav_status nav_region_query_set_grid(nav_region_query *query, const nav_grid *grid);
/* The terrain costs the query's fans and legs go by from now on: filter's (nav_grid_filter: it may
 * keep types out and cost them otherwise), or the grid's own when null. Borrowed: it must stay, and
 * stay unchanged, while set. A fan or leg under a filter runs on a heap (the bucket fans read the
 * grid's own costs). Returns NAV_FAILURE | NAV_INVALID_PARAM for a null query or a filter with a
 * cost no type may have (nav_grid_filter_valid); the query's filter is then as it was. */
NAV_API nav_status nav_region_query_set_filter(nav_region_query *query, const nav_grid_filter *filter);
NAV_API size_t nav_region_query_memory_bytes(const nav_region_query *query);

/* Fan: Dijkstra from cell `from` inside rect, until every target is settled or nothing is left.
 * reverse false: costs[k] is the cost from `from` to targets[k]; reverse true: the cost from
 * targets[k] to `from` (moves taken backwards, so one-way climbs count the right way). A target
 * that cannot be reached inside rect, or lies outside it, gets INFINITY. Costs are those of
 * nav_grid_move_cost, summed. Ties break by cell index, so the result is deterministic.
 * Returns NAV_SUCCESS, NAV_FAILURE | NAV_INVALID_PARAM (rect off the map or larger than the
 * query's max_cells, `from` outside rect or blocked, a null pointer with count > 0), or
 * NAV_FAILURE | NAV_OUT_OF_MEMORY (a fan over the whole grid could not grow its buckets; there is
 * then no last fan for nav_region_fan_cost and nav_region_fan_path). */
NAV_API nav_status nav_region_fan(nav_region_query *query, nav_grid_rect rect, uint32_t from, bool reverse,
                                  const uint32_t *targets, uint32_t count, double *costs);

/* The last fan's cost of any cell of its rectangle (INFINITY when the fan did not settle it, or the
 * cell lies outside). A fan with no targets runs until every reachable cell is settled, so this is
 * then the whole distance field of `from` inside the rectangle. */
NAV_API double nav_region_fan_cost(const nav_region_query *query, uint32_t cell);

/* Appends the cells of the last fan's path for one of its reached targets, in walking order:
 * from `from` to target (or, after a reverse fan, from target to `from`), both ends included.
 * Returns NAV_FAILURE | NAV_INVALID_PARAM when the target was not reached by the last fan, or
 * NAV_FAILURE | NAV_OUT_OF_MEMORY when the path cannot grow (it is then cut back as it was). */
NAV_API nav_status nav_region_fan_path(const nav_region_query *query, uint32_t target, nav_path *path);

/* Leg: A* from cell `from` to cell `to` inside rect (octile heuristic scaled by the cheapest
 * terrain cost), expanding at most max_expanded cells (0: no limit). Appends the cells (both
 * ends) to path and writes the cost to *cost [opt].
 * Returns NAV_SUCCESS; NAV_SUCCESS | NAV_PARTIAL_RESULT with nothing appended plus
 * NAV_UNREACHABLE (no path inside rect) or NAV_OUT_OF_NODES (the limit ran out); NAV_FAILURE with
 * NAV_INVALID_PARAM or NAV_OUT_OF_MEMORY. */
NAV_API nav_status nav_region_leg(nav_region_query *query, nav_grid_rect rect, uint32_t from, uint32_t to,
                                  uint32_t max_expanded, nav_path *path, double *cost);

/* Cells expanded by this query object's searches since it was made (a counter for benchmarks). */
NAV_API uint64_t nav_region_query_expanded(const nav_region_query *query);

#ifdef __cplusplus
}
#endif
#endif
