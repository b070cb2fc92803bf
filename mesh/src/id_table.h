/* Private: what one search of a mesh query knows about the vertices, edges, polygons or node pairs
 * it has touched, by id: an open-addressing table (linear probing, at most half full) whose slots
 * carry the stamp of the search that filled them, so that a new search empties it in O(1): a slot
 * of another stamp is free. It holds what a search touches, not a record for every id of the mesh,
 * so a query object grows with its largest search, not with its mesh. Ids hash by Fibonacci
 * hashing (Knuth, TAOCP vol. 3, 6.4): the layout and every probe depend on the ids alone, and a
 * search gives the same result on every run. Growing the table (it doubles) is the query's
 * business (query_scratch.c), which counts its bytes. */
#ifndef NAV_MESH_ID_TABLE_H
#define NAV_MESH_ID_TABLE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct nav__id_slot {
    /* the id and the stamp of the search that holds the slot (another stamp: free), as one word
     * (stamp << 32 | id) so that a probe is one compare */
    uint64_t key;
    union {
        double number;    /* a vertex's best g as a root, or its landmark bound */
        uint64_t digest;  /* an edge's last interval node */
        uint32_t node[2]; /* a pair's two corridor-search nodes (indices, NAV__ID_NONE: none) */
    };
} nav__id_slot;

typedef struct nav__id_table {
    nav__id_slot *slots;
    uint64_t stamp_key; /* the current search's stamp << 32 (set by nav__next_stamp) */
    uint32_t shift;     /* 32 - log2(capacity) */
    uint32_t mask;      /* capacity - 1 (a power of two) */
    uint32_t room;      /* slots the current search may still take: half the capacity, less those
                         * it holds (then the table must grow first) */
} nav__id_table;

#define NAV__ID_NONE UINT32_MAX

/* Whether slot s is held by the current search. */
static inline bool nav__id_held(const nav__id_table *t, const nav__id_slot *s)
{
    return (s->key - t->stamp_key) >> 32 == 0;
}

static inline uint32_t nav__id_home(const nav__id_table *t, uint32_t id)
{
    return (uint32_t)(id * 2654435769u) >> t->shift;
}

/* The slot of id in this search, or null. */
static inline nav__id_slot *nav__id_find(const nav__id_table *t, uint32_t id)
{
    uint64_t key = t->stamp_key | id;
    for (uint32_t i = nav__id_home(t, id);; i = (i + 1) & t->mask) {
        nav__id_slot *s = &t->slots[i];
        if (s->key == key) return s;
        if (!nav__id_held(t, s)) return NULL;
    }
}

/* The slot of id in this search, taken now if it was not (*added: true; its value is then
 * whatever it was); null when the table must grow first (it is half full). */
static inline nav__id_slot *nav__id_take(nav__id_table *t, uint32_t id, bool *added)
{
    uint64_t key = t->stamp_key | id;
    for (uint32_t i = nav__id_home(t, id);; i = (i + 1) & t->mask) {
        nav__id_slot *s = &t->slots[i];
        if (s->key == key) {
            *added = false;
            return s;
        }
        if (nav__id_held(t, s)) continue;
        if (!t->room) return NULL;
        t->room--;
        s->key = key;
        *added = true;
        return s;
    }
}

#endif
