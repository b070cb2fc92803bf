/* The mesh module's readers and bakes (mesh/bake) when memory runs out: the system heap failing on
 * demand (tests/sysfail.h: this suite's malloc, calloc and realloc, and libnav's, fail at the n-th call;
 * stb_ds's arrays and a default allocator use them) and a caller's nav_allocator failing in turn (the
 * calls its other suites do not already fail so: the tiles kept for rebuilding, their file, the build
 * in tiles). Each allocation is made to fail in turn, from the first, until the call needs no more
 * and succeeds: every failure must be NAV_FAILURE | NAV_OUT_OF_MEMORY with no object made, never a
 * crash, and nothing may leak (the test allocator counts its blocks; AddressSanitizer's leak check sees
 * the system heap in a sanitizer build). Small generated inputs keep it to seconds. */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "levelgen.h"
#include "support.h"
#include "sysfail.h"

#include "nav/geometry.h"
#include "nav/grid.h"
#include "nav/io.h"
#include "nav/mesh.h"

/* ---- A small level ----------------------------------------------------------------------------- */

#define LEVEL_MAX 512

/* Triangles made of quads. */
typedef struct level {
    float v[LEVEL_MAX * 3];
    uint32_t idx[LEVEL_MAX * 3];
    uint8_t area[LEVEL_MAX];
    uint32_t nv, nt;
} level;

static uint32_t vertex(level *l, float x, float y, float z)
{
    assert_true(l->nv < LEVEL_MAX);
    l->v[3 * l->nv] = x, l->v[3 * l->nv + 1] = y, l->v[3 * l->nv + 2] = z;
    return l->nv++;
}

/* The quad a, b, c, d (its two triangles a b c and a c d), of one area type. */
static void quad(level *l, const float *a, const float *b, const float *c, const float *d, uint8_t area)
{
    uint32_t i = vertex(l, a[0], a[1], a[2]), j = vertex(l, b[0], b[1], b[2]),
             k = vertex(l, c[0], c[1], c[2]), m = vertex(l, d[0], d[1], d[2]);
    const uint32_t tri[2][3] = {{i, j, k}, {i, k, m}};
    for (int t = 0; t < 2; t++) {
        assert_true(l->nt < LEVEL_MAX);
        memcpy(&l->idx[3 * l->nt], tri[t], sizeof tri[t]);
        l->area[l->nt++] = area;
    }
}

/* A level floor over [x0, x1] x [z0, z1] at height y, facing up. */
static void floor_at(level *l, float x0, float z0, float x1, float z1, float y, uint8_t area)
{
    quad(l, (float[]){x0, y, z0}, (float[]){x0, y, z1}, (float[]){x1, y, z1}, (float[]){x1, y, z0}, area);
}

/* A solid box: its top and four sides. */
static void box(level *l, float x0, float y0, float z0, float x1, float y1, float z1)
{
    floor_at(l, x0, z0, x1, z1, y1, 1);
    const float c[4][2] = {{x0, z0}, {x1, z0}, {x1, z1}, {x0, z1}};
    for (int k = 0; k < 4; k++) {
        const float *p = c[k], *q = c[(k + 1) % 4];
        quad(l, (float[]){p[0], y0, p[1]}, (float[]){p[0], y1, p[1]}, (float[]){q[0], y1, q[1]},
             (float[]){q[0], y0, q[1]}, 1);
    }
}

/* 12 x 12 m: a floor of 2 m squares (one a road, area 2), a box, a platform 1 m up and a ramp to it:
 * regions of several areas and heights, outlines that the simplification and the height samples
 * work on, polygons cut on the tiles' lines. */
static void small_level(level *l)
{
    *l = (level){0};
    for (int z = 0; z < 6; z++)
        for (int x = 0; x < 6; x++)
            if (!(x >= 4 && z >= 4))
                floor_at(l, 2.0f * x, 2.0f * z, 2.0f * x + 2, 2.0f * z + 2, 0, x == 1 && z < 3 ? 2 : 1);
    box(l, 4, 0, 4, 6, 1.5f, 8);
    box(l, 8, 0, 8, 12, 1, 12); /* the platform */
    quad(l, (float[]){6, 0, 8}, (float[]){6, 0, 12}, (float[]){8, 1, 12}, (float[]){8, 1, 8}, 3); /* ramp */
}

static nav_triangles triangles_of(const level *l)
{
    return (nav_triangles){l->v, l->nv, l->idx, l->nt, l->area};
}

/* The level's 40 x 40 cells in 2 x 2 tiles */
#define TILE 24

static const float volume_points[] = {1, 9, 3, 9, 3, 11, 1, 11};
static const nav_geometry_volume volume = {volume_points, 4, -1, 1, 4};
static const nav_mesh_link_desc ladder = {{3, 0, 10.5f}, {10, 1, 10}, 0, 0, true, 7};

/* RecastDemo's agent on cells of 0.3, heights sampled, a volume and a link; in tiles of `tile`
 * cells (0: whole) on `threads` threads. */
static nav_geometry_build_desc level_desc(uint32_t tile, uint32_t threads, const nav_allocator *allocator)
{
    return (nav_geometry_build_desc){.tile_size = tile,
                                     .threads = threads,
                                     .volumes = &volume,
                                     .volume_count = 1,
                                     .links = &ladder,
                                     .link_count = 1,
                                     .allocator = allocator};
}

/* The level as a Wavefront .obj text (malloc'd; a quad of it as one face of 4, the rest triangles). */
static char *level_obj(const level *l)
{
    size_t size = 64 * ((size_t)l->nv + l->nt) + 64, at = 0;
    char *text = malloc(size);
    assert_non_null(text);
    at += (size_t)snprintf(text + at, size - at, "# a small level\no level\n");
    for (uint32_t v = 0; v < l->nv; v++)
        at += (size_t)snprintf(text + at, size - at, "v %g %g %g\n", (double)l->v[3 * v],
                               (double)l->v[3 * v + 1], (double)l->v[3 * v + 2]);
    at += (size_t)snprintf(text + at, size - at, "f 1/1/1 2//2 3 4\n"); /* the first quad whole */
    for (uint32_t t = 2; t < l->nt; t++)
        at += (size_t)snprintf(text + at, size - at, "f %u %u -%u\n", l->idx[3 * t] + 1,
                               l->idx[3 * t + 1] + 1, l->nv - l->idx[3 * t + 2]);
    assert_true(at < size);
    return text;
}

/* A path of this suite's own in the temporary folder. */
static void temp_path(char *path, size_t size, const char *name)
{
    const char *dir = getenv("TMPDIR");
    snprintf(path, size, "%s/test_oom_mesh_%ld_%s", dir && *dir ? dir : "/tmp", (long)getpid(), name);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    assert_int_equal(fclose(f), 0);
}

/* The bytes of a mesh's MESH chunk (malloc'd), to compare meshes to the byte. */
static uint8_t *mesh_bytes(const nav_mesh *mesh, size_t *size)
{
    nav_writer w;
    nav_writer_init(&w, NULL);
    assert_int_equal(nav_mesh_write_chunk(mesh, &w), NAV_SUCCESS);
    uint8_t *bytes = malloc(w.size);
    assert_non_null(bytes);
    memcpy(bytes, w.data, w.size);
    *size = w.size;
    nav_writer_destroy(&w);
    return bytes;
}

static void assert_same_mesh(const nav_mesh *a, const nav_mesh *b)
{
    size_t na, nb;
    uint8_t *ba = mesh_bytes(a, &na), *bb = mesh_bytes(b, &nb);
    assert_int_equal(na, nb);
    assert_memory_equal(ba, bb, na);
    free(ba);
    free(bb);
}

/* ---- Failing each allocation in turn ----------------------------------------------------------- */

/* A call under test: run(ctx) makes its object(s), check(ctx, status) looks at the outcome (objects
 * there on success, none on failure) and releases them. */
typedef struct trial {
    nav_status (*run)(void *ctx);
    void (*check)(void *ctx, nav_status s);
    void *ctx;
} trial;

/* Fails system allocation 0, 1, 2, ... of the call in turn until it needs no more: each failure gives
 * NAV_FAILURE | NAV_OUT_OF_MEMORY; the last run succeeds. Returns how many failed. */
static long fail_each_system_allocation(const trial *t)
{
    for (long n = 0;; n++) {
        sysfail_arm(n);
        nav_status s = t->run(t->ctx);
        bool hit = sysfail_disarm();
        if (!hit) {
            assert_int_equal(s, NAV_SUCCESS);
            t->check(t->ctx, s);
            return n;
        }
        assert_int_equal(s, NAV_FAILURE | NAV_OUT_OF_MEMORY);
        t->check(t->ctx, s);
    }
}

/* The same with the caller's allocator (a, which the call's objects come from) failing its n-th call and
 * every later one: each failure NAV_OUT_OF_MEMORY, and no block of a's left once released. */
static long fail_each_caller_allocation(const trial *t, test_allocator *a)
{
    for (long n = 1;; n++) {
        long before = a->calls, live = a->live;
        a->fail_at = before + n;
        nav_status s = t->run(t->ctx);
        bool failed_one = a->calls >= a->fail_at;
        a->fail_at = 0;
        if (!failed_one) {
            assert_int_equal(s, NAV_SUCCESS);
            t->check(t->ctx, s);
            assert_int_equal(a->live, live);
            return n - 1;
        }
        assert_int_equal(s, NAV_FAILURE | NAV_OUT_OF_MEMORY);
        t->check(t->ctx, s);
        assert_int_equal(a->live, live);
    }
}

/* ---- The .obj reader --------------------------------------------------------------------------- */

typedef struct obj_call {
    const char *text; /* from memory, or */
    const char *path; /* from a file */
    const nav_allocator *allocator;
    nav_geometry *geometry;
    uint32_t triangles; /* expected */
} obj_call;

static nav_status run_obj(void *ctx)
{
    obj_call *c = ctx;
    return c->text ? nav_geometry_load_obj(c->text, strlen(c->text), "level.obj", c->allocator, NULL,
                                           &c->geometry)
                   : nav_geometry_load_obj_file(c->path, c->allocator, NULL, &c->geometry);
}

static void check_obj(void *ctx, nav_status s)
{
    obj_call *c = ctx;
    if (nav_failed(s)) {
        assert_null(c->geometry);
        return;
    }
    assert_int_equal(nav_geometry_triangles(c->geometry).triangle_count, c->triangles);
    nav_geometry_destroy(c->geometry);
    c->geometry = NULL;
}

static void test_obj_reader(void **state)
{
    (void)state;
    level *l = malloc(sizeof *l);
    small_level(l);
    char *text = level_obj(l), path[512];
    temp_path(path, sizeof path, "level.obj");
    write_file(path, text);
    obj_call from_memory = {.text = text, .triangles = l->nt}, from_file = {.path = path, .triangles = l->nt};
    long memory = fail_each_system_allocation(&(trial){run_obj, check_obj, &from_memory});
    long file = fail_each_system_allocation(&(trial){run_obj, check_obj, &from_file});
    fprintf(stderr, ".obj reader: %ld allocations failed in turn from memory, %ld from a file\n", memory,
            file);
    assert_true(memory >= 3 && file > memory); /* the arrays grew; the file's window too */
    remove(path);
    free(text);
    free(l);
}

/* ---- The build from level geometry -------------------------------------------------------------- */

typedef struct build_call {
    nav_triangles triangles;
    nav_geometry_build_desc desc;
    nav_mesh *mesh;
    const nav_mesh *expected; /* [opt] the mesh the build must make */
} build_call;

static nav_status run_build(void *ctx)
{
    build_call *c = ctx;
    return nav_mesh_build_from_geometry(&c->triangles, &c->desc, &c->mesh, NULL);
}

static void check_mesh_out(nav_mesh **mesh, const nav_mesh *expected, nav_status s)
{
    if (nav_failed(s)) {
        assert_null(*mesh);
        return;
    }
    assert_true(nav_mesh_poly_count(*mesh) > 10);
    if (expected) assert_same_mesh(*mesh, expected);
    nav_mesh_destroy(*mesh);
    *mesh = NULL;
}

static void check_build(void *ctx, nav_status s)
{
    build_call *c = ctx;
    check_mesh_out(&c->mesh, c->expected, s);
}

static void test_build_whole_and_in_tiles(void **state)
{
    (void)state;
    level *l = malloc(sizeof *l);
    small_level(l);
    for (uint32_t tile = 0; tile <= TILE; tile += TILE) {
        build_call c = {.triangles = triangles_of(l), .desc = level_desc(tile, 1, NULL)};
        nav_mesh *expected = NULL;
        assert_int_equal(nav_mesh_build_from_geometry(&c.triangles, &c.desc, &expected, NULL), NAV_SUCCESS);
        c.expected = expected; /* every build that succeeds makes the same mesh */
        long system = fail_each_system_allocation(&(trial){run_build, check_build, &c}), caller = 0;
        if (tile) { /* the caller's allocator (the whole build's is tested in test_geometry_build) */
            test_allocator a;
            test_allocator_init(&a, 0);
            c.desc.allocator = &a.hooks;
            caller = fail_each_caller_allocation(&(trial){run_build, check_build, &c}, &a);
            assert_int_equal(a.live, 0);
            assert_true(caller > 5);
        }
        fprintf(stderr, "build %s: %ld system allocations failed in turn, %ld of the caller's\n",
                tile ? "in tiles" : "whole", system, caller);
        assert_true(system > 50);
        nav_mesh_destroy(expected);
    }
    free(l);
}

/* Tiles on two threads, and a level deep enough that a whole build shares its stages out on a pool
 * (rows in bands, heights in runs): an allocation that fails on a helper thread fails the build as
 * well. Which allocation comes n-th depends on the threads' timing here, so each run of the loop may
 * fail another; every one must still be a clean NAV_OUT_OF_MEMORY. */
static void test_build_on_threads(void **state)
{
    (void)state;
    level *l = malloc(sizeof *l);
    small_level(l);
    build_call tiles = {.triangles = triangles_of(l), .desc = level_desc(TILE, 2, NULL)};
    long on_tiles = fail_each_system_allocation(&(trial){run_build, check_build, &tiles});
    assert_true(on_tiles > 50);
    /* a corridor 1 m wide and 10.4 m long in cells of 0.04 (261 rows: the bands take 32 or more), its
     * polygons triangles (many: the heights' runs take 32 or more) */
    level *deep = malloc(sizeof *deep);
    *deep = (level){0};
    for (int z = 0; z < 4; z++) floor_at(deep, 0, 2.6f * z, 1, 2.6f * z + 2.6f, 0.1f * (float)(z % 2), 1);
    nav_geometry_build_desc d = {.cell_size = 0.04f,
                                 .cell_height = 0.05f,
                                 .agent_radius = 0.1f,
                                 .max_poly_verts = 3,
                                 .max_edge_length = 0.4f,
                                 .detail_sample_distance = 0.5f,
                                 .threads = 2};
    build_call whole = {.triangles = triangles_of(deep), .desc = d};
    nav_geometry_build_stats stats;
    assert_int_equal(nav_mesh_build_from_geometry(&whole.triangles, &whole.desc, &whole.mesh, &stats),
                     NAV_SUCCESS);
    assert_true(stats.depth >= 256 && stats.polygons >= 32);
    nav_mesh_destroy(whole.mesh);
    whole.mesh = NULL;
    long in_bands = fail_each_system_allocation(&(trial){run_build, check_build, &whole});
    fprintf(
        stderr,
        "on 2 threads: %ld system allocations failed in turn in tiles, %ld whole (%d rows, %u polygons)\n",
        on_tiles, in_bands, stats.depth, stats.polygons);
    assert_true(in_bands > 50);
    free(deep);
    free(l);
}

/* ---- Tiles kept for rebuilding, and their file -------------------------------------------------- */

typedef struct tiles_call {
    nav_triangles triangles;
    nav_geometry_build_desc desc;
    nav_geometry_tiles *tiles; /* made by the call, or the one it works on */
    nav_mesh *mesh;
    const nav_mesh *expected;
    const void *data; /* a TILS chunk's */
    size_t size;
    const char *path;
    bool made;   /* the call makes tiles (they are destroyed after it) */
    bool meshes; /* and a mesh */
} tiles_call;

static void check_tiles(void *ctx, nav_status s)
{
    tiles_call *c = ctx;
    if (c->meshes) check_mesh_out(&c->mesh, c->expected, s);
    if (!c->made) return;
    if (nav_failed(s)) {
        assert_null(c->tiles);
        return;
    }
    nav_mesh *mesh = NULL; /* tiles read back stitch the same mesh */
    assert_int_equal(nav_geometry_tiles_mesh(c->tiles, &mesh, NULL), NAV_SUCCESS);
    assert_same_mesh(mesh, c->expected);
    nav_mesh_destroy(mesh);
    nav_geometry_tiles_destroy(c->tiles);
    c->tiles = NULL;
}

static nav_status run_tiles_build(void *ctx)
{
    tiles_call *c = ctx;
    return nav_geometry_tiles_build(&c->triangles, &c->desc, &c->tiles, &c->mesh, NULL);
}

static nav_status run_rebuild(void *ctx)
{
    tiles_call *c = ctx;
    return nav_geometry_tiles_rebuild(c->tiles, &c->triangles, 1, 1, &c->mesh, NULL);
}

/* A failed rebuild leaves tiles that still make the level's mesh (the tile as it was, or rebuilt from
 * the same triangles: the same). */
static void check_rebuild(void *ctx, nav_status s)
{
    tiles_call *c = ctx;
    check_mesh_out(&c->mesh, c->expected, s);
    nav_mesh *mesh = NULL;
    assert_int_equal(nav_geometry_tiles_mesh(c->tiles, &mesh, NULL), NAV_SUCCESS);
    assert_same_mesh(mesh, c->expected);
    nav_mesh_destroy(mesh);
}

static nav_status run_tiles_mesh(void *ctx)
{
    tiles_call *c = ctx;
    return nav_geometry_tiles_mesh(c->tiles, &c->mesh, NULL);
}

static nav_status run_read_chunk(void *ctx)
{
    tiles_call *c = ctx;
    return nav_geometry_tiles_read_chunk(c->data, c->size, &c->desc, &c->tiles);
}

static nav_status run_load_nav(void *ctx)
{
    tiles_call *c = ctx;
    return nav_geometry_tiles_load_nav(c->path, &c->desc, &c->tiles);
}

static nav_status run_save_nav(void *ctx)
{
    tiles_call *c = ctx;
    return nav_geometry_tiles_save_nav(c->tiles, c->path);
}

/* A file saved after failures is the file saved at once. */
static void check_save(void *ctx, nav_status s)
{
    tiles_call *c = ctx;
    if (nav_failed(s)) return;
    size_t size;
    char *bytes = test_read_file(c->path, &size);
    assert_int_equal(size, c->size);
    assert_memory_equal(bytes, c->data, size);
    free(bytes);
}

/* Every call on tiles, each allocation failing in turn: of the system heap (allocator: null) or of
 * the caller's (a). */
static void tiles_calls(const level *l, test_allocator *a)
{
    const nav_allocator *hooks = a ? &a->hooks : NULL;
    nav_triangles t = triangles_of(l);
    nav_geometry_build_desc desc = level_desc(TILE, 1, hooks);
    nav_geometry_tiles *tiles = NULL;
    nav_mesh *expected = NULL;
    assert_int_equal(nav_geometry_tiles_build(&t, &desc, &tiles, &expected, NULL), NAV_SUCCESS);
    long least = a ? 1 : 10; /* (the tiles read from a chunk take only their struct from the caller) */
#define FAIL_EACH(run, check, call)                                                                          \
    (a ? fail_each_caller_allocation(&(trial){run, check, call}, a)                                          \
       : fail_each_system_allocation(&(trial){run, check, call}))

    long made[6];
    /* the build that keeps its tiles */
    tiles_call c = {.triangles = t, .desc = desc, .expected = expected, .made = true, .meshes = true};
    made[0] = FAIL_EACH(run_tiles_build, check_tiles, &c);
    /* a tile built again, and the mesh made of them */
    tiles_call on = {.triangles = t, .tiles = tiles, .expected = expected};
    made[1] = FAIL_EACH(run_rebuild, check_rebuild, &on);
    made[2] = FAIL_EACH(run_tiles_mesh, check_rebuild, &on);
    /* the TILS chunk read (threads: 1 from now on) */
    nav_writer w;
    nav_writer_init(&w, NULL);
    assert_int_equal(nav_geometry_tiles_write_chunk(tiles, &w), NAV_SUCCESS);
    tiles_call read = {.desc = {.threads = 1, .allocator = hooks},
                       .expected = expected,
                       .data = w.data,
                       .size = w.size,
                       .made = true};
    made[3] = FAIL_EACH(run_read_chunk, check_tiles, &read);
    if (!a) { /* a chunk whose grid claims 2^32 tiles of one cell: refused before anything is made for them */
        uint8_t *huge = malloc(w.size);
        memcpy(huge, w.data, w.size);
        const uint8_t one[4] = {1, 0, 0, 0}, side[4] = {0xfe, 0xff, 0, 0}; /* tile size 1; 65534 cells */
        memcpy(huge + 15 * 4, one, 4);  /* after 14 options and the most vertices */
        memcpy(huge + 19 * 4, side, 4); /* after the box's corner: width, */
        memcpy(huge + 20 * 4, side, 4); /* depth */
        nav_geometry_tiles *none = NULL;
        sysfail_arm(LONG_MAX); /* (counts, fails none) */
        assert_int_equal(nav_geometry_tiles_read_chunk(huge, w.size, &read.desc, &none),
                         NAV_FAILURE | NAV_CORRUPT_DATA);
        long allocations = sysfail_count();
        assert_false(sysfail_disarm());
        assert_null(none);
        assert_true(allocations < 10); /* the tiles' struct, their volumes and links */
        free(huge);
    }
    /* the .nav file saved, and loaded */
    char path[512];
    temp_path(path, sizeof path, a ? "caller.nav" : "system.nav");
    assert_int_equal(nav_geometry_tiles_save_nav(tiles, path), NAV_SUCCESS);
    size_t size;
    char *saved = test_read_file(path, &size);
    tiles_call save = {.tiles = tiles, .data = saved, .size = size, .path = path};
    made[4] = FAIL_EACH(run_save_nav, check_save, &save);
    tiles_call load = {
        .desc = {.threads = 1, .allocator = hooks}, .expected = expected, .path = path, .made = true};
    made[5] = FAIL_EACH(run_load_nav, check_tiles, &load);
    fprintf(
        stderr,
        "tiles, %s failing: %ld allocations failed in turn in the build, %ld in a rebuild, %ld in the mesh, "
        "%ld in the chunk read, %ld in the save, %ld in the load\n",
        a ? "the caller's allocator" : "the system heap", made[0], made[1], made[2], made[3], made[4],
        made[5]);
    for (int k = 0; k < 6; k++) assert_true(made[k] >= least);
#undef FAIL_EACH
    remove(path);
    free(saved);
    nav_writer_destroy(&w);
    nav_geometry_tiles_destroy(tiles);
    nav_mesh_destroy(expected);
}

static void test_tiles(void **state)
{
    (void)state;
    level *l = malloc(sizeof *l);
    small_level(l);
    tiles_calls(l, NULL);
    test_allocator a;
    test_allocator_init(&a, 0);
    tiles_calls(l, &a);
    assert_int_equal(a.live, 0);
    free(l);
}

/* ---- The mesh of a grid, and its landmarks ----------------------------------------------------- */

typedef struct grid_call {
    const nav_grid *grid;
    nav_mesh_build_desc desc;
    nav_mesh *mesh;
    const nav_mesh *expected;
} grid_call;

static nav_status run_grid_build(void *ctx)
{
    grid_call *c = ctx;
    return nav_mesh_build_from_grid(c->grid, &c->desc, &c->mesh);
}

static void check_grid_build(void *ctx, nav_status s)
{
    grid_call *c = ctx;
    check_mesh_out(&c->mesh, c->expected, s);
}

static nav_status run_landmarks(void *ctx)
{
    grid_call *c = ctx;
    return nav_mesh_bake_landmarks(c->mesh, 4, NULL);
}

static void check_landmarks(void *ctx, nav_status s)
{
    grid_call *c = ctx;
    assert_int_equal(nav_mesh_landmark_count(c->mesh), nav_succeeded(s) ? 4 : 0);
}

static void test_grid_mesh(void **state)
{
    (void)state;
    /* walls, a pinch, a diagonal wall (rectangles merged into larger polygons), terrain types */
    static const char *const rows[] = {
        "..........#.......", "..22......#..#....", "..22.....#...#....", "........#....#....",
        ".......#.....#..33", "..#...#...........", "..#..#......#.....", "....#.......#.....",
        "...#....##...#....", "..................",
    };
    nav_grid *grid = test_grid_from_rows(rows, 10, NULL);
    assert_non_null(grid);
    nav_grid_set_terrain_cost(grid, 2, 2.0);
    nav_grid_set_terrain_cost(grid, 3, 5.0);
    const nav_mesh_link_desc links[] = {{{0.5f, 0, 0.5f}, {16.5f, 0, 8.5f}, 0, 0, true, 1}};
    for (int radius = 0; radius <= 1; radius++) {
        grid_call c = {.grid = grid,
                       .desc = {.agent_radius = (float)radius, .links = links, .link_count = 1}};
        nav_mesh *expected = NULL;
        assert_int_equal(nav_mesh_build_from_grid(grid, &c.desc, &expected), NAV_SUCCESS);
        c.expected = expected;
        long build = fail_each_system_allocation(&(trial){run_grid_build, check_grid_build, &c});
        /* its landmarks (mesh/bake/landmarks.c): a failed bake leaves the mesh without any */
        grid_call marks = {.mesh = expected};
        long landmarks = fail_each_system_allocation(&(trial){run_landmarks, check_landmarks, &marks});
        fprintf(stderr,
                "grid, radius %d: %ld system allocations failed in turn in the build, %ld in landmarks\n",
                radius, build, landmarks);
        assert_true(build > 20 && landmarks > 3);
        nav_mesh_destroy(expected);
    }
    nav_grid_destroy(grid);
}

/* ---- max_memory ------------------------------------------------------------------------------ */

/* One build under a bound on its memory. */
typedef struct bounded_build {
    const char *name;
    nav_triangles triangles;
    nav_geometry_build_desc desc;
} bounded_build;

/* Builds b under limits from 64 KiB to 1 GiB, each twice the last: every build either succeeds or
 * says NAV_TOO_LARGE, and never holds more of the heap than its limit (sysfail's count of the blocks
 * in use: libnav's scratch and the mesh it makes). The smallest limit is refused, the largest built.
 * Refusals of every kind are counted into refused[5]: before the build (the estimate), and by the
 * later stages as they grow (outlines, polygons, heights, the polygons kept and the mesh). */
static void build_within_limits(const bounded_build *b, int refused[5])
{
    test_log log;
    test_log_init(&log);
    bool built_once = false;
    for (int k = 16; k <= 30; k++) {
        nav_geometry_build_desc d = b->desc;
        d.max_memory = (uint64_t)1 << k;
        d.log = &log.hooks;
        nav_mesh *mesh = NULL;
        log.last[0] = '\0';
        sysfail_peak_reset();
        nav_status s = nav_mesh_build_from_geometry(&b->triangles, &d, &mesh, NULL);
        long long peak = sysfail_peak();
        nav_mesh_destroy(mesh);
        if (s != NAV_SUCCESS && s != (NAV_FAILURE | NAV_TOO_LARGE))
            fail_msg("%s, limit 2^%d: status %#x ('%s')", b->name, k, s, log.last);
        if (peak > (long long)d.max_memory)
            fail_msg("%s, limit 2^%d: %lld bytes at the peak ('%s')", b->name, k, peak, log.last);
        if (k == 16) assert_int_equal(s, NAV_FAILURE | NAV_TOO_LARGE);
        if (s == NAV_SUCCESS) {
            built_once = true;
        } else {
            static const char *const kinds[5] = {"would need up to", "outlines need", "polygons need",
                                                 "heights need", "polygons kept need"};
            int kind = 0;
            for (int i = 0; i < 5; i++)
                if (strstr(log.last, kinds[i])) kind = i;
            refused[kind]++;
            if (!strstr(log.last, "max_memory")) fail_msg("%s: '%s'", b->name, log.last);
        }
        fprintf(stderr, "%s, limit 2^%d: %s, %lld bytes at the peak%s%s\n", b->name, k, nav_status_str(s),
                peak, s ? ": " : "", s ? log.last : "");
        if (s == NAV_SUCCESS && k > 24) break; /* (larger limits change nothing) */
    }
    assert_true(built_once);
}

/* Before, a 60-byte .obj (two triangles 4.9 km a side) grew past 10 GB, and the build took what the
 * machine had. Each build here stays within its max_memory: the generated level whole on one and two
 * threads and in tiles, the 4.9 km square at cells of 5 m (it fits: a million columns), a polygon
 * of 150 m sampled for its heights at the least distance (its samples capped). */
static void test_build_within_max_memory(void **state)
{
    (void)state;
    test_level generated;
    test_level_generate(&generated);
    size_t size;
    char *text = test_level_obj(&generated, &size);
    nav_geometry *g = NULL;
    assert_int_equal(nav_geometry_load_obj(text, size, "level.obj", NULL, NULL, &g), NAV_SUCCESS);
    free(text);
    test_level_destroy(&generated);
    static const float square[] = {0, 0, 0, 4900, 0, 0, 4900, 0, 4900, 0, 0, 4900};
    static const float plane[] = {0, 0, 0, 150, 0, 0, 150, 0, 150, 0, 0, 150};
    static const uint32_t quad[] = {0, 3, 2, 0, 2, 1};
    const bounded_build builds[] = {
        {"the generated level, whole on one thread", nav_geometry_triangles(g), {.threads = 1}},
        {"the generated level, whole on two threads", nav_geometry_triangles(g), {.threads = 2}},
        {"the generated level, tiles of 64 on two threads",
         nav_geometry_triangles(g),
         {.tile_size = 64, .threads = 2}},
        {"the 4.9 km square, cells of 5", {square, 4, quad, 2, NULL}, {.cell_size = 5, .threads = 2}},
        {"a plane of 150 m, heights every 0.9 cells",
         {plane, 4, quad, 2, NULL},
         {.cell_size = 0.5f, .detail_sample_distance = 0.45f, .max_edge_length = -1, .threads = 1}},
    };
    int refused[5] = {0};
    for (size_t i = 0; i < sizeof builds / sizeof builds[0]; i++) build_within_limits(&builds[i], refused);
    fprintf(stderr, "refused: %d by the estimate, %d outlines, %d polygons, %d heights, %d polygons kept\n",
            refused[0], refused[1], refused[2], refused[3], refused[4]);
    assert_true(refused[0] > 0);
    nav_geometry_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_obj_reader),       cmocka_unit_test(test_build_whole_and_in_tiles),
        cmocka_unit_test(test_build_on_threads), cmocka_unit_test(test_tiles),
        cmocka_unit_test(test_grid_mesh),        cmocka_unit_test(test_build_within_max_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
