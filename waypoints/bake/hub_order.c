/* The order in which hub labelling takes its hubs (label_bake.c): the labels are as small as the
 * order is good.
 *
 * Greedy by sampled routes (the "greedy" orders of hierarchical hub labelling; Abraham, Delling,
 * Goldberg and Werneck 2012), in rounds. A round draws route trees from a sample of roots, scores
 * each waypoint by the sampled routes that run through it and that no hub taken so far serves
 * (the waypoints below it in a tree that no taken waypoint cuts off from the root), and takes the
 * best, one at a time, each taking its routes out of the scores of the waypoints above and below
 * it in every tree it lies on. The round's hubs are then labelled, and the next round's trees are
 * the searches their roots would make as hubs now, pruned where the labels already serve them
 * (pruned landmark labelling's own searches): they hold exactly the routes no hub serves yet, so
 * they shrink as hubs are taken, and the next round draws more of them (DENSITY trees a waypoint,
 * on average, up to every waypoint a root).
 *
 * A sample tells hubs apart only while many of its routes are left: once a waypoint lies on fewer
 * than CONFIDENT of the round's trees, the round leaves it to the next, which draws again inside
 * each part that the hubs taken cut the graph into (links either way). Drawing again is what keeps
 * labels small on paths and lattices. On a chain of n waypoints, 256 roots stop telling middles
 * apart once a stretch holds only a few of them (n / 256 waypoints a root), and an order by one
 * sample alone then takes the rest of each stretch in a row, each hub serving the whole stretch on
 * its side: labels grew as the chain did (16,384 waypoints: 1,062 entries a label; 65,535 did not
 * bake in minutes). Drawn again, each round cuts every stretch at its middle, the order of nested
 * dissection (George 1973), and labels hold about log2 n entries (65,535 waypoints: 15).
 *
 * Trees run on the bake's threads, each into slots of its own (at most SAMPLES times n slots a
 * round); scores, choices and labels on the calling thread, ties to the lower index: the same
 * order and labels at any thread count. */
#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "alloc.h"
#include "label_bake.h"
#include "nav/heap.h"

enum {
    SAMPLES = 256,  /* roots of a part in the first round, and the most slots a round keeps: SAMPLES
                     * times the waypoints */
    DENSITY = 64,   /* later rounds: the trees a waypoint lies on at the start, on average */
    CONFIDENT = 16, /* the trees a waypoint's score must come from for the round to take it */
};

enum { OUT = NAV__WP_OUT, IN = NAV__WP_IN };

/* A round's trees. Tree j fills slots at[j] .. at[j] + reached[j] of each slot array in
 * depth-first preorder from its root (slot 0): each waypoint it keeps, the size of its subtree, its
 * parent's slot, and how many waypoints of its subtree no hub taken this round cuts off from the
 * root (0: it is cut off itself). A tree takes its slots where the round's next free ones are when
 * its search ends (so where it lies depends on the threads, what it holds does not); one that
 * finds no room leaves at[j] NO_ROOM, and the round lays its trees out again at places given. */
typedef struct round_trees {
    const nav__wp_labelling *b;
    const uint32_t *root;    /* per tree */
    size_t *at;              /* per tree */
    uint32_t *reached;       /* per tree: the waypoints it keeps */
    bool placed;             /* at is given (the second layout) */
    atomic_size_t next_free; /* else the first slot no tree has taken */
    size_t slots;            /* of each array */
    uint16_t *vert, *size, *up, *below;
} round_trees;

#define NO_ROOM SIZE_MAX

/* A thread's scratch for one tree: its search (by waypoint: dist, parent, settled_at; by rank:
 * hub_dist, the root's label), then children lists and a stack, indexed by the order of settling
 * (seq). */
typedef struct tree_scratch {
    double *dist, *hub_dist;
    nav_heap open;
    uint32_t *seq, *parent, *settled_at, *touched;
    uint32_t *child_first, *child, *stack, *pre;
} tree_scratch;

static void tree_scratch_free(void *ctx, void *scratch)
{
    const nav_allocator *a = &((round_trees *)ctx)->b->wp->allocator;
    tree_scratch *s = scratch;
    if (!s) return;
    void *arrays[] = {s->dist,    s->hub_dist,    s->seq,   s->parent, s->settled_at,
                      s->touched, s->child_first, s->child, s->stack,  s->pre};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) nav__free(a, arrays[i]);
    nav_heap_destroy(&s->open);
    nav__free(a, s);
}

static bool tree_scratch_init(void *ctx, void **out)
{
    const nav_waypoints *wp = ((round_trees *)ctx)->b->wp;
    const nav_allocator *a = &wp->allocator;
    size_t n = wp->count;
    tree_scratch *s = nav__calloc(a, 1, sizeof *s);
    *out = s;
    if (!s) return false;
    s->dist = nav__alloc(a, n * sizeof *s->dist);
    s->hub_dist = nav__alloc(a, n * sizeof *s->hub_dist);
    s->seq = nav__alloc(a, n * sizeof *s->seq);
    s->parent = nav__alloc(a, n * sizeof *s->parent);
    s->settled_at = nav__alloc(a, n * sizeof *s->settled_at);
    s->touched = nav__alloc(a, n * sizeof *s->touched);
    s->child_first = nav__alloc(a, (n + 1) * sizeof *s->child_first);
    s->child = nav__alloc(a, n * sizeof *s->child);
    s->stack = nav__alloc(a, n * sizeof *s->stack);
    s->pre = nav__alloc(a, n * sizeof *s->pre);
    if (!s->dist || !s->hub_dist || !s->seq || !s->parent || !s->settled_at || !s->touched ||
        !s->child_first || !s->child || !s->stack || !s->pre ||
        nav_failed(nav_heap_init(&s->open, a, (uint32_t)n, (uint32_t)n)))
        return false;
    for (size_t v = 0; v < n; v++) s->dist[v] = INFINITY, s->hub_dist[v] = INFINITY;
    return true;
}

/* Tree j: the search its root would make as the next hub (label_bake.c's, forwards): Dijkstra's
 * algorithm through the waypoints not taken (ties: the lower index settles first, and a distance
 * is replaced only by a strictly smaller one), keeping each waypoint the labels do not already
 * serve at the distance reached and searching on from it. Then laid out in preorder, each
 * waypoint's children in the order they settled. */
static bool tree_run(void *ctx, void *scratch, uint32_t j)
{
    round_trees *t = ctx;
    const nav__wp_labelling *b = t->b;
    const nav_waypoints *wp = b->wp;
    tree_scratch *s = scratch;
    uint32_t root = t->root[j], reached = 0, touched = 0;
    const nav__wp_growing *own = &b->label[OUT][root];
    for (uint32_t k = 0; k < own->count; k++) s->hub_dist[own->e[k].hub] = own->e[k].dist;
    nav_heap_clear(&s->open);
    s->dist[root] = 0;
    s->parent[root] = root;
    s->touched[touched++] = root;
    nav_heap_push(&s->open, nav_heap_key_exact(0), 0, root);
    while (s->open.count) {
        uint32_t u = nav_heap_entry_id(nav_heap_pop(&s->open));
        double du = s->dist[u];
        if (u != root && nav__wp_served(&b->label[IN][u], s->hub_dist, du)) continue;
        s->settled_at[u] = reached;
        s->seq[reached++] = u;
        for (uint32_t i = wp->arc_first[u], end = wp->arc_first[u + 1]; i < end; i++) {
            uint32_t v = wp->arc_to[i];
            if (wp->arc_disabled[i] || b->rank_of[v] != NAV__WP_UNRANKED) continue;
            double dv = du + wp->arc_cost[i];
            if (!(dv < s->dist[v])) continue;
            bool queued = s->dist[v] < INFINITY;
            if (!queued) s->touched[touched++] = v;
            s->dist[v] = dv;
            s->parent[v] = u;
            if (queued)
                nav_heap_decrease(&s->open, v, nav_heap_key_exact(dv), 0);
            else
                nav_heap_push(&s->open, nav_heap_key_exact(dv), 0, v);
        }
    }
    for (uint32_t i = 0; i < touched; i++) s->dist[s->touched[i]] = INFINITY;
    for (uint32_t k = 0; k < own->count; k++) s->hub_dist[own->e[k].hub] = INFINITY;
    t->reached[j] = reached;
    if (!t->placed) {
        size_t at = atomic_fetch_add_explicit(&t->next_free, reached, memory_order_relaxed);
        t->at[j] = at <= t->slots && reached <= t->slots - at ? at : NO_ROOM;
        if (t->at[j] == NO_ROOM) return true;
    }
    /* children lists by settling order: child[child_first[i] .. child_first[i + 1]] */
    memset(s->child_first, 0, ((size_t)reached + 1) * sizeof *s->child_first);
    for (uint32_t i = 1; i < reached; i++) s->child_first[s->settled_at[s->parent[s->seq[i]]] + 1]++;
    for (uint32_t i = 0; i < reached; i++) s->child_first[i + 1] += s->child_first[i];
    for (uint32_t i = 0; i < reached; i++) s->pre[i] = s->child_first[i]; /* fill cursors */
    for (uint32_t i = 1; i < reached; i++) s->child[s->pre[s->settled_at[s->parent[s->seq[i]]]]++] = i;

    size_t base = t->at[j];
    uint16_t *vert = t->vert + base, *size = t->size + base, *up = t->up + base;
    uint32_t top = 0, next = 0;
    s->stack[top++] = 0;
    while (top) {
        uint32_t x = s->stack[--top], at = next++, v = s->seq[x];
        s->pre[x] = at;
        vert[at] = (uint16_t)v;
        size[at] = 1;
        up[at] = (uint16_t)(x ? s->pre[s->settled_at[s->parent[v]]] : 0);
        for (uint32_t k = s->child_first[x + 1]; k-- > s->child_first[x];) s->stack[top++] = s->child[k];
    }
    for (uint32_t at = reached; at-- > 1;) size[up[at]] = (uint16_t)(size[up[at]] + size[at]);
    memcpy(t->below + base, size, (size_t)reached * sizeof *size);
    return true;
}

/* The state of the order: a round's parts, trees and scores. */
typedef struct ordering {
    nav__wp_labelling *b;
    uint32_t *part_of, *list; /* per waypoint (find_parts) */
    uint32_t *first, *fill;   /* per part, and one more (find_parts) */
    uint32_t *tree_first;     /* per part, and one more: its trees are tree_first[c] .. [c + 1] */
    uint32_t *root, *reached; /* per tree */
    size_t *at;               /* per tree */
    uint32_t *occ_first;      /* per waypoint, and one more: the trees it lies on are */
    uint32_t *occ_tree;       /* occ_tree[occ_first[v] .. occ_first[v + 1]], at slot occ_slot (of */
    uint16_t *occ_slot;       /* the tree's) */
    uint64_t *score;          /* per waypoint: unserved sampled routes through it */
    uint32_t *alive;          /* per waypoint: the trees those come from */
    uint8_t *picked;          /* per part: it gave a hub this round */
    double region;            /* the waypoints a tree is expected to keep (0: a whole part) */
    nav_heap best;            /* candidates by score, most first, then by index; stale keys allowed */
    round_trees t;            /* its slots, and occ_tree's and occ_slot's: SAMPLES times n */
} ordering;

static bool ranked(const ordering *o, uint32_t v)
{
    return o->b->rank_of[v] != NAV__WP_UNRANKED;
}

/* The parts of the waypoints not taken (joined by links either way): part_of each, and each
 * part's waypoints ascending in list[first[c] .. first[c + 1]]. Returns how many parts. */
static uint32_t find_parts(ordering *o)
{
    const nav_waypoints *wp = o->b->wp;
    uint32_t n = wp->count, parts = 0, *part_of = o->part_of, *list = o->list;
    for (uint32_t v = 0; v < n; v++) part_of[v] = UINT32_MAX;
    for (uint32_t v = 0; v < n; v++) { /* breadth first, list as the queue */
        if (ranked(o, v) || part_of[v] != UINT32_MAX) continue;
        uint32_t head = 0, tail = 0;
        part_of[v] = parts;
        list[tail++] = v;
        while (head < tail) {
            uint32_t u = list[head++];
            for (int way = 0; way < 2; way++) {
                const uint32_t *from = way ? wp->in_first : wp->arc_first;
                for (uint32_t i = from[u], end = from[u + 1]; i < end; i++) {
                    uint32_t arc = way ? wp->in_arc[i] : i, x = way ? wp->in_from[i] : wp->arc_to[i];
                    if (wp->arc_disabled[arc] || ranked(o, x) || part_of[x] != UINT32_MAX) continue;
                    part_of[x] = parts;
                    list[tail++] = x;
                }
            }
        }
        parts++;
    }
    memset(o->first, 0, ((size_t)parts + 1) * sizeof *o->first);
    for (uint32_t v = 0; v < n; v++)
        if (!ranked(o, v)) o->first[part_of[v] + 1]++;
    for (uint32_t c = 0; c < parts; c++) o->first[c + 1] += o->first[c], o->fill[c] = o->first[c];
    for (uint32_t v = 0; v < n; v++)
        if (!ranked(o, v)) list[o->fill[part_of[v]]++] = v;
    return parts;
}

/* Root k of a part of m waypoints given `samples` roots: every waypoint when there are m, else one
 * from each of `samples` equal stretches of its list, at a fraction of the stretch that varies
 * with k (the golden ratio's multiples in 16 bits), so that the roots of a lattice, whose list
 * runs row by row, do not all fall in one column. */
static uint32_t sample_at(uint32_t k, uint32_t m, uint32_t samples)
{
    if (samples == m) return k;
    uint64_t jitter = (uint64_t)k * 40503u & 0xffff, scale = (uint64_t)samples << 16;
    return (uint32_t)((((uint64_t)k << 16) + jitter) * m / scale);
}

/* How many roots a part of m waypoints gets: SAMPLES while a tree is expected to keep its whole
 * part, else enough for DENSITY trees a waypoint; at most m. */
static uint32_t roots_for(const ordering *o, uint32_t m)
{
    double want = o->region > 0 && o->region < m ? ceil(DENSITY * (double)m / o->region) : SAMPLES;
    return want < m ? (uint32_t)want : m;
}

/* Keeps, of each part's trees, an evenly spread `keep` out of every `of` (at least one a part),
 * as many of them as the slots hold. */
static void thin_trees(ordering *o, uint32_t parts, size_t keep, size_t of)
{
    uint32_t kept = 0;
    size_t used = 0;
    for (uint32_t c = 0; c < parts; c++) {
        uint32_t from = o->tree_first[c], count = o->tree_first[c + 1] - from;
        uint32_t want = (uint32_t)((uint64_t)count * keep / of);
        if (want < 1) want = count ? 1 : 0;
        o->tree_first[c] = kept;
        for (uint32_t q = 0; q < want; q++) {
            uint32_t j = from + (uint32_t)((uint64_t)q * count / want);
            if (o->reached[j] > o->t.slots - used) continue;
            used += o->reached[j];
            o->root[kept] = o->root[j], o->reached[kept++] = o->reached[j];
        }
    }
    o->tree_first[parts] = kept;
}

/* Takes v out of the sampled routes: in each tree where no hub taken this
 * round cuts v off, the waypoints above it lose the routes through it, and those below it lose all
 * theirs. A cut-off subtree is skipped whole (everything in it is cut off too). */
static void cut(ordering *o, uint32_t v)
{
    round_trees *t = &o->t;
    for (uint32_t k = o->occ_first[v]; k < o->occ_first[v + 1]; k++) {
        size_t base = o->at[o->occ_tree[k]];
        uint32_t p = o->occ_slot[k];
        uint16_t *below = t->below + base, *vert = t->vert + base, *size = t->size + base, *up = t->up + base;
        if (!below[p]) continue;
        uint32_t served = below[p];
        for (uint32_t q = p; q;) {
            q = up[q];
            below[q] = (uint16_t)(below[q] - served);
            o->score[vert[q]] -= served;
        }
        for (uint32_t i = p, end = p + size[p]; i < end;) {
            if (!below[i]) {
                i += size[i];
                continue;
            }
            uint32_t w = vert[i];
            o->score[w] -= below[i];
            o->alive[w]--;
            below[i] = 0;
            i++;
        }
    }
}

static uint64_t score_key(const ordering *o, uint32_t v)
{
    return UINT64_MAX - o->score[v];
}

/* Runs the round's trees on the bake's threads. When they keep more than the slots hold (a
 * round after the first that drew too many), an evenly spread share of each part's is kept, laid
 * out again at places given. */
static nav_status grow_trees(ordering *o, uint32_t parts, const nav_waypoints_bake_desc *d)
{
    uint32_t trees = o->tree_first[parts];
    nav__work work = {.count = trees,
                      .init = tree_scratch_init,
                      .run = tree_run,
                      .fini = tree_scratch_free,
                      .ctx = &o->t,
                      .stage = "hub order",
                      .progress = d->progress};
    o->t.placed = false;
    atomic_store(&o->t.next_free, 0);
    nav_status s = nav__parallel(&work, d->threads);
    if (nav_failed(s)) return s;
    size_t total = 0;
    for (uint32_t j = 0; j < trees; j++) total += o->reached[j];
    if (total <= o->t.slots) return NAV_SUCCESS; /* every tree found room */
    thin_trees(o, parts, o->t.slots, total);
    work.count = trees = o->tree_first[parts];
    size_t at = 0;
    for (uint32_t j = 0; j < trees; j++) o->at[j] = at, at += o->reached[j];
    o->t.placed = true;
    return nav__parallel(&work, d->threads);
}

/* One round: the parts of what is left; those of one or two waypoints taken as they are, the
 * others sampled and taken from greedily while their scores are CONFIDENT (each part gives at
 * least one hub a round, so that every round takes some); then the round's hubs labelled. */
static nav_status run_round(ordering *o, const nav_waypoints_bake_desc *d)
{
    nav__wp_labelling *b = o->b;
    uint32_t n = b->wp->count, trees = 0, parts = find_parts(o);
    for (uint32_t c = 0; c < parts; c++) {
        uint32_t m = o->first[c + 1] - o->first[c], samples = roots_for(o, m);
        o->tree_first[c] = trees;
        o->picked[c] = 0;
        if (m <= 2) {
            for (uint32_t i = o->first[c]; i < o->first[c + 1]; i++) nav__wp_rank(b, o->list[i]);
            continue;
        }
        for (uint32_t k = 0; k < samples; k++)
            o->root[trees++] = o->list[o->first[c] + sample_at(k, m, samples)];
    }
    o->tree_first[parts] = trees;
    if (trees) {
        nav_status s = grow_trees(o, parts, d);
        if (nav_failed(s)) return s;
        trees = o->tree_first[parts];
    }

    /* the scores, and where each waypoint lies in the trees */
    memset(o->occ_first, 0, ((size_t)n + 1) * sizeof *o->occ_first);
    for (uint32_t v = 0; v < n; v++) o->score[v] = 0, o->alive[v] = 0;
    for (uint32_t j = 0; j < trees; j++) {
        const uint16_t *vert = o->t.vert + o->at[j], *size = o->t.size + o->at[j];
        for (uint32_t i = 0; i < o->reached[j]; i++)
            o->score[vert[i]] += size[i], o->occ_first[vert[i] + 1]++;
    }
    for (uint32_t v = 0; v < n; v++)
        o->alive[v] = o->occ_first[v + 1], o->occ_first[v + 1] += o->occ_first[v];
    for (uint32_t v = 0; v < n; v++) o->fill[v] = o->occ_first[v];
    for (uint32_t j = 0; j < trees; j++) {
        const uint16_t *vert = o->t.vert + o->at[j];
        for (uint32_t i = 0; i < o->reached[j]; i++) {
            uint32_t k = o->fill[vert[i]]++;
            o->occ_tree[k] = j, o->occ_slot[k] = (uint16_t)i;
        }
    }

    nav_heap_clear(&o->best);
    for (uint32_t v = 0; v < n; v++)
        if (!ranked(o, v)) nav_heap_push(&o->best, score_key(o, v), 0, v);
    while (o->best.count) {
        nav_heap_entry e = nav_heap_pop(&o->best);
        uint32_t v = nav_heap_entry_id(e), c = o->part_of[v];
        if (e.key != score_key(o, v)) { /* its score fell since: back in at its place */
            nav_heap_push(&o->best, score_key(o, v), 0, v);
            continue;
        }
        /* every waypoint a root: no sample tells more, and the part is done this round */
        bool all = o->tree_first[c + 1] - o->tree_first[c] == o->first[c + 1] - o->first[c];
        if (o->picked[c] && !all && o->alive[v] < CONFIDENT) continue;
        o->picked[c] = 1;
        nav__wp_rank(b, v);
        cut(o, v);
    }

    /* what the next round's trees are likely to keep: what is left of this round's */
    double kept = 0, counted = 0;
    for (uint32_t j = 0; j < trees; j++)
        if (o->t.below[o->at[j]]) kept += o->t.below[o->at[j]], counted++;
    o->region = counted ? kept / counted : 1;
    return nav__wp_label_ranked(b);
}

nav_status nav__wp_hub_order(nav__wp_labelling *b, const nav_waypoints_bake_desc *d)
{
    const nav_allocator *a = &b->wp->allocator;
    uint32_t n = b->wp->count;
    size_t count = n ? n : 1;
    ordering o = {.b = b};
    o.part_of = nav__calloc(a, count, sizeof *o.part_of);
    o.list = nav__calloc(a, count, sizeof *o.list);
    o.first = nav__calloc(a, count + 1, sizeof *o.first);
    o.fill = nav__calloc(a, count + 1, sizeof *o.fill);
    o.tree_first = nav__calloc(a, count + 1, sizeof *o.tree_first);
    o.root = nav__calloc(a, count, sizeof *o.root);
    o.reached = nav__calloc(a, count, sizeof *o.reached);
    o.at = nav__calloc(a, count, sizeof *o.at);
    o.occ_first = nav__calloc(a, count + 1, sizeof *o.occ_first);
    o.score = nav__calloc(a, count, sizeof *o.score);
    o.alive = nav__calloc(a, count, sizeof *o.alive);
    o.picked = nav__calloc(a, count, sizeof *o.picked);
    o.t = (round_trees){.b = b, .root = o.root, .at = o.at, .reached = o.reached};
    o.t.slots = (size_t)(n < SAMPLES ? n : SAMPLES) * n + 1;
    o.t.vert = nav__alloc(a, nav__mul_size(o.t.slots, sizeof *o.t.vert));
    o.t.size = nav__alloc(a, nav__mul_size(o.t.slots, sizeof *o.t.size));
    o.t.up = nav__alloc(a, nav__mul_size(o.t.slots, sizeof *o.t.up));
    o.t.below = nav__alloc(a, nav__mul_size(o.t.slots, sizeof *o.t.below));
    o.occ_tree = nav__alloc(a, nav__mul_size(o.t.slots, sizeof *o.occ_tree));
    o.occ_slot = nav__alloc(a, nav__mul_size(o.t.slots, sizeof *o.occ_slot));
    bool heap = !nav_failed(nav_heap_init(&o.best, a, (uint32_t)count, 0));
    nav_status s = heap && o.part_of && o.list && o.first && o.fill && o.tree_first && o.root && o.reached &&
                           o.at && o.occ_first && o.score && o.alive && o.picked && o.t.vert && o.t.size &&
                           o.t.up && o.t.below && o.occ_tree && o.occ_slot
                       ? NAV_SUCCESS
                       : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    while (!nav_failed(s) && b->ranked < n) s = run_round(&o, d);
    if (heap) nav_heap_destroy(&o.best);
    void *arrays[] = {o.part_of, o.list,   o.first,     o.fill,    o.tree_first, o.root,
                      o.reached, o.at,     o.occ_first, o.score,   o.alive,      o.picked,
                      o.t.vert,  o.t.size, o.t.up,      o.t.below, o.occ_tree,   o.occ_slot};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) nav__free(a, arrays[i]);
    return s;
}
