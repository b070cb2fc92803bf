/* Regions loaded on demand: a world read from a .nav file with a region budget keeps its abstract
 * graph (the WRLD chunk) in memory and each region's data on disk until a query needs it (locate
 * under a point, an end's cells or fan, a leg). A query holds (pins) the regions it uses until its
 * next plan; a region no query holds may be evicted, least recently used first, while the loaded
 * regions' bytes are over the budget. One lock guards the cache: loading a region reads and checks
 * it under the lock, so queries on other threads wait for it (and for each other's loads), while
 * queries over regions already held never take it but to pin and let go. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "file.h"
#include "log.h"
#include "world_internal.h"

struct nav__world_cache {
    pthread_mutex_t lock;
    FILE *file; /* the .nav file, open while the world lives */
    char *path;
    nav_log log;
    uint64_t regions_at;           /* the WREG chunk's offset in the file */
    uint64_t *blob_at, *blob_size; /* each region's data in it */
    uint32_t *blob_crc;
    uint32_t *pins;    /* queries holding each region */
    uint64_t *used_at; /* when each was last pinned (a clock of pins) */
    size_t *bytes;     /* each loaded region's memory (0: not loaded) */
    uint8_t *checked;  /* its data passed nav__world_check_region once (the same bytes, by their CRC,
                          pass again: a region read again is not walked again) */
    size_t budget, used, peak;
    uint64_t clock, loads, evictions;
    uint32_t loaded;
};

void nav__world_cache_set_region(nav__world_cache *c, uint32_t r, uint64_t at, uint64_t size, uint32_t crc)
{
    c->blob_at[r] = at, c->blob_size[r] = size, c->blob_crc[r] = crc;
}

/* Grows pins to hold one more region (false: out of memory). */
static bool pins_room(nav__world_pins *pins)
{
    if (pins->count < pins->capacity) return true;
    uint32_t capacity = pins->capacity ? 2 * pins->capacity : 8;
    uint32_t *more =
        nav__realloc(&pins->allocator, pins->regions, pins->capacity * sizeof *more, capacity * sizeof *more);
    if (!more) return false;
    pins->regions = more, pins->capacity = capacity;
    return true;
}

void nav__world_pins_free(nav__world_pins *pins)
{
    nav__free(&pins->allocator, pins->regions);
    pins->regions = NULL;
    pins->count = pins->capacity = 0;
}

void nav__world_cache_destroy(nav__world_cache *c, const nav_allocator *a)
{
    if (!c) return;
    if (c->file) fclose(c->file);
    pthread_mutex_destroy(&c->lock);
    nav__free(a, c->blob_at);
    nav__free(a, c->pins);
    nav__free(a, c->used_at);
    nav__free(a, c->bytes);
    nav__free(a, c->checked);
    nav__free(a, c->blob_crc);
    nav__free(a, c->path);
    nav__free(a, c);
}

nav_status nav__world_cache_create(nav_world *w, FILE *file, const char *path, uint64_t regions_at,
                                   size_t budget, const nav_log *log)
{
    const nav_allocator *a = &w->allocator;
    nav__world_cache *c = nav__calloc(a, 1, sizeof *c);
    if (!c) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    if (pthread_mutex_init(&c->lock, NULL) != 0) {
        nav__free(a, c);
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    }
    uint32_t n = w->region_count;
    c->blob_at = nav__calloc(a, 2 * (size_t)n, sizeof *c->blob_at);
    c->blob_size = c->blob_at ? c->blob_at + n : NULL;
    c->blob_crc = nav__calloc(a, n, sizeof *c->blob_crc);
    c->pins = nav__calloc(a, n, sizeof *c->pins);
    c->used_at = nav__calloc(a, n, sizeof *c->used_at);
    c->bytes = nav__calloc(a, n, sizeof *c->bytes);
    c->checked = nav__calloc(a, n, 1);
    size_t length = strlen(path) + 1;
    c->path = nav__alloc(a, length);
    w->cache = c; /* the world frees it from here on */
    if (!c->blob_at || !c->blob_crc || !c->pins || !c->used_at || !c->bytes || !c->checked || !c->path)
        return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    memcpy(c->path, path, length);
    c->file = file;
    c->regions_at = regions_at;
    c->budget = budget;
    if (log) c->log = *log;
    return NAV_SUCCESS;
}

/* Frees region r's data (the lock held, r loaded and held by no query). */
static void evict(nav_world *w, uint32_t r)
{
    nav__world_cache *c = w->cache;
    nav__world_drop_region_data(w, r);
    c->used -= c->bytes[r];
    c->bytes[r] = 0;
    c->evictions++;
    c->loaded--;
}

/* Reads region r's data from the file and checks it (the lock held, r not loaded). */
static nav_status load(nav_world *w, uint32_t r)
{
    nav__world_cache *c = w->cache;
    const nav_allocator *a = &w->allocator;
    nav__world_region *region = &w->regions[r];
    size_t size = (size_t)c->blob_size[r];
    uint8_t *data = nav__alloc(a, size ? size : 1);
    if (!data) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    nav_status s = NAV_SUCCESS;
    if (nav__fseek(c->file, (off_t)(c->regions_at + c->blob_at[r]), SEEK_SET) != 0 ||
        fread(data, 1, size, c->file) != size) {
        nav__logf(&c->log, NAV_LOG_ERROR, "%s: region %u (\"%s\"): cannot read its data", c->path, r,
                  nav__world_name(w, region->name));
        s = NAV_FAILURE | NAV_IO_ERROR;
    } else if (nav_crc32(0, data, size) != c->blob_crc[r]) {
        nav__logf(&c->log, NAV_LOG_ERROR, "%s: WREG chunk: region %u (\"%s\"): its data has a bad CRC",
                  c->path, r, nav__world_name(w, region->name));
        s = NAV_FAILURE | NAV_CORRUPT_DATA;
    }
    /* (grids without reachability labels: nothing a world asks of a grid uses them, and nothing
     * else sees a grid loaded on demand) */
    if (!nav_failed(s)) s = nav__world_read_region_data(w, r, data, size, false, &c->log);
    nav__free(a, data);
    if (!nav_failed(s) && !c->checked[r])
        s = nav__world_check_region(w, r, region->box, region->symmetric, &c->log);
    if (nav_failed(s)) { /* refused: as if never read */
        nav__world_drop_region_data(w, r);
        return s;
    }
    c->checked[r] = true;
    const nav__world_owned *o = &w->owned[r];
    c->bytes[r] = region->ops->bytes(o);
    c->used += c->bytes[r];
    c->loaded++;
    c->loads++;
    region->generation++;
    return NAV_SUCCESS;
}

/* Over the budget, the least recently used regions no query holds go (the lock held). */
static void trim(nav_world *w)
{
    nav__world_cache *c = w->cache;
    while (c->used > c->budget) {
        uint32_t oldest = UINT32_MAX;
        for (uint32_t k = 0; k < w->region_count; k++)
            if (c->bytes[k] && !c->pins[k] && (oldest == UINT32_MAX || c->used_at[k] < c->used_at[oldest]))
                oldest = k;
        if (oldest == UINT32_MAX) return; /* every loaded region is held: over the budget until let go */
        evict(w, oldest);
    }
}

nav_status nav__world_pin(const nav_world *world, uint32_t r, nav__world_pins *pins)
{
    nav_world *w = (nav_world *)world; /* the cache is the one part of a world that changes */
    nav__world_cache *c = w->cache;
    if (!c) return NAV_SUCCESS;
    for (uint32_t i = 0; i < pins->count; i++)
        if (pins->regions[i] == r) return NAV_SUCCESS; /* held already */
    if (!pins_room(pins)) return NAV_FAILURE | NAV_OUT_OF_MEMORY;
    pthread_mutex_lock(&c->lock);
    nav_status s = NAV_SUCCESS;
    if (!nav__world_region_loaded(&w->regions[r])) s = load(w, r);
    if (!nav_failed(s)) {
        c->pins[r]++;
        c->used_at[r] = ++c->clock;
        pins->regions[pins->count++] = r;
        if (c->used > c->peak) c->peak = c->used;
        trim(w);
    }
    pthread_mutex_unlock(&c->lock);
    return s;
}

void nav__world_unpin_all(const nav_world *world, nav__world_pins *pins)
{
    nav__world_cache *c = world->cache;
    if (!c || !pins->count) return;
    pthread_mutex_lock(&c->lock);
    for (uint32_t i = 0; i < pins->count; i++) c->pins[pins->regions[i]]--;
    trim((nav_world *)world);
    pthread_mutex_unlock(&c->lock);
    pins->count = 0;
}

void nav_world_get_cache_info(const nav_world *world, nav_world_cache_info *info)
{
    if (!info) return;
    *info = (nav_world_cache_info){0};
    nav_world *w = (nav_world *)world;
    if (!w || !w->cache) return;
    nav__world_cache *c = w->cache;
    pthread_mutex_lock(&c->lock);
    *info = (nav_world_cache_info){.on_demand = true,
                                   .budget = c->budget,
                                   .loaded_bytes = c->used,
                                   .peak_loaded_bytes = c->peak,
                                   .loaded_regions = c->loaded,
                                   .loads = c->loads,
                                   .evictions = c->evictions};
    pthread_mutex_unlock(&c->lock);
}
