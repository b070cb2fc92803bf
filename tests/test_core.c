/* Core: status strings, version, heap, path buffers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#include "nav/heap.h"
#include "nav/path.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version),    cmocka_unit_test(test_status),
        cmocka_unit_test(test_heap_order), cmocka_unit_test(test_heap_exact_key),
        cmocka_unit_test(test_heap_full),  cmocka_unit_test(test_path_buffer),
    };
    return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
