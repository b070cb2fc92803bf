/* The JSON world file (docs/worlds.md): regions with their sources and options, links with their
 * ends, parsed with cJSON; every region's source loaded (world_file_region.c), the world baked, and
 * the world made owner of what was loaded. Errors name the file and the JSON path of the bad value:
 * "house.json: links[3].to.region: no region named \"keep\"". What cJSON lets pass and a world file
 * must not hold is refused here too: text after the top-level object, a key given twice in an
 * object, a string cut short by U+0000. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "file.h"
#include "json_syntax.h"
#include "world_file.h"

#define MAX_JSON_BYTES (64u << 20) /* a world file larger than this is refused (NAV_TOO_LARGE) */
#define PATH_ROOM      NAV__WORLD_FILE_PATH_ROOM

typedef nav__world_file loader;

#define FAIL(ld, detail, ...) (nav__logf(&(ld)->log, NAV_LOG_ERROR, __VA_ARGS__), NAV_FAILURE | (detail))

/* A JSON path for messages: "regions[2]" + ".origin". */
void nav__world_file_path_of(char *out, size_t size, const char *array, int index, const char *key)
{
    if (key)
        snprintf(out, size, "%s[%d].%s", array, index, key);
    else
        snprintf(out, size, "%s[%d]", array, index);
}

/* Reads [x, y, z] (a number or three). */
nav_status nav__world_file_read_vec3(const loader *ld, const cJSON *v, const char *where, nav_vec3 *out)
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
nav_status nav__world_file_read_number(const loader *ld, const cJSON *object, const char *key,
                                       const char *where, double lo, double hi, double *out)
{
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(object, key);
    if (!n) return NAV_SUCCESS;
    if (!cJSON_IsNumber(n) || !(n->valuedouble >= lo && n->valuedouble <= hi))
        return FAIL(ld, NAV_PARSE_ERROR, "%s: %s.%s: expected a number from %g to %g", ld->name, where, key,
                    lo, hi);
    *out = n->valuedouble;
    return NAV_SUCCESS;
}

/* An optional whole number at key (absent: *out unchanged) within [lo, hi]. */
nav_status nav__world_file_read_count(const loader *ld, const cJSON *object, const char *key,
                                      const char *where, uint32_t lo, uint32_t hi, uint32_t *out)
{
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(object, key);
    if (!n) return NAV_SUCCESS;
    if (!cJSON_IsNumber(n) || !(n->valuedouble >= lo && n->valuedouble <= hi) ||
        n->valuedouble != floor(n->valuedouble))
        return FAIL(ld, NAV_PARSE_ERROR, "%s: %s.%s: expected a whole number from %u to %u", ld->name, where,
                    key, lo, hi);
    *out = (uint32_t)n->valuedouble;
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

/* Only the keys listed (at most 32) may appear, each once: a misspelt key is an error, not silently a
 * default, and so is a key given twice (cJSON keeps both, and a lookup finds the first). Every
 * object the loader reads passes here first. */
nav_status nav__world_file_known_keys(const loader *ld, const cJSON *object, const char *where,
                                      const char *const *keys)
{
    uint32_t seen = 0;
    for (const cJSON *item = object->child; item; item = item->next) {
        int found = -1;
        for (int i = 0; keys[i] && found < 0; i++)
            if (!strcmp(item->string, keys[i])) found = i;
        if (found < 0)
            return FAIL(ld, NAV_PARSE_ERROR, "%s: %s: unknown key \"%s\"", ld->name, where, item->string);
        if (seen >> found & 1)
            return FAIL(ld, NAV_PARSE_ERROR, "%s: %s: the key \"%s\" appears twice", ld->name, where,
                        item->string);
        seen |= 1u << found;
    }
    return NAV_SUCCESS;
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
    nav_status s = nav__world_file_known_keys(ld, end, where, keys);
    if (nav_failed(s)) return s;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(end, "region");
    if (!cJSON_IsString(name))
        return FAIL(ld, NAV_PARSE_ERROR, "%s: %s.region: expected a region's name", ld->name, where);
    *region = nav__world_builder_find(ld->builder, name->valuestring);
    if (*region == NAV_WORLD_NONE)
        return FAIL(ld, NAV_PARSE_ERROR, "%s: %s.region: no region named \"%s\"", ld->name, where,
                    name->valuestring);
    snprintf(inner, sizeof inner, "%s.at", where);
    s = nav__world_file_read_vec3(ld, cJSON_GetObjectItemCaseSensitive(end, "at"), inner, at);
    if (nav_failed(s)) return s;
    /* on the region's floor there (a point at no walkable place is the builder's to tell) */
    float reach = ld->floor_reach[*region];
    nav_world_place place;
    if (reach == 0 || !nav__world_builder_locate(ld->builder, *region, *at, &place)) return NAV_SUCCESS;
    double off = (double)at->y - place.position.y;
    if (fabs(off) <= reach) return NAV_SUCCESS;
    return FAIL(ld, NAV_INVALID_PARAM,
                "%s: %s: %g %s the floor of region \"%s\" there (y %g): a link's end is at most %g from it",
                ld->name, inner, fabs(off), off > 0 ? "above" : "below", name->valuestring,
                (double)place.position.y, (double)reach);
}

static nav_status read_link(loader *ld, const cJSON *l, int index)
{
    char where[64], at[96];
    nav__world_file_path_of(where, sizeof where, "links", index, NULL);
    if (!cJSON_IsObject(l)) return FAIL(ld, NAV_PARSE_ERROR, "%s: %s: expected an object", ld->name, where);
    static const char *const keys[] = {"name", "kind", "from", "to", "cost", "one_way", "enabled", NULL};
    nav_status s = nav__world_file_known_keys(ld, l, where, keys);
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
    nav__world_file_path_of(at, sizeof at, "links", index, "from");
    s = read_end(ld, cJSON_GetObjectItemCaseSensitive(l, "from"), at, &d.from_region, &d.from);
    nav__world_file_path_of(at, sizeof at, "links", index, "to");
    if (!nav_failed(s)) s = read_end(ld, cJSON_GetObjectItemCaseSensitive(l, "to"), at, &d.to_region, &d.to);
    const cJSON *cost = cJSON_GetObjectItemCaseSensitive(l, "cost");
    /* (the builder takes a cost of 0 for the straight distance: in a file, that is a cost left out) */
    if (!nav_failed(s) && cost && !(cJSON_IsNumber(cost) && cost->valuedouble > 0))
        s = FAIL(ld, NAV_PARSE_ERROR,
                 "%s: %s.cost: must be a number above 0 (leave it out for the straight "
                 "distance)",
                 ld->name, where);
    if (!nav_failed(s))
        s = nav__world_file_read_number(ld, l, "cost", where, 0, NAV_WORLD_MAX_LINK_COST, &d.cost);
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
    nav_status s = nav__world_file_known_keys(ld, j, "join", keys);
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
    s = nav__world_file_read_number(ld, j, "long_entrance", "join", 1, INT32_MAX, &long_entrance);
    if (!nav_failed(s)) s = nav__world_file_read_number(ld, j, "tolerance", "join", 0, 1e6, &tolerance);
    if (nav_failed(s)) return s;
    d.long_entrance = (int32_t)long_entrance;
    d.tolerance = tolerance;
    s = nav_world_builder_join_touching(ld->builder, &d, NULL);
    if (nav_failed(s)) nav__logf(&ld->log, NAV_LOG_ERROR, "%s: join: %s", ld->name, nav_status_str(s));
    return s;
}

/* The JSON path of string number `target` (as nav__json_string_with_nul counts them: keys and values
 * in the order they start) within item, whose path is path[0 .. used); *key: the string is a key,
 * and path the path of its object. False when the string is not within item. cJSON nests at most
 * 1000 deep, and so does this. */
static bool string_path(const cJSON *item, size_t target, size_t *count, char *path, size_t used, size_t room,
                        bool *key)
{
    if (cJSON_IsString(item)) return (*count)++ == target;
    bool object = cJSON_IsObject(item);
    if (!object && !cJSON_IsArray(item)) return false;
    int index = 0;
    for (const cJSON *child = item->child; child; child = child->next, index++) {
        if (object && (*count)++ == target) {
            *key = true;
            return true;
        }
        int n = object ? snprintf(path + used, room - used, used ? ".%s" : "%s", child->string)
                       : snprintf(path + used, room - used, "[%d]", index);
        size_t next = n < 0 || used + (size_t)n >= room ? room - 1 : used + (size_t)n;
        if (string_path(child, target, count, path, next, room, key)) return true;
        path[used] = '\0';
    }
    return false;
}

/* Refuses a string holding U+0000 (json_syntax.h), naming its place. */
static nav_status refuse_nul_string(const loader *ld, const cJSON *root, const char *text, size_t size)
{
    size_t target = nav__json_string_with_nul(text, size);
    if (target == SIZE_MAX) return NAV_SUCCESS;
    char path[256] = "";
    size_t count = 0;
    bool key = false;
    string_path(root, target, &count, path, 0, sizeof path, &key);
    if (key)
        return FAIL(ld, NAV_PARSE_ERROR, "%s: %s: a key holding U+0000 (a NUL character) is refused",
                    ld->name, path[0] ? path : "the top level");
    return FAIL(ld, NAV_PARSE_ERROR, "%s: %s: a string holding U+0000 (a NUL character) is refused", ld->name,
                path);
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
    if (desc && desc->bake) ld.threads = desc->bake->threads;
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
    /* cJSON stops after the root's value: what follows (a "join" that slipped out of it) is refused */
    size_t parsed = (size_t)(end - text), after = parsed;
    while (after < size &&
           (text[after] == ' ' || text[after] == '\t' || text[after] == '\n' || text[after] == '\r'))
        after++;
    if (after < size)
        s = FAIL(&ld, NAV_PARSE_ERROR,
                 "%s:%u: text after the top-level object, at byte %zu (a world file is one JSON object)",
                 ld.name, line_of(text, after), after);
    static const char *const keys[] = {"regions", "join", "links", NULL};
    if (!nav_failed(s) && !cJSON_IsObject(root))
        s = FAIL(&ld, NAV_PARSE_ERROR, "%s: expected an object with \"regions\" and \"links\"", ld.name);
    if (!nav_failed(s)) s = refuse_nul_string(&ld, root, text, parsed);
    if (!nav_failed(s)) s = nav__world_file_known_keys(&ld, root, "the top level", keys);
    const cJSON *regions = cJSON_GetObjectItemCaseSensitive(root, "regions");
    const cJSON *links = cJSON_GetObjectItemCaseSensitive(root, "links");
    if (!nav_failed(s) && (!cJSON_IsArray(regions) || cJSON_GetArraySize(regions) == 0))
        s = FAIL(&ld, NAV_PARSE_ERROR, "%s: regions: expected an array of at least one region", ld.name);
    if (!nav_failed(s) && links && !cJSON_IsArray(links))
        s = FAIL(&ld, NAV_PARSE_ERROR, "%s: links: expected an array", ld.name);
    if (!nav_failed(s)) s = nav_world_builder_create(&ld.allocator, &ld.log, &ld.builder);
    if (!nav_failed(s)) {
        size_t count = (size_t)cJSON_GetArraySize(regions);
        ld.floor_reach = nav__alloc(&ld.allocator, nav__mul_size(count, sizeof *ld.floor_reach));
        ld.grounds = nav__alloc(&ld.allocator, nav__mul_size(count, sizeof *ld.grounds));
        if (!ld.floor_reach || !ld.grounds)
            s = FAIL(&ld, NAV_OUT_OF_MEMORY, "%s: out of memory for its %zu regions", ld.name, count);
    }
    int i = 0;
    for (const cJSON *r = regions ? regions->child : NULL; r && !nav_failed(s); r = r->next, i++)
        s = nav__world_file_read_region(&ld, r, i);
    if (!nav_failed(s)) nav__world_file_warn_storeys(&ld);
    const cJSON *join = cJSON_GetObjectItemCaseSensitive(root, "join");
    if (join && !nav_failed(s)) s = read_join(&ld, join);
    i = 0;
    for (const cJSON *l = links ? links->child : NULL; l && !nav_failed(s); l = l->next, i++)
        s = read_link(&ld, l, i);
    cJSON_Delete(root);
    nav__free(&ld.allocator, ld.floor_reach);
    nav__free(&ld.allocator, ld.grounds);
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
