/* A whole level built three times in one process on T threads: each build's milliseconds and minor
 * page faults on one line (issue 43, defect 10: a bake tool builds one level a process, and the
 * first build was slower than the next). bench/first_build.sh runs it in many processes.
 *
 * With PREFAULT_MB (glibc): the C library told to keep every block in its heap and never give memory
 * back (mallopt: no mapped blocks, no trimming), and PREFAULT_MB of heap touched and freed before the
 * first build, so that the builds find their memory already the process's: what is left of the first
 * build's extra time is then not page faults.
 *
 * usage: first_build LEVEL.obj THREADS [PREFAULT_MB] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <sys/resource.h>
#include <time.h>

#include "nav/geometry.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: first_build LEVEL.obj THREADS [PREFAULT_MB]\n");
        return 2;
    }
    size_t prefault = argc == 4 ? (size_t)atoi(argv[3]) << 20 : 0;
    if (prefault) {
#ifdef __GLIBC__
        mallopt(M_MMAP_MAX, 0);
        mallopt(M_TRIM_THRESHOLD, 1 << 30);
        mallopt(M_TOP_PAD, 0);
        char *volatile block = malloc(prefault); /* volatile: the compiler may not drop it */
        if (block) memset(block, 1, prefault);
        free(block);
#else
        fprintf(stderr, "first_build: PREFAULT_MB needs glibc\n");
        return 2;
#endif
    }
    nav_geometry *level;
    if (nav_failed(nav_geometry_load_obj_file(argv[1], NULL, NULL, &level))) {
        fprintf(stderr, "first_build: %s does not load\n", argv[1]);
        return 1;
    }
    nav_triangles triangles = nav_geometry_triangles(level);
    nav_geometry_build_desc desc = {.threads = (uint32_t)atoi(argv[2])};
    for (int run = 0; run < 3; run++) {
        struct rusage before, after;
        getrusage(RUSAGE_SELF, &before);
        double t0 = now_ms();
        nav_mesh *mesh;
        if (nav_failed(nav_mesh_build_from_geometry(&triangles, &desc, &mesh, NULL))) {
            fprintf(stderr, "first_build: %s does not build\n", argv[1]);
            return 1;
        }
        double ms = now_ms() - t0;
        getrusage(RUSAGE_SELF, &after);
        printf("%s%.3f %ld", run ? " " : "", ms, after.ru_minflt - before.ru_minflt);
        nav_mesh_destroy(mesh);
    }
    printf("\n");
    nav_geometry_destroy(level);
    return 0;
}
