/* The 2D-partitioned BFS kernels on the GPU (kernels/grid2d.h), the same
 * steps as kernels/cpu/grid2d.c: the visited bitmap and the next frontier
 * are claimed with atomics [004 §3.4], so the order inside a list may
 * differ from the cpu backend's, but every set of vertices (and thus every
 * byte count) is the same: update runs one message after the other on the
 * stream, so the first sender to deliver a vertex is its discoverer on both. */
#include "config.h"

#include "kernels/cuda/cuda_kernels.h"

extern "C" {
#include "kernels/grid2d.h"
}

namespace {

constexpr int kThreads = 256;
typedef unsigned long long ull;

__global__ void reset_owned(int32_t *level, int64_t *pred, uint64_t bs)
{
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < bs) {
        level[i] = -1;
        pred[i] = -1;
    }
}

__global__ void reset_root(bb_g2state_t k, uint64_t root)
{
    uint64_t b = root / k.bs;
    if ((int)(b % (uint64_t)k.rows) == k.row) {
        uint64_t rl = (b / (uint64_t)k.rows) * k.bs + root % k.bs;
        k.visited[rl >> 5] |= 1u << (rl & 31);
    }
    if (root >= k.lo && root < k.lo + k.nloc) {
        uint64_t off = root - k.lo;
        k.level[off] = 0;
        k.pred[off] = (int64_t)root;
        k.frontier[0] = (uint32_t)off;
        k.counters[BB_G2_CTR_NEXT] = 1;
    }
}

__global__ void append_list(const uint32_t *msg, uint64_t count, uint32_t offset, uint32_t *out)
{
    uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < count) out[t] = msg[t] + offset;
}

/* A word per thread: its ids go after one atomic on the cursor. */
__global__ void append_bitmap(const uint32_t *msg, uint64_t words, uint32_t offset,
                              uint32_t *out, ull *cursor)
{
    uint64_t w = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t bits = w < words ? msg[w] : 0u;
    if (!bits) return;
    ull at = atomicAdd(cursor, (ull)__popc(bits));
    for (; bits; bits &= bits - 1)
        out[at++] = (uint32_t)(w * 32 + (uint64_t)(__ffs(bits) - 1)) + offset;
}

/* A warp per frontier vertex, its lanes over the vertex's arcs. */
__global__ void expand_warp(bb_g2state_t k, uint64_t count)
{
    uint64_t t = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    unsigned lane = bb_lane();
    ull *bucket = (ull *)k.counters + BB_G2_CTR_BUCKET;
    if (t >= count) return;
    uint32_t u = k.colfront[t];
    int64_t a = k.offsets[u], end = k.offsets[u + 1];
    if (lane == 0 && end > a) atomicAdd((ull *)k.counters + BB_G2_CTR_ARCS, (ull)(end - a));
    for (a += lane; a < end; a += 32) {
        uint32_t v = k.columns[a], bit = 1u << (v & 31);
        if (atomicOr(k.visited + (v >> 5), bit) & bit) continue;
        uint64_t o = v / k.bs;
        k.rparent[v] = u;
        ull at = atomicAdd(bucket + o, 1ull);
        k.outbox[o * k.bs + at] = (uint32_t)(v - o * k.bs);
    }
}

__device__ void update_one(const bb_g2state_t &k, uint32_t off, int src, int32_t next_level)
{
    uint64_t rl = (uint64_t)k.col * k.bs + off;
    if (off >= k.nloc || atomicCAS(k.level + off, -1, next_level) != -1) return;
    k.pred[off] = src == k.self
                      ? (int64_t)((uint64_t)k.col * k.rows * k.bs + k.rparent[rl])
                      : -(int64_t)(src + 2);
    atomicOr(k.visited + (rl >> 5), 1u << (rl & 31));
    ull at = atomicAdd((ull *)k.counters + BB_G2_CTR_NEXT, 1ull);
    k.frontier[at] = off;
}

__global__ void update_list(bb_g2state_t k, const uint32_t *msg, uint64_t count, int src,
                            int32_t next_level)
{
    uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < count) update_one(k, msg[t], src, next_level);
}

__global__ void update_bitmap(bb_g2state_t k, const uint32_t *msg, uint64_t words, int src,
                              int32_t next_level)
{
    uint64_t w = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (w >= words) return;
    for (uint32_t bits = msg[w]; bits; bits &= bits - 1)
        update_one(k, (uint32_t)(w * 32 + (uint64_t)(__ffs(bits) - 1)), src, next_level);
}

__global__ void requests_k(bb_g2state_t k)
{
    uint64_t off = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (off >= k.nloc) return;
    int64_t p = k.pred[off];
    if (p > -2) return;
    uint64_t j = (uint64_t)(-p - 2) / (uint64_t)k.rows;
    ull at = atomicAdd((ull *)k.counters + BB_G2_CTR_BUCKET + j, 1ull);
    k.outbox[j * k.bs + at] = (uint32_t)off;
}

__global__ void answer_k(const uint32_t *rp, const uint32_t *req, uint64_t count, uint32_t *resp)
{
    uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < count) resp[t] = rp[req[t]];
}

__global__ void apply_k(int64_t *pred, const uint32_t *req, const uint32_t *resp, uint64_t count,
                        uint64_t base)
{
    uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < count) pred[req[t]] = (int64_t)(base + resp[t]);
}

boxbfs_status_t g2_reset(const bb_g2state_t *k, void *stream, uint64_t root)
{
    cudaStream_t s = (cudaStream_t)stream;
    uint64_t row_ids = (uint64_t)k->cols * k->bs;
    BB_CHECK(bb_cuda_bind(stream));
    reset_owned<<<bb_cuda_blocks(k->bs, kThreads), kThreads, 0, s>>>(k->level, k->pred, k->bs);
    BB_CUDA_LAUNCH_CHECK();
    BB_CUDA_CHECK(cudaMemsetAsync(k->visited, 0, (row_ids / 32) * 4, s));
    BB_CUDA_CHECK(cudaMemsetAsync(k->rparent, 0xff, row_ids * 4, s));
    BB_CUDA_CHECK(cudaMemsetAsync(k->counters, 0, BB_G2_CTR_COUNT(k->cols) * 8, s));
    reset_root<<<1, 1, 0, s>>>(*k, root);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t g2_append(const bb_g2state_t *k, void *stream, const uint32_t *msg, int bitmap,
                          uint64_t count, uint32_t offset, uint64_t base)
{
    cudaStream_t s = (cudaStream_t)stream;
    BB_CHECK(bb_cuda_bind(stream));
    if (count == 0) return BOXBFS_OK;
    if (!bitmap) {
        append_list<<<bb_cuda_blocks(count, kThreads), kThreads, 0, s>>>(msg, count, offset,
                                                                          k->colfront + base);
        BB_CUDA_LAUNCH_CHECK();
        return BOXBFS_OK;
    }
    /* the cursor: counters[ARCS], zeroed again before expand counts into it */
    ull *cursor = (ull *)k->counters + BB_G2_CTR_ARCS;
    BB_CUDA_CHECK(cudaMemsetAsync(cursor, 0, sizeof *cursor, s));
    append_bitmap<<<bb_cuda_blocks(k->bs / 32, kThreads), kThreads, 0, s>>>(
        msg, k->bs / 32, offset, k->colfront + base, cursor);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t g2_expand(const bb_g2state_t *k, void *stream, uint64_t count)
{
    cudaStream_t s = (cudaStream_t)stream;
    BB_CHECK(bb_cuda_bind(stream));
    if (count == 0) return BOXBFS_OK;
    expand_warp<<<bb_cuda_blocks(count * 32, kThreads), kThreads, 0, s>>>(*k, count);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t g2_update(const bb_g2state_t *k, void *stream, const uint32_t *msg, int bitmap,
                          uint64_t count, int src, int32_t next_level)
{
    cudaStream_t s = (cudaStream_t)stream;
    BB_CHECK(bb_cuda_bind(stream));
    if (count == 0) return BOXBFS_OK;
    if (bitmap)
        update_bitmap<<<bb_cuda_blocks(k->bs / 32, kThreads), kThreads, 0, s>>>(
            *k, msg, k->bs / 32, src, next_level);
    else
        update_list<<<bb_cuda_blocks(count, kThreads), kThreads, 0, s>>>(*k, msg, count, src,
                                                                         next_level);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t g2_requests(const bb_g2state_t *k, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    BB_CHECK(bb_cuda_bind(stream));
    BB_CUDA_CHECK(cudaMemsetAsync(k->counters + BB_G2_CTR_BUCKET, 0, (size_t)k->cols * 8, s));
    if (k->nloc == 0) return BOXBFS_OK;
    requests_k<<<bb_cuda_blocks(k->nloc, kThreads), kThreads, 0, s>>>(*k);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t g2_answer(const bb_g2state_t *k, void *stream, const uint32_t *req,
                          uint64_t count, int owner_col, uint32_t *resp)
{
    cudaStream_t s = (cudaStream_t)stream;
    BB_CHECK(bb_cuda_bind(stream));
    if (count == 0) return BOXBFS_OK;
    answer_k<<<bb_cuda_blocks(count, kThreads), kThreads, 0, s>>>(
        k->rparent + (uint64_t)owner_col * k->bs, req, count, resp);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t g2_apply(const bb_g2state_t *k, void *stream, const uint32_t *req,
                         const uint32_t *resp, uint64_t count, int src_col)
{
    cudaStream_t s = (cudaStream_t)stream;
    BB_CHECK(bb_cuda_bind(stream));
    if (count == 0) return BOXBFS_OK;
    apply_k<<<bb_cuda_blocks(count, kThreads), kThreads, 0, s>>>(
        k->pred, req, resp, count, (uint64_t)src_col * k->rows * k->bs);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

const bb_grid2d_ops_t cuda_grid2d_ops = {
    g2_reset, g2_append, g2_expand, g2_update, g2_requests, g2_answer, g2_apply,
};

}  // namespace

extern "C" const bb_grid2d_ops_t *const bb_cuda_grid2d_ops_ptr = &cuda_grid2d_ops;
