/* Locating points on the mesh: the polygon a world point lies on, or the nearest within a box round
 * it (nav/mesh.h, "Locating points").
 *
 * The rule is Detour's findNearestPoly: a polygon under or over the point is as far as the point's
 * height off its floor, less a tolerance; any other polygon is as far as its nearest point in 3D.
 * Without the tolerance (pure 3D distance) an agent standing over a low floor beside a step up
 * would go to the step; without the 3D distance (a polygon under the point first, at any height) a
 * point in a pillar of an upper floor went to the floor under it, 3 to 17 m down (issue 43). A
 * grid's mesh has one floor over each ground point: there any height is within the tolerance, and
 * the polygon under the point is its polygon. */
#include <math.h>

#include "mesh_internal.h"

nav_vec3 nav_mesh_default_half_extents(const nav_mesh *mesh)
{
    if (!mesh) return nav_vec3_make(0, 0, 0);
    if (nav__mesh_is_level(mesh))
        return nav_vec3_make(NAV_MESH_LEVEL_HALF_EXTENT_XZ, NAV_MESH_LEVEL_HALF_EXTENT_Y,
                             NAV_MESH_LEVEL_HALF_EXTENT_XZ);
    return nav_vec3_make(mesh->cell_size, INFINITY, mesh->cell_size);
}

bool nav_mesh_poly_contains(const nav_mesh *mesh, uint32_t poly, nav_vec3 point, float *height)
{
    if (!mesh || poly >= mesh->poly_count) return false;
    if (!nav__mesh_poly_contains_xz(mesh, poly, point.x, point.z)) return false;
    if (height) *height = nav__mesh_poly_height(mesh, poly, point.x, point.z);
    return true;
}

/* The best polygon so far: the least distance, then the floor nearest in height, then the lower
 * index (buckets list polygons in order, but a polygon is met in each bucket it overlaps). */
typedef struct nearest_poly {
    double distance2, dy;
    uint32_t poly;
    double x, z;
} nearest_poly;

static void consider(nearest_poly *best, uint32_t p, double distance2, double dy, double x, double z)
{
    if (distance2 < best->distance2 ||
        (distance2 == best->distance2 && (dy < best->dy || (dy == best->dy && p < best->poly))))
        *best = (nearest_poly){distance2, dy, p, x, z};
}

uint32_t nav__mesh_nearest(const nav_mesh *m, double x, double y, double z, double ex, double ey, double ez,
                           nav_vec3 *nearest, double *distance2)
{
    nearest_poly best = {INFINITY, INFINITY, NAV_MESH_NO_POLY, 0, 0};
    /* A polygon that holds the point is listed in the point's own bucket (its bounds hold the
     * point): those first. One the point stands on (distance 0) cannot be beaten by one beside it. */
    uint32_t own =
        nav__mesh_bucket_coord((float)z, m->bounds_min[2], m->bucket_size, m->bucket_h) * m->bucket_w +
        nav__mesh_bucket_coord((float)x, m->bounds_min[0], m->bucket_size, m->bucket_w);
    for (uint32_t i = m->bucket_first[own]; i < m->bucket_first[own + 1]; i++) {
        uint32_t p = m->bucket_polys[i];
        if (!nav__mesh_poly_contains_xz(m, p, x, z)) continue;
        double dy, d2 = nav__mesh_over_distance2(m, p, x, y, z, &dy);
        if (dy <= ey) consider(&best, p, d2, dy, x, z);
    }
    if (best.distance2 > 0) {
        uint32_t bx0 = nav__mesh_bucket_coord((float)(x - ex), m->bounds_min[0], m->bucket_size, m->bucket_w);
        uint32_t bx1 = nav__mesh_bucket_coord((float)(x + ex), m->bounds_min[0], m->bucket_size, m->bucket_w);
        uint32_t bz0 = nav__mesh_bucket_coord((float)(z - ez), m->bounds_min[2], m->bucket_size, m->bucket_h);
        uint32_t bz1 = nav__mesh_bucket_coord((float)(z + ez), m->bounds_min[2], m->bucket_size, m->bucket_h);
        for (uint32_t bz = bz0; bz <= bz1; bz++)
            for (uint32_t bx = bx0; bx <= bx1; bx++) {
                uint32_t b = bz * m->bucket_w + bx;
                for (uint32_t i = m->bucket_first[b]; i < m->bucket_first[b + 1]; i++) {
                    uint32_t p = m->bucket_polys[i];
                    double cx, cz;
                    nav__mesh_poly_closest_xz(m, p, x, z, &cx, &cz);
                    if (fabs(cx - x) > ex || fabs(cz - z) > ez) continue;
                    double dy, d2;
                    if (cx == x && cz == z) {
                        d2 = nav__mesh_over_distance2(m, p, x, y, z, &dy);
                    } else {
                        dy = fabs((double)nav__mesh_poly_height(m, p, cx, cz) - y);
                        d2 = (cx - x) * (cx - x) + (cz - z) * (cz - z) + dy * dy;
                    }
                    if (dy <= ey) consider(&best, p, d2, dy, cx, cz);
                }
            }
    }
    *distance2 = best.distance2;
    if (best.poly != NAV_MESH_NO_POLY)
        *nearest =
            nav_vec3_make((float)best.x, nav__mesh_poly_height(m, best.poly, best.x, best.z), (float)best.z);
    return best.poly;
}

nav_status nav_mesh_locate(const nav_mesh *m, nav_vec3 point, nav_vec3 half_extents, uint32_t *poly,
                           nav_vec3 *nearest)
{
    if (!m || !poly || !isfinite(point.x) || !isfinite(point.y) || !isfinite(point.z) ||
        !isfinite(half_extents.x) || !isfinite(half_extents.y) || !isfinite(half_extents.z))
        return NAV_FAILURE | NAV_INVALID_PARAM;
    *poly = NAV_MESH_NO_POLY;
    if (m->poly_count == 0) return NAV_FAILURE | NAV_UNREACHABLE;
    nav_vec3 box = nav_mesh_default_half_extents(m);
    double ex = half_extents.x > 0 ? half_extents.x : box.x;
    double ey = half_extents.y > 0 ? half_extents.y : box.y;
    double ez = half_extents.z > 0 ? half_extents.z : box.z;
    nav_vec3 at;
    double distance2;
    *poly = nav__mesh_nearest(m, point.x, point.y, point.z, ex, ey, ez, &at, &distance2);
    if (*poly == NAV_MESH_NO_POLY) return NAV_FAILURE | NAV_UNREACHABLE;
    if (nearest) *nearest = at;
    return NAV_SUCCESS;
}
