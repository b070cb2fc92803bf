/* Private: distance estimates on the grid, shared by the searches and the public call. */
#ifndef NAV_SRC_HEURISTIC_H
#define NAV_SRC_HEURISTIC_H

#include <math.h>
#include <stdint.h>

#include "nav/search.h"

/* Distance estimate for a displacement of dx, dy cells (both >= 0), scaled: the octile distance
 * is hi * unit + lo * unit_diagonal, where unit_diagonal = unit * (diagonal - 1) and diagonal is
 * the grid's diagonal move length, so the search's key needs no further multiply on the path from
 * the distance to the key; the other kinds multiply their distance by unit. */
static inline double nav__heuristic_scaled(nav_heuristic kind, int32_t dx, int32_t dy, double unit,
                                           double unit_diagonal)
{
    int32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
    switch (kind) {
    case NAV_HEURISTIC_MANHATTAN:
        return unit * (double)(dx + dy);
    case NAV_HEURISTIC_OCTILE:
        return (double)hi * unit + (double)lo * unit_diagonal;
    case NAV_HEURISTIC_EUCLIDEAN:
        return unit * sqrt((double)dx * dx + (double)dy * dy);
    case NAV_HEURISTIC_CHEBYSHEV:
        return unit * (double)hi;
    default:
        return 0.0;
    }
}

/* The same in integers, for fixed-point costs (see search.c): unit is a move of length 1 and
 * unit_diagonal the diagonal's extra length. Every kind but Euclidean has this form. */
static inline uint64_t nav__heuristic_fixed(nav_heuristic kind, int32_t dx, int32_t dy, uint64_t unit,
                                            uint64_t unit_diagonal)
{
    uint64_t lo = (uint64_t)(dx < dy ? dx : dy), hi = (uint64_t)(dx < dy ? dy : dx);
    switch (kind) {
    case NAV_HEURISTIC_MANHATTAN:
        return unit * (lo + hi);
    case NAV_HEURISTIC_OCTILE:
        return hi * unit + lo * unit_diagonal;
    case NAV_HEURISTIC_CHEBYSHEV:
        return unit * hi;
    default:
        return 0;
    }
}

/* The same estimate in cells, before terrain scaling. */
static inline double nav__heuristic_distance(nav_heuristic kind, int32_t dx, int32_t dy, double diagonal)
{
    return nav__heuristic_scaled(kind, dx, dy, 1.0, diagonal - 1.0);
}

#endif
