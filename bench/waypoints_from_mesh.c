/* The waypoint graph of a map's navigation mesh against the graph of its grid (see
 * waypoints_from_mesh.sh): bakes both on 2 threads, pairs their waypoints by position and compares
 * every route's distance. Prints one line: polygons, waypoints and links of each, bake seconds of
 * each, waypoints of the grid's graph missing from the mesh's, the worst relative difference of the
 * distances, and "same" or "DIFFERENT". Exit 0 when the two agree, 1 when not, 3 when refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "nav/grid.h"
#include "nav/mesh.h"
#include "nav/waypoints.h"

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: waypoints_from_mesh MAP\n");
        return 2;
    }
    nav_grid *grid = NULL;
    nav_mesh *mesh = NULL;
    if (nav_failed(nav_grid_load_map_file(argv[1], NULL, &grid)) ||
        nav_failed(nav_mesh_build_from_grid(grid, NULL, &mesh))) {
        fprintf(stderr, "%s: cannot load or build its mesh\n", argv[1]);
        return 1;
    }
    nav_waypoints *a = NULL, *b = NULL;
    double t0 = seconds();
    nav_status sa = nav_waypoints_bake_grid(grid, &(nav_waypoint_grid_desc){.threads = 2}, &a);
    double t1 = seconds();
    nav_status sb = nav_waypoints_bake_mesh(mesh, &(nav_waypoint_mesh_desc){.threads = 2}, &b);
    double t2 = seconds();
    const char *name = argv[1];
    for (const char *p = argv[1]; *p; p++)
        if (*p == '/') name = p + 1;
    int rc = 0;
    if (nav_failed(sa) || nav_failed(sb)) {
        printf("%-18s refused: more convex corners than the default limit\n", name);
        rc = 3;
    } else {
        uint32_t n = nav_waypoints_count(a), m = nav_waypoints_count(b), missing = 0;
        uint32_t *to = malloc((n ? n : 1) * sizeof *to);
        if (!to) return 1;
        for (uint32_t i = 0; i < n; i++) {
            nav_vec3 p = nav_waypoints_position(a, i);
            to[i] = UINT32_MAX;
            for (uint32_t j = 0; j < m && to[i] == UINT32_MAX; j++) {
                nav_vec3 q = nav_waypoints_position(b, j);
                if (q.x == p.x && q.z == p.z) to[i] = j;
            }
            missing += to[i] == UINT32_MAX;
        }
        double worst = 0;
        for (uint32_t i = 0; i < n && !missing; i++)
            for (uint32_t j = 0; j < n; j++) {
                double x = nav_waypoints_distance(a, i, j), y = nav_waypoints_distance(b, to[i], to[j]);
                if (x == y) continue;
                double d = fabs(x - y) / x;
                if (!(d <= worst)) worst = d; /* NaN (one side unreachable) counts as worst */
            }
        bool same =
            n == m && !missing && worst <= 1e-9 && nav_waypoints_link_count(a) == nav_waypoints_link_count(b);
        printf("%-18s %6u polygons | grid: %5u waypoints %6u links %5.2f s | mesh: %5u waypoints %6u links "
               "%5.2f s | missing %u, worst %.1e: %s\n",
               name, nav_mesh_poly_count(mesh), n, nav_waypoints_link_count(a), t1 - t0, m,
               nav_waypoints_link_count(b), t2 - t1, missing, worst, same ? "same" : "DIFFERENT");
        rc = same ? 0 : 1;
        free(to);
    }
    nav_waypoints_destroy(a);
    nav_waypoints_destroy(b);
    nav_mesh_destroy(mesh);
    nav_grid_destroy(grid);
    return rc;
}
