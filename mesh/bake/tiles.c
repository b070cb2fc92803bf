/* Tiles kept for rebuilding one (nav/geometry.h), and what each tile was built from.
 *
 * A tile's polygons depend on the build's options, the level's grid and the triangles the tile reads:
 * those whose box meets its own with its border (nav__geometry_bucket). Each tile keeps a fingerprint
 * of them, its source: XXH64 (nav/src/hash.h) of a little-endian encoding of the options (as the TILS
 * chunk keeps them, volumes, links, costs and flags among them), the grid, the tile's place, then each
 * of its triangles in the level's order: its corners' coordinates (the floats' bits) and its area type.
 * Indices are not in it (a level exported again with its vertices in another order is the same level),
 * nor the triangles that meet no tile's box.
 *
 * A rebuild is for a changed level, so the level as a whole is not what the tiles were built from, and
 * a fingerprint of it would refuse the very change the rebuild is for. What must hold is that every
 * tile not built again still reads the triangles it was built from: its polygons are right only for
 * those. So a rebuild works out every tile's source from the level it is given, and refuses
 * (NAV_SOURCE_MISMATCH, both fingerprints in the log) when another tile's differs: a change near the
 * tile's edge reaches into the next tile's border, a change elsewhere too, or the triangles are
 * another level's altogether (no tile that has triangles kept its source). A change that spans tiles
 * is rebuilt by nav_geometry_tiles_rebuild_changed: every tile whose source differs. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "build_geometry.h"
#include "ds.h"
#include "hash.h"
#include "log.h"
#include "parallel.h"

/* ---- Sources ------------------------------------------------------------------------------------ */

static void hash_f32(nav__hash64 *h, float value)
{
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    nav__hash64_u32(h, bits);
}

/* What every tile's source starts from: the options and the level's grid. */
static nav__hash64 source_start(const build *b)
{
    const nav_geometry_build_desc *d = &b->desc;
    nav__hash64 h;
    nav__hash64_init(&h, 0);
    const float *options[] = {NAV__GEOMETRY_FLOAT_OPTIONS(d), &b->origin.x, &b->origin.y, &b->origin.z};
    for (size_t k = 0; k < sizeof options / sizeof *options; k++) hash_f32(&h, *options[k]);
    const uint32_t counts[] = {d->max_poly_verts, d->tile_size,    (uint32_t)b->width, (uint32_t)b->depth,
                               b->steps,          d->volume_count, d->link_count};
    for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) nav__hash64_u32(&h, counts[k]);
    for (uint32_t i = 0; i < d->volume_count; i++) {
        const nav_geometry_volume *v = &d->volumes[i];
        nav__hash64_u32(&h, v->point_count);
        hash_f32(&h, v->min_y);
        hash_f32(&h, v->max_y);
        nav__hash64_u32(&h, v->area);
        for (uint32_t k = 0; k < 2 * v->point_count; k++) hash_f32(&h, v->points[k]);
    }
    for (uint32_t i = 0; i < d->link_count; i++) {
        const nav_mesh_link_desc *l = &d->links[i];
        const float ends[6] = {l->start.x, l->start.y, l->start.z, l->end.x, l->end.y, l->end.z};
        for (int k = 0; k < 6; k++) hash_f32(&h, ends[k]);
        nav__hash64_f64(&h, l->cost);
        nav__hash64_u32(&h, l->user_id);
        nav__hash64_u32(&h, l->flags);
        nav__hash64_u32(&h, l->bidirectional ? 1 : 0);
    }
    for (int a = 0; a < 256; a++) {
        nav__hash64_f64(&h, d->area_cost ? d->area_cost[a] : 1.0);
        nav__hash64_u32(&h, d->area_flags ? d->area_flags[a] : 0);
    }
    return h;
}

/* Tile `item`'s source: from start, its place, then its triangles (b->triangles, bucketed): those the
 * rasteriser does not pass over as outside the tile's heightfield (voxel.c, rasterize_triangle: the
 * same test in the same floats), so that a triangle the bucket takes in to be safe (its box widened
 * by a cell) but that cannot reach the tile changes nothing. */
static uint64_t tile_source(const build *b, const nav__hash64 *start, uint32_t item)
{
    nav__hash64 h = *start;
    int32_t tx = (int32_t)item % b->tiles_x, tz = (int32_t)item / b->tiles_x;
    nav__hash64_u32(&h, (uint32_t)tx);
    nav__hash64_u32(&h, (uint32_t)tz);
    const nav_triangles *t = b->triangles;
    if (!t) return nav__hash64_digest(&h);
    const float cell = b->desc.cell_size, inverse = 1.0f / cell, side = (float)(b->tile + 2 * b->border);
    const nav_vec3 o = {b->origin.x + (float)(tx * b->tile - b->border) * cell, b->origin.y,
                        b->origin.z + (float)(tz * b->tile - b->border) * cell};
    for (uint32_t k = b->tile_first[item]; k < b->tile_first[item + 1]; k++) {
        uint32_t i = b->tile_tris[k];
        const float *p[3];
        float lo_x = INFINITY, hi_x = -INFINITY, lo_z = INFINITY, hi_z = -INFINITY;
        for (int c = 0; c < 3; c++) {
            p[c] = t->vertices + 3 * (size_t)t->indices[3 * (size_t)i + (size_t)c];
            float x = (p[c][0] - o.x) * inverse, z = (p[c][2] - o.z) * inverse;
            lo_x = x < lo_x ? x : lo_x, hi_x = x > hi_x ? x : hi_x;
            lo_z = z < lo_z ? z : lo_z, hi_z = z > hi_z ? z : hi_z;
        }
        if (hi_z < 0 || lo_z >= side || hi_x < 0 || lo_x >= side) continue;
        uint8_t bytes[37]; /* nine coordinates, little-endian, and the area */
        for (int c = 0; c < 3; c++) {
            for (int a = 0; a < 3; a++) {
                uint32_t bits;
                memcpy(&bits, &p[c][a], sizeof bits);
                for (int j = 0; j < 4; j++) bytes[12 * c + 4 * a + j] = (uint8_t)(bits >> (8 * j));
            }
        }
        bytes[36] = t->areas ? t->areas[i] : NAV_GEOMETRY_DEFAULT_AREA;
        nav__hash64_update(&h, bytes, sizeof bytes);
    }
    return nav__hash64_digest(&h);
}

void nav__geometry_tile_sources(build *b)
{
    nav__hash64 start = source_start(b);
    for (uint32_t i = 0; i < (uint32_t)arrlenu(b->results); i++)
        b->results[i].source = tile_source(b, &start, i);
}

/* Each tile's source in the level now (b->triangles, bucketed) into *now (stb_ds, a tile each), and
 * which tiles changed: changed[k] for k < *count. NAV_SUCCESS; NAV_FAILURE | NAV_SOURCE_MISMATCH
 * (logged) when the triangles are another level's: no tile that had or has triangles kept its source
 * (with more than one such tile); NAV_FAILURE | NAV_OUT_OF_MEMORY. */
static nav_status compare_sources(const build *b, uint64_t **now, uint32_t **changed)
{
    uint32_t tiles = (uint32_t)arrlenu(b->results), occupied = 0, kept = 0, first = UINT32_MAX;
    if (!nav__arr_setlen(*now, tiles) || !nav__arr_reserve(*changed, tiles))
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    nav__hash64 start = source_start(b);
    for (uint32_t i = 0; i < tiles; i++) {
        (*now)[i] = tile_source(b, &start, i);
        nav__hash64 empty = start;
        nav__hash64_u32(&empty, i % (uint32_t)b->tiles_x);
        nav__hash64_u32(&empty, i / (uint32_t)b->tiles_x);
        uint64_t none = nav__hash64_digest(&empty), was = b->results[i].source;
        bool has = was != none || (*now)[i] != none;
        occupied += has;
        if (was == (*now)[i]) {
            kept += has;
        } else {
            nav__arr_put_reserved(*changed, i);
            if (first == UINT32_MAX) first = i;
        }
    }
    if (occupied > 1 && kept == 0) {
        nav__logf(
            b->desc.log, NAV_LOG_ERROR,
            "geometry: these triangles are not the level the tiles were built from: none of its %u tiles "
            "with triangles reads the ones it was built from (tile (%u, %u): built from %016" PRIx64
            ", now %016" PRIx64 "): bake the level again",
            occupied, first % (uint32_t)b->tiles_x, first / (uint32_t)b->tiles_x, b->results[first].source,
            (*now)[first]);
        return NAV_FAILURE | NAV_SOURCE_MISMATCH;
    }
    return NAV_SUCCESS;
}

/* ---- Building and rebuilding -------------------------------------------------------------------- */

nav_status nav_geometry_tiles_build(const nav_triangles *triangles, const nav_geometry_build_desc *desc,
                                    nav_geometry_tiles **tiles, nav_mesh **mesh,
                                    nav_geometry_build_stats *stats)
{
    nav_geometry_build_stats local;
    if (!stats) stats = &local;
    *stats = (nav_geometry_build_stats){0};
    if (!tiles) return NAV_FAILURE | NAV_INVALID_PARAM;
    *tiles = NULL;
    if (mesh) *mesh = NULL;
    if (!desc || desc->tile_size == 0) {
        nav__logf(desc ? desc->log : NULL, NAV_LOG_ERROR, "geometry: tiles need a tile size");
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    nav_allocator a;
    nav__allocator_resolve(&a, desc->allocator);
    nav_geometry_tiles *t = nav__calloc(&a, 1, sizeof *t);
    if (!t) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    t->allocator = a;
    struct timespec at;
    clock_gettime(CLOCK_MONOTONIC, &at);
    nav_status s = nav__geometry_prepare(&t->b, triangles, desc, stats);
    if (nav_failed(s)) {
        nav__free(&a, t);
        return s;
    }
    s = nav__geometry_tiles_own_arrays(t, desc) ? nav__geometry_build_all(&t->b)
                                                : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    stats->memory_estimate = t->b.estimate, stats->tiles_at_once = t->b.tiles_at_once;
    if (nav_succeeded(s)) nav__geometry_tile_sources(&t->b); /* (its triangles still bucketed) */
    if (nav_succeeded(s) && mesh) s = nav__geometry_assemble(&t->b, stats, mesh);
    t->b.triangles = NULL; /* the caller's: not kept */
    stats->total_ms = nav__geometry_since(&at);
    if (nav_failed(s)) {
        nav_geometry_tiles_destroy(t);
        return s;
    }
    *tiles = t;
    return NAV_SUCCESS;
}

/* Tiles built apart from those kept, on threads: items[k] into built[k]. */
typedef struct rebuild_work {
    build *b;
    const uint32_t *items;
    tile_result *built;
} rebuild_work;

static bool rebuild_tile(void *context, void *scratch, uint32_t k)
{
    (void)scratch;
    rebuild_work *w = context;
    tile_result *r = &w->built[k];
    return nav__geometry_build_tile(w->b, w->items[k], r) &&
           (r->broken || nav__geometry_keep_results(w->b, r));
}

/* Builds tiles items[0 .. count - 1] again from b->triangles (bucketed), their sources now[item], and puts
 * them in place of the old ones once all are built (on failure the tiles keep the old); then the mesh. */
static nav_status rebuild_tiles(build *b, const uint32_t *items, uint32_t count, const uint64_t *now,
                                nav_geometry_build_stats *stats, nav_mesh **mesh)
{
    /* beside the tiles kept (those rebuilt among them until they are replaced) */
    uint64_t kept = 0;
    for (size_t i = 0; i < arrlenu(b->results); i++) kept += nav__polygons_bytes(&b->results[i].polygons);
    uint32_t threads = b->desc.threads ? b->desc.threads : nav__core_count();
    nav_status s = nav__geometry_plan_memory(b, threads < count ? threads : count, 1, kept);
    stats->memory_estimate = b->estimate, stats->tiles_at_once = b->tiles_at_once;
    if (nav_failed(s)) return s;
    tile_result *built = NULL;
    if (!nav__arr_setlen(built, count)) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    memset(built, 0, count * sizeof *built);
    _Atomic uint64_t held;
    atomic_init(&held, 0);
    b->results_held = &held;
    rebuild_work w = {b, items, built};
    nav__work work = {.count = count,
                      .run = rebuild_tile,
                      .ctx = &w,
                      .stage = "geometry: tiles",
                      .progress = b->desc.progress};
    s = nav__parallel(&work, b->tiles_at_once);
    b->results_held = NULL;
    for (uint32_t k = 0; k < count; k++)
        if (built[k].too_large) {
            nav__geometry_report_too_large(b, items[k], &built[k]);
            s = NAV_FAILURE | NAV_TOO_LARGE;
            break;
        }
    for (uint32_t k = 0; k < count; k++) {
        tile_result *r = &b->results[items[k]];
        if (nav_failed(s)) {
            nav__polygons_free(&built[k].polygons);
            continue;
        }
        nav__polygons_free(&r->polygons);
        *r = built[k];
        r->source = now[items[k]];
    }
    arrfree(built);
    if (nav_succeeded(s)) s = nav__geometry_assemble(b, stats, mesh);
    return s;
}

/* The checks both rebuilds make, and the level's triangles bucketed into every tile with each tile's
 * source now (*now) and the tiles that changed (*changed). */
static nav_status start_rebuild(build *b, const nav_triangles *triangles, uint64_t **now, uint32_t **changed)
{
    nav_status s = nav_triangles_check(triangles, b->desc.log);
    if (nav_succeeded(s)) s = nav__geometry_check_facing(triangles, b->desc.max_slope, b->desc.log);
    if (nav_failed(s)) return s;
    b->triangles = triangles;
    s = nav__geometry_bucket(b, UINT32_MAX);
    return nav_succeeded(s) ? compare_sources(b, now, changed) : s;
}

/* What start_rebuild began, ended: its arrays freed, the stats of the level and the time since at
 * filled in. Returns s. */
static nav_status finish_rebuild(build *b, const nav_triangles *triangles, uint64_t *now, uint32_t *changed,
                                 struct timespec *at, nav_geometry_build_stats *stats, nav_status s)
{
    b->triangles = NULL;
    arrfree(now);
    arrfree(changed);
    stats->triangles = triangles->triangle_count;
    stats->width = b->width, stats->depth = b->depth;
    stats->tiles = (uint32_t)arrlenu(b->results);
    stats->total_ms = nav__geometry_since(at);
    return s;
}

nav_status nav_geometry_tiles_rebuild(nav_geometry_tiles *tiles, const nav_triangles *triangles,
                                      int32_t tile_x, int32_t tile_z, nav_mesh **mesh,
                                      nav_geometry_build_stats *stats)
{
    nav_geometry_build_stats local;
    if (!stats) stats = &local;
    *stats = (nav_geometry_build_stats){0};
    if (!mesh) return NAV_FAILURE | NAV_INVALID_PARAM;
    *mesh = NULL;
    if (!tiles || !triangles) return NAV_FAILURE | NAV_INVALID_PARAM;
    build *b = &tiles->b;
    if (tile_x < 0 || tile_z < 0 || tile_x >= b->tiles_x || tile_z >= b->tiles_z) {
        nav__logf(b->desc.log, NAV_LOG_ERROR, "geometry: tile (%d, %d) is not one of the %d x %d", tile_x,
                  tile_z, b->tiles_x, b->tiles_z);
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    struct timespec at;
    clock_gettime(CLOCK_MONOTONIC, &at);
    uint32_t item = (uint32_t)(tile_z * b->tiles_x + tile_x);
    uint64_t *now = NULL;
    uint32_t *changed = NULL;
    nav_status s = start_rebuild(b, triangles, &now, &changed);
    /* every other tile must read the triangles it was built from */
    uint32_t others = 0, first = UINT32_MAX;
    for (size_t k = 0; nav_succeeded(s) && k < arrlenu(changed); k++)
        if (changed[k] != item) {
            others++;
            if (first == UINT32_MAX) first = changed[k];
        }
    if (others) {
        char more[48] = "";
        if (others > 1) snprintf(more, sizeof more, " (and %u more tiles)", others - 1);
        nav__logf(
            b->desc.log, NAV_LOG_ERROR,
            "geometry: the level changed outside tile (%d, %d) too: tile (%u, %u) was built from triangles "
            "%016" PRIx64 ", which are now %016" PRIx64 "%s. Rebuild every tile that changed "
            "(nav_geometry_tiles_rebuild_changed; navtool tile --changed), or bake the level again",
            tile_x, tile_z, first % (uint32_t)b->tiles_x, first / (uint32_t)b->tiles_x,
            b->results[first].source, now[first], more);
        s = NAV_FAILURE | NAV_SOURCE_MISMATCH;
    }
    if (nav_succeeded(s)) s = rebuild_tiles(b, &item, 1, now, stats, mesh);
    return finish_rebuild(b, triangles, now, changed, &at, stats, s);
}

nav_status nav_geometry_tiles_rebuild_changed(nav_geometry_tiles *tiles, const nav_triangles *triangles,
                                              nav_mesh **mesh, uint32_t *rebuilt,
                                              nav_geometry_build_stats *stats)
{
    nav_geometry_build_stats local;
    if (!stats) stats = &local;
    *stats = (nav_geometry_build_stats){0};
    if (rebuilt) *rebuilt = 0;
    if (!mesh) return NAV_FAILURE | NAV_INVALID_PARAM;
    *mesh = NULL;
    if (!tiles || !triangles) return NAV_FAILURE | NAV_INVALID_PARAM;
    build *b = &tiles->b;
    struct timespec at;
    clock_gettime(CLOCK_MONOTONIC, &at);
    uint64_t *now = NULL;
    uint32_t *changed = NULL;
    nav_status s = start_rebuild(b, triangles, &now, &changed);
    uint32_t count = (uint32_t)arrlenu(changed);
    if (nav_succeeded(s)) {
        if (count)
            s = rebuild_tiles(b, changed, count, now, stats, mesh);
        else /* nothing changed: the mesh of the tiles as they are */
            s = nav__geometry_assemble(b, stats, mesh);
    }
    if (nav_succeeded(s) && rebuilt) *rebuilt = count;
    return finish_rebuild(b, triangles, now, changed, &at, stats, s);
}

bool nav__geometry_tiles_own_arrays(nav_geometry_tiles *t, const nav_geometry_build_desc *desc)
{
    nav_geometry_build_desc *d = &t->b.desc;
    size_t points = 0;
    for (uint32_t i = 0; i < desc->volume_count; i++) points += 2 * (size_t)desc->volumes[i].point_count;
    if (!nav__arr_reserve(t->volume_points, points) || !nav__arr_reserve(t->volumes, desc->volume_count) ||
        !nav__arr_reserve(t->links, desc->link_count))
        return false;
    for (uint32_t i = 0; i < desc->volume_count; i++)
        for (uint32_t k = 0; k < 2 * desc->volumes[i].point_count; k++)
            nav__arr_put_reserved(t->volume_points, desc->volumes[i].points[k]);
    size_t at = 0;
    for (uint32_t i = 0; i < desc->volume_count; i++) {
        nav_geometry_volume v = desc->volumes[i];
        v.points = t->volume_points + at;
        at += 2 * (size_t)v.point_count;
        nav__arr_put_reserved(t->volumes, v);
    }
    for (uint32_t i = 0; i < desc->link_count; i++) nav__arr_put_reserved(t->links, desc->links[i]);
    for (int a = 0; a < 256; a++) {
        t->area_cost[a] = desc->area_cost ? desc->area_cost[a] : 1.0;
        t->area_flags[a] = desc->area_flags ? desc->area_flags[a] : 0;
    }
    d->volumes = t->volumes, d->volume_count = desc->volume_count;
    d->links = t->links, d->link_count = desc->link_count;
    d->area_cost = t->area_cost, d->area_flags = t->area_flags;
    return true;
}

void nav_geometry_tiles_destroy(nav_geometry_tiles *tiles)
{
    if (!tiles) return;
    nav__geometry_free_build(&tiles->b);
    arrfree(tiles->volumes);
    arrfree(tiles->volume_points);
    arrfree(tiles->links);
    nav_allocator a = tiles->allocator;
    nav__free(&a, tiles);
}

void nav_geometry_tiles_count(const nav_geometry_tiles *tiles, int32_t *tiles_x, int32_t *tiles_z)
{
    if (tiles_x) *tiles_x = tiles ? tiles->b.tiles_x : 0;
    if (tiles_z) *tiles_z = tiles ? tiles->b.tiles_z : 0;
}

nav_geometry_build_desc nav_geometry_tiles_desc(const nav_geometry_tiles *tiles)
{
    return tiles ? tiles->b.desc : (nav_geometry_build_desc){0};
}
