/* Parent gather after the search on the host [DESIGN "Parents"]: owners ask
 * each discovering device for the parents of the vertices it found for them;
 * that device answers from remote_parent. */
#include "config.h"

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
