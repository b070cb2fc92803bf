/* The growth of stb_ds's arrays, checked (ds.h), and their hooks: libnav compiles none of stb_ds's own
 * code. */
#include <stdint.h>
#include <stdlib.h>

#include "ds.h"

void *nav__ds_realloc(void *ptr, size_t size)
{
    return realloc(ptr, size);
}

void nav__ds_free(void *ptr)
{
    free(ptr);
}

bool nav__ds_reserve(void **array, size_t elem_size, size_t more)
{
    stbds_array_header *h = *array ? stbds_header(*array) : NULL;
    size_t length = h ? h->length : 0, capacity = h ? h->capacity : 0;
    if (more <= capacity - length) return true;
    size_t limit = (SIZE_MAX - sizeof *h) / (elem_size ? elem_size : 1);
    if (more > limit - length) return false;
    size_t need = length + more, grown = capacity > limit / 2 ? limit : 2 * capacity;
    if (grown < need) grown = need;
    if (grown < 4) grown = 4;
    stbds_array_header *b = nav__ds_realloc(h, sizeof *b + grown * elem_size);
    if (!b) return false;
    if (!h) *b = (stbds_array_header){0};
    b->capacity = grown;
    *array = b + 1;
    return true;
}
