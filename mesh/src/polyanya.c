/* The optimal mode: Polyanya (Cui, Harabor and Grastien, "Compromise-free Pathfinding on a
 * Navigation Mesh", IJCAI 2017), written from the paper.
 *
 * A node is a root r (the start, or a mesh vertex where the path bends) and an interval [R, L] of
 * an edge that r sees, R on the right and L on the left as r looks through it into the next
 * polygon Q. Every point of the interval is reached from r in a straight line, so g is the length
 * to r and h the length from r through the interval to the goal (the goal mirrored in the
 * interval's line when it lies on r's side), which never overestimates. Expanding the node:
 *   - observable successors: the parts of Q's other edges inside the cone from r through [R, L],
 *     with the same root;
 *   - non-observable successors: where R is the entry edge's own end vertex and a corner of the
 *     mesh (a vertex on its boundary), the parts of Q's edges right of the ray r -> R, with R as
 *     the new root; the same on the left. Shortest paths bend only at such corners.
 * The cone is always tested against exact points on its rays (vertices, or 2R - r on the ray past
 * a new root), never against rounded crossing points, so on grid meshes every test is exact.
 * A root that lies on the entry edge itself sees the whole next polygon (it is on its boundary).
 *
 * Pruning, all from the paper: a vertex keeps the best g at which it became a root and nodes from
 * a worse one are dropped (root-level pruning); a polygon whose only neighbour is the one we came
 * from is not entered unless it holds the goal (cul-de-sac pruning); a node with a single
 * successor of the same root is expanded at once, without the open list (intermediate pruning).
 *
 * Memory: a node is whole (120 bytes) only while it waits on the open list, in a pool whose slots
 * are taken again once their node is expanded or dropped. What the path needs of an expanded node
 * (its parent, the polygon it entered, its root) stays as a 16-byte step of the trail; when the
 * trail runs short, the steps that no open node leads back through are taken back (marked from
 * the open nodes, the rest swept onto a free list). Most nodes of a search are expanded, and on
 * the Moving AI maps the open ones lead back through a sixth of them or fewer: a search holds
 * about a fifth of what keeping every node whole took, in the same time (bench/README.md). */
#include <math.h>
#include <string.h>

#include "query_internal.h"

#define NODE_RIGHT_VERTEX 0x01u /* the interval's right end is the entry edge's right vertex */
#define NODE_LEFT_VERTEX  0x02u
#define NODE_ON_EDGE      0x04u /* the root lies on the entry edge: it sees all of the next polygon */
#define NODE_GOAL         0x08u /* the goal, reached from the root */
#define NODE_LINK                                                                                            \
    0x20u /* an off-mesh link taken: g at its far end; right_x/z its near end,                               \
           * left_x/z its far end, edge its way */
#define NO_NODE UINT32_MAX

typedef struct search {
    nav_mesh_query *q;
    const nav_mesh *m;
    const nav__search_ends *ends;
    double gx, gz;
    double cost; /* the one area cost: link costs divide by it to be lengths */
    uint32_t stamp;
    uint32_t goal_region; /* the goal polygon's place among the dead-end regions */
    bool regions;         /* steps into dead-end regions are pruned (no link is a shortcut) */
    /* the distance search (nav__optimal_distances): no goal, every polygon allowed and every step
     * but against a one-way edge, each vertex's least distance into dist */
    bool all;
    double *dist;
} search;

static bool is_corner(const search *s, uint32_t vert)
{
    return s->q->all_corners || (s->m->vert_flags[vert] & NAV__VERT_CORNER);
}

/* h: the length from the root through the interval to the goal. */
static double interval_heuristic(const search *s, const interval_node *n)
{
    double rx = n->root_x, rz = n->root_z, gx = s->gx, gz = s->gz;
    if (n->kind & (NODE_ON_EDGE | NODE_GOAL)) return nav__dist(rx, rz, gx, gz);
    /* mirror the goal in the interval's line when it lies on the root's side */
    double ex = n->left_x - n->right_x, ez = n->left_z - n->right_z, len2 = ex * ex + ez * ez;
    double sr = nav__cross(n->right_x, n->right_z, n->left_x, n->left_z, rx, rz);
    double sg = nav__cross(n->right_x, n->right_z, n->left_x, n->left_z, gx, gz);
    if (len2 > 0 && ((sr > 0 && sg > 0) || (sr < 0 && sg < 0))) {
        double k = 2 * sg / len2;
        gx += k * ez;
        gz -= k * ex;
    }
    bool right_of_left = nav__cross(rx, rz, n->left_dir_x, n->left_dir_z, gx, gz) <= 0;
    bool left_of_right = nav__cross(rx, rz, n->right_dir_x, n->right_dir_z, gx, gz) >= 0;
    if (right_of_left && left_of_right) return nav__dist(rx, rz, gx, gz);
    double via_r = nav__dist(rx, rz, n->right_x, n->right_z) + nav__dist(n->right_x, n->right_z, gx, gz);
    double via_l = nav__dist(rx, rz, n->left_x, n->left_z) + nav__dist(n->left_x, n->left_z, gx, gz);
    return via_r < via_l ? via_r : via_l;
}

/* The landmarks' lower bound of the length from node n's root through its interval (on the edge
 * from vertex a, its left end, to b) to the goal: the root's own bound; and, through each point x of the
 * interval, at least the root's distance to the interval plus the bound of an end vertex of its edge less
 * that vertex's distance to x (the triangle inequality along the edge). */
static double landmark_heuristic(const search *s, const interval_node *n, uint32_t a, uint32_t b)
{
    const nav_mesh *m = s->m;
    double h = nav__root_is_vertex(n->root) ? nav__vert_bound(s->q, n->root) : 0;
    nav_vec3 pa = m->verts[a], pb = m->verts[b];
    double ea = nav__vert_bound(s->q, a) - nav__dist(pa.x, pa.z, n->right_x, n->right_z);
    double eb = nav__vert_bound(s->q, b) - nav__dist(pb.x, pb.z, n->left_x, n->left_z);
    double e = ea > eb ? ea : eb;
    if (e <= h) return h;
    /* the root's distance to the interval */
    double ix = n->left_x - n->right_x, iz = n->left_z - n->right_z, len2 = ix * ix + iz * iz;
    double u = len2 > 0 ? ((n->root_x - n->right_x) * ix + (n->root_z - n->right_z) * iz) / len2 : 0;
    u = u < 0 ? 0 : (u > 1 ? 1 : u);
    e += nav__dist(n->root_x, n->root_z, n->right_x + u * ix, n->right_z + u * iz);
    return e > h ? e : h;
}

/* h, with off-mesh links that are shortcuts: the least of that and the bound through a link. A
 * link node's g is at its far end already. a, b: the left and right end vertices of the edge of a
 * node through an edge. */
static double heuristic(const search *s, const interval_node *n, uint32_t a, uint32_t b)
{
    if (s->all) return 0;
    if (n->kind & NODE_LINK) return nav__h_point(s->q, n->left_x, n->left_z, s->gx, s->gz, s->cost) / s->cost;
    double h = interval_heuristic(s, n);
    if (s->q->landmarks && !(n->kind & NODE_GOAL)) {
        double l = landmark_heuristic(s, n, a, b);
        if (l > h) h = l;
    }
    if (!s->q->shortcuts || (n->kind & NODE_GOAL)) return h;
    double via = nav__h_point(s->q, n->root_x, n->root_z, s->gx, s->gz, s->cost) / s->cost;
    return via < h ? via : h;
}

/* A polygon with one neighbour, entered from it, leads nowhere (unless it holds the goal). */
static bool dead_end(const search *s, uint32_t poly)
{
    if (poly == s->ends->goal_poly) return false;
    const nav_mesh *m = s->m;
    if (m->poly_link_first && m->poly_link_first[poly + 1] > m->poly_link_first[poly]) return false;
    uint32_t ways = 0;
    for (uint32_t e = m->poly_first[poly]; e < m->poly_first[poly + 1]; e++)
        ways += m->edge_poly[e] != NAV_MESH_NO_POLY;
    return ways <= 1;
}

/* Root-level pruning: a shorter way to node n's root has been found since n was made (a node's
 * root vertex became one through take_root, so it is in q->roots). */
static bool root_outdated(const nav_mesh_query *q, const interval_node *n)
{
    if (!nav__root_is_vertex(n->root)) return false;
    const nav__id_slot *r = nav__id_find(&q->roots, n->root);
    return r && r->number < n->g - 1e-9 * (1 + n->g);
}

/* Makes v a root at length g; false when it already is one at a shorter length (root-level
 * pruning, the paper's rule: ties are kept, as paths of one length may turn round v on different
 * sides), or when the roots' table cannot grow (the search then stops). */
static inline __attribute__((always_inline)) bool take_root(search *s, uint32_t v, double g)
{
    bool added;
    nav__id_slot *r = nav__take(s->q, &s->q->roots, v, &added);
    if (!r) return false;
    if (!added && r->number < g - 1e-9 * (1 + g)) return false;
    if (added || g < r->number) r->number = g;
    return true;
}

/* A field of a node's digest: its bits times an odd constant, turned by r bits (a bijection: two
 * nodes that differ in one field only never share a digest). */
static uint64_t field(double v, uint64_t k, unsigned r)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    bits *= k;
    return bits << r | bits >> (64 - r);
}

/* A node equal to the last one made for its edge (same root, length and interval, bit for bit: a
 * 64-bit digest of them) repeats it: on grids many paths of one length reach a corner, and each
 * would repeat the whole search beyond it. */
static inline __attribute__((always_inline)) bool repeats(search *s, const interval_node *n)
{
    /* the fields apart, xored: independent multiplies, not a chain (a fifth of add_node's time was
     * the chained digest's latency) */
    uint64_t h = (uint64_t)n->root * 0x9e3779b97f4a7c15u ^ field(n->root_x, 0xff51afd7ed558ccdu, 8) ^
                 field(n->root_z, 0xc4ceb9fe1a85ec53u, 16) ^ field(n->g, 0xd6e8feb86659fd93u, 24) ^
                 field(n->right_x, 0xa0761d6478bd642fu, 32) ^ field(n->right_z, 0xe7037ed1a0b428dbu, 40) ^
                 field(n->left_x, 0x8ebc6af09c88c6e3u, 48) ^ field(n->left_z, 0x589965cc75374cc3u, 56);
    bool added;
    nav__id_slot *last = nav__take(s->q, &s->q->edge_last, n->edge, &added);
    if (!last) return true; /* out of scratch: dropped, and the search stops */
    if (!added && last->digest == h) return true;
    last->digest = h;
    return false;
}

/* Whether the search may step across edge e (of the polygon it is in) into the polygon beyond:
 * not a wall, not one-way against it, allowed by the filter, and not into a dead end (a region
 * without the goal, or a polygon whose only neighbour is this one). */
static bool step_allowed(const search *s, uint32_t e)
{
    const nav_mesh *m = s->m;
    uint32_t next = m->edge_poly[e];
    if (next == NAV_MESH_NO_POLY) return false;
    if (m->edge_flags[e] & NAV__EDGE_ONE_WAY) return false;
    if (s->all) return true;
    if (!nav__mesh_poly_allowed(s->q, s->ends->filter, next)) return false;
    return s->regions ? nav__mesh_step_useful(m, e, s->goal_region) : !dead_end(s, next);
}

/* A slot of the pool for a node being made, counted as made (a freed slot first), or NO_NODE when
 * the pool cannot grow (the search then stops: nav__out_of_scratch). Whether the node may be made
 * (pool_limit) is asked once it is kept: one dropped costs nothing of the limit. */
static inline uint32_t take_slot(nav_mesh_query *q)
{
    uint32_t id = q->pool_free;
    if (id != NO_NODE) {
        q->pool_free = q->pool[id].parent;
    } else {
        if (q->pool_count == q->pool_capacity && !nav__grow_pool(q)) return NO_NODE;
        id = q->pool_count++;
    }
    q->generated++;
    return id;
}

/* Gives slot id back to the pool (its node is expanded or dropped: a copy is all that is read). */
static inline void free_slot(nav_mesh_query *q, uint32_t id)
{
    q->pool[id].parent = q->pool_free;
    q->pool_free = id;
}

/* Gives back the slot of a node just made and dropped (not counted as made); NO_NODE. */
static inline uint32_t give_back(nav_mesh_query *q, uint32_t id)
{
    free_slot(q, id);
    q->generated--;
    return NO_NODE;
}

/* A new step of the trail (one taken back first); NAV__NO_STEP when the trail cannot grow (the
 * search then stops). */
static inline uint32_t add_step(nav_mesh_query *q, uint32_t parent, uint32_t edge, uint32_t root,
                                uint32_t root_poly)
{
    uint32_t t = q->trail_free;
    if (t != NAV__NO_STEP) {
        q->trail_free = q->trail[t].parent;
        q->trail_free_count--;
    } else {
        if (q->trail_count == q->trail_capacity && !nav__grow_trail(q)) return NAV__NO_STEP;
        t = q->trail_count++;
    }
    q->trail[t] = (nav__trail_step){parent, edge, root, root_poly};
    return t;
}

/* Marks step t and those before it, as far as one already marked. */
static inline void mark_steps(nav__trail_step *trail, uint32_t t)
{
    while (t != NAV__NO_STEP && !(trail[t].root_poly & NAV__STEP_MARK)) {
        trail[t].root_poly |= NAV__STEP_MARK;
        t = trail[t].parent;
    }
}

/* Takes back the steps that lead to none of the open nodes, the node in slot in_flight (NO_NODE:
 * none) and the best step, onto the free list (the lowest first). */
static void sweep_trail(nav_mesh_query *q, uint32_t in_flight)
{
    nav__trail_step *trail = q->trail;
    mark_steps(trail, q->st.best);
    if (in_flight != NO_NODE) mark_steps(trail, q->pool[in_flight].parent);
    for (uint32_t i = 0; i < q->interval_open.count; i++)
        mark_steps(trail, q->pool[nav_heap_entry_id(q->interval_open.entries[i])].parent);
    q->trail_free = NAV__NO_STEP;
    q->trail_free_count = 0;
    for (uint32_t t = q->trail_count; t-- > 0;) {
        if (trail[t].root_poly & NAV__STEP_MARK) {
            trail[t].root_poly &= ~NAV__STEP_MARK;
        } else {
            trail[t].parent = q->trail_free;
            q->trail_free = t;
            q->trail_free_count++;
        }
    }
}

/* Room on the trail for the `need` steps an expansion of the node in slot in_flight may add (its
 * own, and one for each successor that passes a root on the way): when it is short, the steps
 * nothing leads through are taken back, and the trail grows until a quarter of it and of the open
 * list is free beyond the need (a sweep, which walks both, then comes after as many expansions at
 * least: about four steps' work an expansion). A growth that meets a limit leaves the search as
 * it was: once the steps are swept, those the expansion adds fit within pool_limit (a step a node
 * made), and add_step says when they do not fit within max_bytes. One whose allocation fails
 * stops the search (out of memory), as every failed allocation does. */
static inline void trail_room(nav_mesh_query *q, uint32_t in_flight, uint32_t need)
{
    if (q->trail_free_count + (q->trail_capacity - q->trail_count) >= need) return;
    sweep_trail(q, in_flight);
    uint8_t out_of_room = q->out_of_room;
    while (q->trail_free_count + (q->trail_capacity - q->trail_count) <
               need + (q->trail_capacity + q->interval_open.count) / 4 &&
           nav__grow_trail(q)) {
    }
    q->out_of_room = out_of_room; /* (room to spare, not room needed) */
}

/* The steps an expansion into polygon poly may add: its own, and one for each successor through
 * an edge that passes a root (three at most an edge but the one it came through, and the goal; a
 * link's node and the goal's pass none). */
static inline uint32_t expansion_steps(const nav_mesh *m, uint32_t poly)
{
    return 3 * (m->poly_first[poly + 1] - m->poly_first[poly]);
}

/* The step that node n leaves on the trail as it is expanded (the goal: its root only). */
static inline uint32_t close_node(nav_mesh_query *q, const interval_node *n)
{
    uint32_t edge = n->kind & NODE_GOAL   ? NAV__STEP_ROOT
                    : n->kind & NODE_LINK ? NAV__STEP_WAY | n->edge
                                          : n->edge;
    return add_step(q, n->parent, edge, n->root, n->root_poly);
}

/* Adds a node to the pool (not yet to the open list); its step was allowed (step_allowed). Returns
 * its slot, or NO_NODE when it is dropped (pruned) or there is no room (the search then stops:
 * nav__out_of_scratch). */
static uint32_t add_node(search *s, const interval_node *proto)
{
    nav_mesh_query *q = s->q;
    const nav_mesh *m = s->m;
    /* made in its slot (given back if it is dropped): a node is copied once */
    uint32_t id = take_slot(q);
    if (id == NO_NODE) return NO_NODE;
    interval_node *n = &q->pool[id];
    *n = *proto;
    uint32_t va = NAV_MESH_NO_POLY, vb = NAV_MESH_NO_POLY; /* the edge's left and right end vertices */
    bool via = false; /* the old root stays on the path, as a step of its own (a node made) */
    uint32_t via_root = 0, via_poly = 0;
    if (!(n->kind & (NODE_GOAL | NODE_LINK))) {
        uint32_t t = n->edge, poly = m->edge_owner[t];
        uint32_t from_edge = m->edge_twin[t];
        uint32_t first = m->poly_first[poly], next = t + 1 < m->poly_first[poly + 1] ? t + 1 : first;
        va = m->edge_vert[t];
        vb = m->edge_vert[next];
        nav_vec3 a = m->verts[va], b = m->verts[vb];
        double side = nav__cross(b.x, b.z, a.x, a.z, n->root_x, n->root_z); /* > 0: outside the polygon */
        if (side == 0) {
            /* the root on the edge's line: on the edge it sees all of the next polygon; outside
             * it, it sees only along the line, so the path runs along the line (on the boundary
             * of the polygon it comes from) to the edge's nearer end, which becomes the root */
            double along = ((double)a.x - b.x) * (n->root_x - b.x) + ((double)a.z - b.z) * (n->root_z - b.z);
            double len2 =
                ((double)a.x - b.x) * ((double)a.x - b.x) + ((double)a.z - b.z) * ((double)a.z - b.z);
            if (along < 0 || along > len2) {
                uint32_t v = along < 0 ? vb : va;
                nav_vec3 p = m->verts[v];
                double g = n->g + nav__length(p.x - n->root_x, p.z - n->root_z);
                if (!take_root(s, v, g)) return give_back(q, id);
                via = !s->all; /* (the distance search keeps no path) */
                via_root = n->root;
                via_poly = n->root_poly;
                n->root_x = p.x;
                n->root_z = p.z;
                n->root = v;
                n->root_poly = m->edge_owner[from_edge];
                n->g = g;
            }
            n->kind |= NODE_ON_EDGE;
        } else if (side < 0) {
            return give_back(
                q, id); /* the root on the far side: cannot happen for a node seen through an edge */
        }
        if (repeats(s, n)) return give_back(q, id);
    }
    if (q->generated + via > q->pool_limit) { /* kept: within the nodes a search may make? */
        q->out_of_room = 1;
        return give_back(q, id);
    }
    if (via) {
        uint32_t step = add_step(q, n->parent, NAV__STEP_ROOT, via_root, via_poly);
        if (step == NAV__NO_STEP) return give_back(q, id);
        q->generated++;
        n->parent = step;
    }
    n->f = n->g + heuristic(s, n, va, vb);
    return id;
}

/* The range of t in [0, 1] where (1 - t) a + t b >= 0 (sign +1) or <= 0 (sign -1), intersected
 * with [*lo, *hi]; *lo_by / *hi_by record which bound moved them (1) or the segment's end (0). */
static void clip(double a, double b, int sign, double *lo, double *hi, int *lo_by, int *hi_by, int tag)
{
    a *= sign;
    b *= sign;
    if (a >= 0 && b >= 0) return;
    if (a < 0 && b < 0) {
        *lo = 1;
        *hi = 0;
        return;
    }
    double t = a / (a - b);
    if (a < 0) {
        if (t > *lo) {
            *lo = t;
            *lo_by = tag;
        }
    } else if (t < *hi) {
        *hi = t;
        *hi_by = tag;
    }
}

/* How the root of node n reaches point (px, pz) of its next polygon `poly`: straight when it lies
 * in the cone through the interval (or the root is on the entry edge), else round the interval's
 * end on its side when that end is a corner (and becomes a root at no worse a length). Fills the
 * root, its polygon and g of *proto; false when neither way goes. */
static bool reach_point(search *s, const interval_node *n, double px, double pz, interval_node *proto,
                        bool turn_right, bool turn_left, uint32_t right_vert, uint32_t left_vert,
                        uint32_t poly)
{
    proto->root_x = n->root_x;
    proto->root_z = n->root_z;
    proto->root = n->root;
    proto->root_poly = n->root_poly;
    proto->g = n->g;
    if (n->kind & NODE_ON_EDGE) return true;
    double fr = nav__cross(n->root_x, n->root_z, n->right_dir_x, n->right_dir_z, px, pz);
    double fl = nav__cross(n->root_x, n->root_z, n->left_dir_x, n->left_dir_z, px, pz);
    if (fr >= 0 && fl <= 0) return true;
    bool right = fr < 0;
    if (!(right ? turn_right : turn_left)) return false;
    uint32_t v = right ? right_vert : left_vert;
    nav_vec3 p = s->m->verts[v];
    double g = n->g + nav__dist(n->root_x, n->root_z, p.x, p.z);
    if (!take_root(s, v, g)) return false;
    proto->root_x = p.x;
    proto->root_z = p.z;
    proto->root = v;
    proto->root_poly = poly;
    proto->g = g;
    return true;
}

static void push(search *s, uint32_t id);

/* Takes way w from the root of *proto (which sees its near end): a link node with g at the far
 * end, pushed at once unless the far end has been reached at no more. */
static void add_link(search *s, interval_node *proto, uint32_t w)
{
    const nav_mesh *m = s->m;
    nav_mesh_query *q = s->q;
    nav_vec3 a = nav__way_from(m, w), b = nav__way_to(m, w);
    double g = proto->g + nav__dist(proto->root_x, proto->root_z, a.x, a.z) + m->links[w >> 1].cost / s->cost;
    if (q->link_stamp[w] == s->stamp && q->link_g[w] <= g) return;
    q->link_stamp[w] = s->stamp;
    q->link_g[w] = g;
    proto->g = g;
    proto->right_x = a.x;
    proto->right_z = a.z;
    proto->left_x = b.x;
    proto->left_z = b.z;
    proto->edge = w;
    proto->kind = NODE_LINK;
    uint32_t id = add_node(s, proto);
    if (id != NO_NODE) push(s, id);
}

/* The node that turns round vertex v (its new root, at length g, made in polygon poly) onto the
 * part [lo, hi] of edge u -> w that the old root's ray past v bounds (lo_by / hi_by: the ray cut
 * that end, else it is the edge's own): past v, the ray from the old root goes on through
 * 2v - root. Returns the node (as add_node), or NO_NODE when the part is empty or dropped. */
static uint32_t add_turn(search *s, const interval_node *proto, uint32_t v, double g, uint32_t poly,
                         nav_vec3 u, nav_vec3 w, double lo, double hi, int lo_by, int hi_by)
{
    if (!(lo < hi)) return NO_NODE;
    nav_vec3 p = s->m->verts[v];
    double ex = (double)w.x - u.x, ez = (double)w.z - u.z;
    double px = 2.0 * p.x - proto->root_x, pz = 2.0 * p.z - proto->root_z;
    interval_node turn = *proto;
    turn.root_x = p.x;
    turn.root_z = p.z;
    turn.root = v;
    turn.root_poly = poly;
    turn.g = g;
    turn.right_x = lo_by ? u.x + ex * lo : u.x;
    turn.right_z = lo_by ? u.z + ez * lo : u.z;
    turn.right_dir_x = lo_by ? px : u.x;
    turn.right_dir_z = lo_by ? pz : u.z;
    turn.left_x = hi_by ? u.x + ex * hi : w.x;
    turn.left_z = hi_by ? u.z + ez * hi : w.z;
    turn.left_dir_x = hi_by ? px : w.x;
    turn.left_dir_z = hi_by ? pz : w.z;
    turn.kind = (uint8_t)((lo_by ? 0 : NODE_RIGHT_VERTEX) | (hi_by ? 0 : NODE_LEFT_VERTEX));
    return add_node(s, &turn);
}

/* The distance search: the vertices of polygon poly, which node n enters, reached from its root,
 * straight where the root sees them through the interval, and by way of either of the interval's
 * ends (all ways that are paths; the least of them over the search is the shortest). */
static void reach_vertices(search *s, const interval_node *n, uint32_t poly)
{
    const nav_mesh *m = s->m;
    double rx = n->root_x, rz = n->root_z;
    double via_r = n->g + nav__dist(rx, rz, n->right_x, n->right_z);
    double via_l = n->g + nav__dist(rx, rz, n->left_x, n->left_z);
    for (uint32_t e = m->poly_first[poly]; e < m->poly_first[poly + 1]; e++) {
        uint32_t v = m->edge_vert[e];
        nav_vec3 p = m->verts[v];
        double d = via_r + nav__dist(n->right_x, n->right_z, p.x, p.z);
        double d_l = via_l + nav__dist(n->left_x, n->left_z, p.x, p.z);
        if (d_l < d) d = d_l;
        if ((n->kind & NODE_ON_EDGE) || (nav__cross(rx, rz, n->right_dir_x, n->right_dir_z, p.x, p.z) >= 0 &&
                                         nav__cross(rx, rz, n->left_dir_x, n->left_dir_z, p.x, p.z) <= 0)) {
            double d_s = n->g + nav__dist(rx, rz, p.x, p.z);
            if (d_s < d) d = d_s;
        }
        if (d < s->dist[v]) s->dist[v] = d;
    }
}

/* Generates the successors of the node in slot `slot`, expanded as step `at` of the trail, into
 * list (their slots); returns how many. */
static uint32_t expand(search *s, uint32_t slot, uint32_t at, uint32_t *list)
{
    const nav_mesh *m = s->m;
    interval_node n = s->q->pool[slot]; /* a copy: the pool may move as successors are added */
    uint32_t poly = m->edge_owner[n.edge], first = m->poly_first[poly],
             count = m->poly_first[poly + 1] - first;
    uint32_t right_vert = m->edge_vert[n.edge + 1 < first + count ? n.edge + 1 : first],
             left_vert = m->edge_vert[n.edge];
    nav_vec3 rv = m->verts[right_vert], lv = m->verts[left_vert];
    bool on_edge = (n.kind & NODE_ON_EDGE) != 0;
    bool turn_right = !on_edge && (n.kind & NODE_RIGHT_VERTEX) && is_corner(s, right_vert);
    bool turn_left = !on_edge && (n.kind & NODE_LEFT_VERTEX) && is_corner(s, left_vert);
    double rx = n.root_x, rz = n.root_z;
    uint32_t produced = 0;
    interval_node proto;

    /* the goal, if it lies in this polygon, and the links that leave it: straight from the root,
     * or round an end */
    if (poly == s->ends->goal_poly) {
        proto = (interval_node){.edge = n.edge, .parent = at, .kind = NODE_GOAL};
        if (reach_point(s, &n, s->gx, s->gz, &proto, turn_right, turn_left, right_vert, left_vert, poly)) {
            uint32_t id = add_node(s, &proto);
            if (id != NO_NODE) list[produced++] = id;
        }
    }
    if (s->all) reach_vertices(s, &n, poly);
    if (m->poly_link_first && !s->all)
        for (uint32_t i = m->poly_link_first[poly]; i < m->poly_link_first[poly + 1]; i++) {
            uint32_t w = m->poly_links[i];
            if (!s->q->way_allowed[w]) continue;
            nav_vec3 e = nav__way_from(m, w);
            proto = (interval_node){.parent = at};
            if (reach_point(s, &n, e.x, e.z, &proto, turn_right, turn_left, right_vert, left_vert, poly))
                add_link(s, &proto, w);
        }

    double right_g = n.g + nav__dist(rx, rz, rv.x, rv.z), left_g = n.g + nav__dist(rx, rz, lv.x, lv.z);
    bool right_root_ok = turn_right && take_root(s, right_vert, right_g);
    bool left_root_ok = turn_left && take_root(s, left_vert, left_g);
    uint32_t last = first + count, e = n.edge;
    /* the successors through the other edges: made from one template, whose interval and kind each
     * sets (and a turn's node copies and sets its own) */
    proto = (interval_node){
        .root_x = rx, .root_z = rz, .g = n.g, .root = n.root, .root_poly = n.root_poly, .parent = at};
    for (uint32_t j = 1; j < count; j++) {
        e = e + 1 < last ? e + 1 : first;
        uint32_t e_next = e + 1 < last ? e + 1 : first;
        if (!step_allowed(s, e)) continue;
        nav_vec3 u = m->verts[m->edge_vert[e]], w = m->verts[m->edge_vert[e_next]]; /* u right, w left */
        proto.edge = m->edge_twin[e];
        if (on_edge) {
            /* through an edge at the root itself, the walk goes round the root's fan of polygons:
             * it stops where the root was made, or it would go round for ever. The root is known
             * by its place: across a step the polygons hold it as two vertices (one a level). */
            if (nav__root_is_vertex(n.root) && m->edge_poly[e] == n.root_poly &&
                ((u.x == rx && u.z == rz) || (w.x == rx && w.z == rz)))
                continue;
            proto.right_x = proto.right_dir_x = u.x;
            proto.right_z = proto.right_dir_z = u.z;
            proto.left_x = proto.left_dir_x = w.x;
            proto.left_z = proto.left_dir_z = w.z;
            proto.kind = NODE_RIGHT_VERTEX | NODE_LEFT_VERTEX;
            uint32_t id = add_node(s, &proto);
            if (id != NO_NODE) list[produced++] = id;
            continue;
        }
        double fru = nav__cross(rx, rz, n.right_dir_x, n.right_dir_z, u.x, u.z);
        double frw = nav__cross(rx, rz, n.right_dir_x, n.right_dir_z, w.x, w.z);
        double flu = nav__cross(rx, rz, n.left_dir_x, n.left_dir_z, u.x, u.z);
        double flw = nav__cross(rx, rz, n.left_dir_x, n.left_dir_z, w.x, w.z);
        double ex = (double)w.x - u.x, ez = (double)w.z - u.z;

        /* observable: left of the right ray and right of the left ray */
        double lo = 0, hi = 1;
        int lo_by = 0, hi_by = 0; /* 0: the edge's end; 1: the right ray; 2: the left ray */
        clip(fru, frw, +1, &lo, &hi, &lo_by, &hi_by, 1);
        clip(flu, flw, -1, &lo, &hi, &lo_by, &hi_by, 2);
        if (lo < hi) {
            proto.right_x = lo_by ? u.x + ex * lo : u.x;
            proto.right_z = lo_by ? u.z + ez * lo : u.z;
            proto.right_dir_x = lo_by == 1 ? n.right_dir_x : lo_by == 2 ? n.left_dir_x : u.x;
            proto.right_dir_z = lo_by == 1 ? n.right_dir_z : lo_by == 2 ? n.left_dir_z : u.z;
            proto.left_x = hi_by ? u.x + ex * hi : w.x;
            proto.left_z = hi_by ? u.z + ez * hi : w.z;
            proto.left_dir_x = hi_by == 1 ? n.right_dir_x : hi_by == 2 ? n.left_dir_x : w.x;
            proto.left_dir_z = hi_by == 1 ? n.right_dir_z : hi_by == 2 ? n.left_dir_z : w.z;
            proto.kind = (uint8_t)((lo_by ? 0 : NODE_RIGHT_VERTEX) | (hi_by ? 0 : NODE_LEFT_VERTEX));
            uint32_t id = add_node(s, &proto);
            if (id != NO_NODE) list[produced++] = id;
        }

        /* round the right end: the part right of the ray r -> R, seen from R; round the left
         * end: the part left of the ray r -> L, seen from L */
        if (right_root_ok) {
            double a = 0, b = 1;
            int a_by = 0, b_by = 0;
            clip(fru, frw, -1, &a, &b, &a_by, &b_by, 1);
            uint32_t id = add_turn(s, &proto, right_vert, right_g, poly, u, w, a, b, a_by, b_by);
            if (id != NO_NODE) list[produced++] = id;
        }
        if (left_root_ok) {
            double a = 0, b = 1;
            int a_by = 0, b_by = 0;
            clip(flu, flw, +1, &a, &b, &a_by, &b_by, 2);
            uint32_t id = add_turn(s, &proto, left_vert, left_g, poly, u, w, a, b, a_by, b_by);
            if (id != NO_NODE) list[produced++] = id;
        }
    }
    return produced;
}

/* Puts a node of the pool on the open list (as long as the pool: nav__grow_pool). */
static void push(search *s, uint32_t id)
{
    const interval_node *n = &s->q->pool[id];
    nav_heap_push(&s->q->interval_open, nav_heap_key_exact(n->f), nav_heap_tie_larger_g(n->g), id);
}

/* The successors of a point root (the start, or a link's far end: root) at (x, z) in polygon poly
 * with length g, reached as step `parent` of the trail: the goal if it lies there, every edge of
 * the polygon whole, the links that leave it. Pushed at once. */
static void expand_point(search *s, double x, double z, uint32_t poly, double g, uint32_t root,
                         uint32_t parent)
{
    const nav_mesh *m = s->m;
    interval_node base = {.root_x = x,
                          .root_z = z,
                          .g = g,
                          .root = root,
                          .root_poly = poly,
                          .edge = m->poly_first[poly],
                          .parent = parent};
    if (poly == s->ends->goal_poly) {
        interval_node n = base;
        n.kind = NODE_GOAL;
        uint32_t id = add_node(s, &n);
        if (id != NO_NODE) push(s, id);
    }
    uint32_t first = m->poly_first[poly], last = m->poly_first[poly + 1];
    for (uint32_t e = first; e < last; e++) {
        if (!step_allowed(s, e)) continue;
        nav_vec3 a = m->verts[m->edge_vert[e]], b = m->verts[m->edge_vert[e + 1 < last ? e + 1 : first]];
        interval_node n = base;
        n.right_x = n.right_dir_x = a.x;
        n.right_z = n.right_dir_z = a.z;
        n.left_x = n.left_dir_x = b.x;
        n.left_z = n.left_dir_z = b.z;
        n.edge = m->edge_twin[e];
        n.kind = NODE_RIGHT_VERTEX | NODE_LEFT_VERTEX;
        uint32_t id = add_node(s, &n);
        if (id != NO_NODE) push(s, id);
    }
    if (s->all)
        for (uint32_t e = first; e < last; e++) {
            nav_vec3 p = m->verts[m->edge_vert[e]];
            double d = g + nav__dist(x, z, p.x, p.z);
            if (d < s->dist[m->edge_vert[e]]) s->dist[m->edge_vert[e]] = d;
        }
    if (m->poly_link_first && !s->all)
        for (uint32_t i = m->poly_link_first[poly]; i < m->poly_link_first[poly + 1]; i++) {
            uint32_t w = m->poly_links[i];
            if (!s->q->way_allowed[w]) continue;
            interval_node n = base;
            add_link(s, &n, w);
        }
}

/* Appends a point of the path being walked back (flags and link in the query's arrays). */
static bool put_point(search *s, nav_path *out, double x, float y, double z, uint32_t poly, uint8_t flags,
                      uint32_t link)
{
    nav_mesh_query *q = s->q;
    if (out->count >= q->point_capacity && !nav__reserve_result(q, 0, out->count + 1)) return false;
    if (nav_failed(nav_path_push(out, nav_vec3_make((float)x, y, (float)z), poly))) return false;
    q->point_flags[out->count - 1] = flags;
    q->point_link[out->count - 1] = link;
    return true;
}

/* The point that root names (as floats: every root of a path is one). */
static nav_vec3 root_point(const search *s, uint32_t root)
{
    if (nav__root_is_vertex(root)) return s->m->verts[root];
    if (root == NAV__ROOT_START) return s->ends->start;
    return nav__way_to(s->m, root & ~NAV__ROOT_WAY);
}

/* Whether step edge e is a way taken (not an edge, nor a root only). */
static inline bool step_is_way(uint32_t e)
{
    return (e & NAV__STEP_ROOT) == NAV__STEP_WAY;
}

/* The straight path of trail step `last` (its roots back to the start, then `end`) into out. */
static nav_status write_path(search *s, uint32_t last, double end_x, float end_y, double end_z,
                             uint32_t end_poly, double cost_factor, nav_path *out, nav_mesh_result *r)
{
    nav_mesh_query *q = s->q;
    const nav_mesh *m = s->m;
    nav_path_clear(out);
    /* the corridor: the next polygon of every node (the goal's is its parent's; a link's, its far
     * end's), back to the start */
    uint32_t length = 0, chain = 0;
    for (uint32_t id = last; id != NAV__NO_STEP; id = q->trail[id].parent, chain++)
        length += q->trail[id].edge != NAV__STEP_ROOT;
    /* points: the end, a root a node at most, the near end of each link */
    if (!nav__reserve_result(q, length + 1, 2 * chain + 1)) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    uint32_t i = length + 1;
    q->corridor_count = i;
    for (uint32_t id = last; id != NAV__NO_STEP; id = q->trail[id].parent) {
        uint32_t e = q->trail[id].edge;
        if (e == NAV__STEP_ROOT) continue;
        q->corridor[--i] = step_is_way(e) ? nav__way_to_poly(m, e & ~NAV__STEP_WAY) : m->edge_owner[e];
    }
    q->corridor[0] = s->ends->start_poly;
    /* the points, walking back: the end, then every root met (once), and at each link its near
     * end after its far end (the root of the nodes after it) */
    if (!put_point(s, out, end_x, end_y, end_z, end_poly, NAV_MESH_POINT_END, NAV_MESH_NO_POLY))
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    bool have_root = false;
    double last_x = 0, last_z = 0;
    for (uint32_t id = last; id != NAV__NO_STEP; id = q->trail[id].parent) {
        const nav__trail_step *n = &q->trail[id];
        if (step_is_way(n->edge)) {
            /* the point before (walking back) is the far end: it comes out of the link */
            q->point_flags[out->count - 1] =
                (uint8_t)((q->point_flags[out->count - 1] & ~NAV_MESH_POINT_CORNER) |
                          NAV_MESH_POINT_LINK_END);
            uint32_t w = n->edge & ~NAV__STEP_WAY;
            nav_vec3 a = nav__way_from(m, w);
            uint32_t from_poly = w & 1 ? m->links[w >> 1].end_poly : m->links[w >> 1].start_poly;
            if (!put_point(s, out, a.x, a.y, a.z, from_poly, NAV_MESH_POINT_LINK_START, w >> 1))
                return NAV_FAILURE | NAV_OUT_OF_MEMORY;
            have_root = true;
            last_x = a.x;
            last_z = a.z;
        }
        nav_vec3 root = root_point(s, n->root);
        if (have_root && root.x == last_x && root.z == last_z) continue;
        have_root = true;
        last_x = root.x;
        last_z = root.z;
        float y =
            nav__root_is_vertex(n->root) ? root.y : nav__mesh_poly_height(m, n->root_poly, root.x, root.z);
        if (!put_point(s, out, root.x, y, root.z, n->root_poly, NAV_MESH_POINT_CORNER, NAV_MESH_NO_POLY))
            return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    nav_path_reverse(out);
    for (uint32_t a = 0, b = out->count - 1; a < b; a++, b--) {
        uint8_t f = q->point_flags[a];
        q->point_flags[a] = q->point_flags[b];
        q->point_flags[b] = f;
        uint32_t l = q->point_link[a];
        q->point_link[a] = q->point_link[b];
        q->point_link[b] = l;
    }
    out->points[0].y = s->ends->start.y;
    q->point_flags[0] = (uint8_t)((q->point_flags[0] & ~NAV_MESH_POINT_CORNER) | NAV_MESH_POINT_START);
    if (out->count > 1) q->point_flags[out->count - 1] &= (uint8_t)~NAV_MESH_POINT_CORNER;
    /* the cost: lengths at the one area cost, links at theirs */
    double length_sum = 0, link_sum = 0;
    for (uint32_t p = 0; p + 1 < out->count; p++) {
        if (q->point_flags[p] & NAV_MESH_POINT_LINK_START)
            link_sum += m->links[q->point_link[p]].cost;
        else
            length_sum +=
                nav__dist(out->points[p].x, out->points[p].z, out->points[p + 1].x, out->points[p + 1].z);
    }
    r->cost = length_sum * cost_factor + link_sum;
    r->generated = q->generated;
    out->cost = r->cost;
    return NAV_SUCCESS;
}

/* An empty pool, open list and trail for a new search. */
static void start_pool(nav_mesh_query *q)
{
    q->pool_count = q->trail_count = q->generated = 0;
    q->pool_free = q->trail_free = NO_NODE;
    q->trail_free_count = 0;
    nav_heap_clear(&q->interval_open);
}

/* Node n, expanded as step `step`, is the nearest the goal so far if its h is the least yet. */
static inline void note_best(nav_mesh_query *q, const interval_node *n, uint32_t step)
{
    nav__search_state *st = &q->st;
    double h = n->f - n->g;
    if (h < st->best_h) {
        st->best_h = h;
        st->best = step;
        st->best_right_x = n->right_x;
        st->best_right_z = n->right_z;
        st->best_left_x = n->left_x;
        st->best_left_z = n->left_z;
    }
}

static search make_search(nav_mesh_query *q)
{
    const nav__search_ends *ends = &q->st.ends;
    return (search){.q = q,
                    .m = q->mesh,
                    .ends = ends,
                    .gx = ends->goal.x,
                    .gz = ends->goal.z,
                    .cost = q->st.cost,
                    .stamp = q->stamp,
                    .goal_region =
                        ends->goal_poly < q->mesh->poly_count ? q->mesh->poly_region[ends->goal_poly] : 0,
                    .regions = !q->shortcuts};
}

void nav__optimal_begin(nav_mesh_query *q)
{
    nav__search_state *st = &q->st;
    nav__next_stamp(q);
    search s = make_search(q);
    start_pool(q);
    st->expanded = 0;
    st->best = NAV__NO_STEP;
    st->best_h = INFINITY;
    st->found = st->out_of_nodes = 0;
    nav__set_landmarks(q);
    uint32_t sp = st->ends.start_poly;
    /* one polygon: a straight line (unless a link is a shortcut) */
    if (sp == st->ends.goal_poly && !q->shortcuts) {
        q->generated = 1;
        st->found_id = add_step(q, NAV__NO_STEP, NAV__STEP_ROOT, NAV__ROOT_START, sp); /* the first fits */
        st->found = 1;
        return;
    }
    /* the start sees each edge of its polygon whole, and every link's near end in it */
    expand_point(&s, st->ends.start.x, st->ends.start.z, sp, 0, NAV__ROOT_START, NAV__NO_STEP);
    st->out_of_nodes = nav__out_of_scratch(q);
}

bool nav__optimal_run(nav_mesh_query *q, uint32_t limit)
{
    const nav_mesh *m = q->mesh;
    nav__search_state *st = &q->st;
    const nav__search_ends *ends = &st->ends;
    search s = make_search(q);
    uint32_t list[3 * NAV_MESH_MAX_POLY_VERTS + 1], done = 0;
    while (q->interval_open.count && !st->out_of_nodes && !st->found) {
        if (done >= limit) return false;
        uint32_t id = nav_heap_entry_id(nav_heap_pop(&q->interval_open));
        const interval_node *n = &q->pool[id];
        if (n->kind & NODE_GOAL) {
            st->found_id = close_node(q, n);
            st->found = st->found_id != NAV__NO_STEP;
            st->out_of_nodes = !st->found;
            break;
        }
        if (n->kind & NODE_LINK) {
            /* a shorter way to this link's far end has been found since */
            if (q->link_g[n->edge] < n->g - 1e-9 * (1 + n->g)) {
                free_slot(q, id);
                continue;
            }
            if (ends->max_expanded && st->expanded >= ends->max_expanded) {
                st->out_of_nodes = 1;
                break;
            }
            st->expanded++;
            done++;
            uint32_t need = expansion_steps(m, nav__way_to_poly(m, n->edge));
            trail_room(q, id, need);
            uint32_t step = close_node(q, &q->pool[id]);
            if (step == NAV__NO_STEP) {
                st->out_of_nodes = 1;
                break;
            }
            note_best(q, n, step);
            uint32_t w = n->edge;
            double g = n->g;
            free_slot(q, id);
            nav_vec3 b = nav__way_to(m, w);
            expand_point(&s, b.x, b.z, nav__way_to_poly(m, w), g, NAV__ROOT_WAY | w, step);
            st->out_of_nodes = nav__out_of_scratch(q);
            continue;
        }
        if (root_outdated(q, n)) {
            free_slot(q, id);
            continue;
        }
        for (;;) {
            if (ends->max_expanded && st->expanded >= ends->max_expanded) {
                st->out_of_nodes = 1;
                break;
            }
            st->expanded++;
            done++;
            /* an edge's node (the links' are pushed at once, never the one successor) */
            const interval_node *at = &q->pool[id];
            uint32_t need = expansion_steps(m, m->edge_owner[at->edge]);
            trail_room(q, id, need);
            uint32_t step = add_step(q, at->parent, at->edge, at->root, at->root_poly);
            if (step == NAV__NO_STEP) {
                st->out_of_nodes = 1;
                break;
            }
            note_best(q, &q->pool[id], step);
            uint32_t produced = expand(&s, id, step, list);
            if (nav__out_of_scratch(q)) {
                st->out_of_nodes = 1;
                break;
            }
            /* intermediate pruning: one successor of the same root is expanded at once (the slot
             * of the node expanded is free again once that is known: its successors have theirs) */
            const interval_node *done_node = &q->pool[id], *next = produced == 1 ? &q->pool[list[0]] : NULL;
            bool at_once = next && !(next->kind & NODE_GOAL) && next->root == done_node->root &&
                           next->root_x == done_node->root_x && next->root_z == done_node->root_z;
            free_slot(q, id);
            if (at_once) {
                id = list[0];
                continue;
            }
            for (uint32_t i = 0; i < produced; i++) push(&s, list[i]);
            st->out_of_nodes = nav__out_of_scratch(q);
            break;
        }
    }
    return true;
}

nav_status nav__optimal_finish(nav_mesh_query *q, nav_path *out, nav_mesh_result *r)
{
    const nav_mesh *m = q->mesh;
    nav__search_state *st = &q->st;
    const nav__search_ends *ends = &st->ends;
    search s = make_search(q);
    r->expanded = st->expanded;
    r->generated = q->generated;
    if (st->found)
        return write_path(&s, st->found_id, s.gx, ends->goal.y, s.gz, ends->goal_poly, s.cost, out, r);
    if (st->best == NAV__NO_STEP)
        return st->out_of_nodes ? NAV_FAILURE | NAV_OUT_OF_NODES : NAV_FAILURE | NAV_UNREACHABLE;
    /* partial: to the point nearest the goal of the closest node's interval (a link: its far end) */
    uint32_t e = q->trail[st->best].edge;
    double px, pz;
    uint32_t poly;
    if (step_is_way(e)) {
        px = st->best_left_x;
        pz = st->best_left_z;
        poly = nav__way_to_poly(m, e & ~NAV__STEP_WAY);
    } else {
        double rx = st->best_right_x, rz = st->best_right_z;
        double ex = st->best_left_x - rx, ez = st->best_left_z - rz, len2 = ex * ex + ez * ez;
        double t = len2 > 0 ? ((s.gx - rx) * ex + (s.gz - rz) * ez) / len2 : 0;
        t = t < 0 ? 0 : (t > 1 ? 1 : t);
        px = rx + ex * t;
        pz = rz + ez * t;
        poly = m->edge_owner[e];
    }
    nav_status ws =
        write_path(&s, st->best, px, nav__mesh_poly_height(m, poly, px, pz), pz, poly, s.cost, out, r);
    if (nav_failed(ws)) return ws;
    return NAV_SUCCESS | NAV_PARTIAL_RESULT | (st->out_of_nodes ? NAV_OUT_OF_NODES : NAV_UNREACHABLE);
}

nav_status nav__optimal_distances(nav_mesh_query *q, uint32_t poly, double x, double z, double *dist)
{
    const nav_mesh *m = q->mesh;
    nav__search_state *st = &q->st;
    for (uint32_t v = 0; v < m->vert_count; v++) dist[v] = INFINITY;
    st->ends = (nav__search_ends){.start = nav_vec3_make((float)x, 0, (float)z),
                                  .start_poly = poly,
                                  .goal_poly = NAV_MESH_NO_POLY,
                                  .min_cost = 1};
    q->shortcuts = 0;
    q->all_corners = 0;
    q->landmarks = 0;
    nav__next_stamp(q);
    search s = make_search(q);
    s.all = true;
    s.dist = dist;
    s.regions = false;
    start_pool(q);
    expand_point(&s, x, z, poly, 0, NAV__ROOT_START, NAV__NO_STEP);
    uint32_t list[3 * NAV_MESH_MAX_POLY_VERTS + 1];
    while (q->interval_open.count && !nav__out_of_scratch(q)) {
        uint32_t id = nav_heap_entry_id(nav_heap_pop(&q->interval_open));
        bool outdated = root_outdated(q, &q->pool[id]);
        uint32_t produced = outdated ? 0 : expand(&s, id, NAV__NO_STEP, list); /* no path: no trail */
        free_slot(q, id);
        for (uint32_t i = 0; i < produced; i++) push(&s, list[i]);
    }
    if (q->out_of_memory) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    return q->out_of_room ? NAV_FAILURE | NAV_OUT_OF_NODES : NAV_SUCCESS;
}
