/* The any-angle rule on a grid (nav/anyangle.h): a walk of the cells a segment passes through,
 * deciding at each step by an exact cross-multiplication whether the segment leaves the cell
 * through its side, its top or bottom, or exactly through its corner. */
#include <math.h>

#include "grid_internal.h"
#include "log.h"
#include "nav/anyangle.h"

/* floor and ceil of a coordinate known to lie in [0, width] or [0, height] (checked on entry to
 * nav_grid_anyangle_segment): truncation, not the libm calls GCC makes of floor and ceil at -O2. */
static inline int64_t floor_in(double v)
{
    return (int64_t)v;
}

static inline int64_t ceil_in(double v)
{
    int64_t i = (int64_t)v;
    return i + ((double)i < v);
}

/* (table: the costs the walk goes by, a filter's over the grid's (nav__grid_costs); null: the grid's) */
static bool free_cell(const nav_grid *grid, const double *table, int64_t x, int64_t y)
{
    if (x < -1 || y < -1 || x > grid->width || y > grid->height)
        return false; /* the border's bits: blocked */
    if (!nav__open_at(grid->open_bits, nav__open_index(grid, x, y))) return false;
    return !table || table[grid->terrain[(uint32_t)y * grid->width + (uint32_t)x]] < INFINITY;
}

static double cell_cost(const nav_grid *grid, const double *table, int64_t x, int64_t y)
{
    return (table ? table : grid->terrain_cost)[grid->terrain[(uint32_t)y * grid->width + (uint32_t)x]];
}

/* nav__point_free under the table */
static bool point_free(const nav_grid *grid, const double *table, double x, double y)
{
    if (!table) return nav__point_free(grid, x, y);
    if (!(x >= 0 && y >= 0 && x <= grid->width && y <= grid->height)) return false;
    int64_t fx = (int64_t)x, fy = (int64_t)y;
    bool on_x = x == (double)fx, on_y = y == (double)fy;
    return free_cell(grid, table, fx, fy) || (on_x && free_cell(grid, table, fx - 1, fy)) ||
           (on_y && free_cell(grid, table, fx, fy - 1)) ||
           (on_x && on_y && free_cell(grid, table, fx - 1, fy - 1));
}

static float cell_height(const nav_grid *grid, int64_t x, int64_t y)
{
    return nav__cell_height(grid, (uint32_t)y * grid->width + (uint32_t)x);
}

/* Stepping from free cell a to free cell b climbs no more than the grid allows. */
static bool climb_ok(const nav_grid *grid, int64_t ax, int64_t ay, int64_t bx, int64_t by)
{
    if (!grid->heights) return true;
    return cell_height(grid, bx, by) - cell_height(grid, ax, ay) <= grid->desc.max_climb;
}

/* A pinch: of the four cells around vertex (x, y), exactly the two on one diagonal are free. */
static int pinch_kind(const nav_grid *grid, int64_t x, int64_t y)
{
    bool nw = free_cell(grid, NULL, x - 1, y - 1), ne = free_cell(grid, NULL, x, y - 1);
    bool sw = free_cell(grid, NULL, x - 1, y), se = free_cell(grid, NULL, x, y);
    if (nw && se && !ne && !sw) return 1;
    if (ne && sw && !nw && !se) return 2;
    return 0;
}

/* A segment on the grid line y = line (or x = line when vertical), from a to b along it: each unit
 * piece needs a free cell on one side, consecutive pieces a free cell on one side in common (else
 * they meet at a pinch), and pieces off the line's grid vertices are checked cell by cell. */
static bool along_line(const nav_grid *grid, const double *table, bool vertical, int64_t line, double a,
                       double b, double *cost)
{
    double lo = a < b ? a : b, hi = a < b ? b : a;
    int64_t first = floor_in(lo), last = ceil_in(hi) - 1;
    double total = 0;
    bool prev_lo = false, prev_hi = false;
    for (int64_t c = first; c <= last; c++) {
        /* the two cells beside piece c: on the low side of the line and on the high side */
        int64_t lx = vertical ? line - 1 : c, ly = vertical ? c : line - 1;
        int64_t hx = vertical ? line : c, hy = vertical ? c : line;
        bool f_lo = free_cell(grid, table, lx, ly), f_hi = free_cell(grid, table, hx, hy);
        if (!f_lo && !f_hi) return false;
        if (c > first && !((prev_lo && f_lo) || (prev_hi && f_hi))) return false;
        double c_lo = f_lo ? cell_cost(grid, table, lx, ly) : INFINITY,
               c_hi = f_hi ? cell_cost(grid, table, hx, hy) : INFINITY;
        double from = (double)c > lo ? (double)c : lo, to = (double)(c + 1) < hi ? (double)(c + 1) : hi;
        total += (to - from) * (c_lo < c_hi ? c_lo : c_hi);
        prev_lo = f_lo;
        prev_hi = f_hi;
    }
    if (cost) *cost = total;
    return true;
}

/* A segment inside one row (or column when vertical) of cells, off the grid lines. */
static bool along_row(const nav_grid *grid, const double *table, bool vertical, int64_t row, double a,
                      double b, double *cost)
{
    int step = b > a ? 1 : -1;
    int64_t c = step > 0 ? floor_in(a) : ceil_in(a) - 1;
    int64_t end = step > 0 ? ceil_in(b) - 1 : floor_in(b);
    double total = 0, at = a;
    for (;;) {
        int64_t x = vertical ? row : c, y = vertical ? c : row;
        if (!free_cell(grid, table, x, y)) return false;
        double next = c == end ? b : (double)(step > 0 ? c + 1 : c);
        total += fabs(next - at) * cell_cost(grid, table, x, y);
        if (c == end) break;
        int64_t nx = vertical ? row : c + step, ny = vertical ? c + step : row;
        if (free_cell(grid, table, nx, ny) && !climb_ok(grid, x, y, nx, ny)) return false;
        at = next;
        c += step;
    }
    if (cost) *cost = total;
    return true;
}

/* The walk of nav_grid_anyangle_segment on a grid of one cost without heights, where only which
 * cells are free matters: the same steps, decided by the same products, over the free cells' bits. */
static bool walk_open(const nav_grid *grid, double ax, double ay, double adx, double ady, int sx, int sy,
                      int64_t cx, int64_t cy, int64_t ex, int64_t ey, int64_t steps)
{
    const uint64_t *bits = grid->open_bits;
    int64_t across = sx, down = sy * (int64_t)grid->open_row_words * 64;
    uint64_t at = nav__open_index(grid, cx, cy);
    double kx = (double)(sx > 0 ? cx + 1 : cx), ky = (double)(sy > 0 ? cy + 1 : cy); /* the corner ahead */
    for (int64_t i = 0;; i++) {
        if (!nav__open_at(bits, at)) return false;
        if ((cx == ex && cy == ey) || i > steps) return true;
        double to_x = fabs(kx - ax) * ady, to_y = fabs(ky - ay) * adx;
        if (to_x < to_y) {
            cx += sx, kx += sx, at += (uint64_t)across;
        } else if (to_y < to_x) {
            cy += sy, ky += sy, at += (uint64_t)down;
        } else { /* exactly through the corner: the two cells beside it may not both be blocked */
            if (!nav__open_at(bits, at + (uint64_t)across) && !nav__open_at(bits, at + (uint64_t)down))
                return false;
            cx += sx, kx += sx, cy += sy, ky += sy, at += (uint64_t)(across + down);
        }
    }
}

bool nav_grid_anyangle_segment(const nav_grid *grid, double ax, double ay, double bx, double by, double *cost)
{
    return nav__grid_anyangle_segment(grid, NULL, ax, ay, bx, by, cost);
}

bool nav__grid_anyangle_segment(const nav_grid *grid, const double *table, double ax, double ay, double bx,
                                double by, double *cost)
{
    if (!grid || !isfinite(ax) || !isfinite(ay) || !isfinite(bx) || !isfinite(by)) return false;
    double w = grid->width, h = grid->height;
    if (ax < 0 || ay < 0 || bx < 0 || by < 0 || ax > w || bx > w || ay > h || by > h) return false;
    double dx = bx - ax, dy = by - ay;
    if (dx == 0 && dy == 0) {
        if (!point_free(grid, table, ax, ay)) return false;
        if (cost) *cost = 0;
        return true;
    }
    if (dy == 0) {
        if (ay == (double)floor_in(ay)) return along_line(grid, table, false, floor_in(ay), ax, bx, cost);
        return along_row(grid, table, false, floor_in(ay), ax, bx, cost);
    }
    if (dx == 0) {
        if (ax == (double)floor_in(ax)) return along_line(grid, table, true, floor_in(ax), ay, by, cost);
        return along_row(grid, table, true, floor_in(ax), ay, by, cost);
    }

    /* The cell the segment starts in (on a grid line: the one it moves into), the one it ends in
     * (on a grid line: the one it arrives from), and a walk between them. */
    int sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
    int64_t cx = sx > 0 ? floor_in(ax) : ceil_in(ax) - 1;
    int64_t cy = sy > 0 ? floor_in(ay) : ceil_in(ay) - 1;
    int64_t ex = sx > 0 ? ceil_in(bx) - 1 : floor_in(bx);
    int64_t ey = sy > 0 ? ceil_in(by) - 1 : floor_in(by);
    int64_t steps = (ex - cx) * sx + (ey - cy) * sy;
    double adx = fabs(dx), ady = fabs(dy), length = sqrt(dx * dx + dy * dy);
    /* on a grid of one cost without heights, only the cells matter: the cost is the length times it */
    if (!table && grid->uniform_cost > 0 && !grid->heights) {
        if (!walk_open(grid, ax, ay, adx, ady, sx, sy, cx, cy, ex, ey, steps)) return false;
        if (cost) *cost = length * grid->uniform_cost;
        return true;
    }
    /* otherwise each cell's share of the length at its cost, and every climb checked */
    double total = 0, t_in = 0;
    for (int64_t i = 0;; i++) {
        if (!free_cell(grid, table, cx, cy)) return false;
        if ((cx == ex && cy == ey) || i > steps) {
            /* i > steps only when rounding of inexact inputs misses the end cell by a step */
            total += (1 - t_in) * length * cell_cost(grid, table, cx, cy);
            break;
        }
        int64_t kx = sx > 0 ? cx + 1 : cx, ky = sy > 0 ? cy + 1 : cy; /* the corner ahead */
        double to_x = fabs((double)kx - ax) * ady, to_y = fabs((double)ky - ay) * adx;
        bool step_x = to_x <= to_y, step_y = to_y <= to_x;
        /* exactly through the corner: the two cells beside it may not both be blocked */
        if (step_x && step_y && !free_cell(grid, table, cx + sx, cy) && !free_cell(grid, table, cx, cy + sy))
            return false;
        int64_t nx = step_x ? cx + sx : cx, ny = step_y ? cy + sy : cy;
        double t = step_x ? ((double)kx - ax) / dx : ((double)ky - ay) / dy;
        if (free_cell(grid, table, nx, ny) && !climb_ok(grid, cx, cy, nx, ny)) return false;
        total += (t - t_in) * length * cell_cost(grid, table, cx, cy);
        t_in = t;
        cx = nx;
        cy = ny;
    }
    if (cost) *cost = total;
    return true;
}

bool nav_grid_anyangle_turn(const nav_grid *grid, int32_t x, int32_t y, double in_x, double in_y,
                            double out_x, double out_y)
{
    int kind = pinch_kind(grid, x, y);
    if (kind == 0) return true;
    /* kind 1: free cells north-west (x < 0, y < 0) and south-east; kind 2: north-east and south-west.
     * A direction along a grid line belongs to the side of the free cell it runs beside. */
    bool in_first = kind == 1 ? (in_x <= 0 && in_y <= 0) : (in_x >= 0 && in_y <= 0);
    bool out_first = kind == 1 ? (out_x <= 0 && out_y <= 0) : (out_x >= 0 && out_y <= 0);
    return in_first == out_first;
}

void nav_grid_world_to_units(const nav_grid *grid, nav_vec3 world, double *x, double *y)
{
    double s = grid->desc.cell_size;
    *x = ((double)world.x - (double)grid->desc.origin.x) / s;
    *y = ((double)world.z - (double)grid->desc.origin.z) / s;
}

nav_vec3 nav_grid_units_to_world(const nav_grid *grid, double x, double y)
{
    double s = grid->desc.cell_size;
    return nav_vec3_make((float)((double)grid->desc.origin.x + x * s), 0.0f,
                         (float)((double)grid->desc.origin.z + y * s));
}

nav_status nav_grid_validate_anyangle_path(const nav_grid *grid, const nav_path *path, double *cost)
{
    if (!grid || !path || path->count == 0) return NAV_FAILURE | NAV_INVALID_PARAM;
    double total = 0, px, py;
    nav_grid_world_to_units(grid, path->points[0], &px, &py);
    if (!nav_grid_anyangle_segment(grid, px, py, px, py, NULL)) {
        nav__grid_log(grid, NAV_LOG_ERROR, "point 0 (%.6f, %.6f) is not in free space", px, py);
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    double in_x = 0, in_y = 0; /* direction back along the last non-empty segment */
    for (uint32_t i = 1; i < path->count; i++) {
        double qx, qy, c;
        nav_grid_world_to_units(grid, path->points[i], &qx, &qy);
        if (!nav_grid_anyangle_segment(grid, px, py, qx, qy, &c)) {
            nav__grid_log(grid, NAV_LOG_ERROR, "segment %u: (%.6f, %.6f) -> (%.6f, %.6f) leaves free space",
                          i, px, py, qx, qy);
            return NAV_FAILURE | NAV_INVALID_PARAM;
        }
        if (qx == px && qy == py) continue;
        if ((in_x != 0 || in_y != 0) && px == floor(px) && py == floor(py) &&
            !nav_grid_anyangle_turn(grid, (int32_t)px, (int32_t)py, in_x, in_y, qx - px, qy - py)) {
            nav__grid_log(grid, NAV_LOG_ERROR, "point %u: the path crosses the pinch at (%d, %d)", i - 1,
                          (int32_t)px, (int32_t)py);
            return NAV_FAILURE | NAV_INVALID_PARAM;
        }
        total += c;
        in_x = px - qx;
        in_y = py - qy;
        px = qx;
        py = qy;
    }
    if (cost) *cost = total;
    return NAV_SUCCESS;
}
