/* A navigation mesh from level geometry (nav/geometry.h): the stages of voxel.h in order, timed,
 * their counts kept for the summary. The plan and its tests: docs/geometry_build.md. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "ds.h"
#include "log.h"
#include "mesh_internal.h"
#include "nav/geometry.h"
#include "voxel.h"

static const char *const stage_names[NAV_GEOMETRY_STAGES] = {
    "rasterize", "filter", "open space", "erode", "regions", "contours", "polygons", "mesh",
};

const char *nav_geometry_stage_name(nav_geometry_stage stage)
{
    return (unsigned)stage < NAV_GEOMETRY_STAGES ? stage_names[stage] : "?";
}

nav_geometry_build_desc nav_geometry_build_desc_defaults(const nav_geometry_build_desc *desc)
{
    nav_geometry_build_desc d = desc ? *desc : (nav_geometry_build_desc){0};
    if (d.cell_size == 0) d.cell_size = 0.3f;
    if (d.cell_height == 0) d.cell_height = 0.2f;
    if (d.agent_height == 0) d.agent_height = 2.0f;
    if (d.agent_radius == 0) d.agent_radius = 0.6f;
    if (d.agent_radius < 0) d.agent_radius = 0;
    if (d.agent_climb == 0) d.agent_climb = 0.9f;
    if (d.agent_climb < 0) d.agent_climb = 0;
    if (d.max_slope == 0) d.max_slope = 45;
    if (d.min_island_area == 0) d.min_island_area = 64 * d.cell_size * d.cell_size;
    if (d.min_island_area < 0) d.min_island_area = 0;
    if (d.max_edge_length == 0) d.max_edge_length = 12;
    if (d.max_edge_length < 0) d.max_edge_length = 0;
    if (d.max_edge_error == 0) d.max_edge_error = 1.3f * d.cell_size;
    if (d.max_poly_verts == 0) d.max_poly_verts = 6;
    if (d.link_extents.x == 0) d.link_extents.x = d.cell_size;
    if (d.link_extents.y == 0) d.link_extents.y = d.agent_height;
    if (d.link_extents.z == 0) d.link_extents.z = d.cell_size;
    return d;
}

static bool positive(float v)
{
    return v > 0 && isfinite(v);
}

static bool non_negative(float v)
{
    return v >= 0 && isfinite(v);
}

/* The first fault of resolved options, or null. */
static const char *check_desc(const nav_geometry_build_desc *d)
{
    if (!positive(d->cell_size) || !positive(d->cell_height)) return "cell size and height must be positive";
    if (!positive(d->agent_height)) return "agent height must be positive";
    if (!non_negative(d->agent_radius) || !non_negative(d->agent_climb))
        return "agent radius and climb must be finite";
    if (!(d->max_slope > 0 && d->max_slope < 90)) return "max slope must lie between 0 and 90 degrees";
    if (!non_negative(d->min_island_area) || !non_negative(d->max_edge_length) ||
        !non_negative(d->max_edge_error))
        return "island area, edge length and edge error must be finite";
    if (d->max_poly_verts < 3 || d->max_poly_verts > NAV_MESH_MAX_POLY_VERTS)
        return "max polygon vertices must lie between 3 and 32";
    if (d->agent_height / d->cell_height > 65535 || d->agent_climb / d->cell_height > 65535 ||
        d->agent_radius / d->cell_size > 8192 || d->max_edge_length / d->cell_size > 1e9f)
        return "agent limits too large for the cells";
    if (d->volume_count && !d->volumes) return "volume count without volumes";
    for (uint32_t i = 0; i < d->volume_count; i++) {
        const nav_geometry_volume *v = &d->volumes[i];
        if (v->point_count < 3 || !v->points || !(v->min_y <= v->max_y))
            return "a volume needs 3 points and min_y <= max_y";
        for (uint32_t k = 0; k < 2 * v->point_count; k++)
            if (!isfinite(v->points[k])) return "a volume's points must be finite";
    }
    if (d->link_count && !d->links) return "link count without links";
    if (d->area_cost)
        for (int a = 0; a < 256; a++)
            if (!nav_terrain_cost_valid(d->area_cost[a])) return "an area cost is out of range";
    return NULL;
}

typedef struct timer {
    struct timespec at;
    nav_geometry_build_stats *stats;
    const nav_progress *progress;
} timer;

static double since(struct timespec *at)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double ms = (double)(now.tv_sec - at->tv_sec) * 1e3 + (double)(now.tv_nsec - at->tv_nsec) * 1e-6;
    *at = now;
    return ms;
}

/* Ends a stage: its time, and the progress callback told the next one begins. False: cancelled. */
static bool end_stage(timer *t, nav_geometry_stage stage)
{
    t->stats->stage_ms[stage] = since(&t->at);
    t->stats->total_ms += t->stats->stage_ms[stage];
    const nav_progress *p = t->progress;
    if (!p || !p->fn) return true;
    char name[48];
    int next = stage + 1 < NAV_GEOMETRY_STAGES ? stage + 1 : stage;
    (void)snprintf(name, sizeof name, "geometry: %s", stage_names[next]);
    return p->fn(name, (uint64_t)stage + 1, NAV_GEOMETRY_STAGES, p->user);
}

/* The mesh of the polygons. */
static nav_status make_mesh(const nav__polygons *p, const nav__open_space *os,
                            const nav_geometry_build_desc *d, nav_mesh **out)
{
    uint32_t polys = (uint32_t)arrlenu(p->poly_first) - 1, edges = (uint32_t)arrlenu(p->poly_verts);
    uint32_t verts = (uint32_t)arrlenu(p->x);
    nav_vec3 *world = NULL;
    uint32_t *edge_poly = NULL, *owner = NULL;
    uint8_t *edge_flags = NULL;
    uint16_t *flags = NULL;
    arrsetlen(world, verts);
    for (uint32_t v = 0; v < verts; v++)
        world[v] = (nav_vec3){os->origin.x + (float)p->x[v] * os->cell,
                              os->origin.y + (float)p->y[v] * os->cell_height,
                              os->origin.z + (float)p->z[v] * os->cell};
    arrsetlen(owner, edges);
    arrsetlen(edge_poly, edges);
    arrsetlen(edge_flags, edges);
    if (edges) memset(edge_flags, 0, edges);
    for (uint32_t q = 0; q < polys; q++)
        for (uint32_t e = p->poly_first[q]; e < p->poly_first[q + 1]; e++) owner[e] = q;
    for (uint32_t e = 0; e < edges; e++)
        edge_poly[e] = p->edge_twin[e] == UINT32_MAX ? NAV_MESH_NO_POLY : owner[p->edge_twin[e]];
    arrsetlen(flags, polys);
    double cost[256];
    for (int a = 0; a < 256; a++) cost[a] = NAV_COST_BLOCKED;
    for (uint32_t q = 0; q < polys; q++) {
        uint8_t a = p->poly_area[q];
        uint16_t f = d->area_flags ? d->area_flags[a] : 0;
        flags[q] = f ? f : NAV_POLY_FLAG_WALK;
        cost[a] = d->area_cost ? d->area_cost[a] : 1.0;
    }
    nav__mesh_draft draft = {
        .verts = world,
        .vert_count = verts,
        .poly_first = p->poly_first,
        .edge_vert = p->poly_verts,
        .edge_poly = edge_poly,
        .edge_flags = edge_flags,
        .poly_area = p->poly_area,
        .poly_flags = flags,
        .poly_count = polys,
        .area_cost = cost,
        .cell_size = os->cell,
    };
    nav_status s = nav__mesh_finish(&draft, d->allocator, d->log, out);
    arrfree(world);
    arrfree(edge_poly);
    arrfree(owner);
    arrfree(edge_flags);
    arrfree(flags);
    if (nav_succeeded(s) && d->link_count) {
        s = nav__mesh_add_links(*out, d->links, d->link_count, d->link_extents);
        if (nav_failed(s)) {
            nav_mesh_destroy(*out);
            *out = NULL;
        }
    }
    return s;
}

nav_status nav_mesh_build_from_geometry(const nav_triangles *triangles, const nav_geometry_build_desc *desc,
                                        nav_mesh **out, nav_geometry_build_stats *stats)
{
    nav_geometry_build_stats local;
    if (!stats) stats = &local;
    *stats = (nav_geometry_build_stats){0};
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    nav_geometry_build_desc d = nav_geometry_build_desc_defaults(desc);
    const char *fault = check_desc(&d);
    if (fault) {
        nav__logf(d.log, NAV_LOG_ERROR, "geometry: %s", fault);
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    if (!triangles) {
        nav__logf(d.log, NAV_LOG_ERROR, "geometry: no triangles");
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    nav_status s = nav_triangles_check(triangles, d.log);
    if (nav_failed(s)) return s;
    stats->triangles = triangles->triangle_count;
    nav_vec3 lo, hi;
    if (!nav_triangles_bounds(triangles, &lo, &hi)) {
        nav__logf(d.log, NAV_LOG_ERROR, "geometry: no triangles");
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    uint32_t height = (uint32_t)ceilf(d.agent_height / d.cell_height);
    uint32_t climb = (uint32_t)floorf(d.agent_climb / d.cell_height);
    uint32_t radius = (uint32_t)ceilf(d.agent_radius / d.cell_size);
    uint32_t islands = (uint32_t)ceilf(d.min_island_area / (d.cell_size * d.cell_size));

    timer t = {.stats = stats, .progress = d.progress};
    clock_gettime(CLOCK_MONOTONIC, &t.at);
    nav__heightfield hf;
    s = nav__heightfield_init(&hf, lo, hi, d.cell_size, d.cell_height);
    if (nav_succeeded(s) && (hf.width > 65534 || hf.depth > 65534)) {
        nav__heightfield_free(&hf);
        s = NAV_FAILURE | NAV_TOO_LARGE;
    }
    if (nav_failed(s)) {
        nav__logf(d.log, NAV_LOG_ERROR,
                  "geometry: the level's box makes too many voxels for cells of %g x %g", (double)d.cell_size,
                  (double)d.cell_height);
        return s;
    }
    stats->width = hf.width, stats->depth = hf.depth;
    nav__open_space os = {0};
    nav__contours contours = {0};
    nav__polygons polygons = {0};
    s = NAV_FAILURE | NAV_WRONG_STATE;
    nav__rasterize(&hf, triangles, d.max_slope, climb);
    stats->spans = hf.span_count;
    if (!end_stage(&t, NAV_GEOMETRY_RASTERIZE)) goto done;
    nav__filter_walkable(&hf, height, climb);
    if (!end_stage(&t, NAV_GEOMETRY_FILTER)) goto done;
    nav__open_space_build(&os, &hf, height, climb);
    nav__heightfield_free(&hf);
    stats->tops = os.count;
    if (!end_stage(&t, NAV_GEOMETRY_OPEN_SPACE)) goto done;
    nav__open_space_erode(&os, radius);
    for (uint32_t i = 0; i < d.volume_count; i++) {
        const nav_geometry_volume *v = &d.volumes[i];
        nav__open_space_mark(&os, v->points, v->point_count, v->min_y, v->max_y, v->area);
    }
    nav__open_space_drop_islands(&os, islands);
    for (uint32_t i = 0; i < os.count; i++) stats->kept_tops += os.area[i] != 0;
    if (!end_stage(&t, NAV_GEOMETRY_ERODE)) goto done;
    nav__open_space_partition(&os);
    stats->regions = os.region_count;
    if (!end_stage(&t, NAV_GEOMETRY_REGIONS)) goto done;
    float max_edge = d.max_edge_length / d.cell_size;
    if (!nav__contours_build(&contours, &os, d.max_edge_error / d.cell_size, max_edge)) {
        nav__logf(d.log, NAV_LOG_ERROR,
                  "geometry: a region's outline does not close (a bug: please report it)");
        s = NAV_FAILURE | NAV_CORRUPT_DATA;
        goto done;
    }
    stats->contour_points = (uint32_t)arrlenu(contours.points);
    if (!end_stage(&t, NAV_GEOMETRY_CONTOURS)) goto done;
    if (!nav__polygons_build(&polygons, &contours, &os, d.max_poly_verts))
        nav__logf(d.log, NAV_LOG_WARNING,
                  "geometry: %u outlines crossed themselves once simplified and were cut in part",
                  polygons.failed_regions);
    stats->failed_regions = polygons.failed_regions;
    if (!end_stage(&t, NAV_GEOMETRY_POLYGONS)) goto done;
    s = make_mesh(&polygons, &os, &d, out);
    if (nav_succeeded(s)) {
        stats->polygons = nav_mesh_poly_count(*out);
        stats->vertices = nav_mesh_vert_count(*out);
        stats->bytes = nav_mesh_memory_bytes(*out);
        stats->stage_ms[NAV_GEOMETRY_MESH] = since(&t.at);
        stats->total_ms += stats->stage_ms[NAV_GEOMETRY_MESH];
    }
done:
    nav__heightfield_free(&hf);
    nav__open_space_free(&os);
    nav__contours_free(&contours);
    nav__polygons_free(&polygons);
    return s;
}
