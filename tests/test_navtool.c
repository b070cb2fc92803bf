/* navtool as a user runs it: the built program, on files made here, its output and exit status.
 * (Built only with the tools: NAVTOOL is the program's path.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"

#include "nav/hpa.h"
#include "nav/io.h"

/* Runs navtool with the arguments (a shell command line after the program), stdout and stderr
 * together into out. Returns its exit status. */
static int run_navtool(char *out, size_t size, const char *args)
{
    char command[4096];
    snprintf(command, sizeof command, "'%s' %s 2>&1", NAVTOOL, args);
    FILE *p = popen(command, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, size - 1, p);
    out[n] = '\0';
    int status = pclose(p);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static void expect_output(const char *out, const char *text)
{
    if (!strstr(out, text)) fail_msg("expected \"%s\" in navtool's output:\n%s", text, out);
}

/* A .nav file of arena's grid and its bake, the bake's chunk data changed by damage [opt] and
 * written as version hpa_version. */
static void write_arena_nav(const char *path, void (*damage)(nav_writer *), uint32_t hpa_version)
{
    nav_grid *grid;
    nav_hpa *hpa;
    assert_int_equal(nav_grid_load_map_file(test_data("arena.map"), NULL, &grid), NAV_SUCCESS);
    assert_int_equal(nav_hpa_bake(grid, NULL, &hpa), NAV_SUCCESS);
    nav_writer g, h;
    nav_writer_init(&g, NULL);
    nav_writer_init(&h, NULL);
    assert_int_equal(nav_grid_write_chunk(grid, &g), NAV_SUCCESS);
    assert_int_equal(nav_hpa_write_chunk(hpa, &h), NAV_SUCCESS);
    if (damage) damage(&h);
    nav_chunk chunks[2] = {{NAV_CHUNK_GRID, NAV_GRID_CHUNK_VERSION, g.data, g.size},
                           {NAV_CHUNK_HPA, hpa_version, h.data, h.size}};
    assert_int_equal(nav_container_write_file(path, chunks, 2, NULL), NAV_SUCCESS);
    nav_writer_destroy(&g);
    nav_writer_destroy(&h);
    nav_hpa_destroy(hpa);
    nav_grid_destroy(grid);
}

/* The node count (after width, height, fingerprint, four options and two counts) made absurd. */
static void too_many_nodes(nav_writer *w)
{
    memset(w->data + 40, 0xff, 4);
}

/* Issue 10, finding 2: navtool info exited 0 and printed "hpa: none" for a corrupt HPA chunk or one
 * of a newer version; it must say what is wrong on that line and exit 1. */
static void test_info(void **state)
{
    (void)state;
    char path[] = "/tmp/test_navtool_XXXXXX", args[256], out[8192];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    snprintf(args, sizeof args, "info '%s'", path);

    write_arena_nav(path, NULL, NAV_HPA_CHUNK_VERSION);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "grid: 49 x 49 cells");
    expect_output(out, "hpa: 3 levels");

    write_arena_nav(path, too_many_nodes, NAV_HPA_CHUNK_VERSION);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    expect_output(out, "grid: 49 x 49 cells");
    expect_output(out, "hpa: error: HPA chunk: more nodes than cells");

    write_arena_nav(path, NULL, NAV_HPA_CHUNK_VERSION + 1);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    expect_output(out, "hpa: error: HPA chunk version 3, this library reads version 2");

    nav_grid *grid;
    assert_int_equal(nav_grid_load_map_file(test_data("arena.map"), NULL, &grid), NAV_SUCCESS);
    assert_int_equal(nav_grid_save_nav(grid, path), NAV_SUCCESS);
    nav_grid_destroy(grid);
    assert_int_equal(run_navtool(out, sizeof out, args), 0);
    expect_output(out, "hpa: none");

    remove(path);
    assert_int_equal(run_navtool(out, sizeof out, args), 1);
    expect_output(out, "no such file");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_info),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
