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

/* Rectangles: runs of one class in each row, extended downwards while the run below is identical. */
static bool make_rects(builder *b)
{
    const nav_grid *g = b->grid;
    uint32_t w = g->width;
    for (uint32_t y = 0; y < g->height; y++) {
        if ((y & 255) == 0 && !report(b, "mesh: rectangles", y, g->height)) return false;
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
                arrput(b->rects, r);
            }
            for (uint32_t i = x; i < end; i++) b->rect_of[y * w + i] = id;
            x = end;
        }
    }
    return true;
}

/* The rectangle across a cell (x, y), or UINT32_MAX for a blocked or off-map cell. */
static uint32_t across(const builder *b, int32_t x, int32_t y)
{
    const nav_grid *g = b->grid;
    if (x < 0 || y < 0 || x >= (int32_t)g->width || y >= (int32_t)g->height) return UINT32_MAX;
    uint32_t c = (uint32_t)y * g->width + (uint32_t)x;
    return b->free[c] ? b->rect_of[c] : UINT32_MAX;
}

/* A new vertex at grid corner (x, y) and a height; each rectangle makes its own, welded once all
 * are made (weld_vertices). */
static uint32_t vertex(builder *b, int32_t x, int32_t y, float height)
{
    uint32_t v = (uint32_t)arrlen(b->verts);
    const nav_grid_desc *d = &b->grid->desc;
    nav_vec3 p = nav_vec3_make(d->origin.x + (float)x * d->cell_size, d->origin.y + height,
                               d->origin.z + (float)y * d->cell_size);
    arrput(b->verts, p);
    arrput(b->corner_x, x);
    arrput(b->corner_y, y);
    arrput(b->vert_height, height);
    return v;
}

/* The rectangles' corners welded: one vertex a grid corner and height (a sort of the corners, no
 * hashing); the others stay in the arrays, unused, until the unused are dropped after merging. */
static void weld_vertices(builder *b)
{
    uint32_t *rep = NULL;
    arrsetlen(rep, arrlen(b->verts));
    nav__corner_reps(b->corner_x, b->corner_y, b->vert_height, (uint32_t)arrlen(b->verts), rep);
    for (ptrdiff_t e = 0; e < arrlen(b->edge_vert); e++) b->edge_vert[e] = rep[b->edge_vert[e]];
    arrfree(rep);
}

/* Appends polygon corners[0..n-1] (vertex indices) of one area, height and flags. */
static void emit_poly(builder *b, const uint32_t *corners, uint32_t n, uint8_t area, uint16_t flags,
                      float height)
{
    for (uint32_t i = 0; i < n; i++) arrput(b->edge_vert, corners[i]);
    arrput(b->poly_first, (uint32_t)arrlen(b->edge_vert));
    arrput(b->poly_area, area);
    arrput(b->poly_flags, flags);
    arrput(b->poly_height, height);
}

/* The boundary of rectangle r, clockwise on screen (x right, y down): a corner wherever the
 * rectangle across the side changes, so every edge has one neighbour. */
static void make_poly(builder *b, uint32_t id, uint32_t **corners)
{
    rect r = b->rects[id];
    const nav_grid *g = b->grid;
    uint32_t cell = (uint32_t)r.y0 * g->width + (uint32_t)r.x0;
    float height = cell_height(g, cell);
    uint8_t area = g->terrain[cell];
    uint16_t flags = b->desc->terrain_flags && b->desc->terrain_flags[area] ? b->desc->terrain_flags[area]
                                                                            : NAV_POLY_FLAG_WALK;
    arrsetlen(*corners, 0);
    /* top, left to right: cells above */
    arrput(*corners, vertex(b, r.x0, r.y0, height));
    for (int32_t x = r.x0 + 1; x < r.x1; x++)
        if (across(b, x, r.y0 - 1) != across(b, x - 1, r.y0 - 1))
            arrput(*corners, vertex(b, x, r.y0, height));
    /* right, top to bottom: cells to the right */
    arrput(*corners, vertex(b, r.x1, r.y0, height));
    for (int32_t y = r.y0 + 1; y < r.y1; y++)
        if (across(b, r.x1, y) != across(b, r.x1, y - 1)) arrput(*corners, vertex(b, r.x1, y, height));
    /* bottom, right to left: cells below */
    arrput(*corners, vertex(b, r.x1, r.y1, height));
    for (int32_t x = r.x1 - 1; x > r.x0; x--)
        if (across(b, x - 1, r.y1) != across(b, x, r.y1)) arrput(*corners, vertex(b, x, r.y1, height));
    /* left, bottom to top: cells to the left */
    arrput(*corners, vertex(b, r.x0, r.y1, height));
    for (int32_t y = r.y1 - 1; y > r.y0; y--)
        if (across(b, r.x0 - 1, y - 1) != across(b, r.x0 - 1, y))
            arrput(*corners, vertex(b, r.x0, y, height));
    emit_poly(b, *corners, (uint32_t)arrlen(*corners), area, flags, height);
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
    b.free = nav__alloc(&a, grid->cells);
    b.rect_of = nav__calloc(&a, grid->cells, sizeof *b.rect_of);
    nav_status s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (!b.free || !b.rect_of) goto done;
    erode(&b, d.agent_radius);
    s = NAV_FAILURE | NAV_WRONG_STATE;
    if (!make_rects(&b)) goto done;

    uint32_t rect_count = (uint32_t)arrlen(b.rects);
    uint32_t *corners = NULL;
    arrput(b.poly_first, 0);
    for (uint32_t r = 0; r < rect_count; r++) {
        if ((r & 4095) == 0 && !report(&b, "mesh: polygons", r, rect_count)) {
            arrfree(corners);
            goto done;
        }
        make_poly(&b, r, &corners);
    }
    arrfree(corners);
    weld_vertices(&b);

    /* the rectangles into large convex polygons */
    if (!report(&b, "mesh: merging", 0, rect_count)) goto done;
    uint32_t *merged_first = NULL, *merged_verts = NULL, *source = NULL;
    bool merged = nav__merge_rectangles(
        b.corner_x, b.corner_y, b.poly_first, b.edge_vert, (uint32_t)arrlen(b.verts), b.poly_area,
        (uint32_t)arrlen(b.poly_first) - 1, &merged_first, &merged_verts, &source);
    if (!merged) {
        arrfree(merged_first);
        arrfree(merged_verts);
        arrfree(source);
        nav__logf(log, NAV_LOG_ERROR, "mesh: a rectangle of the grid is malformed (a bug: please report it)");
        s = NAV_FAILURE | NAV_CORRUPT_DATA;
        goto done;
    }
    {
        uint8_t *area = NULL;
        uint16_t *flags = NULL;
        float *height = NULL;
        for (ptrdiff_t i = 0; i < arrlen(source); i++) {
            arrput(area, b.poly_area[source[i]]);
            arrput(flags, b.poly_flags[source[i]]);
            arrput(height, b.poly_height[source[i]]);
        }
        arrfree(b.poly_first);
        arrfree(b.edge_vert);
        arrfree(b.poly_area);
        arrfree(b.poly_flags);
        arrfree(b.poly_height);
        arrfree(source);
        b.poly_first = merged_first;
        b.edge_vert = merged_verts;
        b.poly_area = area;
        b.poly_flags = flags;
        b.poly_height = height;
    }
    if (!report(&b, "mesh: vertices", 0, 1)) goto done;
    {
        /* keep only the vertices still used, in order of first use */
        uint32_t *remap = NULL, used = 0;
        arrsetlen(remap, arrlen(b.verts));
        for (ptrdiff_t v = 0; v < arrlen(b.verts); v++) remap[v] = UINT32_MAX;
        nav_vec3 *verts = NULL;
        int32_t *cx = NULL, *cy = NULL;
        for (ptrdiff_t e = 0; e < arrlen(b.edge_vert); e++) {
            uint32_t v = b.edge_vert[e];
            if (remap[v] == UINT32_MAX) {
                remap[v] = used++;
                arrput(verts, b.verts[v]);
                arrput(cx, b.corner_x[v]);
                arrput(cy, b.corner_y[v]);
            }
            b.edge_vert[e] = remap[v];
        }
        arrfree(remap);
        arrfree(b.verts);
        arrfree(b.corner_x);
        arrfree(b.corner_y);
        b.verts = verts;
        b.corner_x = cx;
        b.corner_y = cy;
    }
    if (arrlen(b.edge_vert) >= UINT32_MAX || arrlen(b.verts) >= UINT32_MAX) {
        s = NAV_FAILURE | NAV_TOO_LARGE;
        goto done;
    }

    /* neighbours: the polygon holding the reversed edge; one way where the step up is too high */
    uint32_t poly_count = (uint32_t)arrlen(b.poly_first) - 1, edge_count = (uint32_t)arrlen(b.edge_vert);
    if (!report(&b, "mesh: adjacency", 0, 1)) goto done;
    /* edges matched by their ends' grid corners (at any height: a step joins two heights) */
    uint32_t vert_count = (uint32_t)arrlen(b.verts);
    uint32_t *rep = NULL, *from = NULL, *to = NULL, *twin = NULL, *owner = NULL;
    arrsetlen(rep, vert_count);
    arrsetlen(from, edge_count);
    arrsetlen(to, edge_count);
    arrsetlen(twin, edge_count);
    arrsetlen(owner, edge_count);
    nav__corner_reps(b.corner_x, b.corner_y, NULL, vert_count, rep);
    for (uint32_t p = 0; p < poly_count; p++)
        for (uint32_t e = b.poly_first[p]; e < b.poly_first[p + 1]; e++) {
            uint32_t next = e + 1 < b.poly_first[p + 1] ? e + 1 : b.poly_first[p];
            from[e] = rep[b.edge_vert[e]];
            to[e] = rep[b.edge_vert[next]];
            owner[e] = p;
        }
    nav__match_edges(from, to, edge_count, vert_count, twin);
    uint32_t *edge_poly = NULL;
    uint8_t *edge_flags = NULL;
    arrsetlen(edge_poly, edge_count);
    arrsetlen(edge_flags, edge_count);
    float climb = grid->desc.max_climb;
    for (uint32_t p = 0; p < poly_count; p++)
        for (uint32_t e = b.poly_first[p]; e < b.poly_first[p + 1]; e++) {
            edge_poly[e] = twin[e] != UINT32_MAX ? owner[twin[e]] : NAV_MESH_NO_POLY;
            edge_flags[e] = 0;
            if (twin[e] != UINT32_MAX && b.poly_height[edge_poly[e]] - b.poly_height[p] > climb)
                edge_flags[e] = NAV__EDGE_ONE_WAY;
        }
    arrfree(rep);
    arrfree(from);
    arrfree(to);
    arrfree(twin);
    arrfree(owner);

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
        arrfree(edge_poly);
        arrfree(edge_flags);
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
    arrfree(edge_poly);
    arrfree(edge_flags);
    if (nav_succeeded(s)) report(&b, "mesh: done", rect_count, rect_count);
done:
    free_builder(&b, &a);
    return s;
}
