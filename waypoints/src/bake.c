/* The waypoint bake: the graph checked and flattened into arcs, then Dijkstra's algorithm from
 * every waypoint (Dijkstra 1959), spread over threads, into the all-pairs distance and first-move
 * tables.
 *
 * Each row (one source) depends on the graph alone, so threads take sources in any order and the
 * tables come out the same. Within a row ties break by a fixed rule: the heap orders equal
 * distances by waypoint index, and a distance is replaced only by a strictly smaller one, so the
 * first route found stays. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "log.h"
#include "nav/heap.h"
#include "waypoints_internal.h"

/* ---- Checking and flattening ----------------------------------------------------------------- */

static double link_length(const nav_waypoint_graph *g, const nav_waypoint_link *l)
{
    nav_vec3 a = g->waypoints[l->from].position, b = g->waypoints[l->to].position;
    double dx = (double)b.x - a.x, dy = (double)b.y - a.y, dz = (double)b.z - a.z;
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* The cost of a link as the tables use it: its own, or its length. */
static double link_cost(const nav_waypoint_graph *g, const nav_waypoint_link *l)
{
    return l->cost > 0 ? l->cost : link_length(g, l);
}

/* Reports the first thing wrong with the graph (false), or true. */
static bool check_graph(const nav_waypoint_graph *g, const nav_log *log)
{
    if (g->waypoint_count && !g->waypoints) {
        nav__logf(log, NAV_LOG_ERROR, "waypoints: %u waypoints but no array", g->waypoint_count);
        return false;
    }
    if (g->link_count && !g->links) {
        nav__logf(log, NAV_LOG_ERROR, "waypoints: %u links but no array", g->link_count);
        return false;
    }
    for (uint32_t i = 0; i < g->waypoint_count; i++) {
        const nav_waypoint *w = &g->waypoints[i];
        if (!isfinite(w->position.x) || !isfinite(w->position.y) || !isfinite(w->position.z)) {
            nav__logf(log, NAV_LOG_ERROR, "waypoints: waypoint %u: position not finite", i);
            return false;
        }
        if (w->name && !nav__waypoint_name_ok(w->name, strlen(w->name))) {
            nav__logf(log, NAV_LOG_ERROR,
                      "waypoints: waypoint %u: a name is 1 to %u bytes without blanks or control characters",
                      i, NAV_WAYPOINT_NAME_MAX);
            return false;
        }
    }
    for (uint32_t i = 0; i < g->link_count; i++) {
        const nav_waypoint_link *l = &g->links[i];
        if (l->from >= g->waypoint_count || l->to >= g->waypoint_count) {
            nav__logf(log, NAV_LOG_ERROR, "waypoints: link %u: waypoint %u out of range (%u waypoints)", i,
                      l->from >= g->waypoint_count ? l->from : l->to, g->waypoint_count);
            return false;
        }
        if (!isfinite(l->cost) || l->cost < 0) {
            nav__logf(log, NAV_LOG_ERROR, "waypoints: link %u: cost %g is negative or not finite", i,
                      l->cost);
            return false;
        }
        double cost = link_cost(g, l);
        if (!(cost > 0)) {
            nav__logf(log, NAV_LOG_ERROR, "waypoints: link %u: length 0 and no cost: give it a cost above 0",
                      i);
            return false;
        }
        if (cost > NAV_WAYPOINT_MAX_COST) {
            nav__logf(log, NAV_LOG_ERROR, "waypoints: link %u: cost %g is above the most a link may cost, %g",
                      i, cost, NAV_WAYPOINT_MAX_COST);
            return false;
        }
    }
    return true;
}

/* Orders named waypoints by name (qsort's context through a struct: no global state). */
typedef struct named {
    const char *name;
    uint32_t index;
} named;

static int by_name(const void *a, const void *b)
{
    const named *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* An arc before sorting. */
typedef struct arc {
    uint32_t from, to;
    double cost;
    uint32_t link;
    uint16_t flags;
    uint8_t disabled;
} arc;

static int arc_order(const void *a, const void *b)
{
    const arc *x = a, *y = b;
    if (x->from != y->from) return x->from < y->from ? -1 : 1;
    if (x->to != y->to) return x->to < y->to ? -1 : 1;
    if (x->cost != y->cost) return x->cost < y->cost ? -1 : 1;
    return (x->link > y->link) - (x->link < y->link);
}

/* Copies waypoints and names, and sorts the names (a duplicate is reported: NAV_INVALID_PARAM). */
static nav_status copy_waypoints(nav_waypoints *wp, const nav_waypoint_graph *g, const nav_log *log)
{
    const nav_allocator *a = &wp->allocator;
    uint32_t n = g->waypoint_count;
    size_t bytes = 1;
    for (uint32_t i = 0; i < n; i++)
        if (g->waypoints[i].name) bytes += strlen(g->waypoints[i].name) + 1;
    wp->positions = nav__calloc(a, n ? n : 1, sizeof *wp->positions);
    wp->tags = nav__calloc(a, n ? n : 1, sizeof *wp->tags);
    wp->name_at = nav__calloc(a, n ? n : 1, sizeof *wp->name_at);
    wp->by_name = nav__calloc(a, n ? n : 1, sizeof *wp->by_name);
    wp->names = nav__alloc(a, bytes);
    named *order = nav__calloc(a, n ? n : 1, sizeof *order);
    if (!wp->positions || !wp->tags || !wp->name_at || !wp->by_name || !wp->names || !order) {
        nav__free(a, order);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    wp->names[0] = 0;
    wp->names_bytes = bytes;
    size_t at = 1;
    uint32_t named_count = 0;
    for (uint32_t i = 0; i < n; i++) {
        const nav_waypoint *w = &g->waypoints[i];
        wp->positions[i] = w->position;
        wp->tags[i] = w->tags;
        if (!w->name) continue;
        size_t len = strlen(w->name);
        memcpy(wp->names + at, w->name, len + 1);
        wp->name_at[i] = (uint32_t)at;
        order[named_count++] = (named){wp->names + at, i};
        at += len + 1;
    }
    qsort(order, named_count, sizeof *order, by_name);
    for (uint32_t i = 0; i < named_count; i++) {
        if (i > 0 && strcmp(order[i - 1].name, order[i].name) == 0) {
            nav__logf(log, NAV_LOG_ERROR, "waypoints: waypoints %u and %u are both named '%s'",
                      order[i - 1].index, order[i].index, order[i].name);
            nav__free(a, order);
            return NAV_FAILURE | NAV_INVALID_PARAM;
        }
        wp->by_name[i] = order[i].index;
    }
    wp->named_count = named_count;
    wp->count = n;
    nav__free(a, order);
    return NAV_SUCCESS;
}

/* The links as arcs, grouped by their from waypoint (arc_first) and sorted. */
static nav_status make_arcs(nav_waypoints *wp, const nav_waypoint_graph *g)
{
    const nav_allocator *a = &wp->allocator;
    uint32_t n = g->waypoint_count;
    size_t count = 0;
    for (uint32_t i = 0; i < g->link_count; i++) count += g->links[i].one_way ? 1 : 2;
    if (count > UINT32_MAX - 1) return NAV_FAILURE | NAV_TOO_LARGE;
    arc *arcs = nav__calloc(a, count ? count : 1, sizeof *arcs);
    wp->arc_first = nav__calloc(a, (size_t)n + 1, sizeof *wp->arc_first);
    wp->arc_to = nav__calloc(a, count ? count : 1, sizeof *wp->arc_to);
    wp->arc_cost = nav__calloc(a, count ? count : 1, sizeof *wp->arc_cost);
    wp->arc_flags = nav__calloc(a, count ? count : 1, sizeof *wp->arc_flags);
    wp->arc_disabled = nav__calloc(a, count ? count : 1, sizeof *wp->arc_disabled);
    wp->arc_link = nav__calloc(a, count ? count : 1, sizeof *wp->arc_link);
    wp->link_arc = nav__alloc(a, nav__mul_size(g->link_count ? g->link_count : 1, 2 * sizeof *wp->link_arc));
    if (!arcs || !wp->arc_first || !wp->arc_to || !wp->arc_cost || !wp->arc_flags || !wp->arc_disabled ||
        !wp->arc_link || !wp->link_arc) {
        nav__free(a, arcs);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    size_t k = 0;
    for (uint32_t i = 0; i < g->link_count; i++) {
        const nav_waypoint_link *l = &g->links[i];
        arc one = {l->from, l->to, link_cost(g, l), i, l->flags, l->disabled};
        arcs[k++] = one;
        if (!l->one_way) arcs[k++] = (arc){l->to, l->from, one.cost, i, l->flags, l->disabled};
    }
    qsort(arcs, count, sizeof *arcs, arc_order);
    for (size_t i = 0; i < 2 * (size_t)g->link_count; i++) wp->link_arc[i] = UINT32_MAX;
    for (size_t i = 0; i < count; i++) {
        uint32_t *slot = &wp->link_arc[2 * (size_t)arcs[i].link];
        slot[slot[0] != UINT32_MAX] = (uint32_t)i;
        wp->arc_first[arcs[i].from + 1]++;
        wp->arc_to[i] = arcs[i].to;
        wp->arc_cost[i] = arcs[i].cost;
        wp->arc_flags[i] = arcs[i].flags;
        wp->arc_disabled[i] = arcs[i].disabled;
        wp->arc_link[i] = arcs[i].link;
        wp->disabled_arcs += arcs[i].disabled;
    }
    for (uint32_t u = 0; u < n; u++) wp->arc_first[u + 1] += wp->arc_first[u];
    wp->arc_count = (uint32_t)count;
    /* the arcs by target: a counting sort, in the order of the arcs (so by source within a target) */
    wp->in_first = nav__calloc(a, (size_t)n + 2, sizeof *wp->in_first);
    wp->in_arc = nav__calloc(a, count ? count : 1, sizeof *wp->in_arc);
    wp->in_from = nav__calloc(a, count ? count : 1, sizeof *wp->in_from);
    if (!wp->in_first || !wp->in_arc || !wp->in_from) {
        nav__free(a, arcs);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    for (size_t i = 0; i < count; i++) wp->in_first[arcs[i].to + 2]++;
    for (uint32_t v = 0; v < n; v++) wp->in_first[v + 2] += wp->in_first[v + 1];
    for (size_t i = 0; i < count; i++) {
        uint32_t at = wp->in_first[arcs[i].to + 1]++;
        wp->in_arc[at] = (uint32_t)i;
        wp->in_from[at] = arcs[i].from;
    }
    wp->link_count = g->link_count;
    nav__free(a, arcs);
    return NAV_SUCCESS;
}

/* ---- The order of compressed rows ----------------------------------------------------------- */

/* The place of cell (x, y) of a 2^16 by 2^16 square along the Hilbert curve through it: cells near
 * each other on the curve are near each other on the ground, so targets that share a first move
 * (those in one direction, behind one doorway) tend to be neighbours in the order. */
static uint64_t hilbert(uint32_t x, uint32_t y)
{
    uint64_t d = 0;
    for (uint32_t side = 1u << 15; side > 0; side >>= 1) {
        uint32_t rx = (x & side) != 0, ry = (y & side) != 0;
        d += (uint64_t)side * side * ((3 * rx) ^ ry);
        if (!ry) { /* rotate the quadrant */
            if (rx) {
                x = side - 1 - x;
                y = side - 1 - y;
            }
            uint32_t t = x;
            x = y;
            y = t;
        }
    }
    return d;
}

typedef struct keyed {
    uint64_t key;
    uint32_t index;
} keyed;

static int by_key(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* The ranks of compressed rows: the waypoints along the Hilbert curve through their ground
 * positions (x, z) scaled to the bounding box, ties by index. */
static nav_status make_ranks(nav_waypoints *wp)
{
    const nav_allocator *a = &wp->allocator;
    uint32_t n = wp->count;
    wp->rank = nav__calloc(a, n ? n : 1, sizeof *wp->rank);
    keyed *order = nav__calloc(a, n ? n : 1, sizeof *order);
    if (!wp->rank || !order) {
        nav__free(a, order);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    double lo_x = INFINITY, hi_x = -INFINITY, lo_z = INFINITY, hi_z = -INFINITY;
    for (uint32_t i = 0; i < n; i++) {
        lo_x = fmin(lo_x, wp->positions[i].x), hi_x = fmax(hi_x, wp->positions[i].x);
        lo_z = fmin(lo_z, wp->positions[i].z), hi_z = fmax(hi_z, wp->positions[i].z);
    }
    double span = fmax(hi_x - lo_x, hi_z - lo_z), scale = span > 0 ? 65535 / span : 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x = (uint32_t)((wp->positions[i].x - lo_x) * scale),
                 z = (uint32_t)((wp->positions[i].z - lo_z) * scale);
        order[i] = (keyed){hilbert(x < 65535 ? x : 65535, z < 65535 ? z : 65535), i};
    }
    qsort(order, n, sizeof *order, by_key);
    for (uint32_t k = 0; k < n; k++) wp->rank[order[k].index] = (uint16_t)k;
    nav__free(a, order);
    return NAV_SUCCESS;
}

/* ---- Dijkstra from every source -------------------------------------------------------------- */

/* What the rows' threads share: the bake, and for compressed rows the batch being made. */
typedef struct bake_job {
    nav_waypoints *wp;
    const uint32_t *by_rank; /* compressed: the waypoint of each rank */
    uint32_t base;           /* compressed: the batch's first source */
    uint32_t *rows;          /* compressed: the batch's rows, count words each */
    uint32_t *lengths;       /* compressed: their runs */
} bake_job;

/* One thread's scratch: the distances of its current row in doubles, and the open list. */
typedef struct row_scratch {
    double *dist;
    uint16_t *hop;
    nav_heap open;
} row_scratch;

static bool scratch_init(void *ctx, void **out)
{
    const nav_waypoints *wp = ((const bake_job *)ctx)->wp;
    const nav_allocator *a = &wp->allocator;
    uint32_t n = wp->count;
    row_scratch *s = nav__calloc(a, 1, sizeof *s);
    *out = s;
    if (!s) return false;
    s->dist = nav__calloc(a, n ? n : 1, sizeof *s->dist);
    s->hop = nav__calloc(a, n ? n : 1, sizeof *s->hop);
    return s->dist && s->hop && !nav_failed(nav_heap_init(&s->open, a, n ? n : 1, n ? n : 1));
}

static void scratch_free(void *ctx, void *scratch)
{
    const nav_waypoints *wp = ((const bake_job *)ctx)->wp;
    row_scratch *s = scratch;
    if (!s) return;
    nav__free(&wp->allocator, s->dist);
    nav__free(&wp->allocator, s->hop);
    nav_heap_destroy(&s->open);
    nav__free(&wp->allocator, s);
}

/* Dijkstra from `source` into s->dist and s->hop. */
static void search_row(const nav_waypoints *wp, row_scratch *s, uint32_t source)
{
    uint32_t n = wp->count;
    for (uint32_t v = 0; v < n; v++) s->dist[v] = INFINITY, s->hop[v] = NAV__NO_HOP;
    nav_heap_clear(&s->open);
    s->dist[source] = 0;
    s->hop[source] = (uint16_t)source;
    nav_heap_push(&s->open, nav_heap_key_exact(0), 0, source);
    while (s->open.count) {
        uint32_t u = nav_heap_entry_id(nav_heap_pop(&s->open));
        double du = s->dist[u];
        for (uint32_t i = wp->arc_first[u], end = wp->arc_first[u + 1]; i < end; i++) {
            if (wp->arc_disabled[i]) continue;
            uint32_t v = wp->arc_to[i];
            double dv = du + wp->arc_cost[i];
            if (!(dv < s->dist[v])) continue;
            bool queued = s->dist[v] < INFINITY;
            s->dist[v] = dv;
            s->hop[v] = u == source ? (uint16_t)v : s->hop[u];
            if (queued)
                nav_heap_decrease(&s->open, v, nav_heap_key_exact(dv), 0);
            else
                nav_heap_push(&s->open, nav_heap_key_exact(dv), 0, v);
        }
    }
}

/* Row `source` of the plain tables. */
static bool bake_row(void *ctx, void *scratch, uint32_t source)
{
    nav_waypoints *wp = ((bake_job *)ctx)->wp;
    row_scratch *s = scratch;
    uint32_t n = wp->count;
    search_row(wp, s, source);
    float *drow = wp->dist + (size_t)source * n;
    uint16_t *hrow = wp->hop + (size_t)source * n;
    for (uint32_t v = 0; v < n; v++) drow[v] = (float)s->dist[v];
    memcpy(hrow, s->hop, (size_t)n * sizeof *hrow);
    return true;
}

/* Row base + item of a batch of compressed rows: its first moves by rank, as runs. */
static bool bake_compressed_row(void *ctx, void *scratch, uint32_t item)
{
    bake_job *job = ctx;
    const nav_waypoints *wp = job->wp;
    row_scratch *s = scratch;
    uint32_t n = wp->count, source = job->base + item, length = 0;
    search_row(wp, s, source);
    uint32_t *row = job->rows + (size_t)item * n;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t v = job->by_rank[k];
        if (v == source) continue; /* its own rank joins whichever run covers it */
        uint32_t h = s->hop[v];
        if (length == 0 || (row[length - 1] & 0xffff) != h) {
            row[length] = (length ? k : 0) << 16 | h;
            length++;
        }
    }
    job->lengths[item] = length;
    return true;
}

/* The compressed rows, in batches of a few megabytes: the threads make a batch's rows, then this
 * thread appends them to wp->run (so that only it calls the allocator). */
static nav_status bake_compressed(nav_waypoints *wp, const nav_waypoints_bake_desc *d)
{
    const nav_allocator *a = &wp->allocator;
    uint32_t n = wp->count;
    uint32_t batch = (uint32_t)((4u << 20) / (n ? n : 1));
    batch = batch < 16 ? 16 : batch > 1024 ? 1024 : batch;
    bake_job job = {.wp = wp};
    uint32_t *by_rank = nav__calloc(a, n ? n : 1, sizeof *by_rank);
    job.rows = nav__alloc(a, nav__mul_size((size_t)batch * n, sizeof *job.rows));
    job.lengths = nav__calloc(a, batch, sizeof *job.lengths);
    wp->run_first = nav__calloc(a, (size_t)n + 1, sizeof *wp->run_first);
    size_t capacity = (size_t)n * 16 + 1, used = 0;
    wp->run = nav__alloc(a, capacity * sizeof *wp->run);
    nav_status s = by_rank && job.rows && job.lengths && wp->run_first && wp->run
                       ? NAV_SUCCESS
                       : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (!nav_failed(s)) {
        for (uint32_t v = 0; v < n; v++) by_rank[wp->rank[v]] = v;
        job.by_rank = by_rank;
    }
    for (uint32_t base = 0; base < n && !nav_failed(s); base += batch) {
        job.base = base;
        nav__wp_work work = {.count = n - base < batch ? n - base : batch,
                             .init = scratch_init,
                             .run = bake_compressed_row,
                             .fini = scratch_free,
                             .ctx = &job,
                             .stage = "routes",
                             .progress = d->progress,
                             .progress_base = base,
                             .progress_total = n};
        s = nav__wp_parallel(&work, d->threads);
        for (uint32_t i = 0; i < work.count && !nav_failed(s); i++) {
            uint32_t length = job.lengths[i];
            if (used + length > UINT32_MAX) {
                nav__logf(d->log, NAV_LOG_ERROR, "waypoints: more than 2^32 runs of first moves");
                s = NAV_FAILURE | NAV_TOO_LARGE;
                break;
            }
            if (used + length > capacity) {
                size_t grown = 2 * capacity > used + length ? 2 * capacity : used + length;
                uint32_t *run = nav__realloc(a, wp->run, capacity * sizeof *run, grown * sizeof *run);
                if (!run) {
                    s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
                    break;
                }
                wp->run = run;
                capacity = grown;
            }
            memcpy(wp->run + used, job.rows + (size_t)i * n, (size_t)length * sizeof *wp->run);
            used += length;
            wp->run_first[base + i + 1] = (uint32_t)used;
        }
    }
    if (!nav_failed(s) && used < capacity) { /* give back what the last doubling left over */
        uint32_t *run = nav__realloc(a, wp->run, capacity * sizeof *run, (used ? used : 1) * sizeof *run);
        if (run) wp->run = run;
    }
    nav__free(a, by_rank);
    nav__free(a, job.rows);
    nav__free(a, job.lengths);
    return s;
}

/* ---- The bake -------------------------------------------------------------------------------- */

void nav_waypoints_destroy(nav_waypoints *wp)
{
    if (!wp) return;
    const nav_allocator a = wp->allocator;
    nav__free(&a, wp->positions);
    nav__free(&a, wp->tags);
    nav__free(&a, wp->name_at);
    nav__free(&a, wp->names);
    nav__free(&a, wp->by_name);
    nav__free(&a, wp->arc_first);
    nav__free(&a, wp->arc_to);
    nav__free(&a, wp->arc_cost);
    nav__free(&a, wp->arc_flags);
    nav__free(&a, wp->arc_disabled);
    nav__free(&a, wp->arc_link);
    nav__free(&a, wp->link_arc);
    nav__free(&a, wp->in_first);
    nav__free(&a, wp->in_arc);
    nav__free(&a, wp->in_from);
    nav__free(&a, wp->kd_point);
    nav__free(&a, wp->kd_axis);
    nav__free(&a, wp->dist);
    nav__free(&a, wp->hop);
    nav__free(&a, wp->rank);
    nav__free(&a, wp->run_first);
    nav__free(&a, wp->run);
    nav__wp_corners_free(&wp->corners, &a);
    nav__wp_sight_free(&wp->sight, &a);
    nav__free(&a, wp);
}

nav_status nav__wp_assemble(const nav_waypoint_graph *graph, bool compressed, const nav_allocator *allocator,
                            const nav_log *log, nav_waypoints **out)
{
    *out = NULL;
    if (!check_graph(graph, log)) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_allocator a;
    nav__allocator_resolve(&a, allocator);
    nav_waypoints *wp = nav__calloc(&a, 1, sizeof *wp);
    if (!wp) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    wp->allocator = a;
    nav_status s = copy_waypoints(wp, graph, log);
    if (!nav_failed(s)) s = make_arcs(wp, graph);
    if (!nav_failed(s)) s = nav__wp_kd_build(wp);
    wp->compressed = compressed;
    if (!nav_failed(s) && compressed) {
        s = make_ranks(wp);
    } else if (!nav_failed(s)) {
        size_t cells = nav__mul_size(graph->waypoint_count, graph->waypoint_count);
        /* not zeroed: every entry is written (by the bake's rows, or a chunk's tables) */
        wp->dist = nav__alloc(&a, nav__mul_size(cells ? cells : 1, sizeof *wp->dist));
        wp->hop = nav__alloc(&a, nav__mul_size(cells ? cells : 1, sizeof *wp->hop));
        if (!wp->dist || !wp->hop) s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    if (nav_failed(s)) {
        nav_waypoints_destroy(wp);
        return s;
    }
    *out = wp;
    return NAV_SUCCESS;
}

nav_status nav_waypoints_bake(const nav_waypoint_graph *graph, const nav_waypoints_bake_desc *desc,
                              nav_waypoints **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!graph) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_waypoints_bake_desc d = desc ? *desc : (nav_waypoints_bake_desc){0};
    uint32_t limit = d.max_waypoints ? d.max_waypoints : NAV_WAYPOINTS_DEFAULT_MAX;
    if (limit > NAV_WAYPOINTS_LIMIT) limit = NAV_WAYPOINTS_LIMIT;
    if (graph->waypoint_count > limit) {
        nav__logf(d.log, NAV_LOG_ERROR,
                  "waypoints: %u waypoints, more than the limit of %u (max_waypoints: at most %u)",
                  graph->waypoint_count, limit, NAV_WAYPOINTS_LIMIT);
        return NAV_FAILURE | NAV_TOO_LARGE;
    }
    bool compressed = graph->waypoint_count > (d.dense_max ? d.dense_max : NAV_WAYPOINTS_DENSE_MAX);
    nav_waypoints *wp;
    nav_status s = nav__wp_assemble(graph, compressed, d.allocator, d.log, &wp);
    if (nav_failed(s)) return s;
    if (compressed) {
        s = bake_compressed(wp, &d);
    } else {
        bake_job job = {.wp = wp};
        nav__wp_work work = {.count = wp->count,
                             .init = scratch_init,
                             .run = bake_row,
                             .fini = scratch_free,
                             .ctx = &job,
                             .stage = "routes",
                             .progress = d.progress};
        s = nav__wp_parallel(&work, d.threads);
    }
    if (nav_failed(s)) {
        nav_waypoints_destroy(wp);
        return s;
    }
    *out = wp;
    return NAV_SUCCESS;
}
