/* A baked world (nav/world.h) at run time: its end, the indexes made once its regions and chokepoints
 * are known (regions by name, each region's chokepoints, the buckets that locate a point, the cost
 * floors of the search's estimate, the links' switches), what it says of itself, and locate. A world
 * comes from the bake (hpa/bake/world_bake.c) or from a .nav file (world_nav.c); both end here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "world_internal.h"

void nav__world_owned_destroy(nav__world_owned *o)
{
    nav_hpa_destroy(o->hpa);
    nav_mesh_destroy(o->mesh);
    nav_waypoints_destroy(o->waypoints);
    nav_grid_destroy(o->grid);
}

/* The region kinds, each at its index (the one list of them). */
const nav__world_region_ops *const nav__world_kinds[NAV__WORLD_KINDS] = {
    &nav__world_grid_ops, &nav__world_grid_hpa_ops, &nav__world_mesh_ops, &nav__world_waypoints_ops};

const nav__world_region_ops *nav__world_ops_of(nav_world_region_kind kind, bool by_hpa)
{
    for (uint32_t k = 0; k < NAV__WORLD_KINDS; k++)
        if (nav__world_kinds[k]->public_kind == kind &&
            (nav__world_kinds[k]->flags & 2) == (by_hpa ? 2u : 0u))
            return nav__world_kinds[k];
    return NULL;
}

const char *nav_world_link_kind_name(nav_world_link_kind kind)
{
    static const char *const names[NAV_LINK_KIND_COUNT] = {"?",    "door",   "stairs", "bridge", "ladder",
                                                           "gate", "portal", "jump",   "border"};
    return kind > 0 && kind < NAV_LINK_KIND_COUNT ? names[kind] : "?";
}

void nav_world_destroy(nav_world *w)
{
    if (!w) return;
    nav_allocator a = w->allocator;
    nav__free(&a, w->regions);
    nav__free(&a, w->links);
    nav__free(&a, w->choke);
    nav__free(&a, w->region_choke);
    nav__free(&a, w->choke_slot);
    nav__free(&a, w->choke_by_id);
    nav__free(&a, w->edge_first);
    nav__free(&a, w->edge_to);
    nav__free(&a, w->edge_cost);
    nav__free(&a, w->way_first);
    nav__free(&a, w->way_size);
    nav__free(&a, w->path_bytes);
    nav__free(&a, w->names);
    nav__free(&a, w->by_name);
    nav__free(&a, (void *)w->state.bits);
    for (uint32_t i = 0; i < w->owned_count; i++) nav__world_owned_destroy(&w->owned[i]);
    nav__free(&a, w->owned);
    nav__free(&a, w->bucket_first);
    nav__free(&a, w->bucket_regions);
    nav__free(&a, w->bucket_fill);
    nav__free(&a, w->part_list);
    nav__world_cache_destroy(w->cache, &a);
    nav__free(&a, w);
}

/* Region indices ordered by name (for nav_world_find_region's binary search): a merge sort, so that
 * a file of a million regions in any order sorts in n log n. */
static nav_status sort_by_name(nav_world *w)
{
    uint32_t n = w->region_count;
    w->by_name = nav__alloc(&w->allocator, n * sizeof *w->by_name);
    uint32_t *other = nav__alloc(&w->allocator, n * sizeof *other);
    if (!w->by_name || !other) {
        nav__free(&w->allocator, other);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < n; i++) w->by_name[i] = i;
    uint32_t *from = w->by_name, *to = other;
    for (uint32_t width = 1; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = lo + width < n ? lo + width : n, hi = mid + width < n ? mid + width : n;
            uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                to[k++] = strcmp(nav__world_name(w, w->regions[from[j]].name),
                                 nav__world_name(w, w->regions[from[i]].name)) < 0
                              ? from[j++]
                              : from[i++];
            while (i < mid) to[k++] = from[i++];
            while (j < hi) to[k++] = from[j++];
        }
        uint32_t *t = from;
        from = to, to = t;
    }
    if (from != w->by_name) memcpy(w->by_name, from, n * sizeof *from);
    nav__free(&w->allocator, other);
    return NAV_SUCCESS;
}

void nav__world_region_facts(const nav__world_region *region, double box[4], bool *symmetric, uint64_t *cells)
{
    region->ops->facts(region, box, symmetric, cells);
    /* a margin: a point on the box's far edge, or a mesh's locate tolerance, still falls inside */
    box[0] -= 1e-3, box[1] -= 1e-3, box[2] += 1e-3, box[3] += 1e-3;
}

void nav__world_note_region(nav_world *w, uint32_t r)
{
    nav__world_region *region = &w->regions[r];
    region->ops = nav__world_ops_of(region->kind, region->by_hpa);
    region->index = r;
    if (!w->cache) nav__world_region_facts(region, region->box, &region->symmetric, &region->cells);
    if (region->ops->places && region->cells > w->largest_cells) /* (the search's blocks of places) */
        w->largest_cells = region->cells;
}

static int by_key(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

nav_status nav__world_index_chokepoints(nav_world *w)
{
    const nav_allocator *a = &w->allocator;
    uint32_t n = w->choke_count;
    w->region_choke = nav__calloc(a, n ? n : 1, sizeof *w->region_choke);
    w->choke_slot = nav__calloc(a, n ? n : 1, sizeof *w->choke_slot);
    if (!w->region_choke || !w->choke_slot) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (uint32_t c = 0; c < n; c++) w->regions[w->choke[c].region].choke_count++;
    uint32_t first = 0;
    for (uint32_t r = 0; r < w->region_count; r++) {
        nav__world_region *region = &w->regions[r];
        region->choke_first = first;
        first += region->choke_count;
        if (region->choke_count > w->max_region_chokes) w->max_region_chokes = region->choke_count;
        region->choke_count = 0; /* counted again as they are placed */
    }
    for (uint32_t c = 0; c < n; c++) { /* ascending chokepoints in each region's list */
        nav__world_region *region = &w->regions[w->choke[c].region];
        w->choke_slot[c] = region->choke_count;
        w->region_choke[region->choke_first + region->choke_count++] = c;
    }
    /* and by place id (then index), for a search over a grid's cells to find the chokepoints of a
     * cell: each region's sorted by the key id << 32 | index */
    w->choke_by_id = nav__alloc(a, (n ? n : 1) * sizeof *w->choke_by_id);
    uint64_t *keys = nav__alloc(a, ((size_t)w->max_region_chokes + 1) * sizeof *keys);
    if (!w->choke_by_id || !keys) {
        nav__free(a, keys);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    for (uint32_t r = 0; r < w->region_count; r++) {
        nav__world_region *region = &w->regions[r];
        uint32_t *list = w->choke_by_id + region->choke_first;
        for (uint32_t i = 0; i < region->choke_count; i++) {
            uint32_t c = w->region_choke[region->choke_first + i];
            keys[i] = (uint64_t)w->choke[c].id << 32 | c;
        }
        qsort(keys, region->choke_count, sizeof *keys, by_key);
        for (uint32_t i = 0; i < region->choke_count; i++) list[i] = (uint32_t)keys[i];
        uint32_t places = 0;
        for (uint32_t i = 0; i < region->choke_count; i++)
            places += i == 0 || w->choke[list[i]].id != w->choke[list[i - 1]].id;
        bool flat = region->ops->way_ok != NULL; /* (the kinds whose tables keep ways: flat grids) */
        region->pruned = flat && places > NAV__WORLD_PRUNE_ABOVE;
        region->chains = region->pruned || (flat && places < region->choke_count);
    }
    nav__free(a, keys);
    return NAV_SUCCESS;
}

uint64_t nav__world_entry(const nav_world *w, const nav__world_region *r, uint32_t i, uint32_t j)
{
    uint64_t lo = w->edge_first[r->choke_first + i], hi = w->edge_first[r->choke_first + i + 1];
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (w->edge_to[mid] < j)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < w->edge_first[r->choke_first + i + 1] && w->edge_to[lo] == j ? lo : UINT64_MAX;
}

/* The least cost a world unit of horizontal travel can have anywhere, in two measures of the ground
 * covered (metric 0: straight-line distance; 1: the octile distance, max + (sqrt 2 - 1) min of the
 * x and z differences, which 8-connected grids walk exactly): over the regions' cheapest terrain (a
 * grid's diagonal counted at its length; a mesh's segments cover at most 1.0824 times their length
 * in octile measure), and the waypoint, off-mesh and world links that cost less than what they
 * cover. Any route between two places costs at least this times their distance in that measure:
 * each of its steps does, and both measures obey the triangle inequality. So both products, and
 * the larger of the two, are consistent estimates for the search. Each kind knows its own
 * (nav__world_region_ops.cost_floor). */
static double cost_floor(const nav_world *w, int metric)
{
    double floor = INFINITY;
    for (uint32_t r = 0; r < w->region_count; r++)
        floor = nav__world_min(floor, w->regions[r].ops->cost_floor(&w->regions[r], metric));
    for (uint32_t k = 0; k < w->link_count; k++)
        floor =
            nav__world_min(floor, w->links[k].cost / nav__world_cover(w->choke[2 * k].position,
                                                                      w->choke[2 * k + 1].position, metric));
    /* a little below, for the floats' rounding; 0 when nothing bounds it (Dijkstra) */
    return floor < INFINITY && floor > 0 ? floor * (1 - 1e-9) : 0;
}

/* Where each region lies, for locate: a grid of buckets over the world (each the side of the largest
 * region), each listing the regions whose box meets it, in ascending order. */
static nav_status build_buckets(nav_world *w)
{
    double all[4] = {INFINITY, INFINITY, -INFINITY, -INFINITY}, side = 0;
    for (uint32_t r = 0; r < w->region_count; r++) {
        const double *box = w->regions[r].box;
        if (!(box[2] >= box[0])) continue; /* nothing in it */
        all[0] = fmin(all[0], box[0]), all[1] = fmin(all[1], box[1]);
        all[2] = fmax(all[2], box[2]), all[3] = fmax(all[3], box[3]);
        side = fmax(side, fmax(box[2] - box[0], box[3] - box[1]));
    }
    if (!(side > 0)) side = 1;
    w->bucket_x0 = all[0] < INFINITY ? all[0] : 0, w->bucket_z0 = all[1] < INFINITY ? all[1] : 0;
    w->bucket_side = side;
    double across = all[0] < INFINITY ? ceil((all[2] - all[0]) / side) : 1,
           down = all[1] < INFINITY ? ceil((all[3] - all[1]) / side) : 1;
    if (across * down > 1e7) return NAV_FAILURE | NAV_TOO_LARGE; /* regions strewn far apart */
    w->buckets_across = (uint32_t)fmax(1, across), w->buckets_down = (uint32_t)fmax(1, down);
    uint32_t buckets = w->buckets_across * w->buckets_down;
    w->bucket_first = nav__calloc(&w->allocator, (size_t)buckets + 1, sizeof *w->bucket_first);
    if (!w->bucket_first) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (int pass = 0; pass < 2; pass++) { /* count, then fill */
        uint64_t placed = 0;
        for (uint32_t r = 0; r < w->region_count; r++) {
            const double *box = w->regions[r].box;
            if (!(box[2] >= box[0])) continue;
            uint32_t x0, z0, x1, z1;
            nav__world_bucket(w, box[0], box[1], &x0, &z0);
            nav__world_bucket(w, box[2], box[3], &x1, &z1);
            for (uint32_t z = z0; z <= z1; z++)
                for (uint32_t x = x0; x <= x1; x++) {
                    uint32_t b = z * w->buckets_across + x;
                    if (pass == 0)
                        w->bucket_first[b + 1]++;
                    else
                        w->bucket_regions[w->bucket_first[b] + w->bucket_fill[b]++] = r;
                    placed++;
                }
        }
        if (pass == 0) {
            for (uint32_t b = 0; b < buckets; b++) w->bucket_first[b + 1] += w->bucket_first[b];
            if (placed > UINT32_MAX) return NAV_FAILURE | NAV_TOO_LARGE;
            w->bucket_regions =
                nav__calloc(&w->allocator, placed ? (size_t)placed : 1, sizeof *w->bucket_regions);
            w->bucket_fill = nav__calloc(&w->allocator, buckets, sizeof *w->bucket_fill);
            if (!w->bucket_regions || !w->bucket_fill) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
            w->bucket_entries = (uint32_t)placed;
        }
    }
    nav__free(&w->allocator, w->bucket_fill);
    w->bucket_fill = NULL;
    return NAV_SUCCESS;
}

static nav_status init_state(nav_world *w)
{
    w->state.words = (w->link_count + 63) / 64;
    w->state.bits = nav__calloc(&w->allocator, w->state.words ? w->state.words : 1, sizeof *w->state.bits);
    if (!w->state.bits) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    atomic_init(&w->state.seq, 0);
    atomic_flag_clear(&w->state.writing);
    for (uint32_t k = 0; k < w->link_count; k++)
        if (!w->links[k].disabled)
            atomic_fetch_or_explicit(&w->state.bits[k / 64], 1ull << (k % 64), memory_order_relaxed);
    return NAV_SUCCESS;
}

nav_status nav__world_finish(nav_world *w)
{
    nav_status s = sort_by_name(w);
    if (!nav_failed(s)) s = build_buckets(w);
    /* (regions on demand: the file's floors stand, as its reader has no regions to work them out) */
    if (!nav_failed(s) && !w->cache)
        w->cost_floor = cost_floor(w, 0), w->cost_floor_octile = cost_floor(w, 1);
    if (!nav_failed(s)) s = init_state(w);
    if (nav_failed(s)) return s;
    w->bytes = sizeof *w + w->region_count * (sizeof *w->regions + sizeof *w->by_name) +
               w->link_count * sizeof *w->links +
               w->choke_count * (sizeof *w->choke + sizeof *w->region_choke + sizeof *w->choke_slot +
                                 sizeof *w->choke_by_id) +
               ((size_t)w->choke_count + 1) * (sizeof *w->edge_first + sizeof *w->way_first) +
               (size_t)w->edge_count * (sizeof *w->edge_to + sizeof *w->edge_cost + sizeof *w->way_size) +
               w->names_size + w->state.words * sizeof(uint64_t) +
               ((size_t)w->buckets_across * w->buckets_down + 1 + w->bucket_entries) * sizeof(uint32_t) +
               (size_t)w->path_size;
    return NAV_SUCCESS;
}

void nav_world_get_info(const nav_world *w, nav_world_info *info)
{
    if (!info) return;
    *info = (nav_world_info){0};
    if (!w) return;
    info->regions = w->region_count;
    info->links = w->link_count;
    info->chokepoints = w->choke_count;
    info->region_edges = w->edge_count;
    info->bytes = w->bytes;
}

size_t nav_world_memory_bytes(const nav_world *w)
{
    return w ? w->bytes : 0;
}

const char *nav_world_region_name(const nav_world *w, uint32_t region)
{
    return w && region < w->region_count ? nav__world_name(w, w->regions[region].name) : NULL;
}

nav_world_region_kind nav_world_region_kind_of(const nav_world *w, uint32_t region)
{
    return w && region < w->region_count ? w->regions[region].kind : (nav_world_region_kind)0;
}

const nav_grid *nav_world_region_grid(const nav_world *w, uint32_t region)
{
    return w && !w->cache && region < w->region_count ? w->regions[region].grid : NULL;
}

const nav_hpa *nav_world_region_hpa(const nav_world *w, uint32_t region)
{
    return w && !w->cache && region < w->region_count ? w->regions[region].hpa : NULL;
}

bool nav_world_region_by_hpa(const nav_world *w, uint32_t region)
{
    return w && region < w->region_count && w->regions[region].by_hpa;
}

const nav_mesh *nav_world_region_mesh(const nav_world *w, uint32_t region)
{
    return w && !w->cache && region < w->region_count ? w->regions[region].mesh : NULL;
}

const nav_waypoints *nav_world_region_waypoints(const nav_world *w, uint32_t region)
{
    return w && !w->cache && region < w->region_count ? w->regions[region].waypoints : NULL;
}

uint32_t nav_world_find_region(const nav_world *w, const char *name)
{
    if (!w || !name) return NAV_WORLD_NONE;
    uint32_t lo = 0, hi = w->region_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = strcmp(nav__world_name(w, w->regions[w->by_name[mid]].name), name);
        if (c == 0) return w->by_name[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NAV_WORLD_NONE;
}

bool nav_world_link(const nav_world *w, uint32_t link, nav_world_link_desc *out)
{
    if (!w || link >= w->link_count || !out) return false;
    const nav__world_link *l = &w->links[link];
    const nav_world_place *from = &w->choke[2 * link], *to = &w->choke[2 * link + 1];
    *out = (nav_world_link_desc){.name = l->name ? nav__world_name(w, l->name) : NULL,
                                 .kind = l->kind,
                                 .from_region = from->region,
                                 .to_region = to->region,
                                 .from = from->position,
                                 .to = to->position,
                                 .cost = l->cost,
                                 .one_way = l->one_way,
                                 .disabled = l->disabled};
    return true;
}

nav_status nav_world_locate(const nav_world *w, nav_vec3 point, nav_world_place *out)
{
    if (!w) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav__world_pins pins = {.allocator = w->allocator};
    nav_status s = nav__world_locate(w, point, out, &pins);
    nav__world_unpin_all(w, &pins);
    nav__world_pins_free(&pins);
    return s;
}

nav_status nav__world_locate(const nav_world *w, nav_vec3 point, nav_world_place *out, nav__world_pins *pins)
{
    if (!w || !out || !(isfinite(point.x) && isfinite(point.y) && isfinite(point.z)))
        return NAV_FAILURE | NAV_INVALID_PARAM;
    const float above = 0.5f; /* a floor this far above the point still counts as under it */
    bool found = false, below = false;
    uint32_t bx, bz;
    if (!nav__world_bucket(w, point.x, point.z, &bx, &bz)) return NAV_FAILURE | NAV_INVALID_PARAM;
    uint32_t b = bz * w->buckets_across + bx;
    for (uint32_t k = w->bucket_first[b]; k < w->bucket_first[b + 1]; k++) {
        uint32_t r = w->bucket_regions[k];
        const nav__world_region *region = &w->regions[r];
        const double *box = region->box; /* (a region on disk is read only when the point is in its box) */
        if (!(point.x >= box[0] && point.z >= box[1] && point.x <= box[2] && point.z <= box[3])) continue;
        nav_status s = nav__world_pin(w, r, pins);
        if (nav_failed(s)) return s;
        nav_world_place p;
        if (!region->ops->locate(region, point, &p)) continue;
        p.region = r;
        bool under = p.position.y <= point.y + above;
        /* the highest floor under the point; failing that, the lowest above it */
        bool better =
            !found || (under && !below) ||
            (under == below && (under ? p.position.y > out->position.y : p.position.y < out->position.y));
        if (better) *out = p, found = true, below = under;
    }
    return found ? NAV_SUCCESS : NAV_FAILURE | NAV_INVALID_PARAM;
}

nav_status nav_world_nearest(const nav_world *w, nav_vec3 point, nav_vec3 half, nav_world_place *out)
{
    if (!w || !out || !(isfinite(point.x) && isfinite(point.y) && isfinite(point.z)) ||
        !(half.x >= 0 && half.y >= 0 && half.z >= 0 && isfinite(half.x) && isfinite(half.y) &&
          isfinite(half.z)))
        return NAV_FAILURE | NAV_INVALID_PARAM;
    nav__world_pins pins = {.allocator = w->allocator}; /* (regions on disk are read while looked at) */
    nav_status s = NAV_FAILURE | NAV_INVALID_PARAM;
    double best = INFINITY;
    for (uint32_t r = 0; r < w->region_count; r++) {
        const nav__world_region *region = &w->regions[r];
        const double *box = region->box;
        if ((double)point.x + half.x < box[0] || (double)point.z + half.z < box[1] ||
            (double)point.x - half.x > box[2] || (double)point.z - half.z > box[3])
            continue;
        nav_status p = nav__world_pin(w, r, &pins);
        if (nav_failed(p)) {
            s = p;
            break;
        }
        nav_world_place at;
        if (region->ops->nearest(region, point, half, &at)) {
            double d = nav__world_dist3(at.position, point);
            if (d < best) best = d, *out = at, s = NAV_SUCCESS;
        }
        nav__world_unpin_all(w, &pins);
    }
    nav__world_unpin_all(w, &pins);
    nav__world_pins_free(&pins);
    return s;
}

nav_status nav_world_set_links(nav_world *w, const nav_world_link_change *changes, uint32_t count)
{
    if (!w || (count && !changes)) return NAV_FAILURE | NAV_INVALID_PARAM;
    for (uint32_t i = 0; i < count; i++)
        if (changes[i].link >= w->link_count) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav__world_state *st = &w->state;
    while (atomic_flag_test_and_set_explicit(&st->writing, memory_order_acquire)) {
    }
    unsigned seq = atomic_load_explicit(&st->seq, memory_order_relaxed);
    atomic_store_explicit(&st->seq, seq + 1, memory_order_relaxed); /* odd: a change under way */
    atomic_thread_fence(memory_order_release);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t link = changes[i].link;
        uint64_t bit = 1ull << (link % 64);
        if (changes[i].enabled)
            atomic_fetch_or_explicit(&st->bits[link / 64], bit, memory_order_relaxed);
        else
            atomic_fetch_and_explicit(&st->bits[link / 64], ~bit, memory_order_relaxed);
    }
    atomic_store_explicit(&st->seq, seq + 2, memory_order_release);
    atomic_flag_clear_explicit(&st->writing, memory_order_release);
    return NAV_SUCCESS;
}

bool nav_world_link_enabled(const nav_world *w, uint32_t link)
{
    if (!w || link >= w->link_count) return false;
    return atomic_load_explicit(&w->state.bits[link / 64], memory_order_relaxed) >> (link % 64) & 1;
}

void nav__world_state_read(const nav_world *w, uint64_t *bits)
{
    nav__world_state *st = (nav__world_state *)&w->state; /* only read: C11's loads take no const */
    for (;;) {
        unsigned before = atomic_load_explicit(&st->seq, memory_order_acquire);
        if (before & 1) continue; /* a change under way */
        for (uint32_t i = 0; i < st->words; i++)
            bits[i] = atomic_load_explicit(&st->bits[i], memory_order_relaxed);
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&st->seq, memory_order_relaxed) == before) return;
    }
}
