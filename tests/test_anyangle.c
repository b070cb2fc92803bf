/* The any-angle rule (nav/anyangle.h): hand-made cases with known answers, and differential
 * checks on random maps: against dense sampling of the segment (no sample may lie inside a blocked
 * square) and against the stricter centre-to-centre rule of nav_grid_segment_cost. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "support.h"

#include "nav/anyangle.h"
#include "nav/smooth.h"

static bool seg(const nav_grid *grid, double ax, double ay, double bx, double by, double *cost)
{
    return nav_grid_anyangle_segment(grid, ax, ay, bx, by, cost);
}

static void test_blocked_centre(void **state)
{
    (void)state;
    static const char *const rows[] = {"...", ".#.", "..."};
    nav_grid *grid = test_grid_from_rows(rows, 3, NULL);
    double c = -1;
    assert_false(seg(grid, 0.5, 0.5, 2.5, 2.5, NULL)); /* through the blocked square */
    assert_true(seg(grid, 0, 1, 3, 1, &c));            /* along its top edge */
    assert_true(fabs(c - 3) < 1e-12);
    assert_true(seg(grid, 1, 0, 1, 3, &c)); /* along its left edge */
    assert_true(fabs(c - 3) < 1e-12);
    assert_false(seg(grid, 1.5, 0.5, 1.5, 2.5, NULL));
    /* touching its corner: (0.5, 1.5) -> (1.5, 0.5) passes exactly through (1, 1) */
    assert_true(seg(grid, 0.5, 1.5, 1.5, 0.5, &c));
    assert_true(fabs(c - sqrt(2)) < 1e-12);
    /* from corner to corner of the blocked square, around it and across it */
    assert_true(seg(grid, 1, 1, 2, 1, NULL));
    assert_false(seg(grid, 1, 1, 2, 2, NULL));
    /* a point inside the blocked square, on its edge, off the map */
    assert_false(seg(grid, 1.5, 1.5, 1.5, 1.5, NULL));
    assert_true(seg(grid, 1.5, 1, 1.5, 1, NULL));
    assert_false(seg(grid, -0.5, 0.5, 0.5, 0.5, NULL));
    assert_false(seg(grid, 0.5, 0.5, 3.01, 0.5, NULL));
    assert_false(seg(grid, NAN, 0.5, 0.5, 0.5, NULL));
    /* the map border is a wall one may run along */
    assert_true(seg(grid, 0, 0, 3, 0, &c));
    assert_true(fabs(c - 3) < 1e-12);
    assert_true(seg(grid, 3, 3, 3, 0, NULL));
    nav_grid_destroy(grid);
}

static void test_between_two_walls(void **state)
{
    (void)state;
    static const char *const rows[] = {"###", "###", "..."};
    nav_grid *grid = test_grid_from_rows(rows, 3, NULL);
    assert_false(seg(grid, 0, 1, 3, 1, NULL)); /* the line between two blocked rows */
    assert_true(seg(grid, 0, 2, 3, 2, NULL));  /* the wall's face */
    assert_false(seg(grid, 0, 0, 3, 0, NULL)); /* the border beside blocked squares */
    assert_false(seg(grid, 0, 2, 0, 1, NULL));
    nav_grid_destroy(grid);
}

static void test_pinch(void **state)
{
    (void)state;
    static const char *const rows[] = {".#", "#."};
    nav_grid *grid = test_grid_from_rows(rows, 2, NULL);
    assert_false(seg(grid, 0.5, 0.5, 1.5, 1.5, NULL)); /* straight through the pinch */
    assert_false(seg(grid, 0, 1, 2, 1, NULL));         /* along the line through it */
    assert_false(seg(grid, 1, 0, 1, 2, NULL));
    assert_true(seg(grid, 0.5, 0.5, 1, 1, NULL)); /* up to it is fine */
    assert_true(seg(grid, 1, 1, 1.5, 1.5, NULL));
    assert_true(seg(grid, 0, 1, 1, 1, NULL));

    nav_path path;
    nav_path_init(&path, NULL);
    nav_path_push(&path, nav_vec3_make(0.5f, 0, 0.5f), 0);
    nav_path_push(&path, nav_vec3_make(1, 0, 1), 0);
    nav_path_push(&path, nav_vec3_make(1.5f, 0, 1.5f), 0);
    assert_int_equal(nav_grid_validate_anyangle_path(grid, &path, NULL), NAV_FAILURE | NAV_INVALID_PARAM);
    /* touching the pinch and turning back is allowed, also along the edges beside it */
    path.points[2] = nav_vec3_make(0.25f, 0, 0.75f);
    double c;
    assert_int_equal(nav_grid_validate_anyangle_path(grid, &path, &c), NAV_SUCCESS);
    assert_true(fabs(c - (sqrt(0.5) + sqrt(0.75 * 0.75 + 0.25 * 0.25))) < 1e-6);
    path.points[2] = nav_vec3_make(0, 0, 1);
    assert_int_equal(nav_grid_validate_anyangle_path(grid, &path, NULL), NAV_SUCCESS);
    path.points[2] = nav_vec3_make(1, 0, 2); /* along the edge on the other side */
    assert_int_equal(nav_grid_validate_anyangle_path(grid, &path, NULL), NAV_FAILURE | NAV_INVALID_PARAM);
    nav_path_destroy(&path);
    nav_grid_destroy(grid);

    /* one blocked square at the corner is no pinch: the line may pass */
    static const char *const open_rows[] = {".#", ".."};
    grid = test_grid_from_rows(open_rows, 2, NULL);
    assert_true(seg(grid, 0.5, 0.5, 1.5, 1.5, NULL));
    assert_true(seg(grid, 0, 1, 2, 1, NULL));
    nav_grid_destroy(grid);
}

static void test_terrain_and_climb(void **state)
{
    (void)state;
    static const char *const rows[] = {"....", "2222", "...."};
    nav_grid *grid = test_grid_from_rows(rows, 3, &(nav_grid_desc){.max_climb = 1});
    nav_grid_set_terrain_cost(grid, 2, 5.0);
    double c;
    assert_true(seg(grid, 0.5, 0.5, 0.5, 2.5, &c)); /* half a cell, one cell at 5, half a cell */
    assert_true(fabs(c - 6) < 1e-12);
    assert_true(seg(grid, 0, 1, 4, 1, &c)); /* on the line between cost 1 and cost 5: the cheaper */
    assert_true(fabs(c - 4) < 1e-12);
    assert_true(seg(grid, 0, 1.5, 4, 1.5, &c));
    assert_true(fabs(c - 20) < 1e-12);
    assert_true(seg(grid, 0, 0, 4, 3, &c)); /* diagonal: 1/3 of its length in the dear row */
    assert_true(fabs(c - (5.0 / 3 + 5 * 5.0 / 3 + 5.0 / 3)) < 1e-12);

    /* a step of 2 up may not be climbed (max_climb 1), but may be stepped down */
    nav_grid_set_cell_height(grid, 2, 0, 2.0f);
    assert_false(seg(grid, 1.5, 0.5, 2.5, 0.5, NULL));
    assert_true(seg(grid, 2.5, 0.5, 1.5, 0.5, NULL));
    assert_false(seg(grid, 1.5, 1.5, 2.5, 0.5, NULL)); /* through the corner into it */
    assert_true(seg(grid, 2.5, 0.5, 3.5, 1.5, NULL));
    nav_grid_destroy(grid);
}

/* A terrain type turned blocked and back (nav_grid_set_terrain_cost), and cells set one by one: the
 * rule follows, on a grid of one cost (the walk over the free cells' bits) and of two. */
static void test_blocking_a_type(void **state)
{
    (void)state;
    static const char *const rows[] = {"......", ".2222.", "......"};
    nav_grid *grid = test_grid_from_rows(rows, 3, NULL);
    double c;
    assert_true(seg(grid, 0.5, 0.5, 5.5, 2.5, &c));
    assert_true(fabs(c - hypot(5, 2)) < 1e-12);
    assert_int_equal(nav_grid_set_terrain_cost(grid, 2, INFINITY), NAV_SUCCESS);
    assert_false(seg(grid, 0.5, 0.5, 5.5, 2.5, NULL));
    assert_true(seg(grid, 0, 1, 6, 1, NULL)); /* along the blocked row's edge */
    assert_int_equal(nav_grid_set_terrain_cost(grid, 2, 3.0), NAV_SUCCESS);
    assert_true(seg(grid, 0.5, 0.5, 5.5, 2.5, &c));
    assert_true(c > hypot(5, 2)); /* two costs: the walk that sums them */
    assert_int_equal(nav_grid_set_terrain_cost(grid, 2, 1.0), NAV_SUCCESS);
    assert_int_equal(nav_grid_set_cell(grid, 3, 1, NAV_TERRAIN_BLOCKED), NAV_SUCCESS);
    assert_false(seg(grid, 0.5, 1.5, 5.5, 1.5, NULL));
    assert_int_equal(nav_grid_set_cell(grid, 3, 1, NAV_TERRAIN_PLAIN), NAV_SUCCESS);
    assert_true(seg(grid, 0.5, 1.5, 5.5, 1.5, NULL));
    nav_grid_destroy(grid);
}

/* The world transform: points convert through origin and cell size. */
static void test_world_units(void **state)
{
    (void)state;
    static const char *const rows[] = {"..", ".#"};
    nav_grid *grid =
        test_grid_from_rows(rows, 2, &(nav_grid_desc){.cell_size = 2, .origin = nav_vec3_make(10, 3, -4)});
    nav_path path;
    nav_path_init(&path, NULL);
    nav_path_push(&path, nav_vec3_make(11, 3, -3), 0); /* centre of (0, 0) */
    nav_path_push(&path, nav_vec3_make(12, 3, -2), 0); /* the blocked square's corner (1, 1) */
    nav_path_push(&path, nav_vec3_make(11, 3, -1), 0); /* centre of (0, 1) */
    double c;
    assert_int_equal(nav_grid_validate_anyangle_path(grid, &path, &c), NAV_SUCCESS);
    assert_true(fabs(c - 2 * sqrt(0.5)) < 1e-12); /* in cells */
    path.points[1] = nav_vec3_make(13, 3, -1);    /* centre of the blocked (1, 1) */
    assert_int_equal(nav_grid_validate_anyangle_path(grid, &path, NULL), NAV_FAILURE | NAV_INVALID_PARAM);
    double x, y;
    nav_grid_world_to_units(grid, nav_vec3_make(15, 0, 0), &x, &y);
    assert_true(x == 2.5 && y == 2);
    nav_path_destroy(&path);
    nav_grid_destroy(grid);
}

static nav_grid *random_grid(unsigned *seed, int32_t w, int32_t h, int blocked_percent)
{
    nav_grid *grid = NULL;
    assert_int_equal(nav_grid_create(&(nav_grid_desc){.width = w, .height = h}, &grid), NAV_SUCCESS);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            if ((int)(rand_r(seed) % 100) < blocked_percent)
                nav_grid_set_cell(grid, x, y, NAV_TERRAIN_BLOCKED);
    return grid;
}

/* A point inside a blocked square's interior (or off the map) on the segment, found by sampling. */
static bool sample_hits_wall(const nav_grid *grid, double ax, double ay, double bx, double by)
{
    for (int i = 0; i <= 4000; i++) {
        double t = i / 4000.0, x = ax + (bx - ax) * t, y = ay + (by - ay) * t;
        double fx = floor(x), fy = floor(y);
        if (x == fx || y == fy) continue; /* on a grid line: not an interior */
        if (!nav_grid_passable(grid, (int32_t)fx, (int32_t)fy)) return true;
    }
    return false;
}

/* A sample of the segment outside every free cell's closed square (or off the map). */
static bool sample_outside_free(const nav_grid *grid, double ax, double ay, double bx, double by)
{
    for (int i = 0; i <= 4000; i++) {
        double t = i / 4000.0, x = ax + (bx - ax) * t, y = ay + (by - ay) * t;
        int32_t fx = (int32_t)floor(x), fy = (int32_t)floor(y);
        bool covered = false;
        for (int32_t cx = x == fx ? fx - 1 : fx; cx <= fx; cx++)
            for (int32_t cy = y == fy ? fy - 1 : fy; cy <= fy; cy++)
                covered |= nav_grid_passable(grid, cx, cy);
        if (!covered) return true;
    }
    return false;
}

/* A pinch vertex strictly inside the segment. */
static bool passes_pinch(const nav_grid *grid, double ax, double ay, double bx, double by)
{
    for (int32_t x = 1; x < nav_grid_width(grid); x++)
        for (int32_t y = 1; y < nav_grid_height(grid); y++) {
            bool nw = nav_grid_passable(grid, x - 1, y - 1), ne = nav_grid_passable(grid, x, y - 1);
            bool sw = nav_grid_passable(grid, x - 1, y), se = nav_grid_passable(grid, x, y);
            if (!((nw && se && !ne && !sw) || (ne && sw && !nw && !se))) continue;
            double cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
            double dot = (x - ax) * (bx - ax) + (y - ay) * (by - ay),
                   len2 = (bx - ax) * (bx - ax) + (by - ay) * (by - ay);
            if (cross == 0 && dot > 0 && dot < len2) return true;
        }
    return false;
}

/* Random segments between half-integer points on random maps of w x h cells (seeded), checked
 * against a definition of the rule by sampling: the rule accepts a segment exactly when no sample
 * lies outside the free squares' closures and no pinch lies inside it. Counts what was accepted,
 * refused, and refused without a sample inside a blocked square (on grid lines or at pinches). */
static void against_sampling(unsigned seed, int32_t w, int32_t h, int maps, int segments, int accepted_min,
                             int refused_min, int on_lines_min)
{
    int accepted = 0, refused = 0, refused_on_lines = 0;
    for (int m = 0; m < maps; m++) {
        nav_grid *grid = random_grid(&seed, w, h, 10 + m % 30);
        for (int k = 0; k < segments; k++) {
            double ax = (rand_r(&seed) % (2 * w + 1)) * 0.5, ay = (rand_r(&seed) % (2 * h + 1)) * 0.5;
            double bx = (rand_r(&seed) % (2 * w + 1)) * 0.5, by = (rand_r(&seed) % (2 * h + 1)) * 0.5;
            double c;
            bool ok = seg(grid, ax, ay, bx, by, &c);
            bool expected = !sample_outside_free(grid, ax, ay, bx, by) && !passes_pinch(grid, ax, ay, bx, by);
            if (ok != expected)
                fprintf(stderr, "(%g, %g) -> (%g, %g): rule %d, sampling %d\n", ax, ay, bx, by, ok, expected);
            assert_int_equal(ok, expected);
            if (ok) {
                accepted++;
                assert_true(fabs(c - hypot(bx - ax, by - ay)) < 1e-9);
                /* and the reverse is walkable at the same cost (no climbs here) */
                double r;
                assert_true(seg(grid, bx, by, ax, ay, &r));
                assert_true(fabs(r - c) < 1e-9);
            } else {
                refused++;
                refused_on_lines += !sample_hits_wall(grid, ax, ay, bx, by);
            }
        }
        nav_grid_destroy(grid);
    }
    assert_true(accepted > accepted_min && refused > refused_min && refused_on_lines > on_lines_min);
}

static void test_random_against_sampling(void **state)
{
    (void)state;
    against_sampling(7, 12, 10, 60, 400, 2000, 2000, 20);
}

/* The same on maps wider than a word of the free cells' bits (rows of 140 cells): segments cross
 * from word to word. */
static void test_random_wide(void **state)
{
    (void)state;
    against_sampling(23, 140, 7, 12, 150, 50, 100, 5);
}

/* A grid of one cost walks the free cells' bits; with two costs the walk reads the cells' terrain
 * and sums their costs. Both decide by the same products, so on the same free cells they accept
 * the same segments, whatever the points: integers, halves and arbitrary doubles, on maps wider
 * and taller than a word of bits. */
static void test_bits_against_terrain(void **state)
{
    (void)state;
    unsigned seed = 31;
    const int32_t sizes[][2] = {{12, 10}, {150, 9}, {9, 140}, {70, 70}};
    long compared = 0, accepted = 0;
    for (int m = 0; m < 24; m++) {
        int32_t w = sizes[m % 4][0], h = sizes[m % 4][1];
        nav_grid *one = random_grid(&seed, w, h, 3 + m % 20), *two = NULL;
        assert_int_equal(nav_grid_create(&(nav_grid_desc){.width = w, .height = h}, &two), NAV_SUCCESS);
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++)
                nav_grid_set_cell(two, x, y, nav_grid_passable(one, x, y) ? 2 : NAV_TERRAIN_BLOCKED);
        nav_grid_set_terrain_cost(two, 2, 1.0);
        nav_grid_set_terrain_cost(two, 3, 2.0);
        for (int32_t k = 0; k < w * h; k++) /* one dearer cell, so that the costs differ */
            if (nav_grid_passable(two, k % w, k / w)) {
                nav_grid_set_cell(two, k % w, k / w, 3);
                break;
            }
        assert_true(nav_grid_uniform_cost(one) > 0 && nav_grid_uniform_cost(two) == 0);
        for (int i = 0; i < 3000; i++) {
            double p[4];
            for (int j = 0; j < 4; j++) {
                double side = j % 2 ? h : w, r = (double)rand_r(&seed) / RAND_MAX;
                int kind = (int)(rand_r(&seed) % 3);
                p[j] = kind == 0 ? floor(r * side + 0.5) : kind == 1 ? floor(r * 2 * side) * 0.5 : r * side;
            }
            bool a = seg(one, p[0], p[1], p[2], p[3], NULL), b = seg(two, p[0], p[1], p[2], p[3], NULL);
            if (a != b)
                fprintf(stderr, "(%.17g, %.17g) -> (%.17g, %.17g): one cost %d, two %d\n", p[0], p[1], p[2],
                        p[3], a, b);
            assert_int_equal(a, b);
            compared++;
            accepted += a;
        }
        nav_grid_destroy(one);
        nav_grid_destroy(two);
    }
    assert_true(accepted > compared / 10 && accepted < compared * 9 / 10);
}

/* Centre to centre, the any-angle rule accepts everything the smoother's stricter rule accepts, at
 * the same cost, and differs only where the segment touches a blocked corner. */
static void test_random_against_smoother(void **state)
{
    (void)state;
    unsigned seed = 11;
    int both = 0, only_anyangle = 0;
    for (int m = 0; m < 60; m++) {
        nav_grid *grid = random_grid(&seed, 14, 11, 5 + m % 35);
        for (int k = 0; k < 400; k++) {
            int32_t ax = rand_r(&seed) % 14, ay = rand_r(&seed) % 11, bx = rand_r(&seed) % 14,
                    by = rand_r(&seed) % 11;
            if (!nav_grid_passable(grid, ax, ay) || !nav_grid_passable(grid, bx, by)) continue;
            double strict, loose;
            bool s = nav_grid_segment_cost(grid, ax, ay, bx, by, &strict);
            bool a = seg(grid, ax + 0.5, ay + 0.5, bx + 0.5, by + 0.5, &loose);
            if (s) {
                assert_true(a);
                assert_true(fabs(strict - loose) < 1e-9);
                both++;
            } else if (a) {
                only_anyangle++;
            }
        }
        nav_grid_destroy(grid);
    }
    assert_true(both > 1000 && only_anyangle > 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocked_centre),
        cmocka_unit_test(test_between_two_walls),
        cmocka_unit_test(test_pinch),
        cmocka_unit_test(test_terrain_and_climb),
        cmocka_unit_test(test_blocking_a_type),
        cmocka_unit_test(test_world_units),
        cmocka_unit_test(test_random_against_sampling),
        cmocka_unit_test(test_random_wide),
        cmocka_unit_test(test_bits_against_terrain),
        cmocka_unit_test(test_random_against_smoother),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
