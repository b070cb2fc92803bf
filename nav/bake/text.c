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

/* 64-bit file positions: long is 32 bits on Windows. */
#if defined(_WIN32)
#define seek_file _fseeki64
#else
#define seek_file fseeko
#endif

#define WINDOW_START ((size_t)1 << 16)
#define WINDOW_MAX   (NAV__LINE_MAX + 2) /* the longest line, its CR and its LF */

bool nav__start_lines(const load_context *ctx, const char *text, size_t size, line_trim trim, line_reader *r)
{
    *r = (line_reader){.ctx = ctx,
                       .at = text,
                       .end = text ? text + size : NULL,
                       .trim = trim,
                       .status = NAV_SUCCESS,
                       .text = text};
    if (text || !size) return true;
    nav__report(ctx, 0, "no text given");
    r->status = NAV_FAILURE | NAV_INVALID_PARAM;
    return false;
}

nav_status nav__open_file_lines(const load_context *ctx, const char *path, const nav_allocator *allocator,
                                line_trim trim, uint64_t *size, line_reader *r)
{
    *r = (line_reader){.ctx = ctx, .trim = trim, .status = NAV_SUCCESS};
    nav__allocator_resolve(&r->allocator, allocator);
    char why[NAV__WHY_SIZE];
    nav_status s = nav__file_open(path, &r->file, size, why);
    if (nav_failed(s)) {
        r->file = NULL;
        nav__report(ctx, 0, "cannot read '%s': %s", path, why);
    }
    return s;
}

void nav__end_lines(line_reader *r)
{
    if (r->file) {
        nav__free(&r->allocator, r->window);
        fclose(r->file);
        r->file = NULL;
    }
    r->window = NULL;
    r->at = r->end = NULL;
}

/* The lines stop early: says why once, and makes the reader return no more lines. */
static bool stop_lines(line_reader *r, nav_status status, const char *why)
{
    uint32_t next = r->number < UINT32_MAX ? r->number + 1 : r->number;
    if (nav_has_detail(status, NAV_PARSE_ERROR))
        nav__report(r->ctx, next, "%s", why);
    else
        nav__report(r->ctx, 0, "%s after line %u", why, r->number);
    r->status = status;
    return false;
}

/* Makes room after the unread bytes of the window and reads into it: moves them to the window's
 * start, grows it when they fill it, reads what fits. False when the lines must stop. */
static bool refill(line_reader *r)
{
    size_t pending = r->window ? (size_t)(r->end - r->at) : 0;
    r->window_offset += r->window ? (uint64_t)(r->at - r->window) : 0; /* the window now starts at r->at */
    if (pending == r->window_capacity) {
        if (r->window_capacity >= WINDOW_MAX)
            return stop_lines(r, NAV_FAILURE | NAV_PARSE_ERROR, "line longer than 1 MiB");
        size_t grown = r->window_capacity ? r->window_capacity * 2 : WINDOW_START;
        if (grown > WINDOW_MAX) grown = WINDOW_MAX;
        char *bigger = nav__alloc(&r->allocator, grown);
        if (!bigger) return stop_lines(r, NAV_FAILURE | NAV_OUT_OF_MEMORY, "out of memory");
        if (pending) memcpy(bigger, r->at, pending);
        nav__free(&r->allocator, r->window);
        r->window = bigger;
        r->window_capacity = grown;
    } else if (pending) {
        memmove(r->window, r->at, pending);
    }
    size_t want = r->window_capacity - pending;
    size_t got = fread(r->window + pending, 1, want, r->file);
    if (got < want) {
        if (ferror(r->file)) return stop_lines(r, NAV_FAILURE | NAV_IO_ERROR, "read error");
        r->file_end = true;
    }
    r->at = r->window;
    r->end = r->window + pending + got;
    r->lf = NULL;
    return true;
}

/* The first CR or LF in the text left, or null. The next LF is kept between calls (r->lf), so that a
 * text whose lines end in CR alone is not searched to its end for an LF at every line. */
static const char *line_end(line_reader *r)
{
    if (!r->lf || r->lf < r->at) { /* not known, or passed */
        const char *lf = memchr(r->at, '\n', (size_t)(r->end - r->at));
        r->lf = lf ? lf : r->end;
    }
    const char *cr = memchr(r->at, '\r', (size_t)(r->lf - r->at));
    return cr ? cr : r->lf < r->end ? r->lf : NULL;
}

bool nav__next_line(line_reader *r, text_span *line)
{
    if (nav_failed(r->status)) return false;
    const char *stop;
    for (;;) {
        stop = r->at < r->end ? line_end(r) : NULL;
        /* a CR that ends the window may be the first half of a CRLF: read on to see */
        bool split_crlf = stop && *stop == '\r' && stop + 1 == r->end;
        if ((stop && !split_crlf) || !r->file || r->file_end) break;
        if (!refill(r)) return false;
    }
    if (r->at >= r->end) return false;
    const char *start = r->at, *next = r->end;
    if (stop)
        next = stop + 1 + (*stop == '\r' && stop + 1 < r->end && stop[1] == '\n'); /* CRLF */
    else
        stop = r->end;
    if ((size_t)(stop - start) > NAV__LINE_MAX)
        return stop_lines(r, NAV_FAILURE | NAV_PARSE_ERROR, "line longer than 1 MiB");
    r->at = next;
    if (r->number < UINT32_MAX) r->number++;
    *line = (text_span){start, (size_t)(stop - start)};
    if (r->trim == NAV__TRIM_BLANKS) {
        *line = nav__trim(*line);
    } else if (r->trim == NAV__TRIM_TRAILING) {
        while (line->length && nav__is_blank(line->text[line->length - 1])) line->length--;
    }
    return true;
}

line_mark nav__lines_mark(const line_reader *r)
{
    const char *base = r->file ? r->window : r->text;
    return (line_mark){(r->file ? r->window_offset : 0) + (base ? (uint64_t)(r->at - base) : 0), r->number};
}

void nav__lines_seek(line_reader *r, line_mark mark)
{
    r->number = mark.number;
    r->lf = NULL;
    if (!r->file) {
        r->at = r->text + mark.offset;
        return;
    }
    uint64_t held = (uint64_t)(r->end - r->window);
    if (r->window && mark.offset >= r->window_offset && mark.offset - r->window_offset <= held) {
        r->at = r->window + (mark.offset - r->window_offset);
        return;
    }
    /* Beyond the window: read from the mark on (refill moves nothing: at is the window's start). */
    r->at = r->end = r->window;
    r->window_offset = mark.offset;
    r->file_end = false;
    if (mark.offset > (uint64_t)INT64_MAX || seek_file(r->file, (int64_t)mark.offset, SEEK_SET) != 0)
        stop_lines(r, NAV_FAILURE | NAV_IO_ERROR, "seek error");
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

const char *nav__base_name(const char *path)
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
    file->name = nav__base_name(path);
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

nav_status nav__load_grid_text(const char *text, size_t size, const char *name, const char *default_name,
                               line_trim trim, const nav_grid_desc *options, nav_grid **out,
                               grid_lines_loader load)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    load_context ctx = {options ? options->log : NULL, name ? name : default_name};
    line_reader r;
    if (!nav__start_lines(&ctx, text, size, trim, &r)) return r.status;
    return load(&ctx, &r, size, options, out);
}

nav_status nav__load_grid_file(const char *path, line_trim trim, const nav_grid_desc *options, nav_grid **out,
                               grid_lines_loader load)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!path) return NAV_FAILURE | NAV_INVALID_PARAM;
    load_context ctx = {options ? options->log : NULL, nav__base_name(path)};
    uint64_t size;
    line_reader r;
    nav_status s = nav__open_file_lines(&ctx, path, options ? options->allocator : NULL, trim, &size, &r);
    if (nav_failed(s)) return s;
    s = load(&ctx, &r, size, options, out);
    nav__end_lines(&r);
    return s;
}
