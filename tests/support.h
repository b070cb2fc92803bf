/* Helpers shared by the test suites (not part of libnav). */
#ifndef NAV_TEST_SUPPORT_H
#define NAV_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "nav/core.h"

/* An allocator that counts live blocks and fails the Nth allocation on purpose (Lua's ltests.c
 * trick): fail_at = 0 never fails; fail_at = n fails the nth call and every later one. */
typedef struct test_allocator {
    long calls;
    long fail_at;
    long live;
    nav_allocator hooks;
} test_allocator;

void test_allocator_init(test_allocator *t, long fail_at);

/* Full path of a file in tests/data (a static buffer, valid until the next call). */
const char *test_data(const char *name);

/* Reads a whole file (malloc'd, NUL-terminated); fails the test when it cannot. */
char *test_read_file(const char *path, size_t *size);

/* A nav_log that collects the last message (for asserting on error texts). */
typedef struct test_log {
    char last[512];
    int count;
    nav_log hooks;
} test_log;

void test_log_init(test_log *t);

#endif
