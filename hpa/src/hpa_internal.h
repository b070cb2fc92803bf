/* Private: the baked abstract graph of HPA*, shared by the bake, the query and the chunk io.
 *
 * Everything is a flat array of plain values with indices, never pointers into other arrays, so
 * the data can be written and read as it is.
 *
 * Node order is hierarchical: nodes sort by their level-L cluster, then level-(L-1) cluster, ...,
 * then level-1 cluster, then cell index. So the nodes of any cluster at any level are one range
 * of ids, and a search inside a cluster indexes its scratch by id - first. */
#ifndef NAV_HPA_INTERNAL_H
#define NAV_HPA_INTERNAL_H

#include "nav/hpa.h"
#include "nav/heap.h"
#include "nav/region.h"

#define HPA_NO_NODE    UINT32_MAX
#define FIELD_NONE     UINT16_MAX
#define FIELD_MAX_SIDE 32
#define FIELD_STEPS    16 /* field units a straight move */

/* One level of the graph. Level 1: nodes are transition cells, edges are moves across a border
 * (inter) or paths inside a level-1 cluster (intra), refined by their stored moves. Level l > 1:
 * the nodes living at level l or above; edges are the inter edges crossing a level-l border and
 * the cheapest paths between nodes of one level-l cluster, refined by level-(l-1) edge ids. */
typedef struct hpa_level {
    int32_t side;                    /* cluster side in cells */
    uint32_t clusters_x, clusters_y; /* clusters across and down */
    uint32_t *node_first, *node_end; /* [clusters] node id range of each cluster (row-major ids) */
    uint32_t max_cluster_nodes;      /* most nodes in one cluster */
    uint32_t edge_count;
    uint32_t *edge_first;  /* [nodes + 1] edges of node u: edge_first[u] .. edge_first[u + 1] */
    uint32_t *edge_source; /* [edges] */
    uint32_t *edge_target; /* [edges] */
    double *edge_cost;     /* [edges] */
    uint32_t *sub_first;   /* [edges + 1] refinement of edge e: sub[sub_first[e] .. sub_first[e + 1]] */
    uint32_t sub_count;
    uint8_t *moves; /* level 1: the directions of the edge's moves, from its source cell */
    uint32_t *sub;  /* level > 1: the level-(l-1) edges of the edge, in order */
} hpa_level;

struct nav_hpa {
    nav_hpa_desc desc; /* defaults resolved; no allocator, log or progress */
    nav_allocator allocator;
    int32_t width, height;
    uint64_t grid_fingerprint; /* nav_grid_fingerprint of the grid it was baked from */
    int32_t levels;
    uint32_t node_count;
    uint32_t *node_cell;                     /* [nodes] */
    int32_t *node_x, *node_y;                /* [nodes] the cell's column and row */
    uint8_t *node_level;                     /* [nodes] highest level the node lives at, 1..levels */
    hpa_level level[NAV_HPA_MAX_LEVELS + 1]; /* 1..levels */
    uint32_t entrances, transitions;
    /* Distance fields, built on grids of one cost whose every move can be taken back, with clusters
     * of up to FIELD_MAX_SIDE cells: field[u * field_cells + local] is the cost between node u and
     * each cell of its level-1 cluster (local = row * side + column inside it), in units of
     * field_unit (a sixteenth of a straight move), FIELD_NONE where the cluster joins no path.
     * A query then joins start and goal to their clusters' nodes by lookups instead of searches.
     * Null when not built. */
    uint16_t *field;
    uint32_t field_cells;
    double field_unit;
    uint32_t reused_clusters[NAV_HPA_MAX_LEVELS + 1]; /* a re-bake: clusters whose edges were copied */
};

/* Sets each level's cluster side and counts from desc, width and height. */
void nav__hpa_set_levels(nav_hpa *hpa);
/* Fills each level's node_first, node_end and max_cluster_nodes from the nodes (which must be in
 * the hierarchical order). Returns NAV_FAILURE | NAV_OUT_OF_MEMORY on failure. */
nav_status nav__hpa_index_clusters(nav_hpa *hpa);

/* Row-major id of the level-l cluster holding cell (x, y). */
static inline uint32_t nav__hpa_cluster(const nav_hpa *hpa, int l, int32_t x, int32_t y)
{
    const hpa_level *lv = &hpa->level[l];
    return (uint32_t)(y / lv->side) * lv->clusters_x + (uint32_t)(x / lv->side);
}

static inline uint32_t nav__hpa_node_cluster(const nav_hpa *hpa, int l, uint32_t node)
{
    uint32_t cell = hpa->node_cell[node], w = (uint32_t)hpa->width;
    return nav__hpa_cluster(hpa, l, (int32_t)(cell % w), (int32_t)(cell / w));
}

/* The cells of a level-1 cluster (the last row and column of clusters may be cut short). */
static inline nav_grid_rect nav__hpa_level1_rect(const nav_hpa *hpa, uint32_t cluster)
{
    const hpa_level *lv = &hpa->level[1];
    int32_t x = (int32_t)(cluster % lv->clusters_x) * lv->side,
            y = (int32_t)(cluster / lv->clusters_x) * lv->side;
    int32_t wd = hpa->width - x < lv->side ? hpa->width - x : lv->side;
    int32_t ht = hpa->height - y < lv->side ? hpa->height - y : lv->side;
    return (nav_grid_rect){x, y, wd, ht};
}

/* ---- A Dijkstra search over one level's edges inside a node range (the bake's upper levels) --- */

#define HPA_VIA_SEED 0x80000000u /* via = HPA_VIA_SEED | k: reached from seed k, not by an edge */

typedef struct hpa_search {
    uint32_t capacity;     /* nodes the scratch holds */
    uint32_t first, count; /* the node range of the current search */
    double *g;
    uint32_t *via;   /* edge id that reached the node, or HPA_VIA_SEED */
    uint32_t *stamp; /* generation << 1 | settled */
    uint32_t generation;
    nav_heap open;
    nav_allocator allocator;
} hpa_search;

nav_status nav__hpa_search_init(hpa_search *s, const nav_allocator *allocator, uint32_t capacity);
void nav__hpa_search_destroy(hpa_search *s);
/* Starts a search over nodes first .. first + count - 1 (count <= capacity). */
void nav__hpa_search_begin(hpa_search *s, uint32_t first, uint32_t count);
/* Offers node a start cost (the lower of two offers stays); via is HPA_VIA_SEED | k. */
void nav__hpa_search_seed(hpa_search *s, uint32_t node, double g, uint32_t via);
/* Dijkstra over level l's edges, kept inside the range, until every node
 * of the range living at min_level or above is settled. Ties break by node id. */
void nav__hpa_search_run(hpa_search *s, const nav_hpa *hpa, int l, int min_level);
static inline bool nav__hpa_search_reached(const hpa_search *s, uint32_t node)
{
    uint32_t i = node - s->first;
    return i < s->count && s->stamp[i] == (s->generation << 1 | 1u);
}

#endif
