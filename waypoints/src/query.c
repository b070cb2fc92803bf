/* Reading a waypoint bake: the waypoints, their names, and the routes the tables hold. */
#include <math.h>
#include <string.h>

#include "waypoints_internal.h"

uint32_t nav_waypoints_count(const nav_waypoints *wp)
{
    return wp ? wp->count : 0;
}

bool nav_waypoints_compressed(const nav_waypoints *wp)
{
    return wp && wp->compressed;
}

nav_vec3 nav_waypoints_position(const nav_waypoints *wp, uint32_t i)
{
    return wp && i < wp->count ? wp->positions[i] : (nav_vec3){0, 0, 0};
}

uint32_t nav_waypoints_tags(const nav_waypoints *wp, uint32_t i)
{
    return wp && i < wp->count ? wp->tags[i] : 0;
}

const char *nav_waypoints_name(const nav_waypoints *wp, uint32_t i)
{
    return wp && i < wp->count ? wp->names + wp->name_at[i] : "";
}

uint32_t nav_waypoints_find(const nav_waypoints *wp, const char *name)
{
    if (!wp || !name) return NAV_WAYPOINTS_NONE;
    uint32_t lo = 0, hi = wp->named_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2, w = wp->by_name[mid];
        int c = strcmp(wp->names + wp->name_at[w], name);
        if (c == 0) return w;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NAV_WAYPOINTS_NONE;
}

uint32_t nav_waypoints_link_count(const nav_waypoints *wp)
{
    return wp ? wp->link_count : 0;
}

bool nav_waypoints_from_grid(const nav_waypoints *wp)
{
    return wp && wp->from_grid;
}

uint64_t nav_waypoints_source_fingerprint(const nav_waypoints *wp)
{
    return wp && wp->from_grid ? wp->fingerprint : 0;
}

/* The waypoint arc i leaves from: the last u with arc_first[u] <= i (arcs are grouped by it). */
static uint32_t arc_from(const nav_waypoints *wp, uint32_t i)
{
    uint32_t lo = 0, hi = wp->count; /* arc_first[lo] <= i < arc_first[hi] */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (wp->arc_first[mid] <= i)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

bool nav_waypoints_link(const nav_waypoints *wp, uint32_t link, nav_waypoint_link *out)
{
    if (!wp || !out || link >= wp->link_count) return false;
    uint32_t i = wp->link_arc[2 * (size_t)link];
    *out = (nav_waypoint_link){.from = arc_from(wp, i),
                               .to = wp->arc_to[i],
                               .cost = wp->arc_cost[i],
                               .flags = wp->arc_flags[i],
                               .one_way = wp->link_arc[2 * (size_t)link + 1] == UINT32_MAX,
                               .disabled = wp->arc_disabled[i]};
    return true;
}

size_t nav_waypoints_memory_bytes(const nav_waypoints *wp)
{
    if (!wp) return 0;
    size_t n = wp->count, arcs = wp->arc_count;
    return sizeof *wp +
           n * (sizeof *wp->positions + sizeof *wp->tags + sizeof *wp->name_at + sizeof *wp->by_name) +
           wp->names_bytes + (n + 1) * sizeof *wp->arc_first +
           (size_t)wp->link_count * 2 * sizeof *wp->link_arc +
           arcs *
               (sizeof *wp->arc_to + sizeof *wp->arc_cost + sizeof *wp->arc_flags + sizeof *wp->arc_disabled +
                sizeof *wp->arc_link + sizeof *wp->in_arc + sizeof *wp->in_from) +
           (n + 2) * sizeof *wp->in_first +
           (wp->compressed ? nav__wp_labels_bytes(wp) : n * n * (sizeof *wp->dist + sizeof *wp->hop)) +
           n * (sizeof *wp->kd_point + sizeof *wp->kd_axis) +
           (wp->corners.row_first /* a bake of a grid, with its grid */
                ? ((size_t)wp->corners.height + 2) * sizeof *wp->corners.row_first +
                      n * (sizeof *wp->corners.x + sizeof *wp->corners.y + sizeof *wp->corners.quad) +
                      (size_t)wp->corners.row_words * wp->corners.height * sizeof *wp->corners.bits +
                      nav__wp_sight_bytes(&wp->sight)
                : 0);
}

double nav_waypoints_distance(const nav_waypoints *wp, uint32_t from, uint32_t to)
{
    if (!wp || from >= wp->count || to >= wp->count) return INFINITY;
    if (!wp->compressed) return wp->dist[(size_t)from * wp->count + to];
    return nav__wp_label_meet(wp, from, to, NULL, NULL);
}

uint32_t nav_waypoints_next_hop(const nav_waypoints *wp, uint32_t from, uint32_t to)
{
    if (!wp || from >= wp->count || to >= wp->count) return NAV_WAYPOINTS_NONE;
    if (wp->compressed) return from == to ? from : nav__wp_label_hop(wp, from, to);
    uint16_t h = wp->hop[(size_t)from * wp->count + to];
    return h == NAV__NO_HOP ? NAV_WAYPOINTS_NONE : h;
}

/* The cheapest arc from u to v that is not disabled (the arcs from u are sorted by target, then
 * cost: a binary search for the first to v), or UINT32_MAX. */
uint32_t nav__wp_cheapest_arc(const nav_waypoints *wp, uint32_t u, uint32_t v)
{
    uint32_t first = wp->arc_first[u], end = wp->arc_first[u + 1], base = first, n = end - first;
    if (n == 0) return UINT32_MAX;
    /* the first arc to v or beyond is in base .. base + n; halved without a branch (a select) */
    for (; n > 1; n -= n / 2) base = wp->arc_to[base + n / 2] < v ? base + n / 2 : base;
    uint32_t lo = base + (wp->arc_to[base] < v);
    for (; lo < end && wp->arc_to[lo] == v; lo++)
        if (!wp->arc_disabled[lo]) return lo;
    return UINT32_MAX;
}

/* One step of a walk from `at` to `next`: its cheapest arc open under the filter, appended. */
static nav_status step(const nav_waypoints *wp, const nav_waypoints_filter *f, uint32_t at, uint32_t next,
                       double *cost)
{
    uint32_t arc = next == NAV_WAYPOINTS_NONE ? UINT32_MAX : nav__wp_cheapest_arc(wp, at, next);
    if (arc == UINT32_MAX) return NAV_FAILURE | NAV_CORRUPT_DATA; /* never on a bake of this library */
    if (!nav__wp_arc_open(wp, f, arc) || !nav__wp_point_open(wp, f, next))
        return NAV_FAILURE | NAV_UNREACHABLE;
    *cost += wp->arc_cost[arc];
    return NAV_SUCCESS;
}

/* nav__wp_walk on hub labels: through the hub the two labels meet at, first moves up to it from
 * `from`, then the waypoints before `to` back to it (appended backwards, then turned round). */
static nav_status walk_labels(const nav_waypoints *wp, const nav_waypoints_filter *f, uint32_t from,
                              uint32_t to, nav_path *out, double *cost)
{
    uint32_t k, j;
    if (!(nav__wp_label_meet(wp, from, to, &k, &j) < INFINITY)) return NAV_FAILURE | NAV_CORRUPT_DATA;
    uint32_t hub = wp->label_hub[0][k], at = from, steps = 0;
    nav_status s = nav_path_push(out, wp->positions[from], from);
    /* walks end: a forged chunk's hops could go round in circles */
    for (; !nav_failed(s) && wp->hub_node[hub] != at; steps++, k = wp->label_up[0][k]) {
        if (steps >= wp->count) return NAV_FAILURE | NAV_CORRUPT_DATA;
        uint32_t next = wp->label_hop[0][k];
        s = step(wp, f, at, next, cost);
        if (!nav_failed(s)) s = nav_path_push(out, wp->positions[next], next);
        at = next;
    }
    uint32_t turn = out->count; /* from here, to first */
    for (uint32_t v = to; !nav_failed(s) && v != at; steps++, j = wp->label_up[1][j]) {
        if (steps >= wp->count) return NAV_FAILURE | NAV_CORRUPT_DATA;
        s = nav_path_push(out, wp->positions[v], v);
        v = wp->label_hop[1][j];
    }
    if (!nav_failed(s)) nav_path_reverse_from(out, turn);
    for (uint32_t i = turn; !nav_failed(s) && i < out->count; i++) {
        s = step(wp, f, at, out->nodes[i], cost);
        at = out->nodes[i];
    }
    return s;
}

nav_status nav__wp_walk(const nav_waypoints *wp, const nav_waypoints_filter *f, uint32_t from, uint32_t to,
                        nav_path *out, double *cost)
{
    if (wp->compressed) return walk_labels(wp, f, from, to, out, cost);
    uint32_t at = from;
    nav_status s = nav_path_push(out, wp->positions[from], from);
    /* every step goes to a waypoint strictly nearer `to` (costs are above 0): at most count - 1 */
    for (uint32_t steps = 0; !nav_failed(s) && at != to; steps++) {
        uint32_t next = nav_waypoints_next_hop(wp, at, to);
        if (steps >= wp->count) return NAV_FAILURE | NAV_CORRUPT_DATA; /* never */
        s = step(wp, f, at, next, cost);
        at = next;
        if (!nav_failed(s)) s = nav_path_push(out, wp->positions[at], at);
    }
    return s;
}

nav_status nav_waypoints_route(const nav_waypoints *wp, uint32_t from, uint32_t to, nav_path *out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_path_clear(out);
    out->cost = 0;
    if (!wp || from >= wp->count || to >= wp->count) return NAV_FAILURE | NAV_INVALID_PARAM;
    /* (a distance is one read or one merge; a first move on hub labels may be a walk) */
    if (!(nav_waypoints_distance(wp, from, to) < INFINITY)) return NAV_FAILURE | NAV_UNREACHABLE;
    double cost = 0;
    nav_status s = nav__wp_walk(wp, NULL, from, to, out, &cost);
    if (nav_failed(s)) {
        nav_path_clear(out);
        return s;
    }
    out->cost = cost;
    return NAV_SUCCESS;
}
