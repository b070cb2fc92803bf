/* Searches bounded to a rectangle: the grid's leg (A*) and fan (Dijkstra to many targets).
 *
 * The scratch is indexed by the cell's place inside the rectangle, so a query object for HPA*
 * clusters of 16 x 16 cells needs 256 records whatever the size of the map. Records carry a
 * generation stamp, so a new search clears nothing. The path is kept as the direction of the
 * move into each cell (one byte), and walked back from the target. */
#include <math.h>

#include "alloc.h"
#include "grid_internal.h"
#include "heuristic.h"
#include "region_internal.h"

#define NO_DIR       NAV__REGION_NO_DIR
#define FAN_RING_MAX NAV__FAN_RING_MAX

nav_status nav_region_query_create(const nav_grid *grid, uint32_t max_cells, const nav_allocator *allocator,
                                   nav_region_query **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!grid || max_cells == 0) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_allocator a;
    nav__allocator_resolve(&a, allocator);
    nav_region_query *q = nav__calloc(&a, 1, sizeof *q);
    if (!q) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    q->grid = grid;
    q->allocator = a;
    q->max_cells = max_cells;
    q->g = nav__alloc(&a, nav__mul_size(max_cells, sizeof *q->g));
    q->stamp = nav__calloc(&a, max_cells, sizeof *q->stamp);
    q->dir = nav__alloc(&a, max_cells);
    q->target = nav__calloc(&a, max_cells, sizeof *q->target);
    q->passed = nav__alloc(&a, max_cells);
    q->next = nav__alloc(&a, nav__mul_size(max_cells, sizeof *q->next));
    q->prev = nav__alloc(&a, nav__mul_size(max_cells, sizeof *q->prev));
    if (!q->g || !q->stamp || !q->dir || !q->target || !q->passed || !q->next || !q->prev ||
        nav_failed(nav_heap_init(&q->open, &a, max_cells, max_cells))) {
        nav_region_query_destroy(q);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    *out = q;
    return NAV_SUCCESS;
}

void nav_region_query_destroy(nav_region_query *q)
{
    if (!q) return;
    nav_heap_destroy(&q->open);
    nav__free(&q->allocator, q->g);
    nav__free(&q->allocator, q->stamp);
    nav__free(&q->allocator, q->dir);
    nav__free(&q->allocator, q->target);
    nav__free(&q->allocator, q->passed);
    nav__free(&q->allocator, q->next);
    nav__free(&q->allocator, q->prev);
    for (int i = 0; i < FAN_RING_MAX; i++) nav__free(&q->allocator, q->bucket[i]);
    nav__free(&q->allocator, q);
}

nav_status nav_region_query_set_grid(nav_region_query *q, const nav_grid *grid)
{
    if (!q || !grid) return NAV_FAILURE | NAV_INVALID_PARAM;
    if (q->grid != grid) {
        q->grid = grid;
        q->rect = (nav_grid_rect){0, 0, 0, 0}; /* no last fan */
        if (q->filtered) nav__grid_costs_make(grid, q->costs.filter, &q->costs);
    }
    return NAV_SUCCESS;
}

nav_status nav_region_query_set_filter(nav_region_query *q, const nav_grid_filter *filter)
{
    if (!q) return NAV_FAILURE | NAV_INVALID_PARAM;
    if (q->filtered ? filter == q->costs.filter : !filter) return NAV_SUCCESS; /* (checked when set) */
    if (filter && !nav_grid_filter_valid(filter)) return NAV_FAILURE | NAV_INVALID_PARAM;
    q->rect = (nav_grid_rect){0, 0, 0, 0};
    q->filtered = filter != NULL;
    if (filter) nav__grid_costs_make(q->grid, filter, &q->costs);
    return NAV_SUCCESS;
}

/* Whether a cell is free to the query's searches (under its filter, if it has one). */
static bool cell_open(const nav_region_query *q, uint32_t cell)
{
    return q->filtered ? q->costs.cost[q->grid->terrain[cell]] < INFINITY : nav__cell_free(q->grid, cell);
}

size_t nav_region_query_memory_bytes(const nav_region_query *q)
{
    if (!q) return 0;
    size_t buckets = 0;
    for (int i = 0; i < FAN_RING_MAX; i++) buckets += (size_t)q->bucket_room[i] * sizeof(uint32_t);
    return sizeof *q + buckets +
           (size_t)q->max_cells * (sizeof *q->g + sizeof *q->stamp + 2 + sizeof *q->target +
                                   2 * sizeof(uint32_t) + sizeof(nav_heap_entry) + sizeof(uint32_t));
}

uint64_t nav_region_query_expanded(const nav_region_query *q)
{
    return q ? q->expanded : 0;
}

static bool rect_valid(const nav_region_query *q, nav_grid_rect r)
{
    const nav_grid *grid = q->grid;
    return r.width > 0 && r.height > 0 && r.x >= 0 && r.y >= 0 &&
           (uint32_t)r.x + (uint32_t)r.width <= grid->width &&
           (uint32_t)r.y + (uint32_t)r.height <= grid->height &&
           (uint64_t)r.width * (uint64_t)r.height <= q->max_cells;
}

/* Local index of a cell inside rect, or UINT32_MAX outside it. */
static uint32_t local_index(const nav_grid *grid, nav_grid_rect r, uint32_t cell)
{
    if (cell >= grid->cells) return UINT32_MAX;
    int32_t x = (int32_t)(cell % grid->width) - r.x, y = (int32_t)(cell / grid->width) - r.y;
    if (x < 0 || y < 0 || x >= r.width || y >= r.height) return UINT32_MAX;
    return (uint32_t)y * (uint32_t)r.width + (uint32_t)x;
}

void nav__region_next_generation(nav_region_query *q)
{
    if (++q->generation >= (1u << 31)) {
        for (uint32_t i = 0; i < q->max_cells; i++) q->stamp[i] = q->target[i] = 0;
        q->generation = 1;
    }
    nav_heap_clear(&q->open);
}

/* The move in direction d from local cell (lx, ly) of rect r (grid cell `cell`), kept inside the
 * rect: false when there is none. Forward: the move cell -> next (one of `moves`, the cell's),
 * costing the terrain entered;
 * reverse: the move next -> cell, taken backwards, costing the terrain of cell. *next: its local
 * index. */
static inline bool neighbour(const nav_region_query *q, nav_grid_rect r, int32_t lx, int32_t ly,
                             uint32_t cell, uint32_t moves, int d, bool reverse, uint32_t *next, double *step)
{
    const nav_grid *grid = q->grid;
    int32_t nx = lx + nav__dir_dx[d], ny = ly + nav__dir_dy[d];
    if (nx < 0 || ny < 0 || nx >= r.width || ny >= r.height) return false;
    uint32_t next_cell = (uint32_t)((int32_t)cell + grid->offset[d]);
    const double *cost = q->filtered ? q->costs.cost : grid->terrain_cost;
    if (!reverse) {
        if (!(moves >> d & 1u)) return false;
        *step = grid->step_length[d] * cost[grid->terrain[next_cell]];
    } else {
        uint32_t back = q->filtered ? nav__grid_moves_of(&q->costs, next_cell) : grid->moves[next_cell];
        if (!(back >> nav__dir_opposite(d) & 1u)) return false;
        *step = grid->step_length[d] * cost[grid->terrain[cell]];
    }
    *next = (uint32_t)ny * (uint32_t)r.width + (uint32_t)nx;
    return true;
}

/* A fan by Dial's buckets instead of a heap. Every move costs at least `width` (a straight step on
 * the cheapest terrain), so once every cell below k * width is settled, each cell whose g lies in
 * [k * width, (k + 1) * width) is final: nothing settled later can lower it (it would have to come
 * from below k * width). A bucket is then settled whole, in any order, and each settled cell sends
 * its neighbours to later buckets only. The buckets are a ring of `ring` lists (the dearest move
 * spans fewer), each doubly linked through q->next and q->prev so that a cell whose g drops moves in
 * O(1). width is taken a hair small, so that the floats' rounding never puts a neighbour in the
 * bucket being settled. Costs are the heap's (the same sums, maybe another of several equal paths). */
#define NO_CELL UINT32_MAX

uint32_t nav__region_fan_ring(const nav_grid *grid)
{
    double width = grid->min_cost, widest = grid->max_cost * fmax(1.0, grid->desc.diagonal_cost);
    double ring = ceil(widest / width) + 2;
    return ring <= FAN_RING_MAX && width > 0 ? (uint32_t)ring : 0;
}

static void fan_by_buckets(nav_region_query *q, nav_grid_rect r, uint32_t from, bool reverse,
                           uint32_t targets_left, uint32_t ring)
{
    const nav_grid *grid = q->grid;
    uint32_t w = grid->width, gen = q->generation << 1, rw = (uint32_t)r.width;
    bool whole = r.x == 0 && r.y == 0 && rw == w && (uint32_t)r.height == grid->height;
    double width = grid->min_cost * (1 - 1e-9);
    uint32_t head[FAN_RING_MAX];
    for (uint32_t i = 0; i < ring; i++) head[i] = NO_CELL;
#define SLOT(g) ((uint32_t)((uint64_t)((g) / width) % ring))
    uint32_t start = local_index(grid, r, from), waiting = 1;
    q->g[start] = 0;
    q->stamp[start] = gen;
    q->dir[start] = NO_DIR;
    q->next[start] = q->prev[start] = NO_CELL;
    head[0] = start;
    for (uint64_t k = 0; waiting; k++) {
        uint32_t slot = (uint32_t)(k % ring);
        while (head[slot] != NO_CELL) {
            uint32_t at = head[slot];
            head[slot] = q->next[at];
            if (head[slot] != NO_CELL) q->prev[head[slot]] = NO_CELL;
            waiting--;
            q->stamp[at] |= 1u;
            q->expanded++;
            if (targets_left && q->target[at] == q->generation && --targets_left == 0) return;
            int32_t lx = (int32_t)(at % rw), ly = (int32_t)(at / rw);
            uint32_t cell = (uint32_t)(r.y + ly) * w + (uint32_t)(r.x + lx);
            double g = q->g[at];
            /* forward over the whole grid, the cell's move bits are the neighbours to try (they never
             * leave the grid); otherwise all eight, kept inside the rectangle */
            uint32_t tries = whole && !reverse ? grid->moves[cell] : 0xffu;
            for (; tries; tries &= tries - 1) {
                int d = __builtin_ctz(tries);
                uint32_t next;
                double step;
                if (whole && !reverse) {
                    next = (uint32_t)((int32_t)cell + grid->offset[d]);
                    step = grid->step_length[d] * grid->terrain_cost[grid->terrain[next]];
                } else if (!neighbour(q, r, lx, ly, cell, grid->moves[cell], d, reverse, &next, &step)) {
                    continue;
                }
                double ng = g + step;
                bool seen = (q->stamp[next] >> 1) == q->generation;
                if (seen && ((q->stamp[next] & 1u) || ng >= q->g[next])) continue;
                if (seen) { /* out of its old bucket */
                    uint32_t before = q->prev[next], after = q->next[next];
                    if (before != NO_CELL)
                        q->next[before] = after;
                    else
                        head[SLOT(q->g[next])] = after;
                    if (after != NO_CELL) q->prev[after] = before;
                } else {
                    q->stamp[next] = gen;
                    waiting++;
                }
                q->g[next] = ng;
                q->dir[next] = (uint8_t)d;
                uint32_t into = SLOT(ng);
                q->prev[next] = NO_CELL;
                q->next[next] = head[into];
                if (head[into] != NO_CELL) q->prev[head[into]] = next;
                head[into] = next;
            }
        }
    }
#undef SLOT
}

/* fan_by_buckets over a whole grid, forward, made faster for the world's bake, which spends nearly
 * all its time here: a cell's move bits are its neighbours (they never leave the grid); a move
 * costs step[d] (on a grid of one cost) or step[d] times the terrain entered; the ring is a power of
 * two and a bucket's number g * inverse, so that no division is left in the loop; and the buckets
 * are plain arrays in which a cell whose g drops is put again, its old entry skipped when reached
 * (the cell is settled by then: its new g lies in an earlier bucket, or earlier in this one). The
 * arrays grow as a fan needs (q->bucket); false when they cannot. Costs, and the cells settled, are
 * fan_by_buckets' (each bucket's cells may settle in another order, so a fan that stops at its last
 * target may settle a few cells more or fewer, and of equal paths keep another). */
bool nav__region_grow_bucket(nav_region_query *q, uint32_t slot)
{
    uint32_t room = q->bucket_room[slot];
    if (room > UINT32_MAX / 2) return false;
    uint32_t grown = room ? 2 * room : 1024;
    uint32_t *more = nav__realloc(&q->allocator, q->bucket[slot], (size_t)room * sizeof *more,
                                  nav__mul_size(grown, sizeof *more));
    if (!more) return false;
    q->bucket[slot] = more;
    q->bucket_room[slot] = grown;
    return true;
}

/* The loop of fan_whole, made twice: for grids of one cost (uniform) and for the others. Everything
 * it reads in the loop is a local or a restrict pointer, so that its stores (dir is bytes, which
 * may alias anything) do not make the compiler load the grid's fields again. */
static inline __attribute__((always_inline)) bool
fan_whole_loop(nav_region_query *q, uint32_t from, uint32_t targets_left, uint32_t mask, const bool uniform)
{
    const nav_grid *grid = q->grid;
    uint32_t generation = q->generation, gen = generation << 1;
    double inverse = 1.0 / (grid->min_cost * (1 - 1e-9)), step[8];
    int32_t offset[8];
    nav__region_fan_steps(grid, uniform, step, offset);
    const uint8_t *restrict moves = grid->moves, *restrict terrain = grid->terrain;
    const double *restrict cost = grid->terrain_cost;
    const uint32_t *restrict target = q->target;
    double *restrict g = q->g;
    uint32_t *restrict stamp = q->stamp;
    uint8_t *restrict dir = q->dir;
    uint32_t *bucket[FAN_RING_MAX], count[FAN_RING_MAX], room[FAN_RING_MAX];
    for (uint32_t i = 0; i <= mask; i++) count[i] = 0, bucket[i] = q->bucket[i], room[i] = q->bucket_room[i];
    uint64_t expanded = 0;
    bool ok = true;
    uint32_t open[9];
    nav__region_open_moves(grid, uniform, open);
#define SLOT(v)         NAV__FAN_SLOT(v)
#define PUT(slot, cell) NAV__FAN_PUT(slot, cell)
    uint32_t waiting = 1;
    g[from] = 0;
    stamp[from] = gen;
    dir[from] = NO_DIR;
    PUT(0, from);
    for (uint64_t k = 0; waiting; k++) {
        uint32_t slot = (uint32_t)k & mask;
        for (uint32_t e = 0; e < count[slot]; e++) {
            uint32_t at = bucket[slot][e];
            if (stamp[at] & 1u) continue; /* an old entry */
            waiting--;
            stamp[at] |= 1u;
            expanded++;
            if (targets_left && target[at] == generation && --targets_left == 0) goto done;
            double base = g[at];
            uint32_t tries = moves[at];
            if (tries == 0xffu) tries &= ~open[dir[at] < 8 ? dir[at] : 8];
            for (; tries; tries &= tries - 1) {
                int d = __builtin_ctz(tries);
                uint32_t n = (uint32_t)((int32_t)at + offset[d]);
                double ng = base + (uniform ? step[d] : step[d] * cost[terrain[n]]);
                if ((stamp[n] >> 1) == generation) {
                    if (ng >= g[n]) continue; /* (a settled cell's g is lower still) */
                } else {
                    stamp[n] = gen;
                    waiting++;
                }
                g[n] = ng;
                dir[n] = (uint8_t)d;
                uint32_t into = SLOT(ng);
                PUT(into, n);
            }
        }
        count[slot] = 0;
    }
#undef PUT
#undef SLOT
done:
    q->expanded += expanded;
    return ok;
}

static bool fan_whole(nav_region_query *q, uint32_t from, uint32_t targets_left, uint32_t ring)
{
    uint32_t mask = 1;
    while (mask < ring) mask <<= 1;
    return q->grid->uniform_cost > 0 ? fan_whole_loop(q, from, targets_left, mask - 1, true)
                                     : fan_whole_loop(q, from, targets_left, mask - 1, false);
}

/* The one search loop. With goal == UINT32_MAX it is Dijkstra until every target is settled
 * (targets_left counts down as the cells marked in q->target are settled; none: every reachable
 * cell); else A* to goal. Ties on f go to the larger g (nav_heap_tie_larger_g), then the lower index. */
static bool search(nav_region_query *q, nav_grid_rect r, uint32_t from, bool reverse, uint32_t goal,
                   uint32_t targets_left, uint32_t max_expanded)
{
    /* (under a filter, a heap: the buckets' loops read the grid's moves and costs) */
    uint32_t ring = goal == UINT32_MAX && !q->filtered ? nav__region_fan_ring(q->grid) : 0;
    if (ring && !reverse && r.x == 0 && r.y == 0 && (uint32_t)r.width == q->grid->width &&
        (uint32_t)r.height == q->grid->height) {
        return fan_whole(q, from, targets_left, ring);
    }
    if (ring) {
        fan_by_buckets(q, r, from, reverse, targets_left, ring);
        return true;
    }
    uint64_t limit = max_expanded ? q->expanded + max_expanded : UINT64_MAX;
    const nav_grid *grid = q->grid;
    uint32_t w = grid->width, gen = q->generation << 1;
    uint32_t rw = (uint32_t)r.width;
    nav_heuristic kind =
        grid->desc.connectivity == NAV_CONNECT_4 ? NAV_HEURISTIC_MANHATTAN : NAV_HEURISTIC_OCTILE;
    double unit = q->filtered ? q->costs.min_cost : grid->min_cost,
           unit_diagonal = unit * (grid->desc.diagonal_cost - 1.0);
    int32_t goal_x = 0, goal_y = 0;
    if (goal != UINT32_MAX) goal_x = (int32_t)(goal % w), goal_y = (int32_t)(goal / w);

    uint32_t start = local_index(grid, r, from);
    q->g[start] = 0;
    q->stamp[start] = gen;
    q->dir[start] = NO_DIR;
    nav_heap_push(&q->open, 0, 0, start);
    while (q->open.count && q->expanded < limit) {
        uint32_t at = nav_heap_entry_id(nav_heap_pop(&q->open));
        q->stamp[at] |= 1u;
        q->expanded++;
        int32_t lx = (int32_t)(at % rw), ly = (int32_t)(at / rw);
        uint32_t cell = (uint32_t)(r.y + ly) * w + (uint32_t)(r.x + lx);
        if (goal != UINT32_MAX) {
            if (cell == goal) return true;
        } else if (targets_left) {
            if (q->target[at] == q->generation && --targets_left == 0) return true;
        }
        double g = q->g[at];
        /* (its own moves, forward: worked out once) */
        uint32_t moves = reverse ? 0 : q->filtered ? nav__grid_moves_of(&q->costs, cell) : grid->moves[cell];
        for (int d = 0; d < 8; d++) {
            uint32_t next;
            double step;
            if (!neighbour(q, r, lx, ly, cell, moves, d, reverse, &next, &step)) continue;
            int32_t nx = lx + nav__dir_dx[d], ny = ly + nav__dir_dy[d];
            double ng = g + step;
            bool seen = (q->stamp[next] >> 1) == q->generation;
            if (seen && ((q->stamp[next] & 1u) || ng >= q->g[next])) continue;
            q->g[next] = ng;
            q->dir[next] = (uint8_t)d;
            double f = ng;
            uint32_t tie = 0;
            if (goal != UINT32_MAX) {
                int32_t dx = goal_x - (r.x + nx), dy = goal_y - (r.y + ny);
                f += nav__heuristic_scaled(kind, dx < 0 ? -dx : dx, dy < 0 ? -dy : dy, unit, unit_diagonal);
                tie = nav_heap_tie_larger_g(ng);
            }
            if (seen) {
                nav_heap_decrease(&q->open, next, nav_heap_key_exact(f), tie);
            } else {
                q->stamp[next] = gen;
                nav_heap_push(&q->open, nav_heap_key_exact(f), tie, next);
            }
        }
    }
    return true;
}

static bool reached(const nav_region_query *q, uint32_t local)
{
    return local != UINT32_MAX && q->stamp[local] == ((q->generation << 1) | 1u);
}

nav_status nav_region_fan(nav_region_query *q, nav_grid_rect rect, uint32_t from, bool reverse,
                          const uint32_t *targets, uint32_t count, double *costs)
{
    if (!q || !rect_valid(q, rect) || (count && (!targets || !costs))) return NAV_FAILURE | NAV_INVALID_PARAM;
    uint32_t start = local_index(q->grid, rect, from);
    if (start == UINT32_MAX || !cell_open(q, from)) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav__region_next_generation(q);
    q->rect = rect;
    q->from = from;
    q->reverse = reverse;
    /* the targets' cells marked, each once; those outside the rect (or blocked) can never be
     * settled: do not wait for them */
    uint32_t inside = 0;
    for (uint32_t k = 0; k < count; k++) {
        uint32_t local = local_index(q->grid, rect, targets[k]);
        if (local != UINT32_MAX && cell_open(q, targets[k]) && q->target[local] != q->generation) {
            q->target[local] = q->generation;
            inside++;
        }
    }
    if (!search(q, rect, from, reverse, UINT32_MAX, inside, 0)) {
        q->rect = (nav_grid_rect){0, 0, 0, 0}; /* no last fan */
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    for (uint32_t k = 0; k < count; k++) {
        uint32_t local = local_index(q->grid, rect, targets[k]);
        costs[k] = reached(q, local) ? q->g[local] : INFINITY;
    }
    return NAV_SUCCESS;
}

double nav_region_fan_cost(const nav_region_query *q, uint32_t cell)
{
    if (!q) return INFINITY;
    uint32_t local = local_index(q->grid, q->rect, cell);
    return reached(q, local) ? q->g[local] : INFINITY;
}

nav_status nav_region_fan_path(const nav_region_query *q, uint32_t target, nav_path *path)
{
    if (!q || !path) return NAV_FAILURE | NAV_INVALID_PARAM;
    const nav_grid *grid = q->grid;
    uint32_t local = local_index(grid, q->rect, target);
    if (!reached(q, local)) return NAV_FAILURE | NAV_INVALID_PARAM;
    uint32_t first = path->count, cell = target;
    nav_status s = NAV_SUCCESS;
    for (;;) {
        int32_t x = (int32_t)(cell % grid->width), y = (int32_t)(cell / grid->width);
        s = nav_path_push(path, nav_grid_cell_center(grid, x, y), cell);
        if (nav_failed(s)) break;
        uint8_t d = q->dir[local_index(grid, q->rect, cell)];
        if (d == NO_DIR) break;
        cell = (uint32_t)((int32_t)cell - grid->offset[d]);
    }
    if (nav_failed(s)) {
        path->count = first;
        return s;
    }
    if (!q->reverse) nav_path_reverse_from(path, first); /* walked back from the target: turn it round */
    return NAV_SUCCESS;
}

nav_status nav_region_leg(nav_region_query *q, nav_grid_rect rect, uint32_t from, uint32_t to,
                          uint32_t max_expanded, nav_path *path, double *cost)
{
    if (!q || !path || !rect_valid(q, rect)) return NAV_FAILURE | NAV_INVALID_PARAM;
    uint32_t start = local_index(q->grid, rect, from), goal = local_index(q->grid, rect, to);
    if (start == UINT32_MAX || goal == UINT32_MAX || !cell_open(q, from))
        return NAV_FAILURE | NAV_INVALID_PARAM;
    nav__region_next_generation(q);
    q->rect = rect;
    q->from = from;
    q->reverse = false;
    if (cell_open(q, to)) (void)search(q, rect, from, false, to, 0, max_expanded); /* (an A*: never fails) */
    if (!reached(q, goal))
        return NAV_SUCCESS | NAV_PARTIAL_RESULT | (q->open.count ? NAV_OUT_OF_NODES : NAV_UNREACHABLE);
    if (cost) *cost = q->g[goal];
    return nav_region_fan_path(q, to, path);
}
