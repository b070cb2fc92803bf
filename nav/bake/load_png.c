/* PNG masks: each pixel a cell (row 0 at the top), its colour looked up in a palette.
 *
 * The image is decoded by libspng (Debian's libspng-dev), a decoder written for untrusted PNGs:
 * it checks every chunk's CRC and the zlib stream's Adler-32, refuses chunks out of order, and
 * decodes row by row. libnav asks it for one row at a time (progressive decoding), so a mask costs
 * the grid plus one row of pixels, whatever its size; an Adam7-interlaced image arrives as seven
 * passes of partial rows, and each pass's pixels go straight to their cells.
 *
 * Before anything is allocated, the header is checked against the grid limits (NAV_TOO_LARGE,
 * with the image's size and the limits in the message) and against the size of the input: deflate
 * packs at most 1032 bytes into one, so a short file that claims a huge image cannot be real and
 * is refused before its grid exists.
 *
 * Colours: RGB; grey images are widened to RGB, 16-bit samples cut to their high byte, and alpha
 * ignored (a mask is a picture of terrain, not a composited image). With no palette, black
 * 0x000000 is blocked and every other colour plain. With one, each entry gives a colour its cost
 * and height; the cells of one cost share a terrain type (blocked 0, cost 1 type 1, other palette
 * costs 2, 3, ... in increasing order), and a colour missing from the palette is an error or
 * blocked, as nav_png_desc says.
 *
 * libspng allocates its own small state (the context, zlib's window, one row or two) with malloc:
 * its allocation hooks take no context pointer, and passing the caller's allocator through a
 * global would break the rule that libnav keeps no global mutable state. Everything libnav keeps
 * (the grid, the palette, the row buffer) comes from the caller's allocator. */
#include "grid_internal.h"

#include <math.h>
#include <spng.h>
#include <stdlib.h>
#include <string.h>

#include "nav/io.h"

#include "alloc.h"
#include "file.h"
#include "text.h"

/* Ancillary chunks libspng keeps in memory (text, ICC profiles, Exif) are capped: a mask needs
 * none of them, and a hostile file must not make the loader hold hundreds of megabytes of them.
 * Image data is streamed and not limited by these. */
#define PNG_CHUNK_LIMIT (8u << 20)  /* bytes in one ancillary chunk */
#define PNG_CACHE_LIMIT (32u << 20) /* bytes of ancillary chunks in all */

/* Where a file variant's bytes come from: libspng reads through read_file, in pieces. */
typedef struct png_file_source {
    FILE *file;
    bool failed; /* a read error, not the end of the file */
} png_file_source;

static int read_file(spng_ctx *png, void *user, void *dest, size_t length)
{
    (void)png;
    png_file_source *source = user;
    size_t got = fread(dest, 1, length, source->file);
    if (got == length) return 0;
    if (ferror(source->file)) {
        source->failed = true;
        return SPNG_IO_ERROR;
    }
    return SPNG_IO_EOF;
}

/* A palette entry resolved to what a cell receives. */
typedef struct colour_entry {
    uint32_t rgb;
    uint8_t type;
    float height;
} colour_entry;

static int compare_colours(const void *a, const void *b)
{
    uint32_t x = ((const colour_entry *)a)->rgb, y = ((const colour_entry *)b)->rgb;
    return (x > y) - (x < y);
}

/* Checks the palette and resolves it into colours sorted by rgb, each with its terrain type; the
 * types' costs go to type_cost[2 .. *type_count - 1]. */
static nav_status resolve_palette(const load_context *ctx, const nav_png_desc *png, const nav_allocator *a,
                                  colour_entry **out, double type_cost[NAV_TERRAIN_TYPES], int *type_count)
{
    *out = NULL;
    *type_count = 2;
    uint32_t count = png->palette_count;
    if (count == 0) return NAV_SUCCESS;
    double costs[NAV_TERRAIN_TYPES];
    int n = 0;
    for (uint32_t i = 0; i < count; i++) {
        const nav_palette_entry *e = &png->palette[i];
        if (e->rgb > 0xffffffu || !nav_terrain_cost_valid(e->cost) || !isfinite(e->height)) {
            nav__report(
                ctx, 0,
                "palette entry %u (#%06x) needs a colour up to #ffffff, a cost from 1/1024 to 4096 or "
                "blocked, and a finite height",
                i, e->rgb);
            return NAV_FAILURE | NAV_INVALID_PARAM;
        }
        if (e->cost == 1 || !(e->cost < INFINITY)) continue;
        int at = 0;
        while (at < n && costs[at] < e->cost) at++;
        if (at < n && costs[at] == e->cost) continue;
        if (n == NAV_TERRAIN_TYPES - 2) {
            nav__report(ctx, 0, "the palette has more than %d distinct costs besides 1",
                        NAV_TERRAIN_TYPES - 2);
            return NAV_FAILURE | NAV_TOO_LARGE;
        }
        memmove(costs + at + 1, costs + at, (size_t)(n - at) * sizeof *costs);
        costs[at] = e->cost;
        n++;
    }
    colour_entry *colours = nav__alloc(a, nav__mul_size(count, sizeof *colours));
    if (!colours) {
        nav__report(ctx, 0, "out of memory");
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < count; i++) {
        const nav_palette_entry *e = &png->palette[i];
        uint8_t type = NAV_TERRAIN_BLOCKED;
        if (e->cost == 1) {
            type = NAV_TERRAIN_PLAIN;
        } else if (e->cost < INFINITY) {
            int at = 0;
            while (costs[at] != e->cost) at++;
            type = (uint8_t)(2 + at);
        }
        colours[i] = (colour_entry){e->rgb, type, e->height};
    }
    qsort(colours, count, sizeof *colours, compare_colours);
    for (uint32_t i = 1; i < count; i++) {
        if (colours[i].rgb == colours[i - 1].rgb) {
            nav__report(ctx, 0, "colour #%06x is in the palette twice", colours[i].rgb);
            nav__free(a, colours);
            return NAV_FAILURE | NAV_INVALID_PARAM;
        }
    }
    for (int i = 0; i < n; i++) type_cost[2 + i] = costs[i];
    *type_count = 2 + n;
    *out = colours;
    return NAV_SUCCESS;
}

static const colour_entry *find_colour(const colour_entry *colours, uint32_t count, uint32_t rgb)
{
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (colours[mid].rgb < rgb)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < count && colours[lo].rgb == rgb ? &colours[lo] : NULL;
}

/* Reports why libspng failed and returns the status that says it. */
static nav_status decode_failure(const load_context *ctx, const png_file_source *source, int error)
{
    switch (error) {
    case SPNG_EMEM:
    case SPNG_EZLIB_INIT:
        nav__report(ctx, 0, "out of memory");
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    case SPNG_IO_ERROR:
        if (source && source->failed) {
            nav__report(ctx, 0, "cannot read the file (an I/O error)");
            return NAV_FAILURE | NAV_IO_ERROR;
        }
        break;
    case SPNG_IO_EOF:
    case SPNG_EOF:
        nav__report(ctx, 0, "the PNG ends early (truncated)");
        return NAV_FAILURE | NAV_PARSE_ERROR;
    case SPNG_ESIGNATURE:
        nav__report(ctx, 0, "not a PNG image (no PNG signature)");
        return NAV_FAILURE | NAV_PARSE_ERROR;
    case SPNG_ECHUNK_CRC:
        nav__report(ctx, 0, "damaged PNG: a chunk's CRC does not match its bytes");
        return NAV_FAILURE | NAV_PARSE_ERROR;
    case SPNG_EZLIB:
    case SPNG_EIDAT_STREAM:
        nav__report(ctx, 0, "damaged PNG: the compressed image data is corrupt");
        return NAV_FAILURE | NAV_PARSE_ERROR;
    case SPNG_ECHUNK_LIMITS:
        nav__report(ctx, 0, "an ancillary chunk is over the limit of %u bytes (%u in all)", PNG_CHUNK_LIMIT,
                    PNG_CACHE_LIMIT);
        return NAV_FAILURE | NAV_TOO_LARGE;
    default:
        break;
    }
    nav__report(ctx, 0, "damaged PNG: %s", spng_strerror(error));
    return NAV_FAILURE | NAV_PARSE_ERROR;
}

/* The signature and the IHDR chunk: what a PNG starts with. */
#define PNG_START_SIZE 33

/* Checks the start of the input (size bytes, of which head holds the first PNG_START_SIZE or all):
 * the PNG signature, so that anything else is told apart from a damaged PNG; and, when the first
 * chunk is IHDR, its CRC, which libspng checks only after it has handed out the header (so a
 * damaged size is reported as damage, not as an image too large). */
static nav_status check_start(const load_context *ctx, const unsigned char *head, uint64_t size)
{
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (size < 8) {
        nav__report(ctx, 0, "not a PNG image (%u bytes, shorter than the PNG signature)", (unsigned)size);
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    if (memcmp(head, signature, 8) != 0) {
        nav__report(ctx, 0, "not a PNG image (no PNG signature)");
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    static const unsigned char ihdr[8] = {0, 0, 0, 13, 'I', 'H', 'D', 'R'};
    if (size >= PNG_START_SIZE && memcmp(head + 8, ihdr, 8) == 0) {
        const unsigned char *p = head + 29;
        uint32_t stored = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
        if (nav_crc32(0, head + 12, 17) != stored) {
            nav__report(ctx, 0, "damaged PNG: a chunk's CRC does not match its bytes");
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
    }
    return NAV_SUCCESS;
}

/* Checks the header against the grid limits and the input's size, before anything is allocated. */
static nav_status check_header(const load_context *ctx, const struct spng_ihdr *ihdr, uint64_t input_size)
{
    uint64_t width = ihdr->width, height = ihdr->height;
    if (width > NAV_GRID_MAX_SIDE || height > NAV_GRID_MAX_SIDE || width * height > NAV_GRID_MAX_CELLS) {
        nav__report(ctx, 0, "%llu x %llu pixels is over the grid limit of %d a side and %u cells",
                    (unsigned long long)width, (unsigned long long)height, NAV_GRID_MAX_SIDE,
                    (unsigned)NAV_GRID_MAX_CELLS);
        return NAV_FAILURE | NAV_TOO_LARGE;
    }
    static const uint8_t channels_of_colour_type[7] = {1, 0, 3, 1, 2, 0, 4};
    uint64_t bits = (uint64_t)ihdr->bit_depth * channels_of_colour_type[ihdr->color_type % 7];
    uint64_t pixel_bytes = height * ((width * bits + 7) / 8); /* without the filter bytes */
    if (pixel_bytes > 1032 * input_size + 1024) {
        nav__report(ctx, 0, "%llu bytes cannot hold %llu x %llu pixels", (unsigned long long)input_size,
                    (unsigned long long)width, (unsigned long long)height);
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    return NAV_SUCCESS;
}

/* What a colour becomes. */
static nav_status cell_of(const load_context *ctx, const colour_entry *colours, uint32_t count,
                          bool unknown_is_blocked, uint32_t rgb, uint32_t x, uint32_t y, colour_entry *out)
{
    if (!colours) {
        *out = (colour_entry){rgb, rgb == 0 ? NAV_TERRAIN_BLOCKED : NAV_TERRAIN_PLAIN, 0};
        return NAV_SUCCESS;
    }
    const colour_entry *hit = find_colour(colours, count, rgb);
    if (hit) {
        *out = *hit;
        return NAV_SUCCESS;
    }
    if (unknown_is_blocked) {
        *out = (colour_entry){rgb, NAV_TERRAIN_BLOCKED, 0};
        return NAV_SUCCESS;
    }
    nav__report(ctx, 0, "pixel (%u, %u) has colour #%06x, which is not in the palette", x, y, rgb);
    return NAV_FAILURE | NAV_PARSE_ERROR;
}

/* The cells one decoded row sets: every step-th from x0 (a pass of an interlaced image sets a
 * subset; a plain image, x0 0 and step 1). */
typedef struct row_cells {
    uint32_t y, x0, step;
} row_cells;

/* Writes the pixels of one decoded row (RGB, 3 bytes a pixel) into their cells, and their
 * heights, making the height layer on first need. last caches the previous colour: masks come in
 * runs of one colour, and a run skips the palette search. */
static nav_status fill_row(const load_context *ctx, nav_grid *grid, const unsigned char *row, row_cells at,
                           const nav_png_desc *png, const colour_entry *colours, colour_entry *last)
{
    size_t base = (size_t)at.y * grid->width;
    for (uint32_t x = at.x0; x < grid->width; x += at.step) {
        const unsigned char *p = row + (size_t)x * 3;
        uint32_t rgb = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
        if (rgb != last->rgb) {
            nav_status s =
                cell_of(ctx, colours, png->palette_count, png->unknown_is_blocked, rgb, x, at.y, last);
            if (nav_failed(s)) return s;
        }
        grid->terrain[base + x] = last->type;
        if (last->height != 0) {
            if (!grid->heights && nav_failed(nav__grid_ensure_heights(grid))) {
                nav__report(ctx, 0, "out of memory");
                return NAV_FAILURE | NAV_OUT_OF_MEMORY;
            }
            grid->heights[base + x] = last->height;
        }
    }
    return NAV_SUCCESS;
}

/* Where the pixels of a row of an Adam7 pass start, and how far apart they are. */
static row_cells adam7_cells(int pass, uint32_t y)
{
    static const uint8_t x0[7] = {0, 4, 0, 2, 0, 1, 0}, step[7] = {8, 8, 4, 4, 2, 2, 1};
    return (row_cells){y, x0[pass], step[pass]};
}

/* Decodes the image into a new grid, row by row, then reads the chunks after the image data up to
 * IEND (so a damaged or missing tail is refused too). */
static nav_status decode(const load_context *ctx, spng_ctx *png, const png_file_source *source,
                         uint64_t input_size, const nav_png_desc *png_desc, const nav_grid_desc *options,
                         nav_grid **out)
{
    struct spng_ihdr ihdr;
    int error = spng_set_crc_action(png, SPNG_CRC_ERROR, SPNG_CRC_ERROR);
    if (!error) error = spng_set_chunk_limits(png, PNG_CHUNK_LIMIT, PNG_CACHE_LIMIT);
    if (!error) error = spng_get_ihdr(png, &ihdr);
    if (error) return decode_failure(ctx, source, error);
    nav_status s = check_header(ctx, &ihdr, input_size);
    if (nav_failed(s)) return s;

    nav_allocator allocator;
    nav__allocator_resolve(&allocator, options ? options->allocator : NULL);
    colour_entry *colours;
    double type_cost[NAV_TERRAIN_TYPES];
    int type_count;
    s = resolve_palette(ctx, png_desc, &allocator, &colours, type_cost, &type_count);
    if (nav_failed(s)) return s;
    size_t row_size = (size_t)ihdr.width * 3;
    unsigned char *row = nav__alloc(&allocator, row_size);
    nav_grid *grid = NULL;
    if (!row) {
        nav__report(ctx, 0, "out of memory");
        s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
    } else {
        nav_grid_desc desc = options ? *options : (nav_grid_desc){0};
        desc.width = (int32_t)ihdr.width;
        desc.height = (int32_t)ihdr.height;
        s = nav_grid_create(&desc, &grid);
        if (nav_failed(s)) nav__report(ctx, 0, "cannot create the grid: %s", nav_status_str(s));
    }
    /* the terrain costs were checked with the palette */
    for (int t = 2; t < type_count && nav_succeeded(s); t++)
        s = nav_grid_set_terrain_cost(grid, (uint8_t)t, type_cost[t]);

    if (nav_succeeded(s)) {
        error = spng_decode_image(png, NULL, 0, SPNG_FMT_RGB8, SPNG_DECODE_PROGRESSIVE);
        colour_entry last = {UINT32_MAX, 0, 0}; /* no colour: rgb has 24 bits */
        while (!error) {
            struct spng_row_info info;
            error = spng_get_row_info(png, &info);
            if (error) break;
            error = spng_decode_row(png, row, row_size);
            if (error && error != SPNG_EOI) break;
            row_cells at = ihdr.interlace_method ? adam7_cells(info.pass, info.row_num)
                                                 : (row_cells){info.row_num, 0, 1};
            s = fill_row(ctx, grid, row, at, png_desc, colours, &last);
            if (nav_failed(s)) break;
        }
        if (nav_succeeded(s)) {
            if (error == SPNG_EOI) error = spng_decode_chunks(png);
            if (error) s = decode_failure(ctx, source, error);
        }
    }
    nav__free(&allocator, row);
    nav__free(&allocator, colours);
    if (nav_failed(s)) { /* reported above */
        nav_grid_destroy(grid);
        return s;
    }
    return nav__finish_grid(ctx, grid, NAV_SUCCESS, "label reachability", out);
}

/* Checks the start (head: the first PNG_START_SIZE bytes, or all), then decodes from memory
 * (bytes) or from a file (source) with a decoder of its own. */
static nav_status run_decoder(const load_context *ctx, const unsigned char *head, uint64_t size,
                              const void *bytes, png_file_source *source, const nav_png_desc *png_desc,
                              const nav_grid_desc *options, nav_grid **out)
{
    nav_status s = check_start(ctx, head, size);
    if (nav_failed(s)) return s;
    spng_ctx *decoder = spng_ctx_new(0);
    if (!decoder) {
        nav__report(ctx, 0, "out of memory");
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    int error = source ? spng_set_png_stream(decoder, read_file, source)
                       : spng_set_png_buffer(decoder, bytes, (size_t)size);
    s = error ? decode_failure(ctx, source, error)
              : decode(ctx, decoder, source, size, png_desc, options, out);
    spng_ctx_free(decoder);
    return s;
}

nav_status nav_grid_load_png(const void *bytes, size_t size, const char *name, const nav_png_desc *png,
                             const nav_grid_desc *options, nav_grid **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    load_context ctx = {options ? options->log : NULL, name ? name : "<png>"};
    nav_png_desc png_desc = png ? *png : (nav_png_desc){0};
    if ((!bytes && size) || (png_desc.palette_count && !png_desc.palette)) {
        nav__report(&ctx, 0, "no bytes or no palette given");
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    return run_decoder(&ctx, bytes, size, bytes, NULL, &png_desc, options, out);
}

/* The file variant's work between opening the file and closing it. */
static nav_status load_file(const load_context *ctx, png_file_source *source, uint64_t size,
                            const nav_png_desc *png_desc, const nav_grid_desc *options, nav_grid **out)
{
    unsigned char head[PNG_START_SIZE];
    char why[NAV__WHY_SIZE];
    size_t start = size < PNG_START_SIZE ? (size_t)size : PNG_START_SIZE;
    if (nav_failed(nav__file_read(source->file, head, start, why))) {
        nav__report(ctx, 0, "cannot read the file: %s", why);
        return NAV_FAILURE | NAV_IO_ERROR;
    }
    rewind(source->file);
    return run_decoder(ctx, head, size, NULL, source, png_desc, options, out);
}

nav_status nav_grid_load_png_file(const char *path, const nav_png_desc *png, const nav_grid_desc *options,
                                  nav_grid **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!path) return NAV_FAILURE | NAV_INVALID_PARAM;
    load_context ctx = {options ? options->log : NULL, nav__base_name(path)};
    nav_png_desc png_desc = png ? *png : (nav_png_desc){0};
    if (png_desc.palette_count && !png_desc.palette) {
        nav__report(&ctx, 0, "no palette given");
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    png_file_source source = {NULL, false};
    uint64_t size;
    char why[NAV__WHY_SIZE];
    nav_status s = nav__file_open(path, &source.file, &size, why);
    if (nav_failed(s)) {
        nav__report(&ctx, 0, "cannot read '%s': %s", path, why);
        return s;
    }
    s = load_file(&ctx, &source, size, &png_desc, options, out);
    fclose(source.file);
    return s;
}
