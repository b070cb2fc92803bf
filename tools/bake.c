/* navtool bake: bake a map's HPA* abstract graph (or, with --mesh, its navigation mesh; with
 * --waypoints, its waypoint graph) and write map and bake into one .nav file. With --waypoints the
 * input may instead be a waypoint file: its bake is written alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "navtool.h"

static double ms_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) * 1e3 + (double)(t1.tv_nsec - t0->tv_nsec) * 1e-6;
}

/* --mesh: the grid and its navigation mesh. Takes the grid. */
static int bake_mesh(nav_grid *grid, const char *input, const char *output, float radius, uint32_t landmarks,
                     nav_progress progress)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    nav_mesh *mesh = NULL;
    nav_status s = nav_mesh_build_from_grid(
        grid,
        &(nav_mesh_build_desc){.agent_radius = radius, .log = &navtool_stderr_log, .progress = &progress},
        &mesh);
    double ms = ms_since(&t0);
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (nav_succeeded(s) && landmarks) s = nav_mesh_bake_landmarks(mesh, landmarks, &progress);
    double landmark_ms = ms_since(&t1);
    if (nav_succeeded(s)) s = nav_mesh_save_nav(grid, mesh, output);
    if (nav_failed(s)) {
        fprintf(stderr, "navtool bake: %s\n", nav_status_str(s));
        nav_mesh_destroy(mesh);
        nav_grid_destroy(grid);
        return 1;
    }
    printf("baked %s in %.1f ms: %u polygons, %u vertices, %u landmarks (%.1f ms), %zu bytes -> %s\n", input,
           ms, nav_mesh_poly_count(mesh), nav_mesh_vert_count(mesh), nav_mesh_landmark_count(mesh),
           landmark_ms, nav_mesh_memory_bytes(mesh), output);
    nav_mesh_destroy(mesh);
    nav_grid_destroy(grid);
    return 0;
}

/* --waypoints --from-mesh: the graph of the map's navigation mesh (its .nav file's, or built with
 * the agent radius), written alone: it is not tied to the grid's cells. */
static int waypoints_of_mesh(const char *input, const nav_waypoint_grid_desc *desc, float radius, bool quiet,
                             nav_waypoints **wp)
{
    nav_grid *grid = navtool_load_grid(input, NULL);
    if (!grid) return 1;
    nav_mesh *mesh = navtool_mesh_for(input, grid, radius);
    nav_grid_destroy(grid);
    if (!mesh) return 1;
    nav_progress bar = {navtool_print_progress, "waypoints"};
    nav_status s = nav_waypoints_bake_mesh(mesh,
                                           &(nav_waypoint_mesh_desc){.keep_all_links = desc->keep_all_links,
                                                                     .threads = desc->threads,
                                                                     .max_waypoints = desc->max_waypoints,
                                                                     .log = &navtool_stderr_log,
                                                                     .progress = quiet ? NULL : &bar},
                                           wp);
    nav_mesh_destroy(mesh);
    if (nav_failed(s)) {
        char text[256];
        nav_status_format(s, text, sizeof text);
        fprintf(stderr, "navtool: no waypoints for %s's mesh: %s\n", input, text);
        return 1;
    }
    return 0;
}

/* --waypoints: a grid's waypoint graph (with the grid), a waypoint file's or a mesh's (alone). */
static int bake_waypoints(const char *input, const char *output, const nav_waypoint_grid_desc *desc,
                          bool from_mesh, float radius, bool quiet)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    nav_waypoints *wp;
    nav_grid *grid = NULL;
    if (from_mesh ? waypoints_of_mesh(input, desc, radius, quiet, &wp)
                  : navtool_waypoints_for(input, desc, !quiet, &wp, &grid))
        return 1;
    double ms = ms_since(&t0);
    nav_status s = nav_waypoints_save_nav(grid, wp, output, &navtool_stderr_log);
    if (nav_succeeded(s))
        printf("baked %s in %.1f ms: %u waypoints, %u links, %zu bytes -> %s\n", input, ms,
               nav_waypoints_count(wp), nav_waypoints_link_count(wp), nav_waypoints_memory_bytes(wp), output);
    else
        fprintf(stderr, "navtool bake: %s\n", nav_status_str(s));
    nav_waypoints_destroy(wp);
    nav_grid_destroy(grid);
    return nav_succeeded(s) ? 0 : 1;
}

int navtool_bake(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] != '-' && navtool_is_json(argv[i])) return navtool_bake_world(argc, argv);
        if (argv[i][0] != '-' && navtool_is_obj(argv[i])) return navtool_bake_level(argc, argv);
    }
    const char *input = NULL, *output = NULL;
    nav_hpa_desc desc = {0};
    bool quiet = false, mesh = false, waypoints = false, from_mesh = false;
    nav_waypoint_grid_desc waypoint_desc = {0};
    float radius = 0;
    uint32_t landmarks = 16;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            output = argv[++i];
        } else if (!strcmp(argv[i], "--quiet")) {
            quiet = true;
        } else if (!strcmp(argv[i], "--mesh")) {
            mesh = true;
        } else if (!strcmp(argv[i], "--waypoints")) {
            waypoints = true;
        } else if (!strcmp(argv[i], "--from-mesh")) {
            from_mesh = true;
        } else if (!strcmp(argv[i], "--keep-all-links")) {
            waypoint_desc.keep_all_links = true;
        } else if (!strcmp(argv[i], "--max-waypoints") && i + 1 < argc) {
            if (!navtool_parse_u32("bake", "--max-waypoints", argv[++i], 1, NAV_WAYPOINTS_LIMIT,
                                   &waypoint_desc.max_waypoints))
                return 2;
        } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            if (!navtool_parse_u32("bake", "--threads", argv[++i], 0, 1024, &waypoint_desc.threads)) return 2;
        } else if (!strcmp(argv[i], "--radius") && i + 1 < argc) {
            char *end;
            radius = strtof(argv[++i], &end);
            if (*end || !(radius >= 0)) {
                fprintf(stderr, "navtool bake: --radius needs a number of cells >= 0\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "--landmarks") && i + 1 < argc) {
            if (!navtool_parse_landmarks("bake", argv[++i], &landmarks)) return 2;
        } else if (navtool_parse_hpa_option(argc, argv, &i, &desc)) {
            continue;
        } else if (argv[i][0] != '-' && !input) {
            input = argv[i];
        } else {
            fprintf(stderr, "navtool bake: unexpected argument '%s'\n", argv[i]);
            navtool_usage(stderr);
            return 2;
        }
    }
    if (!input || !output) {
        navtool_usage(stderr);
        return 2;
    }
    if (mesh && waypoints) {
        fprintf(stderr, "navtool bake: --mesh and --waypoints are two bakes: make one file each\n");
        return 2;
    }
    if (from_mesh && !waypoints) {
        fprintf(stderr, "navtool bake: --from-mesh goes with --waypoints\n");
        return 2;
    }
    if (waypoints) return bake_waypoints(input, output, &waypoint_desc, from_mesh, radius, quiet);
    nav_grid *grid = navtool_load_grid(input, NULL);
    if (!grid) return 1;
    desc.log = &navtool_stderr_log;
    if (!quiet) desc.progress = (nav_progress){navtool_print_progress, "bake"};
    if (mesh) return bake_mesh(grid, input, output, radius, landmarks, desc.progress);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    nav_hpa *hpa = NULL;
    nav_status s = nav_hpa_bake(grid, &desc, &hpa);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-6;
    if (nav_succeeded(s)) s = nav_hpa_save_nav(grid, hpa, output);
    if (nav_failed(s)) {
        fprintf(stderr, "navtool bake: %s\n", nav_status_str(s));
        nav_hpa_destroy(hpa);
        nav_grid_destroy(grid);
        return 1;
    }
    nav_hpa_info info;
    nav_hpa_get_info(hpa, &info);
    printf("baked %s in %.1f ms: %u nodes, %zu bytes -> %s\n", input, ms, info.nodes[1], info.bytes, output);
    nav_hpa_destroy(hpa);
    nav_grid_destroy(grid);
    return 0;
}
