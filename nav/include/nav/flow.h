/* nav/flow.h - flow fields: a Dijkstra map from one or many goals over the whole grid.
 *
 * For many agents heading to one place (the tower-defence case of seed tutorial 001), one search
 * backwards from the goals gives every cell its cost to the nearest goal and the move to take
 * from it, so each agent just follows the arrows. Moves respect terrain costs, corners and the
 * climb rule in their real direction: the distance of a cell is that of walking from it to a goal.
 *
 *     nav_flow_field *flow;
 *     nav_flow_field_create(grid, NULL, &flow);
 *     int32_t goals[] = {40, 12};                      // x, y pairs
 *     nav_flow_field_compute(flow, goals, 1);
 *     int32_t x = 3, y = 7;
 *     while (nav_flow_field_next(flow, x, y, &x, &y)) walk_to(x, y);
 *     nav_flow_field_destroy(flow);
 */
#ifndef NAV_FLOW_H
#define NAV_FLOW_H

#include "nav/core.h"
#include "nav/grid.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nav_flow_field nav_flow_field;

/* Makes a flow field for a grid (13 bytes a cell). The grid must outlive it and not change while
 * a compute runs. Returns NAV_FAILURE | NAV_OUT_OF_MEMORY or NAV_INVALID_PARAM on failure. */
NAV_API nav_status nav_flow_field_create(const nav_grid *grid, const nav_allocator *allocator,
                                         nav_flow_field **out);
NAV_API void nav_flow_field_destroy(nav_flow_field *flow);

/* Computes distances and next moves towards the nearest of goal_count goals, given as x, y pairs.
 * Blocked or off-map goals are an error (NAV_FAILURE | NAV_INVALID_PARAM, field left empty). */
NAV_API nav_status nav_flow_field_compute(nav_flow_field *flow, const int32_t *goals_xy, uint32_t goal_count);

/* Cost from (x, y) to the nearest goal; INFINITY when no goal can be reached (or off the map). */
NAV_API double nav_flow_field_distance(const nav_flow_field *flow, int32_t x, int32_t y);

/* The cell to move to from (x, y). Returns false at a goal, on unreachable cells and off the map
 * (next_x, next_y then unchanged). */
NAV_API bool nav_flow_field_next(const nav_flow_field *flow, int32_t x, int32_t y, int32_t *next_x,
                                 int32_t *next_y);

#ifdef __cplusplus
}
#endif
#endif
