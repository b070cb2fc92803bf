/* navtool scen: run every problem of a Moving AI scenario file and check it against the file's
 * optimal lengths. The map is found beside the scenario by file name (NAME.map.scen -> NAME.map)
 * unless --map is given; --map may name a baked .nav, whose grid (and, with --algo hpa, whose
 * bake) is loaded instead of rebuilt: bake_ms is then 0, and load_ms says what loading took. With
 * --json the last line is one JSON object (keys in DESIGN.md, plus query_bytes and load_ms). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "navtool.h"
#include "nav/anyangle.h"
#include "nav/hpa.h"
#include "nav/mesh.h"
#include "nav/waypoints.h"
#include "nav/scen.h"
#include "nav/smooth.h"

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int navtool_scen(int argc, char **argv)
{
    const char *scen_path = NULL, *map_path = NULL;
    nav_search_desc search = {0};
    bool json = false, verbose = false, smooth = false, hpa = false, mesh = false, waypoints = false;
    nav_waypoint_grid_desc waypoint_desc = {.log = &navtool_stderr_log};
    nav_mesh_path_mode mesh_mode = NAV_MESH_PATH_DEFAULT;
    uint32_t landmarks = 0;
    nav_hpa_desc hpa_desc = {0};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--map") && i + 1 < argc) {
            map_path = argv[++i];
        } else if (!strcmp(argv[i], "--algo") && i + 1 < argc && !strcmp(argv[i + 1], "hpa")) {
            hpa = true;
            i++;
        } else if (!strcmp(argv[i], "--algo") && i + 1 < argc &&
                   (!strcmp(argv[i + 1], "mesh-funnel") || !strcmp(argv[i + 1], "mesh"))) {
            mesh = true;
            mesh_mode = !strcmp(argv[i + 1], "mesh") ? NAV_MESH_PATH_OPTIMAL : NAV_MESH_PATH_FUNNEL;
            i++;
        } else if (!strcmp(argv[i], "--algo") && i + 1 < argc && !strcmp(argv[i + 1], "waypoints")) {
            waypoints = true;
            i++;
        } else if (!strcmp(argv[i], "--max-waypoints") && i + 1 < argc) {
            if (!navtool_parse_u32("scen", "--max-waypoints", argv[++i], 1, NAV_WAYPOINTS_LIMIT,
                                   &waypoint_desc.max_waypoints))
                return 2;
        } else if (!strcmp(argv[i], "--landmarks") && i + 1 < argc) {
            if (!navtool_parse_landmarks("scen", argv[++i], &landmarks)) return 2;
        } else if (navtool_parse_hpa_option(argc, argv, &i, &hpa_desc)) {
            continue;
        } else if (!strcmp(argv[i], "--algo") && i + 1 < argc) {
            if (!navtool_parse_algo(argv[++i], &search.algo)) {
                fprintf(stderr, "navtool scen: unknown algorithm '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--weight") && i + 1 < argc) {
            search.weight = atof(argv[++i]);
        } else if (!strcmp(argv[i], "--heuristic") && i + 1 < argc) {
            if (!navtool_parse_heuristic(argv[++i], &search.heuristic)) {
                fprintf(stderr, "navtool scen: unknown heuristic '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--smooth")) {
            smooth = true;
        } else if (!strcmp(argv[i], "--json")) {
            json = true;
        } else if (!strcmp(argv[i], "--verbose")) {
            verbose = true;
        } else if (argv[i][0] != '-' && !scen_path) {
            scen_path = argv[i];
        } else {
            fprintf(stderr, "navtool scen: unexpected argument '%s'\n", argv[i]);
            navtool_usage(stderr);
            return 2;
        }
    }
    if (!scen_path) {
        navtool_usage(stderr);
        return 2;
    }

    char derived[4096];
    if (!map_path) {
        size_t n = strlen(scen_path);
        if (n < 5 || strcmp(scen_path + n - 5, ".scen") != 0 || n - 5 >= sizeof derived) {
            fprintf(stderr,
                    "navtool scen: cannot derive the map from '%s' (expected NAME.map.scen); use --map\n",
                    scen_path);
            return 2;
        }
        memcpy(derived, scen_path, n - 5);
        derived[n - 5] = '\0';
        map_path = derived;
    }

    nav_scen *scen = NULL;
    nav_status s = nav_scen_load_file(scen_path, NULL, &navtool_stderr_log, &scen);
    if (nav_failed(s)) {
        fprintf(stderr, "navtool scen: cannot load %s: %s\n", scen_path, nav_status_str(s));
        return 1;
    }
    /* Loading (a map, or a baked .nav with its grid and bake) and baking are timed apart. */
    double load_start = now_seconds();
    nav_hpa *baked = NULL;
    nav_grid *grid = navtool_load(map_path, NULL, hpa ? &baked : NULL);
    double load_ms = (now_seconds() - load_start) * 1e3, bake_ms = 0, landmark_ms = 0;
    if (!grid) {
        nav_scen_destroy(scen);
        return 1;
    }
    nav_hpa_query *hpa_query = NULL;
    if (hpa) {
        if (baked &&
            (hpa_desc.cluster_size || hpa_desc.levels || hpa_desc.level_ratio || hpa_desc.long_entrance)) {
            fprintf(stderr, "navtool scen: %s holds its bake; bake options do not apply to it\n", map_path);
            nav_hpa_destroy(baked);
            nav_grid_destroy(grid);
            nav_scen_destroy(scen);
            return 2;
        }
        s = NAV_SUCCESS;
        if (!baked) {
            hpa_desc.log = &navtool_stderr_log;
            double bake_start = now_seconds();
            s = nav_hpa_bake(grid, &hpa_desc, &baked);
            bake_ms = (now_seconds() - bake_start) * 1e3; /* the abstract graph alone */
        }
        if (nav_succeeded(s))
            s = nav_hpa_query_create(baked, grid, &(nav_hpa_query_desc){.weight = search.weight}, &hpa_query);
        if (nav_failed(s)) {
            fprintf(stderr, "navtool scen: hpa bake failed: %s\n", nav_status_str(s));
            return 1;
        }
    }
    nav_mesh *navmesh = NULL;
    nav_mesh_query *mesh_query = NULL;
    if (mesh) {
        double bake_start = now_seconds();
        s = nav_mesh_build_from_grid(grid, &(nav_mesh_build_desc){.log = &navtool_stderr_log}, &navmesh);
        bake_ms = (now_seconds() - bake_start) * 1e3;
        double landmark_start = now_seconds();
        if (nav_succeeded(s) && landmarks) s = nav_mesh_bake_landmarks(navmesh, landmarks, NULL);
        landmark_ms = (now_seconds() - landmark_start) * 1e3;
        if (nav_succeeded(s)) s = nav_mesh_query_create(navmesh, NULL, &mesh_query);
        if (nav_failed(s)) {
            fprintf(stderr, "navtool scen: mesh build failed: %s\n", nav_status_str(s));
            return 1;
        }
    }
    nav_waypoints *wp = NULL;
    nav_waypoints_query *wp_query = NULL;
    if (waypoints && navtool_nav_file_has(map_path, NAV_CHUNK_WAYPOINTS)) {
        /* the file's bake, bound to the file's grid (timed with the loading) */
        double start = now_seconds();
        nav_grid *own = NULL;
        s = nav_waypoints_load_nav(map_path, NULL, &navtool_stderr_log, &wp, &own);
        if (nav_succeeded(s) && !nav_waypoints_from_grid(wp)) s = NAV_FAILURE | NAV_INVALID_PARAM;
        nav_grid_destroy(own);
        load_ms += (now_seconds() - start) * 1e3;
        if (nav_succeeded(s))
            s = nav_waypoints_query_create(
                wp, &(nav_waypoints_query_desc){.grid = grid, .log = &navtool_stderr_log}, &wp_query);
        if (nav_failed(s)) {
            fprintf(stderr, "navtool scen: the waypoints of %s do not load: %s\n", base_name(map_path),
                    nav_status_str(s));
            nav_waypoints_destroy(wp);
            nav_grid_destroy(grid);
            nav_scen_destroy(scen);
            return 1;
        }
    } else if (waypoints) {
        double bake_start = now_seconds();
        s = nav_waypoints_bake_grid(grid, &waypoint_desc, &wp);
        bake_ms = (now_seconds() - bake_start) * 1e3;
        if (nav_succeeded(s))
            s = nav_waypoints_query_create(
                wp, &(nav_waypoints_query_desc){.grid = grid, .log = &navtool_stderr_log}, &wp_query);
        if (nav_failed(s)) {
            fprintf(stderr, "navtool scen: waypoint bake of %s failed: %s\n", base_name(map_path),
                    nav_status_str(s));
            nav_grid_destroy(grid);
            nav_scen_destroy(scen);
            return 1;
        }
    }
    nav_grid_query *query = NULL;
    nav_path path, smoothed;
    nav_path_init(&path, NULL);
    nav_path_init(&smoothed, NULL);
    double *times = calloc(scen->count ? scen->count : 1, sizeof *times);
    if (!times || nav_failed(nav_grid_query_create(grid, NULL, &query))) {
        fprintf(stderr, "navtool scen: out of memory\n");
        return 1;
    }

    uint32_t solved = 0, unreachable = 0, wrong = 0, mismatches = 0, invalid = 0, skipped = 0;
    double ratio_sum = 0, ratio_max = 0, total_time = 0;
    uint64_t expanded_sum = 0;
    for (uint32_t i = 0; i < scen->count; i++) {
        const nav_scen_problem *p = &scen->problems[i];
        if (p->map_width != nav_grid_width(grid) || p->map_height != nav_grid_height(grid)) {
            skipped++;
            if (verbose)
                fprintf(stderr, "line %u: map size %dx%d differs from the map's\n", p->line, p->map_width,
                        p->map_height);
        }
        nav_search_result r;
        double t0 = now_seconds();
        if (waypoints) {
            nav_waypoints_result wr;
            s = nav_waypoints_find_path(wp_query, nav_grid_cell_center(grid, p->start_x, p->start_y),
                                        nav_grid_cell_center(grid, p->goal_x, p->goal_y), &path, &wr);
            r = (nav_search_result){.cost = wr.cost, .expanded = wr.start_candidates + wr.goal_candidates};
        } else if (mesh) {
            nav_mesh_result mr;
            s = nav_mesh_find_path(mesh_query, &(nav_mesh_path_desc){.mode = mesh_mode},
                                   nav_grid_cell_center(grid, p->start_x, p->start_y),
                                   nav_grid_cell_center(grid, p->goal_x, p->goal_y), &path, &mr);
            r = (nav_search_result){.cost = mr.cost, .expanded = mr.expanded};
        } else if (hpa) {
            nav_hpa_result hr;
            s = nav_hpa_find_path(hpa_query, p->start_x, p->start_y, p->goal_x, p->goal_y, &path, &hr);
            r = (nav_search_result){.cost = hr.cost, .expanded = hr.expanded};
        } else {
            s = nav_grid_find_path(query, &search, p->start_x, p->start_y, p->goal_x, p->goal_y, &path, &r);
        }
        nav_status smooth_status = NAV_SUCCESS;
        if (smooth && nav_succeeded(s) && !nav_has_detail(s, NAV_PARTIAL_RESULT))
            /* timed with the query; the cells are a planner's, checked below */
            smooth_status = nav_grid_smooth_planned_path(grid, &path, &smoothed);
        double dt = now_seconds() - t0;
        times[i] = dt;
        total_time += dt;
        expanded_sum += r.expanded;
        bool expect_unreachable =
            p->optimal_length == 0 && (p->start_x != p->goal_x || p->start_y != p->goal_y);
        bool found = nav_succeeded(s) && !nav_has_detail(s, NAV_PARTIAL_RESULT);
        if (!found) {
            unreachable++;
            if (!expect_unreachable) {
                wrong++;
                if (verbose)
                    fprintf(stderr, "line %u: not found (%s), optimal %.8g\n", p->line, nav_status_str(s),
                            p->optimal_length);
            }
            continue;
        }
        solved++;
        if (expect_unreachable) {
            wrong++;
            if (verbose) fprintf(stderr, "line %u: found a path to an unreachable goal\n", p->line);
            continue;
        }
        double cost = 0;
        if (mesh || waypoints) {
            /* any-angle: every segment under the grid's any-angle rule, from centre to centre */
            nav_vec3 a = nav_grid_cell_center(grid, p->start_x, p->start_y);
            nav_vec3 b = nav_grid_cell_center(grid, p->goal_x, p->goal_y);
            if (nav_failed(nav_grid_validate_anyangle_path(grid, &path, &cost)) ||
                fabs(cost - r.cost) > 1e-6 * (1 + cost) || path.points[0].x != a.x ||
                path.points[0].z != a.z || path.points[path.count - 1].x != b.x ||
                path.points[path.count - 1].z != b.z) {
                invalid++;
                if (verbose)
                    fprintf(stderr, "line %u: invalid path (cost %.8f, planner %.8f)\n", p->line, cost,
                            r.cost);
                continue;
            }
        } else if (nav_failed(nav_grid_validate_cells(grid, &path, &cost)) ||
                   fabs(cost - r.cost) > 1e-6 * (1 + cost) || path.count == 0 ||
                   path.nodes[0] != nav_grid_index(grid, p->start_x, p->start_y) ||
                   path.nodes[path.count - 1] != nav_grid_index(grid, p->goal_x, p->goal_y)) {
            invalid++;
            if (verbose) fprintf(stderr, "line %u: invalid path\n", p->line);
            continue;
        }
        if (smooth) {
            /* the smoothed path: any-angle segments in free space, never dearer than the cells */
            double smooth_cost = 0;
            if (nav_failed(smooth_status) ||
                nav_failed(nav_grid_validate_segments(grid, &smoothed, &smooth_cost)) ||
                smooth_cost > cost + 1e-9 || smoothed.nodes[0] != path.nodes[0] ||
                smoothed.nodes[smoothed.count - 1] != path.nodes[path.count - 1]) {
                invalid++;
                if (verbose) fprintf(stderr, "line %u: invalid smoothed path\n", p->line);
                continue;
            }
            cost = smooth_cost;
        }
        double optimal = p->optimal_length;
        if (fabs(cost - optimal) > 0.005 + 1e-6 * optimal) {
            mismatches++;
            if (verbose) fprintf(stderr, "line %u: length %.8f, optimal %.8f\n", p->line, cost, optimal);
        }
        double ratio = optimal > 0 ? cost / optimal : 1.0;
        ratio_sum += ratio;
        if (ratio > ratio_max) ratio_max = ratio;
    }

    uint32_t n = scen->count;
    qsort(times, n, sizeof *times, compare_doubles);
    double p95 = n ? times[(size_t)((n - 1) * 0.95)] : 0;
    double mean_us = n ? total_time / n * 1e6 : 0;
    double mean_expanded = n ? (double)expanded_sum / n : 0;
    double mean_ratio = solved ? ratio_sum / solved : 0;
    char label[64]; /* "astar", or "astar+smooth" when the lengths are those of smoothed paths */
    snprintf(label, sizeof label, "%s%s",
             mesh        ? (mesh_mode == NAV_MESH_PATH_FUNNEL ? "mesh-funnel" : "mesh")
             : hpa       ? "hpa"
             : waypoints ? "waypoints"
                         : navtool_algo_name(search.algo),
             smooth ? "+smooth" : "");
    printf("%s %s: %u problems, %u solved, %u unreachable, wrong %u, mismatches %u, invalid %u, "
           "mean %.1f us, p95 %.1f us, %.1f expanded, ratio mean %.5f max %.5f, load %.1f ms, bake %.1f ms",
           base_name(map_path), label, n, solved, unreachable, wrong, mismatches, invalid, mean_us, p95 * 1e6,
           mean_expanded, mean_ratio, ratio_max, load_ms, bake_ms);
    if (landmarks) printf(", %u landmarks %.1f ms", nav_mesh_landmark_count(navmesh), landmark_ms);
    printf("\n");
    if (skipped) printf("note: %u problems name a map size different from the map's\n", skipped);
    if (json)
        printf(
            "{\"map\":\"%s\",\"algo\":\"%s\",\"problems\":%u,\"solved\":%u,\"unreachable\":%u,\"wrong\":%u,"
            "\"mismatches\":%u,\"invalid\":%u,\"mean_ratio\":%.6f,\"max_ratio\":%.6f,\"mean_us\":%.3f,"
            "\"p95_us\":%.3f,\"mean_expanded\":%.1f,\"bake_ms\":%.3f,\"bake_bytes\":%zu,\"query_bytes\":%zu,"
            "\"load_ms\":%.3f,\"landmarks\":%u,\"landmark_ms\":%.3f,\"polygons\":%u,\"waypoints\":%u,"
            "\"links\":%u}\n",
            base_name(map_path), label, n, solved, unreachable, wrong, mismatches, invalid, mean_ratio,
            ratio_max, mean_us, p95 * 1e6, mean_expanded, bake_ms,
            mesh        ? nav_mesh_memory_bytes(navmesh)
            : hpa       ? nav_hpa_memory_bytes(baked)
            : waypoints ? nav_waypoints_memory_bytes(wp)
                        : nav_grid_memory_bytes(grid),
            mesh        ? nav_mesh_query_memory_bytes(mesh_query)
            : hpa       ? nav_hpa_query_memory_bytes(hpa_query)
            : waypoints ? nav_waypoints_query_memory_bytes(wp_query)
                        : nav_grid_query_memory_bytes(query),
            load_ms, nav_mesh_landmark_count(navmesh), landmark_ms, nav_mesh_poly_count(navmesh),
            nav_waypoints_count(wp), nav_waypoints_link_count(wp));
    if (mesh && !json)
        printf("mesh: %u polygons, %u vertices\n", nav_mesh_poly_count(navmesh),
               nav_mesh_vert_count(navmesh));
    if (waypoints && !json)
        printf("waypoints: %u, links %u, %.1f MiB baked, query %zu bytes\n", nav_waypoints_count(wp),
               nav_waypoints_link_count(wp), (double)nav_waypoints_memory_bytes(wp) / 1048576.0,
               nav_waypoints_query_memory_bytes(wp_query));
    free(times);
    nav_path_destroy(&smoothed);
    nav_path_destroy(&path);
    nav_grid_query_destroy(query);
    nav_hpa_query_destroy(hpa_query);
    nav_mesh_query_destroy(mesh_query);
    nav_mesh_destroy(navmesh);
    nav_waypoints_query_destroy(wp_query);
    nav_waypoints_destroy(wp);
    nav_hpa_destroy(baked);
    nav_grid_destroy(grid);
    nav_scen_destroy(scen);
    return wrong || invalid ? 1 : 0;
}
