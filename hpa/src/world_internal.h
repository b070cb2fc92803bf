/* Private: the baked world (hpa/bake/world_bake.c builds it, world.c indexes it, world_query.c reads it) and
 * the interface every region kind answers (nav__world_region_ops): each kind in a file of its own
 * (world_grid.c, world_grid_hpa.c, world_mesh.c, world_waypoints.c), listed in nav__world_kinds
 * (world.c, NAV__WORLD_KINDS here). Above the kinds, the world's code names no planner: a new kind
 * over the planners' objects the region holds (grid, HPA* bake, mesh, waypoint graph) is its file
 * and its line in that list; a kind over a planner of a new type also gives the region and
 * nav__world_owned a pointer to it (and the bake a builder function, the world file a key).
 *
 * Chokepoints are the two ends of every link: chokepoint 2k is link k's `from` end, 2k + 1 its `to`
 * end. Each region lists its chokepoints in ascending order (a chokepoint's slot: its place in that
 * list) and keeps a sparse table of costs between them: a row a chokepoint, each entry a target slot
 * and a cost, the targets ascending. Only the entries the search over chokepoints needs are kept:
 * none where the region joins no way, none from a chokepoint to itself, and on a flat grid of more
 * than NAV__WORLD_PRUNE_ABOVE places (cells of chokepoints: a pruned table) none from a to b where a
 * cheapest way from a to b passes the cell of another chokepoint c (a to c, then c to b, costs as
 * much: hpa/bake/world_tables.c). On flat grids chokepoints that share a cell are joined as a star:
 * the first of them (by slot) holds the cell's entries to other cells' first chokepoints, each other
 * one has an entry of cost 0 to it and from it. */
#ifndef NAV_WORLD_INTERNAL_H
#define NAV_WORLD_INTERNAL_H

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>

#include "log.h"
#include "nav/io.h"
#include "nav/mesh.h"
#include "nav/region.h"
#include "nav/waypoints.h"
#include "nav/world.h"

typedef struct nav__world_region nav__world_region;

/* Which end of a query a fan is for. A query's fans keep each target's path (nav__world_memo) for
 * the legs that follow them: a leg from the start to a chokepoint its fan reached, or from one to the
 * goal, is then not searched again. The bake's fans keep nothing (NAV__WORLD_END_NONE). */
typedef enum nav__world_end { NAV__WORLD_END_NONE, NAV__WORLD_END_START, NAV__WORLD_END_GOAL } nav__world_end;

/* What a fan kept: target k's path is paths' points first[k] .. first[k + 1] (none where it has no
 * way), its cost cost[k]. Valid for the fan of region `region` until the next plan. */
typedef struct nav__world_memo {
    nav_path paths;
    uint32_t *first; /* a region's chokepoints + 2 */
    double *cost;    /* a region's chokepoints + 1 */
    uint32_t region, count;
    bool valid;
} nav__world_memo;

/* The region kinds (nav__world_kinds in world.c): grid, grid through HPA*, navmesh, waypoints. */
#define NAV__WORLD_KINDS 4

/* The scratch a query (or a bake thread) keeps for the regions' planners: each kind's own (made by
 * its scratch_create: a grid search for the largest grid, a query object a mesh, ...), the path of
 * the kinds whose searches write whole paths, and what the ends' fans kept. */
typedef struct nav__world_scratch {
    void *kind[NAV__WORLD_KINDS]; /* by the kind's index; null: the world has no region of it */
    nav_path path;
    nav__world_memo memo[2]; /* the start's fan and the goal's (NAV__WORLD_END_START - 1, _GOAL - 1) */
    uint64_t searches;       /* the planners' searches run through it (nav_world_result.searches) */
    void *work;              /* room any kind may use within one call (nav__world_scratch_work) */
    size_t work_size;
    nav_allocator allocator;
    const nav_mesh_filter *mesh_filter; /* [opt] a query's (nav_world_query_set_mesh_filter) */
    const nav_grid_filter *grid_filter; /* [opt] a query's (nav_world_query_set_grid_filter) */
    uint32_t filters_set;               /* counts the calls that set a filter (what was worked out
                                           from one is worked out again) */
} nav__world_scratch;

/* A leg as the plan found it in one region, for the region's planner to lay: the places it passes
 * in walking order, each with its chokepoint (NAV_WORLD_NONE for the query's start and goal; a
 * place is never located again), and how it went from each to the next (table[h]: by an entry of
 * the region's table, from places[h] to places[h + 1]). start_target: places[0] is the start and
 * its fan (NAV__WORLD_END_START) reached places[1] as its target start_target; goal_target:
 * places[count - 1] is the goal and its fan reached places[count - 2] as that target; else
 * UINT32_MAX. A kind lays the leg as the plan counted it (HPA*, whose costs need not obey the
 * triangle inequality: hop by hop), taking what a fan kept rather than searching again. */
typedef struct nav__world_leg_ask {
    const nav_world_place *places;
    const uint32_t *chokes;
    const bool *table;
    uint32_t count; /* >= 2 */
    uint32_t start_target, goal_target;
} nav__world_leg_ask;

/* The world query's search (world_search.h), for kinds whose places it walks. */
typedef struct nav__world_search nav__world_search;

/* A region kind whose places the world's search walks itself, when an end lies on it, rather than
 * fanning the end (flat grids: their cells; the estimate then steers the end's search too). */
typedef struct nav__world_places {
    /* Offers every move out of place id, reached at cost g, as vertex block + id to the place's
     * neighbours (vertex block + their ids; NAV__WORLD_BY_END), with their estimates. */
    void (*expand)(nav__world_search *s, const nav__world_region *r, uint32_t block, uint32_t id, double g);
    /* The estimate at place id (a chokepoint placed on it: the same). */
    double (*estimate)(const nav__world_search *s, const nav__world_region *r, uint32_t id);
    /* The point of place id on a leg's path. */
    nav_vec3 (*position)(const nav__world_region *r, uint32_t id);
} nav__world_places;

/* A point-to-point search of a region kind: leaves the path from a to b in s->path, its cost in
 * *cost (INFINITY, with NAV_PARTIAL_RESULT, when there is none). */
typedef nav_status (*nav__world_pair_search)(nav__world_scratch *s, const nav__world_region *r,
                                             const nav_world_place *a, const nav_world_place *b,
                                             double *cost);

/* What the objects a world owns are (a loader's grids, meshes and waypoint graphs, and HPA* bakes). */
typedef struct nav__world_owned {
    nav_grid *grid;
    nav_mesh *mesh;
    nav_waypoints *waypoints;
    nav_hpa *hpa; /* a grid's HPA* bake */
} nav__world_owned;

/* A region kind: all the world knows of a kind of region is here (hpa/src/world_<kind>.c), and the
 * world's code above it names no planner (DESIGN.md: locate, fan, leg). A place is an id in the
 * region (a grid's cell, a mesh's polygon, a waypoint) and a world position; costs are in world
 * units. A new kind is a file of its own and a line in nav__world_kinds (world.c). */
typedef struct nav__world_region_ops {
    const char *name;                  /* for messages */
    uint32_t index;                    /* its place in nav__world_kinds */
    nav_world_region_kind public_kind; /* what nav_world_region_kind_of says */
    uint32_t flags;                    /* its bits in a world file's region record (2: through HPA*) */
    bool snaps;                        /* its regions have a snap distance (waypoints) */

    /* ---- its data ---- */
    /* Its extent in x and z (min x, min z, max x, max z; nav__world_region_facts adds locate's
     * margin), whether its table is symmetric (each way walked back costs the same), and its places
     * the search walks (0: none). */
    void (*facts)(const nav__world_region *r, double box[4], bool *symmetric, uint64_t *cells);
    /* The least cost of a unit of travel in it, by straight-line (metric 0) or octile (1) distance
     * (the search's estimate: world.c's cost_floor); INFINITY where nothing in it bounds it. */
    double (*cost_floor)(const nav__world_region *r, int metric);
    /* Appends its data to a world file's WREG chunk; reads it back into o (labels: a grid's
     * reachability labels too) with a's memory; its bytes in memory. */
    nav_status (*write)(const nav__world_region *r, nav_writer *out);
    nav_status (*read)(nav__world_owned *o, const void *data, size_t size, bool labels,
                       const nav_allocator *a, const nav_log *log);
    size_t (*bytes)(const nav__world_owned *o);
    /* Whether id is a walkable place of it (a chokepoint read from a file). */
    bool (*place_ok)(const nav__world_region *r, uint32_t id);
    /* [opt] kinds whose table keeps ways (flat grids): whether way `runs` (count bytes) leads from
     * place `from` to place `to` inside the region. */
    bool (*way_ok)(const nav__world_region *r, uint32_t from, uint32_t to, const uint8_t *runs,
                   uint64_t count);

    /* ---- its scratch, one a query object or bake thread ---- */
    /* [opt] Makes it for world w (a: what is made here; grow [opt]: what grows while its planners
     * run, see nav__world_scratch_init); *out null when w has none of its regions. */
    nav_status (*scratch_create)(const nav_world *w, const nav_allocator *a, const nav_allocator *grow,
                                 void **out);
    void (*scratch_destroy)(void *scratch, const nav_world *w);
    size_t (*scratch_bytes)(const void *scratch, const nav_world *w);

    /* ---- planning ---- */
    /* The walkable place under (point.x, point.z) (for waypoints: within the region's snap
     * distance), with its world position; false if none. */
    bool (*locate)(const nav__world_region *r, nav_vec3 point, nav_world_place *out);
    /* costs[k]: from `from` to targets[k] (reverse: from targets[k] to `from`), INFINITY where
     * there is no way inside the region; keep: the end whose memo keeps the targets' paths (NONE:
     * nothing kept). NAV_FAILURE | NAV_OUT_OF_MEMORY or NAV_INVALID_PARAM. */
    nav_status (*fan)(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *from,
                      bool reverse, nav__world_end keep, const nav_world_place *targets, uint32_t count,
                      double *costs);
    /* Appends the points of the leg `ask` (both ends) to path and its cost to *cost.
     * NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE when there is none. */
    nav_status (*leg)(nav__world_scratch *s, const nav_world *w, const nav__world_region *r,
                      const nav__world_leg_ask *ask, nav_path *path, double *cost);
    const nav__world_places *places; /* [opt] */
    /* [opt] for a kind whose fan and leg are nav__world_fan_by_pairs and nav__world_leg_by_pair */
    nav__world_pair_search pair;
    /* [opt] Whether the scratch's filter bears on the region's ways: -1 where it does not (its table
     * holds); else a ratio in [0, 1] that makes its table's costs lower bounds of the ways' costs
     * under the filter (its fan, leg and pair search go by the filter). in_memory: the region's
     * data may be read (false on a world on demand, whose regions come and go). */
    double (*filter_ratio)(const nav__world_scratch *s, const nav__world_region *r, bool in_memory);

    /* ---- what agents need (nav_world_nearest, nav_world_move, nav_world_leg_corridor) ---- */
    /* The walkable place nearest to point within the box of half_extents around it, with its
     * point there (on the floor); false if none. */
    bool (*nearest)(const nav__world_region *r, nav_vec3 point, nav_vec3 half_extents, nav_world_place *out);
    /* From place `from` towards target on the region's surface: target when the surface within
     * reach (from and target on a circle's diameter) holds it, else its point there nearest to
     * target (from: a place of the region, place_ok's: the caller checked it). NAV_FAILURE with
     * NAV_INVALID_PARAM (from not on its place) or NAV_OUT_OF_MEMORY. */
    nav_status (*move)(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *from,
                       nav_vec3 target, nav_world_place *out);
    /* The places a leg's points (path's points first .. first + count, its region's) pass, in
     * walking order, none twice in a row, into ids (capacity; *n how many: more than capacity,
     * NAV_FAILURE | NAV_BUFFER_TOO_SMALL). */
    nav_status (*corridor)(nav__world_scratch *s, const nav__world_region *r, const nav_path *path,
                           uint32_t first, uint32_t count, uint32_t *ids, uint32_t capacity, uint32_t *n);
    /* Whether the straight way from place `from` to point `to` (seen from above) is walkable in the
     * region (a character sees it); NAV_FAILURE | NAV_OUT_OF_MEMORY in *st when it cannot tell. */
    bool (*sees)(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *from, nav_vec3 to,
                 nav_status *st);
    /* The walls near place `at` (nav_world_walls; at: a place of the region, checked) */
    nav_status (*walls)(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *at,
                        float range, nav_wall *out, uint32_t capacity, uint32_t *count);
} nav__world_region_ops;

/* A leg's corridor that is its points' own places (path->nodes: a grid's cells, waypoints), none
 * twice in a row. */
nav_status nav__world_corridor_of_nodes(nav__world_scratch *s, const nav__world_region *r,
                                        const nav_path *path, uint32_t first, uint32_t count, uint32_t *ids,
                                        uint32_t capacity, uint32_t *n);

struct nav__world_region {
    nav_world_region_kind kind;
    const nav__world_region_ops *ops;
    const nav_grid *grid;           /* NAV_WORLD_REGION_GRID */
    const nav_hpa *hpa;             /* a grid's HPA* bake, when it is searched through it */
    bool by_hpa;                    /* so (known before its data is read, on demand) */
    const nav_mesh *mesh;           /* NAV_WORLD_REGION_MESH */
    const nav_waypoints *waypoints; /* NAV_WORLD_REGION_WAYPOINTS */
    double snap;                    /* waypoints: how far from a waypoint a point still locates to it */
    uint32_t index;                 /* the region's own */
    uint32_t name;                  /* offset into the world's names */
    uint32_t choke_first; /* its chokepoints: region_choke[choke_first .. choke_first + choke_count],
                             its table's rows: edge_first[choke_first .. + choke_count + 1] */
    uint32_t choke_count;
    bool pruned;         /* a flat grid of more than NAV__WORLD_PRUNE_ABOVE places: its table leaves
                            out entries that a way through another chokepoint covers */
    bool chains;         /* pruned, or a flat grid with chokepoints that share a cell (a star): the
                            search follows its table on from a chokepoint it reached through it */
    bool symmetric;      /* a grid whose ways cost the same both ways: its table holds an entry
                          * (i, j) exactly when it holds (j, i), of the same cost; an entry (i, j),
                          * i > j, has no way of its own (it is (j, i)'s, walked back) */
    double box[4];       /* its extent in x and z (min x, min z, max x, max z), with a margin */
    uint64_t cells;      /* a grid's cells (known before it is loaded) */
    uint32_t generation; /* how many times its data was loaded (on demand; under the cache's lock) */
};

/* Whether region r's data is in memory (on demand, it may be on disk). */
static inline bool nav__world_region_loaded(const nav__world_region *r)
{
    return r->grid || r->mesh || r->waypoints;
}

extern const nav__world_region_ops nav__world_grid_ops, nav__world_grid_hpa_ops, nav__world_mesh_ops,
    nav__world_waypoints_ops;
/* The kinds by index (world.c). */
extern const nav__world_region_ops *const nav__world_kinds[NAV__WORLD_KINDS];
/* A grid region's own (world_grid.c), which a grid searched through its HPA* bake shares. */
bool nav__world_grid_locate(const nav__world_region *r, nav_vec3 point, nav_world_place *out);
void nav__world_grid_facts(const nav__world_region *r, double box[4], bool *symmetric, uint64_t *cells);
double nav__world_grid_cost_floor(const nav__world_region *r, int metric);
nav_status nav__world_grid_read(nav__world_owned *o, const void *data, size_t size, bool labels,
                                const nav_allocator *a, const nav_log *log);
size_t nav__world_grid_bytes(const nav__world_owned *o);
bool nav__world_grid_place_ok(const nav__world_region *r, uint32_t id);
bool nav__world_grid_nearest(const nav__world_region *r, nav_vec3 point, nav_vec3 half, nav_world_place *out);
nav_status nav__world_grid_move(nav__world_scratch *s, const nav__world_region *r,
                                const nav_world_place *from, nav_vec3 target, nav_world_place *out);
bool nav__world_grid_sees(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *from,
                          nav_vec3 to, nav_status *st);
nav_status nav__world_grid_walls(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *at,
                                 float range, nav_wall *out, uint32_t capacity, uint32_t *count);
/* Under the scratch's grid filter (a grid through HPA* takes one when it has at most
 * NAV__WORLD_FILTERED_HPA_CELLS cells: its bake holds the grid's costs, so it is then searched cell
 * by cell): whether the filter bears on region r's grid, the ratio of its costs to the grid's
 * (filter_ratio), and a fan over the whole grid under it (one search to every target; nothing kept
 * for the leg). */
#define NAV__WORLD_FILTERED_HPA_CELLS (1u << 20)
bool nav__world_grid_filtered(nav__world_scratch *s, const nav__world_region *r);
double nav__world_grid_filter_ratio(const nav__world_scratch *s, const nav__world_region *r, bool in_memory);
nav_status nav__world_grid_fan(nav__world_scratch *s, const nav__world_region *r, const nav_world_place *from,
                               bool reverse, nav__world_end keep, const nav_world_place *targets,
                               uint32_t count, double *costs);

/* Makes the scratch for every region of w (NAV_FAILURE | NAV_OUT_OF_MEMORY), and frees it. a: for
 * what is made here; path [opt]: for what grows while planners run (the leg path, the grid search
 * with its fan buckets, the HPA* queries): a bake's threads grow them away from the calling thread,
 * so they pass null, the system heap: a caller's allocator is only ever called from the caller's
 * thread. */
nav_status nav__world_scratch_init(nav__world_scratch *s, const nav_world *w, const nav_allocator *a,
                                   const nav_allocator *path);
void nav__world_scratch_free(nav__world_scratch *s, const nav_world *w);
/* The grid search of s pointed at grid region r's grid (made when first needed, on a world whose
 * regions load on demand; null: out of memory): the bake's tables fan over it (world_grid.c). */
nav_region_query *nav__world_grid_search(nav__world_scratch *s, const nav__world_region *r);
/* Kinds that keep a query object a region (HPA*, meshes): how one is made for a region (with
 * allocator a), destroyed (null: nothing), and measured (null: 0). */
typedef struct nav__world_query_maker {
    nav_status (*make)(const nav__world_region *r, const nav_allocator *a, void **out);
    void (*destroy)(void *query);
    size_t (*bytes)(const void *query);
} nav__world_query_maker;
/* Their scratch: each query made now for the kind's regions of w when all are in memory, else when
 * first needed (nav__world_region_query), and made again for a region loaded again (its
 * generation). planner [opt]: the queries' allocator. *out null: w has none of them. */
typedef struct nav__world_region_queries {
    void **query;         /* a region (null: none made, or not of the kind) */
    uint32_t *generation; /* of the region's data each was made for */
    nav_allocator allocator, planner;
    const nav__world_query_maker *maker;
} nav__world_region_queries;
nav_status nav__world_region_queries_create(const nav_world *w, const nav__world_region_ops *kind,
                                            const nav_allocator *a, const nav_allocator *planner,
                                            const nav__world_query_maker *maker, void **out);
/* Region r's query (null: out of memory). */
void *nav__world_region_query(void *table, const nav__world_region *r);
void nav__world_region_queries_destroy(void *table, const nav_world *w);
size_t nav__world_region_queries_bytes(const void *table, const nav_world *w);
size_t nav__world_scratch_bytes(const nav__world_scratch *s, const nav_world *w);

/* The fan and leg of kinds whose fan is one search a target (their ops' `pair`): the fan keeps each
 * target's path in memo `keep`; the leg is one search from its first place to its last, or a fan's
 * path when it has two places and a fan kept their way. */
nav_status nav__world_fan_by_pairs(nav__world_scratch *s, const nav__world_region *r,
                                   const nav_world_place *from, bool reverse, nav__world_end keep,
                                   const nav_world_place *targets, uint32_t count, double *costs);
nav_status nav__world_leg_by_pair(nav__world_scratch *s, const nav_world *w, const nav__world_region *r,
                                  const nav__world_leg_ask *ask, nav_path *path, double *cost);
/* At least `bytes` of s->work (grown as needed, kept), or null when out of memory. */
void *nav__world_scratch_work(nav__world_scratch *s, size_t bytes);
/* Forgets what the fans kept (a new plan). */
void nav__world_memo_forget(nav__world_scratch *s);
/* Hop h of ask (places[h] to places[h + 1]) as a fan kept it: true with its points appended to
 * path (NAV_FAILURE | NAV_OUT_OF_MEMORY in *st when they do not fit) and its cost in *cost; false
 * when no fan kept that way. */
bool nav__world_memo_hop(const nav__world_scratch *s, const nav__world_region *r,
                         const nav__world_leg_ask *ask, uint32_t h, nav_path *path, double *cost,
                         nav_status *st);

/* Appends src's points and nodes to dst. */
nav_status nav__world_path_append(nav_path *dst, const nav_path *src);

typedef struct nav__world_link {
    nav_world_link_kind kind;
    uint32_t name; /* offset into names; UINT32_MAX: none */
    double cost;
    bool one_way, disabled;
} nav__world_link;

/* The link state of now: a bit a link, changed as one under a sequence lock (a writer makes seq odd,
 * changes the bits, makes it even again; a reader copies the bits and tries again if seq moved). */
typedef struct nav__world_state {
    atomic_uint seq;
    atomic_flag writing; /* writers take turns */
    _Atomic uint64_t *bits;
    uint32_t words;
} nav__world_state;

struct nav_world {
    nav_allocator allocator;
    uint32_t region_count, link_count, choke_count;
    nav__world_region *regions;
    nav__world_link *links;
    /* chokepoints (2 a link) */
    nav_world_place *choke; /* place and position of each */
    uint32_t *region_choke; /* chokepoints by region (each region's in ascending order) */
    uint32_t *choke_slot;   /* where each chokepoint sits in its region's list */
    uint32_t *choke_by_id;  /* each region's chokepoints again, ordered by place id (then index) */
    /* The regions' tables: the row of the chokepoint at p in region_choke (p = a region's
     * choke_first + its slot) is the entries edge_first[p] .. edge_first[p + 1], each a target (its
     * slot in the region: edge_to) and a cost (edge_cost); region by region, rows in slot order. */
    uint64_t *edge_first;
    uint32_t *edge_to;
    double *edge_cost;
    uint64_t edge_count;
    /* On flat grid regions, the cells of each entry's way, as runs of moves from its first
     * chokepoint's cell: a byte a run, direction << 5 | (length - 1), way_size[e] bytes of
     * path_bytes (e: the entry's index), the ways of a row one after the other from way_first[p]
     * (nav__world_way_start). Empty for other kinds, for chokepoints of one cell and for the
     * mirrored half of a symmetric table. */
    uint64_t *way_first; /* a row's first byte (choke_count + 1: the last, path_size) */
    uint32_t *way_size;
    uint8_t *path_bytes;
    uint64_t path_size;
    uint32_t max_region_chokes;
    uint64_t largest_cells;         /* the most places of a region whose places the search walks (a
                                       grid's cells: nav__world_places) */
    struct nav__world_cache *cache; /* regions loaded on demand (world_cache.c); null: all loaded */
    char *names;
    uint32_t names_size;
    uint32_t *by_name; /* region indices ordered by name */
    size_t bytes;
    nav__world_owned *owned;
    uint32_t owned_count;
    /* locate: buckets of side bucket_side from (bucket_x0, bucket_z0), each listing the regions whose
     * box meets it (bucket_regions[bucket_first[b] .. bucket_first[b + 1]]) */
    double bucket_x0, bucket_z0, bucket_side;
    uint32_t buckets_across, buckets_down, bucket_entries;
    uint32_t *bucket_first, *bucket_regions, *bucket_fill;
    double cost_floor;        /* the least cost of a unit of horizontal travel (the search's estimate) */
    double cost_floor_octile; /* the same a unit of octile distance */
    nav__world_state state;
    /* a part bake (nav_world_bake_desc.only_region or shard): the regions whose tables it worked
     * out, for nav_world_write_part; no queries. Null for a whole world. */
    uint32_t *part_list;
    uint32_t part_count;
};

/* ---- A world's indexes, made by the bake and by reading a world file alike (world.c) ---- */

/* The planner of a region kind (a grid searched cell by cell or through its HPA* bake). */
const nav__world_region_ops *nav__world_ops_of(nav_world_region_kind kind, bool by_hpa);
/* Destroys the objects a world (or its builder) owns. */
void nav__world_owned_destroy(nav__world_owned *o);

/* Fills in what region r's kind and data give: its ops, box, symmetric flag and cells (on a world
 * whose regions load on demand: as the file states them), and the world's largest grid and mesh
 * count. */
void nav__world_note_region(nav_world *w, uint32_t r);
/* What a region's data gives: its extent (with locate's margin), symmetry and cells. */
void nav__world_region_facts(const nav__world_region *region, double box[4], bool *symmetric,
                             uint64_t *cells);
/* A flat grid region's table is pruned when it has more places than this: with fewer, a fan stops
 * at its last place about as soon, pruning saves little, and a search need not follow the table on. */
#define NAV__WORLD_PRUNE_ABOVE 64

/* From w->choke (and the regions' choke_count all 0): each region's chokepoint list, slots, the
 * lists by place id, and whether its table is pruned and has chains. */
nav_status nav__world_index_chokepoints(nav_world *w);
/* The table's entry from slot i to slot j of region r (rows' targets ascending: a binary search), or
 * UINT64_MAX when it has none. */
uint64_t nav__world_entry(const nav_world *w, const nav__world_region *r, uint32_t i, uint32_t j);
/* Names in order, locate's buckets, the estimate's cost floors, the link state, the byte count. */
nav_status nav__world_finish(nav_world *w);

/* ---- The bake's tables (hpa/bake/world_tables.c) ---- */

/* A table entry's bytes in memory (its target, its cost, its way's size): what
 * nav_world_bake_desc.max_table_bytes counts, with the ways' bytes. */
#define NAV__WORLD_ENTRY_BYTES (sizeof(uint32_t) + sizeof(double) + sizeof(uint32_t))

/* Works out the tables of the regions a bake makes (every region, or a part bake's) into w's rows
 * and ways, on desc's threads, within its max_table_bytes (past it: NAV_FAILURE | NAV_TOO_LARGE,
 * said to log). NAV_FAILURE with NAV_OUT_OF_MEMORY, or NAV_WRONG_STATE when cancelled. */
nav_status nav__world_fill_tables(nav_world *w, const nav_world_bake_desc *desc, const nav_log *log);

/* ---- Regions loaded on demand (world_cache.c) ---- */

/* The regions a query holds loaded: a region's data (grid, mesh, waypoints) is read only while it
 * is held. */
typedef struct nav__world_pins {
    uint32_t *regions;
    uint32_t count, capacity;
    nav_allocator allocator;
} nav__world_pins;

/* Holds region r loaded (reading it from the file if it is not, evicting the least recently used
 * regions no query holds while over the budget). On a world with all regions in memory it does
 * nothing. NAV_FAILURE with NAV_IO_ERROR, NAV_CORRUPT_DATA (the region's data or its table fails
 * its checks) or NAV_OUT_OF_MEMORY. */
nav_status nav__world_pin(const nav_world *w, uint32_t r, nav__world_pins *pins);
/* Lets go of every region pins holds. */
void nav__world_unpin_all(const nav_world *w, nav__world_pins *pins);
void nav__world_pins_free(nav__world_pins *pins);
typedef struct nav__world_cache nav__world_cache;
/* Makes w's cache (w->cache, which w frees from then on even on failure): file stays open for
 * reading regions at regions_at + each region's offset (nav__world_cache_set_region). */
nav_status nav__world_cache_create(nav_world *w, FILE *file, const char *path, uint64_t regions_at,
                                   size_t budget, const nav_log *log);
void nav__world_cache_set_region(nav__world_cache *c, uint32_t r, uint64_t at, uint64_t size, uint32_t crc);
void nav__world_cache_destroy(nav__world_cache *cache, const nav_allocator *a);
/* Checks region r's loaded data against the world (world_nav.c): its extent, symmetry and cells as
 * the WRLD chunk states them, its chokepoints on walkable places, its table and ways. */
nav_status nav__world_check_region(const nav_world *w, uint32_t r, const double box[4], bool symmetric,
                                   const nav_log *log);
/* Reads region r's data chunk into w->owned[r] and the region's pointers (labels: build a grid's
 * reachability labels), and frees it again. */
nav_status nav__world_read_region_data(nav_world *w, uint32_t r, const void *data, size_t size, bool labels,
                                       const nav_log *log);
void nav__world_drop_region_data(nav_world *w, uint32_t r);
/* locate (nav_world_locate) holding the regions it looks at. */
nav_status nav__world_locate(const nav_world *w, nav_vec3 point, nav_world_place *out, nav__world_pins *pins);

/* ---- The .nav chunks (world_nav.c) ---- */

/* Takes every region's table and ways from parts (each region's from exactly one), checked as a
 * world file's are, within limit bytes (NAV_TOO_LARGE past it; the measure of max_table_bytes).
 * Logged to log. */
nav_status nav__world_tables_from_parts(nav_world *w, const nav_world_part *parts, uint32_t count,
                                        uint64_t limit, const nav_log *log);

/* For loaders: the builder (then the world baked from it) owns these from now on and destroys them
 * (any may be null). NAV_SUCCESS, or NAV_FAILURE | NAV_OUT_OF_MEMORY when there was no room to keep
 * them: then they are destroyed here, and the caller must not use them. */
nav_status nav__world_builder_keep(nav_world_builder *b, nav_grid *grid, nav_mesh *mesh, nav_waypoints *wp,
                                   nav_hpa *hpa);
/* Regions added so far, a region's grid (null for other kinds), and an error to the builder's log. */
uint32_t nav__world_builder_region_count(const nav_world_builder *b);
/* Links added so far; nav__world_builder_drop_links forgets those after the first `count` (a join
 * that failed half way leaves none of its links). */
uint32_t nav__world_builder_link_count(const nav_world_builder *b);
void nav__world_builder_drop_links(nav_world_builder *b, uint32_t count);
const nav_grid *nav__world_builder_grid(const nav_world_builder *b, uint32_t region);
const nav_mesh *nav__world_builder_mesh(const nav_world_builder *b, uint32_t region);
void nav__world_builder_logf(const nav_world_builder *b, const char *fmt, ...) NAV__PRINTF(2, 3);
/* The index of the region of that name added so far, or NAV_WORLD_NONE. */
uint32_t nav__world_builder_find(const nav_world_builder *b, const char *name);
/* The place of point p in region `region` added so far, as a link's end there is placed (a grid's
 * cell centre at its floor, the mesh's floor under it, the nearest waypoint within snap), or false
 * when p is at no walkable place of it (or there is no such region). */
bool nav__world_builder_locate(const nav_world_builder *b, uint32_t region, nav_vec3 p, nav_world_place *out);

/* Where entry e of the row at position p keeps its way in path_bytes (after the row's ways before it). */
static inline uint64_t nav__world_way_start(const nav_world *w, uint32_t p, uint64_t e)
{
    uint64_t at = w->way_first[p];
    for (uint64_t x = w->edge_first[p]; x < e; x++) at += w->way_size[x];
    return at;
}

/* The region's name, NUL-terminated. */
static inline const char *nav__world_name(const nav_world *w, uint32_t offset)
{
    return w->names + offset;
}

/* The bucket of world point (x, z), clamped to the grid of buckets; false when the point lies
 * outside it (then *bx, *bz are clamped all the same). */
static inline bool nav__world_bucket(const nav_world *w, double x, double z, uint32_t *bx, uint32_t *bz)
{
    double fx = floor((x - w->bucket_x0) / w->bucket_side), fz = floor((z - w->bucket_z0) / w->bucket_side);
    bool inside = fx >= 0 && fz >= 0 && fx < w->buckets_across && fz < w->buckets_down;
    *bx = (uint32_t)fmax(0, fmin(fx, (double)w->buckets_across - 1));
    *bz = (uint32_t)fmax(0, fmin(fz, (double)w->buckets_down - 1));
    return inside;
}

static inline double nav__world_min(double a, double b)
{
    return b < a ? b : a; /* NAN (0 / 0) never wins */
}

static inline double nav__world_dist_xz(nav_vec3 a, nav_vec3 b)
{
    double dx = (double)a.x - b.x, dz = (double)a.z - b.z;
    return sqrt(dx * dx + dz * dz);
}

/* The octile distance in x and z: the longer difference plus (sqrt 2 - 1) times the shorter. */
static inline double nav__world_octile(nav_vec3 a, nav_vec3 b)
{
    double dx = fabs((double)a.x - b.x), dz = fabs((double)a.z - b.z);
    return dx > dz ? dx + (M_SQRT2 - 1) * dz : dz + (M_SQRT2 - 1) * dx;
}

/* What a step from a to b covers in the estimate's measure: octile (metric 1) or straight (0). */
static inline double nav__world_cover(nav_vec3 a, nav_vec3 b, int metric)
{
    return metric ? nav__world_octile(a, b) : nav__world_dist_xz(a, b);
}

static inline double nav__world_dist3(nav_vec3 a, nav_vec3 b)
{
    double dx = (double)a.x - b.x, dy = (double)a.y - b.y, dz = (double)a.z - b.z;
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* Copies the link state into bits (w->state.words words), consistent as one change. */
void nav__world_state_read(const nav_world *w, uint64_t *bits);
static inline bool nav__world_bit(const uint64_t *bits, uint32_t link)
{
    return bits[link / 64] >> (link % 64) & 1;
}

#endif
