/* The GRID chunk: a fine grid in a .nav file, and saving and loading grids as .nav files.
 *
 * GRID chunk data, version 1 (little-endian; offsets from the chunk start):
 *
 *   offset  size      field
 *        0     4      width (cells)
 *        4     4      height (cells)
 *        8     1      connectivity: 4 or 8
 *        9     1      corner policy: 1 never cut, 2 cut if one side free, 3 always cut
 *       10     1      flags: bit 0 set when heights follow; other bits zero
 *       11     1      reserved, zero
 *       12     4      max_climb (f32, > 0; +inf for no limit)
 *       16     4      cell_size (f32, finite, > 0)
 *       20    12      origin x, y, z (f32, finite)
 *       32     8      diagonal_cost (f64, 1..2)
 *       40  2048      cost factor of each terrain type 0..255 (f64; NAV_COST_MIN..NAV_COST_MAX
 *                     or +inf; type 0 +inf)
 *     2088  W*H       terrain type of each cell, row by row
 *                     zero padding to a multiple of 4, then W*H heights (f32, finite) if flagged
 *
 * The options are stored as the grid resolved them, so a loaded grid moves exactly as the saved
 * one did; the move masks and reachability labels are rebuilt rather than trusted from the file. */
#include "grid_internal.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "nav/io.h"

#include "alloc.h"
#include "log.h"
#include "nav_file.h"

#define GRID_HEADER_SIZE 2088u
#define FLAG_HEIGHTS     1u

nav_status nav_grid_write_chunk(const nav_grid *grid, nav_writer *out)
{
    if (!grid || !out) return NAV_FAILURE | NAV_INVALID_PARAM;
    const nav_grid_desc *d = &grid->desc;
    size_t cells = grid->cells;
    size_t heights = grid->heights ? 3 + nav__mul_size(cells, 4) : 0;
    nav_writer_reserve(out, GRID_HEADER_SIZE + cells + heights);
    nav_writer_put_u32(out, grid->width);
    nav_writer_put_u32(out, grid->height);
    nav_writer_put_u8(out, (uint8_t)d->connectivity);
    nav_writer_put_u8(out, (uint8_t)d->corner_policy);
    nav_writer_put_u8(out, grid->heights ? FLAG_HEIGHTS : 0);
    nav_writer_put_u8(out, 0);
    nav_writer_put_f32(out, d->max_climb);
    nav_writer_put_f32(out, d->cell_size);
    nav_writer_put_f32(out, d->origin.x);
    nav_writer_put_f32(out, d->origin.y);
    nav_writer_put_f32(out, d->origin.z);
    nav_writer_put_f64(out, d->diagonal_cost);
    for (int t = 0; t < NAV_TERRAIN_TYPES; t++) nav_writer_put_f64(out, grid->terrain_cost[t]);
    nav_writer_put_bytes(out, grid->terrain, cells);
    if (grid->heights) {
        /* Padding relative to the chunk start, which the container aligns to 16. */
        size_t pad = (4 - (GRID_HEADER_SIZE + cells) % 4) % 4;
        for (size_t k = 0; k < pad; k++) nav_writer_put_u8(out, 0);
        for (size_t cell = 0; cell < cells; cell++) nav_writer_put_f32(out, grid->heights[cell]);
    }
    return out->status;
}

#define BAD(...) (nav__logf(log, NAV_LOG_ERROR, "GRID chunk: " __VA_ARGS__), NAV_FAILURE | NAV_CORRUPT_DATA)

/* The fixed part: size and options, checked before anything is allocated. */
static nav_status read_header(nav_reader *r, const nav_log *log, nav_grid_desc *d, uint8_t *flags)
{
    uint32_t width = nav_reader_get_u32(r), height = nav_reader_get_u32(r);
    uint8_t connectivity = nav_reader_get_u8(r), corner = nav_reader_get_u8(r);
    *flags = nav_reader_get_u8(r);
    uint8_t reserved = nav_reader_get_u8(r);
    float max_climb = nav_reader_get_f32(r), cell_size = nav_reader_get_f32(r);
    nav_vec3 origin;
    origin.x = nav_reader_get_f32(r);
    origin.y = nav_reader_get_f32(r);
    origin.z = nav_reader_get_f32(r);
    double diagonal_cost = nav_reader_get_f64(r);
    if (nav_failed(r->status)) return BAD("%zu bytes is too short for the header", r->size);

    if (width < 1 || width > NAV_GRID_MAX_SIDE || height < 1 || height > NAV_GRID_MAX_SIDE ||
        (uint64_t)width * height > NAV_GRID_MAX_CELLS)
        return BAD("size %" PRIu32 " x %" PRIu32 " is outside 1..%d a side and %u cells", width, height,
                   NAV_GRID_MAX_SIDE, NAV_GRID_MAX_CELLS);
    if (connectivity != NAV_CONNECT_4 && connectivity != NAV_CONNECT_8)
        return BAD("connectivity %u is neither 4 nor 8", connectivity);
    if (corner < NAV_CORNER_NEVER_CUT || corner > NAV_CORNER_ALWAYS_CUT)
        return BAD("corner policy %u is not 1, 2 or 3", corner);
    if ((*flags & ~FLAG_HEIGHTS) != 0 || reserved != 0)
        return BAD("unknown flags 0x%02x 0x%02x", *flags, reserved);
    /* 0 would mean "unlimited" to nav_grid_create, not what a file saying 0 means: the writer
     * stores the resolved value, so a 0 here is damage. */
    if (!(max_climb > 0)) return BAD("max_climb %g is not > 0", (double)max_climb);
    if (!(cell_size > 0) || !isfinite(cell_size))
        return BAD("cell_size %g is not finite and > 0", (double)cell_size);
    if (!isfinite(origin.x) || !isfinite(origin.y) || !isfinite(origin.z)) return BAD("origin is not finite");
    if (!(diagonal_cost >= 1 && diagonal_cost <= 2))
        return BAD("diagonal_cost %g is outside 1..2", diagonal_cost);

    d->width = (int32_t)width;
    d->height = (int32_t)height;
    d->connectivity = (nav_connectivity)connectivity;
    d->corner_policy = (nav_corner_policy)corner;
    d->max_climb = max_climb;
    d->cell_size = cell_size;
    d->origin = origin;
    d->diagonal_cost = diagonal_cost;
    return NAV_SUCCESS;
}

nav_status nav_grid_read_chunk(const void *data, size_t size, const nav_grid_desc *options, nav_grid **out)
{
    return nav__grid_read_chunk(data, size, options, true, out);
}

nav_status nav__grid_read_chunk(const void *data, size_t size, const nav_grid_desc *options, bool labels,
                                nav_grid **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!data && size > 0) return NAV_FAILURE | NAV_INVALID_PARAM;
    const nav_log *log = options ? options->log : NULL;
    nav_reader r;
    nav_reader_init(&r, data, size);
    nav_grid_desc d = {0};
    uint8_t flags = 0;
    nav_status s = read_header(&r, log, &d, &flags);
    if (nav_failed(s)) return s;

    double cost[NAV_TERRAIN_TYPES];
    for (int t = 0; t < NAV_TERRAIN_TYPES; t++) cost[t] = nav_reader_get_f64(&r);
    if (nav_failed(r.status)) return BAD("%zu bytes is too short for the terrain table", size);
    if (cost[NAV_TERRAIN_BLOCKED] != INFINITY) return BAD("terrain type 0 is not blocked");
    for (int t = 1; t < NAV_TERRAIN_TYPES; t++)
        if (!nav_terrain_cost_valid(cost[t]))
            return BAD("terrain type %d has cost %g, outside %g..%g and not blocked", t, cost[t],
                       NAV_COST_MIN, NAV_COST_MAX);

    /* The rest must be exactly the cells (and heights): checked before the grid is allocated, so a
     * damaged size cannot make us allocate gigabytes for a small chunk. */
    uint64_t cells = (uint64_t)d.width * (uint64_t)d.height;
    uint64_t expect = cells;
    if (flags & FLAG_HEIGHTS) expect += (4 - (GRID_HEADER_SIZE + cells) % 4) % 4 + 4 * cells;
    if (nav_reader_remaining(&r) != expect)
        return BAD("%zu bytes of cells, expected %" PRIu64 " for %" PRId32 " x %" PRId32 "%s",
                   nav_reader_remaining(&r), expect, d.width, d.height,
                   (flags & FLAG_HEIGHTS) ? " with heights" : "");

    d.allocator = options ? options->allocator : NULL;
    d.log = log;
    nav_grid *grid;
    s = nav_grid_create(&d, &grid);
    if (nav_failed(s)) {
        if (nav_has_detail(s, NAV_OUT_OF_MEMORY)) return s;
        return BAD("the grid options are invalid"); /* validated above: should not happen */
    }
    memcpy(grid->terrain_cost, cost, sizeof cost);
    memcpy(grid->terrain, nav_reader_bytes(&r, (size_t)cells), (size_t)cells);
    if (flags & FLAG_HEIGHTS) {
        nav_reader_align(&r, 4);
        s = nav__grid_ensure_heights(grid);
        for (uint32_t cell = 0; cell < grid->cells && nav_succeeded(s); cell++) {
            float height = nav_reader_get_f32(&r);
            if (!isfinite(height)) {
                s = BAD("cell (%" PRIu32 ", %" PRIu32 ") has a height that is not finite", cell % grid->width,
                        cell / grid->width);
            }
            grid->heights[cell] = height;
        }
    }
    if (nav_succeeded(s) && nav_failed(r.status)) s = BAD("padding before the heights is not zero");
    if (nav_succeeded(s)) {
        nav__grid_rebuild(grid);
        if (labels) s = nav_grid_build_reachability(grid);
    }
    if (nav_failed(s)) {
        nav_grid_destroy(grid);
        return s;
    }
    *out = grid;
    return NAV_SUCCESS;
}

nav_status nav_grid_save_nav(const nav_grid *grid, const char *path)
{
    if (!grid || !path) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_writer chunk_data;
    nav_writer_init(&chunk_data, &grid->allocator);
    nav_status s = nav_grid_write_chunk(grid, &chunk_data);
    if (nav_succeeded(s)) {
        nav_chunk chunk = {NAV_CHUNK_GRID, NAV_GRID_CHUNK_VERSION, chunk_data.data, chunk_data.size};
        s = nav_container_write_file(path, &chunk, 1, &grid->allocator);
    }
    nav_writer_destroy(&chunk_data);
    if (nav_failed(s)) nav__grid_log(grid, NAV_LOG_ERROR, "%s: cannot save: %s", path, nav_status_str(s));
    return s;
}

nav_status nav_grid_load_nav(const char *path, const nav_grid_desc *options, nav_grid **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!path) return NAV_FAILURE | NAV_INVALID_PARAM;
    const nav_allocator *given = options ? options->allocator : NULL;
    const nav_log *log = options ? options->log : NULL;
    nav__file_log file_log;
    nav__file_log_init(&file_log, log, path);
    void *bytes;
    nav_container container;
    nav_status s = nav__open_nav_file(path, given, &file_log, &bytes, &container);
    if (nav_failed(s)) return s;
    const nav_chunk *chunk;
    s = nav__find_unique_chunk(&container, NAV_CHUNK_GRID, "GRID", NAV_GRID_CHUNK_VERSION, &file_log.hooks,
                               &chunk);
    if (nav_succeeded(s)) {
        nav_grid_desc desc = options ? *options : (nav_grid_desc){0};
        desc.log = &file_log.hooks;
        s = nav_grid_read_chunk(chunk->data, (size_t)chunk->size, &desc, out);
        /* The grid copied file_log, which lives on this stack frame: give it the caller's. */
        if (nav_succeeded(s)) (*out)->log = log ? *log : (nav_log){0};
    }
    nav__close_nav_file(given, bytes);
    return s;
}

void nav__close_nav_file(const nav_allocator *allocator, void *bytes)
{
    nav_allocator a;
    nav__allocator_resolve(&a, allocator);
    nav__free(&a, bytes);
}

nav_status nav__save_layer_nav(const char *path, const nav_grid *grid, uint32_t tag, uint32_t version,
                               const nav_writer *layer, const nav_allocator *allocator)
{
    nav_writer grid_data;
    nav_writer_init(&grid_data, allocator);
    nav_status s = grid ? nav_grid_write_chunk(grid, &grid_data) : NAV_SUCCESS;
    if (nav_succeeded(s)) {
        nav_chunk chunks[2] = {{NAV_CHUNK_GRID, NAV_GRID_CHUNK_VERSION, grid_data.data, grid_data.size},
                               {tag, version, layer->data, layer->size}};
        s = nav_container_write_file(path, grid ? chunks : chunks + 1, grid ? 2 : 1, allocator);
    }
    nav_writer_destroy(&grid_data);
    return s;
}

nav_status nav__open_layer_nav(const char *path, const nav_allocator *allocator, nav__file_log *log,
                               uint32_t tag, const char *name, uint32_t version, void **bytes,
                               const nav_chunk **layer, nav_grid **grid)
{
    nav_container container;
    nav_status s = nav__open_nav_file(path, allocator, log, bytes, &container);
    if (nav_failed(s)) return s;
    s = nav__find_unique_chunk(&container, tag, name, version, &log->hooks, layer);
    const nav_chunk *grid_chunk = NULL;
    if (nav_succeeded(s) && grid)
        s = nav__find_unique_chunk(&container, NAV_CHUNK_GRID, "GRID", NAV_GRID_CHUNK_VERSION, &log->hooks,
                                   &grid_chunk);
    /* the grid keeps a copy of its log: give it the caller's, not the prefixing one on the stack */
    if (nav_succeeded(s) && grid)
        s = nav_grid_read_chunk(grid_chunk->data, (size_t)grid_chunk->size,
                                &(nav_grid_desc){.allocator = allocator, .log = log->inner}, grid);
    if (nav_failed(s)) {
        nav__close_nav_file(allocator, *bytes);
        *bytes = NULL;
    }
    return s;
}
