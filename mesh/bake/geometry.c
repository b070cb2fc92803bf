/* Level geometry (nav/geometry.h): views of triangles, and the Wavefront .obj reader.
 *
 * The reader goes a line at a time (from memory, or from a file a window at a time), gathering
 * vertices and the triangles of each face's fan in stb_ds arrays (bake-time scratch, grown through
 * their checked forms: a failed allocation is NAV_OUT_OF_MEMORY), with the line of each triangle so
 * that an index past the last vertex is named by its line once all vertices are known. The result is
 * copied into one block from the caller's allocator. */
#include "nav/geometry.h"

#include <math.h>
#include <string.h>

#include "alloc.h"
#include "ds.h"
#include "log.h"
#include "text.h"

struct nav_geometry {
    nav_allocator allocator;
    float *vertices;
    uint32_t *indices;
    uint8_t *areas;
    uint32_t vertex_count, triangle_count;
};

/* ---- Views ------------------------------------------------------------------------------------- */

nav_status nav_triangles_check(const nav_triangles *t, const nav_log *log)
{
    if (!t) return NAV_FAILURE | NAV_INVALID_PARAM;
    if (t->vertex_count > NAV_GEOMETRY_MAX_VERTICES || t->triangle_count > NAV_GEOMETRY_MAX_TRIANGLES) {
        nav__logf(log, NAV_LOG_ERROR, "triangles: %u vertices and %u triangles; at most %u of each",
                  t->vertex_count, t->triangle_count, NAV_GEOMETRY_MAX_VERTICES);
        return NAV_FAILURE | NAV_TOO_LARGE;
    }
    if ((t->vertex_count && !t->vertices) || (t->triangle_count && !t->indices)) {
        nav__logf(log, NAV_LOG_ERROR, "triangles: no array for %s",
                  t->vertex_count && !t->vertices ? "the vertices" : "the indices");
        return NAV_FAILURE | NAV_INVALID_PARAM;
    }
    for (uint64_t i = 0; i < 3 * (uint64_t)t->vertex_count; i++)
        if (!isfinite(t->vertices[i])) {
            nav__logf(log, NAV_LOG_ERROR, "triangles: vertex %u has a coordinate that is not finite",
                      (unsigned)(i / 3));
            return NAV_FAILURE | NAV_INVALID_PARAM;
        }
    for (uint64_t i = 0; i < 3 * (uint64_t)t->triangle_count; i++)
        if (t->indices[i] >= t->vertex_count) {
            nav__logf(log, NAV_LOG_ERROR, "triangles: triangle %u names vertex %u of %u", (unsigned)(i / 3),
                      t->indices[i], t->vertex_count);
            return NAV_FAILURE | NAV_INVALID_PARAM;
        }
    return NAV_SUCCESS;
}

bool nav_triangles_bounds(const nav_triangles *t, nav_vec3 *min, nav_vec3 *max)
{
    if (!t || !t->triangle_count || !t->indices || !t->vertices) return false;
    nav_vec3 lo = {INFINITY, INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY, -INFINITY};
    for (uint64_t i = 0; i < 3 * (uint64_t)t->triangle_count; i++) {
        const float *v = t->vertices + 3 * (uint64_t)t->indices[i];
        /* compared here, not by fminf and fmaxf (library calls without SSE4.1): a NaN is passed
         * over either way */
        lo.x = v[0] < lo.x ? v[0] : lo.x, lo.y = v[1] < lo.y ? v[1] : lo.y, lo.z = v[2] < lo.z ? v[2] : lo.z;
        hi.x = v[0] > hi.x ? v[0] : hi.x, hi.y = v[1] > hi.y ? v[1] : hi.y, hi.z = v[2] > hi.z ? v[2] : hi.z;
    }
    if (min) *min = lo;
    if (max) *max = hi;
    return true;
}

/* ---- Owned geometry ---------------------------------------------------------------------------- */

void nav_geometry_destroy(nav_geometry *g)
{
    if (g) nav__free(&g->allocator, g);
}

nav_triangles nav_geometry_triangles(const nav_geometry *g)
{
    if (!g) return (nav_triangles){0};
    return (nav_triangles){g->vertices, g->vertex_count, g->indices, g->triangle_count, g->areas};
}

uint8_t *nav_geometry_areas(nav_geometry *g)
{
    return g ? g->areas : NULL;
}

size_t nav_geometry_memory_bytes(const nav_geometry *g)
{
    return g ? sizeof *g + (size_t)g->vertex_count * 3 * sizeof(float) +
                   (size_t)g->triangle_count * (3 * sizeof(uint32_t) + 1)
             : 0;
}

/* ---- The .obj reader --------------------------------------------------------------------------- */

typedef struct obj_reading {
    const load_context *ctx;
    float *vertices;   /* stb_ds, 3 a vertex */
    uint32_t *indices; /* stb_ds, 3 a triangle; past-the-end positive indices checked at the end */
    uint32_t *lines;   /* stb_ds, the line of each triangle */
} obj_reading;

/* Statements of the format that carry nothing a navigation mesh needs. */
static bool skipped(text_span word)
{
    static const char *const names[] = {
        "vt",    "vn",     "vp",       "g",        "o",      "s",          "usemtl",    "mtllib",
        "l",     "p",      "curv",     "curv2",    "surf",   "parm",       "trim",      "hole",
        "scrv",  "sp",     "end",      "con",      "cstype", "deg",        "bmat",      "step",
        "mg",    "bevel",  "c_interp", "d_interp", "lod",    "shadow_obj", "trace_obj", "ctech",
        "stech", "maplib", "usemap",   "call",     "csh"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (nav__span_is(word, names[i])) return true;
    return false;
}

static nav_status read_vertex(obj_reading *rd, text_span rest, uint32_t line)
{
    char shown[48];
    static const char *const axis[3] = {"x", "y", "z"};
    float xyz[3];
    for (int i = 0; i < 3; i++) {
        text_span word;
        double value;
        if (!nav__next_word(&rest, &word)) {
            nav__report(rd->ctx, line, "vertex without its %s coordinate", axis[i]);
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
        if (!nav__parse_number(word, &value) || !isfinite((float)value)) {
            nav__report(rd->ctx, line, "vertex %s coordinate '%s' is not a finite number", axis[i],
                        nav__printable(word, shown));
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
        xyz[i] = (float)value;
    }
    if (arrlenu(rd->vertices) / 3 >= NAV_GEOMETRY_MAX_VERTICES) {
        nav__report(rd->ctx, line, "more than %u vertices", NAV_GEOMETRY_MAX_VERTICES);
        return NAV_FAILURE | NAV_TOO_LARGE;
    }
    if (!nav__arr_reserve(rd->vertices, 3)) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    memcpy(nav__arr_addn_reserved(rd->vertices, 3), xyz, sizeof xyz);
    return NAV_SUCCESS;
}

/* A face vertex: "i", "i/t", "i//n" or "i/t/n"; i from 1, or from the end when negative. Writes the
 * index from 0 (a positive one may lie past the vertices read so far: checked at the end). */
static bool face_vertex(obj_reading *rd, text_span word, uint32_t line, uint32_t *index)
{
    char shown[48];
    text_span number = {word.text, 0};
    while (number.length < word.length && word.text[number.length] != '/') number.length++;
    bool negative = number.length && number.text[0] == '-';
    text_span digits = {number.text + (negative || (number.length && number.text[0] == '+')),
                        number.length - (negative || (number.length && number.text[0] == '+'))};
    uint64_t n;
    if (!nav__parse_count(digits, &n)) {
        nav__report(rd->ctx, line, "face vertex '%s' is not a vertex index", nav__printable(word, shown));
        return false;
    }
    uint64_t have = arrlenu(rd->vertices) / 3;
    if (n == 0) {
        nav__report(rd->ctx, line, "face vertex '%s': indices count from 1", nav__printable(word, shown));
        return false;
    }
    if (negative ? n > have : n > NAV_GEOMETRY_MAX_VERTICES) {
        nav__report(rd->ctx, line, "face vertex '%s': no such vertex (%llu read so far)",
                    nav__printable(word, shown), (unsigned long long)have);
        return false;
    }
    *index = (uint32_t)(negative ? have - n : n - 1);
    return true;
}

static nav_status read_face(obj_reading *rd, text_span rest, uint32_t line)
{
    uint32_t first = 0, previous = 0, count = 0;
    text_span word;
    while (nav__next_word(&rest, &word) && word.text[0] != '#') { /* (a comment may end the line) */
        uint32_t index;
        if (!face_vertex(rd, word, line, &index)) return NAV_FAILURE | NAV_PARSE_ERROR;
        if (count >= 2) { /* the fan's next triangle */
            if (arrlenu(rd->lines) >= NAV_GEOMETRY_MAX_TRIANGLES) {
                nav__report(rd->ctx, line, "more than %u triangles", NAV_GEOMETRY_MAX_TRIANGLES);
                return NAV_FAILURE | NAV_TOO_LARGE;
            }
            if (!nav__arr_reserve(rd->indices, 3) || !nav__arr_push(rd->lines, line))
                return NAV_FAILURE | NAV_OUT_OF_MEMORY;
            uint32_t *t = nav__arr_addn_reserved(rd->indices, 3);
            t[0] = first, t[1] = previous, t[2] = index;
        }
        if (count == 0) first = index;
        previous = index;
        count++;
    }
    if (count < 3) {
        nav__report(rd->ctx, line, "a face of %u vertices; a face has at least 3", count);
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    return NAV_SUCCESS;
}

/* The gathered triangles, checked and copied into one block of the caller's. */
static nav_status finish(obj_reading *rd, const nav_allocator *allocator, nav_geometry **out)
{
    uint32_t vertices = (uint32_t)(arrlenu(rd->vertices) / 3), triangles = (uint32_t)arrlenu(rd->lines);
    if (triangles == 0) {
        nav__report(rd->ctx, 0, "no faces");
        return NAV_FAILURE | NAV_PARSE_ERROR;
    }
    for (size_t i = 0; i < arrlenu(rd->indices); i++)
        if (rd->indices[i] >= vertices) {
            nav__report(rd->ctx, rd->lines[i / 3], "face vertex %u: no such vertex (%u in the file)",
                        rd->indices[i] + 1, vertices);
            return NAV_FAILURE | NAV_PARSE_ERROR;
        }
    nav_allocator a;
    nav__allocator_resolve(&a, allocator);
    size_t at_indices = sizeof(nav_geometry) + (size_t)vertices * 3 * sizeof(float),
           at_areas = at_indices + (size_t)triangles * 3 * sizeof(uint32_t), size = at_areas + triangles;
    uint8_t *block = nav__alloc(&a, size);
    if (!block) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    nav_geometry *g = (nav_geometry *)block;
    *g = (nav_geometry){.allocator = a,
                        .vertices = (float *)(block + sizeof *g),
                        .indices = (uint32_t *)(block + at_indices),
                        .areas = block + at_areas,
                        .vertex_count = vertices,
                        .triangle_count = triangles};
    memcpy(g->vertices, rd->vertices, (size_t)vertices * 3 * sizeof(float));
    memcpy(g->indices, rd->indices, (size_t)triangles * 3 * sizeof(uint32_t));
    memset(g->areas, NAV_GEOMETRY_DEFAULT_AREA, triangles);
    *out = g;
    return NAV_SUCCESS;
}

static nav_status load_lines(const load_context *ctx, line_reader *r, const nav_allocator *allocator,
                             nav_geometry **out)
{
    obj_reading rd = {.ctx = ctx};
    nav_status s = NAV_SUCCESS;
    text_span line, word;
    char shown[48];
    while (!nav_failed(s) && nav__next_line(r, &line)) {
        if (!nav__next_word(&line, &word) || word.text[0] == '#') continue;
        if (nav__span_is(word, "v")) {
            s = read_vertex(&rd, line, r->number);
        } else if (nav__span_is(word, "f")) {
            s = read_face(&rd, line, r->number);
        } else if (!skipped(word)) {
            nav__report(ctx, r->number, "unknown statement '%s'", nav__printable(word, shown));
            s = NAV_FAILURE | NAV_PARSE_ERROR;
        }
    }
    if (!nav_failed(s) && nav_failed(r->status)) s = r->status;
    if (!nav_failed(s)) s = finish(&rd, allocator, out);
    arrfree(rd.vertices);
    arrfree(rd.indices);
    arrfree(rd.lines);
    return s;
}

nav_status nav_geometry_load_obj(const char *text, size_t size, const char *name,
                                 const nav_allocator *allocator, const nav_log *log, nav_geometry **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    load_context ctx = {log, name ? name : "obj"};
    line_reader r;
    if (!nav__start_lines(&ctx, text, size, NAV__TRIM_BLANKS, &r)) return r.status;
    return load_lines(&ctx, &r, allocator, out);
}

nav_status nav_geometry_load_obj_file(const char *path, const nav_allocator *allocator, const nav_log *log,
                                      nav_geometry **out)
{
    if (!out) return NAV_FAILURE | NAV_INVALID_PARAM;
    *out = NULL;
    if (!path) return NAV_FAILURE | NAV_INVALID_PARAM;
    load_context ctx = {log, nav__base_name(path)};
    line_reader r;
    nav_status s = nav__open_file_lines(&ctx, path, allocator, NAV__TRIM_BLANKS, NULL, &r);
    if (nav_failed(s)) return s;
    s = load_lines(&ctx, &r, allocator, out);
    nav__end_lines(&r);
    return s;
}
