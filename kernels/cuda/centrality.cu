/* The cuda backend's centrality kernels (kernels/centrality.h).
 *
 * Frontier form: push is a warp per frontier vertex, lanes over its arcs; a
 * head's level goes -1 -> next by compare-and-swap, and every arc into a head
 * at the next level adds its tail's count with one 64-bit atomic (a wrap sets
 * the overflow counter). Pull is a group of 8 lanes per unreached vertex over
 * its in-arcs, testing the frontier as a bitmap (n / 8 bytes: it stays in L2).
 * Discoveries are appended with one atomic per warp.
 *
 * SpMV forms [TurboBFS 001]: CSC scalar (a thread per vertex), CSC vector (a
 * warp per vertex, shuffle reduction), COOC (a thread per arc, atomics into
 * f_t), then one kernel for mask + update; bottom-up with early exit (thread
 * or warp per vertex), then the found vertices' counts. */
#include "config.h"

#include "kernels/cuda/cuda_kernels.h"

extern "C" {
#include "kernels/centrality.h"
}

namespace {

constexpr int kThreads = 256;
constexpr int kGroup = 8;   /* lanes per vertex in pull and backward */
constexpr uint64_t kBlockPush = 4096;
constexpr unsigned kPullBlocks = 132 * 8;   /* pull's grid: the counts go out once per warp */   /* frontiers up to this size: a block per vertex */

__device__ __forceinline__ unsigned long long *ctr(const bb_cstate_t &k, int i)
{
    return (unsigned long long *)k.counters + i;
}

/* sigma[lid] += x; a wrap raises the overflow counter. */
__device__ __forceinline__ void add_count(const bb_cstate_t &k, uint32_t lid, uint64_t x)
{
    unsigned long long old = atomicAdd((unsigned long long *)k.sigma + lid, (unsigned long long)x);
    if (old + x < old) *ctr(k, BB_CC_OVERFLOW) = 1;
}

/* Warp-uniform: lanes with found set append lid to next and add their
 * degree and credit. */
__device__ __forceinline__ void append_found(const bb_cstate_t &k, bool found, uint32_t lid)
{
    unsigned long long slot = bb_warp_append(ctr(k, BB_CC_NEXT), found ? 1u : 0u);
    if (found) k.next[slot] = lid;
    bb_warp_add(ctr(k, BB_CC_NEXT_ARCS),
                found ? (unsigned long long)(k.offsets[lid + 1] - k.offsets[lid]) : 0ull);
    bb_warp_add(ctr(k, BB_CC_CREDIT), found ? (unsigned long long)k.credit[lid] : 0ull);
}

/* The fused update of an arc's count into an owned vertex; true when this
 * thread discovered it. */
__device__ __forceinline__ bool update(const bb_cstate_t &k, uint32_t lid, uint64_t x,
                                       int32_t next_level)
{
    int32_t lvl = k.level[lid];
    bool won = false;
    if (lvl == -1) {
        lvl = atomicCAS((int *)k.level + lid, -1, next_level);
        won = lvl == -1;
        if (won) lvl = next_level;
    }
    if (lvl == next_level) add_count(k, lid, x);
    return won;
}

__global__ void reset_kernel(bb_cstate_t k)
{
    uint64_t nloc = k.hi - k.lo;
    for (uint64_t v = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; v < nloc;
         v += (uint64_t)gridDim.x * blockDim.x) {
        k.level[v] = -1;
        k.sigma[v] = 0;
        if (k.f) k.f[v] = 0;
        if (k.delta) k.delta[v] = 0;
    }
}

__global__ void reset_root(bb_cstate_t k, uint64_t root)
{
    if (root < k.lo || root >= k.hi) return;
    uint32_t lid = (uint32_t)(root - k.lo);
    k.level[lid] = 0;
    k.sigma[lid] = 1;
    if (k.f) k.f[lid] = 1;
    k.frontier[0] = lid;
    k.counters[BB_CC_NEXT] = 1;
    k.counters[BB_CC_NEXT_ARCS] = (uint64_t)(k.offsets[lid + 1] - k.offsets[lid]);
    k.counters[BB_CC_CREDIT] = (uint64_t)k.credit[lid];
}

/* Lanes lanes (a warp, or a whole block for small frontiers, where the hubs
 * of the first levels are) per frontier vertex; each warp of the group takes
 * every (Lanes / 32)-th chunk of 32 arcs, so the appends stay warp-uniform. */
template <int Lanes>
__global__ void push_kernel(bb_cstate_t k, uint64_t count, int32_t next_level)
{
    uint64_t group = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) / Lanes;
    uint64_t groups = ((uint64_t)gridDim.x * blockDim.x) / Lanes;
    unsigned lane = bb_lane(), wig = (threadIdx.x % Lanes) / 32;
    for (uint64_t i = group; i < count; i += groups) {
        uint32_t u = k.frontier[i];
        uint64_t s = k.sigma[u];
        int64_t beg = k.offsets[u], end = k.offsets[u + 1];
        for (int64_t e0 = beg + 32 * (int64_t)wig; e0 < end; e0 += Lanes) {
            int64_t e = e0 + lane;
            bool found = false;
            uint32_t lid = 0;
            if (e < end) {
                uint64_t v = k.columns[e];
                if (v >= k.lo && v < k.hi) {
                    lid = (uint32_t)(v - k.lo);
                    found = update(k, lid, s, next_level);
                } else {
                    int o = bb_owner(k.range_lo, k.ndev, v);
                    unsigned long long slot =
                        k.seg_lo[o] + atomicAdd(ctr(k, BB_CC_SEND + o), 1ull);
                    k.out_vid[slot] = (uint32_t)(v - k.range_lo[o]);
                    k.out_sig[slot] = s;
                }
            }
            append_found(k, found, lid);
        }
    }
}

__global__ void apply_kernel(bb_cstate_t k, const uint32_t *vid, const uint64_t *sig,
                             uint64_t count, int32_t next_level)
{
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t base = blockIdx.x * (uint64_t)blockDim.x; base < count; base += stride) {
        uint64_t i = base + threadIdx.x;
        bool found = false;
        uint32_t lid = 0;
        if (i < count) {
            lid = vid[i];
            found = update(k, lid, sig[i], next_level);
        }
        append_found(k, found, lid);
    }
}

/* fbits = the vertices at level, a warp per 32-bit word (no atomics). */
__global__ void level_bits_kernel(bb_cstate_t k, int32_t level)
{
    uint64_t nloc = k.hi - k.lo, words = (nloc + 31) / 32;
    uint64_t warp = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) >> 5;
    uint64_t warps = ((uint64_t)gridDim.x * blockDim.x) >> 5;
    for (uint64_t w = warp; w < words; w += warps) {
        uint64_t v = w * 32 + bb_lane();
        unsigned bits = __ballot_sync(BB_FULL_MASK, v < nloc && k.level[v] == level);
        if (bb_lane() == 0) k.fbits[w] = bits;
    }
}

/* Sum of a group's lanes (width kGroup) with a wrap flag; full warp. */
__device__ __forceinline__ uint64_t group_sum(uint64_t s, bool *wrap)
{
#pragma unroll
    for (int d = kGroup / 2; d > 0; d >>= 1) {
        uint64_t o = __shfl_down_sync(BB_FULL_MASK, s, d, kGroup);
        bool ow = __shfl_down_sync(BB_FULL_MASK, (int)*wrap, d, kGroup);
        *wrap = *wrap || ow || s + o < s;
        s += o;
    }
    return s;
}

/* Whether any lane of the caller's group (width kGroup) has b; full warp. */
__device__ __forceinline__ bool group_any(bool b)
{
    unsigned ballot = __ballot_sync(BB_FULL_MASK, b);
    unsigned group = ((1u << kGroup) - 1) << (bb_lane() / kGroup * kGroup);
    return (ballot & group) != 0;
}

/* A thread's discoveries, summed over the warp and added with one atomic
 * per counter per warp at the end of a grid-stride kernel. */
__device__ __forceinline__ void flush_counts(const bb_cstate_t &k, unsigned long long cnt,
                                             unsigned long long arcs, unsigned long long credit)
{
    bb_warp_add(ctr(k, BB_CC_NEXT), cnt);
    bb_warp_add(ctr(k, BB_CC_NEXT_ARCS), arcs);
    bb_warp_add(ctr(k, BB_CC_CREDIT), credit);
}

/* kGroup lanes per unreached vertex of at most BB_CC_HEAVY in-arcs; the arc
 * loop runs the warp's longest trip count so that every lane reaches the
 * shuffles. A grid of bounded size: the counts go out once per warp. */
__global__ void pull_kernel(bb_cstate_t k, int32_t next_level)
{
    uint64_t nloc = k.hi - k.lo;
    uint64_t per_block = blockDim.x / kGroup;
    unsigned sub = threadIdx.x % kGroup;
    unsigned long long cnt = 0, arcs = 0, credit = 0;
    for (uint64_t base = blockIdx.x * per_block; base < nloc; base += (uint64_t)gridDim.x * per_block) {
        uint64_t v = base + threadIdx.x / kGroup;
        bool live = v < nloc && k.level[v] == -1;
        int64_t beg = live ? k.in_offsets[v] : 0, end = live ? k.in_offsets[v + 1] : 0;
        if (end - beg > BB_CC_HEAVY) live = false, end = beg;   /* pull_heavy_kernel's */
        unsigned trips = (unsigned)((end - beg + kGroup - 1) / kGroup);
        trips = __reduce_max_sync(BB_FULL_MASK, trips);
        uint64_t s = 0;
        bool wrap = false, hit = false;   /* hit, not s != 0: a count may wrap to 0 */
        for (unsigned t = 0; t < trips; t++) {
            int64_t e = beg + (int64_t)t * kGroup + sub;
            if (e < end) {
                uint32_t u = k.in_columns[e];
                if (__ldg(k.fbits + (u >> 5)) >> (u & 31) & 1u) {
                    uint64_t x = k.sigma[u];
                    wrap = wrap || s + x < s;
                    s += x;
                    hit = true;
                }
            }
        }
        s = group_sum(s, &wrap);
        hit = group_any(hit);
        if (live && sub == 0 && hit) {
            k.level[v] = next_level;
            k.sigma[v] = s;
            if (wrap) *ctr(k, BB_CC_OVERFLOW) = 1;
            cnt++;
            arcs += (unsigned long long)(k.offsets[v + 1] - k.offsets[v]);
            credit += (unsigned long long)k.credit[v];
        }
    }
    flush_counts(k, cnt, arcs, credit);
}

/* Block-wide sum of a 64-bit count with its wrap flag (every thread calls). */
__device__ uint64_t block_sum(uint64_t s, bool *wrap)
{
    __shared__ unsigned long long part[kThreads / 32];
    __shared__ int wraps;
    if (threadIdx.x == 0) wraps = 0;
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) {
        uint64_t o = __shfl_down_sync(BB_FULL_MASK, s, d);
        *wrap = *wrap || s + o < s;
        s += o;
    }
    __syncthreads();
    if (*wrap) wraps = 1;
    if (bb_lane() == 0) part[threadIdx.x / 32] = s;
    __syncthreads();
    s = 0;
    if (threadIdx.x == 0)
        for (int w = 0; w < kThreads / 32; w++) {
            *wrap = *wrap || s + part[w] < s;
            s += part[w];
        }
    if (threadIdx.x == 0 && wraps) *wrap = true;
    __syncthreads();
    return s;   /* thread 0's */
}

/* A block per unreached heavy vertex. */
__global__ void pull_heavy_kernel(bb_cstate_t k, int32_t next_level)
{
    for (uint64_t i = blockIdx.x; i < k.nheavy_in; i += gridDim.x) {
        uint32_t v = k.heavy_in[i];
        if (k.level[v] != -1) continue;   /* block-uniform */
        uint64_t s = 0;
        bool wrap = false, hit = false;
        for (int64_t e = k.in_offsets[v] + threadIdx.x; e < k.in_offsets[v + 1]; e += blockDim.x) {
            uint32_t u = k.in_columns[e];
            if (__ldg(k.fbits + (u >> 5)) >> (u & 31) & 1u) {
                uint64_t x = k.sigma[u];
                wrap = wrap || s + x < s;
                s += x;
                hit = true;
            }
        }
        s = block_sum(s, &wrap);
        hit = __syncthreads_or(hit);
        if (threadIdx.x == 0 && hit) {
            k.level[v] = next_level;
            k.sigma[v] = s;
            if (wrap) *ctr(k, BB_CC_OVERFLOW) = 1;
            atomicAdd(ctr(k, BB_CC_NEXT), 1ull);
            atomicAdd(ctr(k, BB_CC_NEXT_ARCS), (unsigned long long)(k.offsets[v + 1] - k.offsets[v]));
            atomicAdd(ctr(k, BB_CC_CREDIT), (unsigned long long)k.credit[v]);
        }
    }
}

/* frontier = the lids at level, one atomic per warp that has any. */
__global__ void gather_kernel(bb_cstate_t k, int32_t level)
{
    uint64_t nloc = k.hi - k.lo, stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t base = blockIdx.x * (uint64_t)blockDim.x; base < nloc; base += stride) {
        uint64_t v = base + threadIdx.x;
        bool hit = v < nloc && k.level[v] == level;
        unsigned long long slot = bb_warp_append(ctr(k, BB_CC_GATHER), hit ? 1u : 0u);
        if (hit) k.frontier[slot] = (uint32_t)v;
    }
}

/* ---- TurboBFS SpMV forms -------------------------------------------------------- */

/* CSC scalar [Alg. 4]: a thread per vertex, masked by sigma == 0. */
__global__ void csc_scalar_kernel(bb_cstate_t k)
{
    uint64_t nloc = k.hi - k.lo;
    for (uint64_t v = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; v < nloc;
         v += (uint64_t)gridDim.x * blockDim.x) {
        if (k.sigma[v] != 0) continue;
        uint64_t s = 0;
        for (int64_t e = k.in_offsets[v]; e < k.in_offsets[v + 1]; e++) {
            uint64_t x = k.f[k.in_columns[e]];
            if (s + x < s) *ctr(k, BB_CC_OVERFLOW) = 1;
            s += x;
        }
        if (s) k.ft[v] = s;
    }
}

/* CSC vector [Alg. 5]: a warp per vertex, shuffle reduction, lane 0 writes. */
__global__ void csc_vector_kernel(bb_cstate_t k)
{
    uint64_t nloc = k.hi - k.lo;
    uint64_t warp = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) >> 5;
    uint64_t warps = ((uint64_t)gridDim.x * blockDim.x) >> 5;
    unsigned lane = bb_lane();
    for (uint64_t v = warp; v < nloc; v += warps) {
        if (k.sigma[v] != 0) continue;   /* warp-uniform */
        uint64_t s = 0;
        bool wrap = false;
        for (int64_t e = k.in_offsets[v] + lane; e < k.in_offsets[v + 1]; e += 32) {
            uint64_t x = k.f[k.in_columns[e]];
            wrap = wrap || s + x < s;
            s += x;
        }
#pragma unroll
        for (int d = 16; d > 0; d >>= 1) {
            uint64_t o = __shfl_down_sync(BB_FULL_MASK, s, d);
            wrap = wrap || s + o < s;
            s += o;
        }
        wrap = __any_sync(BB_FULL_MASK, wrap);
        if (lane == 0) {
            if (s) k.ft[v] = s;
            if (wrap) *ctr(k, BB_CC_OVERFLOW) = 1;
        }
    }
}

/* COOC [Alg. 3]: a thread per arc: f_t(col) += f(row) where f(row) > 0. */
__global__ void cooc_kernel(bb_cstate_t k, int64_t arcs)
{
    for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < arcs;
         e += (int64_t)gridDim.x * blockDim.x) {
        uint64_t x = k.f[k.in_columns[e]];
        if (x == 0) continue;
        unsigned long long old = atomicAdd((unsigned long long *)k.ft + k.cooc_col[e],
                                           (unsigned long long)x);
        if (old + x < old) *ctr(k, BB_CC_OVERFLOW) = 1;
    }
}

/* Mask and update [Alg. 1 lines 17-24]: f = ft where sigma == 0, sigma += f. */
__global__ void spmv_update_kernel(bb_cstate_t k, int32_t next_level)
{
    uint64_t nloc = k.hi - k.lo, stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t base = blockIdx.x * (uint64_t)blockDim.x; base < nloc; base += stride) {
        uint64_t v = base + threadIdx.x;
        bool found = false;
        if (v < nloc) {
            uint64_t x = k.sigma[v] == 0 ? k.ft[v] : 0;
            k.f[v] = x;
            if (x) {
                k.sigma[v] = x;
                k.level[v] = next_level;
                found = true;
            }
        }
        append_found(k, found, (uint32_t)v);
    }
}

/* Bottom-up [Alg. 6]: a thread per unreached vertex, first parent wins. */
__global__ void bu_scalar_kernel(bb_cstate_t k, int32_t next_level)
{
    uint64_t nloc = k.hi - k.lo, stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t base = blockIdx.x * (uint64_t)blockDim.x; base < nloc; base += stride) {
        uint64_t v = base + threadIdx.x;
        bool found = false;
        if (v < nloc && k.level[v] == -1) {
            for (int64_t e = k.in_offsets[v]; e < k.in_offsets[v + 1]; e++)
                if (k.level[k.in_columns[e]] == next_level - 1) {
                    found = true;
                    break;
                }
            if (found) k.level[v] = next_level;
        }
        append_found(k, found, (uint32_t)v);
    }
}

/* Bottom-up [Alg. 7]: a warp per unreached vertex, the warp stops at the first. */
__global__ void bu_vector_kernel(bb_cstate_t k, int32_t next_level)
{
    uint64_t nloc = k.hi - k.lo;
    uint64_t warp = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) >> 5;
    uint64_t warps = ((uint64_t)gridDim.x * blockDim.x) >> 5;
    unsigned lane = bb_lane();
    for (uint64_t v = warp; v < nloc; v += warps) {
        bool found = false;
        if (k.level[v] == -1) {   /* warp-uniform */
            int64_t beg = k.in_offsets[v], end = k.in_offsets[v + 1];
            for (int64_t e0 = beg; e0 < end && !found; e0 += 32) {
                int64_t e = e0 + lane;
                bool hit = e < end && k.level[k.in_columns[e]] == next_level - 1;
                found = __any_sync(BB_FULL_MASK, hit);
            }
        }
        if (found && lane == 0) k.level[v] = next_level;
        /* lane 0 speaks for the warp's vertex */
        append_found(k, found && lane == 0, (uint32_t)v);
    }
}

/* The counts of the vertices found at next_level: their in-arcs one level up. */
__global__ void bu_sigma_kernel(bb_cstate_t k, int32_t next_level)
{
    uint64_t nloc = k.hi - k.lo;
    for (uint64_t v = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; v < nloc;
         v += (uint64_t)gridDim.x * blockDim.x) {
        if (k.level[v] != next_level) continue;
        uint64_t s = 0;
        for (int64_t e = k.in_offsets[v]; e < k.in_offsets[v + 1]; e++) {
            uint32_t u = k.in_columns[e];
            if (k.level[u] == next_level - 1) {
                uint64_t x = k.sigma[u];
                if (s + x < s) *ctr(k, BB_CC_OVERFLOW) = 1;
                s += x;
            }
        }
        k.sigma[v] = s;
    }
}

/* Brandes' backward step: kGroup lanes per vertex at depth. */
__global__ void backward_kernel(bb_cstate_t k, int32_t depth, uint64_t root)
{
    uint64_t nloc = k.hi - k.lo;
    uint64_t per_block = blockDim.x / kGroup;
    unsigned sub = threadIdx.x % kGroup;
    for (uint64_t base = blockIdx.x * per_block; base < nloc; base += (uint64_t)gridDim.x * per_block) {
        uint64_t v = base + threadIdx.x / kGroup;
        bool live = v < nloc && k.level[v] == depth;
        int64_t beg = live ? k.offsets[v] : 0, end = live ? k.offsets[v + 1] : 0;
        if (end - beg > BB_CC_HEAVY) live = false, end = beg;   /* backward_heavy_kernel's */
        unsigned trips = (unsigned)((end - beg + kGroup - 1) / kGroup);
        trips = __reduce_max_sync(BB_FULL_MASK, trips);
        double d = 0, sv = live ? (double)k.sigma[v] : 0;
        for (unsigned t = 0; t < trips; t++) {
            int64_t e = beg + (int64_t)t * kGroup + sub;
            if (e < end) {
                uint32_t w = k.columns[e];
                if (k.level[w] == depth + 1) d += sv / (double)k.sigma[w] * (1.0 + k.delta[w]);
            }
        }
#pragma unroll
        for (int s = kGroup / 2; s > 0; s >>= 1) d += __shfl_down_sync(BB_FULL_MASK, d, s, kGroup);
        if (live && sub == 0) {
            k.delta[v] = d;
            if (v != root) k.bc[v] += d;
        }
    }
}

/* A block per heavy vertex at depth. */
__global__ void backward_heavy_kernel(bb_cstate_t k, int32_t depth, uint64_t root)
{
    __shared__ double part[kThreads / 32];
    for (uint64_t i = blockIdx.x; i < k.nheavy_out; i += gridDim.x) {
        uint32_t v = k.heavy_out[i];
        if (k.level[v] != depth) continue;   /* block-uniform */
        double d = 0, sv = (double)k.sigma[v];
        for (int64_t e = k.offsets[v] + threadIdx.x; e < k.offsets[v + 1]; e += blockDim.x) {
            uint32_t w = k.columns[e];
            if (k.level[w] == depth + 1) d += sv / (double)k.sigma[w] * (1.0 + k.delta[w]);
        }
#pragma unroll
        for (int s = 16; s > 0; s >>= 1) d += __shfl_down_sync(BB_FULL_MASK, d, s);
        if (bb_lane() == 0) part[threadIdx.x / 32] = d;
        __syncthreads();
        if (threadIdx.x == 0) {
            d = 0;
            for (int w = 0; w < kThreads / 32; w++) d += part[w];
            k.delta[v] = d;
            if (v != root) k.bc[v] += d;
        }
        __syncthreads();
    }
}

unsigned blocks_for(uint64_t items)
{
    uint64_t b = (items + kThreads - 1) / kThreads;
    return (unsigned)(b == 0 ? 1 : b > (1u << 30) ? (1u << 30) : b);
}

} // namespace

extern "C" {

boxbfs_status_t bb_cuda_sigma_reset(const bb_cstate_t *k, void *stream, uint64_t root)
{
    cudaStream_t s = (cudaStream_t)stream;
    BB_CHECK(bb_cuda_bind(stream));
    BB_CUDA_CHECK(cudaMemsetAsync(k->counters, 0, BB_CC_COUNT(k->ndev) * 8, s));
    reset_kernel<<<blocks_for(k->hi - k->lo), kThreads, 0, s>>>(*k);
    BB_CUDA_LAUNCH_CHECK();
    reset_root<<<1, 1, 0, s>>>(*k, root);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t bb_cuda_sigma_push(const bb_cstate_t *k, void *stream, uint64_t count,
                                   int32_t next_level)
{
    if (count == 0) return BOXBFS_OK;
    BB_CHECK(bb_cuda_bind(stream));
    if (count <= kBlockPush)
        push_kernel<kThreads><<<(unsigned)count, kThreads, 0, (cudaStream_t)stream>>>(*k, count,
                                                                                  next_level);
    else
        push_kernel<32><<<blocks_for(count * 32), kThreads, 0, (cudaStream_t)stream>>>(
            *k, count, next_level);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t bb_cuda_sigma_apply(const bb_cstate_t *k, void *stream, const uint32_t *vid,
                                    const uint64_t *sig, uint64_t count, int32_t next_level)
{
    if (count == 0) return BOXBFS_OK;
    BB_CHECK(bb_cuda_bind(stream));
    apply_kernel<<<blocks_for(count), kThreads, 0, (cudaStream_t)stream>>>(*k, vid, sig, count,
                                                                          next_level);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t bb_cuda_sigma_pull(const bb_cstate_t *k, void *stream, uint64_t count,
                                   int32_t next_level)
{
    cudaStream_t s = (cudaStream_t)stream;
    uint64_t nloc = k->hi - k->lo;
    unsigned blocks = blocks_for(nloc * kGroup);
    (void)count;
    BB_CHECK(bb_cuda_bind(stream));
    level_bits_kernel<<<blocks_for((nloc + 31) / 32 * 32), kThreads, 0, s>>>(*k, next_level - 1);
    BB_CUDA_LAUNCH_CHECK();
    pull_kernel<<<blocks < kPullBlocks ? blocks : kPullBlocks, kThreads, 0, s>>>(*k, next_level);
    BB_CUDA_LAUNCH_CHECK();
    if (k->nheavy_in) {
        pull_heavy_kernel<<<blocks_for(k->nheavy_in * kThreads), kThreads, 0, s>>>(*k, next_level);
        BB_CUDA_LAUNCH_CHECK();
    }
    return BOXBFS_OK;
}

boxbfs_status_t bb_cuda_sigma_gather(const bb_cstate_t *k, void *stream, int32_t level)
{
    cudaStream_t s = (cudaStream_t)stream;
    BB_CHECK(bb_cuda_bind(stream));
    BB_CUDA_CHECK(cudaMemsetAsync(k->counters + BB_CC_GATHER, 0, 8, s));
    gather_kernel<<<blocks_for(k->hi - k->lo), kThreads, 0, s>>>(*k, level);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t bb_cuda_spmv_top_down(const bb_cstate_t *k, void *stream, bb_spmv_t variant,
                                      int32_t next_level)
{
    cudaStream_t s = (cudaStream_t)stream;
    uint64_t nloc = k->hi - k->lo;
    BB_CHECK(bb_cuda_bind(stream));
    BB_CUDA_CHECK(cudaMemsetAsync(k->ft, 0, nloc * 8, s));
    if (variant == BB_SPMV_COOC) {
        if (k->in_arcs > 0) {
            cooc_kernel<<<blocks_for(k->in_arcs), kThreads, 0, s>>>(*k, (int64_t)k->in_arcs);
            BB_CUDA_LAUNCH_CHECK();
        }
    } else if (variant == BB_SPMV_CSC_VECTOR) {
        csc_vector_kernel<<<blocks_for(nloc * 32), kThreads, 0, s>>>(*k);
        BB_CUDA_LAUNCH_CHECK();
    } else {
        csc_scalar_kernel<<<blocks_for(nloc), kThreads, 0, s>>>(*k);
        BB_CUDA_LAUNCH_CHECK();
    }
    spmv_update_kernel<<<blocks_for(nloc), kThreads, 0, s>>>(*k, next_level);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t bb_cuda_spmv_bottom_up(const bb_cstate_t *k, void *stream, int vector,
                                       int32_t next_level)
{
    cudaStream_t s = (cudaStream_t)stream;
    uint64_t nloc = k->hi - k->lo;
    BB_CHECK(bb_cuda_bind(stream));
    if (vector)
        bu_vector_kernel<<<blocks_for(nloc * 32), kThreads, 0, s>>>(*k, next_level);
    else
        bu_scalar_kernel<<<blocks_for(nloc), kThreads, 0, s>>>(*k, next_level);
    BB_CUDA_LAUNCH_CHECK();
    bu_sigma_kernel<<<blocks_for(nloc), kThreads, 0, s>>>(*k, next_level);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t bb_cuda_bc_backward(const bb_cstate_t *k, void *stream, int32_t depth,
                                    uint64_t root)
{
    BB_CHECK(bb_cuda_bind(stream));
    backward_kernel<<<blocks_for((k->hi - k->lo) * kGroup), kThreads, 0, (cudaStream_t)stream>>>(
        *k, depth, root);
    BB_CUDA_LAUNCH_CHECK();
    if (k->nheavy_out) {
        backward_heavy_kernel<<<blocks_for(k->nheavy_out * kThreads), kThreads, 0,
                                (cudaStream_t)stream>>>(*k, depth, root);
        BB_CUDA_LAUNCH_CHECK();
    }
    return BOXBFS_OK;
}

static const bb_centrality_ops_t cuda_centrality_ops = {
    bb_cuda_sigma_reset, bb_cuda_sigma_push, bb_cuda_sigma_apply, bb_cuda_sigma_pull,
    bb_cuda_sigma_gather, bb_cuda_spmv_top_down, bb_cuda_spmv_bottom_up, bb_cuda_bc_backward,
};
const bb_centrality_ops_t *const bb_cuda_centrality_ops_ptr = &cuda_centrality_ops;

} // extern "C"
