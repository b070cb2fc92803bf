/* Private: the open list of the grid searches: a ring of buckets, and an exact near part.
 *
 * With a consistent heuristic every f on the open list lies within one move's cost of the
 * smallest, so the list spans a few cost units while holding thousands of cells. Only the entries
 * of the lowest bucket of f (1/64 of a cost unit wide, chosen by measurement) are kept in exact
 * order, in the near part; later entries wait unsorted in a ring of buckets spanning 8 cost
 * units, and the rare ones beyond the ring (dear terrain, weighted searches) in the far heap,
 * ordered by key. A push past the current bucket is an append. The near part always holds every
 * entry of every bucket up to the current one, the ring every entry of the buckets after it, and
 * the far heap only entries past the ring's end, so pops come out in exactly the order of one big
 * heap: (key, tie, id). The idea is the two-level bucket queue of Denardo and Fox ("Shortest-route
 * methods: 1. Reaching, pruning, and buckets", 1979), with exact order at the lowest level.
 *
 * The near part is two structures. Most of it is a stack sorted from largest to smallest, so a
 * pop takes the last entry: a bucket arrives nearly sorted (many of its entries share one f and
 * came in roughly in the order they leave) and is insertion-sorted onto it at little more than
 * the cost of a copy, and a push that orders no later than the stack's top (the common case on
 * a plateau of equal f: the cells just reached have the larger g) goes onto it. Other pushes go
 * to the near heap, a binary heap, and a pop takes the smaller of the two tops. Measured on
 * brc501d: 93% of pops come off the stack; 25% fewer mispredicted branches and 5% fewer
 * instructions than with the heap alone, 4 to 12% less time.
 *
 * Every cell has at most one live entry. Its search record's tag says where it waits: in the
 * near heap (no flag; the heap keeps its position), at an index of the stack, at an index of a
 * ring bucket, or at an index of the far heap. The tag sits in the record the search has just
 * touched, so keeping it costs no extra cache miss. Lowering a key:
 * - in the near heap, the entry rises in place;
 * - on the stack, the top is rewritten in place; an entry below it stays behind dead (its cell's
 *   tag no longer names it) and a new one goes in; dead entries are dropped when they surface;
 * - in the ring, the entry is rewritten in place within its bucket or swap-removed to another.
 *   The ring bucket is not stored: it follows from the entry's key, which the search recomputes
 *   bit for bit from the cell's g (see nav__open_decrease).
 * Buckets grow through the allocator when a search needs more room and keep up to OPEN_KEEP
 * entries of it for the next search. */
#ifndef NAV_SRC_OPEN_LIST_H
#define NAV_SRC_OPEN_LIST_H

#include "nav/heap.h"

#define OPEN_RING         512u        /* buckets in the ring: 8 cost units at 1/64 a bucket */
#define OPEN_BUCKET_SHIFT 14          /* bucket of a key: key >> 14, 1/64 cost unit (keys count 2^-20) */
#define OPEN_KEEP         256u        /* bucket entries kept from one search to the next */
#define OPEN_IN_RING      0x80000000u /* search_node.open_tag: waits in a ring bucket, at the index */
#define OPEN_IN_FAR       0x40000000u /* search_node.open_tag: waits in the far heap, at the index */
#define OPEN_IN_STACK     0x20000000u /* search_node.open_tag: waits in the near stack, at the index */
#define OPEN_INDEX_MASK   0x1fffffffu /* buckets, the far heap and the stack hold fewer entries */

/* f is ordered at a resolution of 2^-20 cost units. Costs that are equal in exact arithmetic
 * (sums of 1 and sqrt 2 in different orders) differ in their last bits as doubles; rounded to
 * this grid they tie, so the tie rule (larger g first) applies where it was meant to. The price
 * is that a path may be longer than the optimum by at most one quantum. g itself stays exact. */
#define OPEN_F_SCALE 1048576.0
/* The tie: larger g first, at a resolution of 2^-10, saturating past 2^22 cost units (ties of
 * such long paths fall to the cell index). */
#define OPEN_G_TIE_SCALE 1024.0

/* The key of f, given already multiplied by OPEN_F_SCALE (the searches fold the scale into their
 * constants, which shortens the chain of dependent operations from a move to its key). Saturates
 * past 2^43 cost units (such cells fall back to the tie order among themselves). */
static inline uint64_t nav__open_key_scaled(double f_scaled)
{
    double scaled = f_scaled + 0.5;
    return scaled < 0x1p63 ? (uint64_t)(int64_t)scaled : (uint64_t)INT64_MAX;
}

static inline uint32_t nav__open_tie(double g)
{
    double scaled = g * OPEN_G_TIE_SCALE;
    return scaled >= (double)UINT32_MAX ? 0 : UINT32_MAX - (uint32_t)scaled;
}

/* Fixed-point costs (the searches on grids of one terrain cost, see search.c) count in units of
 * 2^-32 moves of length 1. Their key and tie have the resolutions above: the key is f rounded
 * down to 2^-20, the tie g rounded down to 2^-10. */
#define OPEN_FIXED_ONE   (1ull << 32)
#define OPEN_FIXED_SHIFT 12 /* 2^-32 to 2^-20 */

static inline uint64_t nav__open_key_fixed(uint64_t f_fixed)
{
    return f_fixed >> OPEN_FIXED_SHIFT;
}

static inline uint32_t nav__open_tie_fixed(uint64_t g_fixed)
{
    uint64_t scaled = g_fixed >> 22; /* 2^-32 to 2^-10 */
    return scaled >= UINT32_MAX ? 0 : ~(uint32_t)scaled;
}

/* The search's record of a cell: 16 bytes, aligned, never split across cache lines. */
typedef struct search_node {
    union {
        double g;         /* the cost of the best path found so far */
        uint64_t g_fixed; /* the same in fixed point, in the searches that use it */
    };
    uint32_t stamp;    /* generation << 12 | directions << 4 | closed << 3 | direction (search.c) */
    uint32_t open_tag; /* where its entry waits: OPEN_IN_STACK, OPEN_IN_RING or OPEN_IN_FAR | index,
                        * or 0: the near heap */
} search_node;

typedef struct open_bucket {
    nav_heap_entry *entries;
    uint32_t count, capacity;
} open_bucket;

typedef struct open_list {
    nav_heap near;       /* the current bucket (and any below it), with the stack */
    open_bucket stack;   /* near entries sorted from largest to smallest, dead ones included */
    uint32_t stack_dead; /* stack entries whose key was lowered (their cell's tag names another place) */
    bool top_in_stack;   /* where the entry nav__open_top returned last sits */
    search_node *nodes;  /* the search's records (for the tags) */
    open_bucket ring[OPEN_RING];
    uint64_t ring_used[OPEN_RING / 64]; /* a bit a slot: its bucket is not empty */
    open_bucket far;                    /* a binary min-heap of the entries at least OPEN_RING buckets on */
    uint64_t current;                   /* the bucket the near part holds */
    uint32_t bucketed;                  /* entries in the ring and far */
    bool oversized; /* a bucket grew past OPEN_KEEP entries: clear() gives such memory back */
    nav_allocator allocator;
} open_list;

/* Makes an empty open list for ids 0 .. id_count - 1 with the search's records of those ids.
 * Returns NAV_FAILURE | NAV_OUT_OF_MEMORY. */
nav_status nav__open_init(open_list *open, const nav_allocator *allocator, uint32_t id_count,
                          search_node *nodes);
void nav__open_destroy(open_list *open);
/* Empties the list, keeping its memory. */
void nav__open_clear(open_list *open);
/* Bytes held. */
size_t nav__open_memory_bytes(const open_list *open, uint32_t id_count);
/* Slow paths, out of line: grow a bucket (or the stack) or the near heap by one entry; add an
 * entry to the far heap; move the next bucket into the empty near part; find and move an entry
 * whose ring slot the recomputed key did not confirm (false only when out of memory). */
bool nav__open_bucket_grow(open_list *open, open_bucket *bucket);
bool nav__open_near_grow(open_list *open);
bool nav__open_far_push(open_list *open, nav_heap_entry e);
bool nav__open_advance(open_list *open);
bool nav__open_decrease_slow(open_list *open, uint64_t key, uint32_t tie, uint32_t id);
/* Writes up to max cells on the list into cells (the near part first, then the buckets); returns
 * how many. */
uint32_t nav__open_list_cells(const open_list *open, uint32_t *cells, uint32_t max);

static inline uint32_t nav__open_count(const open_list *open)
{
    return open->near.count + open->stack.count - open->stack_dead + open->bucketed;
}

/* Puts an entry at or below the current bucket into the near part: onto the stack when it orders
 * no later than the stack's top, else into the near heap. */
static inline bool nav__open_near_put(open_list *open, nav_heap_entry e)
{
    open_bucket *stack = &open->stack;
    if (stack->count == 0 || !nav_heap_entry_less(&stack->entries[stack->count - 1], &e)) {
        if (__builtin_expect(stack->count == stack->capacity, 0) && !nav__open_bucket_grow(open, stack))
            return false;
        open->nodes[nav_heap_entry_id(e)].open_tag = OPEN_IN_STACK | stack->count;
        stack->entries[stack->count++] = e;
        return true;
    }
    if (__builtin_expect(open->near.count == open->near.capacity, 0) && !nav__open_near_grow(open))
        return false;
    open->nodes[nav_heap_entry_id(e)].open_tag = 0;
    nav_heap_sift_up(&open->near, open->near.count++, e);
    return true;
}

/* Adds the entry (key, tie, id) of an id that is not on the list. Returns false when out of memory. */
static inline __attribute__((always_inline)) bool nav__open_insert(open_list *open, uint64_t key,
                                                                   uint32_t tie, uint32_t id)
{
    uint64_t bucket = key >> OPEN_BUCKET_SHIFT;
    if (nav__open_count(open) == 0) open->current = bucket; /* a fresh start: no order to keep */
    nav_heap_entry e = {key, (uint64_t)tie << 32 | id};
    if (bucket <= open->current) return nav__open_near_put(open, e);
    if (__builtin_expect(bucket - open->current >= OPEN_RING, 0)) return nav__open_far_push(open, e);
    uint32_t slot = (uint32_t)(bucket & (OPEN_RING - 1));
    open_bucket *b = &open->ring[slot];
    if (__builtin_expect(b->count == b->capacity, 0) && !nav__open_bucket_grow(open, b)) return false;
    open->nodes[id].open_tag = OPEN_IN_RING | b->count;
    b->entries[b->count++] = e;
    open->ring_used[slot / 64] |= 1ull << (slot % 64);
    open->bucketed++;
    return true;
}

/* Takes the entry at index at out of a ring bucket (the last entry fills its place). Branch-free:
 * whether the entry was the last one is data the processor cannot predict. When it was, the
 * stores rewrite the removed entry and its cell's tag, which the caller sets again. */
static inline void nav__open_ring_remove(open_list *open, uint32_t slot, uint32_t at)
{
    open_bucket *b = &open->ring[slot];
    nav_heap_entry last = b->entries[--b->count];
    b->entries[at] = last;
    open->nodes[nav_heap_entry_id(last)].open_tag = OPEN_IN_RING | at;
    open->ring_used[slot / 64] &= ~((uint64_t)(b->count == 0) << (slot % 64));
    open->bucketed--;
}

/* Lowers the key of an id on the list from old_key to key. old_key must be recomputed exactly as
 * it was computed when the entry went in (the same expression on the same g): it names the ring
 * bucket. Should it not match, the entry is found the slow way, so the list stays correct.
 * Returns false when out of memory. */
static inline __attribute__((always_inline)) bool nav__open_decrease(open_list *open, uint64_t old_key,
                                                                     uint64_t key, uint32_t tie, uint32_t id)
{
    uint32_t tag = open->nodes[id].open_tag;
    if (!(tag & (OPEN_IN_RING | OPEN_IN_FAR))) {
        if (!(tag & OPEN_IN_STACK)) {
            nav_heap_decrease(&open->near, id, key, tie);
            return true;
        }
        nav_heap_entry e = {key, (uint64_t)tie << 32 | id};
        if ((tag & OPEN_INDEX_MASK) == open->stack.count - 1) { /* the top: lowered, it stays the top */
            open->stack.entries[open->stack.count - 1] = e;
            return true;
        }
        open->stack_dead++; /* the old entry stays behind, dead */
        return nav__open_near_put(open, e);
    }
    uint64_t old_bucket = old_key >> OPEN_BUCKET_SHIFT, bucket = key >> OPEN_BUCKET_SHIFT;
    uint32_t slot = (uint32_t)(old_bucket & (OPEN_RING - 1)), at = tag & OPEN_INDEX_MASK;
    open_bucket *b = &open->ring[slot];
    if (__builtin_expect(!(tag & OPEN_IN_RING) || at >= b->count || nav_heap_entry_id(b->entries[at]) != id ||
                             b->entries[at].key != old_key,
                         0))
        return nav__open_decrease_slow(open, key, tie, id); /* far, or the key did not match */
    if (bucket == old_bucket) {
        b->entries[at] = (nav_heap_entry){key, (uint64_t)tie << 32 | id};
        return true;
    }
    nav__open_ring_remove(open, slot, at);
    return nav__open_insert(open, key, tie, id);
}

/* The smallest entry, moving the next bucket into the near heap if needed. Returns false when
 * the list is empty or out of memory (then *failed is set). */
static inline bool nav__open_top(open_list *open, nav_heap_entry *top, bool *failed)
{
    open_bucket *stack = &open->stack;
    for (;;) {
        while (__builtin_expect(open->stack_dead > 0, 0) && stack->count > 0 &&
               open->nodes[nav_heap_entry_id(stack->entries[stack->count - 1])].open_tag !=
                   (OPEN_IN_STACK | (stack->count - 1))) {
            stack->count--; /* dead: its cell has a lower entry elsewhere */
            open->stack_dead--;
        }
        if (open->near.count > 0 || stack->count > 0) break;
        if (open->bucketed == 0) return false;
        if (!nav__open_advance(open)) {
            *failed = true;
            return false;
        }
    }
    if (open->near.count == 0) {
        open->top_in_stack = true;
        *top = stack->entries[stack->count - 1];
        return true;
    }
    open->top_in_stack =
        stack->count > 0 && nav_heap_entry_less(&stack->entries[stack->count - 1], &open->near.entries[0]);
    *top = open->top_in_stack ? stack->entries[stack->count - 1] : open->near.entries[0];
    return true;
}

/* Removes the smallest entry; nav__open_top must have returned true just before. */
static inline uint32_t nav__open_pop(open_list *open)
{
    if (open->top_in_stack) return nav_heap_entry_id(open->stack.entries[--open->stack.count]);
    return nav_heap_entry_id(nav_heap_pop(&open->near));
}

#endif
