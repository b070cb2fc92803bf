/* The mesh object: made from a builder's draft (twin edges, components, the spatial index), its
 * accessors, and a polygon's geometry (whether it holds a point, its point nearest to one, its floor
 * height); locating points on the mesh is locate.c. */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "log.h"
#include "mesh_internal.h"

static void free_arrays(nav_mesh *m)
{
    const nav_allocator *a = &m->allocator;
    nav__free(a, m->verts);
    nav__free(a, m->poly_first);
    nav__free(a, m->edge_vert);
    nav__free(a, m->edge_poly);
    nav__free(a, m->edge_twin);
    nav__free(a, m->edge_owner);
    nav__free(a, m->edge_flags);
    nav__free(a, m->poly_area);
    nav__free(a, m->poly_flags);
    nav__free(a, m->poly_component);
    nav__free(a, m->vert_flags);
    nav__free(a, m->bucket_first);
    nav__free(a, m->bucket_polys);
    nav__free(a, m->links);
    nav__free(a, m->poly_link_first);
    nav__free(a, m->poly_links);
    nav__free(a, m->landmark_dist);
    nav__mesh_free_regions(m);
    nav__free(a, m->detail_verts);
    nav__free(a, m->detail_tris);
    nav__free(a, m->poly_detail_first);
    nav__free(a, m->poly_flat_y);
}

void nav_mesh_destroy(nav_mesh *mesh)
{
    if (!mesh) return;
    nav_allocator a = mesh->allocator;
    free_arrays(mesh);
    nav__free(&a, mesh);
}

static bool same_xz(nav_vec3 a, nav_vec3 b)
{
    return a.x == b.x && a.z == b.z;
}

/* Edge f at vertex v, with a neighbour, is a step between heights: one-way either way, or the
 * neighbour holds v's point under another vertex. */
static bool edge_is_step(const nav_mesh *m, uint32_t f, uint32_t v)
{
    uint32_t n = m->edge_poly[f], t = m->edge_twin[f];
    if ((m->edge_flags[f] & NAV__EDGE_ONE_WAY) ||
        (t != NAV_MESH_NO_POLY && (m->edge_flags[t] & NAV__EDGE_ONE_WAY)))
        return true;
    for (uint32_t g = m->poly_first[n]; g < m->poly_first[n + 1]; g++)
        if (m->edge_vert[g] == v) return false;
    return true;
}

/* Corners: boundary vertices (an edge at them is a wall or one-way, or a neighbour holds them under
 * another vertex: a step between heights) whose polygons' angles add up to more than a half turn,
 * and every vertex on a step: the free space round a point of a step is split among the vertices
 * of its levels, so no one of them sees its whole angle (a path from above into a basin may turn
 * round a wall at the basin's edge, where each level's vertex alone spans no more than a half
 * turn). */
static nav_status find_corners(nav_mesh *m)
{
    double *angle = nav__calloc(&m->allocator, m->vert_count ? m->vert_count : 1, sizeof *angle);
    if (!angle) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (uint32_t p = 0; p < m->poly_count; p++) {
        uint32_t first = m->poly_first[p], last = m->poly_first[p + 1];
        for (uint32_t e = first; e < last; e++) {
            uint32_t prev = e == first ? last - 1 : e - 1, next = e + 1 < last ? e + 1 : first;
            uint32_t v = m->edge_vert[e];
            nav_vec3 a = m->verts[m->edge_vert[prev]], o = m->verts[v], b = m->verts[m->edge_vert[next]];
            double ax = (double)a.x - o.x, az = (double)a.z - o.z, bx = (double)b.x - o.x,
                   bz = (double)b.z - o.z;
            angle[v] += atan2(fabs(ax * bz - az * bx), ax * bx + az * bz);
            /* the edges at v: the one leaving it (e) and the one arriving (prev) */
            uint32_t at[2] = {e, prev};
            for (int i = 0; i < 2; i++) {
                uint32_t f = at[i], n = m->edge_poly[f];
                /* scratch: on the boundary (0x80), on a step too (0x40) */
                if (n == NAV_MESH_NO_POLY)
                    m->vert_flags[v] |= 0x80u;
                else if (edge_is_step(m, f, v))
                    m->vert_flags[v] |= 0xc0u;
            }
        }
    }
    for (uint32_t v = 0; v < m->vert_count; v++) {
        bool boundary = (m->vert_flags[v] & 0x80u) != 0, step = (m->vert_flags[v] & 0x40u) != 0;
        m->vert_flags[v] =
            step || (boundary && angle[v] > 3.14159265358979323846 * (1 + 1e-9)) ? NAV__VERT_CORNER : 0;
    }
    nav__free(&m->allocator, angle);
    return NAV_SUCCESS;
}

/* Components over edges and links taken either way (union-find), numbered 1.. in the order of
 * their lowest polygon. */
static nav_status label_components(nav_mesh *m)
{
    uint32_t *parent = nav__calloc(&m->allocator, m->poly_count ? m->poly_count : 1, sizeof *parent);
    if (!parent) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (uint32_t p = 0; p < m->poly_count; p++) parent[p] = p;
    for (uint32_t e = 0; e < m->edge_count; e++)
        if (m->edge_poly[e] != NAV_MESH_NO_POLY) nav__join(parent, m->edge_owner[e], m->edge_poly[e]);
    for (uint32_t l = 0; l < m->link_count; l++)
        nav__join(parent, m->links[l].start_poly, m->links[l].end_poly);
    uint32_t label = 0;
    for (uint32_t p = 0; p < m->poly_count; p++) {
        uint32_t r = nav__find_root(parent, p);
        m->poly_component[p] = r == p ? ++label : m->poly_component[r];
    }
    nav__free(&m->allocator, parent);
    return NAV_SUCCESS;
}

static void poly_bounds(const nav_mesh *m, uint32_t p, float *min_x, float *min_z, float *max_x, float *max_z)
{
    *min_x = *min_z = INFINITY;
    *max_x = *max_z = -INFINITY;
    for (uint32_t e = m->poly_first[p]; e < m->poly_first[p + 1]; e++) {
        nav_vec3 v = m->verts[m->edge_vert[e]];
        *min_x = fminf(*min_x, v.x);
        *max_x = fmaxf(*max_x, v.x);
        *min_z = fminf(*min_z, v.z);
        *max_z = fmaxf(*max_z, v.z);
    }
}

/* The bucket grid: about one polygon a bucket, at most 2^22 buckets. */
static nav_status build_index(nav_mesh *m)
{
    for (int i = 0; i < 3; i++) {
        m->bounds_min[i] = INFINITY;
        m->bounds_max[i] = -INFINITY;
    }
    for (uint32_t v = 0; v < m->vert_count; v++) {
        const float c[3] = {m->verts[v].x, m->verts[v].y, m->verts[v].z};
        for (int i = 0; i < 3; i++) {
            m->bounds_min[i] = fminf(m->bounds_min[i], c[i]);
            m->bounds_max[i] = fmaxf(m->bounds_max[i], c[i]);
        }
    }
    if (m->vert_count == 0)
        for (int i = 0; i < 3; i++) m->bounds_min[i] = m->bounds_max[i] = 0;
    double w = (double)m->bounds_max[0] - m->bounds_min[0], h = (double)m->bounds_max[2] - m->bounds_min[2];
    double target = m->poly_count < 4 ? 4 : (m->poly_count > (1u << 22) ? (1u << 22) : m->poly_count);
    double size = sqrt(w * h / target);
    if (!(size > 0)) size = w > h ? w : h;
    if (!(size > 0)) size = 1;
    m->bucket_size = (float)size;
    while ((double)m->bucket_size * 4096.0 < (w > h ? w : h)) m->bucket_size *= 2; /* at most 4096 a side */
    m->bucket_w = (uint32_t)floor(w / m->bucket_size) + 1;
    m->bucket_h = (uint32_t)floor(h / m->bucket_size) + 1;
    uint32_t buckets = m->bucket_w * m->bucket_h;
    m->bucket_first = nav__calloc(&m->allocator, (size_t)buckets + 1, sizeof *m->bucket_first);
    if (!m->bucket_first) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    /* two passes: count, then fill */
    uint64_t total = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t p = 0; p < m->poly_count; p++) {
            float x0, z0, x1, z1;
            poly_bounds(m, p, &x0, &z0, &x1, &z1);
            uint32_t bx0 = nav__mesh_bucket_coord(x0, m->bounds_min[0], m->bucket_size, m->bucket_w);
            uint32_t bx1 = nav__mesh_bucket_coord(x1, m->bounds_min[0], m->bucket_size, m->bucket_w);
            uint32_t bz0 = nav__mesh_bucket_coord(z0, m->bounds_min[2], m->bucket_size, m->bucket_h);
            uint32_t bz1 = nav__mesh_bucket_coord(z1, m->bounds_min[2], m->bucket_size, m->bucket_h);
            for (uint32_t bz = bz0; bz <= bz1; bz++)
                for (uint32_t bx = bx0; bx <= bx1; bx++) {
                    uint32_t b = bz * m->bucket_w + bx;
                    if (pass == 0) {
                        m->bucket_first[b + 1]++;
                        total++;
                    } else {
                        m->bucket_polys[m->bucket_first[b]++] = p;
                    }
                }
        }
        if (pass == 0) {
            if (total > UINT32_MAX) return NAV_FAILURE | NAV_TOO_LARGE;
            for (uint32_t b = 0; b < buckets; b++) m->bucket_first[b + 1] += m->bucket_first[b];
            m->bucket_poly_count = (uint32_t)total;
            m->bucket_polys = nav__calloc(&m->allocator, total ? (size_t)total : 1, sizeof *m->bucket_polys);
            if (!m->bucket_polys) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
        } else {
            /* the fill moved each start to the next bucket's: shift back */
            for (uint32_t b = buckets; b > 0; b--) m->bucket_first[b] = m->bucket_first[b - 1];
            m->bucket_first[0] = 0;
        }
    }
    return NAV_SUCCESS;
}

/* Polygon p's one height if its floor is flat (the points of its height triangles, or else its
 * corners, all at one height), else NAN. */
static float flat_height(const nav_mesh *m, uint32_t p)
{
    float y = m->verts[m->edge_vert[m->poly_first[p]]].y; /* (the triangles' height if none has area) */
    if (m->poly_detail_first && m->poly_detail_first[p] < m->poly_detail_first[p + 1]) {
        for (size_t i = 3 * (size_t)m->poly_detail_first[p]; i < 3 * (size_t)m->poly_detail_first[p + 1]; i++)
            if (m->detail_verts[m->detail_tris[i]].y != y) return NAN;
        return y;
    }
    for (uint32_t e = m->poly_first[p]; e < m->poly_first[p + 1]; e++)
        if (m->verts[m->edge_vert[e]].y != y) return NAN;
    return y;
}

nav_status nav__mesh_finish(const nav__mesh_draft *d, const nav_allocator *allocator, const nav_log *log,
                            nav_mesh **out)
{
    *out = NULL;
    nav_allocator a;
    nav__allocator_resolve(&a, allocator);
    nav_mesh *m = nav__calloc(&a, 1, sizeof *m);
    if (!m) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    m->allocator = a;
    if (log) m->log = *log;
    m->vert_count = d->vert_count;
    m->poly_count = d->poly_count;
    m->edge_count = d->poly_first[d->poly_count];
    m->source_fingerprint = d->source_fingerprint;
    m->cell_size = d->cell_size;
    memcpy(m->area_cost, d->area_cost, sizeof m->area_cost);
    size_t nv = m->vert_count ? m->vert_count : 1, np = m->poly_count ? m->poly_count : 1;
    size_t ne = m->edge_count ? m->edge_count : 1;
    m->verts = nav__calloc(&a, nv, sizeof *m->verts);
    m->poly_first = nav__calloc(&a, np + 1, sizeof *m->poly_first);
    m->edge_vert = nav__calloc(&a, ne, sizeof *m->edge_vert);
    m->edge_poly = nav__calloc(&a, ne, sizeof *m->edge_poly);
    m->edge_twin = nav__calloc(&a, ne, sizeof *m->edge_twin);
    m->edge_owner = nav__calloc(&a, ne, sizeof *m->edge_owner);
    m->edge_flags = nav__calloc(&a, ne, sizeof *m->edge_flags);
    m->poly_area = nav__calloc(&a, np, sizeof *m->poly_area);
    m->poly_flags = nav__calloc(&a, np, sizeof *m->poly_flags);
    m->poly_component = nav__calloc(&a, np, sizeof *m->poly_component);
    m->vert_flags = nav__calloc(&a, nv, sizeof *m->vert_flags);
    nav_status s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (!m->verts || !m->poly_first || !m->edge_vert || !m->edge_poly || !m->edge_twin || !m->edge_owner ||
        !m->edge_flags || !m->poly_area || !m->poly_flags || !m->poly_component || !m->vert_flags)
        goto fail;
    if (m->vert_count) memcpy(m->verts, d->verts, m->vert_count * sizeof *m->verts);
    memcpy(m->poly_first, d->poly_first, (m->poly_count + 1) * sizeof *m->poly_first);
    if (m->edge_count) {
        memcpy(m->edge_vert, d->edge_vert, m->edge_count * sizeof *m->edge_vert);
        memcpy(m->edge_poly, d->edge_poly, m->edge_count * sizeof *m->edge_poly);
        memcpy(m->edge_flags, d->edge_flags, m->edge_count * sizeof *m->edge_flags);
    }
    for (uint32_t e = 0; e < m->edge_count; e++) m->one_way |= (m->edge_flags[e] & NAV__EDGE_ONE_WAY) != 0;
    if (d->poly_detail_first) {
        m->detail_vert_count = d->detail_vert_count;
        m->detail_tri_count = d->detail_tri_count;
        m->detail_verts =
            nav__calloc(&a, d->detail_vert_count ? d->detail_vert_count : 1, sizeof *m->detail_verts);
        m->detail_tris = nav__calloc(&a, d->detail_tri_count ? 3 * (size_t)d->detail_tri_count : 1,
                                     sizeof *m->detail_tris);
        m->poly_detail_first = nav__calloc(&a, np + 1, sizeof *m->poly_detail_first);
        if (!m->detail_verts || !m->detail_tris || !m->poly_detail_first) goto fail;
        if (d->detail_vert_count)
            memcpy(m->detail_verts, d->detail_verts, d->detail_vert_count * sizeof *m->detail_verts);
        if (d->detail_tri_count)
            memcpy(m->detail_tris, d->detail_tris, 3 * (size_t)d->detail_tri_count * sizeof *m->detail_tris);
        memcpy(m->poly_detail_first, d->poly_detail_first,
               ((size_t)m->poly_count + 1) * sizeof *m->poly_detail_first);
    }
    if (m->poly_count) {
        memcpy(m->poly_area, d->poly_area, m->poly_count * sizeof *m->poly_area);
        memcpy(m->poly_flags, d->poly_flags, m->poly_count * sizeof *m->poly_flags);
    }
    /* twins: the neighbour's edge with the same two (x, z) end points, reversed */
    for (uint32_t p = 0; p < m->poly_count; p++) {
        uint32_t first = m->poly_first[p], last = m->poly_first[p + 1];
        for (uint32_t e = first; e < last; e++) {
            m->edge_owner[e] = p;
            m->edge_twin[e] = NAV_MESH_NO_POLY;
            uint32_t n = m->edge_poly[e];
            if (n == NAV_MESH_NO_POLY) continue;
            nav_vec3 a0 = m->verts[m->edge_vert[e]],
                     a1 = m->verts[m->edge_vert[e + 1 < last ? e + 1 : first]];
            for (uint32_t f = m->poly_first[n]; f < m->poly_first[n + 1]; f++) {
                uint32_t g = f + 1 < m->poly_first[n + 1] ? f + 1 : m->poly_first[n];
                if (m->edge_poly[f] == p && same_xz(m->verts[m->edge_vert[f]], a1) &&
                    same_xz(m->verts[m->edge_vert[g]], a0)) {
                    m->edge_twin[e] = f;
                    break;
                }
            }
            if (m->edge_twin[e] == NAV_MESH_NO_POLY) {
                nav__logf(&m->log, NAV_LOG_ERROR, "mesh: edge %u of polygon %u has no twin in polygon %u",
                          e - first, p, n);
                s = NAV_FAILURE | NAV_CORRUPT_DATA;
                goto fail;
            }
        }
    }
    m->poly_flat_y = nav__calloc(&a, np, sizeof *m->poly_flat_y);
    if (!m->poly_flat_y) {
        s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
        goto fail;
    }
    for (uint32_t p = 0; p < m->poly_count; p++) m->poly_flat_y[p] = flat_height(m, p);
    s = label_components(m);
    if (nav_succeeded(s)) s = nav__mesh_label_regions(m);
    if (nav_succeeded(s)) s = find_corners(m);
    if (nav_succeeded(s)) s = build_index(m);
    if (nav_failed(s)) goto fail;
    *out = m;
    return NAV_SUCCESS;
fail:
    nav_mesh_destroy(m);
    return s;
}

static bool finite3(nav_vec3 v)
{
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

nav_status nav__mesh_attach_links(nav_mesh *m, const nav__mesh_link *links, uint32_t count)
{
    if (count == 0) return NAV_SUCCESS;
    for (uint32_t l = 0; l < count; l++) {
        const nav__mesh_link *k = &links[l];
        const char *why = NULL;
        if (k->start_poly >= m->poly_count || k->end_poly >= m->poly_count)
            why = "a polygon out of range";
        else if (!finite3(k->start) || !finite3(k->end))
            why = "an end point that is not finite";
        else if (!nav__mesh_poly_contains_xz(m, k->start_poly, k->start.x, k->start.z) ||
                 !nav__mesh_poly_contains_xz(m, k->end_poly, k->end.x, k->end.z))
            why = "an end point outside its polygon";
        else if (!(k->cost >= 0 && k->cost < INFINITY))
            why = "a cost that is not finite and >= 0";
        else if (k->bidirectional > 1)
            why = "a direction that is neither one-way nor two-way";
        if (why) {
            nav__logf(&m->log, NAV_LOG_ERROR, "mesh: off-mesh link %u has %s", l, why);
            return NAV_FAILURE | NAV_CORRUPT_DATA;
        }
    }
    m->links = nav__calloc(&m->allocator, count, sizeof *m->links);
    m->poly_link_first = nav__calloc(&m->allocator, (size_t)m->poly_count + 1, sizeof *m->poly_link_first);
    m->poly_links = nav__calloc(&m->allocator, 2 * (size_t)count, sizeof *m->poly_links);
    if (!m->links || !m->poly_link_first || !m->poly_links) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    memcpy(m->links, links, count * sizeof *links);
    m->link_count = count;
    /* ways out of each polygon: count, prefix sums, fill (in link order, so deterministic) */
    for (uint32_t l = 0; l < count; l++) {
        m->poly_link_first[links[l].start_poly + 1]++;
        if (links[l].bidirectional) m->poly_link_first[links[l].end_poly + 1]++;
    }
    for (uint32_t p = 0; p < m->poly_count; p++) m->poly_link_first[p + 1] += m->poly_link_first[p];
    for (uint32_t l = 0; l < count; l++) {
        m->poly_links[m->poly_link_first[links[l].start_poly]++] = 2 * l;
        if (links[l].bidirectional) m->poly_links[m->poly_link_first[links[l].end_poly]++] = 2 * l + 1;
    }
    for (uint32_t p = m->poly_count; p > 0; p--) m->poly_link_first[p] = m->poly_link_first[p - 1];
    m->poly_link_first[0] = 0;
    nav_status s = label_components(m);
    return nav_failed(s) ? s : nav__mesh_label_regions(m);
}

/* A point of polygon p at (x, z) in floats that the polygon holds exactly: the point itself, or
 * moved a little towards the polygon's centre until it is in (float rounding of a point on an
 * edge may put it a hair outside). */
static bool snap_inside(const nav_mesh *m, uint32_t p, double x, double z, nav_vec3 *out)
{
    double cx = 0, cz = 0;
    uint32_t first = m->poly_first[p], n = m->poly_first[p + 1] - first;
    for (uint32_t i = 0; i < n; i++) {
        cx += m->verts[m->edge_vert[first + i]].x;
        cz += m->verts[m->edge_vert[first + i]].z;
    }
    cx /= n;
    cz /= n;
    for (double t = 0; t <= 1; t = t == 0 ? 1e-7 : t * 4) {
        float fx = (float)(x + (cx - x) * t), fz = (float)(z + (cz - z) * t);
        if (nav__mesh_poly_contains_xz(m, p, fx, fz)) {
            *out = nav_vec3_make(fx, nav__mesh_poly_height(m, p, fx, fz), fz);
            return true;
        }
    }
    return false;
}

nav_status nav__mesh_add_links(nav_mesh *m, const nav_mesh_link_desc *descs, uint32_t count, nav_vec3 extents)
{
    if (count == 0) return NAV_SUCCESS;
    if (!descs) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav__mesh_link *links = nav__calloc(&m->allocator, count, sizeof *links);
    if (!links) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    nav_status s = NAV_SUCCESS;
    for (uint32_t l = 0; l < count && nav_succeeded(s); l++) {
        const nav_mesh_link_desc *k = &descs[l];
        nav__mesh_link *o = &links[l];
        nav_vec3 at[2] = {{0, 0, 0}, {0, 0, 0}};
        uint32_t poly[2] = {0, 0};
        for (int i = 0; i < 2 && nav_succeeded(s); i++) {
            nav_vec3 near;
            s = nav_mesh_locate(m, i ? k->end : k->start, extents, &poly[i], &near);
            if (nav_succeeded(s) && !snap_inside(m, poly[i], near.x, near.z, &at[i]))
                s = NAV_FAILURE | NAV_UNREACHABLE;
            if (nav_failed(s)) {
                nav_vec3 v = i ? k->end : k->start;
                nav__logf(&m->log, NAV_LOG_ERROR,
                          "mesh: the %s of off-mesh link %u (%g, %g, %g) is off the mesh",
                          i ? "end" : "start", l, (double)v.x, (double)v.y, (double)v.z);
                s = NAV_FAILURE | NAV_INVALID_PARAM;
            }
        }
        if (nav_failed(s)) break;
        if (!(k->cost >= 0 && k->cost < INFINITY)) {
            nav__logf(&m->log, NAV_LOG_ERROR, "mesh: off-mesh link %u has a cost that is not finite and >= 0",
                      l);
            s = NAV_FAILURE | NAV_INVALID_PARAM;
            break;
        }
        double dx = (double)at[1].x - at[0].x, dy = (double)at[1].y - at[0].y, dz = (double)at[1].z - at[0].z;
        *o = (nav__mesh_link){at[0],
                              at[1],
                              poly[0],
                              poly[1],
                              k->cost > 0 ? k->cost : sqrt(dx * dx + dy * dy + dz * dz),
                              k->user_id,
                              k->flags ? k->flags : NAV_POLY_FLAG_WALK,
                              k->bidirectional ? 1 : 0};
    }
    if (nav_succeeded(s)) s = nav__mesh_attach_links(m, links, count);
    nav__free(&m->allocator, links);
    return s;
}

uint32_t nav_mesh_link_count(const nav_mesh *mesh)
{
    return mesh ? mesh->link_count : 0;
}

bool nav_mesh_link(const nav_mesh *mesh, uint32_t link, nav_mesh_link_info *info)
{
    if (!mesh || !info || link >= mesh->link_count) return false;
    const nav__mesh_link *k = &mesh->links[link];
    *info = (nav_mesh_link_info){k->start, k->end,   k->start_poly,         k->end_poly,
                                 k->cost,  k->flags, k->bidirectional != 0, k->user_id};
    return true;
}

/* ---- accessors ------------------------------------------------------------------------------- */

uint32_t nav_mesh_poly_count(const nav_mesh *mesh)
{
    return mesh ? mesh->poly_count : 0;
}

uint32_t nav_mesh_vert_count(const nav_mesh *mesh)
{
    return mesh ? mesh->vert_count : 0;
}

size_t nav_mesh_memory_bytes(const nav_mesh *m)
{
    if (!m) return 0;
    return sizeof *m + m->vert_count * sizeof *m->verts + (m->poly_count + 1) * sizeof *m->poly_first +
           m->edge_count * (4 * sizeof(uint32_t) + sizeof(uint8_t)) +
           m->poly_count * (sizeof(uint8_t) + sizeof(uint16_t) + sizeof(uint32_t)) + m->vert_count +
           ((size_t)m->bucket_w * m->bucket_h + 1) * sizeof(uint32_t) +
           m->bucket_poly_count * sizeof(uint32_t) +
           (m->links ? m->link_count * sizeof *m->links + (m->poly_count + 1) * sizeof(uint32_t) +
                           (2 * (size_t)m->link_count) * sizeof(uint32_t)
                     : 0) +
           m->edge_count * sizeof *m->edge_region + m->poly_count * sizeof *m->poly_region +
           2 * (size_t)m->region_count * sizeof *m->region_range +
           (size_t)m->vert_count * m->landmark_count * sizeof *m->landmark_dist +
           (size_t)m->poly_count * sizeof *m->poly_flat_y +
           (m->poly_detail_first
                ? (m->poly_count + 1) * sizeof(uint32_t) + m->detail_vert_count * sizeof(nav_vec3) +
                      3 * (size_t)m->detail_tri_count * sizeof(uint32_t)
                : 0);
}

uint64_t nav_mesh_source_fingerprint(const nav_mesh *mesh)
{
    return mesh ? mesh->source_fingerprint : 0;
}

nav_vec3 nav_mesh_vert(const nav_mesh *mesh, uint32_t v)
{
    if (!mesh || v >= mesh->vert_count) return nav_vec3_make(NAN, NAN, NAN);
    return mesh->verts[v];
}

bool nav_mesh_poly(const nav_mesh *mesh, uint32_t poly, nav_mesh_poly_info *info)
{
    if (!mesh || !info || poly >= mesh->poly_count) return false;
    uint32_t first = mesh->poly_first[poly];
    info->vert_count = mesh->poly_first[poly + 1] - first;
    info->verts = mesh->edge_vert + first;
    info->neighbours = mesh->edge_poly + first;
    info->area = mesh->poly_area[poly];
    info->flags = mesh->poly_flags[poly];
    info->component = mesh->poly_component[poly];
    return true;
}

bool nav_mesh_edge_passable(const nav_mesh *mesh, uint32_t poly, uint32_t edge)
{
    if (!mesh || poly >= mesh->poly_count || edge >= mesh->poly_first[poly + 1] - mesh->poly_first[poly])
        return false;
    uint32_t e = mesh->poly_first[poly] + edge;
    return mesh->edge_poly[e] != NAV_MESH_NO_POLY && !(mesh->edge_flags[e] & NAV__EDGE_ONE_WAY);
}

double nav_mesh_area_cost(const nav_mesh *mesh, uint8_t area)
{
    return mesh ? mesh->area_cost[area] : NAV_COST_BLOCKED;
}

/* ---- geometry of one polygon ----------------------------------------------------------------- */

bool nav__mesh_poly_contains_xz(const nav_mesh *m, uint32_t p, double x, double z)
{
    uint32_t first = m->poly_first[p], last = m->poly_first[p + 1];
    if (first == last) return true;
    nav_vec3 b = m->verts[m->edge_vert[first]], a;
    for (uint32_t e = last; e-- > first;) { /* (each edge from a to b, last to first: a vertex read once) */
        a = m->verts[m->edge_vert[e]];
        /* inside lies where the cross product of the edge and the point is not negative */
        double cross = ((double)b.x - a.x) * (z - a.z) - ((double)b.z - a.z) * (x - a.x);
        if (cross < 0) return false;
        b = a;
    }
    return true;
}

bool nav__mesh_poly_contains2_xz(const nav_mesh *m, uint32_t p, double x, double z, double x2, double z2,
                                 bool *second)
{
    uint32_t first = m->poly_first[p], last = m->poly_first[p + 1];
    bool in2 = true;
    if (first < last) {
        nav_vec3 b = m->verts[m->edge_vert[first]], a;
        for (uint32_t e = last; e-- > first;) { /* (as nav__mesh_poly_contains_xz's, both at once) */
            a = m->verts[m->edge_vert[e]];
            double ex = (double)b.x - a.x, ez = (double)b.z - a.z;
            if (ex * (z - a.z) - ez * (x - a.x) < 0) return false;
            in2 &= !(ex * (z2 - a.z) - ez * (x2 - a.x) < 0);
            b = a;
        }
    }
    *second = in2;
    return true;
}

void nav__mesh_poly_closest_xz(const nav_mesh *m, uint32_t p, double x, double z, double *cx, double *cz)
{
    if (nav__mesh_poly_contains_xz(m, p, x, z)) {
        *cx = x;
        *cz = z;
        return;
    }
    uint32_t first = m->poly_first[p], last = m->poly_first[p + 1];
    double best = INFINITY;
    for (uint32_t e = first; e < last; e++) {
        nav_vec3 a = m->verts[m->edge_vert[e]], b = m->verts[m->edge_vert[e + 1 < last ? e + 1 : first]];
        double ex = (double)b.x - a.x, ez = (double)b.z - a.z, len2 = ex * ex + ez * ez;
        double t = len2 > 0 ? ((x - a.x) * ex + (z - a.z) * ez) / len2 : 0;
        t = t < 0 ? 0 : (t > 1 ? 1 : t);
        double px = a.x + ex * t, pz = a.z + ez * t, d = (px - x) * (px - x) + (pz - z) * (pz - z);
        if (d < best) {
            best = d;
            *cx = px;
            *cz = pz;
        }
    }
}

/* The height at (x, z) of polygon p's height triangles: the one holding the point, or the one it
 * lies least outside. */
static float detail_height(const nav_mesh *m, uint32_t p, double x, double z)
{
    double best_out = INFINITY, best = m->verts[m->edge_vert[m->poly_first[p]]].y;
    for (uint32_t t = m->poly_detail_first[p]; t < m->poly_detail_first[p + 1]; t++) {
        const uint32_t *v = m->detail_tris + 3 * (size_t)t;
        nav_vec3 a = m->detail_verts[v[0]], b = m->detail_verts[v[1]], c = m->detail_verts[v[2]];
        double bx = (double)b.x - a.x, bz = (double)b.z - a.z, cx = (double)c.x - a.x, cz = (double)c.z - a.z;
        double det = bx * cz - bz * cx;
        if (det == 0) continue;
        double px = x - a.x, pz = z - a.z;
        double u = (px * cz - pz * cx) / det, w = (bx * pz - bz * px) / det;
        double out = -fmin(fmin(u, w), 1 - u - w);
        if (out < best_out) {
            best_out = out;
            /* clamped into the triangle: a point just outside takes its edge's height */
            if (out > 0) {
                u = fmax(u, 0), w = fmax(w, 0);
                if (u + w > 1) u /= u + w, w = 1 - u;
            }
            best = a.y + u * ((double)b.y - a.y) + w * ((double)c.y - a.y);
            if (out <= 1e-9) break;
        }
    }
    return (float)best;
}

float nav__mesh_poly_height(const nav_mesh *m, uint32_t p, double x, double z)
{
    if (!isnan(m->poly_flat_y[p])) return m->poly_flat_y[p]; /* (what the triangles give: their one height) */
    if (m->poly_detail_first && m->poly_detail_first[p] < m->poly_detail_first[p + 1])
        return detail_height(m, p, x, z);
    /* barycentric in the fan triangle (0, i, i + 1) holding the point; flat polygons give their y */
    uint32_t first = m->poly_first[p], n = m->poly_first[p + 1] - first;
    nav_vec3 a = m->verts[m->edge_vert[first]];
    for (uint32_t i = 1; i + 1 < n; i++) {
        nav_vec3 b = m->verts[m->edge_vert[first + i]], c = m->verts[m->edge_vert[first + i + 1]];
        double det = ((double)b.x - a.x) * ((double)c.z - a.z) - ((double)b.z - a.z) * ((double)c.x - a.x);
        if (det == 0) continue;
        double u = ((x - a.x) * ((double)c.z - a.z) - (z - a.z) * ((double)c.x - a.x)) / det;
        double v = (((double)b.x - a.x) * (z - a.z) - ((double)b.z - a.z) * (x - a.x)) / det;
        if ((u >= -1e-9 && v >= -1e-9 && u + v <= 1 + 1e-9) || i + 2 == n)
            return (float)(a.y + u * ((double)b.y - a.y) + v * ((double)c.y - a.y));
    }
    return a.y;
}
