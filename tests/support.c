#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *counting_alloc(size_t size, void *user)
{
    test_allocator *t = user;
    t->calls++;
    if (t->fail_at > 0 && t->calls >= t->fail_at) return NULL;
    void *p = malloc(size);
    if (p) t->live++;
    return p;
}

static void *counting_realloc(void *ptr, size_t old_size, size_t new_size, void *user)
{
    (void)old_size;
    test_allocator *t = user;
    t->calls++;
    if (t->fail_at > 0 && t->calls >= t->fail_at) return NULL;
    void *p = realloc(ptr, new_size);
    if (p && !ptr) t->live++;
    return p;
}

static void counting_free(void *ptr, void *user)
{
    test_allocator *t = user;
    if (ptr) t->live--;
    free(ptr);
}

void test_allocator_init(test_allocator *t, long fail_at)
{
    *t = (test_allocator){.fail_at = fail_at};
    t->hooks = (nav_allocator){counting_alloc, counting_realloc, counting_free, t};
}

const char *test_data(const char *name)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", NAV_TEST_DATA, name);
    return path;
}

char *test_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    if (size) *size = (size_t)n;
    return text;
}

static void collect(nav_log_level level, const char *message, void *user)
{
    (void)level;
    test_log *t = user;
    snprintf(t->last, sizeof t->last, "%s", message);
    t->count++;
}

void test_log_init(test_log *t)
{
    *t = (test_log){0};
    t->hooks = (nav_log){collect, t};
}
