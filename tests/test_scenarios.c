/* Moving AI benchmarks: every problem of the maps in tests/data, solved by each planner and
 * checked against the optimal lengths in the files (truth nobody here wrote), and the seed
 * tutorials' basin loaded from its ASCII file. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "support.h"

#include "nav/grid.h"
#include "nav/scen.h"
#include "nav/search.h"
#include "nav/smooth.h"

typedef struct tally {
    uint32_t problems, solved, unreachable, wrong, mismatches, invalid;
    double worst_ratio;
} tally;

static tally run_scenarios(const char *name, nav_search_desc search, bool smooth)
{
    char map_name[256], scen_name[256];
    snprintf(map_name, sizeof map_name, "%s.map", name);
    snprintf(scen_name, sizeof scen_name, "%s.map.scen", name);
    nav_grid *grid = NULL;
    assert_int_equal(nav_grid_load_map_file(test_data(map_name), NULL, &grid), NAV_SUCCESS);
    nav_scen *scen = NULL;
    assert_int_equal(nav_scen_load_file(test_data(scen_name), NULL, NULL, &scen), NAV_SUCCESS);
    nav_grid_query *q;
    assert_int_equal(nav_grid_query_create(grid, NULL, &q), NAV_SUCCESS);
    nav_path path, smoothed;
    nav_path_init(&path, NULL);
    nav_path_init(&smoothed, NULL);
    tally t = {0};
    for (uint32_t i = 0; i < scen->count; i++) {
        const nav_scen_problem *p = &scen->problems[i];
        t.problems++;
        nav_search_result r;
        nav_status s =
            nav_grid_find_path(q, &search, p->start_x, p->start_y, p->goal_x, p->goal_y, &path, &r);
        assert_false(nav_failed(s));
        bool expect_unreachable =
            p->optimal_length == 0 && (p->start_x != p->goal_x || p->start_y != p->goal_y);
        if (nav_has_detail(s, NAV_PARTIAL_RESULT)) {
            t.unreachable++;
            t.wrong += !expect_unreachable;
            continue;
        }
        t.solved++;
        if (expect_unreachable) {
            t.wrong++;
            continue;
        }
        double cost = 0;
        bool valid = nav_succeeded(nav_grid_validate_cells(grid, &path, &cost)) &&
                     path.nodes[0] == nav_grid_index(grid, p->start_x, p->start_y) &&
                     path.nodes[path.count - 1] == nav_grid_index(grid, p->goal_x, p->goal_y);
        if (smooth && valid) {
            valid = nav_succeeded(nav_grid_smooth_path(grid, &path, &smoothed)) &&
                    nav_succeeded(nav_grid_validate_segments(grid, &smoothed, NULL)) &&
                    smoothed.cost <= cost + 1e-9;
            cost = smoothed.cost;
        }
        if (!valid) {
            t.invalid++;
            continue;
        }
        if (fabs(cost - p->optimal_length) > 0.005 + 1e-6 * p->optimal_length) t.mismatches++;
        if (p->optimal_length > 0 && cost / p->optimal_length > t.worst_ratio)
            t.worst_ratio = cost / p->optimal_length;
    }
    nav_path_destroy(&smoothed);
    nav_path_destroy(&path);
    nav_grid_query_destroy(q);
    nav_scen_destroy(scen);
    nav_grid_destroy(grid);
    return t;
}

static const char *const maps[] = {"arena", "den312d", "brc000d"};
static const uint32_t problem_counts[] = {160, 320, 850};

/* A* and Dijkstra are exact: every length within 0.005 of the file's; brc000d's 10 unreachable
 * problems are reported unreachable. */
static void test_exact_planners(void **state)
{
    (void)state;
    for (size_t m = 0; m < 3; m++) {
        for (nav_algo algo = NAV_ALGO_ASTAR; algo <= NAV_ALGO_DIJKSTRA; algo += NAV_ALGO_DIJKSTRA) {
            tally t = run_scenarios(maps[m], (nav_search_desc){.algo = algo}, false);
            assert_int_equal(t.problems, problem_counts[m]);
            assert_int_equal(t.wrong, 0);
            assert_int_equal(t.invalid, 0);
            assert_int_equal(t.mismatches, 0);
            assert_int_equal(t.unreachable, m == 2 ? 10 : 0);
            assert_true(t.worst_ratio < 1 + 1e-5);
        }
    }
}

/* Weighted A* stays within its bound, greedy and BFS return valid paths, and none of them
 * disagrees with the file on reachability. */
static void test_inexact_planners(void **state)
{
    (void)state;
    for (size_t m = 0; m < 3; m++) {
        tally t = run_scenarios(maps[m], (nav_search_desc){.algo = NAV_ALGO_WASTAR, .weight = 1.5}, false);
        assert_int_equal(t.wrong, 0);
        assert_int_equal(t.invalid, 0);
        assert_true(t.worst_ratio <= 1.5 + 1e-9);
        t = run_scenarios(maps[m], (nav_search_desc){.algo = NAV_ALGO_GREEDY}, false);
        assert_int_equal(t.wrong, 0);
        assert_int_equal(t.invalid, 0);
        assert_true(t.worst_ratio >= 1);
        t = run_scenarios(maps[m], (nav_search_desc){.algo = NAV_ALGO_BFS}, false);
        assert_int_equal(t.wrong, 0);
        assert_int_equal(t.invalid, 0);
    }
}

/* Smoothed A* paths: valid any-angle segments, never longer than the grid optimum. */
static void test_smoothed_paths(void **state)
{
    (void)state;
    for (size_t m = 0; m < 3; m++) {
        tally t = run_scenarios(maps[m], (nav_search_desc){0}, true);
        assert_int_equal(t.wrong, 0);
        assert_int_equal(t.invalid, 0);
        assert_true(t.worst_ratio < 1 + 1e-5);
    }
}

/* The basin of seed tutorial 002 from its ASCII file: 384 around the rim, 368 through the ramp. */
static void test_basin_files(void **state)
{
    (void)state;
    const char *files[] = {"basin.txt", "basin_ramp.txt"};
    const double costs[] = {38.4, 36.8};
    for (int k = 0; k < 2; k++) {
        nav_grid *grid = NULL;
        assert_int_equal(nav_grid_load_ascii_file(test_data(files[k]), NULL, &grid), NAV_SUCCESS);
        nav_grid_query *q;
        assert_int_equal(nav_grid_query_create(grid, NULL, &q), NAV_SUCCESS);
        nav_path path;
        nav_path_init(&path, NULL);
        nav_search_result r;
        assert_int_equal(nav_grid_find_path(q, NULL, 10, 13, 40, 1, &path, &r), NAV_SUCCESS);
        assert_cost_equal(r.cost, costs[k], 1e-9);
        nav_path_destroy(&path);
        nav_grid_query_destroy(q);
        nav_grid_destroy(grid);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_planners),
        cmocka_unit_test(test_inexact_planners),
        cmocka_unit_test(test_smoothed_paths),
        cmocka_unit_test(test_basin_files),
    };
    return cmocka_run_group_tests_name("scenarios", tests, NULL, NULL);
}
