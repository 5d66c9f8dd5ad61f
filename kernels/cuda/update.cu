/* Frontier update on the GPU [003 step 4, 004 §3.5]: the owner keeps the
 * received (or own) vertices whose level is still -1, sets level, parent (a
 * gid for its own discoveries, -(src+2) "from device src" otherwise) and
 * visited, and appends them to next_frontier with one atomic per warp. The
 * list form runs a thread per vertex; the bitmap form a thread per word,
 * walking its set bits only, so that its work is the words plus the
 * vertices, not a step per bit of the range. Also the reset before a
 * search. */
#include "config.h"

#include "kernels/cuda/cuda_kernels.h"

namespace {

constexpr int kThreads = 256;

struct UpdateArgs {
    const int64_t *offsets;   /* owned rows: out-degrees for NEXT_ARCS */
    unsigned long long *next_arcs;
    int32_t *level;
    int64_t *pred;
    void *visited;
    int bits;
    uint64_t lo;
    uint32_t *next_frontier;
    unsigned long long *next;
    int32_t next_level;
    int64_t from_src;   /* -(src + 2) */
};

__global__ void reset_root(bb_kstate_t k, uint64_t root, int owned)
{
    unsigned long long *ctr = (unsigned long long *)k.counters;
    ctr[BB_CTR_NEXT] = owned ? 1 : 0;
    ctr[BB_CTR_NEXT_ARCS] = 0;
    if (!owned) return;
    uint32_t lid = (uint32_t)(root - k.lo);
    ctr[BB_CTR_NEXT_ARCS] = (unsigned long long)(k.offsets[lid + 1] - k.offsets[lid]);
    k.level[lid] = 0;
    k.pred[lid] = (int64_t)root;
    if (k.visited) bb_mark(k.visited, k.visited_bits, (uint32_t)root);
    k.frontier[0] = lid;
}

/* All lanes of the warp call this; lanes with fresh append lid and count
 * its out-arcs into the block's sum (one global atomic per block). */
__device__ __forceinline__ void append_fresh(const UpdateArgs &a, bool fresh, uint32_t lid,
                                             bb_block_sum &arcs)
{
    unsigned ballot = __ballot_sync(BB_FULL_MASK, fresh);
    if (ballot == 0) return;
    bb_warp_add(&arcs.value, fresh ? bb_degree(a.offsets, lid) : 0);
    unsigned long long base = 0;
    int leader = __ffs(ballot) - 1;
    if ((int)bb_lane() == leader) base = atomicAdd(a.next, (unsigned long long)__popc(ballot));
    base = __shfl_sync(BB_FULL_MASK, base, leader);
    if (fresh) a.next_frontier[base + __popc(ballot & ((1u << bb_lane()) - 1u))] = lid;
}

/* The list holds no vertex twice, so level is tested and set without races. */
__global__ void __launch_bounds__(kThreads)
    update_list(const uint32_t *list, const uint32_t *parents, uint64_t count, UpdateArgs a)
{
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    bool fresh = false;
    uint32_t lid = 0;
    __shared__ bb_block_sum arcs;
    arcs.begin();
    if (i < count) {
        lid = list[i];
        if (a.level[lid] == -1) {
            fresh = true;
            a.level[lid] = a.next_level;
            a.pred[lid] = parents ? (int64_t)(a.lo + parents[i]) : a.from_src;
            if (a.visited) bb_mark(a.visited, a.bits, (uint32_t)(a.lo + lid));
        }
    }
    append_fresh(a, fresh, lid, arcs);   /* no early return above: whole warps arrive */
    arcs.end(a.next_arcs);
}

/* Thread per bitmap word (vertices w * 32 + b for its set bits b): the
 * fresh ones are taken, then appended at the warp's slots (one atomic per
 * warp): a step per set bit, not per bit of the range (a level's bitmap
 * may hold a few percent of its range). */
__global__ void __launch_bounds__(kThreads)
    update_bitmap(const uint32_t *bitmap, uint64_t nbits, UpdateArgs a)
{
    const uint64_t nwords = (nbits + 31) / 32;
    const uint64_t w = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    __shared__ bb_block_sum arcs;
    uint32_t word = w < nwords ? bitmap[w] : 0, fresh = 0;
    unsigned long long degrees = 0;
    arcs.begin();
    if (w * 32 + 32 > nbits && w * 32 < nbits) word &= (1u << (nbits - w * 32)) - 1u;
    for (uint32_t b = word; b; b &= b - 1) {
        const int bit = __ffs(b) - 1;
        const uint64_t lid = w * 32 + (uint64_t)bit;
        if (a.level[lid] != -1) continue;
        fresh |= 1u << bit;
        a.level[lid] = a.next_level;
        a.pred[lid] = a.from_src;
        if (a.visited) bb_mark(a.visited, a.bits, (uint32_t)(a.lo + lid));
        degrees += bb_degree(a.offsets, (uint32_t)lid);
    }
    /* every lane of every warp gets here (no return above) */
    unsigned long long at = bb_warp_append(a.next, (unsigned)__popc(fresh));
    for (uint32_t b = fresh; b; b &= b - 1)
        a.next_frontier[at++] = (uint32_t)(w * 32 + (uint64_t)(__ffs(b) - 1));
    bb_warp_add(&arcs.value, degrees);
    arcs.end(a.next_arcs);
}

UpdateArgs make_args(const bb_kstate_t *k, int src, int32_t next_level)
{
    UpdateArgs a;
    a.offsets = k->offsets;
    a.next_arcs = (unsigned long long *)k->counters + BB_CTR_NEXT_ARCS;
    a.level = k->level;
    a.pred = k->pred;
    a.visited = k->visited;
    a.bits = k->visited_bits;
    a.lo = k->lo;
    a.next_frontier = k->next_frontier;
    a.next = (unsigned long long *)k->counters + BB_CTR_NEXT;
    a.next_level = next_level;
    a.from_src = -(int64_t)src - 2;
    return a;
}

}  // namespace

extern "C" boxbfs_status_t bb_cuda_reset(const bb_kstate_t *k, void *stream, uint64_t root)
{
    cudaStream_t s = (cudaStream_t)stream;
    uint64_t nloc = k->hi - k->lo;
    int owned = root >= k->lo && root < k->hi;
    BB_CHECK(bb_cuda_bind(stream));
    /* 0xff bytes: level -1 (int32), pred -1 (int64), remote_parent BB_UNSET32, hub_level -1 */
    if (nloc) {
        BB_CUDA_CHECK(cudaMemsetAsync(k->level, 0xff, nloc * sizeof *k->level, s));
        BB_CUDA_CHECK(cudaMemsetAsync(k->pred, 0xff, nloc * sizeof *k->pred, s));
    }
    if (k->visited && k->visited_init)
        BB_CUDA_CHECK(cudaMemcpyAsync(k->visited, k->visited_init, ((k->n + 31) / 32) * 4,
                                      cudaMemcpyDeviceToDevice, s));
    else if (k->visited)
        BB_CUDA_CHECK(cudaMemsetAsync(k->visited, 0,
                                      k->visited_bits ? ((k->n + 31) / 32) * 4 : k->n, s));
    if (k->remote_parent)
        BB_CUDA_CHECK(cudaMemsetAsync(k->remote_parent, 0xff,
                                      (k->n - (k->hi - k->lo)) * sizeof(uint32_t), s));
    if (k->rank_prefix) BB_CUDA_CHECK(cudaMemsetAsync(k->rank_prefix, 0, 2 * sizeof(uint32_t), s));
    if (k->hubs) BB_CUDA_CHECK(cudaMemsetAsync(k->hub_level, 0xff, k->hubs * sizeof(int32_t), s));
    BB_CUDA_CHECK(cudaMemsetAsync(k->counters, 0, BB_CTR_COUNT(k->ndev) * sizeof(uint64_t), s));
    reset_root<<<1, 1, 0, s>>>(*k, root, owned);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

extern "C" boxbfs_status_t bb_cuda_update_list(const bb_kstate_t *k, void *stream,
                                               const uint32_t *list, const uint32_t *parents,
                                               uint64_t count, int src, int32_t next_level)
{
    cudaStream_t s = (cudaStream_t)stream;
    BB_CHECK(bb_cuda_bind(stream));
    if (count == 0) return BOXBFS_OK;
    update_list<<<bb_cuda_blocks(count, kThreads), kThreads, 0, s>>>(
        list, parents, count, make_args(k, src, next_level));
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

extern "C" boxbfs_status_t bb_cuda_update_bitmap(const bb_kstate_t *k, void *stream,
                                                 const uint32_t *bitmap, uint64_t nbits, int src,
                                                 int32_t next_level)
{
    cudaStream_t s = (cudaStream_t)stream;
    uint64_t nwords = (nbits + 31) / 32;
    BB_CHECK(bb_cuda_bind(stream));
    if (nwords == 0) return BOXBFS_OK;
    update_bitmap<<<bb_cuda_blocks(nwords, kThreads), kThreads, 0, s>>>(
        bitmap, nbits, make_args(k, src, next_level));
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}
