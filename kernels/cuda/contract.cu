/* Frontier contraction on the GPU: sort-unique [003 §4] and valid-flag
 * [003 §5.1]. CUB radix sort of (gid, parent lid) pairs over only the bits
 * the vertex range needs; the flag (first of its run and, for valid-flag, not
 * visited here) is computed inside the CUB exclusive scan's input iterator;
 * a compaction kernel writes owner-local ids and parents, marks visited and
 * records remote parents; one small kernel finds each owner's segment by
 * warp-wide searches of range_lo[o] in the sorted keys (block partition). */
#include "config.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "kernels/cuda/cuda_kernels.h"

namespace {

constexpr int kThreads = 256;

int bits_for(uint64_t n)
{
    int b = 0;
    while (b < 64 && (n - 1) >> b) b++;
    return b < 1 ? 1 : b;
}

/* flag(i) = key[i] starts its run and (valid-flag) is not visited here;
 * flag(count) = 0 so that the scan's last entry is the total. */
struct FlagOp {
    const uint32_t *key;
    const void *visited;   /* NULL: sort-unique */
    int bits;
    uint64_t count;
    __host__ __device__ uint32_t operator()(uint64_t i) const
    {
#ifdef __CUDA_ARCH__
        if (i >= count) return 0;
        uint32_t v = key[i];
        if (i > 0 && key[i - 1] == v) return 0;
        return visited == NULL || !bb_is_visited(visited, bits, v) ? 1u : 0u;
#else
        (void)i;
        return 0;
#endif
    }
};
using FlagIt = thrust::transform_iterator<FlagOp, thrust::counting_iterator<uint64_t>>;

/* Size query and run share these two so both instantiate the same dispatch. */
cudaError_t sort_pairs(void *tmp, size_t &bytes, cub::DoubleBuffer<uint32_t> &keys,
                       cub::DoubleBuffer<uint32_t> &vals, uint32_t count, int end_bit,
                       cudaStream_t stream)
{
    return cub::DeviceRadixSort::SortPairs(tmp, bytes, keys, vals, count, 0, end_bit, stream);
}

cudaError_t flag_scan(void *tmp, size_t &bytes, const FlagOp &op, uint32_t *flags, uint64_t items,
                      cudaStream_t stream)
{
    FlagIt in(thrust::counting_iterator<uint64_t>(0), op);
    return cub::DeviceScan::ExclusiveSum(tmp, bytes, in, flags, items, stream);
}

struct CompactArgs {
    const uint32_t *key, *val, *flags;
    uint64_t count;
    const uint64_t *range_lo;
    int ndev, self, valid_flag, bits;
    void *visited;
    uint32_t *outbox, *outbox_parent, *remote_parent;
    const unsigned long long *own_offset;   /* the own segment's start (segments ran first) */
};

/* Survivors (flags[i + 1] != flags[i]) to slot flags[i]; each survivor is a
 * distinct vertex, so the plain stores below never race. outbox_parent holds
 * the own segment only (hi - lo entries, from 0); remote vertices' parents go
 * to remote_parent. */
__global__ void __launch_bounds__(kThreads) compact(CompactArgs a)
{
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= a.count) return;
    uint32_t slot = a.flags[i];
    if (a.flags[i + 1] == slot) return;
    uint32_t v = a.key[i], p = a.val[i];
    int o = bb_owner(a.range_lo, a.ndev, v);
    a.outbox[slot] = (uint32_t)(v - __ldg(a.range_lo + o));
    if (o == a.self) a.outbox_parent[slot - (uint32_t)*a.own_offset] = p;
    if (a.valid_flag) bb_mark(a.visited, a.bits, v);
    if (o != a.self && a.remote_parent) {   /* none: recomputed after the search */
        uint32_t *rp = a.remote_parent + bb_remote_slot(v, __ldg(a.range_lo + a.self),
                                                        __ldg(a.range_lo + a.self + 1));
        if (*rp == BB_UNSET32) *rp = p;
    }
}

/* First index in key[0, count) whose key is >= bound; all lanes call it. */
__device__ uint64_t warp_lower_bound(const uint32_t *key, uint64_t count, uint64_t bound)
{
    return bb_warp_partition_point(0, count, [=](uint64_t i) { return key[i] < bound; });
}

/* Send offsets and counts per owner: warp o searches range_lo[o] (n for the
 * end) and the scan at that index is the segment start, as in the cpu twin. */
__global__ void segments(const uint32_t *key, const uint32_t *flags, uint64_t count,
                         const uint64_t *range_lo, int ndev, uint64_t n, unsigned long long *ctr)
{
    extern __shared__ uint32_t s_at[];   /* ndev + 1 segment starts */
    const int warp = (int)(threadIdx.x >> 5), nwarps = (int)(blockDim.x >> 5);
    for (int o = warp; o <= ndev; o += nwarps) {
        uint64_t at = warp_lower_bound(key, count, o == ndev ? n : range_lo[o]);
        if (bb_lane() == 0) s_at[o] = flags[at];
    }
    __syncthreads();
    for (int o = (int)threadIdx.x; o < ndev; o += (int)blockDim.x) {
        ctr[BB_CTR_SEND_OFFSET(ndev, o)] = s_at[o];
        ctr[BB_CTR_SEND_COUNT(o)] = s_at[o + 1] - s_at[o];
    }
}

}  // namespace

extern "C" boxbfs_status_t bb_cuda_contract_scratch(uint64_t work_cap, size_t *bytes_p)
{
    size_t sort_bytes = 0, scan_bytes = 0;
    uint32_t cap = work_cap > UINT32_MAX ? UINT32_MAX : (uint32_t)work_cap;
    cub::DoubleBuffer<uint32_t> keys(NULL, NULL), vals(NULL, NULL);
    FlagOp op = {NULL, NULL, 0, cap};
    BB_CUDA_CHECK(sort_pairs(NULL, sort_bytes, keys, vals, cap, 32, 0));
    BB_CUDA_CHECK(flag_scan(NULL, scan_bytes, op, NULL, (uint64_t)cap + 1, 0));
    *bytes_p = sort_bytes > scan_bytes ? sort_bytes : scan_bytes;
    return BOXBFS_OK;
}

extern "C" boxbfs_status_t bb_cuda_contract(const bb_kstate_t *k, void *stream, uint64_t count)
{
    cudaStream_t s = (cudaStream_t)stream;
    unsigned long long *ctr = (unsigned long long *)k->counters;
    int ndev = k->ndev, valid_flag = k->contract == BOXBFS_CONTRACT_VALID_FLAG;
    size_t bytes = k->scratch_bytes;
    BB_CHECK(bb_cuda_bind(stream));
    if (count == 0) {   /* empty: every segment empty at 0 */
        BB_CUDA_CHECK(cudaMemsetAsync(ctr + BB_CTR_SEND, 0, 2 * (size_t)ndev * sizeof *ctr, s));
        return BOXBFS_OK;
    }
    if (count > k->work_cap || count > UINT32_MAX)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "contract of %llu neighbors exceeds capacity %llu",
                            (unsigned long long)count, (unsigned long long)k->work_cap);
    if (k->scratch == NULL)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "cuda contract: no scratch memory for CUB");
    if (valid_flag && k->visited == NULL)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "cuda contract: valid-flag without visited array");
    cub::DoubleBuffer<uint32_t> keys(k->nbr, k->alt), vals(k->nbr_parent, k->alt_parent);
    BB_CUDA_CHECK(sort_pairs(k->scratch, bytes, keys, vals, (uint32_t)count, bits_for(k->n), s));
    /* the buffer selector is updated on the host by the dispatch */
    const uint32_t *key = keys.Current(), *val = vals.Current();
    FlagOp op = {key, valid_flag ? k->visited : NULL, k->visited_bits, count};
    bytes = k->scratch_bytes;
    BB_CUDA_CHECK(flag_scan(k->scratch, bytes, op, k->flags, count + 1, s));
    int warps = ndev + 1 < 32 ? ndev + 1 : 32;
    segments<<<1, warps * 32, (size_t)(ndev + 1) * sizeof(uint32_t), s>>>(
        key, k->flags, count, k->range_lo, ndev, k->n, ctr);
    BB_CUDA_LAUNCH_CHECK();
    CompactArgs a = {key, val, k->flags, count, k->range_lo, ndev, k->self, valid_flag,
                     k->visited_bits, k->visited, k->outbox, k->outbox_parent, k->remote_parent,
                     ctr + BB_CTR_SEND_OFFSET(ndev, k->self)};
    compact<<<bb_cuda_blocks(count, kThreads), kThreads, 0, s>>>(a);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}
