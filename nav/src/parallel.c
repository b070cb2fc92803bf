/* Work spread over threads: items taken from an atomic counter, each thread with its own scratch,
 * progress reported by the calling thread. */
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "parallel.h"

/* What the threads share. */
typedef struct job {
    const nav__work *work;
    atomic_uint next;      /* the next item to take */
    atomic_uint done;      /* items finished */
    atomic_bool stop;      /* cancelled, or a thread ran out of memory */
    atomic_bool no_memory; /* a run ran out of memory */
} job;

/* One thread's share: the job, its scratch, and whether it reports progress (the calling thread). */
typedef struct worker {
    job *j;
    void *scratch;
    bool reports;
} worker;

/* Takes items until none is left. */
static void run_items(const worker *k)
{
    job *j = k->j;
    const nav__work *w = j->work;
    for (;;) {
        if (atomic_load(&j->stop)) break;
        uint32_t item = atomic_fetch_add(&j->next, 1);
        if (item >= w->count) break;
        if (!w->run(w->ctx, k->scratch, item)) {
            atomic_store(&j->no_memory, true);
            atomic_store(&j->stop, true);
            break;
        }
        uint32_t done = atomic_fetch_add(&j->done, 1) + 1;
        if (k->reports && w->progress && w->progress->fn &&
            !w->progress->fn(w->stage, w->progress_base + done,
                             w->progress_total ? w->progress_total : w->count, w->progress->user))
            atomic_store(&j->stop, true);
    }
}

static void *helper(void *arg)
{
    run_items(arg);
    return NULL;
}

static uint32_t core_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (uint32_t)(n < 256 ? n : 256) : 1;
}

nav_status nav__parallel(const nav__work *work, uint32_t threads)
{
    job j = {.work = work};
    atomic_init(&j.next, 0);
    atomic_init(&j.done, 0);
    atomic_init(&j.stop, false);
    atomic_init(&j.no_memory, false);
    if (threads == 0) threads = core_count();
    if (threads > work->count) threads = work->count ? work->count : 1;
    if (threads > 256) threads = 256;
    /* every scratch made (and later released) here, on the calling thread: the caller's allocator is
     * never called from another */
    worker workers[256];
    uint32_t made = 0;
    bool ok = true;
    while (ok && made < threads) {
        workers[made] = (worker){&j, NULL, made == 0};
        ok = !work->init || work->init(work->ctx, &workers[made].scratch);
        made++;
    }
    pthread_t helpers[255];
    uint32_t started = 0;
    if (ok) {
        for (uint32_t t = 1; t < threads; t++) {
            if (pthread_create(&helpers[started], NULL, helper, &workers[t]) != 0) break; /* fewer threads */
            started++;
        }
        run_items(&workers[0]);
        for (uint32_t t = 0; t < started; t++) pthread_join(helpers[t], NULL);
    }
    for (uint32_t t = 0; t < made && work->fini; t++) work->fini(work->ctx, workers[t].scratch);
    if (!ok || atomic_load(&j.no_memory)) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    return atomic_load(&j.done) == work->count ? NAV_SUCCESS : NAV_FAILURE | NAV_WRONG_STATE;
}
