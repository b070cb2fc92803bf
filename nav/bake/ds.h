/* Private: stb_ds's growable arrays, the scratch of bake-time code, included through this one header
 * (STYLE.md). Know their limits before using them:
 *   - bake-time only: nothing a query touches and no baked data may hold one (a bake builds its
 *     scratch with them and its result through the caller's allocator);
 *   - their memory comes from the system heap (stb_ds passes no context to its hooks, so not from an
 *     object's nav_allocator);
 *   - stb_ds does not check for failed allocations, so an array grows only through the checked forms
 *     below, which return false (the array as it was) when memory runs out; stb_ds's own growing
 *     macros (arrput, arrsetlen, arrins, arraddn...) are not available here. The rest of stb_ds's
 *     array macros (arrlen, arrlenu, arrcap, arrpop, arrlast, arrdel, arrfree...) are;
 *   - stb_ds's hash maps are not used at all: they allocate where a failure cannot be caught, and
 *     each new table advances a process-wide seed (global mutable state, and a data race between
 *     threads). Bake-time code looks things up through nav/bake/index.h instead;
 *   - libnav compiles none of stb_ds's code (its arrays need only the header's macros and the checked
 *     growth in ds.c), and stb_ds's function names are mapped to names of its own (nav__stbds_...)
 *     all the same, so that no stbds_ symbol can ever come from libnav: a program that compiles
 *     stb_ds itself links libnav as it is.
 * It needs GNU C (typeof), which the build keeps on (CMAKE_C_EXTENSIONS). */
#ifndef NAV_BAKE_DS_H
#define NAV_BAKE_DS_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* libnav's own names for stb_ds's functions */
#define stbds_rand_seed     nav__stbds_rand_seed
#define stbds_hash_bytes    nav__stbds_hash_bytes
#define stbds_hash_string   nav__stbds_hash_string
#define stbds_stralloc      nav__stbds_stralloc
#define stbds_strreset      nav__stbds_strreset
#define stbds_unit_tests    nav__stbds_unit_tests
#define stbds_arrgrowf      nav__stbds_arrgrowf
#define stbds_arrfreef      nav__stbds_arrfreef
#define stbds_hmfree_func   nav__stbds_hmfree_func
#define stbds_hmget_key     nav__stbds_hmget_key
#define stbds_hmget_key_ts  nav__stbds_hmget_key_ts
#define stbds_hmput_default nav__stbds_hmput_default
#define stbds_hmput_key     nav__stbds_hmput_key
#define stbds_hmdel_key     nav__stbds_hmdel_key
#define stbds_shmode_func   nav__stbds_shmode_func

void *nav__ds_realloc(void *ptr, size_t size);
void nav__ds_free(void *ptr);

#define STBDS_REALLOC(context, ptr, size) nav__ds_realloc(ptr, size)
#define STBDS_FREE(context, ptr)          nav__ds_free(ptr)

#if NAV_STB_PREFIXED
#include <stb/stb_ds.h>
#else
#include <stb_ds.h>
#endif

/* Makes room in array *array (elements of elem_size bytes) for `more` elements beyond its length,
 * which it leaves as it was. False, with the array untouched, when memory runs out or the size
 * overflows. */
bool nav__ds_reserve(void **array, size_t elem_size, size_t more);

/* ---- The checked forms: each is false, with the array as it was, when memory runs out ---- */

/* Room for n more elements (the check for room inline: the call is made only to grow). */
#define nav__arr_reserve(a, n)                                                                               \
    (((a) && stbds_header(a)->capacity - stbds_header(a)->length >= (size_t)(n)) ||                          \
     nav__ds_reserve((void **)&(a), sizeof *(a), (size_t)(n)))
/* Appends v. */
#define nav__arr_push(a, v) (nav__arr_reserve(a, 1) ? (nav__arr_put_reserved(a, v), true) : false)
/* Sets the length to n (elements beyond the old length are not initialised). */
#define nav__arr_setlen(a, n)                                                                                \
    (nav__arr_reserve(a, (size_t)(n) > stbds_arrlenu(a) ? (size_t)(n)-stbds_arrlenu(a) : 0)                  \
         ? ((a) ? (void)(stbds_header(a)->length = (size_t)(n)) : (void)0, true)                             \
         : false)
/* Inserts v before element i. */
#define nav__arr_insert(a, i, v)                                                                             \
    (nav__arr_reserve(a, 1)                                                                                  \
         ? (memmove(&(a)[(i) + 1], &(a)[i], sizeof *(a) * (stbds_header(a)->length - (size_t)(i))),          \
            stbds_header(a)->length++, (a)[i] = (v), true)                                                   \
         : false)
/* Appends n elements (not initialised): a pointer to the first, or null when memory runs out. */
#define nav__arr_addn(a, n) (nav__arr_reserve(a, n) ? nav__arr_addn_reserved(a, n) : NULL)
/* Appends n values copied from `values` (null when n is 0: no memcpy is handed null, for GCC then
 * takes the pointers for non-null and drops later tests of them, arrfree's among them). */
#define nav__arr_append(a, values, n)                                                                        \
    ((n) == 0 || (nav__arr_reserve(a, n) &&                                                                  \
                  (memcpy(nav__arr_addn_reserved(a, n), values, (size_t)(n) * sizeof *(a)), true)))

/* ---- These never allocate ---- */

/* Cuts the length to n (no more than it is): scratch emptied between uses keeps its room. */
#define nav__arr_truncate(a, n) ((a) ? (void)(stbds_header(a)->length = (size_t)(n)) : (void)0)

/* ---- In room already made (nav__arr_reserve): these never allocate either ---- */

/* Appends v. */
#define nav__arr_put_reserved(a, v) ((void)((a)[stbds_header(a)->length++] = (v)))
/* Appends n elements (not initialised): a pointer to the first. */
#define nav__arr_addn_reserved(a, n)                                                                         \
    ((n) ? (stbds_header(a)->length += (size_t)(n), &(a)[stbds_header(a)->length - (size_t)(n)]) : (a))

/* stb_ds's growing macros are not to be used (they do not check), nor its hash maps (see above) */
#undef arrput
#undef arrpush
#undef arrsetlen
#undef arrsetcap
#undef arraddn
#undef arraddnptr
#undef arraddnindex
#undef arraddnoff
#undef arrins
#undef arrinsn
#undef hmput
#undef hmputs
#undef hmget
#undef hmgets
#undef hmgeti
#undef hmgetp
#undef hmdel
#undef hmdefault
#undef hmdefaults
#undef hmfree
#undef shput
#undef shputs
#undef shget
#undef shgeti
#undef shgetp
#undef shgets
#undef shdel
#undef shdefault
#undef shdefaults
#undef shfree
#undef sh_new_arena
#undef sh_new_strdup

#endif
