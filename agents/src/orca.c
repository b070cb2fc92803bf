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

/* The lesser and the greater of two numbers, neither a NaN (fmin and fmax are calls, not inlined,
 * for their NaN rules). */
static double lesser(double a, double b)
{
    return a < b ? a : b;
}

static double greater(double a, double b)
{
    return a > b ? a : b;
}

/* The normalised vector (a zero vector stays zero). */
static nav__orca_vec unit_of(nav__orca_vec a)
{
    double len = sqrt(dot(a, a));
    return len > 0 ? scale(a, 1 / len) : a;
}

/* The legs of the cone of velocities towards the disc of radius r round the point rel (relative to
 * the agent, farther than r): the left one and the right one, as unit directions. */
static void legs_of(nav__orca_vec rel, double r, nav__orca_vec *left, nav__orca_vec *right)
{
    double dist_sq = dot(rel, rel), leg = sqrt(fmax(dist_sq - r * r, 0));
    *left = scale(v(rel.x * leg - rel.z * r, rel.x * r + rel.z * leg), 1 / dist_sq);
    *right = scale(v(rel.x * leg + rel.z * r, -rel.x * r + rel.z * leg), 1 / dist_sq);
}

bool nav__orca_wall_line(const nav__orca_agent *a, nav__orca_vec from, nav__orca_vec to, double clearance,
                         double time_horizon, const nav__orca_line *lines, uint32_t count,
                         nav__orca_line *out)
{
    /* RVO2's obstacle with its first point `to` and its second `from` (the agent on its right) */
    nav__orca_vec p1 = to, p2 = from, rel1 = sub(p1, a->position), rel2 = sub(p2, a->position),
                  dir = unit_of(sub(p2, p1)), vel = a->velocity;
    if (det(sub(to, from), sub(a->position, from)) <= 0) return false; /* behind it, or on its line */
    double inv_t = 1 / time_horizon, r = clearance, r_sq = r * r;
    /* kept clear of already by the walls' lines before it */
    for (uint32_t j = 0; j < count; j++)
        if (det(sub(scale(rel1, inv_t), lines[j].point), lines[j].direction) - inv_t * r >= -EPSILON &&
            det(sub(scale(rel2, inv_t), lines[j].point), lines[j].direction) - inv_t * r >= -EPSILON)
            return false;
    double dist_sq1 = dot(rel1, rel1), dist_sq2 = dot(rel2, rel2);
    nav__orca_vec wall = sub(p2, p1);
    double s = -dot(rel1, wall) / dot(wall, wall),
           dist_sq_line = dot(sub(scale(rel1, -1), scale(wall, s)), sub(scale(rel1, -1), scale(wall, s)));
    /* touching it already: away from the point or the wall touched, whatever the velocity */
    if (s < 0 && dist_sq1 <= r_sq) {
        *out = (nav__orca_line){v(0, 0), unit_of(v(-rel1.z, rel1.x))};
        return true;
    }
    if (s > 1 && dist_sq2 <= r_sq) {
        *out = (nav__orca_line){v(0, 0), unit_of(v(-rel2.z, rel2.x))};
        return true;
    }
    if (s >= 0 && s < 1 && dist_sq_line <= r_sq) {
        *out = (nav__orca_line){v(0, 0), scale(dir, -1)};
        return true;
    }
    /* the cone's legs: from both ends, or both from one end when it is seen end on */
    nav__orca_vec left, right, unused;
    bool one_end = false;
    if (s < 0 && dist_sq_line <= r_sq) {
        p2 = p1, one_end = true;
        legs_of(rel1, r, &left, &right);
    } else if (s > 1 && dist_sq_line <= r_sq) {
        p1 = p2, one_end = true;
        legs_of(rel2, r, &left, &right);
    } else {
        legs_of(rel1, r, &left, &unused);
        legs_of(rel2, r, &unused, &right);
    }
    /* the cut-off: the wall's points over the time horizon */
    nav__orca_vec left_cut = scale(sub(p1, a->position), inv_t),
                  right_cut = scale(sub(p2, a->position), inv_t), cut = sub(right_cut, left_cut);
    double t = one_end ? 0.5 : dot(sub(vel, left_cut), cut) / dot(cut, cut),
           t_left = dot(sub(vel, left_cut), left), t_right = dot(sub(vel, right_cut), right);
    if ((t < 0 && t_left < 0) || (one_end && t_left < 0 && t_right < 0)) { /* the left cut-off circle */
        nav__orca_vec w = unit_of(sub(vel, left_cut));
        *out = (nav__orca_line){add(left_cut, scale(w, r * inv_t)), v(w.z, -w.x)};
        return true;
    }
    if (t > 1 && t_right < 0) { /* the right one */
        nav__orca_vec w = unit_of(sub(vel, right_cut));
        *out = (nav__orca_line){add(right_cut, scale(w, r * inv_t)), v(w.z, -w.x)};
        return true;
    }
    /* the nearest of the cut-off line and the legs */
    double d_cut = t < 0 || t > 1 || one_end
                       ? INFINITY
                       : dot(sub(vel, add(left_cut, scale(cut, t))), sub(vel, add(left_cut, scale(cut, t)))),
           d_left = t_left < 0 ? INFINITY
                               : dot(sub(vel, add(left_cut, scale(left, t_left))),
                                     sub(vel, add(left_cut, scale(left, t_left)))),
           d_right = t_right < 0 ? INFINITY
                                 : dot(sub(vel, add(right_cut, scale(right, t_right))),
                                       sub(vel, add(right_cut, scale(right, t_right))));
    nav__orca_vec d, at;
    if (d_cut <= d_left && d_cut <= d_right)
        d = scale(dir, -1), at = left_cut;
    else if (d_left <= d_right)
        d = left, at = left_cut;
    else
        d = scale(right, -1), at = right_cut;
    *out = (nav__orca_line){add(at, scale(v(-d.z, d.x), r * inv_t)), d};
    return true;
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
            t_right = lesser(t_right, t);
        else
            t_left = greater(t_left, t);
        if (t_left > t_right) return false;
    }
    double t;
    if (along_direction)
        t = dot(preferred, l->direction) > 0 ? t_right : t_left;
    else
        t = lesser(greater(dot(l->direction, sub(preferred, l->point)), t_left), t_right);
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

/* The 3D program: from line `from` on, the velocity that least violates the worst line, the first
 * `hard` lines (walls') kept to. */
static void program3(const nav__orca_line *lines, uint32_t count, uint32_t hard, uint32_t from, double max,
                     nav__orca_line *projected, nav__orca_vec *result)
{
    double distance = 0;
    for (uint32_t i = from; i < count; i++) {
        if (det(lines[i].direction, sub(lines[i].point, *result)) <= distance) continue;
        /* the hard lines as they are; the others before it, seen from it: where each meets it, and
         * the bisecting direction */
        uint32_t n = 0;
        for (uint32_t j = 0; j < hard; j++) projected[n++] = lines[j];
        for (uint32_t j = hard; j < i; j++) {
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

nav__orca_vec nav__orca_solve(const nav__orca_line *lines, uint32_t count, uint32_t hard, double max_speed,
                              nav__orca_vec preferred, nav__orca_line *scratch)
{
    nav__orca_vec result;
    uint32_t failed = program2(lines, count, max_speed, preferred, false, &result);
    if (failed < count) program3(lines, count, hard, failed, max_speed, scratch, &result);
    return result;
}
