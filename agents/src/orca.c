/* ORCA's half-planes and the linear programs over them (orca.h). */
#include "orca.h"

#include <math.h>

#define EPSILON 1e-9

static nav__orca_vec v(double x, double z)
{
    return (nav__orca_vec){x, z};
}

static nav__orca_vec add(nav__orca_vec a, nav__orca_vec b)
{
    return v(a.x + b.x, a.z + b.z);
}

static nav__orca_vec sub(nav__orca_vec a, nav__orca_vec b)
{
    return v(a.x - b.x, a.z - b.z);
}

static nav__orca_vec scale(nav__orca_vec a, double s)
{
    return v(a.x * s, a.z * s);
}

static double dot(nav__orca_vec a, nav__orca_vec b)
{
    return a.x * b.x + a.z * b.z;
}

/* The 2D cross product: positive when b turns left of a. */
static double det(nav__orca_vec a, nav__orca_vec b)
{
    return a.x * b.z - a.z * b.x;
}

nav__orca_line nav__orca_line_of(const nav__orca_agent *a, const nav__orca_agent *b, double time_horizon,
                                 double dt, double share)
{
    nav__orca_vec rel_pos = sub(b->position, a->position), rel_vel = sub(a->velocity, b->velocity), u;
    double dist_sq = dot(rel_pos, rel_pos), r = a->radius + b->radius, r_sq = r * r;
    nav__orca_line line;
    if (dist_sq > r_sq) {
        /* apart: the cone of relative velocities that meet within time_horizon, its tip cut off by
         * the disc of radius r / time_horizon around rel_pos / time_horizon */
        double inv_t = 1 / time_horizon;
        nav__orca_vec w = sub(rel_vel, scale(rel_pos, inv_t)); /* from the cut-off disc's centre */
        double w_sq = dot(w, w), along = dot(w, rel_pos);
        if (along < 0 && along * along > r_sq * w_sq) { /* nearest the cut-off disc */
            double w_len = sqrt(w_sq);
            nav__orca_vec unit = scale(w, 1 / w_len);
            line.direction = v(unit.z, -unit.x);
            u = scale(unit, r * inv_t - w_len);
        } else { /* nearest one of the cone's legs */
            double leg = sqrt(dist_sq - r_sq);
            if (det(rel_pos, w) > 0) /* the left leg */
                line.direction =
                    scale(v(rel_pos.x * leg - rel_pos.z * r, rel_pos.x * r + rel_pos.z * leg), 1 / dist_sq);
            else /* the right leg */
                line.direction =
                    scale(v(rel_pos.x * leg + rel_pos.z * r, -rel_pos.x * r + rel_pos.z * leg), -1 / dist_sq);
            u = sub(scale(line.direction, dot(rel_vel, line.direction)), rel_vel);
        }
    } else {
        /* overlapping: apart again within the tick */
        double inv_dt = 1 / dt;
        nav__orca_vec w = sub(rel_vel, scale(rel_pos, inv_dt));
        double w_len = sqrt(dot(w, w));
        nav__orca_vec unit = w_len > 0 ? scale(w, 1 / w_len) : v(1, 0);
        line.direction = v(unit.z, -unit.x);
        u = scale(unit, r * inv_dt - w_len);
    }
    line.point = add(a->velocity, scale(u, share));
    return line;
}

/* On line `at`: the point within the disc of radius max and the half-planes before it, nearest to
 * preferred (or, along_direction, farthest along the direction preferred); false if there is none. */
static bool on_line(const nav__orca_line *lines, uint32_t at, double max, nav__orca_vec preferred,
                    bool along_direction, nav__orca_vec *result)
{
    const nav__orca_line *l = &lines[at];
    double d = dot(l->point, l->direction), disc = d * d + max * max - dot(l->point, l->point);
    if (disc < 0) return false; /* the disc misses the line */
    double root = sqrt(disc), t_left = -d - root, t_right = -d + root;
    for (uint32_t i = 0; i < at; i++) {
        double denominator = det(l->direction, lines[i].direction),
               numerator = det(lines[i].direction, sub(l->point, lines[i].point));
        if (fabs(denominator) <= EPSILON) { /* parallel */
            if (numerator < 0) return false;
            continue;
        }
        double t = numerator / denominator;
        if (denominator >= 0)
            t_right = fmin(t_right, t);
        else
            t_left = fmax(t_left, t);
        if (t_left > t_right) return false;
    }
    double t;
    if (along_direction)
        t = dot(preferred, l->direction) > 0 ? t_right : t_left;
    else
        t = fmin(fmax(dot(l->direction, sub(preferred, l->point)), t_left), t_right);
    *result = add(l->point, scale(l->direction, t));
    return true;
}

/* The 2D program: returns count when *result satisfies every line, else the line it failed at. */
static uint32_t program2(const nav__orca_line *lines, uint32_t count, double max, nav__orca_vec preferred,
                         bool along_direction, nav__orca_vec *result)
{
    if (along_direction)
        *result = scale(preferred, max); /* (preferred is a unit direction) */
    else if (dot(preferred, preferred) > max * max)
        *result = scale(preferred, max / sqrt(dot(preferred, preferred)));
    else
        *result = preferred;
    for (uint32_t i = 0; i < count; i++) {
        if (det(lines[i].direction, sub(lines[i].point, *result)) <= 0) continue; /* (satisfied) */
        nav__orca_vec kept = *result;
        if (!on_line(lines, i, max, preferred, along_direction, result)) {
            *result = kept;
            return i;
        }
    }
    return count;
}

/* The 3D program: from line `from` on, the velocity that least violates the worst line. */
static void program3(const nav__orca_line *lines, uint32_t count, uint32_t from, double max,
                     nav__orca_line *projected, nav__orca_vec *result)
{
    double distance = 0;
    for (uint32_t i = from; i < count; i++) {
        if (det(lines[i].direction, sub(lines[i].point, *result)) <= distance) continue;
        /* the lines before it, seen from it: where each meets it, and the bisecting direction */
        uint32_t n = 0;
        for (uint32_t j = 0; j < i; j++) {
            nav__orca_line line;
            double determinant = det(lines[i].direction, lines[j].direction);
            if (fabs(determinant) <= EPSILON) {
                if (dot(lines[i].direction, lines[j].direction) > 0) continue; /* the same way */
                line.point = scale(add(lines[i].point, lines[j].point), 0.5);
            } else {
                line.point =
                    add(lines[i].point,
                        scale(lines[i].direction,
                              det(lines[j].direction, sub(lines[i].point, lines[j].point)) / determinant));
            }
            nav__orca_vec dir = sub(lines[j].direction, lines[i].direction);
            double len = sqrt(dot(dir, dir));
            line.direction = len > 0 ? scale(dir, 1 / len) : dir;
            projected[n++] = line;
        }
        nav__orca_vec kept = *result;
        if (program2(projected, n, max, v(-lines[i].direction.z, lines[i].direction.x), true, result) < n)
            *result = kept; /* (in principle never: a rounding error) */
        distance = det(lines[i].direction, sub(lines[i].point, *result));
    }
}

nav__orca_vec nav__orca_solve(const nav__orca_line *lines, uint32_t count, double max_speed,
                              nav__orca_vec preferred, nav__orca_line *scratch)
{
    nav__orca_vec result;
    uint32_t failed = program2(lines, count, max_speed, preferred, false, &result);
    if (failed < count) program3(lines, count, failed, max_speed, scratch, &result);
    return result;
}
