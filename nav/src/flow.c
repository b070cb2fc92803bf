/* Flow fields: Dijkstra from the goals over reversed moves. */
#include "nav/flow.h"

#include <math.h>

#include "alloc.h"
#include "grid_internal.h"
#include "nav/heap.h"

#define NO_MOVE 0xffu

struct nav_flow_field {
    const nav_grid *grid;
    nav_allocator allocator;
    double *distance;
    uint8_t *next_dir; /* direction of the move to take from each cell, NO_MOVE at goals */
    nav_heap open;
};

nav_status nav_flow_field_create(const nav_grid *grid, const nav_allocator *allocator, nav_flow_field **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!grid) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_allocator a;
    nav__allocator_resolve(&a, allocator);
    nav_flow_field *flow = nav__calloc(&a, 1, sizeof *flow);
    if (!flow) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    flow->grid = grid;
    flow->allocator = a;
    flow->distance = nav__alloc(&a, nav__mul_size(grid->cells, sizeof *flow->distance));
    flow->next_dir = nav__alloc(&a, grid->cells);
    nav_status s = flow->distance && flow->next_dir ? nav_heap_init(&flow->open, &a, grid->cells, grid->cells)
                                                    : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (nav_failed(s)) {
        nav_flow_field_destroy(flow);
        return s;
    }
    for (uint32_t c = 0; c < grid->cells; c++) {
        flow->distance[c] = INFINITY;
        flow->next_dir[c] = NO_MOVE;
    }
    *out = flow;
    return NAV_SUCCESS;
}

void nav_flow_field_destroy(nav_flow_field *flow)
{
    if (!flow) return;
    nav_heap_destroy(&flow->open);
    nav__free(&flow->allocator, flow->distance);
    nav__free(&flow->allocator, flow->next_dir);
    nav__free(&flow->allocator, flow);
}

nav_status nav_flow_field_compute(nav_flow_field *flow, const int32_t *goals_xy, uint32_t goal_count)
{
    if (!flow || (!goals_xy && goal_count)) return NAV_FAILURE | NAV_INVALID_PARAM;
    const nav_grid *grid = flow->grid;
    for (uint32_t c = 0; c < grid->cells; c++) {
        flow->distance[c] = INFINITY;
        flow->next_dir[c] = NO_MOVE;
    }
    for (uint32_t i = 0; i < goal_count; i++)
        if (!nav_grid_passable(grid, goals_xy[2 * i], goals_xy[2 * i + 1]))
            return NAV_FAILURE | NAV_INVALID_PARAM;

    nav_heap_clear(&flow->open);
    for (uint32_t i = 0; i < goal_count; i++) {
        uint32_t cell = nav_grid_index(grid, goals_xy[2 * i], goals_xy[2 * i + 1]);
        if (flow->distance[cell] == 0) continue; /* a goal given twice */
        flow->distance[cell] = 0;
        nav_heap_push(&flow->open, nav_heap_key_exact(0), 0, cell);
    }
    while (flow->open.count) {
        /* exact order and non-negative costs: a popped cell never improves again */
        uint32_t v = nav_heap_entry_id(nav_heap_pop(&flow->open));
        int32_t vx = (int32_t)(v % grid->width), vy = (int32_t)(v / grid->width);
        double enter_v = grid->terrain_cost[grid->terrain[v]];
        /* every u with an allowed move u -> v, in direction d */
        for (int d = 0; d < 8; d++) {
            int32_t ux = vx - nav__dir_dx[d], uy = vy - nav__dir_dy[d];
            if (!nav_grid_in_bounds(grid, ux, uy)) continue;
            uint32_t u = nav_grid_index(grid, ux, uy);
            if (!(grid->moves[u] >> d & 1u)) continue;
            double g = flow->distance[v] + grid->step_length[d] * enter_v;
            if (g >= flow->distance[u]) continue;
            bool queued = flow->distance[u] < INFINITY;
            flow->distance[u] = g;
            flow->next_dir[u] = (uint8_t)d;
            if (queued)
                nav_heap_decrease(&flow->open, u, nav_heap_key_exact(g), 0);
            else
                nav_heap_push(&flow->open, nav_heap_key_exact(g), 0, u);
        }
    }
    return NAV_SUCCESS;
}

double nav_flow_field_distance(const nav_flow_field *flow, int32_t x, int32_t y)
{
    if (!nav_grid_in_bounds(flow->grid, x, y)) return INFINITY;
    return flow->distance[nav_grid_index(flow->grid, x, y)];
}

bool nav_flow_field_next(const nav_flow_field *flow, int32_t x, int32_t y, int32_t *next_x, int32_t *next_y)
{
    if (!nav_grid_in_bounds(flow->grid, x, y)) return false;
    uint8_t d = flow->next_dir[nav_grid_index(flow->grid, x, y)];
    if (d == NO_MOVE) return false;
    *next_x = x + nav__dir_dx[d];
    *next_y = y + nav__dir_dy[d];
    return true;
}
