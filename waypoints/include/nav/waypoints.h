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
 * it is immutable, and any number of threads read it at once. Bakes (and loading a bake of a grid,
 * which rebuilds what its point queries read) run on several threads, but call the allocator you
 * give only from the thread that called them.
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
 * Size: plain tables hold 6 bytes a pair (a float distance and a 16-bit next hop), n^2 for n
 * waypoints: 96 MiB at NAV_WAYPOINTS_DENSE_MAX (4096). Larger graphs (up to max_waypoints: by
 * default NAV_WAYPOINTS_DEFAULT_MAX, 65535; more is refused with NAV_TOO_LARGE) keep hub labels
 * instead (a 2-hop cover: Cohen, Halperin, Kaplan and Zwick 2003; built by pruned landmark
 * labelling, Akiba, Iwata and Yoshida 2013): each waypoint keeps a short list of hubs with its
 * distance to each and its first move towards it (and, on graphs with one-way links or costs that
 * differ each way, a second list from the hubs), such that every shortest route runs through a hub
 * both its ends keep. 12 bytes an entry (8 in a file: where the next entry towards the hub is, 4
 * bytes, is rebuilt on loading); on the four game maps above 4096 corners 60 to 105 entries a
 * waypoint: TheFrozenSea (23,464 corners) 2.1 million entries, 24 MiB, where plain tables would
 * take 3.1 GiB; on maze512-1-0 (49,154 corners) 15, a chain of 65,535 waypoints (a long road) 15,
 * a 256 x 255 lattice 86. A distance is then one merge of two lists (0.35 to 1.35 us on those maps:
 * bench/waypoints_routes.sh), a first move the same, a route a walk through the hub the lists meet
 * at. The hubs are taken greedily, each time the one the most sampled shortest routes that no hub
 * taken before serves run through, the sample drawn again, round by round, from the searches the
 * labels made so far leave (on a chain: the middle first, then the middle of each half, ...), and
 * each hub's search stops where earlier hubs serve: a bake takes seconds (a chain of 65,535
 * waypoints about 2 s and 270 MB on 2 cores; the game maps: bench/README.md).
 * A bake of a grid also keeps, for point queries, the corners each block of cells may see (a block
 * is one cell on grids of at most 2^18 cells, 2 x 2 cells above): a 2-byte entry a corner a block
 * it is seen from, 8 bytes a block besides, and on grids of one cost without heights a bit an
 * entry, set where every point of the block's free cells sees the corner (for the lists' first
 * two parts, when working that out takes at most 2^31 steps of walking: every shared map but
 * AcrosstheCape, TheFrozenSea and Berlin_0_1024); den520d 3.7 MB beside 5.6 MB of the rest,
 * orz900d 4.3 MB beside 101 MB, Berlin_0_1024 136 MB beside 39 MB. Rebuilt, not stored, when a
 * file is loaded with its grid (Berlin_0_256's file 0.46 s, orz900d's 0.46 s: bench/README.md).
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
#include "nav/grid.h"
#include "nav/io.h"
#include "nav/path.h"
#include "nav/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NAV_WAYPOINTS_NONE        UINT32_MAX /* "no waypoint": no route, an unknown name */
#define NAV_WAYPOINTS_DENSE_MAX   4096u      /* the largest graph given plain tables by default */
#define NAV_WAYPOINTS_DEFAULT_MAX 65535u     /* waypoints a bake takes unless told otherwise */
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
NAV_BAKE_API nav_status nav_waypoint_graph_load_text(const char *text, size_t size,
                                                     const nav_waypoint_load_desc *desc,
                                                     nav_waypoint_graph *out);
/* The same from a file (NAME: its base name unless desc->name is set). NAV_FAILURE | NAV_IO_ERROR
 * when it cannot be read. */
NAV_BAKE_API nav_status nav_waypoint_graph_load_file(const char *path, const nav_waypoint_load_desc *desc,
                                                     nav_waypoint_graph *out);
/* Frees what a loader allocated and empties *graph; does nothing to a graph of your own arrays. */
NAV_BAKE_API void nav_waypoint_graph_release(nav_waypoint_graph *graph);

/* ---- Baking ---------------------------------------------------------------------------------- */

typedef struct nav_waypoints nav_waypoints;

/* Bake options; zero fields take defaults. */
typedef struct nav_waypoints_bake_desc {
    uint32_t threads;               /* worker threads (0: every core); the tables come out the same */
    uint32_t max_waypoints;         /* refuse larger graphs (0: NAV_WAYPOINTS_DEFAULT_MAX; at most
                                     * NAV_WAYPOINTS_LIMIT) */
    uint32_t dense_max;             /* graphs up to this size get plain tables, larger ones
                                     * hub labels (0: NAV_WAYPOINTS_DENSE_MAX) */
    const nav_allocator *allocator; /* [opt] for the baked data */
    const nav_log *log;             /* [opt] why a graph is refused */
    const nav_progress *progress;   /* [opt] "routes": sources done out of all (hub labels, in turns:
                                     * "hub order", a round's sampled trees, and "labels", hubs
                                     * labelled out of all); false cancels */
} nav_waypoints_bake_desc;

/* Checks the graph and works out every route. Ties between routes of equal cost break the same
 * way on every run and at every thread count: Dijkstra settles the lower index first and keeps the
 * first route found. Returns NAV_SUCCESS; NAV_FAILURE | NAV_INVALID_PARAM for a bad graph (an
 * index out of range, a cost that is negative or not finite, a zero-cost link, a link dearer than
 * NAV_WAYPOINT_MAX_COST, a duplicate name,
 * a position not finite: told to desc->log); NAV_FAILURE | NAV_TOO_LARGE beyond max_waypoints;
 * NAV_FAILURE | NAV_OUT_OF_MEMORY; NAV_FAILURE | NAV_WRONG_STATE when progress cancelled it. */
NAV_BAKE_API nav_status nav_waypoints_bake(const nav_waypoint_graph *graph,
                                           const nav_waypoints_bake_desc *desc, nav_waypoints **out);
NAV_API void nav_waypoints_destroy(nav_waypoints *wp);

/* ---- Graphs made from grids ------------------------------------------------------------------ */

/* Options of a grid's graph; zero fields take defaults. */
typedef struct nav_waypoint_grid_desc {
    bool keep_all_links;            /* keep links that are not taut (see below) */
    uint32_t threads;               /* worker threads (0: every core); the result comes out the same */
    uint32_t max_waypoints;         /* refuse grids with more corners (0: NAV_WAYPOINTS_DEFAULT_MAX) */
    uint32_t dense_max;             /* the bake's (nav_waypoints_bake_desc) */
    const nav_allocator *allocator; /* [opt] */
    const nav_log *log;             /* [opt] why a grid is refused */
    const nav_progress *progress;   /* [opt] "visibility": corners done; then the bake's "routes" */
} nav_waypoint_grid_desc;

/* The waypoint graph of a grid (the tutorials' "polygonal map"): a waypoint at every convex corner
 * of its blocked cells (a grid vertex with exactly three free cells around it), in row-major order
 * (by y, then x), at that vertex in world space (its y: the height of the free cell diagonal to the
 * blocked one); a link between every two corners that see each other under the any-angle rule of
 * nav/anyangle.h, costing what walking it costs (terrain-weighted length, in world units). A link
 * that climbs too high one way is one-way; one that cannot be walked either way is absent.
 *
 * Shortest any-angle paths bend only at these corners, and there they wrap the blocked cell: both
 * of the path's segments at a corner are taut (their line touches the cell without crossing the line
 * of its two edges). On grids of one terrain cost without a climb limit, links that are not taut at
 * both ends are left out (unless keep_all_links): often most of them. Routes between two points
 * (nav_waypoints_find_path) stay exact; a route between two corners of such a graph is the
 * shortest one whose first and last links are taut. On other grids every link is kept, and paths
 * are the cheapest that bend only at corners (terrain may make a bend elsewhere cheaper).
 *
 * Finding the links: each corner scans the rows away from it for the corners it may see (the rays
 * still free kept as intervals, cut by the runs of blocked cells; work in proportion to the rows'
 * reachable spans, not to the number of corners), then checks each exactly. NAV_FAILURE |
 * NAV_TOO_LARGE (told to desc->log) when the grid has more corners than max_waypoints, before any
 * work; NAV_FAILURE | NAV_OUT_OF_MEMORY; NAV_FAILURE | NAV_WRONG_STATE when cancelled. Release *out
 * with nav_waypoint_graph_release. */
NAV_BAKE_API nav_status nav_waypoint_graph_from_grid(const nav_grid *grid, const nav_waypoint_grid_desc *desc,
                                                     nav_waypoint_graph *out);

/* nav_waypoint_graph_from_grid, then nav_waypoints_bake; the bake keeps the corners and the grid's
 * fingerprint, so that a query object bound to the grid finds paths between any two points. */
NAV_BAKE_API nav_status nav_waypoints_bake_grid(const nav_grid *grid, const nav_waypoint_grid_desc *desc,
                                                nav_waypoints **out);

/* ---- Graphs made from navigation meshes ------------------------------------------------------ */

typedef struct nav_mesh nav_mesh;

/* Options of a mesh's graph; zero fields take defaults. */
typedef struct nav_waypoint_mesh_desc {
    bool keep_all_links;            /* keep links that are not taut (see below) */
    uint32_t threads;               /* worker threads (0: every core); the result comes out the same */
    uint32_t max_waypoints;         /* refuse meshes with more (0: NAV_WAYPOINTS_DEFAULT_MAX) */
    uint32_t dense_max;             /* the bake's (nav_waypoints_bake_desc) */
    const nav_allocator *allocator; /* [opt] */
    const nav_log *log;             /* [opt] why a mesh is refused */
    const nav_progress *progress;   /* [opt] "visibility": waypoints done; then the bake's "routes" */
} nav_waypoint_mesh_desc;

/* The waypoint graph of a navigation mesh (nav/mesh.h): a waypoint at every convex corner of its
 * obstacles - a vertex where the walkable area around it, seen from above, turns more than half
 * round between two walls - in the order of the mesh's vertices, then one at each end of every
 * off-mesh link, in the links' order; a link between every two that see each other on the mesh
 * (nav_mesh_raycast from one to the other: both ways when the mesh has one-way steps, so a link up
 * a step is one-way), costing its length (x, z) in each polygon times the polygon's area cost; and
 * every off-mesh link, with its cost, flags and direction. Where every area costs the same and no
 * step is one-way, links that are not taut at both corner ends are left out (unless
 * keep_all_links), as nav_waypoint_graph_from_grid does. On a mesh built from a grid, the corners
 * are the grid's and so are the links (tested). Every pair is raycast: O(n^2) rays. Returns as
 * nav_waypoint_graph_from_grid, and NAV_FAILURE | NAV_INVALID_PARAM for an off-mesh link dearer than
 * NAV_WAYPOINT_MAX_COST (told to desc->log); release *out with nav_waypoint_graph_release. */
NAV_BAKE_API nav_status nav_waypoint_graph_from_mesh(const nav_mesh *mesh, const nav_waypoint_mesh_desc *desc,
                                                     nav_waypoint_graph *out);
/* nav_waypoint_graph_from_mesh, then nav_waypoints_bake of it: a bake of its own (not tied to a
 * grid: routes between waypoints, not paths between any two points). */
NAV_BAKE_API nav_status nav_waypoints_bake_mesh(const nav_mesh *mesh, const nav_waypoint_mesh_desc *desc,
                                                nav_waypoints **out);

/* ---- The WAYPOINTS chunk of a .nav file ------------------------------------------------------ */

#define NAV_CHUNK_WAYPOINTS         NAV_TAG('W', 'A', 'Y', 'P')
#define NAV_WAYPOINTS_CHUNK_VERSION 1

/* Appends the bake's WAYPOINTS chunk data to out: the waypoints (positions, tags, names), the links
 * (each with the cost the bake gave it), the distance and first-move tables, and for a bake of a
 * grid its fingerprint. What can be derived (arcs, the name index, the k-d tree, a grid's corners)
 * is not stored. Returns the writer's status. */
NAV_API nav_status nav_waypoints_write_chunk(const nav_waypoints *wp, nav_writer *out);

/* Makes a bake from WAYPOINTS chunk data, checking everything a query relies on: every count
 * against the bytes, every index, finite positions and costs, names (valid, unique, inside the
 * chunk), and the tables against the graph in O(n^2): each waypoint's distance to itself 0 and
 * first move itself; elsewhere a distance that is finite and not negative exactly where the first
 * move is a waypoint (not "no route"), that first move joined to the row's waypoint by a link that
 * is not disabled, and the distance that link's cost plus the first move's own distance (within a
 * float's rounding). A chunk that passes cannot make a query read out of bounds or loop; its routes
 * are real routes of its graph with the costs it states (a forged one may still hold routes that
 * are not the cheapest).
 *
 * A bake of a grid needs that grid for paths between points: give it as grid [opt] (it must be the
 * grid of the bake's fingerprint, whose corners are the waypoints: NAV_SOURCE_MISMATCH otherwise).
 * Without it the bake still answers waypoint queries, and nav_waypoints_query_create refuses a grid.
 * [in] allocator, log [opt]. [out] out: null on failure. Returns NAV_SUCCESS, or NAV_FAILURE with
 * NAV_CORRUPT_DATA (said to the log), NAV_SOURCE_MISMATCH, NAV_INVALID_PARAM or NAV_OUT_OF_MEMORY. */
NAV_API nav_status nav_waypoints_read_chunk(const void *data, size_t size, const nav_grid *grid,
                                            const nav_allocator *allocator, const nav_log *log,
                                            nav_waypoints **out);

/* Saves a bake as a .nav file (atomically, see nav_container_write_file): a WAYPOINTS chunk, after
 * a GRID chunk when grid [opt] is given. Returns NAV_SUCCESS, NAV_FAILURE | NAV_SOURCE_MISMATCH
 * when grid is given and the bake was not made from it (nothing is written), or the failure of
 * writing. */
NAV_API nav_status nav_waypoints_save_nav(const nav_grid *grid, const nav_waypoints *wp, const char *path,
                                          const nav_log *log);

/* Loads the WAYPOINTS chunk of a .nav file. For grid [opt], the file's GRID chunk too (the file
 * must hold one; for a bake of a grid it must be that grid) and the bake is bound to it as
 * nav_waypoints_read_chunk describes. [in] allocator, log [opt] (messages as "PATH: message").
 * [out] wp, grid: null on failure. Returns as nav_container_read_file and nav_waypoints_read_chunk;
 * a file without a WAYPOINTS chunk, or with two, gives NAV_CORRUPT_DATA, one of another version
 * NAV_WRONG_VERSION. */
NAV_API nav_status nav_waypoints_load_nav(const char *path, const nav_allocator *allocator,
                                          const nav_log *log, nav_waypoints **wp, nav_grid **grid);

/* ---- Reading a bake -------------------------------------------------------------------------- */

NAV_API uint32_t nav_waypoints_count(const nav_waypoints *wp);
/* The position, tags and name ("" for none) of waypoint i (i < count; else the origin, 0, ""). */
NAV_API nav_vec3 nav_waypoints_position(const nav_waypoints *wp, uint32_t i);
NAV_API uint32_t nav_waypoints_tags(const nav_waypoints *wp, uint32_t i);
NAV_API const char *nav_waypoints_name(const nav_waypoints *wp, uint32_t i);
/* The waypoint of that name, or NAV_WAYPOINTS_NONE (binary search over the sorted names). */
NAV_API uint32_t nav_waypoints_find(const nav_waypoints *wp, const char *name);
/* The links of the graph that was baked (a two-way link counts once). */
NAV_API uint32_t nav_waypoints_link_count(const nav_waypoints *wp);
/* Whether the bake was made from a grid (nav_waypoints_bake_grid), and that grid's fingerprint
 * (nav_grid_fingerprint; 0 for other bakes). */
NAV_API bool nav_waypoints_from_grid(const nav_waypoints *wp);
NAV_API uint64_t nav_waypoints_source_fingerprint(const nav_waypoints *wp);
/* Link `link` of the baked graph (by its index in the graph's links) into *out: its waypoints, its
 * cost as the tables use it (a cost of 0 given as its length), flags, one_way and disabled. A
 * two-way link reads with from below to. Returns false (out untouched) when out of range. */
NAV_API bool nav_waypoints_link(const nav_waypoints *wp, uint32_t link, nav_waypoint_link *out);
/* Whether the bake keeps hub labels (more waypoints than dense_max) rather than plain tables: then
 * a distance or first move is a merge of two short lists, not one read (see nav_waypoints_distance). */
NAV_API bool nav_waypoints_compressed(const nav_waypoints *wp);
/* Bytes of the baked data (tables, waypoints, links, names; for a bake of a grid, its corners and
 * what each block of cells may see). */
NAV_API size_t nav_waypoints_memory_bytes(const nav_waypoints *wp);

/* ---- Queries (read-only: any number of threads at once) -------------------------------------- */

/* The cost of the cheapest route from waypoint `from` to `to` (0 from a waypoint to itself),
 * INFINITY when there is none or an index is out of range. Plain tables: O(1), kept as a float
 * (relative error below 1e-7; nav_waypoints_route sums the links exactly). Hub labels: the least
 * sum over the hubs the two waypoints' labels share, O(entries in the two labels), two floats
 * (relative error below 2e-7). */
NAV_API double nav_waypoints_distance(const nav_waypoints *wp, uint32_t from, uint32_t to);

/* The first move of that route: the waypoint after `from` (`to` itself for a direct link, `from`
 * when from == to), or NAV_WAYPOINTS_NONE when there is no route. O(1) on plain tables; on hub
 * labels a merge as nav_waypoints_distance, and when `from` is itself the hub, a walk back from
 * `to` (O(links on the route x log(entries))). */
NAV_API uint32_t nav_waypoints_next_hop(const nav_waypoints *wp, uint32_t from, uint32_t to);

/* The route from `from` to `to` into out (cleared first): the waypoints' positions, their indices
 * in out->nodes, out->cost the sum of its links' costs (in doubles). Walks the first moves (on hub
 * labels: up to the hub, then back from `to` to it), taking the cheapest link between consecutive
 * waypoints. Returns NAV_SUCCESS; NAV_FAILURE |
 * NAV_UNREACHABLE (out empty) when there is no route; NAV_FAILURE | NAV_INVALID_PARAM for an index
 * out of range; NAV_FAILURE | NAV_OUT_OF_MEMORY when out cannot grow. */
NAV_API nav_status nav_waypoints_route(const nav_waypoints *wp, uint32_t from, uint32_t to, nav_path *out);

/* The waypoint nearest to `point` (3D distance, into *distance [opt]) among those within
 * max_distance (0: any), or NAV_WAYPOINTS_NONE. Walks a k-d tree the bake built: O(log n) for points
 * among the waypoints. Ties go to the lower index. For a nearest waypoint that the point sees, or
 * that a filter leaves open, see nav_waypoints_query_nearest. */
NAV_API uint32_t nav_waypoints_nearest(const nav_waypoints *wp, nav_vec3 point, double max_distance,
                                       double *distance);

/* ---- Query objects: filtered routes, nearest waypoints, paths between any two points -------- */

/* A query object: one per thread, over a bake that any number of them share. Holds the scratch of
 * searches, so that queries allocate nothing. */
typedef struct nav_waypoints_query nav_waypoints_query;

/* How nav_waypoints_query_route finds a route. */
typedef enum nav_waypoints_method {
    NAV_WAYPOINTS_AUTO = 0, /* the table's route if the filter leaves it open, else a search */
    NAV_WAYPOINTS_SEARCH,   /* always search (A* guided by the table where it holds) */
    NAV_WAYPOINTS_DIJKSTRA, /* always Dijkstra, the tables unused (a yardstick for them) */
} nav_waypoints_method;

/* Which links and waypoints a route may use (a locked door, a bridge blown up, a ladder only some
 * agents climb). A closed waypoint is out of the graph: no route starts, ends or passes there.
 * Zero fields close nothing. */
typedef struct nav_waypoints_filter {
    uint16_t exclude_link_flags;     /* close the links with any of these flags */
    uint32_t exclude_tags;           /* close the waypoints with any of these tags */
    const uint8_t *closed_links;     /* [opt] one byte a link of the baked graph (by its index in
                                      * the graph's links): nonzero closes it */
    const uint8_t *closed_waypoints; /* [opt] one byte a waypoint: nonzero closes it */
    bool open_disabled;              /* open the links the graph marked disabled */
    nav_waypoints_method method;
} nav_waypoints_filter;

/* What a route query did. */
typedef struct nav_waypoints_route_result {
    double cost;       /* the route's cost */
    bool searched;     /* a search found it (the filter closed the table's route, or method said so) */
    bool heuristic;    /* that search was A* on the table's distances (else Dijkstra) */
    uint32_t expanded; /* waypoints the search expanded */
} nav_waypoints_route_result;

typedef struct nav_waypoints_query_desc {
    const nav_grid *grid;           /* [opt] the grid a bake of nav_waypoints_bake_grid came from
                                     * (checked by fingerprint); needed by nav_waypoints_find_path */
    const nav_allocator *allocator; /* [opt] */
    const nav_log *log;             /* [opt] why creation failed */
} nav_waypoints_query_desc;

/* NAV_FAILURE | NAV_INVALID_PARAM when a grid is given and the bake was not made from it (or from
 * no grid); NAV_FAILURE | NAV_OUT_OF_MEMORY. The grid must outlive the query and stay unchanged. */
NAV_API nav_status nav_waypoints_query_create(const nav_waypoints *wp, const nav_waypoints_query_desc *desc,
                                              nav_waypoints_query **out);
NAV_API void nav_waypoints_query_destroy(nav_waypoints_query *query);
/* Bytes of the query object: about 70 per waypoint (84 on hub labels), and with a grid 12 more and 32
 * per grid column. */
NAV_API size_t nav_waypoints_query_memory_bytes(const nav_waypoints_query *query);

/* The cheapest route from waypoint `from` to `to` that the filter [opt] leaves open, written to out
 * as nav_waypoints_route writes it. With no filter, or when every link and waypoint of the table's
 * route is open, that route (a walk along first moves: no search). Otherwise a search over the
 * graph: A* with the table's (or hub labels') distances as the heuristic (exact where nothing is closed, so
 * it goes almost straight to the goal), or Dijkstra when the filter opens disabled links (the tables knew
 * nothing of them, so their distances are no lower bound). Ties between routes of equal cost break the same
 * way on every run. Returns NAV_SUCCESS; NAV_FAILURE | NAV_UNREACHABLE (out empty) when the filter leaves no
 * route; NAV_FAILURE | NAV_INVALID_PARAM for an index out of range; NAV_FAILURE | NAV_OUT_OF_MEMORY when out
 * cannot grow. */
NAV_API nav_status nav_waypoints_query_route(nav_waypoints_query *query, uint32_t from, uint32_t to,
                                             const nav_waypoints_filter *filter, nav_path *out,
                                             nav_waypoints_route_result *result);

/* Which waypoints nav_waypoints_query_nearest may pick; zero fields take any. */
typedef struct nav_waypoints_nearest_desc {
    double max_distance;                /* 0: any distance */
    bool visible;                       /* only waypoints the point sees under the any-angle rule of
                                         * nav/anyangle.h (a query with a grid; heights ignored) */
    const nav_waypoints_filter *filter; /* [opt] only waypoints it leaves open */
    bool (*accept)(void *user, uint32_t waypoint); /* [opt] your own test (a ray cast, a team) */
    void *user;
} nav_waypoints_nearest_desc;

/* The waypoint nearest to `point` (3D distance) that desc [opt] accepts, into *waypoint, and its
 * distance into *distance [opt]. Visits waypoints in order of distance through the bake's k-d tree
 * (Hjaltason and Samet's incremental nearest neighbour), testing each until one passes: the work
 * grows with the waypoints nearer than the answer. Ties go to the lower index. Returns NAV_SUCCESS;
 * NAV_FAILURE | NAV_UNREACHABLE (*waypoint NAV_WAYPOINTS_NONE) when none qualifies; NAV_FAILURE |
 * NAV_INVALID_PARAM for a point that is not finite, or `visible` without a grid or with the point
 * outside the grid's free space. */
NAV_API nav_status nav_waypoints_query_nearest(nav_waypoints_query *query, nav_vec3 point,
                                               const nav_waypoints_nearest_desc *desc, uint32_t *waypoint,
                                               double *distance);

/* What a point query did. */
typedef struct nav_waypoints_result {
    double cost;       /* the path's cost (terrain-weighted length, world units) */
    bool straight;     /* the two points see each other and the straight line is the path */
    uint32_t from, to; /* the route's first and last waypoints (NAV_WAYPOINTS_NONE when straight) */
    uint32_t start_candidates, goal_candidates; /* corners each end was joined to */
    uint32_t checks;                            /* segments checked exactly */
} nav_waypoints_result;

/* The shortest any-angle path from start to goal (world points, anywhere in free space) on the
 * query's grid. If the two see each other, the straight line (on grids of one cost; elsewhere when
 * nothing through the corners is cheaper). Otherwise each end is joined to the corners it may see
 * where the segment is taut (every corner it may see on graphs that kept all links): the list the
 * bake made for its block, usually a few dozen, less the corners a shortest path cannot bend at
 * (on a pruned graph a path bends only round the corner's blocked cell, which must lie between
 * the segment from the point and the next segment: a link of the corner, or the segment to the
 * other end). Each list comes in three parts, by what a path from anywhere in the block may do at
 * the corner: bend on to a link everywhere (taken untested), nowhere (only a path of one corner,
 * which the start's end finds alone, where the goal's lists hold the corner too, and adds to the
 * goal's candidates), or it depends on the point (tested); so the goal's end reads two of them.
 * A corner the whole block surely sees (the sure bits above) costs its length, never walked.
 * The path is the cheapest combination start -> a -> (table route) -> b -> goal. A first guess
 * (the start corner of least bound below, the goal corner that joins it cheapest by the table, on
 * hub labels the nearest, both segments checked) leaves out every goal corner whose straight
 * distance from the start plus its segment cannot beat it; the rest is found best first: each a
 * is bounded below by its segment plus the straight distance on to the goal, its row of the
 * distance table is read only when that bound comes first (on hub labels: the goal's candidates
 * are folded into one value a hub, so an a costs one pass over its label), and segments are
 * checked exactly only when their combination comes first. Written to out (cleared first): start,
 * the route's corners, goal; out->cost its exact cost, summed in doubles. Returns NAV_SUCCESS;
 * NAV_FAILURE | NAV_UNREACHABLE when no path exists; NAV_FAILURE | NAV_INVALID_PARAM for an end
 * not in free space (or a query without a grid); NAV_FAILURE | NAV_OUT_OF_MEMORY when out cannot
 * grow. */
NAV_API nav_status nav_waypoints_find_path(nav_waypoints_query *query, nav_vec3 start, nav_vec3 goal,
                                           nav_path *out, nav_waypoints_result *result);

#ifdef __cplusplus
}
#endif
#endif
