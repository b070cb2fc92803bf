/* The scratch every region kind keeps in a world query (or a bake thread), and what the kinds whose
 * fans are one search a target share: their fans, their legs, and the paths the fans keep for the
 * legs that follow them (nav__world_memo). */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "world_internal.h"

nav_status nav__world_scratch_init(nav__world_scratch *s, const nav_world *w, const nav_allocator *a,
                                   const nav_allocator *path)
{
    *s = (nav__world_scratch){.allocator = *a, .grid_cells = w->largest_cells};
    nav_path_init(&s->path, path);
    s->ids = nav__alloc(a, ((size_t)w->max_region_chokes + 1) * sizeof *s->ids);
    nav_status st = s->ids ? NAV_SUCCESS : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (int e = 0; e < 2 && !nav_failed(st); e++) {
        nav__world_memo *m = &s->memo[e];
        nav_path_init(&m->paths, path);
        m->first = nav__alloc(a, ((size_t)w->max_region_chokes + 2) * sizeof *m->first);
        m->cost = nav__alloc(a, ((size_t)w->max_region_chokes + 1) * sizeof *m->cost);
        if (!m->first || !m->cost) st = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    /* all made now when the regions are in memory (a bake's threads must not allocate through the
     * caller's allocator); on demand, each when first needed (nav__world_scratch_grid, _mesh) */
    if (!nav_failed(st) && w->largest_grid) /* (a fan grows its buckets as it goes: the path's allocator) */
        st = nav_region_query_create(w->largest_grid, (uint32_t)w->largest_cells, path, &s->grid);
    if (!nav_failed(st) && w->hpa_regions) {
        s->hpa = nav__calloc(a, w->region_count, sizeof *s->hpa);
        s->hpa_generation = nav__calloc(a, w->region_count, sizeof *s->hpa_generation);
        if (!s->hpa || !s->hpa_generation) st = NAV_FAILURE | NAV_OUT_OF_MEMORY;
        for (uint32_t r = 0; r < w->region_count && !nav_failed(st) && !w->cache; r++)
            if (w->regions[r].hpa) /* (its buffers grow while it plans: from the path's allocator) */
                st = nav_hpa_query_create(w->regions[r].hpa, w->regions[r].grid,
                                          &(nav_hpa_query_desc){.allocator = path}, &s->hpa[r]);
    }
    if (!nav_failed(st) && w->mesh_regions) {
        s->mesh = nav__calloc(a, w->region_count, sizeof *s->mesh);
        s->mesh_generation = nav__calloc(a, w->region_count, sizeof *s->mesh_generation);
        if (!s->mesh || !s->mesh_generation) st = NAV_FAILURE | NAV_OUT_OF_MEMORY;
        for (uint32_t r = 0; r < w->region_count && !nav_failed(st) && !w->cache; r++)
            if (w->regions[r].mesh)
                st = nav_mesh_query_create(w->regions[r].mesh, &(nav_mesh_query_desc){.allocator = a},
                                           &s->mesh[r]);
    }
    if (nav_failed(st)) {
        nav__world_scratch_free(s, w);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    return NAV_SUCCESS;
}

nav_status nav__world_scratch_grid(nav__world_scratch *s, const nav__world_region *r)
{
    if (!s->grid &&
        nav_failed(nav_region_query_create(r->grid, (uint32_t)s->grid_cells, &s->allocator, &s->grid)))
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    return nav_region_query_set_grid(s->grid, r->grid);
}

nav_mesh_query *nav__world_scratch_mesh(nav__world_scratch *s, const nav__world_region *r)
{
    nav_mesh_query **q = &s->mesh[r->index];
    if (*q && s->mesh_generation[r->index] == r->generation) return *q;
    nav_mesh_query_destroy(*q); /* made for an earlier load of the region */
    *q = NULL;
    if (nav_failed(nav_mesh_query_create(r->mesh, &(nav_mesh_query_desc){.allocator = &s->allocator}, q)))
        return NULL;
    s->mesh_generation[r->index] = r->generation;
    return *q;
}

nav_hpa_query *nav__world_scratch_hpa(nav__world_scratch *s, const nav__world_region *r)
{
    nav_hpa_query **q = &s->hpa[r->index];
    if (*q && s->hpa_generation[r->index] == r->generation) return *q;
    nav_hpa_query_destroy(*q); /* made for an earlier load of the region */
    *q = NULL;
    if (nav_failed(
            nav_hpa_query_create(r->hpa, r->grid, &(nav_hpa_query_desc){.allocator = &s->allocator}, q)))
        return NULL;
    s->hpa_generation[r->index] = r->generation;
    return *q;
}

void nav__world_scratch_free(nav__world_scratch *s, const nav_world *w)
{
    if (s->hpa)
        for (uint32_t r = 0; r < w->region_count; r++) nav_hpa_query_destroy(s->hpa[r]);
    nav__free(&s->allocator, s->hpa);
    nav__free(&s->allocator, s->hpa_generation);
    s->hpa = NULL;
    s->hpa_generation = NULL;
    nav_region_query_destroy(s->grid);
    s->grid = NULL;
    if (s->mesh)
        for (uint32_t r = 0; r < w->region_count; r++) nav_mesh_query_destroy(s->mesh[r]);
    nav__free(&s->allocator, s->mesh);
    nav__free(&s->allocator, s->mesh_generation);
    nav__free(&s->allocator, s->ids);
    for (int e = 0; e < 2; e++) {
        nav__world_memo *m = &s->memo[e];
        nav_path_destroy(&m->paths);
        nav__free(&s->allocator, m->first);
        nav__free(&s->allocator, m->cost);
        *m = (nav__world_memo){0};
    }
    s->mesh = NULL;
    s->mesh_generation = NULL;
    s->ids = NULL;
    nav_path_destroy(&s->path);
}

size_t nav__world_scratch_bytes(const nav__world_scratch *s, const nav_world *w)
{
    size_t bytes = nav_region_query_memory_bytes(s->grid);
    if (s->mesh)
        for (uint32_t r = 0; r < w->region_count; r++)
            bytes += sizeof *s->mesh + nav_mesh_query_memory_bytes(s->mesh[r]);
    if (s->hpa)
        for (uint32_t r = 0; r < w->region_count; r++)
            bytes += sizeof *s->hpa + nav_hpa_query_memory_bytes(s->hpa[r]);
    for (int e = 0; e < 2; e++)
        bytes += ((size_t)w->max_region_chokes + 2) * sizeof *s->memo[e].first +
                 ((size_t)w->max_region_chokes + 1) * sizeof *s->memo[e].cost +
                 (size_t)s->memo[e].paths.capacity * (sizeof *s->path.points + sizeof *s->path.nodes);
    return bytes + ((size_t)w->max_region_chokes + 1) * sizeof *s->ids +
           (size_t)s->path.capacity * (sizeof *s->path.points + sizeof *s->path.nodes);
}

/* Appends points first .. end of src to dst (NAV_FAILURE | NAV_OUT_OF_MEMORY: dst as it was). */
static nav_status append_range(nav_path *dst, const nav_path *src, uint32_t first, uint32_t end)
{
    uint32_t n = end - first;
    if (n > UINT32_MAX - dst->count) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (dst->count + n > dst->capacity) { /* (grown as nav_path_push grows it: by half) */
        uint64_t grown = (uint64_t)dst->capacity + dst->capacity / 2;
        nav_status s = nav_path_reserve(dst, (uint32_t)(grown < dst->count + n ? dst->count + n
                                                        : grown > UINT32_MAX   ? UINT32_MAX
                                                                               : grown));
        if (nav_failed(s)) return s;
    }
    memcpy(dst->points + dst->count, src->points + first, n * sizeof *dst->points);
    memcpy(dst->nodes + dst->count, src->nodes + first, n * sizeof *dst->nodes);
    dst->count += n;
    return NAV_SUCCESS;
}

nav_status nav__world_path_append(nav_path *dst, const nav_path *src)
{
    return append_range(dst, src, 0, src->count);
}

void nav__world_memo_forget(nav__world_scratch *s)
{
    s->memo[0].valid = s->memo[1].valid = false;
}

bool nav__world_memo_hop(const nav__world_scratch *s, const nav__world_region *r,
                         const nav__world_leg_ask *ask, uint32_t h, nav_path *path, double *cost,
                         nav_status *st)
{
    const nav__world_memo *m = NULL;
    uint32_t target = UINT32_MAX;
    if (h == 0 && ask->start_target != UINT32_MAX)
        m = &s->memo[NAV__WORLD_END_START - 1], target = ask->start_target;
    else if (h + 2 == ask->count && ask->goal_target != UINT32_MAX)
        m = &s->memo[NAV__WORLD_END_GOAL - 1], target = ask->goal_target;
    if (!m || !m->valid || m->region != r->index || target >= m->count || !(m->cost[target] < INFINITY))
        return false;
    *cost = m->cost[target];
    *st = append_range(path, &m->paths, m->first[target], m->first[target + 1]);
    return true;
}

nav_status nav__world_fan_by_pairs(nav__world_scratch *s, const nav__world_region *r,
                                   const nav_world_place *from, bool reverse, nav__world_end keep,
                                   const nav_world_place *targets, uint32_t count, double *costs)
{
    nav__world_pair_search search = r->ops->pair;
    nav__world_memo *m = keep != NAV__WORLD_END_NONE ? &s->memo[keep - 1] : NULL;
    if (m) {
        m->valid = false;
        m->region = r->index;
        m->count = count;
        m->paths.count = 0;
        m->first[0] = 0;
    }
    for (uint32_t k = 0; k < count; k++) {
        s->searches++;
        nav_status st =
            reverse ? search(s, r, &targets[k], from, &costs[k]) : search(s, r, from, &targets[k], &costs[k]);
        if (nav_failed(st)) return st;
        if (!m) continue;
        if (costs[k] < INFINITY) { /* (the search's way, kept for the leg that may follow) */
            st = append_range(&m->paths, &s->path, 0, s->path.count);
            if (nav_failed(st)) return st;
        }
        m->cost[k] = costs[k];
        m->first[k + 1] = m->paths.count;
    }
    if (m) m->valid = true;
    return NAV_SUCCESS;
}

nav_status nav__world_leg_by_pair(nav__world_scratch *s, const nav_world *w, const nav__world_region *r,
                                  const nav__world_leg_ask *ask, nav_path *path, double *cost)
{
    (void)w;
    nav__world_pair_search search = r->ops->pair;
    nav_status st = NAV_SUCCESS;
    if (ask->count == 2 && nav__world_memo_hop(s, r, ask, 0, path, cost, &st)) return st;
    s->searches++;
    st = search(s, r, &ask->places[0], &ask->places[ask->count - 1], cost);
    if (nav_failed(st) || nav_has_detail(st, NAV_PARTIAL_RESULT)) return st;
    return nav__world_path_append(path, &s->path);
}
