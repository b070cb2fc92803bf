/* Private: the heightfield of a level's triangles, the first stage of the build from geometry
 * (docs/geometry_build.md).
 *
 * The box of the scene is cut into columns of cell x cell (x, z); each column holds the solid
 * spans the triangles fill, sorted from the bottom, as [bottom, top) in steps of cell_height above
 * the box's floor. A triangle fills, in each column its (x, z) shadow meets, the heights it takes
 * over that part of the column (a floor: one step; a wall: its height). Spans that touch or
 * overlap merge. A span carries the area type of the triangle that made its top (0 where that
 * triangle is steeper than the walkable slope, or faces down): its top is where an agent may
 * stand, once later stages have checked the room above it.
 *
 * Bake-time scratch: stb_ds arrays from the system heap (nav/bake/ds.h), grown only through their checked
 * forms: every stage that allocates says when memory ran out (false, or NAV_OUT_OF_MEMORY), and what it
 * was filling is then only good for freeing. */
#ifndef NAV_MESH_VOXEL_H
#define NAV_MESH_VOXEL_H

#include "nav/geometry.h"
#include "index.h"
#include "parallel.h"

/* Stages on a pool of threads cut the rows into bands: band k holds rows nav__band_row(depth, k) ..
 * nav__band_row(depth, k + 1) - 1, when there are NAV__BAND_LEAST_ROWS rows a band or more. */
enum { NAV__ROW_BANDS = 8, NAV__BAND_LEAST_ROWS = 32 };

static inline int32_t nav__band_row(int32_t depth, uint32_t k)
{
    return (int32_t)((int64_t)depth * k / NAV__ROW_BANDS);
}

#define NAV__NO_SPAN         UINT32_MAX
#define NAV__SPAN_MAX_HEIGHT 0xffffu /* steps a column holds */

typedef struct nav__span {
    uint16_t bottom, top; /* [bottom, top) in cell_height steps above the box's floor */
    uint8_t area;         /* of the triangle that made its top; 0: no agent stands on it */
    uint32_t next;        /* the span above in the column, or NAV__NO_SPAN */
} nav__span;

/* A pool of spans shared by the bands of a parallel rasterisation: each band takes chunks of
 * NAV__SPAN_CHUNK spans of it as it needs them. */
#define NAV__SPAN_CHUNK 1024u
typedef struct nav__span_chunks {
    _Atomic uint64_t taken; /* spans handed out in chunks */
    uint64_t capacity;      /* the pool's spans */
} nav__span_chunks;
typedef struct nav__heightfield {
    int32_t width, depth; /* columns along x and z */
    float cell, cell_height;
    nav_vec3 origin;  /* the box's low corner: column (0, 0) starts here, step 0 at its height */
    uint32_t steps;   /* the box's height in steps (spans are clamped to it) */
    uint32_t *column; /* stb_ds, width * depth (room for one more): each column's lowest span
                         (NAV__NO_SPAN: none) */
    nav__span *spans; /* stb_ds pool (a band's: the whole heightfield's, which it shares); its
                         spans 0 .. next - 1 are handed out (its length is not kept) */
    uint32_t free;    /* spans let go by merges, linked through next */
    uint64_t span_count;
    int32_t row_first, row_end; /* the rows the rasteriser writes (all of them but in a band of a
                                   parallel rasterisation) */
    nav__span_chunks *chunks;   /* a band's: the shared pool's chunks (null: the pool is its own) */
    uint32_t next, end;         /* spans next .. end - 1 are yet to be handed out: the pool's room, or
                                   a band's chunk */
    bool chunks_ran_out;        /* a band's: the shared pool had no chunk more */
    bool out_of_memory;         /* a span could not be added: the pool could not grow */
} nav__heightfield;

/* A heightfield over the box [min, max] in columns of cell and steps of cell_height. Returns
 * NAV_SUCCESS, or NAV_FAILURE with NAV_INVALID_PARAM (a cell or step that is not positive and
 * finite, an empty or non-finite box), NAV_TOO_LARGE (over 2^28 columns, or more steps than a
 * span holds) or NAV_OUT_OF_MEMORY (the heightfield is then empty). */
nav_status nav__heightfield_init(nav__heightfield *hf, nav_vec3 min, nav_vec3 max, float cell,
                                 float cell_height);
/* The same over an exact grid: width x depth columns and `steps` steps from origin (a tile's box,
 * aligned with the scene's cells). */
nav_status nav__heightfield_init_grid(nav__heightfield *hf, nav_vec3 origin, int32_t width, int32_t depth,
                                      uint32_t steps, float cell, float cell_height);
void nav__heightfield_free(nav__heightfield *hf);

/* Adds one span to column (x, z), merging it with the spans it touches or overlaps: the merged top
 * is the highest, its area that top's, or the larger area when the tops lie within merge steps.
 * False when memory has run out (hf->out_of_memory: now or before). */
bool nav__heightfield_add_span(nav__heightfield *hf, int32_t x, int32_t z, uint32_t bottom, uint32_t top,
                               uint8_t area, uint32_t merge);

/* Rasterises the triangles (a view checked by nav_triangles_check; only those listed in which
 * [opt], count of them, when which is given): the area of a triangle whose upward normal leans
 * more than max_slope degrees from the vertical (or that faces down) is 0, else its own. Spans
 * whose tops lie within merge steps merge their areas. False when memory runs out (hf->out_of_memory). */
bool nav__rasterize(nav__heightfield *hf, const nav_triangles *triangles, const uint32_t *which,
                    uint32_t count, float max_slope, uint32_t merge);

/* The same on the pool's threads (null: nav__rasterize), the heightfield (with no spans yet) cut into
 * bands of rows, each rasterised apart, taking the spans it needs in chunks of one pool made for them
 * all beforehand (room for as many spans as the triangles can add: nav__triangle_columns), so that no
 * pool grows, moves or is copied while the threads run (issue 43, defect 10: a process's first build
 * on two threads paid for each, as every change to the process's mappings stops the other thread).
 * The same spans, column by column, as nav__rasterize gives (each row's piece of a triangle is cut from
 * the triangle itself, whatever rows were cut before; only the spans' places in the pool differ).
 * False when memory runs out (hf->out_of_memory). */
bool nav__rasterize_parallel(nav__heightfield *hf, const nav_triangles *triangles, const uint32_t *which,
                             uint32_t count, float max_slope, uint32_t merge, nav__pool *pool);
/* nav__rasterize_parallel with the shared pool's room given (0: the bound, as there): when the bands
 * need more, the heightfield is rasterised again on this thread (for the tests of that case). */
bool nav__rasterize_bands(nav__heightfield *hf, const nav_triangles *triangles, const uint32_t *which,
                          uint32_t count, float max_slope, uint32_t merge, nav__pool *pool, uint64_t room);

/* An upper bound of the columns the rasteriser adds a span to for triangle a, b, c in a heightfield of
 * width x depth columns of cell from origin (so of the spans it adds there: one a column at most).
 * The build's estimate of its memory (build_memory.c) sums it over a tile's triangles. */
uint64_t nav__triangle_columns(const float *a, const float *b, const float *c, nav_vec3 origin, float cell,
                               int32_t width, int32_t depth);

/* ---- Stage 2: what an agent may stand on (openspace.c) ---------------------------------------- */

/* rows(ctx, z0, z1) for the rows 0 .. depth - 1: in the bands of rows above on the pool's threads
 * when there is a pool and rows enough, else once for all of them. Its bands must write only their own
 * rows' data. rows returns false when memory runs out; so does nav__in_bands then (bands not yet
 * started are left undone). */
bool nav__in_bands(bool (*rows)(void *ctx, int32_t z0, int32_t z1), void *ctx, int32_t depth,
                   nav__pool *pool);

/* Leaves walkable (area != 0) only the tops an agent of `height` steps that steps up or down `climb`
 * steps may stand on, in three passes, each reading the spans as the one before left them:
 *   - a low obstacle (a kerb, a stair's nose) whose top lies within climb above a walkable top
 *     becomes walkable, with that top's area (not in turn: a stack of kerbs is a wall);
 *   - a ledge is not walkable: a top beside which (in one of the four columns across its sides,
 *     with room to pass between them) the floor lies more than climb below, or beside which the
 *     floors within climb differ by more than climb (a steep slope of small steps); an empty
 *     column, or the side of the box, is a drop;
 *   - a top with less than `height` steps of room above it (to the next span's bottom) is not
 *     walkable.
 * On the pool's threads [opt] in bands of rows: each pass reads its own column's areas and only the
 * heights of its neighbours', so the result is the same on any thread count. */
void nav__filter_walkable(nav__heightfield *hf, uint32_t height, uint32_t climb, nav__pool *pool);

/* ---- Stage 3: open space --------------------------------------------------------------------- */

#define NAV__OPEN_SIDES 4
/* The sides of a cell, clockwise as seen from above with x to the right and z down: side d leads
 * to column (x + nav__side_x[d], z + nav__side_z[d]). */
static const int32_t nav__side_x[NAV__OPEN_SIDES] = {1, 0, -1, 0};
static const int32_t nav__side_z[NAV__OPEN_SIDES] = {0, 1, 0, -1};

/* The walkable tops of a heightfield, column by column (a column's tops contiguous, bottom up),
 * each with the room above it and its neighbour across each side: the top in that column an agent
 * steps to (floors within climb, with height steps of room between the higher floor and the lower
 * ceiling). Arrays from the system heap (stb_ds). */
typedef struct nav__open_space {
    int32_t width, depth;
    float cell, cell_height;
    nav_vec3 origin;
    uint32_t *column_first;            /* width * depth + 1: column c's tops are column_first[c] ..
                                          column_first[c + 1] - 1 */
    uint32_t count;                    /* tops */
    uint16_t *floor;                   /* the top's height in steps above the origin */
    uint16_t *room;                    /* steps of free space above it (0xffff: open sky) */
    uint8_t *area;                     /* its area type; 0 once erosion or a volume has taken it */
    uint32_t (*side)[NAV__OPEN_SIDES]; /* the neighbour across each side, or NAV__NO_SPAN */
    uint32_t *region;                  /* stage 5: each top's region, 1.., or 0 for none */
    uint32_t region_count;
    /* A tile's open space holds a border of columns round the tile proper, columns inner_x0 ..
     * inner_x1 - 1 and inner_z0 .. inner_z1 - 1 (all of them when built alone): the border's
     * tops shape the tile's (erosion sees past the tile's edge) but are in no region. */
    int32_t inner_x0, inner_z0, inner_x1, inner_z1;
} nav__open_space;

/* The tops of rows z0 .. z1 - 1: *first .. *end - 1. */
static inline void nav__open_space_rows(const nav__open_space *os, int32_t z0, int32_t z1, uint32_t *first,
                                        uint32_t *end)
{
    *first = os->column_first[(size_t)z0 * (size_t)os->width];
    *end = os->column_first[(size_t)z1 * (size_t)os->width];
}

/* The region across an edge to a walkable top of the border: the tile's edge, where a polygon of the
 * tile next to it continues. */
#define NAV__BORDER_REGION (UINT32_MAX - 1)

/* Whether column (x, z) lies in the tile proper. */
static inline bool nav__open_space_inner(const nav__open_space *os, int32_t x, int32_t z)
{
    return x >= os->inner_x0 && x < os->inner_x1 && z >= os->inner_z0 && z < os->inner_z1;
}

/* The open space of a filtered heightfield, which it takes: the heightfield is let go (empty, as
 * nav__heightfield_free leaves it) once its tops are read, before the links are made, so that the
 * build never holds the spans and the links at once (issue 43, defect 10: the smaller the peak, the
 * fewer pages a process's first build takes from the system). Links are kept only both ways (a top
 * links to one across a side only when that one links back), so that an outline traced over them
 * closes. The links are found on the pool's threads [opt] in bands of rows. False when memory runs out
 * (os is then empty, and the heightfield too). */
bool nav__open_space_build(nav__open_space *os, nav__heightfield *hf, uint32_t height, uint32_t climb,
                           nav__pool *pool);
void nav__open_space_free(nav__open_space *os);

/* ---- Stage 4: erosion and marked volumes ----------------------------------------------------- */

/* Takes (area 0) every top nearer than `radius` cells to the edge of the walkable tops: a
 * top with fewer than four walkable neighbours is on the edge, and the distance of the others is
 * the 2-3 chamfer distance to the edge (Borgefors, "Distance transformations in digital images",
 * 1986: 2 a side, 3 a diagonal, two passes), in half cells; tops closer than 2 * radius go, so the
 * edge moves in by radius cells. On the pool's threads [opt] in bands of rows, each band's passes
 * over its rows and radius rows either side (all a distance under 2 * radius depends on): the same
 * tops go on any thread count. False when memory runs out (none taken then). */
bool nav__open_space_erode(nav__open_space *os, uint32_t radius, nav__pool *pool);

/* Sets to `area` the tops whose cell centre lies in the convex polygon (point_count points, x and
 * z pairs, either winding) and whose floor lies within [min_y, max_y] (world units). */
void nav__open_space_mark(nav__open_space *os, const float *points, uint32_t point_count, float min_y,
                          float max_y, uint8_t area);

/* ---- Stage 5: regions (partition.c) ----------------------------------------------------------- */

/* Takes (area 0) the walkable tops of every connected piece (over links) smaller than min_tops:
 * islands no agent can reach or use, such as the tops of furniture. A piece that reaches a tile's
 * border may go on in the next tile, and stays. The pieces are joined in bands of rows on the pool's
 * threads [opt], then across the bands: the same pieces on any thread count. False when memory runs out
 * (nothing dropped). */
bool nav__open_space_drop_islands(nav__open_space *os, uint32_t min_tops, nav__pool *pool);

/* Partitions the walkable tops of the tile proper into regions of one area type each whose outline is a
 * simple polygon seen from above: a monotone sweep (rows in z, runs in x over links, a run joining the region
 * of the row before when that region meets no other run of the row and the run meets no other region). Each
 * region has one run a row, each run overlapping the one before over a link: no holes, no overlap of a region
 * with itself, whatever floors lie above one another. Fills os->region. False when memory runs out (os is
 * then only good for freeing). */
bool nav__open_space_partition(nav__open_space *os);

/* ---- Stage 6: contours (contour.c) ------------------------------------------------------------- */

/* One point of a region's outline: a cell corner (x, z in cells from the origin), its height in
 * steps (the highest floor of the linked tops round the corner), and the region across the edge
 * from this point to the next (0: a wall, the edge of the walkable space; NAV__BORDER_REGION: the
 * tile's edge). */
typedef struct nav__contour_point {
    int32_t x, y, z;
    uint32_t neighbour;
} nav__contour_point;

/* The outlines of all regions: region r's points are points[first[r - 1] .. first[r] - 1], in
 * order round it, clockwise as seen from above with x to the right and z down (the region on the
 * right of each edge). */
typedef struct nav__contours {
    nav__contour_point *points; /* stb_ds */
    uint32_t *first;            /* stb_ds, region_count + 1 */
    uint32_t region_count;
} nav__contours;

/* Traces each region's outline along cell edges, then simplifies it: the points where the region
 * across changes stay; between them, points are added back farthest first (Douglas and Peucker)
 * until the outline is within max_error cells of the traced one, taken in the same order from both
 * sides of an edge two regions share so that both get the same points (along a tile's edge, only
 * the ends: it is straight); walls longer than max_edge cells (0: no limit) are split. It takes at most
 * `bytes` (UINT64_MAX: no limit), its arrays checked before they grow. Returns NAV_SUCCESS, or
 * NAV_FAILURE with NAV_CORRUPT_DATA when an outline does not close (the links are not symmetric: a
 * fault), NAV_OUT_OF_MEMORY or NAV_TOO_LARGE (more than `bytes`); out is then empty. */
nav_status nav__contours_build(nav__contours *out, const nav__open_space *os, float max_error, float max_edge,
                               uint64_t bytes);
void nav__contours_free(nav__contours *c);

/* ---- Stage 7: polygons (polygonize.c) --------------------------------------------------------- */

/* Convex polygons over the regions, in cell corners and steps, with their neighbours. */
typedef struct nav__polygons {
    int32_t *x, *y, *z;   /* stb_ds, per vertex: its cell corner (x, z) and height in steps */
    uint32_t *poly_first; /* stb_ds: a leading 0, then where each polygon's vertices end */
    uint32_t *poly_verts; /* stb_ds: vertex ids; edge e runs from poly_verts[e] to the next */
    uint8_t *poly_area;   /* stb_ds: each polygon's area type */
    uint32_t *edge_twin;  /* stb_ds: per edge, the same edge reversed in the polygon across it, or
                             UINT32_MAX (a wall, a border between areas) */
    /* stage 8, per polygon: its height triangles (detail.c), their own points in cells and steps
     * (x, y, z floats), detail_points[3 * detail_point_first[p] ..], and triangles of 3 of them
     * (indices from the polygon's first), detail_tris[3 * detail_tri_first[p] ..] */
    float *detail_points;
    uint32_t *detail_point_first; /* stb_ds, a leading 0 then an end a polygon (none: no detail) */
    uint8_t *detail_tris;
    uint32_t *detail_tri_first;
    uint32_t *poly_region_first, *poly_regions; /* stb_ds: each polygon's regions, poly_regions[
                                                   poly_region_first[p] .. [p + 1] - 1] (stage 7) */
    uint32_t triangles;                         /* cut from the outlines */
    uint32_t failed_regions; /* outlines the simplification made cross themselves, cut in part */
} nav__polygons;

/* Cuts each outline into triangles (ear clipping, the shortest diagonal first), welds points at the
 * same corner and height into one vertex, flips the triangles to the constrained Delaunay
 * triangulation (walls and borders between area types fixed) and merges them into convex polygons
 * of at most max_verts vertices, across regions of one area type (merge.h). Vertices are moved by
 * (dx, dz) cells (a tile's place in the scene). No neighbours yet (nav__polygons_stitch). An outline
 * that could not be cut whole counts in out->failed_regions (the rest is whole). False when memory runs
 * out (out is then only good for nav__polygons_free). */
bool nav__polygons_build(nav__polygons *out, const nav__contours *contours, const nav__open_space *os,
                         uint32_t max_verts, int32_t dx, int32_t dz);

/* ---- Stage 8: heights (detail.c) -------------------------------------------------------------- */

/* Gives each polygon (vertices in the scene's cells; the open space's columns are the scene's moved
 * by (dx, dz)) triangles that follow the floor under it, as Recast's detail mesh does: points along
 * each edge every `sample` cells, kept where the floor strays more than max_error steps from the
 * edge's line (read from the edge's lower end, so the polygons either side keep the same ones), then
 * points inside on a grid of `sample` cells added where the floor strays most, one at a time, into a
 * Delaunay triangulation (Bowyer and Watson), until none strays more than max_error (or 250 points).
 * The floor at a point: the top of its column (or of the 8 around it) nearest to the height the
 * triangles give there, within `reach` steps. The polygons run in 16 runs on the pool's threads
 * (null: in one run on the calling thread), joined in order: the same on any thread count. False when
 * memory runs out (p is then only good for nav__polygons_free). */
bool nav__polygons_detail(nav__polygons *p, const nav__open_space *os, int32_t dx, int32_t dz, float sample,
                          float max_error, int32_t reach, nav__pool *pool);

/* Appends the polygons of `add` to `all`, welding vertices at the same corner and height
 * (weld: the index of all's vertices, kept between calls). False when memory runs out (all is then
 * only good for freeing). */
bool nav__polygons_append(nav__polygons *all, const nav__polygons *add, nav__index *weld);

/* Joins the polygons: along the lines between tiles (every tile_size cells from column and row 0;
 * 0: none), each polygon edge on a line takes the vertices of the other side's polygons that lie
 * inside it (at a height within `climb` steps of it), so that both sides have the same edges;
 * polygons grown over NAV_MESH_MAX_POLY_VERTS are halved. Then finds each edge's twin (the same
 * two vertices reversed) and splits vertices where polygons meet at a point only (a pinch, or two
 * floors touching at a corner), so that a vertex's polygons are always one fan. False when memory runs
 * out (p is then only good for nav__polygons_free). */
bool nav__polygons_stitch(nav__polygons *p, int32_t tile_size, int32_t climb);
void nav__polygons_free(nav__polygons *p);

#endif
