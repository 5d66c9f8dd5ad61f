/* Frontier expansion on the host [004 §3.4]: every edge of every frontier
 * vertex becomes (neighbor gid, parent lid). The atomic variant tests and sets
 * the visited bitmap: a first-seen vertex of this device is updated at once
 * (level, parent, next frontier), a remote one goes to its owner's segment
 * (a list, or a bit of the outbox bitmap), so no sort is needed; each row
 * starts past the visited prefix (kstate rank_prefix), which raise_prefix
 * raises. */
#include "config.h"

#include <string.h>

#include "common/error.h"
#include "kernels/cpu/cpu_kernels.h"

boxbfs_status_t bb_cpu_expand(const bb_kstate_t *k, void *stream, uint64_t frontier_count,
                              int filter_visited, int expand)
{
    uint64_t out = 0;
    (void)stream;
    (void)expand;   /* one host thread: load balancing does not apply */
    filter_visited = filter_visited && k->visited != NULL;
    for (uint64_t i = 0; i < frontier_count; i++) {
        uint32_t u = k->frontier[i];
        for (int64_t e = k->offsets[u]; e < k->offsets[u + 1]; e++) {
            uint32_t v = k->columns[e];
            if (filter_visited && bb_cpu_is_visited(k, v)) continue;
            k->nbr[out] = v;
            k->nbr_parent[out] = u;
            out++;
        }
    }
    k->counters[BB_CTR_EXPANDED] = out;
    return BOXBFS_OK;
}

boxbfs_status_t bb_cpu_raise_prefix(const bb_kstate_t *k, void *stream)
{
    uint32_t p = k->rank_prefix[1];
    (void)stream;
    while (p < k->n && bb_cpu_is_visited(k, k->by_rank[p])) p++;
    k->rank_prefix[0] = k->rank_prefix[1];
    k->rank_prefix[1] = p;
    return BOXBFS_OK;
}

/* The atomic expand's work on row u (an own vertex's, parent its gid; or
 * a hub's part, all of whose heads are own), from past the visited prefix;
 * its skipped arcs added to *skipped. */
static void expand_row(const bb_kstate_t *k, const bb_loop_peers_t *peers, uint32_t u,
                       uint64_t parent, int32_t next_level, uint64_t *sent, uint64_t *next_p,
                       uint64_t *arcs_p, uint64_t *skipped)
{
    uint32_t prefix = k->rank_prefix ? k->rank_prefix[1] : 0;
    int64_t first = prefix ? bb_row_past_prefix(k->columns, k->rank, k->offsets[u],
                                                k->offsets[u + 1], prefix)
                           : k->offsets[u];
    *skipped += (uint64_t)(first - k->offsets[u]);
    for (int64_t e = first; e < k->offsets[u + 1]; e++) {
        uint32_t v = k->columns[e];
        if (!bb_cpu_visit(k, v)) continue;
        if (v >= k->lo && v < k->hi) {   /* own vertex: the update's work, done here */
            k->level[v - k->lo] = next_level;
            k->pred[v - k->lo] = (int64_t)parent;
            k->next_frontier[(*next_p)++] = (uint32_t)(v - k->lo);
            if (k->next_bits) k->next_bits[(v - k->lo) >> 5] |= 1u << ((v - k->lo) & 31);
            *arcs_p += bb_cpu_degree(k, v - k->lo);
            continue;
        }
        if (peers) {
            bb_cpu_send(k, peers, v, u, 0, sent);
            continue;
        }
        int o = bb_cpu_owner(k, v);
        uint64_t slot = k->range_lo[o] + sent[o]++;
        if (k->outbox_bits) k->outbox_bits[v >> 5] |= 1u << (v & 31);
        else k->outbox[slot] = (uint32_t)(v - k->range_lo[o]);
        if (k->remote_parent) k->remote_parent[bb_remote_slot(v, k->lo, k->hi)] = u;
    }
}

/* The atomic expand of count frontier vertices; remote winners to the
 * outbox (peers NULL) or straight into their owners' inboxes; split: the
 * hubs' rows split by destination (bb_cpu_expand_peers). */
static void expand_atomic(const bb_kstate_t *k, const bb_loop_peers_t *peers, uint64_t count,
                          int32_t next_level, uint64_t *sent, int split)
{
    uint64_t next = k->counters[BB_CTR_NEXT], arcs = k->counters[BB_CTR_NEXT_ARCS], skipped = 0;
    uint32_t prefix = k->rank_prefix ? k->rank_prefix[1] : 0, nloc = (uint32_t)(k->hi - k->lo);
    for (uint64_t i = 0; i < count; i++) {
        uint32_t u = k->frontier[i];
        if (split && (uint64_t)bb_cpu_degree(k, u) >= k->hub_degree) continue;   /* below */
        expand_row(k, peers, u, k->lo + u, next_level, sent, &next, &arcs, &skipped);
    }
    for (uint32_t h = 0; split && h < k->hubs; h++)   /* the hubs at this level */
        if (k->hub_level[h] == next_level - 1)
            expand_row(k, peers, nloc + h, k->hub_gid[h], next_level, sent, &next, &arcs,
                       &skipped);
    k->counters[BB_CTR_EXPANDED] = 0;
    k->counters[BB_CTR_NEXT] = next;
    k->counters[BB_CTR_NEXT_ARCS] = arcs;
    if (prefix)
        BB_DEBUG(k->self, "top-down to level %d: visited prefix %u of %llu ranks, %llu arcs skipped",
                 next_level, prefix, (unsigned long long)k->n, (unsigned long long)skipped);
}

boxbfs_status_t bb_cpu_expand_atomic(const bb_kstate_t *k, void *stream, uint64_t frontier_count,
                                     int expand, int32_t next_level)
{
    (void)stream;
    (void)expand;   /* one host thread: load balancing does not apply */
    expand_atomic(k, NULL, frontier_count, next_level, k->counters + BB_CTR_SEND, 0);
    return BOXBFS_OK;
}

void bb_cpu_expand_peers(const bb_kstate_t *k, const bb_loop_peers_t *p, uint64_t count,
                         int32_t next_level, uint64_t *sent, int split)
{
    expand_atomic(k, p, count, next_level, sent, split);
}
