/* Private: signed 128-bit sums of 64-bit products, exactly, for targets without __int128 (32-bit
 * ones: i386, wasm32 with some compilers). The exact geometric predicates use __int128 where the
 * compiler has it (NAV__HAS_INT128) and these otherwise; test_core checks these against __int128.
 * Define NAV_NO_INT128 to use these everywhere. */
#ifndef NAV_BAKE_WIDE_H
#define NAV_BAKE_WIDE_H

#include <stdint.h>

#if defined(__SIZEOF_INT128__) && !defined(NAV_NO_INT128)
#define NAV__HAS_INT128 1
#else
#define NAV__HAS_INT128 0
#endif

typedef struct nav__wide {
    uint64_t lo;
    int64_t hi; /* the value is hi * 2^64 + lo */
} nav__wide;

/* a * b, exactly. */
static inline nav__wide nav__wide_mul(int64_t a, int64_t b)
{
    int negative = (a < 0) != (b < 0);
    uint64_t x = a < 0 ? 0 - (uint64_t)a : (uint64_t)a, y = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;
    uint64_t x0 = x & 0xffffffffu, x1 = x >> 32, y0 = y & 0xffffffffu, y1 = y >> 32;
    uint64_t p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
    uint64_t middle = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    uint64_t lo = (p00 & 0xffffffffu) | (middle << 32);
    uint64_t hi = p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
    if (negative) { /* the two's complement of (hi, lo) */
        lo = ~lo + 1;
        hi = ~hi + (lo == 0);
    }
    return (nav__wide){lo, (int64_t)hi};
}

static inline nav__wide nav__wide_add(nav__wide a, nav__wide b)
{
    uint64_t lo = a.lo + b.lo;
    return (nav__wide){lo, (int64_t)((uint64_t)a.hi + (uint64_t)b.hi + (lo < a.lo))};
}

static inline nav__wide nav__wide_sub(nav__wide a, nav__wide b)
{
    uint64_t lo = a.lo - b.lo;
    return (nav__wide){lo, (int64_t)((uint64_t)a.hi - (uint64_t)b.hi - (a.lo < b.lo))};
}

/* -1, 0 or 1. */
static inline int nav__wide_sign(nav__wide a)
{
    return a.hi < 0 ? -1 : a.hi > 0 || a.lo != 0 ? 1 : 0;
}

#endif
