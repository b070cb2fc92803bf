/* Status strings and the library version. */
#include "nav/core.h"

#include <stdio.h>
#include <string.h>

#define NAV__STR2(x) #x
#define NAV__STR(x)  NAV__STR2(x)

int nav_version(void)
{
    return NAV_VERSION_NUMBER;
}

const char *nav_version_str(void)
{
    return NAV__STR(NAV_VERSION_MAJOR) "." NAV__STR(NAV_VERSION_MINOR) "." NAV__STR(NAV_VERSION_PATCH);
}

/* Detail bits from the most to the least telling. */
static const struct {
    nav_status bit;
    const char *text;
} detail_names[] = {
    {NAV_OUT_OF_MEMORY, "out of memory"},
    {NAV_IO_ERROR, "i/o error"},
    {NAV_PARSE_ERROR, "parse error"},
    {NAV_CORRUPT_DATA, "corrupt data"},
    {NAV_WRONG_VERSION, "unsupported version or byte order"},
    {NAV_SOURCE_MISMATCH, "baked from another source"},
    {NAV_TOO_LARGE, "size too large"},
    {NAV_BLOCKED_ENDPOINT, "start or goal is blocked or off the mesh"},
    {NAV_INVALID_PARAM, "invalid parameter"},
    {NAV_WRONG_STATE, "call does not fit the object's state"},
    {NAV_UNREACHABLE, "goal unreachable"},
    {NAV_OUT_OF_NODES, "node budget exhausted"},
    {NAV_PARTIAL_RESULT, "partial result"},
    {NAV_BUFFER_TOO_SMALL, "buffer too small"},
};

static const char *main_part(nav_status s)
{
    if (s & NAV_FAILURE) return "failure";
    if (s & NAV_IN_PROGRESS) return "in progress";
    if (s & NAV_SUCCESS) return "success";
    return "invalid status";
}

const char *nav_status_str(nav_status s)
{
    for (size_t i = 0; i < sizeof detail_names / sizeof detail_names[0]; i++)
        if (s & detail_names[i].bit) return detail_names[i].text;
    return main_part(s);
}

size_t nav_status_format(nav_status s, char *buf, size_t size)
{
    char text[512];
    size_t len = (size_t)snprintf(text, sizeof text, "%s", main_part(s));
    const char *sep = ": ";
    for (size_t i = 0; i < sizeof detail_names / sizeof detail_names[0]; i++) {
        if (!(s & detail_names[i].bit)) continue;
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", sep, detail_names[i].text);
        sep = ", ";
    }
    if (size > 0) {
        size_t n = len < size - 1 ? len : size - 1;
        memcpy(buf, text, n);
        buf[n] = '\0';
    }
    return len;
}
