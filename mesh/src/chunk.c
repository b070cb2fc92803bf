/* The MESH chunk of a .nav file: a navigation mesh as flat arrays.
 *
 * Layout (little-endian, version NAV_MESH_CHUNK_VERSION):
 *   u64 source grid fingerprint (0: none)
 *   f32 cell size
 *   u32 vertices, polygons, edges, links
 *   f32 x, y, z [vertices]
 *   u32 poly_first[polygons + 1]           polygon p owns edges poly_first[p] .. poly_first[p + 1] - 1
 *   u32 edge_vert[edges]                   the vertex each edge starts at
 *   u32 edge_poly[edges]                   the polygon across it, or 0xffffffff
 *   u8 edge_flags[edges]                   bit 0: that polygon may not be entered through it
 *   zero padding to 4
 *   u8 poly_area[polygons], zero padding to 2, u16 poly_flags[polygons], zero padding to 8
 *   f64 area_cost[256]
 *   per link: f32 start x, y, z, end x, y, z; u32 start polygon, end polygon; f64 cost;
 *             u32 user id; u16 flags; u8 two-way (0 or 1); u8 0
 *   u32 landmarks (0..NAV_MESH_MAX_LANDMARKS), u32 0
 *   per landmark: u32 polygon, u32 0, f64 x, z (a point of that polygon)
 *   f32 distance[vertices * landmarks]     vertex-major: landmark l's distance to vertex v at
 *                                          v * landmarks + l, or -1 where unknown
 *   u32 height points, height triangles    (0 and 0 but for a mesh built from level geometry)
 *   when there are triangles: u32 first[polygons + 1] (polygon p's triangles first[p] ..
 *   first[p + 1] - 1), f32 x, y, z [points], u32 a, b, c [triangles] (points)
 * What can be derived is not stored: twin edges, edge owners, components, corners, the index.
 *
 * Nothing in the file is trusted: every count against the bytes left before anything is
 * allocated, every index, every coordinate finite and within NAV__MESH_MAX_COORD, every polygon of
 * 3..NAV_MESH_MAX_POLY_VERTS vertices, convex, wound clockwise (x right, z down) exactly once
 * around and of positive area, no edge of zero length, neighbours symmetric (checked as the twins
 * are found), flags and padding, area costs valid and finite for the areas in use, links inside
 * their polygons, landmark distances -1 or finite and >= 0 (a vertex's all -1 or none), a landmark's
 * distance to each vertex of
 * its own polygon the straight line, and the two ends of every edge no further apart in distance
 * than in length (which bounds any distance by a walk along edges; a chunk can still hold
 * distances that are wrong within that, which make optimal paths longer, never a read out of
 * bounds). */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "log.h"
#include "mesh_internal.h"
#include "nav_file.h"
#include "nav/geometry.h"

/* Coordinates beyond this are refused: far past any level, and squares of differences stay exact
 * enough in doubles for the queries' geometry. */
#define NAV__MESH_MAX_COORD 1e9

enum { LINK_BYTES = 6 * 4 + 2 * 4 + 8 + 4 + 2 + 2 };

nav_status nav_mesh_write_chunk(const nav_mesh *m, nav_writer *w)
{
    if (!m || !w) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_writer_put_u64(w, m->source_fingerprint);
    nav_writer_put_f32(w, m->cell_size);
    nav_writer_put_u32(w, m->vert_count);
    nav_writer_put_u32(w, m->poly_count);
    nav_writer_put_u32(w, m->edge_count);
    nav_writer_put_u32(w, m->link_count);
    for (uint32_t v = 0; v < m->vert_count; v++) {
        nav_writer_put_f32(w, m->verts[v].x);
        nav_writer_put_f32(w, m->verts[v].y);
        nav_writer_put_f32(w, m->verts[v].z);
    }
    for (uint32_t p = 0; p <= m->poly_count; p++) nav_writer_put_u32(w, m->poly_first[p]);
    for (uint32_t e = 0; e < m->edge_count; e++) nav_writer_put_u32(w, m->edge_vert[e]);
    for (uint32_t e = 0; e < m->edge_count; e++) nav_writer_put_u32(w, m->edge_poly[e]);
    nav_writer_put_bytes(w, m->edge_flags, m->edge_count);
    nav_writer_align(w, 4);
    nav_writer_put_bytes(w, m->poly_area, m->poly_count);
    nav_writer_align(w, 2);
    for (uint32_t p = 0; p < m->poly_count; p++) nav_writer_put_u16(w, m->poly_flags[p]);
    nav_writer_align(w, 8);
    for (int t = 0; t < 256; t++) nav_writer_put_f64(w, m->area_cost[t]);
    for (uint32_t l = 0; l < m->link_count; l++) {
        const nav__mesh_link *k = &m->links[l];
        nav_writer_put_f32(w, k->start.x);
        nav_writer_put_f32(w, k->start.y);
        nav_writer_put_f32(w, k->start.z);
        nav_writer_put_f32(w, k->end.x);
        nav_writer_put_f32(w, k->end.y);
        nav_writer_put_f32(w, k->end.z);
        nav_writer_put_u32(w, k->start_poly);
        nav_writer_put_u32(w, k->end_poly);
        nav_writer_put_f64(w, k->cost);
        nav_writer_put_u32(w, k->user_id);
        nav_writer_put_u16(w, k->flags);
        nav_writer_put_u8(w, k->bidirectional);
        nav_writer_put_u8(w, 0);
    }
    nav_writer_put_u32(w, m->landmark_count);
    nav_writer_put_u32(w, 0);
    for (uint32_t l = 0; l < m->landmark_count; l++) {
        nav_writer_put_u32(w, m->landmark_poly[l]);
        nav_writer_put_u32(w, 0);
        nav_writer_put_f64(w, m->landmark_x[l]);
        nav_writer_put_f64(w, m->landmark_z[l]);
    }
    for (size_t i = 0; i < (size_t)m->vert_count * m->landmark_count; i++)
        nav_writer_put_f32(w, m->landmark_dist[i]);
    uint32_t tris = m->poly_detail_first ? m->detail_tri_count : 0;
    nav_writer_put_u32(w, tris ? m->detail_vert_count : 0);
    nav_writer_put_u32(w, tris);
    if (tris) {
        for (uint32_t p = 0; p <= m->poly_count; p++) nav_writer_put_u32(w, m->poly_detail_first[p]);
        for (uint32_t v = 0; v < m->detail_vert_count; v++) {
            nav_writer_put_f32(w, m->detail_verts[v].x);
            nav_writer_put_f32(w, m->detail_verts[v].y);
            nav_writer_put_f32(w, m->detail_verts[v].z);
        }
        for (size_t i = 0; i < 3 * (size_t)tris; i++) nav_writer_put_u32(w, m->detail_tris[i]);
    }
    return w->status;
}

/* ---- reading ---------------------------------------------------------------------------------- */

typedef struct chunk_reader {
    nav_reader r;
    const nav_log *log;
    nav_allocator allocator;
} chunk_reader;

static nav_status corrupt(chunk_reader *c, const char *what, uint32_t index)
{
    return nav__chunk_corrupt(&c->r, c->log, "MESH", what, index);
}

/* True when count elements of elem_size bytes remain to be read. */
static bool fits(const chunk_reader *c, uint64_t count, size_t elem_size)
{
    return count <= nav_reader_remaining(&c->r) / elem_size;
}

static bool coord_valid(float v)
{
    return isfinite(v) && fabsf(v) <= (float)NAV__MESH_MAX_COORD;
}

/* What is wrong with polygon p of the draft (its vertex count already checked), or null: an edge of
 * zero length, a turn that is not clockwise or straight (x right, z down), turning more than once
 * around in all, no area. */
static const char *polygon_problem(const nav__mesh_draft *d, uint32_t p)
{
    uint32_t first = d->poly_first[p], n = d->poly_first[p + 1] - first;
    double turning = 0, area = 0;
    for (uint32_t i = 0; i < n; i++) {
        nav_vec3 a = d->verts[d->edge_vert[first + i]], b = d->verts[d->edge_vert[first + (i + 1) % n]],
                 c = d->verts[d->edge_vert[first + (i + 2) % n]];
        double ux = (double)b.x - a.x, uz = (double)b.z - a.z, vx = (double)c.x - b.x, vz = (double)c.z - b.z;
        if (ux == 0 && uz == 0) return "has an edge of zero length";
        double cross = ux * vz - uz * vx, dot = ux * vx + uz * vz;
        if (cross < 0) return "is not convex and clockwise";
        if (cross == 0 && dot < 0) return "folds back on itself";
        turning += atan2(cross, dot);
        area += (double)a.x * b.z - (double)b.x * a.z;
    }
    if (fabs(turning - 2 * 3.14159265358979323846) > 1e-6) return "winds more than once around";
    if (!(area > 0)) return "has no area";
    return NULL;
}

/* The arrays a chunk's draft points to, allocated through the reader's allocator. */
typedef struct draft_arrays {
    nav_vec3 *verts;
    uint32_t *poly_first, *edge_vert, *edge_poly;
    uint8_t *edge_flags, *poly_area;
    uint16_t *poly_flags;
    double *area_cost;
    nav__mesh_link *links;
    nav_vec3 *detail_verts;
    uint32_t *detail_tris, *poly_detail_first;
    uint32_t landmark_count;
    uint32_t landmark_poly[NAV_MESH_MAX_LANDMARKS];
    double landmark_x[NAV_MESH_MAX_LANDMARKS], landmark_z[NAV_MESH_MAX_LANDMARKS];
    float *landmark_dist;
} draft_arrays;

static void free_draft(const nav_allocator *a, draft_arrays *x)
{
    nav__free(a, x->verts);
    nav__free(a, x->poly_first);
    nav__free(a, x->edge_vert);
    nav__free(a, x->edge_poly);
    nav__free(a, x->edge_flags);
    nav__free(a, x->poly_area);
    nav__free(a, x->poly_flags);
    nav__free(a, x->area_cost);
    nav__free(a, x->links);
    nav__free(a, x->landmark_dist);
    nav__free(a, x->detail_verts);
    nav__free(a, x->detail_tris);
    nav__free(a, x->poly_detail_first);
}

static nav_status read_draft(chunk_reader *c, nav__mesh_draft *d, draft_arrays *x, uint32_t *link_count)
{
    nav_reader *r = &c->r;
    const nav_allocator *a = &c->allocator;
    d->source_fingerprint = nav_reader_get_u64(r);
    d->cell_size = nav_reader_get_f32(r);
    uint32_t nv = nav_reader_get_u32(r), np = nav_reader_get_u32(r), ne = nav_reader_get_u32(r);
    uint32_t nl = nav_reader_get_u32(r);
    if (r->status != NAV_SUCCESS) return corrupt(c, "truncated in the header", UINT32_MAX);
    if (!(d->cell_size > 0) || !coord_valid(d->cell_size)) return corrupt(c, "bad cell size", UINT32_MAX);
    /* every count against the bytes left, before anything is allocated */
    uint64_t need = (uint64_t)nv * 12 + ((uint64_t)np + 1) * 4 + (uint64_t)ne * 9 + (uint64_t)np * 3 +
                    256 * 8 + (uint64_t)nl * LINK_BYTES;
    if (!fits(c, need, 1)) return corrupt(c, "counts larger than the chunk", UINT32_MAX);
    d->vert_count = nv;
    d->poly_count = np;
    *link_count = nl;
    x->verts = nav__calloc(a, nv ? nv : 1, sizeof *x->verts);
    x->poly_first = nav__calloc(a, (size_t)np + 1, sizeof *x->poly_first);
    x->edge_vert = nav__calloc(a, ne ? ne : 1, sizeof *x->edge_vert);
    x->edge_poly = nav__calloc(a, ne ? ne : 1, sizeof *x->edge_poly);
    x->edge_flags = nav__calloc(a, ne ? ne : 1, 1);
    x->poly_area = nav__calloc(a, np ? np : 1, 1);
    x->poly_flags = nav__calloc(a, np ? np : 1, sizeof *x->poly_flags);
    x->area_cost = nav__calloc(a, 256, sizeof *x->area_cost);
    x->links = nav__calloc(a, nl ? nl : 1, sizeof *x->links);
    if (!x->verts || !x->poly_first || !x->edge_vert || !x->edge_poly || !x->edge_flags || !x->poly_area ||
        !x->poly_flags || !x->area_cost || !x->links)
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    d->verts = x->verts;
    d->poly_first = x->poly_first;
    d->edge_vert = x->edge_vert;
    d->edge_poly = x->edge_poly;
    d->edge_flags = x->edge_flags;
    d->poly_area = x->poly_area;
    d->poly_flags = x->poly_flags;
    d->area_cost = x->area_cost;

    for (uint32_t v = 0; v < nv; v++) {
        float px = nav_reader_get_f32(r), py = nav_reader_get_f32(r), pz = nav_reader_get_f32(r);
        if (!coord_valid(px) || !coord_valid(py) || !coord_valid(pz))
            return corrupt(c, "a coordinate that is not finite or is too large: vertex", v);
        x->verts[v] = nav_vec3_make(px, py, pz);
    }
    for (uint32_t p = 0; p <= np; p++) x->poly_first[p] = nav_reader_get_u32(r);
    if (x->poly_first[0] != 0 || x->poly_first[np] != ne)
        return corrupt(c, "polygon edge ranges do not cover the edges", UINT32_MAX);
    for (uint32_t p = 0; p < np; p++)
        if (x->poly_first[p + 1] < x->poly_first[p] + 3 ||
            x->poly_first[p + 1] - x->poly_first[p] > NAV_MESH_MAX_POLY_VERTS)
            return corrupt(c, "too few or too many vertices: polygon", p);
    for (uint32_t e = 0; e < ne; e++)
        if ((x->edge_vert[e] = nav_reader_get_u32(r)) >= nv)
            return corrupt(c, "a vertex out of range: edge", e);
    for (uint32_t e = 0; e < ne; e++) {
        uint32_t n = x->edge_poly[e] = nav_reader_get_u32(r);
        if (n != NAV_MESH_NO_POLY && n >= np) return corrupt(c, "a neighbour out of range: edge", e);
    }
    const uint8_t *flags = nav_reader_bytes(r, ne);
    nav_reader_align(r, 4);
    const uint8_t *areas = nav_reader_bytes(r, np);
    nav_reader_align(r, 2);
    if (r->status != NAV_SUCCESS || !flags || !areas)
        return corrupt(c, "truncated, or padding that is not zero, in the edge flags", UINT32_MAX);
    for (uint32_t e = 0; e < ne; e++) {
        x->edge_flags[e] = flags[e];
        if ((flags[e] & ~NAV__EDGE_ONE_WAY) || (flags[e] && x->edge_poly[e] == NAV_MESH_NO_POLY))
            return corrupt(c, "bad flags: edge", e);
    }
    memcpy(x->poly_area, areas, np);
    for (uint32_t p = 0; p < np; p++) x->poly_flags[p] = nav_reader_get_u16(r);
    nav_reader_align(r, 8);
    for (int t = 0; t < 256; t++) x->area_cost[t] = nav_reader_get_f64(r);
    if (r->status != NAV_SUCCESS)
        return corrupt(c, "truncated, or padding that is not zero, in the areas", UINT32_MAX);
    for (int t = 0; t < 256; t++)
        if (!nav_terrain_cost_valid(x->area_cost[t])) return corrupt(c, "an invalid cost: area", (uint32_t)t);
    for (uint32_t p = 0; p < np; p++) {
        if (!(x->area_cost[x->poly_area[p]] < INFINITY)) return corrupt(c, "a blocked area: polygon", p);
        for (uint32_t e = x->poly_first[p]; e < x->poly_first[p + 1]; e++)
            if (x->edge_poly[e] == p) return corrupt(c, "an edge into itself: polygon", p);
        const char *why = polygon_problem(d, p);
        if (why) {
            nav__logf(c->log, NAV_LOG_ERROR, "MESH chunk: polygon %u %s", p, why);
            nav_reader_fail(&c->r);
            return NAV_FAILURE | NAV_CORRUPT_DATA;
        }
    }
    for (uint32_t l = 0; l < nl; l++) {
        nav__mesh_link *k = &x->links[l];
        float f[6];
        for (int i = 0; i < 6; i++) f[i] = nav_reader_get_f32(r);
        k->start = nav_vec3_make(f[0], f[1], f[2]);
        k->end = nav_vec3_make(f[3], f[4], f[5]);
        k->start_poly = nav_reader_get_u32(r);
        k->end_poly = nav_reader_get_u32(r);
        k->cost = nav_reader_get_f64(r);
        k->user_id = nav_reader_get_u32(r);
        k->flags = nav_reader_get_u16(r);
        k->bidirectional = nav_reader_get_u8(r);
        if (nav_reader_get_u8(r) != 0) return corrupt(c, "padding that is not zero: link", l);
        for (int i = 0; i < 6; i++)
            if (!coord_valid(f[i]))
                return corrupt(c, "a coordinate that is not finite or is too large: link", l);
    }
    if (r->status != NAV_SUCCESS) return corrupt(c, "truncated in the links", UINT32_MAX);
    uint32_t nk = nav_reader_get_u32(r);
    if (nav_reader_get_u32(r) != 0 || r->status != NAV_SUCCESS)
        return corrupt(c, "truncated, or padding that is not zero, in the landmark count", UINT32_MAX);
    if (nk > NAV_MESH_MAX_LANDMARKS) return corrupt(c, "too many landmarks", UINT32_MAX);
    if (!fits(c, (uint64_t)nk * 24 + (uint64_t)nv * nk * 4, 1))
        return corrupt(c, "landmarks larger than the chunk", UINT32_MAX);
    x->landmark_count = nk;
    for (uint32_t l = 0; l < nk; l++) {
        x->landmark_poly[l] = nav_reader_get_u32(r);
        if (nav_reader_get_u32(r) != 0) return corrupt(c, "padding that is not zero: landmark", l);
        x->landmark_x[l] = nav_reader_get_f64(r);
        x->landmark_z[l] = nav_reader_get_f64(r);
        if (x->landmark_poly[l] >= np) return corrupt(c, "a polygon out of range: landmark", l);
        if (!(fabs(x->landmark_x[l]) <= NAV__MESH_MAX_COORD) ||
            !(fabs(x->landmark_z[l]) <= NAV__MESH_MAX_COORD))
            return corrupt(c, "a coordinate that is not finite or is too large: landmark", l);
    }
    if (nk) {
        x->landmark_dist = nav__calloc(a, (size_t)nv * nk, sizeof *x->landmark_dist);
        if (!x->landmark_dist) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    for (size_t i = 0; i < (size_t)nv * nk; i++) {
        float v = x->landmark_dist[i] = nav_reader_get_f32(r);
        if (!(v == -1.0f || (v >= 0 && v <= (float)NAV__MESH_MAX_COORD * 8)))
            return corrupt(c, "a distance that is not -1 or finite and >= 0: vertex", (uint32_t)(i / nk));
    }
    if (r->status != NAV_SUCCESS) return corrupt(c, "truncated in the landmarks", UINT32_MAX);
    uint32_t hv = nav_reader_get_u32(r), ht = nav_reader_get_u32(r);
    if (r->status != NAV_SUCCESS) return corrupt(c, "truncated in the height counts", UINT32_MAX);
    if (ht == 0 && hv == 0) {
        if (nav_reader_remaining(r) != 0) return corrupt(c, "bytes after the heights", UINT32_MAX);
        return NAV_SUCCESS;
    }
    if (ht == 0 || hv < 3 || !fits(c, ((uint64_t)np + 1) * 4 + (uint64_t)hv * 12 + (uint64_t)ht * 12, 1))
        return corrupt(c, "height counts larger than the chunk, or points without triangles", UINT32_MAX);
    x->poly_detail_first = nav__calloc(a, (size_t)np + 1, sizeof *x->poly_detail_first);
    x->detail_verts = nav__calloc(a, hv, sizeof *x->detail_verts);
    x->detail_tris = nav__calloc(a, 3 * (size_t)ht, sizeof *x->detail_tris);
    if (!x->poly_detail_first || !x->detail_verts || !x->detail_tris) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (uint32_t p = 0; p <= np; p++) {
        x->poly_detail_first[p] = nav_reader_get_u32(r);
        if (p > 0 && x->poly_detail_first[p] < x->poly_detail_first[p - 1])
            return corrupt(c, "height triangle ranges out of order: polygon", p - 1);
    }
    if (x->poly_detail_first[0] != 0 || x->poly_detail_first[np] != ht)
        return corrupt(c, "height triangle ranges do not cover the triangles", UINT32_MAX);
    for (uint32_t v = 0; v < hv; v++) {
        float px = nav_reader_get_f32(r), py = nav_reader_get_f32(r), pz = nav_reader_get_f32(r);
        if (!coord_valid(px) || !coord_valid(py) || !coord_valid(pz))
            return corrupt(c, "a coordinate that is not finite or is too large: height point", v);
        x->detail_verts[v] = nav_vec3_make(px, py, pz);
    }
    for (size_t i = 0; i < 3 * (size_t)ht; i++)
        if ((x->detail_tris[i] = nav_reader_get_u32(r)) >= hv)
            return corrupt(c, "a point out of range: height triangle", (uint32_t)(i / 3));
    if (r->status != NAV_SUCCESS) return corrupt(c, "truncated in the heights", UINT32_MAX);
    if (nav_reader_remaining(r) != 0) return corrupt(c, "bytes after the heights", UINT32_MAX);
    d->detail_verts = x->detail_verts;
    d->detail_tris = x->detail_tris;
    d->poly_detail_first = x->poly_detail_first;
    d->detail_vert_count = hv;
    d->detail_tri_count = ht;
    return NAV_SUCCESS;
}

/* Checks the landmarks read into x against the finished mesh m and moves them into it. */
static nav_status attach_landmarks(const nav_log *log, nav_mesh *m, draft_arrays *x)
{
    uint32_t k = x->landmark_count;
    if (!k) return NAV_SUCCESS;
    const float *d = x->landmark_dist;
    double longest = 0;
    for (size_t i = 0; i < (size_t)m->vert_count * k; i++)
        if (d[i] > longest) longest = d[i];
    double slack = 4 * longest * 0x1p-24 + 1e-9;
    for (uint32_t l = 0; l < k; l++) {
        uint32_t p = x->landmark_poly[l];
        double lx = x->landmark_x[l], lz = x->landmark_z[l];
        bool bad = !nav__mesh_poly_contains_xz(m, p, lx, lz);
        for (uint32_t e = m->poly_first[p]; e < m->poly_first[p + 1] && !bad; e++) {
            uint32_t v = m->edge_vert[e];
            double straight = nav__length(m->verts[v].x - lx, m->verts[v].z - lz);
            float dv = d[(size_t)v * k + l];
            bad = dv >= 0 && fabs(dv - straight) > slack + 1e-6 * straight;
        }
        if (bad) {
            nav__logf(log, NAV_LOG_ERROR, "MESH chunk: landmark %u off its polygon or not its distance", l);
            return NAV_FAILURE | NAV_CORRUPT_DATA;
        }
    }
    for (uint32_t e = 0; e < m->edge_count; e++) {
        uint32_t p = m->edge_owner[e], next = e + 1 < m->poly_first[p + 1] ? e + 1 : m->poly_first[p];
        uint32_t a = m->edge_vert[e], b = m->edge_vert[next];
        double len =
            nav__length((double)m->verts[a].x - m->verts[b].x, (double)m->verts[a].z - m->verts[b].z);
        for (uint32_t l = 0; l < k; l++) {
            float da = d[(size_t)a * k + l], db = d[(size_t)b * k + l];
            if (da >= 0 && db >= 0 && fabs((double)da - db) > len + slack + 1e-6 * len) {
                nav__logf(log, NAV_LOG_ERROR, "MESH chunk: landmark %u: distances further apart than edge %u",
                          l, e);
                return NAV_FAILURE | NAV_CORRUPT_DATA;
            }
        }
    }
    m->landmark_count = k;
    m->landmark_dist = x->landmark_dist;
    x->landmark_dist = NULL;
    m->landmark_slack = slack;
    for (uint32_t l = 0; l < k; l++) {
        m->landmark_poly[l] = x->landmark_poly[l];
        m->landmark_x[l] = x->landmark_x[l];
        m->landmark_z[l] = x->landmark_z[l];
    }
    return NAV_SUCCESS;
}

nav_status nav_mesh_read_chunk(const void *data, size_t size, const nav_allocator *allocator,
                               const nav_log *log, nav_mesh **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!data && size) return NAV_FAILURE | NAV_INVALID_PARAM;
    chunk_reader c = {.log = log};
    nav__allocator_resolve(&c.allocator, allocator);
    nav_reader_init(&c.r, data, size);
    nav__mesh_draft d = {0};
    draft_arrays x = {0};
    uint32_t link_count = 0;
    nav_status s = read_draft(&c, &d, &x, &link_count);
    nav_mesh *m = NULL;
    if (nav_succeeded(s)) {
        /* twins (symmetric adjacency), components, corners, the index; then the links */
        s = nav__mesh_finish(&d, allocator, log, &m);
        if (s == (NAV_FAILURE | NAV_CORRUPT_DATA))
            nav__logf(log, NAV_LOG_ERROR, "MESH chunk: adjacency not symmetric");
    }
    if (nav_succeeded(s)) {
        s = nav__mesh_attach_links(m, x.links, link_count);
        if (s == (NAV_FAILURE | NAV_CORRUPT_DATA)) nav__logf(log, NAV_LOG_ERROR, "MESH chunk: bad link");
    }
    if (nav_succeeded(s)) s = attach_landmarks(log, m, &x);
    free_draft(&c.allocator, &x);
    if (nav_failed(s)) {
        nav_mesh_destroy(m);
        return s;
    }
    *out = m;
    return NAV_SUCCESS;
}

/* ---- files ------------------------------------------------------------------------------------ */

nav_status nav_mesh_save_nav(const nav_grid *grid, const nav_mesh *mesh, const char *path)
{
    if (!mesh || !path) return NAV_FAILURE | NAV_INVALID_PARAM;
    if (grid && nav_grid_fingerprint(grid) != mesh->source_fingerprint) {
        nav__logf(&mesh->log, NAV_LOG_ERROR,
                  "%s: cannot save: the mesh belongs to another grid (built from grid %016" PRIx64
                  ", this grid is %016" PRIx64 "): build it again from this grid",
                  path, mesh->source_fingerprint, nav_grid_fingerprint(grid));
        return NAV_FAILURE | NAV_SOURCE_MISMATCH;
    }
    nav_writer mesh_data;
    nav_writer_init(&mesh_data, &mesh->allocator);
    nav_status s = nav_mesh_write_chunk(mesh, &mesh_data);
    if (nav_succeeded(s))
        s = nav__save_layer_nav(path, grid, NAV_CHUNK_MESH, NAV_MESH_CHUNK_VERSION, &mesh_data,
                                &mesh->allocator);
    nav_writer_destroy(&mesh_data);
    return s;
}

/* Whether the file holds a level's tiles (a TILS chunk) and no mesh: as files saved before the
 * stitched mesh was kept beside the tiles did. */
static bool tiles_without_mesh(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    nav__chunk_entry chunks[NAV_CONTAINER_MAX_CHUNKS];
    uint32_t count = 0;
    bool tiles = false, mesh = false;
    if (fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        if (size > 0 && fseek(f, 0, SEEK_SET) == 0 &&
            nav_succeeded(nav__container_read_table(f, (uint64_t)size, NULL, chunks, &count)))
            for (uint32_t i = 0; i < count; i++) {
                tiles |= chunks[i].tag == NAV_CHUNK_MESH_TILES;
                mesh |= chunks[i].tag == NAV_CHUNK_MESH;
            }
    }
    fclose(f);
    return tiles && !mesh;
}

nav_status nav_mesh_load_nav(const char *path, const nav_allocator *allocator, const nav_log *log,
                             nav_mesh **mesh, nav_grid **grid)
{
    if (!mesh) return NAV_FAILURE | NAV_INVALID_PARAM;
    *mesh = NULL;
    if (grid) *grid = NULL;
    if (!path) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav__file_log file_log;
    nav__file_log_init(&file_log, log, path);
    void *bytes;
    const nav_chunk *mesh_chunk;
    if (!grid && tiles_without_mesh(path)) {
        nav__logf(&file_log.hooks, NAV_LOG_ERROR,
                  "holds a level's tiles (TILS) without the mesh stitched from them (MESH), as files of "
                  "libnav 0.1 do: save it again with the bake library (navtool tile or "
                  "nav_geometry_tiles_save_nav), or load its tiles with nav_geometry_tiles_load_nav");
        return NAV_FAILURE | NAV_WRONG_VERSION;
    }
    nav_status s = nav__open_layer_nav(path, allocator, &file_log, NAV_CHUNK_MESH, "MESH",
                                       NAV_MESH_CHUNK_VERSION, &bytes, &mesh_chunk, grid);
    if (nav_failed(s)) return s;
    s = nav_mesh_read_chunk(mesh_chunk->data, (size_t)mesh_chunk->size, allocator, &file_log.hooks, mesh);
    /* the mesh keeps a copy of its log: give it the caller's */
    if (nav_succeeded(s)) (*mesh)->log = log ? *log : (nav_log){0};
    if (nav_succeeded(s) && grid && nav_grid_fingerprint(*grid) != (*mesh)->source_fingerprint) {
        nav__logf(&file_log.hooks, NAV_LOG_ERROR,
                  "the mesh was built from another grid (%016" PRIx64 ") than the file's (%016" PRIx64
                  "): build it again",
                  (*mesh)->source_fingerprint, nav_grid_fingerprint(*grid));
        s = NAV_FAILURE | NAV_SOURCE_MISMATCH;
    }
    if (nav_failed(s)) {
        nav_mesh_destroy(*mesh);
        *mesh = NULL;
        if (grid) {
            nav_grid_destroy(*grid);
            *grid = NULL;
        }
    }
    nav__close_nav_file(allocator, bytes);
    return s;
}
