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
 * Importance: how many shortest routes run through a waypoint, counted on the route trees of a
 * sample of sources, again after each batch of hubs taken with the routes they serve left out, so
 * that the next hubs cover what the first do not (hub order after the "greedy" orders of
 * hierarchical hub labelling; Abraham, Delling, Goldberg and Werneck 2012). Graphs whose every
 * link costs the same both ways keep one label a waypoint, which serves both ways.
 *
 * Labelling runs on the calling thread, hub after hub (each hub's search reads what the ones
 * before wrote); the sampled trees run on the bake's threads, each tree on its own, so the labels
 * are the same bytes at any thread count. Ties break as in the plain tables' rows: the heap orders
 * equal distances by waypoint index and a distance is replaced only by a strictly smaller one. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "log.h"
#include "nav/heap.h"
#include "waypoints_internal.h"

enum { SAMPLES = 256 }; /* sampled route trees for the order */

/* ---- The order of the hubs -------------------------------------------------------------------- */

/* The sampled trees: per sample, the waypoints in the order Dijkstra settled them and each one's
 * parent in the tree (for the root itself). */
typedef struct trees {
    const nav_waypoints *wp;
    uint32_t samples;
    uint16_t *seq, *parent; /* samples * n each */
    uint32_t *settled;      /* per sample: how many of seq it fills */
} trees;

/* A thread's scratch for a search: distances, and the open list with decrease-key. */
typedef struct search_scratch {
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

static bool tree_init(void *ctx, void **out)
{
    return search_scratch_init(((trees *)ctx)->wp, (search_scratch **)out);
}

static void tree_fini(void *ctx, void *scratch)
{
    search_scratch_free(((trees *)ctx)->wp, scratch);
}

/* Sample k's tree: Dijkstra from the k-th of the samples spread evenly over the waypoints. */
static bool tree_run(void *ctx, void *scratch, uint32_t k)
{
    trees *t = ctx;
    const nav_waypoints *wp = t->wp;
    search_scratch *s = scratch;
    uint32_t n = wp->count, root = (uint32_t)((uint64_t)k * n / t->samples);
    uint16_t *seq = t->seq + (size_t)k * n;
    uint32_t settled = nav__wp_tree(wp, s->dist, &s->open, root, t->parent + (size_t)k * n, seq);
    for (uint32_t i = 0; i < settled; i++) s->dist[seq[i]] = INFINITY;
    t->settled[k] = settled;
    return true;
}

/* Orders waypoint indices by score, most first, then by index (qsort's context through the array:
 * no global state). */
typedef struct scored {
    uint64_t score;
    uint32_t index;
} scored;

static int by_score(const void *a, const void *b)
{
    const scored *x = a, *y = b;
    if (x->score != y->score) return x->score > y->score ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* The hubs in order into by_rank (n entries). Rounds: each waypoint not yet taken scores the
 * routes of the sampled trees that run through it and through no waypoint taken before (the size
 * of its subtree, less the subtrees of taken waypoints in it); the best few are taken (8 a round
 * for the first 64, then a sixteenth of those left), until an eighth of the waypoints are taken;
 * the rest follow by their last scores. */
static nav_status make_order(const nav_waypoints *wp, const nav_waypoints_bake_desc *d, uint16_t *by_rank)
{
    const nav_allocator *a = &wp->allocator;
    uint32_t n = wp->count, samples = n < SAMPLES ? n : SAMPLES;
    trees t = {.wp = wp, .samples = samples};
    t.seq = nav__alloc(a, nav__mul_size((size_t)samples * n, sizeof *t.seq));
    t.parent = nav__alloc(a, nav__mul_size((size_t)samples * n, sizeof *t.parent));
    t.settled = nav__calloc(a, samples, sizeof *t.settled);
    uint64_t *score = nav__calloc(a, n, sizeof *score);
    uint32_t *below = nav__calloc(a, n, sizeof *below);
    uint8_t *taken = nav__calloc(a, n, sizeof *taken);
    scored *left = nav__calloc(a, n, sizeof *left);
    nav_status s = t.seq && t.parent && t.settled && score && below && taken && left
                       ? NAV_SUCCESS
                       : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (!nav_failed(s)) {
        nav__work work = {.count = samples,
                          .init = tree_init,
                          .run = tree_run,
                          .fini = tree_fini,
                          .ctx = &t,
                          .stage = "hub order",
                          .progress = d->progress};
        s = nav__parallel(&work, d->threads);
    }
    for (uint32_t done = 0; done < n && !nav_failed(s);) {
        memset(score, 0, (size_t)n * sizeof *score);
        for (uint32_t k = 0; k < samples; k++) {
            const uint16_t *seq = t.seq + (size_t)k * n, *parent = t.parent + (size_t)k * n;
            for (uint32_t i = 0; i < t.settled[k]; i++) below[seq[i]] = 1;
            for (uint32_t i = t.settled[k]; i-- > 0;) {
                uint32_t u = seq[i];
                if (taken[u]) continue; /* the routes through it are served */
                score[u] += below[u];
                if (i) below[parent[u]] += below[u];
            }
        }
        uint32_t count = 0;
        for (uint32_t v = 0; v < n; v++)
            if (!taken[v]) left[count++] = (scored){score[v], v};
        qsort(left, count, sizeof *left, by_score);
        uint32_t take = done < 64 ? 8 : count / 16 + 1;
        if (done >= n / 8 || take > count) take = count;
        for (uint32_t i = 0; i < take; i++) {
            taken[left[i].index] = 1;
            by_rank[done++] = (uint16_t)left[i].index;
        }
    }
    nav__free(a, t.seq);
    nav__free(a, t.parent);
    nav__free(a, t.settled);
    nav__free(a, score);
    nav__free(a, below);
    nav__free(a, taken);
    nav__free(a, left);
    return s;
}

/* ---- Pruned labelling -------------------------------------------------------------------------- */

/* A label entry while labelling (distances in doubles, so that pruning never trusts a rounding). */
typedef struct entry {
    double dist;
    uint16_t hub, hop;
    uint32_t up; /* where the hop's entry for the hub is in its label */
} entry;

typedef struct growing {
    entry *e;
    uint32_t count, capacity;
} growing;

typedef struct labelling {
    const nav_waypoints *wp;
    const uint16_t *by_rank, *rank_of;
    growing *label[2]; /* OUT, IN: the same array when the graph is symmetric */
    double *hub_dist;  /* per hub: the distance from (to) the hub's search root, INFINITY elsewhere */
    uint16_t *before;  /* per waypoint: where the current search reached it from */
    uint32_t *touched; /* the waypoints the current search reached */
    search_scratch *s;
} labelling;

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
    search_scratch *s = b->s;
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
        if (u != root) {
            double served = INFINITY;
            for (uint32_t k = 0; k < lu->count; k++)
                served = nav__wp_min(served, b->hub_dist[lu->e[k].hub] + lu->e[k].dist);
            if (served <= du) continue;
        }
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
    uint16_t *rank_of = nav__calloc(a, n ? n : 1, sizeof *rank_of);
    labelling b = {.wp = wp, .by_rank = wp->hub_node, .rank_of = rank_of};
    b.label[OUT] = nav__calloc(a, n ? n : 1, sizeof *b.label[OUT]);
    b.label[IN] = wp->symmetric ? b.label[OUT] : nav__calloc(a, n ? n : 1, sizeof *b.label[IN]);
    b.hub_dist = nav__alloc(a, (n ? n : 1) * sizeof *b.hub_dist);
    b.before = nav__calloc(a, n ? n : 1, sizeof *b.before);
    b.touched = nav__calloc(a, n ? n : 1, sizeof *b.touched);
    nav_status s = wp->hub_node && rank_of && b.label[OUT] && b.label[IN] && b.hub_dist && b.before &&
                           b.touched && search_scratch_init(wp, &b.s)
                       ? NAV_SUCCESS
                       : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (!nav_failed(s)) s = make_order(wp, d, wp->hub_node);
    if (!nav_failed(s)) {
        for (uint32_t i = 0; i < n; i++) rank_of[wp->hub_node[i]] = (uint16_t)i, b.hub_dist[i] = INFINITY;
    }
    for (uint32_t i = 0; i < n && !nav_failed(s); i++) {
        if (!label_hub(&b, i, IN) || (!wp->symmetric && !label_hub(&b, i, OUT)))
            s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
        const nav_progress *p = d->progress;
        if (!nav_failed(s) && p && p->fn && ((i + 1) % 256 == 0 || i + 1 == n) &&
            !p->fn("labels", i + 1, n, p->user))
            s = NAV_FAILURE | NAV_WRONG_STATE;
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
    nav__free(a, rank_of);
    search_scratch_free(wp, b.s);
    return s;
}
