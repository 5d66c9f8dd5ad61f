/* Wire bitmaps on the GPU [004 §5]: a segment of owner-local ids becomes a
 * bitmap of the owner's range when that is smaller than the list. The bitmap
 * is zeroed (memset) and each warp groups its lanes by target word
 * (__match_any_sync), ors their bits together with shuffles and lets one lane
 * per word do the atomicOr. Sorted lists (sort-unique, valid-flag) put
 * neighbouring ids in one word, so most warps issue a few atomics; unsorted
 * lists (atomic method) stay correct, just with more of them. */
#include "config.h"

#include <cub/block/block_scan.cuh>

#include "kernels/cuda/cuda_kernels.h"

namespace {

constexpr int kThreads = 256;

/* List entry i (all lanes of the warp call it; i < count or not). */
__device__ __forceinline__ void pack_one(const uint32_t *list, uint64_t count, uint32_t *bitmap,
                                         uint64_t i)
{
    bool valid = i < count;
    uint32_t id = valid ? list[i] : 0;
    /* no early return: the whole warp takes part in the grouping */
    uint32_t word = valid ? id >> 5 : UINT32_MAX;   /* ids < 2^32: never a real word */
    uint32_t bit = valid ? 1u << (id & 31) : 0u;
    unsigned peers = __match_any_sync(BB_FULL_MASK, word);
    uint32_t acc = 0;
    for (int l = 0; l < 32; l++) {
        uint32_t b = __shfl_sync(BB_FULL_MASK, bit, l);
        if ((peers >> l) & 1u) acc |= b;
    }
    if (valid && (int)bb_lane() == __ffs(peers) - 1) atomicOr(bitmap + word, acc);
}

__global__ void __launch_bounds__(kThreads)
    pack(const uint32_t *list, uint64_t count, uint32_t *bitmap)
{
    pack_one(list, count, bitmap, (uint64_t)blockIdx.x * blockDim.x + threadIdx.x);
}

/* A word per thread: a block scan of the words' bit counts places the
 * block's ids after one atomic on the cursor. */
__device__ __forceinline__ void unpack_body(const uint32_t *bitmap, uint64_t nbits, uint32_t *list,
                                            unsigned long long *cursor)
{
    using Scan = cub::BlockScan<unsigned, kThreads>;
    __shared__ typename Scan::TempStorage tmp;
    __shared__ unsigned long long base;
    const uint64_t w = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t bits = w < (nbits + 31) / 32 ? bitmap[w] : 0u;
    if (w * 32 + 32 > nbits && w * 32 < nbits) bits &= (1u << (nbits - w * 32)) - 1u;
    unsigned first, total;
    Scan(tmp).ExclusiveSum((unsigned)__popc(bits), first, total);
    if (threadIdx.x == 0) base = total ? atomicAdd(cursor, (unsigned long long)total) : 0;
    __syncthreads();
    for (unsigned long long at = base + first; bits; bits &= bits - 1)
        list[at++] = (uint32_t)(w * 32 + (uint64_t)(__ffs(bits) - 1));
}

__global__ void __launch_bounds__(kThreads)
    unpack(const uint32_t *bitmap, uint64_t nbits, uint32_t *list, unsigned long long *cursor)
{
    unpack_body(bitmap, nbits, list, cursor);
}

/* ---- the device search's (pointers and counts read from d when they run) --- */

__global__ void __launch_bounds__(kThreads) search_unpack(const bb_search_dev *d, uint64_t nbits)
{
    bb_let_next_start();   /* the loop kernel after it (search.cu UNPACK_LOOP) */
    if (d->a.skip) return;   /* a step its decide did not choose (search.cu) */
    unpack_body(d->a.k.own_bits, nbits, d->a.k.frontier,
                (unsigned long long *)d->a.k.counters + BB_CTR_EXPANDED);
}

__global__ void __launch_bounds__(kThreads)
    search_zero(const bb_search_dev *d, uint64_t nwords, int own, uint64_t at)
{
    if (d->a.skip) return;   /* a step its decide did not choose (search.cu) */
    uint32_t *bitmap = own ? d->a.k.own_bits : d->a.k.frontier_bits + at;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; w < nwords; w += stride)
        bitmap[w] = 0;
}

/* Grid-stride over the list in whole blocks, so every warp groups its lanes. */
__global__ void __launch_bounds__(kThreads) search_pack(const bb_search_dev *d, uint64_t at)
{
    if (d->a.skip) return;
    const uint64_t count = d->a.count, stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t base = (uint64_t)blockIdx.x * blockDim.x; base < count; base += stride)
        pack_one(d->a.k.frontier, count, d->a.k.frontier_bits + at, base + threadIdx.x);
}

}  // namespace

extern "C" boxbfs_status_t bb_cuda_unpack_bitmap(const bb_kstate_t *k, void *stream,
                                                 const uint32_t *bitmap, uint64_t nbits,
                                                 uint32_t *list)
{
    cudaStream_t s = (cudaStream_t)stream;
    /* the cursor: counters[EXPANDED], which no other kernel of this level uses */
    unsigned long long *cursor = (unsigned long long *)k->counters + BB_CTR_EXPANDED;
    uint64_t nwords = (nbits + 31) / 32;
    BB_CHECK(bb_cuda_bind(stream));
    if (nwords == 0) return BOXBFS_OK;
    BB_CUDA_CHECK(cudaMemsetAsync(cursor, 0, sizeof *cursor, s));
    unpack<<<bb_cuda_blocks(nwords, kThreads), kThreads, 0, s>>>(bitmap, nbits, list, cursor);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

extern "C" boxbfs_status_t bb_cuda_pack_bitmap(const bb_kstate_t *k, void *stream,
                                               const uint32_t *list, uint64_t count,
                                               uint32_t *bitmap, uint64_t nbits)
{
    cudaStream_t s = (cudaStream_t)stream;
    (void)k;
    BB_CHECK(bb_cuda_bind(stream));
    BB_CUDA_CHECK(cudaMemsetAsync(bitmap, 0, ((nbits + 31) / 32) * sizeof(uint32_t), s));
    if (count == 0) return BOXBFS_OK;
    pack<<<bb_cuda_blocks(count, kThreads), kThreads, 0, s>>>(list, count, bitmap);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t bb_cuda_search_unpack(const bb_search_dev *d, cudaStream_t s, uint64_t nloc)
{
    if (nloc == 0) return BOXBFS_OK;
    search_unpack<<<bb_cuda_blocks((nloc + 31) / 32, kThreads), kThreads, 0, s>>>(d, nloc);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t bb_cuda_search_zero(const bb_search_dev *d, cudaStream_t s, uint64_t nloc, int own,
                                    uint64_t at)
{
    uint64_t nwords = (nloc + 31) / 32;
    if (nwords == 0) return BOXBFS_OK;
    search_zero<<<bb_cuda_grid_for<search_zero>(bb_cuda_blocks(nwords, kThreads), kThreads),
                  kThreads, 0, s>>>(d, nwords, own, at);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t bb_cuda_search_pack(const bb_search_dev *d, cudaStream_t s, uint64_t nloc,
                                    uint64_t at)
{
    if (nloc == 0) return BOXBFS_OK;
    BB_CHECK(bb_cuda_search_zero(d, s, nloc, 0, at));
    search_pack<<<bb_cuda_grid_for<search_pack>(bb_cuda_blocks(nloc, kThreads), kThreads),
                  kThreads, 0, s>>>(d, at);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}
