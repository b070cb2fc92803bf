/* Private: the mesh's layout, shared by its builder, its queries and (later) its file chunk. */
#ifndef NAV_MESH_INTERNAL_H
#define NAV_MESH_INTERNAL_H

#include <math.h>

#include "nav/mesh.h"

#define NAV__EDGE_ONE_WAY 0x01u /* the neighbour may not be entered through this edge */
#define NAV__VERT_CORNER                                                                                     \
    0x01u /* a vertex on the mesh's boundary where the free space turns by more                              \
           * than a half turn: the only places a shortest path bends */

/* An off-mesh link: its two end points on the mesh (inside their polygons, exactly), their
 * polygons, and what the caller gave. */
typedef struct nav__mesh_link {
    nav_vec3 start, end;
    uint32_t start_poly, end_poly;
    double cost; /* of walking it once, either way */
    uint32_t user_id;
    uint16_t flags;
    uint8_t bidirectional;
} nav__mesh_link;

struct nav_mesh {
    nav_allocator allocator;
    nav_log log;
    uint32_t vert_count, poly_count, edge_count;
    nav_vec3 *verts;
    /* Polygon p owns edges poly_first[p] .. poly_first[p + 1] - 1; edge e runs from vertex
     * edge_vert[e] to the vertex of the polygon's next edge. */
    uint32_t *poly_first;
    uint32_t *edge_vert;
    uint32_t *edge_poly;  /* the polygon across edge e, or NAV_MESH_NO_POLY */
    uint32_t *edge_twin;  /* the same edge in that polygon, or NAV_MESH_NO_POLY */
    uint32_t *edge_owner; /* the polygon edge e belongs to */
    uint8_t *edge_flags;  /* NAV__EDGE_ONE_WAY */
    uint8_t one_way;      /* some edge is one-way (derived at build and load): no landmarks then */
    uint8_t *poly_area;
    uint16_t *poly_flags;
    uint32_t *poly_component; /* 1.. for polygons joined by edges either way */
    uint8_t *vert_flags;      /* NAV__VERT_CORNER (derived from the rest at build and load) */
    double area_cost[256];    /* NAV_COST_BLOCKED for area types no polygon uses */
    uint64_t source_fingerprint;
    float cell_size; /* the source grid's, for default search extents */
    /* Spatial index: a grid of square buckets over the (x, z) bounds; bucket b lists the polygons
     * whose bounding box overlaps it, bucket_polys[bucket_first[b] .. bucket_first[b + 1] - 1]. */
    float bounds_min[3], bounds_max[3];
    float bucket_size;
    uint32_t bucket_w, bucket_h;
    uint32_t *bucket_first;
    uint32_t *bucket_polys;
    uint32_t bucket_poly_count;
    /* Off-mesh links, and the ways out of each polygon along them: poly_links[poly_link_first[p] ..
     * poly_link_first[p + 1] - 1] are link * 2 (start to end) or link * 2 + 1 (end to start, for
     * a two-way link) leaving polygon p. */
    uint32_t link_count;
    nav__mesh_link *links;
    uint32_t *poly_link_first;
    uint32_t *poly_links;
    /* Dead-end regions (regions.c, derived at build and load): a step out of polygon edge_owner[e]
     * across e leads into the part of the block-cut tree under node edge_region[e] & ~OUTSIDE (or,
     * with NAV__REGION_OUTSIDE, everything outside it), and is no use unless the goal's polygon
     * p has poly_region[p] in (or out of) [region_range[2 t], region_range[2 t + 1]).
     * NAV__REGION_NONE: a step that leads anywhere. */
    uint32_t region_count;
    uint32_t *edge_region;
    uint32_t *region_range;
    uint32_t *poly_region;
    /* Landmarks (landmarks.c): landmark_dist[v * landmark_count + l] is the shortest distance from
     * landmark l (point landmark_x/z[l] of polygon landmark_poly[l]) to vertex v, or -1 where unknown (a
     * pinch or another component: for every landmark; a vertex l does not reach over one-way steps);
     * landmark_slack covers the floats' rounding in a bound made of two of them.
     */
    uint32_t landmark_count;
    float *landmark_dist;
    double landmark_slack;
    uint32_t landmark_poly[NAV_MESH_MAX_LANDMARKS]; /* where each landmark lies */
    double landmark_x[NAV_MESH_MAX_LANDMARKS], landmark_z[NAV_MESH_MAX_LANDMARKS];
    /* Heights (a mesh built from level geometry): polygon p's floor follows the triangles
     * detail_tris[3 * poly_detail_first[p] .. 3 * poly_detail_first[p + 1] - 1] (indices into
     * detail_verts), which cover it; null poly_detail_first: the fan of its corners. */
    uint32_t detail_vert_count, detail_tri_count;
    nav_vec3 *detail_verts;
    uint32_t *detail_tris;
    uint32_t *poly_detail_first;
    /* worked out when the mesh is made: polygon p's one height where its floor is flat (every point
     * of its height triangles, or every corner, at it), else NAN (nav__mesh_poly_height) */
    float *poly_flat_y;
};

/* Union-find over indices: the root of p's set (halving the path), and joining two sets (the lower
 * index becomes the root). */
static inline uint32_t nav__find_root(uint32_t *parent, uint32_t p)
{
    while (parent[p] != p) {
        parent[p] = parent[parent[p]];
        p = parent[p];
    }
    return p;
}

static inline void nav__join(uint32_t *parent, uint32_t a, uint32_t b)
{
    a = nav__find_root(parent, a);
    b = nav__find_root(parent, b);
    if (a != b) parent[a > b ? a : b] = a < b ? a : b;
}

#define NAV__REGION_NONE    UINT32_MAX
#define NAV__REGION_OUTSIDE 0x80000000u

/* Derives the dead-end regions from the edges and links (again after links are attached). */
nav_status nav__mesh_label_regions(nav_mesh *mesh);
void nav__mesh_free_regions(nav_mesh *mesh);

/* Whether a step across edge e can lead to a goal whose polygon sits at goal_region (its
 * poly_region). */
static inline bool nav__mesh_step_useful(const nav_mesh *m, uint32_t e, uint32_t goal_region)
{
    uint32_t r = m->edge_region[e];
    if (r == NAV__REGION_NONE) return true;
    uint32_t t = r & ~NAV__REGION_OUTSIDE;
    bool inside = m->region_range[2 * t] <= goal_region && goal_region < m->region_range[2 * t + 1];
    return inside != ((r & NAV__REGION_OUTSIDE) != 0);
}

/* A mesh under construction: the builder fills these plain arrays (its own memory), then
 * nav__mesh_finish copies them into a mesh made through the allocator and derives the rest: twin
 * edges (by matching each edge's (x, z) end points with a reversed edge of another polygon), the
 * one-way flags are the builder's, components and the spatial index. */
typedef struct nav__mesh_draft {
    const nav_vec3 *verts;
    uint32_t vert_count;
    const uint32_t *poly_first; /* poly_count + 1 entries */
    const uint32_t *edge_vert;
    const uint32_t *edge_poly; /* neighbour across each edge, already known */
    const uint8_t *edge_flags;
    const uint8_t *poly_area;
    const uint16_t *poly_flags;
    uint32_t poly_count;
    const double *area_cost; /* 256 */
    uint64_t source_fingerprint;
    float cell_size;
    /* [opt] heights: as nav_mesh's (null poly_detail_first: none) */
    const nav_vec3 *detail_verts;
    const uint32_t *detail_tris;
    const uint32_t *poly_detail_first;
    uint32_t detail_vert_count, detail_tri_count;
} nav__mesh_draft;

/* Makes the mesh from a draft (twins, components, index). Returns NAV_SUCCESS or NAV_FAILURE with
 * NAV_OUT_OF_MEMORY, NAV_TOO_LARGE or NAV_CORRUPT_DATA (a draft whose adjacency is not symmetric). */
nav_status nav__mesh_finish(const nav__mesh_draft *draft, const nav_allocator *allocator, const nav_log *log,
                            nav_mesh **out);

/* Adds links to a finished mesh that has none (its components then join across them), after
 * checking each: polygons in range, end points finite and inside their polygons, a finite cost
 * >= 0, bidirectional 0 or 1. Returns NAV_SUCCESS or NAV_FAILURE with NAV_OUT_OF_MEMORY or
 * NAV_CORRUPT_DATA (the log says which link and why). */
nav_status nav__mesh_attach_links(nav_mesh *mesh, const nav__mesh_link *links, uint32_t count);

/* Locates the ends of off-mesh links on a finished mesh that has none (within extents, as
 * nav_mesh_locate) and adds them. Returns NAV_SUCCESS or NAV_FAILURE with NAV_INVALID_PARAM (an end
 * off the mesh, a bad cost: the log says which) or NAV_OUT_OF_MEMORY. */
nav_status nav__mesh_add_links(nav_mesh *mesh, const nav_mesh_link_desc *links, uint32_t count,
                               nav_vec3 extents);

/* The length of (dx, dz). Not hypot: libm's guards against overflow cost a quarter of a query's
 * time, and mesh coordinates are far from overflowing a square. */
static inline double nav__length(double dx, double dz)
{
    return sqrt(dx * dx + dz * dz);
}

/* The distance from (ax, az) to (bx, bz). */
static inline double nav__dist(double ax, double az, double bx, double bz)
{
    return nav__length(bx - ax, bz - az);
}

/* (p - o) x (q - o): positive when q lies left of o -> p (x to the right, z up). */
static inline double nav__cross(double ox, double oz, double px, double pz, double qx, double qz)
{
    return (px - ox) * (qz - oz) - (pz - oz) * (qx - ox);
}

/* How a point a (a funnel's apex) sees portal u-w. */
enum {
    NAV__SEES_ALL = 0, /* off the portal's line: as usual */
    NAV__SEES_U = 1,   /* on its line but off it, nearer u: only along the line, so a path through */
    NAV__SEES_W = 2,   /* it reaches the near end first, and the portal counts as that one point */
    NAV__SEES_ON = 3   /* on the portal: a lies in the polygon beyond too and sees all of it */
};
static inline int nav__portal_view(double ax, double az, double ux, double uz, double wx, double wz)
{
    if (nav__cross(ax, az, ux, uz, wx, wz) != 0) return NAV__SEES_ALL;
    if ((ux - ax) * (wx - ax) + (uz - az) * (wz - az) <= 0) return NAV__SEES_ON;
    double du = (ux - ax) * (ux - ax) + (uz - az) * (uz - az);
    double dw = (wx - ax) * (wx - ax) + (wz - az) * (wz - az);
    return du <= dw ? NAV__SEES_U : NAV__SEES_W;
}

/* The spatial index's bucket (along one axis) of coordinate v, clamped into the grid. */
static inline uint32_t nav__mesh_bucket_coord(float v, float min, float size, uint32_t count)
{
    double c = floor(((double)v - (double)min) / (double)size);
    if (c < 0) return 0;
    if (c >= (double)count) return count - 1;
    return (uint32_t)c;
}

/* A level's mesh (built from level geometry: no source grid) may have floors above floors; a grid's
 * has one floor over each ground point. Locating points differs (nav/mesh.h, "Locating points"). */
static inline bool nav__mesh_is_level(const nav_mesh *m)
{
    return m->source_fingerprint == 0;
}

/* The polygon nearest to point (x, y, z) within half extents ex, ey, ez (resolved: INFINITY for
 * any height), by nav_mesh_locate's rule, or NAV_MESH_NO_POLY for none; *nearest its point nearest
 * (on its floor) and *distance2 the point's distance from it, squared, as the rule measures it. */
uint32_t nav__mesh_nearest(const nav_mesh *m, double x, double y, double z, double ex, double ey, double ez,
                           nav_vec3 *nearest, double *distance2);

/* Point (x, z) against polygon p, in doubles: true when inside or on its boundary. */
bool nav__mesh_poly_contains_xz(const nav_mesh *mesh, uint32_t p, double x, double z);
/* The same for (x, z) and, when that is in, for (x2, z2) into *second: one walk round p for two. */
bool nav__mesh_poly_contains2_xz(const nav_mesh *mesh, uint32_t p, double x, double z, double x2, double z2,
                                 bool *second);
/* The point of polygon p nearest to (x, z). */
void nav__mesh_poly_closest_xz(const nav_mesh *mesh, uint32_t p, double x, double z, double *cx, double *cz);
/* The floor height of polygon p at (x, z): its height triangles' (the one holding the point, or the
 * one it lies least outside), or the fan of its corners from the first. */
float nav__mesh_poly_height(const nav_mesh *mesh, uint32_t p, double x, double z);

/* How far a point over polygon p (its (x, z) in p's area) at height y is from p, squared, with
 * *dy its height above or below p's floor there: the height less the mesh's tolerance (any height
 * on a grid's mesh), never below 0. */
static inline double nav__mesh_over_distance2(const nav_mesh *m, uint32_t p, double x, double y, double z,
                                              double *dy)
{
    *dy = fabs((double)nav__mesh_poly_height(m, p, x, z) - y);
    double off = nav__mesh_is_level(m) ? *dy - NAV_MESH_LEVEL_HEIGHT_TOLERANCE : 0;
    return off > 0 ? off * off : 0;
}

/* One portal of a corridor, as a walker crossing it sees it: its left and right end points (x, z
 * in doubles, y the floor of the polygon entered). The last portal of a corridor is the goal, with
 * left and right both the goal point. */
typedef struct nav__portal {
    double left_x, left_z, right_x, right_z;
    float left_y, right_y;
} nav__portal;

/* The funnel algorithm (Mononen's "simple stupid funnel"): the shortest path from start through the
 * portals of a corridor of polygons (corridor[i] leads through portals[i] into corridor[i + 1];
 * the last portal is the goal). Appends the start, each corner and the goal to out (nodes: the
 * polygon of each point, flags[j] the NAV_MESH_POINT_* flags of out's point j; flags holds room
 * for out->count + count + 1 entries) and
 * returns the path's cost: its length in each polygon times area_cost[i] of corridor[i]
 * (area_cost [opt]: null when every polygon costs 1). Returns NAV_SUCCESS or
 * NAV_FAILURE | NAV_OUT_OF_MEMORY (out cannot grow). */
nav_status nav__funnel(nav_vec3 start, const nav__portal *portals, const uint32_t *corridor,
                       const double *area_cost, uint32_t count, nav_path *out, uint8_t *flags, double *cost);

#endif
