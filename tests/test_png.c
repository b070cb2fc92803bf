/* PNG masks: the default palette and a given one, bad and damaged images (stb_image must never
 * see a chunk that would trip it), and files. */
#define _GNU_SOURCE /* memmem */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"

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
    assert_string_equal(
        log.last,
        "p.png: palette entry 0 (#ff0000) needs a colour up to #ffffff, a cost > 0 and a finite height");
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
    assert_string_equal(log.last, "p.png: not a PNG image, or a damaged one");
    free(b.data);

    /* Wider than a grid may be: refused from the header, before decoding. */
    unsigned char *wide = calloc(32769, 1);
    assert_non_null(wide);
    b = make_png(32769, 1, 1, wide);
    assert_int_equal(load_png(b, NULL, &log, &grid), NAV_FAILURE | NAV_TOO_LARGE);
    assert_string_equal(log.last, "p.png: 32769 x 1 pixels is over the grid limit of 32768 per side");
    free(b.data);
    b = make_png(1, 32769, 1, wide);
    assert_int_equal(load_png(b, NULL, &log, &grid), NAV_FAILURE | NAV_TOO_LARGE);
    free(b.data);
    free(wide);
}

static nav_status load_png_text(const char *text, size_t size, const char *name, const nav_grid_desc *options,
                                nav_grid **out)
{
    return nav_grid_load_png(text, size, name, NULL, options, out);
}

static void test_png_damaged(void **state)
{
    (void)state;
    uint32_t rgb[12 * 10];
    for (int i = 0; i < 12 * 10; i++) rgb[i] = (uint32_t)(i * 2654435761u) & 0xffffff;
    png_buffer b = make_rgb_png(12, 10, rgb);
    int loaded = test_load_prefixes(load_png_text, (const char *)b.data, b.size, b.size);
    assert_true(loaded >= 1);
    test_load_damaged(load_png_text, (const char *)b.data, b.size, 1);

    /* A sound header over damaged image data: the header passes, the decoder refuses. */
    test_log log;
    nav_grid *grid = (nav_grid *)1;
    unsigned char *idat = memmem(b.data, b.size, "IDAT", 4);
    assert_non_null(idat);
    memset(idat + 4, 0xff, 8);
    assert_int_equal(load_png(b, NULL, &log, &grid), NAV_FAILURE | NAV_PARSE_ERROR);
    assert_string_equal(log.last, "p.png: cannot decode the PNG (damaged data, or no memory for the pixels)");
    assert_null(grid);
    /* An empty image data chunk first (stb would memcpy to a null pointer): refused. */
    free(b.data);
    b = make_rgb_png(12, 10, rgb);
    idat = memmem(b.data, b.size, "IDAT", 4);
    size_t at = (size_t)(idat - 4 - b.data);
    static const unsigned char empty_idat[12] = {0, 0, 0, 0, 'I', 'D', 'A', 'T', 0x35, 0xaf, 0x06, 0x1e};
    png_buffer spliced = {malloc(b.size + 12), b.size + 12};
    assert_non_null(spliced.data);
    memcpy(spliced.data, b.data, at);
    memcpy(spliced.data + at, empty_idat, 12);
    memcpy(spliced.data + at + 12, b.data + at, b.size - at);
    assert_int_equal(load_png(spliced, NULL, &log, &grid), NAV_FAILURE | NAV_PARSE_ERROR);
    assert_string_equal(log.last, "p.png: the first image data chunk (IDAT) is empty");
    free(spliced.data);
    /* A header that claims 15000 x 15000 pixels over a few hundred bytes of data: refused before
     * stb allocates 675 MB for them. */
    b.data[16] = b.data[20] = 0;
    b.data[17] = b.data[21] = 0;
    b.data[18] = b.data[22] = 15000 >> 8;
    b.data[19] = b.data[23] = 15000 & 0xff;
    assert_int_equal(load_png(b, NULL, &log, &grid), NAV_FAILURE | NAV_PARSE_ERROR);
    char expect[128];
    snprintf(expect, sizeof expect, "p.png: %u bytes of image data cannot hold 15000 x 15000 pixels",
             (unsigned)(b.data[at] << 24 | b.data[at + 1] << 16 | b.data[at + 2] << 8 | b.data[at + 3]));
    assert_string_equal(log.last, expect);
    /* The signature alone, and a file cut inside its header. */
    b.size = 8;
    assert_int_equal(load_png(b, NULL, &log, &grid), NAV_FAILURE | NAV_PARSE_ERROR);
    assert_string_equal(log.last, "p.png: not a PNG image, or a damaged one");
    b.size = 20;
    assert_int_equal(load_png(b, NULL, &log, &grid), NAV_FAILURE | NAV_PARSE_ERROR);
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
    assert_int_equal(n - 1, 8);

    test_log log;
    test_log_init(&log);
    unlink(path);
    FAILS_WITH(nav_grid_load_png_file(path, NULL, &(nav_grid_desc){.log = &log.hooks}, &grid), NAV_IO_ERROR);
    assert_non_null(strstr(log.last, "nav_test_"));
    assert_int_equal(strncmp(log.last, path + 5, strlen(path) - 5), 0); /* named by its base name */
    FAILS_WITH(nav_grid_load_png_file(NULL, NULL, NULL, &grid), NAV_INVALID_PARAM);
    free(b.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_png_default_palette),
        cmocka_unit_test(test_png_palette),
        cmocka_unit_test(test_png_bad_input),
        cmocka_unit_test(test_png_damaged),
        cmocka_unit_test(test_png_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
