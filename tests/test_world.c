/* Worlds (nav/world.h): regions stitched through links, against a brute-force search over the
 * flattened world (every cell of every region one node, grid moves and links its edges). */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nav/world.h"
#include "support.h"

/* ---- The flat reference ---------------------------------------------------------------------- */

typedef struct flat_link {
    uint32_t from_region, to_region;
    nav_vec3 from, to;
    double cost;
    bool one_way, enabled;
} flat_link;

typedef struct flat_world {
    const nav_grid *grids[8];
    uint32_t offset[9]; /* node of cell 0 of each grid */
    uint32_t regions;
    flat_link links[32];
    uint32_t link_count;
} flat_world;

static uint32_t flat_node(const flat_world *f, uint32_t region, nav_vec3 p)
{
    int32_t x, y;
    assert_true(nav_grid_world_to_cell(f->grids[region], p, &x, &y));
    return f->offset[region] + nav_grid_index(f->grids[region], x, y);
}

typedef struct flat_item {
    double d;
    uint32_t v;
} flat_item;

static void flat_push(flat_item *heap, size_t *count, size_t cap, double d, uint32_t v)
{
    assert_true(*count < cap);
    size_t h = (*count)++;
    heap[h] = (flat_item){d, v};
    while (h && heap[(h - 1) / 2].d > heap[h].d) {
        flat_item t = heap[h];
        heap[h] = heap[(h - 1) / 2];
        heap[(h - 1) / 2] = t;
        h = (h - 1) / 2;
    }
}

/* Dijkstra from node `from` to `to` over the flattened world (a lazy binary heap of (cost, node)). */
static double flat_cost(const flat_world *f, uint32_t from, uint32_t to)
{
    uint32_t n = f->offset[f->regions];
    double *dist = malloc(n * sizeof *dist);
    size_t cap = 16 * (size_t)n + 64, count = 0;
    flat_item *heap = malloc(cap * sizeof *heap);
    for (uint32_t i = 0; i < n; i++) dist[i] = INFINITY;
#define PUSH(dd, vv) flat_push(heap, &count, cap, dd, vv)
    dist[from] = 0;
    PUSH(0.0, from);
    while (count) {
        flat_item top = heap[0];
        heap[0] = heap[--count];
        for (size_t h = 0;;) {
            size_t c = 2 * h + 1;
            if (c >= count) break;
            if (c + 1 < count && heap[c + 1].d < heap[c].d) c++;
            if (heap[h].d <= heap[c].d) break;
            flat_item t = heap[h];
            heap[h] = heap[c];
            heap[c] = t;
            h = c;
        }
        if (top.d > dist[top.v]) continue;
        if (top.v == to) break;
        uint32_t r = 0;
        while (top.v >= f->offset[r + 1]) r++;
        const nav_grid *g = f->grids[r];
        uint32_t cell = top.v - f->offset[r];
        int32_t x = (int32_t)(cell % (uint32_t)nav_grid_width(g)),
                y = (int32_t)(cell / (uint32_t)nav_grid_width(g));
        double size = nav_grid_get_desc(g)->cell_size;
        for (int d = 0; d < 8; d++) {
            double c = nav_grid_move_cost(g, x, y, (nav_dir)d);
            if (c == NAV_COST_BLOCKED) continue;
            int32_t dx, dy;
            nav_dir_offset((nav_dir)d, &dx, &dy);
            uint32_t v = f->offset[r] + nav_grid_index(g, x + dx, y + dy);
            if (top.d + c * size < dist[v]) dist[v] = top.d + c * size, PUSH(dist[v], v);
        }
        for (uint32_t k = 0; k < f->link_count; k++) {
            const flat_link *l = &f->links[k];
            if (!l->enabled) continue;
            uint32_t a = flat_node(f, l->from_region, l->from), b = flat_node(f, l->to_region, l->to);
            if (a == top.v && top.d + l->cost < dist[b]) dist[b] = top.d + l->cost, PUSH(dist[b], b);
            if (!l->one_way && b == top.v && top.d + l->cost < dist[a])
                dist[a] = top.d + l->cost, PUSH(dist[a], a);
        }
    }
#undef PUSH
    double d = dist[to];
    free(dist);
    free(heap);
    return d;
}

/* ---- Helpers ----------------------------------------------------------------------------------- */

static void add_flat_grid(flat_world *f, const nav_grid *g)
{
    f->grids[f->regions] = g;
    f->offset[f->regions + 1] = f->offset[f->regions] + (uint32_t)(nav_grid_width(g) * nav_grid_height(g));
    f->regions++;
}

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

/* The path of the last find_path is a valid walk: each leg's points are moves of its region's grid
 * (the nodes are cell indices), it starts and ends at the leg's places, and the link at a leg's end
 * joins its last point to the next leg's first. Returns the path's cost counted again. */
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
        const nav_grid *g = f->grids[l->region];
        double size = nav_grid_get_desc(g)->cell_size, leg = 0;
        assert_int_equal(path->nodes[l->first_point], l->from.id);
        assert_int_equal(path->nodes[l->first_point + l->point_count - 1], l->to.id);
        for (uint32_t p = l->first_point + 1; p < l->first_point + l->point_count; p++) {
            uint32_t a = path->nodes[p - 1], c = path->nodes[p];
            int32_t w_ = nav_grid_width(g), ax = (int32_t)(a % (uint32_t)w_),
                    ay = (int32_t)(a / (uint32_t)w_);
            int32_t cx = (int32_t)(c % (uint32_t)w_), cy = (int32_t)(c / (uint32_t)w_);
            bool found = false;
            for (int d = 0; d < 8 && !found; d++) {
                int32_t dx, dy;
                nav_dir_offset((nav_dir)d, &dx, &dy);
                if (ax + dx == cx && ay + dy == cy) {
                    double m = nav_grid_move_cost(g, ax, ay, (nav_dir)d);
                    assert_true(m != NAV_COST_BLOCKED);
                    leg += m * size;
                    found = true;
                }
            }
            assert_true(found);
        }
        assert_true(close_to(leg, l->cost));
        total += leg;
        if (l->link != NAV_WORLD_NONE) {
            assert_true(i + 1 < count);
            nav_world_link_desc link;
            assert_true(nav_world_link(w, l->link, &link));
            assert_true(nav_world_link_enabled(w, l->link));
            const nav_world_leg *n = &legs[i + 1];
            bool forward = link.from_region == l->region &&
                           flat_node(f, link.from_region, link.from) == f->offset[l->region] + l->to.id &&
                           flat_node(f, link.to_region, link.to) == f->offset[n->region] + n->from.id;
            bool backward = !link.one_way && link.to_region == l->region &&
                            flat_node(f, link.to_region, link.to) == f->offset[l->region] + l->to.id &&
                            flat_node(f, link.from_region, link.from) == f->offset[n->region] + n->from.id;
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
static double check_query(const nav_world *w, nav_world_query *q, const flat_world *f, nav_vec3 a, nav_vec3 b)
{
    nav_world_place pa, pb;
    assert_int_equal(nav_world_locate(w, a, &pa), NAV_SUCCESS);
    assert_int_equal(nav_world_locate(w, b, &pb), NAV_SUCCESS);
    double want = flat_cost(f, f->offset[pa.region] + pa.id, f->offset[pb.region] + pb.id);
    nav_world_result r;
    nav_status s = nav_world_plan(q, a, b, &r);
    nav_path path;
    nav_path_init(&path, NULL);
    nav_status s2 = nav_world_find_path(q, a, b, &path, &r);
    assert_int_equal(s, s2);
    if (!(want < INFINITY)) {
        assert_int_equal(s, NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE);
        assert_int_equal(path.count, 1);
        nav_path_destroy(&path);
        return INFINITY;
    }
    assert_int_equal(s, NAV_SUCCESS);
    assert_true(close_to(r.cost, want));
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
    }
    /* both kinds of answer were checked */
    assert_true(compared > 1000);
    assert_true(unreachable > 50 && unreachable < compared - 500);
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
        strstr(log.last, "its to point (2.5, 0, 0.5) is not over a walkable place of region \"house\""));
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
    bool done = false;
    for (long fail_at = 1; !done && fail_at < 200; fail_at++) {
        test_allocator t;
        test_allocator_init(&t, fail_at);
        nav_world_builder *b = NULL;
        nav_world *w = NULL;
        nav_world_query *q = NULL;
        nav_path path;
        nav_path_init(&path, &t.hooks);
        nav_status s = nav_world_builder_create(&t.hooks, NULL, &b);
        if (!nav_failed(s)) s = nav_world_builder_add_grid(b, "a", a, NULL);
        if (!nav_failed(s)) s = nav_world_builder_add_grid(b, "c", c, NULL);
        if (!nav_failed(s))
            s = nav_world_builder_add_link(
                b,
                &(nav_world_link_desc){
                    .from_region = 0, .from = {3.5f, 0, 1.5f}, .to_region = 1, .to = {10.5f, 0, 1.5f}},
                NULL);
        if (!nav_failed(s)) s = nav_world_bake(b, NULL, &w);
        if (!nav_failed(s)) s = nav_world_query_create(w, &t.hooks, &q);
        if (!nav_failed(s))
            s = nav_world_find_path(q, (nav_vec3){0.5f, 0, 0.5f}, (nav_vec3){13.5f, 0, 2.5f}, &path, NULL);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_storeys),         cmocka_unit_test(test_locate_floor),
        cmocka_unit_test(test_one_way_drop),        cmocka_unit_test(test_same_region_detour),
        cmocka_unit_test(test_random_worlds),       cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_allocation_failures), cmocka_unit_test(test_threads_toggling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
