/* nav/path.h - a path buffer: world points and the node (cell, polygon, waypoint) of each.
 *
 * Planners clear a path and fill it; it grows through its allocator as needed, so one buffer can
 * be reused across queries without new allocations once it is large enough.
 *
 *     nav_path path;
 *     nav_path_init(&path, NULL);
 *     ... nav_grid_find_path(q, NULL, sx, sy, gx, gy, &path, NULL) ...
 *     for (uint32_t i = 0; i < path.count; i++) use(path.points[i], path.nodes[i]);
 *     nav_path_destroy(&path);
 */
#ifndef NAV_PATH_H
#define NAV_PATH_H

#include "nav/core.h"
#include "nav/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nav_path {
    nav_vec3 *points; /* world positions, start first */
    uint32_t *nodes;  /* node of each point: a grid cell index for grid paths */
    uint32_t count, capacity;
    double cost; /* the planner's cost of the path (terrain-weighted) */
    nav_allocator allocator;
} nav_path;

/* Makes an empty path. [in] allocator [opt] copied. Never fails. */
NAV_API void nav_path_init(nav_path *path, const nav_allocator *allocator);
NAV_API void nav_path_destroy(nav_path *path);
/* Empties the path, keeping its memory. */
NAV_API void nav_path_clear(nav_path *path);
/* Makes room for capacity points. Returns NAV_FAILURE | NAV_OUT_OF_MEMORY on failure. */
NAV_API nav_status nav_path_reserve(nav_path *path, uint32_t capacity);
/* Appends a point. Returns NAV_FAILURE | NAV_OUT_OF_MEMORY when the path cannot grow. */
NAV_API nav_status nav_path_push(nav_path *path, nav_vec3 point, uint32_t node);
/* Reverses the order of the points (planners that walk back from the goal use it). */
NAV_API void nav_path_reverse(nav_path *path);
/* Reverses the order of the points from index `first` on (a part just appended by walking back);
 * nothing when first >= count. */
NAV_API void nav_path_reverse_from(nav_path *path, uint32_t first);
/* Sum of the Euclidean lengths of the segments (world units). */
NAV_API double nav_path_length(const nav_path *path);
/* Copies src into dst (dst keeps its own allocator). */
NAV_API nav_status nav_path_copy(nav_path *dst, const nav_path *src);

#ifdef __cplusplus
}
#endif
#endif
