/* HPA* (hpa/) and the grid's leg and fan (nav/region.h): hand-checked abstract graphs,
 * completeness and validity against A* on random maps, Moving AI scenarios (generated ones, and the
 * real ones of the shared data with --shared),
 * bad options, allocation failures, cancelling, determinism and threads. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mapgen.h"
#include "support.h"

#include "nav/hpa.h"
#include "nav/io.h"
#include "nav/region.h"
#include "nav/scen.h"
#include "nav/search.h"
#include "nav/smooth.h"

static nav_grid *make_grid(int32_t w, int32_t h, const nav_grid_desc *options)
{
    nav_grid_desc d = options ? *options : (nav_grid_desc){0};
    d.width = w;
    d.height = h;
    nav_grid *grid = NULL;
    assert_int_equal(nav_grid_create(&d, &grid), NAV_SUCCESS);
    return grid;
}

/* A grid from rows of '.' (plain) and '#' (blocked). */
static nav_grid *grid_from_rows(const char *const *rows, int32_t h, const nav_grid_desc *options)
{
    int32_t w = (int32_t)strlen(rows[0]);
    nav_grid *grid = make_grid(w, h, options);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            if (rows[y][x] == '#') nav_grid_set_cell(grid, x, y, NAV_TERRAIN_BLOCKED);
    return grid;
}

static uint32_t find_node(const nav_hpa *hpa, const nav_grid *grid, int32_t x, int32_t y)
{
    uint32_t cell = nav_grid_index(grid, x, y);
    for (uint32_t i = 0; i < nav_hpa_node_count(hpa); i++) {
        uint32_t c;
        assert_true(nav_hpa_node(hpa, i, &c, NULL));
        if (c == cell) return i;
    }
    return UINT32_MAX;
}

/* Cost of the level-l edge a -> b, or -1 when there is none. */
static double edge_cost(const nav_hpa *hpa, int32_t level, uint32_t a, uint32_t b)
{
    uint32_t targets[64];
    double costs[64];
    uint32_t n = nav_hpa_node_edges(hpa, level, a, targets, costs, 64);
    assert_true(n <= 64);
    for (uint32_t i = 0; i < n; i++)
        if (targets[i] == b) return costs[i];
    return -1;
}

/* Checks a returned cell path: valid moves, right ends, cost as reported. Returns its cost. */
static double check_path(const nav_grid *grid, const nav_path *path, int32_t sx, int32_t sy, int32_t gx,
                         int32_t gy, double reported)
{
    double cost = -1;
    assert_int_equal(nav_grid_validate_cells(grid, path, &cost), NAV_SUCCESS);
    assert_true(path->count >= 1);
    assert_int_equal(path->nodes[0], nav_grid_index(grid, sx, sy));
    assert_int_equal(path->nodes[path->count - 1], nav_grid_index(grid, gx, gy));
    assert_cost_equal(cost, reported, 1e-9 * (1 + cost));
    return cost;
}

/* ---- hand-checked graphs --------------------------------------------------------------------- */

/* Two 4 x 4 clusters side by side; the border column x = 4 is open at rows 1 and 3 only:
 *
 *     ....#...        entrances: row 1 and row 3, one transition each (short runs)
 *     ........        nodes: (3,1) (4,1) (3,3) (4,3)
 *     ....#...        left cluster: (3,1) <-> (3,3) costs 2 (straight down)
 *     ........        right cluster: (4,1) <-> (4,3) costs 4 (round the wall, corners not cut) */
static const char *const two_doors[] = {
    "....#...",
    "........",
    "....#...",
    "........",
};

static void test_hand_checked_graph(void **state)
{
    (void)state;
    nav_grid *grid = grid_from_rows(two_doors, 4, NULL);
    nav_hpa *hpa;
    assert_int_equal(nav_hpa_bake(grid, &(nav_hpa_desc){.cluster_size = 4, .levels = 1}, &hpa), NAV_SUCCESS);
    nav_hpa_info info;
    nav_hpa_get_info(hpa, &info);
    assert_int_equal(info.levels, 1);
    assert_int_equal(info.clusters[1], 2);
    assert_int_equal(info.entrances, 2);
    assert_int_equal(info.transitions, 2);
    assert_int_equal(nav_hpa_node_count(hpa), 4);
    assert_int_equal(info.edges[1], 8); /* 4 across the border, 2 inside each cluster */
    uint32_t a1 = find_node(hpa, grid, 3, 1), b1 = find_node(hpa, grid, 4, 1);
    uint32_t a3 = find_node(hpa, grid, 3, 3), b3 = find_node(hpa, grid, 4, 3);
    assert_true(a1 != UINT32_MAX && b1 != UINT32_MAX && a3 != UINT32_MAX && b3 != UINT32_MAX);
    assert_cost_equal(edge_cost(hpa, 1, a1, b1), 1, 0);
    assert_cost_equal(edge_cost(hpa, 1, b3, a3), 1, 0);
    assert_cost_equal(edge_cost(hpa, 1, a1, a3), 2, 1e-12);
    assert_cost_equal(edge_cost(hpa, 1, a3, a1), 2, 1e-12);
    assert_cost_equal(edge_cost(hpa, 1, b1, b3), 4, 1e-12);
    assert_cost_equal(edge_cost(hpa, 1, b3, b1), 4, 1e-12);
    assert_cost_equal(edge_cost(hpa, 1, a1, b3), -1, 0);

    /* (0,0) -> (7,0): through the row-1 door, 5 + 2 sqrt 2 (the optimum) */
    nav_hpa_query *q;
    nav_hpa_query_desc abstract_only = {.near_clusters = -1};
    assert_int_equal(nav_hpa_query_create(hpa, grid, &abstract_only, &q), NAV_SUCCESS);
    nav_path path;
    nav_path_init(&path, NULL);
    nav_hpa_result r;
    assert_int_equal(nav_hpa_find_path(q, 0, 0, 7, 0, &path, &r), NAV_SUCCESS);
    assert_cost_equal(check_path(grid, &path, 0, 0, 7, 0, r.cost), 5 + 2 * M_SQRT2, 1e-9);
    assert_int_equal(r.search_level, 1);
    assert_int_equal(r.abstract_edges, 1); /* the crossing (3,1) -> (4,1); grid moves on either side */
    /* inside one cluster: a local search, no abstract one */
    assert_int_equal(nav_hpa_find_path(q, 0, 0, 3, 3, &path, &r), NAV_SUCCESS);
    assert_int_equal(r.search_level, 0);
    assert_cost_equal(check_path(grid, &path, 0, 0, 3, 3, r.cost), 3 * M_SQRT2, 1e-9);
    /* with near queries searched directly (the default), (0,0) -> (7,0) is one: no abstract search */
    nav_hpa_query *near;
    assert_int_equal(nav_hpa_query_create(hpa, grid, NULL, &near), NAV_SUCCESS);
    assert_int_equal(nav_hpa_find_path(near, 0, 0, 7, 0, &path, &r), NAV_SUCCESS);
    assert_int_equal(r.search_level, 0);
    assert_int_equal(r.abstract_edges, 0);
    assert_cost_equal(check_path(grid, &path, 0, 0, 7, 0, r.cost), 5 + 2 * M_SQRT2, 1e-9);
    nav_hpa_query_destroy(near);
    nav_path_destroy(&path);
    nav_hpa_query_destroy(q);
    nav_hpa_destroy(hpa);
    nav_grid_destroy(grid);
}

/* The same map with a ramp up row 1 of the right cluster to the door cell (4,1), 4 high: stepping
 * down from it into the left cluster is allowed, stepping up onto it from (3,1) is not, so that
 * crossing is one-way (a transition of its own, with one edge), and the right cluster reaches
 * the door only from its ramp. */
static void test_one_way_crossing(void **state)
{
    (void)state;
    nav_grid *grid = grid_from_rows(two_doors, 4, &(nav_grid_desc){.max_climb = 1});
    for (int32_t x = 4; x < 8; x++) nav_grid_set_cell_height(grid, x, 1, (float)(8 - x));
    nav_hpa *hpa;
    assert_int_equal(nav_hpa_bake(grid, &(nav_hpa_desc){.cluster_size = 4, .levels = 1}, &hpa), NAV_SUCCESS);
    nav_hpa_info info;
    nav_hpa_get_info(hpa, &info);
    assert_int_equal(info.entrances, 1);   /* row 3 only: row 1 is not two-way */
    assert_int_equal(info.transitions, 2); /* row 3, and the one-way move (4,1) -> (3,1) */
    assert_int_equal(nav_hpa_node_count(hpa), 4);
    uint32_t a1 = find_node(hpa, grid, 3, 1), b1 = find_node(hpa, grid, 4, 1);
    uint32_t a3 = find_node(hpa, grid, 3, 3), b3 = find_node(hpa, grid, 4, 3);
    assert_cost_equal(edge_cost(hpa, 1, b1, a1), 1, 0);
    assert_cost_equal(edge_cost(hpa, 1, a1, b1), -1, 0);
    assert_cost_equal(edge_cost(hpa, 1, a3, b3), 1, 0);
    assert_cost_equal(edge_cost(hpa, 1, b1, b3), 4, 1e-12);               /* down the ramp */
    assert_cost_equal(edge_cost(hpa, 1, b3, b1), 4 + 2 * M_SQRT2, 1e-12); /* round to its foot, up */
    assert_int_equal(info.edges[1], 7);

    nav_hpa_query *q;
    assert_int_equal(nav_hpa_query_create(hpa, grid, &(nav_hpa_query_desc){.near_clusters = -1}, &q),
                     NAV_SUCCESS);
    nav_grid_query *astar;
    assert_int_equal(nav_grid_query_create(grid, NULL, &astar), NAV_SUCCESS);
    nav_path path;
    nav_path_init(&path, NULL);
    nav_hpa_result r;
    nav_search_result best;
    /* left to right must take row 3 */
    assert_int_equal(nav_hpa_find_path(q, 0, 0, 7, 0, &path, &r), NAV_SUCCESS);
    check_path(grid, &path, 0, 0, 7, 0, r.cost);
    for (uint32_t i = 0; i < path.count; i++) assert_int_not_equal(path.nodes[i], nav_grid_index(grid, 4, 1));
    assert_int_equal(nav_grid_find_path(astar, NULL, 0, 0, 7, 0, &path, &best), NAV_SUCCESS);
    assert_true(r.cost >= best.cost - 1e-9);
    /* right to left: up the ramp and down the step, 8, the optimum */
    assert_int_equal(nav_hpa_find_path(q, 7, 0, 0, 1, &path, &r), NAV_SUCCESS);
    check_path(grid, &path, 7, 0, 0, 1, r.cost);
    assert_cost_equal(r.cost, 8, 1e-9);
    assert_int_equal(nav_grid_find_path(astar, NULL, 7, 0, 0, 1, &path, &best), NAV_SUCCESS);
    assert_cost_equal(best.cost, 8, 1e-9);
    nav_path_destroy(&path);
    nav_grid_query_destroy(astar);
    nav_hpa_query_destroy(q);
    nav_hpa_destroy(hpa);
    nav_grid_destroy(grid);
}

/* A long entrance gets a transition at each end, a short one one in its middle; level 2 keeps
 * only the nodes on level-2 borders. 16 x 8 cells, clusters of 4, level-2 clusters of 8. */
static void test_entrances_and_levels(void **state)
{
    (void)state;
    nav_grid *grid = make_grid(16, 8, NULL);
    nav_hpa *hpa;
    assert_int_equal(
        nav_hpa_bake(grid,
                     &(nav_hpa_desc){.cluster_size = 4, .levels = 2, .level_ratio = 2, .long_entrance = 4},
                     &hpa),
        NAV_SUCCESS);
    nav_hpa_info info;
    nav_hpa_get_info(hpa, &info);
    assert_int_equal(info.clusters[1], 8);
    assert_int_equal(info.clusters[2], 2);
    assert_int_equal(info.cluster_side[2], 8);
    /* borders: 3 vertical x 2 rows + 4 horizontal = 10, each one open run of 4 cells */
    assert_int_equal(info.entrances, 10);
    assert_int_equal(info.transitions, 20);
    /* each run's end cells on both sides; a cell at a cluster corner serves two borders */
    uint32_t expect = 0;
    for (int32_t y = 0; y < 8; y++)
        for (int32_t x = 0; x < 16; x++) {
            bool on_vertical = (x % 4 == 3 && x < 15) || (x % 4 == 0 && x > 0);
            bool on_horizontal = y == 3 || y == 4;
            bool end_row = y % 4 == 0 || y % 4 == 3, end_col = x % 4 == 0 || x % 4 == 3;
            if ((on_vertical && end_row) || (on_horizontal && end_col)) expect++;
        }
    assert_int_equal(nav_hpa_node_count(hpa), expect);
    /* level 2: only the nodes on the border x = 7 | 8 */
    uint32_t on_level2 = 0;
    for (uint32_t i = 0; i < nav_hpa_node_count(hpa); i++) {
        uint32_t cell;
        int32_t level;
        nav_hpa_node(hpa, i, &cell, &level);
        int32_t x = (int32_t)(cell % 16);
        assert_int_equal(level, (x == 7 || x == 8) ? 2 : 1);
        on_level2 += level == 2;
    }
    assert_int_equal(on_level2, 8); /* rows 0, 3, 4, 7 on each side */
    assert_int_equal(info.nodes[2], 8);
    /* a query across the level-2 border searches level 2 and finds the straight line */
    nav_hpa_query *q;
    assert_int_equal(nav_hpa_query_create(hpa, grid, NULL, &q), NAV_SUCCESS);
    nav_path path;
    nav_path_init(&path, NULL);
    nav_hpa_result r;
    assert_int_equal(nav_hpa_find_path(q, 1, 3, 14, 3, &path, &r), NAV_SUCCESS);
    assert_int_equal(r.search_level, 2);
    assert_cost_equal(check_path(grid, &path, 1, 3, 14, 3, r.cost), 13, 1e-9);
    nav_path_destroy(&path);
    nav_hpa_query_destroy(q);
    nav_hpa_destroy(hpa);
    nav_grid_destroy(grid);
}

/* ---- random maps ----------------------------------------------------------------------------- */

static nav_grid *random_grid(unsigned seed, int32_t w, int32_t h)
{
    srand(seed);
    nav_grid_desc d = {
        .connectivity = rand() % 4 == 0 ? NAV_CONNECT_4 : NAV_CONNECT_8,
        .corner_policy = (nav_corner_policy)(1 + rand() % 3),
        .max_climb = rand() % 2 ? 1.5f : 0.0f,
    };
    nav_grid *grid = make_grid(w, h, &d);
    bool terrain = rand() % 2, heights = rand() % 2;
    int blocked = 10 + rand() % 35;
    nav_grid_set_terrain_cost(grid, 2, 3.0);
    nav_grid_set_terrain_cost(grid, 3, 0.5);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            int r = rand() % 100;
            uint8_t t = r < blocked ? NAV_TERRAIN_BLOCKED : !terrain ? 1 : r < 70 ? 1 : r < 85 ? 2 : 3;
            nav_grid_set_cell(grid, x, y, t);
            if (heights) nav_grid_set_cell_height(grid, x, y, (float)(rand() % 4));
        }
    if (rand() % 3) assert_int_equal(nav_grid_build_reachability(grid), NAV_SUCCESS);
    return grid;
}

/* Whenever A* finds a path, HPA* finds a valid one no cheaper; when A* finds none, neither does
 * HPA*. Cluster sizes, levels and ratios vary with the map. */
static void test_random_complete(void **state)
{
    (void)state;
    nav_path path;
    nav_path_init(&path, NULL);
    int found = 0, unreachable = 0, levels_seen[NAV_HPA_MAX_LEVELS + 1] = {0};
    for (unsigned seed = 1; seed <= 60; seed++) {
        int32_t w = 20 + (int32_t)(seed * 7 % 31), h = 15 + (int32_t)(seed * 5 % 23);
        nav_grid *grid = random_grid(seed, w, h);
        nav_hpa_desc desc = {.cluster_size = 3 + rand() % 6,
                             .levels = 1 + rand() % 3,
                             .level_ratio = 2 + rand() % 2,
                             .long_entrance = 1 + rand() % 6};
        nav_hpa *hpa;
        assert_int_equal(nav_hpa_bake(grid, &desc, &hpa), NAV_SUCCESS);
        nav_hpa_query *q; /* half the maps without the direct search of near queries */
        nav_hpa_query_desc qd = {.near_clusters = seed % 2 ? -1 : 0};
        assert_int_equal(nav_hpa_query_create(hpa, grid, &qd, &q), NAV_SUCCESS);
        nav_grid_query *astar;
        assert_int_equal(nav_grid_query_create(grid, NULL, &astar), NAV_SUCCESS);
        for (int k = 0; k < 40; k++) {
            int32_t sx = rand() % w, sy = rand() % h, gx = rand() % w, gy = rand() % h;
            if (!nav_grid_passable(grid, sx, sy) || !nav_grid_passable(grid, gx, gy)) continue;
            nav_search_result best;
            nav_status a = nav_grid_find_path(astar, NULL, sx, sy, gx, gy, &path, &best);
            nav_hpa_result r;
            nav_status s = nav_hpa_find_path(q, sx, sy, gx, gy, &path, &r);
            if (a == NAV_SUCCESS) {
                assert_int_equal(s, NAV_SUCCESS);
                double cost = check_path(grid, &path, sx, sy, gx, gy, r.cost);
                assert_true(cost >= best.cost - 1e-9);
                levels_seen[r.search_level]++;
                found++;
            } else {
                assert_int_equal(a, NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE);
                assert_int_equal(s, NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE);
                assert_int_equal(path.count, 1);
                unreachable++;
            }
        }
        nav_grid_query_destroy(astar);
        nav_hpa_query_destroy(q);
        nav_hpa_destroy(hpa);
        nav_grid_destroy(grid);
    }
    /* both outcomes, and searches at every level, or this proves little */
    assert_true(found > 500);
    assert_true(unreachable > 50);
    for (int l = 0; l <= 3; l++) assert_true(levels_seen[l] > 10);
    nav_path_destroy(&path);
}

/* The leg and fan inside a rectangle that covers the whole map give A*'s and Dijkstra's costs. */
static void test_region_leg_and_fan(void **state)
{
    (void)state;
    nav_path path;
    nav_path_init(&path, NULL);
    for (unsigned seed = 100; seed < 120; seed++) {
        nav_grid *grid = random_grid(seed, 23, 17);
        nav_region_query *rq;
        assert_int_equal(nav_region_query_create(grid, 23 * 17, NULL, &rq), NAV_SUCCESS);
        nav_grid_query *astar;
        assert_int_equal(nav_grid_query_create(grid, NULL, &astar), NAV_SUCCESS);
        nav_grid_rect all = {0, 0, 23, 17};
        for (int k = 0; k < 20; k++) {
            int32_t sx = rand() % 23, sy = rand() % 17, gx = rand() % 23, gy = rand() % 17;
            if (!nav_grid_passable(grid, sx, sy) || !nav_grid_passable(grid, gx, gy)) continue;
            uint32_t s = nav_grid_index(grid, sx, sy), g = nav_grid_index(grid, gx, gy);
            nav_search_result best;
            nav_status a = nav_grid_find_path(astar, NULL, sx, sy, gx, gy, &path, &best);
            double leg = -1, fan[1], back[1];
            nav_path_clear(&path);
            nav_status l = nav_region_leg(rq, all, s, g, 0, &path, &leg);
            assert_int_equal(nav_region_fan(rq, all, s, false, &g, 1, fan), NAV_SUCCESS);
            if (a == NAV_SUCCESS) {
                assert_int_equal(l, NAV_SUCCESS);
                assert_cost_equal(check_path(grid, &path, sx, sy, gx, gy, leg), best.cost, 1e-9);
                assert_cost_equal(fan[0], best.cost, 1e-9);
                nav_path_clear(&path);
                assert_int_equal(nav_region_fan_path(rq, g, &path), NAV_SUCCESS);
                check_path(grid, &path, sx, sy, gx, gy, fan[0]);
                /* backwards from the goal: the cost from s to g again, path from s to g */
                assert_int_equal(nav_region_fan(rq, all, g, true, &s, 1, back), NAV_SUCCESS);
                assert_cost_equal(back[0], best.cost, 1e-9);
                nav_path_clear(&path);
                assert_int_equal(nav_region_fan_path(rq, s, &path), NAV_SUCCESS);
                check_path(grid, &path, sx, sy, gx, gy, back[0]);
            } else {
                assert_int_equal(l, NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE);
                assert_true(fan[0] == INFINITY);
                assert_int_equal(nav_region_fan_path(rq, g, &path), NAV_FAILURE | NAV_INVALID_PARAM);
            }
        }
        /* rectangles off the map or over the query's size are refused */
        double c;
        uint32_t t = 0;
        assert_int_equal(nav_region_fan(rq, (nav_grid_rect){-1, 0, 4, 4}, 0, false, &t, 1, &c),
                         NAV_FAILURE | NAV_INVALID_PARAM);
        assert_int_equal(nav_region_fan(rq, (nav_grid_rect){20, 0, 4, 4}, 20, false, &t, 1, &c),
                         NAV_FAILURE | NAV_INVALID_PARAM);
        assert_int_equal(nav_region_leg(rq, (nav_grid_rect){5, 5, 2, 2}, 0, 0, 0, &path, &c),
                         NAV_FAILURE | NAV_INVALID_PARAM);
        nav_grid_query_destroy(astar);
        nav_region_query_destroy(rq);
        nav_grid_destroy(grid);
    }
    nav_path_destroy(&path);
}

/* Fans and legs under a grid filter cost what the same searches do on the grid made again with the
 * filter's costs as its own (water, type 2, kept out or made cheap; type 3 dearer): over the whole
 * grid and inside rectangles, forward and backward, on grids of every connectivity, corner policy
 * and climb. A filter with a cost no type may have is refused. */
static void test_region_filter(void **state)
{
    (void)state;
    nav_grid_filter filters[3];
    for (int k = 0; k < 3; k++) nav_grid_filter_init(&filters[k], NULL);
    filters[0].terrain_cost[2] = NAV_COST_BLOCKED;
    filters[1].terrain_cost[2] = 0.25, filters[1].terrain_cost[3] = 7;
    filters[2].terrain_cost[2] = NAV_COST_BLOCKED, filters[2].terrain_cost[3] = NAV_COST_BLOCKED;
    nav_grid_filter bad = filters[0];
    bad.terrain_cost[5] = 0;
    nav_path path;
    nav_path_init(&path, NULL);
    int compared = 0, differ = 0;
    for (unsigned seed = 200; seed < 230; seed++) {
        nav_grid *grid = random_grid(seed, 23, 17);
        const nav_grid_filter *f = &filters[seed % 3];
        nav_grid_desc d = *nav_grid_get_desc(grid);
        d.log = NULL, d.allocator = NULL;
        nav_grid *as_own = make_grid(23, 17, &d); /* the grid with the filter's costs as its own */
        for (int t = 1; t < 256; t++)
            assert_int_equal(nav_grid_set_terrain_cost(as_own, (uint8_t)t, f->terrain_cost[t]), NAV_SUCCESS);
        for (int32_t y = 0; y < 17; y++)
            for (int32_t x = 0; x < 23; x++) {
                nav_grid_set_cell(as_own, x, y, nav_grid_cell(grid, x, y));
                assert_int_equal(nav_grid_set_cell_height(as_own, x, y, nav_grid_cell_height(grid, x, y)),
                                 NAV_SUCCESS);
            }
        nav_region_query *rq, *own;
        assert_int_equal(nav_region_query_create(grid, 23 * 17, NULL, &rq), NAV_SUCCESS);
        assert_int_equal(nav_region_query_create(as_own, 23 * 17, NULL, &own), NAV_SUCCESS);
        assert_int_equal(nav_region_query_set_filter(rq, &bad), NAV_FAILURE | NAV_INVALID_PARAM);
        assert_int_equal(nav_region_query_set_filter(rq, f), NAV_SUCCESS);
        for (int k = 0; k < 40; k++) {
            nav_grid_rect r = {0, 0, 23, 17};
            if (k % 2) r = (nav_grid_rect){rand() % 8, rand() % 6, 8 + rand() % 15, 6 + rand() % 11};
            if (r.x + r.width > 23) r.width = 23 - r.x;
            if (r.y + r.height > 17) r.height = 17 - r.y;
            uint32_t s = nav_grid_index(grid, r.x + rand() % r.width, r.y + rand() % r.height), targets[4];
            for (int j = 0; j < 4; j++)
                targets[j] = nav_grid_index(grid, r.x + rand() % r.width, r.y + rand() % r.height);
            for (int reverse = 0; reverse < 2; reverse++) {
                double got[4], want[4];
                nav_status a = nav_region_fan(rq, r, s, reverse, targets, 4, got);
                assert_int_equal(a, nav_region_fan(own, r, s, reverse, targets, 4, want));
                for (int j = 0; j < 4 && a == NAV_SUCCESS; j++) {
                    assert_true(got[j] == want[j] || fabs(got[j] - want[j]) <= 1e-9 * want[j]);
                    compared++;
                    differ += nav_region_fan_cost(rq, targets[j]) != got[j]; /* (the last fan's, kept) */
                }
            }
            double leg = -1, own_leg = -1;
            nav_path_clear(&path);
            nav_status a = nav_region_leg(rq, r, s, targets[0], 0, &path, &leg);
            nav_path_clear(&path);
            assert_int_equal(a, nav_region_leg(own, r, s, targets[0], 0, &path, &own_leg));
            if (a == NAV_SUCCESS) assert_true(fabs(leg - own_leg) <= 1e-9 * own_leg);
        }
        /* the filter off again: the grid's own costs */
        assert_int_equal(nav_region_query_set_filter(rq, NULL), NAV_SUCCESS);
        nav_region_query_destroy(rq);
        nav_region_query_destroy(own);
        nav_grid_destroy(as_own);
        nav_grid_destroy(grid);
    }
    assert_int_equal(differ, 0);
    assert_true(compared > 1000);
    nav_path_destroy(&path);
}

/* ---- Moving AI scenarios ---------------------------------------------------------------------- */

static void run_scenarios(const char *map_path, const char *scen_path)
{
    nav_grid *grid;
    assert_int_equal(nav_grid_load_map_file(map_path, NULL, &grid), NAV_SUCCESS);
    nav_scen *scen;
    assert_int_equal(nav_scen_load_file(scen_path, NULL, NULL, &scen), NAV_SUCCESS);
    nav_hpa *hpa;
    assert_int_equal(nav_hpa_bake(grid, NULL, &hpa), NAV_SUCCESS);
    nav_hpa_query *q;
    assert_int_equal(nav_hpa_query_create(hpa, grid, NULL, &q), NAV_SUCCESS);
    nav_path path;
    nav_path_init(&path, NULL);
    uint32_t unreachable = 0;
    double ratio_sum = 0;
    for (uint32_t i = 0; i < scen->count; i++) {
        const nav_scen_problem *p = &scen->problems[i];
        nav_hpa_result r;
        nav_status s = nav_hpa_find_path(q, p->start_x, p->start_y, p->goal_x, p->goal_y, &path, &r);
        if (p->optimal_length == 0 && (p->start_x != p->goal_x || p->start_y != p->goal_y)) {
            assert_int_equal(s, NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE);
            unreachable++;
            continue;
        }
        assert_int_equal(s, NAV_SUCCESS);
        double cost = check_path(grid, &path, p->start_x, p->start_y, p->goal_x, p->goal_y, r.cost);
        assert_true(cost >= p->optimal_length - 0.005); /* the file's lengths have 6 digits */
        ratio_sum += p->optimal_length > 0 ? cost / p->optimal_length : 1;
    }
    /* near optimal: HPA* stays within a few percent on average on these maps */
    assert_true(ratio_sum / (scen->count - unreachable) < 1.10);
    nav_path_destroy(&path);
    nav_hpa_query_destroy(q);
    nav_hpa_destroy(hpa);
    nav_scen_destroy(scen);
    nav_grid_destroy(grid);
}

/* The generated stand-ins (mapgen.h): lengths from the tests' own Dijkstra; brc_like has 10
 * unreachable problems. */
static void test_scenarios_generated(void **state)
{
    (void)state;
    const int which[3] = {TEST_BENCH_ARENA, TEST_BENCH_DEN, TEST_BENCH_BRC};
    for (int m = 0; m < 3; m++)
        run_scenarios(test_bench_file(which[m], false), test_bench_file(which[m], true));
}

/* The real maps (the shared data). */
static void test_scenarios_arena(void **state)
{
    (void)state;
    run_scenarios(NAV_SHARED_DIR "/maps/dao/arena.map", NAV_SHARED_DIR "/maps/dao/arena.map.scen");
}

static void test_scenarios_den312d(void **state)
{
    (void)state;
    run_scenarios(NAV_SHARED_DIR "/maps/dao/den312d.map", NAV_SHARED_DIR "/maps/dao/den312d.map.scen");
}

static void test_scenarios_brc000d(void **state)
{
    (void)state;
    run_scenarios(NAV_SHARED_DIR "/maps/dao/brc000d.map",
                  NAV_SHARED_DIR "/maps/dao/brc000d.map.scen"); /* 10 unreachable */
}

/* ---- bad input, failures, determinism, threads ----------------------------------------------- */

static void test_bad_options(void **state)
{
    (void)state;
    nav_grid *grid = make_grid(20, 20, NULL);
    const nav_hpa_desc bad[] = {
        {.cluster_size = 1}, {.cluster_size = 65}, {.cluster_size = -4}, {.levels = 5},
        {.levels = -1},      {.level_ratio = 1},   {.level_ratio = 17},  {.long_entrance = -2},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        test_log log;
        test_log_init(&log);
        nav_hpa_desc d = bad[i];
        d.log = &log.hooks;
        nav_hpa *hpa = (nav_hpa *)&d; /* must be cleared */
        assert_int_equal(nav_hpa_bake(grid, &d, &hpa), NAV_FAILURE | NAV_INVALID_PARAM);
        assert_null(hpa);
        assert_int_equal(log.count, 1);
        assert_non_null(strstr(log.last, "hpa bake: "));
    }
    nav_hpa *hpa;
    assert_int_equal(nav_hpa_bake(NULL, NULL, &hpa), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_hpa_bake(grid, NULL, NULL), NAV_FAILURE | NAV_INVALID_PARAM);
    nav_hpa_desc d = nav_hpa_desc_defaults(NULL);
    assert_int_equal(d.cluster_size, 16);
    assert_int_equal(d.levels, 3);
    assert_int_equal(d.level_ratio, 4);
    assert_int_equal(d.long_entrance, 6);

    /* a query object needs the grid the data was baked from (same size) */
    nav_grid_set_cell(grid, 5, 5, NAV_TERRAIN_BLOCKED);
    assert_int_equal(nav_hpa_bake(grid, NULL, &hpa), NAV_SUCCESS);
    nav_grid *other = make_grid(21, 20, NULL);
    nav_hpa_query *q;
    assert_int_equal(nav_hpa_query_create(hpa, other, NULL, &q), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_null(q);
    assert_int_equal(nav_hpa_query_create(hpa, grid, &(nav_hpa_query_desc){.weight = 0.5}, &q),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    assert_null(q);
    assert_int_equal(nav_hpa_query_create(hpa, grid, &(nav_hpa_query_desc){.weight = NAN}, &q),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_hpa_query_create(hpa, grid, NULL, &q), NAV_SUCCESS);
    nav_path path;
    nav_path_init(&path, NULL);
    assert_int_equal(nav_hpa_find_path(q, -1, 0, 3, 3, &path, NULL), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_hpa_find_path(q, 0, 0, 20, 3, &path, NULL), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_hpa_find_path(q, 5, 5, 3, 3, &path, NULL), NAV_FAILURE | NAV_BLOCKED_ENDPOINT);
    assert_int_equal(nav_hpa_find_path(q, 3, 3, 5, 5, &path, NULL), NAV_FAILURE | NAV_BLOCKED_ENDPOINT);
    assert_int_equal(nav_hpa_find_path(q, 3, 3, 3, 3, &path, NULL), NAV_SUCCESS);
    assert_int_equal(path.count, 1);
    nav_path_destroy(&path);
    nav_hpa_query_destroy(q);
    nav_hpa_destroy(hpa);
    nav_grid_destroy(other);
    nav_grid_destroy(grid);
}

/* nav_grid_moves_reversible against every move taken back one by one (nav_grid_move_cost), on
 * grids with and without one-way climbs, corners and edges included. */
static void test_moves_reversible(void **state)
{
    (void)state;
    int seen[2] = {0, 0};
    for (unsigned seed = 300; seed < 360; seed++) {
        int32_t w = 1 + (int32_t)(seed % 9), h = 1 + (int32_t)(seed % 7);
        nav_grid *grid = random_grid(seed, w, h);
        bool brute = true;
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++)
                for (int d = 0; d < 8; d++) {
                    int32_t dx, dy;
                    nav_dir_offset((nav_dir)d, &dx, &dy);
                    if (nav_grid_move_cost(grid, x, y, (nav_dir)d) == NAV_COST_BLOCKED) continue;
                    int back = 0;
                    for (int32_t bx, by; back < 8; back++) {
                        nav_dir_offset((nav_dir)back, &bx, &by);
                        if (bx == -dx && by == -dy) break;
                    }
                    if (nav_grid_move_cost(grid, x + dx, y + dy, (nav_dir)back) == NAV_COST_BLOCKED)
                        brute = false;
                }
        assert_int_equal(nav_grid_moves_reversible(grid), brute);
        seen[brute]++;
        nav_grid_destroy(grid);
    }
    assert_true(seen[0] > 5 && seen[1] > 5);
}

/* A fan over the whole map to many targets stops once the last is settled, and gives each A*'s
 * cost; its buckets grow as it needs, and when they cannot the fan says so and leaves no last fan. */
static void test_region_fan_many_targets(void **state)
{
    (void)state;
    nav_path path;
    nav_path_init(&path, NULL);
    int compared = 0;
    for (unsigned seed = 200; seed < 260; seed++) {
        /* random_grid's, and open ones (where a fan's cells mostly have all eight moves, which it
         * prunes) with other diagonal lengths, corners and one cost or several */
        nav_grid *grid = seed < 230 ? random_grid(seed, 41, 37) : NULL;
        if (!grid) {
            srand(seed);
            grid = make_grid(41, 37,
                             &(nav_grid_desc){.diagonal_cost = (double[]){0, 1, 1.3, 1.5, 2}[seed % 5],
                                              .corner_policy = (nav_corner_policy)(1 + seed % 3)});
            nav_grid_set_terrain_cost(grid, 2, 2.5);
            for (int32_t i = 0; i < 41 * 37 / 12; i++)
                nav_grid_set_cell(grid, rand() % 41, rand() % 37,
                                  i % 3 || seed % 2 ? NAV_TERRAIN_BLOCKED : 2);
        }
        nav_region_query *rq;
        assert_int_equal(nav_region_query_create(grid, 41 * 37, NULL, &rq), NAV_SUCCESS);
        nav_grid_query *astar;
        assert_int_equal(nav_grid_query_create(grid, NULL, &astar), NAV_SUCCESS);
        uint32_t targets[12];
        int32_t tx[12], ty[12];
        double costs[12];
        int32_t sx = rand() % 41, sy = rand() % 37;
        for (int k = 0; k < 12; k++) {
            tx[k] = rand() % 41, ty[k] = rand() % 37;
            targets[k] = nav_grid_index(grid, tx[k], ty[k]);
        }
        if (nav_grid_passable(grid, sx, sy)) {
            assert_int_equal(nav_region_fan(rq, (nav_grid_rect){0, 0, 41, 37}, nav_grid_index(grid, sx, sy),
                                            false, targets, 12, costs),
                             NAV_SUCCESS);
            for (int k = 0; k < 12; k++) {
                nav_search_result best;
                nav_status a = nav_grid_find_path(astar, NULL, sx, sy, tx[k], ty[k], &path, &best);
                if (a == NAV_SUCCESS) {
                    assert_cost_equal(costs[k], best.cost, 1e-9);
                    compared++;
                } else {
                    assert_true(costs[k] == INFINITY);
                }
            }
        }
        nav_grid_query_destroy(astar);
        nav_region_query_destroy(rq);
        nav_grid_destroy(grid);
    }
    assert_true(compared > 400);

    /* a fan that cannot grow its buckets */
    nav_grid *grid = make_grid(64, 64, NULL);
    test_allocator t;
    test_allocator_init(&t, 0);
    nav_region_query *rq;
    assert_int_equal(nav_region_query_create(grid, 64 * 64, &t.hooks, &rq), NAV_SUCCESS);
    t.fail_at = t.calls + 1;
    uint32_t far = nav_grid_index(grid, 63, 63);
    double c = 0;
    assert_int_equal(nav_region_fan(rq, (nav_grid_rect){0, 0, 64, 64}, 0, false, &far, 1, &c),
                     NAV_FAILURE | NAV_OUT_OF_MEMORY);
    assert_int_equal(nav_region_fan_path(rq, far, &path), NAV_FAILURE | NAV_INVALID_PARAM);
    t.fail_at = 0;
    assert_int_equal(nav_region_fan(rq, (nav_grid_rect){0, 0, 64, 64}, 0, false, &far, 1, &c), NAV_SUCCESS);
    assert_cost_equal(c, 63 * sqrt(2.0), 1e-9);
    assert_true(nav_region_query_memory_bytes(rq) > 64 * 64 * 8);
    nav_region_query_destroy(rq);
    assert_int_equal(t.live, 0);
    nav_grid_destroy(grid);
    nav_path_destroy(&path);
}

static void allocation_failures(nav_grid *grid, bool fields)
{
    int failed = 0;
    for (long n = 1;; n++) {
        test_allocator t;
        test_allocator_init(&t, n);
        nav_hpa *hpa = NULL;
        nav_status s = nav_hpa_bake(
            grid, &(nav_hpa_desc){.cluster_size = 5, .levels = 3, .level_ratio = 2, .allocator = &t.hooks},
            &hpa);
        if (s == NAV_SUCCESS) {
            nav_hpa_query *q = NULL;
            s = nav_hpa_query_create(hpa, grid, &(nav_hpa_query_desc){.allocator = &t.hooks}, &q);
            if (s == NAV_SUCCESS) {
                nav_hpa_query_destroy(q);
                nav_hpa_destroy(hpa);
                assert_int_equal(t.live, 0);
                break;
            }
            assert_int_equal(s, NAV_FAILURE | NAV_OUT_OF_MEMORY);
            nav_hpa_destroy(hpa);
        } else {
            assert_int_equal(s, NAV_FAILURE | NAV_OUT_OF_MEMORY);
            assert_null(hpa);
        }
        assert_int_equal(t.live, 0);
        failed++;
    }
    assert_true(failed > 20);
    nav_hpa *hpa;
    nav_hpa_info info;
    assert_int_equal(nav_hpa_bake(grid, NULL, &hpa), NAV_SUCCESS);
    nav_hpa_get_info(hpa, &info);
    assert_true((info.field_bytes > 0) == fields); /* both kinds of bake are covered */
    nav_hpa_destroy(hpa);
}

static void test_allocation_failures(void **state)
{
    (void)state;
    nav_grid *grid = random_grid(7, 40, 30);
    allocation_failures(grid, false);
    nav_grid_destroy(grid);
    grid = make_grid(40, 30, NULL); /* one cost, no heights: distance fields too */
    for (int32_t i = 0; i < 200; i++)
        nav_grid_set_cell(grid, (i * 7) % 40, (i * 11) % 30, NAV_TERRAIN_BLOCKED);
    allocation_failures(grid, true);
    nav_grid_destroy(grid);
}

typedef struct progress_log {
    int calls;
    int cancel_at; /* 0: never */
    uint64_t last_done, last_total;
} progress_log;

static bool on_progress(const char *stage, uint64_t done, uint64_t total, void *user)
{
    progress_log *p = user;
    assert_non_null(stage);
    assert_true(done <= total);
    p->calls++;
    p->last_done = done;
    p->last_total = total;
    return p->cancel_at == 0 || p->calls < p->cancel_at;
}

static void test_progress_and_cancel(void **state)
{
    (void)state;
    nav_grid *grid = random_grid(3, 200, 150);
    progress_log log = {0};
    nav_hpa *hpa;
    nav_hpa_desc d = {.cluster_size = 4, .progress = {on_progress, &log}};
    assert_int_equal(nav_hpa_bake(grid, &d, &hpa), NAV_SUCCESS);
    assert_true(log.calls >= 4);
    assert_true(log.last_done == log.last_total);
    nav_hpa_destroy(hpa);
    log = (progress_log){.cancel_at = 3};
    assert_int_equal(nav_hpa_bake(grid, &d, &hpa), NAV_FAILURE | NAV_WRONG_STATE);
    assert_null(hpa);
    nav_grid_destroy(grid);
}

/* Two bakes of one grid are the same graph; queries repeat exactly. */
static void test_deterministic(void **state)
{
    (void)state;
    nav_grid *grid = random_grid(11, 60, 50);
    nav_hpa *a, *b;
    nav_hpa_desc d = {.cluster_size = 6, .levels = 3, .level_ratio = 2};
    assert_int_equal(nav_hpa_bake(grid, &d, &a), NAV_SUCCESS);
    assert_int_equal(nav_hpa_bake(grid, &d, &b), NAV_SUCCESS);
    assert_int_equal(nav_hpa_node_count(a), nav_hpa_node_count(b));
    for (uint32_t i = 0; i < nav_hpa_node_count(a); i++) {
        uint32_t ca, cb;
        int32_t la, lb;
        nav_hpa_node(a, i, &ca, &la);
        nav_hpa_node(b, i, &cb, &lb);
        assert_int_equal(ca, cb);
        assert_int_equal(la, lb);
        for (int32_t l = 1; l <= 3; l++) {
            uint32_t ta[256], tb[256];
            double xa[256], xb[256];
            uint32_t na = nav_hpa_node_edges(a, l, i, ta, xa, 256),
                     nb = nav_hpa_node_edges(b, l, i, tb, xb, 256);
            assert_int_equal(na, nb);
            assert_true(na <= 256);
            assert_memory_equal(ta, tb, na * sizeof *ta);
            assert_memory_equal(xa, xb, na * sizeof *xa);
        }
    }
    nav_hpa_destroy(b);
    nav_hpa_destroy(a);
    nav_grid_destroy(grid);
}

typedef struct thread_job {
    const nav_hpa *hpa;
    const nav_grid *grid;
    uint32_t checksum;
    int found;
} thread_job;

static void *query_many(void *arg)
{
    thread_job *job = arg;
    nav_hpa_query *q;
    if (nav_hpa_query_create(job->hpa, job->grid, NULL, &q) != NAV_SUCCESS) return NULL;
    nav_path path;
    nav_path_init(&path, NULL);
    int32_t w = nav_grid_width(job->grid), h = nav_grid_height(job->grid);
    uint32_t state = 12345;
    for (int k = 0; k < 400; k++) {
        int32_t c[4];
        for (int i = 0; i < 4; i++) {
            state = state * 1103515245u + 12345u;
            c[i] = (int32_t)((state >> 8) % (uint32_t)(i % 2 ? h : w));
        }
        if (nav_hpa_find_path(q, c[0], c[1], c[2], c[3], &path, NULL) != NAV_SUCCESS) continue;
        job->found++;
        for (uint32_t i = 0; i < path.count; i++) job->checksum = job->checksum * 31u + path.nodes[i];
    }
    nav_path_destroy(&path);
    nav_hpa_query_destroy(q);
    return NULL;
}

static void test_threads_share_a_bake(void **state)
{
    (void)state;
    nav_grid *grid;
    assert_int_equal(nav_grid_load_map_file(test_bench_file(TEST_BENCH_BRC, false), NULL, &grid),
                     NAV_SUCCESS);
    nav_hpa *hpa;
    assert_int_equal(nav_hpa_bake(grid, NULL, &hpa), NAV_SUCCESS);
    thread_job alone = {hpa, grid, 0, 0}, jobs[2] = {{hpa, grid, 0, 0}, {hpa, grid, 0, 0}};
    query_many(&alone);
    pthread_t threads[2];
    for (int i = 0; i < 2; i++) assert_int_equal(pthread_create(&threads[i], NULL, query_many, &jobs[i]), 0);
    for (int i = 0; i < 2; i++) assert_int_equal(pthread_join(threads[i], NULL), 0);
    assert_true(alone.found > 50);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(jobs[i].found, alone.found);
        assert_int_equal(jobs[i].checksum, alone.checksum);
    }
    nav_hpa_destroy(hpa);
    nav_grid_destroy(grid);
}

/* ---- the HPA chunk --------------------------------------------------------------------------- */

static void bake_chunk(const nav_grid *grid, const nav_hpa_desc *desc, nav_hpa **hpa, nav_writer *w)
{
    assert_int_equal(nav_hpa_bake(grid, desc, hpa), NAV_SUCCESS);
    nav_writer_init(w, NULL);
    assert_int_equal(nav_hpa_write_chunk(*hpa, w), NAV_SUCCESS);
}

/* Two bakes answer alike: same nodes, edges and costs, same paths. */
static void assert_same_graph(const nav_hpa *a, const nav_hpa *b, const nav_grid *grid)
{
    nav_hpa_info ia, ib;
    nav_hpa_get_info(a, &ia);
    nav_hpa_get_info(b, &ib);
    assert_memory_equal(ia.nodes, ib.nodes, sizeof ia.nodes);
    assert_memory_equal(ia.edges, ib.edges, sizeof ia.edges);
    assert_int_equal(ia.entrances, ib.entrances);
    assert_int_equal(ia.transitions, ib.transitions);
    assert_int_equal(ia.path_moves, ib.path_moves);
    for (uint32_t i = 0; i < nav_hpa_node_count(a); i++) {
        uint32_t ca, cb;
        int32_t la, lb;
        nav_hpa_node(a, i, &ca, &la);
        nav_hpa_node(b, i, &cb, &lb);
        assert_int_equal(ca, cb);
        assert_int_equal(la, lb);
        for (int32_t l = 1; l <= ia.levels; l++) {
            uint32_t ta[256], tb[256];
            double xa[256], xb[256];
            uint32_t na = nav_hpa_node_edges(a, l, i, ta, xa, 256),
                     nb = nav_hpa_node_edges(b, l, i, tb, xb, 256);
            assert_int_equal(na, nb);
            assert_true(na <= 256);
            assert_memory_equal(ta, tb, na * sizeof *ta);
            assert_memory_equal(xa, xb, na * sizeof *xa);
        }
    }
    nav_hpa_query *qa, *qb;
    assert_int_equal(nav_hpa_query_create(a, grid, NULL, &qa), NAV_SUCCESS);
    assert_int_equal(nav_hpa_query_create(b, grid, NULL, &qb), NAV_SUCCESS);
    nav_path pa, pb;
    nav_path_init(&pa, NULL);
    nav_path_init(&pb, NULL);
    int32_t w = nav_grid_width(grid), h = nav_grid_height(grid);
    for (int k = 0; k < 200; k++) {
        int32_t sx = rand() % w, sy = rand() % h, gx = rand() % w, gy = rand() % h;
        nav_status sa = nav_hpa_find_path(qa, sx, sy, gx, gy, &pa, NULL);
        assert_int_equal(sa, nav_hpa_find_path(qb, sx, sy, gx, gy, &pb, NULL));
        assert_int_equal(pa.count, pb.count);
        if (pa.count) assert_memory_equal(pa.nodes, pb.nodes, pa.count * sizeof *pa.nodes);
    }
    nav_path_destroy(&pa);
    nav_path_destroy(&pb);
    nav_hpa_query_destroy(qa);
    nav_hpa_query_destroy(qb);
}

static void test_chunk_round_trip(void **state)
{
    (void)state;
    for (unsigned seed = 20; seed < 26; seed++) {
        nav_grid *grid = random_grid(seed, 45, 38);
        nav_hpa *hpa, *back;
        nav_writer w;
        bake_chunk(grid,
                   &(nav_hpa_desc){.cluster_size = 4 + (int32_t)seed % 4,
                                   .levels = 1 + (int32_t)seed % 3,
                                   .level_ratio = 2},
                   &hpa, &w);
        assert_int_equal(nav_hpa_read_chunk(w.data, w.size, grid, NULL, &back), NAV_SUCCESS);
        assert_same_graph(hpa, back, grid);
        /* written again, the same bytes */
        nav_writer again;
        nav_writer_init(&again, NULL);
        assert_int_equal(nav_hpa_write_chunk(back, &again), NAV_SUCCESS);
        assert_int_equal(again.size, w.size);
        assert_memory_equal(again.data, w.data, w.size);
        nav_writer_destroy(&again);
        nav_writer_destroy(&w);
        nav_hpa_destroy(back);
        nav_hpa_destroy(hpa);
        nav_grid_destroy(grid);
    }
}

/* A loaded bake that passed validation: every query returns a valid path or a clean status. */
static void assert_queries_safe(const nav_hpa *hpa, const nav_grid *grid)
{
    nav_hpa_query *q;
    if (nav_hpa_query_create(hpa, grid, NULL, &q) != NAV_SUCCESS) return;
    nav_path path;
    nav_path_init(&path, NULL);
    int32_t w = nav_grid_width(grid), h = nav_grid_height(grid);
    for (int k = 0; k < 30; k++) {
        int32_t sx = rand() % w, sy = rand() % h, gx = rand() % w, gy = rand() % h;
        nav_hpa_result r;
        nav_status s = nav_hpa_find_path(q, sx, sy, gx, gy, &path, &r);
        if (s == NAV_SUCCESS) {
            check_path(grid, &path, sx, sy, gx, gy, r.cost);
        } else {
            /* damaged distance fields that no leg search can mend: a clean failure */
            assert_true(s == (NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE) ||
                        s == (NAV_FAILURE | NAV_BLOCKED_ENDPOINT) || s == (NAV_FAILURE | NAV_CORRUPT_DATA));
        }
    }
    nav_path_destroy(&path);
    nav_hpa_query_destroy(q);
}

static void chunk_damage(nav_grid *grid, bool fields)
{
    nav_hpa *hpa;
    nav_writer w;
    bake_chunk(grid, &(nav_hpa_desc){.cluster_size = 4, .levels = 2, .level_ratio = 2}, &hpa, &w);
    assert_true(w.size > 1000 && w.size < 30000);
    nav_hpa_info info;
    nav_hpa_get_info(hpa, &info);
    assert_true((info.field_bytes > 0) == fields);
    /* every truncation fails cleanly */
    for (size_t n = 0; n < w.size; n++) {
        test_log log;
        test_log_init(&log);
        nav_hpa *back = (nav_hpa *)&log;
        assert_int_equal(nav_hpa_read_chunk(w.data, n, grid, &(nav_hpa_desc){.log = &log.hooks}, &back),
                         NAV_FAILURE | NAV_CORRUPT_DATA);
        assert_null(back);
        assert_non_null(strstr(log.last, "HPA chunk: "));
    }
    /* every byte flipped (three ways): a clean failure, or a bake whose queries stay valid */
    uint8_t *copy = malloc(w.size);
    int rejected = 0, accepted = 0;
    for (size_t i = 0; i < w.size; i++) {
        for (int k = 0; k < 3; k++) {
            memcpy(copy, w.data, w.size);
            copy[i] ^= (uint8_t)(k == 0 ? 0x01 : k == 1 ? 0x80 : 0xff);
            nav_hpa *back = NULL;
            nav_status s = nav_hpa_read_chunk(copy, w.size, grid, NULL, &back);
            if (nav_failed(s)) {
                /* damage to the size or the fingerprint: the bake no longer matches the grid */
                assert_true(s == (NAV_FAILURE | NAV_CORRUPT_DATA) ||
                            (i < 16 && s == (NAV_FAILURE | NAV_SOURCE_MISMATCH)));
                assert_null(back);
                rejected++;
                continue;
            }
            accepted++;
            /* what loads is canonical: it writes back to exactly the bytes it came from */
            nav_writer again;
            nav_writer_init(&again, NULL);
            assert_int_equal(nav_hpa_write_chunk(back, &again), NAV_SUCCESS);
            assert_int_equal(again.size, w.size);
            assert_memory_equal(again.data, copy, w.size);
            nav_writer_destroy(&again);
            if (i % 7 == 0) assert_queries_safe(back, grid);
            nav_hpa_destroy(back);
        }
    }
    /* most damage is caught; what passes (a changed count of entrances, a cost within tolerance,
     * the bits of an equal option) is harmless */
    if (!fields) assert_true(rejected > 4 * accepted);
    /* field values are hints a query checks as it walks them: any values give valid paths */
    if (fields) assert_true(accepted > 0);
    free(copy);
    /* a grid of another size is refused */
    nav_grid *other = make_grid(nav_grid_width(grid) + 1, nav_grid_height(grid), NULL);
    nav_hpa *back;
    assert_int_equal(nav_hpa_read_chunk(w.data, w.size, other, NULL, &back),
                     NAV_FAILURE | NAV_SOURCE_MISMATCH);
    assert_null(back);
    /* allocation failures while reading: a clean failure, nothing leaked */
    for (long n = 1;; n++) {
        test_allocator t;
        test_allocator_init(&t, n);
        nav_status s =
            nav_hpa_read_chunk(w.data, w.size, grid, &(nav_hpa_desc){.allocator = &t.hooks}, &back);
        if (s == NAV_SUCCESS) {
            nav_hpa_destroy(back);
            assert_int_equal(t.live, 0);
            break;
        }
        assert_int_equal(s, NAV_FAILURE | NAV_OUT_OF_MEMORY);
        assert_int_equal(t.live, 0);
    }
    nav_grid_destroy(other);
    nav_writer_destroy(&w);
    nav_hpa_destroy(hpa);
}

static void test_chunk_damage(void **state)
{
    (void)state;
    nav_grid *grid = random_grid(31, 16, 12); /* terrain costs: no distance fields */
    chunk_damage(grid, false);
    nav_grid_destroy(grid);
    /* one cost, no heights: distance fields, and damage to them too */
    grid = make_grid(16, 12, NULL);
    srand(5);
    for (int32_t y = 0; y < 12; y++)
        for (int32_t x = 0; x < 16; x++)
            if (rand() % 4 == 0) nav_grid_set_cell(grid, x, y, NAV_TERRAIN_BLOCKED);
    chunk_damage(grid, true);
    nav_grid_destroy(grid);
}

static void test_nav_file(void **state)
{
    (void)state;
    nav_grid *grid;
    assert_int_equal(nav_grid_load_map_file(test_bench_file(TEST_BENCH_DEN, false), NULL, &grid),
                     NAV_SUCCESS);
    nav_hpa *hpa;
    assert_int_equal(nav_hpa_bake(grid, NULL, &hpa), NAV_SUCCESS);
    char path[] = "/tmp/test_hpa_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(nav_hpa_save_nav(grid, hpa, path), NAV_SUCCESS);
    nav_grid *grid2;
    nav_hpa *hpa2;
    assert_int_equal(nav_hpa_load_nav(path, NULL, &grid2, &hpa2), NAV_SUCCESS);
    assert_int_equal(nav_grid_width(grid2), nav_grid_width(grid));
    assert_same_graph(hpa, hpa2, grid2);
    nav_hpa_destroy(hpa2);
    nav_grid_destroy(grid2);
    /* a .nav file with a grid only has no HPA chunk */
    assert_int_equal(nav_grid_save_nav(grid, path), NAV_SUCCESS);
    test_log log;
    test_log_init(&log);
    assert_int_equal(nav_hpa_load_nav(path, &(nav_hpa_desc){.log = &log.hooks}, &grid2, &hpa2),
                     NAV_FAILURE | NAV_CORRUPT_DATA);
    assert_null(grid2);
    assert_null(hpa2);
    if (!strstr(log.last, "no HPA chunk")) fail_msg("message: %s", log.last);
    remove(path);
    assert_int_equal(nav_hpa_load_nav(path, NULL, &grid2, &hpa2), NAV_FAILURE | NAV_IO_ERROR);
    nav_hpa_destroy(hpa);
    nav_grid_destroy(grid);
}

/* Writes a .nav file holding the given chunks as they are: what a user could make by pairing chunks
 * from different files (nav_hpa_save_nav itself refuses a stale pair). */
static void write_chunks(const char *path, const nav_grid *grid, const nav_hpa *hpa, int grids, int hpas)
{
    nav_writer g, h;
    nav_writer_init(&g, NULL);
    nav_writer_init(&h, NULL);
    assert_int_equal(nav_grid_write_chunk(grid, &g), NAV_SUCCESS);
    if (hpa) assert_int_equal(nav_hpa_write_chunk(hpa, &h), NAV_SUCCESS);
    nav_chunk chunks[4];
    uint32_t n = 0;
    for (int i = 0; i < grids; i++)
        chunks[n++] = (nav_chunk){NAV_CHUNK_GRID, NAV_GRID_CHUNK_VERSION, g.data, g.size};
    for (int i = 0; i < hpas; i++)
        chunks[n++] = (nav_chunk){NAV_CHUNK_HPA, NAV_HPA_CHUNK_VERSION, h.data, h.size};
    assert_int_equal(nav_container_write_file(path, chunks, n, NULL), NAV_SUCCESS);
    nav_writer_destroy(&g);
    nav_writer_destroy(&h);
}

/* Issue 10, finding 1: a bake that no longer matches its grid loaded, and HPA* then answered
 * "unreachable" from the opened cells for goals A* reached. Now a bake records its grid's
 * fingerprint: saving a stale pair fails, loading one is refused with a message, and a re-bake
 * answers for the grid as it is. */
static void test_stale_bake(void **state)
{
    (void)state;
    char path[] = "/tmp/test_hpa_stale_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    nav_grid *grid;
    nav_hpa *hpa;
    assert_int_equal(nav_grid_load_map_file(test_bench_file(TEST_BENCH_DEN, false), NULL, &grid),
                     NAV_SUCCESS);
    assert_int_equal(nav_hpa_bake(grid, NULL, &hpa), NAV_SUCCESS);
    assert_true(nav_hpa_grid_fingerprint(hpa) == nav_grid_fingerprint(grid));
    assert_int_equal(nav_hpa_save_nav(grid, hpa, path), NAV_SUCCESS);
    nav_hpa_destroy(hpa);
    nav_grid_destroy(grid);
    test_log log;
    test_log_init(&log);
    assert_int_equal(nav_hpa_load_nav(path, &(nav_hpa_desc){.log = &log.hooks}, &grid, &hpa), NAV_SUCCESS);

    /* open 10 blocked cells that border free ones, as the probe did */
    int32_t w = nav_grid_width(grid), h = nav_grid_height(grid), opened[10][2];
    int count = 0;
    for (int32_t y = 1; y < h - 1 && count < 10; y += 7)
        for (int32_t x = 1; x < w - 1 && count < 10; x++)
            if (!nav_grid_passable(grid, x, y) && nav_grid_passable(grid, x + 1, y)) {
                nav_grid_set_cell(grid, x, y, NAV_TERRAIN_PLAIN);
                opened[count][0] = x, opened[count][1] = y;
                count++;
                x += 8;
            }
    assert_int_equal(count, 10);
    assert_int_equal(nav_grid_build_reachability(grid), NAV_SUCCESS);
    assert_true(nav_hpa_grid_fingerprint(hpa) != nav_grid_fingerprint(grid));

    /* saving the stale pair fails, naming the reason (to the grid's log), and leaves the file as it was */
    size_t before_size;
    char *before = test_read_file(path, &before_size);
    assert_int_equal(nav_hpa_save_nav(grid, hpa, path), NAV_FAILURE | NAV_SOURCE_MISMATCH);
    if (!strstr(log.last, "cannot save: the HPA bake belongs to another grid"))
        fail_msg("message: %s", log.last);
    size_t after_size;
    char *after = test_read_file(path, &after_size);
    assert_int_equal(after_size, before_size);
    assert_memory_equal(after, before, before_size);
    free(before);
    free(after);

    /* a file that pairs them anyway is refused on load, with both fingerprints in the message */
    write_chunks(path, grid, hpa, 1, 1);
    nav_grid *loaded_grid = (nav_grid *)&log;
    nav_hpa *loaded = (nav_hpa *)&log;
    assert_int_equal(nav_hpa_load_nav(path, &(nav_hpa_desc){.log = &log.hooks}, &loaded_grid, &loaded),
                     NAV_FAILURE | NAV_SOURCE_MISMATCH);
    assert_null(loaded_grid);
    assert_null(loaded);
    if (!strstr(log.last, "the bake belongs to another grid") || !strstr(log.last, path))
        fail_msg("message: %s", log.last);
    char expected[64];
    snprintf(expected, sizeof expected, "this grid is %016llx",
             (unsigned long long)nav_grid_fingerprint(grid));
    if (!strstr(log.last, expected)) fail_msg("message: %s", log.last);
    /* and so is the chunk read against the edited grid directly */
    nav_writer chunk;
    nav_writer_init(&chunk, NULL);
    assert_int_equal(nav_hpa_write_chunk(hpa, &chunk), NAV_SUCCESS);
    assert_int_equal(nav_hpa_read_chunk(chunk.data, chunk.size, grid, NULL, &loaded),
                     NAV_FAILURE | NAV_SOURCE_MISMATCH);
    nav_writer_destroy(&chunk);

    /* re-baked, it saves, loads, and reaches from every opened cell what A* reaches */
    nav_hpa *fresh;
    assert_int_equal(nav_hpa_bake(grid, NULL, &fresh), NAV_SUCCESS);
    assert_int_equal(nav_hpa_save_nav(grid, fresh, path), NAV_SUCCESS);
    nav_hpa_destroy(fresh);
    assert_int_equal(nav_hpa_load_nav(path, NULL, &loaded_grid, &loaded), NAV_SUCCESS);
    nav_hpa_query *q;
    nav_grid_query *astar;
    assert_int_equal(nav_hpa_query_create(loaded, loaded_grid, NULL, &q), NAV_SUCCESS);
    assert_int_equal(nav_grid_query_create(loaded_grid, NULL, &astar), NAV_SUCCESS);
    nav_path p;
    nav_path_init(&p, NULL);
    int reached = 0;
    for (int i = 0; i < count; i++)
        for (int32_t gy = 2; gy < h; gy += 9)
            for (int32_t gx = 2; gx < w; gx += 9) {
                if (!nav_grid_passable(loaded_grid, gx, gy)) continue;
                nav_search_result ar;
                nav_status as = nav_grid_find_path(astar, NULL, opened[i][0], opened[i][1], gx, gy, &p, &ar);
                nav_hpa_result hr;
                nav_status hs = nav_hpa_find_path(q, opened[i][0], opened[i][1], gx, gy, &p, &hr);
                assert_int_equal(hs, as);
                if (as == NAV_SUCCESS) {
                    check_path(loaded_grid, &p, opened[i][0], opened[i][1], gx, gy, hr.cost);
                    reached++;
                }
            }
    assert_true(reached > 100);
    nav_path_destroy(&p);
    nav_grid_query_destroy(astar);
    nav_hpa_query_destroy(q);
    nav_hpa_destroy(loaded);
    nav_grid_destroy(loaded_grid);

    /* arena_like's bake (49 x 49) beside an all-free 49 x 49 grid: refused too */
    nav_grid *arena, *open_field = make_grid(49, 49, NULL);
    nav_hpa *arena_hpa;
    assert_int_equal(nav_grid_load_map_file(test_bench_file(TEST_BENCH_ARENA, false), NULL, &arena),
                     NAV_SUCCESS);
    assert_int_equal(nav_hpa_bake(arena, NULL, &arena_hpa), NAV_SUCCESS);
    assert_int_equal(nav_hpa_save_nav(open_field, arena_hpa, path), NAV_FAILURE | NAV_SOURCE_MISMATCH);
    write_chunks(path, open_field, arena_hpa, 1, 1);
    assert_int_equal(nav_hpa_load_nav(path, NULL, &loaded_grid, &loaded), NAV_FAILURE | NAV_SOURCE_MISMATCH);

    /* finding 7: a second GRID or HPA chunk is refused, not silently passed over */
    write_chunks(path, arena, arena_hpa, 2, 1);
    assert_int_equal(nav_hpa_load_nav(path, &(nav_hpa_desc){.log = &log.hooks}, &loaded_grid, &loaded),
                     NAV_FAILURE | NAV_CORRUPT_DATA);
    if (!strstr(log.last, "2 GRID chunks, a file holds one")) fail_msg("message: %s", log.last);
    assert_int_equal(nav_grid_load_nav(path, &(nav_grid_desc){.log = &log.hooks}, &loaded_grid),
                     NAV_FAILURE | NAV_CORRUPT_DATA);
    assert_null(loaded_grid);
    if (!strstr(log.last, "2 GRID chunks, a file holds one")) fail_msg("message: %s", log.last);
    write_chunks(path, arena, arena_hpa, 1, 3);
    assert_int_equal(nav_hpa_load_nav(path, &(nav_hpa_desc){.log = &log.hooks}, &loaded_grid, &loaded),
                     NAV_FAILURE | NAV_CORRUPT_DATA);
    if (!strstr(log.last, "3 HPA chunks, a file holds one")) fail_msg("message: %s", log.last);
    write_chunks(path, arena, arena_hpa, 1, 1);
    assert_int_equal(nav_hpa_load_nav(path, NULL, &loaded_grid, &loaded), NAV_SUCCESS);
    nav_hpa_destroy(loaded);
    nav_grid_destroy(loaded_grid);

    /* a version-1 HPA chunk (no fingerprint) must be baked again */
    nav_writer g;
    nav_writer_init(&g, NULL);
    assert_int_equal(nav_grid_write_chunk(arena, &g), NAV_SUCCESS);
    nav_chunk old[2] = {{NAV_CHUNK_GRID, NAV_GRID_CHUNK_VERSION, g.data, g.size},
                        {NAV_CHUNK_HPA, 1, "abcd", 4}};
    assert_int_equal(nav_container_write_file(path, old, 2, NULL), NAV_SUCCESS);
    assert_int_equal(nav_hpa_load_nav(path, &(nav_hpa_desc){.log = &log.hooks}, &loaded_grid, &loaded),
                     NAV_FAILURE | NAV_WRONG_VERSION);
    if (!strstr(log.last, "HPA chunk version 1, this library reads version 2 (an older libnav made it: bake "
                          "the file again)"))
        fail_msg("message: %s", log.last);
    nav_writer_destroy(&g);

    nav_hpa_destroy(arena_hpa);
    nav_grid_destroy(arena);
    nav_grid_destroy(open_field);
    nav_hpa_destroy(hpa);
    nav_grid_destroy(grid);
    remove(path);
}

/* ---- re-bakes after edits -------------------------------------------------------------------- */

/* Random edits (a door opened or closed, a wall, a raised floor), each followed by a re-bake of the
 * previous bake: the result equals a full bake of the edited grid, edges, costs and paths alike,
 * and most clusters are copied rather than searched. */
static void test_rebake_matches_full_bake(void **state)
{
    (void)state;
    uint32_t reused = 0, clusters = 0;
    for (unsigned seed = 40; seed < 52; seed++) {
        int32_t w = 40 + (int32_t)(seed % 5) * 7, h = 33 + (int32_t)(seed % 3) * 5;
        nav_grid *grid = random_grid(seed, w, h);
        nav_hpa_desc desc = {
            .cluster_size = 4 + (int32_t)(seed % 4), .levels = 1 + (int32_t)(seed % 3), .level_ratio = 2};
        nav_hpa *hpa;
        assert_int_equal(nav_hpa_bake(grid, &desc, &hpa), NAV_SUCCESS);
        for (int edit = 0; edit < 4; edit++) {
            nav_grid_rect r = {rand() % w, rand() % h, 1 + rand() % 3, 1 + rand() % 3};
            if (r.x + r.width > w) r.width = w - r.x;
            if (r.y + r.height > h) r.height = h - r.y;
            for (int32_t y = r.y; y < r.y + r.height; y++)
                for (int32_t x = r.x; x < r.x + r.width; x++) {
                    int k = rand() % 4;
                    nav_grid_set_cell(grid, x, y, k == 0 ? NAV_TERRAIN_BLOCKED : k == 1 ? 2 : 1);
                    if (k == 3) nav_grid_set_cell_height(grid, x, y, (float)(rand() % 4));
                }
            if (rand() % 2) nav_grid_build_reachability(grid);
            nav_hpa *next, *full;
            assert_int_equal(nav_hpa_rebake(hpa, grid, r, NULL, &next), NAV_SUCCESS);
            assert_int_equal(nav_hpa_bake(grid, &desc, &full), NAV_SUCCESS);
            assert_same_graph(next, full, grid);
            nav_hpa_info info;
            nav_hpa_get_info(next, &info);
            reused += info.reused_clusters[1];
            clusters += info.clusters[1];
            assert_true(info.reused_clusters[1] < info.clusters[1]); /* the edited ones were searched */
            nav_hpa_destroy(full);
            nav_hpa_destroy(hpa);
            hpa = next;
        }
        nav_hpa_destroy(hpa);
        nav_grid_destroy(grid);
    }
    /* a small edit leaves most clusters as they were */
    assert_true(reused > clusters / 2);
    /* a grid of another size is refused */
    nav_grid *grid = random_grid(1, 20, 20), *other = make_grid(21, 20, NULL);
    nav_hpa *hpa, *next;
    assert_int_equal(nav_hpa_bake(grid, NULL, &hpa), NAV_SUCCESS);
    assert_int_equal(nav_hpa_rebake(hpa, other, (nav_grid_rect){0, 0, 1, 1}, NULL, &next),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    assert_null(next);
    nav_hpa_destroy(hpa);
    nav_grid_destroy(other);
    nav_grid_destroy(grid);
}

/* ---- refinement on demand -------------------------------------------------------------------- */

/* Plan, then take the cells a few at a time: the same cells as nav_hpa_find_path, in order. */
static void test_refine_on_demand(void **state)
{
    (void)state;
    nav_path whole, parts;
    nav_path_init(&whole, NULL);
    nav_path_init(&parts, NULL);
    int routes = 0;
    for (unsigned seed = 60; seed < 72; seed++) {
        int32_t w = 50, h = 40;
        nav_grid *grid = random_grid(seed, w, h);
        nav_hpa *hpa;
        assert_int_equal(
            nav_hpa_bake(
                grid, &(nav_hpa_desc){.cluster_size = 5, .levels = 1 + (int32_t)(seed % 3), .level_ratio = 2},
                &hpa),
            NAV_SUCCESS);
        nav_hpa_query *q;
        assert_int_equal(nav_hpa_query_create(hpa, grid, NULL, &q), NAV_SUCCESS);
        nav_path empty;
        nav_path_init(&empty, NULL);
        assert_int_equal(nav_hpa_refine_next(q, 5, &empty), NAV_FAILURE | NAV_WRONG_STATE); /* no plan yet */
        for (int k = 0; k < 25; k++) {
            int32_t sx = rand() % w, sy = rand() % h, gx = rand() % w, gy = rand() % h;
            nav_hpa_result r, rp;
            nav_status s = nav_hpa_find_path(q, sx, sy, gx, gy, &whole, &r);
            nav_status p = nav_hpa_plan(q, sx, sy, gx, gy, &rp);
            assert_int_equal(p, s);
            if (nav_failed(s)) {
                assert_int_equal(nav_hpa_refine_next(q, 5, &parts), NAV_FAILURE | NAV_WRONG_STATE);
                continue;
            }
            assert_int_equal(rp.search_level, r.search_level);
            uint32_t step = (uint32_t)(1 + k % 7), calls = 0;
            nav_path_clear(&parts);
            nav_status t;
            while ((t = nav_hpa_refine_next(q, step, &parts)) == NAV_IN_PROGRESS) {
                assert_int_equal(parts.count, (calls + 1) * step);
                calls++;
            }
            assert_int_equal(t, NAV_SUCCESS);
            assert_int_equal(parts.count, whole.count);
            assert_memory_equal(parts.nodes, whole.nodes, whole.count * sizeof *whole.nodes);
            assert_int_equal(nav_hpa_refine_next(q, step, &parts), NAV_FAILURE | NAV_WRONG_STATE);
            routes += r.abstract_edges > 0;
        }
        nav_path_destroy(&empty);
        nav_hpa_query_destroy(q);
        nav_hpa_destroy(hpa);
        nav_grid_destroy(grid);
    }
    assert_true(routes > 50); /* abstract routes, not only near ones */
    nav_path_destroy(&whole);
    nav_path_destroy(&parts);
}

/* Smoothing a planner's cells without checking each step gives what the checked call gives; cells
 * that are no path are refused if off the map or blocked, and otherwise never read out of bounds. */
static void test_smooth_planned_path(void **state)
{
    (void)state;
    nav_grid *grid;
    assert_int_equal(nav_grid_load_map_file(test_bench_file(TEST_BENCH_BRC, false), NULL, &grid),
                     NAV_SUCCESS);
    nav_hpa *hpa;
    assert_int_equal(nav_hpa_bake(grid, NULL, &hpa), NAV_SUCCESS);
    nav_hpa_query *q;
    assert_int_equal(nav_hpa_query_create(hpa, grid, NULL, &q), NAV_SUCCESS);
    nav_path cells, a, b;
    nav_path_init(&cells, NULL);
    nav_path_init(&a, NULL);
    nav_path_init(&b, NULL);
    int32_t w = nav_grid_width(grid), h = nav_grid_height(grid);
    int compared = 0;
    for (int k = 0; k < 1500; k++) {
        int32_t sx = rand() % w, sy = rand() % h, gx = rand() % w, gy = rand() % h;
        if (nav_hpa_find_path(q, sx, sy, gx, gy, &cells, NULL) != NAV_SUCCESS) continue;
        assert_int_equal(nav_grid_smooth_path(grid, &cells, &a), NAV_SUCCESS);
        assert_int_equal(nav_grid_smooth_planned_path(grid, &cells, &b), NAV_SUCCESS);
        assert_int_equal(a.count, b.count);
        assert_memory_equal(a.nodes, b.nodes, a.count * sizeof *a.nodes);
        assert_cost_equal(a.cost, b.cost, 0);
        compared++;
    }
    assert_true(compared > 100);
    /* free cells in any order: no path, but nothing read off the grid (ASan watches) */
    nav_path_clear(&cells);
    for (int k = 0; k < 200; k++) {
        int32_t x = rand() % w, y = rand() % h;
        if (nav_grid_passable(grid, x, y))
            nav_path_push(&cells, nav_grid_cell_center(grid, x, y), nav_grid_index(grid, x, y));
    }
    assert_int_equal(nav_grid_smooth_planned_path(grid, &cells, &b), NAV_SUCCESS);
    assert_int_equal(nav_grid_smooth_path(grid, &cells, &a), NAV_FAILURE | NAV_INVALID_PARAM);
    nav_path_push(&cells, (nav_vec3){0}, (uint32_t)(w * h)); /* off the map */
    assert_int_equal(nav_grid_smooth_planned_path(grid, &cells, &b), NAV_FAILURE | NAV_INVALID_PARAM);
    nav_path_destroy(&cells);
    nav_path_destroy(&a);
    nav_path_destroy(&b);
    nav_hpa_query_destroy(q);
    nav_hpa_destroy(hpa);
    nav_grid_destroy(grid);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_checked_graph),
        cmocka_unit_test(test_one_way_crossing),
        cmocka_unit_test(test_entrances_and_levels),
        cmocka_unit_test(test_random_complete),
        cmocka_unit_test(test_region_leg_and_fan),
        cmocka_unit_test(test_region_filter),
        cmocka_unit_test(test_region_fan_many_targets),
        cmocka_unit_test(test_moves_reversible),
        cmocka_unit_test(test_scenarios_generated),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_progress_and_cancel),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_threads_share_a_bake),
        cmocka_unit_test(test_chunk_round_trip),
        cmocka_unit_test(test_chunk_damage),
        cmocka_unit_test(test_nav_file),
        cmocka_unit_test(test_stale_bake),
        cmocka_unit_test(test_rebake_matches_full_bake),
        cmocka_unit_test(test_refine_on_demand),
        cmocka_unit_test(test_smooth_planned_path),
    };
    const struct CMUnitTest shared_tests[] = {
        cmocka_unit_test(test_scenarios_arena),
        cmocka_unit_test(test_scenarios_den312d),
        cmocka_unit_test(test_scenarios_brc000d),
    };
    static const char *const needs[] = {"maps/dao/arena.map",
                                        "maps/dao/arena.map.scen",
                                        "maps/dao/den312d.map",
                                        "maps/dao/den312d.map.scen",
                                        "maps/dao/brc000d.map",
                                        "maps/dao/brc000d.map.scen",
                                        NULL};
    return TEST_RUN_SUITE("hpa", tests, shared_tests, needs);
}
