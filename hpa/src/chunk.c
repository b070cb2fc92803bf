/* The HPA chunk of a .nav file: the baked abstract graph as flat arrays.
 *
 * Layout (little-endian, version NAV_HPA_CHUNK_VERSION):
 *   u32 width, height                       of the grid it was baked from
 *   u64 grid fingerprint                    nav_grid_fingerprint of that grid (version 2 on)
 *   i32 cluster_size, levels, level_ratio, long_entrance
 *   u32 entrances, transitions
 *   u32 nodes; u32 cell[nodes]; u8 level[nodes]; zero padding to 4
 *   per level 1..levels:
 *     u32 edges, refinement entries
 *     u32 edge_first[nodes + 1]; u32 target[edges]; f64 cost[edges]; u32 sub_first[edges + 1]
 *     level 1: u8 move[entries], zero padding to 4; level > 1: u32 sub_edge[entries]
 *   u32 field cells a node (0: no distance fields); f64 field unit; u16 field[nodes * cells];
 *   zero padding to 4
 * What can be derived is not stored: node coordinates, cluster ranges, edge sources.
 *
 * Nothing in the file is trusted. Besides every count, index and offset, the reader checks what a
 * query relies on to stay inside its arrays and to return valid paths: nodes in the hierarchical
 * order (so every cluster is one id range), each level-1 edge's moves allowed on the given grid
 * and ending on its target's cell at its cost, and each upper edge a chain of lower edges from its
 * source to its target at its cost. A chunk that passes cannot make a query read out of bounds or
 * return an invalid path, whatever its bytes. */
#include <inttypes.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "hpa_internal.h"
#include "log.h"
#include "nav_file.h"

/* Costs read back must match the stored moves this closely (relative): float sums in another order. */
#define COST_TOLERANCE 1e-9

nav_status nav_hpa_write_chunk(const nav_hpa *hpa, nav_writer *w)
{
    if (!hpa || !w) return NAV_FAILURE | NAV_INVALID_PARAM;
    uint32_t n = hpa->node_count;
    nav_writer_put_u32(w, (uint32_t)hpa->width);
    nav_writer_put_u32(w, (uint32_t)hpa->height);
    nav_writer_put_u64(w, hpa->grid_fingerprint);
    nav_writer_put_i32(w, hpa->desc.cluster_size);
    nav_writer_put_i32(w, hpa->desc.levels);
    nav_writer_put_i32(w, hpa->desc.level_ratio);
    nav_writer_put_i32(w, hpa->desc.long_entrance);
    nav_writer_put_u32(w, hpa->entrances);
    nav_writer_put_u32(w, hpa->transitions);
    nav_writer_put_u32(w, n);
    for (uint32_t u = 0; u < n; u++) nav_writer_put_u32(w, hpa->node_cell[u]);
    nav_writer_put_bytes(w, hpa->node_level, n);
    nav_writer_align(w, 4);
    for (int l = 1; l <= hpa->levels; l++) {
        const hpa_level *lv = &hpa->level[l];
        nav_writer_put_u32(w, lv->edge_count);
        nav_writer_put_u32(w, lv->sub_count);
        for (uint32_t u = 0; u <= n; u++) nav_writer_put_u32(w, lv->edge_first[u]);
        for (uint32_t e = 0; e < lv->edge_count; e++) nav_writer_put_u32(w, lv->edge_target[e]);
        for (uint32_t e = 0; e < lv->edge_count; e++) nav_writer_put_f64(w, lv->edge_cost[e]);
        for (uint32_t e = 0; e <= lv->edge_count; e++) nav_writer_put_u32(w, lv->sub_first[e]);
        if (l == 1) {
            nav_writer_put_bytes(w, lv->moves, lv->sub_count);
            nav_writer_align(w, 4);
        } else {
            for (uint32_t i = 0; i < lv->sub_count; i++) nav_writer_put_u32(w, lv->sub[i]);
        }
    }
    nav_writer_put_u32(w, hpa->field ? hpa->field_cells : 0);
    nav_writer_put_f64(w, hpa->field ? hpa->field_unit : 0);
    if (hpa->field)
        for (size_t i = 0; i < (size_t)n * hpa->field_cells; i++) nav_writer_put_u16(w, hpa->field[i]);
    nav_writer_align(w, 4);
    return w->status;
}

/* ---- reading ---------------------------------------------------------------------------------- */

typedef struct chunk_reader {
    nav_reader r;
    const nav_log *log;
    nav_hpa *hpa;
    const nav_grid *grid;
} chunk_reader;

static nav_status corrupt(chunk_reader *c, const char *what)
{
    return nav__chunk_corrupt(&c->r, c->log, "HPA", what, UINT32_MAX);
}

/* Reads count u32 values into a new array (count + extra slots allocated). */
static uint32_t *read_u32s(chunk_reader *c, uint32_t count, uint32_t extra)
{
    if (nav_reader_remaining(&c->r) / 4 < count) {
        nav_reader_fail(&c->r);
        return NULL;
    }
    uint32_t *a = nav__alloc(&c->hpa->allocator, nav__mul_size((size_t)count + extra, sizeof *a));
    if (!a) return NULL;
    for (uint32_t i = 0; i < count; i++) a[i] = nav_reader_get_u32(&c->r);
    return a;
}

/* The node order must be the bake's: strictly increasing (top cluster, places of the lower
 * clusters, cell). Then each cluster of each level is one id range, as the query assumes. */
static bool node_order_valid(const nav_hpa *hpa)
{
    uint32_t w = (uint32_t)hpa->width;
    int L = hpa->levels, ratio = hpa->desc.level_ratio;
    uint64_t prev_top = 0, prev_rest = 0;
    for (uint32_t u = 0; u < hpa->node_count; u++) {
        int32_t x = (int32_t)(hpa->node_cell[u] % w), y = (int32_t)(hpa->node_cell[u] / w);
        uint64_t sub = 0;
        for (int l = L - 1; l >= 1; l--) {
            int32_t side = hpa->level[l].side;
            sub = sub << 8 | (uint64_t)(((y / side) % ratio) * ratio + (x / side) % ratio);
        }
        uint64_t top = nav__hpa_cluster(hpa, L, x, y), rest = sub << 32 | hpa->node_cell[u];
        if (u > 0 && (top < prev_top || (top == prev_top && rest <= prev_rest))) return false;
        prev_top = top;
        prev_rest = rest;
    }
    return true;
}

static nav_status read_nodes(chunk_reader *c)
{
    nav_hpa *hpa = c->hpa;
    uint32_t n = nav_reader_get_u32(&c->r), cells = (uint32_t)hpa->width * (uint32_t)hpa->height;
    if (c->r.status != NAV_SUCCESS) return corrupt(c, "truncated before the nodes");
    if (n > cells) return corrupt(c, "more nodes than cells");
    hpa->node_count = n;
    hpa->node_cell = read_u32s(c, n, 1);
    if (c->r.status != NAV_SUCCESS) return corrupt(c, "truncated in the node cells");
    if (!hpa->node_cell) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    const uint8_t *levels = nav_reader_bytes(&c->r, n);
    nav_reader_align(&c->r, 4);
    if (c->r.status != NAV_SUCCESS) return corrupt(c, "truncated in the node levels");
    hpa->node_level = nav__alloc(&hpa->allocator, n ? n : 1);
    hpa->node_x = nav__alloc(&hpa->allocator, nav__mul_size(n ? n : 1, sizeof *hpa->node_x));
    hpa->node_y = nav__alloc(&hpa->allocator, nav__mul_size(n ? n : 1, sizeof *hpa->node_y));
    if (!hpa->node_level || !hpa->node_x || !hpa->node_y) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (uint32_t u = 0; u < n; u++) {
        if (hpa->node_cell[u] >= cells) return corrupt(c, "a node's cell is off the map");
        if (levels[u] < 1 || levels[u] > hpa->levels) return corrupt(c, "a node's level is out of range");
        hpa->node_level[u] = levels[u];
        hpa->node_x[u] = (int32_t)(hpa->node_cell[u] % (uint32_t)hpa->width);
        hpa->node_y[u] = (int32_t)(hpa->node_cell[u] / (uint32_t)hpa->width);
    }
    if (!node_order_valid(hpa)) return corrupt(c, "nodes out of order");
    return NAV_SUCCESS;
}

static bool cost_matches(double stored, double computed)
{
    return isfinite(stored) && stored > 0 && fabs(stored - computed) <= COST_TOLERANCE * (1 + computed);
}

/* Level 1: every edge's moves are allowed on the grid and lead from its source to its target. */
static bool level1_edges_valid(chunk_reader *c, const hpa_level *lv)
{
    const nav_hpa *hpa = c->hpa;
    for (uint32_t e = 0; e < lv->edge_count; e++) {
        int32_t x = hpa->node_x[lv->edge_source[e]], y = hpa->node_y[lv->edge_source[e]];
        double cost = 0;
        if (lv->sub_first[e + 1] == lv->sub_first[e]) return false;
        for (uint32_t i = lv->sub_first[e]; i < lv->sub_first[e + 1]; i++) {
            uint8_t d = lv->moves[i];
            if (d > 7) return false;
            double step = nav_grid_move_cost(c->grid, x, y, (nav_dir)d);
            if (!(step < INFINITY)) return false;
            int32_t dx, dy;
            nav_dir_offset((nav_dir)d, &dx, &dy);
            x += dx;
            y += dy;
            cost += step;
        }
        uint32_t t = lv->edge_target[e];
        if (x != hpa->node_x[t] || y != hpa->node_y[t] || !cost_matches(lv->edge_cost[e], cost)) return false;
    }
    return true;
}

/* Level l > 1: every edge is a chain of level-(l-1) edges from its source to its target. */
static bool upper_edges_valid(const hpa_level *lv, const hpa_level *below)
{
    for (uint32_t e = 0; e < lv->edge_count; e++) {
        uint32_t at = lv->edge_source[e];
        double cost = 0;
        if (lv->sub_first[e + 1] == lv->sub_first[e]) return false;
        for (uint32_t i = lv->sub_first[e]; i < lv->sub_first[e + 1]; i++) {
            uint32_t s = lv->sub[i];
            if (s >= below->edge_count || below->edge_source[s] != at) return false;
            at = below->edge_target[s];
            cost += below->edge_cost[s];
        }
        if (at != lv->edge_target[e] || !cost_matches(lv->edge_cost[e], cost)) return false;
    }
    return true;
}

static nav_status read_level(chunk_reader *c, int l)
{
    nav_hpa *hpa = c->hpa;
    hpa_level *lv = &hpa->level[l];
    uint32_t n = hpa->node_count;
    lv->edge_count = nav_reader_get_u32(&c->r);
    lv->sub_count = nav_reader_get_u32(&c->r);
    char what[64];
    snprintf(what, sizeof what, "truncated in level %d", l);
    /* every edge needs at least 4 + 8 + 4 bytes: a count beyond the data is corrupt, not a big alloc */
    if (c->r.status != NAV_SUCCESS || lv->edge_count > nav_reader_remaining(&c->r) / 16 ||
        lv->sub_count > nav_reader_remaining(&c->r))
        return corrupt(c, what);
    lv->edge_first = read_u32s(c, n + 1, 0);
    lv->edge_target = read_u32s(c, lv->edge_count, 1);
    if (c->r.status != NAV_SUCCESS) return corrupt(c, what);
    if (!lv->edge_first || !lv->edge_target) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    lv->edge_cost =
        nav__alloc(&hpa->allocator, nav__mul_size(lv->edge_count ? lv->edge_count : 1, sizeof(double)));
    if (!lv->edge_cost) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (nav_reader_remaining(&c->r) / 8 < lv->edge_count) return corrupt(c, what);
    for (uint32_t e = 0; e < lv->edge_count; e++) lv->edge_cost[e] = nav_reader_get_f64(&c->r);
    lv->sub_first = read_u32s(c, lv->edge_count + 1, 0);
    if (c->r.status != NAV_SUCCESS) return corrupt(c, what);
    if (!lv->sub_first) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (l == 1) {
        const uint8_t *moves = nav_reader_bytes(&c->r, lv->sub_count);
        nav_reader_align(&c->r, 4);
        if (c->r.status != NAV_SUCCESS) return corrupt(c, what);
        lv->moves = nav__alloc(&hpa->allocator, lv->sub_count ? lv->sub_count : 1);
        if (!lv->moves) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
        if (lv->sub_count) memcpy(lv->moves, moves, lv->sub_count);
    } else {
        lv->sub = read_u32s(c, lv->sub_count, 1);
        if (c->r.status != NAV_SUCCESS) return corrupt(c, what);
        if (!lv->sub) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }

    /* the index arrays: monotone, in range, ending where the counts say */
    if (lv->edge_first[0] != 0 || lv->edge_first[n] != lv->edge_count) return corrupt(c, "bad edge index");
    for (uint32_t u = 0; u < n; u++)
        if (lv->edge_first[u] > lv->edge_first[u + 1]) return corrupt(c, "bad edge index");
    if (lv->sub_first[0] != 0 || lv->sub_first[lv->edge_count] != lv->sub_count)
        return corrupt(c, "bad refinement index");
    for (uint32_t e = 0; e < lv->edge_count; e++) {
        if (lv->sub_first[e] > lv->sub_first[e + 1]) return corrupt(c, "bad refinement index");
        if (lv->edge_target[e] >= n) return corrupt(c, "an edge's target is out of range");
    }
    lv->edge_source =
        nav__alloc(&hpa->allocator, nav__mul_size(lv->edge_count ? lv->edge_count : 1, sizeof(uint32_t)));
    if (!lv->edge_source) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t e = lv->edge_first[u]; e < lv->edge_first[u + 1]; e++) lv->edge_source[e] = u;
    bool valid = l == 1 ? level1_edges_valid(c, lv) : upper_edges_valid(lv, &hpa->level[l - 1]);
    if (!valid) {
        snprintf(what, sizeof what, "a level-%d edge does not lead where it says at its cost", l);
        return corrupt(c, what);
    }
    return NAV_SUCCESS;
}

/* The distance fields: only where the bake would make them (a grid of one cost whose moves all go
 * both ways, small clusters), with the unit the grid implies. Their values are hints a query
 * checks as it walks them (see query.c), so any values are safe. */
static nav_status read_fields(chunk_reader *c)
{
    nav_hpa *hpa = c->hpa;
    uint32_t cells = nav_reader_get_u32(&c->r);
    double unit = nav_reader_get_f64(&c->r);
    if (c->r.status != NAV_SUCCESS) return corrupt(c, "truncated before the fields");
    /* no fields: the unit is +0 (bit for bit, so a loaded bake writes back to the same bytes) */
    if (cells == 0)
        return unit == 0 && !signbit(unit) ? NAV_SUCCESS : corrupt(c, "a field unit without fields");
    int32_t side = hpa->level[1].side;
    if (side > FIELD_MAX_SIDE || cells != (uint32_t)(side * side)) return corrupt(c, "bad field size");
    double uniform = nav_grid_uniform_cost(c->grid);
    if (!(uniform > 0) || unit != uniform / FIELD_STEPS || !nav_grid_moves_reversible(c->grid))
        return corrupt(c, "distance fields for a grid that cannot have them");
    size_t count = (size_t)hpa->node_count * cells;
    if (nav_reader_remaining(&c->r) / 2 < count) return corrupt(c, "truncated in the fields");
    hpa->field = nav__alloc(&hpa->allocator, nav__mul_size(count ? count : 1, sizeof *hpa->field));
    if (!hpa->field) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (size_t i = 0; i < count; i++) hpa->field[i] = nav_reader_get_u16(&c->r);
    nav_reader_align(&c->r, 4);
    if (c->r.status != NAV_SUCCESS) return corrupt(c, "truncated after the fields");
    hpa->field_cells = cells;
    hpa->field_unit = unit;
    return NAV_SUCCESS;
}

nav_status nav_hpa_read_chunk(const void *data, size_t size, const nav_grid *grid,
                              const nav_hpa_desc *options, nav_hpa **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!grid || (!data && size)) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_allocator a;
    nav__allocator_resolve(&a, options ? options->allocator : NULL);
    nav_hpa *hpa = nav__calloc(&a, 1, sizeof *hpa);
    if (!hpa) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    hpa->allocator = a;
    chunk_reader c = {.log = options ? options->log : NULL, .hpa = hpa, .grid = grid};
    nav_reader_init(&c.r, data, size);
    nav_status s = NAV_SUCCESS;
    uint32_t width = nav_reader_get_u32(&c.r), height = nav_reader_get_u32(&c.r);
    uint64_t fingerprint = nav_reader_get_u64(&c.r);
    nav_hpa_desc d = {0};
    d.cluster_size = nav_reader_get_i32(&c.r);
    d.levels = nav_reader_get_i32(&c.r);
    d.level_ratio = nav_reader_get_i32(&c.r);
    d.long_entrance = nav_reader_get_i32(&c.r);
    hpa->entrances = nav_reader_get_u32(&c.r);
    hpa->transitions = nav_reader_get_u32(&c.r);
    if (c.r.status != NAV_SUCCESS) {
        s = corrupt(&c, "truncated header");
    } else if (width != (uint32_t)nav_grid_width(grid) || height != (uint32_t)nav_grid_height(grid)) {
        nav__logf(c.log, NAV_LOG_ERROR,
                  "HPA chunk: the bake belongs to another grid (baked for %" PRIu32 " x %" PRIu32
                  " cells, this grid is %d x %d): bake it again from this grid",
                  width, height, nav_grid_width(grid), nav_grid_height(grid));
        s = NAV_FAILURE | NAV_SOURCE_MISMATCH;
    } else if (fingerprint != nav_grid_fingerprint(grid)) {
        /* Checked before the edges: a stale bake is not damage, and its edges may even be valid
         * moves while its missing ones make queries answer "unreachable". */
        nav__logf(c.log, NAV_LOG_ERROR,
                  "HPA chunk: the bake belongs to another grid (baked from grid %016" PRIx64
                  ", this grid is %016" PRIx64 "): bake it again from this grid",
                  fingerprint, nav_grid_fingerprint(grid));
        s = NAV_FAILURE | NAV_SOURCE_MISMATCH;
    } else if (d.cluster_size < NAV_HPA_MIN_CLUSTER || d.cluster_size > NAV_HPA_MAX_CLUSTER || d.levels < 1 ||
               d.levels > NAV_HPA_MAX_LEVELS || d.level_ratio < 2 || d.level_ratio > 16 ||
               d.long_entrance < 1) {
        s = corrupt(&c, "bad options");
    }
    if (nav_succeeded(s)) {
        hpa->desc = d;
        hpa->width = (int32_t)width;
        hpa->height = (int32_t)height;
        hpa->grid_fingerprint = fingerprint;
        hpa->levels = d.levels;
        nav__hpa_set_levels(hpa);
        s = read_nodes(&c);
    }
    for (int l = 1; l <= hpa->levels && nav_succeeded(s); l++) s = read_level(&c, l);
    if (nav_succeeded(s)) s = read_fields(&c);
    if (nav_succeeded(s) && nav_reader_remaining(&c.r) != 0) s = corrupt(&c, "trailing bytes");
    if (nav_succeeded(s)) s = nav__hpa_index_clusters(hpa);
    if (nav_failed(s)) {
        if (nav_has_detail(s, NAV_OUT_OF_MEMORY)) nav__logf(c.log, NAV_LOG_ERROR, "HPA chunk: out of memory");
        nav_hpa_destroy(hpa);
        return s;
    }
    *out = hpa;
    return NAV_SUCCESS;
}

/* ---- files ------------------------------------------------------------------------------------ */

nav_status nav_hpa_save_nav(const nav_grid *grid, const nav_hpa *hpa, const char *path)
{
    if (!grid || !hpa || !path) return NAV_FAILURE | NAV_INVALID_PARAM;
    uint64_t fingerprint = nav_grid_fingerprint(grid);
    if (fingerprint != hpa->grid_fingerprint) {
        nav__logf(nav_grid_get_desc(grid)->log, NAV_LOG_ERROR,
                  "%s: cannot save: the HPA bake belongs to another grid (baked from grid %016" PRIx64
                  ", this grid is %016" PRIx64 "): bake it again from this grid",
                  path, hpa->grid_fingerprint, fingerprint);
        return NAV_FAILURE | NAV_SOURCE_MISMATCH;
    }
    nav_writer hpa_data;
    nav_writer_init(&hpa_data, &hpa->allocator);
    nav_status s = nav_hpa_write_chunk(hpa, &hpa_data);
    if (nav_succeeded(s))
        s = nav__save_layer_nav(path, grid, NAV_CHUNK_HPA, NAV_HPA_CHUNK_VERSION, &hpa_data, &hpa->allocator);
    nav_writer_destroy(&hpa_data);
    return s;
}

nav_status nav_hpa_load_nav(const char *path, const nav_hpa_desc *options, nav_grid **grid, nav_hpa **hpa)
{
    if (!grid || !hpa) return NAV_FAILURE | NAV_INVALID_PARAM;
    *grid = NULL;
    *hpa = NULL;
    if (!path) return NAV_FAILURE | NAV_INVALID_PARAM;
    const nav_allocator *given = options ? options->allocator : NULL;
    const nav_log *log = options ? options->log : NULL;
    nav__file_log file_log;
    nav__file_log_init(&file_log, log, path);
    void *bytes;
    const nav_chunk *hpa_chunk;
    nav_status s = nav__open_layer_nav(path, given, &file_log, NAV_CHUNK_HPA, "HPA", NAV_HPA_CHUNK_VERSION,
                                       &bytes, &hpa_chunk, grid);
    if (nav_failed(s)) return s;
    nav_hpa_desc d = {.allocator = given, .log = &file_log.hooks};
    s = nav_hpa_read_chunk(hpa_chunk->data, (size_t)hpa_chunk->size, *grid, &d, hpa);
    if (nav_failed(s)) {
        nav_grid_destroy(*grid);
        *grid = NULL;
    }
    nav__close_nav_file(given, bytes);
    return s;
}
