/* The HPA* bake: clusters, entrances and transitions, then the edges of every level.
 *
 * Botea, Mueller and Schaeffer, "Near optimal hierarchical path-finding" (2004), sections 3 and 4,
 * with two changes that keep the abstract graph complete on any grid, not only on flat ones:
 * - An entrance is a run of border positions whose crossing can be walked both ways and whose
 *   cells are joined to their neighbours along the border both ways, on both sides. Along such a
 *   run every crossing is reachable from every other inside the two clusters, so one or two
 *   transitions stand for all of them. A crossing that climbing makes one-way is a transition of
 *   its own, with its one edge.
 * - A diagonal move across a border (or through the corner of four clusters) needs no transition
 *   when two moves round one of its side cells make the same crossing through entrances; where
 *   they cannot (a one-way step, a cut corner the policy allows), it becomes a transition of its
 *   own. On a flat map with the Moving AI corner rule that never happens.
 * Then any path on the grid crosses cluster borders only in ways the abstract graph can follow,
 * so the graph connects exactly what the grid connects (the query's completeness). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "hpa_internal.h"
#include "log.h"
#include "nav/region.h"

#define PROGRESS_EVERY 4096 /* nodes between progress reports */

/* ---- growable arrays (bake only) ------------------------------------------------------------ */

static bool reserve(const nav_allocator *a, void **data, size_t *capacity, size_t need, size_t elem)
{
    if (need <= *capacity) return true;
    size_t n = *capacity ? *capacity * 2 : 64;
    while (n < need) n *= 2;
    void *p = nav__realloc(a, *data, *capacity * elem, nav__mul_size(n, elem));
    if (!p) return false;
    *data = p;
    *capacity = n;
    return true;
}

#define PUSH(a, arr, cap, count, value)                                                                      \
    (reserve((a), (void **)&(arr), &(cap), (count) + 1, sizeof *(arr)) ? ((arr)[(count)++] = (value), true)  \
                                                                       : false)

/* Cuts an array to its used size (the baked data's bytes are then what it holds). */
static void *fit(const nav_allocator *a, void *data, size_t capacity, size_t count, size_t elem)
{
    if (!data || count == capacity) return data;
    if (count == 0) {
        nav__free(a, data);
        return NULL;
    }
    void *p = nav__realloc(a, data, capacity * elem, count * elem);
    return p ? p : data;
}

/* ---- the bake's state ------------------------------------------------------------------------ */

typedef struct crossing {
    uint32_t from, to; /* cells, later node ids */
    double cost;
} crossing;

typedef struct bake {
    const nav_grid *grid;
    nav_hpa *hpa;
    const nav_allocator *a;
    nav_hpa_desc desc; /* with the caller's progress */
    const nav_log *log;
    uint32_t w, h;
    uint32_t *node_of_cell; /* [cells] node + 1, 0: none */
    uint32_t *node_cells;   /* the nodes' cells in the order found */
    size_t node_count, node_cap;
    crossing *crossings; /* inter edges */
    size_t crossing_count, crossing_cap;
    bool oom;
    /* a re-bake: the previous bake, the rectangle of changed cells, and per level which clusters
     * may copy their edges from it (see mark_clean) */
    const nav_hpa *old;
    nav_grid_rect changed;
    uint8_t *clean[NAV_HPA_MAX_LEVELS + 1];
} bake;

static uint8_t moves_of(const bake *b, uint32_t cell)
{
    return nav_grid_moves(b->grid, (int32_t)(cell % b->w), (int32_t)(cell / b->w));
}

/* Direction of the move from cell a to its neighbour c. */
static int dir_to(const bake *b, uint32_t a, uint32_t c)
{
    static const int8_t dir_of[3][3] = {
        {NAV_DIR_NW, NAV_DIR_N, NAV_DIR_NE}, {NAV_DIR_W, -1, NAV_DIR_E}, {NAV_DIR_SW, NAV_DIR_S, NAV_DIR_SE}};
    int32_t dx = (int32_t)(c % b->w) - (int32_t)(a % b->w), dy = (int32_t)(c / b->w) - (int32_t)(a / b->w);
    if (dx < -1 || dx > 1 || dy < -1 || dy > 1) return -1;
    return dir_of[dy + 1][dx + 1];
}

static bool allowed(const bake *b, uint32_t a, uint32_t c)
{
    int d = dir_to(b, a, c);
    return d >= 0 && (moves_of(b, a) >> d & 1u);
}

static bool two_way(const bake *b, uint32_t a, uint32_t c)
{
    return allowed(b, a, c) && allowed(b, c, a);
}

static bool same_cluster(const bake *b, uint32_t a, uint32_t c)
{
    uint32_t s = (uint32_t)b->desc.cluster_size;
    return (a % b->w) / s == (c % b->w) / s && (a / b->w) / s == (c / b->w) / s;
}

static void add_node(bake *b, uint32_t cell)
{
    if (b->node_of_cell[cell]) return;
    if (!PUSH(b->a, b->node_cells, b->node_cap, b->node_count, cell)) {
        b->oom = true;
        return;
    }
    b->node_of_cell[cell] = (uint32_t)b->node_count;
}

/* An inter edge: the move from cell u to its neighbour v in another cluster. */
static void add_crossing(bake *b, uint32_t u, uint32_t v)
{
    add_node(b, u);
    add_node(b, v);
    int d = dir_to(b, u, v);
    double cost = nav_grid_move_cost(b->grid, (int32_t)(u % b->w), (int32_t)(u / b->w), (nav_dir)d);
    crossing c = {u, v, cost};
    if (!PUSH(b->a, b->crossings, b->crossing_cap, b->crossing_count, c)) b->oom = true;
}

/* A transition across an entrance: both moves between the cells a and c. */
static void add_transition(bake *b, uint32_t a, uint32_t c)
{
    add_crossing(b, a, c);
    add_crossing(b, c, a);
    b->hpa->transitions++;
}

/* A crossing move is covered by entrances when it is a two-way move (then it lies in an entrance). */
static bool leg_covered(const bake *b, uint32_t u, uint32_t w)
{
    return allowed(b, u, w) && (same_cluster(b, u, w) || two_way(b, u, w));
}

/* A diagonal move u -> v across a border needs no transition of its own when the two moves round
 * one of its side cells are allowed and each, if it crosses a border, lies in an entrance. */
static bool diagonal_covered(const bake *b, uint32_t u, uint32_t v)
{
    uint32_t ux = u % b->w, uy = u / b->w, vx = v % b->w, vy = v / b->w;
    uint32_t side1 = uy * b->w + vx, side2 = vy * b->w + ux;
    return (leg_covered(b, u, side1) && leg_covered(b, side1, v)) ||
           (leg_covered(b, u, side2) && leg_covered(b, side2, v));
}

static void diagonal(bake *b, uint32_t u, uint32_t v)
{
    if (allowed(b, u, v) && !diagonal_covered(b, u, v)) {
        add_crossing(b, u, v);
        b->hpa->transitions++;
    }
}

/* One border segment between two clusters: cells a[i] on one side, c[i] on the other, i along the
 * border. Finds its entrances and places their transitions. */
static void scan_border(bake *b, const uint32_t *a, const uint32_t *c, uint32_t n)
{
    uint32_t i = 0;
    while (i < n) {
        if (!two_way(b, a[i], c[i])) {
            if (allowed(b, a[i], c[i])) add_crossing(b, a[i], c[i]), b->hpa->transitions++;
            if (allowed(b, c[i], a[i])) add_crossing(b, c[i], a[i]), b->hpa->transitions++;
            i++;
            continue;
        }
        uint32_t j = i;
        while (j + 1 < n && two_way(b, a[j + 1], c[j + 1]) && two_way(b, a[j], a[j + 1]) &&
               two_way(b, c[j], c[j + 1]))
            j++;
        b->hpa->entrances++;
        if (j - i + 1 >= (uint32_t)b->desc.long_entrance && j > i) {
            add_transition(b, a[i], c[i]);
            add_transition(b, a[j], c[j]);
        } else {
            add_transition(b, a[(i + j) / 2], c[(i + j) / 2]);
        }
        i = j + 1;
    }
    for (i = 0; i + 1 < n; i++) {
        diagonal(b, a[i], c[i + 1]);
        diagonal(b, a[i + 1], c[i]);
        diagonal(b, c[i + 1], a[i]);
        diagonal(b, c[i], a[i + 1]);
    }
}

static void find_transitions(bake *b)
{
    uint32_t s = (uint32_t)b->desc.cluster_size, w = b->w, h = b->h;
    uint32_t a[NAV_HPA_MAX_CLUSTER], c[NAV_HPA_MAX_CLUSTER];
    for (uint32_t x = s; x < w; x += s) /* vertical borders: columns x - 1 | x */
        for (uint32_t y0 = 0; y0 < h; y0 += s) {
            uint32_t n = 0;
            for (uint32_t y = y0; y < h && y < y0 + s; y++, n++) a[n] = y * w + x - 1, c[n] = y * w + x;
            scan_border(b, a, c, n);
        }
    for (uint32_t y = s; y < h; y += s) /* horizontal borders: rows y - 1 | y */
        for (uint32_t x0 = 0; x0 < w; x0 += s) {
            uint32_t n = 0;
            for (uint32_t x = x0; x < w && x < x0 + s; x++, n++) a[n] = (y - 1) * w + x, c[n] = y * w + x;
            scan_border(b, a, c, n);
        }
    for (uint32_t y = s; y < h; y += s) /* the corners of four clusters */
        for (uint32_t x = s; x < w; x += s) {
            uint32_t nw = (y - 1) * w + x - 1, ne = (y - 1) * w + x, sw = y * w + x - 1, se = y * w + x;
            diagonal(b, nw, se);
            diagonal(b, se, nw);
            diagonal(b, ne, sw);
            diagonal(b, sw, ne);
        }
}

/* ---- node order ------------------------------------------------------------------------------ */

typedef struct node_key {
    uint32_t top; /* level-L cluster */
    uint32_t sub; /* place of the level-l cluster inside the level-(l+1) one, 8 bits a level */
    uint32_t cell;
    uint32_t found; /* index in the order found */
} node_key;

static int compare_keys(const void *p, const void *q)
{
    const node_key *x = p, *y = q;
    if (x->top != y->top) return x->top < y->top ? -1 : 1;
    if (x->sub != y->sub) return x->sub < y->sub ? -1 : 1;
    return (x->cell > y->cell) - (x->cell < y->cell);
}

static int compare_crossings(const void *p, const void *q)
{
    const crossing *x = p, *y = q;
    if (x->from != y->from) return x->from < y->from ? -1 : 1;
    return (x->to > y->to) - (x->to < y->to);
}

/* The highest level whose clusters the move between cells u and v crosses (0: none). */
static int crossing_level(const nav_hpa *hpa, uint32_t u, uint32_t v)
{
    uint32_t w = (uint32_t)hpa->width;
    int32_t ux = (int32_t)(u % w), uy = (int32_t)(u / w), vx = (int32_t)(v % w), vy = (int32_t)(v / w);
    for (int l = hpa->levels; l >= 1; l--)
        if (nav__hpa_cluster(hpa, l, ux, uy) != nav__hpa_cluster(hpa, l, vx, vy)) return l;
    return 0;
}

static nav_status order_nodes(bake *b)
{
    nav_hpa *hpa = b->hpa;
    uint32_t n = (uint32_t)b->node_count, w = b->w;
    node_key *keys = nav__alloc(b->a, nav__mul_size(n ? n : 1, sizeof *keys));
    uint32_t *final_of_found = nav__alloc(b->a, nav__mul_size(n ? n : 1, sizeof(uint32_t)));
    hpa->node_cell = nav__alloc(b->a, nav__mul_size(n ? n : 1, sizeof *hpa->node_cell));
    hpa->node_level = nav__calloc(b->a, n ? n : 1, 1);
    hpa->node_x = nav__alloc(b->a, nav__mul_size(n ? n : 1, sizeof *hpa->node_x));
    hpa->node_y = nav__alloc(b->a, nav__mul_size(n ? n : 1, sizeof *hpa->node_y));
    if (!keys || !final_of_found || !hpa->node_cell || !hpa->node_level || !hpa->node_x || !hpa->node_y) {
        nav__free(b->a, keys);
        nav__free(b->a, final_of_found);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    int L = hpa->levels, ratio = hpa->desc.level_ratio;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t cell = b->node_cells[i];
        int32_t x = (int32_t)(cell % w), y = (int32_t)(cell / w);
        uint32_t sub = 0;
        for (int l = L - 1; l >= 1; l--) {
            int32_t side = hpa->level[l].side;
            sub = sub << 8 | (uint32_t)(((y / side) % ratio) * ratio + (x / side) % ratio);
        }
        keys[i] = (node_key){nav__hpa_cluster(hpa, L, x, y), sub, cell, i};
    }
    qsort(keys, n, sizeof *keys, compare_keys);
    for (uint32_t i = 0; i < n; i++) {
        hpa->node_cell[i] = keys[i].cell;
        hpa->node_x[i] = (int32_t)(keys[i].cell % w);
        hpa->node_y[i] = (int32_t)(keys[i].cell / w);
        final_of_found[keys[i].found] = i;
    }
    hpa->node_count = n;
    for (size_t k = 0; k < b->crossing_count; k++) {
        crossing *c = &b->crossings[k];
        int lev = crossing_level(hpa, c->from, c->to);
        c->from = final_of_found[b->node_of_cell[c->from] - 1];
        c->to = final_of_found[b->node_of_cell[c->to] - 1];
        if (lev > hpa->node_level[c->from]) hpa->node_level[c->from] = (uint8_t)lev;
        if (lev > hpa->node_level[c->to]) hpa->node_level[c->to] = (uint8_t)lev;
    }
    if (b->crossing_count > 1)
        qsort(b->crossings, b->crossing_count, sizeof *b->crossings, compare_crossings);
    nav__free(b->a, keys);
    nav__free(b->a, final_of_found);

    return nav__hpa_index_clusters(hpa);
}

/* ---- edges ------------------------------------------------------------------------------------ */

/* A node's edges at one level while they are gathered, sorted by target before they are kept. */
typedef struct pending_edge {
    uint32_t target;
    double cost;
    uint32_t sub_at, sub_count; /* its refinement, in the bake's scratch */
} pending_edge;

typedef struct edge_builder {
    pending_edge *edges;
    size_t count, cap;
    uint32_t *scratch; /* refinements of the pending edges (moves or edge ids) */
    size_t scratch_count, scratch_cap;
    /* capacities of the level's arrays while they grow */
    size_t target_cap, source_cap, cost_cap, sub_first_cap, sub_cap;
} edge_builder;

static int compare_pending(const void *p, const void *q)
{
    const pending_edge *x = p, *y = q;
    return (x->target > y->target) - (x->target < y->target);
}

/* Sorts node u's pending edges and appends them to level l. */
static bool flush_edges(bake *b, edge_builder *eb, hpa_level *lv, uint32_t u, bool moves)
{
    if (eb->count > 1) qsort(eb->edges, eb->count, sizeof *eb->edges, compare_pending);
    for (size_t k = 0; k < eb->count; k++) {
        const pending_edge *p = &eb->edges[k];
        size_t e = lv->edge_count, need = (size_t)lv->sub_count + p->sub_count;
        if (e >= UINT32_MAX - 1 || need >= UINT32_MAX) return false;
        if (!reserve(b->a, (void **)&lv->edge_target, &eb->target_cap, e + 1, sizeof *lv->edge_target) ||
            !reserve(b->a, (void **)&lv->edge_source, &eb->source_cap, e + 1, sizeof *lv->edge_source) ||
            !reserve(b->a, (void **)&lv->edge_cost, &eb->cost_cap, e + 1, sizeof *lv->edge_cost) ||
            !reserve(b->a, (void **)&lv->sub_first, &eb->sub_first_cap, e + 2, sizeof *lv->sub_first))
            return false;
        lv->edge_target[e] = p->target;
        lv->edge_source[e] = u;
        lv->edge_cost[e] = p->cost;
        if (e == 0) lv->sub_first[0] = 0;
        if (moves) {
            if (!reserve(b->a, (void **)&lv->moves, &eb->sub_cap, need, 1)) return false;
            for (uint32_t i = 0; i < p->sub_count; i++)
                lv->moves[lv->sub_count + i] = (uint8_t)eb->scratch[p->sub_at + i];
        } else {
            if (!reserve(b->a, (void **)&lv->sub, &eb->sub_cap, need, sizeof *lv->sub)) return false;
            if (p->sub_count)
                memcpy(lv->sub + lv->sub_count, eb->scratch + p->sub_at, p->sub_count * sizeof *lv->sub);
        }
        lv->sub_count = (uint32_t)need;
        lv->sub_first[e + 1] = lv->sub_count;
        lv->edge_count = (uint32_t)(e + 1);
    }
    lv->edge_first[u + 1] = lv->edge_count;
    eb->count = 0;
    eb->scratch_count = 0;
    return true;
}

static bool pend(bake *b, edge_builder *eb, uint32_t target, double cost, uint32_t sub_at, uint32_t sub_count)
{
    pending_edge p = {target, cost, sub_at, sub_count};
    return PUSH(b->a, eb->edges, eb->cap, eb->count, p);
}

static bool report(bake *b, const char *stage, uint64_t done, uint64_t total)
{
    if (!b->desc.progress.fn) return true;
    return b->desc.progress.fn(stage, done, total, b->desc.progress.user);
}

/* A level's arrays cut to the size they hold. */
static nav_status finish_level(bake *b, hpa_level *lv, const edge_builder *eb, bool moves)
{
    uint32_t m = lv->edge_count;
    lv->edge_target = fit(b->a, lv->edge_target, eb->target_cap, m, sizeof *lv->edge_target);
    lv->edge_source = fit(b->a, lv->edge_source, eb->source_cap, m, sizeof *lv->edge_source);
    lv->edge_cost = fit(b->a, lv->edge_cost, eb->cost_cap, m, sizeof *lv->edge_cost);
    lv->sub_first = fit(b->a, lv->sub_first, eb->sub_first_cap, m ? m + 1 : 0, sizeof *lv->sub_first);
    if (moves)
        lv->moves = fit(b->a, lv->moves, eb->sub_cap, lv->sub_count, 1);
    else
        lv->sub = fit(b->a, lv->sub, eb->sub_cap, lv->sub_count, sizeof *lv->sub);
    if (!lv->sub_first) {
        lv->sub_first = nav__calloc(b->a, 1, sizeof *lv->sub_first);
        if (!lv->sub_first) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    return NAV_SUCCESS;
}

/* ---- distance fields ------------------------------------------------------------------------- */

/* Allocates the fields when the grid allows them (see hpa_internal.h): one cost, and every move
 * reversible, so the cost between two cells is the same both ways. */
static nav_status plan_fields(bake *b)
{
    nav_hpa *hpa = b->hpa;
    double uniform = nav_grid_uniform_cost(b->grid);
    if (hpa->level[1].side > FIELD_MAX_SIDE || !(uniform > 0) || !nav_grid_moves_reversible(b->grid))
        return NAV_SUCCESS;
    hpa->field_cells = (uint32_t)(hpa->level[1].side * hpa->level[1].side);
    hpa->field_unit = uniform / FIELD_STEPS;
    hpa->field = nav__alloc(b->a, nav__mul_size((size_t)(hpa->node_count ? hpa->node_count : 1),
                                                hpa->field_cells * sizeof *hpa->field));
    return hpa->field ? NAV_SUCCESS : NAV_FAILURE | NAV_OUT_OF_MEMORY;
}

/* Node u's field from the last fan, which ran over the whole cluster. A cluster of at most
 * FIELD_MAX_SIDE cells a side holds no path longer than 1024 diagonal moves, well inside 16 bits. */
static void fill_field(bake *b, const nav_region_query *rq, uint32_t u, nav_grid_rect r)
{
    nav_hpa *hpa = b->hpa;
    uint16_t *f = hpa->field + (size_t)u * hpa->field_cells;
    int32_t side = hpa->level[1].side;
    for (uint32_t i = 0; i < hpa->field_cells; i++) f[i] = FIELD_NONE;
    for (int32_t y = 0; y < r.height; y++)
        for (int32_t x = 0; x < r.width; x++) {
            double c = nav_region_fan_cost(rq, (uint32_t)(r.y + y) * b->w + (uint32_t)(r.x + x));
            if (c < INFINITY) f[y * side + x] = (uint16_t)lround(c / hpa->field_unit);
        }
}

/* ---- re-bakes: copying what did not change --------------------------------------------------- */

/* The level-(l-1) edge from u to v (an inter edge present at both levels), or UINT32_MAX. */
static uint32_t find_edge(const hpa_level *lv, uint32_t u, uint32_t v)
{
    for (uint32_t e = lv->edge_first[u]; e < lv->edge_first[u + 1]; e++)
        if (lv->edge_target[e] == v) return e;
    return UINT32_MAX;
}

static bool rects_overlap(nav_grid_rect a, nav_grid_rect b)
{
    return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

static nav_grid_rect cluster_cells(const nav_hpa *hpa, int l, uint32_t cluster)
{
    const hpa_level *lv = &hpa->level[l];
    int32_t x = (int32_t)(cluster % lv->clusters_x) * lv->side,
            y = (int32_t)(cluster / lv->clusters_x) * lv->side;
    return (nav_grid_rect){x, y, lv->side, lv->side};
}

/* A cluster of level l may copy its edges from the previous bake when no changed cell lies in it
 * and it holds the same nodes (cells, and for l > 1 levels) in the same order. Its edges inside
 * it then come out the same: a level-1 fan reads only moves between cells of the cluster, which
 * depend on those cells alone (a diagonal's side cells lie in the cluster too), and a level-l
 * search reads only level-(l-1) edges inside the cluster, the same by the same argument one level
 * down (crossings inside the cluster too: their runs and side cells lie in it). Crossings
 * between clusters are always found afresh. */
static nav_status mark_clean(bake *b)
{
    const nav_hpa *hpa = b->hpa, *old = b->old;
    /* level-1 clusters copy distance fields too: only from a bake with the same kind of fields */
    bool fields_match =
        (hpa->field != NULL) == (old->field != NULL) &&
        (!hpa->field || (hpa->field_unit == old->field_unit && hpa->field_cells == old->field_cells));
    for (int l = 1; l <= hpa->levels; l++) {
        const hpa_level *lv = &hpa->level[l], *ov = &old->level[l];
        uint32_t clusters = lv->clusters_x * lv->clusters_y;
        b->clean[l] = nav__calloc(b->a, clusters, 1);
        if (!b->clean[l]) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
        if (l == 1 && !fields_match) continue;
        for (uint32_t c = 0; c < clusters; c++) {
            if (rects_overlap(cluster_cells(hpa, l, c), b->changed)) continue;
            uint32_t f = lv->node_first[c], n = lv->node_end[c] - f, of = ov->node_first[c];
            if (n != ov->node_end[c] - of) continue;
            bool same = true;
            for (uint32_t i = 0; i < n && same; i++)
                same = hpa->node_cell[f + i] == old->node_cell[of + i] &&
                       (l == 1 || hpa->node_level[f + i] == old->node_level[of + i]);
            b->clean[l][c] = same;
            b->hpa->reused_clusters[l] += same;
        }
    }
    return NAV_SUCCESS;
}

/* Pends node u's level-l edges inside its clean cluster, copied from the previous bake: the same
 * nodes sit at the same offsets in the cluster's range, and a level-(l-1) edge is found again by its
 * ends (there is at most one edge from a node to another at each level). */
static bool copy_edges(bake *b, edge_builder *eb, int l, uint32_t cluster, uint32_t u)
{
    const nav_hpa *hpa = b->hpa, *old = b->old;
    const hpa_level *ov = &old->level[l], *below = &hpa->level[l - 1], *old_below = &old->level[l - 1];
    uint32_t f = hpa->level[l].node_first[cluster], of = ov->node_first[cluster],
             on = ov->node_end[cluster] - of;
    uint32_t ou = of + (u - f);
    for (uint32_t e = ov->edge_first[ou]; e < ov->edge_first[ou + 1]; e++) {
        uint32_t ot = ov->edge_target[e];
        if (ot - of >= on) continue; /* a crossing: found afresh */
        uint32_t at = (uint32_t)eb->scratch_count;
        for (uint32_t i = ov->sub_first[e]; i < ov->sub_first[e + 1]; i++) {
            uint32_t part;
            if (l == 1) {
                part = ov->moves[i];
            } else {
                uint32_t os = old_below->edge_source[ov->sub[i]], ot2 = old_below->edge_target[ov->sub[i]];
                part = find_edge(below, f + (os - of), f + (ot2 - of));
            }
            if (!PUSH(b->a, eb->scratch, eb->scratch_cap, eb->scratch_count, part)) return false;
        }
        if (!pend(b, eb, f + (ot - of), ov->edge_cost[e], at, (uint32_t)eb->scratch_count - at)) return false;
    }
    return true;
}

/* Dominated edges. The cheapest path from node u to node w inside a cluster that passes through
 * another node v of the same level and cluster costs d(u, v) + (the rest), and the rest is no
 * cheaper than d(v, w): the edges u -> v and v -> w together are as cheap as u -> w. Leaving u -> w
 * out keeps every distance of the graph (by induction on the number of such nodes on a path) and
 * saves the searches the relaxations of an edge that never does better. */
static bool passes_a_node(const bake *b, const nav_path *cells)
{
    for (uint32_t i = 1; i + 1 < cells->count; i++)
        if (b->node_of_cell[cells->nodes[i]]) return true;
    return false;
}

/* The same one level up: a level-(l-1) edge chain (count edges, in walking order) through a node
 * living at level l. */
static bool through_level_node(const nav_hpa *hpa, const hpa_level *below, const uint32_t *chain,
                               uint32_t count, int l)
{
    for (uint32_t i = 0; i + 1 < count; i++)
        if (hpa->node_level[below->edge_target[chain[i]]] >= l) return true;
    return false;
}

/* Level 1: the crossings, and a fan inside its cluster from every node to the others. */
static nav_status build_level1(bake *b)
{
    nav_hpa *hpa = b->hpa;
    hpa_level *lv = &hpa->level[1];
    uint32_t n = hpa->node_count;
    int32_t side = lv->side;
    nav_region_query *rq = NULL;
    nav_status s = nav_region_query_create(
        b->grid,
        (uint32_t)(side * side) < (uint32_t)b->w * b->h ? (uint32_t)(side * side) : (uint32_t)b->w * b->h,
        b->a, &rq);
    if (nav_failed(s)) return s;
    uint32_t *targets = nav__alloc(b->a, nav__mul_size(lv->max_cluster_nodes + 1, sizeof *targets));
    double *costs = nav__alloc(b->a, nav__mul_size(lv->max_cluster_nodes + 1, sizeof *costs));
    lv->edge_first = nav__calloc(b->a, (size_t)n + 1, sizeof *lv->edge_first);
    edge_builder eb = {0};
    nav_path cells;
    nav_path_init(&cells, b->a);
    s = NAV_SUCCESS;
    if (!targets || !costs || !lv->edge_first) s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    size_t next_crossing = 0;
    for (uint32_t u = 0; u < n && nav_succeeded(s); u++) {
        if (u % PROGRESS_EVERY == 0 && !report(b, "level 1 edges", u, n)) {
            s = NAV_FAILURE | NAV_WRONG_STATE;
            break;
        }
        lv->edge_first[u + 1] = lv->edge_first[u];
        for (; next_crossing < b->crossing_count && b->crossings[next_crossing].from == u; next_crossing++) {
            const crossing *c = &b->crossings[next_crossing];
            uint32_t dir = (uint32_t)dir_to(b, hpa->node_cell[u], hpa->node_cell[c->to]);
            if (!PUSH(b->a, eb.scratch, eb.scratch_cap, eb.scratch_count, dir) ||
                !pend(b, &eb, c->to, c->cost, (uint32_t)eb.scratch_count - 1, 1))
                s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
        }
        uint32_t cluster = nav__hpa_node_cluster(hpa, 1, u);
        uint32_t first = lv->node_first[cluster], end = lv->node_end[cluster];
        if (b->clean[1] && b->clean[1][cluster]) {
            if (hpa->field) {
                uint32_t ou = b->old->level[1].node_first[cluster] + (u - first);
                memcpy(hpa->field + (size_t)u * hpa->field_cells,
                       b->old->field + (size_t)ou * hpa->field_cells, hpa->field_cells * sizeof *hpa->field);
            }
            if (!copy_edges(b, &eb, 1, cluster, u)) s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
            if (nav_succeeded(s) && !flush_edges(b, &eb, lv, u, true)) s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
            continue;
        }
        for (uint32_t v = first; v < end; v++) targets[v - first] = hpa->node_cell[v];
        nav_grid_rect rect = nav__hpa_level1_rect(hpa, cluster);
        /* with fields, the fan runs over the whole cluster (no targets to stop at) */
        nav_status fs =
            nav_region_fan(rq, rect, hpa->node_cell[u], false, targets, hpa->field ? 0 : end - first, costs);
        if (nav_failed(fs)) s = fs;
        if (hpa->field && nav_succeeded(s)) {
            fill_field(b, rq, u, rect);
            for (uint32_t v = first; v < end; v++)
                costs[v - first] = nav_region_fan_cost(rq, hpa->node_cell[v]);
        }
        for (uint32_t v = first; v < end && nav_succeeded(s); v++) {
            if (v == u || costs[v - first] == INFINITY) continue;
            nav_path_clear(&cells);
            s = nav_region_fan_path(rq, hpa->node_cell[v], &cells);
            if (nav_succeeded(s) && passes_a_node(b, &cells)) continue;
            uint32_t at = (uint32_t)eb.scratch_count;
            for (uint32_t i = 1; i < cells.count && nav_succeeded(s); i++) {
                uint32_t dir = (uint32_t)dir_to(b, cells.nodes[i - 1], cells.nodes[i]);
                if (!PUSH(b->a, eb.scratch, eb.scratch_cap, eb.scratch_count, dir))
                    s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
            }
            if (nav_succeeded(s) && !pend(b, &eb, v, costs[v - first], at, cells.count - 1))
                s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
        }
        if (nav_succeeded(s) && !flush_edges(b, &eb, lv, u, true)) s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    if (nav_succeeded(s)) s = finish_level(b, lv, &eb, true);
    nav_path_destroy(&cells);
    nav__free(b->a, eb.edges);
    nav__free(b->a, eb.scratch);
    nav__free(b->a, targets);
    nav__free(b->a, costs);
    nav_region_query_destroy(rq);
    return s;
}

/* Level l > 1: the crossings of level-l borders, and a Dijkstra over level-(l-1) edges inside its
 * level-l cluster from every node living at level l to the others. */
static nav_status build_level(bake *b, int l)
{
    nav_hpa *hpa = b->hpa;
    hpa_level *lv = &hpa->level[l], *below = &hpa->level[l - 1];
    uint32_t n = hpa->node_count;
    hpa_search search;
    nav_status s = nav__hpa_search_init(&search, b->a, lv->max_cluster_nodes);
    if (nav_failed(s)) return s;
    lv->edge_first = nav__calloc(b->a, (size_t)n + 1, sizeof *lv->edge_first);
    if (!lv->edge_first) s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    edge_builder eb = {0};
    size_t next_crossing = 0;
    char stage[32];
    snprintf(stage, sizeof stage, "level %d edges", l);
    for (uint32_t u = 0; u < n && nav_succeeded(s); u++) {
        if (u % PROGRESS_EVERY == 0 && !report(b, stage, u, n)) {
            s = NAV_FAILURE | NAV_WRONG_STATE;
            break;
        }
        lv->edge_first[u + 1] = lv->edge_first[u];
        for (; next_crossing < b->crossing_count && b->crossings[next_crossing].from == u; next_crossing++) {
            const crossing *c = &b->crossings[next_crossing];
            if (crossing_level(hpa, hpa->node_cell[u], hpa->node_cell[c->to]) < l) continue;
            uint32_t e = find_edge(below, u, c->to);
            if (!PUSH(b->a, eb.scratch, eb.scratch_cap, eb.scratch_count, e) ||
                !pend(b, &eb, c->to, c->cost, (uint32_t)eb.scratch_count - 1, 1))
                s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
        }
        if (hpa->node_level[u] >= l && nav_succeeded(s) && b->clean[l] &&
            b->clean[l][nav__hpa_node_cluster(hpa, l, u)]) {
            if (!copy_edges(b, &eb, l, nav__hpa_node_cluster(hpa, l, u), u))
                s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
        } else if (hpa->node_level[u] >= l && nav_succeeded(s)) {
            uint32_t cluster = nav__hpa_node_cluster(hpa, l, u);
            uint32_t first = lv->node_first[cluster], end = lv->node_end[cluster];
            nav__hpa_search_begin(&search, first, end - first);
            nav__hpa_search_seed(&search, u, 0, HPA_VIA_SEED);
            nav__hpa_search_run(&search, hpa, l - 1, l);
            for (uint32_t v = first; v < end && nav_succeeded(s); v++) {
                if (v == u || hpa->node_level[v] < l || !nav__hpa_search_reached(&search, v)) continue;
                /* the level-(l-1) edges from u to v, walked back from v, then turned round */
                uint32_t at = (uint32_t)eb.scratch_count;
                for (uint32_t x = v; x != u && nav_succeeded(s);) {
                    uint32_t e = search.via[x - first];
                    if (!PUSH(b->a, eb.scratch, eb.scratch_cap, eb.scratch_count, e))
                        s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
                    x = below->edge_source[e];
                }
                if (nav_failed(s)) break;
                uint32_t count = (uint32_t)eb.scratch_count - at;
                for (uint32_t i = 0, j = count - 1; i < j; i++, j--) {
                    uint32_t t = eb.scratch[at + i];
                    eb.scratch[at + i] = eb.scratch[at + j];
                    eb.scratch[at + j] = t;
                }
                if (through_level_node(hpa, below, eb.scratch + at, count, l)) {
                    eb.scratch_count = at; /* dominated: see through_level_node */
                    continue;
                }
                if (!pend(b, &eb, v, search.g[v - first], at, count)) s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
            }
        }
        if (nav_succeeded(s) && !flush_edges(b, &eb, lv, u, false)) s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    if (nav_succeeded(s)) s = finish_level(b, lv, &eb, false);
    nav__free(b->a, eb.edges);
    nav__free(b->a, eb.scratch);
    nav__hpa_search_destroy(&search);
    return s;
}

/* ---- the bake -------------------------------------------------------------------------------- */

static nav_status check_desc(const nav_hpa_desc *d, const nav_log *log)
{
    const char *bad = NULL;
    if (d->cluster_size < NAV_HPA_MIN_CLUSTER || d->cluster_size > NAV_HPA_MAX_CLUSTER)
        bad = "cluster_size must be 2..64";
    else if (d->levels < 1 || d->levels > NAV_HPA_MAX_LEVELS)
        bad = "levels must be 1..4";
    else if (d->level_ratio < 2 || d->level_ratio > 16)
        bad = "level_ratio must be 2..16";
    else if (d->long_entrance < 1)
        bad = "long_entrance must be at least 1";
    if (!bad) return NAV_SUCCESS;
    nav__logf(log, NAV_LOG_ERROR, "hpa bake: %s", bad);
    return NAV_FAILURE | NAV_INVALID_PARAM;
}

static nav_status bake_from(const nav_grid *grid, const nav_hpa_desc *desc, const nav_hpa *old,
                            nav_grid_rect changed, nav_hpa **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!grid) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_hpa_desc d = nav_hpa_desc_defaults(desc);
    nav_status s = check_desc(&d, d.log);
    if (nav_failed(s)) return s;
    nav_allocator a;
    nav__allocator_resolve(&a, d.allocator);
    nav_hpa *hpa = nav__calloc(&a, 1, sizeof *hpa);
    if (!hpa) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    hpa->allocator = a;
    hpa->desc = d;
    hpa->desc.allocator = NULL;
    hpa->desc.log = NULL;
    hpa->desc.progress = (nav_progress){0};
    hpa->width = nav_grid_width(grid);
    hpa->height = nav_grid_height(grid);
    hpa->grid_fingerprint = nav_grid_fingerprint(grid);
    hpa->levels = d.levels;
    nav__hpa_set_levels(hpa);

    bake b = {.grid = grid,
              .hpa = hpa,
              .a = &hpa->allocator,
              .desc = d,
              .log = d.log,
              .old = old,
              .changed = changed};
    b.w = (uint32_t)hpa->width;
    b.h = (uint32_t)hpa->height;
    b.node_of_cell = nav__calloc(b.a, (size_t)b.w * b.h, sizeof *b.node_of_cell);
    if (!b.node_of_cell) s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (nav_succeeded(s) && !report(&b, "transitions", 0, 1)) s = NAV_FAILURE | NAV_WRONG_STATE;
    if (nav_succeeded(s)) {
        find_transitions(&b);
        if (b.oom)
            s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
        else if (b.node_count >= UINT32_MAX / 2 || b.crossing_count >= UINT32_MAX / 2)
            s = NAV_FAILURE | NAV_TOO_LARGE;
    }
    if (nav_succeeded(s)) s = order_nodes(&b);
    if (nav_succeeded(s)) s = plan_fields(&b);
    if (nav_succeeded(s) && old) s = mark_clean(&b);
    if (nav_succeeded(s)) s = build_level1(&b);
    for (int l = 2; l <= hpa->levels && nav_succeeded(s); l++) s = build_level(&b, l);
    if (nav_succeeded(s) && !report(&b, "done", 1, 1)) s = NAV_FAILURE | NAV_WRONG_STATE;
    nav__free(b.a, b.node_of_cell);
    nav__free(b.a, b.node_cells);
    nav__free(b.a, b.crossings);
    for (int l = 1; l <= NAV_HPA_MAX_LEVELS; l++) nav__free(b.a, b.clean[l]);
    if (nav_failed(s)) {
        if (nav_has_detail(s, NAV_OUT_OF_MEMORY)) nav__logf(b.log, NAV_LOG_ERROR, "hpa bake: out of memory");
        nav_hpa_destroy(hpa);
        return s;
    }
    *out = hpa;
    return NAV_SUCCESS;
}

nav_status nav_hpa_bake(const nav_grid *grid, const nav_hpa_desc *desc, nav_hpa **out)
{
    return bake_from(grid, desc, NULL, (nav_grid_rect){0}, out);
}

nav_status nav_hpa_rebake(const nav_hpa *old, const nav_grid *grid, nav_grid_rect changed,
                          const nav_hpa_desc *options, nav_hpa **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!old || !grid || nav_grid_width(grid) != old->width || nav_grid_height(grid) != old->height)
        return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_hpa_desc d = old->desc;
    d.allocator = options && options->allocator ? options->allocator : &old->allocator;
    d.log = options ? options->log : NULL;
    d.progress = options ? options->progress : (nav_progress){0};
    return bake_from(grid, &d, old, changed, out);
}
