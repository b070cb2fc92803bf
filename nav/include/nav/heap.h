/* nav/heap.h - an indexed binary min-heap with decrease-key, the open list of every libnav search.
 *
 * Entries are (key, tie, id) ordered by key, then tie, then id, all ascending, so the order is
 * fixed and never depends on memory addresses. A search that wants "equal f: larger g first"
 * passes tie = -g. The heap records where each id sits in a position slot the caller provides:
 * slot(id) = (uint32_t *)((char *)pos_base + id * pos_stride), so the slot can live inside the
 * caller's own node record (one cache line for g, state and heap position).
 *
 *     nav_heap h;
 *     nav_heap_init(&h, NULL, 1024, nodes, sizeof nodes[0]) ... nav_heap_push(&h, f, -g, id);
 *     while (h.count) { nav_heap_entry e = nav_heap_pop(&h); ... }
 *     nav_heap_destroy(&h);
 */
#ifndef NAV_HEAP_H
#define NAV_HEAP_H

#include "nav/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nav_heap_entry {
    double key; /* primary order, ascending */
    double tie; /* secondary order, ascending */
    uint32_t id;
} nav_heap_entry;

typedef struct nav_heap {
    nav_heap_entry *entries;
    uint32_t count, capacity;
    void *pos_base;    /* [opt] where position slots live; null: no decrease-key */
    size_t pos_stride; /* bytes between the slots of id and id + 1 */
    nav_allocator allocator;
} nav_heap;

/* Creates an empty heap able to hold capacity entries (at least 1).
 * [in] allocator  [opt] memory hooks (null: malloc/free)
 * [in] pos_base   [opt] first position slot; pos_stride the distance between slots
 * Returns NAV_SUCCESS, or NAV_FAILURE | NAV_OUT_OF_MEMORY. */
nav_status nav_heap_init(nav_heap *heap, const nav_allocator *allocator, uint32_t capacity, void *pos_base,
                         size_t pos_stride);
void nav_heap_destroy(nav_heap *heap);

/* Empties the heap in O(1). */
static inline void nav_heap_clear(nav_heap *heap)
{
    heap->count = 0;
}

/* Adds an entry. Returns NAV_FAILURE | NAV_BUFFER_TOO_SMALL when the heap is full. */
nav_status nav_heap_push(nav_heap *heap, double key, double tie, uint32_t id);

/* Lowers the key of an id already in the heap (its slot says where). A higher key is ignored. */
void nav_heap_decrease(nav_heap *heap, uint32_t id, double key, double tie);

/* Removes and returns the smallest entry; the heap must not be empty. */
nav_heap_entry nav_heap_pop(nav_heap *heap);

/* The smallest entry without removing it; the heap must not be empty. */
static inline nav_heap_entry nav_heap_top(const nav_heap *heap)
{
    return heap->entries[0];
}

/* Position slot of an id (only when the heap was given pos_base). */
static inline uint32_t *nav_heap_slot(const nav_heap *heap, uint32_t id)
{
    return (uint32_t *)((char *)heap->pos_base + (size_t)id * heap->pos_stride);
}

#ifdef __cplusplus
}
#endif
#endif
