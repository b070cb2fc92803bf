/* Private: forms of stb_ds's arrays that nav/bake/ds.h lacks, for the build from geometry, the .obj
 * reader and the mesh bakes.
 *   - nav__arr_reserve_quick and nav__arr_push_quick: nav__arr_reserve and nav__arr_push with the check
 *     for room inline, for the loops that append a value or a few at a time many times (a heightfield's
 *     spans, an outline's points, a triangulation's edges to check, a file's vertices): the call is made
 *     only when the array must grow, as stb_ds's own arrput does. False, with the array as it was, when
 *     memory runs out;
 *   - nav__arr_append: n values appended, copied from an array (null when n is 0); false, with the
 *     array as it was, when memory runs out. One memcpy, and none for n = 0 (an empty array is null,
 *     and memcpy may not be handed null: GCC then takes the pointers for non-null and drops later tests
 *     of them, arrfree's among them);
 *   - nav__arr_truncate: the length cut to n (no more than it is), which never allocates: scratch
 *     emptied between uses keeps its room. */
#ifndef NAV_MESH_DS_EXTRA_H
#define NAV_MESH_DS_EXTRA_H

#include "ds.h"

#define nav__arr_reserve_quick(a, n)                                                                         \
    (((a) && stbds_header(a)->capacity - stbds_header(a)->length >= (size_t)(n)) || nav__arr_reserve(a, n))
#define nav__arr_push_quick(a, v) (nav__arr_reserve_quick(a, 1) && (nav__arr_put_reserved(a, v), true))

#define nav__arr_append(a, values, n)                                                                        \
    ((n) == 0 || (nav__arr_reserve(a, n) &&                                                                  \
                  (memcpy(nav__arr_addn_reserved(a, n), values, (size_t)(n) * sizeof *(a)), true)))

#define nav__arr_truncate(a, n) ((a) ? (void)(stbds_header(a)->length = (size_t)(n)) : (void)0)

#endif
