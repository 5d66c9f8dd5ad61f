/* The visited-prefix skip's setup on the GPU (kernels.h rank_rows, README
 * "Visited-prefix skip"): the engine's degree order becomes by_rank and its
 * inverse rank, then every row of this device is sorted by its heads'
 * ranks: the heads become their ranks, a CUB segmented sort orders each
 * row, and the ranks become heads again. Rows go in pieces of at most
 * kPiece arcs (or one longest row), so the temporaries stay a few hundred
 * MiB whatever the graph; they are freed on return. Once per engine device,
 * before its first search. */
#include "config.h"

#include <cub/device/device_segmented_sort.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "kernels/cuda/cuda_kernels.h"

namespace {

constexpr int64_t kPiece = (int64_t)1 << 25;   /* arcs sorted per segmented sort */
constexpr int kThreads = 256;

__global__ void invert(const uint32_t *by_rank, uint32_t n, uint32_t *rank)
{
    for (uint64_t r = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; r < n;
         r += (uint64_t)gridDim.x * blockDim.x)
        rank[by_rank[r]] = (uint32_t)r;
}

/* out[j] = map[in[j]]: heads to ranks, and back */
__global__ void remap(const uint32_t *in, const uint32_t *map, uint64_t count, uint32_t *out)
{
    for (uint64_t j = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; j < count;
         j += (uint64_t)gridDim.x * blockDim.x)
        out[j] = map[in[j]];
}

/* A piece's row offsets, from its first arc. */
struct Rebase {
    const int64_t *offsets;
    int64_t base;
    __host__ __device__ int64_t operator()(uint64_t i) const { return offsets[i] - base; }
};
using RebaseIt = thrust::transform_iterator<Rebase, thrust::counting_iterator<uint64_t>>;

int grid_of(uint64_t items)
{
    uint64_t blocks = (items + kThreads - 1) / kThreads;
    return blocks > 4096 ? 4096 : blocks < 1 ? 1 : (int)blocks;
}

struct Temps {
    uint32_t *a = nullptr, *b = nullptr;   /* a piece's entries each */
    bb_cub_room cub;
    ~Temps()
    {
        cudaFree(a);
        cudaFree(b);
    }
};

/* Rows [r0, r1), arcs [offsets[r0], offsets[r1]) of the device's columns. */
boxbfs_status_t sort_piece(const bb_kstate_t *k, cudaStream_t s, Temps &t, const int64_t *host,
                           uint64_t r0, uint64_t r1)
{
    const int64_t first = host[r0] - host[0], count = host[r1] - host[r0];
    uint32_t *columns = (uint32_t *)k->columns + first;
    RebaseIt begin(thrust::counting_iterator<uint64_t>(r0), Rebase{k->offsets, first});
    size_t bytes = 0;
    if (count == 0) return BOXBFS_OK;
    remap<<<grid_of((uint64_t)count), kThreads, 0, s>>>(columns, k->rank, (uint64_t)count, t.a);
    BB_CUDA_LAUNCH_CHECK();
    BB_CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(nullptr, bytes, t.a, t.b, count,
                                                     (int64_t)(r1 - r0), begin, begin + 1, s));
    BB_CHECK(t.cub.at_least(bytes));
    BB_CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(t.cub.ptr, bytes, t.a, t.b, count,
                                                     (int64_t)(r1 - r0), begin, begin + 1, s));
    remap<<<grid_of((uint64_t)count), kThreads, 0, s>>>(t.b, k->by_rank, (uint64_t)count, columns);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

}  // namespace

extern "C" boxbfs_status_t bb_cuda_rank_rows(const bb_kstate_t *k, void *stream,
                                             const int64_t *offsets, const uint32_t *order)
{
    cudaStream_t s = (cudaStream_t)stream;
    const uint64_t n = k->n, rows = k->hi - k->lo;
    int64_t widest = 0;
    Temps t;
    BB_CHECK(bb_cuda_bind(stream));
    if (n > UINT32_MAX)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "rank_rows: more than 2^32 vertices");
    for (uint64_t v = 0; v < rows; v++)
        if (offsets[v + 1] - offsets[v] > widest) widest = offsets[v + 1] - offsets[v];
    const int64_t piece = widest > kPiece ? widest : kPiece;
    BB_CUDA_CHECK(cudaMalloc((void **)&t.a, (size_t)piece * 4));
    BB_CUDA_CHECK(cudaMalloc((void **)&t.b, (size_t)piece * 4));
    BB_CUDA_CHECK(cudaMemcpyAsync((uint32_t *)k->by_rank, order, n * 4, cudaMemcpyHostToDevice, s));
    invert<<<grid_of(n), kThreads, 0, s>>>(k->by_rank, (uint32_t)n, (uint32_t *)k->rank);
    BB_CUDA_LAUNCH_CHECK();
    for (uint64_t r0 = 0; r0 < rows;) {   /* as many rows as fit in a piece */
        uint64_t r1 = r0 + 1;
        while (r1 < rows && offsets[r1 + 1] - offsets[r0] <= piece) r1++;
        BB_CHECK(sort_piece(k, s, t, offsets, r0, r1));
        r0 = r1;
    }
    BB_CUDA_CHECK(cudaStreamSynchronize(s));   /* before the temporaries go */
    return BOXBFS_OK;
}
