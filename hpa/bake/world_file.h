/* Private: the JSON world file loader's state and its readers of JSON values, shared by
 * world_file.c (the file, its links and join) and world_file_region.c (a region and its source).
 * A reader's failure is logged as "FILE: JSON.path: what was expected" and returned. */
#ifndef NAV_HPA_BAKE_WORLD_FILE_H
#define NAV_HPA_BAKE_WORLD_FILE_H

#include <cjson/cJSON.h>

#include "log.h"
#include "world_internal.h"

#define NAV__WORLD_FILE_PATH_ROOM 4096

/* How far (vertically) a link's end may lie from its region's floor: an agent's height, RecastDemo's
 * 2 world units, unless a level's own "height" says otherwise. Further is no place an agent stands
 * on that floor: it is a height copied from the link's other end, or the wrong region named. */
#define NAV__WORLD_FILE_FLOOR_REACH 2.0f

/* A region over a grid source (a grid, or a mesh made from one), for the check of storeys: the
 * ground its cells cover in world x and z, and its origin's height. */
typedef struct nav__world_file_ground {
    double x0, z0, x1, z1;
    float y, half_cell;
    uint32_t region;  /* its index in "regions" (and in the builder) */
    const char *name; /* (in the JSON tree) */
} nav__world_file_ground;

typedef struct nav__world_file {
    const char *name; /* of the file, for messages */
    const char *dir;  /* sources are found relative to it ("" : the working folder) */
    nav_log log;
    nav_allocator allocator;
    nav_world_builder *builder;
    uint32_t threads;                /* of a level's mesh build (the world bake's) */
    float *floor_reach;              /* a region's: how far from its floor a link's end may be (0: any) */
    nav__world_file_ground *grounds; /* the regions over grid sources, in order */
    uint32_t ground_count;
} nav__world_file;

/* A JSON path for messages: "regions[2]" + ".origin" (key [opt]). */
void nav__world_file_path_of(char *out, size_t size, const char *array, int index, const char *key);
/* [x, y, z], three finite numbers, at v (where: its path). */
nav_status nav__world_file_read_vec3(const nav__world_file *ld, const cJSON *v, const char *where,
                                     nav_vec3 *out);
/* An optional number at key of object (absent: *out unchanged) within [lo, hi]. */
nav_status nav__world_file_read_number(const nav__world_file *ld, const cJSON *object, const char *key,
                                       const char *where, double lo, double hi, double *out);
/* An optional whole number at key (absent: *out unchanged) within [lo, hi]. */
nav_status nav__world_file_read_count(const nav__world_file *ld, const cJSON *object, const char *key,
                                      const char *where, uint32_t lo, uint32_t hi, uint32_t *out);
/* Only the keys listed (a null-terminated list of at most 32) may appear in object, each once. */
nav_status nav__world_file_known_keys(const nav__world_file *ld, const cJSON *object, const char *where,
                                      const char *const *keys);

/* Region number `index` of "regions": its source loaded (a mesh built, a waypoint graph baked) with
 * its options, kept by the builder and added to it; its floor reach and ground noted in ld. */
nav_status nav__world_file_read_region(nav__world_file *ld, const cJSON *r, int index);
/* Warns of regions over grid sources that cover the same ground at the same height (logged as
 * NAV_LOG_WARNING). Reorders ld->grounds. */
void nav__world_file_warn_storeys(nav__world_file *ld);

#endif
