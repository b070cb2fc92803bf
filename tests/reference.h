/* A brute-force reference for any-angle paths on grids (tests and bench tools only). */
#ifndef NAV_TEST_REFERENCE_H
#define NAV_TEST_REFERENCE_H

#include "nav/grid.h"

/* The corners where an any-angle shortest path may bend: grid vertices with exactly three free
 * cells around them (the convex corners of blocked cells). */
typedef struct test_reference {
    const nav_grid *grid;
    double *x, *y; /* corners, then start and goal */
    uint32_t count;
    double *g;
    uint8_t *closed;
} test_reference;

void test_reference_init(test_reference *ref, const nav_grid *grid);
void test_reference_destroy(test_reference *ref);
/* The any-angle shortest path's cost from (sx, sy) to (gx, gy) (grid units) under the rule of
 * nav/anyangle.h: Dijkstra (with a Euclidean A* bound) over the visibility graph of the corners
 * plus start and goal, each edge a straight segment checked by nav_grid_anyangle_segment and
 * weighted by its terrain cost. Exact on grids of one cost; with several, the cheapest path that
 * bends only at corners. INFINITY when no such path exists. */
double test_reference_cost(test_reference *ref, double sx, double sy, double gx, double gy);

#endif
