/* A mesh from a grid: maximal runs of free cells of one terrain type and height in each row, joined
 * with the identical run of the row above into rectangles; each rectangle's edges split where the
 * polygon across them changes (so no edge has two neighbours); the rare polygon of more than
 * NAV_MESH_MAX_POLY_VERTS vertices cut along chords; neighbours found by matching edges.
 *
 * Every polygon is a union of whole free cells, so the mesh covers exactly the free cells. Two
 * cells that meet only at a corner share no edge, so a pinch never joins two polygons. On the
 * Moving AI maps the row rectangles are already fewer than Recast's polygons with exact settings
 * (den520d 602 against 1154); see the README for the counts. */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "ds.h"
#include "grid_internal.h"
#include "log.h"
#include "merge.h"
#include "mesh_internal.h"

typedef struct rect {
    int32_t x0, y0, x1, y1; /* cells x0..x1-1, y0..y1-1 */
} rect;

typedef struct builder {
    const nav_grid *grid;
    const nav_mesh_build_desc *desc;
    uint8_t *free;                    /* cell is free after erosion */
    uint32_t *rect_of;                /* rectangle of each free cell */
    rect *rects;                      /* stb_ds */
    nav_vec3 *verts;                  /* stb_ds */
    int32_t *corner_x, *corner_y;     /* stb_ds: grid corner of each vertex */
    float *vert_height;               /* stb_ds: the height of its cells */
    uint32_t *poly_first, *edge_vert; /* stb_ds */
    uint8_t *poly_area;
    uint16_t *poly_flags;
    float *poly_height;
} builder;

static float cell_height(const nav_grid *g, uint32_t c)
{
    return nav__cell_height(g, c);
}

static bool same_class(const nav_grid *g, uint32_t a, uint32_t b)
{
    return g->terrain[a] == g->terrain[b] && cell_height(g, a) == cell_height(g, b);
}

/* Free cells after erosion by the agent radius: a cell stays free when every cell within `radius`
 * of its centre (the nearest point of that cell's square) is free and on the map. */
static void erode(builder *b, float radius)
{
    const nav_grid *g = b->grid;
    int32_t w = (int32_t)g->width, h = (int32_t)g->height;
    for (uint32_t c = 0; c < g->cells; c++) b->free[c] = nav__cell_free(g, c);
    if (!(radius > 0.5f)) return;
    int32_t reach = (int32_t)ceil(radius + 0.5);
    uint8_t *eroded = b->free;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            uint32_t c = (uint32_t)y * g->width + (uint32_t)x;
            if (!nav__cell_free(g, c)) continue;
            bool ok = true;
            for (int32_t j = -reach; j <= reach && ok; j++)
                for (int32_t i = -reach; i <= reach && ok; i++) {
                    double dx = fmax(fabs((double)i) - 0.5, 0), dy = fmax(fabs((double)j) - 0.5, 0);
                    if (dx * dx + dy * dy >= (double)radius * radius) continue;
                    int32_t nx = x + i, ny = y + j;
                    ok = nx >= 0 && ny >= 0 && nx < w && ny < h &&
                         nav__cell_free(g, (uint32_t)ny * g->width + (uint32_t)nx);
                }
            eroded[c] = ok;
        }
}

static bool report(const builder *b, const char *stage, uint64_t done, uint64_t total)
{
    const nav_progress *p = b->desc->progress;
    return !p || !p->fn || p->fn(stage, done, total, p->user);
}

/* Rectangles: runs of one class in each row, extended downwards while the run below is identical.
 * NAV_FAILURE with NAV_WRONG_STATE when cancelled, or NAV_OUT_OF_MEMORY. */
static nav_status make_rects(builder *b)
{
    const nav_grid *g = b->grid;
    uint32_t w = g->width;
    for (uint32_t y = 0; y < g->height; y++) {
        if ((y & 255) == 0 && !report(b, "mesh: rectangles", y, g->height))
            return NAV_FAILURE | NAV_WRONG_STATE;
        uint32_t x = 0;
        while (x < w) {
            uint32_t c = y * w + x;
            if (!b->free[c]) {
                x++;
                continue;
            }
            uint32_t end = x + 1;
            while (end < w && b->free[y * w + end] && same_class(g, c, y * w + end)) end++;
            uint32_t id = UINT32_MAX;
            if (y > 0 && b->free[c - w] && same_class(g, c, c - w)) {
                uint32_t above = b->rect_of[c - w];
                rect *r = &b->rects[above];
                if (r->x0 == (int32_t)x && r->x1 == (int32_t)end && r->y1 == (int32_t)y) {
                    r->y1 = (int32_t)y + 1;
                    id = above;
                }
            }
            if (id == UINT32_MAX) {
                id = (uint32_t)arrlen(b->rects);
                rect r = {(int32_t)x, (int32_t)y, (int32_t)end, (int32_t)y + 1};
                if (!nav__arr_push(b->rects, r)) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
            }
            for (uint32_t i = x; i < end; i++) b->rect_of[y * w + i] = id;
            x = end;
        }
    }
    return NAV_SUCCESS;
}

/* The rectangle across a cell (x, y), or UINT32_MAX for a blocked or off-map cell. */
static uint32_t across(const builder *b, int32_t x, int32_t y)
{
    const nav_grid *g = b->grid;
    if (x < 0 || y < 0 || x >= (int32_t)g->width || y >= (int32_t)g->height) return UINT32_MAX;
    uint32_t c = (uint32_t)y * g->width + (uint32_t)x;
    return b->free[c] ? b->rect_of[c] : UINT32_MAX;
}

/* Appends to *corners a new vertex at grid corner (x, y) and a height; each rectangle makes its own,
 * welded once all are made (weld_vertices). False when memory runs out. */
static bool add_corner(builder *b, uint32_t **corners, int32_t x, int32_t y, float height)
{
    uint32_t v = (uint32_t)arrlen(b->verts);
    const nav_grid_desc *d = &b->grid->desc;
    nav_vec3 p = nav_vec3_make(d->origin.x + (float)x * d->cell_size, d->origin.y + height,
                               d->origin.z + (float)y * d->cell_size);
    return nav__arr_push(b->verts, p) && nav__arr_push(b->corner_x, x) && nav__arr_push(b->corner_y, y) &&
           nav__arr_push(b->vert_height, height) && nav__arr_push(*corners, v);
}

/* The rectangles' corners welded: one vertex a grid corner and height (a sort of the corners, no
 * hashing); the others stay in the arrays, unused, until the unused are dropped after merging. False
 * when memory runs out. */
static bool weld_vertices(builder *b)
{
    uint32_t *rep = NULL;
    bool ok = nav__arr_setlen(rep, arrlen(b->verts)) &&
              nav__corner_reps(b->corner_x, b->corner_y, b->vert_height, (uint32_t)arrlen(b->verts), rep);
    for (ptrdiff_t e = 0; ok && e < arrlen(b->edge_vert); e++) b->edge_vert[e] = rep[b->edge_vert[e]];
    arrfree(rep);
    return ok;
}

/* Appends polygon corners[0..n-1] (vertex indices) of one area, height and flags. False when memory
 * runs out. */
static bool emit_poly(builder *b, const uint32_t *corners, uint32_t n, uint8_t area, uint16_t flags,
                      float height)
{
    if (!nav__arr_reserve(b->edge_vert, n)) return false;
    for (uint32_t i = 0; i < n; i++) nav__arr_put_reserved(b->edge_vert, corners[i]);
    return nav__arr_push(b->poly_first, (uint32_t)arrlen(b->edge_vert)) &&
           nav__arr_push(b->poly_area, area) && nav__arr_push(b->poly_flags, flags) &&
           nav__arr_push(b->poly_height, height);
}

/* The boundary of rectangle r, clockwise on screen (x right, y down): a corner wherever the
 * rectangle across the side changes, so every edge has one neighbour. False when memory runs out. */
static bool make_poly(builder *b, uint32_t id, uint32_t **corners)
{
    rect r = b->rects[id];
    const nav_grid *g = b->grid;
    uint32_t cell = (uint32_t)r.y0 * g->width + (uint32_t)r.x0;
    float height = cell_height(g, cell);
    uint8_t area = g->terrain[cell];
    uint16_t flags = b->desc->terrain_flags && b->desc->terrain_flags[area] ? b->desc->terrain_flags[area]
                                                                            : NAV_POLY_FLAG_WALK;
    nav__arr_truncate(*corners, 0);
    /* top, left to right: cells above */
    bool ok = add_corner(b, corners, r.x0, r.y0, height);
    for (int32_t x = r.x0 + 1; x < r.x1 && ok; x++)
        if (across(b, x, r.y0 - 1) != across(b, x - 1, r.y0 - 1))
            ok = add_corner(b, corners, x, r.y0, height);
    /* right, top to bottom: cells to the right */
    ok = ok && add_corner(b, corners, r.x1, r.y0, height);
    for (int32_t y = r.y0 + 1; y < r.y1 && ok; y++)
        if (across(b, r.x1, y) != across(b, r.x1, y - 1)) ok = add_corner(b, corners, r.x1, y, height);
    /* bottom, right to left: cells below */
    ok = ok && add_corner(b, corners, r.x1, r.y1, height);
    for (int32_t x = r.x1 - 1; x > r.x0 && ok; x--)
        if (across(b, x - 1, r.y1) != across(b, x, r.y1)) ok = add_corner(b, corners, x, r.y1, height);
    /* left, bottom to top: cells to the left */
    ok = ok && add_corner(b, corners, r.x0, r.y1, height);
    for (int32_t y = r.y1 - 1; y > r.y0 && ok; y--)
        if (across(b, r.x0 - 1, y - 1) != across(b, r.x0 - 1, y))
            ok = add_corner(b, corners, r.x0, y, height);
    return ok && emit_poly(b, *corners, (uint32_t)arrlen(*corners), area, flags, height);
}

#define CANCELLED (NAV_FAILURE | NAV_WRONG_STATE)
#define NO_MEMORY (NAV_FAILURE | NAV_OUT_OF_MEMORY)

/* Each rectangle's polygon (make_poly), their corners welded. */
static nav_status make_polygons(builder *b)
{
    uint32_t rect_count = (uint32_t)arrlen(b->rects), *corners = NULL;
    nav_status s = nav__arr_push(b->poly_first, 0) ? NAV_SUCCESS : NO_MEMORY;
    for (uint32_t r = 0; r < rect_count && nav_succeeded(s); r++) {
        if ((r & 4095) == 0 && !report(b, "mesh: polygons", r, rect_count))
            s = CANCELLED;
        else if (!make_poly(b, r, &corners))
            s = NO_MEMORY;
    }
    arrfree(corners);
    if (nav_succeeded(s) && !weld_vertices(b)) s = NO_MEMORY;
    return s;
}

/* The rectangles' polygons merged into large convex ones (merge.h), each with its rectangle's area,
 * flags and height. */
static nav_status merge_polygons(builder *b, const nav_log *log)
{
    uint32_t *first = NULL, *verts = NULL, *source = NULL;
    uint8_t *area = NULL;
    uint16_t *flags = NULL;
    float *height = NULL;
    nav_status s = nav__merge_rectangles(b->corner_x, b->corner_y, b->poly_first, b->edge_vert,
                                         (uint32_t)arrlen(b->verts), b->poly_area,
                                         (uint32_t)arrlen(b->poly_first) - 1, &first, &verts, &source);
    size_t count = arrlenu(source);
    if (nav_succeeded(s) && (!nav__arr_reserve(area, count) || !nav__arr_reserve(flags, count) ||
                             !nav__arr_reserve(height, count)))
        s = NO_MEMORY;
    if (nav_failed(s)) {
        if (s & NAV_CORRUPT_DATA)
            nav__logf(log, NAV_LOG_ERROR,
                      "mesh: a rectangle of the grid is malformed (a bug: please report it)");
        arrfree(first);
        arrfree(verts);
        arrfree(source);
        arrfree(area);
        arrfree(flags);
        arrfree(height);
        return s;
    }
    for (size_t i = 0; i < count; i++) {
        nav__arr_put_reserved(area, b->poly_area[source[i]]);
        nav__arr_put_reserved(flags, b->poly_flags[source[i]]);
        nav__arr_put_reserved(height, b->poly_height[source[i]]);
    }
    arrfree(source);
    arrfree(b->poly_first);
    arrfree(b->edge_vert);
    arrfree(b->poly_area);
    arrfree(b->poly_flags);
    arrfree(b->poly_height);
    b->poly_first = first;
    b->edge_vert = verts;
    b->poly_area = area;
    b->poly_flags = flags;
    b->poly_height = height;
    return NAV_SUCCESS;
}

/* Keeps only the vertices still used, in order of first use. False when memory runs out (b as it was). */
static bool drop_unused_vertices(builder *b)
{
    uint32_t *remap = NULL, used = 0;
    nav_vec3 *verts = NULL;
    int32_t *cx = NULL, *cy = NULL;
    size_t count = arrlenu(b->verts);
    if (!nav__arr_setlen(remap, count) || !nav__arr_reserve(verts, count) || !nav__arr_reserve(cx, count) ||
        !nav__arr_reserve(cy, count)) {
        arrfree(remap);
        arrfree(verts);
        arrfree(cx);
        arrfree(cy);
        return false;
    }
    /* (a memset guarded, not a loop: GCC 12 turns such a loop into a memset it does not guard, then takes
     * remap for non-null and drops arrfree's test, which an empty grid's null remap then crashes) */
    if (count) memset(remap, 0xff, count * sizeof *remap);
    for (ptrdiff_t e = 0; e < arrlen(b->edge_vert); e++) {
        uint32_t v = b->edge_vert[e];
        if (remap[v] == UINT32_MAX) {
            remap[v] = used++;
            nav__arr_put_reserved(verts, b->verts[v]);
            nav__arr_put_reserved(cx, b->corner_x[v]);
            nav__arr_put_reserved(cy, b->corner_y[v]);
        }
        b->edge_vert[e] = remap[v];
    }
    arrfree(remap);
    arrfree(b->verts);
    arrfree(b->corner_x);
    arrfree(b->corner_y);
    b->verts = verts;
    b->corner_x = cx;
    b->corner_y = cy;
    return true;
}

/* Each edge's neighbour (the polygon holding the reversed edge, matched by their ends' grid corners at
 * any height: a step joins two heights) into edge_poly, and NAV__EDGE_ONE_WAY into edge_flags where the
 * step up to it is higher than climb. False when memory runs out. */
static bool find_neighbours(const builder *b, float climb, uint32_t *edge_poly, uint8_t *edge_flags)
{
    uint32_t poly_count = (uint32_t)arrlen(b->poly_first) - 1, edge_count = (uint32_t)arrlen(b->edge_vert);
    uint32_t vert_count = (uint32_t)arrlen(b->verts);
    uint32_t *rep = NULL, *from = NULL, *to = NULL, *twin = NULL, *owner = NULL;
    bool ok = nav__arr_setlen(rep, vert_count) && nav__arr_setlen(from, edge_count) &&
              nav__arr_setlen(to, edge_count) && nav__arr_setlen(twin, edge_count) &&
              nav__arr_setlen(owner, edge_count) &&
              nav__corner_reps(b->corner_x, b->corner_y, NULL, vert_count, rep);
    for (uint32_t p = 0; ok && p < poly_count; p++)
        for (uint32_t e = b->poly_first[p]; e < b->poly_first[p + 1]; e++) {
            uint32_t next = e + 1 < b->poly_first[p + 1] ? e + 1 : b->poly_first[p];
            from[e] = rep[b->edge_vert[e]];
            to[e] = rep[b->edge_vert[next]];
            owner[e] = p;
        }
    ok = ok && nav__match_edges(from, to, edge_count, vert_count, twin);
    for (uint32_t p = 0; ok && p < poly_count; p++)
        for (uint32_t e = b->poly_first[p]; e < b->poly_first[p + 1]; e++) {
            edge_poly[e] = twin[e] != UINT32_MAX ? owner[twin[e]] : NAV_MESH_NO_POLY;
            edge_flags[e] = 0;
            if (twin[e] != UINT32_MAX && b->poly_height[edge_poly[e]] - b->poly_height[p] > climb)
                edge_flags[e] = NAV__EDGE_ONE_WAY;
        }
    arrfree(rep);
    arrfree(from);
    arrfree(to);
    arrfree(twin);
    arrfree(owner);
    return ok;
}

static void free_builder(builder *b, const nav_allocator *a)
{
    nav__free(a, b->free);
    nav__free(a, b->rect_of);
    arrfree(b->rects);
    arrfree(b->vert_height);
    arrfree(b->verts);
    arrfree(b->corner_x);
    arrfree(b->corner_y);
    arrfree(b->poly_first);
    arrfree(b->edge_vert);
    arrfree(b->poly_area);
    arrfree(b->poly_flags);
    arrfree(b->poly_height);
}

nav_status nav_mesh_build_from_grid(const nav_grid *grid, const nav_mesh_build_desc *desc, nav_mesh **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    nav_mesh_build_desc d = desc ? *desc : (nav_mesh_build_desc){0};
    const nav_log *log = d.log;
    if (!grid || !(d.agent_radius >= 0) || !isfinite(d.agent_radius) || d.agent_radius > 1024) {
        nav__logf(log, NAV_LOG_ERROR, "mesh: %s", grid ? "agent radius must be 0..1024 cells" : "no grid");
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    nav_allocator a;
    nav__allocator_resolve(&a, d.allocator);
    builder b;
    memset(&b, 0, sizeof b);
    b.grid = grid;
    b.desc = &d;
    uint32_t *edge_poly = NULL;
    uint8_t *edge_flags = NULL;
    b.free = nav__alloc(&a, grid->cells);
    b.rect_of = nav__calloc(&a, grid->cells, sizeof *b.rect_of);
    nav_status s = NO_MEMORY;
    if (!b.free || !b.rect_of) goto done;
    erode(&b, d.agent_radius);
    s = make_rects(&b);
    uint32_t rect_count = (uint32_t)arrlen(b.rects);
    if (nav_succeeded(s)) s = make_polygons(&b);
    if (nav_succeeded(s) && !report(&b, "mesh: merging", 0, rect_count)) s = CANCELLED;
    if (nav_succeeded(s)) s = merge_polygons(&b, log);
    if (nav_succeeded(s) && !report(&b, "mesh: vertices", 0, 1)) s = CANCELLED;
    if (nav_succeeded(s) && !drop_unused_vertices(&b)) s = NO_MEMORY;
    if (nav_succeeded(s) &&
        ((uint64_t)arrlenu(b.edge_vert) >= UINT32_MAX || (uint64_t)arrlenu(b.verts) >= UINT32_MAX))
        s = NAV_FAILURE | NAV_TOO_LARGE;
    if (nav_failed(s)) goto done;

    /* neighbours: the polygon holding the reversed edge; one way where the step up is too high */
    uint32_t poly_count = (uint32_t)arrlen(b.poly_first) - 1, edge_count = (uint32_t)arrlen(b.edge_vert);
    if (!report(&b, "mesh: adjacency", 0, 1)) {
        s = CANCELLED;
        goto done;
    }
    if (!nav__arr_setlen(edge_poly, edge_count) || !nav__arr_setlen(edge_flags, edge_count) ||
        !find_neighbours(&b, grid->desc.max_climb, edge_poly, edge_flags)) {
        s = NO_MEMORY;
        goto done;
    }

    double area_cost[256];
    for (int t = 0; t < 256; t++) area_cost[t] = NAV_COST_BLOCKED;
    for (uint32_t p = 0; p < poly_count; p++) area_cost[b.poly_area[p]] = grid->terrain_cost[b.poly_area[p]];
    nav__mesh_draft draft = {
        .verts = b.verts,
        .vert_count = (uint32_t)arrlen(b.verts),
        .poly_first = b.poly_first,
        .edge_vert = b.edge_vert,
        .edge_poly = edge_poly,
        .edge_flags = edge_flags,
        .poly_area = b.poly_area,
        .poly_flags = b.poly_flags,
        .poly_count = poly_count,
        .area_cost = area_cost,
        .source_fingerprint = nav_grid_fingerprint(grid),
        .cell_size = grid->desc.cell_size,
    };
    if (!report(&b, "mesh: finishing", 0, 1)) {
        s = CANCELLED;
        goto done;
    }
    s = nav__mesh_finish(&draft, &a, log, out);
    if (nav_succeeded(s)) {
        s = nav__mesh_add_links(*out, d.links, d.link_count, d.link_extents);
        if (nav_failed(s)) {
            nav_mesh_destroy(*out);
            *out = NULL;
        }
    }
    if (nav_succeeded(s)) report(&b, "mesh: done", rect_count, rect_count);
done:
    arrfree(edge_poly);
    arrfree(edge_flags);
    free_builder(&b, &a);
    return s;
}
