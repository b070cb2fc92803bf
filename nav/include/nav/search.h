/* nav/search.h - searches over a grid: BFS, Dijkstra, greedy best-first, A*, weighted A*.
 *
 * One engine, many behaviours: the open list orders cells by f = g + w * h (A*: w = 1, weighted
 * A*: w >= 1, Dijkstra: h = 0, greedy: f = h), or first-in first-out for BFS. Ties on f go to the
 * larger g, then the lower cell index, so every run gives the same path.
 *
 * A nav_grid_query owns all search scratch for one thread: one node record a cell, stamped with a
 * generation so a new search never clears the map. Create one per thread; all may share one grid.
 *
 *     nav_grid_query *q;
 *     nav_grid_query_create(grid, NULL, &q);
 *     nav_path path;
 *     nav_path_init(&path, NULL);
 *     nav_search_result r;
 *     nav_status s = nav_grid_find_path(q, NULL, 1, 1, 40, 20, &path, &r);   // A*, default heuristic
 *     if (nav_succeeded(s) && !nav_has_detail(s, NAV_PARTIAL_RESULT))
 *         printf("cost %.3f over %u cells, %u expanded\n", r.cost, path.count, r.expanded);
 *     nav_path_destroy(&path);
 *     nav_grid_query_destroy(q);
 *
 * Step-wise use (a visualiser, a time-sliced game loop): nav_grid_search_begin, then
 * nav_grid_search_step until it no longer returns NAV_IN_PROGRESS, then nav_grid_search_finish;
 * between steps the open and closed sets can be read.
 */
#ifndef NAV_SEARCH_H
#define NAV_SEARCH_H

#include "nav/core.h"
#include "nav/grid.h"
#include "nav/path.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum nav_algo {
    NAV_ALGO_ASTAR = 0, /* default */
    NAV_ALGO_BFS,       /* fewest moves; ignores costs (cost of the path still reported) */
    NAV_ALGO_DIJKSTRA,  /* h = 0 */
    NAV_ALGO_GREEDY,    /* f = h: fast, no bound on cost */
    NAV_ALGO_WASTAR     /* f = g + weight * h: cost at most weight times the optimum */
} nav_algo;

typedef enum nav_heuristic {
    NAV_HEURISTIC_DEFAULT = 0, /* the tightest admissible one: octile (8-connected) or Manhattan (4) */
    NAV_HEURISTIC_ZERO,
    NAV_HEURISTIC_MANHATTAN, /* dx + dy: admissible only 4-connected */
    NAV_HEURISTIC_OCTILE,    /* max + (diagonal_cost - 1) * min */
    NAV_HEURISTIC_EUCLIDEAN, /* sqrt(dx^2 + dy^2) */
    NAV_HEURISTIC_CHEBYSHEV  /* max(dx, dy) */
} nav_heuristic;

/* Search options; zero fields take defaults. */
typedef struct nav_search_desc {
    nav_algo algo;
    nav_heuristic heuristic;
    double weight;         /* weighted A* only: >= 1; 0: 1.5 */
    uint32_t max_expanded; /* node budget: expansions before giving up with a partial path; 0: none */
} nav_search_desc;

/* Resolves a descriptor's defaults against a grid (the heuristic a tool should print). */
NAV_API nav_search_desc nav_search_desc_defaults(const nav_grid *grid, const nav_search_desc *desc);

/* The heuristic's estimate from cell a to cell b on this grid, already scaled by the grid's cheapest
 * terrain cost (so the default one is admissible). */
NAV_API double nav_grid_heuristic(const nav_grid *grid, nav_heuristic heuristic, int32_t ax, int32_t ay,
                                  int32_t bx, int32_t by);

typedef struct nav_search_result {
    double cost;        /* cost of the returned path (to the goal, or to the closest cell) */
    double bound;       /* proven: cost <= bound * optimal (1 for exact, weight for weighted A*,
                           INFINITY for greedy and BFS) */
    uint32_t expanded;  /* cells taken off the open list */
    uint32_t generated; /* cells put on, or lowered in, the open list */
    uint32_t end_cell;  /* last cell of the path: the goal, or the closest reached cell */
} nav_search_result;

typedef struct nav_grid_query_desc {
    const nav_allocator *allocator; /* [opt] copied */
} nav_grid_query_desc;

typedef struct nav_grid_query nav_grid_query;

/* Makes a query object for one grid: 20 bytes a cell plus the open list, allocated once here.
 * Returns NAV_FAILURE | NAV_OUT_OF_MEMORY or NAV_INVALID_PARAM on failure (*out null). */
NAV_API nav_status nav_grid_query_create(const nav_grid *grid, const nav_grid_query_desc *desc,
                                         nav_grid_query **out);
NAV_API void nav_grid_query_destroy(nav_grid_query *query);
/* Bytes the query object holds. */
NAV_API size_t nav_grid_query_memory_bytes(const nav_grid_query *query);

/* Finds a path from (sx, sy) to (gx, gy) and writes its cells (start first) into path.
 * [in]  desc   [opt] null: A* with the default heuristic and no budget
 * [out] path   cleared, then filled with cell indices and world centres
 * [out] result [opt] cost, bound and counters
 * Returns NAV_SUCCESS with the goal reached; NAV_SUCCESS | NAV_PARTIAL_RESULT with a path to the
 *   reached cell closest to the goal, plus NAV_UNREACHABLE (no path exists) or NAV_OUT_OF_NODES
 *   (the budget ran out); NAV_FAILURE with NAV_INVALID_PARAM (off the map, bad options),
 *   NAV_BLOCKED_ENDPOINT or NAV_OUT_OF_MEMORY (the path buffer could not grow). */
NAV_API nav_status nav_grid_find_path(nav_grid_query *query, const nav_search_desc *desc, int32_t sx,
                                      int32_t sy, int32_t gx, int32_t gy, nav_path *path,
                                      nav_search_result *result);

/* ---- Step-wise search ------------------------------------------------------------------------ */

/* Starts a search. Returns NAV_IN_PROGRESS, or the final status when it ends at once (start is
 * the goal, reachability labels prove the goal unreachable, bad arguments). */
NAV_API nav_status nav_grid_search_begin(nav_grid_query *query, const nav_search_desc *desc, int32_t sx,
                                         int32_t sy, int32_t gx, int32_t gy);
/* Runs up to max_expansions expansions (0: until done). Returns NAV_IN_PROGRESS while work
 * remains, else the final status as nav_grid_find_path would. */
NAV_API nav_status nav_grid_search_step(nav_grid_query *query, uint32_t max_expansions);
/* Writes the path of a finished search (see nav_grid_find_path) and returns its status. */
NAV_API nav_status nav_grid_search_finish(nav_grid_query *query, nav_path *path, nav_search_result *result);

typedef enum nav_cell_state { NAV_CELL_UNSEEN = 0, NAV_CELL_OPEN = 1, NAV_CELL_CLOSED = 2 } nav_cell_state;

/* State of a cell in the current (or last) search, with its g and parent when seen. On a grid of
 * one terrain cost, A* and Dijkstra keep g in fixed point, and the g given here is converted
 * from it: it may differ from the cost of the cell's path by up to 2^-33 (about 1.2e-10) times
 * the cost for each diagonal move. Path costs are computed from the moves in double precision. */
NAV_API nav_cell_state nav_grid_query_cell(const nav_grid_query *query, int32_t x, int32_t y, double *g,
                                           uint32_t *parent);
/* Number of cells on the open list. */
NAV_API uint32_t nav_grid_query_open_count(const nav_grid_query *query);
/* Writes up to max cell indices of the open list into cells (in no particular order) and returns
 * how many it wrote (all of them when max >= nav_grid_query_open_count). */
NAV_API uint32_t nav_grid_query_open_cells(const nav_grid_query *query, uint32_t *cells, uint32_t max);
/* Counters of the current search so far. */
NAV_API nav_search_result nav_grid_query_progress(const nav_grid_query *query);

/* ---- Path checks ----------------------------------------------------------------------------- */

/* Checks a cell path (path->nodes): in bounds, free cells, each step an allowed move (terrain,
 * corners, climb). Writes its cost to *cost [opt]. Returns NAV_SUCCESS or NAV_FAILURE |
 * NAV_INVALID_PARAM, naming the first bad step in the grid's log. */
NAV_API nav_status nav_grid_validate_cells(const nav_grid *grid, const nav_path *path, double *cost);

#ifdef __cplusplus
}
#endif
#endif
