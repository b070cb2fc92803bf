#include "support.h"

#include "mapgen.h"
#include "nav/grid.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void test_assert_cost_equal(double a, double b, double eps, const char *file, int line)
{
    bool same = isinf(a) || isinf(b) ? a == b : fabs(a - b) <= eps; /* NaN: false */
    if (same) return;
    print_error("%.17g != %.17g (within %g)\n", a, b, eps);
    _fail(file, line);
}

static void *counting_alloc(size_t size, void *user)
{
    test_allocator *t = user;
    t->calls++;
    if (t->fail_at > 0 && t->calls >= t->fail_at) return NULL;
    void *p = malloc(size);
    if (p) t->live++;
    return p;
}

static void *counting_realloc(void *ptr, size_t old_size, size_t new_size, void *user)
{
    (void)old_size;
    test_allocator *t = user;
    t->calls++;
    if (t->fail_at > 0 && t->calls >= t->fail_at) return NULL;
    void *p = realloc(ptr, new_size);
    if (p && !ptr) t->live++;
    return p;
}

static void counting_free(void *ptr, void *user)
{
    test_allocator *t = user;
    if (ptr) t->live--;
    free(ptr);
}

void test_allocator_init(test_allocator *t, long fail_at)
{
    *t = (test_allocator){.fail_at = fail_at};
    t->hooks = (nav_allocator){counting_alloc, counting_realloc, counting_free, t};
}

const char *test_data(const char *name)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", NAV_TEST_DATA, name);
    return path;
}

const char *test_shared(const char *relative)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", NAV_SHARED_DIR, relative);
    return path;
}

/* The scratch folder and the files written there, removed at exit (test code: one process, one
 * thread writes them). */
static char scratch_dir[4096];
static char **scratch_files;
static size_t scratch_count;

static void remove_scratch(void)
{
    for (size_t i = 0; i < scratch_count; i++) {
        remove(scratch_files[i]);
        free(scratch_files[i]);
    }
    free(scratch_files);
    scratch_files = NULL, scratch_count = 0;
    if (scratch_dir[0]) rmdir(scratch_dir);
}

const char *test_scratch_file(const char *name, const void *bytes, size_t size)
{
    if (!scratch_dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(scratch_dir, sizeof scratch_dir, "%s/nav_tests_XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(scratch_dir)) fail_msg("cannot make a scratch folder %s", scratch_dir);
        atexit(remove_scratch);
    }
    char path[4096 + 256];
    snprintf(path, sizeof path, "%s/%s", scratch_dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) fail_msg("cannot write %s", path);
    assert_int_equal(fwrite(bytes, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
    for (size_t i = 0; i < scratch_count; i++)
        if (strcmp(scratch_files[i], path) == 0) return scratch_files[i];
    char **grown = realloc(scratch_files, (scratch_count + 1) * sizeof *grown);
    assert_non_null(grown);
    scratch_files = grown;
    scratch_files[scratch_count] = strdup(path);
    assert_non_null(scratch_files[scratch_count]);
    return scratch_files[scratch_count++];
}

const char *test_bench_file(int which, bool scen)
{
    static const char *paths[TEST_BENCH_COUNT][2];
    assert_true(which >= 0 && which < TEST_BENCH_COUNT);
    if (!paths[which][0]) {
        const test_map_desc *desc = &test_bench_maps[which];
        test_map map;
        test_map_generate(&map, desc);
        char name[256];
        size_t size;
        char *text = test_map_text(&map, &size);
        snprintf(name, sizeof name, "%s.map", desc->name);
        paths[which][0] = test_scratch_file(name, text, size);
        free(text);
        text = test_scen_text(&map, desc, &size);
        snprintf(name, sizeof name, "%s.map.scen", desc->name);
        paths[which][1] = test_scratch_file(name, text, size);
        free(text);
        test_map_destroy(&map);
    }
    return paths[which][scen];
}

int test_run_suite(int argc, char **argv, const char *name, const struct CMUnitTest *tests, size_t count,
                   const struct CMUnitTest *shared_tests, size_t shared_count, const char *const *needs)
{
    bool shared = argc > 1 && strcmp(argv[1], "--shared") == 0;
    if (argc > 2 || (argc == 2 && !shared)) {
        fprintf(stderr, "usage: %s [--shared]\n", argv[0]);
        return 2;
    }
    if (!shared) return _cmocka_run_group_tests(name, tests, count, NULL, NULL);
    for (size_t i = 0; needs && needs[i]; i++) {
        struct stat st;
        const char *path = test_shared(needs[i]);
        if (stat(path, &st) != 0) {
            printf("skipped: %s not found (set NAV_SHARED_DIR to the shared benchmark data)\n", path);
            return TEST_SKIPPED;
        }
    }
    char group[256];
    snprintf(group, sizeof group, "%s, on the shared data in %s", name, NAV_SHARED_DIR);
    return _cmocka_run_group_tests(group, shared_tests, shared_count, NULL, NULL);
}

char *test_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    if (size) *size = (size_t)n;
    return text;
}

static void collect(nav_log_level level, const char *message, void *user)
{
    (void)level;
    test_log *t = user;
    snprintf(t->last, sizeof t->last, "%s", message);
    t->count++;
}

void test_log_init(test_log *t)
{
    *t = (test_log){0};
    t->hooks = (nav_log){collect, t};
}

/* ---- loaders ---------------------------------------------------------------------------------- */

/* A failure must say why: exactly one of the loaders' documented detail bits. */
void test_assert_clean_outcome(nav_status s, const void *object)
{
    if (nav_succeeded(s)) {
        assert_non_null(object);
        return;
    }
    assert_null(object);
    nav_status detail = s & NAV_DETAIL_MASK;
    assert_int_equal(s & ~NAV_DETAIL_MASK, NAV_FAILURE);
    assert_true(detail == NAV_IO_ERROR || detail == NAV_PARSE_ERROR || detail == NAV_TOO_LARGE ||
                detail == NAV_OUT_OF_MEMORY || detail == NAV_INVALID_PARAM);
}

/* Loads every prefix of text (every length for small texts, about `samples` lengths for big
 * ones): each must load or fail cleanly. Returns how many loaded. */
int test_load_prefixes(text_loader load, const char *text, size_t size, size_t samples)
{
    size_t step = samples >= size ? 1 : size / samples + 1;
    int loaded = 0;
    for (size_t n = 0;; n += step) {
        if (n > size) n = size;
        /* A copy of exactly n bytes, so that ASan sees any read past the end. */
        char *prefix = malloc(n ? n : 1);
        assert_non_null(prefix);
        memcpy(prefix, text, n);
        nav_grid *grid = NULL;
        nav_status s = load(prefix, n, "cut", NULL, &grid);
        test_assert_clean_outcome(s, grid);
        loaded += nav_succeeded(s);
        nav_grid_destroy(grid);
        free(prefix);
        if (n == size) break;
    }
    return loaded;
}

/* Flips each byte in turn (every stride-th): each result must load or fail cleanly. */
void test_load_damaged(text_loader load, const char *text, size_t size, size_t stride)
{
    char *copy = malloc(size);
    assert_non_null(copy);
    static const char replacements[] = {'\0', '\n', '@', '9', '-', ' ', '\xff'};
    for (size_t i = 0; i < size; i += stride) {
        for (size_t r = 0; r < sizeof replacements; r++) {
            memcpy(copy, text, size);
            copy[i] = replacements[r];
            nav_grid *grid = NULL;
            nav_status s = load(copy, size, "damaged", NULL, &grid);
            test_assert_clean_outcome(s, grid);
            nav_grid_destroy(grid);
        }
    }
    free(copy);
}

nav_grid *test_grid_from_rows(const char *const *rows, int32_t h, const nav_grid_desc *options)
{
    nav_grid_desc d = options ? *options : (nav_grid_desc){0};
    d.width = (int32_t)strlen(rows[0]);
    d.height = h;
    nav_grid *grid = NULL;
    assert_int_equal(nav_grid_create(&d, &grid), NAV_SUCCESS);
    for (int32_t y = 0; y < h; y++) {
        assert_int_equal((int32_t)strlen(rows[y]), d.width);
        for (int32_t x = 0; x < d.width; x++) {
            char c = rows[y][x];
            if (c == '#')
                nav_grid_set_cell(grid, x, y, NAV_TERRAIN_BLOCKED);
            else if (c >= '2' && c <= '9')
                nav_grid_set_cell(grid, x, y, (uint8_t)(c - '0'));
        }
    }
    return grid;
}
