/* A crowd of agents on a world (nav/agents.h): their places, routes and the tick that moves them.
 *
 * An agent's route is the world's path from where it stood when given its goal: its points, each
 * with its region and place (path->nodes: a cell, a polygon, a waypoint), and a mark on each leg's
 * last point where a link follows. The agent steers to one point at a time (its corner): a corner
 * within the agent's radius is reached, and the next one taken; the corner before a link is where
 * the agent starts across the link, in a straight line at its speed, to the next leg's first point.
 * Steering turns the velocity towards the corner (at full speed, or slowing down within stopping
 * distance of the goal) by at most max_accel * dt, and the move is the world's along the region's
 * surface (nav_world_move), so an agent pushed off its line slides along walls and stays on the
 * ground. */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "nav/agents.h"

#define DEFAULT_MAX_AGENTS 1024

/* A route's points, one block: points, then regions, nodes (places) and link marks. */
typedef struct route {
    nav_vec3 *points;
    uint32_t *regions, *nodes;
    uint8_t *link_after; /* 1: a link leads from this point to the next (a leg's last point) */
    uint32_t count, capacity;
} route;

typedef struct agent {
    bool active, has_goal;
    nav_agent_params params;
    nav_world_place place;
    nav_vec3 velocity, goal;
    nav_agent_state state;
    route route;
    uint32_t corner;    /* the route point it steers to */
    nav_vec3 link_from; /* on a link: where it started across */
    double link_length; /* and how far it has to go, */
    double link_done;   /* and has gone */
} agent;

struct nav_crowd {
    const nav_world *world;
    nav_allocator allocator;
    nav_world_query *query; /* the crowd's plans and moves */
    nav_path path;          /* a plan's path */
    agent *agents;
    uint32_t max_agents;
};

nav_status nav_crowd_create(const nav_world *w, const nav_crowd_desc *desc, nav_crowd **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!w) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_allocator a;
    nav__allocator_resolve(&a, desc ? desc->allocator : NULL);
    uint32_t max = desc && desc->max_agents ? desc->max_agents : DEFAULT_MAX_AGENTS;
    nav_crowd *c = nav__calloc(&a, 1, sizeof *c);
    if (!c) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    c->world = w;
    c->allocator = a;
    c->max_agents = max;
    nav_path_init(&c->path, &a);
    c->agents = nav__calloc(&a, max, sizeof *c->agents);
    nav_status s = c->agents ? nav_world_query_create(w, &a, &c->query) : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (nav_failed(s)) {
        nav_crowd_destroy(c);
        return nav_has_detail(s, NAV_OUT_OF_MEMORY) ? NAV_FAILURE | NAV_OUT_OF_MEMORY : s;
    }
    *out = c;
    return NAV_SUCCESS;
}

static size_t route_point_bytes(void)
{
    return sizeof(nav_vec3) + 2 * sizeof(uint32_t) + 1;
}

static void route_free(nav_crowd *c, route *r)
{
    nav__free(&c->allocator, r->points);
    *r = (route){0};
}

void nav_crowd_destroy(nav_crowd *c)
{
    if (!c) return;
    nav_allocator a = c->allocator;
    for (uint32_t i = 0; c->agents && i < c->max_agents; i++) route_free(c, &c->agents[i].route);
    nav__free(&a, c->agents);
    nav_world_query_destroy(c->query);
    nav_path_destroy(&c->path);
    nav__free(&a, c);
}

size_t nav_crowd_memory_bytes(const nav_crowd *c)
{
    if (!c) return 0;
    size_t bytes = sizeof *c + (size_t)c->max_agents * sizeof *c->agents +
                   nav_world_query_memory_bytes(c->query) +
                   (size_t)c->path.capacity * (sizeof *c->path.points + sizeof *c->path.nodes);
    for (uint32_t i = 0; i < c->max_agents; i++) bytes += c->agents[i].route.capacity * route_point_bytes();
    return bytes;
}

static agent *agent_of(const nav_crowd *c, uint32_t id)
{
    return c && id < c->max_agents && c->agents[id].active ? &c->agents[id] : NULL;
}

static bool finite3(nav_vec3 v)
{
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

static bool params_ok(const nav_agent_params *p)
{
    return p && p->radius > 0 && p->height > 0 && p->max_speed > 0 && p->max_accel > 0 &&
           isfinite(p->radius) && isfinite(p->height) && isfinite(p->max_speed) && isfinite(p->max_accel);
}

nav_status nav_crowd_add_agent(nav_crowd *c, nav_vec3 position, const nav_agent_params *params, uint32_t *id)
{
    if (id) *id = UINT32_MAX;
    if (!c || !finite3(position) || !params_ok(params)) return NAV_FAILURE | NAV_INVALID_PARAM;
    uint32_t free_id = 0;
    while (free_id < c->max_agents && c->agents[free_id].active) free_id++;
    if (free_id == c->max_agents) return NAV_FAILURE | NAV_BUFFER_TOO_SMALL;
    nav_world_place at;
    nav_status s = nav_world_nearest(c->world, position,
                                     (nav_vec3){params->radius, params->height, params->radius}, &at);
    if (nav_failed(s)) return s;
    agent *a = &c->agents[free_id];
    *a = (agent){.active = true, .params = *params, .place = at, .state = NAV_AGENT_IDLE};
    if (id) *id = free_id;
    return NAV_SUCCESS;
}

nav_status nav_crowd_remove_agent(nav_crowd *c, uint32_t id)
{
    agent *a = agent_of(c, id);
    if (!a) return NAV_FAILURE | NAV_INVALID_PARAM;
    route_free(c, &a->route);
    *a = (agent){0};
    return NAV_SUCCESS;
}

/* Room for n route points (what was there is not kept). */
static bool route_reserve(nav_crowd *c, route *r, uint32_t n)
{
    if (n <= r->capacity) return true;
    uint32_t capacity = r->capacity ? r->capacity : 16;
    while (capacity < n) capacity = capacity > UINT32_MAX / 2 ? n : capacity * 2;
    void *block = nav__alloc(&c->allocator, nav__mul_size(capacity, route_point_bytes()));
    if (!block) return false;
    nav__free(&c->allocator, r->points);
    r->points = block;
    r->regions = (uint32_t *)(r->points + capacity);
    r->nodes = r->regions + capacity;
    r->link_after = (uint8_t *)(r->nodes + capacity);
    r->capacity = capacity;
    return true;
}

/* The route of the crowd's last plan (c->path and its query's legs) into agent a's. */
static bool take_route(nav_crowd *c, agent *a)
{
    uint32_t legs;
    const nav_world_leg *leg = nav_world_query_legs(c->query, &legs);
    if (!route_reserve(c, &a->route, c->path.count)) return false;
    route *r = &a->route;
    r->count = c->path.count;
    for (uint32_t l = 0; l < legs; l++)
        for (uint32_t i = leg[l].first_point; i < leg[l].first_point + leg[l].point_count; i++) {
            r->points[i] = c->path.points[i];
            r->regions[i] = leg[l].region;
            r->nodes[i] = c->path.nodes[i];
            r->link_after[i] =
                leg[l].link != NAV_WORLD_NONE && i + 1 == leg[l].first_point + leg[l].point_count;
        }
    return true;
}

nav_status nav_crowd_set_goal(nav_crowd *c, uint32_t id, nav_vec3 goal)
{
    agent *a = agent_of(c, id);
    if (!a || !finite3(goal)) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_world_result res;
    nav_status s = nav_world_find_path(c->query, a->place.position, goal, &c->path, &res);
    if (nav_failed(s) && nav_has_detail(s, NAV_INVALID_PARAM)) return s; /* (a goal at no place: as it was) */
    a->has_goal = true;
    a->goal = goal;
    a->velocity = (nav_vec3){0, 0, 0};
    a->route.count = 0;
    a->corner = 0;
    if (nav_failed(s) || nav_has_detail(s, NAV_UNREACHABLE)) {
        a->state = NAV_AGENT_NO_ROUTE;
        return s;
    }
    if (!take_route(c, a)) {
        a->state = NAV_AGENT_NO_ROUTE;
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    a->corner = a->route.count > 1 ? 1 : 0; /* (the first point is where it starts) */
    a->state = NAV_AGENT_MOVING;
    return NAV_SUCCESS;
}

nav_status nav_crowd_clear_goal(nav_crowd *c, uint32_t id)
{
    agent *a = agent_of(c, id);
    if (!a) return NAV_FAILURE | NAV_INVALID_PARAM;
    a->has_goal = false;
    a->route.count = 0;
    a->corner = 0;
    a->velocity = (nav_vec3){0, 0, 0};
    a->state = NAV_AGENT_IDLE;
    return NAV_SUCCESS;
}

static double dist_xz(nav_vec3 a, nav_vec3 b)
{
    double dx = (double)a.x - b.x, dz = (double)a.z - b.z;
    return sqrt(dx * dx + dz * dz);
}

/* Along a link: on at its speed; at its end, onto the next leg's first place. */
static void cross_link(agent *a, double dt)
{
    const route *r = &a->route;
    nav_vec3 from = a->place.position, to = r->points[a->corner];
    a->link_done += a->params.max_speed * dt;
    double t = a->link_length > 0 ? fmin(1, a->link_done / a->link_length) : 1;
    nav_vec3 at = {(float)(a->link_from.x + t * ((double)to.x - a->link_from.x)),
                   (float)(a->link_from.y + t * ((double)to.y - a->link_from.y)),
                   (float)(a->link_from.z + t * ((double)to.z - a->link_from.z))};
    a->velocity = (nav_vec3){(float)(((double)at.x - from.x) / dt), (float)(((double)at.y - from.y) / dt),
                             (float)(((double)at.z - from.z) / dt)};
    a->place.position = at;
    if (t < 1) return;
    a->place = (nav_world_place){r->regions[a->corner], r->nodes[a->corner], to};
    a->state = NAV_AGENT_MOVING;
    if (a->corner + 1 < r->count) a->corner++;
}

/* The corners it has reached behind it (a link's start: it starts across). */
static void take_corners(agent *a)
{
    const route *r = &a->route;
    double reach = a->params.radius;
    while (a->corner + 1 < r->count && dist_xz(a->place.position, r->points[a->corner]) <= reach) {
        if (r->link_after[a->corner]) {
            a->corner++;
            a->state = NAV_AGENT_ON_LINK;
            a->link_from = a->place.position;
            a->link_length = nav_vec3_dist(a->place.position, r->points[a->corner]);
            a->link_done = 0;
            return;
        }
        a->corner++;
    }
}

/* Steers towards the corner and moves along the surface. */
static nav_status steer(nav_crowd *c, agent *a, double dt)
{
    const route *r = &a->route;
    nav_vec3 pos = a->place.position, corner = r->points[a->corner];
    double dx = (double)corner.x - pos.x, dz = (double)corner.z - pos.z, dist = sqrt(dx * dx + dz * dz);
    bool last = a->corner + 1 == r->count;
    if (last && dist <= a->params.radius) { /* arrived */
        a->state = NAV_AGENT_ARRIVED;
        a->velocity = (nav_vec3){0, 0, 0};
        return NAV_SUCCESS;
    }
    double speed = a->params.max_speed;
    if (last) { /* slowing down within stopping distance of the goal */
        double stopping = speed * speed / (2.0 * a->params.max_accel) + a->params.radius;
        speed = fmin(speed, speed * dist / stopping);
    }
    double want_x = dist > 0 ? dx / dist * speed : 0, want_z = dist > 0 ? dz / dist * speed : 0;
    double dvx = want_x - a->velocity.x, dvz = want_z - a->velocity.z, dv = sqrt(dvx * dvx + dvz * dvz),
           most = a->params.max_accel * dt;
    if (dv > most) dvx *= most / dv, dvz *= most / dv;
    double vx = a->velocity.x + dvx, vz = a->velocity.z + dvz;
    nav_vec3 target = {(float)(pos.x + vx * dt), pos.y, (float)(pos.z + vz * dt)};
    nav_world_place moved;
    nav_status s = nav_world_move(c->query, &a->place, target, &moved);
    /* sliding along a wall from a point off it may take it farther than its step: then as far as its
     * step along the way it slid */
    double step = sqrt(vx * vx + vz * vz) * dt, went = dist_xz(pos, moved.position);
    if (!nav_failed(s) && went > step * (1 + 1e-6)) {
        double f = step / went;
        target = (nav_vec3){(float)(pos.x + f * ((double)moved.position.x - pos.x)), pos.y,
                            (float)(pos.z + f * ((double)moved.position.z - pos.z))};
        s = nav_world_move(c->query, &a->place, target, &moved);
    }
    if (nav_failed(s)) {
        a->velocity = (nav_vec3){0, 0, 0};
        return s;
    }
    a->velocity = (nav_vec3){(float)(((double)moved.position.x - pos.x) / dt), 0,
                             (float)(((double)moved.position.z - pos.z) / dt)};
    a->place = moved;
    return NAV_SUCCESS;
}

nav_status nav_crowd_tick(nav_crowd *c, double dt)
{
    if (!c || !(dt > 0 && dt <= 1)) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_status result = NAV_SUCCESS;
    for (uint32_t i = 0; i < c->max_agents; i++) {
        agent *a = &c->agents[i];
        if (!a->active || !a->has_goal) continue;
        if (a->state == NAV_AGENT_ON_LINK) {
            cross_link(a, dt);
            continue;
        }
        if (a->state != NAV_AGENT_MOVING) continue;
        take_corners(a);
        if (a->state == NAV_AGENT_ON_LINK) {
            cross_link(a, dt);
            continue;
        }
        nav_status s = steer(c, a, dt);
        if (nav_failed(s)) result = s;
    }
    return result;
}

bool nav_crowd_agent(const nav_crowd *c, uint32_t id, nav_agent_info *out)
{
    const agent *a = agent_of(c, id);
    if (!a || !out) return false;
    *out = (nav_agent_info){.place = a->place,
                            .velocity = a->velocity,
                            .state = a->state,
                            .goal = a->goal,
                            .corner = a->corner,
                            .route_count = a->route.count,
                            .params = a->params};
    return true;
}

const nav_vec3 *nav_crowd_agent_route(const nav_crowd *c, uint32_t id, uint32_t *count)
{
    const agent *a = agent_of(c, id);
    if (count) *count = a ? a->route.count : 0;
    return a && a->route.count ? a->route.points : NULL;
}
