/* Private: the baked waypoint tables (bake.c builds them, query.c reads them). */
#ifndef NAV_WAYPOINTS_INTERNAL_H
#define NAV_WAYPOINTS_INTERNAL_H

#include <string.h>

#include "nav/waypoints.h"

#define NAV__NO_HOP UINT16_MAX /* a next hop of "no route" (so NAV_WAYPOINTS_LIMIT is 65535) */

/* Flat arrays, each its own allocation. Arcs are the links taken one way (a two-way link makes
 * two), grouped by their from waypoint and sorted within it by (to, cost, link): the first arc
 * from u to v that is not disabled is the cheapest way from u to v. */
struct nav_waypoints {
    nav_allocator allocator;
    uint32_t count;
    nav_vec3 *positions;
    uint32_t *tags;
    uint32_t *name_at; /* per waypoint: where its name starts in names ("" at 0 for none) */
    char *names;       /* NUL-terminated names, one after another */
    size_t names_bytes;
    uint32_t *by_name; /* the named waypoints, by strcmp of their names */
    uint32_t named_count;
    uint32_t link_count; /* of the source graph */
    uint32_t arc_count;
    uint32_t *arc_first; /* count + 1 entries: the arcs from u are arc_first[u] .. arc_first[u + 1] */
    uint32_t *arc_to;
    double *arc_cost;
    uint16_t *arc_flags;
    uint8_t *arc_disabled;
    uint32_t *arc_link; /* the source link of each arc */
    /* the tables, row `from`, column `to` */
    float *dist;   /* INFINITY: no route */
    uint16_t *hop; /* NAV__NO_HOP: no route */
};

/* A valid name: 1 to NAV_WAYPOINT_NAME_MAX bytes, none a blank or control character (the text
 * format splits words at blanks). */
static inline bool nav__waypoint_name_ok(const char *name, size_t length)
{
    if (length == 0 || length > NAV_WAYPOINT_NAME_MAX) return false;
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c <= ' ' || c == 0x7f) return false;
    }
    return true;
}

#endif
