/* Private: the scratch of the grid planner's searches bounded to a rectangle (nav/region.h;
 * region.c), shared with the fans that stop where every way passes a chokepoint (region_pruned.c),
 * which a world's bake uses for its grid regions' tables (hpa/bake/world_bake.c). */
#ifndef NAV_SRC_REGION_INTERNAL_H
#define NAV_SRC_REGION_INTERNAL_H

#include "nav/heap.h"
#include "nav/region.h"

#include "grid_internal.h"

#define NAV__REGION_NO_DIR 0xffu
#define NAV__FAN_RING_MAX  64 /* buckets at most in a fan's ring */

struct nav_region_query {
    const nav_grid *grid;
    nav_allocator allocator;
    uint32_t max_cells;
    double *g;
    uint32_t *stamp;       /* generation << 1 | closed */
    uint8_t *dir;          /* direction of the move into the cell on its best path (NO_DIR at the source) */
    uint32_t *target;      /* generation: the cell is a target of the fan under way */
    uint8_t *passed;       /* a pruned fan's: a cheapest way to the cell passes another place */
    uint32_t *next, *prev; /* a fan's buckets: doubly linked lists of cells (fan_by_buckets) */
    nav_heap open;
    uint32_t *bucket[NAV__FAN_RING_MAX]; /* fan_whole's buckets, grown as a fan needs */
    uint32_t bucket_room[NAV__FAN_RING_MAX];
    uint32_t generation;
    uint64_t expanded;
    /* under a filter (nav_region_query_set_filter): the costs its searches go by */
    bool filtered;
    nav__grid_costs costs;
    /* the last search, for nav_region_fan_path */
    nav_grid_rect rect;
    uint32_t from;
    bool reverse;
};

/* Starts a new generation of the scratch (every 2^31 searches the stamps are cleared) and empties
 * the open list. */
void nav__region_next_generation(nav_region_query *q);
/* The buckets of a fan's ring on grid (its dearest move spans fewer), or 0 when the costs spread too
 * far for a ring of NAV__FAN_RING_MAX (a heap then). */
uint32_t nav__region_fan_ring(const nav_grid *grid);
/* Doubles the room of bucket `slot` of q's ring: false when out of memory. */
bool nav__region_grow_bucket(nav_region_query *q, uint32_t slot);
/* A fan's loop by buckets of width 1 / inverse in a ring of mask + 1 (region.c, region_pruned.c):
 * the bucket of cost v, and cell put into bucket slot, the bucket grown when full. They use the
 * loop's locals: inverse, mask, bucket, count, room, q and ok, and its label done (left with ok
 * false when a bucket cannot grow). */
#define NAV__FAN_SLOT(v) ((uint32_t)(uint64_t)((v)*inverse) & mask)
#define NAV__FAN_PUT(slot, cell)                                                                             \
    do {                                                                                                     \
        if (count[slot] == room[slot]) {                                                                     \
            if (!nav__region_grow_bucket(q, slot)) {                                                         \
                ok = false;                                                                                  \
                goto done;                                                                                   \
            }                                                                                                \
            bucket[slot] = q->bucket[slot], room[slot] = q->bucket_room[slot];                               \
        }                                                                                                    \
        bucket[slot][count[slot]++] = (cell);                                                                \
    } while (0)

/* (inline: the fans' loops keep what these fill in registers, its address never taken out of them) */
/* open[d]: the neighbours a cell entered by move d need not try when all eight of its moves are
 * allowed (so that its parent's moves to them are too: the cells around are all free, and no climb
 * limit applies), because the parent reached them for less (its settling tried them); open[8] (the
 * start, entered by none) and every open[d] on a grid with a climb limit: none. */
static inline void nav__region_open_moves(const nav_grid *grid, bool uniform, uint32_t open[9])
{
    for (int d = 0; d < 9; d++) open[d] = 0;
    if (grid->heights && grid->desc.max_climb > 0) return;
    for (int d = 0; d < 8; d++)
        for (int e = 0; e < 8; e++) {
            int fx = nav__dir_dx[d] + nav__dir_dx[e], fy = nav__dir_dy[d] + nav__dir_dy[e], f = 0;
            if (fx == 0 && fy == 0) {
                open[d] |= 1u << e; /* the parent itself */
                continue;
            }
            if (fx < -1 || fx > 1 || fy < -1 || fy > 1) continue;
            while (nav__dir_dx[f] != fx || nav__dir_dy[f] != fy) f++;
            if (grid->step_length[f] <= grid->step_length[e] ||
                (uniform && grid->step_length[f] < grid->step_length[d] + grid->step_length[e]))
                open[d] |= 1u << e;
        }
}

/* A fan's moves: each one's cost on a grid of one cost (uniform; else its length, which the
 * terrain's cost multiplies) and its offset between cell indices. */
static inline void nav__region_fan_steps(const nav_grid *grid, bool uniform, double step[8],
                                         int32_t offset[8])
{
    for (int d = 0; d < 8; d++) {
        step[d] = grid->step_length[d] * (uniform ? grid->uniform_cost : 1.0);
        offset[d] = grid->offset[d];
    }
}

/* The places of one region for a pruned fan: the cells that hold its chokepoints. */
typedef struct nav__fan_places {
    const uint64_t *bits;  /* a bit a cell of the grid (cell c: bit c % 64 of word c / 64): a place */
    const uint32_t *cells; /* the places' cells, ascending */
    const uint32_t *rank;  /* each one's rank: 0 .. count - 1, in any order */
    uint32_t count;
} nav__fan_places;

/* A fan over the whole grid, forward, from place `from` (of rank from_rank), that keeps only the
 * places no cheapest way from `from` reaches through another place: there a cheapest way through
 * that other place costs as much, so a search over the places that has the entries kept here for
 * every place finds every cost exactly (from's way to the other place, then on from it). Dijkstra
 * that carries with each cell whether one of its cheapest ways (any of them where several cost the
 * same, as the floats add them) passes a place other than `from`; it stops once every open cell
 * carries it (nothing beyond can lead to a place it would keep), or every wanted place is settled:
 * every other place, or (higher_only) those of a rank above from_rank. Writes the wanted places it
 * keeps to kept (room for places->count), in the order settled, their count to *kept_count; their
 * costs and ways are then nav_region_fan_cost's and nav_region_fan_path's. Costs are nav_region_fan's
 * to the bit. Returns NAV_SUCCESS, NAV_FAILURE | NAV_INVALID_PARAM (from outside the grid or blocked,
 * or a grid larger than the query's max_cells) or NAV_FAILURE | NAV_OUT_OF_MEMORY (the buckets). */
nav_status nav__region_fan_pruned(nav_region_query *q, uint32_t from, const nav__fan_places *places,
                                  uint32_t from_rank, bool higher_only, uint32_t *kept, uint32_t *kept_count);

#endif
