/* Building and baking a world: regions and links gathered in a builder (stb_ds, bake time only),
 * then each region's table of costs between its chokepoints, one fan a chokepoint. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "ds.h"
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
    struct {
        char *key;
        uint32_t value;
    } * by_name;             /* stb_ds string map: region name -> index */
    nav__world_owned *owned; /* stb_ds array: handed to the world at bake */
};

static void destroy_owned(nav__world_owned *o)
{
    nav_hpa_destroy(o->hpa);
    nav_mesh_destroy(o->mesh);
    nav_waypoints_destroy(o->waypoints);
    nav_grid_destroy(o->grid);
}

void nav__world_builder_keep(nav_world_builder *b, nav_grid *grid, nav_mesh *mesh, nav_waypoints *wp,
                             nav_hpa *hpa)
{
    nav__world_owned o = {grid, mesh, wp, hpa};
    if (grid || mesh || wp || hpa) arrput(b->owned, o);
}

uint32_t nav__world_builder_region_count(const nav_world_builder *b)
{
    return (uint32_t)arrlenu(b->regions);
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

uint32_t nav__world_builder_find(const nav_world_builder *b, const char *name)
{
    nav_world_builder *mutable = (nav_world_builder *)b; /* stb_ds's lookups write a header field */
    ptrdiff_t i = shgeti(mutable->by_name, name);
    return i < 0 ? NAV_WORLD_NONE : mutable->by_name[i].value;
}

static const nav__world_region_ops *ops_of(nav_world_region_kind kind, bool by_hpa)
{
    switch (kind) {
    case NAV_WORLD_REGION_GRID:
        return by_hpa ? &nav__world_grid_hpa_ops : &nav__world_grid_ops;
    case NAV_WORLD_REGION_MESH:
        return &nav__world_mesh_ops;
    case NAV_WORLD_REGION_WAYPOINTS:
        return &nav__world_waypoints_ops;
    }
    return NULL;
}

/* The region as the bake will hold it (names, chokepoints and table left out). */
static nav__world_region region_of(const builder_region *br, uint32_t index)
{
    return (nav__world_region){.kind = br->kind,
                               .ops = ops_of(br->kind, br->hpa != NULL),
                               .grid = br->grid,
                               .hpa = br->hpa,
                               .by_hpa = br->hpa != NULL,
                               .mesh = br->mesh,
                               .waypoints = br->waypoints,
                               .snap = br->snap,
                               .index = index};
}

const char *nav_world_link_kind_name(nav_world_link_kind kind)
{
    static const char *const names[NAV_LINK_KIND_COUNT] = {"?",    "door",   "stairs", "bridge", "ladder",
                                                           "gate", "portal", "jump",   "border"};
    return kind > 0 && kind < NAV_LINK_KIND_COUNT ? names[kind] : "?";
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
    sh_new_strdup(b->by_name);
    return NAV_SUCCESS;
}

void nav_world_builder_destroy(nav_world_builder *b)
{
    if (!b) return;
    for (size_t i = 0; i < arrlenu(b->owned); i++) destroy_owned(&b->owned[i]);
    arrfree(b->owned);
    arrfree(b->regions);
    arrfree(b->links);
    shfree(b->by_name);
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
    if (shgeti(b->by_name, name) >= 0) {
        nav__logf(&b->log, NAV_LOG_ERROR, "region %u: the name \"%s\" is taken by region %u",
                  (unsigned)arrlenu(b->regions), name, shget(b->by_name, name));
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    if (arrlenu(b->regions) >= NAV_WORLD_MAX_REGIONS) return NAV_FAILURE | NAV_TOO_LARGE;
    strcpy(r.name, name);
    uint32_t index = (uint32_t)arrlenu(b->regions);
    arrput(b->regions, r);
    shput(b->by_name, name, index);
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

/* The place of a point in region r for a link's end, or false (logged). */
static bool link_end(const nav_world_builder *b, uint32_t link, const char *link_name, const char *end,
                     uint32_t region, nav_vec3 p, nav_world_place *out)
{
    if (region >= arrlenu(b->regions)) {
        nav__logf(&b->log, NAV_LOG_ERROR, "link %u (\"%s\"): its %s region %u does not exist (%u regions)",
                  link, link_name, end, region, (unsigned)arrlenu(b->regions));
        return false;
    }
    const builder_region *r = &b->regions[region];
    nav__world_region probe = region_of(r, region);
    if (!(isfinite(p.x) && isfinite(p.y) && isfinite(p.z)) || !probe.ops->locate(&probe, p, out)) {
        nav__logf(&b->log, NAV_LOG_ERROR,
                  "link %u (\"%s\"): its %s point (%g, %g, %g) is at no walkable place of region \"%s\"",
                  link, link_name, end, (double)p.x, (double)p.y, (double)p.z, r->name);
        return false;
    }
    out->region = region;
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
    arrput(b->links, l);
    if (id) *id = index;
    return NAV_SUCCESS;
}

/* ---- Bake ------------------------------------------------------------------------------------- */

void nav_world_destroy(nav_world *w)
{
    if (!w) return;
    nav_allocator a = w->allocator;
    nav__free(&a, w->regions);
    nav__free(&a, w->links);
    nav__free(&a, w->choke);
    nav__free(&a, w->region_choke);
    nav__free(&a, w->choke_slot);
    nav__free(&a, w->choke_by_id);
    nav__free(&a, w->path_first);
    nav__free(&a, w->path_bytes);
    nav__free(&a, w->table);
    nav__free(&a, w->names);
    nav__free(&a, w->by_name);
    nav__free(&a, (void *)w->state.bits);
    for (uint32_t i = 0; i < w->owned_count; i++) destroy_owned(&w->owned[i]);
    nav__free(&a, w->owned);
    nav__free(&a, w->bucket_first);
    nav__free(&a, w->bucket_regions);
    nav__free(&a, w->bucket_fill);
    nav__free(&a, w->part_list);
    nav__world_cache_destroy(w->cache, &a);
    nav__free(&a, w);
}

/* Region indices ordered by name (for nav_world_find_region's binary search): a merge sort, so that
 * a file of a million regions in any order sorts in n log n. */
static nav_status sort_by_name(nav_world *w)
{
    uint32_t n = w->region_count;
    w->by_name = nav__alloc(&w->allocator, n * sizeof *w->by_name);
    uint32_t *other = nav__alloc(&w->allocator, n * sizeof *other);
    if (!w->by_name || !other) {
        nav__free(&w->allocator, other);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < n; i++) w->by_name[i] = i;
    uint32_t *from = w->by_name, *to = other;
    for (uint32_t width = 1; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = lo + width < n ? lo + width : n, hi = mid + width < n ? mid + width : n;
            uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                to[k++] = strcmp(nav__world_name(w, w->regions[from[j]].name),
                                 nav__world_name(w, w->regions[from[i]].name)) < 0
                              ? from[j++]
                              : from[i++];
            while (i < mid) to[k++] = from[i++];
            while (j < hi) to[k++] = from[j++];
        }
        uint32_t *t = from;
        from = to, to = t;
    }
    if (from != w->by_name) memcpy(w->by_name, from, n * sizeof *from);
    nav__free(&w->allocator, other);
    return NAV_SUCCESS;
}

static uint64_t cells_of(const nav_grid *grid)
{
    return (uint64_t)nav_grid_width(grid) * (uint64_t)nav_grid_height(grid);
}

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

/* A region's extent in x and z (min x, min z, max x, max z), with a margin. */
static void region_box(const nav__world_region *r, double box[4])
{
    box[0] = box[1] = INFINITY, box[2] = box[3] = -INFINITY;
    if (r->grid) {
        const nav_grid_desc *d = nav_grid_get_desc(r->grid);
        box[0] = d->origin.x, box[1] = d->origin.z;
        box[2] = d->origin.x + (double)nav_grid_width(r->grid) * d->cell_size;
        box[3] = d->origin.z + (double)nav_grid_height(r->grid) * d->cell_size;
    }
    for (uint32_t i = 0; r->mesh && i < nav_mesh_vert_count(r->mesh); i++) {
        nav_vec3 v = nav_mesh_vert(r->mesh, i);
        box[0] = fmin(box[0], v.x), box[1] = fmin(box[1], v.z), box[2] = fmax(box[2], v.x),
        box[3] = fmax(box[3], v.z);
    }
    for (uint32_t i = 0; r->waypoints && i < nav_waypoints_count(r->waypoints); i++) {
        nav_vec3 v = nav_waypoints_position(r->waypoints, i);
        box[0] = fmin(box[0], v.x - r->snap), box[1] = fmin(box[1], v.z - r->snap);
        box[2] = fmax(box[2], v.x + r->snap), box[3] = fmax(box[3], v.z + r->snap);
    }
    /* a margin: a point on the box's far edge, or a mesh's locate tolerance, still falls inside */
    box[0] -= 1e-3, box[1] -= 1e-3, box[2] += 1e-3, box[3] += 1e-3;
}

void nav__world_region_facts(const nav__world_region *region, double box[4], bool *symmetric, uint64_t *cells)
{
    /* (HPA*'s way from a to b need not be its way from b to a walked back) */
    *symmetric = region->grid && !region->by_hpa && nav_grid_uniform_cost(region->grid) > 0 &&
                 nav_grid_moves_reversible(region->grid);
    *cells = region->grid ? cells_of(region->grid) : 0;
    region_box(region, box);
}

void nav__world_note_region(nav_world *w, uint32_t r)
{
    nav__world_region *region = &w->regions[r];
    region->ops = ops_of(region->kind, region->by_hpa);
    region->index = r;
    w->mesh_regions += region->kind == NAV_WORLD_REGION_MESH;
    w->hpa_regions += region->by_hpa;
    if (!w->cache) nav__world_region_facts(region, region->box, &region->symmetric, &region->cells);
    if (!region->by_hpa && region->cells > w->largest_cells) { /* (HPA*'s grids need no cell scratch) */
        w->largest_cells = region->cells;
        w->largest_grid = region->grid; /* null while regions load on demand */
    }
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

nav_status nav__world_index_chokepoints(nav_world *w)
{
    const nav_allocator *a = &w->allocator;
    uint32_t n = w->choke_count;
    w->region_choke = nav__calloc(a, n ? n : 1, sizeof *w->region_choke);
    w->choke_slot = nav__calloc(a, n ? n : 1, sizeof *w->choke_slot);
    if (!w->region_choke || !w->choke_slot) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (uint32_t c = 0; c < n; c++) w->regions[w->choke[c].region].choke_count++;
    uint32_t first = 0;
    uint64_t table = 0;
    for (uint32_t r = 0; r < w->region_count; r++) {
        nav__world_region *region = &w->regions[r];
        region->choke_first = first;
        region->table_first = table;
        first += region->choke_count;
        table += (uint64_t)region->choke_count * region->choke_count;
        if (region->choke_count > w->max_region_chokes) w->max_region_chokes = region->choke_count;
        region->choke_count = 0; /* counted again as they are placed */
    }
    for (uint32_t c = 0; c < n; c++) { /* ascending chokepoints in each region's list */
        nav__world_region *region = &w->regions[w->choke[c].region];
        w->choke_slot[c] = region->choke_count;
        w->region_choke[region->choke_first + region->choke_count++] = c;
    }
    /* and by place id, for a search over a grid's cells to find the chokepoints of a cell */
    w->choke_by_id = nav__alloc(a, (n ? n : 1) * sizeof *w->choke_by_id);
    if (!w->choke_by_id) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    memcpy(w->choke_by_id, w->region_choke, n * sizeof *w->choke_by_id);
    for (uint32_t r = 0; r < w->region_count; r++) { /* insertion sort: ids are mostly in order already */
        uint32_t *list = w->choke_by_id + w->regions[r].choke_first;
        for (uint32_t i = 1; i < w->regions[r].choke_count; i++) {
            uint32_t c = list[i], j = i;
            for (; j > 0 && w->choke[list[j - 1]].id > w->choke[c].id; j--) list[j] = list[j - 1];
            list[j] = c;
        }
    }
    w->table_size = table;
    if (table > SIZE_MAX / sizeof *w->table) return NAV_FAILURE | NAV_TOO_LARGE;
    w->table = nav__alloc(a, (size_t)(table ? table : 1) * sizeof *w->table);
    return w->table ? NAV_SUCCESS : NAV_FAILURE | NAV_OUT_OF_MEMORY;
}

/* Each region's table: one fan from each of its chokepoints to all of them, regions spread over
 * threads (each with a scratch of its own; the tables are the same at any thread count). On grids
 * each entry's way is kept too, as runs of moves (path_first, path_bytes), so that a query lays a leg
 * between two chokepoints of a tile without a search: a thread writes a region's runs to a buffer of
 * its own (the system heap: the caller's allocator is only called from the caller's thread), the
 * calling thread joins them in region order. */
typedef struct table_scratch {
    nav__world_scratch planners;
    nav_world_place *targets;
    nav_path cells;
} table_scratch;

typedef struct table_job {
    nav_world *w;
    uint8_t **runs;   /* a region's runs, concatenated in table order (system heap) */
    uint64_t *length; /* their bytes */
} table_job;

static bool table_init(void *ctx, void **out)
{
    nav_world *w = ((table_job *)ctx)->w;
    table_scratch *t = nav__calloc(&w->allocator, 1, sizeof *t);
    *out = t;
    if (!t) return false;
    nav_path_init(&t->cells, NULL);
    t->targets = nav__alloc(&w->allocator, ((size_t)w->max_region_chokes + 1) * sizeof *t->targets);
    if (!t->targets) return false;
    if (nav_failed(nav__world_scratch_init(&t->planners, w, &w->allocator, NULL))) {
        nav__free(&w->allocator, t->targets);
        t->targets = NULL;
        return false;
    }
    return true;
}

static void table_fini(void *ctx, void *scratch)
{
    nav_world *w = ((table_job *)ctx)->w;
    table_scratch *t = scratch;
    if (!t) return;
    if (t->targets) {
        nav__free(&w->allocator, t->targets);
        nav__world_scratch_free(&t->planners, w);
    }
    nav_path_destroy(&t->cells);
    nav__free(&w->allocator, t);
}

/* Appends the runs of moves of the last fan's way to cell `to` to *runs (length *n, room *room):
 * false when out of memory. The entry's byte count goes to *bytes. */
static bool keep_way(table_scratch *t, const nav_grid *grid, uint32_t to, uint8_t **runs, uint64_t *n,
                     uint64_t *room, uint64_t *bytes)
{
    nav_allocator heap;
    nav__allocator_resolve(&heap, NULL);
    nav_path_clear(&t->cells);
    if (nav_failed(nav_region_fan_path(t->planners.grid, to, &t->cells))) return false;
    uint64_t before = *n;
    for (uint32_t i = 1; i < t->cells.count;) {
        int32_t step = (int32_t)t->cells.nodes[i] - (int32_t)t->cells.nodes[i - 1];
        int d = 0;
        while (d < 8 && grid->offset[d] != step) d++;
        if (d == 8) return false; /* never: a fan's way is made of moves */
        uint32_t run = 1;
        while (run < 32 && i + run < t->cells.count &&
               (int32_t)t->cells.nodes[i + run] - (int32_t)t->cells.nodes[i + run - 1] == step)
            run++;
        if (*n == *room) {
            uint64_t grown = *room ? 2 * *room : 4096;
            uint8_t *more = nav__realloc(&heap, *runs, (size_t)*room, (size_t)grown);
            if (!more) return false;
            *runs = more, *room = grown;
        }
        (*runs)[(*n)++] = (uint8_t)(d << 5 | (int)(run - 1));
        i += run;
    }
    *bytes = *n - before;
    return true;
}

static bool table_run(void *ctx, void *scratch, uint32_t r)
{
    table_job *job = ctx;
    nav_world *w = job->w;
    table_scratch *t = scratch;
    const nav__world_region *region = &w->regions[r];
    uint32_t k = region->choke_count;
    for (uint32_t j = 0; j < k; j++) t->targets[j] = w->choke[w->region_choke[region->choke_first + j]];
    double *table = w->table + region->table_first;
    uint64_t *length = w->path_first + region->table_first + 1, n = 0, room = 0;
    for (uint32_t i = 0; i < k; i++) {
        /* on a symmetric grid, fan i needs only the chokepoints after it, and fills row and column */
        uint32_t from = region->symmetric ? i : 0;
        double *row = table + (uint64_t)i * k;
        if (nav_failed(region->ops->fan(&t->planners, region, &t->targets[i], false, t->targets + from,
                                        k - from, row + from)))
            return false;
        for (uint32_t j = from; region->symmetric && j < k; j++) table[(uint64_t)j * k + i] = row[j];
        for (uint32_t j = from; region->grid && !region->by_hpa && j < k; j++)
            if (j != i && row[j] < INFINITY &&
                !keep_way(t, region->grid, t->targets[j].id, &job->runs[r], &n, &room,
                          &length[(uint64_t)i * k + j]))
                return false;
    }
    job->length[r] = n;
    return true;
}

static bool table_run_only(void *ctx, void *scratch, uint32_t i)
{
    return table_run(ctx, scratch, ((table_job *)ctx)->w->part_list[i]);
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

static nav_status fill_tables(nav_world *w, uint32_t threads, const nav_progress *progress)
{
    const nav_allocator *a = &w->allocator;
    w->path_first = nav__calloc(a, (size_t)w->table_size + 1, sizeof *w->path_first);
    table_job job = {w, nav__calloc(a, w->region_count, sizeof *job.runs),
                     nav__calloc(a, w->region_count, sizeof *job.length)};
    nav_status s = w->path_first && job.runs && job.length ? NAV_SUCCESS : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (!nav_failed(s)) {
        bool part = w->part_list != NULL; /* a part bake: its regions' tables only */
        nav__work work = {.count = part ? w->part_count : w->region_count,
                          .init = table_init,
                          .run = part ? table_run_only : table_run,
                          .fini = table_fini,
                          .ctx = &job,
                          .stage = "fans",
                          .progress = progress};
        s = nav__parallel(&work, threads);
    }
    if (!nav_failed(s)) { /* every entry's runs joined, in table order */
        uint64_t total = 0;
        for (uint32_t r = 0; r < w->region_count; r++) total += job.length[r];
        w->path_bytes = total <= SIZE_MAX ? nav__alloc(a, total ? (size_t)total : 1) : NULL;
        if (!w->path_bytes) s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
        for (uint64_t e = 0; e < w->table_size; e++) w->path_first[e + 1] += w->path_first[e];
        for (uint32_t r = 0; r < w->region_count && !nav_failed(s); r++)
            if (job.length[r])
                memcpy(w->path_bytes + w->path_first[w->regions[r].table_first], job.runs[r],
                       (size_t)job.length[r]);
        w->path_size = total;
    }
    nav_allocator heap;
    nav__allocator_resolve(&heap, NULL);
    for (uint32_t r = 0; job.runs && r < w->region_count; r++) nav__free(&heap, job.runs[r]);
    nav__free(a, job.runs);
    nav__free(a, job.length);
    return s;
}

/* The least cost a world unit of horizontal travel can have anywhere, in two measures of the ground
 * covered (metric 0: straight-line distance; 1: the octile distance, max + (sqrt 2 - 1) min of the
 * x and z differences, which 8-connected grids walk exactly): over the regions' cheapest terrain (a
 * grid's diagonal counted at its length; a mesh's segments cover at most 1.0824 times their length
 * in octile measure), and the waypoint, off-mesh and world links that cost less than what they
 * cover. Any route between two places costs at least this times their distance in that measure:
 * each of its steps does, and both measures obey the triangle inequality. So both products, and
 * the larger of the two, are consistent estimates for the search. */
#define OCTILE_OVER_EUCLID 1.0823922002923940 /* the most the octile distance exceeds the straight one */

static double cover(nav_vec3 a, nav_vec3 b, int metric)
{
    return metric ? nav__world_octile(a, b) : nav__world_dist_xz(a, b);
}

static double cost_floor(const nav_world *w, int metric)
{
    double floor = INFINITY;
    for (uint32_t r = 0; r < w->region_count; r++) {
        const nav__world_region *region = &w->regions[r];
        if (region->grid) {
            const nav_grid_desc *d = nav_grid_get_desc(region->grid);
            floor = nav__world_min(floor,
                                   nav_grid_min_cost(region->grid) * fmin(1.0, d->diagonal_cost / sqrt(2.0)));
        }
        if (region->mesh) {
            for (uint32_t p = 0; p < nav_mesh_poly_count(region->mesh); p++) {
                nav_mesh_poly_info info;
                nav_mesh_poly(region->mesh, p, &info);
                floor = nav__world_min(floor, nav_mesh_area_cost(region->mesh, info.area) /
                                                  (metric ? OCTILE_OVER_EUCLID : 1.0));
            }
            for (uint32_t l = 0; l < nav_mesh_link_count(region->mesh); l++) {
                nav_mesh_link_info info;
                nav_mesh_link(region->mesh, l, &info);
                floor = nav__world_min(floor, info.cost / cover(info.start, info.end, metric));
            }
        }
        for (uint32_t l = 0; region->waypoints && l < nav_waypoints_link_count(region->waypoints); l++) {
            nav_waypoint_link link;
            nav_waypoints_link(region->waypoints, l, &link);
            nav_vec3 a = nav_waypoints_position(region->waypoints, link.from),
                     b = nav_waypoints_position(region->waypoints, link.to);
            double cost = link.cost > 0 ? link.cost : nav__world_dist3(a, b);
            floor = nav__world_min(floor, cost / cover(a, b, metric));
        }
    }
    for (uint32_t k = 0; k < w->link_count; k++)
        floor = nav__world_min(
            floor, w->links[k].cost / cover(w->choke[2 * k].position, w->choke[2 * k + 1].position, metric));
    /* a little below, for the floats' rounding; 0 when nothing bounds it (Dijkstra) */
    return floor < INFINITY && floor > 0 ? floor * (1 - 1e-9) : 0;
}

/* Where each region lies, for locate: a grid of buckets over the world (each the side of the largest
 * region), each listing the regions whose box meets it, in ascending order. */
static nav_status build_buckets(nav_world *w)
{
    double all[4] = {INFINITY, INFINITY, -INFINITY, -INFINITY}, side = 0;
    for (uint32_t r = 0; r < w->region_count; r++) {
        const double *box = w->regions[r].box;
        if (!(box[2] >= box[0])) continue; /* nothing in it */
        all[0] = fmin(all[0], box[0]), all[1] = fmin(all[1], box[1]);
        all[2] = fmax(all[2], box[2]), all[3] = fmax(all[3], box[3]);
        side = fmax(side, fmax(box[2] - box[0], box[3] - box[1]));
    }
    if (!(side > 0)) side = 1;
    w->bucket_x0 = all[0] < INFINITY ? all[0] : 0, w->bucket_z0 = all[1] < INFINITY ? all[1] : 0;
    w->bucket_side = side;
    double across = all[0] < INFINITY ? ceil((all[2] - all[0]) / side) : 1,
           down = all[1] < INFINITY ? ceil((all[3] - all[1]) / side) : 1;
    if (across * down > 1e7) return NAV_FAILURE | NAV_TOO_LARGE; /* regions strewn far apart */
    w->buckets_across = (uint32_t)fmax(1, across), w->buckets_down = (uint32_t)fmax(1, down);
    uint32_t buckets = w->buckets_across * w->buckets_down;
    w->bucket_first = nav__calloc(&w->allocator, (size_t)buckets + 1, sizeof *w->bucket_first);
    if (!w->bucket_first) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (int pass = 0; pass < 2; pass++) { /* count, then fill */
        uint64_t placed = 0;
        for (uint32_t r = 0; r < w->region_count; r++) {
            const double *box = w->regions[r].box;
            if (!(box[2] >= box[0])) continue;
            uint32_t x0, z0, x1, z1;
            nav__world_bucket(w, box[0], box[1], &x0, &z0);
            nav__world_bucket(w, box[2], box[3], &x1, &z1);
            for (uint32_t z = z0; z <= z1; z++)
                for (uint32_t x = x0; x <= x1; x++) {
                    uint32_t b = z * w->buckets_across + x;
                    if (pass == 0)
                        w->bucket_first[b + 1]++;
                    else
                        w->bucket_regions[w->bucket_first[b] + w->bucket_fill[b]++] = r;
                    placed++;
                }
        }
        if (pass == 0) {
            for (uint32_t b = 0; b < buckets; b++) w->bucket_first[b + 1] += w->bucket_first[b];
            if (placed > UINT32_MAX) return NAV_FAILURE | NAV_TOO_LARGE;
            w->bucket_regions = nav__alloc(&w->allocator, (placed ? placed : 1) * sizeof *w->bucket_regions);
            w->bucket_fill = nav__calloc(&w->allocator, buckets, sizeof *w->bucket_fill);
            if (!w->bucket_regions || !w->bucket_fill) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
            w->bucket_entries = (uint32_t)placed;
        }
    }
    nav__free(&w->allocator, w->bucket_fill);
    w->bucket_fill = NULL;
    return NAV_SUCCESS;
}

static nav_status init_state(nav_world *w)
{
    w->state.words = (w->link_count + 63) / 64;
    w->state.bits = nav__calloc(&w->allocator, w->state.words ? w->state.words : 1, sizeof *w->state.bits);
    if (!w->state.bits) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    atomic_init(&w->state.seq, 0);
    atomic_flag_clear(&w->state.writing);
    for (uint32_t k = 0; k < w->link_count; k++)
        if (!w->links[k].disabled)
            atomic_fetch_or_explicit(&w->state.bits[k / 64], 1ull << (k % 64), memory_order_relaxed);
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
        s = nav__world_tables_from_parts(w, desc->parts, desc->part_count, &b->log);
    else if (!nav_failed(s))
        s = fill_tables(w, desc ? desc->threads : 0, desc ? &desc->progress : NULL);
    if (!nav_failed(s)) s = nav__world_finish(w);
    if (!nav_failed(s) && arrlenu(b->owned)) { /* the builder's objects change owner: it keeps none */
        w->owned = nav__calloc(&a, arrlenu(b->owned), sizeof *w->owned);
        if (!w->owned) s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    if (!nav_failed(s) && arrlenu(b->owned)) {
        nav_world_builder *mutable = (nav_world_builder *)b;
        memcpy(w->owned, b->owned, arrlenu(b->owned) * sizeof *w->owned);
        w->owned_count = (uint32_t)arrlenu(b->owned);
        arrsetlen(mutable->owned, 0);
    }
    if (nav_failed(s)) {
        nav_world_destroy(w);
        return s;
    }
    *out = w;
    return NAV_SUCCESS;
}

nav_status nav__world_finish(nav_world *w)
{
    nav_status s = sort_by_name(w);
    if (!nav_failed(s)) s = build_buckets(w);
    /* (regions on demand: the file's floors stand, as its reader has no regions to work them out) */
    if (!nav_failed(s) && !w->cache)
        w->cost_floor = cost_floor(w, 0), w->cost_floor_octile = cost_floor(w, 1);
    if (!nav_failed(s)) s = init_state(w);
    if (nav_failed(s)) return s;
    w->bytes = sizeof *w + w->region_count * (sizeof *w->regions + sizeof *w->by_name) +
               w->link_count * sizeof *w->links +
               w->choke_count * (sizeof *w->choke + sizeof *w->region_choke + sizeof *w->choke_slot +
                                 sizeof *w->choke_by_id) +
               (size_t)w->table_size * sizeof *w->table + w->names_size + w->state.words * sizeof(uint64_t) +
               ((size_t)w->buckets_across * w->buckets_down + 1 + w->bucket_entries) * sizeof(uint32_t) +
               ((size_t)w->table_size + 1) * sizeof *w->path_first + (size_t)w->path_size;
    return NAV_SUCCESS;
}

/* ---- Reading ----------------------------------------------------------------------------------- */

void nav_world_get_info(const nav_world *w, nav_world_info *info)
{
    if (!info) return;
    *info = (nav_world_info){0};
    if (!w) return;
    info->regions = w->region_count;
    info->links = w->link_count;
    info->chokepoints = w->choke_count;
    info->region_edges = w->table_size;
    info->bytes = w->bytes;
}

size_t nav_world_memory_bytes(const nav_world *w)
{
    return w ? w->bytes : 0;
}

const char *nav_world_region_name(const nav_world *w, uint32_t region)
{
    return w && region < w->region_count ? nav__world_name(w, w->regions[region].name) : NULL;
}

nav_world_region_kind nav_world_region_kind_of(const nav_world *w, uint32_t region)
{
    return w && region < w->region_count ? w->regions[region].kind : (nav_world_region_kind)0;
}

const nav_grid *nav_world_region_grid(const nav_world *w, uint32_t region)
{
    return w && !w->cache && region < w->region_count ? w->regions[region].grid : NULL;
}

const nav_hpa *nav_world_region_hpa(const nav_world *w, uint32_t region)
{
    return w && !w->cache && region < w->region_count ? w->regions[region].hpa : NULL;
}

bool nav_world_region_by_hpa(const nav_world *w, uint32_t region)
{
    return w && region < w->region_count && w->regions[region].by_hpa;
}

const nav_mesh *nav_world_region_mesh(const nav_world *w, uint32_t region)
{
    return w && !w->cache && region < w->region_count ? w->regions[region].mesh : NULL;
}

const nav_waypoints *nav_world_region_waypoints(const nav_world *w, uint32_t region)
{
    return w && !w->cache && region < w->region_count ? w->regions[region].waypoints : NULL;
}

uint32_t nav_world_find_region(const nav_world *w, const char *name)
{
    if (!w || !name) return NAV_WORLD_NONE;
    uint32_t lo = 0, hi = w->region_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = strcmp(nav__world_name(w, w->regions[w->by_name[mid]].name), name);
        if (c == 0) return w->by_name[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NAV_WORLD_NONE;
}

bool nav_world_link(const nav_world *w, uint32_t link, nav_world_link_desc *out)
{
    if (!w || link >= w->link_count || !out) return false;
    const nav__world_link *l = &w->links[link];
    const nav_world_place *from = &w->choke[2 * link], *to = &w->choke[2 * link + 1];
    *out = (nav_world_link_desc){.name = l->name ? nav__world_name(w, l->name) : NULL,
                                 .kind = l->kind,
                                 .from_region = from->region,
                                 .to_region = to->region,
                                 .from = from->position,
                                 .to = to->position,
                                 .cost = l->cost,
                                 .one_way = l->one_way,
                                 .disabled = l->disabled};
    return true;
}

nav_status nav_world_locate(const nav_world *w, nav_vec3 point, nav_world_place *out)
{
    if (!w) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav__world_pins pins = {.allocator = w->allocator};
    nav_status s = nav__world_locate(w, point, out, &pins);
    nav__world_unpin_all(w, &pins);
    nav__world_pins_free(&pins);
    return s;
}

nav_status nav__world_locate(const nav_world *w, nav_vec3 point, nav_world_place *out, nav__world_pins *pins)
{
    if (!w || !out || !(isfinite(point.x) && isfinite(point.y) && isfinite(point.z)))
        return NAV_FAILURE | NAV_INVALID_PARAM;
    const float above = 0.5f; /* a floor this far above the point still counts as under it */
    bool found = false, below = false;
    uint32_t bx, bz;
    if (!nav__world_bucket(w, point.x, point.z, &bx, &bz)) return NAV_FAILURE | NAV_INVALID_PARAM;
    uint32_t b = bz * w->buckets_across + bx;
    for (uint32_t k = w->bucket_first[b]; k < w->bucket_first[b + 1]; k++) {
        uint32_t r = w->bucket_regions[k];
        const nav__world_region *region = &w->regions[r];
        const double *box = region->box; /* (a region on disk is read only when the point is in its box) */
        if (!(point.x >= box[0] && point.z >= box[1] && point.x <= box[2] && point.z <= box[3])) continue;
        nav_status s = nav__world_pin(w, r, pins);
        if (nav_failed(s)) return s;
        nav_world_place p;
        if (!region->ops->locate(region, point, &p)) continue;
        p.region = r;
        bool under = p.position.y <= point.y + above;
        /* the highest floor under the point; failing that, the lowest above it */
        bool better =
            !found || (under && !below) ||
            (under == below && (under ? p.position.y > out->position.y : p.position.y < out->position.y));
        if (better) *out = p, found = true, below = under;
    }
    return found ? NAV_SUCCESS : NAV_FAILURE | NAV_INVALID_PARAM;
}

/* ---- Link state ---------------------------------------------------------------------------------- */

nav_status nav_world_set_links(nav_world *w, const nav_world_link_change *changes, uint32_t count)
{
    if (!w || (count && !changes)) return NAV_FAILURE | NAV_INVALID_PARAM;
    for (uint32_t i = 0; i < count; i++)
        if (changes[i].link >= w->link_count) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav__world_state *st = &w->state;
    while (atomic_flag_test_and_set_explicit(&st->writing, memory_order_acquire)) {
    }
    unsigned seq = atomic_load_explicit(&st->seq, memory_order_relaxed);
    atomic_store_explicit(&st->seq, seq + 1, memory_order_relaxed); /* odd: a change under way */
    atomic_thread_fence(memory_order_release);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t link = changes[i].link;
        uint64_t bit = 1ull << (link % 64);
        if (changes[i].enabled)
            atomic_fetch_or_explicit(&st->bits[link / 64], bit, memory_order_relaxed);
        else
            atomic_fetch_and_explicit(&st->bits[link / 64], ~bit, memory_order_relaxed);
    }
    atomic_store_explicit(&st->seq, seq + 2, memory_order_release);
    atomic_flag_clear_explicit(&st->writing, memory_order_release);
    return NAV_SUCCESS;
}

bool nav_world_link_enabled(const nav_world *w, uint32_t link)
{
    if (!w || link >= w->link_count) return false;
    return atomic_load_explicit(&w->state.bits[link / 64], memory_order_relaxed) >> (link % 64) & 1;
}

void nav__world_state_read(const nav_world *w, uint64_t *bits)
{
    nav__world_state *st = (nav__world_state *)&w->state; /* only read: C11's loads take no const */
    for (;;) {
        unsigned before = atomic_load_explicit(&st->seq, memory_order_acquire);
        if (before & 1) continue; /* a change under way */
        for (uint32_t i = 0; i < st->words; i++)
            bits[i] = atomic_load_explicit(&st->bits[i], memory_order_relaxed);
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&st->seq, memory_order_relaxed) == before) return;
    }
}
