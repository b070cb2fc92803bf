/* navtool bake: bake a map's HPA* abstract graph and write map and graph into one .nav file. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "navtool.h"

static bool print_progress(const char *stage, uint64_t done, uint64_t total, void *user)
{
    (void)user;
    fprintf(stderr, "\rbake: %-16s %3.0f%%", stage, total ? 100.0 * (double)done / (double)total : 100.0);
    if (done == total) fprintf(stderr, "\n");
    return true;
}

int navtool_bake(int argc, char **argv)
{
    const char *input = NULL, *output = NULL;
    nav_hpa_desc desc = {0};
    bool quiet = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            output = argv[++i];
        } else if (!strcmp(argv[i], "--quiet")) {
            quiet = true;
        } else if (navtool_parse_hpa_option(argc, argv, &i, &desc)) {
            continue;
        } else if (argv[i][0] != '-' && !input) {
            input = argv[i];
        } else {
            fprintf(stderr, "navtool bake: unexpected argument '%s'\n", argv[i]);
            navtool_usage(stderr);
            return 2;
        }
    }
    if (!input || !output) {
        navtool_usage(stderr);
        return 2;
    }
    nav_grid *grid = navtool_load_grid(input, NULL);
    if (!grid) return 1;
    desc.log = &navtool_stderr_log;
    if (!quiet) desc.progress = (nav_progress){print_progress, NULL};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    nav_hpa *hpa = NULL;
    nav_status s = nav_hpa_bake(grid, &desc, &hpa);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-6;
    if (nav_succeeded(s)) s = nav_hpa_save_nav(grid, hpa, output);
    if (nav_failed(s)) {
        fprintf(stderr, "navtool bake: %s\n", nav_status_str(s));
        nav_hpa_destroy(hpa);
        nav_grid_destroy(grid);
        return 1;
    }
    nav_hpa_info info;
    nav_hpa_get_info(hpa, &info);
    printf("baked %s in %.1f ms: %u nodes, %zu bytes -> %s\n", input, ms, info.nodes[1], info.bytes, output);
    nav_hpa_destroy(hpa);
    nav_grid_destroy(grid);
    return 0;
}
