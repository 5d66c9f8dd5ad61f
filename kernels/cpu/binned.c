/* A binned top-down level on the host (kernels.h bb_search_binned): the
 * steps of kernels/cuda/binned.cu in order, so that the cpu backend runs the
 * bins' bookkeeping the GPU relies on (the bases the engine computed, the
 * counts, the room of each bin, checked here): the frontier's arcs go to
 * their head's bin in frontier order, then the bins are taken in order,
 * each arc through the atomic method's test. Within a bin the arcs keep
 * their frontier order, so each vertex gets the parent of the plain step. */
#include "config.h"

#include <string.h>

#include "common/error.h"
#include "kernels/cpu/cpu_kernels.h"

boxbfs_status_t bb_cpu_expand_binned(const bb_kstate_t *k, uint64_t frontier_count,
                                     int32_t next_level)
{
    uint64_t next = k->counters[BB_CTR_NEXT], arcs = k->counters[BB_CTR_NEXT_ARCS];
    memset(k->bin_count, 0, (size_t)k->nbins * 8);
    for (uint64_t i = 0; i < frontier_count; i++) {
        uint32_t u = k->frontier[i];
        for (int64_t e = k->offsets[u]; e < k->offsets[u + 1]; e++) {
            uint32_t v = k->columns[e], b = v >> k->bin_shift;
            uint64_t slot = k->bin_base[b] + k->bin_count[b]++;
            if (slot >= k->bin_base[b + 1])
                return bb_error_set(BOXBFS_ERR_INTERNAL,
                                    "binned top-down: bin %u holds more than its room of %llu "
                                    "arcs", b,
                                    (unsigned long long)(k->bin_base[b + 1] - k->bin_base[b]));
            k->bin_pairs[slot] = (uint64_t)v << 32 | u;
        }
    }
    for (uint32_t b = 0; b < k->nbins; b++)
        for (uint64_t i = k->bin_base[b]; i < k->bin_base[b] + k->bin_count[b]; i++)
            bb_cpu_atomic_arc(k, (uint32_t)k->bin_pairs[i], (uint32_t)(k->bin_pairs[i] >> 32),
                              next_level, &next, &arcs);
    k->counters[BB_CTR_EXPANDED] = 0;
    k->counters[BB_CTR_NEXT] = next;
    k->counters[BB_CTR_NEXT_ARCS] = arcs;
    return BOXBFS_OK;
}
