/* Allocation through caller hooks (the Lua model: the caller owns memory). */
#include "alloc.h"

#include <stdlib.h>
#include <string.h>

static void *system_alloc(size_t size, void *user)
{
    (void)user;
    return malloc(size);
}

static void *system_realloc(void *ptr, size_t old_size, size_t new_size, void *user)
{
    (void)user;
    (void)old_size;
    return realloc(ptr, new_size);
}

static void system_free(void *ptr, void *user)
{
    (void)user;
    free(ptr);
}

void nav__allocator_resolve(nav_allocator *out, const nav_allocator *given)
{
    if (given && given->alloc && given->free) {
        *out = *given;
    } else {
        *out = (nav_allocator){.alloc = system_alloc, .realloc = system_realloc, .free = system_free};
    }
}

void *nav__alloc(const nav_allocator *a, size_t size)
{
    if (size == 0) size = 1;
    if (size == SIZE_MAX) return NULL;
    return a->alloc(size, a->user);
}

void *nav__calloc(const nav_allocator *a, size_t count, size_t size)
{
    size_t bytes = nav__mul_size(count, size);
    /* the system heap's own calloc: a large block comes fresh from the kernel, already zero, and is
     * not written over (a page is then touched only when used; the first build in a process paid
     * for every page twice) */
    if (a->alloc == system_alloc) return bytes == SIZE_MAX ? NULL : calloc(bytes ? bytes : 1, 1);
    void *p = nav__alloc(a, bytes);
    if (p) memset(p, 0, bytes == 0 ? 1 : bytes);
    return p;
}

void *nav__realloc(const nav_allocator *a, void *ptr, size_t old_size, size_t new_size)
{
    if (!ptr) return nav__alloc(a, new_size);
    if (new_size == 0) new_size = 1;
    if (new_size == SIZE_MAX) return NULL;
    if (a->realloc) return a->realloc(ptr, old_size, new_size, a->user);
    void *fresh = a->alloc(new_size, a->user);
    if (!fresh) return NULL;
    memcpy(fresh, ptr, old_size < new_size ? old_size : new_size);
    a->free(ptr, a->user);
    return fresh;
}

void nav__free(const nav_allocator *a, void *ptr)
{
    if (ptr) a->free(ptr, a->user);
}
