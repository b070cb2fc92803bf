/* The waypoint-graph region kind of a world (a road network): places are waypoints, a point
 * locates to the nearest waypoint within the region's snap distance, and fans and legs are the
 * bake's routes. A fan walks each route and sums its links exactly (the tables keep distances as
 * floats), so that a fan's cost is the cost of the leg that follows it. */
#include <math.h>

#include "world_internal.h"

/* ---- Its data ---- */

static void waypoints_facts(const nav__world_region *r, double box[4], bool *symmetric, uint64_t *cells)
{
    box[0] = box[1] = INFINITY, box[2] = box[3] = -INFINITY;
    for (uint32_t i = 0; i < nav_waypoints_count(r->waypoints); i++) {
        nav_vec3 v = nav_waypoints_position(r->waypoints, i);
        box[0] = fmin(box[0], v.x - r->snap), box[1] = fmin(box[1], v.z - r->snap);
        box[2] = fmax(box[2], v.x + r->snap), box[3] = fmax(box[3], v.z + r->snap);
    }
    *symmetric = false, *cells = 0;
}

/* A link's cost over what it covers (its length when it has no cost of its own). */
static double waypoints_cost_floor(const nav__world_region *r, int metric)
{
    double floor = INFINITY;
    for (uint32_t l = 0; l < nav_waypoints_link_count(r->waypoints); l++) {
        nav_waypoint_link link;
        nav_waypoints_link(r->waypoints, l, &link);
        nav_vec3 a = nav_waypoints_position(r->waypoints, link.from),
                 b = nav_waypoints_position(r->waypoints, link.to);
        double cost = link.cost > 0 ? link.cost : nav__world_dist3(a, b);
        floor = nav__world_min(floor, cost / nav__world_cover(a, b, metric));
    }
    return floor;
}

static nav_status waypoints_write(const nav__world_region *r, nav_writer *out)
{
    return nav_waypoints_write_chunk(r->waypoints, out);
}

static nav_status waypoints_read(nav__world_owned *o, const void *data, size_t size, bool labels,
                                 const nav_allocator *a, const nav_log *log)
{
    (void)labels;
    return nav_waypoints_read_chunk(data, size, NULL, a, log, &o->waypoints);
}

static size_t waypoints_bytes(const nav__world_owned *o)
{
    return nav_waypoints_memory_bytes(o->waypoints);
}

static bool waypoints_place_ok(const nav__world_region *r, uint32_t id)
{
    return !r->waypoints || id < nav_waypoints_count(r->waypoints); /* (on disk: checked when read) */
}

/* ---- Planning (no scratch: its routes are the bake's) ---- */

static bool waypoints_locate(const nav__world_region *r, nav_vec3 point, nav_world_place *out)
{
    uint32_t i = nav_waypoints_nearest(r->waypoints, point, r->snap, NULL);
    if (i == NAV_WAYPOINTS_NONE) return false;
    *out =
        (nav_world_place){.region = r->index, .id = i, .position = nav_waypoints_position(r->waypoints, i)};
    return true;
}

/* The route from a to b into the scratch's path, its cost to *cost (INFINITY: none). */
static nav_status route(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *a,
                        const nav_world_place *b, double *cost)
{
    nav_status st = nav_waypoints_route(r->waypoints, a->id, b->id, &s->path);
    *cost = INFINITY;
    if (nav_has_detail(st, NAV_UNREACHABLE)) return NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE;
    if (nav_failed(st)) return st;
    *cost = s->path.cost;
    return NAV_SUCCESS;
}

/* ---- What agents need: a point on a waypoint graph is on one of its links ---- */

static bool waypoints_nearest(const nav__world_region *r, nav_vec3 point, nav_vec3 half, nav_world_place *out)
{
    double reach = sqrt((double)half.x * half.x + (double)half.y * half.y + (double)half.z * half.z);
    uint32_t i = nav_waypoints_nearest(r->waypoints, point, reach > 0 ? reach : 1e-30, NULL);
    if (i == NAV_WAYPOINTS_NONE) return false;
    nav_vec3 p = nav_waypoints_position(r->waypoints, i);
    if (fabsf(p.x - point.x) > half.x || fabsf(p.y - point.y) > half.y || fabsf(p.z - point.z) > half.z)
        return false; /* (the nearest in the sphere around the box lies outside the box) */
    *out = (nav_world_place){.region = r->index, .id = i, .position = p};
    return true;
}

/* Along the links from `from`'s waypoint (those it may walk: out of it, or into it both ways), to
 * their point nearest to target; the place is the nearer end's waypoint. */
static nav_status waypoints_move(nav__world_scratch *s, const nav__world_region *r,
                                 const nav_world_place *from, nav_vec3 target, nav_world_place *out)
{
    (void)s; /* (from is a waypoint: nav_world_move checked its place) */
    const nav_waypoints *wp = r->waypoints;
    nav_vec3 a = nav_waypoints_position(wp, from->id);
    *out = (nav_world_place){.region = r->index, .id = from->id, .position = a};
    double best = nav__world_dist3(a, target);
    for (uint32_t l = 0; l < nav_waypoints_link_count(wp); l++) {
        nav_waypoint_link link;
        nav_waypoints_link(wp, l, &link);
        if (link.disabled || !(link.from == from->id || (link.to == from->id && !link.one_way))) continue;
        uint32_t other = link.from == from->id ? link.to : link.from;
        nav_vec3 b = nav_waypoints_position(wp, other);
        double dx = (double)b.x - a.x, dy = (double)b.y - a.y, dz = (double)b.z - a.z,
               len2 = dx * dx + dy * dy + dz * dz;
        double t =
            len2 > 0 ? ((target.x - a.x) * dx + (target.y - a.y) * dy + (target.z - a.z) * dz) / len2 : 0;
        t = fmin(fmax(t, 0), 1);
        nav_vec3 p = {(float)(a.x + t * dx), (float)(a.y + t * dy), (float)(a.z + t * dz)};
        double d = nav__world_dist3(p, target);
        if (d < best) best = d, *out = (nav_world_place){r->index, t > 0.5 ? other : from->id, p};
    }
    return NAV_SUCCESS;
}

/* On a road, a point is seen from a waypoint along the links it may walk (waypoints_move reaches
 * it). */
static bool waypoints_sees(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *from,
                           nav_vec3 to, nav_status *st)
{
    nav_world_place at;
    *st = waypoints_move(s, r, from, to, &at);
    return !nav_failed(*st) && nav__world_dist3(at.position, to) < 1e-4;
}

/* A road has no width: no walls. */
static nav_status waypoints_walls(nav__world_scratch *s, const nav__world_region *r,
                                  const nav_world_place *at, float range, nav_wall *out, uint32_t capacity,
                                  uint32_t *count)
{
    (void)s, (void)r, (void)at, (void)range, (void)out, (void)capacity;
    *count = 0;
    return NAV_SUCCESS;
}

const nav__world_region_ops nav__world_waypoints_ops = {.name = "waypoints",
                                                        .index = 3,
                                                        .public_kind = NAV_WORLD_REGION_WAYPOINTS,
                                                        .snaps = true,
                                                        .facts = waypoints_facts,
                                                        .cost_floor = waypoints_cost_floor,
                                                        .write = waypoints_write,
                                                        .read = waypoints_read,
                                                        .bytes = waypoints_bytes,
                                                        .place_ok = waypoints_place_ok,
                                                        .locate = waypoints_locate,
                                                        .fan = nav__world_fan_by_pairs,
                                                        .leg = nav__world_leg_by_pair,
                                                        .pair = route,
                                                        .nearest = waypoints_nearest,
                                                        .move = waypoints_move,
                                                        .walls = waypoints_walls,
                                                        .corridor = nav__world_corridor_of_nodes,
                                                        .sees = waypoints_sees};
