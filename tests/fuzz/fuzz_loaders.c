/* libFuzzer harness for the text and image loaders: Moving AI .map and .scen, the libnav ASCII
 * format and PNG masks. The first byte picks the loader; the rest is the file. Besides crashes,
 * sanitizer reports and leaks, it traps when a loaded grid breaks a promise: moves only between
 * free cells, reachability labels consistent with the moves. Build: see README.md here. */
#include <stdint.h>
#include <stdlib.h>

#include "nav/grid.h"
#include "nav/scen.h"

static void check_grid(const nav_grid *grid)
{
    int32_t w = nav_grid_width(grid), h = nav_grid_height(grid);
    for (int32_t y = 0; y < h; y++) {
        for (int32_t x = 0; x < w; x++) {
            uint8_t moves = nav_grid_moves(grid, x, y);
            if (moves && !nav_grid_passable(grid, x, y)) __builtin_trap();
            for (int d = 0; d < 8; d++) {
                if (!(moves >> d & 1)) continue;
                int32_t dx, dy;
                nav_dir_offset((nav_dir)d, &dx, &dy);
                if (!nav_grid_passable(grid, x + dx, y + dy)) __builtin_trap();
                if (nav_grid_component(grid, x, y) != nav_grid_component(grid, x + dx, y + dy))
                    __builtin_trap();
            }
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const char *text = (const char *)data + 1;
    size_t n = size - 1;
    nav_grid *grid = NULL;
    nav_status s = NAV_FAILURE;
    switch (data[0] % 4) {
    case 0:
        s = nav_grid_load_map(text, n, "fuzz.map", NULL, &grid);
        break;
    case 1:
        s = nav_grid_load_ascii(text, n, "fuzz.txt", NULL, &grid);
        break;
    case 2:
        s = nav_grid_load_png(data + 1, n, "fuzz.png", NULL, NULL, &grid);
        break;
    default: {
        nav_scen *scen = NULL;
        s = nav_scen_load(text, n, "fuzz.scen", NULL, NULL, &scen);
        if (nav_succeeded(s) != (scen != NULL)) __builtin_trap();
        nav_scen_destroy(scen);
        return 0;
    }
    }
    if (nav_succeeded(s) != (grid != NULL)) __builtin_trap();
    if (grid) check_grid(grid);
    nav_grid_destroy(grid);
    return 0;
}
