/* Landmarks: a differential heuristic (Goldberg and Harrelson's ALT, on the Euclidean shortest
 * paths of the mesh) for both searches (the bounds: query.c).
 *
 * For a few landmark points L the bake stores the exact shortest distance d(L, v) from L to every
 * vertex v (the optimal search run to the end from L: nav__optimal_distances). By the triangle
 * inequality, the rest of a path from a root vertex r to the goal is at least
 *     d(L, goal) - d(L, r)   and   d(L, r) - d(L, goal),
 * and d(L, goal) lies within [max_v d(L, v) - |goal - v|, min_v d(L, v) + |goal - v|] over the
 * vertices v of the goal's polygon (convex, so |goal - v| is a path in it). Paths may be joined at
 * a vertex only where the free space round it is in one piece: a pinch vertex (two walls meeting
 * at a point, which no path may pass) keeps no distances.
 *
 * The distances ignore filters and areas' costs, so they are never more than the lengths a search
 * may use, and the bound stays a lower bound; off-mesh links can be shorter than any path on the
 * mesh, so a search that may take one does not use landmarks. On a mesh with one-way steps the
 * distances are one way, from L: only d(L, goal) - d(L, r) holds (d(L, goal) <= d(L, r) + d(r,
 * goal)), and only ways into the goal's polygon that may be crossed inward bound d(L, goal) from
 * below; a vertex L does not reach keeps no distance to L (the other landmarks' stay).
 *
 * Landmarks are chosen far apart in the mesh's largest component: the first the vertex farthest
 * from a point of it, each next the vertex farthest from all chosen so far. */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "query_internal.h"

/* Whether the path may cross edge e either way (not a wall, not one-way). */
static bool both_ways(const nav_mesh *m, uint32_t e)
{
    uint32_t t = m->edge_twin[e];
    return t != NAV_MESH_NO_POLY && !(m->edge_flags[e] & NAV__EDGE_ONE_WAY) &&
           !(m->edge_flags[t] & NAV__EDGE_ONE_WAY);
}

/* Marks the pinch vertices: where the polygons round a vertex make more than one fan. A corner of
 * a polygon (the start of its edge e) joins the corner of the polygon across e and that across
 * the polygon's edge before e, which hold the same vertex (or, across a step, the same place),
 * where the path may cross that edge both ways: two corners joined only through a one-way step
 * are two fans, as a path round the vertex cannot come back up. */
static nav_status find_pinches(const nav_mesh *m, uint8_t *pinch)
{
    const nav_allocator *a = &m->allocator;
    uint32_t *parent = nav__calloc(a, m->edge_count ? m->edge_count : 1, sizeof *parent);
    uint32_t *fan = nav__calloc(a, m->vert_count ? m->vert_count : 1, sizeof *fan);
    if (!parent || !fan) {
        nav__free(a, parent);
        nav__free(a, fan);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    for (uint32_t e = 0; e < m->edge_count; e++) parent[e] = e;
    for (uint32_t p = 0; p < m->poly_count; p++) {
        uint32_t first = m->poly_first[p], last = m->poly_first[p + 1];
        for (uint32_t e = first; e < last; e++) {
            uint32_t prev = e == first ? last - 1 : e - 1;
            uint32_t t = m->edge_twin[e];
            if (both_ways(m, e)) {
                /* across e, the vertex starts the twin's next edge */
                uint32_t tp = m->edge_owner[t];
                uint32_t next = t + 1 < m->poly_first[tp + 1] ? t + 1 : m->poly_first[tp];
                nav__join(parent, e, next);
            }
            t = m->edge_twin[prev];
            if (both_ways(m, prev)) nav__join(parent, e, t); /* across prev, the twin starts there */
        }
    }
    for (uint32_t v = 0; v < m->vert_count; v++) fan[v] = NAV_MESH_NO_POLY;
    memset(pinch, 0, m->vert_count);
    for (uint32_t e = 0; e < m->edge_count; e++) {
        uint32_t v = m->edge_vert[e], r = nav__find_root(parent, e);
        if (fan[v] == NAV_MESH_NO_POLY)
            fan[v] = r;
        else if (fan[v] != r)
            pinch[v] = 1;
    }
    nav__free(a, parent);
    nav__free(a, fan);
    return NAV_SUCCESS;
}

/* The middle of polygon p (its vertices' mean: inside, as it is convex), as floats, as a query's
 * start is: the search's tests are then exact on grid meshes, as a query's. (From the mean in
 * doubles, say (48/7, 5/7), a ray through two grid vertices in a line was not quite straight, the
 * search lost the far one as the end of its interval and could not turn there: distances came out
 * up to 1% long, and a bound from them too high.) */
static void poly_middle(const nav_mesh *m, uint32_t p, double *x, double *z)
{
    double sx = 0, sz = 0;
    uint32_t n = m->poly_first[p + 1] - m->poly_first[p];
    for (uint32_t e = m->poly_first[p]; e < m->poly_first[p + 1]; e++) {
        sx += m->verts[m->edge_vert[e]].x;
        sz += m->verts[m->edge_vert[e]].z;
    }
    *x = sx / n;
    *z = sz / n;
    float fx = (float)*x, fz = (float)*z;
    if (nav__mesh_poly_contains_xz(m, p, fx, fz)) *x = fx, *z = fz;
}

/* A polygon that holds vertex v. */
static uint32_t vert_poly(const nav_mesh *m, uint32_t v)
{
    for (uint32_t e = 0; e < m->edge_count; e++)
        if (m->edge_vert[e] == v) return m->edge_owner[e];
    return NAV_MESH_NO_POLY;
}

nav_status nav_mesh_bake_landmarks(nav_mesh *mesh, uint32_t count, const nav_progress *progress)
{
    if (!mesh || count > NAV_MESH_MAX_LANDMARKS) return NAV_FAILURE | NAV_INVALID_PARAM;
    const nav_allocator *a = &mesh->allocator;
    nav__free(a, mesh->landmark_dist);
    mesh->landmark_dist = NULL;
    mesh->landmark_count = 0;
    mesh->landmark_slack = 0;
    if (count == 0 || mesh->poly_count == 0) return NAV_SUCCESS;

    nav_status s = NAV_SUCCESS;
    uint32_t V = mesh->vert_count;
    /* the search makes a node for each edge a root sees: about one an edge on the Moving AI maps
     * (at most 1.5); the pool doubles when it runs out, up to 64 an edge */
    uint64_t pool = 2 * (uint64_t)mesh->edge_count + 4096;
    nav_mesh_query *q = NULL;
    double *dist = nav__calloc(a, V, sizeof *dist);
    double *nearest = nav__calloc(a, V, sizeof *nearest); /* to the landmarks chosen so far */
    uint8_t *pinch = nav__calloc(a, V, 1);
    float *out = nav__calloc(a, (size_t)V * count, sizeof *out);
    uint32_t *size = nav__calloc(a, mesh->poly_count + 1, sizeof *size);
    if (!dist || !nearest || !pinch || !out || !size) {
        s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
        goto done;
    }
    s = find_pinches(mesh, pinch);
    if (nav_failed(s)) goto done;

    /* the largest component (polygons joined by edges; links do not count here) */
    uint32_t biggest = 0;
    for (uint32_t p = 0; p < mesh->poly_count; p++) {
        uint32_t c = mesh->poly_component[p];
        if (c <= mesh->poly_count && ++size[c] > size[biggest]) biggest = c;
    }
    uint32_t from = 0;
    while (mesh->poly_component[from] != biggest) from++;

    double x, z, longest = 0;
    poly_middle(mesh, from, &x, &z);
    for (uint32_t i = 0; i <= count; i++) {
        if (progress && progress->fn && !progress->fn("landmarks", i, count + 1, progress->user)) {
            s = NAV_FAILURE | NAV_WRONG_STATE;
            goto done;
        }
        for (;;) {
            if (!q) {
                nav_mesh_query_desc qd = {
                    .max_nodes = pool < UINT32_MAX / 4 ? (uint32_t)pool : UINT32_MAX / 4, .allocator = a};
                s = nav_mesh_query_create(mesh, &qd, &q);
                if (nav_failed(s)) goto done;
            }
            s = nav__optimal_distances(q, from, x, z, dist);
            if (!(s & NAV_OUT_OF_NODES) || pool >= 64 * (uint64_t)mesh->edge_count + 4096) break;
            nav_mesh_query_destroy(q);
            q = NULL;
            pool *= 2;
        }
        if (nav_failed(s)) goto done;
        if (i > 0) {
            mesh->landmark_poly[i - 1] = from;
            mesh->landmark_x[i - 1] = x;
            mesh->landmark_z[i - 1] = z;
            float *d = out + (i - 1);
            for (uint32_t v = 0; v < V; v++) {
                bool known = !pinch[v] && dist[v] < INFINITY;
                d[(size_t)v * count] = known ? (float)dist[v] : -1.0f;
            }
        }
        /* the next landmark: the vertex farthest from all so far (the first pass only measures) */
        uint32_t far = NAV_MESH_NO_POLY;
        double far_d = -1;
        for (uint32_t v = 0; v < V; v++) {
            if (pinch[v] || !(dist[v] < INFINITY)) {
                nearest[v] = -1;
                continue;
            }
            if (i <= 1 || dist[v] < nearest[v]) nearest[v] = dist[v];
            if (nearest[v] > far_d) {
                far_d = nearest[v];
                far = v;
            }
        }
        if (i == count) break;
        if (far == NAV_MESH_NO_POLY) goto done; /* no vertex to measure from: no landmarks (s: success) */
        from = vert_poly(mesh, far);
        poly_middle(mesh, from, &x, &z);
    }
    /* the slack is the chunk reader's, from the distances kept */
    for (size_t i = 0; i < (size_t)V * count; i++)
        if (out[i] > longest) longest = out[i];
    mesh->landmark_dist = out;
    mesh->landmark_count = count;
    /* floats round each distance by at most 2^-24 of it; a bound subtracts two of them */
    mesh->landmark_slack = 4 * longest * 0x1p-24 + 1e-9;
    out = NULL;
    if (progress && progress->fn) progress->fn("landmarks", count + 1, count + 1, progress->user);
done:
    nav_mesh_query_destroy(q);
    nav__free(a, dist);
    nav__free(a, nearest);
    nav__free(a, pinch);
    nav__free(a, out);
    nav__free(a, size);
    return s;
}

uint32_t nav_mesh_landmark_count(const nav_mesh *mesh)
{
    return mesh ? mesh->landmark_count : 0;
}
