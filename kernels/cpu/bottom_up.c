/* Bottom-up step on the host [Beamer et al., direction-optimizing BFS]: every
 * owned vertex that is not reached yet scans its in-arcs, in order, for a
 * member of the frontier (a bitmap over all vertices, every device's part
 * gathered) and stops at the first, which becomes its parent: the search
 * checks a vertex's arcs only until it is found, not every arc of the
 * frontier. The next frontier comes out as this device's bitmap part alone,
 * every word of it written (unpack_bitmap makes the list where a top-down
 * level follows). */
#include "config.h"

#include <string.h>

#include "kernels/cpu/cpu_kernels.h"

static inline int in_frontier(const uint32_t *bits, uint64_t v)
{
    return (bits[v >> 5] >> (v & 31)) & 1u;
}

boxbfs_status_t bb_cpu_bottom_up(const bb_kstate_t *k, void *stream, int32_t next_level)
{
    uint64_t nloc = k->hi - k->lo, next = k->counters[BB_CTR_NEXT];
    uint64_t arcs = k->counters[BB_CTR_NEXT_ARCS];
    (void)stream;
    memset(k->own_bits, 0, ((nloc + 31) / 32) * sizeof(uint32_t));
    for (uint64_t lid = 0; lid < nloc; lid++) {
        if (k->level[lid] != -1) continue;
        for (int64_t e = k->in_offsets[lid]; e < k->in_offsets[lid + 1]; e++) {
            uint32_t u = k->in_columns[e];
            if (!in_frontier(k->frontier_bits, u)) continue;
            k->level[lid] = next_level;
            k->pred[lid] = (int64_t)u;
            if (k->visited) bb_cpu_visit(k, k->lo + lid);
            k->own_bits[lid >> 5] |= 1u << (lid & 31);
            next++;
            arcs += bb_cpu_degree(k, lid);
            break;
        }
    }
    k->counters[BB_CTR_NEXT] = next;
    k->counters[BB_CTR_NEXT_ARCS] = arcs;
    return BOXBFS_OK;
}

boxbfs_status_t bb_cpu_mark_frontier(const bb_kstate_t *k, void *stream)
{
    uint64_t words = (k->n + 31) / 32;
    (void)stream;
    if (k->visited == NULL) return BOXBFS_OK;
    if (k->visited_bits) {
        uint32_t *vis = k->visited;
        for (uint64_t w = 0; w < words; w++) vis[w] |= k->frontier_bits[w];
        return BOXBFS_OK;
    }
    for (uint64_t w = 0; w < words; w++) {
        uint32_t bits = k->frontier_bits[w];
        while (bits) {
            int b = __builtin_ctz(bits);
            bits &= bits - 1;
            ((uint8_t *)k->visited)[w * 32 + (uint64_t)b] = 1;
        }
    }
    return BOXBFS_OK;
}
