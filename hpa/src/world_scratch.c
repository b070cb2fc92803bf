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
    *s = (nav__world_scratch){.allocator = *a};
    nav_path_init(&s->path, path);
    nav_status st = NAV_SUCCESS;
    for (int e = 0; e < 2 && !nav_failed(st); e++) {
        nav__world_memo *m = &s->memo[e];
        nav_path_init(&m->paths, path);
        m->first = nav__alloc(a, ((size_t)w->max_region_chokes + 2) * sizeof *m->first);
        m->cost = nav__alloc(a, ((size_t)w->max_region_chokes + 1) * sizeof *m->cost);
        if (!m->first || !m->cost) st = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    for (uint32_t k = 0; k < NAV__WORLD_KINDS && !nav_failed(st); k++)
        if (nav__world_kinds[k]->scratch_create)
            st = nav__world_kinds[k]->scratch_create(w, a, path, &s->kind[k]);
    if (nav_failed(st)) {
        nav__world_scratch_free(s, w);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    return NAV_SUCCESS;
}

void nav__world_scratch_free(nav__world_scratch *s, const nav_world *w)
{
    for (uint32_t k = 0; k < NAV__WORLD_KINDS; k++)
        if (s->kind[k]) nav__world_kinds[k]->scratch_destroy(s->kind[k], w);
    for (int e = 0; e < 2; e++) {
        nav__world_memo *m = &s->memo[e];
        nav_path_destroy(&m->paths);
        nav__free(&s->allocator, m->first);
        nav__free(&s->allocator, m->cost);
    }
    nav_path_destroy(&s->path);
    nav__free(&s->allocator, s->work);
    *s = (nav__world_scratch){0};
}

size_t nav__world_scratch_bytes(const nav__world_scratch *s, const nav_world *w)
{
    size_t bytes = 0, point = sizeof *s->path.points + sizeof *s->path.nodes;
    for (uint32_t k = 0; k < NAV__WORLD_KINDS; k++)
        if (s->kind[k]) bytes += nav__world_kinds[k]->scratch_bytes(s->kind[k], w);
    for (int e = 0; e < 2; e++)
        bytes += ((size_t)w->max_region_chokes + 2) * sizeof *s->memo[e].first +
                 ((size_t)w->max_region_chokes + 1) * sizeof *s->memo[e].cost +
                 (size_t)s->memo[e].paths.capacity * point;
    return bytes + (size_t)s->path.capacity * point + s->work_size;
}

void *nav__world_scratch_work(nav__world_scratch *s, size_t bytes)
{
    if (bytes <= s->work_size) return s->work;
    size_t grown = s->work_size + s->work_size / 2 > bytes ? s->work_size + s->work_size / 2 : bytes;
    void *more = nav__realloc(&s->allocator, s->work, s->work_size, grown);
    if (!more) return NULL;
    s->work = more, s->work_size = grown;
    return more;
}

/* ---- A query a region (HPA*, meshes) ---- */

nav_status nav__world_region_queries_create(const nav_world *w, const nav__world_region_ops *kind,
                                            const nav_allocator *a, const nav_allocator *planner,
                                            const nav__world_query_maker *maker, void **out)
{
    *out = NULL;
    uint32_t n = 0;
    for (uint32_t r = 0; r < w->region_count; r++) n += w->regions[r].ops->index == kind->index;
    if (!n) return NAV_SUCCESS;
    nav__world_region_queries *t = nav__calloc(a, 1, sizeof *t);
    if (!t) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    *t = (nav__world_region_queries){.allocator = *a, .maker = maker};
    nav__allocator_resolve(&t->planner, planner);
    t->query = nav__calloc(a, w->region_count, sizeof *t->query);
    t->generation = nav__calloc(a, w->region_count, sizeof *t->generation);
    nav_status st = t->query && t->generation ? NAV_SUCCESS : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    /* all made now when the regions are in memory (a bake's threads must not allocate through the
     * caller's allocator); on demand, each when first needed (nav__world_region_query) */
    for (uint32_t r = 0; r < w->region_count && !nav_failed(st) && !w->cache; r++)
        if (w->regions[r].ops->index == kind->index)
            st = maker->make(&w->regions[r], &t->planner, &t->query[r]);
    *out = t;
    if (nav_failed(st)) {
        nav__world_region_queries_destroy(t, w);
        *out = NULL;
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    return NAV_SUCCESS;
}

void *nav__world_region_query(void *table, const nav__world_region *r)
{
    nav__world_region_queries *t = table;
    void **q = &t->query[r->index];
    if (*q && t->generation[r->index] == r->generation) return *q;
    t->maker->destroy(*q); /* made for an earlier load of the region */
    *q = NULL;
    if (nav_failed(t->maker->make(r, &t->planner, q))) return NULL;
    t->generation[r->index] = r->generation;
    return *q;
}

void nav__world_region_queries_destroy(void *table, const nav_world *w)
{
    nav__world_region_queries *t = table;
    if (!t) return;
    nav_allocator a = t->allocator;
    for (uint32_t r = 0; t->query && r < w->region_count; r++) t->maker->destroy(t->query[r]);
    nav__free(&a, t->query);
    nav__free(&a, t->generation);
    nav__free(&a, t);
}

size_t nav__world_region_queries_bytes(const void *table, const nav_world *w)
{
    const nav__world_region_queries *t = table;
    size_t bytes = sizeof *t;
    for (uint32_t r = 0; r < w->region_count; r++)
        bytes += sizeof *t->query + sizeof *t->generation + t->maker->bytes(t->query[r]);
    return bytes;
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

nav_status nav__world_corridor_of_nodes(nav__world_scratch *s, const nav__world_region *r,
                                        const nav_path *path, uint32_t first, uint32_t count, uint32_t *ids,
                                        uint32_t capacity, uint32_t *n)
{
    (void)s, (void)r;
    uint32_t k = 0;
    for (uint32_t i = first; i < first + count; i++) {
        if (i > first && path->nodes[i] == path->nodes[i - 1]) continue;
        if (k < capacity) ids[k] = path->nodes[i];
        k++;
    }
    *n = k;
    return k > capacity ? NAV_FAILURE | NAV_BUFFER_TOO_SMALL : NAV_SUCCESS;
}
