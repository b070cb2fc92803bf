/* Moving AI benchmarks: every problem of a map's scenario file solved by each planner and checked
 * against the optimal lengths in the file: on generated maps (mapgen.h: lengths from the tests' own
 * Dijkstra, not libnav's), and with --shared on the real Moving AI maps (truth nobody here wrote);
 * and the seed tutorials' basin loaded from its ASCII file. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mapgen.h"
#include "support.h"

#include "nav/grid.h"
#include "nav/scen.h"
#include "nav/search.h"
#include "nav/smooth.h"

typedef struct tally {
    uint32_t problems, solved, unreachable, wrong, mismatches, invalid;
    double worst_ratio;
} tally;

/* A map, its scenario file, and what the file holds. */
typedef struct bench {
    const char *map, *scen;
    uint32_t problems, unreachable;
} bench;

static tally run_scenarios(const bench *b, nav_search_desc search, bool smooth)
{
    nav_grid *grid = NULL;
    assert_int_equal(nav_grid_load_map_file(b->map, NULL, &grid), NAV_SUCCESS);
    nav_scen *scen = NULL;
    assert_int_equal(nav_scen_load_file(b->scen, NULL, NULL, &scen), NAV_SUCCESS);
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

/* A* and Dijkstra are exact: every length within 0.005 of the file's; the unreachable problems
 * (brc000d has 10) are reported unreachable. */
static void exact_planners(const bench *benches, size_t count)
{
    for (size_t m = 0; m < count; m++) {
        for (nav_algo algo = NAV_ALGO_ASTAR; algo <= NAV_ALGO_DIJKSTRA; algo += NAV_ALGO_DIJKSTRA) {
            tally t = run_scenarios(&benches[m], (nav_search_desc){.algo = algo}, false);
            assert_int_equal(t.problems, benches[m].problems);
            assert_int_equal(t.wrong, 0);
            assert_int_equal(t.invalid, 0);
            assert_int_equal(t.mismatches, 0);
            assert_int_equal(t.unreachable, benches[m].unreachable);
            assert_true(t.worst_ratio < 1 + 1e-5);
        }
    }
}

/* Weighted A* stays within its bound, greedy and BFS return valid paths, and none of them
 * disagrees with the file on reachability. */
static void inexact_planners(const bench *benches, size_t count)
{
    for (size_t m = 0; m < count; m++) {
        tally t =
            run_scenarios(&benches[m], (nav_search_desc){.algo = NAV_ALGO_WASTAR, .weight = 1.5}, false);
        assert_int_equal(t.wrong, 0);
        assert_int_equal(t.invalid, 0);
        assert_true(t.worst_ratio <= 1.5 + 1e-9);
        t = run_scenarios(&benches[m], (nav_search_desc){.algo = NAV_ALGO_GREEDY}, false);
        assert_int_equal(t.wrong, 0);
        assert_int_equal(t.invalid, 0);
        assert_true(t.worst_ratio >= 1);
        t = run_scenarios(&benches[m], (nav_search_desc){.algo = NAV_ALGO_BFS}, false);
        assert_int_equal(t.wrong, 0);
        assert_int_equal(t.invalid, 0);
    }
}

/* Smoothed A* paths: valid any-angle segments, never longer than the grid optimum. */
static void smoothed_paths(const bench *benches, size_t count)
{
    for (size_t m = 0; m < count; m++) {
        tally t = run_scenarios(&benches[m], (nav_search_desc){0}, true);
        assert_int_equal(t.wrong, 0);
        assert_int_equal(t.invalid, 0);
        assert_true(t.worst_ratio < 1 + 1e-5);
    }
}

/* The generated stand-ins of arena, den312d and brc000d (mapgen.h). */
static void generated(bench benches[3])
{
    const int which[3] = {TEST_BENCH_ARENA, TEST_BENCH_DEN, TEST_BENCH_BRC};
    for (int m = 0; m < 3; m++)
        benches[m] = (bench){test_bench_file(which[m], false), test_bench_file(which[m], true),
                             test_bench_maps[which[m]].problems, test_bench_maps[which[m]].unreachable};
}

/* The real maps (the shared data). */
static const bench real[3] = {
    {NAV_SHARED_DIR "/maps/dao/arena.map", NAV_SHARED_DIR "/maps/dao/arena.map.scen", 160, 0},
    {NAV_SHARED_DIR "/maps/dao/den312d.map", NAV_SHARED_DIR "/maps/dao/den312d.map.scen", 320, 0},
    {NAV_SHARED_DIR "/maps/dao/brc000d.map", NAV_SHARED_DIR "/maps/dao/brc000d.map.scen", 850, 10},
};

static void test_exact_planners(void **state)
{
    (void)state;
    bench benches[3];
    generated(benches);
    exact_planners(benches, 3);
}

static void test_inexact_planners(void **state)
{
    (void)state;
    bench benches[3];
    generated(benches);
    inexact_planners(benches, 3);
}

static void test_smoothed_paths(void **state)
{
    (void)state;
    bench benches[3];
    generated(benches);
    smoothed_paths(benches, 3);
}

static void test_real_exact_planners(void **state)
{
    (void)state;
    exact_planners(real, 3);
}

static void test_real_inexact_planners(void **state)
{
    (void)state;
    inexact_planners(real, 3);
}

static void test_real_smoothed_paths(void **state)
{
    (void)state;
    smoothed_paths(real, 3);
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

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_planners),
        cmocka_unit_test(test_inexact_planners),
        cmocka_unit_test(test_smoothed_paths),
        cmocka_unit_test(test_basin_files),
    };
    const struct CMUnitTest shared_tests[] = {
        cmocka_unit_test(test_real_exact_planners),
        cmocka_unit_test(test_real_inexact_planners),
        cmocka_unit_test(test_real_smoothed_paths),
    };
    static const char *const needs[] = {"maps/dao/arena.map",
                                        "maps/dao/arena.map.scen",
                                        "maps/dao/den312d.map",
                                        "maps/dao/den312d.map.scen",
                                        "maps/dao/brc000d.map",
                                        "maps/dao/brc000d.map.scen",
                                        NULL};
    return TEST_RUN_SUITE("scenarios", tests, shared_tests, needs);
}
