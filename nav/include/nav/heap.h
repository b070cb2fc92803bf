/* nav/heap.h - an indexed 4-ary min-heap with decrease-key, the open list of every libnav search.
 *
 * Entries are (key, tie, id) ordered by key, then tie, then id, all ascending and all integers,
 * so the order is fixed, never depends on memory addresses, and costs two integer compares. A
 * search maps its cost to a key (nav_heap_key_exact keeps a non-negative double's order exactly;
 * a search may also quantise) and uses tie for its secondary rule ("larger g first": tie = the
 * complement of g). The heap records where each id sits in a position slot the caller provides:
 * slot(id) = (uint32_t *)((char *)pos_base + id * pos_stride), so the slot can live inside the
 * caller's own node record (one cache line for g, state and heap position).
 *
 *     nav_heap h;
 *     nav_heap_init(&h, NULL, 1024, &nodes[0].heap_pos, sizeof nodes[0]);
 *     nav_heap_push(&h, nav_heap_key_exact(f), 0, id);
 *     while (h.count) { uint32_t id = nav_heap_entry_id(nav_heap_pop(&h)); ... }
 *     nav_heap_destroy(&h);
 */
#ifndef NAV_HEAP_H
#define NAV_HEAP_H

#include "nav/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nav_heap_entry {
    uint64_t key;   /* primary order, ascending */
    uint64_t order; /* tie << 32 | id: secondary order, then the id */
} nav_heap_entry;

static inline uint32_t nav_heap_entry_id(nav_heap_entry e)
{
    return (uint32_t)e.order;
}

/* An order-preserving key for a non-negative double (its IEEE bits, which sort like the values). */
static inline uint64_t nav_heap_key_exact(double non_negative)
{
    union {
        double d;
        uint64_t u;
    } bits;
    bits.d = non_negative + 0.0; /* -0.0 becomes +0.0 */
    return bits.u;
}

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

/* Position slot of an id (only when the heap was given pos_base). */
static inline uint32_t *nav_heap_slot(const nav_heap *heap, uint32_t id)
{
    return (uint32_t *)((char *)heap->pos_base + (size_t)id * heap->pos_stride);
}

/* The heap is 4-ary: half the depth of a binary heap, and the four children of a node share a
 * cache line or two, which matters more than the extra comparisons (searches pop far more than
 * they push). The operations are inline because they are the inner loop of every search. */
#define NAV_HEAP_ARITY 4

static inline bool nav_heap_entry_less(const nav_heap_entry *a, const nav_heap_entry *b)
{
    return a->key < b->key || (a->key == b->key && a->order < b->order);
}

static inline void nav_heap_place(nav_heap *heap, uint32_t at, nav_heap_entry e)
{
    heap->entries[at] = e;
    if (heap->pos_base) *nav_heap_slot(heap, nav_heap_entry_id(e)) = at;
}

static inline void nav_heap_sift_up(nav_heap *heap, uint32_t hole, nav_heap_entry e)
{
    while (hole > 0) {
        uint32_t parent = (hole - 1) / NAV_HEAP_ARITY;
        if (!nav_heap_entry_less(&e, &heap->entries[parent])) break;
        nav_heap_place(heap, hole, heap->entries[parent]);
        hole = parent;
    }
    nav_heap_place(heap, hole, e);
}

/* Adds an entry. Returns NAV_FAILURE | NAV_BUFFER_TOO_SMALL when the heap is full. */
static inline nav_status nav_heap_push(nav_heap *heap, uint64_t key, uint32_t tie, uint32_t id)
{
    if (heap->count == heap->capacity) return NAV_FAILURE | NAV_BUFFER_TOO_SMALL;
    nav_heap_entry e = {key, (uint64_t)tie << 32 | id};
    nav_heap_sift_up(heap, heap->count++, e);
    return NAV_SUCCESS;
}

/* Lowers the key of an id already in the heap (its slot says where). A higher key is ignored. */
static inline void nav_heap_decrease(nav_heap *heap, uint32_t id, uint64_t key, uint32_t tie)
{
    uint32_t at = *nav_heap_slot(heap, id);
    nav_heap_entry e = {key, (uint64_t)tie << 32 | id};
    if (nav_heap_entry_less(&e, &heap->entries[at])) nav_heap_sift_up(heap, at, e);
}

/* Removes and returns the smallest entry; the heap must not be empty. */
static inline nav_heap_entry nav_heap_pop(nav_heap *heap)
{
    nav_heap_entry *entries = heap->entries, top = entries[0], last = entries[--heap->count];
    uint32_t n = heap->count, hole = 0;
    if (n == 0) return top;
    for (;;) {
        uint32_t first = NAV_HEAP_ARITY * hole + 1;
        if (first >= n) break;
        uint32_t end = first + NAV_HEAP_ARITY < n ? first + NAV_HEAP_ARITY : n, best = first;
        for (uint32_t c = first + 1; c < end; c++)
            if (nav_heap_entry_less(&entries[c], &entries[best])) best = c;
        if (!nav_heap_entry_less(&entries[best], &last)) break;
        nav_heap_place(heap, hole, entries[best]);
        hole = best;
    }
    nav_heap_place(heap, hole, last);
    return top;
}

/* The smallest entry without removing it; the heap must not be empty. */
static inline nav_heap_entry nav_heap_top(const nav_heap *heap)
{
    return heap->entries[0];
}

#ifdef __cplusplus
}
#endif
#endif
