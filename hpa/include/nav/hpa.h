/* nav/hpa.h - hierarchical path-finding over a grid: HPA* (Botea, Mueller and Schaeffer, "Near
 * optimal hierarchical path-finding", 2004).
 *
 * The bake cuts the grid into square clusters. On each border between two clusters it finds the
 * entrances (maximal runs of cells open on both sides) and puts one transition in a short run or
 * two at the ends of a long one; the transitions' cells are the nodes of an abstract graph. Edges
 * join the two cells of a transition (one move across the border) and the nodes of one cluster
 * (a search kept inside the cluster; the cells of that path are stored, so a query copies them).
 * Level-2 clusters group level_ratio x level_ratio level-1 clusters, and so on: a node lives up to
 * the highest level whose cluster border it sits on, and a level-l edge between two nodes of a
 * level-l cluster is a path of level-(l-1) edges. A query runs one weighted A* over a graph that
 * is fine near the ends and coarse between them (level-1 nodes in the level-2 clusters of start
 * and goal, ..., the top level beyond), then copies the stored cells of the edges it took. Start
 * and goal join the nodes of their level-1 clusters through distance fields where the grid has
 * one cost and every move goes both ways (the bake keeps each node's cost to every cell of its
 * cluster), or else by searching those clusters' cells. Start and goal close together first try
 * a plain A* in the box round them.
 *
 * Life: bake from a grid (a pure function of the grid and the options), share the result
 * read-only between threads, and give each thread its own nav_hpa_query. The baked data belongs
 * to the grid it was baked from, and records that grid's fingerprint (nav_grid_fingerprint):
 * after the grid changes, re-bake it (nav_hpa_rebake redoes only the clusters that changed).
 * Saving or loading a bake with a grid whose fingerprint differs fails with
 * NAV_SOURCE_MISMATCH, so a stale bake cannot answer "unreachable" for paths its grid has.
 *
 *     nav_hpa *hpa;
 *     nav_status s = nav_hpa_bake(grid, NULL, &hpa);           // default options
 *     nav_hpa_query *q;
 *     s = nav_hpa_query_create(hpa, grid, NULL, &q);
 *     nav_path path;
 *     nav_path_init(&path, NULL);
 *     nav_hpa_result r;
 *     s = nav_hpa_find_path(q, 1, 1, 900, 700, &path, &r);      // cells, start first
 *     if (nav_succeeded(s) && !nav_has_detail(s, NAV_PARTIAL_RESULT)) ... walk path ...
 *     nav_path_destroy(&path);
 *     nav_hpa_query_destroy(q);
 *     nav_hpa_destroy(hpa);
 */
#ifndef NAV_HPA_H
#define NAV_HPA_H

#include "nav/core.h"
#include "nav/grid.h"
#include "nav/io.h"
#include "nav/path.h"
#include "nav/region.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NAV_HPA_MAX_LEVELS  4
#define NAV_HPA_MIN_CLUSTER 2
#define NAV_HPA_MAX_CLUSTER 64

/* Bake options; every zero field takes its documented default (nav_hpa_desc_defaults). */
typedef struct nav_hpa_desc {
    int32_t cluster_size;           /* side of a level-1 cluster in cells, 2..64; 0: 16 */
    int32_t levels;                 /* abstract levels, 1..NAV_HPA_MAX_LEVELS; 0: 3 */
    int32_t level_ratio;            /* side of a level-(l+1) cluster in level-l clusters, 2..16; 0: 4 */
    int32_t long_entrance;          /* an entrance this long or longer gets two transitions, at its ends; a
                                       shorter one gets one, in its middle; >= 1; 0: 6 */
    nav_progress progress;          /* [opt] told of the bake's progress; returning false cancels it */
    const nav_allocator *allocator; /* [opt] copied */
    const nav_log *log;             /* [opt] copied: bake errors */
} nav_hpa_desc;

typedef struct nav_hpa nav_hpa;

/* The descriptor with every zero field replaced by its default. */
NAV_API nav_hpa_desc nav_hpa_desc_defaults(const nav_hpa_desc *desc);

/* Bakes the abstract graph of a grid. The grid must not change during the bake.
 * Returns NAV_SUCCESS; NAV_FAILURE with NAV_INVALID_PARAM (a bad option, named in the log),
 * NAV_OUT_OF_MEMORY, NAV_TOO_LARGE (more nodes or edges than 32-bit indices hold) or
 * NAV_WRONG_STATE (cancelled through the progress callback); *out is null on failure. */
NAV_BAKE_API nav_status nav_hpa_bake(const nav_grid *grid, const nav_hpa_desc *desc, nav_hpa **out);
NAV_API void nav_hpa_destroy(nav_hpa *hpa);

/* Re-bakes after cells changed (a door opened, a wall fell): the grid is the old bake's grid with
 * the cells inside `changed` edited (terrain or heights; its size and costs table unchanged). Only
 * the clusters that hold a changed cell, or whose transitions changed, are searched again; every
 * other cluster's edges are copied from old. The result is the same, bit for bit, as a full
 * nav_hpa_bake of the edited grid with old's options. old is not touched: queries may go on using
 * it meanwhile (it is a new snapshot), and it can be destroyed afterwards. Rebuild the grid's
 * reachability labels after editing it, or queries lose their O(1) "unreachable".
 * [in] options [opt]: only allocator (null: old's), log and progress are used.
 * Returns as nav_hpa_bake, plus NAV_FAILURE | NAV_INVALID_PARAM for a grid of another size. */
NAV_BAKE_API nav_status nav_hpa_rebake(const nav_hpa *old, const nav_grid *grid, nav_grid_rect changed,
                                       const nav_hpa_desc *options, nav_hpa **out);

/* The options the data was baked with, defaults resolved (allocator, log and progress cleared). */
NAV_API nav_hpa_desc nav_hpa_get_desc(const nav_hpa *hpa);

/* Figures of a bake (navtool info prints them). */
typedef struct nav_hpa_info {
    int32_t width, height;     /* of the grid */
    uint64_t grid_fingerprint; /* nav_grid_fingerprint of the grid it was baked from */
    int32_t levels;
    int32_t cluster_side[NAV_HPA_MAX_LEVELS + 1];     /* cells, level 1..levels */
    uint32_t clusters[NAV_HPA_MAX_LEVELS + 1];        /* level 1..levels */
    uint32_t nodes[NAV_HPA_MAX_LEVELS + 1];           /* nodes living at level l or above */
    uint32_t edges[NAV_HPA_MAX_LEVELS + 1];           /* directed edges of the level-l graph */
    uint32_t entrances;                               /* entrance runs on level-1 borders */
    uint32_t transitions;                             /* transitions (cell pairs across a border) */
    uint64_t path_moves;                              /* stored cell moves of level-1 edges */
    uint32_t reused_clusters[NAV_HPA_MAX_LEVELS + 1]; /* after nav_hpa_rebake: clusters of each level whose
                                                        edges were copied, not searched again */
    size_t bytes;                                     /* memory of the baked data */
    size_t field_bytes; /* of which distance fields (built on grids of one cost whose moves all go both
                           ways, clusters of up to 32 cells: start and goal are then joined by lookups) */
} nav_hpa_info;

NAV_API void nav_hpa_get_info(const nav_hpa *hpa, nav_hpa_info *info);
/* The fingerprint of the grid the bake was made from (0 for null): equal to
 * nav_grid_fingerprint(grid) when grid is that grid, unchanged. */
NAV_API uint64_t nav_hpa_grid_fingerprint(const nav_hpa *hpa);
NAV_API size_t nav_hpa_memory_bytes(const nav_hpa *hpa);

/* ---- The HPA chunk of a .nav file ------------------------------------------------------------ */

#define NAV_CHUNK_HPA         NAV_TAG('H', 'P', 'A', 'G')
#define NAV_HPA_CHUNK_VERSION 2 /* 2: the grid's fingerprint; version 1 files must be baked again */

/* Appends the bake's HPA chunk data to out. Returns the writer's status. */
NAV_API nav_status nav_hpa_write_chunk(const nav_hpa *hpa, nav_writer *out);

/* Makes a bake from HPA chunk data (version NAV_HPA_CHUNK_VERSION) for the grid it was baked from,
 * validating everything a query relies on: the grid's fingerprint, stored in the chunk, against
 * nav_grid_fingerprint(grid) (a bake of another grid, or of this one before an edit, would answer
 * "unreachable" for paths the grid has); every count, index and option; the nodes' order; each
 * level-1 edge's moves allowed on this grid and ending on its target at its cost; each upper edge a
 * chain of lower ones from its source to its target at its cost. A chunk that passes can neither
 * make a query read out of bounds nor make it return an invalid path.
 * [in] options [opt]: only allocator and log are used. [out] out: null on failure.
 * Returns NAV_SUCCESS, or NAV_FAILURE with NAV_SOURCE_MISMATCH (the bake belongs to another grid:
 * the log gives both fingerprints), NAV_CORRUPT_DATA (named in the log), NAV_INVALID_PARAM (null
 * arguments) or NAV_OUT_OF_MEMORY. */
NAV_API nav_status nav_hpa_read_chunk(const void *data, size_t size, const nav_grid *grid,
                                      const nav_hpa_desc *options, nav_hpa **out);

/* Saves grid and bake as one .nav file with a GRID and an HPA chunk (atomically, see
 * nav_container_write_file). Returns NAV_SUCCESS, NAV_FAILURE | NAV_SOURCE_MISMATCH when the bake
 * was not made from this grid as it is now (nothing is written; the grid's log says so), or the
 * failure of writing. */
NAV_API nav_status nav_hpa_save_nav(const nav_grid *grid, const nav_hpa *hpa, const char *path);

/* Loads the GRID and HPA chunks of a .nav file. [in] options [opt]: allocator and log (errors as
 * "PATH: message"). [out] grid, hpa: both null on failure. Returns as nav_grid_load_nav, plus
 * the failures of nav_hpa_read_chunk (NAV_SOURCE_MISMATCH: the file's bake belongs to another
 * grid than the file's); a file without an HPA chunk, or with two, gives NAV_CORRUPT_DATA, one of
 * another version NAV_WRONG_VERSION. */
NAV_API nav_status nav_hpa_load_nav(const char *path, const nav_hpa_desc *options, nav_grid **grid,
                                    nav_hpa **hpa);

/* ---- Reading the abstract graph (tests, tools, debug drawing) ------------------------------- */

NAV_API uint32_t nav_hpa_node_count(const nav_hpa *hpa);
/* The cell index of a node and the highest level it lives at. Returns false for a bad node. */
NAV_API bool nav_hpa_node(const nav_hpa *hpa, uint32_t node, uint32_t *cell, int32_t *level);
/* The edges out of a node in the level-l graph: writes up to max targets and costs [opt] and
 * returns how many edges there are (0 for a bad node or level, or a node below level l). */
NAV_API uint32_t nav_hpa_node_edges(const nav_hpa *hpa, int32_t level, uint32_t node, uint32_t *targets,
                                    double *costs, uint32_t max);

/* ---- Queries --------------------------------------------------------------------------------- */

typedef struct nav_hpa_query_desc {
    /* Start and goal at most this many level-1 cluster sides apart (across and down) first try a
     * plain A* in the box round them, grown by half a side, for at most two cluster areas of
     * expansions: an optimal path where a detour through transitions would weigh most. 0: 2;
     * negative: never (always the abstract search, except inside one cluster). */
    int32_t near_clusters;
    /* Weight of the abstract search's estimate (weighted A*): the route found through the graph
     * costs at most this factor more than the graph's best, and the search looks at far fewer
     * vertices. 1..10; 0: 1.2. */
    double weight;
    const nav_allocator *allocator; /* [opt] copied */
} nav_hpa_query_desc;

typedef struct nav_hpa_query nav_hpa_query;

typedef struct nav_hpa_result {
    double cost;             /* cost of the returned cell path */
    uint32_t expanded;       /* abstract nodes and cells expanded by every search of the query */
    int32_t search_level;    /* level of the abstract search (0: a local search inside one cluster) */
    uint32_t abstract_edges; /* abstract edges on the route (the rest are grid moves near the ends) */
} nav_hpa_result;

/* Makes a query object for one bake and the grid it was baked from (same size; it must not change
 * while queries run). Returns NAV_FAILURE with NAV_INVALID_PARAM or NAV_OUT_OF_MEMORY. */
NAV_API nav_status nav_hpa_query_create(const nav_hpa *hpa, const nav_grid *grid,
                                        const nav_hpa_query_desc *desc, nav_hpa_query **out);
NAV_API void nav_hpa_query_destroy(nav_hpa_query *query);
NAV_API size_t nav_hpa_query_memory_bytes(const nav_hpa_query *query);

/* Finds a path from (sx, sy) to (gx, gy) and writes its cells (start first) into path.
 * The path is valid (every step an allowed move) but not always the cheapest: HPA* trades a few
 * percent of length for speed (routes through transitions, a weighted search; see README). It is
 * found whenever one exists, and "unreachable" comes in O(1) where the grid's reachability labels
 * prove it. Only the query object is written: any number of threads may query one bake at once.
 * Returns NAV_SUCCESS; NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE with only the start in
 * path when no path exists; NAV_FAILURE with NAV_INVALID_PARAM (off the map), NAV_BLOCKED_ENDPOINT
 * or NAV_OUT_OF_MEMORY (the path buffer could not grow). */
NAV_API nav_status nav_hpa_find_path(nav_hpa_query *query, int32_t sx, int32_t sy, int32_t gx, int32_t gy,
                                     nav_path *path, nav_hpa_result *result);

/* ---- Refinement on demand --------------------------------------------------------------------- */

/* Plans a route from (sx, sy) to (gx, gy) without writing its cells: an agent can start walking
 * after the first nav_hpa_refine_next, before the rest of a long route is unfolded. The plan lives
 * in the query object until the next plan or find_path on it. result->cost is not set (the cells
 * are not known yet). Returns as nav_hpa_find_path. */
NAV_API nav_status nav_hpa_plan(nav_hpa_query *query, int32_t sx, int32_t sy, int32_t gx, int32_t gy,
                                nav_hpa_result *result);

/* Appends up to max_cells more cells of the planned route to path (the first call starts with the
 * start cell). Returns NAV_IN_PROGRESS while cells remain, NAV_SUCCESS once the goal's cell (or,
 * for an unreachable goal, the start) has been appended; NAV_FAILURE with NAV_WRONG_STATE (no plan,
 * or the plan was used up), NAV_INVALID_PARAM or NAV_OUT_OF_MEMORY. The cells are those
 * nav_hpa_find_path would return. */
NAV_API nav_status nav_hpa_refine_next(nav_hpa_query *query, uint32_t max_cells, nav_path *path);

#ifdef __cplusplus
}
#endif
#endif
