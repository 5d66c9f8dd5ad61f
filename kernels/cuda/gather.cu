/* Parent gather after the search on the GPU [DESIGN "Parents"]: the owner
 * groups the vertices other devices delivered by source (count with
 * warp-aggregated atomics, offsets in one tiny kernel, scatter), the
 * discovering device answers from remote_parent, and the owner applies the
 * answers. The order inside a source's group is the atomics' order; requests
 * and answers travel together, so the result and the byte counts do not
 * depend on it. */
#include "config.h"

#include "kernels/cuda/cuda_kernels.h"

namespace {

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads)
    count_requests(const int64_t *pred, uint64_t nloc, unsigned long long *count)
{
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nloc) return;
    int64_t p = pred[i];
    if (p < -1) (void)bb_keyed_append(count, (unsigned)(-p - 2));
}

/* offset[s] = exclusive sum of count[s]; count[s] = 0 for the scatter's
 * cursors, which end equal to the counts again. ndev is small. */
__global__ void request_offsets(unsigned long long *count, unsigned long long *offset, int ndev)
{
    unsigned long long sum = 0;
    for (int s = 0; s < ndev; s++) {
        offset[s] = sum;
        sum += count[s];
        count[s] = 0;
    }
}

__global__ void __launch_bounds__(kThreads)
    scatter_requests(const int64_t *pred, uint64_t nloc, unsigned long long *count,
                     const unsigned long long *offset, uint32_t *req)
{
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nloc) return;
    int64_t p = pred[i];
    if (p >= -1) return;
    unsigned s = (unsigned)(-p - 2);
    req[offset[s] + bb_keyed_append(count, s)] = (uint32_t)i;
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

}  // namespace

extern "C" boxbfs_status_t bb_cuda_gather_requests(const bb_kstate_t *k, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    uint64_t nloc = k->hi - k->lo;
    unsigned long long *count = (unsigned long long *)k->counters + BB_CTR_SEND;
    unsigned long long *offset = count + k->ndev;
    BB_CHECK(bb_cuda_bind(stream));
    BB_CUDA_CHECK(cudaMemsetAsync(count, 0, (size_t)k->ndev * sizeof *count, s));
    if (nloc) {
        count_requests<<<bb_cuda_blocks(nloc, kThreads), kThreads, 0, s>>>(k->pred, nloc, count);
        BB_CUDA_LAUNCH_CHECK();
    }
    request_offsets<<<1, 1, 0, s>>>(count, offset, k->ndev);
    BB_CUDA_LAUNCH_CHECK();
    if (nloc) {
        scatter_requests<<<bb_cuda_blocks(nloc, kThreads), kThreads, 0, s>>>(
            k->pred, nloc, count, offset, k->gather_req);
        BB_CUDA_LAUNCH_CHECK();
    }
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
