/* Waypoint graphs made from navigation meshes: a waypoint at every convex corner of the mesh's
 * obstacles (a vertex where the walkable area around it, seen from above, turns more than half
 * round) and at both ends of every off-mesh link; a link between every two that see each other on
 * the mesh (nav_mesh_raycast), and the off-mesh links themselves.
 *
 * A vertex's corners of polygons are grouped into fans: polygons that meet across an edge through
 * the vertex. A fan bounded by two walls whose angles add up to more than pi is a corner; the
 * obstacle fills the wedge between its two walls. A segment leaves a corner into the polygon of its
 * fan whose corner holds its direction. Every pair is raycast (both ways when some step is one-way),
 * in parallel, each waypoint keeping its own list, so the graph is the same at any thread count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "ds.h"
#include "log.h"
#include "nav/mesh.h"
#include "waypoints_internal.h"

/* A waypoint of the mesh graph: a corner or an end of an off-mesh link. */
typedef struct mesh_point {
    nav_vec3 at;
    uint32_t vertex; /* a corner's vertex, or NAV_MESH_NO_POLY for a link end */
    uint32_t poly;   /* a link end's polygon */
    /* a corner: the polygons of its fan, each with its corner's two edge directions (x, z) */
    uint32_t first_wedge, wedges;
    double wall_a[2], wall_b[2]; /* the obstacle's wedge: from the corner along its two walls */
} mesh_point;

/* The corner of polygon `poly` at one of its vertices: the directions to its vertices before (a)
 * and after (b) it. */
typedef struct wedge {
    uint32_t poly;
    double a[2], b[2];
} wedge;

static double cross(const double *a, const double *b)
{
    return nav__wp_cross(a[0], a[1], b[0], b[1]);
}

/* True when d lies strictly inside the cone spanned by a and b (an angle below pi). */
static bool in_cone(const double *a, const double *b, const double *d)
{
    double c = cross(a, b);
    return c != 0 && cross(a, d) * c > 0 && cross(d, b) * c > 0;
}

/* A shortest path may bend at corner p going along d (either way): d's line does not cut into the
 * obstacle's wedge (the grid rule of nav__wp_taut, for any angle). */
static bool taut(const mesh_point *p, const double *d)
{
    double back[2] = {-d[0], -d[1]};
    return !in_cone(p->wall_a, p->wall_b, d) && !in_cone(p->wall_a, p->wall_b, back);
}

typedef struct mesh_job {
    const nav_mesh *mesh;
    const mesh_point *points;
    const wedge *wedges;
    uint32_t count;
    bool prune, one_way_steps, uniform;
    double unit_cost; /* the one area cost, when uniform */
    const nav_allocator *a;
    nav__wp_seen **found; /* per waypoint u: stb_ds array of the waypoints above u it sees */
} mesh_job;

/* A stretch [t0, t1] of a segment and what walking it costs a unit of length. */
typedef struct stretch {
    double t0, t1, cost;
} stretch;

typedef struct mesh_scratch {
    nav_mesh_query *query;
    uint32_t *polys;
    uint32_t max_polys;
    stretch *stretches; /* stb_ds: of the segment being walked */
} mesh_scratch;

static bool mesh_init(void *ctx, void **out)
{
    mesh_job *job = ctx;
    mesh_scratch *s = nav__calloc(job->a, 1, sizeof *s);
    *out = s;
    if (!s) return false;
    s->max_polys = nav_mesh_poly_count(job->mesh) + 2;
    s->polys = nav__calloc(job->a, s->max_polys, sizeof *s->polys);
    return s->polys && !nav_failed(nav_mesh_query_create(
                           job->mesh, &(nav_mesh_query_desc){.allocator = job->a}, &s->query));
}

static void mesh_fini(void *ctx, void *scratch)
{
    mesh_job *job = ctx;
    mesh_scratch *s = scratch;
    if (!s) return;
    nav_mesh_query_destroy(s->query);
    nav__free(job->a, s->polys);
    arrfree(s->stretches);
    nav__free(job->a, s);
}

/* The polygon a segment from waypoint p along d leaves by, or NAV_MESH_NO_POLY (into the wall). */
static uint32_t leaving_poly(const mesh_job *job, const mesh_point *p, const double *d)
{
    if (p->vertex == NAV_MESH_NO_POLY) return p->poly;
    /* the polygon's corner holds d when d is inside both its edges there (clockwise, x right and z
     * down: inside an edge a -> b is where cross(b - a, d) >= 0); this also serves a straight corner */
    for (uint32_t i = 0; i < p->wedges; i++) {
        const wedge *w = &job->wedges[p->first_wedge + i];
        if (cross(w->b, d) >= 0 && cross(d, w->a) >= 0) return w->poly;
    }
    return NAV_MESH_NO_POLY;
}

/* Appends to *out (stb_ds) the stretch of the segment from + t (to - from) inside convex polygon
 * poly (clockwise, x right and z down: inside every edge a -> b, cross(b - a, p - a) >= 0), and
 * where it runs along an edge with a polygon across, that polygon's cost there too (a path along the
 * line between two areas pays the cheaper, as on grids). False when out of memory. */
static bool clip(const nav_mesh *mesh, uint32_t poly, nav_vec3 from, nav_vec3 to, stretch **out)
{
    nav_mesh_poly_info info;
    nav_mesh_poly(mesh, poly, &info);
    double dx = (double)to.x - from.x, dz = (double)to.z - from.z, t0 = 0, t1 = 1, dd = dx * dx + dz * dz;
    for (uint32_t i = 0; i < info.vert_count; i++) {
        nav_vec3 a = nav_mesh_vert(mesh, info.verts[i]),
                 b = nav_mesh_vert(mesh, info.verts[(i + 1) % info.vert_count]);
        double ex = (double)b.x - a.x, ez = (double)b.z - a.z;
        double f0 = ex * ((double)from.z - a.z) - ez * ((double)from.x - a.x), fd = ex * dz - ez * dx;
        if (fd > 0)
            t0 = fmax(t0, -f0 / fd);
        else if (fd < 0)
            t1 = fmin(t1, -f0 / fd);
    }
    if (!(t0 < t1)) return true;
    if (!nav__arr_push(*out, ((stretch){t0, t1, nav_mesh_area_cost(mesh, info.area)}))) return false;
    for (uint32_t i = 0; i < info.vert_count; i++) {
        if (info.neighbours[i] == NAV_MESH_NO_POLY) continue;
        nav_vec3 a = nav_mesh_vert(mesh, info.verts[i]),
                 b = nav_mesh_vert(mesh, info.verts[(i + 1) % info.vert_count]);
        double ex = (double)b.x - a.x, ez = (double)b.z - a.z;
        if (ex * ((double)from.z - a.z) - ez * ((double)from.x - a.x) != 0 || ex * dz - ez * dx != 0)
            continue;
        /* on the edge's line: the part of it the edge spans */
        double ta = (((double)a.x - from.x) * dx + ((double)a.z - from.z) * dz) / dd;
        double tb = (((double)b.x - from.x) * dx + ((double)b.z - from.z) * dz) / dd;
        double lo = fmax(t0, fmin(ta, tb)), hi = fmin(t1, fmax(ta, tb));
        if (!(lo < hi)) continue;
        nav_mesh_poly_info across;
        nav_mesh_poly(mesh, info.neighbours[i], &across);
        if (!nav__arr_push(*out, ((stretch){lo, hi, nav_mesh_area_cost(mesh, across.area)}))) return false;
    }
    return true;
}

/* The cost of walking from p to q on the mesh, INFINITY when the raycast stops short, NAN when
 * memory runs out. */
static double walk(const mesh_job *job, mesh_scratch *s, const mesh_point *p, const mesh_point *q)
{
    double d[2] = {(double)q->at.x - p->at.x, (double)q->at.z - p->at.z};
    double length = hypot(d[0], d[1]);
    if (length == 0) return INFINITY; /* two waypoints at one place: no link */
    uint32_t start = leaving_poly(job, p, d);
    if (start == NAV_MESH_NO_POLY) return INFINITY;
    nav_mesh_raycast_hit hit;
    nav_status st = nav_mesh_raycast(s->query, NULL, start, p->at, q->at, &hit,
                                     job->uniform ? NULL : s->polys, job->uniform ? 0 : s->max_polys);
    if (nav_failed(st) || hit.t < 1) return INFINITY;
    if (job->uniform) return length * job->unit_cost;
    /* the stretches of the polygons crossed; each piece of the segment costs the cheapest that holds it */
    nav__arr_truncate(s->stretches, 0);
    for (uint32_t i = 0; i < hit.visited && i < s->max_polys; i++)
        if (!clip(job->mesh, s->polys[i], p->at, q->at, &s->stretches)) return NAN;
    uint32_t n = (uint32_t)arrlen(s->stretches);
    double cost = 0, t = 0;
    while (t < 1) {
        double unit = INFINITY, next = 1;
        for (uint32_t i = 0; i < n; i++) {
            const stretch *e = &s->stretches[i];
            if (e->t0 <= t && e->t1 > t)
                unit = fmin(unit, e->cost), next = fmin(next, e->t1);
            else if (e->t0 > t)
                next = fmin(next, e->t0);
        }
        if (unit == INFINITY) unit = 0; /* a gap of rounding between two polygons */
        cost += (next - t) * length * unit;
        t = next;
    }
    return cost;
}

static bool mesh_point_run(void *ctx, void *scratch, uint32_t u)
{
    mesh_job *job = ctx;
    mesh_scratch *s = scratch;
    const mesh_point *p = &job->points[u];
    for (uint32_t v = u + 1; v < job->count; v++) {
        const mesh_point *q = &job->points[v];
        double d[2] = {(double)q->at.x - p->at.x, (double)q->at.z - p->at.z};
        if (job->prune && ((p->vertex != NAV_MESH_NO_POLY && !taut(p, d)) ||
                           (q->vertex != NAV_MESH_NO_POLY && !taut(q, d))))
            continue;
        double there = walk(job, s, p, q), back = job->one_way_steps ? walk(job, s, q, p) : there;
        if (isnan(there) || isnan(back)) return false; /* out of memory: the work stops */
        if ((there < INFINITY || back < INFINITY) &&
            !nav__arr_push(job->found[u], ((nav__wp_seen){v, there, back})))
            return false; /* out of memory: the work stops */
    }
    return true;
}

/* ---- Corners --------------------------------------------------------------------------------- */

/* One polygon's corner at a vertex, while finding fans. */
typedef struct corner_of {
    uint32_t vertex, poly, prev, next; /* the polygon's vertices before and after it */
    uint32_t wall_in, wall_out;        /* whether the edges prev -> vertex, vertex -> next are walls */
    uint32_t fan;
} corner_of;

static int by_vertex(const void *a, const void *b)
{
    const corner_of *x = a, *y = b;
    if (x->vertex != y->vertex) return x->vertex < y->vertex ? -1 : 1;
    return x->poly < y->poly ? -1 : x->poly > y->poly;
}

static void direction(const nav_mesh *mesh, uint32_t from, uint32_t to, double *d)
{
    nav_vec3 a = nav_mesh_vert(mesh, from), b = nav_mesh_vert(mesh, to);
    d[0] = (double)b.x - a.x;
    d[1] = (double)b.z - a.z;
}

static double angle_between(const double *a, const double *b)
{
    return atan2(fabs(cross(a, b)), a[0] * b[0] + a[1] * b[1]);
}

/* The corners of the mesh (stb_ds arrays *points, and the wedges of their fans). Per vertex: its
 * polygon corners, grouped into fans (two polygons meeting across an edge through the vertex share
 * a fan); a fan with exactly two walls whose angles add up to more than pi is a corner. False when
 * out of memory (the caller frees *points and *wedges). */
static bool find_corners(const nav_mesh *mesh, mesh_point **points, wedge **wedges)
{
    corner_of *all = NULL;
    size_t polygon_corners = 0;
    for (uint32_t p = 0; p < nav_mesh_poly_count(mesh); p++) {
        nav_mesh_poly_info info;
        nav_mesh_poly(mesh, p, &info);
        polygon_corners += info.vert_count;
    }
    if (!nav__arr_reserve(all, polygon_corners)) return false;
    for (uint32_t p = 0; p < nav_mesh_poly_count(mesh); p++) {
        nav_mesh_poly_info info;
        nav_mesh_poly(mesh, p, &info);
        for (uint32_t i = 0; i < info.vert_count; i++) {
            uint32_t before = (i + info.vert_count - 1) % info.vert_count, after = (i + 1) % info.vert_count;
            corner_of c = {.vertex = info.verts[i],
                           .poly = p,
                           .prev = info.verts[before],
                           .next = info.verts[after],
                           .wall_in = info.neighbours[before] == NAV_MESH_NO_POLY,
                           .wall_out = info.neighbours[i] == NAV_MESH_NO_POLY};
            nav__arr_put_reserved(all, c);
        }
    }
    if (arrlen(all) > 1) qsort(all, arrlen(all), sizeof *all, by_vertex);
    for (ptrdiff_t first = 0, end; first < arrlen(all); first = end) {
        for (end = first; end < arrlen(all) && all[end].vertex == all[first].vertex; end++)
            all[end].fan = (uint32_t)(end - first);
        /* join corners across shared edges: c's edge to next is d's edge from prev, one line */
        bool changed = true;
        while (changed) {
            changed = false;
            for (ptrdiff_t i = first; i < end; i++)
                for (ptrdiff_t j = first; j < end; j++)
                    if (all[i].next == all[j].prev && !all[i].wall_out && all[i].fan != all[j].fan) {
                        uint32_t low = all[i].fan < all[j].fan ? all[i].fan : all[j].fan;
                        all[i].fan = all[j].fan = low;
                        changed = true;
                    }
        }
        for (uint32_t fan = 0; fan < (uint32_t)(end - first); fan++) {
            double total = 0;
            uint32_t walls = 0, members = 0, wall_to = 0, wall_from = 0;
            for (ptrdiff_t i = first; i < end; i++) {
                if (all[i].fan != fan) continue;
                double a[2], b[2];
                direction(mesh, all[i].vertex, all[i].prev, a);
                direction(mesh, all[i].vertex, all[i].next, b);
                total += angle_between(a, b);
                members++;
                if (all[i].wall_in) walls++, wall_to = all[i].prev;
                if (all[i].wall_out) walls++, wall_from = all[i].next;
            }
            if (members == 0 || walls != 2 || !(total > 3.14159265358979323846 + 1e-9)) continue;
            mesh_point m = {.at = nav_mesh_vert(mesh, all[first].vertex),
                            .vertex = all[first].vertex,
                            .poly = NAV_MESH_NO_POLY,
                            .first_wedge = (uint32_t)arrlen(*wedges)};
            direction(mesh, m.vertex, wall_to, m.wall_a);
            direction(mesh, m.vertex, wall_from, m.wall_b);
            if (!nav__arr_reserve(*wedges, members) || !nav__arr_reserve(*points, 1)) {
                arrfree(all);
                return false;
            }
            for (ptrdiff_t i = first; i < end; i++) {
                if (all[i].fan != fan) continue;
                wedge w = {.poly = all[i].poly};
                direction(mesh, all[i].vertex, all[i].prev, w.a);
                direction(mesh, all[i].vertex, all[i].next, w.b);
                nav__arr_put_reserved(*wedges, w);
                m.wedges++;
            }
            nav__arr_put_reserved(*points, m);
        }
    }
    arrfree(all);
    return true;
}

/* ---- The graph ------------------------------------------------------------------------------- */

static bool uniform_cost(const nav_mesh *mesh, double *cost)
{
    *cost = NAN;
    for (uint32_t p = 0; p < nav_mesh_poly_count(mesh); p++) {
        nav_mesh_poly_info info;
        nav_mesh_poly(mesh, p, &info);
        double c = nav_mesh_area_cost(mesh, info.area);
        if (p == 0) *cost = c;
        if (c != *cost) return false;
    }
    return true;
}

static bool has_one_way_steps(const nav_mesh *mesh)
{
    for (uint32_t p = 0; p < nav_mesh_poly_count(mesh); p++) {
        nav_mesh_poly_info info;
        nav_mesh_poly(mesh, p, &info);
        for (uint32_t i = 0; i < info.vert_count; i++)
            if (info.neighbours[i] != NAV_MESH_NO_POLY && !nav_mesh_edge_passable(mesh, p, i)) return true;
    }
    return false;
}

nav_status nav_waypoint_graph_from_mesh(const nav_mesh *mesh, const nav_waypoint_mesh_desc *desc,
                                        nav_waypoint_graph *out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = (nav_waypoint_graph){0};
    if (!mesh) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_waypoint_mesh_desc d = desc ? *desc : (nav_waypoint_mesh_desc){0};
    nav_allocator a;
    nav__allocator_resolve(&a, d.allocator);
    uint32_t limit = d.max_waypoints ? d.max_waypoints : NAV_WAYPOINTS_DEFAULT_MAX;
    if (limit > NAV_WAYPOINTS_LIMIT) limit = NAV_WAYPOINTS_LIMIT;
    mesh_point *points = NULL;
    wedge *wedges = NULL;
    nav_waypoint_link *extra = NULL;
    uint32_t links = nav_mesh_link_count(mesh);
    bool room = find_corners(mesh, &points, &wedges) && nav__arr_reserve(points, 2 * (size_t)links) &&
                nav__arr_reserve(extra, links);
    nav_status s = room ? NAV_SUCCESS : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    uint32_t corners = (uint32_t)arrlen(points);
    /* each off-mesh link: a waypoint at each end, and a link between them */
    for (uint32_t l = 0; room && l < links; l++) {
        nav_mesh_link_info info;
        nav_mesh_link(mesh, l, &info);
        uint32_t at = (uint32_t)arrlen(points);
        nav__arr_put_reserved(
            points, ((mesh_point){.at = info.start, .vertex = NAV_MESH_NO_POLY, .poly = info.start_poly}));
        nav__arr_put_reserved(
            points, ((mesh_point){.at = info.end, .vertex = NAV_MESH_NO_POLY, .poly = info.end_poly}));
        /* its cost as the mesh takes it (0: the distance between its ends); a link that goes
         * nowhere for nothing is left out */
        double dx = (double)info.end.x - info.start.x, dy = (double)info.end.y - info.start.y,
               dz = (double)info.end.z - info.start.z;
        double cost = info.cost > 0 ? info.cost : sqrt(dx * dx + dy * dy + dz * dz);
        if (!(cost > 0)) continue;
        if (cost > NAV_WAYPOINT_MAX_COST) {
            nav__logf(d.log, NAV_LOG_ERROR,
                      "waypoints: the mesh's off-mesh link %u costs %g, more than a waypoint link may (%g)",
                      l, cost, NAV_WAYPOINT_MAX_COST);
            s = NAV_FAILURE | NAV_INVALID_PARAM;
        }
        nav_waypoint_link k = {
            .from = at, .to = at + 1, .cost = cost, .flags = info.flags, .one_way = !info.bidirectional};
        nav__arr_put_reserved(extra, k);
    }
    uint64_t count = (uint64_t)arrlen(points);
    if (!nav_failed(s) && count > limit) {
        nav__logf(
            d.log, NAV_LOG_ERROR,
            "waypoints: the mesh has %u convex corners and %u off-mesh links, more than the limit of %u "
            "waypoints (max_waypoints raises it to at most %u, the most a bake holds)",
            corners, links, limit, NAV_WAYPOINTS_LIMIT);
        s = NAV_FAILURE | NAV_TOO_LARGE;
    }
    mesh_job job = {.mesh = mesh,
                    .points = points,
                    .wedges = wedges,
                    .count = (uint32_t)count,
                    .one_way_steps = has_one_way_steps(mesh),
                    .a = &a};
    job.uniform = uniform_cost(mesh, &job.unit_cost);
    job.prune = job.uniform && !job.one_way_steps && !d.keep_all_links;
    if (!nav_failed(s)) {
        job.found = nav__calloc(&a, count ? (size_t)count : 1, sizeof *job.found); /* (count <= limit) */
        if (!job.found) s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    nav__work work = {.count = (uint32_t)count,
                      .init = mesh_init,
                      .run = mesh_point_run,
                      .fini = mesh_fini,
                      .ctx = &job,
                      .stage = "visibility",
                      .progress = d.progress};
    if (!nav_failed(s))
        s = nav__wp_graph_by_visibility(&work, d.threads, job.found, 1, extra, (uint32_t)arrlen(extra), &a,
                                        out);
    if (!nav_failed(s)) {
        nav_waypoint *w = out->storage;
        for (uint32_t i = 0; i < count; i++) w[i] = (nav_waypoint){.position = points[i].at};
    }
    nav__free(&a, job.found);
    arrfree(points);
    arrfree(wedges);
    arrfree(extra);
    return s;
}

nav_status nav_waypoints_bake_mesh(const nav_mesh *mesh, const nav_waypoint_mesh_desc *desc,
                                   nav_waypoints **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    nav_waypoint_mesh_desc d = desc ? *desc : (nav_waypoint_mesh_desc){0};
    nav_waypoint_graph graph;
    nav_status s = nav_waypoint_graph_from_mesh(mesh, &d, &graph);
    if (nav_failed(s)) return s;
    nav_waypoints_bake_desc bake = {.threads = d.threads,
                                    .max_waypoints = d.max_waypoints,
                                    .dense_max = d.dense_max,
                                    .allocator = d.allocator,
                                    .log = d.log,
                                    .progress = d.progress};
    s = nav_waypoints_bake(&graph, &bake, out);
    nav_waypoint_graph_release(&graph);
    return s;
}
