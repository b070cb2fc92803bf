/* The WAYPOINTS chunk of a .nav file: a waypoint bake as flat arrays.
 *
 * Layout (little-endian, version NAV_WAYPOINTS_CHUNK_VERSION):
 *   u32 waypoints (n), links, name bytes, flags (bit 0: baked from a grid; bit 1: links that are
 *       not taut left out, only with bit 0; bit 2: the compressed first moves of older bakes, no
 *       longer read; bit 3: hub labels; bit 4: one label a waypoint, only with bit 3)
 *   u64 the grid's fingerprint (0 unless bit 0)
 *   per waypoint: f32 x, y, z; u32 tags; u32 where its name starts in the names (0: no name)
 *   the names: NUL-terminated, one after another, after a first NUL; zero padding to 8
 *   per link: u32 from, to; f64 cost (as the bake gave it: above 0); u16 flags; u8 one-way (0 or
 *             1); u8 disabled (0 or 1); u32 0
 *   plain tables:
 *     f32 distance[n * n]   row from, column to; +infinity: no route
 *     u16 first move[n * n] 0xffff: no route; zero padding to 4
 *   or hub labels (bit 3; labels.c):
 *     u16 hub[n]            the waypoint of each hub rank (each waypoint once); zero padding to 4
 *     out-labels, then in-labels (unless bit 4: one label a waypoint serves both ways), each:
 *       u32 start[n + 1]    waypoint v's entries are [start[v] .. start[v + 1]]; start[0] = 0
 *       per entry: u16 hub rank (ascending in a label), u16 first move towards the hub (out) or
 *                  waypoint before v from it (in), f32 distance
 * What can be derived is not stored: the arcs, the name index, the k-d tree, the grid's corners.
 *
 * Nothing in the file is trusted: every count against the bytes left before anything is
 * allocated; the graph as nav_waypoints_bake checks one (indices, finite positions and costs,
 * names, duplicates); flags and padding; and the tables against the graph, row by row (see
 * check_tables), so that a walk along first moves always finds its link and every table route is a
 * route of the graph at the cost the table says. Hub labels are checked entry by entry
 * (check_labels): each hub's route steps by a link to a waypoint that keeps the hub too, at the
 * distance the entry says less the link's cost, and reaches the hub (hops_reach_hubs: no forged
 * cycle). */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "log.h"
#include "nav/anyangle.h"
#include "nav_file.h"
#include "waypoints_internal.h"

enum { WAYPOINT_BYTES = 5 * 4, LINK_BYTES = 2 * 4 + 8 + 2 + 1 + 1 + 4 };
enum { FLAG_FROM_GRID = 1u, FLAG_PRUNED = 2u, FLAG_OLD_RUNS = 4u, FLAG_LABELS = 8u, FLAG_SYMMETRIC = 16u };

nav_status nav_waypoints_write_chunk(const nav_waypoints *wp, nav_writer *w)
{
    if (!wp || !w) return NAV_FAILURE | NAV_INVALID_PARAM;
    size_t n = wp->count;
    size_t tables = n * n * 6 + 4;
    if (wp->compressed) {
        tables = n * 2 + 4;
        for (int side = 0; side < (wp->symmetric ? 1 : 2); side++)
            tables += (n + 1) * 4 + (size_t)wp->label_first[side][n] * 8;
    }
    nav_writer_reserve(w, 32 + n * WAYPOINT_BYTES + wp->names_bytes + 8 +
                              (size_t)wp->link_count * LINK_BYTES + tables);
    nav_writer_put_u32(w, wp->count);
    nav_writer_put_u32(w, wp->link_count);
    nav_writer_put_u32(w, (uint32_t)wp->names_bytes);
    nav_writer_put_u32(w, (wp->from_grid ? FLAG_FROM_GRID : 0) | (wp->pruned ? FLAG_PRUNED : 0) |
                              (wp->compressed ? FLAG_LABELS : 0) |
                              (wp->compressed && wp->symmetric ? FLAG_SYMMETRIC : 0));
    nav_writer_put_u64(w, wp->from_grid ? wp->fingerprint : 0);
    for (size_t i = 0; i < n; i++) {
        nav_writer_put_f32(w, wp->positions[i].x);
        nav_writer_put_f32(w, wp->positions[i].y);
        nav_writer_put_f32(w, wp->positions[i].z);
        nav_writer_put_u32(w, wp->tags[i]);
        nav_writer_put_u32(w, wp->name_at[i]);
    }
    nav_writer_put_bytes(w, wp->names, wp->names_bytes);
    nav_writer_align(w, 8);
    for (uint32_t l = 0; l < wp->link_count; l++) {
        nav_waypoint_link k;
        nav_waypoints_link(wp, l, &k);
        nav_writer_put_u32(w, k.from);
        nav_writer_put_u32(w, k.to);
        nav_writer_put_f64(w, k.cost);
        nav_writer_put_u16(w, k.flags);
        nav_writer_put_u8(w, k.one_way);
        nav_writer_put_u8(w, k.disabled);
        nav_writer_put_u32(w, 0);
    }
    if (wp->compressed) {
        for (size_t i = 0; i < n; i++) nav_writer_put_u16(w, wp->hub_node[i]);
        nav_writer_align(w, 4);
        for (int side = 0; side < (wp->symmetric ? 1 : 2); side++) {
            for (size_t i = 0; i <= n; i++) nav_writer_put_u32(w, wp->label_first[side][i]);
            for (size_t k = 0; k < wp->label_first[side][n]; k++) {
                nav_writer_put_u16(w, wp->label_hub[side][k]);
                nav_writer_put_u16(w, wp->label_hop[side][k]);
                nav_writer_put_f32(w, wp->label_dist[side][k]);
            }
        }
    } else {
        for (size_t i = 0; i < n * n; i++) nav_writer_put_f32(w, wp->dist[i]);
        for (size_t i = 0; i < n * n; i++) nav_writer_put_u16(w, wp->hop[i]);
        nav_writer_align(w, 4);
    }
    return w->status;
}

/* ---- reading ---------------------------------------------------------------------------------- */

typedef struct chunk_reader {
    nav_reader r;
    const nav_log *log;
    nav_allocator allocator;
} chunk_reader;

static nav_status corrupt(chunk_reader *c, const char *what, uint32_t index)
{
    return nav__chunk_corrupt(&c->r, c->log, "WAYPOINTS", what, index);
}

/* Passes the graph checks' messages on as the chunk's. */
static void forward_graph_error(nav_log_level level, const char *message, void *user)
{
    const nav_log *log = user;
    if (strncmp(message, "waypoints: ", 11) == 0) message += 11;
    nav__logf(log, level, "WAYPOINTS chunk: %s", message);
}

/* The graph of a chunk: arrays of the reader's allocator. */
typedef struct chunk_graph {
    nav_waypoint *waypoints;
    uint32_t *name_at;
    nav_waypoint_link *links;
    char *names;
} chunk_graph;

static void free_graph(const nav_allocator *a, chunk_graph *g)
{
    nav__free(a, g->waypoints);
    nav__free(a, g->name_at);
    nav__free(a, g->links);
    nav__free(a, g->names);
}

/* Reads the header, the waypoints and the links into g and graph; *flags and *fingerprint. */
static nav_status read_graph(chunk_reader *c, chunk_graph *g, nav_waypoint_graph *graph, uint32_t *flags,
                             uint64_t *fingerprint)
{
    nav_reader *r = &c->r;
    const nav_allocator *a = &c->allocator;
    uint32_t n = nav_reader_get_u32(r), links = nav_reader_get_u32(r), names_bytes = nav_reader_get_u32(r);
    *flags = nav_reader_get_u32(r);
    *fingerprint = nav_reader_get_u64(r);
    if (r->status != NAV_SUCCESS) return corrupt(c, "truncated in the header", UINT32_MAX);
    if (n > NAV_WAYPOINTS_LIMIT) return corrupt(c, "more waypoints than any bake holds:", n);
    if (*flags & FLAG_OLD_RUNS) {
        nav__logf(c->log, NAV_LOG_ERROR,
                  "WAYPOINTS chunk: compressed first moves of an older bake, which this library no longer "
                  "reads: bake the waypoints again");
        return NAV_FAILURE | NAV_WRONG_VERSION;
    }
    if ((*flags & ~(uint32_t)(FLAG_FROM_GRID | FLAG_PRUNED | FLAG_LABELS | FLAG_SYMMETRIC)) ||
        (!(*flags & FLAG_FROM_GRID) && (*flags & FLAG_PRUNED || *fingerprint)) ||
        (*flags & FLAG_SYMMETRIC && !(*flags & FLAG_LABELS)))
        return corrupt(c, "bad flags or a fingerprint without a grid", UINT32_MAX);
    /* every count against the bytes left, before anything is allocated */
    uint64_t need = (uint64_t)n * WAYPOINT_BYTES + names_bytes + (uint64_t)links * LINK_BYTES +
                    (*flags & FLAG_LABELS ? (uint64_t)n * 2 + ((uint64_t)n + 1) * 4 : (uint64_t)n * n * 6);
    if (names_bytes == 0 || need > nav_reader_remaining(r))
        return corrupt(c, "counts larger than the chunk", UINT32_MAX);
    g->waypoints = nav__calloc(a, n ? n : 1, sizeof *g->waypoints);
    g->name_at = nav__calloc(a, n ? n : 1, sizeof *g->name_at);
    g->links = nav__calloc(a, links ? links : 1, sizeof *g->links);
    g->names = nav__alloc(a, names_bytes);
    if (!g->waypoints || !g->name_at || !g->links || !g->names) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    uint32_t *name_at = g->name_at;
    for (uint32_t i = 0; i < n; i++) {
        float x = nav_reader_get_f32(r), y = nav_reader_get_f32(r), z = nav_reader_get_f32(r);
        g->waypoints[i] = (nav_waypoint){.position = {x, y, z}, .tags = nav_reader_get_u32(r)};
        name_at[i] = nav_reader_get_u32(r);
    }
    const char *names = nav_reader_bytes(r, names_bytes);
    nav_reader_align(r, 8);
    nav_status s = NAV_SUCCESS;
    if (r->status != NAV_SUCCESS || !names) {
        s = corrupt(c, "truncated, or padding that is not zero, in the names", UINT32_MAX);
    } else if (names[0] || names[names_bytes - 1]) {
        s = corrupt(c, "the names do not start and end with a NUL", UINT32_MAX);
    } else {
        memcpy(g->names, names, names_bytes);
        for (uint32_t i = 0; i < n && !nav_failed(s); i++) {
            /* a name starts right after a NUL, and is not the empty string at 0 */
            if (name_at[i] >= names_bytes || (name_at[i] && g->names[name_at[i] - 1]))
                s = corrupt(c, "a name out of place: waypoint", i);
            else if (name_at[i])
                g->waypoints[i].name = g->names + name_at[i];
        }
    }
    if (nav_failed(s)) return s;
    for (uint32_t i = 0; i < links; i++) {
        nav_waypoint_link *l = &g->links[i];
        l->from = nav_reader_get_u32(r);
        l->to = nav_reader_get_u32(r);
        l->cost = nav_reader_get_f64(r);
        l->flags = nav_reader_get_u16(r);
        uint8_t one_way = nav_reader_get_u8(r), disabled = nav_reader_get_u8(r);
        uint32_t zero = nav_reader_get_u32(r);
        if (one_way > 1 || disabled > 1 || zero) return corrupt(c, "bad flags or padding: link", i);
        if (!(l->cost > 0)) return corrupt(c, "a cost that is not above 0: link", i);
        l->one_way = one_way;
        l->disabled = disabled;
    }
    if (r->status != NAV_SUCCESS) return corrupt(c, "truncated in the links", UINT32_MAX);
    *graph = (nav_waypoint_graph){
        .waypoints = g->waypoints, .waypoint_count = n, .links = g->links, .link_count = links};
    return NAV_SUCCESS;
}

/* The tables against the graph, row u at a time: d(u, u) = 0 and first move u; elsewhere "no
 * route" (infinite distance) in both or in neither; a first move h != u joined to u by an arc that
 * is not disabled (the walk takes the cheapest such, of cost c); and d(u, v) = c + d(h, v) within
 * the rounding of two floats (each within 2^-24 of the double the bake summed). A walk along first
 * moves then always finds its next arc, and the costs of its arcs add up to the distance the table
 * states. (That every route is the cheapest would take the bake's own work to check.) */
static nav_status check_tables(chunk_reader *c, const nav_waypoints *wp)
{
    uint32_t n = wp->count;
    const nav_allocator *a = &c->allocator;
    double *cost = nav__calloc(a, n ? n : 1, sizeof *cost);
    uint32_t *stamp = nav__calloc(a, n ? n : 1, sizeof *stamp);
    nav_status s = cost && stamp ? NAV_SUCCESS : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (uint32_t u = 0; u < n && !nav_failed(s); u++) {
        for (uint32_t i = wp->arc_first[u]; i < wp->arc_first[u + 1]; i++) {
            uint32_t v = wp->arc_to[i];
            if (wp->arc_disabled[i] || stamp[v] == u + 1) continue;
            stamp[v] = u + 1; /* the first arc to v that is open is the cheapest */
            cost[v] = wp->arc_cost[i];
        }
        const float *drow = wp->dist + (size_t)u * n;
        const uint16_t *hrow = wp->hop + (size_t)u * n;
        for (uint32_t v = 0; v < n; v++) {
            float d = drow[v];
            uint32_t h = hrow[v];
            bool ok;
            if (v == u) {
                ok = d == 0 && h == u;
            } else if (h == NAV__NO_HOP) {
                ok = d == INFINITY;
            } else {
                ok = h < n && h != u && stamp[h] == u + 1 && isfinite(d) && d >= 0;
                if (ok) {
                    double rest = wp->dist[(size_t)h * n + v], sum = cost[h] + rest;
                    ok = isfinite(rest) && fabs((double)d - sum) <= 1e-6 * sum + 2 * (double)FLT_MIN;
                }
            }
            if (!ok) {
                nav__logf(c->log, NAV_LOG_ERROR,
                          "WAYPOINTS chunk: the tables do not match the graph: from waypoint %u to %u", u, v);
                s = NAV_FAILURE | NAV_CORRUPT_DATA;
                break;
            }
        }
    }
    nav__free(a, cost);
    nav__free(a, stamp);
    return s;
}

/* Hub labels against the graph: hubs ascending in each label; a waypoint's entry for itself (as a
 * hub) at distance 0 and its own hop; every other entry's hop a waypoint joined to it by a link
 * (from it in out-labels, to it in in-labels) that keeps the hub too, at the entry's distance less
 * the link's cost (within the floats' rounding), so that every step of a walk to or from a hub is a
 * link and the walk's cost is what the labels say. */
static nav_status check_labels(chunk_reader *c, nav_waypoints *wp, int side)
{
    uint32_t n = wp->count;
    const uint32_t *first = wp->label_first[side];
    for (uint32_t v = 0; v < n; v++) {
        bool ok = true;
        for (uint32_t k = first[v]; ok && k < first[v + 1]; k++) {
            uint32_t h = wp->label_hub[side][k], hop = wp->label_hop[side][k];
            float d = wp->label_dist[side][k];
            ok = h < n && (k == first[v] || h > wp->label_hub[side][k - 1]) && isfinite(d) && d >= 0 &&
                 hop < n;
            if (!ok) break;
            if (wp->hub_node[h] == v) {
                ok = hop == v && d == 0;
                wp->label_up[side][k] = k;
                continue;
            }
            uint32_t arc = side == 0 ? nav__wp_cheapest_arc(wp, v, hop) : nav__wp_cheapest_arc(wp, hop, v);
            uint32_t at = hop == v ? UINT32_MAX : nav__wp_label_find(wp, side, hop, h);
            ok = arc != UINT32_MAX && at != UINT32_MAX;
            wp->label_up[side][k] = at;
            if (ok) {
                double rest = (double)d - wp->arc_cost[arc], there = wp->label_dist[side][at];
                ok = fabs(rest - there) <= 1e-6 * (double)d + 1e-30;
            }
        }
        if (!ok) {
            nav__logf(c->log, NAV_LOG_ERROR,
                      "WAYPOINTS chunk: the hub labels do not match the graph: %s-label of waypoint %u",
                      side == 0 ? "out" : "in", v);
            return NAV_FAILURE | NAV_CORRUPT_DATA;
        }
    }
    return NAV_SUCCESS;
}

/* Whether every entry's hops reach its hub, with no forged cycle on the way: each entry is marked
 * (mark, one byte an entry: 0 not seen, 1 on the chain being followed, 2 reaches its hub) once,
 * so the whole check is one pass over the entries. */
static bool hops_reach_hubs(const nav_waypoints *wp, int side, uint8_t *mark, uint32_t *chain)
{
    const uint32_t *first = wp->label_first[side];
    const uint16_t *hub = wp->label_hub[side], *hop = wp->label_hop[side];
    for (uint32_t v = 0; v < wp->count; v++)
        for (uint32_t k = first[v]; k < first[v + 1]; k++) {
            uint32_t length = 0, at = v, e = k;
            while (mark[e] != 2) {
                if (mark[e] == 1) return false;
                mark[e] = 1;
                chain[length++] = e;
                if (wp->hub_node[hub[e]] == at) break;
                at = hop[e];
                e = wp->label_up[side][e];
            }
            for (uint32_t i = 0; i < length; i++) mark[chain[i]] = 2;
        }
    return true;
}

/* Reads hub labels into wp (counts checked against the bytes left before anything is allocated). */
static nav_status read_labels(chunk_reader *c, nav_waypoints *wp, bool symmetric)
{
    const nav_allocator *a = &wp->allocator;
    uint32_t n = wp->count;
    if (wp->symmetric != symmetric) /* nav__wp_assemble found whether the links cost the same both ways */
        return corrupt(c,
                       symmetric ? "one label a waypoint, but links that cost differently each way"
                                 : "two labels a waypoint, but links that cost the same both ways",
                       UINT32_MAX);
    wp->hub_node = nav__calloc(a, n ? n : 1, sizeof *wp->hub_node);
    uint8_t *seen = nav__calloc(a, n ? n : 1, 1);
    nav_status s = wp->hub_node && seen ? NAV_SUCCESS : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < n && !nav_failed(s); i++) {
        uint32_t v = wp->hub_node[i] = nav_reader_get_u16(&c->r);
        if (c->r.status != NAV_SUCCESS || v >= n || seen[v]++)
            s = corrupt(c, "truncated, or not every waypoint a hub once: rank", i);
    }
    nav__free(a, seen);
    nav_reader_align(&c->r, 4);
    if (!nav_failed(s) && c->r.status != NAV_SUCCESS)
        s = corrupt(c, "truncated, or padding that is not zero, after the hubs", UINT32_MAX);
    for (int side = 0; side < (symmetric ? 1 : 2) && !nav_failed(s); side++) {
        uint32_t *first = wp->label_first[side] = nav__calloc(a, (size_t)n + 1, sizeof *first);
        if (!first) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
        for (uint32_t v = 0; v <= n; v++) first[v] = nav_reader_get_u32(&c->r);
        if (c->r.status != NAV_SUCCESS || first[0] != 0)
            return corrupt(c, "truncated, or a first label not at 0, in the label starts", UINT32_MAX);
        for (uint32_t v = 0; v < n; v++)
            if (first[v + 1] < first[v]) return corrupt(c, "label starts going back: waypoint", v);
        uint64_t bytes = (uint64_t)first[n] * 8 + (side == 0 && !symmetric ? ((uint64_t)n + 1) * 4 : 0);
        if (side == 0 && !symmetric ? bytes > nav_reader_remaining(&c->r)
                                    : bytes != nav_reader_remaining(&c->r))
            return corrupt(c, "the labels do not fill the rest of the chunk", UINT32_MAX);
        size_t total = first[n] ? first[n] : 1;
        wp->label_hub[side] = nav__alloc(a, total * sizeof *wp->label_hub[side]);
        wp->label_hop[side] = nav__alloc(a, total * sizeof *wp->label_hop[side]);
        wp->label_dist[side] = nav__alloc(a, total * sizeof *wp->label_dist[side]);
        wp->label_up[side] = nav__alloc(a, total * sizeof *wp->label_up[side]);
        if (!wp->label_hub[side] || !wp->label_hop[side] || !wp->label_dist[side] || !wp->label_up[side])
            return NAV_FAILURE | NAV_OUT_OF_MEMORY;
        for (uint32_t k = 0; k < first[n]; k++) {
            wp->label_hub[side][k] = nav_reader_get_u16(&c->r);
            wp->label_hop[side][k] = nav_reader_get_u16(&c->r);
            wp->label_dist[side][k] = nav_reader_get_f32(&c->r);
        }
    }
    if (!nav_failed(s) && symmetric) {
        wp->label_first[1] = wp->label_first[0];
        wp->label_hub[1] = wp->label_hub[0];
        wp->label_hop[1] = wp->label_hop[0];
        wp->label_dist[1] = wp->label_dist[0];
        wp->label_up[1] = wp->label_up[0];
    }
    for (int side = 0; side < (symmetric ? 1 : 2) && !nav_failed(s); side++) {
        s = check_labels(c, wp, side);
        uint8_t *mark = nav_failed(s) ? NULL : nav__calloc(a, (size_t)wp->label_first[side][n] + 1, 1);
        uint32_t *chain = mark ? nav__calloc(a, n ? n : 1, sizeof *chain) : NULL;
        if (!nav_failed(s) && !chain)
            s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
        else if (!nav_failed(s) && !hops_reach_hubs(wp, side, mark, chain))
            s = corrupt(c,
                        side == 0 ? "the out-labels' first moves go round in circles"
                                  : "the in-labels' waypoints before go round in circles",
                        UINT32_MAX);
        nav__free(a, mark);
        nav__free(a, chain);
    }
    return s;
}

/* Binds a bake of a grid to that grid: its corners, which must be the waypoints. */
static nav_status attach_grid(chunk_reader *c, nav_waypoints *wp, const nav_grid *grid)
{
    if (nav_grid_fingerprint(grid) != wp->fingerprint) {
        nav__logf(c->log, NAV_LOG_ERROR,
                  "WAYPOINTS chunk: the waypoints belong to another grid (baked from grid %016" PRIx64
                  ", this grid is %016" PRIx64 "): bake them again from this grid",
                  wp->fingerprint, nav_grid_fingerprint(grid));
        return NAV_FAILURE | NAV_SOURCE_MISMATCH;
    }
    nav_status s = nav__wp_corners_find(grid, &wp->allocator, &wp->corners);
    if (nav_failed(s)) return s;
    bool same = wp->corners.count == wp->count;
    for (uint32_t i = 0; same && i < wp->count; i++) {
        nav_vec3 p = nav_grid_units_to_world(grid, wp->corners.x[i], wp->corners.y[i]);
        same = p.x == wp->positions[i].x && p.z == wp->positions[i].z;
    }
    if (!same) {
        nav__logf(c->log, NAV_LOG_ERROR, "WAYPOINTS chunk: the waypoints are not the grid's corners");
        return NAV_FAILURE | NAV_CORRUPT_DATA;
    }
    s = nav__wp_sight_build(&wp->corners, wp->pruned, nav__wp_sight_shift(&wp->corners), 0, NULL,
                            &wp->allocator, &wp->sight);
    return nav_failed(s) ? s : nav__wp_corner_info_build(wp, grid, 0);
}

nav_status nav_waypoints_read_chunk(const void *data, size_t size, const nav_grid *grid,
                                    const nav_allocator *allocator, const nav_log *log, nav_waypoints **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!data && size) return NAV_FAILURE | NAV_INVALID_PARAM;
    chunk_reader c = {.log = log};
    nav__allocator_resolve(&c.allocator, allocator);
    nav_reader_init(&c.r, data, size);
    chunk_graph g = {0};
    nav_waypoint_graph graph;
    uint32_t flags = 0;
    uint64_t fingerprint = 0;
    nav_waypoints *wp = NULL;
    nav_status s = read_graph(&c, &g, &graph, &flags, &fingerprint);
    if (nav_succeeded(s)) {
        nav_log forward = {.fn = forward_graph_error, .user = (void *)log};
        s = nav__wp_assemble(&graph, flags & FLAG_LABELS, &c.allocator, log ? &forward : NULL, &wp);
        if (s == (NAV_FAILURE | NAV_INVALID_PARAM)) s = NAV_FAILURE | NAV_CORRUPT_DATA;
    }
    if (nav_succeeded(s) && wp->compressed) {
        s = read_labels(&c, wp, flags & FLAG_SYMMETRIC);
    } else if (nav_succeeded(s)) {
        /* in bulk (the tables are most of the chunk): decoded little-endian, which on a
         * little-endian machine compiles to plain copies */
        size_t cells = (size_t)wp->count * wp->count;
        const uint8_t *d = nav_reader_bytes(&c.r, cells * 4), *h = nav_reader_bytes(&c.r, cells * 2);
        for (size_t i = 0; d && h && i < cells; i++) {
            uint32_t bits = (uint32_t)d[4 * i] | (uint32_t)d[4 * i + 1] << 8 | (uint32_t)d[4 * i + 2] << 16 |
                            (uint32_t)d[4 * i + 3] << 24;
            memcpy(&wp->dist[i], &bits, 4);
            wp->hop[i] = (uint16_t)(h[2 * i] | h[2 * i + 1] << 8);
        }
        nav_reader_align(&c.r, 4);
        if (c.r.status != NAV_SUCCESS || nav_reader_remaining(&c.r))
            s = corrupt(&c, "truncated, or bytes after the tables", UINT32_MAX);
    }
    if (nav_succeeded(s) && !wp->compressed) s = check_tables(&c, wp);
    if (nav_succeeded(s) && flags & FLAG_FROM_GRID) {
        wp->from_grid = true;
        wp->pruned = flags & FLAG_PRUNED;
        wp->fingerprint = fingerprint;
        if (grid) s = attach_grid(&c, wp, grid);
    }
    free_graph(&c.allocator, &g);
    if (nav_failed(s)) {
        nav_waypoints_destroy(wp);
        return s;
    }
    *out = wp;
    return NAV_SUCCESS;
}

/* ---- files ------------------------------------------------------------------------------------ */

nav_status nav_waypoints_save_nav(const nav_grid *grid, const nav_waypoints *wp, const char *path,
                                  const nav_log *log)
{
    if (!wp || !path) return NAV_FAILURE | NAV_INVALID_PARAM;
    if (grid && (!wp->from_grid || nav_grid_fingerprint(grid) != wp->fingerprint)) {
        nav__logf(log, NAV_LOG_ERROR,
                  wp->from_grid
                      ? "%s: cannot save: the waypoints belong to another grid (baked from grid "
                        "%016" PRIx64 ", this grid is %016" PRIx64 "): bake them again from this grid"
                      : "%s: cannot save: the waypoints were not baked from a grid (save them alone)",
                  path, wp->fingerprint, nav_grid_fingerprint(grid));
        return NAV_FAILURE | NAV_SOURCE_MISMATCH;
    }
    nav_writer wp_data;
    nav_writer_init(&wp_data, &wp->allocator);
    nav_status s = nav_waypoints_write_chunk(wp, &wp_data);
    if (nav_succeeded(s))
        s = nav__save_layer_nav(path, grid, NAV_CHUNK_WAYPOINTS, NAV_WAYPOINTS_CHUNK_VERSION, &wp_data,
                                &wp->allocator);
    if (nav_failed(s) && s != (NAV_FAILURE | NAV_OUT_OF_MEMORY))
        nav__logf(log, NAV_LOG_ERROR, "%s: cannot write: %s", path, nav_status_str(s));
    nav_writer_destroy(&wp_data);
    return s;
}

nav_status nav_waypoints_load_nav(const char *path, const nav_allocator *allocator, const nav_log *log,
                                  nav_waypoints **wp, nav_grid **grid)
{
    if (!wp) return NAV_FAILURE | NAV_INVALID_PARAM;
    *wp = NULL;
    if (grid) *grid = NULL;
    if (!path) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav__file_log file_log;
    nav__file_log_init(&file_log, log, path);
    void *bytes;
    const nav_chunk *wp_chunk;
    nav_status s = nav__open_layer_nav(path, allocator, &file_log, NAV_CHUNK_WAYPOINTS, "WAYPOINTS",
                                       NAV_WAYPOINTS_CHUNK_VERSION, &bytes, &wp_chunk, grid);
    if (nav_failed(s)) return s;
    s = nav_waypoints_read_chunk(wp_chunk->data, (size_t)wp_chunk->size, grid ? *grid : NULL, allocator,
                                 &file_log.hooks, wp);
    if (nav_failed(s) && grid) {
        nav_grid_destroy(*grid);
        *grid = NULL;
    }
    nav__close_nav_file(allocator, bytes);
    return s;
}
