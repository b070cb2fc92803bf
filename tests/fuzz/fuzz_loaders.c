/* libFuzzer harness for the text and image loaders: Moving AI .map and .scen, the libnav ASCII
 * format, PNG masks and Wavefront .obj level geometry (see README.md here). The first byte picks
 * the loader (bit 3: .obj; else bits 0-1: 0 map, 1 ASCII, 2 PNG, 3 scen); for PNG, bit 2 set makes the
 * harness repair every chunk's CRC first, so that mutations reach the header, palette and image data checks
 * instead of dying at a checksum. The rest is the file, loaded twice: from memory and, through an in-memory
 * file, by the _file variant, which reads text a window at a time and streams PNGs (other code than the
 * memory one). Besides crashes, sanitizer reports and leaks, it traps when a result breaks a promise: the two
 * variants disagree (status, or the grid's fingerprint, or the problems), status and result
 * disagree, or a loaded grid moves into a blocked cell or across reachability labels.
 *
 * NAV_FUZZ_MAKE_SEEDS builds a program that writes the seeds: PNG masks (grey, grey with alpha, RGB
 * and RGBA, made with stb_image_write), the generated benchmark-like maps and their scenarios
 * (tests/mapgen.c) and the generated level's .obj (tests/levelgen.c), the last two cut at a line end
 * before 4000 and 60000 bytes; smoke.sh adds the ASCII files of tests/data. NAV_FUZZ_STANDALONE
 * builds a replayer. */
#include "fuzz_common.h"
#include "nav/geometry.h"
#include "nav/scen.h"

/* Makes every chunk's CRC agree with its bytes, as far as the chunks lie inside the file. */
static void repair_png(uint8_t *png, size_t size)
{
    for (size_t at = 8; at <= size && size - at >= 12;) {
        uint32_t length =
            (uint32_t)png[at] << 24 | (uint32_t)png[at + 1] << 16 | (uint32_t)png[at + 2] << 8 | png[at + 3];
        if (length > size - at - 12) return;
        uint32_t crc = nav_crc32(0, png + at + 4, (size_t)length + 4);
        for (int i = 0; i < 4; i++) png[at + 8 + length + (size_t)i] = (uint8_t)(crc >> (24 - 8 * i));
        at += 12 + (size_t)length;
    }
}

static void check_same_grid(nav_status s, nav_grid *grid, nav_status file_status, nav_grid *file_grid)
{
    CHECK(nav_succeeded(s) == (grid != NULL));
    CHECK(file_status == s);
    CHECK((file_grid == NULL) == (grid == NULL));
    if (grid) {
        check_grid_moves(grid);
        CHECK(nav_grid_fingerprint(file_grid) == nav_grid_fingerprint(grid));
    }
    nav_grid_destroy(file_grid);
    nav_grid_destroy(grid);
}

static void check_same_scen(nav_status s, nav_scen *scen, nav_status file_status, nav_scen *file_scen)
{
    CHECK(nav_succeeded(s) == (scen != NULL));
    CHECK(file_status == s);
    CHECK((file_scen == NULL) == (scen == NULL));
    if (scen) {
        CHECK(file_scen->count == scen->count);
        CHECK(scen->count == 0 ||
              memcmp(file_scen->problems, scen->problems, scen->count * sizeof *scen->problems) == 0);
        CHECK((file_scen->map_name == NULL) == (scen->map_name == NULL));
        CHECK(!scen->map_name || strcmp(file_scen->map_name, scen->map_name) == 0);
    }
    nav_scen_destroy(file_scen);
    nav_scen_destroy(scen);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    size_t n = size - 1;
    uint8_t *file = fuzz_copy(data + 1, n);
    const char *text = (const char *)file;
    nav_grid *grid = NULL, *file_grid = NULL;
    nav_status s, f;
    if (data[0] & 8u) { /* level geometry (.obj) */
        nav_geometry *g = NULL, *file_g = NULL;
        s = nav_geometry_load_obj(text, n, "fuzz.obj", NULL, NULL, &g);
        f = nav_geometry_load_obj_file(memory_file(file, n), NULL, NULL, &file_g);
        CHECK(nav_succeeded(s) == (g != NULL) && f == s && (file_g == NULL) == (g == NULL));
        if (g) {
            nav_triangles a = nav_geometry_triangles(g), b = nav_geometry_triangles(file_g);
            CHECK(a.triangle_count > 0 && nav_triangles_check(&a, NULL) == NAV_SUCCESS);
            CHECK(a.vertex_count == b.vertex_count && a.triangle_count == b.triangle_count);
            CHECK(memcmp(a.vertices, b.vertices, (size_t)a.vertex_count * 12) == 0);
            CHECK(memcmp(a.indices, b.indices, (size_t)a.triangle_count * 12) == 0);
        }
        nav_geometry_destroy(g);
        nav_geometry_destroy(file_g);
        free(file);
        return 0;
    }
    switch (data[0] & 3u) {
    case 0:
        s = nav_grid_load_map(text, n, "fuzz.map", NULL, &grid);
        f = nav_grid_load_map_file(memory_file(file, n), NULL, &file_grid);
        check_same_grid(s, grid, f, file_grid);
        break;
    case 1:
        s = nav_grid_load_ascii(text, n, "fuzz.txt", NULL, &grid);
        f = nav_grid_load_ascii_file(memory_file(file, n), NULL, &file_grid);
        check_same_grid(s, grid, f, file_grid);
        break;
    case 2:
        if (data[0] & 4u) repair_png(file, n);
        s = nav_grid_load_png(file, n, "fuzz.png", NULL, NULL, &grid);
        f = nav_grid_load_png_file(memory_file(file, n), NULL, NULL, &file_grid);
        check_same_grid(s, grid, f, file_grid);
        break;
    default: {
        nav_scen *scen = NULL, *file_scen = NULL;
        s = nav_scen_load(text, n, "fuzz.scen", NULL, NULL, &scen);
        f = nav_scen_load_file(memory_file(file, n), NULL, NULL, &file_scen);
        check_same_scen(s, scen, f, file_scen);
        break;
    }
    }
    free(file);
    return 0;
}

#if defined(NAV_FUZZ_MAKE_SEEDS)
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#if NAV_STB_PREFIXED
#include <stb/stb_image_write.h>
#else
#include <stb_image_write.h>
#endif

#include "levelgen.h"
#include "mapgen.h"

/* Writes text as a seed of that mode, cut after its last line end within limit bytes. */
static void write_text_seed(const char *dir, const char *name, uint8_t mode, const char *text, size_t size,
                            size_t limit)
{
    if (size > limit) {
        size = limit;
        while (size > 0 && text[size - 1] != '\n') size--;
    }
    write_seed(dir, name, mode, text, size);
}

static void make_seeds(const char *dir)
{
    for (int which = 0; which < TEST_BENCH_COUNT; which++) {
        const test_map_desc *desc = &test_bench_maps[which];
        test_map map;
        test_map_generate(&map, desc);
        size_t size;
        char *text = test_map_text(&map, &size), name[64];
        snprintf(name, sizeof name, "%s.map", desc->name);
        write_seed(dir, name, 0, text, size);
        free(text);
        text = test_scen_text(&map, desc, &size);
        snprintf(name, sizeof name, "%s.map.scen", desc->name);
        write_text_seed(dir, name, 3, text, size, 4000);
        free(text);
        test_map_destroy(&map);
    }
    test_level level;
    test_level_generate(&level);
    size_t size;
    char *obj = test_level_obj(&level, &size);
    write_text_seed(dir, "level.obj", 8, obj, size, 60000);
    free(obj);
    test_level_destroy(&level);

    enum { W = 13, H = 9 };
    for (int channels = 1; channels <= 4; channels++) {
        unsigned char pixels[W * H * 4];
        for (int i = 0; i < W * H * channels; i++) /* walls (black) on white, some grey */
            pixels[i] = (unsigned char)((i / channels) % 5 == 0 ? 0 : (i / channels) % 7 == 0 ? 128 : 255);
        int size;
        unsigned char *png = stbi_write_png_to_mem(pixels, W * channels, W, H, channels, &size);
        if (!png) exit(1);
        char name[32];
        snprintf(name, sizeof name, "png_%d", channels);
        write_seed(dir, name, 2, png, (size_t)size);
        snprintf(name, sizeof name, "png_%d_repaired", channels);
        write_seed(dir, name, 6, png, (size_t)size);
        STBIW_FREE(png);
    }
}
#endif
