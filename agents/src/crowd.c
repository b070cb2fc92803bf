/* A crowd of agents on a world (nav/agents.h): their places, routes and the tick that moves them.
 *
 * An agent's route is the world's path from where it stood when given its goal: its points, each
 * with its region and place (path->nodes: a cell, a polygon, a waypoint), and on each leg's last
 * point the link that follows. The agent steers to one point at a time (its corner), and takes the
 * next one once it sees the one after (nav_world_sees); the corner before a link is where the agent,
 * once within its radius, starts across the link, in a straight line at its speed, to the next
 * leg's first point. Steering wants the corner at full speed (slowing down within stopping distance
 * of the goal), ORCA keeps it clear of its neighbours (orca.h), its velocity turns by at most
 * max_accel * dt, and the move is the world's along the region's surface (nav_world_move), so an
 * agent pushed off its line slides along walls and stays on the ground. */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "nav/agents.h"
#include "orca.h"

#define DEFAULT_MAX_AGENTS   1024
#define DEFAULT_NEIGHBOURS   10
#define DEFAULT_TIME_HORIZON 2.0
#define DEFAULT_RANGE        6.0
#define STUCK_SECONDS        0.5 /* held this long, an agent plans its route again */
#define DEFAULT_CLOSED_WAIT  2.0

/* A route's points, one block: points, then regions, nodes (places) and links. */
typedef struct route {
    nav_vec3 *points;
    uint32_t *regions, *nodes;
    uint32_t
        *links; /* the world's link from this point to the next (a leg's last point), or NAV_WORLD_NONE */
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
    double stuck;       /* seconds it has made almost no way while wanting to */
    double waited;      /* seconds it has waited at a closed link */
} agent;

struct nav_crowd {
    const nav_world *world;
    nav_allocator allocator;
    nav_world_query *query; /* the crowd's plans and moves */
    nav_path path;          /* a plan's path */
    agent *agents;
    uint32_t max_agents;
    /* avoidance (nav_crowd_desc) */
    uint32_t max_neighbours;
    double time_horizon, range;
    /* a tick's: each agent as it was when the tick began, whether it steers, the velocity it wants
     * and the one avoidance leaves it */
    nav__orca_agent *was;
    uint8_t *steers, *avoids; /* avoids: on the ground of a kind with room to pass (no road) */
    nav__orca_vec *preferred, *chosen;
    /* the agents on the ground by cell of side `range` (a hash: bucket b holds first[b], then
     * next[...] until UINT32_MAX), ordered by id within a bucket */
    uint32_t *first, *next, buckets;
    nav__orca_line *lines, *projected; /* max_neighbours each */
    uint32_t *near;                    /* max_neighbours: the nearest neighbours found */
    double *near_dist;
    double closed_wait;
    /* the events not yet drained: a ring of event_capacity from event_first */
    nav_crowd_event *events;
    uint32_t event_capacity, event_first, event_count;
    uint64_t events_lost;
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
    c->max_neighbours = desc && desc->max_neighbours ? desc->max_neighbours : DEFAULT_NEIGHBOURS;
    c->time_horizon = desc && desc->time_horizon > 0 ? desc->time_horizon : DEFAULT_TIME_HORIZON;
    c->range = desc && desc->neighbour_range > 0 ? desc->neighbour_range : DEFAULT_RANGE;
    c->closed_wait = desc && desc->closed_wait > 0 ? desc->closed_wait : DEFAULT_CLOSED_WAIT;
    c->event_capacity = max <= (UINT32_MAX - 64) / 4 ? 4 * max + 64 : UINT32_MAX;
    c->events = nav__alloc(&a, nav__mul_size(c->event_capacity, sizeof *c->events));
    c->buckets = 1;
    while (c->buckets < 2 * max && c->buckets < (1u << 30)) c->buckets *= 2;
    c->agents = nav__calloc(&a, max, sizeof *c->agents);
    c->was = nav__alloc(&a, nav__mul_size(max, sizeof *c->was));
    c->steers = nav__alloc(&a, max);
    c->avoids = nav__alloc(&a, max);
    c->preferred = nav__alloc(&a, nav__mul_size(max, sizeof *c->preferred));
    c->chosen = nav__alloc(&a, nav__mul_size(max, sizeof *c->chosen));
    c->first = nav__alloc(&a, nav__mul_size(c->buckets, sizeof *c->first));
    c->next = nav__alloc(&a, nav__mul_size(max, sizeof *c->next));
    c->lines = nav__alloc(&a, nav__mul_size(c->max_neighbours, sizeof *c->lines));
    c->projected = nav__alloc(&a, nav__mul_size(c->max_neighbours, sizeof *c->projected));
    c->near = nav__alloc(&a, nav__mul_size(c->max_neighbours, sizeof *c->near));
    c->near_dist = nav__alloc(&a, nav__mul_size(c->max_neighbours, sizeof *c->near_dist));
    bool made = c->agents && c->events && c->was && c->steers && c->avoids && c->preferred && c->chosen &&
                c->first && c->next && c->lines && c->projected && c->near && c->near_dist;
    nav_status s = made ? nav_world_query_create(w, &a, &c->query) : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (nav_failed(s)) {
        nav_crowd_destroy(c);
        return nav_has_detail(s, NAV_OUT_OF_MEMORY) ? NAV_FAILURE | NAV_OUT_OF_MEMORY : s;
    }
    *out = c;
    return NAV_SUCCESS;
}

static size_t route_point_bytes(void)
{
    return sizeof(nav_vec3) + 3 * sizeof(uint32_t);
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
    nav__free(&a, c->was);
    nav__free(&a, c->events);
    nav__free(&a, c->steers);
    nav__free(&a, c->avoids);
    nav__free(&a, c->preferred);
    nav__free(&a, c->chosen);
    nav__free(&a, c->first);
    nav__free(&a, c->next);
    nav__free(&a, c->lines);
    nav__free(&a, c->projected);
    nav__free(&a, c->near);
    nav__free(&a, c->near_dist);
    nav_world_query_destroy(c->query);
    nav_path_destroy(&c->path);
    nav__free(&a, c);
}

size_t nav_crowd_memory_bytes(const nav_crowd *c)
{
    if (!c) return 0;
    size_t bytes =
        sizeof *c +
        (size_t)c->max_agents *
            (sizeof *c->agents + sizeof *c->was + 2 + 2 * sizeof *c->preferred + sizeof *c->next) +
        (size_t)c->buckets * sizeof *c->first + (size_t)c->event_capacity * sizeof *c->events +
        (size_t)c->max_neighbours * (2 * sizeof *c->lines + sizeof *c->near + sizeof *c->near_dist) +
        nav_world_query_memory_bytes(c->query) +
        (size_t)c->path.capacity * (sizeof *c->path.points + sizeof *c->path.nodes);
    for (uint32_t i = 0; i < c->max_agents; i++) bytes += c->agents[i].route.capacity * route_point_bytes();
    return bytes;
}

/* Tells the engine (the oldest event goes when the ring is full). */
static void tell(nav_crowd *c, nav_crowd_event_type type, uint32_t id, uint32_t link, nav_vec3 from,
                 nav_vec3 to)
{
    nav_crowd_event e = {type, id, link, (nav_world_link_kind)0, from, to};
    nav_world_link_desc d;
    if (link != NAV_WORLD_NONE && nav_world_link(c->world, link, &d)) e.kind = d.kind;
    if (c->event_count == c->event_capacity) {
        c->event_first = (c->event_first + 1) % c->event_capacity;
        c->event_count--;
        c->events_lost++;
    }
    c->events[(c->event_first + c->event_count++) % c->event_capacity] = e;
}

uint32_t nav_crowd_events(nav_crowd *c, nav_crowd_event *out, uint32_t capacity)
{
    if (!c || !out) return 0;
    uint32_t n = 0;
    for (; n < capacity && c->event_count; n++, c->event_count--) {
        out[n] = c->events[c->event_first];
        c->event_first = (c->event_first + 1) % c->event_capacity;
    }
    return n;
}

uint64_t nav_crowd_events_lost(const nav_crowd *c)
{
    return c ? c->events_lost : 0;
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
    r->links = r->nodes + capacity;
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
            r->links[i] = i + 1 == leg[l].first_point + leg[l].point_count ? leg[l].link : NAV_WORLD_NONE;
        }
    return true;
}

/* Plans agent a's route from where it stands to goal (its goal from now on, unless goal is at no
 * walkable place: NAV_INVALID_PARAM, nothing changed). */
static nav_status plan(nav_crowd *c, agent *a, nav_vec3 goal, bool keep_if_none)
{
    nav_world_result res;
    nav_status s = nav_world_find_path(c->query, a->place.position, goal, &c->path, &res);
    if (nav_failed(s) && nav_has_detail(s, NAV_INVALID_PARAM)) return s; /* (a goal at no place: as it was) */
    if (keep_if_none && (nav_failed(s) || nav_has_detail(s, NAV_UNREACHABLE))) return s;
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
    a->stuck = a->waited = 0;
    return NAV_SUCCESS;
}

nav_status nav_crowd_set_goal(nav_crowd *c, uint32_t id, nav_vec3 goal)
{
    agent *a = agent_of(c, id);
    if (!a || !finite3(goal)) return NAV_FAILURE | NAV_INVALID_PARAM;
    return plan(c, a, goal, false);
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

/* At the link's far end: onto the next leg's first place. */
static void land(nav_crowd *c, uint32_t id)
{
    agent *a = &c->agents[id];
    const route *r = &a->route;
    nav_vec3 to = r->points[a->corner];
    tell(c, NAV_CROWD_LINK_END, id, r->links[a->corner - 1], r->points[a->corner - 1], to);
    a->place = (nav_world_place){r->regions[a->corner], r->nodes[a->corner], to};
    a->state = NAV_AGENT_MOVING;
    if (a->corner + 1 < r->count) a->corner++;
}

/* Along a link at its speed (or, when its engine moves it, where the engine has it: it stands). */
static void cross_link(nav_crowd *c, uint32_t id, double dt)
{
    agent *a = &c->agents[id];
    if (a->params.engine_crosses_links) {
        a->velocity = (nav_vec3){0, 0, 0};
        return;
    }
    nav_vec3 from = a->place.position, to = a->route.points[a->corner];
    a->link_done += a->params.max_speed * dt;
    double t = a->link_length > 0 ? fmin(1, a->link_done / a->link_length) : 1;
    nav_vec3 at = {(float)(a->link_from.x + t * ((double)to.x - a->link_from.x)),
                   (float)(a->link_from.y + t * ((double)to.y - a->link_from.y)),
                   (float)(a->link_from.z + t * ((double)to.z - a->link_from.z))};
    a->velocity = (nav_vec3){(float)(((double)at.x - from.x) / dt), (float)(((double)at.y - from.y) / dt),
                             (float)(((double)at.z - from.z) / dt)};
    a->place.position = at;
    if (t >= 1) land(c, id);
}

nav_status nav_crowd_finish_link(nav_crowd *c, uint32_t id)
{
    agent *a = agent_of(c, id);
    if (!a || a->state != NAV_AGENT_ON_LINK) return NAV_FAILURE | NAV_INVALID_PARAM;
    a->velocity = (nav_vec3){0, 0, 0};
    land(c, id);
    return NAV_SUCCESS;
}

/* The corners behind it: each one whose next it sees from where it stands (a later corner in sight: a
 * shortcut); at the corner before a link, once within its radius, it starts across, or waits while
 * the link is closed. */
static nav_status take_corners(nav_crowd *c, uint32_t id)
{
    agent *a = &c->agents[id];
    const route *r = &a->route;
    while (a->corner + 1 < r->count) {
        if (r->links[a->corner] != NAV_WORLD_NONE) {
            if (nav_vec3_dist_xz(a->place.position, r->points[a->corner]) > a->params.radius)
                return NAV_SUCCESS;
            uint32_t link = r->links[a->corner];
            if (!nav_world_link_enabled(c->world, link)) {
                if (a->state != NAV_AGENT_WAITING) {
                    a->state = NAV_AGENT_WAITING;
                    a->waited = 0;
                    a->velocity = (nav_vec3){0, 0, 0};
                    tell(c, NAV_CROWD_LINK_CLOSED, id, link, r->points[a->corner], r->points[a->corner + 1]);
                }
                return NAV_SUCCESS;
            }
            tell(c, NAV_CROWD_LINK_START, id, link, r->points[a->corner], r->points[a->corner + 1]);
            a->corner++;
            a->state = NAV_AGENT_ON_LINK;
            a->link_from = a->place.position;
            a->link_length = nav_vec3_dist(a->place.position, r->points[a->corner]);
            a->link_done = 0;
            return NAV_SUCCESS;
        }
        bool sees;
        nav_status s = nav_world_sees(c->query, &a->place, r->points[a->corner + 1], &sees);
        if (nav_failed(s) || !sees) return nav_failed(s) ? s : NAV_SUCCESS;
        a->corner++;
    }
    return NAV_SUCCESS;
}

/* The velocity an agent moving on its route wants: towards its corner at full speed, slowing down
 * within stopping distance of its goal; false once it has arrived (then it stands). */
static bool preferred_velocity(nav_crowd *c, uint32_t id, nav__orca_vec *want)
{
    agent *a = &c->agents[id];
    const route *r = &a->route;
    nav_vec3 pos = a->place.position, corner = r->points[a->corner];
    double dx = (double)corner.x - pos.x, dz = (double)corner.z - pos.z, dist = sqrt(dx * dx + dz * dz);
    bool last = a->corner + 1 == r->count;
    if (last && dist <= a->params.radius) { /* arrived */
        a->state = NAV_AGENT_ARRIVED;
        a->velocity = (nav_vec3){0, 0, 0};
        tell(c, NAV_CROWD_ARRIVED, id, NAV_WORLD_NONE, pos, pos);
        return false;
    }
    double speed = a->params.max_speed;
    if (last) { /* slowing down within stopping distance of the goal */
        double stopping = speed * speed / (2.0 * a->params.max_accel) + a->params.radius;
        speed = fmin(speed, speed * dist / stopping);
    }
    *want = dist > 0 ? (nav__orca_vec){dx / dist * speed, dz / dist * speed} : (nav__orca_vec){0, 0};
    return true;
}

/* Plans agent id's way again from where it stands (held against a wall, or at a link that stayed
 * closed: then, with no other way, it waits on where it is). */
static nav_status plan_again(nav_crowd *c, uint32_t id)
{
    agent *a = &c->agents[id];
    bool waiting = a->state == NAV_AGENT_WAITING;
    nav_status s = plan(c, a, a->goal, waiting);
    if (nav_failed(s) && !nav_has_detail(s, NAV_OUT_OF_MEMORY)) s = NAV_SUCCESS; /* (no route: as said) */
    if (waiting && a->state == NAV_AGENT_WAITING) { /* no other way: it waits on */
        a->waited = 0;
        return s;
    }
    if (a->state == NAV_AGENT_MOVING)
        tell(c, NAV_CROWD_REPLANNED, id, NAV_WORLD_NONE, a->place.position, a->goal);
    return s;
}

static int64_t cell_of(const nav_crowd *c, double x)
{
    return (int64_t)floor(x / c->range);
}

static uint32_t bucket_of(const nav_crowd *c, int64_t cx, int64_t cz)
{
    uint64_t h = (uint64_t)cx * 0x9E3779B97F4A7C15ull ^ (uint64_t)cz * 0xC2B2AE3D27D4EB4Full;
    return (uint32_t)(h >> 32) & (c->buckets - 1);
}

/* The agents on the ground (not crossing a link) into their buckets, each bucket in id order. */
static void fill_buckets(nav_crowd *c)
{
    for (uint32_t b = 0; b < c->buckets; b++) c->first[b] = UINT32_MAX;
    for (uint32_t i = c->max_agents; i-- > 0;) { /* (backwards: each list comes out in id order) */
        const agent *a = &c->agents[i];
        if (!a->active || a->state == NAV_AGENT_ON_LINK || !c->avoids[i]) continue;
        uint32_t b = bucket_of(c, cell_of(c, c->was[i].position.x), cell_of(c, c->was[i].position.z));
        c->next[i] = c->first[b];
        c->first[b] = i;
    }
}

/* Keeps neighbour j at distance d among agent i's nearest (nearest first, ties by id); n found so far. */
static uint32_t keep_near(nav_crowd *c, uint32_t n, uint32_t j, double d)
{
    uint32_t at = n;
    while (at > 0 && (c->near_dist[at - 1] > d || (c->near_dist[at - 1] == d && c->near[at - 1] > j))) at--;
    if (at >= c->max_neighbours) return n;
    uint32_t last = n < c->max_neighbours ? n : c->max_neighbours - 1;
    for (uint32_t k = last; k > at; k--) c->near[k] = c->near[k - 1], c->near_dist[k] = c->near_dist[k - 1];
    c->near[at] = j, c->near_dist[at] = d;
    return n < c->max_neighbours ? n + 1 : n;
}

/* Agent i's nearest neighbours within range on its floor (their heights overlapping), into c->near:
 * their count. */
static uint32_t neighbours(nav_crowd *c, uint32_t i)
{
    const nav__orca_agent *me = &c->was[i];
    const agent *a = &c->agents[i];
    int64_t cx = cell_of(c, me->position.x), cz = cell_of(c, me->position.z);
    uint32_t n = 0, seen[9];
    for (int k = 0; k < 9; k++) {
        uint32_t b = bucket_of(c, cx + k % 3 - 1, cz + k / 3 - 1);
        bool again = false; /* (two cells may share a bucket) */
        for (int m = 0; m < k; m++) again |= seen[m] == b;
        seen[k] = b;
        if (again) continue;
        for (uint32_t j = c->first[b]; j != UINT32_MAX; j = c->next[j]) {
            const agent *o = &c->agents[j];
            double dx = c->was[j].position.x - me->position.x, dz = c->was[j].position.z - me->position.z,
                   d = sqrt(dx * dx + dz * dz), dy = fabs((double)o->place.position.y - a->place.position.y);
            if (j != i && d <= c->range && dy < 0.5 * ((double)a->params.height + o->params.height))
                n = keep_near(c, n, j, d);
        }
    }
    return n;
}

/* The velocity avoidance leaves agent i: ORCA over its nearest neighbours (those that steer share
 * the avoiding; it avoids those that stand alone). */
static nav__orca_vec avoid(nav_crowd *c, uint32_t i, double dt)
{
    uint32_t n = neighbours(c, i);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t j = c->near[k];
        c->lines[k] =
            nav__orca_line_of(&c->was[i], &c->was[j], c->time_horizon, dt, c->steers[j] ? 0.5 : 1.0);
    }
    return nav__orca_solve(c->lines, n, c->agents[i].params.max_speed, c->preferred[i], c->projected);
}

/* Turns the velocity towards `want` by at most max_accel * dt and moves along the surface. */
static nav_status integrate(nav_crowd *c, agent *a, nav__orca_vec want, double dt)
{
    nav_vec3 pos = a->place.position;
    double dvx = want.x - a->velocity.x, dvz = want.z - a->velocity.z, dv = sqrt(dvx * dvx + dvz * dvz),
           most = a->params.max_accel * dt;
    if (dv > most) dvx *= most / dv, dvz *= most / dv;
    double vx = a->velocity.x + dvx, vz = a->velocity.z + dvz;
    nav_vec3 target = {(float)(pos.x + vx * dt), pos.y, (float)(pos.z + vz * dt)};
    nav_world_place moved;
    nav_status s = nav_world_move(c->query, &a->place, target, &moved);
    /* sliding along a wall from a point off it may take it farther than its step: then as far as its
     * step along the way it slid */
    double step = sqrt(vx * vx + vz * vz) * dt,
           went = nav_failed(s) ? 0 : nav_vec3_dist_xz(pos, moved.position);
    if (went > step * (1 + 1e-6)) {
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
    /* pressed against a wall on the way to a corner it no longer sees (pushed off its line) */
    double wanted = sqrt(want.x * want.x + want.z * want.z);
    bool held =
        wanted > 0.1 * a->params.max_speed && nav_vec3_dist_xz(pos, moved.position) < 0.1 * wanted * dt;
    a->stuck = held ? a->stuck + dt : 0;
    return NAV_SUCCESS;
}

nav_status nav_crowd_tick(nav_crowd *c, double dt)
{
    if (!c || !(dt > 0 && dt <= 1)) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_status result = NAV_SUCCESS;
    /* each agent as the tick finds it; along its route: the corners behind it, the links it crosses,
     * the velocity it wants */
    for (uint32_t i = 0; i < c->max_agents; i++) {
        agent *a = &c->agents[i];
        c->steers[i] = 0;
        if (!a->active) continue;
        /* (a waypoint graph is a road without width: agents on it pass through each other) */
        c->avoids[i] = nav_world_region_kind_of(c->world, a->place.region) != NAV_WORLD_REGION_WAYPOINTS;
        c->was[i] = (nav__orca_agent){
            {a->place.position.x, a->place.position.z}, {a->velocity.x, a->velocity.z}, a->params.radius};
        if (!a->has_goal) continue;
        nav_status s = NAV_SUCCESS;
        if (a->state == NAV_AGENT_WAITING) { /* open again: on; closed too long: another way */
            if (nav_world_link_enabled(c->world, a->route.links[a->corner]))
                a->state = NAV_AGENT_MOVING;
            else if ((a->waited += dt) >= c->closed_wait)
                s = plan_again(c, i);
        }
        if (a->state == NAV_AGENT_MOVING && a->stuck >= STUCK_SECONDS) s = plan_again(c, i); /* (held) */
        if (a->state == NAV_AGENT_MOVING && !nav_failed(s))
            s = take_corners(c, i); /* (failed: the corner it had) */
        if (nav_failed(s)) result = s;
        if (a->state == NAV_AGENT_ON_LINK) {
            cross_link(c, i, dt);
            continue;
        }
        if (a->state == NAV_AGENT_MOVING) c->steers[i] = preferred_velocity(c, i, &c->preferred[i]);
    }
    /* avoidance over where every agent was (the order of the agents plays no part), then the moves */
    fill_buckets(c);
    for (uint32_t i = 0; i < c->max_agents; i++)
        if (c->steers[i]) c->chosen[i] = c->avoids[i] ? avoid(c, i, dt) : c->preferred[i];
    for (uint32_t i = 0; i < c->max_agents; i++) {
        if (!c->steers[i]) continue;
        nav_status s = integrate(c, &c->agents[i], c->chosen[i], dt);
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
