/* Private: what the file loaders share (.map, .scen, ASCII, PNG): lines and words of a text
 * buffer, locale-independent decimal numbers, "NAME:LINE: message" errors, and the step of the
 * nav_*_load_*_file functions that reads the whole file and names it by its base name.
 *
 * A loader keeps its format's rules (which characters a row holds, what a header line means) and
 * calls these for the mechanics:
 *
 *     load_context ctx = {log, name};
 *     line_reader r;
 *     if (!nav__start_lines(&ctx, text, size, NAV__TRIM_BLANKS, &r)) return NAV_FAILURE | NAV_INVALID_PARAM;
 *     text_span line, word;
 *     char shown[48];
 *     uint64_t count;
 *     while (nav__next_line(&r, &line))
 *         if (nav__next_word(&line, &word) && !nav__parse_count(word, &count))
 *             nav__report(&ctx, r.number, "not a count: '%s'", nav__printable(word, shown));
 *
 * Text need not be NUL-terminated and may hold NUL bytes. Only the file and grid functions at the
 * end allocate, through the caller's allocator. */
#ifndef NAV_SRC_TEXT_H
#define NAV_SRC_TEXT_H

#include <stdio.h>

#include "nav/core.h"
#include "nav/grid.h"

#include "log.h"

/* ---- Messages ---------------------------------------------------------------------------------- */

/* Where a loader's messages go and the name they carry. */
typedef struct load_context {
    const nav_log *log; /* [opt] null: messages are dropped */
    const char *name;
} load_context;

/* Sends "NAME:LINE: message" to ctx->log at NAV_LOG_ERROR, or "NAME: message" when line is 0 (an
 * error about the whole file). The message is cut at 399 bytes. */
void nav__report(const load_context *ctx, uint32_t line, const char *fmt, ...) NAV__PRINTF(3, 4);

/* ---- Lines and words --------------------------------------------------------------------------- */

/* A piece of the text: length bytes from text, not NUL-terminated. */
typedef struct text_span {
    const char *text;
    size_t length;
} text_span;

/* What nav__next_line strips besides the line end (LF, CRLF, or CR alone: old Mac OS files). */
typedef enum line_trim {
    NAV__KEEP_BLANKS = 0, /* nothing: a row where a space is a cell (ASCII maps) */
    NAV__TRIM_TRAILING,   /* blanks at the end of the line */
    NAV__TRIM_BLANKS,     /* blanks at both ends */
} line_trim;

/* The longest line a loader reads: no valid line of any format comes near it (a row holds at most
 * NAV_GRID_MAX_SIDE cells), and a file of zeros without a line end is refused after this many
 * bytes instead of being read whole. */
#define NAV__LINE_MAX ((size_t)1 << 20)

/* Reads a text a line at a time: from memory, or from a file a window at a time, so that a file
 * costs memory for its longest line, not for its size. number counts the lines returned, from 1.
 *
 * nav__next_line returns false at the end of the text, and also when the lines stop early: a
 * line longer than NAV__LINE_MAX, a read error. Then status says why and the reason has been
 * reported ("NAME:LINE: line longer than ..."), so a loader that sees false checks status before
 * it reports an early end of its own. A line's text is valid until the next call on the reader. */
typedef struct line_reader {
    const load_context *ctx;
    const char *at, *end; /* what is left of the text in memory (or of the file's window) */
    const char *lf;       /* the next LF at or after at, or end when there is none (null: not known) */
    uint32_t number;      /* of the line last returned (0 before the first; saturates at UINT32_MAX) */
    line_trim trim;
    nav_status status; /* NAV_SUCCESS, or why the lines stopped early */
    /* memory: the whole text */
    const char *text;
    /* a file: window[0..] holds the file's bytes from window_offset on */
    FILE *file;
    char *window;
    size_t window_capacity;
    uint64_t window_offset;
    bool file_end; /* the window holds the file's last byte */
    nav_allocator allocator;
} line_reader;

/* Where a reader stands: nav__lines_seek goes back there (a loader reads some lines twice). */
typedef struct line_mark {
    uint64_t offset; /* bytes from the start of the text */
    uint32_t number;
} line_mark;

/* Sets *r to read size bytes of text, stripping what trim says (a null text of size 0 reads as
 * empty). False, after reporting "NAME: no text given", when text is null but size is not. */
bool nav__start_lines(const load_context *ctx, const char *text, size_t size, line_trim trim, line_reader *r);

/* Opens the file at path and sets *r to read it through allocator [opt] (a window of 64 KiB, grown
 * for long lines up to NAV__LINE_MAX); *size [opt] gets its size. Returns as nav__file_open, having
 * reported "NAME: cannot read 'PATH': why" on failure. Release the reader with nav__end_lines. */
nav_status nav__open_file_lines(const load_context *ctx, const char *path, const nav_allocator *allocator,
                                line_trim trim, uint64_t *size, line_reader *r);
/* Frees a file reader's window and closes its file. Does nothing for a memory reader. */
void nav__end_lines(line_reader *r);

/* Space, tab, CR, VT and FF: the blanks between words and at the ends of lines. */
static inline bool nav__is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The next line, without its line end and the blanks r->trim asks to strip; false at the end of
 * the text (or when the lines stop early: see r->status). A last line without a line end is still
 * a line; an empty text has none. */
bool nav__next_line(line_reader *r, text_span *line);

line_mark nav__lines_mark(const line_reader *r);
/* Goes back (or on) to a mark of the same reader: the next line is the one after the mark. */
void nav__lines_seek(line_reader *r, line_mark mark);

/* s without blanks at either end. */
text_span nav__trim(text_span s);

/* Splits off the first (next_word) or last (last_word) blank-separated word of *rest, leaving the
 * remainder in *rest; false when none is left. */
bool nav__next_word(text_span *rest, text_span *word);
bool nav__last_word(text_span *rest, text_span *word);

/* True when s is exactly word. */
bool nav__span_is(text_span s, const char *word);

/* ---- Numbers ----------------------------------------------------------------------------------- */

/* A decimal count: digits only, at least one. Saturates just above UINT32_MAX, so that
 * "99999999999" reads as too large instead of wrapping around into a plausible size. */
bool nav__parse_count(text_span s, uint64_t *value);

/* A decimal number, [+-]digits[.digits][(e|E)[+-]digits], with at least one digit and nothing
 * else (no blanks, no "inf" or "nan"); read alike under every C locale. */
bool nav__parse_number(text_span s, double *value);

/* ---- Showing file contents in messages --------------------------------------------------------- */

/* Copies up to 40 characters of s into out, then "..." if s is longer; tabs become spaces and
 * other non-printing bytes '?': a message must stay readable whatever the file holds. Returns out. */
const char *nav__printable(text_span s, char out[48]);

/* A character for a message: itself in quotes ("'x'"), or its byte value ("0x09"). Returns out. */
const char *nav__char_name(unsigned char c, char out[8]);

/* ---- Files ------------------------------------------------------------------------------------- */

/* A whole file in memory, read through the caller's allocator. */
typedef struct loaded_file {
    void *bytes;
    size_t size;
    const char *name; /* the last part of the path (after the last '/' or '\'), for messages */
    nav_allocator allocator;
} loaded_file;

/* Reads the file at path. [in] allocator, log: [opt]. On failure reports "NAME: cannot read
 * 'PATH': STATUS" and returns nav_file_read_all's status (NAV_FAILURE | NAV_INVALID_PARAM, without
 * a message, for a null path); file is then empty and need not be freed. */
nav_status nav__read_file(const char *path, const nav_allocator *allocator, const nav_log *log,
                          loaded_file *file);

/* Frees the bytes of a file nav__read_file read. */
void nav__free_file(loaded_file *file);

/* ---- Grids ------------------------------------------------------------------------------------- */

/* The last step of a grid loader, once it has written the cells: derives the move masks, labels
 * reachability and hands the grid out. [in] s: the status of the loader's own steps since it
 * created the grid; a failure there is treated like a failure here. On failure reports
 * "NAME: cannot WHAT: STATUS", destroys the grid and returns the status (*out stays null). */
nav_status nav__finish_grid(const load_context *ctx, nav_grid *grid, nav_status s, const char *what,
                            nav_grid **out);

/* A text grid format's loader over lines (.map, ASCII): r is positioned at the text's start.
 * size_hint is the text's size in bytes, for a loader that can refuse a text larger than its
 * header can need. */
typedef nav_status (*grid_lines_loader)(const load_context *ctx, line_reader *r, uint64_t size_hint,
                                        const nav_grid_desc *options, nav_grid **out);

/* The memory variant of a text grid loader (nav_grid_load_map, nav_grid_load_ascii). */
nav_status nav__load_grid_text(const char *text, size_t size, const char *name, const char *default_name,
                               line_trim trim, const nav_grid_desc *options, nav_grid **out,
                               grid_lines_loader load);

/* The file variant: opens path (a regular file only), reads it through a file reader named by the
 * path's base name, and closes it. Returns as nav__file_open, then as load. [out] out: null on failure. */
nav_status nav__load_grid_file(const char *path, line_trim trim, const nav_grid_desc *options, nav_grid **out,
                               grid_lines_loader load);

/* The last part of a path (after the last '/' or '\\'), which names the file in messages. */
const char *nav__base_name(const char *path);

#endif
