/* The memory a build from level geometry may take (nav_geometry_build_desc's max_memory), and the checks
 * that keep it there (issue 43, defect 14: a 60-byte .obj of two triangles 4.9 km a side grew past 10 GB).
 *
 * What a build holds, in bytes (C: a tile's columns with its border, or the level's; W its width;
 * N its triangles; S its spans; T its walkable tops, at most S; the arrays are stb_ds's, which grow to
 * twice what they hold and, while they move, hold the old block beside the new one):
 *   - the tiles' bookkeeping, for the whole build: a result a tile and each tile's triangles;
 *   - stage 1 (voxel.c): the column heads 4C and the span pool, 12 bytes a span, grown: 36S at the worst
 *     moment (in bands on threads: one pool made beforehand for the bound on S below, 12S, and the
 *     bands' last chunks, 96 KiB at most, in the tile's allowance), the triangles' band lists 64N and
 *     each band's row scratch 8W;
 *   - stage 3 (openspace.c): the heightfield (4C, at most 24S) and the open space's floors, rooms and
 *     areas 5S (its column starts take the column heads' place): 8C + 29S counted; the heightfield is
 *     then freed, before the links 16T;
 *   - stages 4 and 5 (openspace.c, partition.c), one after another beside the open space (4C + 5S +
 *     16T): the distances 2T and each band's window 2T; the islands' 12T; the regions 4T (kept), each
 *     top's run 4T, a count a region 8T, and the sweep's runs of a row (32 bytes a top of the row);
 *   - stage 6 (contour.c): each top's column 8T, per region 9 bytes, and the outlines, which grow as
 *     they are traced: checked as they grow (nav__contours_build's room);
 *   - stage 7 (polygonize.c, merge.c): per outline point at most 1280 bytes (the merge's flips and
 *     unions at their worst), checked before it starts, from the points the outlines have;
 *   - stage 8 (detail.c): each top's column 8T, per thread its stamps 4T, queue 8T, footprint mask (the
 *     largest polygon's box, twice) and 9 MiB (65536 samples, the flips' stack at its guard, the
 *     outline's samples), and 13.8 KiB per polygon (255 points and 510 triangles, grown, and their join);
 *     checked before it starts, on one thread when its threads' scratch does not fit;
 *   - each tile's polygons, kept (the results), counted as they are kept;
 *   - the mesh made of them (the stitching, the welding index, the mesh and its arrays): at most 16 times
 *     the results and 1 MiB, checked before it starts.
 * Stages 1 to 5 are bounded before anything is allocated, from the level's box and triangles: the
 * spans of a tile are at most its columns times half its height in steps (spans in a column neither
 * touch nor overlap), and at most the columns its triangles' rasterisation can reach
 * (nav__triangle_columns); that bound, times the tiles built at once, and the bookkeeping, is the
 * estimate (nav_geometry_build_stats's memory_estimate). Each tile then holds at most its share of the
 * limit, seven eighths of what the bookkeeping leaves divided among the tiles built at once; the
 * results take the last eighth. So the build never holds more than max_memory, and whether it fits
 * depends on the level and the options alone (and the threads: fewer run at once when memory is short,
 * which never changes the mesh). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "build_geometry.h"
#include "ds.h"
#include "log.h"
#include "parallel.h"

/* An stb_ds array's header and the heap's own bytes round a block: allowed for each array. */
#define ARRAY_OVERHEAD 64u
/* Small arrays, structs and headers a stage holds besides those counted: allowed once a tile. */
#define TILE_OVERHEAD ((uint64_t)1 << 20)
/* The heights' fixed scratch a thread: 65536 samples of 40 bytes, grown (5.3 MB), the flips' stack
 * at its guard (100000 flips of 4 entries, grown: 3.2 MB), the outline's samples (32 edges of 255,
 * grown: 0.4 MB), its triangulation. */
#define DETAIL_THREAD_BYTES ((uint64_t)9 << 20)

uint64_t nav__array_bytes(const void *array, size_t elem_size)
{
    return array ? (uint64_t)arrcap((void *)array) * elem_size + ARRAY_OVERHEAD : 0;
}

uint64_t nav__open_space_bytes(const nav__open_space *os)
{
    return nav__array_bytes(os->column_first, sizeof *os->column_first) +
           nav__array_bytes(os->floor, sizeof *os->floor) + nav__array_bytes(os->room, sizeof *os->room) +
           nav__array_bytes(os->area, sizeof *os->area) + nav__array_bytes(os->side, sizeof *os->side) +
           nav__array_bytes(os->region, sizeof *os->region);
}

uint64_t nav__contours_bytes(const nav__contours *c)
{
    return nav__array_bytes(c->points, sizeof *c->points) + nav__array_bytes(c->first, sizeof *c->first);
}

uint64_t nav__polygons_bytes(const nav__polygons *p)
{
    return nav__array_bytes(p->x, sizeof *p->x) + nav__array_bytes(p->y, sizeof *p->y) +
           nav__array_bytes(p->z, sizeof *p->z) + nav__array_bytes(p->poly_first, sizeof *p->poly_first) +
           nav__array_bytes(p->poly_verts, sizeof *p->poly_verts) +
           nav__array_bytes(p->poly_area, sizeof *p->poly_area) +
           nav__array_bytes(p->edge_twin, sizeof *p->edge_twin) +
           nav__array_bytes(p->detail_points, sizeof *p->detail_points) +
           nav__array_bytes(p->detail_point_first, sizeof *p->detail_point_first) +
           nav__array_bytes(p->detail_tris, sizeof *p->detail_tris) +
           nav__array_bytes(p->detail_tri_first, sizeof *p->detail_tri_first) +
           nav__array_bytes(p->poly_region_first, sizeof *p->poly_region_first) +
           nav__array_bytes(p->poly_regions, sizeof *p->poly_regions);
}

uint64_t nav__polygons_build_bound(uint64_t points, uint64_t regions)
{
    return 1280 * points + 16 * regions + ((uint64_t)512 << 10);
}

uint64_t nav__detail_bound(uint64_t tops, uint64_t polygons, uint64_t largest_box, uint32_t threads)
{
    return 8 * tops + (uint64_t)threads * (12 * tops + 2 * largest_box + DETAIL_THREAD_BYTES) +
           14131 * polygons;
}

uint64_t nav__assembly_bound(uint64_t results)
{
    return 16 * results + ((uint64_t)1 << 20);
}

/* Stages 1 to 5 of a tile (C columns, W of them a row, N triangles, at most S spans), and the
 * heights' scratch but for what depends on its polygons, on `threads` threads. */
static uint64_t scratch_bound(uint64_t columns, uint64_t width, uint64_t triangles, uint64_t spans,
                              uint32_t threads)
{
    uint64_t tops = spans, bands = threads > 1 ? (threads < 8 ? threads : 8) : 1;
    uint64_t rasterise = 4 * columns + 36 * spans + 64 * triangles + 8 * width * 8;
    uint64_t open = 8 * columns + 29 * spans;            /* the links come after the heightfield: in kept */
    uint64_t kept = 4 * columns + 5 * spans + 16 * tops; /* the open space, the heightfield freed */
    uint64_t erode = kept + 2 * tops + 2 * tops * bands;
    uint64_t islands = kept + 12 * tops;
    /* the regions 4T and each top's run 4T, per region its count (grown: 8 bytes), per row its runs
     * and the regions they meet (grown: 32 bytes a top of the row) */
    uint64_t row_tops = width * (spans / (columns ? columns : 1) + 1);
    if (row_tops > tops) row_tops = tops;
    uint64_t regions = kept + 16 * tops + 32 * row_tops;
    uint64_t heights = kept + 4 * tops + 8 * tops + threads * (12 * tops + DETAIL_THREAD_BYTES);
    uint64_t most = rasterise;
    if (open > most) most = open;
    if (erode > most) most = erode;
    if (islands > most) most = islands;
    if (regions > most) most = regions;
    if (heights > most) most = heights;
    return most + TILE_OVERHEAD;
}

/* A tile's columns (with its border) and width, and its heightfield's place. */
static void tile_grid(const build *b, uint32_t item, nav_vec3 *origin, int32_t *w, int32_t *h)
{
    int32_t x0 = 0, z0 = 0;
    *w = b->width, *h = b->depth;
    if (b->tile) {
        x0 = (int32_t)item % b->tiles_x * b->tile - b->border;
        z0 = (int32_t)item / b->tiles_x * b->tile - b->border;
        *w = *h = b->tile + 2 * b->border;
    }
    *origin = (nav_vec3){b->origin.x + (float)x0 * b->desc.cell_size, b->origin.y,
                         b->origin.z + (float)z0 * b->desc.cell_size};
}

/* At most the spans of tile `item`: its columns times half its steps, or what its triangles reach. */
static uint64_t tile_spans(const build *b, uint32_t item, bool exact)
{
    nav_vec3 origin;
    int32_t w, h;
    tile_grid(b, item, &origin, &w, &h);
    uint64_t columns = (uint64_t)w * (uint64_t)h, spans = columns * ((b->steps + 1) / 2);
    if (!exact) return spans;
    const nav_triangles *t = b->triangles;
    uint64_t reach = 0;
    for (uint32_t k = b->tile_first[item]; k < b->tile_first[item + 1] && reach < spans; k++) {
        const uint32_t *v = t->indices + 3 * (size_t)b->tile_tris[k];
        reach += nav__triangle_columns(t->vertices + 3 * (size_t)v[0], t->vertices + 3 * (size_t)v[1],
                                       t->vertices + 3 * (size_t)v[2], origin, b->desc.cell_size, w, h);
    }
    return reach < spans ? reach : spans;
}

/* The most any tile's stages 1 to 5 may take on `threads` threads; the count bounds are coarse (columns
 * times half the steps) unless exact. */
static uint64_t largest_scratch(const build *b, uint32_t threads, bool exact)
{
    uint32_t tiles = (uint32_t)arrlenu(b->results);
    uint64_t most = 0;
    for (uint32_t i = 0; i < tiles; i++) {
        nav_vec3 origin;
        int32_t w, h;
        tile_grid(b, i, &origin, &w, &h);
        uint64_t need =
            scratch_bound((uint64_t)w * (uint64_t)h, (uint64_t)w, b->tile_first[i + 1] - b->tile_first[i],
                          tile_spans(b, i, exact), threads);
        if (need > most) most = need;
        if (!b->tile || !exact) break; /* (coarse: every tile alike but for its triangles) */
    }
    if (!exact && b->tile) { /* every tile with the most triangles of any, coarse */
        uint32_t triangles = 0;
        for (uint32_t i = 0; i < tiles; i++)
            if (b->tile_first[i + 1] - b->tile_first[i] > triangles)
                triangles = b->tile_first[i + 1] - b->tile_first[i];
        nav_vec3 origin;
        int32_t w, h;
        tile_grid(b, 0, &origin, &w, &h);
        most = scratch_bound((uint64_t)w * (uint64_t)h, (uint64_t)w, triangles, tile_spans(b, 0, false),
                             threads);
    }
    return most;
}

/* "12.3 MB" */
static const char *bytes_text(uint64_t bytes, char out[32])
{
    if (bytes >= ((uint64_t)1 << 30))
        snprintf(out, 32, "%.1f GiB", (double)bytes / (double)((uint64_t)1 << 30));
    else if (bytes >= ((uint64_t)1 << 20))
        snprintf(out, 32, "%.1f MiB", (double)bytes / (double)((uint64_t)1 << 20));
    else
        snprintf(out, 32, "%.1f KiB", (double)bytes / 1024.0);
    return out;
}

nav_status nav__geometry_check_bookkeeping(build *b, uint64_t triangle_tiles)
{
    uint64_t tiles = (uint64_t)b->tiles_x * (uint64_t)b->tiles_z;
    b->bookkeeping = tiles * sizeof(tile_result) + (tiles + 1) * 4 + triangle_tiles * 4 +
                     16 * (uint64_t)(b->triangles ? b->triangles->triangle_count : 0) + 4 * ARRAY_OVERHEAD;
    if (b->bookkeeping <= b->memory_limit) return NAV_SUCCESS;
    char need[32], limit[32];
    nav__logf(b->desc.log, NAV_LOG_ERROR,
              "geometry: the build's lists of its %" PRIu64 " tiles and their triangles (%" PRIu64
              " entries) need %s before it starts, more than max_memory's %s: raise max_memory%s",
              tiles, triangle_tiles, bytes_text(b->bookkeeping, need), bytes_text(b->memory_limit, limit),
              b->tile ? " or use larger tiles" : "");
    return NAV_FAILURE | NAV_TOO_LARGE;
}

nav_status nav__geometry_plan_memory(build *b, uint32_t tile_threads, uint32_t stage_threads, uint64_t held)
{
    uint32_t tiles = (uint32_t)arrlenu(b->results);
    uint64_t limit = b->memory_limit, fixed = b->bookkeeping + held, room = limit > fixed ? limit - fixed : 0;
    uint64_t scratch_room = room - room / 8; /* the rest: the tiles' polygons */
    if (tile_threads > tiles) tile_threads = tiles;
    if (tile_threads < 1) tile_threads = 1;
    if (stage_threads < 1) stage_threads = 1;
    /* coarse bounds first (no pass over the triangles), then the triangles' own where they do not fit */
    bool exact = false;
    uint64_t scratch = largest_scratch(b, stage_threads, false);
    if ((uint64_t)tile_threads * scratch > scratch_room) {
        exact = true;
        scratch = largest_scratch(b, stage_threads, true);
    }
    /* fewer tiles, or a whole level's stages on fewer threads, where that fits and more do not */
    while (tile_threads > 1 && (uint64_t)tile_threads * scratch > scratch_room) tile_threads--;
    while (stage_threads > 1 && scratch > scratch_room) scratch = largest_scratch(b, --stage_threads, exact);
    b->estimate = fixed + (uint64_t)tile_threads * scratch;
    if (scratch > scratch_room) {
        char need[32], left[32], max[32];
        nav__logf(
            b->desc.log, NAV_LOG_ERROR,
            "geometry: the build would need up to %s for its voxels (%s %d x %d cells of %g and up to "
            "%" PRIu64
            " spans%s), more than the %s that max_memory's %s leaves them (an eighth kept for the mesh): %s",
            bytes_text(scratch, need), b->tile ? "its largest tile:" : "a level of",
            b->tile ? b->tile + 2 * b->border : b->width, b->tile ? b->tile + 2 * b->border : b->depth,
            (double)b->desc.cell_size, tile_spans(b, 0, exact), b->tile ? " with its border" : "",
            bytes_text(scratch_room, left), bytes_text(limit, max),
            b->tile ? "raise max_memory, use smaller tiles or larger cells"
                    : "raise max_memory, build it in tiles (tile_size) or use larger cells");
        return NAV_FAILURE | NAV_TOO_LARGE;
    }
    b->tiles_at_once = tile_threads;
    b->stage_threads = stage_threads;
    b->share = scratch_room / tile_threads;
    b->results_room = room - (uint64_t)tile_threads * b->share;
    return NAV_SUCCESS;
}

bool nav__geometry_fits(tile_result *r, uint8_t stage, uint64_t held, uint64_t need, uint64_t room)
{
    if (held <= room && need <= room - held) return true;
    if (!r->too_large) r->too_large = stage, r->need = held + need, r->room = room;
    return false;
}

void nav__geometry_report_too_large(const build *b, uint32_t item, const tile_result *r)
{
    char need[32], room[32], limit[32];
    static const char *const what[] = {"", "outlines", "polygons", "heights", "polygons kept"};
    int32_t tx = b->tile ? (int32_t)item % b->tiles_x : 0, tz = b->tile ? (int32_t)item / b->tiles_x : 0;
    char where[48] = "the level's";
    if (b->tile) snprintf(where, sizeof where, "tile (%d, %d)'s", tx, tz);
    nav__logf(
        b->desc.log, NAV_LOG_ERROR,
        "geometry: %s %s need %s, more than the %s left to them within max_memory's %s: raise max_memory%s",
        where, r->too_large < sizeof what / sizeof *what ? what[r->too_large] : "stages",
        bytes_text(r->need, need), bytes_text(r->room, room), bytes_text(b->memory_limit, limit),
        b->tile ? "" : " or build it in tiles");
}

void nav__geometry_report_mesh_too_large(const build *b, uint64_t results, uint64_t need)
{
    char mesh[32], kept[32], limit[32];
    nav__logf(b->desc.log, NAV_LOG_ERROR,
              "geometry: the mesh needs up to %s beside its tiles' polygons (%s), more than max_memory's %s "
              "leaves: raise max_memory",
              bytes_text(need, mesh), bytes_text(results, kept), bytes_text(b->memory_limit, limit));
}
