/* JSON's grammar (RFC 8259, section 2 to 7) with cJSON 1.7's limits, walked without allocating:
 * see json_syntax.h. Arrays and objects are followed on a stack of their kinds, not by recursion.
 * And the strings of a text cJSON parsed, scanned for U+0000 as cJSON reads them. */
#include "json_syntax.h"

#include <stdint.h>
#include <string.h>

#define NESTING_LIMIT 1000 /* cJSON's CJSON_NESTING_LIMIT */
#define NUMBER_LIMIT  63   /* cJSON copies a number into 64 bytes, its NUL among them */

typedef struct scan {
    const unsigned char *at, *end;
} scan;

static void skip_blanks(scan *s)
{
    while (s->at < s->end && (*s->at == ' ' || *s->at == '\t' || *s->at == '\n' || *s->at == '\r')) s->at++;
}

static bool is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* One or more digits. */
static bool digits(scan *s)
{
    const unsigned char *start = s->at;
    while (s->at < s->end && is_digit(*s->at)) s->at++;
    return s->at > start;
}

static bool number(scan *s)
{
    const unsigned char *start = s->at;
    if (*s->at == '-') s->at++;
    if (s->at < s->end && *s->at == '0')
        s->at++;
    else if (!digits(s))
        return false;
    if (s->at < s->end && *s->at == '.') {
        s->at++;
        if (!digits(s)) return false;
    }
    if (s->at < s->end && (*s->at == 'e' || *s->at == 'E')) {
        s->at++;
        if (s->at < s->end && (*s->at == '+' || *s->at == '-')) s->at++;
        if (!digits(s)) return false;
    }
    return s->at - start <= NUMBER_LIMIT;
}

/* The four hex digits of a \u escape at p (p + 4 <= end), into *code. */
static bool hex4(const unsigned char *p, unsigned *code)
{
    *code = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = p[i];
        unsigned v = is_digit(c)            ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                            : 16;
        if (v == 16) return false;
        *code = *code << 4 | v;
    }
    return true;
}

/* A \u escape at s->at (after its backslash and u): a code unit, or a high surrogate followed by
 * a \u escape of a low one (cJSON refuses a lone surrogate). */
static bool unicode_escape(scan *s)
{
    unsigned code, low;
    if (s->end - s->at < 4 || !hex4(s->at, &code)) return false;
    s->at += 4;
    if (code >= 0xDC00 && code <= 0xDFFF) return false;
    if (code < 0xD800 || code > 0xDBFF) return true;
    if (s->end - s->at < 6 || s->at[0] != '\\' || s->at[1] != 'u' || !hex4(s->at + 2, &low) || low < 0xDC00 ||
        low > 0xDFFF)
        return false;
    s->at += 6;
    return true;
}

static bool string(scan *s)
{
    if (s->at == s->end || *s->at != '"') return false;
    s->at++;
    while (s->at < s->end) {
        unsigned char c = *s->at++;
        if (c == '"') return true;
        if (c < 0x20) return false;
        if (c != '\\') continue;
        if (s->at == s->end) return false;
        c = *s->at++;
        if (c == 'u') {
            if (!unicode_escape(s)) return false;
        } else if (c == 0 || !strchr("\"\\/bfnrt", c)) {
            return false;
        }
    }
    return false;
}

/* An object's key and its colon. */
static bool key(scan *s)
{
    skip_blanks(s);
    if (!string(s)) return false;
    skip_blanks(s);
    if (s->at == s->end || *s->at != ':') return false;
    s->at++;
    return true;
}

static bool literal(scan *s, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(s->end - s->at) < n || memcmp(s->at, word, n) != 0) return false;
    s->at += n;
    return true;
}

bool nav__json_well_formed(const char *text, size_t size)
{
    if (!text) return false;
    scan s = {(const unsigned char *)text, (const unsigned char *)text + size};
    if (size >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) s.at += 3;
    unsigned char open[NESTING_LIMIT]; /* the closing bracket of each array or object we are in */
    size_t depth = 0;
    for (;;) {
        /* a value */
        skip_blanks(&s);
        if (s.at == s.end) return false;
        unsigned char c = *s.at;
        bool ok;
        if (c == '[' || c == '{') {
            if (depth == NESTING_LIMIT) return false;
            s.at++;
            open[depth++] = c == '[' ? ']' : '}';
            skip_blanks(&s);
            if (s.at < s.end && *s.at == open[depth - 1]) { /* empty */
                s.at++;
                depth--;
            } else if (c == '[' || key(&s)) {
                continue; /* to its first value */
            } else {
                return false;
            }
            ok = true;
        } else if (c == '"') {
            ok = string(&s);
        } else if (c == '-' || is_digit(c)) {
            ok = number(&s);
        } else {
            ok = literal(&s, "true") || literal(&s, "false") || literal(&s, "null");
        }
        if (!ok) return false;
        /* after a value: the next one of its array or object, or their ends */
        for (;;) {
            if (depth == 0) return true; /* what follows the value is not read (nor by cJSON) */
            skip_blanks(&s);
            if (s.at == s.end) return false;
            c = *s.at++;
            if (c == ',') {
                if (open[depth - 1] == '}' && !key(&s)) return false;
                break;
            }
            if (c != open[depth - 1]) return false;
            depth--;
        }
    }
}

size_t nav__json_string_with_nul(const char *text, size_t size)
{
    if (!text) return SIZE_MAX;
    size_t strings = 0;
    bool inside = false;
    /* as cJSON reads a string: it ends at the first quote no backslash escapes */
    for (size_t i = 0; i < size; i++) {
        char c = text[i];
        if (!inside) {
            inside = c == '"';
            continue;
        }
        if (c == '"') {
            inside = false;
            strings++;
        } else if (c == '\0') {
            return strings;
        } else if (c == '\\' && i + 1 < size) {
            if (text[i + 1] == 'u' && size - i >= 6 && memcmp(text + i + 2, "0000", 4) == 0) return strings;
            i++; /* the escaped character, a quote or a backslash among them */
        }
    }
    return SIZE_MAX;
}
