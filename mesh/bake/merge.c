/* Large convex polygons from the grid's rectangles.
 *
 * Rectangles follow the rows, so a region bounded by a diagonal wall becomes one thin rectangle a
 * row, and a path across it crosses them all. Here they become few large polygons:
 *   1. each rectangle (a convex polygon with its T-junction vertices) is cut into triangles by a
 *      zipper between its two halves of boundary, so every vertex is used and no triangle is flat;
 *   2. edge flips (Lawson's algorithm) make the triangulation the constrained Delaunay one, whose
 *      edges across rows run between the walls' corners; walls and the borders between areas or
 *      heights are constraints and never flip;
 *   3. triangles are merged back into convex polygons (Hertel and Mehlhorn: drop a shared edge
 *      when the union stays convex), longest edges first as Recast does, up to
 *      NAV_MESH_MAX_POLY_VERTS vertices;
 *   4. a vertex in the middle of a straight side that no other polygon uses is dropped.
 * The union of the polygons is the union of the rectangles throughout, and as the triangulation is
 * conforming, so is the result: no T-junctions. Coordinates are grid corners (integers), so the
 * orientation and in-circle tests are exact (128-bit products). */
#include <stdlib.h>
#include <string.h>

#include "ds.h"
#include "mesh_internal.h"
#include "merge.h"
#include "wide.h"

#define NONE UINT32_MAX

typedef struct tri {
    uint32_t v[3];   /* counter-clockwise in (x, y) with y down: cross > 0 */
    uint32_t adj[3]; /* triangle across edge v[i] -> v[i + 1], NONE for a constraint */
    uint32_t source; /* the rectangle it came from (its area, flags and height) */
} tri;

typedef struct merger {
    const int32_t *x, *y;
    uint32_t vert_count;
    tri *tris; /* stb_ds */
} merger;

static int64_t orient(const merger *m, uint32_t a, uint32_t b, uint32_t c)
{
    int64_t abx = (int64_t)m->x[b] - m->x[a], aby = (int64_t)m->y[b] - m->y[a];
    int64_t acx = (int64_t)m->x[c] - m->x[a], acy = (int64_t)m->y[c] - m->y[a];
    return abx * acy - aby * acx;
}

/* d strictly inside the circle through a, b, c (with orient(a, b, c) > 0). The determinant needs
 * about 70 bits for the cells of a mesh (coordinates below 2^17: differences below 2^18, squared
 * sums below 2^37, products with a difference below 2^55, which int64 holds): summed in 128. */
static bool in_circle(const merger *m, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    int64_t adx = (int64_t)m->x[a] - m->x[d], ady = (int64_t)m->y[a] - m->y[d];
    int64_t bdx = (int64_t)m->x[b] - m->x[d], bdy = (int64_t)m->y[b] - m->y[d];
    int64_t cdx = (int64_t)m->x[c] - m->x[d], cdy = (int64_t)m->y[c] - m->y[d];
#if NAV__HAS_INT128
    __extension__ typedef __int128 i128;
    i128 al = (i128)adx * adx + (i128)ady * ady, bl = (i128)bdx * bdx + (i128)bdy * bdy;
    i128 cl = (i128)cdx * cdx + (i128)cdy * cdy;
    i128 det = (i128)adx * ((i128)bdy * cl - (i128)cdy * bl) - (i128)ady * ((i128)bdx * cl - (i128)cdx * bl) +
               al * ((i128)bdx * cdy - (i128)cdx * bdy);
    return det > 0;
#else
    int64_t al = adx * adx + ady * ady, bl = bdx * bdx + bdy * bdy, cl = cdx * cdx + cdy * cdy;
    nav__wide det = nav__wide_add(
        nav__wide_sub(nav__wide_mul(adx, bdy * cl - cdy * bl), nav__wide_mul(ady, bdx * cl - cdx * bl)),
        nav__wide_mul(al, bdx * cdy - cdx * bdy));
    return nav__wide_sign(det) > 0;
#endif
}

/* Appends triangle a, b, c (wound as tri says). False when memory runs out. */
static bool add_tri(merger *m, uint32_t a, uint32_t b, uint32_t c, uint32_t source)
{
    if (orient(m, a, b, c) < 0) {
        uint32_t t = b;
        b = c;
        c = t;
    }
    tri t = {{a, b, c}, {NONE, NONE, NONE}, source};
    return nav__arr_push(m->tris, t);
}

/* 1. A rectangle, corners first..first+n-1 from its top-left clockwise on screen, cut by a zipper
 * between its left-and-top half and its bottom-and-right half, both from the bottom-left corner to
 * the top-right one. NAV_FAILURE with NAV_CORRUPT_DATA for a malformed rectangle, or NAV_OUT_OF_MEMORY. */
static nav_status zipper(merger *m, const uint32_t *p, uint32_t n, uint32_t source)
{
    /* the corners: TL = p[0]; TR, BR, BL where the direction turns */
    uint32_t corner[4] = {0, 0, 0, 0}, found = 1;
    for (uint32_t i = 1; i < n && found < 4; i++)
        if (orient(m, p[i - 1], p[i], p[(i + 1) % n]) != 0) corner[found++] = i;
    if (found < 4) return NAV_FAILURE | NAV_CORRUPT_DATA;
    uint32_t tr = corner[1], bl = corner[3];
    uint32_t a[4 * NAV_MESH_MAX_POLY_VERTS], b[4 * NAV_MESH_MAX_POLY_VERTS];
    uint32_t *ca = n <= 4 * NAV_MESH_MAX_POLY_VERTS ? a : NULL, *cb = NULL, *heap_a = NULL, *heap_b = NULL;
    if (!ca) {
        if (!nav__arr_setlen(heap_a, n) || !nav__arr_setlen(heap_b, n)) {
            arrfree(heap_a);
            return NAV_FAILURE | NAV_OUT_OF_MEMORY;
        }
        ca = heap_a;
        cb = heap_b;
    } else {
        cb = b;
    }
    /* A: BL up the left side, TL, along the top to just before TR; B: BL along the bottom and up
     * the right side to just before TR */
    uint32_t na = 0, nb = 0;
    for (uint32_t i = bl;; i = (i + 1) % n) {
        if (i == tr) break;
        ca[na++] = p[i];
    }
    for (uint32_t i = bl;; i = (i + n - 1) % n) {
        if (i == tr) break;
        cb[nb++] = p[i];
    }
    /* the corner triangle at BL, then zip */
    nav_status s = add_tri(m, ca[1], ca[0], cb[1], source) ? NAV_SUCCESS : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    uint32_t i = 1, j = 1;
    while (nav_succeeded(s) && (i + 1 < na || j + 1 < nb)) {
        bool can_a = i + 1 < na && orient(m, ca[i], ca[i + 1], cb[j]) != 0;
        bool can_b = j + 1 < nb && orient(m, ca[i], cb[j], cb[j + 1]) != 0;
        if (can_a && can_b) {
            int64_t dax = (int64_t)m->x[ca[i + 1]] - m->x[cb[j]],
                    day = (int64_t)m->y[ca[i + 1]] - m->y[cb[j]];
            int64_t dbx = (int64_t)m->x[ca[i]] - m->x[cb[j + 1]],
                    dby = (int64_t)m->y[ca[i]] - m->y[cb[j + 1]];
            if (dax * dax + day * day <= dbx * dbx + dby * dby)
                can_b = false;
            else
                can_a = false;
        }
        if (can_a) {
            if (!add_tri(m, ca[i], ca[i + 1], cb[j], source)) s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
            i++;
        } else if (can_b) {
            if (!add_tri(m, ca[i], cb[j], cb[j + 1], source)) s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
            j++;
        } else {
            s = NAV_FAILURE | NAV_CORRUPT_DATA;
        }
    }
    if (nav_succeeded(s) && !add_tri(m, ca[na - 1], p[tr], cb[nb - 1], source))
        s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    arrfree(heap_a);
    arrfree(heap_b);
    return s;
}

void nav__sort_by_key(uint32_t *order, uint32_t *tmp, uint32_t n, const uint64_t *key)
{
    for (uint32_t width = 1; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = key[order[j]] < key[order[i]] ? order[j++] : order[i++];
            while (i < mid) tmp[k++] = order[i++];
            while (j < hi) tmp[k++] = order[j++];
        }
        memcpy(order, tmp, n * sizeof *order);
    }
}

bool nav__corner_reps(const int32_t *x, const int32_t *y, const float *height, uint32_t n, uint32_t *rep)
{
    /* the vertices in order of (y, x): two stable counting passes, x then y (16 bits each), or for
     * a few vertices (a tile's) a merge sort, cheaper than the counts' 65536 entries */
    uint32_t *a = NULL, *b = NULL, *count = NULL;
    uint64_t *key = NULL;
    bool few = n < 8192;
    bool ok = nav__arr_setlen(a, n) && nav__arr_setlen(b, n) &&
              (few ? nav__arr_setlen(key, n) : nav__arr_setlen(count, 65537));
    if (!ok) {
        arrfree(a);
        arrfree(b);
        return false;
    }
    if (few) {
        for (uint32_t v = 0; v < n; v++) {
            a[v] = v;
            key[v] = (uint64_t)(uint16_t)y[v] << 16 | (uint16_t)x[v];
        }
        nav__sort_by_key(a, b, n, key);
        arrfree(key);
    } else {
        for (int pass = 0; pass < 2; pass++) {
            const int32_t *by = pass ? y : x;
            memset(count, 0, 65537 * sizeof *count);
            for (uint32_t v = 0; v < n; v++) count[(uint16_t)by[v] + 1]++;
            for (uint32_t k = 0; k < 65536; k++) count[k + 1] += count[k];
            for (uint32_t i = 0; i < n; i++) {
                uint32_t v = pass ? a[i] : i;
                b[count[(uint16_t)by[v]]++] = v;
            }
            uint32_t *t = a;
            a = b;
            b = t;
        }
    }
    /* runs of one corner (a few vertices): the first of each height in the run (the least, as
     * the sort is stable) is the representative */
    uint32_t run = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = a[i];
        if (i == 0 || x[a[i - 1]] != x[v] || y[a[i - 1]] != y[v]) run = i;
        rep[v] = v;
        for (uint32_t k = run; k < i; k++)
            if (!height || !memcmp(&height[a[k]], &height[v], sizeof *height)) {
                rep[v] = rep[a[k]];
                break;
            }
    }
    arrfree(a);
    arrfree(b);
    arrfree(count);
    return true;
}

bool nav__match_edges(const uint32_t *from, const uint32_t *to, uint32_t n, uint32_t vert_count,
                      uint32_t *twin)
{
    /* the edges by start vertex: first[v] .. first[v + 1] - 1 in `order` */
    uint32_t *first = NULL, *order = NULL;
    if (!nav__arr_setlen(first, (size_t)vert_count + 1) || !nav__arr_setlen(order, n)) {
        arrfree(first);
        return false;
    }
    memset(first, 0, ((size_t)vert_count + 1) * sizeof *first);
    for (uint32_t i = 0; i < n; i++) first[from[i] + 1]++;
    for (uint32_t v = 0; v < vert_count; v++) first[v + 1] += first[v];
    for (uint32_t i = 0; i < n; i++) order[first[from[i]]++] = i;
    for (uint32_t v = vert_count; v > 0; v--) first[v] = first[v - 1]; /* back to the starts */
    first[0] = 0;
    for (uint32_t i = 0; i < n; i++) {
        twin[i] = UINT32_MAX;
        for (uint32_t k = first[to[i]]; k < first[to[i] + 1]; k++)
            if (to[order[k]] == from[i]) {
                twin[i] = order[k];
                break;
            }
    }
    arrfree(first);
    arrfree(order);
    return true;
}

/* Edges shared by two triangles of one area (and height: vertices differ between heights). False when
 * memory runs out. */
static bool link_triangles(merger *m, const uint8_t *area)
{
    uint32_t count = (uint32_t)arrlen(m->tris);
    uint32_t *from = NULL, *to = NULL, *twin = NULL;
    bool ok = nav__arr_setlen(from, 3 * (size_t)count) && nav__arr_setlen(to, 3 * (size_t)count) &&
              nav__arr_setlen(twin, 3 * (size_t)count);
    for (uint32_t t = 0; ok && t < count; t++)
        for (int s = 0; s < 3; s++) {
            from[3 * t + s] = m->tris[t].v[s];
            to[3 * t + s] = m->tris[t].v[(s + 1) % 3];
        }
    ok = ok && nav__match_edges(from, to, 3 * count, m->vert_count, twin);
    for (uint32_t t = 0; ok && t < count; t++)
        for (int s = 0; s < 3; s++) {
            uint32_t i = twin[3 * t + s];
            if (i == UINT32_MAX) continue;
            uint32_t other = i / 3;
            if (area[m->tris[other].source] == area[m->tris[t].source]) m->tris[t].adj[s] = other;
        }
    arrfree(from);
    arrfree(to);
    arrfree(twin);
    return ok;
}

static int side_of(const tri *t, uint32_t neighbour)
{
    for (int s = 0; s < 3; s++)
        if (t->adj[s] == neighbour) return s;
    return -1;
}

static void replace_adj(merger *m, uint32_t t, uint32_t from, uint32_t to)
{
    if (t == NONE) return;
    int s = side_of(&m->tris[t], from);
    if (s >= 0) m->tris[t].adj[s] = to;
}

/* 2. Flips each edge whose opposite vertex lies inside the other triangle's circumcircle, until
 * none does (the constrained Delaunay triangulation). False when memory runs out. */
static bool make_delaunay(merger *m)
{
    uint32_t *stack = NULL;
    uint32_t count = (uint32_t)arrlen(m->tris);
    bool ok = nav__arr_reserve(stack, count);
    for (uint32_t t = 0; ok && t < count; t++) nav__arr_put_reserved(stack, t);
    uint64_t guard = 0, limit = 64 * (uint64_t)count + 1024;
    while (ok && arrlen(stack) && guard++ < limit) {
        uint32_t t = arrpop(stack);
        for (int s = 0; s < 3; s++) {
            uint32_t u = m->tris[t].adj[s];
            if (u == NONE) continue;
            tri *T = &m->tris[t], *U = &m->tris[u];
            int r = side_of(U, t);
            if (r < 0) continue;
            uint32_t a = T->v[s], b = T->v[(s + 1) % 3], p = T->v[(s + 2) % 3], q = U->v[(r + 2) % 3];
            if (!in_circle(m, a, b, p, q)) continue;
            /* the quad p, a, q, b must be strictly convex for the flip */
            if (orient(m, p, a, q) <= 0 || orient(m, q, b, p) <= 0) continue;
            /* T = (a, b, p), U = (b, a, q)  ->  T = (p, a, q), U = (q, b, p) */
            uint32_t t_bp = T->adj[(s + 1) % 3], t_pa = T->adj[(s + 2) % 3];
            uint32_t u_aq = U->adj[(r + 1) % 3], u_qb = U->adj[(r + 2) % 3];
            tri nt = {{p, a, q}, {t_pa, u_aq, u}, T->source};
            tri nu = {{q, b, p}, {u_qb, t_bp, t}, U->source};
            *T = nt;
            *U = nu;
            replace_adj(m, u_aq, u, t);
            replace_adj(m, t_bp, t, u);
            ok = nav__arr_push(stack, t) && nav__arr_push(stack, u);
            break;
        }
    }
    arrfree(stack);
    return ok;
}

typedef struct candidate {
    int64_t length2;
    uint32_t t, u;
    uint32_t a, b; /* the edge a -> b of t */
} candidate;

static int by_length(const void *x, const void *y)
{
    const candidate *p = x, *q = y;
    if (p->length2 != q->length2) return p->length2 > q->length2 ? -1 : 1; /* longest first */
    if (p->t != q->t) return p->t < q->t ? -1 : 1;
    return p->u < q->u ? -1 : (p->u > q->u);
}

static uint32_t find(uint32_t *parent, uint32_t x)
{
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
}

/* The union of convex polygons p and q over their edge a -> b (in p; b -> a in q) when it is
 * convex with at most max vertices, into out; false otherwise. */
static bool try_union(const merger *m, const uint32_t *p, uint32_t np, const uint32_t *q, uint32_t nq,
                      uint32_t a, uint32_t b, uint32_t max, uint32_t *out, uint32_t *n_out)
{
    if (np + nq - 2 > max) return false;
    uint32_t ia = np, ib = nq;
    for (uint32_t i = 0; i < np; i++)
        if (p[i] == a && p[(i + 1) % np] == b) ia = i;
    for (uint32_t i = 0; i < nq; i++)
        if (q[i] == b && q[(i + 1) % nq] == a) ib = i;
    if (ia == np || ib == nq) return false;
    uint32_t n = 0;
    for (uint32_t k = 1; k <= np; k++) out[n++] = p[(ia + k) % np]; /* b ... a */
    for (uint32_t k = 2; k < nq; k++) out[n++] = q[(ib + k) % nq];  /* after a ... before b */
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++)
            if (out[i] == out[j]) return false;
    bool turns = false;
    for (uint32_t i = 0; i < n; i++) {
        int64_t o = orient(m, out[i], out[(i + 1) % n], out[(i + 2) % n]);
        if (o < 0) return false;
        turns |= o > 0;
    }
    *n_out = n;
    return turns;
}

/* 2 to 4 on the triangles in m: Delaunay, merged into polygons of at most max_verts vertices. False
 * when memory runs out. */
static bool merge_triangles(merger *m, const uint8_t *area, uint32_t max_verts, uint32_t **out_first,
                            uint32_t **out_verts, uint32_t **out_source, uint32_t *tri_poly)
{
    const int32_t *x = m->x, *y = m->y;
    uint32_t vert_count = m->vert_count;
    if (!link_triangles(m, area) || !make_delaunay(m)) return false;

    /* 3. merge, longest shared edges first */
    uint32_t count = (uint32_t)arrlen(m->tris);
    candidate *cands = NULL;
    /* the polygons: for each root t of the union-find, n[t] vertices at pool[at[t]], in a slot of
     * room[t]; a union too big for its slot moves to a new one of twice the room at the pool's end */
    uint32_t *parent = NULL, *at = NULL, *n = NULL, *room = NULL, *pool = NULL, *rep = NULL, *uses = NULL;
    bool ok = nav__arr_setlen(parent, count) && nav__arr_setlen(at, count) && nav__arr_setlen(n, count) &&
              nav__arr_setlen(room, count) && nav__arr_reserve(pool, 4 * (size_t)count + 16) &&
              nav__arr_setlen(rep, vert_count) && nav__arr_setlen(uses, vert_count);
    for (uint32_t t = 0; ok && t < count; t++)
        for (int s = 0; s < 3 && ok; s++) {
            uint32_t u = m->tris[t].adj[s];
            if (u == NONE || u < t) continue;
            uint32_t a = m->tris[t].v[s], b = m->tris[t].v[(s + 1) % 3];
            int64_t dx = (int64_t)x[b] - x[a], dy = (int64_t)y[b] - y[a];
            candidate c = {dx * dx + dy * dy, t, u, a, b};
            ok = nav__arr_push(cands, c);
        }
    if (!ok) goto done;
    if (arrlen(cands)) qsort(cands, (size_t)arrlen(cands), sizeof *cands, by_length);
    for (uint32_t t = 0; t < count; t++) {
        parent[t] = t;
        at[t] = (uint32_t)arrlen(pool);
        n[t] = room[t] = 3;
        for (int s = 0; s < 3; s++) nav__arr_put_reserved(pool, m->tris[t].v[s]);
    }
    uint32_t merged[NAV_MESH_MAX_POLY_VERTS + 2], n_merged;
    for (ptrdiff_t i = 0; i < arrlen(cands); i++) {
        uint32_t p = find(parent, cands[i].t), q = find(parent, cands[i].u);
        if (p == q) continue;
        if (!try_union(m, pool + at[p], n[p], pool + at[q], n[q], cands[i].a, cands[i].b, max_verts, merged,
                       &n_merged))
            continue;
        if (n_merged > room[p]) {
            uint32_t grown = room[p];
            while (grown < n_merged) grown *= 2;
            if (!nav__arr_addn(pool, grown)) {
                ok = false;
                goto done;
            }
            room[p] = grown;
            at[p] = (uint32_t)arrlen(pool) - grown;
        }
        memcpy(pool + at[p], merged, n_merged * sizeof *merged);
        n[p] = n_merged;
        parent[q] = p;
    }
    arrfree(cands);

    /* 4. drop the vertices in the middle of a straight side that no other polygon uses at that
     * grid corner (at any height: a step between heights matches its edges by position) */
    if (!nav__corner_reps(x, y, NULL, vert_count, rep) || !nav__arr_push(*out_first, 0)) {
        ok = false;
        goto done;
    }
    if (vert_count) memset(uses, 0, (size_t)vert_count * sizeof *uses);
    for (uint32_t t = 0; t < count; t++)
        if (parent[t] == t)
            for (uint32_t k = 0; k < n[t]; k++) uses[rep[pool[at[t] + k]]]++;
    for (uint32_t t = 0; t < count && ok; t++) {
        if (parent[t] != t) continue;
        const uint32_t *poly = pool + at[t];
        uint32_t size = n[t];
        ok = nav__arr_reserve(*out_verts, size);
        for (uint32_t k = 0; k < size && ok; k++) {
            uint32_t prev = poly[(k + size - 1) % size], next = poly[(k + 1) % size];
            if (uses[rep[poly[k]]] == 1 && orient(m, prev, poly[k], next) == 0) continue;
            nav__arr_put_reserved(*out_verts, poly[k]);
        }
        ok = ok && nav__arr_push(*out_first, (uint32_t)arrlen(*out_verts)) &&
             nav__arr_push(*out_source, m->tris[t].source);
        n[t] = (uint32_t)arrlen(*out_source) - 1; /* a root's polygon, for tri_poly */
    }
    if (ok && tri_poly)
        for (uint32_t t = 0; t < count; t++) tri_poly[t] = n[find(parent, t)];
done:
    arrfree(cands);
    arrfree(uses);
    arrfree(rep);
    arrfree(pool);
    arrfree(at);
    arrfree(n);
    arrfree(room);
    arrfree(parent);
    return ok;
}

nav_status nav__merge_rectangles(const int32_t *x, const int32_t *y, const uint32_t *poly_first,
                                 const uint32_t *poly_verts, uint32_t vert_count, const uint8_t *area,
                                 uint32_t poly_count, uint32_t **out_first, uint32_t **out_verts,
                                 uint32_t **out_source)
{
    merger m = {x, y, vert_count, NULL};
    nav_status s = NAV_SUCCESS;
    for (uint32_t p = 0; p < poly_count && nav_succeeded(s); p++)
        s = zipper(&m, poly_verts + poly_first[p], poly_first[p + 1] - poly_first[p], p);
    if (nav_succeeded(s) &&
        !merge_triangles(&m, area, NAV_MESH_MAX_POLY_VERTS, out_first, out_verts, out_source, NULL))
        s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    arrfree(m.tris);
    return s;
}

bool nav__merge_triangles(const int32_t *x, const int32_t *y, uint32_t vert_count, const uint32_t *tris,
                          const uint32_t *tri_source, uint32_t tri_count, const uint8_t *area,
                          uint32_t max_verts, uint32_t **out_first, uint32_t **out_verts,
                          uint32_t **out_source, uint32_t *tri_poly)
{
    merger m = {x, y, vert_count, NULL};
    bool ok = nav__arr_reserve(m.tris, tri_count);
    for (uint32_t t = 0; t < tri_count && ok; t++)
        ok = add_tri(&m, tris[3 * t], tris[3 * t + 1], tris[3 * t + 2], tri_source[t]);
    ok = ok && merge_triangles(&m, area, max_verts, out_first, out_verts, out_source, tri_poly);
    arrfree(m.tris);
    return ok;
}
