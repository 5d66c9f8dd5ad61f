/* kernels.h check_rows on the GPU: a warp per row vertex (the persistent
 * grid's warps take the rows in turn), its lanes reading the row's heads
 * together: one read of every arc, where the host's check of a graph built
 * on the devices copied every row back first (kron:28: 15 s a tree). */
#include "config.h"

#include "kernels/cuda/cuda_kernels.h"

namespace {

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads)
    check_rows(const int64_t *offsets, const uint32_t *columns, uint64_t lo, uint64_t rows,
               const int32_t *level, const int64_t *parent, int64_t root, int32_t max_depth,
               unsigned long long *first)
{
    const unsigned lane = threadIdx.x % 32;
    const uint64_t warps = (uint64_t)gridDim.x * (kThreads / 32);
    for (uint64_t r = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) / 32; r < rows;
         r += warps) {
        const int64_t u = (int64_t)(lo + r), p = parent[r];
        const int32_t lu = level[u];
        if (lu < 0) continue;   /* unreached: the host's rules check its parent and level */
        bool bad = max_depth >= 0 && lu > max_depth;
        const bool arcs_checked = max_depth < 0 || lu < max_depth;
        const uint32_t limit = (uint32_t)lu + 1u;
        bool found = u == root;
        for (int64_t j = offsets[r] + lane; !bad && j < offsets[r + 1]; j += 32) {
            const uint32_t w = __ldg(columns + j);
            found |= (int64_t)w == p;
            bad |= arcs_checked && (uint32_t)__ldg(level + w) > limit;
        }
        found = __any_sync(~0u, found);
        bad = __any_sync(~0u, bad);
        if (lane == 0 && (bad || !found)) atomicMin(first, (unsigned long long)u);
    }
}

}  // namespace

extern "C" boxbfs_status_t bb_cuda_check_rows(const bb_kstate_t *k, void *stream,
                                              const int32_t *level, const int64_t *parent,
                                              int64_t root, int32_t max_depth, uint64_t *first_p)
{
    cudaStream_t s = (cudaStream_t)stream;
    const uint64_t rows = k->hi - k->lo;
    unsigned long long *first = NULL, got = ~0ull;
    BB_CHECK(bb_cuda_bind(stream));
    BB_CUDA_CHECK(cudaMallocAsync((void **)&first, sizeof *first, s));
    cudaError_t ce = cudaMemsetAsync(first, 0xff, sizeof *first, s);
    if (ce == cudaSuccess && rows > 0) {
        const int grid = bb_cuda_grid_for<check_rows>(bb_cuda_blocks(rows * 32, kThreads), kThreads);
        check_rows<<<grid > 0 ? grid : 1, kThreads, 0, s>>>(
            (const int64_t *)k->offsets, (const uint32_t *)k->columns, k->lo, rows, level,
            parent, root, max_depth, first);
        ce = cudaGetLastError();
    }
    if (ce == cudaSuccess) ce = cudaMemcpyAsync(&got, first, sizeof got, cudaMemcpyDeviceToHost, s);
    const cudaError_t fe = cudaFreeAsync(first, s);
    if (ce == cudaSuccess) ce = fe;
    if (ce == cudaSuccess) ce = cudaStreamSynchronize(s);
    BB_CUDA_CHECK(ce);
    *first_p = got;
    return BOXBFS_OK;
}
