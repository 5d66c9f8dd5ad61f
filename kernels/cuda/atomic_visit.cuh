/* The atomic method's consumer of frontier arcs [004 §3.4] (expand_lb.cuh's
 * consumer interface), shared by the 1D expand (expand.cu) and the binned
 * top-down level (binned.cu). */
#ifndef BB_ATOMIC_VISIT_CUH
#define BB_ATOMIC_VISIT_CUH

#include "kernels/cuda/expand_lb.cuh"

namespace {

/* Atomic method [004 §3.4]: the thread that sets v's visited bit updates v
 * at once when this device owns it (level, parent, next frontier: the
 * update's work, without the round trip through the outbox), else counts it
 * in send_count[owner] and appends the owner-local id at range_lo[owner] +
 * its slot, or with outbox_bits sets v's bit there (its parent lid in
 * remote_parent where there is one: else recomputed after the search). */
struct AtomicVisit {
    void *visited;
    int bits, ndev, self;
    const uint64_t *range_lo;
    uint32_t *outbox, *outbox_parent, *remote_parent, *outbox_bits;
    unsigned long long *send_count;
    int32_t *level;
    int64_t *pred;
    uint32_t *next_frontier, *next_bits;
    unsigned long long *next, *arcs_counter;
    const int64_t *offsets;
    uint64_t lo, hi;
    int32_t next_level;
    __device__ unsigned long long *next_arcs() const { return arcs_counter; }
    __device__ void start(uint64_t) const {}
    /* The warp's staged ids to the next frontier (all lanes call it). */
    template <class Stage>
    __device__ void flush(Stage *stage) const { stage->flush(next, next_frontier); }
    template <int K>
    __device__ void operator()(const bool (&valid)[K], const uint64_t (&e)[K],
                               const uint32_t (&v)[K], const uint32_t (&u)[K],
                               bb_block_sum &arcs_acc, WarpStage *stage) const
    {
        bool win[K];
        (void)e;
#pragma unroll
        for (int j = 0; j < K; j++)   /* cheap read first: most edges hit visited */
            win[j] = valid[j] && !bb_is_visited(visited, bits, v[j]);
#pragma unroll
        for (int j = 0; j < K; j++)
            if (win[j]) win[j] = bb_visit(visited, bits, v[j]);
        settle(win, v, u, arcs_acc, stage);
    }
    /* The winners' work: win[j] says this lane's arc j marked v[j] first
     * (stage: a WarpStageOf the block's warps, or NULL). */
    template <int K, class Stage>
    __device__ void settle(const bool (&win)[K], const uint32_t (&v)[K], const uint32_t (&u)[K],
                           bb_block_sum &arcs_acc, Stage *stage) const
    {
        bool own[K];
        unsigned n = 0;
#pragma unroll
        for (int j = 0; j < K; j++) {
            own[j] = win[j] && v[j] >= lo && v[j] < hi;
            n += own[j];
        }
        /* own vertices: staged per warp (binsearch), else one aggregated
         * atomic per warp for the next frontier */
        uint32_t *to;
        unsigned long long arcs = 0, slot = list_slot(stage, n, next, next_frontier, &to);
#pragma unroll
        for (int j = 0; j < K; j++)
            if (own[j]) {
                uint32_t lid = (uint32_t)(v[j] - lo);
                level[lid] = next_level;
                pred[lid] = (int64_t)(lo + u[j]);
                to[slot++] = lid;
                if (next_bits) atomicOr(next_bits + (lid >> 5), 1u << (lid & 31));
                arcs += bb_degree(offsets, lid);
            }
        if (stage) __syncwarp();   /* the ids are staged before the next flush reads them */
        bb_warp_add(&arcs_acc.value, arcs);   /* shared: one global atomic per block */
        if (ndev == 1) return;
#pragma unroll
        for (int j = 0; j < K; j++)
            if (win[j] && !own[j]) {
                int o = bb_owner(range_lo, ndev, v[j]);
                uint64_t lo = __ldg(range_lo + o);
                unsigned long long slot = lo + bb_keyed_append(send_count, (unsigned)o);
                if (outbox_bits) atomicOr(outbox_bits + (v[j] >> 5), 1u << (v[j] & 31));
                else outbox[slot] = (uint32_t)(v[j] - lo);
                if (remote_parent)   /* not outbox_parent */
                    remote_parent[bb_remote_slot(v[j], this->lo, hi)] = u[j];
            }
    }
};

/* The atomic method's consumer for kstate k, discoveries at next_level. */
__host__ __device__ inline AtomicVisit atomic_visit(const bb_kstate_t &k, int32_t next_level)
{
    unsigned long long *ctr = (unsigned long long *)k.counters;
    return AtomicVisit{k.visited, k.visited_bits, k.ndev, k.self, k.range_lo, k.outbox,
                       k.outbox_parent, k.remote_parent, k.outbox_bits, ctr + BB_CTR_SEND,
                       k.level, k.pred, k.next_frontier, k.next_bits, ctr + BB_CTR_NEXT,
                       ctr + BB_CTR_NEXT_ARCS, k.offsets, k.lo, k.hi, next_level};
}

}  // namespace

#endif /* BB_ATOMIC_VISIT_CUH */
