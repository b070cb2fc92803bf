/* A program that compiles stb_ds itself, as many engines do, and links libnav's bake, which uses
 * stb_ds inside: it must link (libnav's copy has names of its own) and both copies must work. */
#include <stdio.h>

#define STB_DS_IMPLEMENTATION
#if __has_include(<stb/stb_ds.h>)
#include <stb/stb_ds.h>
#else
#include <stb_ds.h>
#endif

#include <nav/geometry.h>

int main(void)
{
    int *mine = NULL; /* the program's own stb_ds */
    for (int i = 0; i < 100; i++) arrput(mine, i);

    /* a 10 x 10 floor, built into a mesh by libnav's bake (its own stb_ds) */
    const float vertices[] = {0, 0, 0, 10, 0, 0, 10, 0, 10, 0, 0, 10};
    const uint32_t indices[] = {0, 2, 1, 0, 3, 2};
    nav_triangles floor = {vertices, 4, indices, 2, NULL};
    nav_mesh *mesh;
    nav_status s =
        nav_mesh_build_from_geometry(&floor, &(nav_geometry_build_desc){.threads = 1}, &mesh, NULL);
    if (nav_failed(s)) {
        printf("build failed: %s\n", nav_status_str(s));
        return 1;
    }
    printf("%td of my own, a mesh of %u polygons\n", arrlen(mine), nav_mesh_poly_count(mesh));
    nav_mesh_destroy(mesh);
    arrfree(mine);
    return 0;
}
