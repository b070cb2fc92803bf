/* The convex corners of a grid's obstacles, and the scan that finds which of them a point may see.
 *
 * The scan walks away from the point row by row, up and then down, keeping the rays that are still
 * free as intervals of m = dx / |dy| (a ray reaches height y at x = sx + m |y - sy|). In each row the
 * runs of blocked cells (the map's outside counts as blocked) cut the rays that would enter them,
 * and the corners at the ends of every run a ray still reaches are reported: a segment to a corner
 * touches the corner's blocked cell there, so its ray bounds that cell's cut. Cuts are narrowed by a
 * relative 1e-9, so rounding keeps a ray rather than loses it; rays that only graze a corner and
 * would go on past it are covered by the corner itself (a path through them bends there at no
 * cost). The result is a superset the caller checks exactly. The work is the cells of the rows'
 * reachable spans plus the intervals, not a test per corner. */
#include <math.h>

#include "alloc.h"
#include "grid_internal.h"
#include "waypoints_internal.h"

static bool blocked(const nav_grid *grid, int64_t x, int64_t y)
{
    if (x < 0 || y < 0 || x >= grid->width || y >= grid->height) return true;
    return !nav__cell_free(grid, (uint32_t)y * grid->width + (uint32_t)x);
}

/* The corner at grid vertex (x, y) if there is one: exactly one of its four cells blocked. */
static bool convex(const nav__wp_corners *c, int64_t x, int64_t y)
{
    return nav__wp_blocked(c, x - 1, y - 1) + nav__wp_blocked(c, x, y - 1) + nav__wp_blocked(c, x - 1, y) +
               nav__wp_blocked(c, x, y) ==
           1;
}

nav_status nav__wp_corners_find(const nav_grid *grid, const nav_allocator *a, nav__wp_corners *c)
{
    *c = (nav__wp_corners){.width = grid->width, .height = grid->height};
    c->row_words = (grid->width + 2 + 63) / 64;
    c->bits = nav__calloc(a, nav__mul_size(c->row_words, grid->height ? grid->height : 1), sizeof *c->bits);
    c->row_first = nav__calloc(a, (size_t)grid->height + 2, sizeof *c->row_first);
    if (!c->bits || !c->row_first) {
        nav__wp_corners_free(c, a);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    for (int64_t y = 0; y < grid->height; y++)
        for (int64_t x = -1; x <= grid->width; x++)
            if (blocked(grid, x, y))
                c->bits[(size_t)y * c->row_words + (uint64_t)(x + 1) / 64] |= 1ull
                                                                              << ((uint64_t)(x + 1) % 64);
    uint32_t count = 0;
    for (int64_t y = 0; y <= grid->height; y++)
        for (int64_t x = 0; x <= grid->width; x++) count += convex(c, x, y);
    c->x = nav__calloc(a, count ? count : 1, sizeof *c->x);
    c->y = nav__calloc(a, count ? count : 1, sizeof *c->y);
    c->quad = nav__calloc(a, count ? count : 1, sizeof *c->quad);
    if (!c->x || !c->y || !c->quad) {
        nav__wp_corners_free(c, a);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    uint32_t k = 0;
    for (int64_t y = 0; y <= grid->height; y++) {
        c->row_first[y] = k;
        for (int64_t x = 0; x <= grid->width; x++) {
            if (!convex(c, x, y)) continue;
            bool ne = nav__wp_blocked(c, x, y - 1), sw = nav__wp_blocked(c, x - 1, y),
                 se = nav__wp_blocked(c, x, y);
            c->x[k] = (int32_t)x;
            c->y[k] = (int32_t)y;
            c->quad[k] = (uint8_t)((ne || se ? 1 : 0) | (sw || se ? 2 : 0));
            k++;
        }
    }
    c->row_first[grid->height + 1] = k;
    c->count = k;
    return NAV_SUCCESS;
}

void nav__wp_corners_free(nav__wp_corners *c, const nav_allocator *a)
{
    nav__free(a, c->row_first);
    nav__free(a, c->x);
    nav__free(a, c->y);
    nav__free(a, c->quad);
    nav__free(a, c->bits);
    *c = (nav__wp_corners){0};
}

uint32_t nav__wp_corner_at(const nav__wp_corners *c, int64_t x, int64_t y)
{
    if (y < 0 || y > c->height || x < 0 || x > c->width) return UINT32_MAX;
    uint32_t lo = c->row_first[y], hi = c->row_first[y + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (c->x[mid] == x) return mid;
        if (c->x[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return UINT32_MAX;
}

/* ---- The scan -------------------------------------------------------------------------------- */

static uint32_t scan_capacity(const nav__wp_corners *c)
{
    return 2 * c->width + 8;
}

nav_status nav__wp_scan_init(nav__wp_scan *s, const nav__wp_corners *c, const nav_allocator *a)
{
    *s = (nav__wp_scan){.capacity = scan_capacity(c)};
    s->lo = nav__calloc(a, s->capacity, sizeof *s->lo);
    s->hi = nav__calloc(a, s->capacity, sizeof *s->hi);
    s->next_lo = nav__calloc(a, s->capacity, sizeof *s->next_lo);
    s->next_hi = nav__calloc(a, s->capacity, sizeof *s->next_hi);
    s->stamp = nav__calloc(a, c->count ? c->count : 1, sizeof *s->stamp);
    if (!s->lo || !s->hi || !s->next_lo || !s->next_hi || !s->stamp) {
        nav__wp_scan_free(s, a);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    return NAV_SUCCESS;
}

void nav__wp_scan_free(nav__wp_scan *s, const nav_allocator *a)
{
    nav__free(a, s->lo);
    nav__free(a, s->hi);
    nav__free(a, s->next_lo);
    nav__free(a, s->next_hi);
    nav__free(a, s->stamp);
    *s = (nav__wp_scan){0};
}

/* The first x in [from, to] (from >= -1, to <= width) whose cell in the row is blocked (`value`) or
 * free (!value), or to + 1. */
static int64_t find_cell(const uint64_t *row, int64_t from, int64_t to, bool value)
{
    uint64_t b = (uint64_t)(from + 1), end = (uint64_t)(to + 1), flip = value ? 0 : ~0ull;
    while (b <= end) {
        uint64_t word = (row[b / 64] ^ flip) >> (b % 64);
        if (word) {
            b += (uint64_t)__builtin_ctzll(word);
            return b <= end ? (int64_t)b - 1 : to + 1;
        }
        b = (b / 64 + 1) * 64;
    }
    return to + 1;
}

/* One scan: the point, and where reports go. */
typedef struct scan {
    const nav__wp_corners *c;
    nav__wp_scan *s;
    double sx, sy;
    bool taut_only;
    uint32_t *out, count; /* null out: no reports */
    nav__wp_span_fn span; /* [opt] told the rays kept in each row */
    void *span_user;
} scan;

/* Narrowing of a cut at m. */
static double slack(double m)
{
    return 1e-9 * (1 + fabs(m));
}

static void report(scan *sc, int64_t x, double y)
{
    if (!sc->out || y != floor(y) || !convex(sc->c, x, (int64_t)y)) return;
    uint32_t v = nav__wp_corner_at(sc->c, x, (int64_t)y);
    if (v == UINT32_MAX || sc->s->stamp[v] == sc->s->stamp_now) return;
    sc->s->stamp[v] = sc->s->stamp_now;
    if (!sc->taut_only || nav__wp_taut(sc->c, v, (double)x - sc->sx, y - sc->sy)) sc->out[sc->count++] = v;
}

/* Keeps rays [lo, hi] for the next row (in increasing order; overlaps merge, and so does the last
 * pair when the list is full: more rays, never fewer). Horizontal rays end here. */
static void keep(nav__wp_scan *s, uint32_t *n, double lo, double hi)
{
    if (lo > hi || lo == INFINITY || hi == -INFINITY) return;
    if (*n > 0 && (lo <= s->next_hi[*n - 1] || *n == s->capacity)) {
        if (hi > s->next_hi[*n - 1]) s->next_hi[*n - 1] = hi;
        return;
    }
    s->next_lo[*n] = lo;
    s->next_hi[*n] = hi;
    (*n)++;
}

/* The rows on one side of the point: dir +1 towards +y, -1 towards -y. */
static void scan_side(scan *sc, int dir)
{
    nav__wp_scan *s = sc->s;
    int64_t w = sc->c->width, h = sc->c->height;
    double sx = sc->sx, sy = sc->sy;
    uint32_t n = 1;
    s->lo[0] = -INFINITY;
    s->hi[0] = INFINITY;
    for (int64_t r = dir > 0 ? (int64_t)floor(sy) : (int64_t)ceil(sy) - 1; n > 0 && r >= 0 && r < h;
         r += dir) {
        /* the row's near and far lines, and their distances from the point */
        double yn = dir > 0 ? fmax((double)r, sy) : fmin((double)r + 1, sy);
        double yf = dir > 0 ? (double)r + 1 : (double)r;
        double d0 = fabs(yn - sy), d1 = fabs(yf - sy);
        uint32_t kept = 0;
        for (uint32_t i = 0; i < n; i++) {
            double lo = s->lo[i], hi = s->hi[i];
            /* the span of the row these rays cross, and the cells that may block them */
            double lo0 = nav__wp_times(lo, d0), lo1 = nav__wp_times(lo, d1), hi0 = nav__wp_times(hi, d0),
                   hi1 = nav__wp_times(hi, d1);
            double xa = sx + (lo0 < lo1 ? lo0 : lo1), xb = sx + (hi0 > hi1 ? hi0 : hi1);
            if (sc->span) sc->span(sc->span_user, r, d0, d1, lo, hi);
            int64_t first = xa < 0 ? -1 : xa >= (double)w ? w : (int64_t)xa - 1;
            int64_t last = xb < 0 ? -1 : xb >= (double)w ? w : (int64_t)xb;
            double lo_reach = lo - slack(lo), hi_reach = hi + slack(hi);
            double start = lo;
            const uint64_t *row = sc->c->bits + (size_t)r * sc->c->row_words;
            for (int64_t x = first; x <= last; x++) {
                int64_t b0 = find_cell(row, x, last, true);
                if (b0 > last) break;
                int64_t b1 = find_cell(row, b0, last, false) - 1;
                x = b1;
                /* the rays entering cells b0 .. b1: the open interval (m1, m2) */
                double left = (double)b0 - sx, right = (double)(b1 + 1) - sx;
                double m1 = b0 < 0 ? -INFINITY : left >= 0 ? left / d1 : d0 > 0 ? left / d0 : -INFINITY;
                double m2 = b1 >= w ? INFINITY : right <= 0 ? right / d1 : d0 > 0 ? right / d0 : INFINITY;
                if (sc->taut_only) {
                    /* a taut segment grazes the run at the corner of its bounding ray m1 or m2 */
                    if (b0 >= 0 && m1 >= lo_reach && m1 <= hi_reach) report(sc, b0, left >= 0 ? yf : yn);
                    if (b1 < w && m2 >= lo_reach && m2 <= hi_reach) report(sc, b1 + 1, right <= 0 ? yf : yn);
                    /* in the first row, the horizontal rays along the point's line; and the vertical
                     * ray along a run's side meets both its corners */
                    if (b0 >= 0 && ((d0 == 0 && left > 0) || left == 0)) report(sc, b0, yn);
                    if (b1 < w && ((d0 == 0 && right < 0) || right == 0)) report(sc, b1 + 1, yn);
                } else if (m1 <= hi_reach && m2 >= lo_reach) {
                    if (b0 >= 0) report(sc, b0, yn), report(sc, b0, yf);
                    if (b1 < w) report(sc, b1 + 1, yn), report(sc, b1 + 1, yf);
                }
                double cut_lo = m1 == -INFINITY ? m1 : m1 + slack(m1);
                double cut_hi = m2 == INFINITY ? m2 : m2 - slack(m2);
                if (!(cut_lo < cut_hi)) continue;
                keep(s, &kept, start, hi < cut_lo ? hi : cut_lo);
                if (cut_hi > start) start = cut_hi;
            }
            keep(s, &kept, start, hi);
        }
        double *t = s->lo;
        s->lo = s->next_lo, s->next_lo = t;
        t = s->hi;
        s->hi = s->next_hi, s->next_hi = t;
        n = kept;
    }
}

uint32_t nav__wp_scan_corners(const nav__wp_corners *c, nav__wp_scan *s, double sx, double sy, bool taut_only,
                              uint32_t *out)
{
    if (++s->stamp_now == 0) { /* wrapped: forget every stamp */
        for (uint32_t i = 0; i < c->count; i++) s->stamp[i] = 0;
        s->stamp_now = 1;
    }
    scan sc = {.c = c, .s = s, .sx = sx, .sy = sy, .taut_only = taut_only, .out = out};
    scan_side(&sc, 1);
    scan_side(&sc, -1);
    return sc.count;
}

void nav__wp_scan_region(const nav__wp_corners *c, nav__wp_scan *s, double sx, double sy,
                         nav__wp_span_fn span, void *user)
{
    scan sc = {.c = c, .s = s, .sx = sx, .sy = sy, .span = span, .span_user = user};
    scan_side(&sc, 1);
    scan_side(&sc, -1);
}
