/* Agents (nav/agents.h) on the bundled village: one agent walks its route through every kind of
 * region (two storeys of a house, a town's navmesh, the road's waypoints, the east town), on the
 * walkable surface at every tick, and arrives; the same again to the bit; an unreachable goal; bad
 * input; every allocation failing in turn. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nav/agents.h"
#include "support.h"

#define VILLAGE NAV_TEST_DATA "/../../data/worlds/village/village.json"

static const nav_agent_params walker = {.radius = 0.4f, .height = 2, .max_speed = 3.5f, .max_accel = 8};

static nav_world *village(void)
{
    nav_world *w = NULL;
    assert_int_equal(nav_world_load_json(VILLAGE, NULL, &w), NAV_SUCCESS);
    return w;
}

/* The village's link named "bridge". */
static uint32_t village_bridge(const nav_world *w)
{
    nav_world_info info;
    nav_world_get_info(w, &info);
    for (uint32_t l = 0; l < info.links; l++) {
        nav_world_link_desc d;
        assert_true(nav_world_link(w, l, &d));
        if (d.name && !strcmp(d.name, "bridge")) return l;
    }
    fail_msg("the village has no bridge");
    return NAV_WORLD_NONE;
}

/* The nearest point of segment a-b to p (3D). */
static double segment_distance(nav_vec3 a, nav_vec3 b, nav_vec3 p)
{
    double dx = (double)b.x - a.x, dy = (double)b.y - a.y, dz = (double)b.z - a.z,
           len2 = dx * dx + dy * dy + dz * dz;
    double t = len2 > 0
                   ? (((double)p.x - a.x) * dx + ((double)p.y - a.y) * dy + ((double)p.z - a.z) * dz) / len2
                   : 0;
    t = fmin(fmax(t, 0), 1);
    double ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y, ez = a.z + t * dz - p.z;
    return sqrt(ex * ex + ey * ey + ez * ez);
}

/* The agent stands on its region's walkable surface: a free cell of its grid at the cell's floor,
 * inside its polygon of the mesh at the polygon's height, on a link of the waypoint graph. */
static void check_on_surface(const nav_world *w, const nav_agent_info *a)
{
    nav_vec3 p = a->place.position;
    uint32_t r = a->place.region;
    switch (nav_world_region_kind_of(w, r)) {
    case NAV_WORLD_REGION_GRID: {
        const nav_grid *g = nav_world_region_grid(w, r);
        int32_t x, y;
        assert_true(nav_grid_world_to_cell(g, p, &x, &y));
        assert_true(nav_grid_passable(g, x, y));
        assert_int_equal(a->place.id, (uint32_t)nav_grid_index(g, x, y));
        assert_true(fabsf(nav_grid_cell_center(g, x, y).y - p.y) < 1e-4f);
        break;
    }
    case NAV_WORLD_REGION_MESH: {
        float h;
        assert_true(nav_mesh_poly_contains(nav_world_region_mesh(w, r), a->place.id, p, &h));
        assert_true(fabsf(h - p.y) < 1e-3f);
        break;
    }
    case NAV_WORLD_REGION_WAYPOINTS: {
        const nav_waypoints *wp = nav_world_region_waypoints(w, r);
        double best = INFINITY;
        for (uint32_t l = 0; l < nav_waypoints_link_count(wp); l++) {
            nav_waypoint_link link;
            nav_waypoints_link(wp, l, &link);
            best = fmin(best, segment_distance(nav_waypoints_position(wp, link.from),
                                               nav_waypoints_position(wp, link.to), p));
        }
        assert_true(best < 1e-3);
        break;
    }
    default:
        fail_msg("region %u of no kind", r);
    }
}

/* Walks agent id to its goal in ticks of dt, checking it every tick; returns the seconds it took
 * (INFINITY: not there within limit seconds). */
static double walk(const nav_world *w, nav_crowd *crowd, uint32_t id, double dt, double limit, bool *links)
{
    nav_agent_info a;
    double t = 0;
    *links = false;
    while (t < limit) {
        assert_int_equal(nav_crowd_tick(crowd, dt), NAV_SUCCESS);
        t += dt;
        assert_true(nav_crowd_agent(crowd, id, &a));
        if (a.state == NAV_AGENT_ON_LINK) {
            *links = true;
            continue;
        }
        check_on_surface(w, &a);
        /* (sliding round a wall's corner may take it a little farther than its step) */
        assert_true(nav_vec3_len((nav_vec3){a.velocity.x, 0, a.velocity.z}) <= walker.max_speed * 1.01f);
        if (a.state == NAV_AGENT_ARRIVED) return t;
        assert_int_equal(a.state, NAV_AGENT_MOVING);
    }
    return INFINITY;
}

static double route_length(const nav_crowd *crowd, uint32_t id)
{
    uint32_t n;
    const nav_vec3 *p = nav_crowd_agent_route(crowd, id, &n);
    double len = 0;
    for (uint32_t i = 1; i < n; i++) len += nav_vec3_dist(p[i - 1], p[i]);
    return len;
}

/* From the house's upper floor to the east town: stairs, door, town, gate, road, bridge, town. */
static void test_walk_through_the_village(void **state)
{
    (void)state;
    nav_world *w = village();
    const nav_vec3 upstairs = {12.5f, 3, 8.5f}, east = {125.5f, 0, 20.5f};
    nav_vec3 end[2];
    double took[2];
    for (int run = 0; run < 2; run++) {
        nav_crowd *crowd;
        assert_int_equal(nav_crowd_create(w, NULL, &crowd), NAV_SUCCESS);
        uint32_t id;
        assert_int_equal(nav_crowd_add_agent(crowd, upstairs, &walker, &id), NAV_SUCCESS);
        assert_int_equal(id, 0);
        nav_agent_info a;
        assert_true(nav_crowd_agent(crowd, id, &a));
        assert_int_equal(a.state, NAV_AGENT_IDLE);
        check_on_surface(w, &a);
        assert_int_equal(nav_crowd_set_goal(crowd, id, east), NAV_SUCCESS);
        double length = route_length(crowd, id);
        assert_true(length > 110);
        bool links;
        took[run] = walk(w, crowd, id, 1.0 / 30, 120, &links);
        /* there, having crossed links, not much slower than the route at full speed */
        assert_true(links);
        assert_true(took[run] < INFINITY);
        assert_true(took[run] < 1.3 * length / walker.max_speed + 3);
        assert_true(nav_crowd_agent(crowd, id, &a));
        assert_true(nav_vec3_dist_xz(a.place.position, east) <= walker.radius);
        assert_int_equal(nav_world_region_kind_of(w, a.place.region), NAV_WORLD_REGION_MESH);
        end[run] = a.place.position;
        /* it stands once there */
        assert_int_equal(nav_crowd_tick(crowd, 1.0 / 30), NAV_SUCCESS);
        nav_agent_info b;
        assert_true(nav_crowd_agent(crowd, id, &b));
        assert_memory_equal(&a.place, &b.place, sizeof a.place);
        assert_true(nav_crowd_memory_bytes(crowd) > sizeof(nav_agent_info));
        nav_crowd_destroy(crowd);
    }
    /* the same calls, the same walk to the bit */
    assert_memory_equal(&end[0], &end[1], sizeof end[0]);
    assert_true(took[0] == took[1]);
    nav_world_destroy(w);
}

/* The village read on demand (regions loaded when a query needs them, a budget of one byte: each
 * let go as soon as no query holds it) walked by a crowd as the village in memory is: the same
 * calls, the same positions and corners steered for at every tick, to the bit (agents on the towns'
 * navmeshes follow their corridors on either world). */
static void test_village_on_demand(void **state)
{
    (void)state;
    nav_world *whole = village(), *lazy;
    char path[] = "/tmp/test_agents_village_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(nav_world_save_nav(whole, path), NAV_SUCCESS);
    assert_int_equal(nav_world_load_nav(path, &(nav_world_load_desc){.region_budget = 1}, &lazy),
                     NAV_SUCCESS);
    const nav_vec3 from[4] = {{12.5f, 3, 8.5f}, {125.5f, 0, 20.5f}, {30.5f, 0, 8.5f}, {110.5f, 0, 23.5f}},
                   to[4] = {{125.5f, 0, 20.5f}, {30.5f, 0, 9.5f}, {120.5f, 0, 22.5f}, {3.5f, 0.2f, 8.5f}};
    nav_crowd *crowds[2];
    for (int k = 0; k < 2; k++) {
        assert_int_equal(nav_crowd_create(k ? lazy : whole, &(nav_crowd_desc){.threads = 2}, &crowds[k]),
                         NAV_SUCCESS);
        for (uint32_t i = 0; i < 4; i++) {
            uint32_t id;
            assert_int_equal(nav_crowd_add_agent(crowds[k], from[i], &walker, &id), NAV_SUCCESS);
            assert_int_equal(nav_crowd_set_goal(crowds[k], id, to[i]), NAV_SUCCESS);
        }
    }
    uint32_t arrived = 0, on_mesh = 0;
    for (int t = 0; t < 3600 && arrived < 4; t++) {
        arrived = 0;
        for (int k = 0; k < 2; k++) assert_int_equal(nav_crowd_tick(crowds[k], 1.0 / 30), NAV_SUCCESS);
        for (uint32_t i = 0; i < 4; i++) {
            nav_agent_info a, b;
            assert_true(nav_crowd_agent(crowds[0], i, &a));
            assert_true(nav_crowd_agent(crowds[1], i, &b));
            assert_memory_equal(&a.place, &b.place, sizeof a.place);
            assert_int_equal(a.state, b.state);
            assert_memory_equal(&a.steer_to, &b.steer_to, sizeof a.steer_to);
            arrived += a.state == NAV_AGENT_ARRIVED;
            on_mesh += a.state == NAV_AGENT_MOVING &&
                       nav_world_region_kind_of(whole, a.place.region) == NAV_WORLD_REGION_MESH;
        }
    }
    assert_int_equal(arrived, 4);
    assert_true(on_mesh > 1000); /* (agent-ticks on the towns' meshes) */
    nav_world_cache_info info;
    nav_world_get_cache_info(lazy, &info);
    assert_true(info.on_demand && info.loads >= 5);
    for (int k = 0; k < 2; k++) nav_crowd_destroy(crowds[k]);
    nav_world_destroy(lazy);
    nav_world_destroy(whole);
    unlink(path);
}

/* Walks between random places of the village, four agents at once (each with a start and a goal of
 * its own), avoiding each other: each stays on the surface and arrives. */
static void test_random_walks(void **state)
{
    (void)state;
    nav_world *w = village();
    nav_crowd *crowd;
    assert_int_equal(nav_crowd_create(w, &(nav_crowd_desc){.max_agents = 4}, &crowd), NAV_SUCCESS);
    const nav_vec3 spots[] = {{12.5f, 3, 8.5f}, {125.5f, 0, 20.5f}, {30.5f, 0, 8.5f},
                              {72, 0, 18},      {3.5f, 0.2f, 8.5f}, {3.5f, 3.2f, 8.5f}};
    srand(5);
    for (int round = 0; round < 6; round++) {
        uint32_t ids[4];
        int from[6] = {0, 1, 2, 3, 4, 5}, to[6] = {0, 1, 2, 3, 4, 5}; /* (four different starts and goals) */
        for (int k = 5; k > 0; k--) {
            int i = rand() % (k + 1), j = rand() % (k + 1), t = from[k];
            from[k] = from[i], from[i] = t, t = to[k], to[k] = to[j], to[j] = t;
        }
        for (int k = 0; k < 4; k++) {
            assert_int_equal(nav_crowd_add_agent(crowd, spots[from[k]], &walker, &ids[k]), NAV_SUCCESS);
            assert_int_equal(nav_crowd_set_goal(crowd, ids[k], spots[to[k]]), NAV_SUCCESS);
        }
        FAILS_WITH(nav_crowd_add_agent(crowd, spots[0], &walker, NULL), NAV_BUFFER_TOO_SMALL);
        bool all = false;
        for (double t = 0; t < 90 && !all; t += 0.05) {
            assert_int_equal(nav_crowd_tick(crowd, 0.05), NAV_SUCCESS);
            all = true;
            for (int k = 0; k < 4; k++) {
                nav_agent_info a;
                assert_true(nav_crowd_agent(crowd, ids[k], &a));
                if (a.state != NAV_AGENT_ON_LINK) check_on_surface(w, &a);
                all &= a.state == NAV_AGENT_ARRIVED;
            }
        }
        assert_true(all);
        for (int k = 0; k < 4; k++) assert_int_equal(nav_crowd_remove_agent(crowd, ids[k]), NAV_SUCCESS);
    }
    nav_crowd_destroy(crowd);
    nav_world_destroy(w);
}

/* A world of one region: the grid, or (grid null) the mesh (the caller's to destroy, after the
 * world). */
static nav_world *world_of(const nav_grid *grid, const nav_mesh *mesh)
{
    nav_world_builder *b;
    assert_int_equal(nav_world_builder_create(NULL, NULL, &b), NAV_SUCCESS);
    assert_int_equal(grid ? nav_world_builder_add_grid(b, "ground", grid, NULL)
                          : nav_world_builder_add_mesh(b, "ground", mesh, NULL),
                     NAV_SUCCESS);
    nav_world *w;
    assert_int_equal(nav_world_bake(b, NULL, &w), NAV_SUCCESS);
    nav_world_builder_destroy(b);
    return w;
}

/* A world of one grid region made of rows (the grid is the caller's to destroy, after the world). */
static nav_world *grid_world(const char *const *rows, int32_t h, nav_grid **grid)
{
    *grid = test_grid_from_rows(rows, h, &(nav_grid_desc){.cell_size = 1});
    return world_of(*grid, NULL);
}

/* A crowd (desc) of two agents, one at (x0, z) going to (x1, z) and one the other way. */
static nav_crowd *head_on(const nav_world *w, const nav_crowd_desc *desc, float x0, float x1, float z)
{
    nav_crowd *crowd;
    assert_int_equal(nav_crowd_create(w, desc, &crowd), NAV_SUCCESS);
    uint32_t a, b;
    assert_int_equal(nav_crowd_add_agent(crowd, (nav_vec3){x0, 0, z}, &walker, &a), NAV_SUCCESS);
    assert_int_equal(nav_crowd_add_agent(crowd, (nav_vec3){x1, 0, z}, &walker, &b), NAV_SUCCESS);
    assert_int_equal(nav_crowd_set_goal(crowd, a, (nav_vec3){x1, 0, z}), NAV_SUCCESS);
    assert_int_equal(nav_crowd_set_goal(crowd, b, (nav_vec3){x0, 0, z}), NAV_SUCCESS);
    return crowd;
}

/* Runs the crowd until every agent arrives or `limit` seconds pass; returns the deepest overlap of two
 * agents seen (their radii less their distance), and in *mean the mean of the summed overlaps a
 * tick; *arrived: how many arrived. Every agent on the surface every tick. */
static double run_crowd(const nav_world *w, nav_crowd *crowd, uint32_t n, double limit, uint32_t *arrived,
                        double *mean)
{
    double deepest = 0, sum = 0;
    int ticks = 0;
    *arrived = 0;
    for (double t = 0; t < limit && *arrived < n; t += 1.0 / 30, ticks++) {
        assert_int_equal(nav_crowd_tick(crowd, 1.0 / 30), NAV_SUCCESS);
        nav_agent_info a[32];
        *arrived = 0;
        for (uint32_t i = 0; i < n; i++) {
            assert_true(nav_crowd_agent(crowd, i, &a[i]));
            check_on_surface(w, &a[i]);
            *arrived += a[i].state == NAV_AGENT_ARRIVED;
        }
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t j = i + 1; j < n; j++) {
                double over = (double)a[i].params.radius + a[j].params.radius -
                              nav_vec3_dist_xz(a[i].place.position, a[j].place.position);
                if (over > 0) sum += over, deepest = fmax(deepest, over);
            }
    }
    *mean = ticks ? sum / ticks : 0;
    return deepest;
}

/* Two agents meet head on in a corridor three cells wide and pass each other without touching;
 * without avoidance (no neighbour in range) they do not: they walk into each other and, pushed
 * apart, hold each other there. */
static void test_two_pass_in_a_corridor(void **state)
{
    (void)state;
    const char *rows[] = {"##############################", "..............................",
                          "..............................", "..............................",
                          "##############################"};
    nav_grid *grid;
    nav_world *w = grid_world(rows, 5, &grid);
    for (int avoiding = 1; avoiding >= 0; avoiding--) {
        nav_crowd *crowd =
            head_on(w, &(nav_crowd_desc){.neighbour_range = avoiding ? 0 : 1e-3f}, 1.5f, 28.5f, 2.5f);
        uint32_t arrived;
        double mean, deepest = run_crowd(w, crowd, 2, 30, &arrived, &mean);
        if (avoiding) {
            assert_int_equal(arrived, 2);
            assert_true(deepest < 0.01); /* (a float's rounding) */
        } else {                         /* (pushed apart, head on: they hold each other) */
            assert_true(arrived < 2 || deepest > 0.5);
        }
        nav_crowd_destroy(crowd);
    }
    nav_world_destroy(w);
    nav_grid_destroy(grid);
}

/* The distance from (x, z) to the nearest blocked cell's square or the grid's edge (cells of 1). */
static double wall_distance(const nav_grid *g, double x, double z)
{
    int32_t w = nav_grid_width(g), h = nav_grid_height(g);
    double best = fmin(fmin(x, z), fmin(w - x, h - z));
    for (int32_t cy = 0; cy < h; cy++)
        for (int32_t cx = 0; cx < w; cx++) {
            if (nav_grid_passable(g, cx, cy)) continue;
            double dx = fmax(fmax(cx - x, x - (cx + 1)), 0), dz = fmax(fmax(cy - z, z - (cy + 1)), 0);
            best = fmin(best, hypot(dx, dz));
        }
    return best;
}

/* An agent round a pillar and along walls on a plain grid (a surface that reaches the walls): with an
 * edge clearance it keeps its centre that far from every wall at every tick (the walls' lines in its
 * avoidance), and arrives; with the default (the surface taken as made for it) it grazes the
 * pillar's corner. */
static void test_walls_kept(void **state)
{
    (void)state;
    const char *rows[] = {"................", "................", "................", ".......##.......",
                          ".......##.......", "................", "................", "................"};
    nav_grid *grid;
    nav_world *w = grid_world(rows, 8, &grid);
    const float clearance = 0.35f;
    for (int kept = 1; kept >= 0; kept--) {
        nav_crowd *crowd;
        assert_int_equal(
            nav_crowd_create(w, &(nav_crowd_desc){.edge_clearance = kept ? clearance : 0}, &crowd),
            NAV_SUCCESS);
        uint32_t id;
        assert_int_equal(nav_crowd_add_agent(crowd, (nav_vec3){1.5f, 0, 2.5f}, &walker, &id), NAV_SUCCESS);
        assert_int_equal(nav_crowd_set_goal(crowd, id, (nav_vec3){14.5f, 0, 5.5f}), NAV_SUCCESS);
        double nearest = INFINITY;
        nav_agent_info a = {0};
        for (int k = 0; k < 600 && a.state != NAV_AGENT_ARRIVED; k++) {
            assert_int_equal(nav_crowd_tick(crowd, 1.0 / 30), NAV_SUCCESS);
            assert_true(nav_crowd_agent(crowd, id, &a));
            nearest = fmin(nearest, wall_distance(grid, a.place.position.x, a.place.position.z));
        }
        assert_int_equal(a.state, NAV_AGENT_ARRIVED);
        if (kept)
            assert_true(nearest > clearance - 0.02);
        else
            assert_true(nearest < 0.1);
        nav_crowd_destroy(crowd);
    }
    nav_world_destroy(w);
    nav_grid_destroy(grid);
}

/* An agent on a navmesh region (built from a grid with walls to go round) steers for the first corner
 * of the shortest way from where it stands: at every tick, the point it steered for is seen from
 * where it stood and lies on a shortest way from there to the goal (the way to it and the world's
 * shortest from it on are no longer than the world's shortest from where it stood); it arrives. */
static void test_corridor_corners_followed(void **state)
{
    (void)state;
    const char *rows[] = {"....................", "..######....######..", ".......#....#.......",
                          ".......#....#..###..", "..#####......#......", "....................",
                          "......######...###..", "...................."};
    nav_grid *grid = test_grid_from_rows(rows, 8, &(nav_grid_desc){.cell_size = 1});
    nav_mesh *mesh;
    assert_int_equal(nav_mesh_build_from_grid(grid, NULL, &mesh), NAV_SUCCESS);
    nav_world *w = world_of(NULL, mesh);
    nav_world_query *q;
    assert_int_equal(nav_world_query_create(w, NULL, &q), NAV_SUCCESS);
    nav_path path;
    nav_path_init(&path, NULL);
    const nav_vec3 starts[3] = {{0.5f, 0, 0.5f}, {19.5f, 0, 7.5f}, {9.5f, 0, 2.5f}},
                   goals[3] = {{19.5f, 0, 7.5f}, {0.5f, 0, 3.5f}, {18.5f, 0, 2.5f}};
    int checked = 0;
    for (int k = 0; k < 3; k++) {
        nav_crowd *crowd;
        assert_int_equal(nav_crowd_create(w, NULL, &crowd), NAV_SUCCESS);
        uint32_t id;
        assert_int_equal(nav_crowd_add_agent(crowd, starts[k], &walker, &id), NAV_SUCCESS);
        assert_int_equal(nav_crowd_set_goal(crowd, id, goals[k]), NAV_SUCCESS);
        nav_agent_info a, was;
        assert_true(nav_crowd_agent(crowd, id, &was));
        for (int t = 0; t < 900 && was.state != NAV_AGENT_ARRIVED; t++, was = a) {
            assert_int_equal(nav_crowd_tick(crowd, 1.0 / 30), NAV_SUCCESS);
            assert_true(nav_crowd_agent(crowd, id, &a));
            check_on_surface(w, &a);
            if (a.state != NAV_AGENT_MOVING && a.state != NAV_AGENT_ARRIVED) continue;
            bool sees;
            assert_int_equal(nav_world_sees(q, &was.place, a.steer_to, &sees), NAV_SUCCESS);
            assert_true(sees);
            nav_world_result from_here, from_corner;
            assert_int_equal(nav_world_find_path(q, was.place.position, a.goal, &path, &from_here),
                             NAV_SUCCESS);
            assert_int_equal(nav_world_find_path(q, a.steer_to, a.goal, &path, &from_corner), NAV_SUCCESS);
            double via = nav_vec3_dist_xz(was.place.position, a.steer_to) + from_corner.cost;
            assert_true(via <= from_here.cost * (1 + 1e-6) + 1e-4);
            checked++;
        }
        assert_int_equal(was.state, NAV_AGENT_ARRIVED);
        nav_crowd_destroy(crowd);
    }
    fprintf(stderr, "corridor corners: %d ticks checked\n", checked);
    nav_path_destroy(&path);
    nav_world_query_destroy(q);
    nav_world_destroy(w);
    nav_mesh_destroy(mesh);
    nav_grid_destroy(grid);
}

/* Four agents put within 3 cm of each other near a wall, standing (no goal), part: within three
 * seconds every two stand a body apart (within a millimetre: parted in one pass a tick, 1.5 mm
 * less), none nearer the wall than its edge clearance at any tick,
 * every one on the surface (an agent that stands steers for nothing: without being pushed apart
 * they would stand where they were put; pushed without minding the walls, one goes to the wall). */
static void test_stand_apart(void **state)
{
    (void)state;
    const char *rows[] = {"..........", "..........", "..........", "..........", ".........."};
    nav_grid *grid;
    nav_world *w = grid_world(rows, 5, &grid);
    const float clearance = 0.3f;
    nav_crowd *crowd;
    assert_int_equal(nav_crowd_create(w, &(nav_crowd_desc){.edge_clearance = clearance}, &crowd),
                     NAV_SUCCESS);
    for (uint32_t k = 0; k < 4; k++) {
        uint32_t id;
        nav_vec3 at = {5, 0, 0.6f + 0.01f * (float)k}; /* (they part across the wall, some towards it) */
        assert_int_equal(nav_crowd_add_agent(crowd, at, &walker, &id), NAV_SUCCESS);
    }
    double nearest_wall = INFINITY, nearest_pair = INFINITY;
    for (int k = 0; k < 90; k++) {
        assert_int_equal(nav_crowd_tick(crowd, 1.0 / 30), NAV_SUCCESS);
        nav_agent_info a[4];
        for (uint32_t i = 0; i < 4; i++) {
            assert_true(nav_crowd_agent(crowd, i, &a[i]));
            assert_int_equal(a[i].state, NAV_AGENT_IDLE);
            check_on_surface(w, &a[i]);
            nearest_wall =
                fmin(nearest_wall, wall_distance(grid, a[i].place.position.x, a[i].place.position.z));
        }
        nearest_pair = INFINITY;
        for (uint32_t i = 0; i < 4; i++)
            for (uint32_t j = i + 1; j < 4; j++)
                nearest_pair = fmin(nearest_pair, nav_vec3_dist_xz(a[i].place.position, a[j].place.position));
    }
    assert_true(nearest_pair > 2 * walker.radius - 1e-3);
    assert_true(nearest_wall > clearance - 1e-3);
    nav_crowd_destroy(crowd);
    nav_world_destroy(w);
    nav_grid_destroy(grid);
}

/* An agent added standing just ahead of one walking (within a tick's step, after each of eight ticks
 * in turn) is avoided from the next tick on: it is never touched, so never pushed (the walker turns
 * at once, standing in for one that sees the newcomer in time). The walker keeps a list of those near
 * it, made now and then (crowd.c's near_list); a newcomer makes every list anew: kept, the walker's
 * list would miss it for a tick or two, and walking into it the walker pushes it 0.135 m. */
static void test_newcomer_avoided(void **state)
{
    (void)state;
    const char *rows[] = {"..............................", "..............................",
                          "..............................", "..............................",
                          ".............................."};
    nav_grid *grid;
    nav_world *w = grid_world(rows, 5, &grid);
    nav_agent_params quick = walker;
    quick.max_accel = 1000;
    for (int offset = 0; offset < 8; offset++) {
        nav_crowd *crowd;
        assert_int_equal(nav_crowd_create(w, NULL, &crowd), NAV_SUCCESS);
        uint32_t a, b;
        assert_int_equal(nav_crowd_add_agent(crowd, (nav_vec3){1.5f, 0, 2.5f}, &quick, &a), NAV_SUCCESS);
        assert_int_equal(nav_crowd_set_goal(crowd, a, (nav_vec3){28.5f, 0, 2.5f}), NAV_SUCCESS);
        for (int k = 0; k < 30 + offset; k++) assert_int_equal(nav_crowd_tick(crowd, 1.0 / 30), NAV_SUCCESS);
        nav_agent_info at;
        assert_true(nav_crowd_agent(crowd, a, &at));
        nav_vec3 ahead = {at.place.position.x + 2 * walker.radius + 0.08f, 0, 2.5f};
        assert_int_equal(nav_crowd_add_agent(crowd, ahead, &walker, &b), NAV_SUCCESS);
        double pushed = 0; /* (overlaps are parted within the tick: the push is what shows one) */
        for (int k = 0; k < 30; k++) {
            assert_int_equal(nav_crowd_tick(crowd, 1.0 / 30), NAV_SUCCESS);
            nav_agent_info ib;
            assert_true(nav_crowd_agent(crowd, b, &ib));
            pushed = fmax(pushed, nav_vec3_dist_xz(ib.place.position, ahead));
        }
        assert_true(pushed < 1e-4);
        nav_crowd_destroy(crowd);
    }
    nav_world_destroy(w);
    nav_grid_destroy(grid);
}

/* One agent follows another along a corridor and round a corner: it keeps up (never more than a few
 * metres behind), stops within its distance of the leader when the leader stops, goes on when the
 * leader sets off again, and follows no more once the leader is removed; bad calls change nothing. */
static void test_follow(void **state)
{
    (void)state;
    const char *rows[] = {"##############################", "..............................",
                          "..............................", "..........................#...",
                          "##########################....", "##########################....",
                          "##########################...."};
    nav_grid *grid;
    nav_world *w = grid_world(rows, 7, &grid);
    nav_crowd *crowd;
    assert_int_equal(nav_crowd_create(w, NULL, &crowd), NAV_SUCCESS);
    const nav_agent_params slower = {.radius = 0.4f, .height = 2, .max_speed = 2.5f, .max_accel = 8};
    uint32_t leader, follower;
    assert_int_equal(nav_crowd_add_agent(crowd, (nav_vec3){5.5f, 0, 2.5f}, &slower, &leader), NAV_SUCCESS);
    assert_int_equal(nav_crowd_add_agent(crowd, (nav_vec3){1.5f, 0, 2.5f}, &walker, &follower), NAV_SUCCESS);
    /* bad calls */
    FAILS_WITH(nav_crowd_follow(crowd, follower, follower, 2), NAV_INVALID_PARAM);
    FAILS_WITH(nav_crowd_follow(crowd, follower, 7, 2), NAV_INVALID_PARAM);
    FAILS_WITH(nav_crowd_follow(crowd, follower, leader, -1), NAV_INVALID_PARAM);
    FAILS_WITH(nav_crowd_follow(crowd, follower, leader, NAN), NAV_INVALID_PARAM);
    FAILS_WITH(nav_crowd_follow(crowd, 9, leader, 2), NAV_INVALID_PARAM);
    nav_agent_info f, l;
    assert_true(nav_crowd_agent(crowd, follower, &f));
    assert_int_equal(f.state, NAV_AGENT_IDLE);
    assert_int_equal(f.following, UINT32_MAX);
    /* the leader down the corridor and round the corner; the follower 2 behind */
    assert_int_equal(nav_crowd_set_goal(crowd, leader, (nav_vec3){28.5f, 0, 6.5f}), NAV_SUCCESS);
    assert_int_equal(nav_crowd_follow(crowd, follower, leader, 2), NAV_SUCCESS);
    assert_true(nav_crowd_agent(crowd, follower, &f));
    assert_int_equal(f.following, leader);
    double farthest = 0;
    int k = 0;
    for (; k < 900; k++) {
        assert_int_equal(nav_crowd_tick(crowd, 1.0 / 30), NAV_SUCCESS);
        assert_true(nav_crowd_agent(crowd, leader, &l) && nav_crowd_agent(crowd, follower, &f));
        check_on_surface(w, &f);
        if (k > 90) farthest = fmax(farthest, nav_vec3_dist_xz(f.place.position, l.place.position));
        if (l.state == NAV_AGENT_ARRIVED && f.state == NAV_AGENT_ARRIVED) break;
    }
    assert_true(k < 900);
    assert_true(farthest < 5);
    assert_true(nav_vec3_dist_xz(f.place.position, l.place.position) <= 2 + 2 * walker.radius + 0.05f);
    /* the leader sets off back: the follower goes on, then stops near it again */
    assert_int_equal(nav_crowd_set_goal(crowd, leader, (nav_vec3){10.5f, 0, 1.5f}), NAV_SUCCESS);
    bool moved = false;
    for (k = 0; k < 900; k++) {
        assert_int_equal(nav_crowd_tick(crowd, 1.0 / 30), NAV_SUCCESS);
        assert_true(nav_crowd_agent(crowd, leader, &l) && nav_crowd_agent(crowd, follower, &f));
        moved |= f.state == NAV_AGENT_MOVING;
        if (k > 30 && l.state == NAV_AGENT_ARRIVED && f.state == NAV_AGENT_ARRIVED) break;
    }
    assert_true(moved && k < 900);
    assert_true(nav_vec3_dist_xz(f.place.position, l.place.position) <= 2 + 2 * walker.radius + 0.05f);
    nav_crowd_event log[64];
    uint32_t n = nav_crowd_events(crowd, log, 64);
    for (uint32_t e = 0; e < n; e++) assert_int_not_equal(log[e].type, NAV_CROWD_REPLANNED);
    /* the leader removed: no more following, the last goal kept */
    assert_int_equal(nav_crowd_remove_agent(crowd, leader), NAV_SUCCESS);
    assert_int_equal(nav_crowd_tick(crowd, 1.0 / 30), NAV_SUCCESS);
    assert_true(nav_crowd_agent(crowd, follower, &f));
    assert_int_equal(f.following, UINT32_MAX);
    /* another goal ends following */
    assert_int_equal(nav_crowd_add_agent(crowd, (nav_vec3){20.5f, 0, 1.5f}, &slower, &leader), NAV_SUCCESS);
    assert_int_equal(nav_crowd_follow(crowd, follower, leader, 1), NAV_SUCCESS);
    assert_int_equal(nav_crowd_set_goal(crowd, follower, (nav_vec3){2.5f, 0, 2.5f}), NAV_SUCCESS);
    assert_true(nav_crowd_agent(crowd, follower, &f));
    assert_int_equal(f.following, UINT32_MAX);
    nav_crowd_destroy(crowd);
    nav_world_destroy(w);
    nav_grid_destroy(grid);
}

/* Agents going to one cell of a grid share a flow field when there are enough of them and it pays:
 * nine to spots in one far cell take one (nav_agent_info.flow), five to spots of another cell plan
 * one by one; all arrive, on the surface every tick, about as soon as their routes at full speed
 * allow; the same to the bit on one thread and on three. */
static void test_flow_shared(void **state)
{
    (void)state;
    const char *rows[] = {"................", ".....###########", "................", "########...#####",
                          "................"};
    nav_grid *grid = test_grid_from_rows(rows, 5, &(nav_grid_desc){.cell_size = 8});
    nav_world *w = world_of(grid, NULL);
    enum { FLOWING = 9, OTHERS = 5, ALL = FLOWING + OTHERS };
    nav_agent_info end[2][ALL];
    for (int run = 0; run < 2; run++) {
        nav_crowd *crowd;
        assert_int_equal(
            nav_crowd_create(w, &(nav_crowd_desc){.max_agents = ALL, .threads = run ? 3 : 1}, &crowd),
            NAV_SUCCESS);
        double took[ALL] = {0}, length[ALL];
        for (uint32_t i = 0; i < ALL; i++) {
            bool flowing = i < FLOWING;
            uint32_t k = flowing ? i : i - FLOWING;
            nav_vec3 start = flowing ? (nav_vec3){2 + 4.0f * (float)(k % 5), 0, 34 + 3.0f * (float)(k / 5)}
                                     : (nav_vec3){60 + 3.0f * (float)k, 0, 18 + (float)k},
                     goal = flowing ? (nav_vec3){121 + 2.5f * (float)(k % 3), 0, 1.5f + 2.5f * (float)(k / 3)}
                                    : (nav_vec3){6 + 3.0f * (float)k, 0, 22 - (float)k};
            uint32_t id;
            assert_int_equal(nav_crowd_add_agent(crowd, start, &walker, &id), NAV_SUCCESS);
            assert_int_equal(nav_crowd_set_goal(crowd, id, goal), NAV_SUCCESS);
            length[i] = route_length(crowd, id);
        }
        bool all = false;
        for (int k = 0; k < 3000 && !all; k++) {
            assert_int_equal(nav_crowd_tick(crowd, 1.0 / 30), NAV_SUCCESS);
            all = true;
            for (uint32_t i = 0; i < ALL; i++) {
                nav_agent_info a;
                assert_true(nav_crowd_agent(crowd, i, &a));
                check_on_surface(w, &a);
                if (k == 0) assert_int_equal(a.flow, i < FLOWING);
                if (a.state == NAV_AGENT_ARRIVED && took[i] == 0) took[i] = (k + 1) / 30.0;
                all &= a.state == NAV_AGENT_ARRIVED;
            }
        }
        assert_true(all);
        for (uint32_t i = 0; i < ALL; i++) {
            assert_true(took[i] < 1.3 * length[i] / walker.max_speed + 6);
            assert_true(nav_crowd_agent(crowd, i, &end[run][i]));
        }
        nav_crowd_destroy(crowd);
    }
    for (uint32_t i = 0; i < ALL; i++)
        assert_memory_equal(&end[0][i].place, &end[1][i].place, sizeof end[0][i].place);
    nav_world_destroy(w);
    nav_grid_destroy(grid);
}

/* Two agents meet head on in a corridor where their centres keep within 0.6 m across (a metre's
 * width, an edge clearance of 0.2): two bodies of 0.8 m cannot pass there, a jam that must resolve.
 * Held there, each leaves the other to the pushing apart and squeezes (avoids as if half its size),
 * and they get by each other, overlapping no more than that, and both arrive. Coming out of the jam
 * as fast as a free step, they part at full size and go back and forth, stuck, as a push undoes
 * each move. */
static void test_jam_resolves(void **state)
{
    (void)state;
    const char *rows[] = {"######################", "......................", "######################"};
    nav_grid *grid;
    nav_world *w = grid_world(rows, 3, &grid);
    nav_crowd *crowd = head_on(w, &(nav_crowd_desc){.edge_clearance = 0.2f}, 1.5f, 20.5f, 1.5f);
    uint32_t arrived;
    double mean, deepest = run_crowd(w, crowd, 2, 60, &arrived, &mean);
    assert_int_equal(arrived, 2);
    assert_true(deepest > 0.1 && deepest < 0.5 * 2 * walker.radius + 0.05); /* (forced, and no more) */
    nav_crowd_destroy(crowd);
    nav_world_destroy(w);
    nav_grid_destroy(grid);
}

/* Two crowds of 40 agents, each packed into one end of a corridor 6 m wide and 30 m long, cross to
 * places spread over the other end (in layout k, each agent's place is the k * 11th after the one
 * its own start's order gives). Returns the seconds until three in four were there (INFINITY: not
 * within 60), how many were after 60 s and the overlap a tick summed over the pairs; every agent is
 * checked on the surface every tick. */
static double cross_once(uint32_t layout, uint32_t *arrived_out, double *overlap)
{
    const char *rows[] = {"##############################", "..............................",
                          "..............................", "..............................",
                          "..............................", "..............................",
                          "..............................", "##############################"};
    nav_grid *grid;
    nav_world *w = grid_world(rows, 8, &grid);
    nav_crowd *crowd;
    assert_int_equal(nav_crowd_create(w, NULL, &crowd), NAV_SUCCESS);
    enum { CROSSING = 80 };
    for (uint32_t i = 0; i < CROSSING; i++) {
        uint32_t id, k = i % 40, g = (k + 11 * layout) % 40;
        float x = 0.6f + 0.9f * (float)(k % 8), z = 1.6f + 1.2f * (float)(k / 8), /* (from the walls, */
            to_x = 1.0f + 1.4f * (float)(g % 8), to_z = 2.0f + (float)(g / 8);    /* room to get by) */
        nav_vec3 here = {i < 40 ? x : 30 - x, 0, z}, there = {i < 40 ? 30 - to_x : to_x, 0, to_z};
        assert_int_equal(nav_crowd_add_agent(crowd, here, &walker, &id), NAV_SUCCESS);
        assert_int_equal(nav_crowd_set_goal(crowd, id, there), NAV_SUCCESS);
    }
    uint32_t arrived = 0;
    double sum = 0;
    int ticks = 0, most = 0; /* (the tick by which 3 in 4 were there) */
    for (; ticks < 60 * 30 && arrived < CROSSING; ticks++) {
        if (!most && arrived >= CROSSING * 3 / 4) most = ticks;
        assert_int_equal(nav_crowd_tick(crowd, 1.0 / 30), NAV_SUCCESS);
        nav_agent_info a[CROSSING];
        arrived = 0;
        for (uint32_t i = 0; i < CROSSING; i++) {
            assert_true(nav_crowd_agent(crowd, i, &a[i]));
            check_on_surface(w, &a[i]);
            arrived += a[i].state == NAV_AGENT_ARRIVED;
        }
        for (uint32_t i = 0; i < CROSSING; i++)
            for (uint32_t j = i + 1; j < CROSSING; j++)
                sum +=
                    fmax(2 * walker.radius - nav_vec3_dist_xz(a[i].place.position, a[j].place.position), 0);
    }
    if (!most && arrived >= CROSSING * 3 / 4) most = ticks;
    print_message(
        "crowds cross, layout %u: %u of %d arrived in %.1f s (3 in 4 in %.1f s), overlap %.3f a tick\n",
        layout, arrived, CROSSING, ticks / 30.0, most / 30.0, sum / ticks);
    *arrived_out = arrived;
    *overlap = sum / ticks;
    nav_crowd_destroy(crowd);
    nav_world_destroy(w);
    nav_grid_destroy(grid);
    return most ? most / 30.0 : INFINITY;
}

/* Crossing as above in four layouts. Leaving those they nearly touch to the pushing apart, all but
 * four of the 320 are there after 60 s (measured: 319), with a mean overlap under 0.5 m a tick (0.28)
 * and three in four there within 32 s on average over the layouts (29.6). Avoiding every neighbour
 * at once, those that meet in the middle hold each other: 310 there, overlap 0.72, and 32.3 s. The
 * sums over the layouts, not each: a layout's figures are chaotic (any change to the steering moves
 * its time by seconds either way: 23.7 to 34.2 s here). */
static void test_crowds_cross(void **state)
{
    (void)state;
    enum { LAYOUTS = 4 };
    double mean = 0, overlap = 0;
    uint32_t arrived = 0;
    for (uint32_t k = 0; k < LAYOUTS; k++) {
        uint32_t there;
        double o, most = cross_once(k, &there, &o);
        arrived += there, overlap += o / LAYOUTS, mean += most / LAYOUTS;
    }
    print_message("crowds cross: %u of %d there, overlap %.3f a tick, three in four there in %.1f s on "
                  "average\n",
                  arrived, 80 * LAYOUTS, overlap, mean);
    assert_true(arrived >= 80 * LAYOUTS - 4);
    assert_true(overlap < 0.5);
    assert_true(mean < 32);
}

/* Twenty agents queue through a door two cells wide into the room beyond, each to a place of its
 * own there: all arrive, the doorway jam resolves, and they overlap little: at most half a
 * millimetre, and 0.05 mm a tick summed over the pairs (measured: 0.037 mm and 0.0011 mm; parted in
 * one pass a tick, 3.8 cm and 1.3 mm; in eight passes at most, never more while few are pushed,
 * 1.5 mm and 0.116 mm; with those crushed among three or more not parted again once few are
 * pushed, 1.35 mm and 0.0056 mm). */
static void test_twenty_through_a_door(void **state)
{
    (void)state;
    const char *rows[] = {"......................", "......................", "......................",
                          "......................", "......................", "##########..##########",
                          "......................", "......................", "......................",
                          "......................", "......................", "......................"};
    nav_grid *grid;
    nav_world *w = grid_world(rows, 12, &grid);
    nav_crowd *crowd;
    assert_int_equal(nav_crowd_create(w, NULL, &crowd), NAV_SUCCESS);
    for (uint32_t i = 0; i < 20; i++) {
        uint32_t id;
        nav_vec3 start = {1.5f + (float)(2 * (i % 10)), 0, 1.5f + (float)(2 * (i / 10))},
                 goal = {1.5f + (float)(2 * (i % 10)), 0, 8.5f + (float)(2 * (i / 10))};
        assert_int_equal(nav_crowd_add_agent(crowd, start, &walker, &id), NAV_SUCCESS);
        assert_int_equal(nav_crowd_set_goal(crowd, id, goal), NAV_SUCCESS);
    }
    uint32_t arrived;
    double mean, deepest = run_crowd(w, crowd, 20, 60, &arrived, &mean);
    print_message("twenty through a door: deepest overlap %.6f m, %.7f m a tick\n", deepest, mean);
    assert_int_equal(arrived, 20);
    assert_true(deepest < 5e-4 && mean < 5e-5);
    nav_crowd_destroy(crowd);
    nav_world_destroy(w);
    nav_grid_destroy(grid);
}

/* Seven agents set down in a row on open ground, each 0.2 m into the next, and left standing: the
 * pushes apart reach along the row within the first tick. At first the inner ones are pushed equally
 * either way and do not move; those that move wake those they are found overlapping for the next
 * pass, and after the tick the deepest overlap is 0.027 m (0.143 m in eight passes at most, more
 * not being made for a few). If only those the last pass moved look again, the inner ones stand where
 * they were all tick and it is still 0.2 m. */
static void test_row_parted(void **state)
{
    (void)state;
    const char *rows[] = {"................", "................", "................", "................",
                          "................", "................", "................", "................"};
    nav_grid *grid;
    nav_world *w = grid_world(rows, 8, &grid);
    nav_crowd *crowd;
    assert_int_equal(nav_crowd_create(w, NULL, &crowd), NAV_SUCCESS);
    enum { ROW = 7 };
    for (uint32_t i = 0; i < ROW; i++) {
        uint32_t id;
        nav_vec3 at = {5 + 0.6f * (float)i, 0, 4};
        assert_int_equal(nav_crowd_add_agent(crowd, at, &walker, &id), NAV_SUCCESS);
    }
    double first = 0, last = 0;
    for (int k = 0; k < 10; k++) {
        assert_int_equal(nav_crowd_tick(crowd, 1.0 / 30), NAV_SUCCESS);
        nav_agent_info a[ROW];
        for (uint32_t i = 0; i < ROW; i++) {
            assert_true(nav_crowd_agent(crowd, i, &a[i]));
            check_on_surface(w, &a[i]);
        }
        last = 0;
        for (uint32_t i = 0; i < ROW; i++)
            for (uint32_t j = i + 1; j < ROW; j++)
                last = fmax(last,
                            2 * walker.radius - nav_vec3_dist_xz(a[i].place.position, a[j].place.position));
        if (k == 0) first = last;
    }
    print_message("a row parted: deepest overlap %.4f m after a tick, %.4f m after ten\n", first, last);
    assert_true(first < 0.05);
    assert_true(last < 0.002);
    nav_crowd_destroy(crowd);
    nav_world_destroy(w);
    nav_grid_destroy(grid);
}

/* A house of two floors over the same ground, 20 x 10 cells each (the upper one at y 4): a ladder
 * near the west end, stairs at the east end, and a jump down (one way) from the upper floor's
 * north-west corner. */
typedef struct house {
    nav_grid *ground, *upper;
    nav_world *w;
    uint32_t ladder, stairs, jump;
} house;

static void house_make(house *h)
{
    const char *rows[] = {"....................", "....................", "....................",
                          "....................", "....................", "....................",
                          "....................", "....................", "....................",
                          "...................."};
    h->ground = test_grid_from_rows(rows, 10, &(nav_grid_desc){.cell_size = 1});
    h->upper = test_grid_from_rows(rows, 10, &(nav_grid_desc){.cell_size = 1, .origin = {0, 4, 0}});
    nav_world_builder *b;
    assert_int_equal(nav_world_builder_create(NULL, NULL, &b), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_grid(b, "ground", h->ground, NULL), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_grid(b, "upper", h->upper, NULL), NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_link(b,
                                                &(nav_world_link_desc){.kind = NAV_LINK_LADDER,
                                                                       .from_region = 0,
                                                                       .from = {5.5f, 0, 5.5f},
                                                                       .to_region = 1,
                                                                       .to = {5.5f, 4, 6.5f}},
                                                &h->ladder),
                     NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_link(b,
                                                &(nav_world_link_desc){.kind = NAV_LINK_STAIRS,
                                                                       .from_region = 0,
                                                                       .from = {18.5f, 0, 8.5f},
                                                                       .to_region = 1,
                                                                       .to = {18.5f, 4, 1.5f},
                                                                       .cost = 10},
                                                &h->stairs),
                     NAV_SUCCESS);
    assert_int_equal(nav_world_builder_add_link(b,
                                                &(nav_world_link_desc){.kind = NAV_LINK_JUMP,
                                                                       .from_region = 1,
                                                                       .from = {0.5f, 4, 0.5f},
                                                                       .to_region = 0,
                                                                       .to = {0.5f, 0, 1.5f},
                                                                       .cost = 1,
                                                                       .one_way = true},
                                                &h->jump),
                     NAV_SUCCESS);
    assert_int_equal(nav_world_bake(b, NULL, &h->w), NAV_SUCCESS);
    nav_world_builder_destroy(b);
}

static void house_free(house *h)
{
    nav_world_destroy(h->w);
    nav_grid_destroy(h->ground);
    nav_grid_destroy(h->upper);
}

/* Walks the crowd's agent 0 to its goal (or `limit` seconds), draining the events into log (up to 64):
 * the seconds it took (INFINITY: not there). */
static double walk_events(const nav_world *w, nav_crowd *crowd, double limit, nav_crowd_event *log,
                          uint32_t *n)
{
    *n = 0;
    for (double t = 0; t < limit; t += 1.0 / 30) {
        assert_int_equal(nav_crowd_tick(crowd, 1.0 / 30), NAV_SUCCESS);
        nav_crowd_event e[8];
        for (uint32_t k = nav_crowd_events(crowd, e, 8), i = 0; i < k; i++)
            if (*n < 64) log[(*n)++] = e[i];
        nav_agent_info a;
        assert_true(nav_crowd_agent(crowd, 0, &a));
        if (a.state != NAV_AGENT_ON_LINK) check_on_surface(w, &a);
        if (a.state == NAV_AGENT_ARRIVED) return t;
    }
    return INFINITY;
}

/* The events of a walk: up the ladder (its start and end, with its kind and ends), and the arrival;
 * the engine crossing the link itself; down the one-way jump, and up again by the ladder (the jump
 * is never taken upwards). */
static void test_links_and_events(void **state)
{
    (void)state;
    house h;
    house_make(&h);
    for (int engine = 0; engine < 2; engine++) {
        nav_crowd *crowd;
        assert_int_equal(nav_crowd_create(h.w, NULL, &crowd), NAV_SUCCESS);
        nav_agent_params p = walker;
        p.engine_crosses_links = engine;
        uint32_t id;
        assert_int_equal(nav_crowd_add_agent(crowd, (nav_vec3){1.5f, 0, 8.5f}, &p, &id), NAV_SUCCESS);
        assert_int_equal(nav_crowd_set_goal(crowd, id, (nav_vec3){1.5f, 4, 8.5f}), NAV_SUCCESS);
        nav_crowd_event log[64];
        uint32_t n = 0;
        if (engine) { /* the crowd leaves it at the ladder's foot until the engine says it is up */
            nav_agent_info a;
            for (int k = 0; k < 300; k++) {
                assert_int_equal(nav_crowd_tick(crowd, 1.0 / 30), NAV_SUCCESS);
                n += nav_crowd_events(crowd, log + n, 64 - n);
                assert_true(nav_crowd_agent(crowd, id, &a));
                if (a.state == NAV_AGENT_ON_LINK) break;
            }
            assert_int_equal(a.state, NAV_AGENT_ON_LINK);
            nav_vec3 foot = a.place.position;
            for (int k = 0; k < 30; k++) assert_int_equal(nav_crowd_tick(crowd, 1.0 / 30), NAV_SUCCESS);
            assert_true(nav_crowd_agent(crowd, id, &a));
            assert_true(a.state == NAV_AGENT_ON_LINK && nav_vec3_dist(a.place.position, foot) == 0);
            FAILS_WITH(nav_crowd_finish_link(crowd, 1), NAV_INVALID_PARAM);
            assert_int_equal(nav_crowd_finish_link(crowd, id), NAV_SUCCESS);
            FAILS_WITH(nav_crowd_finish_link(crowd, id), NAV_INVALID_PARAM); /* (across already) */
            assert_true(nav_crowd_agent(crowd, id, &a));
            assert_true(a.state == NAV_AGENT_MOVING && a.place.region == 1);
        }
        uint32_t more;
        assert_true(walk_events(h.w, crowd, 20, log + n, &more) < INFINITY);
        n += more;
        assert_int_equal(n, 3);
        assert_true(log[0].type == NAV_CROWD_LINK_START && log[0].agent == id && log[0].link == h.ladder &&
                    log[0].kind == NAV_LINK_LADDER);
        assert_true(nav_vec3_dist(log[0].from, (nav_vec3){5.5f, 0, 5.5f}) < 1e-5f &&
                    nav_vec3_dist(log[0].to, (nav_vec3){5.5f, 4, 6.5f}) < 1e-5f);
        assert_true(log[1].type == NAV_CROWD_LINK_END && log[1].link == h.ladder);
        assert_true(log[2].type == NAV_CROWD_ARRIVED && log[2].link == NAV_WORLD_NONE);
        /* down by the jump, up by the stairs */
        assert_int_equal(nav_crowd_set_goal(crowd, id, (nav_vec3){1.5f, 0, 2.5f}), NAV_SUCCESS);
        (void)nav_crowd_events(crowd, log, 64);
        if (engine) {
            nav_crowd_destroy(crowd);
            continue;
        }
        assert_true(walk_events(h.w, crowd, 20, log, &n) < INFINITY);
        assert_true(n == 3 && log[0].link == h.jump && log[0].kind == NAV_LINK_JUMP && log[1].link == h.jump);
        assert_int_equal(nav_crowd_set_goal(crowd, id, (nav_vec3){0.5f, 4, 0.5f}), NAV_SUCCESS);
        assert_true(walk_events(h.w, crowd, 40, log, &n) < INFINITY);
        assert_true(n == 3 && log[0].link == h.ladder &&
                    log[1].link == h.ladder); /* (not the jump, next to it) */
        assert_int_equal(nav_crowd_events_lost(crowd), 0);
        nav_crowd_destroy(crowd);
    }
    house_free(&h);
}

/* The ladder and the stairs both switched off before the agent gets there: it finds no other way and
 * waits at the ladder's foot; after closed_wait it plans again, and, the stairs open by then, goes by
 * them (case 0); the ladder switched on again while it waits, it climbs it (case 1). The ladder alone
 * switched off (case 2): it plans again at once, before it gets there, and goes by the stairs. */
static void test_closed_ladder(void **state)
{
    (void)state;
    house h;
    house_make(&h);
    for (int run = 0; run < 3; run++) {
        nav_world_link_change open[2] = {{h.ladder, true}, {h.stairs, true}},
                              closed[2] = {{h.ladder, false}, {h.stairs, false}};
        assert_int_equal(nav_world_set_links(h.w, open, 2), NAV_SUCCESS);
        nav_crowd *crowd;
        assert_int_equal(nav_crowd_create(h.w, &(nav_crowd_desc){.closed_wait = 1.5f}, &crowd), NAV_SUCCESS);
        uint32_t id;
        assert_int_equal(nav_crowd_add_agent(crowd, (nav_vec3){1.5f, 0, 8.5f}, &walker, &id), NAV_SUCCESS);
        assert_int_equal(nav_crowd_set_goal(crowd, id, (nav_vec3){1.5f, 4, 8.5f}), NAV_SUCCESS);
        assert_int_equal(nav_world_set_links(h.w, closed, run == 2 ? 1 : 2), NAV_SUCCESS);
        nav_agent_info a;
        double waited = 0;
        for (int k = 0; k < (run == 2 ? 3 : 300) && waited < (run == 1 ? 0.5 : 10); k++) {
            assert_int_equal(nav_crowd_tick(crowd, 1.0 / 30), NAV_SUCCESS);
            assert_true(nav_crowd_agent(crowd, id, &a));
            if (a.state == NAV_AGENT_WAITING) waited += 1.0 / 30;
            if (run == 0 && waited >= 0.5 && !nav_world_link_enabled(h.w, h.stairs))
                assert_int_equal(nav_world_set_links(h.w, &open[1], 1), NAV_SUCCESS);
            if (waited > 0 && a.state != NAV_AGENT_WAITING) break;
        }
        nav_crowd_event log[64];
        uint32_t n = nav_crowd_events(crowd, log, 64);
        if (run == 2) { /* it planned again at once: it never came to the ladder */
            assert_true(waited == 0);
            assert_true(n >= 1 && log[0].type == NAV_CROWD_REPLANNED);
        } else {
            assert_true(n >= 1 && log[0].type == NAV_CROWD_LINK_CLOSED && log[0].link == h.ladder);
            assert_true(nav_vec3_dist_xz(a.place.position, (nav_vec3){5.5f, 0, 5.5f}) <= walker.radius);
        }
        if (run == 1) {
            assert_int_equal(a.state, NAV_AGENT_WAITING);
            assert_int_equal(nav_world_set_links(h.w, open, 1), NAV_SUCCESS);
        } else if (run == 0) { /* it waited about closed_wait, then planned again */
            assert_true(fabs(waited - 1.5) < 0.1);
            assert_true(n >= 2 && log[1].type == NAV_CROWD_REPLANNED);
        }
        uint32_t more;
        assert_true(walk_events(h.w, crowd, 40, log, &more) < INFINITY);
        assert_true(more >= 3 && log[0].type == NAV_CROWD_LINK_START);
        assert_int_equal(log[0].link, run == 1 ? h.ladder : h.stairs);
        nav_crowd_destroy(crowd);
    }
    assert_int_equal(nav_world_set_links(h.w, &(nav_world_link_change){h.ladder, true}, 1), NAV_SUCCESS);
    house_free(&h);
}

/* An agent that takes no ladder (excluded_links) goes up the house's stairs where another climbs the
 * ladder, and arrives; a world query that excludes ladders and stairs finds no way up (the jump
 * goes down only), and one that excludes nothing again climbs the ladder. */
static void test_links_excluded(void **state)
{
    (void)state;
    house h;
    house_make(&h);
    for (int run = 0; run < 2; run++) {
        nav_crowd *crowd;
        assert_int_equal(nav_crowd_create(h.w, NULL, &crowd), NAV_SUCCESS);
        nav_agent_params p = walker;
        p.excluded_links = run ? 1u << NAV_LINK_LADDER : 0;
        uint32_t id;
        assert_int_equal(nav_crowd_add_agent(crowd, (nav_vec3){1.5f, 0, 8.5f}, &p, &id), NAV_SUCCESS);
        assert_int_equal(nav_crowd_set_goal(crowd, id, (nav_vec3){1.5f, 4, 8.5f}), NAV_SUCCESS);
        nav_crowd_event log[64];
        uint32_t more;
        assert_true(walk_events(h.w, crowd, 40, log, &more) < INFINITY);
        assert_true(more >= 2 && log[0].type == NAV_CROWD_LINK_START);
        assert_int_equal(log[0].link, run ? h.stairs : h.ladder);
        nav_crowd_destroy(crowd);
    }
    nav_world_query *q;
    assert_int_equal(nav_world_query_create(h.w, NULL, &q), NAV_SUCCESS);
    nav_path path;
    nav_path_init(&path, NULL);
    nav_world_result r;
    nav_world_query_exclude_links(q, 1u << NAV_LINK_LADDER | 1u << NAV_LINK_STAIRS);
    nav_status s = nav_world_find_path(q, (nav_vec3){1.5f, 0, 8.5f}, (nav_vec3){1.5f, 4, 8.5f}, &path, &r);
    assert_true(nav_has_detail(s, NAV_UNREACHABLE));
    nav_world_query_exclude_links(q, 0);
    assert_int_equal(nav_world_find_path(q, (nav_vec3){1.5f, 0, 8.5f}, (nav_vec3){1.5f, 4, 8.5f}, &path, &r),
                     NAV_SUCCESS);
    uint32_t legs;
    const nav_world_leg *leg = nav_world_query_legs(q, &legs);
    assert_true(legs == 2 && leg[0].link == h.ladder);
    nav_path_destroy(&path);
    nav_world_query_destroy(q);
    house_free(&h);
}

/* A random place of the village for the agents (ground or the house's upper floor). */
/* A field with a pond (terrain 2, as dear as the grass) between start and goal, walked as a navmesh
 * built from it (the filter a mesh filter) or as the grid itself (a grid filter; way: searched as a
 * grid, or through HPA*, then cell by cell under the filter). The world's answers
 * under a filter that leaves water out (moves, sight, walls); then an agent that swims crosses it;
 * one whose filter leaves water out goes round, on dry ground at every tick (its centre never inside
 * the pond, its polygon or cell never water) with three others that swim across its way; one for
 * whom water costs three times the grass goes round too. */
typedef enum { ON_MESH, ON_GRID, ON_GRID_HPA } pond_way;

static void water_kept_out(pond_way way)
{
    bool on_grid = way != ON_MESH;
    const char *rows[] = {"....................", "....................", "......22222222......",
                          "......22222222......", "......22222222......", "......22222222......",
                          "......22222222......", "....................", "...................."};
    nav_grid *grid = test_grid_from_rows(rows, 9, &(nav_grid_desc){.cell_size = 1});
    assert_int_equal(nav_grid_set_terrain_cost(grid, 2, 1), NAV_SUCCESS);
    nav_mesh *mesh = NULL;
    if (!on_grid) assert_int_equal(nav_mesh_build_from_grid(grid, NULL, &mesh), NAV_SUCCESS);
    nav_hpa *hpa = NULL;
    nav_world *w;
    if (way == ON_GRID_HPA) {
        assert_int_equal(nav_hpa_bake(grid, &(nav_hpa_desc){.cluster_size = 4, .levels = 1}, &hpa),
                         NAV_SUCCESS);
        nav_world_builder *b;
        assert_int_equal(nav_world_builder_create(NULL, NULL, &b), NAV_SUCCESS);
        assert_int_equal(nav_world_builder_add_grid_hpa(b, "ground", grid, hpa, NULL), NAV_SUCCESS);
        assert_int_equal(nav_world_bake(b, NULL, &w), NAV_SUCCESS);
        nav_world_builder_destroy(b);
    } else {
        w = world_of(on_grid ? grid : NULL, mesh);
    }
    double dry[256], dear[256];
    for (int t = 0; t < 256; t++) dry[t] = dear[t] = 1;
    dry[2] = NAV_COST_BLOCKED, dear[2] = 3;
    const nav_mesh_filter no_water = {.area_cost = dry}, dear_water = {.area_cost = dear};
    nav_grid_filter dry_cells, dear_cells;
    nav_grid_filter_init(&dry_cells, grid), nav_grid_filter_init(&dear_cells, grid);
    dry_cells.terrain_cost[2] = NAV_COST_BLOCKED, dear_cells.terrain_cost[2] = 3;
    nav_agent_params walks = walker, wades = walker;
    if (on_grid)
        walks.grid_filter = &dry_cells, wades.grid_filter = &dear_cells;
    else
        walks.mesh_filter = &no_water, wades.mesh_filter = &dear_water;
    const nav_agent_params *kinds[3] = {&walker, &walks, &wades};
    /* the world's answers for agents under the filter: a move into the pond stops at its edge, the
     * far bank is out of sight across it, and its edge is a wall (none of them without the filter) */
    nav_world_query *q;
    assert_int_equal(nav_world_query_create(w, NULL, &q), NAV_SUCCESS);
    nav_world_place bank;
    assert_int_equal(nav_world_locate(w, (nav_vec3){5.5f, 0, 4.5f}, &bank), NAV_SUCCESS);
    for (int k = 0; k < 2; k++) {
        if (on_grid)
            assert_int_equal(nav_world_query_set_grid_filter(q, k ? &dry_cells : NULL), NAV_SUCCESS);
        else
            assert_int_equal(nav_world_query_set_mesh_filter(q, k ? &no_water : NULL), NAV_SUCCESS);
        nav_world_place moved;
        assert_int_equal(nav_world_move(q, &bank, (nav_vec3){10.5f, 0, 4.5f}, &moved), NAV_SUCCESS);
        uint8_t area = on_grid ? nav_grid_cell(grid, (int32_t)(moved.id % 20), (int32_t)(moved.id / 20)) : 0;
        nav_mesh_poly_info info;
        if (!on_grid) assert_true(nav_mesh_poly(mesh, moved.id, &info)), area = info.area;
        assert_true(k ? moved.position.x <= 6 + 1e-4f && area != 2 : moved.position.x == 10.5f);
        bool sees;
        assert_int_equal(nav_world_sees(q, &bank, (nav_vec3){15.5f, 0, 4.5f}, &sees), NAV_SUCCESS);
        assert_true(sees == !k);
        nav_wall walls[16];
        uint32_t n, at_edge = 0;
        assert_int_equal(nav_world_walls(q, &bank, 2, walls, 16, &n), NAV_SUCCESS);
        for (uint32_t i = 0; i < n && i < 16; i++) at_edge += walls[i].a.x == 6 && walls[i].b.x == 6;
        assert_true(k ? at_edge > 0 : n == 0);
    }
    nav_world_query_destroy(q);
    double took[3];
    for (int k = 0; k < 3; k++) {
        nav_crowd *crowd;
        assert_int_equal(nav_crowd_create(w, NULL, &crowd), NAV_SUCCESS);
        uint32_t id, other;
        assert_int_equal(nav_crowd_add_agent(crowd, (nav_vec3){1.5f, 0, 4.5f}, kinds[k], &id), NAV_SUCCESS);
        assert_int_equal(nav_crowd_set_goal(crowd, id, (nav_vec3){18.5f, 0, 4.5f}), NAV_SUCCESS);
        for (int j = 0; j < 3; j++) { /* (swimmers from the north, across its way round) */
            assert_int_equal(nav_crowd_add_agent(crowd, (nav_vec3){6.5f + 3 * j, 0, 0.5f}, &walker, &other),
                             NAV_SUCCESS);
            assert_int_equal(nav_crowd_set_goal(crowd, other, (nav_vec3){7.5f + 3 * j, 0, 8.5f}),
                             NAV_SUCCESS);
        }
        nav_agent_info a;
        bool wet = false;
        int t = 0;
        for (; t < 900; t++) {
            assert_int_equal(nav_crowd_tick(crowd, 1.0 / 30), NAV_SUCCESS);
            assert_true(nav_crowd_agent(crowd, id, &a));
            check_on_surface(w, &a);
            uint8_t area =
                on_grid ? nav_grid_cell(grid, (int32_t)(a.place.id % 20), (int32_t)(a.place.id / 20)) : 0;
            nav_mesh_poly_info info;
            if (!on_grid) assert_true(nav_mesh_poly(mesh, a.place.id, &info)), area = info.area;
            nav_vec3 p = a.place.position;
            bool in_pond = p.x > 6 + 1e-4f && p.x < 14 - 1e-4f && p.z > 2 + 1e-4f && p.z < 7 - 1e-4f;
            if (k == 1) assert_true(!in_pond && area != 2);
            wet |= in_pond;
            if (a.state == NAV_AGENT_ARRIVED) break;
        }
        assert_int_equal(a.state, NAV_AGENT_ARRIVED);
        assert_true(wet == (k == 0));
        took[k] = t / 30.0;
        nav_crowd_destroy(crowd);
    }
    print_message("pond (%s): the swimmer across in %.2f s, the others round in %.2f and %.2f s\n",
                  way == ON_MESH   ? "navmesh"
                  : way == ON_GRID ? "grid"
                                   : "grid through HPA*",
                  took[0], took[1], took[2]);
    assert_true(took[0] < took[1] && took[0] < took[2]);
    nav_world_destroy(w);
    nav_hpa_destroy(hpa);
    nav_mesh_destroy(mesh);
    nav_grid_destroy(grid);
}

static void test_water_kept_out(void **state)
{
    (void)state;
    water_kept_out(ON_MESH);
}

static void test_water_kept_out_of_grid(void **state)
{
    (void)state;
    water_kept_out(ON_GRID);
}

static void test_water_kept_out_of_grid_hpa(void **state)
{
    (void)state;
    water_kept_out(ON_GRID_HPA);
}

static nav_vec3 somewhere(void)
{
    return (nav_vec3){(float)(rand() % 1300) / 10.0f, rand() % 4 == 0 ? 3.2f : 0.2f,
                      (float)(rand() % 300) / 10.0f};
}

/* The same crowd (150 agents with random starts and goals across the village, every third with a
 * grid filter, its bridge raised for a while, agents taken away and added) ticked on 1, 2 and 5
 * threads side by side (their plans again searched over the threads): after every tick the same
 * agents to the bit and the same events. */
static void test_same_on_any_thread_count(void **state)
{
    (void)state;
    nav_world *w = village();
    uint32_t bridge = village_bridge(w);
    enum { AGENTS = 150, COUNTS = 3 };
    const uint32_t threads[COUNTS] = {1, 2, 5};
    nav_crowd *crowd[COUNTS];
    for (int t = 0; t < COUNTS; t++)
        assert_int_equal(
            nav_crowd_create(w, &(nav_crowd_desc){.max_agents = AGENTS, .threads = threads[t]}, &crowd[t]),
            NAV_SUCCESS);
    srand(11);
    /* (every third agent with a grid filter that makes the house's floors dearer: its plans lazy) */
    nav_grid_filter dear;
    nav_grid_filter_init(&dear, NULL);
    for (int t = 1; t < 256; t++) dear.terrain_cost[t] = 1.5;
    nav_agent_params careful = walker;
    careful.grid_filter = &dear;
    for (uint32_t i = 0; i < AGENTS; i++) {
        nav_vec3 start = somewhere(), goal;
        uint32_t id[COUNTS];
        const nav_agent_params *kind = i % 3 ? &walker : &careful;
        while (nav_failed(nav_crowd_add_agent(crowd[0], start, kind, &id[0]))) start = somewhere();
        do goal = somewhere();
        while (nav_crowd_set_goal(crowd[0], id[0], goal) != NAV_SUCCESS);
        for (int t = 1; t < COUNTS; t++) {
            assert_int_equal(nav_crowd_add_agent(crowd[t], start, kind, &id[t]), NAV_SUCCESS);
            assert_int_equal(nav_crowd_set_goal(crowd[t], id[t], goal), NAV_SUCCESS);
            assert_int_equal(id[t], id[0]);
        }
    }
    uint32_t moving_at_end = 0, replans = 0;
    for (int k = 0; k < 600; k++) {
        if (k == 100 || k == 250) /* the bridge up, then down */
            assert_int_equal(nav_world_set_links(w, &(nav_world_link_change){bridge, k == 250}, 1),
                             NAV_SUCCESS);
        for (int t = 0; t < COUNTS; t++) {
            if (k == 300) /* ten agents go and others come */
                for (uint32_t i = 0; i < 10; i++) {
                    assert_int_equal(nav_crowd_remove_agent(crowd[t], 7 * i), NAV_SUCCESS);
                    assert_int_equal(nav_crowd_add_agent(crowd[t], (nav_vec3){30.5f, 0, 8.5f}, &walker, NULL),
                                     NAV_SUCCESS);
                    assert_int_equal(nav_crowd_set_goal(crowd[t], 7 * i, (nav_vec3){125.5f, 0, 20.5f}),
                                     NAV_SUCCESS);
                }
            assert_int_equal(nav_crowd_tick(crowd[t], 1.0 / 30), NAV_SUCCESS);
        }
        nav_crowd_event first[64], other[64];
        uint32_t n = nav_crowd_events(crowd[0], first, 64);
        for (uint32_t e = 0; e < n; e++) replans += first[e].type == NAV_CROWD_REPLANNED;
        for (int t = 1; t < COUNTS; t++) {
            assert_int_equal(nav_crowd_events(crowd[t], other, 64), n);
            assert_memory_equal(first, other, n * sizeof *first);
        }
        for (uint32_t i = 0; i < AGENTS; i++) {
            nav_agent_info a, b;
            assert_true(nav_crowd_agent(crowd[0], i, &a));
            for (int t = 1; t < COUNTS; t++) {
                assert_true(nav_crowd_agent(crowd[t], i, &b));
                assert_memory_equal(&a.place, &b.place, sizeof a.place);
                assert_memory_equal(&a.velocity, &b.velocity, sizeof a.velocity);
                assert_int_equal(a.state, b.state);
                assert_int_equal(a.corner, b.corner);
            }
            moving_at_end += k == 599 && a.state == NAV_AGENT_MOVING;
        }
    }
    /* (they were busy: the test would say little of a crowd standing still) */
    assert_true(replans > 0);
    assert_true(moving_at_end < AGENTS);
    for (int t = 0; t < COUNTS; t++) nav_crowd_destroy(crowd[t]);
    nav_world_destroy(w);
}

typedef struct other_thread {
    nav_world *w;
    uint32_t bridge;
    atomic_bool stop;
    atomic_long queries, bad;
} other_thread;

/* Plans across the village on its own query object until told to stop. */
static void *other_queries(void *arg)
{
    other_thread *o = arg;
    nav_world_query *q;
    if (nav_failed(nav_world_query_create(o->w, NULL, &q))) {
        atomic_fetch_add(&o->bad, 1);
        atomic_store(&o->queries, 1000); /* (the test's thread stops waiting for it) */
        return NULL;
    }
    nav_path path;
    nav_path_init(&path, NULL);
    while (!atomic_load(&o->stop)) {
        nav_world_result r;
        nav_status s =
            nav_world_find_path(q, (nav_vec3){12.5f, 3, 8.5f}, (nav_vec3){125.5f, 0, 20.5f}, &path, &r);
        if (s != NAV_SUCCESS && s != (NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE))
            atomic_fetch_add(&o->bad, 1); /* (cmocka's asserts belong to the test's own thread) */
        atomic_fetch_add(&o->queries, 1);
    }
    nav_path_destroy(&path);
    nav_world_query_destroy(q);
    return NULL;
}

/* Raises and lowers the bridge until told to stop, and leaves it down. */
static void *toggle_bridge(void *arg)
{
    other_thread *o = arg;
    for (int k = 0; !atomic_load(&o->stop); k++) {
        nav_world_set_links(o->w, &(nav_world_link_change){o->bridge, k % 2 == 0}, 1);
        struct timespec pause = {0, 2000000};
        nanosleep(&pause, NULL);
    }
    nav_world_set_links(o->w, &(nav_world_link_change){o->bridge, true}, 1);
    return NULL;
}

/* The world is queried from other threads and its bridge raised and lowered while a crowd walks it
 * (the crowd on two threads; run under ThreadSanitizer in CI): every tick succeeds, the other thread's
 * queries answer, and once the bridge stays down everyone arrives. */
static void test_world_used_during_ticks(void **state)
{
    (void)state;
    nav_world *w = village();
    other_thread o = {.w = w, .bridge = village_bridge(w)};
    atomic_init(&o.stop, false);
    atomic_init(&o.queries, 0);
    atomic_init(&o.bad, 0);
    nav_crowd *crowd;
    assert_int_equal(nav_crowd_create(w, &(nav_crowd_desc){.closed_wait = 0.5f, .threads = 2}, &crowd),
                     NAV_SUCCESS);
    const nav_vec3 goals[5] = {
        {125.5f, 0, 20.5f}, {72, 0, 18}, {12.5f, 3, 8.5f}, {3.5f, 0.2f, 8.5f}, {3.5f, 3.2f, 8.5f}};
    for (uint32_t i = 0; i < 5; i++) {
        uint32_t id;
        assert_int_equal(nav_crowd_add_agent(crowd, (nav_vec3){30.5f + (float)i, 0, 8.5f}, &walker, &id),
                         NAV_SUCCESS);
        assert_int_equal(nav_crowd_set_goal(crowd, id, goals[i]), NAV_SUCCESS);
    }
    pthread_t querying, toggling;
    assert_int_equal(pthread_create(&querying, NULL, other_queries, &o), 0);
    assert_int_equal(pthread_create(&toggling, NULL, toggle_bridge, &o), 0);
    /* ticks while the others run (at least 150, and until the other thread has planned 20 times) */
    for (int k = 0; k < 150 || atomic_load(&o.queries) < 20; k++)
        assert_int_equal(nav_crowd_tick(crowd, 1.0 / 30), NAV_SUCCESS);
    atomic_store(&o.stop, true);
    pthread_join(querying, NULL);
    pthread_join(toggling, NULL);
    assert_int_equal(atomic_load(&o.bad), 0);
    uint32_t arrived = 0;
    for (int k = 0; k < 6000 && arrived < 5; k++) {
        assert_int_equal(nav_crowd_tick(crowd, 1.0 / 30), NAV_SUCCESS);
        arrived = 0;
        for (uint32_t i = 0; i < 5; i++) {
            nav_agent_info a;
            assert_true(nav_crowd_agent(crowd, i, &a));
            arrived += a.state == NAV_AGENT_ARRIVED;
        }
    }
    assert_int_equal(arrived, 5);
    nav_crowd_destroy(crowd);
    nav_world_destroy(w);
}

/* With the bridge up, the east town is out of reach: the agent says so and stands. */
static void test_no_route(void **state)
{
    (void)state;
    nav_world *w = village();
    uint32_t bridge = village_bridge(w);
    assert_int_not_equal(bridge, NAV_WORLD_NONE);
    assert_int_equal(nav_world_set_links(w, &(nav_world_link_change){bridge, false}, 1), NAV_SUCCESS);
    nav_crowd *crowd;
    assert_int_equal(nav_crowd_create(w, NULL, &crowd), NAV_SUCCESS);
    uint32_t id;
    assert_int_equal(nav_crowd_add_agent(crowd, (nav_vec3){30.5f, 0, 8.5f}, &walker, &id), NAV_SUCCESS);
    assert_int_equal(nav_crowd_set_goal(crowd, id, (nav_vec3){125.5f, 0, 20.5f}),
                     NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE);
    nav_agent_info a, b;
    assert_true(nav_crowd_agent(crowd, id, &a));
    assert_int_equal(a.state, NAV_AGENT_NO_ROUTE);
    assert_int_equal(nav_crowd_tick(crowd, 0.1), NAV_SUCCESS);
    assert_true(nav_crowd_agent(crowd, id, &b));
    assert_memory_equal(&a.place, &b.place, sizeof a.place);
    nav_crowd_destroy(crowd);
    nav_world_destroy(w);
}

/* Bad input gets a clear status and changes nothing. */
static void test_bad_input(void **state)
{
    (void)state;
    nav_world *w = village();
    nav_crowd *crowd = (nav_crowd *)1;
    FAILS_WITH(nav_crowd_create(NULL, NULL, &crowd), NAV_INVALID_PARAM);
    assert_null(crowd);
    FAILS_WITH(nav_crowd_create(w, NULL, NULL), NAV_INVALID_PARAM);
    assert_int_equal(nav_crowd_create(w, NULL, &crowd), NAV_SUCCESS);
    const nav_vec3 home = {30.5f, 0, 8.5f};
    nav_agent_params bad[] = {walker, walker, walker, walker, walker, walker, walker, walker};
    double nan_cost[256];
    for (int t = 0; t < 256; t++) nan_cost[t] = t == 9 ? NAN : 1;
    const nav_mesh_filter no_cost = {.area_cost = nan_cost};
    nav_grid_filter below_min;
    nav_grid_filter_init(&below_min, NULL);
    below_min.terrain_cost[3] = NAV_COST_MIN / 2;
    bad[0].radius = 0, bad[1].radius = -1, bad[2].height = 0, bad[3].max_speed = NAN,
    bad[4].max_accel = INFINITY, bad[5].max_speed = -3, bad[6].mesh_filter = &no_cost,
    bad[7].grid_filter = &below_min;
    uint32_t id = 7;
    for (int i = 0; i < 8; i++) FAILS_WITH(nav_crowd_add_agent(crowd, home, &bad[i], &id), NAV_INVALID_PARAM);
    FAILS_WITH(nav_crowd_add_agent(crowd, home, NULL, &id), NAV_INVALID_PARAM);
    FAILS_WITH(nav_crowd_add_agent(crowd, (nav_vec3){NAN, 0, 0}, &walker, &id), NAV_INVALID_PARAM);
    FAILS_WITH(nav_crowd_add_agent(crowd, (nav_vec3){30.5f, INFINITY, 8.5f}, &walker, &id),
               NAV_INVALID_PARAM);
    FAILS_WITH(nav_crowd_add_agent(crowd, (nav_vec3){-500, 0, -500}, &walker, &id), NAV_INVALID_PARAM);
    assert_int_equal(id, UINT32_MAX);
    assert_int_equal(nav_crowd_add_agent(crowd, home, &walker, &id), NAV_SUCCESS);
    assert_int_equal(id, 0); /* (no failed call took an id) */
    nav_agent_info before, after;
    assert_true(nav_crowd_agent(crowd, id, &before));
    FAILS_WITH(nav_crowd_set_goal(crowd, id, (nav_vec3){NAN, 0, 0}), NAV_INVALID_PARAM);
    FAILS_WITH(nav_crowd_set_goal(crowd, id, (nav_vec3){-500, 0, -500}),
               NAV_INVALID_PARAM);                                     /* off every surface */
    FAILS_WITH(nav_crowd_set_goal(crowd, 1, home), NAV_INVALID_PARAM); /* no such agent */
    FAILS_WITH(nav_crowd_set_goal(crowd, UINT32_MAX, home), NAV_INVALID_PARAM);
    FAILS_WITH(nav_crowd_remove_agent(crowd, 5), NAV_INVALID_PARAM);
    FAILS_WITH(nav_crowd_clear_goal(crowd, 5), NAV_INVALID_PARAM);
    FAILS_WITH(nav_crowd_tick(crowd, 0), NAV_INVALID_PARAM);
    FAILS_WITH(nav_crowd_tick(crowd, -1), NAV_INVALID_PARAM);
    FAILS_WITH(nav_crowd_tick(crowd, NAN), NAV_INVALID_PARAM);
    FAILS_WITH(nav_crowd_tick(NULL, 0.1), NAV_INVALID_PARAM);
    assert_true(nav_crowd_agent(crowd, id, &after));
    assert_memory_equal(&before, &after, sizeof before);
    assert_int_equal(after.state, NAV_AGENT_IDLE);
    assert_false(nav_crowd_agent(crowd, 3, &after));
    uint32_t n = 9;
    assert_null(nav_crowd_agent_route(crowd, 3, &n));
    assert_int_equal(n, 0);
    nav_crowd_destroy(crowd);
    nav_crowd_destroy(NULL);
    nav_world_destroy(w);
}

/* Every allocation of the crowd failing in turn, on one thread and on three (the pool's threads
 * allocate too): NAV_OUT_OF_MEMORY, nothing leaked, and once there is room the walk is the one
 * without failures. */
static void test_allocation_failures(void **state)
{
    (void)state;
    nav_world *w = village();
    const nav_vec3 from = {3.5f, 0.2f, 8.5f}, to = {72, 0, 18};
    double costs[256]; /* (on three threads, a mesh filter of the mesh's costs: its lazy plan's room too) */
    for (int t = 0; t < 256; t++) costs[t] = 1;
    const nav_mesh_filter same = {.area_cost = costs};
    nav_grid_filter dear; /* (and a grid filter that doubles every cost: lazy plans on the house's grids) */
    nav_grid_filter_init(&dear, NULL);
    for (int t = 1; t < 256; t++) dear.terrain_cost[t] = 2;
    nav_agent_params filtered = walker;
    filtered.mesh_filter = &same, filtered.grid_filter = &dear;
    for (uint32_t threads = 1; threads <= 3; threads += 2) {
        bool done = false;
        for (long fail_at = 1; !done && fail_at < 1000; fail_at++) {
            test_allocator t;
            test_allocator_init(&t, fail_at);
            nav_crowd *crowd = NULL;
            uint32_t id;
            nav_status s = nav_crowd_create(
                w, &(nav_crowd_desc){.allocator = &t.hooks, .max_agents = 2, .threads = threads}, &crowd);
            if (!nav_failed(s)) s = nav_crowd_add_agent(crowd, from, threads > 1 ? &filtered : &walker, &id);
            if (!nav_failed(s)) s = nav_crowd_set_goal(crowd, id, to);
            for (int k = 0; k < 600 && !nav_failed(s); k++) s = nav_crowd_tick(crowd, 0.1);
            if (nav_failed(s)) {
                assert_int_equal(s, NAV_FAILURE | NAV_OUT_OF_MEMORY);
            } else {
                nav_agent_info a;
                assert_true(nav_crowd_agent(crowd, id, &a));
                assert_int_equal(a.state, NAV_AGENT_ARRIVED);
                done = true;
            }
            nav_crowd_destroy(crowd);
            assert_int_equal(t.live, 0);
        }
        assert_true(done);
    }
    nav_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_through_the_village),
        cmocka_unit_test(test_village_on_demand),
        cmocka_unit_test(test_random_walks),
        cmocka_unit_test(test_two_pass_in_a_corridor),
        cmocka_unit_test(test_walls_kept),
        cmocka_unit_test(test_follow),
        cmocka_unit_test(test_flow_shared),
        cmocka_unit_test(test_jam_resolves),
        cmocka_unit_test(test_crowds_cross),
        cmocka_unit_test(test_stand_apart),
        cmocka_unit_test(test_newcomer_avoided),
        cmocka_unit_test(test_corridor_corners_followed),
        cmocka_unit_test(test_twenty_through_a_door),
        cmocka_unit_test(test_row_parted),
        cmocka_unit_test(test_links_and_events),
        cmocka_unit_test(test_closed_ladder),
        cmocka_unit_test(test_links_excluded),
        cmocka_unit_test(test_water_kept_out),
        cmocka_unit_test(test_water_kept_out_of_grid),
        cmocka_unit_test(test_water_kept_out_of_grid_hpa),
        cmocka_unit_test(test_world_used_during_ticks),
        cmocka_unit_test(test_same_on_any_thread_count),
        cmocka_unit_test(test_no_route),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_allocation_failures),
    };
    return cmocka_run_group_tests_name("agents", tests, NULL, NULL);
}
