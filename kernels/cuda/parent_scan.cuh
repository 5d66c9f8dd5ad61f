/* The bottom-up parent search every bottom-up kernel shares (1D
 * bottom_up.cu, 2D grid2d.cu) [Beamer et al., direction-optimizing BFS]:
 * a lane whose vertex is still open checks its first 2, then kChunk in-arcs
 * (loads in flight together) against a frontier bitmap (mostly in L2); the
 * lists of the lanes still searching are then scanned by the whole warp, 32
 * arcs at a time, up to the first hit. The parent is the first in-arc from
 * the frontier in list order, as a lane's own scan would find it. */
#ifndef BB_PARENT_SCAN_CUH
#define BB_PARENT_SCAN_CUH

#include "kernels/cuda/cuda_kernels.h"

namespace bb_parent_scan {

constexpr int kChunk = 4;   /* in-arcs loaded together before the bitmap probes */

__device__ __forceinline__ bool in_bits(const uint32_t *bits, uint32_t v)
{
    return (__ldg(bits + (v >> 5)) >> (v & 31)) & 1u;
}

/* The first member of the frontier among cols[e, min(e + C, end)), its C
 * loads in flight together; *e_p moves past them. */
template <int C>
__device__ __forceinline__ bool lane_chunk(const uint32_t *cols, const uint32_t *bits,
                                           int64_t *e_p, int64_t end, uint32_t *parent)
{
    const int64_t e = *e_p;
    uint32_t c[C];
    bool hit[C];
    *e_p = e + C < end ? e + C : end;
#pragma unroll
    for (int j = 0; j < C; j++) c[j] = e + j < end ? __ldg(cols + e + j) : 0;
#pragma unroll
    for (int j = 0; j < C; j++) hit[j] = e + j < end && in_bits(bits, c[j]);
#pragma unroll
    for (int j = 0; j < C; j++)
        if (hit[j]) {
            *parent = c[j];
            return true;
        }
    return false;
}

/* The rest of one lane's in-arcs [e, end), scanned by the whole warp 32 at a
 * time (a long list would keep one lane, and its warp, busy for its whole
 * length). Every lane calls it with the same e and end. */
__device__ __forceinline__ bool warp_scan(const uint32_t *cols, const uint32_t *bits, int64_t e,
                                          int64_t end, uint32_t *parent)
{
    for (int64_t base = e; base < end; base += 32) {   /* warp-uniform */
        const int64_t i = base + bb_lane();
        const uint32_t c = i < end ? __ldg(cols + i) : 0;
        const unsigned hits = __ballot_sync(BB_FULL_MASK, i < end && in_bits(bits, c));
        if (hits) {
            *parent = __shfl_sync(BB_FULL_MASK, c, __ffs(hits) - 1);
            return true;
        }
    }
    return false;
}

}  // namespace bb_parent_scan

/* Whether row v (an open lane's vertex: a row of the CSR offs/cols of
 * in-arcs) has an in-arc from the frontier bitmap bits, and the first such
 * arc's source in *parent. Every lane of the warp calls it (open or not). */
__device__ __forceinline__ bool bb_find_parent(const int64_t *offs, const uint32_t *cols,
                                               const uint32_t *bits, uint64_t v, bool open,
                                               uint32_t *parent)
{
    using namespace bb_parent_scan;
    int64_t next = 0, end = 0;
    bool found = false;
    if (open) {   /* two arcs, then four: where the frontier holds most arcs (the middle
                   * levels) the first one or two hit, and the bitmap probes are what the
                   * L2 is busy with */
        next = __ldg(offs + v);
        end = __ldg(offs + v + 1);
        found = lane_chunk<2>(cols, bits, &next, end, parent) ||
                (next < end && lane_chunk<kChunk>(cols, bits, &next, end, parent));
    }
    /* lanes with arcs left: the warp scans each of their lists together */
    for (unsigned more = __ballot_sync(BB_FULL_MASK, open && !found && next < end); more;
         more &= more - 1) {
        const int src = __ffs(more) - 1;
        uint32_t p = 0;
        const bool hit = warp_scan(cols, bits, __shfl_sync(BB_FULL_MASK, next, src),
                                   __shfl_sync(BB_FULL_MASK, end, src), &p);
        if ((int)bb_lane() == src) {
            found = hit;
            *parent = p;
        }
    }
    return found;
}

#endif /* BB_PARENT_SCAN_CUH */
