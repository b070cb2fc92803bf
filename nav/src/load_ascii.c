/* The libnav ASCII map format (also described in docs/ascii_format.md).
 *
 * One character a cell, row 0 at the top, x the column. A file is either rows only, read with the
 * default legend, or header lines, a line "map", and the rows. The first line that reads exactly
 * "map" (blanks around it ignored) ends the header; without one, every line is a row.
 *
 *     # the basin of seed tutorial 002
 *     legend | height -1
 *     legend _ height -10
 *     legend 'o' cost 2 height -5
 *     max_climb 7
 *     map
 *     ....|||||....
 *     ...||___||...
 *
 * Header lines (words separated by blanks; leading and trailing blanks and CR ignored):
 *   # text                        a comment (a whole line; a value cannot be followed by one)
 *   empty line                    ignored
 *   legend C [cost V | blocked] [height H]
 *                                 character C (one printable ASCII character, or 'C' in single
 *                                 quotes, which a space needs) costs V (> 0, finite) or is
 *                                 blocked, at height H (world units). Omitted parts are cost 1 and
 *                                 height 0: the line replaces the character's entry, default or not.
 *                                 One legend line a character.
 *   max_climb V                   largest step up between neighbours: V > 0, or "unlimited"
 *   connectivity 4 | 8
 *   corner never | one | always   when a diagonal may pass a blocked cell (nav_corner_policy)
 *   diagonal V                    length of a diagonal move, 1 <= V <= 2
 * Each option at most once; a non-zero field of the caller's nav_grid_desc wins over the file.
 * Numbers are decimal ([+-]digits[.digits][e[+-]digits]) and read alike under every C locale.
 *
 * Rows: only the line end (LF or CRLF) is stripped, since a space is a cell; every row must then
 * have the length of row 0 (short rows are not padded: a silently shortened row is more likely a
 * mistake than a wish). Empty lines after the last row are ignored; an empty line before or
 * between rows is an error. 1..NAV_GRID_MAX_SIDE rows and columns.
 *
 * Default legend (heights 0), for every character without a legend line:
 *   '.' ' ' 'G' plain, cost 1     'S' swamp, cost 1     '/' ramp, cost 2
 *   'f' forest, cost 5            'm' mountain, cost 10 (the seed tutorials' terrain)
 *   '@' '#' 'O' 'T' 'W' 'X' 'x' blocked
 *
 * Terrain types: the cells of one cost share a type. Blocked cells are type 0, cost 1 is type 1,
 * and the other costs in use get types 2, 3, ... in increasing order of cost, so the same picture
 * always gives the same types whatever order its legend lines come in.
 *
 * Errors go to the log as "NAME:LINE: message"; an unknown character also names its column
 * (counted from 1, like an editor) and its x (counted from 0, like the grid). */
#include "grid_internal.h"

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

/* The next line without its LF or CRLF (a row keeps its trailing spaces: they are cells). */
static bool next_line(line_reader *r, text_span *line)
{
    if (r->at >= r->end) return false;
    const char *start = r->at;
    const char *newline = memchr(start, '\n', (size_t)(r->end - start));
    const char *stop = newline ? newline : r->end;
    r->at = newline ? newline + 1 : r->end;
    if (stop > start && stop[-1] == '\r') stop--;
    if (r->number < UINT32_MAX) r->number++;
    *line = (text_span){start, (size_t)(stop - start)};
    return true;
}

static text_span trim(text_span s)
{
    while (s.length && is_blank(s.text[0])) s.text++, s.length--;
    while (s.length && is_blank(s.text[s.length - 1])) s.length--;
    return s;
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

/* A character for a message: itself in quotes, or its byte value. */
static const char *char_name(unsigned char c, char out[8])
{
    if (c >= 0x20 && c < 0x7f)
        snprintf(out, 8, "'%c'", c);
    else
        snprintf(out, 8, "0x%02x", c);
    return out;
}

/* A decimal number, [+-]digits[.digits][(e|E)[+-]digits], with at least one digit. Not strtod:
 * strtod follows LC_NUMERIC, and a program running under a German locale would read "2.5" as 2.
 * Up to 19 significant digits are kept; within 2^53 and 10^+-22 the result is correctly rounded
 * (one exact multiply or divide), beyond that within an ulp or two, which a map value never needs. */
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

/* ---- Header ------------------------------------------------------------------------------------ */

typedef struct legend_entry {
    double cost;   /* cost factor, or NAV_COST_BLOCKED */
    float height;  /* world units */
    uint32_t line; /* of the legend line that set it; 0 for the default legend */
    bool defined;
} legend_entry;

enum { OPT_MAX_CLIMB, OPT_CONNECTIVITY, OPT_CORNER, OPT_DIAGONAL, OPT_COUNT };

typedef struct ascii_header {
    legend_entry legend[256];
    nav_grid_desc options;           /* the file's connectivity, corner, max_climb, diagonal (0: unset) */
    uint32_t option_line[OPT_COUNT]; /* where each option was set, 0: not yet */
    bool has_map_line;
} ascii_header;

static const struct {
    char c;
    double cost;
} default_legend[] = {
    /* clang-format off */
    {'.', 1}, {' ', 1}, {'G', 1}, {'S', 1}, /* plain ground, swamp */
    {'/', 2}, {'f', 5}, {'m', 10},          /* ramp, forest, mountain */
    {'@', NAV_COST_BLOCKED}, {'#', NAV_COST_BLOCKED}, {'O', NAV_COST_BLOCKED}, {'T', NAV_COST_BLOCKED},
    {'W', NAV_COST_BLOCKED}, {'X', NAV_COST_BLOCKED}, {'x', NAV_COST_BLOCKED},
    /* clang-format on */
};

static const char *const option_names[OPT_COUNT] = {"max_climb", "connectivity", "corner", "diagonal"};

/* "legend C [cost V | blocked] [height H]"; rest starts after the word "legend". */
static nav_status parse_legend(const load_context *ctx, uint32_t line, text_span rest, ascii_header *h)
{
    char shown[48], cname[8];
    const char *at = rest.text, *end = rest.text + rest.length;
    while (at < end && is_blank(*at)) at++;
    if (at == end) {
        report(ctx, line, "'legend' needs a character");
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    unsigned char c;
    if (end - at >= 3 && at[0] == '\'' && at[2] == '\'' && (end - at == 3 || is_blank(at[3]))) {
        c = (unsigned char)at[1];
        at += 3;
    } else {
        c = (unsigned char)at[0];
        at += 1;
        if (at < end && !is_blank(*at)) {
            const char *word_end = at;
            while (word_end < end && !is_blank(*word_end)) word_end++;
            report(ctx, line, "legend character '%s' is not one character (quote a space as ' ')",
                   printable((text_span){at - 1, (size_t)(word_end - at + 1)}, shown));
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
    }
    if (c < 0x20 || c >= 0x7f) {
        report(ctx, line, "legend character %s is not printable ASCII", char_name(c, cname));
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    legend_entry *entry = &h->legend[c];
    if (entry->line) {
        report(ctx, line, "character %s already has a legend (line %u)", char_name(c, cname), entry->line);
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    legend_entry parsed = {.cost = 1, .height = 0, .line = line, .defined = true};
    bool has_cost = false, has_height = false;
    text_span props = {at, (size_t)(end - at)}, key, value;
    while (next_word(&props, &key)) {
        bool is_cost = span_is(key, "cost"), is_height = span_is(key, "height"),
             is_blocked = span_is(key, "blocked");
        if (!is_cost && !is_height && !is_blocked) {
            report(ctx, line, "unknown legend property '%s' (expected cost, blocked or height)",
                   printable(key, shown));
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
        if ((is_height && has_height) || (!is_height && has_cost)) {
            report(ctx, line, "legend %s gives its %s twice", char_name(c, cname),
                   is_height ? "height" : "cost");
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
        if (is_blocked) {
            parsed.cost = NAV_COST_BLOCKED;
            has_cost = true;
            continue;
        }
        if (!next_word(&props, &value)) {
            report(ctx, line, "'%s' needs a value", is_cost ? "cost" : "height");
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
        double v;
        if (is_cost) {
            has_cost = true;
            if (span_is(value, "blocked")) {
                parsed.cost = NAV_COST_BLOCKED;
            } else if (!parse_number(value, &v) || !(v > 0) || !isfinite(v)) {
                report(ctx, line, "cost must be a positive number or 'blocked', not '%s'",
                       printable(value, shown));
                return NAV_FAILURE | NAV_PARSE_ERROR;
            } else {
                parsed.cost = v;
            }
        } else {
            has_height = true;
            if (!parse_number(value, &v) || !(fabs(v) <= 3.0e38)) {
                report(ctx, line, "height must be a finite number, not '%s'", printable(value, shown));
                return NAV_FAILURE | NAV_PARSE_ERROR;
            }
            parsed.height = (float)v;
        }
    }
    *entry = parsed;
    return NAV_SUCCESS;
}

/* "max_climb V", "connectivity 4|8", "corner never|one|always", "diagonal V". */
static nav_status parse_option(const load_context *ctx, uint32_t line, int option, text_span rest,
                               ascii_header *h)
{
    char shown[48];
    const char *name = option_names[option];
    if (h->option_line[option]) {
        report(ctx, line, "duplicate '%s' line (first on line %u)", name, h->option_line[option]);
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    text_span value, extra;
    if (!next_word(&rest, &value)) {
        report(ctx, line, "'%s' needs a value", name);
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    if (next_word(&rest, &extra)) {
        report(ctx, line, "unexpected text after the %s: '%s'", name, printable(extra, shown));
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    double v = 0;
    bool ok = false;
    switch (option) {
    case OPT_MAX_CLIMB:
        /* 0 cannot be given: in nav_grid_desc it means "unlimited", the opposite of what it says. */
        if (span_is(value, "unlimited")) {
            h->options.max_climb = INFINITY;
            ok = true;
        } else if (parse_number(value, &v) && v > 0 && v <= 3.0e38) {
            h->options.max_climb = (float)v;
            ok = true;
        }
        if (!ok)
            report(ctx, line, "max_climb must be a positive number or 'unlimited', not '%s'",
                   printable(value, shown));
        break;
    case OPT_CONNECTIVITY:
        ok = span_is(value, "4") || span_is(value, "8");
        if (ok)
            h->options.connectivity = span_is(value, "4") ? NAV_CONNECT_4 : NAV_CONNECT_8;
        else
            report(ctx, line, "connectivity must be 4 or 8, not '%s'", printable(value, shown));
        break;
    case OPT_CORNER:
        ok = true;
        if (span_is(value, "never"))
            h->options.corner_policy = NAV_CORNER_NEVER_CUT;
        else if (span_is(value, "one"))
            h->options.corner_policy = NAV_CORNER_CUT_IF_ONE_FREE;
        else if (span_is(value, "always"))
            h->options.corner_policy = NAV_CORNER_ALWAYS_CUT;
        else
            ok = false;
        if (!ok) report(ctx, line, "corner must be never, one or always, not '%s'", printable(value, shown));
        break;
    default:
        ok = parse_number(value, &v) && v >= 1 && v <= 2;
        if (ok)
            h->options.diagonal_cost = v;
        else
            report(ctx, line, "diagonal must be a number from 1 to 2, not '%s'", printable(value, shown));
        break;
    }
    if (!ok) return NAV_FAILURE | NAV_PARSE_ERROR;
    h->option_line[option] = line;
    return NAV_SUCCESS;
}

/* Finds the "map" line. Returns a reader over the header lines (empty without a "map" line) and
 * leaves *rows at the first row. */
static void split_header(const char *text, size_t size, line_reader *header, line_reader *rows, bool *has_map)
{
    line_reader r = {text, text + size, 0};
    text_span line;
    while (next_line(&r, &line)) {
        if (span_is(trim(line), "map")) {
            *header = (line_reader){text, r.at, 0};
            *rows = r;
            *has_map = true;
            return;
        }
    }
    *header = (line_reader){text, text, 0};
    *rows = (line_reader){text, text + size, 0};
    *has_map = false;
}

static nav_status parse_header(const load_context *ctx, line_reader r, ascii_header *h)
{
    char shown[48];
    text_span line, key;
    while (next_line(&r, &line)) {
        text_span rest = trim(line);
        if (rest.length == 0 || rest.text[0] == '#') continue;
        next_word(&rest, &key);
        nav_status s;
        if (span_is(key, "map")) {
            if (next_word(&rest, &key)) {
                report(ctx, r.number, "unexpected text after 'map': '%s'", printable(key, shown));
                return NAV_FAILURE | NAV_PARSE_ERROR;
            }
            return NAV_SUCCESS; /* the line split_header found: the rows follow */
        } else if (span_is(key, "legend")) {
            s = parse_legend(ctx, r.number, rest, h);
        } else {
            int option = 0;
            while (option < OPT_COUNT && !span_is(key, option_names[option])) option++;
            if (option == OPT_COUNT) {
                report(ctx, r.number, "unknown header line '%s'", printable(trim(line), shown));
                return NAV_FAILURE | NAV_PARSE_ERROR;
            }
            s = parse_option(ctx, r.number, option, rest, h);
        }
        if (nav_failed(s)) return s;
    }
    return NAV_SUCCESS;
}

/* True when a line looks like a header line: the hint for a file that forgot its "map" line. */
static bool looks_like_header(text_span line)
{
    text_span rest = trim(line), key;
    if (rest.length && rest.text[0] == '#' && rest.length > 1 && rest.text[1] == ' ') return true;
    if (!next_word(&rest, &key)) return false;
    if (span_is(key, "legend")) return true;
    for (int option = 0; option < OPT_COUNT; option++)
        if (span_is(key, option_names[option])) return true;
    return false;
}

/* ---- Rows -------------------------------------------------------------------------------------- */

typedef struct ascii_rows {
    uint32_t width, height;
    bool used[256]; /* characters that occur in the rows */
} ascii_rows;

/* First pass (grid null): validates the rows and measures them. Second pass: writes each cell's
 * terrain type (type_of) and, when the grid has a height layer, its height. */
static nav_status scan_rows(const load_context *ctx, line_reader r, const ascii_header *h, ascii_rows *rows,
                            nav_grid *grid, const uint8_t *type_of)
{
    char shown[8];
    text_span line;
    uint32_t y = 0, width = 0, blank_run = 0, blank_line = 0, first_line = r.number + 1;
    if (!grid) memset(rows->used, 0, sizeof rows->used);
    while (next_line(&r, &line)) {
        if (line.length == 0) {
            if (!blank_run++) blank_line = r.number;
            continue;
        }
        if (blank_run) {
            if (y)
                report(ctx, blank_line, "row %u is empty, expected %u columns", y, width);
            else
                report(ctx, blank_line, "empty line before the first row");
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
        if (y == NAV_GRID_MAX_SIDE) {
            report(ctx, r.number, "more than %d rows", NAV_GRID_MAX_SIDE);
            return NAV_FAILURE | NAV_TOO_LARGE;
        }
        if (line.length > NAV_GRID_MAX_SIDE) {
            report(ctx, r.number, "row %u has %zu columns, over the limit of %d", y, line.length,
                   NAV_GRID_MAX_SIDE);
            return NAV_FAILURE | NAV_TOO_LARGE;
        }
        if (y == 0) {
            width = (uint32_t)line.length;
        } else if (line.length != width) {
            report(ctx, r.number, "row %u has %zu columns, expected %u (the width of row 0)", y, line.length,
                   width);
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
        for (uint32_t x = 0; x < width; x++) {
            unsigned char c = (unsigned char)line.text[x];
            if (!h->legend[c].defined) {
                report(ctx, r.number, "unknown character %s at column %u (x = %u)%s", char_name(c, shown),
                       x + 1, x,
                       !h->has_map_line && looks_like_header(line)
                           ? "; header lines need a 'map' line between them and the rows"
                           : "");
                return NAV_FAILURE | NAV_PARSE_ERROR;
            }
            if (!grid) {
                rows->used[c] = true;
                continue;
            }
            uint32_t cell = y * width + x;
            grid->terrain[cell] = type_of[c];
            if (grid->heights) grid->heights[cell] = h->legend[c].height;
        }
        y++;
    }
    if (y == 0) {
        report(ctx, first_line, "no rows%s", h->has_map_line ? " after 'map'" : "");
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    rows->width = width;
    rows->height = y;
    return NAV_SUCCESS;
}

/* Gives each cost in use a terrain type: blocked 0, cost 1 type 1, the others 2, 3, ... by
 * increasing cost. */
static nav_status assign_types(const load_context *ctx, const ascii_header *h, const ascii_rows *rows,
                               uint8_t type_of[256], double type_cost[NAV_TERRAIN_TYPES], int *type_count)
{
    double costs[256];
    int n = 0;
    for (int c = 0; c < 256; c++) {
        double cost = h->legend[c].cost;
        if (!rows->used[c] || cost == 1 || !(cost < INFINITY)) continue;
        int i = 0;
        while (i < n && costs[i] < cost) i++;
        if (i < n && costs[i] == cost) continue;
        memmove(costs + i + 1, costs + i, (size_t)(n - i) * sizeof *costs);
        costs[i] = cost;
        n++;
    }
    if (n > NAV_TERRAIN_TYPES - 2) {
        report(ctx, 0, "%d distinct costs; a grid holds %d terrain types besides plain", n,
               NAV_TERRAIN_TYPES - 2);
        return NAV_FAILURE | NAV_TOO_LARGE;
    }
    for (int c = 0; c < 256; c++) {
        double cost = h->legend[c].cost;
        type_of[c] = NAV_TERRAIN_BLOCKED;
        if (!rows->used[c] || !(cost < INFINITY)) continue;
        if (cost == 1) {
            type_of[c] = NAV_TERRAIN_PLAIN;
            continue;
        }
        int i = 0;
        while (costs[i] != cost) i++;
        type_of[c] = (uint8_t)(2 + i);
    }
    for (int i = 0; i < n; i++) type_cost[2 + i] = costs[i];
    *type_count = 2 + n;
    return NAV_SUCCESS;
}

/* ---- Loading ----------------------------------------------------------------------------------- */

nav_status nav_grid_load_ascii(const char *text, size_t size, const char *name, const nav_grid_desc *options,
                               nav_grid **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    load_context ctx = {options ? options->log : NULL, name ? name : "<ascii>"};
    if (!text && size) {
        report(&ctx, 0, "no text given");
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    if (!text) text = "";

    ascii_header header = {0};
    for (size_t i = 0; i < sizeof default_legend / sizeof default_legend[0]; i++)
        header.legend[(unsigned char)default_legend[i].c] =
            (legend_entry){.cost = default_legend[i].cost, .defined = true};
    line_reader header_lines, row_lines;
    split_header(text, size, &header_lines, &row_lines, &header.has_map_line);
    nav_status s = parse_header(&ctx, header_lines, &header);
    if (nav_failed(s)) return s;
    ascii_rows rows;
    s = scan_rows(&ctx, row_lines, &header, &rows, NULL, NULL);
    if (nav_failed(s)) return s;
    uint8_t type_of[256];
    double type_cost[NAV_TERRAIN_TYPES];
    int type_count;
    s = assign_types(&ctx, &header, &rows, type_of, type_cost, &type_count);
    if (nav_failed(s)) return s;

    nav_grid_desc desc = options ? *options : (nav_grid_desc){0};
    desc.width = (int32_t)rows.width;
    desc.height = (int32_t)rows.height;
    if (!desc.connectivity) desc.connectivity = header.options.connectivity;
    if (!desc.corner_policy) desc.corner_policy = header.options.corner_policy;
    if (desc.max_climb == 0) desc.max_climb = header.options.max_climb;
    if (desc.diagonal_cost == 0) desc.diagonal_cost = header.options.diagonal_cost;
    nav_grid *grid;
    s = nav_grid_create(&desc, &grid);
    if (nav_failed(s)) {
        report(&ctx, 0, "cannot create the grid: %s", nav_status_str(s));
        return s;
    }
    bool needs_heights = false;
    for (int c = 0; c < 256; c++) needs_heights |= rows.used[c] && header.legend[c].height != 0;
    if (needs_heights) s = nav__grid_ensure_heights(grid);
    for (int t = 2; t < type_count && nav_succeeded(s); t++)
        s = nav_grid_set_terrain_cost(grid, (uint8_t)t, type_cost[t]);
    if (nav_succeeded(s)) {
        scan_rows(&ctx, row_lines, &header, &rows, grid, type_of);
        nav__grid_rebuild(grid);
        s = nav_grid_build_reachability(grid);
    }
    if (nav_failed(s)) {
        report(&ctx, 0, "cannot build the grid: %s", nav_status_str(s));
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

nav_status nav_grid_load_ascii_file(const char *path, const nav_grid_desc *options, nav_grid **out)
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
    s = nav_grid_load_ascii(text, size, ctx.name, options, out);
    nav__free(&allocator, text);
    return s;
}
