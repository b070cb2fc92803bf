/* The one copy of stb_ds's implementation, with its hooks (see ds.h). */
#include <stdlib.h>

#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wpedantic"
#endif

#define STB_DS_IMPLEMENTATION
#include "ds.h"

void *nav__ds_realloc(void *ptr, size_t size)
{
    return realloc(ptr, size);
}

void nav__ds_free(void *ptr)
{
    free(ptr);
}
