/* Private: work spread over threads (bakes of waypoint tables, sight lists, world regions' tables). */
#ifndef NAV_SRC_PARALLEL_H
#define NAV_SRC_PARALLEL_H

#include "nav/core.h"

/* Work spread over threads: run(ctx, scratch, item) for item = 0 .. count - 1, each thread with
 * scratch of its own from init [opt] (false: out of memory; none: scratch is null) released by fini
 * [opt] (also after a failed init);
 * init and fini run on the calling thread, so an allocator is only ever called from it. run returns
 * false when out of memory. */
typedef struct nav__work {
    uint32_t count;
    bool (*init)(void *ctx, void **scratch);
    bool (*run)(void *ctx, void *scratch, uint32_t item);
    void (*fini)(void *ctx, void *scratch);
    void *ctx;
    const char *stage;            /* for progress */
    const nav_progress *progress; /* [opt] items done out of count, from the calling thread; false cancels */
    uint32_t progress_base;       /* work in batches: items done before this one, */
    uint32_t progress_total;      /* and in all (0: count) */
} nav__work;

/* Runs the work on `threads` threads (0: every core). NAV_SUCCESS; NAV_FAILURE | NAV_OUT_OF_MEMORY;
 * NAV_FAILURE | NAV_WRONG_STATE when progress cancelled it. */
nav_status nav__parallel(const nav__work *work, uint32_t threads);

#endif
