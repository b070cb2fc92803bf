/* Moving AI scenario files (.scen; Sturtevant, "Benchmarks for Grid-Based Pathfinding", 2012).
 *
 *     version 1
 *     0	maps/dao/arena.map	49	49	1	11	1	12	1
 *
 * After the version line, one problem a line: bucket, map, map width, map height, start x, start y,
 * goal x, goal y, optimal length. The benchmark files separate fields by tabs, hand-made ones often
 * by spaces; both are read. The map column may hold any path, even one with spaces, so a line is
 * split from both ends: the bucket is its first word, the seven numbers its last seven, and the
 * map whatever lies between. Blank lines are skipped; CRLF line ends are accepted. */
#include "nav/scen.h"

#include "nav/grid.h"

#include <math.h>
#include <string.h>

#include "alloc.h"
#include "text.h"

/* ---- Problems ---------------------------------------------------------------------------------- */

/* The seven numeric fields, in file order. */
enum { F_WIDTH, F_HEIGHT, F_START_X, F_START_Y, F_GOAL_X, F_GOAL_Y, F_OPTIMAL, F_COUNT };
static const char *const field_names[F_COUNT] = {"map width", "map height", "start x",       "start y",
                                                 "goal x",    "goal y",     "optimal length"};

/* Reads a non-negative integer field (at most limit). */
static nav_status parse_int_field(const load_context *ctx, uint32_t line, const char *what, text_span word,
                                  uint64_t limit, nav_status over_limit, int32_t *value)
{
    char shown[48];
    uint64_t v;
    if (word.length && word.text[0] == '-' &&
        nav__parse_count((text_span){word.text + 1, word.length - 1}, &v)) {
        nav__report(ctx, line, "%s is negative: '%s'", what, nav__printable(word, shown));
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    if (!nav__parse_count(word, &v)) {
        nav__report(ctx, line, "%s is not a non-negative integer: '%s'", what, nav__printable(word, shown));
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    if (v > limit) {
        nav__report(ctx, line, "%s %s is over the limit of %llu", what, nav__printable(word, shown),
                    (unsigned long long)limit);
        return NAV_FAILURE | over_limit;
    }
    *value = (int32_t)v;
    return NAV_SUCCESS;
}

/* Parses one problem line; *map is set to its map column. */
static nav_status parse_problem(const load_context *ctx, uint32_t line, text_span text, nav_scen_problem *p,
                                text_span *map)
{
    char shown[48];
    text_span rest = text, words[F_COUNT], bucket;
    size_t word_count = 0;
    for (text_span count_rest = text, w; nav__next_word(&count_rest, &w);) word_count++;
    if (word_count < 2 + F_COUNT) {
        nav__report(ctx, line,
                    "expected 9 fields (bucket, map, width, height, start x, start y, goal x, goal y, "
                    "optimal length), found %zu",
                    word_count);
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    nav__next_word(&rest, &bucket);
    for (int f = F_COUNT - 1; f >= 0; f--) nav__last_word(&rest, &words[f]);
    *map = nav__trim(rest);

    *p = (nav_scen_problem){.line = line};
    int32_t *ints[F_OPTIMAL] = {&p->map_width, &p->map_height, &p->start_x,
                                &p->start_y,   &p->goal_x,     &p->goal_y};
    nav_status s = parse_int_field(ctx, line, "bucket", bucket, INT32_MAX, NAV_PARSE_ERROR, &p->bucket);
    for (int f = 0; f < F_OPTIMAL && nav_succeeded(s); f++)
        s = parse_int_field(ctx, line, field_names[f], words[f],
                            f <= F_HEIGHT ? NAV_GRID_MAX_SIDE : INT32_MAX,
                            f <= F_HEIGHT ? NAV_TOO_LARGE : NAV_PARSE_ERROR, ints[f]);
    if (nav_failed(s)) return s;
    if (p->map_width == 0 || p->map_height == 0) {
        nav__report(ctx, line, "map size %d x %d is empty", p->map_width, p->map_height);
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    if (p->start_x >= p->map_width || p->start_y >= p->map_height) {
        nav__report(ctx, line, "start (%d, %d) is outside the %d x %d map", p->start_x, p->start_y,
                    p->map_width, p->map_height);
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    if (p->goal_x >= p->map_width || p->goal_y >= p->map_height) {
        nav__report(ctx, line, "goal (%d, %d) is outside the %d x %d map", p->goal_x, p->goal_y, p->map_width,
                    p->map_height);
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    double optimal;
    if (!nav__parse_number(words[F_OPTIMAL], &optimal) || !isfinite(optimal) || !(optimal >= 0)) {
        nav__report(ctx, line, "optimal length must be a finite number >= 0, not '%s'",
                    nav__printable(words[F_OPTIMAL], shown));
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    p->optimal_length = optimal + 0.0; /* turns -0 into 0 */
    return NAV_SUCCESS;
}

/* The version line: "version X" with any single word X (the benchmarks say 1 or 1.0). */
static nav_status parse_version(const load_context *ctx, line_reader *r)
{
    char shown[48];
    text_span line, key, version, extra;
    if (!nav__next_line(r, &line)) {
        if (nav_failed(r->status)) return r->status; /* reported */
        nav__report(ctx, 1, "empty file, expected 'version 1'");
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    text_span rest = line;
    if (!nav__next_word(&rest, &key) || !nav__span_is(key, "version") || !nav__next_word(&rest, &version) ||
        nav__next_word(&rest, &extra)) {
        nav__report(ctx, r->number, "expected 'version 1', found '%s'", nav__printable(line, shown));
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    return NAV_SUCCESS;
}

void nav_scen_destroy(nav_scen *scen)
{
    if (!scen) return;
    nav_allocator allocator = scen->allocator;
    nav__free(&allocator, scen->problems);
    nav__free(&allocator, scen->map_name);
    nav__free(&allocator, scen);
}

/* The problems after the version line, into a new scenario. */
static nav_status load_scen_lines(const load_context *ctx, line_reader *r, const nav_allocator *allocator,
                                  nav_scen **out)
{
    nav_status s = parse_version(ctx, r);
    if (nav_failed(s)) return s;

    nav_allocator a;
    nav__allocator_resolve(&a, allocator);
    nav_scen *scen = nav__calloc(&a, 1, sizeof *scen);
    if (!scen) {
        nav__report(ctx, 0, "out of memory");
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    scen->allocator = a;
    uint32_t capacity = 0;
    text_span line, map;
    while (nav__next_line(r, &line)) {
        if (line.length == 0) continue;
        nav_scen_problem problem;
        s = parse_problem(ctx, r->number, line, &problem, &map);
        if (nav_failed(s)) break;
        if (scen->count == capacity) {
            if (capacity > UINT32_MAX / 2) {
                nav__report(ctx, r->number, "too many problems");
                s = NAV_FAILURE | NAV_TOO_LARGE;
                break;
            }
            uint32_t grown = capacity ? capacity * 2 : 64;
            nav_scen_problem *bigger = nav__realloc(&a, scen->problems, capacity * sizeof *bigger,
                                                    nav__mul_size(grown, sizeof *bigger));
            if (!bigger) {
                nav__report(ctx, 0, "out of memory");
                s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
                break;
            }
            scen->problems = bigger;
            capacity = grown;
        }
        if (scen->count == 0) {
            /* the line's text lasts until the next line is read: keep a copy of the map column */
            scen->map_name = nav__alloc(&a, map.length + 1);
            if (!scen->map_name) {
                nav__report(ctx, 0, "out of memory");
                s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
                break;
            }
            memcpy(scen->map_name, map.text, map.length);
            scen->map_name[map.length] = '\0';
        }
        scen->problems[scen->count++] = problem;
    }
    if (nav_succeeded(s)) s = r->status; /* the lines may have stopped early (reported) */
    if (nav_succeeded(s) && !scen->map_name) {
        scen->map_name = nav__alloc(&a, 1);
        if (scen->map_name)
            scen->map_name[0] = '\0';
        else {
            nav__report(ctx, 0, "out of memory");
            s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
        }
    }
    if (nav_failed(s)) {
        nav_scen_destroy(scen);
        return s;
    }
    *out = scen;
    return NAV_SUCCESS;
}

nav_status nav_scen_load(const char *text, size_t size, const char *name, const nav_allocator *allocator,
                         const nav_log *log, nav_scen **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    load_context ctx = {log, name ? name : "<scen>"};
    line_reader r;
    if (!nav__start_lines(&ctx, text, size, NAV__TRIM_BLANKS, &r)) return r.status;
    return load_scen_lines(&ctx, &r, allocator, out);
}

nav_status nav_scen_load_file(const char *path, const nav_allocator *allocator, const nav_log *log,
                              nav_scen **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!path) return NAV_FAILURE | NAV_INVALID_PARAM;
    load_context ctx = {log, nav__base_name(path)};
    line_reader r;
    nav_status s = nav__open_file_lines(&ctx, path, allocator, NAV__TRIM_BLANKS, NULL, &r);
    if (nav_failed(s)) return s;
    s = load_scen_lines(&ctx, &r, allocator, out);
    nav__end_lines(&r);
    return s;
}
