/* The heightfield of a level's triangles (voxel.h): each triangle cut row by row, then column by
 * column, along the cell lines (a convex polygon split by a line stays convex, so each piece is
 * the triangle's part over one column), and the heights of each piece added to its column as a
 * span. */
#include "voxel.h"

#include <math.h>
#include <string.h>

#include "ds.h"

#define MAX_COLUMNS (1u << 28)

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
    hf->cell = cell, hf->cell_height = cell_height, hf->origin = min;
    arrsetlen(hf->column, (size_t)hf->width * (size_t)hf->depth);
    memset(hf->column, 0xff, arrlenu(hf->column) * sizeof *hf->column); /* NAV__NO_SPAN */
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
    hf->cell = cell, hf->cell_height = cell_height, hf->origin = origin;
    arrsetlen(hf->column, (size_t)width * (size_t)depth);
    memset(hf->column, 0xff, arrlenu(hf->column) * sizeof *hf->column);
    return NAV_SUCCESS;
}

void nav__heightfield_free(nav__heightfield *hf)
{
    arrfree(hf->column);
    arrfree(hf->spans);
    *hf = (nav__heightfield){.free = NAV__NO_SPAN};
}

static uint32_t new_span(nav__heightfield *hf)
{
    hf->span_count++;
    if (hf->free != NAV__NO_SPAN) {
        uint32_t s = hf->free;
        hf->free = hf->spans[s].next;
        return s;
    }
    arrput(hf->spans, (nav__span){0});
    return (uint32_t)(arrlenu(hf->spans) - 1);
}

static void free_span(nav__heightfield *hf, uint32_t s)
{
    hf->span_count--;
    hf->spans[s].next = hf->free;
    hf->free = s;
}

void nav__heightfield_add_span(nav__heightfield *hf, int32_t x, int32_t z, uint32_t bottom, uint32_t top,
                               uint8_t area, uint32_t merge)
{
    uint32_t *head = &hf->column[(size_t)z * (size_t)hf->width + (size_t)x];
    uint32_t prev = NAV__NO_SPAN, at = *head;
    while (at != NAV__NO_SPAN) {
        nav__span *cur = &hf->spans[at];
        if (cur->top < bottom) { /* wholly below, not touching */
            prev = at, at = cur->next;
            continue;
        }
        if (cur->bottom > top) break; /* wholly above: the new one goes below it */
        /* touching or overlapping: one span of both */
        uint32_t gap = cur->top > top ? cur->top - top : top - cur->top;
        if (gap <= merge)
            area = cur->area > area ? cur->area : area;
        else if (cur->top > top)
            area = cur->area;
        if (cur->bottom < bottom) bottom = cur->bottom;
        if (cur->top > top) top = cur->top;
        uint32_t next = cur->next;
        if (prev == NAV__NO_SPAN)
            *head = next;
        else
            hf->spans[prev].next = next;
        free_span(hf, at);
        at = next;
    }
    uint32_t s = new_span(hf);
    hf->spans[s] = (nav__span){(uint16_t)bottom, (uint16_t)top, area, at};
    if (prev == NAV__NO_SPAN)
        *head = s;
    else
        hf->spans[prev].next = s;
}

/* Splits convex polygon in (n points, 3 floats each) by the line where coordinate `axis` is
 * `value`: the part at or below it into below (*nb points), the part at or above into above. */
static void split(const float *in, int n, int axis, float value, float *below, int *nb, float *above, int *na)
{
    *nb = *na = 0;
    for (int i = 0, j = n - 1; i < n; j = i, i++) {
        const float *a = in + 3 * j, *b = in + 3 * i;
        float da = a[axis] - value, db = b[axis] - value;
        if ((da < 0) != (db < 0) && da != 0 && db != 0) { /* the edge crosses: its point on the line */
            float t = da / (da - db), p[3];
            for (int k = 0; k < 3; k++) p[k] = a[k] + (b[k] - a[k]) * t;
            p[axis] = value;
            memcpy(below + 3 * (*nb)++, p, sizeof p);
            memcpy(above + 3 * (*na)++, p, sizeof p);
        }
        if (db <= 0) memcpy(below + 3 * (*nb)++, b, 3 * sizeof *b);
        if (db >= 0) memcpy(above + 3 * (*na)++, b, 3 * sizeof *b);
    }
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

/* Cuts convex polygon poly (*n points) along the line where coordinate `axis` is `value`: the part
 * at or below it goes to low (its point count returned), the part at or above to high (*n its
 * points). */
static int cut(const float *poly, int *n, int axis, float value, float *low, float *high)
{
    int nl, nh;
    split(poly, *n, axis, value, low, &nl, high, &nh);
    *n = nh;
    return nl;
}

/* floorf and ceilf to integers, without the library's calls (no SSE4.1 in the baseline): values
 * beyond +-2^30 are clamped first (far outside any box, they only need to compare so). */
static int32_t floor_i(float f)
{
    f = f < -1073741824.0f ? -1073741824.0f : f > 1073741824.0f ? 1073741824.0f : f;
    int32_t i = (int32_t)f;
    return i - (f < (float)i);
}

static int32_t ceil_i(float f)
{
    f = f < -1073741824.0f ? -1073741824.0f : f > 1073741824.0f ? 1073741824.0f : f;
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

/* Adds the spans of one row's piece of a triangle (row: nr points, a convex polygon) to the
 * columns whose cells it overlaps: a column's span holds the piece's heights over it, the least and
 * greatest of the piece's points in it and of its crossings with the column's two side lines (its
 * heights are linear along its edges, so those are its extremes over the column). A column the
 * piece only touches along a side line gets nothing, unless the piece has no width at all (a wall
 * along a line belongs to the column after it). lo and hi: scratch of a row's width. */
static void rasterize_row(nav__heightfield *hf, int32_t z, const float *row, int nr, uint8_t area,
                          uint32_t merge, float *lo, float *hi)
{
    const float inverse = 1.0f / hf->cell, origin_x = hf->origin.x;
    float fx[12];   /* each point's x in cells */
    int32_t ix[12]; /* its column */
    float rx0 = row[0], rx1 = row[0];
    for (int i = 0; i < nr; i++) {
        rx0 = min_f(rx0, row[3 * i]), rx1 = max_f(rx1, row[3 * i]);
        fx[i] = (row[3 * i] - origin_x) * inverse;
        ix[i] = floor_i(fx[i]);
    }
    float f0 = (rx0 - origin_x) * inverse, f1 = (rx1 - origin_x) * inverse;
    int32_t x0 = floor_i(f0), x1 = rx1 > rx0 ? ceil_i(f1) - 1 : x0;
    if (x1 < x0) x1 = x0;
    if (x1 < 0 || x0 >= hf->width) return;
    int32_t first = x0 < 0 ? 0 : x0, last = x1 >= hf->width ? hf->width - 1 : x1;
    for (int32_t x = first; x <= last; x++) lo[x] = INFINITY, hi[x] = -INFINITY;
    for (int i = 0; i < nr; i++) {
        float y = row[3 * i + 1];
        int32_t x = ix[i];
        for (int32_t k = (float)x == fx[i] ? x - 1 : x; k <= x; k++) /* on a line: both columns */
            if (k >= first && k <= last) lo[k] = min_f(lo[k], y), hi[k] = max_f(hi[k], y);
    }
    for (int i = 0, j = nr - 1; i < nr; j = i, i++) {
        int p = j, q = i; /* p the edge's end with the lesser x */
        if (row[3 * p] == row[3 * q]) continue;
        if (row[3 * p] > row[3 * q]) p = i, q = j;
        const float *a = row + 3 * p, *b = row + 3 * q;
        /* the side lines strictly between the edge's ends */
        int32_t l0 = ix[p] + 1, l1 = ix[q] - ((float)ix[q] == fx[q]);
        if (l0 < first) l0 = first;
        if (l1 > last + 1) l1 = last + 1;
        float slope = (b[1] - a[1]) / (b[0] - a[0]);
        for (int32_t l = l0; l <= l1; l++) {
            float y = a[1] + slope * (origin_x + (float)l * hf->cell - a[0]);
            if (l - 1 >= first) lo[l - 1] = min_f(lo[l - 1], y), hi[l - 1] = max_f(hi[l - 1], y);
            if (l <= last) lo[l] = min_f(lo[l], y), hi[l] = max_f(hi[l], y);
        }
    }
    const float inverse_y = 1.0f / hf->cell_height, origin_y = hf->origin.y;
    const int32_t steps = (int32_t)hf->steps;
    for (int32_t x = first; x <= last; x++) {
        if (!(lo[x] <= hi[x])) continue;
        int32_t bottom = floor_i((lo[x] - origin_y) * inverse_y),
                top = ceil_i((hi[x] - origin_y) * inverse_y);
        if (top < 0 || bottom >= steps) continue; /* above or below the box */
        if (bottom < 0) bottom = 0;
        if (top > steps) top = steps;
        if (top <= bottom) top = bottom + 1; /* a flat piece: one step */
        if (top > steps) top = steps, bottom = top - 1;
        nav__heightfield_add_span(hf, x, z, (uint32_t)bottom, (uint32_t)top, area, merge);
    }
}

static void rasterize_triangle(nav__heightfield *hf, const float *a, const float *b, const float *c,
                               uint8_t area, uint32_t merge, float *lo, float *hi)
{
    /* a triangle cut by two lines has at most 5 points; room for more */
    float buffers[3][12 * 3];
    float *poly = buffers[0], *row = buffers[1], *rest = buffers[2];
    const float inverse = 1.0f / hf->cell, origin_x = hf->origin.x, origin_z = hf->origin.z;
    float lo_x = min_f(a[0], min_f(b[0], c[0])), hi_x = max_f(a[0], max_f(b[0], c[0]));
    float lo_z = min_f(a[2], min_f(b[2], c[2])), hi_z = max_f(a[2], max_f(b[2], c[2]));
    int32_t z0 = floor_i((lo_z - origin_z) * inverse), z1 = floor_i((hi_z - origin_z) * inverse);
    if (z1 < 0 || z0 >= hf->depth || hi_x < origin_x || (lo_x - origin_x) * inverse >= (float)hf->width)
        return;
    memcpy(poly, a, 3 * sizeof *a);
    memcpy(poly + 3, b, 3 * sizeof *b);
    memcpy(poly + 6, c, 3 * sizeof *c);
    int n = 3;
    if (z0 < 0) { /* the part before the box's first row is not the box's */
        z0 = 0;
        (void)cut(poly, &n, 2, origin_z, row, rest);
        float *t = poly;
        poly = rest, rest = t;
    }
    if (z1 >= hf->depth) z1 = hf->depth - 1;
    for (int32_t z = z0; z <= z1 && n >= 3; z++) {
        int nr = cut(poly, &n, 2, origin_z + (float)(z + 1) * hf->cell, row, rest);
        float *t = poly;
        poly = rest, rest = t;
        if (nr >= 3) rasterize_row(hf, z, row, nr, area, merge, lo, hi);
    }
}

void nav__rasterize(nav__heightfield *hf, const nav_triangles *t, const uint32_t *which, uint32_t count,
                    float max_slope, uint32_t merge)
{
    float cos_slope = cosf(max_slope * (float)(M_PI / 180.0));
    float *lo = NULL, *hi = NULL;
    arrsetlen(lo, (size_t)hf->width);
    arrsetlen(hi, (size_t)hf->width);
    uint32_t n = which ? count : t->triangle_count;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = which ? which[k] : k;
        const uint32_t *v = t->indices + 3 * (size_t)i;
        const float *a = t->vertices + 3 * (size_t)v[0], *b = t->vertices + 3 * (size_t)v[1],
                    *c = t->vertices + 3 * (size_t)v[2];
        uint8_t area = t->areas ? t->areas[i] : NAV_GEOMETRY_DEFAULT_AREA;
        rasterize_triangle(hf, a, b, c, walkable(a, b, c, cos_slope, area), merge, lo, hi);
    }
    arrfree(lo);
    arrfree(hi);
}
