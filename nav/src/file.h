/* Private: opening files for reading. Every loader goes through here, so every loader refuses what
 * is not a regular file (a FIFO, which would block a read forever; a directory; a device) before
 * reading a byte, and knows the size of what it reads before it allocates anything. */
#ifndef NAV_SRC_FILE_H
#define NAV_SRC_FILE_H

#include <stdio.h>

#include "nav/core.h"

/* Seeks to a 64-bit offset (the world's regions read on demand from files over 2 GiB). */
#if defined(_WIN32)
#define nav__fseek _fseeki64
#else
#define nav__fseek fseeko
#endif

/* Room for the reason nav__file_open gives ("it is a FIFO, not a regular file"). */
#define NAV__WHY_SIZE 64

/* Opens path for binary reading. [out] file: the open stream (close it with fclose), null on
 * failure. [out] size [opt]: the file's size in bytes. [out] why: on failure, why in a few words.
 * Returns NAV_SUCCESS, or NAV_FAILURE with NAV_IO_ERROR (missing, unreadable, not a regular file)
 * or NAV_INVALID_PARAM (null path). */
nav_status nav__file_open(const char *path, FILE **file, uint64_t *size, char why[NAV__WHY_SIZE]);

/* Reads exactly size bytes from file into out. Returns NAV_SUCCESS, or NAV_FAILURE | NAV_IO_ERROR
 * when fewer could be read (with why filled in). */
nav_status nav__file_read(FILE *file, void *out, size_t size, char why[NAV__WHY_SIZE]);

/* nav_file_read_all with a reason on failure ("it is a directory, not a regular file"). */
nav_status nav__file_read_all(const char *path, const nav_allocator *allocator, void **data, size_t *size,
                              char why[NAV__WHY_SIZE]);

#endif
