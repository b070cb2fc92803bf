/* Work spread over threads: items taken from an atomic counter, each thread with its own scratch,
 * progress reported by the calling thread; a pool keeps its helpers between runs. */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "parallel.h"

/* One run: the work and what its threads share. Items are handed out by a ticket that carries the
 * run's generation beside the next item (generation << 32 | item): a helper takes an item only by
 * moving the ticket of its own run on, so a helper that comes late, after its run ended or when
 * another has begun, takes nothing, and nobody waits for it. The caller waits only for the items
 * handed out to finish: a helper that is not running (a busy machine) holds nothing up unless it
 * holds an item.
 *
 * A helper may come late, when the caller is already setting up the next run, so it reads nothing of
 * a run (its work, its scratch) before it holds an item of it: taking the item (acquire) follows the
 * caller's opening of the ticket (release), which follows the run's set-up, and the caller cannot
 * end the run, nor set up another, while the item is held. */
#define CLOSED 0xffffffffu /* the ticket's item once its run has ended */

typedef nav__job job;

/* The next item of run `generation`, or UINT32_MAX when it has none left for anybody. */
static uint32_t take_item(job *j, uint32_t generation)
{
    uint64_t t = atomic_load_explicit(&j->ticket, memory_order_acquire);
    for (;;) {
        if ((uint32_t)(t >> 32) != generation || (uint32_t)t >= atomic_load(&j->count) ||
            atomic_load(&j->stop))
            return UINT32_MAX;
        if (atomic_compare_exchange_weak_explicit(&j->ticket, &t, t + 1, memory_order_acq_rel,
                                                  memory_order_acquire))
            return (uint32_t)t;
    }
}

/* Takes items of run `generation` until none is left, with the scratch in *slot; the caller's
 * thread (reports) reports progress. Returns how many it ran. */
static uint32_t run_items(job *j, uint32_t generation, void *const *slot, bool reports)
{
    const nav__work *w = NULL;
    void *scratch = NULL;
    uint32_t ran = 0;
    for (;; ran++) {
        uint32_t item = take_item(j, generation);
        if (item == UINT32_MAX) break;
        if (!w) { /* the run's own, now that an item of it is held */
            w = j->work;
            scratch = *slot;
        }
        if (!w->run(w->ctx, scratch, item)) {
            atomic_store(&j->no_memory, true);
            atomic_store(&j->stop, true);
        }
        uint32_t done = atomic_fetch_add(&j->done, 1) + 1;
        if (reports && w->progress && w->progress->fn &&
            !w->progress->fn(w->stage, w->progress_base + done,
                             w->progress_total ? w->progress_total : w->count, w->progress->user))
            atomic_store(&j->stop, true);
    }
    return ran;
}

uint32_t nav__core_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (uint32_t)(n < 256 ? n : 256) : 1;
}

uint32_t nav__idle_cores(void)
{
    uint32_t cores = nav__core_count();
    /* /proc/loadavg's fourth field: the threads runnable now (this one among them) / all */
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f) return cores;
    double one, five, fifteen;
    unsigned running = 0, all = 0;
    int read = fscanf(f, "%lf %lf %lf %u/%u", &one, &five, &fifteen, &running, &all);
    fclose(f);
    if (read != 5 || running == 0) return cores;
    return running - 1 >= cores ? 0 : cores - (running - 1);
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

/* A helper: waits for each run (spinning, then asleep) and takes items of it while it has any. */
static void *pool_helper(void *arg)
{
    nav__pool_slot *slot = arg;
    nav__pool *p = slot->pool;
    uint32_t index = (uint32_t)(slot - p->slot);
    unsigned seen = 0;
    for (;;) {
        if (!spin_until(&p->generation, seen, false, p->spin_ms)) {
            pthread_mutex_lock(&p->lock);
            while (atomic_load(&p->generation) == seen) pthread_cond_wait(&p->wake, &p->lock);
            pthread_mutex_unlock(&p->lock);
        }
        seen = atomic_load(&p->generation);
        if (atomic_load(&p->stop)) break;
        /* the run's place for this thread (taking) and its scratch are set before its generation
         * opens; a run that has moved on since hands this thread no item */
        if (index < atomic_load(&p->taking) && run_items(&p->run, seen, &slot->scratch, false) > 0) {
            pthread_mutex_lock(&p->lock); /* its items are done: the caller may be waiting for them */
            pthread_cond_signal(&p->finished);
            pthread_mutex_unlock(&p->lock);
        }
    }
    return NULL;
}

static void start_pool(nav__pool *p, uint32_t threads, bool spin, bool idle_only)
{
    p->spin_ms = spin ? NAV__POOL_SPIN_MS : 0;
    p->helpers = 0;
    atomic_init(&p->taking, 0);
    atomic_init(&p->stop, false);
    atomic_init(&p->generation, 0);
    atomic_init(&p->run.ticket, (uint64_t)CLOSED);
    atomic_init(&p->run.count, 0);
    atomic_init(&p->run.done, 0);
    atomic_init(&p->run.stop, false);
    atomic_init(&p->run.no_memory, false);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->finished, NULL);
    if (threads == 0) threads = nav__core_count();
    if (threads > NAV__POOL_MAX) threads = NAV__POOL_MAX;
    /* no more helpers than the cores left idle: on a machine whose cores are all busy, helpers would
     * wait for a turn to start, spin in the caller's turns and hold the end of the work up (a level
     * of 1.8 ms built in 10 to 18 on two threads with every core busy, most of it the helpers' exit);
     * as OpenMP's dynamic threads do, the work then runs on fewer */
    uint32_t idle = threads > 1 && idle_only ? nav__idle_cores() : threads;
    if (threads > idle + 1) threads = idle + 1;
    for (uint32_t t = 0; t < NAV__POOL_MAX; t++) p->slot[t] = (nav__pool_slot){p, NULL};
    for (uint32_t t = 1; t < threads; t++) {
        if (pthread_create(&p->thread[p->helpers], NULL, pool_helper, &p->slot[p->helpers + 1]) != 0)
            break; /* fewer threads */
        p->helpers++;
    }
}

void nav__pool_start(nav__pool *p, uint32_t threads, bool spin)
{
    start_pool(p, threads, spin, true);
}

void nav__pool_start_exact(nav__pool *p, uint32_t threads, bool spin)
{
    start_pool(p, threads, spin, false);
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
    job alone_job, *j = p ? &p->run : &alone_job;
    uint32_t generation = p ? atomic_load(&p->generation) + 1 : 1;
    /* stores a late helper of the last run may read beside (its ticket has moved on: it takes none) */
    j->work = work;
    atomic_store(&j->count, work->count);
    atomic_store(&j->done, 0);
    atomic_store(&j->stop, false);
    atomic_store(&j->no_memory, false);
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
        atomic_store_explicit(&j->ticket, (uint64_t)generation << 32, memory_order_release);
        if (p && threads > 1) {
            atomic_store(&p->taking, threads);
            next_generation(p);
        }
        run_items(j, generation, &slot[0].scratch, true);
        /* closed: what was handed out, and only that, must finish; helpers that come now get none */
        uint64_t last = atomic_exchange(&j->ticket, (uint64_t)generation << 32 | CLOSED);
        uint32_t handed = (uint32_t)last < work->count ? (uint32_t)last : work->count;
        if (p && threads > 1 && atomic_load(&j->done) != handed &&
            !spin_until(&j->done, handed, true, p->spin_ms)) {
            pthread_mutex_lock(&p->lock);
            while (atomic_load(&j->done) != handed) pthread_cond_wait(&p->finished, &p->lock);
            pthread_mutex_unlock(&p->lock);
        }
    }
    for (uint32_t t = 0; t < made && work->fini; t++) work->fini(work->ctx, slot[t].scratch);
    if (!ok || atomic_load(&j->no_memory)) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    return atomic_load(&j->done) == work->count ? NAV_SUCCESS : NAV_FAILURE | NAV_WRONG_STATE;
}

void nav__pool_stop(nav__pool *p)
{
    atomic_store(&p->stop, true);
    next_generation(p);
    for (uint32_t t = 0; t < p->helpers; t++) pthread_join(p->thread[t], NULL);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->finished);
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
