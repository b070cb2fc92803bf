/* nav/agents.h - characters that walk a world's routes.
 *
 * A crowd holds agents on one world (nav/world.h). Each agent has a place in the world (a region and
 * where in it), a velocity, a size and a speed, and, once given a goal, a route: the world's plan
 * from where it stands to the goal, legs on grids, navmeshes and waypoint graphs joined by links.
 * Every tick (nav_crowd_tick) each agent on the move:
 *   - on a navmesh leg, steers for the first corner of the shortest way from where it stands through
 *     the rest of the leg's polygon corridor to the leg's end (nav_mesh_corridor_corners: Detour's
 *     findCorners; worked out again when it comes to another polygon, comes near the corner, and
 *     at least every 8 ticks). Pushed off the corridor onto a polygon next to it, its polygon goes
 *     before the farthest of the corridor's next 8 polygons it meets; further off, it plans its
 *     route again (its turn come: max_replans), steering meanwhile for its route's corner;
 *   - elsewhere, takes the next corner of its route (a grid leg's cells, a waypoint leg's
 *     waypoints) once it is there (within its radius) or sees the one after
 *     it (nav_world_sees: looked for within 30 radii of it, as Detour's path optimisation range) and
 *     the way there keeps half its edge_clearance from the walls near it, so it cuts across to a
 *     later corner as soon as it comes into sight; at the corner before a link (a door,
 *     stairs, a ladder, a bridge, a jump), once within its radius, it crosses the link in a straight
 *     line at its speed and stands, at the far end, on the next leg's region;
 *   - wants to go to its corner at full speed, slowing down within stopping distance of its goal;
 *   - keeps clear of the walls near it (nav_world_walls: a navmesh's edges, a grid's blocked cells,
 *     found again each time it has gone a quarter of their range) wall_horizon seconds ahead, as
 *     ORCA's line obstacles that no neighbour makes it give up, and steers for a corner moved out of
 *     its edge_clearance from them;
 *   - avoids its nearest neighbours by ORCA (van den Berg, Guy, Lin and Manocha, "Reciprocal n-body
 *     collision avoidance", 2011: the method of RVO2): the velocity nearest to the one it wants
 *     among those that keep it clear of each of them for time_horizon seconds, taking half the
 *     avoiding on itself when the other one moves too, all of it when the other stands; agents on
 *     another floor (their heights not overlapping) and on a waypoint graph (a road: it has no
 *     width) do not avoid each other;
 *   - turns its velocity towards that one no faster than its acceleration allows, and moves along
 *     its region's surface (nav_world_move: it slides along walls and never leaves the ground);
 *   - held against a wall for half a second (pushed off its line, it lost sight of its corner), it
 *     plans its route again from where it stands;
 *   - in a crowd (a dozen agents or more within a few metres), it leaves the neighbours it nearly
 *     touches (nearer than twice their two radii) to the pushing apart below and avoids the others:
 *     kept clear of every one at once, a dense crowd holds still;
 *   - held among others (a jam: a tick, its move and its push together, takes it less than a tenth
 *     of the way it wants) for a second, it does the same, and squeezes: over the next two seconds
 *     it avoids as if down to 0.7 of its radius, so that a jam in a doorway or a corridor too
 *     narrow to pass resolves (overlapping, where forced); moving freely again, it comes out of the
 *     jam as slowly as it went in.
 * Then every agent on the ground, moving or standing, that overlaps others is pushed apart from them
 * (DetourCrowd's collision handling): from each, by half their overlap (two that both squeeze, by
 * half of what they overlap at the sizes they squeeze to), the mean of those, along the surface and
 * no nearer to the walls near it than its clearance (or than it stands already): two that arrive at
 * one goal part, one that stands in the way makes room. Those that do not stand in a crowd are
 * pushed again while one overlaps another, those a pass pushed and those it found overlapping one
 * (one pushed into another that stood still), up to 8 passes a tick, or up to 32 while the last
 * pushed at most 32 agents (those in a crowd once: a crowd flows by the give of one pass; and those
 * the first pass found overlapping three or more at once, crushed in a packed corridor, where more
 * passes move them by less and less, only once a pass pushes few).
 * Avoidance is worked out over where every agent stood when the tick began, and the pushing apart
 * over where the moves left them, so the order of the agents plays no part.
 *
 * Plans again are budgeted: a tick makes at most max_replans of them (nav_crowd_desc), the agents
 * that need one taking turns, their searches side by side on the tick's threads; the others go on
 * as they were meanwhile.
 * An agent plans again when held against a wall, when it has waited closed_wait seconds at a closed
 * link, and when a link further on its route closes (it goes round if it can; if not, it keeps its
 * route, tries again closed_wait seconds later, and waits at the link when it comes to it).
 *
 * Links: the crowd tells the engine when an agent starts across a link and when it is across
 * (nav_crowd_events: the agent, the link, its kind and ends), so it can play an animation; the crowd
 * moves the agent across, or the engine does and says when (engine_crosses_links,
 * nav_crowd_finish_link). An agent that comes to a closed link (nav_world_set_links) waits there,
 * goes on if it opens, and after closed_wait seconds plans again: round another way if there is
 * one, else it waits on and tries again.
 *
 * Threads: a tick runs on nav_crowd_desc.threads threads (the crowd's own pool, the caller's thread
 * among them): each plan's search, then each agent's look along its route, then each one's
 * avoidance and move, are its own,
 * worked out from what the tick began with, and what the agents tell the engine is put in their
 * order; so the positions and the events are the same to the bit on any number of threads.
 *
 * An agent starts across a link only when no agent on a link is within a body of its two ends (the
 * one before it on the link has gone ahead, none coming the other way is landing there).
 *
 * Many agents, one goal: agents whose route is one leg on a grid region (of a world in memory) and
 * whose goals lie in one cell share a flow field (nav/flow.h) when at least 8 of them were given
 * goals there since the last tick and it pays (their searches would walk about as many cells as the
 * field: the squares of their ways in cells add up to the grid's cells), or when one is held for
 * that cell already: each steers for the farthest cell along the flow it sees (up to 16 on in a
 * tick) and, in the goal's cell, for its own goal (nav_agent_info.flow; its route is the plan it was
 * given). The field goes with its last agent. A grid route ends at the goal's own point in its cell.
 *
 * Filters: an agent may be kept off kinds of link (nav_agent_params.excluded_links: its plans go
 * round them), and off polygons of navmesh regions, or given its own costs of their areas
 * (nav_agent_params.mesh_filter: a nav_mesh_filter, for its plans, moves, walls and shortcuts), and
 * off terrain types of grid regions, or given its own costs of them (nav_agent_params.grid_filter: a
 * nav_grid_filter, likewise; such an agent follows no flow field). On a grid of several costs an
 * agent sees no shortcut across a cell dearer than those at its two ends (nav_world_sees).
 *
 * The crowd is deterministic: the same calls give the same positions, bit for bit, on any number of
 * threads. Library code never prints; a crowd is used from one thread at a time (the world it walks
 * may be queried from other threads meanwhile, each with its own nav_world_query).
 *
 *     nav_crowd *crowd;
 *     nav_crowd_create(world, NULL, &crowd);
 *     uint32_t id;
 *     nav_crowd_add_agent(crowd, start, &(nav_agent_params){.radius = 0.4f, .height = 2,
 *                         .max_speed = 3.5f, .max_accel = 8}, &id);
 *     nav_crowd_set_goal(crowd, id, goal);
 *     for (;;) {
 *         nav_crowd_tick(crowd, 1.0 / 30);
 *         nav_agent_info a;
 *         nav_crowd_agent(crowd, id, &a);          // a.position, a.velocity, a.state
 *         if (a.state == NAV_AGENT_ARRIVED) break;
 *     }
 *     nav_crowd_destroy(crowd);
 */
#ifndef NAV_AGENTS_H
#define NAV_AGENTS_H

#include "nav/core.h"
#include "nav/world.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nav_crowd nav_crowd;

typedef struct nav_crowd_desc {
    const nav_allocator *allocator; /* [opt] for the crowd and its agents' routes */
    uint32_t max_agents;            /* agents at once (ids 0 .. max_agents - 1); 0: 1024 */
    /* avoidance (ORCA): each agent avoids its max_neighbours nearest (0: 10) within neighbour_range
     * (0: 6 world units) for time_horizon seconds ahead (0: 2) */
    uint32_t max_neighbours;
    float neighbour_range;
    float time_horizon;
    float closed_wait; /* seconds an agent waits at a closed link before it plans again (0: 2) */
    /* walls (nav_world_walls): each agent keeps its centre edge_clearance from the walls near it
     * (0: a hundredth of its radius) wall_horizon seconds ahead (0: 1), as ORCA's line obstacles
     * that are never given up for a neighbour. The surfaces are taken to stop short of the walls by
     * the agents' radius already (a navmesh built from level geometry for them, as Recast's; a grid
     * or a grid's mesh built with agent_radius), so the default only keeps centres off the very
     * edge; on surfaces that reach the walls (a plain grid), a clearance keeps bodies out of them,
     * though a route that hugs a wall may then hold an agent until it plans again */
    float wall_horizon;
    float edge_clearance;
    /* plans a tick at most (0: 8): agents that must plan their way again (held against a wall, at or
     * coming to a closed link) take turns, the others going on meanwhile as they were */
    uint32_t max_replans;
    /* threads a tick runs on (0 or 1: the caller's alone; at most 256): the crowd's own pool, started
     * with the crowd (no more helpers than the cores idle then) and stopped with it; its threads wait
     * between a tick's stages spinning for about 2 ms, then asleep. The positions are the same to the
     * bit on any count. The allocator is called from the pool's threads too, but never from two at
     * once */
    uint32_t threads;
} nav_crowd_desc;

/* An agent's size and how it moves (world units and seconds). */
typedef struct nav_agent_params {
    float radius;    /* above 0: how near a corner counts as reached, and the arrival distance */
    float height;    /* above 0 */
    float max_speed; /* above 0 */
    float max_accel; /* above 0: how fast its velocity may change (units a second, a second) */
    /* true: the engine moves it across links (an animation: a ladder climbed, a door opened) and
     * says when it is across (nav_crowd_finish_link); false: the crowd moves it across in a
     * straight line at its max_speed */
    bool engine_crosses_links;
    /* the kinds of link it may not take (bit 1u << kind for each nav_world_link_kind: a character
     * that climbs no ladder); its plans go round them, as round closed links (0: it takes any) */
    uint32_t excluded_links;
    /* [opt] borrowed: the polygons of navmesh regions it may walk and what their areas cost (a
     * character that cannot swim leaves water out: nav_world_query_set_mesh_filter); its plans,
     * moves, walls and shortcuts there go by it. It must outlive the agent, unchanged. Null: every
     * polygon, at the mesh's costs. An agent added on a polygon its filter leaves out finds no
     * route (NAV_AGENT_NO_ROUTE) */
    const nav_mesh_filter *mesh_filter;
    /* [opt] borrowed: the terrain costs of grid regions for it (nav_grid_filter: a type kept out, or
     * costed otherwise: nav_world_query_set_grid_filter); its plans, moves, walls and shortcuts there
     * go by them, and it follows no flow field (those are made at the grid's own costs). It must
     * outlive the agent, unchanged. Null: each grid's own costs. A world with a grid searched through
     * HPA* of more than 2^20 cells takes none (NAV_WRONG_STATE when the agent is added); a smaller
     * one is then searched cell by cell (nav_world_query_set_grid_filter) */
    const nav_grid_filter *grid_filter;
} nav_agent_params;

typedef enum nav_agent_state {
    NAV_AGENT_IDLE,     /* no goal */
    NAV_AGENT_MOVING,   /* following its route */
    NAV_AGENT_ON_LINK,  /* crossing a link between two legs */
    NAV_AGENT_ARRIVED,  /* at its goal (within its radius); it stands until given another */
    NAV_AGENT_NO_ROUTE, /* its goal cannot be reached from where it stands (or the plan failed) */
    NAV_AGENT_WAITING,  /* at a link that is closed: it waits for it, and after closed_wait seconds
                           plans again (going round if it can, else waiting on) */
} nav_agent_state;

/* What the crowd tells the engine (nav_crowd_events), in the order it happened. */
typedef enum nav_crowd_event_type {
    NAV_CROWD_LINK_START = 1, /* an agent starts across a link (play its animation) */
    NAV_CROWD_LINK_END,       /* it is across: on the next leg's region */
    NAV_CROWD_LINK_CLOSED,    /* it came to a link that is closed: it waits */
    NAV_CROWD_REPLANNED,      /* it planned its route again (a link stayed closed, or it was held) */
    NAV_CROWD_ARRIVED,        /* at its goal */
} nav_crowd_event_type;

typedef struct nav_crowd_event {
    nav_crowd_event_type type;
    uint32_t agent;
    uint32_t link;            /* the world's link (NAV_WORLD_NONE for REPLANNED and ARRIVED) */
    nav_world_link_kind kind; /* its kind (0 for none) */
    nav_vec3 from, to;        /* the link's ends, the way the agent crosses it (ARRIVED: where it
                                 stands, twice) */
} nav_crowd_event;

/* What an agent is doing. */
typedef struct nav_agent_info {
    nav_world_place place; /* where it stands: its region, the place there (cell, polygon,
                              waypoint) and its position (on the floor) */
    nav_vec3 velocity;     /* over the last tick */
    nav_agent_state state;
    nav_vec3 goal;        /* its goal (when it has one) */
    uint32_t corner;      /* the route point it steers to (on a navmesh leg: the leg's last), and */
    uint32_t route_count; /* the route's points (nav_crowd_agent_route) */
    nav_vec3 steer_to;    /* the point it steered for in the last tick on its way (on a navmesh leg,
                             the first corner of its corridor; on a grid leg, its route's corner or its
                             flow's cell; a link's far end while crossing it is not one) */
    uint32_t following;   /* the agent it follows (nav_crowd_follow), or UINT32_MAX */
    bool flow;            /* it follows a flow field it shares with others going to the same cell */
    nav_agent_params params;
} nav_agent_info;

/* Makes a crowd on world w (which must outlive it). [in] desc [opt]. Returns NAV_SUCCESS, or
 * NAV_FAILURE with NAV_INVALID_PARAM (null w or out), NAV_WRONG_STATE (a world baked in parts: no
 * queries) or NAV_OUT_OF_MEMORY. */
NAV_API nav_status nav_crowd_create(const nav_world *w, const nav_crowd_desc *desc, nav_crowd **out);
NAV_API void nav_crowd_destroy(nav_crowd *crowd);
/* Bytes the crowd holds now: itself, its agents and their routes, its world query. */
NAV_API size_t nav_crowd_memory_bytes(const nav_crowd *crowd);

/* Adds an agent at the walkable place nearest to position (within its radius across and its height
 * up and down: nav_world_nearest), idle. [out] id [opt]: its id, the lowest free one. Returns
 * NAV_SUCCESS; NAV_FAILURE with NAV_INVALID_PARAM (non-finite position, a size or speed not above 0
 * or not finite, a filter's cost that is no cost, no walkable place near position),
 * NAV_WRONG_STATE (a grid filter on a world with a grid searched through HPA* of over 2^20 cells),
 * NAV_BUFFER_TOO_SMALL (the crowd is full) or NAV_OUT_OF_MEMORY. A failure changes nothing. */
NAV_API nav_status nav_crowd_add_agent(nav_crowd *crowd, nav_vec3 position, const nav_agent_params *params,
                                       uint32_t *id);
/* Removes agent id (its id is free again). NAV_FAILURE | NAV_INVALID_PARAM for no such agent. */
NAV_API nav_status nav_crowd_remove_agent(nav_crowd *crowd, uint32_t id);

/* Gives agent id a goal: its route is planned now (nav_world_find_path from where it stands to the
 * goal, located as nav_world_locate does). Returns NAV_SUCCESS (the agent moves from the next tick
 * on); NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE when no route leads there (state
 * NAV_AGENT_NO_ROUTE: it stands); NAV_FAILURE with NAV_INVALID_PARAM (no such agent, a non-finite
 * goal, a goal at no walkable place: the agent's goal is then as it was) or NAV_OUT_OF_MEMORY (it
 * stands, NAV_AGENT_NO_ROUTE). */
NAV_API nav_status nav_crowd_set_goal(nav_crowd *crowd, uint32_t id, nav_vec3 goal);
/* Gives agent id another agent to follow: its goal is where `target` stands, planned now (as
 * nav_crowd_set_goal) and again, within the tick's budget of plans, whenever target has gone more
 * than `distance` from it; it stops (NAV_AGENT_ARRIVED) within `distance` (or its radius, if more) of
 * that goal and goes on when target moves away. A plan again for it tells no event. Following ends
 * with another goal (nav_crowd_set_goal, nav_crowd_clear_goal) or when target is removed (the last
 * goal stays). Returns as nav_crowd_set_goal; NAV_FAILURE | NAV_INVALID_PARAM for no such agent or
 * target, target == id, or a distance negative or not finite. */
NAV_API nav_status nav_crowd_follow(nav_crowd *crowd, uint32_t id, uint32_t target, float distance);

/* Takes agent id's goal away: it stops where it is (idle). */
NAV_API nav_status nav_crowd_clear_goal(nav_crowd *crowd, uint32_t id);

/* Moves every agent on by dt seconds (above 0, at most 1), in the order of their ids. Returns
 * NAV_SUCCESS, or NAV_FAILURE with NAV_INVALID_PARAM (dt) or NAV_OUT_OF_MEMORY (an agent's move:
 * that agent stands this tick). */
NAV_API nav_status nav_crowd_tick(nav_crowd *crowd, double dt);

/* The events since the last call, oldest first, into out (up to capacity; the rest stay for the next
 * call): how many. The crowd holds up to 4 * max_agents + 64 events: drain them every tick (past
 * that the oldest are lost, and nav_crowd_events_lost counts them). */
NAV_API uint32_t nav_crowd_events(nav_crowd *crowd, nav_crowd_event *out, uint32_t capacity);
NAV_API uint64_t nav_crowd_events_lost(const nav_crowd *crowd);

/* An agent whose engine crosses its links (nav_agent_params.engine_crosses_links) is across the link
 * it is on: it stands at the link's far end, on the next leg's region. NAV_FAILURE |
 * NAV_INVALID_PARAM for no such agent, or one on no link. */
NAV_API nav_status nav_crowd_finish_link(nav_crowd *crowd, uint32_t id);

/* Agent id now. Returns false (out untouched) for no such agent. */
NAV_API bool nav_crowd_agent(const nav_crowd *crowd, uint32_t id, nav_agent_info *out);
/* Agent id's route: its points (count: nav_agent_info.route_count; null when it has none), valid
 * until the agent's next goal. */
NAV_API const nav_vec3 *nav_crowd_agent_route(const nav_crowd *crowd, uint32_t id, uint32_t *count);

#ifdef __cplusplus
}
#endif
#endif
