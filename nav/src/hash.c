/* XXH64 (see hash.h), written from the xxHash specification: stripes of 32 bytes go through four
 * lanes; the lanes are merged, the tail is folded in 8, 4 and 1 bytes at a time, and the result is
 * avalanched. Checked against the reference tool (xxh64sum) in tests/test_io.c. */
#include "hash.h"

#include <string.h>

#define PRIME1 0x9E3779B185EBCA87ull
#define PRIME2 0xC2B2AE3D27D4EB4Full
#define PRIME3 0x165667B19E3779F9ull
#define PRIME4 0x85EBCA77C2B2AE63ull
#define PRIME5 0x27D4EB2F165667C5ull

static uint64_t rotl(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

/* Little-endian loads, whatever the machine. */
static uint64_t read64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static uint32_t read32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t round64(uint64_t acc, uint64_t input)
{
    acc += input * PRIME2;
    acc = rotl(acc, 31);
    return acc * PRIME1;
}

static uint64_t merge_round(uint64_t acc, uint64_t lane)
{
    acc ^= round64(0, lane);
    return acc * PRIME1 + PRIME4;
}

static void stripe(uint64_t lane[4], const uint8_t *p)
{
    lane[0] = round64(lane[0], read64(p));
    lane[1] = round64(lane[1], read64(p + 8));
    lane[2] = round64(lane[2], read64(p + 16));
    lane[3] = round64(lane[3], read64(p + 24));
}

void nav__hash64_init(nav__hash64 *h, uint64_t seed)
{
    memset(h, 0, sizeof *h);
    h->seed = seed;
    h->lane[0] = seed + PRIME1 + PRIME2;
    h->lane[1] = seed + PRIME2;
    h->lane[2] = seed;
    h->lane[3] = seed - PRIME1;
}

void nav__hash64_update(nav__hash64 *h, const void *data, size_t size)
{
    const uint8_t *p = data, *end = p + size;
    if (size == 0) return;
    h->total += size;
    if (h->pending_size + size < 32) {
        memcpy(h->pending + h->pending_size, p, size);
        h->pending_size += (uint32_t)size;
        return;
    }
    if (h->pending_size) {
        size_t fill = 32 - h->pending_size;
        memcpy(h->pending + h->pending_size, p, fill);
        stripe(h->lane, h->pending);
        p += fill;
        h->pending_size = 0;
    }
    while (end - p >= 32) {
        stripe(h->lane, p);
        p += 32;
    }
    memcpy(h->pending, p, (size_t)(end - p));
    h->pending_size = (uint32_t)(end - p);
}

uint64_t nav__hash64_digest(const nav__hash64 *h)
{
    uint64_t acc;
    if (h->total >= 32) {
        const uint64_t *v = h->lane;
        acc = rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18);
        for (int i = 0; i < 4; i++) acc = merge_round(acc, v[i]);
    } else {
        acc = h->seed + PRIME5;
    }
    acc += h->total;
    const uint8_t *p = h->pending, *end = p + h->pending_size;
    for (; end - p >= 8; p += 8) acc = rotl(acc ^ round64(0, read64(p)), 27) * PRIME1 + PRIME4;
    if (end - p >= 4) {
        acc = rotl(acc ^ (uint64_t)read32(p) * PRIME1, 23) * PRIME2 + PRIME3;
        p += 4;
    }
    for (; p < end; p++) acc = rotl(acc ^ *p * PRIME5, 11) * PRIME1;
    acc ^= acc >> 33;
    acc *= PRIME2;
    acc ^= acc >> 29;
    acc *= PRIME3;
    acc ^= acc >> 32;
    return acc;
}

void nav__hash64_u32(nav__hash64 *h, uint32_t value)
{
    uint8_t bytes[4];
    for (int i = 0; i < 4; i++) bytes[i] = (uint8_t)(value >> (8 * i));
    nav__hash64_update(h, bytes, sizeof bytes);
}

void nav__hash64_u64(nav__hash64 *h, uint64_t value)
{
    uint8_t bytes[8];
    for (int i = 0; i < 8; i++) bytes[i] = (uint8_t)(value >> (8 * i));
    nav__hash64_update(h, bytes, sizeof bytes);
}

void nav__hash64_f64(nav__hash64 *h, double value)
{
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    nav__hash64_u64(h, bits);
}
