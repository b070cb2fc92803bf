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
 * then once more to fill the grid. A file is read a window at a time (text.h), never whole; and a
 * text larger than its header can need (rows of the width with CRLF ends, trailing blanks as long
 * as the rows, 1 MiB of blank lines after them) is refused with NAV_TOO_LARGE before its rows are
 * read, so a huge file with a small header costs nothing. */
#include "grid_internal.h"

#include "text.h"

#define MAP_SWAMP   2 /* terrain type of 'S' */
#define MAP_INVALID -1

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
    if (!nav__next_word(&rest, &value)) {
        nav__report(ctx, line, "'%.*s' needs a value", (int)key.length, key.text);
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    if (nav__next_word(&rest, &extra)) {
        nav__report(ctx, line, "unexpected text after the %.*s: '%s'", (int)key.length, key.text,
                    nav__printable(extra, shown));
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    uint64_t v;
    if (!nav__parse_count(value, &v) || v == 0) {
        nav__report(ctx, line, "%.*s must be a positive integer, not '%s'", (int)key.length, key.text,
                    nav__printable(value, shown));
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    if (v > NAV_GRID_MAX_SIDE) {
        nav__report(ctx, line, "%.*s %s is over the limit of %d", (int)key.length, key.text,
                    nav__printable(value, shown), NAV_GRID_MAX_SIDE);
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
    while (nav__next_line(r, &line)) {
        text_span rest = line, key, value;
        if (!nav__next_word(&rest, &key)) {
            nav__report(ctx, r->number, "empty line in the header");
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
        uint32_t *seen = nav__span_is(key, "type")     ? &h->type_line
                         : nav__span_is(key, "height") ? &h->height_line
                         : nav__span_is(key, "width")  ? &h->width_line
                                                       : NULL;
        if (seen && *seen) {
            nav__report(ctx, r->number, "duplicate '%.*s' line (first on line %u)", (int)key.length, key.text,
                        *seen);
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
        nav_status s = NAV_SUCCESS;
        if (nav__span_is(key, "type")) {
            if (!nav__next_word(&rest, &value) || !nav__span_is(value, "octile") ||
                nav__next_word(&rest, &key)) {
                nav__report(ctx, r->number, "unsupported map type '%s' (expected 'type octile')",
                            nav__printable(line, shown));
                return NAV_FAILURE | NAV_PARSE_ERROR;
            }
        } else if (nav__span_is(key, "height")) {
            s = parse_side(ctx, r->number, key, rest, &h->height);
        } else if (nav__span_is(key, "width")) {
            s = parse_side(ctx, r->number, key, rest, &h->width);
        } else if (nav__span_is(key, "map")) {
            if (nav__next_word(&rest, &value)) {
                nav__report(ctx, r->number, "unexpected text after 'map': '%s'",
                            nav__printable(value, shown));
                return NAV_FAILURE | NAV_PARSE_ERROR;
            }
            const char *missing = !h->type_line     ? "type"
                                  : !h->height_line ? "height"
                                  : !h->width_line  ? "width"
                                                    : NULL;
            if (missing) {
                nav__report(ctx, r->number, "missing '%s' line before 'map'", missing);
                return NAV_FAILURE | NAV_PARSE_ERROR;
            }
            if ((uint64_t)h->width * (uint64_t)h->height > NAV_GRID_MAX_CELLS) {
                nav__report(ctx, r->number, "%d x %d cells is over the limit of %u", h->width, h->height,
                            NAV_GRID_MAX_CELLS);
                return NAV_FAILURE | NAV_TOO_LARGE;
            }
            return NAV_SUCCESS;
        } else {
            nav__report(ctx, r->number, "unexpected header line '%s'", nav__printable(line, shown));
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
        if (nav_failed(s)) return s;
        *seen = r->number;
    }
    if (nav_failed(r->status)) return r->status;
    nav__report(ctx, r->number + 1, "file ends before the 'map' line");
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

/* Reads the rows after the header (from the mark rows on); writes them into terrain when it is not
 * null (the second pass, over text the first pass accepted). */
static nav_status scan_rows(const load_context *ctx, line_reader *r, line_mark rows, const map_header *h,
                            uint8_t *terrain)
{
    uint32_t width = (uint32_t)h->width, height = (uint32_t)h->height;
    text_span line;
    char shown[48];
    nav__lines_seek(r, rows);
    for (uint32_t y = 0; y < height; y++) {
        if (!nav__next_line(r, &line)) {
            if (nav_failed(r->status)) return r->status;
            nav__report(ctx, r->number + 1, "file ends after %u of %u rows", y, height);
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
        if (line.length != width) {
            nav__report(ctx, r->number, "row %u has %zu columns, expected %u", y, line.length, width);
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
        for (uint32_t x = 0; x < width; x++) {
            int type = cell_type((unsigned char)line.text[x]);
            if (type == MAP_INVALID) {
                nav__report(ctx, r->number, "unknown character %s at column %u (x = %u)",
                            nav__char_name((unsigned char)line.text[x], shown), x + 1, x);
                return NAV_FAILURE | NAV_PARSE_ERROR;
            }
            if (terrain) terrain[y * width + x] = (uint8_t)type;
        }
    }
    while (nav__next_line(r, &line)) {
        if (line.length == 0) continue;
        nav__report(ctx, r->number, "unexpected text after the last row (the header says height %u): '%s'",
                    height, nav__printable(line, shown));
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    return r->status;
}

/* ---- Loading ----------------------------------------------------------------------------------- */

static nav_status load_map_lines(const load_context *ctx, line_reader *r, uint64_t size,
                                 const nav_grid_desc *options, nav_grid **out)
{
    map_header header;
    nav_status s = parse_header(ctx, r, &header);
    if (nav_failed(s)) return s;
    line_mark rows = nav__lines_mark(r);
    uint64_t need = rows.offset + 2 * (uint64_t)header.height * ((uint64_t)header.width + 2) + NAV__LINE_MAX;
    if (size > need) {
        nav__report(ctx, 0, "%llu bytes is more than a %d x %d map can need (%llu)", (unsigned long long)size,
                    header.width, header.height, (unsigned long long)need);
        return NAV_FAILURE | NAV_TOO_LARGE;
    }
    s = scan_rows(ctx, r, rows, &header, NULL);
    if (nav_failed(s)) return s;

    nav_grid_desc desc = options ? *options : (nav_grid_desc){0};
    desc.width = header.width;
    desc.height = header.height;
    nav_grid *grid;
    s = nav_grid_create(&desc, &grid);
    if (nav_failed(s)) {
        nav__report(ctx, 0, "cannot create the grid: %s", nav_status_str(s));
        return s;
    }
    /* The rows passed once; read again (a file that changed meanwhile fails cleanly here). */
    s = scan_rows(ctx, r, rows, &header, grid->terrain);
    if (nav_failed(s)) { /* reported */
        nav_grid_destroy(grid);
        return s;
    }
    return nav__finish_grid(ctx, grid, NAV_SUCCESS, "label reachability", out);
}

nav_status nav_grid_load_map(const char *text, size_t size, const char *name, const nav_grid_desc *options,
                             nav_grid **out)
{
    return nav__load_grid_text(text, size, name, "<map>", NAV__TRIM_TRAILING, options, out, load_map_lines);
}

nav_status nav_grid_load_map_file(const char *path, const nav_grid_desc *options, nav_grid **out)
{
    return nav__load_grid_file(path, NAV__TRIM_TRAILING, options, out, load_map_lines);
}
