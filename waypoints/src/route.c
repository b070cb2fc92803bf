/* Routes under a filter: the table's route while the filter leaves it open, else a search over the
 * graph, guided by the table's distances where they still bound the truth. */
#include <math.h>

#include "waypoints_internal.h"

/* A lower bound of the cost from v to `to` under the filter: the table's distance (the unfiltered
 * graph's: a filter that only closes things can only make routes dearer), shrunk by 2^-20 so that
 * the float's rounding never lifts it above the truth; 0 for Dijkstra. INFINITY: `to` cannot be
 * reached from v at all. */
static inline double bound(const nav_waypoints *wp, bool heuristic, uint32_t v, uint32_t to)
{
    return heuristic ? (double)wp->dist[(size_t)v * wp->count + to] * (1 - 0x1p-20) : 0;
}

/* A* from `from` to `to` over the arcs the filter leaves open (Dijkstra when !heuristic), ordered
 * by f, then larger g, then index; the route into out (cost in r). A waypoint whose g drops after it was
 * expanded goes back on the open list (the float bound may be off by its rounding), so the route found is the
 * cheapest. */
static nav_status search(nav_waypoints_query *q, const nav_waypoints_filter *f, bool heuristic, uint32_t from,
                         uint32_t to, nav_path *out, nav_waypoints_route_result *r)
{
    const nav_waypoints *wp = q->wp;
    if (++q->seen_now == 0) { /* the stamps wrapped: forget them all */
        for (uint32_t v = 0; v < wp->count; v++) q->seen[v] = 0;
        q->seen_now = 1;
    }
    uint32_t now = q->seen_now;
    nav_heap_clear(&q->open);
    if (!(bound(wp, heuristic, from, to) < INFINITY)) return NAV_FAILURE | NAV_UNREACHABLE;
    q->seen[from] = now;
    q->g[from] = 0;
    q->parent[from] = from;
    q->in_open[from] = 1;
    nav_heap_push(&q->open, nav_heap_key_exact(bound(wp, heuristic, from, to)), nav_heap_tie_larger_g(0),
                  from);
    bool found = false;
    while (q->open.count) {
        uint32_t u = nav_heap_entry_id(nav_heap_pop(&q->open));
        q->in_open[u] = 0;
        r->expanded++;
        if (u == to) {
            found = true;
            break;
        }
        double gu = q->g[u];
        for (uint32_t i = wp->arc_first[u], end = wp->arc_first[u + 1]; i < end; i++) {
            uint32_t v = wp->arc_to[i];
            double gv = gu + wp->arc_cost[i];
            if (q->seen[v] == now && !(gv < q->g[v])) continue;
            if (!nav__wp_arc_open(wp, f, i) || !nav__wp_point_open(wp, f, v)) continue;
            double h = bound(wp, heuristic, v, to);
            if (!(h < INFINITY)) continue;
            bool queued = q->seen[v] == now && q->in_open[v];
            q->seen[v] = now;
            q->g[v] = gv;
            q->parent[v] = u;
            q->in_open[v] = 1;
            uint64_t key = nav_heap_key_exact(gv + h);
            if (queued)
                nav_heap_decrease(&q->open, v, key, nav_heap_tie_larger_g(gv));
            else
                nav_heap_push(&q->open, key, nav_heap_tie_larger_g(gv), v);
        }
    }
    if (!found) return NAV_FAILURE | NAV_UNREACHABLE;
    nav_status s = NAV_SUCCESS;
    for (uint32_t v = to; !nav_failed(s); v = q->parent[v]) {
        s = nav_path_push(out, wp->positions[v], v);
        if (v == from) break;
    }
    if (nav_failed(s)) return s;
    nav_path_reverse(out);
    r->cost = q->g[to]; /* summed along the route, first link first */
    return NAV_SUCCESS;
}

nav_status nav_waypoints_query_route(nav_waypoints_query *q, uint32_t from, uint32_t to,
                                     const nav_waypoints_filter *filter, nav_path *out,
                                     nav_waypoints_route_result *result)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_path_clear(out);
    out->cost = 0;
    nav_waypoints_route_result r = {0};
    if (result) *result = r;
    if (!q || from >= q->wp->count || to >= q->wp->count) return NAV_FAILURE | NAV_INVALID_PARAM;
    const nav_waypoints *wp = q->wp;
    nav_waypoints_method method = filter ? filter->method : NAV_WAYPOINTS_AUTO;
    /* the tables bound routes from below unless the filter opens links they left out */
    bool tables_hold = !(filter && filter->open_disabled && wp->disabled_arcs);
    nav_status s;
    if (!nav__wp_point_open(wp, filter, from) || !nav__wp_point_open(wp, filter, to)) {
        s = NAV_FAILURE | NAV_UNREACHABLE;
    } else if (tables_hold && nav_waypoints_next_hop(wp, from, to) == NAV_WAYPOINTS_NONE) {
        s = NAV_FAILURE | NAV_UNREACHABLE; /* no route even with everything open */
    } else if (method == NAV_WAYPOINTS_AUTO && tables_hold &&
               (s = nav__wp_walk(wp, filter, from, to, out, &r.cost)) != (NAV_FAILURE | NAV_UNREACHABLE)) {
        /* the table's route, open all the way (or out of memory) */
    } else {
        nav_path_clear(out);
        r.cost = 0;
        r.searched = true;
        r.heuristic = tables_hold && method != NAV_WAYPOINTS_DIJKSTRA;
        s = search(q, filter, r.heuristic, from, to, out, &r);
    }
    if (nav_failed(s)) {
        nav_path_clear(out);
        r.cost = 0;
    } else {
        out->cost = r.cost;
    }
    if (result) *result = r;
    return s;
}
