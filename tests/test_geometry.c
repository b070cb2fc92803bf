/* Level geometry (nav/geometry.h): the .obj reader and views of triangles. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#include "nav/geometry.h"

static nav_geometry *load_text(const char *text)
{
    nav_geometry *g = NULL;
    assert_int_equal(nav_geometry_load_obj(text, strlen(text), "t.obj", NULL, NULL, &g), NAV_SUCCESS);
    return g;
}

/* A small scene in the forms exporters write: a quad (a fan of two), a triangle by negative
 * indices, slashes, comments, groups, normals and texture coordinates, CRLF line ends. */
static void test_obj_forms(void **state)
{
    (void)state;
    const char *text = "# a scene\r\n"
                       "mtllib scene.mtl\n"
                       "o floor\n"
                       "v 0 0 0\n"
                       "v 4 0 0   1.0\n"         /* a w, ignored */
                       "v 4 0 4 0.5 0.5 0.5\r\n" /* a colour, ignored */
                       "v 0 0 4\n"
                       "vt 0 0\n"
                       "vn 0 1 0\n"
                       "g ground\n"
                       "usemtl stone\n"
                       "s off\n"
                       "f 1/1/1 2/1/1 3/1/1 4/1/1\n"
                       "\n"
                       "   v 2 3 2\n"
                       "f -5//1 -4//1 -1\n"
                       "f 5 4 3 # a comment after a face\n";
    nav_geometry *g = load_text(text);
    nav_triangles t = nav_geometry_triangles(g);
    assert_int_equal(t.vertex_count, 5);
    assert_int_equal(t.triangle_count, 4);
    const uint32_t want[12] = {0, 1, 2, 0, 2, 3, 0, 1, 4, 4, 3, 2};
    assert_memory_equal(t.indices, want, sizeof want);
    assert_true(t.vertices[3 * 4 + 1] == 3.0f && t.vertices[3 * 2 + 2] == 4.0f);
    for (uint32_t i = 0; i < 4; i++) assert_int_equal(t.areas[i], NAV_GEOMETRY_DEFAULT_AREA);
    nav_geometry_areas(g)[1] = 7; /* the caller marks an area */
    assert_int_equal(nav_geometry_triangles(g).areas[1], 7);
    assert_int_equal(nav_triangles_check(&t, NULL), NAV_SUCCESS);
    nav_vec3 lo, hi;
    assert_true(nav_triangles_bounds(&t, &lo, &hi));
    assert_true(lo.x == 0 && lo.y == 0 && lo.z == 0 && hi.x == 4 && hi.y == 3 && hi.z == 4);
    assert_true(nav_geometry_memory_bytes(g) >= 5 * 12 + 4 * 13);
    nav_geometry_destroy(g);
}

/* Every fault is named by its file and line, and nothing is handed out. */
static void test_obj_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        nav_status status;
        const char *message;
    } cases[] = {
        {"v 1 2\nf 1 1 1\n", NAV_FAILURE | NAV_PARSE_ERROR, "e.obj:1: vertex without its z coordinate"},
        {"v 1 x 2\n", NAV_FAILURE | NAV_PARSE_ERROR,
         "e.obj:1: vertex y coordinate 'x' is not a finite number"},
        {"v 1 1e39 2\n", NAV_FAILURE | NAV_PARSE_ERROR,
         "e.obj:1: vertex y coordinate '1e39' is not a finite"},
        {"v 0 0 0\nv 1 0 0\nf 1 2\n", NAV_FAILURE | NAV_PARSE_ERROR,
         "e.obj:3: a face of 2 vertices; a face has at least 3"},
        {"v 0 0 0\nv 1 0 0\nv 1 0 1\nf 0 1 2\n", NAV_FAILURE | NAV_PARSE_ERROR,
         "e.obj:4: face vertex '0': indices count from 1"},
        {"v 0 0 0\nv 1 0 0\nv 1 0 1\n\nf -1 -2 -4\n", NAV_FAILURE | NAV_PARSE_ERROR,
         "e.obj:5: face vertex '-4': no such vertex (3 read so far)"},
        {"v 0 0 0\nv 1 0 0\nv 1 0 1\nf 1 2 3\nf 1 2 9\n", NAV_FAILURE | NAV_PARSE_ERROR,
         "e.obj:5: face vertex 9: no such vertex (3 in the file)"},
        {"v 0 0 0\nf 1 a/2 1\n", NAV_FAILURE | NAV_PARSE_ERROR,
         "e.obj:2: face vertex 'a/2' is not a vertex index"},
        {"v 0 0 0\nf 1 99999999999 1\n", NAV_FAILURE | NAV_PARSE_ERROR,
         "e.obj:2: face vertex '99999999999': no such vertex"},
        {"v 0 0 0\nbox 1 2 3\n", NAV_FAILURE | NAV_PARSE_ERROR, "e.obj:2: unknown statement 'box'"},
        {"# nothing but vertices\nv 0 0 0\n", NAV_FAILURE | NAV_PARSE_ERROR, "e.obj: no faces"},
        {"", NAV_FAILURE | NAV_PARSE_ERROR, "e.obj: no faces"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        test_log log;
        test_log_init(&log);
        nav_geometry *g = (nav_geometry *)1;
        nav_status s =
            nav_geometry_load_obj(cases[i].text, strlen(cases[i].text), "e.obj", NULL, &log.hooks, &g);
        if (s != cases[i].status || !strstr(log.last, cases[i].message))
            fail_msg("case %zu: status %x, message \"%s\"; expected \"%s\"", i, s, log.last,
                     cases[i].message);
        assert_null(g);
    }
    nav_geometry *g = NULL;
    assert_int_equal(nav_geometry_load_obj(NULL, 3, "x", NULL, NULL, &g), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_geometry_load_obj("f", 1, "x", NULL, NULL, NULL), NAV_FAILURE | NAV_INVALID_PARAM);
    test_log log;
    test_log_init(&log);
    assert_int_equal(nav_geometry_load_obj_file("/nonexistent/level.obj", NULL, &log.hooks, &g),
                     NAV_FAILURE | NAV_IO_ERROR);
    assert_non_null(strstr(log.last, "level.obj"));
    assert_null(g);
}

/* The test scene of Recast's demo: its counts, from memory and from the file alike. */
static void test_obj_sample_scene(void **state)
{
    (void)state;
    size_t size;
    char *text = test_read_file(test_data("nav_test.obj"), &size);
    nav_geometry *a, *b;
    assert_int_equal(nav_geometry_load_obj(text, size, "nav_test.obj", NULL, NULL, &a), NAV_SUCCESS);
    assert_int_equal(nav_geometry_load_obj_file(test_data("nav_test.obj"), NULL, NULL, &b), NAV_SUCCESS);
    nav_triangles ta = nav_geometry_triangles(a), tb = nav_geometry_triangles(b);
    /* 884 vertices; 792 faces, 28 of them triangles and 764 quads: 1612 triangles (awk) */
    assert_int_equal(ta.vertex_count, 884);
    assert_int_equal(ta.triangle_count, 1612);
    assert_int_equal(tb.vertex_count, ta.vertex_count);
    assert_int_equal(tb.triangle_count, ta.triangle_count);
    assert_memory_equal(ta.vertices, tb.vertices, (size_t)ta.vertex_count * 12);
    assert_memory_equal(ta.indices, tb.indices, (size_t)ta.triangle_count * 12);
    assert_int_equal(nav_triangles_check(&ta, NULL), NAV_SUCCESS);
    /* its first vertex, as written */
    assert_true(ta.vertices[0] == -21.847065f && ta.vertices[1] == -2.492895f &&
                ta.vertices[2] == 19.569759f);
    nav_geometry_destroy(a);
    nav_geometry_destroy(b);
    free(text);
}

/* A view of the caller's arrays is checked before a build uses it. */
static void test_triangles_check(void **state)
{
    (void)state;
    float v[9] = {0, 0, 0, 1, 0, 0, 0, 0, 1};
    uint32_t i[3] = {0, 1, 2};
    nav_triangles t = {v, 3, i, 1, NULL};
    assert_int_equal(nav_triangles_check(&t, NULL), NAV_SUCCESS);
    test_log log;
    test_log_init(&log);
    i[2] = 3;
    assert_int_equal(nav_triangles_check(&t, &log.hooks), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_non_null(strstr(log.last, "triangle 0 names vertex 3 of 3"));
    i[2] = 2;
    v[4] = NAN;
    assert_int_equal(nav_triangles_check(&t, &log.hooks), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_non_null(strstr(log.last, "vertex 1 has a coordinate that is not finite"));
    v[4] = 0;
    t.vertices = NULL;
    assert_int_equal(nav_triangles_check(&t, NULL), NAV_FAILURE | NAV_INVALID_PARAM);
    t = (nav_triangles){v, NAV_GEOMETRY_MAX_VERTICES + 1, i, 1, NULL};
    assert_int_equal(nav_triangles_check(&t, NULL), NAV_FAILURE | NAV_TOO_LARGE);
    assert_int_equal(nav_triangles_check(NULL, NULL), NAV_FAILURE | NAV_INVALID_PARAM);
    t = (nav_triangles){v, 3, i, 0, NULL};
    assert_false(nav_triangles_bounds(&t, NULL, NULL)); /* no triangles: no box */
}

/* Every allocation that fails gives NAV_OUT_OF_MEMORY and leaks nothing. */
static void test_obj_allocation_failures(void **state)
{
    (void)state;
    const char *text = "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 2 3 4\n";
    int failed = 0;
    for (long n = 1;; n++) {
        test_allocator t;
        test_allocator_init(&t, n);
        nav_geometry *g = NULL;
        nav_status s = nav_geometry_load_obj(text, strlen(text), "a.obj", &t.hooks, NULL, &g);
        if (s == NAV_SUCCESS) {
            nav_geometry_destroy(g);
            assert_int_equal(t.live, 0);
            break;
        }
        assert_int_equal(s, NAV_FAILURE | NAV_OUT_OF_MEMORY);
        assert_null(g);
        assert_int_equal(t.live, 0);
        failed++;
    }
    assert_true(failed >= 1);
    for (long n = 1;; n++) { /* and through the file reader's window */
        test_allocator t;
        test_allocator_init(&t, n);
        nav_geometry *g = NULL;
        nav_status s = nav_geometry_load_obj_file(test_data("nav_test.obj"), &t.hooks, NULL, &g);
        if (s == NAV_SUCCESS) {
            nav_geometry_destroy(g);
            assert_int_equal(t.live, 0);
            break;
        }
        assert_int_equal(s, NAV_FAILURE | NAV_OUT_OF_MEMORY);
        assert_int_equal(t.live, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_obj_forms),
        cmocka_unit_test(test_obj_errors),
        cmocka_unit_test(test_obj_sample_scene),
        cmocka_unit_test(test_triangles_check),
        cmocka_unit_test(test_obj_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
