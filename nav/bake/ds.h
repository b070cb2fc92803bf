/* Private: stb_ds, the growable arrays and hash maps of bake-time code, included through this one
 * header (STYLE.md). Know its limits before using it:
 *   - bake-time only: its reads are not thread-safe (hmget writes a header field) and it uses a
 *     process-wide hash seed, so nothing a query touches and no baked data may hold it;
 *   - its memory comes from the system heap through nav__ds_realloc / nav__ds_free, not from an
 *     object's nav_allocator (stb_ds passes no context to its hooks), and it does not check for
 *     failed allocations: code that must turn out-of-memory into a status keeps its fallible
 *     allocations out of it (a bake builds its scratch with stb_ds and its result through the
 *     caller's allocator);
 *   - its hash order is not portable: never serialise a table or iterate one into baked data; bake
 *     into flat arrays filled in a deterministic order.
 * It needs GNU C (typeof), which the build keeps on (CMAKE_C_EXTENSIONS). */
#ifndef NAV_SRC_DS_H
#define NAV_SRC_DS_H

#include <stddef.h>

void *nav__ds_realloc(void *ptr, size_t size);
void nav__ds_free(void *ptr);

#define STBDS_REALLOC(context, ptr, size) nav__ds_realloc(ptr, size)
#define STBDS_FREE(context, ptr)          nav__ds_free(ptr)

#if NAV_STB_PREFIXED
#include <stb/stb_ds.h>
#else
#include <stb_ds.h>
#endif

#endif
