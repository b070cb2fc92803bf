/* Private: allocation through an optional nav_allocator (malloc/free when none is given). */
#ifndef NAV_SRC_ALLOC_H
#define NAV_SRC_ALLOC_H

#include "nav/core.h"

/* The allocator an object keeps: a copy of the caller's hooks, or the system heap. */
void nav__allocator_resolve(nav_allocator *out, const nav_allocator *given);

void *nav__alloc(const nav_allocator *a, size_t size);
void *nav__calloc(const nav_allocator *a, size_t count, size_t size); /* zeroed; checks overflow */
void *nav__realloc(const nav_allocator *a, void *ptr, size_t old_size, size_t new_size);
void nav__free(const nav_allocator *a, void *ptr);

/* count * size, or SIZE_MAX when it overflows (so the allocation fails cleanly). */
static inline size_t nav__mul_size(size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size) return SIZE_MAX;
    return count * size;
}

#endif
