/* The brute-force any-angle reference: a visibility graph searched lazily (every pair of corners
 * tested when its first end is expanded). O(corners^2) segment tests a query, no cleverness, so
 * that it can be trusted. */
#include <math.h>
#include <stdlib.h>

#include "reference.h"

#include "nav/anyangle.h"

static bool free_at(const nav_grid *grid, int32_t x, int32_t y)
{
    return nav_grid_passable(grid, x, y);
}

void test_reference_init(test_reference *ref, const nav_grid *grid)
{
    int32_t w = nav_grid_width(grid), h = nav_grid_height(grid);
    ref->grid = grid;
    ref->count = 0;
    size_t cap = 16;
    ref->x = malloc(cap * sizeof *ref->x);
    ref->y = malloc(cap * sizeof *ref->y);
    for (int32_t y = 0; y <= h; y++)
        for (int32_t x = 0; x <= w; x++) {
            int n = free_at(grid, x - 1, y - 1) + free_at(grid, x, y - 1) + free_at(grid, x - 1, y) +
                    free_at(grid, x, y);
            if (n != 3) continue;
            if (ref->count + 2 >= cap) {
                cap *= 2;
                ref->x = realloc(ref->x, cap * sizeof *ref->x);
                ref->y = realloc(ref->y, cap * sizeof *ref->y);
            }
            ref->x[ref->count] = x;
            ref->y[ref->count] = y;
            ref->count++;
        }
    ref->x = realloc(ref->x, (ref->count + 2) * sizeof *ref->x);
    ref->y = realloc(ref->y, (ref->count + 2) * sizeof *ref->y);
    ref->g = malloc((ref->count + 2) * sizeof *ref->g);
    ref->closed = malloc(ref->count + 2);
}

void test_reference_destroy(test_reference *ref)
{
    free(ref->x);
    free(ref->y);
    free(ref->g);
    free(ref->closed);
}

double test_reference_cost(test_reference *ref, double sx, double sy, double gx, double gy)
{
    uint32_t n = ref->count + 2, s = ref->count, t = ref->count + 1;
    ref->x[s] = sx;
    ref->y[s] = sy;
    ref->x[t] = gx;
    ref->y[t] = gy;
    double min_cost = nav_grid_min_cost(ref->grid);
    for (uint32_t i = 0; i < n; i++) {
        ref->g[i] = INFINITY;
        ref->closed[i] = 0;
    }
    ref->g[s] = 0;
    for (;;) {
        /* the open node of least g + distance to the goal (a linear scan: no heap to get wrong) */
        uint32_t u = n;
        double best = INFINITY;
        for (uint32_t i = 0; i < n; i++) {
            if (ref->closed[i] || !(ref->g[i] < INFINITY)) continue;
            double f = ref->g[i] + hypot(gx - ref->x[i], gy - ref->y[i]) * min_cost;
            if (f < best) {
                best = f;
                u = i;
            }
        }
        if (u == n) return INFINITY;
        if (u == t) return ref->g[t];
        ref->closed[u] = 1;
        for (uint32_t v = 0; v < n; v++) {
            if (ref->closed[v] || v == s) continue;
            double c;
            if (ref->g[u] + hypot(ref->x[v] - ref->x[u], ref->y[v] - ref->y[u]) * min_cost >= ref->g[v])
                continue;
            if (!nav_grid_anyangle_segment(ref->grid, ref->x[u], ref->y[u], ref->x[v], ref->y[v], &c))
                continue;
            if (ref->g[u] + c < ref->g[v]) ref->g[v] = ref->g[u] + c;
        }
    }
}
