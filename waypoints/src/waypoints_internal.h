/* Private: the baked waypoint tables (bake.c builds them, query.c reads them). */
#ifndef NAV_WAYPOINTS_INTERNAL_H
#define NAV_WAYPOINTS_INTERNAL_H

#include <math.h>
#include <string.h>

#include "nav/grid.h"
#include "nav/heap.h"
#include "nav/waypoints.h"
#include "parallel.h"

#define NAV__NO_HOP UINT16_MAX /* a next hop of "no route" (so NAV_WAYPOINTS_LIMIT is 65535) */

/* The convex corners of a grid's blocked cells (grid vertices with exactly three free cells around
 * them), in row-major order (by y, then x): the waypoints of a graph made from a grid. */
typedef struct nav__wp_corners {
    uint32_t width, height; /* the grid's, in cells */
    uint32_t count;
    uint32_t *row_first; /* height + 2 entries: the corners on vertex row y are row_first[y] .. [y + 1] */
    int32_t *x, *y;      /* each corner's grid vertex */
    uint8_t *quad;       /* where its blocked cell lies: bit 0 set towards +x, bit 1 towards +y */
    uint64_t *bits;      /* the blocked cells, row by row: bit x + 1 of row y is cell (x, y); bits 0
                          * and width + 1 (the map's outside) are set */
    uint32_t row_words;  /* words a row */
} nav__wp_corners;

/* Whether cell (x, y) is blocked (outside the map: yes). */
static inline bool nav__wp_blocked(const nav__wp_corners *c, int64_t x, int64_t y)
{
    if (y < 0 || y >= (int64_t)c->height || x < -1 || x > (int64_t)c->width) return true;
    uint64_t bit = (uint64_t)(x + 1);
    return c->bits[(size_t)y * c->row_words + bit / 64] >> (bit % 64) & 1;
}

/* Finds the convex corners of grid into *c (its arrays from a; freed by nav__wp_corners_free).
 * NAV_FAILURE | NAV_OUT_OF_MEMORY. */
nav_status nav__wp_corners_find(const nav_grid *grid, const nav_allocator *a, nav__wp_corners *c);
void nav__wp_corners_free(nav__wp_corners *c, const nav_allocator *a);
/* The corner at grid vertex (x, y), or UINT32_MAX. */
uint32_t nav__wp_corner_at(const nav__wp_corners *c, int64_t x, int64_t y);

/* True when a shortest path may bend at corner i while running along direction (dx, dy) (either
 * way): the segment is taut there, its line touching the blocked cell without crossing it. A path
 * that would cross the line of the cell's two edges could cut the corner and be shorter. */
static inline bool nav__wp_taut_q(double qx, double qy, double dx, double dy) /* q: the diagonal */
{
    return (dx * qx) * (dy * qy) <= 0;
}

static inline bool nav__wp_taut(const nav__wp_corners *c, uint32_t i, double dx, double dy)
{
    return nav__wp_taut_q(c->quad[i] & 1 ? 1 : -1, c->quad[i] & 2 ? 1 : -1, dx, dy);
}

/* The lesser and the greater of two numbers neither of which is NAN (fmin and fmax are calls into
 * libm at -O2, in bake loops that run millions of times). */
static inline double nav__wp_min(double a, double b)
{
    return b < a ? b : a;
}

static inline double nav__wp_max(double a, double b)
{
    return b > a ? b : a;
}

/* The cross product a x b (> 0: b turned from a the way y is from x). */
static inline double nav__wp_cross(double ax, double ay, double bx, double by)
{
    return ax * by - ay * bx;
}

/* The scratch of a visibility scan (one per thread): two interval lists of width + 4 entries, and
 * a stamp per corner to report each once. */
typedef struct nav__wp_scan {
    double *lo, *hi, *next_lo, *next_hi;
    uint32_t capacity;
    uint32_t *stamp; /* per corner */
    uint32_t stamp_now;
} nav__wp_scan;

nav_status nav__wp_scan_init(nav__wp_scan *s, const nav__wp_corners *c, const nav_allocator *a);
void nav__wp_scan_free(nav__wp_scan *s, const nav_allocator *a);

/* The corners that may be seen from point (sx, sy) (grid units, in or on the map of the corners'
 * grid, whose blocked cells c holds): every corner the
 * straight segment from the point reaches under the any-angle rule (nav/anyangle.h) is written to
 * out (capacity c->count), each once, and a few more that it does not reach: callers check each
 * with nav_grid_anyangle_segment. With taut_only, only corners where the segment is taut
 * (nav__wp_taut). Returns how many. */
uint32_t nav__wp_scan_corners(const nav__wp_corners *c, nav__wp_scan *s, double sx, double sy, bool taut_only,
                              uint32_t *out);

/* m times a distance, where a distance of 0 gives 0 even for the infinite rays (m = dx / |dy|). */
static inline double nav__wp_times(double m, double d)
{
    return d == 0 ? 0 : m * d;
}

/* Rays of a scan that reach the row of cells y: those of m = dx / |dy| in [lo, hi] (either may be
 * infinite), the row's near and far lines at distances d0 <= d1 from the point. */
typedef void (*nav__wp_span_fn)(void *user, int64_t y, double d0, double d1, double lo, double hi);

/* The same scan without reports, telling span the rays it keeps in each row: every point the
 * point sees lies on one of them, before the first blocked cell it meets in that row. */
void nav__wp_scan_region(const nav__wp_corners *c, nav__wp_scan *s, double sx, double sy,
                         nav__wp_span_fn span, void *user);

/* What a point query reads of a corner, in one place: its position, the diagonal q into its
 * blocked cell (qx, qy: 1 or -1), and on a pruned graph, on each side of q (k = 1 where
 * cross(q, d) > 0, else 0), the link from the corner nearest q as d = (dx, dy): links out at
 * bend[2k], links in at bend[4 + 2k]; NAN where it has none (nav__wp_corner_info_build). */
typedef struct nav__wp_corner_info {
    float x, y, qx, qy;
    float bend[8];
} nav__wp_corner_info;

/* For point queries, the corners each block of cells may see: for every point p of a block
 * (its closed square) and every corner v that p sees, taut at v on a pruned graph, v is in the
 * block's list, or the segment from p to v runs through another corner of the list (which a path
 * may then bend at for free). Lists hold a few more: a query checks its winners exactly. Built by
 * scanning from every corner (nav__wp_scan_region: the seeing is symmetric). */
typedef struct nav__wp_sight {
    uint32_t shift;   /* blocks of 2^shift by 2^shift cells */
    uint32_t across;  /* blocks a row */
    uint32_t blocks;  /* in all */
    uint32_t *first;  /* blocks + 1 entries: block b's corners are corner[first[b] .. first[b + 1]] */
    uint16_t *corner; /* ascending in each part of a block's list */
    /* 2 a block, once the corners' records are built: each list in three parts, by what a shortest
     * path from anywhere in the block's square may do at the corner. corner[first[b] ..
     * first[b] + part[2b]]: bend there on to (in from) a link, at every point (or every corner,
     * on a graph not pruned); then up to first[b] + part[2b + 1], the corners that depend on the
     * point; then the rest: never on to a link, only straight to the other end (a path of one
     * corner, which the start's end finds alone). */
    uint16_t *part;
    /* A bit an entry (bit k % 8 of sure[k / 8]), on a pruned bake of a grid of one cost without
     * heights when working them out is affordable (sight.c), else null: set in a list's first two
     * parts when every point of the block's free cells sees the corner (their cells' corners do),
     * so that a query takes the segment's length as its cost without walking it. */
    uint8_t *sure;
    uint32_t longest; /* the most corners a block has */
    uint32_t corners; /* of info */
    nav__wp_corner_info *info;
} nav__wp_sight;

/* The block side (2^shift cells) c's lists are built with: one cell on small grids, else 2. */
uint32_t nav__wp_sight_shift(const nav__wp_corners *c);
/* Builds c's lists for blocks of 2^shift cells a side (on `threads` threads, 0: every core, with
 * progress [opt] as "sight"). With taut_only, a corner only where a segment to it is taut.
 * NAV_SUCCESS; NAV_FAILURE | NAV_OUT_OF_MEMORY | NAV_TOO_LARGE (more than 2^32 entries) |
 * NAV_WRONG_STATE (cancelled). */
nav_status nav__wp_sight_build(const nav__wp_corners *c, bool taut_only, uint32_t shift, uint32_t threads,
                               const nav_progress *progress, const nav_allocator *a, nav__wp_sight *out);
void nav__wp_sight_free(nav__wp_sight *s, const nav_allocator *a);
/* wp->sight.info from wp's corners and (on a pruned bake) its links, the lists' parts and their
 * sure bits (grid: the one baked from; on `threads` threads, 0: every core). NAV_FAILURE |
 * NAV_OUT_OF_MEMORY. */
nav_status nav__wp_corner_info_build(nav_waypoints *wp, const nav_grid *grid, uint32_t threads);
/* Whether a shortest path from point (px, py) may bend at corner v (the path's first corner,
 * `goal` false, or its last, `goal` true), e = (px, py) - v: on a pruned graph a shortest path
 * bends only around the blocked cell, which must lie between its two segments there (sight.c).
 * The other segment lies on the other side of q and turns from e the way q does (turn: the sign
 * of cross(e, q)); a little room for rounding, so that one straight through is kept. Not for a
 * point at the corner.
 * nav__wp_bends_on: the other segment may be a link of v (going on from it, or coming in by it
 * when `goal`). */
static inline bool nav__wp_bends_on(const nav__wp_corner_info *v, double ex, double ey, bool goal)
{
    double turn = nav__wp_cross(v->qx, v->qy, ex, ey) < 0 ? 1 : -1, room = 1e-9 * (fabs(ex) + fabs(ey));
    const float *d = &v->bend[(goal ? 4 : 0) + (turn > 0 ? 2 : 0)];
    return turn * nav__wp_cross(ex, ey, d[0], d[1]) >= -room * (fabs(d[0]) + fabs(d[1])); /* NAN: no */
}

/* nav__wp_bends_once: the other segment may go straight to the other end, f = other end - v (a
 * path of one corner: the same test from either end). */
static inline bool nav__wp_bends_once(const nav__wp_corner_info *v, double ex, double ey, double fx,
                                      double fy)
{
    double turn = nav__wp_cross(v->qx, v->qy, ex, ey) < 0 ? 1 : -1, room = 1e-9 * (fabs(ex) + fabs(ey));
    return turn * nav__wp_cross(v->qx, v->qy, fx, fy) >= 0 &&
           turn * nav__wp_cross(ex, ey, fx, fy) >= -room * (fabs(fx) + fabs(fy));
}
size_t nav__wp_sight_bytes(const nav__wp_sight *s);

/* True when the grid's shortest paths bend only where they wrap a corner (one terrain cost and no
 * climb limit), so links that are not taut may be left out. */
bool nav__wp_grid_prunable(const nav_grid *grid);
/* nav_waypoint_graph_from_grid, also handing back the corners (the graph's waypoints, in order). */
nav_status nav__wp_graph_from_grid(const nav_grid *grid, const nav_waypoint_grid_desc *desc,
                                   nav_waypoint_graph *out, nav__wp_corners *corners);

/* Two waypoints u < v that see each other: the cost each way (INFINITY: not that way). */
typedef struct nav__wp_seen {
    uint32_t v;
    double there, back;
} nav__wp_seen;

/* A generated graph: runs work on `threads` threads (an item a waypoint u, adding to found[u], an
 * stb_ds array, the waypoints above u it sees, ascending), then makes *out in one block (its
 * storage, from a): work->count waypoints, zeroed for the caller to fill (through out->storage),
 * and links: for each u, those of found[u] in order, one two-way link where both ways cost the same
 * and one-way links otherwise, costs times scale; then extra. Frees found's arrays (not found).
 * NAV_FAILURE | NAV_OUT_OF_MEMORY | NAV_TOO_LARGE | NAV_WRONG_STATE (cancelled). */
nav_status nav__wp_graph_by_visibility(const nav__work *work, uint32_t threads, nav__wp_seen **found,
                                       double scale, const nav_waypoint_link *extra, uint32_t extra_count,
                                       const nav_allocator *a, nav_waypoint_graph *out);

/* Flat arrays, each its own allocation. Arcs are the links taken one way (a two-way link makes
 * two), grouped by their from waypoint and sorted within it by (to, cost, link): the first arc
 * from u to v that is not disabled is the cheapest way from u to v. */
struct nav_waypoints {
    nav_allocator allocator;
    uint32_t count;
    nav_vec3 *positions;
    uint32_t *tags;
    uint32_t *name_at; /* per waypoint: where its name starts in names ("" at 0 for none) */
    char *names;       /* NUL-terminated names, one after another */
    size_t names_bytes;
    uint32_t *by_name; /* the named waypoints, by strcmp of their names */
    uint32_t named_count;
    uint32_t link_count; /* of the source graph */
    uint32_t arc_count;
    uint32_t *arc_first; /* count + 1 entries: the arcs from u are arc_first[u] .. arc_first[u + 1] */
    uint32_t *arc_to;
    double *arc_cost;
    uint16_t *arc_flags;
    uint8_t *arc_disabled;
    uint32_t *arc_link; /* the source link of each arc */
    uint32_t *link_arc; /* per link of the source graph: its arc, and its arc the other way (two-way
                         * links) or UINT32_MAX; 2 entries a link */
    uint32_t disabled_arcs;
    /* the arcs again, grouped by the waypoint they go to (for searches that run backwards): into v
     * come arcs in_arc[in_first[v] .. in_first[v + 1]], from waypoints in_from[...] */
    uint32_t *in_first; /* count + 2 entries (the last serves the counting sort of the bake) */
    uint32_t *in_arc, *in_from;
    /* a k-d tree of the positions for nearest-waypoint queries: complete and left-balanced, node k
     * has children 2k + 1 and 2k + 2 (no pointers); node k holds waypoint kd_point[k] and splits
     * its subtree on axis kd_axis[k] (0 x, 1 y, 2 z) at that waypoint's coordinate */
    uint32_t *kd_point;
    uint8_t *kd_axis;
    /* plain tables (up to dense_max waypoints), row `from`, column `to`; null when compressed */
    float *dist;   /* INFINITY: no route */
    uint16_t *hop; /* NAV__NO_HOP: no route */
    /* hub labels (larger graphs: made by waypoints/bake/label_bake.c, read by labels.c): waypoint v's
     * out-label is entries label_first[0][v] .. label_first[0][v + 1] of label_hub[0], label_hop[0],
     * label_dist[0] (a hub by its rank, ascending; v's first move towards the hub; the distance there), its
     * in-label the same of [1] (the waypoint before v on the route from the hub; the distance from it); a
     * symmetric graph's [1] are its [0] (one allocation) */
    bool compressed;
    bool symmetric;     /* nav__wp_symmetric: hub labels keep one list a waypoint; plain tables read
                         * d(x, p) along row p */
    uint16_t *hub_node; /* per rank: the hub's waypoint */
    uint32_t *label_first[2];
    uint16_t *label_hub[2], *label_hop[2];
    float *label_dist[2];
    uint32_t *label_up[2]; /* per entry: where its hop's entry for the same hub is (its own index for
                            * the waypoint's own entry), so a walk to or from a hub searches no
                            * label; made by the bake or the chunk reader, not stored */
    /* a bake of a grid (nav_waypoints_bake_grid): its waypoints are the grid's corners */
    bool from_grid;
    bool pruned;          /* links not taut at both ends were left out */
    uint64_t fingerprint; /* the grid's */
    nav__wp_corners corners;
    nav__wp_sight sight; /* built with the corners, for point queries */
};

/* Checks graph and makes a bake of it without its routes: waypoints, names, arcs, the k-d tree, and
 * the plain tables allocated (not zeroed: the caller writes every entry), or with `compressed` the
 * ranks (the run arrays are the caller's to make). NAV_FAILURE | NAV_INVALID_PARAM (told to log) |
 * NAV_OUT_OF_MEMORY. */
nav_status nav__wp_assemble(const nav_waypoint_graph *graph, bool compressed, const nav_allocator *allocator,
                            const nav_log *log, nav_waypoints **out);

/* Dijkstra's algorithm from `source` over the arcs that are not disabled (ties: the lower index
 * settles first, and a distance is replaced only by a strictly smaller one): dist (count entries,
 * INFINITY on entry) holds the distances after; parent each settled waypoint's predecessor (the
 * source's is itself); seq the waypoints in the order they settled. Returns how many settled. */
uint32_t nav__wp_tree(const nav_waypoints *wp, double *dist, nav_heap *open, uint32_t source,
                      uint16_t *parent, uint16_t *seq);

/* True when every link costs the same both ways (the cheapest open arc from u to v costs what the
 * cheapest from v to u does, for every u and v): then d(u, v) = d(v, u). */
bool nav__wp_symmetric(const nav_waypoints *wp);

/* A label's side: index 0 of label_first and the rest is the out-labels, 1 the in-labels. */
enum { NAV__WP_OUT = 0, NAV__WP_IN = 1 };

/* Makes wp's hub labels (wp->compressed; threads and progress from d). NAV_FAILURE |
 * NAV_OUT_OF_MEMORY | NAV_TOO_LARGE (more than 2^32 entries) | NAV_WRONG_STATE (cancelled). */
nav_status nav__wp_labels_bake(nav_waypoints *wp, const nav_waypoints_bake_desc *d);
void nav__wp_labels_free(nav_waypoints *wp);
size_t nav__wp_labels_bytes(const nav_waypoints *wp);

/* The distance from `from` to `to` by the labels (INFINITY: no route), and where the hub through
 * which it runs is in from's out-label and to's in-label [opt] (UINT32_MAX: no route). */
double nav__wp_label_meet(const nav_waypoints *wp, uint32_t from, uint32_t to, uint32_t *at_from,
                          uint32_t *at_to);
/* Where hub (a rank) is in v's out-label (side 0) or in-label (1), or UINT32_MAX. */
uint32_t nav__wp_label_find(const nav_waypoints *wp, int side, uint32_t v, uint32_t hub);
/* The first move from `from` to `to` (from != to) by the labels, or NAV_WAYPOINTS_NONE. */
uint32_t nav__wp_label_hop(const nav_waypoints *wp, uint32_t from, uint32_t to);

/* Builds the k-d tree of wp's positions (kd_point, kd_axis). NAV_FAILURE | NAV_OUT_OF_MEMORY. */
nav_status nav__wp_kd_build(nav_waypoints *wp);

/* A corner an end of a point query may see. */
typedef struct nav__wp_candidate {
    uint32_t corner;
    uint32_t via; /* start candidates: the goal candidate of their cheapest combination, or
                   * UINT32_MAX while that is to be found */
    double cost;  /* the segment's cost (world units): a lower bound until checked */
    double total; /* start candidates: a lower bound of the cheapest path through them, the cost
                   * of that combination once via is found; goal candidates: their cost plus the
                   * straight distance from the start, a lower bound of any path through them */
    bool checked; /* cost is exact (INFINITY: the segment cannot be walked) */
} nav__wp_candidate;

/* A start candidate in the heap of a point query: its bound, and where it is in the candidates. */
typedef struct nav__wp_bound {
    double total;
    uint32_t index;
} nav__wp_bound;

/* A query object's scratch. */
struct nav_waypoints_query {
    nav_allocator allocator;
    const nav_waypoints *wp;
    /* route searches (route.c) */
    double *g;          /* per waypoint: the cost from the start, valid where seen == seen_now */
    double *h;          /* per waypoint: its bound in this search (route.c), valid where seen */
    uint32_t *next_arc; /* per waypoint: the arc it leaves by towards the goal */
    uint32_t *seen;     /* per waypoint: the search that last reached it (nav__wp_stamps) */
    uint32_t seen_now;  /* the last stamp taken */
    uint8_t *in_open;   /* per waypoint: on the open list (valid where seen) */
    nav_heap open;      /* with decrease-key */
    nav_heap near;      /* nearest-waypoint queries: k-d tree nodes and waypoints by distance */
    /* point queries (point.c) */
    const nav_grid *grid;            /* null: no point queries */
    nav__wp_candidate *start, *goal; /* the corners each end may see (point.c) */
    uint32_t *goal_column;           /* the goal's corners that could be on the path (point.c's */
    double *goal_cost;               /* keep_goal), their costs, and which candidates they are, */
    uint32_t *goal_index;            /* as a row's loop reads them */
    nav__wp_bound *open_bounds;      /* the start candidates to refine, a heap by bound */
    /* on hub labels, a value a hub: point queries' goal side folded (point.c's fold_goal), or a
     * route search's distances from its start (route.c); INFINITY but at the hub_count hubs of
     * hub_touched */
    double *hub_best;
    uint32_t *hub_via;
    uint16_t *hub_touched;
    uint32_t hub_count;
};

/* Reserves k of q->seen's stamps and returns the first (route searches mark the waypoints they
 * reach, point queries the corners each end takes). */
static inline uint32_t nav__wp_stamps(nav_waypoints_query *q, uint32_t k)
{
    if (q->seen_now > UINT32_MAX - k) { /* they would wrap: forget them all */
        for (uint32_t v = 0; v < q->wp->count; v++) q->seen[v] = 0;
        q->seen_now = 0;
    }
    q->seen_now += k;
    return q->seen_now - k + 1;
}

/* Sets the query's hub array back to INFINITY everywhere (only the touched hubs hold more). */
static inline void nav__wp_hubs_clear(nav_waypoints_query *q)
{
    for (uint32_t k = 0; k < q->hub_count; k++) q->hub_best[q->hub_touched[k]] = INFINITY;
    q->hub_count = 0;
}

/* Whether the filter [opt] leaves arc i / waypoint v open. */
static inline bool nav__wp_arc_open(const nav_waypoints *wp, const nav_waypoints_filter *f, uint32_t i)
{
    if (!f) return !wp->arc_disabled[i];
    return (!wp->arc_disabled[i] || f->open_disabled) && !(wp->arc_flags[i] & f->exclude_link_flags) &&
           !(f->closed_links && f->closed_links[wp->arc_link[i]]);
}

static inline bool nav__wp_point_open(const nav_waypoints *wp, const nav_waypoints_filter *f, uint32_t v)
{
    return !f || (!(wp->tags[v] & f->exclude_tags) && !(f->closed_waypoints && f->closed_waypoints[v]));
}

/* Appends the table's route from `from` to `to` (which has one) to out, from's point first, adding
 * its links' costs to *cost in order: a walk along first moves, taking the cheapest arc between
 * each two. NAV_SUCCESS; NAV_FAILURE | NAV_UNREACHABLE when the filter [opt] closes a link or
 * waypoint on it (out holds the part walked); NAV_FAILURE | NAV_OUT_OF_MEMORY; NAV_FAILURE |
 * NAV_CORRUPT_DATA if the tables break their promise (never on a bake of this library). */
nav_status nav__wp_walk(const nav_waypoints *wp, const nav_waypoints_filter *f, uint32_t from, uint32_t to,
                        nav_path *out, double *cost);

/* The cheapest arc from u to v that is not disabled, or UINT32_MAX. */
uint32_t nav__wp_cheapest_arc(const nav_waypoints *wp, uint32_t u, uint32_t v);

/* A valid name: 1 to NAV_WAYPOINT_NAME_MAX bytes, none a blank or control character (the text
 * format splits words at blanks). */
static inline bool nav__waypoint_name_ok(const char *name, size_t length)
{
    if (length == 0 || length > NAV_WAYPOINT_NAME_MAX) return false;
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c <= ' ' || c == 0x7f) return false;
    }
    return true;
}

#endif
