/* Private: work spread over threads (bakes of waypoint tables, sight lists, world regions' tables). */
#ifndef NAV_SRC_PARALLEL_H
#define NAV_SRC_PARALLEL_H

#include <pthread.h>
#include <stdatomic.h>

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

/* The cores online (1 to 256). */
uint32_t nav__core_count(void);
/* The cores no thread is runnable on now, this thread's aside (Linux: /proc/loadavg; elsewhere every
 * core): a pool starts no more helpers than these. */
uint32_t nav__idle_cores(void);

/* Runs the work on `threads` threads (0: every core). NAV_SUCCESS; NAV_FAILURE | NAV_OUT_OF_MEMORY;
 * NAV_FAILURE | NAV_WRONG_STATE when progress cancelled it. */
nav_status nav__parallel(const nav__work *work, uint32_t threads);

/* ---- A pool of threads kept for several runs ------------------------------------------------- */

#define NAV__POOL_MAX 256 /* threads a pool holds, the caller's among them */

/* One run of work on a pool (parallel.c says how its items are handed out). */
typedef struct nav__job {
    const nav__work *work;   /* read by a helper only once it holds an item of the run */
    _Atomic uint64_t ticket; /* the run's generation << 32 | its next item */
    atomic_uint count;       /* items of the run (set before its ticket opens) */
    atomic_uint done;        /* items finished */
    atomic_bool stop;        /* cancelled, or a thread ran out of memory */
    atomic_bool no_memory;   /* a run ran out of memory */
} nav__job;

/* A thread's place in a pool: its scratch for the current run. */
typedef struct nav__pool_slot {
    struct nav__pool *pool;
    void *scratch; /* read by a helper only once it holds an item of the run */
} nav__pool_slot;

/* Helper threads that wait between runs of work, the stages of one build: each waits for the next
 * run spinning for a while (about NAV__POOL_SPIN_MS) before it sleeps, so that a run that follows the
 * last one closely starts on every thread at once. The caller's thread takes part in each run and is
 * the only one that calls init, fini and progress. A helper that comes late (a thread woken from
 * sleep may take milliseconds to run, on a busy or virtual machine) takes no item of a run that has
 * moved on, and the caller waits only for items handed out: on a machine whose cores are all busy, a
 * run is never slower than the caller alone by more than the items the helpers hold. Lives where the
 * caller puts it (on its stack). */
typedef struct nav__pool {
    uint32_t helpers; /* started: the threads less the caller's */
    pthread_t thread[NAV__POOL_MAX - 1];
    nav__pool_slot slot[NAV__POOL_MAX]; /* 0: the caller's */
    pthread_mutex_t lock;
    pthread_cond_t wake, finished;
    atomic_uint generation; /* one more for each run and for the stop */
    atomic_bool stop;       /* set for the last generation */
    atomic_uint taking;     /* the current run's threads: slots 0 .. taking - 1 */
    double spin_ms;         /* how long a thread spins before it sleeps */
    nav__job run;           /* the current run */
} nav__pool;

#define NAV__POOL_SPIN_MS 2.0

/* Starts threads - 1 helpers (0: one a core; at most NAV__POOL_MAX in all), but no more than the
 * cores idle now (nav__idle_cores); helpers that cannot be started leave their share to the others.
 * Cannot fail. spin: its threads wait spinning for about
 * NAV__POOL_SPIN_MS before they sleep (for runs close together; keep the threads to the cores then),
 * else they sleep at once. */
void nav__pool_start(nav__pool *pool, uint32_t threads, bool spin);
/* The same with every helper asked for, however busy the machine (tests of the pool itself). */
void nav__pool_start_exact(nav__pool *pool, uint32_t threads, bool spin);
/* Runs the work on the pool's threads, as nav__parallel does; a null pool runs it on the calling
 * thread alone. */
nav_status nav__pool_run(nav__pool *pool, const nav__work *work);
/* Stops and joins the helpers. */
void nav__pool_stop(nav__pool *pool);

#endif
