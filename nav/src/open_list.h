/* Private: the open list of the grid searches, a binary heap in front of a ring of buckets.
 *
 * With a consistent heuristic every f on the open list lies within one move's cost of the
 * smallest, so the list spans a few cost units while holding thousands of cells. Only the entries
 * of the lowest bucket of f (1/64 of a cost unit wide, chosen by measurement) sit in an exact binary heap,
 * the near heap; later entries wait unsorted in a ring of buckets, and the rare ones beyond the ring (a
 * weighted or greedy search, dear terrain) in one far list. A push past the current bucket is an
 * append, and pops work on a heap a few dozen entries deep instead of thousands. The near heap
 * always holds every entry of every bucket up to the current one, so pops come out in exactly
 * the order of one big heap: (key, tie, id). The idea is the two-level bucket queue of Denardo
 * and Fox ("Shortest-route methods: 1. Reaching, pruning, and buckets", 1979), with a heap as
 * the lowest level.
 *
 * Lowering the key of a bucketed entry appends a new copy and leaves the old one behind as stale.
 * Each cell's search record carries a tag, a "bucketed" flag and a version counted up on every
 * append; a copy is live while the tag still reads bucketed with its version. The tag sits in the
 * record the search has just touched, so bucketing costs no extra cache miss.
 * Buckets grow through the allocator when a search needs more room and keep up to OPEN_KEEP
 * entries of it for the next search. Known weakness: on a wide plateau of equal f (open ground in
 * city maps) the bucket just above it collects many stale copies, since every lowered key appends;
 * a search then holds a few MiB of copies until its end. Updating copies in place (their index
 * kept in the tag) would remove that. */
#ifndef NAV_SRC_OPEN_LIST_H
#define NAV_SRC_OPEN_LIST_H

#include "nav/heap.h"

#define OPEN_RING         512u        /* buckets in the ring: 8 cost units at 1/64 a bucket */
#define OPEN_BUCKET_SHIFT 14          /* bucket of a key: key >> 14, 1/64 cost unit (keys count 2^-20) */
#define OPEN_KEEP         256u        /* bucket entries kept from one search to the next */
#define OPEN_IN_BUCKET    0x80000000u /* search_node.open_tag: the live entry waits in a bucket */

/* f is ordered at a resolution of 2^-20 cost units. Costs that are equal in exact arithmetic
 * (sums of 1 and sqrt 2 in different orders) differ in their last bits as doubles; rounded to
 * this grid they tie, so the tie rule (larger g first) applies where it was meant to. The price
 * is that a path may be longer than the optimum by at most one quantum. g itself stays exact. */
#define OPEN_F_SCALE 1048576.0
/* The tie: larger g first, at a resolution of 2^-10, saturating past 2^22 cost units (ties of
 * such long paths fall to the cell index). */
#define OPEN_G_TIE_SCALE 1024.0

static inline uint64_t nav__open_key(double f)
{
    return (uint64_t)(f * OPEN_F_SCALE + 0.5);
}

static inline uint32_t nav__open_tie(double g)
{
    double scaled = g * OPEN_G_TIE_SCALE;
    return scaled >= (double)UINT32_MAX ? 0 : UINT32_MAX - (uint32_t)scaled;
}

/* The search's record of a cell: 16 bytes, aligned, never split across cache lines. */
typedef struct search_node {
    double g;
    uint32_t stamp;    /* generation << 4 | closed << 3 | direction reached from (search.c) */
    uint32_t open_tag; /* OPEN_IN_BUCKET | version while the live entry waits in a bucket */
} search_node;

typedef struct open_bucket {
    nav_heap_entry *entries;
    uint32_t count, capacity;
} open_bucket;

typedef struct open_list {
    nav_heap near;      /* the current bucket (and any below it) */
    search_node *nodes; /* the search's records (for the tags) */
    open_bucket ring[OPEN_RING];
    uint64_t ring_used[OPEN_RING / 64];
    open_bucket far;   /* entries at least OPEN_RING buckets past the current one */
    uint64_t far_min;  /* lowest bucket in far (a lower bound: it may belong to a stale copy) */
    uint64_t current;  /* the bucket the near heap holds */
    uint32_t bucketed; /* live entries in the ring and far */
    bool oversized;    /* a bucket grew past OPEN_KEEP entries: clear() gives such memory back */
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
/* Slow paths, out of line: grow a bucket or the near heap by one entry; move the next bucket
 * into the empty near heap (false only when out of memory). */
bool nav__open_bucket_grow(open_list *open, open_bucket *bucket);
bool nav__open_near_grow(open_list *open);
bool nav__open_advance(open_list *open);
/* Writes up to max live cells into cells (near heap first, then buckets); returns how many. */
uint32_t nav__open_list_cells(const open_list *open, uint32_t *cells, uint32_t max);

static inline uint32_t nav__open_count(const open_list *open)
{
    return open->near.count + open->bucketed;
}

/* Appends a bucket copy of a cell's entry: {key, version << 32 | id}, the version fresh. */
static inline bool nav__open_append(open_list *open, open_bucket *bucket, uint64_t key, uint32_t id)
{
    if (__builtin_expect(bucket->count == bucket->capacity, 0) && !nav__open_bucket_grow(open, bucket))
        return false;
    search_node *node = &open->nodes[id];
    uint32_t version = (node->open_tag + 1) & ~OPEN_IN_BUCKET;
    node->open_tag = OPEN_IN_BUCKET | version;
    bucket->entries[bucket->count++] = (nav_heap_entry){key, (uint64_t)version << 32 | id};
    return true;
}

/* Adds the entry (key, tie, id) of an id that is not on the list. Returns false when out of memory. */
static inline __attribute__((always_inline)) bool nav__open_insert(open_list *open, uint64_t key,
                                                                   uint32_t tie, uint32_t id)
{
    uint64_t bucket = key >> OPEN_BUCKET_SHIFT;
    if (nav__open_count(open) == 0) open->current = bucket; /* a fresh start: no order to keep */
    if (bucket <= open->current) {
        if (__builtin_expect(open->near.count == open->near.capacity, 0) && !nav__open_near_grow(open))
            return false;
        open->nodes[id].open_tag &= ~OPEN_IN_BUCKET;
        nav_heap_push(&open->near, key, tie, id);
        return true;
    }
    if (bucket - open->current < OPEN_RING) {
        uint32_t slot = (uint32_t)(bucket & (OPEN_RING - 1));
        if (!nav__open_append(open, &open->ring[slot], key, id)) return false;
        open->ring_used[slot / 64] |= 1ull << (slot % 64);
    } else {
        if (!nav__open_append(open, &open->far, key, id)) return false;
        if (bucket < open->far_min) open->far_min = bucket;
    }
    open->bucketed++;
    return true;
}

/* Lowers the key of an id on the list. Returns false when out of memory. */
static inline __attribute__((always_inline)) bool nav__open_decrease(open_list *open, uint64_t key,
                                                                     uint32_t tie, uint32_t id)
{
    if (!(open->nodes[id].open_tag & OPEN_IN_BUCKET)) {
        nav_heap_decrease(&open->near, id, key, tie);
        return true;
    }
    open->bucketed--; /* the old copy turns stale; the new one counts */
    return nav__open_insert(open, key, tie, id);
}

/* The smallest entry, moving the next bucket into the near heap if needed. Returns false when
 * the list is empty or out of memory (then *failed is set). */
static inline bool nav__open_top(open_list *open, nav_heap_entry *top, bool *failed)
{
    if (open->near.count == 0) {
        if (open->bucketed == 0) return false;
        if (!nav__open_advance(open)) {
            *failed = true;
            return false;
        }
    }
    *top = open->near.entries[0];
    return true;
}

/* Removes the smallest entry; nav__open_top must have returned true just before. */
static inline uint32_t nav__open_pop(open_list *open)
{
    return nav_heap_entry_id(nav_heap_pop(&open->near));
}

#endif
