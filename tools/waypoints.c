/* navtool's waypoint helpers: the waypoint bake of an input (a .nav file's own, a waypoint file or a
 * grid baked here), and one route printed and drawn (navtool path and render with --algo
 * waypoints). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "navtool.h"
#include "nav/anyangle.h"

bool navtool_nav_file_has(const char *path, uint32_t tag)
{
    size_t n = strlen(path);
    if (n < 4 || strcmp(path + n - 4, ".nav") != 0) return false;
    void *bytes;
    nav_container container;
    if (nav_failed(nav_container_read_file(path, NULL, NULL, &bytes, &container))) return false;
    bool found = nav_container_find(&container, tag) != NULL;
    free(bytes);
    return found;
}

bool navtool_is_waypoint_file(const char *path)
{
    /* by its first line that is not blank or a comment: the header, or (a file that lacks it, which
     * the waypoint reader then names plainly) a waypoint or a link; never the words of a grid file */
    char text[4096];
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    for (char *line = text; line && *line;) {
        char *end = strpbrk(line, "\r\n");
        while (*line == ' ' || *line == '\t') line++;
        size_t length = end ? (size_t)(end - line) : strlen(line);
        if (length && line[0] != '#') {
            static const char *const starts[] = {"libnav waypoints", "waypoint ", "waypoint\t", "link ",
                                                 "link\t"};
            for (size_t k = 0; k < sizeof starts / sizeof starts[0]; k++)
                if (length >= strlen(starts[k]) && !strncmp(line, starts[k], strlen(starts[k]))) return true;
            return false;
        }
        line = end ? end + 1 : NULL;
    }
    return false;
}

int navtool_waypoints_for(const char *input, const nav_waypoint_grid_desc *options, bool progress,
                          nav_waypoints **wp, nav_grid **grid)
{
    *wp = NULL;
    *grid = NULL;
    nav_waypoint_grid_desc d = options ? *options : (nav_waypoint_grid_desc){0};
    d.log = &navtool_stderr_log;
    nav_progress bar = {navtool_print_progress, "waypoints"};
    if (progress) d.progress = &bar;
    nav_status s;
    if (navtool_nav_file_has(input, NAV_CHUNK_WAYPOINTS)) {
        s = nav_waypoints_load_nav(input, NULL, &navtool_stderr_log, wp,
                                   navtool_nav_file_has(input, NAV_CHUNK_GRID) ? grid : NULL);
    } else if (navtool_is_waypoint_file(input)) {
        nav_waypoint_graph graph;
        s = nav_waypoint_graph_load_file(input, &(nav_waypoint_load_desc){.log = &navtool_stderr_log},
                                         &graph);
        if (nav_succeeded(s))
            s = nav_waypoints_bake(&graph,
                                   &(nav_waypoints_bake_desc){.threads = d.threads,
                                                              .max_waypoints = d.max_waypoints,
                                                              .log = &navtool_stderr_log,
                                                              .progress = d.progress},
                                   wp);
        nav_waypoint_graph_release(&graph);
    } else {
        *grid = navtool_load_grid(input, NULL);
        if (!*grid) return 1;
        s = nav_waypoints_bake_grid(*grid, &d, wp);
    }
    if (nav_failed(s)) {
        char text[256];
        nav_status_format(s, text, sizeof text);
        fprintf(stderr, "navtool: no waypoints for %s: %s\n", input, text);
        nav_grid_destroy(*grid);
        *grid = NULL;
        return 1;
    }
    return 0;
}

/* A waypoint by name or by index; NAV_WAYPOINTS_NONE (said) when there is none. */
static uint32_t waypoint_named(const nav_waypoints *wp, const char *text)
{
    uint32_t w = nav_waypoints_find(wp, text);
    if (w != NAV_WAYPOINTS_NONE) return w;
    char *end;
    unsigned long v = strtoul(text, &end, 10);
    if (*text >= '0' && *text <= '9' && !*end && v < nav_waypoints_count(wp)) return (uint32_t)v;
    fprintf(stderr, "navtool: no waypoint '%s' (a name, or an index below %u)\n", text,
            nav_waypoints_count(wp));
    return NAV_WAYPOINTS_NONE;
}

/* A backdrop for a graph without a grid: a free grid over its waypoints (x and z), about 96 cells
 * across its longer side, with a margin. */
static nav_grid *backdrop(const nav_waypoints *wp)
{
    double lo_x = INFINITY, hi_x = -INFINITY, lo_z = INFINITY, hi_z = -INFINITY;
    for (uint32_t i = 0; i < nav_waypoints_count(wp); i++) {
        nav_vec3 p = nav_waypoints_position(wp, i);
        lo_x = fmin(lo_x, p.x), hi_x = fmax(hi_x, p.x), lo_z = fmin(lo_z, p.z), hi_z = fmax(hi_z, p.z);
    }
    if (!(lo_x <= hi_x)) lo_x = hi_x = lo_z = hi_z = 0;
    double side = fmax(fmax(hi_x - lo_x, hi_z - lo_z), 1e-3), cell = side / 96;
    nav_grid_desc d = {.width = (int32_t)ceil((hi_x - lo_x) / cell) + 9,
                       .height = (int32_t)ceil((hi_z - lo_z) / cell) + 9,
                       .cell_size = (float)cell,
                       .origin = {(float)(lo_x - 4.5 * cell), 0, (float)(lo_z - 4.5 * cell)}};
    nav_grid *grid = NULL;
    if (nav_failed(nav_grid_create(&d, &grid))) fprintf(stderr, "navtool: out of memory for the picture\n");
    return grid;
}

int navtool_waypoints_route(const char *input, const char *const *ends, int nends, const char *png, int scale,
                            bool print)
{
    nav_waypoints *wp;
    nav_grid *grid;
    if (navtool_waypoints_for(input, NULL, false, &wp, &grid)) return 1;
    if (nends == 4 && (!grid || !nav_waypoints_from_grid(wp))) {
        fprintf(stderr,
                "navtool: %s: paths between cells need waypoints baked from a grid; name two "
                "waypoints instead\n",
                input);
        nav_waypoints_destroy(wp);
        nav_grid_destroy(grid);
        return 2;
    }
    nav_waypoints_query *q = NULL;
    nav_path path;
    nav_path_init(&path, NULL);
    int rc = 0;
    nav_status s = nav_waypoints_query_create(
        wp, &(nav_waypoints_query_desc){.grid = nends == 4 ? grid : NULL, .log = &navtool_stderr_log}, &q);
    if (nav_failed(s)) rc = 1;
    if (!rc && nends == 2) {
        uint32_t from = waypoint_named(wp, ends[0]), to = waypoint_named(wp, ends[1]);
        if (from == NAV_WAYPOINTS_NONE || to == NAV_WAYPOINTS_NONE) {
            rc = 1; /* as a cell off the map */
        } else {
            nav_waypoints_route_result r;
            s = nav_waypoints_query_route(q, from, to, NULL, &path, &r);
            if (nav_succeeded(s) && print) {
                printf("status: %s\ncost: %.6f\ntable distance: %.6f\nwaypoints: %u\nroute:",
                       nav_status_str(s), path.cost, nav_waypoints_distance(wp, from, to), path.count);
                for (uint32_t i = 0; i < path.count; i++) {
                    const char *name = nav_waypoints_name(wp, path.nodes[i]);
                    if (*name)
                        printf(" %s", name);
                    else
                        printf(" #%u", path.nodes[i]);
                }
                printf("\n");
            }
        }
    } else if (!rc && nends == 4) {
        int32_t c[4];
        for (int k = 0; k < 4; k++) c[k] = (int32_t)strtol(ends[k], NULL, 10);
        nav_vec3 a = nav_grid_cell_center(grid, c[0], c[1]), b = nav_grid_cell_center(grid, c[2], c[3]);
        nav_waypoints_result r;
        s = nav_waypoints_find_path(q, a, b, &path, &r);
        if (nav_succeeded(s) && print) {
            printf("status: %s\ncost: %.6f\npoints: %u\nstraight: %s\ncandidates: %u start, %u goal\npath:",
                   nav_status_str(s), path.cost, path.count, r.straight ? "yes" : "no", r.start_candidates,
                   r.goal_candidates);
            for (uint32_t i = 0; i < path.count; i++) {
                double ux, uy;
                nav_grid_world_to_units(grid, path.points[i], &ux, &uy);
                printf(" (%.3f,%.3f)", ux, uy);
            }
            printf("\n");
        }
    }
    if (!rc && nav_failed(s)) {
        char text[256];
        nav_status_format(s, text, sizeof text);
        fprintf(stderr, "navtool: waypoint route: %s\n", text);
        rc = 1;
    }
    if (!rc && png) {
        nav_grid *picture = grid ? grid : backdrop(wp);
        navtool_layers layers = {.waypoints = wp, .waypoint_path = nends ? &path : NULL};
        rc = picture ? navtool_write_png_layers(png, picture, &layers, NULL, scale) : 1;
        if (picture != grid) nav_grid_destroy(picture);
    }
    nav_path_destroy(&path);
    nav_waypoints_query_destroy(q);
    nav_waypoints_destroy(wp);
    nav_grid_destroy(grid);
    return rc;
}

void navtool_print_waypoints(const nav_waypoints *wp, const nav_grid *grid)
{
    uint32_t n = nav_waypoints_count(wp), links = nav_waypoints_link_count(wp), one_way = 0, disabled = 0,
             named = 0;
    for (uint32_t l = 0; l < links; l++) {
        nav_waypoint_link k;
        nav_waypoints_link(wp, l, &k);
        one_way += k.one_way;
        disabled += k.disabled;
    }
    for (uint32_t i = 0; i < n; i++) named += *nav_waypoints_name(wp, i) != 0;
    printf("waypoints: %u waypoints (%u named), %u links (%u one-way, %u disabled), %zu bytes, %s\n", n,
           named, links, one_way, disabled, nav_waypoints_memory_bytes(wp),
           nav_waypoints_compressed(wp) ? "hub labels" : "plain tables");
    if (!nav_waypoints_from_grid(wp)) {
        printf("waypoints: a graph of its own (not baked from a grid)\n");
        return;
    }
    uint64_t fp = nav_waypoints_source_fingerprint(wp);
    printf("waypoints: baked from grid %016" PRIx64 "%s\n", fp,
           !grid                              ? ""
           : fp == nav_grid_fingerprint(grid) ? " (this file's grid)"
                                              : " (NOT this file's grid: bake it again)");
}
