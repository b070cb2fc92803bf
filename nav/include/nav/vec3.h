/* nav/vec3.h - the 3D vector of world space: float x, y, z with y up (as Recast, Unity, Godot).
 *
 *     nav_vec3 a = {1, 0, 2}, b = {4, 0, 6};
 *     float d = nav_vec3_dist(a, b);   // 5
 */
#ifndef NAV_VEC3_H
#define NAV_VEC3_H

#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nav_vec3 {
    float x, y, z;
} nav_vec3;

/* A wall near an agent (nav_mesh_find_walls, nav_world_walls): the segment from a to b, the walkable
 * side on its left seen from above with x to the right and z up (a point p on that side has
 * (b.x - a.x)(p.z - a.z) - (b.z - a.z)(p.x - a.x) > 0). */
typedef struct nav_wall {
    nav_vec3 a, b;
} nav_wall;

static inline nav_vec3 nav_vec3_make(float x, float y, float z)
{
    nav_vec3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}
static inline nav_vec3 nav_vec3_add(nav_vec3 a, nav_vec3 b)
{
    return nav_vec3_make(a.x + b.x, a.y + b.y, a.z + b.z);
}
static inline nav_vec3 nav_vec3_sub(nav_vec3 a, nav_vec3 b)
{
    return nav_vec3_make(a.x - b.x, a.y - b.y, a.z - b.z);
}
static inline nav_vec3 nav_vec3_scale(nav_vec3 a, float s)
{
    return nav_vec3_make(a.x * s, a.y * s, a.z * s);
}
static inline float nav_vec3_dot(nav_vec3 a, nav_vec3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
static inline nav_vec3 nav_vec3_cross(nav_vec3 a, nav_vec3 b)
{
    return nav_vec3_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline float nav_vec3_len(nav_vec3 a)
{
    return sqrtf(nav_vec3_dot(a, a));
}
static inline float nav_vec3_dist(nav_vec3 a, nav_vec3 b)
{
    return nav_vec3_len(nav_vec3_sub(a, b));
}
/* Distance in the ground plane (x, z), ignoring height. */
static inline float nav_vec3_dist_xz(nav_vec3 a, nav_vec3 b)
{
    float dx = a.x - b.x, dz = a.z - b.z;
    return sqrtf(dx * dx + dz * dz);
}
/* a + (b - a) * t */
static inline nav_vec3 nav_vec3_lerp(nav_vec3 a, nav_vec3 b, float t)
{
    return nav_vec3_make(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t);
}

#ifdef __cplusplus
}
#endif
#endif
