/* World queries: locate both ends, fan them to their regions' chokepoints, search the graph of
 * chokepoints, then fill in the legs with the regions' own planners.
 *
 * The abstract search is A* over chokepoints, its estimate the straight horizontal distance to the
 * goal times the least cost a unit of ground has anywhere in the world (regions' terrain, links
 * cheaper than their length: cost_floor in world_bake.c), so Dijkstra where a portal makes that 0.
 * Its edges are the links enabled when the query starts and, inside a region, the table's costs
 * between chokepoints. A region's table gives the
 * cheapest way between any two of its chokepoints, so the search follows it only out of a
 * chokepoint it reached through a link: reached from the start's fan or through the table, a
 * second table edge in the same region would never be cheaper than the first one alone. A route is
 * therefore start -> fan -> chokepoint, then link, table edge, link, ..., and last the goal's
 * fan (run backwards from the goal, so one-way moves count the right way): each stretch between
 * two links is one leg in one region. The start's fan also reaches the goal when both lie in one
 * region: the direct leg competes with every route that leaves and comes back. */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "nav/heap.h"
#include "world_internal.h"

#define FROM_START UINT32_MAX /* a chokepoint's parent when the start's fan reached it */

struct nav_world_query {
    const nav_world *world;
    nav_allocator allocator;
    nav__world_scratch scratch;
    uint64_t *links_on; /* the link state copied when a plan starts */
    /* the abstract search, a slot a chokepoint */
    double *g;
    uint32_t *parent; /* chokepoint it was reached from, or FROM_START */
    uint8_t *by_link; /* reached through a link (its table row may be followed) */
    uint32_t *stamp;
    uint32_t stamp_now;
    nav_heap open;
    /* fans: the start's to its region's chokepoints (and to the goal), the goal's from its region's */
    nav_world_place *targets;
    double *start_cost, *goal_cost;
    bool scratch_made;
    /* the last plan */
    nav_world_leg *legs;
    uint32_t leg_count, leg_capacity;
    uint32_t *route; /* chokepoints of the route, start end first */
    nav_world_place start_place;
    nav_vec3 goal_position; /* of the search under way */
    bool planned;
};

nav_status nav_world_query_create(const nav_world *w, const nav_allocator *allocator, nav_world_query **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!w) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_allocator a;
    nav__allocator_resolve(&a, allocator);
    nav_world_query *q = nav__calloc(&a, 1, sizeof *q);
    if (!q) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    q->world = w;
    q->allocator = a;
    uint32_t n = w->choke_count ? w->choke_count : 1, fan = w->max_region_chokes + 1;
    q->links_on = nav__calloc(&a, w->state.words ? w->state.words : 1, sizeof *q->links_on);
    q->g = nav__alloc(&a, nav__mul_size(n, sizeof *q->g));
    q->parent = nav__alloc(&a, nav__mul_size(n, sizeof *q->parent));
    q->by_link = nav__alloc(&a, n);
    q->stamp = nav__calloc(&a, n, sizeof *q->stamp);
    q->route = nav__alloc(&a, nav__mul_size(n, sizeof *q->route));
    q->targets = nav__alloc(&a, nav__mul_size(fan, sizeof *q->targets));
    q->start_cost = nav__alloc(&a, nav__mul_size(fan, sizeof *q->start_cost));
    q->goal_cost = nav__alloc(&a, nav__mul_size(fan, sizeof *q->goal_cost));
    bool made = q->links_on && q->g && q->parent && q->by_link && q->stamp && q->route && q->targets &&
                q->start_cost && q->goal_cost && !nav_failed(nav_heap_init(&q->open, &a, n, n));
    q->scratch_made = made && !nav_failed(nav__world_scratch_init(&q->scratch, w, &a));
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
    nav_heap_destroy(&q->open);
    nav__free(&a, q->links_on);
    nav__free(&a, q->g);
    nav__free(&a, q->parent);
    nav__free(&a, q->by_link);
    nav__free(&a, q->stamp);
    nav__free(&a, q->route);
    nav__free(&a, q->targets);
    nav__free(&a, q->start_cost);
    nav__free(&a, q->goal_cost);
    nav__free(&a, q->legs);
    nav__free(&a, q);
}

size_t nav_world_query_memory_bytes(const nav_world_query *q)
{
    if (!q) return 0;
    const nav_world *w = q->world;
    size_t n = w->choke_count, fan = w->max_region_chokes + 1;
    return sizeof *q + w->state.words * sizeof(uint64_t) +
           n * (sizeof *q->g + sizeof *q->parent + 1 + sizeof *q->stamp + sizeof *q->route +
                sizeof(nav_heap_entry) + sizeof(uint32_t)) +
           fan * (sizeof *q->targets + 2 * sizeof(double)) + q->leg_capacity * sizeof *q->legs +
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
    q->leg_capacity = capacity;
    return NAV_SUCCESS;
}

/* Fans: the start's forward to its region's chokepoints (and to the goal if it lies there too:
 * *direct), the goal's backwards from its region's chokepoints. */
static nav_status fans(nav_world_query *q, const nav_world_place *start, const nav_world_place *goal,
                       double *direct)
{
    const nav_world *w = q->world;
    const nav__world_region *rs = &w->regions[start->region], *rg = &w->regions[goal->region];
    uint32_t k = rs->choke_count;
    for (uint32_t j = 0; j < k; j++) q->targets[j] = w->choke[w->region_choke[rs->choke_first + j]];
    bool same = start->region == goal->region;
    if (same) q->targets[k] = *goal;
    nav_status s = rs->ops->fan(&q->scratch, rs, start, false, q->targets, k + same, q->start_cost);
    if (nav_failed(s)) return s;
    *direct = same ? q->start_cost[k] : INFINITY;
    k = rg->choke_count;
    if (k == 0) return NAV_SUCCESS;
    for (uint32_t j = 0; j < k; j++) q->targets[j] = w->choke[w->region_choke[rg->choke_first + j]];
    return rg->ops->fan(&q->scratch, rg, goal, true, q->targets, k, q->goal_cost);
}

/* The cost from chokepoint a to chokepoint b of the same region, from its table. */
static double table_cost(const nav_world *w, uint32_t a, uint32_t b)
{
    const nav__world_region *r = &w->regions[w->choke[a].region];
    return w->table[r->table_first + (uint64_t)w->choke_slot[a] * r->choke_count + w->choke_slot[b]];
}

/* The search's estimate of the cost from chokepoint c to the goal: the world's least cost a unit of
 * horizontal travel times the straight distance (consistent: every edge costs at least that much
 * for the ground it covers). */
static double estimate(const nav_world_query *q, uint32_t c)
{
    return q->world->cost_floor * nav__world_dist_xz(q->world->choke[c].position, q->goal_position);
}

/* Offers chokepoint c the cost g, reached from `from` (through a link or not). */
static void offer(nav_world_query *q, uint32_t c, double g, uint32_t from, bool by_link)
{
    bool seen = q->stamp[c] >> 1 == q->stamp_now;
    if (seen && ((q->stamp[c] & 1) || !(g < q->g[c]))) return;
    q->g[c] = g;
    q->parent[c] = from;
    q->by_link[c] = by_link;
    uint64_t key = nav_heap_key_exact(g + estimate(q, c));
    if (seen) {
        nav_heap_decrease(&q->open, c, key, nav_heap_tie_larger_g(g));
    } else {
        q->stamp[c] = q->stamp_now << 1;
        nav_heap_push(&q->open, key, nav_heap_tie_larger_g(g), c);
    }
}

/* A* over the chokepoints (Dijkstra where nothing bounds a unit's cost). Returns the cheapest cost
 * to the goal (direct: the start's fan's) and the chokepoint the route reaches the goal's fan from
 * (*last; NAV_WORLD_NONE: direct). */
static double search(nav_world_query *q, const nav_world_place *start, const nav_world_place *goal,
                     double direct, uint32_t *last, uint32_t *expanded)
{
    const nav_world *w = q->world;
    if (++q->stamp_now >= (1u << 31)) {
        memset(q->stamp, 0, (w->choke_count ? w->choke_count : 1) * sizeof *q->stamp);
        q->stamp_now = 1;
    }
    nav_heap_clear(&q->open);
    q->goal_position = goal->position;
    const nav__world_region *rs = &w->regions[start->region];
    for (uint32_t j = 0; j < rs->choke_count; j++)
        if (q->start_cost[j] < INFINITY)
            offer(q, w->region_choke[rs->choke_first + j], q->start_cost[j], FROM_START, false);
    double best = direct;
    *last = NAV_WORLD_NONE;
    while (q->open.count) {
        uint32_t c = nav_heap_entry_id(nav_heap_pop(&q->open));
        double g = q->g[c];
        if (!(g + estimate(q, c) < best)) break;
        q->stamp[c] |= 1;
        (*expanded)++;
        const nav_world_place *at = &w->choke[c];
        if (at->region == goal->region) {
            double t = g + q->goal_cost[w->choke_slot[c]];
            if (t < best) best = t, *last = c;
        }
        uint32_t link = c / 2;
        const nav__world_link *l = &w->links[link];
        bool from_end = (c & 1) == 0;
        if (nav__world_bit(q->links_on, link) && (from_end || !l->one_way))
            offer(q, c ^ 1, g + l->cost, c, true);
        if (!q->by_link[c]) continue;
        const nav__world_region *r = &w->regions[at->region];
        const double *row = w->table + r->table_first + (uint64_t)w->choke_slot[c] * r->choke_count;
        for (uint32_t j = 0; j < r->choke_count; j++)
            if (row[j] < INFINITY) offer(q, w->region_choke[r->choke_first + j], g + row[j], c, false);
    }
    return best;
}

nav_status nav_world_plan(nav_world_query *q, nav_vec3 start, nav_vec3 goal, nav_world_result *result)
{
    nav_world_result r = {0};
    if (result) *result = r;
    if (!q) return NAV_FAILURE | NAV_INVALID_PARAM;
    q->planned = false;
    q->leg_count = 0;
    const nav_world *w = q->world;
    nav_world_place from, to;
    if (nav_failed(nav_world_locate(w, start, &from)) || nav_failed(nav_world_locate(w, goal, &to)))
        return NAV_FAILURE | NAV_INVALID_PARAM;
    nav__world_state_read(w, q->links_on);
    double direct;
    nav_status s = fans(q, &from, &to, &direct);
    if (nav_failed(s)) return s;
    uint32_t last;
    double best = search(q, &from, &to, direct, &last, &r.chokepoints_expanded);
    if (!(best < INFINITY)) {
        q->planned = true;
        q->start_place = from;
        if (result) *result = r;
        return NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE;
    }
    /* the route's chokepoints, start end first */
    uint32_t n = 0;
    for (uint32_t c = last; c != NAV_WORLD_NONE && c != FROM_START; c = q->parent[c]) q->route[n++] = c;
    for (uint32_t i = 0, j = n ? n - 1 : 0; i < j; i++, j--) {
        uint32_t t = q->route[i];
        q->route[i] = q->route[j];
        q->route[j] = t;
    }
    /* legs: start .. the first link, then from each link's far end to the next link, last to the
     * goal; each leg's cost read from the fans and tables (the cheapest inside its region) */
    uint32_t legs = 1;
    for (uint32_t i = 0; i + 1 < n; i++) legs += (q->route[i + 1] == (q->route[i] ^ 1));
    s = reserve_legs(q, legs);
    if (nav_failed(s)) return s;
    uint32_t at = NAV_WORLD_NONE; /* the chokepoint the current leg starts at; NAV_WORLD_NONE: the start */
    for (uint32_t i = 0; i + 1 < n; i++) {
        uint32_t c = q->route[i];
        if (q->route[i + 1] != (c ^ 1)) continue;
        q->legs[q->leg_count++] = (nav_world_leg){
            .region = w->choke[c].region,
            .link = c / 2,
            .from = at == NAV_WORLD_NONE ? from : w->choke[at],
            .to = w->choke[c],
            .cost = at == NAV_WORLD_NONE ? q->start_cost[w->choke_slot[c]] : table_cost(w, at, c),
            .link_cost = w->links[c / 2].cost};
        at = c ^ 1;
    }
    q->legs[q->leg_count++] =
        (nav_world_leg){.region = to.region,
                        .link = NAV_WORLD_NONE,
                        .from = at == NAV_WORLD_NONE ? from : w->choke[at],
                        .to = to,
                        .cost = at == NAV_WORLD_NONE ? direct : q->goal_cost[w->choke_slot[at]]};
    q->planned = true;
    r.cost = best;
    r.legs = q->leg_count;
    r.direct = n == 0;
    if (result) *result = r;
    return NAV_SUCCESS;
}

nav_status nav_world_refine_leg(nav_world_query *q, uint32_t leg, nav_path *path)
{
    if (!q || !path || !q->planned || leg >= q->leg_count) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_world_leg *l = &q->legs[leg];
    const nav__world_region *r = &q->world->regions[l->region];
    uint32_t first = path->count;
    double cost = 0;
    nav_status s = r->ops->leg(&q->scratch, r, &l->from, &l->to, path, &cost);
    if (nav_failed(s)) return s;
    if (nav_has_detail(s, NAV_PARTIAL_RESULT)) return NAV_FAILURE | NAV_CORRUPT_DATA;
    l->cost = cost; /* the refined leg's (the plan's but for the floats' rounding) */
    l->first_point = first;
    l->point_count = path->count - first;
    return NAV_SUCCESS;
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
        nav_status p = nav_path_push(path, q->start_place.position, q->start_place.id);
        return nav_failed(p) ? p : s;
    }
    double cost = 0;
    for (uint32_t i = 0; i < q->leg_count; i++) {
        nav_status t = nav_world_refine_leg(q, i, path);
        if (nav_failed(t)) {
            nav_path_clear(path);
            return t;
        }
        cost += q->legs[i].cost + q->legs[i].link_cost;
    }
    path->cost = cost;
    if (result) result->cost = cost;
    return s;
}
