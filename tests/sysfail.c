/* The system heap failing on demand (sysfail.h): the wrapped malloc, calloc and realloc. A test
 * helper, so it may keep state of its own; atomic, since bakes allocate on several threads. */
#include <stdatomic.h>
#include <stddef.h>

#include "sysfail.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *ptr, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *ptr, size_t size);

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

void *__wrap_malloc(size_t size)
{
    return fails() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t count, size_t size)
{
    return fails() ? NULL : __real_calloc(count, size);
}

void *__wrap_realloc(void *ptr, size_t size)
{
    return fails() ? NULL : __real_realloc(ptr, size);
}
