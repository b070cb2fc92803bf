/* Query objects and paths between any two points of a grid's waypoint bake: each end joined to the
 * corners it sees, the cheapest combination through the distance table (or the hub labels), the
 * route by first moves. */
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
    nav__free(&a, q->h);
    nav__free(&a, q->next_arc);
    nav__free(&a, q->seen);
    nav__free(&a, q->in_open);
    nav_heap_destroy(&q->open);
    nav_heap_destroy(&q->near);
    nav__free(&a, q->start);
    nav__free(&a, q->goal);
    nav__free(&a, q->goal_column);
    nav__free(&a, q->goal_cost);
    nav__free(&a, q->goal_index);
    nav__free(&a, q->open_bounds);
    nav__free(&a, q->hub_best);
    nav__free(&a, q->hub_via);
    nav__free(&a, q->hub_touched);
    nav__free(&a, q);
}

/* The most candidates an end of a point query can have: the corners of up to four blocks (a point
 * at a grid vertex), each corner once; the goal's end up to twice that (the start's paths of one
 * corner added). */
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
    q->h = nav__calloc(&a, n, sizeof *q->h);
    q->next_arc = nav__calloc(&a, n, sizeof *q->next_arc);
    q->seen = nav__calloc(&a, n, sizeof *q->seen);
    q->in_open = nav__calloc(&a, n, sizeof *q->in_open);
    bool ok = q->g && q->h && q->next_arc && q->seen && q->in_open &&
              !nav_failed(nav_heap_init(&q->open, &a, n, n)) &&
              !nav_failed(nav_heap_init(&q->near, &a, 2 * n + 1, 0));
    if (ok && d.grid) {
        q->grid = d.grid;
        uint32_t m = candidate_capacity(wp);
        q->start = nav__calloc(&a, m, sizeof *q->start);
        q->goal = nav__calloc(&a, 2 * (size_t)m, sizeof *q->goal);
        q->goal_column = nav__calloc(&a, 2 * (size_t)m, sizeof *q->goal_column);
        q->goal_cost = nav__calloc(&a, 2 * (size_t)m, sizeof *q->goal_cost);
        q->goal_index = nav__calloc(&a, 2 * (size_t)m, sizeof *q->goal_index);
        q->open_bounds = nav__calloc(&a, m, sizeof *q->open_bounds);
        ok = q->start && q->goal && q->goal_column && q->goal_cost && q->goal_index && q->open_bounds;
    }
    if (ok && wp->compressed) { /* point queries' folds, and the bounds of route searches */
        q->hub_best = nav__alloc(&a, (size_t)n * sizeof *q->hub_best);
        q->hub_via = nav__calloc(&a, n, sizeof *q->hub_via);
        q->hub_touched = nav__calloc(&a, n, sizeof *q->hub_touched);
        ok = q->hub_best && q->hub_via && q->hub_touched;
        for (uint32_t h = 0; ok && h < n; h++) q->hub_best[h] = INFINITY;
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
    size_t bytes =
        sizeof *q +
        n * (sizeof *q->g + sizeof *q->h + sizeof *q->next_arc + sizeof *q->seen + sizeof *q->in_open) +
        (size_t)(q->open.capacity + q->near.capacity) * sizeof(nav_heap_entry) +
        (size_t)q->open.capacity * sizeof *q->open.pos;
    if (q->grid)
        bytes +=
            (size_t)candidate_capacity(q->wp) *
            (sizeof *q->start + sizeof *q->open_bounds +
             2 * (sizeof *q->goal + sizeof *q->goal_column + sizeof *q->goal_cost + sizeof *q->goal_index));
    if (q->hub_best) bytes += n * (sizeof *q->hub_best + sizeof *q->hub_via + sizeof *q->hub_touched);
    return bytes;
}

/* Corner v as a candidate of point (x, y), the other end at (ox, oy): a lower bound of its
 * segment's cost (world units): its length at the grid's cheapest terrain (`factor`: that cost a
 * unit), which on grids of one cost is the cost itself; and of the whole path through it, the
 * straight distance on to the other end being another such bound. When the point surely sees v
 * (`seen`: the sight lists' sure bits, on grids of one cost without heights) the cost is exact, as
 * check works it out. */
static nav__wp_candidate candidate(const nav_waypoints_query *q, uint32_t v, const nav__wp_corner_info *info,
                                   double x, double y, double ox, double oy, double factor, bool seen)
{
    double dx = info->x - x, dy = info->y - y, ex = info->x - ox, ey = info->y - oy;
    double length = sqrt(dx * dx + dy * dy);
    double cost = seen ? length * q->grid->uniform_cost * q->grid->desc.cell_size : length * factor;
    /* the table's floats may round a route's cost down a little: the bound gives way by more */
    double rest = sqrt(ex * ex + ey * ey) * factor * (1 - 1e-6);
    return (nav__wp_candidate){
        .corner = v, .via = UINT32_MAX, .cost = cost, .total = cost + rest, .checked = seen};
}

/* The corners point (x, y) may see (from the lists of the free cells whose closed squares hold it:
 * one, or on an edge two, at a grid vertex up to four), each once, into out (*n of them; q->seen
 * marks them with `mark`). On a pruned graph only those a shortest path to the other end (ox, oy)
 * may bend at first (`goal` false) or last (true): the goal's end takes those where it may come in
 * by a link (tested in the first two parts of each list; the others are marked mark + 1, listed),
 * the start's end also those where it may go straight on to the goal (a path of one corner), which
 * it adds to the goal's candidates (q->goal, *goal_n) when the goal's lists have them but the goal
 * did not take them (marked goal_mark + 1). */
static void candidates(nav_waypoints_query *q, double x, double y, double ox, double oy, bool goal,
                       uint32_t mark, nav__wp_candidate *out, uint32_t *n, uint32_t goal_mark,
                       uint32_t *goal_n)
{
    const nav_waypoints *wp = q->wp;
    const nav__wp_corners *c = &wp->corners;
    const nav__wp_sight *sight = &wp->sight;
    double factor = q->grid->min_cost * q->grid->desc.cell_size;
    int64_t fx = (int64_t)x, fy = (int64_t)y; /* floor: the point is on the map (x, y >= 0) */
    uint32_t blocks[4], seen = 0;
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
            uint32_t first = sight->first[b], tested = first + sight->part[2 * b],
                     linked = first + sight->part[2 * b + 1], end = goal ? linked : sight->first[b + 1];
            for (uint32_t k = first; k < end; k++) {
                uint32_t v = sight->corner[k], stamp = q->seen[v];
                /* the start's corners of a path of one corner need the goal to list them too; those
                 * of the list's last part can be nothing else, so they go before their record is read */
                bool goal_lists = !goal && (stamp == goal_mark || stamp == goal_mark + 1);
                if (!goal && k >= linked && !goal_lists) continue;
                const nav__wp_corner_info *info = &sight->info[v];
                double ex = x - info->x, ey = y - info->y, fx_ = ox - info->x, fy_ = oy - info->y;
                bool at = ex == 0 && ey == 0;
                int once = -1; /* whether a path of one corner may bend here: not worked out yet */
                if (k >= tested && !at) {
                    bool taut = nav__wp_taut_q(info->qx, info->qy, -ex, -ey);
                    if (!(taut && k < linked && nav__wp_bends_on(info, ex, ey, goal))) {
                        if (goal) {
                            if (stamp != mark) q->seen[v] = mark + 1;
                            continue;
                        }
                        once = goal_lists && taut && nav__wp_bends_once(info, ex, ey, fx_, fy_);
                        if (!once) continue;
                    }
                }
                if (stamp == mark) continue; /* a corner in two lists is taken once */
                q->seen[v] = mark;
                bool sure = sight->sure && (sight->sure[k / 8] >> (k % 8) & 1);
                out[(*n)++] = candidate(q, v, info, x, y, ox, oy, factor, sure);
                if (goal || stamp != goal_mark + 1 || at) continue; /* the goal listed it, did not take it */
                if (once < 0) once = nav__wp_bends_once(info, ex, ey, fx_, fy_);
                if (once) q->goal[(*goal_n)++] = candidate(q, v, info, ox, oy, x, y, factor, false);
            }
            for (uint32_t k = linked; goal && k < sight->first[b + 1]; k++) /* listed */
                if (q->seen[sight->corner[k]] != mark) q->seen[sight->corner[k]] = mark + 1;
        }
    }
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

/* Start candidate a's cheapest combination with the goal's kept candidates: one pass over row a of
 * the table. */
static void combine(const nav_waypoints_query *q, nav__wp_candidate *a, uint32_t kept)
{
    const nav_waypoints *wp = q->wp;
    const float *row = wp->dist + (size_t)a->corner * wp->count;
    const uint32_t *column = q->goal_column;
    const double *cost = q->goal_cost;
    double least = INFINITY;
    uint32_t via = UINT32_MAX;
    for (uint32_t m = 0; m < kept; m++) {
        double t = (double)row[column[m]] + cost[m];
        if (t < least) least = t, via = m;
    }
    a->total = a->cost + least;
    a->via = via == UINT32_MAX ? UINT32_MAX : q->goal_index[via];
}

/* The goal candidates that could beat `limit` (their totals: a path through b costs at least b's
 * cost plus the straight distance from the start to b) into the rows' loop arrays (goal_column,
 * goal_cost, goal_index: which candidate). Made again when a goal candidate's cost changes.
 * Returns how many. */
static uint32_t keep_goal(nav_waypoints_query *q, uint32_t nb, double limit)
{
    uint32_t kept = 0;
    for (uint32_t j = 0; j < nb; j++) {
        if (!(q->goal[j].total < limit)) continue;
        q->goal_column[kept] = q->goal[j].corner;
        q->goal_cost[kept] = q->goal[j].cost;
        q->goal_index[kept++] = j;
    }
    return kept;
}

/* On hub labels the goal's side (the kept candidates) is folded into one value a hub (q->hub_best:
 * the least distance from the hub to a goal candidate plus that candidate's cost; q->hub_via:
 * which candidate), so that a start candidate's cheapest combination is one pass over its
 * out-label. */
static void fold_goal(nav_waypoints_query *q, uint32_t kept)
{
    const nav_waypoints *wp = q->wp;
    nav__wp_hubs_clear(q);
    for (uint32_t m = 0; m < kept; m++) {
        uint32_t b = q->goal_column[m];
        double cost = q->goal_cost[m];
        for (uint32_t k = wp->label_first[1][b], end = wp->label_first[1][b + 1]; k < end; k++) {
            uint32_t h = wp->label_hub[1][k];
            double t = (double)wp->label_dist[1][k] + cost;
            if (!(t < q->hub_best[h])) continue;
            if (q->hub_best[h] == INFINITY) q->hub_touched[q->hub_count++] = (uint16_t)h;
            q->hub_best[h] = t;
            q->hub_via[h] = q->goal_index[m];
        }
    }
}

/* combine on hub labels: one pass over a's out-label against the folded goal side. */
static void combine_labels(const nav_waypoints_query *q, nav__wp_candidate *a)
{
    const nav_waypoints *wp = q->wp;
    const uint16_t *hub = wp->label_hub[0];
    const float *dist = wp->label_dist[0];
    const double *best = q->hub_best;
    double least = INFINITY;
    uint32_t at = UINT32_MAX;
    for (uint32_t k = wp->label_first[0][a->corner], end = wp->label_first[0][a->corner + 1]; k < end; k++) {
        double t = (double)dist[k] + best[hub[k]];
        if (t < least) least = t, at = k;
    }
    a->total = a->cost + least;
    a->via = at == UINT32_MAX ? UINT32_MAX : q->hub_via[hub[at]];
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

/* A path to beat before the goal's side is kept (keep_goal) or folded (fold_goal), leaving out the
 * goal candidates that cannot: through the start candidate of least bound and the goal candidate
 * that joins it cheapest by the table plus its cost (on hub labels, nearest it by straight
 * distance plus cost, a merge of labels being dearer), both segments checked. On open ground it
 * is the cheapest or close to it. `none` when a segment cannot be walked or no route joins the
 * two. */
static via first_guess(nav_waypoints_query *q, double sx, double sy, double gx, double gy, uint32_t na,
                       uint32_t nb, nav_waypoints_result *r)
{
    via none = {.a = NAV_WAYPOINTS_NONE, .b = NAV_WAYPOINTS_NONE};
    const nav__wp_corners *c = &q->wp->corners;
    uint32_t i = UINT32_MAX, j = UINT32_MAX;
    for (uint32_t k = 0; k < na; k++)
        if (i == UINT32_MAX || q->start[k].total < q->start[i].total) i = k;
    if (i == UINT32_MAX || nb == 0) return none;
    nav__wp_candidate *a = &q->start[i];
    const nav_waypoints *wp = q->wp;
    double least = INFINITY;
    for (uint32_t k = 0; k < nb; k++) {
        double t;
        if (!wp->compressed) { /* by the table (a's row is read first anyway) */
            t = (double)wp->dist[(size_t)a->corner * wp->count + q->goal[k].corner] + q->goal[k].cost;
        } else {
            double dx = c->x[q->goal[k].corner] - c->x[a->corner],
                   dy = c->y[q->goal[k].corner] - c->y[a->corner];
            t = sqrt(dx * dx + dy * dy) + q->goal[k].cost / (q->grid->min_cost * q->grid->desc.cell_size);
        }
        if (t < least) least = t, j = k;
    }
    if (j == UINT32_MAX) j = 0; /* none joined by the table: any, to check */
    nav__wp_candidate *b = &q->goal[j];
    if (!a->checked) a->total += check(q, sx, sy, false, a, r);
    if (!b->checked) b->total += check(q, gx, gy, true, b, r);
    double d = nav_waypoints_distance(q->wp, a->corner, b->corner);
    if (!(a->cost + d + b->cost < INFINITY)) return none;
    return (via){a->cost + d + b->cost, a->cost, b->cost, a->corner, b->corner};
}

/* Best first, as A* is: every start candidate holds a lower bound of the paths through it, kept in
 * a heap; the least is refined until it is exact. Its row of the table (its out-label) is read only when it
 * comes first (the bound, its segment plus the straight distance on to the goal, is close: few rows are
 * read), and its segments are checked only when its combination comes first. A failed or dearer
 * goal segment sends the start candidates that chose it back to their rows. */
static via through_corners(nav_waypoints_query *q, double sx, double sy, double gx, double gy, double best,
                           nav_waypoints_result *r)
{
    via none = {.a = NAV_WAYPOINTS_NONE, .b = NAV_WAYPOINTS_NONE};
    uint32_t na = 0, nb = 0, mark = nav__wp_stamps(q, 3);
    candidates(q, gx, gy, sx, sy, true, mark, q->goal, &nb, 0, NULL);
    candidates(q, sx, sy, gx, gy, false, mark + 2, q->start, &na, mark, &nb);
    r->start_candidates += na;
    r->goal_candidates += nb;
    /* a path to beat first, so that the goal candidates that cannot are left out of every row read */
    const nav_waypoints *wp = q->wp;
    via guess = first_guess(q, sx, sy, gx, gy, na, nb, r); /* what to return when nothing beats best */
    if (guess.a != NAV_WAYPOINTS_NONE && guess.cost < best)
        best = guess.cost;
    else
        guess = none;
    uint32_t kept = keep_goal(q, nb, best);
    /* A second bound through the table: for any goal candidate b, d(a, b) >= d(a, p) - d(b, p) for the
     * pivot p (the kept candidate nearest the goal; the triangle inequality), so d(a, b) + cost(b) >=
     * d(a, p) + min over b of (cost(b) - d(b, p)) = d(a, p) + shift: one table read a candidate. On
     * hub labels a combination is one pass over a label, about what the bound would cost: none, the
     * goal's side folded instead. */
    uint32_t pivot = UINT32_MAX;
    for (uint32_t m = 0; m < kept; m++)
        if (pivot == UINT32_MAX || q->goal_cost[m] < q->goal_cost[pivot]) pivot = m;
    double shift = INFINITY;
    if (wp->compressed) {
        fold_goal(q, kept);
    } else if (pivot != UINT32_MAX) {
        /* d(x, p) from column p; on a graph whose links cost the same both ways, from row p (one
         * stretch of memory, not one row a candidate) */
        uint32_t p = q->goal_column[pivot], n = wp->count;
        const float *to_p = wp->symmetric ? wp->dist + (size_t)p * n : wp->dist + p;
        size_t step = wp->symmetric ? 1 : n;
        for (uint32_t m = 0; m < kept; m++)
            shift = nav__wp_min(shift, q->goal_cost[m] - (double)to_p[q->goal_column[m] * step]);
        if (shift > -INFINITY)
            for (uint32_t k = 0; k < na; k++) {
                if (!(q->start[k].total < best)) continue;
                double through = (double)to_p[q->start[k].corner * step] + shift;
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
    while (open_count) {
        uint32_t i = bound_pop(open, &open_count);
        nav__wp_candidate *a = &q->start[i];
        double grew = 0;
        if (a->via == UINT32_MAX) {
            if (wp->compressed)
                combine_labels(q, a);
            else
                combine(q, a, kept);
        } else if (!a->checked && (grew = check(q, sx, sy, false, a, r)) > 0) {
            a->total += grew;
        } else {
            uint32_t j = a->via;
            nav__wp_candidate *b = &q->goal[j];
            double grew_b = b->checked ? 0 : check(q, gx, gy, true, b, r);
            if (grew_b == 0) return (via){a->total, a->cost, b->cost, a->corner, b->corner};
            b->total += grew_b;
            kept = keep_goal(q, nb, best);
            if (wp->compressed) fold_goal(q, kept);
            for (uint32_t k = 0; k < na; k++)
                if (q->start[k].via == j) q->start[k].via = UINT32_MAX; /* totals stay lower bounds */
        }
        if (a->total < best) bound_push(open, &open_count, a->total, i);
    }
    return guess;
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
    if (!nav__point_free(grid, sx, sy) || !nav__point_free(grid, gx, gy))
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
