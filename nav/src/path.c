/* Path buffers. */
#include "nav/path.h"

#include <string.h>

#include "alloc.h"

void nav_path_init(nav_path *path, const nav_allocator *allocator)
{
    *path = (nav_path){0};
    nav__allocator_resolve(&path->allocator, allocator);
}

void nav_path_destroy(nav_path *path)
{
    if (!path) return;
    nav__free(&path->allocator, path->points);
    nav__free(&path->allocator, path->nodes);
    path->points = NULL;
    path->nodes = NULL;
    path->count = path->capacity = 0;
}

void nav_path_clear(nav_path *path)
{
    path->count = 0;
    path->cost = 0;
}

nav_status nav_path_reserve(nav_path *path, uint32_t capacity)
{
    if (capacity <= path->capacity) return NAV_SUCCESS;
    nav_vec3 *points = nav__realloc(&path->allocator, path->points, path->capacity * sizeof *points,
                                    nav__mul_size(capacity, sizeof *points));
    if (!points) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    path->points = points;
    uint32_t *nodes = nav__realloc(&path->allocator, path->nodes, path->capacity * sizeof *nodes,
                                   nav__mul_size(capacity, sizeof *nodes));
    if (!nodes) return NAV_FAILURE | NAV_OUT_OF_MEMORY; /* points grew; capacity stays the old one */
    path->nodes = nodes;
    path->capacity = capacity;
    return NAV_SUCCESS;
}

nav_status nav_path_push(nav_path *path, nav_vec3 point, uint32_t node)
{
    if (path->count == path->capacity) {
        uint32_t grown = path->capacity < 16 ? 16 : path->capacity + path->capacity / 2;
        if (grown < path->capacity) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
        nav_status s = nav_path_reserve(path, grown);
        if (nav_failed(s)) return s;
    }
    path->points[path->count] = point;
    path->nodes[path->count] = node;
    path->count++;
    return NAV_SUCCESS;
}

void nav_path_reverse(nav_path *path)
{
    nav_path_reverse_from(path, 0);
}

void nav_path_reverse_from(nav_path *path, uint32_t first)
{
    for (uint32_t i = first, j = path->count ? path->count - 1 : 0; i < j; i++, j--) {
        nav_vec3 p = path->points[i];
        path->points[i] = path->points[j];
        path->points[j] = p;
        uint32_t n = path->nodes[i];
        path->nodes[i] = path->nodes[j];
        path->nodes[j] = n;
    }
}

double nav_path_length(const nav_path *path)
{
    double length = 0;
    for (uint32_t i = 1; i < path->count; i++) length += nav_vec3_dist(path->points[i - 1], path->points[i]);
    return length;
}

nav_status nav_path_copy(nav_path *dst, const nav_path *src)
{
    nav_status s = nav_path_reserve(dst, src->count);
    if (nav_failed(s)) return s;
    if (src->count) {
        memcpy(dst->points, src->points, src->count * sizeof *src->points);
        memcpy(dst->nodes, src->nodes, src->count * sizeof *src->nodes);
    }
    dst->count = src->count;
    dst->cost = src->cost;
    return NAV_SUCCESS;
}
