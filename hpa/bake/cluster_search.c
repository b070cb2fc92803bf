/* Dijkstra over one level of the abstract graph, kept inside one cluster's node range.
 *
 * The bake uses it to join the nodes of a level-l cluster through level-(l-1) edges. The scratch
 * is indexed by id - first, which the hierarchical node order makes dense. */
#include <math.h>

#include "alloc.h"
#include "hpa_internal.h"

nav_status nav__hpa_search_init(hpa_search *s, const nav_allocator *allocator, uint32_t capacity)
{
    *s = (hpa_search){0};
    s->allocator = *allocator;
    s->capacity = capacity ? capacity : 1;
    s->g = nav__alloc(allocator, nav__mul_size(s->capacity, sizeof *s->g));
    s->via = nav__alloc(allocator, nav__mul_size(s->capacity, sizeof *s->via));
    s->stamp = nav__calloc(allocator, s->capacity, sizeof *s->stamp);
    if (!s->g || !s->via || !s->stamp ||
        nav_failed(nav_heap_init(&s->open, allocator, s->capacity, s->capacity))) {
        nav__hpa_search_destroy(s);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    return NAV_SUCCESS;
}

void nav__hpa_search_destroy(hpa_search *s)
{
    nav_heap_destroy(&s->open);
    nav__free(&s->allocator, s->g);
    nav__free(&s->allocator, s->via);
    nav__free(&s->allocator, s->stamp);
    s->g = NULL;
    s->via = s->stamp = NULL;
}

void nav__hpa_search_begin(hpa_search *s, uint32_t first, uint32_t count)
{
    if (++s->generation >= (1u << 31)) {
        for (uint32_t i = 0; i < s->capacity; i++) s->stamp[i] = 0;
        s->generation = 1;
    }
    s->first = first;
    s->count = count;
    nav_heap_clear(&s->open);
}

static void relax(hpa_search *s, uint32_t i, double g, uint32_t via)
{
    uint32_t gen = s->generation << 1;
    if ((s->stamp[i] & ~1u) == gen) {
        if ((s->stamp[i] & 1u) || g >= s->g[i]) return;
        s->g[i] = g;
        s->via[i] = via;
        nav_heap_decrease(&s->open, i, nav_heap_key_exact(g), 0);
        return;
    }
    s->stamp[i] = gen;
    s->g[i] = g;
    s->via[i] = via;
    nav_heap_push(&s->open, nav_heap_key_exact(g), 0, i);
}

void nav__hpa_search_seed(hpa_search *s, uint32_t node, double g, uint32_t via)
{
    uint32_t i = node - s->first;
    if (i < s->count) relax(s, i, g, via);
}

void nav__hpa_search_run(hpa_search *s, const nav_hpa *hpa, int l, int min_level)
{
    const hpa_level *lv = &hpa->level[l];
    uint32_t left = 0;
    for (uint32_t i = 0; i < s->count; i++) left += hpa->node_level[s->first + i] >= min_level;
    while (s->open.count && left) {
        uint32_t i = nav_heap_entry_id(nav_heap_pop(&s->open)), u = s->first + i;
        s->stamp[i] |= 1u;
        if (hpa->node_level[u] >= min_level) left--;
        double g = s->g[i];
        for (uint32_t e = lv->edge_first[u]; e < lv->edge_first[u + 1]; e++) {
            uint32_t j = lv->edge_target[e] - s->first;
            if (j < s->count) relax(s, j, g + lv->edge_cost[e], e);
        }
    }
}
