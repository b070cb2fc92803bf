/* Mesh queries: the query object and the corridor search of the funnel mode.
 *
 * The search is A* over portal crossings: a node is an edge of the mesh, entered from the polygon
 * across it, and holds the point where the path crosses it. That point is not the portal's midpoint
 * (Detour's choice, which makes paths up to 25% longer than optimal on its own meshes) but the
 * point of the portal that makes the way there and on to the goal shortest, and g follows where the
 * funnel will go: where every area costs the same, a node keeps the funnel of the portals from the
 * start to its edge (the path's last bend, its apex, and the two sides), so that g is the exact
 * length of the shortest path through the node's corridor, and f the shortest way through the
 * node's edge to the goal as far as the straight line tells. An edge keeps up to two funnels,
 * when neither is shorter at both of its ends (two ways round an obstacle). The corridor found is
 * then pulled straight by the funnel (funnel.c). */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "query_internal.h"

const uint8_t *nav_mesh_query_point_flags(const nav_mesh_query *q)
{
    return q ? q->point_flags : NULL;
}

const uint32_t *nav_mesh_query_point_links(const nav_mesh_query *q)
{
    return q ? q->point_link : NULL;
}

const uint32_t *nav_mesh_query_corridor(const nav_mesh_query *q, uint32_t *count)
{
    if (count) *count = q ? q->corridor_count : 0;
    return q ? q->corridor : NULL;
}

/* ---- landmarks ------------------------------------------------------------------------------- */

static double most(double a, double b)
{
    return a > b ? a : b;
}

/* Four floats at once (GNU C vector extensions: SSE on x86, NEON on ARM, scalar elsewhere). */
#if defined(__GNUC__) && !defined(__clang__)
/* (these vectors pass only between this file's static functions, so the ABI GCC warns of on targets
 * without SSE, 32-bit x86 among them, is nobody else's) */
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
typedef float nav__f4 __attribute__((vector_size(16)));
typedef int32_t nav__i4 __attribute__((vector_size(16)));

static nav__f4 f4_load(const float *p)
{
    nav__f4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* a where mask is set, else b */
static nav__f4 f4_select(nav__i4 mask, nav__f4 a, nav__f4 b)
{
    return (nav__f4)(((nav__i4)a & mask) | ((nav__i4)b & ~mask));
}

static nav__f4 f4_max(nav__f4 a, nav__f4 b)
{
    return f4_select(a > b, a, b);
}

static nav__f4 f4_min(nav__f4 a, nav__f4 b)
{
    return f4_select(a < b, a, b);
}

/* v's lanes in the order a, b, c, d */
#if defined(__clang__)
#define F4_SHUFFLE(v, a, b, c, d) __builtin_shufflevector(v, v, a, b, c, d)
#else
#define F4_SHUFFLE(v, a, b, c, d) __builtin_shuffle(v, (nav__i4){a, b, c, d})
#endif

static nav__f4 f4_all(float x)
{
    return (nav__f4){x, x, x, x};
}

/* Whether this search uses the mesh's landmarks, and the bounds of each one's distance to the goal
 * g in polygon P (convex). Above: through any vertex v of P, d(v) + |v - g|. Below: any vertex v
 * of P, d(v) - |v - g| (the triangle inequality), and the least over the ways into P: a path
 * comes in across an edge v1-v2 of P at some point y, where d(y) >= max(d1 - |v1 - y|,
 * d2 - |v2 - y|) >= (d1 + d2 - |v1 - v2|) / 2, and |y - g| is at least g's distance to the
 * edge's line. A landmark in P itself is |L - g| away. A vertex that does not know its distance to
 * a landmark (-1) says nothing of it. With one-way steps the distances hold one way: no bound
 * above (landmark_bound then only uses the one below), and an edge that may not be crossed into P
 * is no way in.
 *
 * The bounds are worked out in floats, four landmarks at once, then widened by what that can cost:
 * every value on the way is at most twice `big` (the longest landmark distance, or a length in P),
 * and a bound goes through at most eight roundings, each of at most 2^-24 of its size. */
void nav__set_landmarks(nav_mesh_query *q)
{
    const nav_mesh *m = q->mesh;
    const nav__search_ends *ends = &q->st.ends;
    q->landmarks = m->landmark_count > 0 && !q->any_way;
    if (!q->landmarks) return;
    uint32_t k = m->landmark_count, k4 = (k + 3) / 4, p = ends->goal_poly;
    uint32_t first = m->poly_first[p], n = m->poly_first[p + 1] - first;
    double gx = ends->goal.x, gz = ends->goal.z;
    /* per corner: its row of distances (padded with -1: unknown) and its distance to g; per edge:
     * its length if it is a way in (else -1) and g's distance to its line */
    float row[NAV_MESH_MAX_POLY_VERTS][NAV_MESH_MAX_LANDMARKS];
    float r[NAV_MESH_MAX_POLY_VERTS], len[NAV_MESH_MAX_POLY_VERTS], across[NAV_MESH_MAX_POLY_VERTS];
    double big = m->landmark_slack * 0x1p22; /* at least the longest landmark distance */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = m->edge_vert[first + i];
        memcpy(row[i], m->landmark_dist + (size_t)v * k, k * sizeof(float));
        for (uint32_t l = k; l < 4 * k4; l++) row[i][l] = -1;
        double d = nav__dist(gx, gz, m->verts[v].x, m->verts[v].z);
        r[i] = (float)d;
        big = most(big, d);
    }
    for (uint32_t i = 0; i < n; i++) {
        nav_vec3 a = m->verts[m->edge_vert[first + i]],
                 b = m->verts[m->edge_vert[first + (i + 1 < n ? i + 1 : 0)]];
        uint32_t twin = m->edge_twin[first + i];
        bool way_in = twin != NAV_MESH_NO_POLY && !(m->edge_flags[twin] & NAV__EDGE_ONE_WAY);
        double l = way_in ? nav__dist(a.x, a.z, b.x, b.z) : -1;
        len[i] = (float)l;
        across[i] = l > 0 ? (float)(fabs(nav__cross(a.x, a.z, b.x, b.z, gx, gz)) / l) : 0;
        big = most(big, l);
    }
    /* corner by corner over the two end vertices' rows of distances (k1, k2: they know them) */
    nav__f4 lo[NAV_MESH_MAX_LANDMARKS / 4], hi[NAV_MESH_MAX_LANDMARKS / 4],
        way_lo[NAV_MESH_MAX_LANDMARKS / 4];
    nav__f4 zero = f4_all(0), none = f4_all(-INFINITY);
    for (uint32_t b = 0; b < k4; b++) lo[b] = none, hi[b] = way_lo[b] = f4_all(INFINITY);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = i + 1 < n ? i + 1 : 0;
        nav__f4 ri = f4_all(r[i]), rj = f4_all(r[j]), li = f4_all(len[i]), ai = f4_all(across[i]);
        for (uint32_t b = 0; b < k4; b++) {
            nav__f4 d1 = f4_load(row[i] + 4 * b);
            nav__i4 k1 = d1 >= zero;
            lo[b] = f4_select(k1, f4_max(lo[b], d1 - ri), lo[b]);
            hi[b] = f4_select(k1, f4_min(hi[b], d1 + ri), hi[b]);
            if (len[i] < 0) continue;
            /* a way in across this edge */
            nav__f4 d2 = f4_load(row[j] + 4 * b);
            nav__i4 k2 = d2 >= zero;
            nav__f4 in = f4_select(k1, d1 - ri, none);
            in = f4_select(k2, f4_max(in, d2 - rj), in);
            in = f4_select(k1 & k2, f4_max(in, (d1 + d2 - li) * f4_all(0.5f) + ai), in);
            way_lo[b] = f4_min(way_lo[b], in);
        }
    }
    double eps = big * 0x1p-19;
    for (uint32_t l = 0; l < k; l++) {
        if (m->landmark_poly[l] == p) {
            q->goal_lo[l] = q->goal_hi[l] = nav__dist(m->landmark_x[l], m->landmark_z[l], gx, gz);
            continue;
        }
        double below = lo[l / 4][l % 4], way = way_lo[l / 4][l % 4];
        q->goal_lo[l] = (way < INFINITY && way > below ? way : below) - eps;
        q->goal_hi[l] = hi[l / 4][l % 4] + eps;
    }
    if (m->one_way)
        for (uint32_t l = 0; l < k; l++) q->goal_hi[l] = INFINITY;
    /* the same as floats rounded outwards, for landmark_bound; its float subtractions round a
     * positive result by at most 2^-24 of the larger operand: a goal bound, or a distance (at most
     * the longest, which the mesh's slack is 4 * 2^-24 of) */
    double largest = 0;
    for (uint32_t l = 0; l < k; l++) {
        float f = (float)q->goal_lo[l], g = (float)q->goal_hi[l];
        q->goal_lo_f[l] = f > q->goal_lo[l] ? nextafterf(f, -INFINITY) : f;
        q->goal_hi_f[l] = g < q->goal_hi[l] ? nextafterf(g, INFINITY) : g;
        if (fabs(q->goal_lo[l]) < INFINITY) largest = most(largest, fabs(q->goal_lo[l]));
        if (fabs(q->goal_hi[l]) < INFINITY) largest = most(largest, fabs(q->goal_hi[l]));
    }
    q->landmark_slack = m->landmark_slack * 1.5 + largest * 0x1p-22;
}

/* The landmarks' lower bound of the length from vertex v to the goal (0 when they know nothing):
 * the most by which v's distance to a landmark lies outside the goal's bounds (a distance v does
 * not know, -1, counts 0). */
static double landmark_bound(const nav_mesh_query *q, uint32_t v)
{
    const nav_mesh *m = q->mesh;
    uint32_t k = m->landmark_count, l = 0;
    const float *d = m->landmark_dist + (size_t)v * k;
    nav__f4 best = {0, 0, 0, 0}, zero = {0, 0, 0, 0};
    for (; l + 4 <= k; l += 4) {
        nav__f4 dl = f4_load(d + l);
        nav__f4 out = f4_max(f4_load(q->goal_lo_f + l) - dl, dl - f4_load(q->goal_hi_f + l));
        best = f4_max(best, f4_select(dl >= zero, out, zero));
    }
    best = f4_max(best, F4_SHUFFLE(best, 2, 3, 0, 1));
    best = f4_max(best, F4_SHUFFLE(best, 1, 0, 3, 2));
    float h = best[0];
    for (; l < k; l++) {
        if (d[l] < 0) continue;
        float below = q->goal_lo_f[l] - d[l], above = d[l] - q->goal_hi_f[l];
        h = below > h ? below : h;
        h = above > h ? above : h;
    }
    double bound = h - q->landmark_slack;
    return bound > 0 ? bound : 0;
}

double nav__vert_bound(nav_mesh_query *q, uint32_t v)
{
    bool added;
    nav__id_slot *s = nav__take(q, &q->vert_h, v, &added);
    if (!s) return 0; /* out of scratch: the search stops after this step, and 0 is a bound */
    if (added) s->number = landmark_bound(q, v);
    return s->number;
}

/* ---- the corridor search --------------------------------------------------------------------- */

/* The point of segment a-b that makes |p - x| + |x - g| least: where the line from p to g (or to g
 * mirrored in the portal's line, when g lies on p's side) meets the portal's line, clamped to the
 * segment (the sum is convex along the line). */
static void best_crossing(double px, double pz, double gx, double gz, double ax, double az, double bx,
                          double bz, double *x, double *z)
{
    double ex = bx - ax, ez = bz - az, len2 = ex * ex + ez * ez;
    if (len2 == 0) {
        *x = ax;
        *z = az;
        return;
    }
    double sp = ex * (pz - az) - ez * (px - ax), sg = ex * (gz - az) - ez * (gx - ax);
    if ((sp > 0 && sg > 0) || (sp < 0 && sg < 0)) {
        /* mirror g in the line */
        double k = 2 * sg / len2;
        gx += k * ez;
        gz -= k * ex;
        sg = -sg;
    }
    double t;
    if (sp == sg) {
        t = ((px - ax) * ex + (pz - az) * ez) / len2; /* p on the line: the nearest point to it */
    } else {
        double u = sp / (sp - sg); /* along p -> g */
        double cx = px + (gx - px) * u, cz = pz + (gz - pz) * u;
        t = ((cx - ax) * ex + (cz - az) * ez) / len2;
    }
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    *x = ax + ex * t;
    *z = az + ez * t;
    if (t == 0) *x = ax, *z = az;
    if (t == 1) *x = bx, *z = bz;
}

static uint64_t f_key(double f)
{
    return nav_heap_key_exact(f);
}

nav_status nav__query_set_costs(nav_mesh_query *q, const nav_mesh_filter *filter, bool *leaves_out)
{
    const nav_mesh *m = q->mesh;
    bool override = filter && filter->area_cost;
    *leaves_out = filter && (filter->include_flags || filter->exclude_flags);
    if (!override && q->costs_from_mesh) return NAV_SUCCESS; /* as the last search left them */
    q->costs_from_mesh = 0;
    if (override) {
        if (!q->own_cost) {
            q->out_of_room = q->out_of_memory = 0;
            q->own_cost = nav__query_take(q, 256 * sizeof *q->own_cost);
            if (!q->own_cost) return NAV_FAILURE | (q->out_of_room ? NAV_OUT_OF_NODES : NAV_OUT_OF_MEMORY);
        }
        for (int t = 0; t < 256; t++) {
            double c = m->area_cost[t];
            if (m->area_cost[t] < INFINITY) {
                c = filter->area_cost[t];
                if (!nav_terrain_cost_valid(c)) return NAV_FAILURE | NAV_INVALID_PARAM;
                *leaves_out |= !(c < INFINITY);
            }
            q->own_cost[t] = c;
        }
        q->area_cost = q->own_cost;
    } else {
        q->area_cost = m->area_cost;
    }
    /* the cheapest cost, and the one cost of every area in use or 0 when they differ */
    q->min_cost = INFINITY;
    q->one_cost = -1;
    for (int t = 0; t < 256; t++) {
        double c = q->area_cost[t];
        if (!(c < INFINITY)) continue;
        if (c < q->min_cost) q->min_cost = c;
        q->one_cost = q->one_cost < 0 || q->one_cost == c ? c : 0;
    }
    if (!(q->min_cost < INFINITY)) q->min_cost = 1;
    q->costs_from_mesh = !override;
    return NAV_SUCCESS;
}

/* ---- off-mesh links -------------------------------------------------------------------------- */

static bool way_allowed(const nav_mesh_query *q, const nav_mesh_filter *f, uint32_t w)
{
    const nav_mesh *m = q->mesh;
    const nav__mesh_link *k = &m->links[w >> 1];
    if (f && ((f->include_flags && !(k->flags & f->include_flags)) || (k->flags & f->exclude_flags)))
        return false;
    return nav__mesh_poly_allowed(q, f, k->start_poly) && nav__mesh_poly_allowed(q, f, k->end_poly);
}

/* Which ways this search may take, and, when one of them is a shortcut (cheaper than the straight
 * line between its ends at the cheapest cost), a lower bound of the cost from each way's near end
 * to the goal through it: Dijkstra over the ways, O(ways^2), only then. */
static void prepare_links(nav_mesh_query *q, const nav_mesh_filter *f, double gx, double gz, double min_cost)
{
    const nav_mesh *m = q->mesh;
    uint32_t ways = 2 * m->link_count;
    q->shortcuts = 0;
    q->any_way = 0;
    for (uint32_t w = 0; w < ways; w++) {
        q->way_allowed[w] = (uint8_t)((!(w & 1) || m->links[w >> 1].bidirectional) && way_allowed(q, f, w));
        if (!q->way_allowed[w]) continue;
        q->any_way = 1;
        nav_vec3 a = nav__way_from(m, w), b = nav__way_to(m, w);
        if (m->links[w >> 1].cost < nav__length((double)b.x - a.x, (double)b.z - a.z) * min_cost)
            q->shortcuts = 1;
    }
    if (!q->shortcuts) return;
    /* link_lb[w]: its cost, then from its far end either straight to the goal or onto another way;
     * link_stamp marks the settled ways (this scratch use ends before the searches stamp them) */
    for (uint32_t w = 0; w < ways; w++) {
        nav_vec3 b = nav__way_to(m, w);
        q->link_lb[w] =
            q->way_allowed[w] ? m->links[w >> 1].cost + nav__length(gx - b.x, gz - b.z) * min_cost : INFINITY;
        q->link_stamp[w] = 0;
    }
    for (;;) {
        uint32_t best = UINT32_MAX;
        for (uint32_t w = 0; w < ways; w++)
            if (!q->link_stamp[w] && q->link_lb[w] < INFINITY &&
                (best == UINT32_MAX || q->link_lb[w] < q->link_lb[best]))
                best = w;
        if (best == UINT32_MAX) break;
        q->link_stamp[best] = 1;
        /* a way v whose far end reaches best's near end */
        nav_vec3 a = nav__way_from(m, best);
        for (uint32_t v = 0; v < ways; v++) {
            if (q->link_stamp[v] || !q->way_allowed[v]) continue;
            nav_vec3 b = nav__way_to(m, v);
            double lb = m->links[v >> 1].cost + nav__length((double)a.x - b.x, (double)a.z - b.z) * min_cost +
                        q->link_lb[best];
            if (lb < q->link_lb[v]) q->link_lb[v] = lb;
        }
    }
    for (uint32_t w = 0; w < ways; w++) q->link_stamp[w] = 0;
}

double nav__h_via_ways(const nav_mesh_query *q, double x, double z, double h, double min_cost)
{
    const nav_mesh *m = q->mesh;
    for (uint32_t w = 0; w < 2 * m->link_count; w++) {
        if (!q->way_allowed[w]) continue;
        nav_vec3 a = nav__way_from(m, w);
        double via = nav__length((double)a.x - x, (double)a.z - z) * min_cost + q->link_lb[w];
        if (via < h) h = via;
    }
    return h;
}

/* ---- the corridor search --------------------------------------------------------------------- */

/* The id of node n (as its record says, without the closed mark). */
static uint32_t node_id(const search_node *n)
{
    return n->id & ~NAV__NODE_CLOSED;
}

/* The index in q->nodes of node id in this search, or NAV__ID_NONE. */
static uint32_t node_index(const nav_mesh_query *q, uint32_t id)
{
    const nav__id_slot *pair = nav__id_find(&q->pairs, id >> 1);
    return pair ? pair->node[id & 1] : NAV__ID_NONE;
}

/* The edge of a corridor-search node id (one of its two nodes); for the start, the goal and the
 * ways: the edge count, plus one, plus two and the way. */
static uint32_t node_edge(const nav_mesh_query *q, uint32_t id)
{
    uint32_t edges = q->mesh->edge_count;
    return id < 2 * edges ? id >> 1 : id - edges;
}

/* The polygon a corridor-search node lies in: an edge's owner, the start's, a way's far end's. */
static uint32_t node_poly(const nav_mesh_query *q, uint32_t id, uint32_t start_poly)
{
    const nav_mesh *m = q->mesh;
    id = node_edge(q, id);
    if (id < m->edge_count) return m->edge_owner[id];
    if (id == m->edge_count) return start_poly;
    return nav__way_to_poly(m, id - m->edge_count - 2);
}

/* The two vertices of edge e in its owner's winding (its start and its end). */
static void edge_verts(const nav_mesh *m, uint32_t e, nav_vec3 *from, nav_vec3 *to)
{
    uint32_t poly = m->edge_owner[e], first = m->poly_first[poly];
    uint32_t next = e + 1 < m->poly_first[poly + 1] ? e + 1 : first;
    *from = m->verts[m->edge_vert[e]];
    *to = m->verts[m->edge_vert[next]];
}

/* Builds the corridor from the chain of nodes ending at `last` (the index of an edge node, a way
 * node, or the start node) into q->corridor and q->portals (a link crossed: a portal of one point,
 * its near end, with portal_way set), with the goal point as the last portal, and makes room for
 * the path's points. Returns the corridor's length, 0 when the scratch cannot grow. */
static uint32_t build_corridor(nav_mesh_query *q, uint32_t last, uint32_t start_poly, nav_vec3 goal)
{
    const nav_mesh *m = q->mesh;
    uint32_t n = 0;
    for (uint32_t at = last; at != 0; at = q->nodes[at].parent) n++; /* the start is node 0 */
    /* n edges or ways crossed: n + 1 polygons, n portals and the goal; a point at most a polygon
     * and one a stretch between links */
    if (!nav__reserve_result(q, n + 1, 2 * n + 6)) return 0;
    uint32_t i = n;
    for (uint32_t at = last; at != 0; at = q->nodes[at].parent) {
        i--;
        uint32_t id = node_id(&q->nodes[at]), poly = node_poly(q, id, start_poly);
        q->corridor[i + 1] = poly;
        uint32_t e = node_edge(q, id);
        if (e > m->edge_count + 1) {
            uint32_t w = e - m->edge_count - 2;
            nav_vec3 a = nav__way_from(m, w);
            q->portals[i] = (nav__portal){a.x, a.z, a.x, a.z, a.y, a.y};
            q->portal_way[i] = w;
            continue;
        }
        /* crossing into poly through its edge e, which runs from the walker's left end to the right */
        nav_vec3 l, r;
        edge_verts(m, e, &l, &r);
        q->portals[i] = (nav__portal){l.x, l.z, r.x, r.z, l.y, r.y};
        q->portal_way[i] = NAV_MESH_NO_POLY;
    }
    q->corridor[0] = start_poly;
    q->portals[n] = (nav__portal){goal.x, goal.z, goal.x, goal.z, goal.y, goal.y};
    q->portal_way[n] = NAV_MESH_NO_POLY;
    q->corridor_count = n + 1;
    return n + 1;
}

/* Pulls the corridor straight into out: one funnel a stretch between links, each link's near end
 * the last point of a stretch and its far end the first of the next. Returns the status and the
 * cost (the funnels' costs and the links'). */
static nav_status pull_corridor(nav_mesh_query *q, nav_vec3 start, uint32_t count, bool uniform,
                                nav_path *out, double *cost)
{
    const nav_mesh *m = q->mesh;
    nav_path_clear(out);
    *cost = 0;
    uint32_t from = 0;
    nav_vec3 at = start;
    for (uint32_t i = 0; i < count; i++) {
        if (i + 1 < count && q->portal_way[i] == NAV_MESH_NO_POLY) continue;
        /* a stretch: corridor[from .. i], ending at portal i (a link's near end, or the goal) */
        uint32_t base = out->count;
        double piece;
        nav_status fs =
            nav__funnel(at, q->portals + from, q->corridor + from, uniform ? NULL : q->corridor_cost + from,
                        i - from + 1, out, q->point_flags, &piece);
        if (nav_failed(fs)) return fs;
        *cost += piece;
        for (uint32_t p = base; p < out->count; p++) q->point_link[p] = NAV_MESH_NO_POLY;
        if (base > 0) q->point_flags[base] = NAV_MESH_POINT_LINK_END; /* where the link came out */
        if (i + 1 < count) {
            uint32_t w = q->portal_way[i];
            q->point_flags[out->count - 1] = NAV_MESH_POINT_LINK_START;
            q->point_link[out->count - 1] = w >> 1;
            *cost += m->links[w >> 1].cost;
            at = nav__way_to(m, w);
            from = i + 1;
        }
    }
    out->cost = *cost;
    return NAV_SUCCESS;
}

/* Makes node id c (reached from node `from`, an index; its f set) and puts it on the open list
 * (again, when it was there at a higher f: the open list is lazy, corridor_run passes over the
 * entry left behind). pair [opt]: the slot of id's pair, when the caller has it. False when the
 * scratch cannot grow. */
static inline __attribute__((always_inline)) bool open_node(nav_mesh_query *q, nav__id_slot *pair,
                                                            uint32_t id, uint32_t from, search_node c)
{
    if (!pair) {
        bool added;
        pair = nav__take(q, &q->pairs, id >> 1, &added);
        if (!pair) return false;
        if (added) pair->node[0] = pair->node[1] = NAV__ID_NONE;
    }
    uint32_t at = pair->node[id & 1];
    if (at == NAV__ID_NONE) {
        if (q->node_count == q->node_capacity && !nav__grow_nodes(q)) return false;
        at = pair->node[id & 1] = q->node_count++;
    }
    if (q->open.count == q->open.capacity && !nav__grow_heap(q, &q->open)) return false;
    c.parent = from;
    c.id = id;
    q->nodes[at] = c;
    nav_heap_push(&q->open, f_key(c.f), nav_heap_tie_larger_g(c.g), id);
    return true;
}

/* Opens node id as c unless it is known at no more f or already expanded. An expanded node is never
 * reopened (g following the funnel is not a consistent cost, and a reopened node could become its
 * own ancestor); on the shared maps no path changed for it. */
static void relax(nav_mesh_query *q, uint32_t id, uint32_t from, search_node c)
{
    uint32_t at = node_index(q, id);
    if (at != NAV__ID_NONE && ((q->nodes[at].id & NAV__NODE_CLOSED) || c.f >= q->nodes[at].f)) return;
    open_node(q, NULL, id, from, c);
}

/* A node that sees all of its polygon from its own point (the start, a link's far end): an apex
 * whose two sides are open. */
static search_node point_node(double g, double x, double z)
{
    return (search_node){.g = g,
                         .x = x,
                         .z = z,
                         .apex_x = (float)x,
                         .apex_z = (float)z,
                         .apex_g = g,
                         .right_x = (float)x,
                         .right_z = (float)z,
                         .left_x = (float)x,
                         .left_z = (float)z};
}

/* Narrows [*lo, *hi], a range of t along an edge, to where (1 - t) a + t b >= 0 (a, b: a ray's
 * cross products at the edge's two ends). */
static void clip(double a, double b, double *lo, double *hi)
{
    if (a >= 0 && b >= 0) return;
    if (a < 0 && b < 0) {
        *lo = 1, *hi = 0;
        return;
    }
    double t = a / (a - b);
    if (a < 0) {
        if (t > *lo) *lo = t;
    } else if (t < *hi) {
        *hi = t;
    }
}

/* ---- the funnel a node keeps ------------------------------------------------------------------
 * Where every area costs the same, a node keeps the funnel (funnel.c) of the portals from the
 * start to its edge: the apex, the path's last bend, at g apex_g, and two sides, rays from the
 * apex through a right and a left vertex (a side through the apex itself is open). The funnel of
 * a successor is one more step, unless the new portal lies wholly beyond a side: the path then
 * bends at that side's vertex, and the funnel is replayed from there over the portals since, as
 * the funnel algorithm restarts after a corner. g is then the exact length of the shortest path
 * through the node's corridor to the part of its edge the apex sees. (Without the replay, the
 * funnel from the corner through the exit alone, a fifth fewer instructions on brc000d, paths
 * came out 0.25% longer on brc501d and up to 5% on single ones.) */

/* The exit portal from right end (ux, uz) to left end (wx, wz), or portal k of a replay. */
typedef struct portal_xz {
    double ux, uz, wx, wz;
} portal_xz;

/* Makes (x, z) the apex, both sides open. */
static void set_apex(search_node *c, float x, float z)
{
    c->apex_x = c->right_x = c->left_x = x;
    c->apex_z = c->right_z = c->left_z = z;
}

/* Side 0 (right) or 1 (left) of c's funnel runs through the apex itself: it is open. */
static bool side_open(const search_node *c, int side)
{
    return side ? c->left_x == c->apex_x && c->left_z == c->apex_z
                : c->right_x == c->apex_x && c->right_z == c->apex_z;
}

/* One funnel step through portal p: 0 narrowed (or left alone), 1 the portal lies beyond the right
 * side (the path bends at the right vertex), 2 beyond the left side. */
static inline __attribute__((always_inline)) int funnel_step(search_node *c, portal_xz p)
{
    double ax = c->apex_x, az = c->apex_z;
    int view = nav__portal_view(ax, az, p.ux, p.uz, p.wx, p.wz);
    if (view == NAV__SEES_ON) { /* the apex lies on the portal and sees all of the next polygon */
        set_apex(c, c->apex_x, c->apex_z);
        return 0;
    }
    if (view == NAV__SEES_U) p.wx = p.ux, p.wz = p.uz;
    if (view == NAV__SEES_W) p.ux = p.wx, p.uz = p.wz;
    bool right_open = side_open(c, 0), left_open = side_open(c, 1);
    if (nav__cross(ax, az, c->right_x, c->right_z, p.ux, p.uz) >= 0) {
        if (!right_open && !left_open && nav__cross(ax, az, c->left_x, c->left_z, p.ux, p.uz) >= 0) return 2;
        c->right_x = (float)p.ux, c->right_z = (float)p.uz;
    }
    if (nav__cross(ax, az, c->left_x, c->left_z, p.wx, p.wz) <= 0) {
        if (!left_open && !right_open && nav__cross(ax, az, c->right_x, c->right_z, p.wx, p.wz) <= 0)
            return 1;
        c->left_x = (float)p.wx, c->left_z = (float)p.wz;
    }
    return 0;
}

/* The portal through which node id's edge is entered, right end first. */
static portal_xz edge_portal(const nav_mesh *m, uint32_t e)
{
    nav_vec3 l, r;
    edge_verts(m, e, &l, &r);
    return (portal_xz){r.x, r.z, l.x, l.z};
}

/* The funnel of node n (index at) carried through portal `exit` into *c. False when the replay
 * could not find the corner's portal (never on a valid chain) or its scratch could not grow. */
static bool funnel_through(nav_mesh_query *q, uint32_t at, portal_xz exit, double cost, search_node *c)
{
    const nav_mesh *m = q->mesh;
    const search_node *n = &q->nodes[at];
    int bend = funnel_step(c, exit);
    if (bend) {
        /* the corner: the vertex of the side the exit lies beyond */
        float vx = bend == 1 ? c->right_x : c->left_x, vz = bend == 1 ? c->right_z : c->left_z;
        /* the portals since the last one with the corner as an end, walking back the chain (none
         * when the corner is an end of the exit itself) */
        uint32_t count = 0;
        bool on_exit = (exit.ux == vx && exit.uz == vz) || (exit.wx == vx && exit.wz == vz);
        while (!on_exit) {
            uint32_t e = node_edge(q, node_id(&q->nodes[at]));
            if (e >= m->edge_count) return false; /* the start or a link: no corner before it */
            portal_xz p = edge_portal(m, e);
            if ((p.ux == vx && p.uz == vz) || (p.wx == vx && p.wz == vz)) break;
            if (count == q->portal_capacity && !nav__reserve_path(q, count + 1, 0)) return false;
            q->portals[count++] = (nav__portal){p.wx, p.wz, p.ux, p.uz, 0, 0}; /* scratch */
            at = q->nodes[at].parent;
        }
        c->apex_g = n->apex_g + nav__length(vx - n->apex_x, vz - n->apex_z) * cost;
        set_apex(c, vx, vz);
        /* the funnel algorithm from the corner over those portals, oldest first, then the exit;
         * a corner restarts it after the portal that set the side bent round */
        if (on_exit) return true;
        uint32_t right_at = 0, left_at = 0;
        for (uint32_t j = 0; j <= count; j++) {
            portal_xz p = exit;
            if (j < count) {
                const nav__portal *k = &q->portals[count - 1 - j];
                p = (portal_xz){k->right_x, k->right_z, k->left_x, k->left_z};
            }
            float rx = c->right_x, rz = c->right_z, lx = c->left_x, lz = c->left_z;
            int b = funnel_step(c, p);
            if (c->right_x != rx || c->right_z != rz) right_at = j;
            if (c->left_x != lx || c->left_z != lz) left_at = j;
            if (!b) continue;
            float nx = b == 1 ? c->right_x : c->left_x, nz = b == 1 ? c->right_z : c->left_z;
            c->apex_g += nav__length(nx - c->apex_x, nz - c->apex_z) * cost;
            set_apex(c, nx, nz);
            j = b == 1 ? right_at : left_at; /* the loop goes on with the portal after it */
        }
    }
    return true;
}

/* Sets c's crossing to the point of part [lo, hi] of edge u -> w best for the goal seen from
 * (ax, az) at g ag, and c's g to its cost that way. */
static void crossing_at(search_node *c, double ax, double az, double ag, nav_vec3 u, nav_vec3 w, double lo,
                        double hi, double gx, double gz, double cost)
{
    double ex = (double)w.x - u.x, ez = (double)w.z - u.z;
    double px = lo > 0 ? u.x + ex * lo : u.x, pz = lo > 0 ? u.z + ez * lo : u.z;
    double qx = hi < 1 ? u.x + ex * hi : w.x, qz = hi < 1 ? u.z + ez * hi : w.z;
    best_crossing(ax, az, gx, gz, px, pz, qx, qz, &c->x, &c->z);
    c->g = ag + nav__length(c->x - ax, c->z - az) * cost;
}

/* With landmarks: a lower bound of the length from (ax, az) through some point p of part [lo, hi]
 * of edge u -> w (vertices vu, vw) to the goal. The rest from p is at least u's bound less
 * |p - u| (the triangle inequality along the edge), and |A - p| - |p - u| only falls as p moves
 * away from u: the least is at the part's far end from u, and likewise for w. */
static double landmark_part(nav_mesh_query *q, double ax, double az, uint32_t vu, uint32_t vw, nav_vec3 u,
                            nav_vec3 w, double lo, double hi)
{
    double ex = (double)w.x - u.x, ez = (double)w.z - u.z, len = nav__length(ex, ez);
    double hx = u.x + ex * hi, hz = u.z + ez * hi, lx = u.x + ex * lo, lz = u.z + ez * lo;
    double via_u = nav__dist(ax, az, hx, hz) + nav__vert_bound(q, vu) - hi * len;
    double via_w = nav__dist(ax, az, lx, lz) + nav__vert_bound(q, vw) - (1 - lo) * len;
    return via_u > via_w ? via_u : via_w;
}

/* The successor of node `at` (an index) across exit edge u -> w (u its right end) where every area
 * costs `cost`: the node's funnel carried through the edge, and the point of the part of the edge
 * its apex sees that is best for the goal; f also counts, as lower bounds, the ways round a side
 * to the part beyond it. */
static search_node funnel_successor(nav_mesh_query *q, uint32_t at, uint32_t vu, uint32_t vw, double gx,
                                    double gz, double cost, double min_cost)
{
    nav_vec3 u = q->mesh->verts[vu], w = q->mesh->verts[vw];
    const search_node *n = &q->nodes[at];
    search_node c = *n;
    if (!funnel_through(q, at, (portal_xz){u.x, u.z, w.x, w.z}, cost, &c)) {
        /* not on a valid chain: from the node's own point, which sees all of its polygon */
        c = point_node(n->g, n->x, n->z);
    }
    double ax = c.apex_x, az = c.apex_z, lo = 0, hi = 1;
    bool right_open = side_open(&c, 0), left_open = side_open(&c, 1);
    double ru = right_open ? 0 : nav__cross(ax, az, c.right_x, c.right_z, u.x, u.z);
    double rw = right_open ? 0 : nav__cross(ax, az, c.right_x, c.right_z, w.x, w.z);
    double lu = left_open ? 0 : -nav__cross(ax, az, c.left_x, c.left_z, u.x, u.z);
    double lw = left_open ? 0 : -nav__cross(ax, az, c.left_x, c.left_z, w.x, w.z);
    clip(ru, rw, &lo, &hi);
    clip(lu, lw, &lo, &hi);
    if (!(lo <= hi)) lo = hi = lo < 1 ? lo : 1; /* rounding: the funnel sees a point at least */
    crossing_at(&c, ax, az, c.apex_g, u, w, lo, hi, gx, gz, cost);
    c.f = c.g + nav__h_point(q, c.x, c.z, gx, gz, min_cost);
    if (q->landmarks) {
        double l = c.apex_g + landmark_part(q, ax, az, vu, vw, u, w, lo, hi) * cost;
        if (l > c.f) c.f = l;
    }
    /* the parts of the edge beyond a side: round its vertex (a lower bound: straight from it) */
    if (lo == 0 && hi == 1) return c;
    for (int side = 0; side < 2; side++) {
        double a = side ? lu : ru, b = side ? lw : rw, vx = side ? c.left_x : c.right_x,
               vz = side ? c.left_z : c.right_z;
        if (a >= 0 && b >= 0) continue;
        double from = 0, to = 1;
        clip(-a, -b, &from, &to);
        /* only a lower f than c's counts: none can be lower than the straight line through v
         * (without shortcuts) */
        double vg = c.apex_g + nav__length(vx - ax, vz - az) * cost;
        if (!q->shortcuts && vg + nav__dist(vx, vz, gx, gz) * min_cost >= c.f) continue;
        search_node v;
        crossing_at(&v, vx, vz, vg, u, w, from, to, gx, gz, cost);
        double f = v.g + nav__h_point(q, v.x, v.z, gx, gz, min_cost);
        if (q->landmarks && f < c.f) {
            double l = vg + landmark_part(q, vx, vz, vu, vw, u, w, from, to) * cost;
            if (l > f) f = l;
        }
        if (f < c.f) c.f = f;
    }
    return c;
}

/* The g of point (x, z) of node `at`'s polygon: through the node's funnel where every area costs
 * the same (`uniform`), else straight from the node's point. */
static double g_to(nav_mesh_query *q, uint32_t at, double x, double z, double cost, bool uniform)
{
    const search_node *n = &q->nodes[at];
    search_node c = *n;
    if (uniform && funnel_through(q, at, (portal_xz){x, z, x, z}, cost, &c))
        return c.apex_g + nav__length(x - c.apex_x, z - c.apex_z) * cost;
    return n->g + nav__length(x - n->x, z - n->z) * cost;
}

/* Both nodes of an edge (pair: its slot) are taken, each expanded or known at an f no successor
 * can beat (`bound`): a new crossing of the edge could not enter. */
static bool settled(const nav_mesh_query *q, const nav__id_slot *pair, double bound)
{
    if (pair->node[0] == NAV__ID_NONE || pair->node[1] == NAV__ID_NONE) return false;
    const search_node *a = &q->nodes[pair->node[0]], *b = &q->nodes[pair->node[1]];
    return ((a->id & NAV__NODE_CLOSED) || a->f <= bound) && ((b->id & NAV__NODE_CLOSED) || b->f <= bound);
}

/* The length of the shortest path to point (x, z) of node s's edge through its funnel (round a
 * side's vertex for a point beyond it). */
static double funnel_length(const search_node *s, double x, double z, double cost)
{
    double ax = s->apex_x, az = s->apex_z;
    if (!side_open(s, 0) && nav__cross(ax, az, s->right_x, s->right_z, x, z) < 0)
        return s->apex_g +
               (nav__length(s->right_x - ax, s->right_z - az) + nav__length(x - s->right_x, z - s->right_z)) *
                   cost;
    if (!side_open(s, 1) && nav__cross(ax, az, s->left_x, s->left_z, x, z) > 0)
        return s->apex_g +
               (nav__length(s->left_x - ax, s->left_z - az) + nav__length(x - s->left_x, z - s->left_z)) *
                   cost;
    return s->apex_g + nav__length(x - ax, z - az) * cost;
}

/* a's way to edge u -> w is no longer than b's at both ends (where areas cost the same, `cost`;
 * else: a's f is no higher) */
static bool no_longer(const search_node *a, const search_node *b, nav_vec3 u, nav_vec3 w, double cost)
{
    if (!(cost > 0)) return a->f <= b->f;
    return funnel_length(a, u.x, u.z, cost) <= funnel_length(b, u.x, u.z, cost) &&
           funnel_length(a, w.x, w.z, cost) <= funnel_length(b, w.x, w.z, cost);
}

/* Offers crossing c of edge t (u -> w; reached from node `from`, an index; pair: t's slot) to the
 * edge's two nodes. A node whose way is no longer at both ends of the edge makes c useless
 * (an expanded one too: it is never reopened); else c takes the place of an open node it is no
 * longer than, or an empty node, or the open node with the higher f when c's is lower. Two nodes an
 * edge keep two ways round an obstacle: the one whose crossing is nearer the goal does not shut
 * out the other, which may turn out shorter. */
static void relax_edge(nav_mesh_query *q, uint32_t t, nav__id_slot *pair, uint32_t from, search_node c,
                       nav_vec3 u, nav_vec3 w, double cost)
{
    uint32_t at[2] = {pair->node[0], pair->node[1]};
    int target = -1;
    for (int k = 0; k < 2; k++) {
        if (at[k] == NAV__ID_NONE) {
            if (target < 0) target = k;
            continue;
        }
        const search_node *s = &q->nodes[at[k]];
        if (no_longer(s, &c, u, w, cost)) return;
        if (!(s->id & NAV__NODE_CLOSED) && target < 0 && c.f <= s->f && no_longer(&c, s, u, w, cost))
            target = k;
    }
    if (target < 0) { /* both taken */
        for (int k = 0; k < 2; k++) {
            const search_node *s = &q->nodes[at[k]];
            if (!(s->id & NAV__NODE_CLOSED) && c.f < s->f && (target < 0 || s->f > q->nodes[at[target]].f))
                target = k;
        }
        if (target < 0) return;
    }
    open_node(q, pair, 2 * t + (uint32_t)target, from, c);
}

/* The funnel mode: A* over portal crossings and links, then the funnel through the corridor, in
 * three parts as the optimal search. */
static void corridor_begin(nav_mesh_query *q)
{
    const nav_mesh *m = q->mesh;
    nav__search_state *st = &q->st;
    const nav__search_ends *ends = &st->ends;
    nav__next_stamp(q);
    nav_heap_clear(&q->open);
    q->node_count = 0;
    nav__set_landmarks(q);
    double gx = ends->goal.x, gz = ends->goal.z;
    /* the start: node 0, its own parent (a new object has room for it) */
    search_node start = point_node(0, ends->start.x, ends->start.z);
    start.f = nav__h_point(q, ends->start.x, ends->start.z, gx, gz, ends->min_cost);
    open_node(q, NULL, 2 * m->edge_count, 0, start);
    st->best = 0;
    st->expanded = 0;
    st->best_h = nav__length(gx - ends->start.x, gz - ends->start.z);
    st->found = st->out_of_nodes = 0;
}

static bool corridor_run(nav_mesh_query *q, uint32_t limit)
{
    const nav_mesh *m = q->mesh;
    nav__search_state *st = &q->st;
    const nav__search_ends *ends = &st->ends;
    const nav_mesh_filter *filter = ends->filter;
    double min_cost = ends->min_cost, gx = ends->goal.x, gz = ends->goal.z;
    uint32_t sp = ends->start_poly, gp = ends->goal_poly, goal_node = 2 * m->edge_count + 1, done = 0;
    /* dead-end regions hold no shortcut where every area costs the same and no link is one (with
     * costs that differ, a detour through cheaper polygons may pay) */
    bool uniform = st->cost > 0, regions = uniform && !q->shortcuts;
    uint32_t goal_region = m->poly_region[gp];
    while (q->open.count && !st->found && !st->out_of_nodes) {
        if (done >= limit) return false;
        nav_heap_entry top = nav_heap_pop(&q->open);
        uint32_t id = nav_heap_entry_id(top), at = node_index(q, id);
        /* an entry left behind when its node was lowered, or a node expanded (the lazy open list
         * pops, in order, what a decrease-key heap would hold: a node's lowest entry first) */
        if ((q->nodes[at].id & NAV__NODE_CLOSED) || top.key != f_key(q->nodes[at].f)) continue;
        if (id == goal_node) {
            st->found = 1;
            st->found_id = at;
            break;
        }
        q->nodes[at].id |= NAV__NODE_CLOSED;
        /* what the expansion reads of the node (the nodes may move as they grow) */
        const double nx = q->nodes[at].x, nz = q->nodes[at].z, ng = q->nodes[at].g;
        if (ends->max_expanded && st->expanded >= ends->max_expanded) {
            st->out_of_nodes = 1;
            break;
        }
        st->expanded++;
        done++;
        uint32_t poly = node_poly(q, id, sp);
        double cost = q->area_cost[m->poly_area[poly]];
        double to_goal = nav__length(gx - nx, gz - nz);
        if (to_goal < st->best_h) {
            st->best_h = to_goal;
            st->best = at;
        }
        if (poly == gp) { /* the goal lies in this polygon: straight to it */
            search_node c = point_node(g_to(q, at, gx, gz, cost, uniform), gx, gz);
            c.f = c.g;
            relax(q, goal_node, at, c);
        }
        /* no successor makes a lower f than this (without shortcuts: the straight line from its
         * apex, or from its point, to the goal): an edge expanded or known at no more is skipped */
        const search_node *n = &q->nodes[at];
        double bound = q->shortcuts ? -INFINITY
                       : uniform    ? n->apex_g + nav__length(gx - n->apex_x, gz - n->apex_z) * cost
                                    : n->f;
        uint32_t first = m->poly_first[poly], last = m->poly_first[poly + 1], entered = node_edge(q, id);
        for (uint32_t e = first; e < last; e++) {
            uint32_t next_poly = m->edge_poly[e];
            if (next_poly == NAV_MESH_NO_POLY || (m->edge_flags[e] & NAV__EDGE_ONE_WAY)) continue;
            uint32_t t = m->edge_twin[e];
            if (e == entered || !nav__mesh_poly_allowed(q, filter, next_poly)) continue;
            if (regions && !nav__mesh_step_useful(m, e, goal_region)) continue;
            /* t's two nodes (a new pair has none, and a step into it always makes one) */
            bool added;
            nav__id_slot *pair = nav__take(q, &q->pairs, t, &added);
            if (!pair) break; /* out of scratch: the search stops */
            if (added) pair->node[0] = pair->node[1] = NAV__ID_NONE;
            if (settled(q, pair, bound)) continue;
            uint32_t va = m->edge_vert[e], vb = m->edge_vert[e + 1 < last ? e + 1 : first];
            nav_vec3 a = m->verts[va], b = m->verts[vb];
            search_node c;
            if (uniform) {
                c = funnel_successor(q, at, va, vb, gx, gz, cost, min_cost);
            } else {
                c = point_node(0, 0, 0);
                best_crossing(nx, nz, gx, gz, a.x, a.z, b.x, b.z, &c.x, &c.z);
                c.g = ng + nav__length(c.x - nx, c.z - nz) * cost;
                c.f = c.g + nav__h_point(q, c.x, c.z, gx, gz, min_cost);
                if (q->landmarks) {
                    double l = ng + landmark_part(q, nx, nz, va, vb, a, b, 0, 1) * min_cost;
                    if (l > c.f) c.f = l;
                }
            }
            relax_edge(q, t, pair, at, c, a, b, uniform ? cost : 0);
        }
        for (uint32_t i = m->poly_link_first ? m->poly_link_first[poly] : 0,
                      end = m->poly_link_first ? m->poly_link_first[poly + 1] : 0;
             i < end; i++) {
            uint32_t w = m->poly_links[i];
            if (!q->way_allowed[w]) continue;
            nav_vec3 a = nav__way_from(m, w), b = nav__way_to(m, w);
            search_node c =
                point_node(g_to(q, at, a.x, a.z, cost, uniform) + m->links[w >> 1].cost, b.x, b.z);
            c.f = c.g + nav__h_point(q, b.x, b.z, gx, gz, min_cost);
            relax(q, 2 * m->edge_count + 2 + w, at, c);
        }
        /* out of scratch: a partial path, as out of nodes (or, out of memory, a failure) */
        if (nav__out_of_scratch(q)) st->out_of_nodes = 1;
    }
    return true;
}

static nav_status corridor_finish(nav_mesh_query *q, nav_path *out, nav_mesh_result *r)
{
    const nav_mesh *m = q->mesh;
    const nav__search_state *st = &q->st;
    const nav__search_ends *ends = &st->ends;
    uint32_t sp = ends->start_poly, gp = ends->goal_poly;
    r->expanded = st->expanded;
    nav_status status = NAV_SUCCESS;
    uint32_t last;
    nav_vec3 end = ends->goal;
    if (st->found) {
        last = q->nodes[st->found_id].parent;
    } else {
        if (!st->out_of_nodes && st->best == 0 && sp != gp) return NAV_FAILURE | NAV_UNREACHABLE;
        /* partial: to the point nearest the goal on the closest polygon reached */
        status |= NAV_PARTIAL_RESULT | (st->out_of_nodes ? NAV_OUT_OF_NODES : NAV_UNREACHABLE);
        last = st->best;
        uint32_t poly = node_poly(q, node_id(&q->nodes[last]), sp);
        double cx, cz;
        nav__mesh_poly_closest_xz(m, poly, ends->goal.x, ends->goal.z, &cx, &cz);
        end = nav_vec3_make((float)cx, nav__mesh_poly_height(m, poly, cx, cz), (float)cz);
    }
    uint32_t count = build_corridor(q, last, sp, end);
    if (!count) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    /* the funnel weighs each length by the cost of the polygon it lies in, unless all cost 1 */
    bool uniform = true;
    for (uint32_t i = 0; i < count; i++) {
        q->corridor_cost[i] = q->area_cost[m->poly_area[q->corridor[i]]];
        uniform &= q->corridor_cost[i] == 1;
    }
    double cost;
    nav_status fs = pull_corridor(q, ends->start, count, uniform, out, &cost);
    if (nav_failed(fs)) return fs;
    r->cost = cost;
    return status;
}

/* A search's result before it has located anything. */
static nav_mesh_result no_result(nav_vec3 start, nav_vec3 goal)
{
    return (nav_mesh_result){.start_poly = NAV_MESH_NO_POLY,
                             .goal_poly = NAV_MESH_NO_POLY,
                             .start_point = start,
                             .goal_point = goal,
                             .mode = NAV_MESH_PATH_DEFAULT};
}

/* An end the caller located (nav_mesh_path_desc's ends_located): point in polygon poly, on its
 * floor, as nav_mesh_locate gives it; NAV_FAILURE | NAV_INVALID_PARAM when it is not in it. */
static nav_status located_end(const nav_mesh *m, uint32_t poly, nav_vec3 point, uint32_t *poly_out,
                              nav_vec3 *at)
{
    float floor;
    *poly_out = NAV_MESH_NO_POLY;
    if (poly >= m->poly_count || !isfinite(point.x) || !isfinite(point.y) || !isfinite(point.z) ||
        !nav_mesh_poly_contains(m, poly, point, &floor))
        return NAV_FAILURE | NAV_INVALID_PARAM;
    *poly_out = poly;
    *at = nav_vec3_make(point.x, floor, point.z);
    return NAV_SUCCESS;
}

nav_status nav_mesh_find_path_begin(nav_mesh_query *q, const nav_mesh_path_desc *desc, nav_vec3 start,
                                    nav_vec3 goal)
{
    if (!q) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav__search_state *st = &q->st;
    st->phase = NAV__SEARCH_DONE;
    st->result = no_result(start, goal);
    st->status = NAV_FAILURE | NAV_INVALID_PARAM;
    q->corridor_count = 0;
    nav_mesh_path_desc d = desc ? *desc : (nav_mesh_path_desc){0};
    if (d.mode != NAV_MESH_PATH_DEFAULT && d.mode != NAV_MESH_PATH_OPTIMAL && d.mode != NAV_MESH_PATH_FUNNEL)
        return st->status;
    const nav_mesh *m = q->mesh;
    if (d.filter) st->filter = *d.filter;
    const nav_mesh_filter *filter = d.filter ? &st->filter : NULL;
    /* this search's area costs */
    bool leaves_out;
    nav_status costs = nav__query_set_costs(q, filter, &leaves_out);
    if (nav_failed(costs)) return st->status = costs;
    st->filter.area_cost = NULL; /* copied into q->own_cost: the caller's array may go */
    double min_cost = q->min_cost, one_cost = q->one_cost;
    q->all_corners = leaves_out;

    st->ends = (nav__search_ends){.filter = filter, .min_cost = min_cost, .max_expanded = d.max_expanded};
    nav__search_ends *ends = &st->ends;
    /* both ends located, so that the result names the one off the mesh and fills in the other (or
     * taken as the caller located them) */
    nav_status at_start, at_goal;
    if (d.ends_located) {
        at_start = located_end(m, d.start_poly, start, &ends->start_poly, &ends->start);
        at_goal = located_end(m, d.goal_poly, goal, &ends->goal_poly, &ends->goal);
    } else {
        at_start = nav_mesh_locate(m, start, d.half_extents, &ends->start_poly, &ends->start);
        at_goal = nav_mesh_locate(m, goal, d.half_extents, &ends->goal_poly, &ends->goal);
    }
    if (nav_has_detail(at_start | at_goal, NAV_INVALID_PARAM)) return st->status;
    st->result.start_poly = ends->start_poly;
    st->result.goal_poly = ends->goal_poly;
    st->result.start_point = nav_failed(at_start) ? start : ends->start;
    st->result.goal_point = nav_failed(at_goal) ? goal : ends->goal;
    st->status = NAV_FAILURE | NAV_BLOCKED_ENDPOINT;
    if (nav_failed(at_start) || nav_failed(at_goal)) return st->status;
    prepare_links(q, filter, ends->goal.x, ends->goal.z, min_cost);
    st->status = NAV_FAILURE | NAV_UNREACHABLE;
    if (!nav__mesh_poly_allowed(q, filter, ends->start_poly) ||
        !nav__mesh_poly_allowed(q, filter, ends->goal_poly) ||
        m->poly_component[ends->start_poly] != m->poly_component[ends->goal_poly])
        return st->status;

    /* the optimal mode needs one cost everywhere; with several, the corridor search weighs them */
    st->optimal = d.mode != NAV_MESH_PATH_FUNNEL && one_cost > 0;
    st->cost = one_cost;
    st->result.mode = st->optimal ? NAV_MESH_PATH_OPTIMAL : NAV_MESH_PATH_FUNNEL;
    if (st->optimal)
        nav__optimal_begin(q);
    else
        corridor_begin(q);
    st->phase = NAV__SEARCH_RUNNING;
    st->status = NAV_IN_PROGRESS;
    return NAV_IN_PROGRESS;
}

nav_status nav_mesh_find_path_step(nav_mesh_query *q, uint32_t max_expansions, uint32_t *done)
{
    if (done) *done = 0;
    if (!q) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav__search_state *st = &q->st;
    if (st->phase != NAV__SEARCH_RUNNING)
        return st->phase == NAV__SEARCH_DONE ? st->status : NAV_FAILURE | NAV_WRONG_STATE;
    uint32_t before = st->expanded;
    bool ended = st->optimal ? nav__optimal_run(q, max_expansions) : corridor_run(q, max_expansions);
    if (done) *done = st->expanded - before;
    if (!ended) return NAV_IN_PROGRESS;
    st->phase = NAV__SEARCH_DONE;
    st->status = NAV_SUCCESS;
    return NAV_SUCCESS;
}

nav_status nav_mesh_find_path_finish(nav_mesh_query *q, nav_path *out, nav_mesh_result *result)
{
    if (result) *result = q ? q->st.result : no_result(nav_vec3_make(0, 0, 0), nav_vec3_make(0, 0, 0));
    if (!q || !out) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav__search_state *st = &q->st;
    nav_path_clear(out);
    if (st->phase == NAV__SEARCH_IDLE) return NAV_FAILURE | NAV_WRONG_STATE;
    if (st->phase == NAV__SEARCH_RUNNING) {
        /* finished early: what has been found so far, as when the budget runs out */
        st->out_of_nodes = 1;
    } else if (nav_failed(st->status)) {
        st->phase = NAV__SEARCH_IDLE;
        return st->status;
    }
    st->phase = NAV__SEARCH_IDLE;
    if (q->out_of_memory) return NAV_FAILURE | NAV_OUT_OF_MEMORY; /* the search could not grow */
    nav_mesh_result r = st->result;
    nav_status s = st->optimal ? nav__optimal_finish(q, out, &r) : corridor_finish(q, out, &r);
    if (nav_failed(s)) nav_path_clear(out);
    if (result) *result = r;
    return s;
}

nav_status nav_mesh_find_path(nav_mesh_query *q, const nav_mesh_path_desc *desc, nav_vec3 start,
                              nav_vec3 goal, nav_path *out, nav_mesh_result *result)
{
    if (result) *result = no_result(start, goal);
    if (!q || !out) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_status s = nav_mesh_find_path_begin(q, desc, start, goal);
    if (s == NAV_IN_PROGRESS) s = nav_mesh_find_path_step(q, UINT32_MAX, NULL);
    if (nav_failed(s)) {
        nav_path_clear(out);
        q->st.phase = NAV__SEARCH_IDLE;
        if (result) *result = q->st.result;
        return s;
    }
    return nav_mesh_find_path_finish(q, out, result);
}
