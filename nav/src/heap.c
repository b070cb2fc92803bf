/* Indexed binary heap: hole-based sifting (move the hole, write the entry once). */
#include "nav/heap.h"

#include "alloc.h"

static inline bool entry_less(const nav_heap_entry *a, const nav_heap_entry *b)
{
    if (a->key != b->key) return a->key < b->key;
    if (a->tie != b->tie) return a->tie < b->tie;
    return a->id < b->id;
}

static inline void place(nav_heap *heap, uint32_t at, nav_heap_entry e)
{
    heap->entries[at] = e;
    if (heap->pos_base) *nav_heap_slot(heap, e.id) = at;
}

static void sift_up(nav_heap *heap, uint32_t hole, nav_heap_entry e)
{
    while (hole > 0) {
        uint32_t parent = (hole - 1) / 2;
        if (!entry_less(&e, &heap->entries[parent])) break;
        place(heap, hole, heap->entries[parent]);
        hole = parent;
    }
    place(heap, hole, e);
}

static void sift_down(nav_heap *heap, uint32_t hole, nav_heap_entry e)
{
    uint32_t n = heap->count;
    for (;;) {
        uint32_t child = 2 * hole + 1;
        if (child >= n) break;
        if (child + 1 < n && entry_less(&heap->entries[child + 1], &heap->entries[child])) child++;
        if (!entry_less(&heap->entries[child], &e)) break;
        place(heap, hole, heap->entries[child]);
        hole = child;
    }
    place(heap, hole, e);
}

nav_status nav_heap_init(nav_heap *heap, const nav_allocator *allocator, uint32_t capacity, void *pos_base,
                         size_t pos_stride)
{
    if (!heap) return NAV_FAILURE | NAV_INVALID_PARAM;
    *heap = (nav_heap){.pos_base = pos_base, .pos_stride = pos_stride};
    nav__allocator_resolve(&heap->allocator, allocator);
    if (capacity == 0) capacity = 1;
    heap->entries = nav__alloc(&heap->allocator, nav__mul_size(capacity, sizeof *heap->entries));
    if (!heap->entries) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    heap->capacity = capacity;
    return NAV_SUCCESS;
}

void nav_heap_destroy(nav_heap *heap)
{
    if (!heap) return;
    nav__free(&heap->allocator, heap->entries);
    heap->entries = NULL;
    heap->count = heap->capacity = 0;
}

nav_status nav_heap_push(nav_heap *heap, double key, double tie, uint32_t id)
{
    if (heap->count == heap->capacity) return NAV_FAILURE | NAV_BUFFER_TOO_SMALL;
    nav_heap_entry e = {key, tie, id};
    sift_up(heap, heap->count++, e);
    return NAV_SUCCESS;
}

void nav_heap_decrease(nav_heap *heap, uint32_t id, double key, double tie)
{
    uint32_t at = *nav_heap_slot(heap, id);
    nav_heap_entry e = {key, tie, id};
    if (!entry_less(&e, &heap->entries[at])) return;
    sift_up(heap, at, e);
}

nav_heap_entry nav_heap_pop(nav_heap *heap)
{
    nav_heap_entry top = heap->entries[0];
    nav_heap_entry last = heap->entries[--heap->count];
    if (heap->count > 0) sift_down(heap, 0, last);
    return top;
}
