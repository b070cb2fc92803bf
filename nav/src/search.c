/* The grid search engine: one loop serves BFS, Dijkstra, greedy best-first, A* and weighted A*.
 *
 * Scratch lives in the query object: a 16-byte record a cell (g, a stamp and the open list's tag,
 * see open_list.h), the open list's heap position of each cell (4 bytes) and the open list. The
 * stamp holds the search generation in its high 20 bits, the directions the cell's best g was
 * reached from (8 bits, fixed-point searches), a closed flag and the direction of the path kept,
 * so a new search needs no clearing and the path is rebuilt from directions instead of stored
 * parent indices (Detour's node pool does the same with ids).
 *
 * On a grid of one terrain cost, A* and Dijkstra count g in fixed point: every path there costs
 * that cost times (straight moves + diagonal moves * diagonal length), so g is kept in moves, in
 * units of 2^-32 of a straight one, and a move adds the integer 2^32 or the diagonal rounded to
 * those units. Sums in any order are then equal bit for bit, and the move loop compares and
 * makes its keys in integers, with no floating point: 4% fewer instructions and 6 to 8% less
 * time on the maps with the fewest ties. The searches are exact for a diagonal within 2^-33 of
 * the grid's (a path's cost is off by at most 2^-33 a diagonal move, well below the key's
 * quantum), and the cost a search reports is computed from its moves in double precision.
 *
 * Equal costs being equal bit for bit also lets those searches prune moves by the canonical order
 * of optimal paths (diagonal moves first; see build_prune_table): after a straight move a cell in
 * open ground makes one move instead of three, after a diagonal three instead of five. The order
 * of expansions changes a little and their number by 0 to 12%; the time falls by a tenth to a
 * half on the Moving AI maps, by a third at the median (bench/README.md), except in corridors one
 * cell wide, where there is nothing to prune and the search skips the test (see pruned_from). */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "grid_internal.h"
#include "heuristic.h"
#include "log.h"
#include "nav/heap.h"
#include "open_list.h"
#include "nav/search.h"

#define STAMP_CLOSED     8u
#define STAMP_DIR_MASK   7u
#define STAMP_INS_SHIFT  4 /* a bit a direction the cell's best g was reached from (fixed point) */
#define STAMP_GEN_SHIFT  12
#define GENERATION_LIMIT (1u << 20)
#define CANON_ALTS       2 /* two-move ways round a cell, per direction it was reached from */
/* An improvement smaller than this is float noise, not a better path. */
#define G_EPSILON 1e-9
struct nav_grid_query {
    const nav_grid *grid;
    nav_allocator allocator;
    search_node *nodes;
    uint32_t generation;
    open_list open;
    uint32_t *fifo; /* BFS queue: every cell enters it at most once, so cells entries suffice */
    uint32_t fifo_head, fifo_tail;

    /* the current search */
    nav_search_desc desc;
    nav_status status; /* NAV_IN_PROGRESS while running; the final status after */
    uint32_t start, goal;
    int32_t goal_x, goal_y;
    /* f = g * g_weight + h * h_scale, in key units (OPEN_F_SCALE a cost unit): these are
     * g_weight, h_scale and h_scale * (diagonal - 1) times OPEN_F_SCALE */
    double g_unit, h_unit, h_unit_diagonal;
    bool fixed;              /* g counts in fixed point (see the top of the file) */
    uint64_t fixed_diagonal; /* the diagonal move's length in fixed point */
    nav_heuristic heuristic;
    uint32_t best_cell; /* reached cell closest to the goal (for partial paths) */
    bool track;         /* the search may end short of the goal, so best_cell is tracked */
    int64_t best_dist2;
    nav_search_result progress;
    /* prune[d][m]: the moves out of a cell reached in direction d that its parent, whose moves
     * are m, makes directly at no greater cost (uniform-cost grids only, see best_first) */
    uint8_t prune[8][256];
    /* The fixed-point searches' pruning (see build_prune_table): canon_via[d][k] is the offset,
     * from a cell reached in direction d, of the middle cell of two-move way k round it, and
     * canon_move[d][k] the bit of that way's second move; canon[d][m][c] is what prune[d][m]
     * prunes and what the ways prune when the middle cells make their second moves (bit k of c). */
    int32_t canon_via[8][CANON_ALTS];
    uint8_t canon_move[8][CANON_ALTS];
    uint8_t canon[8][256][1 << CANON_ALTS];
    uint8_t canon_outs[8][256]; /* the moves the ways may prune, given the parent's moves */
};

/* Fills the prune table. A neighbour w of cell u (reached from parent p) that is p itself or
 * also a neighbour of p is reached from p at least as cheaply: on a grid of one cost, a move
 * between neighbours costs at most diagonal_cost <= 2, and the way through u costs at least 2. */
static void build_prune_table(nav_grid_query *q)
{
    for (int in = 0; in < 8; in++) {
        for (int parent_moves = 0; parent_moves < 256; parent_moves++) {
            uint8_t mask = 0;
            for (int out = 0; out < 8; out++) {
                /* w - p = out + in (as offsets) */
                int dx = nav__dir_dx[out] + nav__dir_dx[in], dy = nav__dir_dy[out] + nav__dir_dy[in];
                if (dx < -1 || dx > 1 || dy < -1 || dy > 1) continue;
                bool dominated = dx == 0 && dy == 0; /* w is the parent */
                for (int d = 0; d < 8 && !dominated; d++)
                    dominated = nav__dir_dx[d] == dx && nav__dir_dy[d] == dy && (parent_moves >> d & 1);
                if (dominated) mask |= (uint8_t)(1u << out);
            }
            q->prune[in][parent_moves] = mask;
        }
    }
    /* The fixed-point searches also prune the moves that a two-move way from the parent, not
     * through the cell, makes at a lower cost, or at the same cost with the diagonal move first
     * (the canonical order of Sturtevant and Rabin, "Canonical orderings on grids", 2016; the
     * same rule as jump point search, without the jumps). Of the optimal paths to a cell, the
     * least one, ordered by cost, then moves, then move kinds with diagonals before straight
     * moves, takes no pruned move: a pruned move could be swapped for a lesser way. The search
     * keeps every direction that reached a cell at its best g and prunes only what all of them
     * prune, so it follows that path whichever of its directions came first. */
    const nav_grid *grid = q->grid;
    double diagonal = grid->desc.diagonal_cost;
    for (int in = 0; in < 8; in++) {
        int used = 0;
        uint8_t out_of[CANON_ALTS] = {0}, first_of[CANON_ALTS] = {0};
        for (int k = 0; k < CANON_ALTS; k++) q->canon_via[in][k] = 0, q->canon_move[in][k] = 0;
        for (int out = 0; out < 8 && diagonal > 1; out++) {
            int dx = nav__dir_dx[out] + nav__dir_dx[in], dy = nav__dir_dy[out] + nav__dir_dy[in];
            if (dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1) continue; /* the table above */
            double through = (in < 4 ? 1 : diagonal) + (out < 4 ? 1 : diagonal);
            for (int first = 0; first < 8; first++) {
                int second = -1;
                for (int d = 0; d < 8; d++)
                    if (nav__dir_dx[first] + nav__dir_dx[d] == dx &&
                        nav__dir_dy[first] + nav__dir_dy[d] == dy)
                        second = d;
                if (first == in || second < 0) continue;
                double around = (first < 4 ? 1 : diagonal) + (second < 4 ? 1 : diagonal);
                bool lesser = around < through || (around == through && first >= 4 && in < 4);
                if (!lesser || used == CANON_ALTS) continue;
                out_of[used] = (uint8_t)out;
                first_of[used] = (uint8_t)first;
                q->canon_move[in][used] = (uint8_t)(1u << second);
                /* the middle cell is beside the cell reached (a straight move away) */
                q->canon_via[in][used] = grid->offset[first] - grid->offset[in];
                used++;
            }
        }
        for (int parent_moves = 0; parent_moves < 256; parent_moves++) {
            q->canon_outs[in][parent_moves] = 0;
            for (int k = 0; k < used; k++)
                if (parent_moves >> first_of[k] & 1)
                    q->canon_outs[in][parent_moves] |= (uint8_t)(1u << out_of[k]);
        }
        for (int parent_moves = 0; parent_moves < 256; parent_moves++)
            for (int c = 0; c < 1 << CANON_ALTS; c++) {
                uint8_t mask = q->prune[in][parent_moves];
                for (int k = 0; k < used; k++)
                    if ((c >> k & 1) && (parent_moves >> first_of[k] & 1)) mask |= (uint8_t)(1u << out_of[k]);
                q->canon[in][parent_moves][c] = mask;
            }
    }
}

/* The moves out of cell u (whose moves are mask) that a fixed-point search prunes for the
 * direction in that u was reached from. */
static inline uint32_t pruned_from(const nav_grid_query *q, const uint8_t *moves, const int32_t *offset,
                                   uint32_t u, uint32_t in, uint32_t mask)
{
    const uint32_t parent_moves = moves[(uint32_t)((int32_t)u - offset[in])];
    /* the two-move ways need the middle cells' moves only if the parent may move to one of them
     * and u may make a move they prune: never in a corridor, so the corridor pays nothing */
    if (!(q->canon_outs[in][parent_moves] & mask)) return q->prune[in][parent_moves];
    /* the middle cells are read before knowing whether the parent may move there: they are
     * beside u, so on the map or in the row of zeros above or below it, and one across the end
     * of u's row is a cell the parent may not move to */
    const uint32_t c = (moves[(int32_t)u + q->canon_via[in][0]] & q->canon_move[in][0] ? 1u : 0u) |
                       (moves[(int32_t)u + q->canon_via[in][1]] & q->canon_move[in][1] ? 2u : 0u);
    return q->canon[in][parent_moves][c];
}

/* The moves out of cell u of a fixed-point search, whose best g was reached from the directions
 * ins (none for the start), dir the first of them: those that not every one of them prunes. */
static inline uint32_t canonical_moves(const nav_grid_query *q, const uint8_t *moves, const int32_t *offset,
                                       uint32_t u, uint32_t ins, uint32_t dir)
{
    uint32_t mask = moves[u];
    if (__builtin_expect(!ins, 0)) return mask; /* the start */
    uint32_t pruned = pruned_from(q, moves, offset, u, dir, mask);
    if (__builtin_expect(ins & (ins - 1), 0)) { /* more directions: what all of them prune */
        for (ins &= ~(1u << dir); ins; ins &= ins - 1)
            pruned &= pruned_from(q, moves, offset, u, (uint32_t)__builtin_ctz(ins), mask);
    }
    return mask & ~pruned;
}

nav_search_desc nav_search_desc_defaults(const nav_grid *grid, const nav_search_desc *desc)
{
    nav_search_desc d = desc ? *desc : (nav_search_desc){0};
    if (d.heuristic == NAV_HEURISTIC_DEFAULT)
        d.heuristic =
            grid->desc.connectivity == NAV_CONNECT_4 ? NAV_HEURISTIC_MANHATTAN : NAV_HEURISTIC_OCTILE;
    if (d.algo == NAV_ALGO_DIJKSTRA || d.algo == NAV_ALGO_BFS) d.heuristic = NAV_HEURISTIC_ZERO;
    if (d.weight == 0) d.weight = d.algo == NAV_ALGO_WASTAR ? 1.5 : 1.0;
    return d;
}

double nav_grid_heuristic(const nav_grid *grid, nav_heuristic heuristic, int32_t ax, int32_t ay, int32_t bx,
                          int32_t by)
{
    if (heuristic == NAV_HEURISTIC_DEFAULT) heuristic = nav_search_desc_defaults(grid, NULL).heuristic;
    int32_t dx = ax > bx ? ax - bx : bx - ax, dy = ay > by ? ay - by : by - ay;
    return grid->min_cost * nav__heuristic_distance(heuristic, dx, dy, grid->desc.diagonal_cost);
}

nav_status nav_grid_query_create(const nav_grid *grid, const nav_grid_query_desc *desc, nav_grid_query **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!grid) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_allocator allocator;
    nav__allocator_resolve(&allocator, desc ? desc->allocator : NULL);
    nav_grid_query *q = nav__calloc(&allocator, 1, sizeof *q);
    if (!q) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    q->grid = grid;
    q->allocator = allocator;
    q->nodes = nav__calloc(&allocator, grid->cells, sizeof *q->nodes);
    nav_status s = q->nodes ? nav__open_init(&q->open, &allocator, grid->cells, q->nodes)
                            : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (nav_failed(s)) {
        nav_grid_query_destroy(q);
        return s;
    }
    build_prune_table(q);
    q->status = NAV_FAILURE | NAV_WRONG_STATE; /* no search yet */
    *out = q;
    return NAV_SUCCESS;
}

void nav_grid_query_destroy(nav_grid_query *q)
{
    if (!q) return;
    nav__open_destroy(&q->open);
    nav__free(&q->allocator, q->fifo);
    nav__free(&q->allocator, q->nodes);
    nav__free(&q->allocator, q);
}

size_t nav_grid_query_memory_bytes(const nav_grid_query *q)
{
    size_t bytes = sizeof *q + (size_t)q->grid->cells * sizeof *q->nodes;
    bytes += nav__open_memory_bytes(&q->open, q->grid->cells);
    if (q->fifo) bytes += (size_t)q->grid->cells * sizeof *q->fifo;
    return bytes;
}

static inline bool node_seen(const nav_grid_query *q, const search_node *n)
{
    return n->stamp >> STAMP_GEN_SHIFT == q->generation;
}

static void next_generation(nav_grid_query *q)
{
    if (++q->generation == GENERATION_LIMIT) {
        /* once every 2^20 searches: the stamps would repeat, so start over from a clean slate */
        memset(q->nodes, 0, (size_t)q->grid->cells * sizeof *q->nodes);
        q->generation = 1;
    }
}

/* Marks a cell reached with cost g from direction dir (the start uses dir 0: never followed). */
static inline void node_reach(nav_grid_query *q, search_node *n, double g, uint32_t dir)
{
    n->g = g;
    n->stamp = q->generation << STAMP_GEN_SHIFT | dir;
}

nav_status nav_grid_search_begin(nav_grid_query *q, const nav_search_desc *desc, int32_t sx, int32_t sy,
                                 int32_t gx, int32_t gy)
{
    if (!q) return NAV_FAILURE | NAV_INVALID_PARAM;
    const nav_grid *grid = q->grid;
    q->progress = (nav_search_result){.end_cell = NAV_NO_CELL};
    q->desc = nav_search_desc_defaults(grid, desc);
    const nav_search_desc *d = &q->desc;
    bool bad_options = (unsigned)d->algo > NAV_ALGO_WASTAR ||
                       (unsigned)d->heuristic > NAV_HEURISTIC_CHEBYSHEV || !(d->weight >= 1) ||
                       !isfinite(d->weight);
    if (bad_options || !nav_grid_in_bounds(grid, sx, sy) || !nav_grid_in_bounds(grid, gx, gy)) {
        nav__grid_log(grid, NAV_LOG_ERROR, "search: %s",
                      bad_options ? "bad options" : "start or goal off the map");
        return q->status = NAV_FAILURE | NAV_INVALID_PARAM;
    }
    q->start = nav_grid_index(grid, sx, sy);
    q->goal = nav_grid_index(grid, gx, gy);
    if (!nav__cell_free(grid, q->start) || !nav__cell_free(grid, q->goal))
        return q->status = NAV_FAILURE | NAV_BLOCKED_ENDPOINT;
    q->goal_x = gx;
    q->goal_y = gy;
    q->heuristic = d->heuristic;
    double h_scale = grid->min_cost * (d->algo == NAV_ALGO_WASTAR ? d->weight : 1.0);
    q->g_unit = (d->algo == NAV_ALGO_GREEDY ? 0.0 : 1.0) * OPEN_F_SCALE;
    q->h_unit = h_scale * OPEN_F_SCALE;
    q->h_unit_diagonal = h_scale * (grid->desc.diagonal_cost - 1.0) * OPEN_F_SCALE;
    q->fixed = grid->uniform_cost != 0 && (d->algo == NAV_ALGO_ASTAR || d->algo == NAV_ALGO_DIJKSTRA) &&
               d->heuristic != NAV_HEURISTIC_EUCLIDEAN;
    q->fixed_diagonal = (uint64_t)llround(grid->desc.diagonal_cost * (double)OPEN_FIXED_ONE);
    switch (d->algo) {
    case NAV_ALGO_ASTAR:
        q->progress.bound = d->heuristic == NAV_HEURISTIC_OCTILE || d->heuristic == NAV_HEURISTIC_ZERO ||
                                    d->heuristic == NAV_HEURISTIC_EUCLIDEAN ||
                                    d->heuristic == NAV_HEURISTIC_CHEBYSHEV ||
                                    grid->desc.connectivity == NAV_CONNECT_4
                                ? 1.0
                                : INFINITY;
        break;
    case NAV_ALGO_DIJKSTRA:
        q->progress.bound = 1.0;
        break;
    case NAV_ALGO_WASTAR:
        q->progress.bound =
            d->heuristic == NAV_HEURISTIC_MANHATTAN && grid->desc.connectivity == NAV_CONNECT_8 ? INFINITY
                                                                                                : d->weight;
        break;
    default:
        q->progress.bound = INFINITY;
        break;
    }

    next_generation(q);
    nav__open_clear(&q->open);
    q->fifo_head = q->fifo_tail = 0;
    search_node *start = &q->nodes[q->start];
    node_reach(q, start, 0.0, 0);
    if (q->fixed) start->g_fixed = 0;
    q->best_cell = q->start;
    q->best_dist2 = INT64_MAX;
    q->progress.end_cell = q->start;

    if (q->start == q->goal) {
        start->stamp |= STAMP_CLOSED;
        return q->status = NAV_SUCCESS;
    }
    if (!nav_grid_may_reach(grid, sx, sy, gx, gy)) {
        start->stamp |= STAMP_CLOSED;
        return q->status = NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE;
    }
    /* A search ends at the goal unless a node limit stops it or the goal cannot be reached; exact
     * labels prove that it can (the common case), and then no closest cell needs tracking. */
    q->track = d->max_expanded != 0 || !nav_grid_reachability_exact(grid);
    if (d->algo == NAV_ALGO_BFS) {
        if (!q->fifo) {
            q->fifo = nav__alloc(&q->allocator, nav__mul_size(grid->cells, sizeof *q->fifo));
            if (!q->fifo) return q->status = NAV_FAILURE | NAV_OUT_OF_MEMORY;
        }
        q->fifo[q->fifo_tail++] = q->start;
    } else {
        int32_t dx = sx > gx ? sx - gx : gx - sx, dy = sy > gy ? sy - gy : gy - sy;
        uint64_t key = q->fixed
                           ? nav__open_key_fixed(nav__heuristic_fixed(q->heuristic, dx, dy, OPEN_FIXED_ONE,
                                                                      q->fixed_diagonal - OPEN_FIXED_ONE))
                           : nav__open_key_scaled(
                                 nav__heuristic_scaled(q->heuristic, dx, dy, q->h_unit, q->h_unit_diagonal));
        if (!nav__open_insert(&q->open, key, nav__open_tie(0), q->start))
            return q->status = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    q->progress.generated = 1;
    return q->status = NAV_IN_PROGRESS;
}

/* Records the expanded cell if it is the closest to the goal so far (straight-line distance, then
 * smaller g, then lower index): the end of a partial path. */
static inline void track_closest(nav_grid_query *q, uint32_t cell, int32_t x, int32_t y, bool fixed)
{
    int64_t dx = x - q->goal_x, dy = y - q->goal_y, dist2 = dx * dx + dy * dy;
    const search_node *n = &q->nodes[cell], *best = &q->nodes[q->best_cell];
    if (dist2 < q->best_dist2 ||
        (dist2 == q->best_dist2 && (fixed ? n->g_fixed < best->g_fixed : n->g < best->g))) {
        q->best_dist2 = dist2;
        q->best_cell = cell;
    }
}

/* A fixed-point search reached cell v again at its best g, from a new direction dir: records the
 * direction, and if v was expanded already, puts it back on the open list, so that the moves the
 * new direction does not prune are made too (see build_prune_table). Canonical pruning leaves
 * few equal ways. (Reopening only when the direction adds moves saves a third of these
 * expansions but measured no faster.) Returns false when out of memory. */
static __attribute__((noinline)) bool reach_again(nav_grid_query *q, uint32_t v, uint32_t dir)
{
    search_node *nv = &q->nodes[v];
    nv->stamp |= 1u << (STAMP_INS_SHIFT + dir);
    if (!(nv->stamp & STAMP_CLOSED)) return true;
    nv->stamp &= ~STAMP_CLOSED;
    const nav_grid *grid = q->grid;
    int32_t vx = (int32_t)(v % grid->width), vy = (int32_t)(v / grid->width);
    int32_t dx = vx > q->goal_x ? vx - q->goal_x : q->goal_x - vx,
            dy = vy > q->goal_y ? vy - q->goal_y : q->goal_y - vy;
    uint64_t h =
        nav__heuristic_fixed(q->heuristic, dx, dy, OPEN_FIXED_ONE, q->fixed_diagonal - OPEN_FIXED_ONE);
    return nav__open_insert(&q->open, nav__open_key_fixed(nv->g_fixed + h), nav__open_tie_fixed(nv->g_fixed),
                            v);
}

/* The best-first loop, specialised at each call site by the constant heuristic and cost mode so
 * the hot path has no function pointers and no per-move switch. Returns the status.
 *
 * The best new successor of each expansion is held back from the open list; if it orders before
 * the list's top it is exactly what the next pop would return, so it is expanded at once and the
 * push and pop are skipped. It pays on open ground, where the search runs along a plateau of
 * equal f towards the goal; where a search floods around obstacles it rarely fires (about 4% of
 * expansions on den520d). Otherwise the held entry goes on the list and the list's top is popped
 * and held in its place, so the next expansion does not look for the top again. The order of
 * expansions is unchanged.
 *
 * fixed: A* or Dijkstra on a grid of one cost, with g in fixed point (uniform is then true). */
static inline __attribute__((always_inline)) nav_status best_first(nav_grid_query *q, uint32_t budget,
                                                                   const nav_heuristic heuristic,
                                                                   const bool uniform, const bool fixed)
{
    const nav_grid *grid = q->grid;
    search_node *nodes = q->nodes;
    const uint8_t *moves = grid->moves, *terrain = grid->terrain;
    const double *terrain_cost = grid->terrain_cost;
    const uint32_t width = grid->width, generation = q->generation, goal = q->goal;
    const int32_t goal_x = q->goal_x, goal_y = q->goal_y;
    /* Keys count f in units of 1 / OPEN_F_SCALE, folded into the constants. */
    const double h_unit = q->h_unit, h_unit_diagonal = q->h_unit_diagonal, g_unit = q->g_unit;
    const uint64_t fixed_extra = q->fixed_diagonal - OPEN_FIXED_ONE; /* the diagonal's length past 1 */
    double step_cost[8], step_length[8];
    uint64_t step_fixed[8];
    int32_t offset[8];
    for (int d = 0; d < 8; d++) {
        step_length[d] = grid->step_length[d];
        step_cost[d] = step_length[d] * grid->uniform_cost;
        step_fixed[d] = d < 4 ? OPEN_FIXED_ONE : q->fixed_diagonal;
        offset[d] = grid->offset[d];
    }
    uint32_t expanded = q->progress.expanded, generated = q->progress.generated;
    const uint32_t limit = q->desc.max_expanded;
    const bool track = q->track;
    /* fixed: A* or Dijkstra, which reopen cells (a constant here) */
    const bool reopen = fixed || q->desc.algo == NAV_ALGO_ASTAR || q->desc.algo == NAV_ALGO_DIJKSTRA;
    nav_status status = NAV_IN_PROGRESS;
    bool held = false;
    nav_heap_entry hold = {0};
    /* expansions this call may make: the slice's budget and what is left of the node limit */
    uint32_t allowed = budget ? budget : UINT32_MAX;
    if (limit && limit - (expanded < limit ? expanded : limit) < allowed)
        allowed = limit - (expanded < limit ? expanded : limit);

    for (uint32_t slice = 0;; slice++) {
        if (!held && nav__open_count(&q->open) == 0) {
            status = NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE;
            break;
        }
        if (slice >= allowed) {
            if (held && !nav__open_insert(&q->open, hold.key, (uint32_t)(hold.order >> 32),
                                          nav_heap_entry_id(hold))) {
                status = NAV_FAILURE | NAV_OUT_OF_MEMORY;
                break;
            }
            if (limit && expanded >= limit) status = NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_OUT_OF_NODES;
            break;
        }
        uint32_t u;
        if (held) {
            u = nav_heap_entry_id(hold);
            held = false;
        } else {
            nav_heap_entry top;
            bool failed = false;
            if (!nav__open_top(&q->open, &top, &failed)) { /* count > 0, so only memory can fail */
                status = NAV_FAILURE | NAV_OUT_OF_MEMORY;
                break;
            }
            u = nav__open_pop(&q->open);
        }
        search_node *nu = &nodes[u];
        nu->stamp |= STAMP_CLOSED;
        expanded++;
        int32_t ux = (int32_t)(u % width), uy = (int32_t)(u / width);
        if (u == goal) {
            q->best_cell = u;
            status = NAV_SUCCESS;
            break;
        }
        if (track) track_closest(q, u, ux, uy, fixed);
        const double gu = nu->g;
        const uint64_t gu_fixed = nu->g_fixed;
        uint32_t mask = moves[u];
        if (fixed) {
            mask = canonical_moves(q, moves, offset, u, nu->stamp >> STAMP_INS_SHIFT & 0xffu,
                                   nu->stamp & STAMP_DIR_MASK);
        } else if (uniform && u != q->start) {
            /* skip the neighbours the parent already reached at no greater cost */
            const uint32_t in = nu->stamp & STAMP_DIR_MASK;
            mask &= ~(uint32_t)q->prune[in][moves[(uint32_t)((int32_t)u - offset[in])]];
        }
        for (; mask; mask &= mask - 1) {
            const int dir = __builtin_ctz(mask);
            const uint32_t v = (uint32_t)((int32_t)u + offset[dir]);
            search_node *nv = &nodes[v];
            bool seen = nv->stamp >> STAMP_GEN_SHIFT == generation;
            double g = 0;
            uint64_t g_fixed = 0;
            if (fixed) {
                g_fixed = gu_fixed + step_fixed[dir];
                if (seen && g_fixed >= nv->g_fixed) {
                    if (g_fixed == nv->g_fixed && !(nv->stamp >> (STAMP_INS_SHIFT + dir) & 1u) &&
                        !reach_again(q, v, (uint32_t)dir)) {
                        status = NAV_FAILURE | NAV_OUT_OF_MEMORY;
                        goto out;
                    }
                    continue;
                }
            } else {
                g = gu + (uniform ? step_cost[dir] : step_length[dir] * terrain_cost[terrain[v]]);
                if (seen && (g + G_EPSILON >= nv->g || ((nv->stamp & STAMP_CLOSED) && !reopen))) continue;
            }
            /* A closed cell improves only through the quantised order of f (A*, Dijkstra) or an
             * inconsistent heuristic; the exact planners reopen it so their result stays within
             * one quantum of the optimum. It goes back on the open list as a new entry. */
            if (seen && (nv->stamp & STAMP_CLOSED)) seen = false;
            int32_t vx = ux + nav__dir_dx[dir], vy = uy + nav__dir_dy[dir];
            int32_t dx = vx > goal_x ? vx - goal_x : goal_x - vx,
                    dy = vy > goal_y ? vy - goal_y : goal_y - vy;
            /* the one expression for a key: the open list finds an entry by recomputing it */
            nav_heap_entry e;
            uint64_t old_key;
            if (fixed) {
                const uint64_t h = nav__heuristic_fixed(heuristic, dx, dy, OPEN_FIXED_ONE, fixed_extra);
                e = (nav_heap_entry){nav__open_key_fixed(g_fixed + h),
                                     (uint64_t)nav__open_tie_fixed(g_fixed) << 32 | v};
                old_key = nav__open_key_fixed(nv->g_fixed + h); /* used only if seen */
                nv->g_fixed = g_fixed;
            } else {
                const double h = nav__heuristic_scaled(heuristic, dx, dy, h_unit, h_unit_diagonal);
                e = (nav_heap_entry){nav__open_key_scaled(g * g_unit + h),
                                     (uint64_t)nav__open_tie(g) << 32 | v};
                old_key = seen ? nav__open_key_scaled(nv->g * g_unit + h) : 0;
                nv->g = g;
            }
            nv->stamp = generation << STAMP_GEN_SHIFT | 1u << (STAMP_INS_SHIFT + dir) | (uint32_t)dir;
            generated++;
            if (seen) { /* open already: it sits on the list (only new cells are held) */
                if (!nav__open_decrease(&q->open, old_key, e.key, (uint32_t)(e.order >> 32), v)) {
                    status = NAV_FAILURE | NAV_OUT_OF_MEMORY;
                    goto out;
                }
                continue;
            }
            if (!held) {
                hold = e;
                held = true;
                continue;
            }
            if (nav_heap_entry_less(&e, &hold)) {
                nav_heap_entry t = hold;
                hold = e;
                e = t;
            }
            if (!nav__open_insert(&q->open, e.key, (uint32_t)(e.order >> 32), nav_heap_entry_id(e))) {
                status = NAV_FAILURE | NAV_OUT_OF_MEMORY;
                goto out;
            }
        }
        nav_heap_entry top;
        bool failed = false;
        if (held && nav__open_top(&q->open, &top, &failed) && nav_heap_entry_less(&top, &hold)) {
            /* the list's top goes first: it becomes the held entry, so the next expansion takes
             * it without looking for the top again */
            if (!nav__open_insert(&q->open, hold.key, (uint32_t)(hold.order >> 32),
                                  nav_heap_entry_id(hold))) {
                failed = true;
            } else {
                nav__open_pop(&q->open); /* still the top: hold orders after it */
                hold = top;
            }
        }
        if (failed) {
            status = NAV_FAILURE | NAV_OUT_OF_MEMORY;
            break;
        }
    }
out:
    q->progress.expanded = expanded;
    q->progress.generated = generated;
    return status;
}

/* Breadth-first: fewest moves, first in first out; every cell is queued at most once. */
static nav_status breadth_first(nav_grid_query *q, uint32_t budget)
{
    const nav_grid *grid = q->grid;
    uint32_t expanded = q->progress.expanded, generated = q->progress.generated;
    const uint32_t limit = q->desc.max_expanded;
    nav_status status = NAV_IN_PROGRESS;
    for (uint32_t slice = 0;; slice++) {
        if (q->fifo_head == q->fifo_tail) {
            status = NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE;
            break;
        }
        if (limit && expanded >= limit) {
            status = NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_OUT_OF_NODES;
            break;
        }
        if (budget && slice >= budget) break;
        uint32_t u = q->fifo[q->fifo_head++];
        search_node *nu = &q->nodes[u];
        nu->stamp |= STAMP_CLOSED;
        expanded++;
        if (u == q->goal) {
            q->best_cell = u;
            status = NAV_SUCCESS;
            break;
        }
        if (q->track) track_closest(q, u, (int32_t)(u % grid->width), (int32_t)(u / grid->width), false);
        for (uint32_t mask = grid->moves[u]; mask; mask &= mask - 1) {
            int dir = __builtin_ctz(mask);
            uint32_t v = (uint32_t)((int32_t)u + grid->offset[dir]);
            search_node *nv = &q->nodes[v];
            if (node_seen(q, nv)) continue;
            node_reach(q, nv, nu->g + grid->step_length[dir] * grid->terrain_cost[grid->terrain[v]],
                       (uint32_t)dir);
            q->fifo[q->fifo_tail++] = v;
            generated++;
        }
    }
    q->progress.expanded = expanded;
    q->progress.generated = generated;
    return status;
}

nav_status nav_grid_search_step(nav_grid_query *q, uint32_t max_expansions)
{
    if (!q) return NAV_FAILURE | NAV_INVALID_PARAM;
    if (!nav_in_progress(q->status)) return q->status;
    bool uniform = q->grid->uniform_cost != 0;
    nav_status s;
    if (q->desc.algo == NAV_ALGO_BFS) {
        s = breadth_first(q, max_expansions);
    } else if (q->fixed) {
        switch (q->heuristic) {
        case NAV_HEURISTIC_OCTILE:
            s = best_first(q, max_expansions, NAV_HEURISTIC_OCTILE, true, true);
            break;
        case NAV_HEURISTIC_MANHATTAN:
            s = best_first(q, max_expansions, NAV_HEURISTIC_MANHATTAN, true, true);
            break;
        case NAV_HEURISTIC_CHEBYSHEV:
            s = best_first(q, max_expansions, NAV_HEURISTIC_CHEBYSHEV, true, true);
            break;
        default:
            s = best_first(q, max_expansions, NAV_HEURISTIC_ZERO, true, true);
            break;
        }
    } else {
        switch (q->heuristic) {
        case NAV_HEURISTIC_OCTILE:
            s = uniform ? best_first(q, max_expansions, NAV_HEURISTIC_OCTILE, true, false)
                        : best_first(q, max_expansions, NAV_HEURISTIC_OCTILE, false, false);
            break;
        case NAV_HEURISTIC_MANHATTAN:
            s = uniform ? best_first(q, max_expansions, NAV_HEURISTIC_MANHATTAN, true, false)
                        : best_first(q, max_expansions, NAV_HEURISTIC_MANHATTAN, false, false);
            break;
        case NAV_HEURISTIC_EUCLIDEAN:
            s = best_first(q, max_expansions, NAV_HEURISTIC_EUCLIDEAN, uniform, false);
            break;
        case NAV_HEURISTIC_CHEBYSHEV:
            s = best_first(q, max_expansions, NAV_HEURISTIC_CHEBYSHEV, uniform, false);
            break;
        default:
            s = best_first(q, max_expansions, NAV_HEURISTIC_ZERO, uniform, false);
            break;
        }
    }
    return q->status = s;
}

/* The cost of the path to cell of a fixed-point search, in double precision: the grid's cost times
 * the straight moves plus the diagonal moves times the diagonal's length. */
static double fixed_path_cost(const nav_grid_query *q, uint32_t cell)
{
    const nav_grid *grid = q->grid;
    uint64_t straight = 0, diagonal = 0;
    while (cell != q->start) {
        uint32_t dir = q->nodes[cell].stamp & STAMP_DIR_MASK;
        if (dir < 4)
            straight++;
        else
            diagonal++;
        cell = (uint32_t)((int32_t)cell - grid->offset[dir]);
    }
    return grid->uniform_cost * ((double)straight + (double)diagonal * grid->desc.diagonal_cost);
}

nav_status nav_grid_search_finish(nav_grid_query *q, nav_path *path, nav_search_result *result)
{
    if (!q || !path) return NAV_FAILURE | NAV_INVALID_PARAM;
    if (nav_in_progress(q->status) || nav_failed(q->status)) return q->status | NAV_WRONG_STATE;
    const nav_grid *grid = q->grid;
    nav_path_clear(path);
    uint32_t end = q->best_cell;
    q->progress.end_cell = end;
    q->progress.cost = q->fixed ? fixed_path_cost(q, end) : q->nodes[end].g;
    if (result) *result = q->progress;
    /* walk back along the stored directions, then reverse */
    for (uint32_t cell = end;;) {
        int32_t x = (int32_t)(cell % grid->width), y = (int32_t)(cell / grid->width);
        nav_status s = nav_path_push(path, nav_grid_cell_center(grid, x, y), cell);
        if (nav_failed(s)) {
            nav_path_clear(path);
            return s;
        }
        if (cell == q->start) break;
        uint32_t dir = q->nodes[cell].stamp & STAMP_DIR_MASK;
        cell = (uint32_t)((int32_t)cell - grid->offset[dir]);
    }
    nav_path_reverse(path);
    path->cost = q->progress.cost;
    return q->status;
}

nav_status nav_grid_find_path(nav_grid_query *q, const nav_search_desc *desc, int32_t sx, int32_t sy,
                              int32_t gx, int32_t gy, nav_path *path, nav_search_result *result)
{
    if (!q || !path) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_status s = nav_grid_search_begin(q, desc, sx, sy, gx, gy);
    if (nav_in_progress(s)) s = nav_grid_search_step(q, 0);
    if (nav_failed(s)) {
        nav_path_clear(path);
        if (result) *result = q->progress;
        return s;
    }
    return nav_grid_search_finish(q, path, result);
}

nav_cell_state nav_grid_query_cell(const nav_grid_query *q, int32_t x, int32_t y, double *g, uint32_t *parent)
{
    const nav_grid *grid = q->grid;
    if (!nav_grid_in_bounds(grid, x, y)) return NAV_CELL_UNSEEN;
    uint32_t cell = nav_grid_index(grid, x, y);
    const search_node *n = &q->nodes[cell];
    if (q->generation == 0 || !node_seen(q, n)) return NAV_CELL_UNSEEN;
    if (g) *g = q->fixed ? grid->uniform_cost * ((double)n->g_fixed / (double)OPEN_FIXED_ONE) : n->g;
    if (parent)
        *parent = cell == q->start ? NAV_NO_CELL
                                   : (uint32_t)((int32_t)cell - grid->offset[n->stamp & STAMP_DIR_MASK]);
    return n->stamp & STAMP_CLOSED ? NAV_CELL_CLOSED : NAV_CELL_OPEN;
}

uint32_t nav_grid_query_open_count(const nav_grid_query *q)
{
    if (q->desc.algo == NAV_ALGO_BFS) return q->fifo_tail - q->fifo_head;
    return nav__open_count(&q->open);
}

uint32_t nav_grid_query_open_cells(const nav_grid_query *q, uint32_t *cells, uint32_t max)
{
    if (q->desc.algo != NAV_ALGO_BFS) return nav__open_list_cells(&q->open, cells, max);
    uint32_t n = q->fifo_tail - q->fifo_head;
    if (n > max) n = max;
    memcpy(cells, q->fifo + q->fifo_head, n * sizeof *cells);
    return n;
}

nav_search_result nav_grid_query_progress(const nav_grid_query *q)
{
    return q->progress;
}

nav_status nav_grid_validate_cells(const nav_grid *grid, const nav_path *path, double *cost)
{
    double total = 0;
    for (uint32_t i = 0; i < path->count; i++) {
        uint32_t cell = path->nodes[i];
        if (cell >= grid->cells || !nav__cell_free(grid, cell)) {
            nav__grid_log(grid, NAV_LOG_ERROR, "path point %u: cell %u is off the map or blocked", i, cell);
            return NAV_FAILURE | NAV_INVALID_PARAM;
        }
        if (i == 0) continue;
        uint32_t prev = path->nodes[i - 1];
        int dir = -1;
        int64_t delta = (int64_t)cell - (int64_t)prev;
        for (uint32_t moves = prev < grid->cells ? grid->moves[prev] : 0; moves && dir < 0;
             moves &= moves - 1)
            if (grid->offset[__builtin_ctz(moves)] == delta) dir = __builtin_ctz(moves);
        if (dir < 0) {
            nav__grid_log(grid, NAV_LOG_ERROR, "path step %u: %u -> %u is not an allowed move", i, prev,
                          cell);
            return NAV_FAILURE | NAV_INVALID_PARAM;
        }
        total += grid->step_length[dir] * grid->terrain_cost[grid->terrain[cell]];
    }
    if (cost) *cost = total;
    return NAV_SUCCESS;
}
