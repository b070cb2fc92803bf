/* A navigation mesh from level geometry (nav/geometry.h): the stages of voxel.h in order, timed,
 * their counts kept for the summary. The plan and its tests: docs/geometry_build.md. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "ds.h"
#include "log.h"
#include "mesh_internal.h"
#include "nav/geometry.h"
#include "parallel.h"
#include "build_geometry.h"

static const char *const stage_names[NAV_GEOMETRY_STAGES] = {
    "rasterize", "filter", "open space", "erode", "regions", "contours", "polygons", "heights", "mesh",
};

const char *nav_geometry_stage_name(nav_geometry_stage stage)
{
    return (unsigned)stage < NAV_GEOMETRY_STAGES ? stage_names[stage] : "?";
}

nav_geometry_build_desc nav_geometry_build_desc_defaults(const nav_geometry_build_desc *desc)
{
    nav_geometry_build_desc d = desc ? *desc : (nav_geometry_build_desc){0};
    if (d.cell_size == 0) d.cell_size = 0.3f;
    if (d.cell_height == 0) d.cell_height = 0.2f;
    if (d.agent_height == 0) d.agent_height = 2.0f;
    if (d.agent_radius == 0) d.agent_radius = 0.6f;
    if (d.agent_radius < 0) d.agent_radius = 0;
    if (d.agent_climb == 0) d.agent_climb = 0.9f;
    if (d.agent_climb < 0) d.agent_climb = 0;
    if (d.max_slope == 0) d.max_slope = 45;
    if (d.min_island_area == 0) d.min_island_area = 64 * d.cell_size * d.cell_size;
    if (d.min_island_area < 0) d.min_island_area = 0;
    if (d.max_edge_length == 0) d.max_edge_length = 12;
    if (d.max_edge_length < 0) d.max_edge_length = 0;
    if (d.max_edge_error == 0) d.max_edge_error = 1.3f * d.cell_size;
    if (d.max_poly_verts == 0) d.max_poly_verts = 6;
    if (d.detail_sample_distance == 0) d.detail_sample_distance = 6 * d.cell_size;
    if (d.detail_sample_distance < 0 && isfinite(d.detail_sample_distance)) d.detail_sample_distance = 0;
    if (d.detail_max_error == 0) d.detail_max_error = d.cell_height;
    if (d.link_extents.x == 0) d.link_extents.x = d.cell_size;
    if (d.link_extents.y == 0) d.link_extents.y = d.agent_height;
    if (d.link_extents.z == 0) d.link_extents.z = d.cell_size;
    if (d.max_memory == 0) d.max_memory = NAV_GEOMETRY_DEFAULT_MAX_MEMORY;
    return d;
}

static bool positive(float v)
{
    return v > 0 && isfinite(v);
}

static bool non_negative(float v)
{
    return v >= 0 && isfinite(v);
}

const char *nav__geometry_check_desc(const nav_geometry_build_desc *d, char *why, size_t size)
{
    if (!positive(d->cell_size) || !positive(d->cell_height)) return "cell size and height must be positive";
    if (!positive(d->agent_height)) return "agent height must be positive";
    if (!non_negative(d->agent_radius) || !non_negative(d->agent_climb))
        return "agent radius and climb must be finite";
    if (!(d->max_slope > 0 && d->max_slope < 90)) return "max slope must lie between 0 and 90 degrees";
    if (!non_negative(d->min_island_area) || !non_negative(d->max_edge_length) ||
        !non_negative(d->max_edge_error))
        return "island area, edge length and edge error must be finite";
    if (d->max_poly_verts < 3 || d->max_poly_verts > NAV_MESH_MAX_POLY_VERTS)
        return "max polygon vertices must lie between 3 and 32";
    if (d->agent_height / d->cell_height > 65535 || d->agent_climb / d->cell_height > 65535 ||
        d->agent_radius / d->cell_size > 8192 || d->max_edge_length / d->cell_size > 1e9f)
        return "agent limits too large for the cells";
    if (!(d->detail_sample_distance >= 0 && isfinite(d->detail_sample_distance)))
        return "detail_sample_distance must be a finite number (negative: no heights)";
    if (d->detail_sample_distance > 0 &&
        !(d->detail_sample_distance >= NAV_GEOMETRY_MIN_SAMPLE_CELLS * d->cell_size)) {
        snprintf(why, size,
                 "detail_sample_distance %g is less than %g cells (%g): samples closer than a cell find no "
                 "other floor (negative: no heights)",
                 (double)d->detail_sample_distance, (double)NAV_GEOMETRY_MIN_SAMPLE_CELLS,
                 (double)(NAV_GEOMETRY_MIN_SAMPLE_CELLS * d->cell_size));
        return why;
    }
    if (!non_negative(d->detail_max_error)) return "detail_max_error must be finite and not negative";
    if (!non_negative(d->link_extents.x) || !non_negative(d->link_extents.y) ||
        !non_negative(d->link_extents.z))
        return "link_extents must be finite and not negative";
    if (d->volume_count && !d->volumes) return "volume count without volumes";
    for (uint32_t i = 0; i < d->volume_count; i++) {
        const nav_geometry_volume *v = &d->volumes[i];
        if (v->point_count < 3 || !v->points || !(v->min_y <= v->max_y))
            return "a volume needs 3 points and min_y <= max_y";
        for (uint32_t k = 0; k < 2 * v->point_count; k++)
            if (!isfinite(v->points[k])) return "a volume's points must be finite";
    }
    if (d->link_count && !d->links) return "link count without links";
    if (d->area_cost)
        for (int a = 0; a < 256; a++)
            if (!nav_terrain_cost_valid(d->area_cost[a])) return "an area cost is out of range";
    return NULL;
}

/* A level whose every floor (a triangle of an area other than 0 within max_slope of level) faces down
 * builds an empty mesh: almost always a level wound the other way round (an exporter's flipped
 * normals). Refused, saying which way libnav takes as up. Some floors facing down is normal: the
 * undersides of slabs and ceilings (nav_test.obj has as many facing down as up, house.obj more), so
 * a level with a floor facing up passes. The normal is the rasteriser's: (b - a) x (c - a). */
nav_status nav__geometry_check_facing(const nav_triangles *t, float max_slope, const nav_log *log)
{
    const float cos_slope = cosf(max_slope * (float)(M_PI / 180.0));
    uint32_t down = 0;
    for (uint32_t i = 0; i < t->triangle_count; i++) {
        if (t->areas && t->areas[i] == NAV_TERRAIN_BLOCKED) continue;
        const uint32_t *v = t->indices + 3 * (size_t)i;
        const float *a = t->vertices + 3 * (size_t)v[0], *b = t->vertices + 3 * (size_t)v[1],
                    *c = t->vertices + 3 * (size_t)v[2];
        float e0[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]},
              e1[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        float n[3] = {e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2],
                      e0[0] * e1[1] - e0[1] * e1[0]};
        float length = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (!(length > 0)) continue;
        if (n[1] > cos_slope * length) return NAV_SUCCESS; /* a floor faces up */
        down += -n[1] > cos_slope * length;
    }
    if (down == 0) return NAV_SUCCESS; /* no floor at all: walls only, or every floor of area 0 */
    nav__logf(log, NAV_LOG_ERROR,
              "geometry: no floor of the level faces up: all %u of its triangles within %g degrees of level "
              "face down, and would make an empty mesh. A triangle's top is the side from which its corners "
              "a, b, c are seen counter-clockwise: from above, with x to the right and z down the page, "
              "(b - a) x (c - a) points up (y > 0), as for Recast and OpenGL. Reverse the order of each "
              "face's vertices (in an exporter: flip the normals)",
              down, (double)max_slope);
    return NAV_FAILURE | NAV_INVALID_PARAM;
}

double nav__geometry_since(struct timespec *at)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double ms = (double)(now.tv_sec - at->tv_sec) * 1e3 + (double)(now.tv_nsec - at->tv_nsec) * 1e-6;
    *at = now;
    return ms;
}

/* The tiles whose box with its border meets triangle i's: columns r[0] .. r[2], rows r[1] .. r[3]. */
static void tile_range(const build *b, uint32_t i, int32_t r[4])
{
    const nav_triangles *t = b->triangles;
    const float inverse = 1.0f / b->desc.cell_size;
    const uint32_t *v = t->indices + 3 * (size_t)i;
    float lo_x = INFINITY, hi_x = -INFINITY, lo_z = INFINITY, hi_z = -INFINITY;
    for (int k = 0; k < 3; k++) {
        const float *p = t->vertices + 3 * (size_t)v[k];
        lo_x = fminf(lo_x, p[0]), hi_x = fmaxf(hi_x, p[0]);
        lo_z = fminf(lo_z, p[2]), hi_z = fmaxf(hi_z, p[2]);
    }
    /* cells, widened by the border and a cell for rounding, then tiles */
    double c0 = floor((lo_x - b->origin.x) * inverse) - b->border - 1,
           c1 = floor((hi_x - b->origin.x) * inverse) + b->border + 1,
           r0 = floor((lo_z - b->origin.z) * inverse) - b->border - 1,
           r1 = floor((hi_z - b->origin.z) * inverse) + b->border + 1;
    r[0] = (int32_t)fmax(0, floor(c0 / b->tile)), r[2] = (int32_t)fmin(b->tiles_x - 1, floor(c1 / b->tile));
    r[1] = (int32_t)fmax(0, floor(r0 / b->tile)), r[3] = (int32_t)fmin(b->tiles_z - 1, floor(r1 / b->tile));
}

/* Each tile's triangles: a counting sort of the tiles each triangle's box (with the border) meets
 * (build_geometry.h). */
nav_status nav__geometry_bucket(build *b, uint32_t only)
{
    const nav_triangles *t = b->triangles;
    size_t tiles = (size_t)b->tiles_x * (size_t)b->tiles_z;
    if (!nav__arr_setlen(b->tile_first, tiles + 1)) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    memset(b->tile_first, 0, (tiles + 1) * sizeof *b->tile_first);
    nav__arr_truncate(b->tile_tris, 0);
    if (b->tile == 0) { /* one tile: all of them */
        if (!nav__arr_setlen(b->tile_tris, t->triangle_count)) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
        for (uint32_t i = 0; i < t->triangle_count; i++) b->tile_tris[i] = i;
        b->tile_first[1] = t->triangle_count;
        return NAV_SUCCESS;
    }
    int32_t *range = NULL; /* per triangle: tx0, tz0, tx1, tz1 */
    if (!nav__arr_setlen(range, 4 * (size_t)t->triangle_count)) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < t->triangle_count; i++) tile_range(b, i, range + 4 * (size_t)i);
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < t->triangle_count; i++) {
            const int32_t *r = range + 4 * (size_t)i;
            for (int32_t tz = r[1]; tz <= r[3]; tz++)
                for (int32_t tx = r[0]; tx <= r[2]; tx++) {
                    size_t tile = (size_t)tz * (size_t)b->tiles_x + (size_t)tx;
                    if (only != UINT32_MAX && tile != only) continue;
                    if (pass == 0)
                        b->tile_first[tile + 1]++;
                    else
                        b->tile_tris[b->tile_first[tile]++] = i;
                }
        }
        if (pass == 0) {
            for (size_t k = 0; k < tiles; k++) b->tile_first[k + 1] += b->tile_first[k];
            /* the tiles' lists within max_memory before they are made (a level of large triangles in
             * small tiles lists each of them many times) */
            nav_status s = nav__geometry_check_bookkeeping(b, b->tile_first[tiles]);
            if (nav_succeeded(s) && !nav__arr_setlen(b->tile_tris, b->tile_first[tiles]))
                s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
            if (nav_failed(s)) {
                arrfree(range);
                return s;
            }
        } else { /* back to the starts */
            for (size_t k = tiles; k > 0; k--) b->tile_first[k] = b->tile_first[k - 1];
            b->tile_first[0] = 0;
        }
    }
    arrfree(range);
    return NAV_SUCCESS;
}

/* The most cells a polygon's box (and a cell round it) covers: the heights' footprint mask. */
static uint64_t largest_box(const nav__polygons *p)
{
    uint64_t most = 0;
    size_t polys = arrlenu(p->poly_first) ? arrlenu(p->poly_first) - 1 : 0;
    for (size_t q = 0; q < polys; q++) {
        int32_t lo_x = INT32_MAX, hi_x = INT32_MIN, lo_z = INT32_MAX, hi_z = INT32_MIN;
        for (uint32_t e = p->poly_first[q]; e < p->poly_first[q + 1]; e++) {
            uint32_t v = p->poly_verts[e];
            lo_x = p->x[v] < lo_x ? p->x[v] : lo_x, hi_x = p->x[v] > hi_x ? p->x[v] : hi_x;
            lo_z = p->z[v] < lo_z ? p->z[v] : lo_z, hi_z = p->z[v] > hi_z ? p->z[v] : hi_z;
        }
        uint64_t cells = (uint64_t)((int64_t)hi_x - lo_x + 3) * (uint64_t)((int64_t)hi_z - lo_z + 3);
        if (cells > most) most = cells;
    }
    return most;
}

/* Builds tile `item` (stages 1 to 7) into r (empty). False when memory runs out (r's polygons are then
 * only good for freeing). Runs on any thread: stb_ds scratch only. */
bool nav__geometry_build_tile(build *b, uint32_t item, tile_result *r)
{
    const nav_geometry_build_desc *d = &b->desc;
    int32_t tx = (int32_t)item % b->tiles_x, tz = (int32_t)item / b->tiles_x;
    int32_t x0 = 0, z0 = 0, w = b->width, h = b->depth;
    if (b->tile) {
        x0 = tx * b->tile - b->border, z0 = tz * b->tile - b->border;
        w = h = b->tile + 2 * b->border;
    }
    nav_vec3 origin = {b->origin.x + (float)x0 * d->cell_size, b->origin.y,
                       b->origin.z + (float)z0 * d->cell_size};
    struct timespec at;
    clock_gettime(CLOCK_MONOTONIC, &at);
    nav__heightfield hf;
    nav_status s = nav__heightfield_init_grid(&hf, origin, w, h, b->steps, d->cell_size, d->cell_height);
    if (nav_failed(s)) {
        r->broken = !(s & NAV_OUT_OF_MEMORY);
        return r->broken;
    }
    /* the level whole shares its stages out on a pool of threads kept for them all (tiles are
     * already on the threads) */
    nav__pool pool, *stages = NULL;
    if (!b->tile && b->stage_threads > 1) {
        nav__pool_start(stages = &pool, b->stage_threads, true); /* no more than the cores: its
                                                                  * helpers spin while they wait */
        if (pool.helpers == 0) { /* no core idle: the stages whole, on this thread (bands cost a little) */
            nav__pool_stop(stages);
            stages = NULL;
        }
    }
    nav__open_space os = {0};
    nav__contours contours = {0};
    bool ok = false;
    if (!nav__rasterize_parallel(&hf, b->triangles, b->tile_tris + b->tile_first[item],
                                 b->tile_first[item + 1] - b->tile_first[item], d->max_slope, b->climb,
                                 stages))
        goto done;
    r->spans = hf.span_count;
    r->stage_ms[NAV_GEOMETRY_RASTERIZE] = nav__geometry_since(&at);
    nav__filter_walkable(&hf, b->height, b->climb, stages);
    r->stage_ms[NAV_GEOMETRY_FILTER] = nav__geometry_since(&at);
    if (!nav__open_space_build(&os, &hf, b->height, b->climb, stages)) goto done; /* (hf let go) */
    if (b->tile) {
        os.inner_x0 = os.inner_z0 = b->border;
        os.inner_x1 = os.inner_z1 = b->border + b->tile;
    }
    r->tops = os.count;
    r->stage_ms[NAV_GEOMETRY_OPEN_SPACE] = nav__geometry_since(&at);
    if (!nav__open_space_erode(&os, b->radius, stages)) goto done;
    for (uint32_t i = 0; i < d->volume_count; i++) {
        const nav_geometry_volume *v = &d->volumes[i];
        nav__open_space_mark(&os, v->points, v->point_count, v->min_y, v->max_y, v->area);
    }
    if (!nav__open_space_drop_islands(&os, b->islands, stages)) goto done;
    for (int32_t z = os.inner_z0; z < os.inner_z1; z++)
        for (int32_t x = os.inner_x0; x < os.inner_x1; x++) {
            size_t c = (size_t)z * (size_t)os.width + (size_t)x;
            for (uint32_t i = os.column_first[c]; i < os.column_first[c + 1]; i++)
                r->kept_tops += os.area[i] != 0;
        }
    r->stage_ms[NAV_GEOMETRY_ERODE] = nav__geometry_since(&at);
    if (!nav__open_space_partition(&os)) goto done;
    r->regions = os.region_count;
    r->stage_ms[NAV_GEOMETRY_REGIONS] = nav__geometry_since(&at);
    /* the later stages grow with the outlines: each checked against the tile's share of max_memory
     * (build_memory.c) before it starts, the outlines as they grow */
    uint64_t held = nav__open_space_bytes(&os);
    s = nav__contours_build(&contours, &os, b->max_error, b->max_edge, held < b->share ? b->share - held : 0);
    if (s & NAV_CORRUPT_DATA) r->broken = true; /* (the tile then has no polygons) */
    if (s & NAV_TOO_LARGE) r->too_large = NAV__FIT_OUTLINES, r->need = 0, r->room = b->share - held;
    if (nav_failed(s)) {
        ok = r->broken;
        goto done;
    }
    r->contour_points = (uint32_t)arrlenu(contours.points);
    r->stage_ms[NAV_GEOMETRY_CONTOURS] = nav__geometry_since(&at);
    if (!nav__geometry_fits(r, NAV__FIT_POLYGONS, held + nav__contours_bytes(&contours),
                            nav__polygons_build_bound(arrlenu(contours.points), contours.region_count),
                            b->share) ||
        !nav__polygons_build(&r->polygons, &contours, &os, d->max_poly_verts, x0, z0))
        goto done;
    nav__contours_free(&contours);
    r->stage_ms[NAV_GEOMETRY_POLYGONS] = nav__geometry_since(&at);
    if (d->detail_sample_distance > 0) {
        /* on the stages' threads, or on this one alone when their scratch does not fit */
        uint64_t polys = arrlenu(r->polygons.poly_first) ? arrlenu(r->polygons.poly_first) - 1 : 0,
                 box = largest_box(&r->polygons);
        held = nav__open_space_bytes(&os) + nav__polygons_bytes(&r->polygons);
        nav__pool *heights = stages;
        if (stages && held + nav__detail_bound(os.count, polys, box, b->stage_threads) > b->share)
            heights = NULL;
        if (!nav__geometry_fits(r, NAV__FIT_HEIGHTS, held,
                                nav__detail_bound(os.count, polys, box, heights ? b->stage_threads : 1),
                                b->share) ||
            !nav__polygons_detail(&r->polygons, &os, x0, z0, d->detail_sample_distance / d->cell_size,
                                  d->detail_max_error / d->cell_height, (int32_t)b->height, heights))
            goto done;
    }
    ok = true;
done:
    nav__heightfield_free(&hf);
    nav__contours_free(&contours);
    nav__open_space_free(&os);
    if (stages) nav__pool_stop(stages);
    if (ok && !r->broken) r->stage_ms[NAV_GEOMETRY_HEIGHTS] = nav__geometry_since(&at);
    return ok;
}

/* Counts a built tile's polygons among the results kept: false (r marked) when they take the results
 * past their room. */
bool nav__geometry_keep_results(build *b, tile_result *r)
{
    uint64_t bytes = nav__polygons_bytes(&r->polygons),
             held = atomic_fetch_add(b->results_held, bytes) + bytes;
    return nav__geometry_fits(r, NAV__FIT_RESULTS, held - bytes, bytes, b->results_room);
}

/* Builds tile `item` into its result (a run of nav__parallel: false when memory runs out, or when a
 * stage does not fit its share of max_memory: the result says which). */
static bool build_tile(void *context, void *scratch, uint32_t item)
{
    (void)scratch;
    build *b = context;
    tile_result *r = &b->results[item];
    return nav__geometry_build_tile(b, item, r) && (r->broken || nav__geometry_keep_results(b, r));
}

/* The status of a build whose tiles ran (s: nav__parallel's): the first tile that did not fit is
 * named (NAV_TOO_LARGE), else s. */
nav_status nav__geometry_tiles_status(const build *b, const tile_result *results, uint32_t count,
                                      nav_status s)
{
    for (uint32_t i = 0; i < count; i++)
        if (results[i].too_large) {
            nav__geometry_report_too_large(b, i, &results[i]);
            return NAV_FAILURE | NAV_TOO_LARGE;
        }
    return s;
}

/* The mesh of the polygons. */
static nav_status make_mesh(const nav__polygons *p, nav_vec3 origin, const nav_geometry_build_desc *d,
                            nav_mesh **out)
{
    uint32_t polys = (uint32_t)arrlenu(p->poly_first) - 1, edges = (uint32_t)arrlenu(p->poly_verts);
    uint32_t verts = (uint32_t)arrlenu(p->x);
    nav_vec3 *world = NULL, *detail_verts = NULL;
    uint32_t *edge_poly = NULL, *owner = NULL, *detail_tris = NULL;
    uint8_t *edge_flags = NULL;
    uint16_t *flags = NULL;
    nav_status s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (!nav__arr_setlen(world, verts) || !nav__arr_setlen(owner, edges) ||
        !nav__arr_setlen(edge_poly, edges) || !nav__arr_setlen(edge_flags, edges) ||
        !nav__arr_setlen(flags, polys))
        goto done;
    for (uint32_t v = 0; v < verts; v++)
        world[v] =
            (nav_vec3){origin.x + (float)p->x[v] * d->cell_size, origin.y + (float)p->y[v] * d->cell_height,
                       origin.z + (float)p->z[v] * d->cell_size};
    if (edges) memset(edge_flags, 0, edges);
    for (uint32_t q = 0; q < polys; q++)
        for (uint32_t e = p->poly_first[q]; e < p->poly_first[q + 1]; e++) owner[e] = q;
    for (uint32_t e = 0; e < edges; e++)
        edge_poly[e] = p->edge_twin[e] == UINT32_MAX ? NAV_MESH_NO_POLY : owner[p->edge_twin[e]];
    double cost[256];
    for (int a = 0; a < 256; a++) cost[a] = NAV_COST_BLOCKED;
    for (uint32_t q = 0; q < polys; q++) {
        uint8_t a = p->poly_area[q];
        uint16_t f = d->area_flags ? d->area_flags[a] : 0;
        flags[q] = f ? f : NAV_POLY_FLAG_WALK;
        cost[a] = d->area_cost ? d->area_cost[a] : 1.0;
    }
    bool detail = arrlenu(p->detail_tri_first) == (size_t)polys + 1;
    if (detail) {
        size_t points = arrlenu(p->detail_points) / 3;
        if (!nav__arr_setlen(detail_verts, points) ||
            !nav__arr_reserve(detail_tris, 3 * (size_t)p->detail_tri_first[polys]))
            goto done;
        for (size_t k = 0; k < points; k++)
            detail_verts[k] = (nav_vec3){origin.x + p->detail_points[3 * k] * d->cell_size,
                                         origin.y + p->detail_points[3 * k + 1] * d->cell_height,
                                         origin.z + p->detail_points[3 * k + 2] * d->cell_size};
        for (uint32_t q = 0; q < polys; q++)
            for (uint32_t t = p->detail_tri_first[q]; t < p->detail_tri_first[q + 1]; t++)
                for (int k = 0; k < 3; k++)
                    nav__arr_put_reserved(detail_tris, p->detail_point_first[q] + p->detail_tris[3 * t + k]);
    }
    nav__mesh_draft draft = {
        .verts = world,
        .vert_count = verts,
        .poly_first = p->poly_first,
        .edge_vert = p->poly_verts,
        .edge_poly = edge_poly,
        .edge_flags = edge_flags,
        .poly_area = p->poly_area,
        .poly_flags = flags,
        .poly_count = polys,
        .area_cost = cost,
        .cell_size = d->cell_size,
        .detail_verts = detail_verts,
        .detail_tris = detail_tris,
        .poly_detail_first = detail ? p->detail_tri_first : NULL,
        .detail_vert_count = (uint32_t)arrlenu(detail_verts),
        .detail_tri_count = (uint32_t)(arrlenu(detail_tris) / 3),
    };
    s = nav__mesh_finish(&draft, d->allocator, d->log, out);
done:
    arrfree(world);
    arrfree(detail_verts);
    arrfree(detail_tris);
    arrfree(edge_poly);
    arrfree(owner);
    arrfree(edge_flags);
    arrfree(flags);
    if (nav_succeeded(s) && d->link_count) {
        s = nav__mesh_add_links(*out, d->links, d->link_count, d->link_extents);
        if (nav_failed(s)) {
            nav_mesh_destroy(*out);
            *out = NULL;
        }
    }
    return s;
}

/* Checks the triangles and options and sets the build up: the scene's grid, the agent in steps
 * and cells, the tiles. */
nav_status nav__geometry_prepare(build *b, const nav_triangles *triangles,
                                 const nav_geometry_build_desc *desc, nav_geometry_build_stats *stats)
{
    nav_geometry_build_desc d = nav_geometry_build_desc_defaults(desc);
    char why[200];
    const char *fault = nav__geometry_check_desc(&d, why, sizeof why);
    if (fault) {
        nav__logf(d.log, NAV_LOG_ERROR, "geometry: %s", fault);
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    if (!triangles) {
        nav__logf(d.log, NAV_LOG_ERROR, "geometry: no triangles");
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    nav_status s = nav_triangles_check(triangles, d.log);
    if (nav_succeeded(s)) s = nav__geometry_check_facing(triangles, d.max_slope, d.log);
    if (nav_failed(s)) return s;
    stats->triangles = triangles->triangle_count;
    nav_vec3 lo, hi;
    if (!nav_triangles_bounds(triangles, &lo, &hi)) {
        nav__logf(d.log, NAV_LOG_ERROR, "geometry: no triangles");
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    *b = (build){.triangles = triangles, .desc = d, .origin = lo};
    double w = floor(((double)hi.x - lo.x) / d.cell_size) + 1,
           h = floor(((double)hi.z - lo.z) / d.cell_size) + 1,
           steps = ceil(((double)hi.y - lo.y) / d.cell_height) + 1;
    if (w > 65534 || h > 65534 || steps > NAV__SPAN_MAX_HEIGHT ||
        (!d.tile_size && w * h > (double)(1u << 28))) {
        nav__logf(d.log, NAV_LOG_ERROR,
                  "geometry: the level's box makes too many voxels for cells of %g x %g", (double)d.cell_size,
                  (double)d.cell_height);
        return NAV_FAILURE | NAV_TOO_LARGE;
    }
    b->width = (int32_t)w, b->depth = (int32_t)h, b->steps = (uint32_t)steps;
    b->memory_limit = d.max_memory;
    s = nav__geometry_derive(b);
    if (nav_failed(s)) return s;
    stats->width = b->width, stats->depth = b->depth;
    stats->tiles = (uint32_t)arrlenu(b->results);
    return NAV_SUCCESS;
}

nav_status nav__geometry_derive(build *b)
{
    const nav_geometry_build_desc *d = &b->desc;
    b->height = (uint32_t)ceilf(d->agent_height / d->cell_height);
    b->climb = (uint32_t)floorf(d->agent_climb / d->cell_height);
    b->radius = (uint32_t)ceilf(d->agent_radius / d->cell_size);
    b->islands = (uint32_t)ceilf(d->min_island_area / (d->cell_size * d->cell_size));
    b->max_error = d->max_edge_error / d->cell_size;
    b->max_edge = d->max_edge_length / d->cell_size;
    b->tile = (int32_t)d->tile_size;
    b->border = b->tile ? (int32_t)b->radius + 3 : 0;
    b->tiles_x = b->tile ? (b->width + b->tile - 1) / b->tile : 1;
    b->tiles_z = b->tile ? (b->depth + b->tile - 1) / b->tile : 1;
    /* the tiles' bookkeeping (a result a tile, each tile's triangles: each once at least, until
     * nav__geometry_bucket counts them) checked before it is made: tiles of one cell over a large
     * level ask for gigabytes of it */
    nav_status s = nav__geometry_check_bookkeeping(b, b->triangles ? b->triangles->triangle_count : 0);
    if (nav_failed(s)) return s;
    size_t tiles = (size_t)b->tiles_x * (size_t)b->tiles_z;
    if (!nav__arr_setlen(b->results, tiles)) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    memset(b->results, 0, tiles * sizeof *b->results);
    return NAV_SUCCESS;
}

void nav__geometry_free_build(build *b)
{
    size_t tiles = arrlenu(b->results);
    for (size_t i = 0; i < tiles; i++) nav__polygons_free(&b->results[i].polygons);
    arrfree(b->results);
    arrfree(b->tile_first);
    arrfree(b->tile_tris);
}

nav_status nav__geometry_assemble(build *b, nav_geometry_build_stats *stats, nav_mesh **out)
{
    const nav_geometry_build_desc *d = &b->desc;
    uint32_t tiles = (uint32_t)arrlenu(b->results);
    /* the mesh made of the tiles' polygons, beside them, within max_memory */
    uint64_t results = 0;
    for (uint32_t i = 0; i < tiles; i++) results += nav__polygons_bytes(&b->results[i].polygons);
    uint64_t held = b->bookkeeping + results, need = nav__assembly_bound(results);
    if (b->memory_limit && (held > b->memory_limit || need > b->memory_limit - held)) {
        nav__geometry_report_mesh_too_large(b, results, need);
        return NAV_FAILURE | NAV_TOO_LARGE;
    }
    nav__polygons all = {0};
    nav__index weld = {0};
    bool broken = false, appended = true;
    for (uint32_t i = 0; i < tiles; i++) {
        tile_result *r = &b->results[i];
        broken |= r->broken;
        stats->spans += r->spans;
        stats->tops += r->tops;
        stats->kept_tops += r->kept_tops;
        stats->regions += r->regions;
        stats->contour_points += r->contour_points;
        for (int k = 0; k < NAV_GEOMETRY_STAGES; k++) stats->stage_ms[k] += r->stage_ms[k];
        appended = appended && nav__polygons_append(&all, &r->polygons, &weld);
    }
    nav__index_free(&weld);
    nav_status s = NAV_SUCCESS;
    if (!appended) {
        s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    } else if (broken) {
        nav__logf(d->log, NAV_LOG_ERROR,
                  "geometry: a region's outline does not close (a bug: please report it)");
        s = NAV_FAILURE | NAV_CORRUPT_DATA;
    }
    if (nav_succeeded(s) && d->progress && d->progress->fn &&
        !d->progress->fn("geometry: mesh", tiles, tiles, d->progress->user))
        s = NAV_FAILURE | NAV_WRONG_STATE;
    if (nav_succeeded(s)) {
        stats->failed_regions = all.failed_regions;
        if (all.failed_regions)
            nav__logf(d->log, NAV_LOG_WARNING,
                      "geometry: %u outlines crossed themselves once simplified and were cut in part",
                      all.failed_regions);
        struct timespec mesh_at;
        clock_gettime(CLOCK_MONOTONIC, &mesh_at);
        s = nav__polygons_stitch(&all, b->tile, (int32_t)b->climb) ? make_mesh(&all, b->origin, d, out)
                                                                   : NAV_FAILURE | NAV_OUT_OF_MEMORY;
        stats->stage_ms[NAV_GEOMETRY_MESH] = nav__geometry_since(&mesh_at);
    }
    nav__polygons_free(&all);
    if (nav_succeeded(s)) {
        stats->polygons = nav_mesh_poly_count(*out);
        stats->vertices = nav_mesh_vert_count(*out);
        stats->bytes = nav_mesh_memory_bytes(*out);
    }
    return s;
}

/* Builds every tile, on the threads the options say (fewer when memory is short). */
nav_status nav__geometry_build_all(build *b)
{
    nav_status s = nav__geometry_bucket(b, UINT32_MAX);
    if (nav_failed(s)) return s;
    uint32_t cores = nav__core_count(), threads = b->desc.threads ? b->desc.threads : cores;
    /* a whole level's stages: no more threads than the cores (its helpers spin while they wait), and
     * 16 (the stages' bands and runs: 8 and 16) */
    uint32_t stage_threads = threads < cores ? threads : cores;
    if (stage_threads > 16) stage_threads = 16;
    s = nav__geometry_plan_memory(b, b->tile ? threads : 1, b->tile ? 1 : stage_threads, 0);
    if (nav_failed(s)) return s;
    _Atomic uint64_t held;
    atomic_init(&held, 0);
    b->results_held = &held;
    nav__work work = {.count = (uint32_t)arrlenu(b->results),
                      .run = build_tile,
                      .ctx = b,
                      .stage = "geometry: tiles",
                      .progress = b->desc.progress};
    s = nav__geometry_tiles_status(b, b->results, work.count, nav__parallel(&work, b->tiles_at_once));
    b->results_held = NULL;
    return s;
}

nav_status nav_mesh_build_from_geometry(const nav_triangles *triangles, const nav_geometry_build_desc *desc,
                                        nav_mesh **out, nav_geometry_build_stats *stats)
{
    nav_geometry_build_stats local;
    if (!stats) stats = &local;
    *stats = (nav_geometry_build_stats){0};
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    build b;
    nav_status s = nav__geometry_prepare(&b, triangles, desc, stats);
    if (nav_failed(s)) return s;
    struct timespec at;
    clock_gettime(CLOCK_MONOTONIC, &at);
    s = nav__geometry_build_all(&b);
    stats->memory_estimate = b.estimate, stats->tiles_at_once = b.tile ? b.tiles_at_once : b.stage_threads;
    if (nav_succeeded(s)) s = nav__geometry_assemble(&b, stats, out);
    nav__geometry_free_build(&b);
    stats->total_ms = nav__geometry_since(&at);
    return s;
}
