/* navtool internals: the subcommands and the helpers they share. */
#ifndef NAVTOOL_H
#define NAVTOOL_H

#include <stdio.h>

#include "nav/grid.h"
#include "nav/hpa.h"
#include "nav/mesh.h"
#include "nav/search.h"
#include "nav/waypoints.h"
#include "nav/world.h"

int navtool_demo(int argc, char **argv);
int navtool_path(int argc, char **argv);
int navtool_scen(int argc, char **argv);
int navtool_render(int argc, char **argv);
int navtool_bake(int argc, char **argv);
int navtool_info(int argc, char **argv);
void navtool_usage(FILE *out);

/* Levels (level.c): a .obj input; a .nav file holding a mesh and no grid (a level's). */
bool navtool_is_obj(const char *path);
bool navtool_is_level_nav(const char *path);
/* navtool bake LEVEL.obj --mesh ..., path LEVEL.nav X Y Z X Y Z ..., render LEVEL.nav ... --png OUT. */
int navtool_bake_level(int argc, char **argv);
int navtool_tile(int argc, char **argv);
int navtool_path_level(int argc, char **argv);
int navtool_render_level(int argc, char **argv);
/* A path over a level's mesh between world points [opt] (6 floats), printed (print) and drawn to png
 * [opt] and its side view (OUT-side.png), scale pixels the longer side (0: 1024). */
int navtool_level_route(const char *file, const float *points, nav_mesh_path_mode mode, const char *png,
                        int scale, bool print);
/* count numbers into out (false after a message naming command). */
bool navtool_parse_points(const char *command, const char *const *text, int count, float *out);

/* A nav_log that prints to stderr. */
extern const nav_log navtool_stderr_log;

/* A bake's progress on stderr (a nav_progress callback; user: the name before each line, a
 * const char *): a bar redrawn in place on a terminal; in a log a line as a stage starts and as it ends. */
bool navtool_print_progress(const char *stage, uint64_t done, uint64_t total, void *user);

/* Loads a grid by file extension: .nav (a baked file's grid), .map (Moving AI), .png (mask, default
 * palette), else ASCII. Prints the reason to stderr and returns null on failure. */
nav_grid *navtool_load_grid(const char *path, const nav_grid_desc *options);
/* The same, and for a .nav file that holds an HPA* bake, the bake too (validated against the
 * file's grid). [out] hpa [opt]: the bake, or null when the input has none (or on failure). */
nav_grid *navtool_load(const char *path, const nav_grid_desc *options, nav_hpa **hpa);

/* Parses an algorithm name (bfs, dijkstra, greedy, astar, wastar); false when unknown. */
bool navtool_parse_algo(const char *name, nav_algo *algo);
const char *navtool_algo_name(nav_algo algo);
/* Parses a heuristic name (zero, manhattan, octile, euclidean, chebyshev); false when unknown. */
bool navtool_parse_heuristic(const char *name, nav_heuristic *heuristic);

/* Parses one HPA* bake option at argv[*i] (--cluster N, --levels N, --ratio N, --long N) into desc,
 * moving *i past its value. Returns false (and leaves *i) when argv[*i] is not one of them. */
bool navtool_parse_hpa_option(int argc, char **argv, int *i, nav_hpa_desc *desc);
/* --landmarks K: 0 to NAV_MESH_MAX_LANDMARKS into *out; else false, having said so (as `command`). */
/* An unsigned number in [min, max] for an option (false after a message to stderr). */
bool navtool_parse_u32(const char *command, const char *option, const char *text, uint32_t min, uint32_t max,
                       uint32_t *out);
bool navtool_parse_landmarks(const char *command, const char *text, uint32_t *out);

/* Writes a PNG of the grid: walls, terrain shades, the closed and open cells of the query's last
 * search [opt], and the path [opt] on top. scale pixels a cell. Returns 0 on success. */
int navtool_write_png(const char *path, const nav_grid *grid, const nav_grid_query *query,
                      const nav_path *path_cells, int scale);
/* The same with an HPA* bake [opt] drawn under the path: cluster borders, nodes, top-level edges. */
int navtool_write_png_hpa(const char *path, const nav_grid *grid, const nav_grid_query *query,
                          const nav_hpa *hpa, const nav_path *path_cells, int scale);
/* What to draw over a grid: each [opt]. */
typedef struct navtool_layers {
    const nav_grid_query *query; /* the closed and open cells of its last search */
    const nav_hpa *hpa;          /* cluster borders, nodes, top-level edges */
    const nav_mesh *mesh;        /* polygon outlines, links */
    const uint32_t *corridor;    /* polygons tinted, their portals drawn */
    uint32_t corridor_count;
    const nav_path *mesh_path;      /* a straight path of world points, with its corners */
    const nav_waypoints *waypoints; /* links, then waypoints */
    const nav_path *waypoint_path;  /* a route or path of world points, with its corners */
} navtool_layers;
int navtool_write_png_layers(const char *path, const nav_grid *grid, const navtool_layers *layers,
                             const nav_path *path_cells, int scale);

/* The mesh of a map for navtool: a .nav file's MESH chunk when it holds one (checked against its
 * grid), else built from grid with the given agent radius (cells). Prints why and returns null on
 * failure. */
nav_mesh *navtool_mesh_for(const char *input, const nav_grid *grid, float agent_radius);
/* Parses a mesh mode name (mesh: optimal, mesh-funnel); false when unknown. */
bool navtool_parse_mesh_mode(const char *name, nav_mesh_path_mode *mode);
/* navtool path and render with --algo mesh or mesh-funnel: c (four cell coordinates) [opt]. */
int navtool_mesh_route(const char *input, const int32_t *c, nav_mesh_path_mode mode, float agent_radius,
                       const char *png, int scale, bool print);

/* Whether path is a .nav file (by its name) that holds a chunk with this tag. */
bool navtool_nav_file_has(const char *path, uint32_t tag);
/* Whether the file starts as a waypoint file does ("libnav waypoints"). */
bool navtool_is_waypoint_file(const char *path);
/* The waypoints of an input: a .nav file's WAYPOINTS chunk (with the file's grid when it holds one),
 * a waypoint file baked here, or a grid (map, ASCII, PNG) baked here with options [opt]. *grid is
 * the grid, or null for a graph of its own. Progress to stderr when asked. Returns 0, or 1 having
 * said why (both null). */
int navtool_waypoints_for(const char *input, const nav_waypoint_grid_desc *options, bool progress,
                          nav_waypoints **wp, nav_grid **grid);
/* navtool path and render with --algo waypoints: nends 2 (two waypoints, by name or index), 4 (two
 * cells: waypoints baked from a grid) or 0 (the graph alone). */
int navtool_waypoints_route(const char *input, const char *const *ends, int nends, const char *png, int scale,
                            bool print);
/* navtool info's lines about a bake; grid [opt] the file's. */
void navtool_print_waypoints(const nav_waypoints *wp, const nav_grid *grid);

/* A PNG of a world from above (tools/world.c): regions in colours of their own, higher floors over
 * lower ones, links (grey when off), and a path [opt] with its legs [opt] in their regions' colours.
 * scale: pixels a world unit. Returns 0 on success. */
int navtool_write_world_png(const char *png, const nav_world *w, const nav_world_leg *legs,
                            uint32_t leg_count, const nav_path *path, double scale);
/* The same with each agent's trail (trails[a]: lengths[a] positions, oldest first) in a colour of its
 * own, and the agent at its end. */
int navtool_write_crowd_png(const char *png, const nav_world *w, const nav_vec3 *const *trails,
                            const uint32_t *lengths, uint32_t agents, double scale);
/* navtool crowd (tools/crowd.c). */
int navtool_crowd(int argc, char **argv);

/* World commands (tools/world_cmd.c). */
bool navtool_is_json(const char *path); /* by its name */
const char *navtool_planner_of(const nav_world *w, uint32_t region);
/* The legs of the query's last plan, a line each (region, planner, cost, points, the link after). */
void navtool_print_legs(const nav_world *w, const nav_world_query *q);
/* A world from its JSON file (baked with bake [opt]) or its .nav file; null having said why. */
nav_world *navtool_load_world(const char *path, const nav_world_bake_desc *bake, bool quiet);
int navtool_bake_world(int argc, char **argv);
int navtool_path_world(int argc, char **argv);
int navtool_render_world(int argc, char **argv);

/* Prints the grid with the path as '*' (start 's', goal 't'). */
void navtool_print_ascii(FILE *out, const nav_grid *grid, const nav_path *path_cells);

#endif
