/* Multi-source BFS kernels on the GPU (iBFS [000 §4, §6], kernels/msbfs.h):
 * a vertex's status bits of a group are NW 32-bit words read as one vector
 * load (uint32 / uint2 / uint4). Top-down: a thread per small joint-frontier
 * vertex, a block per large one (>= 32 arcs), atomic OR of the frontier's
 * bits into its neighbors' next words, skipped where they are set already.
 * Bottom-up: a thread per small unfinished vertex (4 in-arcs' loads in
 * flight), a warp per large one (64 in-neighbors' words OR-reduced per step,
 * so its arcs_touched counts whole steps), both stopping once all the
 * group's bits are set (early termination). Identification: one pass over
 * all vertices (after a bottom-up step with a short queue, over that queue
 * only), new = nxt ^ vis; per-instance counts by ballot + popc into
 * per-lane counters, queues appended with one atomic per block and queue.
 * Every kernel is a persistent grid-stride loop, counters summed per block. */
#include "config.h"

#include "kernels/cuda/cuda_kernels.h"

extern "C" {
#include "kernels/msbfs.h"
BB_DECLARE_MSBFS_KERNELS(bb_cuda)
}

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

template <int NW> struct bits_t { uint32_t w[NW]; };

/* Read-only path (vis during a step: nobody writes it then). */
template <int NW> __device__ __forceinline__ bits_t<NW> ld_ro(const uint32_t *p, uint64_t v)
{
    bits_t<NW> b;
    if constexpr (NW == 1) {
        b.w[0] = __ldg(p + v);
    } else if constexpr (NW == 2) {
        uint2 x = __ldg(reinterpret_cast<const uint2 *>(p) + v);
        b.w[0] = x.x; b.w[1] = x.y;
    } else {
        uint4 x = __ldg(reinterpret_cast<const uint4 *>(p) + v);
        b.w[0] = x.x; b.w[1] = x.y; b.w[2] = x.z; b.w[3] = x.w;
    }
    return b;
}

/* Coherent path (nxt: other threads OR into it during the kernel). */
template <int NW> __device__ __forceinline__ bits_t<NW> ld(const uint32_t *p, uint64_t v)
{
    bits_t<NW> b;
    if constexpr (NW == 1) {
        b.w[0] = *(volatile const uint32_t *)(p + v);
    } else if constexpr (NW == 2) {
        uint2 x = reinterpret_cast<const uint2 *>(p)[v];
        b.w[0] = x.x; b.w[1] = x.y;
    } else {
        uint4 x = reinterpret_cast<const uint4 *>(p)[v];
        b.w[0] = x.x; b.w[1] = x.y; b.w[2] = x.z; b.w[3] = x.w;
    }
    return b;
}

template <int NW> __device__ __forceinline__ void st(uint32_t *p, uint64_t v, const bits_t<NW> &b)
{
    if constexpr (NW == 1) p[v] = b.w[0];
    else if constexpr (NW == 2) reinterpret_cast<uint2 *>(p)[v] = make_uint2(b.w[0], b.w[1]);
    else reinterpret_cast<uint4 *>(p)[v] = make_uint4(b.w[0], b.w[1], b.w[2], b.w[3]);
}

template <int NW> __device__ __forceinline__ bool is_full(const bits_t<NW> &b, const bb_ms_state_t &k)
{
    bool f = true;
#pragma unroll
    for (int j = 0; j < NW; j++) f &= (b.w[j] & k.full[j]) == k.full[j];
    return f;
}

/* nxt[w] |= s, by atomics on the words (pairs as 64-bit) that miss bits. */
template <int NW> __device__ __forceinline__ void or_next(const bb_ms_state_t &k, uint32_t w,
                                                          const bits_t<NW> &s)
{
    bits_t<NW> cur = ld<NW>(k.nxt, w);
    uint32_t *p = k.nxt + (uint64_t)w * NW;
    if constexpr (NW == 1) {
        if (s.w[0] & ~cur.w[0]) atomicOr(p, s.w[0]);
    } else {
#pragma unroll
        for (int j = 0; j < NW; j += 2)
            if ((s.w[j] & ~cur.w[j]) | (s.w[j + 1] & ~cur.w[j + 1]))
                atomicOr(reinterpret_cast<unsigned long long *>(p + j),
                         (unsigned long long)s.w[j] | ((unsigned long long)s.w[j + 1] << 32));
    }
}

template <int NW> __global__ void __launch_bounds__(kThreads)
top_down_small(bb_ms_state_t k, uint64_t count)
{
    __shared__ bb_block_sum touched_acc;
    unsigned long long touched = 0;
    touched_acc.begin();
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count;
         i += (uint64_t)gridDim.x * blockDim.x) {
        const uint32_t f = k.td_queue[i];
        const bits_t<NW> s = ld_ro<NW>(k.vis, f);
        const int64_t end = __ldg(k.offsets + f + 1);
        for (int64_t e = __ldg(k.offsets + f); e < end; e++) or_next<NW>(k, __ldg(k.columns + e), s);
        touched += (unsigned long long)(end - __ldg(k.offsets + f));
    }
    bb_warp_add(&touched_acc.value, touched);
    touched_acc.end((unsigned long long *)k.counters + BB_MS_TOUCHED);
}

/* A block per large frontier vertex: a hub's thousands of arcs spread over
 * the block's threads (a warp per hub left the GPU mostly idle). */
template <int NW> __global__ void __launch_bounds__(kThreads)
top_down_large(bb_ms_state_t k, uint64_t count)
{
    __shared__ bb_block_sum touched_acc;
    unsigned long long touched = 0;
    touched_acc.begin();
    for (uint64_t i = blockIdx.x; i < count; i += gridDim.x) {   /* block-uniform */
        const uint32_t f = k.td_queue[k.n - 1 - i];
        const bits_t<NW> s = ld_ro<NW>(k.vis, f);
        const int64_t beg = __ldg(k.offsets + f), end = __ldg(k.offsets + f + 1);
        for (int64_t e = beg + threadIdx.x; e < end; e += kThreads)
            or_next<NW>(k, __ldg(k.columns + e), s);
        if (threadIdx.x == 0) touched += (unsigned long long)(end - beg);
    }
    bb_warp_add(&touched_acc.value, touched);
    touched_acc.end((unsigned long long *)k.counters + BB_MS_TOUCHED);
}

/* A thread per small unfinished vertex: its in-arcs kChunk at a time, the
 * column and status loads of a chunk in flight together, then ORed in order
 * with the full test after each (the same arcs inspected as one by one). */
constexpr int kChunk = 4;

template <int NW> __global__ void __launch_bounds__(kThreads)
bottom_up_small(bb_ms_state_t k, uint64_t count)
{
    __shared__ bb_block_sum touched_acc;
    unsigned long long touched = 0;
    touched_acc.begin();
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count;
         i += (uint64_t)gridDim.x * blockDim.x) {
        const uint32_t f = k.bu_queue[i];
        bits_t<NW> acc = ld<NW>(k.nxt, f);
        const int64_t beg = __ldg(k.in_offsets + f), end = __ldg(k.in_offsets + f + 1);
        int64_t e = beg, stop = end;
        for (; e < end && stop == end; e += kChunk) {
            uint32_t c[kChunk];
            bits_t<NW> s[kChunk];
#pragma unroll
            for (int x = 0; x < kChunk; x++) c[x] = e + x < end ? __ldg(k.in_columns + e + x) : 0;
#pragma unroll
            for (int x = 0; x < kChunk; x++)
                if (e + x < end) s[x] = ld_ro<NW>(k.vis, c[x]);
#pragma unroll
            for (int x = 0; x < kChunk; x++) {
                if (e + x < end && stop == end) {
#pragma unroll
                    for (int j = 0; j < NW; j++) acc.w[j] |= s[x].w[j];
                    if (is_full<NW>(acc, k)) stop = e + x + 1;   /* early termination */
                }
            }
        }
        st<NW>(k.nxt, f, acc);
        touched += (unsigned long long)(stop - beg);
    }
    bb_warp_add(&touched_acc.value, touched);
    touched_acc.end((unsigned long long *)k.counters + BB_MS_TOUCHED);
}

template <int NW> __global__ void __launch_bounds__(kThreads)
bottom_up_large(bb_ms_state_t k, uint64_t count)
{
    __shared__ bb_block_sum touched_acc;
    unsigned long long touched = 0;
    const uint64_t warps = ((uint64_t)gridDim.x * blockDim.x) >> 5;
    touched_acc.begin();
    for (uint64_t i = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5; i < count;
         i += warps) {   /* warp-uniform */
        const uint32_t f = k.bu_queue[k.n - 1 - i];
        bits_t<NW> acc = ld<NW>(k.nxt, f);
        const int64_t beg = __ldg(k.in_offsets + f), end = __ldg(k.in_offsets + f + 1);
        int64_t base = beg;
        for (; base < end; base += 64) {   /* warp-uniform; 64 loads in flight */
            const int64_t e0 = base + bb_lane(), e1 = e0 + 32;
            const uint32_t c0 = e0 < end ? __ldg(k.in_columns + e0) : 0;
            const uint32_t c1 = e1 < end ? __ldg(k.in_columns + e1) : 0;
            bits_t<NW> s0, s1;
#pragma unroll
            for (int j = 0; j < NW; j++) s0.w[j] = s1.w[j] = 0;
            if (e0 < end) s0 = ld_ro<NW>(k.vis, c0);
            if (e1 < end) s1 = ld_ro<NW>(k.vis, c1);
#pragma unroll
            for (int j = 0; j < NW; j++) acc.w[j] |= __reduce_or_sync(BB_FULL_MASK, s0.w[j] | s1.w[j]);
            if (is_full<NW>(acc, k)) {   /* early termination */
                base += 64;
                break;
            }
        }
        if (bb_lane() == 0) {
            st<NW>(k.nxt, f, acc);
            touched += (unsigned long long)((base < end ? base : end) - beg);
        }
    }
    bb_warp_add(&touched_acc.value, touched);
    touched_acc.end((unsigned long long *)k.counters + BB_MS_TOUCHED);
}

/* Slots for the flagged threads of the block in four queues at once: one
 * global atomic per block and queue. Every thread of the block calls it. */
struct push4 {
    unsigned counts[4][kWarps];
    unsigned long long base[4];
};

__device__ __forceinline__ void block_push(push4 &sh, const bool want[4], unsigned long long *ctr,
                                          const int which[4], uint64_t slot[4])
{
    const int warp = threadIdx.x >> 5;
    const unsigned lane = bb_lane(), below = (1u << lane) - 1u;
    unsigned m[4];
#pragma unroll
    for (int q = 0; q < 4; q++) {
        m[q] = __ballot_sync(BB_FULL_MASK, want[q]);
        if (lane == 0) sh.counts[q][warp] = __popc(m[q]);
    }
    __syncthreads();
    if (threadIdx.x < 4) {
        const int q = threadIdx.x;
        unsigned total = 0;
        for (int w = 0; w < kWarps; w++) {
            unsigned c = sh.counts[q][w];
            sh.counts[q][w] = total;
            total += c;
        }
        sh.base[q] = total ? atomicAdd(ctr + which[q], (unsigned long long)total) : 0;
    }
    __syncthreads();
#pragma unroll
    for (int q = 0; q < 4; q++) slot[q] = sh.base[q] + sh.counts[q][warp] + __popc(m[q] & below);
    __syncthreads();
}

template <int NW> __global__ void __launch_bounds__(kThreads)
identify(bb_ms_state_t k, int32_t level, int from_queue, uint64_t small, uint64_t large)
{
    __shared__ push4 sh;
    __shared__ unsigned long long fresh_acc[BB_MS_MAX_GROUP];
    __shared__ uint32_t keep[4];
    __shared__ bb_block_sum td_arcs_acc, bu_arcs_acc;
    unsigned long long *ctr = (unsigned long long *)k.counters;
    const unsigned lane = bb_lane();
    const uint64_t n = k.n, stride = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t items = from_queue ? small + large : n;
    unsigned cnt[NW];
    unsigned long long td_arcs = 0, bu_arcs = 0;
    const int which[4] = {BB_MS_TD_SMALL, BB_MS_TD_LARGE, BB_MS_BU_SMALL, BB_MS_BU_LARGE};
#pragma unroll
    for (int j = 0; j < NW; j++) cnt[j] = 0;
    if (threadIdx.x < 4) keep[threadIdx.x] = 0;
    if (threadIdx.x < BB_MS_MAX_GROUP) fresh_acc[threadIdx.x] = 0;
    td_arcs_acc.begin();
    bu_arcs_acc.begin();
    if (threadIdx.x < 32 * NW && __ldg(k.keep_slot + threadIdx.x) >= 0)
        atomicOr(&keep[threadIdx.x >> 5], 1u << (threadIdx.x & 31));
    __syncthreads();
    /* the whole block runs the same iterations (block_push synchronizes) */
    for (uint64_t base = (uint64_t)blockIdx.x * blockDim.x; base < items; base += stride) {
        const uint64_t item = base + threadIdx.x;
        const bool valid = item < items;
        const uint64_t v = !valid || !from_queue ? item
                           : item < small ? k.bu_queue[item] : k.bu_queue[n - 1 - (item - small)];
        bits_t<NW> ov, nv, fresh;
        uint32_t any = 0;
        bool want[4] = {false, false, false, false};
        uint64_t slot[4];
        uint32_t deg = 0, indeg = 0;
        if (valid) {
            ov = ld<NW>(k.vis, v);
            nv = ld<NW>(k.nxt, v);
#pragma unroll
            for (int j = 0; j < NW; j++) {
                fresh.w[j] = nv.w[j] ^ ov.w[j];
                any |= fresh.w[j];
            }
            if (any) {
                st<NW>(k.vis, v, nv);
                deg = (uint32_t)(__ldg(k.offsets + v + 1) - __ldg(k.offsets + v));
                want[deg >= BB_MS_LARGE_DEGREE ? 1 : 0] = true;
                td_arcs += deg;
#pragma unroll
                for (int j = 0; j < NW; j++)   /* kept instances: their depth */
                    for (uint32_t w = fresh.w[j] & keep[j]; w; w &= w - 1) {
                        const int i = j * 32 + __ffs(w) - 1;
                        k.depths[(uint64_t)__ldg(k.keep_slot + i) * n + v] = level;
                    }
            }
            indeg = (uint32_t)(__ldg(k.in_offsets + v + 1) - __ldg(k.in_offsets + v));
            if (indeg > 0 && !is_full<NW>(nv, k)) {
                want[indeg >= BB_MS_LARGE_DEGREE ? 3 : 2] = true;
                bu_arcs += indeg;
            }
        } else {
#pragma unroll
            for (int j = 0; j < NW; j++) fresh.w[j] = 0;
        }
        /* per-instance counts: lane b of the warp counts bit b of word j */
#pragma unroll
        for (int j = 0; j < NW; j++) {
            for (uint32_t bitsw = __reduce_or_sync(BB_FULL_MASK, fresh.w[j]); bitsw;
                 bitsw &= bitsw - 1) {
                const int b = __ffs(bitsw) - 1;
                const unsigned m = __ballot_sync(BB_FULL_MASK, (fresh.w[j] >> b) & 1u);
                if (lane == (unsigned)b) cnt[j] += __popc(m);
            }
        }
        block_push(sh, want, ctr, which, slot);
        if (want[0]) k.td_queue[slot[0]] = (uint32_t)v;
        if (want[1]) k.td_queue[n - 1 - slot[1]] = (uint32_t)v;
        if (want[2]) k.bu_next[slot[2]] = (uint32_t)v;
        if (want[3]) k.bu_next[n - 1 - slot[3]] = (uint32_t)v;
    }
#pragma unroll
    for (int j = 0; j < NW; j++)
        if (cnt[j]) atomicAdd(&fresh_acc[j * 32 + lane], (unsigned long long)cnt[j]);
    bb_warp_add(&td_arcs_acc.value, td_arcs);
    bb_warp_add(&bu_arcs_acc.value, bu_arcs);
    __syncthreads();
    if (threadIdx.x < 32 * NW && fresh_acc[threadIdx.x])
        atomicAdd(ctr + BB_MS_NEW + threadIdx.x, fresh_acc[threadIdx.x]);
    td_arcs_acc.end(ctr + BB_MS_TD_ARCS);
    bu_arcs_acc.end(ctr + BB_MS_BU_ARCS);
}

/* The warp's sum of x (32-bit) into lane b's 64-bit total; values of 2^27 or
 * more are summed as two halves so that 32 of them cannot overflow. */
__device__ __forceinline__ unsigned long long warp_sum(uint32_t x, bool big)
{
    if (!big) return __reduce_add_sync(BB_FULL_MASK, x);
    return (unsigned long long)__reduce_add_sync(BB_FULL_MASK, x & 0xffffu) +
           ((unsigned long long)__reduce_add_sync(BB_FULL_MASK, x >> 16) << 16);
}

template <int NW> __global__ void __launch_bounds__(kThreads) finish(bb_ms_state_t k)
{
    __shared__ unsigned long long credit_acc[BB_MS_MAX_GROUP], arcs_acc[BB_MS_MAX_GROUP];
    unsigned long long *ctr = (unsigned long long *)k.counters;
    const unsigned lane = bb_lane();
    unsigned long long credit_sum[NW], arcs_sum[NW];
#pragma unroll
    for (int j = 0; j < NW; j++) credit_sum[j] = arcs_sum[j] = 0;
    if (threadIdx.x < BB_MS_MAX_GROUP) credit_acc[threadIdx.x] = arcs_acc[threadIdx.x] = 0;
    __syncthreads();
    for (uint64_t base = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) & ~31ull; base < k.n;
         base += (uint64_t)gridDim.x * blockDim.x) {   /* warp-uniform */
        const uint64_t v = base + lane;
        bits_t<NW> s;
        uint32_t credit = 0, deg = 0;
        if (v < k.n) {
            s = ld_ro<NW>(k.vis, v);
            credit = __ldg(k.credit + v);
            deg = (uint32_t)(__ldg(k.offsets + v + 1) - __ldg(k.offsets + v));
        } else {
#pragma unroll
            for (int j = 0; j < NW; j++) s.w[j] = 0;
        }
        const bool big = __any_sync(BB_FULL_MASK, credit >= (1u << 27) || deg >= (1u << 27));
#pragma unroll
        for (int j = 0; j < NW; j++)
            for (uint32_t bitsw = __reduce_or_sync(BB_FULL_MASK, s.w[j]); bitsw; bitsw &= bitsw - 1) {
                const int b = __ffs(bitsw) - 1;
                const bool on = (s.w[j] >> b) & 1u;
                const unsigned long long c = warp_sum(on ? credit : 0, big);
                const unsigned long long a = warp_sum(on ? deg : 0, big);
                if (lane == (unsigned)b) {
                    credit_sum[j] += c;
                    arcs_sum[j] += a;
                }
            }
    }
#pragma unroll
    for (int j = 0; j < NW; j++) {
        if (credit_sum[j]) atomicAdd(&credit_acc[j * 32 + lane], credit_sum[j]);
        if (arcs_sum[j]) atomicAdd(&arcs_acc[j * 32 + lane], arcs_sum[j]);
    }
    __syncthreads();
    if (threadIdx.x < 32 * NW) {
        if (credit_acc[threadIdx.x]) atomicAdd(ctr + BB_MS_CREDIT + threadIdx.x, credit_acc[threadIdx.x]);
        if (arcs_acc[threadIdx.x]) atomicAdd(ctr + BB_MS_ARCS + threadIdx.x, arcs_acc[threadIdx.x]);
    }
}

__global__ void seed(bb_ms_state_t k, int count)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) k.nxt[(uint64_t)__ldg(k.sources + i) * k.nw + (i >> 5)] |= 1u << (i & 31);
}

/* Launch Kernel<NW> for the state's word count on a persistent grid. */
#define BB_MS_DISPATCH(KERNEL, ...)                                                        \
    do {                                                                                   \
        switch (k->nw) {                                                                   \
        case 1: KERNEL<1><<<bb_cuda_persistent_grid<KERNEL<1>>(kThreads), kThreads, 0, s>>>(__VA_ARGS__); break; \
        case 2: KERNEL<2><<<bb_cuda_persistent_grid<KERNEL<2>>(kThreads), kThreads, 0, s>>>(__VA_ARGS__); break; \
        case 4: KERNEL<4><<<bb_cuda_persistent_grid<KERNEL<4>>(kThreads), kThreads, 0, s>>>(__VA_ARGS__); break; \
        default:                                                                           \
            return bb_error_set(BOXBFS_ERR_INTERNAL, "msbfs: %d status words per vertex", k->nw); \
        }                                                                                  \
        BB_CUDA_LAUNCH_CHECK();                                                            \
    } while (0)

} // namespace

extern "C" {

boxbfs_status_t bb_cuda_ms_seed(const bb_ms_state_t *k, void *stream, int count, int depth_rows)
{
    cudaStream_t s = (cudaStream_t)stream;
    size_t words = (size_t)k->n * (size_t)k->nw;
    BB_CHECK(bb_cuda_bind(stream));
    BB_CUDA_CHECK(cudaMemsetAsync(k->vis, 0, words * 4, s));
    BB_CUDA_CHECK(cudaMemsetAsync(k->nxt, 0, words * 4, s));
    if (depth_rows > 0)
        BB_CUDA_CHECK(cudaMemsetAsync(k->depths, 0xff, (size_t)depth_rows * (size_t)k->n * 4, s));
    seed<<<1, BB_MS_MAX_GROUP, 0, s>>>(*k, count);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t bb_cuda_ms_top_down(const bb_ms_state_t *k, void *stream, uint64_t small,
                                    uint64_t large)
{
    cudaStream_t s = (cudaStream_t)stream;
    BB_CHECK(bb_cuda_bind(stream));
    if (small) BB_MS_DISPATCH(top_down_small, *k, small);
    if (large) BB_MS_DISPATCH(top_down_large, *k, large);
    return BOXBFS_OK;
}

boxbfs_status_t bb_cuda_ms_bottom_up(const bb_ms_state_t *k, void *stream, uint64_t small,
                                     uint64_t large)
{
    cudaStream_t s = (cudaStream_t)stream;
    BB_CHECK(bb_cuda_bind(stream));
    if (small) BB_MS_DISPATCH(bottom_up_small, *k, small);
    if (large) BB_MS_DISPATCH(bottom_up_large, *k, large);
    return BOXBFS_OK;
}

boxbfs_status_t bb_cuda_ms_identify(const bb_ms_state_t *k, void *stream, int32_t level,
                                    int from_queue, uint64_t small, uint64_t large)
{
    cudaStream_t s = (cudaStream_t)stream;
    BB_CHECK(bb_cuda_bind(stream));
    BB_MS_DISPATCH(identify, *k, level, from_queue, small, large);
    return BOXBFS_OK;
}

boxbfs_status_t bb_cuda_ms_finish(const bb_ms_state_t *k, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    BB_CHECK(bb_cuda_bind(stream));
    BB_MS_DISPATCH(finish, *k);
    return BOXBFS_OK;
}

static const bb_msbfs_ops_t cuda_msbfs_ops = {
    bb_cuda_ms_seed, bb_cuda_ms_top_down, bb_cuda_ms_bottom_up, bb_cuda_ms_identify,
    bb_cuda_ms_finish,
};
const bb_msbfs_ops_t *const bb_cuda_msbfs_ops_ptr = &cuda_msbfs_ops;

} // extern "C"
