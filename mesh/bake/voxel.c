/* The heightfield of a level's triangles (voxel.h): each triangle cut row by row, then column by
 * column, along the cell lines (a convex polygon split by a line stays convex, so each piece is
 * the triangle's part over one column), and the heights of each piece added to its column as a
 * span. */
#include "voxel.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "ds.h"
#include "parallel.h"

#define MAX_COLUMNS (1u << 28)

/* The column heads, none yet, with room for one more: the open space's column starts take their place
 * (nav__open_space_build). False when memory runs out. */
static bool column_heads(nav__heightfield *hf)
{
    size_t columns = (size_t)hf->width * (size_t)hf->depth;
    if (!nav__arr_reserve(hf->column, columns + 1) || !nav__arr_setlen(hf->column, columns)) return false;
    memset(hf->column, 0xff, columns * sizeof *hf->column); /* NAV__NO_SPAN */
    return true;
}

nav_status nav__heightfield_init(nav__heightfield *hf, nav_vec3 min, nav_vec3 max, float cell,
                                 float cell_height)
{
    *hf = (nav__heightfield){.free = NAV__NO_SPAN};
    if (!(cell > 0) || !(cell_height > 0) || !isfinite(cell) || !isfinite(cell_height))
        return NAV_FAILURE | NAV_INVALID_PARAM;
    if (!(min.x <= max.x && min.y <= max.y && min.z <= max.z) || !isfinite(min.x) || !isfinite(min.y) ||
        !isfinite(min.z) || !isfinite(max.x) || !isfinite(max.y) || !isfinite(max.z))
        return NAV_FAILURE | NAV_INVALID_PARAM;
    double w = floor(((double)max.x - min.x) / cell) + 1, d = floor(((double)max.z - min.z) / cell) + 1,
           h = ceil(((double)max.y - min.y) / cell_height) + 1;
    if (w * d > MAX_COLUMNS || h > NAV__SPAN_MAX_HEIGHT) return NAV_FAILURE | NAV_TOO_LARGE;
    hf->width = (int32_t)w, hf->depth = (int32_t)d, hf->steps = (uint32_t)h;
    hf->row_first = 0, hf->row_end = hf->depth;
    hf->cell = cell, hf->cell_height = cell_height, hf->origin = min;
    if (!column_heads(hf)) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    return NAV_SUCCESS;
}

nav_status nav__heightfield_init_grid(nav__heightfield *hf, nav_vec3 origin, int32_t width, int32_t depth,
                                      uint32_t steps, float cell, float cell_height)
{
    *hf = (nav__heightfield){.free = NAV__NO_SPAN};
    if (width <= 0 || depth <= 0 || steps == 0 || steps > NAV__SPAN_MAX_HEIGHT ||
        (uint64_t)width * (uint64_t)depth > MAX_COLUMNS)
        return NAV_FAILURE | NAV_TOO_LARGE;
    hf->width = width, hf->depth = depth, hf->steps = steps;
    hf->row_first = 0, hf->row_end = depth;
    hf->cell = cell, hf->cell_height = cell_height, hf->origin = origin;
    if (!column_heads(hf)) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    return NAV_SUCCESS;
}

void nav__heightfield_free(nav__heightfield *hf)
{
    arrfree(hf->column);
    arrfree(hf->spans);
    *hf = (nav__heightfield){.free = NAV__NO_SPAN};
}

/* new_span's slow way: the pool grown (the heightfield's own), or a chunk more taken (a band's). */
static uint32_t more_spans(nav__heightfield *hf)
{
    if (hf->chunks) {
        uint64_t at = atomic_fetch_add_explicit(&hf->chunks->taken, NAV__SPAN_CHUNK, memory_order_relaxed);
        if (at + NAV__SPAN_CHUNK > hf->chunks->capacity) {
            hf->chunks_ran_out = hf->out_of_memory = true;
            return NAV__NO_SPAN;
        }
        hf->next = (uint32_t)at, hf->end = (uint32_t)(at + NAV__SPAN_CHUNK);
    } else {
        if (hf->spans) stbds_header(hf->spans)->length = hf->next;
        if (hf->next >= NAV__NO_SPAN - 1 || !nav__arr_reserve(hf->spans, 1)) {
            hf->out_of_memory = true;
            return NAV__NO_SPAN;
        }
        size_t room = arrcap(hf->spans);
        hf->end = room < NAV__NO_SPAN ? (uint32_t)room : NAV__NO_SPAN; /* (indices stay below it) */
    }
    hf->span_count++;
    return hf->next++;
}

/* A span from the free list or the pool; NAV__NO_SPAN, with hf->out_of_memory set, when the pool
 * cannot grow. */
static inline uint32_t new_span(nav__heightfield *hf)
{
    if (hf->free != NAV__NO_SPAN) {
        uint32_t s = hf->free;
        hf->free = hf->spans[s].next;
        hf->span_count++;
        return s;
    }
    if (hf->next == hf->end) return more_spans(hf);
    hf->span_count++;
    return hf->next++;
}

static void free_span(nav__heightfield *hf, uint32_t s)
{
    hf->span_count--;
    hf->spans[s].next = hf->free;
    hf->free = s;
}

/* nav__heightfield_add_span, inlined into the rasteriser (which looks at hf->out_of_memory once a
 * triangle) */
static inline void add_span(nav__heightfield *hf, int32_t x, int32_t z, uint32_t bottom, uint32_t top,
                            uint8_t area, uint32_t merge)
{
    size_t c = (size_t)z * (size_t)hf->width + (size_t)x;
    uint32_t below = NAV__NO_SPAN, at = hf->column[c];       /* the span before at in the column */
    while (at != NAV__NO_SPAN && hf->spans[at].top < bottom) /* wholly below, not touching */
        below = at, at = hf->spans[at].next;
    if (at == NAV__NO_SPAN || hf->spans[at].bottom > top) { /* touching none: a span of its own */
        uint32_t s = new_span(hf);                          /* (it may move the pool) */
        if (s == NAV__NO_SPAN) return;                      /* out of memory */
        hf->spans[s] = (nav__span){(uint16_t)bottom, (uint16_t)top, area, at};
        if (below == NAV__NO_SPAN)
            hf->column[c] = s;
        else
            hf->spans[below].next = s;
        return;
    }
    /* touching or overlapping: one span, in the first one's place */
    uint32_t keep = at;
    while (at != NAV__NO_SPAN && hf->spans[at].bottom <= top) {
        const nav__span *cur = &hf->spans[at];
        uint32_t gap = cur->top > top ? cur->top - top : top - cur->top;
        if (gap <= merge)
            area = cur->area > area ? cur->area : area;
        else if (cur->top > top)
            area = cur->area;
        if (cur->bottom < bottom) bottom = cur->bottom;
        if (cur->top > top) top = cur->top;
        uint32_t next = cur->next;
        if (at != keep) free_span(hf, at);
        at = next;
    }
    hf->spans[keep] = (nav__span){(uint16_t)bottom, (uint16_t)top, area, at};
}

bool nav__heightfield_add_span(nav__heightfield *hf, int32_t x, int32_t z, uint32_t bottom, uint32_t top,
                               uint8_t area, uint32_t merge)
{
    add_span(hf, x, z, bottom, top, area, merge);
    return !hf->out_of_memory;
}

/* A point in the heightfield's own units: x and z in cells from its origin, y in steps above it. */
typedef struct point {
    float x, y, z;
} point;

/* The point where the edge from a to b crosses the line z = line (strictly between its ends). */
static point crossing(point a, point b, float line)
{
    float t = (line - a.z) / (b.z - a.z);
    return (point){a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, line};
}

/* The part of convex polygon in (n points) in row z, between the lines z and z + 1 (points on them
 * included), into out; returns its point count. Each crossing is found from the polygon's own edge,
 * so two rows meet at the same points to the bit, whatever rows were cut before. */
static int row_piece(const point *in, int n, int32_t z, point *out)
{
    const float lo = (float)z, hi = (float)(z + 1);
    int m = 0;
    for (int i = 0; i < n; i++) {
        point a = in[i], b = in[i + 1 < n ? i + 1 : 0];
        if (a.z >= lo && a.z <= hi) out[m++] = a;
        if (a.z < b.z) { /* going up: the low line first */
            if (a.z < lo && b.z > lo) out[m++] = crossing(a, b, lo);
            if (a.z < hi && b.z > hi) out[m++] = crossing(a, b, hi);
        } else if (a.z > b.z) {
            if (a.z > hi && b.z < hi) out[m++] = crossing(a, b, hi);
            if (a.z > lo && b.z < lo) out[m++] = crossing(a, b, lo);
        }
    }
    return m;
}

/* A triangle's area type: 0 when it faces down or leans more than the slope allows. */
static uint8_t walkable(const float *a, const float *b, const float *c, float cos_slope, uint8_t area)
{
    float e0[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e1[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    float n[3] = {e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2],
                  e0[0] * e1[1] - e0[1] * e1[0]};
    float length = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    return length > 0 && n[1] > cos_slope * length ? area : 0;
}

/* floorf and ceilf to integers, without the library's calls (no SSE4.1 in the baseline), for values
 * within +-2^30 (the rasteriser clips and clamps what it hands them to the box and a little more). */
static int32_t floor_i(float f)
{
    int32_t i = (int32_t)f;
    return i - (f < (float)i);
}

static int32_t ceil_i(float f)
{
    int32_t i = (int32_t)f;
    return i + (f > (float)i);
}

static float min_f(float a, float b)
{
    return a < b ? a : b;
}

static float max_f(float a, float b)
{
    return a > b ? a : b;
}

/* Adds the span of heights [lo, hi] (in steps) to column (x, z), clamped to the box. */
static void add_heights(nav__heightfield *hf, int32_t x, int32_t z, float lo, float hi, uint8_t area,
                        uint32_t merge)
{
    const int32_t steps = (int32_t)hf->steps;
    int32_t bottom = floor_i(max_f(lo, -1)), top = ceil_i(min_f(hi, (float)steps + 1));
    if (top < 0 || bottom >= steps) return; /* above or below the box */
    if (bottom < 0) bottom = 0;
    if (top > steps) top = steps;
    if (top <= bottom) top = bottom + 1; /* a flat piece: one step */
    if (top > steps) top = steps, bottom = top - 1;
    add_span(hf, x, z, (uint32_t)bottom, (uint32_t)top, area, merge);
}

/* Adds the spans of one row's piece of a triangle (row: nr points, a convex polygon) to the
 * columns whose cells it overlaps: a column's span holds the piece's heights over it, the least and
 * greatest of the piece's points in it and of its crossings with the column's two side lines (its
 * heights are linear along its edges, so those are its extremes over the column). A column the
 * piece only touches along a side line gets nothing, unless the piece has no width at all (a wall
 * along a line belongs to the column after it). lo and hi: scratch of a row's width. */
static void rasterize_row(nav__heightfield *hf, int32_t z, const point *row, int nr, uint8_t area,
                          uint32_t merge, float *lo, float *hi)
{
    float rx0 = row[0].x, rx1 = row[0].x, ry0 = row[0].y, ry1 = row[0].y;
    for (int i = 1; i < nr; i++) {
        rx0 = min_f(rx0, row[i].x), rx1 = max_f(rx1, row[i].x);
        ry0 = min_f(ry0, row[i].y), ry1 = max_f(ry1, row[i].y);
    }
    int32_t x0 = floor_i(rx0), x1 = rx1 > rx0 ? ceil_i(rx1) - 1 : x0;
    if (x1 < x0) x1 = x0;
    if (x1 < 0 || x0 >= hf->width) return;
    if (x0 == x1) { /* within one column: its heights are the piece's */
        add_heights(hf, x0, z, ry0, ry1, area, merge);
        return;
    }
    int32_t first = x0 < 0 ? 0 : x0, last = x1 >= hf->width ? hf->width - 1 : x1;
    for (int32_t x = first; x <= last; x++) lo[x] = INFINITY, hi[x] = -INFINITY;
    /* each point (b, in its column, and in the one before when on the line between) and the edge
     * from the point before it (a: at each line strictly between its ends, both columns) */
    point a = row[nr - 1];
    int32_t ia = floor_i(a.x);
    for (int i = 0; i < nr; i++) {
        point b = row[i];
        int32_t ib = floor_i(b.x);
        if (ib >= first && ib <= last) lo[ib] = min_f(lo[ib], b.y), hi[ib] = max_f(hi[ib], b.y);
        if ((float)ib == b.x && ib - 1 >= first && ib - 1 <= last)
            lo[ib - 1] = min_f(lo[ib - 1], b.y), hi[ib - 1] = max_f(hi[ib - 1], b.y);
        if (ia != ib) {         /* (within one column, it crosses no line) */
            point p = a, q = b; /* p the end with the lesser x */
            int32_t ip = ia, iq = ib;
            if (a.x > b.x) p = b, q = a, ip = ib, iq = ia;
            int32_t l0 = ip + 1, l1 = iq - ((float)iq == q.x);
            if (l0 < first) l0 = first;
            if (l1 > last + 1) l1 = last + 1;
            float slope = l0 <= l1 ? (q.y - p.y) / (q.x - p.x) : 0;
            for (int32_t l = l0; l <= l1; l++) {
                float y = p.y + slope * ((float)l - p.x);
                if (l - 1 >= first) lo[l - 1] = min_f(lo[l - 1], y), hi[l - 1] = max_f(hi[l - 1], y);
                if (l <= last) lo[l] = min_f(lo[l], y), hi[l] = max_f(hi[l], y);
            }
        }
        a = b, ia = ib;
    }
    for (int32_t x = first; x <= last; x++)
        if (lo[x] <= hi[x]) add_heights(hf, x, z, lo[x], hi[x], area, merge);
}

/* Cuts convex polygon p (*n points, in doubles: x, y, z) to its part where coordinate axis (0: x,
 * 2: z) is at least low and at most high. */
static void clip_double(double (*p)[3], int *n, int axis, double low, double high)
{
    for (int side = 0; side < 2; side++) {
        double out[12][3], line = side ? high : low, sign = side ? -1 : 1;
        int m = 0;
        for (int i = 0, j = *n - 1; i < *n; j = i, i++) {
            double da = sign * (p[j][axis] - line), db = sign * (p[i][axis] - line);
            if ((da < 0) != (db < 0)) {
                double t = da / (da - db);
                for (int k = 0; k < 3; k++) out[m][k] = p[j][k] + (p[i][k] - p[j][k]) * t;
                out[m++][axis] = line;
            }
            if (db >= 0) memcpy(out[m++], p[i], sizeof out[0]);
        }
        memcpy(p, out, (size_t)m * sizeof out[0]);
        *n = m;
    }
}

/* Triangle points beyond this many cells from the box are clipped to it first (in doubles), so that
 * every coordinate the rows see stays small. */
#define FAR_CELLS 4194304.0f

static void rasterize_triangle(nav__heightfield *hf, const float *a, const float *b, const float *c,
                               uint8_t area, uint32_t merge, float *lo, float *hi)
{
    const float inverse = 1.0f / hf->cell, inverse_y = 1.0f / hf->cell_height;
    const nav_vec3 o = hf->origin;
    /* a triangle clipped to the box has at most 7 points, and a row's piece of it 9 */
    point poly[12];
    const float *v[3] = {a, b, c};
    for (int i = 0; i < 3; i++)
        poly[i] = (point){(v[i][0] - o.x) * inverse, (v[i][1] - o.y) * inverse_y, (v[i][2] - o.z) * inverse};
    float lo_x = min_f(poly[0].x, min_f(poly[1].x, poly[2].x)),
          hi_x = max_f(poly[0].x, max_f(poly[1].x, poly[2].x));
    float lo_z = min_f(poly[0].z, min_f(poly[1].z, poly[2].z)),
          hi_z = max_f(poly[0].z, max_f(poly[1].z, poly[2].z));
    if (hi_z < (float)hf->row_first || lo_z >= (float)hf->row_end || hi_x < 0 || lo_x >= (float)hf->width)
        return;
    int n = 3;
    if (!(lo_x > -FAR_CELLS && hi_x < FAR_CELLS && lo_z > -FAR_CELLS && hi_z < FAR_CELLS)) {
        double p[12][3];
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++)
                p[i][k] = ((double)v[i][k] - (double)(&o.x)[k]) / (k == 1 ? hf->cell_height : hf->cell);
        clip_double(p, &n, 0, -1, hf->width + 1);
        clip_double(p, &n, 2, -1, hf->depth + 1);
        lo_z = FAR_CELLS, hi_z = -FAR_CELLS;
        for (int i = 0; i < n; i++) {
            poly[i] = (point){(float)p[i][0], (float)p[i][1], (float)p[i][2]};
            lo_z = min_f(lo_z, poly[i].z), hi_z = max_f(hi_z, poly[i].z);
        }
        if (n < 3 || hi_z < (float)hf->row_first || lo_z >= (float)hf->row_end) return;
    }
    int32_t z0 = floor_i(lo_z), z1 = floor_i(hi_z);
    if (z0 == z1) { /* within one row */
        if (z0 >= hf->row_first && z0 < hf->row_end) rasterize_row(hf, z0, poly, n, area, merge, lo, hi);
        return;
    }
    if (z0 < hf->row_first) z0 = hf->row_first; /* only the heightfield's rows */
    if (z1 >= hf->row_end) z1 = hf->row_end - 1;
    point row[12];
    for (int32_t z = z0; z <= z1; z++) {
        int nr = row_piece(poly, n, z, row);
        if (nr >= 3) rasterize_row(hf, z, row, nr, area, merge, lo, hi);
    }
}

bool nav__rasterize(nav__heightfield *hf, const nav_triangles *t, const uint32_t *which, uint32_t count,
                    float max_slope, uint32_t merge)
{
    float cos_slope = cosf(max_slope * (float)(M_PI / 180.0));
    float *lo = NULL, *hi = NULL;
    if (!nav__arr_setlen(lo, (size_t)hf->width) || !nav__arr_setlen(hi, (size_t)hf->width))
        hf->out_of_memory = true;
    uint32_t n = which ? count : t->triangle_count;
    for (uint32_t k = 0; k < n && !hf->out_of_memory; k++) {
        uint32_t i = which ? which[k] : k;
        const uint32_t *v = t->indices + 3 * (size_t)i;
        const float *a = t->vertices + 3 * (size_t)v[0], *b = t->vertices + 3 * (size_t)v[1],
                    *c = t->vertices + 3 * (size_t)v[2];
        uint8_t area = t->areas ? t->areas[i] : NAV_GEOMETRY_DEFAULT_AREA;
        rasterize_triangle(hf, a, b, c, walkable(a, b, c, cos_slope, area), merge, lo, hi);
    }
    arrfree(lo);
    arrfree(hi);
    return !hf->out_of_memory;
}

uint64_t nav__triangle_columns(const float *a, const float *b, const float *c, nav_vec3 origin, float cell,
                               int32_t width, int32_t depth)
{
    const double inverse = 1.0 / cell;
    double x[3], z[3];
    const float *v[3] = {a, b, c};
    for (int k = 0; k < 3; k++)
        x[k] = (v[k][0] - (double)origin.x) * inverse, z[k] = (v[k][2] - (double)origin.z) * inverse;
    double lo_x = fmin(x[0], fmin(x[1], x[2])), hi_x = fmax(x[0], fmax(x[1], x[2])),
           lo_z = fmin(z[0], fmin(z[1], z[2])), hi_z = fmax(z[0], fmax(z[1], z[2]));
    /* its box clipped to the grid, a column more each side for the rows' rounding */
    double columns = fmin(hi_x, width) - fmax(lo_x, 0) + 3, rows = fmin(hi_z, depth) - fmax(lo_z, 0) + 3;
    if (columns <= 0 || rows <= 0 || hi_x < -1 || hi_z < -1 || lo_x > width + 1 || lo_z > depth + 1) return 0;
    /* rows of pieces: the pieces' widths sum to at most its shadow's area and 6 of its widths (each
     * side's x moves one way then the other along z, so it sweeps at most 2 widths, and the two end
     * rows hold at most a width each), and each row adds at most 2 columns for its ends */
    double wx = hi_x - lo_x + 1, wz = hi_z - lo_z + 1;
    double area = fabs((x[1] - x[0]) * (z[2] - z[0]) - (z[1] - z[0]) * (x[2] - x[0])) / 2;
    double by_rows = area + 6 * wx + 2 * (wz + 2);
    double bound = fmin(by_rows, columns * rows);
    bound = fmin(bound, (double)width * (double)depth);
    return (uint64_t)ceil(bound);
}

/* ---- In bands of rows on threads ---------------------------------------------------------------- */

typedef struct band_work {
    nav__heightfield *bands;
    const nav_triangles *triangles;
    uint32_t *which[NAV__ROW_BANDS]; /* stb_ds: each band's triangles, in the order given */
    int order[NAV__ROW_BANDS];       /* the bands, the most work first (so that the last ones are short) */
    float max_slope;
    uint32_t merge;
} band_work;

static bool rasterize_band(void *ctx, void *scratch, uint32_t item)
{
    (void)scratch;
    band_work *w = ctx;
    int band = w->order[item];
    bool ok = nav__rasterize(&w->bands[band], w->triangles, w->which[band], (uint32_t)arrlenu(w->which[band]),
                             w->max_slope, w->merge);
    arrfree(w->which[band]);
    return ok; /* false: out of memory, or of the shared pool's chunks */
}

/* The band whose rows hold row (the first or the last band for a row before or after them all). */
static int band_of(const nav__heightfield *bands, int32_t depth, float row)
{
    int k = 0;
    if (row > 0) {
        float f = row * (float)NAV__ROW_BANDS / (float)depth;
        k = f >= (float)NAV__ROW_BANDS ? NAV__ROW_BANDS - 1 : (int)f;
    }
    while (k > 0 && row < (float)bands[k].row_first) k--;
    while (k < NAV__ROW_BANDS - 1 && row >= (float)bands[k].row_end) k++;
    return k;
}

bool nav__rasterize_parallel(nav__heightfield *hf, const nav_triangles *t, const uint32_t *which,
                             uint32_t count, float max_slope, uint32_t merge, nav__pool *pool)
{
    return nav__rasterize_bands(hf, t, which, count, max_slope, merge, pool, 0);
}

bool nav__rasterize_bands(nav__heightfield *hf, const nav_triangles *t, const uint32_t *which, uint32_t count,
                          float max_slope, uint32_t merge, nav__pool *pool, uint64_t room)
{
    if (!pool || hf->depth < NAV__ROW_BANDS * NAV__BAND_LEAST_ROWS || hf->spans)
        return nav__rasterize(hf, t, which, count, max_slope, merge);
    nav__heightfield bands[NAV__ROW_BANDS];
    band_work w = {.bands = bands, .triangles = t, .max_slope = max_slope, .merge = merge};
    /* each triangle to the bands its rows (and one more either side: the cut is the rows' own) meet */
    const float inverse = 1.0f / hf->cell;
    uint32_t n = which ? count : t->triangle_count;
    double load[NAV__ROW_BANDS] = {0}; /* rows and columns a band's triangles cover in it, roughly */
    uint64_t reach = 0;                /* the spans they can add: nav__triangle_columns */
    bool ok = true;
    for (int k = 0; k < NAV__ROW_BANDS; k++) { /* (the bands' rows, for band_of) */
        bands[k].row_first = nav__band_row(hf->depth, (uint32_t)k);
        bands[k].row_end = nav__band_row(hf->depth, (uint32_t)k + 1);
    }
    for (uint32_t k = 0; k < n && ok; k++) {
        uint32_t i = which ? which[k] : k;
        const uint32_t *v = t->indices + 3 * (size_t)i;
        const float *a = t->vertices + 3 * (size_t)v[0], *b = t->vertices + 3 * (size_t)v[1],
                    *c = t->vertices + 3 * (size_t)v[2];
        float lo = (min_f(a[2], min_f(b[2], c[2])) - hf->origin.z) * inverse - 1,
              hi = (max_f(a[2], max_f(b[2], c[2])) - hf->origin.z) * inverse + 1,
              wide = (max_f(a[0], max_f(b[0], c[0])) - min_f(a[0], min_f(b[0], c[0]))) * inverse;
        if (hi < 0 || lo >= (float)hf->depth) continue;
        reach += nav__triangle_columns(a, b, c, hf->origin, hf->cell, hf->width, hf->depth);
        for (int k2 = band_of(bands, hf->depth, lo), last = band_of(bands, hf->depth, hi); k2 <= last && ok;
             k2++) {
            ok = nav__arr_push(w.which[k2], i);
            float rows = min_f(hi, (float)bands[k2].row_end) - max_f(lo, (float)bands[k2].row_first);
            load[k2] += (double)rows * (4.0 + (double)wide);
        }
    }
    for (int k = 0; k < NAV__ROW_BANDS; k++) { /* the most work first */
        int at = k;
        while (at > 0 && load[w.order[at - 1]] < load[k]) w.order[at] = w.order[at - 1], at--;
        w.order[at] = k;
    }
    /* one pool for them all: room for every span the triangles can add (nor more than a column holds,
     * half its steps: spans neither touch nor overlap), and a chunk a band begins and does not fill */
    uint64_t most = (uint64_t)hf->width * (uint64_t)hf->depth * ((hf->steps + 1) / 2);
    uint64_t capacity =
        room ? room : (reach < most ? reach : most) + (uint64_t)NAV__ROW_BANDS * NAV__SPAN_CHUNK;
    nav__span_chunks chunks = {.capacity = capacity};
    atomic_init(&chunks.taken, 0);
    /* (no pool for the bound when it holds too many spans for the indices: on this thread) */
    bool banded = ok && capacity < NAV__NO_SPAN, ran_out = false;
    if (banded && (ok = nav__arr_reserve(hf->spans, (size_t)capacity))) {
        for (int k = 0; k < NAV__ROW_BANDS; k++) {
            int32_t row_first = bands[k].row_first, row_end = bands[k].row_end;
            bands[k] = *hf; /* the same columns and pool (each band writes its own rows, its own chunks) */
            bands[k].row_first = row_first, bands[k].row_end = row_end;
            bands[k].chunks = &chunks, bands[k].next = bands[k].end = 0;
        }
        nav__work work = {.count = NAV__ROW_BANDS, .run = rasterize_band, .ctx = &w};
        /* fails only when a band runs out of memory, or of chunks (no progress to cancel) */
        (void)nav__pool_run(pool, &work);
        for (int k = 0; k < NAV__ROW_BANDS; k++) {
            hf->span_count += bands[k].span_count;
            ran_out |= bands[k].chunks_ran_out;
            ok &= !bands[k].out_of_memory || bands[k].chunks_ran_out; /* (a band stops at either) */
        }
        uint64_t taken = atomic_load(&chunks.taken);
        hf->next = (uint32_t)(taken < capacity ? taken : capacity); /* (the chunks' gaps among them) */
        hf->end = (uint32_t)capacity;
    }
    for (int k = 0; k < NAV__ROW_BANDS; k++) arrfree(w.which[k]); /* (what a failure left) */
    if (!ok) {
        hf->out_of_memory = true;
        return false;
    }
    if (banded && !ran_out) return true;
    if (ran_out) { /* more spans than the bound (it holds: not to be reached): all again, on this thread */
        memset(hf->column, 0xff, arrlenu(hf->column) * sizeof *hf->column);
        arrfree(hf->spans);
        hf->span_count = 0, hf->free = NAV__NO_SPAN, hf->next = hf->end = 0;
    }
    return nav__rasterize(hf, t, which, count, max_slope, merge);
}
