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
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nav/io.h"

#include "alloc.h"
#include "log.h"

/* Where messages go and the name they carry. */
typedef struct load_context {
    const nav_log *log;
    const char *name;
} load_context;

static void report(const load_context *ctx, uint32_t line, const char *fmt, ...) NAV__PRINTF(3, 4);

static void report(const load_context *ctx, uint32_t line, const char *fmt, ...)
{
    if (!ctx->log || !ctx->log->fn) return;
    char message[400];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    if (line)
        nav__logf(ctx->log, NAV_LOG_ERROR, "%s:%u: %s", ctx->name, line, message);
    else
        nav__logf(ctx->log, NAV_LOG_ERROR, "%s: %s", ctx->name, message);
}

/* ---- Text scanning ----------------------------------------------------------------------------- */

typedef struct line_reader {
    const char *at, *end;
    uint32_t number; /* of the line last returned */
} line_reader;

typedef struct text_span {
    const char *text;
    size_t length;
} text_span;

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The next line without its line end and surrounding blanks; false at the end of the text. */
static bool next_line(line_reader *r, text_span *line)
{
    if (r->at >= r->end) return false;
    const char *start = r->at;
    const char *newline = memchr(start, '\n', (size_t)(r->end - start));
    const char *stop = newline ? newline : r->end;
    r->at = newline ? newline + 1 : r->end;
    while (start < stop && is_blank(*start)) start++;
    while (stop > start && is_blank(stop[-1])) stop--;
    if (r->number < UINT32_MAX) r->number++;
    *line = (text_span){start, (size_t)(stop - start)};
    return true;
}

/* Splits off the next blank-separated word of *rest; false when none is left. */
static bool next_word(text_span *rest, text_span *word)
{
    const char *at = rest->text, *end = rest->text + rest->length;
    while (at < end && is_blank(*at)) at++;
    const char *start = at;
    while (at < end && !is_blank(*at)) at++;
    *word = (text_span){start, (size_t)(at - start)};
    *rest = (text_span){at, (size_t)(end - at)};
    return word->length > 0;
}

/* Splits off the last blank-separated word of *rest; false when none is left. */
static bool last_word(text_span *rest, text_span *word)
{
    const char *begin = rest->text, *at = rest->text + rest->length;
    while (at > begin && is_blank(at[-1])) at--;
    const char *stop = at;
    while (at > begin && !is_blank(at[-1])) at--;
    *word = (text_span){at, (size_t)(stop - at)};
    *rest = (text_span){begin, (size_t)(at - begin)};
    return word->length > 0;
}

static bool span_is(text_span s, const char *word)
{
    size_t n = strlen(word);
    return s.length == n && memcmp(s.text, word, n) == 0;
}

/* Copies up to 40 characters of s into out for a message, tabs as spaces and other non-printing
 * bytes as '?'. */
static const char *printable(text_span s, char out[48])
{
    size_t n = s.length < 40 ? s.length : 40, i;
    for (i = 0; i < n; i++) {
        char c = s.text[i] == '\t' ? ' ' : s.text[i];
        out[i] = c >= 0x20 && c < 0x7f ? c : '?';
    }
    if (s.length > n) out[i++] = '.', out[i++] = '.', out[i++] = '.';
    out[i] = '\0';
    return out;
}

/* A decimal count: digits only. Saturates just above UINT32_MAX instead of wrapping around. */
static bool parse_count(text_span s, uint64_t *value)
{
    if (s.length == 0) return false;
    uint64_t v = 0;
    for (size_t i = 0; i < s.length; i++) {
        if (s.text[i] < '0' || s.text[i] > '9') return false;
        if (v <= UINT32_MAX) v = v * 10 + (uint64_t)(s.text[i] - '0');
    }
    *value = v;
    return true;
}

/* A decimal number, [+-]digits[.digits][(e|E)[+-]digits]. Not strtod: strtod follows LC_NUMERIC,
 * and under a German locale it would read "1.41421" as 1. Up to 19 significant digits are kept;
 * within 2^53 and 10^+-22 the result is correctly rounded (one exact multiply or divide), which
 * covers every length the benchmark files print. */
static bool parse_number(text_span s, double *value)
{
    static const double powers[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *at = s.text, *end = s.text + s.length;
    bool negative = false;
    if (at < end && (*at == '+' || *at == '-')) negative = *at++ == '-';
    uint64_t mantissa = 0;
    int digits = 0, kept = 0;
    long exponent = 0;
    for (; at < end && *at >= '0' && *at <= '9'; at++, digits++) {
        if (kept < 19) {
            mantissa = mantissa * 10 + (uint64_t)(*at - '0');
            if (mantissa) kept++;
        } else {
            exponent++;
        }
    }
    if (at < end && *at == '.') {
        for (at++; at < end && *at >= '0' && *at <= '9'; at++, digits++) {
            if (kept < 19) {
                mantissa = mantissa * 10 + (uint64_t)(*at - '0');
                if (mantissa) kept++;
                exponent--;
            }
        }
    }
    if (digits == 0) return false;
    if (at < end && (*at == 'e' || *at == 'E')) {
        at++;
        bool exp_negative = false;
        if (at < end && (*at == '+' || *at == '-')) exp_negative = *at++ == '-';
        if (at == end || *at < '0' || *at > '9') return false;
        long e = 0;
        for (; at < end && *at >= '0' && *at <= '9'; at++)
            if (e < 100000) e = e * 10 + (*at - '0');
        exponent += exp_negative ? -e : e;
    }
    if (at != end) return false;
    double v = (double)mantissa;
    if (mantissa == 0)
        v = 0;
    else if (exponent >= 0 && exponent <= 22)
        v *= powers[exponent];
    else if (exponent < 0 && exponent >= -22)
        v /= powers[-exponent];
    else
        v *= pow(10.0, (double)exponent);
    *value = negative ? -v : v;
    return true;
}

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
    if (word.length && word.text[0] == '-' && parse_count((text_span){word.text + 1, word.length - 1}, &v)) {
        report(ctx, line, "%s is negative: '%s'", what, printable(word, shown));
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    if (!parse_count(word, &v)) {
        report(ctx, line, "%s is not a non-negative integer: '%s'", what, printable(word, shown));
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    if (v > limit) {
        report(ctx, line, "%s %s is over the limit of %llu", what, printable(word, shown),
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
    for (text_span count_rest = text, w; next_word(&count_rest, &w);) word_count++;
    if (word_count < 2 + F_COUNT) {
        report(ctx, line,
               "expected 9 fields (bucket, map, width, height, start x, start y, goal x, goal y, "
               "optimal length), found %zu",
               word_count);
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    next_word(&rest, &bucket);
    for (int f = F_COUNT - 1; f >= 0; f--) last_word(&rest, &words[f]);
    while (rest.length && is_blank(rest.text[0])) rest.text++, rest.length--;
    while (rest.length && is_blank(rest.text[rest.length - 1])) rest.length--;
    *map = rest;

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
        report(ctx, line, "map size %d x %d is empty", p->map_width, p->map_height);
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    if (p->start_x >= p->map_width || p->start_y >= p->map_height) {
        report(ctx, line, "start (%d, %d) is outside the %d x %d map", p->start_x, p->start_y, p->map_width,
               p->map_height);
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    if (p->goal_x >= p->map_width || p->goal_y >= p->map_height) {
        report(ctx, line, "goal (%d, %d) is outside the %d x %d map", p->goal_x, p->goal_y, p->map_width,
               p->map_height);
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    double optimal;
    if (!parse_number(words[F_OPTIMAL], &optimal) || !isfinite(optimal) || !(optimal >= 0)) {
        report(ctx, line, "optimal length must be a finite number >= 0, not '%s'",
               printable(words[F_OPTIMAL], shown));
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
    if (!next_line(r, &line)) {
        report(ctx, 1, "empty file, expected 'version 1'");
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    text_span rest = line;
    if (!next_word(&rest, &key) || !span_is(key, "version") || !next_word(&rest, &version) ||
        next_word(&rest, &extra)) {
        report(ctx, r->number, "expected 'version 1', found '%s'", printable(line, shown));
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

nav_status nav_scen_load(const char *text, size_t size, const char *name, const nav_allocator *allocator,
                         const nav_log *log, nav_scen **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    load_context ctx = {log, name ? name : "<scen>"};
    if (!text && size) {
        report(&ctx, 0, "no text given");
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    if (!text) text = "";
    line_reader r = {text, text + size, 0};
    nav_status s = parse_version(&ctx, &r);
    if (nav_failed(s)) return s;

    nav_allocator a;
    nav__allocator_resolve(&a, allocator);
    nav_scen *scen = nav__calloc(&a, 1, sizeof *scen);
    if (!scen) {
        report(&ctx, 0, "out of memory");
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    scen->allocator = a;
    uint32_t capacity = 0;
    text_span line, map, first_map = {"", 0};
    while (next_line(&r, &line)) {
        if (line.length == 0) continue;
        nav_scen_problem problem;
        s = parse_problem(&ctx, r.number, line, &problem, &map);
        if (nav_failed(s)) break;
        if (scen->count == capacity) {
            if (capacity > UINT32_MAX / 2) {
                report(&ctx, r.number, "too many problems");
                s = NAV_FAILURE | NAV_TOO_LARGE;
                break;
            }
            uint32_t grown = capacity ? capacity * 2 : 64;
            nav_scen_problem *bigger = nav__realloc(&a, scen->problems, capacity * sizeof *bigger,
                                                    nav__mul_size(grown, sizeof *bigger));
            if (!bigger) {
                s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
                break;
            }
            scen->problems = bigger;
            capacity = grown;
        }
        if (scen->count == 0) first_map = map;
        scen->problems[scen->count++] = problem;
    }
    if (nav_succeeded(s)) {
        scen->map_name = nav__alloc(&a, first_map.length + 1);
        if (scen->map_name) {
            memcpy(scen->map_name, first_map.text, first_map.length);
            scen->map_name[first_map.length] = '\0';
        } else {
            s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
        }
    }
    if (nav_failed(s)) {
        if (nav_has_detail(s, NAV_OUT_OF_MEMORY)) report(&ctx, 0, "out of memory");
        nav_scen_destroy(scen);
        return s;
    }
    *out = scen;
    return NAV_SUCCESS;
}

/* The last part of a path, which names the file in messages. */
static const char *base_name(const char *path)
{
    const char *name = path;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\') name = p + 1;
    return name;
}

nav_status nav_scen_load_file(const char *path, const nav_allocator *allocator, const nav_log *log,
                              nav_scen **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!path) return NAV_FAILURE | NAV_INVALID_PARAM;
    load_context ctx = {log, base_name(path)};
    nav_allocator a;
    nav__allocator_resolve(&a, allocator);
    void *text;
    size_t size;
    nav_status s = nav_file_read_all(path, &a, &text, &size);
    if (nav_failed(s)) {
        report(&ctx, 0, "cannot read '%s': %s", path, nav_status_str(s));
        return s;
    }
    s = nav_scen_load(text, size, ctx.name, allocator, log, out);
    nav__free(&a, text);
    return s;
}
