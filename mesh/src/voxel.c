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
 * at or below it goes to low (its point count returned), the part at or above stays in poly. */
static int cut(float *poly, int *n, int axis, float value, float *low)
{
    float high[12 * 3];
    int nl, nh;
    split(poly, *n, axis, value, low, &nl, high, &nh);
    memcpy(poly, high, (size_t)nh * 3 * sizeof *high);
    *n = nh;
    return nl;
}

static void rasterize_triangle(nav__heightfield *hf, const float *a, const float *b, const float *c,
                               uint8_t area, uint32_t merge)
{
    /* a triangle cut by the four lines of a column has at most 7 points; room for more */
    float poly[12 * 3], row[12 * 3], piece[12 * 3];
    const float inverse = 1.0f / hf->cell, origin_x = hf->origin.x, origin_z = hf->origin.z;
    float lo_x = fminf(a[0], fminf(b[0], c[0])), hi_x = fmaxf(a[0], fmaxf(b[0], c[0]));
    float lo_z = fminf(a[2], fminf(b[2], c[2])), hi_z = fmaxf(a[2], fmaxf(b[2], c[2]));
    int32_t z0 = (int32_t)floorf((lo_z - origin_z) * inverse),
            z1 = (int32_t)floorf((hi_z - origin_z) * inverse);
    if (z1 < 0 || z0 >= hf->depth || hi_x < origin_x || (lo_x - origin_x) * inverse >= (float)hf->width)
        return;
    memcpy(poly, a, 3 * sizeof *a);
    memcpy(poly + 3, b, 3 * sizeof *b);
    memcpy(poly + 6, c, 3 * sizeof *c);
    int n = 3;
    if (z0 < 0) { /* the part before the box's first row is not the box's */
        z0 = 0;
        (void)cut(poly, &n, 2, origin_z, piece);
    }
    if (z1 >= hf->depth) z1 = hf->depth - 1;
    for (int32_t z = z0; z <= z1 && n >= 3; z++) {
        int nr = cut(poly, &n, 2, origin_z + (float)(z + 1) * hf->cell, row);
        if (nr < 3) continue;
        float rx0 = row[0], rx1 = row[0];
        for (int i = 1; i < nr; i++) rx0 = fminf(rx0, row[3 * i]), rx1 = fmaxf(rx1, row[3 * i]);
        int32_t x0 = (int32_t)floorf((rx0 - origin_x) * inverse),
                x1 = (int32_t)floorf((rx1 - origin_x) * inverse);
        if (x1 < 0 || x0 >= hf->width) continue;
        if (x0 < 0) { /* likewise before the first column */
            x0 = 0;
            (void)cut(row, &nr, 0, origin_x, piece);
        }
        if (x1 >= hf->width) x1 = hf->width - 1;
        for (int32_t x = x0; x <= x1 && nr >= 3; x++) {
            int np = cut(row, &nr, 0, origin_x + (float)(x + 1) * hf->cell, piece);
            if (np < 3) continue;
            float y0 = piece[1], y1 = piece[1];
            for (int i = 1; i < np; i++) y0 = fminf(y0, piece[3 * i + 1]), y1 = fmaxf(y1, piece[3 * i + 1]);
            float bottom = floorf((y0 - hf->origin.y) / hf->cell_height),
                  top = ceilf((y1 - hf->origin.y) / hf->cell_height);
            if (top < 0 || bottom >= (float)hf->steps) continue; /* above or below the box */
            if (bottom < 0) bottom = 0;
            if (top > (float)hf->steps) top = (float)hf->steps;
            if (top <= bottom) top = bottom + 1; /* a flat piece: one step */
            if (top > (float)hf->steps) top = (float)hf->steps, bottom = top - 1;
            nav__heightfield_add_span(hf, x, z, (uint32_t)bottom, (uint32_t)top, area, merge);
        }
    }
}

void nav__rasterize(nav__heightfield *hf, const nav_triangles *t, float max_slope, uint32_t merge)
{
    float cos_slope = cosf(max_slope * (float)(M_PI / 180.0));
    for (uint32_t i = 0; i < t->triangle_count; i++) {
        const uint32_t *v = t->indices + 3 * (size_t)i;
        const float *a = t->vertices + 3 * (size_t)v[0], *b = t->vertices + 3 * (size_t)v[1],
                    *c = t->vertices + 3 * (size_t)v[2];
        uint8_t area = t->areas ? t->areas[i] : NAV_GEOMETRY_DEFAULT_AREA;
        rasterize_triangle(hf, a, b, c, walkable(a, b, c, cos_slope, area), merge);
    }
}
