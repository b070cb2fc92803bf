/* Private: opening a .nav file for a module's loader (the grid's, the HPA bake's). */
#ifndef NAV_SRC_NAV_FILE_H
#define NAV_SRC_NAV_FILE_H

#include <stdio.h>

#include "nav/grid.h"
#include "nav/io.h"

/* A log that puts the file name before each message ("level.nav: chunk 0 ('GRID'): ..."). It
 * lives on the loader's stack: an object that keeps a copy of its log must get the caller's. */
typedef struct nav__file_log {
    const nav_log *inner; /* [opt] the caller's log */
    const char *path;
    nav_log hooks; /* the prefixing log to hand on */
} nav__file_log;

void nav__file_log_init(nav__file_log *log, const nav_log *inner, const char *path);

/* Reads a whole file (through allocator, null: malloc) and opens it as a container, reporting
 * failures to log. On success *bytes holds the file (the chunks point into it): free it with
 * nav__free and the resolved allocator. Returns as nav_file_read_all and nav_container_open. */
nav_status nav__open_nav_file(const char *path, const nav_allocator *allocator, nav__file_log *log,
                              void **bytes, nav_container *container);

/* The one chunk with this tag (called name in messages), of this version, for a loader of a kind a file holds
 * once (GRID, HPA): none, or two or more, is NAV_CORRUPT_DATA ("no GRID chunk", "2 GRID chunks, a file holds
 * one"); another version NAV_WRONG_VERSION. Says why to log. [out] out: null on failure. */
nav_status nav__find_unique_chunk(const nav_container *container, uint32_t tag, const char *name,
                                  uint32_t version, const nav_log *log, const nav_chunk **out);

/* Writes a .nav file of a layer's chunk (tag, version, its bytes in layer) after grid's GRID chunk
 * when grid is given (the layer was baked from it). Returns as nav_container_write_file. */
nav_status nav__save_layer_nav(const char *path, const nav_grid *grid, uint32_t tag, uint32_t version,
                               const nav_writer *layer, const nav_allocator *allocator);

/* Opens a .nav file for a layer's loader: finds its one chunk of tag (called name in messages) and
 * version, and when grid is given reads the file's GRID chunk into *grid (with allocator and the
 * caller's log, inner). On success *bytes holds the file, *layer points into it: the loader reads
 * its chunk, then frees the bytes with nav__close_nav_file. On failure nothing is held. */
nav_status nav__open_layer_nav(const char *path, const nav_allocator *allocator, nav__file_log *log,
                               uint32_t tag, const char *name, uint32_t version, void **bytes,
                               const nav_chunk **layer, nav_grid **grid);

/* Writes size bytes to path atomically (to PATH.tmp, flushed, renamed over path; removed on failure),
 * as nav_container_write_file does. [in] allocator [opt]: for the temporary name. */
nav_status nav__write_file_atomic(const char *path, const void *data, size_t size,
                                  const nav_allocator *allocator);

/* A chunk table entry, for a reader that reads a file's chunks one at a time (regions loaded on
 * demand) instead of the whole file. */
typedef struct nav__chunk_entry {
    uint32_t tag, version;
    uint64_t offset, size; /* in the file */
    uint32_t crc;          /* of its data: check it when the chunk is read */
} nav__chunk_entry;

/* Reads and checks a container's header and chunk table from an open file of file_size bytes (as
 * nav_container_open does, but for the chunks' data, padding and CRCs: each chunk's CRC is the
 * reader's to check). [out] chunks: room for NAV_CONTAINER_MAX_CHUNKS. Returns NAV_SUCCESS, or
 * NAV_FAILURE with NAV_CORRUPT_DATA, NAV_WRONG_VERSION, NAV_TOO_LARGE or NAV_IO_ERROR. */
nav_status nav__container_read_table(FILE *f, uint64_t file_size, const nav_log *log,
                                     nav__chunk_entry *chunks, uint32_t *count);

/* Frees the bytes of nav__open_nav_file or nav__open_layer_nav (allocator: the one given there). */
void nav__close_nav_file(const nav_allocator *allocator, void *bytes);

/* Logs "NAME chunk: what" (with " index" unless index is UINT32_MAX) as an error, fails r and returns
 * NAV_FAILURE | NAV_CORRUPT_DATA: the one way a chunk reader rejects its data. */
nav_status nav__chunk_corrupt(nav_reader *r, const nav_log *log, const char *name, const char *what,
                              uint32_t index);

#endif
