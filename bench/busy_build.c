/* A whole level built on 1 and on 2 threads in turns, in one process: the median, fastest and 90th
 * percentile of each (issue 43, defect 11: a build on N threads must never be slower than on 1, a
 * busy machine included). One line a thread count.
 *
 * usage: busy_build LEVEL.obj [--runs N] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nav/geometry.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: busy_build LEVEL.obj [--runs N]\n");
        return 2;
    }
    int runs = 20;
    for (int i = 2; i + 1 < argc; i += 2)
        if (!strcmp(argv[i], "--runs")) runs = atoi(argv[i + 1]);
    if (runs < 1 || runs > 10000) runs = 20;
    nav_geometry *level;
    if (nav_failed(nav_geometry_load_obj_file(argv[1], NULL, NULL, &level))) {
        fprintf(stderr, "busy_build: %s does not load\n", argv[1]);
        return 1;
    }
    nav_triangles t = nav_geometry_triangles(level);
    double *ms[2] = {malloc((size_t)runs * sizeof(double)), malloc((size_t)runs * sizeof(double))};
    for (int r = 0; r < runs; r++)
        for (int k = 0; k < 2; k++) { /* in turns, so that a noisy spell falls on both */
            nav_mesh *mesh;
            double at = now_ms();
            nav_geometry_build_desc desc = {.threads = (uint32_t)k + 1};
            if (nav_failed(nav_mesh_build_from_geometry(&t, &desc, &mesh, NULL))) return 1;
            ms[k][r] = now_ms() - at;
            nav_mesh_destroy(mesh);
        }
    for (int k = 0; k < 2; k++) {
        qsort(ms[k], (size_t)runs, sizeof(double), by_value);
        printf("%s: %d thread%s: median %.2f ms, fastest %.2f, 90%% %.2f (%d builds)\n", argv[1], k + 1,
               k ? "s" : "", ms[k][runs / 2], ms[k][0], ms[k][runs * 9 / 10], runs);
        free(ms[k]);
    }
    nav_geometry_destroy(level);
    return 0;
}
