/* navtool path: one search on a map, printed as cells (and optionally drawn). MAP may be a baked
 * .nav file: its grid is loaded instead of rebuilt, and with --algo hpa its bake is used (for a map,
 * --algo hpa bakes first, with the default options or the given ones). With --algo waypoints, a
 * route between two waypoints (of a .nav file's bake or a waypoint file) or a path between two
 * cells (waypoints of a grid). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "navtool.h"
#include "nav/smooth.h"

int navtool_path(int argc, char **argv)
{
    if (argc > 1 && (navtool_is_json(argv[1]) || navtool_nav_file_has(argv[1], NAV_CHUNK_WORLD)))
        return navtool_path_world(argc, argv);
    if (argc > 1 && navtool_is_level_nav(argv[1])) return navtool_path_level(argc, argv);
    const char *positional[6] = {0};
    int npos = 0;
    const char *png = NULL;
    bool ascii = false, smooth = false, hpa = false;
    nav_search_desc search = {0};
    nav_hpa_desc hpa_desc = {0};
    bool mesh = false;
    nav_mesh_path_mode mesh_mode = NAV_MESH_PATH_OPTIMAL;
    float radius = 0;
    bool waypoints = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--algo") && i + 1 < argc && !strcmp(argv[i + 1], "waypoints")) {
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
                fprintf(stderr, "navtool path: unknown algorithm '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--heuristic") && i + 1 < argc) {
            if (!navtool_parse_heuristic(argv[++i], &search.heuristic)) {
                fprintf(stderr, "navtool path: unknown heuristic '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--weight") && i + 1 < argc) {
            search.weight = atof(argv[++i]);
        } else if (!strcmp(argv[i], "--budget") && i + 1 < argc) {
            search.max_expanded = (uint32_t)strtoul(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "--png") && i + 1 < argc) {
            png = argv[++i];
        } else if (!strcmp(argv[i], "--ascii")) {
            ascii = true;
        } else if (!strcmp(argv[i], "--smooth")) {
            smooth = true;
        } else if (npos < 6 && (argv[i][0] != '-' || (argv[i][1] >= '0' && argv[i][1] <= '9'))) {
            positional[npos++] = argv[i];
        } else {
            fprintf(stderr, "navtool path: unexpected argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (waypoints && (npos == 3 || npos == 5))
        return navtool_waypoints_route(positional[0], positional + 1, npos - 1, png, 0, true);
    if (npos != 5) {
        navtool_usage(stderr);
        return 2;
    }
    int32_t c[4];
    for (int k = 0; k < 4; k++) {
        char *end;
        long v = strtol(positional[k + 1], &end, 10);
        if (*end || v < INT32_MIN || v > INT32_MAX) {
            fprintf(stderr, "navtool path: '%s' is not a coordinate\n", positional[k + 1]);
            return 2;
        }
        c[k] = (int32_t)v;
    }
    if (mesh) return navtool_mesh_route(positional[0], c, mesh_mode, radius, png, 0, true);
    nav_hpa *baked = NULL;
    nav_grid *grid = navtool_load(positional[0], NULL, hpa ? &baked : NULL);
    if (!grid) return 1;
    nav_status s = NAV_SUCCESS;
    if (hpa && baked &&
        (hpa_desc.cluster_size || hpa_desc.levels || hpa_desc.level_ratio || hpa_desc.long_entrance)) {
        fprintf(stderr, "navtool path: %s holds its bake; bake options do not apply to it\n", positional[0]);
        nav_hpa_destroy(baked);
        nav_grid_destroy(grid);
        return 2;
    }
    if (hpa && !baked) {
        hpa_desc.log = &navtool_stderr_log;
        s = nav_hpa_bake(grid, &hpa_desc, &baked);
    }
    nav_grid_query *query = NULL;
    nav_hpa_query *hpa_query = NULL;
    if (nav_succeeded(s)) s = nav_grid_query_create(grid, NULL, &query);
    if (nav_succeeded(s) && hpa)
        s = nav_hpa_query_create(baked, grid, &(nav_hpa_query_desc){.weight = search.weight}, &hpa_query);
    if (nav_failed(s)) {
        fprintf(stderr, "navtool path: %s\n", nav_status_str(s));
        nav_hpa_destroy(baked);
        nav_grid_query_destroy(query);
        nav_grid_destroy(grid);
        return 1;
    }
    nav_path path;
    nav_path_init(&path, NULL);
    nav_search_result r = {0};
    if (hpa) {
        nav_hpa_result hr;
        s = nav_hpa_find_path(hpa_query, c[0], c[1], c[2], c[3], &path, &hr);
        r.cost = hr.cost;
        r.expanded = hr.expanded;
    } else {
        s = nav_grid_find_path(query, &search, c[0], c[1], c[2], c[3], &path, &r);
    }
    int rc = 0;
    char text[256];
    nav_status_format(s, text, sizeof text);
    if (nav_failed(s)) {
        fprintf(stderr, "navtool path: %s\n", text);
        rc = 1;
    } else {
        printf("status: %s\ncost: %.6f\ncells: %u\nexpanded: %u\n", text, r.cost, path.count, r.expanded);
        printf("path:");
        for (uint32_t i = 0; i < path.count; i++)
            printf(" (%u,%u)", path.nodes[i] % (uint32_t)nav_grid_width(grid),
                   path.nodes[i] / (uint32_t)nav_grid_width(grid));
        printf("\n");
        if (smooth) {
            nav_path smoothed;
            nav_path_init(&smoothed, NULL);
            if (nav_succeeded(nav_grid_smooth_path(grid, &path, &smoothed))) {
                printf("smoothed: %u points, length %.6f, cost %.6f\n", smoothed.count,
                       nav_path_length(&smoothed), smoothed.cost);
                for (uint32_t i = 0; i < smoothed.count; i++)
                    printf(" (%.2f,%.2f,%.2f)", smoothed.points[i].x, smoothed.points[i].y,
                           smoothed.points[i].z);
                printf("\n");
            }
            nav_path_destroy(&smoothed);
        }
        if (ascii) navtool_print_ascii(stdout, grid, &path);
        if (png && navtool_write_png_hpa(png, grid, hpa ? NULL : query, baked, &path, 0) != 0) rc = 1;
    }
    nav_path_destroy(&path);
    nav_hpa_query_destroy(hpa_query);
    nav_hpa_destroy(baked);
    nav_grid_query_destroy(query);
    nav_grid_destroy(grid);
    return rc;
}
