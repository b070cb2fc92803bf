/* Stage 5 of the build from geometry (voxel.h): islands dropped, and the walkable tops partitioned
 * into monotone regions. */
#include <string.h>

#include "ds.h"
#include "mesh_internal.h"
#include "voxel.h"

void nav__open_space_drop_islands(nav__open_space *os, uint32_t min_tops)
{
    if (min_tops <= 1 || os->count == 0) return;
    uint32_t *parent = NULL, *size = NULL;
    arrsetlen(parent, os->count);
    arrsetlen(size, os->count);
    for (uint32_t i = 0; i < os->count; i++) parent[i] = i, size[i] = 0;
    for (uint32_t i = 0; i < os->count; i++) {
        if (os->area[i] == 0) continue;
        for (int d = 0; d < 2; d++) { /* +x and +z: each link once */
            uint32_t n = os->side[i][d];
            if (n != NAV__NO_SPAN && os->area[n] != 0) nav__join(parent, i, n);
        }
    }
    /* a piece with a top in a tile's border counts as large: it may go on past the tile */
    for (int32_t z = 0; z < os->depth; z++)
        for (int32_t x = 0; x < os->width; x++) {
            size_t c = (size_t)z * (size_t)os->width + (size_t)x;
            uint32_t weight = nav__open_space_inner(os, x, z) ? 1 : min_tops;
            for (uint32_t i = os->column_first[c]; i < os->column_first[c + 1]; i++)
                if (os->area[i] != 0) size[nav__find_root(parent, i)] += weight;
        }
    for (uint32_t i = 0; i < os->count; i++)
        if (os->area[i] != 0 && size[nav__find_root(parent, i)] < min_tops) os->area[i] = 0;
    arrfree(parent);
    arrfree(size);
}

/* A run of one row: the region of the row before that it meets (0: none yet; NO_REGION: several),
 * how many of its tops meet it, and the region it becomes. */
typedef struct sweep {
    uint32_t above, shared, region;
} sweep;

#define SEVERAL UINT32_MAX

void nav__open_space_partition(nav__open_space *os)
{
    arrsetlen(os->region, os->count);
    if (os->count) memset(os->region, 0, os->count * sizeof *os->region);
    uint32_t *run = NULL;     /* the run of each top of the current row */
    uint32_t *met = NULL;     /* per region: how many tops of the current row meet it */
    uint32_t *touched = NULL; /* the regions met in the current row, to clear met after it */
    sweep *runs = NULL;
    arrsetlen(run, os->count);
    arrput(met, 0); /* region 0: none */
    uint32_t regions = 0;
    for (int32_t z = os->inner_z0; z < os->inner_z1; z++) {
        arrsetlen(runs, 0);
        arrsetlen(touched, 0);
        size_t row = (size_t)z * (size_t)os->width;
        uint32_t row_first = os->column_first[row + (size_t)os->inner_x0],
                 row_end = os->column_first[row + (size_t)os->inner_x1];
        for (uint32_t i = row_first; i < row_end; i++) {
            if (os->area[i] == 0) continue;
            uint32_t left = os->side[i][2], up = os->side[i][3];
            uint32_t r;
            if (left != NAV__NO_SPAN && left >= row_first &&
                os->area[left] == os->area[i]) { /* not the border */
                r = run[left];
            } else {
                r = (uint32_t)arrlenu(runs);
                arrput(runs, ((sweep){0, 0, 0}));
            }
            run[i] = r;
            if (up == NAV__NO_SPAN || os->area[up] != os->area[i] || os->region[up] == 0) continue;
            uint32_t above = os->region[up];
            if (runs[r].above == 0 || runs[r].above == above) {
                runs[r].above = above;
                runs[r].shared++;
                if (met[above]++ == 0) arrput(touched, above);
            } else {
                runs[r].above = SEVERAL;
            }
        }
        for (size_t k = 0; k < arrlenu(runs); k++) {
            sweep *s = &runs[k];
            if (s->above != 0 && s->above != SEVERAL && met[s->above] == s->shared) {
                s->region = s->above;
                met[s->above] = 0; /* a second run cannot take it */
            } else {
                s->region = ++regions;
                arrput(met, 0);
            }
        }
        for (size_t k = 0; k < arrlenu(touched); k++) met[touched[k]] = 0;
        for (uint32_t i = row_first; i < row_end; i++)
            if (os->area[i] != 0) os->region[i] = runs[run[i]].region;
    }
    os->region_count = regions;
    arrfree(run);
    arrfree(met);
    arrfree(touched);
    arrfree(runs);
}
