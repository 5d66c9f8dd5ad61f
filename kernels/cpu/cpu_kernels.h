/* Host twins of the CUDA kernels (kernels/cuda/), one emulated device per
 * host thread: the same entry points, the same results and byte counts. */
#ifndef BB_CPU_KERNELS_H
#define BB_CPU_KERNELS_H

#include "kernels/kernels.h"

BB_DECLARE_KERNELS(bb_cpu)

/* Visited test-and-set over the whole vertex range (byte or bit layout):
 * returns 1 if v was not yet marked (and marks it). */
static inline int bb_cpu_visit(const bb_kstate_t *k, uint64_t v)
{
    if (k->visited_bits) {
        uint32_t *w = (uint32_t *)k->visited + (v >> 5);
        uint32_t bit = 1u << (v & 31);
        if (*w & bit) return 0;
        *w |= bit;
        return 1;
    }
    uint8_t *b = (uint8_t *)k->visited + v;
    if (*b) return 0;
    *b = 1;
    return 1;
}

/* v unvisited again (the loop across devices undoing a level). */
static inline void bb_cpu_unmark(const bb_kstate_t *k, uint64_t v)
{
    if (k->visited_bits) ((uint32_t *)k->visited)[v >> 5] &= ~(1u << (v & 31));
    else ((uint8_t *)k->visited)[v] = 0;
}

static inline int bb_cpu_is_visited(const bb_kstate_t *k, uint64_t v)
{
    if (k->visited_bits) return (((const uint32_t *)k->visited)[v >> 5] >> (v & 31)) & 1u;
    return ((const uint8_t *)k->visited)[v] != 0;
}

/* Out-arcs of owned local vertex lid (Beamer's counts). */
static inline uint64_t bb_cpu_degree(const bb_kstate_t *k, uint64_t lid)
{
    return (uint64_t)(k->offsets[lid + 1] - k->offsets[lid]);
}

/* Owner of gid v: the device whose range holds it (ndev is small). */
static inline int bb_cpu_owner(const bb_kstate_t *k, uint64_t v)
{
    int lo = 0, hi = k->ndev - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (k->range_lo[mid] <= v) lo = mid; else hi = mid - 1;
    }
    return lo;
}

/* Devices that work in each other's memory (peers.c): a meeting
 * (kernels.h bb_mail_half's protocol; BB_MEET_*; v[j][o] this device's
 * nvalues values for device o, g[j][o] device o's for this one; the loop's
 * meeting of BB_MAIL_VALUES words, bb_mail_words), the abort
 * word raised (the first code stays); remote vertex v won from frontier
 * vertex u (a local id) appended to its owner's inbox region (sent[owner]
 * counts them; the entries of a loop's run `runs` at bb_loop_slot, 0
 * elsewhere); source s's count vertices of this device's inbox taken at
 * level (the first to arrive wins; next frontier, its count and arcs grow);
 * this device's part of a bitmap into every other device's bitmap bits[o]. */
int bb_cpu_meet(const bb_loop_peers_t *p, int ndev, int self, uint64_t tag, int nvalues,
                const uint64_t (*v)[BB_LOOP_MAX_DEV], uint64_t (*g)[BB_LOOP_MAX_DEV]);
int bb_cpu_meet_words(const bb_loop_peers_t *p, int ndev, int self, uint64_t tag,
                      const uint32_t (*v)[BB_LOOP_MAX_DEV], uint32_t (*g)[BB_LOOP_MAX_DEV]);
void bb_cpu_raise_abort(const bb_loop_peers_t *p, uint32_t code);
/* The same on an abort word alone (NULL: none); and the wait of every
 * meeting: until word w is ready (the tag, or in_word: a word with the
 * tag's low half above its value), BB_MEET_OK with it in *out; else the
 * abort word raised meanwhile (BB_MEET_ABORTED), or nothing within
 * timeout_ns of t0 (BB_MEET_TIMEOUT: this device, self, raises it). */
void bb_cpu_raise_abort_word(uint32_t *abort, uint32_t code);
int bb_cpu_await(uint32_t *abort, uint64_t timeout_ns, int self, const uint64_t *w, uint64_t tag,
                 int in_word, double t0, uint64_t *out);
void bb_cpu_send(const bb_kstate_t *k, const bb_loop_peers_t *p, uint32_t v, uint32_t u,
                 uint32_t runs, uint64_t *sent);
void bb_cpu_take_inbox(const bb_kstate_t *k, const bb_loop_peers_t *p, int s, uint64_t count,
                       uint32_t runs, int32_t level, uint32_t *next_frontier, uint64_t *next_p,
                       uint64_t *next_arcs_p);
void bb_cpu_push_bits(const bb_kstate_t *k, uint32_t *const *bits, const uint32_t *part);
/* This device's part of its visited array into every other device's
 * (visited[o]: device o's; kernels.h bb_peers_share_visited). */
void bb_cpu_push_visited(const bb_kstate_t *k, void *const *visited);
/* The levels of this device's hubs that changed since it last stored them
 * into every device's hub_level (hub_level[o]: device o's copy, its own
 * included; kernels.h bb_peers_split_hubs); how many. */
uint64_t bb_cpu_stamp_hubs(const bb_kstate_t *k, int32_t *const *hub_level);

/* The device loop across devices (small_levels.c): the walk where it
 * stopped, *status_p a failed meeting's BB_MEET_*. */
bb_loop_walk_t bb_cpu_peer_levels(const bb_kstate_t *k, const bb_loop_params_t *p, int *status_p);

/* The top-down level of the device search across devices (expand.c): the
 * atomic expand of count frontier vertices, remote winners straight into
 * their owners' inboxes with their parents (bb_cpu_send); split: the hubs'
 * rows split by destination (kernels.h bb_peers_split_hubs), this
 * device's hubs left out of its list. */
void bb_cpu_expand_peers(const bb_kstate_t *k, const bb_loop_peers_t *p, uint64_t count,
                         int32_t next_level, uint64_t *sent, int split);

/* The device search across devices (search_peers.c), bb_cpu_search's for
 * several devices. */
boxbfs_status_t bb_cpu_search_peers(const bb_kstate_t *k, bb_search_t *s, uint64_t *first_rows,
                                    uint32_t first);

/* One device's device loop (small_levels.c), for the device search too. */
bb_loop_walk_t bb_cpu_one_device_levels(const bb_kstate_t *k, const bb_loop_params_t *p,
                                        uint64_t count, uint64_t arcs);

#endif /* BB_CPU_KERNELS_H */
