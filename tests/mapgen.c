/* Generated Moving AI maps and scenarios (mapgen.h): cellular-automaton caves and city blocks, and
 * the scenarios' optimal lengths by a Dijkstra of this file's own. */
#include "mapgen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const test_map_desc test_bench_maps[TEST_BENCH_COUNT] = {
    [TEST_BENCH_ARENA] = {"arena_like", 49, 49, TEST_MAP_CAVES, 11, 160, 0, 41},
    [TEST_BENCH_DEN] = {"den_like", 65, 81, TEST_MAP_CAVES, 23, 320, 0, 41},
    [TEST_BENCH_BRC] = {"brc_like", 257, 261, TEST_MAP_CAVES, 37, 850, 10, 45},
    [TEST_BENCH_STREETS] = {"streets_like", 256, 256, TEST_MAP_STREETS, 41, 930, 0, 0},
};

static void *checked(void *p)
{
    if (!p) {
        fputs("mapgen: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* ---- Random numbers: splitmix64, the same on every machine ------------------------------------ */

static uint32_t next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/* 0 .. n-1 */
static int32_t below(uint64_t *state, int32_t n)
{
    return (int32_t)(next(state) % (uint32_t)n);
}

/* true with probability percent / 100 */
static bool chance(uint64_t *state, int percent)
{
    return below(state, 100) < percent;
}

/* ---- Cells -------------------------------------------------------------------------------------- */

/* The index of cell (x, y), on the map. */
static size_t at(const test_map *map, int32_t x, int32_t y)
{
    return (size_t)y * (size_t)map->width + (size_t)x;
}

bool test_map_free(const test_map *map, int32_t x, int32_t y)
{
    return x >= 0 && y >= 0 && x < map->width && y < map->height && map->cells[at(map, x, y)] == '.';
}

/* dx, dy of NAV_DIR_E, W, S, N, SE, NE, SW, NW (nav/grid.h: S is +y) */
static const int32_t step_x[8] = {1, -1, 0, 0, 1, 1, -1, -1};
static const int32_t step_y[8] = {0, 0, 1, -1, 1, -1, 1, -1};

uint8_t test_map_moves(const test_map *map, int32_t x, int32_t y)
{
    if (!test_map_free(map, x, y)) return 0;
    uint8_t moves = 0;
    for (int d = 0; d < 8; d++) {
        int32_t nx = x + step_x[d], ny = y + step_y[d];
        bool ok = test_map_free(map, nx, ny);
        if (d >= 4) ok = ok && test_map_free(map, nx, y) && test_map_free(map, x, ny);
        if (ok) moves |= (uint8_t)(1u << d);
    }
    return moves;
}

/* Pieces reachable from each other, numbered by size (1 the largest; ties: the first cell). */
static void label_components(test_map *map)
{
    size_t n = (size_t)map->width * (size_t)map->height;
    uint32_t *label = checked(calloc(n, sizeof *label));
    uint32_t *stack = checked(malloc(n * sizeof *stack));
    uint32_t *sizes = NULL, count = 0;
    map->free_cells = 0;
    for (size_t c = 0; c < n; c++) {
        if (map->cells[c] != '.' || label[c]) continue;
        sizes = checked(realloc(sizes, (count + 1) * sizeof *sizes));
        sizes[count] = 0;
        label[c] = ++count;
        size_t top = 0;
        stack[top++] = (uint32_t)c;
        while (top) {
            uint32_t cell = stack[--top];
            sizes[count - 1]++;
            int32_t x = (int32_t)(cell % (uint32_t)map->width), y = (int32_t)(cell / (uint32_t)map->width);
            uint8_t moves = test_map_moves(map, x, y);
            for (int d = 0; d < 8; d++) {
                if (!(moves & (1u << d))) continue;
                size_t to = at(map, x + step_x[d], y + step_y[d]);
                if (!label[to]) label[to] = count, stack[top++] = (uint32_t)to;
            }
        }
        map->free_cells += sizes[count - 1];
    }
    /* renumber by size: rank[old - 1] is the new number */
    uint32_t *rank = checked(calloc(count ? count : 1, sizeof *rank));
    for (uint32_t a = 0; a < count; a++) {
        uint32_t r = 1;
        for (uint32_t b = 0; b < count; b++) r += sizes[b] > sizes[a] || (sizes[b] == sizes[a] && b < a);
        rank[a] = r;
    }
    for (size_t c = 0; c < n; c++)
        if (label[c]) label[c] = rank[label[c] - 1];
    free(rank);
    free(sizes);
    free(stack);
    map->component = label;
    map->components = count;
}

/* ---- Styles --------------------------------------------------------------------------------------- */

/* Caves: rock sown at random (desc->rock percent), five rounds of "rock where 5 of the 9 cells
 * round are rock" (the border counts as rock), sealed chambers, rock along the open space turned to
 * trees at random, then clumps of trees in the open (4 in 1000 cells: 1 to 3 cells a side). */
static void make_caves(test_map *map, uint64_t *rng, int rock, uint32_t chambers)
{
    int32_t w = map->width, h = map->height;
    char *next_cells = checked(malloc((size_t)w * (size_t)h));
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            map->cells[at(map, x, y)] =
                x == 0 || y == 0 || x == w - 1 || y == h - 1 || chance(rng, rock) ? '@' : '.';
    for (int round = 0; round < 5; round++) {
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++) {
                int near_rock = 0;
                for (int32_t dy = -1; dy <= 1; dy++)
                    for (int32_t dx = -1; dx <= 1; dx++) near_rock += !test_map_free(map, x + dx, y + dy);
                bool border = x == 0 || y == 0 || x == w - 1 || y == h - 1;
                next_cells[at(map, x, y)] = border || near_rock >= 5 ? '@' : '.';
            }
        memcpy(map->cells, next_cells, (size_t)w * (size_t)h);
    }
    free(next_cells);
    for (uint32_t k = 0; k < chambers; k++) { /* a room walled all round, inside 2 cells of margin */
        int32_t cw = 6 + below(rng, 6), ch = 5 + below(rng, 4);
        int32_t x0 = 2 + below(rng, w - cw - 4), y0 = 2 + below(rng, h - ch - 4);
        for (int32_t y = y0; y < y0 + ch; y++)
            for (int32_t x = x0; x < x0 + cw; x++)
                map->cells[at(map, x, y)] =
                    y == y0 || x == x0 || y == y0 + ch - 1 || x == x0 + cw - 1 ? '@' : '.';
    }
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            char *c = &map->cells[at(map, x, y)];
            int open = 0;
            for (int32_t dy = -1; dy <= 1; dy++)
                for (int32_t dx = -1; dx <= 1; dx++) open += test_map_free(map, x + dx, y + dy);
            if (*c == '@' && open > 0 && chance(rng, 50)) *c = 'T';
        }
    for (int32_t y = 1; y < h - 4; y++) /* clumps of trees 1 to 3 cells a side in the open */
        for (int32_t x = 1; x < w - 4; x++) {
            if (!test_map_free(map, x, y) || below(rng, 1000) >= 4) continue;
            int32_t side = 1 + below(rng, 3);
            for (int32_t dy = 0; dy < side; dy++)
                for (int32_t dx = 0; dx < side; dx++) map->cells[at(map, x + dx, y + dy)] = 'T';
        }
}

/* Streets: rows of blocks 5 to 18 cells a side, streets 1 to 4 wide between them; a block is a
 * square with scattered trees (1 in 10), or a building with a notch cut from a corner and, when
 * large, a closed courtyard. */
static void make_streets(test_map *map, uint64_t *rng)
{
    int32_t w = map->width, h = map->height;
    memset(map->cells, '.', (size_t)w * (size_t)h);
    for (int32_t y0 = below(rng, 3); y0 < h;) {
        int32_t bh = 5 + below(rng, 14);
        for (int32_t x0 = below(rng, 3); x0 < w;) {
            int32_t bw = 5 + below(rng, 14);
            bool square = chance(rng, 10);
            int32_t nx = 1 + below(rng, bw / 2), ny = 1 + below(rng, bh / 2), corner = below(rng, 4);
            bool yard = bw >= 10 && bh >= 10 && chance(rng, 40);
            for (int32_t y = y0; y < y0 + bh && y < h; y++)
                for (int32_t x = x0; x < x0 + bw && x < w; x++) {
                    int32_t lx = x - x0, ly = y - y0;
                    int32_t cx = corner & 1 ? bw - 1 - lx : lx, cy = corner & 2 ? bh - 1 - ly : ly;
                    bool notch = cx < nx && cy < ny;
                    bool in_yard = yard && lx >= 3 && ly >= 3 && lx < bw - 3 && ly < bh - 3;
                    char *c = &map->cells[at(map, x, y)];
                    if (square)
                        *c = chance(rng, 6) ? 'T' : '.';
                    else
                        *c = notch || in_yard ? '.' : '@';
                }
            x0 += bw + 1 + below(rng, 4);
        }
        y0 += bh + 1 + below(rng, 4);
    }
}

void test_map_generate(test_map *map, const test_map_desc *desc)
{
    *map = (test_map){.width = desc->width, .height = desc->height};
    map->cells = checked(malloc((size_t)desc->width * (size_t)desc->height));
    uint64_t rng = desc->seed;
    if (desc->style == TEST_MAP_STREETS)
        make_streets(map, &rng);
    else
        make_caves(map, &rng, desc->rock,
                   desc->unreachable ? 1 + (uint32_t)(desc->width * desc->height / 30000) : 0);
    label_components(map);
}

void test_map_destroy(test_map *map)
{
    free(map->cells);
    free(map->component);
    *map = (test_map){0};
}

char *test_map_text(const test_map *map, size_t *size)
{
    size_t cap = 64 + (size_t)(map->width + 1) * (size_t)map->height;
    char *text = checked(malloc(cap));
    size_t n =
        (size_t)snprintf(text, cap, "type octile\nheight %d\nwidth %d\nmap\n", map->height, map->width);
    for (int32_t y = 0; y < map->height; y++) {
        memcpy(text + n, map->cells + at(map, 0, y), (size_t)map->width);
        n += (size_t)map->width;
        text[n++] = '\n';
    }
    text[n] = '\0';
    *size = n;
    return text;
}

/* ---- Shortest lengths ------------------------------------------------------------------------------ */

typedef struct entry {
    double g;
    uint32_t cell;
} entry;

static void heap_push(entry *heap, size_t *count, entry e)
{
    size_t i = (*count)++;
    while (i > 0 && heap[(i - 1) / 2].g > e.g) heap[i] = heap[(i - 1) / 2], i = (i - 1) / 2;
    heap[i] = e;
}

static entry heap_pop(entry *heap, size_t *count)
{
    entry top = heap[0], last = heap[--*count];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *count) break;
        if (c + 1 < *count && heap[c + 1].g < heap[c].g) c++;
        if (heap[c].g >= last.g) break;
        heap[i] = heap[c], i = c;
    }
    heap[i] = last;
    return top;
}

double *test_map_distances(const test_map *map, int32_t sx, int32_t sy)
{
    size_t n = (size_t)map->width * (size_t)map->height;
    double *g = checked(malloc(n * sizeof *g));
    for (size_t c = 0; c < n; c++) g[c] = INFINITY;
    if (!test_map_free(map, sx, sy)) return g;
    entry *heap = checked(malloc(8 * n * sizeof *heap)); /* each cell pushed at most 8 times */
    size_t count = 0;
    size_t start = at(map, sx, sy);
    g[start] = 0;
    heap_push(heap, &count, (entry){0, (uint32_t)start});
    while (count) {
        entry e = heap_pop(heap, &count);
        if (e.g > g[e.cell]) continue;
        int32_t x = (int32_t)(e.cell % (uint32_t)map->width), y = (int32_t)(e.cell / (uint32_t)map->width);
        uint8_t moves = test_map_moves(map, x, y);
        for (int d = 0; d < 8; d++) {
            if (!(moves & (1u << d))) continue;
            size_t to = at(map, x + step_x[d], y + step_y[d]);
            double cost = e.g + (d >= 4 ? sqrt(2.0) : 1.0);
            if (cost < g[to]) g[to] = cost, heap_push(heap, &count, (entry){cost, (uint32_t)to});
        }
    }
    free(heap);
    return g;
}

/* ---- Scenarios ---------------------------------------------------------------------------------------- */

typedef struct problem {
    int32_t sx, sy, gx, gy;
    double length;
    uint32_t order;
} problem;

static int by_length(const void *a, const void *b)
{
    const problem *p = a, *q = b;
    if (p->length != q->length) return p->length < q->length ? -1 : 1;
    return p->order < q->order ? -1 : p->order > q->order;
}

/* A random cell of the given piece (in_piece) or of any other piece (!in_piece). */
static uint32_t random_cell(const test_map *map, uint64_t *rng, uint32_t piece, bool in_piece)
{
    size_t n = (size_t)map->width * (size_t)map->height;
    for (;;) {
        uint32_t c = next(rng) % (uint32_t)n;
        uint32_t label = map->component[c];
        if (label && (label == piece) == in_piece) return c;
    }
}

char *test_scen_text(const test_map *map, const test_map_desc *desc, size_t *size)
{
    if (map->components == 0 || (desc->unreachable && map->components < 2)) {
        fprintf(stderr, "mapgen: %s has no %s\n", desc->name, map->components ? "second piece" : "free cell");
        abort();
    }
    uint64_t rng = (uint64_t)desc->seed * 7919u + 1;
    problem *problems = checked(malloc((desc->problems ? desc->problems : 1) * sizeof *problems));
    uint32_t made = 0, w = (uint32_t)map->width;
    for (; made < desc->unreachable && made < desc->problems; made++) {
        uint32_t s = random_cell(map, &rng, 1, true), g = random_cell(map, &rng, 1, false);
        problems[made] =
            (problem){(int32_t)(s % w), (int32_t)(s / w), (int32_t)(g % w), (int32_t)(g / w), 0, made};
    }
    while (made < desc->problems) { /* ten goals a start, all in the largest piece */
        uint32_t s = random_cell(map, &rng, 1, true);
        double *g = test_map_distances(map, (int32_t)(s % w), (int32_t)(s / w));
        for (int k = 0; k < 10 && made < desc->problems; k++) {
            uint32_t goal = random_cell(map, &rng, 1, true);
            if (goal == s) continue;
            problems[made] = (problem){(int32_t)(s % w),    (int32_t)(s / w), (int32_t)(goal % w),
                                       (int32_t)(goal / w), g[goal],          made};
            made++;
        }
        free(g);
    }
    qsort(problems, made, sizeof *problems, by_length);
    size_t cap = 32 + (size_t)made * (96 + strlen(desc->name));
    char *text = checked(malloc(cap));
    size_t n = (size_t)snprintf(text, cap, "version 1\n");
    for (uint32_t i = 0; i < made; i++) {
        const problem *p = &problems[i];
        n += (size_t)snprintf(text + n, cap - n, "%u\tmaps/generated/%s.map\t%d\t%d\t%d\t%d\t%d\t%d\t%.8f\n",
                              (unsigned)(p->length / 4), desc->name, map->width, map->height, p->sx, p->sy,
                              p->gx, p->gy, p->length);
    }
    free(problems);
    *size = n;
    return text;
}
