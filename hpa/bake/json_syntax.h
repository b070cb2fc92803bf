/* Private: whether a text is JSON cJSON can parse, checked without allocating anything (and,
 * below, which of its strings cJSON would cut short).
 *
 * cJSON returns null both for text that is not JSON and when its own allocations fail, and says
 * nothing of which: its allocation hooks are global (cJSON_InitHooks), which libnav may not set.
 * The world file loader asks this check when cJSON fails: text this accepts is text cJSON parses
 * whenever memory lasts, so its failure there was memory. The check is RFC 8259's grammar with
 * cJSON 1.7's limits (at most CJSON_NESTING_LIMIT, 1000, arrays and objects one in another; a number
 * of at most 63 characters, as cJSON 1.7.15 reads them, though later versions read longer ones; a
 * \u escape of a UTF-16 surrogate only as a high-low pair) and its leniencies where they are cheap to
 * mirror (a UTF-8 byte order mark before the value, anything after it). Wherever it is stricter than
 * cJSON (control characters inside strings, blanks other than JSON's four, "01", "1."), a failure of
 * cJSON's memory is still reported as a parse error: never the other way round. */
#ifndef NAV_HPA_BAKE_JSON_SYNTAX_H
#define NAV_HPA_BAKE_JSON_SYNTAX_H

#include <stdbool.h>
#include <stddef.h>

/* True when the size bytes of text (need not be NUL-terminated) start with one JSON value. */
bool nav__json_well_formed(const char *text, size_t size);

/* cJSON keeps a string as a C string, so one holding U+0000 (a \u0000 escape, or a raw NUL byte,
 * which cJSON lets through) is cut short there: "A\u0000zzz" reads as "A". Of the strings in the
 * size bytes of text that cJSON parsed (keys and values alike, counted from 0 in the order they
 * start), the first that holds U+0000, or SIZE_MAX when none does. cJSON's tree holds the same
 * strings in the same order (an object's key before its value), so the count leads to the string's
 * place in it. */
size_t nav__json_string_with_nul(const char *text, size_t size);

#endif
