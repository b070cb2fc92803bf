/* Dead-end regions: which steps from one polygon into the next lead somewhere the goal cannot be.
 *
 * A shortest path never leaves a convex polygon and comes back to it (the straight segment between
 * where it left and where it came back lies inside the polygon and is no longer). So where a
 * polygon P separates the mesh (a cut vertex of the polygon graph: edges and off-mesh links,
 * either way), a search standing in P need not step into a part that P cuts off unless the goal
 * lies in it. Polyanya's cul-de-sac rule (a polygon with one neighbour) is the smallest case.
 *
 * The parts come from the block-cut tree of the polygon graph (Hopcroft and Tarjan's biconnected
 * components, by an iterative depth-first search): a node for every block and for every polygon at
 * the top of a block, each block hanging under its top polygon, each top polygon under the block
 * it lies in. A step from a top polygon P into a block below it leads into that block's subtree; a
 * step into the block above it leads into everything outside P's subtree. With the tree numbered in
 * depth-first order, both tests are one range check of the goal's node. */
#include <string.h>

#include "alloc.h"
#include "mesh_internal.h"

#define NONE UINT32_MAX

/* Frees the region arrays (also before they are derived again). */
void nav__mesh_free_regions(nav_mesh *m)
{
    nav__free(&m->allocator, m->edge_region);
    nav__free(&m->allocator, m->region_range);
    nav__free(&m->allocator, m->poly_region);
    m->edge_region = m->region_range = m->poly_region = NULL;
    m->region_count = 0;
}

nav_status nav__mesh_label_regions(nav_mesh *m)
{
    nav__mesh_free_regions(m);
    const nav_allocator *a = &m->allocator;
    uint32_t np = m->poly_count;
    size_t n1 = (size_t)np + 1;
    /* the polygon graph: neighbours across edges and along links, both ways (CSR) */
    size_t adj_count = 0;
    for (uint32_t e = 0; e < m->edge_count; e++) adj_count += m->edge_poly[e] != NAV_MESH_NO_POLY;
    adj_count += 2 * (size_t)m->link_count;
    uint32_t *adj_first = nav__calloc(a, n1 + 1, sizeof *adj_first);
    uint32_t *adj = nav__calloc(a, adj_count ? adj_count : 1, sizeof *adj);
    /* the search: discovery time, low point, parent, next neighbour to look at, the vertex stack,
     * and each polygon's block (the one it lies in below its top) and whether it tops a block */
    uint32_t *disc = nav__calloc(a, n1, sizeof *disc), *low = nav__calloc(a, n1, sizeof *low);
    uint32_t *parent = nav__calloc(a, n1, sizeof *parent), *next = nav__calloc(a, n1, sizeof *next);
    uint32_t *stack = nav__calloc(a, n1, sizeof *stack);
    /* the path of either search (the tree's is at most as deep as its node count) */
    uint32_t *path = nav__calloc(a, 2 * n1, sizeof *path),
             *path_next = nav__calloc(a, 2 * n1, sizeof *path_next);
    uint32_t *block = nav__calloc(a, n1, sizeof *block), *top_node = nav__calloc(a, n1, sizeof *top_node);
    uint32_t *block_top = nav__calloc(a, n1, sizeof *block_top);
    /* the tree: at most a block and a top node a polygon */
    uint32_t *tree_parent = nav__calloc(a, 2 * n1, sizeof *tree_parent);
    uint32_t *child_first = nav__calloc(a, 2 * n1 + 1, sizeof *child_first);
    uint32_t *children = nav__calloc(a, 2 * n1, sizeof *children);
    m->edge_region = nav__calloc(a, m->edge_count ? m->edge_count : 1, sizeof *m->edge_region);
    m->poly_region = nav__calloc(a, n1, sizeof *m->poly_region);
    m->region_range = nav__calloc(a, 4 * n1, sizeof *m->region_range);
    nav_status s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (!adj_first || !adj || !disc || !low || !parent || !next || !stack || !path || !path_next || !block ||
        !top_node || !block_top || !tree_parent || !child_first || !children || !m->edge_region ||
        !m->poly_region || !m->region_range)
        goto done;

    for (uint32_t e = 0; e < m->edge_count; e++)
        if (m->edge_poly[e] != NAV_MESH_NO_POLY) adj_first[m->edge_owner[e] + 2]++;
    for (uint32_t l = 0; l < m->link_count; l++) {
        adj_first[m->links[l].start_poly + 2]++;
        adj_first[m->links[l].end_poly + 2]++;
    }
    for (uint32_t p = 0; p < np; p++) adj_first[p + 2] += adj_first[p + 1];
    for (uint32_t e = 0; e < m->edge_count; e++)
        if (m->edge_poly[e] != NAV_MESH_NO_POLY) adj[adj_first[m->edge_owner[e] + 1]++] = m->edge_poly[e];
    for (uint32_t l = 0; l < m->link_count; l++) {
        adj[adj_first[m->links[l].start_poly + 1]++] = m->links[l].end_poly;
        adj[adj_first[m->links[l].end_poly + 1]++] = m->links[l].start_poly;
    }

    /* blocks: when the search leaves u for its parent p and nothing below u reaches above p, p cuts
     * off u's part: the polygons on the stack down to u make a block under p */
    uint32_t time = 0, blocks = 0;
    for (uint32_t p = 0; p < np; p++) block[p] = top_node[p] = NONE;
    for (uint32_t root = 0; root < np; root++) {
        if (disc[root]) continue;
        uint32_t depth = 0, stacked = 0;
        disc[root] = low[root] = ++time;
        parent[root] = NONE;
        next[root] = adj_first[root];
        path[depth++] = root;
        stack[stacked++] = root;
        while (depth) {
            uint32_t u = path[depth - 1];
            if (next[u] < adj_first[u + 1]) {
                uint32_t v = adj[next[u]++];
                if (!disc[v]) {
                    disc[v] = low[v] = ++time;
                    parent[v] = u;
                    next[v] = adj_first[v];
                    path[depth++] = v;
                    stack[stacked++] = v;
                } else if (disc[v] < low[u]) {
                    low[u] = disc[v];
                }
                continue;
            }
            depth--;
            uint32_t p = parent[u];
            if (p == NONE) continue;
            if (low[u] < low[p]) low[p] = low[u];
            if (low[u] >= disc[p]) {
                uint32_t b = blocks++;
                block_top[b] = p;
                uint32_t w;
                do {
                    w = stack[--stacked];
                    block[w] = b;
                } while (w != u);
            }
        }
    }
    /* the tree's nodes: blocks 0 .. blocks - 1, then one for each polygon that tops a block */
    uint32_t nodes = blocks;
    for (uint32_t b = 0; b < blocks; b++)
        if (top_node[block_top[b]] == NONE) top_node[block_top[b]] = nodes++;
    for (uint32_t b = 0; b < blocks; b++) tree_parent[b] = top_node[block_top[b]];
    for (uint32_t p = 0; p < np; p++)
        if (top_node[p] != NONE) tree_parent[top_node[p]] = block[p]; /* NONE at a root */
    for (uint32_t t = 0; t < nodes; t++)
        if (tree_parent[t] != NONE) child_first[tree_parent[t] + 2]++;
    for (uint32_t t = 0; t < nodes; t++) child_first[t + 2] += child_first[t + 1];
    for (uint32_t t = 0; t < nodes; t++)
        if (tree_parent[t] != NONE) children[child_first[tree_parent[t] + 1]++] = t;
    /* number the tree depth first: node t's subtree is [range[2t], range[2t + 1]) */
    uint32_t count = 0;
    for (uint32_t r = 0; r < nodes; r++) {
        if (tree_parent[r] != NONE) continue;
        uint32_t depth = 0;
        path[depth++] = r;
        path_next[0] = child_first[r];
        m->region_range[2 * r] = count++;
        while (depth) {
            uint32_t t = path[depth - 1];
            if (path_next[depth - 1] < child_first[t + 1]) {
                uint32_t c = children[path_next[depth - 1]++];
                m->region_range[2 * c] = count++;
                path_next[depth] = child_first[c];
                path[depth++] = c;
            } else {
                m->region_range[2 * t + 1] = count;
                depth--;
            }
        }
    }
    m->region_count = nodes;
    /* where each polygon sits (a polygon on its own, in no block: a place no step reaches) */
    for (uint32_t p = 0; p < np; p++) {
        uint32_t t = top_node[p] != NONE ? top_node[p] : block[p];
        m->poly_region[p] = t != NONE ? m->region_range[2 * t] : NONE;
    }
    /* each step out of a top polygon P into X: into the block below P that holds X (the goal must
     * be in its subtree), or into the block above P (the goal must be outside P's subtree) */
    for (uint32_t e = 0; e < m->edge_count; e++) {
        uint32_t p = m->edge_owner[e], x = m->edge_poly[e];
        m->edge_region[e] = NAV__REGION_NONE;
        if (x == NAV_MESH_NO_POLY || top_node[p] == NONE) continue;
        if (block[x] != NONE && block_top[block[x]] == p)
            m->edge_region[e] = block[x];
        else
            m->edge_region[e] = top_node[p] | NAV__REGION_OUTSIDE;
    }
    s = NAV_SUCCESS;
done:
    nav__free(a, adj_first);
    nav__free(a, adj);
    nav__free(a, disc);
    nav__free(a, low);
    nav__free(a, parent);
    nav__free(a, next);
    nav__free(a, stack);
    nav__free(a, path);
    nav__free(a, path_next);
    nav__free(a, block);
    nav__free(a, top_node);
    nav__free(a, block_top);
    nav__free(a, tree_parent);
    nav__free(a, child_first);
    nav__free(a, children);
    if (nav_failed(s)) nav__mesh_free_regions(m);
    return s;
}
