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

/* One device's device loop (small_levels.c), for the device search too. */
bb_loop_walk_t bb_cpu_one_device_levels(const bb_kstate_t *k, const bb_loop_params_t *p,
                                        uint64_t count, uint64_t arcs);

#endif /* BB_CPU_KERNELS_H */
