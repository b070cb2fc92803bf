/* Hub labels at run time: a route's distance as the least sum over the hubs two labels share, its
 * first move, and the labels' end. How the labels are made and what they promise:
 * waypoints/bake/label_bake.c. */
#include <math.h>

#include "alloc.h"
#include "waypoints_internal.h"

enum { OUT = NAV__WP_OUT, IN = NAV__WP_IN };

bool nav__wp_symmetric(const nav_waypoints *wp)
{
    for (uint32_t u = 0; u < wp->count; u++)
        for (uint32_t i = wp->arc_first[u], end = wp->arc_first[u + 1]; i < end; i++) {
            if (wp->arc_disabled[i] || nav__wp_cheapest_arc(wp, u, wp->arc_to[i]) != i) continue;
            uint32_t back = nav__wp_cheapest_arc(wp, wp->arc_to[i], u);
            if (back == UINT32_MAX || wp->arc_cost[back] != wp->arc_cost[i]) return false;
        }
    return true;
}

void nav__wp_labels_free(nav_waypoints *wp)
{
    const nav_allocator *a = &wp->allocator;
    for (int side = 0; side < 2; side++) {
        if (side == IN && wp->label_first[IN] == wp->label_first[OUT]) break;
        nav__free(a, wp->label_first[side]);
        nav__free(a, wp->label_hub[side]);
        nav__free(a, wp->label_hop[side]);
        nav__free(a, wp->label_up[side]);
        nav__free(a, wp->label_dist[side]);
    }
    nav__free(a, wp->hub_node);
}

double nav__wp_label_meet(const nav_waypoints *wp, uint32_t from, uint32_t to, uint32_t *at_from,
                          uint32_t *at_to)
{
    uint32_t i = wp->label_first[OUT][from], i_end = wp->label_first[OUT][from + 1];
    uint32_t j = wp->label_first[IN][to], j_end = wp->label_first[IN][to + 1];
    const uint16_t *hub_out = wp->label_hub[OUT], *hub_in = wp->label_hub[IN];
    double best = INFINITY;
    uint32_t best_i = UINT32_MAX, best_j = UINT32_MAX;
    while (i < i_end && j < j_end) {
        uint16_t x = hub_out[i], y = hub_in[j];
        if (x == y) {
            double t = (double)wp->label_dist[OUT][i] + (double)wp->label_dist[IN][j];
            if (t < best) best = t, best_i = i, best_j = j;
            i++, j++;
        } else if (x < y) {
            i++;
        } else {
            j++;
        }
    }
    if (at_from) *at_from = best_i;
    if (at_to) *at_to = best_j;
    return best;
}

uint32_t nav__wp_label_find(const nav_waypoints *wp, int side, uint32_t v, uint32_t hub)
{
    uint32_t lo = wp->label_first[side][v], hi = wp->label_first[side][v + 1];
    const uint16_t *h = wp->label_hub[side];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (h[mid] < hub)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < wp->label_first[side][v + 1] && h[lo] == hub ? lo : UINT32_MAX;
}

uint32_t nav__wp_label_hop(const nav_waypoints *wp, uint32_t from, uint32_t to)
{
    uint32_t i, j;
    if (!(nav__wp_label_meet(wp, from, to, &i, &j) < INFINITY)) return NAV_WAYPOINTS_NONE;
    uint32_t hub = wp->label_hub[OUT][i];
    if (wp->hub_node[hub] != from) return wp->label_hop[OUT][i];
    /* from is the hub: back from `to` along the hub's tree to the waypoint after it */
    for (uint32_t at = to, k = j, steps = 0; steps < wp->count; steps++) {
        uint32_t before = wp->label_hop[IN][k];
        if (before == from) return at;
        at = before;
        k = wp->label_up[IN][k];
    }
    return NAV_WAYPOINTS_NONE; /* a forged chunk's labels: never a bake's */
}

size_t nav__wp_labels_bytes(const nav_waypoints *wp)
{
    size_t n = wp->count, bytes = n * sizeof *wp->hub_node;
    for (int side = 0; side < (wp->symmetric ? 1 : 2); side++)
        bytes +=
            (n + 1) * sizeof *wp->label_first[side] +
            (size_t)wp->label_first[side][n] * (sizeof *wp->label_hub[side] + sizeof *wp->label_hop[side] +
                                                sizeof *wp->label_dist[side] + sizeof *wp->label_up[side]);
    return bytes;
}
