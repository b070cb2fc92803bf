/* Stage 8 of the build from geometry (voxel.h): triangles that follow the floor under each polygon,
 * for heights (a polygon's corners alone do not: a hill inside it, a ramp between two flat parts). */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "ds.h"
#include "parallel.h"
#include "voxel.h"

#define MAX_POINTS 255 /* a polygon's height points (its triangles index them in bytes) */

/* The floor under one polygon: the walkable surface its footprint covers, found by walking the
 * open space's links from the tops of the polygon's regions, never leaving the footprint (a cell
 * round it for the rim): the floor of one storey, a valley well below the polygon's corners
 * included, never another storey's. */
typedef struct surface {
    const nav__open_space *os;
    int32_t dx, dz;               /* the open space's columns are the scene's moved by these */
    int32_t reach;                /* steps: failing the surface, a top this near the height looked for */
    uint32_t *stamp;              /* stb_ds, a top each: the polygon (+ 1) whose surface holds it */
    uint32_t *queue;              /* stb_ds scratch */
    const int32_t *top_x, *top_z; /* each top's column (shared by the threads) */
    uint32_t id;
    /* the polygon's edges: from (x, z) along (dx, dz), and one over their lengths */
    double edge[NAV_MESH_MAX_POLY_VERTS][5];
    uint32_t edges;
    /* its footprint: the cells of its box [x0, x0 + w) x [z0, z0 + h) (the scene's) it covers */
    uint8_t *mask; /* stb_ds */
    int32_t x0, z0, w, h;
} surface;

/* How far (x, z) lies inside the polygon's edges (cells; negative outside): the least over them. */
static double inside_by(const surface *s, double x, double z)
{
    double least = INFINITY;
    for (uint32_t k = 0; k < s->edges; k++) {
        const double *e = s->edge[k];
        double by = (e[2] * (z - e[1]) - e[3] * (x - e[0])) * e[4];
        if (by < least) least = by;
    }
    return least;
}

/* Whether the centre of cell (x, z) (the scene's) lies in the polygon or within a cell of it. */
static bool in_footprint(const surface *s, int32_t x, int32_t z)
{
    x -= s->x0, z -= s->z0;
    return x >= 0 && z >= 0 && x < s->w && z < s->h && s->mask[(size_t)z * (size_t)s->w + (size_t)x];
}

/* Stamps the surface under polygon q. False when memory runs out. */
static bool find_surface(surface *s, const nav__polygons *p, uint32_t q, double lo_x, double hi_x,
                         double lo_z, double hi_z)
{
    const nav__open_space *os = s->os;
    s->id++;
    uint32_t first = p->poly_first[q];
    s->edges = p->poly_first[q + 1] - first;
    for (uint32_t k = 0; k < s->edges; k++) {
        uint32_t va = p->poly_verts[first + k], vb = p->poly_verts[first + (k + 1) % s->edges];
        double ex = p->x[vb] - p->x[va], ez = p->z[vb] - p->z[va];
        double *e = s->edge[k];
        e[0] = p->x[va], e[1] = p->z[va], e[2] = ex, e[3] = ez, e[4] = 1 / sqrt(ex * ex + ez * ez);
    }
    s->x0 = (int32_t)floor(lo_x) - 1, s->z0 = (int32_t)floor(lo_z) - 1;
    s->w = (int32_t)ceil(hi_x) + 1 - s->x0, s->h = (int32_t)ceil(hi_z) + 1 - s->z0;
    if (!nav__arr_setlen(s->mask, (size_t)s->w * (size_t)s->h)) return false;
    for (int32_t z = 0; z < s->h; z++)
        for (int32_t x = 0; x < s->w; x++)
            s->mask[(size_t)z * (size_t)s->w + (size_t)x] =
                inside_by(s, s->x0 + x + 0.5, s->z0 + z + 0.5) >= -1.0;
    nav__arr_truncate(s->queue, 0);
    const uint32_t *regions = p->poly_regions + p->poly_region_first[q];
    uint32_t region_count = p->poly_region_first[q + 1] - p->poly_region_first[q];
    for (int32_t z = (int32_t)floor(lo_z); z < (int32_t)ceil(hi_z); z++)
        for (int32_t x = (int32_t)floor(lo_x); x < (int32_t)ceil(hi_x); x++) {
            int32_t ox = x - s->dx, oz = z - s->dz;
            if (ox < 0 || oz < 0 || ox >= os->width || oz >= os->depth || !in_footprint(s, x, z)) continue;
            size_t c = (size_t)oz * (size_t)os->width + (size_t)ox;
            for (uint32_t t = os->column_first[c]; t < os->column_first[c + 1]; t++) {
                bool ours = false;
                for (uint32_t r = 0; r < region_count && !ours; r++) ours = os->region[t] == regions[r];
                if (ours && s->stamp[t] != s->id) {
                    s->stamp[t] = s->id;
                    if (!nav__arr_push(s->queue, t)) return false;
                }
            }
        }
    for (size_t at = 0; at < arrlenu(s->queue); at++) {
        uint32_t t = s->queue[at];
        for (int d = 0; d < NAV__OPEN_SIDES; d++) {
            uint32_t n = os->side[t][d];
            if (n == NAV__NO_SPAN || s->stamp[n] == s->id) continue;
            if (!in_footprint(s, s->top_x[n] + s->dx, s->top_z[n] + s->dz)) continue;
            s->stamp[n] = s->id;
            if (!nav__arr_push(s->queue, n)) return false;
        }
    }
    return true;
}

/* The floor at (x, z) (the scene's cells) where the polygon's triangles put it at `hint` steps: the
 * top of the polygon's surface in its column (or failing that in the 8 around it), or failing that
 * any top within reach of the hint; NAN when there is none. */
static float floor_at(const surface *s, double x, double z, double hint)
{
    const nav__open_space *os = s->os;
    int32_t cx = (int32_t)floor(x) - s->dx, cz = (int32_t)floor(z) - s->dz;
    for (int pass = 0; pass < 2; pass++)
        for (int ring = 0; ring <= 1; ring++) {
            double best = INFINITY;
            float found = NAN;
            for (int32_t j = -ring; j <= ring; j++)
                for (int32_t i = -ring; i <= ring; i++) {
                    if (ring && i == 0 && j == 0) continue;
                    int32_t nx = cx + i, nz = cz + j;
                    if (nx < 0 || nz < 0 || nx >= os->width || nz >= os->depth) continue;
                    size_t c = (size_t)nz * (size_t)os->width + (size_t)nx;
                    for (uint32_t t = os->column_first[c]; t < os->column_first[c + 1]; t++) {
                        double d = fabs(os->floor[t] - hint);
                        if ((pass == 0 ? s->stamp[t] == s->id : d <= s->reach) && d < best)
                            best = d, found = os->floor[t];
                    }
                }
            if (!isnan(found)) return found;
        }
    return NAN;
}

/* ---- A triangulation of a few points --------------------------------------------------------- */

typedef struct triangulation {
    double *x, *y, *z; /* stb_ds points */
    uint32_t *tris;    /* stb_ds, 3 a triangle, wound as the polygon */
    uint8_t *touched;  /* stb_ds, a triangle each: changed since the samples were placed */
    uint32_t *stack;   /* scratch: edges to check, triangle and corner pairs */
} triangulation;

/* Appends point (x, y, z), number arrlenu(d->x) before. False when memory runs out. */
static bool add_point(triangulation *d, double x, double y, double z)
{
    return nav__arr_push(d->x, x) && nav__arr_push(d->y, y) && nav__arr_push(d->z, z);
}

/* Appends triangle a, b, c. False when memory runs out. */
static bool add_tri(triangulation *d, uint32_t a, uint32_t b, uint32_t c)
{
    return nav__arr_push(d->tris, a) && nav__arr_push(d->tris, b) && nav__arr_push(d->tris, c) &&
           nav__arr_push(d->touched, 1);
}

static double cross(const triangulation *d, uint32_t a, uint32_t b, uint32_t c)
{
    return (d->x[b] - d->x[a]) * (d->z[c] - d->z[a]) - (d->z[b] - d->z[a]) * (d->x[c] - d->x[a]);
}

/* Point (x, z) against triangle t: its barycentric weights of the second and third corners (the
 * first's is 1 - u - w); false for a flat triangle. */
static bool weights(const triangulation *d, size_t t, double x, double z, double *u, double *w)
{
    const uint32_t *v = d->tris + 3 * t;
    double ax = d->x[v[0]], az = d->z[v[0]];
    double bx = d->x[v[1]] - ax, bz = d->z[v[1]] - az, cx = d->x[v[2]] - ax, cz = d->z[v[2]] - az;
    double det = bx * cz - bz * cx;
    if (det == 0) return false;
    double px = x - ax, pz = z - az;
    *u = (px * cz - pz * cx) / det, *w = (bx * pz - bz * px) / det;
    return true;
}

/* The triangle holding (x, z), or the one it lies least outside; *out how far outside (in weight). */
static size_t locate(const triangulation *d, double x, double z, double *out)
{
    size_t best = 0;
    *out = INFINITY;
    for (size_t t = 0; t < arrlenu(d->tris) / 3; t++) {
        double u, w;
        if (!weights(d, t, x, z, &u, &w)) continue;
        double o = -fmin(fmin(u, w), 1 - u - w);
        if (o < *out) *out = o, best = t;
        if (o <= 0) break;
    }
    return best;
}

static double height_in(const triangulation *d, size_t t, double x, double z)
{
    double u = 0, w = 0;
    (void)weights(d, t, x, z, &u, &w);
    u = fmax(u, 0), w = fmax(w, 0);
    if (u + w > 1) u /= u + w, w = 1 - u;
    const uint32_t *v = d->tris + 3 * t;
    return d->y[v[0]] + u * (d->y[v[1]] - d->y[v[0]]) + w * (d->y[v[2]] - d->y[v[0]]);
}

static bool make_delaunay(triangulation *d);
/* Cuts a convex outline (points 0 .. n - 1 of d, in order; straight runs of edge samples allowed)
 * into a fan round point n (inside it), then flips to Delaunay. Ear clipping would join two corners
 * across a straight run of samples, leaving them on a triangle's edge. False when memory runs out. */
static bool triangulate_outline(triangulation *d, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++)
        if (cross(d, k, (k + 1) % n, n) > 0 && !add_tri(d, k, (k + 1) % n, n)) return false;
    uint32_t tris = (uint32_t)(arrlenu(d->tris) / 3);
    if (!nav__arr_reserve(d->stack, 6 * (size_t)tris)) return false;
    for (uint32_t t = 0; t < tris; t++)
        for (uint32_t k = 0; k < 3; k++) {
            nav__arr_put_reserved(d->stack, t);
            nav__arr_put_reserved(d->stack, k);
        }
    return make_delaunay(d);
}

/* The triangle across edge a -> b (the one holding b -> a; among the first `count`), its index in
 * *o and its third corner in *e; false for none (the outline). */
static bool across(const triangulation *d, uint32_t a, uint32_t b, size_t count, size_t *o, uint32_t *e)
{
    for (size_t t = 0; t < count; t++) {
        const uint32_t *u = d->tris + 3 * t;
        for (int i = 0; i < 3; i++)
            if (u[i] == b && u[(i + 1) % 3] == a) {
                *o = t, *e = u[(i + 2) % 3];
                return true;
            }
    }
    return false;
}

/* Point e strictly inside the circle through a, b, c (wound positively). */
static bool in_circle(const triangulation *d, uint32_t a, uint32_t b, uint32_t c, uint32_t e)
{
    double ax = d->x[a] - d->x[e], az = d->z[a] - d->z[e], bx = d->x[b] - d->x[e], bz = d->z[b] - d->z[e];
    double cx = d->x[c] - d->x[e], cz = d->z[c] - d->z[e];
    double det = (ax * ax + az * az) * (bx * cz - cx * bz) - (bx * bx + bz * bz) * (ax * cz - cx * az) +
                 (cx * cx + cz * cz) * (ax * bz - bx * az);
    return det > 1e-9 * (ax * ax + az * az + bx * bx + bz * bz + cx * cx + cz * cz);
}

/* Checks the edges on the stack (triangle t, corner k: its edge from corner k to the next) and flips
 * each whose far corner across lies in t's circumcircle (Lawson), so that the triangles stay fat:
 * the edges of a flipped pair that face away from the new diagonal are checked in turn. False when memory
 * runs out. */
static bool make_delaunay(triangulation *d)
{
    uint32_t guard = 0;
    bool ok = true;
    while (ok && arrlenu(d->stack) && guard++ < 100000) {
        uint32_t k = arrpop(d->stack), t = arrpop(d->stack);
        uint32_t *v = d->tris + 3 * t;
        uint32_t a = v[k], b = v[(k + 1) % 3], c = v[(k + 2) % 3];
        size_t o;
        uint32_t e;
        if (!across(d, a, b, arrlenu(d->tris) / 3, &o, &e)) continue;
        /* flip a-b to c-e when e is in the circle and the four make a convex quad */
        if (!in_circle(d, a, b, c, e) || cross(d, c, a, e) <= 0 || cross(d, e, b, c) <= 0) continue;
        uint32_t *u = d->tris + 3 * o;
        v[0] = a, v[1] = e, v[2] = c;
        u[0] = e, u[1] = b, u[2] = c;
        d->touched[t] = d->touched[o] = 1;
        ok = nav__arr_push(d->stack, t) && nav__arr_push(d->stack, 0) &&         /* a -> e */
             nav__arr_push(d->stack, (uint32_t)o) && nav__arr_push(d->stack, 0); /* e -> b */
    }
    nav__arr_truncate(d->stack, 0);
    return ok;
}

/* Adds point p inside triangle t: t cut in three, or where p lies on one of its edges, t and the
 * triangle across that edge each cut in two. The triangles changed: t, and those from first on. False
 * when memory runs out. */
static bool split(triangulation *d, size_t t, uint32_t p)
{
    uint32_t v[3] = {d->tris[3 * t], d->tris[3 * t + 1], d->tris[3 * t + 2]};
    for (int k = 0; k < 3; k++) { /* on edge v[k] - v[k + 1]? */
        uint32_t a = v[k], b = v[(k + 1) % 3], c = v[(k + 2) % 3];
        double length2 =
            (d->x[b] - d->x[a]) * (d->x[b] - d->x[a]) + (d->z[b] - d->z[a]) * (d->z[b] - d->z[a]);
        if (fabs(cross(d, a, b, p)) > 1e-9 * length2) continue;
        /* (a, p, c) and (p, b, c); across: (b, p, e) and (p, a, e); their outer edges checked */
        d->tris[3 * t] = a, d->tris[3 * t + 1] = p, d->tris[3 * t + 2] = c;
        d->touched[t] = 1;
        uint32_t second = (uint32_t)(arrlenu(d->tris) / 3);
        if (!add_tri(d, p, b, c)) return false;
        uint32_t check[8] = {(uint32_t)t, 2, second, 1}, count = 4;
        size_t o;
        uint32_t e;
        if (across(d, a, b, second, &o, &e)) {
            uint32_t *u = d->tris + 3 * o;
            u[0] = b, u[1] = p, u[2] = e;
            d->touched[o] = 1;
            uint32_t fourth = (uint32_t)(arrlenu(d->tris) / 3);
            if (!add_tri(d, p, a, e)) return false;
            check[count++] = (uint32_t)o, check[count++] = 2;
            check[count++] = fourth, check[count++] = 1;
        }
        if (!nav__arr_reserve(d->stack, count)) return false;
        for (uint32_t i = 0; i < count; i++) nav__arr_put_reserved(d->stack, check[i]);
        return make_delaunay(d);
    }
    d->tris[3 * t + 2] = p; /* v0 v1 p */
    d->touched[t] = 1;
    uint32_t second = (uint32_t)(arrlenu(d->tris) / 3);
    if (!add_tri(d, v[1], v[2], p) || !add_tri(d, v[2], v[0], p) || !nav__arr_reserve(d->stack, 6))
        return false;
    uint32_t check[6] = {(uint32_t)t, 0, second, 0, second + 1, 0};
    for (int i = 0; i < 6; i++) nav__arr_put_reserved(d->stack, check[i]);
    return make_delaunay(d);
}

/* ---- Per polygon ----------------------------------------------------------------------------- */

/* The points kept along edge a-b (excluded), in order from a: samples every `sample` cells, the
 * ones where the floor strays most from the line added while it strays more than max_error; read
 * from the lower end so that both polygons of an edge keep the same. False when memory runs out. */
static bool edge_points(const surface *sf, const double *a, const double *b, float sample, float max_error,
                        double **out)
{
    bool flip = b[0] < a[0] || (b[0] == a[0] && b[2] < a[2]);
    const double *lo = flip ? b : a, *hi = flip ? a : b;
    double length = sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[2] - lo[2]) * (hi[2] - lo[2]));
    uint32_t n = (uint32_t)floor(length / sample);
    if (n < 2) return true;
    double ys[256];
    if (n > 255) n = 255;
    for (uint32_t k = 0; k <= n; k++) {
        double t = (double)k / n;
        double y = floor_at(sf, lo[0] + (hi[0] - lo[0]) * t, lo[2] + (hi[2] - lo[2]) * t,
                            lo[1] + (hi[1] - lo[1]) * t);
        ys[k] = isnan(y) ? lo[1] + (hi[1] - lo[1]) * t : y;
    }
    ys[0] = lo[1], ys[n] = hi[1];
    /* kept[k]: sample k is a point of the edge; add the worst while it strays too far */
    bool kept[256] = {false};
    kept[0] = kept[n] = true;
    for (;;) {
        double worst = max_error;
        uint32_t at = 0;
        for (uint32_t s = 0, e; s < n; s = e) {
            for (e = s + 1; !kept[e]; e++) {
            }
            for (uint32_t k = s + 1; k < e; k++) {
                double line = ys[s] + (ys[e] - ys[s]) * (double)(k - s) / (double)(e - s);
                if (fabs(ys[k] - line) > worst) worst = fabs(ys[k] - line), at = k;
            }
        }
        if (!at) break;
        kept[at] = true;
    }
    if (!nav__arr_reserve(*out, 3 * ((size_t)n - 1))) return false;
    for (uint32_t j = 1; j < n; j++) {
        uint32_t k = flip ? n - j : j;
        if (!kept[k]) continue;
        double t = (double)k / n;
        nav__arr_put_reserved(*out, lo[0] + (hi[0] - lo[0]) * t);
        nav__arr_put_reserved(*out, ys[k]);
        nav__arr_put_reserved(*out, lo[2] + (hi[2] - lo[2]) * t);
    }
    return true;
}

/* Samples inside the polygon not yet points of its triangles: where, the floor there, and how far
 * the triangles stray from it. */
typedef struct candidate {
    double x, z, floor, error;
    size_t tri;
} candidate;

/* The height triangles of some polygons, in order (stb_ds): their points (x, y, z), each polygon's
 * count of them, their triangles (3 points a triangle, from the polygon's first) and each polygon's
 * count of them. */
typedef struct detail_out {
    float *points;
    uint32_t *point_counts;
    uint8_t *tris;
    uint32_t *tri_counts;
} detail_out;

/* A thread's scratch. */
typedef struct detail_scratch {
    surface sf;
    triangulation d;
    double *hull;
    candidate *cands;
} detail_scratch;

/* The height triangles of polygon q, appended to result. False when memory runs out. */
static bool polygon_detail(const nav__polygons *p, uint32_t q, detail_scratch *scratch, float sample,
                           float max_error, detail_out *result)
{
    surface *sf = &scratch->sf;
    triangulation *d = &scratch->d;
    double **hull = &scratch->hull;
    candidate **cands = &scratch->cands;
    uint32_t first = p->poly_first[q], n = p->poly_first[q + 1] - first;
    double lo_x = INFINITY, hi_x = -INFINITY, lo_z = INFINITY, hi_z = -INFINITY;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t v = p->poly_verts[first + k];
        lo_x = fmin(lo_x, p->x[v]), hi_x = fmax(hi_x, p->x[v]), lo_z = fmin(lo_z, p->z[v]),
        hi_z = fmax(hi_z, p->z[v]);
    }
    if (!find_surface(sf, p, q, lo_x, hi_x, lo_z, hi_z)) return false;
    nav__arr_truncate(*hull, 0);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t va = p->poly_verts[first + k], vb = p->poly_verts[first + (k + 1) % n];
        double a[3] = {p->x[va], p->y[va], p->z[va]}, b[3] = {p->x[vb], p->y[vb], p->z[vb]};
        if (!nav__arr_reserve(*hull, 3)) return false;
        nav__arr_put_reserved(*hull, a[0]);
        nav__arr_put_reserved(*hull, a[1]);
        nav__arr_put_reserved(*hull, a[2]);
        if (!edge_points(sf, a, b, sample, max_error, hull)) return false;
    }
    nav__arr_truncate(d->x, 0);
    nav__arr_truncate(d->y, 0);
    nav__arr_truncate(d->z, 0);
    nav__arr_truncate(d->tris, 0);
    nav__arr_truncate(d->touched, 0);
    size_t outline = arrlenu(*hull) / 3;
    if (outline > MAX_POINTS - 1) outline = MAX_POINTS - 1; /* (a polygon's edges a thousand cells long) */
    double mid_x = 0, mid_y = 0, mid_z = 0;
    for (size_t k = 0; k < outline; k++) {
        if (!add_point(d, (*hull)[3 * k], (*hull)[3 * k + 1], (*hull)[3 * k + 2])) return false;
        mid_x += (*hull)[3 * k] / (double)outline, mid_y += (*hull)[3 * k + 1] / (double)outline;
        mid_z += (*hull)[3 * k + 2] / (double)outline;
    }
    /* the centre of the outline's points: inside it (convex), the hub of the first fan */
    double mid_floor = floor_at(sf, mid_x, mid_z, mid_y);
    if (!add_point(d, mid_x, isnan(mid_floor) ? mid_y : mid_floor, mid_z) ||
        !triangulate_outline(d, (uint32_t)outline))
        return false;
    /* samples inside on a grid, half a cell or more inside every edge; no more than
     * NAV_GEOMETRY_MAX_DETAIL_SAMPLES of them (a larger polygon's further apart), so that the work and
     * the memory of a polygon are bounded whatever its size */
    double step = sample;
    while (((hi_x - lo_x) / step + 1) * ((hi_z - lo_z) / step + 1) > NAV_GEOMETRY_MAX_DETAIL_SAMPLES)
        step *= 1.25;
    nav__arr_truncate(*cands, 0);
    if (arrlenu(d->tris))
        for (double z = lo_z + step / 2; z < hi_z; z += step)
            for (double x = lo_x + step / 2; x < hi_x; x += step) {
                if (inside_by(sf, x, z) < 0.5) continue;
                double out;
                size_t t = locate(d, x, z, &out);
                double here = height_in(d, t, x, z), y = floor_at(sf, x, z, here);
                if (!isnan(y) && !nav__arr_push(*cands, ((candidate){x, z, y, fabs(y - here), t})))
                    return false;
            }
    /* the worst sample becomes a point while it strays too far; the samples of the triangles it
     * changed are placed again */
    while (arrlenu(d->x) < MAX_POINTS) {
        size_t worst = SIZE_MAX;
        double worst_error = max_error;
        for (size_t c = 0; c < arrlenu(*cands); c++)
            if ((*cands)[c].error > worst_error) worst_error = (*cands)[c].error, worst = c;
        if (worst == SIZE_MAX) break;
        candidate w = (*cands)[worst];
        (*cands)[worst] = (*cands)[arrlenu(*cands) - 1];
        nav__arr_truncate(*cands, arrlenu(*cands) - 1);
        memset(d->touched, 0, arrlenu(d->touched));
        uint32_t point = (uint32_t)arrlenu(d->x);
        if (!add_point(d, w.x, w.floor, w.z) || !split(d, w.tri, point)) return false;
        for (size_t c = 0; c < arrlenu(*cands); c++) {
            candidate *k = &(*cands)[c];
            double out;
            if (!d->touched[k->tri]) continue; /* its triangle is as it was */
            k->tri = locate(d, k->x, k->z, &out);
            k->error = fabs(k->floor - height_in(d, k->tri, k->x, k->z));
        }
    }
    size_t points = arrlenu(d->x), corners = arrlenu(d->tris);
    if (!nav__arr_reserve(result->points, 3 * points) || !nav__arr_reserve(result->tris, corners) ||
        !nav__arr_push(result->point_counts, (uint32_t)points) ||
        !nav__arr_push(result->tri_counts, (uint32_t)(corners / 3)))
        return false;
    for (size_t k = 0; k < points; k++) {
        nav__arr_put_reserved(result->points, (float)d->x[k]);
        nav__arr_put_reserved(result->points, (float)d->y[k]);
        nav__arr_put_reserved(result->points, (float)d->z[k]);
    }
    for (size_t i = 0; i < corners; i++) nav__arr_put_reserved(result->tris, (uint8_t)d->tris[i]);
    return true;
}

enum { CHUNKS = 16 }; /* the polygons cut into this many runs, spread over the threads */

typedef struct detail_work {
    nav_allocator heap; /* the system heap, as the rest of the build's scratch */
    const nav__polygons *p;
    const nav__open_space *os;
    int32_t dx, dz, reach;
    float sample, max_error;
    const int32_t *top_x, *top_z;
    uint32_t polys, chunks;
    detail_out out[CHUNKS];
} detail_work;

static bool detail_init(void *ctx, void **scratch)
{
    const detail_work *w = ctx;
    detail_scratch *x = nav__calloc(&w->heap, 1, sizeof *x);
    if (!x) return false;
    x->sf = (surface){
        .os = w->os, .dx = w->dx, .dz = w->dz, .reach = w->reach, .top_x = w->top_x, .top_z = w->top_z};
    *scratch = x; /* (released by detail_fini, also when this fails) */
    if (!nav__arr_setlen(x->sf.stamp, w->os->count)) return false;
    if (w->os->count) memset(x->sf.stamp, 0, w->os->count * sizeof *x->sf.stamp);
    return true;
}

static void detail_fini(void *ctx, void *scratch)
{
    const detail_work *w = ctx;
    detail_scratch *x = scratch;
    if (!x) return;
    arrfree(x->sf.stamp);
    arrfree(x->sf.mask);
    arrfree(x->sf.queue);
    arrfree(x->d.x);
    arrfree(x->d.y);
    arrfree(x->d.z);
    arrfree(x->d.tris);
    arrfree(x->d.touched);
    arrfree(x->d.stack);
    arrfree(x->hull);
    arrfree(x->cands);
    nav__free(&w->heap, x);
}

static bool detail_chunk(void *ctx, void *scratch, uint32_t item)
{
    detail_work *w = ctx;
    uint32_t first = (uint32_t)((uint64_t)w->polys * item / w->chunks),
             end = (uint32_t)((uint64_t)w->polys * (item + 1) / w->chunks);
    for (uint32_t q = first; q < end; q++)
        if (!polygon_detail(w->p, q, scratch, w->sample, w->max_error, &w->out[item])) return false;
    return true;
}

bool nav__polygons_detail(nav__polygons *p, const nav__open_space *os, int32_t dx, int32_t dz, float sample,
                          float max_error, int32_t reach, nav__pool *pool)
{
    uint32_t polys = arrlenu(p->poly_first) ? (uint32_t)arrlenu(p->poly_first) - 1 : 0;
    nav__arr_truncate(p->detail_point_first, 0);
    nav__arr_truncate(p->detail_tri_first, 0);
    nav__arr_truncate(p->detail_points, 0);
    nav__arr_truncate(p->detail_tris, 0);
    int32_t *top_x = NULL, *top_z = NULL;
    bool ok = nav__arr_push(p->detail_point_first, 0) && nav__arr_push(p->detail_tri_first, 0) &&
              nav__arr_setlen(top_x, os->count) && nav__arr_setlen(top_z, os->count);
    for (int32_t z = 0; ok && z < os->depth; z++)
        for (int32_t x = 0; x < os->width; x++) {
            size_t c = (size_t)z * (size_t)os->width + (size_t)x;
            for (uint32_t i = os->column_first[c]; i < os->column_first[c + 1]; i++)
                top_x[i] = x, top_z[i] = z;
        }
    nav_allocator heap;
    nav__allocator_resolve(&heap, NULL);
    detail_work *w = ok ? nav__calloc(&heap, 1, sizeof *w) : NULL;
    if (w) {
        *w = (detail_work){.heap = heap,
                           .p = p,
                           .os = os,
                           .dx = dx,
                           .dz = dz,
                           .reach = reach,
                           .sample = sample,
                           .max_error = max_error,
                           .top_x = top_x,
                           .top_z = top_z,
                           .polys = polys,
                           .chunks = !pool || polys < 2 * CHUNKS ? 1 : CHUNKS};
        nav__work work = {
            .count = w->chunks, .init = detail_init, .run = detail_chunk, .fini = detail_fini, .ctx = w};
        /* fails only when memory runs out (no progress to cancel) */
        ok = nav_succeeded(nav__pool_run(pool, &work));
        /* the runs one after another, in order */
        size_t points = 0, tris = 0, counts = 0;
        for (uint32_t k = 0; k < w->chunks; k++) {
            points += arrlenu(w->out[k].points);
            tris += arrlenu(w->out[k].tris);
            counts += arrlenu(w->out[k].point_counts);
        }
        ok = ok && nav__arr_reserve(p->detail_points, points) && nav__arr_reserve(p->detail_tris, tris) &&
             nav__arr_reserve(p->detail_point_first, counts) && nav__arr_reserve(p->detail_tri_first, counts);
        for (uint32_t k = 0; k < w->chunks; k++) {
            detail_out *o = &w->out[k];
            ok = ok && nav__arr_append(p->detail_points, o->points, arrlenu(o->points)) &&
                 nav__arr_append(p->detail_tris, o->tris, arrlenu(o->tris));
            if (ok) {
                for (size_t i = 0; i < arrlenu(o->point_counts); i++) {
                    uint32_t point_end = arrlast(p->detail_point_first) + o->point_counts[i],
                             tri_end = arrlast(p->detail_tri_first) + o->tri_counts[i];
                    nav__arr_put_reserved(p->detail_point_first, point_end);
                    nav__arr_put_reserved(p->detail_tri_first, tri_end);
                }
            }
            arrfree(o->points);
            arrfree(o->point_counts);
            arrfree(o->tris);
            arrfree(o->tri_counts);
        }
        nav__free(&heap, w);
    } else {
        ok = false;
    }
    arrfree(top_x);
    arrfree(top_z);
    return ok;
}
