/* Private: the mesh query object, shared by the corridor search (query.c) and the optimal search
 * (polyanya.c). */
#ifndef NAV_MESH_QUERY_INTERNAL_H
#define NAV_MESH_QUERY_INTERNAL_H

#include "mesh_internal.h"
#include "nav/heap.h"

/* A node of the corridor search: a portal crossing. */
typedef struct search_node {
    double g, f; /* f: g plus the heuristic at (x, z) */
    double x, z; /* where the path crosses this node's edge (start and goal: their points) */
    /* where every area costs the same, the funnel of the portals from the start to this node's
     * edge: its apex (the path's last bend), the apex's g, and the vertices its two sides run
     * through (a side through the apex itself is open) */
    double apex_g;
    float apex_x, apex_z; /* a vertex, the start or a link's end: floats */
    float right_x, right_z, left_x, left_z;
    uint32_t parent;
} search_node;

/* What the corridor search checks of a node before it looks further, apart from the node (the two
 * of an edge share a cache line): its f, the search that last touched it, whether it is
 * expanded. */
typedef struct search_head {
    double f;
    uint32_t stamp;
    uint32_t closed;
} search_head;

/* A node of the optimal search (Polyanya): a root and an interval of an edge seen from it. */
typedef struct interval_node {
    double root_x, root_z;
    double right_x, right_z, left_x, left_z; /* the interval's ends, as the root sees them */
    /* exact points on the two rays from the root that bound what it sees (vertices, or points on
     * the line through the root and a vertex): the cone tests use them, never rounded crossings */
    double right_dir_x, right_dir_z, left_dir_x, left_dir_z;
    double g; /* length from the start to the root */
    double f;
    uint32_t root_vert; /* the root's vertex, NAV_MESH_NO_POLY for the start */
    uint32_t root_poly; /* the polygon in which the root became the root */
    uint32_t edge;      /* the edge of the next polygon through which the node enters it; for a
                         * NODE_LINK node, the way (link * 2 + direction) it takes */
    uint32_t parent;
    uint8_t kind; /* NODE_* bits */
} interval_node;

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
    uint32_t expanded, best, found_id;
    double best_h;
    nav_status status; /* a search decided at begin (unreachable, bad arguments) */
    nav_mesh_result result;
} nav__search_state;

#define NAV__SEARCH_IDLE    0
#define NAV__SEARCH_RUNNING 1
#define NAV__SEARCH_DONE    2

struct nav_mesh_query {
    const nav_mesh *mesh;
    nav_allocator allocator;
    /* corridor search: two nodes an edge (2 e and 2 e + 1: an edge keeps two funnels when neither
     * is shorter at both its ends), then the start and the goal, then one a way along an off-mesh
     * link (link * 2 + direction: its far end) */
    uint32_t node_count;
    search_node *nodes;
    search_head *heads; /* node_count entries, aligned to 32 bytes */
    void *heads_block;  /* what was allocated for heads */
    nav_heap open;
    uint32_t stamp;
    double area_cost[256];   /* this search's costs (the filter's or the mesh's) */
    double min_cost;         /* the cheapest of them */
    double one_cost;         /* the one cost of every area in use, or 0 when they differ */
    uint8_t costs_from_mesh; /* area_cost, min_cost and one_cost are the mesh's own */
    /* optimal search: a pool of interval nodes, an open list of their indices, the best g of each
     * vertex as a root (stamped) */
    interval_node *pool;
    uint32_t pool_capacity, pool_count;
    nav_heap interval_open;
    double *root_g;
    uint32_t *root_stamp;
    /* landmarks (when the mesh has them and no way is allowed): the bounds of each landmark's
     * distance to the goal, and their lower bound of each vertex's distance to the goal (stamped) */
    double *vert_h;
    uint32_t *vert_h_stamp;
    double goal_lo[NAV_MESH_MAX_LANDMARKS], goal_hi[NAV_MESH_MAX_LANDMARKS];
    float goal_lo_f[NAV_MESH_MAX_LANDMARKS], goal_hi_f[NAV_MESH_MAX_LANDMARKS]; /* rounded outwards */
    double landmark_slack; /* what a vertex's bound subtracts for the rounding of floats */
    uint8_t landmarks;
    uint64_t *edge_last; /* a digest of the last node made for each edge (stamped), to drop repeats */
    uint32_t *edge_last_stamp;
    uint8_t all_corners; /* this search may turn at every vertex (a filter leaves polygons out) */
    /* off-mesh links, per way (link * 2 + direction): the best g at its far end (stamped), and a
     * lower bound of the cost from its near end to the goal through it (when shortcuts is set:
     * some allowed way costs less than the straight line it spans, so the plain distance to the
     * goal is no lower bound and the heuristics take the ways into account) */
    double *link_g;
    uint32_t *link_stamp;
    double *link_lb;
    uint8_t *way_allowed;
    uint8_t shortcuts;
    uint8_t any_way; /* some way is allowed */
    /* the last path */
    uint32_t *corridor;
    uint32_t corridor_count;
    nav__portal *portals; /* portal_capacity entries; during a search, the funnel replay's scratch */
    double *corridor_cost;
    uint32_t portal_capacity;
    uint32_t *portal_way; /* per portal: the way of a link crossed there, or NAV_MESH_NO_POLY */
    uint8_t *point_flags;
    uint32_t *point_link;      /* per point: the link it starts, or NAV_MESH_NO_POLY */
    uint32_t scratch_capacity; /* entries of corridor */
    uint32_t point_capacity;   /* entries of point_flags and point_link */
    nav__search_state st;
};

bool nav__mesh_poly_allowed(const nav_mesh_query *q, const nav_mesh_filter *f, uint32_t p);

/* Sets q->area_cost (and min_cost, one_cost) from the mesh's costs and the filter's [opt]
 * overrides; *leaves_out: the filter leaves some polygons out (by flags or a blocked area). False
 * for an invalid override (area_cost is then half set: not the mesh's). */
bool nav__query_set_costs(nav_mesh_query *q, const nav_mesh_filter *filter, bool *leaves_out);

/* A new search stamp (on wrapping round, every stamped array is cleared). */
uint32_t nav__next_stamp(nav_mesh_query *q);

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
 * cost, or, with shortcuts, through a way if that is less. */
double nav__h_point(const nav_mesh_query *q, double x, double z, double gx, double gz, double min_cost);

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
