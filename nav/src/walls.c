/* The walls near a point, kept nearest first (walls.h). */
#include "walls.h"

#include <math.h>

double nav__segment_nearest(double x, double z, double ax, double az, double bx, double bz, double *qx,
                            double *qz)
{
    double ex = bx - ax, ez = bz - az, len2 = ex * ex + ez * ez;
    double s = len2 > 0 ? ((x - ax) * ex + (z - az) * ez) / len2 : 0;
    s = s < 0 ? 0 : (s > 1 ? 1 : s);
    *qx = ax + ex * s, *qz = az + ez * s;
    double dx = *qx - x, dz = *qz - z;
    return sqrt(dx * dx + dz * dz); /* (not hypot: libm's guard against overflow, slow, is not needed) */
}

double nav__segment_distance(double x, double z, double ax, double az, double bx, double bz)
{
    double qx, qz;
    return nav__segment_nearest(x, z, ax, az, bx, bz, &qx, &qz);
}

double nav__wall_distance(nav_wall w, double x, double z)
{
    return nav__segment_distance(x, z, w.a.x, w.a.z, w.b.x, w.b.z);
}

static bool same_point(nav_vec3 a, nav_vec3 b)
{
    return a.x == b.x && a.y == b.y && a.z == b.z;
}

/* Whether walls w and v go the same way in one line (within the floats' rounding). */
static bool in_line(nav_wall w, nav_wall v)
{
    double ex = (double)w.b.x - w.a.x, ez = (double)w.b.z - w.a.z, fx = (double)v.b.x - v.a.x,
           fz = (double)v.b.z - v.a.z;
    return ex * fx + ez * fz > 0 &&
           fabs(ex * fz - ez * fx) <= 1e-6 * sqrt((ex * ex + ez * ez) * (fx * fx + fz * fz));
}

void nav__keep_wall(nav_wall w, double x, double z, nav_wall *out, uint32_t capacity, uint32_t *n, bool *more)
{
    for (uint32_t k = 0; k < *n; k++) {
        nav_wall v = out[k];
        bool after = same_point(v.b, w.a), before = same_point(w.b, v.a);
        if ((after || before) && in_line(v, w)) { /* joined: taken out, and looked at again from the start */
            w = after ? (nav_wall){v.a, w.b} : (nav_wall){w.a, v.b};
            for (uint32_t j = k; j + 1 < *n; j++) out[j] = out[j + 1];
            (*n)--;
            k = UINT32_MAX; /* (the loop's k++ makes it 0) */
        }
    }
    double d = nav__wall_distance(w, x, z);
    uint32_t at = *n;
    while (at > 0 && nav__wall_distance(out[at - 1], x, z) > d) at--;
    if (at >= capacity) {
        *more = true;
        return;
    }
    if (*n == capacity) *more = true;
    uint32_t last = *n < capacity ? *n : capacity - 1;
    for (uint32_t j = last; j > at; j--) out[j] = out[j - 1];
    out[at] = w;
    if (*n < capacity) (*n)++;
}
