/* The navmesh region kind of a world: places are points on the mesh (id: the polygon), legs are
 * the mesh's optimal paths (nav_mesh_find_path: the exact shortest path where every area costs the
 * same), and a fan is one such search a target. The mesh's coordinates are world coordinates. A
 * query's mesh filter (the scratch's) goes to every search, move, raycast and walls of the mesh. */
#include <math.h>

#include "world_internal.h"

/* ---- Its data ---- */

static void mesh_facts(const nav__world_region *r, double box[4], bool *symmetric, uint64_t *cells)
{
    box[0] = box[1] = INFINITY, box[2] = box[3] = -INFINITY;
    for (uint32_t i = 0; i < nav_mesh_vert_count(r->mesh); i++) {
        nav_vec3 v = nav_mesh_vert(r->mesh, i);
        box[0] = fmin(box[0], v.x), box[1] = fmin(box[1], v.z), box[2] = fmax(box[2], v.x),
        box[3] = fmax(box[3], v.z);
    }
    *symmetric = false, *cells = 0;
}

#define OCTILE_OVER_EUCLID 1.0823922002923940 /* the most the octile distance exceeds the straight one */

/* A polygon's ground costs its area's cost a unit of length (a segment covers at most 1.0824 times its
 * length in octile measure); an off-mesh link its cost over what it covers. */
static double mesh_cost_floor(const nav__world_region *r, int metric)
{
    double floor = INFINITY;
    for (uint32_t p = 0; p < nav_mesh_poly_count(r->mesh); p++) {
        nav_mesh_poly_info info;
        nav_mesh_poly(r->mesh, p, &info);
        floor = nav__world_min(floor,
                               nav_mesh_area_cost(r->mesh, info.area) / (metric ? OCTILE_OVER_EUCLID : 1.0));
    }
    for (uint32_t l = 0; l < nav_mesh_link_count(r->mesh); l++) {
        nav_mesh_link_info info;
        nav_mesh_link(r->mesh, l, &info);
        floor = nav__world_min(floor, info.cost / nav__world_cover(info.start, info.end, metric));
    }
    return floor;
}

static nav_status mesh_write(const nav__world_region *r, nav_writer *out)
{
    return nav_mesh_write_chunk(r->mesh, out);
}

static nav_status mesh_read(nav__world_owned *o, const void *data, size_t size, bool labels,
                            const nav_allocator *a, const nav_log *log)
{
    (void)labels;
    return nav_mesh_read_chunk(data, size, a, log, &o->mesh);
}

static size_t mesh_bytes(const nav__world_owned *o)
{
    return nav_mesh_memory_bytes(o->mesh);
}

static bool mesh_place_ok(const nav__world_region *r, uint32_t id)
{
    return !r->mesh || id < nav_mesh_poly_count(r->mesh); /* (on disk: checked when it is read) */
}

/* ---- Its scratch: a query object a mesh ---- */

static nav_status make_query(const nav__world_region *r, const nav_allocator *a, void **out)
{
    return nav_mesh_query_create(r->mesh, &(nav_mesh_query_desc){.allocator = a}, (nav_mesh_query **)out);
}

static void destroy_query(void *q)
{
    nav_mesh_query_destroy(q);
}

static size_t query_bytes(const void *q)
{
    return nav_mesh_query_memory_bytes(q);
}

static const nav__world_query_maker maker = {make_query, destroy_query, query_bytes};

static nav_status mesh_scratch(const nav_world *w, const nav_allocator *a, const nav_allocator *grow,
                               void **out)
{
    (void)grow; /* (a mesh query grows with the caller's allocator: a bake's threads fan no mesh on demand) */
    return nav__world_region_queries_create(w, &nav__world_mesh_ops, a, a, &maker, out);
}

/* ---- Planning ---- */

/* How far from a polygon a point may be and still locate to it: the point must be over the mesh. */
#define OVER 1e-4f

/* The polygon nearest to point within the box of half extents, with its nearest point there. */
static bool mesh_nearest(const nav__world_region *r, nav_vec3 point, nav_vec3 half, nav_world_place *out)
{
    uint32_t poly;
    nav_vec3 at;
    if (nav_failed(nav_mesh_locate(r->mesh, point, half, &poly, &at))) return false;
    *out = (nav_world_place){.region = r->index, .id = poly, .position = at};
    return true;
}

static bool mesh_locate(const nav__world_region *r, nav_vec3 point, nav_world_place *out)
{
    return mesh_nearest(r, point, (nav_vec3){OVER, 0, OVER}, out);
}

/* The mesh's path from a to b into the scratch's path, its cost to *cost (INFINITY: none). */
static nav_status search(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *from,
                         const nav_world_place *to, double *cost)
{
    nav_vec3 a = from->position, b = to->position;
    nav_mesh_result res;
    nav_mesh_query *q = nav__world_region_query(s->kind[nav__world_mesh_ops.index], r);
    if (!q) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    /* the ends' polygons are their places' ids (mesh_locate's, or a chokepoint's placed at bake):
     * not looked for again */
    nav_status st = nav_mesh_find_path(q,
                                       &(nav_mesh_path_desc){.mode = NAV_MESH_PATH_OPTIMAL,
                                                             .filter = s->mesh_filter,
                                                             .ends_located = true,
                                                             .start_poly = from->id,
                                                             .goal_poly = to->id},
                                       a, b, &s->path, &res);
    *cost = INFINITY;
    /* (an end not in its polygon, which only a forged file read on demand can make, or on one the
     * filter leaves out: no way either) */
    if (nav_has_detail(st, NAV_UNREACHABLE) || nav_has_detail(st, NAV_BLOCKED_ENDPOINT) ||
        nav_has_detail(st, NAV_INVALID_PARAM))
        return NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE;
    if (nav_failed(st)) return st;
    if (nav_has_detail(st, NAV_PARTIAL_RESULT)) return NAV_FAILURE | NAV_OUT_OF_MEMORY; /* the node pool */
    *cost = res.cost;
    return NAV_SUCCESS;
}

/* The least ratio of the filter's area costs to the mesh's, over the areas the mesh uses that the
 * filter lets in (1 for a filter of flags alone; 0 when the mesh may not be read); -1 without a
 * filter. */
static double mesh_filter_ratio(const nav__world_scratch *s, const nav__world_region *r, bool in_memory)
{
    const nav_mesh_filter *f = s->mesh_filter;
    if (!f) return -1;
    if (!f->area_cost) return 1;
    if (!in_memory || !r->mesh) return 0;
    double ratio = 1;
    for (int t = 0; t < 256; t++) {
        double own = nav_mesh_area_cost(r->mesh, (uint8_t)t);
        if (own < INFINITY && f->area_cost[t] < INFINITY) ratio = fmin(ratio, f->area_cost[t] / own);
    }
    return ratio;
}

/* ---- What agents need ---- */

static nav_status mesh_move(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *from,
                            nav_vec3 target, nav_world_place *out)
{
    nav_mesh_query *q = nav__world_region_query(s->kind[nav__world_mesh_ops.index], r);
    if (!q) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    nav_vec3 at;
    uint32_t poly;
    nav_status st =
        nav_mesh_move_along_surface(q, s->mesh_filter, from->id, from->position, target, &at, &poly);
    if (nav_failed(st)) return st;
    *out = (nav_world_place){.region = r->index, .id = poly, .position = at};
    return NAV_SUCCESS;
}

/* A raycast from `from` (in polygon poly) to `to`, its polygons written from ids[at] as far as
 * capacity allows (*hit says how many it crossed). */
static nav_status walk(nav_mesh_query *q, const nav_mesh_filter *f, uint32_t poly, nav_vec3 from, nav_vec3 to,
                       nav_mesh_raycast_hit *hit, uint32_t *ids, uint32_t capacity, uint32_t at)
{
    uint32_t room = at < capacity ? capacity - at : 0;
    nav_status st = nav_mesh_raycast(q, f, poly, from, to, hit, room ? ids + at : NULL, room);
    return nav_failed(st) && nav_has_detail(st, NAV_BUFFER_TOO_SMALL) ? NAV_SUCCESS : st;
}

/* The polygons each straight segment of the leg crosses (a raycast from the polygon the last one
 * ended in), none twice in a row: the leg's corridor. A segment the planner found clear may graze a
 * wall's corner by its floats' rounding (a way through corners in a line passes a few micrometres
 * into the middle ones): the walk from its start stops there, and the walk back from its end, also
 * stopped there or gone all the way, gives the rest (the two meet at the corner's vertex, which a
 * funnel passes). */
static nav_status mesh_corridor(nav__world_scratch *s, const nav__world_region *r, const nav_path *path,
                                uint32_t first, uint32_t count, uint32_t *ids, uint32_t capacity, uint32_t *n)
{
    nav_mesh_query *q = nav__world_region_query(s->kind[nav__world_mesh_ops.index], r);
    if (!q) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    const nav_mesh_filter *f = s->mesh_filter;
    uint32_t k = 1, poly = path->nodes[first];
    if (capacity) ids[0] = poly;
    for (uint32_t i = first; i + 1 < first + count; i++) {
        uint32_t at = k - 1, end = path->nodes[i + 1]; /* (ids[at]: poly, the segment's first) */
        nav_vec3 from = path->points[i], to = path->points[i + 1];
        nav_mesh_raycast_hit hit, back;
        nav_status st = walk(q, f, poly, from, to, &hit, ids, capacity, at);
        if (nav_failed(st)) return st;
        if (hit.t >= 1 || hit.poly == end) {
            k = at + hit.visited;
            poly = hit.poly;
            continue;
        }
        st = walk(q, f, end, to, from, &back, NULL, 0, 0);
        if (nav_failed(st)) return st;
        /* where the walk back goes, reversed: after the walk there, or after the segment's first
         * polygon when it went all the way (the polygon it ended in once) */
        uint32_t last = back.t >= 1 ? poly : hit.poly, base = back.t >= 1 ? at + 1 : at + hit.visited;
        if (back.poly == last) base--;
        k = base + back.visited;
        if (k <= capacity) {
            st = walk(q, f, end, to, from, &back, ids, capacity, base);
            for (uint32_t lo = base, hi = k - 1; lo < hi; lo++, hi--) {
                uint32_t swap = ids[lo];
                ids[lo] = ids[hi], ids[hi] = swap;
            }
        } else if (base < capacity) { /* (its last polygons, reversed, fill ids up) */
            uint32_t *all = nav__world_scratch_work(s, (size_t)back.visited * sizeof *all);
            if (!all) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
            st = walk(q, f, end, to, from, &back, all, back.visited, 0);
            for (uint32_t j = base; j < capacity; j++) ids[j] = all[back.visited - 1 - (j - base)];
        }
        if (nav_failed(st)) return st;
        poly = end;
    }
    *n = k;
    return k > capacity ? NAV_FAILURE | NAV_BUFFER_TOO_SMALL : NAV_SUCCESS;
}

/* A raycast that reaches `to` (nav_mesh_raycast). */
static bool mesh_sees(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *from,
                      nav_vec3 to, nav_status *st)
{
    nav_mesh_query *q = nav__world_region_query(s->kind[nav__world_mesh_ops.index], r);
    if (!q) {
        *st = NAV_FAILURE | NAV_OUT_OF_MEMORY;
        return false;
    }
    nav_mesh_raycast_hit hit;
    nav_status rs = nav_mesh_raycast(q, s->mesh_filter, from->id, from->position, to, &hit, NULL, 0);
    if (nav_failed(rs) && nav_has_detail(rs, NAV_OUT_OF_MEMORY)) *st = rs;
    return !nav_failed(rs) && hit.t >= 1;
}

/* nav_mesh_find_walls */
static nav_status mesh_walls(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *at,
                             float range, nav_wall *out, uint32_t capacity, uint32_t *count)
{
    nav_mesh_query *q = nav__world_region_query(s->kind[nav__world_mesh_ops.index], r);
    if (!q) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    return nav_mesh_find_walls(q, s->mesh_filter, at->id, at->position, range, out, capacity, count);
}

const nav__world_region_ops nav__world_mesh_ops = {.name = "navmesh",
                                                   .index = 2,
                                                   .public_kind = NAV_WORLD_REGION_MESH,
                                                   .facts = mesh_facts,
                                                   .cost_floor = mesh_cost_floor,
                                                   .write = mesh_write,
                                                   .read = mesh_read,
                                                   .bytes = mesh_bytes,
                                                   .place_ok = mesh_place_ok,
                                                   .scratch_create = mesh_scratch,
                                                   .scratch_destroy = nav__world_region_queries_destroy,
                                                   .scratch_bytes = nav__world_region_queries_bytes,
                                                   .locate = mesh_locate,
                                                   .fan = nav__world_fan_by_pairs,
                                                   .leg = nav__world_leg_by_pair,
                                                   .pair = search,
                                                   .filter_ratio = mesh_filter_ratio,
                                                   .nearest = mesh_nearest,
                                                   .move = mesh_move,
                                                   .walls = mesh_walls,
                                                   .corridor = mesh_corridor,
                                                   .sees = mesh_sees};
