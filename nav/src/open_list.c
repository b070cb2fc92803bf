/* The grid searches' open list: its slow paths (see open_list.h for the idea). */
#include "open_list.h"

#include "alloc.h"

#define OPEN_NEAR_INITIAL 1024u

nav_status nav__open_init(open_list *open, const nav_allocator *allocator, uint32_t id_count,
                          search_node *nodes)
{
    *open = (open_list){.far_min = UINT64_MAX, .nodes = nodes};
    nav__allocator_resolve(&open->allocator, allocator);
    return nav_heap_init(&open->near, &open->allocator, OPEN_NEAR_INITIAL, id_count);
}

void nav__open_destroy(open_list *open)
{
    nav_heap_destroy(&open->near);
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
    for (uint32_t word = 0; word < OPEN_RING / 64; word++) {
        for (uint64_t bits = open->ring_used[word]; bits; bits &= bits - 1)
            open->ring[word * 64 + (uint32_t)__builtin_ctzll(bits)].count = 0;
        open->ring_used[word] = 0;
    }
    open->far.count = 0;
    open->far_min = UINT64_MAX;
    open->bucketed = 0;
    open->current = 0;
}

size_t nav__open_memory_bytes(const open_list *open, uint32_t id_count)
{
    size_t bytes = (size_t)id_count * sizeof *open->near.pos;
    bytes += (size_t)open->near.capacity * sizeof *open->near.entries;
    for (uint32_t i = 0; i < OPEN_RING; i++) bytes += (size_t)open->ring[i].capacity * sizeof(nav_heap_entry);
    return bytes + (size_t)open->far.capacity * sizeof(nav_heap_entry);
}

bool nav__open_bucket_grow(open_list *open, open_bucket *bucket)
{
    if (bucket->capacity > UINT32_MAX / 2) return false;
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

/* A bucket copy is live while its cell's tag reads bucketed with the copy's version. */
static inline bool live(const open_list *open, nav_heap_entry e)
{
    return open->nodes[nav_heap_entry_id(e)].open_tag == (OPEN_IN_BUCKET | (uint32_t)(e.order >> 32));
}

/* Moves a live bucket copy into the near heap, with its tie from the cell's g. */
static bool load_into_near(open_list *open, nav_heap_entry e)
{
    if (open->near.count == open->near.capacity && !nav__open_near_grow(open)) return false;
    uint32_t id = nav_heap_entry_id(e);
    search_node *node = &open->nodes[id];
    node->open_tag &= ~OPEN_IN_BUCKET;
    open->bucketed--;
    nav_heap_push(&open->near, e.key, nav__open_tie(node->g), id);
    return true;
}

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

/* The ring is empty: restart it at the lowest far bucket and sort the far entries out. */
static bool refill_from_far(open_list *open)
{
    open->current = open->far_min;
    open->far_min = UINT64_MAX;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < open->far.count; i++) {
        nav_heap_entry e = open->far.entries[i];
        if (!live(open, e)) continue;
        uint64_t bucket = e.key >> OPEN_BUCKET_SHIFT;
        if (bucket <= open->current) {
            if (!load_into_near(open, e)) return false;
        } else if (bucket - open->current < OPEN_RING) {
            uint32_t slot = (uint32_t)(bucket & (OPEN_RING - 1));
            if (!nav__open_append(open, &open->ring[slot], e.key, nav_heap_entry_id(e))) return false;
            open->ring_used[slot / 64] |= 1ull << (slot % 64);
        } else {
            open->far.entries[kept++] = e; /* stays live: same version */
            if (bucket < open->far_min) open->far_min = bucket;
        }
    }
    open->far.count = kept;
    return true;
}

bool nav__open_advance(open_list *open)
{
    while (open->near.count == 0 && open->bucketed > 0) {
        uint32_t distance = next_used_slot(open);
        if (distance == 0) {
            if (!refill_from_far(open)) return false;
            continue;
        }
        open->current += distance;
        uint32_t slot = (uint32_t)(open->current & (OPEN_RING - 1));
        open_bucket *bucket = &open->ring[slot];
        for (uint32_t i = 0; i < bucket->count; i++)
            if (live(open, bucket->entries[i]) && !load_into_near(open, bucket->entries[i])) return false;
        bucket->count = 0;
        open->ring_used[slot / 64] &= ~(1ull << (slot % 64));
    }
    return true;
}

uint32_t nav__open_list_cells(const open_list *open, uint32_t *cells, uint32_t max)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < open->near.count && n < max; i++)
        cells[n++] = nav_heap_entry_id(open->near.entries[i]);
    for (uint32_t slot = 0; slot <= OPEN_RING && n < max; slot++) {
        const open_bucket *bucket = slot < OPEN_RING ? &open->ring[slot] : &open->far;
        if (slot < OPEN_RING && !(open->ring_used[slot / 64] >> (slot % 64) & 1)) continue;
        for (uint32_t i = 0; i < bucket->count && n < max; i++)
            if (live(open, bucket->entries[i])) cells[n++] = nav_heap_entry_id(bucket->entries[i]);
    }
    return n;
}
