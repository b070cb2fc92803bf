/* navtool's levels: a navigation mesh baked from a level's triangles (navtool bake LEVEL.obj --mesh),
 * and paths and pictures over a level's mesh (a .nav file with a MESH chunk and no grid): world
 * points in, a top-down picture coloured by height and a side view out. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "navtool.h"
#include "nav/geometry.h"
#include "raster.h"

bool navtool_is_obj(const char *path)
{
    size_t n = strlen(path);
    return n > 4 && (!strcmp(path + n - 4, ".obj") || !strcmp(path + n - 4, ".OBJ"));
}

bool navtool_is_level_nav(const char *path)
{
    return (navtool_nav_file_has(path, NAV_CHUNK_MESH) || navtool_nav_file_has(path, NAV_CHUNK_MESH_TILES)) &&
           !navtool_nav_file_has(path, NAV_CHUNK_GRID);
}

/* A number option in world units (false after a message). */
static bool parse_float(const char *option, const char *text, float min, float *out)
{
    char *end;
    float v = strtof(text, &end);
    if (*end || !isfinite(v) || !(v >= min)) {
        fprintf(stderr, "navtool bake: %s needs a number >= %g\n", option, (double)min);
        return false;
    }
    *out = v;
    return true;
}

/* A size in bytes: digits, then K, M or G (KiB, MiB, GiB) or nothing (false after a message). */
static bool parse_bytes(const char *command, const char *text, uint64_t *out)
{
    char *end;
    unsigned long long n = strtoull(text, &end, 10);
    int shift = *end == 'K' || *end == 'k'   ? 10
                : *end == 'M' || *end == 'm' ? 20
                : *end == 'G' || *end == 'g' ? 30
                                             : 0;
    if (shift) end++;
    if (text[0] < '0' || text[0] > '9' || *end || n == 0 || n > (UINT64_MAX >> shift)) {
        fprintf(stderr, "navtool %s: --max-memory takes a size in bytes, or with K, M or G (as 8G)\n",
                command);
        return false;
    }
    *out = (uint64_t)n << shift;
    return true;
}

/* "1.2 GiB" */
static const char *size_text(uint64_t bytes, char out[32])
{
    if (bytes >= ((uint64_t)1 << 30))
        snprintf(out, 32, "%.1f GiB", (double)bytes / (double)((uint64_t)1 << 30));
    else
        snprintf(out, 32, "%.1f MiB", (double)bytes / (double)((uint64_t)1 << 20));
    return out;
}

int navtool_bake_level(int argc, char **argv)
{
    const char *input = NULL, *output = NULL;
    nav_geometry_build_desc desc = {0};
    bool quiet = false, mesh = false;
    uint32_t landmarks = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool value = i + 1 < argc;
        if (!strcmp(a, "-o") && value) {
            output = argv[++i];
        } else if (!strcmp(a, "--mesh")) {
            mesh = true;
        } else if (!strcmp(a, "--quiet")) {
            quiet = true;
        } else if (!strcmp(a, "--radius") && value) {
            if (!parse_float(a, argv[++i], 0, &desc.agent_radius)) return 2;
            if (desc.agent_radius == 0) desc.agent_radius = -1; /* none, not the default */
        } else if (!strcmp(a, "--height") && value) {
            if (!parse_float(a, argv[++i], 1e-6f, &desc.agent_height)) return 2;
        } else if (!strcmp(a, "--climb") && value) {
            if (!parse_float(a, argv[++i], 0, &desc.agent_climb)) return 2;
            if (desc.agent_climb == 0) desc.agent_climb = -1;
        } else if (!strcmp(a, "--slope") && value) {
            if (!parse_float(a, argv[++i], 1e-6f, &desc.max_slope)) return 2;
        } else if (!strcmp(a, "--cell") && value) {
            if (!parse_float(a, argv[++i], 1e-6f, &desc.cell_size)) return 2;
        } else if (!strcmp(a, "--cell-height") && value) {
            if (!parse_float(a, argv[++i], 1e-6f, &desc.cell_height)) return 2;
        } else if (!strcmp(a, "--tile") && value) {
            if (!navtool_parse_u32("bake", a, argv[++i], 0, 65535, &desc.tile_size)) return 2;
        } else if (!strcmp(a, "--threads") && value) {
            if (!navtool_parse_u32("bake", a, argv[++i], 0, 1024, &desc.threads)) return 2;
        } else if (!strcmp(a, "--max-verts") && value) {
            if (!navtool_parse_u32("bake", a, argv[++i], 3, NAV_MESH_MAX_POLY_VERTS, &desc.max_poly_verts))
                return 2;
        } else if (!strcmp(a, "--landmarks") && value) {
            if (!navtool_parse_landmarks("bake", argv[++i], &landmarks)) return 2;
        } else if (!strcmp(a, "--max-memory") && value) {
            if (!parse_bytes("bake", argv[++i], &desc.max_memory)) return 2;
        } else if (a[0] != '-' && !input) {
            input = a;
        } else {
            fprintf(stderr, "navtool bake: unexpected argument '%s'\n", a);
            navtool_usage(stderr);
            return 2;
        }
    }
    if (!input || !output) {
        navtool_usage(stderr);
        return 2;
    }
    if (!mesh) {
        fprintf(stderr, "navtool bake: a level .obj bakes into a navigation mesh: add --mesh\n");
        return 2;
    }
    if (desc.tile_size && landmarks) {
        fprintf(stderr, "navtool bake: a level baked in tiles keeps its tiles (so that one can be replaced), "
                        "not a mesh with landmarks: bake without --tile for landmarks, or give the mesh "
                        "landmarks when it is loaded (nav_mesh_bake_landmarks)\n");
        return 2;
    }
    nav_geometry *level = NULL;
    nav_status s = nav_geometry_load_obj_file(input, NULL, &navtool_stderr_log, &level);
    if (nav_failed(s)) return 1;
    nav_progress bar = {navtool_print_progress, "bake"};
    desc.log = &navtool_stderr_log;
    if (!quiet) desc.progress = &bar;
    nav_triangles t = nav_geometry_triangles(level);
    nav_mesh *m = NULL;
    nav_geometry_build_stats st;
    if (desc.tile_size) { /* the tiles are what the file keeps */
        nav_geometry_tiles *tiles = NULL;
        s = nav_geometry_tiles_build(&t, &desc, &tiles, &m, &st);
        if (nav_succeeded(s)) s = nav_geometry_tiles_save_nav(tiles, output);
        nav_geometry_tiles_destroy(tiles);
    } else {
        s = nav_mesh_build_from_geometry(&t, &desc, &m, &st);
        if (nav_succeeded(s) && landmarks) s = nav_mesh_bake_landmarks(m, landmarks, quiet ? NULL : &bar);
        if (nav_succeeded(s)) s = nav_mesh_save_nav(NULL, m, output);
    }
    if (nav_failed(s)) {
        char text[256];
        nav_status_format(s, text, sizeof text);
        fprintf(stderr, "navtool bake: %s: %s\n", input, text);
        nav_mesh_destroy(m);
        nav_geometry_destroy(level);
        return 1;
    }
    nav_geometry_build_desc used = nav_geometry_build_desc_defaults(&desc);
    printf("baked %s in %.1f ms: %u triangles, %d x %d cells, %u tiles, %u polygons, %u vertices, %zu bytes "
           "-> %s\n",
           input, st.total_ms, st.triangles, st.width, st.depth, st.tiles, st.polygons, st.vertices, st.bytes,
           output);
    printf("agent: radius %g, height %g, climb %g, slope %g; cells %g x %g; tile %u; polygons of up to %u "
           "vertices\n",
           (double)used.agent_radius, (double)used.agent_height, (double)used.agent_climb,
           (double)used.max_slope, (double)used.cell_size, (double)used.cell_height, used.tile_size,
           used.max_poly_verts);
    char estimate[32], limit[32];
    printf("memory: at most %s by the estimate before the build (max %s), %u %s at once\n",
           size_text(st.memory_estimate, estimate), size_text(used.max_memory, limit), st.tiles_at_once,
           desc.tile_size ? (st.tiles_at_once == 1 ? "tile" : "tiles") : "stage threads");
    printf("stages (ms, summed over threads):");
    for (int k = 0; k < NAV_GEOMETRY_STAGES; k++)
        printf(" %s %.2f", nav_geometry_stage_name((nav_geometry_stage)k), st.stage_ms[k]);
    printf(
        "\ncounts: %llu spans, %u walkable tops, %u kept after erosion and islands, %u regions, %u outline "
        "points%s\n",
        (unsigned long long)st.spans, st.tops, st.kept_tops, st.regions, st.contour_points,
        st.failed_regions ? " (some outlines cut only in part)" : "");
    nav_mesh_destroy(m);
    nav_geometry_destroy(level);
    return 0;
}

/* A tile coordinate: an integer, negative ones too (checked against the level's tiles once they are
 * read). False when text is not one. */
static bool parse_coordinate(const char *text, long *out)
{
    char *end;
    errno = 0;
    long n = strtol(text, &end, 10);
    if (end == text || *end || errno) return false;
    *out = n;
    return true;
}

static bool looks_numeric(const char *a)
{
    return (a[0] >= '0' && a[0] <= '9') || (a[0] == '-' && a[1] >= '0' && a[1] <= '9') ||
           (a[0] == '+' && a[1]);
}

/* navtool tile LEVEL.nav LEVEL.obj (X Z | --changed) [-o OUT.nav]: tile (X, Z) of a level baked in tiles
 * built again from the level as it is now, the others kept as they are (each must still read the
 * triangles it was built from); or every tile whose triangles changed. */
int navtool_tile(int argc, char **argv)
{
    const char *file = NULL, *obj = NULL, *output = NULL, *coordinate[2];
    long xz[2];
    int numbers = 0;
    bool quiet = false, changed = false;
    uint64_t max_memory = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-o") && i + 1 < argc) {
            output = argv[++i];
        } else if (!strcmp(a, "--quiet")) {
            quiet = true;
        } else if (!strcmp(a, "--changed")) {
            changed = true;
        } else if (!strcmp(a, "--max-memory") && i + 1 < argc) {
            if (!parse_bytes("tile", argv[++i], &max_memory)) return 2;
        } else if (a[0] != '-' && !file) {
            file = a;
        } else if (a[0] != '-' && !obj) {
            obj = a;
        } else if (file && obj && numbers < 2 && looks_numeric(a)) {
            coordinate[numbers] = a;
            if (!parse_coordinate(a, &xz[numbers])) {
                fprintf(stderr, "navtool tile: %s '%s' is not a tile coordinate (a whole number)\n",
                        numbers ? "Z" : "X", a);
                return 2;
            }
            numbers++;
        } else {
            fprintf(stderr, "navtool tile: unexpected argument '%s'\n", a);
            navtool_usage(stderr);
            return 2;
        }
    }
    if (!file || !obj || (changed ? numbers != 0 : numbers != 2)) {
        fprintf(stderr, "navtool tile: give LEVEL.nav LEVEL.obj and the tile's X Z, or --changed\n");
        return 2;
    }
    if (!output) output = file;
    nav_progress bar = {navtool_print_progress, "tile"};
    nav_geometry_build_desc opts = {
        .log = &navtool_stderr_log, .progress = quiet ? NULL : &bar, .max_memory = max_memory};
    nav_geometry_tiles *tiles = NULL;
    nav_status s = nav_geometry_tiles_load_nav(file, &opts, &tiles);
    if (nav_failed(s)) {
        char text[256];
        nav_status_format(s, text, sizeof text);
        fprintf(stderr, "navtool tile: %s: %s\n", file, text);
        return 1;
    }
    int32_t nx = 0, nz = 0;
    nav_geometry_tiles_count(tiles, &nx, &nz);
    if (!changed && (xz[0] < 0 || xz[0] >= nx || xz[1] < 0 || xz[1] >= nz)) {
        fprintf(stderr,
                "navtool tile: tile (%s, %s) is not one of %s's %d x %d tiles: X takes 0 to %d, Z 0 to %d\n",
                coordinate[0], coordinate[1], file, nx, nz, nx - 1, nz - 1);
        nav_geometry_tiles_destroy(tiles);
        return 2;
    }
    nav_geometry *level = NULL;
    nav_mesh *m = NULL;
    nav_geometry_build_stats st = {0};
    uint32_t rebuilt = 1;
    s = nav_geometry_load_obj_file(obj, NULL, &navtool_stderr_log, &level);
    if (nav_succeeded(s)) {
        nav_triangles t = nav_geometry_triangles(level);
        s = changed ? nav_geometry_tiles_rebuild_changed(tiles, &t, &m, &rebuilt, &st)
                    : nav_geometry_tiles_rebuild(tiles, &t, (int32_t)xz[0], (int32_t)xz[1], &m, &st);
    }
    if (nav_succeeded(s)) s = nav_geometry_tiles_save_nav(tiles, output);
    nav_mesh_destroy(m);
    nav_geometry_destroy(level);
    nav_geometry_tiles_destroy(tiles);
    if (nav_failed(s)) {
        char text[256];
        nav_status_format(s, text, sizeof text);
        fprintf(stderr, "navtool tile: %s: %s\n", file, text);
        return 1;
    }
    if (changed)
        printf(
            "%u of %d x %d tiles rebuilt from %s (those whose triangles changed) in %.1f ms: %u polygons, %u "
            "vertices, %zu bytes -> %s\n",
            rebuilt, nx, nz, obj, st.total_ms, st.polygons, st.vertices, st.bytes, output);
    else
        printf("tile (%ld, %ld) of %d x %d rebuilt from %s in %.1f ms: %u polygons, %u vertices, %zu bytes "
               "-> %s\n",
               xz[0], xz[1], nx, nz, obj, st.total_ms, st.polygons, st.vertices, st.bytes, output);
    return 0;
}

/* ---- Pictures -------------------------------------------------------------------------------- */

/* A view: world (u, v) to pixels, u to the right, v down (top-down: x and z; side: x and -y). */
typedef struct view {
    double u0, v0, scale; /* pixels a world unit */
    size_t width, height;
} view;

static void to_pixel(const view *w, double u, double v, double *px, double *py)
{
    *px = (u - w->u0) * w->scale;
    *py = (v - w->v0) * w->scale;
}

/* Fills a convex polygon of n pixel points (either winding), blending towards c. */
static void fill_convex(uint8_t *pixels, const view *w, const double *px, const double *py, uint32_t n, rgb c,
                        double t)
{
    double lo = INFINITY, hi = -INFINITY;
    for (uint32_t i = 0; i < n; i++) lo = fmin(lo, py[i]), hi = fmax(hi, py[i]);
    for (int64_t y = (int64_t)floor(lo); y <= (int64_t)ceil(hi); y++) {
        double yc = (double)y + 0.5, x0 = INFINITY, x1 = -INFINITY;
        for (uint32_t i = 0, j = n - 1; i < n; j = i++) {
            double ya = py[j], yb = py[i];
            if ((ya <= yc) == (yb <= yc)) continue;
            double x = px[j] + (yc - ya) / (yb - ya) * (px[i] - px[j]);
            x0 = fmin(x0, x), x1 = fmax(x1, x);
        }
        for (int64_t x = (int64_t)ceil(x0 - 0.5); x0 <= x1 && (double)x + 0.5 <= x1; x++)
            blend(pixels, w->width, w->height, x, y, c, t);
    }
}

/* The colour of a height between lo and hi: deep blue, through green, to warm yellow. */
static rgb height_colour(double y, double lo, double hi)
{
    double t = hi > lo ? (y - lo) / (hi - lo) : 0.5;
    rgb low = {40, 70, 160}, mid = {70, 170, 110}, high = {240, 210, 90};
    return t < 0.5 ? mix(low, mid, t * 2) : mix(mid, high, (t - 0.5) * 2);
}

typedef struct poly_order {
    double height;
    uint32_t poly;
} poly_order;

static int by_height(const void *a, const void *b)
{
    const poly_order *p = a, *q = b;
    if (p->height != q->height) return p->height < q->height ? -1 : 1;
    return p->poly < q->poly ? -1 : (p->poly > q->poly);
}

/* Draws the mesh and the path [opt] in one view (side: a side view, else from above). */
static int draw_level(const char *png, const nav_mesh *mesh, const nav_path *path, bool side,
                      double max_pixels)
{
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t v = 0; v < nav_mesh_vert_count(mesh); v++) {
        nav_vec3 p = nav_mesh_vert(mesh, v);
        float c[3] = {p.x, p.y, p.z};
        for (int k = 0; k < 3; k++) lo[k] = fminf(lo[k], c[k]), hi[k] = fmaxf(hi[k], c[k]);
    }
    if (!(lo[0] <= hi[0])) {
        fprintf(stderr, "navtool render: the mesh is empty\n");
        return 1;
    }
    /* u: x; v: z from above, -y from the side */
    double u_lo = lo[0], u_hi = hi[0], v_lo = side ? -hi[1] : lo[2], v_hi = side ? -lo[1] : hi[2];
    double span = fmax(fmax(u_hi - u_lo, v_hi - v_lo), 1e-3);
    double margin = span * 0.03;
    view w = {.u0 = u_lo - margin, .v0 = v_lo - margin, .scale = max_pixels / (span + 2 * margin)};
    w.width = (size_t)ceil((u_hi - u_lo + 2 * margin) * w.scale) + 1;
    w.height = (size_t)ceil((v_hi - v_lo + 2 * margin) * w.scale) + 1;
    uint8_t *pixels = malloc(w.width * w.height * 3);
    if (!pixels) return 1;
    memset(pixels, 250, w.width * w.height * 3);
    uint32_t polys = nav_mesh_poly_count(mesh);
    poly_order *order = malloc((polys ? polys : 1) * sizeof *order);
    if (!order) {
        free(pixels);
        return 1;
    }
    for (uint32_t p = 0; p < polys; p++) {
        nav_mesh_poly_info info;
        nav_mesh_poly(mesh, p, &info);
        double sum = 0, depth = 0;
        for (uint32_t i = 0; i < info.vert_count; i++) {
            nav_vec3 v = nav_mesh_vert(mesh, info.verts[i]);
            sum += v.y, depth += v.z;
        }
        /* from above, the higher floors last (on top); from the side, the nearer (lower z) last */
        order[p] = (poly_order){side ? -depth / info.vert_count : sum / info.vert_count, p};
    }
    qsort(order, polys, sizeof *order, by_height);
    double px[NAV_MESH_MAX_POLY_VERTS], py[NAV_MESH_MAX_POLY_VERTS];
    for (uint32_t k = 0; k < polys; k++) {
        nav_mesh_poly_info info;
        nav_mesh_poly(mesh, order[k].poly, &info);
        double height = 0;
        for (uint32_t i = 0; i < info.vert_count; i++) {
            nav_vec3 v = nav_mesh_vert(mesh, info.verts[i]);
            height += (double)v.y / info.vert_count;
            to_pixel(&w, v.x, side ? -v.y : v.z, &px[i], &py[i]);
        }
        rgb c = height_colour(height, lo[1], hi[1]);
        if (!side) fill_convex(pixels, &w, px, py, info.vert_count, c, 0.85);
        rgb edge = side ? c : mix(c, (rgb){20, 20, 30}, 0.6);
        for (uint32_t i = 0, j = info.vert_count - 1; i < info.vert_count; j = i++)
            line(pixels, w.width, w.height, (int64_t)px[j], (int64_t)py[j], (int64_t)px[i], (int64_t)py[i],
                 edge, side ? 0.8 : 0.5);
    }
    if (path) {
        rgb red = {220, 30, 40};
        for (uint32_t i = 0; i < path->count; i++) {
            double ax, ay;
            nav_vec3 a = path->points[i];
            to_pixel(&w, a.x, side ? -a.y : a.z, &ax, &ay);
            for (int dy = -2; dy <= 2; dy++)
                for (int dx = -2; dx <= 2; dx++)
                    blend(pixels, w.width, w.height, (int64_t)ax + dx, (int64_t)ay + dy, red, 1);
            if (i + 1 < path->count) {
                double bx, by;
                nav_vec3 b = path->points[i + 1];
                to_pixel(&w, b.x, side ? -b.y : b.z, &bx, &by);
                for (int o = -1; o <= 1; o++)
                    line(pixels, w.width, w.height, (int64_t)ax + o, (int64_t)ay, (int64_t)bx + o,
                         (int64_t)by, red, 1);
            }
        }
    }
    int ok = navtool_write_rgb_png(png, w.width, w.height, pixels);
    free(order);
    free(pixels);
    if (!ok) {
        fprintf(stderr, "navtool render: cannot write %s\n", png);
        return 1;
    }
    return 0;
}

/* OUT.png -> OUT-side.png */
static char *side_name(const char *png)
{
    size_t n = strlen(png);
    const char *dot = strrchr(png, '.');
    size_t stem = dot && !strchr(dot, '/') ? (size_t)(dot - png) : n;
    char *out = malloc(n + 6);
    if (!out) return NULL;
    memcpy(out, png, stem);
    strcpy(out + stem, "-side");
    strcpy(out + stem + 5, png + stem);
    return out;
}

/* An end of a level path that no polygon is near: where it is, and how far the search looked. */
static void report_off_mesh(const char *end, nav_vec3 p, nav_vec3 box)
{
    fprintf(
        stderr,
        "navtool: level path: the %s (%g, %g, %g) is not on the mesh: no floor within %g m across and %g m "
        "up or down\n",
        end, (double)p.x, (double)p.y, (double)p.z, (double)box.x, (double)box.y);
}

/* An end of a level path that the search moved onto the mesh (across, or up or down onto a floor). */
static void report_moved(const char *end, nav_vec3 given, nav_vec3 on)
{
    if (fabsf(on.x - given.x) <= 1e-3f && fabsf(on.y - given.y) <= 1e-3f && fabsf(on.z - given.z) <= 1e-3f)
        return;
    printf("%s (%g, %g, %g) -> on the mesh at (%.3f, %.3f, %.3f), %.3f m away\n", end, (double)given.x,
           (double)given.y, (double)given.z, (double)on.x, (double)on.y, (double)on.z,
           sqrt(((double)on.x - given.x) * ((double)on.x - given.x) +
                ((double)on.y - given.y) * ((double)on.y - given.y) +
                ((double)on.z - given.z) * ((double)on.z - given.z)));
}

int navtool_level_route(const char *file, const float *points, nav_mesh_path_mode mode, const char *png,
                        int scale, bool print)
{
    nav_mesh *mesh = NULL;
    nav_status s = nav_mesh_load_nav(file, NULL, &navtool_stderr_log, &mesh, NULL);
    if (nav_failed(s)) return 1;
    nav_path path;
    nav_path_init(&path, NULL);
    int rc = 0;
    bool have_path = false;
    if (points) {
        nav_mesh_query *q = NULL;
        nav_mesh_result r = {0};
        s = nav_mesh_query_create(mesh, NULL, &q);
        nav_vec3 a = {points[0], points[1], points[2]}, b = {points[3], points[4], points[5]};
        if (nav_succeeded(s)) s = nav_mesh_find_path(q, &(nav_mesh_path_desc){.mode = mode}, a, b, &path, &r);
        char text[256];
        nav_status_format(s, text, sizeof text);
        if (nav_has_detail(s, NAV_BLOCKED_ENDPOINT)) {
            nav_vec3 box = nav_mesh_default_half_extents(mesh);
            if (r.start_poly == NAV_MESH_NO_POLY) report_off_mesh("start", a, box);
            if (r.goal_poly == NAV_MESH_NO_POLY) report_off_mesh("goal", b, box);
            rc = 1;
        } else if (nav_failed(s)) {
            fprintf(stderr, "navtool: level path: %s\n", text);
            rc = 1;
        } else {
            have_path = true;
            if (print) {
                report_moved("start", a, r.start_point);
                report_moved("goal", b, r.goal_point);
                uint32_t corridor = 0;
                (void)nav_mesh_query_corridor(q, &corridor);
                printf("status: %s\nmode: %s\ncost: %.6f\npoints: %u\npolygons: %u\nexpanded: %u\npath:",
                       text, r.mode == NAV_MESH_PATH_OPTIMAL ? "optimal" : "funnel", r.cost, path.count,
                       corridor, r.expanded);
                for (uint32_t i = 0; i < path.count; i++)
                    printf(" (%.3f,%.3f,%.3f)", path.points[i].x, path.points[i].y, path.points[i].z);
                printf("\n");
            }
        }
        nav_mesh_query_destroy(q);
    }
    if (rc == 0 && png) {
        double pixels = scale > 0 ? scale : 1024;
        char *side = side_name(png);
        rc = draw_level(png, mesh, have_path ? &path : NULL, false, pixels);
        if (rc == 0) rc = side ? draw_level(side, mesh, have_path ? &path : NULL, true, pixels) : 1;
        if (rc == 0 && print) printf("pictures: %s (from above), %s (from the side)\n", png, side);
        free(side);
    }
    nav_path_destroy(&path);
    nav_mesh_destroy(mesh);
    return rc;
}

bool navtool_parse_points(const char *command, const char *const *text, int count, float *out)
{
    for (int k = 0; k < count; k++) {
        char *end;
        out[k] = strtof(text[k], &end);
        if (*end || !isfinite(out[k])) {
            fprintf(stderr, "navtool %s: '%s' is not a coordinate\n", command, text[k]);
            return false;
        }
    }
    return true;
}

/* navtool path LEVEL.nav X Y Z X Y Z [--algo mesh|mesh-funnel] [--png OUT] [--scale PX], and navtool
 * render LEVEL.nav [X Y Z X Y Z] --png OUT (print: path's answer printed). */
static int level_command(const char *command, int argc, char **argv, bool print)
{
    const char *file = NULL, *png = NULL, *coords[6];
    int ncoord = 0, scale = 0;
    nav_mesh_path_mode mode = NAV_MESH_PATH_OPTIMAL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--png") && i + 1 < argc) {
            png = argv[++i];
        } else if (!strcmp(a, "--scale") && i + 1 < argc) {
            uint32_t s;
            if (!navtool_parse_u32(command, a, argv[++i], 16, 16384, &s)) return 2;
            scale = (int)s;
        } else if (!strcmp(a, "--algo") && i + 1 < argc) {
            if (!navtool_parse_mesh_mode(argv[++i], &mode)) {
                fprintf(stderr, "navtool %s: a level's mesh takes --algo mesh or mesh-funnel\n", command);
                return 2;
            }
        } else if (!file && a[0] != '-') {
            file = a;
        } else if (ncoord < 6 && (a[0] != '-' || (a[1] >= '0' && a[1] <= '9') || a[1] == '.')) {
            coords[ncoord++] = a;
        } else {
            fprintf(stderr, "navtool %s: unexpected argument '%s'\n", command, a);
            return 2;
        }
    }
    if (!file || (ncoord != 0 && ncoord != 6) || (print && ncoord != 6) || (!print && !png)) {
        navtool_usage(stderr);
        return 2;
    }
    float points[6];
    if (ncoord && !navtool_parse_points(command, coords, 6, points)) return 2;
    return navtool_level_route(file, ncoord ? points : NULL, mode, png, scale, print);
}

int navtool_path_level(int argc, char **argv)
{
    return level_command("path", argc, argv, true);
}

int navtool_render_level(int argc, char **argv)
{
    return level_command("render", argc, argv, false);
}
