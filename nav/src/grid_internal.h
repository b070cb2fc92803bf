/* Private: the grid's layout, shared by the grid's own files and its planners. */
#ifndef NAV_SRC_GRID_INTERNAL_H
#define NAV_SRC_GRID_INTERNAL_H

#include "nav/grid.h"

struct nav_grid {
    nav_grid_desc desc; /* defaults resolved; desc.allocator and desc.log point below */
    nav_allocator allocator;
    nav_log log;
    uint32_t width, height, cells;
    uint8_t *terrain;    /* terrain type of each cell */
    float *heights;      /* height of each cell; null while every height is 0 */
    uint8_t *moves;      /* allowed move bits of each cell (terrain, corners, climb), with a
                          * row of zeros before the first cell and after the last */
    uint64_t *open_bits; /* the free cells, one bit each, rows of open_row_words words with a blocked
                          * border: bit x + 1 of row y + 1 is cell (x, y), for x in -1 .. width and
                          * y in -1 .. height (nav__open_index) */
    uint32_t open_row_words;
    uint32_t *component;  /* reachability labels; null when not built or out of date */
    bool component_exact; /* every move can be taken back, so one label means a path exists */
    double terrain_cost[NAV_TERRAIN_TYPES];
    uint32_t terrain_use[NAV_TERRAIN_TYPES]; /* cells of each type */
    double min_cost;                         /* cheapest passable type in use */
    double max_cost;                         /* dearest passable type in use */
    double uniform_cost; /* the one cost of every passable type in use, or 0 if they differ */
    int32_t offset[8];   /* cell index offset of each direction */
    double step_length[8];
};

/* Direction deltas, in nav_dir order. */
extern const int8_t nav__dir_dx[8];
extern const int8_t nav__dir_dy[8];

/* The direction opposite to d. */
static inline int nav__dir_opposite(int d)
{
    return d < 4 ? d ^ 1 : 11 - d;
}

static inline bool nav__cell_free(const nav_grid *grid, uint32_t cell)
{
    return grid->terrain_cost[grid->terrain[cell]] < INFINITY;
}

/* Bit index of cell (x, y) in open_bits, for x in -1 .. width and y in -1 .. height. */
static inline uint64_t nav__open_index(const nav_grid *grid, int64_t x, int64_t y)
{
    return (uint64_t)(y + 1) * grid->open_row_words * 64 + (uint64_t)(x + 1);
}

static inline bool nav__open_at(const uint64_t *bits, uint64_t index)
{
    return (bits[index >> 6] >> (index & 63)) & 1;
}

/* Whether point (x, y) (grid units) lies on the map in or on a free cell: one of the up to four
 * cells whose closed squares hold it (the border's bits, blocked, stand for the outside). */
static inline bool nav__point_free(const nav_grid *grid, double x, double y)
{
    if (!(x >= 0 && y >= 0 && x <= grid->width && y <= grid->height)) return false; /* NaN too */
    int64_t fx = (int64_t)x, fy = (int64_t)y;
    bool on_x = x == (double)fx, on_y = y == (double)fy;
    uint64_t at = nav__open_index(grid, fx, fy), up = (uint64_t)grid->open_row_words * 64;
    return nav__open_at(grid->open_bits, at) || (on_x && nav__open_at(grid->open_bits, at - 1)) ||
           (on_y && nav__open_at(grid->open_bits, at - up)) ||
           (on_x && on_y && nav__open_at(grid->open_bits, at - up - 1));
}

static inline float nav__cell_height(const nav_grid *grid, uint32_t cell)
{
    return grid->heights ? grid->heights[cell] : 0.0f;
}

/* The terrain costs one search goes by under a filter: the filter's over the grid's
 * (nav_grid_filter: a type the grid blocks stays blocked), with the cheapest and dearest passable type in use
 * under them, and whether they block a type in use that the grid lets in (then a cell's moves are
 * nav__grid_moves_under's, not grid->moves). */
typedef struct nav__grid_costs {
    const nav_grid *grid; /* what they were made for */
    const nav_grid_filter *filter;
    double cost[NAV_TERRAIN_TYPES];
    double min_cost, max_cost;
    bool blocks;
    bool same; /* every type in use costs the grid's under them, and none is kept out */
} nav__grid_costs;

void nav__grid_costs_make(const nav_grid *grid, const nav_grid_filter *filter, nav__grid_costs *out);
/* The moves of a cell under a cost table (nav__grid_costs.cost): the grid's, less those into a cell
 * the table blocks and the diagonals whose sides it blocks as the corner policy forbids. */
uint32_t nav__grid_moves_under(const nav_grid *grid, const double *cost, uint32_t cell);

static inline uint32_t nav__grid_moves_of(const nav__grid_costs *c, uint32_t cell)
{
    return c->blocks ? nav__grid_moves_under(c->grid, c->cost, cell) : c->grid->moves[cell];
}

/* nav_grid_anyangle_segment under a cost table (null: the grid's): a cell it blocks is not free. */
bool nav__grid_anyangle_segment(const nav_grid *grid, const double *cost, double ax, double ay, double bx,
                                double by, double *out);

/* After writing grid->terrain or grid->heights directly (loaders do, cell by cell): recounts the
 * terrain in use, recomputes every cell's moves and drops the reachability labels. O(cells). */
void nav__grid_rebuild(nav_grid *grid);
/* nav_grid_read_chunk, with the reachability labels built or not (a world's regions read on demand
 * are searched by fans and legs, which do not use them). */
nav_status nav__grid_read_chunk(const void *data, size_t size, const nav_grid_desc *options, bool labels,
                                nav_grid **out);
/* Makes the height layer (all 0) if it does not exist yet. Returns NAV_FAILURE | NAV_OUT_OF_MEMORY. */
nav_status nav__grid_ensure_heights(nav_grid *grid);

/* Reports a formatted message to the grid's log. */
#define nav__grid_log(grid, level, ...) nav__logf(&(grid)->log, level, __VA_ARGS__)

#endif
