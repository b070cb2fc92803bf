/* The funnel algorithm: the shortest path through a corridor of portals (Lee and Preparata's
 * funnel, in the form of Mikko Mononen's "Simple Stupid Funnel Algorithm", 2010). The funnel is
 * an apex and two sides through the left and right ends of the portals seen so far; each new
 * portal narrows a side, and when one side crosses the other, the end point it crossed becomes a
 * corner of the path and the new apex. Exact on grid meshes: every cross product of grid corners
 * and cell centres is computed without rounding. */
#include <math.h>

#include "mesh_internal.h"

/* The parameter along a -> b where it crosses the line of portal p (clamped to 0..1). */
static double crossing(const nav__portal *p, double ax, double az, double bx, double bz)
{
    double da = nav__cross(p->right_x, p->right_z, p->left_x, p->left_z, ax, az);
    double db = nav__cross(p->right_x, p->right_z, p->left_x, p->left_z, bx, bz);
    if (da == db) return 0;
    double t = da / (da - db);
    return t < 0 ? 0 : (t > 1 ? 1 : t);
}

/* Cost of the segment a -> b that starts in corridor[from] and ends on portal `to` (or, for the
 * last, at the goal): its length in each polygon between times that polygon's cost. */
static double segment_cost(const nav__portal *portals, const double *area_cost, uint32_t from, uint32_t to,
                           double ax, double az, double bx, double bz)
{
    double length = nav__length(bx - ax, bz - az);
    if (!area_cost) return length;
    double total = 0, t_in = 0;
    for (uint32_t i = from; i < to; i++) {
        double t = crossing(&portals[i], ax, az, bx, bz);
        if (t < t_in) t = t_in;
        total += (t - t_in) * length * area_cost[i];
        t_in = t;
    }
    return total + (1 - t_in) * length * area_cost[to];
}

/* Where the funnel reads its portals: an array, or a mesh's corridor (each portal worked out when the
 * funnel comes to it, so that a walk that stops after a few corners reads no more of it). */
typedef struct portal_source {
    const nav__portal *portals;   /* or null: */
    const nav_mesh_portal *given; /* or null (a caller's, worked out before: nav_mesh_corridor_portals): */
    const nav_mesh *mesh;
    const uint32_t *corridor;
    nav_vec3 end;
} portal_source;

/* Whether a walk may cross edge e of a polygon into it from polygon `from`. */
static bool crossable(const nav_mesh *m, uint32_t e, uint32_t from)
{
    uint32_t t = m->edge_twin[e];
    return m->edge_poly[e] == from && t != NAV_MESH_NO_POLY && !(m->edge_flags[t] & NAV__EDGE_ONE_WAY);
}

/* Whether edge e of a polygon (its edges first .. first + n - 1) lies in the line of its edge f. */
static bool in_line(const nav_mesh *m, uint32_t first, uint32_t n, uint32_t e, uint32_t f)
{
    nav_vec3 a = m->verts[m->edge_vert[f]], b = m->verts[m->edge_vert[first + (f - first + 1) % n]],
             c = m->verts[m->edge_vert[e]], d = m->verts[m->edge_vert[first + (e - first + 1) % n]];
    return nav__cross(a.x, a.z, b.x, b.z, c.x, c.z) == 0 && nav__cross(a.x, a.z, b.x, b.z, d.x, d.z) == 0;
}

/* Portal i of the source, of count (the last: the goal): the edges polygons i and i + 1 share in one
 * line that a walk may cross from the first into the second, or else the one vertex they share (a
 * way that passes through a vertex where two polygons meet at that point alone); false when they
 * share neither. */
static bool portal_of(const portal_source *s, uint32_t i, uint32_t count, nav__portal *out)
{
    if (s->portals) {
        *out = s->portals[i];
        return true;
    }
    if (s->given) {
        const nav_mesh_portal *g = &s->given[i];
        *out = (nav__portal){g->left_x, g->left_z, g->right_x, g->right_z, g->left_y, g->right_y};
        return true;
    }
    if (i + 1 == count) {
        *out = (nav__portal){s->end.x, s->end.z, s->end.x, s->end.z, s->end.y, s->end.y};
        return true;
    }
    const nav_mesh *m = s->mesh;
    uint32_t from = s->corridor[i], into = s->corridor[i + 1];
    if (into >= m->poly_count) return false;
    uint32_t first = m->poly_first[into], n = m->poly_first[into + 1] - first, k = 0;
    while (k < n && !crossable(m, first + k, from)) k++;
    if (k == n) { /* no edge: a vertex alone they share (a way through it), crossed at that point */
        for (uint32_t e = first; e < first + n; e++)
            for (uint32_t f = m->poly_first[from]; f < m->poly_first[from + 1]; f++)
                if (m->edge_vert[f] == m->edge_vert[e]) {
                    nav_vec3 v = m->verts[m->edge_vert[e]];
                    *out = (nav__portal){v.x, v.z, v.x, v.z, v.y, v.y};
                    return true;
                }
        return false;
    }
    /* the portal: the run of edges they share in one line (an edge of one split where others meet it) */
    uint32_t lo = k, hi = k;
    for (uint32_t step = 1; step < n; step++) {
        uint32_t e = first + (k + n - step) % n;
        if (!crossable(m, e, from) || !in_line(m, first, n, e, first + k)) break;
        lo = (k + n - step) % n;
    }
    for (uint32_t step = 1; step < n; step++) {
        uint32_t e = first + (k + step) % n;
        if (!crossable(m, e, from) || !in_line(m, first, n, e, first + k)) break;
        hi = (k + step) % n;
    }
    /* crossing into `into` through them, from the walker's left end to its right */
    nav_vec3 l = m->verts[m->edge_vert[first + lo]], r = m->verts[m->edge_vert[first + (hi + 1) % n]];
    *out = (nav__portal){l.x, l.z, r.x, r.z, l.y, r.y};
    return true;
}

/* What the funnel does with each corner it finds (at: the corridor's index of the polygon after it)
 * and with the goal (goal true): false stops it (the sink keeps why: no room, or enough found). */
typedef bool (*corner_sink)(void *ctx, double x, float y, double z, uint32_t at, bool goal);

/* The funnel over count portals of src from start, each corner (and the goal) to sink; *cost: the
 * way's cost (area_cost [opt]: with an array of portals only). Returns NAV_SUCCESS (the sink may
 * have stopped it), or NAV_FAILURE | NAV_INVALID_PARAM (two polygons of a corridor in a row that
 * share neither an edge nor a vertex). */
static nav_status funnel(nav_vec3 start, const portal_source *src, const double *area_cost, uint32_t count,
                         corner_sink sink, void *ctx, double *cost)
{
    const nav__portal *portals = src->portals;
    *cost = 0;
    double apex_x = start.x, apex_z = start.z;
    double left_x = apex_x, left_z = apex_z, right_x = apex_x, right_z = apex_z;
    uint32_t apex_at = 0; /* the corridor polygon the apex lies in (for a corner: the one after it) */
    uint32_t left_at = 0, right_at = 0;
    float left_y = start.y, right_y = start.y;
    for (uint32_t i = 0; i < count; i++) {
        nav__portal p;
        if (!portal_of(src, i, count, &p)) return NAV_FAILURE | NAV_INVALID_PARAM;
        int view = nav__portal_view(apex_x, apex_z, p.right_x, p.right_z, p.left_x, p.left_z);
        if (view == NAV__SEES_ON && i + 1 < count) {
            /* the apex lies in the next polygon too and sees all of it: the funnel starts afresh
             * (narrowed to the portal's two ends, its sides would point opposite ways, and the
             * next portal's end on the line would look like a crossing) */
            left_x = right_x = apex_x;
            left_z = right_z = apex_z;
            left_at = right_at = i;
            apex_at = i + 1;
            continue;
        }
        /* a portal on a line through the apex counts as its near end */
        if (view == NAV__SEES_U) p.left_x = p.right_x, p.left_z = p.right_z, p.left_y = p.right_y;
        if (view == NAV__SEES_W) p.right_x = p.left_x, p.right_z = p.left_z, p.right_y = p.left_y;
        /* the right side: narrow it when the new right end lies inside the funnel */
        if (nav__cross(apex_x, apex_z, right_x, right_z, p.right_x, p.right_z) >= 0) {
            if ((apex_x == right_x && apex_z == right_z) ||
                nav__cross(apex_x, apex_z, left_x, left_z, p.right_x, p.right_z) < 0) {
                right_x = p.right_x;
                right_z = p.right_z;
                right_y = p.right_y;
                right_at = i;
            } else {
                /* the right end crosses the left side: the left end is a corner (unless it is the goal) */
                if (left_at + 1 == count) break;
                *cost += segment_cost(portals, area_cost, apex_at, left_at, apex_x, apex_z, left_x, left_z);
                if (!sink(ctx, left_x, left_y, left_z, left_at + 1, false)) return NAV_SUCCESS;
                apex_x = right_x = left_x;
                apex_z = right_z = left_z;
                right_y = left_y;
                apex_at = left_at + 1;
                right_at = left_at;
                i = left_at; /* the loop moves on to the portal after the corner's */
                continue;
            }
        }
        /* the left side, the same way round */
        if (nav__cross(apex_x, apex_z, left_x, left_z, p.left_x, p.left_z) <= 0) {
            if ((apex_x == left_x && apex_z == left_z) ||
                nav__cross(apex_x, apex_z, right_x, right_z, p.left_x, p.left_z) > 0) {
                left_x = p.left_x;
                left_z = p.left_z;
                left_y = p.left_y;
                left_at = i;
            } else {
                if (right_at + 1 == count) break;
                *cost +=
                    segment_cost(portals, area_cost, apex_at, right_at, apex_x, apex_z, right_x, right_z);
                if (!sink(ctx, right_x, right_y, right_z, right_at + 1, false)) return NAV_SUCCESS;
                apex_x = left_x = right_x;
                apex_z = left_z = right_z;
                left_y = right_y;
                apex_at = right_at + 1;
                left_at = right_at;
                i = right_at;
                continue;
            }
        }
    }
    nav__portal goal;
    (void)portal_of(src, count - 1, count, &goal); /* (the goal's: no edge) */
    *cost += segment_cost(portals, area_cost, apex_at, count - 1, apex_x, apex_z, goal.left_x, goal.left_z);
    (void)sink(ctx, goal.left_x, goal.left_y, goal.left_z, count - 1, true);
    return NAV_SUCCESS;
}

/* nav__funnel's sink: each corner (unless it is the point before: an apex that had not moved yet)
 * and the goal appended to the path. */
typedef struct path_sink {
    nav_path *out;
    uint8_t *flags;
    const uint32_t *corridor;
    bool failed;
} path_sink;

static bool to_path(void *ctx, double x, float y, double z, uint32_t at, bool goal)
{
    path_sink *s = ctx;
    nav_vec3 last = s->out->points[s->out->count - 1];
    if (!goal && (double)last.x == x && (double)last.z == z) return true;
    if (nav_failed(nav_path_push(s->out, nav_vec3_make((float)x, y, (float)z), s->corridor[at])))
        return !(s->failed = true);
    s->flags[s->out->count - 1] = goal ? NAV_MESH_POINT_END : NAV_MESH_POINT_CORNER;
    return true;
}

nav_status nav__funnel(nav_vec3 start, const nav__portal *portals, const uint32_t *corridor,
                       const double *area_cost, uint32_t count, nav_path *out, uint8_t *flags, double *cost)
{
    *cost = 0;
    if (nav_failed(nav_path_push(out, start, corridor[0]))) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    flags[out->count - 1] = NAV_MESH_POINT_START; /* (a path of one point is start and end: the goal's) */
    path_sink sink = {out, flags, corridor, false};
    (void)funnel(start, &(portal_source){.portals = portals}, area_cost, count, to_path, &sink, cost);
    return sink.failed ? NAV_FAILURE | NAV_OUT_OF_MEMORY : NAV_SUCCESS;
}

static bool finite3(nav_vec3 v)
{
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

/* nav_mesh_corridor_corners' sink: corners into an array, until it is full. */
typedef struct corner_list {
    nav_vec3 start;
    nav_vec3 *corners;
    uint32_t capacity, count;
    bool reached;
} corner_list;

static bool to_list(void *ctx, double x, float y, double z, uint32_t at, bool goal)
{
    (void)at;
    corner_list *l = ctx;
    nav_vec3 last = l->count ? l->corners[l->count - 1] : l->start;
    if (!goal && (double)last.x == x && (double)last.z == z) return true;
    if (l->count == l->capacity) return false;
    l->corners[l->count++] = nav_vec3_make((float)x, y, (float)z);
    l->reached = goal;
    return l->count < l->capacity || goal;
}

nav_status nav_mesh_corridor_corners(const nav_mesh *mesh, const uint32_t *corridor, uint32_t count,
                                     nav_vec3 start, nav_vec3 end, nav_vec3 *corners, uint32_t capacity,
                                     uint32_t *corner_count, bool *reached)
{
    if (corner_count) *corner_count = 0;
    if (reached) *reached = false;
    if (!mesh || !corridor || !count || !corners || !capacity || !corner_count || !reached ||
        !finite3(start) || !finite3(end) || corridor[0] >= mesh->poly_count ||
        !nav__mesh_poly_contains_xz(mesh, corridor[0], start.x, start.z))
        return NAV_FAILURE | NAV_INVALID_PARAM;
    corner_list list = {start, corners, capacity, 0, false};
    double cost;
    nav_status s = funnel(start, &(portal_source){.mesh = mesh, .corridor = corridor, .end = end}, NULL,
                          count, to_list, &list, &cost);
    if (nav_failed(s)) return s;
    *corner_count = list.count, *reached = list.reached;
    return NAV_SUCCESS;
}

nav_status nav_mesh_corridor_portals(const nav_mesh *mesh, const uint32_t *corridor, uint32_t count,
                                     nav_vec3 end, nav_mesh_portal *portals)
{
    if (!mesh || !corridor || !count || !portals || !finite3(end) || corridor[0] >= mesh->poly_count)
        return NAV_FAILURE | NAV_INVALID_PARAM;
    portal_source src = {.mesh = mesh, .corridor = corridor, .end = end};
    for (uint32_t i = 0; i < count; i++) {
        nav__portal p;
        if (!portal_of(&src, i, count, &p)) return NAV_FAILURE | NAV_INVALID_PARAM;
        /* (exact: the ends are the mesh's vertices, or end, all floats) */
        portals[i] = (nav_mesh_portal){(float)p.left_x,  (float)p.left_z, (float)p.right_x,
                                       (float)p.right_z, p.left_y,        p.right_y};
    }
    return NAV_SUCCESS;
}

nav_status nav_mesh_portal_corners(const nav_mesh_portal *portals, uint32_t count, nav_vec3 start,
                                   nav_vec3 *corners, uint32_t capacity, uint32_t *corner_count,
                                   bool *reached)
{
    if (corner_count) *corner_count = 0;
    if (reached) *reached = false;
    if (!portals || !count || !corners || !capacity || !corner_count || !reached || !finite3(start))
        return NAV_FAILURE | NAV_INVALID_PARAM;
    corner_list list = {start, corners, capacity, 0, false};
    double cost;
    nav_status s = funnel(start, &(portal_source){.given = portals}, NULL, count, to_list, &list, &cost);
    if (nav_failed(s)) return s;
    *corner_count = list.count, *reached = list.reached;
    return NAV_SUCCESS;
}
