/* nav/core.h - version, status codes, allocator hooks and logging for every libnav module.
 *
 * Every fallible libnav call returns a nav_status: a success or failure part plus detail bits
 * that say what happened (a partial result, a budget that ran out, a corrupt file). Objects are
 * created from descriptor structs that may carry a nav_allocator and a nav_log; with none given,
 * malloc/free are used and nothing is logged. The library never prints, exits or aborts, and keeps
 * no global mutable state.
 *
 *     nav_status s = nav_grid_load_map_file("arena.map", NULL, &grid);
 *     if (nav_failed(s))
 *         fprintf(stderr, "cannot load: %s\n", nav_status_str(s));
 *     if (nav_has_detail(s, NAV_PARTIAL_RESULT))
 *         ...  // the goal was not reached; the path leads to the closest cell found
 */
#ifndef NAV_CORE_H
#define NAV_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Linking --------------------------------------------------------------------------------- */

/* libnav is two libraries. The run time (CMake Nav::nav, pkg-config nav, libnav) answers queries,
 * reads .nav files and runs worlds; it needs only libc, libm and threads, and its functions are
 * marked NAV_API. The bake (Nav::bake, nav-bake, libnav-bake) reads source files (.map, .scen,
 * ASCII and PNG grids, JSON worlds, .obj levels), builds meshes and bakes tables; it links the run
 * time, needs libspng and cJSON, and its functions are marked NAV_BAKE_API. An engine that only
 * loads .nav files links the run time alone. A shared build exports these functions and nothing
 * else (a shared bake library keeps a hidden copy of the run time's internals it builds with); a
 * program that links a shared libnav on Windows defines NAV_SHARED (the CMake targets and pkg-config
 * files of a shared build do). */
#if defined(NAV_PRIVATE_RUNTIME) /* a shared bake library's own copy of the run time: hidden */
#define NAV_API
#elif defined(_WIN32) || defined(__CYGWIN__)
#if defined(NAV_BUILDING_RUNTIME) && defined(NAV_SHARED)
#define NAV_API __declspec(dllexport)
#elif defined(NAV_SHARED)
#define NAV_API __declspec(dllimport)
#else
#define NAV_API
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define NAV_API __attribute__((visibility("default")))
#else
#define NAV_API
#endif
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(NAV_BUILDING_BAKE) && defined(NAV_SHARED)
#define NAV_BAKE_API __declspec(dllexport)
#elif defined(NAV_SHARED)
#define NAV_BAKE_API __declspec(dllimport)
#else
#define NAV_BAKE_API
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define NAV_BAKE_API __attribute__((visibility("default")))
#else
#define NAV_BAKE_API
#endif

/* ---- Version --------------------------------------------------------------------------------- */

/* The library's version (the build reads it from here too). Before 1.0 a minor version may change
 * the API and the .nav formats; CHANGELOG.md says what changed, and which chunk versions each
 * release reads and writes. A chunk's own version (NAV_GRID_CHUNK_VERSION, ...) moves whenever its
 * layout does, and the library's minor version with it. */

#define NAV_VERSION_MAJOR 0
#define NAV_VERSION_MINOR 2
#define NAV_VERSION_PATCH 0
/* One number that grows with every release: major * 10000 + minor * 100 + patch. */
#define NAV_VERSION_NUMBER (NAV_VERSION_MAJOR * 10000 + NAV_VERSION_MINOR * 100 + NAV_VERSION_PATCH)

/* The version of the library actually linked, as NAV_VERSION_NUMBER; compare it with the header's
 * NAV_VERSION_NUMBER to detect a mismatch between headers and library. */
NAV_API int nav_version(void);
/* The same as a "major.minor.patch" string (static storage). */
NAV_API const char *nav_version_str(void);

/* ---- Status ---------------------------------------------------------------------------------- */

/* A status is a bit set: exactly one of NAV_SUCCESS, NAV_FAILURE or NAV_IN_PROGRESS in the high
 * bits, plus any number of detail bits in the low 24 bits. */
typedef uint32_t nav_status;

#define NAV_SUCCESS     0x80000000u /* the call did what it was asked (maybe partially: see details) */
#define NAV_FAILURE     0x40000000u /* the call failed; outputs are untouched or empty */
#define NAV_IN_PROGRESS 0x20000000u /* a step-wise search has more work to do */

#define NAV_DETAIL_MASK      0x00ffffffu
#define NAV_INVALID_PARAM    (1u << 0)  /* an argument is null, out of range or inconsistent */
#define NAV_OUT_OF_MEMORY    (1u << 1)  /* an allocation failed */
#define NAV_BUFFER_TOO_SMALL (1u << 2)  /* a caller buffer was too small; the result was cut */
#define NAV_PARTIAL_RESULT   (1u << 3)  /* the goal was not reached; the path leads to the closest cell */
#define NAV_OUT_OF_NODES     (1u << 4)  /* the node budget ran out before the search finished */
#define NAV_UNREACHABLE      (1u << 5)  /* no path exists between start and goal */
#define NAV_IO_ERROR         (1u << 6)  /* a file could not be opened, read or written */
#define NAV_PARSE_ERROR      (1u << 7)  /* a text file does not follow its format */
#define NAV_CORRUPT_DATA     (1u << 8)  /* binary data failed validation (checksum, count, offset) */
#define NAV_WRONG_VERSION    (1u << 9)  /* binary data of an unsupported version or byte order */
#define NAV_TOO_LARGE        (1u << 10) /* a size exceeds what libnav supports */
#define NAV_BLOCKED_ENDPOINT (1u << 11) /* the start or goal is a blocked cell, or off the mesh */
#define NAV_WRONG_STATE      (1u << 12) /* the call does not fit the object's state */
#define NAV_SOURCE_MISMATCH                                                                                  \
    (1u << 13) /* baked data belongs to another source (a bake of another grid):                             \
                * bake it again from this one */

static inline bool nav_succeeded(nav_status s)
{
    return (s & NAV_SUCCESS) != 0;
}
static inline bool nav_failed(nav_status s)
{
    return (s & NAV_FAILURE) != 0;
}
static inline bool nav_in_progress(nav_status s)
{
    return (s & NAV_IN_PROGRESS) != 0;
}
static inline bool nav_has_detail(nav_status s, nav_status detail)
{
    return (s & detail) != 0;
}

/* A short English description of the status: its most telling detail bit, else its main part.
 * Always returns a valid static string. */
NAV_API const char *nav_status_str(nav_status s);

/* Writes every part of the status ("failure: parse error, ...") into buf (always terminated when
 * size > 0). Returns the number of characters the full text needs, like snprintf. */
NAV_API size_t nav_status_format(nav_status s, char *buf, size_t size);

/* ---- Allocator ------------------------------------------------------------------------------- */

/* Memory hooks. alloc and free are required when a nav_allocator is given; realloc is optional
 * (libnav falls back to alloc + copy + free). old_size is the size given when the block was made. */
typedef struct nav_allocator {
    void *(*alloc)(size_t size, void *user);
    void *(*realloc)(void *ptr, size_t old_size, size_t new_size, void *user);
    void (*free)(void *ptr, void *user);
    void *user;
} nav_allocator;

/* ---- Logging --------------------------------------------------------------------------------- */

typedef enum nav_log_level { NAV_LOG_ERROR = 0, NAV_LOG_WARNING = 1, NAV_LOG_INFO = 2 } nav_log_level;

/* A message sink. Loaders send line-numbered errors here ("arena.map:7: row 3 has 48 columns,
 * expected 49"); bakes send progress. The message is valid during the call only. */
typedef struct nav_log {
    void (*fn)(nav_log_level level, const char *message, void *user);
    void *user;
} nav_log;

/* Progress of a long operation: done out of total units; return false to cancel it. */
typedef struct nav_progress {
    bool (*fn)(const char *stage, uint64_t done, uint64_t total, void *user);
    void *user;
} nav_progress;

#ifdef __cplusplus
}
#endif
#endif
