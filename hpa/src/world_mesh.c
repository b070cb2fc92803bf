/* The navmesh region kind of a world: places are points on the mesh (id: the polygon), legs are
 * the mesh's optimal paths (nav_mesh_find_path: the exact shortest path where every area costs the
 * same), and a fan is one such search a target. The mesh's coordinates are world coordinates. */
#include <math.h>

#include "world_internal.h"

/* How far from a polygon a point may be and still locate to it: the point must be over the mesh. */
#define OVER 1e-4f

static bool mesh_locate(const nav__world_region *r, nav_vec3 point, nav_world_place *out)
{
    uint32_t poly;
    nav_vec3 at;
    if (nav_failed(nav_mesh_locate(r->mesh, point, (nav_vec3){OVER, 0, OVER}, &poly, &at))) return false;
    *out = (nav_world_place){.region = r->index, .id = poly, .position = at};
    return true;
}

/* The mesh's path from a to b into the scratch's path, its cost to *cost (INFINITY: none). */
static nav_status search(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *from,
                         const nav_world_place *to, double *cost)
{
    nav_vec3 a = from->position, b = to->position;
    nav_mesh_result res;
    nav_mesh_query *q = nav__world_scratch_mesh(s, r);
    if (!q) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    /* the ends' polygons are their places' ids (mesh_locate's, or a chokepoint's placed at bake):
     * not looked for again */
    nav_status st = nav_mesh_find_path(
        q,
        &(nav_mesh_path_desc){
            .mode = NAV_MESH_PATH_OPTIMAL, .ends_located = true, .start_poly = from->id, .goal_poly = to->id},
        a, b, &s->path, &res);
    *cost = INFINITY;
    /* (an end not in its polygon, which only a forged file read on demand can make: no way either) */
    if (nav_has_detail(st, NAV_UNREACHABLE) || nav_has_detail(st, NAV_BLOCKED_ENDPOINT) ||
        nav_has_detail(st, NAV_INVALID_PARAM))
        return NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE;
    if (nav_failed(st)) return st;
    if (nav_has_detail(st, NAV_PARTIAL_RESULT)) return NAV_FAILURE | NAV_OUT_OF_MEMORY; /* the node pool */
    *cost = res.cost;
    return NAV_SUCCESS;
}

const nav__world_region_ops nav__world_mesh_ops = {
    .locate = mesh_locate, .fan = nav__world_fan_by_pairs, .leg = nav__world_leg_by_pair, .pair = search};
