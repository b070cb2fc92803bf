/* nav/io.h - binary io: CRC-32, a little-endian writer and a bounds-checked reader, the chunked
 * .nav container, and the GRID chunk.
 *
 * Baked data goes to disk as one .nav file: a header, a table of chunks (a four-character tag, a
 * version, an offset, a size and a CRC-32 each) and the chunk data, 16-byte aligned. Every module
 * writes its chunk with a nav_writer and reads it back with a nav_reader; both have a sticky
 * status, so a writer or parser can do all its puts or gets and check once at the end. Every
 * number is little-endian on disk whatever the machine; every index is 32 bits.
 *
 * Loading never trusts the file: nav_container_open checks the header, the table and every CRC
 * before it returns, and each chunk reader checks every count and value it reads. The container
 * views the caller's buffer (no copy), so the buffer must outlive it.
 *
 *     nav_writer w;                                   // save
 *     nav_writer_init(&w, NULL);
 *     nav_grid_write_chunk(grid, &w);
 *     nav_chunk chunk = {NAV_CHUNK_GRID, NAV_GRID_CHUNK_VERSION, w.data, w.size};
 *     nav_status s = nav_container_write_file("level.nav", &chunk, 1, NULL);
 *     nav_writer_destroy(&w);
 *
 *     void *bytes; size_t size; nav_container c;      // load
 *     s = nav_file_read_all("level.nav", NULL, &bytes, &size);
 *     s = nav_container_open(bytes, size, NULL, &c);
 *     const nav_chunk *g = nav_container_find(&c, NAV_CHUNK_GRID);
 *     s = nav_grid_read_chunk(g->data, (size_t)g->size, NULL, &grid);
 *     free(bytes);
 *
 * (nav_grid_save_nav and nav_grid_load_nav do exactly this.)
 */
#ifndef NAV_IO_H
#define NAV_IO_H

#include "nav/core.h"
#include "nav/grid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- CRC-32 ---------------------------------------------------------------------------------- */

/* The CRC-32 of zlib, PNG and Ethernet (IEEE 802.3, reflected, polynomial 0xEDB88320).
 * [in] crc: 0 to start, or the result of the previous call to continue over more bytes.
 * [in] data: size bytes ([opt] when size is 0). Returns the updated CRC. */
NAV_API uint32_t nav_crc32(uint32_t crc, const void *data, size_t size);

/* ---- Writer ---------------------------------------------------------------------------------- */

/* A growable byte buffer that encodes numbers little-endian. After an allocation failure every
 * later put does nothing and status stays NAV_FAILURE | NAV_OUT_OF_MEMORY, so a caller can make all
 * its puts and check status once. Read data, size and status; change them only through the calls. */
typedef struct nav_writer {
    uint8_t *data;     /* the bytes written so far (null until the first put) */
    size_t size;       /* bytes written */
    size_t capacity;   /* bytes allocated */
    nav_status status; /* NAV_SUCCESS, or the first failure (sticky) */
    nav_allocator allocator;
} nav_writer;

/* Makes an empty writer. [in] allocator [opt] copied (malloc/free when null). Never fails. */
NAV_API void nav_writer_init(nav_writer *w, const nav_allocator *allocator);
/* Frees the buffer; the writer is empty again (and may be reused after nav_writer_init). */
NAV_API void nav_writer_destroy(nav_writer *w);
/* Makes room for extra more bytes so that the next puts do not allocate. Returns the status. */
NAV_API nav_status nav_writer_reserve(nav_writer *w, size_t extra);

NAV_API void nav_writer_put_u8(nav_writer *w, uint8_t value);
NAV_API void nav_writer_put_u16(nav_writer *w, uint16_t value);
NAV_API void nav_writer_put_u32(nav_writer *w, uint32_t value);
NAV_API void nav_writer_put_u64(nav_writer *w, uint64_t value);
NAV_API void nav_writer_put_i32(nav_writer *w, int32_t value); /* two's complement */
NAV_API void nav_writer_put_f32(nav_writer *w, float value);   /* IEEE 754 bits, NaN payloads kept */
NAV_API void nav_writer_put_f64(nav_writer *w, double value);
/* Appends size raw bytes. [in] data [opt] when size is 0. */
NAV_API void nav_writer_put_bytes(nav_writer *w, const void *data, size_t size);
/* Appends zero bytes until size is a multiple of alignment (a power of two; 0 and 1 do nothing). */
NAV_API void nav_writer_align(nav_writer *w, size_t alignment);
/* Overwrites 4 bytes already written at offset (a count or CRC known only later). An offset past
 * the written bytes sets status to NAV_FAILURE | NAV_INVALID_PARAM. */
NAV_API void nav_writer_patch_u32(nav_writer *w, size_t offset, uint32_t value);

/* ---- Reader ---------------------------------------------------------------------------------- */

/* A bounds-checked cursor over a const buffer (which it does not copy). The first read past the
 * end, or a call to nav_reader_fail, sets status to NAV_FAILURE | NAV_CORRUPT_DATA; from then on
 * every get returns 0 (bytes returns null), so a parser can read a whole record and check once. */
typedef struct nav_reader {
    const uint8_t *data;
    size_t size;       /* bytes in data */
    size_t pos;        /* bytes consumed */
    nav_status status; /* NAV_SUCCESS, or the first failure (sticky) */
} nav_reader;

/* [in] data: size bytes ([opt] when size is 0), not copied: it must outlive the reader. */
NAV_API void nav_reader_init(nav_reader *r, const void *data, size_t size);
/* Bytes left to read (0 after a failure). */
NAV_API size_t nav_reader_remaining(const nav_reader *r);
/* Marks the data corrupt: a parser that finds a bad value makes the failure sticky the same way. */
NAV_API void nav_reader_fail(nav_reader *r);

NAV_API uint8_t nav_reader_get_u8(nav_reader *r);
NAV_API uint16_t nav_reader_get_u16(nav_reader *r);
NAV_API uint32_t nav_reader_get_u32(nav_reader *r);
NAV_API uint64_t nav_reader_get_u64(nav_reader *r);
NAV_API int32_t nav_reader_get_i32(nav_reader *r);
NAV_API float nav_reader_get_f32(nav_reader *r);
NAV_API double nav_reader_get_f64(nav_reader *r);
/* The next size bytes, in place (not aligned to anything), or null when fewer remain. Size 0
 * gives a valid pointer that must not be dereferenced. */
NAV_API const void *nav_reader_bytes(nav_reader *r, size_t size);
/* Skips size bytes (fails like a get when fewer remain). */
NAV_API void nav_reader_skip(nav_reader *r, size_t size);
/* Skips to the next multiple of alignment counted from the start of the buffer (a power of two).
 * The skipped bytes must be zero: the writer's padding is part of what is validated. */
NAV_API void nav_reader_align(nav_reader *r, size_t alignment);
/* Reads a u32 element count and checks that count * elem_size bytes remain (without overflow);
 * the elements themselves are not consumed. Returns the count, or 0 with the reader failed. */
NAV_API uint32_t nav_reader_array(nav_reader *r, size_t elem_size);

/* ---- Container ------------------------------------------------------------------------------- */

/* A chunk tag: four characters, stored in file order ("GRID" is NAV_TAG('G','R','I','D')). */
#define NAV_TAG(a, b, c, d)                                                                                  \
    ((uint32_t)(uint8_t)(a) | (uint32_t)(uint8_t)(b) << 8 | (uint32_t)(uint8_t)(c) << 16 |                   \
     (uint32_t)(uint8_t)(d) << 24)

#define NAV_CONTAINER_VERSION    1  /* format version this library writes and reads */
#define NAV_CONTAINER_MAX_CHUNKS 64 /* chunks in one file (a module with many parts packs them) */
#define NAV_CONTAINER_ALIGN      16 /* alignment of each chunk's offset in the file */
/* nav_file_read_all refuses larger files (a full-size grid with heights is 5 GiB). */
#define NAV_FILE_MAX_BYTES ((uint64_t)1 << 33)

/* One chunk: what to write, or what nav_container_open found (data then points into the file). */
typedef struct nav_chunk {
    uint32_t tag;     /* NAV_TAG(...) */
    uint32_t version; /* the chunk's own format version, checked by its reader */
    const void *data; /* size bytes; 16-byte aligned in a file when the file buffer is */
    uint64_t size;
} nav_chunk;

/* An opened container: views of the chunks of a validated file, in table order. */
typedef struct nav_container {
    const void *data; /* the caller's buffer */
    size_t size;
    uint32_t version; /* format version of the file */
    uint32_t count;   /* chunks */
    nav_chunk chunks[NAV_CONTAINER_MAX_CHUNKS];
} nav_container;

/* Appends a container of count chunks to out; offsets count from the container's first byte, so
 * start an empty writer to get a file. Chunk data must not point into out (it may move as it grows). Returns
 * NAV_SUCCESS, NAV_FAILURE | NAV_INVALID_PARAM (null data with a size, more than NAV_CONTAINER_MAX_CHUNKS
 * chunks), or the writer's failure status. */
NAV_API nav_status nav_container_write(nav_writer *out, const nav_chunk *chunks, uint32_t count);

/* Writes a container file atomically: to PATH.tmp, flushed to disk, then renamed over path, so a
 * reader sees the old file or the new one, never half of one. The temporary file is removed on
 * failure. [in] allocator [opt] for the file image built in memory.
 * Returns NAV_SUCCESS, NAV_FAILURE | NAV_IO_ERROR, NAV_OUT_OF_MEMORY or NAV_INVALID_PARAM. */
NAV_API nav_status nav_container_write_file(const char *path, const nav_chunk *chunks, uint32_t count,
                                            const nav_allocator *allocator);

/* Validates a container and makes views of its chunks. Everything is checked before this returns:
 * magic, version, byte order, reference width, the chunk count against the size, each chunk's
 * bounds (no overflow), alignment and zero padding, that no two chunks overlap, and every CRC.
 * [in] data: size bytes, not copied (keep it alive while out is used). [in] log [opt] gets one
 * message saying what is wrong. [out] out: filled on success, zeroed on failure.
 * Returns NAV_SUCCESS, or NAV_FAILURE with NAV_CORRUPT_DATA (damaged or not a .nav file),
 * NAV_WRONG_VERSION (another format version, byte order or reference width), NAV_TOO_LARGE (more
 * chunks than this library supports) or NAV_INVALID_PARAM (null arguments). */
NAV_API nav_status nav_container_open(const void *data, size_t size, const nav_log *log, nav_container *out);

/* Reads a .nav file and opens it as a container: the header and the chunk table are read and
 * checked first, so a file that is not a .nav file (or lies about its size) is refused before
 * anything the size of the file is allocated; then the whole file, checked as nav_container_open
 * does. [in] allocator, log [opt] (messages as "PATH: message"). [out] bytes: the file, which the
 * chunks point into (free it with the allocator: free() for the default); null on failure.
 * [out] out: as nav_container_open. Returns as nav_file_read_all and nav_container_open. */
NAV_API nav_status nav_container_read_file(const char *path, const nav_allocator *allocator,
                                           const nav_log *log, void **bytes, nav_container *out);

/* The first chunk with this tag, in table order, or null. A container may hold several chunks of
 * one tag (tiles of a mesh); the loaders of kinds a file holds once (GRID, HPA) refuse a second. */
NAV_API const nav_chunk *nav_container_find(const nav_container *c, uint32_t tag);

/* Reads a whole file into memory allocated through allocator (free it with the same allocator;
 * the default's blocks are malloc blocks, 16-byte aligned). [out] data, size: null and 0 on failure.
 * Returns NAV_SUCCESS, or NAV_FAILURE with NAV_IO_ERROR, NAV_TOO_LARGE (over NAV_FILE_MAX_BYTES or
 * the address space), NAV_OUT_OF_MEMORY or NAV_INVALID_PARAM. */
NAV_API nav_status nav_file_read_all(const char *path, const nav_allocator *allocator, void **data,
                                     size_t *size);

/* ---- GRID chunk ------------------------------------------------------------------------------ */

#define NAV_CHUNK_GRID         NAV_TAG('G', 'R', 'I', 'D')
#define NAV_GRID_CHUNK_VERSION 1

/* Appends the grid's GRID chunk data (size, options, terrain table, cells, heights) to out.
 * Returns the writer's status (NAV_FAILURE | NAV_OUT_OF_MEMORY when it could not grow). */
NAV_API nav_status nav_grid_write_chunk(const nav_grid *grid, nav_writer *out);

/* Makes a grid from GRID chunk data (version NAV_GRID_CHUNK_VERSION), validating every value: the
 * size within NAV_GRID_MAX_SIDE and NAV_GRID_MAX_CELLS, known connectivity and corner policy, costs
 * within NAV_COST_MIN..NAV_COST_MAX or blocked with type 0 blocked, finite heights and options, no
 * trailing bytes. Builds the
 * reachability labels. [in] options [opt]: only allocator and log are used; everything else comes
 * from the chunk. [out] out: null on failure.
 * Returns NAV_SUCCESS, or NAV_FAILURE with NAV_CORRUPT_DATA, NAV_OUT_OF_MEMORY or NAV_INVALID_PARAM. */
NAV_API nav_status nav_grid_read_chunk(const void *data, size_t size, const nav_grid_desc *options,
                                       nav_grid **out);

/* Saves the grid as a .nav file holding one GRID chunk (atomically, see nav_container_write_file),
 * using the grid's allocator. Returns as nav_container_write_file. */
NAV_API nav_status nav_grid_save_nav(const nav_grid *grid, const char *path);

/* Loads the GRID chunk of a .nav file. [in] options [opt]: allocator and log (errors are reported
 * as "PATH: message"). Returns as nav_file_read_all, nav_container_open and nav_grid_read_chunk;
 * a file without a GRID chunk, or with two, gives NAV_CORRUPT_DATA, a GRID chunk of another version
 * NAV_WRONG_VERSION. [out] out: null on failure. */
NAV_API nav_status nav_grid_load_nav(const char *path, const nav_grid_desc *options, nav_grid **out);

#ifdef __cplusplus
}
#endif
#endif
