/* Building and baking a world: regions and links gathered in a builder (stb_ds, bake time only),
 * then each region's table of costs between its chokepoints (world_tables.c). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "ds.h"
#include "index.h"
#include "grid_internal.h"
#include "log.h"
#include "parallel.h"
#include "world_internal.h"

typedef struct builder_region {
    nav_world_region_kind kind;
    const nav_grid *grid;
    const nav_hpa *hpa; /* a grid searched through its HPA* bake */
    const nav_mesh *mesh;
    const nav_waypoints *waypoints;
    double snap;
    char name[NAV_WORLD_MAX_NAME + 1];
} builder_region;

typedef struct builder_link {
    nav_world_link_desc desc; /* name points at `name` below once copied */
    char name[NAV_WORLD_MAX_NAME + 1];
    bool named;
    nav_world_place from, to; /* located at add time */
} builder_link;

struct nav_world_builder {
    nav_allocator allocator;
    nav_log log;
    builder_region *regions; /* stb_ds array */
    builder_link *links;     /* stb_ds array */
    nav__index by_name;      /* regions by name */
    nav__world_owned *owned; /* stb_ds array: handed to the world at bake */
};

nav_status nav__world_builder_keep(nav_world_builder *b, nav_grid *grid, nav_mesh *mesh, nav_waypoints *wp,
                                   nav_hpa *hpa)
{
    nav__world_owned o = {grid, mesh, wp, hpa};
    if (!(grid || mesh || wp || hpa) || nav__arr_push(b->owned, o)) return NAV_SUCCESS;
    nav__world_owned_destroy(&o);
    return NAV_FAILURE | NAV_OUT_OF_MEMORY;
}

uint32_t nav__world_builder_region_count(const nav_world_builder *b)
{
    return (uint32_t)arrlenu(b->regions);
}

uint32_t nav__world_builder_link_count(const nav_world_builder *b)
{
    return (uint32_t)arrlenu(b->links);
}

void nav__world_builder_drop_links(nav_world_builder *b, uint32_t count)
{
    if (count < arrlenu(b->links)) nav__arr_truncate(b->links, count);
}

const nav_grid *nav__world_builder_grid(const nav_world_builder *b, uint32_t region)
{
    return region < arrlenu(b->regions) ? b->regions[region].grid : NULL;
}

const nav_mesh *nav__world_builder_mesh(const nav_world_builder *b, uint32_t region)
{
    return region < arrlenu(b->regions) ? b->regions[region].mesh : NULL;
}

void nav__world_builder_logf(const nav_world_builder *b, const char *fmt, ...)
{
    if (!b->log.fn) return;
    char message[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    b->log.fn(NAV_LOG_ERROR, message, b->log.user);
}

static bool same_name(uint32_t item, const void *key, const void *ctx)
{
    const nav_world_builder *b = ctx;
    return strcmp(b->regions[item].name, key) == 0;
}

uint32_t nav__world_builder_find(const nav_world_builder *b, const char *name)
{
    return nav__index_find(&b->by_name, nav__index_hash_string(name), same_name, name, b);
}

/* The region as the bake will hold it (names, chokepoints and table left out). */
static nav__world_region region_of(const builder_region *br, uint32_t index)
{
    return (nav__world_region){.kind = br->kind,
                               .ops = nav__world_ops_of(br->kind, br->hpa != NULL),
                               .grid = br->grid,
                               .hpa = br->hpa,
                               .by_hpa = br->hpa != NULL,
                               .mesh = br->mesh,
                               .waypoints = br->waypoints,
                               .snap = br->snap,
                               .index = index};
}

nav_status nav_world_builder_create(const nav_allocator *allocator, const nav_log *log,
                                    nav_world_builder **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_allocator a;
    nav__allocator_resolve(&a, allocator);
    nav_world_builder *b = nav__calloc(&a, 1, sizeof *b);
    *out = b;
    if (!b) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    b->allocator = a;
    if (log) b->log = *log;
    return NAV_SUCCESS;
}

void nav_world_builder_destroy(nav_world_builder *b)
{
    if (!b) return;
    for (size_t i = 0; i < arrlenu(b->owned); i++) nav__world_owned_destroy(&b->owned[i]);
    arrfree(b->owned);
    arrfree(b->regions);
    arrfree(b->links);
    nav__index_free(&b->by_name);
    nav__free(&b->allocator, b);
}

static bool name_ok(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (n == 0 || n > NAV_WORLD_MAX_NAME) return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f) return false;
    return true;
}

/* Adds a region of any kind (r: its kind and planner; its name from `name`). */
static nav_status add_region(nav_world_builder *b, const char *name, builder_region r, uint32_t *region)
{
    if (region) *region = NAV_WORLD_NONE;
    if (!name_ok(name)) {
        nav__logf(&b->log, NAV_LOG_ERROR, "region %u: a name is 1 to %d bytes, no control characters",
                  (unsigned)arrlenu(b->regions), NAV_WORLD_MAX_NAME);
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    uint32_t taken = nav__world_builder_find(b, name);
    if (taken != NAV_WORLD_NONE) {
        nav__logf(&b->log, NAV_LOG_ERROR, "region %u: the name \"%s\" is taken by region %u",
                  (unsigned)arrlenu(b->regions), name, taken);
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    if (arrlenu(b->regions) >= NAV_WORLD_MAX_REGIONS) return NAV_FAILURE | NAV_TOO_LARGE;
    strcpy(r.name, name);
    uint32_t index = (uint32_t)arrlenu(b->regions);
    if (!nav__arr_reserve(b->regions, 1) ||
        !nav__index_add(&b->by_name, nav__index_hash_string(name), index)) {
        nav__logf(&b->log, NAV_LOG_ERROR, "region %u (\"%s\"): out of memory", index, name);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    nav__arr_put_reserved(b->regions, r);
    if (region) *region = index;
    return NAV_SUCCESS;
}

nav_status nav_world_builder_add_grid(nav_world_builder *b, const char *name, const nav_grid *grid,
                                      uint32_t *region)
{
    if (region) *region = NAV_WORLD_NONE;
    if (!b || !grid) return NAV_FAILURE | NAV_INVALID_PARAM;
    return add_region(b, name, (builder_region){.kind = NAV_WORLD_REGION_GRID, .grid = grid}, region);
}

nav_status nav_world_builder_add_grid_hpa(nav_world_builder *b, const char *name, const nav_grid *grid,
                                          const nav_hpa *hpa, uint32_t *region)
{
    if (region) *region = NAV_WORLD_NONE;
    if (!b || !grid || !hpa) return NAV_FAILURE | NAV_INVALID_PARAM;
    if (nav_hpa_grid_fingerprint(hpa) != nav_grid_fingerprint(grid)) {
        nav__logf(&b->log, NAV_LOG_ERROR, "region %u (\"%s\"): its HPA* bake was made from another grid",
                  (unsigned)arrlenu(b->regions), name ? name : "");
        return NAV_FAILURE | NAV_SOURCE_MISMATCH;
    }
    return add_region(b, name, (builder_region){.kind = NAV_WORLD_REGION_GRID, .grid = grid, .hpa = hpa},
                      region);
}

nav_status nav_world_builder_add_mesh(nav_world_builder *b, const char *name, const nav_mesh *mesh,
                                      uint32_t *region)
{
    if (region) *region = NAV_WORLD_NONE;
    if (!b || !mesh) return NAV_FAILURE | NAV_INVALID_PARAM;
    return add_region(b, name, (builder_region){.kind = NAV_WORLD_REGION_MESH, .mesh = mesh}, region);
}

nav_status nav_world_builder_add_waypoints(nav_world_builder *b, const char *name,
                                           const nav_waypoints *waypoints, double snap, uint32_t *region)
{
    if (region) *region = NAV_WORLD_NONE;
    if (!b || !waypoints || !(snap >= 0 && isfinite(snap))) return NAV_FAILURE | NAV_INVALID_PARAM;
    return add_region(b, name,
                      (builder_region){.kind = NAV_WORLD_REGION_WAYPOINTS,
                                       .waypoints = waypoints,
                                       .snap = snap > 0 ? snap : 1},
                      region);
}

bool nav__world_builder_locate(const nav_world_builder *b, uint32_t region, nav_vec3 p, nav_world_place *out)
{
    if (region >= arrlenu(b->regions) || !(isfinite(p.x) && isfinite(p.y) && isfinite(p.z))) return false;
    nav__world_region probe = region_of(&b->regions[region], region);
    if (!probe.ops->locate(&probe, p, out)) return false;
    out->region = region;
    return true;
}

/* The place of a point in region r for a link's end, or false (logged). */
static bool link_end(const nav_world_builder *b, uint32_t link, const char *link_name, const char *end,
                     uint32_t region, nav_vec3 p, nav_world_place *out)
{
    if (region >= arrlenu(b->regions)) {
        nav__logf(&b->log, NAV_LOG_ERROR, "link %u (\"%s\"): its %s region %u does not exist (%u regions)",
                  link, link_name, end, region, (unsigned)arrlenu(b->regions));
        return false;
    }
    if (!nav__world_builder_locate(b, region, p, out)) {
        nav__logf(&b->log, NAV_LOG_ERROR,
                  "link %u (\"%s\"): its %s point (%g, %g, %g) is at no walkable place of region \"%s\"",
                  link, link_name, end, (double)p.x, (double)p.y, (double)p.z, b->regions[region].name);
        return false;
    }
    return true;
}

nav_status nav_world_builder_add_link(nav_world_builder *b, const nav_world_link_desc *desc, uint32_t *id)
{
    if (id) *id = NAV_WORLD_NONE;
    if (!b || !desc) return NAV_FAILURE | NAV_INVALID_PARAM;
    uint32_t index = (uint32_t)arrlenu(b->links);
    if (index >= NAV_WORLD_MAX_LINKS) return NAV_FAILURE | NAV_TOO_LARGE;
    builder_link l = {.desc = *desc};
    const char *shown = desc->name ? desc->name : "";
    if (desc->name) {
        if (!name_ok(desc->name)) {
            nav__logf(&b->log, NAV_LOG_ERROR, "link %u: a name is 1 to %d bytes, no control characters",
                      index, NAV_WORLD_MAX_NAME);
            return NAV_FAILURE | NAV_INVALID_PARAM;
        }
        strcpy(l.name, desc->name);
        l.named = true;
    }
    if (l.desc.kind == 0) l.desc.kind = NAV_LINK_DOOR;
    if ((int)l.desc.kind < 0 || l.desc.kind >= NAV_LINK_KIND_COUNT) {
        nav__logf(&b->log, NAV_LOG_ERROR, "link %u (\"%s\"): kind %d is none of nav_world_link_kind", index,
                  shown, (int)l.desc.kind);
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    if (!link_end(b, index, shown, "from", desc->from_region, desc->from, &l.from) ||
        !link_end(b, index, shown, "to", desc->to_region, desc->to, &l.to))
        return NAV_FAILURE | NAV_INVALID_PARAM;
    if (l.desc.cost == 0) {
        double dx = (double)desc->to.x - desc->from.x, dy = (double)desc->to.y - desc->from.y,
               dz = (double)desc->to.z - desc->from.z;
        l.desc.cost = sqrt(dx * dx + dy * dy + dz * dz);
    }
    if (!(l.desc.cost > 0 && l.desc.cost <= NAV_WORLD_MAX_LINK_COST)) {
        nav__logf(
            &b->log, NAV_LOG_ERROR,
            "link %u (\"%s\"): its cost %g is not above 0 and at most %g (two points in one place need a "
            "cost of their own)",
            index, shown, desc->cost, NAV_WORLD_MAX_LINK_COST);
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    if (!nav__arr_push(b->links, l)) {
        nav__logf(&b->log, NAV_LOG_ERROR, "link %u (\"%s\"): out of memory", index, shown);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    if (id) *id = index;
    return NAV_SUCCESS;
}

/* ---- Bake ------------------------------------------------------------------------------------- */

/* Copies the builder's regions, links and names into w (allocated through w's allocator). */
static nav_status copy_inputs(const nav_world_builder *b, nav_world *w)
{
    const nav_allocator *a = &w->allocator;
    size_t names = 1;
    for (uint32_t r = 0; r < w->region_count; r++) names += strlen(b->regions[r].name) + 1;
    for (uint32_t k = 0; k < w->link_count; k++)
        names += b->links[k].named ? strlen(b->links[k].name) + 1 : 0;
    if (names > UINT32_MAX) return NAV_FAILURE | NAV_TOO_LARGE;
    w->names = nav__alloc(a, names);
    w->regions = nav__calloc(a, w->region_count, sizeof *w->regions);
    w->links = nav__calloc(a, w->link_count ? w->link_count : 1, sizeof *w->links);
    if (!w->names || !w->regions || !w->links) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    uint32_t at = 0;
    w->names[at++] = '\0'; /* offset 0: the empty name */
    for (uint32_t r = 0; r < w->region_count; r++) {
        const builder_region *br = &b->regions[r];
        w->regions[r] = region_of(br, r);
        w->regions[r].name = at;
        nav__world_note_region(w, r);
        size_t n = strlen(br->name) + 1;
        memcpy(w->names + at, br->name, n);
        at += (uint32_t)n;
    }
    for (uint32_t k = 0; k < w->link_count; k++) {
        const builder_link *bl = &b->links[k];
        w->links[k] = (nav__world_link){.kind = bl->desc.kind,
                                        .name = 0,
                                        .cost = bl->desc.cost,
                                        .one_way = bl->desc.one_way,
                                        .disabled = bl->desc.disabled};
        if (bl->named) {
            size_t n = strlen(bl->name) + 1;
            memcpy(w->names + at, bl->name, n);
            w->links[k].name = at;
            at += (uint32_t)n;
        }
    }
    w->names_size = at;
    return NAV_SUCCESS;
}

/* The chokepoints (two a link) and each region's list of them. */
static nav_status place_chokepoints(const nav_world_builder *b, nav_world *w)
{
    const nav_allocator *a = &w->allocator;
    uint32_t n = w->choke_count;
    w->choke = nav__calloc(a, n ? n : 1, sizeof *w->choke);
    if (!w->choke) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (uint32_t k = 0; k < w->link_count; k++) {
        w->choke[2 * k] = b->links[k].from;
        w->choke[2 * k + 1] = b->links[k].to;
    }
    return nav__world_index_chokepoints(w);
}

/* The regions of a part bake (only_region, or a shard), or none for a whole bake. */
static nav_status choose_part(nav_world *w, const nav_world_bake_desc *desc, const nav_log *log)
{
    if (!desc->only_region && !desc->shards) return NAV_SUCCESS;
    if ((desc->only_region && desc->shards) || desc->shard >= (desc->shards ? desc->shards : 1) ||
        desc->part_count) {
        nav__logf(log, NAV_LOG_ERROR, "a part bake takes only_region or a shard below shards, and no parts");
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    w->part_list = nav__alloc(&w->allocator, w->region_count * sizeof *w->part_list);
    if (!w->part_list) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (uint32_t r = 0; r < w->region_count; r++)
        if (desc->only_region ? !strcmp(nav__world_name(w, w->regions[r].name), desc->only_region)
                              : r % desc->shards == desc->shard)
            w->part_list[w->part_count++] = r;
    if (desc->only_region && w->part_count == 0) {
        nav__logf(log, NAV_LOG_ERROR, "only_region: no region named \"%s\"", desc->only_region);
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    return NAV_SUCCESS;
}

nav_status nav_world_bake(const nav_world_builder *b, const nav_world_bake_desc *desc, nav_world **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!b) return NAV_FAILURE | NAV_INVALID_PARAM;
    if (arrlenu(b->regions) == 0) {
        nav__logf(&b->log, NAV_LOG_ERROR, "a world needs at least one region");
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    nav_allocator a = b->allocator;
    if (desc && desc->allocator) nav__allocator_resolve(&a, desc->allocator);
    nav_world *w = nav__calloc(&a, 1, sizeof *w);
    if (!w) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    w->allocator = a;
    w->region_count = (uint32_t)arrlenu(b->regions);
    w->link_count = (uint32_t)arrlenu(b->links);
    w->choke_count = 2 * w->link_count;
    nav_status s = copy_inputs(b, w);
    if (!nav_failed(s) && desc) s = choose_part(w, desc, &b->log);
    if (!nav_failed(s)) s = place_chokepoints(b, w);
    if (!nav_failed(s) && desc && desc->part_count)
        s = nav__world_tables_from_parts(
            w, desc->parts, desc->part_count,
            desc->max_table_bytes ? desc->max_table_bytes : NAV_WORLD_DEFAULT_MAX_TABLE_BYTES, &b->log);
    else if (!nav_failed(s))
        s = nav__world_fill_tables(w, desc, &b->log);
    if (!nav_failed(s)) s = nav__world_finish(w);
    if (!nav_failed(s) && arrlenu(b->owned)) { /* the builder's objects change owner: it keeps none */
        w->owned = nav__calloc(&a, arrlenu(b->owned), sizeof *w->owned);
        if (!w->owned) s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    if (!nav_failed(s) && arrlenu(b->owned)) {
        nav_world_builder *mutable = (nav_world_builder *)b;
        memcpy(w->owned, b->owned, arrlenu(b->owned) * sizeof *w->owned);
        w->owned_count = (uint32_t)arrlenu(b->owned);
        nav__arr_truncate(mutable->owned, 0);
    }
    if (nav_failed(s)) {
        nav_world_destroy(w);
        return s;
    }
    *out = w;
    return NAV_SUCCESS;
}
