/* The grid region kind of a world: locate, fan and leg over nav/region.h's searches, the whole
 * grid as one rectangle. A grid's costs count cells; the world's count world units, so every cost
 * is multiplied by the cell size. Also the scratch every region kind keeps in a query. */
#include <math.h>

#include "alloc.h"
#include "world_internal.h"

nav_status nav__world_scratch_init(nav__world_scratch *s, const nav_world *w, const nav_allocator *a,
                                   const nav_allocator *path)
{
    *s = (nav__world_scratch){.allocator = *a, .grid_cells = w->largest_cells};
    nav_path_init(&s->path, path);
    s->ids = nav__alloc(a, ((size_t)w->max_region_chokes + 1) * sizeof *s->ids);
    nav_status st = s->ids ? NAV_SUCCESS : NAV_FAILURE | NAV_OUT_OF_MEMORY;
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
    return bytes + ((size_t)w->max_region_chokes + 1) * sizeof *s->ids +
           (size_t)s->path.capacity * (sizeof *s->path.points + sizeof *s->path.nodes);
}

nav_status nav__world_path_append(nav_path *dst, const nav_path *src)
{
    uint32_t first = dst->count;
    for (uint32_t i = 0; i < src->count; i++) {
        nav_status s = nav_path_push(dst, src->points[i], src->nodes[i]);
        if (nav_failed(s)) {
            dst->count = first;
            return s;
        }
    }
    return NAV_SUCCESS;
}

static nav_grid_rect whole(const nav_grid *grid)
{
    return (nav_grid_rect){0, 0, nav_grid_width(grid), nav_grid_height(grid)};
}

static bool grid_locate(const nav__world_region *r, nav_vec3 point, nav_world_place *out)
{
    int32_t x, y;
    if (!nav_grid_world_to_cell(r->grid, point, &x, &y) || !nav_grid_passable(r->grid, x, y)) return false;
    out->region = r->index;
    out->id = nav_grid_index(r->grid, x, y);
    out->position = nav_grid_cell_center(r->grid, x, y);
    return true;
}

static nav_status grid_fan(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *from,
                           bool reverse, const nav_world_place *targets, uint32_t count, double *costs)
{
    nav_status st = nav__world_scratch_grid(s, r);
    if (nav_failed(st)) return st;
    for (uint32_t k = 0; k < count; k++) s->ids[k] = targets[k].id;
    st = nav_region_fan(s->grid, whole(r->grid), from->id, reverse, s->ids, count, costs);
    if (nav_failed(st)) return st;
    double size = nav_grid_get_desc(r->grid)->cell_size;
    for (uint32_t k = 0; k < count; k++) costs[k] *= size;
    return st;
}

static nav_status grid_leg(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *from,
                           const nav_world_place *to, nav_path *path, double *cost)
{
    nav_status st = nav__world_scratch_grid(s, r);
    if (nav_failed(st)) return st;
    double c = 0;
    st = nav_region_leg(s->grid, whole(r->grid), from->id, to->id, 0, path, &c);
    *cost = c * nav_grid_get_desc(r->grid)->cell_size;
    return st;
}

const nav__world_region_ops nav__world_grid_ops = {grid_locate, grid_fan, grid_leg};

/* ---- A grid searched through its HPA* bake ---- */

nav_status nav__world_hpa_path(nav__world_scratch *s, const nav__world_region *r, uint32_t a, uint32_t b,
                               double *cost)
{
    nav_hpa_query *q = nav__world_scratch_hpa(s, r);
    if (!q) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    uint32_t w = (uint32_t)nav_grid_width(r->grid);
    nav_hpa_result res;
    nav_status st = nav_hpa_find_path(q, (int32_t)(a % w), (int32_t)(a / w), (int32_t)(b % w),
                                      (int32_t)(b / w), &s->path, &res);
    if (nav_failed(st)) return st;
    *cost =
        nav_has_detail(st, NAV_PARTIAL_RESULT) ? INFINITY : res.cost * nav_grid_get_desc(r->grid)->cell_size;
    return st;
}

nav_status nav__world_fan_by_pairs(nav__world_scratch *s, const nav__world_region *r,
                                   const nav_world_place *from, bool reverse, const nav_world_place *targets,
                                   uint32_t count, double *costs, nav__world_pair_search search)
{
    for (uint32_t k = 0; k < count; k++) {
        nav_status st =
            reverse ? search(s, r, &targets[k], from, &costs[k]) : search(s, r, from, &targets[k], &costs[k]);
        if (nav_failed(st)) return st;
    }
    return NAV_SUCCESS;
}

nav_status nav__world_leg_by_pair(nav__world_scratch *s, const nav__world_region *r,
                                  const nav_world_place *from, const nav_world_place *to, nav_path *path,
                                  double *cost, nav__world_pair_search search)
{
    nav_status st = search(s, r, from, to, cost);
    if (nav_failed(st) || nav_has_detail(st, NAV_PARTIAL_RESULT)) return st;
    return nav__world_path_append(path, &s->path);
}

static nav_status hpa_pair(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *a,
                           const nav_world_place *b, double *cost)
{
    return nav__world_hpa_path(s, r, a->id, b->id, cost);
}

static nav_status hpa_fan(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *from,
                          bool reverse, const nav_world_place *targets, uint32_t count, double *costs)
{
    return nav__world_fan_by_pairs(s, r, from, reverse, targets, count, costs, hpa_pair);
}

static nav_status hpa_leg(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *from,
                          const nav_world_place *to, nav_path *path, double *cost)
{
    return nav__world_leg_by_pair(s, r, from, to, path, cost, hpa_pair);
}

const nav__world_region_ops nav__world_grid_hpa_ops = {grid_locate, hpa_fan, hpa_leg};
