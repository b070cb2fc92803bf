/* Joining grid regions that touch (tiles of an open world, rooms side by side) along their shared
 * borders, as if they were one grid: every move the one grid would allow across a border becomes a
 * link (NAV_WORLD_JOIN_EVERY: routes then cost exactly what they cost on the one grid), or one or
 * two links an entrance, placed as HPA* places its transitions (NAV_WORLD_JOIN_ENTRANCES: Botea,
 * Mueller and Schaeffer 2004, section 3: a maximal run of cells open on both sides gets one in its
 * middle, or two at its ends when it is long; far fewer chokepoints, routes a little dearer).
 *
 * Two grids touch when they lie at one level (floor heights within the tolerance), have one cell
 * size, cell corners on one lattice, and a border in common. A move between them follows the rules
 * of the grid it leaves: its connectivity, corner policy (a side cell outside every grid counts as
 * blocked), climb limit (on world heights), diagonal length; it costs the step's length times the
 * terrain cost of the cell it enters, times the cell size. */
#include <math.h>
#include <string.h>

#include "ds.h"
#include "index.h"
#include "log.h"
#include "world_internal.h"

/* A grid region as the join sees it: its extent and lattice in world units. */
typedef struct tile {
    uint32_t region;
    const nav_grid *grid;
    double x0, z0, size, floor;
    int32_t w, h;
} tile;

typedef struct joiner {
    nav_world_builder *b;
    tile *tiles;        /* stb_ds */
    uint32_t **buckets; /* stb_ds arrays of tile indices, a bucket of side `bucket` world units */
    double bx0, bz0, bucket;
    int32_t bw, bh;
    double tolerance; /* world units */
    uint32_t added;
} joiner;

static void bucket_of(const joiner *j, double x, double z, int32_t *bx, int32_t *bz)
{
    *bx = (int32_t)floor((x - j->bx0) / j->bucket);
    *bz = (int32_t)floor((z - j->bz0) / j->bucket);
}

/* The tile (other than `not`) whose cell holds world point (x, z), at the level of tile `level`,
 * with its cell there; false when none. */
static bool cell_at(const joiner *j, uint32_t not, const tile *level, double x, double z, uint32_t *which,
                    int32_t *cx, int32_t *cy)
{
    int32_t bx, bz;
    bucket_of(j, x, z, &bx, &bz);
    if (bx < 0 || bz < 0 || bx >= j->bw || bz >= j->bh) return false;
    const uint32_t *list = j->buckets[(size_t)bz * (size_t)j->bw + (size_t)bx];
    for (size_t i = 0; i < arrlenu(list); i++) {
        const tile *t = &j->tiles[list[i]];
        if (list[i] == not || fabs(t->floor - level->floor) > j->tolerance ||
            fabs(t->size - level->size) > 1e-6 * level->size)
            continue;
        double fx = floor((x - t->x0) / t->size), fz = floor((z - t->z0) / t->size);
        if (fx < 0 || fz < 0 || fx >= t->w || fz >= t->h) continue;
        *which = list[i];
        *cx = (int32_t)fx;
        *cy = (int32_t)fz;
        return true;
    }
    return false;
}

/* Whether the cell at world point (x, z) is free: in tile `home` when inside it, or in another tile
 * at its level; outside every tile: no. */
static bool free_at(const joiner *j, uint32_t home, double x, double z)
{
    const tile *t = &j->tiles[home];
    double fx = floor((x - t->x0) / t->size), fz = floor((z - t->z0) / t->size);
    if (fx >= 0 && fz >= 0 && fx < t->w && fz < t->h)
        return nav_grid_passable(t->grid, (int32_t)fx, (int32_t)fz);
    uint32_t other;
    int32_t cx, cy;
    return cell_at(j, home, t, x, z, &other, &cx, &cy) && nav_grid_passable(j->tiles[other].grid, cx, cy);
}

/* The cost of the move from cell (ax, ay) of tile a, in direction (dx, dy), to cell (bx, by) of tile
 * b; INFINITY when the rules of a's grid do not allow it. */
static double move_cost(const joiner *j, uint32_t ia, int32_t ax, int32_t ay, int dx, int dy, uint32_t ib,
                        int32_t bx, int32_t by)
{
    const tile *a = &j->tiles[ia], *b = &j->tiles[ib];
    const nav_grid_desc *d = nav_grid_get_desc(a->grid);
    if (!nav_grid_passable(a->grid, ax, ay) || !nav_grid_passable(b->grid, bx, by)) return INFINITY;
    bool diagonal = dx && dy;
    if (diagonal && d->connectivity == NAV_CONNECT_4) return INFINITY;
    double climb = d->max_climb > 0 ? d->max_climb : INFINITY;
    double here = a->floor + nav_grid_cell_height(a->grid, ax, ay),
           there = b->floor + nav_grid_cell_height(b->grid, bx, by);
    if (there - here > climb) return INFINITY;
    if (diagonal) { /* the two cells beside the diagonal, wherever they lie */
        double cx = a->x0 + (ax + 0.5) * a->size, cz = a->z0 + (ay + 0.5) * a->size;
        bool side_a = free_at(j, ia, cx + dx * a->size, cz), side_b = free_at(j, ia, cx, cz + dy * a->size);
        if (d->corner_policy == NAV_CORNER_NEVER_CUT && (!side_a || !side_b)) return INFINITY;
        if (d->corner_policy == NAV_CORNER_CUT_IF_ONE_FREE && !side_a && !side_b) return INFINITY;
    }
    return (diagonal ? d->diagonal_cost : 1.0) * nav_grid_cell_cost(b->grid, bx, by) * a->size;
}

static nav_world_place place_of(const tile *t, int32_t x, int32_t y)
{
    return (nav_world_place){t->region, nav_grid_index(t->grid, x, y), nav_grid_cell_center(t->grid, x, y)};
}

static nav_status add_border_link(joiner *j, const tile *a, int32_t ax, int32_t ay, const tile *b, int32_t bx,
                                  int32_t by, double cost, bool one_way)
{
    nav_world_link_desc d = {.kind = NAV_LINK_BORDER,
                             .from_region = a->region,
                             .from = place_of(a, ax, ay).position,
                             .to_region = b->region,
                             .to = place_of(b, bx, by).position,
                             .cost = cost,
                             .one_way = one_way};
    nav_status s = nav_world_builder_add_link(j->b, &d, NULL);
    if (!nav_failed(s)) j->added++;
    return s;
}

/* The links of a move across a border, from a's cell (ax, ay) in direction (dx, dy) to b's cell and
 * back: one two-way link when both ways cost the same, else a one-way link each way allowed. */
static nav_status transition(joiner *j, uint32_t ia, int32_t ax, int32_t ay, uint32_t ib, int32_t bx,
                             int32_t by, int dx, int dy)
{
    const tile *a = &j->tiles[ia], *b = &j->tiles[ib];
    double there = move_cost(j, ia, ax, ay, dx, dy, ib, bx, by),
           back = move_cost(j, ib, bx, by, -dx, -dy, ia, ax, ay);
    if (there < INFINITY && there == back) return add_border_link(j, a, ax, ay, b, bx, by, there, false);
    nav_status s = NAV_SUCCESS;
    if (there < INFINITY) s = add_border_link(j, a, ax, ay, b, bx, by, there, true);
    if (!nav_failed(s) && back < INFINITY) s = add_border_link(j, b, bx, by, a, ax, ay, back, true);
    return s;
}

/* Every move across from tile a's border cell (x, y) to another tile: a link each way it is
 * allowed (one two-way link when both ways cost the same), each pair once (from the lower tile). */
static nav_status join_every(joiner *j, uint32_t ia, int32_t x, int32_t y)
{
    const tile *a = &j->tiles[ia];
    int dirs = nav_grid_get_desc(a->grid)->connectivity == NAV_CONNECT_4 ? 4 : 8;
    for (int dir = 0; dir < dirs; dir++) {
        int32_t dx, dy;
        nav_dir_offset((nav_dir)dir, &dx, &dy);
        if (x + dx >= 0 && y + dy >= 0 && x + dx < a->w && y + dy < a->h) continue; /* inside a */
        double tx = a->x0 + (x + dx + 0.5) * a->size, tz = a->z0 + (y + dy + 0.5) * a->size;
        uint32_t ib;
        int32_t bx, by;
        if (!cell_at(j, ia, a, tx, tz, &ib, &bx, &by) || ib < ia) continue;
        nav_status s = transition(j, ia, x, y, ib, bx, by, dx, dy);
        if (nav_failed(s)) return s;
    }
    return NAV_SUCCESS;
}

/* Tile a's side in direction (dx, dy) (east, west, south or north): its border cells, paired with
 * the cells across; each maximal run of pairs open both ways gets its transitions. */
static nav_status join_entrances(joiner *j, uint32_t ia, int dx, int dy, int32_t long_entrance)
{
    const tile *a = &j->tiles[ia];
    int32_t n = dx ? a->h : a->w, run = 0;
    uint32_t run_tile = UINT32_MAX;
    nav_status s = NAV_SUCCESS;
    int32_t bx[2] = {0, 0}, by[2] = {0, 0}; /* the run's first and last cells across */
    for (int32_t k = 0; k <= n && !nav_failed(s); k++) {
        bool open = false;
        uint32_t ib = UINT32_MAX;
        int32_t x = dx > 0   ? a->w - 1
                    : dx < 0 ? 0
                             : k,
                y = dy > 0   ? a->h - 1
                    : dy < 0 ? 0
                             : k,
                cx = 0, cy = 0;
        if (k < n) {
            double tx = a->x0 + (x + dx + 0.5) * a->size, tz = a->z0 + (y + dy + 0.5) * a->size;
            open = cell_at(j, ia, a, tx, tz, &ib, &cx, &cy) && ib > ia &&
                   move_cost(j, ia, x, y, dx, dy, ib, cx, cy) < INFINITY &&
                   move_cost(j, ib, cx, cy, -dx, -dy, ia, x, y) < INFINITY;
        }
        if (open && (run == 0 || ib == run_tile)) {
            if (run == 0) bx[0] = cx, by[0] = cy, run_tile = ib;
            bx[1] = cx, by[1] = cy;
            run++;
            continue;
        }
        if (run > 0) { /* the run ended at k - 1 */
            int32_t first = k - run, last = k - 1;
            int32_t at[2] = {first + (last - first) / 2, last};
            int count = run >= long_entrance && last > first ? 2 : 1;
            if (count == 2) at[0] = first;
            for (int t = 0; t < count && !nav_failed(s); t++) {
                int32_t ax = dx ? x : at[t], ay = dy ? y : at[t];
                int32_t off = at[t] - first;
                int32_t ox = dx ? bx[0] : bx[0] + off, oy = dy ? by[0] : by[0] + off;
                s = transition(j, ia, ax, ay, run_tile, ox, oy, dx, dy);
            }
            run = 0;
        }
        if (open && !nav_failed(s)) { /* a new run starts here (another tile across) */
            bx[0] = bx[1] = cx, by[0] = by[1] = cy, run_tile = ib, run = 1;
        }
    }
    return s;
}

/* ---- Navmeshes along grid borders ----------------------------------------------------------------
 *
 * A mesh's wall edge (an edge with no polygon across) that lies on a tile's border line, within the
 * tolerance, with its polygon outside the tile, opens the border cells across from it: each cell
 * whose centre, carried straight over the border, lands on that polygon at the cell's floor height
 * (within the tolerance). A side's open cells, from all the mesh's edges along it, make runs that get
 * their links as grid entrances do. A link joins the cell's centre to the mesh point just across the
 * border; it costs its length times the cost of what it enters (the polygon's area, or the cell's
 * terrain): one two-way link when both are the same, else a one-way link each way. */

/* The open cells of one tile side across from one mesh: the mesh point across from each. */
typedef struct mesh_side {
    uint64_t key;     /* tile << 2 | side */
    uint8_t *open;    /* stb_ds, a byte a cell of the side */
    nav_vec3 *across; /* stb_ds, likewise */
} mesh_side;

/* A mesh's sides in the order first met (links are made in that order: never in hash order), found
 * by key through an index of their places in the list. */
typedef struct mesh_sides {
    mesh_side *list; /* stb_ds */
    nav__index index;
} mesh_sides;

static bool same_side(uint32_t item, const void *key, const void *ctx)
{
    const mesh_sides *sides = ctx;
    return sides->list[item].key == *(const uint64_t *)key;
}

/* Side k of a tile (0: west, 1: east, 2: south, 3: north): the line it lies on (x = at for west and
 * east, z = at for south and north), which way is outside (+1 or -1 along that axis), its length. */
static void side_line(const tile *t, int k, double *at, double *outside, int32_t *cells)
{
    *at = k == 0 ? t->x0 : k == 1 ? t->x0 + t->w * t->size : k == 2 ? t->z0 : t->z0 + t->h * t->size;
    *outside = k == 0 || k == 2 ? -1 : 1;
    *cells = k < 2 ? t->h : t->w;
}

/* The border cell k of side `side` (its x, y). */
static void side_cell(const tile *t, int side, int32_t k, int32_t *x, int32_t *y)
{
    *x = side == 0 ? 0 : side == 1 ? t->w - 1 : k;
    *y = side == 2 ? 0 : side == 3 ? t->h - 1 : k;
}

/* Marks the cells of tile ti's sides across from mesh edge a -> b of polygon poly (centre c). */
static nav_status mesh_edge(joiner *j, mesh_sides *sides, const nav_mesh *mesh, uint32_t poly, nav_vec3 a,
                            nav_vec3 b, nav_vec3 c, uint32_t ti)
{
    const tile *t = &j->tiles[ti];
    for (int k = 0; k < 4; k++) {
        double at, outside;
        int32_t n;
        side_line(t, k, &at, &outside, &n);
        bool vertical = k < 2; /* the line is x = at */
        double a_across = vertical ? a.x : a.z, b_across = vertical ? b.x : b.z,
               c_across = vertical ? c.x : c.z;
        double a_along = vertical ? a.z : a.x, b_along = vertical ? b.z : b.x;
        double origin = vertical ? t->z0 : t->x0;
        if (fabs(a_across - at) > j->tolerance || fabs(b_across - at) > j->tolerance ||
            (c_across - at) * outside <= 0 || a_along == b_along)
            continue;
        double lo = fmin(a_along, b_along), hi = fmax(a_along, b_along);
        int32_t first = (int32_t)fmax(0, ceil((lo - origin) / t->size - 0.5)),
                last = (int32_t)fmin(n - 1, floor((hi - origin) / t->size - 0.5));
        uint64_t key = (uint64_t)ti << 2 | (uint64_t)k;
        for (int32_t cell = first; cell <= last; cell++) {
            double along = origin + (cell + 0.5) * t->size, f = (along - a_along) / (b_along - a_along);
            int32_t x, y;
            side_cell(t, k, cell, &x, &y);
            if (!nav_grid_passable(t->grid, x, y)) continue;
            double floor_y = t->floor + nav_grid_cell_height(t->grid, x, y), edge_y = a.y + f * (b.y - a.y);
            double nudge = 1e-3 * t->size; /* just over the border, onto the polygon */
            nav_vec3 q = vertical ? (nav_vec3){(float)(at + outside * nudge), (float)edge_y, (float)along}
                                  : (nav_vec3){(float)along, (float)edge_y, (float)(at + outside * nudge)};
            float h;
            if (fabs(edge_y - floor_y) > j->tolerance || !nav_mesh_poly_contains(mesh, poly, q, &h)) continue;
            q.y = h;
            uint32_t hash = nav__index_hash_bytes(&key, sizeof key);
            uint32_t e = nav__index_find(&sides->index, hash, same_side, &key, sides);
            if (e == NAV__INDEX_NONE) {
                e = (uint32_t)arrlenu(sides->list);
                mesh_side fresh = {.key = key};
                bool made =
                    nav__arr_setlen(fresh.open, (size_t)n) && nav__arr_setlen(fresh.across, (size_t)n);
                if (made) memset(fresh.open, 0, (size_t)n);
                if (!made || !nav__arr_push(sides->list, fresh) || !nav__index_add(&sides->index, hash, e)) {
                    arrfree(fresh.open);
                    arrfree(fresh.across);
                    if (arrlenu(sides->list) > e) nav__arr_truncate(sides->list, e);
                    return NAV_FAILURE | NAV_OUT_OF_MEMORY;
                }
            }
            sides->list[e].open[cell] = 1;
            sides->list[e].across[cell] = q;
        }
    }
    return NAV_SUCCESS;
}

/* The links between border cell (x, y) of tile t and mesh point q of mesh region m. */
static nav_status mesh_transition(joiner *j, const tile *t, int32_t x, int32_t y, uint32_t m,
                                  const nav_mesh *mesh, nav_vec3 q)
{
    nav_world_place cell = place_of(t, x, y);
    uint32_t poly;
    nav_vec3 on;
    if (nav_failed(nav_mesh_locate(mesh, q, (nav_vec3){1e-4f, 0, 1e-4f}, &poly, &on))) return NAV_SUCCESS;
    nav_mesh_poly_info info;
    nav_mesh_poly(mesh, poly, &info);
    double dx = (double)q.x - cell.position.x, dy = (double)q.y - cell.position.y,
           dz = (double)q.z - cell.position.z, length = sqrt(dx * dx + dy * dy + dz * dz);
    double there = length * nav_mesh_area_cost(mesh, info.area),
           back = length * nav_grid_cell_cost(t->grid, x, y);
    nav_world_link_desc d = {.kind = NAV_LINK_BORDER,
                             .from_region = t->region,
                             .from = cell.position,
                             .to_region = m,
                             .to = q,
                             .cost = there,
                             .one_way = there != back};
    if (!(there > 0) || !(back > 0)) return NAV_SUCCESS; /* (a point on the line: nothing to walk) */
    nav_status s = nav_world_builder_add_link(j->b, &d, NULL);
    if (!nav_failed(s)) j->added++;
    if (nav_failed(s) || there == back) return s;
    d = (nav_world_link_desc){.kind = NAV_LINK_BORDER,
                              .from_region = m,
                              .from = q,
                              .to_region = t->region,
                              .to = cell.position,
                              .cost = back,
                              .one_way = true};
    s = nav_world_builder_add_link(j->b, &d, NULL);
    if (!nav_failed(s)) j->added++;
    return s;
}

/* Every mesh region's wall edges against the tiles' borders, then each side's runs of open cells
 * linked as entrances are (or every cell, in EVERY mode). */
static nav_status join_meshes(joiner *j, const nav_world_join_desc *d)
{
    uint32_t regions = nav__world_builder_region_count(j->b);
    uint32_t *seen = NULL; /* per tile: the last edge that looked at it (stb_ds) */
    if (!nav__arr_setlen(seen, arrlenu(j->tiles))) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (size_t i = 0; i < arrlenu(seen); i++) seen[i] = UINT32_MAX;
    nav_status s = NAV_SUCCESS;
    uint32_t edge = 0;
    for (uint32_t m = 0; m < regions && !nav_failed(s); m++) {
        const nav_mesh *mesh = nav__world_builder_mesh(j->b, m);
        if (!mesh) continue;
        mesh_sides sides = {0};
        for (uint32_t p = 0; p < nav_mesh_poly_count(mesh) && !nav_failed(s); p++) {
            nav_mesh_poly_info info;
            nav_mesh_poly(mesh, p, &info);
            nav_vec3 c = {0, 0, 0};
            for (uint32_t v = 0; v < info.vert_count; v++) {
                nav_vec3 at = nav_mesh_vert(mesh, info.verts[v]);
                c.x += at.x / (float)info.vert_count, c.y += at.y / (float)info.vert_count;
                c.z += at.z / (float)info.vert_count;
            }
            for (uint32_t e = 0; e < info.vert_count && !nav_failed(s); e++, edge++) {
                if (info.neighbours[e] != NAV_MESH_NO_POLY) continue;
                nav_vec3 a = nav_mesh_vert(mesh, info.verts[e]),
                         b = nav_mesh_vert(mesh, info.verts[(e + 1) % info.vert_count]);
                /* the tiles in the buckets the edge's box (grown by the tolerance) meets */
                int32_t x0, z0, x1, z1;
                bucket_of(j, fmin(a.x, b.x) - j->tolerance, fmin(a.z, b.z) - j->tolerance, &x0, &z0);
                bucket_of(j, fmax(a.x, b.x) + j->tolerance, fmax(a.z, b.z) + j->tolerance, &x1, &z1);
                for (int32_t bz = z0 < 0 ? 0 : z0; bz <= z1 && bz < j->bh && !nav_failed(s); bz++)
                    for (int32_t bx = x0 < 0 ? 0 : x0; bx <= x1 && bx < j->bw && !nav_failed(s); bx++) {
                        const uint32_t *list = j->buckets[(size_t)bz * (size_t)j->bw + (size_t)bx];
                        for (size_t i = 0; i < arrlenu(list) && !nav_failed(s); i++)
                            if (seen[list[i]] != edge) {
                                seen[list[i]] = edge;
                                s = mesh_edge(j, &sides, mesh, p, a, b, c, list[i]);
                            }
                    }
            }
        }
        for (size_t e = 0; e < arrlenu(sides.list) && !nav_failed(s); e++) { /* each side's runs */
            const mesh_side *side_of = &sides.list[e];
            const tile *t = &j->tiles[side_of->key >> 2];
            int side = (int)(side_of->key & 3u);
            int32_t n = (int32_t)arrlen(side_of->open);
            for (int32_t k = 0, run = 0; k <= n && !nav_failed(s); k++) {
                if (k < n && side_of->open[k]) {
                    run++;
                    continue;
                }
                int32_t first = k - run, last = k - 1, at[2] = {first + (last - first) / 2, last};
                int count = run >= d->long_entrance && last > first ? 2 : 1;
                if (count == 2) at[0] = first;
                for (int32_t c = first; run > 0 && c <= last && !nav_failed(s); c++) {
                    bool chosen = d->mode == NAV_WORLD_JOIN_EVERY || c == at[0] || (count == 2 && c == at[1]);
                    int32_t x, y;
                    side_cell(t, side, c, &x, &y);
                    if (chosen) s = mesh_transition(j, t, x, y, m, mesh, side_of->across[c]);
                }
                run = 0;
            }
        }
        for (size_t e = 0; e < arrlenu(sides.list); e++) {
            arrfree(sides.list[e].open);
            arrfree(sides.list[e].across);
        }
        arrfree(sides.list);
        nav__index_free(&sides.index);
    }
    arrfree(seen);
    return s;
}

nav_status nav_world_builder_join_touching(nav_world_builder *b, const nav_world_join_desc *desc,
                                           uint32_t *added)
{
    if (added) *added = 0;
    if (!b) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_world_join_desc d = desc ? *desc : (nav_world_join_desc){0};
    if (d.mode == 0) d.mode = NAV_WORLD_JOIN_EVERY;
    if (d.long_entrance == 0) d.long_entrance = 6;
    if ((d.mode != NAV_WORLD_JOIN_EVERY && d.mode != NAV_WORLD_JOIN_ENTRANCES) || d.long_entrance < 1 ||
        !(d.tolerance >= 0) || !isfinite(d.tolerance))
        return NAV_FAILURE | NAV_INVALID_PARAM;
    joiner j = {.b = b, .tolerance = d.tolerance > 0 ? d.tolerance : 1e-3};
    double box[4] = {INFINITY, INFINITY, -INFINITY, -INFINITY}, side = 0;
    uint32_t regions = nav__world_builder_region_count(b), links_before = nav__world_builder_link_count(b);
    if (!nav__arr_reserve(j.tiles, regions)) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    for (uint32_t r = 0; r < regions; r++) {
        const nav_grid *g = nav__world_builder_grid(b, r);
        if (!g) continue;
        const nav_grid_desc *gd = nav_grid_get_desc(g);
        tile t = {.region = r,
                  .grid = g,
                  .x0 = gd->origin.x,
                  .z0 = gd->origin.z,
                  .size = gd->cell_size,
                  .floor = gd->origin.y,
                  .w = nav_grid_width(g),
                  .h = nav_grid_height(g)};
        nav__arr_put_reserved(j.tiles, t);
        box[0] = fmin(box[0], t.x0), box[1] = fmin(box[1], t.z0);
        box[2] = fmax(box[2], t.x0 + t.w * t.size), box[3] = fmax(box[3], t.z0 + t.h * t.size);
        side = fmax(side, fmax(t.w, t.h) * t.size);
    }
    nav_status s = NAV_SUCCESS;
    if (arrlenu(j.tiles) > 0 && regions > 1) {
        /* buckets as large as the largest tile: a tile lies in at most four */
        j.bucket = side, j.bx0 = box[0] - side, j.bz0 = box[1] - side;
        j.bw = (int32_t)ceil((box[2] - j.bx0) / side) + 2, j.bh = (int32_t)ceil((box[3] - j.bz0) / side) + 2;
        if ((double)j.bw * j.bh > 1e8) {
            nav__world_builder_logf(b,
                                    "join: the grids spread over more than 1e8 tiles of the largest's size");
            s = NAV_FAILURE | NAV_TOO_LARGE;
        } else if (!nav__arr_setlen(j.buckets, (size_t)j.bw * (size_t)j.bh)) {
            s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
        } else {
            memset(j.buckets, 0, arrlenu(j.buckets) * sizeof *j.buckets);
            for (uint32_t i = 0; i < arrlenu(j.tiles) && !nav_failed(s); i++) {
                const tile *t = &j.tiles[i];
                int32_t x0, z0, x1, z1;
                bucket_of(&j, t->x0, t->z0, &x0, &z0);
                bucket_of(&j, t->x0 + t->w * t->size, t->z0 + t->h * t->size, &x1, &z1);
                for (int32_t z = z0; z <= z1 && !nav_failed(s); z++)
                    for (int32_t x = x0; x <= x1 && !nav_failed(s); x++)
                        if (!nav__arr_push(j.buckets[(size_t)z * (size_t)j.bw + (size_t)x], i))
                            s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
            }
        }
        for (uint32_t i = 0; i < arrlenu(j.tiles) && !nav_failed(s); i++) {
            const tile *t = &j.tiles[i];
            if (d.mode == NAV_WORLD_JOIN_EVERY) { /* the border cells, each once */
                for (int32_t y = 0; y < t->h && !nav_failed(s); y++)
                    for (int32_t x = 0; x < t->w && !nav_failed(s);
                         x = (y == 0 || y == t->h - 1 || x == t->w - 1) ? x + 1 : t->w - 1)
                        s = join_every(&j, i, x, y);
            } else {
                static const int sides[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
                for (int k = 0; k < 4 && !nav_failed(s); k++)
                    s = join_entrances(&j, i, sides[k][0], sides[k][1], d.long_entrance);
            }
        }
        if (!nav_failed(s)) s = join_meshes(&j, &d);
        for (size_t i = 0; i < arrlenu(j.buckets); i++) arrfree(j.buckets[i]);
        arrfree(j.buckets);
    }
    arrfree(j.tiles);
    if (nav_failed(s)) { /* none of this join's links stay */
        nav__world_builder_drop_links(b, links_before);
        j.added = 0;
    }
    if (added) *added = j.added;
    return s;
}
