/* The loaders' shared text scanning, number parsing, messages and file reading (see text.h). */
#include "text.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nav/io.h"

#include "alloc.h"
#include "file.h"
#include "grid_internal.h"

/* ---- Messages ---------------------------------------------------------------------------------- */

void nav__report(const load_context *ctx, uint32_t line, const char *fmt, ...)
{
    if (!ctx->log || !ctx->log->fn) return;
    char message[400];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    if (line)
        nav__logf(ctx->log, NAV_LOG_ERROR, "%s:%u: %s", ctx->name, line, message);
    else
        nav__logf(ctx->log, NAV_LOG_ERROR, "%s: %s", ctx->name, message);
}

/* ---- Lines and words --------------------------------------------------------------------------- */

bool nav__start_lines(const load_context *ctx, const char *text, size_t size, line_trim trim, line_reader *r)
{
    *r = (line_reader){.at = text, .end = text ? text + size : NULL, .trim = trim};
    if (text || !size) return true;
    nav__report(ctx, 0, "no text given");
    return false;
}

bool nav__next_line(line_reader *r, text_span *line)
{
    if (r->at >= r->end) return false;
    const char *start = r->at;
    const char *newline = memchr(start, '\n', (size_t)(r->end - start));
    const char *stop = newline ? newline : r->end;
    r->at = newline ? newline + 1 : r->end;
    if (stop > start && stop[-1] == '\r') stop--;
    if (r->number < UINT32_MAX) r->number++;
    *line = (text_span){start, (size_t)(stop - start)};
    if (r->trim == NAV__TRIM_BLANKS) {
        *line = nav__trim(*line);
    } else if (r->trim == NAV__TRIM_TRAILING) {
        while (line->length && nav__is_blank(line->text[line->length - 1])) line->length--;
    }
    return true;
}

text_span nav__trim(text_span s)
{
    while (s.length && nav__is_blank(s.text[0])) s.text++, s.length--;
    while (s.length && nav__is_blank(s.text[s.length - 1])) s.length--;
    return s;
}

bool nav__next_word(text_span *rest, text_span *word)
{
    const char *at = rest->text, *end = rest->text + rest->length;
    while (at < end && nav__is_blank(*at)) at++;
    const char *start = at;
    while (at < end && !nav__is_blank(*at)) at++;
    *word = (text_span){start, (size_t)(at - start)};
    *rest = (text_span){at, (size_t)(end - at)};
    return word->length > 0;
}

bool nav__last_word(text_span *rest, text_span *word)
{
    const char *begin = rest->text, *at = rest->text + rest->length;
    while (at > begin && nav__is_blank(at[-1])) at--;
    const char *stop = at;
    while (at > begin && !nav__is_blank(at[-1])) at--;
    *word = (text_span){at, (size_t)(stop - at)};
    *rest = (text_span){begin, (size_t)(at - begin)};
    return word->length > 0;
}

bool nav__span_is(text_span s, const char *word)
{
    size_t n = strlen(word);
    return s.length == n && memcmp(s.text, word, n) == 0;
}

/* ---- Numbers ----------------------------------------------------------------------------------- */

bool nav__parse_count(text_span s, uint64_t *value)
{
    if (s.length == 0) return false;
    uint64_t v = 0;
    for (size_t i = 0; i < s.length; i++) {
        if (s.text[i] < '0' || s.text[i] > '9') return false;
        if (v <= UINT32_MAX) v = v * 10 + (uint64_t)(s.text[i] - '0');
    }
    *value = v;
    return true;
}

/* Not strtod: strtod follows LC_NUMERIC, and a program running under a German locale would read
 * "2.5" as 2. Up to 19 significant digits are kept; within 2^53 and 10^+-22 the result is
 * correctly rounded (one exact multiply or divide), which covers every value the map and
 * benchmark files hold; beyond that it is within an ulp or two. */
bool nav__parse_number(text_span s, double *value)
{
    static const double powers[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *at = s.text, *end = s.text + s.length;
    bool negative = false;
    if (at < end && (*at == '+' || *at == '-')) negative = *at++ == '-';
    uint64_t mantissa = 0;
    int digits = 0, kept = 0;
    long exponent = 0;
    for (; at < end && *at >= '0' && *at <= '9'; at++, digits++) {
        if (kept < 19) {
            mantissa = mantissa * 10 + (uint64_t)(*at - '0');
            if (mantissa) kept++;
        } else {
            exponent++;
        }
    }
    if (at < end && *at == '.') {
        for (at++; at < end && *at >= '0' && *at <= '9'; at++, digits++) {
            if (kept < 19) {
                mantissa = mantissa * 10 + (uint64_t)(*at - '0');
                if (mantissa) kept++;
                exponent--;
            }
        }
    }
    if (digits == 0) return false;
    if (at < end && (*at == 'e' || *at == 'E')) {
        at++;
        bool exp_negative = false;
        if (at < end && (*at == '+' || *at == '-')) exp_negative = *at++ == '-';
        if (at == end || *at < '0' || *at > '9') return false;
        long e = 0;
        for (; at < end && *at >= '0' && *at <= '9'; at++)
            if (e < 100000) e = e * 10 + (*at - '0');
        exponent += exp_negative ? -e : e;
    }
    if (at != end) return false;
    double v = (double)mantissa;
    if (mantissa == 0)
        v = 0;
    else if (exponent >= 0 && exponent <= 22)
        v *= powers[exponent];
    else if (exponent < 0 && exponent >= -22)
        v /= powers[-exponent];
    else
        v *= pow(10.0, (double)exponent);
    *value = negative ? -v : v;
    return true;
}

/* ---- Showing file contents in messages --------------------------------------------------------- */

const char *nav__printable(text_span s, char out[48])
{
    size_t n = s.length < 40 ? s.length : 40, i;
    for (i = 0; i < n; i++) {
        char c = s.text[i] == '\t' ? ' ' : s.text[i];
        out[i] = c >= 0x20 && c < 0x7f ? c : '?';
    }
    if (s.length > n) out[i++] = '.', out[i++] = '.', out[i++] = '.';
    out[i] = '\0';
    return out;
}

const char *nav__char_name(unsigned char c, char out[8])
{
    if (c >= 0x20 && c < 0x7f)
        snprintf(out, 8, "'%c'", c);
    else
        snprintf(out, 8, "0x%02x", c);
    return out;
}

/* ---- Files ------------------------------------------------------------------------------------- */

/* The last part of a path, which names the file in messages. */
static const char *base_name(const char *path)
{
    const char *name = path;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\') name = p + 1;
    return name;
}

nav_status nav__read_file(const char *path, const nav_allocator *allocator, const nav_log *log,
                          loaded_file *file)
{
    *file = (loaded_file){0};
    if (!path) return NAV_FAILURE | NAV_INVALID_PARAM;
    file->name = base_name(path);
    nav__allocator_resolve(&file->allocator, allocator);
    char why[NAV__WHY_SIZE];
    nav_status s = nav__file_read_all(path, &file->allocator, &file->bytes, &file->size, why);
    if (nav_failed(s)) nav__report(&(load_context){log, file->name}, 0, "cannot read '%s': %s", path, why);
    return s;
}

void nav__free_file(loaded_file *file)
{
    nav__free(&file->allocator, file->bytes);
    file->bytes = NULL;
    file->size = 0;
}

/* ---- Grids ------------------------------------------------------------------------------------- */

nav_status nav__finish_grid(const load_context *ctx, nav_grid *grid, nav_status s, const char *what,
                            nav_grid **out)
{
    if (nav_succeeded(s)) {
        nav__grid_rebuild(grid);
        s = nav_grid_build_reachability(grid);
    }
    if (nav_failed(s)) {
        nav__report(ctx, 0, "cannot %s: %s", what, nav_status_str(s));
        nav_grid_destroy(grid);
        return s;
    }
    *out = grid;
    return NAV_SUCCESS;
}

nav_status nav__load_grid_file(const char *path, const nav_grid_desc *options, nav_grid **out,
                               grid_text_loader load)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    loaded_file file;
    nav_status s =
        nav__read_file(path, options ? options->allocator : NULL, options ? options->log : NULL, &file);
    if (nav_failed(s)) return s;
    s = load(file.bytes, file.size, file.name, options, out);
    nav__free_file(&file);
    return s;
}
