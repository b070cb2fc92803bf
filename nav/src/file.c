/* Opening and reading files (file.h, and nav_file_read_all of nav/io.h).
 *
 * A path may name anything: a FIFO, whose open blocks until a writer comes (forever, for a loader
 * handed one by mistake or by a hostile caller), a directory, a terminal. So a file is opened
 * without blocking, checked to be a regular file, and only then read, in blocking mode again. */
#include "file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#if defined(_WIN32)
#include <sys/stat.h>
#include <sys/types.h>
#else
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include "nav/io.h"

#include "alloc.h"

/* Why an open failed, from errno: a few words, never strerror's static buffer (not thread-safe). */
static void errno_why(int error, char why[NAV__WHY_SIZE])
{
    const char *text = error == ENOENT    ? "no such file"
                       : error == EACCES  ? "permission denied"
                       : error == ENOTDIR ? "a part of the path is not a folder"
                       : error == EISDIR  ? "it is a directory, not a regular file"
                       : error == EMFILE  ? "too many open files"
                       : error == ENFILE  ? "too many open files"
                                          : NULL;
    if (text)
        snprintf(why, NAV__WHY_SIZE, "%s", text);
    else
        snprintf(why, NAV__WHY_SIZE, "cannot open it (errno %d)", error);
}

#if defined(_WIN32)

nav_status nav__file_open(const char *path, FILE **file, uint64_t *size, char why[NAV__WHY_SIZE])
{
    *file = NULL;
    why[0] = '\0';
    if (!path) return NAV_FAILURE | NAV_INVALID_PARAM;
    /* Windows opens no FIFO by path name; the check below refuses directories and devices. */
    FILE *f = fopen(path, "rb");
    if (!f) {
        errno_why(errno, why);
        return NAV_FAILURE | NAV_IO_ERROR;
    }
    struct _stat64 st;
    if (_fstat64(_fileno(f), &st) != 0 || (st.st_mode & _S_IFMT) != _S_IFREG) {
        snprintf(why, NAV__WHY_SIZE, "not a regular file");
        fclose(f);
        return NAV_FAILURE | NAV_IO_ERROR;
    }
    if (size) *size = (uint64_t)st.st_size;
    *file = f;
    return NAV_SUCCESS;
}

#else

static const char *kind_of(mode_t mode)
{
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "something else";
}

nav_status nav__file_open(const char *path, FILE **file, uint64_t *size, char why[NAV__WHY_SIZE])
{
    *file = NULL;
    why[0] = '\0';
    if (!path) return NAV_FAILURE | NAV_INVALID_PARAM;
    /* O_NONBLOCK: opening a FIFO for reading would wait for a writer. O_NOCTTY: a terminal named
     * by mistake must not become the program's controlling terminal. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        errno_why(errno, why);
        return NAV_FAILURE | NAV_IO_ERROR;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        errno_why(errno, why);
        close(fd);
        return NAV_FAILURE | NAV_IO_ERROR;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, NAV__WHY_SIZE, "it is %s, not a regular file", kind_of(st.st_mode));
        close(fd);
        return NAV_FAILURE | NAV_IO_ERROR;
    }
    int flags = fcntl(fd, F_GETFL);
    FILE *f = NULL;
    if (flags != -1 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != -1) f = fdopen(fd, "rb");
    if (!f) {
        errno_why(errno, why);
        close(fd);
        return NAV_FAILURE | NAV_IO_ERROR;
    }
    if (size) *size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
    *file = f;
    return NAV_SUCCESS;
}

#endif

nav_status nav__file_read(FILE *file, void *out, size_t size, char why[NAV__WHY_SIZE])
{
    if (size == 0 || fread(out, 1, size, file) == size) return NAV_SUCCESS;
    snprintf(why, NAV__WHY_SIZE, "%s", ferror(file) ? "read error" : "the file changed while it was read");
    return NAV_FAILURE | NAV_IO_ERROR;
}

nav_status nav__file_read_all(const char *path, const nav_allocator *allocator, void **data, size_t *size,
                              char why[NAV__WHY_SIZE])
{
    *data = NULL;
    *size = 0;
    why[0] = '\0';
    FILE *f;
    uint64_t length;
    nav_status s = nav__file_open(path, &f, &length, why);
    if (nav_failed(s)) return s;
    if (length > NAV_FILE_MAX_BYTES || length >= SIZE_MAX) {
        snprintf(why, NAV__WHY_SIZE, "%llu bytes is over the limit of %llu", (unsigned long long)length,
                 (unsigned long long)NAV_FILE_MAX_BYTES);
        fclose(f);
        return NAV_FAILURE | NAV_TOO_LARGE;
    }
    nav_allocator a;
    nav__allocator_resolve(&a, allocator);
    size_t n = (size_t)length;
    uint8_t *bytes = nav__alloc(&a, n ? n : 1);
    if (!bytes) {
        snprintf(why, NAV__WHY_SIZE, "no memory for %zu bytes", n);
        fclose(f);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    s = nav__file_read(f, bytes, n, why);
    /* Exactly n bytes and then the end: a file that grows while it is read is an error too. */
    if (nav_succeeded(s) && fgetc(f) != EOF) {
        snprintf(why, NAV__WHY_SIZE, "the file changed while it was read");
        s = NAV_FAILURE | NAV_IO_ERROR;
    }
    fclose(f);
    if (nav_failed(s)) {
        nav__free(&a, bytes);
        return s;
    }
    *data = bytes;
    *size = n;
    return NAV_SUCCESS;
}

nav_status nav_file_read_all(const char *path, const nav_allocator *allocator, void **data, size_t *size)
{
    if (!data || !size) return NAV_FAILURE | NAV_INVALID_PARAM;
    char why[NAV__WHY_SIZE];
    return nav__file_read_all(path, allocator, data, size, why);
}
