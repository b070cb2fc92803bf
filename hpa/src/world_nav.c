/* Worlds in .nav files: the WRLD chunk (regions, links, chokepoints, the regions' tables and kept
 * ways), the WREG chunk (each region's own data, as its GRID, MESH or WAYPOINTS chunk holds it), and
 * the parts of a split bake (one region's table in a WPRT chunk). Reading trusts nothing: it checks
 * every value a query relies on (nav_world_read_nav in nav/world.h).
 *
 * Layout (little-endian; docs/nav_files.md):
 *   WRLD v3   u32 regions, links, names_size, 0; u64 table entries, way bytes; f64 cost floor
 *             (straight), cost floor (octile); names (names_size bytes: NUL-terminated, offset 0 the
 *             empty name); zeros to a multiple of 8; then
 *             regions x 64 bytes: u32 kind, name offset; f64 snap (waypoints; else 0); u32 flags (1: a
 *               symmetric grid, 2: a grid searched through its HPA* bake), CRC-32 of its data; u64 its data's
 * offset in WREG (a multiple of 16) and size; f64 min x, min z, max x, max z (with locate's margin); u64
 * cells (a grid's); links x 24 bytes: u32 kind, name offset (0: none); f64 cost; u32 flags (1 one-way, 2
 * disabled at bake), 0; chokepoints (2 a link: its from end, its to end) x 20 bytes: u32 region, place id;
 *               f32 x, y, z;
 *             zeros to a multiple of 8; then region by region, its table's rows (world_internal.h):
 *             u32 each chokepoint's count of entries (in slot order), then the entries, row by row,
 *             each u32 target slot, u32 its way's bytes, f64 cost; then every way's bytes in entry
 *             order (a byte a run of moves: direction << 5 | length - 1, from the row's
 *             chokepoint's cell).
 *   WREG v3   each region's data chunk at its offset, zeros between (a grid searched through its
 *             HPA* bake: u64 its GRID data's bytes, that data, zeros to a multiple of 8, its HPA data).
 *   WPRT v2   u32 regions, 0; then for each: u32 region, digest, chokepoints k, 0; u64 entries,
 *             way bytes; its rows as in WRLD; its ways. The digest is a CRC-32 over the region's kind,
 * its data's CRC and its chokepoints (count, then each one's place id and position bits): what its table
 * depends on. */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "file.h"
#include "log.h"
#include "nav_file.h"
#include "world_internal.h"

#define REGION_ALIGN 16 /* of each region's data in the WREG chunk */
#define REGION_BYTES 80 /* of a region's record in the WRLD chunk */
#define LINK_BYTES   24
#define CHOKE_BYTES  20

/* ---- Writing ---------------------------------------------------------------------------------- */

/* Appends region r's data chunk (its GRID, MESH or WAYPOINTS chunk data) to out, reading the region
 * first when it is on disk. */
static nav_status region_blob(const nav_world *w, uint32_t r, nav_writer *out)
{
    nav__world_pins pins = {.allocator = w->allocator}; /* (a region on disk is read for it) */
    nav_status s = nav__world_pin(w, r, &pins);
    const nav__world_region *region = &w->regions[r];
    if (!nav_failed(s)) s = region->ops->write(region, out);
    nav__world_unpin_all(w, &pins);
    nav__world_pins_free(&pins);
    return s;
}

static uint32_t crc_u32(uint32_t crc, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    return nav_crc32(crc, b, 4);
}

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Region r's part digest: a CRC of what its table depends on (its data's CRC, its chokepoints). */
static uint32_t part_digest(const nav_world *w, uint32_t r, uint32_t blob_crc)
{
    const nav__world_region *region = &w->regions[r];
    uint32_t crc = crc_u32(0, (uint32_t)region->kind);
    crc = crc_u32(crc, blob_crc);
    crc = crc_u32(crc, region->choke_count);
    for (uint32_t i = 0; i < region->choke_count; i++) {
        const nav_world_place *p = &w->choke[w->region_choke[region->choke_first + i]];
        crc = crc_u32(crc, p->id);
        crc = crc_u32(crc, float_bits(p->position.x));
        crc = crc_u32(crc, float_bits(p->position.y));
        crc = crc_u32(crc, float_bits(p->position.z));
    }
    return crc;
}

/* The CRC of region r's data chunk (written to a scratch writer). */
static nav_status blob_crc(const nav_world *w, uint32_t r, uint32_t *crc)
{
    nav_writer blob;
    nav_writer_init(&blob, &w->allocator);
    nav_status s = region_blob(w, r, &blob);
    *crc = nav_crc32(0, blob.data, blob.size);
    nav_writer_destroy(&blob);
    return s;
}

/* Region r's rows: each chokepoint's count of entries, then the entries (their ways follow
 * elsewhere). */
static void put_rows(const nav_world *w, uint32_t r, nav_writer *o)
{
    const nav__world_region *region = &w->regions[r];
    const uint64_t *first = w->edge_first + region->choke_first;
    for (uint32_t i = 0; i < region->choke_count; i++)
        nav_writer_put_u32(o, (uint32_t)(first[i + 1] - first[i]));
    for (uint64_t e = first[0]; e < first[region->choke_count]; e++) {
        nav_writer_put_u32(o, w->edge_to[e]);
        nav_writer_put_u32(o, w->way_size[e]);
        nav_writer_put_f64(o, w->edge_cost[e]);
    }
}

static void put_world(const nav_world *w, const uint64_t *blob_at, const uint64_t *blob_size,
                      const uint32_t *crc, nav_writer *o)
{
    nav_writer_put_u32(o, w->region_count);
    nav_writer_put_u32(o, w->link_count);
    nav_writer_put_u32(o, w->names_size);
    nav_writer_put_u32(o, 0);
    nav_writer_put_u64(o, w->edge_count);
    nav_writer_put_u64(o, w->path_size);
    nav_writer_put_f64(o, w->cost_floor);
    nav_writer_put_f64(o, w->cost_floor_octile);
    nav_writer_put_bytes(o, w->names, w->names_size);
    nav_writer_align(o, 8);
    for (uint32_t r = 0; r < w->region_count; r++) {
        const nav__world_region *region = &w->regions[r];
        nav_writer_put_u32(o, (uint32_t)region->kind);
        nav_writer_put_u32(o, region->name);
        nav_writer_put_f64(o, region->snap);
        nav_writer_put_u32(o, (uint32_t)region->symmetric | region->ops->flags);
        nav_writer_put_u32(o, crc[r]);
        nav_writer_put_u64(o, blob_at[r]);
        nav_writer_put_u64(o, blob_size[r]);
        for (int i = 0; i < 4; i++) nav_writer_put_f64(o, region->box[i]);
        nav_writer_put_u64(o, region->cells);
    }
    for (uint32_t k = 0; k < w->link_count; k++) {
        const nav__world_link *l = &w->links[k];
        nav_writer_put_u32(o, (uint32_t)l->kind);
        nav_writer_put_u32(o, l->name);
        nav_writer_put_f64(o, l->cost);
        nav_writer_put_u32(o, (uint32_t)l->one_way | (uint32_t)l->disabled << 1);
        nav_writer_put_u32(o, 0);
    }
    for (uint32_t c = 0; c < w->choke_count; c++) {
        nav_writer_put_u32(o, w->choke[c].region);
        nav_writer_put_u32(o, w->choke[c].id);
        nav_writer_put_f32(o, w->choke[c].position.x);
        nav_writer_put_f32(o, w->choke[c].position.y);
        nav_writer_put_f32(o, w->choke[c].position.z);
    }
    nav_writer_align(o, 8);
    for (uint32_t r = 0; r < w->region_count; r++) put_rows(w, r, o);
    nav_writer_put_bytes(o, w->path_bytes, (size_t)w->path_size);
}

nav_status nav_world_write_nav(const nav_world *w, nav_writer *out)
{
    if (!w || !out) return NAV_FAILURE | NAV_INVALID_PARAM;
    if (w->part_list) return NAV_FAILURE | NAV_WRONG_STATE;
    const nav_allocator *a = &w->allocator;
    uint64_t *blob_at = nav__calloc(a, 2 * (size_t)w->region_count, sizeof *blob_at),
             *blob_size = blob_at + w->region_count;
    uint32_t *crc = nav__calloc(a, w->region_count, sizeof *crc);
    nav_writer regions, world;
    nav_writer_init(&regions, a);
    nav_writer_init(&world, a);
    nav_status s = blob_at && crc ? NAV_SUCCESS : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (uint32_t r = 0; r < w->region_count && !nav_failed(s); r++) {
        nav_writer_align(&regions, REGION_ALIGN);
        blob_at[r] = regions.size;
        s = region_blob(w, r, &regions);
        blob_size[r] = regions.size - blob_at[r];
        if (!nav_failed(s)) crc[r] = nav_crc32(0, regions.data + blob_at[r], (size_t)blob_size[r]);
    }
    if (!nav_failed(s)) {
        put_world(w, blob_at, blob_size, crc, &world);
        s = world.status;
    }
    if (!nav_failed(s)) {
        nav_chunk chunks[2] = {
            {NAV_CHUNK_WORLD, NAV_WORLD_CHUNK_VERSION, world.data, world.size},
            {NAV_CHUNK_WORLD_REGIONS, NAV_WORLD_CHUNK_VERSION, regions.data, regions.size}};
        s = nav_container_write(out, chunks, 2);
    }
    nav_writer_destroy(&world);
    nav_writer_destroy(&regions);
    nav__free(a, blob_at);
    nav__free(a, crc);
    return s;
}

/* Writes what write makes of w to path, atomically. */
static nav_status save_with(const nav_world *w, const char *path,
                            nav_status (*write)(const nav_world *, nav_writer *))
{
    if (!w || !path) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_writer image;
    nav_writer_init(&image, &w->allocator);
    nav_status s = write(w, &image);
    if (!nav_failed(s)) s = nav__write_file_atomic(path, image.data, image.size, &w->allocator);
    nav_writer_destroy(&image);
    return s;
}

nav_status nav_world_save_nav(const nav_world *w, const char *path)
{
    return save_with(w, path, nav_world_write_nav);
}

uint32_t nav_world_part_regions(const nav_world *w, uint32_t *regions)
{
    if (!w) return 0;
    uint32_t n = w->part_list ? w->part_count : w->region_count;
    for (uint32_t i = 0; regions && i < n; i++) regions[i] = w->part_list ? w->part_list[i] : i;
    return n;
}

nav_status nav_world_write_part(const nav_world *w, nav_writer *out)
{
    if (!w || !out) return NAV_FAILURE | NAV_INVALID_PARAM;
    uint32_t n = nav_world_part_regions(w, NULL);
    nav_writer part;
    nav_writer_init(&part, &w->allocator);
    nav_writer_put_u32(&part, n);
    nav_writer_put_u32(&part, 0);
    nav_status s = NAV_SUCCESS;
    for (uint32_t i = 0; i < n && !nav_failed(s); i++) {
        uint32_t r = w->part_list ? w->part_list[i] : i, crc;
        const nav__world_region *region = &w->regions[r];
        uint32_t p0 = region->choke_first, p1 = p0 + region->choke_count;
        s = blob_crc(w, r, &crc);
        nav_writer_put_u32(&part, r);
        nav_writer_put_u32(&part, part_digest(w, r, crc));
        nav_writer_put_u32(&part, region->choke_count);
        nav_writer_put_u32(&part, 0);
        nav_writer_put_u64(&part, w->edge_first[p1] - w->edge_first[p0]);
        nav_writer_put_u64(&part, w->way_first[p1] - w->way_first[p0]);
        put_rows(w, r, &part);
        nav_writer_put_bytes(&part, w->path_bytes + w->way_first[p0],
                             (size_t)(w->way_first[p1] - w->way_first[p0]));
    }
    if (!nav_failed(s)) s = part.status;
    if (!nav_failed(s)) {
        nav_chunk chunk = {NAV_CHUNK_WORLD_PART, NAV_WORLD_PART_CHUNK_VERSION, part.data, part.size};
        s = nav_container_write(out, &chunk, 1);
    }
    nav_writer_destroy(&part);
    return s;
}

nav_status nav_world_save_part(const nav_world *w, const char *path)
{
    return save_with(w, path, nav_world_write_part);
}

/* ---- Checking tables ------------------------------------------------------------------------------ */

/* Region r's rows and ways: targets that are other chokepoints of the region, ascending; costs not
 * negative and finite; in a symmetric table each entry's mirror, of the same cost; a way exactly for
 * each entry of a flat grid that keeps one (not the mirrored half of a symmetric table), each from
 * its chokepoint's cell to the other's. Logs the first fault. */
static nav_status check_table(const nav_world *w, uint32_t r, const nav_log *log, const char *chunk)
{
    const nav__world_region *region = &w->regions[r];
    uint32_t k = region->choke_count;
    bool flat = region->ops->way_ok != NULL; /* (the kinds whose tables keep ways) */
    for (uint32_t i = 0; i < k; i++) {
        uint64_t way = w->way_first[region->choke_first + i];
        for (uint64_t e = w->edge_first[region->choke_first + i];
             e < w->edge_first[region->choke_first + i + 1]; way += w->way_size[e++]) {
            uint32_t j = w->edge_to[e];
            double c = w->edge_cost[e];
            uint64_t runs = w->way_size[e], mirror;
            bool own = flat && (!region->symmetric || i < j);
            const char *why = NULL;
            if (j >= k || j == i)
                why = "a target that is no other chokepoint of the region";
            else if (e > w->edge_first[region->choke_first + i] && j <= w->edge_to[e - 1])
                why = "targets out of order";
            else if (!(c >= 0 && c < INFINITY))
                why = "a cost that is negative, infinite or not a number";
            else if (region->symmetric && ((mirror = nav__world_entry(w, region, j, i)) == UINT64_MAX ||
                                           w->edge_cost[mirror] != c))
                why = "a symmetric table without an entry's mirror";
            else if (!own && runs)
                why = "a way where none is kept";
            /* (a region on disk, on demand: its ways are walked when it is read) */
            else if (own && nav__world_region_loaded(region) &&
                     !region->ops->way_ok(region, w->choke[w->region_choke[region->choke_first + i]].id,
                                          w->choke[w->region_choke[region->choke_first + j]].id,
                                          w->path_bytes + way, runs))
                why = "a way that leaves its grid, goes where the grid allows no step or ends elsewhere";
            if (why) {
                nav__logf(log, NAV_LOG_ERROR, "%s chunk: region %u (\"%s\"), entry (%u, %u): %s", chunk, r,
                          nav__world_name(w, region->name), i, j < k ? j : k, why);
                return NAV_FAILURE | NAV_CORRUPT_DATA;
            }
        }
    }
    return NAV_SUCCESS;
}

/* The bytes of a region's rows of n entries (as put_rows writes them). */
static uint64_t rows_bytes(uint32_t k, uint64_t n)
{
    return 4 * (uint64_t)k + 16 * n;
}

/* Reads region r's rows (as put_rows wrote them) into w's rows from entry *at on (the region's
 * row starts, targets, costs, ways' sizes), up to entry `end`: false (nothing past end written) when
 * the counts pass it or the reader ends. */
static bool get_rows(nav_world *w, uint32_t r, nav_reader *rd, uint64_t *at, uint64_t end)
{
    const nav__world_region *region = &w->regions[r];
    uint64_t *first = w->edge_first + region->choke_first, e = *at;
    for (uint32_t i = 0; i < region->choke_count; i++) {
        first[i] = e;
        e += nav_reader_get_u32(rd);
        if (e > end) return false;
    }
    first[region->choke_count] = e;
    for (uint64_t x = *at; x < e; x++) {
        w->edge_to[x] = nav_reader_get_u32(rd);
        w->way_size[x] = nav_reader_get_u32(rd);
        w->edge_cost[x] = nav_reader_get_f64(rd);
    }
    *at = e;
    return !nav_failed(rd->status);
}

/* The rows at positions p0 .. p1 - 1 their ways' first bytes (way_first), from byte `at` on: returns
 * the byte after their last way. */
static uint64_t index_ways(nav_world *w, uint32_t p0, uint32_t p1, uint64_t at)
{
    for (uint32_t p = p0; p < p1; p++) {
        w->way_first[p] = at;
        for (uint64_t e = w->edge_first[p]; e < w->edge_first[p + 1]; e++) at += w->way_size[e];
    }
    w->way_first[p1] = at;
    return at;
}

/* Room for the tables of n entries and `ways` bytes of ways. */
static nav_status alloc_tables(nav_world *w, uint64_t n, uint64_t ways)
{
    const nav_allocator *a = &w->allocator;
    if (n >= SIZE_MAX / sizeof(double) || ways >= SIZE_MAX) return NAV_FAILURE | NAV_TOO_LARGE;
    size_t m = n ? (size_t)n : 1;
    w->edge_first = nav__calloc(a, (size_t)w->choke_count + 1, sizeof *w->edge_first);
    w->edge_to = nav__alloc(a, m * sizeof *w->edge_to);
    w->edge_cost = nav__alloc(a, m * sizeof *w->edge_cost);
    w->way_first = nav__calloc(a, (size_t)w->choke_count + 1, sizeof *w->way_first);
    w->way_size = nav__alloc(a, m * sizeof *w->way_size);
    w->path_bytes = nav__alloc(a, ways ? (size_t)ways : 1);
    if (!w->edge_first || !w->edge_to || !w->edge_cost || !w->way_first || !w->way_size || !w->path_bytes)
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    w->edge_count = n;
    w->path_size = ways;
    return NAV_SUCCESS;
}

/* ---- Parts -------------------------------------------------------------------------------------- */

/* Where a region's rows lie in its part (checked against the part's size, not yet read). */
typedef struct part_rows {
    const uint8_t *rows; /* its rows, then its ways */
    uint64_t entries, ways;
} part_rows;

/* One region's record of part p: where its rows lie, into found[r]. */
static nav_status read_part_record(nav_world *w, nav_reader *rd, uint32_t p, const nav_world_part *parts,
                                   uint32_t *from, part_rows *found, nav__file_log *flog, const nav_log *log)
{
    const char *name = parts[p].name ? parts[p].name : "part";
    uint32_t r = nav_reader_get_u32(rd), digest = nav_reader_get_u32(rd), k = nav_reader_get_u32(rd);
    uint32_t zero = nav_reader_get_u32(rd);
    uint64_t entries = nav_reader_get_u64(rd), ways = nav_reader_get_u64(rd);
    if (nav_failed(rd->status) || zero || r >= w->region_count)
        return nav__chunk_corrupt(rd, &flog->hooks, "WPRT", "a region index the world does not have",
                                  UINT32_MAX);
    const char *region_name = nav__world_name(w, w->regions[r].name);
    if (from[r] != UINT32_MAX) {
        nav__logf(log, NAV_LOG_ERROR, "%s: region \"%s\" has a part already (%s)", name, region_name,
                  parts[from[r]].name ? parts[from[r]].name : "part");
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    from[r] = p;
    uint32_t crc;
    nav_status s = blob_crc(w, r, &crc);
    if (nav_failed(s)) return s;
    if (k != w->regions[r].choke_count || digest != part_digest(w, r, crc)) {
        nav__logf(log, NAV_LOG_ERROR,
                  "%s: the part of region \"%s\" was made from other region data or other links", name,
                  region_name);
        return NAV_FAILURE | NAV_SOURCE_MISMATCH;
    }
    uint64_t left = nav_reader_remaining(rd);
    if (entries > left / 16 || rows_bytes(k, entries) > left || ways > left - rows_bytes(k, entries))
        return nav__chunk_corrupt(rd, &flog->hooks, "WPRT", "it is shorter than its counts", UINT32_MAX);
    found[r] = (part_rows){nav_reader_bytes(rd, (size_t)(rows_bytes(k, entries) + ways)), entries, ways};
    return NAV_SUCCESS;
}

nav_status nav__world_tables_from_parts(nav_world *w, const nav_world_part *parts, uint32_t count,
                                        uint64_t limit, const nav_log *log)
{
    const nav_allocator *a = &w->allocator;
    if (!parts || w->part_list) {
        nav__logf(log, NAV_LOG_ERROR, "parts: none given, or given with only_region");
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    uint32_t *from = nav__alloc(a, w->region_count * sizeof *from);
    part_rows *found = nav__calloc(a, w->region_count, sizeof *found);
    nav_status s = from && found ? NAV_SUCCESS : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (uint32_t r = 0; r < w->region_count && from; r++) from[r] = UINT32_MAX;
    for (uint32_t p = 0; p < count && !nav_failed(s); p++) {
        const char *name = parts[p].name ? parts[p].name : "part";
        nav__file_log flog;
        nav__file_log_init(&flog, log, name);
        nav_container c;
        const nav_chunk *chunk = NULL;
        s = nav_container_open(parts[p].data, parts[p].size, &flog.hooks, &c);
        if (!nav_failed(s))
            s = nav__find_unique_chunk(&c, NAV_CHUNK_WORLD_PART, "WPRT", NAV_WORLD_PART_CHUNK_VERSION,
                                       &flog.hooks, &chunk);
        if (nav_failed(s)) break;
        nav_reader rd;
        nav_reader_init(&rd, chunk->data, (size_t)chunk->size);
        uint32_t records = nav_reader_get_u32(&rd), zero = nav_reader_get_u32(&rd);
        if (nav_failed(rd.status) || zero || records > w->region_count) {
            s = nav__chunk_corrupt(&rd, &flog.hooks, "WPRT", "a bad count of regions", UINT32_MAX);
            break;
        }
        for (uint32_t i = 0; i < records && !nav_failed(s); i++)
            s = read_part_record(w, &rd, p, parts, from, found, &flog, log);
        if (!nav_failed(s) && nav_reader_remaining(&rd))
            s = nav__chunk_corrupt(&rd, &flog.hooks, "WPRT", "bytes after its last region", UINT32_MAX);
    }
    uint64_t entries = 0, ways = 0; /* (each within its part's bytes: no overflow) */
    for (uint32_t r = 0; r < w->region_count && !nav_failed(s); r++) {
        if (from[r] == UINT32_MAX) {
            nav__logf(log, NAV_LOG_ERROR, "region \"%s\": no part", nav__world_name(w, w->regions[r].name));
            s = NAV_FAILURE | NAV_INVALID_PARAM;
        }
        entries += found[r].entries, ways += found[r].ways;
    }
    if (!nav_failed(s) && entries * NAV__WORLD_ENTRY_BYTES + ways > limit) {
        nav__logf(log, NAV_LOG_ERROR,
                  "parts: the regions' tables pass the bake's limit of %llu bytes (max_table_bytes)",
                  (unsigned long long)limit);
        s = NAV_FAILURE | NAV_TOO_LARGE;
    }
    if (!nav_failed(s)) s = alloc_tables(w, entries, ways);
    uint64_t at = 0, way = 0;
    for (uint32_t r = 0; r < w->region_count && !nav_failed(s); r++) { /* the regions' rows in order */
        const nav__world_region *region = &w->regions[r];
        uint64_t first = at, rows = rows_bytes(region->choke_count, found[r].entries), way_at = way;
        nav_reader rd;
        nav_reader_init(&rd, found[r].rows, (size_t)rows);
        bool ok = get_rows(w, r, &rd, &at, first + found[r].entries) && at == first + found[r].entries &&
                  !nav_reader_remaining(&rd);
        if (ok) way = index_ways(w, region->choke_first, region->choke_first + region->choke_count, way);
        uint64_t sum = way - way_at;
        if (!ok || sum != found[r].ways) {
            nav__logf(log, NAV_LOG_ERROR, "%s: WPRT chunk: region \"%s\": rows or ways that do not add up",
                      parts[from[r]].name ? parts[from[r]].name : "part",
                      nav__world_name(w, w->regions[r].name));
            s = NAV_FAILURE | NAV_CORRUPT_DATA;
            break;
        }
        if (sum) memcpy(w->path_bytes + way_at, found[r].rows + rows, (size_t)sum);
    }
    for (uint32_t r = 0; r < w->region_count && !nav_failed(s); r++) s = check_table(w, r, log, "WPRT");
    nav__free(a, from);
    nav__free(a, found);
    return s;
}

/* ---- Reading a world file ----------------------------------------------------------------------- */

typedef struct reader {
    nav_reader r;
    const nav_log *log;
    nav_world *w;
    bool lazy; /* regions on demand: their data stays in the file */
} reader;

static nav_status corrupt(reader *rd, const char *what, uint32_t index)
{
    return nav__chunk_corrupt(&rd->r, rd->log, "WRLD", what, index);
}

/* A name at offset `at` of the names: 1 to NAV_WORLD_MAX_NAME bytes at the start of a string. */
static bool name_at(const nav_world *w, uint32_t at)
{
    if (at == 0 || at >= w->names_size || w->names[at - 1] != '\0') return false;
    size_t n = strnlen(w->names + at, w->names_size - at);
    if (n == 0 || n > NAV_WORLD_MAX_NAME) return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)w->names[at + i] < 0x20 || w->names[at + i] == 0x7f) return false;
    return true;
}

/* Reads a region's data chunk into w->owned[r] and the region's pointers. */
nav_status nav__world_read_region_data(nav_world *w, uint32_t r, const void *data, size_t size, bool labels,
                                       const nav_log *log)
{
    nav__world_region *region = &w->regions[r];
    nav__world_owned *o = &w->owned[r];
    nav_status s = region->ops->read(o, data, size, labels, &w->allocator, log);
    region->grid = o->grid, region->mesh = o->mesh, region->waypoints = o->waypoints, region->hpa = o->hpa;
    if (nav_failed(s)) nav__logf(log, NAV_LOG_ERROR, "WREG chunk: region %u's data is refused", r);
    return s;
}

void nav__world_drop_region_data(nav_world *w, uint32_t r)
{
    nav__world_region *region = &w->regions[r];
    nav__world_owned *o = &w->owned[r];
    nav_hpa_destroy(o->hpa);
    nav_grid_destroy(o->grid);
    nav_mesh_destroy(o->mesh);
    nav_waypoints_destroy(o->waypoints);
    *o = (nav__world_owned){0};
    region->grid = NULL, region->mesh = NULL, region->waypoints = NULL, region->hpa = NULL;
}

/* Region r's record, and (not lazy) its data from the WREG chunk. The record's extent, symmetry and
 * cells go to the region (lazy) or to box, symmetric and cells, to be checked against the data. */
static nav_status read_region(reader *rd, uint32_t r, const nav_chunk *wreg, double box[4], bool *symmetric,
                              uint64_t *cells)
{
    nav_world *w = rd->w;
    nav__world_region *region = &w->regions[r];
    uint32_t kind = nav_reader_get_u32(&rd->r);
    region->name = nav_reader_get_u32(&rd->r);
    region->snap = nav_reader_get_f64(&rd->r);
    uint32_t sym = nav_reader_get_u32(&rd->r), crc = nav_reader_get_u32(&rd->r);
    uint64_t at = nav_reader_get_u64(&rd->r), size = nav_reader_get_u64(&rd->r);
    for (int i = 0; i < 4; i++) box[i] = nav_reader_get_f64(&rd->r);
    *cells = nav_reader_get_u64(&rd->r);
    if (nav_failed(rd->r.status)) return corrupt(rd, "it ends inside region", r);
    /* flags: 1 symmetric (the kinds whose tables keep ways), 2 a grid searched through its HPA* bake
     * (the kind's own flag) */
    if (!nav__world_ops_of((nav_world_region_kind)kind, false) &&
        !nav__world_ops_of((nav_world_region_kind)kind, true))
        return corrupt(rd, "a bad kind, region", r);
    const nav__world_region_ops *ops = nav__world_ops_of((nav_world_region_kind)kind, (sym & 2u) != 0);
    if (!ops || sym > 3 || ((sym & 1u) && !ops->way_ok)) return corrupt(rd, "bad flags, region", r);
    region->kind = (nav_world_region_kind)kind;
    region->ops = ops; /* (nav__world_note_region says the same, once every region is read) */
    if (!name_at(w, region->name)) return corrupt(rd, "a bad name, region", r);
    if (ops->snaps ? !(region->snap > 0 && isfinite(region->snap)) : region->snap != 0)
        return corrupt(rd, "a bad snap distance, region", r);
    *symmetric = sym & 1u;
    region->by_hpa = (sym & 2u) != 0;
    /* (a grid's places are its cells) */
    if ((kind == NAV_WORLD_REGION_GRID) != (*cells > 0) || *cells > NAV_GRID_MAX_CELLS)
        return corrupt(rd, "a bad count of cells, region", r);
    if (at % REGION_ALIGN || at > wreg->size || size > wreg->size - at)
        return corrupt(rd, "region data outside the WREG chunk, region", r);
    if (rd->lazy) { /* the record stands until the data is read (nav__world_check_region) */
        if (!(box[0] <= box[2] && box[1] <= box[3]) || !isfinite(box[0]) || !isfinite(box[1]) ||
            !isfinite(box[2]) || !isfinite(box[3]))
            return corrupt(rd, "a bad extent, region", r);
        memcpy(region->box, box, sizeof region->box);
        region->symmetric = *symmetric, region->cells = *cells;
        nav__world_cache_set_region(w->cache, r, at, size, crc);
        return NAV_SUCCESS;
    }
    const uint8_t *data = (const uint8_t *)wreg->data + at;
    if (nav_crc32(0, data, (size_t)size) != crc) return corrupt(rd, "region data with a bad CRC, region", r);
    return nav__world_read_region_data(w, r, data, (size_t)size, false, rd->log);
}

/* A chokepoint's place: a walkable place of its region, at a finite position (with its region on
 * disk: only what the record tells, a grid's cell count). */
static bool place_ok(const nav_world *w, const nav_world_place *p)
{
    if (p->region >= w->region_count) return false;
    if (!(isfinite(p->position.x) && isfinite(p->position.y) && isfinite(p->position.z))) return false;
    const nav__world_region *region = &w->regions[p->region];
    return region->ops->place_ok(region, p->id);
}

nav_status nav__world_check_region(const nav_world *w, uint32_t r, const double box[4], bool symmetric,
                                   const nav_log *log)
{
    const nav__world_region *region = &w->regions[r];
    double facts_box[4];
    bool facts_symmetric;
    uint64_t facts_cells;
    nav__world_region_facts(region, facts_box, &facts_symmetric, &facts_cells);
    if (memcmp(facts_box, box, sizeof facts_box) || facts_symmetric != symmetric ||
        facts_cells != region->cells) {
        nav__logf(log, NAV_LOG_ERROR,
                  "WRLD chunk: region %u (\"%s\"): an extent, symmetry or size its data does not give", r,
                  nav__world_name(w, region->name));
        return NAV_FAILURE | NAV_CORRUPT_DATA;
    }
    for (uint32_t i = 0; i < region->choke_count; i++) {
        uint32_t c = w->region_choke[region->choke_first + i];
        if (!place_ok(w, &w->choke[c])) {
            nav__logf(log, NAV_LOG_ERROR,
                      "WRLD chunk: chokepoint %u: at no walkable place of region %u (\"%s\")", c, r,
                      nav__world_name(w, region->name));
            return NAV_FAILURE | NAV_CORRUPT_DATA;
        }
    }
    return check_table(w, r, log, "WRLD");
}

/* A world file read on demand: the open file, where its WREG chunk lies, the budget. */
typedef struct nav__lazy_file {
    FILE *file;
    const char *path;
    uint64_t regions_at;
    size_t budget;
    const nav_log *log; /* the caller's (the cache prefixes the path itself) */
} nav__lazy_file;

static nav_status read_world(reader *rd, const nav_chunk *wreg, const nav__lazy_file *lazy)
{
    nav_world *w = rd->w;
    const nav_allocator *a = &w->allocator;
    nav_reader *r = &rd->r;
    w->region_count = nav_reader_get_u32(r);
    w->link_count = nav_reader_get_u32(r);
    w->names_size = nav_reader_get_u32(r);
    uint32_t zero = nav_reader_get_u32(r);
    uint64_t table_size = nav_reader_get_u64(r), path_size = nav_reader_get_u64(r);
    double floor = nav_reader_get_f64(r), floor_octile = nav_reader_get_f64(r);
    if (nav_failed(r->status)) return corrupt(rd, "it ends inside its header", UINT32_MAX);
    if (zero || w->region_count == 0 || w->region_count > NAV_WORLD_MAX_REGIONS ||
        w->link_count > NAV_WORLD_MAX_LINKS)
        return corrupt(rd, "bad counts", UINT32_MAX);
    if (!(floor >= 0 && floor_octile >= 0 && isfinite(floor) && isfinite(floor_octile)))
        return corrupt(rd, "bad cost floors", UINT32_MAX);
    w->choke_count = 2 * w->link_count;
    const void *names = nav_reader_bytes(r, w->names_size);
    nav_reader_align(r, 8);
    uint64_t rest = nav_reader_remaining(r);
    if (!names || w->names_size == 0 ||
        rest < (uint64_t)w->region_count * REGION_BYTES + (uint64_t)w->link_count * LINK_BYTES +
                   (uint64_t)w->choke_count * CHOKE_BYTES)
        return corrupt(rd, "it is shorter than its counts", UINT32_MAX);
    w->names = nav__alloc(a, w->names_size);
    w->regions = nav__calloc(a, w->region_count, sizeof *w->regions);
    w->owned = nav__calloc(a, w->region_count, sizeof *w->owned);
    w->links = nav__calloc(a, w->link_count ? w->link_count : 1, sizeof *w->links);
    double(*box)[4] = nav__alloc(a, w->region_count * sizeof *box);
    bool *symmetric = nav__alloc(a, w->region_count);
    uint64_t *cells = nav__alloc(a, w->region_count * sizeof *cells);
    nav_status s = NAV_SUCCESS;
    if (!w->names || !w->regions || !w->owned || !w->links || !box || !symmetric || !cells)
        s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (!nav_failed(s)) {
        memcpy(w->names, names, w->names_size);
        w->owned_count = w->region_count;
        if (w->names[0] != '\0' || w->names[w->names_size - 1] != '\0')
            s = corrupt(rd, "names that do not start and end with a NUL", UINT32_MAX);
    }
    if (!nav_failed(s) && lazy)
        s = nav__world_cache_create(w, lazy->file, lazy->path, lazy->regions_at, lazy->budget, lazy->log);
    for (uint32_t i = 0; i < w->region_count && !nav_failed(s); i++)
        s = read_region(rd, i, wreg, box[i], &symmetric[i], &cells[i]);
    for (uint32_t i = 0; i < w->region_count && !nav_failed(s); i++) {
        nav__world_region *region = &w->regions[i];
        nav__world_note_region(w, i);
        if (!rd->lazy && (region->symmetric != symmetric[i] || region->cells != cells[i] ||
                          memcmp(region->box, box[i], sizeof box[i])))
            s = corrupt(rd, "an extent, symmetry or size its data does not give, region", i);
    }
    for (uint32_t k = 0; k < w->link_count && !nav_failed(s); k++) {
        nav__world_link *l = &w->links[k];
        uint32_t kind = nav_reader_get_u32(r);
        l->name = nav_reader_get_u32(r);
        l->cost = nav_reader_get_f64(r);
        uint32_t flags = nav_reader_get_u32(r), pad = nav_reader_get_u32(r);
        l->kind = (nav_world_link_kind)kind;
        l->one_way = flags & 1, l->disabled = flags >> 1 & 1;
        if (kind == 0 || kind >= NAV_LINK_KIND_COUNT || (l->name && !name_at(w, l->name)) ||
            !(l->cost > 0 && l->cost <= NAV_WORLD_MAX_LINK_COST) || flags > 3 || pad)
            s = corrupt(rd, "a bad link", k);
    }
    if (!nav_failed(s)) {
        w->choke = nav__calloc(a, w->choke_count ? w->choke_count : 1, sizeof *w->choke);
        if (!w->choke) s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    for (uint32_t c = 0; c < w->choke_count && !nav_failed(s); c++) {
        nav_world_place *p = &w->choke[c];
        p->region = nav_reader_get_u32(r);
        p->id = nav_reader_get_u32(r);
        p->position.x = nav_reader_get_f32(r);
        p->position.y = nav_reader_get_f32(r);
        p->position.z = nav_reader_get_f32(r);
        if (!place_ok(w, p))
            s = corrupt(rd, "a chokepoint at no walkable place of its region, chokepoint", c);
    }
    if (!nav_failed(s)) s = nav__world_index_chokepoints(w);
    if (!nav_failed(s)) { /* the rest is exactly the rows and ways its header counts: checked before they
                             are allocated, so a forged count cannot ask for gigabytes */
        nav_reader_align(r, 8);
        uint64_t left = nav_reader_remaining(r), fixed = 4 * (uint64_t)w->choke_count;
        if (nav_failed(r->status) || fixed > left || table_size > (left - fixed) / 16 ||
            path_size != left - fixed - 16 * table_size)
            s = corrupt(rd, "rows or ways of another size than the chunk holds", UINT32_MAX);
    }
    if (!nav_failed(s)) s = alloc_tables(w, table_size, path_size);
    if (!nav_failed(s)) {
        uint64_t at = 0;
        bool ok = true;
        for (uint32_t i = 0; i < w->region_count && ok; i++) ok = get_rows(w, i, r, &at, table_size);
        const void *bytes = ok ? nav_reader_bytes(r, (size_t)path_size) : NULL;
        if (!ok || at != table_size || !bytes || index_ways(w, 0, w->choke_count, 0) != path_size ||
            nav_reader_remaining(r))
            s = corrupt(rd, "rows or ways whose counts do not add up", UINT32_MAX);
        else if (path_size)
            memcpy(w->path_bytes, bytes, (size_t)path_size);
    }
    for (uint32_t i = 0; i < w->region_count && !nav_failed(s); i++) s = check_table(w, i, rd->log, "WRLD");
    if (rd->lazy)
        w->cost_floor = floor, w->cost_floor_octile = floor_octile; /* (no regions to work them out) */
    if (!nav_failed(s)) s = nav__world_finish(w);
    for (uint32_t i = 1; i < w->region_count && !nav_failed(s); i++)
        if (!strcmp(nav__world_name(w, w->regions[w->by_name[i - 1]].name),
                    nav__world_name(w, w->regions[w->by_name[i]].name)))
            s = corrupt(rd, "two regions of one name, region", w->by_name[i]);
    if (!nav_failed(s) && (w->cost_floor != floor || w->cost_floor_octile != floor_octile))
        s = corrupt(rd, "cost floors its regions and links do not give", UINT32_MAX);
    nav__free(a, box);
    nav__free(a, symmetric);
    nav__free(a, cells);
    return s;
}

/* A world from its WRLD chunk's data, and WREG's (lazy null) or a file to read regions from later. */
static nav_status read_chunks(const nav_chunk *world, const nav_chunk *regions,
                              const nav_world_load_desc *desc, const nav__lazy_file *lazy, nav_world **out)
{
    *out = NULL;
    nav_allocator a;
    nav__allocator_resolve(&a, desc ? desc->allocator : NULL);
    nav_world *w = nav__calloc(&a, 1, sizeof *w);
    if (!w) {
        if (lazy) fclose(lazy->file);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    w->allocator = a;
    reader rd = {.log = desc ? desc->log : NULL, .w = w, .lazy = lazy != NULL};
    nav_reader_init(&rd.r, world->data, (size_t)world->size);
    nav_status s = read_world(&rd, regions, lazy);
    if (lazy && !w->cache) fclose(lazy->file); /* (else the world's cache closes it) */
    if (nav_failed(s)) {
        nav_world_destroy(w);
        return s;
    }
    *out = w;
    return NAV_SUCCESS;
}

nav_status nav_world_read_nav(const void *data, size_t size, const nav_world_load_desc *desc, nav_world **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!data && size) return NAV_FAILURE | NAV_INVALID_PARAM;
    const nav_log *log = desc ? desc->log : NULL;
    nav_container c;
    nav_status s = nav_container_open(data, size, log, &c);
    const nav_chunk *world = NULL, *regions = NULL;
    if (!nav_failed(s))
        s = nav__find_unique_chunk(&c, NAV_CHUNK_WORLD, "WRLD", NAV_WORLD_CHUNK_VERSION, log, &world);
    if (!nav_failed(s))
        s = nav__find_unique_chunk(&c, NAV_CHUNK_WORLD_REGIONS, "WREG", NAV_WORLD_CHUNK_VERSION, log,
                                   &regions);
    return nav_failed(s) ? s : read_chunks(world, regions, desc, NULL, out);
}

/* nav_world_load_nav with a region budget: the header, the chunk table and the WRLD chunk are read
 * (and checked); the regions wait in the file. */
static nav_status load_lazy(const char *path, const nav_world_load_desc *desc, nav__file_log *flog,
                            nav_world **out)
{
    nav_allocator a;
    nav__allocator_resolve(&a, desc->allocator);
    FILE *f;
    uint64_t size;
    char why[NAV__WHY_SIZE];
    nav_status s = nav__file_open(path, &f, &size, why);
    if (nav_failed(s)) {
        nav__logf(&flog->hooks, NAV_LOG_ERROR, "cannot read: %s", why);
        return s;
    }
    nav__chunk_entry table[NAV_CONTAINER_MAX_CHUNKS];
    uint32_t count;
    s = nav__container_read_table(f, size, &flog->hooks, table, &count);
    const nav__chunk_entry *wrld = NULL, *wreg = NULL;
    for (uint32_t i = 0; i < count && !nav_failed(s); i++) {
        const nav__chunk_entry **slot = table[i].tag == NAV_CHUNK_WORLD           ? &wrld
                                        : table[i].tag == NAV_CHUNK_WORLD_REGIONS ? &wreg
                                                                                  : NULL;
        if (slot && *slot) {
            nav__logf(&flog->hooks, NAV_LOG_ERROR, "chunk %u: a second WRLD or WREG chunk, a file holds one",
                      i);
            s = NAV_FAILURE | NAV_CORRUPT_DATA;
        }
        if (slot) *slot = &table[i];
    }
    if (!nav_failed(s) && (!wrld || !wreg)) {
        nav__logf(&flog->hooks, NAV_LOG_ERROR, "no WRLD and WREG chunks: not a world file");
        s = NAV_FAILURE | NAV_CORRUPT_DATA;
    }
    if (!nav_failed(s) &&
        (wrld->version != NAV_WORLD_CHUNK_VERSION || wreg->version != NAV_WORLD_CHUNK_VERSION)) {
        nav__logf(&flog->hooks, NAV_LOG_ERROR, "world chunks of version %u, this library reads %d%s",
                  wrld->version, NAV_WORLD_CHUNK_VERSION,
                  wrld->version < NAV_WORLD_CHUNK_VERSION ? " (an older libnav made it: bake the file again)"
                                                          : "");
        s = NAV_FAILURE | NAV_WRONG_VERSION;
    }
    uint8_t *data = NULL;
    if (!nav_failed(s)) {
        data = wrld->size <= SIZE_MAX ? nav__alloc(&a, wrld->size ? (size_t)wrld->size : 1) : NULL;
        if (!data) s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    if (!nav_failed(s) && (nav__fseek(f, (off_t)wrld->offset, SEEK_SET) != 0 ||
                           fread(data, 1, (size_t)wrld->size, f) != (size_t)wrld->size)) {
        nav__logf(&flog->hooks, NAV_LOG_ERROR, "cannot read its WRLD chunk");
        s = NAV_FAILURE | NAV_IO_ERROR;
    }
    if (!nav_failed(s) && nav_crc32(0, data, (size_t)wrld->size) != wrld->crc) {
        nav__logf(&flog->hooks, NAV_LOG_ERROR, "WRLD chunk: checksum mismatch");
        s = NAV_FAILURE | NAV_CORRUPT_DATA;
    }
    if (nav_failed(s)) {
        nav__free(&a, data);
        fclose(f);
        return s;
    }
    nav_chunk world = {NAV_CHUNK_WORLD, wrld->version, data, wrld->size},
              regions = {NAV_CHUNK_WORLD_REGIONS, wreg->version, NULL, wreg->size};
    nav__lazy_file lazy = {f, path, wreg->offset, desc->region_budget, desc->log};
    nav_world_load_desc d = *desc;
    d.log = &flog->hooks;
    s = read_chunks(&world, &regions, &d, &lazy, out); /* (the file is the world's now, or closed) */
    nav__free(&a, data);
    return s;
}

nav_status nav_world_load_nav(const char *path, const nav_world_load_desc *desc, nav_world **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!path) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_allocator a;
    nav__allocator_resolve(&a, desc ? desc->allocator : NULL);
    nav__file_log flog;
    nav__file_log_init(&flog, desc ? desc->log : NULL, path);
    if (desc && desc->region_budget) return load_lazy(path, desc, &flog, out);
    void *bytes;
    size_t size;
    char why[NAV__WHY_SIZE];
    nav_status s = nav__file_read_all(path, &a, &bytes, &size, why);
    if (nav_failed(s)) {
        nav__logf(&flog.hooks, NAV_LOG_ERROR, "cannot read: %s", why);
        return s;
    }
    nav_world_load_desc d = desc ? *desc : (nav_world_load_desc){0};
    d.log = &flog.hooks;
    s = nav_world_read_nav(bytes, size, &d, out);
    nav__free(&a, bytes);
    return s;
}
