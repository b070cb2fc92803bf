/* Small test scenes of triangles made of axis-aligned quads and boxes (tests only): what the
 * suites of the build from level geometry and of queries on a level's mesh build by hand, whose
 * answers are known cell by cell. Include after support.h (cmocka's assertions). */
#ifndef NAV_TEST_SCENE_H
#define NAV_TEST_SCENE_H

#include <stdbool.h>
#include <stdint.h>

#define SCENE_MAX 4096

typedef struct scene {
    float v[SCENE_MAX * 3];
    uint32_t idx[SCENE_MAX * 3];
    uint32_t nv, nt;
} scene;

static inline uint32_t vertex(scene *s, float x, float y, float z)
{
    assert_true(s->nv < SCENE_MAX);
    s->v[3 * s->nv] = x, s->v[3 * s->nv + 1] = y, s->v[3 * s->nv + 2] = z;
    return s->nv++;
}

static inline void triangle(scene *s, uint32_t a, uint32_t b, uint32_t c)
{
    assert_true(s->nt < SCENE_MAX);
    s->idx[3 * s->nt] = a, s->idx[3 * s->nt + 1] = b, s->idx[3 * s->nt + 2] = c;
    s->nt++;
}

/* A level quad over [x0, x1] x [z0, z1] at height y, facing up (or down). */
static inline void floor_quad(scene *s, float x0, float z0, float x1, float z1, float y, bool up)
{
    uint32_t a = vertex(s, x0, y, z0), b = vertex(s, x0, y, z1), c = vertex(s, x1, y, z1),
             d = vertex(s, x1, y, z0);
    if (up)
        triangle(s, a, b, c), triangle(s, a, c, d);
    else
        triangle(s, a, c, b), triangle(s, a, d, c);
}

/* An upright quad from (x0, z0) to (x1, z1), from y0 up to y1. */
static inline void wall_quad(scene *s, float x0, float z0, float x1, float z1, float y0, float y1)
{
    uint32_t a = vertex(s, x0, y0, z0), b = vertex(s, x0, y1, z0), c = vertex(s, x1, y1, z1),
             d = vertex(s, x1, y0, z1);
    triangle(s, a, b, c), triangle(s, a, c, d);
}

/* A box: its top facing up, its four sides (no bottom). */
static inline void box(scene *s, float x0, float y0, float z0, float x1, float y1, float z1)
{
    floor_quad(s, x0, z0, x1, z1, y1, true);
    wall_quad(s, x0, z0, x1, z0, y0, y1);
    wall_quad(s, x1, z0, x1, z1, y0, y1);
    wall_quad(s, x1, z1, x0, z1, y0, y1);
    wall_quad(s, x0, z1, x0, z0, y0, y1);
}

#endif
