/* Moving AI .map loader (Sturtevant, "Benchmarks for Grid-Based Pathfinding", IEEE TCIAIG 2012).
 *
 *     type octile
 *     height H
 *     width W
 *     map
 *     H rows of W characters
 *
 * '.' and 'G' are plain ground, 'S' (swamp) is terrain type 2 (cost 1, the default of every type,
 * kept apart so a caller can price it), '@' 'O' 'T' 'W' are blocked. The three header lines may
 * come in any order, once each, before "map". CRLF line ends and trailing blanks are accepted
 * everywhere (none of the valid row characters is a blank, so stripping them is unambiguous);
 * blank lines after the last row are too. Anything else is an error naming its line.
 *
 * The rows are read twice: once to validate them, before any allocation, so that a truncated or
 * lying file ("height 30000" over three rows) fails without first allocating the grid it claims;
 * then once more to fill the grid. */
#include "grid_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nav/io.h"

#include "alloc.h"
#include "log.h"

#define MAP_SWAMP   2 /* terrain type of 'S' */
#define MAP_INVALID -1

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

/* The next line without its line end and trailing blanks; false at the end of the text. The text
 * need not be NUL-terminated and may hold NUL bytes. */
static bool next_line(line_reader *r, text_span *line)
{
    if (r->at >= r->end) return false;
    const char *start = r->at;
    const char *newline = memchr(start, '\n', (size_t)(r->end - start));
    const char *stop = newline ? newline : r->end;
    r->at = newline ? newline + 1 : r->end;
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

static bool span_is(text_span s, const char *word)
{
    size_t n = strlen(word);
    return s.length == n && memcmp(s.text, word, n) == 0;
}

/* Copies up to 40 characters of s into out for a message, tabs as spaces and other non-printing
 * bytes as '?': a message must stay readable whatever the file holds. */
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

/* A character for a message: itself in quotes, or its byte value. */
static const char *char_name(unsigned char c, char out[8])
{
    if (c >= 0x20 && c < 0x7f)
        snprintf(out, 8, "'%c'", c);
    else
        snprintf(out, 8, "0x%02x", c);
    return out;
}

/* A decimal count: digits only. Saturates just above UINT32_MAX, so that "99999999999" reads as
 * "too large" instead of wrapping around into a plausible size. */
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

/* ---- Header ------------------------------------------------------------------------------------ */

typedef struct map_header {
    uint32_t type_line, height_line, width_line; /* 0: not seen yet */
    int32_t height, width;
} map_header;

/* Reads "height H" / "width W": a positive integer within the grid limits. */
static nav_status parse_side(const load_context *ctx, uint32_t line, text_span key, text_span rest,
                             int32_t *side)
{
    char shown[48];
    text_span value, extra;
    if (!next_word(&rest, &value)) {
        report(ctx, line, "'%.*s' needs a value", (int)key.length, key.text);
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    if (next_word(&rest, &extra)) {
        report(ctx, line, "unexpected text after the %.*s: '%s'", (int)key.length, key.text,
               printable(extra, shown));
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    uint64_t v;
    if (!parse_count(value, &v) || v == 0) {
        report(ctx, line, "%.*s must be a positive integer, not '%s'", (int)key.length, key.text,
               printable(value, shown));
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    if (v > NAV_GRID_MAX_SIDE) {
        report(ctx, line, "%.*s %s is over the limit of %d", (int)key.length, key.text,
               printable(value, shown), NAV_GRID_MAX_SIDE);
        return NAV_FAILURE | NAV_TOO_LARGE;
    }
    *side = (int32_t)v;
    return NAV_SUCCESS;
}

/* Reads the header up to and including the "map" line. */
static nav_status parse_header(const load_context *ctx, line_reader *r, map_header *h)
{
    char shown[48];
    text_span line;
    *h = (map_header){0};
    while (next_line(r, &line)) {
        text_span rest = line, key, value;
        if (!next_word(&rest, &key)) {
            report(ctx, r->number, "empty line in the header");
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
        uint32_t *seen = span_is(key, "type")     ? &h->type_line
                         : span_is(key, "height") ? &h->height_line
                         : span_is(key, "width")  ? &h->width_line
                                                  : NULL;
        if (seen && *seen) {
            report(ctx, r->number, "duplicate '%.*s' line (first on line %u)", (int)key.length, key.text,
                   *seen);
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
        nav_status s = NAV_SUCCESS;
        if (span_is(key, "type")) {
            if (!next_word(&rest, &value) || !span_is(value, "octile") || next_word(&rest, &key)) {
                report(ctx, r->number, "unsupported map type '%s' (expected 'type octile')",
                       printable(line, shown));
                return NAV_FAILURE | NAV_PARSE_ERROR;
            }
        } else if (span_is(key, "height")) {
            s = parse_side(ctx, r->number, key, rest, &h->height);
        } else if (span_is(key, "width")) {
            s = parse_side(ctx, r->number, key, rest, &h->width);
        } else if (span_is(key, "map")) {
            if (next_word(&rest, &value)) {
                report(ctx, r->number, "unexpected text after 'map': '%s'", printable(value, shown));
                return NAV_FAILURE | NAV_PARSE_ERROR;
            }
            const char *missing = !h->type_line     ? "type"
                                  : !h->height_line ? "height"
                                  : !h->width_line  ? "width"
                                                    : NULL;
            if (missing) {
                report(ctx, r->number, "missing '%s' line before 'map'", missing);
                return NAV_FAILURE | NAV_PARSE_ERROR;
            }
            if ((uint64_t)h->width * (uint64_t)h->height > NAV_GRID_MAX_CELLS) {
                report(ctx, r->number, "%d x %d cells is over the limit of %u", h->width, h->height,
                       NAV_GRID_MAX_CELLS);
                return NAV_FAILURE | NAV_TOO_LARGE;
            }
            return NAV_SUCCESS;
        } else {
            report(ctx, r->number, "unexpected header line '%s'", printable(line, shown));
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
        if (nav_failed(s)) return s;
        *seen = r->number;
    }
    report(ctx, r->number + 1, "file ends before the 'map' line");
    return NAV_FAILURE | NAV_PARSE_ERROR;
}

/* ---- Rows -------------------------------------------------------------------------------------- */

static int cell_type(unsigned char c)
{
    switch (c) {
    case '.':
    case 'G':
        return NAV_TERRAIN_PLAIN;
    case 'S':
        return MAP_SWAMP;
    case '@':
    case 'O':
    case 'T':
    case 'W':
        return NAV_TERRAIN_BLOCKED;
    default:
        return MAP_INVALID;
    }
}

/* Reads the rows after the header; writes them into terrain when it is not null (the second pass,
 * over text the first pass accepted). */
static nav_status scan_rows(const load_context *ctx, line_reader r, const map_header *h, uint8_t *terrain)
{
    uint32_t width = (uint32_t)h->width, height = (uint32_t)h->height;
    text_span line;
    char shown[48];
    for (uint32_t y = 0; y < height; y++) {
        if (!next_line(&r, &line)) {
            report(ctx, r.number + 1, "file ends after %u of %u rows", y, height);
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
        if (line.length != width) {
            report(ctx, r.number, "row %u has %zu columns, expected %u", y, line.length, width);
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
        for (uint32_t x = 0; x < width; x++) {
            int type = cell_type((unsigned char)line.text[x]);
            if (type == MAP_INVALID) {
                report(ctx, r.number, "unknown character %s at column %u (x = %u)",
                       char_name((unsigned char)line.text[x], shown), x + 1, x);
                return NAV_FAILURE | NAV_PARSE_ERROR;
            }
            if (terrain) terrain[y * width + x] = (uint8_t)type;
        }
    }
    while (next_line(&r, &line)) {
        if (line.length == 0) continue;
        report(ctx, r.number, "unexpected text after the last row (the header says height %u): '%s'", height,
               printable(line, shown));
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    return NAV_SUCCESS;
}

/* ---- Loading ----------------------------------------------------------------------------------- */

nav_status nav_grid_load_map(const char *text, size_t size, const char *name, const nav_grid_desc *options,
                             nav_grid **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    load_context ctx = {options ? options->log : NULL, name ? name : "<map>"};
    if (!text && size) {
        report(&ctx, 0, "no text given");
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    line_reader r = {text, text ? text + size : NULL, 0};
    map_header header;
    nav_status s = parse_header(&ctx, &r, &header);
    if (nav_failed(s)) return s;
    s = scan_rows(&ctx, r, &header, NULL);
    if (nav_failed(s)) return s;

    nav_grid_desc desc = options ? *options : (nav_grid_desc){0};
    desc.width = header.width;
    desc.height = header.height;
    nav_grid *grid;
    s = nav_grid_create(&desc, &grid);
    if (nav_failed(s)) {
        report(&ctx, 0, "cannot create the grid: %s", nav_status_str(s));
        return s;
    }
    scan_rows(&ctx, r, &header, grid->terrain);
    nav__grid_rebuild(grid);
    s = nav_grid_build_reachability(grid);
    if (nav_failed(s)) {
        report(&ctx, 0, "cannot label reachability: %s", nav_status_str(s));
        nav_grid_destroy(grid);
        return s;
    }
    *out = grid;
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

nav_status nav_grid_load_map_file(const char *path, const nav_grid_desc *options, nav_grid **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!path) return NAV_FAILURE | NAV_INVALID_PARAM;
    load_context ctx = {options ? options->log : NULL, base_name(path)};
    nav_allocator allocator;
    nav__allocator_resolve(&allocator, options ? options->allocator : NULL);
    void *text;
    size_t size;
    nav_status s = nav_file_read_all(path, &allocator, &text, &size);
    if (nav_failed(s)) {
        report(&ctx, 0, "cannot read '%s': %s", path, nav_status_str(s));
        return s;
    }
    s = nav_grid_load_map(text, size, ctx.name, options, out);
    nav__free(&allocator, text);
    return s;
}
