/* nav/heap.h - an indexed binary min-heap with decrease-key, the open list of every libnav search.
 *
 * Entries are (key, tie, id) ordered by key, then tie, then id, all ascending and all integers,
 * so the order is fixed, never depends on memory addresses, and costs two integer compares. A
 * search maps its cost to a key (nav_heap_key_exact keeps a non-negative double's order exactly;
 * a search may also quantise) and uses tie for its secondary rule ("larger g first": tie = the
 * complement of g). For decrease-key the heap records where each id sits, in a dense array of
 * one uint32_t an id (a plain indexed store on every move of an entry: measured faster than a
 * slot inside the caller's larger node records, whose address needs a multiply).
 *
 *     nav_heap h;
 *     nav_heap_init(&h, NULL, 1024, cell_count);
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

/* A tie value that orders equal keys by larger g first (the libnav tie rule), g counted in 1/1024
 * units and clamped at 0 (g above about 4 million all tie). */
static inline uint32_t nav_heap_tie_larger_g(double g)
{
    double t = 4294967295.0 - g * 1024.0;
    return t <= 0 ? 0 : (uint32_t)t;
}

typedef struct nav_heap {
    nav_heap_entry *entries;
    uint32_t count, capacity;
    uint32_t *pos; /* position of each id in entries; null: no decrease-key */
    nav_allocator allocator;
} nav_heap;

/* Creates an empty heap able to hold capacity entries (at least 1).
 * [in] allocator  [opt] memory hooks (null: malloc/free)
 * [in] id_count   ids that may be lowered with nav_heap_decrease (0: no decrease-key, no array)
 * Returns NAV_SUCCESS, or NAV_FAILURE | NAV_OUT_OF_MEMORY. */
NAV_API nav_status nav_heap_init(nav_heap *heap, const nav_allocator *allocator, uint32_t capacity,
                                 uint32_t id_count);
NAV_API void nav_heap_destroy(nav_heap *heap);

/* Empties the heap in O(1). */
static inline void nav_heap_clear(nav_heap *heap)
{
    heap->count = 0;
}

/* The operations are inline because they are the inner loop of every search. */

static inline bool nav_heap_entry_less(const nav_heap_entry *a, const nav_heap_entry *b)
{
#if defined(__SIZEOF_INT128__)
    /* one 128-bit compare: branch-free, so the sift loops do not mispredict on every level */
    __extension__ typedef unsigned __int128 nav__u128;
    nav__u128 x = (nav__u128)a->key << 64 | a->order;
    nav__u128 y = (nav__u128)b->key << 64 | b->order;
    return x < y;
#else
    return a->key < b->key || (a->key == b->key && a->order < b->order);
#endif
}

static inline void nav_heap_place(nav_heap *heap, uint32_t at, nav_heap_entry e)
{
    heap->entries[at] = e;
    if (heap->pos) heap->pos[nav_heap_entry_id(e)] = at;
}

static inline void nav_heap_sift_up(nav_heap *heap, uint32_t hole, nav_heap_entry e)
{
    while (hole > 0) {
        uint32_t parent = (hole - 1) / 2;
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

/* Lowers the key of an id already in the heap. A higher key is ignored. */
static inline void nav_heap_decrease(nav_heap *heap, uint32_t id, uint64_t key, uint32_t tie)
{
    uint32_t at = heap->pos[id];
    nav_heap_entry e = {key, (uint64_t)tie << 32 | id};
    if (nav_heap_entry_less(&e, &heap->entries[at])) nav_heap_sift_up(heap, at, e);
}

/* Removes and returns the smallest entry; the heap must not be empty.
 * Bottom-up (Floyd; Wegener, "Bottom-up heapsort", 1993): the hole left at the root sinks to a
 * leaf along the smaller children, one compare a level, and the last entry then rises from
 * there. It usually belongs near the bottom, so this takes about half the compares of the
 * textbook sift-down, which compares with the sinking entry at every level too. */
static inline nav_heap_entry nav_heap_pop(nav_heap *heap)
{
    nav_heap_entry *entries = heap->entries, top = entries[0];
    uint32_t n = --heap->count, hole = 0;
    if (n == 0) return top;
    nav_heap_entry last = entries[n];
    for (;;) {
        uint32_t child = 2 * hole + 1;
        if (child + 1 >= n) {
            if (child + 1 == n) { /* a single child at the end */
                nav_heap_place(heap, hole, entries[child]);
                hole = child;
            }
            break;
        }
        child += nav_heap_entry_less(&entries[child + 1], &entries[child]);
        nav_heap_place(heap, hole, entries[child]);
        hole = child;
    }
    nav_heap_sift_up(heap, hole, last);
    return top;
}

#ifdef __cplusplus
}
#endif
#endif
