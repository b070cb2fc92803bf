/* World queries: locate both ends, search from the start to the goal over chokepoints (and the
 * cells of the ends' grid regions), then fill in the legs with the regions' own planners.
 *
 * The search is one A*, its estimate the horizontal distance to the goal times the least cost a unit
 * of ground has anywhere in the world (regions' terrain, links cheaper than their length:
 * cost_floor in world.c), the larger of that by straight-line and by octile distance (the
 * latter exact on open 8-connected grids); consistent, and Dijkstra where a portal makes it 0. Its
 * vertices are the chokepoints and, when the start or the goal lies on a grid region (of at most
 * CELL_SEARCH_MAX cells), that grid's cells: as HPA* joins start and goal inside its own search
 * rather than by exhaustive searches of their clusters (hpa/src/query.c), the estimate then steers
 * the ends too, and only the cells it needs are expanded, not every cell a fan to all of a tile's
 * chokepoints would settle. Its edges:
 *   - a grid's moves between the cells of an end's region, and from a cell to the chokepoints
 *     placed on it (cost 0);
 *   - the links enabled when the query starts;
 *   - out of a chokepoint reached through a link: into the goal region's cells (a grid end), or
 *     else the region's table, the cheapest way to each of the chokepoints it keeps an entry for;
 *     and, in a table of chains, out of a chokepoint reached through the table, the table again: a
 *     pruned table keeps no entry from a to b where a cheapest way passes another chokepoint c, and
 *     chokepoints of one cell reach others through the first of them (world_internal.h), so the
 *     search goes a, c, b. Other tables are followed only out of a chokepoint reached through a link
 *     (a second entry would never be cheaper than one), and no table out of a chokepoint reached
 *     from an end's cells or fan: those reach every chokepoint of their region at its cost already.
 * An end on a region that is no such grid (a navmesh, a waypoint graph, a huge grid) is joined to
 * its region's chokepoints by a fan, as the tables are made (the goal's run backwards, so that
 * one-way moves count the right way); the start's fan then also reaches the goal when both lie in
 * that region. Either way, both ends in one region: the direct leg competes with every route that
 * leaves and comes back. A route is start, link, link, ..., goal: each stretch between two links
 * is a leg in one region; the cells of a leg the search walked are its points, others are filled in
 * by the region's planner.
 *
 * Under a filter (nav_world_query_set_mesh_filter, _set_grid_filter) the tables of the regions it
 * bears on are lower bounds (times each region's ratio; the estimate too, times the least): the search over
 * them is lazy (LazySP: Dor, Mandalika, Salzman and Srinivasa, "Lazy shortest path computation",
 * 2017). Each table step of the route it finds is searched under the filter, its cost kept for the
 * plan, and while one costs more than the search counted it, the search runs again with what is
 * known. Every route not taken counts at most its true cost, so the last is the cheapest. Such a
 * table is followed on out of a chokepoint reached through it too: a first entry that is only a
 * lower bound may close a chokepoint that the route must reach otherwise (through a link) to go on.
 * A pruned table the filter bears on is not followed at all: it lacks the entries a route under the
 * filter may need (fan_table), and a fan under the filter from the chokepoint takes its place. So too
 * the table of a grid through HPA* (its costs, HPA*'s, are no lower bounds of the grid's: times a
 * ratio, not of the filter's either). */
#include <math.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "world_internal.h"
#include "world_search.h"

#define FROM_START      UINT32_MAX /* a vertex's parent when it is where the search began */
#define BY_END          NAV__WORLD_BY_END
#define BY_LINK         NAV__WORLD_BY_LINK
#define BY_TABLE        NAV__WORLD_BY_TABLE
#define CELL_SEARCH_MAX (1u << 20) /* ends on grids of more cells are joined by fans */

struct nav_world_query {
    const nav_world *world;
    nav_allocator allocator;
    nav__world_scratch scratch;
    uint64_t *links_on;      /* the link state copied when a plan starts, less those excluded: */
    uint32_t excluded_kinds; /* (nav_world_query_exclude_links) */
    /* the search's vertices: chokepoints 0 .. C - 1, then the start region's places (C + id), then
     * the goal region's (C + M + id; the start block's when both ends lie in one region), for
     * regions whose places the search walks (nav__world_places: flat grids' cells) */
    uint32_t chokes, cells; /* C, and M: the largest grid region's cells (0: ends are fanned) */
    nav__world_search search;
    /* fans of ends that are not searched by cells */
    nav_world_place *targets;
    double *start_cost, *goal_cost;
    double *table_cost; /* a fan in place of a pruned table (under a filter) */
    bool scratch_made;
    /* the search under way */
    nav_world_place start, goal;
    const nav__world_region *start_places, *goal_places; /* the ends' regions if searched by places;
                                                            null: that end is fanned */
    uint32_t start_block, goal_block;                    /* where the ends' places begin among the vertices */
    /* a leg as the plan found it, for its region's planner (nav__world_leg_ask; chokes + 2 each) */
    nav_world_place *ask_places;
    uint32_t *ask_chokes;
    bool *ask_table;
    /* the last plan */
    nav_world_leg *legs;
    uint32_t leg_count, leg_capacity;
    nav__world_pins pins; /* the regions this query holds loaded (a world on demand) */
    uint32_t *route;      /* its vertices, start end first */
    uint32_t *leg_route;  /* each leg's first vertex in route (legs' ranges are contiguous) */
    uint32_t route_count;
    bool planned;
    bool timing; /* nav_world_query_set_timing */
    /* under a filter (the scratch's mesh or grid filter): each region's ratio (its kind's
     * filter_ratio, -1 where the filter does not bear: its table holds), worked out again when a
     * filter changes */
    double *ratio;
    bool ratios_stale;
    /* the steps between two chokepoints of one region searched under it this plan: an
     * open-addressed set of (step key + 1, cost) */
    uint64_t *known_entry;
    double *known_cost;
    uint32_t known_capacity, known_count;
    nav_status search_status; /* a fan in the search failed (out of memory) */
};

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void nav_world_query_set_timing(nav_world_query *q, bool on)
{
    if (q) q->timing = on;
}

nav_status nav_world_query_create(const nav_world *w, const nav_allocator *allocator, nav_world_query **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!w) return NAV_FAILURE | NAV_INVALID_PARAM;
    if (w->part_list) return NAV_FAILURE | NAV_WRONG_STATE;
    nav_allocator a;
    nav__allocator_resolve(&a, allocator);
    nav_world_query *q = nav__calloc(&a, 1, sizeof *q);
    if (!q) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    q->world = w;
    q->allocator = a;
    q->pins.allocator = a;
    uint64_t cells = w->largest_cells;
    q->chokes = w->choke_count;
    q->cells = cells <= CELL_SEARCH_MAX ? (uint32_t)cells : 0;
    uint32_t n = q->chokes + 2 * q->cells, fan = w->max_region_chokes + 1;
    if (n == 0) n = 1;
    q->links_on = nav__calloc(&a, w->state.words ? w->state.words : 1, sizeof *q->links_on);
    nav__world_search *se = &q->search;
    se->g = nav__alloc(&a, nav__mul_size(n, sizeof *se->g));
    se->parent = nav__alloc(&a, nav__mul_size(n, sizeof *se->parent));
    se->by = nav__alloc(&a, n);
    se->stamp = nav__calloc(&a, n, sizeof *se->stamp);
    se->floor = w->cost_floor;
    se->floor_octile = w->cost_floor_octile;
    q->route = nav__alloc(&a, nav__mul_size(n, sizeof *q->route));
    q->targets = nav__alloc(&a, nav__mul_size(fan, sizeof *q->targets));
    q->start_cost = nav__alloc(&a, nav__mul_size(fan, sizeof *q->start_cost));
    q->goal_cost = nav__alloc(&a, nav__mul_size(fan, sizeof *q->goal_cost));
    q->table_cost = nav__alloc(&a, nav__mul_size(fan, sizeof *q->table_cost));
    size_t asks = (size_t)q->chokes + 2;
    q->ask_places = nav__alloc(&a, nav__mul_size(asks, sizeof *q->ask_places));
    q->ask_chokes = nav__alloc(&a, nav__mul_size(asks, sizeof *q->ask_chokes));
    q->ask_table = nav__alloc(&a, nav__mul_size(asks, sizeof *q->ask_table));
    bool made = q->links_on && se->g && se->parent && se->by && se->stamp && q->route && q->targets &&
                q->start_cost && q->goal_cost && q->table_cost && q->ask_places && q->ask_chokes &&
                q->ask_table && !nav_failed(nav_heap_init(&se->open, &a, n, n));
    q->scratch_made = made && !nav_failed(nav__world_scratch_init(&q->scratch, w, &a, &a));
    if (!q->scratch_made) {
        nav_world_query_destroy(q);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    *out = q;
    return NAV_SUCCESS;
}

void nav_world_query_destroy(nav_world_query *q)
{
    if (!q) return;
    nav_allocator a = q->allocator;
    if (q->scratch_made) nav__world_scratch_free(&q->scratch, q->world);
    nav__world_unpin_all(q->world, &q->pins);
    nav__world_pins_free(&q->pins);
    nav_heap_destroy(&q->search.open);
    nav__free(&a, q->links_on);
    nav__free(&a, q->search.g);
    nav__free(&a, q->search.parent);
    nav__free(&a, q->search.by);
    nav__free(&a, q->search.stamp);
    nav__free(&a, q->ask_places);
    nav__free(&a, q->ask_chokes);
    nav__free(&a, q->ask_table);
    nav__free(&a, q->route);
    nav__free(&a, q->targets);
    nav__free(&a, q->start_cost);
    nav__free(&a, q->goal_cost);
    nav__free(&a, q->table_cost);
    nav__free(&a, q->legs);
    nav__free(&a, q->leg_route);
    nav__free(&a, q->ratio);
    nav__free(&a, q->known_entry);
    nav__free(&a, q->known_cost);
    nav__free(&a, q);
}

void nav_world_query_exclude_links(nav_world_query *query, uint32_t kinds)
{
    if (query) query->excluded_kinds = kinds;
}

nav_status nav_world_query_set_mesh_filter(nav_world_query *q, const nav_mesh_filter *filter)
{
    if (!q) return NAV_FAILURE | NAV_INVALID_PARAM;
    if (filter == q->scratch.mesh_filter) return NAV_SUCCESS; /* (unchanged, as it must stay while set) */
    for (int t = 0; filter && filter->area_cost && t < 256; t++)
        if (!nav_terrain_cost_valid(filter->area_cost[t])) return NAV_FAILURE | NAV_INVALID_PARAM;
    q->scratch.mesh_filter = filter;
    q->scratch.filters_set++;
    q->ratios_stale = true;
    return NAV_SUCCESS;
}

nav_status nav_world_query_set_grid_filter(nav_world_query *q, const nav_grid_filter *filter)
{
    if (!q || (filter && !nav_grid_filter_valid(filter))) return NAV_FAILURE | NAV_INVALID_PARAM;
    const nav_world *w = q->world;
    for (uint32_t r = 0; filter && r < w->region_count; r++)
        if (w->regions[r].by_hpa && w->regions[r].cells > NAV__WORLD_FILTERED_HPA_CELLS)
            return NAV_FAILURE | NAV_WRONG_STATE; /* (its bake holds the grid's costs: too big to search
                                                     cell by cell under the filter) */
    if (filter == q->scratch.grid_filter) return NAV_SUCCESS;
    q->scratch.grid_filter = filter;
    q->scratch.filters_set++;
    q->ratios_stale = true;
    return NAV_SUCCESS;
}

static bool filtered(const nav_world_query *q)
{
    return q->scratch.mesh_filter || q->scratch.grid_filter;
}

/* ---- Steps between chokepoints under a filter ------------------------------------------------- */

/* The known set's key of the step from chokepoint a to chokepoint b. */
static uint64_t step_key(uint32_t a, uint32_t b)
{
    return (uint64_t)a << 32 | b;
}

static uint32_t known_slot(const nav_world_query *q, uint64_t e)
{
    uint64_t h = (e + 1) * 0x9E3779B97F4A7C15ull;
    uint32_t mask = q->known_capacity - 1, k = (uint32_t)(h >> 32) & mask;
    while (q->known_entry[k] && q->known_entry[k] != e + 1) k = (k + 1) & mask;
    return k;
}

/* Step e's cost under the filter (step_key), if it was searched this plan. */
static bool known(const nav_world_query *q, uint64_t e, double *cost)
{
    if (!q->known_count) return false;
    uint32_t k = known_slot(q, e);
    if (!q->known_entry[k]) return false;
    *cost = q->known_cost[k];
    return true;
}

/* Keeps step e's cost under the filter (the set kept at most half full). */
static nav_status know(nav_world_query *q, uint64_t e, double cost)
{
    if (2 * ((size_t)q->known_count + 1) > q->known_capacity) {
        uint32_t old = q->known_capacity, capacity = old ? 2 * old : 64;
        uint64_t *entries = nav__calloc(&q->allocator, capacity, sizeof *entries);
        double *costs = nav__alloc(&q->allocator, nav__mul_size(capacity, sizeof *costs));
        if (!entries || !costs) {
            nav__free(&q->allocator, entries);
            nav__free(&q->allocator, costs);
            return NAV_FAILURE | NAV_OUT_OF_MEMORY;
        }
        uint64_t *old_entries = q->known_entry;
        double *old_costs = q->known_cost;
        q->known_entry = entries, q->known_cost = costs, q->known_capacity = capacity;
        for (uint32_t k = 0; k < old; k++)
            if (old_entries[k]) {
                uint32_t at = known_slot(q, old_entries[k] - 1);
                entries[at] = old_entries[k], costs[at] = old_costs[k];
            }
        nav__free(&q->allocator, old_entries);
        nav__free(&q->allocator, old_costs);
    }
    uint32_t k = known_slot(q, e);
    q->known_count += !q->known_entry[k];
    q->known_entry[k] = e + 1, q->known_cost[k] = cost;
    return NAV_SUCCESS;
}

/* At a plan's start: the regions' ratios under the filter (when it changed) and the estimate's
 * floors (the world's, times the least ratio), and nothing known yet. */
static nav_status filter_begin(nav_world_query *q)
{
    const nav_world *w = q->world;
    nav__world_search *se = &q->search;
    se->floor = w->cost_floor, se->floor_octile = w->cost_floor_octile;
    if (q->known_count) memset(q->known_entry, 0, q->known_capacity * sizeof *q->known_entry);
    q->known_count = 0;
    if (!filtered(q)) return NAV_SUCCESS;
    if (!q->ratio) {
        q->ratio =
            nav__alloc(&q->allocator, nav__mul_size(w->region_count ? w->region_count : 1, sizeof *q->ratio));
        if (!q->ratio) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
        q->ratios_stale = true;
    }
    if (q->ratios_stale)
        for (uint32_t r = 0; r < w->region_count; r++) {
            const nav__world_region *region = &w->regions[r];
            q->ratio[r] =
                region->ops->filter_ratio ? region->ops->filter_ratio(&q->scratch, region, !w->cache) : -1;
        }
    q->ratios_stale = false;
    double least = 1;
    for (uint32_t r = 0; r < w->region_count; r++)
        if (q->ratio[r] >= 0) least = fmin(least, q->ratio[r]);
    se->floor *= least, se->floor_octile *= least;
    return NAV_SUCCESS;
}

size_t nav_world_query_memory_bytes(const nav_world_query *q)
{
    if (!q) return 0;
    const nav_world *w = q->world;
    size_t n = (size_t)q->chokes + 2 * (size_t)q->cells, fan = w->max_region_chokes + 1;
    return sizeof *q + w->state.words * sizeof(uint64_t) +
           n * (sizeof *q->search.g + sizeof *q->search.parent + 1 + sizeof *q->search.stamp +
                sizeof *q->route + sizeof(nav_heap_entry) + sizeof(uint32_t)) +
           fan * (sizeof *q->targets + 3 * sizeof(double)) +
           ((size_t)q->chokes + 2) * (sizeof *q->ask_places + sizeof *q->ask_chokes + sizeof *q->ask_table) +
           q->leg_capacity * (sizeof *q->legs + sizeof *q->leg_route) +
           (q->ratio ? w->region_count * sizeof *q->ratio : 0) +
           q->known_capacity * (sizeof *q->known_entry + sizeof *q->known_cost) +
           nav__world_scratch_bytes(&q->scratch, w);
}

const nav_world_leg *nav_world_query_legs(const nav_world_query *q, uint32_t *count)
{
    if (count) *count = q && q->planned ? q->leg_count : 0;
    return q && q->planned ? q->legs : NULL;
}

/* Room for n legs (grown when a route has more legs than any before it). */
static nav_status reserve_legs(nav_world_query *q, uint32_t n)
{
    if (n <= q->leg_capacity) return NAV_SUCCESS;
    uint32_t capacity = q->leg_capacity ? q->leg_capacity : 8;
    while (capacity < n) capacity *= 2;
    nav_world_leg *legs = nav__realloc(&q->allocator, q->legs, q->leg_capacity * sizeof *legs,
                                       nav__mul_size(capacity, sizeof *legs));
    if (!legs) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    q->legs = legs;
    uint32_t *starts = nav__realloc(&q->allocator, q->leg_route, q->leg_capacity * sizeof *starts,
                                    nav__mul_size(capacity, sizeof *starts));
    if (!starts) return NAV_FAILURE | NAV_OUT_OF_MEMORY; /* legs grew: the next call tries again */
    q->leg_route = starts;
    q->leg_capacity = capacity;
    return NAV_SUCCESS;
}

/* ---- Vertices ------------------------------------------------------------------------------------ */

static bool is_cell(const nav_world_query *q, uint32_t v)
{
    return v >= q->chokes;
}

/* The region of a place vertex, and the place's id. */
static const nav__world_region *place_of(const nav_world_query *q, uint32_t v, uint32_t *id)
{
    if (v >= q->goal_block && q->goal_places && q->goal_block != q->start_block) {
        *id = v - q->goal_block;
        return q->goal_places;
    }
    *id = v - q->start_block;
    return q->start_places;
}

static nav_vec3 position_of(const nav_world_query *q, uint32_t v)
{
    if (!is_cell(q, v)) return q->world->choke[v].position;
    uint32_t id;
    const nav__world_region *r = place_of(q, v, &id);
    return r->ops->places->position(r, id);
}

/* The estimate at vertex v: at a chokepoint's place, or the place's own (see the top of the file). */
static double estimate_at(const nav_world_query *q, uint32_t v)
{
    if (!is_cell(q, v)) {
        nav_vec3 p = q->world->choke[v].position;
        return nav__world_search_estimate(&q->search, p.x, p.z);
    }
    uint32_t id;
    const nav__world_region *r = place_of(q, v, &id);
    return r->ops->places->estimate(&q->search, r, id);
}

/* Offers vertex v the cost g, reached from `from` (by: BY_END, BY_LINK or BY_TABLE). Its key is g
 * plus the estimate, worked out only when the offer is taken. */
static void offer(nav_world_query *q, uint32_t v, double g, uint32_t from, uint8_t by)
{
    if (nav__world_search_improves(&q->search, v, g))
        nav__world_search_take(&q->search, v, g, from, by, estimate_at(q, v));
}

/* The f of a popped entry, back from its key (nav_heap_key_exact keeps the double's bits). */
static double key_value(uint64_t key)
{
    double f;
    memcpy(&f, &key, sizeof f);
    return f;
}

/* The chokepoints placed on a cell of a region: their range in w->choke_by_id. */
static void chokes_on(const nav_world *w, const nav__world_region *r, uint32_t id, uint32_t *first,
                      uint32_t *end)
{
    const uint32_t *list = w->choke_by_id + r->choke_first;
    uint32_t lo = 0, hi = r->choke_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (w->choke[list[mid]].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    *first = r->choke_first + lo;
    for (hi = lo; hi < r->choke_count && w->choke[list[hi]].id == id; hi++) {
    }
    *end = r->choke_first + hi;
}

/* A place's moves, as the search's edges into the places of the same block (its kind offers them),
 * and the chokepoints placed on it, at no cost. */
static void expand_place(nav_world_query *q, uint32_t v, double g)
{
    uint32_t id;
    const nav__world_region *r = place_of(q, v, &id);
    r->ops->places->expand(&q->search, r, v - id, id, g);
    const nav_world *world = q->world;
    uint32_t first, end;
    chokes_on(world, r, id, &first, &end);
    for (uint32_t k = first; k < end; k++) offer(q, world->choke_by_id[k], g, v, BY_END);
}

/* ---- Search -------------------------------------------------------------------------------------- */

/* Fans for ends that are not searched by cells: the start's forward to its region's chokepoints
 * (and to the goal if it lies there too: *direct), the goal's backwards from its region's. */
static nav_status fans(nav_world_query *q, double *direct)
{
    const nav_world *w = q->world;
    *direct = INFINITY;
    const nav__world_region *rs = &w->regions[q->start.region], *rg = &w->regions[q->goal.region];
    nav__world_memo_forget(&q->scratch);
    if (!q->start_places) {
        uint32_t k = rs->choke_count;
        for (uint32_t j = 0; j < k; j++) q->targets[j] = w->choke[w->region_choke[rs->choke_first + j]];
        bool same = q->start.region == q->goal.region;
        if (same) q->targets[k] = q->goal;
        nav_status s = rs->ops->fan(&q->scratch, rs, &q->start, false, NAV__WORLD_END_START, q->targets,
                                    k + same, q->start_cost);
        if (nav_failed(s)) return s;
        if (same) *direct = q->start_cost[k];
    }
    if (!q->goal_places && rg->choke_count) {
        uint32_t k = rg->choke_count;
        for (uint32_t j = 0; j < k; j++) q->targets[j] = w->choke[w->region_choke[rg->choke_first + j]];
        return rg->ops->fan(&q->scratch, rg, &q->goal, true, NAV__WORLD_END_GOAL, q->targets, k,
                            q->goal_cost);
    }
    return NAV_SUCCESS;
}

/* Under a filter that bears on a pruned table: that table keeps no entry from a to b where a way of
 * the grid's own costs passes another chokepoint c, and under the filter the cheapest way from a to
 * b may pass none, so a route through its entries a, c, b could cost more than one exists (a grid
 * through HPA*: its entries are HPA*'s costs, which may exceed the grid's cheapest). From
 * chokepoint v (reached at g) a fan under the filter to every chokepoint of its region is offered
 * instead, each step kept as known. */
static nav_status fan_table(nav_world_query *q, const nav__world_region *r, uint32_t v, double g)
{
    const nav_world *w = q->world;
    uint32_t k = r->choke_count;
    for (uint32_t j = 0; j < k; j++) q->targets[j] = w->choke[w->region_choke[r->choke_first + j]];
    nav_status s = nav__world_pin(w, r->index, &q->pins); /* (on demand: its data for the fan) */
    if (!nav_failed(s))
        s = r->ops->fan(&q->scratch, r, &w->choke[v], false, NAV__WORLD_END_NONE, q->targets, k,
                        q->table_cost);
    for (uint32_t j = 0; j < k && !nav_failed(s); j++) {
        uint32_t to = w->region_choke[r->choke_first + j];
        if (to == v) continue;
        s = know(q, step_key(v, to), q->table_cost[j]);
        if (q->table_cost[j] < INFINITY) offer(q, to, g + q->table_cost[j], v, BY_TABLE);
    }
    return s;
}

/* A* from start to goal. Returns the cheapest cost and the vertex the route reaches the goal from
 * (*last: the goal's cell on a searched grid; a chokepoint before the goal's fan; NAV_WORLD_NONE:
 * the direct fan); counts the cells and chokepoints it expands in *res, and with timing on adds its
 * time on cells to res->fans_s, on chokepoints to res->search_s. */
static double search(nav_world_query *q, double direct, uint32_t *last, nav_world_result *res)
{
    const nav_world *w = q->world;
    nav__world_search *se = &q->search;
    if (++se->stamp_now >= (1u << 31)) {
        memset(se->stamp, 0, ((size_t)q->chokes + 2 * (size_t)q->cells) * sizeof *se->stamp);
        se->stamp_now = 1;
    }
    nav_heap_clear(&se->open);
    se->goal = q->goal.position;
    se->scratch = &q->scratch;
    const nav__world_region *rs = &w->regions[q->start.region];
    if (q->start_places) {
        offer(q, q->start_block + q->start.id, 0, FROM_START, BY_END);
    } else {
        for (uint32_t j = 0; j < rs->choke_count; j++)
            if (q->start_cost[j] < INFINITY)
                offer(q, w->region_choke[rs->choke_first + j], q->start_cost[j], FROM_START, BY_END);
    }
    double best = direct, since = q->timing ? seconds() : 0;
    bool on_cells = q->start_places != NULL;
    *last = NAV_WORLD_NONE;
    uint32_t goal_vertex = q->goal_places ? q->goal_block + q->goal.id : UINT32_MAX;
    while (se->open.count) {
        nav_heap_entry top = nav_heap_pop(&se->open);
        uint32_t v = nav_heap_entry_id(top);
        double g = se->g[v];
        if (!(key_value(top.key) < best)) break;
        se->stamp[v] |= 1;
        bool cell = is_cell(q, v);
        (*(cell ? &res->cells_expanded : &res->chokepoints_expanded))++;
        if (q->timing && cell != on_cells) { /* the clock read where the search turns */
            double t = seconds();
            *(on_cells ? &res->fans_s : &res->search_s) += t - since;
            since = t, on_cells = cell;
        }
        if (v == goal_vertex) { /* the estimate is consistent: the first time is the cheapest */
            best = g, *last = v;
            break;
        }
        if (cell) {
            expand_place(q, v, g);
            continue;
        }
        const nav_world_place *at = &w->choke[v];
        if (!q->goal_places && at->region == q->goal.region) {
            double t = g + q->goal_cost[w->choke_slot[v]];
            if (t < best) best = t, *last = v;
        }
        uint32_t link = v / 2;
        const nav__world_link *l = &w->links[link];
        bool from_end = (v & 1) == 0;
        if (nav__world_bit(q->links_on, link) && (from_end || !l->one_way))
            offer(q, v ^ 1, g + l->cost, v, BY_LINK);
        if (se->by[v] == BY_END) continue;
        if (q->goal_places && at->region == q->goal.region) { /* into the goal region's places */
            if (se->by[v] == BY_LINK) offer(q, q->goal_block + at->id, g, v, BY_END);
            continue;
        }
        const nav__world_region *r = &w->regions[at->region];
        double ratio = filtered(q) ? q->ratio[at->region] : -1; /* (-1: the table holds) */
        /* (a table that bounds nothing under the filter, pruned or HPA*'s: a fan in its place, with
         * exact costs to every chokepoint) */
        if (ratio >= 0 && (r->pruned || r->by_hpa)) {
            if (se->by[v] == BY_TABLE) continue;
            nav_status s = fan_table(q, r, v, g);
            if (nav_failed(s)) {
                q->search_status = s;
                return INFINITY;
            }
            continue;
        }
        /* (a full table: the first entry was enough, when its entries are costs, not lower bounds) */
        if (se->by[v] == BY_TABLE && !r->chains && ratio < 0) continue;
        uint32_t row = r->choke_first + w->choke_slot[v];
        for (uint64_t e = w->edge_first[row]; e < w->edge_first[row + 1]; e++) {
            double cost = w->edge_cost[e];
            uint32_t to = w->region_choke[r->choke_first + w->edge_to[e]];
            if (ratio >= 0 && !known(q, step_key(v, to), &cost))
                cost *= ratio; /* (a bound, searched if taken) */
            if (cost < INFINITY) offer(q, to, g + cost, v, BY_TABLE);
        }
    }
    if (q->timing) *(on_cells ? &res->fans_s : &res->search_s) += seconds() - since;
    return best;
}

/* Under a filter: searches again, under the filter, each table step of the route the search
 * found (back from `last`) that it counted by a lower bound, and keeps its cost; *again: one costs
 * more than it counted. */
static nav_status check_steps(nav_world_query *q, uint32_t last, bool *again)
{
    const nav_world *w = q->world;
    const nav__world_search *se = &q->search;
    *again = false;
    for (uint32_t v = last; v != NAV_WORLD_NONE && v != FROM_START; v = se->parent[v]) {
        if (is_cell(q, v) || se->by[v] != BY_TABLE) continue;
        uint32_t u = se->parent[v]; /* (a chokepoint: tables are followed from chokepoints only) */
        const nav_world_place *a = &w->choke[u], *b = &w->choke[v];
        double ratio = q->ratio[a->region];
        if (!(ratio >= 0)) continue;
        const nav__world_region *r = &w->regions[a->region];
        uint32_t row = r->choke_first + w->choke_slot[u], slot = w->choke_slot[v];
        uint64_t e = w->edge_first[row];
        while (e < w->edge_first[row + 1] && w->edge_to[e] != slot) e++;
        double cost;
        if (e == w->edge_first[row + 1] || known(q, step_key(u, v), &cost)) continue; /* (a fan's: known) */
        nav_status s = nav__world_pin(w, a->region, &q->pins); /* (on demand: its data for the search) */
        if (!nav_failed(s)) s = r->ops->fan(&q->scratch, r, a, false, NAV__WORLD_END_NONE, b, 1, &cost);
        if (!nav_failed(s)) s = know(q, step_key(u, v), cost);
        if (nav_failed(s)) return s;
        *again |= cost > w->edge_cost[e] * ratio;
    }
    return NAV_SUCCESS;
}

nav_status nav_world_plan(nav_world_query *q, nav_vec3 start, nav_vec3 goal, nav_world_result *result)
{
    nav_world_result r = {0};
    if (result) *result = r;
    if (!q) return NAV_FAILURE | NAV_INVALID_PARAM;
    q->planned = false;
    q->leg_count = 0;
    q->route_count = 0;
    const nav_world *w = q->world;
    nav__world_unpin_all(w, &q->pins); /* the last plan's regions (on demand) may go */
    nav_status located = nav__world_locate(w, start, &q->start, &q->pins);
    if (!nav_failed(located)) located = nav__world_locate(w, goal, &q->goal, &q->pins);
    if (nav_failed(located))
        return nav_has_detail(located, NAV_INVALID_PARAM) ? NAV_FAILURE | NAV_INVALID_PARAM : located;
    nav__world_state_read(w, q->links_on);
    for (uint32_t l = 0; q->excluded_kinds && l < w->link_count; l++)
        if (q->excluded_kinds >> w->links[l].kind & 1) q->links_on[l / 64] &= ~(1ull << (l % 64));
    /* ends on regions whose places the search walks (flat grids small enough) are searched by them */
    const nav__world_region *rs = &w->regions[q->start.region], *rg = &w->regions[q->goal.region];
    q->start_places = q->cells && rs->ops->places ? rs : NULL;
    q->goal_places = q->cells && rg->ops->places ? rg : NULL;
    q->start_block = q->chokes;
    q->goal_block = q->goal_places && q->start_places && q->start.region == q->goal.region
                        ? q->start_block
                        : q->chokes + q->cells;
    nav_status s = filter_begin(q);
    if (nav_failed(s)) return s;
    double direct, t0 = q->timing ? seconds() : 0;
    uint64_t searches = q->scratch.searches;
    s = fans(q, &direct);
    r.searches = (uint32_t)(q->scratch.searches - searches);
    if (nav_failed(s)) return s;
    if (q->timing) r.fans_s = seconds() - t0;
    uint32_t last;
    q->search_status = NAV_SUCCESS;
    double best = search(q, direct, &last, &r);
    for (bool again = filtered(q); again && best < INFINITY;) { /* (lazy: see the top) */
        s = check_steps(q, last, &again);
        r.searches = (uint32_t)(q->scratch.searches - searches);
        if (nav_failed(s)) return s;
        if (again) best = search(q, direct, &last, &r);
    }
    r.searches = (uint32_t)(q->scratch.searches - searches);
    if (nav_failed(q->search_status)) return q->search_status;
    q->planned = true;
    if (!(best < INFINITY)) {
        if (result) *result = r;
        return NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE;
    }
    /* the route's vertices, start end first (none: the direct fan) */
    uint32_t n = 0;
    const nav__world_search *se = &q->search;
    for (uint32_t v = last; v != NAV_WORLD_NONE && v != FROM_START; v = se->parent[v]) q->route[n++] = v;
    for (uint32_t i = 0, j = n ? n - 1 : 0; i < j; i++, j--) {
        uint32_t t = q->route[i];
        q->route[i] = q->route[j];
        q->route[j] = t;
    }
    q->route_count = n;
    /* legs: split where a link is taken (a chokepoint reached through a link from its other end) */
    uint32_t legs = 1;
    for (uint32_t i = 1; i < n; i++) legs += !is_cell(q, q->route[i]) && se->by[q->route[i]] == BY_LINK;
    s = reserve_legs(q, legs);
    if (nav_failed(s)) return s;
    double leg_start = 0; /* the route's cost where the current leg began */
    nav_world_place from = q->start;
    uint32_t first = 0;
    for (uint32_t i = 1; i < n; i++) {
        uint32_t v = q->route[i];
        if (is_cell(q, v) || se->by[v] != BY_LINK) continue;
        uint32_t c = q->route[i - 1]; /* the link's near end */
        q->leg_route[q->leg_count] = first;
        q->legs[q->leg_count++] = (nav_world_leg){.region = w->choke[c].region,
                                                  .link = c / 2,
                                                  .from = from,
                                                  .to = w->choke[c],
                                                  .cost = se->g[c] - leg_start,
                                                  .link_cost = w->links[c / 2].cost};
        from = w->choke[v];
        leg_start = se->g[v];
        first = i;
    }
    q->leg_route[q->leg_count] = first;
    q->legs[q->leg_count++] = (nav_world_leg){.region = q->goal.region,
                                              .link = NAV_WORLD_NONE,
                                              .from = from,
                                              .to = q->goal,
                                              .cost = best - leg_start};
    r.cost = best;
    r.legs = q->leg_count;
    r.direct = q->leg_count == 1;
    if (result) *result = r;
    return NAV_SUCCESS;
}

/* Appends the cells the search walked for a leg, when it walked them (a leg that starts or ends on a
 * grid end's cells: the start's leg from the start's cell to a chokepoint placed on its last cell,
 * a leg into the goal's grid from a link's end to the goal's cell, or both ends' when direct): true,
 * with *cost their moves' sum. False for a leg of table edges and fans, which its region's planner
 * fills in. */
static bool walked(const nav_world_query *q, uint32_t leg, nav_path *path, double *cost, nav_status *s)
{
    uint32_t first = q->leg_route[leg], end = leg + 1 < q->leg_count ? q->leg_route[leg + 1] : q->route_count;
    uint32_t prev = UINT32_MAX;
    for (uint32_t i = first; i < end; i++)
        if (is_cell(q, q->route[i])) prev = q->route[i];
    if (prev == UINT32_MAX) return false;
    double sum = 0;
    uint32_t before = path->count;
    prev = UINT32_MAX;
    for (uint32_t i = first; i < end && !nav_failed(*s); i++) {
        uint32_t v = q->route[i], id;
        if (!is_cell(q, v)) continue;
        if (prev != UINT32_MAX) sum += q->search.g[v] - q->search.g[prev];
        place_of(q, v, &id);
        *s = nav_path_push(path, position_of(q, v), id);
        prev = v;
    }
    if (nav_failed(*s)) path->count = before;
    *cost = sum;
    return true;
}

/* The leg as the plan found it (nav__world_leg_ask): its places from its first to its last, with
 * their chokepoints and how each was reached, and which of the ends' fans reached its first or
 * last hop. */
static void make_ask(nav_world_query *q, uint32_t leg, nav__world_leg_ask *ask)
{
    const nav_world *w = q->world;
    const nav_world_leg *l = &q->legs[leg];
    uint32_t first = q->leg_route[leg], end = leg + 1 < q->leg_count ? q->leg_route[leg + 1] : q->route_count;
    bool last = leg + 1 == q->leg_count;
    uint32_t n = 0;
    q->ask_places[n] = l->from;
    q->ask_chokes[n++] = leg ? q->route[first] : NAV_WORLD_NONE; /* (a later leg's: the link's end) */
    for (uint32_t i = leg ? first + 1 : first; i < end; i++) {
        uint32_t v = q->route[i];
        q->ask_table[n - 1] = q->search.by[v] == BY_TABLE;
        q->ask_places[n] = w->choke[v];
        q->ask_chokes[n++] = v;
    }
    if (last || n == 1) { /* the goal (or a leg of one chokepoint: its own end again) */
        q->ask_table[n - 1] = false;
        q->ask_places[n] = l->to;
        q->ask_chokes[n++] = last ? NAV_WORLD_NONE : q->ask_chokes[0];
    }
    const nav__world_region *r = &w->regions[l->region];
    *ask = (nav__world_leg_ask){.places = q->ask_places,
                                .chokes = q->ask_chokes,
                                .table = q->ask_table,
                                .count = n,
                                .start_target = UINT32_MAX,
                                .goal_target = UINT32_MAX};
    if (leg == 0 && !q->start_places) /* the start's fan reached the next place: a chokepoint or the goal */
        ask->start_target =
            q->ask_chokes[1] != NAV_WORLD_NONE ? w->choke_slot[q->ask_chokes[1]] : r->choke_count;
    if (last && !q->goal_places && q->ask_chokes[n - 2] != NAV_WORLD_NONE)
        ask->goal_target = w->choke_slot[q->ask_chokes[n - 2]];
}

const nav_mesh *nav_world_query_region_mesh(nav_world_query *q, uint32_t region)
{
    if (!q || region >= q->world->region_count || q->world->regions[region].kind != NAV_WORLD_REGION_MESH)
        return NULL;
    if (nav_failed(nav__world_pin(q->world, region, &q->pins))) return NULL; /* (on demand: its data) */
    return q->world->regions[region].mesh;
}

nav_status nav_world_refine_leg(nav_world_query *q, uint32_t leg, nav_path *path)
{
    if (!q || !path || !q->planned || leg >= q->leg_count) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_world_leg *l = &q->legs[leg];
    uint32_t first = path->count;
    double cost = 0;
    nav_status s = nav__world_pin(q->world, l->region, &q->pins); /* (on demand: its data for the leg) */
    if (nav_failed(s)) return s;
    if (!walked(q, leg, path, &cost, &s)) {
        const nav__world_region *r = &q->world->regions[l->region];
        nav__world_leg_ask ask;
        make_ask(q, leg, &ask);
        s = r->ops->leg(&q->scratch, q->world, r, &ask, path, &cost);
        if (!nav_failed(s) && nav_has_detail(s, NAV_PARTIAL_RESULT)) return NAV_FAILURE | NAV_CORRUPT_DATA;
    }
    if (nav_failed(s)) return s;
    l->cost = cost; /* the refined leg's (the plan's but for the floats' rounding) */
    l->first_point = first;
    l->point_count = path->count - first;
    return NAV_SUCCESS;
}

nav_status nav_world_leg_corridor(nav_world_query *q, uint32_t leg, const nav_path *path, uint32_t *ids,
                                  uint32_t capacity, uint32_t *count)
{
    if (count) *count = 0;
    if (!q || !path || !count || (capacity && !ids) || !q->planned || leg >= q->leg_count)
        return NAV_FAILURE | NAV_INVALID_PARAM;
    const nav_world_leg *l = &q->legs[leg];
    if (!l->point_count || l->first_point + l->point_count > path->count)
        return NAV_FAILURE | NAV_INVALID_PARAM;
    const nav__world_region *r = &q->world->regions[l->region];
    nav_status s = nav__world_pin(q->world, l->region, &q->pins);
    if (nav_failed(s)) return s;
    return r->ops->corridor(&q->scratch, r, path, l->first_point, l->point_count, ids, capacity, count);
}

/* The region of place `from` for a walk towards point `to` (held loaded), or NAV_FAILURE with
 * NAV_INVALID_PARAM (no place of the world, a point not finite) or what loading it returned. */
static nav_status walk_region(nav_world_query *q, const nav_world_place *from, nav_vec3 to,
                              const nav__world_region **r)
{
    if (!from || from->region >= q->world->region_count ||
        !(isfinite(to.x) && isfinite(to.y) && isfinite(to.z)) ||
        !(isfinite(from->position.x) && isfinite(from->position.y) && isfinite(from->position.z)))
        return NAV_FAILURE | NAV_INVALID_PARAM;
    *r = &q->world->regions[from->region];
    nav_status s = nav__world_pin(q->world, from->region, &q->pins);
    if (nav_failed(s)) return s;
    return (*r)->ops->place_ok(*r, from->id) ? NAV_SUCCESS : NAV_FAILURE | NAV_INVALID_PARAM;
}

nav_status nav_world_move(nav_world_query *q, const nav_world_place *from, nav_vec3 target,
                          nav_world_place *out)
{
    const nav__world_region *r;
    nav_status s = q && out ? walk_region(q, from, target, &r) : NAV_FAILURE | NAV_INVALID_PARAM;
    if (nav_failed(s)) return s;
    nav_world_place reached;
    s = r->ops->move(&q->scratch, r, from, target, &reached);
    if (!nav_failed(s)) *out = reached;
    return s;
}

nav_status nav_world_sees(nav_world_query *q, const nav_world_place *from, nav_vec3 to, bool *sees)
{
    if (sees) *sees = false;
    const nav__world_region *r;
    nav_status s = q && sees ? walk_region(q, from, to, &r) : NAV_FAILURE | NAV_INVALID_PARAM;
    if (nav_failed(s)) return s;
    bool seen = r->ops->sees(&q->scratch, r, from, to, &s);
    if (!nav_failed(s)) *sees = seen;
    return s;
}

nav_status nav_world_walls(nav_world_query *q, const nav_world_place *at, float range, nav_wall *out,
                           uint32_t capacity, uint32_t *count)
{
    if (count) *count = 0;
    if (!count || (!out && capacity) || !(range >= 0 && isfinite(range)))
        return NAV_FAILURE | NAV_INVALID_PARAM;
    const nav__world_region *r;
    nav_status s =
        q ? walk_region(q, at, at ? at->position : (nav_vec3){0, 0, 0}, &r) : NAV_FAILURE | NAV_INVALID_PARAM;
    if (nav_failed(s)) return s;
    return r->ops->walls(&q->scratch, r, at, range, out, capacity, count);
}

nav_status nav_world_find_path(nav_world_query *q, nav_vec3 start, nav_vec3 goal, nav_path *path,
                               nav_world_result *result)
{
    if (!path) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_path_clear(path);
    path->cost = 0;
    nav_world_result r;
    nav_status s = nav_world_plan(q, start, goal, &r);
    if (result) *result = r;
    if (nav_failed(s)) return s;
    if (nav_has_detail(s, NAV_UNREACHABLE)) {
        nav_status p = nav_path_push(path, q->start.position, q->start.id);
        return nav_failed(p) ? p : s;
    }
    double cost = 0;
    uint64_t searches = q->scratch.searches;
    for (uint32_t i = 0; i < q->leg_count; i++) {
        nav_status t = nav_world_refine_leg(q, i, path);
        if (nav_failed(t)) {
            nav_path_clear(path);
            return t;
        }
        cost += q->legs[i].cost + q->legs[i].link_cost;
    }
    path->cost = cost;
    if (result) {
        result->cost = cost;
        result->searches += (uint32_t)(q->scratch.searches - searches);
    }
    return s;
}
