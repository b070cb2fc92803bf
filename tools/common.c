/* Helpers shared by the navtool subcommands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nav/io.h"

#include "navtool.h"

static void print_log(nav_log_level level, const char *message, void *user)
{
    (void)user;
    fprintf(stderr, "%s: %s\n",
            level == NAV_LOG_ERROR     ? "error"
            : level == NAV_LOG_WARNING ? "warning"
                                       : "info",
            message);
}

const nav_log navtool_stderr_log = {print_log, NULL};

bool navtool_print_progress(const char *stage, uint64_t done, uint64_t total, void *user)
{
    const char *who = user;
    bool finished = done == total;
    if (isatty(fileno(stderr)))
        fprintf(stderr, "\r%s: %-16s %3.0f%%%s", who, stage,
                total ? 100.0 * (double)done / (double)total : 100.0, finished ? "\n" : "");
    else if (done == 0 || finished)
        fprintf(stderr, "%s: %s%s\n", who, stage, finished ? " 100%" : "");
    return true;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static void print_load_failure(const char *path, nav_status s)
{
    char text[256];
    nav_status_format(s, text, sizeof text);
    fprintf(stderr, "navtool: cannot load %s: %s\n", path, text);
}

/* True when a .nav file holds an HPA* bake (errors are left to the load that follows). */
static bool nav_file_has_bake(const char *path)
{
    void *bytes;
    nav_container container;
    if (nav_failed(nav_container_read_file(path, NULL, NULL, &bytes, &container))) return false;
    bool found = nav_container_find(&container, NAV_CHUNK_HPA) != NULL;
    free(bytes);
    return found;
}

nav_grid *navtool_load(const char *path, const nav_grid_desc *options, nav_hpa **hpa)
{
    if (hpa) *hpa = NULL;
    nav_grid_desc desc = options ? *options : (nav_grid_desc){0};
    if (!desc.log) desc.log = &navtool_stderr_log;
    nav_grid *grid = NULL;
    nav_status s;
    if (ends_with(path, ".nav")) {
        if (hpa && nav_file_has_bake(path))
            s = nav_hpa_load_nav(path, &(nav_hpa_desc){.allocator = desc.allocator, .log = desc.log}, &grid,
                                 hpa);
        else
            s = nav_grid_load_nav(path, &desc, &grid);
    } else if (ends_with(path, ".map")) {
        s = nav_grid_load_map_file(path, &desc, &grid);
    } else if (ends_with(path, ".png")) {
        s = nav_grid_load_png_file(path, NULL, &desc, &grid);
    } else {
        s = nav_grid_load_ascii_file(path, &desc, &grid);
    }
    if (nav_failed(s)) {
        print_load_failure(path, s);
        return NULL;
    }
    return grid;
}

nav_grid *navtool_load_grid(const char *path, const nav_grid_desc *options)
{
    return navtool_load(path, options, NULL);
}

static const char *const algo_names[] = {
    [NAV_ALGO_ASTAR] = "astar",   [NAV_ALGO_BFS] = "bfs",       [NAV_ALGO_DIJKSTRA] = "dijkstra",
    [NAV_ALGO_GREEDY] = "greedy", [NAV_ALGO_WASTAR] = "wastar",
};

bool navtool_parse_algo(const char *name, nav_algo *algo)
{
    for (size_t i = 0; i < sizeof algo_names / sizeof algo_names[0]; i++) {
        if (!strcmp(name, algo_names[i])) {
            *algo = (nav_algo)i;
            return true;
        }
    }
    return false;
}

const char *navtool_algo_name(nav_algo algo)
{
    return (unsigned)algo < sizeof algo_names / sizeof algo_names[0] ? algo_names[algo] : "?";
}

bool navtool_parse_heuristic(const char *name, nav_heuristic *heuristic)
{
    static const char *const names[] = {
        [NAV_HEURISTIC_ZERO] = "zero",           [NAV_HEURISTIC_MANHATTAN] = "manhattan",
        [NAV_HEURISTIC_OCTILE] = "octile",       [NAV_HEURISTIC_EUCLIDEAN] = "euclidean",
        [NAV_HEURISTIC_CHEBYSHEV] = "chebyshev",
    };
    for (size_t i = 1; i < sizeof names / sizeof names[0]; i++) {
        if (!strcmp(name, names[i])) {
            *heuristic = (nav_heuristic)i;
            return true;
        }
    }
    return false;
}

bool navtool_parse_u32(const char *command, const char *option, const char *text, uint32_t min, uint32_t max,
                       uint32_t *out)
{
    char *end;
    unsigned long n = strtoul(text, &end, 10);
    if (!*text || *text == '-' || *end || n < min || n > max) {
        fprintf(stderr, "navtool %s: %s takes %u to %u\n", command, option, min, max);
        return false;
    }
    *out = (uint32_t)n;
    return true;
}

bool navtool_parse_landmarks(const char *command, const char *text, uint32_t *out)
{
    return navtool_parse_u32(command, "--landmarks", text, 0, NAV_MESH_MAX_LANDMARKS, out);
}

bool navtool_parse_hpa_option(int argc, char **argv, int *i, nav_hpa_desc *desc)
{
    static const char *const names[] = {"--cluster", "--levels", "--ratio", "--long"};
    int32_t *fields[] = {&desc->cluster_size, &desc->levels, &desc->level_ratio, &desc->long_entrance};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        if (strcmp(argv[*i], names[k]) != 0 || *i + 1 >= argc) continue;
        *fields[k] = (int32_t)atoi(argv[++*i]);
        return true;
    }
    return false;
}
