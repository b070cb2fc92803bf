/* Core: status strings, version, heap, path buffers, work on threads. */
#include <math.h>
#include <stdatomic.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "support.h"

#include "nav/heap.h"
#include "nav/path.h"
#include "parallel.h"
#include "wide.h"

static void test_version(void **state)
{
    (void)state;
    assert_int_equal(nav_version(), NAV_VERSION_NUMBER);
    char expect[32];
    snprintf(expect, sizeof expect, "%d.%d.%d", NAV_VERSION_MAJOR, NAV_VERSION_MINOR, NAV_VERSION_PATCH);
    assert_string_equal(nav_version_str(), expect);
}

static void test_status(void **state)
{
    (void)state;
    nav_status s = NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_OUT_OF_NODES;
    assert_true(nav_succeeded(s));
    assert_false(nav_failed(s));
    assert_true(nav_has_detail(s, NAV_OUT_OF_NODES));
    assert_string_equal(nav_status_str(s), "node budget exhausted");
    assert_string_equal(nav_status_str(NAV_SUCCESS), "success");
    assert_string_equal(nav_status_str(NAV_FAILURE | NAV_PARSE_ERROR), "parse error");
    char buf[128];
    size_t need = nav_status_format(s, buf, sizeof buf);
    assert_string_equal(buf, "success: node budget exhausted, partial result");
    assert_int_equal(need, strlen(buf));
    nav_status_format(s, buf, 8);
    assert_string_equal(buf, "success");
}

/* Pushes random keys, lowers some, and checks the pops come out in (key, tie, id) order. */
static void test_heap_order(void **state)
{
    (void)state;
    enum { N = 2000 };
    static uint64_t key[N];
    nav_heap heap;
    assert_true(nav_succeeded(nav_heap_init(&heap, NULL, N, N)));
    srand(7);
    for (uint32_t i = 0; i < N; i++) {
        key[i] = (uint64_t)(rand() % 100) + 10; /* many equal keys: exercises the tie rules */
        assert_true(nav_succeeded(nav_heap_push(&heap, key[i], i % 7, i)));
    }
    for (uint32_t i = 0; i < N; i += 3) {
        key[i] -= 10;
        nav_heap_decrease(&heap, i, key[i], i % 7);
    }
    nav_heap_decrease(&heap, 1, key[1] + 50, 0); /* a higher key is ignored */
    nav_heap_entry prev = nav_heap_pop(&heap);
    assert_true(prev.key == key[nav_heap_entry_id(prev)]);
    for (uint32_t n = 1; n < N; n++) {
        nav_heap_entry e = nav_heap_pop(&heap);
        uint32_t id = nav_heap_entry_id(e), prev_id = nav_heap_entry_id(prev);
        assert_true(e.key == key[id]);
        bool ordered =
            prev.key < e.key ||
            (prev.key == e.key && (prev_id % 7 < id % 7 || (prev_id % 7 == id % 7 && prev_id < id)));
        assert_true(ordered);
        prev = e;
    }
    assert_int_equal(heap.count, 0);
    nav_heap_destroy(&heap);
}

/* The exact key keeps the order of non-negative doubles, including tiny and huge ones. */
static void test_heap_exact_key(void **state)
{
    (void)state;
    double values[] = {0.0, 1e-300, 1e-9, 0.5, 1.0, 1.0000000000000002, M_SQRT2, 1e9, INFINITY};
    for (size_t i = 1; i < sizeof values / sizeof values[0]; i++)
        assert_true(nav_heap_key_exact(values[i - 1]) < nav_heap_key_exact(values[i]));
    assert_true(nav_heap_key_exact(-0.0) == nav_heap_key_exact(0.0));
}

static void test_heap_full(void **state)
{
    (void)state;
    nav_heap heap;
    assert_true(nav_succeeded(nav_heap_init(&heap, NULL, 2, 0)));
    assert_true(nav_succeeded(nav_heap_push(&heap, 2, 0, 0)));
    assert_true(nav_succeeded(nav_heap_push(&heap, 1, 0, 1)));
    assert_int_equal(nav_heap_push(&heap, 0, 0, 2), NAV_FAILURE | NAV_BUFFER_TOO_SMALL);
    assert_int_equal(nav_heap_entry_id(nav_heap_pop(&heap)), 1);
    nav_heap_destroy(&heap);

    test_allocator t;
    test_allocator_init(&t, 1);
    assert_int_equal(nav_heap_init(&heap, &t.hooks, 10, 10), NAV_FAILURE | NAV_OUT_OF_MEMORY);
    assert_int_equal(t.live, 0);
}

static void test_path_buffer(void **state)
{
    (void)state;
    test_allocator t;
    test_allocator_init(&t, 0);
    nav_path path;
    nav_path_init(&path, &t.hooks);
    for (uint32_t i = 0; i < 100; i++)
        assert_true(nav_succeeded(nav_path_push(&path, nav_vec3_make((float)i, 0, 0), i)));
    assert_int_equal(path.count, 100);
    assert_cost_equal(nav_path_length(&path), 99.0, 1e-9);
    nav_path_reverse(&path);
    assert_int_equal(path.nodes[0], 99);
    assert_int_equal(path.nodes[99], 0);
    nav_path_reverse_from(&path, 90); /* the last ten back in order: ..., 10, 0, 1, ..., 9 */
    assert_int_equal(path.nodes[89], 10);
    for (uint32_t i = 90; i < 100; i++) assert_int_equal(path.nodes[i], i - 90);
    assert_true(path.points[95].x == 5);
    nav_path_reverse_from(&path, 100); /* nothing from the end on */
    nav_path_reverse_from(&path, 200);
    assert_int_equal(path.nodes[99], 9);
    nav_path_reverse_from(&path, 90);
    nav_path copy;
    nav_path_init(&copy, &t.hooks);
    assert_true(nav_succeeded(nav_path_copy(&copy, &path)));
    assert_memory_equal(copy.nodes, path.nodes, 100 * sizeof(uint32_t));
    nav_path_destroy(&copy);
    nav_path_destroy(&path);
    assert_int_equal(t.live, 0);

    /* growth failure: a clear status, the old contents intact, nothing leaked */
    test_allocator_init(&t, 3);
    nav_path_init(&path, &t.hooks);
    nav_status s = NAV_SUCCESS;
    uint32_t pushed = 0;
    while (nav_succeeded(s = nav_path_push(&path, nav_vec3_make(0, 0, 0), pushed))) pushed++;
    assert_int_equal(s, NAV_FAILURE | NAV_OUT_OF_MEMORY);
    assert_int_equal(path.count, pushed);
    assert_int_equal(path.nodes[pushed - 1], pushed - 1);
    nav_path_destroy(&path);
    assert_int_equal(t.live, 0);
}

/* ---- Work on threads (nav/src/parallel.c) ------------------------------------------------------ */

enum { MAX_ITEMS = 64 };

/* What a run did: each item's runs, scratch made and released, and scratch never in two threads'
 * hands at once. */
typedef struct work_check {
    atomic_uint ran[MAX_ITEMS];
    atomic_uint inits, finis, shared;
    uint32_t fail_init; /* the init call that fails, from 1 (0: none) */
    uint32_t fail_item; /* the item whose run fails (MAX_ITEMS: none) */
    uint32_t cancel_at; /* progress cancels at this many items done (0: never) */
} work_check;

static bool check_init(void *ctx, void **scratch)
{
    work_check *c = ctx;
    uint32_t n = atomic_fetch_add(&c->inits, 1) + 1;
    if (n == c->fail_init) return false;
    atomic_uint *in_use = malloc(sizeof *in_use);
    atomic_init(in_use, 0);
    *scratch = in_use;
    return true;
}

static void check_fini(void *ctx, void *scratch)
{
    work_check *c = ctx;
    atomic_fetch_add(&c->finis, 1);
    free(scratch);
}

static bool check_run(void *ctx, void *scratch, uint32_t item)
{
    work_check *c = ctx;
    atomic_uint *in_use = scratch;
    if (!in_use) { /* a thread with no scratch: one the run had no place for */
        atomic_fetch_add(&c->shared, 1);
        return true;
    }
    if (atomic_exchange(in_use, 1) != 0) atomic_fetch_add(&c->shared, 1);
    volatile uint32_t spin = 0;
    for (uint32_t k = 0; k < 2000 * (item % 3); k++) spin += k; /* items of unequal length */
    atomic_fetch_add(&c->ran[item], 1);
    atomic_store(in_use, 0);
    return item != c->fail_item;
}

static bool check_progress(const char *stage, uint64_t done, uint64_t total, void *user)
{
    (void)stage, (void)total;
    const work_check *c = user;
    return c->cancel_at == 0 || done < c->cancel_at;
}

/* Runs `count` items on the pool (null: the calling thread) and checks that each ran once, with
 * scratch of its own thread. */
static void run_and_check(nav__pool *pool, uint32_t count)
{
    work_check c = {.fail_item = MAX_ITEMS};
    nav__work w = {.count = count, .init = check_init, .run = check_run, .fini = check_fini, .ctx = &c};
    assert_int_equal(nav__pool_run(pool, &w), NAV_SUCCESS);
    for (uint32_t i = 0; i < MAX_ITEMS; i++) assert_int_equal(atomic_load(&c.ran[i]), i < count ? 1 : 0);
    assert_int_equal(atomic_load(&c.shared), 0);
    assert_true(atomic_load(&c.inits) >= 1);
    assert_int_equal(atomic_load(&c.finis), atomic_load(&c.inits));
}

/* A pool kept for many runs: each item of each run once, whatever the count (none, fewer than the
 * threads, many), on the pool's threads and without one; its threads spinning between runs or
 * asleep; runs far apart (spinning helpers asleep by then) as well as back to back. */
static void test_pool_runs(void **state)
{
    (void)state;
    for (int spin = 0; spin < 2; spin++)
        for (uint32_t threads = 1; threads <= 4; threads++) {
            nav__pool pool;
            nav__pool_start_exact(&pool, threads, spin);
            assert_int_equal(pool.helpers, threads - 1);
            for (uint32_t r = 0; r < 300; r++) run_and_check(&pool, r % (MAX_ITEMS + 1));
            for (int r = 0; r < 3; r++) {
                struct timespec pause = {0, (long)(3 * NAV__POOL_SPIN_MS * 1e6)};
                nanosleep(&pause, NULL);
                run_and_check(&pool, MAX_ITEMS);
            }
            nav__pool_stop(&pool);
        }
    run_and_check(NULL, 7);
    work_check c = {.fail_item = MAX_ITEMS};
    nav__work w = {.count = 40, .init = check_init, .run = check_run, .fini = check_fini, .ctx = &c};
    assert_int_equal(nav__parallel(&w, 0), NAV_SUCCESS);
    for (uint32_t i = 0; i < 40; i++) assert_int_equal(atomic_load(&c.ran[i]), 1);
    assert_int_equal(atomic_load(&c.finis), atomic_load(&c.inits));
}

/* A spinner: a thread that keeps a core busy until told to stop. */
static atomic_int spinners_started;
static atomic_bool spinners_stop;
static void *spinner(void *arg)
{
    (void)arg;
    atomic_fetch_add(&spinners_started, 1);
    volatile uint64_t k = 0;
    while (!atomic_load(&spinners_stop)) k++;
    return NULL;
}

/* Issue 43, defect 11: with every core busy, a pool starts no helper (they would wait for a turn to
 * start, spin in the caller's turns and hold the end of the work up: a build on two threads took up
 * to eight times as long as on one) and its work runs on the calling thread alone; a pool of every
 * helper asked for still starts them all. (Linux: the runnable threads are read from
 * /proc/loadavg; elsewhere every core counts as idle and the test is skipped.) */
static void test_pool_busy_machine(void **state)
{
    (void)state;
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f) skip();
    fclose(f);
    uint32_t cores = nav__core_count();
    pthread_t threads[256];
    atomic_store(&spinners_started, 0);
    atomic_store(&spinners_stop, false);
    for (uint32_t t = 0; t < cores; t++)
        assert_int_equal(pthread_create(&threads[t], NULL, spinner, NULL), 0);
    while (atomic_load(&spinners_started) < (int)cores) sched_yield();
    assert_int_equal(nav__idle_cores(), 0); /* the spinners and this thread are runnable */
    nav__pool pool;
    nav__pool_start(&pool, cores + 1, true);
    assert_int_equal(pool.helpers, 0);
    run_and_check(&pool, MAX_ITEMS);
    nav__pool_stop(&pool);
    nav__pool_start_exact(&pool, 3, true);
    assert_int_equal(pool.helpers, 2);
    run_and_check(&pool, MAX_ITEMS);
    nav__pool_stop(&pool);
    atomic_store(&spinners_stop, true);
    for (uint32_t t = 0; t < cores; t++) pthread_join(threads[t], NULL);
}

/* A run that fails: an init out of memory (nothing runs; every scratch made is released, the
 * failed one's too), a run out of memory, progress that cancels (fewer items run); the pool goes on
 * working after each. */
static void test_pool_failures(void **state)
{
    (void)state;
    nav__pool pool;
    nav__pool_start_exact(&pool, 3, true);
    for (int k = 0; k < 3; k++) {
        work_check c = {.fail_item = MAX_ITEMS};
        nav_progress progress = {check_progress, &c};
        nav__work w = {.count = 30, .init = check_init, .run = check_run, .fini = check_fini, .ctx = &c};
        nav_status want = NAV_FAILURE | NAV_OUT_OF_MEMORY;
        if (k == 0) c.fail_init = 2;
        if (k == 1) c.fail_item = 5;
        if (k == 2) c.cancel_at = 4, w.progress = &progress, want = NAV_FAILURE | NAV_WRONG_STATE;
        assert_int_equal(nav__pool_run(&pool, &w), want);
        assert_int_equal(atomic_load(&c.finis), atomic_load(&c.inits));
        uint32_t ran = 0;
        for (uint32_t i = 0; i < 30; i++) ran += atomic_load(&c.ran[i]);
        if (k == 0) assert_int_equal(ran, 0);
        if (k == 1) assert_int_equal(atomic_load(&c.ran[5]), 1);
        if (k == 2) assert_true(ran >= 4 && ran < 30);
        assert_int_equal(atomic_load(&c.shared), 0);
        run_and_check(&pool, 30);
    }
    nav__pool_stop(&pool);
}

/* The 128-bit sums of 64-bit products that targets without __int128 use for the exact geometric
 * predicates (nav/bake/wide.h), against __int128: products of random and extreme values, and sums
 * and differences of them, sign and bits. */
static void test_wide_arithmetic(void **state)
{
    (void)state;
#ifdef __SIZEOF_INT128__
    __extension__ typedef __int128 i128;
    const int64_t edges[] = {0,
                             1,
                             -1,
                             2,
                             -2,
                             INT32_MAX,
                             INT32_MIN,
                             (int64_t)1 << 32,
                             -((int64_t)1 << 32),
                             INT64_MAX,
                             INT64_MIN + 1,
                             ((int64_t)1 << 55) - 3,
                             -((int64_t)1 << 55) + 7};
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 200000; i++) {
        int64_t v[4];
        for (int k = 0; k < 4; k++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t r = seed ^ (seed >> 29);
            int shift = (int)(r % 64);
            v[k] = i < 13 * 13 ? edges[(k % 2 ? i / 13 : i % 13)] : (int64_t)(r >> shift) * (r & 1 ? -1 : 1);
        }
        nav__wide p = nav__wide_mul(v[0], v[1]), q = nav__wide_mul(v[2], v[3]);
        i128 wp = (i128)v[0] * v[1], wq = (i128)v[2] * v[3];
        nav__wide sums[2] = {nav__wide_add(p, q), nav__wide_sub(p, q)};
        i128 expect[2] = {wp + wq, wp - wq};
        for (int k = 0; k < 2; k++) {
            assert_true(sums[k].lo == (uint64_t)expect[k]);
            assert_true(sums[k].hi == (int64_t)(expect[k] >> 64));
            assert_int_equal(nav__wide_sign(sums[k]), expect[k] < 0 ? -1 : expect[k] > 0);
        }
    }
#else
    skip();
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version),         cmocka_unit_test(test_status),
        cmocka_unit_test(test_heap_order),      cmocka_unit_test(test_heap_exact_key),
        cmocka_unit_test(test_heap_full),       cmocka_unit_test(test_path_buffer),
        cmocka_unit_test(test_pool_runs),       cmocka_unit_test(test_pool_failures),
        cmocka_unit_test(test_wide_arithmetic), cmocka_unit_test(test_pool_busy_machine),
    };
    return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
