/* The region kind of a grid searched through its HPA* bake (nav/hpa.h): places are cells (located
 * as a grid's), a fan is one HPA* query a target, and a leg is laid hop by hop between the places
 * the plan passed, the same queries the fans and the table made, so the same cost: HPA*'s costs need
 * not obey the triangle inequality, so one query from a leg's first place to its last could differ.
 * Under a grid filter that bears on it (a grid of at most NAV__WORLD_FILTERED_HPA_CELLS cells: the
 * bake holds the grid's own costs) it is searched as a grid is, cell by cell: a fan is one search to
 * every target and a hop an A*, both under the filter; its table (HPA*'s costs, no bound of the
 * filter's even scaled) is not followed, a fan under the filter from each chokepoint the route
 * leaves it by takes its place (world_query.c). Moves, walls and sight are a grid's. */
#include <math.h>

#include "world_internal.h"

/* ---- Its data: the grid's, with the bake ---- */

static void hpa_facts(const nav__world_region *r, double box[4], bool *symmetric, uint64_t *cells)
{
    nav__world_grid_facts(r, box, symmetric, cells);
    *symmetric = false; /* (HPA*'s way from a to b need not be its way from b to a walked back) */
}

/* u64 the GRID data's bytes, the GRID data, zeros to 8, the HPA data */
static nav_status hpa_write(const nav__world_region *r, nav_writer *out)
{
    size_t at = out->size;
    nav_writer_put_u64(out, 0);
    nav_status s = nav_grid_write_chunk(r->grid, out);
    uint64_t n = out->size - at - 8;
    if (!nav_failed(s) && out->data)
        for (int i = 0; i < 8; i++) out->data[at + (size_t)i] = (uint8_t)(n >> (8 * i));
    nav_writer_align(out, 8);
    if (!nav_failed(s)) s = nav_hpa_write_chunk(r->hpa, out);
    return s;
}

static nav_status hpa_read(nav__world_owned *o, const void *data, size_t size, bool labels,
                           const nav_allocator *a, const nav_log *log)
{
    nav_reader rd;
    nav_reader_init(&rd, data, size);
    uint64_t n = nav_reader_get_u64(&rd), hpa_at = 8 + ((n + 7) & ~(uint64_t)7);
    if (nav_failed(rd.status) || n > size - 8 || hpa_at > size) return NAV_FAILURE | NAV_CORRUPT_DATA;
    nav_status s = nav__world_grid_read(o, (const uint8_t *)data + 8, (size_t)n, labels, a, log);
    if (!nav_failed(s))
        s = nav_hpa_read_chunk((const uint8_t *)data + hpa_at, size - (size_t)hpa_at, o->grid,
                               &(nav_hpa_desc){.allocator = a, .log = log}, &o->hpa);
    return s;
}

/* ---- Its scratch: an HPA* query a region (its buffers grow while it plans) ---- */

static nav_status make_query(const nav__world_region *r, const nav_allocator *a, void **out)
{
    return nav_hpa_query_create(r->hpa, r->grid, &(nav_hpa_query_desc){.allocator = a},
                                (nav_hpa_query **)out);
}

static void destroy_query(void *q)
{
    nav_hpa_query_destroy(q);
}

static size_t query_bytes(const void *q)
{
    return nav_hpa_query_memory_bytes(q);
}

static const nav__world_query_maker maker = {make_query, destroy_query, query_bytes};

static nav_status hpa_scratch(const nav_world *w, const nav_allocator *a, const nav_allocator *grow,
                              void **out)
{
    return nav__world_region_queries_create(w, &nav__world_grid_hpa_ops, a, grow, &maker, out);
}

/* ---- Planning ---- */

/* HPA*'s path from cell a to cell b into s->path, its cost in world units to *cost: INFINITY (and
 * NAV_PARTIAL_RESULT) when there is none. */
static nav_status hpa_path(nav__world_scratch *s, const nav__world_region *r, uint32_t a, uint32_t b,
                           double *cost)
{
    if (nav__world_grid_filtered(s, r)) { /* (cell by cell) */
        nav_region_query *search = nav__world_grid_search(s, r);
        if (!search) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
        double c = INFINITY;
        s->path.count = 0;
        nav_grid_rect whole = {0, 0, nav_grid_width(r->grid), nav_grid_height(r->grid)};
        nav_status st = nav_region_leg(search, whole, a, b, 0, &s->path, &c);
        if (nav_failed(st)) return st;
        *cost = nav_has_detail(st, NAV_PARTIAL_RESULT) ? INFINITY : c * nav_grid_get_desc(r->grid)->cell_size;
        return st;
    }
    nav_hpa_query *q = nav__world_region_query(s->kind[nav__world_grid_hpa_ops.index], r);
    if (!q) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    uint32_t w = (uint32_t)nav_grid_width(r->grid);
    nav_hpa_result res;
    nav_status st = nav_hpa_find_path(q, (int32_t)(a % w), (int32_t)(a / w), (int32_t)(b % w),
                                      (int32_t)(b / w), &s->path, &res);
    if (nav_failed(st)) return st;
    *cost =
        nav_has_detail(st, NAV_PARTIAL_RESULT) ? INFINITY : res.cost * nav_grid_get_desc(r->grid)->cell_size;
    return st;
}

/* A fan: one HPA* query a target, or under a filter one search over the grid to them all. */
static nav_status hpa_fan(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *from,
                          bool reverse, nav__world_end keep, const nav_world_place *targets, uint32_t count,
                          double *costs)
{
    if (nav__world_grid_filtered(s, r))
        return nav__world_grid_fan(s, r, from, reverse, keep, targets, count, costs);
    return nav__world_fan_by_pairs(s, r, from, reverse, keep, targets, count, costs);
}

static nav_status hpa_pair(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *a,
                           const nav_world_place *b, double *cost)
{
    return hpa_path(s, r, a->id, b->id, cost);
}

/* Each hop between two places of the leg (its end, the chokepoints the route passed, its other end)
 * as a fan kept it or as one HPA* query; a hop to the same cell is left out once the path has begun.
 * *cost: the hops' sum. */
static nav_status hpa_leg(nav__world_scratch *s, const nav_world *w, const nav__world_region *r,
                          const nav__world_leg_ask *ask, nav_path *path, double *cost)
{
    (void)w;
    uint32_t before = path->count;
    double sum = 0;
    nav_status st = NAV_SUCCESS;
    for (uint32_t h = 0; h + 1 < ask->count && !nav_failed(st); h++) {
        uint32_t at = ask->places[h].id, next = ask->places[h + 1].id;
        if (next == at && path->count > before) continue;
        /* the hop's first cell is the last hop's end: that one goes, the hop's is the same cell */
        if (path->count > before) path->count--;
        double c = 0;
        if (!nav__world_memo_hop(s, r, ask, h, path, &c, &st)) {
            s->searches++;
            st = hpa_path(s, r, at, next, &c); /* into s->path */
            if (nav_failed(st)) break;
            if (nav_has_detail(st, NAV_PARTIAL_RESULT)) {
                st = NAV_FAILURE | NAV_CORRUPT_DATA;
                break;
            }
            st = nav__world_path_append(path, &s->path);
        }
        sum += c;
    }
    if (nav_failed(st)) {
        path->count = before;
        return st;
    }
    *cost = sum;
    return NAV_SUCCESS;
}

const nav__world_region_ops nav__world_grid_hpa_ops = {.name = "grid through HPA*",
                                                       .index = 1,
                                                       .public_kind = NAV_WORLD_REGION_GRID,
                                                       .flags = 2,
                                                       .facts = hpa_facts,
                                                       .cost_floor = nav__world_grid_cost_floor,
                                                       .write = hpa_write,
                                                       .read = hpa_read,
                                                       .bytes = nav__world_grid_bytes,
                                                       .place_ok = nav__world_grid_place_ok,
                                                       .scratch_create = hpa_scratch,
                                                       .scratch_destroy = nav__world_region_queries_destroy,
                                                       .scratch_bytes = nav__world_region_queries_bytes,
                                                       .locate = nav__world_grid_locate,
                                                       .fan = hpa_fan,
                                                       .leg = hpa_leg,
                                                       .pair = hpa_pair,
                                                       .filter_ratio = nav__world_grid_filter_ratio,
                                                       .nearest = nav__world_grid_nearest,
                                                       .move = nav__world_grid_move,
                                                       .walls = nav__world_grid_walls,
                                                       .corridor = nav__world_corridor_of_nodes,
                                                       .sees = nav__world_grid_sees};
