/* Private: optimal reciprocal collision avoidance (ORCA: van den Berg, Guy, Lin and Manocha,
 * "Reciprocal n-body collision avoidance", 2011; the method of RVO2), in the plane (x, z).
 *
 * Each neighbour B of agent A forbids A the relative velocities that would bring them within
 * rA + rB of each other before time_horizon: the velocity obstacle, a truncated cone. ORCA takes
 * the smallest change u to the relative velocity that leaves that cone and gives A half of it: A's
 * new velocity must lie on the side of the line through vA + u / 2, perpendicular to u, away from
 * the cone (a half-plane). The new velocity is the one closest to the preferred velocity within
 * every half-plane and the disc of A's maximum speed: a 2D linear program solved incrementally
 * (randomisation aside, Seidel's); when the half-planes leave no room (a dense crowd), the velocity
 * that least violates the worst of them (a 3D program over the same lines). */
#ifndef NAV_ORCA_H
#define NAV_ORCA_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct nav__orca_vec {
    double x, z;
} nav__orca_vec;

/* A half-plane: the velocities v with det(direction, v - point) <= 0 (left of the directed line). */
typedef struct nav__orca_line {
    nav__orca_vec point, direction; /* direction: unit */
} nav__orca_line;

/* What ORCA knows of an agent for one tick. */
typedef struct nav__orca_agent {
    nav__orca_vec position, velocity;
    double radius;
} nav__orca_agent;

/* The half-plane neighbour b leaves agent a: a's share (a half when b avoids a too, all of it when b
 * stands) of avoiding b within time_horizon seconds (or, when they overlap already, within the
 * tick dt), given as inv_t = 1 / time_horizon and inv_dt = 1 / dt. (Here, to be inlined: an agent
 * takes one a neighbour, each tick.) */
static inline nav__orca_line nav__orca_line_of(const nav__orca_agent *a, const nav__orca_agent *b,
                                               double inv_t, double inv_dt, double share)
{
    double px = b->position.x - a->position.x, pz = b->position.z - a->position.z, /* where b is, */
        vx = a->velocity.x - b->velocity.x, vz = a->velocity.z - b->velocity.z,    /* how a comes on */
        dist_sq = px * px + pz * pz, r = a->radius + b->radius, r_sq = r * r, ux, uz;
    nav__orca_line line;
    if (dist_sq > r_sq) {
        /* apart: the cone of relative velocities that meet within the time horizon, its tip cut off
         * by the disc of radius r * inv_t around (px, pz) * inv_t */
        double wx = vx - px * inv_t, wz = vz - pz * inv_t; /* from the cut-off disc's centre */
        double w_sq = wx * wx + wz * wz, along = wx * px + wz * pz;
        if (along < 0 && along * along > r_sq * w_sq) { /* nearest the cut-off disc */
            double w_len = sqrt(w_sq), inv_len = 1 / w_len, unit_x = wx * inv_len, unit_z = wz * inv_len,
                   out = r * inv_t - w_len;
            line.direction = (nav__orca_vec){unit_z, -unit_x};
            ux = unit_x * out, uz = unit_z * out;
        } else { /* nearest one of the cone's legs */
            double leg = sqrt(dist_sq - r_sq);
            if (px * wz - pz * wx > 0) { /* the left leg */
                double s = 1 / dist_sq;
                line.direction = (nav__orca_vec){(px * leg - pz * r) * s, (px * r + pz * leg) * s};
            } else { /* the right leg */
                double s = -1 / dist_sq;
                line.direction = (nav__orca_vec){(px * leg + pz * r) * s, (-px * r + pz * leg) * s};
            }
            double along_leg = vx * line.direction.x + vz * line.direction.z;
            ux = line.direction.x * along_leg - vx, uz = line.direction.z * along_leg - vz;
        }
    } else {
        /* overlapping: apart again within the tick */
        double wx = vx - px * inv_dt, wz = vz - pz * inv_dt, w_len = sqrt(wx * wx + wz * wz), unit_x = 1,
               unit_z = 0;
        if (w_len > 0) {
            double inv_len = 1 / w_len;
            unit_x = wx * inv_len, unit_z = wz * inv_len;
        }
        double out = r * inv_dt - w_len;
        line.direction = (nav__orca_vec){unit_z, -unit_x};
        ux = unit_x * out, uz = unit_z * out;
    }
    line.point = (nav__orca_vec){a->velocity.x + ux * share, a->velocity.z + uz * share};
    return line;
}

/* The half-plane a wall from `from` to `to` (the agent's side on its left: nav_wall's) leaves agent a
 * to keep its centre `clearance` from it within time_horizon seconds (RVO2's obstacles, each wall on
 * its own: both ends taken as convex corners). False when it leaves none: a wall the agent is
 * behind, or one the lines[0 .. count) of walls before it keep it clear of already. */
bool nav__orca_wall_line(const nav__orca_agent *a, nav__orca_vec from, nav__orca_vec to, double clearance,
                         double time_horizon, const nav__orca_line *lines, uint32_t count,
                         nav__orca_line *out);

/* The velocity within max_speed and every half-plane (lines[0 .. count), nearest to preferred; when
 * no velocity lies in them all, the one that least violates the worst of lines[hard ..) within the
 * first `hard` (walls': never given up). scratch: room for count lines (the 3D program's
 * projections). */
nav__orca_vec nav__orca_solve(const nav__orca_line *lines, uint32_t count, uint32_t hard, double max_speed,
                              nav__orca_vec preferred, nav__orca_line *scratch);

#endif
