/* A crowd on a plaza (issue 44's benchmark scene, libnav's side): a square plaza of S x S metres with
 * square pillars 2 m wide every 20 m, as a grid region of 1 m cells or the navmesh made from it;
 * N agents (radius 0.4 m, 1.5 m/s, 4 m/s^2) at random free places, each to a random goal of its
 * own; 30 ticks a second for T seconds. Prints one JSON line: library, scene, agents, tick_mean_ms,
 * tick_p99_ms, arrived (share at their goals), travel_ratio (mean time to arrive over the planned
 * route's length at full speed, of those that arrived: on the mesh the shortest path; on the grid its
 * 8-connected cells, whose corners the agents cut, so below 1 there), overlap (mean penetration depth summed
 * over pairs of agents, a tick), off_surface (agent-ticks with an agent off the walkable surface),
 * peak_rss_mb, crowd_bytes.
 *
 * usage: crowd [--agents N (1000)] [--seconds T (60)] [--side S (200)] [--grid | --mesh] [--seed X] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "nav/agents.h"

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

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Summed penetration of the pairs of agents (a hash of 2 m cells over the plaza). */
static double overlap_sum(const nav_agent_info *a, uint32_t n, int side, uint32_t *head, uint32_t *link)
{
    int cells = side / 2 + 1;
    for (int i = 0; i < cells * cells; i++) head[i] = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        int cx = (int)fmin(fmax(a[i].place.position.x / 2, 0), cells - 1),
            cz = (int)fmin(fmax(a[i].place.position.z / 2, 0), cells - 1);
        link[i] = head[cz * cells + cx], head[cz * cells + cx] = i;
    }
    double sum = 0;
    for (uint32_t i = 0; i < n; i++) {
        int cx = (int)fmin(fmax(a[i].place.position.x / 2, 0), cells - 1),
            cz = (int)fmin(fmax(a[i].place.position.z / 2, 0), cells - 1);
        for (int dz = -1; dz <= 1; dz++)
            for (int dx = -1; dx <= 1; dx++) {
                if (cx + dx < 0 || cz + dz < 0 || cx + dx >= cells || cz + dz >= cells) continue;
                for (uint32_t j = head[(cz + dz) * cells + cx + dx]; j != UINT32_MAX; j = link[j]) {
                    if (j <= i) continue;
                    double over = (double)a[i].params.radius + a[j].params.radius -
                                  hypot((double)a[i].place.position.x - a[j].place.position.x,
                                        (double)a[i].place.position.z - a[j].place.position.z);
                    if (over > 0) sum += over;
                }
            }
    }
    return sum;
}

int main(int argc, char **argv)
{
    uint32_t n = 1000;
    double seconds = 60;
    int side = 200;
    bool mesh = true;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--agents") && i + 1 < argc)
            n = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
            seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--side") && i + 1 < argc)
            side = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            state = (uint64_t)atoll(argv[++i]) * 2654435761u + 1;
        else if (!strcmp(argv[i], "--grid"))
            mesh = false;
        else if (!strcmp(argv[i], "--mesh"))
            mesh = true;
        else {
            fprintf(stderr,
                    "usage: crowd [--agents N] [--seconds T] [--side S] [--grid | --mesh] [--seed X]\n");
            return 2;
        }
    }
    if (n == 0 || side < 20 || side > 4000 || !(seconds > 0)) return 2;
    nav_grid *g;
    if (nav_failed(nav_grid_create(&(nav_grid_desc){.width = side, .height = side, .cell_size = 1}, &g)))
        return 1;
    for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++) {
            bool pillar = x % 20 >= 10 && x % 20 < 12 && y % 20 >= 10 && y % 20 < 12;
            nav_grid_set_cell(g, x, y, pillar ? 0 : 1);
        }
    nav_world_builder *b;
    nav_mesh *m = NULL;
    nav_world *w;
    nav_world_builder_create(NULL, NULL, &b);
    if (mesh) {
        if (nav_failed(nav_mesh_build_from_grid(g, NULL, &m))) return 1;
        nav_world_builder_add_mesh(b, "plaza", m, NULL);
    } else {
        nav_world_builder_add_grid(b, "plaza", g, NULL);
    }
    if (nav_failed(nav_world_bake(b, NULL, &w))) return 1;
    nav_world_builder_destroy(b);
    nav_crowd *crowd;
    if (nav_failed(nav_crowd_create(w, &(nav_crowd_desc){.max_agents = n}, &crowd))) return 1;
    const nav_agent_params walker = {.radius = 0.4f, .height = 2, .max_speed = 1.5f, .max_accel = 4};
    double *route = malloc(n * sizeof *route), *arrived_at = malloc(n * sizeof *arrived_at);
    nav_agent_info *info = malloc(n * sizeof *info);
    uint32_t *head = malloc((size_t)(side / 2 + 1) * (side / 2 + 1) * sizeof *head),
             *link = malloc(n * sizeof *link);
    uint32_t ticks = (uint32_t)ceil(seconds * 30);
    double *tick_ms = malloc(ticks * sizeof *tick_ms);
    if (!route || !arrived_at || !info || !head || !link || !tick_ms) return 1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t id;
        nav_vec3 start, goal;
        do
            start = (nav_vec3){(float)(next() % (uint32_t)(side * 10)) / 10.0f, 0,
                               (float)(next() % (uint32_t)(side * 10)) / 10.0f};
        while (nav_failed(nav_crowd_add_agent(crowd, start, &walker, &id)));
        for (;;) {
            goal = (nav_vec3){(float)(next() % (uint32_t)(side * 10)) / 10.0f, 0,
                              (float)(next() % (uint32_t)(side * 10)) / 10.0f};
            if (nav_crowd_set_goal(crowd, id, goal) == NAV_SUCCESS) break;
        }
        uint32_t count;
        const nav_vec3 *p = nav_crowd_agent_route(crowd, id, &count);
        route[i] = 0;
        for (uint32_t k = 1; k < count; k++) route[i] += nav_vec3_dist_xz(p[k - 1], p[k]);
        arrived_at[i] = INFINITY;
    }
    double overlap = 0;
    uint64_t off_surface = 0;
    for (uint32_t k = 0; k < ticks; k++) {
        double t0 = now();
        if (nav_failed(nav_crowd_tick(crowd, 1.0 / 30))) return 1;
        tick_ms[k] = (now() - t0) * 1e3;
        for (uint32_t i = 0; i < n; i++) {
            nav_crowd_agent(crowd, i, &info[i]);
            if (info[i].state == NAV_AGENT_ARRIVED && arrived_at[i] == INFINITY)
                arrived_at[i] = (k + 1) / 30.0;
            nav_vec3 p = info[i].place.position;
            float h;
            bool on = mesh ? nav_mesh_poly_contains(m, info[i].place.id, p, &h)
                           : nav_grid_passable(g, (int32_t)floorf(p.x), (int32_t)floorf(p.z));
            off_surface += !on;
        }
        overlap += overlap_sum(info, n, side, head, link);
    }
    uint32_t arrived = 0;
    double ratio = 0;
    for (uint32_t i = 0; i < n; i++)
        if (arrived_at[i] < INFINITY)
            arrived++, ratio += arrived_at[i] / fmax(route[i] / walker.max_speed, 1e-9);
    double sum = 0;
    for (uint32_t k = 0; k < ticks; k++) sum += tick_ms[k];
    qsort(tick_ms, ticks, sizeof *tick_ms, by_value);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf(
        "{\"library\":\"libnav\",\"scene\":\"plaza%d_%s\",\"agents\":%u,\"tick_mean_ms\":%.3f,\"tick_p99_"
        "ms\":%.3f,"
        "\"arrived\":%.4f,\"travel_ratio\":%.4f,\"overlap\":%.4f,\"off_surface\":%llu,\"peak_rss_mb\":%.1f,"
        "\"crowd_bytes\":%zu}\n",
        side, mesh ? "mesh" : "grid", n, sum / ticks, tick_ms[(size_t)floor(0.99 * (ticks - 1))],
        (double)arrived / n, arrived ? ratio / arrived : 0, overlap / ticks, (unsigned long long)off_surface,
        ru.ru_maxrss / 1024.0, nav_crowd_memory_bytes(crowd));
    free(route), free(arrived_at), free(info), free(head), free(link), free(tick_ms);
    nav_crowd_destroy(crowd);
    nav_world_destroy(w);
    nav_mesh_destroy(m);
    nav_grid_destroy(g);
    return 0;
}
