/* Helpers shared by the test suites (not part of libnav). */
#ifndef NAV_TEST_SUPPORT_H
#define NAV_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "nav/core.h"
#include "nav/grid.h"

/* a == b within eps (absolute), as doubles; an infinity equals only itself and NaN nothing.
 * Use this, never cmocka's assert_float_equal: that one compares floats, relatively, and passes
 * INFINITY or NaN against any number. */
#define assert_cost_equal(a, b, eps)                                                                         \
    test_assert_cost_equal((double)(a), (double)(b), (double)(eps), __FILE__, __LINE__)
void test_assert_cost_equal(double a, double b, double eps, const char *file, int line);

/* An allocator that counts live blocks and fails the Nth allocation on purpose (Lua's ltests.c
 * trick): fail_at = 0 never fails; fail_at = n fails the nth call and every later one. */
typedef struct test_allocator {
    long calls;
    long fail_at;
    long live;
    nav_allocator hooks;
} test_allocator;

void test_allocator_init(test_allocator *t, long fail_at);

/* ---- data ---- */

/* Full path of a file in tests/data, the project's own fixtures (a static buffer, valid until the
 * next call). */
const char *test_data(const char *name);

/* Full path of a file of the shared benchmark data, which is not part of the project (the Moving
 * AI maps under maps/SET/NAME.map(.scen), level meshes under meshes/): NAV_SHARED_DIR, a CMake
 * cache variable (default ../shared beside the source tree). Only a suite's shared cases (see
 * TEST_RUN_SUITE) read it. A static buffer, valid until the next call. */
const char *test_shared(const char *relative);

/* Writes size bytes to a file of that name in this process's scratch folder (made on first use
 * under TMPDIR or /tmp, removed with its files when the process exits) and returns its path, valid
 * until then. The same name again overwrites the file. */
const char *test_scratch_file(const char *name, const void *bytes, size_t size);

/* The generated stand-in of a benchmark map (mapgen.h's test_bench_maps[which]) as files in the
 * scratch folder: NAME.map, and NAME.map.scen beside it. Returns the path of the .map (scen false)
 * or of the .map.scen (scen true), made on first use. */
const char *test_bench_file(int which, bool scen);

/* A suite whose cases need the shared data keeps them apart: `SUITE` runs tests, `SUITE --shared`
 * runs shared_tests after checking that every file of needs (paths under NAV_SHARED_DIR, a
 * NULL-terminated list) is there; when one is not, it prints "skipped: PATH not found (set
 * NAV_SHARED_DIR)" and exits TEST_SKIPPED. tests/CMakeLists.txt registers SUITE_shared for each
 * suite that calls TEST_RUN_SUITE, with that exit code as ctest's SKIP_RETURN_CODE, so a run without
 * the shared data lists those tests as skipped (not passed), and a run with it runs them all. */
#define TEST_SKIPPED 77
int test_run_suite(int argc, char **argv, const char *name, const struct CMUnitTest *tests, size_t count,
                   const struct CMUnitTest *shared_tests, size_t shared_count, const char *const *needs);
#define TEST_RUN_SUITE(name, tests, shared_tests, needs)                                                     \
    test_run_suite(argc, argv, name, tests, sizeof tests / sizeof tests[0], shared_tests,                    \
                   sizeof shared_tests / sizeof shared_tests[0], needs)

/* Reads a whole file (malloc'd, NUL-terminated); fails the test when it cannot. */
char *test_read_file(const char *path, size_t *size);

/* A nav_log that collects the last message (for asserting on error texts). */
typedef struct test_log {
    char last[512];
    int count;
    nav_log hooks;
} test_log;

void test_log_init(test_log *t);

/* A grid from h rows of equal length: '#' blocked, '.' plain, a digit 2..9 that terrain type (the
 * caller sets its cost). options [opt] as nav_grid_create's (width and height are the rows'). */
nav_grid *test_grid_from_rows(const char *const *rows, int32_t h, const nav_grid_desc *options);

/* ---- loaders ---- */

#define FAILS_WITH(status, detail) assert_int_equal((status), NAV_FAILURE | (detail))

/* A loader of a text (or bytes) of size bytes into a grid, as nav_grid_load_map_text. */
typedef nav_status (*text_loader)(const char *text, size_t size, const char *name,
                                  const nav_grid_desc *options, nav_grid **out);

/* A loader's outcome must be clean: success with an object, or failure with no object and
 * exactly one of the loaders' documented detail bits. */
void test_assert_clean_outcome(nav_status s, const void *object);
/* Loads every prefix of text (every length for small texts, about `samples` lengths for big
 * ones): each must load or fail cleanly. Returns how many loaded. */
int test_load_prefixes(text_loader load, const char *text, size_t size, size_t samples);
/* Flips each byte in turn (every stride-th): each result must load or fail cleanly. */
void test_load_damaged(text_loader load, const char *text, size_t size, size_t stride);

#endif
