/* nav/scen.h - Moving AI scenario files (.scen): benchmark problems with their optimal lengths.
 *
 * A scenario file starts with "version 1" (or "version 1.0"), then one problem a line:
 * bucket, map, map width, map height, start x, start y, goal x, goal y, optimal length, separated
 * by tabs or spaces. An optimal length of 0 with start != goal marks an unreachable problem.
 *
 *     nav_scen *scen;
 *     if (nav_succeeded(nav_scen_load_file("arena.map.scen", NULL, NULL, &scen))) {
 *         for (uint32_t i = 0; i < scen->count; i++) run(&scen->problems[i]);
 *         nav_scen_destroy(scen);
 *     }
 */
#ifndef NAV_SCEN_H
#define NAV_SCEN_H

#include "nav/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nav_scen_problem {
    int32_t bucket;
    int32_t map_width, map_height;
    int32_t start_x, start_y, goal_x, goal_y;
    double optimal_length; /* 0 with start != goal: unreachable */
    uint32_t line;         /* line in the file, for messages */
} nav_scen_problem;

typedef struct nav_scen {
    nav_scen_problem *problems;
    uint32_t count;
    char *map_name; /* the map column of the first problem (arbitrary paths: pair by file name) */
    nav_allocator allocator;
} nav_scen;

/* Parses a scenario file's text. Errors go to log [opt] as "NAME:LINE: message".
 * Returns NAV_SUCCESS, or NAV_FAILURE with NAV_PARSE_ERROR (bad header, bad field, negative or
 * out-of-range coordinates), NAV_TOO_LARGE or NAV_OUT_OF_MEMORY; *out is null on failure. */
NAV_BAKE_API nav_status nav_scen_load(const char *text, size_t size, const char *name,
                                      const nav_allocator *allocator, const nav_log *log, nav_scen **out);
/* The same from a file, read in pieces (memory for the problems and the longest line, not the
 * file); a path that is not a regular file is refused with NAV_IO_ERROR. Lines longer than 1 MiB
 * are refused in both (NAV_PARSE_ERROR). */
NAV_BAKE_API nav_status nav_scen_load_file(const char *path, const nav_allocator *allocator,
                                           const nav_log *log, nav_scen **out);
NAV_BAKE_API void nav_scen_destroy(nav_scen *scen);

#ifdef __cplusplus
}
#endif
#endif
