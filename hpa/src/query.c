/* HPA* queries: one A* over a graph that is fine near the ends and coarse in between.
 *
 * Botea et al. (2004), section 4, join start and goal to the abstract graph by searching their
 * clusters to every node there, level by level, and then search the top level. Those joining
 * searches are exhaustive (every node of the cluster must get its cost) and, measured, took most
 * of a query. Here the joining is part of the one A*, so the heuristic steers it too:
 * - in the level-1 clusters of start and goal, the vertices are cells and the edges grid moves
 *   kept inside the cluster, plus the crossings of the cluster's transitions;
 * - elsewhere inside the level-(m+1) clusters of start or goal, the vertices are the nodes living
 *   at level m and the edges those of level m (m = 1 next to the ends, growing outwards);
 * - outside every cluster of start and goal, the top level.
 * A node's level is fixed by where it lies, and every way from a coarse part into a finer one
 * crosses a border of the coarse level, so it ends at a node living at that level (the bake puts
 * a node on every crossing it keeps). The graph is the classic one with start and goal inserted
 * (an edge from the start to each node of its cluster, costing the cheapest way inside it), so
 * the answer is the one HPA* defines, found with less work. The shared baked data is only read:
 * the start and goal exist in the query object alone.
 *
 * With the bake's distance fields (grids of one cost whose moves all go both ways), the first
 * bullet needs no cells: the start reaches each node of its cluster at the field's cost, and the
 * goal is reached from each node of its cluster likewise (search_with_fields); the cells of those
 * two joins come from walking down the fields (descend).
 *
 * Refinement: the parent chain gives cells, and level-l edges whose stored lists of level-(l-1)
 * edges, down to stored moves, are copied into the path; one route can be unfolded a few cells at
 * a time (nav_hpa_refine_next).
 *
 * The search is weighted A* (weight 1.2 by default), and near queries (start and goal within two
 * cluster sides) first try a plain A* in the box round them; only if that box does not join them
 * does the search above run. Every path of the grid can be followed in the abstract graph (see
 * bake.c), so the query finds a path whenever one exists. */
#include <math.h>
#include <stdlib.h>

#include "alloc.h"
#include "hpa_internal.h"
#include "nav/region.h"

#define NO_VERTEX UINT32_MAX

/* Direction offsets in nav_dir order (nav_dir_offset, without a call a move). */
static const int8_t dir_dx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
static const int8_t dir_dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
/* Near queries (start and goal at most near_clusters level-1 cluster sides apart, across and down)
 * first try a plain A* in the box round them, grown by half a side, for at most NEAR_BUDGET
 * cluster areas of expansions. Measured on the Moving AI maps, every path HPA* made more than
 * 1.15 times the optimum after smoothing was shorter than two cluster sides: there a detour
 * through a transition weighs most against the path. */
#define DEFAULT_NEAR_CLUSTERS 2
/* The abstract search is weighted A*: the estimate counts this much more than the distance. A
 * route of the graph is then at most this factor dearer than its best (Pohl 1970), and far fewer
 * vertices are expanded where the best route runs a few percent above the straight line (random
 * obstacles: every cell of the start's and goal's clusters under that slack is looked at). See
 * bench/README.md for the measurements behind the value. */
#ifndef DEFAULT_WEIGHT
#define DEFAULT_WEIGHT 1.2
#endif
#define NEAR_BUDGET 2

enum { PLAN_NONE, PLAN_LOCAL, PLAN_ROUTE };

typedef struct walk_frame {
    int level;
    uint32_t edge, at; /* the edge being unfolded and its next refinement entry */
} walk_frame;

struct nav_hpa_query {
    const nav_hpa *hpa;
    const nav_grid *grid;
    nav_allocator allocator;
    nav_region_query *region; /* the direct search of near queries */
    uint32_t near_cells;      /* the largest box it searches */
    int32_t near_clusters;    /* the largest distance, in cluster sides, of a near query (0: none) */
    uint32_t cluster_cells;   /* cells of a level-1 cluster: vertices N + k * cluster_cells + local */
    uint32_t vertices;        /* nodes, then the cells of two level-1 clusters */
    double *g;
    uint32_t *parent;
    uint32_t *via; /* the level-l edge that reached the vertex, or NO_VERTEX for a grid move */
    uint8_t *via_level;
    uint32_t *stamp; /* generation << 1 | closed */
    uint32_t generation;
    nav_heap open;
    uint32_t *cell_node[2]; /* node of each cell of the start's and the goal's cluster, or HPA_NO_NODE */
    uint32_t *chain;        /* the route's vertices, goal first */
    uint32_t chain_cap;
    /* the last plan and the walk that refines it */
    int plan;           /* PLAN_NONE, PLAN_LOCAL (cells in local) or PLAN_ROUTE (chain) */
    nav_path local;     /* a route found on the grid itself (near queries, one cluster) */
    uint32_t walk_next; /* PLAN_LOCAL: next index in local; PLAN_ROUTE: chain entries left */
    uint32_t walk_cell; /* PLAN_ROUTE: the last cell given */
    bool walk_started;  /* PLAN_ROUTE: the start cell was given */
    bool walk_failed;   /* PLAN_ROUTE: a field join led nowhere (damaged data) */
    int depth;          /* frames on the stack */
    walk_frame stack[NAV_HPA_MAX_LEVELS + 1];
    uint64_t expanded;
    /* with the bake's distance fields: start and goal joined by lookups (see search_with_fields) */
    bool fields;
    uint32_t *join_cells; /* the cells of a join being walked, in walking order */
    uint32_t join_count, join_next;
    int32_t start_x, start_y;
    uint32_t goal_first, goal_end; /* the goal's level-1 cluster's node range */
    /* the current query */
    nav_grid_rect rect[2]; /* the level-1 clusters of start (slot 0) and goal (slot 1) */
    uint32_t first[2][NAV_HPA_MAX_LEVELS + 1], end[2][NAV_HPA_MAX_LEVELS + 1]; /* their node ranges */
    int32_t goal_x, goal_y;
    double weight;              /* of the heuristic, >= 1 */
    double unit, unit_diagonal; /* the heuristic: octile (or Manhattan) distance times the cheapest cost */
    double step_cost[8];        /* on a grid of one cost, each move's cost (0 otherwise: asked of the grid) */
    bool manhattan;
};

nav_status nav_hpa_query_create(const nav_hpa *hpa, const nav_grid *grid, const nav_hpa_query_desc *desc,
                                nav_hpa_query **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!hpa || !grid || nav_grid_width(grid) != hpa->width || nav_grid_height(grid) != hpa->height)
        return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_allocator a;
    nav__allocator_resolve(&a, desc ? desc->allocator : NULL);
    nav_hpa_query *q = nav__calloc(&a, 1, sizeof *q);
    if (!q) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    q->hpa = hpa;
    q->grid = grid;
    q->allocator = a;
    const hpa_level *l1 = &hpa->level[1];
    uint64_t cells = (uint64_t)hpa->width * (uint64_t)hpa->height;
    uint64_t cluster_cells = (uint64_t)l1->side * (uint64_t)l1->side;
    q->cluster_cells = (uint32_t)(cluster_cells < cells ? cluster_cells : cells);
    q->vertices = hpa->node_count + 2 * q->cluster_cells;
    if (desc && desc->weight != 0 && !(desc->weight >= 1 && desc->weight <= 10)) {
        nav_hpa_query_destroy(q);
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    int32_t near = desc && desc->near_clusters ? desc->near_clusters : DEFAULT_NEAR_CLUSTERS;
    q->near_clusters = near < 0 ? 0 : near > 8 ? 8 : near;
    uint64_t near_side = (uint64_t)l1->side * (uint64_t)(q->near_clusters + 1);
    q->near_cells = (uint32_t)(near_side * near_side < cells ? near_side * near_side : cells);
    uint32_t n = q->vertices;
    q->g = nav__alloc(&a, nav__mul_size(n, sizeof *q->g));
    q->parent = nav__alloc(&a, nav__mul_size(n, sizeof *q->parent));
    q->via = nav__alloc(&a, nav__mul_size(n, sizeof *q->via));
    q->via_level = nav__alloc(&a, n);
    q->stamp = nav__calloc(&a, n, sizeof *q->stamp);
    q->chain_cap = 256;
    nav_path_init(&q->local, &a);
    q->chain = nav__alloc(&a, q->chain_cap * sizeof *q->chain);
    bool ok = q->g && q->parent && q->via && q->via_level && q->stamp && q->chain &&
              nav_succeeded(nav_heap_init(&q->open, &a, n, n)) &&
              nav_succeeded(nav_region_query_create(grid, q->near_cells, &a, &q->region));
    q->fields = hpa->field != NULL;
    q->join_cells = nav__alloc(&a, nav__mul_size(q->cluster_cells + 1, sizeof *q->join_cells));
    ok = ok && q->join_cells;
    for (int k = 0; k < 2 && ok; k++) {
        q->cell_node[k] = nav__alloc(&a, nav__mul_size(q->cluster_cells, sizeof(uint32_t)));
        ok = q->cell_node[k] != NULL;
        for (uint32_t i = 0; ok && i < q->cluster_cells; i++) q->cell_node[k][i] = HPA_NO_NODE;
    }
    if (!ok) {
        nav_hpa_query_destroy(q);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    const nav_grid_desc *gd = nav_grid_get_desc(grid);
    q->manhattan = gd->connectivity == NAV_CONNECT_4;
    q->weight = desc && desc->weight != 0 ? desc->weight : DEFAULT_WEIGHT;
    q->unit = nav_grid_min_cost(grid) * q->weight; /* the heuristic's scale, weight included */
    q->unit_diagonal = q->unit * (gd->diagonal_cost - 1.0);
    double uniform = nav_grid_uniform_cost(grid);
    for (int d = 0; d < 8; d++) q->step_cost[d] = uniform * (d < 4 ? 1.0 : gd->diagonal_cost);
    *out = q;
    return NAV_SUCCESS;
}

void nav_hpa_query_destroy(nav_hpa_query *q)
{
    if (!q) return;
    nav_region_query_destroy(q->region);
    nav_heap_destroy(&q->open);
    nav__free(&q->allocator, q->g);
    nav__free(&q->allocator, q->parent);
    nav__free(&q->allocator, q->via);
    nav__free(&q->allocator, q->via_level);
    nav__free(&q->allocator, q->stamp);
    nav__free(&q->allocator, q->chain);
    nav_path_destroy(&q->local);
    nav__free(&q->allocator, q->join_cells);
    nav__free(&q->allocator, q->cell_node[0]);
    nav__free(&q->allocator, q->cell_node[1]);
    nav_allocator keep = q->allocator;
    nav__free(&keep, q);
}

size_t nav_hpa_query_memory_bytes(const nav_hpa_query *q)
{
    if (!q) return 0;
    size_t per_vertex = sizeof *q->g + sizeof *q->parent + sizeof *q->via + 1 + sizeof *q->stamp +
                        sizeof(nav_heap_entry) + sizeof(uint32_t);
    return sizeof *q + (size_t)q->vertices * per_vertex + 3 * (size_t)q->cluster_cells * sizeof(uint32_t) +
           (size_t)q->chain_cap * sizeof *q->chain + nav_region_query_memory_bytes(q->region);
}

/* ---- the mixed graph ------------------------------------------------------------------------- */

static inline bool in_range(const nav_hpa_query *q, int k, int l, uint32_t node)
{
    return node - q->first[k][l] < q->end[k][l] - q->first[k][l];
}

/* The level whose edges a node (outside the two level-1 clusters) is expanded with: the highest
 * level whose cluster holding the node holds neither start nor goal. */
static int node_mode(const nav_hpa_query *q, uint32_t node)
{
    for (int l = 2; l <= q->hpa->levels; l++)
        if (in_range(q, 0, l, node) || in_range(q, 1, l, node)) return l - 1;
    return q->hpa->levels;
}

static inline uint32_t cell_vertex(const nav_hpa_query *q, int k, int32_t x, int32_t y)
{
    const nav_grid_rect *r = &q->rect[k];
    return q->hpa->node_count + (uint32_t)k * q->cluster_cells + (uint32_t)(y - r->y) * (uint32_t)r->width +
           (uint32_t)(x - r->x);
}

/* The vertex of a node: its cell's, inside the start's or the goal's cluster, else itself. */
static inline uint32_t node_vertex(const nav_hpa_query *q, uint32_t node)
{
    const nav_hpa *hpa = q->hpa;
    if (q->fields) return node;
    if (in_range(q, 0, 1, node)) return cell_vertex(q, 0, hpa->node_x[node], hpa->node_y[node]);
    if (in_range(q, 1, 1, node)) return cell_vertex(q, 1, hpa->node_x[node], hpa->node_y[node]);
    return node;
}

static inline double heuristic(const nav_hpa_query *q, int32_t x, int32_t y)
{
    int32_t dx = x > q->goal_x ? x - q->goal_x : q->goal_x - x,
            dy = y > q->goal_y ? y - q->goal_y : q->goal_y - y;
    if (q->manhattan) return q->unit * (double)(dx + dy);
    int32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
    return q->unit * (double)hi + q->unit_diagonal * (double)lo;
}

static inline void relax(nav_hpa_query *q, uint32_t v, double g, double h, uint32_t parent, uint32_t via,
                         int level)
{
    uint32_t gen = q->generation << 1;
    uint64_t key = nav_heap_key_exact(g + h);
    if ((q->stamp[v] & ~1u) == gen) {
        if ((q->stamp[v] & 1u) || g >= q->g[v]) return;
        q->g[v] = g;
        q->parent[v] = parent;
        q->via[v] = via;
        q->via_level[v] = (uint8_t)level;
        nav_heap_decrease(&q->open, v, key, nav_heap_tie_larger_g(g));
        return;
    }
    q->stamp[v] = gen;
    q->g[v] = g;
    q->parent[v] = parent;
    q->via[v] = via;
    q->via_level[v] = (uint8_t)level;
    nav_heap_push(&q->open, key, nav_heap_tie_larger_g(g), v);
}

/* Follows one node's edges of level l. A target already open at no greater g is passed over before
 * its estimate is worked out. */
static void expand_edges(nav_hpa_query *q, uint32_t u, uint32_t from_vertex, int l, double g,
                         bool crossings_only)
{
    const nav_hpa *hpa = q->hpa;
    const hpa_level *lv = &hpa->level[l];
    uint32_t gen = q->generation << 1;
    for (uint32_t e = lv->edge_first[u]; e < lv->edge_first[u + 1]; e++) {
        uint32_t t = lv->edge_target[e];
        uint32_t v = node_vertex(q, t);
        if (crossings_only && v >= hpa->node_count &&
            (v - hpa->node_count) / q->cluster_cells == (from_vertex - hpa->node_count) / q->cluster_cells)
            continue; /* inside the cluster the cells' own moves stand for it */
        double ng = g + lv->edge_cost[e];
        if ((q->stamp[v] & ~1u) == gen && ((q->stamp[v] & 1u) || ng >= q->g[v])) continue;
        relax(q, v, ng, heuristic(q, hpa->node_x[t], hpa->node_y[t]), from_vertex, e, l);
    }
}

/* A new search: a new generation of stamps (all cleared every 2^31 searches), an empty open list. */
static void begin_search(nav_hpa_query *q)
{
    if (++q->generation >= (1u << 31)) {
        for (uint32_t i = 0; i < q->vertices; i++) q->stamp[i] = 0;
        q->generation = 1;
    }
    nav_heap_clear(&q->open);
}

/* Takes the best vertex off the open list and closes it. */
static uint32_t pop_vertex(nav_hpa_query *q)
{
    uint32_t v = nav_heap_entry_id(nav_heap_pop(&q->open));
    q->stamp[v] |= 1u;
    q->expanded++;
    return v;
}

/* A* from the start's cell vertex to the goal's. Returns true when the goal was reached. */
static bool search(nav_hpa_query *q, uint32_t start_vertex, uint32_t goal_vertex, int32_t sx, int32_t sy)
{
    const nav_hpa *hpa = q->hpa;
    begin_search(q);
    relax(q, start_vertex, 0, heuristic(q, sx, sy), NO_VERTEX, NO_VERTEX, 0);
    uint32_t n = hpa->node_count;
    while (q->open.count) {
        uint32_t v = pop_vertex(q);
        if (v == goal_vertex) return true;
        double g = q->g[v];
        if (v < n) {
            expand_edges(q, v, v, node_mode(q, v), g, false);
            continue;
        }
        /* a cell of the start's or the goal's cluster: grid moves inside it, and its node's crossings */
        int k = (int)((v - n) / q->cluster_cells);
        uint32_t local = (v - n) % q->cluster_cells;
        const nav_grid_rect *r = &q->rect[k];
        int32_t x = r->x + (int32_t)(local % (uint32_t)r->width),
                y = r->y + (int32_t)(local / (uint32_t)r->width);
        uint8_t moves = nav_grid_moves(q->grid, x, y);
        for (; moves; moves &= (uint8_t)(moves - 1)) {
            int d = __builtin_ctz(moves);
            int32_t nx = x + dir_dx[d], ny = y + dir_dy[d];
            if (nx < r->x || ny < r->y || nx >= r->x + r->width || ny >= r->y + r->height) continue;
            uint32_t w = v + (uint32_t)(dir_dy[d] * r->width + dir_dx[d]);
            if ((q->stamp[w] & ~1u) == q->generation << 1 && (q->stamp[w] & 1u)) continue;
            double step =
                q->step_cost[d] > 0 ? q->step_cost[d] : nav_grid_move_cost(q->grid, x, y, (nav_dir)d);
            relax(q, w, g + step, heuristic(q, nx, ny), v, NO_VERTEX, 0);
        }
        uint32_t node = q->cell_node[k][local];
        if (node != HPA_NO_NODE) expand_edges(q, node, v, 1, g, true);
    }
    return false;
}

/* The field value of a cell for node u (its cluster's local index), or FIELD_NONE. */
static uint16_t field_at(const nav_hpa_query *q, uint32_t u, int32_t x, int32_t y)
{
    const nav_hpa *hpa = q->hpa;
    int32_t side = hpa->level[1].side;
    int32_t lx = x - (x / side) * side, ly = y - (y / side) * side;
    return hpa->field[(size_t)u * hpa->field_cells + (size_t)(ly * side + lx)];
}

/* The search with distance fields: the start reaches each node of its level-1 cluster at the
 * field's cost, and a node of the goal's cluster reaches the goal at its field's cost; no cell is
 * expanded. Vertices: the nodes, then the start (node_count) and the goal (node_count + 1). The
 * route is the same kind of route (a cheapest way inside the cluster to or from a node), with the
 * field's costs rounded to a sixteenth of a move. */
static bool search_with_fields(nav_hpa_query *q, int32_t sx, int32_t sy)
{
    const nav_hpa *hpa = q->hpa;
    uint32_t n = hpa->node_count, start_vertex = n, goal_vertex = n + 1;
    begin_search(q);
    q->stamp[start_vertex] = q->generation << 1 | 1u;
    for (uint32_t u = q->first[0][1]; u < q->end[0][1]; u++) {
        uint16_t f = field_at(q, u, sx, sy);
        if (f != FIELD_NONE)
            relax(q, u, f * hpa->field_unit, heuristic(q, hpa->node_x[u], hpa->node_y[u]), start_vertex,
                  NO_VERTEX, 0);
    }
    while (q->open.count) {
        uint32_t v = pop_vertex(q);
        if (v == goal_vertex) return true;
        double g = q->g[v];
        if (v - q->goal_first < q->goal_end - q->goal_first) {
            uint16_t f = field_at(q, v, q->goal_x, q->goal_y);
            if (f != FIELD_NONE) relax(q, goal_vertex, g + f * hpa->field_unit, 0, v, NO_VERTEX, 0);
        }
        expand_edges(q, v, v, node_mode(q, v), g, false);
    }
    return false;
}

/* ---- refinement ------------------------------------------------------------------------------ */

/* The route of the last plan is refined by a resumable walk: the chain of vertices (goal first),
 * and a stack of the edges being unfolded, one frame a level. Each step yields one cell, so a
 * caller may take the first cells of a long route before the rest is unfolded. */
static nav_status push_cell(nav_hpa_query *q, nav_path *path, uint32_t cell)
{
    uint32_t w = (uint32_t)q->hpa->width;
    return nav_path_push(path, nav_grid_cell_center(q->grid, (int32_t)(cell % w), (int32_t)(cell / w)), cell);
}

static uint32_t vertex_cell(const nav_hpa_query *q, uint32_t v)
{
    const nav_hpa *hpa = q->hpa;
    if (v < hpa->node_count) return hpa->node_cell[v];
    if (q->fields) /* the start or the goal */
        return v == hpa->node_count ? nav_grid_index(q->grid, q->start_x, q->start_y)
                                    : nav_grid_index(q->grid, q->goal_x, q->goal_y);
    int k = (int)((v - hpa->node_count) / q->cluster_cells);
    uint32_t local = (v - hpa->node_count) % q->cluster_cells;
    const nav_grid_rect *r = &q->rect[k];
    return nav_grid_index(q->grid, r->x + (int32_t)(local % (uint32_t)r->width),
                          r->y + (int32_t)(local / (uint32_t)r->width));
}

/* The cells from a cell of node u's cluster down u's field to u's cell (the cell itself left out),
 * into join_cells; their number, or UINT32_MAX when the field leads nowhere (damaged data: the
 * leg search then stands in, see join). Each step goes to the allowed neighbour inside the
 * cluster with the least field value below the current one, so the walk ends. */
static uint32_t descend(nav_hpa_query *q, uint32_t u, uint32_t from)
{
    const nav_hpa *hpa = q->hpa;
    int32_t w = hpa->width, side = hpa->level[1].side;
    int32_t x = (int32_t)(from % (uint32_t)w), y = (int32_t)(from / (uint32_t)w);
    int32_t x0 = (x / side) * side, y0 = (y / side) * side;
    int32_t x1 = x0 + side < w ? x0 + side : w, y1 = y0 + side < hpa->height ? y0 + side : hpa->height;
    const uint16_t *field = hpa->field + (size_t)u * hpa->field_cells;
    uint16_t f = field[(y - y0) * side + (x - x0)];
    uint32_t count = 0;
    while ((uint32_t)(y * w + x) != hpa->node_cell[u]) {
        if (f == FIELD_NONE || count >= q->cluster_cells) return UINT32_MAX;
        int best = -1;
        uint16_t best_f = f;
        for (uint8_t moves = nav_grid_moves(q->grid, x, y); moves; moves &= (uint8_t)(moves - 1)) {
            int d = __builtin_ctz(moves);
            int32_t nx = x + dir_dx[d], ny = y + dir_dy[d];
            if (nx < x0 || ny < y0 || nx >= x1 || ny >= y1) continue;
            uint16_t nf = field[(ny - y0) * side + (nx - x0)];
            if (nf < best_f) best_f = nf, best = d;
        }
        if (best < 0) return UINT32_MAX;
        x += dir_dx[best];
        y += dir_dy[best];
        f = best_f;
        q->join_cells[count++] = (uint32_t)(y * w + x);
    }
    return count;
}

/* Fills join_cells with the cells of a field join, in walking order: from the start's cell to node
 * v (the start's join), or from node v to the goal's cell (the goal's). False for damaged data no
 * leg search can mend. */
static bool join(nav_hpa_query *q, uint32_t v, bool to_goal)
{
    const nav_hpa *hpa = q->hpa;
    uint32_t from = to_goal ? nav_grid_index(q->grid, q->goal_x, q->goal_y) : q->walk_cell;
    uint32_t count = descend(q, v, from);
    if (count == UINT32_MAX) {
        nav_path_clear(&q->local);
        nav_status s = nav_region_leg(q->region, nav__hpa_level1_rect(hpa, nav__hpa_node_cluster(hpa, 1, v)),
                                      from, hpa->node_cell[v], 0, &q->local, NULL);
        if (s != NAV_SUCCESS || q->local.count == 0 || q->local.count > q->cluster_cells + 1) return false;
        count = q->local.count - 1;
        for (uint32_t i = 0; i < count; i++) q->join_cells[i] = q->local.nodes[i + 1];
    }
    if (to_goal) { /* walked from the goal down to v: turn round, v left out, the goal put in */
        for (uint32_t i = 0, j = count - 1; count && i < j; i++, j--) {
            uint32_t t = q->join_cells[i];
            q->join_cells[i] = q->join_cells[j];
            q->join_cells[j] = t;
        }
        /* now [v, ..., first step from the goal]: drop v, append the goal */
        for (uint32_t i = 1; i < count; i++) q->join_cells[i - 1] = q->join_cells[i];
        if (count) q->join_cells[count - 1] = from;
    }
    q->join_count = count;
    q->join_next = 0;
    return true;
}

/* The next cell of the route, or false when it is all out. */
static bool next_cell(nav_hpa_query *q, uint32_t *cell)
{
    const nav_hpa *hpa = q->hpa;
    if (q->plan == PLAN_LOCAL) {
        if (q->walk_next >= q->local.count) return false;
        *cell = q->local.nodes[q->walk_next++];
        return true;
    }
    if (q->plan != PLAN_ROUTE) return false;
    if (!q->walk_started) {
        q->walk_started = true;
        *cell = q->walk_cell;
        return true;
    }
    for (;;) {
        if (q->join_next < q->join_count) {
            q->walk_cell = q->join_cells[q->join_next++];
            *cell = q->walk_cell;
            return true;
        }
        if (q->depth > 0) {
            walk_frame *f = &q->stack[q->depth - 1];
            const hpa_level *lv = &hpa->level[f->level];
            if (f->at == lv->sub_first[f->edge + 1]) {
                q->depth--;
                continue;
            }
            if (f->level == 1) {
                uint8_t d = lv->moves[f->at++];
                q->walk_cell = (uint32_t)((int32_t)q->walk_cell + dir_dy[d] * hpa->width + dir_dx[d]);
                *cell = q->walk_cell;
                return true;
            }
            uint32_t sub = lv->sub[f->at++];
            q->stack[q->depth++] = (walk_frame){f->level - 1, sub, hpa->level[f->level - 1].sub_first[sub]};
            continue;
        }
        if (q->walk_next == 0) return false;
        uint32_t v = q->chain[--q->walk_next];
        if (q->via_level[v] == 0 && q->fields) {
            bool to_goal = v == hpa->node_count + 1;
            if (!join(q, to_goal ? q->parent[v] : v, to_goal)) {
                q->walk_failed = true;
                return false;
            }
            continue;
        }
        if (q->via_level[v] == 0) {
            q->walk_cell = vertex_cell(q, v);
            *cell = q->walk_cell;
            return true;
        }
        uint32_t e = q->via[v];
        q->stack[q->depth++] = (walk_frame){q->via_level[v], e, hpa->level[q->via_level[v]].sub_first[e]};
    }
}

/* Keeps the route found by the search: its vertices, goal first. */
static nav_status keep_route(nav_hpa_query *q, uint32_t start_vertex, uint32_t goal_vertex,
                             uint32_t *abstract)
{
    uint32_t count = 0;
    *abstract = 0;
    for (uint32_t v = goal_vertex; v != start_vertex; v = q->parent[v]) {
        if (count == q->chain_cap) {
            uint32_t *grown = nav__realloc(&q->allocator, q->chain, q->chain_cap * sizeof *q->chain,
                                           nav__mul_size((size_t)q->chain_cap * 2, sizeof *q->chain));
            if (!grown) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
            q->chain = grown;
            q->chain_cap *= 2;
        }
        q->chain[count++] = v;
        *abstract += q->via_level[v] != 0;
    }
    q->plan = PLAN_ROUTE;
    q->walk_next = count;
    q->walk_cell = vertex_cell(q, start_vertex);
    q->walk_started = false;
    q->walk_failed = false;
    q->join_count = q->join_next = 0;
    q->depth = 0;
    return NAV_SUCCESS;
}

/* ---- the query ------------------------------------------------------------------------------- */

/* The cost of a cell path, as the grid counts it. On a grid of one cost at least 3 cells wide a step
 * is straight when the cells' indices differ by 1 or a row, else diagonal: no division a step. */
static double cells_cost(const nav_hpa_query *q, const nav_path *path)
{
    const nav_grid *grid = q->grid;
    double cost = 0;
    int32_t w = nav_grid_width(grid);
    if (q->step_cost[0] > 0 && w >= 3) {
        for (uint32_t i = 1; i < path->count; i++) {
            int64_t delta = (int64_t)path->nodes[i] - (int64_t)path->nodes[i - 1];
            bool straight = delta == 1 || delta == -1 || delta == w || delta == -w;
            cost += straight ? q->step_cost[NAV_DIR_E] : q->step_cost[NAV_DIR_SE];
        }
        return cost;
    }
    for (uint32_t i = 1; i < path->count; i++) {
        int32_t a = (int32_t)path->nodes[i - 1], b = (int32_t)path->nodes[i];
        int32_t dx = b % w - a % w, dy = b / w - a / w;
        static const int8_t dir_of[3][3] = {{NAV_DIR_NW, NAV_DIR_N, NAV_DIR_NE},
                                            {NAV_DIR_W, -1, NAV_DIR_E},
                                            {NAV_DIR_SW, NAV_DIR_S, NAV_DIR_SE}};
        cost += nav_grid_move_cost(grid, a % w, a / w, (nav_dir)dir_of[dy + 1][dx + 1]);
    }
    return cost;
}

/* Marks the nodes of the level-1 cluster in slot k on its cells (or clears them again). */
static void mark_nodes(nav_hpa_query *q, int k, bool on)
{
    const nav_hpa *hpa = q->hpa;
    const nav_grid_rect *r = &q->rect[k];
    for (uint32_t u = q->first[k][1]; u < q->end[k][1]; u++) {
        uint32_t local =
            (uint32_t)(hpa->node_y[u] - r->y) * (uint32_t)r->width + (uint32_t)(hpa->node_x[u] - r->x);
        q->cell_node[k][local] = on ? u : HPA_NO_NODE;
    }
}

static nav_status abstract_route(nav_hpa_query *q, int32_t sx, int32_t sy, int32_t gx, int32_t gy,
                                 nav_hpa_result *r)
{
    const nav_hpa *hpa = q->hpa;
    q->goal_x = gx;
    q->goal_y = gy;
    int32_t xy[2][2] = {{sx, sy}, {gx, gy}};
    for (int k = 0; k < 2; k++)
        for (int l = 1; l <= hpa->levels; l++) {
            uint32_t c = nav__hpa_cluster(hpa, l, xy[k][0], xy[k][1]);
            q->first[k][l] = hpa->level[l].node_first[c];
            q->end[k][l] = hpa->level[l].node_end[c];
            if (l == 1) q->rect[k] = nav__hpa_level1_rect(hpa, c);
        }
    for (int l = hpa->levels; l >= 1 && !r->search_level; l--)
        if (nav__hpa_cluster(hpa, l, sx, sy) != nav__hpa_cluster(hpa, l, gx, gy)) r->search_level = l;
    if (!r->search_level) r->search_level = 1;
    if (q->fields) {
        q->start_x = sx;
        q->start_y = sy;
        q->goal_first = q->first[1][1];
        q->goal_end = q->end[1][1];
        if (!search_with_fields(q, sx, sy)) return NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE;
        return keep_route(q, hpa->node_count, hpa->node_count + 1, &r->abstract_edges);
    }
    /* start and goal in one cluster share its cells */
    bool shared = nav__hpa_cluster(hpa, 1, sx, sy) == nav__hpa_cluster(hpa, 1, gx, gy);
    int goal_slot = shared ? 0 : 1;
    if (shared) q->first[1][1] = q->end[1][1] = 0;
    mark_nodes(q, 0, true);
    if (!shared) mark_nodes(q, 1, true);
    uint32_t start_vertex = cell_vertex(q, 0, sx, sy), goal_vertex = cell_vertex(q, goal_slot, gx, gy);
    bool found = search(q, start_vertex, goal_vertex, sx, sy);
    mark_nodes(q, 0, false);
    if (!shared) mark_nodes(q, 1, false);
    if (!found) return NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE;
    return keep_route(q, start_vertex, goal_vertex, &r->abstract_edges);
}

/* A route from start to goal, kept in the query for next_cell: the start alone, a near path, or
 * the abstract route. */
static nav_status plan(nav_hpa_query *q, int32_t sx, int32_t sy, int32_t gx, int32_t gy, nav_hpa_result *r)
{
    const nav_hpa *hpa = q->hpa;
    const nav_grid *grid = q->grid;
    q->plan = PLAN_NONE;
    if (!nav_grid_in_bounds(grid, sx, sy) || !nav_grid_in_bounds(grid, gx, gy))
        return NAV_FAILURE | NAV_INVALID_PARAM;
    if (!nav_grid_passable(grid, sx, sy) || !nav_grid_passable(grid, gx, gy))
        return NAV_FAILURE | NAV_BLOCKED_ENDPOINT;
    uint32_t start = nav_grid_index(grid, sx, sy), goal = nav_grid_index(grid, gx, gy);
    nav_path_clear(&q->local);
    q->walk_next = 0;
    q->plan = PLAN_LOCAL;
    if (start == goal) return nav_path_push(&q->local, nav_grid_cell_center(grid, sx, sy), start);
    if (!nav_grid_may_reach(grid, sx, sy, gx, gy)) {
        nav_status s = nav_path_push(&q->local, nav_grid_cell_center(grid, sx, sy), start);
        return nav_succeeded(s) ? NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE : s;
    }
    nav_status s = NAV_SUCCESS | NAV_PARTIAL_RESULT;
    int32_t side = hpa->level[1].side, span = q->near_clusters * side;
    uint32_t cluster = nav__hpa_cluster(hpa, 1, sx, sy);
    if (q->near_clusters && abs(gx - sx) <= span && abs(gy - sy) <= span) {
        int32_t x0 = (sx < gx ? sx : gx) - side / 2, y0 = (sy < gy ? sy : gy) - side / 2;
        int32_t x1 = (sx < gx ? gx : sx) + side / 2, y1 = (sy < gy ? gy : sy) + side / 2;
        if (x0 < 0) x0 = 0;
        if (y0 < 0) y0 = 0;
        if (x1 >= hpa->width) x1 = hpa->width - 1;
        if (y1 >= hpa->height) y1 = hpa->height - 1;
        nav_grid_rect box = {x0, y0, x1 - x0 + 1, y1 - y0 + 1};
        if ((uint64_t)box.width * (uint64_t)box.height <= q->near_cells)
            s = nav_region_leg(q->region, box, start, goal, NEAR_BUDGET * q->cluster_cells, &q->local, NULL);
    } else if (cluster == nav__hpa_cluster(hpa, 1, gx, gy)) { /* one cluster: a search inside it first */
        s = nav_region_leg(q->region, nav__hpa_level1_rect(hpa, cluster), start, goal, 0, &q->local, NULL);
    }
    if (nav_failed(s) || !nav_has_detail(s, NAV_PARTIAL_RESULT)) return s;
    nav_path_clear(&q->local);
    s = abstract_route(q, sx, sy, gx, gy, r);
    if (nav_has_detail(s, NAV_UNREACHABLE)) {
        q->plan = PLAN_LOCAL;
        nav_status p = nav_path_push(&q->local, nav_grid_cell_center(grid, sx, sy), start);
        if (nav_failed(p)) return p;
    }
    return s;
}

/* Whether the route's walk has cells left once the chain is used up: an unfinished frame. */
static bool route_has_more(const nav_hpa_query *q)
{
    for (int d = 0; d < q->depth; d++)
        if (q->stack[d].at < q->hpa->level[q->stack[d].level].sub_first[q->stack[d].edge + 1]) return true;
    return false;
}

static uint64_t expanded_so_far(const nav_hpa_query *q)
{
    return q->expanded + nav_region_query_expanded(q->region);
}

nav_status nav_hpa_plan(nav_hpa_query *q, int32_t sx, int32_t sy, int32_t gx, int32_t gy,
                        nav_hpa_result *result)
{
    nav_hpa_result r = {0};
    if (result) *result = r;
    if (!q) return NAV_FAILURE | NAV_INVALID_PARAM;
    uint64_t before = expanded_so_far(q);
    nav_status s = plan(q, sx, sy, gx, gy, &r);
    if (nav_failed(s)) q->plan = PLAN_NONE;
    r.expanded = (uint32_t)(expanded_so_far(q) - before);
    if (result) *result = r;
    return s;
}

nav_status nav_hpa_refine_next(nav_hpa_query *q, uint32_t max_cells, nav_path *path)
{
    if (!q || !path) return NAV_FAILURE | NAV_INVALID_PARAM;
    if (q->plan == PLAN_NONE) return NAV_FAILURE | NAV_WRONG_STATE;
    uint32_t cell;
    for (uint32_t n = 0; n < max_cells; n++) {
        /* a run of stored moves: straight from the level-1 edge being unfolded, no walk a cell */
        if (q->plan == PLAN_ROUTE && q->depth > 0 && q->join_next >= q->join_count &&
            q->stack[q->depth - 1].level == 1) {
            walk_frame *f = &q->stack[q->depth - 1];
            const hpa_level *lv = &q->hpa->level[1];
            uint32_t run = lv->sub_first[f->edge + 1] - f->at, w = (uint32_t)q->hpa->width;
            if (run > max_cells - n) run = max_cells - n;
            if (run > 1) {
                nav_status s = nav_path_reserve(path, path->count + run);
                if (nav_failed(s)) return s;
                for (uint32_t i = 0; i < run; i++) {
                    uint8_t d = lv->moves[f->at++];
                    q->walk_cell = (uint32_t)((int32_t)q->walk_cell + dir_dy[d] * (int32_t)w + dir_dx[d]);
                    path->nodes[path->count] = q->walk_cell;
                    path->points[path->count++] = nav_grid_cell_center(q->grid, (int32_t)(q->walk_cell % w),
                                                                       (int32_t)(q->walk_cell / w));
                }
                n += run - 1;
                continue;
            }
        }
        if (!next_cell(q, &cell)) {
            q->plan = PLAN_NONE;
            return q->walk_failed ? NAV_FAILURE | NAV_CORRUPT_DATA : NAV_SUCCESS;
        }
        nav_status s = push_cell(q, path, cell);
        if (nav_failed(s)) return s;
    }
    /* done exactly at the limit? */
    if ((q->plan == PLAN_LOCAL && q->walk_next >= q->local.count) ||
        (q->plan == PLAN_ROUTE && q->walk_started && q->walk_next == 0 && q->join_next >= q->join_count &&
         !route_has_more(q))) {
        q->plan = PLAN_NONE;
        return NAV_SUCCESS;
    }
    return NAV_IN_PROGRESS;
}

nav_status nav_hpa_find_path(nav_hpa_query *q, int32_t sx, int32_t sy, int32_t gx, int32_t gy, nav_path *path,
                             nav_hpa_result *result)
{
    nav_hpa_result r = {0};
    if (result) *result = r;
    if (!q || !path) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_path_clear(path);
    uint64_t before = expanded_so_far(q);
    nav_status s = plan(q, sx, sy, gx, gy, &r);
    if (nav_succeeded(s)) {
        nav_status refined = nav_hpa_refine_next(q, UINT32_MAX, path);
        if (nav_failed(refined)) s = refined;
    }
    q->plan = PLAN_NONE;
    if (nav_failed(s)) {
        nav_path_clear(path);
        return s;
    }
    r.cost = cells_cost(q, path);
    path->cost = r.cost;
    r.expanded = (uint32_t)(expanded_so_far(q) - before);
    if (result) *result = r;
    return s;
}
