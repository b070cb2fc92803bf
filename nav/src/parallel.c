/* Work spread over threads: items taken from an atomic counter, each thread with its own scratch,
 * progress reported by the calling thread; a pool keeps its helpers between runs. */
#include <time.h>
#include <unistd.h>

#include "parallel.h"

/* One run: the work and what its threads share. */
typedef struct nav__job {
    const nav__work *work;
    atomic_uint next;      /* the next item to take */
    atomic_uint done;      /* items finished */
    atomic_bool stop;      /* cancelled, or a thread ran out of memory */
    atomic_bool no_memory; /* a run ran out of memory */
} job;

/* Takes items until none is left; the caller's thread (reports) reports progress. */
static void run_items(job *j, void *scratch, bool reports)
{
    const nav__work *w = j->work;
    for (;;) {
        if (atomic_load(&j->stop)) break;
        uint32_t item = atomic_fetch_add(&j->next, 1);
        if (item >= w->count) break;
        if (!w->run(w->ctx, scratch, item)) {
            atomic_store(&j->no_memory, true);
            atomic_store(&j->stop, true);
            break;
        }
        uint32_t done = atomic_fetch_add(&j->done, 1) + 1;
        if (reports && w->progress && w->progress->fn &&
            !w->progress->fn(w->stage, w->progress_base + done,
                             w->progress_total ? w->progress_total : w->count, w->progress->user))
            atomic_store(&j->stop, true);
    }
}

uint32_t nav__core_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (uint32_t)(n < 256 ? n : 256) : 1;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static void relax_cpu(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Spins until (*value == x) == equal, for at most spin_ms: whether it came. */
static bool spin_until(const atomic_uint *value, unsigned x, bool equal, double spin_ms)
{
    if (spin_ms <= 0) return (atomic_load(value) == x) == equal;
    double until = 0;
    for (unsigned k = 1;; k++) {
        if ((atomic_load(value) == x) == equal) return true;
        relax_cpu();
        if (k % 256 == 0) {
            double now = now_ms();
            if (until == 0)
                until = now + spin_ms;
            else if (now > until)
                return false;
        }
    }
}

/* A helper: waits for each run (spinning, then asleep), takes part in it while it is open. */
static void *pool_helper(void *arg)
{
    nav__pool_slot *slot = arg;
    nav__pool *p = slot->pool;
    unsigned seen = 0;
    for (;;) {
        if (!spin_until(&p->generation, seen, false, p->spin_ms)) {
            pthread_mutex_lock(&p->lock);
            while (atomic_load(&p->generation) == seen) pthread_cond_wait(&p->wake, &p->lock);
            pthread_mutex_unlock(&p->lock);
        }
        unsigned g = atomic_load(&p->generation);
        seen = g;
        if (atomic_load(&p->stop)) break;
        /* in only while the run is open, and still this one (the caller then waits for it), and
         * when the run has a place for this thread */
        atomic_fetch_add(&p->busy, 1);
        if (atomic_load(&p->open) && atomic_load(&p->generation) == g &&
            (uint32_t)(slot - p->slot) < p->taking)
            run_items(p->current, slot->scratch, false);
        if (atomic_fetch_sub(&p->busy, 1) == 1) {
            pthread_mutex_lock(&p->lock);
            pthread_cond_signal(&p->idle);
            pthread_mutex_unlock(&p->lock);
        }
    }
    return NULL;
}

void nav__pool_start(nav__pool *p, uint32_t threads, bool spin)
{
    p->spin_ms = spin ? NAV__POOL_SPIN_MS : 0;
    p->helpers = 0;
    p->taking = 0;
    p->current = NULL;
    atomic_init(&p->stop, false);
    atomic_init(&p->generation, 0);
    atomic_init(&p->busy, 0);
    atomic_init(&p->open, false);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->idle, NULL);
    if (threads == 0) threads = nav__core_count();
    if (threads > NAV__POOL_MAX) threads = NAV__POOL_MAX;
    for (uint32_t t = 0; t < NAV__POOL_MAX; t++) p->slot[t] = (nav__pool_slot){p, NULL};
    for (uint32_t t = 1; t < threads; t++) {
        if (pthread_create(&p->thread[p->helpers], NULL, pool_helper, &p->slot[p->helpers + 1]) != 0)
            break; /* fewer threads */
        p->helpers++;
    }
}

/* Moves the pool to its next generation, waking the helpers that sleep. */
static void next_generation(nav__pool *p)
{
    pthread_mutex_lock(&p->lock);
    atomic_fetch_add(&p->generation, 1);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
}

nav_status nav__pool_run(nav__pool *p, const nav__work *work)
{
    job j = {.work = work};
    atomic_init(&j.next, 0);
    atomic_init(&j.done, 0);
    atomic_init(&j.stop, false);
    atomic_init(&j.no_memory, false);
    uint32_t threads = p ? p->helpers + 1 : 1;
    if (threads > work->count) threads = work->count ? work->count : 1; /* scratch for no more */
    /* every scratch made (and later released) here, on the calling thread: the caller's allocator is
     * never called from another */
    nav__pool_slot alone = {NULL, NULL}, *slot = p ? p->slot : &alone;
    uint32_t made = 0;
    bool ok = true;
    while (ok && made < threads) {
        slot[made].scratch = NULL;
        ok = !work->init || work->init(work->ctx, &slot[made].scratch);
        made++;
    }
    if (ok) {
        if (p && threads > 1) {
            p->taking = threads;
            for (uint32_t t = threads; t <= p->helpers; t++)
                slot[t].scratch = NULL; /* none of a run before */
            p->current = &j;
            atomic_store(&p->open, true);
            next_generation(p);
        }
        run_items(&j, slot[0].scratch, true);
        if (p && threads > 1) {
            /* closed: helpers that come now stay out; then wait for those in it */
            atomic_store(&p->open, false);
            if (!spin_until(&p->busy, 0, true, p->spin_ms)) {
                pthread_mutex_lock(&p->lock);
                while (atomic_load(&p->busy) != 0) pthread_cond_wait(&p->idle, &p->lock);
                pthread_mutex_unlock(&p->lock);
            }
        }
    }
    for (uint32_t t = 0; t < made && work->fini; t++) work->fini(work->ctx, slot[t].scratch);
    if (!ok || atomic_load(&j.no_memory)) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    return atomic_load(&j.done) == work->count ? NAV_SUCCESS : NAV_FAILURE | NAV_WRONG_STATE;
}

void nav__pool_stop(nav__pool *p)
{
    atomic_store(&p->stop, true);
    next_generation(p);
    for (uint32_t t = 0; t < p->helpers; t++) pthread_join(p->thread[t], NULL);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->idle);
}

nav_status nav__parallel(const nav__work *work, uint32_t threads)
{
    if (threads == 0) threads = nav__core_count();
    if (threads > work->count) threads = work->count ? work->count : 1;
    if (threads <= 1) return nav__pool_run(NULL, work);
    nav__pool p;
    nav__pool_start(&p, threads, false); /* one run: its helpers go when it ends */
    nav_status s = nav__pool_run(&p, work);
    nav__pool_stop(&p);
    return s;
}
