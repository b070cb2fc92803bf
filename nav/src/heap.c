/* Indexed binary heap: creation and release (the operations are inline in nav/heap.h). */
#include "nav/heap.h"

#include "alloc.h"

nav_status nav_heap_init(nav_heap *heap, const nav_allocator *allocator, uint32_t capacity, uint32_t id_count)
{
    if (!heap) return NAV_FAILURE | NAV_INVALID_PARAM;
    *heap = (nav_heap){0};
    nav__allocator_resolve(&heap->allocator, allocator);
    if (capacity == 0) capacity = 1;
    heap->entries = nav__alloc(&heap->allocator, nav__mul_size(capacity, sizeof *heap->entries));
    if (id_count) heap->pos = nav__alloc(&heap->allocator, nav__mul_size(id_count, sizeof *heap->pos));
    if (!heap->entries || (id_count && !heap->pos)) {
        nav_heap_destroy(heap);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    heap->capacity = capacity;
    return NAV_SUCCESS;
}

void nav_heap_destroy(nav_heap *heap)
{
    if (!heap) return;
    nav__free(&heap->allocator, heap->entries);
    nav__free(&heap->allocator, heap->pos);
    heap->entries = NULL;
    heap->pos = NULL;
    heap->count = heap->capacity = 0;
}
