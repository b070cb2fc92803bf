/* navtool info: what a .nav file holds: its chunks, its grid, the figures of its HPA* bake, of its
 * navigation mesh and of its waypoints.
 * A chunk that is there but cannot be loaded (damaged, of a newer version, baked from another
 * grid) is reported on its own line with the reason, and the exit status is 1: a script that
 * checks a file with `navtool info` must not take a broken bake for a missing one. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "navtool.h"
#include "nav/geometry.h"

/* Keeps the last error message of a load, to print it on the line of the chunk that failed. */
typedef struct last_error {
    char text[512];
} last_error;

static void keep_error(nav_log_level level, const char *message, void *user)
{
    last_error *e = user;
    if (level == NAV_LOG_ERROR) snprintf(e->text, sizeof e->text, "%s", message);
}

static void tag_text(uint32_t tag, char text[5])
{
    for (int i = 0; i < 4; i++) {
        char c = (char)(tag >> (8 * i) & 0xffu);
        text[i] = c >= 0x20 && c < 0x7f ? c : '?';
    }
    text[4] = '\0';
}

/* The message without the "PATH: " the loaders put before it (the path is on the first line). */
static const char *without_path(const char *message, const char *path)
{
    size_t n = strlen(path);
    return strncmp(message, path, n) == 0 && message[n] == ':' && message[n + 1] == ' ' ? message + n + 2
                                                                                        : message;
}

static void print_hpa(const nav_hpa *hpa)
{
    nav_hpa_info info;
    nav_hpa_get_info(hpa, &info);
    nav_hpa_desc hd = nav_hpa_get_desc(hpa);
    printf("hpa: %d levels, cluster %d, ratio %d, long entrances from %d cells, %zu bytes, baked from grid "
           "%016" PRIx64 "\n",
           info.levels, hd.cluster_size, hd.level_ratio, hd.long_entrance, info.bytes, info.grid_fingerprint);
    printf("hpa: %u entrances, %u transitions, %llu stored moves, distance fields %zu bytes\n",
           info.entrances, info.transitions, (unsigned long long)info.path_moves, info.field_bytes);
    for (int l = 1; l <= info.levels; l++)
        printf("hpa level %d: clusters of %d cells (%u), %u nodes, %u edges\n", l, info.cluster_side[l],
               info.clusters[l], info.nodes[l], info.edges[l]);
}

static void print_mesh(const nav_mesh *mesh, const nav_grid *grid)
{
    uint32_t polys = nav_mesh_poly_count(mesh), edges = 0, portals = 0, one_way = 0, components = 0, most = 0;
    for (uint32_t p = 0; p < polys; p++) {
        nav_mesh_poly_info info;
        nav_mesh_poly(mesh, p, &info);
        edges += info.vert_count;
        most = info.vert_count > most ? info.vert_count : most;
        components = info.component > components ? info.component : components;
        for (uint32_t e = 0; e < info.vert_count; e++) {
            portals += info.neighbours[e] != NAV_MESH_NO_POLY;
            one_way += info.neighbours[e] != NAV_MESH_NO_POLY && !nav_mesh_edge_passable(mesh, p, e);
        }
    }
    uint64_t fp = nav_mesh_source_fingerprint(mesh);
    printf("mesh: %u polygons (up to %u vertices), %u vertices, %u edges (%u portals, %u one-way), %u links, "
           "%u components, %u landmarks, %zu bytes\n",
           polys, most, nav_mesh_vert_count(mesh), edges, portals, one_way, nav_mesh_link_count(mesh),
           components, nav_mesh_landmark_count(mesh), nav_mesh_memory_bytes(mesh));
    if (fp == 0 && !grid) { /* a level's, from its triangles */
        float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (uint32_t v = 0; v < nav_mesh_vert_count(mesh); v++) {
            nav_vec3 p = nav_mesh_vert(mesh, v);
            float c[3] = {p.x, p.y, p.z};
            for (int k = 0; k < 3; k++) lo[k] = fminf(lo[k], c[k]), hi[k] = fmaxf(hi[k], c[k]);
        }
        printf("mesh: built from level geometry; box (%.2f, %.2f, %.2f) .. (%.2f, %.2f, %.2f)\n",
               (double)lo[0], (double)lo[1], (double)lo[2], (double)hi[0], (double)hi[1], (double)hi[2]);
        return;
    }
    printf("mesh: built from grid %016" PRIx64 "%s\n", fp,
           !grid                              ? ""
           : fp == nav_grid_fingerprint(grid) ? " (this file's grid)"
                                              : " (NOT this file's grid: build it again)");
}

static void print_world(const nav_world *w)
{
    nav_world_info info;
    nav_world_get_info(w, &info);
    uint32_t kinds[4] = {0};
    for (uint32_t r = 0; r < info.regions; r++) kinds[nav_world_region_kind_of(w, r) & 3]++;
    printf(
        "world: %u regions (%u grids, %u meshes, %u waypoint graphs), %u links, %u chokepoints, %llu table "
        "entries, %zu bytes of world tables\n",
        info.regions, kinds[NAV_WORLD_REGION_GRID], kinds[NAV_WORLD_REGION_MESH],
        kinds[NAV_WORLD_REGION_WAYPOINTS], info.links, info.chokepoints,
        (unsigned long long)info.region_edges, info.bytes);
    for (uint32_t r = 0; r < info.regions && r < 16; r++)
        printf("world: region %u \"%s\": %s\n", r, nav_world_region_name(w, r), navtool_planner_of(w, r));
    if (info.regions > 16) printf("world: ... and %u more regions\n", info.regions - 16);
    for (uint32_t k = 0; k < info.links && k < 32; k++) { /* what navtool path --set names */
        nav_world_link_desc d;
        nav_world_link(w, k, &d);
        printf("world: link %u \"%s\": a %s from \"%s\" to \"%s\"%s, cost %g, %s\n", k, d.name ? d.name : "",
               nav_world_link_kind_name(d.kind), nav_world_region_name(w, d.from_region),
               nav_world_region_name(w, d.to_region), d.one_way ? " (one way)" : "", d.cost,
               d.disabled ? "off" : "on");
    }
    if (info.links > 32) printf("world: ... and %u more links\n", info.links - 32);
}

int navtool_info(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-') {
        navtool_usage(stderr);
        return 2;
    }
    const char *path = argv[1];
    last_error error = {""};
    nav_log log = {keep_error, &error};

    /* The chunk table first: it says what the file holds, and so which loads must succeed. */
    void *bytes;
    nav_container container;
    nav_status s = nav_container_read_file(path, NULL, &log, &bytes, &container);
    if (nav_failed(s)) {
        fprintf(stderr, "navtool info: %s\n", error.text);
        return 1;
    }
    printf("%s\n", path);
    printf("chunks:");
    bool has_tiles = false, has_hpa = false, has_mesh = false, has_grid = false, has_waypoints = false,
         has_world = false;
    for (uint32_t i = 0; i < container.count; i++) {
        char tag[5];
        tag_text(container.chunks[i].tag, tag);
        printf("%s %s v%u %llu bytes", i ? "," : "", tag, container.chunks[i].version,
               (unsigned long long)container.chunks[i].size);
        has_hpa |= container.chunks[i].tag == NAV_CHUNK_HPA;
        has_mesh |=
            container.chunks[i].tag == NAV_CHUNK_MESH || container.chunks[i].tag == NAV_CHUNK_MESH_TILES;
        has_grid |= container.chunks[i].tag == NAV_CHUNK_GRID;
        has_tiles |= container.chunks[i].tag == NAV_CHUNK_MESH_TILES;
        has_waypoints |= container.chunks[i].tag == NAV_CHUNK_WAYPOINTS;
        has_world |= container.chunks[i].tag == NAV_CHUNK_WORLD;
    }
    printf("%s\n", container.count ? "" : " none");
    free(bytes);

    int rc = 0;
    nav_grid *grid = NULL;
    s = has_grid ? nav_grid_load_nav(path, &(nav_grid_desc){.log = &log}, &grid) : NAV_SUCCESS;
    if (!has_grid) {
        printf("grid: none\n");
    } else if (nav_failed(s)) {
        printf("grid: error: %s\n", without_path(error.text, path));
        rc = 1;
    } else {
        const nav_grid_desc *d = nav_grid_get_desc(grid);
        printf(
            "grid: %d x %d cells, %d-connected, corner policy %d, diagonal %.6g, max climb %.6g, %zu bytes, "
            "fingerprint %016" PRIx64 "\n",
            nav_grid_width(grid), nav_grid_height(grid), (int)d->connectivity, (int)d->corner_policy,
            d->diagonal_cost, (double)d->max_climb, nav_grid_memory_bytes(grid), nav_grid_fingerprint(grid));
    }
    if (!has_hpa) {
        printf("hpa: none\n");
    } else if (grid || !has_grid) {
        nav_grid *hpa_grid = NULL;
        nav_hpa *hpa = NULL;
        error.text[0] = '\0';
        s = nav_hpa_load_nav(path, &(nav_hpa_desc){.log = &log}, &hpa_grid, &hpa);
        if (nav_failed(s)) {
            printf("hpa: error: %s\n", without_path(error.text, path));
            rc = 1;
        } else {
            print_hpa(hpa);
        }
        nav_hpa_destroy(hpa);
        nav_grid_destroy(hpa_grid);
    } else {
        printf("hpa: error: not loaded, the file's grid did not load\n");
    }
    if (!has_mesh) {
        printf("mesh: none\n");
    } else {
        nav_mesh *mesh = NULL;
        error.text[0] = '\0';
        s = nav_mesh_load_nav(path, NULL, &log, &mesh, NULL);
        if (nav_failed(s)) {
            printf("mesh: error: %s\n", without_path(error.text, path));
            rc = 1;
        } else {
            print_mesh(mesh, grid);
            nav_geometry_tiles *tiles = NULL;
            if (has_tiles && nav_succeeded(nav_geometry_tiles_load_nav(path, NULL, &tiles))) {
                int32_t nx, nz;
                nav_geometry_tiles_count(tiles, &nx, &nz);
                nav_geometry_build_desc used = nav_geometry_tiles_desc(tiles);
                printf("tiles: %d x %d of %u cells (the mesh is stitched from them when loaded; navtool tile "
                       "rebuilds one); agent radius %g, height %g, climb %g, slope %g; cells %g x %g\n",
                       nx, nz, used.tile_size, (double)used.agent_radius, (double)used.agent_height,
                       (double)used.agent_climb, (double)used.max_slope, (double)used.cell_size,
                       (double)used.cell_height);
            }
            nav_geometry_tiles_destroy(tiles);
            if (grid && nav_mesh_source_fingerprint(mesh) != nav_grid_fingerprint(grid)) rc = 1;
        }
        nav_mesh_destroy(mesh);
    }
    if (!has_waypoints) {
        printf("waypoints: none\n");
    } else {
        nav_waypoints *wp = NULL;
        nav_grid *own = NULL;
        error.text[0] = '\0';
        /* with the file's grid: a bake of a grid is checked against it (its corners) */
        s = nav_waypoints_load_nav(path, NULL, &log, &wp, grid ? &own : NULL);
        if (nav_failed(s)) {
            printf("waypoints: error: %s\n", without_path(error.text, path));
            rc = 1;
        } else {
            navtool_print_waypoints(wp, grid);
        }
        nav_waypoints_destroy(wp);
        nav_grid_destroy(own);
    }
    nav_grid_destroy(grid);
    if (has_world) {
        nav_world *w = NULL;
        error.text[0] = '\0';
        s = nav_world_load_nav(path, &(nav_world_load_desc){.log = &log}, &w);
        if (nav_failed(s)) {
            printf("world: error: %s\n", without_path(error.text, path));
            rc = 1;
        } else {
            print_world(w);
        }
        nav_world_destroy(w);
    } else {
        printf("world: none\n");
    }
    if (rc) fprintf(stderr, "navtool info: %s holds a chunk that does not load (see above)\n", path);
    return rc;
}
