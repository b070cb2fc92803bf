/* The corners each block of cells may see, for point queries (nav__wp_sight), and what a query
 * reads of each corner, with where a path may bend at it (nav__wp_corner_info, at the end).
 *
 * A point query needs the corners its two ends see. Scanning for them at query time walks every row
 * between the ends; instead, the bake scans once from every corner (seeing is symmetric) and marks
 * the blocks of cells its free rays cross, keeping on a pruned graph only the cells on the side
 * where a segment to the corner is taut. A query then reads its block's list and checks the few
 * winners exactly, as it checked the scan's. Blocks are square, 2^shift cells a side: bigger blocks
 * mean fewer lists but longer ones. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "grid_internal.h"
#include "nav/anyangle.h"
#include "waypoints_internal.h"

/* Blocks of one cell on grids of at most SIGHT_SMALL cells, else of 2 by 2: one cell's list is
 * shorter and more of it sure (a query reads and walks less), but the lists hold about 3.5 times as
 * many entries. Measured (bench/README.md). */
#define SIGHT_SMALL (1u << 18)

/* A growable list of blocks, on the system heap: the threads fill their corners' lists at once, and
 * the caller's allocator is only called from the caller's thread. */
typedef struct block_list {
    uint32_t *block;
    uint32_t count, capacity;
} block_list;

static bool block_list_add(block_list *l, uint32_t b)
{
    if (l->count == l->capacity) {
        uint32_t capacity = l->capacity ? 2 * l->capacity : 16;
        if (capacity < l->capacity) return false;
        uint32_t *grown = realloc(l->block, (size_t)capacity * sizeof *grown);
        if (!grown) return false;
        l->block = grown, l->capacity = capacity;
    }
    l->block[l->count++] = b;
    return true;
}

typedef struct sight_job {
    const nav__wp_corners *c;
    bool taut_only;
    uint32_t shift, across, blocks;
    const nav_allocator *a;
    block_list *found; /* per corner: the blocks it may be seen from */
} sight_job;

typedef struct sight_scratch {
    const sight_job *job;
    nav__wp_scan scan;
    uint32_t *stamp; /* per block: the corner + 1 that marked it last */
    uint32_t v;      /* the corner being scanned from */
    bool out_of_memory;
} sight_scratch;

static bool sight_init(void *ctx, void **out)
{
    sight_job *job = ctx;
    sight_scratch *s = nav__calloc(job->a, 1, sizeof *s);
    *out = s;
    if (!s) return false;
    s->job = job;
    s->stamp = nav__calloc(job->a, job->blocks ? job->blocks : 1, sizeof *s->stamp);
    return s->stamp && !nav_failed(nav__wp_scan_init(&s->scan, job->c, job->a));
}

static void sight_fini(void *ctx, void *scratch)
{
    sight_job *job = ctx;
    sight_scratch *s = scratch;
    if (!s) return;
    nav__wp_scan_free(&s->scan, job->a);
    nav__free(job->a, s->stamp);
    nav__free(job->a, s);
}

/* Marks the blocks of cells lo .. hi of row y, of those that hold a point from which the segment
 * to corner v is taut (all of them when that is not asked). */
static void mark(sight_scratch *s, int64_t y, int64_t lo, int64_t hi)
{
    const sight_job *job = s->job;
    const nav__wp_corners *c = job->c;
    int64_t vx = c->x[s->v], vy = c->y[s->v];
    if (job->taut_only && y != vy && y + 1 != vy) {
        /* taut: (px - vx) qx (py - vy) qy <= 0; off the corner's line, py - vy has one sign in the row */
        int side = (c->quad[s->v] & 1 ? 1 : -1) * (y > vy ? 1 : -1) * (c->quad[s->v] & 2 ? 1 : -1);
        if (side > 0 && hi > vx) hi = vx;         /* px <= vx: cells up to the one whose left edge is vx */
        if (side < 0 && lo < vx - 1) lo = vx - 1; /* px >= vx: cells from the one whose right edge is vx */
    }
    if (lo > hi) return;
    uint32_t row = (uint32_t)(y >> job->shift) * job->across;
    for (uint32_t b = row + (uint32_t)(lo >> job->shift); b <= row + (uint32_t)(hi >> job->shift); b++) {
        if (s->stamp[b] == s->v + 1) continue;
        s->stamp[b] = s->v + 1;
        if (!block_list_add(&job->found[s->v], b)) s->out_of_memory = true;
    }
}

/* The rays [lo, hi] from corner v reaching row y (near and far lines at d0, d1): within the row a
 * ray stays in the run of free cells it enters by (or, in the corner's own row, starts in), so in
 * each run the cells are marked whose closed squares the rays entering it reach. A point a segment
 * reaches lies in one of those, but on a cell's edge maybe not in the one beside it: queries look at
 * every free cell a point lies in. */
static void rays(void *user, int64_t y, double d0, double d1, double lo, double hi)
{
    sight_scratch *s = user;
    const nav__wp_corners *c = s->job->c;
    double sx = c->x[s->v];
    double xa = sx + nav__wp_min(nav__wp_times(lo, d0), nav__wp_times(lo, d1)),
           xb = sx + nav__wp_max(nav__wp_times(hi, d0), nav__wp_times(hi, d1));
    int64_t w = c->width, first = xa < 0 ? 0 : xa >= (double)w ? w - 1 : (int64_t)xa;
    int64_t last = xb < 0 ? 0 : xb >= (double)w ? w - 1 : (int64_t)xb;
    for (int64_t x = first; x <= last; x++) {
        if (nav__wp_blocked(c, x, y)) continue;
        int64_t f0 = x;
        while (x + 1 <= last && !nav__wp_blocked(c, x + 1, y)) x++;
        double left = (double)f0, right = (double)(x + 1); /* the run's closed extent */
        double m_a = lo, m_b = hi;
        if (d0 > 0) { /* the rays entering the run at the near line */
            m_a = nav__wp_max(lo, (left - sx) / d0);
            m_b = nav__wp_min(hi, (right - sx) / d0);
        } else if (sx < left || sx > right) {
            continue; /* the corner's own row: the rays start at the corner */
        }
        if (m_a > m_b) continue;
        /* where they reach in the run (a little wide), and the cells that holds */
        double e0 = nav__wp_max(left, sx + nav__wp_min(nav__wp_times(m_a, d0), nav__wp_times(m_a, d1))),
               e1 = nav__wp_min(right, sx + nav__wp_max(nav__wp_times(m_b, d0), nav__wp_times(m_b, d1)));
        int64_t lo_cell = (int64_t)floor(e0 - 1e-9 * (1 + e0)),
                hi_cell = (int64_t)floor(e1 + 1e-9 * (1 + e1));
        mark(s, y, lo_cell > f0 ? lo_cell : f0, hi_cell < x ? hi_cell : x);
    }
}

static bool sight_corner(void *ctx, void *scratch, uint32_t v)
{
    sight_job *job = ctx;
    sight_scratch *s = scratch;
    s->v = v;
    nav__wp_scan_region(job->c, &s->scan, job->c->x[v], job->c->y[v], rays, s);
    return !s->out_of_memory;
}

uint32_t nav__wp_sight_shift(const nav__wp_corners *c)
{
    return (uint64_t)c->width * c->height <= SIGHT_SMALL ? 0 : 1;
}

nav_status nav__wp_sight_build(const nav__wp_corners *c, bool taut_only, uint32_t shift, uint32_t threads,
                               const nav_progress *progress, const nav_allocator *a, nav__wp_sight *out)
{
    *out = (nav__wp_sight){.shift = shift};
    uint32_t side = 1u << out->shift;
    out->across = (c->width + side - 1) / side;
    uint64_t blocks = (uint64_t)out->across * ((c->height + side - 1) / side);
    if (blocks >= UINT32_MAX) return NAV_FAILURE | NAV_TOO_LARGE;
    out->blocks = (uint32_t)blocks;
    sight_job job = {c, taut_only, out->shift, out->across, out->blocks, a, NULL};
    job.found = nav__calloc(a, c->count ? c->count : 1, sizeof *job.found);
    out->first = nav__calloc(a, (size_t)out->blocks + 1, sizeof *out->first);
    nav_status s = job.found && out->first ? NAV_SUCCESS : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (!nav_failed(s)) {
        nav__work work = {.count = c->count,
                          .init = sight_init,
                          .run = sight_corner,
                          .fini = sight_fini,
                          .ctx = &job,
                          .stage = "sight",
                          .progress = progress};
        s = nav__parallel(&work, threads);
    }
    /* counting sort by block; corners in ascending order within each */
    uint64_t total = 0;
    for (uint32_t v = 0; !nav_failed(s) && v < c->count; v++) {
        total += job.found[v].count;
        for (uint32_t i = 0; i < job.found[v].count; i++) out->first[job.found[v].block[i] + 1]++;
    }
    if (!nav_failed(s) && total >= UINT32_MAX) s = NAV_FAILURE | NAV_TOO_LARGE;
    if (!nav_failed(s)) {
        out->corner = nav__calloc(a, total ? (size_t)total : 1, sizeof *out->corner);
        if (!out->corner) s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    if (!nav_failed(s)) {
        for (uint32_t b = 0; b < out->blocks; b++) out->first[b + 1] += out->first[b];
        for (uint32_t v = 0; v < c->count; v++)
            for (uint32_t i = 0; i < job.found[v].count; i++)
                out->corner[out->first[job.found[v].block[i]]++] = (uint16_t)v;
        for (uint32_t b = out->blocks; b > 0; b--) out->first[b] = out->first[b - 1];
        out->first[0] = 0;
        for (uint32_t b = 0; b < out->blocks; b++)
            if (out->first[b + 1] - out->first[b] > out->longest)
                out->longest = out->first[b + 1] - out->first[b];
    }
    if (job.found)
        for (uint32_t v = 0; v < c->count; v++) free(job.found[v].block);
    nav__free(a, job.found);
    if (nav_failed(s)) nav__wp_sight_free(out, a);
    return s;
}

void nav__wp_sight_free(nav__wp_sight *s, const nav_allocator *a)
{
    nav__free(a, s->first);
    nav__free(a, s->corner);
    nav__free(a, s->part);
    nav__free(a, s->sure);
    nav__free(a, s->info);
    *s = (nav__wp_sight){0};
}

size_t nav__wp_sight_bytes(const nav__wp_sight *s)
{
    if (!s->first) return 0;
    return ((size_t)s->blocks + 1) * sizeof *s->first + (size_t)s->first[s->blocks] * sizeof *s->corner +
           (s->part ? 2 * (size_t)s->blocks * sizeof *s->part : 0) +
           (s->sure ? (size_t)s->first[s->blocks] / 8 + 1 : 0) + (size_t)s->corners * sizeof *s->info;
}

/* ---- Where a path may bend -------------------------------------------------------------------- */

/* A shortest path among the blocked cells of a grid of one cost bends at a corner only to wrap its
 * blocked cell: the cell lies between the segment in and the segment out (else cutting the corner
 * would be shorter), so the diagonal q into the cell lies in the angle (under 180 degrees) the two
 * segments make, or the path runs straight through. Both segments are taut, one on each side of q.
 * For a point query's first corner, the segment out is a link (or goes to the other end); of the
 * links on the other side of q from the point, those that fit are the ones from q round to the
 * straight line on: the link nearest q fits if any does, so it is the one kept. Likewise the last
 * corner with the links in. */

/* The least and greatest of ax * ex + ay * ey over the square ex0 <= ex <= ex0 + side, ey0 <= ey <=
 * ey0 + side (at its vertices: the function is linear). */
static void linear_span(double ax, double ay, double ex0, double ey0, double side, double *lo, double *hi)
{
    double at = ax * ex0 + ay * ey0;
    *lo = at + side * ((ax < 0 ? ax : 0) + (ay < 0 ? ay : 0));
    *hi = at + side * ((ax > 0 ? ax : 0) + (ay > 0 ? ay : 0));
}

/* Which part of block b's list corner v belongs in (nav__wp_sight): 0 when at every point p of the
 * block's closed square the segment to v is taut and may go on to (come in by) a link, 2 when at
 * none may it go on to (come in by) a link, else 1. Over the square e = p - v spans a square too:
 * cross(q, e) and cross(e, d) are linear in it (their extremes at its vertices), and taut needs
 * the signs of e's two coordinates apart. Part 0 may take a few that fail, in rounding (a query
 * checks what it takes); part 2 none that pass: it leaves more than twice nav__wp_bends_on's room
 * for rounding, and when q's line comes within a hair of the square the corner is in part 1. */
static int corner_part(const nav__wp_sight *s, uint32_t b, const nav__wp_corner_info *v)
{
    double side = (double)(1u << s->shift);
    double ex0 = (b % s->across) * side - v->x, ey0 = (double)(b / s->across) * side - v->y;
    double size = (ex0 < 0 ? -ex0 : ex0 + side) + (ey0 < 0 ? -ey0 : ey0 + side); /* |ex| + |ey| at most */
    double lo, hi;
    linear_span(-v->qy, v->qx, ex0, ey0, side, &lo, &hi); /* cross(q, e) */
    double hair = 1e-12 * (size + 1);
    if (!(lo > hair || hi < -hair)) return 1;
    double turn = hi < 0 ? 1 : -1;
    /* taut: (-ex qx) (-ey qy) <= 0 everywhere, neither both positive nor both negative anywhere */
    double ax_lo = v->qx > 0 ? -(ex0 + side) : ex0, ax_hi = v->qx > 0 ? -ex0 : ex0 + side;
    double ay_lo = v->qy > 0 ? -(ey0 + side) : ey0, ay_hi = v->qy > 0 ? -ey0 : ey0 + side;
    bool taut = !(ax_hi > 0 && ay_hi > 0) && !(ax_lo < 0 && ay_lo < 0);
    int on = 0, off = 0;
    for (int goal = 0; goal < 2; goal++) {
        const float *d = &v->bend[4 * goal + (turn > 0 ? 2 : 0)];
        if (isnan(d[0])) { /* no link on that side */
            off++;
            continue;
        }
        linear_span(turn * d[1], -turn * d[0], ex0, ey0, side, &lo, &hi); /* turn cross(e, d) */
        if (lo >= 0)
            on++;
        else if (hi + 2e-9 * size * (fabs(d[0]) + fabs(d[1])) < 0)
            off++;
    }
    return taut && on == 2 ? 0 : off == 2 ? 2 : 1;
}

/* The vertices of block b's free cells: bit (x - x0) * (side + 1) + (y - y0) for vertex (x, y),
 * (x0, y0) the block's first cell (at most 3 x 3 vertices). */
static unsigned block_vertices(const nav_grid *grid, const nav__wp_sight *s, uint32_t b)
{
    uint32_t side = 1u << s->shift, x0 = b % s->across * side, y0 = b / s->across * side;
    unsigned mask = 0;
    for (uint32_t dy = 0; dy < side && y0 + dy < (uint32_t)nav_grid_height(grid); dy++)
        for (uint32_t dx = 0; dx < side && x0 + dx < (uint32_t)nav_grid_width(grid); dx++)
            if (nav_grid_passable(grid, (int32_t)(x0 + dx), (int32_t)(y0 + dy)))
                mask |= (3u | 3u << (side + 1)) << (dx * (side + 1) + dy); /* its four corners */
    return mask;
}

/* Whether every point of block b's free cells (their vertices: `vertices`, block_vertices) sees
 * corner v. A free cell C whose four corners see v does at every point: the segments from them
 * bound the hull of C and v, which is C and triangles on C's sides with v, so a segment from inside
 * C that entered a blocked cell (or squeezed through a pinch, which needs blocked cells on both
 * sides) would have that cell meet the inside of such a triangle without crossing its sides: inside
 * it, and a unit square does not fit in a triangle one of whose sides is a unit side of C. A
 * segment along a grid line is part of one from a corner. The block's left column of vertices is
 * its left neighbour's right one: *edge carries the ones found to see v from one block to the next
 * (bit y - y0), in and out. */
static bool sees_all(const nav_grid *grid, const nav__wp_sight *s, uint32_t b, uint32_t v, unsigned vertices,
                     uint8_t *edge)
{
    const nav__wp_corner_info *info = &s->info[v];
    uint32_t side = 1u << s->shift, x0 = b % s->across * side, y0 = b / s->across * side;
    unsigned in = *edge, out = 0;
    *edge = 0;
    for (uint32_t dx = 0; dx <= side; dx++)
        for (uint32_t dy = 0; dy <= side; dy++) {
            if (!(vertices >> (dx * (side + 1) + dy) & 1)) continue;
            bool seen = (dx == 0 && (in >> dy & 1)) ||
                        nav_grid_anyangle_segment(grid, x0 + dx, y0 + dy, info->x, info->y, NULL);
            if (!seen) return false;
            if (dx == side) out |= 1u << dy;
        }
    *edge = (uint8_t)out;
    return true;
}

/* Orders blocks' lists in their three parts (stable: ascending within each), a batch of blocks an
 * item. */
#define SPLIT_BATCH 256

typedef struct split_job {
    nav__wp_sight *s;
    const nav_grid *grid; /* for the sure bits */
    const nav_allocator *a;
    size_t longest; /* a list's entries at most (1 for none): a thread's scratch holds a list's copy
                     * and each entry's part */
} split_job;

static bool split_init(void *ctx, void **scratch)
{
    split_job *job = ctx;
    *scratch = nav__alloc(job->a, job->longest * (sizeof(uint16_t) + 1));
    return *scratch != NULL;
}

static void split_fini(void *ctx, void *scratch)
{
    split_job *job = ctx;
    nav__free(job->a, scratch);
}

static bool split_batch(void *ctx, void *scratch, uint32_t item)
{
    const split_job *job = ctx;
    nav__wp_sight *s = job->s;
    uint16_t *copy = scratch;
    uint8_t *parts = (uint8_t *)(copy + job->longest);
    uint64_t start = (uint64_t)item * SPLIT_BATCH, end = start + SPLIT_BATCH;
    if (end > s->blocks) end = s->blocks;
    for (uint32_t b = (uint32_t)start; b < end; b++) {
        uint16_t *list = s->corner + s->first[b];
        uint32_t count = s->first[b + 1] - s->first[b], at[3] = {0, 0, 0};
        memcpy(copy, list, count * sizeof *copy);
        for (uint32_t k = 0; k < count; k++) {
            parts[k] = (uint8_t)corner_part(s, b, &s->info[copy[k]]);
            at[parts[k]]++;
        }
        s->part[2 * b] = (uint16_t)at[0];
        s->part[2 * b + 1] = (uint16_t)(at[0] + at[1]);
        at[2] = at[0] + at[1], at[1] = at[0], at[0] = 0; /* where each part starts */
        for (uint32_t k = 0; k < count; k++) list[at[parts[k]]++] = copy[k];
    }
    return true;
}

/* The sure bits of a batch of blocks' first two parts (the third, paths of one corner, gains
 * nothing measurable from them: bench/README.md). A thread's scratch: for each corner, the block
 * (+ 1) whose left column of vertices `edge` holds what was found on (sees_all). */
typedef struct sure_scratch {
    uint32_t *next;
    uint8_t *edge;
} sure_scratch;

static bool sure_init(void *ctx, void **out)
{
    const split_job *job = ctx;
    sure_scratch *sc = nav__calloc(job->a, 1, sizeof *sc);
    *out = sc;
    if (!sc) return false;
    size_t n = job->s->corners ? job->s->corners : 1;
    sc->next = nav__calloc(job->a, n, sizeof *sc->next);
    sc->edge = nav__calloc(job->a, n, sizeof *sc->edge);
    return sc->next && sc->edge;
}

static void sure_fini(void *ctx, void *scratch)
{
    const split_job *job = ctx;
    sure_scratch *sc = scratch;
    if (!sc) return;
    nav__free(job->a, sc->next);
    nav__free(job->a, sc->edge);
    nav__free(job->a, sc);
}

static bool sure_batch(void *ctx, void *scratch, uint32_t item)
{
    const split_job *job = ctx;
    sure_scratch *sc = scratch;
    nav__wp_sight *s = job->s;
    uint64_t start = (uint64_t)item * SPLIT_BATCH, end = start + SPLIT_BATCH;
    if (end > s->blocks) end = s->blocks;
    for (uint32_t b = (uint32_t)start; b < end; b++) {
        unsigned vertices = block_vertices(job->grid, s, b);
        for (uint32_t k = s->first[b]; k < s->first[b] + s->part[2 * b + 1]; k++) {
            uint32_t v = s->corner[k];
            uint8_t edge = sc->next[v] == b + 1 && b % s->across ? sc->edge[v] : 0;
            /* a byte may hold entries of two batches, set on two threads: an atomic or */
            if (sees_all(job->grid, s, b, v, vertices, &edge))
                __atomic_fetch_or(&s->sure[k / 8], (uint8_t)(1u << (k % 8)), __ATOMIC_RELAXED);
            sc->next[v] = b + 2, sc->edge[v] = edge;
        }
    }
    return true;
}

/* Whether the sure bits' walks come to at most SURE_STEPS steps in all (an estimate: a walk from
 * each vertex of the block, from its centre), so that they take a second or two on big bakes (and
 * loads) and are left out of the biggest. On a grid of one cost without heights the segment's cost
 * is its length (nav_grid_anyangle_segment), which is what a sure entry takes. */
#define SURE_STEPS ((double)(1u << 31))

static bool sure_affordable(const nav__wp_sight *s)
{
    double steps = 0, side = (double)(1u << s->shift), walks = (side + 1) * (side + 1);
    for (uint32_t b = 0; b < s->blocks && steps <= SURE_STEPS; b++) {
        double cx = (b % s->across + 0.5) * side, cy = (b / s->across + 0.5) * side;
        for (uint32_t k = s->first[b]; k < s->first[b] + s->part[2 * b + 1]; k++)
            steps += walks * (fabs(cx - s->info[s->corner[k]].x) + fabs(cy - s->info[s->corner[k]].y));
    }
    return steps <= SURE_STEPS;
}

static nav_status split_lists(nav_waypoints *wp, const nav_grid *grid, uint32_t threads)
{
    nav__wp_sight *s = &wp->sight;
    s->part = nav__alloc(&wp->allocator, 2 * (size_t)(s->blocks ? s->blocks : 1) * sizeof *s->part);
    if (!s->part) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (!wp->pruned) { /* every corner in part 0: no test */
        for (uint32_t b = 0; b < s->blocks; b++)
            s->part[2 * b] = s->part[2 * b + 1] = (uint16_t)(s->first[b + 1] - s->first[b]);
        return NAV_SUCCESS;
    }
    split_job job = {s, grid, &wp->allocator, s->longest ? s->longest : 1};
    nav__work work = {.count = (uint32_t)(((uint64_t)s->blocks + SPLIT_BATCH - 1) / SPLIT_BATCH),
                      .init = split_init,
                      .run = split_batch,
                      .fini = split_fini,
                      .ctx = &job,
                      .stage = "sight"};
    nav_status status = nav__parallel(&work, threads);
    if (nav_failed(status) || !(grid->uniform_cost > 0 && !grid->heights && sure_affordable(s)))
        return status;
    s->sure = nav__calloc(&wp->allocator, (size_t)s->first[s->blocks] / 8 + 1, 1);
    if (!s->sure) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    work.init = sure_init, work.run = sure_batch, work.fini = sure_fini;
    return nav__parallel(&work, threads);
}

nav_status nav__wp_corner_info_build(nav_waypoints *wp, const nav_grid *grid, uint32_t threads)
{
    nav__wp_sight *s = &wp->sight;
    const nav__wp_corners *c = &wp->corners;
    s->corners = c->count;
    s->info = nav__alloc(&wp->allocator, (size_t)(c->count ? c->count : 1) * sizeof *s->info);
    if (!s->info) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (uint32_t v = 0; v < c->count; v++) {
        nav__wp_corner_info *info = &s->info[v];
        info->x = (float)c->x[v], info->y = (float)c->y[v];
        info->qx = c->quad[v] & 1 ? 1.0f : -1.0f, info->qy = c->quad[v] & 2 ? 1.0f : -1.0f;
        for (int k = 0; k < 8; k++) info->bend[k] = NAN;
        for (int in = 0; wp->pruned && in < 2; in++) {
            uint32_t first = in ? wp->in_first[v] : wp->arc_first[v],
                     end = in ? wp->in_first[v + 1] : wp->arc_first[v + 1];
            for (uint32_t k = first; k < end; k++) {
                uint32_t arc = in ? wp->in_arc[k] : k, t = in ? wp->in_from[k] : wp->arc_to[k];
                if (wp->arc_disabled[arc]) continue;
                double dx = (double)c->x[t] - c->x[v], dy = (double)c->y[t] - c->y[v];
                double side = nav__wp_cross(info->qx, info->qy, dx, dy);
                if (side == 0) continue; /* along the diagonal: not taut, never a link here */
                float *best = &info->bend[4 * in + (side > 0 ? 2 : 0)];
                /* nearest q: on the side where cross(q, d) > 0, the one every other is turned from
                 * away from q (cross(best, d) > 0 for each other d), and the other way round */
                double turn = isnan(best[0]) ? 0 : nav__wp_cross(best[0], best[1], dx, dy);
                if (isnan(best[0]) || (side > 0 ? turn < 0 : turn > 0))
                    best[0] = (float)dx, best[1] = (float)dy;
            }
        }
    }
    return split_lists(wp, grid, threads);
}
