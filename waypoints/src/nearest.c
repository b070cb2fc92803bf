/* Nearest waypoints: a k-d tree of the positions built at bake time, searched depth first for the
 * plain nearest and best first (Hjaltason and Samet, "Distance browsing in spatial databases",
 * 1999) for the nearest that passes a test. */
#include <math.h>

#include "alloc.h"
#include "nav/anyangle.h"
#include "waypoints_internal.h"

static inline double coord(nav_vec3 p, unsigned axis)
{
    return axis == 0 ? p.x : axis == 1 ? p.y : p.z;
}

/* Waypoint a before b along axis: by coordinate, then index (a total order, so the tree is the same
 * on every run). */
static inline bool before(const nav_vec3 *pos, unsigned axis, uint32_t a, uint32_t b)
{
    double ca = coord(pos[a], axis), cb = coord(pos[b], axis);
    return ca < cb || (ca == cb && a < b);
}

static inline void swap(uint32_t *v, uint32_t i, uint32_t j)
{
    uint32_t t = v[i];
    v[i] = v[j];
    v[j] = t;
}

/* Reorders v[0 .. n) so that v[k] is the one that sorts k-th along axis, those before it first:
 * quickselect on the median of three. */
static void select_kth(const nav_vec3 *pos, unsigned axis, uint32_t *v, uint32_t n, uint32_t k)
{
    uint32_t lo = 0, hi = n - 1;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (before(pos, axis, v[mid], v[lo])) swap(v, mid, lo);
        if (before(pos, axis, v[hi], v[lo])) swap(v, hi, lo);
        if (before(pos, axis, v[hi], v[mid])) swap(v, hi, mid);
        swap(v, mid, hi); /* the median of the three is the pivot, kept at hi */
        uint32_t pivot = v[hi], store = lo;
        for (uint32_t i = lo; i < hi; i++)
            if (before(pos, axis, v[i], pivot)) swap(v, i, store++);
        swap(v, store, hi);
        if (store == k) return;
        if (store < k)
            lo = store + 1;
        else
            hi = store - 1;
    }
}

/* The left subtree's size in a complete tree of m nodes whose last level fills from the left. */
static uint32_t left_size(uint32_t m)
{
    if (m <= 1) return 0;
    unsigned levels = 31 - (unsigned)__builtin_clz(m); /* full levels below the root's */
    uint32_t last = m - ((1u << levels) - 1), half = 1u << (levels - 1);
    return half - 1 + (last < half ? last : half);
}

/* Node k of the tree over waypoints v[0 .. m): the median along the axis where they spread most. */
static void build(nav_waypoints *wp, uint32_t k, uint32_t *v, uint32_t m)
{
    while (m) {
        double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (uint32_t i = 0; i < m; i++)
            for (unsigned a = 0; a < 3; a++) {
                double c = coord(wp->positions[v[i]], a);
                lo[a] = c < lo[a] ? c : lo[a];
                hi[a] = c > hi[a] ? c : hi[a];
            }
        unsigned axis = 0;
        for (unsigned a = 1; a < 3; a++)
            if (hi[a] - lo[a] > hi[axis] - lo[axis]) axis = a;
        uint32_t left = left_size(m);
        select_kth(wp->positions, axis, v, m, left);
        wp->kd_point[k] = v[left];
        wp->kd_axis[k] = (uint8_t)axis;
        build(wp, 2 * k + 1, v, left);
        /* the right subtree by iteration: recursion depth stays the tree's height */
        k = 2 * k + 2;
        v += left + 1;
        m -= left + 1;
    }
}

nav_status nav__wp_kd_build(nav_waypoints *wp)
{
    uint32_t n = wp->count ? wp->count : 1;
    wp->kd_point = nav__calloc(&wp->allocator, n, sizeof *wp->kd_point);
    wp->kd_axis = nav__calloc(&wp->allocator, n, sizeof *wp->kd_axis);
    uint32_t *order = nav__calloc(&wp->allocator, n, sizeof *order);
    if (!wp->kd_point || !wp->kd_axis || !order) {
        nav__free(&wp->allocator, order);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < wp->count; i++) order[i] = i;
    build(wp, 0, order, wp->count);
    nav__free(&wp->allocator, order);
    return NAV_SUCCESS;
}

static inline double distance2(nav_vec3 a, nav_vec3 b)
{
    double dx = (double)a.x - b.x, dy = (double)a.y - b.y, dz = (double)a.z - b.z;
    return dx * dx + dy * dy + dz * dz;
}

static inline bool finite3(nav_vec3 p)
{
    return isfinite(p.x) && isfinite(p.y) && isfinite(p.z);
}

/* The squared limit of a search: max_distance^2, or INFINITY for 0 (no limit). */
static inline double limit2(double max_distance)
{
    return max_distance > 0 ? max_distance * max_distance : INFINITY;
}

/* Node k's children as seen from point: *near on the point's side of its splitting plane, *far on
 * the other. Returns the far side's bound on squared distance: the plane's, or the node's own
 * (bound2) if that is larger. */
static inline double split(const nav_waypoints *wp, nav_vec3 point, uint32_t k, double bound2, uint32_t *near,
                           uint32_t *far)
{
    unsigned axis = wp->kd_axis[k];
    double diff = coord(point, axis) - coord(wp->positions[wp->kd_point[k]], axis);
    *near = diff < 0 ? 2 * k + 1 : 2 * k + 2;
    *far = diff < 0 ? 2 * k + 2 : 2 * k + 1;
    return diff * diff > bound2 ? diff * diff : bound2;
}

uint32_t nav_waypoints_nearest(const nav_waypoints *wp, nav_vec3 point, double max_distance, double *distance)
{
    if (distance) *distance = INFINITY;
    if (!wp || !wp->count || !finite3(point) || isnan(max_distance)) return NAV_WAYPOINTS_NONE;
    /* depth first, nearer side first; a far side waits with the bound of its splitting plane. The
     * tree is at most 17 levels deep (NAV_WAYPOINTS_LIMIT), and the stack holds one far side a
     * level. */
    typedef struct pending {
        uint32_t node;
        double bound2;
    } pending;
    pending stack[64];
    uint32_t top = 0, best = NAV_WAYPOINTS_NONE, n = wp->count;
    double best2 = limit2(max_distance);
    stack[top++] = (pending){0, 0};
    while (top) {
        pending p = stack[--top];
        /* down the nearer sides while their bound (the popped one's) can still beat the best */
        for (uint32_t k = p.node; k < n && p.bound2 <= best2;) {
            uint32_t i = wp->kd_point[k];
            double d2 = distance2(point, wp->positions[i]);
            if (d2 < best2 || (d2 == best2 && i < best)) best2 = d2, best = i;
            uint32_t near, far;
            double far2 = split(wp, point, k, p.bound2, &near, &far);
            if (far < n && far2 <= best2 && top < sizeof stack / sizeof stack[0])
                stack[top++] = (pending){far, far2};
            k = near;
        }
    }
    if (best != NAV_WAYPOINTS_NONE && distance) *distance = sqrt(best2);
    return best;
}

nav_status nav_waypoints_query_nearest(nav_waypoints_query *q, nav_vec3 point,
                                       const nav_waypoints_nearest_desc *desc, uint32_t *waypoint,
                                       double *distance)
{
    if (waypoint) *waypoint = NAV_WAYPOINTS_NONE;
    if (distance) *distance = INFINITY;
    nav_waypoints_nearest_desc d = desc ? *desc : (nav_waypoints_nearest_desc){0};
    if (!q || !waypoint || !finite3(point) || isnan(d.max_distance)) return NAV_FAILURE | NAV_INVALID_PARAM;
    const nav_waypoints *wp = q->wp;
    double sx = 0, sy = 0;
    if (d.visible) {
        if (!q->grid) return NAV_FAILURE | NAV_INVALID_PARAM;
        nav_grid_world_to_units(q->grid, point, &sx, &sy);
        if (!nav_grid_anyangle_segment(q->grid, sx, sy, sx, sy, NULL)) return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    if (!wp->count) return NAV_FAILURE | NAV_UNREACHABLE;
    /* best first over tree nodes (keyed by a lower bound of their waypoints' distances) and
     * waypoints (keyed by their distance): at equal keys nodes come first (tie 0), then waypoints by
     * index (tie 1), so the first waypoint to pass is the nearest, the lowest index among equals */
    double max2 = limit2(d.max_distance);
    nav_heap *open = &q->near;
    nav_heap_clear(open);
    nav_heap_push(open, nav_heap_key_exact(0), 0, 0);
    while (open->count) {
        nav_heap_entry e = nav_heap_pop(open);
        uint32_t id = nav_heap_entry_id(e);
        if (e.order >> 32) { /* a waypoint, nearest of those left */
            if (!nav__wp_point_open(wp, d.filter, id)) continue;
            if (d.visible &&
                !nav_grid_anyangle_segment(q->grid, sx, sy, wp->corners.x[id], wp->corners.y[id], NULL))
                continue;
            if (d.accept && !d.accept(d.user, id)) continue;
            *waypoint = id;
            if (distance) *distance = sqrt(distance2(point, wp->positions[id]));
            return NAV_SUCCESS;
        }
        uint32_t i = wp->kd_point[id], n = wp->count;
        double bound2, d2 = distance2(point, wp->positions[i]);
        memcpy(&bound2, &e.key, sizeof bound2); /* the key is the bound's bits */
        if (d2 <= max2) nav_heap_push(open, nav_heap_key_exact(d2), 1, i);
        uint32_t near, far;
        double far2 = split(wp, point, id, bound2, &near, &far);
        if (near < n) nav_heap_push(open, nav_heap_key_exact(bound2), 0, near);
        if (far < n && far2 <= max2) nav_heap_push(open, nav_heap_key_exact(far2), 0, far);
    }
    return NAV_FAILURE | NAV_UNREACHABLE;
}
