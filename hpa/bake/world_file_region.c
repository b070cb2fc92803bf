/* One region of a JSON world file (docs/worlds.md, "Regions"): its source by key and file name (a
 * grid; a mesh made from a grid, built from a level's .obj, or read from a .nav file; a waypoint
 * graph, baked or read), the options that source takes (any other is refused), the source loaded
 * and kept by the world's builder. And the check of storeys: grids over the same ground at one
 * height. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "nav/geometry.h"
#include "world_file.h"

#define PATH_ROOM             NAV__WORLD_FILE_PATH_ROOM
#define FAIL(ld, detail, ...) (nav__logf(&(ld)->log, NAV_LOG_ERROR, __VA_ARGS__), NAV_FAILURE | (detail))

typedef nav__world_file loader;
typedef nav__world_file_ground ground;

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    if (n < t) return false;
    for (size_t i = 0; i < t; i++)
        if (tolower((unsigned char)s[n - t + i]) != tail[i]) return false;
    return true;
}

/* A mesh region's .nav file: its mesh, and its grid when it holds one (a level's mesh holds none). */
static nav_status load_mesh_nav(loader *ld, const char *path, nav_mesh **mesh, nav_grid **grid)
{
    void *bytes = NULL;
    nav_container c;
    nav_status s = nav_container_read_file(path, &ld->allocator, &ld->log, &bytes, &c);
    bool has_grid = nav_succeeded(s) && nav_container_find(&c, NAV_CHUNK_GRID) != NULL;
    nav__free(&ld->allocator, bytes);
    if (nav_failed(s)) return s;
    return nav_mesh_load_nav(path, &ld->allocator, &ld->log, mesh, has_grid ? grid : NULL);
}

/* The build options of a level's mesh (nav_geometry_build_desc; a key left out: its default, which
 * is RecastDemo's agent), as navtool bake LEVEL.obj --mesh takes them. radius and max_climb of 0 are
 * none (not the default); the build checks what only the options together say (the agent against
 * the cells). */
static nav_status read_level_options(const loader *ld, const cJSON *r, const char *where,
                                     nav_geometry_build_desc *d)
{
    double radius = 0, height = 0, climb = 0, slope = 0, cell_size = 0, cell_height = 0;
    nav_status s = nav__world_file_read_number(ld, r, "radius", where, 0, 1e6, &radius);
    if (!nav_failed(s)) s = nav__world_file_read_number(ld, r, "height", where, 1e-6, 1e6, &height);
    if (!nav_failed(s)) s = nav__world_file_read_number(ld, r, "max_climb", where, 0, 1e6, &climb);
    if (!nav_failed(s)) s = nav__world_file_read_number(ld, r, "cell_size", where, 1e-6, 1e6, &cell_size);
    if (!nav_failed(s)) s = nav__world_file_read_number(ld, r, "cell_height", where, 1e-6, 1e6, &cell_height);
    if (!nav_failed(s)) s = nav__world_file_read_count(ld, r, "tile_size", where, 0, 65535, &d->tile_size);
    if (!nav_failed(s))
        s = nav__world_file_read_count(ld, r, "max_poly_verts", where, 3, NAV_MESH_MAX_POLY_VERTS,
                                       &d->max_poly_verts);
    if (nav_failed(s)) return s;
    const cJSON *max_slope = cJSON_GetObjectItemCaseSensitive(r, "max_slope");
    if (max_slope) {
        slope = cJSON_IsNumber(max_slope) ? max_slope->valuedouble : NAN;
        if (!(slope > 0 && slope < 90))
            return FAIL(ld, NAV_PARSE_ERROR, "%s: %s.max_slope: expected degrees above 0 and below 90",
                        ld->name, where);
    }
    if (cJSON_GetObjectItemCaseSensitive(r, "radius")) d->agent_radius = radius > 0 ? (float)radius : -1;
    if (cJSON_GetObjectItemCaseSensitive(r, "max_climb")) d->agent_climb = climb > 0 ? (float)climb : -1;
    d->agent_height = (float)height, d->max_slope = (float)slope;
    d->cell_size = (float)cell_size, d->cell_height = (float)cell_height;
    return NAV_SUCCESS;
}

/* A mesh region from a level's .obj: its triangles moved by origin, built with the options read. */
static nav_status build_level_mesh(loader *ld, const char *path, nav_vec3 origin,
                                   const nav_geometry_build_desc *options, nav_mesh **mesh)
{
    nav_geometry *level = NULL;
    nav_status s = nav_geometry_load_obj_file(path, &ld->allocator, &ld->log, &level);
    if (nav_failed(s)) return s;
    nav_triangles t = nav_geometry_triangles(level);
    float *moved =
        nav__alloc(&ld->allocator, nav__mul_size(t.vertex_count ? t.vertex_count : 1, 3 * sizeof *moved));
    if (!moved) {
        nav_geometry_destroy(level);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    for (uint32_t v = 0; v < t.vertex_count; v++) {
        moved[3 * v] = t.vertices[3 * v] + origin.x;
        moved[3 * v + 1] = t.vertices[3 * v + 1] + origin.y;
        moved[3 * v + 2] = t.vertices[3 * v + 2] + origin.z;
    }
    t.vertices = moved;
    nav_geometry_build_desc desc = *options;
    desc.allocator = &ld->allocator, desc.log = &ld->log, desc.threads = ld->threads;
    s = nav_mesh_build_from_geometry(&t, &desc, mesh, NULL);
    nav__free(&ld->allocator, moved);
    nav_geometry_destroy(level);
    return s;
}

/* The source's path: relative to the world file's folder unless absolute. */
static nav_status source_path(const loader *ld, const char *source, const char *where, char out[PATH_ROOM])
{
    int n = source[0] == '/' || !ld->dir[0] ? snprintf(out, PATH_ROOM, "%s", source)
                                            : snprintf(out, PATH_ROOM, "%s/%s", ld->dir, source);
    if (n < 0 || n >= PATH_ROOM)
        return FAIL(ld, NAV_INVALID_PARAM, "%s: %s: the path is too long", ld->name, where);
    return NAV_SUCCESS;
}

/* Loads a grid source (.map, .png, else the ASCII format) with the region's placement. */
static nav_status load_grid(const loader *ld, const char *path, const nav_grid_desc *desc, nav_grid **out)
{
    if (ends_with(path, ".map")) return nav_grid_load_map_file(path, desc, out);
    if (ends_with(path, ".png")) return nav_grid_load_png_file(path, NULL, desc, out);
    (void)ld;
    return nav_grid_load_ascii_file(path, desc, out);
}

/* What a region is made from: its key and its file's kind. */
typedef enum source {
    SOURCE_GRID = 1,      /* "grid" */
    SOURCE_GRID_MESH = 2, /* "mesh" from a grid file */
    SOURCE_LEVEL = 4,     /* "mesh" from a level's .obj */
    SOURCE_MESH_NAV = 8,  /* "mesh" from a .nav file */
    SOURCE_WAYPOINTS = 16 /* "waypoints", text or .nav */
} source;

#define SOURCE_ANY    31u
#define SOURCE_PLACED (SOURCE_GRID | SOURCE_GRID_MESH | SOURCE_LEVEL) /* moved by "origin" */

static const char *source_name(source src)
{
    return src == SOURCE_GRID        ? "a grid region"
           : src == SOURCE_GRID_MESH ? "a mesh made from a grid"
           : src == SOURCE_LEVEL     ? "a level's mesh (.obj)"
           : src == SOURCE_MESH_NAV  ? "a mesh read from a .nav file"
                                     : "a waypoint region";
}

/* A region's keys, and the sources that take each ("hpa" says for itself). */
/* clang-format off */
static const char *const region_keys[] = {
    "name", "grid", "mesh", "waypoints", "hpa",
    "origin", "cell_size", "max_climb",
    "radius",
    "snap",
    "height", "max_slope", "cell_height", "tile_size", "max_poly_verts",
    NULL};
static const unsigned region_key_sources[] = {
    SOURCE_ANY, SOURCE_ANY, SOURCE_ANY, SOURCE_ANY, SOURCE_ANY,
    SOURCE_PLACED, SOURCE_PLACED, SOURCE_PLACED,
    SOURCE_GRID_MESH | SOURCE_LEVEL,
    SOURCE_WAYPOINTS,
    SOURCE_LEVEL, SOURCE_LEVEL, SOURCE_LEVEL, SOURCE_LEVEL, SOURCE_LEVEL};
/* clang-format on */
_Static_assert(sizeof region_keys / sizeof *region_keys ==
                   sizeof region_key_sources / sizeof *region_key_sources + 1,
               "a source set for each region key");

/* A key that is no option of this source is refused: left in, it would silently do nothing. */
static nav_status keys_for_source(const loader *ld, const cJSON *r, const char *where, source src)
{
    for (const cJSON *item = r->child; item; item = item->next)
        for (int k = 0; region_keys[k]; k++)
            if (!strcmp(item->string, region_keys[k]) && !(region_key_sources[k] & src))
                return FAIL(ld, NAV_PARSE_ERROR, "%s: %s.%s: not an option of %s", ld->name, where,
                            item->string, source_name(src));
    return NAV_SUCCESS;
}

nav_status nav__world_file_read_region(loader *ld, const cJSON *r, int index)
{
    char where[64], at[96], path[PATH_ROOM];
    nav__world_file_path_of(where, sizeof where, "regions", index, NULL);
    if (!cJSON_IsObject(r)) return FAIL(ld, NAV_PARSE_ERROR, "%s: %s: expected an object", ld->name, where);
    nav_status s = nav__world_file_known_keys(ld, r, where, region_keys);
    if (nav_failed(s)) return s;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(r, "name");
    if (!cJSON_IsString(name))
        return FAIL(ld, NAV_PARSE_ERROR, "%s: %s.name: expected the region's name (a string)", ld->name,
                    where);
    const char *kinds[3] = {"grid", "mesh", "waypoints"};
    int kind = -1;
    for (int k = 0; k < 3; k++)
        if (cJSON_GetObjectItemCaseSensitive(r, kinds[k])) {
            if (kind >= 0)
                return FAIL(ld, NAV_PARSE_ERROR,
                            "%s: %s: a region is one of grid, mesh or waypoints, not both %s and %s",
                            ld->name, where, kinds[kind], kinds[k]);
            kind = k;
        }
    if (kind < 0)
        return FAIL(ld, NAV_PARSE_ERROR, "%s: %s: give its source as \"grid\", \"mesh\" or \"waypoints\"",
                    ld->name, where);
    const cJSON *source_item = cJSON_GetObjectItemCaseSensitive(r, kinds[kind]);
    nav__world_file_path_of(at, sizeof at, "regions", index, kinds[kind]);
    if (!cJSON_IsString(source_item) || !source_item->valuestring[0])
        return FAIL(ld, NAV_PARSE_ERROR, "%s: %s: expected a file name", ld->name, at);
    s = source_path(ld, source_item->valuestring, at, path);
    if (nav_failed(s)) return s;
    source src = kind == 0                 ? SOURCE_GRID
                 : kind == 2               ? SOURCE_WAYPOINTS
                 : ends_with(path, ".obj") ? SOURCE_LEVEL
                 : ends_with(path, ".nav") ? SOURCE_MESH_NAV
                                           : SOURCE_GRID_MESH;
    s = keys_for_source(ld, r, where, src);
    if (nav_failed(s)) return s;

    nav_grid_desc grid_desc = {.log = &ld->log, .allocator = &ld->allocator};
    double cell_size = 1, max_climb = 0, radius = 0, snap = 0;
    const cJSON *origin = cJSON_GetObjectItemCaseSensitive(r, "origin");
    if (origin) {
        nav__world_file_path_of(at, sizeof at, "regions", index, "origin");
        s = nav__world_file_read_vec3(ld, origin, at, &grid_desc.origin);
    }
    if (!nav_failed(s)) s = nav__world_file_read_number(ld, r, "cell_size", where, 1e-6, 1e6, &cell_size);
    if (!nav_failed(s)) s = nav__world_file_read_number(ld, r, "max_climb", where, 0, 1e30, &max_climb);
    if (!nav_failed(s)) s = nav__world_file_read_number(ld, r, "radius", where, 0, 1e6, &radius);
    if (!nav_failed(s)) s = nav__world_file_read_number(ld, r, "snap", where, 0, 1e30, &snap);
    if (nav_failed(s)) return s;
    grid_desc.cell_size = (float)cell_size;
    grid_desc.max_climb = (float)max_climb;
    /* "hpa": true, or {"cluster_size", "levels", "level_ratio", "long_entrance"}: a grid searched
     * through its HPA* bake */
    bool by_hpa = false;
    nav_hpa_desc hpa_desc = {.allocator = &ld->allocator, .log = &ld->log};
    const cJSON *hpa_options = cJSON_GetObjectItemCaseSensitive(r, "hpa");
    if (hpa_options) {
        nav__world_file_path_of(at, sizeof at, "regions", index, "hpa");
        static const char *const hpa_keys[] = {"cluster_size", "levels", "level_ratio", "long_entrance",
                                               NULL};
        double v[4] = {0, 0, 0, 0};
        if (kind != 0)
            return FAIL(ld, NAV_PARSE_ERROR, "%s: %s: only a grid region is searched through HPA*", ld->name,
                        at);
        if (cJSON_IsObject(hpa_options)) {
            s = nav__world_file_known_keys(ld, hpa_options, at, hpa_keys);
            for (int k = 0; k < 4 && !nav_failed(s); k++)
                s = nav__world_file_read_number(ld, hpa_options, hpa_keys[k], at, 0, 1e6, &v[k]);
            if (nav_failed(s)) return s;
        } else if (!cJSON_IsBool(hpa_options)) {
            return FAIL(ld, NAV_PARSE_ERROR, "%s: %s: expected true, false or an object of HPA* options",
                        ld->name, at);
        }
        by_hpa = !cJSON_IsFalse(hpa_options);
        hpa_desc.cluster_size = (int32_t)v[0], hpa_desc.levels = (int32_t)v[1];
        hpa_desc.level_ratio = (int32_t)v[2], hpa_desc.long_entrance = (int32_t)v[3];
    }
    nav_geometry_build_desc level = {0};
    if (src == SOURCE_LEVEL) s = read_level_options(ld, r, where, &level);
    if (nav_failed(s)) return s;

    nav_grid *grid = NULL;
    nav_mesh *mesh = NULL;
    nav_waypoints *wp = NULL;
    nav__world_file_path_of(at, sizeof at, "regions", index, kinds[kind]);
    if (src == SOURCE_LEVEL) {
        s = build_level_mesh(ld, path, grid_desc.origin, &level, &mesh);
    } else if (src == SOURCE_GRID || src == SOURCE_GRID_MESH) {
        s = load_grid(ld, path, &grid_desc, &grid);
        if (!nav_failed(s) && src == SOURCE_GRID_MESH) {
            s = nav_mesh_build_from_grid(grid,
                                         &(nav_mesh_build_desc){.agent_radius = (float)radius,
                                                                .allocator = &ld->allocator,
                                                                .log = &ld->log},
                                         &mesh);
        }
    } else if (src == SOURCE_MESH_NAV) {
        s = load_mesh_nav(ld, path, &mesh, &grid);
    } else if (ends_with(path, ".nav")) {
        s = nav_waypoints_load_nav(path, &ld->allocator, &ld->log, &wp, &grid);
    } else {
        nav_waypoint_graph graph;
        s = nav_waypoint_graph_load_file(
            path, &(nav_waypoint_load_desc){.allocator = &ld->allocator, .log = &ld->log}, &graph);
        if (!nav_failed(s)) {
            s = nav_waypoints_bake(
                &graph, &(nav_waypoints_bake_desc){.allocator = &ld->allocator, .log = &ld->log}, &wp);
            nav_waypoint_graph_release(&graph);
        }
    }
    nav_hpa *hpa = NULL;
    if (!nav_failed(s) && by_hpa) {
        nav__world_file_path_of(at, sizeof at, "regions", index, "hpa");
        s = nav_hpa_bake(grid, &hpa_desc, &hpa);
    }
    /* the world owns what was loaded from here on (a failure below frees it with the builder; when
     * there is no room to keep it, it is freed at once) */
    nav_status kept = nav__world_builder_keep(ld->builder, grid, mesh, wp, hpa);
    if (!nav_failed(s)) s = kept;
    if (nav_failed(s)) {
        nav__logf(&ld->log, NAV_LOG_ERROR, "%s: %s: \"%s\" did not load: %s", ld->name, at,
                  source_item->valuestring, nav_status_str(s));
        return s;
    }
    /* what the checks of links and storeys need */
    ld->floor_reach[index] = src == SOURCE_WAYPOINTS ? 0 /* (within snap of a waypoint already) */
                             : src == SOURCE_LEVEL   ? nav_geometry_build_desc_defaults(&level).agent_height
                                                     : NAV__WORLD_FILE_FLOOR_REACH;
    if (src == SOURCE_GRID || src == SOURCE_GRID_MESH) {
        const nav_grid_desc *g = nav_grid_get_desc(grid);
        ld->grounds[ld->ground_count++] =
            (ground){.x0 = g->origin.x,
                     .z0 = g->origin.z,
                     .x1 = g->origin.x + (double)nav_grid_width(grid) * g->cell_size,
                     .z1 = g->origin.z + (double)nav_grid_height(grid) * g->cell_size,
                     .y = g->origin.y,
                     .half_cell = g->cell_size / 2,
                     .region = (uint32_t)index,
                     .name = name->valuestring};
    }
    if (kind == 0 && hpa)
        return nav_world_builder_add_grid_hpa(ld->builder, name->valuestring, grid, hpa, NULL);
    if (kind == 0) return nav_world_builder_add_grid(ld->builder, name->valuestring, grid, NULL);
    if (kind == 1) return nav_world_builder_add_mesh(ld->builder, name->valuestring, mesh, NULL);
    return nav_world_builder_add_waypoints(ld->builder, name->valuestring, wp, snap, NULL);
}

/* Grids (and meshes made from grids) whose cells cover the same ground at the same height are, as
 * a rule, an upper storey whose origin was left at the floor below: a point there locates in either,
 * as it happens. Legal (nothing is wrong with the world itself), so a warning for each such pair
 * (the first few), naming both. The grounds are sorted by height, west edge and south edge, and
 * each is compared with those after it that start west of its east edge, skipping, within a run of
 * one west edge, those too far south to reach it and those north of it: a region of equal tiles
 * costs O(log n) a tile. */
static int ground_order(const void *a, const void *b)
{
    const ground *p = a, *q = b;
    if (p->y != q->y) return p->y < q->y ? -1 : 1;
    if (p->x0 != q->x0) return p->x0 < q->x0 ? -1 : 1;
    if (p->z0 != q->z0) return p->z0 < q->z0 ? -1 : 1;
    return p->region < q->region ? -1 : p->region > q->region;
}

/* The first of g[from .. count) at or after (y, x0, z0) in that order. */
static uint32_t first_at(const ground *g, uint32_t from, uint32_t count, float y, double x0, double z0)
{
    while (from < count) {
        uint32_t mid = from + (count - from) / 2;
        const ground *m = &g[mid];
        bool before = m->y != y ? m->y < y : m->x0 != x0 ? m->x0 < x0 : m->z0 < z0;
        if (before)
            from = mid + 1;
        else
            count = mid;
    }
    return from;
}

void nav__world_file_warn_storeys(loader *ld)
{
    enum { SHOWN = 8 };
    ground *g = ld->grounds;
    uint32_t n = ld->ground_count;
    qsort(g, n, sizeof *g, ground_order);
    double depth = 0; /* the largest extent in z */
    for (uint32_t i = 0; i < n; i++) depth = fmax(depth, g[i].z1 - g[i].z0);
    uint64_t pairs = 0;
    for (uint32_t i = 0; i < n; i++) {
        const ground *a = &g[i];
        for (uint32_t j = i + 1; j < n;) {
            const ground *b = &g[j];
            if (b->y != a->y || b->x0 >= a->x1) break;
            if (b->z0 < a->z0 - depth) { /* too far south: on to the first that may reach a */
                j = first_at(g, j, n, a->y, b->x0, a->z0 - depth);
                continue;
            }
            if (b->z0 >= a->z1) { /* north of a, and so is the rest of its run: on to the next */
                j = first_at(g, j, n, a->y, b->x0, INFINITY);
                continue;
            }
            j++;
            /* more than half a cell in common each way: not two tiles side by side */
            double slack = fmin(a->half_cell, b->half_cell);
            if (fmin(a->x1, b->x1) - fmax(a->x0, b->x0) <= slack ||
                fmin(a->z1, b->z1) - fmax(a->z0, b->z0) <= slack)
                continue;
            if (++pairs > SHOWN) continue;
            const ground *lower = a->region < b->region ? a : b, *upper = a->region < b->region ? b : a;
            nav__logf(&ld->log, NAV_LOG_WARNING,
                      "%s: regions[%u] (\"%s\") lies over regions[%u] (\"%s\") at the same height, y %g: a "
                      "storey above another needs the origin y of its own floor",
                      ld->name, upper->region, upper->name, lower->region, lower->name, (double)a->y);
        }
    }
    if (pairs > SHOWN)
        nav__logf(&ld->log, NAV_LOG_WARNING,
                  "%s: and %llu more pairs of regions over one another at one height", ld->name,
                  (unsigned long long)(pairs - SHOWN));
}
