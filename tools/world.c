/* navtool's picture of a world, seen from above: every region in a colour of its own (grids cell by
 * cell, meshes polygon by polygon, waypoint graphs as roads and dots), higher floors over lower
 * ones, the links as lines with their ends marked (grey when switched off), and a route on top, each
 * leg in its region's colour. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "navtool.h"
#include "raster.h"

/* Strong colours for routes; regions are drawn in pale versions of them. */
static const rgb region_colours[] = {{214, 96, 24}, {178, 40, 150}, {30, 120, 210}, {120, 80, 30},
                                     {30, 150, 80}, {200, 30, 50},  {90, 70, 200},  {20, 150, 160}};
static const rgb void_colour = {52, 56, 64}, wall_colour = {28, 28, 34}, link_on = {250, 210, 40},
                 link_off = {150, 150, 150}, start_colour = {30, 160, 30}, goal_colour = {20, 40, 190};

static rgb colour_of(uint32_t region)
{
    return region_colours[region % (sizeof region_colours / sizeof region_colours[0])];
}

typedef struct view {
    double min_x, min_z, scale; /* pixels a world unit */
    size_t pw, ph;
    uint8_t *pixels;
} view;

static void to_pixel(const view *v, nav_vec3 p, int64_t *x, int64_t *y)
{
    *x = (int64_t)floor((p.x - v->min_x) * v->scale);
    *y = (int64_t)floor((p.z - v->min_z) * v->scale);
}

static void grow(double box[4], nav_vec3 p)
{
    box[0] = fmin(box[0], p.x), box[1] = fmin(box[1], p.z), box[2] = fmax(box[2], p.x),
    box[3] = fmax(box[3], p.z);
}

/* The world's extent in x and z. */
static void bounds(const nav_world *w, double box[4])
{
    box[0] = box[1] = INFINITY, box[2] = box[3] = -INFINITY;
    nav_world_info info;
    nav_world_get_info(w, &info);
    for (uint32_t r = 0; r < info.regions; r++) {
        const nav_grid *g = nav_world_region_grid(w, r);
        const nav_mesh *m = nav_world_region_mesh(w, r);
        const nav_waypoints *wp = nav_world_region_waypoints(w, r);
        if (g) {
            const nav_grid_desc *d = nav_grid_get_desc(g);
            grow(box, d->origin);
            grow(box, nav_vec3_make(d->origin.x + (float)nav_grid_width(g) * d->cell_size, 0,
                                    d->origin.z + (float)nav_grid_height(g) * d->cell_size));
        }
        for (uint32_t i = 0; m && i < nav_mesh_vert_count(m); i++) grow(box, nav_mesh_vert(m, i));
        for (uint32_t i = 0; wp && i < nav_waypoints_count(wp); i++) grow(box, nav_waypoints_position(wp, i));
    }
}

/* The floor height a region is drawn by (lower first). */
static float floor_of(const nav_world *w, uint32_t r)
{
    const nav_grid *g = nav_world_region_grid(w, r);
    if (g) return nav_grid_get_desc(g)->origin.y;
    const nav_mesh *m = nav_world_region_mesh(w, r);
    if (m && nav_mesh_vert_count(m)) return nav_mesh_vert(m, 0).y;
    return 0;
}

static void fill_rect(view *v, double x0, double z0, double x1, double z1, rgb c, double t)
{
    int64_t px0 = (int64_t)floor((x0 - v->min_x) * v->scale),
            py0 = (int64_t)floor((z0 - v->min_z) * v->scale);
    int64_t px1 = (int64_t)floor((x1 - v->min_x) * v->scale),
            py1 = (int64_t)floor((z1 - v->min_z) * v->scale);
    for (int64_t y = py0; y < py1; y++)
        for (int64_t x = px0; x < px1; x++) blend(v->pixels, v->pw, v->ph, x, y, c, t);
}

static void draw_grid(view *v, const nav_grid *g, rgb tint, double t)
{
    const nav_grid_desc *d = nav_grid_get_desc(g);
    for (int32_t y = 0; y < nav_grid_height(g); y++)
        for (int32_t x = 0; x < nav_grid_width(g); x++) {
            double x0 = d->origin.x + x * (double)d->cell_size, z0 = d->origin.z + y * (double)d->cell_size;
            bool free = nav_grid_passable(g, x, y);
            fill_rect(v, x0, z0, x0 + d->cell_size, z0 + d->cell_size, free ? tint : wall_colour,
                      free ? t : 0.8);
        }
}

static void draw_mesh(view *v, const nav_mesh *m, rgb tint, rgb edge)
{
    for (uint32_t p = 0; p < nav_mesh_poly_count(m); p++) {
        nav_mesh_poly_info info;
        nav_mesh_poly(m, p, &info);
        double box[4] = {INFINITY, INFINITY, -INFINITY, -INFINITY};
        for (uint32_t k = 0; k < info.vert_count; k++) grow(box, nav_mesh_vert(m, info.verts[k]));
        int64_t x0, y0, x1, y1;
        to_pixel(v, nav_vec3_make((float)box[0], 0, (float)box[1]), &x0, &y0);
        to_pixel(v, nav_vec3_make((float)box[2], 0, (float)box[3]), &x1, &y1);
        for (int64_t y = y0; y <= y1; y++)
            for (int64_t x = x0; x <= x1; x++) {
                double wx = v->min_x + ((double)x + 0.5) / v->scale,
                       wz = v->min_z + ((double)y + 0.5) / v->scale;
                if (nav_mesh_poly_contains(m, p, nav_vec3_make((float)wx, 0, (float)wz), NULL))
                    blend(v->pixels, v->pw, v->ph, x, y, tint, 0.85);
            }
        for (uint32_t k = 0; k < info.vert_count; k++) {
            int64_t ax, ay, bx, by;
            to_pixel(v, nav_mesh_vert(m, info.verts[k]), &ax, &ay);
            to_pixel(v, nav_mesh_vert(m, info.verts[(k + 1) % info.vert_count]), &bx, &by);
            line(v->pixels, v->pw, v->ph, ax, ay, bx, by, edge, 0.35);
        }
    }
}

static void dot(view *v, nav_vec3 p, int r, rgb c)
{
    int64_t x, y;
    to_pixel(v, p, &x, &y);
    for (int dy = -r; dy <= r; dy++)
        for (int dx = -r; dx <= r; dx++) blend(v->pixels, v->pw, v->ph, x + dx, y + dy, c, 1.0);
}

static void thick_line(view *v, nav_vec3 a, nav_vec3 b, int width, rgb c, double t)
{
    int64_t ax, ay, bx, by;
    to_pixel(v, a, &ax, &ay);
    to_pixel(v, b, &bx, &by);
    for (int dy = 0; dy < width; dy++)
        for (int dx = 0; dx < width; dx++)
            line(v->pixels, v->pw, v->ph, ax + dx, ay + dy, bx + dx, by + dy, c, t);
}

static void draw_waypoints(view *v, const nav_waypoints *wp, rgb c)
{
    int r = v->scale >= 6 ? 2 : 1;
    for (uint32_t l = 0; l < nav_waypoints_link_count(wp); l++) {
        nav_waypoint_link k;
        nav_waypoints_link(wp, l, &k);
        thick_line(v, nav_waypoints_position(wp, k.from), nav_waypoints_position(wp, k.to), r + 1,
                   mix(c, void_colour, 0.2), 0.9);
    }
    for (uint32_t i = 0; i < nav_waypoints_count(wp); i++)
        dot(v, nav_waypoints_position(wp, i), r + 1, mix(c, wall_colour, 0.5));
}

/* The world drawn from above into a new view (its pixels malloc'd): regions, then links. 0, or 1
 * having said why. */
static int draw_world(const nav_world *w, double scale, view *v)
{
    double box[4];
    bounds(w, box);
    if (!(box[2] >= box[0] && box[3] >= box[1])) {
        fprintf(stderr, "navtool: the world has nothing to draw\n");
        return 1;
    }
    *v = (view){.min_x = box[0] - 2, .min_z = box[1] - 2, .scale = scale};
    v->pw = (size_t)ceil((box[2] - box[0] + 4) * scale);
    v->ph = (size_t)ceil((box[3] - box[1] + 4) * scale);
    if (v->pw > 16384 || v->ph > 16384) {
        fprintf(stderr, "navtool: a %zu x %zu picture is too large: use a smaller scale\n", v->pw, v->ph);
        return 1;
    }
    v->pixels = malloc(v->pw * v->ph * 3);
    if (!v->pixels) {
        fprintf(stderr, "navtool: out of memory for the picture\n");
        return 1;
    }
    for (size_t i = 0; i < v->pw * v->ph; i++) {
        v->pixels[3 * i] = void_colour.r, v->pixels[3 * i + 1] = void_colour.g,
                      v->pixels[3 * i + 2] = void_colour.b;
    }
    nav_world_info info;
    nav_world_get_info(w, &info);
    /* regions from the lowest floor up, so that an upper storey lies over the one below it */
    uint32_t *order = malloc((info.regions ? info.regions : 1) * sizeof *order);
    if (!order) {
        free(v->pixels);
        return 1;
    }
    for (uint32_t r = 0; r < info.regions; r++) {
        uint32_t j = r;
        for (; j > 0 && floor_of(w, order[j - 1]) > floor_of(w, r); j--) order[j] = order[j - 1];
        order[j] = r;
    }
    for (uint32_t i = 0; i < info.regions; i++) {
        uint32_t r = order[i];
        rgb strong = colour_of(r), pale = mix((rgb){245, 242, 235}, strong, 0.28);
        const nav_grid *g = nav_world_region_grid(w, r);
        const nav_mesh *m = nav_world_region_mesh(w, r);
        const nav_waypoints *wp = nav_world_region_waypoints(w, r);
        if (g) draw_grid(v, g, pale, i == 0 || floor_of(w, r) == floor_of(w, order[0]) ? 1.0 : 0.7);
        if (m) draw_mesh(v, m, pale, strong);
        if (wp) draw_waypoints(v, wp, pale);
    }
    free(order);
    int r = v->scale >= 6 ? 2 : 1;
    for (uint32_t k = 0; k < info.links; k++) {
        nav_world_link_desc d;
        nav_world_link(w, k, &d);
        rgb c = nav_world_link_enabled(w, k) ? link_on : link_off;
        thick_line(v, d.from, d.to, r, mix(c, wall_colour, 0.3), 1.0);
        dot(v, d.from, r + 1, c);
        dot(v, d.to, r + 1, c);
    }
    return 0;
}

/* Writes the view to png and frees it. 0, or 1 having said why. */
static int write_view(const char *png, view *v)
{
    int ok = navtool_write_rgb_png(png, v->pw, v->ph, v->pixels);
    free(v->pixels);
    if (!ok) {
        fprintf(stderr, "navtool: cannot write %s\n", png);
        return 1;
    }
    return 0;
}

int navtool_write_world_png(const char *png, const nav_world *w, const nav_world_leg *legs,
                            uint32_t leg_count, const nav_path *path, double scale)
{
    view v;
    if (draw_world(w, scale, &v)) return 1;
    int r = v.scale >= 6 ? 2 : 1;
    for (uint32_t i = 0; path && legs && i < leg_count; i++) { /* each leg in its region's colour */
        rgb c = colour_of(legs[i].region);
        uint32_t first = legs[i].first_point, end = first + legs[i].point_count;
        for (uint32_t p = first; p + 1 < end && end <= path->count; p++)
            thick_line(&v, path->points[p], path->points[p + 1], r + 1, c, 1.0);
        if (i + 1 < leg_count && end >= 1 && end <= path->count && legs[i + 1].first_point < path->count)
            thick_line(&v, path->points[end - 1], path->points[legs[i + 1].first_point], r + 1, link_on, 1.0);
    }
    if (path && path->count) {
        dot(&v, path->points[0], r + 3, start_colour);
        dot(&v, path->points[path->count - 1], r + 3, goal_colour);
    }
    return write_view(png, &v);
}

int navtool_write_crowd_png(const char *png, const nav_world *w, const nav_vec3 *const *trails,
                            const uint32_t *lengths, uint32_t agents, double scale)
{
    view v;
    if (draw_world(w, scale, &v)) return 1;
    for (uint32_t a = 0; a < agents; a++) { /* each agent's trail in a colour of its own, it at its end */
        rgb c = colour_of(a + 3);
        for (uint32_t k = 0; k + 1 < lengths[a]; k++)
            thick_line(&v, trails[a][k], trails[a][k + 1], 1, c, 0.8);
        if (lengths[a]) dot(&v, trails[a][lengths[a] - 1], v.scale >= 6 ? 2 : 1, mix(c, wall_colour, 0.4));
    }
    return write_view(png, &v);
}
