/* The system heap failing on demand, for the suites that must see malloc, calloc or realloc return
 * null inside libnav (stb_ds's arrays and the indexes of bake-time code use the system heap, not an
 * object's nav_allocator). A suite named test_oom_* is linked with -Wl,--wrap=malloc,calloc,realloc
 * (and free: tests/CMakeLists.txt), which sends every call from libnav's objects and the suite's own code
 * through sysfail.c; calls made inside shared libraries (cJSON, libspng, cmocka) are not seen.
 *
 *     for (long n = 0;; n++) {
 *         sysfail_arm(n);                      // the n-th allocation from now fails
 *         nav_status s = call_under_test();
 *         bool hit = sysfail_disarm();         // whether that allocation came
 *         if (!hit) { assert success; break; } // the call needs no more than n allocations
 *         assert s is NAV_FAILURE | NAV_OUT_OF_MEMORY (and nothing leaked: ASan checks)
 *     }
 */
#ifndef NAV_TESTS_SYSFAIL_H
#define NAV_TESTS_SYSFAIL_H

#include <stdbool.h>

/* From now on, allocation number `after` (0: the next one) fails; the others succeed. */
void sysfail_arm(long after);
/* Stops failing; true when the armed allocation came (and failed). */
bool sysfail_disarm(void);
/* Allocations counted since the last sysfail_arm. */
long sysfail_count(void);

/* The heap's bytes in use (malloc_usable_size of each block, a block that realloc moves counted beside
 * the new one), as the wrapped calls see them: the most since sysfail_peak_reset, above what was in use
 * then. */
void sysfail_peak_reset(void);
long long sysfail_peak(void);

#endif
