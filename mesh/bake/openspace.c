/* Stages 2 to 4 of the build from geometry (voxel.h): the tops an agent may stand on, the open space
 * they make with their neighbours, and its erosion by the agent's radius. */
#include <string.h>

#include "ds.h"
#include "parallel.h"
#include "voxel.h"

#define FAR_STEPS (1 << 24) /* above any ceiling, below any floor: steps never reach it */

/* The ceiling over span s: the next span's bottom, or far above. */
static int32_t ceiling_of(const nav__heightfield *hf, const nav__span *s)
{
    return s->next == NAV__NO_SPAN ? FAR_STEPS : hf->spans[s->next].bottom;
}

/* Whether a top (its floor and the ceiling over it) in column (x, z) is a ledge or on a steep slope. */
static bool is_ledge(const nav__heightfield *hf, int32_t x, int32_t z, int32_t floor, int32_t ceiling,
                     int32_t height, int32_t climb)
{
    if (x == 0 || z == 0 || x == hf->width - 1 || z == hf->depth - 1) return true; /* the box's side */
    int32_t low = floor, high = floor; /* the floors within climb beside it, and its own */
    size_t c = (size_t)z * (size_t)hf->width + (size_t)x;
    const size_t beside[NAV__OPEN_SIDES] = {c + 1, c + (size_t)hf->width, c - 1, c - (size_t)hf->width};
    for (int d = 0; d < NAV__OPEN_SIDES; d++) {
        uint32_t n = hf->column[beside[d]];
        /* the void under the column's lowest span, a floor far below */
        int32_t void_top = n == NAV__NO_SPAN ? FAR_STEPS : hf->spans[n].bottom;
        if ((ceiling < void_top ? ceiling : void_top) - floor >= height) return true;
        for (; n != NAV__NO_SPAN; n = hf->spans[n].next) {
            const nav__span *ns = &hf->spans[n];
            int32_t nfloor = ns->top, nceiling = ceiling_of(hf, ns);
            int32_t room = (ceiling < nceiling ? ceiling : nceiling) - (floor > nfloor ? floor : nfloor);
            if (room < height) continue; /* no way across between them */
            if (nfloor < floor - climb) return true;
            if (nfloor <= floor + climb) {
                if (nfloor < low) low = nfloor;
                if (nfloor > high) high = nfloor;
            }
        }
    }
    return high - low > climb;
}

typedef struct filter_work {
    nav__heightfield *hf;
    uint32_t height, climb;
} filter_work;

/* The three passes (voxel.h) over the columns of rows z0 .. z1 - 1, one column at a time: its low
 * obstacles stepped over first, then its tops with too little room or on a ledge dropped (a pass
 * that reads only the column's own areas, and its neighbours' heights, which no pass changes). */
static bool filter_band(void *ctx, int32_t z0, int32_t z1)
{
    const filter_work *f = ctx;
    nav__heightfield *hf = f->hf;
    const int32_t height = (int32_t)f->height, climb = (int32_t)f->climb;
    for (int32_t z = z0; z < z1; z++)
        for (int32_t x = 0; x < hf->width; x++) {
            uint32_t first = hf->column[(size_t)z * (size_t)hf->width + (size_t)x];
            bool below_walkable = false;
            uint8_t below_area = 0;
            int32_t below_top = 0;
            for (uint32_t s = first; s != NAV__NO_SPAN; s = hf->spans[s].next) {
                nav__span *span = &hf->spans[s];
                bool walkable = span->area != 0; /* as rasterised: an obstacle made walkable here does
                                                  * not carry the next one */
                if (!walkable && below_walkable && span->top - below_top <= climb) span->area = below_area;
                below_walkable = walkable, below_area = span->area, below_top = span->top;
            }
            for (uint32_t s = first; s != NAV__NO_SPAN; s = hf->spans[s].next) {
                nav__span *span = &hf->spans[s];
                if (span->area == 0) continue;
                int32_t floor = span->top, ceiling = ceiling_of(hf, span);
                if (ceiling - floor < height || is_ledge(hf, x, z, floor, ceiling, height, climb))
                    span->area = 0;
            }
        }
    return true;
}

/* ---- Rows in bands on threads ------------------------------------------------------------------ */

typedef struct bands {
    bool (*rows)(void *ctx, int32_t z0, int32_t z1);
    void *ctx;
    int32_t depth;
} bands;

static bool run_band(void *ctx, void *scratch, uint32_t item)
{
    (void)scratch;
    const bands *b = ctx;
    return b->rows(b->ctx, nav__band_row(b->depth, item), nav__band_row(b->depth, item + 1));
}

bool nav__in_bands(bool (*rows)(void *ctx, int32_t z0, int32_t z1), void *ctx, int32_t depth, nav__pool *pool)
{
    if (!pool || depth < NAV__ROW_BANDS * NAV__BAND_LEAST_ROWS) return rows(ctx, 0, depth);
    bands b = {rows, ctx, depth};
    nav__work work = {.count = NAV__ROW_BANDS, .run = run_band, .ctx = &b};
    /* fails only when a band runs out of memory: no progress to cancel */
    return nav_succeeded(nav__pool_run(pool, &work));
}

void nav__filter_walkable(nav__heightfield *hf, uint32_t height, uint32_t climb, nav__pool *pool)
{
    filter_work f = {hf, height, climb};
    (void)nav__in_bands(filter_band, &f, hf->depth, pool); /* cannot fail: it allocates nothing */
}

void nav__open_space_free(nav__open_space *os)
{
    arrfree(os->column_first);
    arrfree(os->floor);
    arrfree(os->room);
    arrfree(os->area);
    arrfree(os->side);
    arrfree(os->region);
    *os = (nav__open_space){0};
}

typedef struct side_rows {
    nav__open_space *os;
    uint32_t height, climb;
} side_rows;

/* Each top's neighbour across each side, for some rows (written only for their own tops). */
static bool link_sides(void *ctx, int32_t z0, int32_t z1)
{
    const side_rows *f = ctx;
    nav__open_space *os = f->os;
    const int32_t height = (int32_t)f->height, climb = (int32_t)f->climb;
    const ptrdiff_t step[NAV__OPEN_SIDES] = {1, os->width, -1, -(ptrdiff_t)os->width};
    for (int32_t z = z0; z < z1; z++)
        for (int32_t x = 0; x < os->width; x++) {
            size_t c = (size_t)z * (size_t)os->width + (size_t)x;
            const bool inside[NAV__OPEN_SIDES] = {x + 1 < os->width, z + 1 < os->depth, x > 0, z > 0};
            for (uint32_t i = os->column_first[c]; i < os->column_first[c + 1]; i++) {
                int32_t floor = os->floor[i], ceiling = floor + os->room[i];
                for (int d = 0; d < NAV__OPEN_SIDES; d++) {
                    uint32_t link = NAV__NO_SPAN;
                    if (inside[d]) {
                        size_t nc = (size_t)((ptrdiff_t)c + step[d]);
                        for (uint32_t j = os->column_first[nc], end = os->column_first[nc + 1]; j < end;
                             j++) {
                            int32_t nfloor = os->floor[j], nceiling = nfloor + os->room[j];
                            int32_t room =
                                (ceiling < nceiling ? ceiling : nceiling) - (floor > nfloor ? floor : nfloor);
                            int32_t rise = nfloor - floor;
                            if (room >= height && rise <= climb && -rise <= climb) {
                                link = j;
                                break;
                            }
                        }
                    }
                    os->side[i][d] = link;
                }
            }
        }
    return true;
}

bool nav__open_space_build(nav__open_space *os, nav__heightfield *hf, uint32_t height, uint32_t climb,
                           nav__pool *pool)
{
    *os = (nav__open_space){.width = hf->width,
                            .depth = hf->depth,
                            .cell = hf->cell,
                            .cell_height = hf->cell_height,
                            .origin = hf->origin,
                            .inner_x1 = hf->width,
                            .inner_z1 = hf->depth};
    size_t columns = (size_t)hf->width * (size_t)hf->depth;
    /* room for every span, cut to the tops after; the column starts in the column heads' place (the
     * heightfield made room for one more), each head read before its start is written */
    if (!nav__arr_setlen(os->floor, hf->span_count) || !nav__arr_setlen(os->room, hf->span_count) ||
        !nav__arr_setlen(os->area, hf->span_count) || !nav__arr_setlen(hf->column, columns + 1)) {
        nav__open_space_free(os);
        nav__heightfield_free(hf);
        return false;
    }
    os->column_first = hf->column, hf->column = NULL;
    uint32_t count = 0;
    for (size_t c = 0; c < columns; c++) {
        uint32_t head = os->column_first[c];
        os->column_first[c] = count;
        for (uint32_t s = head; s != NAV__NO_SPAN; s = hf->spans[s].next)
            if (hf->spans[s].area != 0) {
                const nav__span *span = &hf->spans[s];
                int32_t room = ceiling_of(hf, span) - span->top;
                os->floor[count] = span->top;
                os->room[count] = (uint16_t)(room > 0xffff ? 0xffff : room);
                os->area[count] = span->area;
                count++;
            }
    }
    os->column_first[columns] = count;
    os->count = count;
    nav__arr_truncate(os->floor, count);
    nav__arr_truncate(os->room, count);
    nav__arr_truncate(os->area, count);
    nav__heightfield_free(hf); /* the links need only the tops */
    if (!nav__arr_setlen(os->side, count)) {
        nav__open_space_free(os);
        return false;
    }
    side_rows sides = {os, height, climb};
    (void)nav__in_bands(link_sides, &sides, os->depth, pool); /* cannot fail: it allocates nothing */
    /* both ways or not at all (two tops of a column may both be within reach of one across) */
    for (uint32_t i = 0; i < count; i++)
        for (int d = 0; d < NAV__OPEN_SIDES; d++) {
            uint32_t n = os->side[i][d];
            if (n != NAV__NO_SPAN && os->side[n][(d + 2) % NAV__OPEN_SIDES] != i)
                os->side[i][d] = NAV__NO_SPAN;
        }
    return true;
}

/* ---- Erosion --------------------------------------------------------------------------------- */

static uint32_t at_most(uint32_t a, uint32_t b)
{
    return a < b ? a : b;
}

/* Relaxes dist[i] through the neighbour across side d (2 more) and that one's neighbour across
 * side (d + turn) % 4 (3 more: the diagonal); dist holds the tops base .. end - 1, the others are
 * passed over. */
static uint32_t relax(const nav__open_space *os, const uint16_t *dist, uint32_t base, uint32_t end,
                      uint32_t i, int d, int turn, uint32_t best)
{
    uint32_t n = os->side[i][d];
    if (n - base >= end - base) return best; /* none (NAV__NO_SPAN), or outside the window */
    best = at_most(best, dist[n - base] + 2u);
    uint32_t m = os->side[n][(d + turn) % NAV__OPEN_SIDES];
    if (m - base < end - base) best = at_most(best, dist[m - base] + 3u);
    return best;
}

typedef struct erode_rows {
    const nav__open_space *os;
    uint16_t *dist; /* each top's distance, written by the band that holds its row */
    int32_t halo;   /* rows either side of a band that reach its tops' distances below 2 * radius */
} erode_rows;

/* The distances of the tops of rows [z0, z1), from the two passes over those rows and halo rows either
 * side: a distance below 2 * radius comes from a chain of fewer than radius steps (2 or 3 each) from the
 * edge, which stays within radius - 1 rows, so it is the same as over all rows; farther ones may be
 * more, and are far anyway. Reads the areas only. */
static bool erode_band(void *ctx, int32_t z0, int32_t z1)
{
    const erode_rows *e = ctx;
    const nav__open_space *os = e->os;
    int32_t w0 = z0 - e->halo < 0 ? 0 : z0 - e->halo,
            w1 = z1 + e->halo > os->depth ? os->depth : z1 + e->halo;
    uint32_t base, end;
    nav__open_space_rows(os, w0, w1, &base, &end);
    if (base == end) return true;
    uint16_t *dist = NULL;
    if (!nav__arr_setlen(dist, end - base)) return false;
    const uint32_t far = 0xfff0u;           /* beyond any radius a build takes; +3 still fits */
    for (uint32_t i = base; i < end; i++) { /* the edge: a top with fewer than four walkable neighbours */
        int inside = 0;
        for (int d = 0; d < NAV__OPEN_SIDES; d++) {
            uint32_t n = os->side[i][d];
            inside += n != NAV__NO_SPAN && os->area[n] != 0;
        }
        dist[i - base] = (uint16_t)(os->area[i] != 0 && inside == NAV__OPEN_SIDES ? far : 0);
    }
    /* forward: from -x, -x then -z, -z, -z then +x */
    for (uint32_t i = base; i < end; i++) {
        uint32_t best = dist[i - base];
        best = relax(os, dist, base, end, i, 2, 1, best);
        best = relax(os, dist, base, end, i, 3, 1, best);
        dist[i - base] = (uint16_t)best;
    }
    /* backward: from +x, +x then +z, +z, +z then -x */
    for (uint32_t i = end; i-- > base;) {
        uint32_t best = dist[i - base];
        best = relax(os, dist, base, end, i, 0, 1, best);
        best = relax(os, dist, base, end, i, 1, 1, best);
        dist[i - base] = (uint16_t)best;
    }
    uint32_t first, last;
    nav__open_space_rows(os, z0, z1, &first, &last);
    memcpy(e->dist + first, dist + (first - base), (size_t)(last - first) * sizeof *dist);
    arrfree(dist);
    return true;
}

bool nav__open_space_erode(nav__open_space *os, uint32_t radius, nav__pool *pool)
{
    if (radius == 0 || os->count == 0) return true;
    erode_rows e = {os, NULL, (int32_t)(radius < (uint32_t)os->depth ? radius : (uint32_t)os->depth)};
    bool ok = nav__arr_setlen(e.dist, os->count) && nav__in_bands(erode_band, &e, os->depth, pool);
    uint32_t keep = 2 * radius;
    for (uint32_t i = 0; ok && i < os->count; i++)
        if (e.dist[i] < keep) os->area[i] = 0;
    arrfree(e.dist);
    return ok;
}

/* ---- Marked volumes -------------------------------------------------------------------------- */

/* Whether (x, z) lies in the convex polygon (either winding; on its edge counts). */
static bool in_convex(const float *p, uint32_t n, float x, float z)
{
    int sign = 0;
    for (uint32_t i = 0, j = n - 1; i < n; j = i++) {
        float cross =
            (p[2 * i] - p[2 * j]) * (z - p[2 * j + 1]) - (p[2 * i + 1] - p[2 * j + 1]) * (x - p[2 * j]);
        int s = (cross > 0) - (cross < 0);
        if (s == 0) continue;
        if (sign == 0) sign = s;
        if (s != sign) return false;
    }
    return true;
}

void nav__open_space_mark(nav__open_space *os, const float *points, uint32_t point_count, float min_y,
                          float max_y, uint8_t area)
{
    if (point_count < 3) return;
    float lo_x = points[0], hi_x = points[0], lo_z = points[1], hi_z = points[1];
    for (uint32_t i = 1; i < point_count; i++) {
        lo_x = points[2 * i] < lo_x ? points[2 * i] : lo_x;
        hi_x = points[2 * i] > hi_x ? points[2 * i] : hi_x;
        lo_z = points[2 * i + 1] < lo_z ? points[2 * i + 1] : lo_z;
        hi_z = points[2 * i + 1] > hi_z ? points[2 * i + 1] : hi_z;
    }
    /* the columns whose centre may lie in the polygon's box */
    float inverse = 1.0f / os->cell;
    int32_t x0 = (int32_t)floorf((lo_x - os->origin.x) * inverse - 0.5f),
            x1 = (int32_t)ceilf((hi_x - os->origin.x) * inverse - 0.5f);
    int32_t z0 = (int32_t)floorf((lo_z - os->origin.z) * inverse - 0.5f),
            z1 = (int32_t)ceilf((hi_z - os->origin.z) * inverse - 0.5f);
    if (x0 < 0) x0 = 0;
    if (z0 < 0) z0 = 0;
    if (x1 >= os->width) x1 = os->width - 1;
    if (z1 >= os->depth) z1 = os->depth - 1;
    for (int32_t z = z0; z <= z1; z++)
        for (int32_t x = x0; x <= x1; x++) {
            float cx = os->origin.x + ((float)x + 0.5f) * os->cell,
                  cz = os->origin.z + ((float)z + 0.5f) * os->cell;
            if (!in_convex(points, point_count, cx, cz)) continue;
            size_t c = (size_t)z * (size_t)os->width + (size_t)x;
            for (uint32_t i = os->column_first[c]; i < os->column_first[c + 1]; i++) {
                float y = os->origin.y + (float)os->floor[i] * os->cell_height;
                if (y >= min_y && y <= max_y && os->area[i] != 0) os->area[i] = area;
            }
        }
}
