/* The waypoint bake: the graph checked and flattened into arcs, then Dijkstra's algorithm from
 * every waypoint (Dijkstra 1959), spread over threads, into the all-pairs distance and first-move
 * tables (graphs of up to dense_max waypoints; larger ones get hub labels: labels.c).
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

/* ---- Dijkstra from every source -------------------------------------------------------------- */

/* What the rows' threads share: the bake. */
typedef struct bake_job {
    nav_waypoints *wp;
} bake_job;

/* One thread's scratch: the distances of its current row in doubles, and the open list. */
typedef struct row_scratch {
    double *dist;
    uint16_t *hop, *parent, *seq;
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
    s->parent = nav__calloc(a, n ? n : 1, sizeof *s->parent);
    s->seq = nav__calloc(a, n ? n : 1, sizeof *s->seq);
    return s->dist && s->hop && s->parent && s->seq &&
           !nav_failed(nav_heap_init(&s->open, a, n ? n : 1, n ? n : 1));
}

static void scratch_free(void *ctx, void *scratch)
{
    const nav_waypoints *wp = ((const bake_job *)ctx)->wp;
    row_scratch *s = scratch;
    if (!s) return;
    nav__free(&wp->allocator, s->dist);
    nav__free(&wp->allocator, s->hop);
    nav__free(&wp->allocator, s->parent);
    nav__free(&wp->allocator, s->seq);
    nav_heap_destroy(&s->open);
    nav__free(&wp->allocator, s);
}

uint32_t nav__wp_tree(const nav_waypoints *wp, double *dist, nav_heap *open, uint32_t source,
                      uint16_t *parent, uint16_t *seq)
{
    uint32_t settled = 0;
    nav_heap_clear(open);
    dist[source] = 0;
    parent[source] = (uint16_t)source;
    nav_heap_push(open, nav_heap_key_exact(0), 0, source);
    while (open->count) {
        uint32_t u = nav_heap_entry_id(nav_heap_pop(open));
        seq[settled++] = (uint16_t)u;
        double du = dist[u];
        for (uint32_t i = wp->arc_first[u], end = wp->arc_first[u + 1]; i < end; i++) {
            if (wp->arc_disabled[i]) continue;
            uint32_t v = wp->arc_to[i];
            double dv = du + wp->arc_cost[i];
            if (!(dv < dist[v])) continue;
            bool queued = dist[v] < INFINITY;
            dist[v] = dv;
            parent[v] = (uint16_t)u;
            if (queued)
                nav_heap_decrease(open, v, nav_heap_key_exact(dv), 0);
            else
                nav_heap_push(open, nav_heap_key_exact(dv), 0, v);
        }
    }
    return settled;
}

/* Dijkstra from `source` into s->dist and s->hop (each waypoint's first move: that of its parent,
 * in the order they settled). */
static void search_row(const nav_waypoints *wp, row_scratch *s, uint32_t source)
{
    uint32_t n = wp->count;
    for (uint32_t v = 0; v < n; v++) s->dist[v] = INFINITY, s->hop[v] = NAV__NO_HOP;
    uint32_t settled = nav__wp_tree(wp, s->dist, &s->open, source, s->parent, s->seq);
    s->hop[source] = (uint16_t)source;
    for (uint32_t i = 1; i < settled; i++) {
        uint32_t v = s->seq[i], p = s->parent[v];
        s->hop[v] = p == source ? (uint16_t)v : s->hop[p];
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

/* ---- The bake -------------------------------------------------------------------------------- */

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
        s = nav__wp_labels_bake(wp, &d);
    } else {
        bake_job job = {.wp = wp};
        nav__work work = {.count = wp->count,
                          .init = scratch_init,
                          .run = bake_row,
                          .fini = scratch_free,
                          .ctx = &job,
                          .stage = "routes",
                          .progress = d.progress};
        s = nav__parallel(&work, d.threads);
    }
    if (nav_failed(s)) {
        nav_waypoints_destroy(wp);
        return s;
    }
    *out = wp;
    return NAV_SUCCESS;
}
