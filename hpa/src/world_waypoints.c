/* The waypoint-graph region kind of a world (a road network): places are waypoints, a point
 * locates to the nearest waypoint within the region's snap distance, and fans and legs are the
 * bake's routes. A fan walks each route and sums its links exactly (the tables keep distances as
 * floats), so that a fan's cost is the cost of the leg that follows it. */
#include <math.h>

#include "world_internal.h"

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

const nav__world_region_ops nav__world_waypoints_ops = {
    .locate = waypoints_locate, .fan = nav__world_fan_by_pairs, .leg = nav__world_leg_by_pair, .pair = route};
