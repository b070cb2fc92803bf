/* Private: the world query's search (world_query.c), as far as a region kind that lets the search
 * walk its places (nav__world_places: a flat grid's cells) needs it to offer the moves out of a
 * place. The search is one A* over vertices: the world's chokepoints, then the places of the ends'
 * regions (a block each); its estimate is the horizontal distance to the goal times the world's
 * cost floors (world_query.c's header comment). */
#ifndef NAV_WORLD_SEARCH_H
#define NAV_WORLD_SEARCH_H

#include <math.h>

#include "nav/heap.h"
#include "world_internal.h"

/* how a vertex was reached (nav__world_search.by) */
#define NAV__WORLD_BY_END   0 /* from the start (its places or fan), or from the place it lies on */
#define NAV__WORLD_BY_LINK  1 /* through a link: it may enter its region's places or table */
#define NAV__WORLD_BY_TABLE 2 /* through its region's table: it may follow the table on */

struct nav__world_search {
    double *g;
    uint32_t *parent; /* the vertex each was reached from (UINT32_MAX: where the search began) */
    uint8_t *by;      /* NAV__WORLD_BY_* */
    uint32_t *stamp;  /* stamp_now << 1 when the vertex was offered in this search, | 1 once closed */
    uint32_t stamp_now;
    nav_heap open;
    nav_vec3 goal;               /* the goal's position */
    nav__world_scratch *scratch; /* the query's (its filters, for the places' moves) */
    double floor, floor_octile;  /* the world's cost_floor and cost_floor_octile */
};

/* The estimate of the cost from world point (x, z) to the goal: the larger of the straight-line
 * and the octile distance times their floors (consistent). (x, z) are taken as floats, as a
 * chokepoint's position is: a chokepoint on a place gets the place's estimate. */
static inline double nav__world_search_estimate(const nav__world_search *s, double x, double z)
{
    nav_vec3 p = {(float)x, 0, (float)z};
    return fmax(s->floor * nav__world_dist_xz(p, s->goal), s->floor_octile * nav__world_octile(p, s->goal));
}

/* Whether an offer of cost g to vertex v would be taken (v not closed, and not seen at g or less). */
static inline bool nav__world_search_improves(const nav__world_search *s, uint32_t v, double g)
{
    return s->stamp[v] >> 1 != s->stamp_now || (!(s->stamp[v] & 1) && g < s->g[v]);
}

/* Takes an offer that improves (nav__world_search_improves): v reached at cost g from `from`
 * (by: NAV__WORLD_BY_*), h its estimate. */
static inline void nav__world_search_take(nav__world_search *s, uint32_t v, double g, uint32_t from,
                                          uint8_t by, double h)
{
    bool seen = s->stamp[v] >> 1 == s->stamp_now;
    s->g[v] = g;
    s->parent[v] = from;
    s->by[v] = by;
    uint64_t key = nav_heap_key_exact(g + h);
    if (seen) {
        nav_heap_decrease(&s->open, v, key, nav_heap_tie_larger_g(g));
    } else {
        s->stamp[v] = s->stamp_now << 1;
        nav_heap_push(&s->open, key, nav_heap_tie_larger_g(g), v);
    }
}

#endif
