/* A generated level (levelgen.h): boxes, ramps, stairs and pillars on a floor, written as .obj. */
#include "levelgen.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How a face's corners are written: "i", "i/t", "i//n", "i/t/n", or counted back from the last
 * vertex written ("-k"). */
enum { FORM_PLAIN, FORM_TEXTURE, FORM_NORMAL, FORM_BOTH, FORM_NEGATIVE };

static void *grown(void *p, size_t count, size_t size)
{
    p = realloc(p, (count ? count : 1) * size);
    if (!p) {
        fputs("levelgen: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* The level as it is made: faces go to the object last begun, in its form. */
typedef struct maker {
    test_level *level;
    uint8_t form;
} maker;

static void begin(maker *m, const char *name, uint8_t form)
{
    test_level *l = m->level;
    l->object_first = grown(l->object_first, l->object_count + 2, sizeof *l->object_first);
    l->object_vertex_first =
        grown(l->object_vertex_first, l->object_count + 2, sizeof *l->object_vertex_first);
    l->object_name = grown(l->object_name, l->object_count + 1, sizeof *l->object_name);
    l->object_first[l->object_count] = l->face_count;
    l->object_vertex_first[l->object_count] = l->vertex_count;
    l->object_name[l->object_count] = name;
    l->object_count++;
    m->form = form;
}

static uint32_t vertex(maker *m, float x, float y, float z)
{
    test_level *l = m->level;
    l->vertices = grown(l->vertices, 3 * ((size_t)l->vertex_count + 1), sizeof *l->vertices);
    float *v = l->vertices + 3 * (size_t)l->vertex_count;
    v[0] = x, v[1] = y, v[2] = z;
    return l->vertex_count++;
}

static void face(maker *m, uint32_t n, const uint32_t *corners)
{
    test_level *l = m->level;
    uint32_t at = l->face_count ? l->first[l->face_count] : 0;
    l->corners = grown(l->corners, at + n, sizeof *l->corners);
    l->first = grown(l->first, l->face_count + 2, sizeof *l->first);
    l->form = grown(l->form, l->face_count + 1, sizeof *l->form);
    memcpy(l->corners + at, corners, n * sizeof *corners);
    l->first[l->face_count] = at;
    l->first[l->face_count + 1] = at + n;
    l->form[l->face_count] = m->form;
    l->face_count++;
    l->triangle_count += n - 2;
}

static void quad(maker *m, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    face(m, 4, (uint32_t[]){a, b, c, d});
}

/* A solid box, its top facing up (corners counter-clockwise seen from above: x0 z0, x0 z1, x1 z1,
 * x1 z0) and its sides facing out. */
static void box(maker *m, float x0, float z0, float x1, float z1, float y0, float y1)
{
    uint32_t b[4], t[4];
    const float xs[4] = {x0, x0, x1, x1}, zs[4] = {z0, z1, z1, z0};
    for (int i = 0; i < 4; i++) b[i] = vertex(m, xs[i], y0, zs[i]), t[i] = vertex(m, xs[i], y1, zs[i]);
    quad(m, t[0], t[1], t[2], t[3]);
    for (int i = 0; i < 4; i++) {
        int j = (i + 1) % 4;
        quad(m, b[i], b[j], t[j], t[i]);
    }
    quad(m, b[3], b[2], b[1], b[0]);
}

/* A ramp rising along +x from the floor at x0 to height h at x1, z0 to z1: its slope, two side
 * triangles and its back. */
static void ramp(maker *m, float x0, float x1, float z0, float z1, float h)
{
    uint32_t a = vertex(m, x0, 0, z0), b = vertex(m, x0, 0, z1), c = vertex(m, x1, h, z1),
             d = vertex(m, x1, h, z0), e = vertex(m, x1, 0, z0), f = vertex(m, x1, 0, z1);
    quad(m, a, b, c, d);
    face(m, 3, (uint32_t[]){a, d, e});
    face(m, 3, (uint32_t[]){b, f, c});
    quad(m, e, d, c, f);
}

/* An octagonal pillar of radius r from the floor to height h: a top of 8 corners, 8 sides. */
static void pillar(maker *m, float cx, float cz, float r, float h)
{
    uint32_t bottom[8], top[8];
    for (int i = 0; i < 8; i++) { /* clockwise in x, z seen from above: the top faces up */
        double angle = -2 * 3.14159265358979 * (i + 0.5) / 8;
        float x = cx + r * (float)cos(angle), z = cz + r * (float)sin(angle);
        bottom[i] = vertex(m, x, 0, z), top[i] = vertex(m, x, h, z);
    }
    face(m, 8, top);
    for (int i = 0; i < 8; i++) quad(m, bottom[i], bottom[(i + 1) % 8], top[(i + 1) % 8], top[i]);
}

/* A wall 0.4 thick and 3 high from (x0, z0) to (x1, z1) along x or z, with a doorway 2.5 wide
 * starting at gap (a coordinate along it; none when outside it). */
static void wall(maker *m, float x0, float z0, float x1, float z1, float gap)
{
    bool along_x = z0 == z1;
    float from = along_x ? x0 : z0, to = along_x ? x1 : z1;
    float pieces[2][2] = {{from, gap}, {gap + 2.5f, to}};
    if (gap <= from || gap >= to) pieces[0][1] = to, pieces[1][0] = to;
    for (int k = 0; k < 2; k++) {
        float a = pieces[k][0], b = pieces[k][1];
        if (b - a < 0.01f) continue;
        if (along_x)
            box(m, a, z0 - 0.2f, b, z0 + 0.2f, 0, 3);
        else
            box(m, x0 - 0.2f, a, x0 + 0.2f, b, 0, 3);
    }
}

void test_level_generate(test_level *level)
{
    *level = (test_level){0};
    maker m = {level, FORM_PLAIN};

    begin(&m, "floor", FORM_PLAIN); /* 24 x 21 quads of 4 metres, corners shared */
    uint32_t grid[22][25];
    for (int j = 0; j < 22; j++)
        for (int i = 0; i < 25; i++) grid[j][i] = vertex(&m, 4.0f * (float)i, 0, 4.0f * (float)j);
    for (int j = 0; j < 21; j++)
        for (int i = 0; i < 24; i++) quad(&m, grid[j][i], grid[j + 1][i], grid[j + 1][i + 1], grid[j][i + 1]);

    begin(&m, "bank", FORM_PLAIN); /* down 0.73 m (20 degrees) along the south edge to a walk 4 m wide */
    for (int i = 0; i < 24; i++) {
        float x0 = 4.0f * (float)i, x1 = x0 + 4;
        uint32_t top0 = grid[21][i], top1 = grid[21][i + 1];
        uint32_t foot0 = vertex(&m, x0, -0.73f, 86), foot1 = vertex(&m, x1, -0.73f, 86);
        uint32_t end0 = vertex(&m, x0, -0.73f, 90), end1 = vertex(&m, x1, -0.73f, 90);
        quad(&m, top0, foot0, foot1, top1);
        quad(&m, foot0, end0, end1, foot1);
    }

    begin(&m, "rooms", FORM_BOTH); /* two rooms side by side, doorways in every wall */
    wall(&m, 8, 36, 32, 36, 13);
    wall(&m, 8, 52, 32, 52, 26);
    wall(&m, 8, 36, 8, 52, 99);
    wall(&m, 32, 36, 32, 52, 42);
    wall(&m, 20, 36, 20, 52, 46);

    begin(&m, "terrace", FORM_TEXTURE); /* 1.5 m up, no way onto it */
    box(&m, 4, 60, 28, 80, 0, 1.5f);

    begin(&m, "platforms", FORM_BOTH); /* 3 m up; a walkway 8 m wide between them, a bridge over it */
    box(&m, 56, 56, 76, 76, 0, 3);
    box(&m, 84, 56, 94, 76, 0, 3);
    box(&m, 76, 64, 84, 67, 2.8f, 3);
    begin(&m, "platform_ramp", FORM_NORMAL); /* 12 m long: 14 degrees */
    ramp(&m, 44, 56, 60, 64, 3);
    begin(&m, "stairs", FORM_BOTH); /* 12 steps of 0.25 up and 0.35 deep to the platform's south side */
    for (int i = 0; i < 12; i++) box(&m, 62, 76, 66, 76 + 0.35f * (float)(12 - i), 0, 0.25f * (float)(i + 1));

    begin(&m, "slopes", FORM_NORMAL); /* ramps of 15, 30, 40 and 55 degrees up 2 m to landings */
    const float degrees[4] = {15, 30, 40, 55};
    for (int k = 0; k < 4; k++) {
        float run = 2 / tanf(degrees[k] * 3.14159265f / 180), z0 = 4 + 7 * (float)k;
        ramp(&m, 48, 48 + run, z0, z0 + 3, 2);
        box(&m, 48 + run, z0, 51 + run, z0 + 3, 0, 2);
    }

    begin(&m, "boxes", FORM_TEXTURE);
    box(&m, 30, 4, 32, 6, 0, 0.5f);   /* a step up */
    box(&m, 36, 20, 37, 21, 0, 1.2f); /* a crate */
    box(&m, 70, 30, 73, 33, 0, 2.5f); /* too high: small islands on top */
    box(&m, 80, 40, 84, 42, 0, 1.5f);
    box(&m, 40, 30, 42.5f, 32.5f, 0, 1.0f); /* just above the climb */

    for (int k = 0; k < 8; k++) /* a row of crates along the north edge, a metre apart */
        box(&m, 64 + 3 * (float)k, 1, 66 + 3 * (float)k, 2.5f, 0, k % 2 ? 0.6f : 1.2f);

    begin(&m, "pillars", FORM_NEGATIVE); /* three alone, and a colonnade of eight */
    pillar(&m, 46, 44, 0.8f, 4);
    pillar(&m, 50, 48, 0.8f, 4);
    pillar(&m, 88, 30, 0.8f, 4);
    for (int k = 0; k < 8; k++) pillar(&m, 60 + 4 * (float)k, 46, 0.5f, 5);

    level->object_first[level->object_count] = level->face_count;
    level->object_vertex_first[level->object_count] = level->vertex_count;
}

void test_level_destroy(test_level *level)
{
    free(level->vertices);
    free(level->corners);
    free(level->first);
    free(level->form);
    free(level->object_first);
    free(level->object_vertex_first);
    free(level->object_name);
    *level = (test_level){0};
}

/* ---- .obj text -------------------------------------------------------------------------------------- */

typedef struct text {
    char *data;
    size_t size, cap;
} text;

static void put(text *t, const char *format, ...) __attribute__((format(printf, 2, 3)));

static void put(text *t, const char *format, ...)
{
    for (;;) {
        va_list args;
        va_start(args, format);
        int n = vsnprintf(t->data + t->size, t->cap - t->size, format, args);
        va_end(args);
        if (n >= 0 && (size_t)n < t->cap - t->size) {
            t->size += (size_t)n;
            return;
        }
        t->cap = 2 * t->cap + 4096;
        t->data = grown(t->data, t->cap, 1);
    }
}

/* A face's unit normal (Newell's method), for its vn line. */
static void face_normal(const test_level *l, uint32_t f, double n[3])
{
    n[0] = n[1] = n[2] = 0;
    for (uint32_t i = l->first[f]; i < l->first[f + 1]; i++) {
        uint32_t j = i + 1 < l->first[f + 1] ? i + 1 : l->first[f];
        const float *a = l->vertices + 3 * (size_t)l->corners[i],
                    *b = l->vertices + 3 * (size_t)l->corners[j];
        n[0] += (double)(a[1] - b[1]) * (a[2] + b[2]);
        n[1] += (double)(a[2] - b[2]) * (a[0] + b[0]);
        n[2] += (double)(a[0] - b[0]) * (a[1] + b[1]);
    }
    double length = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int k = 0; k < 3; k++) n[k] = length > 0 ? n[k] / length : 0;
}

char *test_level_obj(const test_level *l, size_t *size)
{
    static const char *const materials[] = {"stone", "wood"};
    text t = {0};
    put(&t, "# a level generated by libnav's tests (tests/levelgen.c)\nmtllib level.mtl\n");
    uint32_t normals = 0;
    for (uint32_t o = 0; o < l->object_count; o++) {
        uint32_t v0 = l->object_vertex_first[o], v1 = l->object_vertex_first[o + 1];
        put(&t, "o %s\n", l->object_name[o]);
        for (uint32_t v = v0; v < v1; v++) {
            const float *p = l->vertices + 3 * (size_t)v;
            put(&t, "v %.9g %.9g %.9g\n", p[0], p[1], p[2]);
        }
        for (uint32_t v = v0; v < v1; v++) {
            const float *p = l->vertices + 3 * (size_t)v;
            put(&t, "vt %.4f %.4f\n", p[0] / 8.0f, p[2] / 8.0f);
        }
        for (uint32_t f = l->object_first[o]; f < l->object_first[o + 1]; f++) {
            double n[3];
            face_normal(l, f, n);
            put(&t, "vn %.4f %.4f %.4f\n", n[0], n[1], n[2]);
        }
        put(&t, "g %s\nusemtl %s\ns %s\n", l->object_name[o], materials[o % 2], o % 2 ? "1" : "off");
        for (uint32_t f = l->object_first[o]; f < l->object_first[o + 1]; f++) {
            uint32_t normal = ++normals;
            put(&t, "f");
            for (uint32_t i = l->first[f]; i < l->first[f + 1]; i++) {
                uint32_t v = l->corners[i] + 1; /* .obj counts from 1 */
                switch (l->form[f]) {
                case FORM_PLAIN:
                    put(&t, " %u", v);
                    break;
                case FORM_TEXTURE:
                    put(&t, " %u/%u", v, v);
                    break;
                case FORM_NORMAL:
                    put(&t, " %u//%u", v, normal);
                    break;
                case FORM_BOTH:
                    put(&t, " %u/%u/%u", v, v, normal);
                    break;
                default:
                    put(&t, " -%u", v1 + 1 - v);
                    break; /* -1: the object's last vertex */
                }
            }
            put(&t, "\n");
        }
    }
    *size = t.size;
    return t.data;
}
