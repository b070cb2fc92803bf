/* Writes a world of one big grid region with many links (issue 43, defect 19: a region's table grew
 * with the square of its chokepoints), for world_links.sh to bake with navtool: DIR/world.json,
 * DIR/big.map (SIDE x SIDE plain cells, a rock in every 50 placed at random) and DIR/hut.map (4 x 4
 * cells; each hut region is one of those, placed in a row beyond the big grid).
 *
 * Layouts:
 *   interior  each link joins a random free cell of the big grid to a random cell of a hut (one hut
 *             for every 10 links), and every fourth one instead two random free cells of the big grid
 *             (a teleport): chokepoints strewn over the region;
 *   border    each link is a door from a cell of the big grid's border (spread evenly around it) to a
 *             hut: chokepoints on the border, facing each other across the region.
 *
 * usage: world_links --links N [--layout interior|border] [--side S] [--seed X] --out DIR */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30, x *= 0xbf58476d1ce4e5b9ull, x ^= x >> 27, x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t state;

static uint32_t next(uint32_t below)
{
    state = mix64(state + 0x9e3779b97f4a7c15ull);
    return (uint32_t)(state % below);
}

int main(int argc, char **argv)
{
    uint32_t links = 0, side = 1000, seed = 1;
    const char *layout = "interior", *out = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--links"))
            links = (uint32_t)strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--side"))
            side = (uint32_t)strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--seed"))
            seed = (uint32_t)strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--layout"))
            layout = argv[i + 1];
        else if (!strcmp(argv[i], "--out"))
            out = argv[i + 1];
        else {
            fprintf(stderr, "world_links: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    bool border = !strcmp(layout, "border");
    if (!links || !out || side < 8 || (!border && strcmp(layout, "interior")) ||
        (border && links > 4 * (side - 1))) {
        fprintf(stderr, "usage: world_links --links N [--layout interior|border] [--side S] [--seed X] "
                        "--out DIR (border: at most 4 (S - 1) links)\n");
        return 2;
    }
    state = seed;
    char path[4096];
    uint8_t *rock = calloc((size_t)side * side, 1);
    for (uint32_t i = 0; i < side * side / 50; i++) {
        uint32_t x = next(side), y = next(side);
        if (!border || (x > 0 && y > 0 && x < side - 1 && y < side - 1)) rock[(size_t)y * side + x] = 1;
    }
    snprintf(path, sizeof path, "%s/big.map", out);
    FILE *f = fopen(path, "w");
    if (!f) return perror(path), 1;
    fprintf(f, "type octile\nheight %u\nwidth %u\nmap\n", side, side);
    for (uint32_t y = 0; y < side; y++) {
        for (uint32_t x = 0; x < side; x++) fputc(rock[(size_t)y * side + x] ? 'T' : '.', f);
        fputc('\n', f);
    }
    fclose(f);
    snprintf(path, sizeof path, "%s/hut.map", out);
    f = fopen(path, "w");
    if (!f) return perror(path), 1;
    fprintf(f, "type octile\nheight 4\nwidth 4\nmap\n....\n....\n....\n....\n");
    fclose(f);
    uint32_t huts = (links + 9) / 10;
    snprintf(path, sizeof path, "%s/world.json", out);
    f = fopen(path, "w");
    if (!f) return perror(path), 1;
    fprintf(f, "{\"regions\": [\n{\"name\": \"big\", \"grid\": \"big.map\"}");
    for (uint32_t h = 0; h < huts; h++)
        fprintf(f, ",\n{\"name\": \"hut%u\", \"grid\": \"hut.map\", \"origin\": [%u, 0, %u]}", h,
                side + 8 + 6 * (h % 256), 6 * (h / 256));
    fprintf(f, "\n],\n\"links\": [\n");
    uint32_t perimeter = 4 * (side - 1);
    for (uint32_t k = 0; k < links; k++) {
        uint32_t x, y;
        if (border) { /* evenly around the border, clockwise from (0, 0) */
            uint32_t at = (uint32_t)((uint64_t)k * perimeter / links), s = side - 1;
            x = at < s ? at : at < 2 * s ? s : at < 3 * s ? s - (at - 2 * s) : 0;
            y = at < s ? 0 : at < 2 * s ? at - s : at < 3 * s ? s : s - (at - 3 * s);
        } else {
            do x = next(side), y = next(side);
            while (rock[(size_t)y * side + x]);
        }
        fprintf(f, "%s{\"from\": {\"region\": \"big\", \"at\": [%u.5, 0, %u.5]}, ", k ? ",\n" : "", x, y);
        if (!border && k % 4 == 3) {
            uint32_t tx, ty;
            do tx = next(side), ty = next(side);
            while (rock[(size_t)ty * side + tx]);
            fprintf(f, "\"to\": {\"region\": \"big\", \"at\": [%u.5, 0, %u.5]}, \"cost\": 5}", tx, ty);
        } else {
            uint32_t h = k % huts;
            fprintf(f, "\"to\": {\"region\": \"hut%u\", \"at\": [%u.5, 0, %u.5]}, \"cost\": 2}", h,
                    side + 8 + 6 * (h % 256) + next(4), 6 * (h / 256) + next(4));
        }
    }
    fprintf(f, "\n]}\n");
    fclose(f);
    free(rock);
    return 0;
}
