/* Parent gather after the search on the host [DESIGN "Parents"]: owners ask
 * each discovering device for the parents of the vertices it found for them
 * (each source's requests in increasing lid order); that device answers from
 * remote_parent, or recomputes them with one pass over its arcs. */
#include "config.h"

#include "common/error.h"
#include "kernels/cpu/cpu_kernels.h"

boxbfs_status_t bb_cpu_gather_requests(const bb_kstate_t *k, void *stream)
{
    uint64_t nloc = k->hi - k->lo;
    uint64_t *count = k->counters + BB_CTR_SEND, *offset = k->counters + BB_CTR_SEND + k->ndev;
    (void)stream;
    for (int s = 0; s < k->ndev; s++) count[s] = 0;
    for (uint64_t i = 0; i < nloc; i++)
        if (k->pred[i] < -1) count[-k->pred[i] - 2]++;
    uint64_t sum = 0;
    for (int s = 0; s < k->ndev; s++) {
        offset[s] = sum;
        sum += count[s];
        count[s] = 0;
    }
    for (uint64_t i = 0; i < nloc; i++) {
        if (k->pred[i] >= -1) continue;
        int s = (int)(-k->pred[i] - 2);
        k->gather_req[offset[s] + count[s]++] = (uint32_t)i;
    }
    return BOXBFS_OK;
}

boxbfs_status_t bb_cpu_gather_answer(const bb_kstate_t *k, void *stream, uint32_t *req,
                                     uint64_t count, uint64_t requester_lo)
{
    (void)stream;
    for (uint64_t i = 0; i < count; i++)
        req[i] = k->remote_parent[bb_remote_slot(requester_lo + req[i], k->lo, k->hi)];
    return BOXBFS_OK;
}

boxbfs_status_t bb_cpu_gather_apply(const bb_kstate_t *k, void *stream, const uint32_t *req,
                                    const uint32_t *resp, uint64_t count, uint64_t source_lo)
{
    (void)stream;
    for (uint64_t i = 0; i < count; i++) k->pred[req[i]] = (int64_t)(source_lo + resp[i]);
    return BOXBFS_OK;
}

/* The least (level, lid) of the two candidates a and b (b may be unset). */
static int better(const bb_kstate_t *k, uint32_t a, uint32_t b)
{
    return b == BB_UNSET32 || k->level[a] < k->level[b] || (k->level[a] == k->level[b] && a < b);
}

boxbfs_status_t bb_cpu_gather_recompute(const bb_kstate_t *k, void *stream,
                                        const bb_level_set_t *sent, const uint32_t *bits,
                                        uint32_t *prefix, uint32_t *slots, uint64_t count)
{
    uint64_t nwords = (k->n + 31) / 32, nloc = k->hi - k->lo, marked = 0;
    (void)stream;
    for (uint64_t w = 0; w < nwords; w++) {
        prefix[w] = (uint32_t)marked;
        marked += (uint64_t)__builtin_popcount(bits[w]);
    }
    if (marked != count)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "parent recompute: %llu vertices marked for %llu "
                            "requests", (unsigned long long)marked, (unsigned long long)count);
    for (uint64_t i = 0; i < count; i++) slots[i] = BB_UNSET32;
    for (uint64_t u = 0; u < nloc; u++) {
        if (!bb_level_set_has(sent, k->level[u])) continue;   /* (unreached: -1) */
        for (int64_t e = k->offsets[u]; e < k->offsets[u + 1]; e++) {
            uint32_t v = k->columns[e], word = bits[v >> 5], below = (1u << (v & 31)) - 1u;
            if (!((word >> (v & 31)) & 1u)) continue;
            uint32_t *slot = slots + prefix[v >> 5] + (uint32_t)__builtin_popcount(word & below);
            if (better(k, (uint32_t)u, *slot)) *slot = (uint32_t)u;
        }
    }
    return BOXBFS_OK;
}
