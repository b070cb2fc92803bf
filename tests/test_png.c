/* PNG masks: the default palette and a given one; every PNG format, plain and Adam7-interlaced,
 * written by an encoder here (zlib and the PNG specification, not the decoder under test); bad,
 * damaged and oversized images; files. */
#define _GNU_SOURCE /* memmem */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"

#include <zlib.h>

#include "nav/grid.h"

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#if NAV_STB_PREFIXED
#include <stb/stb_image_write.h>
#else
#include <stb_image_write.h>
#endif

/* ---- PNG --------------------------------------------------------------------------------------- */

typedef struct png_buffer {
    unsigned char *data;
    size_t size;
} png_buffer;

static void append_png(void *context, void *data, int size)
{
    png_buffer *b = context;
    b->data = realloc(b->data, b->size + (size_t)size);
    assert_non_null(b->data);
    memcpy(b->data + b->size, data, (size_t)size);
    b->size += (size_t)size;
}

/* A PNG of w x h pixels of comp channels, in memory (free its data). */
static png_buffer make_png(int w, int h, int comp, const unsigned char *pixels)
{
    png_buffer b = {0};
    assert_true(stbi_write_png_to_func(append_png, &b, w, h, comp, pixels, w * comp) != 0);
    return b;
}

/* A PNG of 0xRRGGBB pixels. */
static png_buffer make_rgb_png(int w, int h, const uint32_t *rgb)
{
    unsigned char *pixels = malloc((size_t)w * (size_t)h * 3);
    assert_non_null(pixels);
    for (int i = 0; i < w * h; i++) {
        pixels[3 * i] = (unsigned char)(rgb[i] >> 16);
        pixels[3 * i + 1] = (unsigned char)(rgb[i] >> 8);
        pixels[3 * i + 2] = (unsigned char)rgb[i];
    }
    png_buffer b = make_png(w, h, 3, pixels);
    free(pixels);
    return b;
}

static nav_status load_png(png_buffer b, const nav_png_desc *png, test_log *log, nav_grid **grid)
{
    test_log_init(log);
    return nav_grid_load_png(b.data, b.size, "p.png", png, &(nav_grid_desc){.log = &log->hooks}, grid);
}

static void test_png_default_palette(void **state)
{
    (void)state;
    const uint32_t rgb[] = {0x000000, 0xffffff, 0xff0000, 0x010101, 0x000000, 0x0000ff};
    png_buffer b = make_rgb_png(3, 2, rgb);
    test_log log;
    nav_grid *grid = NULL;
    assert_int_equal(load_png(b, NULL, &log, &grid), NAV_SUCCESS);
    assert_int_equal(nav_grid_width(grid), 3);
    assert_int_equal(nav_grid_height(grid), 2);
    const uint8_t expect[] = {0, 1, 1, 1, 0, 1};
    for (int i = 0; i < 6; i++) assert_int_equal(nav_grid_cell(grid, i % 3, i / 3), expect[i]);
    assert_true(nav_grid_has_reachability(grid));
    /* (1, 0): E and SE ((2, 1): corners (2, 0) free, (1, 1) black: refused), W black. */
    assert_int_equal(nav_grid_moves(grid, 1, 0), 1u << NAV_DIR_E);
    nav_grid_destroy(grid);
    /* An empty palette is no palette. */
    assert_int_equal(load_png(b, &(nav_png_desc){.palette_count = 0}, &log, &grid), NAV_SUCCESS);
    assert_int_equal(nav_grid_cell(grid, 0, 0), NAV_TERRAIN_BLOCKED);
    nav_grid_destroy(grid);
    free(b.data);

    /* Grey and grey + alpha images are read as RGB; alpha is ignored. */
    const unsigned char grey[] = {0, 255, 128, 0};
    b = make_png(2, 2, 1, grey);
    assert_int_equal(load_png(b, NULL, &log, &grid), NAV_SUCCESS);
    assert_false(nav_grid_passable(grid, 0, 0));
    assert_true(nav_grid_passable(grid, 1, 0));
    assert_true(nav_grid_passable(grid, 0, 1));
    assert_false(nav_grid_passable(grid, 1, 1));
    nav_grid_destroy(grid);
    free(b.data);
    const unsigned char rgba[] = {0, 0, 0, 0, 200, 10, 10, 0, 0, 0, 0, 255, 255, 255, 255, 255};
    b = make_png(2, 2, 4, rgba);
    const nav_palette_entry red = {0xc80a0a, 3, 0};
    assert_int_equal(load_png(b, &(nav_png_desc){&red, 1, true}, &log, &grid), NAV_SUCCESS);
    assert_true(nav_grid_cell_cost(grid, 1, 0) == 3.0);
    assert_false(nav_grid_passable(grid, 0, 0));
    assert_false(nav_grid_passable(grid, 1, 1)); /* white: not in the palette, so blocked */
    nav_grid_destroy(grid);
    free(b.data);
}

static const nav_palette_entry test_palette[] = {
    {0xffffff, 1, 0}, {0xff0000, 5, 2}, {0x00ff00, 2, 0}, {0x0000ff, NAV_COST_BLOCKED, 0}, {0x808080, 5, -1},
};

static void test_png_palette(void **state)
{
    (void)state;
    const uint32_t rgb[] = {0xffffff, 0xff0000, 0x00ff00, 0x0000ff, 0x808080, 0xffffff, 0xffffff, 0xff0000};
    png_buffer b = make_rgb_png(4, 2, rgb);
    nav_png_desc png = {test_palette, 5, false};
    test_log log;
    nav_grid *grid = NULL;
    assert_int_equal(load_png(b, &png, &log, &grid), NAV_SUCCESS);
    assert_int_equal(log.count, 0);
    /* Costs besides 1: 2 (green) is type 2, 5 (red and grey) type 3. */
    const uint8_t types[] = {1, 3, 2, 0, 3, 1, 1, 3};
    const float heights[] = {0, 2, 0, 0, -1, 0, 0, 2};
    for (int i = 0; i < 8; i++) {
        assert_int_equal(nav_grid_cell(grid, i % 4, i / 4), types[i]);
        assert_true(nav_grid_cell_height(grid, i % 4, i / 4) == heights[i]);
    }
    assert_true(nav_grid_cell_cost(grid, 1, 0) == 5.0);
    assert_true(nav_grid_cell_cost(grid, 2, 0) == 2.0);
    assert_true(nav_grid_move_cost(grid, 0, 0, NAV_DIR_E) == 5.0);
    nav_grid_destroy(grid);
    free(b.data);

    /* A colour the palette lacks: an error naming the first such pixel, or blocked. */
    const uint32_t odd[] = {0xffffff, 0xffffff, 0x123456, 0xabcdef};
    b = make_rgb_png(2, 2, odd);
    assert_int_equal(load_png(b, &png, &log, &grid), NAV_FAILURE | NAV_PARSE_ERROR);
    assert_string_equal(log.last, "p.png: pixel (0, 1) has colour #123456, which is not in the palette");
    assert_null(grid);
    png.unknown_is_blocked = true;
    assert_int_equal(load_png(b, &png, &log, &grid), NAV_SUCCESS);
    assert_false(nav_grid_passable(grid, 0, 1));
    assert_false(nav_grid_passable(grid, 1, 1));
    assert_true(nav_grid_passable(grid, 1, 0));
    nav_grid_destroy(grid);
    free(b.data);
}

static void test_png_bad_input(void **state)
{
    (void)state;
    const uint32_t rgb[] = {0xffffff, 0xff0000, 0, 0xffffff};
    png_buffer b = make_rgb_png(2, 2, rgb);
    test_log log;
    nav_grid *grid = (nav_grid *)1;

    nav_png_desc png = {NULL, 2, false};
    assert_int_equal(load_png(b, &png, &log, &grid), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_null(grid);
    const nav_palette_entry twice[] = {{0xff0000, 1, 0}, {0xffffff, 2, 0}, {0xff0000, 3, 0}};
    assert_int_equal(load_png(b, &(nav_png_desc){twice, 3, false}, &log, &grid),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    assert_string_equal(log.last, "p.png: colour #ff0000 is in the palette twice");
    const nav_palette_entry free_cost[] = {{0xff0000, 0, 0}};
    assert_int_equal(load_png(b, &(nav_png_desc){free_cost, 1, false}, &log, &grid),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    assert_string_equal(log.last, "p.png: palette entry 0 (#ff0000) needs a colour up to #ffffff, a cost "
                                  "from 1/1024 to 4096 or blocked, "
                                  "and a finite height");
    /* Costs outside NAV_COST_MIN..NAV_COST_MAX are refused like a zero one; the bounds load. */
    const double bad_costs[] = {1e308, 1.0 / 2048, 4096.0001, -1, NAN, 5e-324};
    for (size_t i = 0; i < sizeof bad_costs / sizeof bad_costs[0]; i++) {
        const nav_palette_entry bad = {0xff0000, bad_costs[i], 0};
        assert_int_equal(load_png(b, &(nav_png_desc){&bad, 1, false}, &log, &grid),
                         NAV_FAILURE | NAV_INVALID_PARAM);
        assert_null(grid);
    }
    const nav_palette_entry bounds[] = {{0xff0000, NAV_COST_MIN, 0}, {0xffffff, NAV_COST_MAX, 0}};
    assert_int_equal(load_png(b, &(nav_png_desc){bounds, 2, true}, &log, &grid), NAV_SUCCESS);
    assert_true(nav_grid_cell_cost(grid, 1, 0) == NAV_COST_MIN);
    assert_true(nav_grid_cell_cost(grid, 0, 0) == NAV_COST_MAX);
    nav_grid_destroy(grid);
    const nav_palette_entry no_colour[] = {{0x1000000, 1, 0}};
    assert_int_equal(load_png(b, &(nav_png_desc){no_colour, 1, false}, &log, &grid),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    nav_palette_entry many[300];
    for (int i = 0; i < 300; i++) many[i] = (nav_palette_entry){(uint32_t)i, 2 + i, 0};
    assert_int_equal(load_png(b, &(nav_png_desc){many, 300, true}, &log, &grid), NAV_FAILURE | NAV_TOO_LARGE);
    assert_string_equal(log.last, "p.png: the palette has more than 254 distinct costs besides 1");
    assert_int_equal(load_png(b, &(nav_png_desc){many, 254, true}, &log, &grid), NAV_SUCCESS);
    nav_grid_destroy(grid);

    assert_int_equal(nav_grid_load_png(NULL, 3, "p.png", NULL, NULL, &grid), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_grid_load_png(b.data, b.size, "p.png", NULL, NULL, NULL),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_grid_load_png(NULL, 0, "p.png", NULL, NULL, &grid), NAV_FAILURE | NAV_PARSE_ERROR);
    assert_int_equal(load_png((png_buffer){(unsigned char *)"GIF89a", 6}, NULL, &log, &grid),
                     NAV_FAILURE | NAV_PARSE_ERROR);
    assert_string_equal(log.last, "p.png: not a PNG image (6 bytes, shorter than the PNG signature)");
    assert_int_equal(load_png((png_buffer){(unsigned char *)"GIF89a-and-more-bytes", 21}, NULL, &log, &grid),
                     NAV_FAILURE | NAV_PARSE_ERROR);
    assert_string_equal(log.last, "p.png: not a PNG image (no PNG signature)");
    free(b.data);

    /* Wider than a grid may be: refused from the header, before decoding. */
    unsigned char *wide = calloc(32769, 1);
    assert_non_null(wide);
    b = make_png(32769, 1, 1, wide);
    assert_int_equal(load_png(b, NULL, &log, &grid), NAV_FAILURE | NAV_TOO_LARGE);
    assert_string_equal(
        log.last, "p.png: 32769 x 1 pixels is over the grid limit of 32768 a side and 1073741824 cells");
    free(b.data);
    b = make_png(1, 32769, 1, wide);
    assert_int_equal(load_png(b, NULL, &log, &grid), NAV_FAILURE | NAV_TOO_LARGE);
    free(b.data);
    free(wide);
}

/* ---- A PNG encoder of our own ----------------------------------------------------------------- */

/* Writes any PNG the specification allows (every colour type and depth, Adam7 or not) from a
 * function giving each sample, so the decoder is checked against the specification rather than
 * against itself. Image data is deflated by zlib and cut into IDAT chunks of at most 64 KiB. */
typedef struct png_spec {
    uint32_t width, height;
    uint8_t depth, colour_type, interlace;
    /* sample c (0 .. channels - 1) of pixel (x, y), at the given depth (a palette index for colour
     * type 3) */
    uint32_t (*sample)(const struct png_spec *spec, uint32_t x, uint32_t y, int c);
    const uint32_t *plte; /* colour type 3: 0xRRGGBB entries */
    uint32_t plte_count;
    const char *text_before, *text_after; /* [opt] a tEXt chunk before / after the image data */
    size_t iccp_size;                     /* > 0: an iCCP chunk whose profile inflates to this many bytes */
    uint32_t seed;
} png_spec;

static int channels_of(uint8_t colour_type)
{
    return colour_type == 0 || colour_type == 3 ? 1 : colour_type == 2 ? 3 : colour_type == 4 ? 2 : 4;
}

static void put_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static void write_chunk(FILE *f, const char *type, const unsigned char *data, uint32_t size)
{
    unsigned char word[4];
    put_be32(word, size);
    assert_int_equal(fwrite(word, 1, 4, f), 4);
    assert_int_equal(fwrite(type, 1, 4, f), 4);
    if (size) assert_int_equal(fwrite(data, 1, size, f), size);
    uLong crc = crc32(0, (const Bytef *)type, 4);
    if (size) crc = crc32(crc, data, size); /* crc32 of a null buffer is its initial value, 0 */
    put_be32(word, (uint32_t)crc);
    assert_int_equal(fwrite(word, 1, 4, f), 4);
}

/* Deflates bytes into IDAT chunks (flush at the end). */
typedef struct idat_writer {
    FILE *file;
    z_stream z;
    unsigned char out[65536];
} idat_writer;

static void idat_write(idat_writer *w, const unsigned char *bytes, size_t size, int flush)
{
    w->z.next_in = (Bytef *)bytes;
    w->z.avail_in = (uInt)size;
    for (;;) {
        int r = deflate(&w->z, flush);
        assert_true(r == Z_OK || r == Z_STREAM_END || r == Z_BUF_ERROR);
        if (w->z.avail_out == 0 || (flush == Z_FINISH && w->z.avail_out < sizeof w->out)) {
            write_chunk(w->file, "IDAT", w->out, (uint32_t)(sizeof w->out - w->z.avail_out));
            w->z.next_out = w->out;
            w->z.avail_out = sizeof w->out;
        }
        if (flush == Z_FINISH ? r == Z_STREAM_END : w->z.avail_in == 0 && w->z.avail_out > 0) break;
    }
}

static void write_text(FILE *f, const char *text)
{
    size_t n = strlen(text);
    unsigned char *data = malloc(8 + n);
    assert_non_null(data);
    memcpy(data, "Comment", 8); /* keyword, NUL */
    memcpy(data + 8, text, n);
    write_chunk(f, "tEXt", data, (uint32_t)(8 + n));
    free(data);
}

static const uint8_t adam7_x0[7] = {0, 4, 0, 2, 0, 1, 0}, adam7_y0[7] = {0, 0, 4, 0, 2, 0, 1};
static const uint8_t adam7_dx[7] = {8, 8, 4, 4, 2, 2, 1}, adam7_dy[7] = {8, 8, 8, 4, 4, 2, 2};

static void encode_png(FILE *f, const png_spec *spec)
{
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    assert_int_equal(fwrite(signature, 1, 8, f), 8);
    unsigned char ihdr[13];
    put_be32(ihdr, spec->width);
    put_be32(ihdr + 4, spec->height);
    ihdr[8] = spec->depth;
    ihdr[9] = spec->colour_type;
    ihdr[10] = ihdr[11] = 0;
    ihdr[12] = spec->interlace;
    write_chunk(f, "IHDR", ihdr, 13);
    if (spec->text_before) write_text(f, spec->text_before);
    if (spec->iccp_size) {
        unsigned char *profile = calloc(spec->iccp_size, 1);
        uLongf packed = compressBound((uLong)spec->iccp_size);
        unsigned char *data = malloc(5 + packed);
        assert_true(profile && data);
        memcpy(data, "icc\0\0", 5); /* name, NUL, compression method 0 */
        assert_int_equal(compress2(data + 5, &packed, profile, (uLong)spec->iccp_size, 9), Z_OK);
        write_chunk(f, "iCCP", data, (uint32_t)(5 + packed));
        free(profile);
        free(data);
    }
    if (spec->colour_type == 3) {
        unsigned char plte[768];
        for (uint32_t i = 0; i < spec->plte_count; i++) {
            plte[3 * i] = (unsigned char)(spec->plte[i] >> 16);
            plte[3 * i + 1] = (unsigned char)(spec->plte[i] >> 8);
            plte[3 * i + 2] = (unsigned char)spec->plte[i];
        }
        write_chunk(f, "PLTE", plte, 3 * spec->plte_count);
    }
    idat_writer *w = calloc(1, sizeof *w);
    assert_non_null(w);
    w->file = f;
    assert_int_equal(deflateInit(&w->z, 6), Z_OK);
    w->z.next_out = w->out;
    w->z.avail_out = sizeof w->out;
    int channels = channels_of(spec->colour_type);
    size_t row_bytes = ((size_t)spec->width * (size_t)channels * spec->depth + 7) / 8;
    unsigned char *row = malloc(1 + row_bytes);
    assert_non_null(row);
    for (int pass = 0; pass < (spec->interlace ? 7 : 1); pass++) {
        uint32_t x0 = spec->interlace ? adam7_x0[pass] : 0, dx = spec->interlace ? adam7_dx[pass] : 1;
        uint32_t y0 = spec->interlace ? adam7_y0[pass] : 0, dy = spec->interlace ? adam7_dy[pass] : 1;
        if (x0 >= spec->width || y0 >= spec->height) continue; /* an empty pass has no bytes at all */
        for (uint32_t y = y0; y < spec->height; y += dy) {
            memset(row, 0, 1 + row_bytes); /* filter type 0 */
            size_t bit = 8;
            for (uint32_t x = x0; x < spec->width; x += dx)
                for (int c = 0; c < channels; c++) {
                    uint32_t v = spec->sample(spec, x, y, c);
                    if (spec->depth == 16) {
                        row[bit / 8] = (unsigned char)(v >> 8);
                        row[bit / 8 + 1] = (unsigned char)v;
                    } else {
                        row[bit / 8] |= (unsigned char)(v << (8 - spec->depth - bit % 8));
                    }
                    bit += spec->depth;
                }
            idat_write(w, row, (bit + 7) / 8, Z_NO_FLUSH);
        }
    }
    idat_write(w, NULL, 0, Z_FINISH);
    deflateEnd(&w->z);
    free(w);
    free(row);
    if (spec->text_after) write_text(f, spec->text_after);
    write_chunk(f, "IEND", NULL, 0);
}

static png_buffer encode_png_memory(const png_spec *spec)
{
    png_buffer b = {0};
    FILE *f = open_memstream((char **)&b.data, &b.size);
    assert_non_null(f);
    encode_png(f, spec);
    assert_int_equal(fclose(f), 0);
    return b;
}

static uint32_t mix(uint32_t x, uint32_t y, uint32_t c, uint32_t seed)
{
    uint32_t h = x * 0x9e3779b1u ^ y * 0x85ebca77u ^ c * 0xc2b2ae3du ^ seed;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    return h ^ h >> 13;
}

/* Samples from a few levels a channel (so a palette can name every colour), in runs along x. */
static uint32_t pattern_sample(const png_spec *spec, uint32_t x, uint32_t y, int c)
{
    uint32_t h = mix(x / 3, y, (uint32_t)c, spec->seed);
    if (spec->colour_type == 3) return h % spec->plte_count;
    if ((spec->colour_type == 4 && c == 1) || (spec->colour_type == 6 && c == 3))
        return h & ((1u << spec->depth) - 1); /* alpha: anything, ignored */
    static const uint32_t levels8[] = {0, 1, 0x7f, 0xfe, 0xff};
    switch (spec->depth) {
    case 1:
        return h % 2;
    case 2:
        return h % 4;
    case 4:
        return h % 16;
    case 8:
        return levels8[h % 5];
    default:
        return levels8[h % 5] * 0x101; /* 16 bits: b * 257, whose high byte is b */
    }
}

/* The 0xRRGGBB the specification says a pixel has, in 8 bits a channel: low depths scaled to
 * 0..255, 16 bits cut to their high byte, alpha dropped. */
static uint32_t expected_rgb(const png_spec *spec, uint32_t x, uint32_t y)
{
    if (spec->colour_type == 3) return spec->plte[spec->sample(spec, x, y, 0)];
    uint32_t max = (1u << spec->depth) - 1, rgb = 0;
    bool grey = spec->colour_type == 0 || spec->colour_type == 4;
    for (int c = 0; c < 3; c++) {
        uint32_t v = spec->sample(spec, x, y, grey ? 0 : c);
        uint32_t v8 = spec->depth == 16 ? v >> 8 : spec->depth == 8 ? v : v * 255 / max;
        rgb = rgb << 8 | v8;
    }
    return rgb;
}

/* Loads the image with a palette giving each expected colour its own height (its index + 1), then
 * checks every cell's height names the colour the specification says. */
static void check_decodes(const png_spec *spec, nav_grid **out)
{
    uint32_t colours[256], count = 0;
    for (uint32_t y = 0; y < spec->height; y++)
        for (uint32_t x = 0; x < spec->width; x++) {
            uint32_t rgb = expected_rgb(spec, x, y), i = 0;
            while (i < count && colours[i] != rgb) i++;
            if (i == count) {
                assert_true(count < 256);
                colours[count++] = rgb;
            }
        }
    nav_palette_entry palette[256];
    for (uint32_t i = 0; i < count; i++) palette[i] = (nav_palette_entry){colours[i], 1, (float)(i + 1)};
    png_buffer b = encode_png_memory(spec);
    test_log log;
    nav_grid *grid = NULL;
    nav_status s = load_png(b, &(nav_png_desc){palette, count, false}, &log, &grid);
    if (s != NAV_SUCCESS)
        fail_msg("depth %u colour type %u interlace %u %ux%u: %s", spec->depth, spec->colour_type,
                 spec->interlace, spec->width, spec->height, log.last);
    assert_int_equal(nav_grid_width(grid), spec->width);
    assert_int_equal(nav_grid_height(grid), spec->height);
    for (uint32_t y = 0; y < spec->height; y++)
        for (uint32_t x = 0; x < spec->width; x++) {
            float h = nav_grid_cell_height(grid, (int32_t)x, (int32_t)y);
            uint32_t rgb = expected_rgb(spec, x, y);
            if (colours[(uint32_t)h - 1] != rgb)
                fail_msg("depth %u colour type %u interlace %u: pixel (%u, %u) is #%06x, expected #%06x",
                         spec->depth, spec->colour_type, spec->interlace, x, y, colours[(uint32_t)h - 1],
                         rgb);
        }
    free(b.data);
    if (out)
        *out = grid;
    else
        nav_grid_destroy(grid);
}

/* Every colour type at every depth it allows, plain and interlaced, at sizes that leave some
 * Adam7 passes empty or partial: each cell gets the colour the specification gives its pixel. */
static void test_png_formats(void **state)
{
    (void)state;
    static const struct {
        uint8_t colour_type, depth;
    } formats[] = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {2, 8}, {2, 16}, {3, 1},
                   {3, 2}, {3, 4}, {3, 8}, {4, 8}, {4, 16}, {6, 8}, {6, 16}};
    static const uint32_t sizes[][2] = {{1, 1}, {2, 3}, {5, 1}, {1, 9}, {13, 11}, {67, 29}};
    static const uint32_t plte[] = {0x000000, 0xffffff, 0xff0000, 0x00ff00, 0x123456, 0xabcdef, 0x7f7f7f};
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++)
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            png_spec spec = {sizes[z][0],
                             sizes[z][1],
                             formats[f].depth,
                             formats[f].colour_type,
                             0,
                             pattern_sample,
                             plte,
                             0,
                             NULL,
                             NULL,
                             0,
                             (uint32_t)(f * 31 + z)};
            spec.plte_count = formats[f].depth == 1 ? 2 : formats[f].depth == 2 ? 4 : 7;
            nav_grid *plain, *interlaced;
            check_decodes(&spec, &plain);
            spec.interlace = 1;
            check_decodes(&spec, &interlaced);
            /* The same pixels, so the same grid, cell for cell and height for height. */
            assert_true(nav_grid_fingerprint(plain) == nav_grid_fingerprint(interlaced));
            nav_grid_destroy(plain);
            nav_grid_destroy(interlaced);
        }
}

static nav_status load_png_text(const char *text, size_t size, const char *name, const nav_grid_desc *options,
                                nav_grid **out)
{
    return nav_grid_load_png(text, size, name, NULL, options, out);
}

/* The offset of the first chunk of a type (at its length field). */
static size_t chunk_at(png_buffer b, const char *type)
{
    unsigned char *p = memmem(b.data, b.size, type, 4);
    assert_non_null(p);
    return (size_t)(p - 4 - b.data);
}

static void test_png_damaged(void **state)
{
    (void)state;
    uint32_t rgb[12 * 10];
    for (int i = 0; i < 12 * 10; i++) rgb[i] = (uint32_t)(i * 2654435761u) & 0xffffff;
    png_buffer b = make_rgb_png(12, 10, rgb);
    int loaded = test_load_prefixes(load_png_text, (const char *)b.data, b.size, b.size);
    /* Only the whole file, and the file without some of the last 4 bytes (IEND's CRC, which
     * libspng does not read past the end of the input; IEND has no data to damage): any other
     * cut loses image data or IEND. */
    assert_int_equal(loaded, 5);
    test_load_damaged(load_png_text, (const char *)b.data, b.size, 1);
    /* Every byte is covered by a CRC (or is the signature, or a length that then misplaces one):
     * changing any one of them is refused. */
    unsigned char *copy = malloc(b.size);
    assert_non_null(copy);
    for (size_t i = 0; i < b.size; i++) {
        memcpy(copy, b.data, b.size);
        copy[i] ^= 0x10;
        nav_grid *grid = (nav_grid *)1;
        FAILS_WITH(nav_grid_load_png(copy, b.size, "p.png", NULL, NULL, &grid), NAV_PARSE_ERROR);
        assert_null(grid);
    }
    free(copy);

    /* A damaged CRC on each chunk, critical or ancillary, before or after the image data. */
    static const uint32_t plte[] = {0x000000, 0xffffff, 0xff0000, 0x00ff00};
    png_spec spec = {9, 7, 2, 3, 1, pattern_sample, plte, 4, "before", "after", 0, 5};
    test_log log;
    nav_grid *grid = (nav_grid *)1;
    png_buffer whole = encode_png_memory(&spec);
    assert_int_equal(load_png(whole, NULL, &log, &grid), NAV_SUCCESS);
    nav_grid_destroy(grid);
    static const char *types[] = {"IHDR", "PLTE", "IDAT", "IEND", "tEXt"};
    for (int t = 0; t < 6; t++) {
        size_t at = t < 5
                        ? chunk_at(whole, types[t])
                        : (size_t)((unsigned char *)memmem(whole.data, whole.size, "tEXtComment\0after", 17) -
                                   4 - whole.data);
        uint32_t length = (uint32_t)whole.data[at] << 24 | (uint32_t)whole.data[at + 1] << 16 |
                          (uint32_t)whole.data[at + 2] << 8 | whole.data[at + 3];
        whole.data[at + 8 + length + 3] ^= 1;
        assert_int_equal(load_png(whole, NULL, &log, &grid), NAV_FAILURE | NAV_PARSE_ERROR);
        assert_null(grid);
        assert_string_equal(log.last, "p.png: damaged PNG: a chunk's CRC does not match its bytes");
        whole.data[at + 8 + length + 3] ^= 1;
    }
    /* Cut before IEND, or inside the image data: refused as truncated. */
    png_buffer cut = {whole.data, chunk_at(whole, "IEND")};
    assert_int_equal(load_png(cut, NULL, &log, &grid), NAV_FAILURE | NAV_PARSE_ERROR);
    assert_string_equal(log.last, "p.png: the PNG ends early (truncated)");
    cut.size = chunk_at(whole, "IDAT") + 20;
    assert_int_equal(load_png(cut, NULL, &log, &grid), NAV_FAILURE | NAV_PARSE_ERROR);
    free(whole.data);

    /* A sound header over damaged image data (CRC repaired): the decoder refuses the stream. */
    size_t at = chunk_at(b, "IDAT");
    memset(b.data + at + 8, 0xff, 8);
    uint32_t length = (uint32_t)b.data[at] << 24 | (uint32_t)b.data[at + 1] << 16 |
                      (uint32_t)b.data[at + 2] << 8 | b.data[at + 3];
    put_be32(b.data + at + 8 + length, (uint32_t)crc32(0, b.data + at + 4, length + 4));
    assert_int_equal(load_png(b, NULL, &log, &grid), NAV_FAILURE | NAV_PARSE_ERROR);
    assert_null(grid);
    /* The signature alone, and a file cut inside its header. */
    b.size = 8;
    assert_int_equal(load_png(b, NULL, &log, &grid), NAV_FAILURE | NAV_PARSE_ERROR);
    assert_string_equal(log.last, "p.png: the PNG ends early (truncated)");
    b.size = 20;
    assert_int_equal(load_png(b, NULL, &log, &grid), NAV_FAILURE | NAV_PARSE_ERROR);
    free(b.data);
}

/* A header's claims are checked before anything is allocated: over the grid limits,
 * NAV_TOO_LARGE naming the image's size and the limits; more pixels than the input's bytes can
 * inflate to, NAV_PARSE_ERROR. */
static void test_png_limits(void **state)
{
    (void)state;
    static const uint32_t plte[] = {0x000000, 0xffffff};
    png_spec spec = {4, 4, 8, 0, 0, pattern_sample, plte, 2, NULL, NULL, 0, 1};
    png_buffer b = encode_png_memory(&spec);
    static const struct {
        uint32_t w, h;
        nav_status status;
        const char *message;
    } claims[] = {
        {100000, 100000, NAV_FAILURE | NAV_TOO_LARGE,
         "p.png: 100000 x 100000 pixels is over the grid limit of 32768 a side and 1073741824 cells"},
        {32769, 1, NAV_FAILURE | NAV_TOO_LARGE,
         "p.png: 32769 x 1 pixels is over the grid limit of 32768 a side and 1073741824 cells"},
        {1, 32769, NAV_FAILURE | NAV_TOO_LARGE,
         "p.png: 1 x 32769 pixels is over the grid limit of 32768 a side and 1073741824 cells"},
        {2147483647, 2147483647, NAV_FAILURE | NAV_TOO_LARGE,
         "p.png: 2147483647 x 2147483647 pixels is over the grid limit of 32768 a side and 1073741824 cells"},
        {32768, 32768, NAV_FAILURE | NAV_PARSE_ERROR, NULL},
        {4000, 4000, NAV_FAILURE | NAV_PARSE_ERROR, NULL},
    };
    for (size_t i = 0; i < sizeof claims / sizeof claims[0]; i++) {
        put_be32(b.data + 16, claims[i].w);
        put_be32(b.data + 20, claims[i].h);
        put_be32(b.data + 29, (uint32_t)crc32(0, b.data + 12, 17)); /* a sound header */
        test_log log;
        test_log_init(&log);
        test_allocator alloc;
        test_allocator_init(&alloc, 0);
        nav_grid *grid = (nav_grid *)1;
        nav_status s =
            nav_grid_load_png(b.data, b.size, "p.png", NULL,
                              &(nav_grid_desc){.log = &log.hooks, .allocator = &alloc.hooks}, &grid);
        if (s != claims[i].status) fail_msg("%u x %u: %s", claims[i].w, claims[i].h, log.last);
        assert_null(grid);
        assert_int_equal(alloc.calls, 0); /* refused before the grid (or anything) was allocated */
        char expect[128];
        if (!claims[i].message) {
            snprintf(expect, sizeof expect, "p.png: %zu bytes cannot hold %u x %u pixels", b.size,
                     claims[i].w, claims[i].h);
        }
        assert_string_equal(log.last, claims[i].message ? claims[i].message : expect);
    }
    free(b.data);

    /* Text is not held in memory (libspng reads it on demand), so a 9 MiB comment loads. */
    size_t big = 9u << 20;
    char *text = malloc(big + 1);
    assert_non_null(text);
    memset(text, 'x', big);
    text[big] = '\0';
    spec.text_before = text;
    b = encode_png_memory(&spec);
    free(text);
    test_log log;
    nav_grid *grid = (nav_grid *)1;
    assert_int_equal(load_png(b, NULL, &log, &grid), NAV_SUCCESS);
    nav_grid_destroy(grid);
    free(b.data);
    /* An ICC profile is inflated into memory: one of 9 MiB in a 9 KB chunk (a zip bomb) is over the
     * limit libnav sets (8 MiB a chunk) and refused with NAV_TOO_LARGE. */
    spec.text_before = NULL;
    spec.iccp_size = big;
    b = encode_png_memory(&spec);
    assert_true(b.size < 20000);
    assert_int_equal(load_png(b, NULL, &log, &grid), NAV_FAILURE | NAV_TOO_LARGE);
    assert_string_equal(log.last,
                        "p.png: an ancillary chunk is over the limit of 8388608 bytes (33554432 in all)");
    assert_null(grid);
    free(b.data);
}

static void test_png_file(void **state)
{
    (void)state;
    const uint32_t rgb[] = {0xffffff, 0xff0000, 0x00ff00, 0x808080};
    png_buffer b = make_rgb_png(2, 2, rgb);
    char path[] = "/tmp/nav_test_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, b.data, b.size), (ssize_t)b.size);
    close(fd);
    nav_png_desc png = {test_palette, 5, false};
    nav_grid *grid = NULL;
    assert_int_equal(nav_grid_load_png_file(path, &png, NULL, &grid), NAV_SUCCESS);
    assert_true(nav_grid_cell_height(grid, 1, 0) == 2.0f);
    assert_true(nav_grid_cell_height(grid, 1, 1) == -1.0f);
    nav_grid_destroy(grid);

    /* Every allocation of ours fails in turn: palette, file, grid, heights, labels. (The decoded
     * pixels come from stb's own malloc, which our allocator cannot see.) */
    long n = 1;
    for (;; n++) {
        test_allocator alloc;
        test_allocator_init(&alloc, n);
        nav_status s = nav_grid_load_png_file(path, &png, &(nav_grid_desc){.allocator = &alloc.hooks}, &grid);
        if (nav_succeeded(s)) {
            nav_grid_destroy(grid);
            assert_int_equal(alloc.live, 0);
            break;
        }
        FAILS_WITH(s, NAV_OUT_OF_MEMORY);
        assert_null(grid);
        assert_int_equal(alloc.live, 0);
        assert_true(n < 100);
    }
    assert_int_equal(n - 1, 9);

    /* The file variant streams the image: the same grid as from memory, interlaced too, and the
     * same refusals. */
    static const uint32_t plte[] = {0x000000, 0xffffff, 0xff0000, 0x00ff00, 0x123456};
    png_spec spec = {45, 38, 8, 3, 1, pattern_sample, plte, 5, "a mask", NULL, 0, 9};
    png_buffer c = encode_png_memory(&spec);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(c.data, 1, c.size, f), c.size);
    fclose(f);
    nav_grid *from_memory = NULL;
    const nav_palette_entry costs[] = {{0xff0000, 3, 1}, {0x00ff00, NAV_COST_MAX, -2}, {0x123456, 1, 0.5f}};
    nav_png_desc masked = {costs, 3, false};
    masked.unknown_is_blocked = true;
    assert_int_equal(nav_grid_load_png(c.data, c.size, "m.png", &masked, NULL, &from_memory), NAV_SUCCESS);
    assert_int_equal(nav_grid_load_png_file(path, &masked, NULL, &grid), NAV_SUCCESS);
    assert_true(nav_grid_fingerprint(grid) == nav_grid_fingerprint(from_memory));
    nav_grid_destroy(grid);
    nav_grid_destroy(from_memory);
    test_log log;
    size_t cuts[] = {0, 5, 8, 20, 33, c.size / 2, c.size - 12};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(c.data, 1, cuts[i], f), cuts[i]);
        fclose(f);
        test_log_init(&log);
        assert_int_equal(nav_grid_load_png_file(path, &masked, &(nav_grid_desc){.log = &log.hooks}, &grid),
                         NAV_FAILURE | NAV_PARSE_ERROR);
        assert_null(grid);
        char from_file[256]; /* the reason, after "NAME: " */
        snprintf(from_file, sizeof from_file, "%s", strstr(log.last, ": ") + 2);
        assert_int_equal(load_png((png_buffer){c.data, cuts[i]}, &masked, &log, &grid),
                         NAV_FAILURE | NAV_PARSE_ERROR);
        assert_string_equal(from_file, strstr(log.last, ": ") + 2);
    }
    free(c.data);

    test_log_init(&log);
    unlink(path);
    FAILS_WITH(nav_grid_load_png_file(path, NULL, &(nav_grid_desc){.log = &log.hooks}, &grid), NAV_IO_ERROR);
    assert_non_null(strstr(log.last, "nav_test_"));
    assert_int_equal(strncmp(log.last, path + 5, strlen(path) - 5), 0); /* named by its base name */
    FAILS_WITH(nav_grid_load_png_file(NULL, NULL, NULL, &grid), NAV_INVALID_PARAM);
    free(b.data);
}

/* Walls one pixel wide every 64 columns, each with a gap every 512 rows: compresses well. */
static uint32_t wall_sample(const png_spec *spec, uint32_t x, uint32_t y, int c)
{
    (void)spec;
    (void)c;
    return x % 64 == 63 && y % 512 != 0 ? 0 : 255;
}

/* The largest mask a grid can hold, 32768 x 32768 (2^30 cells), loads from a file of a few MB.
 * Opt-in (NAV_BIG_TESTS=1): about 2 minutes, most of it labelling reachability, and a peak of
 * 7.7 GB (the 6.4 GB grid, its labels included, and the labelling's stack). */
static void test_png_largest(void **state)
{
    (void)state;
    if (!getenv("NAV_BIG_TESTS")) skip();
    char path[] = "/tmp/nav_test_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    assert_non_null(f);
    png_spec spec = {NAV_GRID_MAX_SIDE, NAV_GRID_MAX_SIDE, 8, 0, 0, wall_sample, NULL, 0, NULL, NULL, 0, 0};
    encode_png(f, &spec);
    assert_int_equal(fclose(f), 0);
    nav_grid *grid = NULL;
    test_log log;
    test_log_init(&log);
    nav_status s = nav_grid_load_png_file(path, NULL, &(nav_grid_desc){.log = &log.hooks}, &grid);
    unlink(path);
    if (s != NAV_SUCCESS) fail_msg("%s", log.last);
    assert_int_equal(nav_grid_width(grid), NAV_GRID_MAX_SIDE);
    assert_int_equal(nav_grid_height(grid), NAV_GRID_MAX_SIDE);
    uint64_t blocked = 0;
    for (int32_t y = 0; y < NAV_GRID_MAX_SIDE; y++)
        for (int32_t x = 0; x < NAV_GRID_MAX_SIDE; x++) blocked += !nav_grid_passable(grid, x, y);
    assert_int_equal(blocked, 512ull * (NAV_GRID_MAX_SIDE - 64)); /* 512 walls, each 32768 - 64 pixels */
    assert_false(nav_grid_passable(grid, 63, 1));
    assert_true(nav_grid_passable(grid, 63, 512));
    assert_true(nav_grid_passable(grid, NAV_GRID_MAX_SIDE - 2, NAV_GRID_MAX_SIDE - 1));
    assert_false(nav_grid_passable(grid, NAV_GRID_MAX_SIDE - 1, NAV_GRID_MAX_SIDE - 1));
    nav_grid_destroy(grid);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_png_default_palette), cmocka_unit_test(test_png_palette),
        cmocka_unit_test(test_png_bad_input),       cmocka_unit_test(test_png_formats),
        cmocka_unit_test(test_png_damaged),         cmocka_unit_test(test_png_limits),
        cmocka_unit_test(test_png_largest),         cmocka_unit_test(test_png_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
