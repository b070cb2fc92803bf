/* nav/mesh.h - navigation meshes: convex polygons over the free space, A* over polygons and the
 * funnel algorithm into straight any-angle paths.
 *
 * A mesh is flat arrays: 3D vertices (world space, y up) and convex polygons of up to
 * NAV_MESH_MAX_POLY_VERTS vertices each. Every polygon edge has at most one neighbour polygon (no
 * T-junctions: where an edge borders several polygons it is split, and the collinear vertex keeps the
 * polygon convex). Seen from above with x to the right and z downwards (the grid's rows), polygons
 * run clockwise: the (x, z) cross product of consecutive edges is never negative. Each polygon has
 * an area type (a terrain type, whose cost factor weighs lengths walked in it) and 16 flag bits
 * that a query filter includes or excludes. Crossing an edge may be one-way: a step up higher than
 * the grid's max_climb may be walked down, never up.
 *
 * Built from a grid, the mesh is exact: the union of its polygons is exactly the free cells (eroded
 * by an optional agent radius), cells of different terrain type or height lie in different
 * polygons, and two blocked cells that meet only at a corner (a pinch) keep the polygons on their
 * two sides apart: no edge joins them, so no path passes there.
 *
 * Life: build (or load), then share: the mesh is immutable, and any number of threads query it at
 * once, each through its own nav_mesh_query (search scratch reused across queries, made small and
 * grown with what its searches touch, within the limits it was made with: see
 * nav_mesh_query_create).
 *
 *     nav_mesh *mesh;
 *     nav_mesh_build_from_grid(grid, NULL, &mesh);
 *     nav_mesh_query *q;
 *     nav_mesh_query_create(mesh, NULL, &q);
 *     nav_path path;
 *     nav_path_init(&path, NULL);
 *     nav_mesh_result r;
 *     nav_status s = nav_mesh_find_path(q, NULL, start, goal, &path, &r);  // world points
 *     if (nav_succeeded(s) && !nav_has_detail(s, NAV_PARTIAL_RESULT))
 *         ... path.points[i] (corners), path.nodes[i] (their polygons), r.cost ...
 *     nav_path_destroy(&path);
 *     nav_mesh_query_destroy(q);
 *     nav_mesh_destroy(mesh);
 */
#ifndef NAV_MESH_H
#define NAV_MESH_H

#include "nav/core.h"
#include "nav/grid.h"
#include "nav/io.h"
#include "nav/path.h"
#include "nav/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NAV_MESH_MAX_POLY_VERTS 32         /* most vertices (and edges) of one polygon */
#define NAV_MESH_NO_POLY        UINT32_MAX /* "no polygon": a wall edge, a point off the mesh */
#define NAV_POLY_FLAG_WALK      0x0001u    /* the flags of a polygon built from a grid by default */

typedef struct nav_mesh nav_mesh;

/* An off-mesh link: a way between two points of the mesh at any distance that is not walked over
 * polygons (stairs, a ladder, a jump down, a teleporter). A path may take it from start to end, and
 * from end to start when it is two-way. */
typedef struct nav_mesh_link_desc {
    nav_vec3 start, end; /* world points, located on the mesh as nav_mesh_locate does */
    double cost;         /* of taking it, whatever the area costs (0: the 3D distance between its
                          * two points on the mesh) */
    uint16_t flags;      /* filter flags (0: NAV_POLY_FLAG_WALK) */
    bool bidirectional;  /* two-way */
    uint32_t user_id;    /* the caller's, handed back in paths */
} nav_mesh_link_desc;

/* ---- Building from a grid -------------------------------------------------------------------- */

/* Build options; zero fields take defaults. */
typedef struct nav_mesh_build_desc {
    /* Agent radius in cells (0: none): a cell stays free only when every point within this
     * distance of its centre lies in free cells, so paths keep clear of walls by about the radius. */
    float agent_radius;
    /* [opt] 256 entries: the flags of the polygons of each terrain type; null, or an entry of 0:
     * NAV_POLY_FLAG_WALK. */
    const uint16_t *terrain_flags;
    /* [opt] off-mesh links; each end must lie within link_extents of a polygon (a zero field: one
     * cell horizontally, and any height) */
    const nav_mesh_link_desc *links;
    uint32_t link_count;
    nav_vec3 link_extents;
    const nav_allocator *allocator; /* [opt] for the mesh (the build's scratch uses the system heap) */
    const nav_log *log;             /* [opt] errors */
    const nav_progress *progress;   /* [opt] progress of big builds; returning false cancels */
} nav_mesh_build_desc;

/* Builds the mesh of a grid's free cells: maximal runs of cells of one terrain type and height,
 * joined row after row into rectangles, their edges split where neighbours change, the rare polygon
 * of more than NAV_MESH_MAX_POLY_VERTS vertices cut along chords. Vertices sit at grid corners in the
 * grid's world transform, at the height of their polygon's cells. Deterministic.
 * Returns NAV_SUCCESS, or NAV_FAILURE with NAV_INVALID_PARAM (null grid, bad radius, a link off the
 * mesh or with a cost that is not finite and >= 0, named in the log), NAV_TOO_LARGE
 * (more polygons or vertices than 32-bit indices hold), NAV_OUT_OF_MEMORY, or NAV_WRONG_STATE when
 * the progress callback cancelled; *out is null on failure. */
NAV_BAKE_API nav_status nav_mesh_build_from_grid(const nav_grid *grid, const nav_mesh_build_desc *desc,
                                                 nav_mesh **out);
NAV_API void nav_mesh_destroy(nav_mesh *mesh);

/* ---- Landmarks ------------------------------------------------------------------------------- */

#define NAV_MESH_MAX_LANDMARKS 32

/* Adds `count` landmarks (at most NAV_MESH_MAX_LANDMARKS; 0 removes them) to a mesh, for a
 * stronger heuristic in both modes: the exact shortest distance from each landmark to every
 * vertex, so a search can bound the rest of a path by the triangle inequality (a differential
 * heuristic, as in Goldberg and Harrelson's ALT). Optimal paths stay exactly the same, funnel-mode
 * paths as short (they may take another corridor of about the same length); searches through
 * rooms and round long walls expand fewer nodes (8room_000, every problem: 1027 instead of 3387 in
 * the optimal mode, 601 instead of 2575 in the funnel mode, with 16). Costs one exhaustive optimal search a
 * landmark (and one more to place the first), and 4 bytes a vertex a landmark. Landmarks are placed far apart
 * in the largest component; searches that may take an off-mesh link do not use them. On a mesh with
 * one-way steps (heights the climb rule allows one way only) the distances are from each landmark, and
 * only the bound they give from below is used.
 * progress [opt]: stage "landmarks"; returning false cancels. Returns NAV_SUCCESS, or NAV_FAILURE
 * with NAV_INVALID_PARAM, NAV_OUT_OF_MEMORY, NAV_OUT_OF_NODES (a search ran out of its pool of
 * 64 nodes an edge) or NAV_WRONG_STATE (cancelled); on failure the mesh has no landmarks. */
NAV_BAKE_API nav_status nav_mesh_bake_landmarks(nav_mesh *mesh, uint32_t count, const nav_progress *progress);
NAV_BAKE_API uint32_t nav_mesh_landmark_count(const nav_mesh *mesh);

/* ---- Reading a mesh -------------------------------------------------------------------------- */

NAV_API uint32_t nav_mesh_poly_count(const nav_mesh *mesh);
NAV_API uint32_t nav_mesh_vert_count(const nav_mesh *mesh);
/* Bytes of the baked mesh (every array, the spatial index included). */
NAV_API size_t nav_mesh_memory_bytes(const nav_mesh *mesh);
/* The fingerprint of the grid the mesh was built from (nav_grid_fingerprint), 0 for none. */
NAV_API uint64_t nav_mesh_source_fingerprint(const nav_mesh *mesh);

/* World position of vertex v (v < nav_mesh_vert_count). */
NAV_API nav_vec3 nav_mesh_vert(const nav_mesh *mesh, uint32_t v);

/* One polygon, as pointers into the mesh (valid while it lives). Edge i runs from verts[i] to
 * verts[(i + 1) % vert_count]; neighbours[i] is the polygon across it or NAV_MESH_NO_POLY. */
typedef struct nav_mesh_poly_info {
    uint32_t vert_count;
    const uint32_t *verts;
    const uint32_t *neighbours;
    uint8_t area;       /* area type: the grid's terrain type */
    uint16_t flags;     /* filter flags */
    uint32_t component; /* polygons joined by edges (either way) share it; 0 for none */
} nav_mesh_poly_info;

/* Fills *info for polygon poly. Returns false (info untouched) when poly is out of range. */
NAV_API bool nav_mesh_poly(const nav_mesh *mesh, uint32_t poly, nav_mesh_poly_info *info);
/* True when edge `edge` of poly has a neighbour that may be entered from poly (false for walls
 * and for the high side of a step higher than max_climb, entered from below). */
NAV_API bool nav_mesh_edge_passable(const nav_mesh *mesh, uint32_t poly, uint32_t edge);
/* The cost factor of an area type (its terrain's; NAV_COST_BLOCKED for a type no polygon uses). */
NAV_API double nav_mesh_area_cost(const nav_mesh *mesh, uint8_t area);

/* Off-mesh links, in the order given at build time, their ends as located on the mesh. */
typedef struct nav_mesh_link_info {
    nav_vec3 start, end;
    uint32_t start_poly, end_poly;
    double cost;
    uint16_t flags;
    bool bidirectional;
    uint32_t user_id;
} nav_mesh_link_info;

NAV_API uint32_t nav_mesh_link_count(const nav_mesh *mesh);
/* Fills *info for link `link`. Returns false (info untouched) when it is out of range. */
NAV_API bool nav_mesh_link(const nav_mesh *mesh, uint32_t link, nav_mesh_link_info *info);

/* ---- The MESH chunk of a .nav file ----------------------------------------------------------- */

#define NAV_CHUNK_MESH         NAV_TAG('M', 'E', 'S', 'H')
#define NAV_MESH_CHUNK_VERSION 3 /* 2: landmarks; 3: heights (a mesh built from level geometry) */

/* Appends the mesh's MESH chunk data to out: vertices, polygons, edges with their neighbours and
 * one-way flags, areas, flags, area costs, links, landmarks and the source grid's fingerprint; what can be
 * derived (twin edges, components, corners, the spatial index) is not stored. Returns the writer's
 * status. */
NAV_API nav_status nav_mesh_write_chunk(const nav_mesh *mesh, nav_writer *out);

/* Makes a mesh from MESH chunk data (version NAV_MESH_CHUNK_VERSION), checking everything a query
 * relies on: every count and index, finite coordinates, each polygon convex, wound clockwise (as
 * seen from above, z down) and not degenerate, adjacency symmetric (each neighbour holds the same
 * edge reversed), flags and area costs valid, links inside their polygons, landmark distances
 * consistent with the edges' lengths. A chunk that passes
 * cannot make a query read out of bounds. [in] allocator, log [opt]. [out] out: null on failure.
 * Returns NAV_SUCCESS, or NAV_FAILURE with NAV_CORRUPT_DATA (named in the log), NAV_TOO_LARGE,
 * NAV_INVALID_PARAM or NAV_OUT_OF_MEMORY. */
NAV_API nav_status nav_mesh_read_chunk(const void *data, size_t size, const nav_allocator *allocator,
                                       const nav_log *log, nav_mesh **out);

/* Saves a mesh as a .nav file (atomically, see nav_container_write_file): a MESH chunk, after a
 * GRID chunk when grid [opt] is given. Returns NAV_SUCCESS, NAV_FAILURE | NAV_SOURCE_MISMATCH when
 * the mesh was not built from this grid as it is now (nothing is written), or the failure of
 * writing. */
NAV_API nav_status nav_mesh_save_nav(const nav_grid *grid, const nav_mesh *mesh, const char *path);

/* Loads the MESH chunk of a .nav file, and its GRID chunk when grid [opt] is given (the file must
 * then hold one, and the mesh must have been built from it: NAV_SOURCE_MISMATCH otherwise). A level
 * kept in tiles (nav/geometry.h) holds its stitched mesh too, which this reads; a file of libnav 0.1
 * with a TILS chunk and no MESH chunk gives NAV_WRONG_VERSION (the log says how to write it anew).
 * [in] allocator, log [opt] (messages as "PATH: message"). [out] mesh, grid: null on failure.
 * Returns as nav_container_read_file and nav_mesh_read_chunk; a file without a MESH chunk, or with
 * two, gives NAV_CORRUPT_DATA, one of another version NAV_WRONG_VERSION. */
NAV_API nav_status nav_mesh_load_nav(const char *path, const nav_allocator *allocator, const nav_log *log,
                                     nav_mesh **mesh, nav_grid **grid);

/* ---- Locating points ------------------------------------------------------------------------- */

/* Where a world point lies on the mesh. A point over a polygon (its (x, z) inside the polygon's
 * closed area) is as far from that polygon as it lies above or below the polygon's floor there, less
 * a height tolerance (never below 0); from any other polygon, as far as from the polygon's point
 * nearest in (x, z), on its floor there, in 3D (the rule of Detour's findNearestPoly). The nearest
 * polygon within a box round the point is the point's polygon; a point with none in its box is off
 * the mesh.
 *
 * The box and the tolerance depend on where the mesh came from. A level's mesh (built from level
 * geometry, nav/geometry.h: nav_mesh_source_fingerprint 0) may have floors above floors: its box
 * reaches NAV_MESH_LEVEL_HALF_EXTENT_XZ across and NAV_MESH_LEVEL_HALF_EXTENT_Y up and down (2 x 4
 * x 2 m each way, the box of Detour's samples), and its height tolerance is
 * NAV_MESH_LEVEL_HEIGHT_TOLERANCE (RecastDemo's agent climb: an agent's feet, or a point a step
 * above them, stand on the floor under them). So a point inside a pillar of an upper floor goes to
 * that floor round the pillar, not to the floor under it, while that floor is nearer in 3D; a point
 * with no floor within 2 m across and 4 m up or down is off the mesh. A grid's mesh has one floor
 * over each ground point: its box reaches one cell across and any height up and down, and any
 * height is within its tolerance (the polygon under a point is its polygon, whatever the point's
 * height). A point may still move to another floor within its box (the polygon nearest in 3D lies
 * there): nearest, and nav_mesh_result's start_point and goal_point, say where it went. */
#define NAV_MESH_LEVEL_HALF_EXTENT_XZ   2.0f /* metres, each way along x and along z */
#define NAV_MESH_LEVEL_HALF_EXTENT_Y    4.0f /* metres, up and down */
#define NAV_MESH_LEVEL_HEIGHT_TOLERANCE 0.9f /* metres above or below a floor that count as on it */

/* The box a zero field of nav_mesh_locate's half_extents takes on this mesh (and of
 * nav_mesh_path_desc's): on a level's mesh NAV_MESH_LEVEL_HALF_EXTENT_XZ, _Y, _XZ; on a grid's,
 * its cell size across and INFINITY (any height) up and down. Zero for a null mesh. */
NAV_API nav_vec3 nav_mesh_default_half_extents(const nav_mesh *mesh);

/* The polygon point lies on, as above: the nearest within half_extents (x, y, z: how far to look
 * each way; a zero field: nav_mesh_default_half_extents's), ties to the one whose floor is nearest
 * in height, then to the lower index. [out] poly: the polygon (NAV_MESH_NO_POLY on failure);
 * [out] nearest [opt]: its point nearest to point, on its floor (point's x and z when point lies
 * over it). Returns NAV_SUCCESS, or NAV_FAILURE | NAV_UNREACHABLE when no polygon is within reach
 * (the point is off the mesh), NAV_FAILURE | NAV_INVALID_PARAM for null or non-finite arguments. */
NAV_API nav_status nav_mesh_locate(const nav_mesh *mesh, nav_vec3 point, nav_vec3 half_extents,
                                   uint32_t *poly, nav_vec3 *nearest);
/* True when (x, z) lies in polygon poly (its closed area); then *height [opt] is its floor there. */
NAV_API bool nav_mesh_poly_contains(const nav_mesh *mesh, uint32_t poly, nav_vec3 point, float *height);

/* ---- Queries --------------------------------------------------------------------------------- */

typedef struct nav_mesh_query nav_mesh_query;

typedef struct nav_mesh_query_desc {
    /* Search nodes the optimal mode may make in one search (0: the mesh's edges plus 4096; on the
     * Moving AI maps no query made more than 1.2 times the edges, brc501d, and most maps' longest
     * under 0.3 times); running out ends the search with a partial path and NAV_OUT_OF_NODES. */
    uint32_t max_nodes;
    /* The most bytes the query object may grow to, as nav_mesh_query_memory_bytes counts them (0: no
     * limit but max_nodes). A search that would grow it past this ends as when max_nodes runs out:
     * NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_OUT_OF_NODES and the path to the closest place reached.
     * That path's own corridor and points (about 60 bytes a polygon it crosses) are made room for
     * even past the limit, and what creation makes (about 4.5 KB) whatever it says. A filter that
     * overrides the mesh's area costs takes 2 KB for them the first time (a search, raycast or move
     * with one fails with NAV_FAILURE | NAV_OUT_OF_NODES when they would pass the limit). */
    size_t max_bytes;
    const nav_allocator *allocator; /* [opt] */
} nav_mesh_query_desc;

/* Creates a query object for one thread.
 *
 * Memory: it is made small (about 4.5 KB whatever the mesh, plus 21 bytes for each direction of
 * each off-mesh link) and grows with what its searches touch, not with its mesh (and by 2 KB the
 * first time a filter overrides the mesh's area costs): in the optimal
 * mode the nodes on the open list (136 bytes each with their entry; an expanded node's slot is
 * taken again) and a 16-byte step for each expanded node that an open one leads back through (the
 * others are taken back when the steps run short); in the funnel mode the nodes a search makes (92
 * bytes each, two at most an edge it reaches); what a search knows of the vertices and edges it
 * meets (in tables by id, emptied for the next search in O(1)); the corridor and points of a path.
 * A part grows by half (the nodes and steps) or doubles (the rest) when full, and what it grew to
 * is kept for the next searches: a query object allocates only when a search touches more than
 * every one before it did, a few times in its life. Growth is allowed up to max_nodes (the nodes
 * an optimal search makes) and max_bytes (everything); a search that would need more ends with a
 * partial path and NAV_OUT_OF_NODES. One whose allocation fails ends with NAV_FAILURE |
 * NAV_OUT_OF_MEMORY, and the query object is left as it was and usable. A program that must not
 * allocate while it runs can run its longest searches once at load time, or set max_bytes to what
 * it can spare. After every scenario of a Moving AI map a query object holds (bench/README.md,
 * "Query objects"; bench/query_memory.sh): in the optimal mode 0.04 to 1.33 times its mesh's bytes
 * (median 0.30), in the funnel mode 0.04 to 1.02 times (median 0.30); above 1 only on the three
 * smallest meshes (7 to 38 KB), where the object's first 4.5 KB count. Before issue 43 it held 13
 * to 92 times its mesh, from creation.
 *
 * Returns NAV_SUCCESS or NAV_FAILURE with NAV_INVALID_PARAM, NAV_TOO_LARGE (a mesh of more than
 * about a billion edges or half a billion off-mesh links, or max_nodes above 2^30) or
 * NAV_OUT_OF_MEMORY. */
NAV_API nav_status nav_mesh_query_create(const nav_mesh *mesh, const nav_mesh_query_desc *desc,
                                         nav_mesh_query **out);
NAV_API void nav_mesh_query_destroy(nav_mesh_query *query);
/* Bytes the query object holds now: itself and what its searches have grown it to. */
NAV_API size_t nav_mesh_query_memory_bytes(const nav_mesh_query *query);

/* Which polygons a query may use, and what their areas cost. */
typedef struct nav_mesh_filter {
    uint16_t include_flags; /* a polygon needs one of these flags; 0: any polygon */
    uint16_t exclude_flags; /* and none of these */
    /* [opt] 256 cost factors replacing the mesh's area costs: NAV_COST_MIN..NAV_COST_MAX, or
     * NAV_COST_BLOCKED to leave an area out (water for an agent that cannot swim). */
    const double *area_cost;
} nav_mesh_filter;

typedef enum nav_mesh_path_mode {
    NAV_MESH_PATH_DEFAULT = 0, /* NAV_MESH_PATH_OPTIMAL */
    NAV_MESH_PATH_OPTIMAL = 1, /* the exact shortest path (Polyanya) where every area costs the same */
    NAV_MESH_PATH_FUNNEL = 2   /* A* over portals, then the funnel (string pulling) */
} nav_mesh_path_mode;

typedef struct nav_mesh_path_desc {
    nav_mesh_path_mode mode;
    const nav_mesh_filter *filter; /* [opt] null: every polygon, the mesh's costs */
    uint32_t max_expanded;         /* node budget (0: none); running out gives a partial path */
    nav_vec3 half_extents;         /* how far to look for the polygons of start and goal (nav_mesh_locate; a
                                    * zero field: nav_mesh_default_half_extents's) */
    /* [opt] Ends already located: start lies in start_poly and goal in goal_poly (as nav_mesh_locate
     * gave them, or a corridor kept by the caller), and are not looked for again; the path starts
     * and ends on those polygons' floors under start and goal. An end outside its polygon (x, z),
     * or a polygon the mesh has not, is NAV_FAILURE | NAV_INVALID_PARAM. half_extents is then not
     * used. */
    bool ends_located;
    uint32_t start_poly, goal_poly;
} nav_mesh_path_desc;

typedef struct nav_mesh_result {
    double cost;        /* the straight path's cost: its length in each polygon times its area cost */
    uint32_t expanded;  /* search nodes expanded */
    uint32_t generated; /* search nodes made (the optimal mode's node pool in use at the end) */
    /* The polygons of start and goal as located (NAV_MESH_NO_POLY for an end off the mesh), and the
     * points on the mesh the path starts and ends at (nav_mesh_locate's nearest: on the floor; moved
     * across, or by more than the height tolerance, when the end was not on the mesh as given: a
     * caller compares them with the points it gave). An end off the mesh keeps the point given. */
    uint32_t start_poly, goal_poly;
    nav_vec3 start_point, goal_point;
    nav_mesh_path_mode mode; /* the mode that ran (the optimal mode runs the funnel where costs differ) */
} nav_mesh_result;

/* Flags of each point of a straight path (nav_mesh_query_point_flags). */
#define NAV_MESH_POINT_START      0x01u
#define NAV_MESH_POINT_CORNER     0x02u /* a bend at a polygon vertex */
#define NAV_MESH_POINT_END        0x04u
#define NAV_MESH_POINT_LINK_START 0x08u /* the way onto an off-mesh link: the next point is its end */
#define NAV_MESH_POINT_LINK_END   0x10u /* where an off-mesh link comes out */

/* Finds a path from start to goal (world points, located as nav_mesh_locate does) and writes its
 * straight path to out: the start, every corner, the goal (points at floor height), with each
 * point's polygon in out->nodes and out->cost the cost.
 *
 * Optimal mode (the default): the Euclidean shortest path, exactly, by Polyanya (Cui, Harabor and
 * Grastien, "Compromise-free Pathfinding on a Navigation Mesh", IJCAI 2017): an A* whose nodes are
 * a root (the start or a corner where the path bends) and an interval of a polygon edge that the
 * root sees; a node's successors are the parts of the next polygon's edges seen through the
 * interval, and, past the interval's ends where they are corners of the mesh's boundary, the parts
 * seen by turning there. No preprocessing is needed; landmarks (nav_mesh_bake_landmarks) make the
 * heuristic stronger, with the same paths. Its cost is the length times the one area cost of the
 * polygons the filter allows. Where the allowed areas cost differently, the exact weighted optimum
 * bends where areas meet, not only at corners, and this mode instead runs the funnel mode (result
 * ->mode says which ran); its cost is then that of the path returned, at least the optimum, with
 * no bound above.
 *
 * Funnel mode (Mononen's "simple stupid funnel" through the portals of the corridor): an A* over
 * portal crossings whose points follow the line to the goal (the point of each portal that makes
 * the way on to the goal shortest, not the portal's midpoint) and whose g is the exact length
 * through the node's corridor (each node keeps the funnel of its portals; an edge keeps two when
 * neither is shorter at both its ends), then string pulling of the corridor found. The straight
 * path is the shortest within its corridor; the corridor need not be the best (on the Moving AI
 * maps: within 0.21% of the optimum on average, and never above the 8-connected optimum). Where
 * areas cost differently, g runs straight from crossing to crossing.
 *
 * Returns NAV_SUCCESS; with NAV_PARTIAL_RESULT when the goal was not reached (NAV_OUT_OF_NODES: the
 * budget, max_nodes or the query object's max_bytes ran out), the path then leading to the point
 * nearest the goal of the closest place reached; NAV_FAILURE | NAV_BLOCKED_ENDPOINT when start or
 * goal is off the mesh (no polygon within desc's half_extents, as for nav_mesh_locate): result's
 * start_poly or goal_poly is then NAV_MESH_NO_POLY for the end that is off it, and the other end's
 * polygon and point are filled in when it was found (both NAV_MESH_NO_POLY: neither end is on the
 * mesh); NAV_FAILURE | NAV_UNREACHABLE when both ends are on the mesh but in different components
 * (O(1)), an end's polygon is one the filter leaves out, or no path exists; NAV_FAILURE |
 * NAV_INVALID_PARAM for bad arguments (null, non-finite points); NAV_FAILURE | NAV_OUT_OF_MEMORY
 * when out or the query object cannot grow (the query object stays usable: nav_mesh_query_create). */
NAV_API nav_status nav_mesh_find_path(nav_mesh_query *query, const nav_mesh_path_desc *desc, nav_vec3 start,
                                      nav_vec3 goal, nav_path *out, nav_mesh_result *result);

/* The same search in slices, for games that spread it over frames (time-slicing):
 *
 *     nav_status s = nav_mesh_find_path_begin(q, &desc, start, goal);
 *     while (s == NAV_IN_PROGRESS) s = nav_mesh_find_path_step(q, 100, NULL);  // one frame each
 *     s = nav_mesh_find_path_finish(q, &path, &result);
 *
 * begin locates start and goal and sets the search up: NAV_IN_PROGRESS, or the failure
 * nav_mesh_find_path would return (finish then returns it too). step expands up to max_expansions
 * nodes ([out] done [opt]: how many): NAV_IN_PROGRESS while there is more to do, NAV_SUCCESS once
 * the search has ended (found, exhausted or out of budget), NAV_FAILURE | NAV_WRONG_STATE with no
 * search begun. finish writes the path and returns exactly what nav_mesh_find_path would have for
 * the same arguments; called before the search has ended, it returns the partial path to the
 * closest place reached so far with NAV_PARTIAL_RESULT | NAV_OUT_OF_NODES. The mesh and the query
 * must not change in between; the filter is copied at begin. One search at a time per query. */
NAV_API nav_status nav_mesh_find_path_begin(nav_mesh_query *query, const nav_mesh_path_desc *desc,
                                            nav_vec3 start, nav_vec3 goal);
NAV_API nav_status nav_mesh_find_path_step(nav_mesh_query *query, uint32_t max_expansions, uint32_t *done);
NAV_API nav_status nav_mesh_find_path_finish(nav_mesh_query *query, nav_path *out, nav_mesh_result *result);

/* The flags of each point of the last straight path (as many as its points), valid until the
 * query's next call. */
NAV_API const uint8_t *nav_mesh_query_point_flags(const nav_mesh_query *query);
/* For each point of the last straight path, the off-mesh link it takes (a point flagged
 * NAV_MESH_POINT_LINK_START: the index for nav_mesh_link) or NAV_MESH_NO_POLY. Valid until the
 * query's next call. */
NAV_API const uint32_t *nav_mesh_query_point_links(const nav_mesh_query *query);
/* The polygon corridor of the last path, start polygon first; *count its length. Valid until the
 * query's next call. */
NAV_API const uint32_t *nav_mesh_query_corridor(const nav_mesh_query *query, uint32_t *count);

/* ---- Walking straight ------------------------------------------------------------------------ */

/* What a raycast found. */
typedef struct nav_mesh_raycast_hit {
    double t;         /* the part of start -> end walked: 1 when it reaches end */
    nav_vec3 point;   /* where it stops (end when t is 1), on the floor */
    uint32_t poly;    /* the polygon it stops in (end's when t is 1) */
    uint32_t edge;    /* the edge of that polygon that stops it (nav_mesh_poly's edge index), or
                       * NAV_MESH_NO_POLY when t is 1, or when it came under or over end on
                       * another floor (then t < 1: where it came onto that polygon) */
    nav_vec3 normal;  /* the stopping edge's unit normal in (x, z), pointing back into the polygon */
    uint32_t visited; /* polygons crossed, start and last included */
} nav_mesh_raycast_hit;

/* Walks the straight segment from start (inside polygon start_poly, as nav_mesh_locate gives)
 * towards end, seen from above, polygon to polygon through portals the filter [opt] allows (not
 * up a one-way step), and stops at the first edge that is not one. The segment may run along an
 * edge and pass a vertex between polygons, never a pinch. It reaches end only on end's own floor:
 * on a level's mesh (floors above floors) the polygon it comes to under or over end must be the one
 * nav_mesh_locate puts end on with the mesh's default box, or one as near to end (a neighbour, end
 * on their common edge); a walk that comes under or over end on another floor (a bridge over it, the
 * storey below) stops where it came onto that floor's polygon, with t below 1 and no edge (a
 * level's end more than NAV_MESH_LEVEL_HALF_EXTENT_Y above or below the walk's floor is never
 * reached). On a mesh built
 * from a grid (one floor over each point), end's height plays no part, and the ray reaches end
 * exactly when nav_grid_anyangle_segment says the segment is walkable (cell heights aside).
 * [out] hit; polys [opt]: the polygons crossed, up to max_polys (more: NAV_BUFFER_TOO_SMALL).
 * Returns NAV_SUCCESS, or NAV_FAILURE with NAV_INVALID_PARAM (start not in start_poly, a polygon the
 * filter leaves out, an invalid area cost in it, non-finite points), or with NAV_OUT_OF_NODES or
 * NAV_OUT_OF_MEMORY when the query object has no room for a filter's area costs
 * (nav_mesh_query_create). */
NAV_API nav_status nav_mesh_raycast(nav_mesh_query *query, const nav_mesh_filter *filter, uint32_t start_poly,
                                    nav_vec3 start, nav_vec3 end, nav_mesh_raycast_hit *hit, uint32_t *polys,
                                    uint32_t max_polys);

/* Moves an agent from start (inside start_poly) towards target, staying on the mesh: target when
 * the polygons within reach (those whose portals come within the circle with start and target on
 * its diameter, walked from start through portals the filter allows) hold it, else their point
 * nearest to it: the agent slides along walls. What a character controller calls every frame.
 * [out] result, result_poly. Returns NAV_SUCCESS (with NAV_PARTIAL_RESULT | NAV_OUT_OF_NODES when
 * the query object could not grow within its max_bytes to hold every polygon within reach: the
 * nearest point of those walked), or NAV_FAILURE with NAV_INVALID_PARAM or NAV_OUT_OF_MEMORY (the
 * query object could not grow). */
NAV_API nav_status nav_mesh_move_along_surface(nav_mesh_query *query, const nav_mesh_filter *filter,
                                               uint32_t start_poly, nav_vec3 start, nav_vec3 target,
                                               nav_vec3 *result, uint32_t *result_poly);

/* The first corners of the shortest way from start (inside corridor[0]) through the polygons
 * corridor[0 .. count) to end (in corridor[count - 1]), each polygon entered from the one before
 * through an edge they share: what an agent steers for along its path corridor, from wherever it
 * stands in it (Detour's findCorners). The funnel of nav_mesh_find_path's funnel mode, walked only
 * as far as the corners asked for (a corridor read no further than the last of them); two polygons
 * in a row that meet at a vertex alone are crossed at that point. [out]
 * corners: up to capacity in walking order, not the start; *corner_count of them; *reached: the
 * last is end. Returns NAV_SUCCESS, or NAV_FAILURE | NAV_INVALID_PARAM (a null argument, count or
 * capacity 0, non-finite points, start not in corridor[0], no such polygon, or two polygons in a
 * row met before the last corner that share neither an edge a walk may cross from the first nor a
 * vertex). */
NAV_API nav_status nav_mesh_corridor_corners(const nav_mesh *mesh, const uint32_t *corridor, uint32_t count,
                                             nav_vec3 start, nav_vec3 end, nav_vec3 *corners,
                                             uint32_t capacity, uint32_t *corner_count, bool *reached);

/* A corridor's portal as nav_mesh_corridor_corners crosses it: where the way passes from one polygon
 * into the next, its ends as a walker crossing it sees them (left, right), with the floor's height
 * at each; the last portal of a corridor is its end point (both ends there). */
typedef struct nav_mesh_portal {
    float left_x, left_z, right_x, right_z;
    float left_y, right_y;
} nav_mesh_portal;

/* The portals of the polygons corridor[0 .. count) to end, into portals[0 .. count) (the last: end),
 * worked out once for a corridor walked again and again (an agent's, each tick:
 * nav_mesh_portal_corners). Returns NAV_SUCCESS, or NAV_FAILURE | NAV_INVALID_PARAM (a null
 * argument, count 0, a non-finite end, no such polygon, or two polygons in a row that share neither
 * an edge a walk may cross from the first nor a vertex). */
NAV_API nav_status nav_mesh_corridor_portals(const nav_mesh *mesh, const uint32_t *corridor, uint32_t count,
                                             nav_vec3 end, nav_mesh_portal *portals);

/* nav_mesh_corridor_corners over a corridor's portals (nav_mesh_corridor_portals): the same corners
 * from start, which must lie inside the corridor's first polygon (not checked here: the portals
 * know no mesh). Returns NAV_SUCCESS, or NAV_FAILURE | NAV_INVALID_PARAM (a null argument, count or
 * capacity 0, a non-finite start). */
NAV_API nav_status nav_mesh_portal_corners(const nav_mesh_portal *portals, uint32_t count, nav_vec3 start,
                                           nav_vec3 *corners, uint32_t capacity, uint32_t *corner_count,
                                           bool *reached);

/* The walls (nav/vec3.h's nav_wall) within range of point (inside poly), seen from above, on the
 * surface reached from it:
 * the edges a walk may not cross (no polygon beyond, a polygon the filter leaves out, a one-way edge
 * the wrong way) of the polygons walked from poly through portals that come within range of point.
 * Walls in one line that meet end to end are joined. Into out (capacity), the nearest first (ties:
 * the first found); *count: how many were written. What an agent's avoidance keeps clear of (Detour's
 * local boundary). Returns NAV_SUCCESS (with NAV_BUFFER_TOO_SMALL when there were more: out holds the
 * nearest; with NAV_PARTIAL_RESULT | NAV_OUT_OF_NODES when the query object could not grow within
 * its max_bytes to walk every polygon within range), or NAV_FAILURE with NAV_INVALID_PARAM (point not in
 * poly, range not finite or negative, a null out with capacity) or NAV_OUT_OF_MEMORY (the query object could
 * not grow). */
NAV_API nav_status nav_mesh_find_walls(nav_mesh_query *query, const nav_mesh_filter *filter, uint32_t poly,
                                       nav_vec3 point, float range, nav_wall *out, uint32_t capacity,
                                       uint32_t *count);

#ifdef __cplusplus
}
#endif
#endif
