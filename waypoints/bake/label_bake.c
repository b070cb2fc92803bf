/* Hub labels: the all-pairs routes of graphs above dense_max, kept as a 2-hop cover (Cohen,
 * Halperin, Kaplan and Zwick 2003) instead of n^2 tables.
 *
 * Every waypoint v keeps an out-label, hubs h with the distance from v to h and v's first move
 * towards h, and an in-label, hubs h with the distance from h to v and the waypoint before v on
 * that route; the labels are made so that for every pair (u, v) with a route, some hub on one of
 * its shortest routes is in both u's out-label and v's in-label. The distance from u to v is then
 * the least sum over the hubs the two labels share (one merge of two short sorted lists), and the
 * route is walked through that hub: first moves from u up to the hub, then back from v to the hub
 * by the waypoints before (every waypoint on the way keeps the hub: it lies on the hub's shortest
 * route tree, which is how the hub got into the labels). Each entry also knows where the next
 * waypoint's entry for its hub is (label_up: made here and by the chunk reader, not stored), so a
 * walk follows indices and searches no label.
 *
 * Built by pruned landmark labelling (Akiba, Iwata and Yoshida 2013): hubs are taken one by one
 * in order of importance, and each runs Dijkstra's algorithm forwards (in-labels) and backwards
 * (out-labels), giving up at a waypoint the labels made so far already serve at that distance.
 * Importance (hub_order.c): how many shortest routes of sampled route trees run through a
 * waypoint that no hub taken before serves. The order is made in rounds, and each round's hubs are
 * labelled before the next round draws its trees, which are the searches their roots would make
 * here as the next hub. Graphs whose every link costs the same both ways keep one label a
 * waypoint, which serves both ways.
 *
 * Labelling runs on the calling thread, hub after hub (each hub's search reads what the ones
 * before wrote); the order's trees run on the bake's threads, each tree on its own, so the labels
 * are the same bytes at any thread count. Ties break as in the plain tables' rows: the heap orders
 * equal distances by waypoint index and a distance is replaced only by a strictly smaller one. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "log.h"
#include "nav/heap.h"
#include "label_bake.h"

/* ---- Pruned labelling -------------------------------------------------------------------------- */

/* A search's scratch: distances, and the open list with decrease-key. */
typedef struct nav__wp_search {
    double *dist;
    nav_heap open;
} search_scratch;

static bool search_scratch_init(const nav_waypoints *wp, search_scratch **out)
{
    const nav_allocator *a = &wp->allocator;
    uint32_t n = wp->count;
    search_scratch *s = nav__calloc(a, 1, sizeof *s);
    *out = s;
    if (!s) return false;
    s->dist = nav__alloc(a, (size_t)n * sizeof *s->dist);
    if (!s->dist || nav_failed(nav_heap_init(&s->open, a, n, n))) return false;
    for (uint32_t v = 0; v < n; v++) s->dist[v] = INFINITY;
    return true;
}

static void search_scratch_free(const nav_waypoints *wp, search_scratch *s)
{
    if (!s) return;
    nav__free(&wp->allocator, s->dist);
    nav_heap_destroy(&s->open);
    nav__free(&wp->allocator, s);
}

typedef nav__wp_entry entry;
typedef nav__wp_growing growing;
typedef nav__wp_labelling labelling;

enum { OUT = NAV__WP_OUT, IN = NAV__WP_IN };

static bool append(const nav_allocator *a, growing *g, entry e)
{
    if (g->count == g->capacity) {
        uint32_t grown = g->capacity ? 2 * g->capacity : 8;
        entry *p = nav__realloc(a, g->e, (size_t)g->capacity * sizeof *p, (size_t)grown * sizeof *p);
        if (!p) return false;
        g->e = p;
        g->capacity = grown;
    }
    g->e[g->count++] = e;
    return true;
}

/* Hub `rank`'s search: forwards over the arcs (filling in-labels) or backwards (out-labels),
 * only through waypoints of later rank (a route through an earlier hub is that hub's to serve),
 * giving up at each waypoint whose labels already serve the root at the distance reached. */
static bool label_hub(labelling *b, uint32_t rank, int fill)
{
    const nav_waypoints *wp = b->wp;
    const nav_allocator *a = &wp->allocator;
    uint32_t root = b->by_rank[rank], reached = 0;
    const growing *own = &b->label[fill == IN ? OUT : IN][root];
    for (uint32_t k = 0; k < own->count; k++) b->hub_dist[own->e[k].hub] = own->e[k].dist;
    b->hub_dist[rank] = 0;
    search_scratch *s = b->search;
    nav_heap_clear(&s->open);
    s->dist[root] = 0;
    b->before[root] = (uint16_t)root;
    b->touched[reached++] = root;
    nav_heap_push(&s->open, nav_heap_key_exact(0), 0, root);
    bool ok = true;
    while (ok && s->open.count) {
        uint32_t u = nav_heap_entry_id(nav_heap_pop(&s->open));
        double du = s->dist[u];
        growing *lu = &b->label[fill][u];
        if (u != root && nav__wp_served(lu, b->hub_dist, du)) continue;
        /* the waypoint it was reached from took this hub last (it was searched on from) */
        uint32_t up = u == root ? lu->count : b->label[fill][b->before[u]].count - 1;
        ok = append(a, lu, (entry){du, (uint16_t)rank, b->before[u], up});
        uint32_t first = fill == IN ? wp->arc_first[u] : wp->in_first[u],
                 end = fill == IN ? wp->arc_first[u + 1] : wp->in_first[u + 1];
        for (uint32_t k = first; k < end; k++) {
            uint32_t arc = fill == IN ? k : wp->in_arc[k], v = fill == IN ? wp->arc_to[k] : wp->in_from[k];
            if (wp->arc_disabled[arc] || b->rank_of[v] < rank) continue;
            double dv = du + wp->arc_cost[arc];
            if (!(dv < s->dist[v])) continue;
            bool queued = s->dist[v] < INFINITY;
            if (!queued) b->touched[reached++] = v;
            s->dist[v] = dv;
            b->before[v] = (uint16_t)u;
            if (queued)
                nav_heap_decrease(&s->open, v, nav_heap_key_exact(dv), 0);
            else
                nav_heap_push(&s->open, nav_heap_key_exact(dv), 0, v);
        }
    }
    for (uint32_t k = 0; k < reached; k++) s->dist[b->touched[k]] = INFINITY;
    for (uint32_t k = 0; k < own->count; k++) b->hub_dist[own->e[k].hub] = INFINITY;
    b->hub_dist[rank] = INFINITY;
    return ok;
}

nav_status nav__wp_label_ranked(labelling *b)
{
    const nav_progress *p = b->progress;
    uint32_t n = b->wp->count;
    for (; b->labelled < b->ranked; b->labelled++) {
        uint32_t i = b->labelled;
        if (!label_hub(b, i, IN) || (!b->wp->symmetric && !label_hub(b, i, OUT)))
            return NAV_FAILURE | NAV_OUT_OF_MEMORY;
        if (p && p->fn && ((i + 1) % 256 == 0 || i + 1 == n) && !p->fn("labels", i + 1, n, p->user))
            return NAV_FAILURE | NAV_WRONG_STATE;
    }
    return NAV_SUCCESS;
}

/* The labels of one direction as flat arrays. */
static nav_status flatten(nav_waypoints *wp, const growing *label, int side)
{
    const nav_allocator *a = &wp->allocator;
    uint32_t n = wp->count;
    size_t total = 0;
    for (uint32_t v = 0; v < n; v++) total += label[v].count;
    if (total > UINT32_MAX) return NAV_FAILURE | NAV_TOO_LARGE;
    uint32_t *first = wp->label_first[side] = nav__calloc(a, (size_t)n + 1, sizeof *first);
    wp->label_hub[side] = nav__alloc(a, (total ? total : 1) * sizeof *wp->label_hub[side]);
    wp->label_hop[side] = nav__alloc(a, (total ? total : 1) * sizeof *wp->label_hop[side]);
    wp->label_dist[side] = nav__alloc(a, (total ? total : 1) * sizeof *wp->label_dist[side]);
    wp->label_up[side] = nav__alloc(a, (total ? total : 1) * sizeof *wp->label_up[side]);
    if (!first || !wp->label_hub[side] || !wp->label_hop[side] || !wp->label_dist[side] ||
        !wp->label_up[side])
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (uint32_t v = 0; v < n; v++) first[v + 1] = first[v] + label[v].count;
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t k = 0, at = first[v]; k < label[v].count; k++, at++) {
            const entry *e = &label[v].e[k];
            wp->label_hub[side][at] = e->hub;
            wp->label_hop[side][at] = e->hop;
            wp->label_dist[side][at] = (float)e->dist;
            wp->label_up[side][at] = first[e->hop] + e->up;
        }
    return NAV_SUCCESS;
}

nav_status nav__wp_labels_bake(nav_waypoints *wp, const nav_waypoints_bake_desc *d)
{
    const nav_allocator *a = &wp->allocator;
    uint32_t n = wp->count;
    wp->hub_node = nav__calloc(a, n ? n : 1, sizeof *wp->hub_node);
    labelling b = {.wp = wp, .by_rank = wp->hub_node, .progress = d->progress};
    b.rank_of = nav__alloc(a, (n ? n : 1) * sizeof *b.rank_of);
    b.label[OUT] = nav__calloc(a, n ? n : 1, sizeof *b.label[OUT]);
    b.label[IN] = wp->symmetric ? b.label[OUT] : nav__calloc(a, n ? n : 1, sizeof *b.label[IN]);
    b.hub_dist = nav__alloc(a, (n ? n : 1) * sizeof *b.hub_dist);
    b.before = nav__calloc(a, n ? n : 1, sizeof *b.before);
    b.touched = nav__calloc(a, n ? n : 1, sizeof *b.touched);
    nav_status s = wp->hub_node && b.rank_of && b.label[OUT] && b.label[IN] && b.hub_dist && b.before &&
                           b.touched && search_scratch_init(wp, &b.search)
                       ? NAV_SUCCESS
                       : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (!nav_failed(s)) {
        for (uint32_t i = 0; i < n; i++) b.rank_of[i] = NAV__WP_UNRANKED, b.hub_dist[i] = INFINITY;
        s = nav__wp_hub_order(&b, d); /* labels as it goes */
    }
    if (!nav_failed(s)) s = flatten(wp, b.label[OUT], OUT);
    if (!nav_failed(s) && !wp->symmetric) s = flatten(wp, b.label[IN], IN);
    if (!nav_failed(s) && wp->symmetric) {
        wp->label_first[IN] = wp->label_first[OUT];
        wp->label_hub[IN] = wp->label_hub[OUT];
        wp->label_hop[IN] = wp->label_hop[OUT];
        wp->label_up[IN] = wp->label_up[OUT];
        wp->label_dist[IN] = wp->label_dist[OUT];
    }
    for (int side = 0; side < (wp->symmetric ? 1 : 2); side++)
        for (uint32_t v = 0; b.label[side] && v < n; v++) nav__free(a, b.label[side][v].e);
    nav__free(a, b.label[OUT]);
    if (!wp->symmetric) nav__free(a, b.label[IN]);
    nav__free(a, b.hub_dist);
    nav__free(a, b.before);
    nav__free(a, b.touched);
    nav__free(a, b.rank_of);
    search_scratch_free(wp, b.search);
    return s;
}
