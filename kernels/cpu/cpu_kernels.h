/* Host twins of the CUDA kernels (kernels/cuda/), one emulated device per
 * host thread: the same entry points, the same results and byte counts. */
#ifndef BB_CPU_KERNELS_H
#define BB_CPU_KERNELS_H

#include "kernels/kernels.h"

boxbfs_status_t bb_cpu_reset(const bb_kstate_t *k, void *stream, uint64_t root);
boxbfs_status_t bb_cpu_expand(const bb_kstate_t *k, void *stream, uint64_t frontier_count,
                              int filter_visited, int expand);
boxbfs_status_t bb_cpu_contract(const bb_kstate_t *k, void *stream, uint64_t count);
boxbfs_status_t bb_cpu_expand_atomic(const bb_kstate_t *k, void *stream, uint64_t frontier_count,
                                     int expand, int32_t next_level);
boxbfs_status_t bb_cpu_pack_bitmap(const bb_kstate_t *k, void *stream, const uint32_t *list,
                                   uint64_t count, uint32_t *bitmap, uint64_t nbits);
boxbfs_status_t bb_cpu_update_list(const bb_kstate_t *k, void *stream, const uint32_t *list,
                                   const uint32_t *parents, uint64_t count, int src,
                                   int32_t next_level);
boxbfs_status_t bb_cpu_update_bitmap(const bb_kstate_t *k, void *stream, const uint32_t *bitmap,
                                     uint64_t nbits, int src, int32_t next_level);
boxbfs_status_t bb_cpu_gather_requests(const bb_kstate_t *k, void *stream);
boxbfs_status_t bb_cpu_gather_answer(const bb_kstate_t *k, void *stream, uint32_t *req,
                                     uint64_t count, uint64_t requester_lo);
boxbfs_status_t bb_cpu_gather_apply(const bb_kstate_t *k, void *stream, const uint32_t *req,
                                    const uint32_t *resp, uint64_t count, uint64_t source_lo);

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

static inline int bb_cpu_is_visited(const bb_kstate_t *k, uint64_t v)
{
    if (k->visited_bits) return (((const uint32_t *)k->visited)[v >> 5] >> (v & 31)) & 1u;
    return ((const uint8_t *)k->visited)[v] != 0;
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

#endif /* BB_CPU_KERNELS_H */
