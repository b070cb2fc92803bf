/* HPA* queries: join start and goal to the abstract graph, search it, refine the result to cells.
 *
 * Botea et al. (2004), section 4: the start and the goal become temporary nodes. Here they are not
 * written into the graph (it is shared between threads): their edges live in the query object.
 * 1. Level 1: a fan inside the start's cluster gives the cost from the start to each node of that
 *    cluster; a fan run backwards does the same for the goal.
 * 2. Level l = 2 .. T: a Dijkstra over level-(l-1) edges inside the start's level-l cluster,
 *    seeded with the costs of step l-1, gives the cost to each node of that cluster living at
 *    level l (and backwards for the goal). T is the highest level whose clusters separate start
 *    and goal, so a short query stays low.
 * 3. A* over the level-T graph from the start's level-T nodes to the goal's.
 * 4. Refinement: every edge on the way down is a stored list of level-below edges, and a level-1
 *    edge a stored list of moves, so the cells are copied, not searched.
 * Start and goal in one level-1 cluster try a search inside it first; only if the cluster does not
 * join them (the path must leave it) does the abstract search run. Every path of the grid can be
 * followed in the abstract graph (see bake.c), so the query finds a path whenever one exists. */
#include <math.h>

#include "alloc.h"
#include "hpa_internal.h"
#include "nav/region.h"
#include "nav/search.h"

#define SIDES 2 /* 0: the start (searches forwards), 1: the goal (backwards) */

struct nav_hpa_query {
    const nav_hpa *hpa;
    const nav_grid *grid;
    nav_allocator allocator;
    nav_region_query *region[SIDES]; /* level-1 fans, kept apart so both paths stay readable */
    uint32_t *fan_cells;             /* targets of a fan: the cells of a cluster's nodes */
    double *fan_cost[SIDES];         /* cost of each node of the side's level-1 cluster */
    uint32_t fan_first[SIDES], fan_count[SIDES];
    hpa_search side[SIDES][NAV_HPA_MAX_LEVELS + 1]; /* level l >= 2 of each side */
    /* the top search: A* over one level, node ids plus the goal (id node_count) */
    double *g;
    uint32_t *via;
    uint32_t *stamp;
    uint32_t generation;
    nav_heap open;
    uint32_t *edges; /* the route's edges at one level, gathered before refinement */
    uint32_t edges_cap;
    uint64_t expanded;
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
    uint32_t cluster_cells = (uint32_t)l1->side * (uint32_t)l1->side,
             cells = (uint32_t)hpa->width * hpa->height;
    if (cluster_cells > cells) cluster_cells = cells;
    uint32_t fan_nodes = l1->max_cluster_nodes ? l1->max_cluster_nodes : 1, n = hpa->node_count + 1;
    bool ok = true;
    for (int k = 0; k < SIDES; k++) {
        ok = ok && nav_succeeded(nav_region_query_create(grid, cluster_cells, &a, &q->region[k]));
        q->fan_cost[k] = nav__alloc(&a, nav__mul_size(fan_nodes, sizeof(double)));
        ok = ok && q->fan_cost[k];
        for (int l = 2; l <= hpa->levels; l++)
            ok = ok &&
                 nav_succeeded(nav__hpa_search_init(&q->side[k][l], &a, hpa->level[l].max_cluster_nodes));
    }
    q->fan_cells = nav__alloc(&a, nav__mul_size(fan_nodes, sizeof *q->fan_cells));
    q->g = nav__alloc(&a, nav__mul_size(n, sizeof *q->g));
    q->via = nav__alloc(&a, nav__mul_size(n, sizeof *q->via));
    q->stamp = nav__calloc(&a, n, sizeof *q->stamp);
    q->edges_cap = 1024;
    q->edges = nav__alloc(&a, q->edges_cap * sizeof *q->edges);
    ok = ok && q->fan_cells && q->g && q->via && q->stamp && q->edges &&
         nav_succeeded(nav_heap_init(&q->open, &a, n, n));
    if (!ok) {
        nav_hpa_query_destroy(q);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    *out = q;
    return NAV_SUCCESS;
}

void nav_hpa_query_destroy(nav_hpa_query *q)
{
    if (!q) return;
    for (int k = 0; k < SIDES; k++) {
        nav_region_query_destroy(q->region[k]);
        nav__free(&q->allocator, q->fan_cost[k]);
        for (int l = 2; l <= NAV_HPA_MAX_LEVELS; l++)
            if (q->side[k][l].g || q->side[k][l].stamp) nav__hpa_search_destroy(&q->side[k][l]);
    }
    nav_heap_destroy(&q->open);
    nav__free(&q->allocator, q->fan_cells);
    nav__free(&q->allocator, q->g);
    nav__free(&q->allocator, q->via);
    nav__free(&q->allocator, q->stamp);
    nav__free(&q->allocator, q->edges);
    nav_allocator keep = q->allocator;
    nav__free(&keep, q);
}

size_t nav_hpa_query_memory_bytes(const nav_hpa_query *q)
{
    if (!q) return 0;
    size_t n = (size_t)q->hpa->node_count + 1, fan = q->hpa->level[1].max_cluster_nodes;
    size_t bytes = sizeof *q + n * (sizeof *q->g + sizeof *q->via + sizeof *q->stamp +
                                    sizeof(nav_heap_entry) + sizeof(uint32_t));
    bytes += fan * (sizeof *q->fan_cells + SIDES * sizeof(double)) + q->edges_cap * sizeof *q->edges;
    for (int k = 0; k < SIDES; k++) {
        bytes += nav_region_query_memory_bytes(q->region[k]);
        for (int l = 2; l <= q->hpa->levels; l++) bytes += nav__hpa_search_bytes(&q->side[k][l]);
    }
    return bytes;
}

/* ---- joining start and goal ------------------------------------------------------------------ */

/* Joins a cell to the nodes of its clusters, levels 1 .. top (side 0 forwards, 1 backwards). */
static nav_status join(nav_hpa_query *q, int k, int32_t x, int32_t y, int top)
{
    const nav_hpa *hpa = q->hpa;
    uint32_t cluster = nav__hpa_cluster(hpa, 1, x, y);
    uint32_t first = hpa->level[1].node_first[cluster], count = hpa->level[1].node_end[cluster] - first;
    for (uint32_t i = 0; i < count; i++) q->fan_cells[i] = hpa->node_cell[first + i];
    q->fan_first[k] = first;
    q->fan_count[k] = count;
    nav_status s = nav_region_fan(q->region[k], nav__hpa_level1_rect(hpa, cluster), nav_grid_index(q->grid, x, y),
                                  k == 1, q->fan_cells, count, q->fan_cost[k]);
    if (nav_failed(s)) return s;
    for (int l = 2; l <= top; l++) {
        hpa_search *s_l = &q->side[k][l];
        uint32_t c = nav__hpa_cluster(hpa, l, x, y);
        nav__hpa_search_begin(s_l, hpa->level[l].node_first[c],
                              hpa->level[l].node_end[c] - hpa->level[l].node_first[c]);
        if (l == 2) {
            for (uint32_t i = 0; i < count; i++)
                if (q->fan_cost[k][i] < INFINITY)
                    nav__hpa_search_seed(s_l, first + i, q->fan_cost[k][i], HPA_VIA_SEED | i);
        } else {
            const hpa_search *prev = &q->side[k][l - 1];
            for (uint32_t i = 0; i < prev->count; i++)
                if (hpa->node_level[prev->first + i] >= l - 1 &&
                    nav__hpa_search_reached(prev, prev->first + i))
                    nav__hpa_search_seed(s_l, prev->first + i, prev->g[i], HPA_VIA_SEED | i);
        }
        nav__hpa_search_run(s_l, hpa, l - 1, k == 1, l);
    }
    return NAV_SUCCESS;
}

/* Cost from the start (side 0) or to the goal (side 1) of a node at level top, INFINITY if the
 * joining did not reach it. */
static double joined_cost(const nav_hpa_query *q, int k, int top, uint32_t node)
{
    if (top == 1) {
        uint32_t i = node - q->fan_first[k];
        return i < q->fan_count[k] ? q->fan_cost[k][i] : INFINITY;
    }
    const hpa_search *s = &q->side[k][top];
    if (q->hpa->node_level[node] < top || !nav__hpa_search_reached(s, node)) return INFINITY;
    return s->g[node - s->first];
}

/* ---- the top search -------------------------------------------------------------------------- */

static uint32_t larger_g_first(double g)
{
    double t = 4294967295.0 - g * 1024.0;
    return t <= 0 ? 0 : (uint32_t)t;
}

static void top_relax(nav_hpa_query *q, uint32_t v, double g, double h, uint32_t via)
{
    uint32_t gen = q->generation << 1;
    uint64_t key = nav_heap_key_exact(g + h);
    if ((q->stamp[v] & ~1u) == gen) {
        if ((q->stamp[v] & 1u) || g >= q->g[v]) return;
        q->g[v] = g;
        q->via[v] = via;
        nav_heap_decrease(&q->open, v, key, larger_g_first(g));
        return;
    }
    q->stamp[v] = gen;
    q->g[v] = g;
    q->via[v] = via;
    nav_heap_push(&q->open, key, larger_g_first(g), v);
}

/* A* over the level-top graph from the joined start to the joined goal. Returns the goal's g, or
 * INFINITY; q->via[goal id] is then the last node before the goal. */
static double top_search(nav_hpa_query *q, int top, int32_t gx, int32_t gy)
{
    const nav_hpa *hpa = q->hpa;
    const hpa_level *lv = &hpa->level[top];
    uint32_t goal = hpa->node_count, w = (uint32_t)hpa->width;
    if (++q->generation >= (1u << 31)) {
        for (uint32_t i = 0; i <= hpa->node_count; i++) q->stamp[i] = 0;
        q->generation = 1;
    }
    nav_heap_clear(&q->open);
    /* the start's nodes at level top */
    uint32_t first, count;
    if (top == 1) {
        first = q->fan_first[0];
        count = q->fan_count[0];
    } else {
        first = q->side[0][top].first;
        count = q->side[0][top].count;
    }
    for (uint32_t v = first; v < first + count; v++) {
        double g = joined_cost(q, 0, top, v);
        if (g == INFINITY) continue;
        uint32_t cell = hpa->node_cell[v];
        double h = nav_grid_heuristic(q->grid, NAV_HEURISTIC_DEFAULT, (int32_t)(cell % w),
                                      (int32_t)(cell / w), gx, gy);
        top_relax(q, v, g, h, HPA_VIA_SEED);
    }
    while (q->open.count) {
        uint32_t u = nav_heap_entry_id(nav_heap_pop(&q->open));
        q->stamp[u] |= 1u;
        q->expanded++;
        if (u == goal) return q->g[goal];
        double g = q->g[u], to_goal = joined_cost(q, 1, top, u);
        if (to_goal < INFINITY) top_relax(q, goal, g + to_goal, 0, u);
        for (uint32_t e = lv->edge_first[u]; e < lv->edge_first[u + 1]; e++) {
            uint32_t v = lv->edge_target[e];
            if ((q->stamp[v] & ~1u) == q->generation << 1 && (q->stamp[v] & 1u)) continue;
            uint32_t cell = hpa->node_cell[v];
            double h = nav_grid_heuristic(q->grid, NAV_HEURISTIC_DEFAULT, (int32_t)(cell % w),
                                          (int32_t)(cell / w), gx, gy);
            top_relax(q, v, g + lv->edge_cost[e], h, e);
        }
    }
    return INFINITY;
}

/* ---- refinement ------------------------------------------------------------------------------ */

static nav_status push_cell(nav_hpa_query *q, nav_path *path, uint32_t cell)
{
    uint32_t w = (uint32_t)q->hpa->width;
    return nav_path_push(path, nav_grid_cell_center(q->grid, (int32_t)(cell % w), (int32_t)(cell / w)), cell);
}

/* Appends the cells of edge e of level l, after the path's last cell (its source). */
static nav_status expand(nav_hpa_query *q, int l, uint32_t e, nav_path *path)
{
    const hpa_level *lv = &q->hpa->level[l];
    nav_status s = NAV_SUCCESS;
    if (l == 1) {
        int32_t w = q->hpa->width;
        uint32_t cell = path->nodes[path->count - 1];
        for (uint32_t i = lv->sub_first[e]; i < lv->sub_first[e + 1] && nav_succeeded(s); i++) {
            int32_t dx, dy;
            nav_dir_offset((nav_dir)lv->moves[i], &dx, &dy);
            cell = (uint32_t)((int32_t)cell + dy * w + dx);
            s = push_cell(q, path, cell);
        }
        return s;
    }
    for (uint32_t i = lv->sub_first[e]; i < lv->sub_first[e + 1] && nav_succeeded(s); i++)
        s = expand(q, l - 1, lv->sub[i], path);
    return s;
}

static bool keep_edge(nav_hpa_query *q, uint32_t *count, uint32_t e)
{
    if (*count == q->edges_cap) {
        uint32_t *grown = nav__realloc(&q->allocator, q->edges, q->edges_cap * sizeof *q->edges,
                                       (size_t)q->edges_cap * 2 * sizeof *q->edges);
        if (!grown) return false;
        q->edges = grown;
        q->edges_cap *= 2;
    }
    q->edges[(*count)++] = e;
    return true;
}

/* Refines the start side: the cells from the start to node v of level top, appended to path. */
static nav_status refine_start(nav_hpa_query *q, int top, uint32_t v, nav_path *path)
{
    const nav_hpa *hpa = q->hpa;
    /* walk down the levels to the level-1 node the fan reached, noting where each level began */
    uint32_t node_at[NAV_HPA_MAX_LEVELS + 1];
    node_at[top] = v;
    for (int l = top; l >= 2; l--) {
        const hpa_search *s = &q->side[0][l];
        uint32_t x = node_at[l];
        while (!(s->via[x - s->first] & HPA_VIA_SEED))
            x = hpa->level[l - 1].edge_source[s->via[x - s->first]];
        node_at[l - 1] = x;
    }
    nav_status st = nav_region_fan_path(q->region[0], hpa->node_cell[node_at[1]], path);
    /* then each level's edges from node_at[l - 1] to node_at[l], upwards */
    for (int l = 2; l <= top && nav_succeeded(st); l++) {
        const hpa_search *s = &q->side[0][l];
        uint32_t count = 0;
        for (uint32_t x = node_at[l]; !(s->via[x - s->first] & HPA_VIA_SEED);) {
            uint32_t e = s->via[x - s->first];
            if (!keep_edge(q, &count, e)) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
            x = hpa->level[l - 1].edge_source[e];
        }
        for (uint32_t i = count; i-- > 0 && nav_succeeded(st);) st = expand(q, l - 1, q->edges[i], path);
    }
    return st;
}

/* Refines the goal side: the cells from node v of level top to the goal, appended to path. */
static nav_status refine_goal(nav_hpa_query *q, int top, uint32_t v, nav_path *path)
{
    const nav_hpa *hpa = q->hpa;
    nav_status st = NAV_SUCCESS;
    uint32_t x = v;
    for (int l = top; l >= 2 && nav_succeeded(st); l--) {
        const hpa_search *s = &q->side[1][l];
        while (!(s->via[x - s->first] & HPA_VIA_SEED) && nav_succeeded(st)) {
            uint32_t e = s->via[x - s->first];
            st = expand(q, l - 1, e, path);
            x = hpa->level[l - 1].edge_target[e];
        }
    }
    if (nav_failed(st)) return st;
    /* the reverse fan's path runs from the node to the goal; its first cell is already there */
    uint32_t before = path->count;
    st = nav_region_fan_path(q->region[1], hpa->node_cell[x], path);
    if (nav_succeeded(st) && path->count > before) {
        for (uint32_t i = before; i + 1 < path->count; i++) {
            path->points[i] = path->points[i + 1];
            path->nodes[i] = path->nodes[i + 1];
        }
        path->count--;
    }
    return st;
}

/* ---- the query ------------------------------------------------------------------------------- */

static double cells_cost(const nav_grid *grid, const nav_path *path)
{
    double cost = 0;
    int32_t w = nav_grid_width(grid);
    for (uint32_t i = 1; i < path->count; i++) {
        int32_t a = (int32_t)path->nodes[i - 1], b = (int32_t)path->nodes[i];
        int32_t dx = b % w - a % w, dy = b / w - a / w;
        for (int d = 0; d < 8; d++) {
            int32_t ox, oy;
            nav_dir_offset((nav_dir)d, &ox, &oy);
            if (ox == dx && oy == dy) {
                cost += nav_grid_move_cost(grid, a % w, a / w, (nav_dir)d);
                break;
            }
        }
    }
    return cost;
}

nav_status nav_hpa_find_path(nav_hpa_query *q, int32_t sx, int32_t sy, int32_t gx, int32_t gy, nav_path *path,
                             nav_hpa_result *result)
{
    nav_hpa_result r = {0};
    if (result) *result = r;
    if (!q || !path) return NAV_FAILURE | NAV_INVALID_PARAM;
    const nav_hpa *hpa = q->hpa;
    const nav_grid *grid = q->grid;
    if (!nav_grid_in_bounds(grid, sx, sy) || !nav_grid_in_bounds(grid, gx, gy))
        return NAV_FAILURE | NAV_INVALID_PARAM;
    if (!nav_grid_passable(grid, sx, sy) || !nav_grid_passable(grid, gx, gy))
        return NAV_FAILURE | NAV_BLOCKED_ENDPOINT;
    nav_path_clear(path);
    uint32_t start = nav_grid_index(grid, sx, sy), goal = nav_grid_index(grid, gx, gy);
    uint64_t expanded_before =
        q->expanded + nav_region_query_expanded(q->region[0]) + nav_region_query_expanded(q->region[1]);
    for (int l = 2; l <= hpa->levels; l++) expanded_before += q->side[0][l].expanded + q->side[1][l].expanded;
    nav_status s = NAV_SUCCESS;

    if (start == goal) {
        s = push_cell(q, path, start);
    } else if (!nav_grid_may_reach(grid, sx, sy, gx, gy)) {
        s = push_cell(q, path, start);
        if (nav_succeeded(s)) s = NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE;
    } else {
        int top = 0;
        for (int l = hpa->levels; l >= 1 && !top; l--)
            if (nav__hpa_cluster(hpa, l, sx, sy) != nav__hpa_cluster(hpa, l, gx, gy)) top = l;
        bool done = false;
        if (top == 0) {
            /* one level-1 cluster: a search inside it first */
            uint32_t cluster = nav__hpa_cluster(hpa, 1, sx, sy);
            s = nav_region_leg(q->region[0], nav__hpa_level1_rect(hpa, cluster), start, goal, path, NULL);
            done = nav_failed(s) || !nav_has_detail(s, NAV_PARTIAL_RESULT);
            top = 1;
        }
        if (!done) {
            r.search_level = top;
            s = join(q, 0, sx, sy, top);
            if (nav_succeeded(s)) s = join(q, 1, gx, gy, top);
            double g = nav_succeeded(s) ? top_search(q, top, gx, gy) : INFINITY;
            if (nav_failed(s)) {
            } else if (g == INFINITY) {
                nav_path_clear(path);
                s = push_cell(q, path, start);
                if (nav_succeeded(s)) s = NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE;
            } else {
                /* the route: the start's joining, the level-top edges, the goal's joining */
                uint32_t last = q->via[hpa->node_count], x = last, count = 0;
                for (; q->via[x] != HPA_VIA_SEED; count++) x = hpa->level[top].edge_source[q->via[x]];
                r.abstract_nodes = count + 3;
                nav_path_clear(path);
                if (nav_succeeded(s)) s = refine_start(q, top, x, path);
                /* refine_start used the edge list as scratch: gather the top edges again */
                count = 0;
                for (uint32_t y = last; q->via[y] != HPA_VIA_SEED && nav_succeeded(s);) {
                    if (!keep_edge(q, &count, q->via[y])) s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
                    y = hpa->level[top].edge_source[q->via[y]];
                }
                for (uint32_t i = count; i-- > 0 && nav_succeeded(s);) s = expand(q, top, q->edges[i], path);
                if (nav_succeeded(s)) s = refine_goal(q, top, last, path);
            }
        }
    }
    if (nav_failed(s)) {
        nav_path_clear(path);
        return s;
    }
    r.cost = cells_cost(grid, path);
    path->cost = r.cost;
    uint64_t expanded_after =
        q->expanded + nav_region_query_expanded(q->region[0]) + nav_region_query_expanded(q->region[1]);
    for (int l = 2; l <= hpa->levels; l++) expanded_after += q->side[0][l].expanded + q->side[1][l].expanded;
    r.expanded = (uint32_t)(expanded_after - expanded_before);
    if (result) *result = r;
    return s;
}
