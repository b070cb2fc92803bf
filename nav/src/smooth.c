/* String pulling by line of sight over the grid.
 *
 * The segment walk is the voxel traversal of Amanatides and Woo ("A fast voxel traversal algorithm
 * for ray tracing", 1987): from one cell boundary crossing to the next, so every cell the segment
 * passes through is visited once and its exact share of the length is known. Where the segment
 * crosses a cell corner exactly, the two cells beside the corner must be free too, which is the
 * Moving AI rule for diagonal moves carried over to any angle. */
#include "nav/smooth.h"

#include <math.h>

#include "grid_internal.h"
#include "log.h"
#include "nav/search.h"

/* Two crossings closer than this (in the segment's parameter) are one corner crossing. */
#define CORNER_EPSILON 1e-9
/* A straight segment may cost this much more than the moves it replaces (float noise). */
#define SMOOTH_SLACK 1e-9

static bool can_enter(const nav_grid *grid, int32_t fx, int32_t fy, int32_t tx, int32_t ty)
{
    if (!nav_grid_in_bounds(grid, tx, ty)) return false;
    uint32_t from = nav_grid_index(grid, fx, fy), to = nav_grid_index(grid, tx, ty);
    if (!nav__cell_free(grid, to)) return false;
    return nav__cell_height(grid, to) - nav__cell_height(grid, from) <= grid->desc.max_climb;
}

bool nav_grid_segment_cost(const nav_grid *grid, int32_t ax, int32_t ay, int32_t bx, int32_t by, double *cost)
{
    if (!nav_grid_in_bounds(grid, ax, ay) || !nav_grid_in_bounds(grid, bx, by)) return false;
    if (!nav__cell_free(grid, nav_grid_index(grid, ax, ay))) return false;
    double dx = (double)(bx - ax), dy = (double)(by - ay), length = sqrt(dx * dx + dy * dy);
    int32_t step_x = dx > 0 ? 1 : -1, step_y = dy > 0 ? 1 : -1;
    /* both ends are cell centres: the first boundary is half a cell away */
    double t_delta_x = dx != 0 ? 1.0 / fabs(dx) : INFINITY, t_delta_y = dy != 0 ? 1.0 / fabs(dy) : INFINITY;
    double t_max_x = 0.5 * t_delta_x, t_max_y = 0.5 * t_delta_y;
    int32_t x = ax, y = ay;
    double t = 0, total = 0;
    while (x != bx || y != by) {
        double t_next = fmin(t_max_x, t_max_y);
        total += (t_next - t) * length * grid->terrain_cost[grid->terrain[nav_grid_index(grid, x, y)]];
        t = t_next;
        if (fabs(t_max_x - t_max_y) < CORNER_EPSILON) {
            /* through a corner: both side cells must be enterable, then the diagonal one */
            if (!can_enter(grid, x, y, x + step_x, y) || !can_enter(grid, x, y, x, y + step_y)) return false;
            if (!can_enter(grid, x, y, x + step_x, y + step_y)) return false;
            x += step_x;
            y += step_y;
            t_max_x += t_delta_x;
            t_max_y += t_delta_y;
        } else if (t_max_x < t_max_y) {
            if (!can_enter(grid, x, y, x + step_x, y)) return false;
            x += step_x;
            t_max_x += t_delta_x;
        } else {
            if (!can_enter(grid, x, y, x, y + step_y)) return false;
            y += step_y;
            t_max_y += t_delta_y;
        }
    }
    total += (1.0 - t) * length * grid->terrain_cost[grid->terrain[nav_grid_index(grid, bx, by)]];
    if (cost) *cost = total;
    return true;
}

/* The walk of nav_grid_segment_cost in integers, for the walkability test alone: the segment
 * crosses the vertical line after column x + i at parameter (2i + 1) / (2 |dx|) and the horizontal
 * one after row y + j at (2j + 1) / (2 |dy|), so comparing (2i + 1) |dy| with (2j + 1) |dx| orders
 * the crossings exactly, and equality is a corner. The floating-point walk calls crossings closer
 * than CORNER_EPSILON a corner; distinct crossings differ by at least 1 / (2 |dx| |dy|), so the two
 * walks agree while |dx| |dy| < 2^28 (segments up to 16384 cells across); longer ones go to the
 * floating-point walk. Both ends must be in bounds (the caller's cells are). */
/* can_enter for cells known to be on the map: every cell the walk visits, and every side cell of a
 * corner it passes, lies in the bounding box of the segment's two cells. */
static inline bool can_step(const nav_grid *grid, uint32_t from, uint32_t to)
{
    if (!nav__cell_free(grid, to)) return false;
    return !grid->heights || grid->heights[to] - grid->heights[from] <= grid->desc.max_climb;
}

static bool segment_walkable(const nav_grid *grid, int32_t ax, int32_t ay, int32_t bx, int32_t by)
{
    int64_t adx = bx > ax ? bx - ax : ax - bx, ady = by > ay ? by - ay : ay - by;
    if (adx * ady >= (int64_t)1 << 28) return nav_grid_segment_cost(grid, ax, ay, bx, by, NULL);
    if (!nav__cell_free(grid, nav_grid_index(grid, ax, ay))) return false;
    int32_t step_x = bx > ax ? 1 : -1, step_y = by > ay ? 1 : -1;
    int64_t next_x = adx ? ady : INT64_MAX, next_y = ady ? adx : INT64_MAX; /* (2i + 1) |dy|, (2j + 1) |dx| */
    int32_t row = step_y * (int32_t)grid->width;
    uint32_t at = nav_grid_index(grid, ax, ay), end = nav_grid_index(grid, bx, by);
    while (at != end) {
        if (next_x == next_y) {
            uint32_t side_x = (uint32_t)((int32_t)at + step_x), side_y = (uint32_t)((int32_t)at + row);
            if (!can_step(grid, at, side_x) || !can_step(grid, at, side_y)) return false;
            uint32_t next = (uint32_t)((int32_t)side_x + row);
            if (!can_step(grid, at, next)) return false;
            at = next;
            next_x += 2 * ady;
            next_y += 2 * adx;
        } else if (next_x < next_y) {
            uint32_t next = (uint32_t)((int32_t)at + step_x);
            if (!can_step(grid, at, next)) return false;
            at = next;
            next_x += 2 * ady;
        } else {
            uint32_t next = (uint32_t)((int32_t)at + row);
            if (!can_step(grid, at, next)) return false;
            at = next;
            next_y += 2 * adx;
        }
    }
    return true;
}

static void cell_xy(const nav_grid *grid, uint32_t cell, int32_t *x, int32_t *y)
{
    *x = (int32_t)(cell % grid->width);
    *y = (int32_t)(cell / grid->width);
}

/* Cost of the grid move a -> b between neighbours (as the planners count it), or -1 when the two
 * cells are not neighbours joined by an allowed move. */
static double move_cost(const nav_grid *grid, uint32_t a, uint32_t b)
{
    for (int d = 0; d < 8; d++)
        if ((grid->moves[a] >> d & 1u) && (int64_t)a + grid->offset[d] == (int64_t)b)
            return grid->step_length[d] * grid->terrain_cost[grid->terrain[b]];
    return -1;
}

/* A turn of the cell path at point i: the move into i differs from the move out of it. */
static bool is_turn(const nav_path *cells, uint32_t i)
{
    return (int64_t)cells->nodes[i] - cells->nodes[i - 1] != (int64_t)cells->nodes[i + 1] - cells->nodes[i];
}

/* Any grid: the straight segment must also cost no more than the moves it replaces. */
static nav_status smooth_weighted(const nav_grid *grid, const nav_path *cells, nav_path *out)
{

    /* Greedy: from the anchor, try a straight segment to each later turn of the path (and its
     * end); keep it while it is walkable and no dearer than the grid moves it replaces. When it
     * fails, the last good turn becomes the anchor. Only turns are tried: on a straight run the
     * segment to the run's end decides for every cell on it, which keeps the work near linear. */
    uint32_t n = cells->count, anchor = 0, last_good = 0;
    double prefix = 0, anchor_prefix = 0, good_prefix = 0, good_cost = 0, total = 0;
    int32_t ax, ay, x, y;
    cell_xy(grid, cells->nodes[0], &ax, &ay);
    nav_status s = nav_path_push(out, nav_grid_cell_center(grid, ax, ay), cells->nodes[0]);
    for (uint32_t i = 1; i < n && nav_succeeded(s); i++) {
        prefix += move_cost(grid, cells->nodes[i - 1], cells->nodes[i]);
        if (i + 1 < n && !is_turn(cells, i)) continue;
        cell_xy(grid, cells->nodes[i], &x, &y);
        double straight;
        if (nav_grid_segment_cost(grid, ax, ay, x, y, &straight) &&
            straight <= prefix - anchor_prefix + SMOOTH_SLACK) {
            last_good = i;
            good_prefix = prefix;
            good_cost = straight;
            continue;
        }
        if (last_good == anchor) {
            /* Not even the first turn is visible straight (a corner cut the policy allows, or a
             * dearer straight line): keep the grid moves up to this turn as they are. */
            for (uint32_t k = anchor + 1; k < i && nav_succeeded(s); k++) {
                int32_t kx, ky;
                cell_xy(grid, cells->nodes[k], &kx, &ky);
                s = nav_path_push(out, nav_grid_cell_center(grid, kx, ky), cells->nodes[k]);
            }
            last_good = i;
            good_cost = prefix - anchor_prefix;
            good_prefix = prefix;
        }
        /* keep the last good point and start again from it */
        total += good_cost;
        anchor = last_good;
        anchor_prefix = good_prefix;
        cell_xy(grid, cells->nodes[anchor], &ax, &ay);
        if (nav_succeeded(s))
            s = nav_path_push(out, nav_grid_cell_center(grid, ax, ay), cells->nodes[anchor]);
        good_cost = 0;
        if (anchor < i) i = anchor; /* re-walk the moves after the new anchor */
        prefix = anchor_prefix;
    }
    if (nav_succeeded(s) && anchor != n - 1) {
        total += good_cost;
        cell_xy(grid, cells->nodes[n - 1], &x, &y);
        s = nav_path_push(out, nav_grid_cell_center(grid, x, y), cells->nodes[n - 1]);
    }
    if (nav_failed(s)) {
        nav_path_clear(out);
        return s;
    }
    out->cost = total;
    return NAV_SUCCESS;
}

/* A grid of one terrain cost whose moves cost their Euclidean length (diagonal sqrt 2, or no
 * diagonals): there a straight segment never costs more than the moves it replaces (the triangle
 * inequality), so only walkability decides. From the anchor, the probe goes 1, 2, 4, 8, ... cells
 * further along the path while the segment stays walkable, then a binary search between the last
 * walkable probe and the first blocked one finds the point to keep. About log2(segment) segment
 * walks a kept point instead of one a turn: the work is near the path's length times the log of
 * a segment, where trying every turn cost the turns times the segments. Line of sight is not
 * monotone along a path, so the point kept is a far visible one, not always the farthest. */
static nav_status smooth_uniform(const nav_grid *grid, const nav_path *cells, nav_path *out)
{
    uint32_t n = cells->count, anchor = 0;
    int32_t ax, ay, x, y;
    double total = 0;
    cell_xy(grid, cells->nodes[0], &ax, &ay);
    nav_status s = nav_path_push(out, nav_grid_cell_center(grid, ax, ay), cells->nodes[0]);
    while (anchor + 1 < n && nav_succeeded(s)) {
        uint32_t good = anchor + 1, bad = n, probe = anchor + 2;
        while (probe < n) {
            cell_xy(grid, cells->nodes[probe], &x, &y);
            if (!segment_walkable(grid, ax, ay, x, y)) {
                bad = probe;
                break;
            }
            good = probe;
            if (probe == n - 1) break;
            uint64_t next = anchor + 2 * (uint64_t)(probe - anchor);
            probe = next < n - 1 ? (uint32_t)next : n - 1;
        }
        /* the bracket is narrowed to an eighth of the reach: a kept point a few cells short of
         * the farthest is as good a corner, and the walks of the last halvings are the longest */
        while (bad - good > 1 && bad - good > (good - anchor) / 8) {
            uint32_t mid = good + (bad - good) / 2;
            cell_xy(grid, cells->nodes[mid], &x, &y);
            if (segment_walkable(grid, ax, ay, x, y))
                good = mid;
            else
                bad = mid;
        }
        cell_xy(grid, cells->nodes[good], &x, &y);
        double step = good == anchor + 1 ? move_cost(grid, cells->nodes[anchor], cells->nodes[good]) : -1;
        if (step < 0) step = hypot((double)(x - ax), (double)(y - ay)) * grid->uniform_cost;
        total += step;
        s = nav_path_push(out, nav_grid_cell_center(grid, x, y), cells->nodes[good]);
        anchor = good;
        ax = x;
        ay = y;
    }
    if (nav_failed(s)) {
        nav_path_clear(out);
        return s;
    }
    out->cost = total;
    return NAV_SUCCESS;
}

static nav_status smooth(const nav_grid *grid, const nav_path *cells, nav_path *out)
{
    nav_path_clear(out);
    if (cells->count == 0) return NAV_SUCCESS;
    bool euclidean =
        grid->desc.connectivity == NAV_CONNECT_4 || fabs(grid->desc.diagonal_cost - M_SQRT2) < 1e-12;
    if (grid->uniform_cost > 0 && euclidean) return smooth_uniform(grid, cells, out);
    return smooth_weighted(grid, cells, out);
}

nav_status nav_grid_smooth_path(const nav_grid *grid, const nav_path *cells, nav_path *out)
{
    if (!grid || !cells || !out || cells == out) return NAV_FAILURE | NAV_INVALID_PARAM;
    if (nav_failed(nav_grid_validate_cells(grid, cells, NULL))) return NAV_FAILURE | NAV_INVALID_PARAM;
    return smooth(grid, cells, out);
}

nav_status nav_grid_smooth_planned_path(const nav_grid *grid, const nav_path *cells, nav_path *out)
{
    if (!grid || !cells || !out || cells == out) return NAV_FAILURE | NAV_INVALID_PARAM;
    for (uint32_t i = 0; i < cells->count; i++)
        if (cells->nodes[i] >= grid->cells || !nav__cell_free(grid, cells->nodes[i]))
            return NAV_FAILURE | NAV_INVALID_PARAM;
    return smooth(grid, cells, out);
}

nav_status nav_grid_validate_segments(const nav_grid *grid, const nav_path *path, double *cost)
{
    double total = 0;
    for (uint32_t i = 0; i < path->count; i++) {
        if (path->nodes[i] >= grid->cells) return NAV_FAILURE | NAV_INVALID_PARAM;
        if (i == 0) continue;
        int32_t ax, ay, bx, by;
        cell_xy(grid, path->nodes[i - 1], &ax, &ay);
        cell_xy(grid, path->nodes[i], &bx, &by);
        double c = move_cost(grid, path->nodes[i - 1], path->nodes[i]);
        if (c < 0 && !nav_grid_segment_cost(grid, ax, ay, bx, by, &c)) {
            nav__grid_log(grid, NAV_LOG_ERROR, "segment %u: (%d,%d) -> (%d,%d) leaves free space", i, ax, ay,
                          bx, by);
            return NAV_FAILURE | NAV_INVALID_PARAM;
        }
        total += c;
    }
    if (path->count == 1 && !nav__cell_free(grid, path->nodes[0])) return NAV_FAILURE | NAV_INVALID_PARAM;
    if (cost) *cost = total;
    return NAV_SUCCESS;
}
