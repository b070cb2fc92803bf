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
 * tick dt). */
nav__orca_line nav__orca_line_of(const nav__orca_agent *a, const nav__orca_agent *b, double time_horizon,
                                 double dt, double share);

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
