/* Private: a hash index of a bake's items, for looking them up by key (region names, welded
 * vertices, a mesh's sides). It holds item numbers and their keys' hashes, not the keys: the items
 * live in the caller's own arrays, and the caller says whether item i has the key sought. Every
 * allocation is checked (false when memory runs out), nothing is global, and nothing depends on the
 * table's order: items are numbered by the caller, so a bake made through it is the same on every
 * machine. Open addressing with linear probing, kept at most half full. */
#ifndef NAV_BAKE_INDEX_H
#define NAV_BAKE_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NAV__INDEX_NONE UINT32_MAX

typedef struct nav__index_slot {
    uint32_t hash, item; /* item NAV__INDEX_NONE: an empty slot */
} nav__index_slot;

typedef struct nav__index {
    nav__index_slot *slot; /* system heap; null while empty */
    uint32_t mask;         /* slots - 1 (a power of two) */
    uint32_t count;
} nav__index;

/* The item whose key hashes to `hash` and of which same(item, key, ctx) says true, or
 * NAV__INDEX_NONE. */
uint32_t nav__index_find(const nav__index *x, uint32_t hash,
                         bool (*same)(uint32_t item, const void *key, const void *ctx), const void *key,
                         const void *ctx);
/* Adds item under hash (the caller has made sure no item has its key). False when memory runs out
 * (the index as it was). */
bool nav__index_add(nav__index *x, uint32_t hash, uint32_t item);
void nav__index_free(nav__index *x);

/* Hashes for keys: a string's bytes, and a few numbers. */
uint32_t nav__index_hash_string(const char *s);
uint32_t nav__index_hash_bytes(const void *p, size_t size);

#endif
