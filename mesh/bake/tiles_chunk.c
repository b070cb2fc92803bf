/* The TILS chunk of a .nav file: a level built in tiles, kept as its tiles (nav/geometry.h).
 *
 * Layout (little-endian, version NAV_MESH_TILES_CHUNK_VERSION; offsets count from the chunk's first
 * byte, which a container puts at a multiple of 16):
 *   f32 cell size, cell height, agent height, radius, climb, max slope, min island area,
 *       max edge length, max edge error, detail sample distance, detail max error,
 *       link extents x, y, z                  the build's options, resolved
 *   u32 max polygon vertices, tile size
 *   f32 origin x, y, z                        the level's box's low corner
 *   u32 width, depth (cells), steps           the level's grid
 *   u32 volumes, links
 *   f64 area cost[256], u16 area flags[256]
 *   per volume: u32 points, f32 min y, max y, u8 area, u8 0 0 0, then f32 x, z [points]
 *   per link: f32 start x, y, z, end x, y, z; f64 cost; u32 user id; u16 flags; u8 two-way; u8 0
 *   zero padding to 8
 *   per tile, row by row (tiles along x = ceil(width / tile size), along z likewise):
 *       u64 offset, u32 size, u32 CRC-32 of its block
 *   the tiles' blocks, in the same order, each at a multiple of 16, zero padding between
 * A tile's block:
 *   u32 tile x, tile z, vertices, polygons, edges, height points, height triangles, outlines cut in part
 *   u64 source                                what the tile was built from (tiles.c; version 2 on)
 *   i32 x, y, z [vertices]                    cells and steps of the level's grid
 *   u32 poly_first[polygons + 1], u32 vertex[edges], u8 area[polygons], zero padding to 4
 *   heights (when the options sample them): u32 point_first[polygons + 1], tri_first[polygons + 1],
 *   f32 x, y, z [height points] (cells and steps), u8 a, b, c [height triangles] (points of the
 *   polygon's own, from its first), zero padding to 4
 *
 * Nothing is trusted: the options as a build checks them, the grid's size, each count against the
 * bytes left before anything is allocated, each block's place, size and CRC, every index, every
 * polygon of 3 to max vertices, convex and clockwise (x right, z down) inside its tile, heights
 * finite near their tile. The mesh stitched from the tiles is then checked as a MESH chunk is. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "build_geometry.h"
#include "ds.h"
#include "log.h"
#include "mesh_internal.h"
#include "nav_file.h"

enum { TILE_HEADER_BYTES = 8 * 4 + 8, DIRECTORY_ENTRY_BYTES = 16 };

#define MAX_ORIGIN 1e9f /* coordinates of the box beyond this are refused, as a MESH chunk's */

static void put_padding(nav_writer *w, size_t start, size_t alignment)
{
    while ((w->size - start) % alignment) nav_writer_put_u8(w, 0);
}

static bool has_heights(const nav_geometry_build_desc *d)
{
    return d->detail_sample_distance > 0;
}

static void write_tile(nav_writer *w, const build *b, uint32_t item, size_t start)
{
    const nav__polygons *p = &b->results[item].polygons;
    uint32_t verts = (uint32_t)arrlenu(p->x),
             polys = arrlenu(p->poly_first) ? (uint32_t)arrlenu(p->poly_first) - 1 : 0,
             edges = (uint32_t)arrlenu(p->poly_verts);
    bool heights = has_heights(&b->desc) && arrlenu(p->detail_point_first) == (size_t)polys + 1 &&
                   arrlenu(p->detail_tri_first) == (size_t)polys + 1;
    uint32_t points = heights ? (uint32_t)(arrlenu(p->detail_points) / 3) : 0,
             tris = heights ? (uint32_t)(arrlenu(p->detail_tris) / 3) : 0;
    nav_writer_put_u32(w, item % (uint32_t)b->tiles_x);
    nav_writer_put_u32(w, item / (uint32_t)b->tiles_x);
    nav_writer_put_u32(w, verts);
    nav_writer_put_u32(w, polys);
    nav_writer_put_u32(w, edges);
    nav_writer_put_u32(w, points);
    nav_writer_put_u32(w, tris);
    nav_writer_put_u32(w, p->failed_regions);
    nav_writer_put_u64(w, b->results[item].source);
    for (uint32_t v = 0; v < verts; v++) {
        nav_writer_put_i32(w, p->x[v]);
        nav_writer_put_i32(w, p->y[v]);
        nav_writer_put_i32(w, p->z[v]);
    }
    for (uint32_t q = 0; q <= polys; q++) nav_writer_put_u32(w, polys ? p->poly_first[q] : 0);
    for (uint32_t e = 0; e < edges; e++) nav_writer_put_u32(w, p->poly_verts[e]);
    if (polys) nav_writer_put_bytes(w, p->poly_area, polys);
    put_padding(w, start, 4);
    if (!has_heights(&b->desc)) return;
    for (uint32_t q = 0; q <= polys; q++) nav_writer_put_u32(w, heights ? p->detail_point_first[q] : 0);
    for (uint32_t q = 0; q <= polys; q++) nav_writer_put_u32(w, heights ? p->detail_tri_first[q] : 0);
    for (size_t k = 0; k < 3 * (size_t)points; k++) nav_writer_put_f32(w, p->detail_points[k]);
    if (tris) nav_writer_put_bytes(w, p->detail_tris, 3 * (size_t)tris);
    put_padding(w, start, 4);
}

static void store_u32(uint8_t *p, uint32_t v)
{
    for (int k = 0; k < 4; k++) p[k] = (uint8_t)(v >> (8 * k));
}

nav_status nav_geometry_tiles_write_chunk(const nav_geometry_tiles *tiles, nav_writer *w)
{
    if (!tiles || !w) return NAV_FAILURE | NAV_INVALID_PARAM;
    const build *b = &tiles->b;
    const nav_geometry_build_desc *d = &b->desc;
    size_t start = w->size;
    const float *options[] = {NAV__GEOMETRY_FLOAT_OPTIONS(d)};
    for (size_t k = 0; k < sizeof options / sizeof *options; k++) nav_writer_put_f32(w, *options[k]);
    nav_writer_put_u32(w, d->max_poly_verts);
    nav_writer_put_u32(w, d->tile_size);
    nav_writer_put_f32(w, b->origin.x);
    nav_writer_put_f32(w, b->origin.y);
    nav_writer_put_f32(w, b->origin.z);
    nav_writer_put_u32(w, (uint32_t)b->width);
    nav_writer_put_u32(w, (uint32_t)b->depth);
    nav_writer_put_u32(w, b->steps);
    nav_writer_put_u32(w, d->volume_count);
    nav_writer_put_u32(w, d->link_count);
    for (int a = 0; a < 256; a++) nav_writer_put_f64(w, tiles->area_cost[a]);
    for (int a = 0; a < 256; a++) nav_writer_put_u16(w, tiles->area_flags[a]);
    for (uint32_t i = 0; i < d->volume_count; i++) {
        const nav_geometry_volume *v = &d->volumes[i];
        nav_writer_put_u32(w, v->point_count);
        nav_writer_put_f32(w, v->min_y);
        nav_writer_put_f32(w, v->max_y);
        nav_writer_put_u32(w, v->area);
        for (uint32_t k = 0; k < 2 * v->point_count; k++) nav_writer_put_f32(w, v->points[k]);
    }
    for (uint32_t i = 0; i < d->link_count; i++) {
        const nav_mesh_link_desc *l = &d->links[i];
        const float ends[6] = {l->start.x, l->start.y, l->start.z, l->end.x, l->end.y, l->end.z};
        for (int k = 0; k < 6; k++) nav_writer_put_f32(w, ends[k]);
        nav_writer_put_f64(w, l->cost);
        nav_writer_put_u32(w, l->user_id);
        nav_writer_put_u16(w, l->flags);
        nav_writer_put_u8(w, l->bidirectional ? 1 : 0);
        nav_writer_put_u8(w, 0);
    }
    put_padding(w, start, 8);
    uint32_t count = (uint32_t)arrlenu(b->results);
    size_t directory = w->size;
    for (uint32_t t = 0; t < count; t++) {
        nav_writer_put_u64(w, 0);
        nav_writer_put_u32(w, 0);
        nav_writer_put_u32(w, 0);
    }
    for (uint32_t t = 0; t < count; t++) {
        put_padding(w, start, 16);
        size_t at = w->size;
        write_tile(w, b, t, start);
        if (w->status != NAV_SUCCESS) break;
        uint8_t *entry = w->data + directory + (size_t)t * DIRECTORY_ENTRY_BYTES;
        uint64_t offset = at - start;
        store_u32(entry, (uint32_t)offset);
        store_u32(entry + 4, (uint32_t)(offset >> 32));
        store_u32(entry + 8, (uint32_t)(w->size - at));
        store_u32(entry + 12, nav_crc32(0, w->data + at, w->size - at));
    }
    return w->status;
}

/* ---- reading ----------------------------------------------------------------------------------- */

typedef struct tiles_reader {
    nav_reader r;
    const nav_log *log;
} tiles_reader;

static nav_status corrupt(tiles_reader *c, const char *what, uint32_t index)
{
    return nav__chunk_corrupt(&c->r, c->log, "TILS", what, index);
}

static bool fits(const nav_reader *r, uint64_t count, size_t elem_size)
{
    return count <= nav_reader_remaining(r) / elem_size;
}

static bool small(float v, float limit)
{
    return v >= -limit && v <= limit; /* false for NaN */
}

static nav_status read_options(tiles_reader *c, nav_geometry_tiles *t)
{
    nav_reader *r = &c->r;
    build *b = &t->b;
    nav_geometry_build_desc *d = &b->desc;
    float *options[] = {NAV__GEOMETRY_FLOAT_OPTIONS(d)};
    for (size_t k = 0; k < sizeof options / sizeof *options; k++) *options[k] = nav_reader_get_f32(r);
    d->max_poly_verts = nav_reader_get_u32(r);
    d->tile_size = nav_reader_get_u32(r);
    b->origin.x = nav_reader_get_f32(r);
    b->origin.y = nav_reader_get_f32(r);
    b->origin.z = nav_reader_get_f32(r);
    uint32_t width = nav_reader_get_u32(r), depth = nav_reader_get_u32(r);
    b->steps = nav_reader_get_u32(r);
    uint32_t volumes = nav_reader_get_u32(r), links = nav_reader_get_u32(r);
    if (r->status != NAV_SUCCESS) return corrupt(c, "truncated in the options", UINT32_MAX);
    char why[200];
    const char *fault = nav__geometry_check_desc(d, why, sizeof why);
    if (fault) {
        nav__logf(c->log, NAV_LOG_ERROR, "TILS chunk: options a build refuses: %s", fault);
        nav_reader_fail(r);
        return NAV_FAILURE | NAV_CORRUPT_DATA;
    }
    for (size_t k = 0; k < sizeof options / sizeof *options; k++)
        if (!small(*options[k], MAX_ORIGIN))
            return corrupt(c, "an option that is not finite or too large", (uint32_t)k);
    if (d->tile_size == 0 || d->tile_size > 65535)
        return corrupt(c, "a tile size not in 1..65535", UINT32_MAX);
    if (!small(b->origin.x, MAX_ORIGIN) || !small(b->origin.y, MAX_ORIGIN) || !small(b->origin.z, MAX_ORIGIN))
        return corrupt(c, "a box corner that is not finite or is too large", UINT32_MAX);
    if (width == 0 || depth == 0 || width > 65534 || depth > 65534 || b->steps == 0 ||
        b->steps > NAV__SPAN_MAX_HEIGHT)
        return corrupt(c, "a grid of no cells or too many", UINT32_MAX);
    b->width = (int32_t)width, b->depth = (int32_t)depth;
    d->volume_count = volumes, d->link_count = links;
    for (int a = 0; a < 256; a++) {
        double cost = t->area_cost[a] = nav_reader_get_f64(r);
        if (!(cost == NAV_COST_BLOCKED || (cost >= 0 && cost <= 1e9)))
            return corrupt(c, "an area cost that is not blocked or finite and >= 0: area", (uint32_t)a);
    }
    for (int a = 0; a < 256; a++) t->area_flags[a] = nav_reader_get_u16(r);
    if (r->status != NAV_SUCCESS) return corrupt(c, "truncated in the area costs", UINT32_MAX);
    if (!fits(r, volumes, 16) || !fits(r, links, 40))
        return corrupt(c, "more volumes or links than bytes", UINT32_MAX);
    if (!nav__arr_reserve(t->volumes, volumes) || !nav__arr_reserve(t->links, links))
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < volumes; i++) {
        nav_geometry_volume v = {0};
        v.point_count = nav_reader_get_u32(r);
        v.min_y = nav_reader_get_f32(r);
        v.max_y = nav_reader_get_f32(r);
        uint32_t area = nav_reader_get_u32(r);
        if (r->status != NAV_SUCCESS || !fits(r, v.point_count, 8)) return corrupt(c, "truncated: volume", i);
        if (area > 255 || v.point_count < 3 || !small(v.min_y, MAX_ORIGIN) || !small(v.max_y, MAX_ORIGIN))
            return corrupt(c, "an area over 255, fewer than 3 points or a height too large: volume", i);
        v.area = (uint8_t)area;
        if (!nav__arr_reserve(t->volume_points, 2 * (size_t)v.point_count))
            return NAV_FAILURE | NAV_OUT_OF_MEMORY;
        for (uint32_t k = 0; k < 2 * v.point_count; k++) {
            float f = nav_reader_get_f32(r);
            if (!small(f, MAX_ORIGIN))
                return corrupt(c, "a point that is not finite or too large: volume", i);
            nav__arr_put_reserved(t->volume_points, f);
        }
        nav__arr_put_reserved(t->volumes, v);
    }
    for (uint32_t i = 0, at = 0; i < volumes; i++) {
        t->volumes[i].points = t->volume_points + at;
        at += 2 * t->volumes[i].point_count;
    }
    for (uint32_t i = 0; i < links; i++) {
        float e[6];
        for (int k = 0; k < 6; k++) e[k] = nav_reader_get_f32(r);
        nav_mesh_link_desc l = {.start = {e[0], e[1], e[2]}, .end = {e[3], e[4], e[5]}};
        l.cost = nav_reader_get_f64(r);
        l.user_id = nav_reader_get_u32(r);
        l.flags = nav_reader_get_u16(r);
        uint8_t two_way = nav_reader_get_u8(r), zero = nav_reader_get_u8(r);
        if (r->status != NAV_SUCCESS) return corrupt(c, "truncated: link", i);
        for (int k = 0; k < 6; k++)
            if (!small(e[k], MAX_ORIGIN))
                return corrupt(c, "a point that is not finite or too large: link", i);
        if (two_way > 1 || zero != 0 || !(l.cost >= 0 && l.cost <= 1e9))
            return corrupt(c, "a two-way flag, padding or cost out of range: link", i);
        l.bidirectional = two_way;
        nav__arr_put_reserved(t->links, l);
    }
    d->volumes = t->volumes, d->links = t->links;
    d->area_cost = t->area_cost, d->area_flags = t->area_flags;
    nav_reader_align(r, 8);
    if (r->status != NAV_SUCCESS) return corrupt(c, "padding that is not zero after the links", UINT32_MAX);
    return NAV_SUCCESS;
}

/* Whether polygon q of p (its vertices checked to be in range) is convex and clockwise (x right, z
 * down), turning once around with no edge of zero length and no fold, with some area. Exact: the
 * vertices are integers. */
static bool polygon_sound(const nav__polygons *p, uint32_t q)
{
    uint32_t first = p->poly_first[q], n = p->poly_first[q + 1] - first;
    double turning = 0;
    int64_t area = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t a = p->poly_verts[first + i], b = p->poly_verts[first + (i + 1) % n],
                 c = p->poly_verts[first + (i + 2) % n];
        int64_t ux = (int64_t)p->x[b] - p->x[a], uz = (int64_t)p->z[b] - p->z[a],
                vx = (int64_t)p->x[c] - p->x[b], vz = (int64_t)p->z[c] - p->z[b];
        if (ux == 0 && uz == 0) return false;
        int64_t cross = ux * vz - uz * vx, dot = ux * vx + uz * vz;
        if (cross < 0 || (cross == 0 && dot < 0)) return false;
        turning += atan2((double)cross, (double)dot);
        area += (int64_t)p->x[a] * p->z[b] - (int64_t)p->x[b] * p->z[a];
    }
    return fabs(turning - 2 * 3.14159265358979323846) < 1e-6 && area > 0;
}

static nav_status read_tile(tiles_reader *c, build *b, uint32_t item)
{
    nav_reader *r = &c->r;
    nav__polygons *p = &b->results[item].polygons;
    uint32_t tx = nav_reader_get_u32(r), tz = nav_reader_get_u32(r), verts = nav_reader_get_u32(r),
             polys = nav_reader_get_u32(r), edges = nav_reader_get_u32(r), points = nav_reader_get_u32(r),
             tris = nav_reader_get_u32(r);
    p->failed_regions = nav_reader_get_u32(r);
    b->results[item].source = nav_reader_get_u64(r);
    if (r->status != NAV_SUCCESS) return corrupt(c, "truncated counts: tile", item);
    if (tx != item % (uint32_t)b->tiles_x || tz != item / (uint32_t)b->tiles_x)
        return corrupt(c, "a block in another tile's place: tile", item);
    bool heights = has_heights(&b->desc);
    uint64_t bytes = (uint64_t)verts * 12 + ((uint64_t)polys + 1) * 4 + (uint64_t)edges * 4 +
                     ((uint64_t)polys + 3) / 4 * 4;
    if (heights) bytes += ((uint64_t)polys + 1) * 8 + (uint64_t)points * 12 + (uint64_t)tris * 3;
    if (!fits(r, bytes, 1) || edges < 3 * (uint64_t)polys || (!heights && (points || tris)))
        return corrupt(c, "counts larger than the block: tile", item);
    /* room for it all (no more than the block's bytes make) */
    if (!nav__arr_reserve(p->x, verts) || !nav__arr_reserve(p->y, verts) || !nav__arr_reserve(p->z, verts) ||
        !nav__arr_reserve(p->poly_first, (size_t)polys + 1) || !nav__arr_reserve(p->poly_verts, edges) ||
        !nav__arr_reserve(p->poly_area, polys) ||
        (heights && (!nav__arr_reserve(p->detail_point_first, (size_t)polys + 1) ||
                     !nav__arr_reserve(p->detail_tri_first, (size_t)polys + 1) ||
                     !nav__arr_reserve(p->detail_points, 3 * (size_t)points) ||
                     !nav__arr_reserve(p->detail_tris, 3 * (size_t)tris))))
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    int64_t x0 = (int64_t)tx * b->tile, z0 = (int64_t)tz * b->tile;
    for (uint32_t v = 0; v < verts; v++) {
        int32_t x = nav_reader_get_i32(r), y = nav_reader_get_i32(r), z = nav_reader_get_i32(r);
        if (x < x0 || x > x0 + b->tile || z < z0 || z > z0 + b->tile || y < 0 || y > (int64_t)b->steps)
            return corrupt(c, "a vertex outside its tile: tile", item);
        nav__arr_put_reserved(p->x, x);
        nav__arr_put_reserved(p->y, y);
        nav__arr_put_reserved(p->z, z);
    }
    uint32_t max_verts = b->desc.max_poly_verts;
    for (uint32_t q = 0; q <= polys; q++) {
        uint32_t f = nav_reader_get_u32(r);
        if ((q == 0 && f != 0) ||
            (q > 0 && (f < p->poly_first[q - 1] + 3 || f - p->poly_first[q - 1] > max_verts)) ||
            (q == polys && f != edges))
            return corrupt(c, "polygon ranges out of order or of a wrong size: tile", item);
        nav__arr_put_reserved(p->poly_first, f);
    }
    for (uint32_t e = 0; e < edges; e++) {
        uint32_t v = nav_reader_get_u32(r);
        if (v >= verts) return corrupt(c, "a vertex out of range: tile", item);
        nav__arr_put_reserved(p->poly_verts, v);
    }
    for (uint32_t q = 0; q < polys; q++) {
        for (uint32_t i = p->poly_first[q]; i < p->poly_first[q + 1]; i++)
            for (uint32_t j = p->poly_first[q]; j < i; j++)
                if (p->poly_verts[i] == p->poly_verts[j])
                    return corrupt(c, "a polygon that visits a vertex twice: tile", item);
        if (!polygon_sound(p, q)) return corrupt(c, "a polygon that is not convex and clockwise: tile", item);
    }
    if (polys) {
        const uint8_t *area = nav_reader_bytes(r, polys);
        if (!area) return corrupt(c, "truncated in the areas: tile", item);
        for (uint32_t q = 0; q < polys; q++) {
            if (area[q] == 0) return corrupt(c, "a polygon of area 0: tile", item);
            nav__arr_put_reserved(p->poly_area, area[q]);
        }
    }
    nav_reader_align(r, 4);
    if (r->status != NAV_SUCCESS) return corrupt(c, "padding that is not zero: tile", item);
    if (!heights) return NAV_SUCCESS;
    for (int list = 0; list < 2; list++) {
        uint32_t **out = list ? &p->detail_tri_first : &p->detail_point_first, total = list ? tris : points;
        for (uint32_t q = 0; q <= polys; q++) {
            uint32_t f = nav_reader_get_u32(r);
            if ((q == 0 && f != 0) || (q > 0 && f < (*out)[q - 1]) || (q == polys && f != total) ||
                (list == 0 && q > 0 && f - (*out)[q - 1] > 255))
                return corrupt(c, "height ranges out of order: tile", item);
            nav__arr_put_reserved(*out, f);
        }
    }
    float margin = (float)b->tile + 2;
    for (size_t k = 0; k < 3 * (size_t)points; k++) {
        float f = nav_reader_get_f32(r);
        float centre = k % 3 == 0   ? (float)x0 + (float)b->tile / 2
                       : k % 3 == 2 ? (float)z0 + (float)b->tile / 2
                                    : 0;
        bool fine =
            k % 3 == 1 ? f >= -1 && f <= (float)b->steps + 1 : f >= centre - margin && f <= centre + margin;
        if (!fine) return corrupt(c, "a height point that is not finite or is outside its tile: tile", item);
        nav__arr_put_reserved(p->detail_points, f);
    }
    if (tris) {
        const uint8_t *t = nav_reader_bytes(r, 3 * (size_t)tris);
        if (!t) return corrupt(c, "truncated in the height triangles: tile", item);
        for (uint32_t q = 0; q < polys; q++)
            for (uint32_t k = 3 * p->detail_tri_first[q]; k < 3 * p->detail_tri_first[q + 1]; k++) {
                if (t[k] >= p->detail_point_first[q + 1] - p->detail_point_first[q])
                    return corrupt(c, "a height point out of range: tile", item);
                nav__arr_put_reserved(p->detail_tris, t[k]);
            }
    }
    nav_reader_align(r, 4);
    if (r->status != NAV_SUCCESS) return corrupt(c, "truncated, or padding that is not zero: tile", item);
    return NAV_SUCCESS;
}

static nav_status read_tiles(tiles_reader *c, const uint8_t *data, size_t size, nav_geometry_tiles *t)
{
    nav_status s = read_options(c, t);
    if (nav_failed(s)) return s;
    build *b = &t->b;
    nav_reader *r = &c->r;
    /* the directory's entries (a tile each) in the bytes left, before each tile's result is made: a
     * grid of 65534 x 65534 cells in tiles of one claims 2^32 tiles */
    uint64_t tile = b->desc.tile_size, tiles_x = ((uint64_t)b->width + tile - 1) / tile,
             tiles_z = ((uint64_t)b->depth + tile - 1) / tile;
    if (!fits(r, tiles_x * tiles_z, DIRECTORY_ENTRY_BYTES))
        return corrupt(c, "a directory larger than the chunk", UINT32_MAX);
    b->desc.log = c->log; /* (the caller's, once read) */
    s = nav__geometry_derive(b);
    if (nav_failed(s)) return s;
    uint32_t count = (uint32_t)arrlenu(b->results);
    uint64_t end = r->pos + (uint64_t)count * DIRECTORY_ENTRY_BYTES;
    for (uint32_t i = 0; i < count; i++) {
        uint64_t offset = nav_reader_get_u64(r);
        uint32_t length = nav_reader_get_u32(r), crc = nav_reader_get_u32(r);
        /* blocks in order, each at the next multiple of 16, zero padding between, the last at the end */
        uint64_t expected = (end + 15) / 16 * 16;
        if (offset != expected || length < TILE_HEADER_BYTES || length > size || offset > size - length)
            return corrupt(c, "a block out of place: tile", i);
        for (uint64_t k = end; k < offset; k++)
            if (data[k]) return corrupt(c, "padding that is not zero before tile", i);
        if (nav_crc32(0, data + offset, length) != crc)
            return corrupt(c, "a block whose CRC does not match: tile", i);
        tiles_reader block = {.log = c->log};
        nav_reader_init(&block.r, data + offset, length);
        s = read_tile(&block, b, i);
        if (nav_failed(s)) return s;
        if (nav_reader_remaining(&block.r)) return corrupt(c, "bytes after the block of tile", i);
        end = offset + length;
    }
    if (end != size) return corrupt(c, "bytes after the last tile", UINT32_MAX);
    return NAV_SUCCESS;
}

nav_status nav_geometry_tiles_read_chunk(const void *data, size_t size, const nav_geometry_build_desc *opts,
                                         nav_geometry_tiles **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!data && size) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_allocator a;
    nav__allocator_resolve(&a, opts ? opts->allocator : NULL);
    nav_geometry_tiles *t = nav__calloc(&a, 1, sizeof *t);
    if (!t) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    t->allocator = a;
    tiles_reader c = {.log = opts ? opts->log : NULL};
    t->b.memory_limit = opts && opts->max_memory ? opts->max_memory : NAV_GEOMETRY_DEFAULT_MAX_MEMORY;
    nav_reader_init(&c.r, data, size);
    nav_status s = read_tiles(&c, data, size, t);
    if (nav_failed(s)) {
        nav_geometry_tiles_destroy(t);
        return s;
    }
    nav_geometry_build_desc *d = &t->b.desc;
    d->allocator = opts ? opts->allocator : NULL;
    d->log = opts ? opts->log : NULL;
    d->progress = opts ? opts->progress : NULL;
    d->threads = opts ? opts->threads : 0;
    d->max_memory = t->b.memory_limit;
    *out = t;
    return NAV_SUCCESS;
}

nav_status nav_geometry_tiles_mesh(nav_geometry_tiles *tiles, nav_mesh **mesh,
                                   nav_geometry_build_stats *stats)
{
    nav_geometry_build_stats local;
    if (!stats) stats = &local;
    *stats = (nav_geometry_build_stats){0};
    if (!mesh) return NAV_FAILURE | NAV_INVALID_PARAM;
    *mesh = NULL;
    if (!tiles) return NAV_FAILURE | NAV_INVALID_PARAM;
    build *b = &tiles->b;
    stats->width = b->width, stats->depth = b->depth;
    stats->tiles = (uint32_t)arrlenu(b->results);
    nav_mesh *stitched = NULL;
    nav_status s = nav__geometry_assemble(b, stats, &stitched);
    if (nav_failed(s)) return s;
    /* what the stitching made of tiles from a file is checked as a MESH chunk is: through one */
    nav_writer w;
    nav_writer_init(&w, &tiles->allocator);
    s = nav_mesh_write_chunk(stitched, &w);
    if (nav_succeeded(s)) s = nav_mesh_read_chunk(w.data, w.size, b->desc.allocator, b->desc.log, mesh);
    nav_writer_destroy(&w);
    nav_mesh_destroy(stitched);
    return s;
}

nav_status nav_geometry_tiles_save_nav(const nav_geometry_tiles *tiles, const char *path)
{
    if (!tiles || !path) return NAV_FAILURE | NAV_INVALID_PARAM;
    /* the tiles for rebuilding one, and the mesh stitched from them for the run time, which reads
     * the MESH chunk alone (it has none of the build's code) */
    nav_mesh *mesh = NULL;
    nav_status s = nav_geometry_tiles_mesh((nav_geometry_tiles *)tiles, &mesh, NULL);
    nav_writer tiles_data, mesh_data;
    nav_writer_init(&tiles_data, &tiles->allocator);
    nav_writer_init(&mesh_data, &tiles->allocator);
    if (nav_succeeded(s)) s = nav_geometry_tiles_write_chunk(tiles, &tiles_data);
    if (nav_succeeded(s)) s = nav_mesh_write_chunk(mesh, &mesh_data);
    if (nav_succeeded(s)) {
        nav_chunk chunks[2] = {
            {NAV_CHUNK_MESH_TILES, NAV_MESH_TILES_CHUNK_VERSION, tiles_data.data, tiles_data.size},
            {NAV_CHUNK_MESH, NAV_MESH_CHUNK_VERSION, mesh_data.data, mesh_data.size}};
        s = nav_container_write_file(path, chunks, 2, &tiles->allocator);
    }
    nav_writer_destroy(&tiles_data);
    nav_writer_destroy(&mesh_data);
    nav_mesh_destroy(mesh);
    return s;
}

nav_status nav_geometry_tiles_load_nav(const char *path, const nav_geometry_build_desc *opts,
                                       nav_geometry_tiles **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!path) return NAV_FAILURE | NAV_INVALID_PARAM;
    const nav_allocator *allocator = opts ? opts->allocator : NULL;
    nav__file_log file_log;
    nav__file_log_init(&file_log, opts ? opts->log : NULL, path);
    void *bytes;
    const nav_chunk *chunk;
    nav_status s = nav__open_layer_nav(path, allocator, &file_log, NAV_CHUNK_MESH_TILES, "TILS",
                                       NAV_MESH_TILES_CHUNK_VERSION, &bytes, &chunk, NULL);
    if (nav_failed(s)) return s;
    nav_geometry_build_desc local = opts ? *opts : (nav_geometry_build_desc){0};
    local.log = &file_log.hooks;
    s = nav_geometry_tiles_read_chunk(chunk->data, (size_t)chunk->size, &local, out);
    if (nav_succeeded(s)) (*out)->b.desc.log = opts ? opts->log : NULL; /* not the one on this stack */
    nav__close_nav_file(allocator, bytes);
    return s;
}
