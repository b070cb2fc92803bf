/* The grid: cells, terrain table, heights and the move mask that planners read. */
#include "grid_internal.h"

#include <math.h>
#include <string.h>

#include "alloc.h"
#include "hash.h"
#include "log.h"

const int8_t nav__dir_dx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
const int8_t nav__dir_dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};

nav_grid_desc nav_grid_desc_defaults(const nav_grid_desc *desc)
{
    nav_grid_desc d = desc ? *desc : (nav_grid_desc){0};
    if (d.connectivity == NAV_CONNECT_DEFAULT) d.connectivity = NAV_CONNECT_8;
    if (d.corner_policy == NAV_CORNER_DEFAULT) d.corner_policy = NAV_CORNER_NEVER_CUT;
    if (d.max_climb == 0) d.max_climb = INFINITY;
    if (d.diagonal_cost == 0) d.diagonal_cost = M_SQRT2;
    if (d.cell_size == 0) d.cell_size = 1;
    return d;
}

static nav_status check_desc(const nav_grid_desc *d)
{
    if (d->width <= 0 || d->height <= 0) return NAV_FAILURE | NAV_INVALID_PARAM;
    if (d->width > NAV_GRID_MAX_SIDE || d->height > NAV_GRID_MAX_SIDE ||
        (uint64_t)d->width * (uint64_t)d->height > NAV_GRID_MAX_CELLS)
        return NAV_FAILURE | NAV_TOO_LARGE;
    if (d->connectivity != NAV_CONNECT_4 && d->connectivity != NAV_CONNECT_8)
        return NAV_FAILURE | NAV_INVALID_PARAM;
    if (d->corner_policy < NAV_CORNER_NEVER_CUT || d->corner_policy > NAV_CORNER_ALWAYS_CUT)
        return NAV_FAILURE | NAV_INVALID_PARAM;
    if (!(d->max_climb >= 0)) return NAV_FAILURE | NAV_INVALID_PARAM; /* also rejects NaN */
    if (!(d->diagonal_cost >= 1 && d->diagonal_cost <= 2)) return NAV_FAILURE | NAV_INVALID_PARAM;
    if (!(d->cell_size > 0) || !isfinite(d->cell_size)) return NAV_FAILURE | NAV_INVALID_PARAM;
    return NAV_SUCCESS;
}

/* Recomputes the cached cost figures after the terrain table or its use changed. */
static void update_costs(nav_grid *grid)
{
    double min_cost = INFINITY, max_cost = 0;
    for (int t = 1; t < NAV_TERRAIN_TYPES; t++) {
        double c = grid->terrain_cost[t];
        if (grid->terrain_use[t] == 0 || !(c < INFINITY)) continue;
        if (c < min_cost) min_cost = c;
        if (c > max_cost) max_cost = c;
    }
    if (!(min_cost < INFINITY)) min_cost = max_cost = 1;
    grid->min_cost = min_cost;
    grid->max_cost = max_cost;
    grid->uniform_cost = min_cost == max_cost ? min_cost : 0;
}

static uint8_t compute_moves(const nav_grid *grid, int32_t x, int32_t y)
{
    uint32_t w = grid->width, h = grid->height, cell = (uint32_t)y * w + (uint32_t)x;
    if (!nav__cell_free(grid, cell)) return 0;
    int dirs = grid->desc.connectivity == NAV_CONNECT_4 ? 4 : 8;
    float climb = grid->desc.max_climb, here = nav__cell_height(grid, cell);
    uint8_t mask = 0;
    for (int d = 0; d < dirs; d++) {
        int32_t nx = x + nav__dir_dx[d], ny = y + nav__dir_dy[d];
        if (nx < 0 || ny < 0 || (uint32_t)nx >= w || (uint32_t)ny >= h) continue;
        uint32_t next = (uint32_t)ny * w + (uint32_t)nx;
        if (!nav__cell_free(grid, next)) continue;
        if (grid->heights && grid->heights[next] - here > climb) continue;
        if (d >= 4) {
            bool side_a = nav__cell_free(grid, (uint32_t)y * w + (uint32_t)nx);
            bool side_b = nav__cell_free(grid, (uint32_t)ny * w + (uint32_t)x);
            switch (grid->desc.corner_policy) {
            case NAV_CORNER_NEVER_CUT:
                if (!side_a || !side_b) continue;
                break;
            case NAV_CORNER_CUT_IF_ONE_FREE:
                if (!side_a && !side_b) continue;
                break;
            default:
                break;
            }
        }
        mask |= (uint8_t)(1u << d);
    }
    return mask;
}

/* A cell change can alter the moves of every cell whose moves touch it: its 3x3 block. */
static void refresh_moves_around(nav_grid *grid, int32_t x, int32_t y)
{
    for (int32_t ny = y - 1; ny <= y + 1; ny++)
        for (int32_t nx = x - 1; nx <= x + 1; nx++)
            if (nav_grid_in_bounds(grid, nx, ny))
                grid->moves[(uint32_t)ny * grid->width + (uint32_t)nx] = compute_moves(grid, nx, ny);
}

static void set_open_bit(nav_grid *grid, uint32_t x, uint32_t y)
{
    uint64_t i = nav__open_index(grid, x, y), bit = (uint64_t)1 << (i & 63);
    if (nav__cell_free(grid, y * grid->width + x))
        grid->open_bits[i >> 6] |= bit;
    else
        grid->open_bits[i >> 6] &= ~bit;
}

/* The direction of a step (dx, dy), or -1. */
static int dir_of(int dx, int dy)
{
    for (int d = 0; d < 8; d++)
        if (nav__dir_dx[d] == dx && nav__dir_dy[d] == dy) return d;
    return -1;
}

/* compute_moves for the inner cells of a grid without heights (no climb to check, no border): a
 * straight move is open when the cell it enters is free, and a diagonal's two sides are the two
 * straight moves beside it, so each cell looks at its 8 neighbours once. */
static void inner_moves(nav_grid *grid)
{
    uint32_t w = grid->width, h = grid->height;
    bool eight = grid->desc.connectivity != NAV_CONNECT_4;
    nav_corner_policy policy = grid->desc.corner_policy;
    int side_x[8] = {0}, side_y[8] = {0};
    for (int d = 4; d < 8; d++) side_x[d] = dir_of(nav__dir_dx[d], 0), side_y[d] = dir_of(0, nav__dir_dy[d]);
    for (uint32_t y = 1; y + 1 < h; y++)
        for (uint32_t cell = y * w + 1; cell < y * w + w - 1; cell++) {
            uint8_t mask = 0;
            if (nav__cell_free(grid, cell)) {
                for (int d = 0; d < 4; d++)
                    if (nav__cell_free(grid, (uint32_t)((int32_t)cell + grid->offset[d])))
                        mask |= (uint8_t)(1u << d);
                for (int d = 4; eight && d < 8; d++) {
                    if (!nav__cell_free(grid, (uint32_t)((int32_t)cell + grid->offset[d]))) continue;
                    bool a = mask >> side_x[d] & 1u, b = mask >> side_y[d] & 1u;
                    bool open = policy == NAV_CORNER_NEVER_CUT         ? a && b
                                : policy == NAV_CORNER_CUT_IF_ONE_FREE ? a || b
                                                                       : true;
                    if (open) mask |= (uint8_t)(1u << d);
                }
            }
            grid->moves[cell] = mask;
        }
}

static void refresh_all_moves(nav_grid *grid)
{
    memset(grid->open_bits, 0, (size_t)(grid->height + 2) * grid->open_row_words * sizeof *grid->open_bits);
    uint32_t w = grid->width, h = grid->height;
    bool fast = !grid->heights && w >= 3 && h >= 3;
    if (fast) inner_moves(grid);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            set_open_bit(grid, x, y);
            if (!fast || y == 0 || x == 0 || y + 1 == h || x + 1 == w)
                grid->moves[y * w + x] = compute_moves(grid, (int32_t)x, (int32_t)y);
        }
}

/* The moves of a grid of plain cells: everything inside, computed only along the border. */
static void fill_plain_moves(nav_grid *grid)
{
    uint8_t all = grid->desc.connectivity == NAV_CONNECT_4 ? 0x0f : 0xff;
    memset(grid->moves, all, grid->cells);
    uint32_t w = grid->width, h = grid->height;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) set_open_bit(grid, x, y);
    for (uint32_t x = 0; x < w; x++) {
        grid->moves[x] = compute_moves(grid, (int32_t)x, 0);
        grid->moves[(h - 1) * w + x] = compute_moves(grid, (int32_t)x, (int32_t)(h - 1));
    }
    for (uint32_t y = 0; y < h; y++) {
        grid->moves[y * w] = compute_moves(grid, 0, (int32_t)y);
        grid->moves[y * w + w - 1] = compute_moves(grid, (int32_t)(w - 1), (int32_t)y);
    }
}

static void drop_reachability(nav_grid *grid)
{
    nav__free(&grid->allocator, grid->component);
    grid->component = NULL;
}

void nav__grid_rebuild(nav_grid *grid)
{
    memset(grid->terrain_use, 0, sizeof grid->terrain_use);
    for (uint32_t cell = 0; cell < grid->cells; cell++) grid->terrain_use[grid->terrain[cell]]++;
    update_costs(grid);
    refresh_all_moves(grid);
    drop_reachability(grid);
}

nav_status nav__grid_ensure_heights(nav_grid *grid)
{
    if (grid->heights) return NAV_SUCCESS;
    grid->heights = nav__calloc(&grid->allocator, grid->cells, sizeof *grid->heights);
    return grid->heights ? NAV_SUCCESS : NAV_FAILURE | NAV_OUT_OF_MEMORY;
}

nav_status nav_grid_create(const nav_grid_desc *desc, nav_grid **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    nav_grid_desc d = nav_grid_desc_defaults(desc);
    nav_status s = check_desc(&d);
    if (nav_failed(s)) return s;

    nav_allocator allocator;
    nav__allocator_resolve(&allocator, d.allocator);
    nav_grid *grid = nav__calloc(&allocator, 1, sizeof *grid);
    if (!grid) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    grid->allocator = allocator;
    if (d.log) grid->log = *d.log;
    grid->desc = d;
    grid->desc.allocator = &grid->allocator;
    grid->desc.log = &grid->log;
    grid->width = (uint32_t)d.width;
    grid->height = (uint32_t)d.height;
    grid->cells = grid->width * grid->height;
    grid->terrain = nav__alloc(&allocator, grid->cells);
    /* a row of cells without moves above and below the map: a search may read the moves of a
     * cell beside any cell without a bounds test (search.c, pruned_from) */
    uint8_t *moves = nav__calloc(&allocator, (size_t)grid->cells + 2 * (size_t)grid->width, 1);
    grid->moves = moves ? moves + grid->width : NULL;
    grid->open_row_words = (grid->width + 2 + 63) / 64;
    grid->open_bits =
        nav__calloc(&allocator, (size_t)(grid->height + 2) * grid->open_row_words, sizeof *grid->open_bits);
    if (!grid->terrain || !grid->moves || !grid->open_bits) {
        nav_grid_destroy(grid);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    memset(grid->terrain, NAV_TERRAIN_PLAIN, grid->cells);
    grid->terrain_cost[NAV_TERRAIN_BLOCKED] = INFINITY;
    for (int t = 1; t < NAV_TERRAIN_TYPES; t++) grid->terrain_cost[t] = 1.0;
    grid->terrain_use[NAV_TERRAIN_PLAIN] = grid->cells;
    update_costs(grid);
    for (int dir = 0; dir < 8; dir++) {
        grid->offset[dir] = nav__dir_dy[dir] * d.width + nav__dir_dx[dir];
        grid->step_length[dir] = dir < 4 ? 1.0 : d.diagonal_cost;
    }
    fill_plain_moves(grid);
    *out = grid;
    return NAV_SUCCESS;
}

void nav_grid_destroy(nav_grid *grid)
{
    if (!grid) return;
    nav_allocator allocator = grid->allocator;
    nav__free(&allocator, grid->terrain);
    nav__free(&allocator, grid->heights);
    nav__free(&allocator, grid->moves ? grid->moves - grid->width : NULL);
    nav__free(&allocator, grid->open_bits);
    nav__free(&allocator, grid->component);
    nav__free(&allocator, grid);
}

const nav_grid_desc *nav_grid_get_desc(const nav_grid *grid)
{
    return &grid->desc;
}

int32_t nav_grid_width(const nav_grid *grid)
{
    return (int32_t)grid->width;
}

int32_t nav_grid_height(const nav_grid *grid)
{
    return (int32_t)grid->height;
}

size_t nav_grid_memory_bytes(const nav_grid *grid)
{
    /* terrain and moves a cell, the moves' two rows of zeros, and the free cells' bits */
    size_t bytes = sizeof *grid + 2 * (size_t)grid->cells + 2 * (size_t)grid->width +
                   (size_t)(grid->height + 2) * grid->open_row_words * sizeof *grid->open_bits;
    if (grid->heights) bytes += (size_t)grid->cells * sizeof *grid->heights;
    if (grid->component) bytes += (size_t)grid->cells * sizeof *grid->component;
    return bytes;
}

bool nav_grid_in_bounds(const nav_grid *grid, int32_t x, int32_t y)
{
    return x >= 0 && y >= 0 && (uint32_t)x < grid->width && (uint32_t)y < grid->height;
}

nav_status nav_grid_set_terrain_cost(nav_grid *grid, uint8_t type, double cost)
{
    if (!grid) return NAV_FAILURE | NAV_INVALID_PARAM;
    if (type == NAV_TERRAIN_BLOCKED || !nav_terrain_cost_valid(cost)) {
        nav__grid_log(grid, NAV_LOG_ERROR, "terrain type %u: cost %g is not blocked nor in %g..%g",
                      (unsigned)type, cost, NAV_COST_MIN, NAV_COST_MAX);
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    bool was_free = grid->terrain_cost[type] < INFINITY, now_free = cost < INFINITY;
    grid->terrain_cost[type] = cost;
    update_costs(grid);
    if (was_free != now_free && grid->terrain_use[type] > 0) {
        refresh_all_moves(grid);
        drop_reachability(grid);
    }
    return NAV_SUCCESS;
}

void nav_grid_filter_init(nav_grid_filter *filter, const nav_grid *grid)
{
    if (!filter) return;
    for (int t = 0; t < NAV_TERRAIN_TYPES; t++)
        filter->terrain_cost[t] = grid ? grid->terrain_cost[t] : t == NAV_TERRAIN_BLOCKED ? INFINITY : 1.0;
}

bool nav_grid_filter_valid(const nav_grid_filter *filter)
{
    if (!filter) return false;
    for (int t = 0; t < NAV_TERRAIN_TYPES; t++)
        if (!nav_terrain_cost_valid(filter->terrain_cost[t])) return false;
    return true;
}

void nav__grid_costs_make(const nav_grid *grid, const nav_grid_filter *filter, nav__grid_costs *out)
{
    out->grid = grid;
    out->filter = filter;
    out->blocks = false;
    out->same = true;
    double lo = INFINITY, hi = 0;
    for (int t = 0; t < NAV_TERRAIN_TYPES; t++) {
        bool open = grid->terrain_cost[t] < INFINITY;
        out->cost[t] = open ? filter->terrain_cost[t] : INFINITY;
        if (!open || !grid->terrain_use[t]) continue;
        out->same &= out->cost[t] == grid->terrain_cost[t];
        if (!(out->cost[t] < INFINITY)) {
            out->blocks = true;
            continue;
        }
        lo = fmin(lo, out->cost[t]), hi = fmax(hi, out->cost[t]);
    }
    if (!(lo < INFINITY)) lo = hi = 1;
    out->min_cost = lo, out->max_cost = hi;
}

uint32_t nav__grid_moves_under(const nav_grid *grid, const double *cost, uint32_t cell)
{
    uint32_t m = grid->moves[cell], kept = 0;
    if (!m || !(cost[grid->terrain[cell]] < INFINITY)) return 0;
    int32_t w = (int32_t)grid->width;
    for (; m; m &= m - 1) {
        int d = __builtin_ctz(m);
        uint32_t next = (uint32_t)((int32_t)cell + grid->offset[d]);
        if (!(cost[grid->terrain[next]] < INFINITY)) continue;
        if (d >= 4) { /* (the grid allowed it: both sides lie on the map) */
            uint32_t a = (uint32_t)((int32_t)cell + nav__dir_dx[d]),
                     b = (uint32_t)((int32_t)cell + nav__dir_dy[d] * w);
            bool side_a = cost[grid->terrain[a]] < INFINITY, side_b = cost[grid->terrain[b]] < INFINITY;
            if (grid->desc.corner_policy == NAV_CORNER_NEVER_CUT && (!side_a || !side_b)) continue;
            if (grid->desc.corner_policy == NAV_CORNER_CUT_IF_ONE_FREE && !side_a && !side_b) continue;
        }
        kept |= 1u << d;
    }
    return kept;
}

double nav_grid_terrain_cost(const nav_grid *grid, uint8_t type)
{
    return grid->terrain_cost[type];
}

double nav_grid_uniform_cost(const nav_grid *grid)
{
    return grid->uniform_cost;
}

double nav_grid_min_cost(const nav_grid *grid)
{
    return grid->min_cost;
}

nav_status nav_grid_set_cell(nav_grid *grid, int32_t x, int32_t y, uint8_t type)
{
    if (!nav_grid_in_bounds(grid, x, y)) return NAV_FAILURE | NAV_INVALID_PARAM;
    uint32_t cell = nav_grid_index(grid, x, y);
    uint8_t old = grid->terrain[cell];
    if (old == type) return NAV_SUCCESS;
    grid->terrain_use[old]--;
    grid->terrain_use[type]++;
    grid->terrain[cell] = type;
    if ((grid->terrain_use[old] == 0) || (grid->terrain_use[type] == 1)) update_costs(grid);
    if ((grid->terrain_cost[old] < INFINITY) != (grid->terrain_cost[type] < INFINITY)) {
        set_open_bit(grid, (uint32_t)x, (uint32_t)y);
        refresh_moves_around(grid, x, y);
        drop_reachability(grid);
    }
    return NAV_SUCCESS;
}

uint8_t nav_grid_cell(const nav_grid *grid, int32_t x, int32_t y)
{
    if (!nav_grid_in_bounds(grid, x, y)) return NAV_TERRAIN_BLOCKED;
    return grid->terrain[nav_grid_index(grid, x, y)];
}

double nav_grid_cell_cost(const nav_grid *grid, int32_t x, int32_t y)
{
    return grid->terrain_cost[nav_grid_cell(grid, x, y)];
}

bool nav_grid_passable(const nav_grid *grid, int32_t x, int32_t y)
{
    return nav_grid_cell_cost(grid, x, y) < INFINITY;
}

nav_status nav_grid_set_cell_height(nav_grid *grid, int32_t x, int32_t y, float height)
{
    if (!nav_grid_in_bounds(grid, x, y) || !isfinite(height)) return NAV_FAILURE | NAV_INVALID_PARAM;
    uint32_t cell = nav_grid_index(grid, x, y);
    if (!grid->heights && height == 0) return NAV_SUCCESS;
    nav_status s = nav__grid_ensure_heights(grid);
    if (nav_failed(s)) return s;
    if (grid->heights[cell] == height) return NAV_SUCCESS;
    grid->heights[cell] = height;
    if (grid->desc.max_climb < INFINITY) {
        set_open_bit(grid, (uint32_t)x, (uint32_t)y);
        refresh_moves_around(grid, x, y);
        drop_reachability(grid);
    }
    return NAV_SUCCESS;
}

float nav_grid_cell_height(const nav_grid *grid, int32_t x, int32_t y)
{
    if (!nav_grid_in_bounds(grid, x, y)) return 0;
    return nav__cell_height(grid, nav_grid_index(grid, x, y));
}

uint8_t nav_grid_moves(const nav_grid *grid, int32_t x, int32_t y)
{
    if (!nav_grid_in_bounds(grid, x, y)) return 0;
    return grid->moves[nav_grid_index(grid, x, y)];
}

void nav_dir_offset(nav_dir d, int32_t *dx, int32_t *dy)
{
    *dx = nav__dir_dx[d & 7];
    *dy = nav__dir_dy[d & 7];
}

double nav_grid_move_cost(const nav_grid *grid, int32_t x, int32_t y, nav_dir d)
{
    if ((unsigned)d > 7 || !(nav_grid_moves(grid, x, y) & (1u << d))) return NAV_COST_BLOCKED;
    return grid->step_length[d] * nav_grid_cell_cost(grid, x + nav__dir_dx[d], y + nav__dir_dy[d]);
}

nav_vec3 nav_grid_cell_center(const nav_grid *grid, int32_t x, int32_t y)
{
    float s = grid->desc.cell_size;
    nav_vec3 o = grid->desc.origin;
    return nav_vec3_make(o.x + ((float)x + 0.5f) * s, o.y + nav_grid_cell_height(grid, x, y),
                         o.z + ((float)y + 0.5f) * s);
}

bool nav_grid_world_to_cell(const nav_grid *grid, nav_vec3 pos, int32_t *x, int32_t *y)
{
    float s = grid->desc.cell_size;
    double fx = floor((double)(pos.x - grid->desc.origin.x) / s);
    double fy = floor((double)(pos.z - grid->desc.origin.z) / s);
    if (!(fx >= 0 && fy >= 0 && fx < grid->width && fy < grid->height)) return false;
    *x = (int32_t)fx;
    *y = (int32_t)fy;
    return true;
}

/* ---- Fingerprint ---------------------------------------------------------------------------- */

/* Heights fed as little-endian f32 bits, a block at a time; -0 and +0 step alike, so -0 counts as 0. */
static void hash_heights(nav__hash64 *h, const float *heights, uint32_t cells)
{
    uint8_t block[4096];
    size_t used = 0;
    for (uint32_t cell = 0; cell < cells; cell++) {
        float height = heights[cell] == 0 ? 0.0f : heights[cell];
        uint32_t bits;
        memcpy(&bits, &height, sizeof bits);
        for (int i = 0; i < 4; i++) block[used++] = (uint8_t)(bits >> (8 * i));
        if (used == sizeof block) {
            nav__hash64_update(h, block, used);
            used = 0;
        }
    }
    nav__hash64_update(h, block, used);
}

uint64_t nav_grid_fingerprint(const nav_grid *grid)
{
    if (!grid) return 0;
    nav__hash64 h;
    nav__hash64_init(&h, 0);
    static const char encoding[] = "libnav grid fingerprint 1"; /* names this encoding, should it change */
    nav__hash64_update(&h, encoding, sizeof encoding - 1);
    nav__hash64_u32(&h, grid->width);
    nav__hash64_u32(&h, grid->height);
    nav__hash64_u32(&h, (uint32_t)grid->desc.connectivity);
    nav__hash64_u32(&h, (uint32_t)grid->desc.corner_policy);
    nav__hash64_f64(&h, grid->desc.diagonal_cost);
    nav__hash64_f64(&h, (double)grid->desc.max_climb);
    for (int t = 0; t < NAV_TERRAIN_TYPES; t++) nav__hash64_f64(&h, grid->terrain_cost[t]);
    nav__hash64_update(&h, grid->terrain, grid->cells);
    bool has_heights = false;
    for (uint32_t cell = 0; grid->heights && cell < grid->cells && !has_heights; cell++)
        has_heights = grid->heights[cell] != 0;
    nav__hash64_u32(&h, has_heights);
    if (has_heights) hash_heights(&h, grid->heights, grid->cells);
    return nav__hash64_digest(&h);
}
