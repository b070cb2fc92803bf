/* The JSON world file (docs/worlds.md): regions with their sources and options, links with their
 * ends, parsed with cJSON; every region's source loaded (and a mesh built, a waypoint graph baked),
 * the world baked, and the world made owner of what was loaded. Errors name the file and the JSON
 * path of the bad value: "house.json: links[3].to.region: no region named \"keep\"". */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "alloc.h"
#include "file.h"
#include "json_syntax.h"
#include "log.h"
#include "nav/geometry.h"
#include "world_internal.h"

#define MAX_JSON_BYTES (64u << 20) /* a world file larger than this is refused (NAV_TOO_LARGE) */
#define PATH_ROOM      4096

typedef struct loader {
    const char *name; /* of the file, for messages */
    const char *dir;  /* sources are found relative to it ("" : the working folder) */
    nav_log log;
    nav_allocator allocator;
    nav_world_builder *builder;
} loader;

#define FAIL(ld, detail, ...) (nav__logf(&(ld)->log, NAV_LOG_ERROR, __VA_ARGS__), NAV_FAILURE | (detail))

/* A JSON path for messages: "regions[2]" + ".origin". */
static void path_of(char *out, size_t size, const char *array, int index, const char *key)
{
    if (key)
        snprintf(out, size, "%s[%d].%s", array, index, key);
    else
        snprintf(out, size, "%s[%d]", array, index);
}

/* Reads [x, y, z] (a number or three). */
static nav_status read_vec3(const loader *ld, const cJSON *v, const char *where, nav_vec3 *out)
{
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 3)
        return FAIL(ld, NAV_PARSE_ERROR, "%s: %s: expected an array of 3 numbers [x, y, z]", ld->name, where);
    float c[3];
    for (int i = 0; i < 3; i++) {
        const cJSON *n = cJSON_GetArrayItem(v, i);
        if (!cJSON_IsNumber(n) || !isfinite(n->valuedouble) || fabs(n->valuedouble) > 1e30)
            return FAIL(ld, NAV_PARSE_ERROR, "%s: %s[%d]: expected a finite number", ld->name, where, i);
        c[i] = (float)n->valuedouble;
    }
    *out = nav_vec3_make(c[0], c[1], c[2]);
    return NAV_SUCCESS;
}

/* An optional number at key (absent: *out unchanged) within [lo, hi]. */
static nav_status read_number(const loader *ld, const cJSON *object, const char *key, const char *where,
                              double lo, double hi, double *out)
{
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(object, key);
    if (!n) return NAV_SUCCESS;
    if (!cJSON_IsNumber(n) || !(n->valuedouble >= lo && n->valuedouble <= hi))
        return FAIL(ld, NAV_PARSE_ERROR, "%s: %s.%s: expected a number from %g to %g", ld->name, where, key,
                    lo, hi);
    *out = n->valuedouble;
    return NAV_SUCCESS;
}

static nav_status read_bool(const loader *ld, const cJSON *object, const char *key, const char *where,
                            bool *out)
{
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(object, key);
    if (!b) return NAV_SUCCESS;
    if (!cJSON_IsBool(b))
        return FAIL(ld, NAV_PARSE_ERROR, "%s: %s.%s: expected true or false", ld->name, where, key);
    *out = cJSON_IsTrue(b);
    return NAV_SUCCESS;
}

/* Only the keys listed may appear (a misspelt key is an error, not silently a default). */
static nav_status known_keys(const loader *ld, const cJSON *object, const char *where,
                             const char *const *keys)
{
    for (const cJSON *item = object->child; item; item = item->next) {
        bool known = false;
        for (int i = 0; keys[i] && !known; i++) known = !strcmp(item->string, keys[i]);
        if (!known)
            return FAIL(ld, NAV_PARSE_ERROR, "%s: %s: unknown key \"%s\"", ld->name, where, item->string);
    }
    return NAV_SUCCESS;
}

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

/* A mesh region from a level's .obj: its triangles moved by origin, built with RecastDemo's agent
 * (radius [opt]: the agent's, in world units, when given). */
static nav_status build_level_mesh(loader *ld, const char *path, nav_vec3 origin, double radius,
                                   bool has_radius, nav_mesh **mesh)
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
    nav_geometry_build_desc desc = {.allocator = &ld->allocator, .log = &ld->log};
    if (has_radius) desc.agent_radius = radius > 0 ? (float)radius : -1;
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

static nav_status read_region(loader *ld, const cJSON *r, int index)
{
    char where[64], at[96], path[PATH_ROOM];
    path_of(where, sizeof where, "regions", index, NULL);
    if (!cJSON_IsObject(r)) return FAIL(ld, NAV_PARSE_ERROR, "%s: %s: expected an object", ld->name, where);
    static const char *const keys[] = {"name",      "grid",   "mesh", "waypoints", "origin", "cell_size",
                                       "max_climb", "radius", "snap", "hpa",       NULL};
    nav_status s = known_keys(ld, r, where, keys);
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
    const cJSON *source = cJSON_GetObjectItemCaseSensitive(r, kinds[kind]);
    path_of(at, sizeof at, "regions", index, kinds[kind]);
    if (!cJSON_IsString(source) || !source->valuestring[0])
        return FAIL(ld, NAV_PARSE_ERROR, "%s: %s: expected a file name", ld->name, at);
    s = source_path(ld, source->valuestring, at, path);
    if (nav_failed(s)) return s;

    nav_grid_desc grid_desc = {.log = &ld->log, .allocator = &ld->allocator};
    double cell_size = 1, max_climb = 0, radius = 0, snap = 0;
    const cJSON *origin = cJSON_GetObjectItemCaseSensitive(r, "origin");
    if (origin) {
        path_of(at, sizeof at, "regions", index, "origin");
        s = read_vec3(ld, origin, at, &grid_desc.origin);
    }
    if (!nav_failed(s)) s = read_number(ld, r, "cell_size", where, 1e-6, 1e6, &cell_size);
    if (!nav_failed(s)) s = read_number(ld, r, "max_climb", where, 0, 1e30, &max_climb);
    if (!nav_failed(s)) s = read_number(ld, r, "radius", where, 0, 1e6, &radius);
    if (!nav_failed(s)) s = read_number(ld, r, "snap", where, 0, 1e30, &snap);
    if (nav_failed(s)) return s;
    grid_desc.cell_size = (float)cell_size;
    grid_desc.max_climb = (float)max_climb;
    /* "hpa": true, or {"cluster_size", "levels", "level_ratio", "long_entrance"}: a grid searched
     * through its HPA* bake */
    bool by_hpa = false;
    nav_hpa_desc hpa_desc = {.allocator = &ld->allocator, .log = &ld->log};
    const cJSON *hpa_options = cJSON_GetObjectItemCaseSensitive(r, "hpa");
    if (hpa_options) {
        path_of(at, sizeof at, "regions", index, "hpa");
        static const char *const hpa_keys[] = {"cluster_size", "levels", "level_ratio", "long_entrance",
                                               NULL};
        double v[4] = {0, 0, 0, 0};
        if (kind != 0)
            return FAIL(ld, NAV_PARSE_ERROR, "%s: %s: only a grid region is searched through HPA*", ld->name,
                        at);
        if (cJSON_IsObject(hpa_options)) {
            s = known_keys(ld, hpa_options, at, hpa_keys);
            for (int k = 0; k < 4 && !nav_failed(s); k++)
                s = read_number(ld, hpa_options, hpa_keys[k], at, 0, 1e6, &v[k]);
            if (nav_failed(s)) return s;
        } else if (!cJSON_IsBool(hpa_options)) {
            return FAIL(ld, NAV_PARSE_ERROR, "%s: %s: expected true, false or an object of HPA* options",
                        ld->name, at);
        }
        by_hpa = !cJSON_IsFalse(hpa_options);
        hpa_desc.cluster_size = (int32_t)v[0], hpa_desc.levels = (int32_t)v[1];
        hpa_desc.level_ratio = (int32_t)v[2], hpa_desc.long_entrance = (int32_t)v[3];
    }

    nav_grid *grid = NULL;
    nav_mesh *mesh = NULL;
    nav_waypoints *wp = NULL;
    path_of(at, sizeof at, "regions", index, kinds[kind]);
    if (kind == 1 && ends_with(path, ".obj")) {
        s = build_level_mesh(ld, path, grid_desc.origin, radius,
                             cJSON_GetObjectItemCaseSensitive(r, "radius") != NULL, &mesh);
    } else if (kind == 0 || (kind == 1 && !ends_with(path, ".nav"))) {
        s = load_grid(ld, path, &grid_desc, &grid);
        if (!nav_failed(s) && kind == 1) {
            s = nav_mesh_build_from_grid(grid,
                                         &(nav_mesh_build_desc){.agent_radius = (float)radius,
                                                                .allocator = &ld->allocator,
                                                                .log = &ld->log},
                                         &mesh);
        }
    } else if (kind == 1) {
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
        path_of(at, sizeof at, "regions", index, "hpa");
        s = nav_hpa_bake(grid, &hpa_desc, &hpa);
    }
    /* the world owns what was loaded from here on (a failure below frees it with the builder; when
     * there is no room to keep it, it is freed at once) */
    nav_status kept = nav__world_builder_keep(ld->builder, grid, mesh, wp, hpa);
    if (!nav_failed(s)) s = kept;
    if (nav_failed(s)) {
        nav__logf(&ld->log, NAV_LOG_ERROR, "%s: %s: \"%s\" did not load: %s", ld->name, at,
                  source->valuestring, nav_status_str(s));
        return s;
    }
    if (kind == 0 && hpa)
        return nav_world_builder_add_grid_hpa(ld->builder, name->valuestring, grid, hpa, NULL);
    if (kind == 0) return nav_world_builder_add_grid(ld->builder, name->valuestring, grid, NULL);
    if (kind == 1) return nav_world_builder_add_mesh(ld->builder, name->valuestring, mesh, NULL);
    return nav_world_builder_add_waypoints(ld->builder, name->valuestring, wp, snap, NULL);
}

static const char *const link_kinds[] = {"door", "stairs", "bridge", "ladder",
                                         "gate", "portal", "jump",   "border"};

/* A link's end: {"region": NAME, "at": [x, y, z]}. */
static nav_status read_end(const loader *ld, const cJSON *end, const char *where, uint32_t *region,
                           nav_vec3 *at)
{
    char inner[128];
    if (!cJSON_IsObject(end))
        return FAIL(ld, NAV_PARSE_ERROR, "%s: %s: expected {\"region\": NAME, \"at\": [x, y, z]}", ld->name,
                    where);
    static const char *const keys[] = {"region", "at", NULL};
    nav_status s = known_keys(ld, end, where, keys);
    if (nav_failed(s)) return s;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(end, "region");
    if (!cJSON_IsString(name))
        return FAIL(ld, NAV_PARSE_ERROR, "%s: %s.region: expected a region's name", ld->name, where);
    *region = nav__world_builder_find(ld->builder, name->valuestring);
    if (*region == NAV_WORLD_NONE)
        return FAIL(ld, NAV_PARSE_ERROR, "%s: %s.region: no region named \"%s\"", ld->name, where,
                    name->valuestring);
    snprintf(inner, sizeof inner, "%s.at", where);
    return read_vec3(ld, cJSON_GetObjectItemCaseSensitive(end, "at"), inner, at);
}

static nav_status read_link(loader *ld, const cJSON *l, int index)
{
    char where[64], at[96];
    path_of(where, sizeof where, "links", index, NULL);
    if (!cJSON_IsObject(l)) return FAIL(ld, NAV_PARSE_ERROR, "%s: %s: expected an object", ld->name, where);
    static const char *const keys[] = {"name", "kind", "from", "to", "cost", "one_way", "enabled", NULL};
    nav_status s = known_keys(ld, l, where, keys);
    if (nav_failed(s)) return s;
    nav_world_link_desc d = {.kind = NAV_LINK_DOOR};
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(l, "name");
    if (name && !cJSON_IsString(name))
        return FAIL(ld, NAV_PARSE_ERROR, "%s: %s.name: expected a string", ld->name, where);
    if (name) d.name = name->valuestring;
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(l, "kind");
    if (kind) {
        int found = -1;
        for (int k = 0; k < 8 && cJSON_IsString(kind); k++)
            if (!strcmp(kind->valuestring, link_kinds[k])) found = k;
        if (found < 0)
            return FAIL(ld, NAV_PARSE_ERROR,
                        "%s: %s.kind: expected door, stairs, bridge, ladder, gate, portal, jump or border",
                        ld->name, where);
        d.kind = (nav_world_link_kind)(NAV_LINK_DOOR + found);
    }
    path_of(at, sizeof at, "links", index, "from");
    s = read_end(ld, cJSON_GetObjectItemCaseSensitive(l, "from"), at, &d.from_region, &d.from);
    path_of(at, sizeof at, "links", index, "to");
    if (!nav_failed(s)) s = read_end(ld, cJSON_GetObjectItemCaseSensitive(l, "to"), at, &d.to_region, &d.to);
    if (!nav_failed(s)) s = read_number(ld, l, "cost", where, 0, NAV_WORLD_MAX_LINK_COST, &d.cost);
    bool enabled = true;
    if (!nav_failed(s)) s = read_bool(ld, l, "one_way", where, &d.one_way);
    if (!nav_failed(s)) s = read_bool(ld, l, "enabled", where, &enabled);
    if (nav_failed(s)) return s;
    d.disabled = !enabled;
    s = nav_world_builder_add_link(ld->builder, &d, NULL);
    if (nav_failed(s))
        nav__logf(&ld->log, NAV_LOG_ERROR, "%s: %s: the link above is refused", ld->name, where);
    return s;
}

/* "join": {"mode": "every" | "entrances", "long_entrance": N, "tolerance": T}: the grids that touch. */
static nav_status read_join(loader *ld, const cJSON *j)
{
    if (!cJSON_IsObject(j)) return FAIL(ld, NAV_PARSE_ERROR, "%s: join: expected an object", ld->name);
    static const char *const keys[] = {"mode", "long_entrance", "tolerance", NULL};
    nav_status s = known_keys(ld, j, "join", keys);
    if (nav_failed(s)) return s;
    nav_world_join_desc d = {.mode = NAV_WORLD_JOIN_EVERY};
    const cJSON *mode = cJSON_GetObjectItemCaseSensitive(j, "mode");
    if (mode) {
        if (cJSON_IsString(mode) && !strcmp(mode->valuestring, "every"))
            d.mode = NAV_WORLD_JOIN_EVERY;
        else if (cJSON_IsString(mode) && !strcmp(mode->valuestring, "entrances"))
            d.mode = NAV_WORLD_JOIN_ENTRANCES;
        else
            return FAIL(ld, NAV_PARSE_ERROR, "%s: join.mode: expected \"every\" or \"entrances\"", ld->name);
    }
    double long_entrance = 6, tolerance = 0;
    s = read_number(ld, j, "long_entrance", "join", 1, INT32_MAX, &long_entrance);
    if (!nav_failed(s)) s = read_number(ld, j, "tolerance", "join", 0, 1e6, &tolerance);
    if (nav_failed(s)) return s;
    d.long_entrance = (int32_t)long_entrance;
    d.tolerance = tolerance;
    s = nav_world_builder_join_touching(ld->builder, &d, NULL);
    if (nav_failed(s)) nav__logf(&ld->log, NAV_LOG_ERROR, "%s: join: %s", ld->name, nav_status_str(s));
    return s;
}

/* The line of byte `at` of text (1-based), for a syntax error's message. */
static unsigned line_of(const char *text, size_t at)
{
    unsigned line = 1;
    for (size_t i = 0; i < at; i++) line += text[i] == '\n';
    return line;
}

nav_status nav_world_load_json_text(const char *text, size_t size, const char *name, const char *dir,
                                    const nav_world_load_desc *desc, nav_world **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!text && size) return NAV_FAILURE | NAV_INVALID_PARAM;
    loader ld = {.name = name ? name : "world", .dir = dir ? dir : ""};
    if (desc && desc->log) ld.log = *desc->log;
    nav__allocator_resolve(&ld.allocator, desc ? desc->allocator : NULL);
    if (size > MAX_JSON_BYTES)
        return FAIL(&ld, NAV_TOO_LARGE, "%s: %zu bytes, more than a world file may have (%u)", ld.name, size,
                    MAX_JSON_BYTES);
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text ? text : "", size, &end, false);
    if (!root) {
        /* cJSON says null when its allocations fail too: then the text was JSON (json_syntax.h) */
        if (nav__json_well_formed(text, size))
            return FAIL(&ld, NAV_OUT_OF_MEMORY, "%s: out of memory while parsing the JSON", ld.name);
        size_t at = end && end >= text && end <= text + size ? (size_t)(end - text) : 0;
        return FAIL(&ld, NAV_PARSE_ERROR, "%s:%u: not valid JSON", ld.name, text ? line_of(text, at) : 1);
    }
    nav_status s = NAV_SUCCESS;
    static const char *const keys[] = {"regions", "join", "links", NULL};
    if (!cJSON_IsObject(root))
        s = FAIL(&ld, NAV_PARSE_ERROR, "%s: expected an object with \"regions\" and \"links\"", ld.name);
    if (!nav_failed(s)) s = known_keys(&ld, root, "the top level", keys);
    const cJSON *regions = cJSON_GetObjectItemCaseSensitive(root, "regions");
    const cJSON *links = cJSON_GetObjectItemCaseSensitive(root, "links");
    if (!nav_failed(s) && (!cJSON_IsArray(regions) || cJSON_GetArraySize(regions) == 0))
        s = FAIL(&ld, NAV_PARSE_ERROR, "%s: regions: expected an array of at least one region", ld.name);
    if (!nav_failed(s) && links && !cJSON_IsArray(links))
        s = FAIL(&ld, NAV_PARSE_ERROR, "%s: links: expected an array", ld.name);
    if (!nav_failed(s)) s = nav_world_builder_create(&ld.allocator, &ld.log, &ld.builder);
    int i = 0;
    for (const cJSON *r = regions ? regions->child : NULL; r && !nav_failed(s); r = r->next, i++)
        s = read_region(&ld, r, i);
    const cJSON *join = cJSON_GetObjectItemCaseSensitive(root, "join");
    if (join && !nav_failed(s)) s = read_join(&ld, join);
    i = 0;
    for (const cJSON *l = links ? links->child : NULL; l && !nav_failed(s); l = l->next, i++)
        s = read_link(&ld, l, i);
    cJSON_Delete(root);
    if (!nav_failed(s)) {
        nav_world_bake_desc bake = desc && desc->bake ? *desc->bake : (nav_world_bake_desc){0};
        bake.progress = desc ? desc->progress : (nav_progress){0};
        bake.allocator = &ld.allocator;
        s = nav_world_bake(ld.builder, &bake, out);
    }
    nav_world_builder_destroy(ld.builder);
    return s;
}

nav_status nav_world_load_json(const char *path, const nav_world_load_desc *desc, nav_world **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!path) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_log log = desc && desc->log ? *desc->log : (nav_log){0};
    nav_allocator a;
    nav__allocator_resolve(&a, desc ? desc->allocator : NULL);
    FILE *file;
    uint64_t size;
    char why[NAV__WHY_SIZE];
    nav_status s = nav__file_open(path, &file, &size, why);
    if (nav_failed(s)) {
        nav__logf(&log, NAV_LOG_ERROR, "%s: cannot read: %s", path, why);
        return s;
    }
    if (size > MAX_JSON_BYTES) {
        fclose(file);
        nav__logf(&log, NAV_LOG_ERROR, "%s: %llu bytes, more than a world file may have (%u)", path,
                  (unsigned long long)size, MAX_JSON_BYTES);
        return NAV_FAILURE | NAV_TOO_LARGE;
    }
    char *text = nav__alloc(&a, size ? (size_t)size : 1);
    if (!text) {
        fclose(file);
        nav__logf(&log, NAV_LOG_ERROR, "%s: out of memory for its %llu bytes", path,
                  (unsigned long long)size);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    s = nav__file_read(file, text, (size_t)size, why);
    fclose(file);
    if (nav_failed(s)) {
        nav__logf(&log, NAV_LOG_ERROR, "%s: cannot read: %s", path, why);
        nav__free(&a, text);
        return s;
    }
    /* sources are found beside the world file */
    char dir[PATH_ROOM];
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 0;
    if (n >= sizeof dir) n = sizeof dir - 1;
    memcpy(dir, path, n);
    dir[n] = '\0';
    if (slash && n == 0) strcpy(dir, "/");
    s = nav_world_load_json_text(text, (size_t)size, path, dir, desc, out);
    nav__free(&a, text);
    return s;
}
