/* navtool info: what a .nav file holds: its chunks, its grid, and the figures of its HPA* bake. */
#include <stdio.h>
#include <string.h>

#include "navtool.h"

int navtool_info(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-') {
        navtool_usage(stderr);
        return 2;
    }
    const char *path = argv[1];
    nav_grid *grid = NULL;
    nav_hpa *hpa = NULL;
    nav_status s = nav_hpa_load_nav(path, &(nav_hpa_desc){.log = &navtool_stderr_log}, &grid, &hpa);
    if (nav_failed(s)) {
        /* a file with a grid only */
        s = nav_grid_load_nav(path, &(nav_grid_desc){.log = &navtool_stderr_log}, &grid);
        if (nav_failed(s)) {
            fprintf(stderr, "navtool info: cannot load %s: %s\n", path, nav_status_str(s));
            return 1;
        }
    }
    const nav_grid_desc *d = nav_grid_get_desc(grid);
    printf("%s\n", path);
    printf("grid: %d x %d cells, %d-connected, corner policy %d, diagonal %.6g, max climb %.6g, %zu bytes\n",
           nav_grid_width(grid), nav_grid_height(grid), (int)d->connectivity, (int)d->corner_policy,
           d->diagonal_cost, (double)d->max_climb, nav_grid_memory_bytes(grid));
    if (hpa) {
        nav_hpa_info info;
        nav_hpa_get_info(hpa, &info);
        nav_hpa_desc hd = nav_hpa_get_desc(hpa);
        printf("hpa: %d levels, cluster %d, ratio %d, long entrances from %d cells, %zu bytes\n", info.levels,
               hd.cluster_size, hd.level_ratio, hd.long_entrance, info.bytes);
        printf("hpa: %u entrances, %u transitions, %llu stored moves, distance fields %zu bytes\n",
               info.entrances, info.transitions, (unsigned long long)info.path_moves, info.field_bytes);
        for (int l = 1; l <= info.levels; l++)
            printf("hpa level %d: clusters of %d cells (%u), %u nodes, %u edges\n", l, info.cluster_side[l],
                   info.clusters[l], info.nodes[l], info.edges[l]);
    } else {
        printf("hpa: none\n");
    }
    nav_hpa_destroy(hpa);
    nav_grid_destroy(grid);
    return 0;
}
