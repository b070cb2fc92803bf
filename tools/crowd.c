/* navtool crowd: runs a crowd scenario (docs/crowd.md) on a world and prints what happened, tick by
 * tick, as JSON lines; draws the agents' trails.
 *
 *   navtool crowd SCENARIO.json [--png OUT] [--every N] [--scale PX] [--events] [--summary] [--threads N]
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nav/agents.h"
#include "navtool.h"

typedef struct change {
    double at;
    uint32_t link;
    bool enabled;
} change;

typedef struct scenario {
    char world[1024];
    double seconds, tick;
    nav_crowd_desc crowd;
    nav_agent_params *params;
    nav_vec3 *starts, *goals;
    uint32_t agents;
    change *changes;
    uint32_t change_count;
    nav_mesh_filter *filters; /* the entries' that give area_costs (their agents' mesh_filter) */
    double (*filter_costs)[256];
    nav_grid_filter *grid_filters; /* the entries' that give terrain_costs (their grid_filter) */
} scenario;

static void scenario_free(scenario *s)
{
    free(s->filters);
    free(s->filter_costs);
    free(s->grid_filters);
    free(s->params);
    free(s->starts);
    free(s->goals);
    free(s->changes);
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* A number member of o (fallback when absent), within [lo, hi]; false having said why. */
static bool number(const cJSON *o, const char *key, const char *where, double fallback, double lo, double hi,
                   double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    *out = fallback;
    if (!v) return true;
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= lo && v->valuedouble <= hi)) {
        fprintf(stderr, "navtool crowd: %s.%s: a number from %g to %g\n", where, key, lo, hi);
        return false;
    }
    *out = v->valuedouble;
    return true;
}

/* A point member of o ([x, y, z]); false having said why. */
static bool point(const cJSON *o, const char *key, const char *where, nav_vec3 *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 3) {
        fprintf(stderr, "navtool crowd: %s.%s: a point [x, y, z]\n", where, key);
        return false;
    }
    float p[3];
    for (int i = 0; i < 3; i++) {
        const cJSON *c = cJSON_GetArrayItem(v, i);
        if (!cJSON_IsNumber(c) || !isfinite(c->valuedouble) || fabs(c->valuedouble) > 1e9) {
            fprintf(stderr, "navtool crowd: %s.%s[%d]: a finite number\n", where, key, i);
            return false;
        }
        p[i] = (float)c->valuedouble;
    }
    *out = (nav_vec3){p[0], p[1], p[2]};
    return true;
}

/* The scenario's world path, relative to the scenario file's folder. */
static bool world_path(const char *scenario_path, const char *world, char *out, size_t size)
{
    const char *slash = strrchr(scenario_path, '/');
    int n = world[0] == '/' || !slash
                ? snprintf(out, size, "%s", world)
                : snprintf(out, size, "%.*s/%s", (int)(slash - scenario_path), scenario_path, world);
    return n > 0 && (size_t)n < size;
}

/* An entry's area_costs or terrain_costs (key; {"2": "blocked", "3": 2.5}: the cost of each area type
 * of the navmesh regions or terrain type of the grids, 1 where not given, type 0 of a grid blocked)
 * into costs. */
static bool read_costs(const cJSON *e, const char *where, const char *key, double costs[256])
{
    const cJSON *areas = cJSON_GetObjectItemCaseSensitive(e, key), *area;
    if (!cJSON_IsObject(areas)) {
        fprintf(stderr, "navtool crowd: %s.%s: an object of types (\"2\": 3.5, \"4\": \"blocked\")\n", where,
                key);
        return false;
    }
    for (int t = 0; t < 256; t++) costs[t] = 1;
    if (!strcmp(key, "terrain_costs")) costs[NAV_TERRAIN_BLOCKED] = NAV_COST_BLOCKED;
    cJSON_ArrayForEach(area, areas)
    {
        char *end;
        long type = strtol(area->string, &end, 10);
        bool blocked = cJSON_IsString(area) && !strcmp(area->valuestring, "blocked");
        if (*end || end == area->string || type < 0 || type > 255 ||
            !(blocked || (cJSON_IsNumber(area) && nav_terrain_cost_valid(area->valuedouble) &&
                          area->valuedouble < INFINITY))) {
            fprintf(stderr, "navtool crowd: %s.%s.%s: a type 0 to 255 and a cost %g to %g, or \"blocked\"\n",
                    where, key, area->string, NAV_COST_MIN, NAV_COST_MAX);
            return false;
        }
        costs[type] = blocked ? NAV_COST_BLOCKED : area->valuedouble;
    }
    return true;
}

/* Reads the scenario's agents (each entry `count` of them, `spacing` apart). */
static bool read_agents(const cJSON *list, scenario *s)
{
    uint64_t total = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, list)
    {
        double count;
        if (!cJSON_IsObject(e) || !number(e, "count", "agents[]", 1, 1, 1000000, &count)) {
            if (!cJSON_IsObject(e)) fprintf(stderr, "navtool crowd: agents[]: an object\n");
            return false;
        }
        total += (uint64_t)count;
    }
    if (total == 0 || total > 1000000) {
        fprintf(stderr, "navtool crowd: agents: 1 to 1,000,000 agents (%llu)\n", (unsigned long long)total);
        return false;
    }
    int entries = cJSON_GetArraySize(list);
    s->params = calloc(total, sizeof *s->params);
    s->starts = calloc(total, sizeof *s->starts);
    s->goals = calloc(total, sizeof *s->goals);
    s->filters = calloc((size_t)entries, sizeof *s->filters);
    s->filter_costs = calloc((size_t)entries, sizeof *s->filter_costs);
    s->grid_filters = calloc((size_t)entries, sizeof *s->grid_filters);
    if (!s->params || !s->starts || !s->goals || !s->filters || !s->filter_costs || !s->grid_filters) {
        fprintf(stderr, "navtool crowd: out of memory\n");
        return false;
    }
    uint32_t n = 0, index = 0;
    cJSON_ArrayForEach(e, list)
    {
        char where[32];
        uint32_t entry = index++;
        snprintf(where, sizeof where, "agents[%u]", entry);
        double count, radius, height, speed, accel, dx = 0, dz = 0;
        nav_vec3 start, goal;
        if (!number(e, "count", where, 1, 1, 1000000, &count) ||
            !number(e, "radius", where, 0.4, 1e-3, 1e3, &radius) ||
            !number(e, "height", where, 2, 1e-3, 1e3, &height) ||
            !number(e, "speed", where, 3.5, 1e-3, 1e3, &speed) ||
            !number(e, "accel", where, 8, 1e-3, 1e4, &accel) || !point(e, "start", where, &start) ||
            !point(e, "goal", where, &goal))
            return false;
        const cJSON *spacing = cJSON_GetObjectItemCaseSensitive(e, "spacing"); /* [dx, dz] between copies */
        if (spacing) {
            if (!cJSON_IsArray(spacing) || cJSON_GetArraySize(spacing) != 2 ||
                !cJSON_IsNumber(cJSON_GetArrayItem(spacing, 0)) ||
                !cJSON_IsNumber(cJSON_GetArrayItem(spacing, 1))) {
                fprintf(stderr, "navtool crowd: %s.spacing: [dx, dz]\n", where);
                return false;
            }
            dx = cJSON_GetArrayItem(spacing, 0)->valuedouble,
            dz = cJSON_GetArrayItem(spacing, 1)->valuedouble;
        }
        uint32_t excluded = 0; /* the kinds of link they may not take, by name */
        const cJSON *kinds = cJSON_GetObjectItemCaseSensitive(e, "excluded_links"), *kind;
        if (kinds && !cJSON_IsArray(kinds)) {
            fprintf(stderr, "navtool crowd: %s.excluded_links: a list of link kinds (\"ladder\", ...)\n",
                    where);
            return false;
        }
        cJSON_ArrayForEach(kind, kinds)
        {
            int k = NAV_LINK_DOOR;
            while (k < NAV_LINK_KIND_COUNT &&
                   !(cJSON_IsString(kind) && !strcmp(kind->valuestring, nav_world_link_kind_name(k))))
                k++;
            if (k == NAV_LINK_KIND_COUNT) {
                fprintf(stderr, "navtool crowd: %s.excluded_links: no link kind %s\n", where,
                        cJSON_IsString(kind) ? kind->valuestring : "(not a string)");
                return false;
            }
            excluded |= 1u << k;
        }
        const nav_mesh_filter *filter = NULL;
        if (cJSON_GetObjectItemCaseSensitive(e, "area_costs")) {
            if (!read_costs(e, where, "area_costs", s->filter_costs[entry])) return false;
            s->filters[entry] = (nav_mesh_filter){.area_cost = s->filter_costs[entry]};
            filter = &s->filters[entry];
        }
        const nav_grid_filter *grid_filter = NULL;
        if (cJSON_GetObjectItemCaseSensitive(e, "terrain_costs")) {
            if (!read_costs(e, where, "terrain_costs", s->grid_filters[entry].terrain_cost)) return false;
            grid_filter = &s->grid_filters[entry];
        }
        for (uint32_t k = 0; k < (uint32_t)count; k++, n++) {
            s->params[n] = (nav_agent_params){.radius = (float)radius,
                                              .height = (float)height,
                                              .max_speed = (float)speed,
                                              .max_accel = (float)accel,
                                              .excluded_links = excluded,
                                              .mesh_filter = filter,
                                              .grid_filter = grid_filter};
            s->starts[n] = (nav_vec3){(float)(start.x + k * dx), start.y, (float)(start.z + k * dz)};
            s->goals[n] = (nav_vec3){(float)(goal.x + k * dx), goal.y, (float)(goal.z + k * dz)};
        }
    }
    s->agents = n;
    return true;
}

/* The link of that name (or number) in w, or NAV_WORLD_NONE. */
static uint32_t link_named(const nav_world *w, const cJSON *v)
{
    nav_world_info info;
    nav_world_get_info(w, &info);
    if (cJSON_IsNumber(v))
        return v->valuedouble >= 0 && v->valuedouble < info.links ? (uint32_t)v->valuedouble : NAV_WORLD_NONE;
    for (uint32_t l = 0; cJSON_IsString(v) && l < info.links; l++) {
        nav_world_link_desc d;
        if (nav_world_link(w, l, &d) && d.name && !strcmp(d.name, v->valuestring)) return l;
    }
    return NAV_WORLD_NONE;
}

/* Reads the scenario file; the world is loaded into *w. 0, or 1 having said why. */
static int read_scenario(const char *path, scenario *s, nav_world **w)
{
    *s = (scenario){0};
    *w = NULL;
    void *data;
    size_t size;
    nav_status st = nav_file_read_all(path, NULL, &data, &size);
    if (nav_failed(st)) {
        fprintf(stderr, "navtool crowd: %s: cannot read: %s\n", path, nav_status_str(st));
        return 1;
    }
    cJSON *root = cJSON_ParseWithLength(data, size);
    free(data);
    if (!cJSON_IsObject(root)) {
        fprintf(stderr, "navtool crowd: %s: not a JSON object\n", path);
        cJSON_Delete(root);
        return 1;
    }
    const cJSON *world = cJSON_GetObjectItemCaseSensitive(root, "world"), *crowd;
    double max_neighbours, range, horizon, wait, replans, wall_horizon, clearance;
    bool ok = cJSON_IsString(world) && world_path(path, world->valuestring, s->world, sizeof s->world);
    if (!ok) fprintf(stderr, "navtool crowd: %s: \"world\": a world file's path (JSON or .nav)\n", path);
    ok = ok && number(root, "seconds", "scenario", 60, 1e-3, 86400, &s->seconds) &&
         number(root, "tick", "scenario", 1.0 / 30, 1e-4, 1, &s->tick);
    crowd = cJSON_GetObjectItemCaseSensitive(root, "crowd");
    ok = ok && number(crowd, "max_neighbours", "crowd", 0, 0, 1000, &max_neighbours) &&
         number(crowd, "neighbour_range", "crowd", 0, 0, 1e4, &range) &&
         number(crowd, "time_horizon", "crowd", 0, 0, 1e3, &horizon) &&
         number(crowd, "closed_wait", "crowd", 0, 0, 1e6, &wait) &&
         number(crowd, "max_replans", "crowd", 0, 0, 1e6, &replans) &&
         number(crowd, "wall_horizon", "crowd", 0, 0, 1e3, &wall_horizon) &&
         number(crowd, "edge_clearance", "crowd", 0, 0, 1e3, &clearance);
    const cJSON *agents = cJSON_GetObjectItemCaseSensitive(root, "agents");
    if (ok && !cJSON_IsArray(agents)) {
        fprintf(stderr, "navtool crowd: %s: \"agents\": a list\n", path);
        ok = false;
    }
    ok = ok && read_agents(agents, s);
    if (ok) {
        s->crowd = (nav_crowd_desc){.max_agents = s->agents,
                                    .max_neighbours = (uint32_t)max_neighbours,
                                    .neighbour_range = (float)range,
                                    .time_horizon = (float)horizon,
                                    .closed_wait = (float)wait,
                                    .max_replans = (uint32_t)replans,
                                    .wall_horizon = (float)wall_horizon,
                                    .edge_clearance = (float)clearance};
        *w = navtool_load_world(s->world, NULL, true);
        ok = *w != NULL;
    }
    const cJSON *changes = cJSON_GetObjectItemCaseSensitive(root, "changes"), *c;
    if (ok && changes) {
        int n = cJSON_IsArray(changes) ? cJSON_GetArraySize(changes) : -1;
        s->changes = calloc(n > 0 ? (size_t)n : 1, sizeof *s->changes);
        ok = n >= 0 && s->changes;
        if (n < 0) fprintf(stderr, "navtool crowd: %s: \"changes\": a list\n", path);
        cJSON_ArrayForEach(c, changes)
        {
            if (!ok) break;
            char where[32];
            snprintf(where, sizeof where, "changes[%u]", s->change_count);
            change *k = &s->changes[s->change_count];
            const cJSON *enabled = cJSON_GetObjectItemCaseSensitive(c, "enabled");
            ok = number(c, "at", where, 0, 0, 86400, &k->at);
            k->link = link_named(*w, cJSON_GetObjectItemCaseSensitive(c, "link"));
            if (ok && (k->link == NAV_WORLD_NONE || !cJSON_IsBool(enabled))) {
                fprintf(stderr,
                        "navtool crowd: %s: a \"link\" of the world (name or number) and \"enabled\"\n",
                        where);
                ok = false;
            }
            k->enabled = cJSON_IsTrue(enabled);
            s->change_count++;
        }
    }
    cJSON_Delete(root);
    return ok ? 0 : 1;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static const char *event_name(nav_crowd_event_type t)
{
    static const char *const names[] = {"?", "link_start", "link_end", "link_closed", "replanned", "arrived"};
    return t >= 1 && t <= NAV_CROWD_ARRIVED ? names[t] : names[0];
}

int navtool_crowd(int argc, char **argv)
{
    const char *input = NULL, *png = NULL;
    int every = 0, threads = 1;
    double scale = 4;
    bool events = false, summary = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--png") && i + 1 < argc)
            png = argv[++i];
        else if (!strcmp(argv[i], "--every") && i + 1 < argc)
            every = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--scale") && i + 1 < argc)
            scale = atof(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--events"))
            events = true;
        else if (!strcmp(argv[i], "--summary"))
            summary = true;
        else if (!input && argv[i][0] != '-')
            input = argv[i];
        else {
            fprintf(stderr, "navtool crowd: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (!input || every < 0 || !(scale > 0 && scale <= 64) || (every && !png) || threads < 1 ||
        threads > 256) {
        fprintf(stderr,
                "usage: navtool crowd SCENARIO.json [--png OUT] [--every N (with --png)] [--scale PX] "
                "[--events] [--summary] [--threads N (1 to 256)]\n");
        return 2;
    }
    scenario s;
    nav_world *w;
    if (read_scenario(input, &s, &w)) {
        nav_world_destroy(w);
        scenario_free(&s);
        return 1;
    }
    nav_crowd *crowd = NULL;
    s.crowd.threads = (uint32_t)threads;
    nav_status st = nav_crowd_create(w, &s.crowd, &crowd);
    int rc = nav_failed(st);
    if (rc) fprintf(stderr, "navtool crowd: the crowd cannot be made: %s\n", nav_status_str(st));
    uint32_t ticks = (uint32_t)ceil(s.seconds / s.tick - 1e-9);
    nav_vec3 **trails = calloc(s.agents, sizeof *trails);
    uint32_t *lengths = calloc(s.agents, sizeof *lengths);
    bool *ground = calloc(s.agents, sizeof *ground);
    double *tick_ms = malloc((ticks ? ticks : 1) * sizeof *tick_ms);
    nav_crowd_event *drained = malloc(256 * sizeof *drained);
    if (!rc && (!trails || !lengths || !ground || !tick_ms || !drained))
        rc = 1, fprintf(stderr, "navtool crowd: out of memory\n");
    for (uint32_t a = 0; !rc && a < s.agents; a++) {
        st = nav_crowd_add_agent(crowd, s.starts[a], &s.params[a], NULL);
        if (!nav_failed(st)) st = nav_crowd_set_goal(crowd, a, s.goals[a]);
        if (nav_failed(st)) {
            fprintf(stderr, "navtool crowd: agent %u (start %g %g %g, goal %g %g %g): %s\n", a,
                    (double)s.starts[a].x, (double)s.starts[a].y, (double)s.starts[a].z, (double)s.goals[a].x,
                    (double)s.goals[a].y, (double)s.goals[a].z, nav_status_str(st));
            rc = 1;
        }
        trails[a] = malloc(((size_t)ticks + 1) * sizeof **trails);
        if (!trails[a]) rc = 1, fprintf(stderr, "navtool crowd: out of memory\n");
    }
    /* OUT-NNNNN.png for --every: OUT without its .png */
    size_t len = png ? strlen(png) : 0;
    int stem = (int)(len > 4 && !strcmp(png + len - 4, ".png") ? len - 4 : len);
    uint32_t next_change = 0, arrived = 0;
    double deepest = 0;
    for (uint32_t k = 0; !rc && k < ticks; k++) {
        double t = k * s.tick;
        for (; next_change < s.change_count && s.changes[next_change].at <= t; next_change++)
            nav_world_set_links(
                w, &(nav_world_link_change){s.changes[next_change].link, s.changes[next_change].enabled}, 1);
        double t0 = now_ms();
        st = nav_crowd_tick(crowd, s.tick);
        tick_ms[k] = now_ms() - t0;
        if (nav_failed(st)) {
            fprintf(stderr, "navtool crowd: tick %u: %s\n", k, nav_status_str(st));
            rc = 1;
            break;
        }
        uint32_t counts[8] = {0};
        for (uint32_t a = 0; a < s.agents; a++) {
            nav_agent_info info;
            nav_crowd_agent(crowd, a, &info);
            counts[info.state < 8 ? info.state : 0]++;
            trails[a][lengths[a]++] = info.place.position;
            /* (on a link, or on a road, which has no width: agents pass through each other there) */
            ground[a] = info.state != NAV_AGENT_ON_LINK &&
                        nav_world_region_kind_of(w, info.place.region) != NAV_WORLD_REGION_WAYPOINTS;
        }
        arrived = counts[NAV_AGENT_ARRIVED];
        /* the deepest overlap of two agents on the same ground (the tool looks at every pair, up to 2,000
         * agents) */
        double overlap = 0;
        if (s.agents <= 2000)
            for (uint32_t a = 0; a < s.agents; a++)
                for (uint32_t b = a + 1; b < s.agents; b++) {
                    nav_vec3 p = trails[a][lengths[a] - 1], q = trails[b][lengths[b] - 1];
                    double d = hypot((double)p.x - q.x, (double)p.z - q.z),
                           over = (double)s.params[a].radius + s.params[b].radius - d;
                    if (over > overlap && ground[a] && ground[b] && fabs((double)p.y - q.y) < 1)
                        overlap = over;
                }
        deepest = fmax(deepest, overlap);
        if (!summary)
            printf("{\"tick\":%u,\"time\":%.4f,\"tick_ms\":%.4f,\"moving\":%u,\"on_link\":%u,\"waiting\":%u,"
                   "\"arrived\":%u,\"no_route\":%u,\"deepest_overlap\":%.4f}\n",
                   k, t + s.tick, tick_ms[k], counts[NAV_AGENT_MOVING], counts[NAV_AGENT_ON_LINK],
                   counts[NAV_AGENT_WAITING], counts[NAV_AGENT_ARRIVED], counts[NAV_AGENT_NO_ROUTE], overlap);
        for (uint32_t n; (n = nav_crowd_events(crowd, drained, 256)) > 0;)
            for (uint32_t i = 0; events && i < n; i++)
                printf("{\"event\":\"%s\",\"tick\":%u,\"agent\":%u,\"link\":%d,\"kind\":\"%s\"}\n",
                       event_name(drained[i].type), k, drained[i].agent,
                       drained[i].link == NAV_WORLD_NONE ? -1 : (int)drained[i].link,
                       drained[i].link == NAV_WORLD_NONE ? "" : nav_world_link_kind_name(drained[i].kind));
        if (png && every && (k + 1) % (uint32_t)every == 0) {
            char name[1100];
            snprintf(name, sizeof name, "%.*s-%05u.png", stem, png, k + 1);
            rc = navtool_write_crowd_png(name, w, (const nav_vec3 *const *)trails, lengths, s.agents, scale);
        }
        if (arrived == s.agents) ticks = k + 1; /* (everyone there: the run ends) */
    }
    if (!rc) {
        double sum = 0;
        for (uint32_t k = 0; k < ticks; k++) sum += tick_ms[k];
        qsort(tick_ms, ticks, sizeof *tick_ms, by_value);
        printf("{\"scenario\":\"%s\",\"agents\":%u,\"ticks\":%u,\"tick_mean_ms\":%.4f,\"tick_p99_ms\":%.4f,"
               "\"arrived\":%.4f,\"deepest_overlap\":%.4f,\"crowd_bytes\":%zu}\n",
               input, s.agents, ticks, sum / ticks, tick_ms[(size_t)floor(0.99 * (ticks - 1))],
               (double)arrived / s.agents, deepest, nav_crowd_memory_bytes(crowd));
        if (png)
            rc = navtool_write_crowd_png(png, w, (const nav_vec3 *const *)trails, lengths, s.agents, scale);
    }
    for (uint32_t a = 0; trails && a < s.agents; a++) free(trails[a]);
    free(trails);
    free(lengths);
    free(ground);
    free(tick_ms);
    free(drained);
    nav_crowd_destroy(crowd);
    nav_world_destroy(w);
    scenario_free(&s);
    return rc;
}
