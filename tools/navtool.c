/* navtool: command-line front end of libnav. One file a subcommand; this one dispatches. */
#include <stdio.h>
#include <string.h>

#include "navtool.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage;
} commands[] = {
    {"demo", navtool_demo, "navtool demo                  run the bundled sample world"},
    {"path", navtool_path,
     "navtool path MAP|FILE.nav SX SY GX GY [--algo A|hpa|mesh|mesh-funnel|waypoints] [--weight W]\n"
     "               [--heuristic H] [--smooth] [--radius CELLS] [--png OUT] [--ascii]\n"
     "  navtool path FILE.nav|WAYPOINTS.txt FROM TO --algo waypoints [--png OUT]   (waypoint names or "
     "indices)"},
    {"scen", navtool_scen,
     "navtool scen SCEN [--map MAP|FILE.nav] [--algo A|hpa|mesh|mesh-funnel|waypoints] [--weight W] "
     "[--smooth]"
     "\n               [--json] [--cluster N] [--levels N] [--ratio N] [--long N] [--landmarks K]"
     "\n               [--max-waypoints N]"},
    {"bake", navtool_bake,
     "navtool bake MAP -o OUT.nav [--cluster N] [--levels N] [--ratio N] [--long N]\n"
     "               [--mesh [--radius CELLS] [--landmarks K (default 16)]]\n"
     "               [--waypoints [--max-waypoints N] [--keep-all-links] [--threads N]]   (MAP or "
     "WAYPOINTS.txt)\n"
     "               [--waypoints --from-mesh [--radius CELLS] ...]   (the graph of the map's navmesh)\n"
     "               [--quiet]"},
    {"info", navtool_info, "navtool info FILE.nav"},
    {"level", NULL,
     "navtool bake LEVEL.obj --mesh -o LEVEL.nav [--radius R] [--height H] [--climb C] [--slope DEG]\n"
     "               [--cell S] [--cell-height S] [--tile CELLS] [--threads N] [--max-verts N] [--landmarks "
     "K]\n"
     "               [--max-memory BYTES (4G)] [--quiet]   (world units; RecastDemo's agent by default)\n"
     "  navtool tile LEVEL.nav LEVEL.obj X Z [-o OUT.nav] [--max-memory BYTES] [--quiet]   (tile X, Z of a "
     "level baked in\n"
     "               tiles, built again: every other tile must still have its triangles)\n"
     "  navtool tile LEVEL.nav LEVEL.obj --changed [-o OUT.nav] ...   (every tile whose triangles changed)\n"
     "  navtool path LEVEL.nav X Y Z X Y Z [--algo mesh|mesh-funnel] [--png OUT] [--scale PX]\n"
     "  navtool render LEVEL.nav [X Y Z X Y Z] --png OUT [--scale PX]   (OUT and OUT-side: from above and "
     "the side)"},
    {"tile", navtool_tile, NULL},
    {"world", NULL,
     "navtool bake WORLD.json -o WORLD.nav [--threads N] [--quiet]      (a world file, docs/worlds.md)\n"
     "  navtool bake WORLD.json ... --max-table-mb MB                  (the most its tables take; 1024)\n"
     "  navtool bake WORLD.json --region NAME -o PART.nav              (a split bake: one region's part)\n"
     "  navtool bake WORLD.json --shard K/N -o PART.nav                (or job K of an array of N)\n"
     "  navtool bake WORLD.json --link PART.nav... -o WORLD.nav        (and its parts joined)\n"
     "  navtool path WORLD.json|WORLD.nav SX SY SZ GX GY GZ [--png OUT] [--scale PX] [--set LINK=on|off]...\n"
     "               (world points; --set switches a link, by name or number, before the query)\n"
     "  navtool render WORLD.json|WORLD.nav [SX SY SZ GX GY GZ] --png OUT [--scale PX] [--set "
     "LINK=on|off]..."},
    {"crowd", navtool_crowd,
     "navtool crowd SCENARIO.json [--png OUT] [--every N] [--scale PX] [--events] [--summary]\n"
     "               [--threads N]\n"
     "               (a crowd on a world: docs/crowd.md; a JSON line a tick, then the run's)"},
    {"render", navtool_render,
     "navtool render MAP|FILE.nav|WAYPOINTS.txt [SX SY GX GY | FROM TO] [--algo "
     "A|hpa|mesh|mesh-funnel|waypoints]\n"
     "               [--png OUT] [--ascii]\n"
     "               [--scale PX] [--radius CELLS] [--cluster N] [--levels N] [--ratio N] [--long N]"},
};

void navtool_usage(FILE *out)
{
    fprintf(out, "usage:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (commands[i].usage) fprintf(out, "  %s\n", commands[i].usage);
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        navtool_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (commands[i].run && !strcmp(argv[1], commands[i].name)) return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "navtool: unknown command '%s'\n", argv[1]);
    navtool_usage(stderr);
    return 2;
}
