/* Text loaders: Moving AI .map and the libnav ASCII format (and the line ends of every text reader:
 * .scen, .obj, waypoint text). Happy paths with exact cells, every
 * documented error with its message, truncated and damaged input (never a crash: success, or
 * failure with a detail bit), and allocation failure at every allocation (a status and no leak). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mapgen.h"
#include "support.h"

#include "nav/geometry.h"
#include "nav/grid.h"
#include "nav/io.h"
#include "nav/scen.h"
#include "nav/waypoints.h"

/* ---- Helpers ----------------------------------------------------------------------------------- */

static int count_passable(const nav_grid *grid)
{
    int n = 0;
    for (int32_t y = 0; y < nav_grid_height(grid); y++)
        for (int32_t x = 0; x < nav_grid_width(grid); x++) n += nav_grid_passable(grid, x, y);
    return n;
}

/* Loads text (a C string) and checks the status and the last logged message. */
static void expect_error(text_loader load, const char *name, const char *text, nav_status detail,
                         const char *message)
{
    test_log log;
    test_log_init(&log);
    nav_grid *grid = (nav_grid *)1;
    nav_status s = load(text, strlen(text), name, &(nav_grid_desc){.log = &log.hooks}, &grid);
    if (s != (NAV_FAILURE | detail) || strcmp(log.last, message) != 0)
        fail_msg("input:\n%s\nstatus %#x (expected %#x), message:\n  '%s'\nexpected:\n  '%s'", text, s,
                 NAV_FAILURE | detail, log.last, message);
    assert_null(grid);
}

/* Loads text that must load. */
static nav_grid *expect_grid(text_loader load, const char *text, const nav_grid_desc *options)
{
    test_log log;
    test_log_init(&log);
    nav_grid_desc desc = options ? *options : (nav_grid_desc){0};
    desc.log = &log.hooks;
    nav_grid *grid = NULL;
    nav_status s = load(text, strlen(text), "t", &desc, &grid);
    if (s != NAV_SUCCESS) fail_msg("input:\n%s\nstatus %#x, message '%s'", text, s, log.last);
    assert_non_null(grid);
    assert_int_equal(log.count, 0);
    assert_true(nav_grid_has_reachability(grid));
    return grid;
}

/* Runs load with the Nth allocation failing for N = 1, 2, ... until it succeeds: each failure
 * must be NAV_OUT_OF_MEMORY with nothing left allocated. Returns the allocations of a success. */
static long fail_every_allocation(text_loader load, const char *text)
{
    for (long n = 1;; n++) {
        test_allocator alloc;
        test_allocator_init(&alloc, n);
        nav_grid *grid = NULL;
        nav_status s = load(text, strlen(text), "oom", &(nav_grid_desc){.allocator = &alloc.hooks}, &grid);
        if (nav_succeeded(s)) {
            assert_true(n > 1);
            nav_grid_destroy(grid);
            assert_int_equal(alloc.live, 0);
            return n - 1;
        }
        FAILS_WITH(s, NAV_OUT_OF_MEMORY);
        assert_null(grid);
        assert_int_equal(alloc.live, 0);
        assert_true(n < 100);
    }
}

/* ---- Moving AI .map ---------------------------------------------------------------------------- */

/* A generated map (mapgen.h) loads cell for cell: its size, every cell's terrain and moves (no
 * corner cut), its pieces as the reachability labels, from the file and from memory alike. */
static void check_generated_map(int which)
{
    const test_map_desc *desc = &test_bench_maps[which];
    test_map map;
    test_map_generate(&map, desc);
    test_log log;
    test_log_init(&log);
    nav_grid *grid = NULL, *from_text = NULL;
    nav_status s =
        nav_grid_load_map_file(test_bench_file(which, false), &(nav_grid_desc){.log = &log.hooks}, &grid);
    assert_int_equal(s, NAV_SUCCESS);
    assert_int_equal(log.count, 0);
    size_t size;
    char *text = test_map_text(&map, &size);
    assert_int_equal(nav_grid_load_map(text, size, desc->name, NULL, &from_text), NAV_SUCCESS);
    assert_true(nav_grid_fingerprint(from_text) == nav_grid_fingerprint(grid));
    assert_int_equal(nav_grid_width(grid), desc->width);
    assert_int_equal(nav_grid_height(grid), desc->height);
    assert_int_equal(count_passable(grid), map.free_cells);
    /* one reachability label a generated piece, and the other way round */
    uint32_t *label_of_piece = calloc(map.components + 1, sizeof *label_of_piece);
    assert_non_null(label_of_piece);
    for (int32_t y = 0; y < map.height; y++)
        for (int32_t x = 0; x < map.width; x++) {
            bool open = test_map_free(&map, x, y);
            assert_int_equal(nav_grid_cell(grid, x, y), open ? NAV_TERRAIN_PLAIN : NAV_TERRAIN_BLOCKED);
            assert_int_equal(nav_grid_moves(grid, x, y), test_map_moves(&map, x, y));
            uint32_t piece = map.component[(size_t)y * map.width + x], label = nav_grid_component(grid, x, y);
            assert_int_equal(label == 0, piece == 0);
            if (!piece) continue;
            if (!label_of_piece[piece]) {
                for (uint32_t p = 1; p <= map.components; p++) assert_true(label_of_piece[p] != label);
                label_of_piece[piece] = label;
            }
            assert_int_equal(label, label_of_piece[piece]);
        }
    const nav_grid_desc *d = nav_grid_get_desc(grid);
    assert_int_equal(d->connectivity, NAV_CONNECT_8);
    assert_int_equal(d->corner_policy, NAV_CORNER_NEVER_CUT);
    free(label_of_piece);
    free(text);
    nav_grid_destroy(from_text);
    nav_grid_destroy(grid);
    test_map_destroy(&map);
}

static void test_map_generated(void **state)
{
    (void)state;
    for (int which = 0; which < TEST_BENCH_COUNT; which++) check_generated_map(which);
}

/* The real arena (the shared data): exact cells and moves. */
static void test_map_arena(void **state)
{
    (void)state;
    test_log log;
    test_log_init(&log);
    nav_grid *grid = NULL;
    nav_status s =
        nav_grid_load_map_file(test_shared("maps/dao/arena.map"), &(nav_grid_desc){.log = &log.hooks}, &grid);
    assert_int_equal(s, NAV_SUCCESS);
    assert_int_equal(log.count, 0);
    assert_int_equal(nav_grid_width(grid), 49);
    assert_int_equal(nav_grid_height(grid), 49);
    assert_int_equal(count_passable(grid), 2054); /* '.' cells; the other 347 are 'T' */
    assert_int_equal(nav_grid_cell(grid, 0, 0), NAV_TERRAIN_BLOCKED);
    assert_int_equal(nav_grid_cell(grid, 3, 1), NAV_TERRAIN_PLAIN); /* row 1: "TTT....." */
    assert_int_equal(nav_grid_cell(grid, 2, 1), NAV_TERRAIN_BLOCKED);
    assert_true(nav_grid_cell_cost(grid, 3, 1) == 1.0);
    /* (3, 1): E, S and SE free; SW (2, 2) is free but its corner (2, 1) is a tree. */
    assert_int_equal(nav_grid_moves(grid, 3, 1), 1u << NAV_DIR_E | 1u << NAV_DIR_S | 1u << NAV_DIR_SE);
    assert_true(nav_grid_has_reachability(grid));
    assert_true(nav_grid_component(grid, 3, 1) != 0);
    assert_int_equal(nav_grid_component(grid, 0, 0), 0);
    const nav_grid_desc *d = nav_grid_get_desc(grid);
    assert_int_equal(d->connectivity, NAV_CONNECT_8);
    assert_int_equal(d->corner_policy, NAV_CORNER_NEVER_CUT);
    nav_grid_destroy(grid);
}

static void test_map_benchmarks(void **state)
{
    (void)state;
    nav_grid *grid = NULL;
    assert_int_equal(nav_grid_load_map_file(test_shared("maps/dao/den312d.map"), NULL, &grid), NAV_SUCCESS);
    assert_int_equal(nav_grid_width(grid), 65);
    assert_int_equal(nav_grid_height(grid), 81);
    assert_int_equal(count_passable(grid), 2445);
    nav_grid_destroy(grid);
    assert_int_equal(nav_grid_load_map_file(test_shared("maps/dao/brc000d.map"), NULL, &grid), NAV_SUCCESS);
    assert_int_equal(nav_grid_width(grid), 257);
    assert_int_equal(nav_grid_height(grid), 261);
    assert_int_equal(count_passable(grid), 28963);
    nav_grid_destroy(grid);
}

/* Every character, CRLF line ends, trailing blanks, header lines in another order, options. */
static void test_map_small(void **state)
{
    (void)state;
    const char *text = "type octile \r\n"
                       "width 4\t\r\n"
                       "height 3\r\n"
                       "map\r\n"
                       ".GS@\r\n"
                       "....  \r\n"
                       "TOW.\r\n"
                       "\r\n";
    nav_grid *grid = expect_grid(nav_grid_load_map, text, NULL);
    assert_int_equal(nav_grid_width(grid), 4);
    assert_int_equal(nav_grid_height(grid), 3);
    const uint8_t expect[3][4] = {{1, 1, 2, 0}, {1, 1, 1, 1}, {0, 0, 0, 1}};
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 4; x++) assert_int_equal(nav_grid_cell(grid, x, y), expect[y][x]);
    assert_true(nav_grid_cell_cost(grid, 2, 0) == 1.0); /* swamp: type 2, cost 1 */
    assert_false(nav_grid_passable(grid, 1, 2));        /* 'O' */
    assert_false(nav_grid_passable(grid, 2, 2));        /* 'W' */
    /* (1, 1): S is 'O', SE 'W', SW 'T'; NE (the swamp) and NW have both corners free. */
    assert_int_equal(nav_grid_moves(grid, 1, 1), 1u << NAV_DIR_E | 1u << NAV_DIR_W | 1u << NAV_DIR_N |
                                                     1u << NAV_DIR_NE | 1u << NAV_DIR_NW);
    /* (3, 2): only N; NW (2, 1) would pass the water at (2, 2). */
    assert_int_equal(nav_grid_moves(grid, 3, 2), 1u << NAV_DIR_N);
    nav_grid_destroy(grid);

    /* The caller's options apply; its width and height are replaced by the file's. */
    grid = expect_grid(
        nav_grid_load_map, text,
        &(nav_grid_desc){.width = 99, .height = -5, .connectivity = NAV_CONNECT_4, .cell_size = 2});
    assert_int_equal(nav_grid_width(grid), 4);
    assert_int_equal(nav_grid_get_desc(grid)->connectivity, NAV_CONNECT_4);
    assert_true(nav_grid_get_desc(grid)->cell_size == 2.0f);
    assert_int_equal(nav_grid_moves(grid, 1, 1), 1u << NAV_DIR_E | 1u << NAV_DIR_W | 1u << NAV_DIR_N);
    nav_grid_destroy(grid);

    /* The last row without a line end. */
    grid = expect_grid(nav_grid_load_map, "type octile\nheight 1\nwidth 2\nmap\n.@", NULL);
    assert_int_equal(nav_grid_cell(grid, 1, 0), NAV_TERRAIN_BLOCKED);
    nav_grid_destroy(grid);
}

#define MAP_HEADER "type octile\nheight 2\nwidth 3\nmap\n"

static void test_map_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        nav_status detail;
        const char *message;
    } cases[] = {
        {"", NAV_PARSE_ERROR, "t.map:1: file ends before the 'map' line"},
        {"type octile\nheight 2\nwidth 3\n", NAV_PARSE_ERROR, "t.map:4: file ends before the 'map' line"},
        {"height 2\nwidth 3\nmap\n...\n...\n", NAV_PARSE_ERROR, "t.map:3: missing 'type' line before 'map'"},
        {"type octile\nwidth 3\nmap\n", NAV_PARSE_ERROR, "t.map:3: missing 'height' line before 'map'"},
        {"type octile\nheight 2\nmap\n", NAV_PARSE_ERROR, "t.map:3: missing 'width' line before 'map'"},
        {"type octile\nheight 2\nheight 2\n", NAV_PARSE_ERROR,
         "t.map:3: duplicate 'height' line (first on line 2)"},
        {"type octile\ntype octile\n", NAV_PARSE_ERROR, "t.map:2: duplicate 'type' line (first on line 1)"},
        {"type octile\nhieght 2\n", NAV_PARSE_ERROR, "t.map:2: unexpected header line 'hieght 2'"},
        {"type octile\n\nheight 2\n", NAV_PARSE_ERROR, "t.map:2: empty line in the header"},
        {"type tile\n", NAV_PARSE_ERROR,
         "t.map:1: unsupported map type 'type tile' (expected 'type octile')"},
        {"type octile 2\n", NAV_PARSE_ERROR,
         "t.map:1: unsupported map type 'type octile 2' (expected 'type octile')"},
        {"type octile\nheight 0\n", NAV_PARSE_ERROR, "t.map:2: height must be a positive integer, not '0'"},
        {"type octile\nheight -3\n", NAV_PARSE_ERROR, "t.map:2: height must be a positive integer, not '-3'"},
        {"type octile\nwidth 2x\n", NAV_PARSE_ERROR, "t.map:2: width must be a positive integer, not '2x'"},
        {"type octile\nwidth 1.5\n", NAV_PARSE_ERROR, "t.map:2: width must be a positive integer, not '1.5'"},
        {"type octile\nheight\n", NAV_PARSE_ERROR, "t.map:2: 'height' needs a value"},
        {"type octile\nheight 2 3\n", NAV_PARSE_ERROR, "t.map:2: unexpected text after the height: '3'"},
        {"type octile\nheight 99999999999\n", NAV_TOO_LARGE,
         "t.map:2: height 99999999999 is over the limit of 32768"},
        {"type octile\nheight 184467440737095516160\n", NAV_TOO_LARGE,
         "t.map:2: height 184467440737095516160 is over the limit of 32768"},
        {"type octile\nwidth 32769\n", NAV_TOO_LARGE, "t.map:2: width 32769 is over the limit of 32768"},
        {"type octile\nheight 2\nwidth 3\nmap x\n", NAV_PARSE_ERROR,
         "t.map:4: unexpected text after 'map': 'x'"},
        {MAP_HEADER, NAV_PARSE_ERROR, "t.map:5: file ends after 0 of 2 rows"},
        {MAP_HEADER "...\n", NAV_PARSE_ERROR, "t.map:6: file ends after 1 of 2 rows"},
        {MAP_HEADER "..\n...\n", NAV_PARSE_ERROR, "t.map:5: row 0 has 2 columns, expected 3"},
        {MAP_HEADER "...\n....\n", NAV_PARSE_ERROR, "t.map:6: row 1 has 4 columns, expected 3"},
        {MAP_HEADER "...\n\n...\n", NAV_PARSE_ERROR, "t.map:6: row 1 has 0 columns, expected 3"},
        {MAP_HEADER "...\n.x.\n", NAV_PARSE_ERROR, "t.map:6: unknown character 'x' at column 2 (x = 1)"},
        {MAP_HEADER "...\n. .\n", NAV_PARSE_ERROR, "t.map:6: unknown character ' ' at column 2 (x = 1)"},
        {MAP_HEADER "...\n.\x80.\n", NAV_PARSE_ERROR, "t.map:6: unknown character 0x80 at column 2 (x = 1)"},
        {MAP_HEADER "...\n...\n...\n", NAV_PARSE_ERROR,
         "t.map:7: unexpected text after the last row (the header says height 2): '...'"},
        {MAP_HEADER "...\n...\n\n\nx\n", NAV_PARSE_ERROR,
         "t.map:9: unexpected text after the last row (the header says height 2): 'x'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_error(nav_grid_load_map, "t.map", cases[i].text, cases[i].detail, cases[i].message);

    /* A NUL byte in a row (the text has a length; it is not a C string). */
    test_log log;
    test_log_init(&log);
    nav_grid *grid = (nav_grid *)1;
    static const char nul_row[] = MAP_HEADER "...\n.\0.\n";
    FAILS_WITH(
        nav_grid_load_map(nul_row, sizeof nul_row - 1, "t.map", &(nav_grid_desc){.log = &log.hooks}, &grid),
        NAV_PARSE_ERROR);
    assert_string_equal(log.last, "t.map:6: unknown character 0x00 at column 2 (x = 1)");
    assert_null(grid);

    /* Trailing blank lines are fine; so is a map of the largest side. */
    grid = expect_grid(nav_grid_load_map, MAP_HEADER "...\n...\n\n \t\n\n", NULL);
    nav_grid_destroy(grid);
}

static void test_map_limits(void **state)
{
    (void)state;
    /* 32768 x 1: at the side limit. */
    size_t n = 32768;
    char *text = malloc(64 + n);
    assert_non_null(text);
    int len = sprintf(text, "type octile\nheight 1\nwidth %zu\nmap\n", n);
    memset(text + len, '.', n);
    text[len + (int)n] = '\0';
    nav_grid *grid = expect_grid(nav_grid_load_map, text, NULL);
    assert_int_equal(nav_grid_width(grid), 32768);
    nav_grid_destroy(grid);
    free(text);

    /* A header that claims a huge map over three short rows fails on the rows, before allocating
     * the 2 GiB it claims (the allocator would see that allocation). */
    test_allocator alloc;
    test_allocator_init(&alloc, 0);
    test_log log;
    test_log_init(&log);
    const char *liar = "type octile\nheight 32768\nwidth 32768\nmap\n...\n";
    nav_grid *none = NULL;
    FAILS_WITH(nav_grid_load_map(liar, strlen(liar), "liar.map",
                                 &(nav_grid_desc){.allocator = &alloc.hooks, .log = &log.hooks}, &none),
               NAV_PARSE_ERROR);
    assert_string_equal(log.last, "liar.map:5: row 0 has 3 columns, expected 32768");
    assert_int_equal(alloc.calls, 0);
}

static void test_map_bad_files(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        nav_status detail;
        const char *message;
    } cases[] = {
        {"bad/short_row.map", NAV_PARSE_ERROR, "short_row.map:6: row 1 has 2 columns, expected 3"},
        {"bad/unknown_char.map", NAV_PARSE_ERROR,
         "unknown_char.map:7: unknown character 'X' at column 3 (x = 2)"},
        {"bad/huge_height.map", NAV_TOO_LARGE,
         "huge_height.map:2: height 99999999999 is over the limit of 32768"},
        {"bad/missing_map.map", NAV_PARSE_ERROR, "missing_map.map:4: file ends before the 'map' line"},
        {"bad/truncated.map", NAV_PARSE_ERROR, "truncated.map:7: file ends after 2 of 4 rows"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        test_log log;
        test_log_init(&log);
        nav_grid *grid = (nav_grid *)1;
        nav_status s =
            nav_grid_load_map_file(test_data(cases[i].file), &(nav_grid_desc){.log = &log.hooks}, &grid);
        FAILS_WITH(s, cases[i].detail);
        assert_string_equal(log.last, cases[i].message);
        assert_int_equal(log.count, 1);
        assert_null(grid);
    }
}

static void test_map_bad_calls(void **state)
{
    (void)state;
    test_log log;
    test_log_init(&log);
    nav_grid *grid = (nav_grid *)1;
    nav_grid_desc desc = {.log = &log.hooks};
    FAILS_WITH(nav_grid_load_map_file(test_data("no/such.map"), &desc, &grid), NAV_IO_ERROR);
    assert_null(grid);
    assert_string_equal(log.last, "such.map: cannot read '" NAV_TEST_DATA "/no/such.map': no such file");
    /* A folder is refused for what it is, before it is read. */
    FAILS_WITH(nav_grid_load_map_file(test_data("bad"), &desc, &grid), NAV_IO_ERROR);
    assert_null(grid);
    assert_string_equal(log.last,
                        "bad: cannot read '" NAV_TEST_DATA "/bad': it is a directory, not a regular file");
    FAILS_WITH(nav_grid_load_map_file(NULL, &desc, &grid), NAV_INVALID_PARAM);
    FAILS_WITH(nav_grid_load_map_file(test_bench_file(TEST_BENCH_ARENA, false), &desc, NULL),
               NAV_INVALID_PARAM);
    FAILS_WITH(nav_grid_load_map(NULL, 5, "x", &desc, &grid), NAV_INVALID_PARAM);
    FAILS_WITH(nav_grid_load_map("", 0, "x", &desc, NULL), NAV_INVALID_PARAM);
    /* Bad grid options are the caller's mistake, reported after the file was read. */
    desc.connectivity = 5;
    FAILS_WITH(nav_grid_load_map_file(test_bench_file(TEST_BENCH_ARENA, false), &desc, &grid),
               NAV_INVALID_PARAM);
    assert_null(grid);
    assert_string_equal(log.last, "arena_like.map: cannot create the grid: invalid parameter");
    /* A null name and null options. */
    FAILS_WITH(nav_grid_load_map("x", 1, NULL, NULL, &grid), NAV_PARSE_ERROR);
}

/* Every prefix of a map (or about samples of them) loads or fails cleanly: only the whole file and
 * the file without its last line end load (a big map: only the whole file among the samples);
 * every 7th byte flipped in turn loads or fails cleanly. */
static void check_truncations(const char *path, size_t samples)
{
    size_t size;
    char *text = test_read_file(path, &size);
    assert_int_equal(test_load_prefixes(nav_grid_load_map, text, size, samples ? samples : size),
                     samples ? 1 : 2);
    if (!samples) test_load_damaged(nav_grid_load_map, text, size, 7);
    free(text);
}

/* The file variant reads the file through the same allocator as the grid: every allocation that
 * fails gives NAV_OUT_OF_MEMORY and leaks nothing. */
static void check_file_out_of_memory(const char *path)
{
    for (long n = 1;; n++) {
        test_allocator alloc;
        test_allocator_init(&alloc, n);
        nav_grid *grid = NULL;
        nav_status s = nav_grid_load_map_file(path, &(nav_grid_desc){.allocator = &alloc.hooks}, &grid);
        assert_int_equal(alloc.live, nav_succeeded(s) ? 5 : 0); /* grid, terrain, moves, bits, labels */
        nav_grid_destroy(grid);
        if (nav_succeeded(s)) break;
        FAILS_WITH(s, NAV_OUT_OF_MEMORY);
        assert_true(n < 100);
    }
}

static void test_map_truncated(void **state)
{
    (void)state;
    check_truncations(test_bench_file(TEST_BENCH_ARENA, false), 0);
    check_truncations(test_bench_file(TEST_BENCH_DEN, false), 0);
    check_truncations(test_bench_file(TEST_BENCH_BRC, false), 500);
}

static void test_map_out_of_memory(void **state)
{
    (void)state;
    /* Grid (4 blocks: the struct, terrain, moves, free-cell bits) and reachability (2). */
    assert_int_equal(fail_every_allocation(nav_grid_load_map, MAP_HEADER "..@\n.S.\n"), 6);
    check_file_out_of_memory(test_bench_file(TEST_BENCH_ARENA, false));
}

/* The same on the real maps (the shared data). */
static void test_map_real_truncated(void **state)
{
    (void)state;
    check_truncations(test_shared("maps/dao/arena.map"), 0);
    check_truncations(test_shared("maps/dao/den312d.map"), 0);
    check_truncations(test_shared("maps/dao/brc000d.map"), 500);
    check_file_out_of_memory(test_shared("maps/dao/arena.map"));
}

/* ---- ASCII ------------------------------------------------------------------------------------- */

static void test_ascii_default_legend(void **state)
{
    (void)state;
    /* No header: every line is a row. */
    const char *text = "#####\n"
                       "#.fm#\n"
                       "# /S#\n"
                       "#G@X#\n"
                       "#####\n";
    nav_grid *grid = expect_grid(nav_grid_load_ascii, text, NULL);
    assert_int_equal(nav_grid_width(grid), 5);
    assert_int_equal(nav_grid_height(grid), 5);
    /* Costs in use: 1 ('.', ' ', 'S', 'G'), 2 ('/'), 5 ('f'), 10 ('m'): types 1, 2, 3, 4. */
    assert_int_equal(nav_grid_cell(grid, 1, 1), NAV_TERRAIN_PLAIN);
    assert_int_equal(nav_grid_cell(grid, 2, 1), 3);
    assert_int_equal(nav_grid_cell(grid, 3, 1), 4);
    assert_int_equal(nav_grid_cell(grid, 1, 2), NAV_TERRAIN_PLAIN);
    assert_int_equal(nav_grid_cell(grid, 2, 2), 2);
    assert_int_equal(nav_grid_cell(grid, 3, 2), NAV_TERRAIN_PLAIN);
    assert_int_equal(nav_grid_cell(grid, 1, 3), NAV_TERRAIN_PLAIN);
    assert_int_equal(nav_grid_cell(grid, 2, 3), NAV_TERRAIN_BLOCKED);
    assert_int_equal(nav_grid_cell(grid, 3, 3), NAV_TERRAIN_BLOCKED);
    assert_int_equal(nav_grid_cell(grid, 0, 0), NAV_TERRAIN_BLOCKED);
    assert_true(nav_grid_cell_cost(grid, 2, 1) == 5.0);
    assert_true(nav_grid_cell_cost(grid, 3, 1) == 10.0);
    assert_true(nav_grid_cell_cost(grid, 2, 2) == 2.0);
    assert_true(nav_grid_min_cost(grid) == 1.0);
    assert_true(nav_grid_cell_height(grid, 2, 2) == 0.0f);
    /* The ramp at (2, 2): its S and the diagonals past (2, 3) are blocked. */
    assert_int_equal(nav_grid_moves(grid, 2, 2), 1u << NAV_DIR_E | 1u << NAV_DIR_W | 1u << NAV_DIR_N |
                                                     1u << NAV_DIR_NE | 1u << NAV_DIR_NW);
    assert_true(nav_grid_move_cost(grid, 1, 1, NAV_DIR_E) == 5.0);
    nav_grid_destroy(grid);

    /* CRLF, trailing empty lines, and a row of spaces (spaces are cells, not trailing blanks). */
    grid = expect_grid(nav_grid_load_ascii, "..\r\n  \r\n\r\n\r\n", NULL);
    assert_int_equal(nav_grid_width(grid), 2);
    assert_int_equal(nav_grid_height(grid), 2);
    assert_true(nav_grid_passable(grid, 1, 1));
    nav_grid_destroy(grid);
}

static const char header_text[] = "# a small test\n"
                                  "   # an indented comment\n"
                                  "\n"
                                  "legend _ height -10\n"
                                  "legend 'o' cost 2 height -5\r\n"
                                  "legend ' ' blocked\n"
                                  "legend ~ cost 2.5\n"
                                  "legend * height 3 cost blocked\n"
                                  "legend ''' cost 1e1\n"
                                  "legend # cost 0.5\n"
                                  "max_climb 7\n"
                                  "connectivity 4\n"
                                  "corner one\n"
                                  "diagonal 1.5\n"
                                  "map\n"
                                  ".._o. \n"
                                  "~~*__.\n"
                                  "'#....\n";

static void test_ascii_header(void **state)
{
    (void)state;
    nav_grid *grid = expect_grid(nav_grid_load_ascii, header_text, NULL);
    assert_int_equal(nav_grid_width(grid), 6);
    assert_int_equal(nav_grid_height(grid), 3);
    const nav_grid_desc *d = nav_grid_get_desc(grid);
    assert_int_equal(d->connectivity, NAV_CONNECT_4);
    assert_int_equal(d->corner_policy, NAV_CORNER_CUT_IF_ONE_FREE);
    assert_true(d->max_climb == 7.0f);
    assert_true(d->diagonal_cost == 1.5);
    /* Costs in use besides 1: 0.5 ('#'), 2 ('o'), 2.5 ('~'), 10 ('''): types 2..5 by cost. */
    assert_int_equal(nav_grid_cell(grid, 1, 2), 2);
    assert_int_equal(nav_grid_cell(grid, 3, 0), 3);
    assert_int_equal(nav_grid_cell(grid, 0, 1), 4);
    assert_int_equal(nav_grid_cell(grid, 0, 2), 5);
    assert_true(nav_grid_cell_cost(grid, 1, 2) == 0.5);
    assert_true(nav_grid_cell_cost(grid, 3, 0) == 2.0);
    assert_true(nav_grid_cell_cost(grid, 0, 1) == 2.5);
    assert_true(nav_grid_cell_cost(grid, 0, 2) == 10.0);
    assert_true(nav_grid_min_cost(grid) == 0.5);
    assert_int_equal(nav_grid_cell(grid, 5, 0), NAV_TERRAIN_BLOCKED); /* ' ' */
    assert_int_equal(nav_grid_cell(grid, 2, 1), NAV_TERRAIN_BLOCKED); /* '*' */
    assert_int_equal(nav_grid_cell(grid, 2, 0), NAV_TERRAIN_PLAIN);   /* '_' */
    assert_true(nav_grid_cell_height(grid, 2, 0) == -10.0f);
    assert_true(nav_grid_cell_height(grid, 3, 0) == -5.0f);
    assert_true(nav_grid_cell_height(grid, 2, 1) == 3.0f);
    assert_true(nav_grid_cell_height(grid, 0, 0) == 0.0f);
    /* (2, 0) at -10: up 5 to E is allowed, up 10 to W is not, S is blocked. */
    assert_int_equal(nav_grid_moves(grid, 2, 0), 1u << NAV_DIR_E);
    assert_int_equal(nav_grid_moves(grid, 1, 0), 1u << NAV_DIR_E | 1u << NAV_DIR_W | 1u << NAV_DIR_S);
    assert_int_equal(nav_grid_moves(grid, 3, 1), 1u << NAV_DIR_E | 1u << NAV_DIR_N);
    nav_grid_destroy(grid);

    /* A non-zero caller option wins over the file; the others come from the file. */
    grid = expect_grid(nav_grid_load_ascii, header_text,
                       &(nav_grid_desc){.connectivity = NAV_CONNECT_8, .max_climb = 20});
    d = nav_grid_get_desc(grid);
    assert_int_equal(d->connectivity, NAV_CONNECT_8);
    assert_true(d->max_climb == 20.0f);
    assert_int_equal(d->corner_policy, NAV_CORNER_CUT_IF_ONE_FREE);
    assert_true(d->diagonal_cost == 1.5);
    /* (2, 0): W is a climb of 10 (allowed now); SE and SW pass one blocked corner ('*'). */
    assert_int_equal(nav_grid_moves(grid, 2, 0),
                     1u << NAV_DIR_E | 1u << NAV_DIR_W | 1u << NAV_DIR_SE | 1u << NAV_DIR_SW);
    assert_true(nav_grid_move_cost(grid, 2, 0, NAV_DIR_SW) == 1.5 * 2.5);
    nav_grid_destroy(grid);

    /* "unlimited", "never", "always", "8". */
    grid = expect_grid(nav_grid_load_ascii, "max_climb unlimited\ncorner always\nconnectivity 8\nmap\n.\n",
                       NULL);
    assert_true(nav_grid_get_desc(grid)->max_climb == INFINITY);
    assert_int_equal(nav_grid_get_desc(grid)->corner_policy, NAV_CORNER_ALWAYS_CUT);
    nav_grid_destroy(grid);
    grid = expect_grid(nav_grid_load_ascii, "corner never\nmap\n.\n", NULL);
    assert_int_equal(nav_grid_get_desc(grid)->corner_policy, NAV_CORNER_NEVER_CUT);
    nav_grid_destroy(grid);
}

static void test_ascii_numbers(void **state)
{
    (void)state;
    static const struct {
        const char *value;
        double cost;
    } cases[] = {
        {"3", 3},
        {"+3", 3},
        {"0.1", 0.1},
        {".5", 0.5},
        {"5.", 5},
        {"1e2", 100},
        {"1.5E-1", 0.15},
        {"007", 7},
        {"1e+1", 10},
        {"0.30000000000000004", 0.30000000000000004},
        {"4096", NAV_COST_MAX},
        {"0.0009765625", NAV_COST_MIN},
        {"9.765625e-4", NAV_COST_MIN},
        /* outside the cost range: read through a .scen file's optimal length below */
        {"1234567890123456789", 1234567890123456789.0},
        {"1e-30", 1e-30},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[128];
        if (!nav_terrain_cost_valid(cases[i].cost)) {
            snprintf(text, sizeof text, "version 1\n0 m 1 1 0 0 0 0 %s\n", cases[i].value);
            nav_scen *scen;
            assert_int_equal(nav_scen_load(text, strlen(text), "s", NULL, NULL, &scen), NAV_SUCCESS);
            if (scen->problems[0].optimal_length != cases[i].cost)
                fail_msg("'%s' read as %.17g", cases[i].value, scen->problems[0].optimal_length);
            nav_scen_destroy(scen);
            continue;
        }
        snprintf(text, sizeof text, "legend a cost %s\nmap\na\n", cases[i].value);
        nav_grid *grid = expect_grid(nav_grid_load_ascii, text, NULL);
        if (nav_grid_cell_cost(grid, 0, 0) != cases[i].cost)
            fail_msg("'%s' read as %.17g", cases[i].value, nav_grid_cell_cost(grid, 0, 0));
        nav_grid_destroy(grid);
    }
}

static void test_ascii_files(void **state)
{
    (void)state;
    nav_grid *grid = NULL;
    assert_int_equal(nav_grid_load_ascii_file(test_data("terrain.txt"), NULL, &grid), NAV_SUCCESS);
    assert_int_equal(nav_grid_width(grid), 10);
    assert_int_equal(nav_grid_height(grid), 6);
    assert_int_equal(nav_grid_get_desc(grid)->connectivity, NAV_CONNECT_4);
    assert_true(nav_grid_cell_cost(grid, 2, 1) == 5.0);
    assert_true(nav_grid_cell_cost(grid, 8, 2) == 10.0);
    assert_int_equal(nav_grid_cell(grid, 2, 1), 2);
    assert_int_equal(nav_grid_cell(grid, 8, 2), 3);
    assert_false(nav_grid_passable(grid, 5, 4));
    assert_int_equal(nav_grid_moves(grid, 0, 0), 1u << NAV_DIR_E | 1u << NAV_DIR_S);
    nav_grid_destroy(grid);

    /* The seed tutorial's basin (a fixture the planner tests use). */
    assert_int_equal(nav_grid_load_ascii_file(test_data("basin.txt"), NULL, &grid), NAV_SUCCESS);
    assert_int_equal(nav_grid_width(grid), 58);
    assert_int_equal(nav_grid_height(grid), 18);
    assert_true(nav_grid_get_desc(grid)->max_climb == 7.0f);
    assert_true(nav_grid_cell_height(grid, 13, 3) == -1.0f);  /* the rim */
    assert_true(nav_grid_cell_height(grid, 14, 4) == -10.0f); /* the floor */
    assert_true(nav_grid_cell_height(grid, 0, 0) == 0.0f);
    nav_grid_destroy(grid);

    test_log log;
    test_log_init(&log);
    FAILS_WITH(
        nav_grid_load_ascii_file(test_data("bad/legend.txt"), &(nav_grid_desc){.log = &log.hooks}, &grid),
        NAV_PARSE_ERROR);
    assert_string_equal(log.last,
                        "legend.txt:2: legend character 'ab' is not one character (quote a space as ' ')");
    FAILS_WITH(nav_grid_load_ascii_file(test_data("missing.txt"), &(nav_grid_desc){.log = &log.hooks}, &grid),
               NAV_IO_ERROR);
    assert_null(grid);
    FAILS_WITH(nav_grid_load_ascii_file(NULL, NULL, &grid), NAV_INVALID_PARAM);
    FAILS_WITH(nav_grid_load_ascii(NULL, 1, NULL, NULL, &grid), NAV_INVALID_PARAM);
    FAILS_WITH(nav_grid_load_ascii(".", 1, NULL, NULL, NULL), NAV_INVALID_PARAM);
}

static void test_ascii_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        nav_status detail;
        const char *message;
    } cases[] = {
        {"", NAV_PARSE_ERROR, "t.txt:1: no rows"},
        {"map\n", NAV_PARSE_ERROR, "t.txt:2: no rows after 'map'"},
        {"# only a comment\nmap\n\n\n", NAV_PARSE_ERROR, "t.txt:3: no rows after 'map'"},
        {"legend\nmap\n.\n", NAV_PARSE_ERROR, "t.txt:1: 'legend' needs a character"},
        {"legend ab cost 2\nmap\n.\n", NAV_PARSE_ERROR,
         "t.txt:1: legend character 'ab' is not one character (quote a space as ' ')"},
        {"legend 'ab' cost 2\nmap\n.\n", NAV_PARSE_ERROR,
         "t.txt:1: legend character ''ab'' is not one character (quote a space as ' ')"},
        {"legend \x01\nmap\n.\n", NAV_PARSE_ERROR, "t.txt:1: legend character 0x01 is not printable ASCII"},
        {"legend a cost 0\nmap\na\n", NAV_PARSE_ERROR,
         "t.txt:1: cost must be a number from 1/1024 to 4096 or 'blocked', not '0'"},
        {"legend a cost -1\nmap\na\n", NAV_PARSE_ERROR,
         "t.txt:1: cost must be a number from 1/1024 to 4096 or 'blocked', not '-1'"},
        {"legend a cost five\nmap\na\n", NAV_PARSE_ERROR,
         "t.txt:1: cost must be a number from 1/1024 to 4096 or 'blocked', not 'five'"},
        {"legend a cost 1e400\nmap\na\n", NAV_PARSE_ERROR,
         "t.txt:1: cost must be a number from 1/1024 to 4096 or 'blocked', not '1e400'"},
        /* the cost range (issue 10, item 6): 1e308 made path costs overflow, 5e-324 (denormal)
         * made returned costs disagree with nav_grid_validate_cells */
        {"legend a cost 1e308\nmap\na\n", NAV_PARSE_ERROR,
         "t.txt:1: cost must be a number from 1/1024 to 4096 or 'blocked', not '1e308'"},
        {"legend a cost 4096.001\nmap\na\n", NAV_PARSE_ERROR,
         "t.txt:1: cost must be a number from 1/1024 to 4096 or 'blocked', not '4096.001'"},
        {"legend a cost 0.0009\nmap\na\n", NAV_PARSE_ERROR,
         "t.txt:1: cost must be a number from 1/1024 to 4096 or 'blocked', not '0.0009'"},
        {"legend a cost 5e-324\nmap\na\n", NAV_PARSE_ERROR,
         "t.txt:1: cost must be a number from 1/1024 to 4096 or 'blocked', not '5e-324'"},
        {"legend a cost 1,5\nmap\na\n", NAV_PARSE_ERROR,
         "t.txt:1: cost must be a number from 1/1024 to 4096 or 'blocked', not '1,5'"},
        {"legend a cost\nmap\na\n", NAV_PARSE_ERROR, "t.txt:1: 'cost' needs a value"},
        {"legend a height nan\nmap\na\n", NAV_PARSE_ERROR,
         "t.txt:1: height must be a finite number, not 'nan'"},
        {"legend a height 1e39\nmap\na\n", NAV_PARSE_ERROR,
         "t.txt:1: height must be a finite number, not '1e39'"},
        {"legend a height 1e\nmap\na\n", NAV_PARSE_ERROR,
         "t.txt:1: height must be a finite number, not '1e'"},
        {"legend a height -\nmap\na\n", NAV_PARSE_ERROR, "t.txt:1: height must be a finite number, not '-'"},
        {"legend a colour 3\nmap\na\n", NAV_PARSE_ERROR,
         "t.txt:1: unknown legend property 'colour' (expected cost, blocked or height)"},
        {"legend a cost 2 cost 3\nmap\na\n", NAV_PARSE_ERROR, "t.txt:1: legend 'a' gives its cost twice"},
        {"legend a blocked cost 3\nmap\na\n", NAV_PARSE_ERROR, "t.txt:1: legend 'a' gives its cost twice"},
        {"legend a height 1 height 2\nmap\na\n", NAV_PARSE_ERROR,
         "t.txt:1: legend 'a' gives its height twice"},
        {"legend a\n# x\nlegend a cost 2\nmap\na\n", NAV_PARSE_ERROR,
         "t.txt:3: character 'a' already has a legend (line 1)"},
        {"max_climb 0\nmap\n.\n", NAV_PARSE_ERROR,
         "t.txt:1: max_climb must be a positive number or 'unlimited', not '0'"},
        {"max_climb -2\nmap\n.\n", NAV_PARSE_ERROR,
         "t.txt:1: max_climb must be a positive number or 'unlimited', not '-2'"},
        {"connectivity 6\nmap\n.\n", NAV_PARSE_ERROR, "t.txt:1: connectivity must be 4 or 8, not '6'"},
        {"corner sometimes\nmap\n.\n", NAV_PARSE_ERROR,
         "t.txt:1: corner must be never, one or always, not 'sometimes'"},
        {"diagonal 3\nmap\n.\n", NAV_PARSE_ERROR, "t.txt:1: diagonal must be a number from 1 to 2, not '3'"},
        {"diagonal\nmap\n.\n", NAV_PARSE_ERROR, "t.txt:1: 'diagonal' needs a value"},
        {"diagonal 1.5 2\nmap\n.\n", NAV_PARSE_ERROR, "t.txt:1: unexpected text after the diagonal: '2'"},
        {"connectivity 4\nconnectivity 8\nmap\n.\n", NAV_PARSE_ERROR,
         "t.txt:2: duplicate 'connectivity' line (first on line 1)"},
        {"speed 3\nmap\n.\n", NAV_PARSE_ERROR, "t.txt:1: unknown header line 'speed 3'"},
        {"map\n...\n..\n", NAV_PARSE_ERROR, "t.txt:3: row 1 has 2 columns, expected 3 (the width of row 0)"},
        {"map\n...\n.... \n", NAV_PARSE_ERROR,
         "t.txt:3: row 1 has 5 columns, expected 3 (the width of row 0)"},
        {"map\n...\n\n...\n", NAV_PARSE_ERROR, "t.txt:3: row 1 is empty, expected 3 columns"},
        {"map\n\n...\n", NAV_PARSE_ERROR, "t.txt:2: empty line before the first row"},
        {"..\n.q\n", NAV_PARSE_ERROR, "t.txt:2: unknown character 'q' at column 2 (x = 1)"},
        {"..\t\n", NAV_PARSE_ERROR, "t.txt:1: unknown character 0x09 at column 3 (x = 2)"},
        {"map x\n..\n", NAV_PARSE_ERROR, "t.txt:1: unknown character 'a' at column 2 (x = 1)"},
        {"legend q cost 2\n.q\n", NAV_PARSE_ERROR,
         "t.txt:1: unknown character 'l' at column 1 (x = 0); header lines need a 'map' line between them "
         "and "
         "the rows"},
        {"# my map\n.\n", NAV_PARSE_ERROR,
         "t.txt:1: unknown character 'y' at column 4 (x = 3); header lines need a 'map' line between them "
         "and "
         "the rows"},
        /* A legend line replaces the default entry: 'f' is cost 1 here, and 'a' (defined) is fine. */
        {"legend f\nmap\nfz\n", NAV_PARSE_ERROR, "t.txt:3: unknown character 'z' at column 2 (x = 1)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_error(nav_grid_load_ascii, "t.txt", cases[i].text, cases[i].detail, cases[i].message);

    nav_grid *grid = expect_grid(nav_grid_load_ascii, "legend f height 2\nmap\nf.\n", NULL);
    assert_true(nav_grid_cell_cost(grid, 0, 0) == 1.0);
    assert_true(nav_grid_cell_height(grid, 0, 0) == 2.0f);
    nav_grid_destroy(grid);
}

static void test_ascii_limits(void **state)
{
    (void)state;
    size_t n = 32769;
    char *text = malloc(2 * n + 1);
    assert_non_null(text);
    memset(text, '.', n);
    text[n] = '\0';
    expect_error(nav_grid_load_ascii, "t.txt", text, NAV_TOO_LARGE,
                 "t.txt:1: row 0 has 32769 columns, over the limit of 32768");
    for (size_t i = 0; i < n; i++) text[2 * i] = '.', text[2 * i + 1] = '\n';
    text[2 * n] = '\0';
    expect_error(nav_grid_load_ascii, "t.txt", text, NAV_TOO_LARGE, "t.txt:32769: more than 32768 rows");
    text[2 * (n - 1)] = '\0'; /* 32768 rows: fine */
    nav_grid *grid = expect_grid(nav_grid_load_ascii, text, NULL);
    assert_int_equal(nav_grid_height(grid), 32768);
    nav_grid_destroy(grid);
    free(text);
}

static void test_ascii_truncated(void **state)
{
    (void)state;
    size_t size = sizeof header_text - 1;
    /* Loads: "#" and "# " (a row of a headerless map), row 0 cut after each of its 6 characters
     * (a narrower map) and with its line end, and rows 0-1 and 0-2 with and without theirs. */
    assert_int_equal(test_load_prefixes(nav_grid_load_ascii, header_text, size, size), 13);
    test_load_damaged(nav_grid_load_ascii, header_text, size, 1);
    size_t basin_size;
    char *basin = test_read_file(test_data("basin.txt"), &basin_size);
    test_load_prefixes(nav_grid_load_ascii, basin, basin_size, basin_size);
    free(basin);
}

static void test_ascii_out_of_memory(void **state)
{
    (void)state;
    /* Grid (4), heights (1), reachability (2). */
    assert_int_equal(fail_every_allocation(nav_grid_load_ascii, header_text), 7);
    assert_int_equal(fail_every_allocation(nav_grid_load_ascii, "..f\n#m.\n"), 6);
}

/* ---- files are read in pieces (issue 10, finding 4) -------------------------------------------- */

/* An allocator that records the most bytes it had out at once. */
typedef struct peak_allocator {
    size_t now, peak;
    nav_allocator hooks;
} peak_allocator;

static void *peak_alloc(size_t size, void *user)
{
    peak_allocator *p = user;
    size_t *block = malloc(sizeof(size_t) * 2 + size);
    if (!block) return NULL;
    block[0] = size;
    p->now += size;
    if (p->now > p->peak) p->peak = p->now;
    return block + 2;
}

static void peak_free(void *ptr, void *user)
{
    if (!ptr) return;
    peak_allocator *p = user;
    size_t *block = (size_t *)ptr - 2;
    p->now -= block[0];
    free(block);
}

static void peak_init(peak_allocator *p)
{
    *p = (peak_allocator){0};
    p->hooks = (nav_allocator){peak_alloc, NULL, peak_free, p};
}

static void write_file(const char *path, const char *text, size_t size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

/* The file loaders read through a window of 64 KiB (grown for long lines): whatever the lines' lengths
 * and line ends, a file gives exactly the grid its text gives in memory. */
static void test_files_equal_texts(void **state)
{
    (void)state;
    char path[] = "/tmp/nav_test_lines_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    srand(77);
    for (int round = 0; round < 12; round++) {
        /* rows of a width that walks across the window's edge differently each round */
        int32_t w = 100 + rand() % 3000, h = 40 + rand() % 90;
        bool crlf = round % 2, ascii = round % 3 == 0;
        size_t cap = (size_t)(w + 4) * (size_t)h + 256, n = 0;
        char *text = malloc(cap);
        if (ascii)
            n += (size_t)sprintf(text, "# round %d\r\nlegend f cost 5\nmap\n", round);
        else
            n += (size_t)sprintf(text, "type octile\nheight %d\nwidth %d\nmap\n", h, w);
        for (int32_t y = 0; y < h; y++) {
            for (int32_t x = 0; x < w; x++) text[n++] = ".@T"[rand() % 3 == 0 ? 1 + rand() % 2 : 0];
            if (ascii && y % 5 == 0) text[n - 1] = 'f';
            if (crlf) text[n++] = '\r';
            text[n++] = '\n';
        }
        write_file(path, text, n);
        nav_grid *from_text, *from_file;
        if (ascii) {
            assert_int_equal(nav_grid_load_ascii(text, n, "t", NULL, &from_text), NAV_SUCCESS);
            assert_int_equal(nav_grid_load_ascii_file(path, NULL, &from_file), NAV_SUCCESS);
        } else {
            assert_int_equal(nav_grid_load_map(text, n, "t", NULL, &from_text), NAV_SUCCESS);
            assert_int_equal(nav_grid_load_map_file(path, NULL, &from_file), NAV_SUCCESS);
        }
        assert_int_equal(nav_grid_width(from_file), w);
        assert_int_equal(nav_grid_height(from_file), h);
        assert_true(nav_grid_fingerprint(from_file) == nav_grid_fingerprint(from_text));
        nav_grid_destroy(from_text);
        nav_grid_destroy(from_file);
        free(text);
    }
    /* a scenario of many lines: the same problems and map name */
    size_t cap = 200 * 6000, n = 0;
    char *text = malloc(cap);
    n += (size_t)sprintf(text, "version 1\n");
    for (int i = 0; i < 6000; i++)
        n += (size_t)sprintf(text + n,
                             "%d\tmaps/dao/a map with spaces %d.map\t512\t512\t%d\t%d\t%d\t%d\t%d.%05d\r\n",
                             i % 7, i == 0 ? 0 : 1, rand() % 512, rand() % 512, rand() % 512, rand() % 512,
                             rand() % 700, rand() % 100000);
    write_file(path, text, n);
    nav_scen *a, *b;
    assert_int_equal(nav_scen_load(text, n, "s", NULL, NULL, &a), NAV_SUCCESS);
    assert_int_equal(nav_scen_load_file(path, NULL, NULL, &b), NAV_SUCCESS);
    assert_int_equal(a->count, 6000);
    assert_int_equal(b->count, a->count);
    assert_memory_equal(a->problems, b->problems, a->count * sizeof *a->problems);
    assert_string_equal(a->map_name, "maps/dao/a map with spaces 0.map");
    assert_string_equal(b->map_name, a->map_name);
    nav_scen_destroy(a);
    nav_scen_destroy(b);
    free(text);
    remove(path);
}

/* A line longer than 1 MiB is refused by every text loader, from memory and from files alike. */
static void test_overlong_lines(void **state)
{
    (void)state;
    size_t n = ((size_t)1 << 20) + 20; /* lines of 1 MiB + 10 bytes */
    char *text = malloc(n);
    memset(text, '.', n);
    memcpy(text, "version 1\n", 10);
    test_log log;
    test_log_init(&log);
    nav_grid_desc desc = {.log = &log.hooks};
    nav_grid *grid;
    FAILS_WITH(nav_grid_load_ascii(text + 10, n - 10, "t.txt", &desc, &grid), NAV_PARSE_ERROR);
    assert_string_equal(log.last, "t.txt:1: line longer than 1 MiB");
    nav_scen *scen;
    FAILS_WITH(nav_scen_load(text, n, "s.scen", NULL, &log.hooks, &scen), NAV_PARSE_ERROR);
    assert_string_equal(log.last, "s.scen:2: line longer than 1 MiB");
    char path[] = "/tmp/nav_test_long_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    write_file(path, text + 10, n - 10);
    FAILS_WITH(nav_grid_load_ascii_file(path, &desc, &grid), NAV_PARSE_ERROR);
    assert_true(strstr(log.last, ":1: line longer than 1 MiB") != NULL);
    write_file(path, text, n);
    FAILS_WITH(nav_scen_load_file(path, NULL, &log.hooks, &scen), NAV_PARSE_ERROR);
    assert_true(strstr(log.last, ":2: line longer than 1 MiB") != NULL);
    remove(path);
    free(text);
}

/* The probe's hostile files: 2 GiB, sparse (a few bytes, then a hole of zeros). Each loader must
 * refuse them at once and for little memory; before, every loader read the whole file first (the
 * .map case took 2.1 GB and 8 s). Peak memory is counted through the loaders' allocator. */
static void test_huge_sparse_files(void **state)
{
    (void)state;
    char path[] = "/tmp/nav_test_sparse_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const off_t huge = (off_t)2 << 30;
    static const struct {
        const char *head;
        int kind; /* 0 .map, 1 ASCII, 2 .scen, 3 .nav */
        nav_status detail;
        const char *message;
    } cases[] = {
        {"type octile\nheight 4\nwidth 4\nmap\n....\n....\n....\n....\n", 0, NAV_TOO_LARGE,
         "2147483648 bytes is more than a 4 x 4 map can need"},
        {"type octile\nheight 32768\nwidth 32768\nmap\n", 0, NAV_PARSE_ERROR, ":5: line longer than 1 MiB"},
        {"", 1, NAV_PARSE_ERROR, ":1: line longer than 1 MiB"},
        {"legend a cost 2\nmap\n", 1, NAV_PARSE_ERROR, ":3: line longer than 1 MiB"},
        {"version 1\n", 2, NAV_PARSE_ERROR, ":2: line longer than 1 MiB"},
        {"", 3, NAV_CORRUPT_DATA, "not a .nav file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(ftruncate(fd, 0), 0);
        assert_int_equal(pwrite(fd, cases[i].head, strlen(cases[i].head), 0), (ssize_t)strlen(cases[i].head));
        assert_int_equal(ftruncate(fd, huge), 0);
        peak_allocator peak;
        peak_init(&peak);
        test_log log;
        test_log_init(&log);
        nav_grid_desc desc = {.allocator = &peak.hooks, .log = &log.hooks};
        nav_grid *grid = NULL;
        nav_scen *scen = NULL;
        nav_status s = cases[i].kind == 0   ? nav_grid_load_map_file(path, &desc, &grid)
                       : cases[i].kind == 1 ? nav_grid_load_ascii_file(path, &desc, &grid)
                       : cases[i].kind == 2 ? nav_scen_load_file(path, &peak.hooks, &log.hooks, &scen)
                                            : nav_grid_load_nav(path, &desc, &grid);
        assert_int_equal(s, NAV_FAILURE | cases[i].detail);
        assert_null(grid);
        assert_null(scen);
        if (!strstr(log.last, cases[i].message)) fail_msg("case %zu: message \"%s\"", i, log.last);
        if (peak.peak > ((size_t)5 << 20)) fail_msg("case %zu: %zu bytes at the peak", i, peak.peak);
        assert_int_equal(peak.now, 0);
    }
    close(fd);
    remove(path);
}

/* ---- Line ends --------------------------------------------------------------------------------- */

/* text (LF line ends) with each LF made `end` ("\r" or "\r\n"): a string to free. */
static char *with_line_ends(const char *text, const char *end, size_t *size)
{
    size_t n = 0, cap = 2 * strlen(text) + 1;
    char *out = malloc(cap);
    for (const char *p = text; *p; p++)
        if (*p == '\n')
            for (const char *e = end; *e; e++) out[n++] = *e;
        else
            out[n++] = *p;
    out[n] = '\0';
    *size = n;
    return out;
}

/* What one reader made of a text, to compare line ends by: a fingerprint of its result. */
static uint64_t read_as(int kind, const char *text, size_t size, const char *path)
{
    test_log log;
    test_log_init(&log);
    if (path) write_file(path, text, size);
    uint64_t digest = 0;
    nav_status s;
    if (kind <= 1) {
        nav_grid *grid = NULL;
        nav_grid_desc desc = {.log = &log.hooks};
        s = kind == 0 ? (path ? nav_grid_load_map_file(path, &desc, &grid)
                              : nav_grid_load_map(text, size, "t", &desc, &grid))
                      : (path ? nav_grid_load_ascii_file(path, &desc, &grid)
                              : nav_grid_load_ascii(text, size, "t", &desc, &grid));
        if (grid) digest = nav_grid_fingerprint(grid) ^ (uint64_t)nav_grid_width(grid) << 40;
        nav_grid_destroy(grid);
    } else if (kind == 2) {
        nav_scen *scen = NULL;
        s = path ? nav_scen_load_file(path, NULL, &log.hooks, &scen)
                 : nav_scen_load(text, size, "s", NULL, &log.hooks, &scen);
        if (scen) {
            digest = scen->count;
            for (uint32_t i = 0; i < scen->count; i++)
                digest = digest * 31 + (uint64_t)scen->problems[i].goal_x * 7 + scen->problems[i].line +
                         (uint64_t)(scen->problems[i].optimal_length * 1e6);
        }
        nav_scen_destroy(scen);
    } else if (kind == 3) {
        nav_geometry *level = NULL;
        s = path ? nav_geometry_load_obj_file(path, NULL, &log.hooks, &level)
                 : nav_geometry_load_obj(text, size, "l.obj", NULL, &log.hooks, &level);
        nav_triangles t = nav_geometry_triangles(level);
        digest = (uint64_t)t.vertex_count << 32 | t.triangle_count;
        for (uint32_t i = 0; i < 3 * t.triangle_count; i++) digest = digest * 31 + t.indices[i];
        for (uint32_t i = 0; i < 3 * t.vertex_count; i++)
            digest = digest * 31 + (uint64_t)(t.vertices[i] * 8);
        nav_geometry_destroy(level);
    } else {
        nav_waypoint_graph graph = {0};
        nav_waypoint_load_desc desc = {.log = &log.hooks};
        s = path ? nav_waypoint_graph_load_file(path, &desc, &graph)
                 : nav_waypoint_graph_load_text(text, size, &desc, &graph);
        digest = (uint64_t)graph.waypoint_count << 32 | graph.link_count;
        for (uint32_t i = 0; i < graph.link_count; i++)
            digest =
                digest * 31 + graph.links[i].from * 3 + graph.links[i].to + (uint64_t)graph.links[i].one_way;
        nav_waypoint_graph_release(&graph);
    }
    if (s != NAV_SUCCESS)
        fail_msg("reader %d (%s): status %#x, '%s'", kind, path ? "file" : "memory", s, log.last);
    return digest;
}

/* Lines end in LF, CRLF or CR alone (old Mac OS files) for every text reader, from memory and from a
 * file; before, a file of CR line ends was one line (an .obj of them read as "no faces"). A CRLF
 * split across the file reader's window is one line end, not two. */
static void test_line_ends(void **state)
{
    (void)state;
    static const char *const texts[5] = {
        "type octile\nheight 3\nwidth 4\nmap\n.@..\n..T.\n....\n",
        "# a room\nlegend f cost 5\nmap\n..f.\n#..#\n\n",
        "version 1\n0\tm.map\t4\t3\t0\t0\t3\t2\t3.82842712\n1\tm.map\t4\t3\t1\t0\t2\t2\t2.41421356\n",
        "# two triangles\nv 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 4 3\nf 1 3 2\n",
        "libnav waypoints 1\nwaypoint a 0 0 0\nwaypoint b 4 0 0\nwaypoint c 4 0 3\nlink a b\nlink b c "
        "oneway\n",
    };
    char path[] = "/tmp/nav_test_line_ends_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    for (int kind = 0; kind < 5; kind++) {
        uint64_t expected = read_as(kind, texts[kind], strlen(texts[kind]), NULL);
        for (int form = 0; form < 2; form++) {
            size_t n;
            char *text = with_line_ends(texts[kind], form ? "\r\n" : "\r", &n);
            if (read_as(kind, text, n, NULL) != expected || read_as(kind, text, n, path) != expected)
                fail_msg("reader %d: %s line ends read otherwise than LF", kind, form ? "CRLF" : "CR");
            free(text);
        }
    }
    /* files longer than the reader's window (64 KiB): CR-only rows, and a CRLF whose CR ends the window */
    for (int form = 0; form < 2; form++) {
        size_t width = 97, rows = 2000, n = 0;
        char *text = malloc((rows + 2) * (width + 2) + 16);
        /* form 1: a comment long enough that a row's CR falls on byte 65535: "#", pad, CRLF, "map",
         * CRLF, then rows of width + CRLF */
        if (form) {
            size_t pad = (65535 - 8 - width) % (width + 2);
            text[n++] = '#';
            memset(text + n, 'x', pad), n += pad;
            text[n++] = '\r', text[n++] = '\n';
        }
        n += (size_t)sprintf(text + n, form ? "map\r\n" : "map\r");
        for (size_t y = 0; y < rows; y++) {
            for (size_t x = 0; x < width; x++) text[n++] = (x * 7 + y * 3) % 11 == 0 ? '#' : '.';
            text[n++] = '\r';
            if (form) text[n++] = '\n';
        }
        if (form) assert_true(text[65535] == '\r' && text[65536] == '\n');
        uint64_t from_memory = read_as(1, text, n, NULL);
        if (read_as(1, text, n, path) != from_memory) fail_msg("form %d: the file reads otherwise", form);
        free(text);
    }
    remove(path);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_generated),        cmocka_unit_test(test_map_small),
        cmocka_unit_test(test_map_errors),           cmocka_unit_test(test_map_limits),
        cmocka_unit_test(test_map_bad_files),        cmocka_unit_test(test_map_bad_calls),
        cmocka_unit_test(test_map_truncated),        cmocka_unit_test(test_map_out_of_memory),
        cmocka_unit_test(test_ascii_default_legend), cmocka_unit_test(test_ascii_header),
        cmocka_unit_test(test_ascii_numbers),        cmocka_unit_test(test_ascii_files),
        cmocka_unit_test(test_ascii_errors),         cmocka_unit_test(test_ascii_limits),
        cmocka_unit_test(test_ascii_truncated),      cmocka_unit_test(test_ascii_out_of_memory),
        cmocka_unit_test(test_files_equal_texts),    cmocka_unit_test(test_overlong_lines),
        cmocka_unit_test(test_huge_sparse_files),    cmocka_unit_test(test_line_ends),
    };
    const struct CMUnitTest shared_tests[] = {
        cmocka_unit_test(test_map_arena),
        cmocka_unit_test(test_map_benchmarks),
        cmocka_unit_test(test_map_real_truncated),
    };
    static const char *const needs[] = {"maps/dao/arena.map", "maps/dao/den312d.map", "maps/dao/brc000d.map",
                                        NULL};
    return TEST_RUN_SUITE("text_loaders", tests, shared_tests, needs);
}
