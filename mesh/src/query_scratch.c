/* The mesh query object's memory: made small, grown with what its searches touch.
 *
 * A query object once held a record for every edge and vertex of its mesh (about 15 times the
 * mesh's bytes). Now it holds what its largest search so far has touched: the corridor search's
 * nodes, the optimal search's open interval nodes (a pool whose slots are taken again) and the
 * steps of its trail (polyanya.c), in arrays that grow when full, and what a search knows of
 * vertices and edges in tables by id (id_table.h) that are emptied in O(1) by a new stamp. A
 * search allocates only when it touches more than any search of this query object before it
 * (growth by half or by doubling: a few times in its life), and never beyond the caller's limits:
 * max_bytes for the whole object and max_nodes for the nodes an optimal search makes. A search
 * that would need more stops out of room, as when its node budget runs out; one whose allocation
 * fails stops out of memory. What was there stays: the object is as usable as before. */
#include <string.h>

#include "alloc.h"
#include "query_internal.h"

/* What a new query object holds of each kind (8 nodes, slots, polygons, points): the searches on
 * small meshes seldom need much more, and each grows when they do; a mesh of a few KB gets a query
 * object of about 6 KB. */
#define FIRST_LOG2     3u
#define FIRST_CAPACITY (1u << FIRST_LOG2)

/* Whether the object may hold new_bytes in place of old_bytes (max_bytes); q->out_of_room set
 * when not. */
static bool within_limit(nav_mesh_query *q, size_t old_bytes, size_t new_bytes)
{
    if (q->max_bytes && sizeof *q + q->bytes - old_bytes + new_bytes > q->max_bytes) {
        q->out_of_room = 1;
        return false;
    }
    return true;
}

/* A new block of new_bytes to take the place of one of old_bytes (which the caller frees, then
 * counts the change), or null with q->out_of_room or out_of_memory set. */
static char *take_instead(nav_mesh_query *q, size_t old_bytes, size_t new_bytes)
{
    if (!within_limit(q, old_bytes, new_bytes)) return NULL;
    char *block = nav__alloc(&q->allocator, new_bytes);
    if (!block) q->out_of_memory = 1;
    return block;
}

void *nav__query_take(nav_mesh_query *q, size_t bytes)
{
    void *block = take_instead(q, 0, bytes);
    if (block) q->bytes += bytes;
    return block;
}

/* Reallocates block (old_bytes) to new_bytes within the query's limit, counted in q->bytes.
 * Returns the block, or null (the old one kept) with q->out_of_room or out_of_memory set. */
static void *regrow(nav_mesh_query *q, void *block, size_t old_bytes, size_t new_bytes)
{
    if (!within_limit(q, old_bytes, new_bytes)) return NULL;
    void *fresh = nav__realloc(&q->allocator, block, old_bytes, new_bytes);
    if (!fresh) {
        q->out_of_memory = 1;
        return NULL;
    }
    q->bytes = q->bytes - old_bytes + new_bytes;
    return fresh;
}

/* A zeroed block of count entries of size bytes at creation (counted), or null. */
static void *take_block(nav_mesh_query *q, size_t count, size_t size)
{
    void *block = nav__calloc(&q->allocator, count, size);
    if (block) q->bytes += count * size;
    return block;
}

/* A capacity grown by half, or to `limit` if that is less; false when it is there already. The
 * nodes' arrays, the bulk of a grown object, grow so: a search that makes n nodes leaves room for
 * at most 1.5 n (doubling left up to 2 n: 1.27 MB instead of 0.78 MB after test_query_memory's
 * search of 4342 nodes), for a few more reallocations in the object's life. */
static bool grown_by_half(uint32_t capacity, uint32_t limit, uint32_t *out)
{
    if (capacity >= limit) return false;
    *out = capacity > limit / 3 * 2 ? limit : capacity + capacity / 2;
    return true;
}

static bool make_table(nav_mesh_query *q, nav__id_table *t)
{
    t->slots = take_block(q, FIRST_CAPACITY, sizeof *t->slots);
    t->mask = FIRST_CAPACITY - 1;
    t->shift = 32 - FIRST_LOG2;
    t->room = FIRST_CAPACITY / 2;
    return t->slots != NULL;
}

static bool make_heap(nav_mesh_query *q, nav_heap *h)
{
    if (nav_failed(nav_heap_init(h, &q->allocator, FIRST_CAPACITY, 0))) return false;
    q->bytes += FIRST_CAPACITY * sizeof *h->entries;
    return true;
}

/* The corridor's arrays, carved from one block of `capacity` entries of each (the wider first, for
 * their alignment), their first `keep` entries copied from the old ones; then the old block freed. */
static bool regrow_corridor(nav_mesh_query *q, uint32_t capacity, uint32_t keep)
{
    const size_t entry =
        sizeof *q->portals + sizeof *q->corridor_cost + sizeof *q->corridor + sizeof *q->portal_way;
    size_t old_bytes = (size_t)q->portal_capacity * entry, new_bytes = (size_t)capacity * entry;
    char *block = take_instead(q, old_bytes, new_bytes);
    if (!block) return false;
    nav__portal *portals = (nav__portal *)block;
    double *cost = (double *)(portals + capacity);
    uint32_t *corridor = (uint32_t *)(cost + capacity), *way = corridor + capacity;
    if (keep) {
        memcpy(portals, q->portals, keep * sizeof *portals);
        memcpy(cost, q->corridor_cost, keep * sizeof *cost);
        memcpy(corridor, q->corridor, keep * sizeof *corridor);
        memcpy(way, q->portal_way, keep * sizeof *way);
    }
    nav__free(&q->allocator, q->portals);
    q->bytes = q->bytes - old_bytes + new_bytes;
    q->portals = portals;
    q->corridor_cost = cost;
    q->corridor = corridor;
    q->portal_way = way;
    q->portal_capacity = capacity;
    return true;
}

/* The same for the points' links and flags. */
static bool regrow_points(nav_mesh_query *q, uint32_t capacity, uint32_t keep)
{
    const size_t entry = sizeof *q->point_link + sizeof *q->point_flags;
    size_t old_bytes = (size_t)q->point_capacity * entry, new_bytes = (size_t)capacity * entry;
    char *block = take_instead(q, old_bytes, new_bytes);
    if (!block) return false;
    uint32_t *link = (uint32_t *)block;
    uint8_t *flags = (uint8_t *)(link + capacity);
    if (keep) {
        memcpy(link, q->point_link, keep * sizeof *link);
        memcpy(flags, q->point_flags, keep * sizeof *flags);
    }
    nav__free(&q->allocator, q->point_link);
    q->bytes = q->bytes - old_bytes + new_bytes;
    q->point_link = link;
    q->point_flags = flags;
    q->point_capacity = capacity;
    return true;
}

nav_status nav_mesh_query_create(const nav_mesh *mesh, const nav_mesh_query_desc *desc, nav_mesh_query **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!mesh) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_mesh_query_desc d = desc ? *desc : (nav_mesh_query_desc){0};
    nav_allocator a;
    nav__allocator_resolve(&a, d.allocator);
    uint64_t pool = d.max_nodes ? d.max_nodes : (uint64_t)mesh->edge_count + 4096;
    /* corridor-search node ids (2 an edge, start and goal, 2 a link) stay below NAV__NODE_CLOSED;
     * the optimal search's steps name a vertex below NAV__ROOT_WAY, a way below NAV__STEP_WAY */
    if ((uint64_t)2 * mesh->edge_count + 2 + 2 * (uint64_t)mesh->link_count >= NAV__NODE_CLOSED ||
        mesh->vert_count >= NAV__ROOT_WAY || 2 * (uint64_t)mesh->link_count >= NAV__STEP_WAY ||
        pool > UINT32_MAX / 4)
        return NAV_FAILURE | NAV_TOO_LARGE;
    nav_mesh_query *q = nav__calloc(&a, 1, sizeof *q);
    if (!q) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    q->mesh = mesh;
    q->area_cost = mesh->area_cost; /* (nav__query_set_costs sets them for each search) */
    q->allocator = a;
    q->pool_limit = (uint32_t)pool;
    q->pool_free = UINT32_MAX;
    q->node_capacity = q->pool_capacity = q->trail_capacity = FIRST_CAPACITY;
    size_t ways = 2 * (size_t)mesh->link_count + 1;
    q->nodes = take_block(q, FIRST_CAPACITY, sizeof *q->nodes);
    q->pool = take_block(q, FIRST_CAPACITY, sizeof *q->pool);
    q->trail = take_block(q, FIRST_CAPACITY, sizeof *q->trail);
    q->link_g = take_block(q, ways, sizeof *q->link_g);
    q->link_stamp = take_block(q, ways, sizeof *q->link_stamp);
    q->link_lb = take_block(q, ways, sizeof *q->link_lb);
    q->way_allowed = take_block(q, ways, sizeof *q->way_allowed);
    if (!q->nodes || !q->pool || !q->trail || !regrow_corridor(q, FIRST_CAPACITY, 0) ||
        !regrow_points(q, FIRST_CAPACITY, 0) || !q->link_g || !q->link_stamp || !q->link_lb ||
        !q->way_allowed || !make_table(q, &q->pairs) || !make_table(q, &q->roots) ||
        !make_table(q, &q->edge_last) || !make_table(q, &q->vert_h) || !make_heap(q, &q->open) ||
        !make_heap(q, &q->interval_open)) {
        nav_mesh_query_destroy(q);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    q->max_bytes = d.max_bytes; /* what was made now is made, whatever the limit */
    *out = q;
    return NAV_SUCCESS;
}

void nav_mesh_query_destroy(nav_mesh_query *q)
{
    if (!q) return;
    nav_allocator a = q->allocator;
    nav__free(&a, q->nodes);
    nav__free(&a, q->pool);
    nav__free(&a, q->trail);
    nav__free(&a, q->pairs.slots);
    nav__free(&a, q->roots.slots);
    nav__free(&a, q->edge_last.slots);
    nav__free(&a, q->vert_h.slots);
    nav__free(&a, q->portals);    /* the corridor's block */
    nav__free(&a, q->point_link); /* the points' block */
    nav__free(&a, q->link_g);
    nav__free(&a, q->link_stamp);
    nav__free(&a, q->link_lb);
    nav__free(&a, q->way_allowed);
    nav__free(&a, q->own_cost);
    nav_heap_destroy(&q->open);
    nav_heap_destroy(&q->interval_open);
    nav__free(&a, q);
}

size_t nav_mesh_query_memory_bytes(const nav_mesh_query *q)
{
    return q ? sizeof *q + q->bytes : 0;
}

uint32_t nav__next_stamp(nav_mesh_query *q)
{
    nav__id_table *tables[] = {&q->pairs, &q->roots, &q->edge_last, &q->vert_h};
    if (++q->stamp == 0) {
        for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
            for (uint32_t i = 0; i <= tables[t]->mask; i++) tables[t]->slots[i].key = 0;
        for (uint32_t w = 0; w < 2 * q->mesh->link_count; w++) q->link_stamp[w] = 0;
        q->stamp = 1;
    }
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++) {
        tables[t]->room = (tables[t]->mask + 1) / 2;
        tables[t]->stamp_key = (uint64_t)q->stamp << 32;
    }
    q->out_of_room = q->out_of_memory = 0;
    return q->stamp;
}

/* Array `array` of *capacity entries of `size` bytes grown by half, to `limit` entries at most:
 * the grown array (*capacity updated), or null with q->out_of_room or out_of_memory set and the old
 * array kept. */
static void *grown_array(nav_mesh_query *q, void *array, uint32_t *capacity, uint32_t limit, size_t size)
{
    uint32_t grown;
    if (!grown_by_half(*capacity, limit, &grown)) {
        q->out_of_room = 1;
        return NULL;
    }
    void *fresh = regrow(q, array, (size_t)*capacity * size, (size_t)grown * size);
    if (fresh) *capacity = grown;
    return fresh;
}

bool nav__grow_nodes(nav_mesh_query *q)
{
    /* (to every node of the mesh: never) */
    search_node *nodes = grown_array(q, q->nodes, &q->node_capacity, NAV__NODE_CLOSED, sizeof *nodes);
    if (nodes) q->nodes = nodes;
    return nodes != NULL;
}

/* Heap h's entries reallocated to `capacity`. */
static bool regrow_heap(nav_mesh_query *q, nav_heap *h, uint32_t capacity)
{
    nav_heap_entry *entries =
        regrow(q, h->entries, (size_t)h->capacity * sizeof *entries, (size_t)capacity * sizeof *entries);
    if (!entries) return false;
    h->entries = entries;
    h->capacity = capacity;
    return true;
}

bool nav__grow_heap(nav_mesh_query *q, nav_heap *h)
{
    nav_heap_entry *entries = grown_array(q, h->entries, &h->capacity, UINT32_MAX / 2, sizeof *entries);
    if (entries) h->entries = entries;
    return entries != NULL;
}

bool nav__grow_pool(nav_mesh_query *q)
{
    uint32_t capacity;
    /* the open nodes, made within pool_limit, and the one being made */
    if (!grown_by_half(q->pool_capacity, q->pool_limit + 1, &capacity)) {
        q->out_of_room = 1;
        return false;
    }
    /* the open list as long as the pool (a node is pushed once at most: push never grows it) */
    if (q->interval_open.capacity < capacity && !regrow_heap(q, &q->interval_open, capacity)) return false;
    interval_node *pool =
        regrow(q, q->pool, (size_t)q->pool_capacity * sizeof *pool, (size_t)capacity * sizeof *pool);
    if (!pool) return false;
    q->pool = pool;
    q->pool_capacity = capacity;
    return true;
}

bool nav__grow_trail(nav_mesh_query *q)
{
    /* (a step a node made at most) */
    nav__trail_step *trail = grown_array(q, q->trail, &q->trail_capacity, q->pool_limit, sizeof *trail);
    if (trail) q->trail = trail;
    return trail != NULL;
}

bool nav__grow_table(nav_mesh_query *q, nav__id_table *t)
{
    uint32_t capacity = t->mask + 1;
    if (capacity > UINT32_MAX / 4) {
        q->out_of_room = 1;
        return false;
    }
    size_t old_bytes = (size_t)capacity * sizeof *t->slots, new_bytes = 2 * old_bytes;
    if (!within_limit(q, old_bytes, new_bytes)) return false;
    nav__id_slot *slots = nav__calloc(&q->allocator, 2 * (size_t)capacity, sizeof *slots);
    if (!slots) {
        q->out_of_memory = 1;
        return false;
    }
    /* the slots of this search, in their new places (a fresh slot's stamp 0 is no search's); the
     * layout follows from the order of the search's steps alone, and no result depends on it */
    nav__id_table grown = {slots, t->stamp_key, t->shift - 1, 2 * capacity - 1, capacity};
    for (uint32_t i = 0; i < capacity; i++) {
        const nav__id_slot *s = &t->slots[i];
        if (!nav__id_held(t, s)) continue;
        bool added;
        *nav__id_take(&grown, (uint32_t)s->key, &added) = *s;
    }
    nav__free(&q->allocator, t->slots);
    q->bytes = q->bytes - old_bytes + new_bytes;
    *t = grown;
    return true;
}

/* The least power of two times `capacity` that holds `need` (UINT32_MAX past 2^31). */
static uint32_t doubled_to(uint32_t capacity, uint32_t need)
{
    while (capacity < need) capacity = capacity > UINT32_MAX / 2 ? UINT32_MAX : 2 * capacity;
    return capacity;
}

bool nav__reserve_path(nav_mesh_query *q, uint32_t polygons, uint32_t points)
{
    if (polygons > q->portal_capacity &&
        !regrow_corridor(q, doubled_to(q->portal_capacity, polygons), q->portal_capacity))
        return false;
    if (points > q->point_capacity &&
        !regrow_points(q, doubled_to(q->point_capacity, points), q->point_capacity))
        return false;
    return true;
}

bool nav__reserve_result(nav_mesh_query *q, uint32_t polygons, uint32_t points)
{
    size_t limit = q->max_bytes;
    q->max_bytes = 0;
    bool made = nav__reserve_path(q, polygons, points);
    q->max_bytes = limit;
    return made;
}
