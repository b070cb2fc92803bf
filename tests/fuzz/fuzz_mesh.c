/* libFuzzer harness for the MESH chunk reader and .nav files with a mesh (see README.md beside it).
 *
 * Input: a mode byte, then
 *   mode 0: raw MESH chunk data, read by nav_mesh_read_chunk;
 *   mode 1: a whole .nav file (size field and CRCs repaired first, so mutations reach the chunk
 *           readers), loaded the way users load one, by nav_mesh_load_nav on a path (an in-memory
 *           file) with its GRID chunk: a mesh of another grid must be refused;
 *   mode 2: raw TILS chunk data (a level kept in tiles), read by nav_geometry_tiles_read_chunk: tiles
 *           that load write back to exactly those bytes, and the mesh stitched from them
 *           (nav_geometry_tiles_mesh) is made or refused cleanly, and queried like the others;
 *   mode 3: a whole .nav file of a level (repaired as in mode 1), loaded by nav_mesh_load_nav with
 *           no grid: a MESH chunk read, or a TILS chunk's tiles stitched.
 * Besides "no crash, no sanitizer report, no leak": a failure is one of the readers' documented
 * statuses with nothing returned; a mesh that loads writes back to exactly its chunk's bytes (and,
 * from a file, belongs to the file's grid), and queries on it (points drawn from the input, in
 * both modes, with a node budget) return a clean status, and on success a path of finite points
 * whose reported cost is finite and no less than the straight line between its ends times the
 * cheapest area cost; its waypoint graph (nav_waypoint_graph_from_mesh, at most 64 waypoints)
 * is refused only as too large or for an off-mesh link dearer than NAV_WAYPOINT_MAX_COST, or has
 * links between its waypoints, dearer than 0 and finite, and bakes.
 *
 * NAV_FUZZ_MAKE_SEEDS builds a program that writes seeds (meshes of random grids, some with
 * off-mesh links, as chunks and as files with their grid or with another one; meshes built from a
 * level's triangles, whole and in tiles, as chunks: their height triangles read too);
 * NAV_FUZZ_STANDALONE a main() that replays files. */
#include "fuzz_common.h" /* first: it asks for _GNU_SOURCE */

#include <math.h>

#include "nav/geometry.h"
#include "nav/mesh.h"
#include "nav/waypoints.h"

enum { HEADER = 1 };

static void check_queries(const nav_mesh *mesh, uint64_t *rng)
{
    nav_mesh_query *q = NULL;
    if (nav_failed(nav_mesh_query_create(mesh, &(nav_mesh_query_desc){.max_nodes = 20000}, &q))) return;
    uint32_t polys = nav_mesh_poly_count(mesh);
    double min_cost = INFINITY;
    for (int t = 0; t < 256; t++) min_cost = fmin(min_cost, nav_mesh_area_cost(mesh, (uint8_t)t));
    nav_path path;
    nav_path_init(&path, NULL);
    for (int k = 0; k < 8 && polys; k++) {
        /* a point inside a polygon (the mean of its vertices) or near a vertex */
        nav_vec3 ends[2];
        for (int i = 0; i < 2; i++) {
            nav_mesh_poly_info info;
            nav_mesh_poly(mesh, (uint32_t)(fuzz_next(rng) % polys), &info);
            nav_vec3 c = {0, 0, 0};
            for (uint32_t v = 0; v < info.vert_count; v++)
                c = nav_vec3_add(c, nav_mesh_vert(mesh, info.verts[v]));
            ends[i] = fuzz_next(rng) % 4 ? nav_vec3_scale(c, 1.0f / (float)info.vert_count)
                                         : nav_mesh_vert(mesh, info.verts[0]);
        }
        nav_mesh_result r;
        nav_mesh_path_desc d = {.mode = k % 2 ? NAV_MESH_PATH_FUNNEL : NAV_MESH_PATH_OPTIMAL,
                                .max_expanded = (uint32_t)(fuzz_next(rng) % 3 ? 0 : 50)};
        nav_status s = nav_mesh_find_path(q, &d, ends[0], ends[1], &path, &r);
        if (nav_failed(s)) {
            /* an end off the mesh (a level's polygon whose floor lies far from its corners' mean
             * height) is named in the result */
            CHECK(s == (NAV_FAILURE | NAV_UNREACHABLE) ||
                  (s == (NAV_FAILURE | NAV_BLOCKED_ENDPOINT) &&
                   (r.start_poly == NAV_MESH_NO_POLY || r.goal_poly == NAV_MESH_NO_POLY)));
            continue;
        }
        CHECK(s == NAV_SUCCESS || nav_has_detail(s, NAV_PARTIAL_RESULT));
        CHECK(path.count >= 1 && isfinite(r.cost) && r.cost >= 0);
        for (uint32_t i = 0; i < path.count; i++)
            CHECK(isfinite(path.points[i].x) && isfinite(path.points[i].y) && isfinite(path.points[i].z));
        if (s == NAV_SUCCESS) {
            nav_vec3 a = path.points[0], b = path.points[path.count - 1];
            double straight =
                sqrt(((double)b.x - a.x) * ((double)b.x - a.x) + ((double)b.z - a.z) * ((double)b.z - a.z));
            CHECK(r.cost >= straight * min_cost * (1 - 1e-6) - 1e-6 || nav_mesh_link_count(mesh) > 0);
        }
    }
    nav_path_destroy(&path);
    nav_mesh_query_destroy(q);
}

static void check_written(const nav_mesh *mesh, const uint8_t *bytes, size_t n)
{
    nav_writer w;
    nav_writer_init(&w, NULL);
    CHECK(nav_mesh_write_chunk(mesh, &w) == NAV_SUCCESS);
    CHECK(w.size == n && memcmp(w.data, bytes, n) == 0);
    nav_writer_destroy(&w);
}

static void check_file(uint8_t *file, size_t n, uint64_t *rng)
{
    repair_container(file, n);
    nav_mesh *mesh = (nav_mesh *)&mesh;
    nav_grid *grid = (nav_grid *)&grid;
    nav_status s = nav_mesh_load_nav(memory_file(file, n), NULL, NULL, &mesh, &grid);
    if (nav_failed(s)) {
        CHECK(mesh == NULL && grid == NULL);
        CHECK(s == (NAV_FAILURE | NAV_CORRUPT_DATA) || s == (NAV_FAILURE | NAV_WRONG_VERSION) ||
              s == (NAV_FAILURE | NAV_TOO_LARGE) || s == (NAV_FAILURE | NAV_SOURCE_MISMATCH) ||
              s == (NAV_FAILURE | NAV_OUT_OF_MEMORY));
        return;
    }
    CHECK(nav_mesh_source_fingerprint(mesh) == nav_grid_fingerprint(grid));
    size_t offset, length;
    CHECK(find_chunk_bytes(file, n, NAV_CHUNK_MESH, &offset, &length));
    check_written(mesh, file + offset, length);
    check_queries(mesh, rng);
    nav_mesh_destroy(mesh);
    nav_grid_destroy(grid);
}

/* A level's .nav file (no grid): its mesh, or its tiles' mesh, made or refused cleanly, and queried. */
static void check_level_file(uint8_t *file, size_t n, uint64_t *rng)
{
    repair_container(file, n);
    nav_mesh *mesh = (nav_mesh *)&mesh;
    nav_status s = nav_mesh_load_nav(memory_file(file, n), NULL, NULL, &mesh, NULL);
    if (nav_failed(s)) {
        CHECK(mesh == NULL);
        CHECK(s == (NAV_FAILURE | NAV_CORRUPT_DATA) || s == (NAV_FAILURE | NAV_WRONG_VERSION) ||
              s == (NAV_FAILURE | NAV_TOO_LARGE) || s == (NAV_FAILURE | NAV_OUT_OF_MEMORY));
        return;
    }
    check_queries(mesh, rng);
    nav_mesh_destroy(mesh);
}

/* The mesh's waypoint graph: made, or refused as too large; links within it, costs finite and
 * above 0; and it bakes. */
static void check_waypoints(const nav_mesh *mesh)
{
    nav_waypoint_graph g;
    nav_status s =
        nav_waypoint_graph_from_mesh(mesh, &(nav_waypoint_mesh_desc){.max_waypoints = 64, .threads = 1}, &g);
    if (nav_failed(s)) {
        /* too large, or an off-mesh link dearer than a waypoint link may be */
        CHECK(s == (NAV_FAILURE | NAV_TOO_LARGE) || s == (NAV_FAILURE | NAV_OUT_OF_MEMORY) ||
              s == (NAV_FAILURE | NAV_INVALID_PARAM));
        return;
    }
    for (uint32_t i = 0; i < g.link_count; i++) {
        const nav_waypoint_link *l = &g.links[i];
        CHECK(l->from < g.waypoint_count && l->to < g.waypoint_count && isfinite(l->cost) && l->cost > 0);
    }
    nav_waypoints *wp = NULL;
    s = nav_waypoints_bake(&g, &(nav_waypoints_bake_desc){.threads = 1}, &wp);
    CHECK(nav_succeeded(s) || s == (NAV_FAILURE | NAV_OUT_OF_MEMORY));
    nav_waypoints_destroy(wp);
    nav_waypoint_graph_release(&g);
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Sets the CRC of each tile's block in TILS chunk data to its block's, where the directory can be
 * found (mesh/bake/tiles_chunk.c's layout), so that mutations reach the blocks' reader. */
static void repair_tiles(uint8_t *chunk, size_t n)
{
    if (n < 2656) return;
    uint32_t tile = le32(chunk + 60), width = le32(chunk + 76), depth = le32(chunk + 80),
             volumes = le32(chunk + 88), links = le32(chunk + 92);
    if (tile == 0 || width > 65534 || depth > 65534 || volumes > n || links > n) return;
    size_t at = 2656;
    for (uint32_t i = 0; i < volumes; i++) {
        if (at + 16 > n) return;
        uint32_t points = le32(chunk + at);
        if (points > n) return;
        at += 16 + 8 * (size_t)points;
    }
    at += 40 * (size_t)links;
    at = (at + 7) / 8 * 8;
    size_t tiles = (size_t)((width + tile - 1) / tile) * ((depth + tile - 1) / tile);
    for (size_t t = 0; t < tiles && at + 16 * (t + 1) <= n; t++) {
        uint8_t *e = chunk + at + 16 * t;
        uint64_t offset = (uint64_t)le32(e) | (uint64_t)le32(e + 4) << 32;
        uint32_t size = le32(e + 8);
        if (offset > n || size > n - offset) continue;
        uint32_t crc = nav_crc32(0, chunk + offset, size);
        for (int k = 0; k < 4; k++) e[12 + k] = (uint8_t)(crc >> (8 * k));
    }
}

/* TILS chunk data: tiles read, written back to the same bytes, stitched into a mesh that is queried. */
static void check_tiles(uint8_t *chunk, size_t n, uint64_t *rng)
{
    if (*rng % 8) repair_tiles(chunk, n); /* and now and then left as it came */
    nav_geometry_tiles *tiles = (nav_geometry_tiles *)&tiles;
    nav_status s = nav_geometry_tiles_read_chunk(chunk, n, &(nav_geometry_build_desc){.threads = 1}, &tiles);
    if (nav_failed(s)) {
        CHECK(tiles == NULL);
        /* (NAV_TOO_LARGE: tiles whose bookkeeping alone is over max_memory, from hundreds of MB of data) */
        CHECK(s == (NAV_FAILURE | NAV_CORRUPT_DATA) || s == (NAV_FAILURE | NAV_OUT_OF_MEMORY) ||
              s == (NAV_FAILURE | NAV_TOO_LARGE));
        return;
    }
    nav_writer w;
    nav_writer_init(&w, NULL);
    CHECK(nav_geometry_tiles_write_chunk(tiles, &w) == NAV_SUCCESS);
    CHECK(w.size == n && memcmp(w.data, chunk, n) == 0);
    nav_writer_destroy(&w);
    nav_mesh *mesh = (nav_mesh *)&mesh;
    s = nav_geometry_tiles_mesh(tiles, &mesh, NULL);
    if (nav_failed(s)) {
        CHECK(mesh == NULL);
        CHECK(s == (NAV_FAILURE | NAV_CORRUPT_DATA) || s == (NAV_FAILURE | NAV_OUT_OF_MEMORY) ||
              s == (NAV_FAILURE | NAV_TOO_LARGE) || s == (NAV_FAILURE | NAV_INVALID_PARAM));
    } else {
        check_queries(mesh, rng);
        nav_mesh_destroy(mesh);
    }
    nav_geometry_tiles_destroy(tiles);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < HEADER) return 0;
    size_t n = size - HEADER;
    uint8_t *chunk = fuzz_copy(data + HEADER, n);
    uint64_t rng = fuzz_seed(data, size);
    if ((data[0] & 3u) >= 2) {
        if ((data[0] & 3u) == 2)
            check_tiles(chunk, n, &rng);
        else
            check_level_file(chunk, n, &rng);
        free(chunk);
        return 0;
    }
    if (data[0] & 1u) {
        check_file(chunk, n, &rng);
        free(chunk);
        return 0;
    }
    nav_mesh *mesh = (nav_mesh *)&mesh;
    nav_status s = nav_mesh_read_chunk(chunk, n, NULL, NULL, &mesh);
    if (nav_failed(s)) {
        CHECK(mesh == NULL);
        CHECK(s == (NAV_FAILURE | NAV_CORRUPT_DATA) || s == (NAV_FAILURE | NAV_OUT_OF_MEMORY) ||
              s == (NAV_FAILURE | NAV_TOO_LARGE));
    } else {
        check_written(mesh, chunk, n);
        check_queries(mesh, &rng);
        check_waypoints(mesh);
        nav_mesh_destroy(mesh);
    }
    free(chunk);
    return 0;
}

#if defined(NAV_FUZZ_MAKE_SEEDS)
static void make_seeds(const char *dir)
{
    for (uint64_t seed = 1; seed <= 12; seed++) {
        nav_grid *grid = random_grid(seed * 0x9e3779b1u);
        if (!grid) exit(1);
        int32_t w = nav_grid_width(grid), h = nav_grid_height(grid);
        nav_mesh_link_desc links[2] = {
            {.start = {0.5f, 0, 0.5f}, .end = {(float)w - 0.5f, 0, (float)h - 0.5f}, .bidirectional = true},
            {.start = {(float)w / 2, 0, 0.5f}, .end = {0.5f, 0, (float)h / 2}, .cost = 2, .user_id = 3},
        };
        nav_mesh_build_desc desc = {.links = links,
                                    .link_count = seed % 3 == 0 ? 2 : 0,
                                    .link_extents = {(float)w, 100, (float)h},
                                    .agent_radius = seed % 4 == 1 ? 0.5f : 0};
        nav_mesh *mesh;
        if (nav_failed(nav_mesh_build_from_grid(grid, &desc, &mesh))) exit(1);
        /* landmarks on every other seed (seeds 6 and 12 with one-way steps too) */
        if (seed % 2 == 0 && nav_failed(nav_mesh_bake_landmarks(mesh, 3, NULL))) exit(1);
        nav_writer wr;
        nav_writer_init(&wr, NULL);
        nav_mesh_write_chunk(mesh, &wr);
        char name[64];
        snprintf(name, sizeof name, "mesh_%u", (unsigned)seed);
        write_seed(dir, name, 0, wr.data, wr.size);
        /* the same as a file with its grid (mode 1), and with another grid (a stale pair) */
        nav_writer gw, file;
        nav_writer_init(&gw, NULL);
        nav_writer_init(&file, NULL);
        nav_grid *other = random_grid(seed * 0x9e3779b1u + 1);
        if (!other) exit(1);
        for (int stale = 0; stale < 2; stale++) {
            gw.size = file.size = 0;
            nav_grid_write_chunk(stale ? other : grid, &gw);
            nav_chunk chunks[2] = {{NAV_CHUNK_GRID, NAV_GRID_CHUNK_VERSION, gw.data, gw.size},
                                   {NAV_CHUNK_MESH, NAV_MESH_CHUNK_VERSION, wr.data, wr.size}};
            if (nav_failed(nav_container_write(&file, chunks, 2))) exit(1);
            snprintf(name, sizeof name, "nav_%u%s", (unsigned)seed, stale ? "_stale" : "");
            write_seed(dir, name, 1, file.data, file.size);
        }
        nav_grid_destroy(other);
        nav_writer_destroy(&gw);
        nav_writer_destroy(&file);
        nav_writer_destroy(&wr);
        nav_mesh_destroy(mesh);
        nav_grid_destroy(grid);
    }
    /* meshes built from level geometry (mode 0): their chunks carry height triangles; a floor of
     * 12 x 12 with a pyramid on it, whole and in tiles of 16 cells */
    static const float v[] = {0, 0, 0, 0, 0, 12, 12, 0, 12, 12, 0, 0,    4, 0,
                              4, 4, 0, 8, 8, 0,  8,  8, 0,  4,  6, 1.5f, 6};
    static const uint32_t idx[] = {0, 1, 2, 0, 2, 3, 4, 5, 8, 5, 6, 8, 6, 7, 8, 7, 4, 8};
    nav_triangles level = {v, 9, idx, 6, NULL};
    for (uint32_t tile = 0; tile <= 16; tile += 16) {
        nav_mesh *mesh;
        if (nav_failed(nav_mesh_build_from_geometry(&level, &(nav_geometry_build_desc){.tile_size = tile},
                                                    &mesh, NULL)))
            exit(1);
        nav_writer wr;
        nav_writer_init(&wr, NULL);
        nav_mesh_write_chunk(mesh, &wr);
        char name[64];
        snprintf(name, sizeof name, "level_%u", (unsigned)tile);
        write_seed(dir, name, 0, wr.data, wr.size);
        nav_writer file; /* and as the level's file, a MESH chunk alone (mode 3) */
        nav_writer_init(&file, NULL);
        nav_chunk chunk = {NAV_CHUNK_MESH, NAV_MESH_CHUNK_VERSION, wr.data, wr.size};
        if (nav_failed(nav_container_write(&file, &chunk, 1))) exit(1);
        snprintf(name, sizeof name, "level_file_%u", (unsigned)tile);
        write_seed(dir, name, 3, file.data, file.size);
        nav_writer_destroy(&file);
        nav_writer_destroy(&wr);
        nav_mesh_destroy(mesh);
    }
    /* the same level kept in tiles (mode 2): tiles of 16 and of 24 cells, one with a road volume and
     * a link, one without heights */
    static const float road[] = {1, 1, 5, 1, 5, 3, 1, 3};
    nav_geometry_volume volume = {road, 4, -1, 1, 2};
    nav_mesh_link_desc link = {.start = {1, 0, 11}, .end = {11, 0, 11}, .bidirectional = true};
    for (int k = 0; k < 2; k++) {
        nav_geometry_build_desc d = {.tile_size = k ? 24 : 16};
        if (k == 0) d.volumes = &volume, d.volume_count = 1, d.links = &link, d.link_count = 1;
        if (k == 1) d.detail_sample_distance = -1;
        nav_geometry_tiles *tiles;
        if (nav_failed(nav_geometry_tiles_build(&level, &d, &tiles, NULL, NULL))) exit(1);
        nav_writer wr;
        nav_writer_init(&wr, NULL);
        nav_geometry_tiles_write_chunk(tiles, &wr);
        char name[64];
        snprintf(name, sizeof name, "tiles_%d", k);
        write_seed(dir, name, 2, wr.data, wr.size);
        /* and as the level's file (mode 3) */
        nav_writer file;
        nav_writer_init(&file, NULL);
        nav_chunk chunk = {NAV_CHUNK_MESH_TILES, NAV_MESH_TILES_CHUNK_VERSION, wr.data, wr.size};
        if (nav_failed(nav_container_write(&file, &chunk, 1))) exit(1);
        snprintf(name, sizeof name, "tiles_file_%d", k);
        write_seed(dir, name, 3, file.data, file.size);
        nav_writer_destroy(&file);
        nav_writer_destroy(&wr);
        nav_geometry_tiles_destroy(tiles);
    }
}
#endif
