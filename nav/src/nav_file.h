/* Private: opening a .nav file for a module's loader (the grid's, the HPA bake's). */
#ifndef NAV_SRC_NAV_FILE_H
#define NAV_SRC_NAV_FILE_H

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

#endif
