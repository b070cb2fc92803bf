/* Private to the waypoint bake: hub labels while they are made (label_bake.c) and the order that
 * takes their hubs round by round, labelling each round's before it draws the next (hub_order.c). */
#ifndef NAV_WAYPOINTS_LABEL_BAKE_H
#define NAV_WAYPOINTS_LABEL_BAKE_H

#include "waypoints_internal.h"

#define NAV__WP_UNRANKED UINT16_MAX /* the rank of a waypoint not yet taken as a hub */

/* A label entry while labelling (distances in doubles, so that pruning never trusts a rounding). */
typedef struct nav__wp_entry {
    double dist;
    uint16_t hub, hop; /* the hub by its rank; the first move towards it (the waypoint before) */
    uint32_t up;       /* where the hop's entry for the hub is in its label */
} nav__wp_entry;

/* One label as it grows, its hubs in the order they were taken (ascending rank). */
typedef struct nav__wp_growing {
    nav__wp_entry *e;
    uint32_t count, capacity;
} nav__wp_growing;

/* Whether a label (a waypoint's in-label in a forward search, its out-label in a backward one)
 * already serves the search's root at distance d: some hub in it whose distance from (to) the root,
 * hub_dist by rank, and the entry's together come to d or less. It stops at the first such hub
 * (most often among the first, which were taken first). */
static inline bool nav__wp_served(const nav__wp_growing *label, const double *hub_dist, double d)
{
    for (uint32_t k = 0; k < label->count; k++)
        if (hub_dist[label->e[k].hub] + label->e[k].dist <= d) return true;
    return false;
}

struct nav__wp_search;

/* The labels and the hubs' order while they are made. */
typedef struct nav__wp_labelling {
    const nav_waypoints *wp;
    uint16_t *by_rank;             /* per rank: the hub (wp->hub_node) */
    uint16_t *rank_of;             /* per waypoint: its rank, NAV__WP_UNRANKED until taken */
    uint32_t ranked;               /* hubs taken so far: ranks 0 .. ranked - 1 */
    uint32_t labelled;             /* of those, the ones whose searches have run */
    nav__wp_growing *label[2];     /* NAV__WP_OUT, NAV__WP_IN: the same array when the graph is
                                    * symmetric */
    double *hub_dist;              /* per rank: the distance from (to) a search's root, INFINITY
                                    * elsewhere */
    uint16_t *before;              /* per waypoint: where the current search reached it from */
    uint32_t *touched;             /* the waypoints the current search reached */
    struct nav__wp_search *search; /* its distances and open list */
    const nav_progress *progress;  /* [opt] "labels": hubs labelled */
} nav__wp_labelling;

/* Takes v as the next hub (its rank: b->ranked). */
static inline void nav__wp_rank(nav__wp_labelling *b, uint32_t v)
{
    b->rank_of[v] = (uint16_t)b->ranked;
    b->by_rank[b->ranked++] = (uint16_t)v;
}

/* Runs the searches of the hubs taken and not yet labelled, in rank order: each hub's search
 * forwards (in-labels) and, on a graph that is not symmetric, backwards (out-labels), through the
 * waypoints not taken before it. The labels then serve every route through those hubs.
 * NAV_FAILURE | NAV_OUT_OF_MEMORY | NAV_WRONG_STATE (cancelled by the progress callback). */
nav_status nav__wp_label_ranked(nav__wp_labelling *b);

/* Takes every waypoint as a hub (b->by_rank, b->rank_of), labelling round by round with
 * nav__wp_label_ranked (threads and progress from d). NAV_FAILURE | NAV_OUT_OF_MEMORY |
 * NAV_WRONG_STATE (cancelled). */
nav_status nav__wp_hub_order(nav__wp_labelling *b, const nav_waypoints_bake_desc *d);

#endif
