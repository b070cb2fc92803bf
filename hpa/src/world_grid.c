/* The grid region kind of a world: locate, fan and leg over nav/region.h's searches, the whole
 * grid as one rectangle, and its cells as places the world's search walks itself when an end lies
 * on the grid (nav__world_places). A grid's costs count cells; the world's count world units, so
 * every cost is multiplied by the cell size. */
#include <math.h>

#include "grid_internal.h"
#include "world_internal.h"
#include "world_search.h"

static nav_grid_rect whole(const nav_grid *grid)
{
    return (nav_grid_rect){0, 0, nav_grid_width(grid), nav_grid_height(grid)};
}

static nav_vec3 cell_position(const nav_grid *grid, uint32_t cell)
{
    return nav_grid_cell_center(grid, (int32_t)(cell % grid->width), (int32_t)(cell / grid->width));
}

bool nav__world_grid_locate(const nav__world_region *r, nav_vec3 point, nav_world_place *out)
{
    int32_t x, y;
    if (!nav_grid_world_to_cell(r->grid, point, &x, &y) || !nav_grid_passable(r->grid, x, y)) return false;
    out->region = r->index;
    out->id = nav_grid_index(r->grid, x, y);
    out->position = nav_grid_cell_center(r->grid, x, y);
    return true;
}

static nav_status grid_fan(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *from,
                           bool reverse, nav__world_end keep, const nav_world_place *targets, uint32_t count,
                           double *costs)
{
    (void)keep; /* (a big grid's end: its leg is searched again; the fans share one search) */
    nav_status st = nav__world_scratch_grid(s, r);
    if (nav_failed(st)) return st;
    for (uint32_t k = 0; k < count; k++) s->ids[k] = targets[k].id;
    s->searches++;
    st = nav_region_fan(s->grid, whole(r->grid), from->id, reverse, s->ids, count, costs);
    if (nav_failed(st)) return st;
    double size = nav_grid_get_desc(r->grid)->cell_size;
    for (uint32_t k = 0; k < count; k++) costs[k] *= size;
    return st;
}

/* Appends the ways the bake kept for a leg that is a chain of table entries (from the chokepoint a
 * link reached to the one the next link leaves from, each hop an entry), walking each entry's runs of
 * moves (for the mirrored half of a symmetric table, its mirror's runs backwards), with *cost their
 * moves' sum. */
static nav_status kept(const nav_world *w, const nav__world_region *r, const nav__world_leg_ask *ask,
                       nav_path *path, double *cost)
{
    const nav_grid *grid = r->grid;
    uint32_t cell = ask->places[0].id, before = path->count;
    double sum = 0, size = grid->desc.cell_size;
    nav_status s = nav_path_push(path, cell_position(grid, cell), cell);
    for (uint32_t h = 0; h + 1 < ask->count && !nav_failed(s); h++) {
        uint32_t i = w->choke_slot[ask->chokes[h]], j = w->choke_slot[ask->chokes[h + 1]];
        bool backwards = r->symmetric && i > j;
        uint64_t e = backwards ? nav__world_entry(w, r, j, i) : nav__world_entry(w, r, i, j);
        if (e == UINT64_MAX) { /* (never: the search took the entry) */
            s = NAV_FAILURE | NAV_CORRUPT_DATA;
            break;
        }
        uint64_t runs = w->way_size[e], at = nav__world_way_start(w, r->choke_first + (backwards ? j : i), e);
        for (uint64_t k = 0; k < runs && !nav_failed(s); k++) {
            uint8_t run = w->path_bytes[backwards ? at + runs - 1 - k : at + k];
            int d = backwards ? nav__dir_opposite(run >> 5) : run >> 5;
            for (int n = (run & 31) + 1; n > 0 && !nav_failed(s); n--) {
                uint32_t next = (uint32_t)((int32_t)cell + grid->offset[d]);
                /* a move's cost is its length times the terrain entered */
                sum += grid->step_length[d] * grid->terrain_cost[grid->terrain[next]] * size;
                cell = next;
                s = nav_path_push(path, cell_position(grid, cell), cell);
            }
        }
    }
    if (nav_failed(s)) {
        path->count = before;
        return s;
    }
    *cost = sum;
    return NAV_SUCCESS;
}

/* A leg between two chokepoints made of table entries only is laid along the ways the bake kept;
 * any other (an end of a grid too big for the search to walk) is searched. */
static nav_status grid_leg(nav__world_scratch *s, const nav_world *w, const nav__world_region *r,
                           const nav__world_leg_ask *ask, nav_path *path, double *cost)
{
    bool chain = ask->chokes[0] != NAV_WORLD_NONE && ask->chokes[ask->count - 1] != NAV_WORLD_NONE;
    for (uint32_t h = 0; h + 1 < ask->count && chain; h++) chain = ask->table[h];
    if (chain) return kept(w, r, ask, path, cost);
    nav_status st = nav__world_scratch_grid(s, r);
    if (nav_failed(st)) return st;
    double c = 0;
    s->searches++;
    st = nav_region_leg(s->grid, whole(r->grid), ask->places[0].id, ask->places[ask->count - 1].id, 0, path,
                        &c);
    *cost = c * nav_grid_get_desc(r->grid)->cell_size;
    return st;
}

/* ---- The cells as the world's search walks them ---- */

/* A cell's centre worked out as nav_grid_cell_center does (the same floats: a chokepoint on the
 * cell gets the same estimate, which its edge of cost 0 from the cell needs), without the height. */
static double cell_estimate(const nav__world_search *s, const nav__world_region *r, uint32_t cell)
{
    const nav_grid *g = r->grid;
    float size = g->desc.cell_size;
    return nav__world_search_estimate(s, g->desc.origin.x + ((float)(cell % g->width) + 0.5f) * size,
                                      g->desc.origin.z + ((float)(cell / g->width) + 0.5f) * size);
}

static void cell_expand(nav__world_search *s, const nav__world_region *r, uint32_t block, uint32_t cell,
                        double g)
{
    const nav_grid *grid = r->grid;
    double size = grid->desc.cell_size;
    for (uint32_t m = grid->moves[cell]; m; m &= m - 1) {
        int d = __builtin_ctz(m);
        uint32_t next = (uint32_t)((int32_t)cell + grid->offset[d]);
        double step = grid->step_length[d] * grid->terrain_cost[grid->terrain[next]] * size, to = g + step;
        if (nav__world_search_improves(s, block + next, to))
            nav__world_search_take(s, block + next, to, block + cell, NAV__WORLD_BY_END,
                                   cell_estimate(s, r, next));
    }
}

static nav_vec3 place_position(const nav__world_region *r, uint32_t cell)
{
    return cell_position(r->grid, cell);
}

static const nav__world_places cells = {cell_expand, cell_estimate, place_position};

const nav__world_region_ops nav__world_grid_ops = {
    .locate = nav__world_grid_locate, .fan = grid_fan, .leg = grid_leg, .places = &cells};
