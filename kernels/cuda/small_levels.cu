/* The one-device loop of small levels on the GPU: a single block of 1024
 * threads runs top-down level after level inside one launch, so a level with
 * a few hundred vertices costs a few dependent memory accesses and block
 * barriers instead of launches, copies and a host sync (high-diameter
 * graphs have thousands of such levels). Per level, chunks of 1024 frontier
 * vertices: a block scan of their degrees maps each of the chunk's arcs to a
 * thread (binary search in shared memory); a thread claims an unvisited
 * neighbour with a compare-and-swap on its level and appends it to the next
 * frontier through shared counters. The stopping rule is the engine's (see
 * bb_loop_params_t); each level's frontier, arcs and duration (the global
 * timer) go to the level log for the report. */
#include "config.h"

#include <cub/block/block_scan.cuh>

#include "kernels/cuda/cuda_kernels.h"

namespace {

constexpr int kThreads = 1024;

__device__ __forceinline__ uint64_t global_ns()
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ bool stop(const bb_loop_params_t &p, int32_t level, uint64_t count,
                                     uint64_t arcs, uint64_t prev, uint64_t unexplored,
                                     uint32_t runs)
{
    return count == 0 || (p.max_depth >= 0 && level >= p.max_depth) || arcs > p.max_arcs ||
           runs == p.log_cap ||
           (p.alpha > 0 && count > prev && (double)arcs * p.alpha > (double)unexplored);
}

__global__ void __launch_bounds__(kThreads, 1) small_levels(bb_kstate_t k, bb_loop_params_t p)
{
    using Scan = cub::BlockScan<uint32_t, kThreads>;
    __shared__ typename Scan::TempStorage scan_tmp;
    __shared__ uint32_t s_scan[kThreads], s_u[kThreads];
    __shared__ int64_t s_start[kThreads];
    __shared__ unsigned s_next;
    __shared__ unsigned long long s_next_arcs;
    unsigned long long *ctr = (unsigned long long *)k.counters;
    uint32_t *cur = k.frontier, *nxt = k.next_frontier;
    uint64_t count = p.count, arcs = p.arcs, prev = p.prev_count, unexplored = p.unexplored;
    int32_t level = p.level;
    uint32_t runs = 0;
    /* every thread holds the same values: the loop is uniform */
    while (!stop(p, level, count, arcs, prev, unexplored, runs)) {
        const uint64_t t0 = global_ns();
        if (threadIdx.x == 0) {
            s_next = 0;
            s_next_arcs = 0;
        }
        for (uint64_t base = 0; base < count; base += kThreads) {
            const uint64_t i = base + threadIdx.x;
            const uint32_t nv = count - base < kThreads ? (uint32_t)(count - base) : kThreads;
            uint32_t deg = 0, u = 0, first, total;
            int64_t start = 0;
            if (i < count) {
                u = cur[i];
                start = k.offsets[u];
                deg = (uint32_t)(k.offsets[u + 1] - start);
            }
            Scan(scan_tmp).ExclusiveSum(deg, first, total);
            s_scan[threadIdx.x] = first;
            s_u[threadIdx.x] = u;
            s_start[threadIdx.x] = start;
            __syncthreads();
            for (uint32_t e = threadIdx.x; e < total; e += kThreads) {
                uint32_t lo = 0, hi = nv - 1;   /* the last vertex whose first arc is <= e */
                while (lo < hi) {
                    uint32_t mid = (lo + hi + 1) >> 1;
                    if (s_scan[mid] <= e) lo = mid; else hi = mid - 1;
                }
                const uint32_t v = __ldg(k.columns + s_start[lo] + (e - s_scan[lo]));
                if (k.level[v] != -1 || atomicCAS((int *)k.level + v, -1, level + 1) != -1)
                    continue;
                k.pred[v] = (int64_t)s_u[lo];   /* one device: local = global ids */
                if (k.visited) bb_mark(k.visited, k.visited_bits, v);
                nxt[atomicAdd(&s_next, 1u)] = v;
                atomicAdd(&s_next_arcs, bb_degree(k.offsets, v));
            }
            __syncthreads();   /* the chunk's shared arrays are free again */
        }
        if (threadIdx.x == 0) {
            uint64_t *log = k.level_log + (size_t)runs * BB_LOG_FIELDS;
            log[0] = count;
            log[1] = arcs;
            log[2] = global_ns() - t0;
            log[3] = 0;
        }
        unexplored -= arcs < unexplored ? arcs : unexplored;
        prev = count;
        count = s_next;
        arcs = s_next_arcs;
        uint32_t *t = cur;
        cur = nxt;
        nxt = t;
        level++;
        runs++;
        __syncthreads();   /* everyone read s_next before thread 0 clears it */
    }
    if (threadIdx.x == 0) {
        ctr[BB_CTR_EXPANDED] = runs;
        ctr[BB_CTR_NEXT] = count;
        ctr[BB_CTR_NEXT_ARCS] = arcs;
    }
}

}  // namespace

extern "C" boxbfs_status_t bb_cuda_small_levels(const bb_kstate_t *k, void *stream,
                                                const bb_loop_params_t *p)
{
    BB_CHECK(bb_cuda_bind(stream));
    if (k->ndev != 1 || k->level_log == NULL)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "cuda small_levels: one device with a log only");
    small_levels<<<1, kThreads, 0, (cudaStream_t)stream>>>(*k, *p);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}
