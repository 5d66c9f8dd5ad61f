/* Parent gather after the search on the GPU [DESIGN "Parents"]: the owner
 * lists the vertices other devices delivered, by source and in increasing
 * lid order (a stable CUB select per source, placed after the sources
 * before it); the discovering device answers from remote_parent, or
 * recomputes the parents with one pass over its arcs (README "Memory plan":
 * each requested vertex keeps the reached own vertex of least level, then
 * least lid, with an arc to it: a compare-and-swap loop on its slot, found
 * through the requested vertices' bitmap and a CUB scan of its words' bit
 * counts); the owner applies the answers. */
#include "config.h"

#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "kernels/cuda/cuda_kernels.h"

namespace {

constexpr int kThreads = 256;
constexpr int kPassArcs = 8;   /* consecutive arcs per thread of the recompute pass */

/* Owned lid i was delivered by the source whose code -(s + 2) is in pred. */
struct FromSource {
    const int64_t *pred;
    int64_t code;
    __host__ __device__ bool operator()(uint32_t i) const { return pred[i] == code; }
};

/* Size query and run share it, so both instantiate the same dispatch. */
cudaError_t select_source(void *tmp, size_t &bytes, const FromSource &op, uint32_t *out,
                          unsigned long long *selected, uint64_t nloc, cudaStream_t stream)
{
    return cub::DeviceSelect::If(tmp, bytes, thrust::counting_iterator<uint32_t>(0), out, selected,
                                 (int64_t)nloc, op, stream);
}

/* Bits set in word w of the requested vertices' bitmap. */
struct WordBits {
    const uint32_t *bits;
    __host__ __device__ uint32_t operator()(uint64_t w) const
    {
#ifdef __CUDA_ARCH__
        return (uint32_t)__popc(bits[w]);
#else
        (void)w;
        return 0;
#endif
    }
};
using WordBitsIt = thrust::transform_iterator<WordBits, thrust::counting_iterator<uint64_t>>;

cudaError_t word_prefix(void *tmp, size_t &bytes, const uint32_t *bits, uint32_t *prefix,
                        uint64_t words, cudaStream_t stream)
{
    WordBitsIt in(thrust::counting_iterator<uint64_t>(0), WordBits{bits});
    return cub::DeviceScan::ExclusiveSum(tmp, bytes, in, prefix, words, stream);
}

/* Source s's selected lids (count[s] of them, in tmp) go after the sources
 * before s in req. */
__global__ void __launch_bounds__(kThreads)
    place_requests(const uint32_t *tmp, const unsigned long long *count, int s, uint32_t *req)
{
    __shared__ unsigned long long base;
    if (threadIdx.x == 0) {
        unsigned long long b = 0;
        for (int q = 0; q < s; q++) b += count[q];
        base = b;
    }
    __syncthreads();
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count[s]) req[base + i] = tmp[i];
}

/* offset[s] = exclusive sum of count[s]. ndev is small. */
__global__ void request_offsets(const unsigned long long *count, unsigned long long *offset,
                                int ndev)
{
    unsigned long long sum = 0;
    for (int s = 0; s < ndev; s++) {
        offset[s] = sum;
        sum += count[s];
    }
}

__global__ void __launch_bounds__(kThreads)
    answer(uint32_t *req, uint64_t count, const uint32_t *remote_parent, uint64_t requester_lo,
           uint64_t lo, uint64_t hi)
{
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) req[i] = remote_parent[bb_remote_slot(requester_lo + req[i], lo, hi)];
}

__global__ void __launch_bounds__(kThreads)
    apply(int64_t *pred, const uint32_t *req, const uint32_t *resp, uint64_t count,
          uint64_t source_lo)
{
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) pred[req[i]] = (int64_t)(source_lo + resp[i]);
}

/* Own vertex u (level lu) into the slot while it is the least (level, lid)
 * seen: the slot's holder's level is read from level[], so 32 bits do. */
__device__ __forceinline__ void claim(uint32_t *slot, uint32_t u, int32_t lu, const int32_t *level)
{
    uint32_t cur = *(volatile uint32_t *)slot;
    while (cur == BB_UNSET32 || lu < level[cur] || (lu == level[cur] && u < cur)) {
        uint32_t seen = atomicCAS(slot, cur, u);
        if (seen == cur) return;
        cur = seen;
    }
}

/* The recompute pass over the device's arcs: each warp takes 32 x kPassArcs
 * consecutive arcs, finds the vertices they start from (a 32-way search for
 * the first and the last, then a binary search per lane between them), each
 * lane walks its kPassArcs arcs; an arc u -> v from a u of a sent level to a
 * marked v claims v's slot (rank of v among the marked: prefix of its word
 * plus the bits below it). The arcs of other vertices are walked, not read. */
__global__ void __launch_bounds__(kThreads)
    recompute_pass(const int64_t *offsets, const uint32_t *columns, const int32_t *level,
                   uint64_t nloc, bb_level_set_t sent, const uint32_t *bits,
                   const uint32_t *prefix, uint32_t *slots)
{
    const uint64_t total = (uint64_t)offsets[nloc];
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x * kPassArcs;
    uint64_t kw = 0;   /* greatest vertex whose first arc is <= the warp's first: only grows */
    for (uint64_t wbase = ((uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u)) * kPassArcs;
         wbase < total; wbase += stride) {   /* (wbase is warp-uniform) */
        const uint64_t wend = wbase + 32u * kPassArcs;
        kw = bb_warp_partition_point(
                 kw, nloc + 1, [=](uint64_t i) { return (uint64_t)offsets[i] <= wbase; }) - 1;
        const uint64_t kend = bb_warp_partition_point(
            kw, nloc + 1, [=](uint64_t i) { return (uint64_t)offsets[i] < wend; });
        const uint64_t e0 = wbase + (uint64_t)bb_lane() * kPassArcs;
        if (e0 >= total) continue;
        uint64_t u = kw, hi = kend - 1;   /* greatest u in [kw, kend) with offsets[u] <= e0 */
        while (u < hi) {
            uint64_t mid = u + (hi - u + 1) / 2;
            if ((uint64_t)offsets[mid] <= e0) u = mid; else hi = mid - 1;
        }
        uint64_t next = (uint64_t)offsets[u + 1];
        int32_t lu = level[u];
        bool take = bb_level_set_has(&sent, lu);
        for (int j = 0; j < kPassArcs; j++) {
            const uint64_t e = e0 + (uint64_t)j;
            if (e >= total) break;
            if (next <= e) {   /* the arcs of a later vertex */
                while (next <= e) next = (uint64_t)offsets[++u + 1];
                lu = level[u];
                take = bb_level_set_has(&sent, lu);
            }
            if (!take) continue;   /* unreached, or of a level this device sent nothing at */
            const uint32_t v = columns[e], word = bits[v >> 5];
            if (!((word >> (v & 31)) & 1u)) continue;
            claim(slots + prefix[v >> 5] + __popc(word & ((1u << (v & 31)) - 1u)), (uint32_t)u, lu,
                  level);
        }
    }
}

}  // namespace

extern "C" boxbfs_status_t bb_cuda_gather_scratch(uint64_t nloc, uint64_t words, size_t *bytes_p)
{
    size_t select_b = 0, scan_b = 0;
    BB_CUDA_CHECK(select_source(NULL, select_b, FromSource{NULL, 0}, NULL, NULL, nloc, 0));
    BB_CUDA_CHECK(word_prefix(NULL, scan_b, NULL, NULL, words, 0));
    *bytes_p = select_b > scan_b ? select_b : scan_b;
    return BOXBFS_OK;
}

/* Each source's requests, stable-selected into gather_resp (free until the
 * answers come) and placed in gather_req. */
extern "C" boxbfs_status_t bb_cuda_gather_requests(const bb_kstate_t *k, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    uint64_t nloc = k->hi - k->lo;
    unsigned long long *count = (unsigned long long *)k->counters + BB_CTR_SEND;
    unsigned long long *offset = count + k->ndev;
    BB_CHECK(bb_cuda_bind(stream));
    BB_CUDA_CHECK(cudaMemsetAsync(count, 0, (size_t)k->ndev * sizeof *count, s));
    for (int src = 0; nloc && src < k->ndev; src++) {
        size_t bytes = k->scratch_bytes;
        if (src == k->self) continue;
        if (k->scratch == NULL)
            return bb_error_set(BOXBFS_ERR_INTERNAL, "cuda gather: no scratch memory for CUB");
        BB_CUDA_CHECK(select_source(k->scratch, bytes, FromSource{k->pred, -(int64_t)src - 2},
                                    k->gather_resp, count + src, nloc, s));
        place_requests<<<bb_cuda_blocks(nloc, kThreads), kThreads, 0, s>>>(k->gather_resp, count,
                                                                           src, k->gather_req);
        BB_CUDA_LAUNCH_CHECK();
    }
    request_offsets<<<1, 1, 0, s>>>(count, offset, k->ndev);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}
extern "C" boxbfs_status_t bb_cuda_gather_answer(const bb_kstate_t *k, void *stream, uint32_t *req,
                                                 uint64_t count, uint64_t requester_lo)
{
    cudaStream_t s = (cudaStream_t)stream;
    BB_CHECK(bb_cuda_bind(stream));
    if (count == 0) return BOXBFS_OK;
    answer<<<bb_cuda_blocks(count, kThreads), kThreads, 0, s>>>(req, count, k->remote_parent,
                                                                requester_lo, k->lo, k->hi);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

extern "C" boxbfs_status_t bb_cuda_gather_apply(const bb_kstate_t *k, void *stream,
                                                const uint32_t *req, const uint32_t *resp,
                                                uint64_t count, uint64_t source_lo)
{
    cudaStream_t s = (cudaStream_t)stream;
    BB_CHECK(bb_cuda_bind(stream));
    if (count == 0) return BOXBFS_OK;
    apply<<<bb_cuda_blocks(count, kThreads), kThreads, 0, s>>>(k->pred, req, resp, count,
                                                              source_lo);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

extern "C" boxbfs_status_t bb_cuda_gather_recompute(const bb_kstate_t *k, void *stream,
                                                    const bb_level_set_t *sent,
                                                    const uint32_t *bits, uint32_t *prefix,
                                                    uint32_t *slots, uint64_t count)
{
    cudaStream_t s = (cudaStream_t)stream;
    uint64_t nloc = k->hi - k->lo, words = (k->n + 31) / 32;
    size_t bytes = k->scratch_bytes;
    BB_CHECK(bb_cuda_bind(stream));
    if (count == 0) return BOXBFS_OK;
    if (k->scratch == NULL)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "cuda gather: no scratch memory for CUB");
    BB_CUDA_CHECK(word_prefix(k->scratch, bytes, bits, prefix, words, s));
    BB_CUDA_CHECK(cudaMemsetAsync(slots, 0xff, count * sizeof *slots, s));   /* BB_UNSET32 */
    if (nloc == 0) return BOXBFS_OK;
    recompute_pass<<<bb_cuda_persistent_grid<recompute_pass>(kThreads), kThreads, 0, s>>>(
        k->offsets, k->columns, k->level, nloc, *sent, bits, prefix, slots);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}
