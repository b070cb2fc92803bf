/* Queries on a level's mesh (nav/mesh.h on a mesh built from level geometry, floors above floors):
 * where points are located and snapped (the default box, the nearest floor, not the one under a
 * pillar), which end of a path is off the mesh, and raycasts that reach their end only on its own
 * floor (issue 43). The always-run cases use a generated two-storey level; the shared ones Recast's
 * sample scene, nav_test.obj. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "support.h"
#include "scene.h"

#include "nav/geometry.h"
#include "nav/mesh.h"
#include "nav/path.h"

/* ---- The generated level --------------------------------------------------------------------- */

/* A solid box: its bottom facing down besides scene.h's box (its top and sides). */
static void solid_box(scene *s, float x0, float y0, float z0, float x1, float y1, float z1)
{
    floor_quad(s, x0, z0, x1, z1, y0, false);
    box(s, x0, y0, z0, x1, y1, z1);
}

/* Two storeys: a ground floor of 24 x 12 m at y = 0, and over its western half an upper floor, a
 * slab whose top is UPPER_Y up (3 m of room under it), with a pillar 1 m square in its middle
 * (PILLAR_X, PILLAR_Z) standing 3 m high. No ramp or stairs join them: each floor is a component.
 * RecastDemo's agent (the defaults: radius 0.6, height 2, climb 0.9, cells 0.3 x 0.2). */
#define UPPER_Y 3.2f
/* the mesh's floors lie on the voxels' tops: up to a cell height (0.2) above the triangles */
#define FLOOR_EPS 0.3
#define PILLAR_X  6.0f
#define PILLAR_Z  6.0f

static nav_mesh *two_storeys(void)
{
    scene *s = calloc(1, sizeof *s);
    assert_non_null(s);
    floor_quad(s, 0, 0, 24, 12, 0, true);
    solid_box(s, 0, UPPER_Y - 0.2f, 0, 12, UPPER_Y, 12);
    solid_box(s, PILLAR_X - 0.5f, UPPER_Y, PILLAR_Z - 0.5f, PILLAR_X + 0.5f, UPPER_Y + 3, PILLAR_Z + 0.5f);
    nav_triangles t = {s->v, s->nv, s->idx, s->nt, NULL};
    nav_mesh *mesh = NULL;
    assert_int_equal(nav_mesh_build_from_geometry(&t, NULL, &mesh, NULL), NAV_SUCCESS);
    free(s);
    return mesh;
}

/* Locates p with the mesh's default box: its polygon, and the point it goes to. */
static uint32_t located(const nav_mesh *mesh, nav_vec3 p, nav_vec3 *at)
{
    uint32_t poly = NAV_MESH_NO_POLY;
    assert_int_equal(nav_mesh_locate(mesh, p, nav_vec3_make(0, 0, 0), &poly, at), NAV_SUCCESS);
    return poly;
}

/* ---- Locating and snapping points ------------------------------------------------------------ */

/* The default box: Detour's samples' 2 x 4 x 2 m on a level's mesh; a cell across and any height on
 * a grid's. Points on either floor go to it; a point a step above a floor (within the height
 * tolerance) stands on it; a point inside the pillar goes to the upper floor round the pillar (a
 * metre or so across), not to the ground 3.2 m under it; a point outside the level within 2 m
 * goes onto its edge; a point 5 m above the upper floor, or 3 m beyond the level's edge, is off the
 * mesh. */
static void test_locate_level(void **state)
{
    (void)state;
    nav_mesh *mesh = two_storeys();
    nav_vec3 box = nav_mesh_default_half_extents(mesh);
    assert_true(box.x == NAV_MESH_LEVEL_HALF_EXTENT_XZ && box.y == NAV_MESH_LEVEL_HALF_EXTENT_Y &&
                box.z == NAV_MESH_LEVEL_HALF_EXTENT_XZ);
    assert_true(box.x == 2 && box.y == 4);
    nav_vec3 at;
    uint32_t upper = located(mesh, nav_vec3_make(3, UPPER_Y, 3), &at);
    assert_cost_equal(at.y, UPPER_Y, FLOOR_EPS);
    assert_true(at.x == 3 && at.z == 3);
    uint32_t lower = located(mesh, nav_vec3_make(3, 0, 3), &at);
    assert_cost_equal(at.y, 0, FLOOR_EPS);
    nav_mesh_poly_info a, b;
    assert_true(nav_mesh_poly(mesh, upper, &a) && nav_mesh_poly(mesh, lower, &b));
    assert_true(a.component != b.component);
    /* a step above either floor: on it */
    assert_int_equal(located(mesh, nav_vec3_make(3, UPPER_Y + 0.8f, 3), &at), upper);
    assert_int_equal(located(mesh, nav_vec3_make(3, 0.8f, 3), &at), lower);
    assert_cost_equal(at.y, 0, FLOOR_EPS);
    /* inside the pillar, at the upper floor's height and a little above it: the upper floor */
    for (float above = 0; above <= 1; above += 0.5f) {
        uint32_t poly = located(mesh, nav_vec3_make(PILLAR_X, UPPER_Y + above, PILLAR_Z), &at);
        assert_true(nav_mesh_poly(mesh, poly, &b));
        assert_int_equal(b.component, a.component);
        assert_cost_equal(at.y, UPPER_Y, FLOOR_EPS);
        double across = hypot(at.x - PILLAR_X, at.z - PILLAR_Z);
        assert_true(across > 0.5 && across < 2);
    }
    /* beside the level: onto its edge within 2 m, off the mesh beyond */
    assert_true(nav_mesh_poly(mesh, located(mesh, nav_vec3_make(-1, 0, 8), &at), &b));
    assert_true(at.x > 0 && at.x < 1 && at.z == 8);
    assert_cost_equal(at.y, 0, FLOOR_EPS);
    uint32_t poly;
    assert_int_equal(nav_mesh_locate(mesh, nav_vec3_make(-3, 0, 8), nav_vec3_make(0, 0, 0), &poly, &at),
                     NAV_FAILURE | NAV_UNREACHABLE);
    assert_int_equal(poly, NAV_MESH_NO_POLY);
    /* high above the upper floor: nothing within 4 m up or down */
    assert_int_equal(
        nav_mesh_locate(mesh, nav_vec3_make(3, UPPER_Y + 5, 3), nav_vec3_make(0, 0, 0), &poly, &at),
        NAV_FAILURE | NAV_UNREACHABLE);
    /* a box given: any height still reaches it */
    assert_int_equal(
        nav_mesh_locate(mesh, nav_vec3_make(3, UPPER_Y + 5, 3), nav_vec3_make(0.3f, 100, 0.3f), &poly, &at),
        NAV_SUCCESS);
    assert_int_equal(poly, upper);
    nav_mesh_destroy(mesh);

    /* a grid's mesh: one cell across, any height */
    static const char *const rows[] = {"....", "....", "...."};
    nav_grid *grid = test_grid_from_rows(rows, 3, &(nav_grid_desc){.cell_size = 0.5f});
    assert_int_equal(nav_mesh_build_from_grid(grid, NULL, &mesh), NAV_SUCCESS);
    box = nav_mesh_default_half_extents(mesh);
    assert_true(box.x == 0.5f && box.z == 0.5f && isinf(box.y));
    assert_int_equal(nav_mesh_locate(mesh, nav_vec3_make(1, 50, 1), nav_vec3_make(0, 0, 0), &poly, &at),
                     NAV_SUCCESS);
    assert_true(at.y == 0 && at.x == 1 && at.z == 1);
    nav_mesh_destroy(mesh);
    nav_grid_destroy(grid);
}

/* ---- Paths: which end is off the mesh, and where the ends went --------------------------------- */

/* In both modes: an end off the mesh (beside the level beyond the box, or 5 m above the upper floor)
 * fails with NAV_BLOCKED_ENDPOINT, the result naming it (NAV_MESH_NO_POLY) and giving the other
 * end's polygon and point; the step-wise calls say the same; ends on floors not joined are
 * unreachable with both filled in; a start in the pillar goes to the upper floor round it, and the
 * result's start_point is the path's first point. */
static void test_path_ends_level(void **state)
{
    (void)state;
    nav_mesh *mesh = two_storeys();
    nav_mesh_query *q = NULL;
    assert_int_equal(nav_mesh_query_create(mesh, NULL, &q), NAV_SUCCESS);
    nav_path path;
    nav_path_init(&path, NULL);
    nav_mesh_result r;
    nav_vec3 ground = nav_vec3_make(20, 0.1f, 6), ground2 = nav_vec3_make(16, 0.1f, 2);
    nav_vec3 far_off = nav_vec3_make(-20, 0, 6), in_the_air = nav_vec3_make(3, UPPER_Y + 5, 3);
    nav_vec3 at;
    uint32_t ground_poly = located(mesh, ground, &at);
    for (int mode = 1; mode <= 2; mode++) {
        nav_mesh_path_desc d = {.mode = (nav_mesh_path_mode)mode};
        /* the start off the mesh, beside the level or high above it: the goal is found */
        for (int k = 0; k < 2; k++) {
            nav_vec3 off = k ? in_the_air : far_off;
            assert_int_equal(nav_mesh_find_path(q, &d, off, ground, &path, &r),
                             NAV_FAILURE | NAV_BLOCKED_ENDPOINT);
            assert_int_equal(path.count, 0);
            assert_int_equal(r.start_poly, NAV_MESH_NO_POLY);
            assert_int_equal(r.goal_poly, ground_poly);
            assert_true(r.goal_point.x == ground.x && r.goal_point.z == ground.z);
            assert_cost_equal(r.goal_point.y, 0, FLOOR_EPS);
            assert_true(r.start_point.x == off.x && r.start_point.y == off.y && r.start_point.z == off.z);
            /* the goal off it: the start is found */
            assert_int_equal(nav_mesh_find_path(q, &d, ground, off, &path, &r),
                             NAV_FAILURE | NAV_BLOCKED_ENDPOINT);
            assert_int_equal(r.start_poly, ground_poly);
            assert_int_equal(r.goal_poly, NAV_MESH_NO_POLY);
            assert_cost_equal(r.start_point.y, 0, FLOOR_EPS);
        }
        /* both off */
        assert_int_equal(nav_mesh_find_path(q, &d, far_off, in_the_air, &path, &r),
                         NAV_FAILURE | NAV_BLOCKED_ENDPOINT);
        assert_true(r.start_poly == NAV_MESH_NO_POLY && r.goal_poly == NAV_MESH_NO_POLY);
        /* step-wise: begin says so, and finish gives the same result */
        assert_int_equal(nav_mesh_find_path_begin(q, &d, far_off, ground),
                         NAV_FAILURE | NAV_BLOCKED_ENDPOINT);
        assert_int_equal(nav_mesh_find_path_finish(q, &path, &r), NAV_FAILURE | NAV_BLOCKED_ENDPOINT);
        assert_true(r.start_poly == NAV_MESH_NO_POLY && r.goal_poly == ground_poly);
        /* both on the mesh, on floors not joined: unreachable, both filled in */
        nav_vec3 upper = nav_vec3_make(3, UPPER_Y, 3);
        assert_int_equal(nav_mesh_find_path(q, &d, upper, ground, &path, &r), NAV_FAILURE | NAV_UNREACHABLE);
        assert_true(r.start_poly != NAV_MESH_NO_POLY && r.goal_poly == ground_poly);
        /* a start in the pillar goes to the upper floor round it, and the result says where */
        nav_vec3 pillar = nav_vec3_make(PILLAR_X, UPPER_Y + 0.5f, PILLAR_Z);
        assert_int_equal(nav_mesh_find_path(q, &d, pillar, upper, &path, &r), NAV_SUCCESS);
        assert_cost_equal(r.start_point.y, UPPER_Y, FLOOR_EPS);
        assert_true(hypot(r.start_point.x - PILLAR_X, r.start_point.z - PILLAR_Z) > 0.5);
        assert_true(path.points[0].x == r.start_point.x && path.points[0].y == r.start_point.y &&
                    path.points[0].z == r.start_point.z);
        assert_true(path.points[path.count - 1].x == r.goal_point.x &&
                    path.points[path.count - 1].z == r.goal_point.z);
        /* on the ground, a step above it: the points on the floor */
        assert_int_equal(nav_mesh_find_path(q, &d, ground, ground2, &path, &r), NAV_SUCCESS);
        assert_true(r.start_point.x == ground.x && r.start_point.z == ground.z);
        assert_cost_equal(r.start_point.y, 0, FLOOR_EPS);
        assert_cost_equal(r.cost, hypot(ground.x - ground2.x, ground.z - ground2.z), 1e-4);
    }
    nav_path_destroy(&path);
    nav_mesh_query_destroy(q);
    nav_mesh_destroy(mesh);
}

/* ---- Raycasts -------------------------------------------------------------------------------- */

/* A raycast reaches its end only on the end's own floor. From the upper floor towards a point of
 * the ground under it: it comes over the end on the upper floor, and stops there (t below 1, no
 * edge). From the upper floor to a point of the upper floor, and from the ground to a point of the
 * ground under the upper floor, it reaches the end, also when the end is given a step above its
 * floor. */
static void test_raycast_level(void **state)
{
    (void)state;
    nav_mesh *mesh = two_storeys();
    nav_mesh_query *q = NULL;
    assert_int_equal(nav_mesh_query_create(mesh, NULL, &q), NAV_SUCCESS);
    nav_vec3 start;
    uint32_t upper = located(mesh, nav_vec3_make(2, UPPER_Y, 2), &start);
    nav_mesh_raycast_hit hit;
    uint32_t polys[64];
    /* to the ground under the upper floor: not reached */
    nav_vec3 below = nav_vec3_make(10, 0, 3);
    assert_int_equal(nav_mesh_raycast(q, NULL, upper, start, below, &hit, polys, 64), NAV_SUCCESS);
    assert_true(hit.t < 1);
    assert_int_equal(hit.edge, NAV_MESH_NO_POLY);
    assert_cost_equal(hit.point.y, UPPER_Y, FLOOR_EPS);
    assert_true(nav_mesh_poly_contains(mesh, hit.poly, below, NULL));
    assert_int_equal(polys[hit.visited - 1], hit.poly);
    /* ... nor a step above the ground */
    below.y = 0.8f;
    assert_int_equal(nav_mesh_raycast(q, NULL, upper, start, below, &hit, NULL, 0), NAV_SUCCESS);
    assert_true(hit.t < 1);
    /* to a point of the upper floor, on it or a step above it: reached */
    for (float above = 0; above < 1; above += 0.8f) {
        nav_vec3 end = nav_vec3_make(10, UPPER_Y + above, 3);
        assert_int_equal(nav_mesh_raycast(q, NULL, upper, start, end, &hit, NULL, 0), NAV_SUCCESS);
        assert_true(hit.t == 1);
        assert_cost_equal(hit.point.y, UPPER_Y, FLOOR_EPS);
    }
    /* on the ground, from beyond the upper floor to under it: reached */
    nav_vec3 ground;
    uint32_t lower = located(mesh, nav_vec3_make(20, 0, 3), &ground);
    assert_int_equal(nav_mesh_raycast(q, NULL, lower, ground, nav_vec3_make(3, 0.5f, 3), &hit, NULL, 0),
                     NAV_SUCCESS);
    assert_true(hit.t == 1);
    assert_cost_equal(hit.point.y, 0, FLOOR_EPS);
    /* ... but not to a point of the upper floor over it */
    assert_int_equal(nav_mesh_raycast(q, NULL, lower, ground, nav_vec3_make(3, UPPER_Y, 3), &hit, NULL, 0),
                     NAV_SUCCESS);
    assert_true(hit.t < 1 && hit.edge == NAV_MESH_NO_POLY);
    assert_cost_equal(hit.point.y, 0, FLOOR_EPS);
    /* a height that is not a number */
    assert_int_equal(nav_mesh_raycast(q, NULL, lower, ground, nav_vec3_make(3, NAN, 3), &hit, NULL, 0),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    nav_mesh_query_destroy(q);
    nav_mesh_destroy(mesh);
}

/* A floor of 30 x 30 m with six pillars turned 45 degrees (walls slanted to the axes, where a point
 * on an edge rounded to floats may fall a hair outside its polygon): a character's moves along the
 * surface, each from where the last one ended, 3,000 of them towards random points a metre or so
 * away, each end in its polygon (so that the next move may start there), and the same of the walls
 * near each end. */
static void test_moves_on_slanted_walls(void **state)
{
    (void)state;
    scene *s = calloc(1, sizeof *s);
    assert_non_null(s);
    floor_quad(s, 0, 0, 30, 30, 0, true);
    for (int k = 0; k < 6; k++) {
        float cx = 5 + 10.0f * (float)(k % 3), cz = 8 + 14.0f * (float)(k / 3), r = 1.5f + 0.37f * (float)k;
        float xs[4] = {cx, cx + r, cx, cx - r}, zs[4] = {cz - r, cz, cz + r, cz};
        for (int i = 0; i < 4; i++) wall_quad(s, xs[i], zs[i], xs[(i + 1) % 4], zs[(i + 1) % 4], 0, 3);
        uint32_t t[4];
        for (int i = 0; i < 4; i++) t[i] = vertex(s, xs[i], 3, zs[i]);
        triangle(s, t[0], t[2], t[1]), triangle(s, t[0], t[3], t[2]);
    }
    nav_triangles tris = {s->v, s->nv, s->idx, s->nt, NULL};
    nav_mesh *mesh = NULL;
    assert_int_equal(
        nav_mesh_build_from_geometry(&tris, &(nav_geometry_build_desc){.agent_radius = 0.4f}, &mesh, NULL),
        NAV_SUCCESS);
    free(s);
    nav_mesh_query *q = NULL;
    assert_int_equal(nav_mesh_query_create(mesh, NULL, &q), NAV_SUCCESS);
    nav_vec3 at;
    uint32_t poly = located(mesh, nav_vec3_make(2, 0, 2), &at);
    unsigned seed = 3;
    int slid = 0;
    for (int k = 0; k < 3000; k++) {
        float dx = (float)(rand_r(&seed) % 2001) / 1000.0f - 1,
              dz = (float)(rand_r(&seed) % 2001) / 1000.0f - 1;
        nav_vec3 target = nav_vec3_make(at.x + 1.5f * dx, at.y, at.z + 1.5f * dz), moved;
        uint32_t moved_poly;
        assert_int_equal(nav_mesh_move_along_surface(q, NULL, poly, at, target, &moved, &moved_poly),
                         NAV_SUCCESS);
        assert_true(nav_mesh_poly_contains(mesh, moved_poly, moved, NULL));
        slid += nav_vec3_dist_xz(moved, target) > 1e-3f;
        nav_wall walls[8];
        uint32_t n;
        nav_status w = nav_mesh_find_walls(q, NULL, moved_poly, moved, 2, walls, 8, &n);
        assert_true(w == NAV_SUCCESS || w == (NAV_SUCCESS | NAV_BUFFER_TOO_SMALL));
        at = moved, poly = moved_poly;
    }
    assert_true(slid > 200); /* (the walls were met) */
    nav_mesh_query_destroy(q);
    nav_mesh_destroy(mesh);
}

/* ---- The sample scene (the shared data) ------------------------------------------------------- */

static nav_mesh *sample_scene(void)
{
    nav_geometry *g = NULL;
    assert_int_equal(nav_geometry_load_obj_file(test_shared("meshes/nav_test.obj"), NULL, NULL, &g),
                     NAV_SUCCESS);
    nav_triangles t = nav_geometry_triangles(g);
    nav_mesh *mesh = NULL;
    assert_int_equal(nav_mesh_build_from_geometry(&t, NULL, &mesh, NULL), NAV_SUCCESS);
    nav_geometry_destroy(g);
    return mesh;
}

/* Issue 43's raycast: on the sloping upper floor at (14, 18) towards (16, 19) on the ground 12.7 m
 * below it. The walk stays on the upper floor, which passes over the end: it must not say it reached
 * it. A raycast on the ground towards the same end reaches it. */
static void test_raycast_sample_scene(void **state)
{
    (void)state;
    nav_mesh *mesh = sample_scene();
    nav_mesh_query *q = NULL;
    assert_int_equal(nav_mesh_query_create(mesh, NULL, &q), NAV_SUCCESS);
    nav_vec3 start, end;
    uint32_t upper = located(mesh, nav_vec3_make(14, 10.5f, 18), &start);
    uint32_t ground = located(mesh, nav_vec3_make(16, -2.2f, 19), &end);
    float over;
    assert_true(nav_mesh_poly_contains(mesh, upper, end, &over));
    assert_cost_equal(over - end.y, 12.7, 0.1);
    nav_mesh_raycast_hit hit;
    assert_int_equal(nav_mesh_raycast(q, NULL, upper, start, end, &hit, NULL, 0), NAV_SUCCESS);
    assert_true(hit.t < 1);
    assert_int_equal(hit.edge, NAV_MESH_NO_POLY);
    assert_true(hit.point.y > end.y + 12);
    /* on the ground, from a point 2 m east of the end */
    nav_vec3 from;
    uint32_t poly = located(mesh, nav_vec3_make(18, -2.2f, 19), &from);
    assert_int_equal(nav_mesh_raycast(q, NULL, poly, from, end, &hit, NULL, 0), NAV_SUCCESS);
    assert_true(hit.t == 1);
    assert_int_equal(hit.poly, ground);
    nav_mesh_query_destroy(q);
    nav_mesh_destroy(mesh);
}

/* A point in the pillar of the floor 8.33 m up, round (-1.5, -9.5): it goes to that floor round the
 * pillar (it went to the ground 10.6 m under it), and a path from it starts there. */
static void test_pillar_sample_scene(void **state)
{
    (void)state;
    nav_mesh *mesh = sample_scene();
    nav_vec3 in_pillar = nav_vec3_make(-1.5f, 8.43f, -9.5f), at;
    located(mesh, in_pillar, &at);
    assert_cost_equal(at.y, 8.33, 0.05);
    assert_true(hypot(at.x - in_pillar.x, at.z - in_pillar.z) < 1);
    nav_mesh_query *q = NULL;
    assert_int_equal(nav_mesh_query_create(mesh, NULL, &q), NAV_SUCCESS);
    nav_path path;
    nav_path_init(&path, NULL);
    nav_mesh_result r;
    assert_int_equal(nav_mesh_find_path(q, NULL, in_pillar, nav_vec3_make(-1.5f, 8.4f, -11.5f), &path, &r),
                     NAV_SUCCESS);
    assert_cost_equal(r.start_point.y, 8.33, 0.05);
    for (uint32_t i = 0; i < path.count; i++) assert_cost_equal(path.points[i].y, 8.33, 0.05);
    nav_path_destroy(&path);
    nav_mesh_query_destroy(q);
    nav_mesh_destroy(mesh);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_locate_level),
        cmocka_unit_test(test_path_ends_level),
        cmocka_unit_test(test_raycast_level),
        cmocka_unit_test(test_moves_on_slanted_walls),
    };
    const struct CMUnitTest shared_tests[] = {
        cmocka_unit_test(test_raycast_sample_scene),
        cmocka_unit_test(test_pillar_sample_scene),
    };
    static const char *const needs[] = {"meshes/nav_test.obj", NULL};
    return TEST_RUN_SUITE("mesh_levels", tests, shared_tests, needs);
}
