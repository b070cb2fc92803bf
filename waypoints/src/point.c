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
    nav__free(&a, q->start);
    nav__free(&a, q->goal);
    nav__free(&a, q->goal_column);
    nav__free(&a, q->goal_cost);
    nav__free(&a, q->open_bounds);
    nav__free(&a, q);
}

/* The most candidates an end of a point query can have: the corners of up to four blocks (a point
 * at a grid vertex), each corner once. */
static uint32_t candidate_capacity(const nav_waypoints *wp)
{
    uint64_t most = 4 * (uint64_t)wp->sight.longest;
    return most < wp->count ? (most ? (uint32_t)most : 1) : (wp->count ? wp->count : 1);
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
        uint32_t m = candidate_capacity(wp);
        q->start = nav__calloc(&a, m, sizeof *q->start);
        q->goal = nav__calloc(&a, m, sizeof *q->goal);
        q->goal_column = nav__calloc(&a, m, sizeof *q->goal_column);
        q->goal_cost = nav__calloc(&a, m, sizeof *q->goal_cost);
        q->open_bounds = nav__calloc(&a, m, sizeof *q->open_bounds);
        ok = q->start && q->goal && q->goal_column && q->goal_cost && q->open_bounds;
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
        bytes += (size_t)candidate_capacity(q->wp) * (2 * sizeof *q->start + sizeof *q->goal_column +
                                                      sizeof *q->goal_cost + sizeof *q->open_bounds);
    return bytes;
}

/* The corners point (x, y) may see (from the lists of the free cells whose closed squares hold it:
 * one, or on an edge two, at a grid vertex up to four; taut ones only on a pruned graph) into out,
 * each with a lower bound of its segment's cost (world units): its length at the grid's cheapest
 * terrain, which on grids of one cost is the cost itself; and of the whole path through it to the
 * other end (ox, oy), the straight distance there being another such bound. Returns how many. */
static uint32_t candidates(const nav_waypoints_query *q, double x, double y, double ox, double oy,
                           nav__wp_candidate *out)
{
    const nav_waypoints *wp = q->wp;
    const nav__wp_corners *c = &wp->corners;
    const nav__wp_sight *sight = &wp->sight;
    double factor = q->grid->min_cost * q->grid->desc.cell_size;
    int64_t fx = (int64_t)floor(x), fy = (int64_t)floor(y);
    uint32_t n = 0, blocks[4], seen = 0;
    for (int64_t cy = fy; cy >= fy - 1; cy--) {
        for (int64_t cx = fx; cx >= fx - 1; cx--) {
            bool holds = (cx == fx || (double)fx == x) && (cy == fy || (double)fy == y);
            if (!holds || cx < 0 || cy < 0 || cx >= c->width || cy >= c->height || nav__wp_blocked(c, cx, cy))
                continue;
            uint32_t b = (uint32_t)(cy >> sight->shift) * sight->across + (uint32_t)(cx >> sight->shift);
            bool again = false;
            for (uint32_t k = 0; k < seen; k++) again |= blocks[k] == b;
            if (again) continue;
            blocks[seen++] = b;
            uint32_t before = n; /* a corner in two lists is taken once */
            for (uint32_t k = sight->first[b]; k < sight->first[b + 1]; k++) {
                uint32_t v = sight->corner[k];
                double dx = c->x[v] - x, dy = c->y[v] - y;
                if (wp->pruned && !nav__wp_taut(c, v, dx, dy)) continue;
                bool twice = false;
                for (uint32_t t = 0; t < before && !twice; t++) twice = out[t].corner == v;
                if (twice) continue;
                double ex = c->x[v] - ox, ey = c->y[v] - oy;
                double cost = sqrt(dx * dx + dy * dy) * factor;
                /* the table's floats may round a route's cost down a little: the bound gives way by more */
                double rest = sqrt(ex * ex + ey * ey) * factor * (1 - 1e-6);
                out[n++] =
                    (nav__wp_candidate){.corner = v, .via = UINT32_MAX, .cost = cost, .total = cost + rest};
            }
        }
    }
    return n;
}

/* Checks candidate c of an end exactly (the segment from (x, y) to it, or from it when `towards`):
 * its cost becomes the segment's, or INFINITY when the segment cannot be walked. Returns by how much
 * the cost grew. */
static double check(const nav_waypoints_query *q, double x, double y, bool towards, nav__wp_candidate *c,
                    nav_waypoints_result *r)
{
    const nav__wp_corners *corners = &q->wp->corners;
    double cx = corners->x[c->corner], cy = corners->y[c->corner], length, bound = c->cost;
    bool seen = towards ? nav_grid_anyangle_segment(q->grid, cx, cy, x, y, &length)
                        : nav_grid_anyangle_segment(q->grid, x, y, cx, cy, &length);
    c->cost = seen ? length * q->grid->desc.cell_size : INFINITY;
    c->checked = true;
    r->checks++;
    /* rounding aside, a check that finds the bound was the cost (one terrain cost: the usual case)
     * changes nothing */
    return c->cost <= bound * (1 + 1e-12) ? 0 : c->cost - bound;
}

/* Start candidate a's cheapest combination with the goal's: one pass over row a of the table. */
static void combine(const nav_waypoints_query *q, nav__wp_candidate *a, uint32_t nb)
{
    const nav_waypoints *wp = q->wp;
    const float *row = wp->dist + (size_t)a->corner * wp->count;
    const uint32_t *column = q->goal_column;
    const double *cost = q->goal_cost;
    double least = INFINITY;
    uint32_t via = UINT32_MAX;
    for (uint32_t j = 0; j < nb; j++) {
        double t = (double)row[column[j]] + cost[j];
        if (t < least) least = t, via = j;
    }
    a->total = a->cost + least;
    a->via = via;
}

/* combine on compressed rows, which keep no distances: each route walked, the most promising goal
 * candidate first (least straight distance plus cost), the others given up as soon as their cost so
 * far plus the straight distance on cannot beat the least found, nor `limit` (a total that some
 * other start candidate already reaches). When nothing beats limit, a's total becomes limit, a lower
 * bound, and a is combined again (with limit `best`) if it ever comes first. */
static void combine_walked(const nav_waypoints_query *q, nav__wp_candidate *a, uint32_t nb, double limit)
{
    const nav_waypoints *wp = q->wp;
    const nav__wp_corners *c = &wp->corners;
    double factor = q->grid->min_cost * q->grid->desc.cell_size;
    uint32_t first = UINT32_MAX;
    double first_bound = INFINITY;
    for (uint32_t j = 0; j < nb; j++) {
        uint32_t b = q->goal_column[j];
        double dx = c->x[a->corner] - c->x[b], dy = c->y[a->corner] - c->y[b];
        double bound = sqrt(dx * dx + dy * dy) * factor + q->goal_cost[j];
        if (bound < first_bound) first_bound = bound, first = j;
    }
    double least = limit - a->cost;
    uint32_t via = UINT32_MAX;
    for (uint32_t k = 0; k < nb && first != UINT32_MAX; k++) {
        uint32_t j = (first + k) % nb; /* first, then the others */
        double d = nav__wp_walked(wp, a->corner, q->goal_column[j], least - q->goal_cost[j], factor);
        if (d + q->goal_cost[j] < least) least = d + q->goal_cost[j], via = j;
    }
    a->total = via == UINT32_MAX ? limit : a->cost + least;
    a->via = via;
}

/* The cheapest way start -> a -> (table) -> b -> goal: a = NAV_WAYPOINTS_NONE when none beats `best`. */
typedef struct via {
    double cost, cost_a, cost_b;
    uint32_t a, b;
} via;

/* The start candidates by bound: a binary min-heap of (total, index), filled all at once. */
static bool bound_less(const nav__wp_bound *x, const nav__wp_bound *y)
{
    return x->total < y->total || (x->total == y->total && x->index < y->index);
}

static void bound_sift_down(nav__wp_bound *heap, uint32_t count, uint32_t at)
{
    nav__wp_bound e = heap[at];
    for (;;) {
        uint32_t child = 2 * at + 1;
        if (child >= count) break;
        if (child + 1 < count && bound_less(&heap[child + 1], &heap[child])) child++;
        if (!bound_less(&heap[child], &e)) break;
        heap[at] = heap[child];
        at = child;
    }
    heap[at] = e;
}

static void bound_push(nav__wp_bound *heap, uint32_t *count, double total, uint32_t index)
{
    uint32_t at = (*count)++;
    nav__wp_bound e = {total, index};
    while (at > 0 && bound_less(&e, &heap[(at - 1) / 2])) {
        heap[at] = heap[(at - 1) / 2];
        at = (at - 1) / 2;
    }
    heap[at] = e;
}

static uint32_t bound_pop(nav__wp_bound *heap, uint32_t *count)
{
    uint32_t index = heap[0].index;
    heap[0] = heap[--*count];
    if (*count) bound_sift_down(heap, *count, 0);
    return index;
}

/* Best first, as A* is: every start candidate holds a lower bound of the paths through it, kept in
 * a heap; the least is refined until it is exact. Its row of the table is read only when it comes
 * first (the bound, its segment plus the straight distance on to the goal, is close: few rows are
 * read), and its segments are checked only when its combination comes first. A failed or dearer
 * goal segment sends the start candidates that chose it back to their rows. */
static via through_corners(nav_waypoints_query *q, double sx, double sy, double gx, double gy, double best,
                           nav_waypoints_result *r)
{
    via none = {.a = NAV_WAYPOINTS_NONE, .b = NAV_WAYPOINTS_NONE};
    uint32_t na = candidates(q, sx, sy, gx, gy, q->start), nb = candidates(q, gx, gy, sx, sy, q->goal);
    r->start_candidates += na;
    r->goal_candidates += nb;
    uint32_t pivot = UINT32_MAX;        /* the goal candidate nearest the goal */
    for (uint32_t j = 0; j < nb; j++) { /* the goal's side as the rows' loop reads it */
        q->goal_column[j] = q->goal[j].corner;
        q->goal_cost[j] = q->goal[j].cost;
        if (pivot == UINT32_MAX || q->goal[j].cost < q->goal[pivot].cost) pivot = j;
    }
    /* A second bound through the table: for any goal candidate b, d(a, b) >= d(a, p) - d(b, p) for the
     * pivot p (the triangle inequality), so d(a, b) + cost(b) >= d(a, p) + min over b of (cost(b) -
     * d(b, p)) = d(a, p) + shift: one distance a candidate (a table read; in compressed rows a walk,
     * few of them long: the goal's candidates are near p, and one walk a start candidate buys bounds
     * that spare most of them the walks to every goal candidate). */
    const nav_waypoints *wp = q->wp;
    double shift = INFINITY;
    if (pivot != UINT32_MAX) {
        uint32_t p = q->goal[pivot].corner;
        for (uint32_t j = 0; j < nb; j++)
            shift = fmin(shift, q->goal_cost[j] - nav_waypoints_distance(wp, q->goal_column[j], p));
        if (shift > -INFINITY)
            for (uint32_t k = 0; k < na; k++) {
                if (!(q->start[k].total < best)) continue;
                double through = nav_waypoints_distance(wp, q->start[k].corner, p) + shift;
                through -= 1e-6 * fabs(through) + 1e-9; /* the floats' rounding, and more */
                double total = q->start[k].cost + through;
                if (total > q->start[k].total) q->start[k].total = total;
            }
    }
    nav__wp_bound *open = q->open_bounds;
    uint32_t open_count = 0;
    for (uint32_t k = 0; k < na; k++)
        if (q->start[k].total < best) open[open_count++] = (nav__wp_bound){q->start[k].total, k};
    for (uint32_t k = open_count / 2; k-- > 0;) bound_sift_down(open, open_count, k);
    double upper = best; /* compressed: the least total a combination reached */
    while (open_count) {
        uint32_t i = bound_pop(open, &open_count);
        nav__wp_candidate *a = &q->start[i];
        double grew = 0;
        if (a->via == UINT32_MAX) {
            if (wp->compressed) {
                combine_walked(q, a, nb, a->total < upper ? upper : best);
                if (a->via != UINT32_MAX && a->total < upper) upper = a->total;
            } else {
                combine(q, a, nb);
            }
        } else if (!a->checked && (grew = check(q, sx, sy, false, a, r)) > 0) {
            a->total += grew;
        } else {
            uint32_t j = a->via;
            nav__wp_candidate *b = &q->goal[j];
            if (b->checked || check(q, gx, gy, true, b, r) == 0)
                return (via){a->total, a->cost, b->cost, a->corner, b->corner};
            q->goal_cost[j] = b->cost;
            for (uint32_t k = 0; k < na; k++)
                if (q->start[k].via == j) q->start[k].via = UINT32_MAX; /* totals stay lower bounds */
        }
        if (a->total < best) bound_push(open, &open_count, a->total, i);
    }
    return none;
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
    if (!(best < INFINITY && wp->pruned)) { /* on a pruned graph the straight line is the path */
        via v = through_corners(q, sx, sy, gx, gy, best, &r);
        if (v.a != NAV_WAYPOINTS_NONE) {
            best = v.cost;
            cost_a = v.cost_a;
            cost_b = v.cost_b;
            best_a = v.a;
            best_b = v.b;
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
