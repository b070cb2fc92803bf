/* libFuzzer harness for world files (see README.md here): the JSON world file
 * (nav_world_load_json_text) and the baked world's .nav file (nav_world_read_nav). The first byte is
 * a mode: bit 0 also runs queries between every two link ends of a world that loads; bit 1: the rest
 * is a world .nav file, with bit 2 its size field and CRCs repaired first (so that mutations reach
 * the WRLD and WREG checks); else the rest is the JSON text, its sources found in
 * data/worlds/village (NAV_FUZZ_WORLD_DIR). A .nav world that loads must write back to bytes that
 * load again and write back the same; with bit 4 too, it is loaded from a file with its regions on
 * demand (a budget of 1 byte) and queried, every query failing only as a region it reads is
 * refused. Bit 3 (with bit 1 clear): the rest is a split bake's part
 * file (size field and CRCs repaired), joined as the only part of the village
 * (nav_world_bake_desc.parts); a world that comes of it writes a .nav file that reads back.
 *
 * Besides crashes, sanitizer reports and leaks, it traps when a result breaks a promise: a failure
 * that is not one of the documented statuses or that returns a world; a world that loads whose
 * queries between link ends fail other than as "unreachable", or whose path's cost is not the sum of
 * its legs' and links', or (baked here from JSON) differs from the plan's by more than 1e-9
 * relative, or whose legs do not cover the path's points in order.
 *
 * NAV_FUZZ_MAKE_SEEDS builds a program that writes the village and a few small worlds as seeds. */
#include "fuzz_common.h" /* first: it asks for _GNU_SOURCE */

#include <math.h>
#include "nav/world.h"

#ifndef NAV_FUZZ_WORLD_DIR
#define NAV_FUZZ_WORLD_DIR "data/worlds/village"
#endif

/* exact: the world was baked here from its sources, so each leg's refined cost is the plan's; a
 * world read from bytes (a .nav file, a part) may carry forged table costs, held to clean answers.
 * lazy: its regions are read on demand, so a query may fail when one it reads is refused. */
static void query_link_ends(const nav_world *w, bool exact, bool lazy)
{
    nav_world_query *q = NULL;
    if (nav_failed(nav_world_query_create(w, NULL, &q))) return;
    nav_world_info info;
    nav_world_get_info(w, &info);
    uint32_t links = info.links < 6 ? info.links : 6;
    nav_path path;
    nav_path_init(&path, NULL);
    for (uint32_t a = 0; a < 2 * links; a++)
        for (uint32_t b = 0; b < 2 * links; b++) {
            nav_world_link_desc la, lb;
            CHECK(nav_world_link(w, a / 2, &la) && nav_world_link(w, b / 2, &lb));
            nav_vec3 from = a % 2 ? la.to : la.from, to = b % 2 ? lb.to : lb.from;
            nav_world_result plan, r;
            nav_status s = nav_world_plan(q, from, to, &plan);
            nav_status t = nav_world_find_path(q, from, to, &path, &r);
            if (lazy && (nav_failed(s) || nav_failed(t))) {
                const nav_status refused =
                    NAV_CORRUPT_DATA | NAV_IO_ERROR | NAV_OUT_OF_MEMORY | NAV_INVALID_PARAM;
                CHECK(!nav_failed(s) || !(s & NAV_DETAIL_MASK & ~refused));
                CHECK(!nav_failed(t) || !(t & NAV_DETAIL_MASK & ~refused));
                continue;
            }
            if (nav_failed(s)) { /* an end that another region's floor hides may locate nowhere useful */
                CHECK(s == t && path.count == 0);
                continue;
            }
            CHECK(s == t);
            if (nav_has_detail(s, NAV_UNREACHABLE)) {
                CHECK(path.count == 1);
                continue;
            }
            CHECK(s == NAV_SUCCESS && isfinite(r.cost) && r.cost >= 0);
            CHECK(!exact || fabs(plan.cost - r.cost) <= 1e-9 * fmax(1, r.cost));
            uint32_t count, next = 0;
            const nav_world_leg *legs = nav_world_query_legs(q, &count);
            double sum = 0;
            for (uint32_t i = 0; i < count; i++) {
                CHECK(legs[i].first_point == next && legs[i].point_count >= 1);
                next += legs[i].point_count;
                sum += legs[i].cost + legs[i].link_cost;
            }
            CHECK(next == path.count && count == r.legs);
            CHECK(fabs(sum - r.cost) <= 1e-9 * fmax(1, r.cost));
            /* what agents ask: each leg's places, a move from its start towards its end, the
             * nearest place to that end, the walls near its start (a world read from bytes may
             * refuse: never crash) */
            for (uint32_t i = 0; i < count; i++) {
                uint32_t ids[64], n = 0;
                nav_status c = nav_world_leg_corridor(q, i, &path, ids, 64, &n);
                CHECK(!nav_failed(c) || nav_has_detail(c, NAV_BUFFER_TOO_SMALL) || !exact);
                CHECK(nav_failed(c) || (n >= 1 && n <= 64));
                nav_world_place moved, near;
                nav_status m = nav_world_move(q, &legs[i].from, legs[i].to.position, &moved);
                CHECK(!exact || !nav_failed(m));
                CHECK(nav_failed(m) || (moved.region == legs[i].region && isfinite(moved.position.x)));
                nav_status k = nav_world_nearest(w, legs[i].to.position, (nav_vec3){1, 1, 1}, &near);
                CHECK(!exact || !nav_failed(k));
                bool sees;
                nav_status v = nav_world_sees(q, &legs[i].from, legs[i].to.position, &sees);
                CHECK(!exact || !nav_failed(v));
                nav_wall walls[8];
                uint32_t found = 99;
                nav_status f = nav_world_walls(q, &legs[i].from, 3, walls, 8, &found);
                CHECK(!exact || !nav_failed(f));
                CHECK(found <= 8 && (!nav_failed(f) || found == 0));
            }
        }
    nav_path_destroy(&path);
    nav_world_query_destroy(q);
}

static void world_nav(uint8_t mode, const uint8_t *data, size_t size)
{
    uint8_t *file = fuzz_copy(data, size);
    if (mode & 4) repair_container(file, size);
    nav_world *w = (nav_world *)1;
    /* bit 4: through a file, its regions on demand (each read, and checked, when a query needs it) */
    nav_status s = mode & 16 ? nav_world_load_nav(memory_file(file, size),
                                                  &(nav_world_load_desc){.region_budget = 1}, &w)
                             : nav_world_read_nav(file, size, NULL, &w);
    if (mode & 16 && !nav_failed(s)) { /* queries fail only as the region they read is refused */
        query_link_ends(w, false, true);
        nav_world_destroy(w);
        free(file);
        return;
    }
    if (nav_failed(s)) {
        const nav_status allowed =
            NAV_CORRUPT_DATA | NAV_WRONG_VERSION | NAV_TOO_LARGE | NAV_OUT_OF_MEMORY | NAV_IO_ERROR;
        CHECK(w == NULL && (s & NAV_DETAIL_MASK) && !(s & NAV_DETAIL_MASK & ~allowed));
    } else {
        CHECK(w != NULL);
        nav_writer a, b;
        nav_writer_init(&a, NULL);
        nav_writer_init(&b, NULL);
        CHECK(nav_world_write_nav(w, &a) == NAV_SUCCESS);
        nav_world *again = NULL;
        CHECK(nav_world_read_nav(a.data, a.size, NULL, &again) == NAV_SUCCESS);
        CHECK(nav_world_write_nav(again, &b) == NAV_SUCCESS);
        CHECK(a.size == b.size && !memcmp(a.data, b.data, a.size));
        nav_world_destroy(again);
        nav_writer_destroy(&a);
        nav_writer_destroy(&b);
        if (mode & 1) query_link_ends(w, false, false);
        nav_world_destroy(w);
    }
    free(file);
}

/* The village's JSON, read once. */
static const char *village_text(size_t *size)
{
    static char text[1 << 16];
    static size_t n;
    if (!n) {
        FILE *f = fopen(NAV_FUZZ_WORLD_DIR "/village.json", "rb");
        CHECK(f);
        n = fread(text, 1, sizeof text, f);
        fclose(f);
    }
    *size = n;
    return text;
}

static void village_part(uint8_t mode, const uint8_t *data, size_t size)
{
    uint8_t *file = fuzz_copy(data, size);
    repair_container(file, size);
    size_t n;
    const char *text = village_text(&n);
    nav_world_part part = {file, size, "part.nav"};
    nav_world_bake_desc bake = {.parts = &part, .part_count = 1, .threads = 1};
    nav_world *w = (nav_world *)1;
    nav_status s = nav_world_load_json_text(text, n, "village.json", NAV_FUZZ_WORLD_DIR,
                                            &(nav_world_load_desc){.bake = &bake}, &w);
    if (nav_failed(s)) {
        const nav_status allowed = NAV_CORRUPT_DATA | NAV_WRONG_VERSION | NAV_TOO_LARGE | NAV_OUT_OF_MEMORY |
                                   NAV_INVALID_PARAM | NAV_SOURCE_MISMATCH;
        CHECK(w == NULL && (s & NAV_DETAIL_MASK) && !(s & NAV_DETAIL_MASK & ~allowed));
    } else {
        CHECK(w != NULL);
        nav_writer image;
        nav_writer_init(&image, NULL);
        CHECK(nav_world_write_nav(w, &image) == NAV_SUCCESS);
        nav_world *again = NULL;
        CHECK(nav_world_read_nav(image.data, image.size, NULL, &again) == NAV_SUCCESS);
        nav_world_destroy(again);
        nav_writer_destroy(&image);
        if (mode & 1) query_link_ends(w, false, false);
        nav_world_destroy(w);
    }
    free(file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    uint8_t mode = data[0];
    if (mode & 2) {
        world_nav(mode, data + 1, size - 1);
        return 0;
    }
    if (mode & 8) {
        village_part(mode, data + 1, size - 1);
        return 0;
    }
    char *text = (char *)fuzz_copy(data + 1, size - 1);
    nav_world *w = (nav_world *)1;
    nav_status s = nav_world_load_json_text(text, size - 1, "fuzz.json", NAV_FUZZ_WORLD_DIR, NULL, &w);
    if (nav_failed(s)) {
        const nav_status allowed = NAV_PARSE_ERROR | NAV_IO_ERROR | NAV_INVALID_PARAM | NAV_TOO_LARGE |
                                   NAV_CORRUPT_DATA | NAV_WRONG_VERSION | NAV_SOURCE_MISMATCH |
                                   NAV_UNREACHABLE;
        CHECK(w == NULL && (s & NAV_DETAIL_MASK) && !(s & NAV_DETAIL_MASK & ~allowed));
    } else {
        CHECK(w != NULL);
        if (mode & 1) query_link_ends(w, true, false);
        nav_world_destroy(w);
    }
    free(text);
    return 0;
}

#if defined(NAV_FUZZ_MAKE_SEEDS)
static void make_seeds(const char *dir)
{
    FILE *f = fopen(NAV_FUZZ_WORLD_DIR "/village.json", "rb");
    CHECK(f);
    static char village[1 << 16];
    size_t n = fread(village, 1, sizeof village, f);
    fclose(f);
    write_seed(dir, "village", 1, village, n);
    static const char *const small[][2] = {
        {"two_floors",
         "{\"regions\": [{\"name\": \"g\", \"grid\": \"house_ground.txt\"}, {\"name\": \"u\", \"grid\": "
         "\"house_upper.txt\", \"origin\": [0, 3, 0]}], \"links\": [{\"kind\": \"stairs\", \"from\": "
         "{\"region\": \"g\", \"at\": [2.5, 0, 8.5]}, \"to\": {\"region\": \"u\", \"at\": [2.5, 3, 8.5]}, "
         "\"cost\": 5, \"one_way\": true}]}"},
        {"road",
         "{\"regions\": [{\"name\": \"r\", \"waypoints\": \"road.txt\", \"snap\": 2}, {\"name\": \"t\", "
         "\"mesh\": \"town_east.txt\", \"origin\": [92, 0, 0]}], \"links\": [{\"from\": {\"region\": \"r\", "
         "\"at\": [92, 0, 12.5]}, \"to\": {\"region\": \"t\", \"at\": [92.5, 0, 12.5]}, \"enabled\": false}, "
         "{\"kind\": \"portal\", \"from\": {\"region\": \"t\", \"at\": [100.5, 0, 0.5]}, \"to\": "
         "{\"region\": \"r\", \"at\": [56.5, 0, 12.5]}, \"cost\": 3}]}"},
        {"tiles",
         "{\"regions\": [{\"name\": \"a\", \"grid\": \"town_east.txt\"}, {\"name\": \"b\", \"grid\": "
         "\"town_east.txt\", \"origin\": [30, 0, 0]}, {\"name\": \"c\", \"grid\": \"town_east.txt\", "
         "\"origin\": [0, 0, 24]}], \"join\": {\"mode\": \"entrances\", \"long_entrance\": 4}, \"links\": "
         "[{\"from\": {\"region\": \"a\", \"at\": [0.5, 0, 0.5]}, \"to\": {\"region\": \"c\", \"at\": "
         "[0.5, 0, 30.5]}, \"cost\": 1}]}"},
        {"mesh_join", /* a navmesh against a grid's east border, joined along it */
         "{\"regions\": [{\"name\": \"a\", \"grid\": \"town_east.txt\"}, {\"name\": \"m\", \"mesh\": "
         "\"town_east.txt\", \"origin\": [30, 0, 0]}], \"join\": {\"mode\": \"entrances\"}}"},
        {"hpa", /* a grid searched through its HPA* bake, stairs to a flat one */
         "{\"regions\": [{\"name\": \"g\", \"grid\": \"house_ground.txt\", \"hpa\": {\"cluster_size\": 4, "
         "\"levels\": 2}}, {\"name\": \"u\", \"grid\": \"house_upper.txt\", \"origin\": [0, 3, 0]}], "
         "\"links\": [{\"kind\": \"stairs\", \"from\": {\"region\": \"g\", \"at\": [2.5, 0, 8.5]}, \"to\": "
         "{\"region\": \"u\", \"at\": [2.5, 3, 8.5]}, \"cost\": 5}]}"},
    };
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
        write_seed(dir, small[i][0], 1, small[i][1], strlen(small[i][1]));
    /* the same worlds baked, as .nav files */
    for (size_t i = 0; i <= sizeof small / sizeof small[0]; i++) {
        const char *text = i ? small[i - 1][1] : village;
        size_t length = i ? strlen(text) : n;
        nav_world *w;
        CHECK(nav_world_load_json_text(text, length, "seed.json", NAV_FUZZ_WORLD_DIR, NULL, &w) ==
              NAV_SUCCESS);
        nav_writer image;
        nav_writer_init(&image, NULL);
        CHECK(nav_world_write_nav(w, &image) == NAV_SUCCESS);
        char name[64];
        snprintf(name, sizeof name, "%s.nav", i ? small[i - 1][0] : "village");
        write_seed(dir, name, 7, image.data, image.size);
        snprintf(name, sizeof name, "%s_lazy.nav", i ? small[i - 1][0] : "village");
        write_seed(dir, name, 7 | 16, image.data, image.size);
        nav_writer_destroy(&image);
        if (i == 0) { /* the village's part covering every region (a whole bake's) */
            nav_writer part;
            nav_writer_init(&part, NULL);
            CHECK(nav_world_write_part(w, &part) == NAV_SUCCESS);
            write_seed(dir, "village_part.nav", 9, part.data, part.size);
            nav_writer_destroy(&part);
        }
        nav_world_destroy(w);
    }
}
#endif
