/* Private: XXH64, a fast 64-bit non-cryptographic hash (Yann Collet's xxHash, XXH64 as its
 * specification, doc/xxhash_spec.md, defines it), fed in pieces. libnav uses it for fingerprints:
 * a bake records the fingerprint of the grid it was made from, so that a stale pairing is refused.
 * It detects accidents (a grid edited after its bake), not an adversary, who could forge a match;
 * a forged match still cannot make a query read out of bounds, since every chunk reader validates
 * its data against the grid it is given. */
#ifndef NAV_SRC_HASH_H
#define NAV_SRC_HASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct nav__hash64 {
    uint64_t lane[4];    /* the four accumulators of 32-byte stripes */
    uint64_t total;      /* bytes fed so far */
    uint8_t pending[32]; /* the start of an unfinished stripe */
    uint32_t pending_size;
    uint64_t seed;
} nav__hash64;

void nav__hash64_init(nav__hash64 *h, uint64_t seed);
void nav__hash64_update(nav__hash64 *h, const void *data, size_t size);
/* The hash of everything fed so far (h may be fed more afterwards). */
uint64_t nav__hash64_digest(const nav__hash64 *h);

/* Feeds numbers as their little-endian bytes, so a fingerprint is the same on every machine. */
void nav__hash64_u32(nav__hash64 *h, uint32_t value);
void nav__hash64_u64(nav__hash64 *h, uint64_t value);
void nav__hash64_f64(nav__hash64 *h, double value); /* its IEEE 754 bits */

#endif
