/* libFuzzer harness for the build from level geometry, nav_mesh_build_from_geometry (see README.md
 * beside it).
 *
 * Input: a mode byte (the options: bit 0 a radius of 0.6 or none, bit 1 tiles of 16 cells, bit 2
 * two threads, bit 3 no heights, bit 4 a climb of 0.2 instead of 0.9, bits 5-7 the cell size
 * 0.25 + 0.05 k), then triangles, 9 bytes each: x, y, z of three corners, each byte a coordinate
 * of 0 to 25.5 in steps of 0.1 (at most 300 triangles: a level of 100 x 100 cells or fewer).
 * Besides "no crash, no sanitizer report, no leak, no hang": the build succeeds (any triangles make
 * a mesh, maybe empty); the mesh's MESH chunk reads back (every polygon convex, adjacency
 * symmetric, heights in range) and writes back to the same bytes; the walkable area is never more
 * than the triangles' shadow; queries between points of the mesh, both modes, return a clean
 * status, and on success finite points, each within the mesh's box.
 *
 * NAV_FUZZ_MAKE_SEEDS builds a program that writes seeds (a floor, a box on it, stairs, two storeys
 * and a ramp, a pyramid); NAV_FUZZ_STANDALONE a main() that replays files. */
#include "fuzz_common.h" /* first: it asks for _GNU_SOURCE */

#include <math.h>

#include "nav/geometry.h"
#include "nav/mesh.h"

enum { HEADER = 1, MAX_TRIANGLES = 300 };

static double mesh_area(const nav_mesh *mesh)
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

static void check_queries(const nav_mesh *mesh, uint64_t *rng)
{
    uint32_t polys = nav_mesh_poly_count(mesh);
    if (!polys) return;
    nav_mesh_query *q = NULL;
    CHECK(nav_succeeded(nav_mesh_query_create(mesh, NULL, &q)));
    nav_path path;
    nav_path_init(&path, NULL);
    for (int k = 0; k < 6; k++) {
        nav_vec3 ends[2];
        for (int i = 0; i < 2; i++) {
            nav_mesh_poly_info info;
            nav_mesh_poly(mesh, (uint32_t)(fuzz_next(rng) % polys), &info);
            nav_vec3 c = {0, 0, 0};
            for (uint32_t v = 0; v < info.vert_count; v++)
                c = nav_vec3_add(c, nav_mesh_vert(mesh, info.verts[v]));
            ends[i] = nav_vec3_scale(c, 1.0f / (float)info.vert_count);
        }
        nav_mesh_result r;
        nav_mesh_path_desc pd = {.mode = k % 2 ? NAV_MESH_PATH_FUNNEL : NAV_MESH_PATH_OPTIMAL,
                                 .half_extents = {0.5f, 30, 0.5f}};
        nav_status s = nav_mesh_find_path(q, &pd, ends[0], ends[1], &path, &r);
        CHECK(nav_succeeded(s) || s == (NAV_FAILURE | NAV_UNREACHABLE) ||
              (s == (NAV_FAILURE | NAV_BLOCKED_ENDPOINT) &&
               (r.start_poly == NAV_MESH_NO_POLY || r.goal_poly == NAV_MESH_NO_POLY)));
        if (nav_failed(s)) continue;
        CHECK(isfinite(r.cost) && r.cost >= 0);
        for (uint32_t i = 0; i < path.count; i++) {
            nav_vec3 p = path.points[i];
            CHECK(isfinite(p.x) && isfinite(p.y) && isfinite(p.z));
            CHECK(p.x >= -1 && p.x <= 27 && p.z >= -1 && p.z <= 27 && p.y >= -30 && p.y <= 60);
        }
    }
    nav_path_destroy(&path);
    nav_mesh_query_destroy(q);
}

/* Whether the build may refuse the level as wound the other way: no triangle within 45 degrees of
 * level faces up, and one faces down. In doubles, while the build works in floats: a triangle whose
 * slope is 45 degrees to a few parts in a million (tenths make them: a rise of 2 over a run of 2)
 * may count on either side, so it is taken as level when it faces down and as steep when it faces
 * up. */
static bool floors_may_face_down(const nav_triangles *t)
{
    uint32_t down = 0;
    for (uint32_t i = 0; i < t->triangle_count; i++) {
        const float *p = t->vertices + 3 * t->indices[3 * i], *q = t->vertices + 3 * t->indices[3 * i + 1],
                    *r = t->vertices + 3 * t->indices[3 * i + 2];
        double ux = q[0] - p[0], uy = q[1] - p[1], uz = q[2] - p[2], vx = r[0] - p[0], vy = r[1] - p[1],
               vz = r[2] - p[2];
        double nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
        double length = sqrt(nx * nx + ny * ny + nz * nz), edge = cos(M_PI / 4) * length;
        if (length == 0) continue;
        if (ny > 0 && ny > edge * (1 + 1e-5)) return false; /* a floor facing up */
        if (ny < 0 && -ny >= edge * (1 - 1e-5)) down++;
    }
    return down > 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < HEADER) return 0;
    uint8_t mode = data[0];
    uint32_t count = (uint32_t)((size - HEADER) / 9);
    if (count > MAX_TRIANGLES) count = MAX_TRIANGLES;
    float *v = malloc((size_t)count * 9 * sizeof *v + 1);
    uint32_t *idx = malloc((size_t)count * 3 * sizeof *idx + 1);
    CHECK(v && idx);
    double shadow = 0;
    for (uint32_t t = 0; t < count; t++) {
        for (int k = 0; k < 9; k++) v[9 * t + k] = (float)data[HEADER + 9 * t + k] * 0.1f;
        for (int k = 0; k < 3; k++) idx[3 * t + k] = 3 * t + (uint32_t)k;
        const float *a = v + 9 * t, *b = a + 3, *c = a + 6;
        shadow += fabs(((double)b[0] - a[0]) * ((double)c[2] - a[2]) -
                       ((double)b[2] - a[2]) * ((double)c[0] - a[0])) /
                  2;
    }
    nav_triangles tris = {v, 3 * count, idx, count, NULL};
    nav_geometry_build_desc desc = {
        .agent_radius = mode & 1 ? 0.6f : -1,
        .tile_size = mode & 2 ? 16 : 0,
        .threads = mode & 4 ? 2 : 1,
        .detail_sample_distance = mode & 8 ? -1 : 0,
        .agent_climb = mode & 16 ? 0.2f : 0,
        .cell_size = 0.25f + 0.05f * (float)(mode >> 5),
    };
    nav_mesh *mesh = (nav_mesh *)&mesh;
    nav_status s = nav_mesh_build_from_geometry(&tris, &desc, &mesh, NULL);
    if (count == 0) {
        CHECK(s == (NAV_FAILURE | NAV_INVALID_PARAM) && mesh == NULL); /* no triangles */
    } else if (s == (NAV_FAILURE | NAV_INVALID_PARAM)) {
        CHECK(mesh == NULL && floors_may_face_down(&tris)); /* refused: a level wound the other way */
    } else {
        FUZZ_TRACE("%u triangles: %s, %u polygons\n", count, nav_status_str(s),
                   nav_succeeded(s) ? nav_mesh_poly_count(mesh) : 0);
        CHECK(s == NAV_SUCCESS);
        /* its chunk reads back and writes back the same */
        nav_writer w;
        nav_writer_init(&w, NULL);
        CHECK(nav_mesh_write_chunk(mesh, &w) == NAV_SUCCESS);
        nav_mesh *back = NULL;
        CHECK(nav_mesh_read_chunk(w.data, w.size, NULL, NULL, &back) == NAV_SUCCESS);
        nav_writer again;
        nav_writer_init(&again, NULL);
        CHECK(nav_mesh_write_chunk(back, &again) == NAV_SUCCESS);
        CHECK(again.size == w.size && memcmp(again.data, w.data, w.size) == 0);
        nav_writer_destroy(&again);
        nav_writer_destroy(&w);
        nav_mesh_destroy(back);
        /* no more floor than the triangles' shadow (a cell's rounding round each) */
        CHECK(mesh_area(mesh) <= shadow + 1e-3 + 4.0 * count);
        uint64_t rng = fuzz_seed(data, size);
        check_queries(mesh, &rng);
        nav_mesh_destroy(mesh);
    }
    free(v);
    free(idx);
    return 0;
}

#if defined(NAV_FUZZ_MAKE_SEEDS)
/* A seed's triangles, coordinates in tenths. */
typedef struct seed {
    uint8_t bytes[1 + 9 * 64];
    size_t size;
} seed;

static void tri(seed *s, const uint8_t p[9])
{
    memcpy(s->bytes + s->size, p, 9);
    s->size += 9;
}

static void quad(seed *s, uint8_t x0, uint8_t z0, uint8_t x1, uint8_t z1, uint8_t y)
{
    tri(s, (const uint8_t[9]){x0, y, z0, x0, y, z1, x1, y, z1});
    tri(s, (const uint8_t[9]){x0, y, z0, x1, y, z1, x1, y, z0});
}

static void make_seeds(const char *dir)
{
    for (int k = 0; k < 6; k++) {
        seed s = {.size = 1};
        s.bytes[0] = (uint8_t)(k * 7);
        if (k < 5) quad(&s, 0, 0, 200, 200, 0); /* a floor of 20 x 20 */
        if (k == 1) {                           /* a box on it */
            quad(&s, 80, 80, 120, 120, 15);
            tri(&s, (const uint8_t[9]){80, 0, 80, 80, 15, 80, 120, 15, 80});
            tri(&s, (const uint8_t[9]){80, 0, 80, 120, 15, 80, 120, 0, 80});
        }
        if (k == 2) /* stairs */
            for (uint8_t step = 1; step <= 4; step++)
                quad(&s, (uint8_t)(100 + 20 * step), 0, 200, 200, (uint8_t)(3 * step));
        if (k == 3) { /* an upper floor and a ramp to it */
            quad(&s, 0, 0, 80, 200, 25);
            tri(&s, (const uint8_t[9]){80, 25, 0, 80, 25, 40, 140, 0, 40});
            tri(&s, (const uint8_t[9]){80, 25, 0, 140, 0, 40, 140, 0, 0});
        }
        if (k == 4) /* a pyramid */
            for (int side = 0; side < 4; side++) {
                static const uint8_t c[4][2] = {{60, 60}, {60, 140}, {140, 140}, {140, 60}};
                tri(&s, (const uint8_t[9]){c[side][0], 0, c[side][1], c[(side + 1) % 4][0], 0,
                                           c[(side + 1) % 4][1], 100, 15, 100});
            }
        if (k == 5) /* a slope of exactly 45 degrees facing down (the harness's doubles and the build's
                     * floats may take it either side of 45: once a false report) */
            tri(&s, (const uint8_t[9]){0, 0, 62, 0, 0, 0, 200, 200, 30});
        char name[32];
        snprintf(name, sizeof name, "level_%d", k);
        write_seed(dir, name, s.bytes[0], s.bytes + 1, s.size - 1);
    }
}
#endif
