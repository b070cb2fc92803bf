/* nav/world.h - worlds: regions of every kind stitched together through chokepoints.
 *
 * A level is rarely one kind of space: the rooms of a house are fine grids, the town outside a
 * navmesh, the roads between towns a waypoint graph, and they meet at doors, stairs, bridges and
 * ladders. A world is a set of regions placed in world coordinates plus links between them (or
 * between two places of one region). The abstract layer plans over chokepoints only (the two ends
 * of every link), as HPA* plans over the transitions between its clusters (../shared/DESIGN.md,
 * "leg and fan"):
 *   - bake: inside each region, the cost from each of its chokepoints to the others (a fan: one
 *     search, many targets), kept as a sparse table a region (on grids with each entry's way):
 *     only the entries the search needs (on a grid of many chokepoints, none that a way through
 *     another chokepoint covers: docs/worlds.md, "What a bake keeps");
 *   - query: locate start and goal in their regions, then one A* over the chokepoints (links and
 *     the regions' tables) and the cells of the ends' grid regions (ends on other regions are
 *     fanned to their chokepoints), then fill in each leg (the cells the search walked, a table
 *     entry's kept way, or the region's own planner) and stitch one path. When both ends lie in one
 *     region, the direct leg competes with routes that leave the region and come back.
 * The world knows each region kind through one table of questions (locate, fan, leg, and for
 * agents nearest, move and corridor: see hpa/src/world_internal.h), each kind in a file of its own,
 * so a new kind plugs in without touching the search.
 *
 * Region kinds: grids (nav/grid.h), searched flat, placed by their own origin and cell size
 * (nav_grid_desc; a grid's heights are world heights above its origin, so storeys are grids at
 * different heights over the same ground); navmeshes (nav/mesh.h), in world coordinates; waypoint
 * graphs (nav/waypoints.h). Costs are in world units: a grid's costs (cells times terrain factors)
 * times its cell size, a mesh's path lengths times area costs, a waypoint graph's link costs.
 *
 * Links have a kind (door, stairs, ...), a cost, a direction and an enabled state that changes at
 * run time (a drawbridge goes up) without a re-bake: the state lives beside the immutable bake.
 *
 * Life: make a builder, add regions and links, bake (a pure function of what was added), destroy
 * the builder; share the world read-only between threads, each with its own nav_world_query. The
 * world borrows its grids, meshes and waypoint graphs: they must outlive it and not change while
 * it lives.
 *
 *     nav_world_builder *b;
 *     nav_world_builder_create(NULL, NULL, &b);
 *     uint32_t ground, upper;
 *     nav_world_builder_add_grid(b, "ground", ground_grid, &ground);
 *     nav_world_builder_add_grid(b, "upper", upper_grid, &upper);   // origin.y = 3
 *     nav_world_builder_add_link(b, &(nav_world_link_desc){.kind = NAV_LINK_STAIRS,
 *         .from_region = ground, .from = {4.5f, 0, 2.5f}, .to_region = upper, .to = {4.5f, 3, 6.5f}},
 *         NULL);
 *     // (C++: nav_world_link_desc stairs{}; stairs.kind = NAV_LINK_STAIRS; ... then &stairs)
 *     nav_world *world;
 *     nav_world_bake(b, NULL, &world);
 *     nav_world_builder_destroy(b);
 *     nav_world_query *q;
 *     nav_world_query_create(world, NULL, &q);
 *     nav_world_result r;
 *     s = nav_world_find_path(q, start, goal, &path, &r);   // world points; r.legs legs
 *     const nav_world_leg *legs = nav_world_query_legs(q, NULL);   // region, link, cost of each
 */
#ifndef NAV_WORLD_H
#define NAV_WORLD_H

#include "nav/core.h"
#include "nav/grid.h"
#include "nav/hpa.h"
#include "nav/io.h"
#include "nav/mesh.h"
#include "nav/path.h"
#include "nav/waypoints.h"
#include "nav/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NAV_WORLD_NONE          UINT32_MAX
#define NAV_WORLD_MAX_REGIONS   (1u << 20)
#define NAV_WORLD_MAX_LINKS     (1u << 24)
#define NAV_WORLD_MAX_NAME      63 /* bytes of a region's or link's name */
#define NAV_WORLD_MAX_LINK_COST 1e30

typedef enum nav_world_region_kind {
    NAV_WORLD_REGION_GRID = 1,
    NAV_WORLD_REGION_MESH,
    NAV_WORLD_REGION_WAYPOINTS,
} nav_world_region_kind;

typedef enum nav_world_link_kind {
    NAV_LINK_DOOR = 1,
    NAV_LINK_STAIRS,
    NAV_LINK_BRIDGE,
    NAV_LINK_LADDER,
    NAV_LINK_GATE,
    NAV_LINK_PORTAL,
    NAV_LINK_JUMP,
    NAV_LINK_BORDER, /* two regions that touch, joined along their shared border */
    NAV_LINK_KIND_COUNT
} nav_world_link_kind;

/* "door", "stairs", ..., or "?" for a value that is no kind. */
NAV_API const char *nav_world_link_kind_name(nav_world_link_kind kind);

/* ---- Building a world ------------------------------------------------------------------------ */

typedef struct nav_world_builder nav_world_builder;

/* [in] allocator [opt] copied: the world's memory; log [opt] copied: what is wrong with a region or a
 * link ("link 3 (\"stairs\"): ..."). Returns NAV_FAILURE with NAV_INVALID_PARAM or
 * NAV_OUT_OF_MEMORY; *out is null on failure. */
NAV_BAKE_API nav_status nav_world_builder_create(const nav_allocator *allocator, const nav_log *log,
                                                 nav_world_builder **out);
NAV_BAKE_API void nav_world_builder_destroy(nav_world_builder *builder);

/* Adds a grid region (borrowed: it must outlive the world, unchanged). name: 1 to
 * NAV_WORLD_MAX_NAME bytes, unique in the world. [out] region [opt]: its index (0, 1, ... in the
 * order added). Returns NAV_FAILURE | NAV_INVALID_PARAM (null grid, bad or taken name: logged),
 * NAV_TOO_LARGE or NAV_OUT_OF_MEMORY. */
NAV_BAKE_API nav_status nav_world_builder_add_grid(nav_world_builder *builder, const char *name,
                                                   const nav_grid *grid, uint32_t *region);

/* Adds a big grid region searched through its HPA* bake (both borrowed likewise; hpa baked from this
 * grid as it is: nav_hpa_bake). Its fans and legs are HPA* queries (nav_hpa_find_path with the
 * default query options) instead of searches over every cell: an end in it costs one HPA* query
 * for each of its chokepoints whatever its size, and the bake makes one HPA* query per pair of its
 * chokepoints instead of a fan over its cells from each. Routes through it cost what HPA* finds:
 * valid 8-connected walks, never below the optimum, typically a few percent above it at most. A
 * leg in it is found again hop by hop when refined, at the cost the plan counted. Returns as
 * nav_world_builder_add_grid, and NAV_FAILURE | NAV_SOURCE_MISMATCH (logged) when hpa was baked
 * from another grid, or from this one before it changed. */
NAV_BAKE_API nav_status nav_world_builder_add_grid_hpa(nav_world_builder *builder, const char *name,
                                                       const nav_grid *grid, const nav_hpa *hpa,
                                                       uint32_t *region);

/* Adds a navmesh region (borrowed likewise; its coordinates are world coordinates). Legs are its
 * optimal paths (nav_mesh_find_path, NAV_MESH_PATH_OPTIMAL: the exact shortest path where every
 * area costs the same; where areas cost differently the mesh runs its funnel mode, and routes are
 * then the cheapest over the legs it finds), fans one such search a chokepoint. A point locates to
 * the polygon under it. Returns as nav_world_builder_add_grid. */
NAV_BAKE_API nav_status nav_world_builder_add_mesh(nav_world_builder *builder, const char *name,
                                                   const nav_mesh *mesh, uint32_t *region);

/* Adds a waypoint-graph region (borrowed likewise: a road network, a bot graph). A point locates to
 * the nearest waypoint within snap (world units, 3D; 0: 1); legs are the bake's routes, their costs
 * the links' summed exactly. Returns as nav_world_builder_add_grid, and NAV_INVALID_PARAM for a snap
 * that is negative or not finite. */
NAV_BAKE_API nav_status nav_world_builder_add_waypoints(nav_world_builder *builder, const char *name,
                                                        const nav_waypoints *waypoints, double snap,
                                                        uint32_t *region);

/* How nav_world_builder_join_touching places its links. */
typedef enum nav_world_join_mode {
    NAV_WORLD_JOIN_EVERY = 1, /* every move across a shared border: routes cost what the one grid's do */
    NAV_WORLD_JOIN_ENTRANCES  /* HPA*'s transitions: a run of cells open on both sides of a border gets
                                 one link in its middle, or two at its ends when it is long; far fewer
                                 chokepoints, routes that may cost a little more */
} nav_world_join_mode;

typedef struct nav_world_join_desc {
    nav_world_join_mode mode; /* 0: NAV_WORLD_JOIN_EVERY */
    int32_t long_entrance;    /* ENTRANCES: a run this long or longer gets two links; 0: 6 (HPA*'s);
                                 INT32_MAX: one link an entrance, always in its middle */
    double tolerance;         /* world units within which floors count as one level; 0: 1e-3 */
} nav_world_join_desc;

/* Joins the regions added so far that touch. Grids, as if they were one grid: two grids touch when
 * their floors (origin.y) are at one level, their cells are of one size and their corners on one
 * lattice, and they share a border (or a corner, for diagonal moves). Each move across follows the
 * rules of the grid it leaves (connectivity, corner policy, with cells outside every grid blocked;
 * the climb limit, on world heights; the diagonal's length) and costs the step's length times the
 * terrain cost of the cell entered, times the cell size. Links are NAV_LINK_BORDER, two-way where
 * both ways cost the same, else one-way each.
 * Navmeshes, along grid borders: a mesh's wall edge (no polygon across) that lies on a grid's border
 * line within the tolerance, its polygon outside the grid, opens each border cell whose centre,
 * carried straight over the border, lands on that polygon at the cell's floor height (within the
 * tolerance); a side's open cells make runs linked as the mode says (every cell, or entrances), each
 * link from the cell's centre to the mesh point just across, costing its length times the cost of
 * what it enters (one-way each when the polygon's area and the cell's terrain cost differently).
 * [out] added [opt]: links added. Returns NAV_SUCCESS,
 * NAV_FAILURE with NAV_INVALID_PARAM (a bad option), NAV_TOO_LARGE or NAV_OUT_OF_MEMORY; on failure
 * none of its links stay in the builder (and *added is 0). */
NAV_BAKE_API nav_status nav_world_builder_join_touching(nav_world_builder *builder,
                                                        const nav_world_join_desc *desc, uint32_t *added);

/* A link between a place of one region and a place of another (or of the same region). */
typedef struct nav_world_link_desc {
    const char *name;         /* [opt] up to NAV_WORLD_MAX_NAME bytes, for messages and tools */
    nav_world_link_kind kind; /* 0: NAV_LINK_DOOR */
    uint32_t from_region, to_region;
    nav_vec3 from, to; /* world points over a walkable place of each region (x, z pick the
                          grid cell; y is not used to pick a region: the region is named) */
    double cost;       /* of going through it, > 0 and at most NAV_WORLD_MAX_LINK_COST;
                          0: the straight distance between the two points */
    bool one_way;      /* only from -> to (a drop that cannot be climbed back) */
    bool disabled;     /* starts disabled (nav_world_set_links turns it on) */
} nav_world_link_desc;

/* Adds a link. Checked here: both regions exist, both points lie over a walkable place of their
 * region, the cost is valid. [out] link [opt]: its index (0, 1, ... in the order added).
 * Returns NAV_FAILURE | NAV_INVALID_PARAM (logged with the link's number and name), NAV_TOO_LARGE
 * or NAV_OUT_OF_MEMORY. */
NAV_BAKE_API nav_status nav_world_builder_add_link(nav_world_builder *builder,
                                                   const nav_world_link_desc *link, uint32_t *id);

/* One region's part of a split bake: the bytes of a part file (nav_world_save_part). */
typedef struct nav_world_part {
    const void *data;
    size_t size;
    const char *name; /* [opt] for messages (the file's name) */
} nav_world_part;

/* The most bytes the regions' tables may take by default (nav_world_bake_desc.max_table_bytes). */
#define NAV_WORLD_DEFAULT_MAX_TABLE_BYTES (1ull << 30)

typedef struct nav_world_bake_desc {
    uint32_t threads;               /* regions' tables worked out on this many threads (0: every core);
                                       the world comes out the same */
    nav_progress progress;          /* [opt] stage "fans": steps done out of all (a region of at most
                                       64 chokepoints, or one fan of a bigger region) */
    uint64_t max_table_bytes;       /* the most the regions' tables and kept ways may take in memory (16
                                       bytes an entry, plus the ways): past it the bake stops with
                                       NAV_TOO_LARGE, naming the region (0:
                                       NAV_WORLD_DEFAULT_MAX_TABLE_BYTES, 1 GiB) */
    const nav_allocator *allocator; /* [opt] null: the builder's */
    /* Split bakes (docs/worlds.md): the tables, which are most of a bake's work, one region at a
     * time on many machines, then joined. */
    const char *only_region;     /* [opt] work out this region's table only: the world is a part bake's,
                                    for nav_world_write_part / nav_world_save_part, not for queries */
    uint32_t shard, shards;      /* shards > 0: a part bake of the regions shard, shard + shards,
                                    shard + 2 shards, ... (in the order added): one job of an array of
                                    `shards` (not with only_region) */
    const nav_world_part *parts; /* [opt] take every region's table from these instead of working
                                    them out (each region's from exactly one part, made from the same
                                    regions and links): the world equals a whole bake's */
    uint32_t part_count;
} nav_world_bake_desc;

typedef struct nav_world nav_world;

/* Bakes the world: each region's chokepoint table, and the graph over all chokepoints. The builder
 * is only read and can be destroyed afterwards. Returns NAV_SUCCESS; NAV_FAILURE with
 * NAV_INVALID_PARAM (null arguments, no region, an only_region no region has, shard not below
 * shards, a part bake given parts, a region without its part or with two), NAV_CORRUPT_DATA or
 * NAV_WRONG_VERSION (a part that is damaged or not a part), NAV_SOURCE_MISMATCH (a part made from other
 * region data or other chokepoints), NAV_TOO_LARGE (the tables past max_table_bytes: logged with the
 * region), NAV_OUT_OF_MEMORY or NAV_WRONG_STATE (cancelled through the progress callback); *out is
 * null on failure. */
NAV_BAKE_API nav_status nav_world_bake(const nav_world_builder *builder, const nav_world_bake_desc *desc,
                                       nav_world **out);
NAV_API void nav_world_destroy(nav_world *world);

/* ---- World files ---------------------------------------------------------------------------------- */

/* Options of the JSON world loader; zero fields take defaults. */
typedef struct nav_world_load_desc {
    const nav_allocator *allocator;  /* [opt] the world's and its regions' memory */
    const nav_log *log;              /* [opt] errors and warnings: "FILE: JSON.path: message" */
    nav_progress progress;           /* [opt] the bake's (nav_world_bake_desc) */
    const nav_world_bake_desc *bake; /* [opt] the JSON loader's bake options (threads, a split bake's
                                        only_region or parts; its allocator and progress are
                                        replaced by the two above) */
    size_t region_budget;            /* nav_world_load_nav: 0 reads every region now; above 0 keeps
                                        them on disk until a query needs one, and evicts the least
                                        recently used no query holds while the loaded regions'
                                        bytes are over this budget (see "Regions on demand") */
} nav_world_load_desc;

/* Loads a JSON world file (docs/worlds.md): its regions' sources (grids from .map, PNG or the ASCII
 * format; meshes built from such a grid, built from a level's .obj with the options of
 * nav_geometry_build_desc, or read from a .nav; waypoint graphs from the text format, baked, or read
 * from a .nav), found relative to the file's folder, then bakes the world. The world owns what it
 * loaded: nav_world_destroy frees it all. Errors name the JSON path of the bad value ("world.json:
 * links[3].to.region: no region named \"keep\""); an unknown key, an option the region's source does
 * not take, a key given twice, text after the top-level object, a string holding U+0000, a link's
 * cost of 0 and a link's end more than an agent's height off its region's floor are errors. Grids
 * over the same ground at the same height (a storey left at the height of the one under it) are
 * warned of (NAV_LOG_WARNING), and the world loads.
 * Returns NAV_SUCCESS; NAV_FAILURE with NAV_IO_ERROR, NAV_PARSE_ERROR (not JSON, or not a world),
 * NAV_TOO_LARGE (over 64 MiB), NAV_INVALID_PARAM (a link or region the builder refuses, a link's end
 * off its floor),
 * NAV_OUT_OF_MEMORY (also when the JSON parser runs out), the failures of the region loaders and of
 * nav_world_bake; *out is null on failure. */
NAV_BAKE_API nav_status nav_world_load_json(const char *path, const nav_world_load_desc *desc,
                                            nav_world **out);
/* The same from text in memory (size bytes). name [opt]: for messages; dir [opt]: where sources are
 * found (null: the working folder). */
NAV_BAKE_API nav_status nav_world_load_json_text(const char *text, size_t size, const char *name,
                                                 const char *dir, const nav_world_load_desc *desc,
                                                 nav_world **out);

/* ---- World .nav files ------------------------------------------------------------------------------ */

/* A baked world as a .nav file (docs/nav_files.md): a WRLD chunk (regions, links, chokepoints, the
 * regions' tables with their kept ways) and a WREG chunk (every region's own data, as its GRID, MESH
 * or WAYPOINTS chunk would hold it), so the file needs none of the world's sources. The bytes are a
 * function of the world alone: a split bake's world file equals a whole bake's. */
#define NAV_CHUNK_WORLD              NAV_TAG('W', 'R', 'L', 'D')
#define NAV_CHUNK_WORLD_REGIONS      NAV_TAG('W', 'R', 'E', 'G')
#define NAV_CHUNK_WORLD_PART         NAV_TAG('W', 'P', 'R', 'T')
#define NAV_WORLD_CHUNK_VERSION      3 /* 2: its meshes' chunks hold heights; 3: sparse tables */
#define NAV_WORLD_PART_CHUNK_VERSION 2 /* 2: sparse tables */

/* Appends the world's .nav file image to out. Returns NAV_SUCCESS, or NAV_FAILURE with
 * NAV_OUT_OF_MEMORY, or NAV_WRONG_STATE for a world of a part bake (only_region). */
NAV_API nav_status nav_world_write_nav(const nav_world *world, nav_writer *out);
/* Writes it to path (atomically, see nav_container_write_file). Returns as nav_world_write_nav and
 * nav_container_write_file. */
NAV_API nav_status nav_world_save_nav(const nav_world *world, const char *path);

/* Makes a world from a .nav file image (size bytes: copied from, not kept), checking everything a
 * query relies on: the container's CRCs; every count, index and name; each region's data as its
 * own chunk reader checks it; every chokepoint on a walkable place of its region; the tables' rows
 * and ways filling the chunk exactly (before they are allocated); every table entry (a target that
 * is another chokepoint of the region, targets ascending, a cost not negative and finite, a
 * symmetric table's entries in mirrored pairs); every kept way inside its grid from its first
 * chokepoint's cell to its second's; and the regions' extents, symmetry and
 * the estimate's cost floors against what the region data gives. A file that passes cannot make a
 * query read out of bounds or loop. The world owns its regions; their grids come without
 * reachability labels (nothing a world asks of them uses them; nav_grid_find_path works without,
 * only its early answer for unreachable goals is lost). [in] desc [opt]: allocator, log.
 * Returns NAV_SUCCESS, or NAV_FAILURE with NAV_CORRUPT_DATA (said to the log), NAV_WRONG_VERSION,
 * NAV_TOO_LARGE, NAV_INVALID_PARAM or NAV_OUT_OF_MEMORY; *out is null on failure. */
NAV_API nav_status nav_world_read_nav(const void *data, size_t size, const nav_world_load_desc *desc,
                                      nav_world **out);
/* The same from a file (messages as "PATH: message"); also as nav_file_read_all. */
NAV_API nav_status nav_world_load_nav(const char *path, const nav_world_load_desc *desc, nav_world **out);

/* Regions on demand. A world loaded by nav_world_load_nav with a region_budget keeps its abstract
 * graph (links, chokepoints, the regions' tables and kept ways) in memory and reads a region's data
 * (a grid, a mesh, a waypoint graph) from the file when a query first needs it: to locate a point
 * in the region's extent, for an end's search or fan, to refine a leg. A query object holds the
 * regions it used until its next plan (or its destruction), so its legs can be refined later;
 * the others may be evicted. The budget is soft: regions held by queries stay even over it. A
 * region read later is checked as nav_world_read_nav checks it (a damaged one makes the query
 * fail with NAV_CORRUPT_DATA, and is read again next time); the cost floors of the search's
 * estimate are the file's, not worked out again. Queries on many threads share the cache: a
 * load takes a lock that other threads' loads wait for. nav_world_region_grid, _mesh and
 * _waypoints give null on such a world. The file must not change while the world lives. */
typedef struct nav_world_cache_info {
    bool on_demand;
    size_t budget;
    size_t loaded_bytes, peak_loaded_bytes; /* of the regions' data loaded now, and at most so far */
    uint32_t loaded_regions;
    uint64_t loads, evictions;
} nav_world_cache_info;
NAV_API void nav_world_get_cache_info(const nav_world *world, nav_world_cache_info *info);

/* A split bake's part: the tables and kept ways the bake worked out (a part bake's regions: its
 * only_region or its shard; a whole bake's: every region), each with a digest of what it depends on
 * (the region's data and its chokepoints), in a .nav file of one WPRT chunk. Returns NAV_SUCCESS,
 * NAV_FAILURE with NAV_INVALID_PARAM or NAV_OUT_OF_MEMORY, or as nav_container_write_file. */
NAV_API nav_status nav_world_write_part(const nav_world *world, nav_writer *out);
NAV_API nav_status nav_world_save_part(const nav_world *world, const char *path);
/* The regions whose tables a bake worked out: their indices into regions [opt] (room for all the
 * world's), their count returned (a whole bake: every region). */
NAV_API uint32_t nav_world_part_regions(const nav_world *world, uint32_t *regions);

/* ---- Reading a world --------------------------------------------------------------------------- */

typedef struct nav_world_info {
    uint32_t regions, links;
    uint32_t chokepoints;  /* places the abstract graph plans over: the two ends of every link */
    uint64_t region_edges; /* entries of the regions' tables (costs between chokepoints of one region) */
    size_t bytes;          /* of the bake (not counting the borrowed grids) */
} nav_world_info;

NAV_API void nav_world_get_info(const nav_world *world, nav_world_info *info);
NAV_API size_t nav_world_memory_bytes(const nav_world *world);
/* A region's name and kind; null / 0 for a bad index. */
NAV_API const char *nav_world_region_name(const nav_world *world, uint32_t region);
NAV_API nav_world_region_kind nav_world_region_kind_of(const nav_world *world, uint32_t region);
/* A region's planner data (for tools that draw or inspect it): its grid (a grid region's), its mesh,
 * its waypoint graph; null when the region is of another kind or the index is bad. */
NAV_API const nav_grid *nav_world_region_grid(const nav_world *world, uint32_t region);
/* A grid region's HPA* bake (nav_world_builder_add_grid_hpa), null for other regions (and, like the
 * three above, while regions load on demand). nav_world_region_by_hpa says whether a region is
 * searched through one, loaded or not. */
NAV_API const nav_hpa *nav_world_region_hpa(const nav_world *world, uint32_t region);
NAV_API bool nav_world_region_by_hpa(const nav_world *world, uint32_t region);
NAV_API const nav_mesh *nav_world_region_mesh(const nav_world *world, uint32_t region);
NAV_API const nav_waypoints *nav_world_region_waypoints(const nav_world *world, uint32_t region);
/* The region of that name, or NAV_WORLD_NONE. */
NAV_API uint32_t nav_world_find_region(const nav_world *world, const char *name);
/* A link as it was added (its name points into the world; cost resolved: never 0), or false for a
 * bad index. The disabled field gives its state at bake time, not its state now. */
NAV_API bool nav_world_link(const nav_world *world, uint32_t link, nav_world_link_desc *out);

/* A place: a region and where in it (for a grid, the cell index y * width + x), with its world
 * position (for a grid, the cell's centre at its height). */
typedef struct nav_world_place {
    uint32_t region;
    uint32_t id;
    nav_vec3 position;
} nav_world_place;

/* Locates a world point: among the regions with a walkable place under (x, z), the one whose floor
 * lies at or below the point (within 0.5 world units above it), the highest of those; else the
 * nearest floor above it. Returns NAV_SUCCESS, or NAV_FAILURE | NAV_INVALID_PARAM (no walkable
 * place of any region under the point, or a null argument). */
NAV_API nav_status nav_world_locate(const nav_world *world, nav_vec3 point, nav_world_place *out);

/* ---- Link state at run time ---------------------------------------------------------------------- */

/* A change of one link's state. */
typedef struct nav_world_link_change {
    uint32_t link;
    bool enabled;
} nav_world_link_change;

/* Changes links' states, all of them as one change: a query running on another thread at the same
 * time sees every one of them as before or every one as after, never some of each (it copies the
 * state once, when it starts). So a drawbridge that goes up as a ferry starts is never seen with
 * both gone. Calls that change the state may come from any thread and may overlap each other and
 * any query; they never allocate. Returns NAV_FAILURE | NAV_INVALID_PARAM for a bad link index
 * (nothing is changed). */
NAV_API nav_status nav_world_set_links(nav_world *world, const nav_world_link_change *changes,
                                       uint32_t count);
/* The state of one link now (false for a bad index). */
NAV_API bool nav_world_link_enabled(const nav_world *world, uint32_t link);

/* ---- Queries ------------------------------------------------------------------------------------- */

typedef struct nav_world_query nav_world_query;

/* Makes a query object (one a thread). [in] allocator [opt] copied. Returns NAV_FAILURE with
 * NAV_INVALID_PARAM, NAV_WRONG_STATE (a part bake's world: only_region) or NAV_OUT_OF_MEMORY; *out
 * is null on failure. */
NAV_API nav_status nav_world_query_create(const nav_world *world, const nav_allocator *allocator,
                                          nav_world_query **out);
NAV_API void nav_world_query_destroy(nav_world_query *query);
NAV_API size_t nav_world_query_memory_bytes(const nav_world_query *query);
/* The kinds of link this query's plans may not take from now on, as if those links were switched off
 * (a character that climbs no ladder, a cart that takes no stairs): bit 1u << kind for each kind
 * (nav_world_link_kind); 0, as a query starts: every kind. */
NAV_API void nav_world_query_exclude_links(nav_world_query *query, uint32_t kinds);
/* The polygons of navmesh regions this query may use from now on, and what their areas cost (a
 * character that cannot swim leaves water out; one that avoids mud pays more for it): its plans,
 * moves, walls and sight on every mesh region go by filter (nav_mesh_filter; null, as a query
 * starts: every polygon at the mesh's costs). Grid and waypoint regions are not affected. Borrowed:
 * the filter and its area costs must stay as they are while it is set.
 *
 * Plans stay exact: the world's tables hold each mesh region's costs at the mesh's own area costs,
 * so with a filter they only bound a way's cost from below (times the least ratio of a filter's
 * area cost to the mesh's). The search takes them as such, and each table step of the route it
 * finds is searched again under the filter and its cost kept for this plan; while one of them costs
 * more than the search counted, it searches again. A plan under a filter then costs a few more
 * searches in the mesh regions its route crosses. On a world read on demand, a mesh region not in
 * memory gives its table no lower bound but 0 when the filter changes area costs.
 *
 * Returns NAV_FAILURE | NAV_INVALID_PARAM for a null query or an area cost that is no cost
 * (nav_terrain_cost_valid); the filter is then not set. */
NAV_API nav_status nav_world_query_set_mesh_filter(nav_world_query *query, const nav_mesh_filter *filter);
/* The terrain costs of grid regions for this query from now on (nav_grid_filter: types kept out, or
 * costed otherwise; null, as a query starts: each grid's own): its plans, moves, walls and sight on
 * every grid region go by them. Mesh and waypoint regions are not affected. Borrowed: the filter must
 * stay as it is while set.
 *
 * Plans stay exact, as under a mesh filter: a grid's table entries, at its own costs, are lower
 * bounds (times the least ratio of the filter's cost to the grid's over the types in use), each
 * table step of the route found is searched again under the filter, and the search runs again while
 * one costs more than it counted. A grid whose table is pruned (over 64 chokepoints' cells: it keeps
 * no entry that a cheapest way through another chokepoint covers, at the grid's own costs) is
 * crossed by a fan under the filter from each chokepoint the search takes out of it. A grid on which
 * the filter changes nothing (each type in use costs the same and stays in) is planned as without it.
 *
 * A grid searched through HPA* (nav_world_builder_add_grid_hpa) takes a filter when it has at most
 * 2^20 cells: its bake holds the grid's own costs, so under a filter that bears on it the grid is
 * searched cell by cell, as a grid of its size without a bake would be (its ends and each chokepoint
 * the route leaves it by fanned under the filter, its legs A* under it): exact, where HPA* without a
 * filter is not, and as slow as such a grid's search (a query holds a search of about 24 bytes a
 * cell of it once a filter has been used there).
 *
 * Returns NAV_FAILURE | NAV_INVALID_PARAM for a null query or a cost that is no cost
 * (nav_grid_filter_valid), and NAV_FAILURE | NAV_WRONG_STATE on a world with a grid searched
 * through HPA* of more than 2^20 cells; the filter is then not set. */
NAV_API nav_status nav_world_query_set_grid_filter(nav_world_query *query, const nav_grid_filter *filter);
/* Times the parts of each plan from now on (off at creation): nav_world_result's fans_s and
 * search_s. A few clock reads a plan: where the search turns from cells to chokepoints or back. */
NAV_API void nav_world_query_set_timing(nav_world_query *query, bool on);

/* One leg of a route: a stretch inside one region, and the link taken at its end. */
typedef struct nav_world_leg {
    uint32_t region;
    uint32_t link;                     /* taken at the leg's end; NAV_WORLD_NONE for the last leg */
    nav_world_place from, to;          /* the leg's ends */
    double cost;                       /* inside the region (the link's not included): the plan's, then the
                                          refined points' (equal but for the floats' rounding) */
    double link_cost;                  /* of the link at its end (0 for the last leg) */
    uint32_t first_point, point_count; /* its points in the path, once refined (else 0, 0) */
} nav_world_leg;

typedef struct nav_world_result {
    double cost; /* of the route: the legs' and links' costs summed */
    uint32_t legs;
    uint32_t chokepoints_expanded; /* by the abstract search */
    uint32_t cells_expanded;       /* by the same search, of the ends' grids (their fans: an end on a
                                      grid small enough is searched cell by cell, not fanned first) */
    bool direct;                   /* one leg, both ends in one region, no link taken */
    /* the searches the regions' planners ran: a fanned end's (one a target on meshes, waypoint
     * graphs and grids through HPA*, one over a big grid) and, from nav_world_find_path, the legs'
     * (none for a leg one of those fans found, for a flat grid's leg along the ways its bake kept,
     * or for one the search walked cell by cell) */
    uint32_t searches;
    /* with nav_world_query_set_timing: the plan's seconds in its ends' fans (fanned ends, and the
     * search's time on the ends' cells) and in the abstract search (its time on chokepoints) */
    double fans_s, search_s;
} nav_world_result;

/* Plans a route from start to goal (world points, located as nav_world_locate does) without
 * filling in the legs: the legs, with their regions, links and costs, are read with
 * nav_world_query_legs, and each is filled in with nav_world_refine_leg when it is needed (an agent
 * can walk the first leg while the rest waits). The route is the cheapest over the abstract graph:
 * a leg's cost is the region's cheapest inside it, so on worlds of exact planners (grids) it is the
 * cheapest route of the whole world. Links disabled when the query starts are never taken.
 * Returns NAV_SUCCESS; NAV_SUCCESS | NAV_PARTIAL_RESULT | NAV_UNREACHABLE (no route: no legs);
 * NAV_FAILURE | NAV_INVALID_PARAM (an end located nowhere, or null arguments). */
NAV_API nav_status nav_world_plan(nav_world_query *query, nav_vec3 start, nav_vec3 goal,
                                  nav_world_result *result);

/* The last plan's legs, valid until the next plan on this query object. [out] count [opt]. */
NAV_API const nav_world_leg *nav_world_query_legs(const nav_world_query *query, uint32_t *count);

/* Appends the points of the last plan's leg `leg` to path (its region's planner: for a grid, the
 * cell centres, both ends included) and records where they went in the leg (first_point,
 * point_count). Returns NAV_SUCCESS, NAV_FAILURE with NAV_INVALID_PARAM (no such leg),
 * NAV_OUT_OF_MEMORY (the path could not grow), or NAV_CORRUPT_DATA (the region's planner found no
 * way the plan said was there: never on a world whose grids did not change). */
NAV_API nav_status nav_world_refine_leg(nav_world_query *query, uint32_t leg, nav_path *path);

/* The places leg `leg` of the last plan passes, in walking order, none twice in a row: a grid's
 * cells, a navmesh's polygons (the leg's corridor, which nav_mesh_corridor_corners walks: each one
 * shares an edge with the next, or the vertex the way passes between them, or is joined to it by an
 * off-mesh link), a waypoint graph's waypoints; worked out from the leg's points in path, where
 * nav_world_refine_leg (or nav_world_find_path) put them. [out] ids up to capacity, count: how many
 * there are. Returns NAV_SUCCESS; NAV_FAILURE with NAV_BUFFER_TOO_SMALL (count says
 * how many; ids holds the first capacity), NAV_INVALID_PARAM (no such leg, or not refined into
 * path), NAV_OUT_OF_MEMORY. */
NAV_API nav_status nav_world_leg_corridor(nav_world_query *query, uint32_t leg, const nav_path *path,
                                          uint32_t *ids, uint32_t capacity, uint32_t *count);

/* ---- Agents: where a character may stand, and how it moves ---- */

/* The walkable place nearest to point (3D distance) within the box of half_extents around it, in
 * any region: on a grid a point of a free cell's square at the cell's floor, on a navmesh the
 * nearest point of its polygons (nav_mesh_locate), on a waypoint graph a waypoint. Ties go to the
 * lower region. A grid's search is over the cells the box meets: keep the box small. Returns
 * NAV_SUCCESS, or NAV_FAILURE | NAV_INVALID_PARAM (none in the box; null or non-finite arguments,
 * negative extents), or, on a world whose regions load on demand, what loading one returned. */
NAV_API nav_status nav_world_nearest(const nav_world *world, nav_vec3 point, nav_vec3 half_extents,
                                     nav_world_place *out);

/* Moves from place `from` (a place of the world with its position on its region's surface: as
 * nav_world_locate, nav_world_nearest or an earlier move gave it) towards target, on the surface of
 * from's region: to target when the surface within reach holds it (reach: the circle with from and
 * target on its diameter, walked from from), else to its point there nearest to target, so that a
 * character slides along walls and never leaves the surface. On a grid the free cells joined by
 * their sides (and the grid's climbs), on a navmesh nav_mesh_move_along_surface, on a waypoint
 * graph the links at from's waypoint. What a character controller calls every frame; the query
 * object's scratch (one a thread). [out] out: the point reached and its place. Returns NAV_SUCCESS,
 * or NAV_FAILURE with NAV_INVALID_PARAM (from is no place of the world, target not finite) or
 * NAV_OUT_OF_MEMORY. */
NAV_API nav_status nav_world_move(nav_world_query *query, const nav_world_place *from, nav_vec3 target,
                                  nav_world_place *out);

/* Whether a character at place `from` sees point `to` in from's region: the straight way between
 * them, seen from above, is walkable (a grid's any-angle rule, nav/anyangle.h; a navmesh's raycast
 * reaching it, nav_mesh_raycast; on a waypoint graph, `to` on a link at from's waypoint). On a grid
 * of several terrain costs (its own, or the query's grid filter's), the way must also cross no cell
 * dearer than the dearer of the cells at its two ends: agents take a shortcut to a later corner of
 * their route when they see it, and must not see one across the swamp their route goes round.
 * Under a filter, what it keeps out is not walkable. Returns NAV_SUCCESS with
 * *sees, or NAV_FAILURE with NAV_INVALID_PARAM (from is no place of the world, a point not finite)
 * or NAV_OUT_OF_MEMORY. */
NAV_API nav_status nav_world_sees(nav_world_query *query, const nav_world_place *from, nav_vec3 to,
                                  bool *sees);

/* The walls near place `at` in its region, what an agent's avoidance keeps clear of (nav/vec3.h's
 * nav_wall: the walkable side on its left): a navmesh's edges a walk may not cross
 * (nav_mesh_find_walls), a grid's cell sides between a free cell and a blocked one, the grid's edge
 * or a step too high to climb; none on a waypoint graph (a road without width). Those within range
 * of at's position seen from above, on the surface reached from it, walls in one line end to end
 * joined, nearest first into out (capacity); *count: how many were written. Returns NAV_SUCCESS
 * (with NAV_BUFFER_TOO_SMALL when there were more: out holds the nearest), or NAV_FAILURE with
 * NAV_INVALID_PARAM (at is no place of the world, range negative or not finite, a null out with
 * capacity) or NAV_OUT_OF_MEMORY. */
NAV_API nav_status nav_world_walls(nav_world_query *query, const nav_world_place *at, float range,
                                   nav_wall *out, uint32_t capacity, uint32_t *count);

/* A navmesh region's mesh for query's thread, on any world: on a world read on demand the query
 * loads the region if it must and holds it as it holds the regions its plans use (until its next
 * plan, or its destruction). Null for a bad index, a region of another kind, or one that cannot be
 * read (damaged on disk). For code that walks a mesh region (an agent's corridor corners). */
NAV_API const nav_mesh *nav_world_query_region_mesh(nav_world_query *query, uint32_t region);

/* Plans and fills in every leg: path holds the whole route, start first, and path->cost (and
 * result->cost) the legs' refined costs plus the links'. Returns as nav_world_plan and
 * nav_world_refine_leg; when unreachable, path holds only the start's place. */
NAV_API nav_status nav_world_find_path(nav_world_query *query, nav_vec3 start, nav_vec3 goal, nav_path *path,
                                       nav_world_result *result);

#ifdef __cplusplus
}
#endif
#endif
