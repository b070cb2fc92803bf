/* libnav's build from level geometry (nav/geometry.h) on level .obj files, RecastDemo's settings
 * (the defaults): the fastest of N runs, each stage timed, and the mesh's walkable area (its
 * polygons on the xz plane), as bench/recast_driver.cpp reports Recast's. One JSON line a level.
 *
 * With --queries N: N random pairs of points of the mesh (a random polygon each, weighted by area, a
 * random point of it), a path between them in both modes, timed; each checked: both modes find one
 * or neither (reachable), the optimal never longer than the funnel's (wrong), and every segment of
 * both paths walkable on the mesh (a raycast from point to point reaches it: off_mesh).
 *
 * With --save FILE: the level saved (in tiles, with --tile: the TILS chunk; else the MESH chunk) and
 * loaded back by nav_mesh_load_nav (timed: load_ms; in tiles the mesh is stitched then), the queries
 * run on the mesh loaded.
 *
 * With --within D, each pair's second point lies within D (on the xz plane) of its first (a scene of
 * many copies of a level side by side: most pairs far apart lie in two copies, which no path joins).
 *
 * usage: geometry_build LEVEL.obj [--runs N] [--tile CELLS] [--threads N] [--queries N] [--within D]
 *                       [--save FILE] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nav/geometry.h"
#include "nav/mesh.h"

/* Polygon p's area on the xz plane. */
static double poly_area(const nav_mesh *mesh, uint32_t p)
{
    nav_mesh_poly_info info;
    nav_mesh_poly(mesh, p, &info);
    double twice = 0;
    for (uint32_t i = 0, j = info.vert_count - 1; i < info.vert_count; j = i++) {
        nav_vec3 a = nav_mesh_vert(mesh, info.verts[j]), b = nav_mesh_vert(mesh, info.verts[i]);
        twice += (double)a.x * b.z - (double)b.x * a.z;
    }
    return fabs(twice) / 2;
}

static double walkable_area(const nav_mesh *mesh)
{
    double sum = 0;
    for (uint32_t p = 0; p < nav_mesh_poly_count(mesh); p++) sum += poly_area(mesh, p);
    return sum;
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A random point of the mesh: a polygon picked by area (cumulative areas in `weight`), a random point
 * of a fan triangle of it picked the same way. */
static nav_vec3 random_point(const nav_mesh *mesh, const double *weight, uint32_t polys, uint64_t *seed)
{
    *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
    double r = (double)(*seed >> 11) / 9007199254740992.0 * weight[polys - 1];
    uint32_t lo = 0, hi = polys - 1;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (weight[mid] < r)
            lo = mid + 1;
        else
            hi = mid;
    }
    nav_mesh_poly_info info;
    nav_mesh_poly(mesh, lo, &info);
    nav_vec3 a = nav_mesh_vert(mesh, info.verts[0]);
    *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t k = 1 + (uint32_t)((*seed >> 33) % (info.vert_count - 2));
    nav_vec3 b = nav_mesh_vert(mesh, info.verts[k]), c = nav_mesh_vert(mesh, info.verts[k + 1]);
    *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
    double u = (double)(*seed >> 11) / 9007199254740992.0;
    *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
    double v = (double)(*seed >> 11) / 9007199254740992.0;
    if (u + v > 1) u = 1 - u, v = 1 - v;
    nav_vec3 p = {(float)(a.x + u * (b.x - a.x) + v * (c.x - a.x)), 0,
                  (float)(a.z + u * (b.z - a.z) + v * (c.z - a.z))};
    float h = a.y;
    nav_mesh_poly_contains(mesh, lo, p, &h);
    p.y = h;
    return p;
}

/* Whether every segment of the path walks on the mesh: a raycast from each point (in its polygon)
 * reaches the next. A ray that grazes a corner of the mesh's boundary exactly (a straight path
 * touching it) may stop there on the floats' rounding: it goes on from just past the corner, in the
 * polygon there (*grazed counts those). */
static bool on_mesh(const nav_mesh *mesh, nav_mesh_query *q, const nav_path *path, uint32_t *grazed)
{
    for (uint32_t i = 0; i + 1 < path->count; i++) {
        nav_vec3 from = path->points[i], to = path->points[i + 1];
        uint32_t poly = path->nodes[i];
        if (from.x == to.x && from.z == to.z) continue;
        for (int restarts = 0;; restarts++) {
            nav_mesh_raycast_hit hit;
            if (nav_failed(nav_mesh_raycast(q, NULL, poly, from, to, &hit, NULL, 0))) {
                if (getenv("OFFMESH"))
                    fprintf(stderr, "raycast refused: (%.4f %.4f) in poly %u (point %u of %u)\n", from.x,
                            from.z, poly, i, path->count);
                return false;
            }
            if (hit.t >= 1 - 1e-6) break;
            /* stopped: at a corner of the wall it stopped on? */
            nav_mesh_poly_info info;
            nav_mesh_poly(mesh, hit.poly, &info);
            nav_vec3 a = nav_mesh_vert(mesh, info.verts[hit.edge]),
                     b = nav_mesh_vert(mesh, info.verts[(hit.edge + 1) % info.vert_count]);
            double da = hypot(hit.point.x - a.x, hit.point.z - a.z),
                   db = hypot(hit.point.x - b.x, hit.point.z - b.z);
            if (restarts > 8 || fmin(da, db) > 1e-3) {
                if (getenv("OFFMESH"))
                    fprintf(
                        stderr,
                        "off: (%.4f %.4f) -> (%.4f %.4f): t %.6f stops in poly %u edge %u at (%.4f %.4f)\n",
                        from.x, from.z, to.x, to.z, hit.t, hit.poly, hit.edge, hit.point.x, hit.point.z);
                return false;
            }
            double len = hypot(to.x - from.x, to.z - from.z), step = 1e-3 / (len > 0 ? len : 1);
            nav_vec3 past = {from.x + (float)((hit.t + step) * (to.x - from.x)), hit.point.y,
                             from.z + (float)((hit.t + step) * (to.z - from.z))};
            nav_vec3 near;
            if (nav_failed(nav_mesh_locate(mesh, past, (nav_vec3){1e-3f, 1, 1e-3f}, &poly, &near)) ||
                hypot(near.x - past.x, near.z - past.z) > 2e-3) {
                if (getenv("OFFMESH"))
                    fprintf(stderr,
                            "off past a corner: (%.4f %.4f) -> (%.4f %.4f): stops in poly %u edge %u at "
                            "(%.4f %.4f)\n",
                            from.x, from.z, to.x, to.z, hit.poly, hit.edge, hit.point.x, hit.point.z);
                return false;
            }
            from = near;
            (*grazed)++;
        }
    }
    return true;
}

static void run_queries(const nav_mesh *mesh, uint32_t count, double within)
{
    uint32_t polys = nav_mesh_poly_count(mesh);
    double *weight = malloc(polys * sizeof *weight), sum = 0;
    for (uint32_t p = 0; p < polys; p++) weight[p] = sum += poly_area(mesh, p);
    nav_mesh_query *q = NULL;
    nav_mesh_query_create(mesh, NULL, &q);
    nav_path path;
    nav_path_init(&path, NULL);
    uint64_t seed = 1;
    uint32_t reachable = 0, wrong = 0, off_mesh = 0, mismatch = 0, grazed = 0;
    double time[2] = {0, 0}, ratio = 0;
    nav_vec3 extents = {0.1f, 0.5f, 0.1f};
    for (uint32_t k = 0; k < count; k++) {
        nav_vec3 a = random_point(mesh, weight, polys, &seed), b = random_point(mesh, weight, polys, &seed);
        for (int tries = 0; within > 0 && hypot(b.x - a.x, b.z - a.z) > within && tries < 100000; tries++)
            b = random_point(mesh, weight, polys, &seed);
        double cost[2];
        nav_status st[2];
        for (int mode = 0; mode < 2; mode++) {
            nav_mesh_result r;
            double t0 = seconds();
            st[mode] = nav_mesh_find_path(
                q,
                &(nav_mesh_path_desc){.mode = mode ? NAV_MESH_PATH_FUNNEL : NAV_MESH_PATH_OPTIMAL,
                                      .half_extents = extents},
                a, b, &path, &r);
            time[mode] += seconds() - t0;
            cost[mode] = r.cost;
            if (st[mode] == NAV_SUCCESS && !on_mesh(mesh, q, &path, &grazed)) off_mesh++;
        }
        if ((st[0] == NAV_SUCCESS) != (st[1] == NAV_SUCCESS)) mismatch++;
        if (st[0] != NAV_SUCCESS || st[1] != NAV_SUCCESS) continue;
        reachable++;
        if (cost[0] > cost[1] * (1 + 1e-9) + 1e-6) wrong++;
        if (cost[0] > 0) ratio += cost[1] / cost[0];
    }
    printf(",\"within\":%g,\"queries\":%u,\"reachable\":%u,\"mismatch\":%u,\"wrong\":%u,\"off_mesh\":%u,"
           "\"grazed_corners\":"
           "%u,\"optimal_us\":%.2f,"
           "\"funnel_us\":%.2f,\"funnel_over_optimal\":%.5f,\"query_bytes\":%zu",
           within, count, reachable, mismatch, wrong, off_mesh, grazed, time[0] / count * 1e6,
           time[1] / count * 1e6, reachable ? ratio / reachable : 0, nav_mesh_query_memory_bytes(q));
    nav_path_destroy(&path);
    nav_mesh_query_destroy(q);
    free(weight);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: geometry_build LEVEL.obj [--runs N]\n");
        return 2;
    }
    int runs = 5;
    uint32_t queries = 0;
    const char *save = NULL;
    double within = 0;
    nav_geometry_build_desc desc = {0};
    for (int i = 2; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "--runs")) runs = atoi(argv[i + 1]);
        if (!strcmp(argv[i], "--tile")) desc.tile_size = (uint32_t)atoi(argv[i + 1]);
        if (!strcmp(argv[i], "--threads")) desc.threads = (uint32_t)atoi(argv[i + 1]);
        if (!strcmp(argv[i], "--queries")) queries = (uint32_t)atoi(argv[i + 1]);
        if (!strcmp(argv[i], "--save")) save = argv[i + 1];
        if (!strcmp(argv[i], "--within")) within = atof(argv[i + 1]);
    }
    nav_geometry *level = NULL;
    nav_status s = nav_geometry_load_obj_file(argv[1], NULL, NULL, &level);
    if (nav_failed(s)) {
        fprintf(stderr, "%s: %s\n", argv[1], nav_status_str(s));
        return 1;
    }
    nav_triangles t = nav_geometry_triangles(level);
    nav_geometry_build_stats best = {0};
    nav_mesh *last = NULL;
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
        if (r + 1 < runs)
            nav_mesh_destroy(mesh);
        else
            last = mesh;
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
           "\"polygons\":%u,\"vertices\":%u,\"bytes\":%zu,\"walkable_m2\":%.2f",
           (unsigned long long)best.spans, best.tops, best.kept_tops, best.regions, best.contour_points,
           best.failed_regions, best.polygons, best.vertices, best.bytes, area);
    if (save) {
        if (desc.tile_size) {
            nav_geometry_tiles *tiles = NULL;
            s = nav_geometry_tiles_build(&t, &desc, &tiles, NULL, NULL);
            if (nav_succeeded(s)) s = nav_geometry_tiles_save_nav(tiles, save);
            nav_geometry_tiles_destroy(tiles);
        } else {
            s = nav_mesh_save_nav(NULL, last, save);
        }
        nav_mesh *loaded = NULL;
        double at = seconds();
        if (nav_succeeded(s)) s = nav_mesh_load_nav(save, NULL, NULL, &loaded, NULL);
        double load_ms = (seconds() - at) * 1e3;
        if (nav_failed(s) || nav_mesh_poly_count(loaded) != nav_mesh_poly_count(last)) {
            fprintf(stderr, "%s: saved and loaded: %s\n", save, nav_status_str(s));
            return 1;
        }
        FILE *f = fopen(save, "rb");
        long bytes = -1;
        if (f && fseek(f, 0, SEEK_END) == 0) bytes = ftell(f);
        if (f) fclose(f);
        printf(",\"file_bytes\":%ld,\"load_ms\":%.3f", bytes, load_ms);
        nav_mesh_destroy(last);
        last = loaded;
    }
    if (queries) run_queries(last, queries, within);
    printf("}\n");
    nav_mesh_destroy(last);
    nav_geometry_destroy(level);
    return 0;
}
