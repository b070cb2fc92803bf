/* Moving AI .scen files: whole benchmark files (generated ones, and the real ones of the shared data
 * with --shared), both format versions, every documented error, truncations and allocation failure
 * at every allocation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mapgen.h"
#include "support.h"

#include "nav/scen.h"

/* ---- Scenarios --------------------------------------------------------------------------------- */

/* The real arena's and benchmarks' files (the shared data): their first and last problems. */
static void test_scen_arena(void **state)
{
    (void)state;
    test_log log;
    test_log_init(&log);
    nav_scen *scen = NULL;
    assert_int_equal(nav_scen_load_file(test_shared("maps/dao/arena.map.scen"), NULL, &log.hooks, &scen),
                     NAV_SUCCESS);
    assert_int_equal(log.count, 0);
    assert_int_equal(scen->count, 160);
    assert_string_equal(scen->map_name, "maps/dao/arena.map");
    const nav_scen_problem *p = &scen->problems[0];
    assert_int_equal(p->bucket, 0);
    assert_int_equal(p->map_width, 49);
    assert_int_equal(p->map_height, 49);
    assert_int_equal(p->start_x, 1);
    assert_int_equal(p->start_y, 11);
    assert_int_equal(p->goal_x, 1);
    assert_int_equal(p->goal_y, 12);
    assert_true(p->optimal_length == 1.0);
    assert_int_equal(p->line, 2);
    p = &scen->problems[2];
    assert_true(p->optimal_length == 3.41421);
    p = &scen->problems[159]; /* 15	maps/dao/arena.map	49	49	1	7	47
                                 46	62.1543 */
    assert_int_equal(p->bucket, 15);
    assert_int_equal(p->start_x, 1);
    assert_int_equal(p->start_y, 7);
    assert_int_equal(p->goal_x, 47);
    assert_int_equal(p->goal_y, 46);
    assert_true(p->optimal_length == 62.1543);
    assert_int_equal(p->line, 161);
    nav_scen_destroy(scen);
}

static void test_scen_benchmarks(void **state)
{
    (void)state;
    nav_scen *scen = NULL;
    assert_int_equal(nav_scen_load_file(test_shared("maps/dao/brc000d.map.scen"), NULL, NULL, &scen),
                     NAV_SUCCESS);
    assert_int_equal(scen->count, 850);
    int unreachable = 0, zero_at_goal = 0;
    for (uint32_t i = 0; i < scen->count; i++) {
        const nav_scen_problem *p = &scen->problems[i];
        bool same = p->start_x == p->goal_x && p->start_y == p->goal_y;
        if (p->optimal_length == 0) unreachable += !same, zero_at_goal += same;
        assert_int_equal(p->map_width, 257);
        assert_int_equal(p->map_height, 261);
    }
    assert_int_equal(unreachable, 10);
    assert_int_equal(zero_at_goal, 0);
    const nav_scen_problem *p = &scen->problems[0]; /* 0 ... 10 34 88 209 0 */
    assert_int_equal(p->start_x, 10);
    assert_int_equal(p->start_y, 34);
    assert_int_equal(p->goal_x, 88);
    assert_int_equal(p->goal_y, 209);
    assert_true(p->optimal_length == 0.0);
    assert_true(scen->problems[849].optimal_length == 337.789);
    assert_int_equal(scen->problems[849].bucket, 84);
    nav_scen_destroy(scen);

    assert_int_equal(nav_scen_load_file(test_shared("maps/dao/den312d.map.scen"), NULL, NULL, &scen),
                     NAV_SUCCESS);
    assert_int_equal(scen->count, 320);
    assert_string_equal(scen->map_name, "maps/dao/den312d.map");
    assert_int_equal(scen->problems[0].start_x, 10);
    assert_true(scen->problems[0].optimal_length == 3.41421);
    assert_true(scen->problems[319].optimal_length == 125.971);
    nav_scen_destroy(scen);
}

/* A generated scenario (mapgen.h) loads problem for problem: every field as the text says it (read
 * here with sscanf), its unreachable problems (length 0, start != goal) as many as were made. */
static void check_generated_scen(int which)
{
    const test_map_desc *desc = &test_bench_maps[which];
    test_log log;
    test_log_init(&log);
    nav_scen *scen = NULL;
    assert_int_equal(nav_scen_load_file(test_bench_file(which, true), NULL, &log.hooks, &scen), NAV_SUCCESS);
    assert_int_equal(log.count, 0);
    assert_int_equal(scen->count, desc->problems);
    char map_name[256];
    snprintf(map_name, sizeof map_name, "maps/generated/%s.map", desc->name);
    assert_string_equal(scen->map_name, map_name);
    size_t size;
    char *text = test_read_file(test_bench_file(which, true), &size);
    char *line = strchr(text, '\n') + 1; /* after "version 1" */
    uint32_t unreachable = 0;
    for (uint32_t i = 0; i < scen->count; i++) {
        const nav_scen_problem *p = &scen->problems[i];
        unsigned bucket;
        int w, h, sx, sy, gx, gy;
        double length;
        char name[256];
        assert_int_equal(sscanf(line, "%u %255s %d %d %d %d %d %d %lf", &bucket, name, &w, &h, &sx, &sy, &gx,
                                &gy, &length),
                         9);
        assert_int_equal(p->bucket, bucket);
        assert_int_equal(p->map_width, w);
        assert_int_equal(p->map_height, h);
        assert_int_equal(p->start_x, sx);
        assert_int_equal(p->start_y, sy);
        assert_int_equal(p->goal_x, gx);
        assert_int_equal(p->goal_y, gy);
        assert_true(p->optimal_length == length);
        assert_int_equal(p->line, i + 2);
        unreachable += p->optimal_length == 0 && (sx != gx || sy != gy);
        line = strchr(line, '\n') + 1;
    }
    assert_int_equal(unreachable, desc->unreachable);
    free(text);
    nav_scen_destroy(scen);
}

static void test_scen_generated(void **state)
{
    (void)state;
    for (int which = 0; which < TEST_BENCH_COUNT; which++) check_generated_scen(which);
}

static nav_scen *expect_scen(const char *text)
{
    test_log log;
    test_log_init(&log);
    nav_scen *scen = NULL;
    nav_status s = nav_scen_load(text, strlen(text), "t.scen", NULL, &log.hooks, &scen);
    if (s != NAV_SUCCESS) fail_msg("input:\n%s\nstatus %#x, message '%s'", text, s, log.last);
    return scen;
}

static void test_scen_formats(void **state)
{
    (void)state;
    /* Spaces, CRLF, version 1.0, blank lines, a map path with spaces. */
    nav_scen *scen = expect_scen("version 1.0\r\n"
                                 "3 my maps/a b.map 4 5 0 0 3 4 4.41421356\r\n"
                                 "\r\n"
                                 "  7\tx.map\t\t4 5 1 1 1 1 0  \r\n"
                                 "\r\n\r\n");
    assert_int_equal(scen->count, 2);
    assert_string_equal(scen->map_name, "my maps/a b.map");
    assert_int_equal(scen->problems[0].bucket, 3);
    assert_int_equal(scen->problems[0].map_height, 5);
    assert_int_equal(scen->problems[0].goal_y, 4);
    assert_true(scen->problems[0].optimal_length == 4.41421356);
    assert_int_equal(scen->problems[1].bucket, 7);
    assert_int_equal(scen->problems[1].line, 4);
    assert_true(scen->problems[1].optimal_length == 0.0);
    nav_scen_destroy(scen);

    scen = expect_scen("version 2\n");
    assert_int_equal(scen->count, 0);
    assert_string_equal(scen->map_name, "");
    nav_scen_destroy(scen);
    scen = expect_scen("version 1\n0 m 1 1 0 0 0 0 1e1\n0 m 1 1 0 0 0 0 -0");
    assert_true(scen->problems[0].optimal_length == 10.0);
    assert_true(scen->problems[1].optimal_length == 0.0);
    assert_false(signbit(scen->problems[1].optimal_length));
    nav_scen_destroy(scen);
    nav_scen_destroy(NULL);
}

#define SCEN_V "version 1\n"

static void test_scen_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        nav_status detail;
        const char *message;
    } cases[] = {
        {"", NAV_PARSE_ERROR, "t.scen:1: empty file, expected 'version 1'"},
        {"0\tm.map\t4\t4\t0\t0\t1\t1\t1.4\n", NAV_PARSE_ERROR,
         "t.scen:1: expected 'version 1', found '0 m.map 4 4 0 0 1 1 1.4'"},
        {"version\n", NAV_PARSE_ERROR, "t.scen:1: expected 'version 1', found 'version'"},
        {"version 1 2\n", NAV_PARSE_ERROR, "t.scen:1: expected 'version 1', found 'version 1 2'"},
        {"\nversion 1\n", NAV_PARSE_ERROR, "t.scen:1: expected 'version 1', found ''"},
        {SCEN_V "0 m.map 4 4 0 0 1 1\n", NAV_PARSE_ERROR,
         "t.scen:2: expected 9 fields (bucket, map, width, height, start x, start y, goal x, goal y, optimal "
         "length), found 8"},
        {SCEN_V "0 m.map 4 4 -1 0 1 1 1\n", NAV_PARSE_ERROR, "t.scen:2: start x is negative: '-1'"},
        {SCEN_V "0 m.map 4 4 0 0 1 y 1\n", NAV_PARSE_ERROR,
         "t.scen:2: goal y is not a non-negative integer: 'y'"},
        {SCEN_V "0 m.map 4 4 0 0 1 1.5 1\n", NAV_PARSE_ERROR,
         "t.scen:2: goal y is not a non-negative integer: '1.5'"},
        {SCEN_V "-1 m.map 4 4 0 0 1 1 1\n", NAV_PARSE_ERROR, "t.scen:2: bucket is negative: '-1'"},
        {SCEN_V "0 m.map 4 4 4 0 1 1 1\n", NAV_PARSE_ERROR,
         "t.scen:2: start (4, 0) is outside the 4 x 4 map"},
        {SCEN_V "0 m.map 4 4 0 0 1 4 1\n", NAV_PARSE_ERROR, "t.scen:2: goal (1, 4) is outside the 4 x 4 map"},
        {SCEN_V "0 m.map 0 4 0 0 1 1 1\n", NAV_PARSE_ERROR, "t.scen:2: map size 0 x 4 is empty"},
        {SCEN_V "0 m.map 40000 4 0 0 1 1 1\n", NAV_TOO_LARGE,
         "t.scen:2: map width 40000 is over the limit of 32768"},
        {SCEN_V "0 m.map 4 99999999999 0 0 1 1 1\n", NAV_TOO_LARGE,
         "t.scen:2: map height 99999999999 is over the limit of 32768"},
        {SCEN_V "0 m.map 4 4 99999999999 0 1 1 1\n", NAV_PARSE_ERROR,
         "t.scen:2: start x 99999999999 is over the limit of 2147483647"},
        {SCEN_V "0 m.map 4 4 0 0 1 1 -1\n", NAV_PARSE_ERROR,
         "t.scen:2: optimal length must be a finite number >= 0, not '-1'"},
        {SCEN_V "0 m.map 4 4 0 0 1 1 inf\n", NAV_PARSE_ERROR,
         "t.scen:2: optimal length must be a finite number >= 0, not 'inf'"},
        {SCEN_V "0 m.map 4 4 0 0 1 1 nan\n", NAV_PARSE_ERROR,
         "t.scen:2: optimal length must be a finite number >= 0, not 'nan'"},
        {SCEN_V "0 m.map 4 4 0 0 1 1 1e999\n", NAV_PARSE_ERROR,
         "t.scen:2: optimal length must be a finite number >= 0, not '1e999'"},
        {SCEN_V "0 m.map 4 4 0 0 1 1 1.4x\n", NAV_PARSE_ERROR,
         "t.scen:2: optimal length must be a finite number >= 0, not '1.4x'"},
        {SCEN_V "0 m.map 4 4 0 0 1 1 1\n\n0 m.map 4 4 0 0 1 1\n", NAV_PARSE_ERROR,
         "t.scen:4: expected 9 fields (bucket, map, width, height, start x, start y, goal x, goal y, optimal "
         "length), found 8"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        test_log log;
        test_log_init(&log);
        nav_scen *scen = (nav_scen *)1;
        nav_status s = nav_scen_load(cases[i].text, strlen(cases[i].text), "t.scen", NULL, &log.hooks, &scen);
        if (s != (NAV_FAILURE | cases[i].detail) || strcmp(log.last, cases[i].message) != 0)
            fail_msg("input:\n%s\nstatus %#x, message:\n  '%s'\nexpected:\n  '%s'", cases[i].text, s,
                     log.last, cases[i].message);
        assert_null(scen);
    }

    static const struct {
        const char *file, *message;
    } files[] = {
        {"bad/no_version.scen",
         "no_version.scen:1: expected 'version 1', found '0 maps/x.map 4 4 0 0 1 1 1.41421'"},
        {"bad/negative.scen", "negative.scen:3: start y is negative: '-2'"},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        test_log log;
        test_log_init(&log);
        nav_scen *scen = (nav_scen *)1;
        FAILS_WITH(nav_scen_load_file(test_data(files[i].file), NULL, &log.hooks, &scen), NAV_PARSE_ERROR);
        assert_string_equal(log.last, files[i].message);
        assert_null(scen);
    }
    nav_scen *scen = (nav_scen *)1;
    FAILS_WITH(nav_scen_load_file(test_data("none.scen"), NULL, NULL, &scen), NAV_IO_ERROR);
    assert_null(scen);
    FAILS_WITH(nav_scen_load_file(NULL, NULL, NULL, &scen), NAV_INVALID_PARAM);
    FAILS_WITH(nav_scen_load(NULL, 4, NULL, NULL, NULL, &scen), NAV_INVALID_PARAM);
    FAILS_WITH(nav_scen_load("version 1\n", 10, NULL, NULL, NULL, NULL), NAV_INVALID_PARAM);
}

/* Every prefix of a scenario file of 160 problems loads or fails cleanly; cut at a line end, or
 * inside the optimal length's digits (still a number), it loads. */
static void check_truncations(const char *path)
{
    size_t size;
    char *text = test_read_file(path, &size);
    int loaded = 0;
    for (size_t n = 0; n <= size; n++) {
        char *prefix = malloc(n ? n : 1);
        assert_non_null(prefix);
        memcpy(prefix, text, n);
        nav_scen *scen = NULL;
        nav_status s = nav_scen_load(prefix, n, "cut", NULL, NULL, &scen);
        test_assert_clean_outcome(s, scen);
        if (nav_succeeded(s)) {
            loaded++;
            assert_true(scen->count <= 160);
        }
        nav_scen_destroy(scen);
        free(prefix);
    }
    assert_true(loaded > 160);
    free(text);
}

/* Every allocation that fails gives NAV_OUT_OF_MEMORY and leaks nothing: from memory (a file of 160
 * problems) and through the file reader (any file). */
static void check_out_of_memory(const char *path_160, const char *path)
{
    size_t size;
    char *text = test_read_file(path_160, &size);
    for (long n = 1;; n++) {
        test_allocator alloc;
        test_allocator_init(&alloc, n);
        nav_scen *scen = NULL;
        nav_status s = nav_scen_load(text, size, "oom", &alloc.hooks, NULL, &scen);
        if (nav_succeeded(s)) {
            /* The scen, problems grown 64 -> 128 -> 256, and the map name. */
            assert_int_equal(n - 1, 5);
            assert_int_equal(alloc.live, 3);
            nav_scen_destroy(scen);
            assert_int_equal(alloc.live, 0);
            break;
        }
        FAILS_WITH(s, NAV_OUT_OF_MEMORY);
        assert_null(scen);
        assert_int_equal(alloc.live, 0);
    }
    free(text);
    for (long n = 1;; n++) {
        test_allocator alloc;
        test_allocator_init(&alloc, n);
        nav_scen *scen = NULL;
        nav_status s = nav_scen_load_file(path, &alloc.hooks, NULL, &scen);
        assert_int_equal(alloc.live, nav_succeeded(s) ? 3 : 0);
        nav_scen_destroy(scen);
        if (nav_succeeded(s)) break;
        FAILS_WITH(s, NAV_OUT_OF_MEMORY);
        assert_true(n < 100);
    }
}

static void test_scen_truncated(void **state)
{
    (void)state;
    check_truncations(test_bench_file(TEST_BENCH_ARENA, true));
}

static void test_scen_out_of_memory(void **state)
{
    (void)state;
    check_out_of_memory(test_bench_file(TEST_BENCH_ARENA, true), test_bench_file(TEST_BENCH_DEN, true));
}

/* The same on the real files (the shared data). */
static void test_scen_real_truncated(void **state)
{
    (void)state;
    check_truncations(test_shared("maps/dao/arena.map.scen"));
    check_out_of_memory(test_shared("maps/dao/arena.map.scen"), test_shared("maps/dao/den312d.map.scen"));
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scen_generated),     cmocka_unit_test(test_scen_formats),
        cmocka_unit_test(test_scen_errors),        cmocka_unit_test(test_scen_truncated),
        cmocka_unit_test(test_scen_out_of_memory),
    };
    const struct CMUnitTest shared_tests[] = {
        cmocka_unit_test(test_scen_arena),
        cmocka_unit_test(test_scen_benchmarks),
        cmocka_unit_test(test_scen_real_truncated),
    };
    static const char *const needs[] = {"maps/dao/arena.map.scen", "maps/dao/den312d.map.scen",
                                        "maps/dao/brc000d.map.scen", NULL};
    return TEST_RUN_SUITE("scen", tests, shared_tests, needs);
}
