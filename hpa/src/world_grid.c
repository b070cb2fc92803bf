/* The grid region kind of a world: locate, fan and leg over nav/region.h's searches, the whole
 * grid as one rectangle. A grid's costs count cells; the world's count world units, so every cost
 * is multiplied by the cell size. */
#include <math.h>

#include "alloc.h"
#include "world_internal.h"

void nav__world_scratch_free(nav__world_scratch *s)
{
    nav_region_query_destroy(s->grid);
    s->grid = NULL;
}

/* The scratch's grid search pointed at r's grid, made on first use. */
static nav_status grid_scratch(nav__world_scratch *s, const nav__world_region *r)
{
    if (!s->grid) {
        nav_status st = nav_region_query_create(
            s->largest_grid, (uint32_t)(nav_grid_width(s->largest_grid) * nav_grid_height(s->largest_grid)),
            &s->allocator, &s->grid);
        if (nav_failed(st)) return st;
    }
    return nav_region_query_set_grid(s->grid, r->grid);
}

static nav_grid_rect whole(const nav_grid *grid)
{
    return (nav_grid_rect){0, 0, nav_grid_width(grid), nav_grid_height(grid)};
}

static bool grid_locate(const nav__world_region *r, nav_vec3 point, nav_world_place *out)
{
    int32_t x, y;
    if (!nav_grid_world_to_cell(r->grid, point, &x, &y) || !nav_grid_passable(r->grid, x, y)) return false;
    out->id = nav_grid_index(r->grid, x, y);
    out->position = nav_grid_cell_center(r->grid, x, y);
    return true;
}

static nav_status grid_fan(nav__world_scratch *s, const nav__world_region *r, uint32_t from, bool reverse,
                           const uint32_t *targets, uint32_t count, double *costs)
{
    nav_status st = grid_scratch(s, r);
    if (nav_failed(st)) return st;
    st = nav_region_fan(s->grid, whole(r->grid), from, reverse, targets, count, costs);
    if (nav_failed(st)) return st;
    double size = nav_grid_get_desc(r->grid)->cell_size;
    for (uint32_t k = 0; k < count; k++) costs[k] *= size;
    return st;
}

static nav_status grid_leg(nav__world_scratch *s, const nav__world_region *r, uint32_t from, uint32_t to,
                           nav_path *path, double *cost)
{
    nav_status st = grid_scratch(s, r);
    if (nav_failed(st)) return st;
    double c = 0;
    st = nav_region_leg(s->grid, whole(r->grid), from, to, 0, path, &c);
    *cost = c * nav_grid_get_desc(r->grid)->cell_size;
    return st;
}

const nav__world_region_ops nav__world_grid_ops = {grid_locate, grid_fan, grid_leg};
