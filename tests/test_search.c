/* Grid planners: the seed tutorials' worked examples, cross-checks against a brute-force
 * reference on random maps, budgets, partial paths, step-wise search, smoothing, flow fields. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#include "nav/flow.h"
#include "nav/grid.h"
#include "nav/search.h"
#include "nav/smooth.h"

/* ---- helpers ---------------------------------------------------------------------------------- */

static nav_grid *make_grid(int32_t w, int32_t h, const nav_grid_desc *extra)
{
    nav_grid_desc d = extra ? *extra : (nav_grid_desc){0};
    d.width = w;
    d.height = h;
    nav_grid *grid = NULL;
    assert_int_equal(nav_grid_create(&d, &grid), NAV_SUCCESS);
    return grid;
}

static double reference_move_cost(const nav_grid *grid, int32_t x, int32_t y, nav_dir d);

/* The grid's own move masks agree with the rules, cell by cell. */
static void assert_moves_match_rules(const nav_grid *grid)
{
    for (int32_t y = 0; y < nav_grid_height(grid); y++)
        for (int32_t x = 0; x < nav_grid_width(grid); x++)
            for (int d = 0; d < 8; d++) {
                double expect = reference_move_cost(grid, x, y, (nav_dir)d);
                double got = nav_grid_move_cost(grid, x, y, (nav_dir)d);
                assert_true(expect == got || (!(expect < INFINITY) && !(got < INFINITY)));
            }
}

/* Runs one search and checks the path it returns: valid moves, the reported cost, endpoints. */
static nav_status run(nav_grid_query *q, const nav_grid *grid, nav_algo algo, int32_t sx, int32_t sy,
                      int32_t gx, int32_t gy, nav_path *path, nav_search_result *r)
{
    nav_search_desc d = {.algo = algo};
    nav_status s = nav_grid_find_path(q, &d, sx, sy, gx, gy, path, r);
    if (nav_succeeded(s)) {
        double cost = -1;
        assert_int_equal(nav_grid_validate_cells(grid, path, &cost), NAV_SUCCESS);
        assert_cost_equal(cost, r->cost, 1e-9);
        assert_cost_equal(path->cost, r->cost, 1e-9);
        assert_int_equal(path->nodes[0], nav_grid_index(grid, sx, sy));
        assert_int_equal(path->nodes[path->count - 1], r->end_cell);
        if (!nav_has_detail(s, NAV_PARTIAL_RESULT))
            assert_int_equal(r->end_cell, nav_grid_index(grid, gx, gy));
    }
    return s;
}

/* The cost of a move from first principles, independent of the grid's precomputed move masks:
 * in bounds, destination free, climb within max_climb, the corner policy for diagonals, length
 * times the destination's cost. */
static double reference_move_cost(const nav_grid *grid, int32_t x, int32_t y, nav_dir d)
{
    const nav_grid_desc *desc = nav_grid_get_desc(grid);
    int32_t dx, dy;
    nav_dir_offset(d, &dx, &dy);
    if (desc->connectivity == NAV_CONNECT_4 && dx && dy) return INFINITY;
    int32_t nx = x + dx, ny = y + dy;
    if (!nav_grid_passable(grid, x, y) || !nav_grid_passable(grid, nx, ny)) return INFINITY;
    if (nav_grid_cell_height(grid, nx, ny) - nav_grid_cell_height(grid, x, y) > desc->max_climb)
        return INFINITY;
    double length = 1;
    if (dx && dy) {
        bool a = nav_grid_passable(grid, nx, y), b = nav_grid_passable(grid, x, ny);
        if (desc->corner_policy == NAV_CORNER_NEVER_CUT && !(a && b)) return INFINITY;
        if (desc->corner_policy == NAV_CORNER_CUT_IF_ONE_FREE && !(a || b)) return INFINITY;
        length = desc->diagonal_cost;
    }
    return length * nav_grid_cell_cost(grid, nx, ny);
}

/* Brute-force reference: Dijkstra with a linear scan for the minimum, over moves derived from
 * first principles. dist[] gets INFINITY for unreachable cells. */
static void reference_distances(const nav_grid *grid, int32_t sx, int32_t sy, double *dist)
{
    int32_t w = nav_grid_width(grid), h = nav_grid_height(grid), n = w * h;
    char *done = calloc((size_t)n, 1);
    for (int32_t i = 0; i < n; i++) dist[i] = INFINITY;
    dist[sy * w + sx] = 0;
    for (;;) {
        int32_t best = -1;
        for (int32_t i = 0; i < n; i++)
            if (!done[i] && dist[i] < INFINITY && (best < 0 || dist[i] < dist[best])) best = i;
        if (best < 0) break;
        done[best] = 1;
        int32_t x = best % w, y = best / w;
        for (int d = 0; d < 8; d++) {
            double c = reference_move_cost(grid, x, y, (nav_dir)d);
            if (!(c < INFINITY)) continue;
            int32_t dx, dy;
            nav_dir_offset((nav_dir)d, &dx, &dy);
            int32_t next = (y + dy) * w + (x + dx);
            if (dist[best] + c < dist[next]) dist[next] = dist[best] + c;
        }
    }
    free(done);
}

/* Fewest moves from (sx, sy), by plain breadth-first flood (-1: unreachable). */
static void reference_hops(const nav_grid *grid, int32_t sx, int32_t sy, int32_t *hops)
{
    int32_t w = nav_grid_width(grid), h = nav_grid_height(grid), n = w * h;
    int32_t *queue = malloc((size_t)n * sizeof *queue), head = 0, tail = 0;
    for (int32_t i = 0; i < n; i++) hops[i] = -1;
    hops[sy * w + sx] = 0;
    queue[tail++] = sy * w + sx;
    while (head < tail) {
        int32_t cell = queue[head++], x = cell % w, y = cell / w;
        for (int d = 0; d < 8; d++) {
            if (!(reference_move_cost(grid, x, y, (nav_dir)d) < INFINITY)) continue;
            int32_t dx, dy;
            nav_dir_offset((nav_dir)d, &dx, &dy);
            int32_t next = (y + dy) * w + (x + dx);
            if (hops[next] >= 0) continue;
            hops[next] = hops[cell] + 1;
            queue[tail++] = next;
        }
    }
    free(queue);
}

/* ---- the 4x4 grid (seed 003) ------------------------------------------------------------------ */

/* The tutorial puts (0,0) at the bottom left; our rows run top to bottom, so row = 3 - y. */
static nav_grid *tutorial_4x4(nav_corner_policy corners)
{
    nav_grid *grid = make_grid(4, 4, &(nav_grid_desc){.corner_policy = corners, .diagonal_cost = 1.4});
    nav_grid_set_cell(grid, 1, 3 - 1, NAV_TERRAIN_BLOCKED);
    nav_grid_set_cell(grid, 1, 3 - 2, NAV_TERRAIN_BLOCKED);
    return grid;
}

static void test_tutorial_4x4(void **state)
{
    (void)state;
    nav_grid *grid = tutorial_4x4(NAV_CORNER_CUT_IF_ONE_FREE);
    nav_grid_query *q;
    assert_int_equal(nav_grid_query_create(grid, NULL, &q), NAV_SUCCESS);

    /* Step through as the tutorial does: the first expansion opens (0,2) with g=1.0 (10), and
     * (1,0) with g=1.4, h=2.4, f=3.8 is expanded next. */
    assert_int_equal(nav_grid_search_begin(q, NULL, 0, 3 - 1, 3, 3 - 1), NAV_IN_PROGRESS);
    assert_int_equal(nav_grid_search_step(q, 1), NAV_IN_PROGRESS);
    double g = 0;
    assert_int_equal(nav_grid_query_cell(q, 0, 3 - 2, &g, NULL), NAV_CELL_OPEN);
    assert_cost_equal(g, 1.0, 1e-12);
    assert_cost_equal(nav_grid_heuristic(grid, NAV_HEURISTIC_OCTILE, 0, 3 - 2, 3, 3 - 1), 3.4, 1e-12);
    assert_int_equal(nav_grid_query_cell(q, 1, 3 - 0, &g, NULL), NAV_CELL_OPEN);
    assert_cost_equal(g, 1.4, 1e-9); /* the g of a cell may be 2^-33 off a diagonal (nav/search.h) */
    assert_int_equal(nav_grid_query_open_count(q), 3); /* (0,2), (0,0) and (1,0); (1,1) and (1,2) are walls */
    assert_int_equal(nav_grid_search_step(q, 1), NAV_IN_PROGRESS);
    assert_int_equal(nav_grid_query_cell(q, 1, 3 - 0, NULL, NULL), NAV_CELL_CLOSED);
    assert_int_equal(nav_grid_search_step(q, 0), NAV_SUCCESS);
    nav_path path;
    nav_path_init(&path, NULL);
    nav_search_result r;
    assert_int_equal(nav_grid_search_finish(q, &path, &r), NAV_SUCCESS);
    assert_cost_equal(r.cost, 3.8, 1e-9); /* 38 in the tutorial's units of 10 */
    /* (0,1) -> (1,0) -> (2,1) -> (3,1), or its tie through (2,0) */
    assert_int_equal(path.count, 4);
    assert_int_equal(path.nodes[1], nav_grid_index(grid, 1, 3 - 0));
    assert_true(path.nodes[2] == nav_grid_index(grid, 2, 3 - 1) ||
                path.nodes[2] == nav_grid_index(grid, 2, 3 - 0));

    /* the same through find_path */
    nav_search_result r2;
    assert_int_equal(run(q, grid, NAV_ALGO_ASTAR, 0, 2, 3, 2, &path, &r2), NAV_SUCCESS);
    assert_cost_equal(r2.cost, 3.8, 1e-9);
    nav_grid_query_destroy(q);
    nav_grid_destroy(grid);

    /* Under the Moving AI corner rule the first diagonal is refused: 44, by way of (0,0). */
    grid = tutorial_4x4(NAV_CORNER_NEVER_CUT);
    assert_int_equal(nav_grid_query_create(grid, NULL, &q), NAV_SUCCESS);
    assert_int_equal(run(q, grid, NAV_ALGO_ASTAR, 0, 2, 3, 2, &path, &r), NAV_SUCCESS);
    assert_cost_equal(r.cost, 4.4, 1e-9);
    assert_int_equal(path.nodes[1], nav_grid_index(grid, 0, 3 - 0));
    nav_path_destroy(&path);
    nav_grid_query_destroy(q);
    nav_grid_destroy(grid);
}

/* ---- terrain: around the forest (seed 001) ---------------------------------------------------- */

static void test_forest_detour(void **state)
{
    (void)state;
    enum { FOREST = 2 };
    nav_path path;
    nav_path_init(&path, NULL);
    nav_search_result r;
    nav_grid_query *q;

    /* A forest block 3 wide: crossing it costs 5 + 15 = 20, the detour along row 4 costs 12. */
    nav_grid *grid = make_grid(9, 5, &(nav_grid_desc){.connectivity = NAV_CONNECT_4});
    nav_grid_set_terrain_cost(grid, FOREST, 5);
    for (int32_t y = 0; y <= 3; y++)
        for (int32_t x = 3; x <= 5; x++) nav_grid_set_cell(grid, x, y, FOREST);
    assert_int_equal(nav_grid_query_create(grid, NULL, &q), NAV_SUCCESS);
    for (nav_algo algo = NAV_ALGO_ASTAR; algo <= NAV_ALGO_DIJKSTRA; algo += NAV_ALGO_DIJKSTRA) {
        assert_int_equal(run(q, grid, algo, 0, 2, 8, 2, &path, &r), NAV_SUCCESS);
        assert_cost_equal(r.cost, 12.0, 1e-9);
        for (uint32_t i = 0; i < path.count; i++)
            assert_int_not_equal(nav_grid_cell(grid, path.nodes[i] % 9, path.nodes[i] / 9), FOREST);
    }
    nav_grid_query_destroy(q);
    nav_grid_destroy(grid);

    /* A forest one cell wide with a long way round: crossing (7 + 5 = 12) beats the detour (18). */
    grid = make_grid(9, 7, &(nav_grid_desc){.connectivity = NAV_CONNECT_4});
    nav_grid_set_terrain_cost(grid, FOREST, 5);
    for (int32_t y = 0; y <= 5; y++) nav_grid_set_cell(grid, 4, y, FOREST);
    assert_int_equal(nav_grid_query_create(grid, NULL, &q), NAV_SUCCESS);
    assert_int_equal(run(q, grid, NAV_ALGO_ASTAR, 0, 1, 8, 1, &path, &r), NAV_SUCCESS);
    assert_cost_equal(r.cost, 12.0, 1e-9);
    assert_int_equal(path.count, 9);
    assert_int_equal(nav_grid_cell(grid, path.nodes[4] % 9, path.nodes[4] / 9), FOREST);
    nav_grid_query_destroy(q);
    nav_grid_destroy(grid);
    nav_path_destroy(&path);
}

/* ---- the basin (seed 002) --------------------------------------------------------------------- */

static const char *const basin_rows[18] = {
    "                                                          ",
    "                                                          ",
    "                                                          ",
    "             ||||||||||||||||||||                         ",
    "             |                  |||                       ",
    "             |                    ||                      ",
    "             |                     ||                     ",
    "             |                      ||                    ",
    "             ||                      |||                  ",
    "              ||                       ||                 ",
    "               ||                      ||                 ",
    "                ||                    ||                  ",
    "                 ||||||||          ||||                   ",
    "                        ||||||||||||                      ",
    "                                                          ",
    "                                                          ",
    "                                                          ",
    "                                                          ",
};

/* Heights as the tutorial sets them: an 8-connected flood of the same character from a seed. */
static void flood_height(nav_grid *grid, char rows[18][59], int32_t row, int32_t col, float height)
{
    char c = rows[row][col];
    int32_t stack[58 * 18][2], top = 0;
    static char seen[18][58];
    memset(seen, 0, sizeof seen);
    stack[top][0] = row;
    stack[top++][1] = col;
    seen[row][col] = 1;
    while (top) {
        top--;
        int32_t r = stack[top][0], k = stack[top][1];
        nav_grid_set_cell_height(grid, k, r, height);
        for (int32_t dr = -1; dr <= 1; dr++)
            for (int32_t dk = -1; dk <= 1; dk++) {
                int32_t nr = r + dr, nk = k + dk;
                if (nr < 0 || nk < 0 || nr >= 18 || nk >= 58 || seen[nr][nk] || rows[nr][nk] != c) continue;
                seen[nr][nk] = 1;
                stack[top][0] = nr;
                stack[top++][1] = nk;
            }
    }
}

static nav_grid *basin_grid(bool ramp)
{
    char rows[18][59];
    for (int i = 0; i < 18; i++) memcpy(rows[i], basin_rows[i], 59);
    if (ramp) rows[6][36] = '/';
    nav_grid *grid = make_grid(
        58, 18,
        &(nav_grid_desc){.max_climb = 7, .diagonal_cost = 1.4, .corner_policy = NAV_CORNER_ALWAYS_CUT});
    enum { RAMP = 2 };
    nav_grid_set_terrain_cost(grid, RAMP, 2); /* ' ' and '|' cost 1 (plain), '/' costs 2 */
    flood_height(grid, rows, 3, 25, -1);      /* the ring */
    flood_height(grid, rows, 4, 25, -10);     /* the floor inside it */
    if (ramp) {
        nav_grid_set_cell(grid, 36, 6, RAMP);
        nav_grid_set_cell_height(grid, 36, 6, -5);
    }
    assert_int_equal(nav_grid_build_reachability(grid), NAV_SUCCESS);
    return grid;
}

static bool path_enters_basin(const nav_grid *grid, const nav_path *path)
{
    for (uint32_t i = 0; i < path->count; i++)
        if (nav_grid_cell_height(grid, path->nodes[i] % 58, path->nodes[i] / 58) == -10) return true;
    return false;
}

static void test_basin(void **state)
{
    (void)state;
    nav_path path;
    nav_path_init(&path, NULL);
    nav_search_result r;
    nav_grid_query *q;

    /* As drawn: the basin is a dead end, so the path stays out of it (384 in units of 10). */
    nav_grid *grid = basin_grid(false);
    assert_cost_equal(nav_grid_cell_height(grid, 25, 3), -1, 0);
    assert_cost_equal(nav_grid_cell_height(grid, 25, 8), -10, 0);
    assert_cost_equal(nav_grid_cell_height(grid, 5, 5), 0, 0);
    assert_int_equal(nav_grid_query_create(grid, NULL, &q), NAV_SUCCESS);
    for (nav_algo algo = NAV_ALGO_ASTAR; algo <= NAV_ALGO_DIJKSTRA; algo += NAV_ALGO_DIJKSTRA) {
        assert_int_equal(run(q, grid, algo, 10, 13, 40, 1, &path, &r), NAV_SUCCESS);
        assert_cost_equal(r.cost, 38.4, 1e-9);
        assert_false(path_enters_basin(grid, &path));
    }
    /* Down into the basin works, out of it does not: a goal inside is reachable, the way back is not. */
    assert_int_equal(run(q, grid, NAV_ALGO_ASTAR, 10, 13, 25, 8, &path, &r), NAV_SUCCESS);
    assert_int_equal(run(q, grid, NAV_ALGO_ASTAR, 25, 8, 10, 13, &path, &r),
                     NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE);
    assert_true(path.count > 1); /* towards the goal, as close as the floor allows */
    /* the reachability labels must not claim "unreachable" across the one-way rim */
    assert_true(nav_grid_may_reach(grid, 10, 13, 25, 8));
    assert_false(nav_grid_reachability_exact(grid)); /* the rim is one-way */
    nav_grid_query_destroy(q);
    nav_grid_destroy(grid);

    /* With the ramp: over the ring's bottom edge, across the floor and up the ramp (368). */
    grid = basin_grid(true);
    assert_int_equal(nav_grid_query_create(grid, NULL, &q), NAV_SUCCESS);
    assert_int_equal(run(q, grid, NAV_ALGO_ASTAR, 10, 13, 40, 1, &path, &r), NAV_SUCCESS);
    assert_cost_equal(r.cost, 36.8, 1e-9);
    assert_true(path_enters_basin(grid, &path));
    bool on_ramp = false;
    for (uint32_t i = 0; i < path.count; i++) on_ramp |= path.nodes[i] == nav_grid_index(grid, 36, 6);
    assert_true(on_ramp);
    /* and now the basin can be left */
    assert_int_equal(run(q, grid, NAV_ALGO_ASTAR, 25, 8, 10, 13, &path, &r), NAV_SUCCESS);
    nav_grid_query_destroy(q);
    nav_grid_destroy(grid);
    nav_path_destroy(&path);
}

/* ---- random maps: every planner against the brute-force reference ---------------------------- */

/* The terrain of a random map. */
typedef enum terrain_kind {
    TERRAIN_MIXED,    /* costs 0.5 to 5 */
    TERRAIN_DEAR,     /* up to 60 times plain, so one move can jump f by more than the open list's
                       * ring of buckets spans (its far list then holds entries) */
    TERRAIN_ONE_COST, /* every type costs 2.5 and the diagonal varies: A* and Dijkstra count g in
                       * fixed point there */
    TERRAIN_EXTREME,  /* the ends of the cost range, NAV_COST_MIN and NAV_COST_MAX, side by side */
} terrain_kind;

static nav_grid *random_grid(unsigned seed, int32_t w, int32_t h, terrain_kind kind)
{
    srand(seed);
    nav_grid_desc d = {
        .connectivity = rand() % 3 == 0 ? NAV_CONNECT_4 : NAV_CONNECT_8,
        .corner_policy = (nav_corner_policy)(1 + rand() % 3),
        .max_climb = rand() % 2 ? 1.5f : 0.0f,
    };
    if (kind == TERRAIN_ONE_COST) d.diagonal_cost = (double[]){0, 1, 1.5, 2, 1.3}[rand() % 5]; /* 0: sqrt 2 */
    nav_grid *grid = make_grid(w, h, &d);
    const double costs[4][4] = {{1, 2.5, 5, 0.5},
                                {1, 12, 60, 0.5},
                                {2.5, 2.5, 2.5, 2.5},
                                {1, NAV_COST_MAX, NAV_COST_MAX, NAV_COST_MIN}};
    /* type 4 is a road cheaper than plain where costs differ: the heuristic must scale */
    for (uint8_t t = 1; t <= 4; t++) nav_grid_set_terrain_cost(grid, t, costs[kind][t - 1]);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            int r = rand() % 100;
            uint8_t t = r < 22 ? NAV_TERRAIN_BLOCKED : r < 60 ? 1 : r < 75 ? 2 : r < 88 ? 3 : 4;
            nav_grid_set_cell(grid, x, y, t);
            nav_grid_set_cell_height(grid, x, y, (float)(rand() % 4));
        }
    if (rand() % 2) assert_int_equal(nav_grid_build_reachability(grid), NAV_SUCCESS);
    assert_moves_match_rules(grid);
    return grid;
}

static void cross_check(terrain_kind kind)
{
    enum { W = 24, H = 20 };
    double dist[W * H];
    int32_t hops[W * H];
    nav_path path;
    nav_path_init(&path, NULL);
    int checked = 0, unreachable = 0;
    for (unsigned seed = 1; seed <= 40; seed++) {
        nav_grid *grid = random_grid(seed, W, H, kind);
        nav_grid_query *q;
        assert_int_equal(nav_grid_query_create(grid, NULL, &q), NAV_SUCCESS);
        for (int k = 0; k < 12; k++) {
            int32_t sx = rand() % W, sy = rand() % H, gx = rand() % W, gy = rand() % H;
            if (!nav_grid_passable(grid, sx, sy) || !nav_grid_passable(grid, gx, gy)) continue;
            reference_distances(grid, sx, sy, dist);
            reference_hops(grid, sx, sy, hops);
            double best = dist[gy * W + gx];
            nav_search_result r;
            for (nav_algo algo = NAV_ALGO_ASTAR; algo <= NAV_ALGO_WASTAR; algo++) {
                nav_status s = run(q, grid, algo, sx, sy, gx, gy, &path, &r);
                if (!(best < INFINITY)) {
                    assert_int_equal(s, NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE);
                    continue;
                }
                assert_int_equal(s, NAV_SUCCESS);
                /* costs within 2^-20 of the optimum (the search's resolution, see README) */
                if (algo == NAV_ALGO_ASTAR || algo == NAV_ALGO_DIJKSTRA)
                    assert_cost_equal(r.cost, best, kind == TERRAIN_EXTREME ? 0x1p-20 : 1e-9);
                if (algo == NAV_ALGO_WASTAR) {
                    assert_cost_equal(r.bound, 1.5, 0);
                    assert_true(r.cost <= 1.5 * best + 1e-9);
                }
                if (algo == NAV_ALGO_BFS) assert_int_equal(path.count - 1, hops[gy * W + gx]);
                assert_true(r.cost >= best - 1e-9);
            }
            if (best < INFINITY)
                checked++;
            else
                unreachable++;
            if (!nav_grid_may_reach(grid, sx, sy, gx, gy)) assert_false(best < INFINITY);
        }
        nav_grid_query_destroy(q);
        nav_grid_destroy(grid);
    }
    /* the maps must exercise both outcomes, or this test proves little */
    assert_true(checked > 100);
    assert_true(unreachable > 10);
    nav_path_destroy(&path);
}

static void test_random_cross_check(void **state)
{
    (void)state;
    cross_check(TERRAIN_MIXED);
}

static void test_random_cross_check_dear_terrain(void **state)
{
    (void)state;
    cross_check(TERRAIN_DEAR);
}

static void test_random_cross_check_one_cost(void **state)
{
    (void)state;
    cross_check(TERRAIN_ONE_COST);
}

static void test_random_cross_check_extreme_costs(void **state)
{
    (void)state;
    cross_check(TERRAIN_EXTREME);
}

/* Canonical pruning (search.c) on one-cost maps from open to crowded, with and without heights:
 * A* and Dijkstra find the reference's cost. A cell reached again at its best g from a direction
 * that prunes less is expanded again; the maps must make that happen, or the test proves little. */
static void test_random_canonical_pruning(void **state)
{
    (void)state;
    enum { W = 26, H = 22 };
    double dist[W * H];
    nav_path path;
    nav_path_init(&path, NULL);
    int checked = 0, expanded_twice = 0;
    for (unsigned seed = 1; seed <= 150; seed++) {
        srand(seed);
        nav_grid_desc d = {
            .connectivity = rand() % 5 == 0 ? NAV_CONNECT_4 : NAV_CONNECT_8,
            .corner_policy = (nav_corner_policy)(1 + rand() % 3),
            .max_climb = rand() % 2 ? 1.5f : 0.0f,
            .diagonal_cost = (double[]){0, 1, 1.5, 2, 1.3, 0}[rand() % 6], /* 0: sqrt 2 */
        };
        nav_grid *grid = make_grid(W, H, &d);
        bool heights = rand() % 3 == 0;
        int blocked = rand() % 45; /* percent */
        for (int32_t y = 0; y < H; y++)
            for (int32_t x = 0; x < W; x++) {
                nav_grid_set_cell(grid, x, y, rand() % 100 < blocked ? NAV_TERRAIN_BLOCKED : 1);
                if (heights) nav_grid_set_cell_height(grid, x, y, (float)(rand() % 4));
            }
        assert_moves_match_rules(grid);
        nav_grid_query *q;
        assert_int_equal(nav_grid_query_create(grid, NULL, &q), NAV_SUCCESS);
        for (int k = 0; k < 8; k++) {
            int32_t sx = rand() % W, sy = rand() % H, gx = rand() % W, gy = rand() % H;
            if (!nav_grid_passable(grid, sx, sy) || !nav_grid_passable(grid, gx, gy)) continue;
            reference_distances(grid, sx, sy, dist);
            double best = dist[gy * W + gx];
            for (nav_algo algo = NAV_ALGO_ASTAR; algo <= NAV_ALGO_DIJKSTRA; algo += NAV_ALGO_DIJKSTRA) {
                nav_search_result r;
                nav_status s = run(q, grid, algo, sx, sy, gx, gy, &path, &r);
                if (!(best < INFINITY)) {
                    assert_true(nav_has_detail(s, NAV_UNREACHABLE));
                    continue;
                }
                assert_int_equal(s, NAV_SUCCESS);
                assert_cost_equal(r.cost, best, 1e-9);
                checked++;
                uint32_t closed = 0;
                for (int32_t y = 0; y < H; y++)
                    for (int32_t x = 0; x < W; x++)
                        closed += nav_grid_query_cell(q, x, y, NULL, NULL) == NAV_CELL_CLOSED;
                if (r.expanded > closed) expanded_twice++;
            }
        }
        nav_grid_query_destroy(q);
        nav_grid_destroy(grid);
    }
    assert_true(checked > 1000);
    assert_true(expanded_twice > 10);
    nav_path_destroy(&path);
}

/* Every heuristic gives a valid path; the admissible ones give optimal costs. */
static void test_heuristics(void **state)
{
    (void)state;
    enum { W = 30, H = 30 };
    double dist[W * H];
    nav_path path;
    nav_path_init(&path, NULL);
    for (unsigned seed = 100; seed < 110; seed++) {
        nav_grid *grid = random_grid(seed, W, H, seed % 2 ? TERRAIN_ONE_COST : TERRAIN_MIXED);
        bool four = nav_grid_get_desc(grid)->connectivity == NAV_CONNECT_4;
        nav_grid_query *q;
        assert_int_equal(nav_grid_query_create(grid, NULL, &q), NAV_SUCCESS);
        for (int k = 0; k < 10; k++) {
            int32_t sx = rand() % W, sy = rand() % H, gx = rand() % W, gy = rand() % H;
            if (!nav_grid_passable(grid, sx, sy) || !nav_grid_passable(grid, gx, gy)) continue;
            reference_distances(grid, sx, sy, dist);
            for (nav_heuristic h = NAV_HEURISTIC_DEFAULT; h <= NAV_HEURISTIC_CHEBYSHEV; h++) {
                nav_search_desc d = {.heuristic = h};
                nav_search_result r;
                nav_status s = nav_grid_find_path(q, &d, sx, sy, gx, gy, &path, &r);
                if (!(dist[gy * W + gx] < INFINITY)) {
                    assert_true(nav_has_detail(s, NAV_UNREACHABLE));
                    continue;
                }
                assert_int_equal(s, NAV_SUCCESS);
                assert_int_equal(nav_grid_validate_cells(grid, &path, NULL), NAV_SUCCESS);
                bool admissible = h != NAV_HEURISTIC_MANHATTAN || four;
                if (admissible) assert_cost_equal(r.cost, dist[gy * W + gx], 1e-9);
            }
        }
        nav_grid_query_destroy(q);
        nav_grid_destroy(grid);
    }
    nav_path_destroy(&path);
}

/* ---- budgets, partial paths, bad arguments ---------------------------------------------------- */

static void test_partial_paths(void **state)
{
    (void)state;
    nav_grid *grid = make_grid(40, 20, NULL);
    for (int32_t y = 0; y < 20; y++) nav_grid_set_cell(grid, 30, y, NAV_TERRAIN_BLOCKED); /* a full wall */
    nav_grid_query *q;
    assert_int_equal(nav_grid_query_create(grid, NULL, &q), NAV_SUCCESS);
    nav_path path;
    nav_path_init(&path, NULL);
    nav_search_result r;

    /* without labels: the search floods the start's side and ends beside the wall */
    nav_status s = run(q, grid, NAV_ALGO_ASTAR, 2, 10, 35, 10, &path, &r);
    assert_int_equal(s, NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE);
    assert_int_equal(r.end_cell, nav_grid_index(grid, 29, 10));
    assert_int_equal(r.expanded, 30 * 20);
    /* with labels: O(1), the path is the start alone */
    assert_false(nav_grid_reachability_exact(grid));
    assert_int_equal(nav_grid_build_reachability(grid), NAV_SUCCESS);
    assert_true(nav_grid_reachability_exact(grid)); /* no heights: every move goes both ways */
    s = run(q, grid, NAV_ALGO_ASTAR, 2, 10, 35, 10, &path, &r);
    assert_int_equal(s, NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE);
    assert_int_equal(r.expanded, 0);
    assert_int_equal(path.count, 1);

    /* a budget: a partial path towards the goal */
    nav_search_desc budget = {.max_expanded = 5};
    s = nav_grid_find_path(q, &budget, 2, 10, 25, 10, &path, &r);
    assert_int_equal(s, NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_OUT_OF_NODES);
    assert_int_equal(r.expanded, 5);
    assert_int_equal(nav_grid_validate_cells(grid, &path, NULL), NAV_SUCCESS);
    assert_int_equal(path.nodes[path.count - 1], nav_grid_index(grid, 6, 10)); /* 4 steps east */

    /* start == goal */
    assert_int_equal(run(q, grid, NAV_ALGO_ASTAR, 3, 3, 3, 3, &path, &r), NAV_SUCCESS);
    assert_int_equal(path.count, 1);
    assert_cost_equal(r.cost, 0, 0);

    /* bad arguments */
    assert_int_equal(nav_grid_find_path(q, NULL, -1, 0, 3, 3, &path, &r), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_grid_find_path(q, NULL, 0, 0, 40, 3, &path, &r), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_grid_find_path(q, NULL, 30, 0, 3, 3, &path, &r), NAV_FAILURE | NAV_BLOCKED_ENDPOINT);
    assert_int_equal(path.count, 0);
    nav_search_desc bad_weight = {.algo = NAV_ALGO_WASTAR, .weight = 0.5};
    assert_int_equal(nav_grid_find_path(q, &bad_weight, 0, 0, 3, 3, &path, &r),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    nav_search_desc bad_algo = {.algo = (nav_algo)99};
    assert_int_equal(nav_grid_find_path(q, &bad_algo, 0, 0, 3, 3, &path, &r),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_grid_search_finish(q, &path, &r) & NAV_FAILURE, NAV_FAILURE);

    /* an edit drops the labels, and with them the proof */
    nav_grid_set_cell(grid, 0, 0, NAV_TERRAIN_BLOCKED);
    assert_false(nav_grid_reachability_exact(grid));

    nav_path_destroy(&path);
    nav_grid_query_destroy(q);
    nav_grid_destroy(grid);
}

/* Sliced searches give what whole ones give, and between slices the listed open cells are exactly
 * the cells in state OPEN, each once: every planner, on mixed, dear (where the open list's far
 * heap takes entries) and one-cost terrain (fixed-point g). Many generations of searches on one
 * query object do not disturb each other. */
static void stepwise_matches(terrain_kind kind)
{
    nav_grid *grid = random_grid(7, 40, 40, kind);
    nav_grid_query *q;
    assert_int_equal(nav_grid_query_create(grid, NULL, &q), NAV_SUCCESS);
    nav_path whole, sliced;
    nav_path_init(&whole, NULL);
    nav_path_init(&sliced, NULL);
    srand(99);
    for (int k = 0; k < 50; k++) {
        int32_t sx = rand() % 40, sy = rand() % 40, gx = rand() % 40, gy = rand() % 40;
        if (!nav_grid_passable(grid, sx, sy) || !nav_grid_passable(grid, gx, gy)) continue;
        nav_search_result a, b;
        const nav_search_desc desc = {.algo = (nav_algo[]){NAV_ALGO_ASTAR, NAV_ALGO_DIJKSTRA, NAV_ALGO_GREEDY,
                                                           NAV_ALGO_WASTAR, NAV_ALGO_BFS}[k % 5]};
        nav_status s1 = nav_grid_find_path(q, &desc, sx, sy, gx, gy, &whole, &a);
        nav_status s2 = nav_grid_search_begin(q, &desc, sx, sy, gx, gy);
        int slices = 0;
        while (nav_in_progress(s2)) {
            s2 = nav_grid_search_step(q, 3);
            slices++;
            /* the open list as listed is exactly the set of cells in state OPEN */
            uint32_t open = nav_grid_query_open_count(q), cells[40 * 40];
            assert_int_equal(nav_grid_query_open_cells(q, cells, 40 * 40), open);
            static char listed[40 * 40];
            memset(listed, 0, sizeof listed);
            for (uint32_t i = 0; i < open; i++) {
                assert_int_equal(nav_grid_query_cell(q, cells[i] % 40, cells[i] / 40, NULL, NULL),
                                 NAV_CELL_OPEN);
                assert_int_equal(listed[cells[i]]++, 0);
            }
            uint32_t in_state_open = 0;
            for (int32_t c = 0; c < 40 * 40; c++)
                in_state_open += nav_grid_query_cell(q, c % 40, c / 40, NULL, NULL) == NAV_CELL_OPEN;
            assert_int_equal(in_state_open, open);
        }
        assert_int_equal(nav_grid_search_finish(q, &sliced, &b), s1);
        assert_int_equal(s1, s2);
        assert_int_equal(whole.count, sliced.count);
        assert_memory_equal(whole.nodes, sliced.nodes, whole.count * sizeof(uint32_t));
        assert_cost_equal(a.cost, b.cost, 0);
        assert_int_equal(a.expanded, b.expanded);
        if (a.expanded > 3) assert_true(slices > 1);
    }
    nav_path_destroy(&whole);
    nav_path_destroy(&sliced);
    nav_grid_query_destroy(q);
    nav_grid_destroy(grid);
}

static void test_stepwise_matches(void **state)
{
    (void)state;
    stepwise_matches(TERRAIN_MIXED);
}

static void test_stepwise_matches_dear_terrain(void **state)
{
    (void)state;
    stepwise_matches(TERRAIN_DEAR);
}

static void test_stepwise_matches_one_cost(void **state)
{
    (void)state;
    stepwise_matches(TERRAIN_ONE_COST);
}

/* Ties break the same way every time: equal f goes to the larger g, then the lower index. */
static void test_deterministic_ties(void **state)
{
    (void)state;
    nav_grid *grid = make_grid(9, 9, &(nav_grid_desc){.connectivity = NAV_CONNECT_4});
    nav_grid_query *q;
    assert_int_equal(nav_grid_query_create(grid, NULL, &q), NAV_SUCCESS);
    nav_path path;
    nav_path_init(&path, NULL);
    nav_search_result r;
    assert_int_equal(run(q, grid, NAV_ALGO_ASTAR, 0, 0, 8, 8, &path, &r), NAV_SUCCESS);
    /* Larger g first makes the search dive: it expands only cells on one optimal path. */
    assert_int_equal(r.expanded, 17);
    assert_int_equal(path.count, 17);
    uint32_t first[17];
    memcpy(first, path.nodes, sizeof first);
    for (int k = 0; k < 3; k++) {
        assert_int_equal(run(q, grid, NAV_ALGO_ASTAR, 0, 0, 8, 8, &path, &r), NAV_SUCCESS);
        assert_memory_equal(first, path.nodes, sizeof first);
    }
    nav_path_destroy(&path);
    nav_grid_query_destroy(q);
    nav_grid_destroy(grid);
}

/* ---- smoothing -------------------------------------------------------------------------------- */

static void test_smoothing(void **state)
{
    (void)state;
    nav_path cells, smooth;
    nav_path_init(&cells, NULL);
    nav_path_init(&smooth, NULL);
    nav_search_result r;

    /* open ground: one straight segment */
    nav_grid *grid = make_grid(20, 20, NULL);
    nav_grid_query *q;
    assert_int_equal(nav_grid_query_create(grid, NULL, &q), NAV_SUCCESS);
    assert_int_equal(run(q, grid, NAV_ALGO_ASTAR, 1, 1, 18, 6, &cells, &r), NAV_SUCCESS);
    assert_int_equal(nav_grid_smooth_path(grid, &cells, &smooth), NAV_SUCCESS);
    assert_int_equal(smooth.count, 2);
    assert_cost_equal(smooth.cost, sqrt(17.0 * 17 + 5 * 5), 1e-9);
    assert_cost_equal(nav_path_length(&smooth), sqrt(17.0 * 17 + 5 * 5), 1e-4);
    assert_cost_equal(smooth.points[1].x, 18.5, 1e-6); /* world: the centre of cell (18, 6) */
    assert_cost_equal(smooth.points[1].z, 6.5, 1e-6);

    /* a wall in between: the path bends at its end and stays clear of it */
    for (int32_t y = 0; y < 15; y++) nav_grid_set_cell(grid, 10, y, NAV_TERRAIN_BLOCKED);
    assert_int_equal(run(q, grid, NAV_ALGO_ASTAR, 1, 1, 18, 1, &cells, &r), NAV_SUCCESS);
    assert_int_equal(nav_grid_smooth_path(grid, &cells, &smooth), NAV_SUCCESS);
    assert_true(smooth.count >= 3);
    assert_true(smooth.cost <= r.cost + 1e-9);
    assert_int_equal(nav_grid_validate_segments(grid, &smooth, NULL), NAV_SUCCESS);
    double straight;
    assert_false(nav_grid_segment_cost(grid, 1, 1, 18, 1, &straight));
    nav_grid_query_destroy(q);
    nav_grid_destroy(grid);

    /* the basin: smoothing must not cut down into it */
    grid = basin_grid(false);
    assert_int_equal(nav_grid_query_create(grid, NULL, &q), NAV_SUCCESS);
    assert_int_equal(run(q, grid, NAV_ALGO_ASTAR, 10, 13, 40, 1, &cells, &r), NAV_SUCCESS);
    assert_int_equal(nav_grid_smooth_path(grid, &cells, &smooth), NAV_SUCCESS);
    assert_int_equal(nav_grid_validate_segments(grid, &smooth, NULL), NAV_SUCCESS);
    assert_true(smooth.cost <= r.cost + 1e-9);
    assert_true(smooth.count < cells.count);
    nav_grid_query_destroy(q);
    nav_grid_destroy(grid);

    /* random terrain: never dearer, always valid */
    for (unsigned seed = 200; seed < 220; seed++) {
        grid = random_grid(seed, 30, 30, TERRAIN_MIXED);
        assert_int_equal(nav_grid_query_create(grid, NULL, &q), NAV_SUCCESS);
        for (int k = 0; k < 10; k++) {
            int32_t sx = rand() % 30, sy = rand() % 30, gx = rand() % 30, gy = rand() % 30;
            if (!nav_grid_passable(grid, sx, sy) || !nav_grid_passable(grid, gx, gy)) continue;
            if (run(q, grid, NAV_ALGO_ASTAR, sx, sy, gx, gy, &cells, &r) != NAV_SUCCESS) continue;
            assert_int_equal(nav_grid_smooth_path(grid, &cells, &smooth), NAV_SUCCESS);
            double cost;
            assert_int_equal(nav_grid_validate_segments(grid, &smooth, &cost), NAV_SUCCESS);
            assert_true(smooth.cost <= r.cost + 1e-6);
            assert_int_equal(smooth.nodes[0], cells.nodes[0]);
            assert_int_equal(smooth.nodes[smooth.count - 1], cells.nodes[cells.count - 1]);
        }
        nav_grid_query_destroy(q);
        nav_grid_destroy(grid);
    }
    nav_path_destroy(&cells);
    nav_path_destroy(&smooth);
}

/* ---- flow fields ------------------------------------------------------------------------------ */

static void test_flow_field(void **state)
{
    (void)state;
    enum { W = 25, H = 25 };
    double dist[W * H];
    for (unsigned seed = 300; seed < 310; seed++) {
        nav_grid *grid = random_grid(seed, W, H, TERRAIN_MIXED);
        nav_grid_query *q;
        assert_int_equal(nav_grid_query_create(grid, NULL, &q), NAV_SUCCESS);
        nav_flow_field *flow;
        assert_int_equal(nav_flow_field_create(grid, NULL, &flow), NAV_SUCCESS);
        int32_t goal[2];
        do {
            goal[0] = rand() % W;
            goal[1] = rand() % H;
        } while (!nav_grid_passable(grid, goal[0], goal[1]));
        assert_int_equal(nav_flow_field_compute(flow, goal, 1), NAV_SUCCESS);
        for (int32_t y = 0; y < H; y++)
            for (int32_t x = 0; x < W; x++) {
                if (!nav_grid_passable(grid, x, y)) {
                    assert_false(nav_flow_field_distance(flow, x, y) < INFINITY);
                    continue;
                }
                /* the field's distance is the optimal cost from the cell to the goal */
                reference_distances(grid, x, y, dist);
                double d = nav_flow_field_distance(flow, x, y);
                double expect = dist[goal[1] * W + goal[0]];
                if (!(expect < INFINITY)) {
                    assert_false(d < INFINITY);
                    continue;
                }
                assert_cost_equal(d, expect, 1e-9);
                /* following the arrows walks a path of exactly that cost */
                int32_t cx = x, cy = y, steps = 0;
                double walked = 0;
                int32_t nx, ny;
                while (nav_flow_field_next(flow, cx, cy, &nx, &ny)) {
                    int32_t dir = -1;
                    for (int k = 0; k < 8; k++) {
                        int32_t dx, dy;
                        nav_dir_offset((nav_dir)k, &dx, &dy);
                        if (cx + dx == nx && cy + dy == ny) dir = k;
                    }
                    assert_true(dir >= 0);
                    walked += nav_grid_move_cost(grid, cx, cy, (nav_dir)dir);
                    cx = nx;
                    cy = ny;
                    assert_true(++steps <= W * H);
                }
                assert_int_equal(cx, goal[0]);
                assert_int_equal(cy, goal[1]);
                assert_cost_equal(walked, expect, 1e-9);
            }
        /* a blocked goal is an error */
        int32_t blocked[2] = {-1, 0};
        assert_int_equal(nav_flow_field_compute(flow, blocked, 1), NAV_FAILURE | NAV_INVALID_PARAM);
        nav_flow_field_destroy(flow);
        nav_grid_query_destroy(q);
        nav_grid_destroy(grid);
    }
}

/* Two goals: each cell heads for the nearer one (the tower-defence case with two exits). */
static void test_flow_field_two_goals(void **state)
{
    (void)state;
    nav_grid *grid = make_grid(21, 1, NULL);
    nav_flow_field *flow;
    assert_int_equal(nav_flow_field_create(grid, NULL, &flow), NAV_SUCCESS);
    int32_t goals[4] = {0, 0, 20, 0};
    assert_int_equal(nav_flow_field_compute(flow, goals, 2), NAV_SUCCESS);
    int32_t nx, ny;
    assert_true(nav_flow_field_next(flow, 5, 0, &nx, &ny));
    assert_int_equal(nx, 4);
    assert_true(nav_flow_field_next(flow, 15, 0, &nx, &ny));
    assert_int_equal(nx, 16);
    assert_cost_equal(nav_flow_field_distance(flow, 10, 0), 10, 0);
    assert_false(nav_flow_field_next(flow, 0, 0, &nx, &ny));
    nav_flow_field_destroy(flow);
    nav_grid_destroy(grid);
}

/* ---- threads ---------------------------------------------------------------------------------- */

/* One grid, shared read-only; each thread searches through its own query object. Their answers
 * must equal those of one thread alone, bit for bit (costs and cells). */
enum { THREAD_QUERIES = 300 };

typedef struct thread_job {
    const nav_grid *grid;
    const int32_t (*problems)[4];
    double costs[THREAD_QUERIES];
    uint32_t lengths[THREAD_QUERIES];
    uint64_t cell_sums[THREAD_QUERIES];
} thread_job;

static void *thread_run(void *arg)
{
    thread_job *job = arg;
    nav_grid_query *q;
    if (nav_failed(nav_grid_query_create(job->grid, NULL, &q))) return NULL;
    nav_path path;
    nav_path_init(&path, NULL);
    for (int i = 0; i < THREAD_QUERIES; i++) {
        const int32_t *p = job->problems[i];
        nav_search_result r = {0};
        nav_grid_find_path(q, NULL, p[0], p[1], p[2], p[3], &path, &r);
        job->costs[i] = r.cost;
        job->lengths[i] = path.count;
        uint64_t sum = 0;
        for (uint32_t k = 0; k < path.count; k++) sum = sum * 31 + path.nodes[k];
        job->cell_sums[i] = sum;
    }
    nav_path_destroy(&path);
    nav_grid_query_destroy(q);
    return job;
}

static void test_threads_share_a_grid(void **state)
{
    (void)state;
    nav_grid *grid = random_grid(77, 120, 120, TERRAIN_MIXED);
    assert_int_equal(nav_grid_build_reachability(grid), NAV_SUCCESS);
    static int32_t problems[THREAD_QUERIES][4];
    for (int i = 0; i < THREAD_QUERIES; i++) {
        do {
            for (int k = 0; k < 4; k++) problems[i][k] = rand() % 120;
        } while (!nav_grid_passable(grid, problems[i][0], problems[i][1]) ||
                 !nav_grid_passable(grid, problems[i][2], problems[i][3]));
    }
    static thread_job alone, jobs[2];
    alone = (thread_job){.grid = grid, .problems = (const int32_t(*)[4])problems};
    assert_non_null(thread_run(&alone));
    pthread_t threads[2];
    for (int t = 0; t < 2; t++) {
        jobs[t] = (thread_job){.grid = grid, .problems = (const int32_t(*)[4])problems};
        assert_int_equal(pthread_create(&threads[t], NULL, thread_run, &jobs[t]), 0);
    }
    for (int t = 0; t < 2; t++) {
        void *done = NULL;
        assert_int_equal(pthread_join(threads[t], &done), 0);
        assert_non_null(done);
        assert_memory_equal(jobs[t].costs, alone.costs, sizeof alone.costs);
        assert_memory_equal(jobs[t].lengths, alone.lengths, sizeof alone.lengths);
        assert_memory_equal(jobs[t].cell_sums, alone.cell_sums, sizeof alone.cell_sums);
    }
    nav_grid_destroy(grid);
}

/* ---- memory ----------------------------------------------------------------------------------- */

static void test_allocation_failures(void **state)
{
    (void)state;
    for (long n = 1;; n++) {
        test_allocator t;
        test_allocator_init(&t, n);
        nav_grid *grid = NULL;
        nav_grid_query *q = NULL;
        nav_flow_field *flow = NULL;
        nav_status s =
            nav_grid_create(&(nav_grid_desc){.width = 50, .height = 50, .allocator = &t.hooks}, &grid);
        if (nav_succeeded(s)) s = nav_grid_set_cell_height(grid, 3, 3, 2.0f);
        if (nav_succeeded(s)) s = nav_grid_build_reachability(grid);
        if (nav_succeeded(s))
            s = nav_grid_query_create(grid, &(nav_grid_query_desc){.allocator = &t.hooks}, &q);
        if (nav_succeeded(s)) s = nav_flow_field_create(grid, &t.hooks, &flow);
        nav_path path;
        nav_path_init(&path, &t.hooks);
        if (nav_succeeded(s)) s = nav_grid_find_path(q, NULL, 0, 0, 49, 49, &path, NULL);
        nav_path_destroy(&path);
        nav_flow_field_destroy(flow);
        nav_grid_query_destroy(q);
        nav_grid_destroy(grid);
        assert_int_equal(t.live, 0);
        if (nav_succeeded(s)) break;
        assert_true(nav_has_detail(s, NAV_OUT_OF_MEMORY));
        assert_true(n < 100);
    }
}

static void test_grid_limits(void **state)
{
    (void)state;
    nav_grid *grid = (nav_grid *)1;
    assert_int_equal(nav_grid_create(&(nav_grid_desc){.width = 0, .height = 5}, &grid),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    assert_null(grid);
    assert_int_equal(nav_grid_create(&(nav_grid_desc){.width = NAV_GRID_MAX_SIDE + 1, .height = 5}, &grid),
                     NAV_FAILURE | NAV_TOO_LARGE);
    assert_int_equal(nav_grid_create(&(nav_grid_desc){.width = 5, .height = 5, .diagonal_cost = 3}, &grid),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_grid_create(&(nav_grid_desc){.width = 5, .height = 5, .max_climb = -1}, &grid),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    /* 16384 x 16384 is supported (256 MiB of cells) */
    assert_int_equal(nav_grid_create(&(nav_grid_desc){.width = 16384, .height = 16384}, &grid), NAV_SUCCESS);
    assert_int_equal(nav_grid_set_cell(grid, 16383, 16383, NAV_TERRAIN_BLOCKED), NAV_SUCCESS);
    assert_int_equal(nav_grid_moves(grid, 16382, 16382) & (1u << NAV_DIR_SE), 0);
    assert_int_equal(nav_grid_set_cell(grid, 16384, 0, 1), NAV_FAILURE | NAV_INVALID_PARAM);
    nav_grid_destroy(grid);

    grid = make_grid(3, 3, NULL);
    assert_int_equal(nav_grid_set_terrain_cost(grid, 0, 1), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_grid_set_terrain_cost(grid, 2, -1), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_grid_set_terrain_cost(grid, 2, NAN), NAV_FAILURE | NAV_INVALID_PARAM);
    /* one documented range (issue 10, item 6): 1e308 overflowed path costs, 5e-324 broke them */
    assert_int_equal(nav_grid_set_terrain_cost(grid, 2, 1e308), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_grid_set_terrain_cost(grid, 2, 5e-324), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_grid_set_terrain_cost(grid, 2, nextafter(NAV_COST_MAX, INFINITY)),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_grid_set_terrain_cost(grid, 2, nextafter(NAV_COST_MIN, 0)),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_grid_set_terrain_cost(grid, 2, NAV_COST_MAX), NAV_SUCCESS);
    assert_int_equal(nav_grid_set_terrain_cost(grid, 2, NAV_COST_MIN), NAV_SUCCESS);
    assert_int_equal(nav_grid_set_terrain_cost(grid, 2, NAV_COST_BLOCKED), NAV_SUCCESS);
    assert_int_equal(nav_grid_set_terrain_cost(NULL, 2, 1), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_grid_set_cell_height(grid, 0, 0, NAN), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_grid_cell(grid, -1, 0), NAV_TERRAIN_BLOCKED);
    nav_grid_destroy(grid);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tutorial_4x4),
        cmocka_unit_test(test_forest_detour),
        cmocka_unit_test(test_basin),
        cmocka_unit_test(test_random_cross_check),
        cmocka_unit_test(test_random_cross_check_dear_terrain),
        cmocka_unit_test(test_random_cross_check_one_cost),
        cmocka_unit_test(test_random_cross_check_extreme_costs),
        cmocka_unit_test(test_random_canonical_pruning),
        cmocka_unit_test(test_heuristics),
        cmocka_unit_test(test_partial_paths),
        cmocka_unit_test(test_stepwise_matches),
        cmocka_unit_test(test_stepwise_matches_dear_terrain),
        cmocka_unit_test(test_stepwise_matches_one_cost),
        cmocka_unit_test(test_deterministic_ties),
        cmocka_unit_test(test_smoothing),
        cmocka_unit_test(test_flow_field),
        cmocka_unit_test(test_flow_field_two_goals),
        cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_grid_limits),
        cmocka_unit_test(test_threads_share_a_grid),
    };
    return cmocka_run_group_tests_name("search", tests, NULL, NULL);
}
