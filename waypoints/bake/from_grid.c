/* Waypoint graphs made from grids: a waypoint at every convex corner of the blocked cells, a link
 * between every two that see each other under the any-angle rule (nav/anyangle.h), and on grids
 * where that is safe only the links a shortest path can use (taut at both ends).
 *
 * The corners each scan for the corners they may see (corners.c), in parallel; each candidate is
 * then checked by nav_grid_anyangle_segment, which also prices it (terrain) and refuses climbs, so
 * a link that climbs too high one way is one-way. Every corner keeps its own list, so the graph is
 * the same at any thread count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "ds.h"
#include "grid_internal.h"
#include "log.h"
#include "nav/anyangle.h"
#include "waypoints_internal.h"

typedef struct vis_job {
    const nav_grid *grid;
    const nav__wp_corners *c;
    const nav_allocator *a;
    bool prune;
    nav__wp_seen **found; /* per corner u: stb_ds array of the corners above u it sees */
} vis_job;

typedef struct vis_scratch {
    nav__wp_scan scan;
    uint32_t *candidates;
} vis_scratch;

static bool vis_init(void *ctx, void **out)
{
    vis_job *job = ctx;
    vis_scratch *s = nav__calloc(job->a, 1, sizeof *s);
    *out = s;
    if (!s) return false;
    s->candidates = nav__calloc(job->a, job->c->count ? job->c->count : 1, sizeof *s->candidates);
    return s->candidates && !nav_failed(nav__wp_scan_init(&s->scan, job->c, job->a));
}

static void vis_fini(void *ctx, void *scratch)
{
    vis_job *job = ctx;
    vis_scratch *s = scratch;
    if (!s) return;
    nav__wp_scan_free(&s->scan, job->a);
    nav__free(job->a, s->candidates);
    nav__free(job->a, s);
}

static int by_v(const void *a, const void *b)
{
    const nav__wp_seen *x = a, *y = b;
    return (x->v > y->v) - (x->v < y->v);
}

static bool vis_corner(void *ctx, void *scratch, uint32_t u)
{
    vis_job *job = ctx;
    vis_scratch *s = scratch;
    const nav__wp_corners *c = job->c;
    double ux = c->x[u], uy = c->y[u];
    uint32_t n = nav__wp_scan_corners(c, &s->scan, ux, uy, job->prune, s->candidates);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = s->candidates[i];
        if (v <= u) continue; /* each pair once, from its lower corner */
        double vx = c->x[v], vy = c->y[v];
        if (job->prune && !nav__wp_taut(c, u, vx - ux, vy - uy)) continue;
        double there = INFINITY, back = INFINITY;
        if (!nav_grid_anyangle_segment(job->grid, ux, uy, vx, vy, &there)) there = INFINITY;
        if (!job->grid->heights)
            back = there; /* without heights the rule is the same both ways */
        else if (!nav_grid_anyangle_segment(job->grid, vx, vy, ux, uy, &back))
            back = INFINITY;
        if ((there < INFINITY || back < INFINITY) &&
            !nav__arr_push(job->found[u], ((nav__wp_seen){v, there, back})))
            return false; /* out of memory: the work stops */
    }
    if (arrlen(job->found[u]) > 1) qsort(job->found[u], arrlen(job->found[u]), sizeof(nav__wp_seen), by_v);
    return true;
}

/* The height of the corner's free cell diagonal to its blocked one (the one it looks out over). */
static float corner_height(const nav_grid *grid, const nav__wp_corners *c, uint32_t i)
{
    if (!grid->heights) return 0;
    int64_t x = c->quad[i] & 1 ? c->x[i] - 1 : c->x[i], y = c->quad[i] & 2 ? c->y[i] - 1 : c->y[i];
    return nav__cell_height(grid, (uint32_t)y * grid->width + (uint32_t)x);
}

bool nav__wp_grid_prunable(const nav_grid *grid)
{
    return grid->uniform_cost > 0 && (!grid->heights || !(grid->desc.max_climb < INFINITY));
}

nav_status nav__wp_graph_from_grid(const nav_grid *grid, const nav_waypoint_grid_desc *desc,
                                   nav_waypoint_graph *out, nav__wp_corners *corners)
{
    nav_waypoint_grid_desc d = desc ? *desc : (nav_waypoint_grid_desc){0};
    nav_allocator a;
    nav__allocator_resolve(&a, d.allocator);
    uint32_t limit = d.max_waypoints ? d.max_waypoints : NAV_WAYPOINTS_DEFAULT_MAX;
    if (limit > NAV_WAYPOINTS_LIMIT) limit = NAV_WAYPOINTS_LIMIT;
    nav_status s = nav__wp_corners_find(grid, &a, corners);
    if (nav_failed(s)) return s;
    const nav__wp_corners *c = corners;
    if (c->count > limit) {
        nav__logf(d.log, NAV_LOG_ERROR,
                  "waypoints: the grid has %u convex corners, more than the limit of %u waypoints "
                  "(max_waypoints raises it to at most %u, the most a bake holds)",
                  c->count, limit, NAV_WAYPOINTS_LIMIT);
        nav__wp_corners_free(corners, &a);
        return NAV_FAILURE | NAV_TOO_LARGE;
    }
    vis_job job = {grid, c, &a, nav__wp_grid_prunable(grid) && !d.keep_all_links, NULL};
    job.found = nav__calloc(&a, c->count ? c->count : 1, sizeof *job.found);
    if (!job.found) s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    nav__work work = {.count = c->count,
                      .init = vis_init,
                      .run = vis_corner,
                      .fini = vis_fini,
                      .ctx = &job,
                      .stage = "visibility",
                      .progress = d.progress};
    if (!nav_failed(s))
        s = nav__wp_graph_by_visibility(&work, d.threads, job.found, grid->desc.cell_size, NULL, 0, &a, out);
    if (!nav_failed(s)) {
        nav_waypoint *points = out->storage;
        for (uint32_t i = 0; i < c->count; i++) {
            nav_vec3 p = nav_grid_units_to_world(grid, c->x[i], c->y[i]);
            p.y = (float)((double)grid->desc.origin.y + corner_height(grid, c, i));
            points[i] = (nav_waypoint){.position = p};
        }
    }
    nav__free(&a, job.found);
    if (nav_failed(s)) nav__wp_corners_free(corners, &a);
    return s;
}

nav_status nav_waypoint_graph_from_grid(const nav_grid *grid, const nav_waypoint_grid_desc *desc,
                                        nav_waypoint_graph *out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = (nav_waypoint_graph){0};
    if (!grid) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav__wp_corners corners;
    nav_status s = nav__wp_graph_from_grid(grid, desc, out, &corners);
    if (nav_failed(s)) return s;
    nav_allocator a;
    nav__allocator_resolve(&a, desc ? desc->allocator : NULL);
    nav__wp_corners_free(&corners, &a);
    return s;
}

nav_status nav_waypoints_bake_grid(const nav_grid *grid, const nav_waypoint_grid_desc *desc,
                                   nav_waypoints **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!grid) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_waypoint_grid_desc d = desc ? *desc : (nav_waypoint_grid_desc){0};
    nav_allocator a;
    nav__allocator_resolve(&a, d.allocator);
    nav_waypoint_graph graph;
    nav__wp_corners corners;
    nav_status s = nav__wp_graph_from_grid(grid, &d, &graph, &corners);
    if (nav_failed(s)) return s;
    nav_waypoints_bake_desc bake = {.threads = d.threads,
                                    .max_waypoints = d.max_waypoints,
                                    .dense_max = d.dense_max,
                                    .allocator = d.allocator,
                                    .log = d.log,
                                    .progress = d.progress};
    s = nav_waypoints_bake(&graph, &bake, out);
    nav_waypoint_graph_release(&graph);
    if (nav_failed(s)) {
        nav__wp_corners_free(&corners, &a);
        return s;
    }
    nav_waypoints *wp = *out;
    wp->from_grid = true;
    wp->pruned = nav__wp_grid_prunable(grid) && !d.keep_all_links;
    wp->fingerprint = nav_grid_fingerprint(grid);
    wp->corners = corners;
    s = nav__wp_sight_build(&wp->corners, wp->pruned, nav__wp_sight_shift(&wp->corners), d.threads,
                            d.progress, &wp->allocator, &wp->sight);
    if (!nav_failed(s)) s = nav__wp_corner_info_build(wp, grid, d.threads);
    if (nav_failed(s)) {
        nav_waypoints_destroy(wp);
        *out = NULL;
    }
    return s;
}

/* nav__wp_graph_by_visibility's graph of what the work found. */
static nav_status graph_of_pairs(uint32_t count, nav__wp_seen *const *found, double scale,
                                 const nav_waypoint_link *extra, uint32_t extra_count, const nav_allocator *a,
                                 nav_waypoint_graph *out)
{
    size_t links = extra_count;
    for (uint32_t u = 0; u < count; u++)
        for (ptrdiff_t i = 0; i < arrlen(found[u]); i++) {
            const nav__wp_seen *e = &found[u][i];
            links += e->there < INFINITY && e->back < INFINITY && e->there == e->back
                         ? 1
                         : (e->there < INFINITY) + (e->back < INFINITY);
        }
    if (links > UINT32_MAX) return NAV_FAILURE | NAV_TOO_LARGE;
    size_t head = ((size_t)count * sizeof(nav_waypoint) + 15) / 16 * 16;
    void *block = nav__calloc(a, 1, head + (links ? links : 1) * sizeof(nav_waypoint_link));
    if (!block) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    nav_waypoint_link *link = (nav_waypoint_link *)((char *)block + head);
    size_t k = 0;
    for (uint32_t u = 0; u < count; u++)
        for (ptrdiff_t i = 0; i < arrlen(found[u]); i++) {
            const nav__wp_seen *e = &found[u][i];
            if (e->there < INFINITY && e->back < INFINITY && e->there == e->back) {
                link[k++] = (nav_waypoint_link){.from = u, .to = e->v, .cost = e->there * scale};
                continue;
            }
            if (e->there < INFINITY)
                link[k++] =
                    (nav_waypoint_link){.from = u, .to = e->v, .cost = e->there * scale, .one_way = true};
            if (e->back < INFINITY)
                link[k++] =
                    (nav_waypoint_link){.from = e->v, .to = u, .cost = e->back * scale, .one_way = true};
        }
    for (uint32_t i = 0; i < extra_count; i++) link[k++] = extra[i];
    *out = (nav_waypoint_graph){.waypoints = block,
                                .waypoint_count = count,
                                .links = link,
                                .link_count = (uint32_t)links,
                                .storage = block,
                                .allocator = *a};
    return NAV_SUCCESS;
}

nav_status nav__wp_graph_by_visibility(const nav__work *work, uint32_t threads, nav__wp_seen **found,
                                       double scale, const nav_waypoint_link *extra, uint32_t extra_count,
                                       const nav_allocator *a, nav_waypoint_graph *out)
{
    nav_status s = nav__parallel(work, threads);
    if (!nav_failed(s)) s = graph_of_pairs(work->count, found, scale, extra, extra_count, a, out);
    for (uint32_t u = 0; u < work->count; u++) arrfree(found[u]);
    return s;
}
