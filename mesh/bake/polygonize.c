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

/* Cuts the outline pts[0 .. n - 1] (a simple polygon, clockwise as seen from above) into n - 2
 * triangles, appended to *tris as indices into pts, always the ear with the shortest diagonal
 * (the triangles stay fat). Returns false (the triangles so far kept) when no ear is left: an
 * outline the simplification made cross itself. */
static bool triangulate(const nav__contour_point *pts, uint32_t n, uint32_t **tris, uint32_t **at_scratch,
                        uint8_t **ear_scratch)
{
    uint32_t *at = *at_scratch;
    uint8_t *ear = *ear_scratch;
    arrsetlen(at, n);
    arrsetlen(ear, n);
    for (uint32_t k = 0; k < n; k++) at[k] = k;
    ring r = {pts, at, n};
    for (uint32_t k = 0; k < n; k++) ear[k] = is_ear(&r, k);
    bool ok = true;
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
            ok = false;
            break;
        }
        uint32_t prev = (best + r.n - 1) % r.n;
        arrput(*tris, at[prev]);
        arrput(*tris, at[best]);
        arrput(*tris, at[(best + 1) % r.n]);
        memmove(at + best, at + best + 1, (r.n - best - 1) * sizeof *at);
        memmove(ear + best, ear + best + 1, (r.n - best - 1) * sizeof *ear);
        r.n--;
        /* the two points either side of the clipped one */
        uint32_t before = best == 0 ? r.n - 1 : best - 1, after = best % r.n;
        ear[before] = is_ear(&r, before);
        ear[after] = is_ear(&r, after);
    }
    if (ok && area2(pt(&r, 0), pt(&r, 1), pt(&r, 2)) > 0) {
        arrput(*tris, at[0]);
        arrput(*tris, at[1]);
        arrput(*tris, at[2]);
    }
    *at_scratch = at;
    *ear_scratch = ear;
    return ok;
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
 * further group gets a copy, so that a vertex's polygons are always one fan. */
static void split_pinches(nav__polygons *p)
{
    uint32_t edges = (uint32_t)arrlenu(p->poly_verts), polys = (uint32_t)arrlenu(p->poly_first) - 1;
    uint32_t *parent = NULL, *owner = NULL, *copy = NULL;
    arrsetlen(parent, edges);
    arrsetlen(owner, edges);
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
    uint32_t verts = (uint32_t)arrlenu(p->x);
    arrsetlen(copy, verts);
    if (verts) memset(copy, 0xff, verts * sizeof *copy);
    uint32_t *group_vertex = NULL; /* per root edge: the vertex its group uses */
    arrsetlen(group_vertex, edges);
    for (uint32_t e = 0; e < edges; e++) {
        uint32_t root = nav__find_root(parent, e), v = p->poly_verts[e];
        if (root == e) {
            if (copy[v] == UINT32_MAX) {
                copy[v] = v;
                group_vertex[e] = v;
            } else {
                group_vertex[e] = (uint32_t)arrlenu(p->x);
                arrput(p->x, p->x[v]);
                arrput(p->y, p->y[v]);
                arrput(p->z, p->z[v]);
            }
        }
    }
    for (uint32_t e = 0; e < edges; e++) p->poly_verts[e] = group_vertex[nav__find_root(parent, e)];
    arrfree(parent);
    arrfree(owner);
    arrfree(copy);
    arrfree(group_vertex);
}

void nav__polygons_build(nav__polygons *out, const nav__contours *c, const nav__open_space *os,
                         uint32_t max_verts, int32_t dx, int32_t dz)
{
    *out = (nav__polygons){0};
    uint8_t *region_area = NULL;
    arrsetlen(region_area, c->region_count + 1);
    memset(region_area, 0, c->region_count + 1);
    for (uint32_t i = 0; i < os->count; i++)
        if (os->region[i] != 0) region_area[os->region[i]] = os->area[i];

    /* vertices welded by position, numbered in order of first use: the points sorted by (x, z,
     * height), not hashed (stb_ds's tables touch a process-wide seed, and tiles run on threads) */
    size_t point_count = arrlenu(c->points);
    uint32_t *vertex_of = NULL, *order = NULL, *tmp = NULL;
    uint64_t *key = NULL;
    arrsetlen(vertex_of, point_count);
    arrsetlen(order, point_count);
    arrsetlen(tmp, point_count);
    arrsetlen(key, point_count);
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
            arrput(out->x, q->x);
            arrput(out->y, q->y);
            arrput(out->z, q->z);
        } else {
            vertex_of[k] = vertex_of[tmp[k]];
        }
    }
    arrfree(order);
    arrfree(tmp);
    arrfree(key);

    uint32_t *tris = NULL, *tri_region = NULL, *local = NULL, *at = NULL;
    uint8_t *ear = NULL;
    for (uint32_t r = 1; r <= c->region_count; r++) {
        uint32_t first = c->first[r - 1], n = c->first[r] - first;
        if (n < 3) continue;
        arrsetlen(local, 0);
        if (!triangulate(c->points + first, n, &local, &at, &ear)) out->failed_regions++;
        for (size_t k = 0; k < arrlenu(local); k++) arrput(tris, vertex_of[first + local[k]]);
        for (size_t k = 0; k < arrlenu(local) / 3; k++) arrput(tri_region, r);
    }
    arrfree(local);
    arrfree(at);
    arrfree(ear);
    arrfree(vertex_of);

    uint32_t *source = NULL, *tri_poly = NULL;
    arrsetlen(tri_poly, arrlenu(tri_region));
    nav__merge_triangles(out->x, out->z, (uint32_t)arrlenu(out->x), tris, tri_region,
                         (uint32_t)arrlenu(tri_region), region_area, max_verts, &out->poly_first,
                         &out->poly_verts, &source, tri_poly);
    /* each polygon's regions (its triangles'), for its heights */
    {
        uint32_t polys = (uint32_t)arrlenu(out->poly_first) - 1, *count = NULL;
        arrsetlen(count, polys + 1);
        memset(count, 0, (polys + 1) * sizeof *count);
        arrsetlen(out->poly_region_first, polys + 1);
        uint32_t *by_polygon = NULL;
        arrsetlen(by_polygon, arrlenu(tri_region));
        for (size_t t = 0; t < arrlenu(tri_region); t++) count[tri_poly[t] + 1]++;
        for (uint32_t q = 0; q < polys; q++) count[q + 1] += count[q];
        for (size_t t = 0; t < arrlenu(tri_region); t++) by_polygon[count[tri_poly[t]]++] = tri_region[t];
        /* count[q] is now the end of q's triangles; each polygon's regions without repeats */
        uint32_t start = 0;
        for (uint32_t q = 0; q < polys; q++) {
            out->poly_region_first[q] = (uint32_t)arrlenu(out->poly_regions);
            for (uint32_t i = start; i < count[q]; i++) {
                bool seen = false;
                for (size_t j = out->poly_region_first[q]; j < arrlenu(out->poly_regions) && !seen; j++)
                    seen = out->poly_regions[j] == by_polygon[i];
                if (!seen) arrput(out->poly_regions, by_polygon[i]);
            }
            start = count[q];
        }
        out->poly_region_first[polys] = (uint32_t)arrlenu(out->poly_regions);
        arrfree(count);
        arrfree(by_polygon);
    }
    arrfree(tri_poly);
    arrfree(tris);
    arrfree(tri_region);
    uint32_t polys = (uint32_t)arrlenu(out->poly_first) - 1;
    for (uint32_t q = 0; q < polys; q++) arrput(out->poly_area, region_area[source[q]]);
    arrfree(source);
    arrfree(region_area);

    /* only the vertices still used (the merge drops some on straight sides), in order of first use */
    {
        uint32_t *remap = NULL;
        int32_t *x = NULL, *y = NULL, *z = NULL;
        arrsetlen(remap, arrlenu(out->x));
        if (arrlenu(out->x)) memset(remap, 0xff, arrlenu(out->x) * sizeof *remap);
        for (size_t e = 0; e < arrlenu(out->poly_verts); e++) {
            uint32_t v = out->poly_verts[e];
            if (remap[v] == UINT32_MAX) {
                remap[v] = (uint32_t)arrlenu(x);
                arrput(x, out->x[v]);
                arrput(y, out->y[v]);
                arrput(z, out->z[v]);
            }
            out->poly_verts[e] = remap[v];
        }
        arrfree(out->x);
        arrfree(out->y);
        arrfree(out->z);
        out->x = x, out->y = y, out->z = z;
        arrfree(remap);
    }
    for (size_t v = 0; v < arrlenu(out->x); v++) out->x[v] += dx, out->z[v] += dz;
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

/* Appends n values of `from` to array `to`. */
#define APPEND_ALL(to, from, n)                                                                              \
    (nav__arr_reserve(to, n) &&                                                                              \
     ((n) == 0 || (memcpy(nav__arr_addn_reserved(to, n), from, (n) * sizeof *(to)), true)))

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
        ok = ok && APPEND_ALL(all->detail_points, add->detail_points, arrlenu(add->detail_points)) &&
             APPEND_ALL(all->detail_tris, add->detail_tris, arrlenu(add->detail_tris)) &&
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

/* Each polygon edge on a line between tiles takes the vertices inside it (see nav__polygons_stitch). */
static void insert_tile_vertices(nav__polygons *p, int32_t tile, int32_t climb)
{
    on_line *on = NULL;
    for (size_t v = 0; v < arrlenu(p->x); v++) {
        if (p->x[v] % tile == 0) arrput(on, ((on_line){1, p->x[v] / tile, p->z[v], p->y[v], (uint32_t)v}));
        if (p->z[v] % tile == 0) arrput(on, ((on_line){0, p->z[v] / tile, p->x[v], p->y[v], (uint32_t)v}));
    }
    if (arrlenu(on) == 0) return;
    qsort(on, arrlenu(on), sizeof *on, by_line);
    uint32_t *first = NULL, *verts = NULL, *inside = NULL;
    uint32_t polys = (uint32_t)arrlenu(p->poly_first) - 1;
    arrput(first, 0);
    for (uint32_t q = 0; q < polys; q++) {
        uint32_t f = p->poly_first[q], n = p->poly_first[q + 1] - f;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t a = p->poly_verts[f + k], b = p->poly_verts[f + (k + 1) % n];
            arrput(verts, a);
            int32_t vertical = p->x[a] == p->x[b] && p->x[a] % tile == 0;
            if (!vertical && !(p->z[a] == p->z[b] && p->z[a] % tile == 0)) continue;
            int32_t line = vertical ? p->x[a] / tile : p->z[a] / tile;
            int32_t from = vertical ? p->z[a] : p->x[a], to = vertical ? p->z[b] : p->x[b];
            int32_t lo = from < to ? from : to, hi = from < to ? to : from;
            arrsetlen(inside, 0);
            for (size_t i = lower_bound(on, arrlenu(on), vertical, line, lo + 1);
                 i < arrlenu(on) && on[i].vertical == vertical && on[i].line == line && on[i].along < hi;
                 i++) {
                double t = (double)(on[i].along - from) / (double)(to - from);
                double y = p->y[a] + t * (p->y[b] - p->y[a]);
                if (on[i].y - y <= climb && y - on[i].y <= climb) arrput(inside, (uint32_t)i);
            }
            /* in the edge's direction, one vertex a place */
            size_t count = arrlenu(inside);
            int32_t last_along = from;
            for (size_t j = 0; j < count; j++) {
                const on_line *o = &on[inside[from < to ? j : count - 1 - j]];
                if (o->along == last_along) continue;
                last_along = o->along;
                arrput(verts, o->vertex);
            }
        }
        arrput(first, (uint32_t)arrlenu(verts));
    }
    arrfree(p->poly_first);
    arrfree(p->poly_verts);
    p->poly_first = first;
    p->poly_verts = verts;
    arrfree(inside);
    arrfree(on);
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

/* Adds the polygon outline[0 .. n - 1] as it is. */
static void emit_final(pieces *c, const uint32_t *outline, uint32_t n)
{
    const nav__polygons *p = c->p;
    for (uint32_t k = 0; k < n; k++) arrput(c->verts, outline[k]);
    arrput(c->first, (uint32_t)arrlenu(c->verts));
    arrput(c->area, p->poly_area[c->source]);
    if (c->detail) { /* each piece keeps the whole polygon's height triangles */
        for (uint32_t k = 3 * p->detail_point_first[c->source]; k < 3 * p->detail_point_first[c->source + 1];
             k++)
            arrput(c->points, p->detail_points[k]);
        for (uint32_t k = 3 * p->detail_tri_first[c->source]; k < 3 * p->detail_tri_first[c->source + 1]; k++)
            arrput(c->tris, p->detail_tris[k]);
        arrput(c->point_first, (uint32_t)(arrlenu(c->points) / 3));
        arrput(c->tri_first, (uint32_t)(arrlenu(c->tris) / 3));
    }
}

/* Adds the polygon outline[0 .. n - 1], cut as cut_polygons says, each piece checked again. */
static void emit_piece(pieces *c, const uint32_t *outline, uint32_t n)
{
    const nav__polygons *p = c->p;
    uint32_t straight = straight_vertex(p, outline, n);
    if (n <= NAV_MESH_MAX_POLY_VERTS && (straight == n || n <= 3)) {
        emit_final(c, outline, n);
        return;
    }
    /* the outline turned to start at the straight vertex (or as it is, to halve it) */
    uint32_t *turned = NULL, start = straight < n ? straight : 0, cut = n / 2;
    for (uint32_t k = 0; k < n; k++) arrput(turned, outline[(start + k) % n]);
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
            emit_final(c, turned, n);
            arrfree(turned);
            return;
        }
        if (best) cut = best;
    }
    uint32_t *second = NULL;
    for (uint32_t k = cut; k < n; k++) arrput(second, turned[k]);
    arrput(second, turned[0]);
    emit_piece(c, turned, cut + 1);
    emit_piece(c, second, n - cut + 1);
    arrfree(turned);
    arrfree(second);
}

/* Cuts polygons along diagonals (convex: both pieces are) until none has more than
 * NAV_MESH_MAX_POLY_VERTS vertices or a vertex where its outline goes straight on. Such a vertex
 * (a neighbour's corner kept on a side, so that the edges match) is exact in cells, but the world's
 * floats round it a hair to either side: a polygon could come out a hair concave (refused by the
 * MESH chunk's reader, and in the queries' exact tests). Cut from there to a corner across, it is a
 * proper corner of both pieces. */
static void cut_polygons(nav__polygons *p)
{
    uint32_t polys = (uint32_t)arrlenu(p->poly_first) - 1;
    bool any = false;
    for (uint32_t q = 0; q < polys && !any; q++) {
        uint32_t n = p->poly_first[q + 1] - p->poly_first[q];
        any = n > NAV_MESH_MAX_POLY_VERTS || straight_vertex(p, p->poly_verts + p->poly_first[q], n) < n;
    }
    if (!any) return;
    pieces c = {.p = p, .detail = arrlenu(p->detail_point_first) == (size_t)polys + 1};
    arrput(c.first, 0);
    arrput(c.point_first, 0);
    arrput(c.tri_first, 0);
    for (uint32_t q = 0; q < polys; q++) {
        c.source = q;
        emit_piece(&c, p->poly_verts + p->poly_first[q], p->poly_first[q + 1] - p->poly_first[q]);
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
}

void nav__polygons_stitch(nav__polygons *p, int32_t tile_size, int32_t climb)
{
    if (arrlenu(p->poly_first) == 0) arrput(p->poly_first, 0);
    if (tile_size > 0) insert_tile_vertices(p, tile_size, climb);
    cut_polygons(p);
    uint32_t polys = (uint32_t)arrlenu(p->poly_first) - 1, edges = (uint32_t)arrlenu(p->poly_verts),
             *to = NULL;
    arrsetlen(to, edges);
    arrsetlen(p->edge_twin, edges);
    for (uint32_t q = 0; q < polys; q++)
        for (uint32_t e = p->poly_first[q]; e < p->poly_first[q + 1]; e++)
            to[e] = p->poly_verts[e + 1 < p->poly_first[q + 1] ? e + 1 : p->poly_first[q]];
    nav__match_edges(p->poly_verts, to, edges, (uint32_t)arrlenu(p->x), p->edge_twin);
    arrfree(to);
    split_pinches(p);
}
