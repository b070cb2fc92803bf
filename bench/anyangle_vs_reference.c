/* An any-angle planner - the navmesh's optimal mode, or the waypoint tables' point queries - against
 * the brute-force reference (tests/reference.c: Dijkstra over the visibility graph of the blocked
 * cells' convex corners) on a sample of a scenario file's problems: every length must equal the
 * reference's within 1e-6 relative, and every path must be valid under the any-angle rule.
 * Offline: the reference is slow on big maps (it checks visibility corner to corner as it goes).
 *
 * usage: anyangle_vs_reference MAP SCEN [EVERY [mesh|waypoints]]   (every Nth problem, default 50;
 *        default mesh)
 * prints: map, planner, problems compared, worst relative difference, failures; exits 1 on a
 * failure, 3 when the waypoint bake refuses the map (too many corners).
 * Built and run over every shared map by bench/anyangle_vs_reference.sh. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nav/anyangle.h"
#include "nav/mesh.h"
#include "nav/scen.h"
#include "nav/waypoints.h"
#include "reference.h"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s MAP SCEN [EVERY [mesh|waypoints]]\n", argv[0]);
        return 2;
    }
    uint32_t every = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 10) : 50;
    if (every == 0) every = 1;
    bool waypoints = argc > 4 && !strcmp(argv[4], "waypoints");
    nav_grid *grid = NULL;
    nav_scen *scen = NULL;
    nav_mesh *mesh = NULL;
    nav_mesh_query *q = NULL;
    nav_waypoints *wp = NULL;
    nav_waypoints_query *wq = NULL;
    if (nav_failed(nav_grid_load_map_file(argv[1], NULL, &grid)) ||
        nav_failed(nav_scen_load_file(argv[2], NULL, NULL, &scen))) {
        fprintf(stderr, "%s: cannot load\n", argv[1]);
        return 2;
    }
    nav_status built =
        waypoints ? nav_waypoints_bake_grid(grid, NULL, &wp) : nav_mesh_build_from_grid(grid, NULL, &mesh);
    if (nav_has_detail(built, NAV_TOO_LARGE)) {
        printf("%-24s %-9s refused: more corners than the default limit\n", argv[1], "waypoints");
        return 3;
    }
    if (nav_failed(built) ||
        nav_failed(waypoints ? nav_waypoints_query_create(wp, &(nav_waypoints_query_desc){.grid = grid}, &wq)
                             : nav_mesh_query_create(mesh, NULL, &q))) {
        fprintf(stderr, "%s: cannot build\n", argv[1]);
        return 2;
    }
    test_reference ref;
    test_reference_init(&ref, grid);
    nav_path path;
    nav_path_init(&path, NULL);
    uint32_t compared = 0, failures = 0;
    double worst = 0;
    for (uint32_t i = 0; i < scen->count; i += every) {
        const nav_scen_problem *p = &scen->problems[i];
        nav_vec3 a = {(float)p->start_x + 0.5f, 0, (float)p->start_y + 0.5f};
        nav_vec3 b = {(float)p->goal_x + 0.5f, 0, (float)p->goal_y + 0.5f};
        nav_status s;
        double cost = INFINITY, walked = 0;
        if (waypoints) {
            nav_waypoints_result r;
            s = nav_waypoints_find_path(wq, a, b, &path, &r);
            cost = r.cost;
        } else {
            nav_mesh_result r;
            s = nav_mesh_find_path(q, NULL, a, b, &path, &r);
            cost = r.cost;
        }
        if (s == NAV_SUCCESS && (nav_failed(nav_grid_validate_anyangle_path(grid, &path, &walked)) ||
                                 fabs(walked - cost) > 1e-9 * (1 + cost)))
            cost = INFINITY; /* an invalid path counts as a failure below */
        double best = test_reference_cost(&ref, a.x, a.z, b.x, b.z);
        compared++;
        if (!(best < INFINITY)) {
            if (!nav_failed(s)) failures++;
            continue;
        }
        double diff = s == NAV_SUCCESS ? fabs(cost - best) / (best > 0 ? best : 1) : INFINITY;
        if (diff > worst) worst = diff;
        if (diff > 1e-6) {
            failures++;
            fprintf(stderr, "%s line %u: %s %.9f, reference %.9f\n", argv[2], p->line,
                    waypoints ? "waypoints" : "mesh", cost, best);
        }
    }
    printf("%-24s %-9s %6u compared, worst relative difference %.2e, %u failures\n", argv[1],
           waypoints ? "waypoints" : "mesh", compared, worst, failures);
    nav_path_destroy(&path);
    test_reference_destroy(&ref);
    nav_mesh_query_destroy(q);
    nav_mesh_destroy(mesh);
    nav_waypoints_query_destroy(wq);
    nav_waypoints_destroy(wp);
    nav_scen_destroy(scen);
    nav_grid_destroy(grid);
    return failures ? 1 : 0;
}
