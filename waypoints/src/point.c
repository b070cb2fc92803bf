/* Query objects and paths between any two points of a grid's waypoint bake: each end joined to the
 * corners it sees, the cheapest combination through the distance table, the route by first moves. */
#include <math.h>

#include "alloc.h"
#include "grid_internal.h"
#include "log.h"
#include "nav/anyangle.h"
#include "waypoints_internal.h"

void nav_waypoints_query_destroy(nav_waypoints_query *q)
{
    if (!q) return;
    const nav_allocator a = q->allocator;
    nav__free(&a, q->g);
    nav__free(&a, q->next_arc);
    nav__free(&a, q->seen);
    nav__free(&a, q->in_open);
    nav_heap_destroy(&q->open);
    nav_heap_destroy(&q->near);
    nav__wp_scan_free(&q->scan, &a);
    nav__free(&a, q->start_corner);
    nav__free(&a, q->goal_corner);
    nav__free(&a, q->start_cost);
    nav__free(&a, q->goal_cost);
    nav__free(&a, q->start_checked);
    nav__free(&a, q->goal_checked);
    nav__free(&a, q);
}

nav_status nav_waypoints_query_create(const nav_waypoints *wp, const nav_waypoints_query_desc *desc,
                                      nav_waypoints_query **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!wp) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_waypoints_query_desc d = desc ? *desc : (nav_waypoints_query_desc){0};
    if (d.grid && (!wp->from_grid || nav_grid_fingerprint(d.grid) != wp->fingerprint)) {
        nav__logf(d.log, NAV_LOG_ERROR,
                  wp->from_grid ? "waypoints: the grid is not the one the waypoints were baked from "
                                  "(fingerprint %016llx, the bake's %016llx)"
                                : "waypoints: the waypoints were not baked from a grid",
                  (unsigned long long)nav_grid_fingerprint(d.grid), (unsigned long long)wp->fingerprint);
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    if (d.grid && !wp->corners.row_first) {
        nav__logf(d.log, NAV_LOG_ERROR,
                  "waypoints: the bake was loaded without its grid: load it with its grid "
                  "(nav_waypoints_load_nav or nav_waypoints_read_chunk)");
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    nav_allocator a;
    nav__allocator_resolve(&a, d.allocator);
    nav_waypoints_query *q = nav__calloc(&a, 1, sizeof *q);
    if (!q) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    q->allocator = a;
    q->wp = wp;
    uint32_t n = wp->count ? wp->count : 1;
    q->g = nav__calloc(&a, n, sizeof *q->g);
    q->next_arc = nav__calloc(&a, n, sizeof *q->next_arc);
    q->seen = nav__calloc(&a, n, sizeof *q->seen);
    q->in_open = nav__calloc(&a, n, sizeof *q->in_open);
    bool ok = q->g && q->next_arc && q->seen && q->in_open &&
              !nav_failed(nav_heap_init(&q->open, &a, n, n)) &&
              !nav_failed(nav_heap_init(&q->near, &a, 2 * n + 1, 0));
    if (ok && d.grid) {
        q->grid = d.grid;
        q->start_corner = nav__calloc(&a, n, sizeof *q->start_corner);
        q->goal_corner = nav__calloc(&a, n, sizeof *q->goal_corner);
        q->start_cost = nav__calloc(&a, n, sizeof *q->start_cost);
        q->goal_cost = nav__calloc(&a, n, sizeof *q->goal_cost);
        q->start_checked = nav__calloc(&a, n, sizeof *q->start_checked);
        q->goal_checked = nav__calloc(&a, n, sizeof *q->goal_checked);
        ok = q->start_corner && q->goal_corner && q->start_cost && q->goal_cost && q->start_checked &&
             q->goal_checked && !nav_failed(nav__wp_scan_init(&q->scan, &wp->corners, &a));
    }
    if (!ok) {
        nav_waypoints_query_destroy(q);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    *out = q;
    return NAV_SUCCESS;
}

size_t nav_waypoints_query_memory_bytes(const nav_waypoints_query *q)
{
    if (!q) return 0;
    size_t n = q->wp->count ? q->wp->count : 1;
    size_t bytes = sizeof *q +
                   n * (sizeof *q->g + sizeof *q->next_arc + sizeof *q->seen + sizeof *q->in_open) +
                   (size_t)(q->open.capacity + q->near.capacity) * sizeof(nav_heap_entry) +
                   (size_t)q->open.capacity * sizeof *q->open.pos;
    if (q->grid)
        bytes += (size_t)q->wp->count * 2 *
                     (sizeof *q->start_corner + sizeof *q->start_cost + sizeof *q->start_checked) +
                 nav__wp_scan_bytes(&q->wp->corners);
    return bytes;
}

/* The corners point (x, y) may see, each with a lower bound of its segment's cost (world units):
 * its length at the grid's cheapest terrain, which on grids of one cost is the cost itself. Returns
 * how many. */
static uint32_t candidates(nav_waypoints_query *q, double x, double y, const nav__wp_bound *bound,
                           uint32_t *corner, double *cost, uint8_t *checked)
{
    const nav_waypoints *wp = q->wp;
    const nav__wp_corners *c = &wp->corners;
    double factor = q->grid->min_cost * q->grid->desc.cell_size;
    uint32_t n = nav__wp_scan_corners(c, &q->scan, x, y, wp->pruned, bound, corner);
    for (uint32_t i = 0; i < n; i++) {
        cost[i] = hypot(c->x[corner[i]] - x, c->y[corner[i]] - y) * factor;
        checked[i] = 0;
    }
    return n;
}

/* Checks candidate i of an end exactly (the segment from (x, y) to it, or from it when `towards`):
 * its cost becomes the segment's, or INFINITY when the segment cannot be walked. */
static void check(nav_waypoints_query *q, double x, double y, bool towards, const uint32_t *corner,
                  double *cost, uint8_t *checked, uint32_t i)
{
    const nav__wp_corners *c = &q->wp->corners;
    double cx = c->x[corner[i]], cy = c->y[corner[i]], length;
    bool seen = towards ? nav_grid_anyangle_segment(q->grid, cx, cy, x, y, &length)
                        : nav_grid_anyangle_segment(q->grid, x, y, cx, cy, &length);
    cost[i] = seen ? length * q->grid->desc.cell_size : INFINITY;
    checked[i] = 1;
}

/* The cheapest way start -> a -> (table) -> b -> goal found by one round: a = NAV_WAYPOINTS_NONE
 * when none beats `best`. */
typedef struct via {
    double cost, cost_a, cost_b;
    uint32_t a, b;
} via;

/* One round: the candidates of both ends in the ellipse of points p with |p - start| + |p - goal|
 * <= sum (grid units; INFINITY: every one), then their cheapest combination below `best`, segments
 * costed by lower bounds and checked only when their combination wins: best first, as A* does, so
 * most candidates are never walked. Each pass over the pairs checks one more candidate or ends. */
static via through_corners(nav_waypoints_query *q, double sx, double sy, double gx, double gy, double best,
                           double sum, nav_waypoints_result *r)
{
    const nav_waypoints *wp = q->wp;
    via v = {.a = NAV_WAYPOINTS_NONE, .b = NAV_WAYPOINTS_NONE};
    nav__wp_bound from_start = {gx, gy, sum}, from_goal = {sx, sy, sum};
    uint32_t na = candidates(q, sx, sy, &from_start, q->start_corner, q->start_cost, q->start_checked);
    uint32_t nb = candidates(q, gx, gy, &from_goal, q->goal_corner, q->goal_cost, q->goal_checked);
    r->start_candidates += na;
    r->goal_candidates += nb;
    size_t n = wp->count;
    for (;;) {
        double round_best = best;
        uint32_t i_best = UINT32_MAX, j_best = UINT32_MAX;
        for (uint32_t i = 0; i < na; i++) {
            double ca = q->start_cost[i];
            if (!(ca < round_best)) continue;
            const float *row = wp->dist + (size_t)q->start_corner[i] * n;
            for (uint32_t j = 0; j < nb; j++) {
                double total = ca + (double)row[q->goal_corner[j]] + q->goal_cost[j];
                if (total < round_best) {
                    round_best = total;
                    i_best = i;
                    j_best = j;
                }
            }
        }
        if (i_best == UINT32_MAX) return v; /* nothing beats `best` */
        /* a check that finds the bound was the cost (one terrain cost: the usual case) leaves this
         * combination the best: no new pass */
        if (!q->start_checked[i_best]) {
            double bound = q->start_cost[i_best];
            check(q, sx, sy, false, q->start_corner, q->start_cost, q->start_checked, i_best);
            if (!(q->start_cost[i_best] <= bound * (1 + 1e-12))) continue;
            round_best += q->start_cost[i_best] - bound;
        }
        if (!q->goal_checked[j_best]) {
            double bound = q->goal_cost[j_best];
            check(q, gx, gy, true, q->goal_corner, q->goal_cost, q->goal_checked, j_best);
            if (!(q->goal_cost[j_best] <= bound * (1 + 1e-12))) continue;
            round_best += q->goal_cost[j_best] - bound;
        }
        return (via){round_best, q->start_cost[i_best], q->goal_cost[j_best], q->start_corner[i_best],
                     q->goal_corner[j_best]};
    }
}

nav_status nav_waypoints_find_path(nav_waypoints_query *q, nav_vec3 start, nav_vec3 goal, nav_path *out,
                                   nav_waypoints_result *result)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_path_clear(out);
    out->cost = 0;
    nav_waypoints_result r = {.from = NAV_WAYPOINTS_NONE, .to = NAV_WAYPOINTS_NONE};
    if (result) *result = r;
    if (!q || !q->grid) return NAV_FAILURE | NAV_INVALID_PARAM;
    const nav_waypoints *wp = q->wp;
    const nav_grid *grid = q->grid;
    double sx, sy, gx, gy, size = grid->desc.cell_size, direct = INFINITY;
    nav_grid_world_to_units(grid, start, &sx, &sy);
    nav_grid_world_to_units(grid, goal, &gx, &gy);
    if (!nav_grid_anyangle_segment(grid, sx, sy, sx, sy, NULL) ||
        !nav_grid_anyangle_segment(grid, gx, gy, gx, gy, NULL))
        return NAV_FAILURE | NAV_INVALID_PARAM;
    double best = nav_grid_anyangle_segment(grid, sx, sy, gx, gy, &direct) ? direct * size : INFINITY;
    uint32_t best_a = NAV_WAYPOINTS_NONE, best_b = NAV_WAYPOINTS_NONE;
    double cost_a = 0, cost_b = 0;
    if (!(best < INFINITY && wp->pruned)) {
        /* Every corner of a path of cost C lies in the ellipse |p - start| + |p - goal| <= C / the
         * cheapest cost a unit. The first round scans the thinnest (paths that bend a little find
         * their corners there, and a path that bends more gives the ellipse of the next), then the
         * one of the best path found, or everything: exact once the best found fits. Measured
         * (callgrind, den520d, brc000d, AR0602SR, Berlin_0_256, a sample of each): starting at the
         * straight distance + 2 cells, 129k to 201k instructions a query; + 1 cell, 132k to 203k;
         * 1.05, 1.1, 1.2 times it + 1 cell, 133k to 204k, 135k to 208k, 146k to 218k; no ellipse,
         * 165k to 350k. */
        double unit = grid->min_cost * size, sum = hypot(gx - sx, gy - sy) * NAV__WP_FIRST_ELLIPSE + 2;
        for (int round = 0;; round++) {
            via v = through_corners(q, sx, sy, gx, gy, best, sum, &r);
            if (v.a != NAV_WAYPOINTS_NONE) {
                best = v.cost;
                cost_a = v.cost_a;
                cost_b = v.cost_b;
                best_a = v.a;
                best_b = v.b;
            }
            if (!(sum < INFINITY) || best / unit <= sum) break;
            sum = best < INFINITY ? best / unit * (1 + 1e-9) + 1e-9 : round > 0 ? INFINITY : sum * 4;
            r.rounds++;
        }
    }
    if (!(best < INFINITY)) {
        if (result) *result = r;
        return NAV_FAILURE | NAV_UNREACHABLE;
    }
    nav_status s = nav_path_push(out, start, NAV_WAYPOINTS_NONE);
    double cost = direct * size;
    if (best_a == NAV_WAYPOINTS_NONE) {
        r.straight = true;
    } else {
        cost = cost_a;
        if (!nav_failed(s)) s = nav__wp_walk(wp, NULL, best_a, best_b, out, &cost);
        cost += cost_b;
        r.from = best_a;
        r.to = best_b;
    }
    if (!nav_failed(s)) s = nav_path_push(out, goal, NAV_WAYPOINTS_NONE);
    if (nav_failed(s)) {
        nav_path_clear(out);
        return s;
    }
    out->cost = cost;
    r.cost = cost;
    if (result) *result = r;
    return NAV_SUCCESS;
}
