/* Binary io: CRC-32, the little-endian writer and the bounds-checked reader.
 *
 * Numbers are encoded byte by byte with shifts, never by copying a native integer, so a file is the
 * same on every machine; floats travel as the bits of their IEEE 754 representation. */
#include "nav/io.h"

#include <string.h>

#include "alloc.h"

/* ---- CRC-32 ---------------------------------------------------------------------------------- */

/* crc32_table[n] is the CRC of the byte n: the classic byte-at-a-time table (Sarwate 1988), as in
 * zlib and the PNG specification's sample code. Generated once and checked in rather than built at
 * run time, which would need a mutable static table. Check: nav_crc32(0, "123456789", 9) is
 * 0xCBF43926 (the test suite asserts it). */
static const uint32_t crc32_table[256] = {
    0x00000000u, 0x77073096u, 0xee0e612cu, 0x990951bau, 0x076dc419u, 0x706af48fu, 0xe963a535u, 0x9e6495a3u,
    0x0edb8832u, 0x79dcb8a4u, 0xe0d5e91eu, 0x97d2d988u, 0x09b64c2bu, 0x7eb17cbdu, 0xe7b82d07u, 0x90bf1d91u,
    0x1db71064u, 0x6ab020f2u, 0xf3b97148u, 0x84be41deu, 0x1adad47du, 0x6ddde4ebu, 0xf4d4b551u, 0x83d385c7u,
    0x136c9856u, 0x646ba8c0u, 0xfd62f97au, 0x8a65c9ecu, 0x14015c4fu, 0x63066cd9u, 0xfa0f3d63u, 0x8d080df5u,
    0x3b6e20c8u, 0x4c69105eu, 0xd56041e4u, 0xa2677172u, 0x3c03e4d1u, 0x4b04d447u, 0xd20d85fdu, 0xa50ab56bu,
    0x35b5a8fau, 0x42b2986cu, 0xdbbbc9d6u, 0xacbcf940u, 0x32d86ce3u, 0x45df5c75u, 0xdcd60dcfu, 0xabd13d59u,
    0x26d930acu, 0x51de003au, 0xc8d75180u, 0xbfd06116u, 0x21b4f4b5u, 0x56b3c423u, 0xcfba9599u, 0xb8bda50fu,
    0x2802b89eu, 0x5f058808u, 0xc60cd9b2u, 0xb10be924u, 0x2f6f7c87u, 0x58684c11u, 0xc1611dabu, 0xb6662d3du,
    0x76dc4190u, 0x01db7106u, 0x98d220bcu, 0xefd5102au, 0x71b18589u, 0x06b6b51fu, 0x9fbfe4a5u, 0xe8b8d433u,
    0x7807c9a2u, 0x0f00f934u, 0x9609a88eu, 0xe10e9818u, 0x7f6a0dbbu, 0x086d3d2du, 0x91646c97u, 0xe6635c01u,
    0x6b6b51f4u, 0x1c6c6162u, 0x856530d8u, 0xf262004eu, 0x6c0695edu, 0x1b01a57bu, 0x8208f4c1u, 0xf50fc457u,
    0x65b0d9c6u, 0x12b7e950u, 0x8bbeb8eau, 0xfcb9887cu, 0x62dd1ddfu, 0x15da2d49u, 0x8cd37cf3u, 0xfbd44c65u,
    0x4db26158u, 0x3ab551ceu, 0xa3bc0074u, 0xd4bb30e2u, 0x4adfa541u, 0x3dd895d7u, 0xa4d1c46du, 0xd3d6f4fbu,
    0x4369e96au, 0x346ed9fcu, 0xad678846u, 0xda60b8d0u, 0x44042d73u, 0x33031de5u, 0xaa0a4c5fu, 0xdd0d7cc9u,
    0x5005713cu, 0x270241aau, 0xbe0b1010u, 0xc90c2086u, 0x5768b525u, 0x206f85b3u, 0xb966d409u, 0xce61e49fu,
    0x5edef90eu, 0x29d9c998u, 0xb0d09822u, 0xc7d7a8b4u, 0x59b33d17u, 0x2eb40d81u, 0xb7bd5c3bu, 0xc0ba6cadu,
    0xedb88320u, 0x9abfb3b6u, 0x03b6e20cu, 0x74b1d29au, 0xead54739u, 0x9dd277afu, 0x04db2615u, 0x73dc1683u,
    0xe3630b12u, 0x94643b84u, 0x0d6d6a3eu, 0x7a6a5aa8u, 0xe40ecf0bu, 0x9309ff9du, 0x0a00ae27u, 0x7d079eb1u,
    0xf00f9344u, 0x8708a3d2u, 0x1e01f268u, 0x6906c2feu, 0xf762575du, 0x806567cbu, 0x196c3671u, 0x6e6b06e7u,
    0xfed41b76u, 0x89d32be0u, 0x10da7a5au, 0x67dd4accu, 0xf9b9df6fu, 0x8ebeeff9u, 0x17b7be43u, 0x60b08ed5u,
    0xd6d6a3e8u, 0xa1d1937eu, 0x38d8c2c4u, 0x4fdff252u, 0xd1bb67f1u, 0xa6bc5767u, 0x3fb506ddu, 0x48b2364bu,
    0xd80d2bdau, 0xaf0a1b4cu, 0x36034af6u, 0x41047a60u, 0xdf60efc3u, 0xa867df55u, 0x316e8eefu, 0x4669be79u,
    0xcb61b38cu, 0xbc66831au, 0x256fd2a0u, 0x5268e236u, 0xcc0c7795u, 0xbb0b4703u, 0x220216b9u, 0x5505262fu,
    0xc5ba3bbeu, 0xb2bd0b28u, 0x2bb45a92u, 0x5cb36a04u, 0xc2d7ffa7u, 0xb5d0cf31u, 0x2cd99e8bu, 0x5bdeae1du,
    0x9b64c2b0u, 0xec63f226u, 0x756aa39cu, 0x026d930au, 0x9c0906a9u, 0xeb0e363fu, 0x72076785u, 0x05005713u,
    0x95bf4a82u, 0xe2b87a14u, 0x7bb12baeu, 0x0cb61b38u, 0x92d28e9bu, 0xe5d5be0du, 0x7cdcefb7u, 0x0bdbdf21u,
    0x86d3d2d4u, 0xf1d4e242u, 0x68ddb3f8u, 0x1fda836eu, 0x81be16cdu, 0xf6b9265bu, 0x6fb077e1u, 0x18b74777u,
    0x88085ae6u, 0xff0f6a70u, 0x66063bcau, 0x11010b5cu, 0x8f659effu, 0xf862ae69u, 0x616bffd3u, 0x166ccf45u,
    0xa00ae278u, 0xd70dd2eeu, 0x4e048354u, 0x3903b3c2u, 0xa7672661u, 0xd06016f7u, 0x4969474du, 0x3e6e77dbu,
    0xaed16a4au, 0xd9d65adcu, 0x40df0b66u, 0x37d83bf0u, 0xa9bcae53u, 0xdebb9ec5u, 0x47b2cf7fu, 0x30b5ffe9u,
    0xbdbdf21cu, 0xcabac28au, 0x53b39330u, 0x24b4a3a6u, 0xbad03605u, 0xcdd70693u, 0x54de5729u, 0x23d967bfu,
    0xb3667a2eu, 0xc4614ab8u, 0x5d681b02u, 0x2a6f2b94u, 0xb40bbe37u, 0xc30c8ea1u, 0x5a05df1bu, 0x2d02ef8du};

/* Long inputs go 8 bytes a step ("slicing by 8", Kounavis and Berry 2005): t[k][n] is the CRC
 * of byte n followed by k zero bytes, so the eight bytes of a step are looked up at once, not one
 * after another. The seven further tables are made on the stack when a call is long enough to
 * repay their 2048 steps (no mutable static state), which a whole .nav file always is: about 5x
 * faster than a byte at a time. */
#define CRC_SLICE_MIN 65536

static uint32_t crc_slices(uint32_t crc, const uint8_t *p, size_t size)
{
    uint32_t t[8][256];
    memcpy(t[0], crc32_table, sizeof t[0]);
    for (int k = 1; k < 8; k++)
        for (int n = 0; n < 256; n++) t[k][n] = crc32_table[t[k - 1][n] & 0xffu] ^ (t[k - 1][n] >> 8);
    for (; size >= 8; size -= 8, p += 8) {
        uint32_t lo =
            crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
        uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
        crc = t[7][lo & 0xffu] ^ t[6][(lo >> 8) & 0xffu] ^ t[5][(lo >> 16) & 0xffu] ^ t[4][lo >> 24] ^
              t[3][hi & 0xffu] ^ t[2][(hi >> 8) & 0xffu] ^ t[1][(hi >> 16) & 0xffu] ^ t[0][hi >> 24];
    }
    for (size_t i = 0; i < size; i++) crc = crc32_table[(crc ^ p[i]) & 0xffu] ^ (crc >> 8);
    return crc;
}

uint32_t nav_crc32(uint32_t crc, const void *data, size_t size)
{
    const uint8_t *p = data;
    crc = ~crc;
    if (size >= CRC_SLICE_MIN) return ~crc_slices(crc, p, size);
    for (size_t i = 0; i < size; i++) crc = crc32_table[(crc ^ p[i]) & 0xffu] ^ (crc >> 8);
    return ~crc;
}

/* ---- Writer ---------------------------------------------------------------------------------- */

void nav_writer_init(nav_writer *w, const nav_allocator *allocator)
{
    *w = (nav_writer){.status = NAV_SUCCESS};
    nav__allocator_resolve(&w->allocator, allocator);
}

void nav_writer_destroy(nav_writer *w)
{
    nav__free(&w->allocator, w->data);
    w->data = NULL;
    w->size = w->capacity = 0;
    w->status = NAV_SUCCESS;
}

nav_status nav_writer_reserve(nav_writer *w, size_t extra)
{
    if (nav_failed(w->status)) return w->status;
    if (extra <= w->capacity - w->size) return NAV_SUCCESS;
    if (extra > SIZE_MAX / 2 - w->size) {
        w->status = NAV_FAILURE | NAV_OUT_OF_MEMORY;
        return w->status;
    }
    /* Doubling keeps a long run of small puts linear in time. */
    size_t need = w->size + extra, capacity = w->capacity < 64 ? 64 : w->capacity;
    while (capacity < need) capacity *= 2;
    uint8_t *grown = nav__realloc(&w->allocator, w->data, w->capacity, capacity);
    if (!grown) {
        w->status = NAV_FAILURE | NAV_OUT_OF_MEMORY; /* the old buffer stays owned by the writer */
        return w->status;
    }
    w->data = grown;
    w->capacity = capacity;
    return NAV_SUCCESS;
}

/* Room for size more bytes, or null (with status failed) when there is none. */
static uint8_t *writer_claim(nav_writer *w, size_t size)
{
    if (nav_failed(nav_writer_reserve(w, size))) return NULL;
    uint8_t *p = w->data + w->size;
    w->size += size;
    return p;
}

static void store_le(uint8_t *p, uint64_t value, int bytes)
{
    for (int i = 0; i < bytes; i++) p[i] = (uint8_t)(value >> (8 * i));
}

static void writer_put_le(nav_writer *w, uint64_t value, int bytes)
{
    uint8_t *p = writer_claim(w, (size_t)bytes);
    if (p) store_le(p, value, bytes);
}

void nav_writer_put_u8(nav_writer *w, uint8_t value)
{
    writer_put_le(w, value, 1);
}

void nav_writer_put_u16(nav_writer *w, uint16_t value)
{
    writer_put_le(w, value, 2);
}

void nav_writer_put_u32(nav_writer *w, uint32_t value)
{
    writer_put_le(w, value, 4);
}

void nav_writer_put_u64(nav_writer *w, uint64_t value)
{
    writer_put_le(w, value, 8);
}

void nav_writer_put_i32(nav_writer *w, int32_t value)
{
    writer_put_le(w, (uint32_t)value, 4); /* conversion to unsigned is modular: two's complement */
}

void nav_writer_put_f32(nav_writer *w, float value)
{
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits); /* the float's bit pattern, then explicit byte order */
    writer_put_le(w, bits, 4);
}

void nav_writer_put_f64(nav_writer *w, double value)
{
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    writer_put_le(w, bits, 8);
}

void nav_writer_put_bytes(nav_writer *w, const void *data, size_t size)
{
    if (size == 0) return;
    uint8_t *p = writer_claim(w, size);
    if (p) memcpy(p, data, size);
}

void nav_writer_align(nav_writer *w, size_t alignment)
{
    if (alignment < 2) return;
    size_t pad = (alignment - w->size % alignment) % alignment;
    if (pad == 0) return; /* nothing to claim (and an empty writer has no buffer to point into) */
    uint8_t *p = writer_claim(w, pad);
    if (p) memset(p, 0, pad);
}

void nav_writer_patch_u32(nav_writer *w, size_t offset, uint32_t value)
{
    if (nav_failed(w->status)) return;
    if (offset > w->size || w->size - offset < 4) {
        w->status = NAV_FAILURE | NAV_INVALID_PARAM;
        return;
    }
    store_le(w->data + offset, value, 4);
}

/* ---- Reader ---------------------------------------------------------------------------------- */

void nav_reader_init(nav_reader *r, const void *data, size_t size)
{
    *r = (nav_reader){.data = data, .size = data ? size : 0, .status = NAV_SUCCESS};
}

size_t nav_reader_remaining(const nav_reader *r)
{
    return nav_failed(r->status) ? 0 : r->size - r->pos;
}

void nav_reader_fail(nav_reader *r)
{
    if (!nav_failed(r->status)) r->status = NAV_FAILURE | NAV_CORRUPT_DATA;
}

/* What a reader over no buffer gives for a read of 0 bytes: it has no address of its own. */
static const uint8_t no_bytes[1] = {0};

/* The next size bytes, or null (with the reader failed) when fewer remain. */
static const uint8_t *reader_take(nav_reader *r, size_t size)
{
    if (nav_failed(r->status)) return NULL;
    if (size > r->size - r->pos) {
        nav_reader_fail(r);
        return NULL;
    }
    if (!r->data) return no_bytes; /* size is 0 here: null + 0 is not valid C */
    const uint8_t *p = r->data + r->pos;
    r->pos += size;
    return p;
}

static uint64_t reader_get_le(nav_reader *r, int bytes)
{
    const uint8_t *p = reader_take(r, (size_t)bytes);
    if (!p) return 0;
    uint64_t value = 0;
    for (int i = 0; i < bytes; i++) value |= (uint64_t)p[i] << (8 * i);
    return value;
}

uint8_t nav_reader_get_u8(nav_reader *r)
{
    return (uint8_t)reader_get_le(r, 1);
}

uint16_t nav_reader_get_u16(nav_reader *r)
{
    return (uint16_t)reader_get_le(r, 2);
}

uint32_t nav_reader_get_u32(nav_reader *r)
{
    return (uint32_t)reader_get_le(r, 4);
}

uint64_t nav_reader_get_u64(nav_reader *r)
{
    return reader_get_le(r, 8);
}

int32_t nav_reader_get_i32(nav_reader *r)
{
    uint32_t bits = nav_reader_get_u32(r);
    /* Unsigned to signed conversion of values over INT32_MAX is implementation-defined; this is
     * exact everywhere. */
    return bits <= INT32_MAX ? (int32_t)bits : (int32_t)(bits - 0x80000000u) - INT32_MAX - 1;
}

float nav_reader_get_f32(nav_reader *r)
{
    uint32_t bits = nav_reader_get_u32(r);
    float value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

double nav_reader_get_f64(nav_reader *r)
{
    uint64_t bits = nav_reader_get_u64(r);
    double value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

const void *nav_reader_bytes(nav_reader *r, size_t size)
{
    return reader_take(r, size);
}

void nav_reader_skip(nav_reader *r, size_t size)
{
    reader_take(r, size);
}

void nav_reader_align(nav_reader *r, size_t alignment)
{
    if (alignment < 2 || nav_failed(r->status)) return;
    size_t pad = (alignment - r->pos % alignment) % alignment;
    const uint8_t *p = reader_take(r, pad);
    if (!p) return;
    for (size_t i = 0; i < pad; i++)
        if (p[i] != 0) nav_reader_fail(r);
}

uint32_t nav_reader_array(nav_reader *r, size_t elem_size)
{
    uint32_t count = nav_reader_get_u32(r);
    if (nav_failed(r->status)) return 0;
    /* count * elem_size <= remaining, asked as a division so that it cannot overflow. */
    if (elem_size != 0 && count > (r->size - r->pos) / elem_size) {
        nav_reader_fail(r);
        return 0;
    }
    return count;
}
