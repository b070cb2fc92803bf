/* PNG masks: each pixel a cell (row 0 at the top), its colour looked up in a palette.
 *
 * The image is decoded from memory by stb_image (Debian's libstb-dev, or a vendored copy), built
 * into this file alone with STB_IMAGE_STATIC: its functions stay private to libnav, so a program
 * that links libnav and its own stb_image gets no clash of symbols or versions. Only the PNG
 * decoder is compiled in, without stdio (we read files ourselves, through the caller's allocator).
 *
 * Colours: RGB; grey images are widened to RGB and alpha is ignored (a mask is a picture of
 * terrain, not a composited image). With no palette, black 0x000000 is blocked and every other
 * colour plain. With one, each entry gives a colour its cost and height; the cells of one cost
 * share a terrain type (blocked 0, cost 1 type 1, other palette costs 2, 3, ... in increasing
 * order), and a colour missing from the palette is an error or blocked, as nav_png_desc says. */
#include "grid_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "text.h"

/* stb_image allocates with malloc/realloc/free and cannot be pointed at the caller's allocator:
 * its STBI_MALLOC hooks take no context pointer, and passing one through a global would break the
 * rule that libnav keeps no global mutable state. So the decoded pixels (width * height * 3 bytes
 * while the grid is filled) come from the system heap; everything libnav keeps uses the caller's.
 * No failure strings: stb keeps the last one in a (thread-local) global. No assert: libnav never
 * aborts, and a release build drops them anyway. */
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#define STBI_NO_FAILURE_STRINGS
#define STBI_ASSERT(x) ((void)0)
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wpedantic"
#endif
#if NAV_STB_PREFIXED
#include <stb/stb_image.h>
#else
#include <stb_image.h>
#endif
#if defined(__GNUC__)
#pragma GCC diagnostic pop
/* GCC reports stb's declared-but-unused static functions at the end of the file, outside the
 * push/pop above. */
#pragma GCC diagnostic ignored "-Wunused-function"
#endif

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
        if (e->rgb > 0xffffffu || !(e->cost > 0) || !isfinite(e->height)) {
            nav__report(
                ctx, 0,
                "palette entry %u (#%06x) needs a colour up to #ffffff, a cost > 0 and a finite height", i,
                e->rgb);
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

static uint32_t read_be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Walks the chunks before stb sees them, for what stb does not check:
 * - a chunk that runs past the end of the file: stb grows its image data buffer to the length an
 *   IDAT chunk claims (up to 2 GiB) before it finds the bytes missing;
 * - an empty first IDAT, which stb copies with memcpy(NULL, p, 0): undefined (sanitizers report
 *   it), and no encoder writes one;
 * - image data too short to hold the pixels the header claims. Deflate expands at most 1032:1, so
 *   such a file cannot decode; but stb would first allocate the claimed size (up to 1 GiB).
 * None of these can decode anyway, so no good file is refused. stbi_info has checked the header
 * (IHDR: first, 13 bytes, a valid depth and colour type) but reads past the end as zeros. */
static bool check_chunks(const load_context *ctx, const unsigned char *bytes, size_t size)
{
    static const uint8_t channels_of_colour_type[7] = {1, 0, 3, 1, 2, 0, 4};
    uint64_t data_bytes = 0;
    bool seen_data = false;
    size_t at = 8; /* past the signature */
    for (;;) {
        if (size < at || size - at < 12) {
            nav__report(ctx, 0, "the file ends inside a chunk, or before its IEND chunk");
            return false;
        }
        uint32_t length = read_be32(bytes + at);
        const unsigned char *type = bytes + at + 4;
        if (length > size - at - 12) {
            nav__report(ctx, 0, "chunk %zu bytes into the file claims %u bytes, past the end of the file", at,
                        length);
            return false;
        }
        if (memcmp(type, "IDAT", 4) == 0) {
            if (!seen_data && length == 0) {
                nav__report(ctx, 0, "the first image data chunk (IDAT) is empty");
                return false;
            }
            seen_data = true;
            data_bytes += length;
        }
        if (memcmp(type, "IEND", 4) == 0) break;
        at += 12 + (size_t)length;
    }
    uint64_t width = read_be32(bytes + 16), height = read_be32(bytes + 20);
    uint64_t bits = bytes[24] * (uint64_t)(bytes[25] < 7 ? channels_of_colour_type[bytes[25]] : 4);
    uint64_t pixel_bytes = height * ((width * bits + 7) / 8); /* without the filter bytes */
    if (pixel_bytes > 1032 * data_bytes + 1024) {
        nav__report(ctx, 0, "%llu bytes of image data cannot hold %llu x %llu pixels",
                    (unsigned long long)data_bytes, (unsigned long long)width, (unsigned long long)height);
        return false;
    }
    return true;
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

/* Writes each pixel's terrain (and height, making the layer on first need) into the grid. */
static nav_status fill_cells(const load_context *ctx, nav_grid *grid, const unsigned char *pixels,
                             const colour_entry *colours, uint32_t count, bool unknown_is_blocked)
{
    const colour_entry *hit = NULL;
    uint32_t hit_rgb = UINT32_MAX; /* no colour: rgb has 24 bits */
    for (uint32_t cell = 0; cell < grid->cells; cell++) {
        const unsigned char *p = pixels + (size_t)cell * 3;
        uint32_t rgb = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
        uint8_t type;
        float height = 0;
        if (!colours) {
            type = rgb == 0 ? NAV_TERRAIN_BLOCKED : NAV_TERRAIN_PLAIN;
        } else {
            if (rgb != hit_rgb) { /* masks come in runs of one colour: skip the search */
                hit = find_colour(colours, count, rgb);
                hit_rgb = rgb;
            }
            if (hit) {
                type = hit->type;
                height = hit->height;
            } else if (unknown_is_blocked) {
                type = NAV_TERRAIN_BLOCKED;
            } else {
                nav__report(ctx, 0, "pixel (%u, %u) has colour #%06x, which is not in the palette",
                            cell % grid->width, cell / grid->width, rgb);
                return NAV_FAILURE | NAV_PARSE_ERROR;
            }
        }
        grid->terrain[cell] = type;
        if (height != 0) {
            if (!grid->heights && nav_failed(nav__grid_ensure_heights(grid))) {
                nav__report(ctx, 0, "out of memory");
                return NAV_FAILURE | NAV_OUT_OF_MEMORY;
            }
            grid->heights[cell] = height;
        }
    }
    return NAV_SUCCESS;
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
    if (size > INT_MAX) { /* stb_image takes an int length */
        nav__report(&ctx, 0, "%zu bytes is over the limit of %d", size, INT_MAX);
        return NAV_FAILURE | NAV_TOO_LARGE;
    }
    int width, height, channels;
    /* The header alone first: a lying or huge image fails before anything is decoded. */
    if (!bytes || !stbi_info_from_memory(bytes, (int)size, &width, &height, &channels)) {
        nav__report(&ctx, 0, "not a PNG image, or a damaged one");
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    if (width > NAV_GRID_MAX_SIDE || height > NAV_GRID_MAX_SIDE ||
        (uint64_t)width * (uint64_t)height > NAV_GRID_MAX_CELLS) {
        nav__report(&ctx, 0, "%d x %d pixels is over the grid limit of %d per side", width, height,
                    NAV_GRID_MAX_SIDE);
        return NAV_FAILURE | NAV_TOO_LARGE;
    }
    if (!check_chunks(&ctx, bytes, size)) return NAV_FAILURE | NAV_PARSE_ERROR;

    nav_allocator allocator;
    nav__allocator_resolve(&allocator, options ? options->allocator : NULL);
    colour_entry *colours;
    double type_cost[NAV_TERRAIN_TYPES];
    int type_count;
    nav_status s = resolve_palette(&ctx, &png_desc, &allocator, &colours, type_cost, &type_count);
    if (nav_failed(s)) return s;

    unsigned char *pixels = stbi_load_from_memory(bytes, (int)size, &width, &height, &channels, 3);
    if (!pixels) {
        /* stb cannot tell us why without its global failure string. */
        nav__report(&ctx, 0, "cannot decode the PNG (damaged data, or no memory for the pixels)");
        nav__free(&allocator, colours);
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    nav_grid_desc desc = options ? *options : (nav_grid_desc){0};
    desc.width = width;
    desc.height = height;
    nav_grid *grid = NULL;
    s = nav_grid_create(&desc, &grid);
    if (nav_failed(s)) nav__report(&ctx, 0, "cannot create the grid: %s", nav_status_str(s));
    for (int t = 2; t < type_count && nav_succeeded(s); t++)
        s = nav_grid_set_terrain_cost(grid, (uint8_t)t, type_cost[t]);
    if (nav_succeeded(s))
        s = fill_cells(&ctx, grid, pixels, colours, png_desc.palette_count, png_desc.unknown_is_blocked);
    stbi_image_free(pixels);
    nav__free(&allocator, colours);
    if (nav_failed(s)) { /* reported above (the terrain costs were checked with the palette) */
        nav_grid_destroy(grid);
        return s;
    }
    return nav__finish_grid(&ctx, grid, NAV_SUCCESS, "label reachability", out);
}

nav_status nav_grid_load_png_file(const char *path, const nav_png_desc *png, const nav_grid_desc *options,
                                  nav_grid **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    loaded_file file;
    nav_status s =
        nav__read_file(path, options ? options->allocator : NULL, options ? options->log : NULL, &file);
    if (nav_failed(s)) return s;
    s = nav_grid_load_png(file.bytes, file.size, file.name, png, options, out);
    nav__free_file(&file);
    return s;
}
