/* The waypoint text format (docs/waypoints.md): a header line, then one waypoint or link a line.
 *
 *     libnav waypoints 1
 *     waypoint NAME X Y Z [tags N]
 *     link FROM TO [cost C] [oneway] [flags N] [disabled]
 *
 * Blank lines and lines starting with '#' are skipped. A link may name a waypoint defined further
 * down; names are resolved once the whole text is read. The graph is gathered in stb_ds arrays and
 * an index of names (bake-time code), then copied into one block from the caller's allocator; a
 * failed allocation anywhere gives NAV_OUT_OF_MEMORY. */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "ds.h"
#include "index.h"
#include "text.h"
#include "waypoints_internal.h"

/* A link as read: its two names (offsets into the name buffer) and the line it is on. */
typedef struct read_link {
    size_t from, to;
    uint32_t line;
    nav_waypoint_link link;
} read_link;

typedef struct reading {
    const load_context *ctx;
    nav_waypoint *waypoints; /* stb_ds array (names: null until the end) */
    size_t *waypoint_name;   /* where each one's name starts in names */
    uint32_t *waypoint_line;
    read_link *links;
    char *names;        /* stb_ds array of NUL-terminated names */
    nav__index by_name; /* the waypoints by name */
    bool out_of_memory;
} reading;

static bool same_name(uint32_t item, const void *key, const void *ctx)
{
    const reading *rd = ctx;
    return strcmp(rd->names + rd->waypoint_name[item], key) == 0;
}

/* The waypoint of this name, or NAV__INDEX_NONE. */
static uint32_t find_name(const reading *rd, const char *name)
{
    return nav__index_find(&rd->by_name, nav__index_hash_string(name), same_name, name, rd);
}

/* Copies a word into the name buffer; its offset, or SIZE_MAX when it is no valid name or memory
 * ran out (rd->out_of_memory). */
static size_t keep_name(reading *rd, text_span word)
{
    if (!nav__waypoint_name_ok(word.text, word.length)) return SIZE_MAX;
    size_t at = arrlenu(rd->names);
    char *copy = nav__arr_addn(rd->names, word.length + 1);
    if (!copy) {
        rd->out_of_memory = true;
        return SIZE_MAX;
    }
    memcpy(copy, word.text, word.length);
    copy[word.length] = 0;
    return at;
}

static bool read_waypoint(reading *rd, text_span rest, uint32_t line)
{
    const load_context *ctx = rd->ctx;
    text_span word;
    char shown[48];
    if (!nav__next_word(&rest, &word)) {
        nav__report(ctx, line, "waypoint without a name");
        return false;
    }
    size_t name = keep_name(rd, word);
    if (rd->out_of_memory) return false;
    if (name == SIZE_MAX) {
        nav__report(ctx, line, "'%s' is no name (1 to %u bytes, no control characters)",
                    nav__printable(word, shown), NAV_WAYPOINT_NAME_MAX);
        return false;
    }
    uint32_t known = find_name(rd, rd->names + name);
    if (known != NAV__INDEX_NONE) {
        uint32_t w = known;
        nav__report(ctx, line, "waypoint '%s' is already defined on line %u", rd->names + name,
                    rd->waypoint_line[w]);
        return false;
    }
    if (arrlenu(rd->waypoints) >= NAV_WAYPOINTS_LIMIT) {
        nav__report(ctx, line, "more than %u waypoints", NAV_WAYPOINTS_LIMIT);
        return false;
    }
    double xyz[3];
    static const char *const axis[3] = {"x", "y", "z"};
    for (int i = 0; i < 3; i++) {
        if (!nav__next_word(&rest, &word)) {
            nav__report(ctx, line, "waypoint '%s' has no %s coordinate", rd->names + name, axis[i]);
            return false;
        }
        if (!nav__parse_number(word, &xyz[i]) || !isfinite((float)xyz[i])) {
            nav__report(ctx, line, "%s coordinate '%s' is not a finite number", axis[i],
                        nav__printable(word, shown));
            return false;
        }
    }
    nav_waypoint w = {.position = {(float)xyz[0], (float)xyz[1], (float)xyz[2]}};
    bool tagged = false;
    while (nav__next_word(&rest, &word)) {
        uint64_t count;
        if (nav__span_is(word, "tags") && tagged) {
            nav__report(ctx, line, "'tags' is given twice for waypoint '%s'", rd->names + name);
            return false;
        }
        if (nav__span_is(word, "tags") && nav__next_word(&rest, &word)) {
            tagged = true;
            if (!nav__parse_count(word, &count) || count > UINT32_MAX) {
                nav__report(ctx, line, "tags '%s' are not a count below 2^32", nav__printable(word, shown));
                return false;
            }
            w.tags = (uint32_t)count;
            continue;
        }
        nav__report(ctx, line, "unexpected '%s' after waypoint '%s' (only 'tags N' may follow)",
                    nav__printable(word, shown), rd->names + name);
        return false;
    }
    uint32_t index = (uint32_t)arrlenu(rd->waypoints);
    if (!nav__arr_reserve(rd->waypoints, 1) || !nav__arr_reserve(rd->waypoint_name, 1) ||
        !nav__arr_reserve(rd->waypoint_line, 1)) {
        rd->out_of_memory = true;
        return false;
    }
    nav__arr_put_reserved(rd->waypoints, w);
    nav__arr_put_reserved(rd->waypoint_name, name);
    nav__arr_put_reserved(rd->waypoint_line, line);
    if (!nav__index_add(&rd->by_name, nav__index_hash_string(rd->names + name), index)) {
        rd->out_of_memory = true;
        return false;
    }
    return true;
}

static bool read_link_line(reading *rd, text_span rest, uint32_t line)
{
    const load_context *ctx = rd->ctx;
    text_span word;
    char shown[48];
    read_link l = {.line = line};
    size_t *ends[2] = {&l.from, &l.to};
    for (int i = 0; i < 2; i++) {
        if (!nav__next_word(&rest, &word)) {
            nav__report(ctx, line, "link without %s waypoint", i ? "a second" : "any");
            return false;
        }
        *ends[i] = keep_name(rd, word);
        if (rd->out_of_memory) return false;
        if (*ends[i] == SIZE_MAX) {
            nav__report(ctx, line, "'%s' is no waypoint name", nav__printable(word, shown));
            return false;
        }
    }
    /* each option at most once: a second one is a mistake (which would win?), not a change */
    static const char *const options[] = {"oneway", "disabled", "cost", "flags"};
    bool given[4] = {false, false, false, false};
    while (nav__next_word(&rest, &word)) {
        uint64_t count;
        int option = -1;
        for (int k = 0; k < 4; k++)
            if (nav__span_is(word, options[k])) option = k;
        if (option < 0) {
            nav__report(ctx, line, "unexpected '%s' in a link (cost C, oneway, flags N, disabled)",
                        nav__printable(word, shown));
            return false;
        }
        if (given[option]) {
            nav__report(ctx, line, "'%s' is given twice in one link", options[option]);
            return false;
        }
        given[option] = true;
        if (option == 0) {
            l.link.one_way = true;
        } else if (option == 1) {
            l.link.disabled = true;
        } else if (option == 2) {
            double cost;
            if (!nav__next_word(&rest, &word) || !nav__parse_number(word, &cost)) {
                nav__report(ctx, line, "cost needs a number");
                return false;
            }
            if (!(cost > 0 && cost <= NAV_WAYPOINT_MAX_COST)) {
                nav__report(ctx, line,
                            "cost %s is not above 0 and at most 1e30 (leave it out for the link's length)",
                            nav__printable(word, shown));
                return false;
            }
            l.link.cost = cost;
        } else {
            if (!nav__next_word(&rest, &word) || !nav__parse_count(word, &count) || count > UINT16_MAX) {
                nav__report(ctx, line, "flags need a count below 65536");
                return false;
            }
            l.link.flags = (uint16_t)count;
        }
    }
    if (!nav__arr_push(rd->links, l)) {
        rd->out_of_memory = true;
        return false;
    }
    return true;
}

/* Resolves the links' names and copies the graph into one block of the caller's. */
static nav_status finish(reading *rd, const nav_allocator *allocator, nav_waypoint_graph *out)
{
    const load_context *ctx = rd->ctx;
    uint32_t n = (uint32_t)arrlenu(rd->waypoints);
    size_t m = arrlenu(rd->links), name_bytes = arrlenu(rd->names);
    if (m > UINT32_MAX) {
        nav__report(ctx, 0, "more than %u links", UINT32_MAX);
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    for (size_t i = 0; i < m; i++) {
        read_link *l = &rd->links[i];
        const char *names[2] = {rd->names + l->from, rd->names + l->to};
        uint32_t *index[2] = {&l->link.from, &l->link.to};
        for (int k = 0; k < 2; k++) {
            uint32_t at = find_name(rd, names[k]);
            if (at == NAV__INDEX_NONE) {
                nav__report(ctx, l->line, "link names waypoint '%s', which is not defined", names[k]);
                return NAV_FAILURE | NAV_PARSE_ERROR;
            }
            *index[k] = at;
        }
    }
    size_t bytes = nav__mul_size(n, sizeof(nav_waypoint));
    size_t link_at = bytes, names_at = link_at + nav__mul_size(m, sizeof(nav_waypoint_link));
    size_t total = names_at + name_bytes;
    nav_allocator a;
    nav__allocator_resolve(&a, allocator);
    char *block = nav__alloc(&a, total ? total : 1);
    if (!block) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    nav_waypoint *waypoints = (nav_waypoint *)(void *)block;
    nav_waypoint_link *links = (nav_waypoint_link *)(void *)(block + link_at);
    char *names = block + names_at;
    if (name_bytes) memcpy(names, rd->names, name_bytes);
    for (uint32_t i = 0; i < n; i++) {
        waypoints[i] = rd->waypoints[i];
        waypoints[i].name = names + rd->waypoint_name[i];
    }
    for (size_t i = 0; i < m; i++) links[i] = rd->links[i].link;
    *out = (nav_waypoint_graph){waypoints, n, links, (uint32_t)m, block, a};
    return NAV_SUCCESS;
}

static nav_status load_lines(const load_context *ctx, line_reader *r, const nav_allocator *allocator,
                             nav_waypoint_graph *out)
{
    reading rd = {.ctx = ctx};
    text_span line, word;
    char shown[48];
    nav_status s = NAV_SUCCESS;
    bool header = false;
    while (nav__next_line(r, &line)) {
        text_span rest = line;
        if (!nav__next_word(&rest, &word) || word.text[0] == '#') continue;
        if (!header) {
            uint64_t version;
            text_span kind, number;
            if (nav__span_is(word, "waypoint") || nav__span_is(word, "link")) {
                nav__report(ctx, r->number,
                            "no header: a waypoint file starts with 'libnav waypoints 1' (found '%s' first)",
                            nav__printable(line, shown));
                s = NAV_FAILURE | NAV_PARSE_ERROR;
                break;
            }
            if (!nav__span_is(word, "libnav") || !nav__next_word(&rest, &kind) ||
                !nav__span_is(kind, "waypoints") || !nav__next_word(&rest, &number) ||
                !nav__parse_count(number, &version) || nav__next_word(&rest, &word)) {
                nav__report(ctx, r->number, "expected the header 'libnav waypoints 1', found '%s'",
                            nav__printable(line, shown));
                s = NAV_FAILURE | NAV_PARSE_ERROR;
                break;
            }
            if (version != 1) {
                nav__report(ctx, r->number, "waypoint format version %s; this library reads version 1",
                            nav__printable(number, shown));
                s = NAV_FAILURE | NAV_PARSE_ERROR;
                break;
            }
            header = true;
            continue;
        }
        bool ok;
        if (nav__span_is(word, "waypoint")) {
            ok = read_waypoint(&rd, rest, r->number);
        } else if (nav__span_is(word, "link")) {
            ok = read_link_line(&rd, rest, r->number);
        } else {
            nav__report(ctx, r->number, "unknown keyword '%s' (waypoint, link)", nav__printable(word, shown));
            ok = false;
        }
        if (!ok) {
            s = NAV_FAILURE | (rd.out_of_memory ? NAV_OUT_OF_MEMORY : NAV_PARSE_ERROR);
            break;
        }
    }
    if (!nav_failed(s) && nav_failed(r->status)) s = r->status;
    if (!nav_failed(s) && !header) {
        nav__report(ctx, 0, "no header: a waypoint file starts with 'libnav waypoints 1'");
        s = NAV_FAILURE | NAV_PARSE_ERROR;
    }
    if (!nav_failed(s)) s = finish(&rd, allocator, out);
    arrfree(rd.waypoints);
    arrfree(rd.waypoint_name);
    arrfree(rd.waypoint_line);
    arrfree(rd.links);
    arrfree(rd.names);
    nav__index_free(&rd.by_name);
    return s;
}

nav_status nav_waypoint_graph_load_text(const char *text, size_t size, const nav_waypoint_load_desc *desc,
                                        nav_waypoint_graph *out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = (nav_waypoint_graph){0};
    nav_waypoint_load_desc d = desc ? *desc : (nav_waypoint_load_desc){0};
    load_context ctx = {d.log, d.name ? d.name : "waypoints"};
    line_reader r;
    if (!nav__start_lines(&ctx, text, size, NAV__TRIM_BLANKS, &r)) return r.status;
    return load_lines(&ctx, &r, d.allocator, out);
}

nav_status nav_waypoint_graph_load_file(const char *path, const nav_waypoint_load_desc *desc,
                                        nav_waypoint_graph *out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = (nav_waypoint_graph){0};
    if (!path) return NAV_FAILURE | NAV_INVALID_PARAM;
    nav_waypoint_load_desc d = desc ? *desc : (nav_waypoint_load_desc){0};
    load_context ctx = {d.log, d.name ? d.name : nav__base_name(path)};
    line_reader r;
    nav_status s = nav__open_file_lines(&ctx, path, d.allocator, NAV__TRIM_BLANKS, NULL, &r);
    if (nav_failed(s)) return s;
    s = load_lines(&ctx, &r, d.allocator, out);
    nav__end_lines(&r);
    return s;
}

void nav_waypoint_graph_release(nav_waypoint_graph *graph)
{
    if (!graph) return;
    if (graph->storage) nav__free(&graph->allocator, graph->storage);
    *graph = (nav_waypoint_graph){0};
}
