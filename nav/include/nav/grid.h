/* nav/grid.h - the fine grid: cells with terrain costs and heights, and its loaders.
 *
 * A grid is width x height cells. Each cell holds a terrain type (0..255); the grid's terrain
 * table gives each type a cost factor or marks it blocked (type 0 is always blocked, type 1 is
 * plain ground of cost 1, and every new cell is plain). Each cell also has a height (0 unless set).
 *
 * Moves: 4 or 8 neighbours. A cardinal move has length 1, a diagonal diagonal_cost (sqrt 2 by
 * default); a move costs its length times the destination cell's cost factor. A move up by more
 * than max_climb is refused; a move down is always allowed (the seeds' basin). A diagonal passes
 * the two cells beside it; the corner policy says whether they must be free (the Moving AI rule,
 * the default), whether one free side is enough, or whether they do not matter.
 *
 * World space: cell (x, y) covers world x in [origin.x + x*s, origin.x + (x+1)*s) and world z in
 * [origin.z + y*s, ...), at y = origin.y + its height; Moving AI's x is the column, y the row.
 *
 * Life: create (or load), set cells and terrain costs, then share: any number of threads may
 * query one grid through their own nav_grid_query as long as nobody changes it meanwhile.
 *
 *     nav_grid *grid;
 *     nav_status s = nav_grid_create(&(nav_grid_desc){.width = 64, .height = 32}, &grid);
 *     // C++ has no compound literals: nav_grid_desc d{}; d.width = 64; d.height = 32;
 *     // nav_grid_create(&d, &grid);  (or C++20's nav_grid_desc d{.width = 64, .height = 32};)
 *     nav_grid_set_terrain_cost(grid, 2, 5.0);       // type 2 is forest, cost 5
 *     nav_grid_set_cell(grid, 10, 4, 2);              // plant a tree
 *     nav_grid_set_cell(grid, 11, 4, NAV_TERRAIN_BLOCKED);
 *     nav_grid_build_reachability(grid);              // O(1) "unreachable" answers
 *     ... nav_grid_query (nav/search.h) ...
 *     nav_grid_destroy(grid);
 */
#ifndef NAV_GRID_H
#define NAV_GRID_H

#include "nav/core.h"
#include "nav/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NAV_GRID_MAX_SIDE   32768      /* largest width or height */
#define NAV_GRID_MAX_CELLS  (1u << 30) /* largest width * height */
#define NAV_TERRAIN_BLOCKED 0          /* terrain type that is always blocked */
#define NAV_TERRAIN_PLAIN   1          /* terrain type of every new cell: cost 1 */
#define NAV_TERRAIN_TYPES   256
#define NAV_COST_BLOCKED    INFINITY   /* terrain cost that blocks a type */
#define NAV_NO_CELL         UINT32_MAX /* "no cell" for cell indices */

/* The range of a passable terrain's cost factor, checked by nav_grid_set_terrain_cost and by every
 * loader. The largest grid's longest path (2^30 cells, moves at most 2 long) then costs under
 * 2^31 * 4096 = 2^43: no sum overflows, and the searches, which order costs at a resolution of
 * 2^-20, order every such cost exactly; the cheapest move (1/1024) is still 1024 of those steps. */
#define NAV_COST_MIN (1.0 / 1024.0)
#define NAV_COST_MAX 4096.0

/* True for a cost factor a terrain type may have: NAV_COST_MIN..NAV_COST_MAX, or NAV_COST_BLOCKED. */
static inline bool nav_terrain_cost_valid(double cost)
{
    return (cost >= NAV_COST_MIN && cost <= NAV_COST_MAX) || cost == NAV_COST_BLOCKED;
}

typedef enum nav_connectivity {
    NAV_CONNECT_DEFAULT = 0, /* 8 */
    NAV_CONNECT_4 = 4,
    NAV_CONNECT_8 = 8
} nav_connectivity;

typedef enum nav_corner_policy {
    NAV_CORNER_DEFAULT = 0,         /* NAV_CORNER_NEVER_CUT */
    NAV_CORNER_NEVER_CUT = 1,       /* a diagonal needs both cells beside it free (Moving AI) */
    NAV_CORNER_CUT_IF_ONE_FREE = 2, /* a diagonal needs one of the two cells beside it free */
    NAV_CORNER_ALWAYS_CUT = 3       /* a diagonal needs only its destination free */
} nav_corner_policy;

/* Move directions; bit d of a move mask allows the move in direction d. */
typedef enum nav_dir {
    NAV_DIR_E = 0,
    NAV_DIR_W = 1,
    NAV_DIR_S = 2,
    NAV_DIR_N = 3, /* S is +y (next row), N is -y */
    NAV_DIR_SE = 4,
    NAV_DIR_NE = 5,
    NAV_DIR_SW = 6,
    NAV_DIR_NW = 7
} nav_dir;

/* Grid options; every zero field takes its documented default. */
typedef struct nav_grid_desc {
    int32_t width, height;           /* cells, 1..NAV_GRID_MAX_SIDE (loaders take them from the file) */
    nav_connectivity connectivity;   /* 0: 8-connected */
    nav_corner_policy corner_policy; /* 0: never cut a blocked corner */
    float max_climb;                 /* largest step up between neighbours (world units); 0: unlimited */
    double diagonal_cost;            /* length of a diagonal move in cells; 0: sqrt(2) */
    float cell_size;                 /* world size of one cell; 0: 1 */
    nav_vec3 origin;                 /* world position of the corner of cell (0, 0) */
    const nav_allocator *allocator;  /* [opt] memory hooks, copied */
    const nav_log *log;              /* [opt] message sink, copied (loaders report errors here) */
} nav_grid_desc;

typedef struct nav_grid nav_grid;

/* The descriptor with every zero field replaced by its default (a tool prints what was used). */
NAV_API nav_grid_desc nav_grid_desc_defaults(const nav_grid_desc *desc);

/* Creates a grid of plain cells (type 1, cost 1, height 0).
 * Returns NAV_SUCCESS, or NAV_FAILURE with NAV_INVALID_PARAM (bad option), NAV_TOO_LARGE (size
 * over the limits) or NAV_OUT_OF_MEMORY; *out is null on failure. */
NAV_API nav_status nav_grid_create(const nav_grid_desc *desc, nav_grid **out);
NAV_API void nav_grid_destroy(nav_grid *grid);

/* The grid's options, defaults resolved (allocator and log point into the grid). */
NAV_API const nav_grid_desc *nav_grid_get_desc(const nav_grid *grid);
NAV_API int32_t nav_grid_width(const nav_grid *grid);
NAV_API int32_t nav_grid_height(const nav_grid *grid);
/* Bytes the grid holds (cells, heights, moves, a bit a cell for the any-angle walks, reachability
 * labels). */
NAV_API size_t nav_grid_memory_bytes(const nav_grid *grid);

/* Cell index y * width + x, and back. */
static inline uint32_t nav_grid_index(const nav_grid *grid, int32_t x, int32_t y)
{
    return (uint32_t)y * (uint32_t)nav_grid_width(grid) + (uint32_t)x;
}
NAV_API bool nav_grid_in_bounds(const nav_grid *grid, int32_t x, int32_t y);

/* Sets the cost factor of a terrain type: NAV_COST_MIN..NAV_COST_MAX (1/1024 to 4096), or
 * NAV_COST_BLOCKED. Type 0 cannot be changed. Returns NAV_FAILURE | NAV_INVALID_PARAM on a bad
 * type or cost (also told to the grid's log). */
NAV_API nav_status nav_grid_set_terrain_cost(nav_grid *grid, uint8_t type, double cost);
/* Cost factor of a type (NAV_COST_BLOCKED for a blocked one). */
NAV_API double nav_grid_terrain_cost(const nav_grid *grid, uint8_t type);
/* Cheapest cost factor over the passable types in use (1 for an empty table): the factor that keeps
 * a distance heuristic admissible. */
NAV_API double nav_grid_min_cost(const nav_grid *grid);
/* The one cost factor of every passable type in use, or 0 when they differ (then moves of equal
 * length may cost differently). Every Moving AI map has one cost. */
NAV_API double nav_grid_uniform_cost(const nav_grid *grid);

/* Terrain costs that replace a grid's for one query's searches, moves and sight (a character that
 * may not swim keeps water out; a heavy one pays more in mud): a cost factor a type,
 * NAV_COST_MIN..NAV_COST_MAX or NAV_COST_BLOCKED. A type the grid blocks stays blocked whatever the
 * filter says (type 0 always), so a filter only keeps types out or costs them otherwise. Under it a
 * move the grid allows is allowed when the filter lets in the cell it enters and, for a diagonal,
 * the cells beside it as the grid's corner policy asks. A world query takes one
 * (nav_world_query_set_grid_filter) for every grid region, as an agent does (nav/agents.h). */
typedef struct nav_grid_filter {
    double terrain_cost[NAV_TERRAIN_TYPES];
} nav_grid_filter;

/* Fills a filter with grid's terrain costs (null: a new grid's, type 0 blocked and every other 1),
 * to be changed where the query differs. */
NAV_API void nav_grid_filter_init(nav_grid_filter *filter, const nav_grid *grid);
/* Whether every cost of the filter is one a type may have (nav_terrain_cost_valid). */
NAV_API bool nav_grid_filter_valid(const nav_grid_filter *filter);

/* Sets a cell's terrain type. Returns NAV_FAILURE | NAV_INVALID_PARAM off the map. */
NAV_API nav_status nav_grid_set_cell(nav_grid *grid, int32_t x, int32_t y, uint8_t type);
/* A cell's terrain type (NAV_TERRAIN_BLOCKED off the map). */
NAV_API uint8_t nav_grid_cell(const nav_grid *grid, int32_t x, int32_t y);
/* A cell's cost factor (NAV_COST_BLOCKED when blocked or off the map). */
NAV_API double nav_grid_cell_cost(const nav_grid *grid, int32_t x, int32_t y);
NAV_API bool nav_grid_passable(const nav_grid *grid, int32_t x, int32_t y);

/* Sets a cell's height (world units, finite). Returns NAV_FAILURE | NAV_INVALID_PARAM off the map
 * or on a non-finite height, NAV_OUT_OF_MEMORY when the height layer cannot be made. */
NAV_API nav_status nav_grid_set_cell_height(nav_grid *grid, int32_t x, int32_t y, float height);
NAV_API float nav_grid_cell_height(const nav_grid *grid, int32_t x, int32_t y);

/* Bit d set: the move from (x, y) in direction d is allowed (terrain, corners, climb). 0 off the map. */
NAV_API uint8_t nav_grid_moves(const nav_grid *grid, int32_t x, int32_t y);
/* Offset of direction d: dx, dy in -1..1. */
NAV_API void nav_dir_offset(nav_dir d, int32_t *dx, int32_t *dy);
/* Cost of one move from (x, y) in direction d, NAV_COST_BLOCKED when it is not allowed. */
NAV_API double nav_grid_move_cost(const nav_grid *grid, int32_t x, int32_t y, nav_dir d);

/* World position of a cell's centre, at the cell's height. */
NAV_API nav_vec3 nav_grid_cell_center(const nav_grid *grid, int32_t x, int32_t y);
/* The cell under a world position (x, z). Returns false when it is off the map. */
NAV_API bool nav_grid_world_to_cell(const nav_grid *grid, nav_vec3 pos, int32_t *x, int32_t *y);

/* A 64-bit fingerprint of everything a bake made from the grid depends on: the size, connectivity,
 * corner policy, diagonal cost and max climb, the terrain cost table, every cell's terrain type and
 * height (a grid without a height layer and one whose heights are all 0 are alike). Not the world
 * transform (origin, cell size), which moves nothing, nor the reachability labels. Data derived
 * from a grid (an HPA* bake; later navmeshes and waypoint graphs) records its grid's fingerprint,
 * and loading or saving it with another grid fails with NAV_SOURCE_MISMATCH. The same on every
 * machine (XXH64 of a little-endian encoding); grids that differ give different fingerprints but
 * for a 2^-64 chance. O(cells) time, no allocation; 0 for a null grid. */
NAV_API uint64_t nav_grid_fingerprint(const nav_grid *grid);

/* ---- Reachability ---------------------------------------------------------------------------- */

/* Labels connected components (moves taken in either direction) so that "unreachable" costs O(1).
 * Any later change to cells, costs or heights drops the labels until this is called again. Takes
 * O(cells) time and 4 bytes a cell. Returns NAV_FAILURE | NAV_OUT_OF_MEMORY on failure. */
NAV_API nav_status nav_grid_build_reachability(nav_grid *grid);
NAV_API bool nav_grid_has_reachability(const nav_grid *grid);
/* Component label of a cell (0 for a blocked cell or without labels). */
NAV_API uint32_t nav_grid_component(const nav_grid *grid, int32_t x, int32_t y);
/* False only when no path can exist from a to b. With one-way climbs a true answer may still turn
 * out unreachable by search; a false answer is always right. Without labels, always true for
 * passable cells. */
NAV_API bool nav_grid_may_reach(const nav_grid *grid, int32_t ax, int32_t ay, int32_t bx, int32_t by);
/* True when the reverse of every allowed move is allowed too (no one-way climbs). O(cells). */
NAV_API bool nav_grid_moves_reversible(const nav_grid *grid);
/* True when the labels exist and every allowed move can also be taken back (no one-way climbs):
 * then cells with one label are always joined by a path, and nav_grid_may_reach is exact. */
NAV_API bool nav_grid_reachability_exact(const nav_grid *grid);

/* ---- Loaders --------------------------------------------------------------------------------- */
/* Each loader takes the text or bytes of a file, or a path, and the options of the grid to make
 * (width and height come from the file). Errors go to options->log as "NAME:LINE: message". Each
 * loader builds the reachability labels. On failure *out is null and the status says why:
 * NAV_IO_ERROR, NAV_PARSE_ERROR, NAV_TOO_LARGE, NAV_OUT_OF_MEMORY or NAV_INVALID_PARAM.
 *
 * The _file variants refuse a path that is not a regular file (a FIFO, a directory, a device) with
 * NAV_IO_ERROR, and read text files in pieces, never whole: a file costs memory for the grid it
 * makes and its longest line. A line longer than 1 MiB is refused (NAV_PARSE_ERROR), in memory and
 * in files alike (no valid line comes near it); a .map text longer than its header can need (rows
 * with CRLF ends, trailing blanks as long as the rows, 1 MiB of blank lines) is refused with
 * NAV_TOO_LARGE before its rows are read. */

/* Moving AI .map ("type octile", "height H", "width W", "map", H rows of W characters).
 * '.', 'G' are plain; 'S' (swamp) is type 2 of cost 1; '@', 'O', 'T', 'W' are blocked. */
NAV_BAKE_API nav_status nav_grid_load_map(const char *text, size_t size, const char *name,
                                          const nav_grid_desc *options, nav_grid **out);
NAV_BAKE_API nav_status nav_grid_load_map_file(const char *path, const nav_grid_desc *options,
                                               nav_grid **out);

/* The libnav ASCII format (see docs/ascii_format.md): optional header lines, a legend giving
 * each character a cost and a height, then the rows. */
NAV_BAKE_API nav_status nav_grid_load_ascii(const char *text, size_t size, const char *name,
                                            const nav_grid_desc *options, nav_grid **out);
NAV_BAKE_API nav_status nav_grid_load_ascii_file(const char *path, const nav_grid_desc *options,
                                                 nav_grid **out);

/* A PNG mask: each pixel is a cell (row 0 at the top), its colour looked up in a palette.
 *
 * Every PNG colour type and bit depth loads, interlaced or not; 16-bit samples are cut to their
 * high 8 bits and alpha is ignored. libspng decodes it row by row straight into the cells, so a
 * mask costs memory for the grid it makes and one row (a 32768 x 32768 mask, 2^30 cells, loads from
 * a 3 MB file at a peak 1.2 times the grid's own bytes, the rest being the reachability build's
 * stack). Untrusted files are safe to load:
 *   - the size in the header is checked before anything is allocated: over NAV_GRID_MAX_SIDE a
 *     side or NAV_GRID_MAX_CELLS cells is NAV_TOO_LARGE, with both numbers in the message; a file
 *     too short to hold its pixels even at zlib's best ratio is NAV_PARSE_ERROR;
 *   - every chunk's CRC is checked (NAV_PARSE_ERROR "damaged PNG"), as are the compressed data
 *     and the end of the file (a truncated file is NAV_PARSE_ERROR);
 *   - an ancillary chunk that would decompress beyond 8 MiB (32 MiB in all) is NAV_TOO_LARGE.
 * libspng's own working memory comes from malloc, not options->allocator. */
typedef struct nav_palette_entry {
    uint32_t rgb; /* 0xRRGGBB */
    double cost;  /* cost factor, or NAV_COST_BLOCKED */
    float height;
} nav_palette_entry;

typedef struct nav_png_desc {
    const nav_palette_entry *palette; /* [opt] null: black blocked, anything else plain */
    uint32_t palette_count;
    /* What a colour missing from the palette becomes: false (default) fails with
     * NAV_PARSE_ERROR naming the first such pixel; true makes it blocked. */
    bool unknown_is_blocked;
} nav_png_desc;

NAV_BAKE_API nav_status nav_grid_load_png(const void *bytes, size_t size, const char *name,
                                          const nav_png_desc *png, const nav_grid_desc *options,
                                          nav_grid **out);
NAV_BAKE_API nav_status nav_grid_load_png_file(const char *path, const nav_png_desc *png,
                                               const nav_grid_desc *options, nav_grid **out);

#ifdef __cplusplus
}
#endif
#endif
