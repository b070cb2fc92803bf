/* Worlds (nav/world.h): regions stitched through links, against a brute-force search over the
 * flattened world (every cell of every region one node, grid moves and links its edges). */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grid_internal.h"  /* the grid's steps, */
#include "world_internal.h" /* the grid kind's check of a kept way */
#include "nav/anyangle.h"
#include "nav/geometry.h"
#include "nav/region.h"
#include "nav/world.h"
#include "levelgen.h"
#include "reference.h"
#include "support.h"

/* ---- The flat reference ---------------------------------------------------------------------- */

typedef struct flat_link {
    uint32_t from_region, to_region;
    nav_vec3 from, to;
    double cost;
    bool one_way, enabled;
} flat_link;

/* A region of the flattened world: a grid (every cell a node), a mesh built from a grid of one
 * cost (nodes: the places the query needs, the links' ends and the query's ends, joined pairwise
 * by the brute-force any-angle reference of tests/reference.c), or a waypoint graph (every
 * waypoint a node, its links the edges). */
typedef struct flat_region {
    nav_world_region_kind kind;
    const nav_grid *grid; /* a grid region's, or the grid a mesh was built from */
    const nav_waypoint_graph *graph;
    test_reference ref;
    nav_vec3 points[72]; /* a mesh's nodes */
    uint32_t point_count;
    double *pair;  /* a mesh's costs between its nodes, worked out when first needed (NAN: not yet) */
    double factor; /* a mesh's cost factor (0: 1), as a query's mesh filter gives every area it keeps */
} flat_region;

typedef struct flat_world {
    flat_region regions[8];
    uint32_t offset[9]; /* each region's first node */
    uint32_t count;
    flat_link links[128];
    uint32_t link_count;
} flat_world;

static void add_flat(flat_world *f, nav_world_region_kind kind, const nav_grid *g,
                     const nav_waypoint_graph *graph)
{
    flat_region *r = &f->regions[f->count++];
    *r = (flat_region){.kind = kind, .grid = g, .graph = graph};
    if (kind == NAV_WORLD_REGION_MESH) test_reference_init(&r->ref, g);
}

static void add_flat_grid(flat_world *f, const nav_grid *g)
{
    add_flat(f, NAV_WORLD_REGION_GRID, g, NULL);
}

static void flat_free(flat_world *f)
{
    for (uint32_t r = 0; r < f->count; r++) {
        if (f->regions[r].kind == NAV_WORLD_REGION_MESH) test_reference_destroy(&f->regions[r].ref);
        free(f->regions[r].pair);
    }
}

static nav_vec3 waypoint_at(const nav_waypoint_graph *g, uint32_t i)
{
    return g->waypoints[i].position;
}

/* A waypoint link's cost: its own, or its 3D length in doubles. */
static double road_cost(const nav_waypoint_graph *g, const nav_waypoint_link *l)
{
    nav_vec3 a = waypoint_at(g, l->from), b = waypoint_at(g, l->to);
    double dx = (double)b.x - a.x, dy = (double)b.y - a.y, dz = (double)b.z - a.z;
    return l->cost ? l->cost : sqrt(dx * dx + dy * dy + dz * dz);
}

/* The node of point p in region r. */
static uint32_t flat_node(const flat_world *f, uint32_t region, nav_vec3 p)
{
    const flat_region *r = &f->regions[region];
    if (r->kind == NAV_WORLD_REGION_GRID) {
        int32_t x, y;
        assert_true(nav_grid_world_to_cell(r->grid, p, &x, &y));
        return f->offset[region] + nav_grid_index(r->grid, x, y);
    }
    if (r->kind == NAV_WORLD_REGION_MESH) {
        for (uint32_t i = 0; i < r->point_count; i++)
            if (r->points[i].x == p.x && r->points[i].z == p.z) return f->offset[region] + i;
        fail_msg("a point not among the mesh's nodes");
    }
    uint32_t best = 0; /* the nearest waypoint, the lower index on ties */
    for (uint32_t i = 1; i < r->graph->waypoint_count; i++)
        if (nav_vec3_dist(waypoint_at(r->graph, i), p) < nav_vec3_dist(waypoint_at(r->graph, best), p))
            best = i;
    return f->offset[region] + best;
}

/* Numbers the nodes for a query from a to b (a mesh's nodes: its links' ends, then a and b there). */
static void flat_prepare(flat_world *f, const nav_world_place *a, const nav_world_place *b)
{
    for (uint32_t r = 0; r < f->count; r++) {
        flat_region *region = &f->regions[r];
        uint32_t n = 0;
        if (region->kind == NAV_WORLD_REGION_GRID)
            n = (uint32_t)(nav_grid_width(region->grid) * nav_grid_height(region->grid));
        if (region->kind == NAV_WORLD_REGION_WAYPOINTS) n = region->graph->waypoint_count;
        if (region->kind == NAV_WORLD_REGION_MESH) {
            region->point_count = 0;
            for (uint32_t k = 0; k < f->link_count; k++) {
                if (f->links[k].from_region == r) region->points[region->point_count++] = f->links[k].from;
                if (f->links[k].to_region == r) region->points[region->point_count++] = f->links[k].to;
            }
            if (a->region == r) region->points[region->point_count++] = a->position;
            if (b->region == r) region->points[region->point_count++] = b->position;
            n = region->point_count;
            free(region->pair);
            region->pair = malloc((size_t)(n ? n * n : 1) * sizeof *region->pair);
            for (uint32_t i = 0; i < n * n; i++) region->pair[i] = NAN;
        }
        f->offset[r + 1] = f->offset[r] + n;
    }
}

/* The any-angle cost between a mesh's nodes i and j (grid units scaled to the world). */
static double mesh_pair(flat_region *r, uint32_t i, uint32_t j)
{
    double *c = &r->pair[i * r->point_count + j];
    if (isnan(*c)) {
        const nav_grid_desc *d = nav_grid_get_desc(r->grid);
        nav_vec3 a = r->points[i], b = r->points[j];
        *c = test_reference_cost(&r->ref, (a.x - d->origin.x) / d->cell_size,
                                 (a.z - d->origin.z) / d->cell_size, (b.x - d->origin.x) / d->cell_size,
                                 (b.z - d->origin.z) / d->cell_size) *
             d->cell_size * (r->factor ? r->factor : 1);
    }
    return *c;
}

typedef struct flat_item {
    double d;
    uint32_t v;
} flat_item;

typedef struct flat_heap {
    flat_item *items;
    size_t count, cap;
    double *dist;
} flat_heap;

static void flat_relax(flat_heap *h, uint32_t v, double d)
{
    if (!(d < h->dist[v])) return;
    h->dist[v] = d;
    if (h->count == h->cap) h->items = realloc(h->items, (h->cap *= 2) * sizeof *h->items);
    size_t at = h->count++;
    h->items[at] = (flat_item){d, v};
    while (at && h->items[(at - 1) / 2].d > h->items[at].d) {
        flat_item t = h->items[at];
        h->items[at] = h->items[(at - 1) / 2];
        h->items[(at - 1) / 2] = t;
        at = (at - 1) / 2;
    }
}

/* A heap for a Dijkstra over n nodes from node `from` (every other node at infinity). */
static flat_heap flat_start(uint32_t n, uint32_t from)
{
    flat_heap h = {.items = malloc(64 * sizeof(flat_item)), .cap = 64, .dist = malloc(n * sizeof(double))};
    assert_true(h.items && h.dist);
    for (uint32_t i = 0; i < n; i++) h.dist[i] = INFINITY;
    flat_relax(&h, from, 0);
    return h;
}

static void flat_heap_free(flat_heap *h)
{
    free(h->dist);
    free(h->items);
}

static flat_item flat_pop(flat_heap *h)
{
    flat_item top = h->items[0];
    h->items[0] = h->items[--h->count];
    for (size_t at = 0;;) {
        size_t c = 2 * at + 1;
        if (c >= h->count) break;
        if (c + 1 < h->count && h->items[c + 1].d < h->items[c].d) c++;
        if (h->items[at].d <= h->items[c].d) break;
        flat_item t = h->items[at];
        h->items[at] = h->items[c];
        h->items[c] = t;
        at = c;
    }
    return top;
}

/* Dijkstra from place a to place b over the flattened world. */
static double flat_cost(flat_world *f, const nav_world_place *a, const nav_world_place *b)
{
    flat_prepare(f, a, b);
    uint32_t n = f->offset[f->count], from = flat_node(f, a->region, a->position),
             to = flat_node(f, b->region, b->position);
    flat_heap h = flat_start(n, from);
    while (h.count) {
        flat_item top = flat_pop(&h);
        if (top.d > h.dist[top.v]) continue;
        if (top.v == to) break;
        uint32_t r = 0;
        while (top.v >= f->offset[r + 1]) r++;
        flat_region *region = &f->regions[r];
        uint32_t local = top.v - f->offset[r];
        if (region->kind == NAV_WORLD_REGION_GRID) {
            const nav_grid *g = region->grid;
            int32_t x = (int32_t)(local % (uint32_t)nav_grid_width(g)),
                    y = (int32_t)(local / (uint32_t)nav_grid_width(g));
            double size = nav_grid_get_desc(g)->cell_size;
            for (int d = 0; d < 8; d++) {
                double c = nav_grid_move_cost(g, x, y, (nav_dir)d);
                if (c == NAV_COST_BLOCKED) continue;
                int32_t dx, dy;
                nav_dir_offset((nav_dir)d, &dx, &dy);
                flat_relax(&h, f->offset[r] + nav_grid_index(g, x + dx, y + dy), top.d + c * size);
            }
        } else if (region->kind == NAV_WORLD_REGION_MESH) {
            for (uint32_t j = 0; j < region->point_count; j++)
                if (j != local) flat_relax(&h, f->offset[r] + j, top.d + mesh_pair(region, local, j));
        } else {
            const nav_waypoint_graph *g = region->graph;
            for (uint32_t k = 0; k < g->link_count; k++) {
                const nav_waypoint_link *l = &g->links[k];
                double c = road_cost(g, l);
                if (l->from == local) flat_relax(&h, f->offset[r] + l->to, top.d + c);
                if (l->to == local && !l->one_way) flat_relax(&h, f->offset[r] + l->from, top.d + c);
            }
        }
        for (uint32_t k = 0; k < f->link_count; k++) {
            const flat_link *l = &f->links[k];
            if (!l->enabled) continue;
            uint32_t u = flat_node(f, l->from_region, l->from), v = flat_node(f, l->to_region, l->to);
            if (u == top.v) flat_relax(&h, v, top.d + l->cost);
            if (!l->one_way && v == top.v) flat_relax(&h, u, top.d + l->cost);
        }
    }
    double d = h.dist[to];
    flat_heap_free(&h);
    return d;
}

/* ---- Helpers ----------------------------------------------------------------------------------- */

static uint32_t add_link(nav_world_builder *b, flat_world *f, const nav_world_link_desc *d)
{
    uint32_t id;
    assert_int_equal(nav_world_builder_add_link(b, d, &id), NAV_SUCCESS);
    double cost = d->cost;
    if (cost == 0) {
        double dx = (double)d->to.x - d->from.x, dy = (double)d->to.y - d->from.y,
               dz = (double)d->to.z - d->from.z;
        cost = sqrt(dx * dx + dy * dy + dz * dz);
    }
    f->links[f->link_count++] =
        (flat_link){d->from_region, d->to_region, d->from, d->to, cost, d->one_way, !d->disabled};
    return id;
}

static bool close_to(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1, fabs(b));
}

/* The cost of one leg's points, checked as a walk of its region: grid moves between neighbouring
 * cells (nodes are cells), a mesh's straight segments walkable under the any-angle rule on the grid
 * it was built from, a waypoint graph's links between consecutive waypoints. */
static double leg_cost(const flat_region *r, const nav_path *path, uint32_t first, uint32_t count)
{
    double cost = 0;
    for (uint32_t p = first + 1; p < first + count; p++) {
        if (r->kind == NAV_WORLD_REGION_GRID) {
            const nav_grid *g = r->grid;
            uint32_t a = path->nodes[p - 1], c = path->nodes[p], w = (uint32_t)nav_grid_width(g);
            int32_t ax = (int32_t)(a % w), ay = (int32_t)(a / w), cx = (int32_t)(c % w),
                    cy = (int32_t)(c / w);
            bool found = false;
            for (int d = 0; d < 8 && !found; d++) {
                int32_t dx, dy;
                nav_dir_offset((nav_dir)d, &dx, &dy);
                if (ax + dx == cx && ay + dy == cy) {
                    double m = nav_grid_move_cost(g, ax, ay, (nav_dir)d);
                    assert_true(m != NAV_COST_BLOCKED);
                    cost += m * nav_grid_get_desc(g)->cell_size;
                    found = true;
                }
            }
            assert_true(found);
        } else if (r->kind == NAV_WORLD_REGION_MESH) {
            const nav_grid_desc *d = nav_grid_get_desc(r->grid);
            nav_vec3 a = path->points[p - 1], c = path->points[p];
            double step;
            assert_true(nav_grid_anyangle_segment(
                r->grid, (a.x - d->origin.x) / d->cell_size, (a.z - d->origin.z) / d->cell_size,
                (c.x - d->origin.x) / d->cell_size, (c.z - d->origin.z) / d->cell_size, &step));
            cost += step * d->cell_size * (r->factor ? r->factor : 1);
        } else {
            const nav_waypoint_graph *g = r->graph;
            uint32_t a = path->nodes[p - 1], c = path->nodes[p];
            double best = INFINITY;
            for (uint32_t k = 0; k < g->link_count; k++) {
                const nav_waypoint_link *l = &g->links[k];
                double lc = road_cost(g, l);
                if ((l->from == a && l->to == c) || (!l->one_way && l->to == a && l->from == c))
                    best = fmin(best, lc);
            }
            assert_true(best < INFINITY);
            cost += best;
        }
    }
    return cost;
}

/* The path of the last find_path is a valid walk: each leg's points a walk of its region (leg_cost)
 * from the leg's first place to its last, and the link at a leg's end joins its last place to the
 * next leg's first. Returns the path's cost counted again. */
static double check_path(const nav_world *w, const nav_world_query *q, const flat_world *f,
                         const nav_path *path)
{
    uint32_t count;
    const nav_world_leg *legs = nav_world_query_legs(q, &count);
    assert_non_null(legs);
    double total = 0;
    uint32_t next_point = 0;
    for (uint32_t i = 0; i < count; i++) {
        const nav_world_leg *l = &legs[i];
        assert_int_equal(l->first_point, next_point);
        assert_true(l->point_count >= 1);
        next_point += l->point_count;
        assert_true(nav_vec3_dist_xz(path->points[l->first_point], l->from.position) < 1e-5f);
        assert_true(nav_vec3_dist_xz(path->points[l->first_point + l->point_count - 1], l->to.position) <
                    1e-5f);
        double leg = leg_cost(&f->regions[l->region], path, l->first_point, l->point_count);
        assert_true(close_to(leg, l->cost));
        total += leg;
        if (l->link != NAV_WORLD_NONE) {
            assert_true(i + 1 < count);
            nav_world_link_desc link;
            assert_true(nav_world_link(w, l->link, &link));
            assert_true(nav_world_link_enabled(w, l->link));
            const nav_world_leg *n = &legs[i + 1];
            uint32_t end = flat_node(f, l->region, l->to.position),
                     next = flat_node(f, n->region, n->from.position);
            const flat_link *fl = &f->links[l->link];
            bool forward = fl->from_region == l->region && flat_node(f, fl->from_region, fl->from) == end &&
                           flat_node(f, fl->to_region, fl->to) == next;
            bool backward = !fl->one_way && fl->to_region == l->region &&
                            flat_node(f, fl->to_region, fl->to) == end &&
                            flat_node(f, fl->from_region, fl->from) == next;
            assert_true(forward || backward);
            assert_true(close_to(l->link_cost, link.cost));
            total += link.cost;
        } else {
            assert_int_equal(i + 1, count);
        }
    }
    assert_int_equal(next_point, path->count);
    return total;
}

/* Plans and finds a path from a to b; checks both against the flat reference. Returns the cost
 * (INFINITY when unreachable). */
static double check_query(const nav_world *w, nav_world_query *q, flat_world *f, nav_vec3 a, nav_vec3 b)
{
    nav_world_place pa, pb;
    assert_int_equal(nav_world_locate(w, a, &pa), NAV_SUCCESS);
    assert_int_equal(nav_world_locate(w, b, &pb), NAV_SUCCESS);
    double want = flat_cost(f, &pa, &pb);
    nav_world_result planned, r;
    nav_status s = nav_world_plan(q, a, b, &planned);
    nav_path path;
    nav_path_init(&path, NULL);
    nav_status s2 = nav_world_find_path(q, a, b, &path, &r);
    assert_int_equal(s, s2);
    assert_int_equal(planned.legs, r.legs);
    if (!(want < INFINITY)) {
        assert_int_equal(s, NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE);
        assert_int_equal(path.count, 1);
        nav_path_destroy(&path);
        return INFINITY;
    }
    assert_int_equal(s, NAV_SUCCESS);
    assert_true(close_to(planned.cost, want)); /* the plan's cost, from fans and tables */
    assert_true(close_to(r.cost, want));       /* the refined legs' */
    assert_true(close_to(path.cost, want));
    assert_true(close_to(check_path(w, q, f, &path), want));
    nav_path_destroy(&path);
    return want;
}

static nav_grid *grid_at(const char *const *rows, int32_t h, nav_vec3 origin, float cell_size)
{
    nav_grid_desc d = {.origin = origin, .cell_size = cell_size};
    return test_grid_from_rows(rows, h, &d);
}

/* ---- Tests ----------------------------------------------------------------------------------------- */

/* A two-storey house: stairs from the ground floor up to the upper floor, both over the same
 * ground; from upstairs to the far corner downstairs the route takes the stairs. */
static void test_two_storeys(void **state)
{
    (void)state;
    const char *ground_rows[] = {"..........", "..........", "....###...",
                                 "....#.....", "....#.....", ".........."};
    const char *upper_rows[] = {"..........", ".####.....", "..........",
                                "..........", "......###.", ".........."};
    nav_grid *ground = grid_at(ground_rows, 6, nav_vec3_make(0, 0, 0), 1);
    nav_grid *upper = grid_at(upper_rows, 6, nav_vec3_make(0, 3, 0), 1);
    flat_world f = {0};
    add_flat_grid(&f, ground);
    add_flat_grid(&f, upper);
    nav_world_builder *b;
    assert_int_equal(nav_world_builder_create(NULL, NULL, &b), NAV_SUCCESS);
    uint32_t g, u;
    assert_int_equal(nav_world_builder_add_grid(b, "ground", ground, &g), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_grid(b, "upper", upper, &u), NAV_SUCCESS);
    assert_int_equal(g, 0);
    assert_int_equal(u, 1);
    uint32_t stairs = add_link(b, &f,
                               &(nav_world_link_desc){.name = "stairs",
                                                      .kind = NAV_LINK_STAIRS,
                                                      .from_region = g,
                                                      .from = {9.5f, 0, 0.5f},
                                                      .to_region = u,
                                                      .to = {9.5f, 3, 2.5f},
                                                      .cost = 4});
    nav_world *w;
    assert_int_equal(nav_world_bake(b, NULL, &w), NAV_SUCCESS);
    nav_world_builder_destroy(b);
    nav_world_info info;
    nav_world_get_info(w, &info);
    assert_int_equal(info.regions, 2);
    assert_int_equal(info.links, 1);
    assert_int_equal(info.chokepoints, 2);
    assert_true(info.bytes > 0 && info.bytes == nav_world_memory_bytes(w));
    assert_string_equal(nav_world_region_name(w, u), "upper");
    assert_int_equal(nav_world_find_region(w, "upper"), u);
    assert_int_equal(nav_world_find_region(w, "ground"), g);
    assert_int_equal(nav_world_find_region(w, "cellar"), NAV_WORLD_NONE);
    assert_string_equal(nav_world_link_kind_name(NAV_LINK_STAIRS), "stairs");

    nav_world_query *q;
    assert_int_equal(nav_world_query_create(w, NULL, &q), NAV_SUCCESS);
    /* upstairs, west end, to the ground floor's south-west corner: up to the stairs' top in the
     * north-east, down, and back west below */
    nav_vec3 start = {0.5f, 3.2f, 5.5f}, goal = {0.5f, 0.1f, 5.5f};
    double cost = check_query(w, q, &f, start, goal);
    uint32_t count;
    const nav_world_leg *legs = nav_world_query_legs(q, &count);
    assert_int_equal(count, 2);
    assert_int_equal(legs[0].region, u);
    assert_int_equal(legs[0].link, stairs);
    assert_int_equal(legs[1].region, g);
    assert_int_equal(legs[1].link, NAV_WORLD_NONE);
    assert_true(close_to(legs[0].cost + legs[0].link_cost + legs[1].cost, cost));
    /* on one floor: direct */
    nav_world_result r;
    assert_int_equal(nav_world_plan(q, start, (nav_vec3){9.5f, 3, 5.5f}, &r), NAV_SUCCESS);
    assert_true(r.direct);
    assert_int_equal(r.legs, 1);
    check_query(w, q, &f, start, (nav_vec3){9.5f, 3, 5.5f});
    check_query(w, q, &f, goal, start);
    nav_world_query_destroy(q);
    nav_world_destroy(w);
    nav_grid_destroy(ground);
    nav_grid_destroy(upper);
    flat_free(&f);
}

/* Locate: the floor under the point first, else the nearest above; nothing off every region. */
static void test_locate_floor(void **state)
{
    (void)state;
    const char *ground_rows[] = {"....", "....", "...."};
    const char *upper_rows[] = {"....", "..#.", "...."};
    nav_grid *ground = grid_at(ground_rows, 3, nav_vec3_make(0, 0, 0), 1);
    nav_grid *upper = grid_at(upper_rows, 3, nav_vec3_make(0, 3, 0), 1);
    nav_world_builder *b;
    assert_int_equal(nav_world_builder_create(NULL, NULL, &b), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_grid(b, "ground", ground, NULL), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_grid(b, "upper", upper, NULL), NAV_SUCCESS);
    nav_world *w;
    assert_int_equal(nav_world_bake(b, NULL, &w), NAV_SUCCESS);
    nav_world_builder_destroy(b);
    nav_world_place p;
    assert_int_equal(nav_world_locate(w, (nav_vec3){1.5f, 3.2f, 0.5f}, &p), NAV_SUCCESS);
    assert_int_equal(p.region, 1);
    assert_int_equal(p.id, 1);
    assert_true(p.position.y == 3);
    assert_int_equal(nav_world_locate(w, (nav_vec3){1.5f, 2.7f, 0.5f}, &p), NAV_SUCCESS); /* within 0.5 */
    assert_int_equal(p.region, 1);
    assert_int_equal(nav_world_locate(w, (nav_vec3){1.5f, 2.0f, 0.5f}, &p), NAV_SUCCESS);
    assert_int_equal(p.region, 0);
    assert_int_equal(nav_world_locate(w, (nav_vec3){1.5f, -4.0f, 0.5f}, &p),
                     NAV_SUCCESS); /* the nearest above */
    assert_int_equal(p.region, 0);
    assert_int_equal(nav_world_locate(w, (nav_vec3){2.5f, 3.2f, 1.5f}, &p),
                     NAV_SUCCESS); /* upstairs blocked */
    assert_int_equal(p.region, 0);
    assert_int_equal(p.id, 6);
    FAILS_WITH(nav_world_locate(w, (nav_vec3){4.5f, 0, 0.5f}, &p), NAV_INVALID_PARAM);
    FAILS_WITH(nav_world_locate(w, (nav_vec3){NAN, 0, 0.5f}, &p), NAV_INVALID_PARAM);
    nav_world_query *q;
    assert_int_equal(nav_world_query_create(w, NULL, &q), NAV_SUCCESS);
    nav_path path;
    nav_path_init(&path, NULL);
    FAILS_WITH(nav_world_find_path(q, (nav_vec3){-1, 0, 0}, (nav_vec3){1, 0, 1}, &path, NULL),
               NAV_INVALID_PARAM);
    assert_int_equal(path.count, 0);
    /* no link: from one floor to the other is unreachable */
    assert_int_equal(
        nav_world_find_path(q, (nav_vec3){0.5f, 3, 0.5f}, (nav_vec3){0.5f, 0, 0.5f}, &path, NULL),
        NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE);
    assert_int_equal(path.count, 1);
    nav_path_destroy(&path);
    nav_world_query_destroy(q);
    nav_world_destroy(w);
    nav_grid_destroy(ground);
    nav_grid_destroy(upper);
}

/* A ledge and the yard below, joined by a drop one way and a ladder that can be turned off. */
static void test_one_way_drop(void **state)
{
    (void)state;
    const char *rows[] = {"......", "......", "......"};
    nav_grid *ledge = grid_at(rows, 3, nav_vec3_make(0, 5, 0), 1);
    nav_grid *yard = grid_at(rows, 3, nav_vec3_make(0, 0, 10), 1);
    flat_world f = {0};
    add_flat_grid(&f, ledge);
    add_flat_grid(&f, yard);
    nav_world_builder *b;
    assert_int_equal(nav_world_builder_create(NULL, NULL, &b), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_grid(b, "ledge", ledge, NULL), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_grid(b, "yard", yard, NULL), NAV_SUCCESS);
    add_link(b, &f,
             &(nav_world_link_desc){.kind = NAV_LINK_JUMP,
                                    .from_region = 0,
                                    .from = {2.5f, 5, 2.5f},
                                    .to_region = 1,
                                    .to = {2.5f, 0, 10.5f},
                                    .cost = 1,
                                    .one_way = true});
    uint32_t ladder = add_link(b, &f,
                               &(nav_world_link_desc){.kind = NAV_LINK_LADDER,
                                                      .from_region = 1,
                                                      .from = {5.5f, 0, 10.5f},
                                                      .to_region = 0,
                                                      .to = {5.5f, 5, 2.5f},
                                                      .cost = 8,
                                                      .disabled = true});
    nav_world *w;
    assert_int_equal(nav_world_bake(b, NULL, &w), NAV_SUCCESS);
    nav_world_builder_destroy(b);
    assert_false(nav_world_link_enabled(w, ladder));
    nav_world_query *q;
    assert_int_equal(nav_world_query_create(w, NULL, &q), NAV_SUCCESS);
    nav_vec3 top = {0.5f, 5, 0.5f}, bottom = {0.5f, 0, 12.5f};
    assert_true(check_query(w, q, &f, top, bottom) < INFINITY);
    assert_true(check_query(w, q, &f, bottom, top) == INFINITY); /* the drop cannot be climbed */
    assert_int_equal(nav_world_set_links(w, &(nav_world_link_change){ladder, true}, 1), NAV_SUCCESS);
    f.links[1].enabled = true;
    assert_true(nav_world_link_enabled(w, ladder));
    assert_true(check_query(w, q, &f, bottom, top) < INFINITY);
    FAILS_WITH(nav_world_set_links(w, &(nav_world_link_change){2, false}, 1), NAV_INVALID_PARAM);
    assert_true(nav_world_link_enabled(w, ladder));
    nav_world_query_destroy(q);
    nav_world_destroy(w);
    nav_grid_destroy(ledge);
    nav_grid_destroy(yard);
    flat_free(&f);
}

/* A hall cut by a long wall, with a corridor beside it: from one side of the wall to the other the
 * way through the corridor beats walking round the wall inside the hall. */
static void test_same_region_detour(void **state)
{
    (void)state;
    const char *hall_rows[] = {"..#.....", "..#.....", "..#.....", "..#.....",
                               "..#.....", "..#.....", "..#.....", "........"};
    const char *corridor_rows[] = {"....."};
    nav_grid *hall = grid_at(hall_rows, 8, nav_vec3_make(0, 0, 0), 1);
    nav_grid *corridor = grid_at(corridor_rows, 1, nav_vec3_make(0, 0, -3), 1);
    flat_world f = {0};
    add_flat_grid(&f, hall);
    add_flat_grid(&f, corridor);
    nav_world_builder *b;
    assert_int_equal(nav_world_builder_create(NULL, NULL, &b), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_grid(b, "hall", hall, NULL), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_grid(b, "corridor", corridor, NULL), NAV_SUCCESS);
    add_link(b, &f,
             &(nav_world_link_desc){
                 .from_region = 0, .from = {0.5f, 0, 0.5f}, .to_region = 1, .to = {0.5f, 0, -2.5f}});
    add_link(b, &f,
             &(nav_world_link_desc){
                 .from_region = 1, .from = {4.5f, 0, -2.5f}, .to_region = 0, .to = {4.5f, 0, 0.5f}});
    nav_world *w;
    assert_int_equal(nav_world_bake(b, NULL, &w), NAV_SUCCESS);
    nav_world_builder_destroy(b);
    nav_world_query *q;
    assert_int_equal(nav_world_query_create(w, NULL, &q), NAV_SUCCESS);
    nav_vec3 west = {0.5f, 0, 1.5f}, east = {4.5f, 0, 1.5f};
    check_query(w, q, &f, west, east);
    uint32_t count;
    const nav_world_leg *legs = nav_world_query_legs(q, &count);
    assert_int_equal(count, 3);
    assert_int_equal(legs[0].region, 0);
    assert_int_equal(legs[1].region, 1);
    assert_int_equal(legs[2].region, 0);
    /* the other way the corridor's links only lead in from the west: the long walk round */
    nav_world_result r;
    check_query(w, q, &f, east, west);
    assert_int_equal(nav_world_plan(q, east, west, &r), NAV_SUCCESS);
    assert_false(r.direct); /* east -> corridor's east end -> west end -> hall: links go both ways */
    /* far from the wall the hall's own way wins */
    assert_int_equal(nav_world_plan(q, (nav_vec3){1.5f, 0, 7.5f}, (nav_vec3){3.5f, 0, 7.5f}, &r),
                     NAV_SUCCESS);
    assert_true(r.direct);
    nav_world_query_destroy(q);
    nav_world_destroy(w);
    nav_grid_destroy(hall);
    nav_grid_destroy(corridor);
    flat_free(&f);
}

/* Random worlds of up to five grids (terrain costs, cell sizes, links one-way, disabled, inside one
 * region), every answer against the flat reference. */
static void test_random_worlds(void **state)
{
    (void)state;
    srand(7);
    int compared = 0, unreachable = 0;
    for (int world = 0; world < 40; world++) {
        flat_world f = {0};
        nav_grid *grids[5];
        uint32_t regions = 2 + (uint32_t)(rand() % 4);
        nav_world_builder *b;
        assert_int_equal(nav_world_builder_create(NULL, NULL, &b), NAV_SUCCESS);
        for (uint32_t r = 0; r < regions; r++) {
            float sizes[3] = {1, 0.5f, 2};
            nav_grid_desc d = {.width = 4 + rand() % 9,
                               .height = 3 + rand() % 9,
                               .cell_size = sizes[rand() % 3],
                               .origin = {100.0f * (float)r, 0, 0}};
            assert_int_equal(nav_grid_create(&d, &grids[r]), NAV_SUCCESS);
            assert_int_equal(nav_grid_set_terrain_cost(grids[r], 2, 3.0), NAV_SUCCESS);
            for (int32_t y = 0; y < d.height; y++)
                for (int32_t x = 0; x < d.width; x++) {
                    int k = rand() % 10;
                    nav_grid_set_cell(grids[r], x, y, k < 3 ? 0 : k < 5 ? 2 : 1);
                }
            add_flat_grid(&f, grids[r]);
            char name[16];
            snprintf(name, sizeof name, "r%u", r);
            assert_int_equal(nav_world_builder_add_grid(b, name, grids[r], NULL), NAV_SUCCESS);
        }
        /* a free cell's world centre of region r */
        nav_vec3 free_points[5][256];
        uint32_t free_count[5] = {0};
        for (uint32_t r = 0; r < regions; r++)
            for (int32_t y = 0; y < nav_grid_height(grids[r]); y++)
                for (int32_t x = 0; x < nav_grid_width(grids[r]); x++)
                    if (nav_grid_passable(grids[r], x, y))
                        free_points[r][free_count[r]++] = nav_grid_cell_center(grids[r], x, y);
        uint32_t links = 3 + (uint32_t)(rand() % 10);
        for (uint32_t k = 0; k < links; k++) {
            uint32_t a = (uint32_t)rand() % regions, c = rand() % 5 ? (uint32_t)rand() % regions : a;
            if (!free_count[a] || !free_count[c]) continue;
            nav_world_link_desc d = {.kind = (nav_world_link_kind)(1 + rand() % 7),
                                     .from_region = a,
                                     .from = free_points[a][rand() % free_count[a]],
                                     .to_region = c,
                                     .to = free_points[c][rand() % free_count[c]],
                                     .cost = rand() % 3 ? 0.5 + rand() % 8 : 0,
                                     .one_way = rand() % 4 == 0,
                                     .disabled = rand() % 6 == 0};
            if (d.cost == 0 && a == c && d.from.x == d.to.x && d.from.z == d.to.z) d.cost = 1;
            add_link(b, &f, &d);
        }
        nav_world *w;
        assert_int_equal(nav_world_bake(b, NULL, &w), NAV_SUCCESS);
        nav_world_builder_destroy(b);
        nav_world_query *q;
        assert_int_equal(nav_world_query_create(w, NULL, &q), NAV_SUCCESS);
        for (int t = 0; t < 30; t++) {
            if (t == 15) { /* half way: switch some links */
                for (uint32_t k = 0; k < f.link_count; k += 2) {
                    f.links[k].enabled = !f.links[k].enabled;
                    assert_int_equal(
                        nav_world_set_links(w, &(nav_world_link_change){k, f.links[k].enabled}, 1),
                        NAV_SUCCESS);
                }
            }
            uint32_t ra = (uint32_t)rand() % regions, rb = (uint32_t)rand() % regions;
            if (!free_count[ra] || !free_count[rb]) continue;
            double c = check_query(w, q, &f, free_points[ra][rand() % free_count[ra]],
                                   free_points[rb][rand() % free_count[rb]]);
            compared++;
            unreachable += !(c < INFINITY);
        }
        nav_world_query_destroy(q);
        nav_world_destroy(w);
        for (uint32_t r = 0; r < regions; r++) nav_grid_destroy(grids[r]);
        flat_free(&f);
    }
    /* both kinds of answer were checked */
    assert_true(compared > 1000);
    assert_true(unreachable > 50 && unreachable < compared - 500);
}

/* The ground (terrain 1) of a world's regions: ends and link ends every filter of the filter tests
 * keeps. */
typedef struct dry_places {
    nav_vec3 points[4][1024];
    uint32_t count[4];
    uint32_t regions;
} dry_places;

/* `links` doors between dry places (from region 0 when from_first), added to the builder and to each
 * of n flat references. Returns how many of their ends lie in region 0. */
static uint32_t dry_links(nav_world_builder *b, flat_world *fs, int n, const dry_places *dry, uint32_t links,
                          bool from_first)
{
    uint32_t in_first = 0;
    for (uint32_t k = 0; k < links; k++) {
        uint32_t a = from_first ? 0 : (uint32_t)rand() % dry->regions,
                 c = rand() % 4 ? (uint32_t)rand() % dry->regions : a;
        if (!dry->count[a] || !dry->count[c]) continue;
        nav_world_link_desc d = {.kind = NAV_LINK_DOOR,
                                 .from_region = a,
                                 .from = dry->points[a][rand() % dry->count[a]],
                                 .to_region = c,
                                 .to = dry->points[c][rand() % dry->count[c]],
                                 .cost = 0.5 + rand() % 4,
                                 .one_way = rand() % 5 == 0};
        in_first += (a == 0) + (c == 0);
        add_link(b, &fs[0], &d);
        for (int f = 1; f < n; f++) fs[f].links[fs[f].link_count++] = fs[0].links[fs[0].link_count - 1];
    }
    return in_first;
}

/* The filters of the filter test under way (the one of the two it sets). */
static const nav_mesh_filter *mesh_filters;
static const nav_grid_filter *grid_filters;

/* Sets filter k of that test on q, for the t-th pair of ends (filter 0 costs as the regions' own:
 * every other time no filter at all). */
static void set_filter(nav_world_query *q, int k, int t)
{
    bool none = !k && t % 2 == 0;
    assert_int_equal(mesh_filters ? nav_world_query_set_mesh_filter(q, none ? NULL : &mesh_filters[k])
                                  : nav_world_query_set_grid_filter(q, none ? NULL : &grid_filters[k]),
                     NAV_SUCCESS);
}

/* 25 plans between dry places, each under the n filters in turn against flat reference k: counts
 * the plans, those that cost more under filter 1 than filter 0, and those then unreachable. */
static void filtered_plans(const nav_world *w, nav_world_query *q, flat_world *fs, int n,
                           const dry_places *dry, int counts[3])
{
    for (int t = 0; t < 25; t++) {
        uint32_t ra = (uint32_t)rand() % dry->regions, rb = (uint32_t)rand() % dry->regions;
        if (!dry->count[ra] || !dry->count[rb]) continue;
        nav_vec3 a = dry->points[ra][rand() % dry->count[ra]], c = dry->points[rb][rand() % dry->count[rb]];
        double plain = INFINITY;
        for (int k = 0; k < n; k++) {
            set_filter(q, k, t);
            double cost = check_query(w, q, &fs[k], a, c);
            if (k == 0) plain = cost;
            if (k == 1) counts[1] += cost > plain * (1 + 1e-9), counts[2] += !(cost < INFINITY);
            counts[0]++;
        }
    }
}

/* Worlds of navmesh regions (built from grids with water, terrain 2, costing what the ground does)
 * planned under mesh filters: none, water left out, water left out and the ground at half the mesh's
 * cost (below the tables' costs: their lower bounds scaled), everything at three times. Each answer
 * against the flat reference over the grids with the water blocked and costs scaled: the tables'
 * routes through water must give way to others. */
static void test_mesh_filter_routes(void **state)
{
    (void)state;
    srand(11);
    double keep[256], dry[256], cheap[256], dear[256];
    for (int t = 0; t < 256; t++) keep[t] = dry[t] = 1, cheap[t] = 0.5, dear[t] = 3;
    dry[2] = cheap[2] = NAV_COST_BLOCKED;
    const nav_mesh_filter filters[] = {
        {.area_cost = keep}, {.area_cost = dry}, {.area_cost = cheap}, {.area_cost = dear}};
    const double factors[] = {1, 1, 0.5, 3};
    const bool wet[] = {true, false, false, true};
    double nan_cost[256];
    memcpy(nan_cost, keep, sizeof keep);
    nan_cost[7] = NAN;
    const nav_mesh_filter bad = {.area_cost = nan_cost};
    assert_int_equal(nav_world_query_set_mesh_filter(NULL, &filters[1]), NAV_FAILURE | NAV_INVALID_PARAM);
    int counts[3] = {0}; /* plans, longer without water, then unreachable */
    mesh_filters = filters, grid_filters = NULL;
    static dry_places places;
    for (int world = 0; world < 12; world++) {
        nav_grid *grids[4], *dried[4];
        nav_mesh *meshes[4];
        uint32_t regions = 2 + (uint32_t)(rand() % 3);
        nav_world_builder *b;
        assert_int_equal(nav_world_builder_create(NULL, NULL, &b), NAV_SUCCESS);
        memset(&places, 0, sizeof places);
        places.regions = regions;
        for (uint32_t r = 0; r < regions; r++) {
            nav_grid_desc d = {.width = 5 + rand() % 8,
                               .height = 4 + rand() % 8,
                               .cell_size = 1,
                               .origin = {100.0f * (float)r, 0, 0}};
            assert_int_equal(nav_grid_create(&d, &grids[r]), NAV_SUCCESS);
            assert_int_equal(nav_grid_create(&d, &dried[r]), NAV_SUCCESS);
            int32_t river = rand() % d.width; /* a band of water across, and some pools */
            for (int32_t y = 0; y < d.height; y++)
                for (int32_t x = 0; x < d.width; x++) {
                    int k = rand() % 10;
                    uint8_t type = k < 2 ? 0 : (x == river || x == river + 1) && k < 9 ? 2 : k < 3 ? 2 : 1;
                    nav_grid_set_cell(grids[r], x, y, type);
                    nav_grid_set_cell(dried[r], x, y, type == 2 ? 0 : type);
                    if (type == 1) places.points[r][places.count[r]++] = nav_grid_cell_center(grids[r], x, y);
                }
            assert_int_equal(nav_mesh_build_from_grid(grids[r], NULL, &meshes[r]), NAV_SUCCESS);
            char name[16];
            snprintf(name, sizeof name, "r%u", r);
            assert_int_equal(nav_world_builder_add_mesh(b, name, meshes[r], NULL), NAV_SUCCESS);
        }
        flat_world fs[4];
        memset(fs, 0, sizeof fs);
        for (int k = 0; k < 4; k++)
            for (uint32_t r = 0; r < regions; r++) {
                add_flat(&fs[k], NAV_WORLD_REGION_MESH, wet[k] ? grids[r] : dried[r], NULL);
                fs[k].regions[r].factor = factors[k];
            }
        dry_links(b, fs, 4, &places, 4 + (uint32_t)(rand() % 8), false);
        nav_world *w;
        assert_int_equal(nav_world_bake(b, NULL, &w), NAV_SUCCESS);
        nav_world_builder_destroy(b);
        nav_world_query *q;
        assert_int_equal(nav_world_query_create(w, NULL, &q), NAV_SUCCESS);
        assert_int_equal(nav_world_query_set_mesh_filter(q, &bad), NAV_FAILURE | NAV_INVALID_PARAM);
        filtered_plans(w, q, fs, 4, &places, counts);
        nav_world_query_destroy(q);
        nav_world_destroy(w);
        for (int k = 0; k < 4; k++) flat_free(&fs[k]);
        for (uint32_t r = 0; r < regions; r++) {
            nav_mesh_destroy(meshes[r]);
            nav_grid_destroy(grids[r]);
            nav_grid_destroy(dried[r]);
        }
    }
    /* the water changed many routes, and left some ends apart */
    print_message("mesh filters: %d plans, %d longer without water, %d then unreachable\n", counts[0],
                  counts[1], counts[2]);
    assert_true(counts[0] > 800);
    assert_true(counts[1] > 40);
    assert_true(counts[2] > 5);
}

/* Worlds of grid regions (plain ground, water, mud; a grid's own costs 1, 1.5 and 2) planned under
 * grid filters: the grid's own costs, water kept out, water kept out and mud at a quarter of the
 * grid's cost (below the tables' costs: their lower bounds scaled), everything at three times (a
 * ratio above 1), mud kept out and water cheaper. Each answer against the flat reference over the
 * grids made again with the filter's costs as their own; every third world has a region with more
 * than 64 chokepoints' cells (a pruned table, crossed by fans under a filter). */
static void test_grid_filter_routes(void **state)
{
    (void)state;
    srand(45);
    enum { FILTERS = 5, WATER = 2, MUD = 3 };
    nav_grid_filter filters[FILTERS];
    for (int k = 0; k < FILTERS; k++) nav_grid_filter_init(&filters[k], NULL);
    for (int k = 0; k < FILTERS; k++) filters[k].terrain_cost[WATER] = 1.5, filters[k].terrain_cost[MUD] = 2;
    filters[1].terrain_cost[WATER] = NAV_COST_BLOCKED;
    filters[2].terrain_cost[WATER] = NAV_COST_BLOCKED, filters[2].terrain_cost[MUD] = 0.5;
    for (int t = 1; t < 256; t++) filters[3].terrain_cost[t] *= 3;
    filters[4].terrain_cost[MUD] = NAV_COST_BLOCKED, filters[4].terrain_cost[WATER] = 1;
    nav_grid_filter bad = filters[1];
    bad.terrain_cost[9] = -1;
    assert_false(nav_grid_filter_valid(&bad));
    assert_int_equal(nav_world_query_set_grid_filter(NULL, &filters[1]), NAV_FAILURE | NAV_INVALID_PARAM);
    int counts[3] = {0}, pruned_worlds = 0; /* plans, longer without water, then unreachable */
    grid_filters = filters, mesh_filters = NULL;
    static dry_places dry;
    for (int world = 0; world < 15; world++) {
        bool crowded = world % 3 == 0; /* region 0 with many chokepoints */
        nav_grid *grids[4], *as_filtered[FILTERS][4];
        uint32_t regions = 2 + (uint32_t)(rand() % 3);
        nav_world_builder *b;
        assert_int_equal(nav_world_builder_create(NULL, NULL, &b), NAV_SUCCESS);
        memset(&dry, 0, sizeof dry);
        dry.regions = regions;
        for (uint32_t r = 0; r < regions; r++) {
            nav_grid_desc d = {.width = crowded && r == 0 ? 26 : 6 + rand() % 12,
                               .height = crowded && r == 0 ? 22 : 5 + rand() % 10,
                               .cell_size = r == 1 ? 0.5f : 1,
                               .connectivity = rand() % 5 == 0 ? NAV_CONNECT_4 : NAV_CONNECT_8,
                               .corner_policy = (nav_corner_policy)(rand() % 3),
                               .origin = {100.0f * (float)r, 0, 0}};
            assert_int_equal(nav_grid_create(&d, &grids[r]), NAV_SUCCESS);
            assert_int_equal(nav_grid_set_terrain_cost(grids[r], WATER, 1.5), NAV_SUCCESS);
            assert_int_equal(nav_grid_set_terrain_cost(grids[r], MUD, 2), NAV_SUCCESS);
            int32_t river = rand() % d.width; /* a band of water across, some pools, mud */
            for (int32_t y = 0; y < d.height; y++)
                for (int32_t x = 0; x < d.width; x++) {
                    int k = rand() % 20;
                    uint8_t type = k < 3                                      ? 0
                                   : (x == river || x == river + 1) && k < 18 ? WATER
                                   : k < 5                                    ? WATER
                                   : k < 9                                    ? MUD
                                                                              : 1;
                    nav_grid_set_cell(grids[r], x, y, type);
                    if (type == 1) dry.points[r][dry.count[r]++] = nav_grid_cell_center(grids[r], x, y);
                }
            for (int k = 0; k < FILTERS; k++) { /* the grid with the filter's costs as its own */
                assert_int_equal(nav_grid_create(&d, &as_filtered[k][r]), NAV_SUCCESS);
                for (int t = 1; t < 256; t++)
                    assert_int_equal(
                        nav_grid_set_terrain_cost(as_filtered[k][r], (uint8_t)t, filters[k].terrain_cost[t]),
                        NAV_SUCCESS);
                for (int32_t y = 0; y < d.height; y++)
                    for (int32_t x = 0; x < d.width; x++)
                        nav_grid_set_cell(as_filtered[k][r], x, y, nav_grid_cell(grids[r], x, y));
            }
            char name[16];
            snprintf(name, sizeof name, "r%u", r);
            assert_int_equal(nav_world_builder_add_grid(b, name, grids[r], NULL), NAV_SUCCESS);
        }
        flat_world fs[FILTERS];
        memset(fs, 0, sizeof fs);
        for (int k = 0; k < FILTERS; k++)
            for (uint32_t r = 0; r < regions; r++) add_flat_grid(&fs[k], as_filtered[k][r]);
        uint32_t in_first =
            dry_links(b, fs, FILTERS, &dry, crowded ? 48 : 4 + (uint32_t)(rand() % 10), crowded);
        pruned_worlds += in_first > 70; /* (the cells of a few may coincide) */
        nav_world *w;
        assert_int_equal(nav_world_bake(b, NULL, &w), NAV_SUCCESS);
        nav_world_builder_destroy(b);
        nav_world_query *q;
        assert_int_equal(nav_world_query_create(w, NULL, &q), NAV_SUCCESS);
        assert_int_equal(nav_world_query_set_grid_filter(q, &bad), NAV_FAILURE | NAV_INVALID_PARAM);
        filtered_plans(w, q, fs, FILTERS, &dry, counts);
        /* an end the filter keeps out: no way from it, none to it */
        for (uint32_t r = 0; r < regions; r++)
            for (int32_t y = 0, found = 0; y < nav_grid_height(grids[r]) && !found; y++)
                for (int32_t x = 0; x < nav_grid_width(grids[r]) && !found && dry.count[r]; x++) {
                    if (nav_grid_cell(grids[r], x, y) != WATER) continue;
                    nav_vec3 wet = nav_grid_cell_center(grids[r], x, y);
                    assert_int_equal(nav_world_query_set_grid_filter(q, &filters[1]), NAV_SUCCESS);
                    assert_int_equal(nav_world_plan(q, wet, dry.points[r][0], NULL),
                                     NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE);
                    assert_int_equal(nav_world_plan(q, dry.points[r][0], wet, NULL),
                                     NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE);
                    found = 1;
                }
        nav_world_query_destroy(q);
        nav_world_destroy(w);
        for (int k = 0; k < FILTERS; k++) flat_free(&fs[k]);
        for (uint32_t r = 0; r < regions; r++) {
            nav_grid_destroy(grids[r]);
            for (int k = 0; k < FILTERS; k++) nav_grid_destroy(as_filtered[k][r]);
        }
    }
    print_message("grid filters: %d plans, %d longer without water, %d then unreachable, %d worlds with a "
                  "pruned table\n",
                  counts[0], counts[1], counts[2], pruned_worlds);
    assert_true(counts[0] > 1500);
    assert_true(counts[1] > 40);
    assert_true(counts[2] > 5);
    assert_true(pruned_worlds >= 4);
}

/* ---- Sparse tables (issue 43, defect 19) ---------------------------------------------------------- */

/* (World .nav files, below) */
static nav_writer image_of(const nav_world *w);
static nav_world *reload(const nav_writer *image);
static void assert_same_plans(const nav_world *a, const nav_world *b, const nav_vec3 *points, int n);
static void check_split(const nav_world_builder *b, const nav_world *whole);

/* A world of grid regions as the brute-force reference sees it: each link's ends (regions, cells,
 * cost, one-way, enabled). */
typedef struct dense_link {
    uint32_t region[2], cell[2];
    double cost;
    bool one_way, enabled;
} dense_link;

typedef struct dense_world {
    const nav_grid *grid[8];
    uint32_t regions;
    dense_link link[256];
    uint32_t links;
    double *table; /* each chokepoint (2k, 2k + 1: link k's ends) to each of its region's: the fans */
} dense_world;

static uint32_t cell_at(const nav_grid *g, nav_vec3 p)
{
    int32_t x, y;
    assert_true(nav_grid_world_to_cell(g, p, &x, &y));
    return nav_grid_index(g, x, y);
}

/* The costs from cell `from` of region r's grid to each of cells (world units; reverse: to `from`). */
static void dense_fan(const nav_grid *g, uint32_t from, bool reverse, const uint32_t *cells, uint32_t n,
                      double *costs)
{
    nav_region_query *rq;
    assert_int_equal(
        nav_region_query_create(g, (uint32_t)(nav_grid_width(g) * nav_grid_height(g)), NULL, &rq),
        NAV_SUCCESS);
    nav_grid_rect all = {0, 0, nav_grid_width(g), nav_grid_height(g)};
    assert_int_equal(nav_region_fan(rq, all, from, reverse, cells, n, costs), NAV_SUCCESS);
    for (uint32_t k = 0; k < n; k++) costs[k] *= nav_grid_get_desc(g)->cell_size;
    nav_region_query_destroy(rq);
}

/* The full dense table of every region: a fan from each chokepoint to every chokepoint. */
static void dense_tables(dense_world *d)
{
    uint32_t n = 2 * d->links;
    d->table = malloc((size_t)n * n * sizeof *d->table);
    uint32_t *cells = malloc(n * sizeof *cells);
    for (uint32_t a = 0; a < n; a++) {
        uint32_t ra = d->link[a / 2].region[a % 2];
        for (uint32_t b = 0; b < n; b++) cells[b] = d->link[b / 2].cell[b % 2];
        dense_fan(d->grid[ra], cells[a], false, cells, n, d->table + (size_t)a * n);
        for (uint32_t b = 0; b < n; b++)
            if (d->link[b / 2].region[b % 2] != ra) d->table[(size_t)a * n + b] = INFINITY;
    }
    free(cells);
}

/* The cheapest route from cell s of region rs to cell t of region rt: Dijkstra over the chokepoints
 * with every entry of the dense tables, the links enabled, the start's fan and the goal's (and the
 * way inside one region when both lie there). */
static double dense_cost(const dense_world *d, uint32_t rs, uint32_t s, uint32_t rt, uint32_t t)
{
    uint32_t n = 2 * d->links, *cells = malloc(n * sizeof *cells);
    for (uint32_t b = 0; b < n; b++) cells[b] = d->link[b / 2].cell[b % 2];
    double *from_start = malloc(n * sizeof(double)), *to_goal = malloc(n * sizeof(double)),
           *dist = malloc(n * sizeof(double)), direct = INFINITY;
    bool *done = calloc(n, 1);
    dense_fan(d->grid[rs], s, false, cells, n, from_start);
    dense_fan(d->grid[rt], t, true, cells, n, to_goal);
    if (rs == rt) dense_fan(d->grid[rs], s, false, &t, 1, &direct);
    for (uint32_t b = 0; b < n; b++) {
        uint32_t rb = d->link[b / 2].region[b % 2];
        dist[b] = rb == rs ? from_start[b] : INFINITY;
        if (rb != rt) to_goal[b] = INFINITY;
    }
    double best = direct;
    for (;;) {
        uint32_t u = UINT32_MAX;
        for (uint32_t b = 0; b < n; b++)
            if (!done[b] && dist[b] < INFINITY && (u == UINT32_MAX || dist[b] < dist[u])) u = b;
        if (u == UINT32_MAX) break;
        done[u] = true;
        best = fmin(best, dist[u] + to_goal[u]);
        const dense_link *l = &d->link[u / 2];
        if (l->enabled && (u % 2 == 0 || !l->one_way)) dist[u ^ 1] = fmin(dist[u ^ 1], dist[u] + l->cost);
        for (uint32_t b = 0; b < n; b++) dist[b] = fmin(dist[b], dist[u] + d->table[(size_t)u * n + b]);
    }
    free(cells);
    free(from_start);
    free(to_goal);
    free(dist);
    free(done);
    return best;
}

/* The path of the last find_path: each leg a walk of its grid costing what the plan said, each link
 * taken from the leg's last cell to the next leg's first. Returns the walk's cost. */
static double check_walk(const nav_world *w, const nav_world_query *q, const dense_world *d,
                         const nav_path *path)
{
    uint32_t count;
    const nav_world_leg *legs = nav_world_query_legs(q, &count);
    double total = 0;
    for (uint32_t i = 0; i < count; i++) {
        const nav_world_leg *l = &legs[i];
        flat_region r = {.kind = NAV_WORLD_REGION_GRID, .grid = d->grid[l->region]};
        double leg = leg_cost(&r, path, l->first_point, l->point_count);
        assert_true(close_to(leg, l->cost));
        assert_int_equal(path->nodes[l->first_point], l->from.id);
        assert_int_equal(path->nodes[l->first_point + l->point_count - 1], l->to.id);
        total += leg;
        if (l->link == NAV_WORLD_NONE) continue;
        const dense_link *k = &d->link[l->link];
        const nav_world_leg *next = &legs[i + 1];
        bool forward = k->region[0] == l->region && k->cell[0] == l->to.id && k->region[1] == next->region &&
                       k->cell[1] == next->from.id;
        bool backward = !k->one_way && k->region[1] == l->region && k->cell[1] == l->to.id &&
                        k->region[0] == next->region && k->cell[0] == next->from.id;
        assert_true(k->enabled && (forward || backward));
        total += k->cost;
    }
    (void)w;
    return total;
}

/* Random worlds of a few grids with many links each (ends strewn over the cells, some sharing a
 * cell, some one-way, some off), between two yards: routes from the one to the other cross the grids
 * from link to link, through their tables; with one link into the grids and one out left on, from
 * the one chokepoint to the other. Grids of one cost (symmetric tables), of terrain costs, of
 * heights that can be stepped down but not up. Every plan costs what a Dijkstra over the full dense
 * tables gives, every refined path is a walk of its grids costing as much, while the tables keep far
 * fewer entries than the dense ones. */
static void test_sparse_tables_exact(void **state)
{
    (void)state;
    srand(43);
    uint64_t kept = 0, dense = 0;
    int compared = 0, unreachable = 0, crossings = 0;
    for (int world = 0; world < 24; world++) {
        dense_world d = {0};
        nav_grid *grids[5];
        d.regions = 3 + (uint32_t)(rand() % 3); /* two yards (0, 1), then the grids between */
        nav_world_builder *b;
        assert_int_equal(nav_world_builder_create(NULL, NULL, &b), NAV_SUCCESS);
        for (uint32_t r = 0; r < d.regions; r++) {
            int kind = r < 2 ? 0 : (world + (int)r) % 3; /* 0: one cost, 1: terrain costs, 2: heights */
            float sizes[3] = {1, 0.5f, 2};
            nav_grid_desc gd = {.width = r < 2 ? 5 : 16 + rand() % 24,
                                .height = r < 2 ? 5 : 16 + rand() % 24,
                                .cell_size = sizes[rand() % 3],
                                .max_climb = kind == 2 ? 1.0f : 0,
                                .origin = {100.0f * (float)r, 0, 0}};
            assert_int_equal(nav_grid_create(&gd, &grids[r]), NAV_SUCCESS);
            /* (a cost 100 times the plain one: fans by a heap, not buckets) */
            assert_int_equal(nav_grid_set_terrain_cost(grids[r], 2, world % 2 ? 100.0 : 2.5), NAV_SUCCESS);
            for (int32_t y = 0; y < gd.height && r >= 2; y++)
                for (int32_t x = 0; x < gd.width; x++) {
                    int k = rand() % 10;
                    nav_grid_set_cell(grids[r], x, y, k < 2 ? 0 : kind == 1 && k < 5 ? 2 : 1);
                    if (kind == 2 && rand() % 5 == 0) nav_grid_set_cell_height(grids[r], x, y, 2);
                }
            d.grid[r] = grids[r];
            char name[16];
            snprintf(name, sizeof name, "r%u", r);
            assert_int_equal(nav_world_builder_add_grid(b, name, grids[r], NULL), NAV_SUCCESS);
        }
        nav_vec3 free_points[5][1600];
        uint32_t free_count[5] = {0};
        for (uint32_t r = 0; r < d.regions; r++)
            for (int32_t y = 0; y < nav_grid_height(grids[r]); y++)
                for (int32_t x = 0; x < nav_grid_width(grids[r]); x++)
                    if (nav_grid_passable(grids[r], x, y))
                        free_points[r][free_count[r]++] = nav_grid_cell_center(grids[r], x, y);
        /* (a grid of more than 64 cells of chokepoints keeps a pruned table; of fewer, every entry) */
        uint32_t yards = world % 4 ? 48 : 16; /* links from and to the yards, first */
        uint32_t links = world % 4 ? 90 + (uint32_t)(rand() % 100) : 24 + (uint32_t)(rand() % 20);
        uint32_t between = d.regions - 2;
        for (uint32_t k = 0; k < links; k++) {
            uint32_t a = 2 + (uint32_t)rand() % between, c = rand() % 2 ? 2 + (uint32_t)rand() % between : a;
            if (k < yards) c = k % 2; /* from the grids into each yard (or out: below) */
            /* a few cells take many ends: chokepoints that share a cell */
            uint32_t pa = rand() % 4 ? (uint32_t)rand() % free_count[a] : (uint32_t)rand() % 3,
                     pc = rand() % 4 ? (uint32_t)rand() % free_count[c] : (uint32_t)rand() % 3;
            nav_world_link_desc ld = {.from_region = a,
                                      .from = free_points[a][pa],
                                      .to_region = c,
                                      .to = free_points[c][pc],
                                      .cost = 0.5 + rand() % 6,
                                      .one_way = rand() % 5 == 0,
                                      .disabled = rand() % 8 == 0};
            if (k < yards && k % 2 == 0) { /* out of the start's yard */
                nav_world_link_desc out = ld;
                ld.from_region = out.to_region, ld.from = out.to, ld.to_region = out.from_region,
                ld.to = out.from;
            }
            assert_int_equal(nav_world_builder_add_link(b, &ld, NULL), NAV_SUCCESS);
            d.link[d.links++] =
                (dense_link){{ld.from_region, ld.to_region},
                             {cell_at(grids[ld.from_region], ld.from), cell_at(grids[ld.to_region], ld.to)},
                             ld.cost,
                             ld.one_way,
                             !ld.disabled};
        }
        nav_world *w;
        assert_int_equal(nav_world_bake(b, &(nav_world_bake_desc){.threads = 1 + (uint32_t)world % 2}, &w),
                         NAV_SUCCESS);
        if (world % 6 == 1) { /* split bakes write the same bytes; the file reads back to the same plans */
            check_split(b, w);
            nav_writer image = image_of(w);
            nav_world *back = reload(&image);
            nav_vec3 points[8];
            for (int i = 0; i < 8; i++) {
                uint32_t r = (uint32_t)i % d.regions;
                points[i] = free_points[r][rand() % free_count[r]];
            }
            assert_same_plans(w, back, points, 8);
            nav_world_destroy(back);
            nav_writer_destroy(&image);
        }
        nav_world_builder_destroy(b);
        dense_tables(&d);
        nav_world_info info;
        nav_world_get_info(w, &info);
        kept += info.region_edges;
        for (uint32_t i = 0; i < 2 * d.links * 2 * d.links; i++)
            dense += i % (2 * d.links) != i / (2 * d.links) && d.table[i] < INFINITY;
        nav_world_query *q;
        assert_int_equal(nav_world_query_create(w, NULL, &q), NAV_SUCCESS);
        nav_path path;
        nav_path_init(&path, NULL);
        bool yard_on[48];
        for (uint32_t k = 0; k < yards; k++) yard_on[k] = d.link[k].enabled;
        for (int t = 0; t < 120; t++) {
            if (t == 20) /* switch some links */
                for (uint32_t k = yards; k < d.links; k += 3) {
                    d.link[k].enabled = !d.link[k].enabled;
                    assert_int_equal(
                        nav_world_set_links(w, &(nav_world_link_change){k, d.link[k].enabled}, 1),
                        NAV_SUCCESS);
                }
            /* from t = 40 on: one link out of the start's yard and one into the goal's on, the rest off */
            uint32_t in = 2 * ((uint32_t)rand() % (yards / 2)),
                     out = 2 * ((uint32_t)rand() % (yards / 2)) + 1;
            nav_world_link_change yard[48];
            for (uint32_t k = 0; k < yards; k++) {
                d.link[k].enabled = t < 40 ? yard_on[k] : k == in || k == out;
                yard[k] = (nav_world_link_change){k, d.link[k].enabled};
            }
            assert_int_equal(nav_world_set_links(w, yard, yards), NAV_SUCCESS);
            /* mostly from the one yard to the other, across the grids */
            uint32_t ra = t % 4 ? 0 : (uint32_t)rand() % d.regions,
                     rb = t % 4 ? 1 : (uint32_t)rand() % d.regions;
            nav_vec3 a = free_points[ra][rand() % free_count[ra]],
                     g = free_points[rb][rand() % free_count[rb]];
            double want = dense_cost(&d, ra, cell_at(grids[ra], a), rb, cell_at(grids[rb], g));
            nav_world_result r;
            nav_status s = nav_world_find_path(q, a, g, &path, &r);
            compared++;
            if (!(want < INFINITY)) {
                assert_int_equal(s, NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE);
                unreachable++;
                continue;
            }
            assert_int_equal(s, NAV_SUCCESS);
            nav_world_result planned;
            assert_int_equal(nav_world_plan(q, a, g, &planned), NAV_SUCCESS);
            assert_true(close_to(planned.cost, want));
            assert_int_equal(nav_world_find_path(q, a, g, &path, &r), NAV_SUCCESS);
            assert_true(close_to(r.cost, want));
            assert_true(close_to(check_walk(w, q, &d, &path), want));
            uint32_t count; /* legs that cross a region from one link to the next */
            const nav_world_leg *legs = nav_world_query_legs(q, &count);
            for (uint32_t i = 1; i + 1 < count; i++) crossings += legs[i].from.id != legs[i].to.id;
        }
        nav_path_destroy(&path);
        nav_world_query_destroy(q);
        nav_world_destroy(w);
        for (uint32_t r = 0; r < d.regions; r++) nav_grid_destroy(grids[r]);
        free(d.table);
    }
    assert_true(compared - unreachable > 1500 && unreachable > 50);
    assert_true(crossings > 100);
    assert_true(kept * 2 < dense); /* (on these small crowded grids; see test_sparse_tables_grow) */
}

/* An allocator that refuses any block above 16 MB and notes the largest asked for. */
typedef struct sizing_allocator {
    size_t largest;
    nav_allocator hooks;
} sizing_allocator;

static void *sizing_alloc(size_t size, void *user)
{
    sizing_allocator *a = user;
    if (size > a->largest) a->largest = size;
    return size > (16u << 20) ? NULL : malloc(size);
}

static void *sizing_realloc(void *p, size_t old, size_t size, void *user)
{
    (void)old;
    sizing_allocator *a = user;
    if (size > a->largest) a->largest = size;
    return size > (16u << 20) ? NULL : realloc(p, size);
}

static void sizing_free(void *p, void *user)
{
    (void)user;
    free(p);
}

/* Links as adjacency lists over the cells of grid regions (a flat reference for worlds of many
 * links): node = offset[region] + cell. */
typedef struct cell_world {
    const nav_grid *grid[130];
    uint32_t regions, offset[131];
    uint32_t *link_first, *link_to; /* each node's links out: link_to[link_first[v] .. [v + 1]] */
    double *link_cost;
} cell_world;

/* Dijkstra from node s to node t over every cell and link. */
static double cell_cost(const cell_world *c, uint32_t s, uint32_t t)
{
    uint32_t n = c->offset[c->regions];
    flat_heap h = flat_start(n, s);
    while (h.count) {
        flat_item top = flat_pop(&h);
        if (top.d > h.dist[top.v]) continue;
        if (top.v == t) break;
        uint32_t r = 0;
        while (top.v >= c->offset[r + 1]) r++;
        const nav_grid *g = c->grid[r];
        uint32_t local = top.v - c->offset[r];
        int32_t x = (int32_t)(local % (uint32_t)nav_grid_width(g)),
                y = (int32_t)(local / (uint32_t)nav_grid_width(g));
        for (int d = 0; d < 8; d++) {
            double m = nav_grid_move_cost(g, x, y, (nav_dir)d);
            if (m == NAV_COST_BLOCKED) continue;
            int32_t dx, dy;
            nav_dir_offset((nav_dir)d, &dx, &dy);
            flat_relax(&h, c->offset[r] + nav_grid_index(g, x + dx, y + dy),
                       top.d + m * nav_grid_get_desc(g)->cell_size);
        }
        for (uint32_t k = c->link_first[top.v]; k < c->link_first[top.v + 1]; k++)
            flat_relax(&h, c->link_to[k], top.d + c->link_cost[k]);
    }
    double d = h.dist[t];
    flat_heap_free(&h);
    return d;
}

/* The issue's world: one big grid region (256 x 256 cells, a rock in about every 50) with 10,000
 * links, three in four from one of its cells to one of 128 huts beside it (4 x 4 cells each), the
 * rest between two of its cells. The dense tables held (2,500 + 10,000)^2 entries for the big
 * region (2.5 GB with their ways' offsets); its table now keeps a few dozen entries a chokepoint.
 * Routes cost what a Dijkstra over every cell and link gives; past max_table_bytes the bake stops,
 * saying which region. */
static void test_sparse_tables_grow(void **state)
{
    (void)state;
    enum { SIDE = 256, HUTS = 128, LINKS = 10000 };
    nav_grid *big, *huts[HUTS];
    assert_int_equal(nav_grid_create(&(nav_grid_desc){.width = SIDE, .height = SIDE}, &big), NAV_SUCCESS);
    srand(19);
    for (int i = 0; i < SIDE * SIDE / 50; i++) nav_grid_set_cell(big, rand() % SIDE, rand() % SIDE, 0);
    cell_world c = {.grid = {big}, .regions = 1 + HUTS};
    nav_world_builder *b;
    assert_int_equal(nav_world_builder_create(NULL, NULL, &b), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_grid(b, "big", big, NULL), NAV_SUCCESS);
    for (int h = 0; h < HUTS; h++) {
        nav_grid_desc d = {.width = 4,
                           .height = 4,
                           .origin = {SIDE + 8.0f + 6.0f * (float)(h % 16), 0, 6.0f * (float)(h / 16)}};
        assert_int_equal(nav_grid_create(&d, &huts[h]), NAV_SUCCESS);
        char name[16];
        snprintf(name, sizeof name, "hut %d", h);
        assert_int_equal(nav_world_builder_add_grid(b, name, huts[h], NULL), NAV_SUCCESS);
        c.grid[1 + h] = huts[h];
    }
    for (uint32_t r = 0; r < c.regions; r++)
        c.offset[r + 1] = c.offset[r] + (uint32_t)(nav_grid_width(c.grid[r]) * nav_grid_height(c.grid[r]));
    uint32_t n = c.offset[c.regions], (*ends)[2] = malloc(LINKS * sizeof *ends);
    double *costs = malloc(LINKS * sizeof *costs);
    for (int k = 0; k < LINKS; k++) {
        int32_t x, y;
        do x = rand() % SIDE, y = rand() % SIDE;
        while (!nav_grid_passable(big, x, y));
        nav_world_link_desc d = {
            .from_region = 0, .from = nav_grid_cell_center(big, x, y), .cost = 2 + rand() % 5};
        ends[k][0] = (uint32_t)nav_grid_index(big, x, y);
        if (k % 4 == 3) {
            do x = rand() % SIDE, y = rand() % SIDE;
            while (!nav_grid_passable(big, x, y));
            d.to_region = 0, d.to = nav_grid_cell_center(big, x, y);
            ends[k][1] = (uint32_t)nav_grid_index(big, x, y);
        } else {
            int h = k % HUTS;
            x = rand() % 4, y = rand() % 4;
            d.to_region = (uint32_t)(1 + h), d.to = nav_grid_cell_center(huts[h], x, y);
            ends[k][1] = c.offset[1 + h] + (uint32_t)nav_grid_index(huts[h], x, y);
        }
        d.one_way = k % 7 == 0;
        costs[k] = d.cost;
        assert_int_equal(nav_world_builder_add_link(b, &d, NULL), NAV_SUCCESS);
    }
    /* the reference's adjacency: every link both ways but the one-way ones */
    c.link_first = calloc(n + 1, sizeof *c.link_first);
    c.link_to = malloc(2 * LINKS * sizeof *c.link_to);
    c.link_cost = malloc(2 * LINKS * sizeof *c.link_cost);
    for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < LINKS; k++)
            for (int e = 0; e < 2 - (k % 7 == 0); e++) {
                uint32_t from = ends[k][e], to = ends[k][e ^ 1];
                if (!pass) {
                    c.link_first[from + 1]++;
                    continue;
                }
                uint32_t at = c.link_first[from]++;
                c.link_to[at] = to, c.link_cost[at] = costs[k];
            }
        if (pass) break;
        for (uint32_t v = 0; v < n; v++) c.link_first[v + 1] += c.link_first[v];
    }
    for (uint32_t v = n; v > 0; v--) c.link_first[v] = c.link_first[v - 1]; /* (the fill moved them on) */
    c.link_first[0] = 0;
    nav_world *w;
    assert_int_equal(nav_world_bake(b, NULL, &w), NAV_SUCCESS);
    nav_world_info info;
    nav_world_get_info(w, &info);
    assert_int_equal(info.chokepoints, 2 * LINKS);
    assert_true(info.region_edges < 40ull * LINKS);
    /* routes against the reference */
    nav_world_query *q;
    assert_int_equal(nav_world_query_create(w, NULL, &q), NAV_SUCCESS);
    nav_path path;
    nav_path_init(&path, NULL);
    for (int t = 0; t < 12; t++) {
        int32_t x, y, gx, gy;
        do x = rand() % SIDE, y = rand() % SIDE;
        while (!nav_grid_passable(big, x, y));
        nav_vec3 a = nav_grid_cell_center(big, x, y), g;
        uint32_t goal;
        if (t % 2) {
            do gx = rand() % SIDE, gy = rand() % SIDE;
            while (!nav_grid_passable(big, gx, gy));
            g = nav_grid_cell_center(big, gx, gy), goal = (uint32_t)nav_grid_index(big, gx, gy);
        } else {
            int h = rand() % HUTS;
            g = nav_grid_cell_center(huts[h], 1, 2),
            goal = c.offset[1 + h] + (uint32_t)nav_grid_index(huts[h], 1, 2);
        }
        double want = cell_cost(&c, (uint32_t)nav_grid_index(big, x, y), goal);
        nav_world_result r;
        nav_status s = nav_world_find_path(q, a, g, &path, &r);
        assert_int_equal(s,
                         want < INFINITY ? NAV_SUCCESS : NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE);
        assert_true(!(want < INFINITY) || close_to(r.cost, want));
    }
    /* its file read back: memory as the file's size, not its chokepoints' square, the same plans */
    nav_writer image = image_of(w);
    sizing_allocator sizing = {0, {sizing_alloc, sizing_realloc, sizing_free, NULL}};
    sizing.hooks.user = &sizing;
    nav_world *back;
    assert_int_equal(
        nav_world_read_nav(image.data, image.size, &(nav_world_load_desc){.allocator = &sizing.hooks}, &back),
        NAV_SUCCESS);
    assert_true(sizing.largest < image.size);
    nav_world_query *q2;
    assert_int_equal(nav_world_query_create(back, NULL, &q2), NAV_SUCCESS);
    for (int t = 0; t < 20; t++) {
        nav_vec3 a = nav_grid_cell_center(big, rand() % SIDE, rand() % SIDE),
                 g = nav_grid_cell_center(big, rand() % SIDE, rand() % SIDE);
        nav_world_result r1, r2;
        nav_status s1 = nav_world_plan(q, a, g, &r1), s2 = nav_world_plan(q2, a, g, &r2);
        assert_int_equal(s1, s2);
        assert_true(r1.cost == r2.cost || nav_failed(s1));
    }
    nav_world_query_destroy(q2);
    nav_world_destroy(back);
    nav_writer_destroy(&image);
    nav_path_destroy(&path);
    nav_world_query_destroy(q);
    nav_world_destroy(w);
    /* a bound the caller sets: refused, saying which region */
    test_log log;
    test_log_init(&log);
    nav_world_builder *quiet = b;
    assert_int_equal(nav_world_builder_create(NULL, &log.hooks, &b), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_grid(b, "big", big, NULL), NAV_SUCCESS);
    for (int k = 0; k < 400; k++) {
        int32_t x = rand() % SIDE, y = rand() % SIDE, tx = rand() % SIDE, ty = rand() % SIDE;
        if (!nav_grid_passable(big, x, y) || !nav_grid_passable(big, tx, ty)) continue;
        nav_world_link_desc d = {
            .from = nav_grid_cell_center(big, x, y), .to = nav_grid_cell_center(big, tx, ty), .cost = 1};
        assert_int_equal(nav_world_builder_add_link(b, &d, NULL), NAV_SUCCESS);
    }
    nav_world *none = (nav_world *)1;
    assert_int_equal(nav_world_bake(b, &(nav_world_bake_desc){.max_table_bytes = 4096}, &none),
                     NAV_FAILURE | NAV_TOO_LARGE);
    assert_null(none);
    assert_non_null(strstr(log.last, "region 0 (\"big\""));
    assert_non_null(strstr(log.last, "max_table_bytes"));
    nav_world_builder_destroy(b);
    nav_world_builder_destroy(quiet);
    for (int h = 0; h < HUTS; h++) nav_grid_destroy(huts[h]);
    nav_grid_destroy(big);
    free(ends);
    free(costs);
    free(c.link_first);
    free(c.link_to);
    free(c.link_cost);
}

/* A house (a grid), a town (a navmesh built from a grid), a road (a waypoint graph) and a far town
 * (a grid), joined by a door, a gate, a bridge, a portal and a one-way jump: every answer against
 * the flat reference (the town's costs from the brute-force any-angle reference). */
static void test_mixed_kinds(void **state)
{
    (void)state;
    const char *house_rows[] = {"........", ".####...", "....#...", "....#...", "........", "........"};
    const char *town_rows[] = {"............", "............", "...##.......", "...##...#...",
                               "........#...", "........#...", "..###.......", "............",
                               "......##....", "............"};
    const char *far_rows[] = {"........", "..##....", "..##....", "........",
                              ".....#..", ".....#..", "........", "........"};
    nav_grid *house = grid_at(house_rows, 6, nav_vec3_make(0, 0, 0), 1);
    nav_grid *town_grid = grid_at(town_rows, 10, nav_vec3_make(20, 0, 0), 1);
    nav_grid *far = grid_at(far_rows, 8, nav_vec3_make(62, 0, 0), 1);
    nav_mesh *town;
    assert_int_equal(nav_mesh_build_from_grid(town_grid, NULL, &town), NAV_SUCCESS);
    const nav_waypoint stops[] = {{{34, 0, 5}, "west", 0}, {{40, 0, 5}, NULL, 0},   {{46, 0, 8}, NULL, 0},
                                  {{52, 0, 5}, NULL, 0},   {{58, 0, 5}, "east", 0}, {{46, 0, 1}, NULL, 0}};
    const nav_waypoint_link roads[] = {{0, 1, 0, 0, false, false}, {1, 2, 0, 0, false, false},
                                       {2, 3, 0, 0, false, false}, {3, 4, 0, 0, false, false},
                                       {1, 5, 0, 0, false, false}, {5, 3, 3, 0, true, false}};
    nav_waypoint_graph graph = {.waypoints = stops, .waypoint_count = 6, .links = roads, .link_count = 6};
    nav_waypoints *road;
    assert_int_equal(nav_waypoints_bake(&graph, NULL, &road), NAV_SUCCESS);

    flat_world f = {0};
    add_flat(&f, NAV_WORLD_REGION_GRID, house, NULL);
    add_flat(&f, NAV_WORLD_REGION_MESH, town_grid, NULL);
    add_flat(&f, NAV_WORLD_REGION_WAYPOINTS, NULL, &graph);
    add_flat(&f, NAV_WORLD_REGION_GRID, far, NULL);
    nav_world_builder *b;
    assert_int_equal(nav_world_builder_create(NULL, NULL, &b), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_grid(b, "house", house, NULL), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_mesh(b, "town", town, NULL), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_waypoints(b, "road", road, 0.5, NULL), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_grid(b, "far town", far, NULL), NAV_SUCCESS);
    add_link(b, &f,
             &(nav_world_link_desc){.kind = NAV_LINK_DOOR,
                                    .from_region = 0,
                                    .from = {7.5f, 0, 2.5f},
                                    .to_region = 1,
                                    .to = {20.5f, 0, 2.5f}});
    add_link(b, &f,
             &(nav_world_link_desc){.kind = NAV_LINK_GATE,
                                    .from_region = 1,
                                    .from = {31.5f, 0, 5.5f},
                                    .to_region = 2,
                                    .to = {34, 0, 5}});
    uint32_t bridge = add_link(b, &f,
                               &(nav_world_link_desc){.kind = NAV_LINK_BRIDGE,
                                                      .from_region = 2,
                                                      .from = {58, 0, 5},
                                                      .to_region = 3,
                                                      .to = {62.5f, 0, 5.5f}});
    add_link(b, &f,
             &(nav_world_link_desc){.kind = NAV_LINK_PORTAL,
                                    .from_region = 0,
                                    .from = {0.5f, 0, 5.5f},
                                    .to_region = 3,
                                    .to = {69.5f, 0, 7.5f},
                                    .cost = 80});
    add_link(b, &f,
             &(nav_world_link_desc){.kind = NAV_LINK_JUMP,
                                    .from_region = 1,
                                    .from = {22.5f, 0, 9.5f},
                                    .to_region = 1,
                                    .to = {30.5f, 0, 0.5f},
                                    .cost = 2,
                                    .one_way = true});
    FAILS_WITH(nav_world_builder_add_waypoints(b, "x", road, -1, NULL), NAV_INVALID_PARAM);
    nav_world *w;
    assert_int_equal(nav_world_bake(b, NULL, &w), NAV_SUCCESS);
    nav_world_builder_destroy(b);
    assert_int_equal(nav_world_region_kind_of(w, 1), NAV_WORLD_REGION_MESH);
    assert_int_equal(nav_world_region_kind_of(w, 2), NAV_WORLD_REGION_WAYPOINTS);
    nav_world_query *q;
    assert_int_equal(nav_world_query_create(w, NULL, &q), NAV_SUCCESS);

    /* from the house's upper left to the far town: door, town, gate, road, bridge */
    check_query(w, q, &f, (nav_vec3){0.5f, 0, 0.5f}, (nav_vec3){66.5f, 0, 6.5f});
    uint32_t count;
    const nav_world_leg *legs = nav_world_query_legs(q, &count);
    assert_int_equal(count, 4);
    assert_int_equal(legs[1].region, 1);
    assert_int_equal(legs[2].region, 2);
    assert_int_equal(legs[2].link, bridge);
    /* the work split: both ends on grids, searched cell by cell; from the town (a mesh, fanned first)
     * to the road, chokepoints only */
    nav_world_result work;
    assert_int_equal(nav_world_plan(q, (nav_vec3){0.5f, 0, 0.5f}, (nav_vec3){66.5f, 0, 6.5f}, &work),
                     NAV_SUCCESS);
    assert_true(work.cells_expanded > 20 && work.chokepoints_expanded > 2);
    assert_true(work.fans_s == 0 && work.search_s == 0); /* not timed unless asked */
    nav_world_query_set_timing(q, true);
    assert_int_equal(nav_world_plan(q, (nav_vec3){0.5f, 0, 0.5f}, (nav_vec3){66.5f, 0, 6.5f}, &work),
                     NAV_SUCCESS);
    assert_true(work.fans_s > 0 && work.search_s > 0 && work.fans_s + work.search_s < 1);
    nav_world_query_set_timing(q, false);
    assert_int_equal(work.searches, 0); /* (both ends walked: no fan) */
    nav_path found;
    nav_path_init(&found, NULL);
    assert_int_equal(
        nav_world_find_path(q, (nav_vec3){0.5f, 0, 0.5f}, (nav_vec3){66.5f, 0, 6.5f}, &found, &work),
        NAV_SUCCESS);
    assert_int_equal(work.searches, 2); /* the two legs between links: the town's and the road's */
    assert_int_equal(nav_world_plan(q, (nav_vec3){24.5f, 0, 1.5f}, (nav_vec3){46, 0, 8}, &work), NAV_SUCCESS);
    assert_true(work.cells_expanded == 0 && work.chokepoints_expanded > 2);
    /* fanned ends: one search a chokepoint of the town (4) and of the road (2); the legs are the
     * fans' own ways, not searched again */
    assert_int_equal(work.searches, 6);
    assert_int_equal(nav_world_find_path(q, (nav_vec3){24.5f, 0, 1.5f}, (nav_vec3){46, 0, 8}, &found, &work),
                     NAV_SUCCESS);
    assert_int_equal(work.legs, 2);
    assert_int_equal(work.searches, 6);
    /* both ends in the town: its fan reaches the goal too, and the direct leg is that way */
    assert_int_equal(
        nav_world_find_path(q, (nav_vec3){24.5f, 0, 1.5f}, (nav_vec3){29.5f, 0, 7.5f}, &found, &work),
        NAV_SUCCESS);
    assert_true(work.direct);
    assert_int_equal(work.searches, 4 + 1 + 4);
    nav_path_destroy(&found);
    /* the bridge goes up: the portal's way round */
    nav_world_set_links(w, &(nav_world_link_change){bridge, false}, 1);
    f.links[bridge].enabled = false;
    check_query(w, q, &f, (nav_vec3){0.5f, 0, 0.5f}, (nav_vec3){66.5f, 0, 6.5f});
    nav_world_query_legs(q, &count);
    assert_int_equal(count, 2);
    nav_world_set_links(w, &(nav_world_link_change){bridge, true}, 1);
    f.links[bridge].enabled = true;

    /* to and from every waypoint of the road (its one-way link makes fans differ by direction) */
    nav_vec3 ends[3] = {{0.5f, 0, 0.5f}, {26.5f, 0, 4.5f}, {66.5f, 0, 6.5f}};
    for (uint32_t i = 0; i < graph.waypoint_count; i++)
        for (int e = 0; e < 3; e++) {
            check_query(w, q, &f, ends[e], stops[i].position);
            check_query(w, q, &f, stops[i].position, ends[e]);
            for (uint32_t j = 0; j < graph.waypoint_count; j++)
                check_query(w, q, &f, stops[i].position, stops[j].position);
        }
    /* random places of every region, both ways, the bridge up half the time */
    nav_vec3 places[256];
    uint32_t n = 0;
    const nav_grid *cells[3] = {house, town_grid, far};
    for (int g = 0; g < 3; g++)
        for (int32_t y = 0; y < nav_grid_height(cells[g]); y++)
            for (int32_t x = 0; x < nav_grid_width(cells[g]); x++)
                if (nav_grid_passable(cells[g], x, y) && (x + y) % 3 == 0)
                    places[n++] = nav_grid_cell_center(cells[g], x, y);
    for (uint32_t i = 0; i < graph.waypoint_count; i++) places[n++] = stops[i].position;
    srand(11);
    int reached = 0, tried = 0;
    for (int t = 0; t < 300; t++) {
        if (t % 50 == 0) {
            bool up = t % 100 == 0;
            nav_world_set_links(w, &(nav_world_link_change){bridge, !up}, 1);
            f.links[bridge].enabled = !up;
        }
        reached += check_query(w, q, &f, places[rand() % n], places[rand() % n]) < INFINITY;
        tried++;
    }
    assert_true(reached > 250); /* some ends are cut off: the jump is one way */
    nav_world_query_destroy(q);
    nav_world_destroy(w);
    nav_waypoints_destroy(road);
    nav_mesh_destroy(town);
    nav_grid_destroy(house);
    nav_grid_destroy(town_grid);
    nav_grid_destroy(far);
    flat_free(&f);
}

#define VILLAGE NAV_TEST_DATA "/../../data/worlds/village"

static nav_grid *load_ascii_at(const char *file, nav_vec3 origin)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", VILLAGE, file);
    nav_grid *g = NULL;
    assert_int_equal(nav_grid_load_ascii_file(path, &(nav_grid_desc){.origin = origin}, &g), NAV_SUCCESS);
    return g;
}

/* World file text (from the village's folder) that must be refused with NAV_FAILURE | detail, its
 * last message holding `message`, and no world made; case i in the failure's message. */
static void expect_refused(size_t i, const char *json, nav_status detail, const char *message)
{
    test_log log;
    test_log_init(&log);
    nav_world *w = (nav_world *)1;
    nav_status s = nav_world_load_json_text(json, strlen(json), "w.json", VILLAGE,
                                            &(nav_world_load_desc){.log = &log.hooks}, &w);
    if (s != (NAV_FAILURE | detail) || !strstr(log.last, message) || w)
        fail_msg("case %zu: status %s, last message \"%s\"", i, nav_status_str(s), log.last);
}

/* The bundled village: loaded from its JSON, its answers against the flat reference built from the
 * same sources, the route from upstairs to the east town through every kind of region, and the
 * bridge raised. */
static void test_world_file(void **state)
{
    (void)state;
    test_log log;
    test_log_init(&log);
    nav_world *w;
    assert_int_equal(
        nav_world_load_json(VILLAGE "/village.json", &(nav_world_load_desc){.log = &log.hooks}, &w),
        NAV_SUCCESS);
    nav_world_info info;
    nav_world_get_info(w, &info);
    assert_int_equal(info.regions, 5);
    assert_int_equal(info.links, 4);
    assert_int_equal(nav_world_find_region(w, "west town"), 2);
    assert_int_equal(nav_world_region_kind_of(w, 2), NAV_WORLD_REGION_MESH);
    assert_int_equal(nav_world_region_kind_of(w, 3), NAV_WORLD_REGION_WAYPOINTS);
    nav_world_link_desc bridge;
    assert_true(nav_world_link(w, 3, &bridge));
    assert_string_equal(bridge.name, "bridge");
    assert_int_equal(bridge.kind, NAV_LINK_BRIDGE);

    /* the flat reference from the same files */
    nav_grid *ground = load_ascii_at("house_ground.txt", nav_vec3_make(0, 0, 6));
    nav_grid *upper = load_ascii_at("house_upper.txt", nav_vec3_make(0, 3, 6));
    nav_grid *west = load_ascii_at("town_west.txt", nav_vec3_make(16, 0, 0));
    nav_grid *east = load_ascii_at("town_east.txt", nav_vec3_make(100, 0, 0));
    nav_waypoint_graph road;
    assert_int_equal(nav_waypoint_graph_load_file(VILLAGE "/road.txt", NULL, &road), NAV_SUCCESS);
    flat_world f = {0};
    add_flat(&f, NAV_WORLD_REGION_GRID, ground, NULL);
    add_flat(&f, NAV_WORLD_REGION_GRID, upper, NULL);
    add_flat(&f, NAV_WORLD_REGION_MESH, west, NULL);
    add_flat(&f, NAV_WORLD_REGION_WAYPOINTS, NULL, &road);
    add_flat(&f, NAV_WORLD_REGION_MESH, east, NULL);
    for (uint32_t k = 0; k < info.links; k++) {
        nav_world_link_desc d;
        assert_true(nav_world_link(w, k, &d));
        f.links[f.link_count++] =
            (flat_link){d.from_region, d.to_region, d.from, d.to, d.cost, d.one_way, true};
    }
    /* the link's ends as the world placed them: cell centres on grids, the points on meshes */
    nav_world_query *q;
    assert_int_equal(nav_world_query_create(w, NULL, &q), NAV_SUCCESS);
    nav_vec3 upstairs = {12.5f, 3, 8.5f}, far = {125.5f, 0, 20.5f};
    check_query(w, q, &f, upstairs, far);
    uint32_t count;
    const nav_world_leg *legs = nav_world_query_legs(q, &count);
    assert_int_equal(count, 5);
    const char *regions[5] = {"house upper floor", "house ground floor", "west town", "road", "east town"};
    for (uint32_t i = 0; i < 5; i++)
        assert_string_equal(nav_world_region_name(w, legs[i].region), regions[i]);
    assert_int_equal(legs[3].link, 3);
    check_query(w, q, &f, far, upstairs);
    check_query(w, q, &f, (nav_vec3){30.5f, 0, 8.5f}, (nav_vec3){72, 0, 18}); /* town to the meadow */
    check_query(w, q, &f, (nav_vec3){3.5f, 0.2f, 8.5f}, (nav_vec3){3.5f, 3.2f, 8.5f}); /* up the stairs */
    assert_int_equal(nav_world_set_links(w, &(nav_world_link_change){3, false}, 1), NAV_SUCCESS);
    f.links[3].enabled = false;
    assert_true(check_query(w, q, &f, upstairs, far) == INFINITY);
    nav_world_query_destroy(q);
    nav_world_destroy(w); /* and what it loaded */
    nav_waypoint_graph_release(&road);
    nav_grid_destroy(ground);
    nav_grid_destroy(upper);
    nav_grid_destroy(west);
    nav_grid_destroy(east);
    flat_free(&f);

    /* a grid region searched through its HPA* bake, by "hpa": the bake made, kept and used */
    const char *json = "{\"regions\": [{\"name\": \"floor\", \"grid\": \"house_ground.txt\", \"hpa\": "
                       "{\"cluster_size\": 4, \"levels\": 1}}]}";
    assert_int_equal(nav_world_load_json_text(json, strlen(json), "w.json", VILLAGE, NULL, &w), NAV_SUCCESS);
    const nav_hpa *hpa = nav_world_region_hpa(w, 0);
    assert_non_null(hpa);
    assert_int_equal(nav_hpa_get_desc(hpa).cluster_size, 4);
    assert_int_equal(nav_world_query_create(w, NULL, &q), NAV_SUCCESS);
    nav_world_result r;
    /* from the west room to the east room, through the gaps in the walls */
    assert_int_equal(nav_world_plan(q, (nav_vec3){1.5f, 0, 1.5f}, (nav_vec3){13.5f, 0, 1.5f}, &r),
                     NAV_SUCCESS);
    assert_true(r.cost >= 12 && r.cost < 30 && r.legs == 1);
    nav_world_query_destroy(q);
    nav_world_destroy(w);
}

/* A level for a world region: its .obj file, a point on its floor near its edge (the door) and a
 * goal in it; the yard (terrain.txt) is set beside the door, the start 9 across and 5 up in it. */
typedef struct level_region {
    const char *obj;
    nav_vec3 door, goal, yard_origin;
} level_region;

/* A level's .obj as a world region (built by nav_mesh_build_from_geometry with RecastDemo's agent)
 * joined by a door to a terrain grid beside it: a route from the grid into the level takes the door,
 * its leg in the level the cost of the level's own mesh between the door and the goal; the same
 * level baked to a .nav file (a MESH chunk, no GRID) loads as a region too. */
static void world_level_region(const level_region *level)
{
    char json[2048];
    nav_vec3 o = level->yard_origin, d = level->door;
    snprintf(json, sizeof json,
             "{\"regions\": [{\"name\": \"level\", \"mesh\": \"%s\"},"
             " {\"name\": \"yard\", \"grid\": \"terrain.txt\", \"origin\": [%g, %g, %g]}],"
             " \"links\": [{\"kind\": \"door\", \"from\": {\"region\": \"level\", \"at\": [%g, %g, %g]},"
             " \"to\": {\"region\": \"yard\", \"at\": [%g, 0, %g]}}]}",
             level->obj, o.x, o.y, o.z, d.x, d.y, d.z, o.x + 0.5, o.z + 0.5);
    nav_world *w = NULL;
    assert_int_equal(nav_world_load_json_text(json, strlen(json), "w.json", NAV_TEST_DATA, NULL, &w),
                     NAV_SUCCESS);
    nav_world_query *q = NULL;
    assert_int_equal(nav_world_query_create(w, NULL, &q), NAV_SUCCESS);
    nav_world_result r;
    nav_vec3 start = {o.x + 9.5f, 0, o.z + 5.5f}, goal = level->goal;
    assert_int_equal(nav_world_plan(q, start, goal, &r), NAV_SUCCESS);
    assert_int_equal(r.legs, 2);
    uint32_t count = 0;
    const nav_world_leg *legs = nav_world_query_legs(q, &count);
    assert_int_equal(count, 2);
    assert_cost_equal(legs[0].cost, 14, 1e-9); /* 9 across and 5 up the terrain's plain border */

    /* the level's own mesh from the door to the goal */
    nav_geometry *g = NULL;
    assert_int_equal(nav_geometry_load_obj_file(level->obj, NULL, NULL, &g), NAV_SUCCESS);
    nav_triangles t = nav_geometry_triangles(g);
    nav_mesh *mesh = NULL;
    assert_int_equal(nav_mesh_build_from_geometry(&t, NULL, &mesh, NULL), NAV_SUCCESS);
    nav_mesh_query *mq = NULL;
    assert_int_equal(nav_mesh_query_create(mesh, NULL, &mq), NAV_SUCCESS);
    nav_path path;
    nav_path_init(&path, NULL);
    nav_mesh_result mr;
    assert_int_equal(nav_mesh_find_path(mq, NULL, level->door, goal, &path, &mr), NAV_SUCCESS);
    assert_cost_equal(legs[1].cost, mr.cost, 1e-4);
    assert_cost_equal(r.cost, legs[0].cost + legs[0].link_cost + legs[1].cost, 1e-9);

    /* baked to a .nav file, the same level loads as a region */
    char dir[] = "/tmp/test_world_level_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char nav[96], world_json[512];
    snprintf(nav, sizeof nav, "%s/level.nav", dir);
    assert_int_equal(nav_mesh_save_nav(NULL, mesh, nav), NAV_SUCCESS);
    snprintf(world_json, sizeof world_json, "{\"regions\": [{\"name\": \"level\", \"mesh\": \"%s\"}]}", nav);
    nav_world *w2 = NULL;
    assert_int_equal(nav_world_load_json_text(world_json, strlen(world_json), "w2.json", dir, NULL, &w2),
                     NAV_SUCCESS);
    nav_world_query *q2 = NULL;
    assert_int_equal(nav_world_query_create(w2, NULL, &q2), NAV_SUCCESS);
    assert_int_equal(nav_world_plan(q2, level->door, goal, &r), NAV_SUCCESS);
    assert_cost_equal(r.cost, mr.cost, 1e-4);
    nav_world_query_destroy(q2);
    nav_world_destroy(w2);
    /* and baked in tiles (the file keeps the tiles: a TILS chunk), as the tiled mesh routes */
    nav_geometry_tiles *tiles = NULL;
    nav_mesh *tiled = NULL;
    assert_int_equal(
        nav_geometry_tiles_build(&t, &(nav_geometry_build_desc){.tile_size = 64}, &tiles, &tiled, NULL),
        NAV_SUCCESS);
    assert_int_equal(nav_geometry_tiles_save_nav(tiles, nav), NAV_SUCCESS);
    nav_mesh_query *tq = NULL;
    assert_int_equal(nav_mesh_query_create(tiled, NULL, &tq), NAV_SUCCESS);
    nav_mesh_result tr;
    assert_int_equal(nav_mesh_find_path(tq, NULL, level->door, goal, &path, &tr), NAV_SUCCESS);
    w2 = NULL;
    assert_int_equal(nav_world_load_json_text(world_json, strlen(world_json), "w2.json", dir, NULL, &w2),
                     NAV_SUCCESS);
    assert_int_equal(nav_world_query_create(w2, NULL, &q2), NAV_SUCCESS);
    assert_int_equal(nav_world_plan(q2, level->door, goal, &r), NAV_SUCCESS);
    assert_cost_equal(r.cost, tr.cost, 1e-4);
    nav_world_query_destroy(q2);
    nav_world_destroy(w2);
    nav_mesh_query_destroy(tq);
    nav_mesh_destroy(tiled);
    nav_geometry_tiles_destroy(tiles);
    remove(nav);
    rmdir(dir);

    nav_path_destroy(&path);
    nav_mesh_query_destroy(mq);
    nav_mesh_destroy(mesh);
    nav_geometry_destroy(g);
    nav_world_query_destroy(q);
    nav_world_destroy(w);
}

/* The generated level (levelgen.h): from the yard to the top of its platform, up its ramp or stairs. */
static void test_world_level_region(void **state)
{
    (void)state;
    test_level level;
    test_level_generate(&level);
    size_t size;
    char *text = test_level_obj(&level, &size);
    level_region region = {test_scratch_file("level.obj", text, size),
                           {TEST_LEVEL_EDGE_X, 0.1f, TEST_LEVEL_EDGE_Z},
                           {TEST_LEVEL_PLATFORM_X, TEST_LEVEL_PLATFORM_Y + 0.1f, TEST_LEVEL_PLATFORM_Z},
                           {100, 0, 10}};
    free(text);
    test_level_destroy(&level);
    world_level_region(&region);
}

/* The sample scene of Recast's demo (the shared data), its door on the upper floor, the goal below. */
static void test_world_sample_scene_region(void **state)
{
    (void)state;
    level_region region = {
        NAV_SHARED_DIR "/meshes/nav_test.obj", {54.2f, 0.3f, -18.3f}, {34.76f, -1.2f, -22.55f}, {70, 0, -20}};
    world_level_region(&region);
}

/* Bad world files: each refused with its status and a message naming the JSON path. */
static void test_world_file_errors(void **state)
{
    (void)state;
    static const struct {
        const char *json;
        nav_status detail;
        const char *message;
    } cases[] = {
        {"{\n\"regions\":\n [1,,2]}", NAV_PARSE_ERROR, "w.json:3: not valid JSON"},
        {"[]", NAV_PARSE_ERROR, "w.json: expected an object"},
        {"{\"regions\": []}", NAV_PARSE_ERROR, "w.json: regions: expected an array of at least one region"},
        {"{\"regions\": [{\"name\": \"a\", \"grid\": \"house_ground.txt\"}], \"link\": []}", NAV_PARSE_ERROR,
         "w.json: the top level: unknown key \"link\""},
        {"{\"regions\": [{\"name\": \"a\"}]}", NAV_PARSE_ERROR, "w.json: regions[0]: give its source"},
        {"{\"regions\": [{\"name\": \"a\", \"grid\": \"house_ground.txt\", \"mesh\": \"town_east.txt\"}]}",
         NAV_PARSE_ERROR, "regions[0]: a region is one of grid, mesh or waypoints, not both grid and mesh"},
        {"{\"regions\": [{\"grid\": \"house_ground.txt\"}]}", NAV_PARSE_ERROR, "regions[0].name: expected"},
        {"{\"regions\": [{\"name\": \"a\", \"grid\": \"house_ground.txt\", \"origin\": [1, 2]}]}",
         NAV_PARSE_ERROR, "w.json: regions[0].origin: expected an array of 3 numbers"},
        {"{\"regions\": [{\"name\": \"a\", \"grid\": \"house_ground.txt\", \"origin\": [1, \"2\", 3]}]}",
         NAV_PARSE_ERROR, "regions[0].origin[1]: expected a finite number"},
        {"{\"regions\": [{\"name\": \"a\", \"grid\": \"house_ground.txt\", \"cell_size\": 0}]}",
         NAV_PARSE_ERROR, "regions[0].cell_size: expected a number from"},
        {"{\"regions\": [{\"name\": \"a\", \"grid\": \"house_ground.txt\", \"colour\": 0}]}", NAV_PARSE_ERROR,
         "regions[0]: unknown key \"colour\""},
        {"{\"regions\": [{\"name\": \"a\", \"mesh\": \"town_east.txt\", \"hpa\": true}]}", NAV_PARSE_ERROR,
         "w.json: regions[0].hpa: only a grid region is searched through HPA*"},
        {"{\"regions\": [{\"name\": \"a\", \"grid\": \"house_ground.txt\", \"hpa\": 3}]}", NAV_PARSE_ERROR,
         "regions[0].hpa: expected true, false or an object of HPA* options"},
        {"{\"regions\": [{\"name\": \"a\", \"grid\": \"house_ground.txt\", \"hpa\": {\"size\": 8}}]}",
         NAV_PARSE_ERROR, "regions[0].hpa: unknown key \"size\""},
        {"{\"regions\": [{\"name\": \"a\", \"grid\": \"house_ground.txt\", \"hpa\": {\"cluster_size\": 1}}]}",
         NAV_INVALID_PARAM, "w.json: regions[0].hpa: \"house_ground.txt\" did not load"},
        {"{\"regions\": [{\"name\": \"a\", \"grid\": \"missing.txt\"}]}", NAV_IO_ERROR,
         "w.json: regions[0].grid: \"missing.txt\" did not load"},
        {"{\"regions\": [{\"name\": \"a\", \"waypoints\": \"town_east.txt\"}]}", NAV_PARSE_ERROR,
         "regions[0].waypoints: \"town_east.txt\" did not load"},
        {"{\"regions\": [{\"name\": \"a\", \"grid\": \"house_ground.txt\"}, {\"name\": \"a\", \"grid\": "
         "\"house_upper.txt\"}]}",
         NAV_INVALID_PARAM, "the name \"a\" is taken by region 0"},
        {"{\"regions\": [{\"name\": \"a\", \"grid\": \"house_ground.txt\"}], \"links\": [{\"from\": "
         "{\"region\": "
         "\"a\", \"at\": [1.5, 0, 1.5]}, \"to\": {\"region\": \"keep\", \"at\": [0, 0, 0]}}]}",
         NAV_PARSE_ERROR, "w.json: links[0].to.region: no region named \"keep\""},
        {"{\"regions\": [{\"name\": \"a\", \"grid\": \"house_ground.txt\"}], \"join\": {\"mode\": "
         "\"sideways\"}}",
         NAV_PARSE_ERROR, "w.json: join.mode: expected \"every\" or \"entrances\""},
        {"{\"regions\": [{\"name\": \"a\", \"grid\": \"house_ground.txt\"}], \"join\": {\"long\": 3}}",
         NAV_PARSE_ERROR, "w.json: join: unknown key \"long\""},
        {"{\"regions\": [{\"name\": \"a\", \"grid\": \"house_ground.txt\"}], \"links\": [{\"kind\": "
         "\"teleporter\"}]}",
         NAV_PARSE_ERROR, "links[0].kind: expected door, stairs"},
        {"{\"regions\": [{\"name\": \"a\", \"grid\": \"house_ground.txt\"}], \"links\": [{\"from\": "
         "{\"region\": "
         "\"a\", \"at\": [0.5, 0, 0.5]}, \"to\": {\"region\": \"a\", \"at\": [1.5, 0, 1.5]}}]}",
         NAV_INVALID_PARAM, "w.json: links[0]: the link above is refused"},
        {"{\"regions\": [{\"name\": \"a\", \"grid\": \"house_ground.txt\"}], \"links\": [{\"from\": "
         "{\"region\": "
         "\"a\", \"at\": [1.5, 0, 1.5]}, \"to\": {\"region\": \"a\", \"at\": [2.5, 0, 1.5]}, \"enabled\": "
         "1}]}",
         NAV_PARSE_ERROR, "links[0].enabled: expected true or false"},
        {"{\"regions\": [{\"name\": \"a\", \"grid\": \"house_ground.txt\"}], \"links\": [{\"from\": "
         "{\"region\": "
         "\"a\", \"at\": [1.5, 0, 1.5], \"height\": 2}}]}",
         NAV_PARSE_ERROR, "links[0].from: unknown key \"height\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_refused(i, cases[i].json, cases[i].detail, cases[i].message);
    nav_world *w;
    const char *tiles =
        "{\"regions\": [{\"name\": \"a\", \"grid\": \"town_east.txt\"}, {\"name\": \"b\", "
        "\"grid\": \"town_east.txt\", \"origin\": [30, 0, 0]}], \"join\": {\"mode\": \"entrances\"}}";
    assert_int_equal(nav_world_load_json_text(tiles, strlen(tiles), "t.json", VILLAGE, NULL, &w),
                     NAV_SUCCESS);
    nav_world_info info;
    nav_world_get_info(w, &info);
    assert_int_equal(info.links, 2); /* one open border of 24 cells: a link at each end */
    nav_world_destroy(w);
    FAILS_WITH(nav_world_load_json(VILLAGE "/nowhere.json", NULL, &w), NAV_IO_ERROR);
    FAILS_WITH(nav_world_load_json(VILLAGE, NULL, &w), NAV_IO_ERROR); /* a folder */
    FAILS_WITH(nav_world_load_json(NULL, NULL, &w), NAV_INVALID_PARAM);
}

/* Issue 43, defects 6 and 17: what a world file holds that cJSON lets pass or the builder takes in
 * silence, refused with the JSON path: text after the top-level object (a "join" that slipped out of
 * it was ignored), a key given twice (the first was taken: "cost": 1, "cost": 1000 cost 1; a second
 * "regions" was ignored), a string holding U+0000 ("A\u0000zzz" named region "A"), a link's cost of
 * 0 or below (0 was the straight distance), a link's end far above or below its region's floor (37
 * above loaded). Each case loaded before (or failed otherwise). */
static void test_world_file_refusals(void **state)
{
    (void)state;
#define GROUND       "{\"name\": \"a\", \"grid\": \"house_ground.txt\"}"
#define END(x, y, z) "{\"region\": \"a\", \"at\": [" #x ", " #y ", " #z "]}"
#define LINKED(link) "{\"regions\": [" GROUND "], \"links\": [" link "]}"
    static const struct {
        const char *json;
        nav_status detail;
        const char *message;
    } cases[] = {
        {"{\"regions\": [" GROUND "]}\n, \"join\": {\"mode\": \"entrances\"}}", NAV_PARSE_ERROR,
         "w.json:2: text after the top-level object, at byte 57"},
        {"{\"regions\": [" GROUND "]} {}", NAV_PARSE_ERROR, "w.json:1: text after the top-level object"},
        {LINKED(
             "{\"from\": " END(1.5, 0, 1.5) ", \"to\": " END(2.5, 0, 1.5) ", \"cost\": 1, \"cost\": 1000}"),
         NAV_PARSE_ERROR, "w.json: links[0]: the key \"cost\" appears twice"},
        {"{\"regions\": [" GROUND "], \"regions\": [{\"name\": \"b\", \"grid\": \"missing.txt\"}]}",
         NAV_PARSE_ERROR, "w.json: the top level: the key \"regions\" appears twice"},
        {"{\"regions\": [{\"name\": \"a\", \"name\": \"b\", \"grid\": \"house_ground.txt\"}]}",
         NAV_PARSE_ERROR, "w.json: regions[0]: the key \"name\" appears twice"},
        {LINKED("{\"from\": {\"region\": \"a\", \"region\": \"a\", \"at\": [1.5, 0, 1.5]}, \"to\": " END(
             2.5, 0, 1.5) "}"),
         NAV_PARSE_ERROR, "w.json: links[0].from: the key \"region\" appears twice"},
        {"{\"regions\": [{\"name\": \"a\", \"grid\": \"house_ground.txt\", \"hpa\": {\"levels\": 1, "
         "\"levels\": 2}}]}",
         NAV_PARSE_ERROR, "w.json: regions[0].hpa: the key \"levels\" appears twice"},
        {"{\"regions\": [" GROUND "], \"join\": {\"mode\": \"every\", \"mode\": \"entrances\"}}",
         NAV_PARSE_ERROR, "w.json: join: the key \"mode\" appears twice"},
        {"{\"regions\": [" GROUND ", {\"name\": \"A\\u0000zzz\", \"grid\": \"house_upper.txt\", "
         "\"origin\": [0, 3, 0]}]}",
         NAV_PARSE_ERROR, "w.json: regions[1].name: a string holding U+0000 (a NUL character) is refused"},
        {LINKED("{\"from\": " END(1.5, 0,
                                  1.5) ", \"to\": {\"region\": \"a\\u0000zzz\", \"at\": [2.5, 0, 1.5]}}"),
         NAV_PARSE_ERROR, "w.json: links[0].to.region: a string holding U+0000"},
        {"{\"regions\": [{\"name\": \"a\", \"grid\": \"house_ground.txt\", \"snap\\u0000\": 1}]}",
         NAV_PARSE_ERROR, "w.json: regions[0]: a key holding U+0000 (a NUL character) is refused"},
        {"{\"regions\\u0000\": [" GROUND "]}", NAV_PARSE_ERROR,
         "w.json: the top level: a key holding U+0000"},
        {LINKED("{\"from\": " END(1.5, 0, 1.5) ", \"to\": " END(2.5, 0, 1.5) ", \"cost\": 0}"),
         NAV_PARSE_ERROR,
         "w.json: links[0].cost: must be a number above 0 (leave it out for the straight distance)"},
        {LINKED("{\"from\": " END(1.5, 0, 1.5) ", \"to\": " END(2.5, 0, 1.5) ", \"cost\": -3}"),
         NAV_PARSE_ERROR, "w.json: links[0].cost: must be a number above 0"},
        {LINKED("{\"from\": " END(1.5, 0, 1.5) ", \"to\": " END(2.5, 0, 1.5) ", \"cost\": \"5\"}"),
         NAV_PARSE_ERROR, "w.json: links[0].cost: must be a number above 0"},
        {LINKED("{\"from\": " END(1.5, 37, 1.5) ", \"to\": " END(2.5, 0, 1.5) "}"), NAV_INVALID_PARAM,
         "w.json: links[0].from.at: 37 above the floor of region \"a\" there (y 0): a link's end is at "
         "most 2 from it"},
        {"{\"regions\": [" GROUND
         ", {\"name\": \"up\", \"grid\": \"house_upper.txt\", \"origin\": [0, 3, 6]}], "
         "\"links\": [{\"from\": " END(1.5, 0,
                                       1.5) ", \"to\": {\"region\": \"up\", \"at\": [1.5, 0, 7.5]}}]}",
         NAV_INVALID_PARAM, "w.json: links[0].to.at: 3 below the floor of region \"up\" there (y 3)"},
    };
#undef GROUND
#undef END
#undef LINKED
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_refused(i, cases[i].json, cases[i].detail, cases[i].message);
    /* a raw NUL byte in a string (cJSON lets it through, and cuts the string there) */
    static const char raw[] = "{\"regions\": [{\"name\": \"a\\\\\0zzz\", \"grid\": \"house_ground.txt\"}]}";
    test_log log;
    test_log_init(&log);
    nav_world *w = (nav_world *)1;
    FAILS_WITH(nav_world_load_json_text(raw, sizeof raw - 1, "w.json", VILLAGE,
                                        &(nav_world_load_desc){.log = &log.hooks}, &w),
               NAV_PARSE_ERROR);
    assert_null(w);
    assert_non_null(strstr(log.last, "w.json: regions[0].name: a string holding U+0000"));
    /* what is still fine: blanks after the object, an escaped backslash before "u0000", a link's end
     * within 2 of its floor, a cost left out (the straight distance) */
    const char *fine =
        "{\"regions\": [{\"name\": \"a\\\\u0000\", \"grid\": \"house_ground.txt\"}], \"links\": "
        "[{\"from\": {\"region\": \"a\\\\u0000\", \"at\": [1.5, 1.9, 1.5]}, \"to\": {\"region\": "
        "\"a\\\\u0000\", \"at\": [4.5, -1.9, 5.5]}}]}\n \t\r\n";
    assert_int_equal(nav_world_load_json_text(fine, strlen(fine), "w.json", VILLAGE, NULL, &w), NAV_SUCCESS);
    assert_int_equal(nav_world_find_region(w, "a\\u0000"), 0);
    nav_world_link_desc link;
    assert_true(nav_world_link(w, 0, &link));
    assert_cost_equal(link.cost, sqrt(3.0 * 3 + 3.8 * 3.8 + 4 * 4), 1e-6);
    nav_world_destroy(w);
}

/* The warnings a load gave, in order ("|"-separated), and its errors counted. */
typedef struct warnings {
    char text[2048];
    int errors;
} warnings;

static void collect_warnings(nav_log_level level, const char *message, void *user)
{
    warnings *w = user;
    if (level == NAV_LOG_ERROR) w->errors++;
    if (level != NAV_LOG_WARNING) return;
    size_t n = strlen(w->text);
    snprintf(w->text + n, sizeof w->text - n, "%s|", message);
}

/* Issue 43, defect 6: an upper storey left at the height of the one under it loaded without a word.
 * Grids (and meshes made from grids) covering the same ground at the same height are warned of,
 * naming both; storeys at their own heights, tiles side by side and grids apart are not. */
static void test_world_file_storeys(void **state)
{
    (void)state;
    static const struct {
        const char *json;
        const char *warned; /* "": nothing */
    } cases[] = {
        {"{\"regions\": [{\"name\": \"ground\", \"grid\": \"house_ground.txt\", \"origin\": [0, 0, 6]},"
         " {\"name\": \"upper\", \"grid\": \"house_upper.txt\", \"origin\": [0, 0, 6]}]}",
         "w.json: regions[1] (\"upper\") lies over regions[0] (\"ground\") at the same height, y 0: a storey "
         "above another needs the origin y of its own floor|"},
        /* a mesh made from a grid, partly over a grid (by 4 cells) */
        {"{\"regions\": [{\"name\": \"town\", \"mesh\": \"town_east.txt\", \"origin\": [12, 2, 0]},"
         " {\"name\": \"ground\", \"grid\": \"house_ground.txt\", \"origin\": [0, 2, 6]}]}",
         "w.json: regions[1] (\"ground\") lies over regions[0] (\"town\") at the same height, y 2"},
        {"{\"regions\": [{\"name\": \"ground\", \"grid\": \"house_ground.txt\", \"origin\": [0, 0, 6]},"
         " {\"name\": \"upper\", \"grid\": \"house_upper.txt\", \"origin\": [0, 3, 6]}]}",
         ""},
        {"{\"regions\": [{\"name\": \"a\", \"grid\": \"town_east.txt\"}, {\"name\": \"b\", \"grid\": "
         "\"town_east.txt\", \"origin\": [30, 0, 0]}, {\"name\": \"c\", \"grid\": \"town_east.txt\", "
         "\"origin\": [0, 0, 24]}]}",
         ""},
        /* side by side, by a hair: float placement is no overlap */
        {"{\"regions\": [{\"name\": \"a\", \"grid\": \"town_east.txt\", \"cell_size\": 0.1},"
         " {\"name\": \"b\", \"grid\": \"town_east.txt\", \"cell_size\": 0.1, \"origin\": [2.9999, 0, 0]}]}",
         ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        warnings got = {0};
        nav_log log = {collect_warnings, &got};
        nav_world *w = NULL;
        assert_int_equal(nav_world_load_json_text(cases[i].json, strlen(cases[i].json), "w.json", VILLAGE,
                                                  &(nav_world_load_desc){.log = &log}, &w),
                         NAV_SUCCESS);
        nav_world_destroy(w);
        if (got.errors || (cases[i].warned[0] ? !strstr(got.text, cases[i].warned) : got.text[0] != '\0'))
            fail_msg("case %zu: warnings \"%s\", %d errors", i, got.text, got.errors);
    }
    /* the village warns of nothing */
    warnings got = {0};
    nav_log log = {collect_warnings, &got};
    nav_world *w = NULL;
    assert_int_equal(nav_world_load_json(VILLAGE "/village.json", &(nav_world_load_desc){.log = &log}, &w),
                     NAV_SUCCESS);
    nav_world_destroy(w);
    assert_string_equal(got.text, "");
    /* many pairs: the first few, then a count */
    char json[4096] = "{\"regions\": [";
    for (int k = 0; k < 12; k++)
        snprintf(json + strlen(json), sizeof json - strlen(json),
                 "%s{\"name\": \"r%d\", \"grid\": \"house_ground.txt\", \"origin\": [%d, 0, 0]}",
                 k ? ", " : "", k, k);
    strcat(json, "]}");
    got = (warnings){0};
    assert_int_equal(nav_world_load_json_text(json, strlen(json), "w.json", VILLAGE,
                                              &(nav_world_load_desc){.log = &log}, &w),
                     NAV_SUCCESS);
    nav_world_destroy(w);
    assert_non_null(strstr(got.text, "w.json: and 58 more pairs of regions over one another at one height|"));

    /* random layouts of grids of two sizes, two heights and two cell sizes: the pairs warned of are
     * those a test of every pair finds */
    const char *files[2] = {"house_ground.txt", "town_east.txt"};
    int32_t width[2], height[2];
    for (int f = 0; f < 2; f++) {
        nav_grid *grid = load_ascii_at(files[f], nav_vec3_make(0, 0, 0));
        width[f] = nav_grid_width(grid), height[f] = nav_grid_height(grid);
        nav_grid_destroy(grid);
    }
    uint64_t seed = 7;
    for (int trial = 0; trial < 20; trial++) {
        enum { N = 40 };
        double x[N], z[N], y[N], cell[N];
        int file[N];
        static char text[N * 160];
        strcpy(text, "{\"regions\": [");
        for (int k = 0; k < N; k++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            file[k] = (int)(seed >> 33 & 1);
            y[k] = (double)(seed >> 34 & 1) * 3;
            cell[k] = seed >> 35 & 1 ? 0.5 : 1;
            x[k] = (double)(seed >> 36 & 63), z[k] = (double)(seed >> 42 & 63);
            snprintf(text + strlen(text), sizeof text - strlen(text),
                     "%s{\"name\": \"r%d\", \"grid\": \"%s\", \"origin\": [%g, %g, %g], \"cell_size\": %g}",
                     k ? ", " : "", k, files[file[k]], x[k], y[k], z[k], cell[k]);
        }
        strcat(text, "]}");
        int expected = 0;
        for (int p = 0; p < N; p++)
            for (int q = p + 1; q < N; q++) {
                double slack = fmin(cell[p], cell[q]) / 2;
                double ox =
                    fmin(x[p] + width[file[p]] * cell[p], x[q] + width[file[q]] * cell[q]) - fmax(x[p], x[q]);
                double oz = fmin(z[p] + height[file[p]] * cell[p], z[q] + height[file[q]] * cell[q]) -
                            fmax(z[p], z[q]);
                expected += y[p] == y[q] && ox > slack && oz > slack;
            }
        got = (warnings){0};
        assert_int_equal(nav_world_load_json_text(text, strlen(text), "w.json", VILLAGE,
                                                  &(nav_world_load_desc){.log = &log}, &w),
                         NAV_SUCCESS);
        nav_world_destroy(w);
        int warned = 0;
        for (const char *at = got.text; (at = strstr(at, "lies over")); at++) warned++;
        const char *more = strstr(got.text, "w.json: and ");
        if (more) warned += atoi(more + strlen("w.json: and "));
        if (warned != expected) fail_msg("trial %d: %d pairs warned of, %d overlap", trial, warned, expected);
    }
}

/* Issue 43, defect 5: a level (.obj) region took only "radius" of the level bake's options (and
 * ignored "cell_size" and "max_climb"). It takes them all, as navtool bake LEVEL.obj --mesh does:
 * the region's mesh is byte for byte nav_mesh_build_from_geometry's with the same options; options
 * that are not the source's, and bad values, are refused with their path. */
static void test_world_level_options(void **state)
{
    (void)state;
    test_level level;
    test_level_generate(&level);
    size_t size;
    char *text = test_level_obj(&level, &size);
    const char *obj = test_scratch_file("level.obj", text, size);
    nav_geometry *g = NULL;
    assert_int_equal(nav_geometry_load_obj(text, size, "level.obj", NULL, NULL, &g), NAV_SUCCESS);
    free(text);
    test_level_destroy(&level);
    nav_triangles t = nav_geometry_triangles(g);
    nav_mesh *defaults = NULL;
    assert_int_equal(nav_mesh_build_from_geometry(&t, NULL, &defaults, NULL), NAV_SUCCESS);
    nav_writer c;
    nav_writer_init(&c, NULL);
    assert_int_equal(nav_mesh_write_chunk(defaults, &c), NAV_SUCCESS);
    nav_mesh_destroy(defaults);
    static const struct {
        const char *options;
        nav_geometry_build_desc desc;
    } cases[] = {
        {", \"height\": 1.5, \"max_climb\": 0.5, \"max_slope\": 35, \"cell_size\": 0.4, \"cell_height\": "
         "0.25, "
         "\"radius\": 0.4, \"max_poly_verts\": 4",
         {.agent_height = 1.5f,
          .agent_climb = 0.5f,
          .max_slope = 35,
          .cell_size = 0.4f,
          .cell_height = 0.25f,
          .agent_radius = 0.4f,
          .max_poly_verts = 4}},
        /* taken before, and ignored */
        {", \"cell_size\": 0.5, \"max_climb\": 0.3", {.cell_size = 0.5f, .agent_climb = 0.3f}},
        /* none: radius and climb of 0 */
        {", \"radius\": 0, \"max_climb\": 0, \"cell_size\": 0.5",
         {.agent_radius = -1, .agent_climb = -1, .cell_size = 0.5f}},
        {", \"tile_size\": 40, \"cell_size\": 0.5", {.tile_size = 40, .cell_size = 0.5f}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char json[1024];
        snprintf(json, sizeof json, "{\"regions\": [{\"name\": \"level\", \"mesh\": \"%s\"%s}]}", obj,
                 cases[i].options);
        nav_world *w = NULL;
        assert_int_equal(nav_world_load_json_text(json, strlen(json), "w.json", NULL, NULL, &w), NAV_SUCCESS);
        nav_mesh *expected = NULL;
        assert_int_equal(nav_mesh_build_from_geometry(&t, &cases[i].desc, &expected, NULL), NAV_SUCCESS);
        nav_writer a, b;
        nav_writer_init(&a, NULL);
        nav_writer_init(&b, NULL);
        assert_int_equal(nav_mesh_write_chunk(nav_world_region_mesh(w, 0), &a), NAV_SUCCESS);
        assert_int_equal(nav_mesh_write_chunk(expected, &b), NAV_SUCCESS);
        if (a.size != b.size || memcmp(a.data, b.data, a.size) != 0)
            fail_msg("case %zu: the region's mesh (%u polygons) is not the build's (%u polygons)", i,
                     nav_mesh_poly_count(nav_world_region_mesh(w, 0)), nav_mesh_poly_count(expected));
        assert_true(b.size != c.size || memcmp(b.data, c.data, b.size) != 0); /* the options matter */
        nav_writer_destroy(&a);
        nav_writer_destroy(&b);
        nav_mesh_destroy(expected);
        nav_world_destroy(w);
    }
    nav_writer_destroy(&c);
    nav_geometry_destroy(g);

    static const struct {
        const char *region;
        const char *message;
    } refused[] = {
        {"\"mesh\": \"level.obj\", \"max_slope\": 90",
         "regions[0].max_slope: expected degrees above 0 and below 90"},
        {"\"mesh\": \"level.obj\", \"max_slope\": 0",
         "regions[0].max_slope: expected degrees above 0 and below 90"},
        {"\"mesh\": \"level.obj\", \"height\": 0",
         "regions[0].height: expected a number from 1e-06 to 1e+06"},
        {"\"mesh\": \"level.obj\", \"cell_height\": -1", "regions[0].cell_height: expected a number from"},
        {"\"mesh\": \"level.obj\", \"max_climb\": \"1\"",
         "regions[0].max_climb: expected a number from 0 to"},
        {"\"mesh\": \"level.obj\", \"tile_size\": 2.5",
         "regions[0].tile_size: expected a whole number from 0 to 65535"},
        {"\"mesh\": \"level.obj\", \"max_poly_verts\": 2",
         "regions[0].max_poly_verts: expected a whole number from 3 to 32"},
        {"\"mesh\": \"level.obj\", \"snap\": 1", "regions[0].snap: not an option of a level's mesh (.obj)"},
        {"\"mesh\": \"level.obj\", \"agent_height\": 1", "regions[0]: unknown key \"agent_height\""},
        {"\"grid\": \"house_ground.txt\", \"height\": 2",
         "regions[0].height: not an option of a grid region"},
        {"\"grid\": \"house_ground.txt\", \"radius\": 1",
         "regions[0].radius: not an option of a grid region"},
        {"\"mesh\": \"town_east.txt\", \"tile_size\": 64",
         "regions[0].tile_size: not an option of a mesh made from a grid"},
        {"\"mesh\": \"town.nav\", \"origin\": [1, 0, 0]",
         "regions[0].origin: not an option of a mesh read from a .nav file"},
        {"\"waypoints\": \"road.txt\", \"cell_size\": 2",
         "regions[0].cell_size: not an option of a waypoint region"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char json[512];
        snprintf(json, sizeof json, "{\"regions\": [{\"name\": \"r\", %s}]}", refused[i].region);
        test_log log;
        test_log_init(&log);
        nav_world *w = (nav_world *)1;
        nav_status s = nav_world_load_json_text(json, strlen(json), "w.json", VILLAGE,
                                                &(nav_world_load_desc){.log = &log.hooks}, &w);
        if (s != (NAV_FAILURE | NAV_PARSE_ERROR) || !strstr(log.last, refused[i].message) || w)
            fail_msg("case %zu: status %s, last message \"%s\"", i, nav_status_str(s), log.last);
    }
    /* options only the build can judge together: the build's message, then the region's path */
    char json[1024];
    snprintf(json, sizeof json, "{\"regions\": [{\"name\": \"r\", \"mesh\": \"%s\", \"cell_height\": 1e-6}]}",
             obj);
    test_log log;
    test_log_init(&log);
    nav_world *w = (nav_world *)1;
    FAILS_WITH(nav_world_load_json_text(json, strlen(json), "w.json", NULL,
                                        &(nav_world_load_desc){.log = &log.hooks}, &w),
               NAV_INVALID_PARAM);
    assert_null(w);
    char expected[1200];
    snprintf(expected, sizeof expected, "w.json: regions[0].mesh: \"%s\" did not load: invalid parameter",
             obj);
    assert_string_equal(log.last, expected);
}

/* Every prefix and many byte flips of the village's JSON load or fail cleanly, and nothing leaks
 * (AddressSanitizer); every allocation failing in turn gives a clean failure. */
static void test_world_file_damage(void **state)
{
    (void)state;
    size_t size;
    char *text = test_read_file(VILLAGE "/village.json", &size);
    int loaded = 0;
    for (size_t n = 0; n <= size; n++) {
        nav_world *w = NULL;
        nav_status s = nav_world_load_json_text(text, n, "village.json", VILLAGE, NULL, &w);
        assert_true(nav_failed(s) == (w == NULL));
        loaded += !nav_failed(s);
        nav_world_destroy(w);
    }
    assert_true(loaded >= 1);
    for (size_t i = 0; i < size; i += 3) {
        char saved = text[i];
        text[i] = (char)(saved ^ 0x25);
        nav_world *w = NULL;
        nav_status s = nav_world_load_json_text(text, size, "village.json", VILLAGE, NULL, &w);
        assert_true(nav_failed(s) == (w == NULL));
        nav_world_destroy(w);
        text[i] = saved;
    }
    bool done = false;
    for (long fail_at = 1; !done && fail_at < 5000; fail_at++) {
        test_allocator t;
        test_allocator_init(&t, fail_at);
        nav_world *w = NULL;
        nav_status s = nav_world_load_json_text(text, size, "village.json", VILLAGE,
                                                &(nav_world_load_desc){.allocator = &t.hooks}, &w);
        if (nav_failed(s))
            assert_true(nav_has_detail(s, NAV_OUT_OF_MEMORY));
        else
            done = true;
        nav_world_destroy(w);
        assert_int_equal(t.live, 0);
    }
    assert_true(done);
    free(text);
}

/* ---- World .nav files and split bakes ---------------------------------------------------------- */

/* The world's .nav image (free it with nav_writer_destroy). */
static nav_writer image_of(const nav_world *w)
{
    nav_writer out;
    nav_writer_init(&out, NULL);
    assert_int_equal(nav_world_write_nav(w, &out), NAV_SUCCESS);
    return out;
}

static void assert_same_image(const nav_writer *a, const nav_writer *b)
{
    assert_int_equal(a->size, b->size);
    assert_memory_equal(a->data, b->data, a->size);
}

/* The world read back from its image, which writes the same bytes again. */
static nav_world *reload(const nav_writer *image)
{
    nav_world *w;
    assert_int_equal(nav_world_read_nav(image->data, image->size, NULL, &w), NAV_SUCCESS);
    nav_writer again = image_of(w);
    assert_same_image(image, &again);
    nav_writer_destroy(&again);
    return w;
}

/* Both worlds plan every pair of the points alike, to the bit, and lay the same points. */
static void assert_same_plans(const nav_world *a, const nav_world *b, const nav_vec3 *points, int n)
{
    nav_world_query *qa, *qb;
    assert_int_equal(nav_world_query_create(a, NULL, &qa), NAV_SUCCESS);
    assert_int_equal(nav_world_query_create(b, NULL, &qb), NAV_SUCCESS);
    nav_path pa, pb;
    nav_path_init(&pa, NULL);
    nav_path_init(&pb, NULL);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            nav_world_result ra, rb;
            nav_status sa = nav_world_find_path(qa, points[i], points[j], &pa, &ra),
                       sb = nav_world_find_path(qb, points[i], points[j], &pb, &rb);
            assert_int_equal(sa, sb);
            if (nav_failed(sa)) continue;
            assert_true(ra.cost == rb.cost && ra.legs == rb.legs);
            assert_int_equal(pa.count, pb.count);
            assert_memory_equal(pa.points, pb.points, pa.count * sizeof *pa.points);
            uint32_t na, nb;
            const nav_world_leg *la = nav_world_query_legs(qa, &na), *lb = nav_world_query_legs(qb, &nb);
            assert_int_equal(na, nb);
            for (uint32_t k = 0; k < na; k++) {
                assert_int_equal(la[k].region, lb[k].region);
                assert_int_equal(la[k].link, lb[k].link);
                assert_true(la[k].cost == lb[k].cost);
            }
        }
    nav_path_destroy(&pa);
    nav_path_destroy(&pb);
    nav_world_query_destroy(qa);
    nav_world_query_destroy(qb);
}

/* Bakes b one region at a time (each a part), joins the parts (in reverse order) and checks that
 * the world's image is whole's; a part bake's world refuses queries and saving; missing, doubled
 * and damaged parts are refused. */
static void check_split(const nav_world_builder *b, const nav_world *whole)
{
    nav_world_info info;
    nav_world_get_info(whole, &info);
    uint32_t n = info.regions;
    nav_writer *images = calloc(n, sizeof *images);
    nav_world_part *parts = calloc(n + 1, sizeof *parts);
    assert_non_null(images);
    assert_non_null(parts);
    for (uint32_t r = 0; r < n; r++) {
        nav_world *pw;
        assert_int_equal(
            nav_world_bake(
                b,
                &(nav_world_bake_desc){.threads = 1 + r % 2, .only_region = nav_world_region_name(whole, r)},
                &pw),
            NAV_SUCCESS);
        nav_world_query *q = NULL;
        assert_int_equal(nav_world_query_create(pw, NULL, &q), NAV_FAILURE | NAV_WRONG_STATE);
        nav_writer_init(&images[r], NULL);
        assert_int_equal(nav_world_write_nav(pw, &images[r]), NAV_FAILURE | NAV_WRONG_STATE);
        uint32_t only;
        assert_int_equal(nav_world_part_regions(pw, &only), 1);
        assert_int_equal(only, r);
        assert_int_equal(nav_world_write_part(pw, &images[r]), NAV_SUCCESS);
        nav_world_destroy(pw);
        parts[n - 1 - r] = (nav_world_part){images[r].data, images[r].size, nav_world_region_name(whole, r)};
    }
    nav_world *joined;
    assert_int_equal(nav_world_bake(b, &(nav_world_bake_desc){.parts = parts, .part_count = n}, &joined),
                     NAV_SUCCESS);
    nav_writer want = image_of(whole), got = image_of(joined);
    assert_same_image(&want, &got);
    nav_writer_destroy(&got);
    nav_world_destroy(joined);
    /* shards: 4 jobs of an array (regions 0, 4, 8, ...; 1, 5, 9, ...), one of them empty when n < 4 */
    nav_writer shard_images[4];
    nav_world_part shard_parts[4];
    uint32_t covered = 0;
    for (uint32_t k = 0; k < 4; k++) {
        nav_world *pw;
        assert_int_equal(nav_world_bake(b, &(nav_world_bake_desc){.shard = k, .shards = 4}, &pw),
                         NAV_SUCCESS);
        covered += nav_world_part_regions(pw, NULL);
        nav_writer_init(&shard_images[k], NULL);
        assert_int_equal(nav_world_write_part(pw, &shard_images[k]), NAV_SUCCESS);
        shard_parts[k] = (nav_world_part){shard_images[k].data, shard_images[k].size, NULL};
        nav_world_destroy(pw);
    }
    assert_int_equal(covered, n);
    assert_int_equal(
        nav_world_bake(b, &(nav_world_bake_desc){.parts = shard_parts, .part_count = 4}, &joined),
        NAV_SUCCESS);
    got = image_of(joined);
    assert_same_image(&want, &got);
    nav_writer_destroy(&got);
    nav_world_destroy(joined);
    for (uint32_t k = 0; k < 4; k++) nav_writer_destroy(&shard_images[k]);
    nav_writer_destroy(&want);
    nav_world *none = NULL; /* a shard past the count, only_region with a shard, parts with a shard */
    assert_int_equal(nav_world_bake(b, &(nav_world_bake_desc){.shard = 4, .shards = 4}, &none),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_world_bake(b, &(nav_world_bake_desc){.only_region = "tile 0", .shards = 2}, &none),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(
        nav_world_bake(b, &(nav_world_bake_desc){.shards = 2, .parts = parts, .part_count = n}, &none),
        NAV_FAILURE | NAV_INVALID_PARAM);
    assert_null(none);
    nav_world *w = NULL;
    assert_int_equal(nav_world_bake(b, &(nav_world_bake_desc){.parts = parts, .part_count = n - 1}, &w),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    parts[n] = parts[0];
    assert_int_equal(nav_world_bake(b, &(nav_world_bake_desc){.parts = parts, .part_count = n + 1}, &w),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    uint8_t *copy = malloc(parts[0].size);
    memcpy(copy, parts[0].data, parts[0].size);
    copy[parts[0].size - 1] ^= 1; /* the container's CRC catches it */
    parts[0].data = copy;
    assert_int_equal(nav_world_bake(b, &(nav_world_bake_desc){.parts = parts, .part_count = n}, &w),
                     NAV_FAILURE | NAV_CORRUPT_DATA);
    assert_null(w);
    free(copy);
    for (uint32_t r = 0; r < n; r++) nav_writer_destroy(&images[r]);
    free(images);
    free(parts);
}

/* The village saved as a .nav file and read back: the same bytes again, the same plans to the bit;
 * a split bake through the JSON loader equals the whole bake byte for byte, and a part made from
 * another version of the world is refused. */
static void test_world_nav(void **state)
{
    (void)state;
    test_log log;
    test_log_init(&log);
    nav_world *w;
    assert_int_equal(
        nav_world_load_json(VILLAGE "/village.json", &(nav_world_load_desc){.log = &log.hooks}, &w),
        NAV_SUCCESS);
    nav_writer image = image_of(w);
    nav_world *back = reload(&image);
    nav_vec3 points[] = {{12.5f, 3, 8.5f},   {125.5f, 0, 20.5f}, {30.5f, 0, 8.5f}, {72, 0, 18},
                         {3.5f, 0.2f, 8.5f}, {3.5f, 3.2f, 8.5f}, {60, 0, 60}};
    assert_same_plans(w, back, points, 7);
    nav_world_destroy(back);

    /* on disk */
    char path[] = "/tmp/libnav_world_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(nav_world_save_nav(w, path), NAV_SUCCESS);
    assert_int_equal(nav_world_load_nav(path, NULL, &back), NAV_SUCCESS);
    assert_same_plans(w, back, points, 3);
    nav_world_destroy(back);
    remove(path);
    assert_int_equal(nav_world_load_nav(path, &(nav_world_load_desc){.log = &log.hooks}, &back),
                     NAV_FAILURE | NAV_IO_ERROR);
    assert_non_null(strstr(log.last, path));

    /* split through the loader: one part a region, then joined */
    size_t size;
    char *text = test_read_file(VILLAGE "/village.json", &size);
    nav_world_info info;
    nav_world_get_info(w, &info);
    nav_writer parts_bytes[8];
    nav_world_part parts[8];
    for (uint32_t r = 0; r < info.regions; r++) {
        nav_world *pw;
        nav_world_bake_desc bake = {.only_region = nav_world_region_name(w, r)};
        assert_int_equal(nav_world_load_json_text(text, size, "village.json", VILLAGE,
                                                  &(nav_world_load_desc){.bake = &bake}, &pw),
                         NAV_SUCCESS);
        nav_writer_init(&parts_bytes[r], NULL);
        assert_int_equal(nav_world_write_part(pw, &parts_bytes[r]), NAV_SUCCESS);
        parts[r] = (nav_world_part){parts_bytes[r].data, parts_bytes[r].size, NULL};
        nav_world_destroy(pw);
    }
    nav_world *joined;
    nav_world_bake_desc join = {.parts = parts, .part_count = info.regions};
    assert_int_equal(nav_world_load_json_text(text, size, "village.json", VILLAGE,
                                              &(nav_world_load_desc){.bake = &join}, &joined),
                     NAV_SUCCESS);
    nav_writer again = image_of(joined);
    assert_same_image(&image, &again);
    nav_writer_destroy(&again);
    nav_world_destroy(joined);

    /* the town's end of the east gate a metre west: the town's part no longer fits */
    char *edited = malloc(size + 1);
    memcpy(edited, text, size);
    edited[size] = '\0';
    char *at = strstr(edited, "[55.5");
    assert_non_null(at);
    at[2] = '4'; /* 55.5 -> 54.5 */
    nav_world *other = NULL;
    nav_status s = nav_world_load_json_text(edited, size, "village.json", VILLAGE,
                                            &(nav_world_load_desc){.bake = &join, .log = &log.hooks}, &other);
    assert_int_equal(s, NAV_FAILURE | NAV_SOURCE_MISMATCH);
    assert_null(other);
    assert_non_null(strstr(log.last, "the part of region \"west town\" was made from other region data"));
    free(edited);
    for (uint32_t r = 0; r < info.regions; r++) nav_writer_destroy(&parts_bytes[r]);
    free(text);
    nav_writer_destroy(&image);
    nav_world_destroy(w);
}

/* Rebuilds a container of the image's chunks with `byte` of chunk `chunk` flipped (a valid CRC, so
 * the world's own checks see it). */
static nav_writer flipped(const nav_writer *image, uint32_t chunk, size_t byte, uint8_t mask)
{
    nav_container c;
    assert_int_equal(nav_container_open(image->data, image->size, NULL, &c), NAV_SUCCESS);
    uint8_t *copy = malloc(c.chunks[chunk].size);
    memcpy(copy, c.chunks[chunk].data, c.chunks[chunk].size);
    copy[byte] ^= mask;
    nav_chunk chunks[NAV_CONTAINER_MAX_CHUNKS];
    memcpy(chunks, c.chunks, c.count * sizeof *chunks);
    chunks[chunk].data = copy;
    nav_writer out;
    nav_writer_init(&out, NULL);
    assert_int_equal(nav_container_write(&out, chunks, c.count), NAV_SUCCESS);
    free(copy);
    return out;
}

/* A damaged world file: every prefix refused; every byte of the WRLD chunk flipped (with the CRC
 * made right) refused or read into a world whose queries run; allocation failures reported. */
static void test_world_nav_damage(void **state)
{
    (void)state;
    nav_world *w;
    assert_int_equal(nav_world_load_json(VILLAGE "/village.json", NULL, &w), NAV_SUCCESS);
    nav_writer image = image_of(w);
    nav_world_destroy(w);
    for (size_t n = 0; n < image.size; n += 7) {
        nav_world *back = NULL;
        assert_true(nav_failed(nav_world_read_nav(image.data, n, NULL, &back)));
        assert_null(back);
    }
    nav_container c;
    assert_int_equal(nav_container_open(image.data, image.size, NULL, &c), NAV_SUCCESS);
    assert_int_equal(c.chunks[0].tag, NAV_CHUNK_WORLD);
    int refused = 0, read = 0;
    nav_vec3 points[] = {{12.5f, 3, 8.5f}, {125.5f, 0, 20.5f}, {30.5f, 0, 8.5f}};
    for (size_t byte = 0; byte < c.chunks[0].size; byte++) {
        nav_writer bad = flipped(&image, 0, byte, (uint8_t)(1u << (byte % 8)));
        nav_world *back = NULL;
        nav_status s = nav_world_read_nav(bad.data, bad.size, NULL, &back);
        assert_true(nav_failed(s) == (back == NULL));
        if (nav_failed(s)) {
            assert_true(nav_has_detail(s, NAV_CORRUPT_DATA) || nav_has_detail(s, NAV_TOO_LARGE) ||
                        nav_has_detail(s, NAV_OUT_OF_MEMORY));
            refused++;
        } else {
            read++;
            nav_world_query *q;
            assert_int_equal(nav_world_query_create(back, NULL, &q), NAV_SUCCESS);
            nav_path path;
            nav_path_init(&path, NULL);
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) { /* (a way kept through a wall would cost an infinity) */
                    nav_status f = nav_world_find_path(q, points[i], points[j], &path, NULL);
                    assert_true(nav_failed(f) || nav_has_detail(f, NAV_UNREACHABLE) ||
                                (isfinite(path.cost) && path.cost >= 0));
                }
            nav_path_destroy(&path);
            nav_world_query_destroy(q);
        }
        nav_world_destroy(back);
        nav_writer_destroy(&bad);
    }
    assert_true(refused > read); /* most bytes matter; a link's cost or a position may change freely */
    bool done = false;
    for (long fail_at = 1; !done && fail_at < 2000; fail_at++) {
        test_allocator t;
        test_allocator_init(&t, fail_at);
        nav_world *back = NULL;
        nav_status s =
            nav_world_read_nav(image.data, image.size, &(nav_world_load_desc){.allocator = &t.hooks}, &back);
        if (nav_failed(s))
            assert_int_equal(s, NAV_FAILURE | NAV_OUT_OF_MEMORY);
        else
            done = true;
        nav_world_destroy(back);
        assert_int_equal(t.live, 0);
    }
    assert_true(done);
    nav_writer_destroy(&image);
}

/* A way a world file keeps for a grid region is walked when read: one that leaves the grid, ends
 * elsewhere or steps where the grid allows no step (through a wall) is refused. */
static void test_grid_way_check(void **state)
{
    (void)state;
    const char *rows[] = {".....", "..#..", "....."};
    nav_grid *g = grid_at(rows, 3, nav_vec3_make(0, 0, 0), 1);
    nav__world_region r = {.kind = NAV_WORLD_REGION_GRID, .ops = &nav__world_grid_ops, .grid = g};
    int east = 0, north = 0, south = 0, north_east = 0, south_east = 0;
    for (int d = 0; d < 8; d++) {
        if (nav__dir_dx[d] == 1 && nav__dir_dy[d] == 0) east = d;
        if (nav__dir_dx[d] == 0 && nav__dir_dy[d] == 1) north = d;
        if (nav__dir_dx[d] == 0 && nav__dir_dy[d] == -1) south = d;
        if (nav__dir_dx[d] == 1 && nav__dir_dy[d] == 1) north_east = d;
        if (nav__dir_dx[d] == 1 && nav__dir_dy[d] == -1) south_east = d;
    }
    uint32_t from = (uint32_t)nav_grid_index(g, 0, 1), to = (uint32_t)nav_grid_index(g, 4, 1);
    /* (a run: its direction in the top three bits, its steps less one in the others) */
    const uint8_t through[] = {(uint8_t)(east << 5 | 3)},
                  round[] = {(uint8_t)(north_east << 5 | 0), (uint8_t)(east << 5 | 1),
                             (uint8_t)(south_east << 5 | 0)},
                  off[] = {(uint8_t)(north << 5 | 2), (uint8_t)(south << 5 | 2), (uint8_t)(east << 5 | 3)},
                  short_of[] = {(uint8_t)(north_east << 5 | 0), (uint8_t)(east << 5 | 1)};
    const uint8_t wide[] = {(uint8_t)(north << 5 | 0), (uint8_t)(east << 5 | 3), (uint8_t)(south << 5 | 0)};
    assert_false(nav__world_grid_ops.way_ok(&r, from, to, through, 1));
    assert_true(nav__world_grid_ops.way_ok(&r, from, to, round, 3));
    assert_false(nav__world_grid_ops.way_ok(&r, from, to, off, 3));
    assert_false(nav__world_grid_ops.way_ok(&r, from, to, short_of, 2));
    assert_true(nav__world_grid_ops.way_ok(&r, from, to, wide, 3));
    nav_grid_destroy(g);
}

/* A world file whose WRLD header claims absurd tables (a u64 of its header set to `value`, the CRC
 * made right) is refused as corrupt before anything of that size is asked for; one of an older
 * version is refused as such, saying to bake it again. */
static void test_world_nav_sizes(void **state)
{
    (void)state;
    nav_world *w;
    assert_int_equal(nav_world_load_json(VILLAGE "/village.json", NULL, &w), NAV_SUCCESS);
    nav_writer image = image_of(w);
    nav_world_destroy(w);
    nav_container c;
    assert_int_equal(nav_container_open(image.data, image.size, NULL, &c), NAV_SUCCESS);
    assert_int_equal(c.chunks[0].tag, NAV_CHUNK_WORLD);
    /* the header's u64 table entries (at 16) and way bytes (at 24) */
    uint64_t values[] = {1ull << 40, UINT64_MAX / 16, UINT64_MAX, 1ull << 28};
    for (int field = 16; field <= 24; field += 8)
        for (int v = 0; v < 4; v++) {
            uint8_t *copy = malloc(c.chunks[0].size);
            memcpy(copy, c.chunks[0].data, c.chunks[0].size);
            for (int i = 0; i < 8; i++) copy[field + i] = (uint8_t)(values[v] >> (8 * i));
            nav_chunk chunks[NAV_CONTAINER_MAX_CHUNKS];
            memcpy(chunks, c.chunks, c.count * sizeof *chunks);
            chunks[0].data = copy;
            nav_writer bad;
            nav_writer_init(&bad, NULL);
            assert_int_equal(nav_container_write(&bad, chunks, c.count), NAV_SUCCESS);
            sizing_allocator a = {0, {sizing_alloc, sizing_realloc, sizing_free, NULL}};
            a.hooks.user = &a;
            test_log log;
            test_log_init(&log);
            nav_world *back = (nav_world *)1;
            assert_int_equal(
                nav_world_read_nav(bad.data, bad.size,
                                   &(nav_world_load_desc){.allocator = &a.hooks, .log = &log.hooks}, &back),
                NAV_FAILURE | NAV_CORRUPT_DATA);
            assert_null(back);
            assert_non_null(strstr(log.last, "rows or ways"));
            assert_true(a.largest < (1u << 20));
            nav_writer_destroy(&bad);
            free(copy);
        }
    /* a world file of version 2 (dense tables) */
    nav_chunk chunks[NAV_CONTAINER_MAX_CHUNKS];
    memcpy(chunks, c.chunks, c.count * sizeof *chunks);
    for (uint32_t i = 0; i < c.count; i++) chunks[i].version = 2;
    nav_writer old;
    nav_writer_init(&old, NULL);
    assert_int_equal(nav_container_write(&old, chunks, c.count), NAV_SUCCESS);
    test_log log;
    test_log_init(&log);
    nav_world *back = (nav_world *)1;
    assert_int_equal(nav_world_read_nav(old.data, old.size, &(nav_world_load_desc){.log = &log.hooks}, &back),
                     NAV_FAILURE | NAV_WRONG_VERSION);
    assert_null(back);
    assert_non_null(strstr(log.last, "bake the file again"));
    nav_writer_destroy(&old);
    nav_writer_destroy(&image);
}

/* A random grid (terrain, walls, raised cells that can be stepped down from but not up onto) cut
 * into tiles of uneven sizes, joined with NAV_WORLD_JOIN_EVERY: every route costs what it costs on
 * the one grid, reachable or not. Joined by entrances (a grid of one level, every move reversible):
 * the same reachability, never cheaper, and not much dearer on average. */
static nav_grid *random_grid(int32_t w, int32_t h, bool heights, unsigned seed)
{
    nav_grid *g;
    assert_int_equal(
        nav_grid_create(&(nav_grid_desc){.width = w, .height = h, .max_climb = heights ? 1.0f : 0}, &g),
        NAV_SUCCESS);
    assert_int_equal(nav_grid_set_terrain_cost(g, 2, 3.0), NAV_SUCCESS);
    srand(seed);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            int k = rand() % 10;
            nav_grid_set_cell(g, x, y, k < 2 ? 0 : k < 4 ? 2 : 1);
            if (heights && rand() % 5 == 0) nav_grid_set_cell_height(g, x, y, 2);
        }
    return g;
}

/* Cell (x0 .. x0 + w, y0 .. y0 + h) of g as a grid of its own, placed where it lies in g. */
static nav_grid *cut(const nav_grid *g, int32_t x0, int32_t y0, int32_t w, int32_t h)
{
    const nav_grid_desc *d = nav_grid_get_desc(g);
    nav_grid *t;
    nav_grid_desc td = {.width = w,
                        .height = h,
                        .max_climb = d->max_climb,
                        .corner_policy = d->corner_policy,
                        .origin = {(float)x0 * d->cell_size, 0, (float)y0 * d->cell_size},
                        .cell_size = d->cell_size};
    assert_int_equal(nav_grid_create(&td, &t), NAV_SUCCESS);
    assert_int_equal(nav_grid_set_terrain_cost(t, 2, 3.0), NAV_SUCCESS);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            nav_grid_set_cell(t, x, y, nav_grid_cell(g, x0 + x, y0 + y));
            float z = nav_grid_cell_height(g, x0 + x, y0 + y);
            if (z != 0) nav_grid_set_cell_height(t, x, y, z);
        }
    return t;
}

static void test_joined_tiles(void **state)
{
    (void)state;
    for (int round = 0; round < 6; round++) {
        bool heights = round % 2 == 0, every = round < 4;
        int32_t W = 19 + round, H = 14 + round % 3;
        nav_grid *big = random_grid(W, H, heights && every, 100u + (unsigned)round);
        int32_t xs[4] = {0, 6, 13, W}, ys[4] = {0, 5, 9 + round % 2, H};
        nav_grid *tiles[9];
        nav_world_builder *b;
        assert_int_equal(nav_world_builder_create(NULL, NULL, &b), NAV_SUCCESS);
        for (int ty = 0; ty < 3; ty++)
            for (int tx = 0; tx < 3; tx++) {
                int i = ty * 3 + tx;
                tiles[i] = cut(big, xs[tx], ys[ty], xs[tx + 1] - xs[tx], ys[ty + 1] - ys[ty]);
                char name[16];
                snprintf(name, sizeof name, "tile %d", i);
                assert_int_equal(nav_world_builder_add_grid(b, name, tiles[i], NULL), NAV_SUCCESS);
            }
        uint32_t added;
        assert_int_equal(
            nav_world_builder_join_touching(
                b, &(nav_world_join_desc){.mode = every ? NAV_WORLD_JOIN_EVERY : NAV_WORLD_JOIN_ENTRANCES},
                &added),
            NAV_SUCCESS);
        assert_true(added > 10);
        nav_world *w, *w1; /* on 3 threads and on 1: the same world */
        assert_int_equal(nav_world_bake(b, &(nav_world_bake_desc){.threads = 3}, &w), NAV_SUCCESS);
        assert_int_equal(nav_world_bake(b, &(nav_world_bake_desc){.threads = 1}, &w1), NAV_SUCCESS);
        nav_writer image = image_of(w), image1 = image_of(w1);
        assert_same_image(&image, &image1);
        if (round % 2 == 0) check_split(b, w);
        nav_world_builder_destroy(b);
        nav_world_destroy(w1); /* from here, w1 is w read back from its file */
        w1 = reload(&image);
        nav_writer_destroy(&image);
        nav_writer_destroy(&image1);
        nav_world_query *q, *q1;
        assert_int_equal(nav_world_query_create(w, NULL, &q), NAV_SUCCESS);
        assert_int_equal(nav_world_query_create(w1, NULL, &q1), NAV_SUCCESS);
        flat_world f = {0};
        add_flat_grid(&f, big);
        double ratio_sum = 0;
        int found = 0, unreachable = 0;
        for (int t = 0; t < 150; t++) {
            int32_t ax = rand() % W, ay = rand() % H, bx = rand() % W, by = rand() % H;
            if (!nav_grid_passable(big, ax, ay) || !nav_grid_passable(big, bx, by)) continue;
            nav_world_place pa = {0, nav_grid_index(big, ax, ay), nav_grid_cell_center(big, ax, ay)},
                            pb = {0, nav_grid_index(big, bx, by), nav_grid_cell_center(big, bx, by)};
            double want = flat_cost(&f, &pa, &pb);
            nav_vec3 a = pa.position, c = pb.position;
            a.y = c.y = 0.1f; /* over the floor, whatever its height */
            nav_world_result r;
            nav_path path;
            nav_path_init(&path, NULL);
            nav_status s = nav_world_find_path(q, a, c, &path, &r);
            nav_path_destroy(&path);
            nav_world_result p3, p1; /* the plans of the two bakes: the same to the last bit */
            assert_int_equal(nav_world_plan(q, a, c, &p3), s);
            assert_int_equal(nav_world_plan(q1, a, c, &p1), s);
            assert_true(p1.cost == p3.cost && p1.legs == p3.legs);
            if (!(want < INFINITY)) {
                assert_int_equal(s, NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE);
                unreachable++;
                continue;
            }
            assert_int_equal(s, NAV_SUCCESS);
            if (every)
                assert_true(close_to(r.cost, want));
            else
                assert_true(r.cost >= want * (1 - 1e-12));
            ratio_sum += r.cost / fmax(want, 1e-9) * (want > 0) + (want == 0);
            found++;
        }
        assert_true(found > 50);
        if (every && heights) assert_true(unreachable > 0);
        if (!every) assert_true(ratio_sum / found < 1.15);
        nav_world_query_destroy(q);
        nav_world_query_destroy(q1);
        nav_world_destroy(w);
        nav_world_destroy(w1);
        for (int i = 0; i < 9; i++) nav_grid_destroy(tiles[i]);
        nav_grid_destroy(big);
        flat_free(&f);
    }
}

/* Writes the image to a new temporary file; its name into path (room for 64). */
static void temp_file(const nav_writer *image, char *path)
{
    strcpy(path, "/tmp/libnav_world_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, image->data, image->size), (ssize_t)image->size);
    close(fd);
}

/* Regions on demand: the village from its file with a budget of 1 byte (every region no query holds
 * is evicted) and with room for all, each planning as the world read whole does; a region whose data
 * is damaged fails the queries that need it, and only those. */
/* A navmesh whose wall edge lies on a grid's border is joined to it through the border cells open
 * on both sides: one link an entrance (or a link a cell), one-way each way where the cell and the
 * mesh cost differently; a mesh at another height or beyond the tolerance is not. Routes across
 * cost what the flattened world says. */
static void test_mesh_joined_to_grid(void **state)
{
    (void)state;
    const char *yard_rows[] = {".......#", ".......#", "........", "........", ".......#", ".......#"};
    const char *plaza_rows[] = {"......", "......", "..##..", "..##..", "......", "......"};
    const char *shed_rows[] = {"....", "....", "....", "...."};
    for (int round = 0; round < 3; round++) {
        bool every = round == 1, dear = round == 2; /* dear: the door cell costs 2 */
        nav_grid *yard = grid_at(yard_rows, 6, nav_vec3_make(0, 0, 0), 1);
        if (dear) {
            assert_int_equal(nav_grid_set_terrain_cost(yard, 2, 2.0), NAV_SUCCESS);
            nav_grid_set_cell(yard, 7, 2, 2);
        }
        nav_grid *plaza_grid = grid_at(plaza_rows, 6, nav_vec3_make(8, 0, 0), 1);
        nav_grid *shed_grid = grid_at(shed_rows, 4, nav_vec3_make(-4, 2, 1), 1); /* west, 2 higher */
        /* north: beyond the tolerance (0.01), or within it (0.0005, in the round that links every cell) */
        nav_grid *loft_grid = grid_at(shed_rows, 4, nav_vec3_make(1, 0, every ? 6.0005f : 6.01f), 1);
        nav_mesh *plaza, *shed, *loft;
        assert_int_equal(nav_mesh_build_from_grid(plaza_grid, NULL, &plaza), NAV_SUCCESS);
        assert_int_equal(nav_mesh_build_from_grid(shed_grid, NULL, &shed), NAV_SUCCESS);
        assert_int_equal(nav_mesh_build_from_grid(loft_grid, NULL, &loft), NAV_SUCCESS);
        nav_world_builder *b;
        assert_int_equal(nav_world_builder_create(NULL, NULL, &b), NAV_SUCCESS);
        assert_int_equal(nav_world_builder_add_grid(b, "yard", yard, NULL), NAV_SUCCESS);
        assert_int_equal(nav_world_builder_add_mesh(b, "plaza", plaza, NULL), NAV_SUCCESS);
        assert_int_equal(nav_world_builder_add_mesh(b, "shed", shed, NULL), NAV_SUCCESS);
        assert_int_equal(nav_world_builder_add_mesh(b, "loft", loft, NULL), NAV_SUCCESS);
        uint32_t added;
        assert_int_equal(
            nav_world_builder_join_touching(
                b, &(nav_world_join_desc){.mode = every ? NAV_WORLD_JOIN_EVERY : NAV_WORLD_JOIN_ENTRANCES},
                &added),
            NAV_SUCCESS);
        /* the door (cells 2 and 3 of the yard's east side): one link in its middle, or one a cell;
         * the dear door's one each way; the loft within the tolerance: the four cells under it */
        assert_int_equal(added, every ? 2 + 4 : dear ? 2 : 1);
        nav_world *w;
        assert_int_equal(nav_world_bake(b, NULL, &w), NAV_SUCCESS);
        nav_world_builder_destroy(b);
        flat_world f = {0};
        add_flat(&f, NAV_WORLD_REGION_GRID, yard, NULL);
        add_flat(&f, NAV_WORLD_REGION_MESH, plaza_grid, NULL);
        add_flat(&f, NAV_WORLD_REGION_MESH, shed_grid, NULL);
        add_flat(&f, NAV_WORLD_REGION_MESH, loft_grid, NULL);
        for (uint32_t k = 0; k < added; k++) {
            nav_world_link_desc l;
            assert_true(nav_world_link(w, k, &l));
            assert_int_equal(l.kind, NAV_LINK_BORDER);
            bool out = l.from_region == 0; /* from the yard */
            nav_vec3 cell = out ? l.from : l.to, across = out ? l.to : l.from;
            uint32_t mesh = out ? l.to_region : l.from_region;
            assert_true(mesh == 1 || (every && mesh == 3));
            if (mesh == 1) { /* the door: the cell's centre, and the plaza just across x = 8 */
                assert_true(cell.x == 7.5f && (cell.z == 2.5f || (every && cell.z == 3.5f)));
                assert_true(across.x > 8 && across.x < 8.01f && across.z == cell.z);
            } else { /* under the loft */
                assert_true(cell.z == 5.5f && cell.x >= 1.5f && cell.x <= 4.5f);
                assert_true(across.z > 6 && across.z < 6.01f && across.x == cell.x);
            }
            double length = sqrt((double)(across.x - cell.x) * (across.x - cell.x) +
                                 (double)(across.z - cell.z) * (across.z - cell.z));
            /* entering the dear cell costs twice its length; entering the mesh, its length */
            double want = length * (dear && !out ? 2 : 1);
            assert_true(close_to(l.cost, want));
            assert_true(l.one_way == dear);
            f.links[f.link_count++] =
                (flat_link){l.from_region, l.to_region, l.from, l.to, l.cost, l.one_way, true};
        }
        nav_world_query *q;
        assert_int_equal(nav_world_query_create(w, NULL, &q), NAV_SUCCESS);
        nav_vec3 in_yard = {1.5f, 0, 0.5f}, in_plaza = {13.5f, 0, 5.5f}, in_loft = {4.5f, 0, 9.5f};
        assert_true(check_query(w, q, &f, in_yard, in_plaza) < INFINITY);
        assert_true(check_query(w, q, &f, in_plaza, in_yard) < INFINITY);
        if (every)
            assert_true(check_query(w, q, &f, in_plaza, in_loft) < INFINITY);
        else
            assert_true(check_query(w, q, &f, in_yard, in_loft) == INFINITY);
        assert_true(check_query(w, q, &f, in_yard, (nav_vec3){-2.5f, 2, 2.5f}) == INFINITY); /* the shed */
        nav_world_query_destroy(q);
        nav_world_destroy(w);
        flat_free(&f);
        nav_mesh_destroy(plaza);
        nav_mesh_destroy(shed);
        nav_mesh_destroy(loft);
        nav_grid_destroy(plaza_grid);
        nav_grid_destroy(shed_grid);
        nav_grid_destroy(loft_grid);
        nav_grid_destroy(yard);
    }
}

/* Two random ends in test_grid_through_hpa's world, located: each in the west hut, on the plain or
 * in the east hut; false when either lies on no free cell. */
static bool hut_or_plain(const nav_world *w, nav_vec3 ends[2], nav_world_place *pa, nav_world_place *pb)
{
    for (int e = 0; e < 2; e++) {
        int which = rand() % 4;
        if (which == 0)
            ends[e] = (nav_vec3){(float)(rand() % 6) + 0.5f, 0, (float)(rand() % 4) + 0.5f};
        else if (which == 1)
            ends[e] = (nav_vec3){110.5f + (float)(rand() % 6), 0, 70.5f + (float)(rand() % 4)};
        else
            ends[e] = (nav_vec3){10.5f + (float)(rand() % 96), 0, (float)(rand() % 80) + 0.5f};
    }
    return nav_world_locate(w, ends[0], pa) == NAV_SUCCESS && nav_world_locate(w, ends[1], pb) == NAV_SUCCESS;
}

/* A big grid searched through its HPA* bake, between two huts joined to it by doors: every route is
 * a valid walk costing what the plan said (hop by hop, the same HPA* queries as the fans and the
 * table), never below the flattened world's optimum and within 15% of it on average; unreachable
 * exactly where the flat world is. A bake of another grid is refused. */
static void test_grid_through_hpa(void **state)
{
    (void)state;
    nav_grid *plain;
    nav_grid_desc pd = {.width = 96, .height = 80, .origin = {10, 0, 0}};
    assert_int_equal(nav_grid_create(&pd, &plain), NAV_SUCCESS);
    assert_int_equal(nav_grid_set_terrain_cost(plain, 2, 3.0), NAV_SUCCESS);
    srand(78);
    for (int32_t y = 0; y < 80; y++)
        for (int32_t x = 0; x < 96; x++) {
            int k = rand() % 20;
            nav_grid_set_cell(plain, x, y, k < 3 ? 0 : k < 5 ? 2 : 1);
        }
    const char *hut_rows[] = {"......", "......", "..##..", "......"};
    nav_grid *west = grid_at(hut_rows, 4, nav_vec3_make(0, 0, 0), 1);
    nav_grid *east = grid_at(hut_rows, 4, nav_vec3_make(110, 0, 70), 1);
    /* a bake of another grid, and one of this grid before its doors and pocket below: refused */
    nav_hpa *hpa, *other, *stale;
    assert_int_equal(nav_hpa_bake(west, NULL, &other), NAV_SUCCESS);
    assert_int_equal(nav_hpa_bake(plain, &(nav_hpa_desc){.cluster_size = 16, .levels = 2}, &stale),
                     NAV_SUCCESS);
    /* doors from the huts onto the plain, and a second way into the east hut (free cells of the
     * plain: the doors' cells are cleared) */
    nav_grid_set_cell(plain, 0, 1, 1), nav_grid_set_cell(plain, 95, 72, 1),
        nav_grid_set_cell(plain, 60, 79, 1);
    for (int32_t y = 39; y <= 41; y++) /* a pocket walled in at (50, 40) */
        for (int32_t x = 49; x <= 51; x++) nav_grid_set_cell(plain, x, y, x == 50 && y == 40 ? 1 : 0);
    assert_int_equal(nav_hpa_bake(plain, &(nav_hpa_desc){.cluster_size = 16, .levels = 2}, &hpa),
                     NAV_SUCCESS);
    nav_world_builder *b;
    assert_int_equal(nav_world_builder_create(NULL, NULL, &b), NAV_SUCCESS);
    FAILS_WITH(nav_world_builder_add_grid_hpa(b, "plain", plain, other, NULL), NAV_SOURCE_MISMATCH);
    FAILS_WITH(nav_world_builder_add_grid_hpa(b, "plain", plain, stale, NULL), NAV_SOURCE_MISMATCH);
    assert_int_equal(nav_world_builder_add_grid_hpa(b, "plain", plain, hpa, NULL), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_grid(b, "west hut", west, NULL), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_grid(b, "east hut", east, NULL), NAV_SUCCESS);
    flat_world f = {0};
    add_flat_grid(&f, plain);
    add_flat_grid(&f, west);
    add_flat_grid(&f, east);
    add_link(b, &f,
             &(nav_world_link_desc){
                 .from_region = 1, .from = {5.5f, 0, 1.5f}, .to_region = 0, .to = {10.5f, 0, 1.5f}});
    add_link(b, &f,
             &(nav_world_link_desc){
                 .from_region = 0, .from = {105.5f, 0, 72.5f}, .to_region = 2, .to = {110.5f, 0, 72.5f}});
    add_link(b, &f,
             &(nav_world_link_desc){.from_region = 0,
                                    .from = {70.5f, 0, 79.5f},
                                    .to_region = 2,
                                    .to = {111.5f, 0, 73.5f},
                                    .cost = 30});
    nav_world *w;
    assert_int_equal(nav_world_bake(b, &(nav_world_bake_desc){.threads = 2}, &w), NAV_SUCCESS);
    nav_world_builder_destroy(b);
    assert_ptr_equal(nav_world_region_hpa(w, 0), hpa);
    assert_null(nav_world_region_hpa(w, 1));
    /* the world through its .nav file: read whole, and with its regions on demand; the same answers */
    nav_writer image = image_of(w);
    nav_world *whole = reload(&image);
    assert_non_null(nav_world_region_hpa(whole, 0));
    assert_true(nav_world_region_by_hpa(w, 0) && !nav_world_region_by_hpa(w, 1));
    char file[] = "/tmp/libnav_hpa_world_XXXXXX";
    int fd = mkstemp(file);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(nav_world_save_nav(w, file), NAV_SUCCESS);
    nav_world *lazy;
    assert_int_equal(nav_world_load_nav(file, &(nav_world_load_desc){.region_budget = 1}, &lazy),
                     NAV_SUCCESS);
    assert_true(nav_world_region_by_hpa(lazy, 0) && !nav_world_region_by_hpa(lazy, 2));
    nav_world_query *qw, *ql, *qo;
    assert_int_equal(nav_world_query_create(w, NULL, &qo), NAV_SUCCESS);
    assert_int_equal(nav_world_query_create(whole, NULL, &qw), NAV_SUCCESS);
    assert_int_equal(nav_world_query_create(lazy, NULL, &ql), NAV_SUCCESS);
    /* a grid filter is taken (the plain is searched cell by cell under it: below), read on demand
     * too */
    nav_grid_filter as_own;
    nav_grid_filter_init(&as_own, plain);
    assert_int_equal(nav_world_query_set_grid_filter(qo, &as_own), NAV_SUCCESS);
    assert_int_equal(nav_world_query_set_grid_filter(ql, &as_own), NAV_SUCCESS);
    assert_int_equal(nav_world_query_set_grid_filter(ql, NULL), NAV_SUCCESS);
    assert_int_equal(nav_world_query_set_grid_filter(qo, NULL), NAV_SUCCESS);
    for (int t = 0; t < 20; t++) {
        nav_vec3 a = {(float)(t % 6) + 0.5f, 0, 1.5f}, c = {110.5f + (float)(t % 6), 0, 71.5f};
        if (t % 2) c = (nav_vec3){10.5f + (float)(t * 4 % 96), 0, (float)(t * 7 % 80) + 0.5f};
        nav_world_result ro, rw, rl;
        nav_status so = nav_world_plan(qo, a, c, &ro);
        assert_int_equal(nav_world_plan(qw, a, c, &rw), so);
        assert_int_equal(nav_world_plan(ql, a, c, &rl), so);
        assert_true(ro.cost == rw.cost && ro.cost == rl.cost && ro.legs == rl.legs);
        nav_path path;
        nav_path_init(&path, NULL);
        nav_world_result refined;
        assert_int_equal(nav_world_find_path(ql, a, c, &path, &refined), so);
        if (so == NAV_SUCCESS) assert_true(close_to(refined.cost, ro.cost));
        nav_path_destroy(&path);
    }
    nav_world_query_destroy(qo);
    nav_world_query_destroy(qw);
    nav_world_query_destroy(ql);
    nav_world_destroy(whole);
    nav_world_destroy(lazy);
    unlink(file);
    nav_writer_destroy(&image);
    nav_world_query *q;
    assert_int_equal(nav_world_query_create(w, NULL, &q), NAV_SUCCESS);
    double ratio = 0;
    int found = 0, direct = 0;
    srand(79);
    for (int t = 0; t < 120; t++) {
        nav_vec3 ends[2]; /* (anywhere: the huts or the plain) */
        nav_world_place pa, pb;
        if (!hut_or_plain(w, ends, &pa, &pb)) continue;
        double want = flat_cost(&f, &pa, &pb);
        nav_world_result planned, r;
        nav_path path;
        nav_path_init(&path, NULL);
        nav_status s = nav_world_plan(q, ends[0], ends[1], &planned);
        assert_int_equal(nav_world_find_path(q, ends[0], ends[1], &path, &r), s);
        if (!(want < INFINITY)) {
            assert_int_equal(s, NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE);
        } else {
            assert_int_equal(s, NAV_SUCCESS);
            assert_true(close_to(r.cost, planned.cost));                /* refined hop by hop as planned */
            assert_true(close_to(check_path(w, q, &f, &path), r.cost)); /* a valid walk of each region */
            assert_true(r.cost >= want - 1e-9 * want);
            ratio += r.cost / fmax(want, 1e-9);
            found++;
            if (r.direct && pa.region == 0) { /* laid from the fans' own ways: no HPA* query again */
                assert_int_equal(r.searches, planned.searches);
                direct++;
            }
        }
        nav_path_destroy(&path);
    }
    assert_true(found > 60 && direct > 10);
    nav_vec3 pocket = {60.5f, 0, 40.5f}; /* (50, 40) of the plain */
    assert_true(check_query(w, q, &f, (nav_vec3){2.5f, 0, 0.5f}, pocket) == INFINITY);
    assert_true(ratio / found < 1.15);
    /* Under grid filters the plain, through HPA* but of at most 2^20 cells, is searched cell by cell:
     * each plan exact against the flat world of the grids as the filter makes them (check_query), for
     * the forest (type 2) kept out, at half its cost and at one and a half times (the bake's table,
     * HPA*'s costs, is then no bound even scaled: fans take its place). Ends in either hut too, whose
     * routes cross the plain from door to door: with the table scaled as a bound there, some plans
     * cost more than the optimum. Under the grid's own costs (a filter that changes nothing) the plan
     * is HPA*'s, as without a filter. */
    nav_grid *made[3];
    const double forest[3] = {3.0, 1.5, 4.5};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(nav_grid_create(&pd, &made[k]), NAV_SUCCESS);
        assert_int_equal(nav_grid_set_terrain_cost(made[k], 2, forest[k]), NAV_SUCCESS);
        for (int32_t y = 0; y < 80; y++)
            for (int32_t x = 0; x < 96; x++) {
                uint8_t type = nav_grid_cell(plain, x, y);
                nav_grid_set_cell(made[k], x, y, k == 0 && type == 2 ? 0 : type);
            }
    }
    nav_grid_filter filters[4];
    for (int k = 0; k < 4; k++) nav_grid_filter_init(&filters[k], plain);
    filters[0].terrain_cost[2] = NAV_COST_BLOCKED, filters[1].terrain_cost[2] = 1.5;
    filters[2].terrain_cost[2] = 4.5;
    int dearer = 0, cheaper = 0, planned_count = 0;
    for (int t = 0; t < 40; t++) {
        nav_vec3 ends[2];
        nav_world_place pa, pb;
        if (!hut_or_plain(w, ends, &pa, &pb)) continue;
        assert_int_equal(nav_world_query_set_grid_filter(q, NULL), NAV_SUCCESS);
        double own = flat_cost(&f, &pa, &pb);
        nav_world_result unfiltered, same;
        nav_status us = nav_world_plan(q, ends[0], ends[1], &unfiltered);
        assert_int_equal(nav_world_query_set_grid_filter(q, &filters[3]), NAV_SUCCESS);
        assert_int_equal(nav_world_plan(q, ends[0], ends[1], &same), us);
        assert_true(same.cost == unfiltered.cost && same.legs == unfiltered.legs);
        for (int k = 0; k < 3; k++) {
            flat_world fk = f; /* (the same links; grids alone: nothing of f's to free twice) */
            fk.regions[0].grid = made[k];
            int32_t x, y; /* (an end in the forest, kept out: no plan from it) */
            bool in_forest =
                k == 0 && ((pa.region == 0 && nav_grid_world_to_cell(plain, pa.position, &x, &y) &&
                            nav_grid_cell(plain, x, y) == 2) ||
                           (pb.region == 0 && nav_grid_world_to_cell(plain, pb.position, &x, &y) &&
                            nav_grid_cell(plain, x, y) == 2));
            if (in_forest) continue;
            assert_int_equal(nav_world_query_set_grid_filter(q, &filters[k]), NAV_SUCCESS);
            double cost = check_query(w, q, &fk, ends[0], ends[1]);
            dearer += k != 1 && cost > own * (1 + 1e-9);
            cheaper += k == 1 && cost < own * (1 - 1e-9);
            planned_count++;
        }
    }
    print_message("grid through HPA* under filters: %d plans, %d dearer with the forest kept out or "
                  "dearer, %d cheaper with it at half\n",
                  planned_count, dearer, cheaper);
    assert_true(planned_count > 40 && dearer > 5 && cheaper > 5);
    assert_int_equal(nav_world_query_set_grid_filter(q, NULL), NAV_SUCCESS);
    for (int k = 0; k < 3; k++) nav_grid_destroy(made[k]);
    nav_world_query_destroy(q);
    nav_world_destroy(w);
    flat_free(&f);
    nav_hpa_destroy(hpa);
    nav_hpa_destroy(other);
    nav_hpa_destroy(stale);
    nav_grid_destroy(plain);
    nav_grid_destroy(west);
    nav_grid_destroy(east);
}

/* A grid through HPA* takes a grid filter when it has at most 2^20 cells (it is then searched cell by
 * cell under it), and refuses one when it has more (NAV_WRONG_STATE: its bake holds the grid's own
 * costs), changing nothing: the query plans on as before. */
static void test_grid_through_hpa_filter_limit(void **state)
{
    (void)state;
    for (int big = 0; big < 2; big++) {
        nav_grid *grid;
        nav_grid_desc d = {.width = 1024 + big, .height = 1024};
        assert_int_equal(nav_grid_create(&d, &grid), NAV_SUCCESS);
        for (int32_t y = 0; y < d.height; y++)
            for (int32_t x = 0; x < d.width; x++) nav_grid_set_cell(grid, x, y, 1);
        nav_hpa *hpa;
        assert_int_equal(nav_hpa_bake(grid, &(nav_hpa_desc){.cluster_size = 64, .levels = 1}, &hpa),
                         NAV_SUCCESS);
        nav_world_builder *b;
        assert_int_equal(nav_world_builder_create(NULL, NULL, &b), NAV_SUCCESS);
        assert_int_equal(nav_world_builder_add_grid_hpa(b, "field", grid, hpa, NULL), NAV_SUCCESS);
        nav_world *w;
        assert_int_equal(nav_world_bake(b, NULL, &w), NAV_SUCCESS);
        nav_world_builder_destroy(b);
        nav_world_query *q;
        assert_int_equal(nav_world_query_create(w, NULL, &q), NAV_SUCCESS);
        nav_grid_filter dear;
        nav_grid_filter_init(&dear, grid);
        dear.terrain_cost[1] = 2;
        nav_vec3 a = {0.5f, 0, 0.5f}, c = {900.5f, 0, 3.5f};
        nav_world_result r, before;
        assert_int_equal(nav_world_plan(q, a, c, &before), NAV_SUCCESS);
        if (big) {
            assert_int_equal(nav_world_query_set_grid_filter(q, &dear), NAV_FAILURE | NAV_WRONG_STATE);
            assert_int_equal(nav_world_plan(q, a, c, &r), NAV_SUCCESS);
            assert_true(r.cost == before.cost); /* (at the grid's costs: the filter was not set) */
        } else {
            assert_int_equal(nav_world_query_set_grid_filter(q, &dear), NAV_SUCCESS);
            assert_int_equal(nav_world_plan(q, a, c, &r), NAV_SUCCESS);
            /* 897 straight and 3 diagonal moves, each at twice the cost */
            assert_true(close_to(r.cost, 2 * (897 + 3 * sqrt(2.0))));
        }
        nav_world_query_destroy(q);
        nav_world_destroy(w);
        nav_hpa_destroy(hpa);
        nav_grid_destroy(grid);
    }
}

/* The nearest free cell's point to p within the box (a cell's points: its square, inset by a
 * ten-thousandth of its side): every cell of the grid looked at (the reference for
 * nav_world_nearest on a grid). */
static bool grid_nearest_reference(const nav_grid *g, nav_vec3 p, nav_vec3 half, nav_vec3 *out)
{
    const nav_grid_desc *d = nav_grid_get_desc(g);
    double best = INFINITY;
    for (int32_t y = 0; y < nav_grid_height(g); y++)
        for (int32_t x = 0; x < nav_grid_width(g); x++) {
            if (!nav_grid_passable(g, x, y)) continue;
            float in = d->cell_size * 1e-4f, x0 = d->origin.x + (float)x * d->cell_size + in,
                  z0 = d->origin.z + (float)y * d->cell_size + in, x1 = x0 + d->cell_size - 2 * in,
                  z1 = z0 + d->cell_size - 2 * in;
            nav_vec3 c = {fminf(fmaxf(p.x, x0), x1), nav_grid_cell_center(g, x, y).y,
                          fminf(fmaxf(p.z, z0), z1)};
            if (fabsf(c.x - p.x) > half.x || fabsf(c.z - p.z) > half.z || fabsf(c.y - p.y) > half.y) continue;
            double dist = nav_vec3_dist(c, p);
            if (dist < best) best = dist, *out = c;
        }
    return best < INFINITY;
}

/* Whether one of walls[0 .. n) (moved by dx along x) holds the unit piece from (ax, az) to (bx, bz),
 * the same way. */
static bool walls_hold(const nav_wall *walls, uint32_t n, float dx, double ax, double az, double bx,
                       double bz)
{
    for (uint32_t i = 0; i < n; i++) {
        double wx = walls[i].a.x + dx, wz = walls[i].a.z, vx = walls[i].b.x + dx, vz = walls[i].b.z;
        double ex = vx - wx, ez = vz - wz, len2 = ex * ex + ez * ez;
        if ((bx - ax) * ex + (bz - az) * ez <= 0) continue;
        bool on = true;
        for (int e = 0; e < 2; e++) {
            double px = e ? bx : ax, pz = e ? bz : az, t = ((px - wx) * ex + (pz - wz) * ez) / len2;
            on &= t >= -1e-9 && t <= 1 + 1e-9 && fabs((px - wx) * ez - (pz - wz) * ex) < 1e-6;
        }
        if (on) return true;
    }
    return false;
}

/* The walls near the same point of the yard (a grid) and of the town (the mesh of the same cells, 20
 * along x): each unit piece of the yard's walls in one of the town's, and each piece of the town's
 * within range in one of the yard's; the nearest first, within range, the free side on the left. */
static int check_walls(const nav_world *w, nav_world_query *q, const nav_grid *yard, nav_world_place from,
                       float range)
{
    nav_wall grid[64], mesh[64];
    uint32_t n, m;
    assert_int_equal(nav_world_walls(q, &from, range, grid, 64, &n), NAV_SUCCESS);
    nav_world_place there;
    assert_int_equal(nav_world_locate(w, nav_vec3_make(from.position.x + 20, 0, from.position.z), &there),
                     NAV_SUCCESS);
    there.position = nav_vec3_make(from.position.x + 20, 0, from.position.z);
    assert_int_equal(nav_world_walls(q, &there, range, mesh, 64, &m), NAV_SUCCESS);
    int pieces = 0;
    for (int side = 0; side < 2; side++) {
        const nav_wall *list = side ? mesh : grid;
        uint32_t count = side ? m : n;
        double last = 0;
        for (uint32_t i = 0; i < count; i++) {
            double ax = list[i].a.x - (side ? 20 : 0), az = list[i].a.z, bx = list[i].b.x - (side ? 20 : 0),
                   bz = list[i].b.z, len = hypot(bx - ax, bz - az);
            double ex = bx - ax, ez = bz - az,
                   t = ((from.position.x - ax) * ex + (from.position.z - az) * ez) / (len * len);
            t = fmin(fmax(t, 0), 1);
            double d = hypot(ax + ex * t - from.position.x, az + ez * t - from.position.z);
            assert_true(d <= range + 1e-5 && d >= last - 1e-9);
            last = d;
            /* the free side on the left: a point a little to the left of its middle is in a free cell */
            double mx = (ax + bx) / 2 - ez / len * 0.01, mz = (az + bz) / 2 + ex / len * 0.01;
            assert_true(nav_grid_passable(yard, (int32_t)floor(mx), (int32_t)floor(mz)));
            for (int u = 0; u < (int)round(len); u++) {
                double px = ax + ex * u / len, pz = az + ez * u / len, qx = ax + ex * (u + 1) / len,
                       qz = az + ez * (u + 1) / len;
                double cx = (px + qx) / 2 - from.position.x, cz = (pz + qz) / 2 - from.position.z;
                /* (a mesh's edge may reach beyond range: its pieces out of range are not the yard's) */
                if (side && hypot(cx, cz) > range + 0.5) continue;
                bool held =
                    side ? walls_hold(grid, n, 0, px, pz, qx, qz) : walls_hold(mesh, m, -20, px, pz, qx, qz);
                if (!held && side) /* (a piece of a mesh edge near range's end: out of range for the yard) */
                    held = fmin(hypot(px - from.position.x, pz - from.position.z),
                                hypot(qx - from.position.x, qz - from.position.z)) > range - 1;
                assert_true(held);
                pieces++;
            }
        }
    }
    return pieces;
}

/* What agents ask of a world: the nearest place (grid cells against every cell looked at, a mesh's
 * against nav_mesh_locate), a move along the surface (on a grid: into a free cell, never farther
 * from the target than where it began, onto the target when the straight way is free; on a mesh:
 * nav_mesh_move_along_surface's), and each leg's corridor (cells, waypoints; on the mesh polygons
 * each sharing an edge with the next, from the leg's first point's to its last's). */
static void test_agent_places(void **state)
{
    (void)state;
    const char *rows[] = {"............", "...##.......", "...##...#...", "........#...", "..###...#...",
                          "............", "......##....", ".#..........", ".#...####...", "............"};
    nav_grid *yard = grid_at(rows, 10, nav_vec3_make(0, 1, 0), 1); /* (its floor at y 1) */
    nav_grid *town_grid = grid_at(rows, 10, nav_vec3_make(20, 0, 0), 1);
    nav_mesh *town;
    assert_int_equal(nav_mesh_build_from_grid(town_grid, NULL, &town), NAV_SUCCESS);
    const nav_waypoint stops[] = {{{34, 0, 5}, NULL, 0}, {{40, 0, 5}, NULL, 0}, {{40, 0, 9}, NULL, 0}};
    const nav_waypoint_link roads[] = {{0, 1, 0, 0, false, false}, {1, 2, 0, 0, true, false}};
    nav_waypoint_graph graph = {.waypoints = stops, .waypoint_count = 3, .links = roads, .link_count = 2};
    nav_waypoints *road;
    assert_int_equal(nav_waypoints_bake(&graph, NULL, &road), NAV_SUCCESS);
    nav_world_builder *b;
    assert_int_equal(nav_world_builder_create(NULL, NULL, &b), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_grid(b, "yard", yard, NULL), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_mesh(b, "town", town, NULL), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_waypoints(b, "road", road, 0.5, NULL), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_link(b,
                                                &(nav_world_link_desc){.from_region = 0,
                                                                       .from = {11.5f, 0, 5.5f},
                                                                       .to_region = 1,
                                                                       .to = {20.5f, 0, 5.5f}},
                                                NULL),
                     NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_link(
                         b,
                         &(nav_world_link_desc){
                             .from_region = 1, .from = {31.5f, 0, 5.5f}, .to_region = 2, .to = {34, 0, 5}},
                         NULL),
                     NAV_SUCCESS);
    nav_world *w;
    assert_int_equal(nav_world_bake(b, NULL, &w), NAV_SUCCESS);
    nav_world_builder_destroy(b);
    nav_world_query *q;
    assert_int_equal(nav_world_query_create(w, NULL, &q), NAV_SUCCESS);
    nav_mesh_query *mq;
    assert_int_equal(nav_mesh_query_create(town, NULL, &mq), NAV_SUCCESS);
    srand(91);
    int onto = 0, slid = 0, walls = 0;
    for (int t = 0; t < 400; t++) {
        /* nearest: the yard against every cell, the town against the mesh's own locate */
        nav_vec3 p = {(float)(rand() % 1400) / 100.0f - 1, (float)(rand() % 3) - 1,
                      (float)(rand() % 1200) / 100.0f - 1};
        nav_vec3 half = {(float)(rand() % 300) / 100.0f, (float)(rand() % 200) / 100.0f,
                         (float)(rand() % 300) / 100.0f},
                 want = {0, 0, 0};
        nav_world_place at;
        nav_status s = nav_world_nearest(w, p, half, &at);
        if (grid_nearest_reference(yard, p, half, &want)) {
            assert_int_equal(s, NAV_SUCCESS);
            assert_int_equal(at.region, 0);
            assert_true(fabs(nav_vec3_dist(at.position, p) - nav_vec3_dist(want, p)) < 1e-5);
        } else {
            assert_int_equal(s, NAV_FAILURE | NAV_INVALID_PARAM);
        }
        nav_vec3 pm = {p.x + 20, p.y, p.z}, found;
        uint32_t poly;
        s = nav_world_nearest(w, pm, half, &at);
        if (!nav_failed(nav_mesh_locate(town, pm, half, &poly, &found))) {
            assert_int_equal(s, NAV_SUCCESS);
            assert_true(at.region == 1 && at.id == poly && nav_vec3_dist(at.position, found) == 0);
        }
        /* moves on the yard from a free cell's point, towards any point up to 4 cells away */
        int32_t x, y;
        do x = rand() % 12, y = rand() % 10;
        while (!nav_grid_passable(yard, x, y));
        nav_world_place from = {
            0,
            nav_grid_index(yard, x, y),
            {(float)x + (float)(rand() % 100) / 100.0f, 0, (float)y + (float)(rand() % 100) / 100.0f}};
        nav_vec3 target = {from.position.x + (float)(rand() % 800) / 100.0f - 4, 0,
                           from.position.z + (float)(rand() % 800) / 100.0f - 4};
        assert_int_equal(nav_world_move(q, &from, target, &at), NAV_SUCCESS);
        int32_t cx = (int32_t)(at.id % 12), cy = (int32_t)(at.id / 12);
        assert_true(at.region == 0 && nav_grid_passable(yard, cx, cy));
        assert_true(at.position.x >= (float)cx && at.position.x <= (float)cx + 1 &&
                    at.position.z >= (float)cy && at.position.z <= (float)cy + 1);
        assert_true(nav_vec3_dist_xz(at.position, target) <= nav_vec3_dist_xz(from.position, target) + 1e-5f);
        walls += check_walls(w, q, yard, from, (float)(rand() % 500) / 100.0f);
        bool inside = target.x > 0 && target.z > 0 && target.x < 12 && target.z < 10, sees;
        double step;
        assert_int_equal(nav_world_sees(q, &from, target, &sees),
                         NAV_SUCCESS); /* (the grid's any-angle rule) */
        assert_true(sees == nav_grid_anyangle_segment(yard, from.position.x, from.position.z, target.x,
                                                      target.z, NULL));
        if (inside &&
            nav_grid_anyangle_segment(yard, from.position.x, from.position.z, target.x, target.z, &step)) {
            assert_true(nav_vec3_dist_xz(at.position, target) < 2e-4f); /* (a cell's inset at most) */
            onto++;
        } else {
            slid += nav_vec3_dist_xz(at.position, target) > 1e-3f;
        }
        /* moves on the town: the mesh's own */
        nav_vec3 start = {from.position.x + 20, 0, from.position.z}, mtarget = {target.x + 20, 0, target.z},
                 reached;
        assert_int_equal(nav_world_locate(w, start, &from), NAV_SUCCESS);
        assert_int_equal(from.region, 1);
        assert_int_equal(nav_world_move(q, &from, mtarget, &at), NAV_SUCCESS);
        assert_int_equal(
            nav_mesh_move_along_surface(mq, NULL, from.id, from.position, mtarget, &reached, &poly),
            NAV_SUCCESS);
        assert_true(at.region == 1 && at.id == poly && nav_vec3_dist(at.position, reached) == 0);
        nav_mesh_raycast_hit hit; /* (what it sees: a raycast that gets there) */
        assert_int_equal(nav_world_sees(q, &from, mtarget, &sees), NAV_SUCCESS);
        assert_true(sees == (!nav_failed(nav_mesh_raycast(mq, NULL, from.id, from.position, mtarget, &hit,
                                                          NULL, 0)) &&
                             hit.t >= 1));
    }
    assert_true(onto > 100 && slid > 50 && walls > 2000);
    /* a waypoint graph: along the links at the waypoint, not against a one-way link; no walls */
    nav_world_place stop = {2, 1, stops[1].position}, at;
    nav_wall none[4];
    uint32_t walls_there = 9;
    assert_int_equal(nav_world_walls(q, &stop, 10, none, 4, &walls_there), NAV_SUCCESS);
    assert_int_equal(walls_there, 0);
    assert_int_equal(nav_world_move(q, &stop, (nav_vec3){37, 0, 7}, &at), NAV_SUCCESS);
    assert_true(at.region == 2 && fabsf(at.position.x - 37) < 1e-5f && fabsf(at.position.z - 5) < 1e-5f);
    assert_int_equal(nav_world_move(q, &stop, (nav_vec3){41, 0, 8}, &at), NAV_SUCCESS);
    assert_true(at.id == 2 && fabsf(at.position.x - 40) < 1e-5f && fabsf(at.position.z - 8) < 1e-5f);
    stop = (nav_world_place){2, 2, stops[2].position};
    assert_int_equal(nav_world_move(q, &stop, (nav_vec3){40, 0, 5}, &at),
                     NAV_SUCCESS); /* (one way: 1 -> 2) */
    assert_true(at.id == 2 && nav_vec3_dist(at.position, stops[2].position) == 0);
    /* bad input: changes nothing */
    nav_world_place kept = at;
    FAILS_WITH(nav_world_move(q, &stop, (nav_vec3){NAN, 0, 0}, &at), NAV_INVALID_PARAM);
    FAILS_WITH(nav_world_move(q, &(nav_world_place){0, 15, {3.5f, 0, 1.5f}}, (nav_vec3){1, 0, 1}, &at),
               NAV_INVALID_PARAM); /* (cell 15: a wall) */
    FAILS_WITH(nav_world_move(q, &(nav_world_place){7, 0, {0, 0, 0}}, (nav_vec3){1, 0, 1}, &at),
               NAV_INVALID_PARAM);
    FAILS_WITH(nav_world_nearest(w, (nav_vec3){1, 0, 1}, (nav_vec3){-1, 1, 1}, &at), NAV_INVALID_PARAM);
    FAILS_WITH(nav_world_walls(q, &stop, -1, none, 4, &walls_there), NAV_INVALID_PARAM);
    FAILS_WITH(nav_world_walls(q, &stop, 1, NULL, 4, &walls_there), NAV_INVALID_PARAM);
    FAILS_WITH(nav_world_walls(q, &(nav_world_place){0, 15, {3.5f, 0, 1.5f}}, 1, none, 4, &walls_there),
               NAV_INVALID_PARAM);
    FAILS_WITH(nav_world_nearest(w, (nav_vec3){INFINITY, 0, 1}, (nav_vec3){1, 1, 1}, &at), NAV_INVALID_PARAM);
    assert_memory_equal(&at, &kept, sizeof at);

    /* corridors: yard cells, town polygons, road waypoints */
    nav_path path;
    nav_path_init(&path, NULL);
    nav_world_result res;
    assert_int_equal(nav_world_find_path(q, (nav_vec3){0.5f, 0, 9.5f}, stops[1].position, &path, &res),
                     NAV_SUCCESS);
    assert_int_equal(res.legs, 3);
    uint32_t ids[256], count;
    FAILS_WITH(nav_world_leg_corridor(q, 3, &path, ids, 256, &count), NAV_INVALID_PARAM);
    for (uint32_t leg = 0; leg < 3; leg++) {
        const nav_world_leg *l = &nav_world_query_legs(q, NULL)[leg];
        assert_int_equal(nav_world_leg_corridor(q, leg, &path, ids, 256, &count), NAV_SUCCESS);
        assert_true(count >= 1);
        if (l->region != 1) { /* cells and waypoints: the points' own, none twice in a row */
            uint32_t k = 0;
            for (uint32_t i = l->first_point; i < l->first_point + l->point_count; i++)
                if (i == l->first_point || path.nodes[i] != path.nodes[i - 1])
                    assert_int_equal(ids[k++], path.nodes[i]);
            assert_int_equal(k, count);
            continue;
        }
        float h;
        assert_true(nav_mesh_poly_contains(town, ids[0], path.points[l->first_point], &h));
        assert_true(nav_mesh_poly_contains(town, ids[count - 1],
                                           path.points[l->first_point + l->point_count - 1], &h));
        for (uint32_t i = 0; i + 1 < count; i++) {
            nav_mesh_poly_info info;
            assert_true(nav_mesh_poly(town, ids[i], &info));
            bool joined = false;
            for (uint32_t e = 0; e < info.vert_count; e++) joined |= info.neighbours[e] == ids[i + 1];
            assert_true(joined);
        }
        assert_true(count > 2);
        /* too small a buffer: how many, and the first ones */
        uint32_t few[2], n;
        FAILS_WITH(nav_world_leg_corridor(q, leg, &path, few, 2, &n), NAV_BUFFER_TOO_SMALL);
        assert_true(n == count && few[0] == ids[0] && few[1] == ids[1]);
    }
    nav_path_destroy(&path);
    nav_mesh_query_destroy(mq);
    nav_world_query_destroy(q);
    nav_world_destroy(w);
    nav_waypoints_destroy(road);
    nav_mesh_destroy(town);
    nav_grid_destroy(yard);
    nav_grid_destroy(town_grid);
}

/* A plaza 100 m across with square pillars 2 m wide every 20 m (bench/crowd.c's, built from its
 * triangles with the bench's agent): ways from beside one pillar's corner to beside another's,
 * most of them through more corners in a line (the diagonals). Each leg's corridor joins each
 * polygon to the next by an edge or by a vertex the way passes, and the funnel walks it from the
 * start to the goal. A way's points are floats: a line through corners in a line runs a few
 * micrometres into the middle ones, and the walk along it stops there (the corridor once jumped
 * from there to the segment's last polygon, sharing nothing with it: 19 of these ways). */
static void test_corridor_past_corners(void **state)
{
    (void)state;
    float lines[16] = {0};
    uint32_t count = 0;
    for (int at = 10; at < 100; at += 20) lines[++count] = (float)at, lines[++count] = (float)(at + 2);
    lines[++count] = 100;
    count++;
    float vertices[16 * 16 * 3];
    uint32_t indices[15 * 15 * 6], triangles = 0;
    for (uint32_t z = 0; z < count; z++)
        for (uint32_t x = 0; x < count; x++) {
            float *v = &vertices[(z * count + x) * 3];
            v[0] = lines[x], v[1] = 0, v[2] = lines[z];
        }
    for (uint32_t z = 0; z + 1 < count; z++)
        for (uint32_t x = 0; x + 1 < count; x++) {
            if (x % 2 == 1 && z % 2 == 1) continue; /* a pillar: a hole in the floor */
            uint32_t a = z * count + x, b = a + count, c = b + 1, d = a + 1, *t = &indices[triangles * 3];
            t[0] = a, t[1] = b, t[2] = c, t[3] = a, t[4] = c, t[5] = d;
            triangles += 2;
        }
    nav_triangles floor = {
        .vertices = vertices, .vertex_count = count * count, .indices = indices, .triangle_count = triangles};
    nav_geometry_build_desc agent = {.cell_size = 0.2f,
                                     .cell_height = 0.2f,
                                     .agent_height = 2,
                                     .agent_radius = 0.4f,
                                     .agent_climb = 0.4f,
                                     .max_slope = 45};
    nav_mesh *m;
    assert_int_equal(nav_mesh_build_from_geometry(&floor, &agent, &m, NULL), NAV_SUCCESS);
    nav_world_builder *b;
    assert_int_equal(nav_world_builder_create(NULL, NULL, &b), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_mesh(b, "plaza", m, NULL), NAV_SUCCESS);
    nav_world *w;
    assert_int_equal(nav_world_bake(b, NULL, &w), NAV_SUCCESS);
    nav_world_builder_destroy(b);
    nav_world_query *q;
    assert_int_equal(nav_world_query_create(w, NULL, &q), NAV_SUCCESS);
    nav_vec3 points[100]; /* a metre out from each pillar's corners, diagonally */
    uint32_t n = 0;
    for (int px = 10; px < 100; px += 20)
        for (int pz = 10; pz < 100; pz += 20)
            for (int k = 0; k < 4; k++)
                points[n++] = (nav_vec3){px + (k & 1 ? 3.0f : -1.0f), 0, pz + (k & 2 ? 3.0f : -1.0f)};
    nav_path path;
    nav_path_init(&path, NULL);
    uint32_t ids[1024], ways = 0, through_vertices = 0;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            if (i == j) continue;
            nav_world_result r;
            assert_int_equal(nav_world_find_path(q, points[i], points[j], &path, &r), NAV_SUCCESS);
            assert_int_equal(r.legs, 1);
            uint32_t k;
            bool edges_only = true;
            assert_int_equal(nav_world_leg_corridor(q, 0, &path, ids, 1024, &k), NAV_SUCCESS);
            for (uint32_t e = 0; e + 1 < k; e++) {
                nav_mesh_poly_info from, to;
                assert_true(nav_mesh_poly(m, ids[e], &from) && nav_mesh_poly(m, ids[e + 1], &to));
                bool edge = false, vertex = false;
                for (uint32_t u = 0; u < from.vert_count; u++) {
                    edge |= from.neighbours[u] == ids[e + 1];
                    for (uint32_t v = 0; v < to.vert_count; v++) vertex |= from.verts[u] == to.verts[v];
                }
                assert_true(edge || vertex);
                through_vertices += !edge;
                edges_only &= edge;
            }
            for (uint32_t room = 1; room < k && !edges_only; room++) { /* too short: how many, the first */
                uint32_t few[1024], all;
                FAILS_WITH(nav_world_leg_corridor(q, 0, &path, few, room, &all), NAV_BUFFER_TOO_SMALL);
                assert_int_equal(all, k);
                assert_memory_equal(few, ids, room * sizeof *ids);
            }
            nav_vec3 corners[64];
            uint32_t corner_count;
            bool reached;
            assert_int_equal(nav_mesh_corridor_corners(m, ids, k, path.points[0], path.points[path.count - 1],
                                                       corners, 64, &corner_count, &reached),
                             NAV_SUCCESS);
            assert_true(reached);
            ways++;
        }
    assert_int_equal(ways, 9900);
    assert_true(through_vertices > 0); /* (past corners between polygons, as well) */
    nav_path_destroy(&path);
    nav_world_query_destroy(q);
    nav_world_destroy(w);
    nav_mesh_destroy(m);
}

static void test_world_on_demand(void **state)
{
    (void)state;
    nav_world *whole;
    assert_int_equal(nav_world_load_json(VILLAGE "/village.json", NULL, &whole), NAV_SUCCESS);
    nav_writer image = image_of(whole);
    char path[64];
    temp_file(&image, path);
    nav_vec3 points[] = {{12.5f, 3, 8.5f},   {125.5f, 0, 20.5f}, {30.5f, 0, 8.5f}, {72, 0, 18},
                         {3.5f, 0.2f, 8.5f}, {3.5f, 3.2f, 8.5f}, {60, 0, 60}};
    size_t budgets[2] = {1, 1u << 30};
    for (int b = 0; b < 2; b++) {
        nav_world *lazy;
        assert_int_equal(nav_world_load_nav(path, &(nav_world_load_desc){.region_budget = budgets[b]}, &lazy),
                         NAV_SUCCESS);
        nav_world_cache_info info;
        nav_world_get_cache_info(lazy, &info);
        assert_true(info.on_demand);
        assert_int_equal(info.loaded_regions, 0);
        assert_null(nav_world_region_grid(lazy, 0));
        assert_same_plans(whole, lazy, points, 7);
        nav_world_get_cache_info(lazy, &info);
        uint64_t loads = info.loads;
        { /* a mesh filter (the towns at twice their cost): the same costs as in memory, where the
           * tables bound nothing (regions come and go) */
            double twice[256];
            for (int t = 0; t < 256; t++) twice[t] = 2;
            const nav_mesh_filter filter = {.area_cost = twice};
            nav_world_query *qw, *ql;
            assert_int_equal(nav_world_query_create(whole, NULL, &qw), NAV_SUCCESS);
            assert_int_equal(nav_world_query_create(lazy, NULL, &ql), NAV_SUCCESS);
            int dearer = 0;
            for (int i = 0; i < 7; i++)
                for (int j = 0; j < 7; j++) {
                    nav_world_result plain, rw, rl;
                    assert_int_equal(nav_world_query_set_mesh_filter(qw, NULL), NAV_SUCCESS);
                    nav_status s = nav_world_plan(qw, points[i], points[j], &plain);
                    assert_int_equal(nav_world_query_set_mesh_filter(qw, &filter), NAV_SUCCESS);
                    assert_int_equal(nav_world_query_set_mesh_filter(ql, &filter), NAV_SUCCESS);
                    assert_int_equal(nav_world_plan(qw, points[i], points[j], &rw), s);
                    assert_int_equal(nav_world_plan(ql, points[i], points[j], &rl), s);
                    if (nav_failed(s)) continue;
                    assert_true(close_to(rl.cost, rw.cost));
                    dearer += rw.cost > plain.cost;
                }
            assert_true(dearer > 10);
            nav_world_query_destroy(qw);
            nav_world_query_destroy(ql);
        }
        nav_world_get_cache_info(lazy, &info);
        if (b == 1) assert_int_equal(info.loads, loads); /* (all were in memory already) */
        if (b == 0) {
            assert_true(info.loads > 5 && info.evictions > 0);
            assert_int_equal(info.loaded_regions, 0); /* the queries are gone: nothing is held */
        } else {                                      /* room for all: each region read once */
            assert_int_equal(info.loads, 5);
            assert_int_equal(info.evictions, 0);
            assert_int_equal(info.loaded_regions, 5);
        }
        nav_world_destroy(lazy);
    }
    nav_world_cache_info none;
    nav_world_get_cache_info(whole, &none);
    assert_false(none.on_demand);

    /* the east town's data damaged (its CRC in the WRLD chunk no longer matches) */
    nav_container c;
    assert_int_equal(nav_container_open(image.data, image.size, NULL, &c), NAV_SUCCESS);
    assert_int_equal(c.chunks[1].tag, NAV_CHUNK_WORLD_REGIONS);
    size_t at = (size_t)((const uint8_t *)c.chunks[1].data - image.data) + (size_t)c.chunks[1].size - 5;
    image.data[at] ^= 0x10; /* the last region's data (the container's CRC is not read on demand) */
    temp_file(&image, path + 0);
    test_log log;
    test_log_init(&log);
    nav_world *lazy;
    assert_int_equal(
        nav_world_load_nav(path, &(nav_world_load_desc){.region_budget = 1, .log = &log.hooks}, &lazy),
        NAV_SUCCESS);
    nav_world_query *q;
    assert_int_equal(nav_world_query_create(lazy, NULL, &q), NAV_SUCCESS);
    nav_world_result r;
    assert_int_equal(nav_world_plan(q, points[0], points[2], &r), NAV_SUCCESS); /* house to west town */
    assert_int_equal(nav_world_plan(q, points[0], points[1], &r), NAV_FAILURE | NAV_CORRUPT_DATA);
    assert_non_null(strstr(log.last, "(\"east town\"): its data has a bad CRC"));
    assert_int_equal(nav_world_plan(q, points[0], points[2], &r), NAV_SUCCESS);
    nav_world_query_destroy(q);
    nav_world_destroy(lazy);
    remove(path);
    nav_writer_destroy(&image);
    nav_world_destroy(whole);
}

/* Threads planning on one world whose regions load on demand with room for two tiles: every answer
 * the whole world's, while regions come and go under them. */
typedef struct lazy_run {
    const nav_world *lazy;
    const nav_vec3 *points;
    const double *want;
    int n, bad;
} lazy_run;

static void *lazy_queries(void *arg)
{
    lazy_run *run = arg;
    nav_world_query *q;
    if (nav_failed(nav_world_query_create(run->lazy, NULL, &q))) {
        run->bad++;
        return NULL;
    }
    nav_path path;
    nav_path_init(&path, NULL);
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < run->n; i++) {
            nav_world_result r;
            nav_status s = nav_world_find_path(q, run->points[2 * i], run->points[2 * i + 1], &path, &r);
            double got = s == NAV_SUCCESS ? r.cost : INFINITY;
            if (nav_failed(s) || got != run->want[i]) run->bad++;
        }
    nav_path_destroy(&path);
    nav_world_query_destroy(q);
    return NULL;
}

static void test_world_on_demand_threads(void **state)
{
    (void)state;
    nav_grid *big = random_grid(36, 30, false, 77);
    int32_t xs[4] = {0, 12, 24, 36}, ys[4] = {0, 10, 20, 30};
    nav_grid *tiles[9];
    nav_world_builder *b;
    assert_int_equal(nav_world_builder_create(NULL, NULL, &b), NAV_SUCCESS);
    for (int i = 0; i < 9; i++) {
        tiles[i] = cut(big, xs[i % 3], ys[i / 3], 12, 10);
        char name[16];
        snprintf(name, sizeof name, "tile %d", i);
        assert_int_equal(nav_world_builder_add_grid(b, name, tiles[i], NULL), NAV_SUCCESS);
    }
    assert_int_equal(nav_world_builder_join_touching(b, NULL, NULL), NAV_SUCCESS);
    nav_world *whole;
    assert_int_equal(nav_world_bake(b, NULL, &whole), NAV_SUCCESS);
    nav_world_builder_destroy(b);
    nav_writer image = image_of(whole);
    char path[64];
    temp_file(&image, path);
    enum { N = 40 };
    nav_vec3 points[2 * N];
    double want[N];
    nav_world_query *q;
    assert_int_equal(nav_world_query_create(whole, NULL, &q), NAV_SUCCESS);
    for (int i = 0; i < N; i++) {
        for (int e = 0; e < 2; e++) {
            int32_t x, y;
            do x = rand() % 36, y = rand() % 30;
            while (!nav_grid_passable(big, x, y));
            points[2 * i + e] = (nav_vec3){(float)x + 0.5f, 0.1f, (float)y + 0.5f};
        }
        nav_world_result r;
        nav_path walk;
        nav_path_init(&walk, NULL);
        nav_status s = nav_world_find_path(q, points[2 * i], points[2 * i + 1], &walk, &r);
        want[i] = s == NAV_SUCCESS ? r.cost : INFINITY; /* the refined cost, as the threads get it */
        nav_path_destroy(&walk);
    }
    nav_world_query_destroy(q);
    nav_world *lazy;
    size_t two_tiles = 2 * nav_grid_memory_bytes(tiles[0]);
    assert_int_equal(nav_world_load_nav(path, &(nav_world_load_desc){.region_budget = two_tiles}, &lazy),
                     NAV_SUCCESS);
    assert_same_plans(whole, lazy, points, 12);
    lazy_run runs[3];
    pthread_t threads[3];
    for (int t = 0; t < 3; t++) {
        runs[t] = (lazy_run){lazy, points, want, N, 0};
        assert_int_equal(pthread_create(&threads[t], NULL, lazy_queries, &runs[t]), 0);
    }
    for (int t = 0; t < 3; t++) {
        pthread_join(threads[t], NULL);
        assert_int_equal(runs[t].bad, 0);
    }
    nav_world_cache_info info;
    nav_world_get_cache_info(lazy, &info);
    assert_true(info.evictions > 0);
    assert_true(info.loaded_bytes <= two_tiles + nav_grid_memory_bytes(tiles[0]));
    nav_world_destroy(lazy);
    remove(path);
    nav_writer_destroy(&image);
    nav_world_destroy(whole);
    for (int i = 0; i < 9; i++) nav_grid_destroy(tiles[i]);
    nav_grid_destroy(big);
}

/* The search's octile estimate must stay below what a mesh's straight segments cost: the goal on an
 * open mesh, reached through two doors, one 13 from the goal at 22.6 degrees off the axis (octile
 * distance 14.07) and one 13.5 away along the axis. Through the first is cheaper. */
static void test_estimate_on_mesh(void **state)
{
    (void)state;
    const char *room_rows[] = {"...", "...", "..."};
    char field_rows[30][31];
    const char *field_ptrs[30];
    for (int y = 0; y < 30; y++) {
        memset(field_rows[y], '.', 30);
        field_rows[y][30] = '\0';
        field_ptrs[y] = field_rows[y];
    }
    nav_grid *room = grid_at(room_rows, 3, nav_vec3_make(0, 0, 0), 1);
    nav_grid *field_grid = grid_at(field_ptrs, 30, nav_vec3_make(10, 0, 0), 1);
    nav_mesh *field;
    assert_int_equal(nav_mesh_build_from_grid(field_grid, NULL, &field), NAV_SUCCESS);
    flat_world f = {0};
    add_flat(&f, NAV_WORLD_REGION_GRID, room, NULL);
    add_flat(&f, NAV_WORLD_REGION_MESH, field_grid, NULL);
    nav_world_builder *b;
    assert_int_equal(nav_world_builder_create(NULL, NULL, &b), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_grid(b, "room", room, NULL), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_mesh(b, "field", field, NULL), NAV_SUCCESS);
    nav_vec3 goal = {35.5f, 0, 20.5f};
    add_link(b, &f,
             &(nav_world_link_desc){.from_region = 0,
                                    .from = {2.5f, 0, 1.5f},
                                    .to_region = 1,
                                    .to = {goal.x - 12, 0, goal.z - 5},
                                    .cost = 30});
    add_link(b, &f,
             &(nav_world_link_desc){.from_region = 0,
                                    .from = {2.5f, 0, 1.5f},
                                    .to_region = 1,
                                    .to = {goal.x - 13.5f, 0, goal.z},
                                    .cost = 30});
    nav_world *w;
    assert_int_equal(nav_world_bake(b, NULL, &w), NAV_SUCCESS);
    nav_world_builder_destroy(b);
    nav_world_query *q;
    assert_int_equal(nav_world_query_create(w, NULL, &q), NAV_SUCCESS);
    double cost = check_query(w, q, &f, (nav_vec3){1.5f, 0, 1.5f}, goal);
    assert_true(close_to(cost, 1 + 30 + 13)); /* (links cost more than they cover: no lower estimate) */
    nav_world_query_destroy(q);
    nav_world_destroy(w);
    nav_mesh_destroy(field);
    nav_grid_destroy(room);
    nav_grid_destroy(field_grid);
    flat_free(&f);
}

/* Bad regions, links and calls: a status and a message naming the culprit. */
static void test_bad_input(void **state)
{
    (void)state;
    const char *rows[] = {"..#", "..."};
    nav_grid *grid = grid_at(rows, 2, nav_vec3_make(0, 0, 0), 1);
    test_log log;
    test_log_init(&log);
    nav_world_builder *b;
    FAILS_WITH(nav_world_builder_create(NULL, NULL, NULL), NAV_INVALID_PARAM);
    assert_int_equal(nav_world_builder_create(NULL, &log.hooks, &b), NAV_SUCCESS);
    nav_world *w = (nav_world *)1;
    FAILS_WITH(nav_world_bake(b, NULL, &w), NAV_INVALID_PARAM);
    assert_null(w);
    assert_non_null(strstr(log.last, "at least one region"));
    FAILS_WITH(nav_world_builder_add_grid(b, "", grid, NULL), NAV_INVALID_PARAM);
    FAILS_WITH(nav_world_builder_add_grid(b, "a\nb", grid, NULL), NAV_INVALID_PARAM);
    FAILS_WITH(nav_world_builder_add_grid(b, "house", NULL, NULL), NAV_INVALID_PARAM);
    assert_int_equal(nav_world_builder_add_grid(b, "house", grid, NULL), NAV_SUCCESS);
    FAILS_WITH(nav_world_builder_add_grid(b, "house", grid, NULL), NAV_INVALID_PARAM);
    assert_non_null(strstr(log.last, "\"house\" is taken by region 0"));
    nav_world_link_desc good = {
        .name = "door", .from_region = 0, .from = {0.5f, 0, 0.5f}, .to_region = 0, .to = {2.5f, 0, 1.5f}};
    nav_world_link_desc d = good;
    d.to_region = 3;
    FAILS_WITH(nav_world_builder_add_link(b, &d, NULL), NAV_INVALID_PARAM);
    assert_non_null(strstr(log.last, "link 0 (\"door\"): its to region 3 does not exist"));
    d = good;
    d.to = (nav_vec3){2.5f, 0, 0.5f}; /* the blocked cell */
    FAILS_WITH(nav_world_builder_add_link(b, &d, NULL), NAV_INVALID_PARAM);
    assert_non_null(
        strstr(log.last, "its to point (2.5, 0, 0.5) is at no walkable place of region \"house\""));
    d = good;
    d.from = (nav_vec3){-0.5f, 0, 0.5f};
    FAILS_WITH(nav_world_builder_add_link(b, &d, NULL), NAV_INVALID_PARAM);
    assert_non_null(strstr(log.last, "its from point"));
    d = good;
    d.cost = -1;
    FAILS_WITH(nav_world_builder_add_link(b, &d, NULL), NAV_INVALID_PARAM);
    d.cost = NAN;
    FAILS_WITH(nav_world_builder_add_link(b, &d, NULL), NAV_INVALID_PARAM);
    d.cost = 1e31;
    FAILS_WITH(nav_world_builder_add_link(b, &d, NULL), NAV_INVALID_PARAM);
    assert_non_null(strstr(log.last, "its cost 1e+31"));
    d = good;
    d.to = d.from; /* cost 0: the distance, 0 here */
    FAILS_WITH(nav_world_builder_add_link(b, &d, NULL), NAV_INVALID_PARAM);
    d = good;
    d.kind = NAV_LINK_KIND_COUNT;
    FAILS_WITH(nav_world_builder_add_link(b, &d, NULL), NAV_INVALID_PARAM);
    d = good;
    d.name = "a name far longer than the sixty-three bytes a link's name may take, so refused";
    FAILS_WITH(nav_world_builder_add_link(b, &d, NULL), NAV_INVALID_PARAM);
    uint32_t id;
    assert_int_equal(nav_world_builder_add_link(b, &good, &id), NAV_SUCCESS);
    assert_int_equal(id, 0);
    assert_int_equal(nav_world_bake(b, NULL, &w), NAV_SUCCESS);
    nav_world_link_desc back;
    assert_true(nav_world_link(w, 0, &back));
    assert_string_equal(back.name, "door");
    assert_true(close_to(back.cost, sqrt(5.0)));
    assert_false(nav_world_link(w, 1, &back));
    FAILS_WITH(nav_world_set_links(w, NULL, 1), NAV_INVALID_PARAM);
    FAILS_WITH(nav_world_query_create(NULL, NULL, NULL), NAV_INVALID_PARAM);
    nav_world_query *q;
    assert_int_equal(nav_world_query_create(w, NULL, &q), NAV_SUCCESS);
    FAILS_WITH(nav_world_refine_leg(q, 0, NULL), NAV_INVALID_PARAM); /* no plan yet */
    nav_path path;
    nav_path_init(&path, NULL);
    FAILS_WITH(nav_world_refine_leg(q, 0, &path), NAV_INVALID_PARAM);
    assert_int_equal(nav_world_plan(q, (nav_vec3){0.5f, 0, 0.5f}, (nav_vec3){1.5f, 0, 0.5f}, NULL),
                     NAV_SUCCESS);
    FAILS_WITH(nav_world_refine_leg(q, 1, &path), NAV_INVALID_PARAM);
    assert_int_equal(nav_world_refine_leg(q, 0, &path), NAV_SUCCESS);
    assert_int_equal(path.count, 2);
    nav_path_destroy(&path);
    nav_world_query_destroy(q);
    nav_world_destroy(w);
    nav_world_builder_destroy(b);
    nav_grid_destroy(grid);
}

/* Every allocation of bake, query object and query failing in turn: a clean status, nothing leaked. */
static void test_allocation_failures(void **state)
{
    (void)state;
    const char *rows[] = {"....", ".##.", "...."};
    nav_grid *a = grid_at(rows, 3, nav_vec3_make(0, 0, 0), 1),
             *c = grid_at(rows, 3, nav_vec3_make(10, 0, 0), 1);
    nav_hpa *c_hpa; /* the second time round, c is searched through its HPA* bake */
    assert_int_equal(nav_hpa_bake(c, &(nav_hpa_desc){.cluster_size = 2, .levels = 1}, &c_hpa), NAV_SUCCESS);
    for (int round = 0; round < 2; round++) {
        bool done = false;
        for (long fail_at = 1; !done && fail_at < 300; fail_at++) {
            test_allocator t;
            test_allocator_init(&t, fail_at);
            nav_world_builder *b = NULL;
            nav_world *w = NULL;
            nav_world_query *q = NULL;
            nav_path path;
            nav_path_init(&path, &t.hooks);
            nav_status s = nav_world_builder_create(&t.hooks, NULL, &b);
            if (!nav_failed(s)) s = nav_world_builder_add_grid(b, "a", a, NULL);
            if (!nav_failed(s))
                s = round ? nav_world_builder_add_grid_hpa(b, "c", c, c_hpa, NULL)
                          : nav_world_builder_add_grid(b, "c", c, NULL);
            if (!nav_failed(s))
                s = nav_world_builder_add_link(
                    b,
                    &(nav_world_link_desc){
                        .from_region = 0, .from = {3.5f, 0, 1.5f}, .to_region = 1, .to = {10.5f, 0, 1.5f}},
                    NULL);
            if (!nav_failed(s)) s = nav_world_bake(b, NULL, &w);
            if (!nav_failed(s)) s = nav_world_query_create(w, &t.hooks, &q);
            if (!nav_failed(s))
                s = nav_world_find_path(q, (nav_vec3){0.5f, 0, 0.5f}, (nav_vec3){13.5f, 0, 2.5f}, &path,
                                        NULL);
            if (nav_failed(s)) {
                assert_int_equal(s, NAV_FAILURE | NAV_OUT_OF_MEMORY);
                assert_int_equal(path.count, 0);
            } else {
                assert_int_equal(s, NAV_SUCCESS);
                done = true;
            }
            nav_path_destroy(&path);
            nav_world_query_destroy(q);
            nav_world_destroy(w);
            nav_world_builder_destroy(b);
            assert_int_equal(t.live, 0);
        }
        assert_true(done);
    }
    nav_hpa_destroy(c_hpa);
    nav_grid_destroy(a);
    nav_grid_destroy(c);
}

/* Threads querying while another switches a bridge for a ferry as one change: every query finds one
 * of the two routes, never neither. */
typedef struct toggle_run {
    const nav_world *world;
    nav_vec3 a, b;
    double bridge_cost, ferry_cost;
    atomic_int stop;
    int bad, done;
} toggle_run;

static void *toggle_query(void *arg)
{
    toggle_run *run = arg;
    nav_world_query *q;
    if (nav_failed(nav_world_query_create(run->world, NULL, &q))) {
        run->bad++;
        return NULL;
    }
    nav_path path;
    nav_path_init(&path, NULL);
    while (!atomic_load(&run->stop) || run->done < 200) {
        nav_world_result r;
        nav_status s = nav_world_find_path(q, run->a, run->b, &path, &r);
        if (s != NAV_SUCCESS || !(close_to(r.cost, run->bridge_cost) || close_to(r.cost, run->ferry_cost)))
            run->bad++;
        run->done++;
    }
    nav_path_destroy(&path);
    nav_world_query_destroy(q);
    return NULL;
}

static void test_threads_toggling(void **state)
{
    (void)state;
    const char *rows[] = {"........", "........", "........"};
    nav_grid *west = grid_at(rows, 3, nav_vec3_make(0, 0, 0), 1),
             *east = grid_at(rows, 3, nav_vec3_make(20, 0, 0), 1);
    nav_world_builder *b;
    assert_int_equal(nav_world_builder_create(NULL, NULL, &b), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_grid(b, "west", west, NULL), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_grid(b, "east", east, NULL), NAV_SUCCESS);
    uint32_t bridge, ferry;
    assert_int_equal(nav_world_builder_add_link(b,
                                                &(nav_world_link_desc){.kind = NAV_LINK_BRIDGE,
                                                                       .from_region = 0,
                                                                       .from = {7.5f, 0, 1.5f},
                                                                       .to_region = 1,
                                                                       .to = {20.5f, 0, 1.5f}},
                                                &bridge),
                     NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_link(b,
                                                &(nav_world_link_desc){.kind = NAV_LINK_PORTAL,
                                                                       .from_region = 0,
                                                                       .from = {0.5f, 0, 0.5f},
                                                                       .to_region = 1,
                                                                       .to = {27.5f, 0, 2.5f},
                                                                       .cost = 40,
                                                                       .disabled = true},
                                                &ferry),
                     NAV_SUCCESS);
    nav_world *w;
    assert_int_equal(nav_world_bake(b, NULL, &w), NAV_SUCCESS);
    nav_world_builder_destroy(b);
    toggle_run run = {.world = w, .a = {3.5f, 0, 1.5f}, .b = {24.5f, 0, 1.5f}};
    run.bridge_cost = 4 + 13 + 4;
    run.ferry_cost = 2 + sqrt(2.0) + 40 + 2 + sqrt(2.0);
    atomic_init(&run.stop, 0);
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, toggle_query, &run), 0);
    for (int i = 0; i < 20000; i++) {
        bool up = i % 2 == 0; /* the bridge goes up as the ferry starts, and back */
        nav_world_link_change changes[2] = {{bridge, !up}, {ferry, up}};
        assert_int_equal(nav_world_set_links(w, changes, 2), NAV_SUCCESS);
    }
    atomic_store(&run.stop, 1);
    pthread_join(thread, NULL);
    assert_int_equal(run.bad, 0);
    assert_true(run.done >= 200);
    nav_world_destroy(w);
    nav_grid_destroy(west);
    nav_grid_destroy(east);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_storeys),
        cmocka_unit_test(test_locate_floor),
        cmocka_unit_test(test_one_way_drop),
        cmocka_unit_test(test_same_region_detour),
        cmocka_unit_test(test_random_worlds),
        cmocka_unit_test(test_mesh_filter_routes),
        cmocka_unit_test(test_grid_filter_routes),
        cmocka_unit_test(test_sparse_tables_exact),
        cmocka_unit_test(test_sparse_tables_grow),
        cmocka_unit_test(test_mixed_kinds),
        cmocka_unit_test(test_world_file),
        cmocka_unit_test(test_world_level_region),
        cmocka_unit_test(test_world_file_errors),
        cmocka_unit_test(test_world_file_refusals),
        cmocka_unit_test(test_world_file_storeys),
        cmocka_unit_test(test_world_level_options),
        cmocka_unit_test(test_world_file_damage),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_joined_tiles),
        cmocka_unit_test(test_mesh_joined_to_grid),
        cmocka_unit_test(test_grid_through_hpa),
        cmocka_unit_test(test_grid_through_hpa_filter_limit),
        cmocka_unit_test(test_estimate_on_mesh),
        cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_threads_toggling),
        cmocka_unit_test(test_world_nav),
        cmocka_unit_test(test_world_nav_damage),
        cmocka_unit_test(test_grid_way_check),
        cmocka_unit_test(test_world_nav_sizes),
        cmocka_unit_test(test_world_on_demand),
        cmocka_unit_test(test_world_on_demand_threads),
        cmocka_unit_test(test_agent_places),
        cmocka_unit_test(test_corridor_past_corners),
    };
    const struct CMUnitTest shared_tests[] = {
        cmocka_unit_test(test_world_sample_scene_region),
    };
    static const char *const needs[] = {"meshes/nav_test.obj", NULL};
    return TEST_RUN_SUITE("world", tests, shared_tests, needs);
}
