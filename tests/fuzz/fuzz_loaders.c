/* libFuzzer harness for the text and image loaders: Moving AI .map and .scen, the libnav ASCII
 * format and PNG masks. The first byte picks the loader; the rest is the file. Besides crashes,
 * sanitizer reports and leaks, it traps when a loaded grid breaks a promise: moves only between
 * free cells, reachability labels consistent with the moves. Build: see README.md here. */
#include "fuzz_common.h"
#include "nav/scen.h"

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
        CHECK(nav_succeeded(s) == (scen != NULL));
        nav_scen_destroy(scen);
        return 0;
    }
    }
    CHECK(nav_succeeded(s) == (grid != NULL));
    if (grid) check_grid_moves(grid);
    nav_grid_destroy(grid);
    return 0;
}
