/* Stage 6 of the build from geometry (voxel.h): each region's outline traced along the cell edges,
 * then simplified. */
#include <string.h>

#include "ds.h"
#include "voxel.h"

/* What the outlines may hold (bytes), and hold: the arrays they grow are checked before they grow, so
 * that the stage stays within its share of the build's memory (build_memory.c). */
typedef struct outline_room {
    uint64_t left; /* bytes that may still be taken */
} outline_room;

/* Whether an array of `capacity` elements of elem_size bytes, holding `length`, may grow to hold
 * `more` more as nav__arr_reserve grows it (to twice its capacity, or what it needs), its old block
 * held beside the new one while it moves; takes the growth from r when it may. */
static bool may_grow(outline_room *r, size_t length, size_t capacity, size_t more, size_t elem_size)
{
    if (more <= capacity - length) return true;
    uint64_t grown = 2 * (uint64_t)capacity;
    if (grown < (uint64_t)length + more) grown = (uint64_t)length + more;
    if (grown < 4) grown = 4;
    uint64_t moving = grown * elem_size, added = (grown - capacity) * elem_size;
    if (moving + 64 > r->left) return false;
    r->left -= added;
    return true;
}

/* The region across side d of top i (0: a wall, or a top in no region; NAV__BORDER_REGION: a
 * walkable top of the tile's border). */
static uint32_t across(const nav__open_space *os, const int32_t *top_x, const int32_t *top_z, uint32_t i,
                       int d)
{
    uint32_t n = os->side[i][d];
    if (n == NAV__NO_SPAN) return 0;
    if (os->region[n] == 0 && os->area[n] != 0 && !nav__open_space_inner(os, top_x[n], top_z[n]))
        return NAV__BORDER_REGION;
    return os->region[n];
}

/* The height of the corner where side d of top i starts (going round the cell clockwise): the
 * highest floor of the tops linked round it (the ones across sides d and d - 1, and the one
 * diagonally across). */
static int32_t corner_height(const nav__open_space *os, uint32_t i, int d)
{
    int prev = (d + 3) % NAV__OPEN_SIDES;
    int32_t h = os->floor[i];
    uint32_t a = os->side[i][d], b = os->side[i][prev], diagonal = NAV__NO_SPAN;
    if (a != NAV__NO_SPAN) {
        if (os->floor[a] > h) h = os->floor[a];
        diagonal = os->side[a][prev];
    }
    if (b != NAV__NO_SPAN) {
        if (os->floor[b] > h) h = os->floor[b];
        if (diagonal == NAV__NO_SPAN) diagonal = os->side[b][d];
    }
    if (diagonal != NAV__NO_SPAN && os->floor[diagonal] > h) h = os->floor[diagonal];
    return h;
}

/* The corner where side d of cell (x, z) starts, clockwise: side 0 (+x) from the top right, 1 (+z)
 * from the bottom right, 2 (-x) from the bottom left, 3 (-z) from the top left. */
static const int32_t corner_dx[NAV__OPEN_SIDES] = {1, 1, 0, 0};
static const int32_t corner_dz[NAV__OPEN_SIDES] = {0, 1, 1, 0};

/* Walks round region r from side d0 of top i0 (an edge of it), the region on the right: along an
 * edge, a point at its start and a turn clockwise; across a side into the region, a turn back.
 * Appends the points to *raw. NAV_FAILURE with NAV_CORRUPT_DATA when the walk does not come back
 * (asymmetric links), NAV_OUT_OF_MEMORY, or NAV_TOO_LARGE (*raw would grow past the room). */
static nav_status trace(const nav__open_space *os, const int32_t *top_x, const int32_t *top_z, uint32_t i0,
                        int d0, nav__contour_point **raw, outline_room *room)
{
    uint32_t r = os->region[i0], i = i0;
    int d = d0;
    uint64_t limit = 16 * (uint64_t)os->count + 16;
    for (uint64_t steps = 0; steps < limit; steps++) {
        uint32_t other = across(os, top_x, top_z, i, d);
        if (other != r) {
            if (!may_grow(room, arrlenu(*raw), arrcap(*raw), 1, sizeof **raw))
                return NAV_FAILURE | NAV_TOO_LARGE;
            if (!nav__arr_push(*raw, ((nav__contour_point){top_x[i] + corner_dx[d], corner_height(os, i, d),
                                                           top_z[i] + corner_dz[d], other})))
                return NAV_FAILURE | NAV_OUT_OF_MEMORY;
            d = (d + 1) % NAV__OPEN_SIDES;
        } else {
            i = os->side[i][d];
            d = (d + 3) % NAV__OPEN_SIDES;
        }
        if (i == i0 && d == d0) return NAV_SUCCESS;
    }
    return NAV_FAILURE | NAV_CORRUPT_DATA;
}

static bool before(const nav__contour_point *a, const nav__contour_point *b)
{
    return a->x < b->x || (a->x == b->x && a->z < b->z);
}

/* The squared distance from point p to the segment a-b (cells). */
static double segment_distance2(const nav__contour_point *p, const nav__contour_point *a,
                                const nav__contour_point *b)
{
    double dx = b->x - a->x, dz = b->z - a->z, px = p->x - a->x, pz = p->z - a->z;
    double length2 = dx * dx + dz * dz, t = length2 > 0 ? (px * dx + pz * dz) / length2 : 0;
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    double ex = px - t * dx, ez = pz - t * dz;
    return ex * ex + ez * ez;
}

/* The raw point between a and b (exclusive, going forward round the n points) farthest from the
 * segment a-b, beyond error2; -1 for none. The points are read from the lower end of the segment
 * (x, then z) to the higher, so that the two regions either side of an edge they share (each
 * going round it the other way) pick the same point. */
static int64_t farthest(const nav__contour_point *raw, uint32_t n, uint32_t a, uint32_t b, double error2)
{
    bool forward = before(&raw[a], &raw[b]);
    const nav__contour_point *lo = forward ? &raw[a] : &raw[b], *hi = forward ? &raw[b] : &raw[a];
    uint32_t between = (b + n - a) % n - 1;
    int64_t best = -1;
    double best_d = error2;
    for (uint32_t k = 1; k <= between; k++) {
        uint32_t j = forward ? (a + k) % n : (b + n - k) % n;
        double d = segment_distance2(&raw[j], lo, hi);
        if (d > best_d) best_d = d, best = j;
    }
    return best;
}

/* Simplifies one outline (n raw points) and appends it to out->points. NAV_SUCCESS, or NAV_FAILURE with
 * NAV_OUT_OF_MEMORY or NAV_TOO_LARGE (past the room). */
static nav_status simplify(nav__contours *out, const nav__contour_point *raw, uint32_t n, float max_error,
                           float max_edge, uint32_t **keep_scratch, outline_room *room)
{
    uint32_t *keep = *keep_scratch; /* raw indices kept, in order round */
    nav__arr_truncate(keep, 0);
    /* at most n + 2 kept by the first two passes, and n + 2 in all (every raw point at most once) */
    if (!may_grow(room, 0, arrcap(keep), (size_t)n + 2, sizeof *keep)) return NAV_FAILURE | NAV_TOO_LARGE;
    bool ok = nav__arr_reserve(keep, (size_t)n + 2); /* what the first two passes keep, at most */
    for (uint32_t i = 0; i < n && ok; i++) {
        const nav__contour_point *prev = &raw[(i + n - 1) % n], *next = &raw[(i + 1) % n];
        bool turn = raw[i].neighbour == NAV__BORDER_REGION && prev->neighbour == NAV__BORDER_REGION &&
                    (int64_t)(raw[i].x - prev->x) * (next->z - raw[i].z) !=
                        (int64_t)(raw[i].z - prev->z) * (next->x - raw[i].x); /* a tile's corner */
        if (raw[i].neighbour != prev->neighbour || turn) nav__arr_put_reserved(keep, i);
    }
    if (ok && arrlenu(keep) == 0) { /* one neighbour all round: start from the lowest and highest points */
        uint32_t lo = 0, hi = 0;
        for (uint32_t i = 1; i < n; i++) {
            if (before(&raw[i], &raw[lo])) lo = i;
            if (before(&raw[hi], &raw[i])) hi = i;
        }
        nav__arr_put_reserved(keep, lo < hi ? lo : hi);
        nav__arr_put_reserved(keep, lo < hi ? hi : lo);
    }
    double error2 = (double)max_error * max_error;
    for (size_t k = 0; ok && k < arrlenu(keep);) {
        uint32_t a = keep[k], b = keep[(k + 1) % arrlenu(keep)];
        /* along a tile's edge: straight, and the next tile's outline must find the same ends */
        int64_t j = raw[a].neighbour == NAV__BORDER_REGION ? -1 : farthest(raw, n, a, b, error2);
        if (j >= 0)
            ok = nav__arr_insert(keep, k + 1, (uint32_t)j);
        else
            k++;
    }
    /* a thin region whose outline came down to two points: the wall point farthest from them
     * (a wall is the region's own, so no neighbour need take it too) */
    if (ok && arrlenu(keep) == 2)
        for (size_t k = 0; k < 2; k++) {
            uint32_t a = keep[k], b = keep[(k + 1) % 2];
            int64_t j = raw[a].neighbour == 0 ? farthest(raw, n, a, b, 0) : -1;
            if (j >= 0) {
                ok = nav__arr_insert(keep, k + 1, (uint32_t)j);
                break;
            }
        }
    if (ok && max_edge > 0) {
        double edge2 = (double)max_edge * max_edge;
        for (size_t k = 0; ok && k < arrlenu(keep);) {
            uint32_t a = keep[k], b = keep[(k + 1) % arrlenu(keep)];
            double dx = raw[b].x - raw[a].x, dz = raw[b].z - raw[a].z;
            uint32_t between = (b + n - a) % n - 1;
            if (raw[a].neighbour == 0 && between > 0 && dx * dx + dz * dz > edge2)
                ok = nav__arr_insert(keep, k + 1, (a + (between + 1) / 2) % n);
            else
                k++;
        }
    }
    size_t kept = arrlenu(keep);
    if (ok && kept >= 3) {
        if (!may_grow(room, arrlenu(out->points), arrcap(out->points), kept, sizeof *out->points)) {
            *keep_scratch = keep;
            return NAV_FAILURE | NAV_TOO_LARGE;
        }
        ok = nav__arr_reserve(out->points, kept);
        for (size_t k = 0; ok && k < kept; k++) nav__arr_put_reserved(out->points, raw[keep[k]]);
    }
    *keep_scratch = keep;
    return ok ? NAV_SUCCESS : NAV_FAILURE | NAV_OUT_OF_MEMORY;
}

nav_status nav__contours_build(nav__contours *out, const nav__open_space *os, float max_error, float max_edge,
                               uint64_t bytes)
{
    *out = (nav__contours){.region_count = os->region_count};
    /* the fixed arrays: each top's column, and per region its outline's start and side */
    uint64_t fixed = 8 * (uint64_t)os->count + 9 * ((uint64_t)os->region_count + 1) + 6 * 64;
    if (fixed > bytes) return NAV_FAILURE | NAV_TOO_LARGE;
    outline_room left = {bytes - fixed};
    int32_t *top_x = NULL, *top_z = NULL;
    uint32_t *start = NULL;
    uint8_t *start_side = NULL;
    nav__contour_point *raw = NULL;
    uint32_t *keep = NULL;
    nav_status s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (!nav__arr_setlen(out->first, os->region_count + 1) || !nav__arr_setlen(top_x, os->count) ||
        !nav__arr_setlen(top_z, os->count) || !nav__arr_setlen(start, os->region_count + 1) ||
        !nav__arr_setlen(start_side, os->region_count + 1))
        goto done;
    for (int32_t z = 0; z < os->depth; z++)
        for (int32_t x = 0; x < os->width; x++) {
            size_t c = (size_t)z * (size_t)os->width + (size_t)x;
            for (uint32_t i = os->column_first[c]; i < os->column_first[c + 1]; i++)
                top_x[i] = x, top_z[i] = z;
        }
    /* each region's first top on its edge, in top order (regions are numbered in that order too) */
    memset(start, 0xff, (os->region_count + 1) * sizeof *start);
    for (uint32_t i = 0; i < os->count; i++) {
        uint32_t r = os->region[i];
        if (r == 0 || start[r] != NAV__NO_SPAN) continue;
        for (int d = 0; d < NAV__OPEN_SIDES; d++)
            if (across(os, top_x, top_z, i, d) != r) {
                start[r] = i, start_side[r] = (uint8_t)d;
                break;
            }
    }
    s = NAV_SUCCESS;
    out->first[0] = 0;
    for (uint32_t r = 1; r <= os->region_count && nav_succeeded(s); r++) {
        nav__arr_truncate(raw, 0);
        if (start[r] != NAV__NO_SPAN) {
            s = trace(os, top_x, top_z, start[r], start_side[r], &raw, &left);
            if (nav_succeeded(s))
                s = simplify(out, raw, (uint32_t)arrlenu(raw), max_error, max_edge, &keep, &left);
        }
        out->first[r] = (uint32_t)arrlenu(out->points);
    }
done:
    arrfree(top_x);
    arrfree(top_z);
    arrfree(start);
    arrfree(start_side);
    arrfree(raw);
    arrfree(keep);
    if (nav_failed(s)) nav__contours_free(out);
    return s;
}

void nav__contours_free(nav__contours *c)
{
    arrfree(c->points);
    arrfree(c->first);
    *c = (nav__contours){0};
}
