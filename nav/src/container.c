/* The .nav container: a header, a chunk table and 16-byte aligned chunk data, all little-endian.
 *
 *   offset  size  field
 *        0     4  magic "NAVF"
 *        4     2  format version (NAV_CONTAINER_VERSION)
 *        6     2  byte-order mark 0xFEFF (bytes FF FE; a byte-swapped writer would give FE FF)
 *        8     1  reference width in bits: 32 (every index in baked data is a uint32)
 *        9     3  reserved, zero
 *       12     4  chunk count N (at most NAV_CONTAINER_MAX_CHUNKS)
 *       16     8  file size in bytes
 *       24     4  reserved, zero
 *       28     4  header CRC-32: bytes 0..27, then the chunk table
 *       32  32*N  chunk table, one entry a chunk:
 *                   +0 tag (4 chars)  +4 u32 chunk version  +8 u64 offset  +16 u64 size
 *                   +24 u32 CRC-32 of the chunk data  +28 u32 reserved, zero
 *  32+32*N        chunk data, each at a multiple of 16 from the file start, zero padding between
 *
 * Unlike Detour's tile header, the file records its byte order and reference width, so a reader
 * rejects a file it would misread instead of loading garbage. Every byte of a valid file is covered
 * by a CRC or checked to be zero padding, so any single damaged bit is caught. */
#include "nav/io.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#if defined(_WIN32)
#include <io.h>
#include <windows.h>
#else
#include <unistd.h>
#endif

#include "alloc.h"
#include "log.h"
#include "file.h"
#include "nav_file.h"

#define HEADER_SIZE     32u
#define ENTRY_SIZE      32u
#define HEADER_CRC_AT   28u
#define BYTE_ORDER_MARK 0xfeffu
#define REFERENCE_BITS  32u

/* Little-endian loads from a buffer already known to hold the bytes. */
static uint32_t load_u16(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t load_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t load_u64(const uint8_t *p)
{
    return (uint64_t)load_u32(p) | (uint64_t)load_u32(p + 4) << 32;
}

static uint64_t align_up(uint64_t value)
{
    return (value + (NAV_CONTAINER_ALIGN - 1)) & ~(uint64_t)(NAV_CONTAINER_ALIGN - 1);
}

/* A tag as text for messages, non-printable characters shown as '?'. */
static void tag_text(uint32_t tag, char text[5])
{
    for (int i = 0; i < 4; i++) {
        char c = (char)(tag >> (8 * i) & 0xffu);
        text[i] = c >= 0x20 && c < 0x7f ? c : '?';
    }
    text[4] = '\0';
}

/* CRC of the header bytes 0..27 followed by the chunk table (the CRC field itself left out). */
static uint32_t header_crc(const uint8_t *header, uint32_t count)
{
    uint32_t crc = nav_crc32(0, header, HEADER_CRC_AT);
    return nav_crc32(crc, header + HEADER_SIZE, (size_t)count * ENTRY_SIZE);
}

/* ---- Writing --------------------------------------------------------------------------------- */

nav_status nav_container_write(nav_writer *out, const nav_chunk *chunks, uint32_t count)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    if (nav_failed(out->status)) return out->status;
    if (count > NAV_CONTAINER_MAX_CHUNKS || (count > 0 && !chunks)) return NAV_FAILURE | NAV_INVALID_PARAM;

    /* Lay the chunks out in table order first: the table holds every offset. */
    uint64_t offset[NAV_CONTAINER_MAX_CHUNKS];
    uint64_t end = HEADER_SIZE + (uint64_t)count * ENTRY_SIZE;
    for (uint32_t i = 0; i < count; i++) {
        if (chunks[i].size > 0 && !chunks[i].data) return NAV_FAILURE | NAV_INVALID_PARAM;
        if (chunks[i].size > SIZE_MAX || chunks[i].size > UINT64_MAX / 2 - end)
            return NAV_FAILURE | NAV_TOO_LARGE;
        offset[i] = align_up(end);
        end = offset[i] + chunks[i].size;
    }
    if (end > SIZE_MAX - out->size) return NAV_FAILURE | NAV_TOO_LARGE;
    if (nav_failed(nav_writer_reserve(out, (size_t)end))) return out->status;

    size_t base = out->size;
    nav_writer_put_bytes(out, "NAVF", 4);
    nav_writer_put_u16(out, NAV_CONTAINER_VERSION);
    nav_writer_put_u16(out, BYTE_ORDER_MARK);
    nav_writer_put_u8(out, REFERENCE_BITS);
    nav_writer_put_bytes(out, (const uint8_t[3]){0, 0, 0}, 3);
    nav_writer_put_u32(out, count);
    nav_writer_put_u64(out, end);
    nav_writer_put_u32(out, 0);
    nav_writer_put_u32(out, 0); /* header CRC, patched below once the table is written */
    for (uint32_t i = 0; i < count; i++) {
        nav_writer_put_u32(out, chunks[i].tag);
        nav_writer_put_u32(out, chunks[i].version);
        nav_writer_put_u64(out, offset[i]);
        nav_writer_put_u64(out, chunks[i].size);
        nav_writer_put_u32(out, nav_crc32(0, chunks[i].data, (size_t)chunks[i].size));
        nav_writer_put_u32(out, 0);
    }
    if (nav_failed(out->status)) return out->status;
    nav_writer_patch_u32(out, base + HEADER_CRC_AT, header_crc(out->data + base, count));
    for (uint32_t i = 0; i < count; i++) {
        /* At most 15 bytes of padding; counted once, so a failed writer cannot loop forever. */
        size_t pad = (size_t)(offset[i] - (out->size - base));
        for (size_t k = 0; k < pad; k++) nav_writer_put_u8(out, 0);
        nav_writer_put_bytes(out, chunks[i].data, (size_t)chunks[i].size);
    }
    return out->status;
}

/* Forces written data to the disk, so that the rename cannot land before the bytes do. */
static bool flush_to_disk(FILE *f)
{
    if (fflush(f) != 0) return false;
#if defined(_WIN32)
    return _commit(_fileno(f)) == 0;
#else
    return fsync(fileno(f)) == 0;
#endif
}

/* Replaces path by tmp in one step (readers see the old file or the new one). */
static bool replace_file(const char *tmp, const char *path)
{
#if defined(_WIN32)
    /* rename() on Windows refuses to replace an existing file. */
    return MoveFileExA(tmp, path, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH) != 0;
#else
    return rename(tmp, path) == 0;
#endif
}

nav_status nav__write_file_atomic(const char *path, const void *data, size_t size,
                                  const nav_allocator *allocator)
{
    if (!path || !*path || (!data && size)) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_allocator a;
    nav__allocator_resolve(&a, allocator);
    size_t length = strlen(path);
    char *tmp = nav__alloc(&a, length + sizeof ".tmp");
    if (!tmp) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    memcpy(tmp, path, length);
    memcpy(tmp + length, ".tmp", sizeof ".tmp");
    nav_status s = NAV_FAILURE | NAV_IO_ERROR;
    FILE *f = fopen(tmp, "wb");
    if (f) {
        bool written = fwrite(data, 1, size, f) == size && flush_to_disk(f);
        written = fclose(f) == 0 && written;
        if (written && replace_file(tmp, path))
            s = NAV_SUCCESS;
        else
            remove(tmp);
    }
    nav__free(&a, tmp);
    return s;
}

nav_status nav_container_write_file(const char *path, const nav_chunk *chunks, uint32_t count,
                                    const nav_allocator *allocator)
{
    if (!path || !*path) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_writer image;
    nav_writer_init(&image, allocator);
    nav_status s = nav_container_write(&image, chunks, count);
    if (!nav_failed(s)) s = nav__write_file_atomic(path, image.data, image.size, allocator);
    nav_writer_destroy(&image);
    return s;
}

/* ---- Opening --------------------------------------------------------------------------------- */

#define CORRUPT(...)                                                                                         \
    (nav__logf(log, NAV_LOG_ERROR, "nav container: " __VA_ARGS__), NAV_FAILURE | NAV_CORRUPT_DATA)
#define WRONG(...)                                                                                           \
    (nav__logf(log, NAV_LOG_ERROR, "nav container: " __VA_ARGS__), NAV_FAILURE | NAV_WRONG_VERSION)

/* Index of the first non-zero byte in [from, to), or to when they are all zero. */
static size_t first_nonzero(const uint8_t *bytes, size_t from, size_t to)
{
    while (from < to && bytes[from] == 0) from++;
    return from;
}

/* The fixed header: identity, then the count bounded by the size, then its CRC. */
static nav_status check_header(const uint8_t *bytes, size_t size, const nav_log *log, uint32_t *count)
{
    if (size < HEADER_SIZE)
        return CORRUPT("%zu bytes is too short for the %u-byte header", size, HEADER_SIZE);
    if (memcmp(bytes, "NAVF", 4) != 0)
        return CORRUPT("not a .nav file (magic %02x %02x %02x %02x, expected \"NAVF\")", bytes[0], bytes[1],
                       bytes[2], bytes[3]);
    uint32_t mark = load_u16(bytes + 6);
    if (mark == 0xfffeu) return WRONG("file is big-endian; this library reads little-endian files");
    if (mark != BYTE_ORDER_MARK) return CORRUPT("bad byte-order mark 0x%04" PRIx32, mark);
    uint32_t version = load_u16(bytes + 4);
    if (version != NAV_CONTAINER_VERSION)
        return WRONG("format version %" PRIu32 ", this library reads version %d", version,
                     NAV_CONTAINER_VERSION);
    if (bytes[8] != REFERENCE_BITS)
        return WRONG("%u-bit references, this library uses %u-bit ones", bytes[8], REFERENCE_BITS);
    uint64_t file_size = load_u64(bytes + 16);
    if (file_size != size)
        return CORRUPT("header says %" PRIu64 " bytes, the buffer holds %zu (truncated or padded file)",
                       file_size, size);
    uint32_t n = load_u32(bytes + 12);
    if (n > (size - HEADER_SIZE) / ENTRY_SIZE)
        return CORRUPT("chunk count %" PRIu32 " does not fit in a file of %zu bytes", n, size);
    uint32_t stored = load_u32(bytes + HEADER_CRC_AT), computed = header_crc(bytes, n);
    if (stored != computed)
        return CORRUPT("header checksum mismatch (stored %08" PRIx32 ", computed %08" PRIx32 ")", stored,
                       computed);
    /* Past the CRC a bad value is not damage but something this library does not know. */
    if (bytes[9] || bytes[10] || bytes[11] || load_u32(bytes + 24))
        return CORRUPT("reserved header fields are not zero");
    if (n > NAV_CONTAINER_MAX_CHUNKS) {
        nav__logf(log, NAV_LOG_ERROR, "nav container: %" PRIu32 " chunks, this library supports at most %d",
                  n, NAV_CONTAINER_MAX_CHUNKS);
        return NAV_FAILURE | NAV_TOO_LARGE;
    }
    *count = n;
    return NAV_SUCCESS;
}

nav_status nav_container_open(const void *data, size_t size, const nav_log *log, nav_container *out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    memset(out, 0, sizeof *out);
    if (!data && size > 0) return NAV_FAILURE | NAV_INVALID_PARAM;
    const uint8_t *bytes = data;
    uint32_t count = 0;
    nav_status s = check_header(bytes, data ? size : 0, log, &count);
    if (nav_failed(s)) return s;

    /* Each entry on its own: reserved field, alignment, bounds. */
    size_t table_end = HEADER_SIZE + (size_t)count * ENTRY_SIZE;
    uint64_t offset[NAV_CONTAINER_MAX_CHUNKS], length[NAV_CONTAINER_MAX_CHUNKS];
    uint32_t crc[NAV_CONTAINER_MAX_CHUNKS];
    char tag[5];
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *entry = bytes + HEADER_SIZE + (size_t)i * ENTRY_SIZE;
        uint32_t chunk_tag = load_u32(entry);
        offset[i] = load_u64(entry + 8);
        length[i] = load_u64(entry + 16);
        crc[i] = load_u32(entry + 24);
        tag_text(chunk_tag, tag);
        if (load_u32(entry + 28) != 0)
            return CORRUPT("chunk %" PRIu32 " ('%s'): reserved field is not zero", i, tag);
        if (offset[i] % NAV_CONTAINER_ALIGN != 0)
            return CORRUPT("chunk %" PRIu32 " ('%s'): offset %" PRIu64 " is not a multiple of %d", i, tag,
                           offset[i], NAV_CONTAINER_ALIGN);
        if (offset[i] < table_end)
            return CORRUPT("chunk %" PRIu32 " ('%s'): offset %" PRIu64 " lies inside the header", i, tag,
                           offset[i]);
        /* offset + length <= size, asked without computing a sum that could wrap. */
        if (offset[i] > size || length[i] > size - offset[i])
            return CORRUPT("chunk %" PRIu32 " ('%s'): %" PRIu64 " bytes at offset %" PRIu64
                           " run past the end of the file (%zu bytes)",
                           i, tag, length[i], offset[i], size);
        out->chunks[i] = (nav_chunk){chunk_tag, load_u32(entry + 4), bytes + offset[i], length[i]};
    }

    /* Walk the chunks in file order (insertion sort: at most 64 of them) to find overlaps, and check
     * that every byte between or after them is zero padding, so no byte escapes validation. */
    uint32_t order[NAV_CONTAINER_MAX_CHUNKS];
    for (uint32_t i = 0; i < count; i++) {
        uint32_t k = i;
        while (k > 0 && (offset[order[k - 1]] > offset[i] ||
                         (offset[order[k - 1]] == offset[i] && length[order[k - 1]] > length[i]))) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = i;
    }
    size_t covered = table_end;
    for (uint32_t k = 0; k < count; k++) {
        uint32_t i = order[k];
        if (offset[i] < covered) {
            char other[5];
            tag_text(out->chunks[order[k - 1]].tag, other);
            tag_text(out->chunks[i].tag, tag);
            return CORRUPT("chunk %" PRIu32 " ('%s') overlaps chunk %" PRIu32 " ('%s')", i, tag, order[k - 1],
                           other);
        }
        size_t nonzero = first_nonzero(bytes, covered, (size_t)offset[i]);
        if (nonzero < offset[i]) return CORRUPT("padding byte at offset %zu is not zero", nonzero);
        covered = (size_t)(offset[i] + length[i]);
    }
    size_t nonzero = first_nonzero(bytes, covered, size);
    if (nonzero < size) return CORRUPT("padding byte at offset %zu is not zero", nonzero);

    for (uint32_t i = 0; i < count; i++) {
        uint32_t computed = nav_crc32(0, out->chunks[i].data, (size_t)length[i]);
        if (computed != crc[i]) {
            tag_text(out->chunks[i].tag, tag);
            return CORRUPT("chunk %" PRIu32 " ('%s'): checksum mismatch (stored %08" PRIx32
                           ", computed %08" PRIx32 ")",
                           i, tag, crc[i], computed);
        }
    }
    out->data = data;
    out->size = size;
    out->version = NAV_CONTAINER_VERSION;
    out->count = count;
    return NAV_SUCCESS;
}

nav_status nav__container_read_table(FILE *f, uint64_t file_size, const nav_log *log,
                                     nav__chunk_entry *chunks, uint32_t *count)
{
    uint8_t bytes[HEADER_SIZE + NAV_CONTAINER_MAX_CHUNKS * ENTRY_SIZE];
    *count = 0;
    if (file_size < HEADER_SIZE)
        return CORRUPT("%" PRIu64 " bytes is too short for the %u-byte header", file_size, HEADER_SIZE);
    if (fseek(f, 0, SEEK_SET) != 0 || fread(bytes, 1, HEADER_SIZE, f) != HEADER_SIZE)
        return nav__logf(log, NAV_LOG_ERROR, "cannot read its header"), NAV_FAILURE | NAV_IO_ERROR;
    uint32_t n = load_u32(bytes + 12);
    if (n > NAV_CONTAINER_MAX_CHUNKS || n > (file_size - HEADER_SIZE) / ENTRY_SIZE)
        return CORRUPT("chunk count %" PRIu32 " does not fit", n);
    if (fread(bytes + HEADER_SIZE, 1, (size_t)n * ENTRY_SIZE, f) != (size_t)n * ENTRY_SIZE)
        return nav__logf(log, NAV_LOG_ERROR, "cannot read its chunk table"), NAV_FAILURE | NAV_IO_ERROR;
    /* check_header looks at the header and the table only, and at the size we pass */
    nav_status s = check_header(bytes, file_size > SIZE_MAX ? SIZE_MAX : (size_t)file_size, log, count);
    if (nav_failed(s)) return s;
    size_t table_end = HEADER_SIZE + (size_t)n * ENTRY_SIZE;
    char tag[5];
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *entry = bytes + HEADER_SIZE + (size_t)i * ENTRY_SIZE;
        nav__chunk_entry *c = &chunks[i];
        *c = (nav__chunk_entry){load_u32(entry), load_u32(entry + 4), load_u64(entry + 8),
                                load_u64(entry + 16), load_u32(entry + 24)};
        tag_text(c->tag, tag);
        if (load_u32(entry + 28) != 0 || c->offset % NAV_CONTAINER_ALIGN != 0 || c->offset < table_end ||
            c->offset > file_size || c->size > file_size - c->offset)
            return CORRUPT("chunk %" PRIu32 " ('%s'): a bad table entry", i, tag);
    }
    return NAV_SUCCESS;
}

const nav_chunk *nav_container_find(const nav_container *c, uint32_t tag)
{
    if (!c) return NULL;
    for (uint32_t i = 0; i < c->count; i++)
        if (c->chunks[i].tag == tag) return &c->chunks[i];
    return NULL;
}

/* ---- opening a file for a loader (nav_file.h) ------------------------------------------------ */

static void forward_with_path(nav_log_level level, const char *message, void *user)
{
    const nav__file_log *log = user;
    nav__logf(log->inner, level, "%s: %s", log->path, message);
}

void nav__file_log_init(nav__file_log *log, const nav_log *inner, const char *path)
{
    log->inner = inner;
    log->path = path;
    log->hooks = (nav_log){forward_with_path, log};
}

nav_status nav__open_nav_file(const char *path, const nav_allocator *allocator, nav__file_log *log,
                              void **bytes, nav_container *container)
{
    *bytes = NULL;
    memset(container, 0, sizeof *container);
    char why[NAV__WHY_SIZE];
    FILE *f;
    uint64_t size;
    nav_status s = nav__file_open(path, &f, &size, why);
    if (nav_failed(s)) {
        nav__logf(log->inner, NAV_LOG_ERROR, "%s: cannot read: %s", path, why);
        return s;
    }
    nav_allocator a;
    nav__allocator_resolve(&a, allocator);
    uint8_t *data = NULL;
    if (size > NAV_FILE_MAX_BYTES || size >= SIZE_MAX) {
        nav__logf(log->inner, NAV_LOG_ERROR, "%s: %" PRIu64 " bytes is over the limit of %" PRIu64, path,
                  size, (uint64_t)NAV_FILE_MAX_BYTES);
        s = NAV_FAILURE | NAV_TOO_LARGE;
        goto done;
    }
    /* The header and the chunk table first: a file that is not a .nav file, or whose header
     * disagrees with its size, is refused before anything the size of the file is allocated. */
    uint8_t *prefix = NULL;
    size_t prefix_size = size < HEADER_SIZE ? (size_t)size : HEADER_SIZE;
    uint8_t header[HEADER_SIZE];
    s = nav__file_read(f, header, prefix_size, why);
    if (nav_succeeded(s) && prefix_size == HEADER_SIZE) {
        uint32_t n = load_u32(header + 12), count;
        if (n <= (size - HEADER_SIZE) / ENTRY_SIZE) prefix_size += (size_t)n * ENTRY_SIZE;
        prefix = nav__alloc(&a, prefix_size);
        if (!prefix) {
            s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
            snprintf(why, sizeof why, "out of memory");
        } else {
            memcpy(prefix, header, HEADER_SIZE);
            s = nav__file_read(f, prefix + HEADER_SIZE, prefix_size - HEADER_SIZE, why);
            if (nav_succeeded(s)) {
                s = check_header(prefix, (size_t)size, &log->hooks, &count);
                if (nav_failed(s)) {
                    nav__free(&a, prefix);
                    goto done; /* check_header said why */
                }
            }
        }
    }
    if (nav_succeeded(s)) {
        data = nav__alloc(&a, (size_t)size);
        if (!data) {
            s = NAV_FAILURE | NAV_OUT_OF_MEMORY;
            snprintf(why, sizeof why, "out of memory");
        }
    }
    if (nav_succeeded(s)) {
        memcpy(data, prefix ? prefix : header, prefix_size);
        s = nav__file_read(f, data + prefix_size, (size_t)size - prefix_size, why);
        if (nav_succeeded(s) && fgetc(f) != EOF) {
            snprintf(why, sizeof why, "the file changed while it was read");
            s = NAV_FAILURE | NAV_IO_ERROR;
        }
    }
    nav__free(&a, prefix);
    if (nav_failed(s)) {
        nav__logf(log->inner, NAV_LOG_ERROR, "%s: cannot read: %s", path, why);
        goto done;
    }
    s = nav_container_open(data, (size_t)size, &log->hooks, container);
done:
    fclose(f);
    if (nav_failed(s)) {
        nav__free(&a, data);
        return s;
    }
    *bytes = data;
    return s;
}

nav_status nav__find_unique_chunk(const nav_container *container, uint32_t tag, const char *name,
                                  uint32_t version, const nav_log *log, const nav_chunk **out)
{
    *out = NULL;
    const nav_chunk *found = NULL;
    uint32_t count = 0;
    for (uint32_t i = 0; i < container->count; i++) {
        if (container->chunks[i].tag != tag) continue;
        if (!found) found = &container->chunks[i];
        count++;
    }
    if (count == 0) {
        nav__logf(log, NAV_LOG_ERROR, "no %s chunk", name);
        return NAV_FAILURE | NAV_CORRUPT_DATA;
    }
    if (count > 1) {
        nav__logf(log, NAV_LOG_ERROR, "%" PRIu32 " %s chunks, a file holds one", count, name);
        return NAV_FAILURE | NAV_CORRUPT_DATA;
    }
    if (found->version != version) {
        nav__logf(log, NAV_LOG_ERROR,
                  "%s chunk version %" PRIu32 ", this library reads version %" PRIu32 "%s", name,
                  found->version, version,
                  found->version < version ? " (an older libnav made it: bake the file again)" : "");
        return NAV_FAILURE | NAV_WRONG_VERSION;
    }
    *out = found;
    return NAV_SUCCESS;
}

nav_status nav__chunk_corrupt(nav_reader *r, const nav_log *log, const char *name, const char *what,
                              uint32_t index)
{
    if (index == UINT32_MAX)
        nav__logf(log, NAV_LOG_ERROR, "%s chunk: %s", name, what);
    else
        nav__logf(log, NAV_LOG_ERROR, "%s chunk: %s %" PRIu32, name, what, index);
    nav_reader_fail(r);
    return NAV_FAILURE | NAV_CORRUPT_DATA;
}

nav_status nav_container_read_file(const char *path, const nav_allocator *allocator, const nav_log *log,
                                   void **bytes, nav_container *out)
{
    if (!bytes || !out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *bytes = NULL;
    memset(out, 0, sizeof *out);
    if (!path) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav__file_log file_log;
    nav__file_log_init(&file_log, log, path);
    nav_status s = nav__open_nav_file(path, allocator, &file_log, bytes, out);
    /* out->data points into *bytes; file_log, on this frame, is not kept */
    return s;
}
