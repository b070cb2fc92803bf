/* libFuzzer harness for the waypoint text format (nav_waypoint_graph_load_text and, through an
 * in-memory file, nav_waypoint_graph_load_file, which reads a window at a time) and the bake of
 * what it loads (see README.md here). The first byte is a mode: bit 0 bakes on two threads instead
 * of one; bit 1 filters out links of flag 1 and waypoints of tag 2, bit 2 opens disabled links, in
 * the queries of the bake. The rest is the file; with bit 3 set it is instead the data of a
 * WAYPOINTS chunk, read by nav_waypoints_read_chunk; with bit 4 (and not 3), a small grid (bytes
 * 1 and 2: its size, up to 15 x 15; byte 3 bit 0: terrain of cost 3 too, bit 1: keep every link;
 * then a bit a cell, blocked when set, and with terrain a second bit a cell) and pairs of points
 * on it (a byte a coordinate, in quarter cells), for nav_waypoints_find_path; with bit 5 (and not
 * 3 or 4), a whole .nav file (size field and CRCs repaired first) loaded by nav_waypoints_load_nav
 * with its GRID chunk.
 *
 * Besides crashes, sanitizer reports and leaks, it traps when a result breaks a promise: the two
 * loaders disagree (status, counts, waypoints, links), a loaded graph holds an index out of range
 * or a cost that is negative or not finite, a bake of a loaded graph fails other than as
 * documented, or a baked route is not made of the graph's links, does not start and end where
 * asked, or costs other than the table says, or a filtered route (the table's or A*'s) costs other
 * than Dijkstra's under the same filter, or the nearest waypoint to a waypoint is not at its spot;
 * a chunk's reader fails other than as corrupt data, or what it accepts does not write back to
 * data it reads again and writes back the same, or has a route that does not start and end where
 * asked, or costs more than 1e-6 a step off the table's distance, or a filtered route below Dijkstra's;
 * a path between two points of a grid's bake is not valid under the any-angle rule, or its cost is
 * more than 1e-9 off the brute-force reference's (tests/reference.c), or it finds none where the
 * reference does, or one where it does not; a file is refused other than as documented, or what
 * loads cannot serve point queries on its grid (a clean status, a valid path on success).
 *
 * NAV_FUZZ_MAKE_SEEDS builds a program that writes a few graphs as seeds. */
#include "fuzz_common.h" /* first: it asks for _GNU_SOURCE */

#include <math.h>
#include "nav/anyangle.h"
#include "nav/waypoints.h"
#include "reference.h"

static void check_same_graph(const nav_waypoint_graph *a, const nav_waypoint_graph *b)
{
    CHECK(a->waypoint_count == b->waypoint_count && a->link_count == b->link_count);
    for (uint32_t i = 0; i < a->waypoint_count; i++) {
        const nav_waypoint *x = &a->waypoints[i], *y = &b->waypoints[i];
        CHECK(memcmp(&x->position, &y->position, sizeof x->position) == 0 && x->tags == y->tags);
        CHECK(strcmp(x->name, y->name) == 0);
    }
    for (uint32_t i = 0; i < a->link_count; i++) {
        const nav_waypoint_link *x = &a->links[i], *y = &b->links[i];
        CHECK(x->from == y->from && x->to == y->to && x->flags == y->flags && x->one_way == y->one_way &&
              x->disabled == y->disabled && memcmp(&x->cost, &y->cost, sizeof x->cost) == 0);
        CHECK(x->from < a->waypoint_count && x->to < a->waypoint_count);
        CHECK(isfinite(x->cost) && x->cost >= 0);
    }
}

/* The cheapest enabled link from u to v, INFINITY when there is none. */
static double cheapest_link(const nav_waypoint_graph *g, uint32_t u, uint32_t v)
{
    double best = INFINITY;
    for (uint32_t i = 0; i < g->link_count; i++) {
        const nav_waypoint_link *l = &g->links[i];
        if (l->disabled || !((l->from == u && l->to == v) || (!l->one_way && l->from == v && l->to == u)))
            continue;
        double c = l->cost;
        if (!(c > 0)) {
            nav_vec3 a = g->waypoints[u].position, b = g->waypoints[v].position;
            double dx = (double)b.x - a.x, dy = (double)b.y - a.y, dz = (double)b.z - a.z;
            c = sqrt(dx * dx + dy * dy + dz * dz);
        }
        if (c < best) best = c;
    }
    return best;
}

/* Filtered routes: the table's route or A* (method AUTO) costs what Dijkstra's does (exact; else,
 * for tables read from a chunk, which may be forged and mislead A*, no less), and starts and ends
 * where asked; the nearest waypoint to each waypoint is at distance 0, the first at its spot. */
static void check_queries(const nav_waypoints *wp, const nav_waypoints_filter *f, bool exact)
{
    nav_waypoints_query *q = NULL;
    if (nav_failed(nav_waypoints_query_create(wp, NULL, &q))) return;
    nav_path path;
    nav_path_init(&path, NULL);
    uint32_t n = nav_waypoints_count(wp);
    nav_waypoints_filter dijkstra = *f;
    dijkstra.method = NAV_WAYPOINTS_DIJKSTRA;
    for (uint32_t a = 0; a < n; a++) {
        double d = -1;
        uint32_t near = nav_waypoints_nearest(wp, nav_waypoints_position(wp, a), 0, &d);
        CHECK(near <= a && d == 0);
        for (uint32_t b = 0; b < n; b++) {
            nav_waypoints_route_result x, y;
            nav_status r = nav_waypoints_query_route(q, a, b, f, &path, &x);
            CHECK(nav_failed(r) || (path.nodes[0] == a && path.nodes[path.count - 1] == b));
            nav_status t = nav_waypoints_query_route(q, a, b, &dijkstra, &path, &y);
            double slack = 1e-9 * (y.cost > 1 ? y.cost : 1);
            CHECK(r == t && (nav_failed(r) || fabs(x.cost - y.cost) <= slack || (!exact && x.cost > y.cost)));
        }
    }
    nav_path_destroy(&path);
    nav_waypoints_query_destroy(q);
}

static void check_bake(const nav_waypoint_graph *g, uint32_t threads, const nav_waypoints_filter *f)
{
    nav_waypoints *wp = NULL;
    nav_status s = nav_waypoints_bake(
        g,
        &(nav_waypoints_bake_desc){.threads = threads,
                                   .max_waypoints = 200,
                                   .dense_max = g->waypoint_count % 2}, /* odd: hub labels */
        &wp);
    CHECK(nav_succeeded(s) == (wp != NULL));
    if (!wp) {
        CHECK(s == (NAV_FAILURE | NAV_INVALID_PARAM) || s == (NAV_FAILURE | NAV_TOO_LARGE));
        return;
    }
    uint32_t n = nav_waypoints_count(wp);
    CHECK(n == g->waypoint_count);
    nav_path path;
    nav_path_init(&path, NULL);
    for (uint32_t a = 0; a < n; a++) {
        CHECK(nav_waypoints_find(wp, g->waypoints[a].name) == a);
        for (uint32_t b = 0; b < n; b++) {
            double d = nav_waypoints_distance(wp, a, b);
            nav_status r = nav_waypoints_route(wp, a, b, &path);
            if (isinf(d)) {
                CHECK(r == (NAV_FAILURE | NAV_UNREACHABLE) && path.count == 0);
                continue;
            }
            CHECK(r == NAV_SUCCESS && path.nodes[0] == a && path.nodes[path.count - 1] == b);
            double sum = 0;
            for (uint32_t i = 0; i + 1 < path.count; i++)
                sum += cheapest_link(g, path.nodes[i], path.nodes[i + 1]);
            CHECK(sum == path.cost);
            CHECK(fabs(path.cost - d) <= 1e-6 * (d > 1 ? d : 1));
        }
    }
    nav_path_destroy(&path);
    check_queries(wp, f, true);
    nav_waypoints_destroy(wp);
}

/* Routes of a bake read from a chunk: each starts and ends where asked and costs its table
 * distance, up to the rounding the reader allows a forged table at each step (1e-6 of it). */
static void check_walks(const nav_waypoints *wp)
{
    uint32_t n = nav_waypoints_count(wp);
    nav_path path;
    nav_path_init(&path, NULL);
    for (uint32_t a = 0; a < n; a++) {
        for (uint32_t b = 0; b < n; b++) {
            double d = nav_waypoints_distance(wp, a, b);
            nav_status r = nav_waypoints_route(wp, a, b, &path);
            CHECK(isinf(d) ? r == (NAV_FAILURE | NAV_UNREACHABLE)
                           : r == NAV_SUCCESS && path.nodes[0] == a && path.nodes[path.count - 1] == b &&
                                 fabs(path.cost - d) <= 1e-6 * path.count * (d > 1 ? d : 1));
        }
    }
    nav_path_destroy(&path);
}

/* Mode bit 3: the bytes as a WAYPOINTS chunk. */
static void check_chunk(const uint8_t *data, size_t size, const nav_waypoints_filter *f)
{
    nav_waypoints *wp = NULL;
    nav_status s = nav_waypoints_read_chunk(data, size, NULL, NULL, NULL, &wp);
    CHECK(nav_succeeded(s) == (wp != NULL));
    if (!wp) {
        /* NAV_WRONG_VERSION: flag bit 2, the compressed rows of older bakes */
        CHECK(s == (NAV_FAILURE | NAV_CORRUPT_DATA) || s == (NAV_FAILURE | NAV_WRONG_VERSION) ||
              s == (NAV_FAILURE | NAV_OUT_OF_MEMORY));
        return;
    }
    nav_writer once, twice;
    nav_writer_init(&once, NULL);
    nav_writer_init(&twice, NULL);
    CHECK(nav_waypoints_write_chunk(wp, &once) == NAV_SUCCESS);
    nav_waypoints *again = NULL;
    CHECK(nav_waypoints_read_chunk(once.data, once.size, NULL, NULL, NULL, &again) == NAV_SUCCESS);
    CHECK(nav_waypoints_write_chunk(again, &twice) == NAV_SUCCESS);
    CHECK(once.size == twice.size && memcmp(once.data, twice.data, once.size) == 0);
    check_walks(wp);
    check_queries(wp, f, false);
    nav_writer_destroy(&once);
    nav_writer_destroy(&twice);
    nav_waypoints_destroy(again);
    nav_waypoints_destroy(wp);
}

/* A bit of the input from bit `at` on (0 past its end). */
static bool bit_at(const uint8_t *data, size_t size, size_t at)
{
    return at / 8 < size && (data[at / 8] >> (at % 8) & 1);
}

/* Mode bit 4: a grid's bake and paths between points on it against the brute-force reference. */
static void check_grid(const uint8_t *data, size_t size)
{
    if (size < 3) return;
    int32_t w = 1 + data[0] % 15, h = 1 + data[1] % 15;
    bool terrain = data[2] & 1, keep = data[2] & 2;
    nav_grid *grid = NULL;
    CHECK(nav_succeeded(nav_grid_create(&(nav_grid_desc){.width = w, .height = h}, &grid)));
    if (terrain) CHECK(nav_succeeded(nav_grid_set_terrain_cost(grid, 2, 3.0)));
    size_t bit = 3 * 8, cells = (size_t)w * h;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++, bit++) {
            if (bit_at(data, size, bit))
                nav_grid_set_cell(grid, x, y, NAV_TERRAIN_BLOCKED);
            else if (terrain && bit_at(data, size, bit + cells))
                nav_grid_set_cell(grid, x, y, 2);
        }
    size_t at = 3 + (cells * (terrain ? 2 : 1) + 7) / 8;
    nav_waypoints *wp = NULL;
    nav_status s = nav_waypoints_bake_grid(
        grid,
        &(nav_waypoint_grid_desc){
            .keep_all_links = keep, .threads = 1, .max_waypoints = 200, .dense_max = (uint32_t)(w + h) % 2},
        &wp);
    CHECK(nav_succeeded(s) || s == (NAV_FAILURE | NAV_TOO_LARGE));
    nav_waypoints_query *q = NULL;
    if (wp)
        CHECK(nav_succeeded(nav_waypoints_query_create(wp, &(nav_waypoints_query_desc){.grid = grid}, &q)));
    test_reference ref;
    test_reference_init(&ref, grid);
    nav_path path;
    nav_path_init(&path, NULL);
    for (int pairs = 0; q && pairs < 8 && at + 4 <= size; pairs++, at += 4) {
        double sx = data[at] % (4 * w + 1) / 4.0, sy = data[at + 1] % (4 * h + 1) / 4.0;
        double gx = data[at + 2] % (4 * w + 1) / 4.0, gy = data[at + 3] % (4 * h + 1) / 4.0;
        if (!nav_grid_anyangle_segment(grid, sx, sy, sx, sy, NULL) ||
            !nav_grid_anyangle_segment(grid, gx, gy, gx, gy, NULL))
            continue;
        nav_vec3 a = nav_grid_units_to_world(grid, sx, sy), b = nav_grid_units_to_world(grid, gx, gy);
        double best = test_reference_cost(&ref, sx, sy, gx, gy);
        nav_waypoints_result r;
        s = nav_waypoints_find_path(q, a, b, &path, &r);
        if (best == INFINITY) {
            CHECK(s == (NAV_FAILURE | NAV_UNREACHABLE));
            continue;
        }
        CHECK(s == NAV_SUCCESS);
        double walked;
        CHECK(nav_grid_validate_anyangle_path(grid, &path, &walked) == NAV_SUCCESS);
        CHECK(fabs(walked - best) <= 1e-9 * (1 + best) && fabs(path.cost - best) <= 1e-9 * (1 + best));
    }
    nav_path_destroy(&path);
    test_reference_destroy(&ref);
    nav_waypoints_query_destroy(q);
    nav_waypoints_destroy(wp);
    nav_grid_destroy(grid);
}

/* Mode bit 5: a whole .nav file, loaded with its grid, then point queries on it. */
static void check_file(uint8_t *file, size_t n)
{
    repair_container(file, n);
    nav_waypoints *wp = (nav_waypoints *)&wp;
    nav_grid *grid = (nav_grid *)&grid;
    nav_status s = nav_waypoints_load_nav(memory_file(file, n), NULL, NULL, &wp, &grid);
    if (nav_failed(s)) {
        CHECK(wp == NULL && grid == NULL);
        CHECK(s == (NAV_FAILURE | NAV_CORRUPT_DATA) || s == (NAV_FAILURE | NAV_WRONG_VERSION) ||
              s == (NAV_FAILURE | NAV_TOO_LARGE) || s == (NAV_FAILURE | NAV_SOURCE_MISMATCH) ||
              s == (NAV_FAILURE | NAV_OUT_OF_MEMORY));
        return;
    }
    check_walks(wp);
    nav_waypoints_query *q = NULL;
    s = nav_waypoints_query_create(wp, &(nav_waypoints_query_desc){.grid = grid}, &q);
    /* a graph of its own beside a grid is refused as a query's grid; a grid's bake serves it */
    CHECK(nav_waypoints_from_grid(wp) ? nav_succeeded(s) || s == (NAV_FAILURE | NAV_OUT_OF_MEMORY)
                                      : s == (NAV_FAILURE | NAV_INVALID_PARAM));
    nav_path path;
    nav_path_init(&path, NULL);
    int32_t w = nav_grid_width(grid), h = nav_grid_height(grid);
    for (uint32_t i = 0; q && i < 6; i++) {
        double sx = (i * 7 + 1) % (4 * w + 1) / 4.0, sy = (i * 5 + 2) % (4 * h + 1) / 4.0;
        double gx = (i * 11 + 3) % (4 * w + 1) / 4.0, gy = (i * 13 + 1) % (4 * h + 1) / 4.0;
        s = nav_waypoints_find_path(q, nav_grid_units_to_world(grid, sx, sy),
                                    nav_grid_units_to_world(grid, gx, gy), &path, NULL);
        CHECK(s == NAV_SUCCESS || s == (NAV_FAILURE | NAV_UNREACHABLE) ||
              s == (NAV_FAILURE | NAV_INVALID_PARAM) || s == (NAV_FAILURE | NAV_OUT_OF_MEMORY));
        if (s == NAV_SUCCESS) CHECK(nav_grid_validate_anyangle_path(grid, &path, NULL) == NAV_SUCCESS);
    }
    nav_path_destroy(&path);
    nav_waypoints_query_destroy(q);
    nav_waypoints_destroy(wp);
    nav_grid_destroy(grid);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    nav_waypoints_filter filter = {.exclude_link_flags = data[0] & 2u ? 1 : 0,
                                   .exclude_tags = data[0] & 2u ? 2 : 0,
                                   .open_disabled = data[0] & 4u};
    if (data[0] & 8u) {
        uint8_t *chunk = fuzz_copy(data + 1, size - 1);
        check_chunk(chunk, size - 1, &filter);
        free(chunk);
        return 0;
    }
    if (data[0] & 16u) {
        check_grid(data + 1, size - 1);
        return 0;
    }
    if (data[0] & 32u) {
        uint8_t *file = fuzz_copy(data + 1, size - 1);
        check_file(file, size - 1);
        free(file);
        return 0;
    }
    size_t n = size - 1;
    uint8_t *file = fuzz_copy(data + 1, n);
    nav_waypoint_graph g, fg;
    nav_status s = nav_waypoint_graph_load_text((const char *)file, n, NULL, &g);
    nav_status f = nav_waypoint_graph_load_file(memory_file(file, n), NULL, &fg);
    CHECK(f == s);
    CHECK(nav_succeeded(s) == (g.storage != NULL) && nav_succeeded(f) == (fg.storage != NULL));
    if (nav_failed(s))
        CHECK(s == (NAV_FAILURE | NAV_PARSE_ERROR) && g.waypoint_count == 0 && g.link_count == 0);
    if (nav_succeeded(s)) {
        check_same_graph(&g, &fg);
        check_bake(&g, data[0] & 1u ? 2 : 1, &filter);
    }
    nav_waypoint_graph_release(&g);
    nav_waypoint_graph_release(&fg);
    free(file);
    return 0;
}

#if defined(NAV_FUZZ_MAKE_SEEDS)
static void make_seeds(const char *dir)
{
    static const char *const seeds[][2] = {
        {"hand", "libnav waypoints 1\n# gate, yard, tower\nwaypoint gate 0 0 0\nwaypoint yard 4 0 0 tags 2\n"
                 "waypoint tower 4 0 3\nlink gate yard\nlink yard tower oneway cost 3.5 flags 1\n"
                 "link gate tower cost 20 disabled\n"},
        {"square",
         "libnav waypoints 1\nwaypoint a 0 0 0\nwaypoint b 1 0 0\nwaypoint c 1 0 1\nwaypoint d 0 0 1\n"
         "link a b\nlink b c\nlink c d\nlink d a\nlink a c cost 1.4142\nlink b d oneway cost 2\n"},
        {"forward", "libnav waypoints 1\nlink x y cost 2\nwaypoint x -1.5 2e1 3\nwaypoint y 7 0 0.5\n"
                    "waypoint lonely 9 9 9\nlink y x\nlink x x cost 1\n"},
    };
    /* grids for mode 16: a 12 x 10 grid with a few walls, plain and with terrain, and point pairs */
    uint8_t grid[64] = {11, 9, 0};
    for (size_t i = 3; i < sizeof grid; i++)
        grid[i] = (uint8_t)(i * 37 % 11 == 0 ? 0x21 : i * 13 % 7 == 0 ? 0x80 : 0);
    write_seed(dir, "grid", 16, grid, sizeof grid);
    grid[2] = 1;
    write_seed(dir, "grid_terrain", 16, grid, sizeof grid);
    grid[2] = 2;
    write_seed(dir, "grid_all_links", 16, grid, sizeof grid);
    /* for mode 32: a grid's bake saved with its grid, with plain tables and hub labels */
    nav_grid *g = NULL;
    if (nav_succeeded(nav_grid_create(&(nav_grid_desc){.width = 10, .height = 8}, &g))) {
        for (int32_t y = 2; y < 6; y++) nav_grid_set_cell(g, 4, y, NAV_TERRAIN_BLOCKED);
        nav_grid_set_cell(g, 7, 3, NAV_TERRAIN_BLOCKED);
        for (uint32_t dense_max = 0; dense_max < 2; dense_max++) {
            nav_waypoints *baked = NULL;
            char path[4096];
            snprintf(path, sizeof path, "%s/file.nav", dir);
            if (nav_succeeded(
                    nav_waypoints_bake_grid(g, &(nav_waypoint_grid_desc){.dense_max = dense_max}, &baked)) &&
                nav_succeeded(nav_waypoints_save_nav(g, baked, path, NULL))) {
                FILE *f = fopen(path, "rb");
                uint8_t bytes[65536];
                size_t got = f ? fread(bytes, 1, sizeof bytes, f) : 0;
                if (f) fclose(f);
                remove(path);
                if (got) write_seed(dir, dense_max ? "file_labels" : "file", 32, bytes, got);
            }
            nav_waypoints_destroy(baked);
        }
        nav_grid_destroy(g);
    }
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        write_seed(dir, seeds[i][0], 0, seeds[i][1], strlen(seeds[i][1]));
        char name[32];
        snprintf(name, sizeof name, "%s_2", seeds[i][0]);
        write_seed(dir, name, 1, seeds[i][1], strlen(seeds[i][1]));
        /* and its bake as a chunk, with plain tables and hub labels */
        nav_waypoint_graph g;
        if (nav_failed(nav_waypoint_graph_load_text(seeds[i][1], strlen(seeds[i][1]), NULL, &g))) continue;
        for (uint32_t dense_max = 0; dense_max < 2; dense_max++) {
            nav_waypoints *wp;
            if (nav_failed(nav_waypoints_bake(&g, &(nav_waypoints_bake_desc){.dense_max = dense_max}, &wp)))
                continue;
            nav_writer w;
            nav_writer_init(&w, NULL);
            if (nav_succeeded(nav_waypoints_write_chunk(wp, &w))) {
                snprintf(name, sizeof name, "%s_chunk%s", seeds[i][0], dense_max ? "_labels" : "");
                write_seed(dir, name, 8, w.data, w.size);
            }
            nav_writer_destroy(&w);
            nav_waypoints_destroy(wp);
        }
        nav_waypoint_graph_release(&g);
    }
}
#endif
