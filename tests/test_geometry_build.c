/* The build from level geometry, stage by stage (mesh/bake/voxel.h; docs/geometry_build.md): each
 * stage on small scenes of boxes and quads whose answer is known cell by cell. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "levelgen.h"
#include "support.h"
#include "scene.h"

#include "nav/geometry.h"
#include "nav/io.h"
#include "nav/mesh.h"
#include "nav/path.h"
#include "voxel.h"

/* ---- Scenes ---------------------------------------------------------------------------------- */

/* The build's parameters in these tests: cells of 0.25, steps of 0.125 (both exact in binary, so
 * that quads on round heights land on step lines), an agent 2 high (16 steps) that climbs 0.5
 * (4 steps). */
#define CELL   0.25f
#define STEP   0.125f
#define HEIGHT 16u
#define CLIMB  4u

/* The heightfield of the scene over the box [lo, hi], rasterised and filtered. */
static nav__heightfield filtered(const scene *s, nav_vec3 lo, nav_vec3 hi)
{
    nav_triangles t = {s->v, s->nv, s->idx, s->nt, NULL};
    assert_int_equal(nav_triangles_check(&t, NULL), NAV_SUCCESS);
    nav__heightfield hf;
    assert_int_equal(nav__heightfield_init(&hf, lo, hi, CELL, STEP), NAV_SUCCESS);
    assert_true(nav__rasterize(&hf, &t, NULL, 0, 45, 1));
    nav__filter_walkable(&hf, HEIGHT, CLIMB, NULL);
    return hf;
}

static nav__open_space open_space(const scene *s, nav_vec3 lo, nav_vec3 hi, uint32_t radius)
{
    nav__heightfield hf = filtered(s, lo, hi);
    nav__open_space os;
    assert_true(nav__open_space_build(&os, &hf, HEIGHT, CLIMB, NULL));
    nav__heightfield_free(&hf);
    assert_true(nav__open_space_erode(&os, radius, NULL));
    return os;
}

/* The walkable top of column (x, z) with its floor at `floor` steps: its index, or NAV__NO_SPAN. */
static uint32_t top_at(const nav__open_space *os, int32_t x, int32_t z, int floor)
{
    size_t c = (size_t)z * (size_t)os->width + (size_t)x;
    for (uint32_t i = os->column_first[c]; i < os->column_first[c + 1]; i++)
        if (os->floor[i] == floor && os->area[i] != 0) return i;
    return NAV__NO_SPAN;
}

static uint32_t walkable_count(const nav__open_space *os)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < os->count; i++) n += os->area[i] != 0;
    return n;
}

/* ---- Stage 2 and 3: tops an agent stands on, and their neighbours ------------------------------ */

/* A plane of 10 x 10 at y = 0 over a box from y = -1: 40 x 40 columns under it, one top each at
 * step 9 ([8, 9): y = 0 lies on a step line). The plane's outermost columns are ledges (beside
 * them the box's side, or an empty column: a drop), so 38 x 38 tops remain, each linked to its
 * four neighbours but at the edge. */
static void test_plane_tops(void **state)
{
    (void)state;
    scene *s = calloc(1, sizeof *s);
    floor_quad(s, 0, 0, 10, 10, 0, true);
    nav__open_space os = open_space(s, (nav_vec3){0, -1, 0}, (nav_vec3){10, 3, 10}, 0);
    assert_int_equal(os.width, 41);
    assert_int_equal(os.count, 38 * 38);
    for (int32_t z = 0; z < os.depth; z++)
        for (int32_t x = 0; x < os.width; x++) {
            bool inside = x >= 1 && x <= 38 && z >= 1 && z <= 38;
            uint32_t i = top_at(&os, x, z, 9);
            assert_true((i != NAV__NO_SPAN) == inside);
            if (!inside) continue;
            assert_int_equal(os.room[i], 0xffff);
            for (int d = 0; d < NAV__OPEN_SIDES; d++) {
                int32_t nx = x + nav__side_x[d], nz = z + nav__side_z[d];
                bool linked = nx >= 1 && nx <= 38 && nz >= 1 && nz <= 38;
                assert_int_equal(os.side[i][d], linked ? top_at(&os, nx, nz, 9) : NAV__NO_SPAN);
            }
        }
    nav__open_space_free(&os);
    free(s);
}

/* A slab over the strip 2 <= x < 5 of a plane: at 1.5 (12 steps of room, under the agent's 16) the
 * floor beneath is not walkable; at 2.5 (20 steps) it is. The slab's top is walkable in both, but
 * its edges are ledges. */
static void test_low_ceiling(void **state)
{
    (void)state;
    for (int high = 0; high < 2; high++) {
        scene *s = calloc(1, sizeof *s);
        float y = high ? 2.5f : 1.5f;
        floor_quad(s, 0, 0, 10, 10, 0, true);
        floor_quad(s, 2, 0, 5, 10, y, false); /* its underside */
        floor_quad(s, 2, 0, 5, 10, y + STEP, true);
        nav__open_space os = open_space(s, (nav_vec3){0, -1, 0}, (nav_vec3){10, 4, 10}, 0);
        int floor_slab = (int)((y + STEP + 1) / STEP) + 1;
        for (int32_t z = 1; z <= 38; z++)
            for (int32_t x = 1; x <= 38; x++) {
                bool under = x >= 8 && x < 20;
                uint32_t i = top_at(&os, x, z, 9);
                assert_true((i != NAV__NO_SPAN) == (!under || high));
                if (under && high) assert_int_equal(os.room[i], (int)(2.5f / STEP) - 1);
                /* the slab's own top, but for its rim along x (along z it ends with the plane) */
                bool slab_top = x >= 9 && x < 19;
                assert_true((top_at(&os, x, z, floor_slab) != NAV__NO_SPAN) == slab_top);
            }
        nav__open_space_free(&os);
        free(s);
    }
}

/* Stairs of four steps up along x, each 1 deep: with risers of 0.375 (3 steps) the treads link to
 * each other; with 0.625 (5 steps, over the climb of 4) they do not, and each tread's front row
 * (a drop of 5 beside it) is a ledge. */
static void test_stairs(void **state)
{
    (void)state;
    for (int tall = 0; tall < 2; tall++) {
        scene *s = calloc(1, sizeof *s);
        float rise = tall ? 0.625f : 0.375f;
        floor_quad(s, 0, 0, 10, 10, 0, true);
        for (int k = 1; k <= 4; k++) box(s, 2.0f + (float)k, 0, 0, 10, rise * (float)k, 10);
        nav__open_space os = open_space(s, (nav_vec3){0, -1, 0}, (nav_vec3){10, 4, 10}, 0);
        int steps = (int)(rise / STEP);
        for (int32_t z = 2; z <= 37; z++)
            for (int k = 0; k < 4; k++) {
                /* the last column of tread k (x < 3 + k) and the first of tread k + 1 */
                int32_t x = 4 * (3 + k) - 1;
                uint32_t a = top_at(&os, x, z, 9 + k * steps), b = top_at(&os, x + 1, z, 9 + (k + 1) * steps);
                assert_true(a != NAV__NO_SPAN);
                if (tall) {
                    assert_true(b == NAV__NO_SPAN); /* the ledge */
                    assert_true(os.side[a][0] == NAV__NO_SPAN);
                } else {
                    assert_true(b != NAV__NO_SPAN);
                    assert_int_equal(os.side[a][0], b);
                    assert_int_equal(os.side[b][2], a);
                }
            }
        nav__open_space_free(&os);
        free(s);
    }
}

/* A plank floating 0.25 (2 steps) over the plane, facing down only (so not walkable as rasterised):
 * a low obstacle, stepped onto with the plane's area; the plane under it then has no room. A plank
 * at 0.75 (6 steps, over the climb) stays an obstacle and the plane under it keeps no room either. */
static void test_low_obstacle(void **state)
{
    (void)state;
    for (int high = 0; high < 2; high++) {
        scene *s = calloc(1, sizeof *s);
        float y = high ? 0.75f : 0.25f;
        floor_quad(s, 0, 0, 10, 10, 0, true);
        floor_quad(s, 4, 0, 6, 10, y, false);
        nav__open_space os = open_space(s, (nav_vec3){0, -1, 0}, (nav_vec3){10, 3, 10}, 0);
        int plank = (int)((y + 1) / STEP) + 1;
        for (int32_t z = 1; z <= 38; z++)
            for (int32_t x = 1; x <= 38; x++) {
                bool over = x >= 16 && x < 24;
                assert_true((top_at(&os, x, z, 9) != NAV__NO_SPAN) == !over);
                assert_true((top_at(&os, x, z, plank) != NAV__NO_SPAN) == (over && !high));
            }
        nav__open_space_free(&os);
        free(s);
    }
}

/* ---- Stage 4: erosion and volumes ------------------------------------------------------------ */

/* The 2-3 chamfer distance between two cells (2 a side step, 3 a diagonal one). */
static uint32_t chamfer(int32_t dx, int32_t dz)
{
    uint32_t ax = (uint32_t)abs(dx), az = (uint32_t)abs(dz);
    uint32_t lo = ax < az ? ax : az, hi = ax < az ? az : ax;
    return 3 * lo + 2 * (hi - lo);
}

/* Erosion against a brute-force reference: the plane's tops (at step 9) before erosion, each one's
 * distance the least chamfer distance to a top with a side not linked to a top (the edge), kept
 * when at least 2 * radius. Right where the straight chamfer way to the nearest edge top never
 * leaves the tops (a plane with convex holes: crossing a hole passes its edge, nearer). The plane
 * alone keeps exactly 34 x 34 of its 38 x 38 tops. A box of 2 x 2 x 1.5 on it (columns and rows
 * 16 to 24: its far walls lie on column lines, so in the columns after them, and its far corner
 * cell (24, 24), which it only touches at a point, stays floor; hollow, but too low inside to stand
 * in) makes a hole that grows by the radius, with rounded corners. */
static void test_erosion(void **state)
{
    (void)state;
    for (int with_box = 0; with_box < 2; with_box++) {
        scene *s = calloc(1, sizeof *s);
        floor_quad(s, 0, 0, 10, 10, 0, true);
        if (with_box) box(s, 4, 0, 4, 6, 1.5f, 6);
        nav__open_space all = open_space(s, (nav_vec3){0, -1, 0}, (nav_vec3){10, 4, 10}, 0);
        nav__open_space os = open_space(s, (nav_vec3){0, -1, 0}, (nav_vec3){10, 4, 10}, 2);
        int32_t w = all.width, edges = 0, *edge_x = malloc(sizeof(int32_t) * all.count),
                *edge_z = malloc(sizeof(int32_t) * all.count);
        for (int32_t z = 0; z < all.depth; z++)
            for (int32_t x = 0; x < w; x++) {
                uint32_t i = top_at(&all, x, z, 9);
                if (i == NAV__NO_SPAN) continue;
                bool edge = false;
                for (int d = 0; d < NAV__OPEN_SIDES; d++) edge |= all.side[i][d] == NAV__NO_SPAN;
                if (edge) edge_x[edges] = x, edge_z[edges] = z, edges++;
            }
        uint32_t kept_count = 0;
        for (int32_t z = 0; z < all.depth; z++)
            for (int32_t x = 0; x < w; x++) {
                if (top_at(&all, x, z, 9) == NAV__NO_SPAN) {
                    assert_true(top_at(&os, x, z, 9) == NAV__NO_SPAN);
                    continue;
                }
                uint32_t dist = UINT32_MAX;
                for (int32_t e = 0; e < edges; e++) {
                    uint32_t d = chamfer(x - edge_x[e], z - edge_z[e]);
                    dist = d < dist ? d : dist;
                }
                assert_int_equal(top_at(&os, x, z, 9) != NAV__NO_SPAN, dist >= 4);
                kept_count += dist >= 4;
            }
        if (!with_box)
            assert_int_equal(kept_count, 34 * 34);
        else {
            assert_int_equal(top_at(&all, 24, 24, 9) != NAV__NO_SPAN, 1);
            assert_int_equal(top_at(&os, 14, 15, 9), NAV__NO_SPAN); /* 3 from (15, 16) */
            assert_true(top_at(&os, 14, 14, 9) != NAV__NO_SPAN);    /* 5 from (15, 16) and (16, 15) */
            assert_true(kept_count < 34 * 34 - 12 * 12);
        }
        /* the box's top (columns 17 to 23 after its rim; its far walls are no drop) keeps 3 x 3 */
        uint32_t top_count = 0;
        for (int32_t z = 0; z < os.depth; z++)
            for (int32_t x = 0; x < w; x++) {
                bool on = top_at(&os, x, z, 21) != NAV__NO_SPAN;
                assert_true(!on || (x >= 19 && x <= 21 && z >= 19 && z <= 21));
                top_count += on;
            }
        assert_int_equal(top_count, with_box ? 9 : 0);
        assert_int_equal(walkable_count(&os), kept_count + top_count);
        free(edge_x);
        free(edge_z);
        nav__open_space_free(&all);
        nav__open_space_free(&os);
        free(s);
    }
}

/* A marked volume: a diamond around (5, 5) of radius 2 gives area 7 to the tops whose centres lie in
 * it and whose floor is within its heights; one above the floor marks nothing; area 0 takes them. */
static void test_volumes(void **state)
{
    (void)state;
    scene *s = calloc(1, sizeof *s);
    floor_quad(s, 0, 0, 10, 10, 0, true);
    nav__open_space os = open_space(s, (nav_vec3){0, -1, 0}, (nav_vec3){10, 3, 10}, 0);
    float diamond[] = {5, 3, 7, 5, 5, 7, 3, 5};
    nav__open_space_mark(&os, diamond, 4, 0.5f, 2, 7);
    for (uint32_t i = 0; i < os.count; i++) assert_int_equal(os.area[i], 1);
    nav__open_space_mark(&os, diamond, 4, -0.5f, 0.5f, 7);
    uint32_t marked = 0, expected = 0;
    for (int32_t z = 1; z <= 38; z++)
        for (int32_t x = 1; x <= 38; x++) {
            float cx = ((float)x + 0.5f) * CELL, cz = ((float)z + 0.5f) * CELL;
            bool in = fabsf(cx - 5) + fabsf(cz - 5) <= 2;
            expected += in;
            assert_int_equal(os.area[top_at(&os, x, z, 9)], in ? 7 : 1);
        }
    for (uint32_t i = 0; i < os.count; i++) marked += os.area[i] == 7;
    assert_int_equal(marked, expected);
    assert_true(expected > 100);
    nav__open_space_mark(&os, diamond, 4, -0.5f, 0.5f, 0);
    assert_int_equal(walkable_count(&os), 38 * 38 - expected);
    nav__open_space_free(&os);
    free(s);
}

/* ---- Stages 5 and 6: regions and their outlines ---------------------------------------------- */

/* Twice the signed area of points[0 .. n - 1] as a polygon (cells squared; positive clockwise as
 * seen from above with z down). */
static int64_t twice_area(const nav__contour_point *p, uint32_t n)
{
    int64_t sum = 0;
    for (uint32_t i = 0, j = n - 1; i < n; j = i++)
        sum += (int64_t)p[j].x * p[i].z - (int64_t)p[i].x * p[j].z;
    return sum;
}

/* Checks regions and outlines of an open space: every region one area type, connected over links
 * and never two tops of one column; with max_error 0 each outline encloses exactly its region's
 * cells (the shoelace area equals the count: no hole, no overlap); and, simplified, every edge
 * between two regions is the reverse of an edge of the other's outline. */
static void check_regions(nav__open_space *os, float max_error, float max_edge)
{
    uint32_t *cells = calloc(os->region_count + 1, sizeof *cells);
    for (int32_t z = 0; z < os->depth; z++)
        for (int32_t x = 0; x < os->width; x++) {
            size_t c = (size_t)z * (size_t)os->width + (size_t)x;
            for (uint32_t i = os->column_first[c]; i < os->column_first[c + 1]; i++) {
                uint32_t r = os->region[i];
                assert_true((r == 0) == (os->area[i] == 0));
                assert_true(r <= os->region_count);
                cells[r]++;
                for (uint32_t j = i + 1; j < os->column_first[c + 1]; j++)
                    assert_true(r == 0 || os->region[j] != r);
            }
        }
    nav__contours exact, simple;
    assert_int_equal(nav__contours_build(&exact, os, 0, 0, UINT64_MAX), NAV_SUCCESS);
    assert_int_equal(nav__contours_build(&simple, os, max_error, max_edge, UINT64_MAX), NAV_SUCCESS);
    for (uint32_t r = 1; r <= os->region_count; r++) {
        uint32_t first = exact.first[r - 1], n = exact.first[r] - first;
        assert_true(cells[r] > 0);
        assert_true(n >= 4);
        assert_int_equal(twice_area(exact.points + first, n), 2 * (int64_t)cells[r]);
        first = simple.first[r - 1], n = simple.first[r] - first;
        assert_true(n >= 3);
        for (uint32_t k = 0; k < n; k++) {
            const nav__contour_point *a = &simple.points[first + k], *b = &simple.points[first + (k + 1) % n];
            if (a->neighbour == 0) continue;
            uint32_t o = a->neighbour, of = simple.first[o - 1], on = simple.first[o] - of;
            bool twin = false;
            for (uint32_t m = 0; m < on && !twin; m++) {
                const nav__contour_point *c = &simple.points[of + m], *d = &simple.points[of + (m + 1) % on];
                twin = c->neighbour == r && c->x == b->x && c->z == b->z && d->x == a->x && d->z == a->z;
            }
            assert_true(twin);
        }
    }
    nav__contours_free(&exact);
    nav__contours_free(&simple);
    free(cells);
}

/* A plane: one region, outlined by 4 points. With a box on it: four regions (the rows before the
 * box, the runs either side of it, the rows after), each outline closed round its cells. */
static void test_regions_and_contours(void **state)
{
    (void)state;
    for (int with_box = 0; with_box < 2; with_box++) {
        scene *s = calloc(1, sizeof *s);
        floor_quad(s, 0, 0, 10, 10, 0, true);
        if (with_box) box(s, 4, 0, 4, 6, 1.5f, 6);
        nav__open_space os = open_space(s, (nav_vec3){0, -1, 0}, (nav_vec3){10, 4, 10}, 2);
        assert_true(nav__open_space_drop_islands(&os, 16, NULL)); /* the box's top: 9 */
        assert_true(nav__open_space_partition(&os));
        assert_int_equal(os.region_count, with_box ? 4 : 1);
        check_regions(&os, 1.3f, 12);
        nav__contours c;
        assert_int_equal(nav__contours_build(&c, &os, 1.3f, 0, UINT64_MAX), NAV_SUCCESS);
        if (!with_box) {
            assert_int_equal(c.first[1], 4);
            assert_int_equal(twice_area(c.points, 4), 2 * 34 * 34);
        }
        nav__contours_free(&c);
        /* within a room of bytes (the build's share of max_memory): its fixed arrays, then its outlines
         * as they grow; short of either, NAV_TOO_LARGE and nothing made */
        uint64_t fixed = 8 * (uint64_t)os.count + 9 * ((uint64_t)os.region_count + 1) + 6 * 64;
        uint64_t rooms[3] = {fixed - 1, fixed + 100, fixed + 64 * 1024};
        for (int k = 0; k < 3; k++) {
            nav_status st = nav__contours_build(&c, &os, 1.3f, 0, rooms[k]);
            assert_int_equal(st, k < 2 ? NAV_FAILURE | NAV_TOO_LARGE : NAV_SUCCESS);
            if (k < 2) assert_null(c.points);
            nav__contours_free(&c);
        }
        nav__open_space_free(&os);
        free(s);
    }
}

/* A level: the sample scene of Recast's demo, nav_test.obj (the shared data: real), or the generated
 * level (levelgen.h) that stands in for it. */
static nav_geometry *load_level(bool real)
{
    nav_geometry *g = NULL;
    if (real) {
        assert_int_equal(nav_geometry_load_obj_file(test_shared("meshes/nav_test.obj"), NULL, NULL, &g),
                         NAV_SUCCESS);
        return g;
    }
    test_level level;
    test_level_generate(&level);
    size_t size;
    char *text = test_level_obj(&level, &size);
    assert_int_equal(nav_geometry_load_obj(text, size, "level.obj", NULL, NULL, &g), NAV_SUCCESS);
    free(text);
    test_level_destroy(&level);
    return g;
}

/* The open space of a level (nav_test.obj: 258 rows of 0.3; the generated one 300) with RecastDemo's
 * agent (steps of 0.2, height 2.0, climb 0.9), before erosion. */
static nav__open_space sample_open_space(bool real)
{
    nav_geometry *g = load_level(real);
    nav_triangles t = nav_geometry_triangles(g);
    nav_vec3 lo, hi;
    assert_true(nav_triangles_bounds(&t, &lo, &hi));
    nav__heightfield hf;
    assert_int_equal(nav__heightfield_init(&hf, lo, hi, 0.3f, 0.2f), NAV_SUCCESS);
    assert_true(hf.depth >= 256);
    assert_true(nav__rasterize(&hf, &t, NULL, 0, 45, 4));
    nav__filter_walkable(&hf, 10, 4, NULL);
    nav__open_space os;
    assert_true(nav__open_space_build(&os, &hf, 10, 4, NULL));
    nav__heightfield_free(&hf);
    nav_geometry_destroy(g);
    return os;
}

/* A level with RecastDemo's agent (radius 0.6): regions and outlines checked as above. */
static void regions_of_level(bool real)
{
    nav__open_space os = sample_open_space(real);
    assert_true(nav__open_space_erode(&os, 2, NULL));
    assert_true(nav__open_space_drop_islands(&os, 64, NULL));
    assert_true(nav__open_space_partition(&os));
    assert_true(os.region_count > 20);
    check_regions(&os, 1.3f, 40);
    nav__open_space_free(&os);
}

/* A stage of the open space that runs in bands of rows on a pool's threads. */
typedef bool (*banded_stage)(nav__open_space *os, uint32_t arg, nav__pool *pool);

/* Runs the stage with each arg on the open space as it is, alone and on 2 and 3 threads: the same
 * tops taken every time; how many it took and kept alone, for each arg, in taken and kept. */
static void check_bands(nav__open_space *os, banded_stage stage, const uint32_t *args, size_t count,
                        uint32_t *taken, uint32_t *kept)
{
    uint8_t *before = malloc(os->count), *alone = malloc(os->count);
    memcpy(before, os->area, os->count);
    for (size_t k = 0; k < count; k++) {
        assert_true(stage(os, args[k], NULL));
        memcpy(alone, os->area, os->count);
        taken[k] = kept[k] = 0;
        for (uint32_t i = 0; i < os->count; i++)
            taken[k] += before[i] != 0 && alone[i] == 0, kept[k] += alone[i] != 0;
        for (uint32_t threads = 2; threads <= 3; threads++) {
            memcpy(os->area, before, os->count);
            nav__pool pool;
            nav__pool_start_exact(&pool, threads, true);
            assert_true(stage(os, args[k], &pool));
            nav__pool_stop(&pool);
            assert_memory_equal(os->area, alone, os->count);
        }
        memcpy(os->area, before, os->count);
    }
    free(before);
    free(alone);
}

/* Erosion in bands of rows on threads (a level of 258 rows or more: 8 bands) takes the same tops as
 * erosion over all rows at once, whatever the radius: each band looks radius rows past its own. */
static void erosion_bands(bool real)
{
    nav__open_space os = sample_open_space(real);
    const uint32_t radii[] = {1, 2, 3, 6, 13};
    uint32_t taken[5], kept[5];
    check_bands(&os, nav__open_space_erode, radii, 5, taken, kept);
    for (int k = 0; k < 5; k++) assert_true(taken[k] > 0 && kept[k] > 0);
    nav__open_space_free(&os);
}

/* Islands dropped in bands of rows on threads, the pieces then joined across the bands: the same
 * tops go as in one pass over all rows, whatever the least piece (pieces that cross the bands' lines
 * among them). */
static void islands_bands(bool real)
{
    nav__open_space os = sample_open_space(real);
    assert_true(nav__open_space_erode(&os, 2, NULL));
    const uint32_t least[] = {2, 64, 1000, 5000, 12000};
    uint32_t taken[5], kept[5];
    check_bands(&os, nav__open_space_drop_islands, least, 5, taken, kept);
    for (int k = 0; k < 5; k++) assert_true((k == 0 || taken[k] > 0) && kept[k] > 0);
    nav__open_space_free(&os);
}

/* ---- The whole build (nav_mesh_build_from_geometry) ------------------------------------------ */

/* The build's options for these scenes. */
static nav_geometry_build_desc scene_desc(float radius)
{
    return (nav_geometry_build_desc){.cell_size = CELL,
                                     .cell_height = STEP,
                                     .agent_height = HEIGHT * STEP,
                                     .agent_climb = CLIMB * STEP,
                                     .agent_radius = radius > 0 ? radius : -1,
                                     .max_edge_error = 1.3f * CELL};
}

static double mesh_area(const nav_mesh *mesh)
{
    double sum = 0;
    for (uint32_t p = 0; p < nav_mesh_poly_count(mesh); p++) {
        nav_mesh_poly_info info;
        assert_true(nav_mesh_poly(mesh, p, &info));
        double twice = 0;
        for (uint32_t i = 0, j = info.vert_count - 1; i < info.vert_count; j = i++) {
            nav_vec3 a = nav_mesh_vert(mesh, info.verts[j]), b = nav_mesh_vert(mesh, info.verts[i]);
            twice += (double)a.x * b.z - (double)b.x * a.z;
        }
        sum += fabs(twice) / 2;
    }
    return sum;
}

/* A mesh the MESH chunk's reader accepts (each polygon convex and wound right, adjacency
 * symmetric, links inside their polygons), read back the same. */
static void check_chunk(const nav_mesh *mesh)
{
    nav_writer w;
    nav_writer_init(&w, NULL);
    assert_int_equal(nav_mesh_write_chunk(mesh, &w), NAV_SUCCESS);
    nav_mesh *back = NULL;
    assert_int_equal(nav_mesh_read_chunk(w.data, w.size, NULL, NULL, &back), NAV_SUCCESS);
    assert_int_equal(nav_mesh_poly_count(back), nav_mesh_poly_count(mesh));
    nav_mesh_destroy(back);
    nav_writer_destroy(&w);
}

static nav_mesh *built(const scene *s, const nav_geometry_build_desc *d, nav_geometry_build_stats *stats)
{
    nav_triangles t = {s->v, s->nv, s->idx, s->nt, NULL};
    nav_mesh *mesh = NULL;
    assert_int_equal(nav_mesh_build_from_geometry(&t, d, &mesh, stats), NAV_SUCCESS);
    check_chunk(mesh);
    return mesh;
}

/* A plane of 10 x 10 (40 x 40 cells): its outer cells are ledges, then the radius of 2 cells goes,
 * so the mesh covers the plane eroded by the radius and a cell, 8.5 x 8.5, in one polygon; with no
 * radius, 9.5 x 9.5. */
static void test_build_plane(void **state)
{
    (void)state;
    scene *s = calloc(1, sizeof *s);
    floor_quad(s, 0, 0, 10, 10, 0, true);
    for (int eroded = 0; eroded < 2; eroded++) {
        nav_geometry_build_desc d = scene_desc(eroded ? 0.5f : 0);
        nav_geometry_build_stats st;
        nav_mesh *mesh = built(s, &d, &st);
        double side = eroded ? 8.5 : 9.5;
        assert_cost_equal(mesh_area(mesh), side * side, 1e-9);
        assert_int_equal(nav_mesh_poly_count(mesh), 1);
        assert_int_equal(st.tops, 38 * 38);
        assert_int_equal(st.regions, 1);
        nav_mesh_destroy(mesh);
    }
    free(s);
}

/* Two storeys: a ground floor of 20 x 10 at y = 0, an upper floor (a slab 2.5 up, room enough under
 * it) over its first half, and a ramp 4 wide from the upper floor's edge down to the ground at
 * x = 16. From a point of the upper floor to the point of the ground right under it, the path goes
 * down the ramp and back under the slab beside it: at least twice the way to the ramp's foot. (The
 * heights of points inside polygons are checked with the build's heights, stage 8, not yet built.) */
static void test_build_two_storeys(void **state)
{
    (void)state;
    scene *s = calloc(1, sizeof *s);
    floor_quad(s, 0, 0, 20, 10, 0, true);
    floor_quad(s, 0, 0, 10, 10, 2.5f, false);
    floor_quad(s, 0, 0, 10, 10, 2.5f + STEP, true);
    uint32_t a = vertex(s, 10, 2.5f + STEP, 0), b = vertex(s, 10, 2.5f + STEP, 4), c = vertex(s, 16, 0, 4),
             e = vertex(s, 16, 0, 0);
    triangle(s, a, b, c), triangle(s, a, c, e);
    nav_geometry_build_desc d = scene_desc(0.5f);
    nav_mesh *mesh = built(s, &d, NULL);
    uint32_t upper, lower;
    nav_vec3 top = {2, 2.7f, 2}, bottom = {2, 0.1f, 2}, near;
    assert_int_equal(nav_mesh_locate(mesh, top, (nav_vec3){0.5f, 0.5f, 0.5f}, &upper, &near), NAV_SUCCESS);
    assert_true(near.y > 2);
    assert_int_equal(nav_mesh_locate(mesh, bottom, (nav_vec3){0.5f, 0.5f, 0.5f}, &lower, &near), NAV_SUCCESS);
    assert_true(near.y < 0.5f);
    assert_true(upper != lower);
    nav_mesh_query *q = NULL;
    assert_int_equal(nav_mesh_query_create(mesh, NULL, &q), NAV_SUCCESS);
    nav_path path;
    nav_path_init(&path, NULL);
    nav_mesh_result r;
    nav_mesh_path_desc pd = {.half_extents = {0.5f, 0.5f, 0.5f}};
    for (int mode = 1; mode <= 2; mode++) {
        pd.mode = (nav_mesh_path_mode)mode;
        assert_int_equal(nav_mesh_find_path(q, &pd, top, bottom, &path, &r), NAV_SUCCESS);
        assert_true(r.cost >= 2 * (16 - 2) - 2); /* to the ramp's foot and back, cut short by the corners */
        float far_x = 0;
        for (uint32_t i = 0; i < path.count; i++) far_x = fmaxf(far_x, path.points[i].x);
        assert_true(far_x > 12);
    }
    nav_path_destroy(&path);
    nav_mesh_query_destroy(q);
    nav_mesh_destroy(mesh);
    free(s);
}

/* A level with RecastDemo's settings (the defaults): a mesh the chunk reader accepts, every outline
 * cut whole; its walkable area [out]. */
static double build_level(bool real)
{
    nav_geometry *g = load_level(real);
    nav_triangles t = nav_geometry_triangles(g);
    nav_mesh *mesh = NULL;
    nav_geometry_build_stats st;
    assert_int_equal(nav_mesh_build_from_geometry(&t, NULL, &mesh, &st), NAV_SUCCESS);
    check_chunk(mesh);
    assert_int_equal(st.failed_regions, 0);
    double area = mesh_area(mesh);
    nav_mesh_destroy(mesh);
    nav_geometry_destroy(g);
    return area;
}

/* The generated level: its floor (96 x 90 m with the bank and the walk below it) less what stands on
 * it and the agent's radius round that, plus the platforms' and landings' tops: between 80% and 100%
 * of the floor. */
static void test_build_level(void **state)
{
    (void)state;
    double area = build_level(false);
    assert_true(area > 0.8 * 96 * 90 && area < 96 * 90);
}

/* The sample scene (the shared data): its walkable area within 2% of Recast's own build of it
 * (4002.03 m², by bench/recast_driver.cpp). */
static void test_build_sample_scene(void **state)
{
    (void)state;
    assert_true(fabs(build_level(true) / 4002.03 - 1) < 0.02);
}

/* Marked volumes, links and a cancelled build on the two storeys of a plane and a slab (no ramp
 * now): a no-go box over part of the ground takes its area out of the mesh; a road box gives its
 * polygons area 2 and the cost the caller set; a ladder from the ground to the slab lands on the
 * slab's floor (not the ground under it) and joins the two pieces; the progress callback's false
 * cancels the build (NAV_WRONG_STATE, nothing made); bad options are refused by name. */
static bool cancel_at_first(const char *stage, uint64_t done, uint64_t total, void *user)
{
    (void)stage, (void)done, (void)total;
    ++*(int *)user;
    return false;
}

static void test_build_volumes_links_cancel(void **state)
{
    (void)state;
    scene *s = calloc(1, sizeof *s);
    floor_quad(s, 0, 0, 20, 10, 0, true);
    floor_quad(s, 0, 0, 8, 10, 2.5f, false);
    floor_quad(s, 0, 0, 8, 10, 2.5f + STEP, true);
    nav_geometry_build_desc d = scene_desc(0.5f);
    nav_geometry_build_stats st;
    nav_mesh *plain = built(s, &d, &st);
    double area = mesh_area(plain);
    nav_mesh_destroy(plain);

    float no_go[] = {14, 2, 18, 2, 18, 6, 14, 6}, road[] = {10, 7, 19, 7, 19, 9, 10, 9};
    nav_geometry_volume volumes[2] = {{no_go, 4, -1, 1, 0}, {road, 4, -1, 1, 2}};
    double costs[256];
    for (int k = 0; k < 256; k++) costs[k] = 1;
    costs[2] = 0.5;
    nav_mesh_link_desc ladder = {.start = {10, 0.2f, 4}, .end = {7, 2.7f, 4}, .bidirectional = true};
    d.volumes = volumes, d.volume_count = 2, d.area_cost = costs, d.links = &ladder, d.link_count = 1;
    nav_mesh *mesh = built(s, &d, &st);
    /* the no-go box (4 x 4) and the radius round it go */
    assert_true(mesh_area(mesh) < area - 16);
    bool has_road = false;
    for (uint32_t p = 0; p < nav_mesh_poly_count(mesh); p++) {
        nav_mesh_poly_info info;
        nav_mesh_poly(mesh, p, &info);
        if (info.area != 2) continue;
        has_road = true;
        for (uint32_t i = 0; i < info.vert_count; i++) {
            nav_vec3 v = nav_mesh_vert(mesh, info.verts[i]);
            assert_true(v.x >= 10 - CELL && v.x <= 19 + CELL && v.z >= 7 - CELL && v.z <= 9 + CELL);
        }
    }
    assert_true(has_road);
    assert_cost_equal(nav_mesh_area_cost(mesh, 2), 0.5, 0);
    nav_mesh_link_info link;
    assert_true(nav_mesh_link(mesh, 0, &link));
    assert_true(link.end.y > 2.5f && link.start.y < 0.5f);
    nav_mesh_poly_info top;
    assert_true(nav_mesh_poly(mesh, link.end_poly, &top));
    nav_mesh_poly_info bottom;
    assert_true(nav_mesh_poly(mesh, link.start_poly, &bottom));
    assert_int_equal(top.component, bottom.component); /* joined by the ladder */
    nav_mesh_destroy(mesh);

    int calls = 0;
    nav_progress stop = {cancel_at_first, &calls};
    d.progress = &stop;
    nav_triangles t = {s->v, s->nv, s->idx, s->nt, NULL};
    nav_mesh *none = (nav_mesh *)&calls;
    assert_int_equal(nav_mesh_build_from_geometry(&t, &d, &none, NULL), NAV_FAILURE | NAV_WRONG_STATE);
    assert_null(none);
    assert_true(calls >= 1);

    test_log log;
    test_log_init(&log);
    nav_geometry_build_desc bad = {.max_slope = 95, .log = &log.hooks};
    assert_int_equal(nav_mesh_build_from_geometry(&t, &bad, &none, NULL), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_non_null(strstr(log.last, "max slope"));
    bad = (nav_geometry_build_desc){.max_poly_verts = 40, .log = &log.hooks};
    assert_int_equal(nav_mesh_build_from_geometry(&t, &bad, &none, NULL), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_non_null(strstr(log.last, "max polygon vertices"));
    ladder.end = (nav_vec3){30, 2.7f, 4}; /* off the level */
    d.progress = NULL, d.log = &log.hooks;
    assert_int_equal(nav_mesh_build_from_geometry(&t, &d, &none, NULL), NAV_FAILURE | NAV_INVALID_PARAM);
    free(s);
}

/* The heights' options from the issue: a sample distance of 0.003 took 5 s and 287 MB on the sample
 * scene, 3e-5 reached 10 GB and 1e-9 spun for ever; NaN was taken for it and for the error. Each is
 * refused at once, by name; the least distance, 0.9 cells, builds. */
static void test_build_detail_options(void **state)
{
    (void)state;
    scene *s = calloc(1, sizeof *s);
    floor_quad(s, 0, 0, 10, 10, 0, true);
    nav_triangles t = {s->v, s->nv, s->idx, s->nt, NULL};
    test_log log;
    test_log_init(&log);
    static const struct {
        float sample, error;
        const char *message;
    } bad[] = {
        {NAN, 0, "detail_sample_distance must be a finite number"},
        {INFINITY, 0, "detail_sample_distance must be a finite number"},
        {-INFINITY, 0, "detail_sample_distance must be a finite number"},
        {0, NAN, "detail_max_error must be finite and not negative"},
        {0, INFINITY, "detail_max_error must be finite and not negative"},
        {0, -0.1f, "detail_max_error must be finite and not negative"},
        {0.003f, 0, "detail_sample_distance 0.003 is less than 0.9 cells (0.225)"},
        {3e-5f, 0, "detail_sample_distance 3e-05 is less than 0.9 cells"},
        {1e-9f, 0, "detail_sample_distance 1e-09 is less than 0.9 cells"},
        {0.2f, 0, "detail_sample_distance 0.2 is less than 0.9 cells"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        for (int tiled = 0; tiled < 2; tiled++) {
            nav_geometry_build_desc d = scene_desc(0.5f);
            d.detail_sample_distance = bad[i].sample, d.detail_max_error = bad[i].error;
            d.tile_size = tiled ? 16 : 0;
            d.log = &log.hooks;
            nav_mesh *mesh = (nav_mesh *)s;
            assert_int_equal(nav_mesh_build_from_geometry(&t, &d, &mesh, NULL),
                             NAV_FAILURE | NAV_INVALID_PARAM);
            assert_null(mesh);
            if (!strstr(log.last, bad[i].message)) fail_msg("case %zu: '%s'", i, log.last);
        }
    nav_geometry_build_desc d = scene_desc(0.5f);
    d.link_extents.y = NAN, d.log = &log.hooks;
    nav_mesh *mesh = NULL;
    assert_int_equal(nav_mesh_build_from_geometry(&t, &d, &mesh, NULL), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_non_null(strstr(log.last, "link_extents must be finite"));
    /* the least distance, and a negative one (no heights) */
    for (int k = 0; k < 2; k++) {
        d = scene_desc(0.5f);
        d.detail_sample_distance = k ? -1 : NAV_GEOMETRY_MIN_SAMPLE_CELLS * CELL;
        assert_int_equal(nav_mesh_build_from_geometry(&t, &d, &mesh, NULL), NAV_SUCCESS);
        assert_int_equal(nav_mesh_poly_count(mesh), 1);
        nav_mesh_destroy(mesh);
    }
    free(s);
}

/* Allocation failures: the build's mesh comes from the caller's allocator (its scratch from the
 * system heap); failing each of its allocations in turn gives NAV_OUT_OF_MEMORY and leaks nothing,
 * until the build succeeds with every block freed when the mesh is. */
static void test_build_allocation_failures(void **state)
{
    (void)state;
    scene *s = calloc(1, sizeof *s);
    floor_quad(s, 0, 0, 10, 10, 0, true);
    box(s, 4, 0, 4, 6, 1.5f, 6);
    nav_triangles t = {s->v, s->nv, s->idx, s->nt, NULL};
    bool done = false;
    for (long fail = 1; fail < 1000 && !done; fail++) {
        test_allocator a;
        test_allocator_init(&a, fail);
        nav_geometry_build_desc d = scene_desc(0.5f);
        d.allocator = &a.hooks;
        nav_mesh *mesh = NULL;
        nav_status st = nav_mesh_build_from_geometry(&t, &d, &mesh, NULL);
        if (nav_succeeded(st)) {
            done = true;
            nav_mesh_destroy(mesh);
        } else {
            assert_int_equal(st, NAV_FAILURE | NAV_OUT_OF_MEMORY);
            assert_null(mesh);
        }
        assert_int_equal(a.live, 0);
    }
    assert_true(done);
    free(s);
}

/* Random scenes (a few triangles anywhere in a box of 25.5, the fuzz harness's form, and the case
 * it found: nine crossing triangles where a polygon kept a straight vertex in a piece cut off
 * first): every build succeeds and its mesh passes the MESH chunk's reader, whole and in tiles. */
static bool floors_face_down(const nav_triangles *t, double max_slope);

static void test_build_random_triangles(void **state)
{
    (void)state;
    static const uint8_t found[9][9] = {
        {0, 0, 0, 0, 0, 60, 0, 0, 0},           {0, 200, 200, 0, 200, 0, 0, 39, 200},
        {0, 200, 200, 0, 0, 60, 180, 60, 60},   {0, 0, 0, 0, 0, 200, 255, 255, 22},
        {236, 5, 0, 64, 96, 0, 0, 0, 0},        {60, 0, 0, 0, 0, 200, 200, 0, 200},
        {0, 0, 39, 200, 0, 200, 200, 0, 0},     {60, 180, 60, 60, 0, 140, 100, 200, 0},
        {200, 200, 0, 0, 60, 15, 100, 100, 140}};
    uint64_t rng = 12345;
    for (int k = 0; k < 120; k++) {
        float v[9 * 12];
        uint32_t idx[3 * 12], n = k == 0 ? 9 : 1 + (uint32_t)(k % 12);
        for (uint32_t t = 0; t < n; t++)
            for (int c = 0; c < 9; c++) {
                rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                v[9 * t + c] = (float)(k == 0 ? found[t][c] : (uint8_t)(rng >> 56)) * 0.1f;
            }
        for (uint32_t i = 0; i < 3 * n; i++) idx[i] = i;
        nav_triangles t = {v, 3 * n, idx, n, NULL};
        nav_geometry_build_desc d = {.agent_radius = k % 2 ? 0.6f : -1,
                                     .tile_size = k % 3 == 1 ? 16 : 0,
                                     .cell_size = 0.25f + 0.05f * (float)(k % 4)};
        if (k == 0) d.agent_radius = -1, d.tile_size = 0, d.cell_size = 0.3f;
        nav_mesh *mesh = NULL;
        if (floors_face_down(&t, 45)) { /* refused (test_build_facing_down) */
            assert_int_equal(nav_mesh_build_from_geometry(&t, &d, &mesh, NULL),
                             NAV_FAILURE | NAV_INVALID_PARAM);
            continue;
        }
        assert_int_equal(nav_mesh_build_from_geometry(&t, &d, &mesh, NULL), NAV_SUCCESS);
        check_chunk(mesh);
        nav_mesh_destroy(mesh);
    }
}

/* A level's floors seen from above with x to the right and z down the page: every triangle within
 * max_slope degrees of level faces down (its corners clockwise), and there is one. */
static bool floors_face_down(const nav_triangles *t, double max_slope)
{
    uint32_t down = 0;
    for (uint32_t i = 0; i < t->triangle_count; i++) {
        if (t->areas && t->areas[i] == 0) continue;
        const float *p[3];
        for (int k = 0; k < 3; k++) p[k] = t->vertices + 3 * t->indices[3 * i + k];
        double ux = p[1][0] - p[0][0], uy = p[1][1] - p[0][1], uz = p[1][2] - p[0][2];
        double vx = p[2][0] - p[0][0], vy = p[2][1] - p[0][1], vz = p[2][2] - p[0][2];
        double nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
        double length = sqrt(nx * nx + ny * ny + nz * nz);
        if (length == 0 || fabs(ny) <= cos(max_slope * M_PI / 180) * length) continue;
        if (ny > 0) return false;
        down++;
    }
    return down > 0;
}

/* A level whose every floor faces down (wound the other way, as terrain.obj was exported) is refused
 * with a message saying which way is up, whole, in tiles and rebuilding a tile; before, it built an
 * empty mesh and said success. A floor facing up anywhere passes (the undersides of slabs face down
 * in any building); so does a level with no floor at all, or whose floors are all of area 0. */
static void test_build_facing_down(void **state)
{
    (void)state;
    scene *s = calloc(1, sizeof *s);
    floor_quad(s, 0, 0, 10, 10, 0, false);
    nav_triangles t = {s->v, s->nv, s->idx, s->nt, NULL};
    assert_true(floors_face_down(&t, 45));
    test_log log;
    test_log_init(&log);
    nav_geometry_build_desc d = scene_desc(0.5f);
    d.log = &log.hooks;
    nav_mesh *mesh = (nav_mesh *)s;
    assert_int_equal(nav_mesh_build_from_geometry(&t, &d, &mesh, NULL), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_null(mesh);
    assert_non_null(
        strstr(log.last, "no floor of the level faces up: all 2 of its triangles within 45 degrees"));
    assert_non_null(
        strstr(log.last, "counter-clockwise: from above, with x to the right and z down the page"));
    nav_geometry_tiles *tiles = NULL;
    d.tile_size = 16;
    assert_int_equal(nav_geometry_tiles_build(&t, &d, &tiles, NULL, NULL), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_null(tiles);
    /* rebuilding a tile of the level the right way up, from the level flipped */
    scene *up = calloc(1, sizeof *up);
    floor_quad(up, 0, 0, 10, 10, 0, true);
    nav_triangles u = {up->v, up->nv, up->idx, up->nt, NULL};
    assert_int_equal(nav_geometry_tiles_build(&u, &d, &tiles, NULL, NULL), NAV_SUCCESS);
    log.count = 0;
    assert_int_equal(nav_geometry_tiles_rebuild(tiles, &t, 0, 0, &mesh, NULL),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    assert_null(mesh);
    assert_int_equal(log.count, 1);
    nav_geometry_tiles_destroy(tiles);
    d.tile_size = 0;
    /* the floors of area 0: nothing to walk on, and nothing refused */
    uint8_t blocked[2] = {0, 0};
    t.areas = blocked;
    assert_int_equal(nav_mesh_build_from_geometry(&t, &d, &mesh, NULL), NAV_SUCCESS);
    assert_int_equal(nav_mesh_poly_count(mesh), 0);
    nav_mesh_destroy(mesh);
    /* steeper than the slope: walls, not floors */
    d.max_slope = 1;
    t.areas = NULL;
    for (uint32_t i = 0; i < s->nv; i++) s->v[3 * i + 1] = s->v[3 * i] * 0.1f; /* 5.7 degrees */
    assert_false(floors_face_down(&t, 1));
    assert_int_equal(nav_mesh_build_from_geometry(&t, &d, &mesh, NULL), NAV_SUCCESS);
    nav_mesh_destroy(mesh);
    d.max_slope = 0;
    for (uint32_t i = 0; i < s->nv; i++) s->v[3 * i + 1] = 0;
    /* a slab: its top faces up, its underside down (as most of a building's floors) */
    floor_quad(s, 0, 0, 10, 10, STEP, true);
    t.vertex_count = s->nv, t.triangle_count = s->nt;
    assert_false(floors_face_down(&t, 45));
    assert_int_equal(nav_mesh_build_from_geometry(&t, &d, &mesh, NULL), NAV_SUCCESS);
    assert_true(nav_mesh_poly_count(mesh) > 0);
    nav_mesh_destroy(mesh);
    free(up);
    free(s);
}

static nav_writer chunk_bytes(const nav_mesh *mesh);

/* ---- Heights (stage 8) ------------------------------------------------------------------------- */

/* The height of the level's surface nearest to y at (x, z) (or, with y infinite, the highest):
 * every triangle over the point, by brute force. NAN when none is. */
static double surface_near(const nav_triangles *t, double x, double z, double y)
{
    double best = NAN;
    for (uint32_t i = 0; i < t->triangle_count; i++) {
        const float *a = t->vertices + 3 * t->indices[3 * i], *b = t->vertices + 3 * t->indices[3 * i + 1],
                    *c = t->vertices + 3 * t->indices[3 * i + 2];
        double bx = b[0] - a[0], bz = b[2] - a[2], cx = c[0] - a[0], cz = c[2] - a[2],
               det = bx * cz - bz * cx;
        if (fabs(det) < 1e-12) continue; /* upright */
        double px = x - a[0], pz = z - a[2], u = (px * cz - pz * cx) / det, v = (bx * pz - bz * px) / det;
        if (u < 0 || v < 0 || u + v > 1) continue;
        double h = a[1] + u * (b[1] - a[1]) + v * (c[1] - a[1]);
        if (isnan(best) || (isinf(y) ? h > best : fabs(h - y) < fabs(best - y))) best = h;
    }
    return best;
}

/* A pyramid 1.5 high on a plane, inside one polygon's corners (its base merges with the plane): with
 * heights, the mesh's floor is within 3 steps of the surface everywhere on a grid (the voxels round
 * heights up by a step, the triangles stray up to one more at their samples, and cut the creases
 * at the pyramid's foot between samples 6 cells apart), under a step on average; with none (a
 * negative sample distance), the polygons' corners alone leave the top more than a metre out. */
static void test_heights_pyramid(void **state)
{
    (void)state;
    scene *s = calloc(1, sizeof *s);
    floor_quad(s, 0, 0, 20, 20, 0, true);
    uint32_t apex = vertex(s, 10, 1.5f, 10),
             c[4] = {vertex(s, 6, 0, 6), vertex(s, 6, 0, 14), vertex(s, 14, 0, 14), vertex(s, 14, 0, 6)};
    for (int k = 0; k < 4; k++) triangle(s, c[k], c[(k + 1) % 4], apex);
    nav_triangles t = {s->v, s->nv, s->idx, s->nt, NULL};
    for (int detail = 1; detail >= 0; detail--) {
        nav_geometry_build_desc d = scene_desc(0.5f);
        d.detail_sample_distance = detail ? 0 : -1;
        nav_mesh *mesh = built(s, &d, NULL);
        double worst = 0, sum = 0;
        int count = 0;
        for (double z = 2; z <= 18; z += 0.37)
            for (double x = 2; x <= 18; x += 0.41) {
                uint32_t poly;
                nav_vec3 near;
                assert_int_equal(nav_mesh_locate(mesh, (nav_vec3){(float)x, 1, (float)z},
                                                 (nav_vec3){0.1f, 3, 0.1f}, &poly, &near),
                                 NAV_SUCCESS);
                double truth = surface_near(&t, x, z, INFINITY); /* the pyramid over the plane */
                worst = fmax(worst, fabs(near.y - truth)), sum += fabs(near.y - truth), count++;
            }
        if (detail)
            assert_true(worst <= 3 * STEP + 1e-3 && sum / count < STEP);
        else
            assert_true(worst > 1.0);
        if (detail) { /* its chunk: every truncation refused, every byte flipped read safely */
            nav_writer w = chunk_bytes(mesh);
            for (size_t n = 0; n < w.size; n++) {
                nav_mesh *back = NULL;
                assert_int_equal(nav_mesh_read_chunk(w.data, n, NULL, NULL, &back),
                                 NAV_FAILURE | NAV_CORRUPT_DATA);
            }
            for (size_t i = 0; i < w.size; i++) {
                w.data[i] ^= 0x5a;
                nav_mesh *back = NULL;
                if (nav_succeeded(nav_mesh_read_chunk(w.data, w.size, NULL, NULL, &back))) {
                    float h;
                    (void)nav_mesh_poly_contains(back, 0, (nav_vec3){10, 0, 10}, &h);
                    nav_mesh_destroy(back);
                }
                w.data[i] ^= 0x5a;
            }
            nav_writer_destroy(&w);
        }
        nav_mesh_destroy(mesh);
    }
    free(s);
}

/* A level with RecastDemo's settings: at 4000 random points of its polygons the mesh's floor
 * against the level's surface nearest to it (brute force over the triangles): on average within
 * 0.2, and over 0.6 at no more than 1% of the points (its stairs and ramps between storeys). */
static void heights_of_level(bool real)
{
    nav_geometry *g = load_level(real);
    nav_triangles t = nav_geometry_triangles(g);
    nav_mesh *mesh = NULL;
    assert_int_equal(nav_mesh_build_from_geometry(&t, NULL, &mesh, NULL), NAV_SUCCESS);
    srand(9);
    double sum = 0;
    int n = 0, far = 0;
    while (n < 4000) {
        uint32_t p = (uint32_t)rand() % nav_mesh_poly_count(mesh);
        nav_mesh_poly_info info;
        assert_true(nav_mesh_poly(mesh, p, &info));
        double w[3], total = 0;
        for (int k = 0; k < 3; k++) total += w[k] = (double)rand() / RAND_MAX + 1e-3;
        nav_vec3 a = nav_mesh_vert(mesh, info.verts[0]),
                 b = nav_mesh_vert(mesh, info.verts[1 + (uint32_t)rand() % (info.vert_count - 2)]),
                 c = nav_mesh_vert(mesh, info.verts[info.vert_count - 1]);
        double x = (w[0] * a.x + w[1] * b.x + w[2] * c.x) / total,
               z = (w[0] * a.z + w[1] * b.z + w[2] * c.z) / total;
        float h;
        if (!nav_mesh_poly_contains(mesh, p, (nav_vec3){(float)x, 0, (float)z}, &h)) continue;
        double truth = surface_near(&t, x, z, h);
        assert_false(isnan(truth));
        sum += fabs(h - truth), far += fabs(h - truth) > 0.6, n++;
    }
    assert_true(sum / n < 0.2);
    assert_true(far <= n / 100);
    nav_mesh_destroy(mesh);
    nav_geometry_destroy(g);
}

/* ---- Tiles ----------------------------------------------------------------------------------- */

/* The bytes of a mesh's MESH chunk, to compare two meshes whole. */
static nav_writer chunk_bytes(const nav_mesh *mesh)
{
    nav_writer w;
    nav_writer_init(&w, NULL);
    assert_int_equal(nav_mesh_write_chunk(mesh, &w), NAV_SUCCESS);
    return w;
}

/* Two meshes the same to the byte (their MESH chunks). */
static void assert_same_mesh(const nav_mesh *a, const nav_mesh *b)
{
    nav_writer w1 = chunk_bytes(a), w2 = chunk_bytes(b);
    assert_int_equal(w1.size, w2.size);
    assert_memory_equal(w1.data, w2.data, w1.size);
    nav_writer_destroy(&w1);
    nav_writer_destroy(&w2);
}

/* A plane in tiles of 8 cells (5 x 5 tiles): one piece, the same area as built whole, and a path
 * from corner to corner straight across every tile line it meets, at its length. */
static void test_tiles_plane(void **state)
{
    (void)state;
    scene *s = calloc(1, sizeof *s);
    floor_quad(s, 0, 0, 10, 10, 0, true);
    nav_geometry_build_desc d = scene_desc(0.5f);
    d.tile_size = 8;
    nav_geometry_build_stats st;
    nav_mesh *mesh = built(s, &d, &st);
    assert_int_equal(st.tiles, 36); /* 41 columns: 6 tiles a side */
    assert_cost_equal(mesh_area(mesh), 8.5 * 8.5, 1e-9);
    assert_true(nav_mesh_poly_count(mesh) >= 16);
    nav_mesh_poly_info info;
    for (uint32_t p = 0; p < nav_mesh_poly_count(mesh); p++) {
        assert_true(nav_mesh_poly(mesh, p, &info));
        assert_int_equal(info.component, 1);
    }
    nav_mesh_query *q = NULL;
    assert_int_equal(nav_mesh_query_create(mesh, NULL, &q), NAV_SUCCESS);
    nav_path path;
    nav_path_init(&path, NULL);
    nav_mesh_result r;
    nav_vec3 a = {1, 0.2f, 1.5f}, b = {9, 0.2f, 8};
    for (int mode = 1; mode <= 2; mode++) {
        nav_mesh_path_desc pd = {.mode = (nav_mesh_path_mode)mode, .half_extents = {0.5f, 1, 0.5f}};
        assert_int_equal(nav_mesh_find_path(q, &pd, a, b, &path, &r), NAV_SUCCESS);
        assert_cost_equal(r.cost, hypot(8, 6.5), 1e-4);
        assert_int_equal(path.count, 2);
    }
    nav_path_destroy(&path);
    nav_mesh_query_destroy(q);
    nav_mesh_destroy(mesh);
    free(s);
}

/* A level in tiles of 48 cells against the whole: with no islands dropped, the same tops
 * kept after erosion (the border lets each tile see past its edge); with them (a small piece that
 * reaches a tile's border is kept, as it may go on past it), a few more; the walkable area within
 * 0.5%, and on 300 random pairs of points of the whole mesh the same answer in both, paths of near-equal cost
 * (optimal mode: within 1% and 0.5). Tiled builds on 1, 2 and 3 threads give the same mesh, to the
 * byte, and so do whole builds (their rows rasterised in bands on the threads). */
static void tiles_of_level(bool real)
{
    nav_geometry *g = load_level(real);
    nav_triangles t = nav_geometry_triangles(g);
    nav_mesh *whole = NULL, *tiled = NULL;
    nav_geometry_build_stats sw, st;
    assert_int_equal(nav_mesh_build_from_geometry(&t, NULL, &whole, &sw), NAV_SUCCESS);
    nav_geometry_build_desc d = {.tile_size = 48, .threads = 1};
    assert_int_equal(nav_mesh_build_from_geometry(&t, &d, &tiled, &st), NAV_SUCCESS);
    check_chunk(tiled);
    assert_int_equal(st.tiles,
                     (uint32_t)((sw.width + 47) / 48 * ((sw.depth + 47) / 48))); /* nav_test.obj: 7 x 6 */
    assert_true(st.kept_tops >= sw.kept_tops && st.kept_tops < sw.kept_tops + sw.kept_tops / 200);
    {
        nav_geometry_build_desc all = {.min_island_area = -1},
                                tiles_all = {.min_island_area = -1, .tile_size = 48};
        nav_mesh *m1 = NULL, *m2 = NULL;
        nav_geometry_build_stats s1, s2;
        assert_int_equal(nav_mesh_build_from_geometry(&t, &all, &m1, &s1), NAV_SUCCESS);
        assert_int_equal(nav_mesh_build_from_geometry(&t, &tiles_all, &m2, &s2), NAV_SUCCESS);
        if (real) {
            assert_int_equal(s1.kept_tops, s2.kept_tops);
        } else {
            /* Not so on the generated level (89386 whole, 89387 tiled): tiles keep a few other tops
             * round boxes that stand across a tile's edge. Smallest case seen: a plane of 20 x 20 m
             * with a box from (2, 2) to (18, 18) 3 m tall, tiles of 32 cells: 5048 tops whole, 4969
             * tiled. Held here to 1 in 10000 until that is mended. */
            uint32_t diff =
                s1.kept_tops > s2.kept_tops ? s1.kept_tops - s2.kept_tops : s2.kept_tops - s1.kept_tops;
            assert_true(diff <= s1.kept_tops / 10000);
        }
        nav_mesh_destroy(m1);
        nav_mesh_destroy(m2);
    }
    assert_true(fabs(mesh_area(tiled) / mesh_area(whole) - 1) < 0.005);
    for (uint32_t size = 32; size <= 64; size += 32) { /* other cuts: each mesh a valid chunk */
        nav_geometry_build_desc other = {.tile_size = size};
        nav_mesh *m = NULL;
        assert_int_equal(nav_mesh_build_from_geometry(&t, &other, &m, NULL), NAV_SUCCESS);
        check_chunk(m);
        nav_mesh_destroy(m);
    }
    for (uint32_t threads = 2; threads <= 3; threads++) {
        d.threads = threads;
        nav_mesh *again = NULL;
        assert_int_equal(nav_mesh_build_from_geometry(&t, &d, &again, NULL), NAV_SUCCESS);
        assert_same_mesh(again, tiled);
        nav_mesh_destroy(again);
    }
    /* the whole level (258 rows or more: rasterised in bands of rows on the threads) */
    for (uint32_t threads = 1; threads <= 3; threads++) {
        nav_mesh *again = NULL;
        nav_geometry_build_stats sa;
        assert_int_equal(
            nav_mesh_build_from_geometry(&t, &(nav_geometry_build_desc){.threads = threads}, &again, &sa),
            NAV_SUCCESS);
        assert_int_equal(sa.spans, sw.spans);
        assert_same_mesh(again, whole);
        nav_mesh_destroy(again);
    }

    nav_mesh_query *qw = NULL, *qt = NULL;
    assert_int_equal(nav_mesh_query_create(whole, NULL, &qw), NAV_SUCCESS);
    assert_int_equal(nav_mesh_query_create(tiled, NULL, &qt), NAV_SUCCESS);
    nav_path pw, pt;
    nav_path_init(&pw, NULL);
    nav_path_init(&pt, NULL);
    /* (the heights inside polygons are their corners' until the build's heights, stage 8, are
     * built: the two meshes' polygons differ, so look 2 up and down) */
    nav_mesh_path_desc pd = {.half_extents = {0.3f, 2, 0.3f}};
    srand(5);
    int found = 0;
    for (int k = 0; k < 300; k++) {
        nav_vec3 ends[2];
        for (int e = 0; e < 2; e++) { /* a point inside a random polygon of the whole mesh, its centre */
            nav_mesh_poly_info info;
            assert_true(nav_mesh_poly(whole, (uint32_t)rand() % nav_mesh_poly_count(whole), &info));
            nav_vec3 c = {0, 0, 0};
            for (uint32_t i = 0; i < info.vert_count; i++) {
                nav_vec3 v = nav_mesh_vert(whole, info.verts[i]);
                c.x += v.x / (float)info.vert_count, c.y += v.y / (float)info.vert_count,
                    c.z += v.z / (float)info.vert_count;
            }
            ends[e] = c;
        }
        nav_mesh_result rw, rt;
        nav_status a = nav_mesh_find_path(qw, &pd, ends[0], ends[1], &pw, &rw);
        nav_status b = nav_mesh_find_path(qt, &pd, ends[0], ends[1], &pt, &rt);
        if (nav_failed(a) && nav_has_detail(a, NAV_UNREACHABLE)) {
            assert_true(nav_failed(b) && nav_has_detail(b, NAV_UNREACHABLE));
            continue;
        }
        assert_int_equal(a, NAV_SUCCESS);
        assert_int_equal(b, NAV_SUCCESS);
        assert_true(fabs(rt.cost - rw.cost) <= 0.01 * rw.cost + 0.5);
        found++;
    }
    assert_true(found > 60); /* nav_test.obj 97: the scene's roofs and ledges are pieces of their own */
    nav_path_destroy(&pw);
    nav_path_destroy(&pt);
    nav_mesh_query_destroy(qw);
    nav_mesh_query_destroy(qt);
    nav_mesh_destroy(whole);
    nav_mesh_destroy(tiled);
    nav_geometry_destroy(g);
}

/* A plane of 20 x 20 with a post far off, and a wall across its middle (*with, its triangles *a) or
 * not (*without, *b); *d: the options of its tiles, 16 cells a side. */
static void wall_scenes(scene **with, scene **without, nav_triangles *a, nav_triangles *b,
                        nav_geometry_build_desc *d)
{
    *with = calloc(1, sizeof **with), *without = calloc(1, sizeof **without);
    for (int k = 0; k < 2; k++) {
        scene *s = k ? *without : *with;
        floor_quad(s, 0, 0, 20, 20, 0, true);
        box(s, 1, 0, 1, 1.5f, 3, 1.5f); /* the post: the same box either way */
        if (!k) box(s, 9.5f, 0, 9.9f, 10.5f, 3, 10.1f);
    }
    *a = (nav_triangles){(*with)->v, (*with)->nv, (*with)->idx, (*with)->nt, NULL};
    *b = (nav_triangles){(*without)->v, (*without)->nv, (*without)->idx, (*without)->nt, NULL};
    *d = scene_desc(0.5f);
    d->tile_size = 16;
}

/* One tile rebuilt: a plane of 20 x 20 in tiles of 16 cells (4 x 4 m) with a wall across the middle
 * of tile (2, 2) (away from its border) and a post far off; the tiles' mesh is the whole build's, to
 * the byte. The wall falls (the level without it): tile (2, 2) rebuilt alone gives, to the byte,
 * the mesh a build of the changed level gives, and a path across the wall's place goes straight
 * where it went round; rebuilding another tile instead leaves the wall; no such tile is refused. */
static void test_tiles_rebuild(void **state)
{
    (void)state;
    scene *with, *without;
    nav_triangles a, b;
    nav_geometry_build_desc d;
    wall_scenes(&with, &without, &a, &b, &d);
    nav_geometry_tiles *tiles = NULL;
    nav_mesh *first = NULL, *whole = NULL;
    assert_int_equal(nav_geometry_tiles_build(&a, &d, &tiles, &first, NULL), NAV_SUCCESS);
    int32_t tx, tz;
    nav_geometry_tiles_count(tiles, &tx, &tz);
    assert_true(tx == 6 && tz == 6); /* 81 columns */
    assert_int_equal(nav_mesh_build_from_geometry(&a, &d, &whole, NULL), NAV_SUCCESS);
    assert_same_mesh(first, whole);
    nav_mesh_destroy(whole);

    nav_mesh *next = NULL, *fresh = NULL;
    nav_geometry_build_stats st;
    assert_int_equal(nav_geometry_tiles_rebuild(tiles, &b, 2, 2, &next, &st), NAV_SUCCESS);
    assert_int_equal(st.tiles, 36);
    assert_int_equal(nav_mesh_build_from_geometry(&b, &d, &fresh, NULL), NAV_SUCCESS);
    assert_same_mesh(next, fresh);
    check_chunk(next);
    /* across the wall's place */
    nav_vec3 from = {10, 0.2f, 8.5f}, to = {10, 0.2f, 11.5f};
    double cost[2];
    nav_mesh *meshes[2] = {first, next};
    for (int k = 0; k < 2; k++) {
        nav_mesh_query *q = NULL;
        assert_int_equal(nav_mesh_query_create(meshes[k], NULL, &q), NAV_SUCCESS);
        nav_path path;
        nav_path_init(&path, NULL);
        nav_mesh_result r;
        assert_int_equal(nav_mesh_find_path(q, &(nav_mesh_path_desc){.half_extents = {0.3f, 1, 0.3f}}, from,
                                            to, &path, &r),
                         NAV_SUCCESS);
        cost[k] = r.cost;
        nav_path_destroy(&path);
        nav_mesh_query_destroy(q);
    }
    assert_true(cost[0] > 3.5);
    assert_cost_equal(cost[1], 3, 1e-4);
    /* the wall back, and the wrong tile: refused, the wall's tile (2, 2) having changed (before, it was
     * rebuilt and the wall stayed: test_tiles_sources) */
    nav_mesh *wrong = NULL;
    assert_int_equal(nav_geometry_tiles_rebuild(tiles, &a, 2, 2, &wrong, NULL), NAV_SUCCESS); /* back */
    nav_mesh_destroy(wrong);
    assert_int_equal(nav_geometry_tiles_rebuild(tiles, &b, 0, 0, &wrong, NULL),
                     NAV_FAILURE | NAV_SOURCE_MISMATCH);
    assert_null(wrong);
    assert_int_equal(nav_geometry_tiles_rebuild(tiles, &b, 6, 0, &wrong, NULL),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    assert_null(wrong);
    nav_geometry_build_desc untiled = scene_desc(0.5f);
    nav_geometry_tiles *none = NULL;
    assert_int_equal(nav_geometry_tiles_build(&a, &untiled, &none, NULL, NULL),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    nav_mesh_destroy(first);
    nav_mesh_destroy(next);
    nav_mesh_destroy(fresh);
    nav_geometry_tiles_destroy(tiles);
    free(with);
    free(without);
}

/* The level's triangles as another export of it would give them: its vertices in reverse order. */
static void reversed_vertices(const scene *s, scene *out)
{
    *out = *s;
    for (uint32_t v = 0; v < s->nv; v++) memcpy(&out->v[3 * (s->nv - 1 - v)], &s->v[3 * v], 3 * sizeof *s->v);
    for (uint32_t i = 0; i < 3 * s->nt; i++) out->idx[i] = s->nv - 1 - s->idx[i];
}

/* What tiles are rebuilt from (their sources, tiles.c): the wall scene in tiles of 16 cells. A level
 * changed only inside the tile rebuilt passes; changed in another tile too, or across a tile's edge,
 * it is refused (NAV_SOURCE_MISMATCH, the tile that changed and both fingerprints named) and
 * nav_geometry_tiles_rebuild_changed builds exactly the tiles that changed, giving a fresh build's mesh
 * to the byte; another level's triangles are refused by both (before, any level was taken: tile
 * (0, 0) rebuilt from the changed level left the wall of tile (2, 2) standing in the mesh, and another
 * level's tile was mixed in). The same level exported again (its vertices in another order) changes
 * no tile. */
static void test_tiles_sources(void **state)
{
    (void)state;
    scene *with, *without;
    nav_triangles a, b;
    nav_geometry_build_desc d;
    wall_scenes(&with, &without, &a, &b, &d);
    test_log log;
    test_log_init(&log);
    d.log = &log.hooks;
    nav_geometry_tiles *tiles = NULL;
    assert_int_equal(nav_geometry_tiles_build(&a, &d, &tiles, NULL, NULL), NAV_SUCCESS);
    /* the wall falls; tile (0, 0) rebuilt: refused, naming the wall's tile */
    nav_mesh *mesh = NULL, *fresh = NULL;
    assert_int_equal(nav_geometry_tiles_rebuild(tiles, &b, 0, 0, &mesh, NULL),
                     NAV_FAILURE | NAV_SOURCE_MISMATCH);
    assert_null(mesh);
    if (!strstr(log.last,
                "the level changed outside tile (0, 0) too: tile (2, 2) was built from triangles ") ||
        !strstr(log.last, ", which are now ") || !strstr(log.last, "nav_geometry_tiles_rebuild_changed"))
        fail_msg("'%s'", log.last);
    /* every tile that changed: (2, 2) alone */
    uint32_t rebuilt = 99;
    assert_int_equal(nav_geometry_tiles_rebuild_changed(tiles, &b, &mesh, &rebuilt, NULL), NAV_SUCCESS);
    assert_int_equal(rebuilt, 1);
    assert_int_equal(nav_mesh_build_from_geometry(&b, &d, &fresh, NULL), NAV_SUCCESS);
    assert_same_mesh(mesh, fresh);
    nav_mesh_destroy(mesh);
    /* nothing changed since: none rebuilt, the same mesh; nor from the level exported again */
    scene *again = malloc(sizeof *again);
    reversed_vertices(without, again);
    nav_triangles c = {again->v, again->nv, again->idx, again->nt, NULL};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(nav_geometry_tiles_rebuild_changed(tiles, k ? &c : &b, &mesh, &rebuilt, NULL),
                         NAV_SUCCESS);
        assert_int_equal(rebuilt, 0);
        assert_same_mesh(mesh, fresh);
        nav_mesh_destroy(mesh);
    }
    assert_int_equal(nav_geometry_tiles_rebuild(tiles, &c, 2, 2, &mesh, NULL), NAV_SUCCESS);
    assert_same_mesh(mesh, fresh);
    nav_mesh_destroy(mesh);
    nav_mesh_destroy(fresh);
    /* a box across the line between tiles (1, 1) and (2, 1) (x = 8 m): tile (1, 1) alone is refused; the
     * tiles that changed are those whose borders it reaches */
    box(without, 7.5f, 0, 5.5f, 8.5f, 1.5f, 6.5f);
    b.vertex_count = without->nv, b.triangle_count = without->nt;
    assert_int_equal(nav_geometry_tiles_rebuild(tiles, &b, 1, 1, &mesh, NULL),
                     NAV_FAILURE | NAV_SOURCE_MISMATCH);
    assert_non_null(strstr(log.last, "the level changed outside tile (1, 1) too: tile (2, 1)"));
    assert_int_equal(nav_geometry_tiles_rebuild_changed(tiles, &b, &mesh, &rebuilt, NULL), NAV_SUCCESS);
    assert_int_equal(rebuilt, 2);
    assert_int_equal(nav_mesh_build_from_geometry(&b, &d, &fresh, NULL), NAV_SUCCESS);
    assert_same_mesh(mesh, fresh);
    nav_mesh_destroy(mesh);
    nav_mesh_destroy(fresh);
    /* another level: the same box, its floor in four quads and no post */
    scene *other = calloc(1, sizeof *other);
    for (int k = 0; k < 4; k++)
        floor_quad(other, 10.0f * (k % 2), 10.0f * (k / 2), 10.0f * (k % 2) + 10, 10.0f * (k / 2) + 10, 0,
                   true);
    nav_triangles o = {other->v, other->nv, other->idx, other->nt, NULL};
    log.last[0] = '\0';
    assert_int_equal(nav_geometry_tiles_rebuild(tiles, &o, 2, 2, &mesh, NULL),
                     NAV_FAILURE | NAV_SOURCE_MISMATCH);
    assert_null(mesh);
    if (!strstr(log.last,
                "these triangles are not the level the tiles were built from: none of its 36 tiles") ||
        !strstr(log.last, "bake the level again"))
        fail_msg("'%s'", log.last);
    assert_int_equal(nav_geometry_tiles_rebuild_changed(tiles, &o, &mesh, &rebuilt, NULL),
                     NAV_FAILURE | NAV_SOURCE_MISMATCH);
    assert_null(mesh);
    /* a file of version 1 (no sources) is refused: bake it again */
    nav_writer w;
    nav_writer_init(&w, NULL);
    assert_int_equal(nav_geometry_tiles_write_chunk(tiles, &w), NAV_SUCCESS);
    char path[] = "/tmp/test_tiles_sources_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(
        nav_container_write_file(path, &(nav_chunk){NAV_CHUNK_MESH_TILES, 1, w.data, w.size}, 1, NULL),
        NAV_SUCCESS);
    nav_geometry_tiles *old = NULL;
    assert_int_equal(nav_geometry_tiles_load_nav(path, &(nav_geometry_build_desc){.log = &log.hooks}, &old),
                     NAV_FAILURE | NAV_WRONG_VERSION);
    assert_null(old);
    if (!strstr(log.last, "TILS chunk version 1, this library reads version 2") ||
        !strstr(log.last, "bake the file again"))
        fail_msg("'%s'", log.last);
    remove(path);
    nav_writer_destroy(&w);
    nav_geometry_tiles_destroy(tiles);
    free(other);
    free(again);
    free(with);
    free(without);
}

/* A tile's block in TILS chunk data: the directory starts at dir; *size its bytes. */
static const uint8_t *tile_block(const nav_writer *w, size_t dir, uint32_t t, uint32_t *size)
{
    const uint8_t *e = w->data + dir + 16 * (size_t)t;
    uint64_t offset = 0;
    for (int k = 7; k >= 0; k--) offset = offset << 8 | e[k];
    *size = (uint32_t)e[8] | (uint32_t)e[9] << 8 | (uint32_t)e[10] << 16 | (uint32_t)e[11] << 24;
    assert_true(offset % 16 == 0 && offset + *size <= w->size);
    return w->data + offset;
}

/* Tiles in a file: the wall scene of test_tiles_rebuild with a volume (a road of area 2, cost 3)
 * and a link. Written and read back, the tiles stitch into the build's mesh to the byte and write
 * the same bytes again; tile (2, 2) rebuilt without the wall, the chunk written again has every
 * other tile's block the same to the byte and that one's not, and its mesh is a fresh build's of
 * the changed level. Saved, nav_mesh_load_nav stitches the same mesh. Every bit flipped in a
 * block, and every cut of the chunk, is refused; a flip elsewhere gives tiles or an error, never a
 * crash. */
static void test_tiles_file(void **state)
{
    (void)state;
    scene *with, *without;
    nav_triangles a, b;
    nav_geometry_build_desc d;
    wall_scenes(&with, &without, &a, &b, &d);
    const float road[] = {14, 2, 18, 2, 18, 6, 14, 6};
    nav_geometry_volume volume = {road, 4, -1, 1, 2};
    nav_mesh_link_desc link = {.start = {3, 0, 17}, .end = {17, 0, 17}, .cost = 2, .user_id = 7};
    double cost[256];
    for (int k = 0; k < 256; k++) cost[k] = 1;
    cost[2] = 3;
    d.volumes = &volume, d.volume_count = 1, d.links = &link, d.link_count = 1, d.area_cost = cost;
    nav_geometry_tiles *tiles = NULL;
    nav_mesh *first = NULL;
    assert_int_equal(nav_geometry_tiles_build(&a, &d, &tiles, &first, NULL), NAV_SUCCESS);
    assert_int_equal(nav_mesh_link_count(first), 1);
    nav_writer w1;
    nav_writer_init(&w1, NULL);
    assert_int_equal(nav_geometry_tiles_write_chunk(tiles, &w1), NAV_SUCCESS);
    nav_geometry_tiles_destroy(tiles);
    nav_geometry_tiles *loaded = NULL;
    assert_int_equal(nav_geometry_tiles_read_chunk(w1.data, w1.size, NULL, &loaded), NAV_SUCCESS);
    nav_mesh *stitched = NULL;
    assert_int_equal(nav_geometry_tiles_mesh(loaded, &stitched, NULL), NAV_SUCCESS);
    assert_same_mesh(stitched, first);
    nav_mesh_destroy(stitched);
    nav_writer again;
    nav_writer_init(&again, NULL);
    assert_int_equal(nav_geometry_tiles_write_chunk(loaded, &again), NAV_SUCCESS);
    assert_int_equal(again.size, w1.size);
    assert_memory_equal(again.data, w1.data, w1.size);
    nav_writer_destroy(&again);

    /* the wall falls: tile (2, 2) of the loaded tiles rebuilt */
    nav_mesh *next = NULL, *fresh = NULL;
    assert_int_equal(nav_geometry_tiles_rebuild(loaded, &b, 2, 2, &next, NULL), NAV_SUCCESS);
    assert_int_equal(nav_mesh_build_from_geometry(&b, &d, &fresh, NULL), NAV_SUCCESS);
    assert_same_mesh(next, fresh);
    nav_writer w2;
    nav_writer_init(&w2, NULL);
    assert_int_equal(nav_geometry_tiles_write_chunk(loaded, &w2), NAV_SUCCESS);
    /* options 96 bytes, costs and flags 2560, the volume 16 + 32, the link 40: 2744, a multiple of 8 */
    const size_t dir = 2744;
    for (uint32_t t = 0; t < 36; t++) {
        uint32_t n1, n2;
        const uint8_t *b1 = tile_block(&w1, dir, t, &n1), *b2 = tile_block(&w2, dir, t, &n2);
        bool same = n1 == n2 && memcmp(b1, b2, n1) == 0;
        assert_int_equal(same, t != 2 * 6 + 2);
    }
    char path[] = "/tmp/test_tiles_file_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(nav_geometry_tiles_save_nav(loaded, path), NAV_SUCCESS);
    nav_mesh *from_file = NULL;
    assert_int_equal(nav_mesh_load_nav(path, NULL, NULL, &from_file, NULL), NAV_SUCCESS);
    assert_same_mesh(from_file, fresh);
    nav_mesh_destroy(from_file);
    /* the file holds the stitched mesh beside the tiles (the run time reads it alone): a file of
     * tiles without it, as libnav 0.1 wrote, is refused by the run time's reader, plainly, and its
     * tiles still load for the bake; one whose link lands on none of its polygons (its start moved
     * 100 m off the level) stitches into no mesh */
    nav_container container;
    void *bytes = NULL;
    assert_int_equal(nav_container_read_file(path, NULL, NULL, &bytes, &container), NAV_SUCCESS);
    assert_int_equal(container.count, 2);
    assert_int_equal(container.chunks[0].tag, NAV_CHUNK_MESH_TILES);
    assert_int_equal(container.chunks[1].tag, NAV_CHUNK_MESH);
    free(bytes);
    assert_int_equal(nav_container_write_file(
                         path,
                         &(nav_chunk){NAV_CHUNK_MESH_TILES, NAV_MESH_TILES_CHUNK_VERSION, w1.data, w1.size},
                         1, NULL),
                     NAV_SUCCESS);
    test_log log;
    test_log_init(&log);
    from_file = NULL;
    assert_int_equal(nav_mesh_load_nav(path, NULL, &log.hooks, &from_file, NULL),
                     NAV_FAILURE | NAV_WRONG_VERSION);
    assert_null(from_file);
    assert_non_null(strstr(log.last, "without the mesh stitched from them"));
    nav_geometry_tiles *tiles_only = NULL;
    assert_int_equal(nav_geometry_tiles_load_nav(path, NULL, &tiles_only), NAV_SUCCESS);
    assert_int_equal(nav_geometry_tiles_mesh(tiles_only, &from_file, NULL), NAV_SUCCESS);
    assert_same_mesh(from_file, first);
    nav_mesh_destroy(from_file);
    nav_geometry_tiles_destroy(tiles_only);
    uint8_t *moved = malloc(w1.size);
    memcpy(moved, w1.data, w1.size);
    float far_x = 120;
    memcpy(moved + 2656 + 48, &far_x, sizeof far_x); /* the link: after the options, costs, the volume */
    nav_chunk off_level = {NAV_CHUNK_MESH_TILES, NAV_MESH_TILES_CHUNK_VERSION, moved, w1.size};
    assert_int_equal(nav_container_write_file(path, &off_level, 1, NULL), NAV_SUCCESS);
    assert_int_equal(nav_geometry_tiles_load_nav(path, NULL, &tiles_only), NAV_SUCCESS);
    from_file = NULL;
    assert_int_equal(nav_geometry_tiles_mesh(tiles_only, &from_file, NULL), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_null(from_file);
    nav_geometry_tiles_destroy(tiles_only);
    free(moved);
    remove(path);

    /* damage */
    uint8_t *copy = malloc(w1.size);
    uint32_t first_size;
    size_t blocks = (size_t)(tile_block(&w1, dir, 0, &first_size) - w1.data);
    for (size_t at = 0; at < w1.size; at += at < blocks ? 1 : 13) {
        memcpy(copy, w1.data, w1.size);
        copy[at] ^= (uint8_t)(1u << (at % 8));
        nav_geometry_tiles *bad = NULL;
        nav_status s = nav_geometry_tiles_read_chunk(copy, w1.size, NULL, &bad);
        if (at >= blocks) assert_int_equal(s, NAV_FAILURE | NAV_CORRUPT_DATA);
        if (nav_succeeded(s)) {
            nav_mesh *m = NULL;
            if (nav_succeeded(nav_geometry_tiles_mesh(bad, &m, NULL))) check_chunk(m);
            nav_mesh_destroy(m);
        }
        nav_geometry_tiles_destroy(bad);
    }
    /* the last block cut short by 1 to 4 bytes, its size and CRC made to agree (fuzz_mesh's first
     * find was such a block, whose height triangles were then read from a failed reader) */
    for (uint32_t shorter = 1; shorter <= 4; shorter++) {
        uint32_t last_size;
        size_t last = (size_t)(tile_block(&w1, dir, 35, &last_size) - w1.data);
        memcpy(copy, w1.data, w1.size);
        uint8_t *e = copy + dir + 16 * 35;
        uint32_t size = last_size - shorter, crc = nav_crc32(0, copy + last, size);
        for (int k = 0; k < 4; k++)
            e[8 + k] = (uint8_t)(size >> (8 * k)), e[12 + k] = (uint8_t)(crc >> (8 * k));
        nav_geometry_tiles *bad = NULL;
        assert_int_equal(nav_geometry_tiles_read_chunk(copy, last + size, NULL, &bad),
                         NAV_FAILURE | NAV_CORRUPT_DATA);
        assert_null(bad);
    }
    for (size_t cut = 0; cut < w1.size; cut += 1 + cut / 64) {
        nav_geometry_tiles *bad = NULL;
        assert_int_equal(nav_geometry_tiles_read_chunk(w1.data, cut, NULL, &bad),
                         NAV_FAILURE | NAV_CORRUPT_DATA);
        assert_null(bad);
    }
    free(copy);
    nav_writer_destroy(&w1);
    nav_writer_destroy(&w2);
    nav_mesh_destroy(first);
    nav_mesh_destroy(next);
    nav_mesh_destroy(fresh);
    nav_geometry_tiles_destroy(loaded);
    free(with);
    free(without);
}

static void test_regions_level(void **state)
{
    (void)state;
    regions_of_level(false);
}

static void test_erosion_bands(void **state)
{
    (void)state;
    erosion_bands(false);
}

static void test_islands_bands(void **state)
{
    (void)state;
    islands_bands(false);
}

static void test_heights_level(void **state)
{
    (void)state;
    heights_of_level(false);
}

static void test_tiles_level(void **state)
{
    (void)state;
    tiles_of_level(false);
}

/* The same on the sample scene nav_test.obj (the shared data). */
static void test_regions_sample_scene(void **state)
{
    (void)state;
    regions_of_level(true);
}

static void test_erosion_bands_sample_scene(void **state)
{
    (void)state;
    erosion_bands(true);
}

static void test_islands_bands_sample_scene(void **state)
{
    (void)state;
    islands_bands(true);
}

static void test_heights_sample_scene(void **state)
{
    (void)state;
    heights_of_level(true);
}

static void test_tiles_sample_scene(void **state)
{
    (void)state;
    tiles_of_level(true);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plane_tops),
        cmocka_unit_test(test_low_ceiling),
        cmocka_unit_test(test_stairs),
        cmocka_unit_test(test_low_obstacle),
        cmocka_unit_test(test_erosion),
        cmocka_unit_test(test_volumes),
        cmocka_unit_test(test_regions_and_contours),
        cmocka_unit_test(test_regions_level),
        cmocka_unit_test(test_erosion_bands),
        cmocka_unit_test(test_islands_bands),
        cmocka_unit_test(test_build_plane),
        cmocka_unit_test(test_build_two_storeys),
        cmocka_unit_test(test_build_level),
        cmocka_unit_test(test_tiles_plane),
        cmocka_unit_test(test_tiles_level),
        cmocka_unit_test(test_heights_pyramid),
        cmocka_unit_test(test_heights_level),
        cmocka_unit_test(test_build_volumes_links_cancel),
        cmocka_unit_test(test_build_allocation_failures),
        cmocka_unit_test(test_build_random_triangles),
        cmocka_unit_test(test_build_facing_down),
        cmocka_unit_test(test_build_detail_options),
        cmocka_unit_test(test_tiles_rebuild),
        cmocka_unit_test(test_tiles_file),
        cmocka_unit_test(test_tiles_sources),
    };
    const struct CMUnitTest shared_tests[] = {
        cmocka_unit_test(test_regions_sample_scene),       cmocka_unit_test(test_erosion_bands_sample_scene),
        cmocka_unit_test(test_islands_bands_sample_scene), cmocka_unit_test(test_build_sample_scene),
        cmocka_unit_test(test_tiles_sample_scene),         cmocka_unit_test(test_heights_sample_scene),
    };
    static const char *const needs[] = {"meshes/nav_test.obj", NULL};
    return TEST_RUN_SUITE("geometry_build", tests, shared_tests, needs);
}
