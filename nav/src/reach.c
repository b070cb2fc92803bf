/* Reachability: connected-component labels over moves taken in either direction.
 *
 * Two cells in different components can never be joined by a path, so a search for an unreachable
 * goal ends in O(1) instead of flooding the map (the seed tutorial 001's advice). With one-way
 * climbs the labels are those of weak components: "different" is a proof of unreachability,
 * "same" is only a hint, and the search decides. Without them (every move can be taken back)
 * "same" is a proof too, and the searches skip what they keep only for goals they cannot reach. */
#include "grid_internal.h"

#include "alloc.h"

bool nav_grid_moves_reversible(const nav_grid *grid)
{
    /* direction by direction, a plain loop the compiler vectorises: any cell whose move d has no
     * move back from its end. The moves have a row of zeros before the first cell and after the
     * last; the few cells whose neighbour would lie beyond those rows have no move that way. */
    int64_t cells = grid->cells, w = grid->width;
    for (int d = 0; d < 8; d++) {
        int back = nav__dir_opposite(d);
        int64_t off = grid->offset[d], first = off < -w ? -w - off : 0,
                last = off > w ? cells + w - off : cells;
        const uint8_t *at = grid->moves, *next = grid->moves + off;
        uint8_t bad = 0;
        for (int64_t c = first; c < last; c++) bad |= (uint8_t)(at[c] >> d & ~(next[c] >> back) & 1u);
        if (bad) return false;
    }
    return true;
}

nav_status nav_grid_build_reachability(nav_grid *grid)
{
    uint32_t *component = nav__calloc(&grid->allocator, grid->cells, sizeof *component);
    uint32_t *stack = nav__alloc(&grid->allocator, nav__mul_size(grid->cells, sizeof *stack));
    if (!component || !stack) {
        nav__free(&grid->allocator, component);
        nav__free(&grid->allocator, stack);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    uint32_t w = grid->width, h = grid->height, label = 0;
    /* every move can be taken back: a cell's neighbours in its component are its moves' ends (no
     * bounds to check, no move of a neighbour to look at) */
    bool reversible = nav_grid_moves_reversible(grid);
    for (uint32_t seed = 0; seed < grid->cells; seed++) {
        if (component[seed] || !nav__cell_free(grid, seed)) continue;
        component[seed] = ++label;
        uint32_t top = 0;
        stack[top++] = seed;
        while (top && reversible) {
            uint32_t cell = stack[--top];
            for (uint32_t m = grid->moves[cell]; m; m &= m - 1) {
                uint32_t next = (uint32_t)((int32_t)cell + grid->offset[__builtin_ctz(m)]);
                if (component[next]) continue;
                component[next] = label;
                stack[top++] = next;
            }
        }
        while (top) {
            uint32_t cell = stack[--top];
            int32_t x = (int32_t)(cell % w), y = (int32_t)(cell / w);
            for (int d = 0; d < 8; d++) {
                int32_t nx = x + nav__dir_dx[d], ny = y + nav__dir_dy[d];
                if (nx < 0 || ny < 0 || (uint32_t)nx >= w || (uint32_t)ny >= h) continue;
                uint32_t next = (uint32_t)ny * w + (uint32_t)nx;
                if (component[next]) continue;
                bool joined =
                    (grid->moves[cell] >> d & 1u) || (grid->moves[next] >> nav__dir_opposite(d) & 1u);
                if (!joined) continue;
                component[next] = label;
                stack[top++] = next;
            }
        }
    }
    nav__free(&grid->allocator, stack);
    nav__free(&grid->allocator, grid->component);
    grid->component = component;
    grid->component_exact = reversible;
    return NAV_SUCCESS;
}

bool nav_grid_has_reachability(const nav_grid *grid)
{
    return grid->component != NULL;
}

bool nav_grid_reachability_exact(const nav_grid *grid)
{
    return grid->component != NULL && grid->component_exact;
}

uint32_t nav_grid_component(const nav_grid *grid, int32_t x, int32_t y)
{
    if (!grid->component || !nav_grid_in_bounds(grid, x, y)) return 0;
    return grid->component[nav_grid_index(grid, x, y)];
}

bool nav_grid_may_reach(const nav_grid *grid, int32_t ax, int32_t ay, int32_t bx, int32_t by)
{
    if (!nav_grid_passable(grid, ax, ay) || !nav_grid_passable(grid, bx, by)) return false;
    if (!grid->component) return true;
    return grid->component[nav_grid_index(grid, ax, ay)] == grid->component[nav_grid_index(grid, bx, by)];
}
