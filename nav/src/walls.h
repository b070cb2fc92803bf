/* Private: the walls near a point that an agent's avoidance keeps clear of (nav_mesh_find_walls,
 * the world's grid kinds), kept nearest first. */
#ifndef NAV_SRC_WALLS_H
#define NAV_SRC_WALLS_H

#include <stdbool.h>
#include <stdint.h>

#include "nav/vec3.h"

/* The point of the segment from (ax, az) to (bx, bz) nearest (x, z), into (*qx, *qz); its distance. */
double nav__segment_nearest(double x, double z, double ax, double az, double bx, double bz, double *qx,
                            double *qz);

/* The distance from (x, z) to the segment from (ax, az) to (bx, bz). */
double nav__segment_distance(double x, double z, double ax, double az, double bx, double bz);

/* The distance (seen from above) from (x, z) to wall w. */
double nav__wall_distance(nav_wall w, double x, double z);

/* Wall w into out's first *n, nearest (x, z) first (ties: the one there first), at most capacity of
 * them: joined first to any it continues in one line (end to start, the same way), as often as it
 * can be; *more set when one had to be left out. */
void nav__keep_wall(nav_wall w, double x, double z, nav_wall *out, uint32_t capacity, uint32_t *n,
                    bool *more);

#endif
