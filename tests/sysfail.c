/* The system heap failing on demand (sysfail.h): the wrapped malloc, calloc and realloc. A test
 * helper, so it may keep state of its own; atomic, since bakes allocate on several threads. */
#include <malloc.h>
#include <stdatomic.h>
#include <stddef.h>

#include "sysfail.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *ptr, size_t size);
void __real_free(void *ptr);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *ptr, size_t size);
void __wrap_free(void *ptr);

static atomic_long armed_at = -1; /* the allocation number that fails, or -1 */
static atomic_long counted;
static atomic_bool hit;

void sysfail_arm(long after)
{
    atomic_store(&counted, 0);
    atomic_store(&hit, false);
    atomic_store(&armed_at, after);
}

bool sysfail_disarm(void)
{
    atomic_store(&armed_at, -1);
    return atomic_load(&hit);
}

long sysfail_count(void)
{
    return atomic_load(&counted);
}

static bool fails(void)
{
    long at = atomic_load(&armed_at);
    if (at < 0) return false;
    long n = atomic_fetch_add(&counted, 1);
    if (n != at) return false;
    atomic_store(&hit, true);
    return true;
}

static atomic_llong live, peak, base;

static void add_live(long long bytes)
{
    long long now = atomic_fetch_add(&live, bytes) + bytes, most = atomic_load(&peak);
    while (now > most && !atomic_compare_exchange_weak(&peak, &most, now)) {
    }
}

void sysfail_peak_reset(void)
{
    atomic_store(&base, atomic_load(&live));
    atomic_store(&peak, atomic_load(&live));
}

long long sysfail_peak(void)
{
    return atomic_load(&peak) - atomic_load(&base);
}

void *__wrap_malloc(size_t size)
{
    void *p = fails() ? NULL : __real_malloc(size);
    if (p) add_live((long long)malloc_usable_size(p));
    return p;
}

void *__wrap_calloc(size_t count, size_t size)
{
    void *p = fails() ? NULL : __real_calloc(count, size);
    if (p) add_live((long long)malloc_usable_size(p));
    return p;
}

void *__wrap_realloc(void *ptr, size_t size)
{
    long long old = ptr ? (long long)malloc_usable_size(ptr) : 0;
    void *p = fails() ? NULL : __real_realloc(ptr, size);
    if (p) { /* the new block beside the old one (realloc may hold both), then the old one gone */
        add_live((long long)malloc_usable_size(p));
        add_live(-old);
    } else if (size == 0) {
        add_live(-old);
    }
    return p;
}

void __wrap_free(void *ptr)
{
    if (ptr) add_live(-(long long)malloc_usable_size(ptr));
    __real_free(ptr);
}
