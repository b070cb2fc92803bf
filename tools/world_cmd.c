/* navtool's world commands: bake a JSON world file into one .nav file (whole, or split into one part
 * a region and joined again), and plan a route across a world (from its JSON or its .nav file). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "navtool.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

bool navtool_is_json(const char *path)
{
    size_t n = strlen(path);
    return n > 5 && !strcmp(path + n - 5, ".json");
}

const char *navtool_planner_of(const nav_world *w, uint32_t region)
{
    nav_world_region_kind kind = nav_world_region_kind_of(w, region);
    return kind == NAV_WORLD_REGION_GRID   ? (nav_world_region_by_hpa(w, region) ? "grid HPA*" : "grid A*")
           : kind == NAV_WORLD_REGION_MESH ? "navmesh"
                                           : "waypoints";
}

void navtool_print_legs(const nav_world *w, const nav_world_query *q)
{
    uint32_t n;
    const nav_world_leg *legs = nav_world_query_legs(q, &n);
    for (uint32_t i = 0; i < n; i++) {
        const nav_world_leg *l = &legs[i];
        printf("  leg %u  %-19s %-10s cost %6.2f, %3u points", i + 1, nav_world_region_name(w, l->region),
               navtool_planner_of(w, l->region), l->cost, l->point_count);
        nav_world_link_desc link;
        if (l->link != NAV_WORLD_NONE && nav_world_link(w, l->link, &link))
            printf(", then the %s \"%s\" (%.2f)", nav_world_link_kind_name(link.kind),
                   link.name ? link.name : "", l->link_cost);
        printf("\n");
    }
}

nav_world *navtool_load_world(const char *path, const nav_world_bake_desc *bake, bool quiet)
{
    nav_world *w = NULL;
    nav_world_load_desc desc = {.log = &navtool_stderr_log, .bake = bake};
    if (!quiet) desc.progress = (nav_progress){navtool_print_progress, "bake"};
    nav_status s =
        navtool_is_json(path) ? nav_world_load_json(path, &desc, &w) : nav_world_load_nav(path, &desc, &w);
    if (nav_failed(s)) fprintf(stderr, "navtool: %s: the world does not load: %s\n", path, nav_status_str(s));
    return w;
}

/* The bytes of every part file (freed by the caller, each and the array). Null having said why. */
static nav_world_part *read_parts(char **paths, int count)
{
    nav_world_part *parts = calloc((size_t)count, sizeof *parts);
    for (int i = 0; parts && i < count; i++) {
        void *data;
        size_t size;
        nav_status s = nav_file_read_all(paths[i], NULL, &data, &size);
        if (nav_failed(s)) {
            fprintf(stderr, "navtool bake: %s: cannot read: %s\n", paths[i], nav_status_str(s));
            for (int j = 0; j < i; j++) free((void *)parts[j].data);
            free(parts);
            return NULL;
        }
        parts[i] = (nav_world_part){data, size, paths[i]};
    }
    return parts;
}

int navtool_bake_world(int argc, char **argv)
{
    const char *input = NULL, *output = NULL, *region = NULL, *shard = NULL;
    bool quiet = false;
    nav_world_bake_desc bake = {0};
    char **part_paths = NULL;
    int part_count = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            output = argv[++i];
        } else if (!strcmp(argv[i], "--quiet")) {
            quiet = true;
        } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            if (!navtool_parse_u32("bake", "--threads", argv[++i], 0, 1024, &bake.threads)) return 2;
        } else if (!strcmp(argv[i], "--max-table-mb") && i + 1 < argc) {
            uint32_t mb;
            if (!navtool_parse_u32("bake", "--max-table-mb", argv[++i], 1, 1u << 24, &mb)) return 2;
            bake.max_table_bytes = (uint64_t)mb << 20;
        } else if (!strcmp(argv[i], "--region") && i + 1 < argc) {
            region = argv[++i];
        } else if (!strcmp(argv[i], "--shard") && i + 1 < argc) {
            shard = argv[++i];
            char *end;
            unsigned long k = strtoul(shard, &end, 10), n = *end == '/' ? strtoul(end + 1, &end, 10) : 0;
            if (*end || n == 0 || n > NAV_WORLD_MAX_REGIONS || k >= n) {
                fprintf(stderr, "navtool bake: --shard K/N needs 0 <= K < N (job K of an array of N)\n");
                return 2;
            }
            bake.shard = (uint32_t)k, bake.shards = (uint32_t)n;
        } else if (!strcmp(argv[i], "--link")) { /* every argument up to the next option is a part */
            part_paths = argv + i + 1;
            while (i + 1 < argc && argv[i + 1][0] != '-') i++, part_count++;
        } else if (argv[i][0] != '-' && !input) {
            input = argv[i];
        } else {
            fprintf(stderr, "navtool bake: unexpected argument '%s'\n", argv[i]);
            navtool_usage(stderr);
            return 2;
        }
    }
    if (!input || !output) {
        navtool_usage(stderr);
        return 2;
    }
    if ((region != NULL) + (shard != NULL) + (part_paths != NULL) > 1) {
        fprintf(stderr,
                "navtool bake: --region and --shard bake a part, --link joins parts: one at a time\n");
        return 2;
    }
    if (part_paths && part_count == 0) {
        fprintf(stderr, "navtool bake: --link needs the part files\n");
        return 2;
    }
    nav_world_part *parts = part_paths ? read_parts(part_paths, part_count) : NULL;
    if (part_paths && !parts) return 1;
    bake.only_region = region;
    bake.parts = parts;
    bake.part_count = (uint32_t)part_count;
    double t0 = now_ms();
    nav_world *w = navtool_load_world(input, &bake, quiet);
    double ms = now_ms() - t0;
    for (int i = 0; i < part_count; i++) free((void *)parts[i].data);
    free(parts);
    if (!w) return 1;
    nav_world_info info;
    nav_world_get_info(w, &info);
    nav_status s;
    if (region || shard) {
        s = nav_world_save_part(w, output);
    } else {
        s = nav_world_save_nav(w, output);
    }
    if (nav_failed(s)) {
        fprintf(stderr, "navtool bake: %s: cannot write: %s\n", output, nav_status_str(s));
        nav_world_destroy(w);
        return 1;
    }
    if (region)
        printf("baked the part of region \"%s\" of %s in %.1f ms -> %s\n", region, input, ms, output);
    else if (shard)
        printf("baked shard %s of %s (%u of its %u regions) in %.1f ms -> %s\n", shard, input,
               nav_world_part_regions(w, NULL), info.regions, ms, output);
    else
        printf(
            "baked %s in %.1f ms%s: %u regions, %u links, %u chokepoints, %llu table entries, %zu bytes -> "
            "%s\n",
            input, ms, part_paths ? " (from its parts)" : "", info.regions, info.links, info.chokepoints,
            (unsigned long long)info.region_edges, info.bytes, output);
    nav_world_destroy(w);
    return 0;
}

/* What navtool path and render take of a world: the file, two world points [opt], a picture, and
 * links switched on or off (--set LINK=on|off, repeated). */
typedef struct world_args {
    const char *input, *png;
    double scale;
    float c[6];
    int coords;
    char **sets; /* the LINK=on|off arguments */
    int set_count;
} world_args;

static bool parse_world_args(const char *command, int argc, char **argv, world_args *a)
{
    *a = (world_args){.scale = 8};
    a->sets = calloc((size_t)argc, sizeof *a->sets);
    if (!a->sets) {
        fprintf(stderr, "navtool %s: out of memory\n", command);
        return false;
    }
    for (int i = 1; i < argc; i++) {
        char *end;
        if (!strcmp(argv[i], "--png") && i + 1 < argc) {
            a->png = argv[++i];
        } else if (!strcmp(argv[i], "--scale") && i + 1 < argc) {
            a->scale = strtod(argv[++i], &end);
            if (*end || !(a->scale > 0)) {
                fprintf(stderr, "navtool %s: --scale needs pixels a world unit > 0\n", command);
                return false;
            }
        } else if (!strcmp(argv[i], "--set") && i + 1 < argc) {
            a->sets[a->set_count++] = argv[++i];
        } else if (!a->input && argv[i][0] != '-') {
            a->input = argv[i];
        } else if (a->coords < 6 &&
                   (a->c[a->coords] = strtof(argv[i], &end), *end == '\0' && end != argv[i])) {
            a->coords++;
        } else {
            fprintf(stderr, "navtool %s: unexpected argument '%s'\n", command, argv[i]);
            return false;
        }
    }
    return true;
}

/* Switches the links that --set names: LINK=on or LINK=off, LINK a link's name (every link of that
 * name) or its number (from 0, in the file's order). False having said why. */
static bool apply_switches(const char *command, nav_world *w, char *const *sets, int count)
{
    nav_world_info info;
    nav_world_get_info(w, &info);
    for (int i = 0; i < count; i++) {
        const char *eq = strrchr(sets[i], '=');
        bool on = eq && !strcmp(eq + 1, "on"), off = eq && !strcmp(eq + 1, "off");
        if (!on && !off) {
            fprintf(stderr, "navtool %s: --set needs LINK=on or LINK=off, not '%s'\n", command, sets[i]);
            return false;
        }
        size_t n = (size_t)(eq - sets[i]);
        uint32_t switched = 0;
        for (uint32_t k = 0; k < info.links; k++) {
            nav_world_link_desc d;
            if (!nav_world_link(w, k, &d) || !d.name || strlen(d.name) != n || strncmp(d.name, sets[i], n))
                continue;
            nav_world_set_links(w, &(nav_world_link_change){k, on}, 1);
            switched++;
        }
        char *end;
        unsigned long number = strtoul(sets[i], &end, 10);
        if (!switched && n > 0 && end == eq && number < info.links) {
            nav_world_set_links(w, &(nav_world_link_change){(uint32_t)number, on}, 1);
            switched++;
        }
        if (!switched) {
            fprintf(stderr,
                    "navtool %s: no link named \"%.*s\" (nor numbered so: the world has %u links,"
                    " 0 to %u; 'navtool info' on its .nav file lists them)\n",
                    command, (int)n, sets[i], info.links, info.links ? info.links - 1 : 0);
            return false;
        }
    }
    return true;
}

/* navtool path WORLD.json|WORLD.nav SX SY SZ GX GY GZ [--png OUT] [--set LINK=on|off]...: the route's
 * legs; navtool render WORLD [SX SY SZ GX GY GZ] --png OUT [--set ...]: the world drawn (with the
 * route between the points, when given). */
static int world_route(const char *command, int argc, char **argv)
{
    bool render = !strcmp(command, "render");
    world_args a;
    int rc = parse_world_args(command, argc, argv, &a) ? 0 : 2;
    if (!rc && (!a.input || (a.coords != 6 && !(render && a.coords == 0)))) {
        fprintf(stderr, "navtool %s: a world needs WORLD.json|WORLD.nav %sSX SY SZ GX GY GZ (world points)\n",
                command, render ? "[" : "");
        rc = 2;
    }
    if (!rc && render && !a.png) {
        fprintf(stderr, "navtool render: a world is drawn as a PNG: give --png OUT\n");
        rc = 2;
    }
    nav_world *w = rc ? NULL : navtool_load_world(a.input, NULL, true);
    if (!rc && !w) rc = 1;
    if (!rc && !apply_switches(command, w, a.sets, a.set_count)) rc = 2;
    nav_world_query *q = NULL;
    if (!rc && a.coords == 6 && nav_failed(nav_world_query_create(w, NULL, &q))) {
        fprintf(stderr, "navtool %s: out of memory\n", command);
        rc = 1;
    }
    nav_path path;
    nav_path_init(&path, NULL);
    bool routed = false;
    if (!rc && q) {
        nav_world_result r;
        double t0 = now_ms();
        nav_status s = nav_world_find_path(q, nav_vec3_make(a.c[0], a.c[1], a.c[2]),
                                           nav_vec3_make(a.c[3], a.c[4], a.c[5]), &path, &r);
        double ms = now_ms() - t0;
        if (nav_failed(s)) {
            fprintf(stderr, "navtool %s: %s\n", command,
                    nav_has_detail(s, NAV_INVALID_PARAM)
                        ? "the start or the goal is at no walkable place of any region"
                        : nav_status_str(s));
            rc = 1;
        } else if (nav_has_detail(s, NAV_UNREACHABLE)) {
            printf("unreachable (%u chokepoints searched, %.3f ms)\n", r.chokepoints_expanded, ms);
        } else {
            navtool_print_legs(w, q);
            printf("cost %.4f, %u points, %u legs, %u chokepoints searched, %.3f ms\n", r.cost, path.count,
                   r.legs, r.chokepoints_expanded, ms);
            routed = true;
        }
    }
    if (!rc && a.png && (routed || render)) {
        uint32_t legs = 0;
        const nav_world_leg *l = routed ? nav_world_query_legs(q, &legs) : NULL;
        rc = navtool_write_world_png(a.png, w, l, legs, routed ? &path : NULL, a.scale);
        if (!rc && render) {
            nav_world_info info;
            nav_world_get_info(w, &info);
            uint32_t off = 0;
            for (uint32_t k = 0; k < info.links; k++) off += !nav_world_link_enabled(w, k);
            printf("drew %s (%u regions, %u links, %u of them off)%s -> %s\n", a.input, info.regions,
                   info.links, off, routed ? " and the route" : "", a.png);
        }
    }
    nav_path_destroy(&path);
    nav_world_query_destroy(q);
    nav_world_destroy(w);
    free(a.sets);
    return rc;
}

int navtool_path_world(int argc, char **argv)
{
    return world_route("path", argc, argv);
}

int navtool_render_world(int argc, char **argv)
{
    return world_route("render", argc, argv);
}
