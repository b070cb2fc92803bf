/* Routes under a filter: the table's route while the filter leaves it open, else a search over the
 * graph, guided by the table's distances where they still bound the truth. */
#include <math.h>

#include "waypoints_internal.h"

/* A lower bound of the cost from `from` to v under the filter: the table's distance (the
 * unfiltered graph's: a filter that only closes things can only make routes dearer), shrunk by
 * 2^-20 so that the float's rounding never lifts it above the truth; 0 for Dijkstra. INFINITY: v
 * cannot be reached from `from` at all. On hub labels, the least over v's in-label of the distance
 * from `from` to the hub (from's out-label, spread over q->hub_best by hub_from) plus the hub's to
 * v: one pass over one label. */
static inline double bound(const nav_waypoints_query *q, bool heuristic, uint32_t from, uint32_t v)
{
    const nav_waypoints *wp = q->wp;
    if (!heuristic) return 0;
    if (!wp->compressed) return (double)wp->dist[(size_t)from * wp->count + v] * (1 - 0x1p-20);
    double d = INFINITY;
    for (uint32_t k = wp->label_first[1][v], end = wp->label_first[1][v + 1]; k < end; k++)
        d = nav__wp_min(d, q->hub_best[wp->label_hub[1][k]] + (double)wp->label_dist[1][k]);
    return d * (1 - 0x1p-20);
}

/* On hub labels: from's out-label into q->hub_best (INFINITY elsewhere), for bound. */
static void hub_from(nav_waypoints_query *q, uint32_t from)
{
    const nav_waypoints *wp = q->wp;
    nav__wp_hubs_clear(q);
    for (uint32_t k = wp->label_first[0][from], end = wp->label_first[0][from + 1]; k < end; k++) {
        q->hub_best[wp->label_hub[0][k]] = wp->label_dist[0][k];
        q->hub_touched[q->hub_count++] = wp->label_hub[0][k];
    }
}

/* A* backwards, from `to` over the arcs into each waypoint that the filter leaves open, until it
 * reaches `from` (Dijkstra when !heuristic), ordered by f, then larger g, then index. Backwards, so
 * that the heuristic of every waypoint is on one row of the table (row `from`: one stretch of
 * memory) and not one row a waypoint. A waypoint whose g drops after it was expanded goes back on
 * the open list (the float bound may be off by its rounding), so the route found is the cheapest.
 * The route into out, its cost (summed first link first) in r.
 *
 * The tables of a bake are a consistent heuristic but for their rounding, so hardly any waypoint is
 * expanded twice. Those of a forged chunk (which the chunk reader checks for routes that exist, not
 * for routes that are the cheapest) could make A* reopen waypoints without end in sight: beyond
 * 4n + 64 expansions it gives up (GAVE_UP) and the caller runs Dijkstra, which needs no bound. */
#define GAVE_UP (NAV_FAILURE | NAV_WRONG_STATE)

static nav_status search(nav_waypoints_query *q, const nav_waypoints_filter *f, bool heuristic, uint32_t from,
                         uint32_t to, nav_path *out, nav_waypoints_route_result *r)
{
    const nav_waypoints *wp = q->wp;
    uint32_t now = nav__wp_stamps(q, 1);
    if (heuristic && wp->compressed) hub_from(q, from);
    nav_heap_clear(&q->open);
    q->seen[to] = now;
    q->g[to] = 0;
    q->h[to] = bound(q, heuristic, from, to);
    q->next_arc[to] = UINT32_MAX;
    q->in_open[to] = 1;
    nav_heap_push(&q->open, nav_heap_key_exact(q->h[to]), nav_heap_tie_larger_g(0), to);
    bool found = false;
    while (q->open.count) {
        uint32_t v = nav_heap_entry_id(nav_heap_pop(&q->open));
        q->in_open[v] = 0;
        if (++r->expanded > 4 * (uint64_t)wp->count + 64 && heuristic) return GAVE_UP;
        if (v == from) {
            found = true;
            break;
        }
        double gv = q->g[v];
        for (uint32_t k = wp->in_first[v], end = wp->in_first[v + 1]; k < end; k++) {
            uint32_t u = wp->in_from[k], i = wp->in_arc[k];
            double gu = gv + wp->arc_cost[i];
            if (q->seen[u] == now && !(gu < q->g[u])) continue;
            if (!nav__wp_arc_open(wp, f, i) || !nav__wp_point_open(wp, f, u)) continue;
            if (q->seen[u] != now) { /* first reached: its bound, once a search (on hub labels a pass) */
                q->seen[u] = now;
                q->g[u] = INFINITY;
                q->in_open[u] = 0;
                q->h[u] = bound(q, heuristic, from, u);
            }
            double h = q->h[u];
            if (!(h < INFINITY)) continue;
            bool queued = q->in_open[u];
            q->g[u] = gu;
            q->next_arc[u] = i;
            q->in_open[u] = 1;
            uint64_t key = nav_heap_key_exact(gu + h);
            if (queued)
                nav_heap_decrease(&q->open, u, key, nav_heap_tie_larger_g(gu));
            else
                nav_heap_push(&q->open, key, nav_heap_tie_larger_g(gu), u);
        }
    }
    if (!found) return NAV_FAILURE | NAV_UNREACHABLE;
    double cost = 0;
    nav_status s = nav_path_push(out, wp->positions[from], from);
    for (uint32_t u = from; u != to && !nav_failed(s);) {
        uint32_t i = q->next_arc[u];
        cost += wp->arc_cost[i];
        u = wp->arc_to[i];
        s = nav_path_push(out, wp->positions[u], u);
    }
    r->cost = cost;
    return s;
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
    } else if (tables_hold && !(nav_waypoints_distance(wp, from, to) < INFINITY)) {
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
        if (s == GAVE_UP) {
            r.heuristic = false;
            s = search(q, filter, false, from, to, out, &r);
        }
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
