/* A waypoint graph's baked form (nav/waypoints.h) at run time: the graph checked and flattened into
 * arcs (by source and by target), its k-d tree, and its end. The bake (waypoints/bake/bake.c) and the
 * chunk reader (chunk.c) both assemble a graph here, then fill in its tables or labels. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "log.h"
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
    nav__wp_labels_free(wp);
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
    if (!nav_failed(s)) wp->symmetric = nav__wp_symmetric(wp);
    wp->compressed = compressed;
    if (!nav_failed(s) && !compressed) {
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
