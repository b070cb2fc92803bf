/* The optimal mesh mode against the brute-force reference (tests/reference.c: Dijkstra over the
 * visibility graph of the blocked cells' convex corners) on a sample of a scenario file's
 * problems: every length must equal the reference's within 1e-6 relative. Offline: the reference
 * is slow on big maps (it checks visibility corner to corner as it goes).
 *
 * usage: mesh_vs_reference MAP SCEN [EVERY]   (EVERY: every Nth problem, default 50)
 * prints: map, problems compared, worst relative difference, failures; exits 1 on a failure.
 * Built and run over every shared map by bench/mesh_vs_reference.sh. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "nav/mesh.h"
#include "nav/scen.h"
#include "reference.h"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s MAP SCEN [EVERY]\n", argv[0]);
        return 2;
    }
    uint32_t every = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 10) : 50;
    if (every == 0) every = 1;
    nav_grid *grid;
    nav_scen *scen;
    nav_mesh *mesh;
    nav_mesh_query *q;
    if (nav_failed(nav_grid_load_map_file(argv[1], NULL, &grid)) ||
        nav_failed(nav_scen_load_file(argv[2], NULL, NULL, &scen)) ||
        nav_failed(nav_mesh_build_from_grid(grid, NULL, &mesh)) ||
        nav_failed(nav_mesh_query_create(mesh, NULL, &q))) {
        fprintf(stderr, "%s: cannot load or build\n", argv[1]);
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
        nav_mesh_result r;
        nav_status s = nav_mesh_find_path(q, NULL, a, b, &path, &r);
        double best = test_reference_cost(&ref, a.x, a.z, b.x, b.z);
        compared++;
        if (!(best < INFINITY)) {
            if (!nav_failed(s)) failures++;
            continue;
        }
        double diff = s == NAV_SUCCESS ? fabs(r.cost - best) / (best > 0 ? best : 1) : INFINITY;
        if (diff > worst) worst = diff;
        if (diff > 1e-6) {
            failures++;
            fprintf(stderr, "%s line %u: mesh %.9f, reference %.9f\n", argv[2], p->line, r.cost, best);
        }
    }
    printf("%-24s %6u compared, worst relative difference %.2e, %u failures\n", argv[1], compared, worst,
           failures);
    nav_path_destroy(&path);
    test_reference_destroy(&ref);
    nav_mesh_query_destroy(q);
    nav_mesh_destroy(mesh);
    nav_scen_destroy(scen);
    nav_grid_destroy(grid);
    return failures ? 1 : 0;
}
