/* kernels.h kron_rows on the GPU: a device builds its rows of a Graph500
 * Kronecker graph without the host. Every thread makes edges from the seed
 * and their numbers alone (src/graph/kron_edge.h, the host generator's
 * code), so the device makes all m edges itself and keeps those with an end
 * in its rows: regenerating costs less than sending them between devices
 * (kron:29, 8.6 G edges, in about a second). A first pass counts each row's
 * arcs before duplicates merge (the bound the caller sizes the columns by)
 * and each row vertex's input edges. Then the rows go in bands that fit the
 * device's free memory: each band's arcs as 64-bit keys (row in the band,
 * head), a CUB radix sort, CUB's unique, and the heads written in row order
 * after the band before; the rows' lengths scanned into the offsets. */
#include "config.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include "graph/kron_edge.h"
#include "kernels/cuda/cuda_kernels.h"

namespace {

constexpr int kThreads = 256;
/* A band's keys at most (CUB's counts are int), and the share of free memory it takes. */
constexpr uint64_t kBandMax = (uint64_t)1 << 30;
constexpr double kBandShare = 0.8;
constexpr uint64_t kBandBytesPerArc = 8 * 2 + 8;   /* the keys twice, CUB's temporaries */

template <class Edge>
__device__ __forceinline__ void each_edge(uint64_t m, Edge edge)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < m;
         i += (uint64_t)gridDim.x * blockDim.x)
        edge(i);
}

/* Each row's arcs before merging (self-loops dropped) and each row
 * vertex's input edges (those whose first end it is). */
__global__ void count_rows(bb_kron_keys_t keys, uint64_t m, uint64_t lo, uint64_t nloc,
                           unsigned *raw, unsigned *credit)
{
    each_edge(m, [&](uint64_t i) {
        uint64_t u, v;
        bb_kron_edge(&keys, i, &u, &v);
        const uint64_t ru = u - lo, rv = v - lo;   /* unsigned: below lo wraps past nloc */
        if (ru < nloc) atomicAdd(credit + ru, 1u);
        if (u == v) return;
        if (ru < nloc) atomicAdd(raw + ru, 1u);
        if (rv < nloc) atomicAdd(raw + rv, 1u);
    });
}

/* The arcs of rows [b0, b0 + nb) as keys (row - b0, head). */
__global__ void band_keys(bb_kron_keys_t keys, uint64_t m, uint64_t b0, uint64_t nb,
                          unsigned long long *count, uint64_t *out)
{
    each_edge(m, [&](uint64_t i) {
        uint64_t u, v;
        bb_kron_edge(&keys, i, &u, &v);
        if (u == v) return;
        if (u - b0 < nb) out[atomicAdd(count, 1ull)] = (u - b0) << 32 | v;
        if (v - b0 < nb) out[atomicAdd(count, 1ull)] = (v - b0) << 32 | u;
    });
}

/* A band's distinct keys, sorted: heads after the band before, row lengths. */
__global__ void emit(const uint64_t *keys, const int *count, uint32_t *columns, unsigned *length)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < (uint64_t)*count;
         i += (uint64_t)gridDim.x * blockDim.x) {
        columns[i] = (uint32_t)keys[i];
        atomicAdd(length + (keys[i] >> 32), 1u);
    }
}

__global__ void sum_rows(const unsigned *raw, uint64_t nloc, unsigned long long *total)
{
    unsigned long long mine = 0;
    for (uint64_t r = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; r < nloc;
         r += (uint64_t)gridDim.x * blockDim.x)
        mine += raw[r];
    atomicAdd(total, mine);
}

/* offsets[r + 1] = length[r], offsets[0] = 0: then an inclusive scan. */
__global__ void lengths_to_offsets(const unsigned *length, uint64_t nloc, int64_t *offsets)
{
    for (uint64_t r = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; r <= nloc;
         r += (uint64_t)gridDim.x * blockDim.x)
        offsets[r] = r == 0 ? 0 : (int64_t)length[r - 1];
}

/* Every kernel here is grid-stride: the persistent grid, no more blocks
 * than the items need, at least one. */
template <auto Kernel>
int grid_of(uint64_t items)
{
    const int grid = bb_cuda_grid_for<Kernel>(bb_cuda_blocks(items, kThreads), kThreads);
    return grid > 0 ? grid : 1;
}

/* Temporaries, freed with the builder. */
struct Temps {
    unsigned *raw = nullptr, *credit = nullptr;
    unsigned long long *count = nullptr;
    int *selected = nullptr;
    uint64_t *a = nullptr, *b = nullptr;
    bb_cub_room cub;
    ~Temps()
    {
        cudaFree(raw);
        cudaFree(credit);
        cudaFree(count);
        cudaFree(selected);
        cudaFree(a);
        cudaFree(b);
    }
};

/* Rows [b0, b1) of the device's (global ids), raw[] their arcs before
 * merging, into columns from *written; their lengths into t.raw (reused:
 * each band's raw counts are read before its lengths are written). */
boxbfs_status_t build_band(const bb_kron_keys_t &keys, uint64_t m, uint64_t lo, uint64_t b0,
                           uint64_t b1, uint64_t band_arcs, Temps &t, uint32_t *columns,
                           uint64_t *written, cudaStream_t s)
{
    int bits = 32, selected = 0;
    size_t bytes = 0;
    while (bits < 64 && ((b1 - b0) >> (bits - 32)) != 0) bits++;
    BB_CUDA_CHECK(cudaMemsetAsync(t.count, 0, sizeof *t.count, s));
    band_keys<<<grid_of<band_keys>(m), kThreads, 0, s>>>(keys, m, b0, b1 - b0, t.count, t.a);
    BB_CUDA_LAUNCH_CHECK();
    BB_CUDA_CHECK(cudaMemsetAsync(t.raw + (b0 - lo), 0, (b1 - b0) * sizeof *t.raw, s));
    const int n = (int)band_arcs;
    BB_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes, t.a, t.b, n, 0, bits, s));
    BB_CHECK(t.cub.at_least(bytes));
    BB_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(t.cub.ptr, bytes, t.a, t.b, n, 0, bits, s));
    BB_CUDA_CHECK(cub::DeviceSelect::Unique(nullptr, bytes, t.b, t.a, t.selected, n, s));
    BB_CHECK(t.cub.at_least(bytes));
    BB_CUDA_CHECK(cub::DeviceSelect::Unique(t.cub.ptr, bytes, t.b, t.a, t.selected, n, s));
    emit<<<grid_of<emit>(band_arcs), kThreads, 0, s>>>(t.a, t.selected, columns + *written,
                                                 t.raw + (b0 - lo));
    BB_CUDA_LAUNCH_CHECK();
    BB_CUDA_CHECK(cudaMemcpyAsync(&selected, t.selected, sizeof selected, cudaMemcpyDeviceToHost,
                                  s));
    BB_CUDA_CHECK(cudaStreamSynchronize(s));
    *written += (uint64_t)selected;
    return BOXBFS_OK;
}

boxbfs_status_t build(const bb_kstate_t *k, cudaStream_t s, const bb_kron_job_t *job, uint64_t cap,
                      int64_t *credit, uint64_t *arcs_p)
{
    const uint64_t lo = k->lo, nloc = k->hi - k->lo, m = (uint64_t)job->edgefactor << job->scale;
    bb_kron_keys_t keys;
    Temps t;
    unsigned long long total = 0;
    bb_kron_keys(&keys, job->scale, job->seed);
    BB_CUDA_CHECK(cudaMalloc((void **)&t.raw, (nloc ? nloc : 1) * sizeof *t.raw));
    BB_CUDA_CHECK(cudaMalloc((void **)&t.credit, (nloc ? nloc : 1) * sizeof *t.credit));
    BB_CUDA_CHECK(cudaMalloc((void **)&t.count, sizeof *t.count));
    BB_CUDA_CHECK(cudaMalloc((void **)&t.selected, sizeof *t.selected));
    BB_CUDA_CHECK(cudaMemsetAsync(t.raw, 0, nloc * sizeof *t.raw, s));
    BB_CUDA_CHECK(cudaMemsetAsync(t.credit, 0, nloc * sizeof *t.credit, s));
    BB_CUDA_CHECK(cudaMemsetAsync(t.count, 0, sizeof *t.count, s));
    count_rows<<<grid_of<count_rows>(m), kThreads, 0, s>>>(keys, m, lo, nloc, t.raw,
                                                           t.credit);
    BB_CUDA_LAUNCH_CHECK();
    sum_rows<<<grid_of<sum_rows>(nloc), kThreads, 0, s>>>(t.raw, nloc, t.count);
    BB_CUDA_LAUNCH_CHECK();
    BB_CUDA_CHECK(cudaMemcpyAsync(&total, t.count, sizeof total, cudaMemcpyDeviceToHost, s));
    BB_CUDA_CHECK(cudaStreamSynchronize(s));
    *arcs_p = total;
    if (cap == 0) return BOXBFS_OK;
    if (cap < total)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "kron_rows: %llu arcs for a room of %llu",
                            (unsigned long long)total, (unsigned long long)cap);
    /* the bands: consecutive rows whose arcs before merging fit the keys' room */
    unsigned *raw = (unsigned *)malloc((nloc ? nloc : 1) * sizeof *raw);
    if (raw == NULL) return bb_error_set(BOXBFS_ERR_NO_MEMORY, "kron_rows: no host memory");
    cudaError_t ce = cudaMemcpyAsync(raw, t.raw, nloc * sizeof *raw, cudaMemcpyDeviceToHost, s);
    if (ce == cudaSuccess) ce = cudaStreamSynchronize(s);
    size_t free_b = 0, total_b = 0;
    if (ce == cudaSuccess) ce = cudaMemGetInfo(&free_b, &total_b);
    if (ce != cudaSuccess) {
        free(raw);
        BB_CUDA_CHECK(ce);
    }
    uint64_t room = (uint64_t)((double)free_b * kBandShare) / kBandBytesPerArc, widest = 0;
    if (room > kBandMax) room = kBandMax;
    for (uint64_t r = 0; r < nloc; r++) widest = raw[r] > widest ? raw[r] : widest;
    if (widest > room) {
        free(raw);
        return bb_error_set(BOXBFS_ERR_DEVICE_MEMORY,
                            "kron_rows: a row of %llu arcs before merging needs %llu bytes of "
                            "keys and sort room; %zu free", (unsigned long long)widest,
                            (unsigned long long)(widest * kBandBytesPerArc), free_b);
    }
    uint64_t band_most = 0;   /* the largest band's arcs: the keys' allocation */
    for (uint64_t r = 0, arcs = 0; r < nloc; r++) {
        if (arcs + raw[r] > room) arcs = 0;
        arcs += raw[r];
        band_most = arcs > band_most ? arcs : band_most;
    }
    boxbfs_status_t st = BOXBFS_OK;
    ce = cudaMalloc((void **)&t.a, (band_most ? band_most : 1) * 8);
    if (ce == cudaSuccess) ce = cudaMalloc((void **)&t.b, (band_most ? band_most : 1) * 8);
    uint64_t written = 0;
    for (uint64_t b0 = 0; ce == cudaSuccess && st == BOXBFS_OK && b0 < nloc;) {
        uint64_t b1 = b0, arcs = 0;
        while (b1 < nloc && arcs + raw[b1] <= room) arcs += raw[b1++];
        st = build_band(keys, m, lo, lo + b0, lo + b1, arcs, t, (uint32_t *)k->columns,
                        &written, s);
        b0 = b1;
    }
    free(raw);
    BB_CUDA_CHECK(ce);
    BB_CHECK(st);
    /* the credits: 32-bit counts here, the host's 64-bit */
    unsigned *c32 = (unsigned *)malloc((nloc ? nloc : 1) * sizeof *c32);
    if (c32 == NULL) return bb_error_set(BOXBFS_ERR_NO_MEMORY, "kron_rows: no host memory");
    ce = cudaMemcpyAsync(c32, t.credit, nloc * sizeof *c32, cudaMemcpyDeviceToHost, s);
    if (ce == cudaSuccess) ce = cudaStreamSynchronize(s);
    for (uint64_t r = 0; ce == cudaSuccess && r < nloc; r++) credit[r] = c32[r];
    free(c32);
    BB_CUDA_CHECK(ce);
    lengths_to_offsets<<<grid_of<lengths_to_offsets>(nloc + 1), kThreads, 0, s>>>(
        t.raw, nloc, (int64_t *)k->offsets);
    BB_CUDA_LAUNCH_CHECK();
    size_t bytes = 0;
    int64_t *off = (int64_t *)k->offsets + 1;
    BB_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, off, off, nloc, s));
    BB_CHECK(t.cub.at_least(bytes));
    BB_CUDA_CHECK(cub::DeviceScan::InclusiveSum(t.cub.ptr, bytes, off, off, nloc, s));
    BB_CUDA_CHECK(cudaStreamSynchronize(s));
    *arcs_p = written;
    return BOXBFS_OK;
}

}  // namespace

extern "C" boxbfs_status_t bb_cuda_kron_rows(const bb_kstate_t *k, void *stream,
                                             const bb_kron_job_t *job, uint64_t cap,
                                             int64_t *credit, uint64_t *arcs_p)
{
    BB_CHECK(bb_cuda_bind(stream));
    return build(k, (cudaStream_t)stream, job, cap, credit, arcs_p);
}
