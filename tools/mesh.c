/* navtool's navigation mesh helpers: the mesh of a map (a .nav file's own, or built), and one path
 * over it printed and drawn (navtool path and render with --algo mesh or mesh-funnel). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "navtool.h"
#include "nav/anyangle.h"

nav_mesh *navtool_mesh_for(const char *input, const nav_grid *grid, float agent_radius)
{
    nav_mesh *mesh = NULL;
    nav_status s;
    if (navtool_nav_file_has(input, NAV_CHUNK_MESH)) {
        if (agent_radius > 0)
            fprintf(stderr, "navtool: %s holds its mesh; --radius does not apply to it\n", input);
        s = nav_mesh_load_nav(input, NULL, &navtool_stderr_log, &mesh, NULL);
        if (nav_succeeded(s) && nav_mesh_source_fingerprint(mesh) != nav_grid_fingerprint(grid)) {
            fprintf(stderr, "navtool: %s: its mesh was built from another grid than its own\n", input);
            nav_mesh_destroy(mesh);
            return NULL;
        }
    } else {
        s = nav_mesh_build_from_grid(
            grid, &(nav_mesh_build_desc){.agent_radius = agent_radius, .log = &navtool_stderr_log}, &mesh);
    }
    if (nav_failed(s)) {
        char text[256];
        nav_status_format(s, text, sizeof text);
        fprintf(stderr, "navtool: no mesh for %s: %s\n", input, text);
        return NULL;
    }
    return mesh;
}

bool navtool_parse_mesh_mode(const char *name, nav_mesh_path_mode *mode)
{
    if (!strcmp(name, "mesh")) {
        *mode = NAV_MESH_PATH_OPTIMAL;
        return true;
    }
    if (!strcmp(name, "mesh-funnel")) {
        *mode = NAV_MESH_PATH_FUNNEL;
        return true;
    }
    return false;
}

int navtool_mesh_route(const char *input, const int32_t *c, nav_mesh_path_mode mode, float agent_radius,
                       const char *png, int scale, bool print)
{
    nav_grid *grid = navtool_load_grid(input, NULL);
    if (!grid) return 1;
    nav_mesh *mesh = navtool_mesh_for(input, grid, agent_radius);
    if (!mesh) {
        nav_grid_destroy(grid);
        return 1;
    }
    nav_mesh_query *q = NULL;
    nav_path path;
    nav_path_init(&path, NULL);
    const uint32_t *corridor = NULL;
    uint32_t corridor_count = 0;
    int rc = 0;
    if (c) {
        nav_status s = nav_mesh_query_create(mesh, NULL, &q);
        nav_mesh_result r = {0};
        if (nav_succeeded(s)) {
            nav_vec3 a = nav_grid_units_to_world(grid, c[0] + 0.5, c[1] + 0.5);
            nav_vec3 b = nav_grid_units_to_world(grid, c[2] + 0.5, c[3] + 0.5);
            a.y = nav_grid_cell_height(grid, c[0], c[1]);
            b.y = nav_grid_cell_height(grid, c[2], c[3]);
            s = nav_mesh_find_path(q, &(nav_mesh_path_desc){.mode = mode}, a, b, &path, &r);
        }
        char text[256];
        nav_status_format(s, text, sizeof text);
        if (nav_failed(s)) {
            fprintf(stderr, "navtool: mesh path: %s\n", text);
            rc = 1;
        } else {
            corridor = nav_mesh_query_corridor(q, &corridor_count);
            if (print) {
                printf("status: %s\nmode: %s\ncost: %.6f\npoints: %u\npolygons: %u\nexpanded: %u\n", text,
                       r.mode == NAV_MESH_PATH_OPTIMAL ? "optimal" : "funnel", r.cost, path.count,
                       corridor_count, r.expanded);
                const uint8_t *flags = nav_mesh_query_point_flags(q);
                printf("path:");
                for (uint32_t i = 0; i < path.count; i++) {
                    double ux, uy;
                    nav_grid_world_to_units(grid, path.points[i], &ux, &uy);
                    printf(" (%.3f,%.3f)%s", ux, uy,
                           flags[i] & NAV_MESH_POINT_LINK_START ? "link>"
                           : flags[i] & NAV_MESH_POINT_LINK_END ? "<link"
                                                                : "");
                }
                printf("\n");
            }
        }
    }
    if (rc == 0 && png) {
        navtool_layers layers = {.mesh = mesh,
                                 .corridor = corridor,
                                 .corridor_count = corridor_count,
                                 .mesh_path = c ? &path : NULL};
        rc = navtool_write_png_layers(png, grid, &layers, NULL, scale);
    }
    nav_path_destroy(&path);
    nav_mesh_query_destroy(q);
    nav_mesh_destroy(mesh);
    nav_grid_destroy(grid);
    return rc;
}
