/* libnav's build from level geometry (nav/geometry.h) on level .obj files, RecastDemo's settings
 * (the defaults): the fastest of N runs, each stage timed, and the mesh's walkable area (its
 * polygons on the xz plane), as bench/recast_driver.cpp reports Recast's. One JSON line a level.
 *
 * usage: geometry_build LEVEL.obj [--runs N] [--tile CELLS] [--threads N] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nav/geometry.h"
#include "nav/mesh.h"

static double walkable_area(const nav_mesh *mesh)
{
    double sum = 0;
    for (uint32_t p = 0; p < nav_mesh_poly_count(mesh); p++) {
        nav_mesh_poly_info info;
        nav_mesh_poly(mesh, p, &info);
        double twice = 0;
        for (uint32_t i = 0, j = info.vert_count - 1; i < info.vert_count; j = i++) {
            nav_vec3 a = nav_mesh_vert(mesh, info.verts[j]), b = nav_mesh_vert(mesh, info.verts[i]);
            twice += (double)a.x * b.z - (double)b.x * a.z;
        }
        sum += fabs(twice) / 2;
    }
    return sum;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: geometry_build LEVEL.obj [--runs N]\n");
        return 2;
    }
    int runs = 5;
    nav_geometry_build_desc desc = {0};
    for (int i = 2; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "--runs")) runs = atoi(argv[i + 1]);
        if (!strcmp(argv[i], "--tile")) desc.tile_size = (uint32_t)atoi(argv[i + 1]);
        if (!strcmp(argv[i], "--threads")) desc.threads = (uint32_t)atoi(argv[i + 1]);
    }
    nav_geometry *level = NULL;
    nav_status s = nav_geometry_load_obj_file(argv[1], NULL, NULL, &level);
    if (nav_failed(s)) {
        fprintf(stderr, "%s: %s\n", argv[1], nav_status_str(s));
        return 1;
    }
    nav_triangles t = nav_geometry_triangles(level);
    nav_geometry_build_stats best = {0};
    double area = 0;
    for (int r = 0; r < runs; r++) {
        nav_mesh *mesh = NULL;
        nav_geometry_build_stats st;
        s = nav_mesh_build_from_geometry(&t, &desc, &mesh, &st);
        if (nav_failed(s)) {
            fprintf(stderr, "%s: build: %s\n", argv[1], nav_status_str(s));
            return 1;
        }
        if (r == 0 || st.total_ms < best.total_ms) best = st;
        area = walkable_area(mesh);
        nav_mesh_destroy(mesh);
    }
    const char *name = strrchr(argv[1], '/') ? strrchr(argv[1], '/') + 1 : argv[1];
    printf("{\"level\":\"%s\",\"builder\":\"libnav\",\"triangles\":%u,\"cells\":[%d,%d],\"tile\":%u,"
           "\"tiles\":%u,\"threads\":%u,\"total_ms\":%.3f",
           name, best.triangles, best.width, best.depth, desc.tile_size, best.tiles, desc.threads,
           best.total_ms);
    for (int k = 0; k < NAV_GEOMETRY_STAGES; k++)
        printf(",\"%s_ms\":%.3f", nav_geometry_stage_name((nav_geometry_stage)k), best.stage_ms[k]);
    printf(",\"spans\":%llu,\"tops\":%u,\"kept_tops\":%u,\"regions\":%u,\"contour_points\":%u,\"failed_"
           "regions\":%u,"
           "\"polygons\":%u,\"vertices\":%u,\"bytes\":%zu,\"walkable_m2\":%.2f}\n",
           (unsigned long long)best.spans, best.tops, best.kept_tops, best.regions, best.contour_points,
           best.failed_regions, best.polygons, best.vertices, best.bytes, area);
    nav_geometry_destroy(level);
    return 0;
}
