/* An engine's use of libnav's run time alone: a .nav file baked offline (by navtool) is loaded and
 * queried. It links Nav::nav (pkg-config nav) and nothing of the bake: no libspng, no cJSON.
 * usage: runtime_only FILE.nav SX SY GX GY */
#include <stdio.h>
#include <stdlib.h>

#include <nav/hpa.h>

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: runtime_only FILE.nav SX SY GX GY\n");
        return 2;
    }
    nav_grid *grid;
    nav_hpa *hpa;
    nav_status s = nav_hpa_load_nav(argv[1], NULL, &grid, &hpa);
    if (nav_failed(s)) {
        fprintf(stderr, "%s: %s\n", argv[1], nav_status_str(s));
        return 1;
    }
    nav_hpa_query *query;
    if (nav_failed(nav_hpa_query_create(hpa, grid, NULL, &query))) return 1;
    nav_path path;
    nav_path_init(&path, NULL);
    nav_hpa_result result;
    s = nav_hpa_find_path(query, atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), &path, &result);
    if (nav_failed(s) || nav_has_detail(s, NAV_PARTIAL_RESULT)) {
        printf("no path: %s\n", nav_status_str(s));
        return 1;
    }
    printf("cost %.3f, %u cells\n", result.cost, path.count);
    nav_path_destroy(&path);
    nav_hpa_query_destroy(query);
    nav_hpa_destroy(hpa);
    nav_grid_destroy(grid);
    return 0;
}
