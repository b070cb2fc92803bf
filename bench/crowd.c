/* A crowd on a level (issue 44's benchmark, libnav's side; bench/crowd_detour.cpp is DetourCrowd's):
 * the generated plaza (S x S metres of floor at height 0 with square holes 2 m wide every 20 m, the
 * pillars) or a level read from an .obj file, made into a navigation mesh from its triangles with
 * the agent's settings (radius 0.4, height 2, climb 0.4, slope 45 degrees, cells of 0.2 x 0.2 m);
 * N agents (radius 0.4 m, 1.5 m/s, 4 m/s^2) from random places on the mesh, each to a random goal
 * of its own that it can reach and come back from; 30 ticks a second for T seconds. Prints one JSON
 * line: library, scene, agents, tick_mean_ms, tick_p99_ms, arrived (share within their radius of
 * their goals, across, at the end), travel_ratio (of those that arrived, the mean of the time to the
 * first tick within reach of the goal over the shortest path's length at full speed), overlap (the
 * penetration depth summed over pairs of agents, a tick's mean), off_surface (agent-ticks with an
 * agent off the walkable surface), peak_rss_mb, and crowd_bytes, polygons, build_ms.
 *
 * The agents can be written out (--write-agents FILE: a line an agent, its start x y z, its goal x
 * y z and the length of the shortest path libnav planned between them) and read back
 * (--read-agents FILE), and the plaza written as an .obj file (--write-obj FILE), so that
 * DetourCrowd walks the same agents on a mesh built from the same triangles (bench/crowd.sh).
 * --grid: the plaza as a grid region of 1 m cells instead (libnav only; the route there is the
 * 8-connected cells, whose corners agents cut, so travel_ratio is under 1).
 *
 * usage: crowd [--scene plaza|LEVEL.obj] [--agents N (1000)] [--seconds T (60)] [--side S (200)]
 *              [--cell C (0.2)] [--grid] [--seed X] [--threads N] [--write-obj FILE]
 *              [--write-agents FILE | --read-agents FILE] [--unarrived]
 * --unarrived: each agent not at its goal at the end, where it stands and its state, on stderr. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "nav/agents.h"
#include "nav/geometry.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t state = 1;
static uint32_t next(void)
{
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return (uint32_t)(state >> 32);
}
/* uniform in [0, 1) */
static double uniform(void)
{
    return next() / 4294967296.0;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ---- The plaza as triangles ---------------------------------------------------------------------- */

/* The lines that cut the plaza's floor into rectangles along one axis: 0, each pillar's two sides
 * (20 k + 10 and 20 k + 12, as the grid's pillar cells x % 20 in 10..11) and the far side S. */
static uint32_t plaza_lines(int side, float *lines)
{
    uint32_t count = 0;
    lines[count++] = 0;
    for (int at = 10; at < side; at += 20) {
        if (at + 2 <= side) lines[count++] = (float)at, lines[count++] = (float)(at + 2);
        if (at + 10 < side) lines[count++] = (float)(at + 10);
    }
    if (lines[count - 1] < (float)side) lines[count++] = (float)side;
    return count;
}

/* The plaza's floor: a rectangle between each pair of neighbouring lines in x and in z, two
 * triangles facing up (corners counter-clockwise seen from above), but none where a pillar stands
 * (the rectangles 2 m wide at 20 k + 10 both ways): the pillars are holes in the floor, so Recast and
 * libnav both keep the agent's radius from their edges as from the plaza's outer edge. Vertices are
 * shared between rectangles. Returns false when out of memory. */
static bool plaza_triangles(int side, float **vertices, uint32_t *vertex_count, uint32_t **indices,
                            uint32_t *triangle_count)
{
    float *lines = malloc((size_t)(side / 5 + 4) * sizeof *lines);
    if (!lines) return false;
    uint32_t count = plaza_lines(side, lines);
    float *v = malloc((size_t)count * count * 3 * sizeof *v);
    uint32_t *t = malloc((size_t)(count - 1) * (count - 1) * 6 * sizeof *t);
    if (!v || !t) return free(lines), free(v), free(t), false;
    for (uint32_t z = 0; z < count; z++)
        for (uint32_t x = 0; x < count; x++) {
            float *p = &v[(z * count + x) * 3];
            p[0] = lines[x], p[1] = 0, p[2] = lines[z];
        }
    uint32_t n = 0;
    for (uint32_t z = 0; z + 1 < count; z++)
        for (uint32_t x = 0; x + 1 < count; x++) {
            bool pillar_x = fmodf(lines[x], 20) == 10 && lines[x + 1] - lines[x] == 2,
                 pillar_z = fmodf(lines[z], 20) == 10 && lines[z + 1] - lines[z] == 2;
            if (pillar_x && pillar_z) continue;
            uint32_t a = z * count + x, b = (z + 1) * count + x, c = (z + 1) * count + x + 1,
                     d = z * count + x + 1;
            uint32_t *q = &t[n * 3];
            q[0] = a, q[1] = b, q[2] = c, q[3] = a, q[4] = c, q[5] = d;
            n += 2;
        }
    free(lines);
    *vertices = v, *vertex_count = count * count, *indices = t, *triangle_count = n;
    return true;
}

static bool write_obj(const char *path, const nav_triangles *t)
{
    FILE *f = fopen(path, "w");
    if (!f) return false;
    fprintf(f, "# the benchmark's plaza (bench/crowd.c)\n");
    for (uint32_t i = 0; i < t->vertex_count; i++)
        fprintf(f, "v %g %g %g\n", t->vertices[i * 3], t->vertices[i * 3 + 1], t->vertices[i * 3 + 2]);
    for (uint32_t i = 0; i < t->triangle_count; i++)
        fprintf(f, "f %u %u %u\n", t->indices[i * 3] + 1, t->indices[i * 3 + 1] + 1,
                t->indices[i * 3 + 2] + 1);
    return fclose(f) == 0;
}

/* ---- Random places on the mesh ------------------------------------------------------------------- */

/* Twice the area (seen from above) of the triangle a, b, c. */
static double twice_area_xz(nav_vec3 a, nav_vec3 b, nav_vec3 c)
{
    return fabs(((double)b.x - a.x) * ((double)c.z - a.z) - ((double)c.x - a.x) * ((double)b.z - a.z));
}

/* Twice polygon p's area seen from above (its fan's triangles'). */
static double poly_twice_area(const nav_mesh *m, uint32_t p)
{
    nav_mesh_poly_info info;
    nav_mesh_poly(m, p, &info);
    nav_vec3 a = nav_mesh_vert(m, info.verts[0]);
    double twice = 0;
    for (uint32_t k = 2; k < info.vert_count; k++)
        twice += twice_area_xz(a, nav_mesh_vert(m, info.verts[k - 1]), nav_mesh_vert(m, info.verts[k]));
    return twice;
}

/* A random point on the mesh, every square metre as likely as any other (seen from above): a
 * polygon drawn by its area (area_sum: the polygons' areas summed in order), a triangle of its fan
 * drawn by area, a point drawn evenly in it, at the height of the polygon's floor there. */
static nav_vec3 random_point(const nav_mesh *m, const double *area_sum, uint32_t polys, uint32_t *poly)
{
    for (;;) {
        double pick = uniform() * area_sum[polys - 1];
        uint32_t lo = 0, hi = polys - 1;
        while (lo < hi) {
            uint32_t mid = (lo + hi) / 2;
            if (area_sum[mid] > pick)
                hi = mid;
            else
                lo = mid + 1;
        }
        nav_mesh_poly_info info;
        nav_mesh_poly(m, lo, &info);
        nav_vec3 a = nav_mesh_vert(m, info.verts[0]);
        double total = poly_twice_area(m, lo);
        double in_poly = uniform() * total;
        uint32_t k = 2;
        for (; k + 1 < info.vert_count; k++) {
            double here =
                twice_area_xz(a, nav_mesh_vert(m, info.verts[k - 1]), nav_mesh_vert(m, info.verts[k]));
            if (in_poly < here) break;
            in_poly -= here;
        }
        nav_vec3 b = nav_mesh_vert(m, info.verts[k - 1]), c = nav_mesh_vert(m, info.verts[k]);
        double u = uniform(), w = uniform();
        if (u + w > 1) u = 1 - u, w = 1 - w;
        nav_vec3 p = {(float)(a.x + u * (b.x - a.x) + w * (c.x - a.x)), 0,
                      (float)(a.z + u * (b.z - a.z) + w * (c.z - a.z))};
        float height;
        if (!nav_mesh_poly_contains(m, lo, p, &height)) continue; /* on an edge, rounded out */
        p.y = height;
        *poly = lo;
        return p;
    }
}

/* ---- Measures ------------------------------------------------------------------------------------ */

/* The pairs of agents are found through a hash of 2 m cells over the level's box (min_x, min_z; cells
 * a side): agents overlap within 0.8 m, so each pair lies in neighbouring cells; agents outside the
 * box go to its edge cells, which changes nothing. bench/crowd_detour.cpp sums the same way. */
typedef struct pair_hash {
    double min_x, min_z;
    int cells_x, cells_z;
    uint32_t *head, *link;
} pair_hash;

static int hash_cell(const pair_hash *h, nav_vec3 p, int *cx, int *cz)
{
    *cx = (int)fmin(fmax((p.x - h->min_x) / 2, 0), h->cells_x - 1);
    *cz = (int)fmin(fmax((p.z - h->min_z) / 2, 0), h->cells_z - 1);
    return *cz * h->cells_x + *cx;
}

/* Summed penetration of the pairs of agents (radius + radius - their distance across, where above 0;
 * not two their heights apart, one above the other on two floors). */
static double overlap_sum(const nav_agent_info *a, uint32_t n, pair_hash *h)
{
    int cx, cz;
    for (int i = 0; i < h->cells_x * h->cells_z; i++) h->head[i] = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        int cell = hash_cell(h, a[i].place.position, &cx, &cz);
        h->link[i] = h->head[cell], h->head[cell] = i;
    }
    double sum = 0;
    for (uint32_t i = 0; i < n; i++) {
        hash_cell(h, a[i].place.position, &cx, &cz);
        for (int dz = -1; dz <= 1; dz++)
            for (int dx = -1; dx <= 1; dx++) {
                if (cx + dx < 0 || cz + dz < 0 || cx + dx >= h->cells_x || cz + dz >= h->cells_z) continue;
                for (uint32_t j = h->head[(cz + dz) * h->cells_x + cx + dx]; j != UINT32_MAX;
                     j = h->link[j]) {
                    if (j <= i || fabs((double)a[i].place.position.y - a[j].place.position.y) >=
                                      0.5 * ((double)a[i].params.height + a[j].params.height))
                        continue; /* (one above the other on two floors) */
                    double over = (double)a[i].params.radius + a[j].params.radius -
                                  hypot((double)a[i].place.position.x - a[j].place.position.x,
                                        (double)a[i].place.position.z - a[j].place.position.z);
                    if (over > 0) sum += over;
                }
            }
    }
    return sum;
}

/* ---- The agents' list ---------------------------------------------------------------------------- */

typedef struct trip {
    nav_vec3 start, goal;
    double route; /* the shortest path's length libnav planned */
} trip;

static bool write_trips(const char *path, const trip *trips, uint32_t n, const char *scene)
{
    FILE *f = fopen(path, "w");
    if (!f) return false;
    fprintf(f, "# %s: start x y z, goal x y z, the shortest path's length (bench/crowd.c)\n", scene);
    for (uint32_t i = 0; i < n; i++)
        fprintf(f, "%.9g %.9g %.9g %.9g %.9g %.9g %.9g\n", trips[i].start.x, trips[i].start.y,
                trips[i].start.z, trips[i].goal.x, trips[i].goal.y, trips[i].goal.z, trips[i].route);
    return fclose(f) == 0;
}

/* The first n trips of the file (all of them when n is 0; *n set). Null when it cannot be read or
 * holds fewer. */
static trip *read_trips(const char *path, uint32_t *n)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    trip *trips = NULL;
    uint32_t count = 0, capacity = 0;
    char line[512];
    while ((*n == 0 || count < *n) && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 1024;
            trip *grown = realloc(trips, capacity * sizeof *trips);
            if (!grown) return fclose(f), free(trips), NULL;
            trips = grown;
        }
        trip *t = &trips[count];
        if (sscanf(line, "%f %f %f %f %f %f %lf", &t->start.x, &t->start.y, &t->start.z, &t->goal.x,
                   &t->goal.y, &t->goal.z, &t->route) != 7)
            return fclose(f), free(trips), NULL;
        count++;
    }
    fclose(f);
    if (count == 0 || (*n && count < *n)) return free(trips), NULL;
    *n = count;
    return trips;
}

/* ---- The run ------------------------------------------------------------------------------------- */

static int usage(void)
{
    fprintf(stderr,
            "usage: crowd [--scene plaza|LEVEL.obj] [--agents N] [--seconds T] [--side S] [--cell C]\n"
            "             [--grid] [--seed X] [--threads N] [--write-obj FILE]\n"
            "             [--write-agents FILE | --read-agents FILE] [--unarrived]\n");
    return 2;
}

static int fail(const char *what)
{
    fprintf(stderr, "crowd: %s\n", what);
    return 1;
}

int main(int argc, char **argv)
{
    uint32_t n = 0, threads = 0;
    bool unarrived = false;
    double seconds = 60;
    float cell = 0.2f;
    int side = 200;
    bool grid_scene = false;
    const char *scene_path = "plaza", *obj_out = NULL, *agents_out = NULL, *agents_in = NULL;
    for (int i = 1; i < argc; i++) {
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--grid"))
            grid_scene = true;
        else if (!strcmp(argv[i], "--mesh"))
            grid_scene = false;
        else if (!strcmp(argv[i], "--unarrived"))
            unarrived = true;
        else if (!value)
            return usage();
        else if (!strcmp(argv[i], "--agents"))
            n = (uint32_t)atoi(value), i++;
        else if (!strcmp(argv[i], "--seconds"))
            seconds = atof(value), i++;
        else if (!strcmp(argv[i], "--side"))
            side = atoi(value), i++;
        else if (!strcmp(argv[i], "--cell"))
            cell = (float)atof(value), i++;
        else if (!strcmp(argv[i], "--seed"))
            state = (uint64_t)atoll(value) * 2654435761u + 1, i++;
        else if (!strcmp(argv[i], "--threads"))
            threads = (uint32_t)atoi(value), i++;
        else if (!strcmp(argv[i], "--scene"))
            scene_path = value, i++;
        else if (!strcmp(argv[i], "--write-obj"))
            obj_out = value, i++;
        else if (!strcmp(argv[i], "--write-agents"))
            agents_out = value, i++;
        else if (!strcmp(argv[i], "--read-agents"))
            agents_in = value, i++;
        else
            return usage();
    }
    bool plaza = !strcmp(scene_path, "plaza");
    if (side < 20 || side > 4000 || !(seconds > 0) || !(cell > 0) || (agents_in && agents_out) ||
        (grid_scene && !plaza))
        return usage();
    trip *trips = NULL;
    if (agents_in) {
        trips = read_trips(agents_in, &n);
        if (!trips) return fail("the agents' file cannot be read, or holds fewer agents than asked");
    }
    if (n == 0) n = 1000;

    /* The scene's name, as both libraries print it: plaza200, plaza200_grid, or the .obj's base name */
    char scene[256];
    if (plaza)
        snprintf(scene, sizeof scene, "plaza%d%s", side, grid_scene ? "_grid" : "");
    else {
        const char *base = strrchr(scene_path, '/') ? strrchr(scene_path, '/') + 1 : scene_path;
        snprintf(scene, sizeof scene, "%.*s", (int)(strcspn(base, ".")), base);
    }

    /* The level and its navigation mesh (or the plaza's grid) */
    double build_start = now();
    nav_grid *g = NULL;
    nav_mesh *m = NULL;
    nav_geometry *level = NULL;
    float *plaza_vertices = NULL;
    uint32_t *plaza_indices = NULL;
    nav_vec3 box_min = {0, 0, 0}, box_max = {(float)side, 0, (float)side};
    nav_world_builder *b;
    nav_world *w;
    nav_world_builder_create(NULL, NULL, &b);
    if (grid_scene) {
        if (nav_failed(nav_grid_create(&(nav_grid_desc){.width = side, .height = side, .cell_size = 1}, &g)))
            return fail("the grid cannot be made");
        for (int y = 0; y < side; y++)
            for (int x = 0; x < side; x++) {
                bool pillar = x % 20 >= 10 && x % 20 < 12 && y % 20 >= 10 && y % 20 < 12;
                nav_grid_set_cell(g, x, y, pillar ? 0 : 1);
            }
        nav_world_builder_add_grid(b, "plaza", g, NULL);
    } else {
        nav_triangles t;
        if (plaza) {
            t = (nav_triangles){.vertices = NULL};
            if (!plaza_triangles(side, &plaza_vertices, &t.vertex_count, &plaza_indices, &t.triangle_count))
                return fail("out of memory");
            t.vertices = plaza_vertices, t.indices = plaza_indices;
            if (obj_out && !write_obj(obj_out, &t)) return fail("the plaza's .obj cannot be written");
        } else {
            if (nav_failed(nav_geometry_load_obj_file(scene_path, NULL, NULL, &level)))
                return fail("the level cannot be read");
            t = nav_geometry_triangles(level);
        }
        nav_triangles_bounds(&t, &box_min, &box_max);
        nav_geometry_build_desc settings = {.cell_size = cell,
                                            .cell_height = 0.2f,
                                            .agent_height = 2,
                                            .agent_radius = 0.4f,
                                            .agent_climb = 0.4f,
                                            .max_slope = 45};
        if (nav_failed(nav_mesh_build_from_geometry(&t, &settings, &m, NULL)))
            return fail("the navigation mesh cannot be built");
        nav_world_builder_add_mesh(b, scene, m, NULL);
    }
    if (nav_failed(nav_world_bake(b, NULL, &w))) return fail("the world cannot be baked");
    nav_world_builder_destroy(b);
    double build_ms = (now() - build_start) * 1e3;

    nav_crowd *crowd;
    nav_world_query *query;
    if (nav_failed(nav_crowd_create(w, &(nav_crowd_desc){.max_agents = n, .threads = threads}, &crowd)) ||
        nav_failed(nav_world_query_create(w, NULL, &query)))
        return fail("the crowd cannot be made");
    const nav_agent_params walker = {.radius = 0.4f, .height = 2, .max_speed = 1.5f, .max_accel = 4};
    pair_hash hash = {.min_x = box_min.x, .min_z = box_min.z};
    hash.cells_x = (int)ceil((box_max.x - box_min.x) / 2) + 1;
    hash.cells_z = (int)ceil((box_max.z - box_min.z) / 2) + 1;
    hash.head = malloc((size_t)hash.cells_x * hash.cells_z * sizeof *hash.head);
    hash.link = malloc(n * sizeof *hash.link);
    double *arrived_at = malloc(n * sizeof *arrived_at);
    nav_agent_info *info = malloc(n * sizeof *info);
    uint32_t ticks = (uint32_t)ceil(seconds * 30);
    double *tick_ms = malloc(ticks * sizeof *tick_ms);
    if (!trips) trips = malloc(n * sizeof *trips);
    if (!arrived_at || !info || !hash.head || !hash.link || !tick_ms || !trips) return fail("out of memory");

    /* The agents: read, or drawn at random (a start on the mesh, then goals on the same piece of it
     * at least 1 m away until one has a route there and back) */
    uint32_t polys = m ? nav_mesh_poly_count(m) : 0;
    double *area_sum = NULL;
    if (m) {
        area_sum = malloc(polys * sizeof *area_sum);
        if (!area_sum) return fail("out of memory");
        for (uint32_t p = 0; p < polys; p++)
            area_sum[p] = (p ? area_sum[p - 1] : 0) + poly_twice_area(m, p) / 2;
    }
    nav_path back;
    nav_path_init(&back, NULL);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t id;
        if (agents_in) {
            if (nav_failed(nav_crowd_add_agent(crowd, trips[i].start, &walker, &id)) ||
                nav_crowd_set_goal(crowd, id, trips[i].goal) != NAV_SUCCESS) {
                fprintf(stderr, "crowd: agent %u of %s: no route from (%g, %g, %g) to (%g, %g, %g)\n", i,
                        agents_in, trips[i].start.x, trips[i].start.y, trips[i].start.z, trips[i].goal.x,
                        trips[i].goal.y, trips[i].goal.z);
                return 1;
            }
        } else {
            for (bool placed = false; !placed;) {
                uint32_t start_poly = 0, goal_poly = 0;
                nav_vec3 start = m ? random_point(m, area_sum, polys, &start_poly)
                                   : (nav_vec3){(float)(uniform() * side), 0, (float)(uniform() * side)};
                if (nav_failed(nav_crowd_add_agent(crowd, start, &walker, &id))) continue;
                nav_agent_info at;
                nav_crowd_agent(crowd, id, &at);
                nav_mesh_poly_info from = {0}, to = {0};
                if (m) nav_mesh_poly(m, start_poly, &from);
                for (int tries = 0; tries < 100 && !placed; tries++) {
                    nav_vec3 goal = m ? random_point(m, area_sum, polys, &goal_poly)
                                      : (nav_vec3){(float)(uniform() * side), 0, (float)(uniform() * side)};
                    if (m) nav_mesh_poly(m, goal_poly, &to);
                    if ((m && to.component != from.component) ||
                        nav_vec3_dist_xz(goal, at.place.position) < 1 ||
                        nav_crowd_set_goal(crowd, id, goal) != NAV_SUCCESS ||
                        nav_world_find_path(query, goal, at.place.position, &back, NULL) != NAV_SUCCESS)
                        continue;
                    uint32_t count;
                    const nav_vec3 *p = nav_crowd_agent_route(crowd, id, &count);
                    trips[i] = (trip){.start = at.place.position, .goal = goal, .route = 0};
                    for (uint32_t k = 1; k < count; k++) trips[i].route += nav_vec3_dist_xz(p[k - 1], p[k]);
                    placed = true;
                }
                if (!placed) nav_crowd_remove_agent(crowd, id);
            }
        }
        arrived_at[i] = INFINITY;
    }
    nav_path_destroy(&back);
    if (agents_out && !write_trips(agents_out, trips, n, scene))
        return fail("the agents' file cannot be written");

    /* The run: only the ticks are timed. After each, every agent is checked on the surface two ways:
     * strictly, its position inside its own polygon (off_surface), and as bench/crowd_detour.cpp
     * checks DetourCrowd's agents, the mesh's nearest point within a box 5 cm across and the agent's
     * height up and down no further than 1 cm across from it (off_surface_1cm). A tick that fails
     * (for an agent it could not move: the others moved) is counted and the run goes on. */
    double overlap = 0;
    uint64_t off_surface = 0, off_surface_1cm = 0;
    uint32_t tick_failures = 0, agents_off = 0;
    bool *was_off = calloc(n, sizeof *was_off);
    if (!was_off) return fail("out of memory");
    for (uint32_t k = 0; k < ticks; k++) {
        double t0 = now();
        nav_status ticked = nav_crowd_tick(crowd, 1.0 / 30);
        tick_ms[k] = (now() - t0) * 1e3;
        if (nav_failed(ticked) && tick_failures++ < 3)
            fprintf(stderr, "crowd: %s: tick %u failed: %s\n", scene, k, nav_status_str(ticked));
        for (uint32_t i = 0; i < n; i++) {
            nav_crowd_agent(crowd, i, &info[i]);
            nav_vec3 p = info[i].place.position;
            if (arrived_at[i] == INFINITY && nav_vec3_dist_xz(p, trips[i].goal) <= walker.radius)
                arrived_at[i] = (k + 1) / 30.0;
            float h;
            bool on = m ? nav_mesh_poly_contains(m, info[i].place.id, p, &h)
                        : nav_grid_passable(g, (int32_t)floorf(p.x), (int32_t)floorf(p.z));
            bool near = on;
            if (m) {
                uint32_t poly;
                nav_vec3 nearest;
                near = !nav_failed(nav_mesh_locate(m, p, (nav_vec3){0.025f, walker.height, 0.025f}, &poly,
                                                   &nearest)) &&
                       nav_vec3_dist_xz(nearest, p) <= 0.01f;
            }
            off_surface_1cm += !near;
            off_surface += !on;
            if (!on && !was_off[i] && (was_off[i] = true, agents_off++ < 10))
                fprintf(
                    stderr,
                    "crowd: %s: agent %u off its polygon from tick %u on: at (%.5f, %.5f, %.5f), polygon %u, "
                    "state %d\n",
                    scene, i, k, p.x, p.y, p.z, info[i].place.id, (int)info[i].state);
        }
        overlap += overlap_sum(info, n, &hash);
    }

    uint32_t arrived = 0;
    double ratio = 0;
    for (uint32_t i = 0; i < n; i++)
        if (arrived_at[i] < INFINITY)
            arrived++, ratio += arrived_at[i] / fmax(trips[i].route / walker.max_speed, 1e-9);
        else if (unarrived) /* (where those not there stand, and why) */
            fprintf(stderr,
                    "agent %u: state %d at (%.3f %.3f %.3f), goal (%.3f %.3f %.3f) %.2f m away, corner %u of "
                    "%u\n",
                    i, info[i].state, info[i].place.position.x, info[i].place.position.y,
                    info[i].place.position.z, trips[i].goal.x, trips[i].goal.y, trips[i].goal.z,
                    nav_vec3_dist_xz(info[i].place.position, trips[i].goal), info[i].corner,
                    info[i].route_count);
    double sum = 0;
    for (uint32_t k = 0; k < ticks; k++) sum += tick_ms[k];
    qsort(tick_ms, ticks, sizeof *tick_ms, by_value);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf(
        "{\"library\":\"libnav\",\"scene\":\"%s\",\"agents\":%u,\"tick_mean_ms\":%.3f,\"tick_p99_ms\":%.3f,"
        "\"arrived\":%.4f,\"travel_ratio\":%.4f,\"overlap\":%.6f,\"off_surface\":%llu,\"peak_rss_mb\":%.1f,"
        "\"off_surface_1cm\":%llu,\"agents_off\":%u,\"tick_failures\":%u,\"crowd_bytes\":%zu,\"polygons\":%u,"
        "\"build_ms\":%.0f,\"threads\":%u}\n",
        scene, n, sum / ticks, tick_ms[(size_t)floor(0.99 * (ticks - 1))], (double)arrived / n,
        arrived ? ratio / arrived : 0, overlap / ticks, (unsigned long long)off_surface,
        ru.ru_maxrss / 1024.0, (unsigned long long)off_surface_1cm, agents_off, tick_failures,
        nav_crowd_memory_bytes(crowd), polys, build_ms, threads ? threads : 1);
    free(trips), free(arrived_at), free(info), free(hash.head), free(hash.link), free(tick_ms),
        free(area_sum);
    free(was_off);
    free(plaza_vertices), free(plaza_indices);
    nav_world_query_destroy(query);
    nav_crowd_destroy(crowd);
    nav_world_destroy(w);
    nav_mesh_destroy(m);
    nav_geometry_destroy(level);
    nav_grid_destroy(g);
    return 0;
}
