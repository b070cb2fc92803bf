/* The baked HPA* graph (nav/hpa.h) at run time: its levels' clusters, what it says of itself, and
 * its end. The bake that makes it is hpa/bake/bake.c; the chunk reader (chunk.c) makes it too. */
#include <string.h>

#include "alloc.h"
#include "hpa_internal.h"

#define DEFAULT_CLUSTER_SIZE  16
#define DEFAULT_LEVELS        3
#define DEFAULT_LEVEL_RATIO   4
#define DEFAULT_LONG_ENTRANCE 6

nav_hpa_desc nav_hpa_desc_defaults(const nav_hpa_desc *desc)
{
    nav_hpa_desc d = desc ? *desc : (nav_hpa_desc){0};
    if (d.cluster_size == 0) d.cluster_size = DEFAULT_CLUSTER_SIZE;
    if (d.levels == 0) d.levels = DEFAULT_LEVELS;
    if (d.level_ratio == 0) d.level_ratio = DEFAULT_LEVEL_RATIO;
    if (d.long_entrance == 0) d.long_entrance = DEFAULT_LONG_ENTRANCE;
    return d;
}

void nav__hpa_set_levels(nav_hpa *hpa)
{
    int64_t side = hpa->desc.cluster_size;
    for (int l = 1; l <= hpa->levels; l++, side *= hpa->desc.level_ratio) {
        hpa_level *lv = &hpa->level[l];
        lv->side = side > NAV_GRID_MAX_SIDE ? NAV_GRID_MAX_SIDE : (int32_t)side;
        lv->clusters_x = (uint32_t)((hpa->width + lv->side - 1) / lv->side);
        lv->clusters_y = (uint32_t)((hpa->height + lv->side - 1) / lv->side);
    }
}

nav_status nav__hpa_index_clusters(nav_hpa *hpa)
{
    uint32_t n = hpa->node_count;
    for (int l = 1; l <= hpa->levels; l++) {
        hpa_level *lv = &hpa->level[l];
        uint32_t clusters = lv->clusters_x * lv->clusters_y;
        lv->node_first = nav__calloc(&hpa->allocator, clusters, sizeof *lv->node_first);
        lv->node_end = nav__calloc(&hpa->allocator, clusters, sizeof *lv->node_end);
        if (!lv->node_first || !lv->node_end) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t c = nav__hpa_node_cluster(hpa, l, i);
            if (lv->node_end[c] == 0) lv->node_first[c] = i;
            lv->node_end[c] = i + 1;
        }
        lv->max_cluster_nodes = 0;
        for (uint32_t c = 0; c < clusters; c++)
            if (lv->node_end[c] - lv->node_first[c] > lv->max_cluster_nodes)
                lv->max_cluster_nodes = lv->node_end[c] - lv->node_first[c];
    }
    return NAV_SUCCESS;
}

void nav_hpa_destroy(nav_hpa *hpa)
{
    if (!hpa) return;
    const nav_allocator *a = &hpa->allocator;
    for (int l = 1; l <= NAV_HPA_MAX_LEVELS; l++) {
        hpa_level *lv = &hpa->level[l];
        nav__free(a, lv->node_first);
        nav__free(a, lv->node_end);
        nav__free(a, lv->edge_first);
        nav__free(a, lv->edge_source);
        nav__free(a, lv->edge_target);
        nav__free(a, lv->edge_cost);
        nav__free(a, lv->sub_first);
        nav__free(a, lv->moves);
        nav__free(a, lv->sub);
    }
    nav__free(a, hpa->node_cell);
    nav__free(a, hpa->node_level);
    nav__free(a, hpa->field);
    nav__free(a, hpa->node_x);
    nav__free(a, hpa->node_y);
    nav_allocator keep = hpa->allocator;
    nav__free(&keep, hpa);
}

nav_hpa_desc nav_hpa_get_desc(const nav_hpa *hpa)
{
    return hpa ? hpa->desc : (nav_hpa_desc){0};
}

size_t nav_hpa_memory_bytes(const nav_hpa *hpa)
{
    if (!hpa) return 0;
    size_t n = hpa->node_count,
           bytes = sizeof *hpa + n * (sizeof *hpa->node_cell + sizeof *hpa->node_level + 2 * sizeof(int32_t));
    if (hpa->field) bytes += n * hpa->field_cells * sizeof *hpa->field;
    for (int l = 1; l <= hpa->levels; l++) {
        const hpa_level *lv = &hpa->level[l];
        size_t m = lv->edge_count, clusters = (size_t)lv->clusters_x * lv->clusters_y;
        bytes += clusters * 2 * sizeof(uint32_t);
        bytes += (n + 1) * sizeof(uint32_t);                                               /* edge_first */
        bytes += m * (3 * sizeof(uint32_t) + sizeof(double)) + (m + 1) * sizeof(uint32_t); /* + sub_first */
        bytes += lv->sub_count * (l == 1 ? 1 : sizeof(uint32_t));
    }
    return bytes;
}

void nav_hpa_get_info(const nav_hpa *hpa, nav_hpa_info *info)
{
    *info = (nav_hpa_info){0};
    if (!hpa) return;
    info->width = hpa->width;
    info->height = hpa->height;
    info->grid_fingerprint = hpa->grid_fingerprint;
    info->levels = hpa->levels;
    for (int l = 1; l <= hpa->levels; l++) {
        const hpa_level *lv = &hpa->level[l];
        info->cluster_side[l] = lv->side;
        info->clusters[l] = lv->clusters_x * lv->clusters_y;
        info->edges[l] = lv->edge_count;
        for (uint32_t u = 0; u < hpa->node_count; u++) info->nodes[l] += hpa->node_level[u] >= l;
    }
    info->entrances = hpa->entrances;
    info->transitions = hpa->transitions;
    info->path_moves = hpa->level[1].sub_count;
    for (int l = 1; l <= hpa->levels; l++) info->reused_clusters[l] = hpa->reused_clusters[l];
    info->bytes = nav_hpa_memory_bytes(hpa);
    info->field_bytes = hpa->field ? (size_t)hpa->node_count * hpa->field_cells * sizeof *hpa->field : 0;
}

uint64_t nav_hpa_grid_fingerprint(const nav_hpa *hpa)
{
    return hpa ? hpa->grid_fingerprint : 0;
}

uint32_t nav_hpa_node_count(const nav_hpa *hpa)
{
    return hpa ? hpa->node_count : 0;
}

bool nav_hpa_node(const nav_hpa *hpa, uint32_t node, uint32_t *cell, int32_t *level)
{
    if (!hpa || node >= hpa->node_count) return false;
    if (cell) *cell = hpa->node_cell[node];
    if (level) *level = hpa->node_level[node];
    return true;
}

uint32_t nav_hpa_node_edges(const nav_hpa *hpa, int32_t level, uint32_t node, uint32_t *targets,
                            double *costs, uint32_t max)
{
    if (!hpa || node >= hpa->node_count || level < 1 || level > hpa->levels) return 0;
    const hpa_level *lv = &hpa->level[level];
    uint32_t first = lv->edge_first[node], count = lv->edge_first[node + 1] - first;
    for (uint32_t i = 0; i < count && i < max; i++) {
        if (targets) targets[i] = lv->edge_target[first + i];
        if (costs) costs[i] = lv->edge_cost[first + i];
    }
    return count;
}
