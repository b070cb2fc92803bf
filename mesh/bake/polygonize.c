/* Stage 7 of the build from geometry (voxel.h): the outlines cut into triangles, merged into convex
 * polygons, and made into a mesh draft. */
#include <stdlib.h>
#include <string.h>

#include "ds.h"
#include "index.h"
#include "merge.h"
#include "mesh_internal.h"
#include "voxel.h"

/* ---- Ear clipping ---------------------------------------------------------------------------- */

/* Twice the signed area of a, b, c: positive when the turn a -> b -> c is the outlines' own
 * (clockwise as seen from above with z down). The tests of O'Rourke's "Computational Geometry in
 * C" (1998, section 1.6) on these exact integers. */
static int64_t area2(const nav__contour_point *a, const nav__contour_point *b, const nav__contour_point *c)
{
    return ((int64_t)b->x - a->x) * ((int64_t)c->z - a->z) - ((int64_t)c->x - a->x) * ((int64_t)b->z - a->z);
}

static bool left(const nav__contour_point *a, const nav__contour_point *b, const nav__contour_point *c)
{
    return area2(a, b, c) > 0;
}

static bool left_on(const nav__contour_point *a, const nav__contour_point *b, const nav__contour_point *c)
{
    return area2(a, b, c) >= 0;
}

/* c on the closed segment a-b (collinear with it). */
static bool between(const nav__contour_point *a, const nav__contour_point *b, const nav__contour_point *c)
{
    if (area2(a, b, c) != 0) return false;
    if (a->x != b->x) return (a->x <= c->x && c->x <= b->x) || (a->x >= c->x && c->x >= b->x);
    return (a->z <= c->z && c->z <= b->z) || (a->z >= c->z && c->z >= b->z);
}

static bool segments_meet(const nav__contour_point *a, const nav__contour_point *b,
                          const nav__contour_point *c, const nav__contour_point *d)
{
    int64_t abc = area2(a, b, c), abd = area2(a, b, d), cda = area2(c, d, a), cdb = area2(c, d, b);
    if (abc != 0 && abd != 0 && cda != 0 && cdb != 0)
        return ((abc > 0) != (abd > 0)) && ((cda > 0) != (cdb > 0));
    return between(a, b, c) || between(a, b, d) || between(c, d, a) || between(c, d, b);
}

static bool same_point(const nav__contour_point *a, const nav__contour_point *b)
{
    return a->x == b->x && a->z == b->z;
}

/* The remaining outline: ring[0 .. n - 1] index pts. */
typedef struct ring {
    const nav__contour_point *pts;
    uint32_t *at;
    uint32_t n;
} ring;

static const nav__contour_point *pt(const ring *r, uint32_t k)
{
    return &r->pts[r->at[k % r->n]];
}

/* Whether the segment from ring point i to ring point j crosses or touches no edge of the ring
 * other than those at points where i or j lie. */
static bool clear_of_edges(const ring *r, uint32_t i, uint32_t j)
{
    const nav__contour_point *a = pt(r, i), *b = pt(r, j);
    for (uint32_t k = 0; k < r->n; k++) {
        const nav__contour_point *c = pt(r, k), *d = pt(r, k + 1);
        if (same_point(c, a) || same_point(c, b) || same_point(d, a) || same_point(d, b)) continue;
        if (segments_meet(a, b, c, d)) return false;
    }
    return true;
}

/* Whether the segment from ring point i to j leaves i into the outline's inside. */
static bool in_cone(const ring *r, uint32_t i, uint32_t j)
{
    const nav__contour_point *a = pt(r, i), *b = pt(r, j), *a0 = pt(r, i + r->n - 1), *a1 = pt(r, i + 1);
    if (left_on(a0, a, a1)) return left(a, b, a0) && left(b, a, a1);
    return !(left_on(a, b, a1) && left_on(b, a, a0));
}

/* Whether ring point k is an ear: the segment joining its two neighbours is a diagonal. */
static bool is_ear(const ring *r, uint32_t k)
{
    uint32_t i = (k + r->n - 1) % r->n, j = (k + 1) % r->n;
    return left(pt(r, i), pt(r, k), pt(r, j)) && in_cone(r, i, j) && in_cone(r, j, i) &&
           clear_of_edges(r, i, j);
}

/* Cuts the outline pts[0 .. n - 1] (n >= 3; a simple polygon, clockwise as seen from above) into n - 2
 * triangles, appended to *tris as indices into pts, always the ear with the shortest diagonal (the
 * triangles stay fat). *whole is false (the triangles so far kept) when no ear is left: an outline the
 * simplification made cross itself. False when memory runs out. */
static bool triangulate(const nav__contour_point *pts, uint32_t n, uint32_t **tris, uint32_t **at_scratch,
                        uint8_t **ear_scratch, bool *whole)
{
    *whole = true;
    if (!nav__arr_setlen(*at_scratch, n) || !nav__arr_setlen(*ear_scratch, n) ||
        !nav__arr_reserve(*tris, 3 * ((size_t)n - 2)))
        return false;
    uint32_t *at = *at_scratch;
    uint8_t *ear = *ear_scratch;
    for (uint32_t k = 0; k < n; k++) at[k] = k;
    ring r = {pts, at, n};
    for (uint32_t k = 0; k < n; k++) ear[k] = is_ear(&r, k);
    while (r.n > 3) {
        uint32_t best = UINT32_MAX;
        int64_t best_length = INT64_MAX;
        for (uint32_t k = 0; k < r.n; k++) {
            if (!ear[k]) continue;
            const nav__contour_point *a = pt(&r, k + r.n - 1), *b = pt(&r, k + 1);
            int64_t dx = (int64_t)b->x - a->x, dz = (int64_t)b->z - a->z, length = dx * dx + dz * dz;
            if (length < best_length) best_length = length, best = k;
        }
        if (best == UINT32_MAX) {
            *whole = false;
            break;
        }
        uint32_t prev = (best + r.n - 1) % r.n;
        nav__arr_put_reserved(*tris, at[prev]);
        nav__arr_put_reserved(*tris, at[best]);
        nav__arr_put_reserved(*tris, at[(best + 1) % r.n]);
        memmove(at + best, at + best + 1, (r.n - best - 1) * sizeof *at);
        memmove(ear + best, ear + best + 1, (r.n - best - 1) * sizeof *ear);
        r.n--;
        /* the two points either side of the clipped one */
        uint32_t before = best == 0 ? r.n - 1 : best - 1, after = best % r.n;
        ear[before] = is_ear(&r, before);
        ear[after] = is_ear(&r, after);
    }
    if (*whole && area2(pt(&r, 0), pt(&r, 1), pt(&r, 2)) > 0) {
        nav__arr_put_reserved(*tris, at[0]);
        nav__arr_put_reserved(*tris, at[1]);
        nav__arr_put_reserved(*tris, at[2]);
    }
    return true;
}

/* ---- Polygons -------------------------------------------------------------------------------- */

void nav__polygons_free(nav__polygons *p)
{
    arrfree(p->x);
    arrfree(p->y);
    arrfree(p->z);
    arrfree(p->poly_first);
    arrfree(p->poly_verts);
    arrfree(p->poly_area);
    arrfree(p->edge_twin);
    arrfree(p->detail_points);
    arrfree(p->detail_point_first);
    arrfree(p->detail_tris);
    arrfree(p->detail_tri_first);
    arrfree(p->poly_region_first);
    arrfree(p->poly_regions);
    *p = (nav__polygons){0};
}

/* Splits vertices where polygons meet at a point only (a pinch, or two floors touching at a
 * corner): polygons round a vertex that are joined through their shared edges keep it; each
 * further group gets a copy, so that a vertex's polygons are always one fan. False when memory runs
 * out. */
static bool split_pinches(nav__polygons *p)
{
    uint32_t edges = (uint32_t)arrlenu(p->poly_verts), polys = (uint32_t)arrlenu(p->poly_first) - 1;
    uint32_t verts = (uint32_t)arrlenu(p->x);
    uint32_t *parent = NULL, *owner = NULL, *copy = NULL, *group_vertex = NULL; /* (per root edge: the
                                                                                  vertex its group uses) */
    bool ok = nav__arr_setlen(parent, edges) && nav__arr_setlen(owner, edges) &&
              nav__arr_setlen(copy, verts) && nav__arr_setlen(group_vertex, edges);
    if (!ok) goto done;
    for (uint32_t e = 0; e < edges; e++) parent[e] = e;
    for (uint32_t q = 0; q < polys; q++)
        for (uint32_t e = p->poly_first[q]; e < p->poly_first[q + 1]; e++) owner[e] = q;
    /* edge e leaves its start vertex; its twin f arrives there, and the edge after f leaves it */
    for (uint32_t e = 0; e < edges; e++) {
        uint32_t f = p->edge_twin[e];
        if (f == UINT32_MAX) continue;
        uint32_t q = owner[f], after = f + 1 < p->poly_first[q + 1] ? f + 1 : p->poly_first[q];
        nav__join(parent, e, after);
    }
    /* the first group at each vertex keeps it */
    if (verts) memset(copy, 0xff, verts * sizeof *copy);
    for (uint32_t e = 0; e < edges && ok; e++) {
        uint32_t root = nav__find_root(parent, e), v = p->poly_verts[e];
        if (root == e) {
            if (copy[v] == UINT32_MAX) {
                copy[v] = v;
                group_vertex[e] = v;
            } else {
                group_vertex[e] = (uint32_t)arrlenu(p->x);
                ok = nav__arr_push(p->x, p->x[v]) && nav__arr_push(p->y, p->y[v]) &&
                     nav__arr_push(p->z, p->z[v]);
            }
        }
    }
    for (uint32_t e = 0; e < edges && ok; e++) p->poly_verts[e] = group_vertex[nav__find_root(parent, e)];
done:
    arrfree(parent);
    arrfree(owner);
    arrfree(copy);
    arrfree(group_vertex);
    return ok;
}

bool nav__polygons_build(nav__polygons *out, const nav__contours *c, const nav__open_space *os,
                         uint32_t max_verts, int32_t dx, int32_t dz)
{
    *out = (nav__polygons){0};
    bool ok = false;
    uint8_t *region_area = NULL, *ear = NULL;
    uint32_t *vertex_of = NULL, *order = NULL, *tmp = NULL, *tris = NULL, *tri_region = NULL, *local = NULL,
             *at = NULL, *source = NULL, *tri_poly = NULL, *count = NULL, *by_polygon = NULL, *remap = NULL;
    uint64_t *key = NULL;
    int32_t *x = NULL, *y = NULL, *z = NULL;
    if (!nav__arr_setlen(region_area, c->region_count + 1)) goto done;
    memset(region_area, 0, c->region_count + 1);
    for (uint32_t i = 0; i < os->count; i++)
        if (os->region[i] != 0) region_area[os->region[i]] = os->area[i];

    /* vertices welded by position, numbered in order of first use: the points sorted by (x, z,
     * height), not hashed (stb_ds's tables touch a process-wide seed, and tiles run on threads) */
    size_t point_count = arrlenu(c->points);
    if (!nav__arr_setlen(vertex_of, point_count) || !nav__arr_setlen(order, point_count) ||
        !nav__arr_setlen(tmp, point_count) || !nav__arr_setlen(key, point_count) ||
        !nav__arr_reserve(out->x, point_count) || !nav__arr_reserve(out->y, point_count) ||
        !nav__arr_reserve(out->z, point_count))
        goto done;
    for (size_t k = 0; k < point_count; k++) {
        const nav__contour_point *q = &c->points[k];
        order[k] = (uint32_t)k;
        key[k] = (uint64_t)(uint16_t)q->x << 32 | (uint64_t)(uint16_t)q->z << 16 | (uint16_t)q->y;
    }
    nav__sort_by_key(order, tmp, (uint32_t)point_count, key);
    /* each point's first point at its place (the least index: the sort is stable) */
    for (size_t k = 0; k < point_count; k++) {
        uint32_t p = order[k];
        tmp[p] = k > 0 && key[order[k - 1]] == key[p] ? tmp[order[k - 1]] : p;
    }
    for (size_t k = 0; k < point_count; k++) {
        if (tmp[k] == k) {
            const nav__contour_point *q = &c->points[k];
            vertex_of[k] = (uint32_t)arrlenu(out->x);
            nav__arr_put_reserved(out->x, q->x);
            nav__arr_put_reserved(out->y, q->y);
            nav__arr_put_reserved(out->z, q->z);
        } else {
            vertex_of[k] = vertex_of[tmp[k]];
        }
    }
    arrfree(order);
    arrfree(tmp);
    arrfree(key);

    for (uint32_t r = 1; r <= c->region_count; r++) {
        uint32_t first = c->first[r - 1], n = c->first[r] - first;
        if (n < 3) continue;
        nav__arr_truncate(local, 0);
        bool whole;
        if (!triangulate(c->points + first, n, &local, &at, &ear, &whole)) goto done;
        if (!whole) out->failed_regions++;
        size_t made = arrlenu(local);
        if (!nav__arr_reserve(tris, made) || !nav__arr_reserve(tri_region, made / 3)) goto done;
        for (size_t k = 0; k < made; k++) nav__arr_put_reserved(tris, vertex_of[first + local[k]]);
        for (size_t k = 0; k < made / 3; k++) nav__arr_put_reserved(tri_region, r);
    }
    arrfree(local);
    arrfree(at);
    arrfree(ear);
    arrfree(vertex_of);

    size_t tri_count = arrlenu(tri_region);
    if (!nav__arr_setlen(tri_poly, tri_count) ||
        !nav__merge_triangles(out->x, out->z, (uint32_t)arrlenu(out->x), tris, tri_region,
                              (uint32_t)tri_count, region_area, max_verts, &out->poly_first, &out->poly_verts,
                              &source, tri_poly))
        goto done;
    /* each polygon's regions (its triangles'), for its heights */
    uint32_t polys = (uint32_t)arrlenu(out->poly_first) - 1;
    if (!nav__arr_setlen(count, polys + 1) || !nav__arr_setlen(out->poly_region_first, polys + 1) ||
        !nav__arr_setlen(by_polygon, tri_count) || !nav__arr_reserve(out->poly_regions, tri_count) ||
        !nav__arr_reserve(out->poly_area, polys))
        goto done;
    memset(count, 0, (polys + 1) * sizeof *count);
    for (size_t t = 0; t < tri_count; t++) count[tri_poly[t] + 1]++;
    for (uint32_t q = 0; q < polys; q++) count[q + 1] += count[q];
    for (size_t t = 0; t < tri_count; t++) by_polygon[count[tri_poly[t]]++] = tri_region[t];
    /* count[q] is now the end of q's triangles; each polygon's regions without repeats */
    uint32_t start = 0;
    for (uint32_t q = 0; q < polys; q++) {
        out->poly_region_first[q] = (uint32_t)arrlenu(out->poly_regions);
        for (uint32_t i = start; i < count[q]; i++) {
            bool seen = false;
            for (size_t j = out->poly_region_first[q]; j < arrlenu(out->poly_regions) && !seen; j++)
                seen = out->poly_regions[j] == by_polygon[i];
            if (!seen) nav__arr_put_reserved(out->poly_regions, by_polygon[i]); /* (a triangle's at most) */
        }
        start = count[q];
    }
    out->poly_region_first[polys] = (uint32_t)arrlenu(out->poly_regions);
    for (uint32_t q = 0; q < polys; q++) nav__arr_put_reserved(out->poly_area, region_area[source[q]]);

    /* only the vertices still used (the merge drops some on straight sides), in order of first use */
    size_t verts = arrlenu(out->x);
    if (!nav__arr_setlen(remap, verts) || !nav__arr_reserve(x, verts) || !nav__arr_reserve(y, verts) ||
        !nav__arr_reserve(z, verts))
        goto done;
    if (verts) memset(remap, 0xff, verts * sizeof *remap);
    for (size_t e = 0; e < arrlenu(out->poly_verts); e++) {
        uint32_t v = out->poly_verts[e];
        if (remap[v] == UINT32_MAX) {
            remap[v] = (uint32_t)arrlenu(x);
            nav__arr_put_reserved(x, out->x[v]);
            nav__arr_put_reserved(y, out->y[v]);
            nav__arr_put_reserved(z, out->z[v]);
        }
        out->poly_verts[e] = remap[v];
    }
    arrfree(out->x);
    arrfree(out->y);
    arrfree(out->z);
    out->x = x, out->y = y, out->z = z;
    x = y = z = NULL;
    for (size_t v = 0; v < arrlenu(out->x); v++) out->x[v] += dx, out->z[v] += dz;
    ok = true;
done:
    arrfree(region_area);
    arrfree(ear);
    arrfree(vertex_of);
    arrfree(order);
    arrfree(tmp);
    arrfree(tris);
    arrfree(tri_region);
    arrfree(local);
    arrfree(at);
    arrfree(source);
    arrfree(tri_poly);
    arrfree(count);
    arrfree(by_polygon);
    arrfree(remap);
    arrfree(key);
    arrfree(x);
    arrfree(y);
    arrfree(z);
    return ok;
}

static bool same_vertex(uint32_t item, const void *key, const void *ctx)
{
    const nav__polygons *all = ctx;
    const int32_t *k = key;
    return all->x[item] == k[0] && all->z[item] == k[1] && all->y[item] == k[2];
}

static uint32_t vertex_hash(const int32_t *key)
{
    uint64_t h = ((uint64_t)(uint32_t)key[0] * 0x9e3779b97f4a7c15ull) ^
                 ((uint64_t)(uint32_t)key[1] * 0xc2b2ae3d27d4eb4full) ^
                 ((uint64_t)(uint32_t)key[2] * 0x165667b19e3779f9ull);
    return (uint32_t)(h ^ (h >> 29) ^ (h >> 47));
}

bool nav__polygons_append(nav__polygons *all, const nav__polygons *add, nav__index *weld)
{
    uint32_t *remap = NULL;
    bool ok = nav__arr_setlen(remap, arrlenu(add->x));
    for (size_t v = 0; ok && v < arrlenu(add->x); v++) {
        int32_t key[3] = {add->x[v], add->z[v], add->y[v]};
        uint32_t hash = vertex_hash(key), at = nav__index_find(weld, hash, same_vertex, key, all);
        if (at == NAV__INDEX_NONE) {
            at = (uint32_t)arrlenu(all->x);
            ok = nav__arr_push(all->x, add->x[v]) && nav__arr_push(all->y, add->y[v]) &&
                 nav__arr_push(all->z, add->z[v]) && nav__index_add(weld, hash, at);
        }
        remap[v] = at;
    }
    if (ok && arrlenu(all->poly_first) == 0) ok = nav__arr_push(all->poly_first, 0);
    uint32_t base = (uint32_t)arrlenu(all->poly_verts);
    size_t polys = arrlenu(add->poly_first) ? arrlenu(add->poly_first) - 1 : 0;
    ok = ok && nav__arr_reserve(all->poly_verts, arrlenu(add->poly_verts)) &&
         nav__arr_reserve(all->poly_first, polys) && nav__arr_reserve(all->poly_area, polys);
    for (size_t e = 0; ok && e < arrlenu(add->poly_verts); e++)
        nav__arr_put_reserved(all->poly_verts, remap[add->poly_verts[e]]);
    for (size_t q = 0; ok && q < polys; q++) {
        nav__arr_put_reserved(all->poly_first, base + add->poly_first[q + 1]);
        nav__arr_put_reserved(all->poly_area, add->poly_area[q]);
    }
    if (ok && arrlenu(add->detail_point_first) == polys + 1) { /* heights: appended as they are */
        if (arrlenu(all->detail_point_first) == 0)
            ok = nav__arr_push(all->detail_point_first, 0) && nav__arr_push(all->detail_tri_first, 0);
        uint32_t point_base = (uint32_t)(arrlenu(all->detail_points) / 3),
                 tri_base = (uint32_t)(arrlenu(all->detail_tris) / 3);
        ok = ok && nav__arr_append(all->detail_points, add->detail_points, arrlenu(add->detail_points)) &&
             nav__arr_append(all->detail_tris, add->detail_tris, arrlenu(add->detail_tris)) &&
             nav__arr_reserve(all->detail_point_first, polys) &&
             nav__arr_reserve(all->detail_tri_first, polys);
        for (size_t q = 0; ok && q < polys; q++) {
            nav__arr_put_reserved(all->detail_point_first, point_base + add->detail_point_first[q + 1]);
            nav__arr_put_reserved(all->detail_tri_first, tri_base + add->detail_tri_first[q + 1]);
        }
    }
    all->failed_regions += add->failed_regions;
    arrfree(remap);
    return ok;
}

/* A vertex on a line between tiles: the line (x = line * tile_size when vertical, z = ... when
 * not), its place along it, its height. */
typedef struct on_line {
    int32_t vertical, line, along, y;
    uint32_t vertex;
} on_line;

static int by_line(const void *pa, const void *pb)
{
    const on_line *a = pa, *b = pb;
    if (a->vertical != b->vertical) return a->vertical < b->vertical ? -1 : 1;
    if (a->line != b->line) return a->line < b->line ? -1 : 1;
    if (a->along != b->along) return a->along < b->along ? -1 : 1;
    if (a->y != b->y) return a->y < b->y ? -1 : 1;
    return a->vertex < b->vertex ? -1 : (a->vertex > b->vertex);
}

/* The first entry at or after (vertical, line, along). */
static size_t lower_bound(const on_line *v, size_t n, int32_t vertical, int32_t line, int32_t along)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const on_line *m = &v[mid];
        bool less = m->vertical != vertical ? m->vertical < vertical
                    : m->line != line       ? m->line < line
                                            : m->along < along;
        if (less)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Each polygon edge on a line between tiles takes the vertices inside it (see nav__polygons_stitch).
 * False when memory runs out (p as it was). */
static bool insert_tile_vertices(nav__polygons *p, int32_t tile, int32_t climb)
{
    on_line *on = NULL;
    if (!nav__arr_reserve(on, 2 * arrlenu(p->x))) return false;
    for (size_t v = 0; v < arrlenu(p->x); v++) {
        if (p->x[v] % tile == 0)
            nav__arr_put_reserved(on, ((on_line){1, p->x[v] / tile, p->z[v], p->y[v], (uint32_t)v}));
        if (p->z[v] % tile == 0)
            nav__arr_put_reserved(on, ((on_line){0, p->z[v] / tile, p->x[v], p->y[v], (uint32_t)v}));
    }
    if (arrlenu(on) == 0) {
        arrfree(on);
        return true;
    }
    qsort(on, arrlenu(on), sizeof *on, by_line);
    uint32_t *first = NULL, *verts = NULL, *inside = NULL;
    uint32_t polys = (uint32_t)arrlenu(p->poly_first) - 1;
    /* every edge's start, and the vertices taken (a few) */
    bool ok = nav__arr_reserve(first, (size_t)polys + 1) && nav__arr_reserve(verts, arrlenu(p->poly_verts));
    if (ok) nav__arr_put_reserved(first, 0);
    for (uint32_t q = 0; q < polys && ok; q++) {
        uint32_t f = p->poly_first[q], n = p->poly_first[q + 1] - f;
        for (uint32_t k = 0; k < n && ok; k++) {
            uint32_t a = p->poly_verts[f + k], b = p->poly_verts[f + (k + 1) % n];
            ok = nav__arr_push(verts, a);
            int32_t vertical = p->x[a] == p->x[b] && p->x[a] % tile == 0;
            if (!vertical && !(p->z[a] == p->z[b] && p->z[a] % tile == 0)) continue;
            int32_t line = vertical ? p->x[a] / tile : p->z[a] / tile;
            int32_t from = vertical ? p->z[a] : p->x[a], to = vertical ? p->z[b] : p->x[b];
            int32_t lo = from < to ? from : to, hi = from < to ? to : from;
            nav__arr_truncate(inside, 0);
            for (size_t i = lower_bound(on, arrlenu(on), vertical, line, lo + 1);
                 ok && i < arrlenu(on) && on[i].vertical == vertical && on[i].line == line &&
                 on[i].along < hi;
                 i++) {
                double t = (double)(on[i].along - from) / (double)(to - from);
                double y = p->y[a] + t * (p->y[b] - p->y[a]);
                if (on[i].y - y <= climb && y - on[i].y <= climb) ok = nav__arr_push(inside, (uint32_t)i);
            }
            /* in the edge's direction, one vertex a place */
            size_t count = arrlenu(inside);
            int32_t last_along = from;
            for (size_t j = 0; j < count && ok; j++) {
                const on_line *o = &on[inside[from < to ? j : count - 1 - j]];
                if (o->along == last_along) continue;
                last_along = o->along;
                ok = nav__arr_push(verts, o->vertex);
            }
        }
        if (ok) nav__arr_put_reserved(first, (uint32_t)arrlenu(verts));
    }
    if (ok) {
        arrfree(p->poly_first);
        arrfree(p->poly_verts);
        p->poly_first = first;
        p->poly_verts = verts;
    } else {
        arrfree(first);
        arrfree(verts);
    }
    arrfree(inside);
    arrfree(on);
    return ok;
}

/* The vertex of outline[0 .. n - 1] where the outline goes straight on (a vertex of a neighbour kept
 * on a side, in the cells' exact coordinates), or n for none. */
static uint32_t straight_vertex(const nav__polygons *p, const uint32_t *outline, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) {
        uint32_t a = outline[(k + n - 1) % n], b = outline[k], c = outline[(k + 1) % n];
        int64_t cross = ((int64_t)p->x[b] - p->x[a]) * ((int64_t)p->z[c] - p->z[b]) -
                        ((int64_t)p->z[b] - p->z[a]) * ((int64_t)p->x[c] - p->x[b]);
        if (cross == 0) return k;
    }
    return n;
}

/* What cutting makes: the new polygons, each with its source polygon's area and heights. */
typedef struct pieces {
    const nav__polygons *p;
    uint32_t source;
    bool detail;
    uint32_t *first, *verts, *point_first, *tri_first;
    uint8_t *area, *tris;
    float *points;
} pieces;

static int64_t turn(const nav__polygons *p, uint32_t a, uint32_t b, uint32_t c)
{
    return ((int64_t)p->x[b] - p->x[a]) * ((int64_t)p->z[c] - p->z[b]) -
           ((int64_t)p->z[b] - p->z[a]) * ((int64_t)p->x[c] - p->x[b]);
}

/* Adds the polygon outline[0 .. n - 1] as it is. False when memory runs out. */
static bool emit_final(pieces *c, const uint32_t *outline, uint32_t n)
{
    const nav__polygons *p = c->p;
    if (!nav__arr_append(c->verts, outline, n) || !nav__arr_push(c->first, (uint32_t)arrlenu(c->verts)) ||
        !nav__arr_push(c->area, p->poly_area[c->source]))
        return false;
    if (c->detail) { /* each piece keeps the whole polygon's height triangles */
        const uint32_t *point_first = p->detail_point_first + c->source,
                       *tri_first = p->detail_tri_first + c->source;
        size_t points = 3 * (size_t)(point_first[1] - point_first[0]),
               tris = 3 * (size_t)(tri_first[1] - tri_first[0]);
        if (!nav__arr_append(c->points, p->detail_points + 3 * (size_t)point_first[0], points) ||
            !nav__arr_append(c->tris, p->detail_tris + 3 * (size_t)tri_first[0], tris) ||
            !nav__arr_push(c->point_first, (uint32_t)(arrlenu(c->points) / 3)) ||
            !nav__arr_push(c->tri_first, (uint32_t)(arrlenu(c->tris) / 3)))
            return false;
    }
    return true;
}

/* Adds the polygon outline[0 .. n - 1], cut as cut_polygons says, each piece checked again. False when
 * memory runs out. */
static bool emit_piece(pieces *c, const uint32_t *outline, uint32_t n)
{
    const nav__polygons *p = c->p;
    uint32_t straight = straight_vertex(p, outline, n);
    if (n <= NAV_MESH_MAX_POLY_VERTS && (straight == n || n <= 3)) return emit_final(c, outline, n);
    /* the outline turned to start at the straight vertex (or as it is, to halve it) */
    uint32_t *turned = NULL, start = straight < n ? straight : 0, cut = n / 2;
    if (!nav__arr_reserve(turned, n)) return false;
    for (uint32_t k = 0; k < n; k++) nav__arr_put_reserved(turned, outline[(start + k) % n]);
    if (straight < n) { /* to the proper corner most across, off the straight line through the front */
        uint32_t best = 0;
        for (uint32_t k = 2; k + 1 < n; k++) {
            uint32_t off = k < n - k ? k : n - k;
            if (turn(p, turned[k - 1], turned[k], turned[k + 1]) != 0 &&
                turn(p, turned[n - 1], turned[0], turned[k]) != 0 &&
                (best == 0 || off > (best < n - best ? best : n - best)))
                best = k;
        }
        if (best == 0 && n <= NAV_MESH_MAX_POLY_VERTS) { /* all in a line but the ends (cannot happen) */
            bool ok = emit_final(c, turned, n);
            arrfree(turned);
            return ok;
        }
        if (best) cut = best;
    }
    uint32_t *second = NULL;
    bool ok = nav__arr_reserve(second, n - cut + 1);
    if (ok) {
        for (uint32_t k = cut; k < n; k++) nav__arr_put_reserved(second, turned[k]);
        nav__arr_put_reserved(second, turned[0]);
    }
    ok = ok && emit_piece(c, turned, cut + 1) && emit_piece(c, second, n - cut + 1);
    arrfree(turned);
    arrfree(second);
    return ok;
}

/* Cuts polygons along diagonals (convex: both pieces are) until none has more than
 * NAV_MESH_MAX_POLY_VERTS vertices or a vertex where its outline goes straight on. Such a vertex
 * (a neighbour's corner kept on a side, so that the edges match) is exact in cells, but the world's
 * floats round it a hair to either side: a polygon could come out a hair concave (refused by the
 * MESH chunk's reader, and in the queries' exact tests). Cut from there to a corner across, it is a
 * proper corner of both pieces. False when memory runs out (p as it was). */
static bool cut_polygons(nav__polygons *p)
{
    uint32_t polys = (uint32_t)arrlenu(p->poly_first) - 1;
    bool any = false;
    for (uint32_t q = 0; q < polys && !any; q++) {
        uint32_t n = p->poly_first[q + 1] - p->poly_first[q];
        any = n > NAV_MESH_MAX_POLY_VERTS || straight_vertex(p, p->poly_verts + p->poly_first[q], n) < n;
    }
    if (!any) return true;
    pieces c = {.p = p, .detail = arrlenu(p->detail_point_first) == (size_t)polys + 1};
    bool ok = nav__arr_push(c.first, 0) && nav__arr_push(c.point_first, 0) && nav__arr_push(c.tri_first, 0);
    for (uint32_t q = 0; q < polys && ok; q++) {
        c.source = q;
        ok = emit_piece(&c, p->poly_verts + p->poly_first[q], p->poly_first[q + 1] - p->poly_first[q]);
    }
    if (!ok) {
        arrfree(c.first);
        arrfree(c.verts);
        arrfree(c.area);
        arrfree(c.points);
        arrfree(c.point_first);
        arrfree(c.tris);
        arrfree(c.tri_first);
        return false;
    }
    arrfree(p->poly_first);
    arrfree(p->poly_verts);
    arrfree(p->poly_area);
    p->poly_first = c.first, p->poly_verts = c.verts, p->poly_area = c.area;
    if (c.detail) {
        arrfree(p->detail_points);
        arrfree(p->detail_point_first);
        arrfree(p->detail_tris);
        arrfree(p->detail_tri_first);
        p->detail_points = c.points, p->detail_point_first = c.point_first;
        p->detail_tris = c.tris, p->detail_tri_first = c.tri_first;
    } else {
        arrfree(c.point_first);
        arrfree(c.tri_first);
    }
    return true;
}

bool nav__polygons_stitch(nav__polygons *p, int32_t tile_size, int32_t climb)
{
    if (arrlenu(p->poly_first) == 0 && !nav__arr_push(p->poly_first, 0)) return false;
    if (tile_size > 0 && !insert_tile_vertices(p, tile_size, climb)) return false;
    if (!cut_polygons(p)) return false;
    uint32_t polys = (uint32_t)arrlenu(p->poly_first) - 1, edges = (uint32_t)arrlenu(p->poly_verts),
             *to = NULL;
    bool ok = nav__arr_setlen(to, edges) && nav__arr_setlen(p->edge_twin, edges);
    for (uint32_t q = 0; q < polys && ok; q++)
        for (uint32_t e = p->poly_first[q]; e < p->poly_first[q + 1]; e++)
            to[e] = p->poly_verts[e + 1 < p->poly_first[q + 1] ? e + 1 : p->poly_first[q]];
    ok = ok && nav__match_edges(p->poly_verts, to, edges, (uint32_t)arrlenu(p->x), p->edge_twin);
    arrfree(to);
    return ok && split_pinches(p);
}
