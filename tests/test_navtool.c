/* navtool as a user runs it: the built program, on files made here, its output and exit status.
 * (Built only with the tools: NAVTOOL is the program's path.) */
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "levelgen.h"
#include "mapgen.h"
#include "reference.h"
#include "support.h"

#include <spng.h>

#include "nav/geometry.h"
#include "nav/hpa.h"
#include "nav/io.h"
#include "nav/mesh.h"
#include "nav/scen.h"
#include "nav/waypoints.h"

/* Runs a shell command line, stdout and stderr together into out. Returns its exit status. */
static int run_command(char *out, size_t size, const char *command)
{
    char line[8192 + 8];
    snprintf(line, sizeof line, "%s 2>&1", command);
    FILE *p = popen(line, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, size - 1, p);
    out[n] = '\0';
    int status = pclose(p);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

/* Runs navtool with the arguments (a shell command line after the program), as run_command. */
static int run_navtool(char *out, size_t size, const char *args)
{
    char command[8192];
    snprintf(command, sizeof command, "'%s' %s", NAVTOOL, args);
    return run_command(out, size, command);
}

static void expect_output(const char *out, const char *text)
{
    if (!strstr(out, text)) fail_msg("expected \"%s\" in navtool's output:\n%s", text, out);
}

/* Removes the line that starts with key from out (in place). */
static void drop_line(char *out, const char *key)
{
    for (char *line = out; *line;) {
        char *end = strchr(line, '\n');
        end = end ? end + 1 : line + strlen(line);
        if (strncmp(line, key, strlen(key)) == 0) {
            memmove(line, end, strlen(end) + 1);
            return;
        }
        line = end;
    }
}

/* printf's formats for expect_output. */
static void expect_outputf(const char *out, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void expect_outputf(const char *out, const char *format, ...)
{
    char text[256];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    expect_output(out, text);
}

/* The "cost: " line of navtool's output is value (to its 6 decimals). */
static void expect_cost(const char *out, double value)
{
    const char *at = strstr(out, "cost: ");
    if (!at) fail_msg("no cost in navtool's output:\n%s", out);
    assert_cost_equal(strtod(at + 6, NULL), value, 1e-5);
}

/* ---- The maps and levels navtool runs on ------------------------------------------------------- */

/* A map, and what navtool must say of it. The real arena's figures are its own; a generated map's
 * come from the library's calls (what navtool prints is what the library made) and the tests' own
 * references (reference.h, mapgen.h). */
typedef struct navtool_map {
    const char *map;
    int32_t width, height;
    int32_t sx, sy, gx, gy;                  /* a route across it; (0, 0) is blocked */
    double anyangle;                         /* the route's any-angle optimum (mesh, waypoints) */
    int32_t hpa_levels;                      /* of its HPA bake */
    uint32_t waypoints, links;               /* of its waypoint graph (and its mesh's) */
    uint32_t radius_waypoints, radius_links; /* of its mesh's graph with an agent radius of 1 */
} navtool_map;

/* The real arena (the shared data): 52.905 from (3, 3) to (40, 40), two bends, below the
 * 8-connected optimum of 55.255. */
static const navtool_map real_arena = {
    NAV_SHARED_DIR "/maps/dao/arena.map", 49, 49, 3, 3, 40, 40, 52.904925, 3, 64, 478, 53, 311};

/* The generated stand-in of arena (mapgen.h), its route the longest problem of its scenario. */
static navtool_map generated_arena(void)
{
    navtool_map m = {.map = test_bench_file(TEST_BENCH_ARENA, false)};
    nav_grid *grid;
    assert_int_equal(nav_grid_load_map_file(m.map, NULL, &grid), NAV_SUCCESS);
    m.width = nav_grid_width(grid), m.height = nav_grid_height(grid);
    nav_scen *scen;
    assert_int_equal(nav_scen_load_file(test_bench_file(TEST_BENCH_ARENA, true), NULL, NULL, &scen),
                     NAV_SUCCESS);
    const nav_scen_problem *p = &scen->problems[scen->count - 1];
    m.sx = p->start_x, m.sy = p->start_y, m.gx = p->goal_x, m.gy = p->goal_y;
    nav_scen_destroy(scen);
    assert_false(nav_grid_passable(grid, 0, 0));
    test_reference ref;
    test_reference_init(&ref, grid);
    m.anyangle = test_reference_cost(&ref, m.sx + 0.5, m.sy + 0.5, m.gx + 0.5, m.gy + 0.5);
    test_reference_destroy(&ref);
    nav_hpa *hpa;
    assert_int_equal(nav_hpa_bake(grid, NULL, &hpa), NAV_SUCCESS);
    nav_hpa_info info;
    nav_hpa_get_info(hpa, &info);
    m.hpa_levels = info.levels;
    nav_hpa_destroy(hpa);
    nav_waypoints *wp;
    assert_int_equal(nav_waypoints_bake_grid(grid, NULL, &wp), NAV_SUCCESS);
    m.waypoints = nav_waypoints_count(wp), m.links = nav_waypoints_link_count(wp);
    nav_waypoints_destroy(wp);
    nav_mesh *mesh;
    assert_int_equal(nav_mesh_build_from_grid(grid, &(nav_mesh_build_desc){.agent_radius = 1}, &mesh),
                     NAV_SUCCESS);
    assert_int_equal(nav_waypoints_bake_mesh(mesh, NULL, &wp), NAV_SUCCESS);
    m.radius_waypoints = nav_waypoints_count(wp), m.radius_links = nav_waypoints_link_count(wp);
    nav_waypoints_destroy(wp);
    nav_mesh_destroy(mesh);
    nav_grid_destroy(grid);
    return m;
}

/* A map with its scenario file, and one of its problems with its 8-connected optimum. */
typedef struct navtool_scen {
    const char *map, *scen;
    int32_t sx, sy, gx, gy;
    double cost;
} navtool_scen;

/* The real den312d (the shared data): a problem of its file (117.314 there). */
static const navtool_scen real_den = {NAV_SHARED_DIR "/maps/dao/den312d.map",
                                      NAV_SHARED_DIR "/maps/dao/den312d.map.scen",
                                      52,
                                      3,
                                      60,
                                      67,
                                      117.313708};

/* The generated stand-in of den312d: the longest problem of its scenario. */
static navtool_scen generated_den(void)
{
    navtool_scen d = {.map = test_bench_file(TEST_BENCH_DEN, false),
                      .scen = test_bench_file(TEST_BENCH_DEN, true)};
    nav_scen *scen;
    assert_int_equal(nav_scen_load_file(d.scen, NULL, NULL, &scen), NAV_SUCCESS);
    const nav_scen_problem *p = &scen->problems[scen->count - 1];
    d.sx = p->start_x, d.sy = p->start_y, d.gx = p->goal_x, d.gy = p->goal_y, d.cost = p->optimal_length;
    nav_scen_destroy(scen);
    return d;
}

/* A .nav file of a map's grid and its bake, the bake's chunk data changed by damage [opt] and
 * written as version hpa_version. */
static void write_arena_nav(const char *map, const char *path, void (*damage)(nav_writer *),
                            uint32_t hpa_version)
{
    nav_grid *grid;
    nav_hpa *hpa;
    assert_int_equal(nav_grid_load_map_file(map, NULL, &grid), NAV_SUCCESS);
    assert_int_equal(nav_hpa_bake(grid, NULL, &hpa), NAV_SUCCESS);
    nav_writer g, h;
    nav_writer_init(&g, NULL);
    nav_writer_init(&h, NULL);
    assert_int_equal(nav_grid_write_chunk(grid, &g), NAV_SUCCESS);
    assert_int_equal(nav_hpa_write_chunk(hpa, &h), NAV_SUCCESS);
    if (damage) damage(&h);
    nav_chunk chunks[2] = {{NAV_CHUNK_GRID, NAV_GRID_CHUNK_VERSION, g.data, g.size},
                           {NAV_CHUNK_HPA, hpa_version, h.data, h.size}};
    assert_int_equal(nav_container_write_file(path, chunks, 2, NULL), NAV_SUCCESS);
    nav_writer_destroy(&g);
    nav_writer_destroy(&h);
    nav_hpa_destroy(hpa);
    nav_grid_destroy(grid);
}

/* The node count (after width, height, fingerprint, four options and two counts) made absurd. */
static void too_many_nodes(nav_writer *w)
{
    memset(w->data + 40, 0xff, 4);
}

/* Issue 10, finding 2: navtool info exited 0 and printed "hpa: none" for a corrupt HPA chunk or one
 * of a newer version; it must say what is wrong on that line and exit 1. */
static void info_of(const navtool_map *m)
{
    char path[] = "/tmp/test_navtool_XXXXXX", args[256], out[8192];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    snprintf(args, sizeof args, "info '%s'", path);

    write_arena_nav(m->map, path, NULL, NAV_HPA_CHUNK_VERSION);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_outputf(out, "grid: %d x %d cells", m->width, m->height);
    expect_outputf(out, "hpa: %d levels", m->hpa_levels);

    write_arena_nav(m->map, path, too_many_nodes, NAV_HPA_CHUNK_VERSION);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    expect_outputf(out, "grid: %d x %d cells", m->width, m->height);
    expect_output(out, "hpa: error: HPA chunk: more nodes than cells");

    write_arena_nav(m->map, path, NULL, NAV_HPA_CHUNK_VERSION + 1);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    expect_output(out, "hpa: error: HPA chunk version 3, this library reads version 2");

    nav_grid *grid;
    assert_int_equal(nav_grid_load_map_file(m->map, NULL, &grid), NAV_SUCCESS);
    assert_int_equal(nav_grid_save_nav(grid, path), NAV_SUCCESS);
    nav_grid_destroy(grid);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "hpa: none");

    remove(path);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    expect_output(out, "no such file");
}

static void test_info(void **state)
{
    (void)state;
    navtool_map m = generated_arena();
    info_of(&m);
}

/* The value of a key in navtool scen's JSON line, as text. */
static void json_value(const char *out, const char *key, char *value, size_t size)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *at = strstr(out, pattern);
    if (!at) fail_msg("no %s in:\n%s", key, out);
    at += strlen(pattern);
    size_t n = strcspn(at, ",}");
    if (n >= size) n = size - 1;
    memcpy(value, at, n);
    value[n] = '\0';
}

/* navtool path and scen take a baked .nav in place of a map: its grid and bake are loaded, not
 * rebuilt, and give what a fresh bake of the map gives. */
static void baked_file_input(const navtool_scen *d)
{
    char path[] = "/tmp/test_navtool_XXXXXX", args[1024], out[16384], fresh[16384], value[64], other[64];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char nav[64];
    snprintf(nav, sizeof nav, "%s.nav", path);
    snprintf(args, sizeof args, "bake '%s' -o '%s' --quiet", d->map, nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);

    snprintf(args, sizeof args, "scen '%s' --map '%s' --algo hpa --smooth --json", d->scen, nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    snprintf(args, sizeof args, "scen '%s' --algo hpa --smooth --json", d->scen);
    assert_int_equal(run_navtool(fresh, sizeof fresh, args), 0);
    json_value(out, "bake_ms", value, sizeof value);
    assert_string_equal(value, "0.000"); /* loaded, not baked */
    json_value(out, "load_ms", value, sizeof value);
    json_value(fresh, "bake_ms", other, sizeof other);
    assert_true(strcmp(other, "0.000") != 0);
    static const char *const same[] = {"problems",   "wrong",     "invalid",       "mismatches",
                                       "mean_ratio", "max_ratio", "mean_expanded", "bake_bytes"};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        json_value(out, same[i], value, sizeof value);
        json_value(fresh, same[i], other, sizeof other);
        if (strcmp(value, other) != 0)
            fail_msg("%s: %s from the .nav, %s from the map", same[i], value, other);
    }
    json_value(out, "wrong", value, sizeof value);
    assert_string_equal(value, "0");

    /* path: the file's bake answers as a fresh bake does; A* runs on the file's grid */
    char route[64];
    snprintf(route, sizeof route, "%d %d %d %d", d->sx, d->sy, d->gx, d->gy);
    snprintf(args, sizeof args, "path '%s' %s --algo hpa", nav, route);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    snprintf(args, sizeof args, "path '%s' %s --algo hpa", d->map, route);
    assert_int_equal(run_navtool(fresh, sizeof fresh, args), 0);
    assert_string_equal(out, fresh);
    snprintf(args, sizeof args, "path '%s' %s", nav, route);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_cost(out, d->cost); /* the file's optimum */

    /* bake options cannot apply to a bake that is already made */
    snprintf(args, sizeof args, "path '%s' %s --algo hpa --cluster 8", nav, route);
    assert_int_equal(run_navtool(out, sizeof out, args), 2);
    expect_output(out, "holds its bake; bake options do not apply to it");
    remove(nav);
    remove(path);
}

static void test_baked_file_input(void **state)
{
    (void)state;
    navtool_scen d = generated_den();
    baked_file_input(&d);
}

/* Checks that path is a PNG file, and removes it. */
static void expect_png(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    unsigned char magic[8];
    assert_int_equal(fread(magic, 1, 8, f), 8);
    fclose(f);
    assert_memory_equal(magic, "\x89PNG\r\n\x1a\n", 8);
    remove(path);
}

/* The mesh as navtool serves it: bake --mesh, info, path and render with --algo mesh and
 * mesh-funnel, from the map and from the baked file alike; a damaged MESH chunk is reported. */
static void mesh_commands(const navtool_map *a)
{
    char path[] = "/tmp/test_navtool_XXXXXX", args[1024], out[16384], fresh[16384], route[64];
    snprintf(route, sizeof route, "%d %d %d %d", a->sx, a->sy, a->gx, a->gy);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char nav[64], png[64];
    snprintf(nav, sizeof nav, "%s.nav", path);
    snprintf(png, sizeof png, "%s.png", path);
    snprintf(args, sizeof args, "bake '%s' -o '%s' --mesh --quiet", a->map, nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "polygons");
    snprintf(args, sizeof args, "info '%s'", nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "chunks: GRID v1");
    expect_output(out, "MESH v3");
    expect_output(out, "16 landmarks");
    expect_output(out, "hpa: none");
    expect_output(out, "(this file's grid)");

    /* the same answer from the file's mesh and from a mesh built from the map (the any-angle
     * optimum, below the 8-connected one that `navtool path` gives); the search may expand fewer
     * polygons with the file's landmarks, and so come first to another path of the same length
     * (the route's two mirror images here), through other polygons */
    snprintf(args, sizeof args, "path '%s' %s --algo mesh", nav, route);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    snprintf(args, sizeof args, "path '%s' %s --algo mesh", a->map, route);
    assert_int_equal(run_navtool(fresh, sizeof fresh, args), 0);
    const char *varies[] = {"expanded: ", "polygons: ", "path: "};
    for (size_t k = 0; k < sizeof varies / sizeof *varies; k++) {
        drop_line(out, varies[k]);
        drop_line(fresh, varies[k]);
    }
    assert_string_equal(out, fresh);
    expect_output(out, "mode: optimal");
    expect_cost(out, a->anyangle);
    snprintf(args, sizeof args, "path '%s' %s --algo mesh-funnel --png '%s'", nav, route, png);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "mode: funnel");
    expect_png(png);
    snprintf(args, sizeof args, "render '%s' %s --algo mesh --png '%s'", nav, route, png);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_png(png);
    snprintf(args, sizeof args, "path '%s' 0 0 %d %d --algo mesh", nav, a->gx, a->gy); /* a wall */
    assert_int_equal(run_navtool(out, sizeof out, args), 1);

    /* a damaged MESH chunk: info says so on the mesh line and exits 1 */
    nav_grid *grid;
    nav_mesh *mesh;
    assert_int_equal(nav_grid_load_map_file(a->map, NULL, &grid), NAV_SUCCESS);
    assert_int_equal(nav_mesh_build_from_grid(grid, NULL, &mesh), NAV_SUCCESS);
    nav_writer g, m;
    nav_writer_init(&g, NULL);
    nav_writer_init(&m, NULL);
    assert_int_equal(nav_grid_write_chunk(grid, &g), NAV_SUCCESS);
    assert_int_equal(nav_mesh_write_chunk(mesh, &m), NAV_SUCCESS);
    memset(m.data + 12, 0xff, 4); /* the vertex count */
    nav_chunk chunks[2] = {{NAV_CHUNK_GRID, NAV_GRID_CHUNK_VERSION, g.data, g.size},
                           {NAV_CHUNK_MESH, NAV_MESH_CHUNK_VERSION, m.data, m.size}};
    assert_int_equal(nav_container_write_file(nav, chunks, 2, NULL), NAV_SUCCESS);
    snprintf(args, sizeof args, "info '%s'", nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    expect_output(out, "mesh: error: MESH chunk: counts larger than the chunk");
    snprintf(args, sizeof args, "path '%s' %s --algo mesh", nav, route);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    nav_writer_destroy(&g);
    nav_writer_destroy(&m);
    nav_mesh_destroy(mesh);
    nav_grid_destroy(grid);
    remove(nav);
    remove(path);
}

static void test_mesh_commands(void **state)
{
    (void)state;
    navtool_map m = generated_arena();
    mesh_commands(&m);
}

/* Waypoint graphs as navtool serves them: bake --waypoints of a map (with its grid) and of a
 * waypoint file (alone), info, path and render with --algo waypoints by cells, names and indices;
 * a damaged WAYPOINTS chunk is reported. */
static void waypoint_commands(const navtool_map *a)
{
    char path[] = "/tmp/test_navtool_XXXXXX", args[1024], out[16384], fresh[16384], route[64];
    snprintf(route, sizeof route, "%d %d %d %d", a->sx, a->sy, a->gx, a->gy);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char nav[64], png[64], text[64];
    snprintf(nav, sizeof nav, "%s.nav", path);
    snprintf(png, sizeof png, "%s.png", path);
    snprintf(text, sizeof text, "%s.txt", path);

    /* from a map: the grid's corners; any-angle optimal routes (as the mesh's, below the 8-connected
     * optimum) */
    snprintf(args, sizeof args, "bake '%s' -o '%s' --waypoints --quiet", a->map, nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_outputf(out, "%u waypoints, %u links", a->waypoints, a->links);
    snprintf(args, sizeof args, "info '%s'", nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "chunks: GRID v1");
    expect_output(out, "WAYP v1");
    expect_outputf(out, "waypoints: %u waypoints (0 named), %u links", a->waypoints, a->links);
    expect_output(out, "bytes, plain tables");
    expect_output(out, "(this file's grid)");
    snprintf(args, sizeof args, "path '%s' %s --algo waypoints --png '%s'", nav, route, png);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_cost(out, a->anyangle);
    expect_png(png);
    snprintf(args, sizeof args, "path '%s' %s --algo waypoints", a->map, route);
    assert_int_equal(run_navtool(fresh, sizeof fresh, args), 0);
    expect_cost(fresh, a->anyangle);
    snprintf(args, sizeof args, "render '%s' %s --algo waypoints --png '%s'", nav, route, png);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_png(png);
    snprintf(args, sizeof args, "path '%s' 0 0 %d %d --algo waypoints", nav, a->gx, a->gy); /* a wall */
    assert_int_equal(run_navtool(out, sizeof out, args), 1);

    /* from the map's navigation mesh: the same graph (a mesh of a grid has the grid's corners), saved
     * alone; with an agent radius, another */
    snprintf(args, sizeof args, "bake '%s' -o '%s' --waypoints --from-mesh --quiet", a->map, nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_outputf(out, "%u waypoints, %u links", a->waypoints, a->links);
    snprintf(args, sizeof args, "info '%s'", nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "grid: none");
    expect_output(out, "not baked from a grid");
    snprintf(args, sizeof args, "bake '%s' -o '%s' --waypoints --from-mesh --radius 1 --quiet", a->map, nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_outputf(out, "%u waypoints, %u links", a->radius_waypoints, a->radius_links);
    snprintf(args, sizeof args, "bake '%s' -o '%s' --from-mesh", a->map, nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 2);

    /* a hand-made graph: its bake holds no grid; routes by names and by indices */
    FILE *f = fopen(text, "w");
    assert_non_null(f);
    fputs("libnav waypoints 1\n"
          "waypoint gate  0 0 0\n"
          "waypoint yard  4 0 0 tags 2\n"
          "waypoint tower 4 0 3\n"
          "link gate yard\n"
          "link yard tower oneway cost 3.5 flags 1\n"
          "link gate tower cost 20 disabled\n",
          f);
    fclose(f);
    snprintf(args, sizeof args, "bake '%s' -o '%s' --waypoints --quiet", text, nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "3 waypoints, 3 links");
    snprintf(args, sizeof args, "info '%s'", nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "grid: none");
    expect_output(out, "3 links (1 one-way, 1 disabled)");
    expect_output(out, "not baked from a grid");
    snprintf(args, sizeof args, "path '%s' gate tower --algo waypoints", nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "cost: 7.500000"); /* 4 to the yard, 3.5 up the ladder; the link of 20 is shut */
    expect_output(out, "route: gate yard tower");
    snprintf(args, sizeof args, "path '%s' 0 2 --algo waypoints", nav);
    assert_int_equal(run_navtool(fresh, sizeof fresh, args), 0);
    assert_string_equal(out, fresh);
    snprintf(args, sizeof args, "path '%s' tower gate --algo waypoints", nav); /* the ladder is one-way */
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    expect_output(out, "unreachable");
    snprintf(args, sizeof args, "path '%s' gate keep --algo waypoints", nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    expect_output(out, "keep");
    snprintf(args, sizeof args, "render '%s' gate tower --algo waypoints --png '%s'", nav, png);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_png(png);

    /* a damaged WAYPOINTS chunk: info says so on the waypoints line and exits 1 */
    nav_waypoint_graph graph;
    assert_int_equal(nav_waypoint_graph_load_file(text, NULL, &graph), NAV_SUCCESS);
    nav_waypoints *wp;
    assert_int_equal(nav_waypoints_bake(&graph, NULL, &wp), NAV_SUCCESS);
    nav_waypoint_graph_release(&graph);
    nav_writer w;
    nav_writer_init(&w, NULL);
    assert_int_equal(nav_waypoints_write_chunk(wp, &w), NAV_SUCCESS);
    memset(w.data + 4, 0xff, 4); /* the link count */
    nav_chunk chunk = {NAV_CHUNK_WAYPOINTS, NAV_WAYPOINTS_CHUNK_VERSION, w.data, w.size};
    assert_int_equal(nav_container_write_file(nav, &chunk, 1, NULL), NAV_SUCCESS);
    snprintf(args, sizeof args, "info '%s'", nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    expect_output(out, "waypoints: error: WAYPOINTS chunk: counts larger than the chunk");
    snprintf(args, sizeof args, "path '%s' gate tower --algo waypoints", nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    nav_writer_destroy(&w);
    nav_waypoints_destroy(wp);
    remove(text);
    remove(nav);
    remove(path);
}

static void test_waypoint_commands(void **state)
{
    (void)state;
    navtool_map m = generated_arena();
    waypoint_commands(&m);
}

/* navtool demo, run in a folder of its own: the village written out and loaded, the route from the
 * house's upper floor through every kind of region, the bridge raised, the pictures written. */
/* Pixels of exactly colour (r, g, b) in a PNG (decoded with libspng). */
static size_t count_colour(const char *path, uint8_t r, uint8_t g, uint8_t b)
{
    size_t size;
    char *png = test_read_file(path, &size);
    spng_ctx *ctx = spng_ctx_new(0);
    assert_non_null(ctx);
    assert_int_equal(spng_set_png_buffer(ctx, png, size), 0);
    size_t bytes;
    assert_int_equal(spng_decoded_image_size(ctx, SPNG_FMT_RGB8, &bytes), 0);
    uint8_t *rgb = malloc(bytes);
    assert_int_equal(spng_decode_image(ctx, rgb, bytes, SPNG_FMT_RGB8, 0), 0);
    size_t n = 0;
    for (size_t i = 0; i + 2 < bytes; i += 3) n += rgb[i] == r && rgb[i + 1] == g && rgb[i + 2] == b;
    free(rgb);
    spng_ctx_free(ctx);
    free(png);
    return n;
}

/* The demo's pictures show what it prints: the route in the colours of the regions its legs cross
 * (the two house floors and the road are drawn pale, so their strong colours come from the route
 * alone), its start and goal, the links on; with the bridge up, no route and a link switched off
 * (tools/world.c's colours). */
static void check_demo_pictures(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/demo_world.png", dir);
    assert_true(count_colour(path, 214, 96, 24) > 50);  /* leg 2: the house's ground floor */
    assert_true(count_colour(path, 178, 40, 150) > 50); /* leg 1: its upper floor */
    assert_true(count_colour(path, 120, 80, 30) > 50);  /* leg 4: the road */
    assert_true(count_colour(path, 30, 160, 30) > 20);  /* the start */
    assert_true(count_colour(path, 20, 40, 190) > 20);  /* the goal */
    assert_true(count_colour(path, 250, 210, 40) > 20); /* links on */
    assert_int_equal(count_colour(path, 150, 150, 150), 0);
    snprintf(path, sizeof path, "%s/demo_world_bridge_up.png", dir);
    assert_int_equal(count_colour(path, 214, 96, 24), 0);
    assert_int_equal(count_colour(path, 178, 40, 150), 0);
    assert_int_equal(count_colour(path, 120, 80, 30), 0);
    assert_int_equal(count_colour(path, 30, 160, 30), 0);
    assert_true(count_colour(path, 150, 150, 150) > 20); /* the bridge, off */
    assert_true(count_colour(path, 250, 210, 40) > 20);  /* the other links, on */
}

/* navtool crowd on the bundled crowd scenario (data/crowds/village.json: eight agents through the
 * village, the bridge raised and lowered): a line a tick, then the run's; every agent arrives; the
 * trails drawn, and a picture every N ticks; bad scenarios refused with a reason. */
static void test_crowd(void **state)
{
    (void)state;
    static char out[1 << 20];
    char args[2048], dir[] = "/tmp/navtool_crowd_XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *scenario = NAV_TEST_DATA "/../../data/crowds/village.json";
    snprintf(args, sizeof args, "crowd '%s' --png '%s/trails.png' --every 400", scenario, dir);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "{\"tick\":0,\"time\":0.0333,");
    expect_output(out, "\"agents\":8,");
    expect_output(out, "\"arrived\":1.0000,");
    const char *last = strstr(out, "{\"scenario\"");
    assert_non_null(last);
    int ticks = 0;
    for (const char *c = out; c < last; c++) ticks += *c == '\n';
    expect_outputf(last, "\"ticks\":%d,", ticks); /* (a line a tick before it) */
    double overlap = -1;
    assert_int_equal(sscanf(strstr(last, "\"deepest_overlap\":"), "\"deepest_overlap\":%lf", &overlap), 1);
    assert_true(overlap >= 0 && overlap < 0.1);
    char png[600];
    snprintf(png, sizeof png, "%s/trails.png", dir);
    assert_true(count_colour(png, 52, 56, 64) > 0); /* (it decodes: the ground around the world) */
    snprintf(png, sizeof png, "%s/trails-00400.png", dir);
    assert_true(count_colour(png, 52, 56, 64) > 0);
    unlink(png);
    snprintf(png, sizeof png, "%s/trails-00800.png", dir);
    unlink(png);
    snprintf(png, sizeof png, "%s/trails.png", dir);
    unlink(png);
    /* the events, and only the run's line */
    snprintf(args, sizeof args, "crowd '%s' --summary --events", scenario);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "{\"event\":\"link_start\",");
    expect_output(out, "\"kind\":\"bridge\"}");
    expect_output(out, "{\"event\":\"arrived\",");
    assert_null(strstr(out, "{\"tick\":"));
    /* refused, each with its reason */
    static const struct {
        const char *json, *reason;
    } bad[] = {
        {"{\"agents\": []}", "\"world\""},
        {"{\"world\": \"../worlds/village/village.json\", \"agents\": []}", "1 to 1,000,000 agents"},
        {"{\"world\": \"../worlds/village/village.json\", \"seconds\": -1, \"agents\": [{}]}",
         "scenario.seconds"},
        {"{\"world\": \"../worlds/village/village.json\", \"agents\": [{\"start\": [30.5, 0, 8.5]}]}",
         "agents[0].goal: a point"},
        {"{\"world\": \"../worlds/village/village.json\", \"agents\": [{\"start\": [-50, 0, -50], \"goal\": "
         "[30.5, 0, "
         "8.5]}]}",
         "agent 0 (start -50 0 -50"},
        {"{\"world\": \"../worlds/village/village.json\", \"agents\": [{\"start\": [30.5, 0, 8.5], \"goal\": "
         "[72, 0, "
         "18]}], \"changes\": [{\"at\": 1, \"link\": \"drawbridge\", \"enabled\": false}]}",
         "changes[0]: a \"link\" of the world"},
        {"{\"world\": \"../worlds/village/village.json\", \"agents\": [{\"start\": [30.5, 0, 8.5], \"goal\": "
         "[72, 0, 18], \"area_costs\": {\"2\": 0}}]}",
         "agents[0].area_costs.2: a type 0 to 255 and a cost"},
        {"{\"world\": \"../worlds/village/village.json\", \"agents\": [{\"start\": [30.5, 0, 8.5], \"goal\": "
         "[72, 0, 18], \"area_costs\": [1]}]}",
         "agents[0].area_costs: an object"},
        {"{\"world\": \"../worlds/village/village.json\", \"agents\": [{\"start\": [30.5, 0, 8.5], \"goal\": "
         "[72, 0, 18], \"terrain_costs\": {\"300\": 1}}]}",
         "agents[0].terrain_costs.300: a type 0 to 255 and a cost"},
        {"[1, 2]", "not a JSON object"},
    };
    char path[600];
    snprintf(path, sizeof path, "%s/refused.json", dir);
    const char *relative = "../worlds/village/village.json",
               *absolute = NAV_TEST_DATA "/../../data/worlds/village/village.json";
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        const char *at = strstr(bad[i].json, relative); /* (the world's path made absolute) */
        if (at)
            fprintf(f, "%.*s%s%s", (int)(at - bad[i].json), bad[i].json, absolute, at + strlen(relative));
        else
            fputs(bad[i].json, f);
        fclose(f);
        snprintf(args, sizeof args, "crowd '%s'", path);
        if (run_navtool(out, sizeof out, args) != 1 || !strstr(out, bad[i].reason))
            fail_msg("case %zu: expected exit 1 and \"%s\":\n%s", i, bad[i].reason, out);
    }
    unlink(path);
    snprintf(args, sizeof args, "crowd '%s/none.json'", dir);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    expect_output(out, "cannot read");
    assert_int_equal(run_navtool(out, sizeof out, "crowd"), 2);
    rmdir(dir);
}

static void test_demo(void **state)
{
    (void)state;
    char dir[] = "/tmp/navtool_demo_XXXXXX";
    assert_non_null(mkdtemp(dir));
    static char out[1 << 16];
    char command[512];
    snprintf(command, sizeof command, "cd '%s' && '%s' demo 2>&1", dir, NAVTOOL);
    FILE *p = popen(command, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    assert_int_equal(pclose(p), 0);
    expect_output(out, "5 regions, 4 links, 8 chokepoints");
    expect_output(out, "leg 1  house upper floor   grid A*");
    expect_output(out, "then the stairs \"stairs\" (5.00)");
    expect_output(out, "leg 3  west town           navmesh");
    expect_output(out, "leg 4  road                waypoints");
    expect_output(out, "then the bridge \"bridge\" (8.50)");
    expect_output(out, "leg 5  east town           navmesh");
    expect_output(out, "unreachable: the river has no other crossing");
    expect_output(out, "A* from (10,13) to (40,1): cost 38.4");
    check_demo_pictures(dir);
    const char *files[] = {"demo_world.png", "demo_world_bridge_up.png", "demo_basin.png",
                           "demo_basin_ramp.png"};
    for (int i = 0; i < 4; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        expect_png(path);
    }
    const char *village[] = {"village.json",  "house_ground.txt", "house_upper.txt",
                             "town_west.txt", "town_east.txt",    "road.txt"};
    for (int i = 0; i < 6; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/village/%s", dir, village[i]);
        assert_int_equal(remove(path), 0);
    }
    char folder[512];
    snprintf(folder, sizeof folder, "%s/village", dir);
    assert_int_equal(rmdir(folder), 0);
    assert_int_equal(rmdir(dir), 0);
}

/* Reads a whole file (the test's own helper frees nothing else). */
static char *slurp(const char *path, size_t *size)
{
    return test_read_file(path, size);
}

/* navtool bake of a world file: whole, and split into one part a region (in the order a job runner
 * might finish them) and linked, byte for byte the same file; info and path on the result; a part
 * of another world and a missing part refused. */
static void test_world_commands(void **state)
{
    (void)state;
    char dir[] = "/tmp/navtool_world_XXXXXX";
    assert_non_null(mkdtemp(dir));
    static char out[1 << 16];
    char args[4096];
    const char *json = NAV_TEST_DATA "/../../data/worlds/village/village.json";
    snprintf(args, sizeof args, "bake '%s' -o '%s/whole.nav' --quiet", json, dir);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "5 regions, 4 links, 8 chokepoints, 6 table entries");
    const char *regions[] = {"east town", "road", "house upper floor", "west town", "house ground floor"};
    for (int i = 0; i < 5; i++) {
        snprintf(args, sizeof args, "bake '%s' --region '%s' -o '%s/part%d.nav' --quiet", json, regions[i],
                 dir, i);
        assert_int_equal(run_navtool(out, sizeof out, args), 0);
        expect_output(out, "baked the part of region");
    }
    snprintf(args, sizeof args,
             "bake '%s' --link '%s/part0.nav' '%s/part1.nav' '%s/part2.nav' '%s/part3.nav' '%s/part4.nav' -o "
             "'%s/linked.nav' --quiet",
             json, dir, dir, dir, dir, dir, dir);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "(from its parts)");
    char path[600];
    size_t a_size, b_size;
    snprintf(path, sizeof path, "%s/whole.nav", dir);
    char *a = slurp(path, &a_size);
    snprintf(path, sizeof path, "%s/linked.nav", dir);
    char *b = slurp(path, &b_size);
    assert_int_equal(a_size, b_size);
    assert_memory_equal(a, b, a_size);
    free(b);
    /* the same as an array of 2 jobs */
    for (int k = 0; k < 2; k++) {
        snprintf(args, sizeof args, "bake '%s' --shard %d/2 -o '%s/shard%d.nav' --quiet", json, k, dir, k);
        assert_int_equal(run_navtool(out, sizeof out, args), 0);
        expect_output(out, k ? "(2 of its 5 regions)" : "(3 of its 5 regions)");
    }
    snprintf(args, sizeof args,
             "bake '%s' --link '%s/shard1.nav' '%s/shard0.nav' -o '%s/sharded.nav' --quiet", json, dir, dir,
             dir);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    snprintf(path, sizeof path, "%s/sharded.nav", dir);
    b = slurp(path, &b_size);
    assert_int_equal(a_size, b_size);
    assert_memory_equal(a, b, a_size);
    free(a);
    free(b);
    snprintf(args, sizeof args, "bake '%s' --shard 2/2 -o '%s/bad.nav'", json, dir);
    assert_int_equal(run_navtool(out, sizeof out, args), 2);
    expect_output(out, "--shard K/N needs 0 <= K < N");

    snprintf(args, sizeof args, "info '%s/linked.nav'", dir);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "WRLD v3");
    expect_output(out, "world: 5 regions (2 grids, 2 meshes, 1 waypoint graphs), 4 links, 8 chokepoints");
    snprintf(args, sizeof args, "path '%s/linked.nav' 12.5 3 8.5 125.5 0 20.5 --png '%s/route.png'", dir,
             dir);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "leg 4  road                waypoints");
    expect_output(out, "cost 149.92");
    snprintf(path, sizeof path, "%s/route.png", dir);
    expect_png(path);

    /* a part missing; a part of another region twice */
    snprintf(args, sizeof args, "bake '%s' --link '%s/part0.nav' '%s/part1.nav' -o '%s/bad.nav' --quiet",
             json, dir, dir, dir);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    expect_output(out, ": no part");
    snprintf(args, sizeof args, "bake '%s' --link '%s/part0.nav' '%s/part0.nav' -o '%s/bad.nav' --quiet",
             json, dir, dir, dir);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    expect_output(out, "has a part already");
    snprintf(args, sizeof args, "bake '%s' --region 'no such place' -o '%s/bad.nav' --quiet", json, dir);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    expect_output(out, "no region named \"no such place\"");

    const char *files[] = {"whole.nav", "linked.nav", "part0.nav",  "part1.nav",  "part2.nav",
                           "part3.nav", "part4.nav",  "shard0.nav", "shard1.nav", "sharded.nav"};
    for (int i = 0; i < 10; i++) { /* (expect_png removed the picture) */
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        assert_int_equal(remove(path), 0);
    }
    assert_int_equal(rmdir(dir), 0);
}

/* Issue 43, defect 4: navtool render on a world file said "corrupt data", and navtool path on a world
 * could not switch links. render draws the world (and a route between two points), and both take
 * --set LINK=on|off, a link by name or number: the bridge off, the east town is out of reach and the
 * picture shows a link off; switched on again by number, the route is back; a link of no such name
 * or a value other than on and off is refused. */
static void test_world_render_and_switches(void **state)
{
    (void)state;
    char dir[] = "/tmp/navtool_switch_XXXXXX";
    assert_non_null(mkdtemp(dir));
    static char out[1 << 16];
    char args[4096], png[600];
    const char *json = NAV_TEST_DATA "/../../data/worlds/village/village.json";
    snprintf(png, sizeof png, "%s/world.png", dir);
    snprintf(args, sizeof args, "render '%s' --png '%s'", json, png);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "(5 regions, 4 links, 0 of them off)");
    assert_true(count_colour(png, 250, 210, 40) > 20); /* the links, on */
    assert_int_equal(count_colour(png, 150, 150, 150), 0);
    assert_int_equal(count_colour(png, 30, 160, 30), 0); /* no route: no start */

    snprintf(args, sizeof args, "path '%s' 12.5 3 8.5 125.5 0 20.5 --set bridge=off", json);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "unreachable");
    snprintf(args, sizeof args, "path '%s' 12.5 3 8.5 125.5 0 20.5 --set bridge=off --set 3=on", json);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "cost 149.92");
    snprintf(args, sizeof args, "render '%s' 12.5 3 8.5 125.5 0 20.5 --png '%s' --set 'front door=off'", json,
             png);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "unreachable");
    expect_output(out, "(5 regions, 4 links, 1 of them off)");
    assert_true(count_colour(png, 150, 150, 150) > 20); /* the door, off */
    snprintf(args, sizeof args, "render '%s' 12.5 3 8.5 125.5 0 20.5 --png '%s'", json, png);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "and the route");
    assert_true(count_colour(png, 30, 160, 30) > 20); /* the route's start */

    snprintf(args, sizeof args, "path '%s' 12.5 3 8.5 125.5 0 20.5 --set drawbridge=off", json);
    assert_int_equal(run_navtool(out, sizeof out, args), 2);
    expect_output(out, "no link named \"drawbridge\"");
    snprintf(args, sizeof args, "path '%s' 12.5 3 8.5 125.5 0 20.5 --set bridge=up", json);
    assert_int_equal(run_navtool(out, sizeof out, args), 2);
    expect_output(out, "--set needs LINK=on or LINK=off");
    snprintf(args, sizeof args, "render '%s'", json);
    assert_int_equal(run_navtool(out, sizeof out, args), 2);
    expect_output(out, "give --png OUT");
    remove(png);
    assert_int_equal(rmdir(dir), 0);
}

static bool same_file(const char *a, const char *b)
{
    FILE *f = fopen(a, "rb"), *g = fopen(b, "rb");
    bool same = f && g;
    while (same) {
        int x = fgetc(f), y = fgetc(g);
        same = x == y;
        if (x == EOF) break;
    }
    if (f) fclose(f);
    if (g) fclose(g);
    return same;
}

/* Writes text to dir/name, its path into path. */
static void write_text(const char *dir, const char *name, const char *text, char *path, size_t size)
{
    snprintf(path, size, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* Issue 43, defects 5, 6 and 17, as navtool bake WORLD.json shows them: a level region built with the
 * options navtool bake LEVEL.obj --mesh takes gives the same world as that bake's .nav file; an upper
 * storey at the height of the one under it is warned of (the bake goes on); a link's cost of 0, a
 * link's end far off its floor, text after the top-level object, a key twice and a string holding
 * U+0000 are errors naming the JSON path, and the bake exits 1. */
static void test_world_file_messages(void **state)
{
    (void)state;
    char dir[] = "/tmp/navtool_worldfile_XXXXXX";
    assert_non_null(mkdtemp(dir));
    static char out[1 << 16];
    char args[4096], json[2048], path[600], level[600], a[600], b[600];
    const char *village = NAV_TEST_DATA "/../../data/worlds/village";
    test_level generated;
    test_level_generate(&generated);
    size_t size;
    char *text = test_level_obj(&generated, &size);
    const char *obj = test_scratch_file("level.obj", text, size);
    free(text);
    test_level_destroy(&generated);

    snprintf(level, sizeof level, "%s/level.nav", dir);
    snprintf(
        args, sizeof args,
        "bake '%s' --mesh --height 1.5 --climb 0.5 --slope 35 --cell 0.4 --cell-height 0.25 --radius 0.4 "
        "--max-verts 4 -o '%s' --quiet",
        obj, level);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    snprintf(json, sizeof json,
             "{\"regions\": [{\"name\": \"level\", \"mesh\": \"%s\", \"height\": 1.5, \"max_climb\": 0.5, "
             "\"max_slope\": 35, \"cell_size\": 0.4, \"cell_height\": 0.25, \"radius\": 0.4, "
             "\"max_poly_verts\": 4}]}",
             obj);
    write_text(dir, "from_obj.json", json, path, sizeof path);
    snprintf(a, sizeof a, "%s/a.nav", dir);
    snprintf(args, sizeof args, "bake '%s' -o '%s' --quiet", path, a);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    snprintf(json, sizeof json, "{\"regions\": [{\"name\": \"level\", \"mesh\": \"level.nav\"}]}");
    write_text(dir, "from_nav.json", json, path, sizeof path);
    snprintf(b, sizeof b, "%s/b.nav", dir);
    snprintf(args, sizeof args, "bake '%s' -o '%s' --quiet", path, b);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    assert_true(same_file(a, b));
    remove(a);
    remove(b);
    remove(level);
    remove(path);
    snprintf(path, sizeof path, "%s/from_obj.json", dir);
    remove(path);

    snprintf(
        json, sizeof json,
        "{\"regions\": [{\"name\": \"ground\", \"grid\": \"%s/house_ground.txt\", \"origin\": [0, 0, 6]},\n"
        " {\"name\": \"upper\", \"grid\": \"%s/house_upper.txt\", \"origin\": [0, 0, 6]}]}\n",
        village, village);
    write_text(dir, "w.json", json, path, sizeof path);
    snprintf(a, sizeof a, "%s/w.nav", dir);
    snprintf(args, sizeof args, "bake '%s' -o '%s' --quiet", path, a);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "warning: ");
    expect_output(out,
                  "w.json: regions[1] (\"upper\") lies over regions[0] (\"ground\") at the same height, y 0");
    remove(a);

    static const struct {
        const char *tail; /* after the region */
        const char *message;
    } refused[] = {
        {"], \"links\": [{\"from\": {\"region\": \"ground\", \"at\": [1.5, 0, 7.5]}, \"to\": {\"region\": "
         "\"ground\", \"at\": [2.5, 0, 7.5]}, \"cost\": 0}]}",
         "w.json: links[0].cost: must be a number above 0 (leave it out for the straight distance)"},
        {"], \"links\": [{\"from\": {\"region\": \"ground\", \"at\": [1.5, 37, 7.5]}, \"to\": {\"region\": "
         "\"ground\", \"at\": [2.5, 0, 7.5]}}]}",
         "w.json: links[0].from.at: 37 above the floor of region \"ground\" there (y 0)"},
        {"]}\n\"links\": []", "w.json:2: text after the top-level object"},
        {"], \"links\": [], \"links\": []}", "w.json: the top level: the key \"links\" appears twice"},
        {"], \"links\": [{\"from\": {\"region\": \"ground\\u0000x\", \"at\": [1.5, 0, 7.5]}, \"to\": "
         "{\"region\": \"ground\", \"at\": [2.5, 0, 7.5]}}]}",
         "w.json: links[0].from.region: a string holding U+0000"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        snprintf(json, sizeof json,
                 "{\"regions\": [{\"name\": \"ground\", \"grid\": \"%s/house_ground.txt\", \"origin\": [0, "
                 "0, 6]}%s",
                 village, refused[i].tail);
        write_text(dir, "w.json", json, path, sizeof path);
        snprintf(args, sizeof args, "bake '%s' -o '%s' --quiet", path, a);
        assert_int_equal(run_navtool(out, sizeof out, args), 1);
        expect_output(out, "error: ");
        expect_output(out, refused[i].message);
        expect_output(out, "the world does not load");
    }
    remove(path);
    assert_int_equal(rmdir(dir), 0);
}

/* A level as navtool serves it: bake LEVEL.obj --mesh (RecastDemo's agent, then in tiles on two
 * threads, which the file keeps), info, one tile built again, a path between world points (two points in
 * sight of each other: the straight line, at its length) and render's two pictures, both showing the path; a
 * malformed .obj named by line. */
/* A level, and what navtool must say of it: its triangles, its columns (RecastDemo's cell 0.3), two
 * points of its floor in sight of each other. */
typedef struct navtool_level {
    const char *obj;
    uint32_t triangles;
    int32_t width, depth;
    float a[3], b[3];
} navtool_level;

static void level_commands(const navtool_level *level)
{
    char path[] = "/tmp/test_navtool_XXXXXX", args[1024], out[16384], ends[128];
    const float *a = level->a, *b = level->b;
    snprintf(ends, sizeof ends, "%g %g %g %g %g %g", a[0], a[1], a[2], b[0], b[1], b[2]);
    int32_t across = (level->width + 63) / 64, down = (level->depth + 63) / 64; /* tiles of 64 */
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char nav[64], png[64], side[64], obj[64];
    snprintf(nav, sizeof nav, "%s.nav", path);
    snprintf(png, sizeof png, "%s.png", path);
    snprintf(side, sizeof side, "%s-side.png", path);
    snprintf(obj, sizeof obj, "%s.obj", path);
    for (int tiled = 0; tiled < 2; tiled++) {
        snprintf(args, sizeof args, "bake '%s' --mesh -o '%s' --quiet%s", level->obj, nav,
                 tiled ? " --tile 64 --threads 2" : "");
        assert_int_equal(run_navtool(out, sizeof out, args), 0);
        expect_outputf(out, "%u triangles, %d x %d cells", level->triangles, level->width, level->depth);
        expect_outputf(out, "%d tiles", tiled ? across * down : 1);
        expect_output(out, "agent: radius 0.6, height 2, climb 0.9, slope 45");
        expect_output(out, "stages (ms");
        snprintf(args, sizeof args, "info '%s'", nav);
        assert_int_equal(run_navtool(out, sizeof out, args), 0);
        expect_output(out, tiled ? "chunks: TILS v2" : "chunks: MESH v3");
        expect_output(out, "mesh: built from level geometry");
        if (tiled) expect_outputf(out, "tiles: %d x %d of 64 cells", across, down);
    }
    /* one tile built again from the same level: the same file, to the byte; a tile that is not one */
    char again[80];
    snprintf(again, sizeof again, "%s-again.nav", path);
    assert_true(across > 2 && down > 3);
    snprintf(args, sizeof args, "tile '%s' '%s' 2 3 -o '%s' --quiet", nav, level->obj, again);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_outputf(out, "tile (2, 3) of %d x %d rebuilt", across, down);
    assert_true(same_file(nav, again));
    snprintf(args, sizeof args, "tile '%s' '%s' %d 0 -o '%s' --quiet", nav, level->obj, across, again);
    assert_int_equal(run_navtool(out, sizeof out, args), 2);
    expect_outputf(out, "is not one of %s's %d x %d tiles: X takes 0 to %d, Z 0 to %d", nav, across, down,
                   across - 1, down - 1);
    remove(again);
    snprintf(args, sizeof args, "bake '%s' --mesh --tile 64 --landmarks 8 -o '%s' --quiet", level->obj,
             again);
    assert_int_equal(run_navtool(out, sizeof out, args), 2);
    expect_output(out, "keeps its tiles");
    snprintf(args, sizeof args, "path '%s' %s", nav, ends);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "status: success");
    const char *cost = strstr(out, "cost: ");
    assert_non_null(cost);
    assert_cost_equal(strtod(cost + 6, NULL), hypot(a[0] - b[0], a[2] - b[2]), 1e-3);
    /* issue 43: an end off the mesh (50 m up: no floor within the box) is named, the other not; an
     * end 1.5 m above its floor goes onto it, and navtool says where */
    double up = (double)a[1] + 50;
    snprintf(args, sizeof args, "path '%s' %g %g %g %g %g %g", nav, a[0], up, a[2], b[0], b[1], b[2]);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    expect_outputf(out,
                   "the start (%g, %g, %g) is not on the mesh: no floor within 2 m across and 4 m up or down",
                   a[0], up, a[2]);
    assert_null(strstr(out, "the goal"));
    assert_null(strstr(out, "unreachable"));
    snprintf(args, sizeof args, "path '%s' %g %g %g %g %g %g", nav, b[0], b[1], b[2], a[0], up, a[2]);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    expect_outputf(out, "the goal (%g, %g, %g) is not on the mesh", a[0], up, a[2]);
    assert_null(strstr(out, "the start"));
    double raised = (double)a[1] + 1.5;
    snprintf(args, sizeof args, "path '%s' %g %g %g %g %g %g", nav, a[0], raised, a[2], b[0], b[1], b[2]);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "status: success");
    expect_outputf(out, "start (%g, %g, %g) -> on the mesh at (%.3f, ", a[0], raised, a[2], (double)a[0]);
    snprintf(args, sizeof args, "render '%s' %s --png '%s' --scale 400", nav, ends, png);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    assert_true(count_colour(png, 220, 30, 40) > 20);
    assert_true(count_colour(side, 220, 30, 40) > 20);
    remove(png);
    remove(side);
    snprintf(args, sizeof args, "path '%s' %g %g %g", nav, a[0], a[1], a[2]); /* half a pair of points */
    assert_int_equal(run_navtool(out, sizeof out, args), 2);
    FILE *f = fopen(obj, "w");
    assert_non_null(f);
    fputs("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 7\n", f);
    fclose(f);
    snprintf(args, sizeof args, "bake '%s' --mesh -o '%s' --quiet", obj, nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    expect_output(out, ":4: ");
    snprintf(args, sizeof args, "bake '%s' -o '%s'", obj, nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 2);
    expect_output(out, "add --mesh");
    remove(obj);
    remove(nav);
    remove(path);
}

static void test_level_commands(void **state)
{
    (void)state;
    test_level level;
    test_level_generate(&level);
    size_t size;
    char *text = test_level_obj(&level, &size);
    navtool_level l = {test_scratch_file("level.obj", text, size),
                       level.triangle_count,
                       0,
                       0,
                       {TEST_LEVEL_OPEN_A_X, 0.1f, TEST_LEVEL_OPEN_A_Z},
                       {TEST_LEVEL_OPEN_B_X, 0.1f, TEST_LEVEL_OPEN_B_Z}};
    nav_geometry *g;
    assert_int_equal(nav_geometry_load_obj(text, size, "level.obj", NULL, NULL, &g), NAV_SUCCESS);
    nav_triangles t = nav_geometry_triangles(g);
    nav_mesh *mesh;
    nav_geometry_build_stats st;
    assert_int_equal(nav_mesh_build_from_geometry(&t, NULL, &mesh, &st), NAV_SUCCESS);
    l.width = st.width, l.depth = st.depth;
    nav_mesh_destroy(mesh);
    nav_geometry_destroy(g);
    free(text);
    test_level_destroy(&level);
    level_commands(&l);
}

/* Levels navtool must refuse plainly, each with its reason on a line of stderr and exit status 1:
 * a level whose floors all face down (before: an empty mesh and exit 0), a level whose bake needs
 * more memory than --max-memory allows. */
static void test_level_faults(void **state)
{
    (void)state;
    char args[1024], out[16384];
    static const char down[] = "v 0 0 0\nv 10 0 0\nv 10 0 10\nv 0 0 10\nf 1 3 4\nf 1 2 3\n";
    const char *obj = test_scratch_file("down.obj", down, sizeof down - 1);
    char nav[256];
    snprintf(nav, sizeof nav, "%s.nav", obj);
    snprintf(args, sizeof args, "bake '%s' --mesh -o '%s' --quiet", obj, nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    expect_output(out, "error: geometry: no floor of the level faces up: all 2 of its triangles");
    expect_output(out, "counter-clockwise");
    assert_true(access(nav, F_OK) != 0);

    /* the 60-byte level: two triangles, a square 4.9 km a side. Before, its bake grew past 10 GB and
     * ran for minutes; now refused at once (the time is not asserted: the status and message are),
     * built with larger cells, and refused again under a lower --max-memory */
    static const char big[] = "v 0 0 0\nv 4900 0 0\nv 4900 0 4900\nv 0 0 4900\nf 1 4 3\nf 1 3 2\n";
    assert_int_equal(sizeof big - 1, 60);
    obj = test_scratch_file("big.obj", big, sizeof big - 1);
    snprintf(args, sizeof args, "bake '%s' --mesh -o '%s' --quiet", obj, nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    expect_output(out,
                  "error: geometry: the build would need up to 12.2 GiB for its voxels (a level of 16334 x "
                  "16334 cells of 0.3");
    expect_output(out, "max_memory's 4.0 GiB");
    expect_output(out, "size too large");
    snprintf(args, sizeof args, "bake '%s' --mesh --cell 10 -o '%s' --quiet", obj, nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "491 x 491 cells");
    expect_output(out, "(max 4.0 GiB)");
    snprintf(args, sizeof args, "bake '%s' --mesh --cell 10 --max-memory 2M -o '%s' --quiet", obj, nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    expect_output(out, "max_memory's 2.0 MiB");
    snprintf(args, sizeof args, "bake '%s' --mesh --max-memory 20G --cell 20 -o '%s' --quiet", obj, nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "(max 20.0 GiB)");
    snprintf(args, sizeof args, "bake '%s' --mesh --max-memory 0 -o '%s' --quiet", obj, nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 2);
    expect_output(out, "--max-memory takes a size in bytes");
    remove(nav);
}

/* Whether two .nav files hold the same mesh, to the byte of its chunk. */
static bool same_mesh_file(const char *a, const char *b)
{
    nav_writer w[2];
    for (int k = 0; k < 2; k++) {
        nav_mesh *mesh = NULL;
        assert_int_equal(nav_mesh_load_nav(k ? b : a, NULL, NULL, &mesh, NULL), NAV_SUCCESS);
        nav_writer_init(&w[k], NULL);
        assert_int_equal(nav_mesh_write_chunk(mesh, &w[k]), NAV_SUCCESS);
        nav_mesh_destroy(mesh);
    }
    bool same = w[0].size == w[1].size && memcmp(w[0].data, w[1].data, w[0].size) == 0;
    nav_writer_destroy(&w[0]);
    nav_writer_destroy(&w[1]);
    return same;
}

/* Writes a level of quads as an .obj: a floor 20 x 20 m (in four quads when split), boxes (x0, z0, x1,
 * z1, 1.5 m tall) each of its top and four sides. Returns its path (test_scratch_file). */
static const char *quads_obj(const char *name, bool split, const float (*boxes)[4], int box_count)
{
    char text[8192];
    size_t n = 0;
    uint32_t v = 0;
    for (int k = 0; k < (split ? 4 : 1); k++) {
        float x0 = split ? 10.0f * (float)(k % 2) : 0, z0 = split ? 10.0f * (float)(k / 2) : 0,
              s = split ? 10 : 20;
        n += (size_t)snprintf(text + n, sizeof text - n,
                              "v %g 0 %g\nv %g 0 %g\nv %g 0 %g\nv %g 0 %g\nf %u %u %u %u\n", x0, z0, x0,
                              z0 + s, x0 + s, z0 + s, x0 + s, z0, v + 1, v + 2, v + 3, v + 4);
        v += 4;
    }
    for (int b = 0; b < box_count; b++) {
        const float *q = boxes[b];
        const float c[4][2] = {{q[0], q[1]}, {q[0], q[3]}, {q[2], q[3]}, {q[2], q[1]}}; /* the top: up */
        for (int k = 0; k < 4; k++)
            n += (size_t)snprintf(text + n, sizeof text - n, "v %g 1.5 %g\n", c[k][0], c[k][1]);
        for (int k = 0; k < 4; k++)
            n += (size_t)snprintf(text + n, sizeof text - n, "v %g 0 %g\n", c[k][0], c[k][1]);
        n += (size_t)snprintf(text + n, sizeof text - n, "f %u %u %u %u\n", v + 1, v + 2, v + 3, v + 4);
        for (uint32_t k = 0; k < 4; k++) /* the sides, either way round: walls */
            n += (size_t)snprintf(text + n, sizeof text - n, "f %u %u %u %u\n", v + 5 + k, v + 1 + k,
                                  v + 1 + (k + 1) % 4, v + 5 + (k + 1) % 4);
        v += 8;
    }
    return test_scratch_file(name, text, n);
}

/* navtool tile on a level baked in tiles of 16 cells of 0.25 m (6 x 6 tiles of 4 m), a wall in tile
 * (2, 2): the wall gone (a change inside the tile) is taken and gives a fresh bake's file; a post added
 * in tile (0, 0) (a change outside it) is refused, naming the tile, and --changed rebuilds that tile
 * alone; another level (its floor in four quads) is refused (before, navtool tile took any .obj and
 * exited 0). A tile coordinate out of range, -1 among them, is one line naming the range (before:
 * the whole usage). */
static void test_level_tiles(void **state)
{
    (void)state;
    char args[2048], out[16384], nav[256], fresh[256];
    static const float wall[1][4] = {{9.6f, 9.9f, 10.4f, 10.1f}},
                       both[2][4] = {{9.6f, 9.9f, 10.4f, 10.1f}, {1, 1, 1.5f, 1.5f}};
    const char *with_wall = quads_obj("wall.obj", false, wall, 1),
               *without = quads_obj("open.obj", false, NULL, 0),
               *with_post = quads_obj("post.obj", false, both, 2),
               *other = quads_obj("other.obj", true, NULL, 0);
    snprintf(nav, sizeof nav, "%s.nav", with_wall);
    snprintf(fresh, sizeof fresh, "%s-fresh.nav", with_wall);
    const char *options = "--mesh --cell 0.25 --cell-height 0.125 --tile 16 --quiet";
    snprintf(args, sizeof args, "bake '%s' %s -o '%s'", with_wall, options, nav);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "36 tiles");
    /* out of range, one line each */
    static const char *const bad[] = {"-1 0", "0 -1", "6 0", "0 1e3"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        snprintf(args, sizeof args, "tile '%s' '%s' %s --quiet", nav, without, bad[k]);
        int status = run_navtool(out, sizeof out, args);
        if (status != 2 || strchr(out, '\n') != out + strlen(out) - 1 || strstr(out, "usage"))
            fail_msg("tile %s: status %d, output:\n%s", bad[k], status, out);
        expect_output(out, k < 3 ? "is not one of" : "not a tile coordinate");
        if (k < 3) expect_output(out, "6 x 6 tiles: X takes 0 to 5, Z 0 to 5");
    }
    snprintf(args, sizeof args, "tile '%s' '%s' x 0", nav, without);
    assert_int_equal(run_navtool(out, sizeof out, args), 2);
    expect_output(out, "unexpected argument 'x'");
    /* another level */
    snprintf(args, sizeof args, "tile '%s' '%s' 2 2 --quiet", nav, other);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    expect_output(out, "these triangles are not the level the tiles were built from");
    expect_output(out, "baked from another source");
    /* a post added outside tile (2, 2): refused; --changed builds its tile */
    snprintf(args, sizeof args, "tile '%s' '%s' 2 2 --quiet", nav, with_post);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    expect_output(out, "the level changed outside tile (2, 2) too: tile (0, 0) was built from triangles");
    snprintf(args, sizeof args, "tile '%s' '%s' --changed --quiet", nav, with_post);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "1 of 6 x 6 tiles rebuilt");
    snprintf(args, sizeof args, "bake '%s' %s -o '%s'", with_post, options, fresh);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    assert_true(same_file(nav, fresh));
    /* the post gone again and the wall gone: the post's tile and the wall's changed; the wall alone
     * from the level with the post back */
    snprintf(args, sizeof args, "tile '%s' '%s' --changed --quiet", nav, with_wall);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "1 of 6 x 6 tiles rebuilt");
    snprintf(args, sizeof args, "tile '%s' '%s' 2 2 --quiet", nav, without);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "tile (2, 2) of 6 x 6 rebuilt");
    snprintf(args, sizeof args, "bake '%s' %s -o '%s'", without, options, fresh);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    assert_true(same_mesh_file(nav, fresh)); /* (the files differ: the fresh bake's box is lower) */
    snprintf(args, sizeof args, "tile '%s' '%s' --changed --quiet", nav, without);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "0 of 6 x 6 tiles rebuilt");
    remove(nav);
    remove(fresh);
}

/* ---- The same on the real data (the shared data) ---------------------------------------------- */

static void test_real_info(void **state)
{
    (void)state;
    info_of(&real_arena);
}

static void test_real_baked_file_input(void **state)
{
    (void)state;
    baked_file_input(&real_den);
}

static void test_real_mesh_commands(void **state)
{
    (void)state;
    mesh_commands(&real_arena);
}

static void test_real_waypoint_commands(void **state)
{
    (void)state;
    waypoint_commands(&real_arena);
}

/* The sample scene of Recast's demo: 884 vertices, 792 faces, 305 x 258 columns; two points on
 * its upper floor in sight of each other. */
static void test_real_level_commands(void **state)
{
    (void)state;
    static const navtool_level nav_test = {NAV_SHARED_DIR "/meshes/nav_test.obj",
                                           1612,
                                           305,
                                           258,
                                           {54.2f, 0.26f, -18.3f},
                                           {34.76f, -1.2f, -22.55f}};
    level_commands(&nav_test);
}

/* The entries of a folder, . and .. aside. */
static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

/* tools/split_bake.sh as a user runs it: from a folder outside the checkout, navtool left to the
 * script to find (the build beside it: here a copy of the script in a checkout's layout, its
 * build/tools/navtool a link to the program under test), paths relative to the caller. The file it
 * links is byte for byte the whole bake; its temporary folder (under TMPDIR) is gone afterwards,
 * also when a bake fails; a missing navtool is named. */
static void test_split_bake(void **state)
{
    (void)state;
    char dir[] = "/tmp/navtool_split_XXXXXX";
    assert_non_null(mkdtemp(dir));
    static char out[1 << 16];
    char path[600], command[4096];
    const char *json = NAV_TEST_DATA "/../../data/worlds/village/village.json";
    const char *folders[] = {"repo", "repo/tools", "repo/build", "repo/build/tools", "elsewhere", "tmp"};
    for (int i = 0; i < 6; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, folders[i]);
        assert_int_equal(mkdir(path, 0700), 0);
    }
    size_t size;
    char *script = test_read_file(NAV_TEST_DATA "/../../tools/split_bake.sh", &size);
    snprintf(path, sizeof path, "%s/repo/tools/split_bake.sh", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(script, 1, size, f), size);
    fclose(f);
    free(script);
    char navtool[600];
    snprintf(navtool, sizeof navtool, "%s/repo/build/tools/navtool", dir);
    assert_int_equal(symlink(NAVTOOL, navtool), 0);

    snprintf(command, sizeof command,
             "cd '%s/elsewhere' && env -u NAVTOOL -u PARTS TMPDIR='%s/tmp' bash ../repo/tools/split_bake.sh "
             "'%s' split.nav 2 2",
             dir, dir, json);
    int status = run_command(out, sizeof out, command);
    if (status != 0) fail_msg("split_bake.sh failed (%d):\n%s", status, out);
    expect_output(out, "split bake: 2 shards on 2 jobs");
    snprintf(command, sizeof command, "bake '%s' -o '%s/whole.nav' --quiet", json, dir);
    assert_int_equal(run_navtool(out, sizeof out, command), 0);
    char whole[600], split[600];
    snprintf(whole, sizeof whole, "%s/whole.nav", dir);
    snprintf(split, sizeof split, "%s/elsewhere/split.nav", dir);
    assert_true(same_file(whole, split));
    snprintf(path, sizeof path, "%s/tmp", dir);
    assert_int_equal(count_entries(path), 0);

    /* a bake that fails (no such world): a failure, and no folder left behind */
    snprintf(command, sizeof command,
             "cd '%s/elsewhere' && env -u NAVTOOL -u PARTS TMPDIR='%s/tmp' bash ../repo/tools/split_bake.sh "
             "no_such_world.json bad.nav 2 2",
             dir, dir);
    assert_int_not_equal(run_command(out, sizeof out, command), 0);
    assert_int_equal(count_entries(path), 0);
    /* no navtool beside the script: said so */
    assert_int_equal(remove(navtool), 0);
    snprintf(command, sizeof command,
             "cd '%s/elsewhere' && env -u NAVTOOL -u PARTS TMPDIR='%s/tmp' bash ../repo/tools/split_bake.sh "
             "'%s' bad.nav 2 2",
             dir, dir, json);
    assert_int_equal(run_command(out, sizeof out, command), 1);
    expect_output(out, "build/tools/navtool");
    assert_int_equal(count_entries(path), 0);

    assert_int_equal(remove(whole), 0);
    assert_int_equal(remove(split), 0);
    snprintf(path, sizeof path, "%s/repo/tools/split_bake.sh", dir);
    assert_int_equal(remove(path), 0);
    for (int i = 5; i >= 0; i--) {
        snprintf(path, sizeof path, "%s/%s", dir, folders[i]);
        assert_int_equal(rmdir(path), 0);
    }
    assert_int_equal(rmdir(dir), 0);
}

/* Issue 43, defect 7: a waypoint file that lacks its header (or begins with a comment) was read as
 * an ASCII map and got that format's error; navtool knows it by its first line and the waypoint
 * reader names what is missing, as docs/waypoints.md documents. */
static void test_waypoint_file_without_header(void **state)
{
    (void)state;
    char dir[] = "/tmp/navtool_header_XXXXXX", path[600], args[1400], out[4096];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/road.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("waypoint a 0 0 0\nwaypoint b 4 0 0\nlink a b\n", f);
    assert_int_equal(fclose(f), 0);
    snprintf(args, sizeof args, "path '%s' a b --algo waypoints", path);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    expect_output(out, "road.txt:1: no header: a waypoint file starts with 'libnav waypoints 1'");
    assert_null(strstr(out, "legend"));
    f = fopen(path, "w"); /* a comment first, then the header: a waypoint file too */
    assert_non_null(f);
    fputs("# the road\n\nlibnav waypoints 1\nwaypoint a 0 0 0\nwaypoint b 4 0 0\nlink a b\n", f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "cost: 4");
    remove(path);
    assert_int_equal(rmdir(dir), 0);
}

/* ---- Out of memory ------------------------------------------------------------------------------ */

/* Sanitizers reserve terabytes of shadow memory: they cannot run under an address-space limit. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif
#if !defined(SANITIZED) && NAV_TEST_SANITIZED
#define SANITIZED 1
#endif

/* The address space this process had when it started (its VmSize, bytes), which a program of
 * libnav's starts near: navtool is given so much more, and no more. */
static unsigned long long start_address_space;

static unsigned long long address_space(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    unsigned long long kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmSize: %llu kB", &kb) == 1) break;
    if (f) fclose(f);
    return kb * 1024;
}

#ifndef SANITIZED
/* Runs navtool with the arguments (null-terminated) and its address space limited to `limit` bytes
 * (RLIMIT_AS, set in the child before it runs navtool), stdout and stderr together into out. Returns
 * its exit status; a signal that ends it fails the test. */
static int run_navtool_limited(char *out, size_t size, const char *const *args, unsigned long long limit)
{
    int pipe_ends[2];
    assert_int_equal(pipe(pipe_ends), 0);
    fflush(NULL);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        dup2(pipe_ends[1], STDOUT_FILENO);
        dup2(pipe_ends[1], STDERR_FILENO);
        close(pipe_ends[0]);
        close(pipe_ends[1]);
        struct rlimit r = {(rlim_t)limit, (rlim_t)limit};
        if (setrlimit(RLIMIT_AS, &r) != 0) _exit(125);
        char *argv[16] = {(char *)NAVTOOL};
        for (int i = 0; args[i] && i < 14; i++) argv[i + 1] = (char *)args[i];
        execv(NAVTOOL, argv);
        _exit(126);
    }
    close(pipe_ends[1]);
    size_t n = 0;
    char rest[4096];
    for (;;) { /* all of it, lest the child block on a full pipe */
        ssize_t got =
            n + 1 < size ? read(pipe_ends[0], out + n, size - 1 - n) : read(pipe_ends[0], rest, sizeof rest);
        if (got <= 0) break;
        if (n + 1 < size) n += (size_t)got;
    }
    out[n] = '\0';
    close(pipe_ends[0]);
    int status;
    assert_int_equal(waitpid(child, &status, 0), child);
    if (WIFSIGNALED(status))
        fail_msg("navtool died of signal %d under the limit:\n%s", WTERMSIG(status), out);
    assert_true(WIFEXITED(status));
    assert_true(WEXITSTATUS(status) != 125 && WEXITSTATUS(status) != 126);
    return WEXITSTATUS(status);
}

#endif

/* Issue 43: a bake or a world load that runs out of memory ends navtool with a message that says so
 * and exit status 1, never a crash: navtool runs with 64 MiB more address space than a program of
 * libnav's has at its start. A waypoint bake of a chain of 4096 waypoints (its tables: 4096^2
 * entries of 6 bytes, 100 MB); a world whose waypoint region is that chain; a world file whose JSON
 * alone (4 million numbers: over 300 MB as cJSON's tree) does not fit, which cJSON reports as a null
 * tree, and which must not be called a parse error. */
static void test_out_of_memory(void **state)
{
    (void)state;
#ifdef SANITIZED
    print_message("skipped: the sanitizers cannot run under an address-space limit (RLIMIT_AS)\n");
    skip();
#else
    assert_true(start_address_space > 0);
    unsigned long long limit = start_address_space + (64ull << 20);
    char dir[] = "/tmp/test_navtool_oom_XXXXXX", chain[64], world[64], parse[64], nav[64], out[8192];
    assert_non_null(mkdtemp(dir));
    snprintf(chain, sizeof chain, "%s/chain.txt", dir);
    snprintf(world, sizeof world, "%s/world.json", dir);
    snprintf(parse, sizeof parse, "%s/big.json", dir);
    snprintf(nav, sizeof nav, "%s/out.nav", dir);
    FILE *f = fopen(chain, "w");
    assert_non_null(f);
    fputs("libnav waypoints 1\n", f);
    for (int i = 0; i < 4096; i++) fprintf(f, "waypoint w%d %d 0 0\n", i, i);
    for (int i = 0; i + 1 < 4096; i++) fprintf(f, "link w%d w%d\n", i, i + 1);
    assert_int_equal(fclose(f), 0);
    f = fopen(world, "w");
    assert_non_null(f);
    fputs("{\"regions\": [{\"name\": \"roads\", \"waypoints\": \"chain.txt\"}]}\n", f);
    assert_int_equal(fclose(f), 0);
    f = fopen(parse, "w");
    assert_non_null(f);
    fputs("{\"regions\": [{\"name\": \"roads\", \"waypoints\": \"chain.txt\"}],\n \"links\": [[0", f);
    for (int i = 1; i < 4000000; i++) fputs(",0", f);
    fputs("]]}\n", f);
    assert_int_equal(fclose(f), 0);

    const char *bake_waypoints[] = {"bake", chain, "--waypoints", "-o", nav, "--quiet", NULL};
    assert_int_equal(run_navtool_limited(out, sizeof out, bake_waypoints, limit), 1);
    expect_output(out, "no waypoints for");
    expect_output(out, "out of memory");
    const char *bake_world[] = {"bake", world, "-o", nav, "--quiet", NULL};
    assert_int_equal(run_navtool_limited(out, sizeof out, bake_world, limit), 1);
    expect_output(out, "\"chain.txt\" did not load: out of memory");
    expect_output(out, "the world does not load: out of memory");
    const char *parse_world[] = {"bake", parse, "-o", nav, "--quiet", NULL};
    assert_int_equal(run_navtool_limited(out, sizeof out, parse_world, limit), 1);
    expect_output(out, "big.json: out of memory while parsing the JSON");
    expect_output(out, "the world does not load: out of memory");
    /* the limit is what failed them: a small bake fits */
    f = fopen(chain, "w");
    assert_non_null(f);
    fputs("libnav waypoints 1\nwaypoint a 0 0 0\nwaypoint b 1 0 0\nlink a b\n", f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(run_navtool_limited(out, sizeof out, bake_world, limit), 0);
    char command[128];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    assert_int_equal(system(command), 0);
#endif
}

int main(int argc, char **argv)
{
    start_address_space = address_space();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crowd),
        cmocka_unit_test(test_info),
        cmocka_unit_test(test_baked_file_input),
        cmocka_unit_test(test_mesh_commands),
        cmocka_unit_test(test_waypoint_commands),
        cmocka_unit_test(test_demo),
        cmocka_unit_test(test_world_commands),
        cmocka_unit_test(test_world_render_and_switches),
        cmocka_unit_test(test_level_commands),
        cmocka_unit_test(test_world_file_messages),
        cmocka_unit_test(test_level_faults),
        cmocka_unit_test(test_level_tiles),
        cmocka_unit_test(test_split_bake),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_waypoint_file_without_header),
    };
    const struct CMUnitTest shared_tests[] = {
        cmocka_unit_test(test_real_info),           cmocka_unit_test(test_real_baked_file_input),
        cmocka_unit_test(test_real_mesh_commands),  cmocka_unit_test(test_real_waypoint_commands),
        cmocka_unit_test(test_real_level_commands),
    };
    static const char *const needs[] = {"maps/dao/arena.map", "maps/dao/den312d.map",
                                        "maps/dao/den312d.map.scen", "meshes/nav_test.obj", NULL};
    return TEST_RUN_SUITE("navtool", tests, shared_tests, needs);
}
