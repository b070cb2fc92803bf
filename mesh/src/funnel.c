/* The funnel algorithm: the shortest path through a corridor of portals (Lee and Preparata's
 * funnel, in the form of Mikko Mononen's "Simple Stupid Funnel Algorithm", 2010). The funnel is
 * an apex and two sides through the left and right ends of the portals seen so far; each new
 * portal narrows a side, and when one side crosses the other, the end point it crossed becomes a
 * corner of the path and the new apex. Exact on grid meshes: every cross product of grid corners
 * and cell centres is computed without rounding. */
#include <math.h>

#include "mesh_internal.h"

/* The parameter along a -> b where it crosses the line of portal p (clamped to 0..1). */
static double crossing(const nav__portal *p, double ax, double az, double bx, double bz)
{
    double da = nav__cross(p->right_x, p->right_z, p->left_x, p->left_z, ax, az);
    double db = nav__cross(p->right_x, p->right_z, p->left_x, p->left_z, bx, bz);
    if (da == db) return 0;
    double t = da / (da - db);
    return t < 0 ? 0 : (t > 1 ? 1 : t);
}

/* Cost of the segment a -> b that starts in corridor[from] and ends on portal `to` (or, for the
 * last, at the goal): its length in each polygon between times that polygon's cost. */
static double segment_cost(const nav__portal *portals, const double *area_cost, uint32_t from, uint32_t to,
                           double ax, double az, double bx, double bz)
{
    double length = nav__length(bx - ax, bz - az);
    if (!area_cost) return length;
    double total = 0, t_in = 0;
    for (uint32_t i = from; i < to; i++) {
        double t = crossing(&portals[i], ax, az, bx, bz);
        if (t < t_in) t = t_in;
        total += (t - t_in) * length * area_cost[i];
        t_in = t;
    }
    return total + (1 - t_in) * length * area_cost[to];
}

/* Appends a corner unless it is the point before (an apex that had not moved yet). */
static bool add_corner(nav_path *out, uint8_t *flags, double x, float y, double z, uint32_t poly)
{
    nav_vec3 last = out->points[out->count - 1];
    if ((double)last.x == x && (double)last.z == z) return true;
    if (nav_failed(nav_path_push(out, nav_vec3_make((float)x, y, (float)z), poly))) return false;
    flags[out->count - 1] = NAV_MESH_POINT_CORNER;
    return true;
}

nav_status nav__funnel(nav_vec3 start, const nav__portal *portals, const uint32_t *corridor,
                       const double *area_cost, uint32_t count, nav_path *out, uint8_t *flags, double *cost)
{
    *cost = 0;
    if (nav_failed(nav_path_push(out, start, corridor[0]))) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    flags[out->count - 1] = NAV_MESH_POINT_START;
    double apex_x = start.x, apex_z = start.z;
    double left_x = apex_x, left_z = apex_z, right_x = apex_x, right_z = apex_z;
    uint32_t apex_at = 0; /* the corridor polygon the apex lies in (for a corner: the one after it) */
    uint32_t left_at = 0, right_at = 0;
    float left_y = start.y, right_y = start.y;
    for (uint32_t i = 0; i < count; i++) {
        nav__portal p = portals[i];
        int view = nav__portal_view(apex_x, apex_z, p.right_x, p.right_z, p.left_x, p.left_z);
        if (view == NAV__SEES_ON && i + 1 < count) {
            /* the apex lies in the next polygon too and sees all of it: the funnel starts afresh
             * (narrowed to the portal's two ends, its sides would point opposite ways, and the
             * next portal's end on the line would look like a crossing) */
            left_x = right_x = apex_x;
            left_z = right_z = apex_z;
            left_at = right_at = i;
            apex_at = i + 1;
            continue;
        }
        /* a portal on a line through the apex counts as its near end */
        if (view == NAV__SEES_U) p.left_x = p.right_x, p.left_z = p.right_z, p.left_y = p.right_y;
        if (view == NAV__SEES_W) p.right_x = p.left_x, p.right_z = p.left_z, p.right_y = p.left_y;
        /* the right side: narrow it when the new right end lies inside the funnel */
        if (nav__cross(apex_x, apex_z, right_x, right_z, p.right_x, p.right_z) >= 0) {
            if ((apex_x == right_x && apex_z == right_z) ||
                nav__cross(apex_x, apex_z, left_x, left_z, p.right_x, p.right_z) < 0) {
                right_x = p.right_x;
                right_z = p.right_z;
                right_y = p.right_y;
                right_at = i;
            } else {
                /* the right end crosses the left side: the left end is a corner (unless it is the goal) */
                if (left_at + 1 == count) break;
                *cost += segment_cost(portals, area_cost, apex_at, left_at, apex_x, apex_z, left_x, left_z);
                if (!add_corner(out, flags, left_x, left_y, left_z, corridor[left_at + 1]))
                    return NAV_FAILURE | NAV_OUT_OF_MEMORY;
                apex_x = right_x = left_x;
                apex_z = right_z = left_z;
                right_y = left_y;
                apex_at = left_at + 1;
                right_at = left_at;
                i = left_at; /* the loop moves on to the portal after the corner's */
                continue;
            }
        }
        /* the left side, the same way round */
        if (nav__cross(apex_x, apex_z, left_x, left_z, p.left_x, p.left_z) <= 0) {
            if ((apex_x == left_x && apex_z == left_z) ||
                nav__cross(apex_x, apex_z, right_x, right_z, p.left_x, p.left_z) > 0) {
                left_x = p.left_x;
                left_z = p.left_z;
                left_y = p.left_y;
                left_at = i;
            } else {
                if (right_at + 1 == count) break;
                *cost +=
                    segment_cost(portals, area_cost, apex_at, right_at, apex_x, apex_z, right_x, right_z);
                if (!add_corner(out, flags, right_x, right_y, right_z, corridor[right_at + 1]))
                    return NAV_FAILURE | NAV_OUT_OF_MEMORY;
                apex_x = left_x = right_x;
                apex_z = left_z = right_z;
                left_y = right_y;
                apex_at = right_at + 1;
                left_at = right_at;
                i = right_at;
                continue;
            }
        }
    }
    const nav__portal *goal = &portals[count - 1];
    *cost += segment_cost(portals, area_cost, apex_at, count - 1, apex_x, apex_z, goal->left_x, goal->left_z);
    if (nav_failed(nav_path_push(out, nav_vec3_make((float)goal->left_x, goal->left_y, (float)goal->left_z),
                                 corridor[count - 1])))
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    flags[out->count - 1] = NAV_MESH_POINT_END; /* a path of one point is start and end */
    return NAV_SUCCESS;
}
