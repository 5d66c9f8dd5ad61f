/* Frontier update on the host [003 step 4]: the owner keeps the vertices it
 * receives that it has not reached yet, gives them their level and parent
 * (a gid for its own discoveries, "from device s" otherwise; resolved by the
 * parent gather) and appends them to the next frontier. Also the reset of a
 * device's state before a search. */
#include "config.h"

#include <string.h>

#include "kernels/cpu/cpu_kernels.h"

boxbfs_status_t bb_cpu_reset(const bb_kstate_t *k, void *stream, uint64_t root)
{
    uint64_t nloc = k->hi - k->lo;
    (void)stream;
    for (uint64_t i = 0; i < nloc; i++) {
        k->level[i] = -1;
        k->pred[i] = -1;
    }
    if (k->visited && k->visited_init)
        memcpy(k->visited, k->visited_init, ((k->n + 31) / 32) * 4);
    else if (k->visited)
        memset(k->visited, 0, k->visited_bits ? ((k->n + 31) / 32) * 4 : k->n);
    if (k->remote_parent) memset(k->remote_parent, 0xff, (k->n - nloc) * sizeof(uint32_t));
    if (k->rank_prefix) k->rank_prefix[0] = k->rank_prefix[1] = 0;
    for (uint32_t h = 0; h < k->hubs; h++) k->hub_level[h] = -1;
    k->counters[BB_CTR_NEXT] = 0;
    k->counters[BB_CTR_NEXT_ARCS] = 0;
    if (root >= k->lo && root < k->hi) {
        uint32_t lid = (uint32_t)(root - k->lo);
        k->level[lid] = 0;
        k->pred[lid] = (int64_t)root;
        if (k->visited) bb_cpu_visit(k, root);
        k->frontier[0] = lid;
        k->counters[BB_CTR_NEXT] = 1;
        k->counters[BB_CTR_NEXT_ARCS] = bb_cpu_degree(k, lid);
    }
    return BOXBFS_OK;
}

static inline void visit_owned(const bb_kstate_t *k, uint32_t lid, const uint32_t *parents,
                               uint64_t i, int src, int32_t next_level, uint64_t *next)
{
    if (k->level[lid] != -1) return;
    k->level[lid] = next_level;
    k->pred[lid] = parents ? (int64_t)(k->lo + parents[i]) : -(int64_t)src - 2;
    if (k->visited) bb_cpu_visit(k, k->lo + lid);
    k->next_frontier[(*next)++] = lid;
    k->counters[BB_CTR_NEXT_ARCS] += bb_cpu_degree(k, lid);
}

boxbfs_status_t bb_cpu_update_list(const bb_kstate_t *k, void *stream, const uint32_t *list,
                                   const uint32_t *parents, uint64_t count, int src,
                                   int32_t next_level)
{
    uint64_t next = k->counters[BB_CTR_NEXT];
    (void)stream;
    for (uint64_t i = 0; i < count; i++) visit_owned(k, list[i], parents, i, src, next_level, &next);
    k->counters[BB_CTR_NEXT] = next;
    return BOXBFS_OK;
}

boxbfs_status_t bb_cpu_update_bitmap(const bb_kstate_t *k, void *stream, const uint32_t *bitmap,
                                     uint64_t nbits, int src, int32_t next_level)
{
    uint64_t next = k->counters[BB_CTR_NEXT];
    (void)stream;
    for (uint64_t w = 0; w < (nbits + 31) / 32; w++) {
        uint32_t bits = bitmap[w];
        while (bits) {
            int b = __builtin_ctz(bits);
            bits &= bits - 1;
            visit_owned(k, (uint32_t)(w * 32 + (uint64_t)b), NULL, 0, src, next_level, &next);
        }
    }
    k->counters[BB_CTR_NEXT] = next;
    return BOXBFS_OK;
}
