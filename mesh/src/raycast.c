/* Walking straight on the mesh: the raycast (how far a straight walk goes, the polygons it crosses,
 * the edge that stops it) and move_along_surface (a character controller's step: as near the
 * target as the walls allow, staying on the mesh).
 *
 * The raycast goes polygon to polygon: in each, the edge through which the segment leaves (the
 * least parameter at which it crosses an edge's line outwards); through a portal it goes on into
 * the neighbour. Where it leaves exactly at a vertex, the polygons round the vertex (reached through
 * portals that share it) are searched for one whose corner holds the direction, so a ray may pass
 * a corner between four polygons, but never a pinch (two walls meeting at a vertex leave no portal
 * round it). On grid meshes every number here is exact. */
#include <math.h>

#include "query_internal.h"
#include "walls.h"

static double cross(double ax, double az, double bx, double bz)
{
    return ax * bz - az * bx;
}

/* May the walk go from polygon p through its edge e? */
static bool passable(const nav_mesh_query *q, const nav_mesh_filter *f, uint32_t e)
{
    const nav_mesh *m = q->mesh;
    uint32_t n = m->edge_poly[e];
    return n != NAV_MESH_NO_POLY && !(m->edge_flags[e] & NAV__EDGE_ONE_WAY) &&
           nav__mesh_poly_allowed(q, f, n);
}

static uint32_t next_edge(const nav_mesh *m, uint32_t p, uint32_t e)
{
    return e + 1 < m->poly_first[p + 1] ? e + 1 : m->poly_first[p];
}

static uint32_t prev_edge(const nav_mesh *m, uint32_t p, uint32_t e)
{
    return e > m->poly_first[p] ? e - 1 : m->poly_first[p + 1] - 1;
}

/* The edges of polygon p at the vertex at (vx, vz): *in arrives there, *out leaves. False when p
 * has no vertex there. */
static bool edges_at(const nav_mesh *m, uint32_t p, double vx, double vz, uint32_t *in, uint32_t *out)
{
    for (uint32_t e = m->poly_first[p]; e < m->poly_first[p + 1]; e++) {
        nav_vec3 v = m->verts[m->edge_vert[e]];
        if ((double)v.x == vx && (double)v.z == vz) {
            *out = e;
            *in = prev_edge(m, p, e);
            return true;
        }
    }
    return false;
}

/* True when direction (dx, dz) from the vertex at (vx, vz) of polygon p points into p's closed
 * corner there (between its two edges at the vertex, on the polygon's side). */
static bool corner_holds(const nav_mesh *m, uint32_t p, double vx, double vz, double dx, double dz)
{
    uint32_t in, out;
    if (!edges_at(m, p, vx, vz, &in, &out)) return false;
    nav_vec3 a = m->verts[m->edge_vert[in]], b = m->verts[m->edge_vert[next_edge(m, p, out)]];
    return cross(vx - a.x, vz - a.z, dx, dz) >= 0 && cross(b.x - vx, b.z - vz, dx, dz) >= 0;
}

/* The polygon round the vertex (vx, vz), other than `from`, reached from `from` through portals
 * that share the vertex, whose corner holds the direction; NAV_MESH_NO_POLY for none. */
static uint32_t round_vertex(const nav_mesh_query *q, const nav_mesh_filter *f, uint32_t from, double vx,
                             double vz, double dx, double dz)
{
    const nav_mesh *m = q->mesh;
    for (int side = 0; side < 2; side++) {
        uint32_t p = from;
        for (int steps = 0; steps < 64; steps++) {
            uint32_t in, out;
            if (!edges_at(m, p, vx, vz, &in, &out)) break;
            /* round one way through the edges leaving the vertex, the other through those arriving */
            uint32_t e = side == 0 ? out : in;
            if (!passable(q, f, e)) break;
            uint32_t n = m->edge_poly[e];
            if (n == from) break;
            if (corner_holds(m, n, vx, vz, dx, dz)) return n;
            p = n;
        }
    }
    return NAV_MESH_NO_POLY;
}

/* Whether a walk that came under (or over) end in polygon p reached it: on a level's mesh, p must be
 * end's own surface, the polygon nav_mesh_locate puts end on with the mesh's default box, or one as
 * near to end (a polygon beside it, end on their common edge); a floor above or below is not. A
 * grid's mesh has one floor over each point, whatever end's height. */
static bool on_end_surface(const nav_mesh *m, uint32_t p, nav_vec3 end)
{
    if (!nav__mesh_is_level(m)) return true;
    double dy, d2 = nav__mesh_over_distance2(m, p, end.x, end.y, end.z, &dy);
    if (d2 == 0) return true; /* nothing is nearer */
    if (!(dy <= NAV_MESH_LEVEL_HALF_EXTENT_Y)) return false;
    nav_vec3 nearest;
    double best;
    nav__mesh_nearest(m, end.x, end.y, end.z, NAV_MESH_LEVEL_HALF_EXTENT_XZ, NAV_MESH_LEVEL_HALF_EXTENT_Y,
                      NAV_MESH_LEVEL_HALF_EXTENT_XZ, &nearest, &best);
    return d2 <= best;
}

/* What a raycast and a move check first: finite points, start inside start_poly, the filter's
 * costs valid (then set in q->area_cost) and start_poly one it allows. NAV_SUCCESS, or a failure:
 * NAV_INVALID_PARAM, or nav__query_set_costs's. *end_in (when asked for, on success): whether end
 * is inside start_poly too. */
static nav_status walk_begin(nav_mesh_query *q, const nav_mesh_filter *filter, uint32_t start_poly,
                             nav_vec3 start, nav_vec3 end, bool *end_in)
{
    const nav_mesh *m = q->mesh;
    bool leaves_out;
    if (!(isfinite(start.x) && isfinite(start.y) && isfinite(start.z) && isfinite(end.x) && isfinite(end.y) &&
          isfinite(end.z) && start_poly < m->poly_count &&
          (end_in ? nav__mesh_poly_contains2_xz(m, start_poly, start.x, start.z, end.x, end.z, end_in)
                  : nav__mesh_poly_contains_xz(m, start_poly, start.x, start.z))))
        return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_status s = nav__query_set_costs(q, filter, &leaves_out);
    if (nav_failed(s)) return s;
    return nav__mesh_poly_allowed(q, filter, start_poly) ? NAV_SUCCESS : NAV_FAILURE | NAV_INVALID_PARAM;
}

nav_status nav_mesh_raycast(nav_mesh_query *q, const nav_mesh_filter *filter, uint32_t start_poly,
                            nav_vec3 start, nav_vec3 end, nav_mesh_raycast_hit *hit, uint32_t *polys,
                            uint32_t max_polys)
{
    if (!q || !hit || (!polys && max_polys)) return NAV_FAILURE | NAV_INVALID_PARAM;
    const nav_mesh *m = q->mesh;
    *hit = (nav_mesh_raycast_hit){0, start, start_poly, NAV_MESH_NO_POLY, {0, 0, 0}, 0};
    nav_status begun = walk_begin(q, filter, start_poly, start, end, NULL);
    if (nav_failed(begun)) return begun;

    double sx = start.x, sz = start.z, dx = (double)end.x - sx, dz = (double)end.z - sz;
    uint32_t p = start_poly, visited = 0, came_from = NAV_MESH_NO_POLY;
    double t = 0;
    nav_status status = NAV_SUCCESS;
    for (uint64_t guard = 0; guard <= 4 * (uint64_t)m->poly_count + 16; guard++) {
        if (visited < max_polys) polys[visited] = p;
        visited++;
        /* the edge through which the segment leaves p: the least crossing outwards */
        uint32_t exit = NAV_MESH_NO_POLY;
        double t_exit = INFINITY;
        for (uint32_t e = m->poly_first[p]; e < m->poly_first[p + 1]; e++) {
            nav_vec3 a = m->verts[m->edge_vert[e]], b = m->verts[m->edge_vert[next_edge(m, p, e)]];
            double ex = (double)b.x - a.x, ez = (double)b.z - a.z;
            double f0 = cross(ex, ez, sx - a.x, sz - a.z), df = cross(ex, ez, dx, dz);
            if (df >= 0) continue; /* not moving outwards across this edge's line */
            double te = f0 / -df;
            if (te < t_exit) {
                t_exit = te;
                exit = e;
            }
        }
        if (exit == NAV_MESH_NO_POLY || t_exit >= 1) { /* the end's (x, z) lies in p */
            if (on_end_surface(m, p, end)) {
                hit->t = 1;
                hit->point = nav_vec3_make(end.x, nav__mesh_poly_height(m, p, end.x, end.z), end.z);
            } else { /* under or over the end, on another floor: stopped where it came onto p */
                double xx = sx + dx * t, xz = sz + dz * t;
                hit->t = t;
                hit->point = nav_vec3_make((float)xx, nav__mesh_poly_height(m, p, xx, xz), (float)xz);
            }
            hit->poly = p;
            break;
        }
        if (t_exit < t) t_exit = t; /* (rounding) never backwards */
        double xx = sx + dx * t_exit, xz = sz + dz * t_exit;
        /* collinear edges (a vertex kept where a neighbour changes) cross at one parameter: the
         * exit is the one whose span holds the point (on a mesh of float corners, such as one built
         * from level geometry, "collinear" is within the floats' rounding: 1e-6 of the walk) */
        for (uint32_t e = m->poly_first[p]; e < m->poly_first[p + 1]; e++) {
            nav_vec3 ea = m->verts[m->edge_vert[e]], eb = m->verts[m->edge_vert[next_edge(m, p, e)]];
            double fx = (double)eb.x - ea.x, fz = (double)eb.z - ea.z;
            double f0 = cross(fx, fz, sx - ea.x, sz - ea.z), df = cross(fx, fz, dx, dz);
            if (df >= 0 || fabs(f0 / -df - t_exit) > 1e-6 * (1 + t_exit)) continue;
            double fu = ((xx - ea.x) * fx + (xz - ea.z) * fz) / (fx * fx + fz * fz);
            if (fu >= -1e-12 && fu <= 1 + 1e-12) {
                exit = e;
                break;
            }
        }
        nav_vec3 a = m->verts[m->edge_vert[exit]], b = m->verts[m->edge_vert[next_edge(m, p, exit)]];
        double ex = (double)b.x - a.x, ez = (double)b.z - a.z;
        double u = ((xx - a.x) * ex + (xz - a.z) * ez) / (ex * ex + ez * ez);
        uint32_t next = NAV_MESH_NO_POLY;
        if (u <= 1e-12 || u >= 1 - 1e-12) {
            nav_vec3 v = u <= 1e-12 ? a : b;
            next = round_vertex(q, filter, p, v.x, v.z, dx, dz);
            xx = v.x;
            xz = v.z;
        } else if (passable(q, filter, exit)) {
            next = m->edge_poly[exit];
        }
        if (next == NAV_MESH_NO_POLY || next == came_from) {
            /* stopped: by the exit edge (a wall, a one-way step, a polygon the filter leaves out) */
            hit->t = t_exit;
            hit->point = nav_vec3_make((float)xx, nav__mesh_poly_height(m, p, xx, xz), (float)xz);
            hit->poly = p;
            hit->edge = exit - m->poly_first[p];
            double len = nav__length(ex, ez);
            hit->normal = nav_vec3_make((float)(-ez / len), 0, (float)(ex / len)); /* into p */
            break;
        }
        came_from = t_exit > t ? NAV_MESH_NO_POLY : p; /* no progress: do not bounce back */
        t = t_exit;
        p = next;
        if (guard == 4 * (uint64_t)m->poly_count + 16) status = NAV_FAILURE | NAV_CORRUPT_DATA;
    }
    hit->visited = visited;
    if (visited > max_polys && polys) status |= NAV_BUFFER_TOO_SMALL;
    return status;
}

/* The point (x, z) of polygon p in floats, on its floor: a point on a slanted edge, rounded to floats,
 * may fall a hair outside; then it is drawn towards the polygon's centre until it is in (a move's
 * result is a place the next move starts from). */
static nav_vec3 inside(const nav_mesh *m, uint32_t p, double x, double z)
{
    float fx = (float)x, fz = (float)z;
    if (!nav__mesh_poly_contains_xz(m, p, fx, fz)) {
        double cx = 0, cz = 0;
        uint32_t first = m->poly_first[p], n = m->poly_first[p + 1] - first;
        for (uint32_t e = first; e < first + n; e++)
            cx += m->verts[m->edge_vert[e]].x, cz += m->verts[m->edge_vert[e]].z;
        cx /= n, cz /= n;
        for (double t = 1e-7; t < 1; t *= 4) {
            fx = (float)(x + (cx - x) * t), fz = (float)(z + (cz - z) * t);
            if (nav__mesh_poly_contains_xz(m, p, fx, fz)) break;
        }
        if (!nav__mesh_poly_contains_xz(m, p, fx, fz))
            fx = (float)cx, fz = (float)cz; /* (the centre of a convex polygon) */
    }
    return nav_vec3_make(fx, nav__mesh_poly_height(m, p, fx, fz), fz);
}

nav_status nav_mesh_move_along_surface(nav_mesh_query *q, const nav_mesh_filter *filter, uint32_t start_poly,
                                       nav_vec3 start, nav_vec3 target, nav_vec3 *result,
                                       uint32_t *result_poly)
{
    if (!q || !result || !result_poly) return NAV_FAILURE | NAV_INVALID_PARAM;
    const nav_mesh *m = q->mesh;
    *result = start;
    *result_poly = start_poly;
    bool within;
    nav_status begun = walk_begin(q, filter, start_poly, start, target, &within);
    if (nav_failed(begun)) return begun;
    if (within) { /* (a step within its polygon: */
        *result = nav_vec3_make(target.x, nav__mesh_poly_height(m, start_poly, target.x, target.z),
                                target.z); /* what the walk would find, inside: as `inside` gives it) */
        return NAV_SUCCESS;
    }
    /* a breadth-first walk over the polygons whose portals reach into the circle round the move
     * (Detour's rule), keeping the point of them nearest the target; the queue is the corridor's
     * scratch, and a polygon is marked as seen in the table of pairs (by its id: the walk is a
     * search of its own, with its stamp) */
    nav__next_stamp(q);
    double cx = ((double)start.x + target.x) / 2, cz = ((double)start.z + target.z) / 2;
    double radius = nav__length((double)target.x - start.x, (double)target.z - start.z) / 2 + 1e-6;
    uint32_t head = 0, tail = 0;
    double best = INFINITY, bx = start.x, bz = start.z;
    uint32_t best_poly = start_poly;
    bool added;
    q->corridor[tail++] = start_poly;            /* the scratch holds a few polygons at least */
    nav__take(q, &q->pairs, start_poly, &added); /* and the table a few slots */
    while (head < tail) {
        uint32_t p = q->corridor[head++];
        double px, pz;
        nav__mesh_poly_closest_xz(m, p, target.x, target.z, &px, &pz);
        double d = nav__length(px - target.x, pz - target.z);
        if (d < best) {
            best = d;
            bx = px;
            bz = pz;
            best_poly = p;
            if (d == 0) break;
        }
        for (uint32_t e = m->poly_first[p]; e < m->poly_first[p + 1]; e++) {
            if (!passable(q, filter, e)) continue;
            uint32_t n = m->edge_poly[e];
            if (nav__id_find(&q->pairs, n)) continue;
            /* the portal's distance to the circle's centre */
            nav_vec3 a = m->verts[m->edge_vert[e]], b = m->verts[m->edge_vert[next_edge(m, p, e)]];
            double ex = (double)b.x - a.x, ez = (double)b.z - a.z, len2 = ex * ex + ez * ez;
            double s = len2 > 0 ? ((cx - a.x) * ex + (cz - a.z) * ez) / len2 : 0;
            s = s < 0 ? 0 : (s > 1 ? 1 : s);
            if (nav__length(a.x + ex * s - cx, a.z + ez * s - cz) > radius) continue;
            if (!nav__take(q, &q->pairs, n, &added) ||
                (tail == q->portal_capacity && !nav__reserve_path(q, tail + 1, 0))) {
                if (q->out_of_memory) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
                head = tail; /* out of room (max_bytes): the polygons walked so far */
                break;
            }
            q->corridor[tail++] = n;
        }
    }
    *result = inside(m, best_poly, bx, bz);
    *result_poly = best_poly;
    return q->out_of_room ? NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_OUT_OF_NODES : NAV_SUCCESS;
}

/* ---- walls near a point ---- */

nav_status nav_mesh_find_walls(nav_mesh_query *q, const nav_mesh_filter *filter, uint32_t poly,
                               nav_vec3 point, float range, nav_wall *out, uint32_t capacity, uint32_t *count)
{
    if (count) *count = 0;
    if (!q || !count || (!out && capacity) || !(range >= 0 && isfinite(range)))
        return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_status begun = walk_begin(q, filter, poly, point, point, NULL);
    if (nav_failed(begun)) return begun;
    const nav_mesh *m = q->mesh;
    /* a breadth-first walk over the polygons whose portals come within range, as a move's */
    nav__next_stamp(q);
    double x = point.x, z = point.z;
    uint32_t head = 0, tail = 0, n = 0;
    bool added, more = false;
    q->corridor[tail++] = poly;
    nav__take(q, &q->pairs, poly, &added);
    while (head < tail) {
        uint32_t p = q->corridor[head++];
        for (uint32_t e = m->poly_first[p]; e < m->poly_first[p + 1]; e++) {
            nav_vec3 a = m->verts[m->edge_vert[e]], b = m->verts[m->edge_vert[next_edge(m, p, e)]];
            if (nav__wall_distance((nav_wall){a, b}, x, z) > range) continue;
            if (!passable(q, filter, e)) {
                nav__keep_wall((nav_wall){a, b}, x, z, out, capacity, &n, &more);
                continue;
            }
            uint32_t next = m->edge_poly[e];
            if (nav__id_find(&q->pairs, next)) continue;
            if (!nav__take(q, &q->pairs, next, &added) ||
                (tail == q->portal_capacity && !nav__reserve_path(q, tail + 1, 0))) {
                if (q->out_of_memory) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
                head = tail; /* out of room (max_bytes): the walls of the polygons walked so far */
                break;
            }
            q->corridor[tail++] = next;
        }
    }
    *count = n;
    nav_status s = more ? NAV_SUCCESS | NAV_BUFFER_TOO_SMALL : NAV_SUCCESS;
    return q->out_of_room ? s | NAV_PARTIAL_RESULT | NAV_OUT_OF_NODES : s;
}
