/* nav/waypoints.h - waypoint graphs with every shortest route worked out at bake time.
 *
 * A waypoint graph is a sparse set of points (the bot graph of a shooter, the road network of an
 * open world) joined by links, one-way or two-way, each with a cost (by default its 3D length).
 * The bake runs Dijkstra's algorithm from every waypoint and keeps, for every ordered pair, the
 * distance and the first move (the next waypoint of a shortest route), so that a query is a table
 * lookup and a route is a walk along first moves: no search.
 *
 * Life: describe the graph (nav_waypoint_graph: arrays of your own, or read from the text format
 * by nav_waypoint_graph_load_text / _file), bake it (nav_waypoints_bake), then share the result:
 * it is immutable, and any number of threads read it at once.
 *
 *     nav_waypoint points[3] = {{.position = {0, 0, 0}, .name = "gate"},
 *                               {.position = {4, 0, 0}, .name = "yard"},
 *                               {.position = {4, 0, 3}, .name = "tower"}};
 *     nav_waypoint_link links[2] = {{.from = 0, .to = 1}, {.from = 1, .to = 2, .one_way = true}};
 *     nav_waypoint_graph graph = {.waypoints = points, .waypoint_count = 3, .links = links, .link_count = 2};
 *     nav_waypoints *wp;
 *     nav_waypoints_bake(&graph, NULL, &wp);
 *     double d = nav_waypoints_distance(wp, 0, 2);   // 7: 4 to the yard, 3 up the tower
 *     nav_path path;
 *     nav_path_init(&path, NULL);
 *     nav_waypoints_route(wp, 0, 2, &path);          // gate, yard, tower; path.cost 7
 *     nav_path_destroy(&path);
 *     nav_waypoints_destroy(wp);
 *
 * Size: the tables hold 6 bytes a pair (a float distance and a 16-bit next hop), n^2 for n
 * waypoints: 96 MiB at the default limit of 4096. A bake of more is refused with NAV_TOO_LARGE.
 *
 * The text format (docs/waypoints.md):
 *
 *     libnav waypoints 1
 *     # name x y z [tags N]
 *     waypoint gate 0 0 0
 *     waypoint yard 4 0 0 tags 2
 *     waypoint tower 4 0 3
 *     # from to [cost C] [oneway] [flags N] [disabled]
 *     link gate yard
 *     link yard tower oneway cost 3.5
 */
#ifndef NAV_WAYPOINTS_H
#define NAV_WAYPOINTS_H

#include "nav/core.h"
#include "nav/path.h"
#include "nav/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NAV_WAYPOINTS_NONE        UINT32_MAX /* "no waypoint": no route, an unknown name */
#define NAV_WAYPOINTS_DEFAULT_MAX 4096u      /* waypoints a bake takes unless told otherwise */
#define NAV_WAYPOINTS_LIMIT       65535u     /* the most any bake takes (16-bit next hops) */
#define NAV_WAYPOINT_NAME_MAX     63u        /* the longest name, in bytes */
#define NAV_WAYPOINT_MAX_COST     1e30       /* the dearest link (so that every route fits a float) */

/* A waypoint: a world point, an optional name (unique when given; NAV_WAYPOINT_NAME_MAX bytes at
 * most, no blanks) and 32 tag bits of the caller's. */
typedef struct nav_waypoint {
    nav_vec3 position;
    const char *name; /* [opt] */
    uint32_t tags;
} nav_waypoint;

/* A link between two waypoints (their indices). Two-way unless one_way. Its cost is that of
 * taking it either way: 0 means its 3D length; a cost must be finite and not negative, and a link
 * of length 0 needs a cost above 0 (a route has no zero-cost cycles). A link may cost (or be long)
 * at most NAV_WAYPOINT_MAX_COST: the tables keep distances as floats. A disabled link is left out
 * of the tables (a door that starts locked). flags are the caller's (filters use them). */
typedef struct nav_waypoint_link {
    uint32_t from, to;
    double cost;
    uint16_t flags;
    bool one_way;
    bool disabled;
} nav_waypoint_link;

/* A graph to bake: arrays the caller owns, or that a loader made (then `storage` is set and
 * nav_waypoint_graph_release frees them). */
typedef struct nav_waypoint_graph {
    const nav_waypoint *waypoints;
    uint32_t waypoint_count;
    const nav_waypoint_link *links;
    uint32_t link_count;
    void *storage;           /* a loader's block (waypoints, links and names); null for yours */
    nav_allocator allocator; /* what storage came from */
} nav_waypoint_graph;

/* ---- The text format ------------------------------------------------------------------------- */

/* Loader options; zero fields take defaults. */
typedef struct nav_waypoint_load_desc {
    const nav_allocator *allocator; /* [opt] for the graph's storage (null: malloc/free) */
    const nav_log *log;             /* [opt] "NAME:LINE: message" errors */
    const char *name;               /* [opt] the NAME of messages (null: "waypoints") */
} nav_waypoint_load_desc;

/* Reads a graph from text (size bytes, need not be NUL-terminated) into *out, which is then to be
 * released with nav_waypoint_graph_release. Errors (each reported to desc->log with its line):
 * a missing or unknown header, an unknown keyword, a malformed number, a duplicate or invalid
 * name, a link naming an unknown waypoint or missing one, a negative or non-finite cost, more than
 * NAV_WAYPOINTS_LIMIT waypoints. Returns NAV_SUCCESS, NAV_FAILURE | NAV_PARSE_ERROR (*out empty),
 * NAV_FAILURE | NAV_INVALID_PARAM, or NAV_FAILURE | NAV_OUT_OF_MEMORY. */
nav_status nav_waypoint_graph_load_text(const char *text, size_t size, const nav_waypoint_load_desc *desc,
                                        nav_waypoint_graph *out);
/* The same from a file (NAME: its base name unless desc->name is set). NAV_FAILURE | NAV_IO_ERROR
 * when it cannot be read. */
nav_status nav_waypoint_graph_load_file(const char *path, const nav_waypoint_load_desc *desc,
                                        nav_waypoint_graph *out);
/* Frees what a loader allocated and empties *graph; does nothing to a graph of your own arrays. */
void nav_waypoint_graph_release(nav_waypoint_graph *graph);

/* ---- Baking ---------------------------------------------------------------------------------- */

typedef struct nav_waypoints nav_waypoints;

/* Bake options; zero fields take defaults. */
typedef struct nav_waypoints_bake_desc {
    uint32_t threads;               /* worker threads (0: every core); the tables come out the same */
    uint32_t max_waypoints;         /* refuse larger graphs (0: NAV_WAYPOINTS_DEFAULT_MAX; at most
                                     * NAV_WAYPOINTS_LIMIT) */
    const nav_allocator *allocator; /* [opt] for the baked data */
    const nav_log *log;             /* [opt] why a graph is refused */
    const nav_progress *progress;   /* [opt] "routes": sources done out of all; false cancels */
} nav_waypoints_bake_desc;

/* Checks the graph and works out every route. Ties between routes of equal cost break the same
 * way on every run and at every thread count: Dijkstra settles the lower index first and keeps the
 * first route found. Returns NAV_SUCCESS; NAV_FAILURE | NAV_INVALID_PARAM for a bad graph (an
 * index out of range, a cost that is negative or not finite, a zero-cost link, a link dearer than
 * NAV_WAYPOINT_MAX_COST, a duplicate name,
 * a position not finite: told to desc->log); NAV_FAILURE | NAV_TOO_LARGE beyond max_waypoints;
 * NAV_FAILURE | NAV_OUT_OF_MEMORY; NAV_FAILURE | NAV_WRONG_STATE when progress cancelled it. */
nav_status nav_waypoints_bake(const nav_waypoint_graph *graph, const nav_waypoints_bake_desc *desc,
                              nav_waypoints **out);
void nav_waypoints_destroy(nav_waypoints *wp);

/* ---- Reading a bake -------------------------------------------------------------------------- */

uint32_t nav_waypoints_count(const nav_waypoints *wp);
/* The position, tags and name ("" for none) of waypoint i (i < count; else the origin, 0, ""). */
nav_vec3 nav_waypoints_position(const nav_waypoints *wp, uint32_t i);
uint32_t nav_waypoints_tags(const nav_waypoints *wp, uint32_t i);
const char *nav_waypoints_name(const nav_waypoints *wp, uint32_t i);
/* The waypoint of that name, or NAV_WAYPOINTS_NONE (binary search over the sorted names). */
uint32_t nav_waypoints_find(const nav_waypoints *wp, const char *name);
/* Bytes of the baked data (tables, waypoints, links, names). */
size_t nav_waypoints_memory_bytes(const nav_waypoints *wp);

/* ---- Queries (read-only: any number of threads at once) -------------------------------------- */

/* The cost of the cheapest route from waypoint `from` to `to` (0 from a waypoint to itself),
 * INFINITY when there is none or an index is out of range. O(1). The table keeps it as a float
 * (relative error below 1e-7); nav_waypoints_route sums the links exactly. */
double nav_waypoints_distance(const nav_waypoints *wp, uint32_t from, uint32_t to);

/* The first move of that route: the waypoint after `from` (`to` itself for a direct link, `from`
 * when from == to), or NAV_WAYPOINTS_NONE when there is no route. O(1). */
uint32_t nav_waypoints_next_hop(const nav_waypoints *wp, uint32_t from, uint32_t to);

/* The route from `from` to `to` into out (cleared first): the waypoints' positions, their indices
 * in out->nodes, out->cost the sum of its links' costs (in doubles). Walks the first moves, taking
 * the cheapest link between consecutive waypoints. Returns NAV_SUCCESS; NAV_FAILURE |
 * NAV_UNREACHABLE (out empty) when there is no route; NAV_FAILURE | NAV_INVALID_PARAM for an index
 * out of range; NAV_FAILURE | NAV_OUT_OF_MEMORY when out cannot grow. */
nav_status nav_waypoints_route(const nav_waypoints *wp, uint32_t from, uint32_t to, nav_path *out);

#ifdef __cplusplus
}
#endif
#endif
