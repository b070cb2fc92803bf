/* Stage 5 of the build from geometry (voxel.h): islands dropped, and the walkable tops partitioned
 * into monotone regions. */
#include <stdatomic.h>
#include <string.h>

#include "ds.h"
#include "mesh_internal.h"
#include "voxel.h"

typedef struct islands {
    nav__open_space *os;
    uint32_t *parent;             /* union-find over the walkable tops */
    uint32_t *root;               /* each walkable top's piece, once joined */
    int32_t ends[NAV__ROW_BANDS]; /* the bands' last rows + 1, in any order */
    atomic_uint bands;
} islands;

/* Joins the walkable tops of rows z0 .. z1 - 1 over their links within those rows (+x and +z: each
 * link once); a top's root stays in the band (the least index of its piece there). */
static bool join_band(void *ctx, int32_t z0, int32_t z1)
{
    islands *w = ctx;
    const nav__open_space *os = w->os;
    uint32_t first, end;
    nav__open_space_rows(os, z0, z1, &first, &end);
    for (uint32_t i = first; i < end; i++) {
        if (os->area[i] == 0) continue;
        for (int d = 0; d < 2; d++) {
            uint32_t n = os->side[i][d]; /* after i: in the band when before its end */
            if (n < end && os->area[n] != 0) nav__join(w->parent, i, n);
        }
    }
    w->ends[atomic_fetch_add(&w->bands, 1)] = z1;
    return true;
}

/* Each walkable top's root in rows z0 .. z1 - 1 (the roots only read). */
static bool find_roots(void *ctx, int32_t z0, int32_t z1)
{
    islands *w = ctx;
    const nav__open_space *os = w->os;
    uint32_t first, end;
    nav__open_space_rows(os, z0, z1, &first, &end);
    for (uint32_t i = first; i < end; i++) {
        uint32_t p = i;
        if (os->area[i] != 0)
            while (w->parent[p] != p) p = w->parent[p];
        w->root[i] = p;
    }
    return true;
}

bool nav__open_space_drop_islands(nav__open_space *os, uint32_t min_tops, nav__pool *pool)
{
    if (min_tops <= 1 || os->count == 0) return true;
    islands w = {.os = os};
    atomic_init(&w.bands, 0);
    uint32_t *size = NULL;
    if (!nav__arr_setlen(w.parent, os->count) || !nav__arr_setlen(w.root, os->count) ||
        !nav__arr_setlen(size, os->count)) {
        arrfree(w.parent);
        arrfree(w.root);
        arrfree(size);
        return false;
    }
    for (uint32_t i = 0; i < os->count; i++) w.parent[i] = i, size[i] = 0;
    (void)nav__in_bands(join_band, &w, os->depth, pool); /* these two allocate nothing: cannot fail */
    /* the links from each band's last row to the next band's first */
    for (uint32_t k = 0; k < atomic_load(&w.bands); k++) {
        int32_t z = w.ends[k] - 1;
        if (z + 1 >= os->depth) continue;
        for (uint32_t i = os->column_first[(size_t)z * (size_t)os->width];
             i < os->column_first[(size_t)(z + 1) * (size_t)os->width]; i++) {
            uint32_t n = os->side[i][1];
            if (os->area[i] != 0 && n != NAV__NO_SPAN && os->area[n] != 0) nav__join(w.parent, i, n);
        }
    }
    (void)nav__in_bands(find_roots, &w, os->depth, pool);
    /* a piece with a top in a tile's border counts as large: it may go on past the tile */
    for (int32_t z = 0; z < os->depth; z++)
        for (int32_t x = 0; x < os->width; x++) {
            size_t c = (size_t)z * (size_t)os->width + (size_t)x;
            uint32_t weight = nav__open_space_inner(os, x, z) ? 1 : min_tops;
            for (uint32_t i = os->column_first[c]; i < os->column_first[c + 1]; i++)
                if (os->area[i] != 0) size[w.root[i]] += weight;
        }
    for (uint32_t i = 0; i < os->count; i++)
        if (os->area[i] != 0 && size[w.root[i]] < min_tops) os->area[i] = 0;
    arrfree(w.parent);
    arrfree(w.root);
    arrfree(size);
    return true;
}

/* A run of one row: the region of the row before that it meets (0: none yet; NO_REGION: several),
 * how many of its tops meet it, and the region it becomes. */
typedef struct sweep {
    uint32_t above, shared, region;
} sweep;

#define SEVERAL UINT32_MAX

bool nav__open_space_partition(nav__open_space *os)
{
    uint32_t *run = NULL;     /* the run of each top of the current row */
    uint32_t *met = NULL;     /* per region: how many tops of the current row meet it */
    uint32_t *touched = NULL; /* the regions met in the current row, to clear met after it */
    sweep *runs = NULL;
    bool ok = nav__arr_setlen(os->region, os->count) && nav__arr_setlen(run, os->count) &&
              nav__arr_push(met, 0); /* region 0: none */
    if (ok && os->count) memset(os->region, 0, os->count * sizeof *os->region);
    uint32_t regions = 0;
    for (int32_t z = os->inner_z0; ok && z < os->inner_z1; z++) {
        nav__arr_truncate(runs, 0);
        nav__arr_truncate(touched, 0);
        size_t row = (size_t)z * (size_t)os->width;
        uint32_t row_first = os->column_first[row + (size_t)os->inner_x0],
                 row_end = os->column_first[row + (size_t)os->inner_x1];
        for (uint32_t i = row_first; ok && i < row_end; i++) {
            if (os->area[i] == 0) continue;
            uint32_t left = os->side[i][2], up = os->side[i][3];
            uint32_t r;
            if (left != NAV__NO_SPAN && left >= row_first &&
                os->area[left] == os->area[i]) { /* not the border */
                r = run[left];
            } else {
                r = (uint32_t)arrlenu(runs);
                if (!nav__arr_push(runs, ((sweep){0, 0, 0}))) {
                    ok = false;
                    break;
                }
            }
            run[i] = r;
            if (up == NAV__NO_SPAN || os->area[up] != os->area[i] || os->region[up] == 0) continue;
            uint32_t above = os->region[up];
            if (runs[r].above == 0 || runs[r].above == above) {
                runs[r].above = above;
                runs[r].shared++;
                if (met[above]++ == 0) ok = nav__arr_push(touched, above);
            } else {
                runs[r].above = SEVERAL;
            }
        }
        for (size_t k = 0; ok && k < arrlenu(runs); k++) {
            sweep *s = &runs[k];
            if (s->above != 0 && s->above != SEVERAL && met[s->above] == s->shared) {
                s->region = s->above;
                met[s->above] = 0; /* a second run cannot take it */
            } else {
                s->region = ++regions;
                ok = nav__arr_push(met, 0);
            }
        }
        if (!ok) break;
        for (size_t k = 0; k < arrlenu(touched); k++) met[touched[k]] = 0;
        for (uint32_t i = row_first; i < row_end; i++)
            if (os->area[i] != 0) os->region[i] = runs[run[i]].region;
    }
    os->region_count = ok ? regions : 0;
    arrfree(run);
    arrfree(met);
    arrfree(touched);
    arrfree(runs);
    return ok;
}
