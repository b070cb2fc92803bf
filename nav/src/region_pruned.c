/* Pruned fans (region_internal.h): Dijkstra over a whole grid from one of a region's places (the
 * cells of its chokepoints) that keeps only the places no cheapest way reaches through another one,
 * and stops once no open cell can lead to such a place. A world's bake makes each grid region's
 * table of them: an entry from a to b is needed only where no cheapest way from a to b passes the
 * place of another chokepoint c (else a to c, then c to b, costs as much, and the search over the
 * chokepoints finds it). With many chokepoints strewn over a region, each fan stays among its
 * nearest places: the table and the bake's work grow with the chokepoints, not their square.
 *
 * Each cell carries `passed`: one of its cheapest ways so far passes a place other than the source.
 * A move from a settled cell p to n hands on passed(p) or "p is such a place"; a cheaper move
 * replaces n's flag, a move of the same cost (the floats' sums equal) sets it (an or over the
 * cheapest ways), so the flag of a settled cell is final: every parent of its cheapest cost is
 * settled before it (moves cost at least NAV_COST_MIN). `clear` counts the open cells whose flag is
 * clear; at 0 every open cell carries it, and so will every cell settled later (a later cost or flag
 * comes through them), so no place settled later would be kept: the fan stops. A flag under-set is
 * safe (an entry kept that was not needed), one over-set is not, so flags only ever come from moves
 * that give the cell's cost. */
#include <math.h>

#include "grid_internal.h"
#include "region_internal.h"

#define NO_DIR NAV__REGION_NO_DIR

static inline bool is_place(const uint64_t *bits, uint32_t cell)
{
    return bits[cell >> 6] >> (cell & 63) & 1;
}

/* The rank of place `cell` (a place: it is in the list). */
static uint32_t rank_of(const nav__fan_places *places, uint32_t cell)
{
    uint32_t lo = 0, hi = places->count;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (places->cells[mid] <= cell)
            lo = mid;
        else
            hi = mid;
    }
    return places->rank[lo];
}

/* What a fan counts down and writes out. */
typedef struct fan_state {
    const nav__fan_places *places;
    uint32_t from, from_rank;
    bool higher_only;
    uint32_t wanted_left; /* wanted places not settled yet */
    uint32_t *kept, kept_count;
} fan_state;

/* A place other than the source settled (`via`: its flag). Returns false when the fan is over
 * (every wanted place settled). */
static inline bool settle(fan_state *f, uint32_t at, bool via)
{
    if (f->higher_only && rank_of(f->places, at) <= f->from_rank) return true;
    if (!via) f->kept[f->kept_count++] = at;
    return --f->wanted_left != 0;
}

/* The fan by Dial's buckets, as fan_whole_loop in region.c (see there: buckets of the cheapest
 * move's width, a cell put again when its cost drops, its old entry skipped), made twice, for grids
 * of one cost and for the others. Its pruning of the moves a cell need not try (its parent reached
 * those cells for strictly less) loses no move of equal cost, so no flag. */
static inline __attribute__((always_inline)) bool fan_buckets(nav_region_query *q, fan_state *f,
                                                              uint32_t mask, const bool uniform)
{
    const nav_grid *grid = q->grid;
    uint32_t generation = q->generation, gen = generation << 1;
    double inverse = 1.0 / (grid->min_cost * (1 - 1e-9)), step[8];
    int32_t offset[8];
    nav__region_fan_steps(grid, uniform, step, offset);
    const uint8_t *restrict moves = grid->moves, *restrict terrain = grid->terrain;
    const double *restrict cost = grid->terrain_cost;
    const uint64_t *restrict bits = f->places->bits;
    double *restrict g = q->g;
    uint32_t *restrict stamp = q->stamp;
    uint8_t *restrict dir = q->dir, *restrict passed = q->passed;
    uint32_t *bucket[NAV__FAN_RING_MAX], count[NAV__FAN_RING_MAX], room[NAV__FAN_RING_MAX];
    for (uint32_t i = 0; i <= mask; i++) count[i] = 0, bucket[i] = q->bucket[i], room[i] = q->bucket_room[i];
    uint64_t expanded = 0;
    bool ok = true;
    uint32_t open[9]; /* as fan_whole_loop's */
    nav__region_open_moves(grid, uniform, open);
#define SLOT(v)         NAV__FAN_SLOT(v)
#define PUT(slot, cell) NAV__FAN_PUT(slot, cell)
    uint32_t clear = 1, from = f->from;
    g[from] = 0;
    stamp[from] = gen;
    dir[from] = NO_DIR;
    passed[from] = 0;
    PUT(0, from);
    /* (until clear is 0; a whole ring of empty buckets also ends it: nothing is open) */
    for (uint64_t k = 0, empty = 0; empty <= mask; k++) {
        uint32_t slot = (uint32_t)k & mask;
        empty = count[slot] ? 0 : empty + 1;
        for (uint32_t e = 0; e < count[slot]; e++) {
            uint32_t at = bucket[slot][e];
            if (stamp[at] & 1u) continue; /* an old entry */
            stamp[at] |= 1u;
            expanded++;
            bool via = passed[at], place = at != from && is_place(bits, at);
            clear -= !via;
            if (place && !settle(f, at, via)) goto done;
            double base = g[at];
            uint32_t tries = moves[at];
            if (tries == 0xffu) tries &= ~open[dir[at] < 8 ? dir[at] : 8];
            if (via || place) { /* every cell this one gives a cost carries the flag */
                for (; tries; tries &= tries - 1) {
                    int d = __builtin_ctz(tries);
                    uint32_t n = (uint32_t)((int32_t)at + offset[d]);
                    double ng = base + (uniform ? step[d] : step[d] * cost[terrain[n]]);
                    if ((stamp[n] >> 1) == generation) {
                        if (ng > g[n]) continue; /* (a settled cell's g is lower still) */
                        if (ng == g[n]) {        /* another cheapest way: an or of the flags */
                            if (!passed[n] && !(stamp[n] & 1u)) passed[n] = 1, clear--;
                            continue;
                        }
                        clear -= 1u - passed[n]; /* a cheaper way: its flag replaces */
                    } else {
                        stamp[n] = gen;
                    }
                    passed[n] = 1;
                    g[n] = ng;
                    dir[n] = (uint8_t)d;
                    uint32_t into = SLOT(ng);
                    PUT(into, n);
                }
            } else { /* (a move of the same cost changes nothing: its flag is clear) */
                for (; tries; tries &= tries - 1) {
                    int d = __builtin_ctz(tries);
                    uint32_t n = (uint32_t)((int32_t)at + offset[d]);
                    double ng = base + (uniform ? step[d] : step[d] * cost[terrain[n]]);
                    if ((stamp[n] >> 1) == generation) {
                        if (ng >= g[n]) continue;
                        clear += passed[n];
                    } else {
                        stamp[n] = gen;
                        clear++;
                    }
                    passed[n] = 0;
                    g[n] = ng;
                    dir[n] = (uint8_t)d;
                    uint32_t into = SLOT(ng);
                    PUT(into, n);
                }
            }
            if (!clear) goto done; /* every open cell carries the flag */
        }
        count[slot] = 0;
    }
#undef PUT
#undef SLOT
done:
    q->expanded += expanded;
    return ok;
}

/* The same by a heap, for grids whose costs spread too far for a ring of buckets. */
static void fan_heap(nav_region_query *q, fan_state *f)
{
    const nav_grid *grid = q->grid;
    uint32_t generation = q->generation, gen = generation << 1, clear = 1, from = f->from;
    q->g[from] = 0;
    q->stamp[from] = gen;
    q->dir[from] = NO_DIR;
    q->passed[from] = 0;
    nav_heap_push(&q->open, 0, 0, from);
    while (q->open.count && clear) {
        uint32_t at = nav_heap_entry_id(nav_heap_pop(&q->open));
        q->stamp[at] |= 1u;
        q->expanded++;
        bool via = q->passed[at], place = at != from && is_place(f->places->bits, at);
        if (!via) clear--;
        if (place && !settle(f, at, via)) return;
        uint8_t pass = via || place;
        for (uint32_t tries = grid->moves[at]; tries; tries &= tries - 1) {
            int d = __builtin_ctz(tries);
            uint32_t n = (uint32_t)((int32_t)at + grid->offset[d]);
            double ng = q->g[at] + grid->step_length[d] * grid->terrain_cost[grid->terrain[n]];
            bool seen = (q->stamp[n] >> 1) == generation;
            if (seen) {
                if ((q->stamp[n] & 1u) || ng > q->g[n]) continue;
                if (ng == q->g[n]) {
                    if (pass && !q->passed[n]) q->passed[n] = 1, clear--;
                    continue;
                }
                if (q->passed[n] != pass) pass ? clear-- : clear++;
            } else if (!pass) {
                clear++;
            }
            q->passed[n] = pass;
            q->g[n] = ng;
            q->dir[n] = (uint8_t)d;
            if (seen) {
                nav_heap_decrease(&q->open, n, nav_heap_key_exact(ng), 0);
            } else {
                q->stamp[n] = gen;
                nav_heap_push(&q->open, nav_heap_key_exact(ng), 0, n);
            }
        }
    }
}

nav_status nav__region_fan_pruned(nav_region_query *q, uint32_t from, const nav__fan_places *places,
                                  uint32_t from_rank, bool higher_only, uint32_t *kept, uint32_t *kept_count)
{
    *kept_count = 0;
    const nav_grid *grid = q->grid;
    if (from >= grid->cells || !nav__cell_free(grid, from) || grid->cells > q->max_cells)
        return NAV_FAILURE | NAV_INVALID_PARAM;
    nav__region_next_generation(q);
    q->rect = (nav_grid_rect){0, 0, (int32_t)grid->width, (int32_t)grid->height};
    q->from = from;
    q->reverse = false;
    fan_state f = {.places = places,
                   .from = from,
                   .from_rank = from_rank,
                   .higher_only = higher_only,
                   .wanted_left = higher_only ? places->count - 1 - from_rank : places->count - 1,
                   .kept = kept};
    if (f.wanted_left == 0) return NAV_SUCCESS; /* (no fan: no ways to ask for) */
    uint32_t ring = nav__region_fan_ring(grid);
    if (ring) {
        uint32_t mask = 1;
        while (mask < ring) mask <<= 1;
        bool ok =
            grid->uniform_cost > 0 ? fan_buckets(q, &f, mask - 1, true) : fan_buckets(q, &f, mask - 1, false);
        if (!ok) {
            q->rect = (nav_grid_rect){0, 0, 0, 0}; /* no last fan */
            return NAV_FAILURE | NAV_OUT_OF_MEMORY;
        }
    } else {
        fan_heap(q, &f);
    }
    *kept_count = f.kept_count;
    return NAV_SUCCESS;
}
