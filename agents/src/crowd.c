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
 * agent pushed off its line slides along walls and stays on the ground.
 *
 * A tick: the plans again (at most max_replans, agents taking turns; their searches over the pool's
 * threads, what they leave on the caller's, in order); each
 * agent's look along its route (look: corners, links, the velocity it wants) in chunks of CHUNK
 * agents over the pool's threads, each thread with a world query of its own and each chunk with a
 * list of what its agents tell the engine (put in the ring in the chunks' order); the hash of where
 * they stand; each one's avoidance and move (steer_chunk), over the same threads. What an agent's
 * look and steering write is its own, what they read is what the tick began with: the same on any
 * number of threads. Each thread takes the chunks of its own share of a run first (run_chunks), so
 * an agent's fields stay in one core's cache from run to run and tick to tick. */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "nav/agents.h"
#include "nav/flow.h"
#include "orca.h"
#include "parallel.h"
#include "walls.h"

#define DEFAULT_MAX_AGENTS   1024
#define DEFAULT_NEIGHBOURS   10
#define DEFAULT_TIME_HORIZON 2.0
#define DEFAULT_RANGE        6.0
#define STUCK_SECONDS        0.5 /* held this long, an agent plans its route again */
#define JAM_SECONDS          1.0 /* in a jam this long, an agent squeezes, and leaves to the parting */
#define NEAR_LEFT            2.0 /* those nearer than this many times their two radii */
#define SQUEEZE_SECONDS      2.0 /* and over this long after, it squeezes down to */
#define SQUEEZED             0.7 /* this much of its size (it avoids as if so) */
#define DEFAULT_CLOSED_WAIT  2.0
#define DEFAULT_REPLANS      8
#define CHUNK                64  /* agents a thread takes at a time in a tick */
#define MAX_WALLS            8   /* walls an agent keeps clear of: the nearest */
#define LIST_CAP             32  /* agents an agent's list of those near it holds (near_list) */
#define LIST_SKIN            0.1 /* of the neighbour range: a list's reach past the farthest neighbour */
#define LIST_TICKS           5   /* a list that holds for fewer ticks cost more than it saved: */
#define LIST_REST            8   /* the next is made so many ticks later (the hash searched meanwhile), */
#define LIST_REST_MOST       128 /* twice as many each time again, up to so many */
#define SIGHT_RADII          30  /* how far (in its radii) an agent looks for a shortcut to a later corner */
#define MAX_FLOWS            16  /* flow fields held at once */
#define FLOW_MIN_AGENTS      8   /* agents that share a goal before a flow field may pay */
#define FLOW_LOOK_AHEAD      16  /* cells of its flow an agent may see ahead in a tick */
#define DEFAULT_WALL_HORIZON 1.0
#define AIM_TICKS            8  /* an agent on a navmesh leg works its corner out again at least so often */
#define DENSE                12 /* agents in a cell of the hash (half the neighbour range across): a crowd */
#define PARTINGS             8  /* passes of the parting a tick (those out of a crowd: all but the first), */
#define FEW_PARTINGS         32 /* or this many, while the last pushed at most FEW_PUSHED */
#define FEW_PUSHED           32

/* A route's points, one block: points, then regions, nodes (places) and links. */
typedef struct route {
    nav_vec3 *points;
    uint32_t *regions, *nodes;
    uint32_t
        *links; /* the world's link from this point to the next (a leg's last point), or NAV_WORLD_NONE */
    uint32_t count, capacity;
    uint32_t *link_points; /* the points with a link after them, in order (link_count of them) */
    uint32_t link_count;
    /* a navmesh leg's polygon corridor: polys[corridor_from[i] .. corridor_to[i]) for each point i of
     * the leg (UINT32_MAX: none, a leg of another kind), one spare slot before each */
    uint32_t *corridor_from, *corridor_to;
    uint32_t *polys, poly_count, poly_capacity;
    /* and its portals, once worked out (nav_mesh_corridor_portals: portals[j] leads out of polys[j],
     * the leg's last the leg's end), when portaled[i] for its points; room for portal_capacity (as
     * many as the polygons laid, not their room: a portal is 24 bytes) */
    nav_mesh_portal *portals;
    uint32_t *portaled, portal_capacity;
} route;

typedef struct agent {
    bool active, has_goal;
    nav_agent_params params;
    nav_world_place place;
    nav_vec3 velocity;
    /* (what its steering reads and writes: near the fields above, in a cache line or two) */
    double stuck;      /* seconds it has made almost no way while wanting to */
    double jammed;     /* seconds it has made almost no way among others (a jam: it squeezes) */
    double near_reach; /* its farthest neighbour kept when it last looked (all it could keep), or
                          INFINITY: where neighbours looks first */
    /* the walls near it (the crowd's walls[id * MAX_WALLS ..]) as found from walls_from */
    uint32_t wall_count, walls_region;
    nav_vec3 walls_from;
    bool walls_known;
    nav_vec3 goal;
    nav_agent_state state;
    route route;
    uint32_t corner;  /* the route point it steers to (on a navmesh leg, the leg's last) */
    uint32_t poly_at; /* on a navmesh leg: its polygon's place in the route's corridor */
    /* what follow_corridor reads of the route each tick, kept here (a route's arrays are far apart in
     * memory): for route point leg_of (UINT32_MAX: none; a route laid or dropped: none), its region,
     * its corridor's polys[leg_from .. leg_to) and its leg's last point; and polys[poly_at] when
     * poly_at_id is not UINT32_MAX */
    uint32_t leg_of, leg_region, leg_from, leg_to, leg_end, poly_at_id;
    bool leg_portaled;      /* (and whether its portals are worked out: route.portaled) */
    nav_vec3 aim;           /* on a navmesh leg: the corridor's corner it steers for this tick, */
    bool aim_set, aim_last; /* when it does, and whether that is its goal; */
    bool aim_kept;          /* kept from where it was worked out: its polygon's place, the leg's end */
    nav_vec3 steer_to;      /* the point it steered for in the last tick (nav_agent_info) */
    uint32_t aim_at, aim_end;
    nav_vec3 link_from;    /* on a link: where it started across */
    double link_length;    /* and how far it has to go, */
    double link_done;      /* and has gone */
    double waited;         /* seconds it has waited at a closed link */
    uint32_t flow;         /* the crowd's flow field it follows (flows[]), or UINT32_MAX */
    uint32_t flow_cell;    /* the cell of it it steers for */
    bool flow_checked;     /* looked at for a flow since its last plan */
    uint32_t following;    /* the agent whose place is its goal (nav_crowd_follow), or UINT32_MAX */
    float follow_distance; /* and how near it comes */
    bool closed_ahead;     /* a link further on its route is closed: it plans again (not before */
    double retry_at;       /* this crowd time, when the last try found no other way) */
} agent;

/* A cell of the hash round another, dx and dz cells off: the nearest two points of the two are
 * `apart` cells' sides apart squared at least. */
typedef struct cell_offset {
    int8_t dx, dz;
    uint8_t apart;
} cell_offset;

/* The hash's cells are a sixth of the neighbour range across at least: those within range of an
 * agent lie within 6 of its own cell (7: a range's rounding). */
#define ROUND_CELLS 225 /* 15 x 15 */

/* What the search for an agent's neighbours reads of another, in its bucket. */
typedef struct placed {
    float x, z, y, half_height, radius;
    uint32_t id : 31, on_link : 1; /* on_link: crossing a link (no neighbour to avoid) */
} placed;

/* The agents near one when it made the list (every one in the hash within `reach` of `from`, where
 * it was, or the LIST_CAP nearest: then reach is the farthest's distance), and how far any agent
 * could have moved before then (nav_crowd.moved); made in epoch (nav_crowd.list_epoch). Its nearest
 * neighbours are among them while none can have come nearer from farther (neighbours). */
typedef struct near_list {
    nav__orca_vec from;
    double reach, moved;
    uint64_t epoch, made, rest; /* made: the tick it was made; rest: no list before this tick, */
    uint32_t rest_ticks;        /* the next rest's ticks (0: LIST_REST) */
    uint32_t count;
    uint32_t ids[LIST_CAP];
} near_list;

/* Events of a tick's agents in a chunk, told once the chunk's thread is done (in the chunk's order,
 * the chunks' in theirs: the order of the agents, on any number of threads). */
typedef struct event_list {
    nav_crowd_event *events;
    uint32_t count, capacity;
    uint64_t lost; /* (no room could be had) */
} event_list;

/* A flow field that agents with a goal in one cell of a grid region share (nav/flow.h). */
typedef struct flow {
    nav_flow_field *field; /* null: a free slot */
    uint32_t region, goal_cell, users;
} flow;

/* An agent that may join a flow: its goal's region and cell, and its id. */
typedef struct flow_candidate {
    uint64_t key;
    uint32_t id;
} flow_candidate;

/* What a thread of the tick works with: its own world query and avoidance scratch. */
/* One of a tick's plans: the agent, its goal, whether it keeps its route when none is found (a link
 * closed ahead: it waits) and whether it follows another; what the search gave and whether its route
 * was laid (plan_search). */
typedef struct replan {
    uint32_t id;
    nav_vec3 goal;
    bool keep, follow, laid;
    nav_status status;
} replan;

typedef struct worker {
    nav_world_query *query;
    nav_path path;                     /* a plan's path */
    nav__orca_line *lines, *projected; /* MAX_WALLS + max_neighbours each */
    uint32_t *near;                    /* max_neighbours: the nearest neighbours found */
    double *near_dist;
    nav_status failed; /* the details of this tick's failures, or 0 */
    /* a parting's pass: how many it found to push, and how far those it pushed strayed from where
     * the hash has them */
    uint32_t pushing;
    double strayed;
    /* as agents look: the farthest one in the hash moved from where the hash had it a tick before,
     * and whether one came into the hash */
    double moved;
    bool entered;
    /* a parting's pass: the slots it woke for the next (woken; max_agents room: each once) */
    uint32_t *woke, woke_count;
    /* a run's chunks left of this thread's share (run_chunks): end << 32 | next */
    _Atomic uint64_t share;
    /* (no two threads' workers in one cache line, nor in two side by side: a line written by one
     * and read by another goes back and forth between their cores, a quarter of a microsecond each
     * way on a machine seen) */
    char cache_gap[128];
} worker;

struct nav_crowd {
    const nav_world *world;
    nav_allocator allocator;
    nav_world_query *query; /* plans on the caller's thread (a goal given: nav_crowd_set_goal) */
    nav_path path;          /* a plan's path */
    replan *replans;        /* a tick's plans (max_replans) */
    uint32_t replan_count;
    agent *agents;
    uint32_t max_agents;
    /* avoidance (nav_crowd_desc) */
    uint32_t max_neighbours;
    double time_horizon, range;
    /* a tick's: each agent as it was when the tick began (and the height of its floor), whether it
     * steers, the velocity it wants and the one avoidance leaves it */
    nav__orca_agent *was;
    float *floor_y;
    /* its nearest neighbour's distance when the tick began (range: none within it; 0: not looked for,
     * it does not avoid this tick): the parting's first pass passes by one that no move can have
     * brought within reach of another */
    double *apart;
    uint8_t *steers, *avoids; /* avoids: on the ground of a kind with room to pass (no road) */
    nav__orca_vec *preferred;
    /* the agents on the ground by cell of side `cell` (a hash of the cells into `buckets` buckets:
     * bucket b holds near_by[start[b] .. start[b + 1]), in id order): cells half the neighbour range
     * across, or as wide as the two widest agents; and again by cells of side fine_cell (a sixth of
     * the range, or as wide as the two widest) in fine_by[fine_start[b] .. fine_start[b + 1]), for
     * agents in a crowd (DENSE: their neighbours are then looked for among a few dozen, not hundreds) */
    uint32_t *start, buckets;
    double cell, fine_cell;
    uint32_t *fine_start;
    struct placed *fine_by;
    /* each agent's buckets in the two and what they hold of it (home UINT32_MAX: in neither), worked
     * out as it looks (its own, on any thread), for the cells of next_cell and next_fine_cell */
    uint32_t *home, *fine_home;
    struct placed *mine;
    double next_cell, next_fine_cell;
    struct cell_offset around[ROUND_CELLS]; /* the cells round one, nearest first (neighbours) */
    struct placed *near_by;
    /* each agent's list of those near it (near_list); the farthest an agent in the hash may have
     * moved since the crowd began (a tick's farthest move, summed); the lists' epoch (a new one when
     * an agent comes into the hash: those made before are no more) */
    near_list *lists;
    double moved;
    uint64_t list_epoch;
    /* parting those that overlap after the moves: each in the hash where the moves left it (after[e]
     * for near_by[e]; slot[i]: agent i's e, or UINT32_MAX), and how far it is pushed (push[e]); the
     * widest radius and the highest speed of the agents (sizes_stale: worked out again when the tick
     * begins, one having gone), the longest step of a tick, and the farthest any agent is from where
     * the hash has it (strayed: the longest step, then pushes too); a pass after the first
     * (again: only for those the last pushed or found overlapping) */
    nav__orca_vec *after, *push;
    bool *crushed; /* crushed[e]: the first pass found it overlapping three or more (passes no more
                    * until few are pushed) */
    /* woken[pass % 2][e]: pass (pass_count) looked for by the agent in slot e, one having found it
     * overlapping in the pass before */
    atomic_uint *woken[2];
    /* a pass after the first: the slots of those it looks for (pushed or woken by the last), in order
     * (gathered from the workers' woke lists through the bits of looker_bits, a bit a slot) */
    uint32_t *lookers, looker_count;
    uint64_t *looker_bits;
    uint32_t *slot, placed_count, pass_count;
    double widest, fastest, longest_step, strayed;
    bool again, few; /* few: the last pass pushed at most FEW_PUSHED (the crushed are parted again) */
    bool sizes_stale;
    double closed_wait;
    double wall_horizon, edge_clearance;
    nav_wall *walls; /* MAX_WALLS an agent */
    flow flows[MAX_FLOWS];
    flow_candidate *candidates; /* max_agents */
    double time;                /* seconds ticked */
    uint64_t ticks;             /* and ticks */
    double dt;                  /* the tick's */
    uint32_t max_replans;       /* plans a tick */
    uint32_t replan_from;       /* the agent whose turn to plan again comes first */
    /* the tick's threads: a pool of threads - 1 helpers (none for one), a worker each; the pool's
     * threads allocate through `shared` (the caller's allocator, one call at a time) */
    nav__pool *pool;
    uint32_t threads, handed;
    worker *workers;
    bool (*run)(void *ctx, void *scratch, uint32_t chunk); /* a run's (run_chunks) */
    event_list *chunk_events;                              /* a list a chunk of CHUNK agents */
    uint32_t chunks;
    nav_allocator shared;
    pthread_mutex_t lock;
    bool locked; /* lock made */
    /* the events not yet drained: a ring of event_capacity from event_first */
    nav_crowd_event *events;
    uint32_t event_capacity, event_first, event_count;
    uint64_t events_lost;
};

/* The caller's allocator for the tick's threads: one call at a time. */
/* The chunks of CHUNK that n items make, and the end of chunk k of them. */
static uint32_t chunks_of(uint32_t n)
{
    return n / CHUNK + (n % CHUNK != 0);
}

static uint32_t chunk_end(uint32_t n, uint32_t k)
{
    return n - k * CHUNK > CHUNK ? (k + 1) * CHUNK : n;
}

static void *shared_alloc(size_t size, void *user)
{
    nav_crowd *c = user;
    pthread_mutex_lock(&c->lock);
    void *p = nav__alloc(&c->allocator, size);
    pthread_mutex_unlock(&c->lock);
    return p;
}

static void *shared_realloc(void *ptr, size_t old_size, size_t new_size, void *user)
{
    nav_crowd *c = user;
    pthread_mutex_lock(&c->lock);
    void *p = nav__realloc(&c->allocator, ptr, old_size, new_size);
    pthread_mutex_unlock(&c->lock);
    return p;
}

static void shared_free(void *ptr, void *user)
{
    nav_crowd *c = user;
    pthread_mutex_lock(&c->lock);
    nav__free(&c->allocator, ptr);
    pthread_mutex_unlock(&c->lock);
}

static bool worker_make(nav_crowd *c, worker *w)
{
    const nav_allocator *a = c->threads > 1 ? &c->shared : &c->allocator;
    uint32_t n = c->max_neighbours + MAX_WALLS;
    w->lines = nav__alloc(a, nav__mul_size(n, sizeof *w->lines));
    w->projected = nav__alloc(a, nav__mul_size(n, sizeof *w->projected));
    uint32_t most = c->max_neighbours > LIST_CAP ? c->max_neighbours : LIST_CAP; /* (a list's too) */
    w->near = nav__calloc(a, most, sizeof *w->near); /* (read before they are found: keep_near) */
    w->near_dist = nav__calloc(a, most, sizeof *w->near_dist);
    w->woke = nav__alloc(a, nav__mul_size(c->max_agents, sizeof *w->woke));
    nav_path_init(&w->path, a);
    return w->lines && w->projected && w->near && w->near_dist && w->woke &&
           !nav_failed(nav_world_query_create(c->world, a, &w->query));
}

static void worker_free(nav_crowd *c, worker *w)
{
    const nav_allocator *a = c->threads > 1 ? &c->shared : &c->allocator;
    nav__free(a, w->lines);
    nav__free(a, w->projected);
    nav__free(a, w->near);
    nav__free(a, w->near_dist);
    nav__free(a, w->woke);
    nav_path_destroy(&w->path);
    nav_world_query_destroy(w->query);
}

/* Cells round one in order: nearest first, then by ring, sides before corners, then by row and
 * column. */
static int nearer_cell(const void *x, const void *y)
{
    const cell_offset *a = x, *b = y;
    int ra = abs(a->dx) > abs(a->dz) ? abs(a->dx) : abs(a->dz),
        rb = abs(b->dx) > abs(b->dz) ? abs(b->dx) : abs(b->dz);
    if (a->apart != b->apart) return a->apart < b->apart ? -1 : 1;
    if (ra != rb) return ra < rb ? -1 : 1;
    int sa = abs(a->dx) + abs(a->dz), sb = abs(b->dx) + abs(b->dz); /* (a side before a corner) */
    if (sa != sb) return sa < sb ? -1 : 1;
    if (a->dz != b->dz) return a->dz < b->dz ? -1 : 1;
    return (a->dx > b->dx) - (a->dx < b->dx);
}

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
    c->shared = (nav_allocator){shared_alloc, shared_realloc, shared_free, c};
    c->max_agents = max;
    nav_path_init(&c->path, &a);
    c->max_neighbours = desc && desc->max_neighbours ? desc->max_neighbours : DEFAULT_NEIGHBOURS;
    c->time_horizon = desc && desc->time_horizon > 0 ? desc->time_horizon : DEFAULT_TIME_HORIZON;
    c->range = desc && desc->neighbour_range > 0 ? desc->neighbour_range : DEFAULT_RANGE;
    c->closed_wait = desc && desc->closed_wait > 0 ? desc->closed_wait : DEFAULT_CLOSED_WAIT;
    c->wall_horizon = desc && desc->wall_horizon > 0 ? desc->wall_horizon : DEFAULT_WALL_HORIZON;
    c->edge_clearance = desc && desc->edge_clearance > 0 ? desc->edge_clearance : 0;
    c->max_replans = desc && desc->max_replans ? desc->max_replans : DEFAULT_REPLANS;
    c->threads = desc && desc->threads ? desc->threads : 1;
    if (c->threads > NAV__POOL_MAX) c->threads = NAV__POOL_MAX;
    c->event_capacity = max <= (UINT32_MAX - 64) / 4 ? 4 * max + 64 : UINT32_MAX;
    c->events = nav__alloc(&a, nav__mul_size(c->event_capacity, sizeof *c->events));
    c->buckets = 1;
    while (c->buckets < 2 * max && c->buckets < (1u << 30)) c->buckets *= 2;
    for (int k = 0; k < ROUND_CELLS; k++) {
        int dx = k % 15 - 7, dz = k / 15 - 7, gx = abs(dx) > 1 ? abs(dx) - 1 : 0,
            gz = abs(dz) > 1 ? abs(dz) - 1 : 0;
        c->around[k] = (cell_offset){(int8_t)dx, (int8_t)dz, (uint8_t)(gx * gx + gz * gz)};
    }
    qsort(c->around, ROUND_CELLS, sizeof *c->around, nearer_cell);
    c->chunks = chunks_of(max);
    c->agents = nav__calloc(&a, max, sizeof *c->agents);
    c->walls = nav__alloc(&a, nav__mul_size(max, MAX_WALLS * sizeof *c->walls));
    c->candidates = nav__alloc(&a, nav__mul_size(max, sizeof *c->candidates));
    c->was = nav__alloc(&a, nav__mul_size(max, sizeof *c->was));
    c->floor_y = nav__alloc(&a, nav__mul_size(max, sizeof *c->floor_y));
    c->apart = nav__alloc(&a, nav__mul_size(max, sizeof *c->apart));
    c->steers = nav__calloc(&a, max, 1);
    c->avoids = nav__alloc(&a, max);
    c->preferred = nav__alloc(&a, nav__mul_size(max, sizeof *c->preferred));
    c->start = nav__calloc(&a, (size_t)c->buckets + 1, sizeof *c->start); /* (empty before a tick) */
    c->near_by = nav__alloc(&a, nav__mul_size(max, sizeof *c->near_by));
    c->fine_start = nav__calloc(&a, (size_t)c->buckets + 1, sizeof *c->fine_start);
    c->fine_by = nav__alloc(&a, nav__mul_size(max, sizeof *c->fine_by));
    c->home = nav__alloc(&a, nav__mul_size(max, sizeof *c->home));
    if (c->home) memset(c->home, 0xff, (size_t)max * sizeof *c->home); /* (in no bucket) */
    c->lists = nav__calloc(&a, max, sizeof *c->lists);
    c->list_epoch = 1; /* (the lists: none made) */
    c->fine_home = nav__alloc(&a, nav__mul_size(max, sizeof *c->fine_home));
    c->mine = nav__calloc(&a, max, sizeof *c->mine);
    c->after = nav__alloc(&a, nav__mul_size(max, sizeof *c->after));
    c->push = nav__alloc(&a, nav__mul_size(max, sizeof *c->push));
    c->crushed = nav__alloc(&a, nav__mul_size(max, sizeof *c->crushed));
    for (int k = 0; k < 2; k++) c->woken[k] = nav__calloc(&a, max, sizeof *c->woken[k]); /* (0: none) */
    c->slot = nav__alloc(&a, nav__mul_size(max, sizeof *c->slot));
    c->lookers = nav__alloc(&a, nav__mul_size(max, sizeof *c->lookers));
    c->looker_bits = nav__calloc(&a, max / 64 + 1, sizeof *c->looker_bits); /* (0: none) */
    c->chunk_events = nav__calloc(&a, c->chunks, sizeof *c->chunk_events);
    c->workers = nav__calloc(&a, c->threads, sizeof *c->workers);
    c->replans = nav__alloc(&a, nav__mul_size(c->max_replans, sizeof *c->replans));
    c->locked = pthread_mutex_init(&c->lock, NULL) == 0;
    bool made = c->agents && c->walls && c->candidates && c->events && c->was && c->floor_y && c->apart &&
                c->steers && c->avoids && c->preferred && c->start && c->near_by && c->fine_start &&
                c->fine_by && c->home && c->fine_home && c->mine && c->after && c->push && c->crushed &&
                c->woken[0] && c->woken[1] && c->slot && c->chunk_events && c->workers && c->replans &&
                c->lists && c->lookers && c->looker_bits && c->locked;
    for (uint32_t t = 0; made && t < c->threads; t++) made = worker_make(c, &c->workers[t]);
    nav_status s = made ? nav_world_query_create(w, &a, &c->query) : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (!nav_failed(s) && c->threads > 1) {
        c->pool = nav__alloc(&a, sizeof *c->pool);
        if (c->pool)
            nav__pool_start(c->pool, c->threads, true); /* (its threads spin between a tick's runs) */
        else
            s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    if (nav_failed(s)) {
        nav_crowd_destroy(c);
        return nav_has_detail(s, NAV_OUT_OF_MEMORY) ? NAV_FAILURE | NAV_OUT_OF_MEMORY : s;
    }
    *out = c;
    return NAV_SUCCESS;
}

static size_t route_point_bytes(void)
{
    return sizeof(nav_vec3) + 7 * sizeof(uint32_t);
}

static void route_free(nav_crowd *c, route *r)
{
    nav__free(&c->allocator, r->points);
    nav__free(&c->allocator, r->polys);
    nav__free(&c->allocator, r->portals);
    *r = (route){0};
}

void nav_crowd_destroy(nav_crowd *c)
{
    if (!c) return;
    nav_allocator a = c->allocator;
    if (c->pool) {
        nav__pool_stop(c->pool);
        nav__free(&a, c->pool);
    }
    for (uint32_t i = 0; c->agents && i < c->max_agents; i++) route_free(c, &c->agents[i].route);
    for (uint32_t t = 0; c->workers && c->locked && t < c->threads; t++) worker_free(c, &c->workers[t]);
    for (uint32_t k = 0; c->chunk_events && c->locked && k < c->chunks; k++)
        nav__free(c->threads > 1 ? &c->shared : &a, c->chunk_events[k].events);
    nav__free(&a, c->agents);
    nav__free(&a, c->walls);
    nav__free(&a, c->candidates);
    for (uint32_t f = 0; f < MAX_FLOWS; f++) nav_flow_field_destroy(c->flows[f].field);
    nav__free(&a, c->was);
    nav__free(&a, c->floor_y);
    nav__free(&a, c->apart);
    nav__free(&a, c->events);
    nav__free(&a, c->steers);
    nav__free(&a, c->avoids);
    nav__free(&a, c->preferred);
    nav__free(&a, c->start);
    nav__free(&a, c->near_by);
    nav__free(&a, c->fine_start);
    nav__free(&a, c->fine_by);
    nav__free(&a, c->home);
    nav__free(&a, c->fine_home);
    nav__free(&a, c->mine);
    nav__free(&a, c->after);
    nav__free(&a, c->push);
    nav__free(&a, c->crushed);
    for (int k = 0; k < 2; k++) nav__free(&a, c->woken[k]);
    nav__free(&a, c->slot);
    nav__free(&a, c->lists);
    nav__free(&a, c->lookers);
    nav__free(&a, c->looker_bits);
    nav__free(&a, c->chunk_events);
    nav__free(&a, c->workers);
    nav__free(&a, c->replans);
    if (c->locked) pthread_mutex_destroy(&c->lock);
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
            (sizeof *c->agents + MAX_WALLS * sizeof *c->walls + sizeof *c->was + sizeof *c->floor_y + 2 +
             sizeof *c->apart + sizeof *c->preferred + 3 * sizeof *c->near_by + 2 * sizeof *c->home +
             sizeof *c->candidates + 2 * sizeof *c->after + sizeof *c->crushed + 2 * sizeof *c->woken[0] +
             sizeof *c->slot + sizeof *c->lists + sizeof *c->lookers) +
        ((size_t)c->max_agents / 64 + 1) * sizeof *c->looker_bits +
        2 * ((size_t)c->buckets + 1) * sizeof *c->start + (size_t)c->event_capacity * sizeof *c->events +
        nav_world_query_memory_bytes(c->query) +
        (size_t)c->path.capacity * (sizeof *c->path.points + sizeof *c->path.nodes) +
        (c->pool ? sizeof *c->pool : 0) + (size_t)c->chunks * sizeof *c->chunk_events +
        (size_t)c->max_replans * sizeof *c->replans;
    for (uint32_t t = 0; t < c->threads; t++)
        bytes += sizeof *c->workers + ((size_t)c->max_neighbours + MAX_WALLS) * 2 * sizeof(nav__orca_line) +
                 (size_t)(c->max_neighbours > LIST_CAP ? c->max_neighbours : LIST_CAP) *
                     (sizeof(uint32_t) + sizeof(double)) +
                 (size_t)c->max_agents * sizeof(uint32_t) +
                 nav_world_query_memory_bytes(c->workers[t].query) +
                 (size_t)c->workers[t].path.capacity * (sizeof(nav_vec3) + sizeof(uint32_t));
    for (uint32_t k = 0; k < c->chunks; k++)
        bytes += (size_t)c->chunk_events[k].capacity * sizeof(nav_crowd_event);
    for (uint32_t i = 0; i < c->max_agents; i++)
        bytes += c->agents[i].route.capacity * route_point_bytes() +
                 c->agents[i].route.poly_capacity * sizeof(uint32_t) +
                 c->agents[i].route.portal_capacity * sizeof(nav_mesh_portal);
    for (uint32_t f = 0; f < MAX_FLOWS; f++) /* (13 bytes a cell: nav/flow.h) */
        if (c->flows[f].field) {
            const nav_grid *g = nav_world_region_grid(c->world, c->flows[f].region);
            bytes += 13 * (size_t)nav_grid_width(g) * (size_t)nav_grid_height(g);
        }
    return bytes;
}

/* Into the ring of events not yet drained (the oldest goes when it is full). */
static void ring_push(nav_crowd *c, const nav_crowd_event *e)
{
    if (c->event_count == c->event_capacity) {
        c->event_first = (c->event_first + 1) % c->event_capacity;
        c->event_count--;
        c->events_lost++;
    }
    c->events[(c->event_first + c->event_count++) % c->event_capacity] = *e;
}

/* Tells the engine: into the ring, or, from a tick's threads, into the list of the agent's chunk. */
static void tell(nav_crowd *c, event_list *into, nav_crowd_event_type type, uint32_t id, uint32_t link,
                 nav_vec3 from, nav_vec3 to)
{
    nav_crowd_event e = {type, id, link, (nav_world_link_kind)0, from, to};
    nav_world_link_desc d;
    if (link != NAV_WORLD_NONE && nav_world_link(c->world, link, &d)) e.kind = d.kind;
    if (!into) {
        ring_push(c, &e);
        return;
    }
    if (into->count == into->capacity) {
        const nav_allocator *a = c->threads > 1 ? &c->shared : &c->allocator;
        uint32_t more = into->capacity ? 2 * into->capacity : 8;
        nav_crowd_event *grown =
            nav__realloc(a, into->events, (size_t)into->capacity * sizeof e, nav__mul_size(more, sizeof e));
        if (!grown) {
            into->lost++;
            return;
        }
        into->events = grown, into->capacity = more;
    }
    into->events[into->count++] = e;
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
    if (!p ||
        !(p->radius > 0 && p->height > 0 && p->max_speed > 0 && p->max_accel > 0 && isfinite(p->radius) &&
          isfinite(p->height) && isfinite(p->max_speed) && isfinite(p->max_accel)))
        return false;
    for (int t = 0; p->mesh_filter && p->mesh_filter->area_cost && t < 256; t++)
        if (!nav_terrain_cost_valid(p->mesh_filter->area_cost[t])) return false;
    return !p->grid_filter || nav_grid_filter_valid(p->grid_filter);
}

/* Query q, set for agent a: its filters (checked when it was added). */
static nav_world_query *as_agent(nav_world_query *q, const agent *a)
{
    (void)nav_world_query_set_mesh_filter(q, a->params.mesh_filter);
    (void)nav_world_query_set_grid_filter(q, a->params.grid_filter);
    return q;
}

nav_status nav_crowd_add_agent(nav_crowd *c, nav_vec3 position, const nav_agent_params *params, uint32_t *id)
{
    if (id) *id = UINT32_MAX;
    if (!c || !finite3(position) || !params_ok(params)) return NAV_FAILURE | NAV_INVALID_PARAM;
    uint32_t free_id = 0;
    while (free_id < c->max_agents && c->agents[free_id].active) free_id++;
    if (free_id == c->max_agents) return NAV_FAILURE | NAV_BUFFER_TOO_SMALL;
    /* (a grid filter on a world that takes none: NAV_WRONG_STATE) */
    nav_status s = nav_world_query_set_grid_filter(c->query, params->grid_filter);
    (void)nav_world_query_set_grid_filter(c->query, NULL);
    if (nav_failed(s)) return s;
    nav_world_place at;
    s = nav_world_nearest(c->world, position, (nav_vec3){params->radius, params->height, params->radius},
                          &at);
    if (nav_failed(s)) return s;
    agent *a = &c->agents[free_id];
    *a = (agent){.active = true,
                 .params = *params,
                 .place = at,
                 .state = NAV_AGENT_IDLE,
                 .following = UINT32_MAX,
                 .near_reach = INFINITY,
                 .leg_of = UINT32_MAX};
    c->widest = fmax(c->widest, params->radius), c->fastest = fmax(c->fastest, params->max_speed);
    if (id) *id = free_id;
    return NAV_SUCCESS;
}

/* Agent a follows its flow no more (the flow goes with its last user). */
static void leave_flow(nav_crowd *c, agent *a)
{
    if (a->flow == UINT32_MAX) return;
    flow *f = &c->flows[a->flow];
    if (--f->users == 0) {
        nav_flow_field_destroy(f->field);
        *f = (flow){0};
    }
    a->flow = UINT32_MAX;
}

nav_status nav_crowd_remove_agent(nav_crowd *c, uint32_t id)
{
    agent *a = agent_of(c, id);
    if (!a) return NAV_FAILURE | NAV_INVALID_PARAM;
    leave_flow(c, a);
    route_free(c, &a->route);
    *a = (agent){0};
    c->sizes_stale = true;
    return NAV_SUCCESS;
}

/* Room for n route points (what was there is not kept). */
/* What routes are made with: plans run on the pool's threads (the caller's allocator, behind a lock
 * when there are several). */
static const nav_allocator *route_allocator(const nav_crowd *c)
{
    return c->threads > 1 ? &c->shared : &c->allocator;
}

static bool route_reserve(nav_crowd *c, route *r, uint32_t n)
{
    if (n <= r->capacity) return true;
    uint32_t capacity = r->capacity ? r->capacity : 16;
    while (capacity < n) capacity = capacity > UINT32_MAX / 2 ? n : capacity * 2;
    void *block = nav__alloc(route_allocator(c), nav__mul_size(capacity, route_point_bytes()));
    if (!block) return false;
    nav__free(route_allocator(c), r->points);
    r->points = block;
    r->regions = (uint32_t *)(r->points + capacity);
    r->nodes = r->regions + capacity;
    r->links = r->nodes + capacity;
    r->link_points = r->links + capacity;
    r->corridor_from = r->link_points + capacity;
    r->corridor_to = r->corridor_from + capacity;
    r->portaled = r->corridor_to + capacity;
    r->capacity = capacity;
    return true;
}

/* Appends leg l's polygon corridor (of query q's last plan, path) to route r's, after a spare slot;
 * *length: the corridor's. */
static nav_status corridor_of(nav_crowd *c, nav_world_query *q, nav_path *path, route *r, uint32_t l,
                              uint32_t *length)
{
    for (;;) {
        uint32_t room = r->poly_capacity - r->poly_count, n = 0;
        nav_status s = room > 1
                           ? nav_world_leg_corridor(q, l, path, r->polys + r->poly_count + 1, room - 1, &n)
                           : NAV_FAILURE | NAV_BUFFER_TOO_SMALL;
        if (!nav_failed(s) && n == 0) return NAV_FAILURE | NAV_INVALID_PARAM;
        if (!nav_failed(s)) {
            r->poly_count += n + 1;
            *length = n;
            return NAV_SUCCESS;
        }
        if (!nav_has_detail(s, NAV_BUFFER_TOO_SMALL)) return s;
        uint32_t need = r->poly_count + (n > 16 ? n : 16) + 1,
                 capacity = r->poly_capacity ? r->poly_capacity : 64;
        while (capacity < need) capacity = capacity > UINT32_MAX / 2 ? need : capacity * 2;
        uint32_t *polys = nav__alloc(route_allocator(c), nav__mul_size(capacity, sizeof *polys));
        if (!polys) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
        if (r->poly_count) memcpy(polys, r->polys, (size_t)r->poly_count * sizeof *polys);
        nav__free(route_allocator(c), r->polys);
        r->polys = polys, r->poly_capacity = capacity;
    }
}

/* The route of query q's last plan (path and the query's legs, to goal) into agent a's. */
static bool take_route(nav_crowd *c, nav_world_query *q, const nav_path *path, agent *a, nav_vec3 goal)
{
    uint32_t legs;
    const nav_world_leg *leg = nav_world_query_legs(q, &legs);
    a->leg_of = UINT32_MAX;
    if (!route_reserve(c, &a->route, path->count)) return false;
    route *r = &a->route;
    r->count = path->count;
    r->link_count = 0;
    for (uint32_t l = 0; l < legs; l++)
        for (uint32_t i = leg[l].first_point; i < leg[l].first_point + leg[l].point_count; i++) {
            r->points[i] = path->points[i];
            r->regions[i] = leg[l].region;
            r->nodes[i] = path->nodes[i];
            r->links[i] = i + 1 == leg[l].first_point + leg[l].point_count ? leg[l].link : NAV_WORLD_NONE;
            if (r->links[i] != NAV_WORLD_NONE) r->link_points[r->link_count++] = i;
        }
    r->poly_count = 0;
    for (uint32_t l = 0; l < legs; l++) {
        uint32_t from = UINT32_MAX, to = UINT32_MAX, length;
        if (nav_world_region_kind_of(c->world, leg[l].region) == NAV_WORLD_REGION_MESH) {
            nav_status s = corridor_of(c, q, (nav_path *)path, r, l, &length);
            if (nav_failed(s) && nav_has_detail(s, NAV_OUT_OF_MEMORY)) return false;
            if (!nav_failed(s)) from = r->poly_count - length, to = r->poly_count;
        }
        for (uint32_t i = leg[l].first_point; i < leg[l].first_point + leg[l].point_count; i++)
            r->corridor_from[i] = from, r->corridor_to[i] = to;
    }
    if (r->poly_count > r->portal_capacity) { /* (the corridors laid: their polygons move no more) */
        nav_mesh_portal *portals =
            nav__alloc(route_allocator(c), nav__mul_size(r->poly_count, sizeof *portals));
        if (!portals) return false;
        nav__free(route_allocator(c), r->portals);
        r->portals = portals, r->portal_capacity = r->poly_count;
    }
    for (uint32_t l = 0; l < legs; l++) {
        uint32_t first = leg[l].first_point, last = first + leg[l].point_count - 1,
                 from = r->corridor_from[first];
        const nav_mesh *m = from != UINT32_MAX ? nav_world_query_region_mesh(q, leg[l].region) : NULL;
        bool portaled =
            m && !nav_failed(nav_mesh_corridor_portals(m, r->polys + from, r->corridor_to[first] - from,
                                                       r->points[last], r->portals + from));
        for (uint32_t i = first; i <= last; i++) r->portaled[i] = portaled;
    }
    /* a grid leg ends at its cell's centre: the agent goes on to the goal's own point in that cell */
    const nav_grid *g = r->count ? nav_world_region_grid(c->world, r->regions[r->count - 1]) : NULL;
    int32_t x, y;
    if (g && nav_grid_world_to_cell(g, goal, &x, &y) &&
        (uint32_t)nav_grid_index(g, x, y) == r->nodes[r->count - 1])
        r->points[r->count - 1] = (nav_vec3){goal.x, r->points[r->count - 1].y, goal.z};
    return true;
}

/* A plan's search, on any thread (it touches agent a alone): a's route from where it stands to goal,
 * on query q into path, laid into a's route (*laid) unless the plan failed or found none. */
static nav_status plan_search(nav_crowd *c, nav_world_query *q, nav_path *path, agent *a, nav_vec3 goal,
                              bool *laid)
{
    nav_world_result res;
    nav_world_query_exclude_links(q, a->params.excluded_links);
    nav_status s = nav_world_find_path(as_agent(q, a), a->place.position, goal, path, &res);
    *laid = !nav_failed(s) && !nav_has_detail(s, NAV_UNREACHABLE) && take_route(c, q, path, a, goal);
    return s;
}

/* What a plan's search (s, laid) leaves agent a with: goal is its goal from now on, unless it is at
 * no walkable place (NAV_INVALID_PARAM, nothing changed) or none was found and keep_if_none (its
 * route as it was). On the caller's thread (its flow goes). */
static nav_status plan_apply(nav_crowd *c, agent *a, nav_vec3 goal, bool keep_if_none, nav_status s,
                             bool laid)
{
    if (nav_failed(s) && nav_has_detail(s, NAV_INVALID_PARAM)) return s; /* (a goal at no place: as it was) */
    if (keep_if_none && (nav_failed(s) || nav_has_detail(s, NAV_UNREACHABLE))) return s;
    leave_flow(c, a);
    a->leg_of = UINT32_MAX;
    a->flow_checked = false;
    a->has_goal = true;
    a->goal = goal;
    if (!laid) a->route.count = a->route.link_count = 0;
    a->corner = 0;
    a->closed_ahead = false;
    if (nav_failed(s) || nav_has_detail(s, NAV_UNREACHABLE) || !laid) { /* (it stands) */
        a->velocity = (nav_vec3){0, 0, 0};
        a->state = NAV_AGENT_NO_ROUTE;
        return laid || nav_failed(s) || nav_has_detail(s, NAV_UNREACHABLE) ? s
                                                                           : NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    a->corner = a->route.count > 1 ? 1 : 0; /* (the first point is where it starts) */
    a->aim_kept = false, a->poly_at = 0;
    a->state = NAV_AGENT_MOVING;
    a->stuck = a->waited = 0;
    a->closed_ahead = false;
    return NAV_SUCCESS;
}

/* Plans agent a's route from where it stands to goal on the caller's thread (plan_search, then
 * plan_apply). */
static nav_status plan(nav_crowd *c, agent *a, nav_vec3 goal, bool keep_if_none)
{
    bool laid;
    nav_status s = plan_search(c, c->query, &c->path, a, goal, &laid);
    return plan_apply(c, a, goal, keep_if_none, s, laid);
}

nav_status nav_crowd_set_goal(nav_crowd *c, uint32_t id, nav_vec3 goal)
{
    agent *a = agent_of(c, id);
    if (!a || !finite3(goal)) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_status s = plan(c, a, goal, false);
    if (!(nav_failed(s) && nav_has_detail(s, NAV_INVALID_PARAM))) a->following = UINT32_MAX;
    return s;
}

nav_status nav_crowd_follow(nav_crowd *c, uint32_t id, uint32_t target, float distance)
{
    agent *a = agent_of(c, id);
    const agent *t = agent_of(c, target);
    if (!a || !t || id == target || !(distance >= 0 && isfinite(distance)))
        return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_status s = plan(c, a, t->place.position, false);
    if (nav_failed(s) && nav_has_detail(s, NAV_INVALID_PARAM)) return s;
    a->following = target;
    a->follow_distance = distance;
    return s;
}

nav_status nav_crowd_clear_goal(nav_crowd *c, uint32_t id)
{
    agent *a = agent_of(c, id);
    if (!a) return NAV_FAILURE | NAV_INVALID_PARAM;
    leave_flow(c, a);
    a->has_goal = false;
    a->following = UINT32_MAX;
    a->route.count = a->route.link_count = 0;
    a->leg_of = UINT32_MAX;
    a->corner = 0;
    a->closed_ahead = false;
    a->velocity = (nav_vec3){0, 0, 0};
    a->state = NAV_AGENT_IDLE;
    return NAV_SUCCESS;
}

/* At the link's far end: onto the next leg's first place. */
static void land(nav_crowd *c, event_list *into, uint32_t id)
{
    agent *a = &c->agents[id];
    const route *r = &a->route;
    nav_vec3 to = r->points[a->corner];
    tell(c, into, NAV_CROWD_LINK_END, id, r->links[a->corner - 1], r->points[a->corner - 1], to);
    a->place = (nav_world_place){r->regions[a->corner], r->nodes[a->corner], to};
    a->state = NAV_AGENT_MOVING;
    if (a->corner + 1 < r->count) a->corner++;
}

/* Along a link at its speed (or, when its engine moves it, where the engine has it: it stands). */
static void cross_link(nav_crowd *c, event_list *into, uint32_t id, double dt)
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
    if (t >= 1) { /* (across at its speed: it goes on at it, not at the last step's part of it) */
        double dx = (double)to.x - a->link_from.x, dz = (double)to.z - a->link_from.z,
               len = sqrt(dx * dx + dz * dz);
        if (len > 0)
            a->velocity = (nav_vec3){(float)(dx / len * a->params.max_speed), 0,
                                     (float)(dz / len * a->params.max_speed)};
        land(c, into, id);
    }
}

nav_status nav_crowd_finish_link(nav_crowd *c, uint32_t id)
{
    agent *a = agent_of(c, id);
    if (!a || a->state != NAV_AGENT_ON_LINK) return NAV_FAILURE | NAV_INVALID_PARAM;
    a->velocity = (nav_vec3){0, 0, 0};
    land(c, NULL, id);
    return NAV_SUCCESS;
}

/* An agent's clearance from the walls (nav_crowd_desc.edge_clearance). */
static double clearance_of(const nav_crowd *c, const agent *a)
{
    return c->edge_clearance > 0 ? c->edge_clearance : 0.01 * a->params.radius;
}

/* Point (x, z) moved out of agent i's clearance from the walls near it; no_nearer: from each wall, no
 * nearer than the agent stands already, if that is less. */
static nav__orca_vec out_of_walls(const nav_crowd *c, uint32_t i, double x, double z, bool no_nearer)
{
    const agent *a = &c->agents[i];
    double clearance = clearance_of(c, a);
    for (int pass = 0; pass < 2; pass++) /* (twice: a corner between two walls) */
        for (uint32_t k = 0; k < a->wall_count; k++) {
            const nav_wall *w = &c->walls[(size_t)i * MAX_WALLS + k];
            double ex = (double)w->b.x - w->a.x, ez = (double)w->b.z - w->a.z, len = sqrt(ex * ex + ez * ez),
                   qx, qz;
            if (len == 0) continue;
            double d = nav__segment_nearest(x, z, w->a.x, w->a.z, w->b.x, w->b.z, &qx, &qz), keep = clearance;
            if (d >= keep) continue;
            if (no_nearer)
                keep = fmin(keep, nav__segment_distance(a->place.position.x, a->place.position.z, w->a.x,
                                                        w->a.z, w->b.x, w->b.z));
            if (d >= keep) continue;
            double nx = -ez / len, nz = ex / len; /* (its walkable side) */
            if (d > 1e-9 && (x - qx) * nx + (z - qz) * nz > 0) nx = (x - qx) / d, nz = (z - qz) / d;
            x = qx + nx * keep, z = qz + nz * keep;
        }
    return (nav__orca_vec){x, z};
}

/* Where agent i steers for its corner: the corner moved out of its clearance from the walls near it
 * (a route bends round a wall's end exactly; its body cannot). */
static nav__orca_vec steer_point(const nav_crowd *c, uint32_t i, nav_vec3 corner)
{
    return out_of_walls(c, i, corner.x, corner.z, false);
}

/* Whether the straight way from agent i towards point `to` (to where it would steer for it) keeps half
 * its clearance from the walls near it (a corner it sees as a point past a wall's end it would graze
 * is no shortcut for its body; within half of it, the walls' lines in its avoidance slide it along
 * them). */
static bool clear_of_walls(const nav_crowd *c, uint32_t i, nav_vec3 to)
{
    const agent *a = &c->agents[i];
    nav__orca_vec end = steer_point(c, i, to);
    double keep = 0.5 * clearance_of(c, a), px = a->place.position.x, pz = a->place.position.z, tx = end.x,
           tz = end.z;
    for (uint32_t k = 0; k < a->wall_count; k++) {
        const nav_wall *w = &c->walls[(size_t)i * MAX_WALLS + k];
        double ax = w->a.x, az = w->a.z, bx = w->b.x, bz = w->b.z;
        /* crossing: no; else, unless an end is that near the wall already (it does not stop it), a
         * wall's end that near the way */
        double d1 = (bx - ax) * (pz - az) - (bz - az) * (px - ax),
               d2 = (bx - ax) * (tz - az) - (bz - az) * (tx - ax),
               d3 = (tx - px) * (az - pz) - (tz - pz) * (ax - px),
               d4 = (tx - px) * (bz - pz) - (tz - pz) * (bx - px);
        if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)))
            return false;
        if (nav__segment_distance(px, pz, ax, az, bx, bz) < keep ||
            nav__segment_distance(tx, tz, ax, az, bx, bz) < keep)
            continue;
        if (fmin(nav__segment_distance(ax, az, px, pz, tx, tz),
                 nav__segment_distance(bx, bz, px, pz, tx, tz)) < keep)
            return false;
    }
    return true;
}

static uint32_t bucket_of(const nav_crowd *c, int64_t cx, int64_t cz);
static int64_t cell_of(const nav_crowd *c, double x);

/* Whether no agent crossing a link stood within reach of point `at` when the last tick's avoidance
 * began (the hash as that tick left it: read alone during this tick's look): agent i starts across a
 * link only once the one before it on the link is a body ahead, and none coming the other way is
 * about to land where it stands or has just left where it will land. (Agents on the ground at either
 * end do not stop it: two waiting at the two ends for each other would wait for ever.) */
static bool spot_clear(const nav_crowd *c, uint32_t i, nav_vec3 at)
{
    const agent *a = &c->agents[i];
    if (!c->cell) return true; /* (no hash yet) */
    int64_t cx = cell_of(c, at.x), cz = cell_of(c, at.z);
    for (int k = 0; k < 9; k++) { /* (cells as wide as the two widest agents at least) */
        uint32_t b = bucket_of(c, cx + k % 3 - 1, cz + k / 3 - 1);
        for (uint32_t e = c->start[b]; e < c->start[b + 1]; e++) {
            const placed *o = &c->near_by[e];
            double dx = o->x - at.x, dz = o->z - at.z, room = (double)o->radius + a->params.radius;
            if (o->id != i && o->on_link && dx * dx + dz * dz < room * room &&
                fabsf(o->y - at.y) < 0.5f * a->params.height + o->half_height)
                return false;
        }
    }
    return true;
}

/* The first `capacity` corners from agent a through its route's corridor polys[first .. to) to the
 * leg's last point `end` (nav_mesh_corridor_corners), over the route's portals when given. */
static nav_status leg_corners(const nav_mesh *m, const agent *a, uint32_t first, uint32_t to, uint32_t end,
                              bool given, uint32_t capacity, nav_vec3 *corners, uint32_t *n, bool *reached)
{
    const route *r = &a->route;
    return given ? nav_mesh_portal_corners(r->portals + first, to - first, a->place.position, corners,
                                           capacity, n, reached)
                 : nav_mesh_corridor_corners(m, r->polys + first, to - first, a->place.position,
                                             r->points[end], corners, capacity, n, reached);
}

/* On a navmesh leg, the corner agent a steers for: the first of the shortest way from where it stands
 * through the rest of the leg's corridor to the leg's end (nav_mesh_corridor_corners: Detour's
 * findCorners), its route's corner then the leg's end. The corridor is followed from the agent's
 * polygon on; pushed off it onto a polygon next to it, the agent's polygon goes before the farthest
 * of the next 8 it meets. False (a->aim_set false: it steers for its route's corner this tick) with
 * no corridor, on a world whose regions load on demand, and off the corridor and not next to it
 * (then it plans again, its turn come). */
static bool follow_corridor(nav_crowd *c, worker *w, uint32_t id)
{
    agent *a = &c->agents[id];
    route *r = &a->route;
    uint32_t k = a->corner;
    a->aim_set = false;
    if (a->leg_of != k) {
        uint32_t end = k;
        while (r->links[end] == NAV_WORLD_NONE && end + 1 < r->count) end++;
        a->leg_of = k, a->leg_region = r->regions[k], a->leg_end = end;
        a->leg_from = r->corridor_from[k], a->leg_to = r->corridor_to[k], a->poly_at_id = UINT32_MAX;
        a->leg_portaled = r->portaled[k];
    }
    if (a->leg_from == UINT32_MAX || a->place.region != a->leg_region) return false;
    const nav_mesh *m = nav_world_query_region_mesh(w->query, a->leg_region); /* (held: on demand) */
    if (!m) return false;
    uint32_t end = a->leg_end, from = a->leg_from, to = a->leg_to;
    if (a->poly_at < from || a->poly_at >= to) a->poly_at = from, a->poly_at_id = UINT32_MAX;
    uint32_t at = a->poly_at, first = at, kept = 0;
    if (a->poly_at_id != a->place.id) /* (where it was a tick before, most often) */
        while (at < to && r->polys[at] != a->place.id) at++;
    bool off = at == to;
    if (off) { /* (off it: its polygon before the corridor's rest, in the slot before, for this tick;
                * before the farthest of the next few that it meets, if one does) */
        first = a->poly_at - 1;
        nav_mesh_poly_info info;
        if (nav_mesh_poly(m, a->place.id, &info))
            for (uint32_t j = a->poly_at; j < to && j < a->poly_at + 8; j++)
                for (uint32_t e = 0; e < info.vert_count; e++)
                    if (info.neighbours[e] == r->polys[j] && nav_mesh_edge_passable(m, a->place.id, e))
                        first = j - 1;
        kept = r->polys[first];
        r->polys[first] = a->place.id;
    } else {
        first = a->poly_at = at;
        a->poly_at_id = a->place.id;
        /* the corner it had, worked out in this polygon, unless it is near it, or its turn came (one
         * tick in AIM_TICKS, the agents in turn): a shortcut that came into sight meanwhile */
        if (a->aim_kept && a->aim_at == first && a->aim_end == end && (c->ticks + id) % AIM_TICKS != 0 &&
            nav_vec3_dist_xz(a->place.position, a->aim) > 2 * a->params.radius) {
            a->corner = end;
            a->aim_set = true;
            return true;
        }
    }
    a->aim_kept = false;
    /* (the first corner alone, unless it stands on it: then the one after it too) */
    nav_vec3 corners[2];
    uint32_t n;
    bool reached;
    bool given = a->leg_portaled && !off; /* (its portals, when its corridor is as laid) */
    nav_status s = leg_corners(m, a, first, to, end, given, 1, corners, &n, &reached);
    if (s == NAV_SUCCESS && n == 1 && !reached && nav_vec3_dist_xz(a->place.position, corners[0]) < 1e-3f)
        s = leg_corners(m, a, first, to, end, given, 2, corners, &n, &reached);
    if (off) r->polys[first] = kept;
    if (nav_failed(s)) { /* (off the corridor and not next to it: a plan again, its turn come) */
        a->stuck = fmax(a->stuck, STUCK_SECONDS);
        return false;
    }
    a->corner = end;
    uint32_t c0 = n > 1 && nav_vec3_dist_xz(a->place.position, corners[0]) < 1e-3f ? 1 : 0;
    a->aim = corners[c0];
    a->aim_last = reached && c0 + 1 == n && end + 1 == r->count;
    a->aim_set = true;
    a->aim_kept = !off, a->aim_at = first, a->aim_end = end;
    return true;
}

/* The corners behind it: each one whose next it sees from where it stands (a later corner in sight: a
 * shortcut); at the corner before a link, once within its radius, it starts across, or waits while
 * the link is closed. On a navmesh leg, the corridor's corner (follow_corridor). */
static nav_status take_corners(nav_crowd *c, worker *w, event_list *into, uint32_t id)
{
    agent *a = &c->agents[id];
    const route *r = &a->route;
    (void)follow_corridor(c, w, id);
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
                    tell(c, into, NAV_CROWD_LINK_CLOSED, id, link, r->points[a->corner],
                         r->points[a->corner + 1]);
                }
                return NAV_SUCCESS;
            }
            if (!spot_clear(c, id, r->points[a->corner]) || !spot_clear(c, id, r->points[a->corner + 1]))
                return NAV_SUCCESS; /* (it waits its turn) */
            tell(c, into, NAV_CROWD_LINK_START, id, link, r->points[a->corner], r->points[a->corner + 1]);
            a->corner++;
            a->state = NAV_AGENT_ON_LINK;
            a->link_from = a->place.position;
            a->link_length = nav_vec3_dist(a->place.position, r->points[a->corner]);
            a->link_done = 0;
            return NAV_SUCCESS;
        }
        if (a->aim_set) return NAV_SUCCESS; /* (the corridor's corners) */
        /* at its corner: on to the next (the route's corners see each other); else the one after, if
         * it is within sight (SIGHT_RADII radii: Detour's path optimisation range) and it sees it */
        if (nav_vec3_dist_xz(a->place.position, r->points[a->corner]) > a->params.radius) {
            if (nav_vec3_dist_xz(a->place.position, r->points[a->corner + 1]) >
                SIGHT_RADII * a->params.radius)
                return NAV_SUCCESS;
            bool sees;
            nav_status s = nav_world_sees(as_agent(w->query, a), &a->place, r->points[a->corner + 1], &sees);
            if (nav_failed(s) || !sees) return nav_failed(s) ? s : NAV_SUCCESS;
            if (!clear_of_walls(c, id, r->points[a->corner + 1])) return NAV_SUCCESS;
        }
        a->corner++;
    }
    return NAV_SUCCESS;
}

/* The velocity an agent moving on its way wants: towards `corner` at full speed, slowing down within
 * stopping distance of its goal when it is the last; false once it has arrived there (then it
 * stands). */
static bool preferred_velocity(nav_crowd *c, event_list *into, uint32_t id, nav_vec3 corner, bool last,
                               nav__orca_vec *want)
{
    agent *a = &c->agents[id];
    nav_vec3 pos = a->place.position;
    double arrive =
        a->following != UINT32_MAX ? fmax(a->params.radius, a->follow_distance) : a->params.radius;
    if (last && nav_vec3_dist_xz(pos, corner) <= arrive) { /* arrived */
        a->state = NAV_AGENT_ARRIVED;
        a->velocity = (nav_vec3){0, 0, 0};
        tell(c, into, NAV_CROWD_ARRIVED, id, NAV_WORLD_NONE, pos, pos);
        return false;
    }
    nav__orca_vec aim = steer_point(c, id, corner);
    double dx = aim.x - pos.x, dz = aim.z - pos.z, dist = sqrt(dx * dx + dz * dz);
    double speed = a->params.max_speed;
    if (last) { /* slowing down within stopping distance of the goal */
        double stopping = speed * speed / (2.0 * a->params.max_accel) + arrive;
        speed = fmin(speed, speed * dist / stopping);
    }
    *want = dist > 0 ? (nav__orca_vec){dx / dist * speed, dz / dist * speed} : (nav__orca_vec){0, 0};
    return true;
}

/* Where agent i on a flow steers for: the farthest cell along the flow (from the one it steered for,
 * or from its own if it no longer sees that one) that it sees, up to FLOW_LOOK_AHEAD cells on in a
 * tick; at the flow's goal cell, its own goal. *last: that goal. */
static nav_status flow_corner(nav_crowd *c, worker *w, uint32_t i, nav_vec3 *corner, bool *last)
{
    agent *a = &c->agents[i];
    const flow *f = &c->flows[a->flow];
    const nav_grid *g = nav_world_region_grid(c->world, f->region);
    int32_t width = nav_grid_width(g);
    bool sees = true;
    nav_status s = NAV_SUCCESS;
    if (a->flow_cell != a->place.id) {
        nav_vec3 at = nav_grid_cell_center(g, (int32_t)(a->flow_cell % (uint32_t)width),
                                           (int32_t)(a->flow_cell / (uint32_t)width));
        s = nav_world_sees(as_agent(w->query, a), &a->place, at, &sees);
        if (nav_failed(s) || !sees) a->flow_cell = a->place.id;
    }
    for (int k = 0; k < FLOW_LOOK_AHEAD && !nav_failed(s); k++) {
        int32_t x = (int32_t)(a->flow_cell % (uint32_t)width), y = (int32_t)(a->flow_cell / (uint32_t)width),
                nx, ny;
        if (!nav_flow_field_next(f->field, x, y, &nx, &ny)) break; /* (the goal's cell) */
        nav_vec3 next = nav_grid_cell_center(g, nx, ny);
        s = nav_world_sees(as_agent(w->query, a), &a->place, next, &sees);
        if (nav_failed(s) || !sees || !clear_of_walls(c, i, next)) break;
        a->flow_cell = (uint32_t)nav_grid_index(g, nx, ny);
    }
    *last = a->flow_cell == f->goal_cell;
    *corner = *last ? a->goal
                    : nav_grid_cell_center(g, (int32_t)(a->flow_cell % (uint32_t)width),
                                           (int32_t)(a->flow_cell / (uint32_t)width));
    return nav_failed(s) ? s : NAV_SUCCESS;
}

/* Whether a follower's leader has gone more than its distance from where the follower planned to. */
static bool leader_moved(const nav_crowd *c, const agent *a)
{
    const agent *t = agent_of(c, a->following);
    return t && a->state != NAV_AGENT_ON_LINK && a->state != NAV_AGENT_WAITING &&
           nav_vec3_dist_xz(t->place.position, a->goal) > a->follow_distance;
}

/* Whether agent a must plan its way again: held against a wall, waited long enough at a closed link,
 * a link further on is closed (and its last try is long enough ago), or the agent it follows has
 * moved on. */
static bool needs_plan(const nav_crowd *c, const agent *a)
{
    if (!a->active || !a->has_goal) return false;
    if (a->following != UINT32_MAX && leader_moved(c, a)) return true;
    if (a->state == NAV_AGENT_WAITING) return a->waited >= c->closed_wait;
    return a->state == NAV_AGENT_MOVING &&
           (a->stuck >= STUCK_SECONDS || (a->closed_ahead && c->time >= a->retry_at));
}

/* The tick's plans: at most max_replans, the agents taking turns (the one after the last planned
 * goes first next tick), chosen on the caller's thread; their searches over the pool's threads, each
 * with its worker's query (plan_chunk: an agent's own); then, in the order chosen, what they leave
 * the agents with and what they tell. A plan again that finds no other way past a closed link keeps
 * its route and tries again closed_wait seconds later. */
static void run_chunks(nav_crowd *c, uint32_t count, bool (*run)(void *ctx, void *scratch, uint32_t chunk));

static bool plan_chunk(void *ctx, void *scratch, uint32_t chunk)
{
    nav_crowd *c = ctx;
    worker *w = scratch;
    replan *r = &c->replans[chunk];
    r->status = plan_search(c, w->query, &w->path, &c->agents[r->id], r->goal, &r->laid);
    return true;
}

static nav_status plan_some(nav_crowd *c)
{
    uint32_t n = 0, last = 0;
    for (uint32_t k = 0; k < c->max_agents && n < c->max_replans; k++) {
        uint32_t i = (uint32_t)(((uint64_t)c->replan_from + k) % c->max_agents);
        agent *a = &c->agents[i];
        if (a->following != UINT32_MAX && !agent_of(c, a->following)) a->following = UINT32_MAX; /* (gone) */
        if (!needs_plan(c, a)) continue;
        bool follow = a->following != UINT32_MAX && leader_moved(c, a); /* (no event: a follower's way) */
        c->replans[n++] = (replan){.id = i,
                                   .goal = follow ? c->agents[a->following].place.position : a->goal,
                                   .keep = !follow && (a->state == NAV_AGENT_WAITING || a->closed_ahead),
                                   .follow = follow};
        last = i;
    }
    if (!n) return NAV_SUCCESS;
    c->replan_from = last + 1 < c->max_agents ? last + 1 : 0;
    run_chunks(c, n, plan_chunk);
    nav_status result = NAV_SUCCESS;
    for (uint32_t k = 0; k < n; k++) {
        const replan *r = &c->replans[k];
        agent *a = &c->agents[r->id];
        nav_status s = plan_apply(c, a, r->goal, r->keep, r->status, r->laid);
        if (!r->follow) {
            bool other_way = !nav_failed(s) && !nav_has_detail(s, NAV_UNREACHABLE);
            if (nav_failed(s) && !nav_has_detail(s, NAV_OUT_OF_MEMORY)) s = NAV_SUCCESS; /* (none: as said) */
            if (r->keep && !other_way) {
                a->waited = 0;
                a->retry_at = c->time + c->closed_wait;
            } else if (a->state == NAV_AGENT_MOVING) {
                tell(c, NULL, NAV_CROWD_REPLANNED, r->id, NAV_WORLD_NONE, a->place.position, a->goal);
            }
        }
        if (nav_failed(s)) result = s;
    }
    return result;
}

static int by_key(const void *x, const void *y)
{
    const flow_candidate *a = x, *b = y;
    return a->key != b->key ? (a->key > b->key) - (a->key < b->key) : (a->id > b->id) - (a->id < b->id);
}

/* Agents planned since the last tick whose route is one leg on a grid region (of a world in memory)
 * share a flow field by their goal's cell: an existing one, or a new one when at least
 * FLOW_MIN_AGENTS of them go there and it pays: when their searches would walk about as many cells
 * as the field does (an A* search walks up to the square of its way in cells; the field, every cell
 * of the grid). On the caller's thread, before the tick's look. */
static nav_status share_flows(nav_crowd *c)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->max_agents; i++) {
        agent *a = &c->agents[i];
        if (!a->active || a->flow_checked || a->state != NAV_AGENT_MOVING || a->following != UINT32_MAX ||
            a->params.grid_filter) /* (a field is made at the grid's own costs) */
            continue;
        a->flow_checked = true;
        const route *r = &a->route;
        if (r->link_count || !r->count || r->regions[r->count - 1] != a->place.region ||
            !nav_world_region_grid(c->world, a->place.region))
            continue;
        c->candidates[n++] = (flow_candidate){(uint64_t)a->place.region << 32 | r->nodes[r->count - 1], i};
    }
    qsort(c->candidates, n, sizeof *c->candidates, by_key);
    nav_status result = NAV_SUCCESS;
    for (uint32_t first = 0, last; first < n; first = last) {
        uint64_t key = c->candidates[first].key;
        uint32_t region = (uint32_t)(key >> 32), cell = (uint32_t)key, slot = UINT32_MAX,
                 free_slot = UINT32_MAX;
        double walked = 0; /* what their searches would walk */
        const nav_grid *g = nav_world_region_grid(c->world, region);
        int32_t width = nav_grid_width(g), gx = (int32_t)(cell % (uint32_t)width),
                gy = (int32_t)(cell / (uint32_t)width);
        for (last = first; last < n && c->candidates[last].key == key; last++) {
            const agent *a = &c->agents[c->candidates[last].id];
            double dx = (double)(int32_t)(a->place.id % (uint32_t)width) - gx,
                   dy = (double)(int32_t)(a->place.id / (uint32_t)width) - gy;
            walked += dx * dx + dy * dy;
        }
        for (uint32_t f = 0; f < MAX_FLOWS; f++) {
            if (c->flows[f].field && c->flows[f].region == region && c->flows[f].goal_cell == cell) slot = f;
            if (!c->flows[f].field && free_slot == UINT32_MAX) free_slot = f;
        }
        if (slot == UINT32_MAX) {
            if (last - first < FLOW_MIN_AGENTS || walked < (double)width * nav_grid_height(g) ||
                free_slot == UINT32_MAX)
                continue;
            nav_flow_field *field;
            int32_t goal[2] = {gx, gy};
            nav_status s = nav_flow_field_create(g, &c->allocator, &field);
            if (!nav_failed(s)) {
                s = nav_flow_field_compute(field, goal, 1);
                if (nav_failed(s)) nav_flow_field_destroy(field);
            }
            if (nav_failed(s)) { /* (they keep their routes) */
                if (nav_has_detail(s, NAV_OUT_OF_MEMORY)) result = s;
                continue;
            }
            c->flows[free_slot] = (flow){field, region, cell, 0};
            slot = free_slot;
        }
        for (uint32_t k = first; k < last; k++) {
            agent *a = &c->agents[c->candidates[k].id];
            a->flow = slot;
            a->flow_cell = a->place.id;
            c->flows[slot].users++;
        }
    }
    return result;
}

/* Whether a link from the agent's corner on is closed. */
static bool closed_ahead(const nav_crowd *c, const agent *a)
{
    const route *r = &a->route;
    for (uint32_t k = r->link_count; k-- > 0 && r->link_points[k] >= a->corner;)
        if (!nav_world_link_enabled(c->world, r->links[r->link_points[k]])) return true;
    return false;
}

/* floor(x / side) (without libm's call: a quarter of the hash's filling). */
static int64_t cell_in(double x, double side)
{
    double q = x / side;
    if (!(fabs(q) < 4e18)) q = q > 0 ? 4e18 : -4e18; /* (not on any level: off the hash's cells) */
    int64_t k = (int64_t)q;
    return k - (q < (double)k);
}

/* The hash's cells (fill_buckets). */
static int64_t cell_of(const nav_crowd *c, double x)
{
    return cell_in(x, c->cell);
}

/* One of the two hashes: its cells' side, its buckets' starts and its agents. */
typedef struct hash_view {
    double cell;
    const uint32_t *start;
    const placed *by;
    bool fine; /* (by's slots are not the hash's: near_by's slot of agent i is slot[i]) */
} hash_view;

/* The hash to look in round agent i, from where the hash has it: the fine one when it stands in a
 * crowd (DENSE agents or more in its own bucket of the other). */
static hash_view hash_for(const nav_crowd *c, uint32_t i)
{
    uint32_t b = c->home[i];
    if (c->start[b + 1] - c->start[b] >= DENSE)
        return (hash_view){c->fine_cell, c->fine_start, c->fine_by, true};
    return (hash_view){c->cell, c->start, c->near_by, false};
}

static uint32_t bucket_of(const nav_crowd *c, int64_t cx, int64_t cz)
{
    uint64_t h = (uint64_t)cx * 0x9E3779B97F4A7C15ull ^ (uint64_t)cz * 0xC2B2AE3D27D4EB4Full;
    return (uint32_t)(h >> 32) & (c->buckets - 1);
}

/* The agents on the ground (not crossing a link) into their buckets (as they looked: home, mine),
 * each bucket in id order; and into the fine hash's, when one stands in a crowd (hash_for). */
static void fill_buckets(nav_crowd *c)
{
    uint32_t *start = c->start;
    c->cell = c->next_cell, c->fine_cell = c->next_fine_cell;
    memset(start, 0, ((size_t)c->buckets + 1) * sizeof *start);
    bool crowded = false;                        /* (a bucket holds DENSE or more) */
    for (uint32_t i = 0; i < c->max_agents; i++) /* how many in each, */
        if (c->home[i] != UINT32_MAX) crowded |= ++start[c->home[i]] >= DENSE;
    for (uint32_t b = 1; b <= c->buckets; b++) start[b] += start[b - 1]; /* where each ends, */
    for (uint32_t i = c->max_agents; i-- > 0;) /* and each from its end down: then start[b] is its start */
        if (c->home[i] != UINT32_MAX) c->near_by[--start[c->home[i]]] = c->mine[i];
    uint32_t placed_count = start[c->buckets];
    memset(c->slot, 0xff, (size_t)c->max_agents * sizeof *c->slot);
    for (uint32_t e = 0; e < placed_count; e++) c->slot[c->near_by[e].id] = e;
    c->placed_count = placed_count;
    if (!crowded) return;
    uint32_t *fine = c->fine_start;
    memset(fine, 0, ((size_t)c->buckets + 1) * sizeof *fine);
    for (uint32_t i = 0; i < c->max_agents; i++)
        if (c->home[i] != UINT32_MAX) fine[c->fine_home[i]]++;
    for (uint32_t b = 1; b <= c->buckets; b++) fine[b] += fine[b - 1];
    for (uint32_t i = c->max_agents; i-- > 0;)
        if (c->home[i] != UINT32_MAX) c->fine_by[--fine[c->fine_home[i]]] = c->mine[i];
}

/* Keeps neighbour j at squared distance d2 among the `most` nearest (nearest first, ties by id; once
 * only: twice_seen, when j may be offered again); n found so far. */
static inline uint32_t keep_near(uint32_t most, worker *w, uint32_t n, uint32_t j, double d2, bool twice_seen)
{
    uint32_t *id = w->near, last = n < most ? n : most - 1;
    double *dist = w->near_dist;
    if (n < most && (n == 0 || dist[n - 1] < d2 || (dist[n - 1] == d2 && id[n - 1] < j))) {
        dist[n] = d2, id[n] = j; /* (after the farthest, room left: the most common, from a list) */
        return n + 1;
    }
    if (last < n && (dist[last] < d2 || (dist[last] == d2 && id[last] <= j)))
        return n; /* (full, and no nearer than the farthest kept) */
    double dropped = dist[last];
    uint32_t dropped_id = id[last], at = last;
    for (; at > 0 && (dist[at - 1] > d2 || (dist[at - 1] == d2 && id[at - 1] > j)); at--)
        dist[at] = dist[at - 1], id[at] = id[at - 1];
    if (twice_seen && at > 0 && id[at - 1] == j) { /* seen in a bucket two cells share: as it was */
        for (; at < last; at++) dist[at] = dist[at + 1], id[at] = id[at + 1];
        dist[last] = dropped, id[last] = dropped_id;
        return n;
    }
    dist[at] = d2, id[at] = j;
    return n < most ? n + 1 : n;
}

/* Whether agent o (in the hash) counts as a neighbour of one at height y, half_height tall: on the
 * ground, their heights overlapping. */
static bool on_floor(const placed *o, float y, float half_height)
{
    return !o->on_link && fabsf(o->y - y) < half_height + o->half_height;
}

/* The `most` nearest agents in the hash h within sqrt(limit) of agent i, but i (all: wherever they
 * are; else on its floor, neighbours), into w->near: their count. The cells round its own are looked
 * in nearest first, and only while they may hold one nearer than the farthest kept; those found are
 * the same whatever the cells (ties by id). */
static uint32_t nearest_in(const nav_crowd *c, worker *w, uint32_t i, hash_view h, uint32_t most,
                           double limit, bool all)
{
    double x = c->was[i].position.x, z = c->was[i].position.z, side = h.cell, cutoff = limit;
    float y = c->floor_y[i], half_height = 0.5f * c->agents[i].params.height;
    int64_t cx = cell_in(x, side), cz = cell_in(z, side);
    double in_x = x - (double)cx * side, in_z = z - (double)cz * side; /* (within its own cell) */
    uint32_t n = 0;
    for (int k = 0; k < ROUND_CELLS && c->around[k].apart * side * side <= cutoff; k++) {
        int dx = c->around[k].dx, dz = c->around[k].dz;
        /* the cell's nearest point's distance */
        double gx = dx < 0   ? in_x + (-dx - 1) * side
                    : dx > 0 ? (dx - 1) * side + side - in_x
                             : 0,
               gz = dz < 0   ? in_z + (-dz - 1) * side
                    : dz > 0 ? (dz - 1) * side + side - in_z
                             : 0;
        if (gx * gx + gz * gz > cutoff) continue;
        uint32_t b = bucket_of(c, cx + dx, cz + dz);
        for (uint32_t e = h.start[b]; e < h.start[b + 1]; e++) {
            const placed *o = &h.by[e];
            double ox = o->x - x, oz = o->z - z, d2 = ox * ox + oz * oz;
            if (d2 <= cutoff && o->id != i && (all || on_floor(o, y, half_height))) {
                n = keep_near(most, w, n, o->id, d2, true);
                if (n == most) cutoff = w->near_dist[n - 1];
            }
        }
    }
    return n;
}

/* Agent i's nearest neighbours from its list, into w->near (*found: their count): false when they
 * may not be the nearest of all. The list holds every agent in the hash within its reach of where i
 * was; i has moved since by `own`, any other by `moved` at most: within reach - own - moved of i
 * now, every one is on the list. */
static bool from_list(const nav_crowd *c, worker *w, uint32_t i, uint32_t *found)
{
    const near_list *l = &c->lists[i];
    if (l->epoch != c->list_epoch) return false;
    double x = c->was[i].position.x, z = c->was[i].position.z, fx = x - l->from.x, fz = z - l->from.z,
           sure = l->reach - sqrt(fx * fx + fz * fz) - (c->moved - l->moved) - 1e-6 * (1 + l->reach),
           range = c->range * c->range, cutoff = range;
    if (!(sure > 0)) return false;
    float y = c->floor_y[i], half_height = 0.5f * c->agents[i].params.height;
    uint32_t n = 0, most = c->max_neighbours;
    for (uint32_t k = 0; k < l->count; k++) {
        uint32_t j = l->ids[k];
        const placed *o = &c->mine[j]; /* (one out of the hash is on no floor: look) */
        double ox = o->x - x, oz = o->z - z, d2 = ox * ox + oz * oz;
        if (d2 > cutoff || !on_floor(o, y, half_height)) continue;
        n = keep_near(most, w, n, j, d2, false); /* (a list holds each once) */
        if (n == most) cutoff = w->near_dist[n - 1];
    }
    *found = n;
    return (n == most ? w->near_dist[n - 1] : range) < sure * sure;
}

/* Agent i's nearest neighbours within range on its floor (their heights overlapping), into w->near:
 * their count, the max_neighbours nearest (ties by id). They are taken from its list (from_list)
 * while it holds them; else a new list is made (as far as the farthest neighbour it kept a tick
 * before, and LIST_SKIN of the range more), and they are taken from that; but not for a while after
 * a list that held for fewer than LIST_TICKS (in a crush, where pushes are long, a list made every
 * tick or two costs more than it saves: LIST_REST ticks, twice as many each time again). Where no
 * list holds them, they are looked for in the hash, first within a guess (as far as the farthest
 * kept a tick before and two of the longest steps more: if it holds max_neighbours, those are the
 * nearest), then within range. */
static uint32_t neighbours(const nav_crowd *c, worker *w, uint32_t i)
{
    agent *a = &c->agents[i];
    uint32_t n, most = c->max_neighbours;
    near_list *l = &c->lists[i];
    bool lists = most < LIST_CAP, found = lists && from_list(c, w, i, &n); /* (a list holds more) */
    if (lists && !found && l->epoch == c->list_epoch) {                    /* (it held until now) */
        if (c->ticks - l->made < LIST_TICKS) {                             /* (too short a time) */
            uint32_t ticks = l->rest_ticks ? l->rest_ticks : LIST_REST;
            l->rest = c->ticks + ticks;
            l->rest_ticks = ticks < LIST_REST_MOST ? 2 * ticks : ticks;
        } else {
            l->rest_ticks = 0;
        }
        l->epoch = 0; /* (none) */
    }
    if (lists && !found && c->ticks >= l->rest) {
        hash_view h = hash_for(c, i), coarse = {c->cell, c->start, c->near_by, false};
        double reach = fmin(a->near_reach, c->range) + LIST_SKIN * c->range;
        if (reach > 6 * h.cell) h = coarse; /* (the cells round one reach 6 of them at least) */
        reach = fmin(reach, 6 * h.cell);
        uint32_t listed = nearest_in(c, w, i, h, LIST_CAP, reach * reach, true);
        l->from = c->was[i].position;
        l->reach = listed == LIST_CAP ? sqrt(w->near_dist[LIST_CAP - 1]) : reach;
        l->moved = c->moved, l->epoch = c->list_epoch, l->made = c->ticks, l->count = listed;
        memcpy(l->ids, w->near, listed * sizeof *l->ids);
        found = from_list(c, w, i, &n);
    }
    if (!found) {
        hash_view h = hash_for(c, i);
        double range = c->range * c->range, guess = a->near_reach + 2 * c->longest_step + 0.01 * c->range;
        n = nearest_in(c, w, i, h, most, guess * guess < range ? guess * guess : range, false);
        if (n < most && guess * guess < range) n = nearest_in(c, w, i, h, most, range, false);
    }
    a->near_reach = n == most ? sqrt(w->near_dist[n - 1]) : INFINITY;
    return n;
}

/* The velocity avoidance leaves agent i: ORCA over its nearest neighbours (those that steer share
 * the avoiding; it avoids those that stand alone). */
static nav__orca_vec avoid(const nav_crowd *c, worker *w, uint32_t i, double dt, bool *walled)
{
    const agent *a = &c->agents[i];
    uint32_t hard = 0; /* the walls' lines first */
    double clearance = clearance_of(c, a);
    for (uint32_t k = 0; k < a->wall_count; k++) {
        const nav_wall *wall = &c->walls[(size_t)i * MAX_WALLS + k];
        hard += nav__orca_wall_line(&c->was[i], (nav__orca_vec){wall->a.x, wall->a.z},
                                    (nav__orca_vec){wall->b.x, wall->b.z}, clearance, c->wall_horizon,
                                    w->lines, hard, &w->lines[hard]);
    }
    /* the walls alone leave it (almost) nothing of the way it wants: held by them */
    nav__orca_vec pref = c->preferred[i];
    double wanted = sqrt(pref.x * pref.x + pref.z * pref.z);
    if (hard && wanted > 0.1 * a->params.max_speed) {
        nav__orca_vec free = nav__orca_solve(w->lines, hard, hard, a->params.max_speed, pref, w->projected);
        *walled = sqrt(free.x * free.x + free.z * free.z) < 0.1 * wanted;
    }
    /* in a crowd (hash_for) or a jam, those it nearly touches are left to the parting: kept clear of
     * all at once, they would hold it where it stands */
    bool leave_near = a->jammed > JAM_SECONDS || hash_for(c, i).fine;
    uint32_t n = neighbours(c, w, i), m = hard;
    c->apart[i] = n ? sqrt(w->near_dist[0]) : c->range;
    double inv_t = 1 / c->time_horizon, inv_dt = 1 / dt;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t j = w->near[k];
        double near = NEAR_LEFT * (c->was[i].radius + c->was[j].radius);
        if (leave_near && w->near_dist[k] < near * near) continue;
        w->lines[m++] = nav__orca_line_of(&c->was[i], &c->was[j], inv_t, inv_dt, c->steers[j] ? 0.5 : 1.0);
    }
    return nav__orca_solve(w->lines, m, hard, a->params.max_speed, c->preferred[i], w->projected);
}

/* The walls near agent i, found again when it has gone a quarter of their range from where they were
 * (or onto another region): those within its clearance and what it may go in the walls' horizon,
 * and as much again. */
static void find_walls(nav_crowd *c, worker *w, uint32_t i)
{
    agent *a = &c->agents[i];
    double clearance = clearance_of(c, a), range = 2 * (clearance + a->params.max_speed * c->wall_horizon);
    if (a->walls_known && a->walls_region == a->place.region &&
        nav_vec3_dist_xz(a->place.position, a->walls_from) <= 0.25 * range)
        return;
    uint32_t n = 0;
    nav_status s = nav_world_walls(as_agent(w->query, a), &a->place, (float)range,
                                   &c->walls[(size_t)i * MAX_WALLS], MAX_WALLS, &n);
    if (nav_failed(s)) {
        w->failed |= s;
        a->walls_known = false, a->wall_count = 0;
        return;
    }
    a->wall_count = n;
    a->walls_known = true, a->walls_region = a->place.region, a->walls_from = a->place.position;
}

/* Turns the velocity towards `want` by at most max_accel * dt and moves along the surface; walled:
 * the walls leave it nothing of the way it wants. */
static nav_status integrate(worker *w, agent *a, nav__orca_vec want, double dt, bool walled)
{
    nav_vec3 pos = a->place.position;
    double dvx = want.x - a->velocity.x, dvz = want.z - a->velocity.z, dv = sqrt(dvx * dvx + dvz * dvz),
           most = a->params.max_accel * dt;
    if (dv > most) dvx *= most / dv, dvz *= most / dv;
    double vx = a->velocity.x + dvx, vz = a->velocity.z + dvz;
    nav_vec3 target = {(float)(pos.x + vx * dt), pos.y, (float)(pos.z + vz * dt)};
    nav_world_place moved;
    nav_status s = nav_world_move(as_agent(w->query, a), &a->place, target, &moved);
    /* sliding along a wall from a point off it may take it farther than its step: then as far as its
     * step along the way it slid */
    double step = sqrt(vx * vx + vz * vz) * dt,
           went = nav_failed(s) ? 0 : nav_vec3_dist_xz(pos, moved.position),
           grain = 4 * FLT_EPSILON * (fabs(pos.x) + fabs(pos.z) + 1); /* (a float's, where it is) */
    if (went > step + grain) {
        double f = step / went;
        target = (nav_vec3){(float)(pos.x + f * ((double)moved.position.x - pos.x)), pos.y,
                            (float)(pos.z + f * ((double)moved.position.z - pos.z))};
        s = nav_world_move(w->query, &a->place, target, &moved);
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
    bool held = walled || (wanted > 0.1 * a->params.max_speed &&
                           nav_vec3_dist_xz(pos, moved.position) < 0.1 * wanted * dt);
    a->stuck = held ? a->stuck + dt : 0;
    return NAV_SUCCESS;
}

/* Agent i as the tick finds it; along its route: the corners behind it, the links it crosses, the
 * velocity it wants (what it tells the engine into `into`). */
static void look_along(nav_crowd *c, worker *w, event_list *into, uint32_t i)
{
    agent *a = &c->agents[i];
    c->steers[i] = 0;
    c->apart[i] = 0;
    if (!a->active) return;
    /* (a waypoint graph is a road without width: agents on it pass through each other) */
    c->avoids[i] = nav_world_region_kind_of(c->world, a->place.region) != NAV_WORLD_REGION_WAYPOINTS;
    /* (jammed past JAM_SECONDS, it avoids as if down to SQUEEZED its size: a jam resolves, forced) */
    double squeeze = fmin(fmax((a->jammed - JAM_SECONDS) / SQUEEZE_SECONDS, 0), 1);
    c->was[i] = (nav__orca_agent){{a->place.position.x, a->place.position.z},
                                  {a->velocity.x, a->velocity.z},
                                  a->params.radius * (1 - (1 - SQUEEZED) * squeeze)};
    c->floor_y[i] = a->place.position.y;
    if (!a->has_goal) return;
    if (a->state == NAV_AGENT_WAITING) { /* open again: on */
        if (nav_world_link_enabled(c->world, a->route.links[a->corner]))
            a->state = NAV_AGENT_MOVING;
        else
            a->waited += c->dt;
    }
    if (a->state == NAV_AGENT_MOVING && a->flow != UINT32_MAX) { /* (one leg on a grid: no link) */
        nav_vec3 corner;
        bool last;
        nav_status s = flow_corner(c, w, i, &corner, &last);
        if (nav_failed(s)) w->failed |= s;
        c->steers[i] = preferred_velocity(c, into, i, corner, last, &c->preferred[i]);
        a->steer_to = corner;
    } else {
        if (a->state == NAV_AGENT_MOVING) {
            nav_status s = take_corners(c, w, into, i); /* (failed: the corner it had) */
            if (nav_failed(s)) w->failed |= s;
        }
        if (a->state == NAV_AGENT_MOVING) a->closed_ahead = closed_ahead(c, a);
        if (a->state == NAV_AGENT_ON_LINK)
            cross_link(c, into, i, c->dt);
        else if (a->state == NAV_AGENT_MOVING) {
            a->steer_to = a->aim_set ? a->aim : a->route.points[a->corner];
            c->steers[i] = preferred_velocity(c, into, i, a->steer_to,
                                              a->aim_set ? a->aim_last : a->corner + 1 == a->route.count,
                                              &c->preferred[i]);
        }
    }
    if (c->steers[i] && c->avoids[i]) find_walls(c, w, i);
}

/* Agent i looks (look_along), and where it goes in the hashes is worked out (on the ground: not on
 * a link nor on a road; on a road, where none is in its way, a jam it was in runs down). */
static void look(nav_crowd *c, worker *w, event_list *into, uint32_t i)
{
    bool was_home = c->home[i] != UINT32_MAX;
    float was_x = c->mine[i].x, was_z = c->mine[i].z;
    look_along(c, w, into, i);
    agent *a = &c->agents[i];
    c->home[i] = UINT32_MAX;
    c->mine[i].on_link = 1; /* (out of the hash: a neighbour of none, on the lists too) */
    if (!a->active) return;
    if (!c->avoids[i] && a->state != NAV_AGENT_ON_LINK) {
        a->jammed = fmax(a->jammed - c->dt, 0);
        return;
    }
    double x = c->was[i].position.x, z = c->was[i].position.z;
    c->home[i] = bucket_of(c, cell_in(x, c->next_cell), cell_in(z, c->next_cell));
    c->fine_home[i] = bucket_of(c, cell_in(x, c->next_fine_cell), cell_in(z, c->next_fine_cell));
    c->mine[i] = (placed){(float)x,
                          (float)z,
                          c->floor_y[i],
                          0.5f * a->params.height,
                          a->params.radius,
                          i & 0x7fffffffu,
                          a->state == NAV_AGENT_ON_LINK};
    if (!was_home) {
        w->entered = true;
    } else {
        double mx = (double)c->mine[i].x - was_x, mz = (double)c->mine[i].z - was_z;
        w->moved = fmax(w->moved, sqrt(mx * mx + mz * mz));
    }
}

static bool look_at_chunk(void *ctx, void *scratch, uint32_t chunk)
{
    nav_crowd *c = ctx;
    uint32_t end = chunk_end(c->max_agents, chunk);
    for (uint32_t i = chunk * CHUNK; i < end; i++) look(c, scratch, &c->chunk_events[chunk], i);
    return true;
}

/* Avoidance over where every agent was when the tick began, then the move: each agent's own, so the
 * order plays no part (they are taken in id order, as they looked: on the thread that looked). */
static bool steer_chunk(void *ctx, void *scratch, uint32_t chunk)
{
    nav_crowd *c = ctx;
    worker *w = scratch;
    uint32_t end = chunk_end(c->max_agents, chunk);
    for (uint32_t i = chunk * CHUNK; i < end; i++) {
        if (!c->steers[i]) continue;
        bool walled = false;
        nav__orca_vec want = c->avoids[i] ? avoid(c, w, i, c->dt, &walled) : c->preferred[i];
        nav_status s = integrate(w, &c->agents[i], want, c->dt, walled);
        if (nav_failed(s)) w->failed |= s;
    }
    return true;
}

/* Whether two agents in the hash both squeeze (a jam: they part only to the sizes they avoid as, or
 * the jam would not resolve). */
static bool both_squeeze(const nav_crowd *c, const placed *p, const placed *o)
{
    return c->was[p->id].radius < p->radius && c->was[o->id].radius < o->radius;
}

/* Slot e woken for the parting's next pass (on the worker's list once: a slot on two lists is
 * gathered once, part_all). */
static void wake_up(const nav_crowd *c, worker *w, uint32_t e)
{
    atomic_uint *wake = &c->woken[(c->pass_count + 1) % 2][e];
    if (atomic_load_explicit(wake, memory_order_relaxed) == c->pass_count + 1) return;
    atomic_store_explicit(wake, c->pass_count + 1, memory_order_relaxed);
    w->woke[w->woke_count++] = e;
}

/* How far the agent in the hash's slot e is pushed from those it overlaps once the moves are made
 * (DetourCrowd's collision handling): from each, half their overlap (in a line; two at one point:
 * the lower id to +x), the mean of those. Those that stand are pushed too: two that arrive at one
 * goal part, and one that stands in the way makes room. Its own, from where the moves (and the
 * passes before) left everyone. A pass again looks only at those the last one pushed and those it
 * found overlapping one (woken: one pushed into another that stood still, or one pushed equally
 * either way, inside a row), and not in a crowd (hash_for): there, one pass a tick is what lets it
 * flow. (Those it may overlap are looked for in the hash's cells within its radius, the widest
 * radius and twice the farthest an agent strayed from the hash: at most 9 x 9 cells, four times the
 * two widest across.) */
static void part(nav_crowd *c, worker *w, uint32_t e)
{
    const placed *p = &c->near_by[e];
    uint32_t i = p->id;
    bool pushed = c->push[e].x != 0 || c->push[e].z != 0; /* (by the last pass) */
    if (pushed) c->push[e] = (nav__orca_vec){0, 0};
    if (p->on_link ||
        (c->again && ((!pushed && atomic_load_explicit(&c->woken[c->pass_count % 2][e],
                                                       memory_order_relaxed) != c->pass_count) ||
                      (c->crushed[e] && !c->few))))
        return;
    /* (the first pass: none it can overlap; every move is within the longest step) */
    if (!c->again && c->apart[i] > p->radius + c->widest + 2 * c->longest_step + 1e-6) {
        c->crushed[e] = false;
        return;
    }
    hash_view h = hash_for(c, i);
    if (c->again && h.fine) return;
    double x = c->after[e].x, z = c->after[e].z, hx = c->was[i].position.x, hz = c->was[i].position.z,
           reach = p->radius + c->widest + 2 * c->strayed; /* (from where the hash has them) */
    /* the cells within reach (as wide as the two widest agents at least: one to four, unless a step is
     * long) */
    int64_t x0 = cell_in(hx - reach, h.cell), x1 = cell_in(hx + reach, h.cell),
            z0 = cell_in(hz - reach, h.cell), z1 = cell_in(hz + reach, h.cell);
    if (x1 - x0 > 8) x0 = cell_in(hx, h.cell) - 4, x1 = x0 + 8;
    if (z1 - z0 > 8) z0 = cell_in(hz, h.cell) - 4, z1 = z0 + 8;
    uint32_t seen[81], cells = 0, n = 0;
    double px = 0, pz = 0;
    for (int64_t cz = z0; cz <= z1; cz++)
        for (int64_t cx = x0; cx <= x1; cx++) {
            uint32_t b = bucket_of(c, cx, cz), k = 0;
            while (k < cells && seen[k] != b) k++;
            if (k < cells) continue; /* (a bucket two cells share) */
            seen[cells++] = b;
            for (uint32_t f = h.start[b]; f < h.start[b + 1]; f++) {
                const placed *o = &h.by[f];
                const nav__orca_vec *there = &c->after[h.fine ? c->slot[o->id] : f];
                double ox = x - there->x, oz = z - there->z, d2 = ox * ox + oz * oz,
                       room = (double)p->radius + o->radius; /* (at most: squeezing, less) */
                if (d2 >= room * room || o->id == i || o->on_link ||
                    fabsf(o->y - p->y) >= p->half_height + o->half_height)
                    continue;
                if (both_squeeze(c, p, o)) {
                    room = c->was[i].radius + c->was[o->id].radius;
                    if (d2 >= room * room) continue;
                }
                wake_up(c, w, h.fine ? c->slot[o->id] : f); /* (those it finds, for the next pass) */
                double d = sqrt(d2);
                if (d > 1e-9)
                    px += 0.5 * (room - d) * ox / d, pz += 0.5 * (room - d) * oz / d;
                else
                    px += (i < o->id ? 0.5 : -0.5) * room;
                n++;
            }
        }
    if (!c->again) c->crushed[e] = n >= 3;
    if (n && (px != 0 || pz != 0)) c->push[e] = (nav__orca_vec){px / n, pz / n}, w->pushing++;
}

/* The slots a pass looks at: all in the first, the lookers after (part_all). */
static uint32_t pass_count_of(const nav_crowd *c)
{
    return c->again ? c->looker_count : c->placed_count;
}

static uint32_t pass_slot(const nav_crowd *c, uint32_t k)
{
    return c->again ? c->lookers[k] : k;
}

static bool part_chunk(void *ctx, void *scratch, uint32_t chunk)
{
    nav_crowd *c = ctx;
    uint32_t count = pass_count_of(c), end = chunk_end(count, chunk);
    for (uint32_t k = chunk * CHUNK; k < end; k++) part(c, scratch, pass_slot(c, k));
    return true;
}

/* Whether agent i is in a jam (it wanted to go, and the tick took it less than a tenth of that, its
 * move and its push together): after JAM_SECONDS of it, it leaves those it nearly touches to the
 * parting (avoid) and squeezes (look_along). Moving again, it comes out of the jam as slowly as it
 * went in (back and forth between a push and a move is no way made). */
static void jammed_or_not(const nav_crowd *c, agent *a, uint32_t i)
{
    nav__orca_vec pref = c->preferred[i];
    double desire = c->steers[i] ? sqrt(pref.x * pref.x + pref.z * pref.z) : 0,
           wx = a->place.position.x - c->was[i].position.x, wz = a->place.position.z - c->was[i].position.z,
           least = 0.1 * desire * c->dt;
    bool jam = desire > 0.1 * a->params.max_speed && wx * wx + wz * wz < least * least;
    a->jammed = jam ? fmin(a->jammed + c->dt, JAM_SECONDS + SQUEEZE_SECONDS) : fmax(a->jammed - c->dt, 0);
}

/* Each pushed agent moved along the surface as far as its push takes it, but not into its clearance
 * from the walls near it (nor further in). */
static bool push_chunk(void *ctx, void *scratch, uint32_t chunk)
{
    nav_crowd *c = ctx;
    worker *w = scratch;
    uint32_t count = pass_count_of(c), end = chunk_end(count, chunk);
    for (uint32_t k = chunk * CHUNK; k < end; k++) {
        uint32_t e = pass_slot(c, k);
        if (c->push[e].x == 0 && c->push[e].z == 0) continue;
        uint32_t i = c->near_by[e].id;
        agent *a = &c->agents[i];
        find_walls(c, w, i); /* (those that stand have not looked) */
        nav__orca_vec clear =
            out_of_walls(c, i, a->place.position.x + c->push[e].x, a->place.position.z + c->push[e].z, true);
        nav_vec3 to = {(float)clear.x, a->place.position.y, (float)clear.z};
        nav_world_place moved;
        nav_status s = nav_world_move(as_agent(w->query, a), &a->place, to, &moved);
        if (nav_failed(s))
            w->failed |= s;
        else
            a->place = moved;
        nav__orca_vec now = {a->place.position.x, a->place.position.z};
        if (now.x == c->after[e].x && now.z == c->after[e].z)
            c->push[e] = (nav__orca_vec){0, 0}; /* (held by a wall, or too short a push for a float) */
        else
            wake_up(c, w, e); /* (it looks again in the next pass) */
        c->after[e] = now;
        double sx = c->after[e].x - c->was[i].position.x, sz = c->after[e].z - c->was[i].position.z;
        w->strayed = fmax(w->strayed, sqrt(sx * sx + sz * sz)); /* (not hypot: its guards are slow) */
    }
    return true;
}

/* (those in the hash, in id order: the agents' own fields, read in their order) */
static bool jam_chunk(void *ctx, void *scratch, uint32_t chunk)
{
    nav_crowd *c = ctx;
    (void)scratch;
    uint32_t end = chunk_end(c->max_agents, chunk);
    for (uint32_t i = chunk * CHUNK; i < end; i++)
        if (c->slot[i] != UINT32_MAX) jammed_or_not(c, &c->agents[i], i);
    return true;
}

/* Where the moves left those in the hash, in its order (after): written by the steering, in id order,
 * a cache line of after[] would be written by every thread. */
static bool moved_chunk(void *ctx, void *scratch, uint32_t chunk)
{
    nav_crowd *c = ctx;
    (void)scratch;
    uint32_t end = chunk_end(c->placed_count, chunk);
    for (uint32_t e = chunk * CHUNK; e < end; e++) {
        const nav_vec3 *at = &c->agents[c->near_by[e].id].place.position;
        c->after[e] = (nav__orca_vec){at->x, at->z};
    }
    return true;
}

/* Those that overlap once the moves are made pushed apart: a pass over them all, then passes again
 * over those the last pushed or found overlapping, while it pushed any, PARTINGS in all at most, or
 * FEW_PARTINGS while the last pushed few (the last overlaps of a jam against a wall, parted by less
 * and less each pass: a pass over few costs little) (part); then whether each is in a jam. Not
 * again: those in a crowd (hash_for), and, until a pass pushes few, those the first pass found
 * overlapping three or more (crushed where the hash's count says no crowd: a corridor packed wall
 * to wall, where passes move them by less and less to no end; two, a queue through a door, are
 * parted again). */
static void part_all(nav_crowd *c)
{
    run_chunks(c, chunks_of(c->placed_count), moved_chunk);
    memset(c->push, 0, (size_t)c->placed_count * sizeof *c->push);
    c->strayed = c->longest_step;
    uint32_t pushing = UINT32_MAX;
    for (uint32_t pass = 0; pass < PARTINGS || (pass < FEW_PARTINGS && pushing <= FEW_PUSHED); pass++) {
        c->again = pass > 0, c->few = pushing <= FEW_PUSHED;
        c->pass_count++;
        pushing = 0;
        for (uint32_t t = 0; t < c->threads; t++)
            c->workers[t].pushing = 0, c->workers[t].strayed = 0, c->workers[t].woke_count = 0;
        uint32_t count = pass_count_of(c), pass_chunks = chunks_of(count);
        run_chunks(c, pass_chunks, part_chunk);
        for (uint32_t t = 0; t < c->threads; t++) pushing += c->workers[t].pushing;
        if (!pushing) break;
        run_chunks(c, pass_chunks, push_chunk);
        for (uint32_t t = 0; t < c->threads; t++) c->strayed = fmax(c->strayed, c->workers[t].strayed);
        /* who looks in the next pass: those pushed, those woken (the workers' lists, in slot order) */
        uint64_t *bits = c->looker_bits;
        for (uint32_t t = 0; t < c->threads; t++)
            for (uint32_t k = 0; k < c->workers[t].woke_count; k++) {
                uint32_t e = c->workers[t].woke[k];
                bits[e / 64] |= 1ull << (e % 64);
            }
        uint32_t n = 0;
        for (uint32_t word = 0; word <= c->placed_count / 64; word++)
            for (; bits[word]; bits[word] &= bits[word] - 1)
                c->lookers[n++] = word * 64 + (uint32_t)__builtin_ctzll(bits[word]);
        c->looker_count = n;
    }
    run_chunks(c, c->chunks, jam_chunk);
}

/* A worker for each thread of a run (on the caller's thread, in turn). */
static bool hand_worker(void *ctx, void **scratch)
{
    nav_crowd *c = ctx;
    *scratch = &c->workers[c->handed++];
    return true;
}

/* The chunk a worker runs next: the next of its own share; its own taken, the last of another's. */
static uint32_t claim(nav_crowd *c, worker *w)
{
    uint32_t own = (uint32_t)(w - c->workers);
    for (uint32_t k = 0; k < c->threads; k++) {
        worker *o = &c->workers[(own + k) % c->threads];
        uint64_t share = atomic_load_explicit(&o->share, memory_order_relaxed);
        while ((uint32_t)share < (uint32_t)(share >> 32)) {
            uint64_t left = k == 0 ? share + 1 : share - (1ull << 32);
            if (atomic_compare_exchange_weak_explicit(&o->share, &share, left, memory_order_relaxed,
                                                      memory_order_relaxed))
                return k == 0 ? (uint32_t)share : (uint32_t)(share >> 32) - 1;
        }
    }
    return UINT32_MAX; /* (never: a run has as many items as chunks, and each item claims one) */
}

static bool run_claimed(void *ctx, void *scratch, uint32_t item)
{
    nav_crowd *c = ctx;
    (void)item;
    return c->run(ctx, scratch, claim(c, scratch));
}

/* Runs chunks 0 .. count over the pool's threads: each thread's worker has a share of them (the
 * caller's the first), takes its own in order, and then helps with the others' from their ends. A
 * chunk is an agent's, or a slot's in the hash, from run to run: what a run writes of an agent is
 * in the cache of the thread that reads it next, unless the shares came out uneven. */
static void run_chunks(nav_crowd *c, uint32_t count, bool (*run)(void *ctx, void *scratch, uint32_t chunk))
{
    for (uint32_t t = 0; t < c->threads; t++)
        atomic_store_explicit(&c->workers[t].share,
                              (uint64_t)count * (t + 1) / c->threads << 32 | (uint64_t)count * t / c->threads,
                              memory_order_relaxed); /* (the pool's run opens after: release) */
    c->handed = 0, c->run = run;
    nav__work work = {.count = count, .init = hand_worker, .run = run_claimed, .ctx = c};
    (void)nav__pool_run(c->pool, &work); /* (cannot fail: the workers are made, the runs say true) */
}

nav_status nav_crowd_tick(nav_crowd *c, double dt)
{
    if (!c || !(dt > 0 && dt <= 1)) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_status result = plan_some(c), shared = share_flows(c);
    if (nav_failed(shared) && !nav_failed(result)) result = shared;
    c->dt = dt;
    if (c->sizes_stale) { /* (one went: the widest and fastest of those left) */
        c->widest = c->fastest = 0;
        for (uint32_t i = 0; i < c->max_agents; i++)
            if (c->agents[i].active)
                c->widest = fmax(c->widest, c->agents[i].params.radius),
                c->fastest = fmax(c->fastest, c->agents[i].params.max_speed);
        c->sizes_stale = false;
    }
    c->longest_step = c->fastest * dt;
    /* (spot_clear looks in the 3 x 3 cells round a point) */
    c->next_cell = fmax(c->range / 2, 2 * c->widest), c->next_fine_cell = fmax(c->range / 6, 2 * c->widest);
    for (uint32_t t = 0; t < c->threads; t++)
        c->workers[t].failed = 0, c->workers[t].moved = 0, c->workers[t].entered = false;
    run_chunks(c, c->chunks, look_at_chunk);
    double moved = 0; /* (the lists: how far any agent in the hash moved, or a new one in it) */
    for (uint32_t t = 0; t < c->threads; t++) {
        moved = fmax(moved, c->workers[t].moved);
        if (c->workers[t].entered) c->list_epoch++;
    }
    c->moved += moved;
    for (uint32_t k = 0; k < c->chunks; k++) { /* what they told, in the agents' order */
        event_list *l = &c->chunk_events[k];
        for (uint32_t e = 0; e < l->count; e++) ring_push(c, &l->events[e]);
        c->events_lost += l->lost;
        l->count = 0, l->lost = 0;
    }
    fill_buckets(c);
    run_chunks(c, c->chunks, steer_chunk);
    part_all(c);
    for (uint32_t t = 0; t < c->threads; t++) /* (a failure: its details, and the plans' if they failed) */
        if (c->workers[t].failed)
            result = NAV_FAILURE | (nav_failed(result) ? result & NAV_DETAIL_MASK : 0) |
                     (c->workers[t].failed & NAV_DETAIL_MASK);
    c->time += dt;
    c->ticks++;
    return result;
}

bool nav_crowd_agent(const nav_crowd *c, uint32_t id, nav_agent_info *out)
{
    const agent *a = agent_of(c, id);
    if (!a || !out) return false;
    memset(out, 0, sizeof *out); /* (its padding too, field by field after: callers may compare two) */
    out->place = a->place;
    out->velocity = a->velocity;
    out->state = a->state;
    out->goal = a->goal;
    out->corner = a->corner;
    out->steer_to = a->steer_to;
    out->route_count = a->route.count;
    out->following = a->following;
    out->flow = a->flow != UINT32_MAX;
    out->params = a->params;
    return true;
}

const nav_vec3 *nav_crowd_agent_route(const nav_crowd *c, uint32_t id, uint32_t *count)
{
    const agent *a = agent_of(c, id);
    if (count) *count = a ? a->route.count : 0;
    return a && a->route.count ? a->route.points : NULL;
}
