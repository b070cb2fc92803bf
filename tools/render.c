/* navtool render: draw a grid as a PNG (walls, terrain shades, the closed and open cells of a
 * search, the path on top, like the seed tutorials' pictures) or as text; with an HPA* bake, a
 * navigation mesh or waypoints (links, waypoints and a route) over it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "navtool.h"
#include "nav/anyangle.h"

#include "raster.h"

static const rgb wall = {40, 40, 48}, closed_tint = {120, 170, 235}, open_tint = {140, 220, 140},
                 path_colour = {220, 40, 40}, start_colour = {30, 160, 30}, goal_colour = {30, 60, 200};

/* Plain ground is near white; dearer terrain is darker and greener (cost 10 is quite dark). */
static rgb terrain_colour(double cost)
{
    if (!(cost < INFINITY)) return wall;
    double t = cost <= 1 ? 0 : fmin(1.0, log(cost) / log(12.0));
    return mix((rgb){236, 236, 230}, (rgb){70, 110, 60}, t);
}

/* The abstract graph under the path: cluster borders (level 1 faint, higher levels stronger), the
 * edges of the top level as lines between node centres, and every node as a dot. */
static void draw_hpa(uint8_t *pixels, size_t pw, size_t ph, int scale, const nav_hpa *hpa, int32_t w)
{
    nav_hpa_info info;
    nav_hpa_get_info(hpa, &info);
    static const rgb border = {30, 60, 160}, edge = {230, 140, 20}, node = {200, 30, 160};
    for (int l = 1; l <= info.levels; l++) {
        int64_t side = (int64_t)info.cluster_side[l] * scale;
        double t = l == 1 ? 0.25 : 0.6;
        for (size_t py = 0; py < ph; py++)
            for (size_t px = 0; px < pw; px++)
                if ((px % (size_t)side == 0 && px) || (py % (size_t)side == 0 && py))
                    blend(pixels, pw, ph, (int64_t)px, (int64_t)py, border, t);
    }
    int32_t top = info.levels;
    uint32_t n = nav_hpa_node_count(hpa), targets[4096];
    for (uint32_t u = 0; u < n; u++) {
        uint32_t cell;
        int32_t level;
        nav_hpa_node(hpa, u, &cell, &level);
        if (level < top) continue;
        uint32_t count = nav_hpa_node_edges(hpa, top, u, targets, NULL, 4096);
        int64_t x0 = (int64_t)(cell % (uint32_t)w) * scale + scale / 2,
                y0 = (int64_t)(cell / (uint32_t)w) * scale + scale / 2;
        for (uint32_t i = 0; i < count && i < 4096; i++) {
            uint32_t other;
            nav_hpa_node(hpa, targets[i], &other, NULL);
            line(pixels, pw, ph, x0, y0, (int64_t)(other % (uint32_t)w) * scale + scale / 2,
                 (int64_t)(other / (uint32_t)w) * scale + scale / 2, edge, 0.35);
        }
    }
    for (uint32_t u = 0; u < n; u++) {
        uint32_t cell;
        nav_hpa_node(hpa, u, &cell, NULL);
        int64_t x0 = (int64_t)(cell % (uint32_t)w) * scale, y0 = (int64_t)(cell / (uint32_t)w) * scale;
        for (int64_t dy = 0; dy < scale; dy++)
            for (int64_t dx = 0; dx < scale; dx++) blend(pixels, pw, ph, x0 + dx, y0 + dy, node, 0.8);
    }
}

/* A world point as a pixel (the nearest pixel centre). */
static void to_pixel(const nav_grid *grid, nav_vec3 p, int scale, size_t pw, size_t ph, int64_t *x,
                     int64_t *y)
{
    double ux, uy;
    nav_grid_world_to_units(grid, p, &ux, &uy);
    double fx = floor(ux * scale - 0.5 + 0.5), fy = floor(uy * scale - 0.5 + 0.5);
    *x = (int64_t)fmin(fmax(fx, 0), (double)pw - 1);
    *y = (int64_t)fmin(fmax(fy, 0), (double)ph - 1);
}

/* A path of world points: its segments, then its corners (start green, goal blue). */
static void draw_route(uint8_t *pixels, size_t pw, size_t ph, int scale, const nav_grid *grid,
                       const nav_path *path)
{
    static const rgb corner = {120, 20, 20};
    for (uint32_t i = 0; i + 1 < path->count; i++) {
        int64_t ax, ay, bx, by;
        to_pixel(grid, path->points[i], scale, pw, ph, &ax, &ay);
        to_pixel(grid, path->points[i + 1], scale, pw, ph, &bx, &by);
        for (int d = 0; d < (scale >= 4 ? 2 : 1); d++)
            line(pixels, pw, ph, ax + d, ay, bx + d, by, path_colour, 1.0);
    }
    for (uint32_t i = 0; i < path->count; i++) {
        int64_t x, y;
        to_pixel(grid, path->points[i], scale, pw, ph, &x, &y);
        rgb c = i == 0 ? start_colour : i + 1 == path->count ? goal_colour : corner;
        int r = scale >= 4 ? scale / 2 : 1;
        for (int dy = -r; dy <= r; dy++)
            for (int dx = -r; dx <= r; dx++) blend(pixels, pw, ph, x + dx, y + dy, c, 1.0);
    }
}

/* The mesh over the grid: the corridor's polygons tinted, every polygon's outline, the corridor's
 * portals, the links as arcs of dots, the straight path on top with its corners. */
static void draw_mesh(uint8_t *pixels, size_t pw, size_t ph, int scale, const nav_grid *grid,
                      const navtool_layers *layers)
{
    static const rgb outline = {70, 110, 170}, corridor_tint = {250, 210, 60}, portal = {240, 130, 20},
                     link_colour = {160, 40, 200};
    const nav_mesh *mesh = layers->mesh;
    for (uint32_t i = 0; i < layers->corridor_count; i++) {
        nav_mesh_poly_info info;
        if (!nav_mesh_poly(mesh, layers->corridor[i], &info)) continue;
        int64_t x0 = INT64_MAX, y0 = INT64_MAX, x1 = INT64_MIN, y1 = INT64_MIN;
        int64_t vx[NAV_MESH_MAX_POLY_VERTS], vy[NAV_MESH_MAX_POLY_VERTS];
        for (uint32_t k = 0; k < info.vert_count; k++) {
            double ux, uy;
            nav_grid_world_to_units(grid, nav_mesh_vert(mesh, info.verts[k]), &ux, &uy);
            vx[k] = (int64_t)llround(ux * scale);
            vy[k] = (int64_t)llround(uy * scale);
            x0 = vx[k] < x0 ? vx[k] : x0;
            x1 = vx[k] > x1 ? vx[k] : x1;
            y0 = vy[k] < y0 ? vy[k] : y0;
            y1 = vy[k] > y1 ? vy[k] : y1;
        }
        for (int64_t y = y0; y < y1; y++)
            for (int64_t x = x0; x < x1; x++) {
                bool inside = true; /* pixel centre against the clockwise (y down) polygon */
                for (uint32_t k = 0; k < info.vert_count && inside; k++) {
                    uint32_t n = (k + 1) % info.vert_count;
                    int64_t cross =
                        (vx[n] - vx[k]) * (2 * y + 1 - 2 * vy[k]) - (vy[n] - vy[k]) * (2 * x + 1 - 2 * vx[k]);
                    inside = cross >= 0;
                }
                if (inside) blend(pixels, pw, ph, x, y, corridor_tint, 0.35);
            }
    }
    for (uint32_t p = 0; p < nav_mesh_poly_count(mesh); p++) {
        nav_mesh_poly_info info;
        nav_mesh_poly(mesh, p, &info);
        for (uint32_t k = 0; k < info.vert_count; k++) {
            int64_t ax, ay, bx, by;
            to_pixel(grid, nav_mesh_vert(mesh, info.verts[k]), scale, pw, ph, &ax, &ay);
            to_pixel(grid, nav_mesh_vert(mesh, info.verts[(k + 1) % info.vert_count]), scale, pw, ph, &bx,
                     &by);
            line(pixels, pw, ph, ax, ay, bx, by, outline, 0.6);
        }
    }
    for (uint32_t i = 0; i + 1 < layers->corridor_count; i++) {
        nav_mesh_poly_info info;
        if (!nav_mesh_poly(mesh, layers->corridor[i], &info)) continue;
        for (uint32_t k = 0; k < info.vert_count; k++) {
            if (info.neighbours[k] != layers->corridor[i + 1]) continue;
            int64_t ax, ay, bx, by;
            to_pixel(grid, nav_mesh_vert(mesh, info.verts[k]), scale, pw, ph, &ax, &ay);
            to_pixel(grid, nav_mesh_vert(mesh, info.verts[(k + 1) % info.vert_count]), scale, pw, ph, &bx,
                     &by);
            line(pixels, pw, ph, ax, ay, bx, by, portal, 1.0);
        }
    }
    for (uint32_t l = 0; l < nav_mesh_link_count(mesh); l++) {
        nav_mesh_link_info info;
        nav_mesh_link(mesh, l, &info);
        int64_t ax, ay, bx, by;
        to_pixel(grid, info.start, scale, pw, ph, &ax, &ay);
        to_pixel(grid, info.end, scale, pw, ph, &bx, &by);
        line(pixels, pw, ph, ax, ay, bx, by, link_colour, 0.5);
    }
    if (layers->mesh_path) draw_route(pixels, pw, ph, scale, grid, layers->mesh_path);
}

/* Waypoints over the grid: links as lines (one-way ones lighter, disabled ones grey), then the
 * waypoints as dots, the route on top with its corners. */
static void draw_waypoints(uint8_t *pixels, size_t pw, size_t ph, int scale, const nav_grid *grid,
                           const navtool_layers *layers)
{
    static const rgb link_colour = {90, 60, 170}, one_way_colour = {190, 120, 230},
                     disabled_colour = {150, 150, 150}, point_colour = {30, 30, 110};
    const nav_waypoints *wp = layers->waypoints;
    uint32_t n = nav_waypoints_count(wp), links = nav_waypoints_link_count(wp);
    double strength = links > 20000 ? 0.15 : links > 2000 ? 0.3 : 0.6;
    for (uint32_t l = 0; l < links; l++) {
        nav_waypoint_link k;
        nav_waypoints_link(wp, l, &k);
        int64_t ax, ay, bx, by;
        to_pixel(grid, nav_waypoints_position(wp, k.from), scale, pw, ph, &ax, &ay);
        to_pixel(grid, nav_waypoints_position(wp, k.to), scale, pw, ph, &bx, &by);
        rgb c = k.disabled ? disabled_colour : k.one_way ? one_way_colour : link_colour;
        line(pixels, pw, ph, ax, ay, bx, by, c, strength);
    }
    int r = scale >= 6 ? scale / 3 : scale >= 3 ? 1 : 0;
    for (uint32_t i = 0; i < n; i++) {
        int64_t x, y;
        to_pixel(grid, nav_waypoints_position(wp, i), scale, pw, ph, &x, &y);
        for (int dy = -r; dy <= r; dy++)
            for (int dx = -r; dx <= r; dx++) blend(pixels, pw, ph, x + dx, y + dy, point_colour, 1.0);
    }
    if (layers->waypoint_path) draw_route(pixels, pw, ph, scale, grid, layers->waypoint_path);
}

int navtool_write_png(const char *path, const nav_grid *grid, const nav_grid_query *query,
                      const nav_path *path_cells, int scale)
{
    return navtool_write_png_layers(path, grid, &(navtool_layers){.query = query}, path_cells, scale);
}

int navtool_write_png_hpa(const char *path, const nav_grid *grid, const nav_grid_query *query,
                          const nav_hpa *hpa, const nav_path *path_cells, int scale)
{
    return navtool_write_png_layers(path, grid, &(navtool_layers){.query = query, .hpa = hpa}, path_cells,
                                    scale);
}

int navtool_write_png_layers(const char *path, const nav_grid *grid, const navtool_layers *layers,
                             const nav_path *path_cells, int scale)
{
    const nav_grid_query *query = layers->query;
    const nav_hpa *hpa = layers->hpa;
    int32_t w = nav_grid_width(grid), h = nav_grid_height(grid);
    if (scale <= 0) {
        int32_t side = w > h ? w : h;
        scale = side >= 1024 ? 1 : 1024 / side;
        if (scale > 16) scale = 16;
    }
    if ((int64_t)w * scale > 16384 || (int64_t)h * scale > 16384) scale = 1;
    size_t pw = (size_t)w * (size_t)scale, ph = (size_t)h * (size_t)scale;
    rgb *cells = malloc((size_t)w * (size_t)h * sizeof *cells);
    uint8_t *pixels = malloc(pw * ph * 3);
    if (!cells || !pixels) {
        free(cells);
        free(pixels);
        fprintf(stderr, "navtool: out of memory for %zux%zu image\n", pw, ph);
        return 1;
    }
    float lo = INFINITY, hi = -INFINITY;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            float z = nav_grid_cell_height(grid, x, y);
            lo = fminf(lo, z);
            hi = fmaxf(hi, z);
        }
    for (int32_t y = 0; y < h; y++) {
        for (int32_t x = 0; x < w; x++) {
            rgb c = terrain_colour(nav_grid_cell_cost(grid, x, y));
            if (hi > lo && nav_grid_passable(grid, x, y)) /* lower ground is drawn darker */
                c = mix((rgb){20, 20, 60}, c,
                        0.45 + 0.55 * (nav_grid_cell_height(grid, x, y) - lo) / (hi - lo));
            if (query) {
                nav_cell_state state = nav_grid_query_cell(query, x, y, NULL, NULL);
                if (state == NAV_CELL_CLOSED) c = mix(c, closed_tint, 0.55);
                if (state == NAV_CELL_OPEN) c = mix(c, open_tint, 0.65);
            }
            cells[(size_t)y * w + x] = c;
        }
    }
    for (size_t py = 0; py < ph; py++) {
        for (size_t px = 0; px < pw; px++) {
            rgb c = cells[(py / scale) * w + px / scale];
            /* a thin grid line when cells are big enough to show it */
            if (scale >= 6 && (px % scale == 0 || py % scale == 0)) c = mix(c, (rgb){0, 0, 0}, 0.15);
            uint8_t *p = pixels + (py * pw + px) * 3;
            p[0] = c.r;
            p[1] = c.g;
            p[2] = c.b;
        }
    }
    if (hpa) draw_hpa(pixels, pw, ph, scale, hpa, w);
    if (layers->mesh) draw_mesh(pixels, pw, ph, scale, grid, layers);
    if (layers->waypoints) draw_waypoints(pixels, pw, ph, scale, grid, layers);
    if (path_cells) { /* the path on top of everything */
        for (uint32_t i = 0; i < path_cells->count; i++) {
            uint32_t cell = path_cells->nodes[i];
            if (cell >= (uint32_t)w * (uint32_t)h) continue;
            rgb c = i == 0 ? start_colour : i + 1 == path_cells->count ? goal_colour : path_colour;
            int64_t x0 = (int64_t)(cell % (uint32_t)w) * scale, y0 = (int64_t)(cell / (uint32_t)w) * scale;
            for (int64_t dy = 0; dy < scale; dy++)
                for (int64_t dx = 0; dx < scale; dx++) blend(pixels, pw, ph, x0 + dx, y0 + dy, c, 1.0);
        }
    }
    int ok = navtool_write_rgb_png(path, pw, ph, pixels);
    free(cells);
    free(pixels);
    if (!ok) {
        fprintf(stderr, "navtool: cannot write %s\n", path);
        return 1;
    }
    return 0;
}

void navtool_print_ascii(FILE *out, const nav_grid *grid, const nav_path *path_cells)
{
    int32_t w = nav_grid_width(grid), h = nav_grid_height(grid);
    char *rows = malloc((size_t)w * (size_t)h);
    if (!rows) return;
    for (int32_t y = 0; y < h; y++) {
        for (int32_t x = 0; x < w; x++) {
            double cost = nav_grid_cell_cost(grid, x, y);
            char c = !(cost < INFINITY) ? '#'
                     : cost == 1        ? '.'
                                        : (char)('0' + (cost >= 9 ? 9 : (int)lround(cost)));
            rows[(size_t)y * w + x] = c;
        }
    }
    if (path_cells) {
        for (uint32_t i = 0; i < path_cells->count; i++) {
            uint32_t cell = path_cells->nodes[i];
            if (cell < (uint32_t)w * (uint32_t)h)
                rows[cell] = i == 0 ? 's' : i + 1 == path_cells->count ? 't' : '*';
        }
    }
    for (int32_t y = 0; y < h; y++) fprintf(out, "%.*s\n", (int)w, rows + (size_t)y * w);
    free(rows);
}

int navtool_render(int argc, char **argv)
{
    if (argc > 1 && (navtool_is_json(argv[1]) || navtool_nav_file_has(argv[1], NAV_CHUNK_WORLD)))
        return navtool_render_world(argc, argv);
    if (argc > 1 && navtool_is_level_nav(argv[1])) return navtool_render_level(argc, argv);
    const char *map = NULL, *png = NULL;
    int32_t c[4];
    const char *ends[4];
    int ncoord = 0, scale = 0;
    bool waypoints = false;
    bool ascii = false;
    nav_search_desc search = {0};
    bool hpa = false;
    nav_hpa_desc hpa_desc = {0};
    bool mesh = false;
    nav_mesh_path_mode mesh_mode = NAV_MESH_PATH_OPTIMAL;
    float radius = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--png") && i + 1 < argc) {
            png = argv[++i];
        } else if (!strcmp(argv[i], "--algo") && i + 1 < argc && !strcmp(argv[i + 1], "waypoints")) {
            waypoints = true;
            i++;
        } else if (!strcmp(argv[i], "--algo") && i + 1 < argc &&
                   navtool_parse_mesh_mode(argv[i + 1], &mesh_mode)) {
            mesh = true;
            i++;
        } else if (!strcmp(argv[i], "--radius") && i + 1 < argc) {
            radius = strtof(argv[++i], NULL);
        } else if (!strcmp(argv[i], "--algo") && i + 1 < argc && !strcmp(argv[i + 1], "hpa")) {
            hpa = true;
            i++;
        } else if (navtool_parse_hpa_option(argc, argv, &i, &hpa_desc)) {
            continue;
        } else if (!strcmp(argv[i], "--algo") && i + 1 < argc) {
            if (!navtool_parse_algo(argv[++i], &search.algo)) {
                fprintf(stderr, "navtool render: unknown algorithm '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--scale") && i + 1 < argc) {
            scale = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--ascii")) {
            ascii = true;
        } else if (!map && argv[i][0] != '-') {
            map = argv[i];
        } else if (ncoord < 4 && (argv[i][0] != '-' || (argv[i][1] >= '0' && argv[i][1] <= '9'))) {
            ends[ncoord] = argv[i];
            c[ncoord++] = (int32_t)strtol(argv[i], NULL, 10);
        } else {
            fprintf(stderr, "navtool render: unexpected argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (waypoints && map && png && !ascii && (ncoord == 0 || ncoord == 2 || ncoord == 4))
        return navtool_waypoints_route(map, ends, ncoord, png, scale, false);
    if (!map || (ncoord != 0 && ncoord != 4) || (!png && !ascii)) {
        navtool_usage(stderr);
        return 2;
    }
    if (mesh) {
        if (ascii) {
            fprintf(stderr, "navtool render: --ascii does not draw meshes; use --png\n");
            return 2;
        }
        return navtool_mesh_route(map, ncoord ? c : NULL, mesh_mode, radius, png, scale, false);
    }
    nav_hpa *baked = NULL; /* a .nav file's own bake, or one made here */
    nav_grid *grid = navtool_load(map, NULL, hpa ? &baked : NULL);
    if (!grid) return 1;
    nav_grid_query *query = NULL;
    nav_path path;
    nav_path_init(&path, NULL);
    int rc = 0;
    if (hpa) {
        hpa_desc.log = &navtool_stderr_log;
        nav_hpa_query *hq = NULL;
        nav_status s = baked ? NAV_SUCCESS : nav_hpa_bake(grid, &hpa_desc, &baked);
        if (nav_succeeded(s) && ncoord == 4) {
            s = nav_hpa_query_create(baked, grid, NULL, &hq);
            if (nav_succeeded(s)) s = nav_hpa_find_path(hq, c[0], c[1], c[2], c[3], &path, NULL);
        }
        if (nav_failed(s)) {
            fprintf(stderr, "navtool render: hpa failed: %s\n", nav_status_str(s));
            rc = 1;
        }
        nav_hpa_query_destroy(hq);
    } else if (ncoord == 4) {
        if (nav_failed(nav_grid_query_create(grid, NULL, &query))) {
            fprintf(stderr, "navtool render: out of memory\n");
            rc = 1;
        } else {
            nav_status s = nav_grid_find_path(query, &search, c[0], c[1], c[2], c[3], &path, NULL);
            if (nav_failed(s)) {
                fprintf(stderr, "navtool render: search failed: %s\n", nav_status_str(s));
                rc = 1;
            }
        }
    }
    if (rc == 0 && ascii) navtool_print_ascii(stdout, grid, ncoord ? &path : NULL);
    if (rc == 0 && png) rc = navtool_write_png_hpa(png, grid, query, baked, ncoord ? &path : NULL, scale);
    nav_hpa_destroy(baked);
    nav_path_destroy(&path);
    nav_grid_query_destroy(query);
    nav_grid_destroy(grid);
    return rc;
}
