/* The PNG writer behind navtool's pictures (stb_image_write, compiled here once). */
#include "raster.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#if NAV_STB_PREFIXED
#include <stb/stb_image_write.h>
#else
#include <stb_image_write.h>
#endif
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

int navtool_write_rgb_png(const char *path, size_t pw, size_t ph, const uint8_t *pixels)
{
    if (pw > 1u << 20 || ph > 1u << 20) return 0;
    return stbi_write_png(path, (int)pw, (int)ph, 3, pixels, (int)(pw * 3));
}
