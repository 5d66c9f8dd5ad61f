/* Binned top-down levels on the GPU (kernels.h bb_search_binned; README
 * "Binned top-down levels"). A top-down level tests one Visited bit per
 * frontier arc, at a random place: at kron:24's hub level that is ~400 M
 * requests to L2, one sector each, and the level runs at the L2's request
 * rate (tools/results/h200/PERF-NOTES.md, session 4). Here the level moves
 * its arcs instead, in two streams:
 *   scatter: the binsearch producer hands each block 2048 arcs at a time;
 *     the block sorts them by bin in shared memory (a counting sort: one
 *     shared atomic per arc, one global atomic per bin and tile) and writes
 *     each bin's run whole, so the writes are coalesced.
 *   process: one block per bin loads the bin's Visited words into shared
 *     memory and tests every arc's head there; the first arc to each head
 *     wins (the atomic method's work: level, parent, next frontier), and
 *     the words go back to Visited.
 * 8 bytes written and read per arc instead of a random L2 request. The bins'
 * room is each range's in-arcs (a level expands every arc at most once), so
 * no run overflows. */
#include "config.h"

#include <cub/block/block_scan.cuh>

#include "kernels/cuda/atomic_visit.cuh"

namespace {

static_assert(BB_BIN_MAX <= kThreads, "one bin per thread of a block");

constexpr int kScatterK = 8;                       /* arcs per lane: 2048 per tile */
constexpr int kProcThreads = 512;                  /* a process block */
constexpr int kProcessK = 8;                       /* arcs per lane and step of process */

using BinScan = cub::BlockScan<uint32_t, kThreads>;

/* The step's arguments (cuda_kernels.h bb_search_args), copied per step. */
__constant__ bb_search_args c_bin;

/* One scatter block's tile: its arcs sorted by bin, and per bin the offset
 * of its run in the tile and where the run goes. */
struct BinTile {
    uint64_t pairs[kThreads * kScatterK];
    uint32_t offset[BB_BIN_MAX];   /* counts, then exclusive offsets; zero between tiles */
    uint64_t dest[BB_BIN_MAX];     /* global slot of the tile's pair 0, were it in the bin */
    typename BinScan::TempStorage scan;
};

/* The scatter's consumer: binsearch calls it with every warp of the block
 * (expand_lb.cuh), so it syncs the block around its counting sort. */
struct BinScatter {
    BinTile *t;
    uint64_t *pairs;
    const uint64_t *base;
    unsigned long long *count;
    uint32_t nbins, shift;
    __device__ unsigned long long *next_arcs() const { return nullptr; }
    __device__ void flush(WarpStage *) const {}
    __device__ void start(uint64_t) const {}
    template <int K>
    __device__ void operator()(const bool (&valid)[K], const uint64_t (&e)[K],
                               const uint32_t (&v)[K], const uint32_t (&u)[K],
                               bb_block_sum &arcs_acc, WarpStage *stage) const
    {
        uint32_t rank[K], c, off, total;
        const unsigned b = threadIdx.x;
        (void)e, (void)arcs_acc, (void)stage;
#pragma unroll
        for (int j = 0; j < K; j++) rank[j] = valid[j] ? atomicAdd(&t->offset[v[j] >> shift], 1u) : 0;
        __syncthreads();
        c = b < nbins ? t->offset[b] : 0;
        BinScan(t->scan).ExclusiveSum(c, off, total);
        if (c) t->dest[b] = __ldg(base + b) + atomicAdd(count + b, (unsigned long long)c) - off;
        if (b < nbins) t->offset[b] = off;
        __syncthreads();
#pragma unroll
        for (int j = 0; j < K; j++)
            if (valid[j]) t->pairs[t->offset[v[j] >> shift] + rank[j]] = (uint64_t)v[j] << 32 | u[j];
        __syncthreads();
        for (uint32_t i = threadIdx.x; i < total; i += kThreads) {
            const uint64_t p = t->pairs[i];
            const uint32_t bin = (uint32_t)(p >> 32) >> shift;
            const uint64_t slot = t->dest[bin] + i;
            if (slot < __ldg(base + bin + 1)) pairs[slot] = p;   /* always: the bins' room */
        }
        if (b < nbins) t->offset[b] = 0;
        __syncthreads();
    }
};

__global__ void __launch_bounds__(kThreads) bins_scatter()
{
    __shared__ BinTile tile;
    const bb_kstate_t &k = c_bin.k;
    if (threadIdx.x < BB_BIN_MAX) tile.offset[threadIdx.x] = 0;   /* (binsearch syncs first) */
    binsearch_body<kScatterK>(search_frontier(c_bin),
                              BinScatter{&tile, k.bin_pairs, k.bin_base,
                                         (unsigned long long *)k.bin_count, k.nbins, k.bin_shift});
}

/* The Visited word of the 32 vertices from v0 (a multiple of 32), and its
 * write-back: plain stores, the block owns the bin's vertices. */
__device__ __forceinline__ uint32_t visited_word(const bb_kstate_t &k, uint64_t v0)
{
    uint32_t w = 0;
    if (k.visited_bits) return v0 < k.n ? __ldg((const uint32_t *)k.visited + (v0 >> 5)) : 0;
    for (uint32_t i = 0; i < 32 && v0 + i < k.n; i++)
        w |= (uint32_t)(__ldg((const uint8_t *)k.visited + v0 + i) != 0) << i;
    return w;
}

__device__ __forceinline__ void store_visited_word(const bb_kstate_t &k, uint64_t v0, uint32_t w)
{
    if (v0 >= k.n) return;
    if (k.visited_bits) {
        ((uint32_t *)k.visited)[v0 >> 5] = w;
        return;
    }
    for (uint32_t i = 0; i < 32 && v0 + i < k.n; i++)
        if ((w >> i) & 1u) ((uint8_t *)k.visited)[v0 + i] = 1;
}

/* One block per bin: no other block tests its vertices, so the first arc
 * to each head in shared memory is the winner, with no global atomic, and
 * the bin's words go back to Visited at the end. 512 threads, and the next
 * step's arcs loaded before this step's winners are settled: at most 256
 * blocks, so each must keep many loads in flight. */
__device__ __forceinline__ void load_pairs(const uint64_t *pairs, uint64_t i0, uint64_t end,
                                           uint64_t (&p)[kProcessK])
{
#pragma unroll
    for (int j = 0; j < kProcessK; j++) {
        const uint64_t e = i0 + (uint64_t)j * kProcThreads + threadIdx.x;
        p[j] = e < end ? __ldcs(pairs + e) : 0;
    }
}

__global__ void __launch_bounds__(kProcThreads) bins_process()
{
    extern __shared__ uint32_t s_bits[];   /* the bin's Visited words */
    __shared__ WarpStageOf<kProcThreads / 32> stage;
    __shared__ bb_block_sum arcs_acc;
    const bb_kstate_t &k = c_bin.k;
    const AtomicVisit consume = atomic_visit(k, c_bin.next_level);
    const unsigned words = 1u << (k.bin_shift - 5);
    if (bb_lane() == 0) stage.count[threadIdx.x >> 5] = 0;
    arcs_acc.begin();
    for (uint32_t bin = blockIdx.x; bin < k.nbins; bin += gridDim.x) {
        const uint64_t v0 = (uint64_t)bin << k.bin_shift;
        const uint64_t begin = k.bin_base[bin], end = begin + k.bin_count[bin];
        uint64_t next[kProcessK];
        for (unsigned w = threadIdx.x; w < words; w += kProcThreads)
            s_bits[w] = visited_word(k, v0 + 32 * w);
        load_pairs(k.bin_pairs, begin, end, next);
        __syncthreads();
        for (uint64_t i0 = begin; i0 < end; i0 += kProcThreads * kProcessK) {
            bool win[kProcessK];
            uint32_t v[kProcessK], u[kProcessK];
#pragma unroll
            for (int j = 0; j < kProcessK; j++) {
                v[j] = (uint32_t)(next[j] >> 32);
                u[j] = (uint32_t)next[j];
                win[j] = i0 + (uint64_t)j * kProcThreads + threadIdx.x < end;
            }
            load_pairs(k.bin_pairs, i0 + kProcThreads * kProcessK, end, next);
#pragma unroll
            for (int j = 0; j < kProcessK; j++) {
                const uint32_t off = (uint32_t)(v[j] - v0), m = 1u << (off & 31);
                win[j] = win[j] && !(s_bits[off >> 5] & m) && !(atomicOr(&s_bits[off >> 5], m) & m);
            }
            consume.settle(win, v, u, arcs_acc, &stage);
        }
        __syncthreads();   /* every test is in */
        for (unsigned w = threadIdx.x; w < words; w += kProcThreads)
            store_visited_word(k, v0 + 32 * w, s_bits[w]);
        __syncthreads();   /* s_bits is the next bin's */
    }
    consume.flush(&stage);
    arcs_acc.end(consume.next_arcs());
}

/* Room for the bin's words in shared memory beyond the default 48 KiB. */
boxbfs_status_t process_smem(size_t smem)
{
    if (smem > 48 * 1024)
        BB_CUDA_CHECK(cudaFuncSetAttribute(bins_process, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           (int)smem));
    return BOXBFS_OK;
}

}  // namespace

boxbfs_status_t bb_cuda_search_binned(const bb_search_dev *d, cudaStream_t s, const bb_kstate_t *k)
{
    const size_t smem = (size_t)4 << (k->bin_shift - 5);
    if (k->bin_pairs == NULL || k->nbins == 0 || k->nbins > BB_BIN_MAX || k->bin_shift < 5 ||
        k->bin_shift > BB_BIN_SHIFT_MAX)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "binned top-down: no bins (%u of 2^%u vertices)",
                            k->nbins, k->bin_shift);
    BB_CHECK(process_smem(smem));
    BB_CUDA_CHECK(cudaMemsetAsync(k->bin_count, 0, (size_t)k->nbins * 8, s));
    BB_CUDA_CHECK(cudaMemcpyToSymbolAsync(c_bin, &d->a, sizeof d->a, 0, cudaMemcpyDeviceToDevice, s));
    BB_CHECK(bb_cuda_search_scan(d, s, k->hi - k->lo));
    bins_scatter<<<bb_cuda_persistent_grid<bins_scatter>(kThreads), kThreads, 0, s>>>();
    BB_CUDA_LAUNCH_CHECK();
    bins_process<<<k->nbins, kProcThreads, smem, s>>>();
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}
