/* Private: the mesh query object, shared by the corridor search (query.c) and the optimal search
 * (polyanya.c). */
#ifndef NAV_MESH_QUERY_INTERNAL_H
#define NAV_MESH_QUERY_INTERNAL_H

#include "mesh_internal.h"
#include "id_table.h"
#include "nav/heap.h"

/* A node of the corridor search: a portal crossing. Nodes are made as a search reaches them, into
 * an array of the search's own (nodes); an edge's two, the start and the goal, and a link's two ways
 * are found by their pair in the table q->pairs. */
typedef struct search_node {
    double g, f; /* f: g plus the heuristic at (x, z) */
    double x, z; /* where the path crosses this node's edge (start and goal: their points) */
    /* where every area costs the same, the funnel of the portals from the start to this node's
     * edge: its apex (the path's last bend), the apex's g, and the vertices its two sides run
     * through (a side through the apex itself is open) */
    double apex_g;
    float apex_x, apex_z; /* a vertex, the start or a link's end: floats */
    float right_x, right_z, left_x, left_z;
    uint32_t parent; /* the node it was reached from (an index into nodes; the start: itself) */
    /* which node it is (edge e's two: 2 e and 2 e + 1, then the start and the goal, then one a way
     * along an off-mesh link: 2 edges + 2 + way), and NAV__NODE_CLOSED once expanded */
    uint32_t id;
} search_node;

#define NAV__NODE_CLOSED 0x80000000u

/* A node of the optimal search (Polyanya) while it waits on the open list: a root and an interval
 * of an edge seen from it. Its slot in the query's pool is taken again once it is expanded (or
 * dropped); what the path needs of it then stays as a step of the trail (nav__trail_step). */
typedef struct interval_node {
    double root_x, root_z;
    double right_x, right_z, left_x, left_z; /* the interval's ends, as the root sees them */
    /* exact points on the two rays from the root that bound what it sees (vertices, or points on
     * the line through the root and a vertex): the cone tests use them, never rounded crossings */
    double right_dir_x, right_dir_z, left_dir_x, left_dir_z;
    double g; /* length from the start to the root */
    double f;
    uint32_t root;      /* which point the root is: NAV__ROOT_* */
    uint32_t root_poly; /* the polygon in which the root became the root */
    uint32_t edge;      /* the edge of the next polygon through which the node enters it; for a
                         * NODE_LINK node, the way (link * 2 + direction) it takes */
    uint32_t parent;    /* the trail step of the node it was reached from (NAV__NO_STEP: none) */
    uint8_t kind;       /* NODE_* bits */
} interval_node;

/* An optimal search's root: a vertex of the mesh (below NAV__ROOT_WAY), the start, or the far end
 * of way w (NAV__ROOT_WAY | w). Every root is so a point of floats (the start, a vertex, a link's
 * end), which a step of the trail names in one word. */
#define NAV__ROOT_WAY   0x80000000u
#define NAV__ROOT_START 0xffffffffu
static inline bool nav__root_is_vertex(uint32_t root)
{
    return root < NAV__ROOT_WAY;
}

/* What the optimal search keeps of a node it expanded, for the path it may lie on: the step before
 * it, the polygon it entered (by its edge, or the way it took), and its root; 16 bytes where a node
 * takes 120. When the trail is full, the steps that no open node leads back through are taken back
 * (marked from the open nodes, the rest swept onto a free list): the trail holds about the steps
 * to the open nodes, a sixth of those a search expands on the Moving AI maps. */
typedef struct nav__trail_step {
    uint32_t parent; /* NAV__NO_STEP: the first; a step taken back: the next taken back */
    uint32_t edge;   /* an edge, a way (NAV__STEP_WAY | w), or NAV__STEP_ROOT: a root only (the
                      * goal reached from it, or a root passed on the way) */
    uint32_t root;
    uint32_t root_poly; /* and NAV__STEP_MARK while the trail is swept (polygons are below 2^30) */
} nav__trail_step;

#define NAV__NO_STEP   UINT32_MAX
#define NAV__STEP_WAY  0x40000000u /* edges and ways are below 2^30 (query creation checks) */
#define NAV__STEP_ROOT 0xc0000000u
#define NAV__STEP_MARK 0x80000000u

/* What both searches share once start and goal are located: the points on the mesh, their
 * polygons, the filter, and the cheapest cost factor. */
typedef struct nav__search_ends {
    nav_vec3 start, goal;
    uint32_t start_poly, goal_poly;
    const nav_mesh_filter *filter;
    double min_cost;
    uint32_t max_expanded;
} nav__search_ends;

/* A search under way (step-wise: begin, steps, finish; nav_mesh_find_path does all three). */
typedef struct nav__search_state {
    nav__search_ends ends;
    nav_mesh_filter filter; /* a copy (ends.filter points here, or is null) */
    uint8_t phase;          /* NAV__SEARCH_IDLE, _RUNNING, _DONE */
    uint8_t optimal;        /* the optimal search, else the corridor search */
    uint8_t found, out_of_nodes;
    double cost; /* the optimal search's one area cost */
    uint32_t expanded;
    uint32_t best, found_id; /* trail steps: the node nearest the goal so far, the goal's */
    double best_h;
    /* the interval of step best's node (a link's: its near and far ends), for the partial path's end */
    double best_right_x, best_right_z, best_left_x, best_left_z;
    nav_status status; /* a search decided at begin (unreachable, bad arguments) */
    nav_mesh_result result;
} nav__search_state;

#define NAV__SEARCH_IDLE    0
#define NAV__SEARCH_RUNNING 1
#define NAV__SEARCH_DONE    2

/* The query object. Its scratch starts small and grows with what a search touches (query_scratch.c):
 * tables by id (id_table.h) where the old one had a record a vertex or an edge of the mesh. */
struct nav_mesh_query {
    const nav_mesh *mesh;
    nav_allocator allocator;
    /* what it holds, and may hold (0: no limit), in bytes beside the object itself; a search that
     * would grow past max_bytes, or an optimal search make more than pool_limit nodes, stops out of room */
    size_t bytes, max_bytes;
    uint8_t out_of_room;   /* this search could not grow within the limits */
    uint8_t out_of_memory; /* this search could not grow: the allocator failed */
    /* corridor search: the nodes made so far (node_count of node_capacity), the open list of their
     * ids (lazy: a node lowered is pushed again, and an entry whose key is no longer its node's is
     * passed over), and each pair's nodes (node id / 2: an edge's two, start and goal, a link's two
     * ways) */
    search_node *nodes;
    uint32_t node_count, node_capacity;
    nav_heap open;
    nav__id_table pairs;
    uint32_t stamp;
    const double *area_cost; /* this search's costs: the mesh's own, or own_cost (a filter's) */
    double *own_cost;        /* 256 costs, made when a filter first overrides the mesh's (counted) */
    double min_cost;         /* the cheapest of them */
    double one_cost;         /* the one cost of every area in use, or 0 when they differ */
    uint8_t costs_from_mesh; /* area_cost, min_cost and one_cost are the mesh's own */
    /* optimal search: a pool of the interval nodes on its open list (pool_count slots used, those
     * freed again chained from pool_free through their parent), the open list of their slots, the
     * trail of the nodes expanded (trail_count steps used, trail_free_count of them taken back
     * and chained from trail_free), the nodes made (generated, at most pool_limit), the best g of each vertex
     * as a root, a digest of the last node made for each edge (to drop repeats) */
    interval_node *pool;
    uint32_t pool_capacity, pool_count, pool_free, pool_limit, generated;
    nav_heap interval_open;
    nav__trail_step *trail;
    uint32_t trail_capacity, trail_count, trail_free, trail_free_count;
    nav__id_table roots;
    nav__id_table edge_last;
    /* landmarks (when the mesh has them and no way is allowed): the bounds of each landmark's
     * distance to the goal, and their lower bound of each vertex's distance to the goal */
    nav__id_table vert_h;
    double goal_lo[NAV_MESH_MAX_LANDMARKS], goal_hi[NAV_MESH_MAX_LANDMARKS];
    float goal_lo_f[NAV_MESH_MAX_LANDMARKS], goal_hi_f[NAV_MESH_MAX_LANDMARKS]; /* rounded outwards */
    double landmark_slack; /* what a vertex's bound subtracts for the rounding of floats */
    uint8_t landmarks;
    uint8_t all_corners; /* this search may turn at every vertex (a filter leaves polygons out) */
    /* off-mesh links, per way (link * 2 + direction): the best g at its far end (stamped), and a
     * lower bound of the cost from its near end to the goal through it (when shortcuts is set:
     * some allowed way costs less than the straight line it spans, so the plain distance to the
     * goal is no lower bound and the heuristics take the ways into account). As many as the
     * mesh's ways: a part of the mesh's own size. */
    double *link_g;
    uint32_t *link_stamp;
    double *link_lb;
    uint8_t *way_allowed;
    uint8_t shortcuts;
    uint8_t any_way; /* some way is allowed */
    /* the last path: its corridor and portals (portal_capacity entries; during a corridor search,
     * portals is the funnel replay's scratch), and its points' flags and links (point_capacity) */
    uint32_t *corridor;
    uint32_t corridor_count;
    nav__portal *portals;
    double *corridor_cost;
    uint32_t *portal_way; /* per portal: the way of a link crossed there, or NAV_MESH_NO_POLY */
    uint32_t portal_capacity;
    uint8_t *point_flags;
    uint32_t *point_link; /* per point: the link it starts, or NAV_MESH_NO_POLY */
    uint32_t point_capacity;
    nav__search_state st;
};

/* Whether filter f [opt] and this search's area costs allow polygon p (inline: both searches ask
 * it of every step). */
static inline bool nav__mesh_poly_allowed(const nav_mesh_query *q, const nav_mesh_filter *f, uint32_t p)
{
    const nav_mesh *m = q->mesh;
    if (!(q->area_cost[m->poly_area[p]] < INFINITY)) return false;
    if (!f) return true;
    uint16_t flags = m->poly_flags[p];
    return (!f->include_flags || (flags & f->include_flags)) && !(flags & f->exclude_flags);
}

/* Sets q->area_cost (and min_cost, one_cost): the mesh's costs, or with the filter's [opt]
 * overrides in q->own_cost (made the first time, within max_bytes); *leaves_out: the filter leaves
 * some polygons out (by flags or a blocked area). NAV_SUCCESS, or NAV_FAILURE with
 * NAV_INVALID_PARAM (an invalid override: own_cost is then half set), NAV_OUT_OF_NODES (own_cost
 * would take the object past max_bytes) or NAV_OUT_OF_MEMORY. */
nav_status nav__query_set_costs(nav_mesh_query *q, const nav_mesh_filter *filter, bool *leaves_out);
/* A block of `bytes` more for the query object (counted), within max_bytes: null with q->out_of_room
 * or out_of_memory set when not. */
void *nav__query_take(nav_mesh_query *q, size_t bytes);

/* A new search stamp: the id tables empty, the out-of-room and out-of-memory marks cleared (on
 * wrapping round, every stamped slot is cleared). */
uint32_t nav__next_stamp(nav_mesh_query *q);

/* ---- growing the scratch (query_scratch.c) ----------------------------------------------------
 * Each returns false when it cannot grow, having set q->out_of_room (a limit: max_bytes, or
 * pool_limit for the pool) or q->out_of_memory (the allocator failed); what was there stays. */

/* Room for one more corridor-search node and its open-list entries. */
bool nav__grow_nodes(nav_mesh_query *q);
/* Room for one more entry in heap h (q->open or q->interval_open). */
bool nav__grow_heap(nav_mesh_query *q, nav_heap *h);
/* Room for one more interval node, and its open-list entry. */
bool nav__grow_pool(nav_mesh_query *q);
/* Room for one more step of the trail. */
bool nav__grow_trail(nav_mesh_query *q);
/* Twice the slots of table t, its slots of this search kept. */
bool nav__grow_table(nav_mesh_query *q, nav__id_table *t);
/* Room for a corridor of `polygons` polygons (and portals), and for `points` path points. */
bool nav__reserve_path(nav_mesh_query *q, uint32_t polygons, uint32_t points);
/* The same for the path a search writes, whatever max_bytes says (a search stopped out of room
 * still writes its partial path: the nodes it made, within the limit, lead there). */
bool nav__reserve_result(nav_mesh_query *q, uint32_t polygons, uint32_t points);
/* Whether this search has run out of scratch (room or memory): it then stops. */
static inline bool nav__out_of_scratch(const nav_mesh_query *q)
{
    return q->out_of_room | q->out_of_memory;
}

/* The slot of id in table t for this search, taken now if it was not (*added); null when the
 * table cannot grow (q->out_of_room or out_of_memory set). */
static inline nav__id_slot *nav__take(nav_mesh_query *q, nav__id_table *t, uint32_t id, bool *added)
{
    nav__id_slot *s = nav__id_take(t, id, added);
    if (s || !nav__grow_table(q, t)) return s;
    return nav__id_take(t, id, added);
}

/* The near end (where it is entered), far end and far polygon of way w of link w / 2. */
static inline nav_vec3 nav__way_from(const nav_mesh *m, uint32_t w)
{
    return w & 1 ? m->links[w >> 1].end : m->links[w >> 1].start;
}
static inline nav_vec3 nav__way_to(const nav_mesh *m, uint32_t w)
{
    return w & 1 ? m->links[w >> 1].start : m->links[w >> 1].end;
}
static inline uint32_t nav__way_to_poly(const nav_mesh *m, uint32_t w)
{
    return w & 1 ? m->links[w >> 1].start_poly : m->links[w >> 1].end_poly;
}

/* A lower bound of the cost from (x, z) to the goal (gx, gz): the straight line at the cheapest
 * cost (h), or, with shortcuts, through a way if that is less (nav__h_via_ways: the least of h and
 * the ways'). Inline: both searches ask it of every node. */
double nav__h_via_ways(const nav_mesh_query *q, double x, double z, double h, double min_cost);
static inline double nav__h_point(const nav_mesh_query *q, double x, double z, double gx, double gz,
                                  double min_cost)
{
    double h = nav__length(gx - x, gz - z) * min_cost;
    return q->shortcuts ? nav__h_via_ways(q, x, z, h, min_cost) : h;
}

/* Landmarks: whether this search uses the mesh's (q->landmarks: it has some and no way is allowed),
 * and if so the bounds of each one's distance to the goal (q->goal_lo, goal_hi). Once the ends are
 * set and the search stamped. */
void nav__set_landmarks(nav_mesh_query *q);

/* The landmarks' lower bound of the length from vertex v to the goal (0 when they know nothing),
 * worked out once a search (stamped). Only when q->landmarks is set. */
double nav__vert_bound(nav_mesh_query *q, uint32_t v);

/* The optimal search (polyanya.c) for areas of one cost q->st.cost, in three parts: begin (the
 * start's successors), run (up to `limit` expansions; true when the search has ended: the goal
 * reached, nothing left, or out of nodes), finish (the path into out, the result's cost).
 * finish returns as nav_mesh_find_path. */
void nav__optimal_begin(nav_mesh_query *q);
bool nav__optimal_run(nav_mesh_query *q, uint32_t limit);
nav_status nav__optimal_finish(nav_mesh_query *q, nav_path *out, nav_mesh_result *result);

/* The shortest distance in (x, z) from point (x, z) of polygon poly to every vertex (INFINITY
 * where none leads), every polygon allowed and every step but against a one-way edge, links not
 * taken: the optimal search run to the end with no goal. NAV_FAILURE | NAV_OUT_OF_NODES when the node pool
 * runs out. */
nav_status nav__optimal_distances(nav_mesh_query *q, uint32_t poly, double x, double z, double *dist);

#endif
