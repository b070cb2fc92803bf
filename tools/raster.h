/* navtool's pictures: RGB pixels (3 bytes each, rows top down), blending and lines, and writing a
 * PNG (stb_image_write, in raster.c). */
#ifndef NAVTOOL_RASTER_H
#define NAVTOOL_RASTER_H

#include <stddef.h>
#include <stdint.h>

typedef struct rgb {
    uint8_t r, g, b;
} rgb;

/* a + (b - a) t */
static inline rgb mix(rgb a, rgb b, double t)
{
    return (rgb){(uint8_t)(a.r + (b.r - a.r) * t), (uint8_t)(a.g + (b.g - a.g) * t),
                 (uint8_t)(a.b + (b.b - a.b) * t)};
}

/* Blends a pixel towards colour c by t (pixels off the picture are left alone). */
static inline void blend(uint8_t *pixels, size_t pw, size_t ph, int64_t x, int64_t y, rgb c, double t)
{
    if (x < 0 || y < 0 || (size_t)x >= pw || (size_t)y >= ph) return;
    uint8_t *p = pixels + ((size_t)y * pw + (size_t)x) * 3;
    rgb m = mix((rgb){p[0], p[1], p[2]}, c, t);
    p[0] = m.r;
    p[1] = m.g;
    p[2] = m.b;
}

/* A line between two pixel centres (Bresenham). */
static inline void line(uint8_t *pixels, size_t pw, size_t ph, int64_t x0, int64_t y0, int64_t x1, int64_t y1,
                        rgb c, double t)
{
    int64_t dx = x1 > x0 ? x1 - x0 : x0 - x1, dy = -(y1 > y0 ? y1 - y0 : y0 - y1);
    int64_t sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1, err = dx + dy;
    for (;;) {
        blend(pixels, pw, ph, x0, y0, c, t);
        if (x0 == x1 && y0 == y1) break;
        int64_t e2 = 2 * err;
        if (e2 >= dy) err += dy, x0 += sx;
        if (e2 <= dx) err += dx, y0 += sy;
    }
}

/* Writes pw x ph pixels as a PNG file. Returns nonzero on success. */
int navtool_write_rgb_png(const char *path, size_t pw, size_t ph, const uint8_t *pixels);

#endif
