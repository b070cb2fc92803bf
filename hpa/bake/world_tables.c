/* A world bake's tables: for each region, the costs between its chokepoints that the search over
 * chokepoints needs (world_internal.h), one fan a source, fans spread over threads (each with a
 * scratch of its own; the tables come out the same at any thread count), then joined into sparse
 * rows.
 *
 * A flat grid region fans once from each of its places (the distinct cells of its chokepoints) by
 * nav__region_fan_pruned (nav/src/region_internal.h): an entry from place a to place b is kept only
 * when no cheapest way from a to b passes another place c, for then a to c and c to b cost as much
 * and the search finds that. Every dropped entry has such a c, and the entries from a to c and from c
 * to b cost less each (moves cost more than 0), so by induction on the cost every pair of places is
 * joined at its exact cost by kept entries (to the floats' rounding of the sums). On a symmetric
 * grid the fan from a decides only the pairs with places after a (by rank: the order of their first
 * chokepoints), for both directions: the way back is the way there reversed, of the same cost. The
 * chokepoints of one cell are joined as a star, at cost 0. Each kept entry's way is kept too, as
 * runs of moves, so that a query lays a leg between two chokepoints without a search.
 *
 * Other regions (navmeshes, waypoint graphs, grids searched through HPA*) fan from each chokepoint
 * to all the others (their planners answer one pair at a time) and keep every entry with a way.
 *
 * The tables' bytes (entries and ways) are counted as the fans finish: past the bake's
 * max_table_bytes the bake stops with NAV_TOO_LARGE, naming the region. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "grid_internal.h"
#include "log.h"
#include "parallel.h"
#include "region_internal.h"
#include "world_internal.h"

#define ENTRY_BYTES NAV__WORLD_ENTRY_BYTES

/* One fan's kept entries (the system heap: made on the bake's threads). */
typedef struct fan_row {
    uint32_t count;
    uint32_t *to; /* target slots, ascending (one allocation with cost and way_size) */
    double *cost;
    uint32_t *way_size; /* each entry's bytes of ways */
    uint8_t *ways;      /* the entries' ways, one after the other */
    uint64_t ways_size;
} fan_row;

typedef struct table_job {
    nav_world *w;
    /* the work spread over threads: each step fans from sources job_item .. + job_fans of region
     * job_region (a place on a flat grid, else a slot): all of a region of few, one of a region of many */
    uint32_t *job_region, *job_item, *job_fans;
    uint32_t steps;
    uint32_t *job_first; /* a region's first fan among the rows (regions not baked: none) */
    /* the places of the flat grid regions: region r's are place_*[place_first[r] .. [r + 1]], by cell */
    uint32_t *place_first, *place_cell, *place_rep, *place_rank; /* rep: its first chokepoint's slot */
    fan_row *rows;                                               /* each fan's */
    uint32_t fans;
    uint64_t limit;
    _Atomic uint64_t bytes;
    atomic_uint over; /* the region whose fan passed the limit (UINT32_MAX: none) */
} table_job;

typedef struct table_scratch {
    nav__world_scratch planners;
    bool planners_made;
    nav_region_query *search; /* the planners' grid search, pointed at the grid of the last grid fan */
    nav_world_place *targets; /* a region's chokepoints (a fan to each, for the other kinds) */
    double *costs;
    uint32_t *kept;       /* a pruned fan's places */
    uint64_t *bits;       /* the places of region `bits_region` as bits over its grid's cells */
    uint32_t bits_region; /* (UINT32_MAX: none) */
    nav_path cells;
} table_scratch;

static bool flat_grid(const nav__world_region *r)
{
    return r->ops->way_ok != NULL; /* (the kind whose tables keep ways: a grid searched cell by cell) */
}

static bool table_init(void *ctx, void **out)
{
    nav_world *w = ((table_job *)ctx)->w;
    const nav_allocator *a = &w->allocator;
    table_scratch *t = nav__calloc(a, 1, sizeof *t);
    *out = t;
    if (!t) return false;
    nav_path_init(&t->cells, NULL);
    t->bits_region = UINT32_MAX;
    size_t k = (size_t)w->max_region_chokes + 1;
    t->targets = nav__alloc(a, k * sizeof *t->targets);
    t->costs = nav__alloc(a, k * sizeof *t->costs);
    t->kept = nav__alloc(a, k * sizeof *t->kept);
    t->bits = nav__calloc(a, (size_t)(w->largest_cells / 64 + 1), sizeof *t->bits);
    if (!t->targets || !t->costs || !t->kept || !t->bits) return false;
    t->planners_made = !nav_failed(nav__world_scratch_init(&t->planners, w, a, NULL));
    return t->planners_made;
}

static void table_fini(void *ctx, void *scratch)
{
    nav_world *w = ((table_job *)ctx)->w;
    table_scratch *t = scratch;
    if (!t) return;
    if (t->planners_made) nav__world_scratch_free(&t->planners, w);
    nav__free(&w->allocator, t->targets);
    nav__free(&w->allocator, t->costs);
    nav__free(&w->allocator, t->kept);
    nav__free(&w->allocator, t->bits);
    nav_path_destroy(&t->cells);
    nav__free(&w->allocator, t);
}

/* Room for n entries in row (false: out of memory). */
static bool row_alloc(fan_row *row, uint32_t n)
{
    nav_allocator heap;
    nav__allocator_resolve(&heap, NULL);
    row->count = n;
    if (n == 0) return true;
    uint8_t *block =
        nav__alloc(&heap, (size_t)n * (sizeof *row->to + sizeof *row->cost + sizeof *row->way_size));
    if (!block) return false;
    row->cost = (double *)(void *)block; /* (the doubles first: aligned) */
    row->to = (uint32_t *)(void *)(block + (size_t)n * sizeof *row->cost);
    row->way_size = row->to + n;
    return true;
}

static void row_free(fan_row *row)
{
    nav_allocator heap;
    nav__allocator_resolve(&heap, NULL);
    nav__free(&heap, row->cost);
    nav__free(&heap, row->ways);
    *row = (fan_row){0};
}

/* Appends the runs of moves of the last fan's way to cell `to` to row's ways (room: *room bytes):
 * false when out of memory. Its byte count goes to *bytes. */
static bool keep_way(table_scratch *t, const nav_grid *grid, uint32_t to, fan_row *row, uint64_t *room,
                     uint32_t *bytes)
{
    nav_allocator heap;
    nav__allocator_resolve(&heap, NULL);
    nav_path_clear(&t->cells);
    if (nav_failed(nav_region_fan_path(t->search, to, &t->cells))) return false;
    uint64_t before = row->ways_size;
    for (uint32_t i = 1; i < t->cells.count;) {
        int32_t step = (int32_t)t->cells.nodes[i] - (int32_t)t->cells.nodes[i - 1];
        int d = 0;
        while (d < 8 && grid->offset[d] != step) d++;
        if (d == 8) return false; /* never: a fan's way is made of moves */
        uint32_t run = 1;
        while (run < 32 && i + run < t->cells.count &&
               (int32_t)t->cells.nodes[i + run] - (int32_t)t->cells.nodes[i + run - 1] == step)
            run++;
        if (row->ways_size == *room) {
            uint64_t grown = *room ? 2 * *room : 256;
            uint8_t *more =
                grown <= SIZE_MAX ? nav__realloc(&heap, row->ways, (size_t)*room, (size_t)grown) : NULL;
            if (!more) return false;
            row->ways = more, *room = grown;
        }
        row->ways[row->ways_size++] = (uint8_t)(d << 5 | (int)(run - 1));
        i += run;
    }
    if (row->ways_size - before > UINT32_MAX) return false;
    *bytes = (uint32_t)(row->ways_size - before);
    return true;
}

/* Puts region r's places into t->bits (taking the last region's out). */
static void mark_places(const table_job *job, table_scratch *t, uint32_t r)
{
    if (t->bits_region == r) return;
    if (t->bits_region != UINT32_MAX)
        for (uint32_t p = job->place_first[t->bits_region]; p < job->place_first[t->bits_region + 1]; p++)
            t->bits[job->place_cell[p] / 64] = 0;
    for (uint32_t p = job->place_first[r]; p < job->place_first[r + 1]; p++)
        t->bits[job->place_cell[p] / 64] |= 1ull << (job->place_cell[p] % 64);
    t->bits_region = r;
}

static int by_slot(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The fan from place `place` of flat grid region r into row: pruned, or (few places) to every place
 * (on a symmetric grid: every place of a higher rank). */
static bool grid_fan(table_job *job, table_scratch *t, uint32_t r, uint32_t place, fan_row *row)
{
    const nav_world *w = job->w;
    const nav__world_region *region = &w->regions[r];
    if (!(t->search = nav__world_grid_search(&t->planners, region))) return false;
    uint32_t first = job->place_first[r], count = job->place_first[r + 1] - first, n = 0;
    uint32_t from = job->place_cell[first + place], rank = job->place_rank[first + place];
    if (region->pruned) {
        mark_places(job, t, r);
        nav__fan_places places = {t->bits, job->place_cell + first, job->place_rank + first, count};
        if (nav_failed(
                nav__region_fan_pruned(t->search, from, &places, rank, region->symmetric, t->kept, &n)))
            return false;
    } else {
        uint32_t targets = 0;
        for (uint32_t p = first; p < first + count; p++)
            if (p != first + place && (!region->symmetric || job->place_rank[p] > rank))
                t->kept[targets++] = job->place_cell[p];
        nav_grid_rect all = {0, 0, (int32_t)region->grid->width, (int32_t)region->grid->height};
        if (targets && /* (a fan without targets would settle every cell) */
            nav_failed(nav_region_fan(t->search, all, from, false, t->kept, targets, t->costs)))
            return false;
        for (uint32_t i = 0; i < targets; i++) /* (the reached ones, in place of the targets) */
            if (t->costs[i] < INFINITY) t->kept[n++] = t->kept[i];
    }
    /* the kept places' cells to their first chokepoints' slots, in order */
    if (!row_alloc(row, n)) return false;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t lo = 0, hi = count;
        while (hi - lo > 1) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (job->place_cell[first + mid] <= t->kept[i])
                lo = mid;
            else
                hi = mid;
        }
        row->to[i] = job->place_rep[first + lo];
    }
    if (n) qsort(row->to, n, sizeof *row->to, by_slot);
    double size = nav_grid_get_desc(region->grid)->cell_size;
    uint64_t room = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t cell = w->choke[w->region_choke[region->choke_first + row->to[i]]].id;
        row->cost[i] = nav_region_fan_cost(t->search, cell) * size; /* (as the grid's fan) */
        if (!keep_way(t, region->grid, cell, row, &room, &row->way_size[i])) return false;
    }
    return true;
}

/* The fan from slot `slot` of region r (no flat grid) to all its chokepoints into row. */
static bool pair_fan(table_job *job, table_scratch *t, uint32_t r, uint32_t slot, fan_row *row)
{
    const nav_world *w = job->w;
    const nav__world_region *region = &w->regions[r];
    uint32_t k = region->choke_count, n = 0;
    for (uint32_t j = 0; j < k; j++) t->targets[j] = w->choke[w->region_choke[region->choke_first + j]];
    if (nav_failed(region->ops->fan(&t->planners, region, &t->targets[slot], false, NAV__WORLD_END_NONE,
                                    t->targets, k, t->costs)))
        return false;
    for (uint32_t j = 0; j < k; j++) n += j != slot && t->costs[j] < INFINITY;
    if (!row_alloc(row, n)) return false;
    n = 0;
    for (uint32_t j = 0; j < k; j++)
        if (j != slot && t->costs[j] < INFINITY)
            row->to[n] = j, row->cost[n] = t->costs[j], row->way_size[n++] = 0;
    return true;
}

static bool table_run(void *ctx, void *scratch, uint32_t i)
{
    table_job *job = ctx;
    uint32_t r = job->job_region[i];
    const nav__world_region *region = &job->w->regions[r];
    for (uint32_t k = job->job_item[i]; k < job->job_item[i] + job->job_fans[i]; k++) {
        fan_row *row = &job->rows[job->job_first[r] + k];
        if (!(flat_grid(region) ? grid_fan : pair_fan)(job, scratch, r, k, row)) return false;
        uint64_t bytes = (uint64_t)row->count * ENTRY_BYTES * (region->symmetric ? 2 : 1) + row->ways_size;
        if (atomic_fetch_add(&job->bytes, bytes) + bytes > job->limit) {
            unsigned none = UINT32_MAX;
            atomic_compare_exchange_strong(&job->over, &none, r);
            return false;
        }
    }
    return true;
}

/* The fans of a region of at most this many sources are one step of the work (a thread keeps the
 * region's grid and scratch in its caches); of more, a step each (a big region on every thread). */
#define STEP_FANS 64

/* The places of the flat grid regions baked, the rows of their fans (a place a fan on flat grids, a
 * chokepoint a fan on the other kinds) and the steps of the work. The stars' entries are counted in
 * job->bytes. */
static nav_status plan_fans(table_job *job, const uint32_t *baked, uint32_t baked_count)
{
    nav_world *w = job->w;
    const nav_allocator *a = &w->allocator;
    job->place_first = nav__calloc(a, (size_t)w->region_count + 1, sizeof *job->place_first);
    job->job_first = nav__alloc(a, w->region_count * sizeof *job->job_first);
    if (!job->place_first || !job->job_first) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    uint64_t places = 0, fans = 0, star = 0;
    for (uint32_t i = 0; i < baked_count; i++) {
        const nav__world_region *region = &w->regions[baked[i]];
        const uint32_t *by_id = w->choke_by_id + region->choke_first;
        uint32_t n = 0;
        for (uint32_t c = 0; flat_grid(region) && c < region->choke_count; c++)
            n += c == 0 || w->choke[by_id[c]].id != w->choke[by_id[c - 1]].id;
        job->place_first[baked[i] + 1] = n;
        places += n;
        if (flat_grid(region)) star += region->choke_count - n;
        uint32_t sources = flat_grid(region) ? n : region->choke_count;
        fans += sources > 1 ? sources : 0;
    }
    for (uint32_t r = 0; r < w->region_count; r++) job->place_first[r + 1] += job->place_first[r];
    if (fans > UINT32_MAX) return NAV_FAILURE | NAV_TOO_LARGE;
    atomic_store(&job->bytes, 2 * star * ENTRY_BYTES);
    size_t p = places ? (size_t)places : 1, f = fans ? (size_t)fans : 1;
    job->place_cell = nav__alloc(a, p * sizeof *job->place_cell);
    job->place_rep = nav__alloc(a, p * sizeof *job->place_rep);
    job->place_rank = nav__alloc(a, p * sizeof *job->place_rank);
    job->job_region = nav__alloc(a, f * sizeof *job->job_region); /* (steps: at most a fan each) */
    job->job_item = nav__alloc(a, f * sizeof *job->job_item);
    job->job_fans = nav__alloc(a, f * sizeof *job->job_fans);
    job->rows = nav__calloc(a, f, sizeof *job->rows);
    if (!job->place_cell || !job->place_rep || !job->place_rank || !job->job_region || !job->job_item ||
        !job->job_fans || !job->rows)
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (uint32_t r = 0; r < w->region_count; r++) job->job_first[r] = UINT32_MAX;
    uint32_t fan = 0, step = 0;
    for (uint32_t i = 0; i < baked_count; i++) {
        uint32_t r = baked[i];
        const nav__world_region *region = &w->regions[r];
        const uint32_t *by_id = w->choke_by_id + region->choke_first;
        uint32_t first = job->place_first[r], n = job->place_first[r + 1] - first;
        for (uint32_t c = 0, at = first; flat_grid(region) && c < region->choke_count; c++)
            if (c == 0 || w->choke[by_id[c]].id != w->choke[by_id[c - 1]].id) { /* (ids, then indices) */
                job->place_cell[at] = w->choke[by_id[c]].id;
                job->place_rep[at++] = w->choke_slot[by_id[c]];
            }
        /* ranks: the places in the order of their first chokepoints */
        uint32_t rank = 0;
        for (uint32_t slot = 0; slot < region->choke_count && n; slot++) {
            uint32_t cell = w->choke[w->region_choke[region->choke_first + slot]].id, lo = 0, hi = n;
            while (hi - lo > 1) {
                uint32_t mid = lo + (hi - lo) / 2;
                if (job->place_cell[first + mid] <= cell)
                    lo = mid;
                else
                    hi = mid;
            }
            if (job->place_rep[first + lo] == slot) job->place_rank[first + lo] = rank++;
        }
        uint32_t sources = flat_grid(region) ? n : region->choke_count;
        if (sources < 2) continue;
        job->job_first[r] = fan;
        fan += sources;
        for (uint32_t k = 0; k < sources; k += sources <= STEP_FANS ? sources : 1, step++)
            job->job_region[step] = r, job->job_item[step] = k,
            job->job_fans[step] = sources <= STEP_FANS ? sources : 1;
    }
    job->fans = fan;
    job->steps = step;
    return NAV_SUCCESS;
}

/* A row's entry while its row is sorted. */
typedef struct entry {
    uint32_t to;
    double cost;
} entry;

static int by_target(const void *a, const void *b)
{
    uint32_t x = ((const entry *)a)->to, y = ((const entry *)b)->to;
    return (x > y) - (x < y);
}

/* Region r's entries, one pass of join_rows: 0 counts each row's (into w->edge_first[p + 1]), 1 puts
 * each in its row (cursor: each row's next), 2 gives each kept way's size to its entry, 3 copies the
 * ways (a row's ways are its fan's, in the same order: the other entries keep none). */
static void region_rows(const table_job *job, uint32_t r, int pass, uint64_t *cursor)
{
    nav_world *w = job->w;
    const nav__world_region *region = &w->regions[r];
    uint32_t cf = region->choke_first, pf = job->place_first[r];
    bool flat = flat_grid(region);
    uint32_t sources = flat ? job->place_first[r + 1] - pf : region->choke_count;
    for (uint32_t k = 0; job->job_first[r] != UINT32_MAX && k < sources; k++) {
        const fan_row *row = &job->rows[job->job_first[r] + k];
        uint32_t from = flat ? job->place_rep[pf + k] : k;
        const uint8_t *way = row->ways;
        if (pass == 3) {
            uint32_t p = cf + from;
            uint64_t at = w->way_first[p];
            for (uint64_t e = w->edge_first[p]; e < w->edge_first[p + 1]; at += w->way_size[e++])
                if (w->way_size[e]) {
                    memcpy(w->path_bytes + at, way, w->way_size[e]);
                    way += w->way_size[e];
                }
            continue;
        }
        for (uint32_t i = 0; i < row->count; i++) {
            uint32_t to = row->to[i];
            if (pass == 0) {
                w->edge_first[cf + from + 1]++;
                if (region->symmetric) w->edge_first[cf + to + 1]++;
            } else if (pass == 1) {
                uint64_t e = cursor[cf + from]++;
                w->edge_to[e] = to, w->edge_cost[e] = row->cost[i];
                if (region->symmetric) { /* the way back, the same cost */
                    e = cursor[cf + to]++;
                    w->edge_to[e] = from, w->edge_cost[e] = row->cost[i];
                }
            } else if (row->way_size[i]) {
                w->way_size[nav__world_entry(w, region, from, to)] = row->way_size[i];
            }
        }
    }
    const uint32_t *by_id = w->choke_by_id + cf; /* the stars */
    for (uint32_t c = 1, first = 0; flat && pass < 2 && c < region->choke_count; c++) {
        if (w->choke[by_id[c]].id != w->choke[by_id[c - 1]].id) {
            first = c;
            continue;
        }
        uint32_t center = w->choke_slot[by_id[first]], point = w->choke_slot[by_id[c]];
        if (pass == 0) {
            w->edge_first[cf + center + 1]++, w->edge_first[cf + point + 1]++;
            continue;
        }
        uint64_t e = cursor[cf + center]++;
        w->edge_to[e] = point, w->edge_cost[e] = 0;
        e = cursor[cf + point]++;
        w->edge_to[e] = center, w->edge_cost[e] = 0;
    }
}

/* The fans' rows, the mirrored entries of symmetric grids and the stars, joined into w's tables. */
static nav_status join_rows(table_job *job, const uint32_t *baked, uint32_t baked_count)
{
    nav_world *w = job->w;
    const nav_allocator *a = &w->allocator;
    uint32_t chokes = w->choke_count;
    w->edge_first = nav__calloc(a, (size_t)chokes + 1, sizeof *w->edge_first);
    if (!w->edge_first) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < baked_count; i++) region_rows(job, baked[i], 0, NULL);
    uint64_t longest = 0;
    for (uint32_t p = 0; p < chokes; p++) {
        if (w->edge_first[p + 1] > longest) longest = w->edge_first[p + 1];
        w->edge_first[p + 1] += w->edge_first[p];
    }
    w->edge_count = w->edge_first[chokes];
    size_t n = w->edge_count ? (size_t)w->edge_count : 1;
    uint64_t *cursor = nav__alloc(a, ((size_t)chokes + 1) * sizeof *cursor);
    entry *sorting = nav__alloc(a, (size_t)(longest ? longest : 1) * sizeof *sorting);
    w->edge_to = nav__alloc(a, n * sizeof *w->edge_to);
    w->edge_cost = nav__alloc(a, n * sizeof *w->edge_cost);
    w->way_size = nav__calloc(a, n, sizeof *w->way_size);
    w->way_first = nav__alloc(a, ((size_t)chokes + 1) * sizeof *w->way_first);
    nav_status s = cursor && sorting && w->edge_to && w->edge_cost && w->way_size && w->way_first
                       ? NAV_SUCCESS
                       : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (!nav_failed(s)) {
        memcpy(cursor, w->edge_first, ((size_t)chokes + 1) * sizeof *cursor);
        for (uint32_t i = 0; i < baked_count; i++) region_rows(job, baked[i], 1, cursor);
        for (uint32_t p = 0; p < chokes; p++) { /* each row by target */
            uint64_t e0 = w->edge_first[p], count = w->edge_first[p + 1] - e0;
            for (uint64_t e = 0; e < count; e++)
                sorting[e] = (entry){w->edge_to[e0 + e], w->edge_cost[e0 + e]};
            qsort(sorting, (size_t)count, sizeof *sorting, by_target);
            for (uint64_t e = 0; e < count; e++)
                w->edge_to[e0 + e] = sorting[e].to, w->edge_cost[e0 + e] = sorting[e].cost;
        }
        for (uint32_t i = 0; i < baked_count; i++) region_rows(job, baked[i], 2, NULL);
        uint64_t at = 0;
        for (uint32_t p = 0; p < chokes; p++) {
            w->way_first[p] = at;
            for (uint64_t e = w->edge_first[p]; e < w->edge_first[p + 1]; e++) at += w->way_size[e];
        }
        w->way_first[chokes] = w->path_size = at;
        w->path_bytes =
            w->path_size <= SIZE_MAX ? nav__alloc(a, w->path_size ? (size_t)w->path_size : 1) : NULL;
        if (!w->path_bytes) s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    if (!nav_failed(s))
        for (uint32_t i = 0; i < baked_count; i++) region_rows(job, baked[i], 3, NULL);
    nav__free(a, cursor);
    nav__free(a, sorting);
    return s;
}

nav_status nav__world_fill_tables(nav_world *w, const nav_world_bake_desc *desc, const nav_log *log)
{
    const nav_allocator *a = &w->allocator;
    table_job job = {.w = w};
    job.limit = desc && desc->max_table_bytes ? desc->max_table_bytes : NAV_WORLD_DEFAULT_MAX_TABLE_BYTES;
    atomic_init(&job.bytes, 0);
    atomic_init(&job.over, UINT32_MAX);
    /* the regions baked: every one, or a part bake's */
    uint32_t *every = NULL, count = w->part_list ? w->part_count : w->region_count;
    if (!w->part_list) {
        every = nav__alloc(a, w->region_count * sizeof *every);
        for (uint32_t r = 0; every && r < w->region_count; r++) every[r] = r;
    }
    const uint32_t *baked = w->part_list ? w->part_list : every;
    nav_status s = baked ? plan_fans(&job, baked, count) : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (!nav_failed(s)) {
        nav__work work = {.count = job.steps,
                          .init = table_init,
                          .run = table_run,
                          .fini = table_fini,
                          .ctx = &job,
                          .stage = "fans",
                          .progress = desc ? &desc->progress : NULL};
        s = nav__parallel(&work, desc ? desc->threads : 0);
    }
    uint32_t over = atomic_load(&job.over);
    if (over == UINT32_MAX && !nav_failed(s) && atomic_load(&job.bytes) > job.limit) over = 0; /* the stars */
    if (over != UINT32_MAX) {
        const nav__world_region *region = &w->regions[over];
        nav__logf(
            log, NAV_LOG_ERROR,
            "region %u (\"%s\", %u chokepoints): the regions' tables pass the bake's limit of %llu bytes "
            "(nav_world_bake_desc.max_table_bytes, navtool bake --max-table-mb): raise it, search the "
            "region through its HPA* bake, or split it into regions",
            over, nav__world_name(w, region->name), region->choke_count, (unsigned long long)job.limit);
        s = NAV_FAILURE | NAV_TOO_LARGE;
    }
    if (!nav_failed(s)) s = join_rows(&job, baked, count);
    for (uint32_t i = 0; job.rows && i < job.fans; i++) row_free(&job.rows[i]);
    nav__free(a, job.rows);
    nav__free(a, job.job_region);
    nav__free(a, job.job_item);
    nav__free(a, job.job_fans);
    nav__free(a, job.job_first);
    nav__free(a, job.place_first);
    nav__free(a, job.place_cell);
    nav__free(a, job.place_rep);
    nav__free(a, job.place_rank);
    nav__free(a, every);
    return s;
}
