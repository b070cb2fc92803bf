/* The region kind of a grid searched through its HPA* bake (nav/hpa.h): places are cells (located
 * as a grid's), a fan is one HPA* query a target, and a leg is laid hop by hop between the places
 * the plan passed, the same queries the fans and the table made, so the same cost: HPA*'s costs need
 * not obey the triangle inequality, so one query from a leg's first place to its last could differ. */
#include <math.h>

#include "world_internal.h"

/* HPA*'s path from cell a to cell b into s->path, its cost in world units to *cost: INFINITY (and
 * NAV_PARTIAL_RESULT) when there is none. */
static nav_status hpa_path(nav__world_scratch *s, const nav__world_region *r, uint32_t a, uint32_t b,
                           double *cost)
{
    nav_hpa_query *q = nav__world_scratch_hpa(s, r);
    if (!q) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    uint32_t w = (uint32_t)nav_grid_width(r->grid);
    nav_hpa_result res;
    nav_status st = nav_hpa_find_path(q, (int32_t)(a % w), (int32_t)(a / w), (int32_t)(b % w),
                                      (int32_t)(b / w), &s->path, &res);
    if (nav_failed(st)) return st;
    *cost =
        nav_has_detail(st, NAV_PARTIAL_RESULT) ? INFINITY : res.cost * nav_grid_get_desc(r->grid)->cell_size;
    return st;
}

static nav_status hpa_pair(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *a,
                           const nav_world_place *b, double *cost)
{
    return hpa_path(s, r, a->id, b->id, cost);
}

/* Each hop between two places of the leg (its end, the chokepoints the route passed, its other end)
 * as a fan kept it or as one HPA* query; a hop to the same cell is left out once the path has begun.
 * *cost: the hops' sum. */
static nav_status hpa_leg(nav__world_scratch *s, const nav_world *w, const nav__world_region *r,
                          const nav__world_leg_ask *ask, nav_path *path, double *cost)
{
    (void)w;
    uint32_t before = path->count;
    double sum = 0;
    nav_status st = NAV_SUCCESS;
    for (uint32_t h = 0; h + 1 < ask->count && !nav_failed(st); h++) {
        uint32_t at = ask->places[h].id, next = ask->places[h + 1].id;
        if (next == at && path->count > before) continue;
        /* the hop's first cell is the last hop's end: that one goes, the hop's is the same cell */
        if (path->count > before) path->count--;
        double c = 0;
        if (!nav__world_memo_hop(s, r, ask, h, path, &c, &st)) {
            s->searches++;
            st = hpa_path(s, r, at, next, &c); /* into s->path */
            if (nav_failed(st)) break;
            if (nav_has_detail(st, NAV_PARTIAL_RESULT)) {
                st = NAV_FAILURE | NAV_CORRUPT_DATA;
                break;
            }
            st = nav__world_path_append(path, &s->path);
        }
        sum += c;
    }
    if (nav_failed(st)) {
        path->count = before;
        return st;
    }
    *cost = sum;
    return NAV_SUCCESS;
}

const nav__world_region_ops nav__world_grid_hpa_ops = {
    .locate = nav__world_grid_locate, .fan = nav__world_fan_by_pairs, .leg = hpa_leg, .pair = hpa_pair};
