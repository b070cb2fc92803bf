/* Issue 43, defect 13: the readers and bakes of nav/, waypoints/ and hpa/ meet a failed system
 * allocation. Each call below runs again and again with the n-th malloc, calloc or realloc failing
 * (n = 0, 1, 2, ... until the call needs no more: tests/sysfail.h), and must then return
 * NAV_FAILURE | NAV_OUT_OF_MEMORY, leak nothing (ASan's leak check) and never crash; with no
 * allocation failing it must succeed. The system heap is what fails, not an allocator handed in:
 * stb_ds's arrays and the bakes' indexes use it whatever the caller passes.
 *
 * Not seen here: allocations made inside shared libraries (libspng decoding a PNG, cJSON parsing
 * a world file, glibc's own), which the link-time wrap does not reach. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "json_syntax.h" /* hpa/bake: the world loader's check of a text cJSON refused */
#include "nav/hpa.h"
#include "nav/io.h"
#include "nav/mesh.h"
#include "nav/scen.h"
#include "nav/waypoints.h"
#include "nav/world.h"
#include "support.h"
#include "sysfail.h"

/* ---- Failing each allocation in turn ------------------------------------------------------------ */

/* A call under test: its status; what it made is kept in ctx and freed by release. */
typedef nav_status (*oom_call)(void *ctx);
typedef void (*oom_release)(void *ctx);
/* Whether what a call made, though an allocation failed, is what it makes when none fails: the
 * only way a call may succeed through a failure (a bake that cuts its arrays to size keeps them as
 * they are when the shrinking realloc fails). */
typedef bool (*oom_same)(void *ctx);

/* Runs call with allocation 0, 1, 2, ... failing; each run must fail with NAV_OUT_OF_MEMORY (or,
 * with same [opt], succeed with the same result), the first run that allocates no more than it was
 * let must succeed. Returns the allocations that run made. */
static long fail_each(const char *what, oom_call call, oom_release release, oom_same same, void *ctx)
{
    for (long n = 0;; n++) {
        sysfail_arm(n);
        nav_status s = call(ctx);
        bool hit = sysfail_disarm();
        if (!hit) {
            if (s != NAV_SUCCESS) fail_msg("%s: no allocation failed, yet status %#x", what, (unsigned)s);
            release(ctx);
            print_message("%s: %ld allocations, each failed in turn\n", what, n);
            return n;
        }
        if (s == NAV_SUCCESS && same && same(ctx)) {
            release(ctx);
            continue;
        }
        if (s != (NAV_FAILURE | NAV_OUT_OF_MEMORY)) {
            char text[128];
            nav_status_format(s, text, sizeof text);
            fail_msg("%s: allocation %ld failed and the call said \"%s\"", what, n, text);
        }
        release(ctx);
    }
}

/* Writes text to a new file in dir; its path into path (room 256). */
static void write_file(const char *dir, const char *name, const void *bytes, size_t size, char *path)
{
    snprintf(path, 256, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

static void remove_dir(const char *dir)
{
    char command[300];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    assert_int_equal(system(command), 0);
}

/* What a writer holds, for comparing two objects by their bytes (freed by the caller). */
static nav_writer written(nav_status s, nav_writer *w)
{
    assert_int_equal(s, NAV_SUCCESS);
    return *w;
}

static bool same_writers(nav_writer a, nav_writer b)
{
    bool same = a.size == b.size && memcmp(a.data, b.data, a.size) == 0;
    nav_writer_destroy(&a);
    nav_writer_destroy(&b);
    return same;
}

/* ---- Grid readers --------------------------------------------------------------------------------- */

typedef nav_status (*grid_text_loader)(const char *text, size_t size, const char *name,
                                       const nav_grid_desc *options, nav_grid **out);
typedef nav_status (*grid_file_loader)(const char *path, const nav_grid_desc *options, nav_grid **out);

typedef struct grid_load {
    grid_text_loader from_text;
    grid_file_loader from_file;
    const char *text, *path;
    size_t size;
    nav_grid *grid;
} grid_load;

static nav_status grid_load_call(void *ctx)
{
    grid_load *g = ctx;
    return g->path ? g->from_file(g->path, NULL, &g->grid)
                   : g->from_text(g->text, g->size, "t", NULL, &g->grid);
}

static void grid_load_release(void *ctx)
{
    grid_load *g = ctx;
    nav_grid_destroy(g->grid);
    g->grid = NULL;
}

/* A loader from memory and from a file of the same text. */
static void check_grid_loader(const char *what, grid_text_loader from_text, grid_file_loader from_file,
                              const char *text, size_t size)
{
    char dir[] = "/tmp/test_oom_grid_XXXXXX", path[256];
    assert_non_null(mkdtemp(dir));
    write_file(dir, "grid", text, size, path);
    grid_load g = {from_text, from_file, text, NULL, size, NULL};
    fail_each(what, grid_load_call, grid_load_release, NULL, &g);
    g.path = path;
    fail_each(what, grid_load_call, grid_load_release, NULL, &g);
    remove_dir(dir);
}

static void test_map_reader(void **state)
{
    (void)state;
    const char map[] = "type octile\nheight 6\nwidth 8\nmap\n"
                       "........\n"
                       "..@@....\n"
                       "..@..S..\n"
                       "....T...\n"
                       "SS......\n"
                       "......GG\n";
    check_grid_loader("nav_grid_load_map", nav_grid_load_map, nav_grid_load_map_file, map, strlen(map));
}

static void test_ascii_reader(void **state)
{
    (void)state;
    const char ascii[] = "legend o cost 2 height -1\n"
                         "legend _ height -3\n"
                         "max_climb 5\n"
                         "map\n"
                         "....##..\n"
                         ".oo.#...\n"
                         ".oo...__\n"
                         "......__\n"
                         "ffff..mm\n";
    check_grid_loader("nav_grid_load_ascii", nav_grid_load_ascii, nav_grid_load_ascii_file, ascii,
                      strlen(ascii));
}

/* ---- PNG masks (encoded here: stored deflate blocks, no compressor needed) ---------------------- */

typedef struct bytes {
    unsigned char data[4096];
    size_t size;
} bytes;

static void put(bytes *b, const void *data, size_t size)
{
    assert_true(b->size + size <= sizeof b->data);
    memcpy(b->data + b->size, data, size);
    b->size += size;
}

static void put_be32(bytes *b, uint32_t v)
{
    unsigned char p[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16), (unsigned char)(v >> 8),
                          (unsigned char)v};
    put(b, p, 4);
}

static void put_chunk(bytes *b, const char *type, const unsigned char *data, size_t size)
{
    put_be32(b, (uint32_t)size);
    size_t at = b->size;
    put(b, type, 4);
    if (size) put(b, data, size);
    put_be32(b, nav_crc32(0, b->data + at, size + 4));
}

/* An RGB image of w x h pixels (rgb: 0xRRGGBB a pixel, row after row), one stored deflate block. */
static void encode_png(bytes *b, uint32_t w, uint32_t h, const uint32_t *rgb)
{
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    b->size = 0;
    put(b, signature, 8);
    unsigned char ihdr[13] = {0};
    for (int i = 0; i < 4; i++)
        ihdr[i] = (unsigned char)(w >> (24 - 8 * i)), ihdr[4 + i] = (unsigned char)(h >> (24 - 8 * i));
    ihdr[8] = 8; /* bit depth */
    ihdr[9] = 2; /* RGB */
    put_chunk(b, "IHDR", ihdr, sizeof ihdr);
    unsigned char raw[1024], idat[1100];
    size_t n = 0;
    for (uint32_t y = 0; y < h; y++) {
        raw[n++] = 0; /* filter: none */
        for (uint32_t x = 0; x < w; x++) {
            uint32_t c = rgb[y * w + x];
            raw[n++] = (unsigned char)(c >> 16), raw[n++] = (unsigned char)(c >> 8),
            raw[n++] = (unsigned char)c;
        }
    }
    assert_true(n < 65536 && n + 11 <= sizeof idat);
    size_t k = 0;
    idat[k++] = 0x78, idat[k++] = 0x01; /* zlib: deflate, 32 KiB window */
    idat[k++] = 0x01;                   /* the final block, stored */
    idat[k++] = (unsigned char)n, idat[k++] = (unsigned char)(n >> 8);
    idat[k++] = (unsigned char)~n, idat[k++] = (unsigned char)(~n >> 8);
    memcpy(idat + k, raw, n);
    k += n;
    uint32_t s1 = 1, s2 = 0; /* Adler-32 */
    for (size_t i = 0; i < n; i++) s1 = (s1 + raw[i]) % 65521, s2 = (s2 + s1) % 65521;
    uint32_t adler = s2 << 16 | s1;
    for (int i = 0; i < 4; i++) idat[k++] = (unsigned char)(adler >> (24 - 8 * i));
    put_chunk(b, "IDAT", idat, k);
    put_chunk(b, "IEND", NULL, 0);
}

typedef struct png_load {
    const bytes *png;
    const char *path;
    const nav_png_desc *desc;
    nav_grid *grid;
} png_load;

static nav_status png_load_call(void *ctx)
{
    png_load *p = ctx;
    return p->path ? nav_grid_load_png_file(p->path, p->desc, NULL, &p->grid)
                   : nav_grid_load_png(p->png->data, p->png->size, "t.png", p->desc, NULL, &p->grid);
}

static void png_load_release(void *ctx)
{
    png_load *p = ctx;
    nav_grid_destroy(p->grid);
    p->grid = NULL;
}

/* (libspng's own allocations, its context and zlib's window, are made inside the shared library:
 * not failed here.) */
static void test_png_reader(void **state)
{
    (void)state;
    enum { W = 10, H = 7 };
    uint32_t rgb[W * H];
    for (uint32_t i = 0; i < W * H; i++) rgb[i] = i % 7 == 3 ? 0x000000 : i % 5 == 1 ? 0x808080 : 0xffffff;
    bytes png;
    encode_png(&png, W, H, rgb);
    char dir[] = "/tmp/test_oom_png_XXXXXX", path[256];
    assert_non_null(mkdtemp(dir));
    write_file(dir, "mask.png", png.data, png.size, path);
    /* a palette: grey costs 3 and lies lower (a height layer) */
    const nav_palette_entry palette[] = {
        {0xffffff, 1, 0}, {0x808080, 3, -2}, {0x000000, NAV_COST_BLOCKED, 0}};
    nav_png_desc with_palette = {.palette = palette, .palette_count = 3};
    const nav_png_desc *descs[2] = {NULL, &with_palette};
    for (int d = 0; d < 2; d++) {
        png_load p = {&png, NULL, descs[d], NULL};
        fail_each("nav_grid_load_png", png_load_call, png_load_release, NULL, &p);
        p.path = path;
        fail_each("nav_grid_load_png_file", png_load_call, png_load_release, NULL, &p);
    }
    remove_dir(dir);
}

/* ---- Scenarios ------------------------------------------------------------------------------------ */

typedef struct scen_load {
    const char *text, *path;
    size_t size;
    nav_scen *scen;
} scen_load;

static nav_status scen_load_call(void *ctx)
{
    scen_load *l = ctx;
    return l->path ? nav_scen_load_file(l->path, NULL, NULL, &l->scen)
                   : nav_scen_load(l->text, l->size, "t.scen", NULL, NULL, &l->scen);
}

static void scen_load_release(void *ctx)
{
    scen_load *l = ctx;
    nav_scen_destroy(l->scen);
    l->scen = NULL;
}

static void test_scen_reader(void **state)
{
    (void)state;
    char text[16384];
    size_t n = (size_t)snprintf(text, sizeof text, "version 1\n");
    for (int i = 0; i < 150; i++) /* more than the first 64 problems: the array grows twice */
        n += (size_t)snprintf(text + n, sizeof text - n, "%d\tmaps/t.map\t8\t6\t%d\t%d\t%d\t%d\t%d.5\n",
                              i / 10, i % 8, i % 6, (i + 3) % 8, (i + 1) % 6, i % 9);
    char dir[] = "/tmp/test_oom_scen_XXXXXX", path[256];
    assert_non_null(mkdtemp(dir));
    write_file(dir, "t.scen", text, n, path);
    scen_load l = {text, NULL, n, NULL};
    fail_each("nav_scen_load", scen_load_call, scen_load_release, NULL, &l);
    l.path = path;
    fail_each("nav_scen_load_file", scen_load_call, scen_load_release, NULL, &l);
    remove_dir(dir);
}

/* ---- Waypoint graphs ------------------------------------------------------------------------------ */

/* A text graph: a ring of n waypoints, each also joined to the one three on, some links one-way. */
static size_t waypoint_text(char *text, size_t room, int n, float x0)
{
    size_t at = (size_t)snprintf(text, room, "libnav waypoints 1\n# a ring\n");
    for (int i = 0; i < n; i++)
        at += (size_t)snprintf(text + at, room - at, "waypoint w%d %g 0 %g%s\n", i,
                               (double)(x0 + 5 * cosf(6.2831853f * (float)i / (float)n)),
                               (double)(5 * sinf(6.2831853f * (float)i / (float)n)), i % 4 ? "" : " tags 3");
    for (int i = 0; i < n; i++) {
        at += (size_t)snprintf(text + at, room - at, "link w%d w%d\n", i, (i + 1) % n);
        at += (size_t)snprintf(text + at, room - at, "link w%d w%d cost %d%s\n", i, (i + 3) % n, 4 + i % 3,
                               i % 2 ? " oneway" : "");
    }
    assert_true(at < room);
    return at;
}

typedef struct graph_load {
    const char *text, *path;
    size_t size;
    nav_waypoint_graph graph;
} graph_load;

static nav_status graph_load_call(void *ctx)
{
    graph_load *l = ctx;
    return l->path ? nav_waypoint_graph_load_file(l->path, NULL, &l->graph)
                   : nav_waypoint_graph_load_text(l->text, l->size, NULL, &l->graph);
}

static void graph_load_release(void *ctx)
{
    nav_waypoint_graph_release(&((graph_load *)ctx)->graph);
}

static void test_waypoint_text_reader(void **state)
{
    (void)state;
    char text[8192];
    size_t n = waypoint_text(text, sizeof text, 40, 0);
    char dir[] = "/tmp/test_oom_wp_XXXXXX", path[256];
    assert_non_null(mkdtemp(dir));
    write_file(dir, "ring.txt", text, n, path);
    graph_load l = {text, NULL, n, {0}};
    fail_each("nav_waypoint_graph_load_text", graph_load_call, graph_load_release, NULL, &l);
    l.path = path;
    fail_each("nav_waypoint_graph_load_file", graph_load_call, graph_load_release, NULL, &l);
    remove_dir(dir);
}

typedef struct wp_bake {
    const nav_waypoint_graph *graph;
    nav_waypoints_bake_desc desc;
    nav_waypoints *wp;
} wp_bake;

static nav_status wp_bake_call(void *ctx)
{
    wp_bake *b = ctx;
    return nav_waypoints_bake(b->graph, &b->desc, &b->wp);
}

static void wp_bake_release(void *ctx)
{
    wp_bake *b = ctx;
    nav_waypoints_destroy(b->wp);
    b->wp = NULL;
}

/* Plain tables and hub labels (dense_max below the count), on one thread and on two (a row's or a
 * tree's scratch failing on a worker). */
static void test_waypoints_bake(void **state)
{
    (void)state;
    char text[8192];
    size_t n = waypoint_text(text, sizeof text, 40, 0);
    nav_waypoint_graph graph;
    assert_int_equal(nav_waypoint_graph_load_text(text, n, NULL, &graph), NAV_SUCCESS);
    for (int labels = 0; labels < 2; labels++)
        for (uint32_t threads = 1; threads <= 2; threads++) {
            wp_bake b = {&graph, {.threads = threads, .dense_max = labels ? 8 : 0}, NULL};
            fail_each(labels ? "nav_waypoints_bake (labels)" : "nav_waypoints_bake", wp_bake_call,
                      wp_bake_release, NULL, &b);
        }
    nav_waypoint_graph_release(&graph);
}

typedef struct wp_from_grid {
    const nav_grid *grid;
    nav_waypoint_grid_desc desc;
    bool bake;
    nav_waypoint_graph graph;
    nav_waypoints *wp;
} wp_from_grid;

static nav_status wp_from_grid_call(void *ctx)
{
    wp_from_grid *c = ctx;
    return c->bake ? nav_waypoints_bake_grid(c->grid, &c->desc, &c->wp)
                   : nav_waypoint_graph_from_grid(c->grid, &c->desc, &c->graph);
}

static void wp_from_grid_release(void *ctx)
{
    wp_from_grid *c = ctx;
    nav_waypoint_graph_release(&c->graph);
    nav_waypoints_destroy(c->wp);
    c->wp = NULL;
}

static const char *const obstacle_rows[] = {
    "............", "..##....#...", "..##........", "......###...",
    ".#....#.....", "......#..##.", "..........#.", "....#.......",
};

static void test_waypoints_from_grid(void **state)
{
    (void)state;
    nav_grid *plain = test_grid_from_rows(obstacle_rows, 8, NULL);
    nav_grid *costly = test_grid_from_rows(obstacle_rows, 8, NULL); /* a terrain cost: no pruning */
    assert_int_equal(nav_grid_set_terrain_cost(costly, 2, 3.0), NAV_SUCCESS);
    for (int32_t x = 0; x < 5; x++) nav_grid_set_cell(costly, x, 6, 2);
    const nav_grid *grids[2] = {plain, costly};
    for (int g = 0; g < 2; g++)
        for (int bake = 0; bake < 2; bake++)
            for (uint32_t threads = 1; threads <= 2; threads++) {
                wp_from_grid c = {grids[g], {.threads = threads}, bake != 0, {0}, NULL};
                fail_each(bake ? "nav_waypoints_bake_grid" : "nav_waypoint_graph_from_grid",
                          wp_from_grid_call, wp_from_grid_release, NULL, &c);
            }
    nav_grid_destroy(plain);
    nav_grid_destroy(costly);
}

typedef struct wp_from_mesh {
    const nav_mesh *mesh;
    nav_waypoint_mesh_desc desc;
    bool bake;
    nav_waypoint_graph graph;
    nav_waypoints *wp;
} wp_from_mesh;

static nav_status wp_from_mesh_call(void *ctx)
{
    wp_from_mesh *c = ctx;
    return c->bake ? nav_waypoints_bake_mesh(c->mesh, &c->desc, &c->wp)
                   : nav_waypoint_graph_from_mesh(c->mesh, &c->desc, &c->graph);
}

static void wp_from_mesh_release(void *ctx)
{
    wp_from_mesh *c = ctx;
    nav_waypoint_graph_release(&c->graph);
    nav_waypoints_destroy(c->wp);
    c->wp = NULL;
}

/* A mesh of one cost (pruned links), and one of two costs with an off-mesh link (every pair walked
 * polygon by polygon). (The meshes are built before the failures start: building them is the mesh
 * module's to test.) */
static void test_waypoints_from_mesh(void **state)
{
    (void)state;
    nav_grid *plain = test_grid_from_rows(obstacle_rows, 8, NULL);
    nav_grid *costly = test_grid_from_rows(obstacle_rows, 8, NULL);
    assert_int_equal(nav_grid_set_terrain_cost(costly, 2, 3.0), NAV_SUCCESS);
    for (int32_t x = 0; x < 5; x++) nav_grid_set_cell(costly, x, 6, 2);
    nav_mesh_link_desc jump = {.start = {0.5f, 0, 0.5f}, .end = {11.5f, 0, 7.5f}, .cost = 4};
    nav_mesh *meshes[2];
    assert_int_equal(nav_mesh_build_from_grid(plain, NULL, &meshes[0]), NAV_SUCCESS);
    assert_int_equal(
        nav_mesh_build_from_grid(costly, &(nav_mesh_build_desc){.links = &jump, .link_count = 1}, &meshes[1]),
        NAV_SUCCESS);
    for (int m = 0; m < 2; m++)
        for (int bake = 0; bake < 2; bake++)
            for (uint32_t threads = 1; threads <= 2; threads++) {
                wp_from_mesh c = {meshes[m], {.threads = threads}, bake != 0, {0}, NULL};
                fail_each(bake ? "nav_waypoints_bake_mesh" : "nav_waypoint_graph_from_mesh",
                          wp_from_mesh_call, wp_from_mesh_release, NULL, &c);
            }
    nav_mesh_destroy(meshes[0]);
    nav_mesh_destroy(meshes[1]);
    nav_grid_destroy(plain);
    nav_grid_destroy(costly);
}

/* ---- HPA* ------------------------------------------------------------------------------------------- */

typedef struct hpa_bake {
    const nav_grid *grid;
    const nav_hpa *old;
    nav_hpa_desc desc;
    nav_hpa *hpa;
    nav_hpa *reference; /* the bake with no allocation failing */
} hpa_bake;

static nav_status hpa_bake_call(void *ctx)
{
    hpa_bake *b = ctx;
    return b->old ? nav_hpa_rebake(b->old, b->grid, (nav_grid_rect){0, 0, 3, 3}, NULL, &b->hpa)
                  : nav_hpa_bake(b->grid, &b->desc, &b->hpa);
}

static void hpa_bake_release(void *ctx)
{
    hpa_bake *b = ctx;
    nav_hpa_destroy(b->hpa);
    b->hpa = NULL;
}

static nav_writer hpa_bytes(const nav_hpa *hpa)
{
    nav_writer w;
    nav_writer_init(&w, NULL);
    return written(nav_hpa_write_chunk(hpa, &w), &w);
}

/* The bake's arrays cut to size (fit in hpa/bake/bake.c) stay as they were when the shrinking
 * realloc fails: the same bake. */
static bool hpa_bake_same(void *ctx)
{
    hpa_bake *b = ctx;
    return same_writers(hpa_bytes(b->hpa), hpa_bytes(b->reference));
}

static void check_hpa_bake(const char *what, hpa_bake *b)
{
    assert_int_equal(hpa_bake_call(b), NAV_SUCCESS);
    b->reference = b->hpa;
    b->hpa = NULL;
    fail_each(what, hpa_bake_call, hpa_bake_release, hpa_bake_same, b);
    nav_hpa_destroy(b->reference);
}

static void test_hpa_bake(void **state)
{
    (void)state;
    const char *rows[] = {
        "................", "..##....#.......", "..##........##..", "......###.......",
        ".#....#.........", "......#..##.....", "..........#.....", "....#...........",
        "........#####...", "...2222.........", "...2222...#.....", "..........#.....",
    };
    nav_grid *grid = test_grid_from_rows(rows, 12, NULL);
    nav_grid *costly = test_grid_from_rows(rows, 12, NULL); /* two costs: no distance fields */
    assert_int_equal(nav_grid_set_terrain_cost(costly, 2, 2.5), NAV_SUCCESS);
    const nav_grid *grids[2] = {grid, costly};
    for (int g = 0; g < 2; g++) {
        hpa_bake b = {grids[g], NULL, {.cluster_size = 4, .levels = 2, .level_ratio = 2}, NULL, NULL};
        check_hpa_bake("nav_hpa_bake", &b);
    }
    nav_hpa *old;
    assert_int_equal(
        nav_hpa_bake(grid, &(nav_hpa_desc){.cluster_size = 4, .levels = 2, .level_ratio = 2}, &old),
        NAV_SUCCESS);
    nav_grid_set_cell(grid, 1, 1, NAV_TERRAIN_BLOCKED);
    hpa_bake b = {grid, old, {0}, NULL, NULL};
    check_hpa_bake("nav_hpa_rebake", &b);
    nav_hpa_destroy(old);
    nav_grid_destroy(grid);
    nav_grid_destroy(costly);
}

/* ---- Worlds ------------------------------------------------------------------------------------------ */

/* The pieces of a small world: two grids side by side (the west one searched through HPA*), a mesh
 * south of the west grid (its wall along the grid's border), a ring of waypoints out east, and a
 * field far north with links between its cells (more than 64 cells of chokepoints: a pruned table). */
typedef struct world_parts {
    nav_grid *west, *east, *plaza_grid, *field;
    nav_hpa *west_hpa;
    nav_mesh *plaza;
    nav_waypoint_graph roads_graph;
    nav_waypoints *roads;
} world_parts;

static const char *const west_rows[] = {"........", "..##....", "..##....",
                                        "........", "....#...", "........"};
static const char *const east_rows[] = {"........", "....#...", "........",
                                        "..#.....", "........", "........"};
static const char *const plaza_rows[] = {"......", "......", "..##..", "..##..", "......", "......"};

static void make_parts(world_parts *p)
{
    p->west = test_grid_from_rows(west_rows, 6, &(nav_grid_desc){.origin = {0, 0, 0}});
    p->east = test_grid_from_rows(east_rows, 6, &(nav_grid_desc){.origin = {8, 0, 0}});
    p->plaza_grid = test_grid_from_rows(plaza_rows, 6, &(nav_grid_desc){.origin = {0, 0, 6}});
    assert_int_equal(
        nav_grid_create(&(nav_grid_desc){.width = 12, .height = 12, .origin = {0, 0, 40}}, &p->field),
        NAV_SUCCESS);
    assert_int_equal(nav_hpa_bake(p->west, &(nav_hpa_desc){.cluster_size = 4}, &p->west_hpa), NAV_SUCCESS);
    assert_int_equal(nav_mesh_build_from_grid(p->plaza_grid, NULL, &p->plaza), NAV_SUCCESS);
    char text[8192];
    size_t n = waypoint_text(text, sizeof text, 12, 30);
    assert_int_equal(nav_waypoint_graph_load_text(text, n, NULL, &p->roads_graph), NAV_SUCCESS);
    assert_int_equal(nav_waypoints_bake(&p->roads_graph, NULL, &p->roads), NAV_SUCCESS);
}

static void free_parts(world_parts *p)
{
    nav_waypoints_destroy(p->roads);
    nav_waypoint_graph_release(&p->roads_graph);
    nav_mesh_destroy(p->plaza);
    nav_hpa_destroy(p->west_hpa);
    nav_grid_destroy(p->west);
    nav_grid_destroy(p->east);
    nav_grid_destroy(p->plaza_grid);
    nav_grid_destroy(p->field);
}

typedef struct world_build {
    const world_parts *parts;
    nav_world_join_mode mode;
    uint32_t threads;
    bool bake; /* false: up to the join */
    uint32_t added;
    nav_world *world;
} world_build;

/* The first failure of: a builder, its regions, the join, two links, the bake. */
static nav_status world_build_call(void *ctx)
{
    world_build *c = ctx;
    const world_parts *p = c->parts;
    nav_world_builder *b;
    nav_status s = nav_world_builder_create(NULL, NULL, &b);
    if (nav_failed(s)) return s;
    uint32_t west, east, plaza, roads, field;
    s = nav_world_builder_add_grid_hpa(b, "west", p->west, p->west_hpa, &west);
    if (!nav_failed(s)) s = nav_world_builder_add_grid(b, "east", p->east, &east);
    if (!nav_failed(s)) s = nav_world_builder_add_mesh(b, "plaza", p->plaza, &plaza);
    if (!nav_failed(s)) s = nav_world_builder_add_waypoints(b, "roads", p->roads, 1, &roads);
    if (!nav_failed(s))
        s = nav_world_builder_join_touching(b, &(nav_world_join_desc){.mode = c->mode}, &c->added);
    if (!nav_failed(s) && c->bake) {
        s = nav_world_builder_add_link(b,
                                       &(nav_world_link_desc){.name = "road",
                                                              .from_region = east,
                                                              .from = {15.5f, 0, 2.5f},
                                                              .to_region = roads,
                                                              .to = {35, 0, 0}},
                                       NULL);
        if (!nav_failed(s))
            s = nav_world_builder_add_link(b,
                                           &(nav_world_link_desc){.kind = NAV_LINK_STAIRS,
                                                                  .from_region = plaza,
                                                                  .from = {5.5f, 0, 11.5f},
                                                                  .to_region = roads,
                                                                  .to = {25, 0, 0},
                                                                  .one_way = true},
                                           NULL);
        if (!nav_failed(s)) s = nav_world_builder_add_grid(b, "field", p->field, &field);
        for (uint32_t k = 0; k < 70 && !nav_failed(s); k++) /* cell k to cell 143 - 2k, both kept apart */
            s = nav_world_builder_add_link(
                b,
                &(nav_world_link_desc){
                    .from_region = field,
                    .from = {(float)(k % 12) + 0.5f, 0, 40.5f + (float)(k / 12)},
                    .to_region = field,
                    .to = {(float)((143 - 2 * k) % 12) + 0.5f, 0, 40.5f + (float)((143 - 2 * k) / 12)},
                    .cost = 3},
                NULL);
        if (!nav_failed(s)) s = nav_world_bake(b, &(nav_world_bake_desc){.threads = c->threads}, &c->world);
    }
    nav_world_builder_destroy(b);
    return s;
}

static void world_build_release(void *ctx)
{
    world_build *c = ctx;
    nav_world_destroy(c->world);
    c->world = NULL;
}

static void test_world_join(void **state)
{
    (void)state;
    world_parts p;
    make_parts(&p);
    nav_world_join_mode modes[2] = {NAV_WORLD_JOIN_EVERY, NAV_WORLD_JOIN_ENTRANCES};
    for (int m = 0; m < 2; m++) {
        world_build c = {&p, modes[m], 1, false, 0, NULL};
        fail_each("nav_world_builder_join_touching", world_build_call, world_build_release, NULL, &c);
        assert_true(c.added > 2); /* west to east, and west to the plaza */
    }
    free_parts(&p);
}

static void test_world_bake(void **state)
{
    (void)state;
    world_parts p;
    make_parts(&p);
    for (uint32_t threads = 1; threads <= 2; threads++) {
        world_build c = {&p, NAV_WORLD_JOIN_ENTRANCES, threads, true, 0, NULL};
        fail_each("nav_world_bake", world_build_call, world_build_release, NULL, &c);
    }
    free_parts(&p);
}

/* ---- World files ---------------------------------------------------------------------------------- */

typedef struct world_load {
    const char *path, *text, *dir;
    nav_world *world;
    nav_world *reference; /* the world loaded with no allocation failing */
} world_load;

static nav_status world_load_call(void *ctx)
{
    world_load *l = ctx;
    return l->text ? nav_world_load_json_text(l->text, strlen(l->text), "w.json", l->dir, NULL, &l->world)
                   : nav_world_load_json(l->path, NULL, &l->world);
}

static void world_load_release(void *ctx)
{
    world_load *l = ctx;
    nav_world_destroy(l->world);
    l->world = NULL;
}

static nav_writer world_bytes(const nav_world *world)
{
    nav_writer w;
    nav_writer_init(&w, NULL);
    return written(nav_world_write_nav(world, &w), &w);
}

/* (Its HPA* region's bake may survive a failed shrink: see hpa_bake_same.) */
static bool world_load_same(void *ctx)
{
    world_load *l = ctx;
    return same_writers(world_bytes(l->world), world_bytes(l->reference));
}

static void check_world_load(const char *what, world_load *l)
{
    assert_int_equal(world_load_call(l), NAV_SUCCESS);
    l->reference = l->world;
    l->world = NULL;
    fail_each(what, world_load_call, world_load_release, world_load_same, l);
    nav_world_destroy(l->reference);
}

/* A world file and its sources, all written here: an ASCII grid (searched through HPA*), a .map grid
 * beside it, a mesh's .nav file south of the first, a waypoint text graph; the grids and the mesh
 * joined, two links. (cJSON's parse allocates inside its shared library: not failed here.) */
static void test_world_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_oom_world_XXXXXX", path[256];
    assert_non_null(mkdtemp(dir));
    const char west[] = "........\n..##....\n..##....\n........\n....#...\n........\n";
    const char east[] = "type octile\nheight 6\nwidth 8\nmap\n"
                        "........\n....@...\n........\n..@.....\n........\n........\n";
    write_file(dir, "west.txt", west, strlen(west), path);
    write_file(dir, "east.map", east, strlen(east), path);
    char text[8192];
    size_t n = waypoint_text(text, sizeof text, 12, 30);
    write_file(dir, "roads.txt", text, n, path);
    nav_grid *plaza_grid = test_grid_from_rows(plaza_rows, 6, &(nav_grid_desc){.origin = {0, 0, 6}});
    nav_mesh *plaza;
    assert_int_equal(nav_mesh_build_from_grid(plaza_grid, NULL, &plaza), NAV_SUCCESS);
    snprintf(path, sizeof path, "%s/plaza.nav", dir);
    assert_int_equal(nav_mesh_save_nav(NULL, plaza, path), NAV_SUCCESS);
    nav_mesh_destroy(plaza);
    nav_grid_destroy(plaza_grid);
    const char json[] = "{\"regions\": [\n"
                        "  {\"name\": \"west\", \"grid\": \"west.txt\", \"hpa\": {\"cluster_size\": 4}},\n"
                        "  {\"name\": \"east\", \"grid\": \"east.map\", \"origin\": [8, 0, 0]},\n"
                        "  {\"name\": \"plaza\", \"mesh\": \"plaza.nav\"},\n"
                        "  {\"name\": \"roads\", \"waypoints\": \"roads.txt\", \"snap\": 1}\n"
                        " ],\n"
                        " \"join\": {\"mode\": \"entrances\"},\n"
                        " \"links\": [\n"
                        "  {\"name\": \"road\", \"from\": {\"region\": \"east\", \"at\": [15.5, 0, 2.5]},\n"
                        "   \"to\": {\"region\": \"roads\", \"at\": [35, 0, 0]}},\n"
                        "  {\"kind\": \"stairs\", \"one_way\": true, \"from\": {\"region\": \"plaza\", "
                        "\"at\": [5.5, 0, 11.5]},\n"
                        "   \"to\": {\"region\": \"roads\", \"at\": [25, 0, 0]}}\n"
                        " ]}\n";
    write_file(dir, "w.json", json, strlen(json), path);
    world_load l = {path, NULL, NULL, NULL, NULL};
    check_world_load("nav_world_load_json", &l);
    l = (world_load){NULL, json, dir, NULL, NULL};
    check_world_load("nav_world_load_json_text", &l);
    remove_dir(dir);
}

/* cJSON returns null when its own allocations fail as well as for text that is not JSON; the world
 * loader then asks nav__json_well_formed, and says NAV_OUT_OF_MEMORY for text it accepts. So what it
 * accepts, cJSON must parse (given memory): checked here against cJSON itself, on JSON and on
 * near-JSON at each of cJSON's limits. (Where the check is stricter than cJSON, a failure of cJSON's
 * memory is still called a parse error: the cases marked lenient.) */
static void test_json_syntax(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        bool ok, lenient; /* lenient: cJSON parses it, the check refuses it */
    } cases[] = {
        {"{\"a\": [1, -2.5e+3, 0, 0.5E-2, true, false, null, \"x\\u00e9\\ud83d\\ude00\\n\\/\"], \"b\": {}}",
         true, false},
        {" \t\r\n[ ] ", true, false},
        {"\xEF\xBB\xBF{\"bom\": 1}", true, false},
        {"{} and then anything", true, false}, /* cJSON (not asked for a NUL after it) reads no further */
        {"\"\\u0000\"", true, false},
        {"", false, false},
        {"   ", false, false},
        {"{\"a\": 1,}", false, false},
        {"[1,,2]", false, false},
        {"[1 2]", false, false},
        {"{\"a\" 1}", false, false},
        {"{1: 2}", false, false},
        {"{\"a\": 1", false, false},
        {"[\"open", false, false},
        {"[\"\\x\"]", false, false},
        {"[\"\\u12\"]", false, false},
        {"[\"\\ud800\"]", false, false},
        {"[\"\\udc00\"]", false, false},
        {"[\"\\ud800\\u0041\"]", false, false},
        {"[-]", false, false},
        {"[1.]", false, true},
        {"[.5]", false, false},
        {"[1e]", false, false},
        {"[nul]", false, false},
        {"[tru]", false, false},
        {"[01]", false, true},
        {"[\"a\tb\"]", false, true},
        {"[1,\x01 2]", false, true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *text = cases[i].text;
        size_t size = strlen(text);
        const char *end = NULL;
        cJSON *root = cJSON_ParseWithLengthOpts(text, size, &end, false);
        bool parsed = root != NULL;
        cJSON_Delete(root);
        if (nav__json_well_formed(text, size) != cases[i].ok) fail_msg("case %zu: %s", i, text);
        if (parsed != (cases[i].ok || cases[i].lenient))
            fail_msg("case %zu: cJSON says %d: %s", i, parsed, text);
    }
    /* a text need not end in NUL */
    assert_true(nav__json_well_formed("[1, 2]]]]", 6));
    assert_false(nav__json_well_formed("[1, 2]]]]", 5));
    /* cJSON's limits: 1000 arrays or objects one in another, numbers of 63 characters (see json_syntax.h) */
    static char deep[8192];
    for (int depth = 999; depth <= 1001; depth++) { /* {"k":[{"k":[ ... 0 ... ]}]} */
        size_t n = 0;
        for (int i = 0; i < depth; i++) {
            const char *open = i % 2 ? "[" : "{\"k\":";
            memcpy(deep + n, open, strlen(open));
            n += strlen(open);
        }
        deep[n++] = '0';
        for (int i = depth; i-- > 0;) deep[n++] = i % 2 ? ']' : '}';
        cJSON *root = cJSON_ParseWithLengthOpts(deep, n, NULL, false);
        assert_int_equal(root != NULL, depth <= 1000);
        cJSON_Delete(root);
        assert_int_equal(nav__json_well_formed(deep, n), depth <= 1000);
    }
    for (int digits = 62; digits <= 64; digits++) {
        char number[80] = "[-1.";
        memset(number + 4, '5', (size_t)digits - 3);
        strcpy(number + 1 + digits, "]");
        cJSON *root = cJSON_ParseWithLengthOpts(number, strlen(number), NULL, false);
        assert_true(root != NULL || digits > 63); /* longer: refused by cJSON 1.7.15 as released, read by
                                                    later ones (and by Debian's patched 1.7.15) */
        cJSON_Delete(root);
        assert_int_equal(nav__json_well_formed(number, strlen(number)), digits <= 63);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_reader),
        cmocka_unit_test(test_ascii_reader),
        cmocka_unit_test(test_png_reader),
        cmocka_unit_test(test_scen_reader),
        cmocka_unit_test(test_waypoint_text_reader),
        cmocka_unit_test(test_waypoints_bake),
        cmocka_unit_test(test_waypoints_from_grid),
        cmocka_unit_test(test_waypoints_from_mesh),
        cmocka_unit_test(test_hpa_bake),
        cmocka_unit_test(test_world_join),
        cmocka_unit_test(test_world_bake),
        cmocka_unit_test(test_world_file),
        cmocka_unit_test(test_json_syntax),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
