/* A hash index of a bake's items (index.h). */
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "index.h"

uint32_t nav__index_find(const nav__index *x, uint32_t hash,
                         bool (*same)(uint32_t item, const void *key, const void *ctx), const void *key,
                         const void *ctx)
{
    if (!x->slot) return NAV__INDEX_NONE;
    for (uint32_t at = hash & x->mask;; at = (at + 1) & x->mask) {
        const nav__index_slot *s = &x->slot[at];
        if (s->item == NAV__INDEX_NONE) return NAV__INDEX_NONE;
        if (s->hash == hash && same(s->item, key, ctx)) return s->item;
    }
}

static void place(nav__index_slot *slot, uint32_t mask, uint32_t hash, uint32_t item)
{
    uint32_t at = hash & mask;
    while (slot[at].item != NAV__INDEX_NONE) at = (at + 1) & mask;
    slot[at] = (nav__index_slot){hash, item};
}

bool nav__index_add(nav__index *x, uint32_t hash, uint32_t item)
{
    uint32_t slots = x->slot ? x->mask + 1 : 0;
    if (2 * (uint64_t)(x->count + 1) > slots) { /* at most half full */
        if (slots > UINT32_MAX / 4) return false;
        uint32_t grown = slots ? 2 * slots : 16;
        nav__index_slot *slot = malloc((size_t)grown * sizeof *slot);
        if (!slot) return false;
        memset(slot, 0xff, (size_t)grown * sizeof *slot); /* every item NAV__INDEX_NONE */
        for (uint32_t i = 0; i < slots; i++)
            if (x->slot[i].item != NAV__INDEX_NONE) place(slot, grown - 1, x->slot[i].hash, x->slot[i].item);
        free(x->slot);
        x->slot = slot, x->mask = grown - 1;
    }
    place(x->slot, x->mask, hash, item);
    x->count++;
    return true;
}

void nav__index_free(nav__index *x)
{
    free(x->slot);
    *x = (nav__index){0};
}

uint32_t nav__index_hash_bytes(const void *p, size_t size)
{
    nav__hash64 h;
    nav__hash64_init(&h, 0);
    nav__hash64_update(&h, p, size);
    uint64_t d = nav__hash64_digest(&h);
    return (uint32_t)(d ^ (d >> 32));
}

uint32_t nav__index_hash_string(const char *s)
{
    return nav__index_hash_bytes(s, strlen(s));
}
