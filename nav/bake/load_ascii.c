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
 *                                 quotes, which a space needs) costs V (NAV_COST_MIN..NAV_COST_MAX,
 *                                 1/1024 to 4096) or is
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
#include <string.h>

#include "text.h"

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
    while (at < end && nav__is_blank(*at)) at++;
    if (at == end) {
        nav__report(ctx, line, "'legend' needs a character");
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    unsigned char c;
    if (end - at >= 3 && at[0] == '\'' && at[2] == '\'' && (end - at == 3 || nav__is_blank(at[3]))) {
        c = (unsigned char)at[1];
        at += 3;
    } else {
        c = (unsigned char)at[0];
        at += 1;
        if (at < end && !nav__is_blank(*at)) {
            const char *word_end = at;
            while (word_end < end && !nav__is_blank(*word_end)) word_end++;
            nav__report(ctx, line, "legend character '%s' is not one character (quote a space as ' ')",
                        nav__printable((text_span){at - 1, (size_t)(word_end - at + 1)}, shown));
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
    }
    if (c < 0x20 || c >= 0x7f) {
        nav__report(ctx, line, "legend character %s is not printable ASCII", nav__char_name(c, cname));
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    legend_entry *entry = &h->legend[c];
    if (entry->line) {
        nav__report(ctx, line, "character %s already has a legend (line %u)", nav__char_name(c, cname),
                    entry->line);
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    legend_entry parsed = {.cost = 1, .height = 0, .line = line, .defined = true};
    bool has_cost = false, has_height = false;
    text_span props = {at, (size_t)(end - at)}, key, value;
    while (nav__next_word(&props, &key)) {
        bool is_cost = nav__span_is(key, "cost"), is_height = nav__span_is(key, "height"),
             is_blocked = nav__span_is(key, "blocked");
        if (!is_cost && !is_height && !is_blocked) {
            nav__report(ctx, line, "unknown legend property '%s' (expected cost, blocked or height)",
                        nav__printable(key, shown));
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
        if ((is_height && has_height) || (!is_height && has_cost)) {
            nav__report(ctx, line, "legend %s gives its %s twice", nav__char_name(c, cname),
                        is_height ? "height" : "cost");
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
        if (is_blocked) {
            parsed.cost = NAV_COST_BLOCKED;
            has_cost = true;
            continue;
        }
        if (!nav__next_word(&props, &value)) {
            nav__report(ctx, line, "'%s' needs a value", is_cost ? "cost" : "height");
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
        double v;
        if (is_cost) {
            has_cost = true;
            if (nav__span_is(value, "blocked")) {
                parsed.cost = NAV_COST_BLOCKED;
            } else if (!nav__parse_number(value, &v) || !(v < INFINITY) || !nav_terrain_cost_valid(v)) {
                nav__report(ctx, line, "cost must be a number from 1/1024 to 4096 or 'blocked', not '%s'",
                            nav__printable(value, shown));
                return NAV_FAILURE | NAV_PARSE_ERROR;
            } else {
                parsed.cost = v;
            }
        } else {
            has_height = true;
            if (!nav__parse_number(value, &v) || !(fabs(v) <= 3.0e38)) {
                nav__report(ctx, line, "height must be a finite number, not '%s'",
                            nav__printable(value, shown));
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
        nav__report(ctx, line, "duplicate '%s' line (first on line %u)", name, h->option_line[option]);
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    text_span value, extra;
    if (!nav__next_word(&rest, &value)) {
        nav__report(ctx, line, "'%s' needs a value", name);
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    if (nav__next_word(&rest, &extra)) {
        nav__report(ctx, line, "unexpected text after the %s: '%s'", name, nav__printable(extra, shown));
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    double v = 0;
    bool ok = false;
    switch (option) {
    case OPT_MAX_CLIMB:
        /* 0 cannot be given: in nav_grid_desc it means "unlimited", the opposite of what it says. */
        if (nav__span_is(value, "unlimited")) {
            h->options.max_climb = INFINITY;
            ok = true;
        } else if (nav__parse_number(value, &v) && v > 0 && v <= 3.0e38) {
            h->options.max_climb = (float)v;
            ok = true;
        }
        if (!ok)
            nav__report(ctx, line, "max_climb must be a positive number or 'unlimited', not '%s'",
                        nav__printable(value, shown));
        break;
    case OPT_CONNECTIVITY:
        ok = nav__span_is(value, "4") || nav__span_is(value, "8");
        if (ok)
            h->options.connectivity = nav__span_is(value, "4") ? NAV_CONNECT_4 : NAV_CONNECT_8;
        else
            nav__report(ctx, line, "connectivity must be 4 or 8, not '%s'", nav__printable(value, shown));
        break;
    case OPT_CORNER:
        ok = true;
        if (nav__span_is(value, "never"))
            h->options.corner_policy = NAV_CORNER_NEVER_CUT;
        else if (nav__span_is(value, "one"))
            h->options.corner_policy = NAV_CORNER_CUT_IF_ONE_FREE;
        else if (nav__span_is(value, "always"))
            h->options.corner_policy = NAV_CORNER_ALWAYS_CUT;
        else
            ok = false;
        if (!ok)
            nav__report(ctx, line, "corner must be never, one or always, not '%s'",
                        nav__printable(value, shown));
        break;
    default:
        ok = nav__parse_number(value, &v) && v >= 1 && v <= 2;
        if (ok)
            h->options.diagonal_cost = v;
        else
            nav__report(ctx, line, "diagonal must be a number from 1 to 2, not '%s'",
                        nav__printable(value, shown));
        break;
    }
    if (!ok) return NAV_FAILURE | NAV_PARSE_ERROR;
    h->option_line[option] = line;
    return NAV_SUCCESS;
}

/* Finds the first "map" line of the text. Leaves *rows at the first row: after that line, or at the
 * start without one. Returns the reader's status (a line too long, a read error). */
static nav_status split_header(line_reader *r, line_mark *rows, bool *has_map)
{
    line_mark start = nav__lines_mark(r);
    text_span line;
    while (nav__next_line(r, &line)) {
        if (nav__span_is(nav__trim(line), "map")) {
            *rows = nav__lines_mark(r);
            *has_map = true;
            return NAV_SUCCESS;
        }
    }
    *rows = start;
    *has_map = false;
    return r->status;
}

/* Reads the header lines, from the start up to the "map" line (there is one: split_header found it). */
static nav_status parse_header(const load_context *ctx, line_reader *r, ascii_header *h)
{
    char shown[48];
    text_span line, key;
    nav__lines_seek(r, (line_mark){0, 0});
    while (nav__next_line(r, &line)) {
        text_span rest = nav__trim(line);
        if (rest.length == 0 || rest.text[0] == '#') continue;
        nav__next_word(&rest, &key);
        nav_status s;
        if (nav__span_is(key, "map")) {
            if (nav__next_word(&rest, &key)) {
                nav__report(ctx, r->number, "unexpected text after 'map': '%s'", nav__printable(key, shown));
                return NAV_FAILURE | NAV_PARSE_ERROR;
            }
            return NAV_SUCCESS; /* the line split_header found: the rows follow */
        } else if (nav__span_is(key, "legend")) {
            s = parse_legend(ctx, r->number, rest, h);
        } else {
            int option = 0;
            while (option < OPT_COUNT && !nav__span_is(key, option_names[option])) option++;
            if (option == OPT_COUNT) {
                nav__report(ctx, r->number, "unknown header line '%s'",
                            nav__printable(nav__trim(line), shown));
                return NAV_FAILURE | NAV_PARSE_ERROR;
            }
            s = parse_option(ctx, r->number, option, rest, h);
        }
        if (nav_failed(s)) return s;
    }
    return r->status;
}

/* True when a line looks like a header line: the hint for a file that forgot its "map" line. */
static bool looks_like_header(text_span line)
{
    text_span rest = nav__trim(line), key;
    if (rest.length && rest.text[0] == '#' && rest.length > 1 && rest.text[1] == ' ') return true;
    if (!nav__next_word(&rest, &key)) return false;
    if (nav__span_is(key, "legend")) return true;
    for (int option = 0; option < OPT_COUNT; option++)
        if (nav__span_is(key, option_names[option])) return true;
    return false;
}

/* ---- Rows -------------------------------------------------------------------------------------- */

typedef struct ascii_rows {
    uint32_t width, height;
    bool used[256]; /* characters that occur in the rows */
} ascii_rows;

/* First pass (grid null): validates the rows and measures them. Second pass: writes each cell's
 * terrain type (type_of) and, when the grid has a height layer, its height. */
static nav_status scan_rows(const load_context *ctx, line_reader *r, line_mark start, const ascii_header *h,
                            ascii_rows *rows, nav_grid *grid, const uint8_t *type_of)
{
    char shown[8];
    text_span line;
    uint32_t y = 0, width = 0, blank_run = 0, blank_line = 0, first_line = start.number + 1;
    if (!grid) memset(rows->used, 0, sizeof rows->used);
    nav__lines_seek(r, start);
    while (nav__next_line(r, &line)) {
        if (line.length == 0) {
            if (!blank_run++) blank_line = r->number;
            continue;
        }
        if (blank_run) {
            if (y)
                nav__report(ctx, blank_line, "row %u is empty, expected %u columns", y, width);
            else
                nav__report(ctx, blank_line, "empty line before the first row");
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
        if (y == NAV_GRID_MAX_SIDE) {
            nav__report(ctx, r->number, "more than %d rows", NAV_GRID_MAX_SIDE);
            return NAV_FAILURE | NAV_TOO_LARGE;
        }
        if (line.length > NAV_GRID_MAX_SIDE) {
            nav__report(ctx, r->number, "row %u has %zu columns, over the limit of %d", y, line.length,
                        NAV_GRID_MAX_SIDE);
            return NAV_FAILURE | NAV_TOO_LARGE;
        }
        if (grid && (y >= rows->height || line.length != rows->width)) {
            /* the first pass measured the rows: a file that changed since must not write past them */
            nav__report(ctx, r->number, "the file changed while it was read");
            return NAV_FAILURE | NAV_IO_ERROR;
        }
        if (y == 0) {
            width = (uint32_t)line.length;
        } else if (line.length != width) {
            nav__report(ctx, r->number, "row %u has %zu columns, expected %u (the width of row 0)", y,
                        line.length, width);
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
        for (uint32_t x = 0; x < width; x++) {
            unsigned char c = (unsigned char)line.text[x];
            if (!h->legend[c].defined) {
                nav__report(ctx, r->number, "unknown character %s at column %u (x = %u)%s",
                            nav__char_name(c, shown), x + 1, x,
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
    if (nav_failed(r->status)) return r->status;
    if (grid && y != rows->height) {
        nav__report(ctx, 0, "the file changed while it was read");
        return NAV_FAILURE | NAV_IO_ERROR;
    }
    if (y == 0) {
        nav__report(ctx, first_line, "no rows%s", h->has_map_line ? " after 'map'" : "");
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
        nav__report(ctx, 0, "%d distinct costs; a grid holds %d terrain types besides plain", n,
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

static nav_status load_ascii_lines(const load_context *ctx, line_reader *r, uint64_t size,
                                   const nav_grid_desc *options, nav_grid **out)
{
    (void)size; /* the rows give the size: a file is read in pieces, never whole */
    ascii_header header = {0};
    for (size_t i = 0; i < sizeof default_legend / sizeof default_legend[0]; i++)
        header.legend[(unsigned char)default_legend[i].c] =
            (legend_entry){.cost = default_legend[i].cost, .defined = true};
    line_mark row_start;
    nav_status s = split_header(r, &row_start, &header.has_map_line);
    if (nav_succeeded(s) && header.has_map_line) s = parse_header(ctx, r, &header);
    if (nav_failed(s)) return s;
    ascii_rows rows;
    s = scan_rows(ctx, r, row_start, &header, &rows, NULL, NULL);
    if (nav_failed(s)) return s;
    uint8_t type_of[256];
    double type_cost[NAV_TERRAIN_TYPES];
    int type_count;
    s = assign_types(ctx, &header, &rows, type_of, type_cost, &type_count);
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
        nav__report(ctx, 0, "cannot create the grid: %s", nav_status_str(s));
        return s;
    }
    bool needs_heights = false;
    for (int c = 0; c < 256; c++) needs_heights |= rows.used[c] && header.legend[c].height != 0;
    if (needs_heights) s = nav__grid_ensure_heights(grid);
    for (int t = 2; t < type_count && nav_succeeded(s); t++)
        s = nav_grid_set_terrain_cost(grid, (uint8_t)t, type_cost[t]);
    if (nav_failed(s)) return nav__finish_grid(ctx, grid, s, "build the grid", out);
    /* The rows passed once; read again (a file that changed meanwhile fails cleanly here). */
    s = scan_rows(ctx, r, row_start, &header, &rows, grid, type_of);
    if (nav_failed(s)) { /* reported */
        nav_grid_destroy(grid);
        return s;
    }
    return nav__finish_grid(ctx, grid, NAV_SUCCESS, "build the grid", out);
}

nav_status nav_grid_load_ascii(const char *text, size_t size, const char *name, const nav_grid_desc *options,
                               nav_grid **out)
{
    return nav__load_grid_text(text, size, name, "<ascii>", NAV__KEEP_BLANKS, options, out, load_ascii_lines);
}

nav_status nav_grid_load_ascii_file(const char *path, const nav_grid_desc *options, nav_grid **out)
{
    return nav__load_grid_file(path, NAV__KEEP_BLANKS, options, out, load_ascii_lines);
}
