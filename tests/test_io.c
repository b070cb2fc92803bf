/* io: CRC-32, writer and reader, the .nav container, the GRID chunk and .nav files. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support.h"

#include "nav/grid.h"
#include "nav/hpa.h"
#include "nav/io.h"
#include "nav/scen.h"

/* ---- helpers --------------------------------------------------------------------------------- */

static uint32_t f32_bits(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
}

static uint64_t f64_bits(double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}

static void store_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void store_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t load_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Recomputes the header CRC of a container image after a test edited its header or table. */
static void fix_header_crc(uint8_t *file)
{
    uint32_t count = load_u32(file + 12);
    uint32_t crc = nav_crc32(0, file, 28);
    crc = nav_crc32(crc, file + 32, (size_t)count * 32);
    store_u32(file + 28, crc);
}

/* A container of three chunks (sizes 5, 0 and 40) in w; chunk data stays valid in static storage. */
static const uint8_t chunk_a[5] = {1, 2, 3, 4, 5};
static uint8_t chunk_c[40];

static void write_three(nav_writer *w)
{
    for (int i = 0; i < 40; i++) chunk_c[i] = (uint8_t)(i * 7 + 1);
    nav_chunk chunks[3] = {
        {NAV_TAG('A', 'A', 'A', 'A'), 1, chunk_a, sizeof chunk_a},
        {NAV_TAG('E', 'M', 'T', 'Y'), 2, NULL, 0},
        {NAV_TAG('C', 'C', 'C', 'C'), 3, chunk_c, sizeof chunk_c},
    };
    nav_writer_init(w, NULL);
    assert_int_equal(nav_container_write(w, chunks, 3), NAV_SUCCESS);
}

/* A grid that uses every option: several terrain costs, a blocked type, heights with climbs. */
static nav_grid *make_grid(void)
{
    nav_grid *grid;
    nav_grid_desc desc = {.width = 13,
                          .height = 9,
                          .connectivity = NAV_CONNECT_8,
                          .corner_policy = NAV_CORNER_CUT_IF_ONE_FREE,
                          .max_climb = 1.5f,
                          .diagonal_cost = 1.5,
                          .cell_size = 0.5f,
                          .origin = {1, -2, 3}};
    assert_int_equal(nav_grid_create(&desc, &grid), NAV_SUCCESS);
    assert_int_equal(nav_grid_set_terrain_cost(grid, 2, 2.0), NAV_SUCCESS);
    assert_int_equal(nav_grid_set_terrain_cost(grid, 3, 5.0), NAV_SUCCESS);
    assert_int_equal(nav_grid_set_terrain_cost(grid, 4, 10.0), NAV_SUCCESS);
    assert_int_equal(nav_grid_set_terrain_cost(grid, 7, NAV_COST_BLOCKED), NAV_SUCCESS);
    assert_int_equal(nav_grid_set_terrain_cost(grid, 200, 0.25), NAV_SUCCESS);
    for (int32_t y = 0; y < 9; y++) {
        for (int32_t x = 0; x < 13; x++) {
            static const uint8_t types[] = {1, 2, 3, 4, 0, 7, 200, 1, 1};
            assert_int_equal(nav_grid_set_cell(grid, x, y, types[(x * 3 + y * 5) % 9]), NAV_SUCCESS);
            assert_int_equal(nav_grid_set_cell_height(grid, x, y, (float)((x * 7 + y * 3) % 5) - 1.25f),
                             NAV_SUCCESS);
        }
    }
    assert_int_equal(nav_grid_build_reachability(grid), NAV_SUCCESS);
    return grid;
}

static void assert_grids_equal(const nav_grid *a, const nav_grid *b)
{
    assert_int_equal(nav_grid_width(a), nav_grid_width(b));
    assert_int_equal(nav_grid_height(a), nav_grid_height(b));
    const nav_grid_desc *da = nav_grid_get_desc(a), *db = nav_grid_get_desc(b);
    assert_int_equal(da->connectivity, db->connectivity);
    assert_int_equal(da->corner_policy, db->corner_policy);
    assert_int_equal(f32_bits(da->max_climb), f32_bits(db->max_climb));
    assert_int_equal(f64_bits(da->diagonal_cost), f64_bits(db->diagonal_cost));
    assert_int_equal(f32_bits(da->cell_size), f32_bits(db->cell_size));
    assert_memory_equal(&da->origin, &db->origin, sizeof da->origin);
    for (int t = 0; t < NAV_TERRAIN_TYPES; t++)
        assert_int_equal(f64_bits(nav_grid_terrain_cost(a, (uint8_t)t)),
                         f64_bits(nav_grid_terrain_cost(b, (uint8_t)t)));
    assert_true(nav_grid_min_cost(a) == nav_grid_min_cost(b));
    assert_true(nav_grid_has_reachability(b));
    for (int32_t y = 0; y < nav_grid_height(a); y++) {
        for (int32_t x = 0; x < nav_grid_width(a); x++) {
            assert_int_equal(nav_grid_cell(a, x, y), nav_grid_cell(b, x, y));
            assert_int_equal(f32_bits(nav_grid_cell_height(a, x, y)),
                             f32_bits(nav_grid_cell_height(b, x, y)));
            assert_int_equal(nav_grid_moves(a, x, y), nav_grid_moves(b, x, y));
            assert_int_equal(nav_grid_component(a, x, y), nav_grid_component(b, x, y));
        }
    }
}

/* ---- CRC-32 ---------------------------------------------------------------------------------- */

static void test_crc32(void **state)
{
    (void)state;
    assert_int_equal(nav_crc32(0, "123456789", 9), 0xCBF43926u);
    assert_int_equal(nav_crc32(0, "", 0), 0);
    assert_int_equal(nav_crc32(0, NULL, 0), 0);
    const char *fox = "The quick brown fox jumps over the lazy dog";
    size_t n = strlen(fox);
    assert_int_equal(nav_crc32(0, fox, n), 0x414FA339u);
    for (size_t cut = 0; cut <= n; cut++)
        assert_int_equal(nav_crc32(nav_crc32(0, fox, cut), fox + cut, n - cut), 0x414FA339u);
    uint8_t zeros[32] = {0};
    assert_int_equal(nav_crc32(0, zeros, sizeof zeros), 0x190A55ADu);
}

/* The CRC of a bit at a time, straight from the polynomial: the yardstick for long inputs, which
 * nav_crc32 takes 8 bytes a step. */
static uint32_t crc32_bitwise(uint32_t crc, const uint8_t *p, size_t size)
{
    crc = ~crc;
    for (size_t i = 0; i < size; i++) {
        crc ^= p[i];
        for (int b = 0; b < 8; b++) crc = crc & 1 ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
    }
    return ~crc;
}

static void test_crc32_long(void **state)
{
    (void)state;
    size_t n = 300007;
    uint8_t *bytes = malloc(n);
    assert_non_null(bytes);
    uint32_t x = 12345;
    for (size_t i = 0; i < n; i++) bytes[i] = (uint8_t)((x = x * 1103515245u + 12345u) >> 16);
    uint32_t whole = crc32_bitwise(0, bytes, n);
    assert_int_equal(nav_crc32(0, bytes, n), whole);
    /* lengths about the switch to 8 bytes a step, at every alignment, and split anywhere */
    for (size_t len = 65530; len < 65550; len++)
        for (size_t at = 0; at < 8; at++)
            assert_int_equal(nav_crc32(0, bytes + at, len), crc32_bitwise(0, bytes + at, len));
    size_t cuts[] = {1, 7, 65535, 65536, 100000, 234567};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++)
        assert_int_equal(nav_crc32(nav_crc32(0, bytes, cuts[i]), bytes + cuts[i], n - cuts[i]), whole);
    free(bytes);
}

/* ---- writer and reader ----------------------------------------------------------------------- */

static void test_writer_reader_round_trip(void **state)
{
    (void)state;
    nav_writer w;
    nav_writer_init(&w, NULL);
    nav_writer_put_u32(&w, 0x01020304u);
    assert_int_equal(w.size, 4);
    const uint8_t le[4] = {4, 3, 2, 1}; /* little-endian whatever the machine */
    assert_memory_equal(w.data, le, 4);

    nav_writer_put_u8(&w, 0xfe);
    nav_writer_put_u16(&w, 0xbeef);
    nav_writer_put_u64(&w, 0x0123456789abcdefull);
    nav_writer_put_i32(&w, -1);
    nav_writer_put_i32(&w, INT32_MIN);
    nav_writer_put_i32(&w, -123456);
    nav_writer_put_i32(&w, INT32_MAX);
    nav_writer_put_f32(&w, -0.0f);
    nav_writer_put_f32(&w, INFINITY);
    nav_writer_put_f32(&w, -INFINITY);
    uint32_t nan_bits = 0x7fc12345u; /* a quiet NaN with a payload: kept bit for bit */
    float nan32;
    memcpy(&nan32, &nan_bits, sizeof nan32);
    nav_writer_put_f32(&w, nan32);
    nav_writer_put_f32(&w, 3.25f);
    nav_writer_put_f64(&w, -1e300);
    nav_writer_put_f64(&w, NAN);
    nav_writer_put_f64(&w, -INFINITY);
    nav_writer_put_f64(&w, 0.1);
    nav_writer_put_bytes(&w, "xyz", 3);
    nav_writer_put_bytes(&w, NULL, 0);
    assert_int_equal(w.status, NAV_SUCCESS);
    assert_int_equal(w.size, 4 + 1 + 2 + 8 + 16 + 20 + 32 + 3);
    const uint8_t i32_minus_one[4] = {0xff, 0xff, 0xff, 0xff};
    assert_memory_equal(w.data + 15, i32_minus_one, 4);

    nav_reader r;
    nav_reader_init(&r, w.data, w.size);
    assert_int_equal(nav_reader_get_u32(&r), 0x01020304u);
    assert_int_equal(nav_reader_get_u8(&r), 0xfe);
    assert_int_equal(nav_reader_get_u16(&r), 0xbeef);
    assert_true(nav_reader_get_u64(&r) == 0x0123456789abcdefull);
    assert_int_equal(nav_reader_get_i32(&r), -1);
    assert_int_equal(nav_reader_get_i32(&r), INT32_MIN);
    assert_int_equal(nav_reader_get_i32(&r), -123456);
    assert_int_equal(nav_reader_get_i32(&r), INT32_MAX);
    float z = nav_reader_get_f32(&r);
    assert_true(z == 0 && signbit(z));
    assert_true(nav_reader_get_f32(&r) == INFINITY);
    assert_true(nav_reader_get_f32(&r) == -INFINITY);
    assert_int_equal(f32_bits(nav_reader_get_f32(&r)), nan_bits);
    assert_true(nav_reader_get_f32(&r) == 3.25f);
    assert_true(nav_reader_get_f64(&r) == -1e300);
    assert_true(isnan(nav_reader_get_f64(&r)));
    assert_true(nav_reader_get_f64(&r) == -INFINITY);
    assert_true(nav_reader_get_f64(&r) == 0.1);
    const char *xyz = nav_reader_bytes(&r, 3);
    assert_non_null(xyz);
    assert_memory_equal(xyz, "xyz", 3);
    assert_int_equal(nav_reader_remaining(&r), 0);
    assert_non_null(nav_reader_bytes(&r, 0));
    assert_int_equal(r.status, NAV_SUCCESS);
    nav_writer_destroy(&w);
    assert_null(w.data);

    /* A reader over nothing: reads of 0 bytes work, anything else fails. */
    nav_reader_init(&r, NULL, 0);
    assert_non_null(nav_reader_bytes(&r, 0));
    assert_int_equal(r.status, NAV_SUCCESS);
    assert_int_equal(nav_reader_get_u8(&r), 0);
    assert_int_equal(r.status, NAV_FAILURE | NAV_CORRUPT_DATA);
}

static void test_writer_align_and_patch(void **state)
{
    (void)state;
    nav_writer w;
    nav_writer_init(&w, NULL);
    nav_writer_put_u8(&w, 0xaa);
    nav_writer_align(&w, 8);
    assert_int_equal(w.size, 8);
    for (int i = 1; i < 8; i++) assert_int_equal(w.data[i], 0);
    nav_writer_align(&w, 8); /* already aligned: nothing */
    nav_writer_align(&w, 1);
    nav_writer_align(&w, 0);
    assert_int_equal(w.size, 8);
    nav_writer_put_u32(&w, 0);
    nav_writer_patch_u32(&w, 8, 0xdeadbeefu);
    nav_reader r;
    nav_reader_init(&r, w.data, w.size);
    assert_int_equal(nav_reader_get_u8(&r), 0xaa);
    nav_reader_align(&r, 8);
    assert_int_equal(r.pos, 8);
    assert_int_equal(nav_reader_get_u32(&r), 0xdeadbeefu);
    assert_int_equal(r.status, NAV_SUCCESS);

    /* Reader alignment checks the padding is zero. */
    w.data[3] = 1;
    nav_reader_init(&r, w.data, w.size);
    nav_reader_skip(&r, 1);
    nav_reader_align(&r, 8);
    assert_int_equal(r.status, NAV_FAILURE | NAV_CORRUPT_DATA);

    /* A patch past the end is a caller error, and sticky. */
    nav_writer_patch_u32(&w, 9, 1);
    assert_int_equal(w.status, NAV_FAILURE | NAV_INVALID_PARAM);
    nav_writer_put_u8(&w, 1);
    assert_int_equal(w.size, 12);
    nav_writer_destroy(&w);
}

static void test_reader_overrun_is_sticky(void **state)
{
    (void)state;
    const uint8_t bytes[7] = {1, 2, 3, 4, 5, 6, 7};
    nav_reader r;
    nav_reader_init(&r, bytes, sizeof bytes);
    assert_int_equal(nav_reader_get_u32(&r), 0x04030201u);
    assert_int_equal(nav_reader_get_u32(&r), 0); /* 3 bytes left: overrun */
    assert_int_equal(r.status, NAV_FAILURE | NAV_CORRUPT_DATA);
    /* Three bytes remain in the buffer, but after a failure nothing is read any more. */
    assert_int_equal(nav_reader_get_u8(&r), 0);
    assert_int_equal(nav_reader_get_u16(&r), 0);
    assert_int_equal(nav_reader_get_i32(&r), 0);
    assert_true(nav_reader_get_f64(&r) == 0);
    assert_null(nav_reader_bytes(&r, 0));
    assert_null(nav_reader_bytes(&r, 1));
    assert_int_equal(nav_reader_remaining(&r), 0);
    assert_int_equal(r.status, NAV_FAILURE | NAV_CORRUPT_DATA);

    nav_reader_init(&r, bytes, sizeof bytes);
    assert_null(nav_reader_bytes(&r, 8));
    assert_int_equal(r.status, NAV_FAILURE | NAV_CORRUPT_DATA);
    nav_reader_init(&r, bytes, sizeof bytes);
    nav_reader_skip(&r, SIZE_MAX);
    assert_int_equal(r.status, NAV_FAILURE | NAV_CORRUPT_DATA);
    nav_reader_init(&r, bytes, sizeof bytes);
    nav_reader_fail(&r);
    assert_int_equal(nav_reader_get_u8(&r), 0);
    assert_int_equal(r.status, NAV_FAILURE | NAV_CORRUPT_DATA);
}

static void test_reader_array(void **state)
{
    (void)state;
    uint8_t bytes[4 + 24];
    memset(bytes, 0, sizeof bytes);
    nav_reader r;

    store_u32(bytes, 3); /* 3 x 8 bytes: exactly what remains */
    nav_reader_init(&r, bytes, sizeof bytes);
    assert_int_equal(nav_reader_array(&r, 8), 3);
    assert_int_equal(r.status, NAV_SUCCESS);
    assert_int_equal(nav_reader_remaining(&r), 24);

    store_u32(bytes, 4); /* one element too many */
    nav_reader_init(&r, bytes, sizeof bytes);
    assert_int_equal(nav_reader_array(&r, 8), 0);
    assert_int_equal(r.status, NAV_FAILURE | NAV_CORRUPT_DATA);

    /* count * elem_size wraps around to a small number in size_t: must still fail. */
    store_u32(bytes, 0x80000000u);
    nav_reader_init(&r, bytes, sizeof bytes);
    assert_int_equal(nav_reader_array(&r, SIZE_MAX / 0x40000000u), 0);
    assert_int_equal(r.status, NAV_FAILURE | NAV_CORRUPT_DATA);
    store_u32(bytes, UINT32_MAX);
    nav_reader_init(&r, bytes, sizeof bytes);
    assert_int_equal(nav_reader_array(&r, SIZE_MAX), 0);
    assert_int_equal(r.status, NAV_FAILURE | NAV_CORRUPT_DATA);

    store_u32(bytes, 0); /* empty arrays are fine */
    nav_reader_init(&r, bytes, sizeof bytes);
    assert_int_equal(nav_reader_array(&r, 1000), 0);
    assert_int_equal(r.status, NAV_SUCCESS);

    nav_reader_init(&r, bytes, 3); /* no room for the count itself */
    assert_int_equal(nav_reader_array(&r, 1), 0);
    assert_int_equal(r.status, NAV_FAILURE | NAV_CORRUPT_DATA);
}

static void test_writer_out_of_memory(void **state)
{
    (void)state;
    for (long fail_at = 1; fail_at <= 6; fail_at++) {
        test_allocator t;
        test_allocator_init(&t, fail_at);
        nav_writer w;
        nav_writer_init(&w, &t.hooks);
        size_t good = 0;
        for (uint32_t i = 0; i < 10000; i++) {
            nav_writer_put_u32(&w, i);
            if (w.status == NAV_SUCCESS) good = w.size;
        }
        assert_int_equal(w.status, NAV_FAILURE | NAV_OUT_OF_MEMORY);
        assert_int_equal(w.size, good); /* nothing written after the failure */
        for (size_t i = 0; i < good / 4; i++) assert_int_equal(load_u32(w.data + 4 * i), i); /* intact */
        nav_writer_put_u8(&w, 1);
        nav_writer_put_bytes(&w, "abc", 3);
        nav_writer_align(&w, 64);
        nav_writer_patch_u32(&w, 0, 7);
        assert_int_equal(nav_writer_reserve(&w, 1), NAV_FAILURE | NAV_OUT_OF_MEMORY);
        assert_int_equal(w.size, good);
        assert_int_equal(w.status, NAV_FAILURE | NAV_OUT_OF_MEMORY);
        nav_writer_destroy(&w);
        assert_int_equal(t.live, 0);
    }
    /* An impossible size fails cleanly instead of wrapping. */
    nav_writer w;
    nav_writer_init(&w, NULL);
    nav_writer_put_u8(&w, 1);
    assert_int_equal(nav_writer_reserve(&w, SIZE_MAX), NAV_FAILURE | NAV_OUT_OF_MEMORY);
    nav_writer_destroy(&w);
}

/* ---- container ------------------------------------------------------------------------------- */

static void test_container_round_trip(void **state)
{
    (void)state;
    nav_writer w;
    write_three(&w);
    /* header 32 + table 96, then A at 128 (5 bytes), the empty chunk at 144, C at 144 (40 bytes) */
    assert_int_equal(w.size, 184);
    assert_memory_equal(w.data, "NAVF", 4);

    nav_container c;
    test_log log;
    test_log_init(&log);
    assert_int_equal(nav_container_open(w.data, w.size, &log.hooks, &c), NAV_SUCCESS);
    assert_int_equal(log.count, 0);
    assert_int_equal(c.count, 3);
    assert_int_equal(c.version, NAV_CONTAINER_VERSION);
    assert_ptr_equal(c.data, w.data);

    const nav_chunk *a = nav_container_find(&c, NAV_TAG('A', 'A', 'A', 'A'));
    const nav_chunk *e = nav_container_find(&c, NAV_TAG('E', 'M', 'T', 'Y'));
    const nav_chunk *cc = nav_container_find(&c, NAV_TAG('C', 'C', 'C', 'C'));
    assert_non_null(a);
    assert_non_null(e);
    assert_non_null(cc);
    assert_null(nav_container_find(&c, NAV_TAG('G', 'R', 'I', 'D')));
    assert_null(nav_container_find(NULL, 0));
    assert_int_equal(a->version, 1);
    assert_int_equal(e->version, 2);
    assert_int_equal(cc->version, 3);
    assert_int_equal(a->size, 5);
    assert_int_equal(e->size, 0);
    assert_int_equal(cc->size, 40);
    assert_memory_equal(a->data, chunk_a, 5);
    assert_memory_equal(cc->data, chunk_c, 40);
    /* Views into the buffer, at 16-byte offsets. */
    assert_int_equal((const uint8_t *)a->data - w.data, 128);
    assert_int_equal((const uint8_t *)cc->data - w.data, 144);

    /* An empty container is valid too. */
    nav_writer empty;
    nav_writer_init(&empty, NULL);
    assert_int_equal(nav_container_write(&empty, NULL, 0), NAV_SUCCESS);
    assert_int_equal(empty.size, 32);
    assert_int_equal(nav_container_open(empty.data, empty.size, NULL, &c), NAV_SUCCESS);
    assert_int_equal(c.count, 0);
    nav_writer_destroy(&empty);
    nav_writer_destroy(&w);
}

static void test_container_write_rejects(void **state)
{
    (void)state;
    nav_writer w;
    nav_writer_init(&w, NULL);
    static nav_chunk many[NAV_CONTAINER_MAX_CHUNKS + 1];
    assert_int_equal(nav_container_write(&w, many, NAV_CONTAINER_MAX_CHUNKS + 1),
                     NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_container_write(&w, NULL, 1), NAV_FAILURE | NAV_INVALID_PARAM);
    nav_chunk no_data = {NAV_TAG('X', 'X', 'X', 'X'), 1, NULL, 4};
    assert_int_equal(nav_container_write(&w, &no_data, 1), NAV_FAILURE | NAV_INVALID_PARAM);
    nav_chunk huge = {NAV_TAG('X', 'X', 'X', 'X'), 1, "x", UINT64_MAX - 8};
    assert_int_equal(nav_container_write(&w, &huge, 1), NAV_FAILURE | NAV_TOO_LARGE);
    assert_int_equal(nav_container_write(NULL, NULL, 0), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(w.size, 0);
    /* 64 chunks is the limit, and fine. */
    for (int i = 0; i < NAV_CONTAINER_MAX_CHUNKS; i++) many[i] = (nav_chunk){(uint32_t)i, 0, "abc", 3};
    assert_int_equal(nav_container_write(&w, many, NAV_CONTAINER_MAX_CHUNKS), NAV_SUCCESS);
    nav_container c;
    assert_int_equal(nav_container_open(w.data, w.size, NULL, &c), NAV_SUCCESS);
    assert_int_equal(c.count, NAV_CONTAINER_MAX_CHUNKS);
    assert_ptr_equal(nav_container_find(&c, 63), &c.chunks[63]);
    nav_writer_destroy(&w);
}

static void test_container_rejects_identity(void **state)
{
    (void)state;
    nav_writer w;
    write_three(&w);
    uint8_t *copy = malloc(w.size);
    nav_container c;
    test_log log;
    test_log_init(&log);

    memcpy(copy, w.data, w.size);
    copy[3] = 'G';
    assert_int_equal(nav_container_open(copy, w.size, &log.hooks, &c), NAV_FAILURE | NAV_CORRUPT_DATA);
    assert_non_null(strstr(log.last, "not a .nav file"));
    assert_int_equal(c.count, 0);

    memcpy(copy, w.data, w.size);
    copy[4] = 2; /* version 2, with a consistent CRC: still refused */
    fix_header_crc(copy);
    assert_int_equal(nav_container_open(copy, w.size, &log.hooks, &c), NAV_FAILURE | NAV_WRONG_VERSION);
    assert_non_null(strstr(log.last, "format version 2"));

    memcpy(copy, w.data, w.size);
    copy[6] = 0xfe; /* the mark a big-endian writer would leave */
    copy[7] = 0xff;
    fix_header_crc(copy);
    assert_int_equal(nav_container_open(copy, w.size, &log.hooks, &c), NAV_FAILURE | NAV_WRONG_VERSION);
    assert_non_null(strstr(log.last, "big-endian"));

    memcpy(copy, w.data, w.size);
    copy[6] = 0x12; /* neither order */
    fix_header_crc(copy);
    assert_int_equal(nav_container_open(copy, w.size, &log.hooks, &c), NAV_FAILURE | NAV_CORRUPT_DATA);

    memcpy(copy, w.data, w.size);
    copy[8] = 64;
    fix_header_crc(copy);
    assert_int_equal(nav_container_open(copy, w.size, &log.hooks, &c), NAV_FAILURE | NAV_WRONG_VERSION);
    assert_non_null(strstr(log.last, "64-bit references"));

    memcpy(copy, w.data, w.size);
    copy[10] = 1; /* reserved, CRC consistent */
    fix_header_crc(copy);
    assert_int_equal(nav_container_open(copy, w.size, &log.hooks, &c), NAV_FAILURE | NAV_CORRUPT_DATA);
    assert_non_null(strstr(log.last, "reserved"));

    assert_int_equal(nav_container_open(NULL, 10, NULL, &c), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_container_open(w.data, w.size, NULL, NULL), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_container_open(NULL, 0, NULL, &c), NAV_FAILURE | NAV_CORRUPT_DATA);
    free(copy);
    nav_writer_destroy(&w);
}

static void test_container_truncations(void **state)
{
    (void)state;
    nav_writer w;
    write_three(&w);
    for (size_t n = 0; n < w.size; n++) {
        /* An exact-size heap copy, so that ASan sees any read past n. */
        uint8_t *cut = malloc(n ? n : 1);
        memcpy(cut, w.data, n);
        nav_container c;
        assert_int_equal(nav_container_open(cut, n, NULL, &c), NAV_FAILURE | NAV_CORRUPT_DATA);
        free(cut);
    }
    /* A byte too many is refused as well. */
    uint8_t *longer = calloc(w.size + 1, 1);
    memcpy(longer, w.data, w.size);
    nav_container c;
    assert_int_equal(nav_container_open(longer, w.size + 1, NULL, &c), NAV_FAILURE | NAV_CORRUPT_DATA);
    free(longer);
    nav_writer_destroy(&w);
}

static void test_container_bit_flips(void **state)
{
    (void)state;
    nav_writer w;
    write_three(&w);
    uint8_t *copy = malloc(w.size);
    int corrupt = 0, wrong_version = 0;
    for (size_t bit = 0; bit < w.size * 8; bit++) {
        memcpy(copy, w.data, w.size);
        copy[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        nav_container c;
        nav_status s = nav_container_open(copy, w.size, NULL, &c);
        if (s == (NAV_FAILURE | NAV_CORRUPT_DATA))
            corrupt++;
        else if (s == (NAV_FAILURE | NAV_WRONG_VERSION))
            wrong_version++;
        else
            fail_msg("flipping bit %zu gave status 0x%x", bit, s);
    }
    /* Only the version, byte order and reference width fields (5 bytes) can say "wrong version". */
    assert_true(wrong_version > 0 && wrong_version <= 40);
    assert_int_equal(corrupt + wrong_version, (int)w.size * 8);
    free(copy);
    nav_writer_destroy(&w);
}

static void test_container_bad_tables(void **state)
{
    (void)state;
    nav_writer w;
    write_three(&w);
    uint8_t *copy = malloc(w.size);
    nav_container c;
    test_log log;
    test_log_init(&log);
    uint8_t *entry_c = copy + 32 + 2 * 32, *entry_a = copy + 32;

    /* Chunk C moved onto chunk A (same CRC of its data would not matter: the layout fails first). */
    memcpy(copy, w.data, w.size);
    store_u64(entry_c + 8, 128);
    fix_header_crc(copy);
    assert_int_equal(nav_container_open(copy, w.size, &log.hooks, &c), NAV_FAILURE | NAV_CORRUPT_DATA);
    assert_non_null(strstr(log.last, "overlaps"));

    /* A grown past the start of C. */
    memcpy(copy, w.data, w.size);
    store_u64(entry_a + 16, 17);
    fix_header_crc(copy);
    assert_int_equal(nav_container_open(copy, w.size, &log.hooks, &c), NAV_FAILURE | NAV_CORRUPT_DATA);
    assert_non_null(strstr(log.last, "overlaps"));

    /* Misaligned offset. */
    memcpy(copy, w.data, w.size);
    store_u64(entry_c + 8, 136);
    fix_header_crc(copy);
    assert_int_equal(nav_container_open(copy, w.size, &log.hooks, &c), NAV_FAILURE | NAV_CORRUPT_DATA);
    assert_non_null(strstr(log.last, "multiple of 16"));

    /* Offset inside the header. */
    memcpy(copy, w.data, w.size);
    store_u64(entry_a + 8, 96);
    fix_header_crc(copy);
    assert_int_equal(nav_container_open(copy, w.size, &log.hooks, &c), NAV_FAILURE | NAV_CORRUPT_DATA);
    assert_non_null(strstr(log.last, "inside the header"));

    /* offset + size wraps around 2^64. */
    memcpy(copy, w.data, w.size);
    store_u64(entry_c + 16, UINT64_MAX - 100);
    fix_header_crc(copy);
    assert_int_equal(nav_container_open(copy, w.size, &log.hooks, &c), NAV_FAILURE | NAV_CORRUPT_DATA);
    assert_non_null(strstr(log.last, "past the end"));
    memcpy(copy, w.data, w.size);
    store_u64(entry_c + 8, UINT64_MAX - 15);
    fix_header_crc(copy);
    assert_int_equal(nav_container_open(copy, w.size, &log.hooks, &c), NAV_FAILURE | NAV_CORRUPT_DATA);

    /* Huge counts: bounded by the size before anything reads the table. 4 entries would still fit
     * in the 184 bytes (then the header CRC, covering the table, catches it); 5 no longer do. */
    memcpy(copy, w.data, w.size);
    store_u32(copy + 12, 4);
    assert_int_equal(nav_container_open(copy, w.size, &log.hooks, &c), NAV_FAILURE | NAV_CORRUPT_DATA);
    assert_non_null(strstr(log.last, "header checksum mismatch"));
    uint32_t counts[] = {5, 1000, 0x08000000u, 0x7fffffffu, 0x80000000u, UINT32_MAX};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        memcpy(copy, w.data, w.size);
        store_u32(copy + 12, counts[i]);
        assert_int_equal(nav_container_open(copy, w.size, &log.hooks, &c), NAV_FAILURE | NAV_CORRUPT_DATA);
        assert_non_null(strstr(log.last, "does not fit"));
    }

    /* Non-zero padding between chunks (not under any CRC, so checked byte by byte). */
    memcpy(copy, w.data, w.size);
    copy[140] = 9;
    assert_int_equal(nav_container_open(copy, w.size, &log.hooks, &c), NAV_FAILURE | NAV_CORRUPT_DATA);
    assert_non_null(strstr(log.last, "padding byte at offset 140"));

    /* Data damage. */
    memcpy(copy, w.data, w.size);
    copy[150] ^= 0x40;
    assert_int_equal(nav_container_open(copy, w.size, &log.hooks, &c), NAV_FAILURE | NAV_CORRUPT_DATA);
    assert_non_null(strstr(log.last, "chunk 2 ('CCCC'): checksum mismatch"));
    free(copy);
    nav_writer_destroy(&w);

    /* More chunks than supported, in an otherwise valid file. */
    size_t n = NAV_CONTAINER_MAX_CHUNKS + 1, size = 32 + 32 * n;
    uint8_t *big = calloc(size, 1);
    memcpy(big, "NAVF", 4);
    big[4] = NAV_CONTAINER_VERSION;
    big[6] = 0xff;
    big[7] = 0xfe;
    big[8] = 32;
    store_u32(big + 12, (uint32_t)n);
    store_u64(big + 16, size);
    for (size_t i = 0; i < n; i++) store_u64(big + 32 + 32 * i + 8, size); /* empty chunks at the end */
    fix_header_crc(big);
    assert_int_equal(nav_container_open(big, size, &log.hooks, &c), NAV_FAILURE | NAV_TOO_LARGE);
    store_u32(big + 12, (uint32_t)n - 1); /* 64 of them is fine (the 65th entry becomes padding... */
    store_u64(big + 16, size);
    fix_header_crc(big);
    /* ...which is not zero: its offset field is set) */
    assert_int_equal(nav_container_open(big, size, &log.hooks, &c), NAV_FAILURE | NAV_CORRUPT_DATA);
    memset(big + 32 + 32 * (n - 1), 0, 32);
    assert_int_equal(nav_container_open(big, size, &log.hooks, &c), NAV_SUCCESS);
    assert_int_equal(c.count, n - 1);
    free(big);
}

/* ---- GRID chunk ------------------------------------------------------------------------------ */

/* Writes grid as a one-chunk container and loads it back through nav_container_open. */
static nav_status grid_via_container(const nav_grid *grid, nav_grid **out)
{
    nav_writer data, file;
    nav_writer_init(&data, NULL);
    assert_int_equal(nav_grid_write_chunk(grid, &data), NAV_SUCCESS);
    nav_chunk chunk = {NAV_CHUNK_GRID, NAV_GRID_CHUNK_VERSION, data.data, data.size};
    nav_writer_init(&file, NULL);
    assert_int_equal(nav_container_write(&file, &chunk, 1), NAV_SUCCESS);
    nav_container c;
    assert_int_equal(nav_container_open(file.data, file.size, NULL, &c), NAV_SUCCESS);
    const nav_chunk *found = nav_container_find(&c, NAV_CHUNK_GRID);
    assert_non_null(found);
    assert_int_equal(found->version, NAV_GRID_CHUNK_VERSION);
    nav_status s = nav_grid_read_chunk(found->data, (size_t)found->size, NULL, out);
    nav_writer_destroy(&file);
    nav_writer_destroy(&data);
    return s;
}

static void test_grid_chunk_round_trip(void **state)
{
    (void)state;
    nav_grid *grid = make_grid(), *loaded;
    assert_int_equal(grid_via_container(grid, &loaded), NAV_SUCCESS);
    assert_grids_equal(grid, loaded);
    /* Spot checks that the grid is as rich as intended. */
    assert_true(nav_grid_terrain_cost(loaded, 7) == INFINITY);
    assert_true(nav_grid_terrain_cost(loaded, 200) == 0.25);
    assert_true(nav_grid_cell_height(loaded, 1, 0) != 0);
    assert_true(nav_grid_get_desc(loaded)->max_climb == 1.5f);
    nav_writer a, b;
    nav_writer_init(&a, NULL);
    nav_writer_init(&b, NULL);
    nav_grid_write_chunk(grid, &a);
    nav_grid_write_chunk(loaded, &b);
    assert_int_equal(a.size, 2088 + 117 + 3 + 4 * 117);
    assert_int_equal(a.size, b.size);
    assert_memory_equal(a.data, b.data, a.size);
    nav_writer_destroy(&a);
    nav_writer_destroy(&b);
    nav_grid_destroy(loaded);
    nav_grid_destroy(grid);

    /* Defaults: 4-connected, unlimited climb, no height layer. */
    assert_int_equal(
        nav_grid_create(&(nav_grid_desc){.width = 5, .height = 1, .connectivity = NAV_CONNECT_4}, &grid),
        NAV_SUCCESS);
    nav_grid_set_cell(grid, 2, 0, NAV_TERRAIN_BLOCKED);
    assert_int_equal(nav_grid_build_reachability(grid), NAV_SUCCESS);
    assert_int_equal(grid_via_container(grid, &loaded), NAV_SUCCESS);
    assert_grids_equal(grid, loaded);
    assert_true(nav_grid_get_desc(loaded)->max_climb == INFINITY);
    assert_int_equal(nav_grid_moves(loaded, 1, 0), 1u << NAV_DIR_W);
    assert_int_equal(nav_grid_may_reach(loaded, 0, 0, 4, 0), false);
    nav_grid_destroy(loaded);
    nav_grid_destroy(grid);
}

/* A loaded grid agrees with itself: writing it back gives the bytes it came from, and no move
 * leads off the map or into a blocked cell. */
static void assert_self_consistent(const nav_grid *grid, const uint8_t *data, size_t size)
{
    nav_writer w;
    nav_writer_init(&w, NULL);
    assert_int_equal(nav_grid_write_chunk(grid, &w), NAV_SUCCESS);
    assert_int_equal(w.size, size);
    assert_memory_equal(w.data, data, size);
    nav_writer_destroy(&w);
    assert_true(nav_grid_has_reachability(grid));
    for (int32_t y = 0; y < nav_grid_height(grid); y++) {
        for (int32_t x = 0; x < nav_grid_width(grid); x++) {
            uint8_t moves = nav_grid_moves(grid, x, y);
            assert_true(isfinite(nav_grid_cell_height(grid, x, y)));
            if (!nav_grid_passable(grid, x, y)) assert_int_equal(moves, 0);
            for (int d = 0; d < 8; d++) {
                if (!(moves >> d & 1)) continue;
                int32_t dx, dy;
                nav_dir_offset((nav_dir)d, &dx, &dy);
                assert_true(nav_grid_passable(grid, x + dx, y + dy));
                assert_true(nav_grid_move_cost(grid, x, y, (nav_dir)d) > 0);
            }
        }
    }
}

/* A reference label partition: union-find over every move, taken either way. */
static uint32_t find_root(uint32_t *parent, uint32_t i)
{
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
}

/* A grid read back from its chunk rebuilds every cell's moves at once (the inner cells of a grid
 * without heights by a faster path) and its labels (on a grid whose moves can all be taken back, by
 * the moves alone): the same moves as the grid made cell by cell, and labels that part the cells as
 * a union-find over the moves does, on random grids of every size, connectivity, corner policy,
 * with and without heights. */
static void test_grid_rebuild_matches(void **state)
{
    (void)state;
    srand(11);
    for (int round = 0; round < 240; round++) {
        int32_t w = 1 + rand() % 19, h = 1 + rand() % 17;
        nav_grid_desc d = {.width = w,
                           .height = h,
                           .connectivity = round % 2 ? NAV_CONNECT_4 : NAV_CONNECT_8,
                           .corner_policy = (nav_corner_policy)(1 + round / 2 % 3),
                           .max_climb = round % 5 == 0 ? 0.5f : 0};
        nav_grid *grid, *loaded;
        assert_int_equal(nav_grid_create(&d, &grid), NAV_SUCCESS);
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++) {
                if (rand() % 4 == 0) nav_grid_set_cell(grid, x, y, NAV_TERRAIN_BLOCKED);
                if (round % 5 == 0 && rand() % 3 == 0)
                    nav_grid_set_cell_height(grid, x, y, (float)(rand() % 3));
            }
        assert_int_equal(grid_via_container(grid, &loaded), NAV_SUCCESS);
        uint32_t n = (uint32_t)w * (uint32_t)h, *parent = malloc(n * sizeof *parent);
        for (uint32_t i = 0; i < n; i++) parent[i] = i;
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++) {
                uint8_t m = nav_grid_moves(loaded, x, y);
                assert_int_equal(m, nav_grid_moves(grid, x, y));
                for (int dir = 0; dir < 8; dir++)
                    if (m >> dir & 1) {
                        static const int dx[8] = {1, -1, 0, 0, 1, 1, -1, -1},
                                         dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
                        int32_t nx = x + dx[dir], ny = y + dy[dir]; /* nav_dir's order */
                        parent[find_root(parent, (uint32_t)(y * w + x))] =
                            find_root(parent, (uint32_t)(ny * w + nx));
                    }
            }
        /* same label exactly when same root: compare every cell with the first cell of its label */
        uint32_t *first = calloc(n + 1, sizeof *first);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t label =
                nav_grid_component(loaded, (int32_t)(i % (uint32_t)w), (int32_t)(i / (uint32_t)w));
            if (!nav_grid_passable(loaded, (int32_t)(i % (uint32_t)w), (int32_t)(i / (uint32_t)w))) {
                assert_int_equal(label, 0);
                continue;
            }
            assert_true(label >= 1 && label <= n);
            if (!first[label]) first[label] = i + 1;
            assert_int_equal(find_root(parent, first[label] - 1), find_root(parent, i));
        }
        for (uint32_t i = 0; i < n; i++) /* and different labels, different roots */
            for (uint32_t j = i + 1; j < n && j < i + 40; j++) {
                uint32_t li = nav_grid_component(loaded, (int32_t)(i % (uint32_t)w),
                                                 (int32_t)(i / (uint32_t)w)),
                         lj = nav_grid_component(loaded, (int32_t)(j % (uint32_t)w),
                                                 (int32_t)(j / (uint32_t)w));
                if (li && lj) assert_int_equal(li == lj, find_root(parent, i) == find_root(parent, j));
            }
        free(first);
        free(parent);
        nav_grid_destroy(grid);
        nav_grid_destroy(loaded);
    }
}

static void test_grid_chunk_corrupt(void **state)
{
    (void)state;
    nav_grid *grid = make_grid();
    nav_writer clean;
    nav_writer_init(&clean, NULL);
    assert_int_equal(nav_grid_write_chunk(grid, &clean), NAV_SUCCESS);
    uint8_t *bad = malloc(clean.size);
    srand(12345);
    int loaded_count = 0, failed_count = 0;
    for (int round = 0; round < 3000; round++) {
        memcpy(bad, clean.data, clean.size);
        int flips = 1 + rand() % 4;
        for (int k = 0; k < flips; k++) {
            /* Half the damage in the 40-byte header, where every byte matters. */
            size_t at = rand() % 2 ? (size_t)rand() % 40 : (size_t)rand() % clean.size;
            bad[at] = rand() % 3 ? (uint8_t)(bad[at] ^ (1u << (rand() % 8))) : (uint8_t)rand();
        }
        /* Through a container with a fresh CRC, so that the grid reader is what must notice. */
        nav_chunk chunk = {NAV_CHUNK_GRID, NAV_GRID_CHUNK_VERSION, bad, clean.size};
        nav_writer file;
        nav_writer_init(&file, NULL);
        assert_int_equal(nav_container_write(&file, &chunk, 1), NAV_SUCCESS);
        nav_container c;
        assert_int_equal(nav_container_open(file.data, file.size, NULL, &c), NAV_SUCCESS);
        nav_grid *loaded = (nav_grid *)&loaded; /* must be overwritten with null on failure */
        nav_status s = nav_grid_read_chunk(c.chunks[0].data, (size_t)c.chunks[0].size, NULL, &loaded);
        if (nav_succeeded(s)) {
            assert_self_consistent(loaded, bad, clean.size);
            nav_grid_destroy(loaded);
            loaded_count++;
        } else {
            assert_int_equal(s, NAV_FAILURE | NAV_CORRUPT_DATA);
            assert_null(loaded);
            failed_count++;
        }
        nav_writer_destroy(&file);
    }
    assert_true(loaded_count > 100 && failed_count > 100); /* both paths really ran */

    /* Targeted damage, each with its message. */
    struct {
        size_t at;
        int bytes;
        uint64_t value;
        const char *message;
    } cases[] = {
        {0, 4, 0, "size 0 x 9"},
        {4, 4, NAV_GRID_MAX_SIDE + 1, "outside"},
        {0, 4, 40000, "outside"},
        {8, 1, 6, "connectivity 6"},
        {9, 1, 0, "corner policy 0"},
        {10, 1, 3, "unknown flags"},
        {11, 1, 1, "unknown flags"},
        {12, 4, 0, "max_climb 0"},
        {12, 4, 0x7fc00000u, "max_climb nan"},
        {16, 4, 0xbf800000u, "cell_size -1"},
        {20, 4, 0x7f800000u, "origin"},
        {32, 8, 0x3ff0000000000001ull - 2, "diagonal_cost"},
        {40, 8, 0x3ff0000000000000ull, "terrain type 0 is not blocked"},
        {48, 8, 0, "terrain type 1 has cost 0"},
        {56, 8, 0xbff0000000000000ull, "terrain type 2 has cost -1"},
        {64, 8, 0x7ff8000000000000ull, "terrain type 3 has cost nan"},
        /* issue 10, item 6: costs outside NAV_COST_MIN..NAV_COST_MAX came through */
        {64, 8, 0x7fe1ccf385ebc8a0ull, "terrain type 3 has cost 1e+308"},
        {64, 8, 1, "terrain type 3 has cost 4.94066e-324"},
        {64, 8, 0x40b0000000000001ull, "terrain type 3 has cost 4096"},
        {2088 + 117, 1, 1, "padding"},
        {2088 + 120 + 4 * 5, 4, 0x7f800000u, "cell (5, 0)"},
    };
    test_log log;
    test_log_init(&log);
    nav_grid_desc options = {.log = &log.hooks};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(bad, clean.data, clean.size);
        for (int k = 0; k < cases[i].bytes; k++) bad[cases[i].at + k] = (uint8_t)(cases[i].value >> (8 * k));
        nav_grid *loaded;
        assert_int_equal(nav_grid_read_chunk(bad, clean.size, &options, &loaded),
                         NAV_FAILURE | NAV_CORRUPT_DATA);
        assert_null(loaded);
        if (!strstr(log.last, cases[i].message)) fail_msg("case %zu: message \"%s\"", i, log.last);
    }
    /* Wrong lengths: every truncation, and a byte too many. */
    for (size_t n = 0; n < clean.size; n++) {
        nav_grid *loaded;
        assert_int_equal(nav_grid_read_chunk(clean.data, n, NULL, &loaded), NAV_FAILURE | NAV_CORRUPT_DATA);
    }
    nav_writer_put_u8(&clean, 0);
    nav_grid *loaded;
    assert_int_equal(nav_grid_read_chunk(clean.data, clean.size, NULL, &loaded),
                     NAV_FAILURE | NAV_CORRUPT_DATA);
    assert_int_equal(nav_grid_read_chunk(NULL, 0, NULL, &loaded), NAV_FAILURE | NAV_CORRUPT_DATA);
    assert_int_equal(nav_grid_read_chunk(NULL, 5, NULL, &loaded), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_grid_read_chunk(clean.data, 5, NULL, NULL), NAV_FAILURE | NAV_INVALID_PARAM);
    free(bad);
    nav_writer_destroy(&clean);
    nav_grid_destroy(grid);
}

static void test_grid_chunk_out_of_memory(void **state)
{
    (void)state;
    nav_grid *grid = make_grid();
    nav_writer clean;
    nav_writer_init(&clean, NULL);
    assert_int_equal(nav_grid_write_chunk(grid, &clean), NAV_SUCCESS);
    long fail_at = 1;
    for (;; fail_at++) {
        test_allocator t;
        test_allocator_init(&t, fail_at);
        nav_grid *loaded;
        nav_status s =
            nav_grid_read_chunk(clean.data, clean.size, &(nav_grid_desc){.allocator = &t.hooks}, &loaded);
        if (nav_succeeded(s)) {
            assert_grids_equal(grid, loaded);
            nav_grid_destroy(loaded);
            assert_int_equal(t.live, 0);
            break;
        }
        assert_int_equal(s, NAV_FAILURE | NAV_OUT_OF_MEMORY);
        assert_null(loaded);
        assert_int_equal(t.live, 0);
    }
    assert_true(fail_at > 3); /* grid, cells, moves, heights, labels: several allocations were tried */

    for (fail_at = 1;; fail_at++) {
        test_allocator t;
        test_allocator_init(&t, fail_at);
        nav_writer w;
        nav_writer_init(&w, &t.hooks);
        nav_status s = nav_grid_write_chunk(grid, &w);
        nav_writer_destroy(&w);
        assert_int_equal(t.live, 0);
        if (nav_succeeded(s)) break;
        assert_int_equal(s, NAV_FAILURE | NAV_OUT_OF_MEMORY);
    }
    nav_writer_destroy(&clean);
    nav_grid_destroy(grid);
}

/* ---- files ----------------------------------------------------------------------------------- */

static bool file_exists(const char *path)
{
    return access(path, F_OK) == 0;
}

static void test_file_save_load(void **state)
{
    (void)state;
    char path[] = "/tmp/nav_test_io_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char tmp[sizeof path + 4];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);

    nav_grid *grid = make_grid(), *loaded;
    assert_int_equal(nav_grid_save_nav(grid, path), NAV_SUCCESS);
    assert_false(file_exists(tmp));
    test_log log;
    test_log_init(&log);
    assert_int_equal(nav_grid_load_nav(path, &(nav_grid_desc){.log = &log.hooks}, &loaded), NAV_SUCCESS);
    assert_int_equal(log.count, 0);
    assert_grids_equal(grid, loaded);
    /* The grid keeps the caller's log, not the loader's file-name wrapper (which is gone now). */
    assert_ptr_equal(nav_grid_get_desc(loaded)->log->fn, log.hooks.fn);
    assert_ptr_equal(nav_grid_get_desc(loaded)->log->user, &log);
    nav_grid_destroy(loaded);

    /* The file is one container with one GRID chunk, aligned. */
    void *bytes;
    size_t size;
    assert_int_equal(nav_file_read_all(path, NULL, &bytes, &size), NAV_SUCCESS);
    nav_container c;
    assert_int_equal(nav_container_open(bytes, size, NULL, &c), NAV_SUCCESS);
    assert_int_equal(c.count, 1);
    assert_int_equal(c.chunks[0].tag, NAV_CHUNK_GRID);
    assert_int_equal(((const uint8_t *)c.chunks[0].data - (const uint8_t *)bytes) % 16, 0);

    /* Saving again replaces the file in place. */
    assert_int_equal(nav_grid_set_cell(grid, 0, 0, 3), NAV_SUCCESS);
    assert_int_equal(nav_grid_save_nav(grid, path), NAV_SUCCESS);
    assert_false(file_exists(tmp));
    assert_int_equal(nav_grid_load_nav(path, NULL, &loaded), NAV_SUCCESS);
    assert_int_equal(nav_grid_cell(loaded, 0, 0), 3);
    nav_grid_destroy(loaded);

    /* A damaged file: the message names the file. */
    ((uint8_t *)bytes)[size - 1] ^= 1;
    FILE *f = fopen(path, "wb");
    fwrite(bytes, 1, size, f);
    fclose(f);
    free(bytes);
    loaded = (nav_grid *)&loaded;
    assert_int_equal(nav_grid_load_nav(path, &(nav_grid_desc){.log = &log.hooks}, &loaded),
                     NAV_FAILURE | NAV_CORRUPT_DATA);
    assert_null(loaded);
    assert_true(strncmp(log.last, path, strlen(path)) == 0);
    assert_non_null(strstr(log.last, "checksum mismatch"));

    /* A container without a GRID chunk, and one with a GRID chunk of a future version. */
    nav_chunk other = {NAV_TAG('M', 'E', 'S', 'H'), 1, "abc", 3};
    assert_int_equal(nav_container_write_file(path, &other, 1, NULL), NAV_SUCCESS);
    assert_int_equal(nav_grid_load_nav(path, &(nav_grid_desc){.log = &log.hooks}, &loaded),
                     NAV_FAILURE | NAV_CORRUPT_DATA);
    assert_non_null(strstr(log.last, "no GRID chunk"));
    nav_chunk future = {NAV_CHUNK_GRID, NAV_GRID_CHUNK_VERSION + 1, "abc", 3};
    assert_int_equal(nav_container_write_file(path, &future, 1, NULL), NAV_SUCCESS);
    assert_int_equal(nav_grid_load_nav(path, &(nav_grid_desc){.log = &log.hooks}, &loaded),
                     NAV_FAILURE | NAV_WRONG_VERSION);
    assert_non_null(strstr(log.last, "GRID chunk version 2"));

    /* An empty file reads as 0 bytes, and is not a container. */
    f = fopen(path, "wb");
    fclose(f);
    assert_int_equal(nav_file_read_all(path, NULL, &bytes, &size), NAV_SUCCESS);
    assert_int_equal(size, 0);
    free(bytes);
    assert_int_equal(nav_grid_load_nav(path, NULL, &loaded), NAV_FAILURE | NAV_CORRUPT_DATA);
    remove(path);

    /* Missing files and unwritable places. */
    assert_int_equal(nav_file_read_all(path, NULL, &bytes, &size), NAV_FAILURE | NAV_IO_ERROR);
    assert_null(bytes);
    assert_int_equal(size, 0);
    assert_int_equal(nav_grid_load_nav(path, NULL, &loaded), NAV_FAILURE | NAV_IO_ERROR);
    assert_int_equal(nav_grid_save_nav(grid, "/nonexistent-dir-libnav/x.nav"), NAV_FAILURE | NAV_IO_ERROR);
    assert_false(file_exists("/nonexistent-dir-libnav/x.nav.tmp"));
    assert_int_equal(nav_file_read_all("/tmp", NULL, &bytes, &size) & NAV_FAILURE,
                     NAV_FAILURE); /* a folder */
    assert_int_equal(nav_file_read_all(NULL, NULL, &bytes, &size), NAV_FAILURE | NAV_INVALID_PARAM);
    assert_int_equal(nav_container_write_file(NULL, NULL, 0, NULL), NAV_FAILURE | NAV_INVALID_PARAM);
    nav_grid_destroy(grid);
}

/* Every loader, handed a FIFO, a directory or a device instead of a file: a clean NAV_IO_ERROR
 * with a message saying what the path is, at once. (Before the fix, opening a FIFO blocked until a
 * writer came: the alarm turns such a hang into a failed test.) */
static void test_non_regular_files(void **state)
{
    (void)state;
    char dir[] = "/tmp/nav_test_fifo_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char fifo[64];
    snprintf(fifo, sizeof fifo, "%s/level.map", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    const char *paths[] = {fifo, dir, "/dev/null"};
    const char *kinds[] = {"it is a FIFO, not a regular file", "it is a directory, not a regular file",
                           "it is a character device, not a regular file"};
    alarm(20);
    for (int k = 0; k < 3; k++) {
        test_log log;
        test_log_init(&log);
        nav_grid_desc desc = {.log = &log.hooks};
        nav_grid *grid = (nav_grid *)1;
        nav_hpa *hpa = (nav_hpa *)1;
        nav_scen *scen = (nav_scen *)1;
        void *bytes = (void *)1;
        size_t size = 1;
        FAILS_WITH(nav_file_read_all(paths[k], NULL, &bytes, &size), NAV_IO_ERROR);
        assert_null(bytes);
        FAILS_WITH(nav_grid_load_map_file(paths[k], &desc, &grid), NAV_IO_ERROR);
        assert_non_null(strstr(log.last, kinds[k]));
        FAILS_WITH(nav_grid_load_ascii_file(paths[k], &desc, &grid), NAV_IO_ERROR);
        assert_non_null(strstr(log.last, kinds[k]));
        FAILS_WITH(nav_grid_load_png_file(paths[k], NULL, &desc, &grid), NAV_IO_ERROR);
        assert_non_null(strstr(log.last, kinds[k]));
        FAILS_WITH(nav_scen_load_file(paths[k], NULL, &log.hooks, &scen), NAV_IO_ERROR);
        assert_null(scen);
        assert_non_null(strstr(log.last, kinds[k]));
        FAILS_WITH(nav_grid_load_nav(paths[k], &desc, &grid), NAV_IO_ERROR);
        assert_null(grid);
        assert_non_null(strstr(log.last, kinds[k]));
        FAILS_WITH(nav_hpa_load_nav(paths[k], &(nav_hpa_desc){.log = &log.hooks}, &grid, &hpa), NAV_IO_ERROR);
        assert_null(grid);
        assert_null(hpa);
        assert_non_null(strstr(log.last, kinds[k]));
        assert_int_equal(log.count, 6);
    }
    alarm(0);
    remove(fifo);
    rmdir(dir);
}

/* nav_grid_fingerprint: what a bake records of its grid. The two values below were computed apart
 * from libnav, by hashing the encoding nav_grid_fingerprint documents (written out by hand in
 * Python) with the reference XXH64 tool, xxh64sum: a change of the encoding, which would make every
 * saved bake look stale, fails here. */
static void test_grid_fingerprint(void **state)
{
    (void)state;
    nav_grid *grid;
    assert_int_equal(nav_grid_create(&(nav_grid_desc){.width = 3, .height = 2}, &grid), NAV_SUCCESS);
    const uint8_t cells[6] = {1, 0, 2, 1, 1, 3};
    for (int i = 0; i < 6; i++)
        assert_int_equal(nav_grid_set_cell(grid, i % 3, i / 3, cells[i]), NAV_SUCCESS);
    assert_int_equal(nav_grid_set_terrain_cost(grid, 2, 5), NAV_SUCCESS);
    assert_int_equal(nav_grid_set_terrain_cost(grid, 3, 0.5), NAV_SUCCESS);
    const uint64_t flat = 0x23489847ae7693ceull, with_height = 0x877e504a620f7caaull;
    assert_true(nav_grid_fingerprint(grid) == flat);
    /* a height layer of zeros (and -0) moves alike: the same fingerprint */
    assert_int_equal(nav_grid_set_cell_height(grid, 0, 0, -0.0f), NAV_SUCCESS);
    assert_true(nav_grid_fingerprint(grid) == flat);
    assert_int_equal(nav_grid_set_cell_height(grid, 2, 1, 1.5f), NAV_SUCCESS);
    assert_true(nav_grid_fingerprint(grid) == with_height);
    /* a saved and loaded grid keeps it */
    nav_writer w;
    nav_writer_init(&w, NULL);
    assert_int_equal(nav_grid_write_chunk(grid, &w), NAV_SUCCESS);
    nav_grid *loaded;
    assert_int_equal(nav_grid_read_chunk(w.data, w.size, NULL, &loaded), NAV_SUCCESS);
    assert_true(nav_grid_fingerprint(loaded) == with_height);
    nav_grid_destroy(loaded);
    nav_writer_destroy(&w);
    nav_grid_destroy(grid);

    /* everything a bake depends on changes it; the world transform does not */
    nav_grid_desc base = {.width = 6, .height = 5};
    const nav_grid_desc variants[] = {
        {.width = 5, .height = 6},
        {.width = 6, .height = 5, .connectivity = NAV_CONNECT_4},
        {.width = 6, .height = 5, .corner_policy = NAV_CORNER_ALWAYS_CUT},
        {.width = 6, .height = 5, .diagonal_cost = 1.5},
        {.width = 6, .height = 5, .max_climb = 2},
    };
    assert_int_equal(nav_grid_create(&base, &grid), NAV_SUCCESS);
    uint64_t plain = nav_grid_fingerprint(grid);
    nav_grid_destroy(grid);
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        assert_int_equal(nav_grid_create(&variants[i], &grid), NAV_SUCCESS);
        assert_true(nav_grid_fingerprint(grid) != plain);
        nav_grid_destroy(grid);
    }
    assert_int_equal(
        nav_grid_create(&(nav_grid_desc){.width = 6, .height = 5, .cell_size = 2, .origin = {1, 2, 3}},
                        &grid),
        NAV_SUCCESS);
    assert_true(nav_grid_fingerprint(grid) == plain);
    assert_int_equal(nav_grid_set_cell(grid, 5, 4, NAV_TERRAIN_BLOCKED), NAV_SUCCESS);
    uint64_t one_wall = nav_grid_fingerprint(grid);
    assert_true(one_wall != plain);
    assert_int_equal(nav_grid_set_terrain_cost(grid, 9, 2),
                     NAV_SUCCESS); /* a cost, even of a type not in use */
    assert_true(nav_grid_fingerprint(grid) != one_wall);
    assert_int_equal(nav_grid_set_terrain_cost(grid, 9, 1), NAV_SUCCESS);
    assert_true(nav_grid_fingerprint(grid) == one_wall);
    assert_int_equal(nav_grid_set_cell_height(grid, 0, 0, 0.25f), NAV_SUCCESS);
    assert_true(nav_grid_fingerprint(grid) != one_wall);
    nav_grid_destroy(grid);
    assert_true(nav_grid_fingerprint(NULL) == 0);
}

/* A rename that cannot happen (the target is a non-empty folder) must leave no temporary file. */
static void test_file_write_failures(void **state)
{
    (void)state;
    char dir[] = "/tmp/nav_test_io_dir_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char inner[sizeof dir + 16], tmp[sizeof dir + 16];
    snprintf(inner, sizeof inner, "%s/keep", dir);
    FILE *f = fopen(inner, "wb");
    fclose(f);
    snprintf(tmp, sizeof tmp, "%s.tmp", dir);
    nav_chunk chunk = {NAV_TAG('T', 'E', 'S', 'T'), 1, "abc", 3};
    assert_int_equal(nav_container_write_file(dir, &chunk, 1, NULL), NAV_FAILURE | NAV_IO_ERROR);
    assert_false(file_exists(tmp));

    /* Every allocation failure: a clear status, no leak, no file. */
    char path[sizeof dir + 16];
    snprintf(path, sizeof path, "%s/oom.nav", dir);
    snprintf(tmp, sizeof tmp, "%s/oom.nav.tmp", dir);
    for (long fail_at = 1;; fail_at++) {
        test_allocator t;
        test_allocator_init(&t, fail_at);
        nav_status s = nav_container_write_file(path, &chunk, 1, &t.hooks);
        assert_int_equal(t.live, 0);
        assert_false(file_exists(tmp));
        if (nav_succeeded(s)) break;
        assert_int_equal(s, NAV_FAILURE | NAV_OUT_OF_MEMORY);
        assert_false(file_exists(path));
    }
    for (long fail_at = 1;; fail_at++) {
        test_allocator t;
        test_allocator_init(&t, fail_at);
        void *bytes;
        size_t size;
        nav_status s = nav_file_read_all(path, &t.hooks, &bytes, &size);
        if (nav_succeeded(s)) {
            t.hooks.free(bytes, t.hooks.user);
            assert_int_equal(t.live, 0);
            break;
        }
        assert_int_equal(s, NAV_FAILURE | NAV_OUT_OF_MEMORY);
        assert_int_equal(t.live, 0);
    }
    remove(path);
    remove(inner);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crc32),
        cmocka_unit_test(test_crc32_long),
        cmocka_unit_test(test_writer_reader_round_trip),
        cmocka_unit_test(test_writer_align_and_patch),
        cmocka_unit_test(test_reader_overrun_is_sticky),
        cmocka_unit_test(test_reader_array),
        cmocka_unit_test(test_writer_out_of_memory),
        cmocka_unit_test(test_container_round_trip),
        cmocka_unit_test(test_container_write_rejects),
        cmocka_unit_test(test_container_rejects_identity),
        cmocka_unit_test(test_container_truncations),
        cmocka_unit_test(test_container_bit_flips),
        cmocka_unit_test(test_container_bad_tables),
        cmocka_unit_test(test_grid_chunk_round_trip),
        cmocka_unit_test(test_grid_rebuild_matches),
        cmocka_unit_test(test_grid_chunk_corrupt),
        cmocka_unit_test(test_grid_chunk_out_of_memory),
        cmocka_unit_test(test_file_save_load),
        cmocka_unit_test(test_file_write_failures),
        cmocka_unit_test(test_non_regular_files),
        cmocka_unit_test(test_grid_fingerprint),
    };
    return cmocka_run_group_tests_name("io", tests, NULL, NULL);
}
