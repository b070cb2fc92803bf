/* waypoints/: the bake's tables against a plain Dijkstra of this file's own, hand-made routes,
 * one-way and disabled links, the size limit, bad graphs, the text format and its errors,
 * allocation failures, cancelling, and the same tables at any thread count. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nav/anyangle.h"
#include "nav/io.h"
#include "nav/mesh.h"
#include "nav/waypoints.h"
#include "reference.h"
#include "support.h"
#include "waypoints_internal.h" /* the sight lists' parts, checked against the query's tests */

/* ---- a hand-made graph -------------------------------------------------------------------------
 *
 *   a (0,0) --- b (4,0) --- c (8,0)
 *     \                      |
 *      ------- d (4,3) -----   (d -> c one-way, cost 1)
 *
 * a-b 4, b-c 4, a-d 5 (its length), d->c 1: from a to c the cheapest is a, d, c (6), but from c
 * back to a it is c, b, a (8). */
static const nav_waypoint hand_points[4] = {
    {.position = {0, 0, 0}, .name = "a"},
    {.position = {4, 0, 0}, .name = "b", .tags = 2},
    {.position = {8, 0, 0}, .name = "c"},
    {.position = {4, 0, 3}, .name = "d"},
};
static const nav_waypoint_link hand_links[4] = {
    {.from = 0, .to = 1},
    {.from = 1, .to = 2},
    {.from = 0, .to = 3},
    {.from = 3, .to = 2, .cost = 1, .one_way = true},
};

static nav_waypoints *bake_or_fail(const nav_waypoint_graph *g, const nav_waypoints_bake_desc *d)
{
    nav_waypoints *wp = NULL;
    assert_int_equal(nav_waypoints_bake(g, d, &wp), NAV_SUCCESS);
    assert_non_null(wp);
    return wp;
}

static void test_hand_made_routes(void **state)
{
    (void)state;
    nav_waypoint_graph g = {
        .waypoints = hand_points, .waypoint_count = 4, .links = hand_links, .link_count = 4};
    nav_waypoints *wp = bake_or_fail(&g, NULL);
    assert_int_equal(nav_waypoints_count(wp), 4);
    assert_cost_equal(nav_waypoints_distance(wp, 0, 2), 6, 1e-6);
    assert_cost_equal(nav_waypoints_distance(wp, 2, 0), 8, 1e-6);
    assert_cost_equal(nav_waypoints_distance(wp, 2, 3), 13, 1e-6); /* c, b, a, d */
    assert_cost_equal(nav_waypoints_distance(wp, 1, 1), 0, 0);
    assert_int_equal(nav_waypoints_next_hop(wp, 0, 2), 3);
    assert_int_equal(nav_waypoints_next_hop(wp, 2, 0), 1);
    assert_int_equal(nav_waypoints_next_hop(wp, 1, 1), 1);
    assert_int_equal(nav_waypoints_next_hop(wp, 0, 9), NAV_WAYPOINTS_NONE);
    assert_true(isinf(nav_waypoints_distance(wp, 0, 9)));

    nav_path path;
    nav_path_init(&path, NULL);
    assert_int_equal(nav_waypoints_route(wp, 0, 2, &path), NAV_SUCCESS);
    assert_int_equal(path.count, 3);
    assert_int_equal(path.nodes[0], 0);
    assert_int_equal(path.nodes[1], 3);
    assert_int_equal(path.nodes[2], 2);
    assert_cost_equal(path.points[1].z, 3, 0);
    assert_cost_equal(path.cost, 6, 1e-12);
    assert_int_equal(nav_waypoints_route(wp, 2, 3, &path), NAV_SUCCESS);
    assert_int_equal(path.count, 4);
    assert_int_equal(path.nodes[1], 1);
    assert_int_equal(path.nodes[2], 0);
    assert_cost_equal(path.cost, 13, 1e-12);
    assert_int_equal(nav_waypoints_route(wp, 1, 1, &path), NAV_SUCCESS);
    assert_int_equal(path.count, 1);
    assert_cost_equal(path.cost, 0, 0);
    FAILS_WITH(nav_waypoints_route(wp, 0, 4, &path), NAV_INVALID_PARAM);
    assert_int_equal(path.count, 0);

    assert_int_equal(nav_waypoints_find(wp, "d"), 3);
    assert_int_equal(nav_waypoints_find(wp, "e"), NAV_WAYPOINTS_NONE);
    assert_string_equal(nav_waypoints_name(wp, 1), "b");
    assert_int_equal(nav_waypoints_tags(wp, 1), 2);
    assert_cost_equal(nav_waypoints_position(wp, 3).z, 3, 0);
    /* tables: 16 pairs of 6 bytes, plus the rest */
    assert_true(nav_waypoints_memory_bytes(wp) > 16 * 6);
    nav_path_destroy(&path);
    nav_waypoints_destroy(wp);
}

/* Disabled links are left out; a waypoint nobody links to is unreachable; parallel links take the
 * cheaper. */
static void test_disabled_unreachable_parallel(void **state)
{
    (void)state;
    nav_waypoint points[4] = {
        {.position = {0, 0, 0}}, {.position = {1, 0, 0}}, {.position = {2, 0, 0}}, {.position = {9, 9, 9}}};
    nav_waypoint_link links[4] = {
        {.from = 0, .to = 1, .cost = 5},
        {.from = 0, .to = 1, .cost = 2},
        {.from = 1, .to = 2, .cost = 1, .disabled = true},
        {.from = 0, .to = 2, .cost = 7},
    };
    nav_waypoint_graph g = {.waypoints = points, .waypoint_count = 4, .links = links, .link_count = 4};
    nav_waypoints *wp = bake_or_fail(&g, NULL);
    assert_cost_equal(nav_waypoints_distance(wp, 1, 0), 2, 0);
    assert_cost_equal(nav_waypoints_distance(wp, 1, 2), 9, 1e-6); /* 1, 0, 2: the short link is off */
    assert_true(isinf(nav_waypoints_distance(wp, 0, 3)));
    assert_string_equal(nav_waypoints_name(wp, 0), "");
    nav_path path;
    nav_path_init(&path, NULL);
    FAILS_WITH(nav_waypoints_route(wp, 0, 3, &path), NAV_UNREACHABLE);
    assert_int_equal(path.count, 0);
    assert_int_equal(nav_waypoints_route(wp, 1, 2, &path), NAV_SUCCESS);
    assert_cost_equal(path.cost, 9, 0);
    nav_path_destroy(&path);
    nav_waypoints_destroy(wp);
}

/* ---- against a plain Dijkstra on random graphs ------------------------------------------------- */

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

typedef struct random_graph {
    nav_waypoint *points;
    nav_waypoint_link *links;
    nav_waypoint_graph g;
} random_graph;

/* n waypoints in a 100 x 100 square, m links between random pairs: a third one-way, a tenth with a
 * cost of their own, a twentieth disabled; small integer coordinates make equal-cost ties common. */
static random_graph make_random(uint32_t n, uint32_t m, uint64_t seed)
{
    random_graph r;
    r.points = calloc(n, sizeof *r.points);
    r.links = calloc(m, sizeof *r.links);
    for (uint32_t i = 0; i < n; i++)
        r.points[i].position =
            (nav_vec3){(float)(next_random(&seed) % 20), 0, (float)(next_random(&seed) % 20)};
    for (uint32_t i = 0; i < m; i++) {
        nav_waypoint_link *l = &r.links[i];
        l->from = (uint32_t)(next_random(&seed) % n);
        l->to = (uint32_t)(next_random(&seed) % n);
        l->one_way = next_random(&seed) % 3 == 0;
        l->disabled = next_random(&seed) % 20 == 0;
        uint64_t pick = next_random(&seed) % 10;
        nav_vec3 a = r.points[l->from].position, b = r.points[l->to].position;
        if (pick == 0 || (a.x == b.x && a.z == b.z)) l->cost = 1 + (double)(next_random(&seed) % 50) / 7;
    }
    r.g = (nav_waypoint_graph){.waypoints = r.points, .waypoint_count = n, .links = r.links, .link_count = m};
    return r;
}

static void free_random(random_graph *r)
{
    free(r->points);
    free(r->links);
}

static double link_cost_of(const nav_waypoint_graph *g, const nav_waypoint_link *l)
{
    if (l->cost > 0) return l->cost;
    nav_vec3 a = g->waypoints[l->from].position, b = g->waypoints[l->to].position;
    double dx = (double)b.x - a.x, dy = (double)b.y - a.y, dz = (double)b.z - a.z;
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* This file's own reading of a filter [opt] (null: the bake's view, every enabled link open). */
static bool ref_link_open(const nav_waypoint_graph *g, const nav_waypoints_filter *f, uint32_t i)
{
    const nav_waypoint_link *l = &g->links[i];
    if (!f) return !l->disabled;
    if (l->disabled && !f->open_disabled) return false;
    if (l->flags & f->exclude_link_flags) return false;
    return !(f->closed_links && f->closed_links[i]);
}

static bool ref_point_open(const nav_waypoint_graph *g, const nav_waypoints_filter *f, uint32_t v)
{
    if (!f) return true;
    if (g->waypoints[v].tags & f->exclude_tags) return false;
    return !(f->closed_waypoints && f->closed_waypoints[v]);
}

/* O(n^2) Dijkstra over the link list: the reference distances from source under the filter [opt]. */
static void reference_dijkstra(const nav_waypoint_graph *g, const nav_waypoints_filter *f, uint32_t source,
                               double *dist)
{
    uint32_t n = g->waypoint_count;
    char *done = calloc(n, 1);
    for (uint32_t v = 0; v < n; v++) dist[v] = INFINITY;
    if (ref_point_open(g, f, source)) dist[source] = 0;
    for (;;) {
        uint32_t u = n;
        for (uint32_t v = 0; v < n; v++)
            if (!done[v] && dist[v] < INFINITY && (u == n || dist[v] < dist[u])) u = v;
        if (u == n) break;
        done[u] = 1;
        for (uint32_t i = 0; i < g->link_count; i++) {
            const nav_waypoint_link *l = &g->links[i];
            if (!ref_link_open(g, f, i)) continue;
            double c = link_cost_of(g, l);
            if (l->from == u && ref_point_open(g, f, l->to) && dist[u] + c < dist[l->to])
                dist[l->to] = dist[u] + c;
            if (!l->one_way && l->to == u && ref_point_open(g, f, l->from) && dist[u] + c < dist[l->from])
                dist[l->from] = dist[u] + c;
        }
    }
    free(done);
}

/* Whether some link the filter [opt] leaves open goes from u to v; *cheapest its cost. */
static bool has_link(const nav_waypoint_graph *g, const nav_waypoints_filter *f, uint32_t u, uint32_t v,
                     double *cheapest)
{
    *cheapest = INFINITY;
    for (uint32_t i = 0; i < g->link_count; i++) {
        const nav_waypoint_link *l = &g->links[i];
        if (!ref_link_open(g, f, i) || l->from == l->to) continue;
        if ((l->from == u && l->to == v) || (!l->one_way && l->from == v && l->to == u)) {
            double c = link_cost_of(g, l);
            if (c < *cheapest) *cheapest = c;
        }
    }
    return *cheapest < INFINITY;
}

/* A route in path from s to t: made of links the filter [opt] leaves open between open waypoints,
 * and costing what they cost (to 1e-9). Returns its cost. */
static double check_route(const nav_waypoint_graph *g, const nav_waypoints_filter *f, const nav_path *path,
                          uint32_t s, uint32_t t)
{
    assert_true(path->count >= 1);
    assert_int_equal(path->nodes[0], s);
    assert_int_equal(path->nodes[path->count - 1], t);
    double sum = 0, c;
    for (uint32_t i = 0; i < path->count; i++) {
        assert_true(ref_point_open(g, f, path->nodes[i]));
        if (i + 1 == path->count) break;
        assert_true(has_link(g, f, path->nodes[i], path->nodes[i + 1], &c));
        sum += c;
    }
    assert_true(fabs(sum - path->cost) <= 1e-9 * (sum > 1 ? sum : 1));
    return sum;
}

static void test_tables_against_dijkstra(void **state)
{
    (void)state;
    const uint32_t sizes[][2] = {{1, 0}, {2, 1}, {12, 30}, {40, 60}, {60, 240}, {150, 400}};
    nav_path path;
    nav_path_init(&path, NULL);
    for (size_t k = 0; k < 2 * sizeof sizes / sizeof sizes[0]; k++) {
        /* plain tables, then hub labels (dense_max 1) */
        bool compressed = k >= sizeof sizes / sizeof sizes[0];
        uint32_t n = sizes[k % 6][0], m = sizes[k % 6][1];
        random_graph r = make_random(n, m, 0x9e3779b97f4a7c15ull + k % 6);
        nav_waypoints *wp =
            bake_or_fail(&r.g, &(nav_waypoints_bake_desc){.threads = 2, .dense_max = compressed ? 1 : 0});
        assert_int_equal(nav_waypoints_compressed(wp), compressed && n > 1);
        double *dist = calloc(n, sizeof *dist);
        for (uint32_t s = 0; s < n; s++) {
            reference_dijkstra(&r.g, NULL, s, dist);
            for (uint32_t t = 0; t < n; t++) {
                double table = nav_waypoints_distance(wp, s, t);
                if (isinf(dist[t])) {
                    assert_true(isinf(table));
                    assert_int_equal(nav_waypoints_next_hop(wp, s, t), NAV_WAYPOINTS_NONE);
                    FAILS_WITH(nav_waypoints_route(wp, s, t, &path), NAV_UNREACHABLE);
                    continue;
                }
                assert_true(fabs(table - dist[t]) <= 1e-6 * (dist[t] > 1 ? dist[t] : 1));
                /* the route: made of existing links, and exactly as long as the reference */
                assert_int_equal(nav_waypoints_route(wp, s, t, &path), NAV_SUCCESS);
                assert_int_equal(path.nodes[0], s);
                assert_int_equal(path.nodes[path.count - 1], t);
                check_route(&r.g, NULL, &path, s, t);
                assert_true(fabs(path.cost - dist[t]) <= 1e-9 * (dist[t] > 1 ? dist[t] : 1));
            }
        }
        free(dist);
        nav_waypoints_destroy(wp);
        free_random(&r);
    }
    nav_path_destroy(&path);
}

static void write_chunk(const nav_waypoints *wp, nav_writer *w)
{
    nav_writer_init(w, NULL);
    assert_int_equal(nav_waypoints_write_chunk(wp, w), NAV_SUCCESS);
}

/* The same tables at 1, 2 and 5 threads (ties included: integer coordinates); hub labels the same
 * bytes at 1 and 8 threads, their distances the tables' and their first moves on routes as short. */
static void test_same_tables_any_thread_count(void **state)
{
    (void)state;
    random_graph r = make_random(200, 700, 77);
    nav_waypoints *one = bake_or_fail(&r.g, &(nav_waypoints_bake_desc){.threads = 1});
    for (uint32_t threads = 2; threads <= 5; threads += 3) {
        nav_waypoints *many = bake_or_fail(&r.g, &(nav_waypoints_bake_desc){.threads = threads});
        for (uint32_t s = 0; s < 200; s++)
            for (uint32_t t = 0; t < 200; t++) {
                assert_int_equal(nav_waypoints_next_hop(one, s, t), nav_waypoints_next_hop(many, s, t));
                double a = nav_waypoints_distance(one, s, t), b = nav_waypoints_distance(many, s, t);
                assert_true(a == b || (isinf(a) && isinf(b)));
            }
        nav_waypoints_destroy(many);
    }
    nav_waypoints *labels[2];
    nav_writer w[2];
    for (int k = 0; k < 2; k++) {
        labels[k] = bake_or_fail(&r.g, &(nav_waypoints_bake_desc){.threads = k ? 8 : 1, .dense_max = 1});
        assert_true(nav_waypoints_compressed(labels[k]));
        write_chunk(labels[k], &w[k]);
    }
    assert_int_equal(w[0].size, w[1].size);
    assert_memory_equal(w[0].data, w[1].data, w[0].size);
    for (uint32_t s = 0; s < 200; s++)
        for (uint32_t t = 0; t < 200; t++) {
            double a = nav_waypoints_distance(one, s, t), b = nav_waypoints_distance(labels[0], s, t);
            assert_true(fabs(a - b) <= 1e-6 * (a > 1 ? a : 1) || (isinf(a) && isinf(b)));
            uint32_t hop = nav_waypoints_next_hop(labels[0], s, t);
            if (isinf(a) || s == t) continue;
            double cheapest = INFINITY; /* the first move is a link, and a shortest route goes on from it */
            for (uint32_t i = 0; i < nav_waypoints_link_count(labels[0]); i++) {
                nav_waypoint_link l;
                nav_waypoints_link(labels[0], i, &l);
                if (!l.disabled &&
                    ((l.from == s && l.to == hop) || (!l.one_way && l.to == s && l.from == hop)))
                    cheapest = fmin(cheapest, l.cost);
            }
            assert_true(fabs(cheapest + nav_waypoints_distance(one, hop, t) - a) <= 1e-6 * (a > 1 ? a : 1));
        }
    for (int k = 0; k < 2; k++) {
        nav_writer_destroy(&w[k]);
        nav_waypoints_destroy(labels[k]);
    }
    nav_waypoints_destroy(one);
    free_random(&r);
}

/* ---- hub labels on roads and lattices ---------------------------------------------------------- */

/* Under AddressSanitizer the largest graphs take minutes: it bakes smaller ones of the same kind. */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

/* Entries in all of a hub-label bake's labels (one list a waypoint on a symmetric graph, else
 * both), and the most in one. */
static double label_entries(const nav_waypoints *wp, uint32_t *longest)
{
    double entries = 0;
    *longest = 0;
    for (int side = 0; side < (wp->symmetric ? 1 : 2); side++)
        for (uint32_t v = 0; v < wp->count; v++) {
            uint32_t size = wp->label_first[side][v + 1] - wp->label_first[side][v];
            entries += size;
            if (size > *longest) *longest = size;
        }
    return entries;
}

/* A road: the documented maximum of waypoints in a chain (a smaller one under the sanitizer), links
 * 1 to 9 long, numbered in a scrambled order along the road. Labels stay a few dozen entries (they
 * grew with the chain's length: 5,000 waypoints 342 entries a label, 16,384 1,062, and 65,535 did
 * not bake in minutes), and sampled distances and routes are the road's own. */
static void test_labels_on_a_road(void **state)
{
    (void)state;
    const uint32_t n = SANITIZED ? 16384 : NAV_WAYPOINTS_LIMIT, scramble = 7919; /* odd, prime to n */
    nav_waypoint *points = calloc(n, sizeof *points);
    nav_waypoint_link *links = calloc(n - 1, sizeof *links);
    uint32_t *at = calloc(n, sizeof *at); /* the waypoint at each place along the road */
    double *along = calloc(n, sizeof *along);
    uint64_t seed = 0x2545f4914f6cdd1dull;
    for (uint32_t p = 0; p < n; p++) {
        at[p] = (uint32_t)((uint64_t)p * scramble % n);
        along[p] = p ? along[p - 1] + (double)(1 + next_random(&seed) % 9) : 0;
        points[at[p]].position = (nav_vec3){(float)along[p], 0, 0};
        if (p) links[p - 1] = (nav_waypoint_link){.from = at[p - 1], .to = at[p]};
    }
    nav_waypoint_graph g = {.waypoints = points, .waypoint_count = n, .links = links, .link_count = n - 1};
    nav_waypoints *wp = bake_or_fail(&g, &(nav_waypoints_bake_desc){.threads = 2});
    assert_true(nav_waypoints_compressed(wp));
    assert_true(wp->symmetric);
    uint32_t longest;
    double mean = label_entries(wp, &longest) / n;
    print_message("road of %u waypoints: %.2f label entries a waypoint, %u at most\n", n, mean, longest);
    assert_true(mean < 32);
    assert_true(longest < 64);

    uint32_t *place = calloc(n, sizeof *place);
    for (uint32_t p = 0; p < n; p++) place[at[p]] = p;
    nav_path path;
    nav_path_init(&path, NULL);
    for (uint32_t i = 0; i < 3000; i++) {
        uint32_t p = (uint32_t)(next_random(&seed) % n), q = (uint32_t)(next_random(&seed) % n);
        if (i == 0) p = 0, q = n - 1; /* end to end */
        double d = fabs(along[q] - along[p]);
        assert_true(fabs(nav_waypoints_distance(wp, at[p], at[q]) - d) <= 1e-6 * (d > 1 ? d : 1));
        if (p != q) assert_int_equal(place[nav_waypoints_next_hop(wp, at[p], at[q])], p < q ? p + 1 : p - 1);
        if (i % 10) continue; /* every tenth pair walked: each place along the road in turn */
        assert_int_equal(nav_waypoints_route(wp, at[p], at[q], &path), NAV_SUCCESS);
        assert_int_equal(path.count, (p < q ? q - p : p - q) + 1);
        for (uint32_t k = 0; k < path.count; k++)
            assert_int_equal(place[path.nodes[k]], p < q ? p + k : p - k);
        assert_true(fabs(path.cost - d) <= 1e-9 * (d > 1 ? d : 1));
    }
    nav_path_destroy(&path);
    nav_waypoints_destroy(wp);
    free(place);
    free(points);
    free(links);
    free(at);
    free(along);
}

/* A lattice of w x h waypoints a unit apart, each joined to the next in its row and column, every
 * link two-way unless one_way_every (then every one_way_every-th one-way); link costs 1, or with
 * seed [opt] drawn from 1 to 2. */
static random_graph make_lattice(uint32_t w, uint32_t h, uint64_t *seed, uint32_t one_way_every)
{
    random_graph r;
    uint32_t n = w * h, m = 0;
    r.points = calloc(n, sizeof *r.points);
    r.links = calloc(2 * (size_t)n, sizeof *r.links);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint32_t i = y * w + x;
            r.points[i].position = (nav_vec3){(float)x, 0, (float)y};
            for (int k = 0; k < 2; k++) {
                if (k == 0 ? x + 1 == w : y + 1 == h) continue;
                nav_waypoint_link *l = &r.links[m++];
                *l = (nav_waypoint_link){.from = i, .to = k == 0 ? i + 1 : i + w};
                if (seed) l->cost = 1 + (double)(next_random(seed) % 1024) / 1024;
                if (one_way_every && m % one_way_every == 0) l->one_way = true;
            }
        }
    r.g = (nav_waypoint_graph){.waypoints = r.points, .waypoint_count = n, .links = r.links, .link_count = m};
    return r;
}

/* A lattice of nearly the documented maximum (256 x 255 = 65,280: 256 x 256 is one too many; 128 x
 * 128 under the sanitizer), every link of length 1, so that most pairs have many shortest routes.
 * Labels stay small (the order by one sample gave 128 x 128 1,421 entries a label, 97 s of bake),
 * and sampled distances are the Manhattan distance, routes steps to a neighbour. */
static void test_labels_on_a_lattice(void **state)
{
    (void)state;
    const uint32_t w = SANITIZED ? 128 : 256, h = SANITIZED ? 128 : 255, n = w * h;
    random_graph r = make_lattice(w, h, NULL, 0);
    nav_waypoints *wp = bake_or_fail(&r.g, &(nav_waypoints_bake_desc){.threads = 2});
    assert_true(nav_waypoints_compressed(wp));
    uint32_t longest;
    double mean = label_entries(wp, &longest) / n;
    print_message("lattice of %u x %u: %.2f label entries a waypoint, %u at most\n", w, h, mean, longest);
    assert_true(mean < 128);
    assert_true(longest < 256);
    nav_path path;
    nav_path_init(&path, NULL);
    uint64_t seed = 77;
    for (uint32_t i = 0; i < 3000; i++) {
        uint32_t s = (uint32_t)(next_random(&seed) % n), t = (uint32_t)(next_random(&seed) % n);
        if (i == 0) s = 0, t = n - 1; /* corner to corner */
        double d = fabs((double)(s % w) - (double)(t % w)) + fabs((double)(s / w) - (double)(t / w));
        assert_true(nav_waypoints_distance(wp, s, t) == d); /* small integers: exact in floats */
        if (i % 10) continue;
        assert_int_equal(nav_waypoints_route(wp, s, t, &path), NAV_SUCCESS);
        assert_int_equal(path.count, (uint32_t)d + 1);
        assert_true(path.cost == d);
        for (uint32_t k = 0; k + 1 < path.count; k++) {
            uint32_t u = path.nodes[k], v = path.nodes[k + 1];
            assert_true(u + 1 == v || v + 1 == u || u + w == v || v + w == u);
            assert_true(u / w == v / w || u % w == v % w); /* not round a row's end */
        }
    }
    nav_path_destroy(&path);
    nav_waypoints_destroy(wp);
    free_random(&r);
}

/* Hub labels of a lattice with link costs of 1 to 2 and every seventh link one-way (in- and
 * out-labels, several rounds of the hub order): every distance from a few sources as this file's
 * Dijkstra finds them, and a quarter of the routes, and the same bytes at 1, 2 and 5 threads. */
static void test_labels_on_a_one_way_lattice(void **state)
{
    (void)state;
    uint64_t seed = 5;
    random_graph r = make_lattice(48, 40, &seed, 7);
    uint32_t n = r.g.waypoint_count;
    nav_writer w[3];
    nav_waypoints *wp[3];
    for (int k = 0; k < 3; k++) {
        wp[k] = bake_or_fail(
            &r.g, &(nav_waypoints_bake_desc){.threads = k ? 3 * (uint32_t)k - 1 : 1, .dense_max = 1});
        assert_true(nav_waypoints_compressed(wp[k]));
        write_chunk(wp[k], &w[k]);
        if (!k) continue;
        assert_int_equal(w[k].size, w[0].size);
        assert_memory_equal(w[k].data, w[0].data, w[0].size);
    }
    assert_false(wp[0]->symmetric);
    double *dist = calloc(n, sizeof *dist);
    nav_path path;
    nav_path_init(&path, NULL);
    for (uint32_t s = 0; s < n; s += 383) {
        reference_dijkstra(&r.g, NULL, s, dist);
        for (uint32_t t = 0; t < n; t++) {
            double table = nav_waypoints_distance(wp[0], s, t);
            if (isinf(dist[t])) {
                assert_true(isinf(table));
                continue;
            }
            assert_true(fabs(table - dist[t]) <= 1e-6 * (dist[t] > 1 ? dist[t] : 1));
            if (t % 4) continue; /* a quarter of the routes walked (check_route reads every link a step) */
            assert_int_equal(nav_waypoints_route(wp[0], s, t, &path), NAV_SUCCESS);
            check_route(&r.g, NULL, &path, s, t);
            assert_true(fabs(path.cost - dist[t]) <= 1e-9 * (dist[t] > 1 ? dist[t] : 1));
        }
    }
    nav_path_destroy(&path);
    free(dist);
    for (int k = 0; k < 3; k++) {
        nav_writer_destroy(&w[k]);
        nav_waypoints_destroy(wp[k]);
    }
    free_random(&r);
}

/* ---- filtered routes ---------------------------------------------------------------------------- */

/* Routes under random filters against this file's Dijkstra over the filtered link list, by each
 * method; which way the query went (the table, A*, Dijkstra) as the filter implies. */
static void test_filtered_routes(void **state)
{
    (void)state;
    const uint32_t sizes[][2] = {{2, 1}, {30, 70}, {120, 400}, {250, 900}};
    nav_path path;
    nav_path_init(&path, NULL);
    uint64_t seed = 0x5bd1e995;
    for (size_t k = 0; k < 2 * sizeof sizes / sizeof sizes[0]; k++) {
        bool compressed = k >= sizeof sizes / sizeof sizes[0]; /* A* by the hub labels' distances */
        uint32_t n = sizes[k % 4][0], m = sizes[k % 4][1];
        random_graph r = make_random(n, m, 0xabcdef12u + k % 4);
        bool any_disabled = false;
        for (uint32_t i = 0; i < m; i++) {
            r.links[i].flags = (uint16_t)(next_random(&seed) % 8);
            any_disabled |= r.links[i].disabled && r.links[i].from != r.links[i].to;
        }
        for (uint32_t i = 0; i < n; i++) r.points[i].tags = (uint32_t)(next_random(&seed) % 16 == 0);
        nav_waypoints *wp = bake_or_fail(&r.g, &(nav_waypoints_bake_desc){.dense_max = compressed ? 1 : 0});
        nav_waypoints_query *q = NULL;
        assert_int_equal(nav_waypoints_query_create(wp, NULL, &q), NAV_SUCCESS);
        uint8_t *closed_links = calloc(m ? m : 1, 1), *closed_points = calloc(n, 1);
        double *dist = calloc(n, sizeof *dist);
        for (int trial = 0; trial < 6; trial++) {
            nav_waypoints_filter f = {0};
            switch (trial) {
            case 0: /* nothing closed */
                break;
            case 1:
                f.exclude_link_flags = (uint16_t)(1u << (k % 3));
                break;
            case 2:
                f.exclude_tags = 1;
                break;
            case 3: /* a tenth of the links and a twentieth of the waypoints */
                for (uint32_t i = 0; i < m; i++) closed_links[i] = next_random(&seed) % 10 == 0;
                for (uint32_t i = 0; i < n; i++) closed_points[i] = next_random(&seed) % 20 == 0;
                f.closed_links = closed_links;
                f.closed_waypoints = closed_points;
                break;
            case 4:
                f.open_disabled = true;
                break;
            default:
                f.open_disabled = true;
                f.exclude_link_flags = 4;
                f.closed_links = closed_links;
                break;
            }
            for (uint32_t s = 0; s<n; s += n> 60 ? 7 : 1) {
                reference_dijkstra(&r.g, &f, s, dist);
                for (uint32_t t = 0; t < n; t++) {
                    for (int method = NAV_WAYPOINTS_AUTO; method <= NAV_WAYPOINTS_DIJKSTRA; method++) {
                        f.method = (nav_waypoints_method)method;
                        nav_waypoints_route_result res;
                        nav_status st = nav_waypoints_query_route(q, s, t, &f, &path, &res);
                        if (isinf(dist[t])) {
                            assert_int_equal(st, NAV_FAILURE | NAV_UNREACHABLE);
                            assert_int_equal(path.count, 0);
                            continue;
                        }
                        assert_int_equal(st, NAV_SUCCESS);
                        double cost = check_route(&r.g, &f, &path, s, t);
                        assert_true(fabs(cost - dist[t]) <= 1e-9 * (dist[t] > 1 ? dist[t] : 1));
                        assert_true(res.cost == path.cost);
                        bool opened = f.open_disabled && any_disabled;
                        if (method != NAV_WAYPOINTS_AUTO) assert_true(res.searched);
                        if (res.searched)
                            assert_true(res.heuristic == (!opened && method != NAV_WAYPOINTS_DIJKSTRA));
                        if (method == NAV_WAYPOINTS_AUTO && trial == 0) assert_false(res.searched);
                    }
                }
            }
        }
        /* no filter: the table's route; indices out of range */
        reference_dijkstra(&r.g, NULL, 0, dist);
        nav_waypoints_route_result res;
        if (dist[n - 1] < INFINITY) {
            assert_int_equal(nav_waypoints_query_route(q, 0, n - 1, NULL, &path, &res), NAV_SUCCESS);
            assert_false(res.searched);
        }
        FAILS_WITH(nav_waypoints_query_route(q, n, 0, NULL, &path, &res), NAV_INVALID_PARAM);
        FAILS_WITH(nav_waypoints_query_route(q, 0, n, NULL, &path, NULL), NAV_INVALID_PARAM);
        FAILS_WITH(nav_waypoints_query_route(q, 0, 0, NULL, NULL, NULL), NAV_INVALID_PARAM);
        free(dist);
        free(closed_links);
        free(closed_points);
        nav_waypoints_query_destroy(q);
        nav_waypoints_destroy(wp);
        free_random(&r);
    }
    nav_path_destroy(&path);
}

/* A filter that closes the hand-made graph's shortcut: from a to c the route goes round by b. */
static void test_filter_closes_a_door(void **state)
{
    (void)state;
    nav_waypoint_graph g = {
        .waypoints = hand_points, .waypoint_count = 4, .links = hand_links, .link_count = 4};
    nav_waypoints *wp = bake_or_fail(&g, NULL);
    nav_waypoints_query *q = NULL;
    assert_int_equal(nav_waypoints_query_create(wp, NULL, &q), NAV_SUCCESS);
    nav_path path;
    nav_path_init(&path, NULL);
    uint32_t a = nav_waypoints_find(wp, "a"), c = nav_waypoints_find(wp, "c"),
             d = nav_waypoints_find(wp, "d");
    nav_waypoints_route_result res;
    assert_int_equal(nav_waypoints_query_route(q, a, c, NULL, &path, &res), NAV_SUCCESS);
    assert_true(fabs(res.cost - 6) < 1e-12 && !res.searched && path.count == 3);
    uint8_t closed[4] = {0};
    closed[d] = 1;
    nav_waypoints_filter f = {.closed_waypoints = closed};
    assert_int_equal(nav_waypoints_query_route(q, a, c, &f, &path, &res), NAV_SUCCESS);
    assert_true(fabs(res.cost - 8) < 1e-12 && res.searched && res.heuristic && path.count == 3);
    assert_int_equal(path.nodes[1], nav_waypoints_find(wp, "b"));
    FAILS_WITH(nav_waypoints_query_route(q, a, d, &f, &path, &res), NAV_UNREACHABLE);
    FAILS_WITH(nav_waypoints_query_route(q, d, d, &f, &path, &res), NAV_UNREACHABLE);
    assert_int_equal(nav_waypoints_query_route(q, c, c, &f, &path, &res), NAV_SUCCESS);
    assert_true(path.count == 1 && res.cost == 0);
    nav_path_destroy(&path);
    nav_waypoints_query_destroy(q);
    nav_waypoints_destroy(wp);
}

/* ---- nearest waypoints -------------------------------------------------------------------------- */

static double squared(nav_vec3 a, nav_vec3 b)
{
    double dx = (double)a.x - b.x, dy = (double)a.y - b.y, dz = (double)a.z - b.z;
    return dx * dx + dy * dy + dz * dz;
}

/* Every third waypoint, for the accept hook. */
static bool every_third(void *user, uint32_t waypoint)
{
    (*(int *)user)++;
    return waypoint % 3 == 0;
}

/* The nearest waypoint by brute force: the least distance, then the least index, among those
 * within max (0: any) that the filter [opt] leaves open and, with `third`, every third. */
static uint32_t brute_nearest(const nav_waypoint_graph *g, nav_vec3 p, double max,
                              const nav_waypoints_filter *f, bool third)
{
    uint32_t best = NAV_WAYPOINTS_NONE;
    double best2 = max > 0 ? max * max : INFINITY;
    for (uint32_t i = 0; i < g->waypoint_count; i++) {
        if (!ref_point_open(g, f, i) || (third && i % 3)) continue;
        double d2 = squared(p, g->waypoints[i].position);
        if (d2 < best2 || (d2 == best2 && best == NAV_WAYPOINTS_NONE)) best2 = d2, best = i;
    }
    return best;
}

/* Nearest waypoints against brute force on random sets (integer coordinates: many ties, points on
 * top of each other, points in a plane), with limits, filters and an accept hook. */
static void test_nearest_against_brute_force(void **state)
{
    (void)state;
    uint64_t seed = 0x243f6a8885a308d3ull;
    const uint32_t sizes[] = {1, 2, 3, 7, 64, 100, 513, 2000};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        uint32_t n = sizes[k], span = k % 2 ? 8 : 1000;
        random_graph r = make_random(n, 0, seed + k);
        for (uint32_t i = 0; i < n; i++) {
            r.points[i].position =
                (nav_vec3){(float)(next_random(&seed) % span), k % 3 ? (float)(next_random(&seed) % span) : 0,
                           (float)(next_random(&seed) % span)};
            r.points[i].tags = next_random(&seed) % 4 == 0;
        }
        nav_waypoints *wp = bake_or_fail(&r.g, NULL);
        nav_waypoints_query *q = NULL;
        assert_int_equal(nav_waypoints_query_create(wp, NULL, &q), NAV_SUCCESS);
        nav_waypoints_filter f = {.exclude_tags = 1};
        for (int trial = 0; trial < 400; trial++) {
            nav_vec3 p =
                trial % 5 == 0
                    ? r.points[next_random(&seed) % n].position
                    : (nav_vec3){(float)(next_random(&seed) % (span + 4)) - 2.0f + 0.5f * (trial % 2),
                                 (float)(next_random(&seed) % (span + 4)) - 2.0f,
                                 (float)(next_random(&seed) % (span + 4)) - 2.0f};
            double max = trial % 4 == 0 ? (double)(next_random(&seed) % (span / 2 + 2)) : 0, d = -1;
            uint32_t want = brute_nearest(&r.g, p, max, NULL, false);
            assert_int_equal(nav_waypoints_nearest(wp, p, max, &d), want);
            if (want == NAV_WAYPOINTS_NONE)
                assert_true(isinf(d));
            else
                assert_true(d == sqrt(squared(p, r.points[want].position)));
            /* the query object's, plain and with a filter and the hook */
            uint32_t got;
            nav_waypoints_nearest_desc nd = {.max_distance = max};
            nav_status st = nav_waypoints_query_nearest(q, p, &nd, &got, &d);
            assert_int_equal(st, want == NAV_WAYPOINTS_NONE ? (NAV_FAILURE | NAV_UNREACHABLE) : NAV_SUCCESS);
            assert_int_equal(got, want);
            int calls = 0;
            nd.filter = &f;
            nd.accept = every_third;
            nd.user = &calls;
            want = brute_nearest(&r.g, p, max, &f, true);
            st = nav_waypoints_query_nearest(q, p, &nd, &got, &d);
            assert_int_equal(st, want == NAV_WAYPOINTS_NONE ? (NAV_FAILURE | NAV_UNREACHABLE) : NAV_SUCCESS);
            assert_int_equal(got, want);
            if (want != NAV_WAYPOINTS_NONE) assert_true(d == sqrt(squared(p, r.points[want].position)));
            assert_true(calls <= (int)n);
        }
        /* bad input */
        uint32_t got;
        nav_vec3 nan_point = {NAN, 0, 0};
        assert_int_equal(nav_waypoints_nearest(wp, nan_point, 0, NULL), NAV_WAYPOINTS_NONE);
        assert_int_equal(nav_waypoints_nearest(NULL, (nav_vec3){0, 0, 0}, 0, NULL), NAV_WAYPOINTS_NONE);
        FAILS_WITH(nav_waypoints_query_nearest(q, nan_point, NULL, &got, NULL), NAV_INVALID_PARAM);
        assert_int_equal(got, NAV_WAYPOINTS_NONE);
        FAILS_WITH(nav_waypoints_query_nearest(q, (nav_vec3){0, 0, 0}, NULL, NULL, NULL), NAV_INVALID_PARAM);
        FAILS_WITH(nav_waypoints_query_nearest(q, (nav_vec3){0, 0, 0},
                                               &(nav_waypoints_nearest_desc){.visible = true}, &got, NULL),
                   NAV_INVALID_PARAM);
        nav_waypoints_query_destroy(q);
        nav_waypoints_destroy(wp);
        free_random(&r);
    }
}

/* ---- limits and bad graphs --------------------------------------------------------------------- */

static void test_size_limit(void **state)
{
    (void)state;
    random_graph r = make_random(11, 20, 5);
    nav_waypoints *wp = NULL;
    test_log log;
    test_log_init(&log);
    FAILS_WITH(
        nav_waypoints_bake(&r.g, &(nav_waypoints_bake_desc){.max_waypoints = 10, .log = &log.hooks}, &wp),
        NAV_TOO_LARGE);
    assert_null(wp);
    assert_non_null(strstr(log.last, "11 waypoints, more than the limit of 10"));
    assert_int_equal(nav_waypoints_bake(&r.g, &(nav_waypoints_bake_desc){.max_waypoints = 11}, &wp),
                     NAV_SUCCESS);
    nav_waypoints_destroy(wp);
    free_random(&r);
    /* past NAV_WAYPOINTS_LIMIT whatever max_waypoints says (refused before any table is made) */
    nav_waypoint_graph big = {
        .waypoints = hand_points, .waypoint_count = NAV_WAYPOINTS_LIMIT + 1, .links = NULL, .link_count = 0};
    FAILS_WITH(nav_waypoints_bake(&big, &(nav_waypoints_bake_desc){.max_waypoints = UINT32_MAX}, &wp),
               NAV_TOO_LARGE);
}

static void expect_invalid(const nav_waypoint *points, uint32_t n, const nav_waypoint_link *links, uint32_t m,
                           const char *message)
{
    nav_waypoint_graph g = {.waypoints = points, .waypoint_count = n, .links = links, .link_count = m};
    nav_waypoints *wp = NULL;
    test_log log;
    test_log_init(&log);
    FAILS_WITH(nav_waypoints_bake(&g, &(nav_waypoints_bake_desc){.log = &log.hooks}, &wp), NAV_INVALID_PARAM);
    assert_null(wp);
    if (!strstr(log.last, message)) fail_msg("expected '%s', got '%s'", message, log.last);
}

static void test_bad_graphs(void **state)
{
    (void)state;
    nav_waypoint p[3] = {
        {.position = {0, 0, 0}, .name = "x"}, {.position = {1, 0, 0}, .name = "y"}, {.position = {1, 0, 0}}};
    expect_invalid(p, 3, &(nav_waypoint_link){.from = 0, .to = 3}, 1, "waypoint 3 out of range");
    expect_invalid(p, 3, &(nav_waypoint_link){.from = 0, .to = 1, .cost = -1}, 1, "negative or not finite");
    expect_invalid(p, 3, &(nav_waypoint_link){.from = 0, .to = 1, .cost = NAN}, 1, "negative or not finite");
    expect_invalid(p, 3, &(nav_waypoint_link){.from = 0, .to = 1, .cost = INFINITY}, 1,
                   "negative or not finite");
    expect_invalid(p, 3, &(nav_waypoint_link){.from = 1, .to = 2}, 1, "length 0 and no cost");
    expect_invalid(p, 3, &(nav_waypoint_link){.from = 0, .to = 1, .cost = 2e30}, 1,
                   "cost 2e+30 is above the most a link may cost, 1e+30");
    nav_waypoint apart[2] = {{.position = {-3e38f, 0, 0}}, {.position = {3e38f, 0, 0}}};
    expect_invalid(apart, 2, &(nav_waypoint_link){.from = 0, .to = 1}, 1,
                   "is above the most a link may cost");
    nav_waypoint twins[2] = {{.name = "x"}, {.position = {1, 0, 0}, .name = "x"}};
    expect_invalid(twins, 2, NULL, 0, "both named 'x'");
    nav_waypoint far[1] = {{.position = {INFINITY, 0, 0}}};
    expect_invalid(far, 1, NULL, 0, "position not finite");
    nav_waypoint blank[1] = {{.name = "two words"}};
    expect_invalid(blank, 1, NULL, 0, "a name is 1 to 63 bytes");
    expect_invalid(NULL, 2, NULL, 0, "no array");
    nav_waypoints *wp = NULL;
    FAILS_WITH(nav_waypoints_bake(NULL, NULL, &wp), NAV_INVALID_PARAM);
    FAILS_WITH(nav_waypoints_bake(&(nav_waypoint_graph){0}, NULL, NULL), NAV_INVALID_PARAM);
    /* an empty graph bakes to nothing */
    assert_int_equal(nav_waypoints_bake(&(nav_waypoint_graph){0}, NULL, &wp), NAV_SUCCESS);
    assert_int_equal(nav_waypoints_count(wp), 0);
    nav_waypoints_destroy(wp);
}

/* Links at the dearest cost allowed: a route of several stays finite in the float table. */
static void test_dearest_links(void **state)
{
    (void)state;
    nav_waypoint points[4] = {
        {.position = {0, 0, 0}}, {.position = {1, 0, 0}}, {.position = {2, 0, 0}}, {.position = {3, 0, 0}}};
    nav_waypoint_link links[3] = {{.from = 0, .to = 1, .cost = NAV_WAYPOINT_MAX_COST},
                                  {.from = 1, .to = 2, .cost = NAV_WAYPOINT_MAX_COST},
                                  {.from = 2, .to = 3, .cost = NAV_WAYPOINT_MAX_COST}};
    nav_waypoint_graph g = {.waypoints = points, .waypoint_count = 4, .links = links, .link_count = 3};
    nav_waypoints *wp = bake_or_fail(&g, NULL);
    assert_cost_equal(nav_waypoints_distance(wp, 0, 3), 3e30, 3e23);
    nav_path path;
    nav_path_init(&path, NULL);
    assert_int_equal(nav_waypoints_route(wp, 3, 0, &path), NAV_SUCCESS);
    assert_cost_equal(path.cost, 3e30, 3e16); /* three sums of 1e30 */
    nav_path_destroy(&path);
    nav_waypoints_destroy(wp);
}

static bool cancel_at_3(const char *stage, uint64_t done, uint64_t total, void *user)
{
    (void)total;
    assert_string_equal(stage, "routes");
    *(uint64_t *)user = done;
    return done < 3;
}

static void test_progress_and_cancel(void **state)
{
    (void)state;
    random_graph r = make_random(50, 100, 9);
    uint64_t last = 0;
    nav_progress progress = {cancel_at_3, &last};
    nav_waypoints *wp = NULL;
    FAILS_WITH(nav_waypoints_bake(&r.g, &(nav_waypoints_bake_desc){.threads = 1, .progress = &progress}, &wp),
               NAV_WRONG_STATE);
    assert_null(wp);
    assert_int_equal(last, 3);
    free_random(&r);
}

/* One way of making a bake with the allocator given, and what to do with one that succeeds. */
typedef struct bake_attempt {
    nav_status (*make)(const struct bake_attempt *x, const nav_allocator *a, nav_waypoints **out);
    random_graph *graph;
    uint32_t dense_max;
    nav_writer *chunk; /* make: bakes (and writes the bake here); otherwise reads it */
} bake_attempt;

static nav_status attempt_bake(const bake_attempt *x, const nav_allocator *a, nav_waypoints **out)
{
    nav_status s = nav_waypoints_bake(
        &x->graph->g, &(nav_waypoints_bake_desc){.allocator = a, .threads = 1, .dense_max = x->dense_max},
        out);
    if (nav_succeeded(s)) {
        assert_int_equal(nav_waypoints_compressed(*out), x->dense_max == 1);
        write_chunk(*out, x->chunk);
    }
    return s;
}

static nav_status attempt_read(const bake_attempt *x, const nav_allocator *a, nav_waypoints **out)
{
    return nav_waypoints_read_chunk(x->chunk->data, x->chunk->size, NULL, a, NULL, out);
}

/* Makes the bake with the allocator failing at its first, second, ... allocation until it
 * succeeds: each failure a clean NAV_OUT_OF_MEMORY with nothing returned and nothing left
 * allocated. Returns how many failed. */
static int fail_every_allocation(const bake_attempt *x)
{
    int failed = 0;
    for (long at = 1;; at++) {
        test_allocator t;
        test_allocator_init(&t, at);
        nav_waypoints *wp = NULL;
        nav_status s = x->make(x, &t.hooks, &wp);
        if (nav_succeeded(s)) {
            nav_waypoints_destroy(wp);
            assert_int_equal(t.live, 0);
            return failed;
        }
        FAILS_WITH(s, NAV_OUT_OF_MEMORY);
        assert_null(wp);
        assert_int_equal(t.live, 0);
        failed++;
    }
}

static void test_allocation_failures(void **state)
{
    (void)state;
    random_graph r = make_random(30, 80, 3);
    for (uint32_t dense_max = 0; dense_max < 2; dense_max++) { /* plain tables, then hub labels */
        nav_writer w = {0};
        assert_true(fail_every_allocation(&(bake_attempt){attempt_bake, &r, dense_max, &w}) > 10);
        /* and reading the bake back */
        assert_true(fail_every_allocation(&(bake_attempt){attempt_read, &r, dense_max, &w}) > 10);
        nav_writer_destroy(&w);
    }
    free_random(&r);
}

/* ---- the text format --------------------------------------------------------------------------- */

static const char hand_text[] = "# the hand-made graph\n"
                                "libnav waypoints 1\n"
                                "\n"
                                "waypoint a 0 0 0\n"
                                "waypoint b 4 0 0 tags 2\n"
                                "link a b\n"
                                "link b c\n" /* c comes further down */
                                "waypoint c 8 0 0\n"
                                "  waypoint d 4 0 3  \n"
                                "link a d\n"
                                "link d c cost 1 oneway flags 5\n"
                                "link a c cost 100 disabled\n";

static void test_text_format(void **state)
{
    (void)state;
    nav_waypoint_graph g;
    assert_int_equal(nav_waypoint_graph_load_text(hand_text, strlen(hand_text), NULL, &g), NAV_SUCCESS);
    assert_int_equal(g.waypoint_count, 4);
    assert_int_equal(g.link_count, 5);
    assert_string_equal(g.waypoints[3].name, "d");
    assert_int_equal(g.waypoints[1].tags, 2);
    assert_int_equal(g.links[1].from, 1);
    assert_int_equal(g.links[1].to, 2);
    assert_true(g.links[3].one_way);
    assert_int_equal(g.links[3].flags, 5);
    assert_cost_equal(g.links[3].cost, 1, 0);
    assert_cost_equal(g.links[0].cost, 0, 0);
    assert_true(g.links[4].disabled);
    nav_waypoints *wp = bake_or_fail(&g, NULL);
    nav_waypoint_graph_release(&g);
    assert_null(g.storage);
    /* the same routes as the graph built by hand */
    assert_cost_equal(nav_waypoints_distance(wp, nav_waypoints_find(wp, "a"), nav_waypoints_find(wp, "c")), 6,
                      1e-6);
    assert_cost_equal(nav_waypoints_distance(wp, nav_waypoints_find(wp, "c"), nav_waypoints_find(wp, "a")), 8,
                      1e-6);
    nav_waypoints_destroy(wp);

    /* from a file, named by its base name in messages */
    char path[] = "/tmp/nav_waypoints_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(hand_text, f);
    fclose(f);
    assert_int_equal(nav_waypoint_graph_load_file(path, NULL, &g), NAV_SUCCESS);
    assert_int_equal(g.waypoint_count, 4);
    nav_waypoint_graph_release(&g);
    remove(path);
    test_log log;
    test_log_init(&log);
    FAILS_WITH(
        nav_waypoint_graph_load_file("/nonexistent/w.txt", &(nav_waypoint_load_desc){.log = &log.hooks}, &g),
        NAV_IO_ERROR);
    assert_non_null(strstr(log.last, "w.txt: cannot read"));
}

static void expect_parse_error(const char *text, const char *message)
{
    nav_waypoint_graph g;
    test_log log;
    test_log_init(&log);
    nav_status s = nav_waypoint_graph_load_text(
        text, strlen(text), &(nav_waypoint_load_desc){.log = &log.hooks, .name = "w.txt"}, &g);
    FAILS_WITH(s, NAV_PARSE_ERROR);
    assert_null(g.storage);
    assert_int_equal(g.waypoint_count, 0);
    if (!strstr(log.last, message)) fail_msg("expected '%s', got '%s'", message, log.last);
}

static void test_text_errors(void **state)
{
    (void)state;
    expect_parse_error("", "w.txt: no header");
    /* a file that lacks its header (issue 43, defect 7): said so, as docs/waypoints.md documents */
    expect_parse_error(
        "waypoint a 0 0 0\n",
        "w.txt:1: no header: a waypoint file starts with 'libnav waypoints 1' (found 'waypoint a");
    expect_parse_error("# a road\nlink a b\n", "w.txt:2: no header");
    expect_parse_error("libnav road 1\n", "w.txt:1: expected the header 'libnav waypoints 1'");
    expect_parse_error("libnav waypoints 2\n", "w.txt:1: waypoint format version 2");
    expect_parse_error("libnav waypoints 1\nroad a b\n", "w.txt:2: unknown keyword 'road'");
    expect_parse_error("libnav waypoints 1\nwaypoint a 0 0\n", "w.txt:2: waypoint 'a' has no z coordinate");
    expect_parse_error("libnav waypoints 1\nwaypoint a 0 x 0\n",
                       "w.txt:2: y coordinate 'x' is not a finite number");
    expect_parse_error("libnav waypoints 1\nwaypoint a 0 1e999 0\n", "y coordinate '1e999' is not a finite");
    expect_parse_error("libnav waypoints 1\nwaypoint a 0 0 0\n# gap\nwaypoint a 1 0 0\n",
                       "w.txt:4: waypoint 'a' is already defined on line 2");
    expect_parse_error("libnav waypoints 1\nwaypoint a 0 0 0 color red\n", "w.txt:2: unexpected 'color'");
    expect_parse_error("libnav waypoints 1\nwaypoint a 0 0 0\nlink a b\n",
                       "w.txt:3: link names waypoint 'b', which is not defined");
    expect_parse_error("libnav waypoints 1\nwaypoint a 0 0 0\nlink a\n",
                       "w.txt:3: link without a second waypoint");
    expect_parse_error("libnav waypoints 1\nwaypoint a 0 0 0\nwaypoint b 1 0 0\nlink a b cost -2\n",
                       "w.txt:4: cost -2 is not above 0 and at most 1e30");
    expect_parse_error("libnav waypoints 1\nwaypoint a 0 0 0\nwaypoint b 1 0 0\nlink a b cost 1e400\n",
                       "cost 1e400 is not above 0 and at most 1e30");
    /* a finite double beyond float range (found by fuzz_waypoints: the table said "no route") */
    expect_parse_error("libnav waypoints 1\nwaypoint a 0 0 0\nwaypoint b 1 0 0\nlink a b cost 4.4e116\n",
                       "w.txt:4: cost 4.4e116 is not above 0 and at most 1e30");
    expect_parse_error("libnav waypoints 1\nwaypoint a 0 0 0\nwaypoint b 1 0 0\nlink a b cost\n",
                       "w.txt:4: cost needs a number");
    expect_parse_error("libnav waypoints 1\nwaypoint a 0 0 0\nwaypoint b 1 0 0\nlink a b flags 70000\n",
                       "w.txt:4: flags need a count below 65536");
    expect_parse_error("libnav waypoints 1\nwaypoint a 0 0 0\nwaypoint b 1 0 0\nlink a b twice\n",
                       "w.txt:4: unexpected 'twice' in a link");
    /* an option given twice is refused, not the last one taken (issue 43, defect 18) */
    expect_parse_error("libnav waypoints 1\nwaypoint a 0 0 0\nwaypoint b 1 0 0\nlink a b cost 1 cost 2\n",
                       "w.txt:4: 'cost' is given twice in one link");
    expect_parse_error(
        "libnav waypoints 1\nwaypoint a 0 0 0\nwaypoint b 1 0 0\nlink a b flags 1 oneway flags 1\n",
        "w.txt:4: 'flags' is given twice in one link");
    expect_parse_error("libnav waypoints 1\nwaypoint a 0 0 0\nwaypoint b 1 0 0\nlink a b oneway oneway\n",
                       "w.txt:4: 'oneway' is given twice in one link");
    expect_parse_error(
        "libnav waypoints 1\nwaypoint a 0 0 0\nwaypoint b 1 0 0\nlink a b disabled cost 3 disabled\n",
        "w.txt:4: 'disabled' is given twice in one link");
    expect_parse_error("libnav waypoints 1\nwaypoint a 0 0 0 tags 1 tags 2\n",
                       "w.txt:2: 'tags' is given twice for waypoint 'a'");
    expect_parse_error("libnav waypoints 1\nwaypoint "
                       "a234567890123456789012345678901234567890123456789012345678901234 0 0 0\n",
                       "is no name");
    nav_waypoint_graph g;
    FAILS_WITH(nav_waypoint_graph_load_text(NULL, 3, NULL, &g), NAV_INVALID_PARAM);
    FAILS_WITH(nav_waypoint_graph_load_text(hand_text, strlen(hand_text), NULL, NULL), NAV_INVALID_PARAM);
}

/* Every prefix and every flipped byte of the text loads or fails cleanly (a parse error), and the
 * loader's allocation failures leak nothing. */
static void test_text_damage_and_allocation(void **state)
{
    (void)state;
    size_t size = strlen(hand_text);
    char *copy = malloc(size);
    for (size_t len = 0; len <= size; len++) {
        nav_waypoint_graph g;
        nav_status s = nav_waypoint_graph_load_text(hand_text, len, NULL, &g);
        assert_true(s == NAV_SUCCESS || s == (NAV_FAILURE | NAV_PARSE_ERROR));
        nav_waypoint_graph_release(&g);
    }
    for (size_t i = 0; i < size; i++)
        for (int bit = 0; bit < 8; bit++) {
            memcpy(copy, hand_text, size);
            copy[i] = (char)(copy[i] ^ (1 << bit));
            nav_waypoint_graph g;
            nav_status s = nav_waypoint_graph_load_text(copy, size, NULL, &g);
            assert_true(s == NAV_SUCCESS || s == (NAV_FAILURE | NAV_PARSE_ERROR));
            if (s == NAV_SUCCESS) {
                nav_waypoints *wp = NULL;
                nav_status b = nav_waypoints_bake(&g, NULL, &wp);
                assert_true(b == NAV_SUCCESS || b == (NAV_FAILURE | NAV_INVALID_PARAM));
                nav_waypoints_destroy(wp);
            }
            nav_waypoint_graph_release(&g);
        }
    free(copy);
    test_allocator t;
    test_allocator_init(&t, 1);
    nav_waypoint_graph g;
    FAILS_WITH(
        nav_waypoint_graph_load_text(hand_text, size, &(nav_waypoint_load_desc){.allocator = &t.hooks}, &g),
        NAV_OUT_OF_MEMORY);
    assert_int_equal(t.live, 0);
    test_allocator_init(&t, 0);
    assert_int_equal(
        nav_waypoint_graph_load_text(hand_text, size, &(nav_waypoint_load_desc){.allocator = &t.hooks}, &g),
        NAV_SUCCESS);
    assert_int_equal(t.live, 1);
    nav_waypoint_graph_release(&g);
    assert_int_equal(t.live, 0);
}

/* ---- graphs made from grids ------------------------------------------------------------------ */

/* A w x h grid, each cell blocked with probability percent / 100; with `terrain`, free cells of
 * type 2 (cost 3) now and then; with `climb`, random heights 0..3 and max_climb 1. */
static nav_grid *random_grid(int32_t w, int32_t h, int percent, bool terrain, bool climb, unsigned *seed)
{
    nav_grid *grid = NULL;
    assert_int_equal(
        nav_grid_create(&(nav_grid_desc){.width = w, .height = h, .max_climb = climb ? 1.0f : 0.0f}, &grid),
        NAV_SUCCESS);
    if (terrain) assert_int_equal(nav_grid_set_terrain_cost(grid, 2, 3.0), NAV_SUCCESS);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            if ((int)(rand_r(seed) % 100) < percent)
                nav_grid_set_cell(grid, x, y, NAV_TERRAIN_BLOCKED);
            else if (terrain && rand_r(seed) % 4 == 0)
                nav_grid_set_cell(grid, x, y, 2);
            if (climb) nav_grid_set_cell_height(grid, x, y, (float)(rand_r(seed) % 4));
        }
    return grid;
}

static bool passable_at(const nav_grid *g, int32_t x, int32_t y)
{
    return nav_grid_passable(g, x, y);
}

/* Whether a path may bend at corner (x, y) running along (dx, dy): this file's own reading of "taut"
 * (the segment's line does not cross into the quadrant of the corner's blocked cell, nor into the
 * quadrant opposite). */
static bool taut_at(const nav_grid *g, int32_t x, int32_t y, double dx, double dy)
{
    int qx = passable_at(g, x, y - 1) && passable_at(g, x, y) ? -1 : 1;
    int qy = passable_at(g, x - 1, y) && passable_at(g, x, y) ? -1 : 1;
    bool into = dx * qx > 0 && dy * qy > 0, opposite = dx * qx < 0 && dy * qy < 0;
    return !into && !opposite;
}

/* The graph's links against every pair of corners tested by nav_grid_anyangle_segment: the same
 * links, one-way where only one way is walkable, costing what the segment costs. */
static void check_graph_brute_force(const nav_grid *grid, bool keep_all)
{
    nav_waypoint_graph g;
    assert_int_equal(nav_waypoint_graph_from_grid(
                         grid, &(nav_waypoint_grid_desc){.keep_all_links = keep_all, .threads = 2}, &g),
                     NAV_SUCCESS);
    int32_t w = nav_grid_width(grid), h = nav_grid_height(grid);
    /* the corners, row-major */
    uint32_t n = 0;
    int32_t *cx = malloc(sizeof *cx * (size_t)(w + 1) * (size_t)(h + 1));
    int32_t *cy = malloc(sizeof *cy * (size_t)(w + 1) * (size_t)(h + 1));
    for (int32_t y = 0; y <= h; y++)
        for (int32_t x = 0; x <= w; x++)
            if (passable_at(grid, x - 1, y - 1) + passable_at(grid, x, y - 1) + passable_at(grid, x - 1, y) +
                    passable_at(grid, x, y) ==
                3) {
                cx[n] = x;
                cy[n] = y;
                n++;
            }
    assert_int_equal(g.waypoint_count, n);
    for (uint32_t i = 0; i < n; i++) {
        assert_true(g.waypoints[i].position.x == (float)cx[i]);
        assert_true(g.waypoints[i].position.z == (float)cy[i]);
    }
    /* the cost of every ordered pair in the graph (INFINITY: no link) */
    double *cost = malloc(sizeof *cost * n * n);
    for (size_t i = 0; i < (size_t)n * n; i++) cost[i] = INFINITY;
    for (uint32_t i = 0; i < g.link_count; i++) {
        const nav_waypoint_link *l = &g.links[i];
        assert_true(l->from < n && l->to < n && l->from != l->to);
        assert_true(cost[l->from * n + l->to] == INFINITY); /* one link a pair and way */
        cost[l->from * n + l->to] = l->cost;
        if (!l->one_way) {
            assert_true(cost[l->to * n + l->from] == INFINITY);
            cost[l->to * n + l->from] = l->cost;
        }
    }
    bool prune =
        !keep_all && nav_grid_uniform_cost(grid) > 0 && !(nav_grid_get_desc(grid)->max_climb < INFINITY);
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t v = 0; v < n; v++) {
            if (u == v) continue;
            double c;
            bool seen = nav_grid_anyangle_segment(grid, cx[u], cy[u], cx[v], cy[v], &c);
            double dx = cx[v] - cx[u], dy = cy[v] - cy[u];
            if (seen && prune &&
                (!taut_at(grid, cx[u], cy[u], dx, dy) || !taut_at(grid, cx[v], cy[v], dx, dy)))
                seen = false;
            if (!seen) {
                if (cost[u * n + v] != INFINITY)
                    fail_msg("link (%d,%d) -> (%d,%d) should not exist", cx[u], cy[u], cx[v], cy[v]);
                continue;
            }
            if (!(fabs(cost[u * n + v] - c) <= 1e-9 * (1 + c)))
                fail_msg("link (%d,%d) -> (%d,%d): %.9f, segment %.9f", cx[u], cy[u], cx[v], cy[v],
                         cost[u * n + v], c);
        }
    free(cost);
    free(cx);
    free(cy);
    nav_waypoint_graph_release(&g);
}

static void test_grid_graph_brute_force(void **state)
{
    (void)state;
    unsigned seed = 11;
    for (int round = 0; round < 60; round++) {
        int32_t w = 4 + (int32_t)(rand_r(&seed) % 17), h = 4 + (int32_t)(rand_r(&seed) % 17);
        int percent = 10 + (int)(rand_r(&seed) % 35);
        bool terrain = round % 3 == 1, climb = round % 3 == 2;
        nav_grid *grid = random_grid(w, h, percent, terrain, climb, &seed);
        check_graph_brute_force(grid, false);
        if (round % 3 == 0) check_graph_brute_force(grid, true);
        nav_grid_destroy(grid);
    }
}

/* A random point in the grid's free space: a cell centre, a point off it, a grid vertex or a point
 * on a cell's edge. */
static bool random_free_point(const nav_grid *grid, unsigned *seed, double *x, double *y)
{
    int32_t w = nav_grid_width(grid), h = nav_grid_height(grid);
    for (int tries = 0; tries < 100; tries++) {
        int32_t cx = (int32_t)(rand_r(seed) % (unsigned)w), cy = (int32_t)(rand_r(seed) % (unsigned)h);
        if (!nav_grid_passable(grid, cx, cy)) continue;
        switch (rand_r(seed) % 4) {
        case 0:
            *x = cx + 0.5, *y = cy + 0.5;
            break;
        case 1:
            *x = cx + (rand_r(seed) % 1000) / 1000.0, *y = cy + (rand_r(seed) % 1000) / 1000.0;
            break;
        case 2:
            *x = cx + (rand_r(seed) % 2), *y = cy + (rand_r(seed) % 2);
            break;
        default:
            *x = cx + (rand_r(seed) % 2), *y = cy + (rand_r(seed) % 8) / 8.0;
            break;
        }
        return true;
    }
    return false;
}

/* Paths between points against the brute-force any-angle reference (tests/reference.c). */
/* stamps: where the query's stamps start (q->seen_now; 0: as created), to make them wrap. */
/* wp's sight lists built again for blocks of 2^shift cells a side (a bake picks the side by the
 * grid's size: the tests' small grids get one cell). */
static void resight(nav_waypoints *wp, const nav_grid *grid, uint32_t shift)
{
    nav__wp_sight_free(&wp->sight, &wp->allocator);
    assert_int_equal(
        nav__wp_sight_build(&wp->corners, wp->pruned, shift, 2, NULL, &wp->allocator, &wp->sight),
        NAV_SUCCESS);
    assert_int_equal(nav__wp_corner_info_build(wp, grid, 2), NAV_SUCCESS);
}

/* shift: the sight lists' block side (resight), or UINT32_MAX for the bake's. */
static void check_points_against_reference(nav_grid *grid, unsigned *seed, int pairs, float cell_size,
                                           bool compressed, uint32_t stamps, uint32_t shift)
{
    nav_waypoints *wp = NULL;
    assert_int_equal(nav_waypoints_bake_grid(
                         grid, &(nav_waypoint_grid_desc){.threads = 2, .dense_max = compressed ? 1 : 0}, &wp),
                     NAV_SUCCESS);
    if (shift != UINT32_MAX) resight(wp, grid, shift);
    nav_waypoints_query *q = NULL;
    assert_int_equal(nav_waypoints_query_create(wp, &(nav_waypoints_query_desc){.grid = grid}, &q),
                     NAV_SUCCESS);
    if (stamps) q->seen_now = stamps;
    test_reference ref;
    test_reference_init(&ref, grid);
    nav_path path;
    nav_path_init(&path, NULL);
    for (int i = 0; i < pairs; i++) {
        double sx, sy, gx, gy;
        if (!random_free_point(grid, seed, &sx, &sy) || !random_free_point(grid, seed, &gx, &gy)) continue;
        /* world points are floats: the reference takes the points the query sees */
        nav_vec3 s = nav_grid_units_to_world(grid, sx, sy), g = nav_grid_units_to_world(grid, gx, gy);
        nav_grid_world_to_units(grid, s, &sx, &sy);
        nav_grid_world_to_units(grid, g, &gx, &gy);
        double best = test_reference_cost(&ref, sx, sy, gx, gy);
        nav_waypoints_result r;
        nav_status st = nav_waypoints_find_path(q, s, g, &path, &r);
        if (best == INFINITY) {
            if (st != (NAV_FAILURE | NAV_UNREACHABLE))
                fail_msg("(%.4f,%.4f) -> (%.4f,%.4f): no path exists, status %s", sx, sy, gx, gy,
                         nav_status_str(st));
            continue;
        }
        if (st != NAV_SUCCESS)
            fail_msg("(%.4f,%.4f) -> (%.4f,%.4f): %s, reference %.9f", sx, sy, gx, gy, nav_status_str(st),
                     best);
        double walked;
        assert_int_equal(nav_grid_validate_anyangle_path(grid, &path, &walked), NAV_SUCCESS);
        assert_true(fabs(walked * cell_size - path.cost) <= 1e-9 * (1 + path.cost));
        assert_true(fabs(r.cost - path.cost) <= 1e-12 * (1 + path.cost));
        if (!(fabs(walked - best) <= 1e-6 * best))
            fail_msg("(%.4f,%.4f) -> (%.4f,%.4f): cost %.9f, reference %.9f (candidates %u, %u)", sx, sy, gx,
                     gy, walked, best, r.start_candidates, r.goal_candidates);
    }
    nav_path_destroy(&path);
    test_reference_destroy(&ref);
    nav_waypoints_query_destroy(q);
    nav_waypoints_destroy(wp);
}

static void test_grid_points_against_reference(void **state)
{
    (void)state;
    unsigned seed = 5;
    for (int round = 0; round < 90; round++) {
        int32_t w = 4 + (int32_t)(rand_r(&seed) % 29), h = 4 + (int32_t)(rand_r(&seed) % 29);
        int percent = 5 + (int)(rand_r(&seed) % 40);
        bool terrain = round % 3 == 1, climb = round % 3 == 2;
        nav_grid *grid = random_grid(w, h, percent, terrain, climb, &seed);
        check_points_against_reference(grid, &seed, 40, 1, false, 0, UINT32_MAX);
        check_points_against_reference(grid, &seed, 40, 1, true, 0, UINT32_MAX); /* routes walked */
        check_points_against_reference(grid, &seed, 40, 1, round % 2, 0, 1);     /* blocks of 2 by 2 */
        nav_grid_destroy(grid);
    }
}

/* Point queries mark corners with stamps a query (nav__wp_stamps): when the count wraps, the marks
 * of earlier queries must not pass for new ones. */
static void test_point_stamps_wrap(void **state)
{
    (void)state;
    unsigned seed = 17;
    for (int round = 0; round < 12; round++) {
        int32_t w = 8 + (int32_t)(rand_r(&seed) % 25), h = 8 + (int32_t)(rand_r(&seed) % 25);
        nav_grid *grid = random_grid(w, h, 10 + (int)(rand_r(&seed) % 30), false, false, &seed);
        check_points_against_reference(grid, &seed, 20, 1, round % 2, UINT32_MAX - (uint32_t)(round % 4),
                                       UINT32_MAX);
        nav_grid_destroy(grid);
    }
}

/* The three parts of each block's sight list (nav__wp_sight) against the tests a point query makes,
 * at points of the block's square eighths of a cell apart (their arithmetic exact): in part 0 the
 * segment from every point is taut and may go on to (come in by) a link, in part 2 from none. */
static void test_sight_parts(void **state)
{
    (void)state;
    unsigned seed = 23;
    long counted[3] = {0, 0, 0};
    for (int round = 0; round < 30; round++) {
        int32_t w = 4 + (int32_t)(rand_r(&seed) % 29), h = 4 + (int32_t)(rand_r(&seed) % 29);
        nav_grid *grid = random_grid(w, h, 5 + (int)(rand_r(&seed) % 40), false, false, &seed);
        nav_waypoints *wp = NULL;
        assert_int_equal(nav_waypoints_bake_grid(grid, NULL, &wp), NAV_SUCCESS);
        assert_true(wp->pruned);
        resight(wp, grid, (uint32_t)round % 2); /* blocks of one cell and of 2 by 2 */
        const nav__wp_sight *s = &wp->sight;
        double side = (double)(1u << s->shift);
        for (uint32_t b = 0; b < s->blocks; b++) {
            uint32_t first = s->first[b], count = s->first[b + 1] - first;
            assert_true(s->part[2 * b] <= s->part[2 * b + 1] && s->part[2 * b + 1] <= count);
            double x0 = (b % s->across) * side, y0 = (double)(b / s->across) * side;
            for (uint32_t k = 0; k < count; k++) {
                int part = k < s->part[2 * b] ? 0 : k < s->part[2 * b + 1] ? 1 : 2;
                counted[part]++;
                if (part == 1) continue;
                const nav__wp_corner_info *v = &s->info[s->corner[first + k]];
                for (int i = 0; i <= 8 * (int)side; i++)
                    for (int j = 0; j <= 8 * (int)side; j++) {
                        double ex = x0 + i / 8.0 - v->x, ey = y0 + j / 8.0 - v->y;
                        if (ex == 0 && ey == 0) continue; /* a point at the corner takes it anyway */
                        bool on = nav__wp_bends_on(v, ex, ey, false), in = nav__wp_bends_on(v, ex, ey, true);
                        if (part == 0)
                            assert_true(nav__wp_taut_q(v->qx, v->qy, -ex, -ey) && on && in);
                        else
                            assert_true(!on && !in);
                    }
            }
        }
        nav_waypoints_destroy(wp);
        nav_grid_destroy(grid);
    }
    /* each part holds some: the test above tests something */
    assert_true(counted[0] > 0 && counted[1] > 0 && counted[2] > 0);
}

/* The sure bits of the sight lists (nav__wp_sight) against nav_grid_anyangle_segment: from every
 * point of a block's free cells, eighths of a cell apart, the segment to a sure entry's corner can
 * be walked. */
static void test_sight_sure(void **state)
{
    (void)state;
    unsigned seed = 29;
    long sure = 0, unsure = 0;
    for (int round = 0; round < 40; round++) {
        int32_t w = 4 + (int32_t)(rand_r(&seed) % 29), h = 4 + (int32_t)(rand_r(&seed) % 29);
        nav_grid *grid = random_grid(w, h, 5 + (int)(rand_r(&seed) % 40), false, false, &seed);
        nav_waypoints *wp = NULL;
        assert_int_equal(nav_waypoints_bake_grid(grid, NULL, &wp), NAV_SUCCESS);
        resight(wp, grid, (uint32_t)round % 2); /* blocks of one cell and of 2 by 2 */
        const nav__wp_sight *s = &wp->sight;
        assert_non_null(s->sure);
        int32_t side = 1 << s->shift;
        for (uint32_t b = 0; b < s->blocks; b++)
            for (uint32_t k = s->first[b]; k < s->first[b + 1]; k++) {
                if (!(s->sure[k / 8] >> (k % 8) & 1)) {
                    unsure++;
                    continue;
                }
                sure++;
                const nav__wp_corner_info *v = &s->info[s->corner[k]];
                for (int32_t cy = (int32_t)(b / s->across) * side; cy < ((int32_t)(b / s->across) + 1) * side;
                     cy++)
                    for (int32_t cx = (int32_t)(b % s->across) * side;
                         cx < ((int32_t)(b % s->across) + 1) * side; cx++) {
                        if (!nav_grid_passable(grid, cx, cy)) continue;
                        for (int i = 0; i <= 8; i++)
                            for (int j = 0; j <= 8; j++) {
                                double px = cx + i / 8.0, py = cy + j / 8.0;
                                if (!nav_grid_anyangle_segment(grid, px, py, v->x, v->y, NULL))
                                    fail_msg("block %u: (%.3f, %.3f) does not see sure corner (%g, %g)", b,
                                             px, py, v->x, v->y);
                            }
                    }
            }
        nav_waypoints_destroy(wp);
        nav_grid_destroy(grid);
    }
    assert_true(sure > 0 && unsure > 0); /* the test above tests something */
    /* on grids of more than one cost a segment's cost is not its length: no sure bits */
    nav_grid *grid = random_grid(12, 12, 20, true, false, &seed);
    nav_waypoints *wp = NULL;
    assert_int_equal(nav_waypoints_bake_grid(grid, NULL, &wp), NAV_SUCCESS);
    assert_null(wp->sight.sure);
    nav_waypoints_destroy(wp);
    nav_grid_destroy(grid);
}

/* The nearest waypoint a point sees on random grids against brute force: every corner by distance
 * (then index), the first the point sees under nav_grid_anyangle_segment. */
static void test_grid_nearest_visible(void **state)
{
    (void)state;
    unsigned seed = 11;
    for (int round = 0; round < 40; round++) {
        int32_t w = 4 + (int32_t)(rand_r(&seed) % 29), h = 4 + (int32_t)(rand_r(&seed) % 29);
        nav_grid *grid = random_grid(w, h, 5 + (int)(rand_r(&seed) % 40), false, round % 2, &seed);
        nav_waypoints *wp = NULL;
        nav_waypoints_query *q = NULL;
        assert_int_equal(nav_waypoints_bake_grid(grid, NULL, &wp), NAV_SUCCESS);
        assert_int_equal(nav_waypoints_query_create(wp, &(nav_waypoints_query_desc){.grid = grid}, &q),
                         NAV_SUCCESS);
        uint32_t n = nav_waypoints_count(wp);
        for (int trial = 0; trial < 30; trial++) {
            double ux, uy, sx, sy;
            if (!random_free_point(grid, &seed, &ux, &uy)) break;
            nav_vec3 p = nav_grid_units_to_world(grid, ux, uy);
            nav_grid_world_to_units(grid, p, &sx, &sy);
            double max = trial % 3 == 0 ? 1 + rand_r(&seed) % 8 : 0;
            uint32_t want = NAV_WAYPOINTS_NONE;
            double want2 = max > 0 ? max * max : INFINITY;
            for (uint32_t i = 0; i < n; i++) {
                nav_vec3 c = nav_waypoints_position(wp, i);
                double d2 = squared(p, c), cx, cy;
                nav_grid_world_to_units(grid, c, &cx, &cy);
                if ((d2 < want2 || (d2 == want2 && want == NAV_WAYPOINTS_NONE)) &&
                    nav_grid_anyangle_segment(grid, sx, sy, cx, cy, NULL))
                    want2 = d2, want = i;
            }
            uint32_t got;
            double d;
            nav_status st = nav_waypoints_query_nearest(
                q, p, &(nav_waypoints_nearest_desc){.visible = true, .max_distance = max}, &got, &d);
            assert_int_equal(st, want == NAV_WAYPOINTS_NONE ? (NAV_FAILURE | NAV_UNREACHABLE) : NAV_SUCCESS);
            assert_int_equal(got, want);
        }
        /* a point in a blocked cell, or off the map */
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++)
                if (!nav_grid_passable(grid, x, y)) {
                    uint32_t got;
                    FAILS_WITH(nav_waypoints_query_nearest(q, nav_grid_units_to_world(grid, x + 0.5, y + 0.5),
                                                           &(nav_waypoints_nearest_desc){.visible = true},
                                                           &got, NULL),
                               NAV_INVALID_PARAM);
                    x = w, y = h;
                }
        uint32_t got;
        FAILS_WITH(nav_waypoints_query_nearest(q, nav_grid_units_to_world(grid, -3, 1),
                                               &(nav_waypoints_nearest_desc){.visible = true}, &got, NULL),
                   NAV_INVALID_PARAM);
        nav_waypoints_query_destroy(q);
        nav_waypoints_destroy(wp);
        nav_grid_destroy(grid);
    }
}

static bool count_stages(const char *stage, uint64_t done, uint64_t total, void *user)
{
    int *seen = user;
    assert_true(done <= total);
    if (!strcmp(stage, "visibility")) seen[0]++;
    if (!strcmp(stage, "routes")) seen[1]++;
    return seen[2] == 0 || seen[0] < seen[2]; /* seen[2]: cancel at that report of "visibility" */
}

/* A grid bake's limits, progress, cancelling, allocation failures, thread counts, and what a query
 * refuses: another grid, no grid, an end off the free space. */
static void test_grid_bake_and_query_errors(void **state)
{
    (void)state;
    unsigned seed = 3;
    nav_grid *grid = random_grid(24, 18, 25, false, false, &seed);
    nav_waypoints *wp = NULL;
    test_log log;
    test_log_init(&log);
    /* too many corners for the limit: refused before any work, and said */
    FAILS_WITH(
        nav_waypoints_bake_grid(grid, &(nav_waypoint_grid_desc){.max_waypoints = 5, .log = &log.hooks}, &wp),
        NAV_TOO_LARGE);
    assert_null(wp);
    assert_non_null(strstr(log.last, "convex corners"));
    /* progress: both stages; cancelling in the first */
    int seen[3] = {0, 0, 0};
    nav_progress progress = {count_stages, seen};
    assert_int_equal(nav_waypoints_bake_grid(grid, &(nav_waypoint_grid_desc){.progress = &progress}, &wp),
                     NAV_SUCCESS);
    assert_true(seen[0] > 0 && seen[1] > 0);
    nav_waypoints_destroy(wp);
    seen[0] = seen[1] = 0;
    seen[2] = 3;
    FAILS_WITH(
        nav_waypoints_bake_grid(grid, &(nav_waypoint_grid_desc){.progress = &progress, .threads = 1}, &wp),
        NAV_WRONG_STATE);
    assert_null(wp);
    /* the same graph at 1 and 3 threads */
    nav_waypoint_graph g1, g3;
    assert_int_equal(nav_waypoint_graph_from_grid(grid, &(nav_waypoint_grid_desc){.threads = 1}, &g1),
                     NAV_SUCCESS);
    assert_int_equal(nav_waypoint_graph_from_grid(grid, &(nav_waypoint_grid_desc){.threads = 3}, &g3),
                     NAV_SUCCESS);
    assert_int_equal(g1.link_count, g3.link_count);
    assert_true(g1.link_count > 0);
    assert_memory_equal(g1.links, g3.links, g1.link_count * sizeof *g1.links);
    nav_waypoint_graph_release(&g1);
    nav_waypoint_graph_release(&g3);
    /* every allocation failure: a clean status, nothing left behind */
    int failed = 0;
    for (long at = 1;; at++) {
        test_allocator t;
        test_allocator_init(&t, at);
        nav_status s = nav_waypoints_bake_grid(
            grid, &(nav_waypoint_grid_desc){.allocator = &t.hooks, .threads = 1}, &wp);
        if (nav_succeeded(s)) {
            nav_waypoints_query *q = NULL;
            s = nav_waypoints_query_create(
                wp, &(nav_waypoints_query_desc){.grid = grid, .allocator = &t.hooks}, &q);
            nav_waypoints_query_destroy(q);
            nav_waypoints_destroy(wp);
            assert_int_equal(t.live, 0);
            if (nav_succeeded(s)) break;
            FAILS_WITH(s, NAV_OUT_OF_MEMORY);
            failed++;
            continue;
        }
        FAILS_WITH(s, NAV_OUT_OF_MEMORY);
        assert_null(wp);
        assert_int_equal(t.live, 0);
        failed++;
    }
    assert_true(failed > 10);
    /* queries */
    assert_int_equal(nav_waypoints_bake_grid(grid, NULL, &wp), NAV_SUCCESS);
    nav_grid *other = random_grid(24, 18, 25, false, false, &seed);
    nav_waypoints_query *q = NULL;
    FAILS_WITH(
        nav_waypoints_query_create(wp, &(nav_waypoints_query_desc){.grid = other, .log = &log.hooks}, &q),
        NAV_INVALID_PARAM);
    assert_null(q);
    assert_non_null(strstr(log.last, "not the one"));
    nav_path path;
    nav_path_init(&path, NULL);
    assert_int_equal(nav_waypoints_query_create(wp, NULL, &q), NAV_SUCCESS); /* tables only */
    FAILS_WITH(
        nav_waypoints_find_path(q, nav_vec3_make(0.5f, 0, 0.5f), nav_vec3_make(1.5f, 0, 0.5f), &path, NULL),
        NAV_INVALID_PARAM);
    nav_waypoints_query_destroy(q);
    assert_int_equal(nav_waypoints_query_create(wp, &(nav_waypoints_query_desc){.grid = grid}, &q),
                     NAV_SUCCESS);
    int32_t bx = -1, by = -1, fx = -1, fy = -1;
    for (int32_t y = 0; y < 18; y++)
        for (int32_t x = 0; x < 24; x++) {
            if (!nav_grid_passable(grid, x, y))
                bx = x, by = y;
            else
                fx = x, fy = y;
        }
    assert_true(bx >= 0 && fx >= 0);
    nav_vec3 blocked_point = nav_vec3_make((float)bx + 0.5f, 0, (float)by + 0.5f);
    nav_vec3 free_point = nav_vec3_make((float)fx + 0.5f, 0, (float)fy + 0.5f);
    FAILS_WITH(nav_waypoints_find_path(q, blocked_point, free_point, &path, NULL), NAV_INVALID_PARAM);
    FAILS_WITH(nav_waypoints_find_path(q, free_point, nav_vec3_make(-3, 0, 2), &path, NULL),
               NAV_INVALID_PARAM);
    FAILS_WITH(nav_waypoints_find_path(q, free_point, nav_vec3_make(NAN, 0, 2), &path, NULL),
               NAV_INVALID_PARAM);
    assert_int_equal(path.count, 0);
    /* a point to itself: a path of one segment of length 0 */
    nav_waypoints_result r;
    assert_int_equal(nav_waypoints_find_path(q, free_point, free_point, &path, &r), NAV_SUCCESS);
    assert_true(r.straight && path.cost == 0);
    assert_true(nav_waypoints_query_memory_bytes(q) > 0);
    nav_path_destroy(&path);
    nav_waypoints_query_destroy(q);
    nav_waypoints_destroy(wp);
    nav_grid_destroy(other);
    nav_grid_destroy(grid);
}

/* ---- the WAYPOINTS chunk -------------------------------------------------------------------------- */

/* Two bakes answer alike: waypoints, names, links, every distance and first move (bit for bit). */
static void assert_same_bake(const nav_waypoints *a, const nav_waypoints *b)
{
    uint32_t n = nav_waypoints_count(a);
    assert_int_equal(nav_waypoints_count(b), n);
    assert_int_equal(nav_waypoints_link_count(b), nav_waypoints_link_count(a));
    assert_int_equal(nav_waypoints_from_grid(b), nav_waypoints_from_grid(a));
    assert_true(nav_waypoints_source_fingerprint(b) == nav_waypoints_source_fingerprint(a));
    assert_int_equal(nav_waypoints_memory_bytes(b), nav_waypoints_memory_bytes(a));
    for (uint32_t i = 0; i < nav_waypoints_link_count(a); i++) {
        nav_waypoint_link x, y;
        assert_true(nav_waypoints_link(a, i, &x) && nav_waypoints_link(b, i, &y));
        assert_true(x.from == y.from && x.to == y.to && x.cost == y.cost && x.flags == y.flags &&
                    x.one_way == y.one_way && x.disabled == y.disabled);
    }
    for (uint32_t u = 0; u < n; u++) {
        nav_vec3 p = nav_waypoints_position(a, u), q = nav_waypoints_position(b, u);
        assert_memory_equal(&p, &q, sizeof p);
        assert_int_equal(nav_waypoints_tags(b, u), nav_waypoints_tags(a, u));
        assert_string_equal(nav_waypoints_name(b, u), nav_waypoints_name(a, u));
        if (*nav_waypoints_name(a, u)) assert_int_equal(nav_waypoints_find(b, nav_waypoints_name(a, u)), u);
        for (uint32_t v = 0; v < n; v++) {
            double x = nav_waypoints_distance(a, u, v), y = nav_waypoints_distance(b, u, v);
            assert_memory_equal(&x, &y, sizeof x);
            assert_int_equal(nav_waypoints_next_hop(b, u, v), nav_waypoints_next_hop(a, u, v));
        }
    }
}

/* Reads chunk data back and checks it writes the same bytes and answers alike. */
static nav_waypoints *round_trip(const nav_waypoints *wp, const nav_grid *grid)
{
    nav_writer w, again;
    write_chunk(wp, &w);
    nav_waypoints *back = NULL;
    assert_int_equal(nav_waypoints_read_chunk(w.data, w.size, grid, NULL, NULL, &back), NAV_SUCCESS);
    write_chunk(back, &again);
    assert_int_equal(again.size, w.size);
    assert_memory_equal(again.data, w.data, w.size);
    assert_same_bake(wp, back);
    nav_writer_destroy(&w);
    nav_writer_destroy(&again);
    return back;
}

static void test_chunk_round_trip(void **state)
{
    (void)state;
    /* the hand-made graph with a loop, flags, tags and a disabled link */
    nav_waypoint_link links[6];
    memcpy(links, hand_links, sizeof hand_links);
    links[4] = (nav_waypoint_link){.from = 1, .to = 1, .cost = 2, .flags = 4};
    links[5] = (nav_waypoint_link){.from = 2, .to = 0, .cost = 1, .disabled = true, .flags = 9};
    nav_waypoint_graph g = {.waypoints = hand_points, .waypoint_count = 4, .links = links, .link_count = 6};
    nav_waypoints *wp = bake_or_fail(&g, NULL);
    nav_waypoint_link loop;
    assert_true(nav_waypoints_link(wp, 4, &loop));
    assert_true(loop.from == 1 && loop.to == 1 && loop.cost == 2 && loop.flags == 4 && !loop.one_way);
    assert_false(nav_waypoints_link(wp, 6, &loop));
    nav_waypoints *back = round_trip(wp, NULL);
    nav_path path;
    nav_path_init(&path, NULL);
    assert_int_equal(nav_waypoints_route(back, 0, 2, &path), NAV_SUCCESS);
    assert_cost_equal(path.cost, 6, 1e-12);
    nav_waypoints_destroy(back);
    nav_waypoints_destroy(wp);

    /* random graphs, and the empty one */
    for (uint32_t round = 0; round < 12; round++) {
        random_graph r = make_random(1 + round % 6 * 17, round % 6 * 60, 100 + round);
        wp = bake_or_fail(&r.g, &(nav_waypoints_bake_desc){.dense_max = round >= 6 ? 1 : 0});
        nav_waypoints_destroy(round_trip(wp, NULL));
        nav_waypoints_destroy(wp);
        free_random(&r);
    }
    nav_waypoint_graph empty = {0};
    wp = bake_or_fail(&empty, NULL);
    nav_waypoints_destroy(round_trip(wp, NULL));
    nav_waypoints_destroy(wp);

    /* grid bakes: the same paths between points after a round trip with the grid */
    unsigned seed = 41;
    for (int round = 0; round < 8; round++) {
        nav_grid *grid = random_grid(8 + round * 3, 7 + round * 2, 20, round % 3 == 1, round % 3 == 2, &seed);
        nav_waypoint_grid_desc desc = {.dense_max = round >= 6 ? 1 : 0}; /* the last two compressed */
        assert_int_equal(nav_waypoints_bake_grid(grid, &desc, &wp), NAV_SUCCESS);
        back = round_trip(wp, grid);
        nav_waypoints_query *q1 = NULL, *q2 = NULL;
        nav_waypoints_query_desc qd = {.grid = grid};
        assert_int_equal(nav_waypoints_query_create(wp, &qd, &q1), NAV_SUCCESS);
        assert_int_equal(nav_waypoints_query_create(back, &qd, &q2), NAV_SUCCESS);
        nav_path other;
        nav_path_init(&other, NULL);
        for (int i = 0; i < 30; i++) {
            double sx, sy, gx, gy;
            if (!random_free_point(grid, &seed, &sx, &sy) || !random_free_point(grid, &seed, &gx, &gy))
                continue;
            nav_vec3 a = nav_grid_units_to_world(grid, sx, sy), b = nav_grid_units_to_world(grid, gx, gy);
            nav_status s1 = nav_waypoints_find_path(q1, a, b, &path, NULL);
            nav_status s2 = nav_waypoints_find_path(q2, a, b, &other, NULL);
            assert_int_equal(s1, s2);
            assert_int_equal(path.count, other.count);
            assert_true(path.cost == other.cost);
        }
        nav_path_destroy(&other);
        nav_waypoints_query_destroy(q1);
        nav_waypoints_query_destroy(q2);
        nav_waypoints_destroy(back);

        /* without its grid: waypoint queries only; with another grid: refused */
        nav_writer w;
        write_chunk(wp, &w);
        assert_int_equal(nav_waypoints_read_chunk(w.data, w.size, NULL, NULL, NULL, &back), NAV_SUCCESS);
        test_log log;
        test_log_init(&log);
        assert_int_equal(nav_waypoints_query_create(
                             back, &(nav_waypoints_query_desc){.grid = grid, .log = &log.hooks}, &q1),
                         NAV_FAILURE | NAV_INVALID_PARAM);
        assert_non_null(strstr(log.last, "loaded without its grid"));
        assert_int_equal(nav_waypoints_route(back, 0, nav_waypoints_count(back) - 1, &path) != NAV_SUCCESS,
                         nav_waypoints_route(wp, 0, nav_waypoints_count(wp) - 1, &path) != NAV_SUCCESS);
        nav_waypoints_destroy(back);
        nav_grid_set_cell(grid, 0, 0, nav_grid_passable(grid, 0, 0) ? NAV_TERRAIN_BLOCKED : 1);
        assert_int_equal(nav_waypoints_read_chunk(w.data, w.size, grid, NULL, &log.hooks, &back),
                         NAV_FAILURE | NAV_SOURCE_MISMATCH);
        assert_null(back);
        assert_non_null(strstr(log.last, "belong to another grid"));
        nav_writer_destroy(&w);
        nav_waypoints_destroy(wp);
        nav_grid_destroy(grid);
    }
    nav_path_destroy(&path);
}

/* Offsets in a chunk of the hand-made graph (4 waypoints, names "a".."d", 4 links). */
enum { CHUNK_HEAD = 24, CHUNK_POINTS = CHUNK_HEAD + 4 * 20, CHUNK_NAMES_END = CHUNK_POINTS + 9 + 7 };
enum { CHUNK_LINKS = CHUNK_NAMES_END, CHUNK_DIST = CHUNK_LINKS + 4 * 24, CHUNK_HOP = CHUNK_DIST + 16 * 4 };

/* Reads damaged chunk data: it fails cleanly, saying so, with what_said in the log [opt]. */
static void expect_corrupt(const uint8_t *bytes, size_t size, const char *what_said)
{
    test_log log;
    test_log_init(&log);
    nav_waypoints *wp = NULL;
    nav_status s = nav_waypoints_read_chunk(bytes, size, NULL, NULL, &log.hooks, &wp);
    if (s != (NAV_FAILURE | NAV_CORRUPT_DATA))
        fail_msg("%zu bytes, expecting '%s': %s", size, what_said ? what_said : "", nav_status_str(s));
    assert_null(wp);
    assert_non_null(strstr(log.last, "WAYPOINTS chunk: "));
    if (what_said && !strstr(log.last, what_said)) fail_msg("'%s' does not say '%s'", log.last, what_said);
}

static void put_u32(uint8_t *at, uint32_t v)
{
    for (int i = 0; i < 4; i++) at[i] = (uint8_t)(v >> (8 * i));
}

static void put_f32(uint8_t *at, float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    put_u32(at, v);
}

/* Writes value at `at` as a u32 (kind 0), f32 (1) or u16 (2), little-endian. */
static void put_value(uint8_t *at, int kind, double value)
{
    if (kind == 2) {
        uint16_t v = (uint16_t)value;
        at[0] = (uint8_t)v, at[1] = (uint8_t)(v >> 8);
    } else if (kind == 0) {
        put_u32(at, (uint32_t)value);
    } else {
        put_f32(at, (float)value);
    }
}

/* Every way of damaging a chunk that the reader promises to catch, one at a time; then every byte
 * flipped and every length cut: each read fails cleanly or gives a bake whose every route walks. */
/* Every prefix of a chunk of the hand-made graph refused as corrupt; every byte with bits flipped
 * (every `bit_step`-th bit) read cleanly or refused as corrupt, and what loads walks its routes at
 * the distance it reports, within the floats' rounding. Returns how many loaded. */
static int cut_and_flip(const nav_writer *w, uint8_t *copy, int bit_step)
{
    nav_path path;
    nav_path_init(&path, NULL);
    for (size_t n = 0; n < w->size; n++) expect_corrupt(w->data, n, NULL);
    int loaded = 0;
    for (size_t at = 0; at < w->size; at++)
        for (int bit = 0; bit < 8; bit += bit_step) {
            memcpy(copy, w->data, w->size);
            copy[at] ^= (uint8_t)(1u << bit);
            nav_waypoints *back = NULL;
            nav_status s = nav_waypoints_read_chunk(copy, w->size, NULL, NULL, NULL, &back);
            if (nav_failed(s)) {
                /* flag bit 2 set: the retired compressed rows, refused as a version */
                if (at != 12 || bit != 2) FAILS_WITH(s, NAV_CORRUPT_DATA);
                assert_null(back);
                continue;
            }
            loaded++;
            for (uint32_t u = 0; u < 4; u++)
                for (uint32_t v = 0; v < 4; v++) {
                    nav_status r = nav_waypoints_route(back, u, v, &path);
                    double d = nav_waypoints_distance(back, u, v);
                    if (isinf(d)) {
                        assert_int_equal(r, NAV_FAILURE | NAV_UNREACHABLE);
                        continue;
                    }
                    assert_int_equal(r, NAV_SUCCESS);
                    assert_true(fabs(path.cost - d) <= 1e-5 * d);
                }
            nav_waypoints_destroy(back);
        }
    nav_path_destroy(&path);
    return loaded;
}

static void test_chunk_damage(void **state)
{
    (void)state;
    nav_waypoint_graph g = {
        .waypoints = hand_points, .waypoint_count = 4, .links = hand_links, .link_count = 4};
    nav_waypoints *wp = bake_or_fail(&g, NULL);
    nav_writer w;
    write_chunk(wp, &w);
    assert_int_equal(w.size, CHUNK_HOP + 16 * 2);
    uint8_t *copy = malloc(w.size + 8);
    struct {
        size_t at;
        int kind; /* 0: u32, 1: f32, 2: u16 */
        double value;
        const char *said;
    } cases[] = {
        {0, 0, 70000, "more waypoints"},
        {0, 0, 5, "counts larger"},
        {4, 0, 9, "counts larger"},
        {8, 0, 0, "counts larger"},
        {12, 0, 2, "bad flags"},
        {12, 0, 32, "bad flags"},
        {12, 0, 16, "bad flags"}, /* one label a waypoint, without labels */
        {16, 0, 1, "fingerprint without a grid"},
        {CHUNK_HEAD + 0, 1, NAN, "position not finite"},
        {CHUNK_HEAD + 16, 0, 2, "a name out of place"}, /* names: "\0a\0b\0c\0d\0"; 2 is a's end */
        {CHUNK_HEAD + 16, 0, 9, "a name out of place"},
        {CHUNK_HEAD + 36, 0, 1, "are both named 'a'"},
        {CHUNK_POINTS, 0, 'x', "start and end with a NUL"},
        {CHUNK_LINKS, 0, 4, "out of range"},
        {CHUNK_LINKS + 12, 0, 0xfff80000u, "not above 0"},          /* the cost's high word: a NaN */
        {CHUNK_LINKS + 12, 0, 0x40200000u, "from waypoint 0 to 1"}, /* a-b costs 8, the table says 4 */
        {CHUNK_LINKS + 18, 0, 2, "bad flags or padding"},
        {CHUNK_LINKS + 20, 0, 1, "bad flags or padding"},
        {CHUNK_DIST + 4, 1, 5, "from waypoint 0 to 1"}, /* a-b is 4 */
        {CHUNK_DIST + 4, 1, INFINITY, "from waypoint 0 to 1"},
        {CHUNK_DIST + 4, 1, -4, "from waypoint 0 to 1"},
        {CHUNK_DIST + 0, 1, 1, "from waypoint 0 to 0"},
        {CHUNK_HOP + 2, 2, 2, "from waypoint 0 to 1"},       /* 0 -> 1 by c: no link */
        {CHUNK_HOP + 14, 2, 1, "from waypoint 1 to 3"},      /* 1 -> 3 by 1 itself */
        {CHUNK_HOP + 14, 2, 4, "from waypoint 1 to 3"},      /* out of range */
        {CHUNK_HOP + 14, 2, 0xffff, "from waypoint 1 to 3"}, /* no route, at a finite distance */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(copy, w.data, w.size);
        put_value(copy + cases[i].at, cases[i].kind, cases[i].value);
        expect_corrupt(copy, w.size, cases[i].said);
    }
    /* bytes after the end, and a padding byte */
    memcpy(copy, w.data, w.size);
    copy[w.size] = 0;
    expect_corrupt(copy, w.size + 4, "bytes after the tables");
    memcpy(copy, w.data, w.size);
    copy[CHUNK_POINTS + 9 + 3] = 1; /* the names are 9 bytes, padded to 16 */
    expect_corrupt(copy, w.size, "padding that is not zero");

    /* every length cut short, every byte flipped */
    int loaded = cut_and_flip(&w, copy, 3);
    assert_true(loaded > 0); /* tags, flags, and positions the costs do not depend on */
    free(copy);
    nav_writer_destroy(&w);
    nav_waypoints_destroy(wp);
}

/* .nav files: saved with their grid and loaded back; another grid, two chunks, another version,
 * and allocation failures at every step. */
/* Hub labels in a chunk: their damage found, every cut and flip read cleanly, and what loads walks
 * its routes at the distance it reports. The hand-made graph (one-way d -> c) keeps out- and
 * in-labels; its hubs rank a, c, b, d; out-labels hold 1, 3, 2 and 3 entries, in-labels 1, 3, 2 and 2
 * (entry: u16 hub, u16 hop, f32 distance). */
static void test_labels_chunk_damage(void **state)
{
    (void)state;
    nav_waypoint_graph g = {
        .waypoints = hand_points, .waypoint_count = 4, .links = hand_links, .link_count = 4};
    nav_waypoints *wp = bake_or_fail(&g, &(nav_waypoints_bake_desc){.dense_max = 1});
    assert_true(nav_waypoints_compressed(wp));
    nav_writer w;
    write_chunk(wp, &w);
    enum { HUBS = CHUNK_DIST, OUT_STARTS = HUBS + 8, OUT = OUT_STARTS + 20, IN_STARTS = OUT + 9 * 8 };
    enum { IN = IN_STARTS + 20 };
    assert_int_equal(w.size, IN + 8 * 8);
    uint8_t *copy = malloc(w.size + 8);
    struct {
        size_t at;
        int kind; /* 0: u32, 1: f32, 2: u16 */
        double value;
        const char *said;
    } cases[] = {
        {12, 0, 8 | 16, "one label a waypoint, but links that cost differently each way"},
        {HUBS + 2, 2, 0, "a hub once: rank 1"},
        {HUBS, 2, 4, "a hub once: rank 0"},
        {OUT_STARTS, 0, 1, "a first label not at 0"},
        {OUT_STARTS + 8, 0, 0, "label starts going back"},
        {IN_STARTS + 16, 0, 9, "do not fill"},
        {IN_STARTS + 16, 0, 7, "do not fill"},
        {OUT + 4, 1, 1, "out-label of waypoint 0"},      /* a's own entry not at 0 */
        {OUT + 8 + 4, 1, 5, "out-label of waypoint 1"},  /* b -> a is 4 */
        {OUT + 8 + 2, 2, 2, "out-label of waypoint 1"},  /* b -> a by c: c -> a is 8, not 0 */
        {OUT + 32 + 2, 2, 3, "out-label of waypoint 2"}, /* c -> a by d: no link c -> d */
        {OUT + 16, 2, 0, "out-label of waypoint 1"},     /* hubs not ascending */
        {OUT + 16, 2, 4, "out-label of waypoint 1"},     /* no such hub */
        {OUT + 16 + 2, 2, 9, "out-label of waypoint 1"}, /* no such waypoint */
        {IN + 32 + 2, 2, 1, "in-label of waypoint 2"},   /* a -> c by b: a -> b is 4, not 2 */
        {IN + 32 + 4, 1, NAN, "in-label of waypoint 2"}, /* a -> c */
        {IN + 32 + 4, 1, -6, "in-label of waypoint 2"},  /* a -> c */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(copy, w.data, w.size);
        put_value(copy + cases[i].at, cases[i].kind, cases[i].value);
        expect_corrupt(copy, w.size, cases[i].said);
    }
    /* the compressed first moves of older bakes (flag bit 2) are refused as a version */
    memcpy(copy, w.data, w.size);
    put_u32(copy + 12, 4);
    test_log log;
    test_log_init(&log);
    nav_waypoints *back = NULL;
    assert_int_equal(nav_waypoints_read_chunk(copy, w.size, NULL, NULL, &log.hooks, &back),
                     NAV_FAILURE | NAV_WRONG_VERSION);
    assert_null(back);
    assert_non_null(strstr(log.last, "bake the waypoints again"));
    assert_true(cut_and_flip(&w, copy, 1) > 0);
    free(copy);
    nav_writer_destroy(&w);
    nav_waypoints_destroy(wp);
}

/* A forged cycle of first moves that every distance allows: centre c (the first hub: every route
 * between the others runs through it) joined to p, q, r and s, and p - q costs 1e-12, within the
 * floats' rounding of p's and q's distances to c; p's first move towards c turned to q and q's to
 * p. Refused, rather than walked round for ever. */
static void test_labels_chunk_cycle(void **state)
{
    (void)state;
    enum { N = 5, LINKS = 5, C = 0, P = 1, Q = 2 };
    nav_waypoint points[N] = {{.position = {0, 0, 0}},
                              {.position = {1, 0, 0}},
                              {.position = {1, 0, 0}},
                              {.position = {-1, 0, 0}},
                              {.position = {0, 0, 1}}};
    nav_waypoint_link links[LINKS] = {{.from = C, .to = P},
                                      {.from = C, .to = Q},
                                      {.from = C, .to = 3},
                                      {.from = C, .to = 4},
                                      {.from = P, .to = Q, .cost = 1e-12}};
    nav_waypoint_graph g = {.waypoints = points, .waypoint_count = N, .links = links, .link_count = LINKS};
    nav_waypoints *wp = bake_or_fail(&g, &(nav_waypoints_bake_desc){.dense_max = 1});
    nav_writer w;
    write_chunk(wp, &w);
    /* header and waypoints, names (one NUL, padded to 8), links; hub ranks (padded to 4); one label
     * a waypoint (every link two-way): its starts, then entries of 8 bytes */
    enum { HUBS = ((24 + 20 * N + 1 + 7) & ~7) + 24 * LINKS, STARTS = HUBS + ((2 * N + 3) & ~3) };
    enum { ENTRIES = STARTS + 4 * (N + 1) };
    uint8_t *copy = malloc(w.size);
    memcpy(copy, w.data, w.size);
    uint32_t first[N + 1];
    for (uint32_t v = 0; v <= N; v++)
        first[v] = (uint32_t)copy[STARTS + 4 * v] | (uint32_t)copy[STARTS + 4 * v + 1] << 8;
    assert_true(copy[HUBS] == C && copy[HUBS + 1] == 0 && w.size == ENTRIES + 8 * first[N]);
    int turned = 0;
    for (uint32_t v = P; v <= Q; v++) /* their entries for c (rank 0), first moves to each other */
        for (uint32_t k = first[v]; k < first[v + 1]; k++)
            if (copy[ENTRIES + 8 * k] == 0 && copy[ENTRIES + 8 * k + 1] == 0) {
                copy[ENTRIES + 8 * k + 2] = (uint8_t)(v == P ? Q : P);
                turned++;
            }
    assert_int_equal(turned, 2);
    expect_corrupt(copy, w.size, "go round in circles");
    memcpy(copy, w.data, w.size);
    put_u32(copy + 12, 8); /* labels, but two a waypoint */
    expect_corrupt(copy, w.size, "two labels a waypoint, but links that cost the same both ways");
    free(copy);
    nav_writer_destroy(&w);
    nav_waypoints_destroy(wp);
}

static void test_chunk_files(void **state)
{
    (void)state;
    unsigned seed = 77;
    nav_grid *grid = random_grid(14, 11, 25, false, false, &seed),
             *other = random_grid(14, 11, 25, false, false, &seed);
    nav_waypoints *wp = NULL, *back = NULL;
    assert_int_equal(nav_waypoints_bake_grid(grid, NULL, &wp), NAV_SUCCESS);
    char path[] = "/tmp/libnav_wp_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    test_log log;
    test_log_init(&log);
    assert_int_equal(nav_waypoints_save_nav(other, wp, path, &log.hooks), NAV_FAILURE | NAV_SOURCE_MISMATCH);
    assert_non_null(strstr(log.last, "belong to another grid"));
    assert_int_equal(nav_waypoints_save_nav(grid, wp, path, &log.hooks), NAV_SUCCESS);
    nav_grid *loaded = NULL;
    assert_int_equal(nav_waypoints_load_nav(path, NULL, NULL, &back, &loaded), NAV_SUCCESS);
    assert_true(nav_grid_fingerprint(loaded) == nav_grid_fingerprint(grid));
    assert_same_bake(wp, back);
    nav_waypoints_query *q = NULL;
    assert_int_equal(nav_waypoints_query_create(back, &(nav_waypoints_query_desc){.grid = loaded}, &q),
                     NAV_SUCCESS);
    nav_waypoints_query_destroy(q);
    nav_waypoints_destroy(back);
    nav_grid_destroy(loaded);
    /* allocation failures while loading */
    int failed = 0;
    for (long at = 1;; at++) {
        test_allocator t;
        test_allocator_init(&t, at);
        nav_status s = nav_waypoints_load_nav(path, &t.hooks, NULL, &back, &loaded);
        if (nav_succeeded(s)) {
            nav_waypoints_destroy(back);
            nav_grid_destroy(loaded);
            assert_int_equal(t.live, 0);
            break;
        }
        FAILS_WITH(s, NAV_OUT_OF_MEMORY);
        assert_null(back);
        assert_null(loaded);
        assert_int_equal(t.live, 0);
        failed++;
    }
    assert_true(failed > 10);

    /* another grid's chunk beside this grid */
    nav_writer gw, ww;
    nav_writer_init(&gw, NULL);
    write_chunk(wp, &ww);
    assert_int_equal(nav_grid_write_chunk(other, &gw), NAV_SUCCESS);
    nav_chunk chunks[3] = {{NAV_CHUNK_GRID, NAV_GRID_CHUNK_VERSION, gw.data, gw.size},
                           {NAV_CHUNK_WAYPOINTS, NAV_WAYPOINTS_CHUNK_VERSION, ww.data, ww.size},
                           {NAV_CHUNK_WAYPOINTS, NAV_WAYPOINTS_CHUNK_VERSION, ww.data, ww.size}};
    assert_int_equal(nav_container_write_file(path, chunks, 2, NULL), NAV_SUCCESS);
    FAILS_WITH(nav_waypoints_load_nav(path, NULL, &log.hooks, &back, &loaded), NAV_SOURCE_MISMATCH);
    assert_null(back);
    assert_null(loaded);
    assert_non_null(strstr(log.last, "belong to another grid"));
    assert_int_equal(nav_waypoints_load_nav(path, NULL, NULL, &back, NULL), NAV_SUCCESS); /* no grid asked */
    nav_waypoints_destroy(back);
    assert_int_equal(nav_container_write_file(path, chunks, 3, NULL), NAV_SUCCESS);
    FAILS_WITH(nav_waypoints_load_nav(path, NULL, &log.hooks, &back, NULL), NAV_CORRUPT_DATA);
    assert_non_null(strstr(log.last, "2 WAYPOINTS chunks"));
    chunks[1].version = 2;
    assert_int_equal(nav_container_write_file(path, chunks, 2, NULL), NAV_SUCCESS);
    FAILS_WITH(nav_waypoints_load_nav(path, NULL, NULL, &back, NULL), NAV_WRONG_VERSION);
    assert_int_equal(nav_container_write_file(path, chunks, 1, NULL), NAV_SUCCESS);
    FAILS_WITH(nav_waypoints_load_nav(path, NULL, &log.hooks, &back, NULL), NAV_CORRUPT_DATA);
    assert_non_null(strstr(log.last, "no WAYPOINTS chunk"));
    /* a hand-made graph saves alone, not beside a grid */
    nav_waypoint_graph g = {
        .waypoints = hand_points, .waypoint_count = 4, .links = hand_links, .link_count = 4};
    nav_waypoints *hand = bake_or_fail(&g, NULL);
    assert_int_equal(nav_waypoints_save_nav(grid, hand, path, &log.hooks), NAV_FAILURE | NAV_SOURCE_MISMATCH);
    assert_non_null(strstr(log.last, "not baked from a grid"));
    assert_int_equal(nav_waypoints_save_nav(NULL, hand, path, NULL), NAV_SUCCESS);
    assert_int_equal(nav_waypoints_load_nav(path, NULL, NULL, &back, NULL), NAV_SUCCESS);
    assert_same_bake(hand, back);
    nav_waypoints_destroy(back);
    nav_waypoints_destroy(hand);
    nav_writer_destroy(&gw);
    nav_writer_destroy(&ww);
    unlink(path);
    nav_waypoints_destroy(wp);
    nav_grid_destroy(grid);
    nav_grid_destroy(other);
}

/* The waypoint of wp at world point p (x and z), or NAV_WAYPOINTS_NONE. */
static uint32_t waypoint_at(const nav_waypoints *wp, nav_vec3 p)
{
    for (uint32_t i = 0; i < nav_waypoints_count(wp); i++) {
        nav_vec3 q = nav_waypoints_position(wp, i);
        if (q.x == p.x && q.z == p.z) return i;
    }
    return NAV_WAYPOINTS_NONE;
}

/* Graphs made from navigation meshes: on meshes built from random grids (one cost, and terrain),
 * the mesh's corners are the grid's, its links the grid's (pruned alike, or all kept), and every
 * route costs the same; an off-mesh link adds its two ends and itself. */
static void test_mesh_graph_matches_grid(void **state)
{
    (void)state;
    unsigned seed = 23;
    for (int round = 0; round < 60; round++) {
        int32_t w = 3 + (int32_t)(rand_r(&seed) % 26), h = 3 + (int32_t)(rand_r(&seed) % 26);
        bool terrain = round % 3 == 1, keep = round % 4 == 3;
        nav_grid *grid = random_grid(w, h, 5 + (int)(rand_r(&seed) % 40), terrain, false, &seed);
        nav_mesh *mesh = NULL;
        assert_int_equal(nav_mesh_build_from_grid(grid, NULL, &mesh), NAV_SUCCESS);
        nav_waypoints *from_grid = NULL, *from_mesh = NULL;
        assert_int_equal(
            nav_waypoints_bake_grid(grid, &(nav_waypoint_grid_desc){.keep_all_links = keep}, &from_grid),
            NAV_SUCCESS);
        assert_int_equal(
            nav_waypoints_bake_mesh(mesh, &(nav_waypoint_mesh_desc){.keep_all_links = keep, .threads = 2},
                                    &from_mesh),
            NAV_SUCCESS);
        uint32_t n = nav_waypoints_count(from_grid);
        assert_int_equal(nav_waypoints_count(from_mesh), n);
        assert_int_equal(nav_waypoints_link_count(from_mesh), nav_waypoints_link_count(from_grid));
        uint32_t *to_mesh = malloc((n ? n : 1) * sizeof *to_mesh);
        assert_non_null(to_mesh);
        for (uint32_t i = 0; i < n; i++) {
            to_mesh[i] = waypoint_at(from_mesh, nav_waypoints_position(from_grid, i));
            if (to_mesh[i] == NAV_WAYPOINTS_NONE)
                fail_msg("round %d: grid corner %u is no mesh corner", round, i);
        }
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t j = 0; j < n; j++) {
                double a = nav_waypoints_distance(from_grid, i, j),
                       b = nav_waypoints_distance(from_mesh, to_mesh[i], to_mesh[j]);
                if (!(a == b || fabs(a - b) <= 1e-6 * a))
                    fail_msg("round %d: %u -> %u costs %.9g on the grid's graph, %.9g on the mesh's", round,
                             i, j, a, b);
            }
        free(to_mesh);
        nav_waypoints_destroy(from_grid);
        nav_waypoints_destroy(from_mesh);
        nav_mesh_destroy(mesh);
        nav_grid_destroy(grid);
    }

    /* an off-mesh link: a ladder over a wall across the map, one-way, with its own cost */
    nav_grid *grid = NULL;
    assert_int_equal(nav_grid_create(&(nav_grid_desc){.width = 9, .height = 3}, &grid), NAV_SUCCESS);
    for (int32_t y = 0; y < 3; y++) nav_grid_set_cell(grid, 4, y, NAV_TERRAIN_BLOCKED);
    nav_mesh_link_desc ladder = {
        .start = nav_vec3_make(1.5f, 0, 1.5f), .end = nav_vec3_make(7.5f, 0, 1.5f), .cost = 2.5};
    nav_mesh *mesh = NULL;
    assert_int_equal(
        nav_mesh_build_from_grid(grid, &(nav_mesh_build_desc){.links = &ladder, .link_count = 1}, &mesh),
        NAV_SUCCESS);
    nav_waypoints *wp = NULL;
    /* every allocation failure (two threads: the allocator is called from this one only) */
    int failed = 0;
    for (long at = 1;; at++) {
        test_allocator t;
        test_allocator_init(&t, at);
        nav_status s = nav_waypoints_bake_mesh(
            mesh, &(nav_waypoint_mesh_desc){.allocator = &t.hooks, .threads = 2}, &wp);
        nav_waypoints_destroy(wp);
        assert_int_equal(t.live, 0);
        if (nav_succeeded(s)) break;
        FAILS_WITH(s, NAV_OUT_OF_MEMORY);
        assert_null(wp);
        failed++;
    }
    assert_true(failed > 5);
    assert_int_equal(nav_waypoints_bake_mesh(mesh, NULL, &wp), NAV_SUCCESS);
    assert_int_equal(nav_waypoints_count(wp), 2); /* a wall across the map has no convex corner */
    assert_true(nav_waypoints_distance(wp, 0, 1) == 2.5);
    assert_true(isinf(nav_waypoints_distance(wp, 1, 0)));
    nav_waypoints_destroy(wp);
    nav_mesh_destroy(mesh);
    nav_grid_destroy(grid);
}

/* Bakes of grids and of meshes at 1 and at 3 threads: the same links in the same order, the same
 * block lists (as bytes), the same paths between points. */
static void test_generated_same_any_thread_count(void **state)
{
    (void)state;
    unsigned seed = 61;
    nav_path a, b;
    nav_path_init(&a, NULL);
    nav_path_init(&b, NULL);
    for (int round = 0; round < 6; round++) {
        nav_grid *grid = random_grid(20 + round * 5, 18 + round * 3, 25, round % 2 == 1, false, &seed);
        nav_mesh *mesh = NULL;
        assert_int_equal(nav_mesh_build_from_grid(grid, NULL, &mesh), NAV_SUCCESS);
        nav_waypoints *g1 = NULL, *g3 = NULL, *m1 = NULL, *m3 = NULL;
        assert_int_equal(nav_waypoints_bake_grid(grid, &(nav_waypoint_grid_desc){.threads = 1}, &g1),
                         NAV_SUCCESS);
        assert_int_equal(nav_waypoints_bake_grid(grid, &(nav_waypoint_grid_desc){.threads = 3}, &g3),
                         NAV_SUCCESS);
        assert_int_equal(nav_waypoints_bake_mesh(mesh, &(nav_waypoint_mesh_desc){.threads = 1}, &m1),
                         NAV_SUCCESS);
        assert_int_equal(nav_waypoints_bake_mesh(mesh, &(nav_waypoint_mesh_desc){.threads = 3}, &m3),
                         NAV_SUCCESS);
        const nav_waypoints *pairs[2][2] = {{g1, g3}, {m1, m3}};
        for (int k = 0; k < 2; k++) {
            const nav_waypoints *x = pairs[k][0], *y = pairs[k][1];
            assert_int_equal(nav_waypoints_link_count(x), nav_waypoints_link_count(y));
            assert_int_equal(nav_waypoints_memory_bytes(x), nav_waypoints_memory_bytes(y));
            for (uint32_t l = 0; l < nav_waypoints_link_count(x); l++) {
                nav_waypoint_link p, q;
                assert_true(nav_waypoints_link(x, l, &p) && nav_waypoints_link(y, l, &q));
                assert_true(p.from == q.from && p.to == q.to && p.cost == q.cost && p.one_way == q.one_way);
            }
        }
        nav_waypoints_query *q1 = NULL, *q3 = NULL;
        assert_int_equal(nav_waypoints_query_create(g1, &(nav_waypoints_query_desc){.grid = grid}, &q1),
                         NAV_SUCCESS);
        assert_int_equal(nav_waypoints_query_create(g3, &(nav_waypoints_query_desc){.grid = grid}, &q3),
                         NAV_SUCCESS);
        for (int i = 0; i < 40; i++) {
            double sx, sy, gx, gy;
            if (!random_free_point(grid, &seed, &sx, &sy) || !random_free_point(grid, &seed, &gx, &gy))
                continue;
            nav_vec3 s = nav_grid_units_to_world(grid, sx, sy), g = nav_grid_units_to_world(grid, gx, gy);
            assert_int_equal(nav_waypoints_find_path(q1, s, g, &a, NULL),
                             nav_waypoints_find_path(q3, s, g, &b, NULL));
            assert_int_equal(a.count, b.count);
            assert_true(a.cost == b.cost);
            for (uint32_t p = 0; p < a.count; p++) assert_int_equal(a.nodes[p], b.nodes[p]);
        }
        nav_waypoints_query_destroy(q1);
        nav_waypoints_query_destroy(q3);
        nav_waypoints_destroy(g1);
        nav_waypoints_destroy(g3);
        nav_waypoints_destroy(m1);
        nav_waypoints_destroy(m3);
        nav_mesh_destroy(mesh);
        nav_grid_destroy(grid);
    }
    nav_path_destroy(&a);
    nav_path_destroy(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_made_routes),
        cmocka_unit_test(test_disabled_unreachable_parallel),
        cmocka_unit_test(test_tables_against_dijkstra),
        cmocka_unit_test(test_same_tables_any_thread_count),
        cmocka_unit_test(test_labels_on_a_road),
        cmocka_unit_test(test_labels_on_a_lattice),
        cmocka_unit_test(test_labels_on_a_one_way_lattice),
        cmocka_unit_test(test_filtered_routes),
        cmocka_unit_test(test_filter_closes_a_door),
        cmocka_unit_test(test_nearest_against_brute_force),
        cmocka_unit_test(test_size_limit),
        cmocka_unit_test(test_bad_graphs),
        cmocka_unit_test(test_dearest_links),
        cmocka_unit_test(test_progress_and_cancel),
        cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_text_format),
        cmocka_unit_test(test_text_errors),
        cmocka_unit_test(test_text_damage_and_allocation),
        cmocka_unit_test(test_grid_graph_brute_force),
        cmocka_unit_test(test_grid_points_against_reference),
        cmocka_unit_test(test_sight_parts),
        cmocka_unit_test(test_sight_sure),
        cmocka_unit_test(test_point_stamps_wrap),
        cmocka_unit_test(test_grid_nearest_visible),
        cmocka_unit_test(test_mesh_graph_matches_grid),
        cmocka_unit_test(test_generated_same_any_thread_count),
        cmocka_unit_test(test_grid_bake_and_query_errors),
        cmocka_unit_test(test_chunk_round_trip),
        cmocka_unit_test(test_chunk_damage),
        cmocka_unit_test(test_labels_chunk_damage),
        cmocka_unit_test(test_labels_chunk_cycle),
        cmocka_unit_test(test_chunk_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
