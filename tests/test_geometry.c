/* Level geometry (nav/geometry.h): the .obj reader and views of triangles. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levelgen.h"
#include "support.h"

#include "nav/geometry.h"
#include "voxel.h"

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

/* A generated level (levelgen.h: every index form, groups, materials, texture coordinates,
 * normals, faces of 3 to 8 corners): from memory and from the file alike, its vertices exactly as
 * written and each face cut into the fan from its first corner. */
static void test_obj_generated_level(void **state)
{
    (void)state;
    test_level level;
    test_level_generate(&level);
    size_t size;
    char *text = test_level_obj(&level, &size);
    const char *path = test_scratch_file("level.obj", text, size);
    nav_geometry *a, *b;
    assert_int_equal(nav_geometry_load_obj(text, size, "level.obj", NULL, NULL, &a), NAV_SUCCESS);
    assert_int_equal(nav_geometry_load_obj_file(path, NULL, NULL, &b), NAV_SUCCESS);
    nav_triangles ta = nav_geometry_triangles(a), tb = nav_geometry_triangles(b);
    assert_int_equal(ta.vertex_count, level.vertex_count);
    assert_int_equal(ta.triangle_count, level.triangle_count);
    assert_memory_equal(ta.vertices, level.vertices, (size_t)level.vertex_count * 12);
    uint32_t t = 0;
    for (uint32_t f = 0; f < level.face_count; f++)
        for (uint32_t i = level.first[f] + 1; i + 1 < level.first[f + 1]; i++, t++) {
            assert_int_equal(ta.indices[3 * t], level.corners[level.first[f]]);
            assert_int_equal(ta.indices[3 * t + 1], level.corners[i]);
            assert_int_equal(ta.indices[3 * t + 2], level.corners[i + 1]);
        }
    assert_int_equal(t, ta.triangle_count);
    assert_int_equal(tb.vertex_count, ta.vertex_count);
    assert_int_equal(tb.triangle_count, ta.triangle_count);
    assert_memory_equal(ta.vertices, tb.vertices, (size_t)ta.vertex_count * 12);
    assert_memory_equal(ta.indices, tb.indices, (size_t)ta.triangle_count * 12);
    assert_int_equal(nav_triangles_check(&ta, NULL), NAV_SUCCESS);
    nav_geometry_destroy(a);
    nav_geometry_destroy(b);
    free(text);
    test_level_destroy(&level);
}

/* The test scene of Recast's demo (the shared data): its counts, from memory and from the file
 * alike. */
static void test_obj_sample_scene(void **state)
{
    (void)state;
    size_t size;
    char *text = test_read_file(test_shared("meshes/nav_test.obj"), &size);
    nav_geometry *a, *b;
    assert_int_equal(nav_geometry_load_obj(text, size, "nav_test.obj", NULL, NULL, &a), NAV_SUCCESS);
    assert_int_equal(nav_geometry_load_obj_file(test_shared("meshes/nav_test.obj"), NULL, NULL, &b),
                     NAV_SUCCESS);
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

/* Every allocation of the file reader (its window, and the geometry) that fails gives
 * NAV_OUT_OF_MEMORY and leaks nothing. */
static void file_allocation_failures(const char *path)
{
    for (long n = 1;; n++) {
        test_allocator t;
        test_allocator_init(&t, n);
        nav_geometry *g = NULL;
        nav_status s = nav_geometry_load_obj_file(path, &t.hooks, NULL, &g);
        if (s == NAV_SUCCESS) {
            nav_geometry_destroy(g);
            assert_int_equal(t.live, 0);
            break;
        }
        assert_int_equal(s, NAV_FAILURE | NAV_OUT_OF_MEMORY);
        assert_int_equal(t.live, 0);
    }
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
    test_level level; /* and through the file reader's window */
    test_level_generate(&level);
    size_t size;
    char *level_text = test_level_obj(&level, &size);
    file_allocation_failures(test_scratch_file("level.obj", level_text, size));
    free(level_text);
    test_level_destroy(&level);
}

/* The same through the file reader on the sample scene (the shared data). */
static void test_obj_sample_scene_allocation_failures(void **state)
{
    (void)state;
    file_allocation_failures(test_shared("meshes/nav_test.obj"));
}

/* ---- The heightfield (mesh/bake/voxel.c) ---------------------------------------------------------- */

/* The spans of column (x, z), bottom up, into out (up to max): how many. */
static int column_spans(const nav__heightfield *hf, int32_t x, int32_t z, nav__span *out, int max)
{
    int n = 0;
    for (uint32_t s = hf->column[(size_t)z * (size_t)hf->width + (size_t)x]; s != NAV__NO_SPAN;
         s = hf->spans[s].next) {
        if (n < max) out[n] = hf->spans[s];
        n++;
    }
    return n;
}

static nav__heightfield rasterized(const float *v, uint32_t nv, const uint32_t *idx, uint32_t nt, nav_vec3 lo,
                                   nav_vec3 hi, float cell, float step, float slope)
{
    nav_triangles t = {v, nv, idx, nt, NULL};
    assert_int_equal(nav_triangles_check(&t, NULL), NAV_SUCCESS);
    nav__heightfield hf;
    assert_int_equal(nav__heightfield_init(&hf, lo, hi, cell, step), NAV_SUCCESS);
    assert_true(nav__rasterize(&hf, &t, NULL, 0, slope, 1));
    return hf;
}

/* A square floor at y = 1 (two triangles facing up) over a box from y = 0: one span in each column
 * under it, a step thick (1 lies on a step: it rounds to [5, 6)); none elsewhere. A second floor
 * at y = 5 over the same square: two spans a column, bottom up. */
static void test_heightfield_floors(void **state)
{
    (void)state;
    for (int floors = 1; floors <= 2; floors++) {
        float v[] = {1, 1, 1, 1, 1, 9, 9, 1, 9, 9, 1, 1, 1, 5, 1, 1, 5, 9, 9, 5, 9, 9, 5, 1};
        uint32_t idx[] = {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7};
        nav__heightfield hf = rasterized(v, 8, idx, 2 * (uint32_t)floors, (nav_vec3){0, 0, 0},
                                         (nav_vec3){10, 6, 10}, 0.5f, 0.2f, 45);
        assert_int_equal(hf.width, 21);
        assert_int_equal(hf.depth, 21);
        int covered = 0;
        for (int32_t z = 0; z < hf.depth; z++)
            for (int32_t x = 0; x < hf.width; x++) {
                nav__span sp[4];
                int n = column_spans(&hf, x, z, sp, 4);
                /* the columns whose cell overlaps the square [1, 9] x [1, 9] (the cells that only
                 * touch it along its edges, columns 1 and 18, get nothing) */
                bool under = x >= 2 && x <= 17 && z >= 2 && z <= 17;
                if (!under) {
                    assert_int_equal(n, 0);
                    continue;
                }
                covered++;
                assert_int_equal(n, floors);
                assert_true(sp[0].bottom == 5 && sp[0].top == 6 && sp[0].area == 1);
                if (floors == 2) assert_true(sp[1].bottom == 25 && sp[1].top == 26 && sp[1].area == 1);
            }
        assert_int_equal(covered, 16 * 16);
        assert_int_equal(hf.span_count, (uint64_t)(16 * 16 * floors));
        nav__heightfield_free(&hf);
    }
}

/* Ramps of 44 and 46 degrees against a slope limit of 45: the first walkable, the second not; a
 * floor facing down (a ceiling) is never walkable. */
static void test_heightfield_slopes(void **state)
{
    (void)state;
    const float angles[3] = {44, 46, 0};
    for (int k = 0; k < 3; k++) {
        float rise = 4 * tanf(angles[k] * (float)(M_PI / 180));
        /* a ramp rising along x from (0, 0) to (4, rise), 4 wide in z, facing up; the third: a
         * flat quad wound the other way (facing down) */
        float v[] = {0, 0, 0, 0, 0, 4, 4, rise, 4, 4, rise, 0};
        uint32_t up[] = {0, 1, 2, 0, 2, 3}, down[] = {0, 2, 1, 0, 3, 2};
        nav__heightfield hf = rasterized(v, 4, k < 2 ? up : down, 2, (nav_vec3){-1, -1, -1},
                                         (nav_vec3){5, 6, 5}, 0.5f, 0.1f, 45);
        int walkable = 0, solid = 0;
        for (int32_t z = 0; z < hf.depth; z++)
            for (int32_t x = 0; x < hf.width; x++) {
                nav__span sp[4];
                int n = column_spans(&hf, x, z, sp, 4);
                for (int i = 0; i < n && i < 4; i++) walkable += sp[i].area != 0, solid++;
            }
        assert_true(solid > 50);
        assert_int_equal(walkable, k == 0 ? solid : 0);
        nav__heightfield_free(&hf);
    }
}
/* Whether triangle abc's shadow on the xz plane meets the square [x0, x0 + size] x [z0, z0 + size]
 * (separating axes: the square's two, the triangle's three edge normals). */
static bool shadow_meets(const float *a, const float *b, const float *c, double x0, double z0, double size)
{
    const float *p[3] = {a, b, c};
    double sq[4][2] = {{x0, z0}, {x0 + size, z0}, {x0 + size, z0 + size}, {x0, z0 + size}};
    double tx0 = fmin(a[0], fmin(b[0], c[0])), tx1 = fmax(a[0], fmax(b[0], c[0]));
    double tz0 = fmin(a[2], fmin(b[2], c[2])), tz1 = fmax(a[2], fmax(b[2], c[2]));
    if (tx1 < x0 || tx0 > x0 + size || tz1 < z0 || tz0 > z0 + size) return false;
    for (int e = 0; e < 3; e++) {
        const float *u = p[e], *w = p[(e + 1) % 3];
        double nx = -(double)(w[2] - u[2]), nz = (double)(w[0] - u[0]);
        double tmin = INFINITY, tmax = -INFINITY, smin = INFINITY, smax = -INFINITY;
        for (int k = 0; k < 3; k++) {
            double d = nx * p[k][0] + nz * p[k][2];
            tmin = fmin(tmin, d), tmax = fmax(tmax, d);
        }
        for (int k = 0; k < 4; k++) {
            double d = nx * sq[k][0] + nz * sq[k][1];
            smin = fmin(smin, d), smax = fmax(smax, d);
        }
        if (tmax < smin || tmin > smax) return false;
    }
    return true;
}

/* The lowest and highest y of triangle abc over the square [x0, x0 + size] x [z0, z0 + size]: a
 * linear function over a convex polygon takes them at its corners, which are the triangle's corners
 * in the square, the square's corners under the triangle, and where their edges cross. False when
 * they do not meet (or the triangle stands on edge: its shadow has no area). */
static bool height_range(const float *a, const float *b, const float *c, double x0, double z0, double size,
                         double *lo, double *hi)
{
    const float *p[3] = {a, b, c};
    double det = ((double)b[2] - c[2]) * (a[0] - c[0]) + ((double)c[0] - b[0]) * (a[2] - c[2]);
    if (fabs(det) < 1e-9) return false;
    *lo = INFINITY, *hi = -INFINITY;
#define TAKE(y) (*lo = fmin(*lo, (y)), *hi = fmax(*hi, (y)))
    for (int k = 0; k < 3; k++)
        if (p[k][0] >= x0 && p[k][0] <= x0 + size && p[k][2] >= z0 && p[k][2] <= z0 + size) TAKE(p[k][1]);
    double sq[4][2] = {{x0, z0}, {x0 + size, z0}, {x0 + size, z0 + size}, {x0, z0 + size}};
    for (int k = 0; k < 4; k++) {
        double l0 = (((double)b[2] - c[2]) * (sq[k][0] - c[0]) + ((double)c[0] - b[0]) * (sq[k][1] - c[2])) /
                    det,
               l1 = (((double)c[2] - a[2]) * (sq[k][0] - c[0]) + ((double)a[0] - c[0]) * (sq[k][1] - c[2])) /
                    det;
        if (l0 >= 0 && l1 >= 0 && l0 + l1 <= 1) TAKE(l0 * a[1] + l1 * b[1] + (1 - l0 - l1) * c[1]);
    }
    for (int e = 0; e < 3; e++) { /* the triangle's edges against the square's four lines */
        const float *u = p[e], *w = p[(e + 1) % 3];
        for (int axis = 0; axis < 2; axis++)
            for (int side = 0; side < 2; side++) {
                int i = axis ? 2 : 0, j = axis ? 0 : 2;
                double line = (axis ? z0 : x0) + side * size, du = u[i] - line, dw = w[i] - line;
                if (du == dw || (du < 0) == (dw < 0)) continue;
                double t = du / (du - dw), other = u[j] + (w[j] - u[j]) * t, lim = axis ? x0 : z0;
                if (other >= lim && other <= lim + size) TAKE(u[1] + (w[1] - u[1]) * t);
            }
    }
#undef TAKE
    return *lo <= *hi;
}

/* Random triangles, one at a time, in the scene's box or in a smaller one: the columns that get a
 * span are exactly those whose cell the triangle's shadow meets (a brute-force test of every column; cells it
 * only grazes, within 1e-4 of a cell's edge, are not counted either way), and each span holds the triangle's
 * heights over the column's centre when the centre lies under it. */
static void test_heightfield_against_brute_force(void **state)
{
    (void)state;
    srand(11);
    int compared = 0;
    for (int t = 0; t < 300; t++) {
        float v[9];
        for (int i = 0; i < 9; i++) v[i] = (float)(rand() % 10000) / 1000.0f; /* 0 .. 10 */
        uint32_t idx[3] = {0, 1, 2};
        float cell = 0.3f + (float)(rand() % 5) * 0.1f;
        /* every other triangle into a box smaller than the triangles' spread (a tile's box):
         * what lies outside it is not the box's */
        float o = t % 2 ? 2.5f : 0, e = t % 2 ? 7.5f : 10;
        nav__heightfield hf =
            rasterized(v, 3, idx, 1, (nav_vec3){o, 0, o}, (nav_vec3){e, 10, e}, cell, 0.2f, 90);
        for (int32_t z = 0; z < hf.depth; z++)
            for (int32_t x = 0; x < hf.width; x++) {
                nav__span sp[2];
                int n = column_spans(&hf, x, z, sp, 2);
                double x0 = o + (double)x * cell, z0 = o + (double)z * cell;
                bool in = shadow_meets(v, v + 3, v + 6, x0 + 1e-4, z0 + 1e-4, cell - 2e-4),
                     near = shadow_meets(v, v + 3, v + 6, x0 - 1e-4, z0 - 1e-4, cell + 2e-4);
                if (in) assert_int_equal(n, 1);
                if (!near) assert_int_equal(n, 0);
                if (n == 0) continue;
                assert_true(sp[0].bottom < sp[0].top);
                /* the span holds exactly the triangle's heights over the cell, rounded out to steps */
                double lo, hi;
                if (!height_range(v, v + 3, v + 6, x0, z0, cell, &lo, &hi)) continue;
                double bottom = floor(lo / 0.2 + 1e-4), top = fmax(ceil(hi / 0.2 - 1e-4), bottom + 1);
                assert_true(fabs(sp[0].bottom - bottom) <= 1 && fabs(sp[0].top - top) <= 1);
                assert_true(sp[0].bottom * 0.2 <= lo + 1e-3 && sp[0].top * 0.2 >= hi - 1e-3);
                compared++;
            }
        nav__heightfield_free(&hf);
    }
    assert_true(compared > 500);
}

/* Whether two heightfields hold the same spans, column by column. */
static void assert_same_spans(const nav__heightfield *a, const nav__heightfield *b)
{
    assert_int_equal(a->width, b->width);
    assert_int_equal(a->depth, b->depth);
    assert_int_equal(a->span_count, b->span_count);
    for (int32_t z = 0; z < a->depth; z++)
        for (int32_t x = 0; x < a->width; x++) {
            nav__span sa[16], sb[16];
            int n = column_spans(a, x, z, sa, 16);
            assert_int_equal(column_spans(b, x, z, sb, 16), n);
            for (int i = 0; i < n && i < 16; i++)
                assert_true(sa[i].bottom == sb[i].bottom && sa[i].top == sb[i].top &&
                            sa[i].area == sb[i].area);
        }
}

/* The generated level (320 x 300 columns: 8 bands of rows) rasterised in bands on 2 and 3 threads,
 * the bands taking their spans in chunks of one pool made for them all: the same spans, column by
 * column, as on one thread. Likewise when that pool is made too small (a few chunks, or none): the
 * bands run out of it and the heightfield is rasterised again on this thread. (A system heap that
 * fails in such a build: test_oom_mesh's test_build_on_threads.) */
static void test_heightfield_bands(void **state)
{
    (void)state;
    test_level level;
    test_level_generate(&level);
    size_t size;
    char *text = test_level_obj(&level, &size);
    nav_geometry *g;
    assert_int_equal(nav_geometry_load_obj(text, size, "level.obj", NULL, NULL, &g), NAV_SUCCESS);
    nav_triangles t = nav_geometry_triangles(g);
    nav_vec3 lo, hi;
    assert_true(nav_triangles_bounds(&t, &lo, &hi));
    nav__heightfield alone;
    assert_int_equal(nav__heightfield_init(&alone, lo, hi, 0.3f, 0.2f), NAV_SUCCESS);
    assert_true(alone.depth >= NAV__ROW_BANDS * NAV__BAND_LEAST_ROWS);
    assert_true(nav__rasterize(&alone, &t, NULL, 0, 45, 1));
    assert_true(alone.span_count > 50000);
    const uint64_t rooms[] = {0, 3 * NAV__SPAN_CHUNK, 1};
    for (uint32_t threads = 2; threads <= 3; threads++) {
        nav__pool pool;
        nav__pool_start_exact(&pool, threads, true);
        for (int r = 0; r < 3; r++) {
            nav__heightfield hf;
            assert_int_equal(nav__heightfield_init(&hf, lo, hi, 0.3f, 0.2f), NAV_SUCCESS);
            assert_true(nav__rasterize_bands(&hf, &t, NULL, 0, 45, 1, &pool, rooms[r]));
            assert_false(hf.out_of_memory);
            assert_same_spans(&hf, &alone);
            nav__heightfield_free(&hf);
        }
        nav__pool_stop(&pool);
    }
    nav__heightfield_free(&alone);
    nav_geometry_destroy(g);
    free(text);
    test_level_destroy(&level);
}

/* A wall (a vertical quad from the floor up to 3) on a floor: in the columns it stands in, one
 * span from the floor to its top, whose area is the wall's (0: vertical); the other columns keep
 * the floor's walkable step. Merging: a floor and a second floor two steps above it (within the
 * merge of 2 here) touching it through a ramp merge into one span with the walkable area. */
static void test_heightfield_wall(void **state)
{
    (void)state;
    float v[] = {0,    0, 0, 0,    0, 4, 4,    0, 4, 4,    0, 0, /* the floor */
                 2.1f, 0, 0, 2.1f, 3, 0, 2.1f, 3, 4, 2.1f, 0, 4};
    uint32_t idx[] = {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7};
    nav__heightfield hf =
        rasterized(v, 8, idx, 4, (nav_vec3){0, -0.5f, 0}, (nav_vec3){4, 4, 4}, 0.5f, 0.5f, 45);
    for (int32_t z = 0; z < hf.depth - 1; z++)
        for (int32_t x = 0; x < hf.width - 1; x++) {
            nav__span sp[3];
            int n = column_spans(&hf, x, z, sp, 3);
            assert_int_equal(n, 1);
            if (x == 4) { /* the wall at x = 2.1 stands in column 4 ([2.0, 2.5)) */
                assert_true(sp[0].bottom == 1 && sp[0].top == 7 && sp[0].area == 0);
            } else {
                assert_true(sp[0].bottom == 1 && sp[0].top == 2 && sp[0].area == 1);
            }
        }
    nav__heightfield_free(&hf);
    /* add_span's merges, in one column */
    nav__heightfield m;
    assert_int_equal(nav__heightfield_init(&m, (nav_vec3){0, 0, 0}, (nav_vec3){1, 10, 1}, 1, 1), NAV_SUCCESS);
    assert_true(nav__heightfield_add_span(&m, 0, 0, 2, 3, 1, 1));
    assert_true(nav__heightfield_add_span(&m, 0, 0, 6, 7, 5, 1));
    assert_true(nav__heightfield_add_span(&m, 0, 0, 0, 1, 0, 1)); /* below, apart */
    nav__span sp[4];
    assert_int_equal(column_spans(&m, 0, 0, sp, 4), 3);
    assert_true(sp[0].bottom == 0 && sp[1].bottom == 2 && sp[2].bottom == 6);
    /* touches the lowest, overlaps the second: their tops 3 and 4 within 1 */
    assert_true(nav__heightfield_add_span(&m, 0, 0, 1, 4, 0, 1));
    assert_int_equal(column_spans(&m, 0, 0, sp, 4), 2);
    assert_true(sp[0].bottom == 0 && sp[0].top == 4 && sp[0].area == 1);
    /* joins both; the higher top (7) keeps its area */
    assert_true(nav__heightfield_add_span(&m, 0, 0, 3, 6, 2, 1));
    assert_int_equal(column_spans(&m, 0, 0, sp, 4), 1);
    assert_true(sp[0].bottom == 0 && sp[0].top == 7 && sp[0].area == 5);
    assert_int_equal(m.span_count, 1);
    nav__heightfield_free(&m);
    /* refused boxes */
    assert_int_equal(nav__heightfield_init(&m, (nav_vec3){0, 0, 0}, (nav_vec3){1, 1, 1}, 0, 1),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav__heightfield_init(&m, (nav_vec3){1, 0, 0}, (nav_vec3){0, 1, 1}, 1, 1),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav__heightfield_init(&m, (nav_vec3){0, 0, 0}, (nav_vec3){1e6f, 1, 1e6f}, 0.01f, 1),
                     NAV_FAILURE | NAV_TOO_LARGE);
    assert_int_equal(nav__heightfield_init(&m, (nav_vec3){0, 0, 0}, (nav_vec3){1, 1e6f, 1}, 1, 0.01f),
                     NAV_FAILURE | NAV_TOO_LARGE);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_obj_forms),
        cmocka_unit_test(test_obj_errors),
        cmocka_unit_test(test_obj_generated_level),
        cmocka_unit_test(test_triangles_check),
        cmocka_unit_test(test_obj_allocation_failures),
        cmocka_unit_test(test_heightfield_floors),
        cmocka_unit_test(test_heightfield_slopes),
        cmocka_unit_test(test_heightfield_against_brute_force),
        cmocka_unit_test(test_heightfield_wall),
        cmocka_unit_test(test_heightfield_bands),
    };
    const struct CMUnitTest shared_tests[] = {
        cmocka_unit_test(test_obj_sample_scene),
        cmocka_unit_test(test_obj_sample_scene_allocation_failures),
    };
    static const char *const needs[] = {"meshes/nav_test.obj", NULL};
    return TEST_RUN_SUITE("geometry", tests, shared_tests, needs);
}
