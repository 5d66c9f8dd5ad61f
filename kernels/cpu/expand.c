/* Frontier expansion on the host [004 §3.4]: every edge of every frontier
 * vertex becomes (neighbor gid, parent lid). The atomic variant tests and sets
 * the visited bitmap (bb_cpu_atomic_arc), so no sort is needed. */
#include "config.h"

#include <string.h>

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

boxbfs_status_t bb_cpu_expand_atomic(const bb_kstate_t *k, void *stream, uint64_t frontier_count,
                                     int expand, int32_t next_level)
{
    uint64_t next = k->counters[BB_CTR_NEXT], arcs = k->counters[BB_CTR_NEXT_ARCS];
    (void)stream;
    (void)expand;
    for (uint64_t i = 0; i < frontier_count; i++) {
        uint32_t u = k->frontier[i];
        for (int64_t e = k->offsets[u]; e < k->offsets[u + 1]; e++)
            bb_cpu_atomic_arc(k, u, k->columns[e], next_level, &next, &arcs);
    }
    k->counters[BB_CTR_EXPANDED] = 0;
    k->counters[BB_CTR_NEXT] = next;
    k->counters[BB_CTR_NEXT_ARCS] = arcs;
    return BOXBFS_OK;
}
