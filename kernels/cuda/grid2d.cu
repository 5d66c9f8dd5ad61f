/* The 2D-partitioned BFS kernels on the GPU (kernels/grid2d.h), the same
 * steps as kernels/cpu/grid2d.c: the visited bitmap and the next frontier
 * are claimed with atomics [004 §3.4], so the order inside a list may
 * differ from the cpu backend's, but every set of vertices (and thus every
 * byte count) is the same: update runs one message after the other on the
 * stream, so the first sender to deliver a vertex gives its parent on both.
 * The expand is the 1D engine's load-balanced one (expand_lb.cuh: degree
 * scan, binsearch or merge path, K arcs per thread) with a consumer that does
 * Algorithm 3 of [004 §3.4]; lists that every thread appends to take one
 * atomic per warp stage (expand) or per block (update). */
#include "config.h"

#include <cub/block/block_scan.cuh>

#include "kernels/cuda/expand_lb.cuh"
#include "kernels/cuda/parent_scan.cuh"

extern "C" {
#include "kernels/grid2d.h"
}

namespace {

constexpr int kBlock = 256;   /* threads per block of the kernels other than expand */
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

/* Expand's consumer [004 §3.4, Algorithm 3]: the thread whose atomicOr sets
 * v's visited bit owns it for this device. An own vertex gets its level and
 * parent at once and joins the next frontier through the warp's stage
 * (binsearch; one atomic per kStage ids on the counter every warp adds to:
 * a 1 x 1 grid finds only own vertices), its out-degree summed per block
 * where bottom-up levels may run; any other goes to its owner's outbox
 * segment as the pair (block-local id, column-local parent u), with one
 * atomic per owner among the lanes. counters[ARCS] gets the arc total. */
struct Discover {
    uint32_t *visited, *outbox, *next_frontier;
    const uint32_t *degree;   /* NULL: no bottom-up levels, no out-arcs counted */
    int32_t *level;
    int64_t *pred;
    ull *bucket, *next, *arcs, *out_arcs;
    uint64_t col_first;   /* gid of column-local id 0 */
    uint64_t seg;         /* words per outbox segment */
    uint32_t bs, col;
    int32_t next_level;
    __device__ ull *next_arcs() const { return degree ? out_arcs : nullptr; }
    __device__ void start(uint64_t total) const { *arcs += total; }
    __device__ void flush(WarpStage *stage) const { stage->flush(next, next_frontier); }
    template <int K>
    __device__ void operator()(const bool (&valid)[K], const uint64_t (&e)[K],
                               const uint32_t (&v)[K], const uint32_t (&u)[K],
                               bb_block_sum &arcs_acc, WarpStage *stage) const
    {
        bool win[K], own[K];
        unsigned n = 0;
        ull deg = 0;
        (void)e;
#pragma unroll
        for (int j = 0; j < K; j++)   /* a plain read first: most arcs meet visited vertices */
            win[j] = valid[j] && !bb_is_visited(visited, 1, v[j]);
#pragma unroll
        for (int j = 0; j < K; j++) {
            if (win[j]) win[j] = bb_visit(visited, 1, v[j]);
            own[j] = win[j] && v[j] / bs == col;
            n += own[j];
        }
        uint32_t *to;
        ull slot = list_slot(stage, n, next, next_frontier, &to);
#pragma unroll
        for (int j = 0; j < K; j++)
            if (own[j]) {
                const uint32_t off = v[j] - col * bs;
                level[off] = next_level;
                pred[off] = (int64_t)(col_first + u[j]);
                to[slot++] = off;
                if (degree) deg += degree[off];
            }
        if (stage) __syncwarp();   /* staged before the next flush reads them */
        if (degree) bb_warp_add(&arcs_acc.value, deg);   /* shared: one atomic per block */
#pragma unroll
        for (int j = 0; j < K; j++)
            if (win[j] && !own[j]) {
                const uint32_t o = v[j] / bs;
                uint32_t *pair = outbox + (uint64_t)o * seg + 2 * bb_keyed_append(bucket, o);
                pair[0] = v[j] - o * bs;
                pair[1] = u[j];
            }
    }
};

using BlockScan = cub::BlockScan<unsigned, kBlock>;
struct BlockAppend {
    typename BlockScan::TempStorage scan;
    ull base;
};

/* This thread's first slot for its n items of a list behind counter, with
 * one atomic for the whole block (every thread of the block calls it). */
__device__ ull block_append(BlockAppend &s, ull *counter, unsigned n)
{
    unsigned at, total;
    BlockScan(s.scan).ExclusiveSum(n, at, total);
    if (threadIdx.x == 0 && total) s.base = atomicAdd(counter, (ull)total);
    __syncthreads();
    const ull slot = s.base + at;
    __syncthreads();   /* s is free for the next call */
    return slot;
}

/* A word per thread: its ids go after one atomic on the cursor per block
 * (one per word made a frontier of millions of ids wait on the cursor). */
__global__ void __launch_bounds__(kBlock)
    append_bitmap(const uint32_t *msg, uint64_t words, uint32_t offset, uint32_t *out,
                  ull *cursor)
{
    __shared__ BlockAppend app;
    const uint64_t w = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t bits = w < words ? msg[w] : 0u;
    ull at = block_append(app, cursor, (unsigned)__popc(bits));
    for (; bits; bits &= bits - 1)
        out[at++] = (uint32_t)(w * 32 + (uint64_t)(__ffs(bits) - 1)) + offset;
}

/* The out-degrees of the vertices a thread claimed (the bits won of word w
 * of the block) to counters[NEXT_ARCS], one atomic per warp, where
 * bottom-up levels may run (every lane calls it). */
__device__ void add_out_arcs(const bb_g2state_t &k, uint64_t w, uint32_t won)
{
    ull deg = 0;
    if (k.degree == nullptr) return;   /* grid-uniform */
    for (; won; won &= won - 1) deg += k.degree[w * 32 + (uint64_t)(__ffs(won) - 1)];
    bb_warp_add((ull *)k.counters + BB_G2_CTR_NEXT_ARCS, deg);
}

/* A pair of the message per thread (grid2d.h update): the vertex joins the
 * next frontier where it was not reached; a message holds it once, so a
 * plain test of its level is enough. */
__global__ void __launch_bounds__(kBlock)
    update_pairs(bb_g2state_t k, const uint32_t *pairs, uint64_t count, uint64_t base,
                 int32_t next_level)
{
    __shared__ BlockAppend app;
    const uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const uint32_t off = t < count ? pairs[2 * t] : 0;
    const bool won = t < count && off < k.nloc && k.level[off] < 0;
    if (won) {
        const uint64_t rl = (uint64_t)k.col * k.bs + off;
        k.level[off] = next_level;
        k.pred[off] = (int64_t)(base + pairs[2 * t + 1]);
        atomicOr(k.visited + (rl >> 5), 1u << (rl & 31));
    }
    const ull at = block_append(app, (ull *)k.counters + BB_G2_CTR_NEXT, won);
    if (won) k.next_frontier[at] = off;
    add_out_arcs(k, off / 32, won ? 1u << (off & 31) : 0u);
}

/* A list id per thread: its bit in a block of colbits (zeroed before). */
__global__ void mark_list(const uint32_t *msg, uint64_t count, uint32_t *block)
{
    uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < count) atomicOr(block + (msg[t] >> 5), 1u << (msg[t] & 31));
}

/* The own slice's bottom-up sub-step (grid2d.h bottom_up), as the 1D
 * bottom-up kernel: a warp per word of done_in; the finds go to
 * frontier_bits (every word written), their count and out-degrees summed
 * per block. */
__global__ void __launch_bounds__(kBlock)
    bottom_up_own(bb_g2state_t k, const uint32_t *done_in, uint32_t *done_out,
                  int32_t next_level)
{
    const uint64_t nwords = k.bs / 32, first = (uint64_t)k.col * k.bs;
    const uint64_t stride = ((uint64_t)gridDim.x * blockDim.x) >> 5;
    const uint64_t col_first = (uint64_t)k.col * k.rows * k.bs;
    __shared__ bb_block_sum found_acc, arcs_acc;
    ull found_n = 0, arcs = 0;
    found_acc.begin();
    arcs_acc.begin();
    for (uint64_t w = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5; w < nwords;
         w += stride) {   /* warp-uniform */
        const uint32_t in = done_in[w], off = (uint32_t)(w * 32 + bb_lane());
        uint32_t parent = 0;
        const bool found = bb_find_parent(k.toffsets, k.tcolumns, k.colbits, first + off,
                                          !((in >> bb_lane()) & 1u), &parent);
        const unsigned bits = __ballot_sync(BB_FULL_MASK, found);
        if (bb_lane() == 0) {   /* the words are this warp's alone */
            done_out[w] = in | bits;
            k.visited[(first >> 5) + w] |= in | bits;
            k.frontier_bits[w] = bits;
        }
        if (found) {
            k.level[off] = next_level;
            k.pred[off] = (int64_t)(col_first + parent);
            found_n++;
            arcs += k.degree[off];
        }
    }
    bb_warp_add(&found_acc.value, found_n);
    bb_warp_add(&arcs_acc.value, arcs);
    found_acc.end((ull *)k.counters + BB_G2_CTR_NEXT);
    arcs_acc.end((ull *)k.counters + BB_G2_CTR_NEXT_ARCS);
}

/* Another slice's bottom-up sub-step (grid2d.h bottom_up): a device-filling
 * grid of blocks, each taking 256 vertices of the slice at a time (a warp
 * per word of done_in, a thread per vertex); the pairs of those 256 take one
 * atomic. */
__global__ void __launch_bounds__(kBlock)
    bottom_up_slice(bb_g2state_t k, const uint32_t *done_in, uint32_t *done_out, int s)
{
    __shared__ BlockAppend app;
    const uint64_t first = (uint64_t)s * k.bs, stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t base = (uint64_t)blockIdx.x * blockDim.x; base < k.bs;
         base += stride) {   /* block-uniform: block_append's barriers */
        const uint64_t off = base + threadIdx.x, w = off >> 5;
        const bool word = w < k.bs / 32;   /* warp-uniform */
        const uint32_t in = word ? done_in[w] : ~0u;
        uint32_t parent = 0;
        const bool found = bb_find_parent(k.toffsets, k.tcolumns, k.colbits, first + off,
                                          word && !((in >> bb_lane()) & 1u), &parent);
        const unsigned bits = __ballot_sync(BB_FULL_MASK, found);
        if (word && bb_lane() == 0) {
            done_out[w] = in | bits;
            k.visited[(first >> 5) + w] |= in | bits;   /* this warp's word alone */
        }
        const ull at = block_append(app, (ull *)k.counters + BB_G2_CTR_BUCKET + s, found);
        if (found) {
            uint32_t *pair = k.outbox + (uint64_t)s * k.seg + 2 * at;
            pair[0] = (uint32_t)off;
            pair[1] = parent;
        }
    }
}

/* A pair per thread (grid2d.h settle); count and out-degrees per block. */
__global__ void __launch_bounds__(kBlock)
    settle_pairs(bb_g2state_t k, const uint32_t *pairs, uint64_t count, uint64_t base,
                 int32_t next_level)
{
    __shared__ bb_block_sum found_acc, arcs_acc;
    const uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    found_acc.begin();
    arcs_acc.begin();
    ull arcs = 0;
    if (t < count) {
        const uint32_t off = pairs[2 * t];
        const uint64_t rl = (uint64_t)k.col * k.bs + off;
        k.level[off] = next_level;
        k.pred[off] = (int64_t)(base + pairs[2 * t + 1]);
        atomicOr(k.visited + (rl >> 5), 1u << (rl & 31));
        atomicOr(k.frontier_bits + (off >> 5), 1u << (off & 31));
        arcs = k.degree[off];
    }
    bb_warp_add(&found_acc.value, t < count ? 1ull : 0ull);
    bb_warp_add(&arcs_acc.value, arcs);
    found_acc.end((ull *)k.counters + BB_G2_CTR_NEXT);
    arcs_acc.end((ull *)k.counters + BB_G2_CTR_NEXT_ARCS);
}

boxbfs_status_t g2_reset(const bb_g2state_t *k, void *stream, uint64_t root)
{
    cudaStream_t s = (cudaStream_t)stream;
    uint64_t row_ids = (uint64_t)k->cols * k->bs;
    BB_CHECK(bb_cuda_bind(stream));
    reset_owned<<<bb_cuda_blocks(k->bs, kBlock), kBlock, 0, s>>>(k->level, k->pred, k->bs);
    BB_CUDA_LAUNCH_CHECK();
    BB_CUDA_CHECK(cudaMemsetAsync(k->visited, 0, (row_ids / 32) * 4, s));
    BB_CUDA_CHECK(cudaMemsetAsync(k->counters, 0, BB_G2_CTR_COUNT(k->cols) * 8, s));
    if (k->prefix) BB_CUDA_CHECK(cudaMemsetAsync(k->prefix, 0, 8, s));
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
        append_list<<<bb_cuda_blocks(count, kBlock), kBlock, 0, s>>>(msg, count, offset,
                                                                          k->colfront + base);
        BB_CUDA_LAUNCH_CHECK();
        return BOXBFS_OK;
    }
    /* the cursor: counters[ARCS], zeroed again before expand counts into it */
    ull *cursor = (ull *)k->counters + BB_G2_CTR_ARCS;
    BB_CUDA_CHECK(cudaMemsetAsync(cursor, 0, sizeof *cursor, s));
    append_bitmap<<<bb_cuda_blocks(k->bs / 32, kBlock), kBlock, 0, s>>>(
        msg, k->bs / 32, offset, k->colfront + base, cursor);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t g2_expand(const bb_g2state_t *k, void *stream, uint64_t count,
                          int32_t next_level)
{
    ull *ctr = (ull *)k->counters;
    BB_CHECK(bb_cuda_bind(stream));
    if (count == 0) return BOXBFS_OK;
    ExpandArgs a{k->colfront, k->offsets, k->columns, k->scan, k->scratch, k->scratch_bytes,
                 count, k->expand, k->expand_k, k->expand_f0};
    if (k->prefix)   /* the visited-prefix skip: each row from its first head past the prefix */
        a.degree = DegreeOp{k->colfront, k->offsets, k->columns, k->rank, k->prefix + 1, k->skip};
    return expand_lb<false>(a, (cudaStream_t)stream,
                     Discover{k->visited, k->outbox, k->next_frontier, k->degree,
                              k->level, k->pred, ctr + BB_G2_CTR_BUCKET, ctr + BB_G2_CTR_NEXT,
                              ctr + BB_G2_CTR_ARCS, ctr + BB_G2_CTR_NEXT_ARCS,
                              (uint64_t)k->col * k->rows * k->bs, k->seg,
                              (uint32_t)k->bs, (uint32_t)k->col, next_level});
}

boxbfs_status_t g2_update(const bb_g2state_t *k, void *stream, const uint32_t *pairs,
                          uint64_t count, int src_col, int32_t next_level)
{
    cudaStream_t s = (cudaStream_t)stream;
    BB_CHECK(bb_cuda_bind(stream));
    if (count == 0) return BOXBFS_OK;
    update_pairs<<<bb_cuda_blocks(count, kBlock), kBlock, 0, s>>>(
        *k, pairs, count, (uint64_t)src_col * k->rows * k->bs, next_level);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t g2_mark(const bb_g2state_t *k, void *stream, const uint32_t *msg, int bitmap,
                        uint64_t count, int r)
{
    cudaStream_t s = (cudaStream_t)stream;
    uint32_t *block = k->colbits + (uint64_t)r * (k->bs / 32);
    BB_CHECK(bb_cuda_bind(stream));
    if (bitmap) {
        BB_CUDA_CHECK(cudaMemcpyAsync(block, msg, k->bs / 8, cudaMemcpyDeviceToDevice, s));
        return BOXBFS_OK;
    }
    BB_CUDA_CHECK(cudaMemsetAsync(block, 0, k->bs / 8, s));
    if (count == 0) return BOXBFS_OK;
    mark_list<<<bb_cuda_blocks(count, kBlock), kBlock, 0, s>>>(msg, count, block);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t g2_bottom_up(const bb_g2state_t *k, void *stream, const uint32_t *done_in,
                             uint32_t *done_out, int slice, int32_t next_level)
{
    cudaStream_t s = (cudaStream_t)stream;
    BB_CHECK(bb_cuda_bind(stream));
    if (k->toffsets == NULL || k->colbits == NULL)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "cuda 2D bottom_up: no transposed block");
    if (slice == k->col)   /* as 1D's: a device-filling grid, its warps taking word after
                              word (a block per 8 words paid a block's start, barriers and
                              two atomics on one counter 8 words at a time: kron:26 on 2 x
                              H200, 2 x 1 grid, 389 against 478 GTEPS) */
        bottom_up_own<<<bb_cuda_grid_for<bottom_up_own>(bb_cuda_blocks(k->bs, kBlock), kBlock),
                        kBlock, 0, s>>>(*k, done_in, done_out, next_level);
    else
        bottom_up_slice<<<bb_cuda_grid_for<bottom_up_slice>(bb_cuda_blocks(k->bs, kBlock),
                                                             kBlock),
                          kBlock, 0, s>>>(*k, done_in, done_out, slice);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t g2_settle(const bb_g2state_t *k, void *stream, const uint32_t *pairs,
                          uint64_t count, int src_col, int32_t next_level)
{
    cudaStream_t s = (cudaStream_t)stream;
    BB_CHECK(bb_cuda_bind(stream));
    if (count == 0) return BOXBFS_OK;
    settle_pairs<<<bb_cuda_blocks(count, kBlock), kBlock, 0, s>>>(
        *k, pairs, count, (uint64_t)src_col * k->rows * k->bs, next_level);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t g2_unpack(const bb_g2state_t *k, void *stream, const uint32_t *bits,
                          uint64_t count, uint32_t *out)
{
    cudaStream_t s = (cudaStream_t)stream;
    /* the cursor: counters[ARCS], as in append */
    ull *cursor = (ull *)k->counters + BB_G2_CTR_ARCS;
    BB_CHECK(bb_cuda_bind(stream));
    if (count == 0) return BOXBFS_OK;
    BB_CUDA_CHECK(cudaMemsetAsync(cursor, 0, sizeof *cursor, s));
    append_bitmap<<<bb_cuda_blocks(k->bs / 32, kBlock), kBlock, 0, s>>>(bits, k->bs / 32, 0, out,
                                                                          cursor);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t g2_raise_prefix(const bb_g2state_t *k, void *stream)
{
    BB_CHECK(bb_cuda_bind(stream));
    return bb_cuda_raise(k->prefix, k->by_rank, k->visited, 1, (uint64_t)k->cols * k->bs,
                         (cudaStream_t)stream);
}

/* The device loop of small top-down levels (grid2d_levels.cu). Lazy loading
 * (CUDA's default) loads a kernel at its first launch and may wait for the
 * context's running kernels to do so; the loop's kernels wait for each
 * other, so a first launch of unpack's kernel (run_loop's, before its
 * device's loop) beside a loop already waiting would never end: loaded here,
 * before this device's loop starts. */
boxbfs_status_t g2_levels(const bb_g2state_t *k, void *stream, const bb_g2loop_t *p)
{
    cudaFuncAttributes attr;
    BB_CHECK(bb_cuda_bind(stream));
    BB_CUDA_CHECK(cudaFuncGetAttributes(&attr, append_bitmap));
    return bb_cuda_g2_levels(k, stream, p);
}

const bb_grid2d_ops_t cuda_grid2d_ops = {
    g2_reset,     g2_append, g2_expand, g2_update,      g2_mark,
    g2_bottom_up, g2_settle, g2_unpack, g2_raise_prefix,
    g2_levels,
};

}  // namespace

extern "C" const bb_grid2d_ops_t *const bb_cuda_grid2d_ops_ptr = &cuda_grid2d_ops;
