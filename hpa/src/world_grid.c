/* The grid region kind of a world: locate, fan and leg over nav/region.h's searches, the whole
 * grid as one rectangle, and its cells as places the world's search walks itself when an end lies
 * on the grid (nav__world_places). A grid's costs count cells; the world's count world units, so
 * every cost is multiplied by the cell size. */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "nav/anyangle.h"
#include "grid_internal.h"
#include "walls.h"
#include "world_internal.h"
#include "world_search.h"

/* ---- Its data ---- */

void nav__world_grid_facts(const nav__world_region *r, double box[4], bool *symmetric, uint64_t *cells)
{
    const nav_grid_desc *d = nav_grid_get_desc(r->grid);
    box[0] = d->origin.x, box[1] = d->origin.z;
    box[2] = d->origin.x + (double)nav_grid_width(r->grid) * d->cell_size;
    box[3] = d->origin.z + (double)nav_grid_height(r->grid) * d->cell_size;
    *symmetric = nav_grid_uniform_cost(r->grid) > 0 && nav_grid_moves_reversible(r->grid);
    *cells = (uint64_t)nav_grid_width(r->grid) * (uint64_t)nav_grid_height(r->grid);
}

double nav__world_grid_cost_floor(const nav__world_region *r, int metric)
{
    (void)metric; /* (a move's cost is at least its length times the cheapest terrain, a diagonal's at
                     least its octile measure, and more than its straight length) */
    const nav_grid_desc *d = nav_grid_get_desc(r->grid);
    return nav_grid_min_cost(r->grid) * fmin(1.0, d->diagonal_cost / sqrt(2.0));
}

static nav_status grid_write(const nav__world_region *r, nav_writer *out)
{
    return nav_grid_write_chunk(r->grid, out);
}

nav_status nav__world_grid_read(nav__world_owned *o, const void *data, size_t size, bool labels,
                                const nav_allocator *a, const nav_log *log)
{
    return nav__grid_read_chunk(data, size, &(nav_grid_desc){.allocator = a, .log = log}, labels, &o->grid);
}

size_t nav__world_grid_bytes(const nav__world_owned *o)
{
    return nav_grid_memory_bytes(o->grid) + nav_hpa_memory_bytes(o->hpa);
}

/* (its cells counted from the file's record, before the grid is read on demand) */
bool nav__world_grid_place_ok(const nav__world_region *r, uint32_t id)
{
    if (id >= r->cells) return false;
    return !r->grid ||
           nav_grid_passable(r->grid, (int32_t)(id % r->grid->width), (int32_t)(id / r->grid->width));
}

/* Walks a kept way's runs from cell `from`: every run inside the grid (a run is straight, so its end
 * inside means all of it is), ending on cell `to`. */
static bool grid_way_ok(const nav__world_region *r, uint32_t from, uint32_t to, const uint8_t *runs,
                        uint64_t count)
{
    const nav_grid *grid = r->grid;
    int64_t x = from % grid->width, y = from / grid->width;
    for (uint64_t k = 0; k < count; k++) {
        int d = runs[k] >> 5, n = (runs[k] & 31) + 1;
        for (; n > 0; n--) { /* each step one the grid allows (a way read from a file may be any bytes) */
            if (!(grid->moves[(uint64_t)y * grid->width + (uint64_t)x] >> d & 1)) return false;
            x += nav__dir_dx[d];
            y += nav__dir_dy[d];
            if (x < 0 || y < 0 || x >= grid->width || y >= grid->height) return false;
        }
    }
    return (uint64_t)y * grid->width + (uint64_t)x == to;
}

/* ---- Its scratch: one grid search, made for the largest grid region and pointed at whichever grid
 * it serves, and the fans' targets as cells ---- */

typedef struct grid_scratch {
    /* (made when first needed, on a world whose regions load on demand or for a grid through HPA*
     * under a filter; made again larger when a grid needs more: search_cells) */
    nav_region_query *search;
    uint64_t cells, search_cells; /* the largest grid region's (not through HPA*); the search's */
    uint32_t *ids;                /* a region's chokepoints + 1 */
    nav_allocator allocator;
    /* under a grid filter, its costs on the last two regions they were worked out for, each with
     * its region + 1 and the scratch's filters_set then (0: none) */
    nav__grid_costs costs[2];
    uint32_t costs_region[2], costs_set[2], costs_next;
} grid_scratch;

/* The costs the query's grid filter gives region r's grid (in memory), or null where there is no
 * filter or it changes nothing on that grid (every type in use there costs the grid's and stays in):
 * its searches, moves and sight then go by the grid alone. */
static const nav__grid_costs *filter_costs(nav__world_scratch *s, const nav__world_region *r)
{
    grid_scratch *g = s->kind[nav__world_grid_ops.index];
    uint32_t k = 0;
    while (k < 2 && !(g->costs_region[k] == r->index + 1 && g->costs_set[k] == s->filters_set &&
                      g->costs[k].grid == r->grid))
        k++;
    if (k == 2) {
        k = g->costs_next, g->costs_next ^= 1;
        nav__grid_costs_make(r->grid, s->grid_filter, &g->costs[k]);
        g->costs_region[k] = r->index + 1, g->costs_set[k] = s->filters_set;
    }
    return g->costs[k].same ? NULL : &g->costs[k];
}

static inline const nav__grid_costs *costs_of(nav__world_scratch *s, const nav__world_region *r)
{
    return s->grid_filter ? filter_costs(s, r) : NULL;
}

bool nav__world_grid_filtered(nav__world_scratch *s, const nav__world_region *r)
{
    return costs_of(s, r) != NULL;
}

static void grid_scratch_destroy(void *scratch, const nav_world *w)
{
    (void)w;
    grid_scratch *g = scratch;
    nav_allocator a = g->allocator;
    nav_region_query_destroy(g->search);
    nav__free(&a, g->ids);
    nav__free(&a, g);
}

static nav_status grid_scratch_create(const nav_world *w, const nav_allocator *a, const nav_allocator *grow,
                                      void **out)
{
    *out = NULL;
    /* (a grid through HPA* has its moves, walls, sight and, under a filter, searches from here) */
    const nav__world_region *largest = NULL;
    bool any = false;
    for (uint32_t r = 0; r < w->region_count; r++) {
        any |= w->regions[r].kind == NAV_WORLD_REGION_GRID;
        if (w->regions[r].ops->index == nav__world_grid_ops.index &&
            (!largest || w->regions[r].cells > largest->cells))
            largest = &w->regions[r];
    }
    if (!any) return NAV_SUCCESS;
    grid_scratch *g = nav__calloc(a, 1, sizeof *g);
    if (!g) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    *g = (grid_scratch){.cells = largest ? largest->cells : 0, .allocator = *a};
    g->ids = nav__alloc(a, ((size_t)w->max_region_chokes + 1) * sizeof *g->ids);
    nav_status st = g->ids ? NAV_SUCCESS : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    /* made now when the regions are in memory (a bake's threads must not allocate through the
     * caller's allocator; a fan grows its buckets as it goes: from grow); on demand, when first
     * needed (a region's data may be read or let go under the cache's lock meanwhile) */
    if (!nav_failed(st) && !w->cache && largest) {
        st = nav_region_query_create(largest->grid, (uint32_t)g->cells, grow, &g->search);
        g->search_cells = g->cells;
    }
    if (nav_failed(st)) {
        grid_scratch_destroy(g, w);
        return st;
    }
    *out = g;
    return NAV_SUCCESS;
}

static size_t grid_scratch_bytes(const void *scratch, const nav_world *w)
{
    const grid_scratch *g = scratch;
    return sizeof *g + nav_region_query_memory_bytes(g->search) +
           ((size_t)w->max_region_chokes + 1) * sizeof *g->ids;
}

nav_region_query *nav__world_grid_search(nav__world_scratch *s, const nav__world_region *r)
{
    grid_scratch *g = s->kind[nav__world_grid_ops.index];
    if (g->search && g->search_cells < r->cells) { /* (a grid through HPA* larger than the others) */
        nav_region_query_destroy(g->search);
        g->search = NULL;
    }
    if (!g->search) {
        uint64_t cells = g->cells > r->cells ? g->cells : r->cells;
        if (cells > UINT32_MAX ||
            nav_failed(nav_region_query_create(r->grid, (uint32_t)cells, &g->allocator, &g->search)))
            return NULL;
        g->search_cells = cells;
    }
    if (nav_failed(nav_region_query_set_grid(g->search, r->grid))) return NULL;
    const nav__grid_costs *c = costs_of(s, r);
    return nav_failed(nav_region_query_set_filter(g->search, c ? c->filter : NULL)) ? NULL : g->search;
}

/* The least ratio of the filter's costs to the grid's over the types in use that both let in (-1
 * where the filter changes nothing there; 0 when the grid may not be read: on demand). */
double nav__world_grid_filter_ratio(const nav__world_scratch *s, const nav__world_region *r, bool in_memory)
{
    const nav_grid_filter *f = s->grid_filter;
    if (!f) return -1;
    if (!in_memory || !r->grid) return 0;
    const nav_grid *grid = r->grid;
    double ratio = INFINITY;
    bool same = true;
    for (int t = 1; t < NAV_TERRAIN_TYPES; t++) {
        double own = grid->terrain_cost[t], theirs = f->terrain_cost[t];
        if (!grid->terrain_use[t] || !(own < INFINITY)) continue;
        same &= theirs == own;
        if (theirs < INFINITY) ratio = fmin(ratio, theirs / own);
    }
    return same ? -1 : ratio < INFINITY ? ratio : 1;
}

/* ---- Planning ---- */

static nav_grid_rect whole(const nav_grid *grid)
{
    return (nav_grid_rect){0, 0, nav_grid_width(grid), nav_grid_height(grid)};
}

static nav_vec3 cell_position(const nav_grid *grid, uint32_t cell)
{
    return nav_grid_cell_center(grid, (int32_t)(cell % grid->width), (int32_t)(cell / grid->width));
}

bool nav__world_grid_locate(const nav__world_region *r, nav_vec3 point, nav_world_place *out)
{
    int32_t x, y;
    if (!nav_grid_world_to_cell(r->grid, point, &x, &y) || !nav_grid_passable(r->grid, x, y)) return false;
    out->region = r->index;
    out->id = nav_grid_index(r->grid, x, y);
    out->position = nav_grid_cell_center(r->grid, x, y);
    return true;
}

nav_status nav__world_grid_fan(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *from,
                               bool reverse, nav__world_end keep, const nav_world_place *targets,
                               uint32_t count, double *costs)
{
    (void)keep; /* (a big grid's end: its leg is searched again; the fans share one search) */
    nav_region_query *search = nav__world_grid_search(s, r);
    if (!search) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    const nav__grid_costs *c = costs_of(s, r);
    if (c && !(c->cost[r->grid->terrain[from->id]] < INFINITY)) { /* (standing where the filter keeps out) */
        for (uint32_t k = 0; k < count; k++) costs[k] = INFINITY;
        return NAV_SUCCESS;
    }
    uint32_t *ids = ((grid_scratch *)s->kind[nav__world_grid_ops.index])->ids;
    for (uint32_t k = 0; k < count; k++) ids[k] = targets[k].id;
    s->searches++;
    nav_status st = nav_region_fan(search, whole(r->grid), from->id, reverse, ids, count, costs);
    if (nav_failed(st)) return st;
    double size = nav_grid_get_desc(r->grid)->cell_size;
    for (uint32_t k = 0; k < count; k++) costs[k] *= size;
    return st;
}

/* Appends the ways the bake kept for a leg that is a chain of table entries (from the chokepoint a
 * link reached to the one the next link leaves from, each hop an entry), walking each entry's runs of
 * moves (for the mirrored half of a symmetric table, its mirror's runs backwards), with *cost their
 * moves' sum. */
static nav_status kept(const nav_world *w, const nav__world_region *r, const nav__world_leg_ask *ask,
                       nav_path *path, double *cost)
{
    const nav_grid *grid = r->grid;
    uint32_t cell = ask->places[0].id, before = path->count;
    double sum = 0, size = grid->desc.cell_size;
    nav_status s = nav_path_push(path, cell_position(grid, cell), cell);
    for (uint32_t h = 0; h + 1 < ask->count && !nav_failed(s); h++) {
        uint32_t i = w->choke_slot[ask->chokes[h]], j = w->choke_slot[ask->chokes[h + 1]];
        bool backwards = r->symmetric && i > j;
        uint64_t e = backwards ? nav__world_entry(w, r, j, i) : nav__world_entry(w, r, i, j);
        if (e == UINT64_MAX) { /* (never: the search took the entry) */
            s = NAV_FAILURE | NAV_CORRUPT_DATA;
            break;
        }
        uint64_t runs = w->way_size[e], at = nav__world_way_start(w, r->choke_first + (backwards ? j : i), e);
        for (uint64_t k = 0; k < runs && !nav_failed(s); k++) {
            uint8_t run = w->path_bytes[backwards ? at + runs - 1 - k : at + k];
            int d = backwards ? nav__dir_opposite(run >> 5) : run >> 5;
            for (int n = (run & 31) + 1; n > 0 && !nav_failed(s); n--) {
                uint32_t next = (uint32_t)((int32_t)cell + grid->offset[d]);
                /* a move's cost is its length times the terrain entered */
                sum += grid->step_length[d] * grid->terrain_cost[grid->terrain[next]] * size;
                cell = next;
                s = nav_path_push(path, cell_position(grid, cell), cell);
            }
        }
    }
    if (nav_failed(s)) {
        path->count = before;
        return s;
    }
    *cost = sum;
    return NAV_SUCCESS;
}

/* A leg between two chokepoints made of table entries only is laid along the ways the bake kept;
 * any other (an end of a grid too big for the search to walk) is searched. */
/* Under a filter: each hop between two places of the leg searched under it (the plan counted each
 * so: by a fan under the filter, or by an entry searched again under it). */
static nav_status hops(nav__world_scratch *s, const nav__world_region *r, const nav__world_leg_ask *ask,
                       nav_region_query *search, nav_path *path, double *cost)
{
    uint32_t before = path->count;
    double sum = 0, size = nav_grid_get_desc(r->grid)->cell_size;
    nav_status st = NAV_SUCCESS;
    for (uint32_t h = 0; h + 1 < ask->count && !nav_failed(st); h++) {
        uint32_t at = ask->places[h].id, next = ask->places[h + 1].id;
        if (next == at && path->count > before) continue;
        if (path->count > before) path->count--; /* (the hop's first cell: the last hop's end) */
        double c = 0;
        s->searches++;
        st = nav_region_leg(search, whole(r->grid), at, next, 0, path, &c);
        if (!nav_failed(st) && nav_has_detail(st, NAV_PARTIAL_RESULT)) st = NAV_FAILURE | NAV_CORRUPT_DATA;
        sum += c * size;
    }
    if (nav_failed(st)) {
        path->count = before;
        return st;
    }
    *cost = sum;
    return NAV_SUCCESS;
}

static nav_status grid_leg(nav__world_scratch *s, const nav_world *w, const nav__world_region *r,
                           const nav__world_leg_ask *ask, nav_path *path, double *cost)
{
    if (costs_of(s, r)) {
        nav_region_query *search = nav__world_grid_search(s, r);
        return search ? hops(s, r, ask, search, path, cost) : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    bool chain = ask->chokes[0] != NAV_WORLD_NONE && ask->chokes[ask->count - 1] != NAV_WORLD_NONE;
    for (uint32_t h = 0; h + 1 < ask->count && chain; h++) chain = ask->table[h];
    if (chain) return kept(w, r, ask, path, cost);
    nav_region_query *search = nav__world_grid_search(s, r);
    if (!search) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    double c = 0;
    s->searches++;
    nav_status st = nav_region_leg(search, whole(r->grid), ask->places[0].id, ask->places[ask->count - 1].id,
                                   0, path, &c);
    *cost = c * nav_grid_get_desc(r->grid)->cell_size;
    return st;
}

/* ---- The cells as the world's search walks them ---- */

/* A cell's centre worked out as nav_grid_cell_center does (the same floats: a chokepoint on the
 * cell gets the same estimate, which its edge of cost 0 from the cell needs), without the height. */
static double cell_estimate(const nav__world_search *s, const nav__world_region *r, uint32_t cell)
{
    const nav_grid *g = r->grid;
    float size = g->desc.cell_size;
    return nav__world_search_estimate(s, g->desc.origin.x + ((float)(cell % g->width) + 0.5f) * size,
                                      g->desc.origin.z + ((float)(cell / g->width) + 0.5f) * size);
}

/* (the loop written once for the grid's own moves and costs, c null, and once for a filter's) */
static inline __attribute__((always_inline)) void expand_moves(nav__world_search *s,
                                                               const nav__world_region *r, uint32_t block,
                                                               uint32_t cell, double g,
                                                               const nav__grid_costs *c)
{
    const nav_grid *grid = r->grid;
    double size = grid->desc.cell_size;
    for (uint32_t m = c ? nav__grid_moves_of(c, cell) : grid->moves[cell]; m; m &= m - 1) {
        int d = __builtin_ctz(m);
        uint32_t next = (uint32_t)((int32_t)cell + grid->offset[d]);
        double enter = c ? c->cost[grid->terrain[next]] : grid->terrain_cost[grid->terrain[next]];
        double step = grid->step_length[d] * enter * size, to = g + step;
        if (nav__world_search_improves(s, block + next, to))
            nav__world_search_take(s, block + next, to, block + cell, NAV__WORLD_BY_END,
                                   cell_estimate(s, r, next));
    }
}

static __attribute__((noinline)) void expand_filtered(nav__world_search *s, const nav__world_region *r,
                                                      uint32_t block, uint32_t cell, double g,
                                                      const nav__grid_costs *c)
{
    expand_moves(s, r, block, cell, g, c);
}

static void cell_expand(nav__world_search *s, const nav__world_region *r, uint32_t block, uint32_t cell,
                        double g)
{
    const nav__grid_costs *c = costs_of(s->scratch, r);
    if (c)
        expand_filtered(s, r, block, cell, g, c);
    else
        expand_moves(s, r, block, cell, g, NULL);
}

static nav_vec3 place_position(const nav__world_region *r, uint32_t cell)
{
    return cell_position(r->grid, cell);
}

static const nav__world_places cells = {cell_expand, cell_estimate, place_position};

/* ---- What agents need: a point on a grid is anywhere in a free cell, at the cell's floor ---- */

/* The point of cell (x, y)'s square nearest to p, at the cell's floor (as nav_grid_cell_center's):
 * inside the square by a ten-thousandth of its side, so that the point lies in no other cell
 * (nav_grid_world_to_cell puts it in this one). */
static nav_vec3 clamp_into(const nav_grid *g, int32_t x, int32_t y, nav_vec3 p)
{
    float s = g->desc.cell_size, in = s * 1e-4f, x0 = g->desc.origin.x + (float)x * s,
          z0 = g->desc.origin.z + (float)y * s;
    return (nav_vec3){fminf(fmaxf(p.x, x0 + in), x0 + s - in),
                      g->desc.origin.y + nav_grid_cell_height(g, x, y),
                      fminf(fmaxf(p.z, z0 + in), z0 + s - in)};
}

/* The cells whose squares meet the box [lo, hi] in x and z, clamped to the grid (false: none). */
static bool cells_in(const nav_grid *g, double lo_x, double lo_z, double hi_x, double hi_z, int32_t *x0,
                     int32_t *y0, int32_t *x1, int32_t *y1)
{
    double s = g->desc.cell_size;
    double fx0 = floor((lo_x - g->desc.origin.x) / s), fy0 = floor((lo_z - g->desc.origin.z) / s),
           fx1 = floor((hi_x - g->desc.origin.x) / s), fy1 = floor((hi_z - g->desc.origin.z) / s);
    if (!(fx1 >= 0 && fy1 >= 0 && fx0 < g->width && fy0 < g->height)) return false;
    *x0 = (int32_t)fmax(fx0, 0), *y0 = (int32_t)fmax(fy0, 0);
    *x1 = (int32_t)fmin(fx1, g->width - 1), *y1 = (int32_t)fmin(fy1, g->height - 1);
    return true;
}

bool nav__world_grid_nearest(const nav__world_region *r, nav_vec3 point, nav_vec3 half, nav_world_place *out)
{
    const nav_grid *g = r->grid;
    int32_t x0, y0, x1, y1;
    if (!cells_in(g, (double)point.x - half.x, (double)point.z - half.z, (double)point.x + half.x,
                  (double)point.z + half.z, &x0, &y0, &x1, &y1))
        return false;
    double best = INFINITY;
    for (int32_t y = y0; y <= y1; y++)
        for (int32_t x = x0; x <= x1; x++) {
            if (!nav_grid_passable(g, x, y)) continue;
            nav_vec3 c = clamp_into(g, x, y, point);
            if (fabsf(c.x - point.x) > half.x || fabsf(c.z - point.z) > half.z ||
                fabsf(c.y - point.y) > half.y)
                continue;
            double d = nav__world_dist3(c, point);
            if (d < best) best = d, *out = (nav_world_place){r->index, nav_grid_index(g, x, y), c};
        }
    return best < INFINITY;
}

/* A walk over the cells of a box from one of them through their sides: the box (the cells within
 * lo .. hi, and `from`'s), its queue with `from`'s cell first and the cells seen (from's). */
typedef struct cell_walk {
    int32_t x0, y0, x1, y1;
    uint32_t bw, *queue;
    uint8_t *seen;
} cell_walk;

static bool walk_start(nav__world_scratch *s, const nav_grid *g, uint32_t from, double lo_x, double lo_z,
                       double hi_x, double hi_z, cell_walk *k)
{
    int32_t fx = (int32_t)(from % (uint32_t)g->width), fy = (int32_t)(from / (uint32_t)g->width);
    int32_t x0 = fx, y0 = fy, x1 = fx, y1 = fy;
    if (cells_in(g, lo_x, lo_z, hi_x, hi_z, &x0, &y0, &x1, &y1))
        x0 = fx < x0 ? fx : x0, y0 = fy < y0 ? fy : y0, x1 = fx > x1 ? fx : x1, y1 = fy > y1 ? fy : y1;
    uint32_t bw = (uint32_t)(x1 - x0 + 1), bh = (uint32_t)(y1 - y0 + 1);
    if ((uint64_t)bw * bh > UINT32_MAX / 8) return false;
    size_t n = (size_t)bw * bh;
    uint32_t *queue = nav__world_scratch_work(s, n * (sizeof *queue + 1));
    if (!queue) return false;
    uint8_t *seen = (uint8_t *)(queue + n);
    memset(seen, 0, n);
    queue[0] = (uint32_t)(fy - y0) * bw + (uint32_t)(fx - x0);
    seen[queue[0]] = 1;
    *k = (cell_walk){x0, y0, x1, y1, bw, queue, seen};
    return true;
}

nav_status nav__world_grid_move(nav__world_scratch *s, const nav__world_region *r,
                                const nav_world_place *from, nav_vec3 target, nav_world_place *out)
{
    /* (from is a free cell: nav_world_move checked its place) */
    const nav_grid *g = r->grid;
    /* the circle on from and target; the cells it meets, walked from from's through their sides */
    nav_vec3 p = from->position;
    double mx = ((double)p.x + target.x) / 2, mz = ((double)p.z + target.z) / 2,
           radius = nav__world_dist_xz(p, target) / 2 + 1e-6 * g->desc.cell_size;
    cell_walk walk;
    if (!walk_start(s, g, from->id, mx - radius, mz - radius, mx + radius, mz + radius, &walk))
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    int32_t x0 = walk.x0, y0 = walk.y0, x1 = walk.x1, y1 = walk.y1;
    uint32_t bw = walk.bw, head = 0, tail = 1, *queue = walk.queue;
    uint8_t *seen = walk.seen;
    double best = INFINITY;
    float size = g->desc.cell_size;
    const nav__grid_costs *costs = costs_of(s, r);
    while (head < tail) {
        uint32_t at = queue[head++];
        int32_t x = x0 + (int32_t)(at % bw), y = y0 + (int32_t)(at / bw);
        uint32_t cell = nav_grid_index(g, x, y),
                 moves = costs ? nav__grid_moves_of(costs, cell) : g->moves[cell];
        nav_vec3 c = clamp_into(g, x, y, target);
        double d = nav__world_dist_xz(c, target);
        if (d < best) best = d, *out = (nav_world_place){r->index, cell, c};
        for (int dir = 0; dir < 8; dir++) {
            if (nav__dir_dx[dir] && nav__dir_dy[dir]) continue; /* (through sides only: no corner is a way) */
            if (!(moves >> dir & 1)) continue;
            int32_t nx = x + nav__dir_dx[dir], ny = y + nav__dir_dy[dir];
            if (nx < x0 || ny < y0 || nx > x1 || ny > y1) continue;
            uint32_t k = (uint32_t)(ny - y0) * bw + (uint32_t)(nx - x0);
            if (seen[k]) continue;
            /* the cell's square must meet the circle */
            float sx = g->desc.origin.x + (float)nx * size, sz = g->desc.origin.z + (float)ny * size;
            double cx = fmin(fmax(mx, sx), (double)sx + size) - mx,
                   cz = fmin(fmax(mz, sz), (double)sz + size) - mz;
            if (cx * cx + cz * cz > radius * radius) continue;
            seen[k] = 1;
            queue[tail++] = k;
        }
    }
    return NAV_SUCCESS;
}

/* The sides of the free cells reached from place `at` through sides within range (seen from above)
 * that a walk may not cross (a blocked cell beyond, the grid's edge, a step too high), within range,
 * each with its cell on its left. */
nav_status nav__world_grid_walls(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *at,
                                 float range, nav_wall *out, uint32_t capacity, uint32_t *count)
{
    const nav_grid *g = r->grid;
    double px = at->position.x, pz = at->position.z;
    cell_walk walk;
    if (!walk_start(s, g, at->id, px - range, pz - range, px + range, pz + range, &walk))
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    int32_t x0 = walk.x0, y0 = walk.y0, x1 = walk.x1, y1 = walk.y1;
    uint32_t bw = walk.bw, head = 0, tail = 1, kept = 0, *queue = walk.queue;
    uint8_t *seen = walk.seen;
    bool more = false;
    float size = g->desc.cell_size;
    /* the sides counter-clockwise from the one towards -z, as (dx, dy) and the corners they join */
    static const int8_t side[4][2] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}};
    static const int8_t corner[5][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 0}};
    int dirs[4]; /* (each side's move: nav__dir_dx, nav__dir_dy) */
    for (int i = 0; i < 4; i++)
        for (dirs[i] = 0; nav__dir_dx[dirs[i]] != side[i][0] || nav__dir_dy[dirs[i]] != side[i][1];)
            dirs[i]++;
    const nav__grid_costs *costs = costs_of(s, r);
    while (head < tail) {
        uint32_t k = queue[head++];
        int32_t x = x0 + (int32_t)(k % bw), y = y0 + (int32_t)(k / bw);
        uint32_t cell = nav_grid_index(g, x, y),
                 moves = costs ? nav__grid_moves_of(costs, cell) : g->moves[cell];
        float floor_y = nav_grid_cell_center(g, x, y).y;
        for (int i = 0; i < 4; i++) {
            nav_wall w = {{g->desc.origin.x + (float)(x + corner[i][0]) * size, floor_y,
                           g->desc.origin.z + (float)(y + corner[i][1]) * size},
                          {g->desc.origin.x + (float)(x + corner[i + 1][0]) * size, floor_y,
                           g->desc.origin.z + (float)(y + corner[i + 1][1]) * size}};
            if (nav__wall_distance(w, px, pz) > range) continue;
            if (!(moves >> dirs[i] & 1)) {
                nav__keep_wall(w, px, pz, out, capacity, &kept, &more);
                continue;
            }
            int32_t nx = x + side[i][0], ny = y + side[i][1];
            if (nx < x0 || ny < y0 || nx > x1 || ny > y1) continue; /* (beyond range) */
            uint32_t m = (uint32_t)(ny - y0) * bw + (uint32_t)(nx - x0);
            if (!seen[m]) seen[m] = 1, queue[tail++] = m;
        }
    }
    *count = kept;
    return more ? NAV_SUCCESS | NAV_BUFFER_TOO_SMALL : NAV_SUCCESS;
}

/* The grid's any-angle rule (nav/anyangle.h: a segment through free cells' squares, never between
 * two blocked cells that touch at a corner), under the query's filter. */
bool nav__world_grid_sees(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *from,
                          nav_vec3 to, nav_status *st)
{
    (void)st;
    const nav_grid *g = r->grid;
    const nav_grid_desc *d = nav_grid_get_desc(g);
    double size = d->cell_size, ax = ((double)from->position.x - d->origin.x) / size,
           ay = ((double)from->position.z - d->origin.z) / size, bx = ((double)to.x - d->origin.x) / size,
           by = ((double)to.z - d->origin.z) / size;
    const nav__grid_costs *c = costs_of(s, r);
    const double *cost = c ? c->cost : g->terrain_cost;
    /* on a grid of several costs, no cell dearer than those of its two ends: a character does not see
     * a shortcut across the swamp its route goes round */
    double limit = cost[g->terrain[from->id]];
    int32_t x, y;
    if ((c ? c->max_cost > c->min_cost : g->max_cost > g->min_cost) &&
        nav_grid_world_to_cell(g, to, &x, &y)) {
        double end = cost[g->terrain[nav_grid_index(g, x, y)]];
        if (end < INFINITY) limit = fmax(limit, end);
        if (limit < (c ? c->max_cost : g->max_cost)) {
            double below[NAV_TERRAIN_TYPES];
            for (int t = 0; t < NAV_TERRAIN_TYPES; t++) below[t] = cost[t] <= limit ? cost[t] : INFINITY;
            return nav__grid_anyangle_segment(g, below, ax, ay, bx, by, NULL);
        }
    }
    return nav__grid_anyangle_segment(g, c ? c->cost : NULL, ax, ay, bx, by, NULL);
}

const nav__world_region_ops nav__world_grid_ops = {.name = "grid",
                                                   .index = 0,
                                                   .public_kind = NAV_WORLD_REGION_GRID,
                                                   .facts = nav__world_grid_facts,
                                                   .cost_floor = nav__world_grid_cost_floor,
                                                   .write = grid_write,
                                                   .read = nav__world_grid_read,
                                                   .bytes = nav__world_grid_bytes,
                                                   .place_ok = nav__world_grid_place_ok,
                                                   .way_ok = grid_way_ok,
                                                   .scratch_create = grid_scratch_create,
                                                   .scratch_destroy = grid_scratch_destroy,
                                                   .scratch_bytes = grid_scratch_bytes,
                                                   .locate = nav__world_grid_locate,
                                                   .fan = nav__world_grid_fan,
                                                   .leg = grid_leg,
                                                   .places = &cells,
                                                   .filter_ratio = nav__world_grid_filter_ratio,
                                                   .nearest = nav__world_grid_nearest,
                                                   .move = nav__world_grid_move,
                                                   .walls = nav__world_grid_walls,
                                                   .corridor = nav__world_corridor_of_nodes,
                                                   .sees = nav__world_grid_sees};
