/* The grid searches' open list: its slow paths (see open_list.h for the idea). */
#include "open_list.h"

#include <string.h>

#include "alloc.h"

#define OPEN_NEAR_INITIAL 1024u

nav_status nav__open_init(open_list *open, const nav_allocator *allocator, uint32_t id_count,
                          search_node *nodes)
{
    *open = (open_list){.nodes = nodes};
    nav__allocator_resolve(&open->allocator, allocator);
    return nav_heap_init(&open->near, &open->allocator, OPEN_NEAR_INITIAL, id_count);
}

void nav__open_destroy(open_list *open)
{
    nav_heap_destroy(&open->near);
    nav__free(&open->allocator, open->stack.entries);
    for (uint32_t i = 0; i < OPEN_RING; i++) nav__free(&open->allocator, open->ring[i].entries);
    nav__free(&open->allocator, open->far.entries);
    *open = (open_list){0};
}

void nav__open_clear(open_list *open)
{
    if (open->oversized) { /* give back what one big search grew, so it does not pile up */
        for (uint32_t i = 0; i <= OPEN_RING; i++) {
            open_bucket *bucket = i < OPEN_RING ? &open->ring[i] : &open->far;
            if (bucket->capacity <= OPEN_KEEP) continue;
            nav__free(&open->allocator, bucket->entries);
            *bucket = (open_bucket){0};
        }
        open->oversized = false;
    }
    nav_heap_clear(&open->near);
    open->stack.count = open->stack_dead = 0;
    for (uint32_t word = 0; word < OPEN_RING / 64; word++) {
        for (uint64_t bits = open->ring_used[word]; bits; bits &= bits - 1)
            open->ring[word * 64 + (uint32_t)__builtin_ctzll(bits)].count = 0;
        open->ring_used[word] = 0;
    }
    open->far.count = 0;
    open->bucketed = 0;
    open->current = 0;
}

size_t nav__open_memory_bytes(const open_list *open, uint32_t id_count)
{
    size_t bytes = (size_t)id_count * sizeof *open->near.pos;
    bytes += (size_t)open->near.capacity * sizeof *open->near.entries;
    bytes += (size_t)open->stack.capacity * sizeof *open->stack.entries;
    for (uint32_t i = 0; i < OPEN_RING; i++) bytes += (size_t)open->ring[i].capacity * sizeof(nav_heap_entry);
    return bytes + (size_t)open->far.capacity * sizeof(nav_heap_entry);
}

bool nav__open_bucket_grow(open_list *open, open_bucket *bucket)
{
    if (bucket->capacity > OPEN_INDEX_MASK / 2) return false; /* indexes must fit a tag */
    uint32_t grown = bucket->capacity ? bucket->capacity * 2 : 64;
    nav_heap_entry *entries =
        nav__realloc(&open->allocator, bucket->entries, bucket->capacity * sizeof *entries,
                     nav__mul_size(grown, sizeof *entries));
    if (!entries) return false;
    bucket->entries = entries;
    bucket->capacity = grown;
    if (grown > OPEN_KEEP) open->oversized = true;
    return true;
}

bool nav__open_near_grow(open_list *open)
{
    nav_heap *near = &open->near;
    if (near->capacity > UINT32_MAX / 4) return false; /* positions keep the top bit as a flag */
    uint32_t grown = near->capacity * 2;
    nav_heap_entry *entries = nav__realloc(&open->allocator, near->entries, near->capacity * sizeof *entries,
                                           nav__mul_size(grown, sizeof *entries));
    if (!entries) return false;
    near->entries = entries;
    near->capacity = grown;
    return true;
}

/* ---- the far heap: a binary min-heap whose entries' positions live in the cells' tags ---------- */

static inline void far_place(open_list *open, uint32_t at, nav_heap_entry e)
{
    open->far.entries[at] = e;
    open->nodes[nav_heap_entry_id(e)].open_tag = OPEN_IN_FAR | at;
}

static void far_sift_up(open_list *open, uint32_t hole, nav_heap_entry e)
{
    while (hole > 0) {
        uint32_t parent = (hole - 1) / 2;
        if (!nav_heap_entry_less(&e, &open->far.entries[parent])) break;
        far_place(open, hole, open->far.entries[parent]);
        hole = parent;
    }
    far_place(open, hole, e);
}

static void far_sift_down(open_list *open, uint32_t hole, nav_heap_entry e)
{
    uint32_t n = open->far.count;
    for (;;) {
        uint32_t child = 2 * hole + 1;
        if (child >= n) break;
        if (child + 1 < n && nav_heap_entry_less(&open->far.entries[child + 1], &open->far.entries[child]))
            child++;
        if (!nav_heap_entry_less(&open->far.entries[child], &e)) break;
        far_place(open, hole, open->far.entries[child]);
        hole = child;
    }
    far_place(open, hole, e);
}

bool nav__open_far_push(open_list *open, nav_heap_entry e)
{
    if (open->far.count == open->far.capacity && !nav__open_bucket_grow(open, &open->far)) return false;
    far_sift_up(open, open->far.count++, e);
    open->bucketed++;
    return true;
}

/* Takes the entry at index at out of the far heap and returns it. */
static nav_heap_entry far_remove(open_list *open, uint32_t at)
{
    nav_heap_entry removed = open->far.entries[at], last = open->far.entries[--open->far.count];
    open->bucketed--;
    if (at < open->far.count) {
        if (nav_heap_entry_less(&last, &removed))
            far_sift_up(open, at, last);
        else
            far_sift_down(open, at, last);
    }
    return removed;
}

/* Moves the far entries that the ring now spans into it (or, at or below the current bucket, into
 * the near part), so that the ring never advances past one of them. */
static bool pull_far(open_list *open)
{
    while (open->far.count > 0 &&
           (open->far.entries[0].key >> OPEN_BUCKET_SHIFT) - open->current < OPEN_RING) {
        nav_heap_entry e = far_remove(open, 0);
        if (!nav__open_insert(open, e.key, (uint32_t)(e.order >> 32), nav_heap_entry_id(e))) return false;
    }
    return true;
}

/* ---- moving through the ring ------------------------------------------------------------------ */

/* The first used ring slot after the current bucket, as a distance 1 .. OPEN_RING - 1, or 0. */
static uint32_t next_used_slot(const open_list *open)
{
    for (uint32_t distance = 1; distance < OPEN_RING;) {
        uint32_t slot = (uint32_t)((open->current + distance) & (OPEN_RING - 1));
        uint64_t bits = open->ring_used[slot / 64] >> (slot % 64); /* this slot and the rest of its word */
        if (bits) {
            distance += (uint32_t)__builtin_ctzll(bits);
            return distance < OPEN_RING ? distance : 0;
        }
        distance += 64 - slot % 64;
    }
    return 0;
}

/* Restores the heap order below hole in a plain array of n entries (no positions kept). */
static void sift_down_plain(nav_heap_entry *entries, uint32_t n, uint32_t hole)
{
    nav_heap_entry e = entries[hole];
    for (;;) {
        uint32_t child = 2 * hole + 1;
        if (child >= n) break;
        if (child + 1 < n && nav_heap_entry_less(&entries[child + 1], &entries[child])) child++;
        if (!nav_heap_entry_less(&entries[child], &e)) break;
        entries[hole] = entries[child];
        hole = child;
    }
    entries[hole] = e;
}

/* Moves a whole ring bucket into the empty near part. Buckets come nearly sorted (entries of one
 * f arrive mostly in the order they will leave: 95% of neighbouring pairs on brc501d), so an
 * insertion sort onto the stack, largest first, costs little more than a copy, and pops then take
 * the last entry. Should a bucket turn out far from sorted, it is heapified into the near heap
 * (Floyd) instead. */
static bool load_slot(open_list *open, uint32_t slot)
{
    open_bucket *bucket = &open->ring[slot], *stack = &open->stack;
    uint32_t n = bucket->count;
    while (stack->capacity < n)
        if (!nav__open_bucket_grow(open, stack)) return false;
    nav_heap_entry *dst = stack->entries;
    uint64_t moves = 0, budget = 8 * (uint64_t)n + 64;
    uint32_t i = 0;
    for (; i < n && moves <= budget; i++) {
        nav_heap_entry e = bucket->entries[n - 1 - i]; /* from the back: nearly largest first */
        uint32_t j = i;
        for (; j > 0 && nav_heap_entry_less(&dst[j - 1], &e); j--) dst[j] = dst[j - 1];
        moves += i - j;
        dst[j] = e;
    }
    if (i == n) {
        for (uint32_t k = 0; k < n; k++) open->nodes[nav_heap_entry_id(dst[k])].open_tag = OPEN_IN_STACK | k;
        stack->count = n;
    } else { /* far from sorted: a heap */
        nav_heap *near = &open->near;
        while (near->capacity < n)
            if (!nav__open_near_grow(open)) return false;
        nav_heap_entry *heap = near->entries;
        memcpy(heap, bucket->entries, n * sizeof *heap);
        for (uint32_t k = n / 2; k-- > 0;) sift_down_plain(heap, n, k);
        for (uint32_t k = 0; k < n; k++) {
            uint32_t id = nav_heap_entry_id(heap[k]);
            near->pos[id] = k;
            open->nodes[id].open_tag = 0;
        }
        near->count = n;
    }
    bucket->count = 0;
    open->ring_used[slot / 64] &= ~(1ull << (slot % 64));
    open->bucketed -= n;
    return true;
}

bool nav__open_advance(open_list *open)
{
    while (open->near.count == 0 && open->stack.count == 0 && open->bucketed > 0) {
        if (open->far.count > 0) {
            if (!pull_far(open)) return false;
            if (open->near.count > 0 || open->stack.count > 0) break;
        }
        uint32_t distance = next_used_slot(open);
        if (distance == 0) { /* the ring is empty: jump to the far heap's first bucket */
            open->current = open->far.entries[0].key >> OPEN_BUCKET_SHIFT;
            continue;
        }
        open->current += distance;
        if (!load_slot(open, (uint32_t)(open->current & (OPEN_RING - 1)))) return false;
    }
    return true;
}

bool nav__open_decrease_slow(open_list *open, uint64_t key, uint32_t tie, uint32_t id)
{
    uint32_t tag = open->nodes[id].open_tag, at = tag & OPEN_INDEX_MASK;
    if (tag & OPEN_IN_FAR) {
        if ((key >> OPEN_BUCKET_SHIFT) - open->current >= OPEN_RING) {
            far_sift_up(open, at, (nav_heap_entry){key, (uint64_t)tie << 32 | id});
            return true;
        }
        far_remove(open, at);
        return nav__open_insert(open, key, tie, id);
    }
    /* The recomputed key did not name the entry's bucket: look in every bucket. */
    for (uint32_t slot = 0; slot < OPEN_RING; slot++) {
        open_bucket *b = &open->ring[slot];
        if (at < b->count && nav_heap_entry_id(b->entries[at]) == id) {
            nav__open_ring_remove(open, slot, at);
            break;
        }
    }
    return nav__open_insert(open, key, tie, id);
}

uint32_t nav__open_list_cells(const open_list *open, uint32_t *cells, uint32_t max)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < open->near.count && n < max; i++)
        cells[n++] = nav_heap_entry_id(open->near.entries[i]);
    for (uint32_t i = 0; i < open->stack.count && n < max; i++) {
        uint32_t id = nav_heap_entry_id(open->stack.entries[i]);
        if (open->nodes[id].open_tag == (OPEN_IN_STACK | i)) cells[n++] = id; /* not a dead one */
    }
    for (uint32_t slot = 0; slot <= OPEN_RING && n < max; slot++) {
        const open_bucket *bucket = slot < OPEN_RING ? &open->ring[slot] : &open->far;
        for (uint32_t i = 0; i < bucket->count && n < max; i++)
            cells[n++] = nav_heap_entry_id(bucket->entries[i]);
    }
    return n;
}
