/* The one-device loop of small levels on the GPU: one cluster of kBlocks
 * blocks of 1024 threads (Hopper thread block clusters) runs top-down level
 * after level inside one launch, so a level with a few thousand vertices
 * costs a few dependent memory accesses and one cluster barrier instead of
 * launches, copies and a host sync (high-diameter graphs have thousands of
 * such levels). Per level, the frontier in rounds of kBlocks x 1024
 * vertices, block b taking the b-th 1024: a block scan of their degrees maps
 * each of the block's arcs to a thread (binary search in shared memory); a
 * thread claims an unvisited neighbour with a compare-and-swap on its level
 * and appends it to the next frontier through a counter in block 0's shared
 * memory (distributed shared memory), one of three used in turn so that the
 * one barrier per level orders its reset, its use and its reading. The
 * stopping rule is the engine's (see bb_loop_params_t); each level's
 * frontier, arcs and duration (the global timer) go to the level log. */
#include "config.h"

#include <cooperative_groups.h>
#include <cub/block/block_scan.cuh>

#include "kernels/cuda/cuda_kernels.h"

namespace cg = cooperative_groups;

namespace {

constexpr int kThreads = 1024;
constexpr int kBlocks = 8;   /* the portable cluster size */

__device__ __forceinline__ uint64_t global_ns()
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void __cluster_dims__(kBlocks, 1, 1) __launch_bounds__(kThreads, 1)
    small_levels(bb_kstate_t k, bb_loop_params_t p)
{
    using Scan = cub::BlockScan<uint32_t, kThreads>;
    __shared__ typename Scan::TempStorage scan_tmp;
    __shared__ uint32_t s_scan[kThreads], s_u[kThreads];
    __shared__ int64_t s_start[kThreads];
    __shared__ unsigned s_next[3];              /* block 0's are the cluster's */
    __shared__ unsigned long long s_arcs[3];
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank();
    const bool leader = rank == 0 && threadIdx.x == 0;
    unsigned *next_ctr = cluster.map_shared_rank(s_next, 0);
    unsigned long long *arcs_ctr = cluster.map_shared_rank(s_arcs, 0);
    unsigned long long *ctr = (unsigned long long *)k.counters;
    uint32_t *cur = k.frontier, *nxt = k.next_frontier;
    /* from_counters: the level before this launch left them (the leader writes
     * ctr only after the first cluster barrier below, when all have read) */
    uint64_t count = p.from_counters ? ctr[BB_CTR_NEXT] : p.count;
    uint64_t arcs = p.from_counters ? ctr[BB_CTR_NEXT_ARCS] : p.arcs;
    uint64_t prev = p.prev_count, unexplored = p.unexplored;
    uint64_t t_prev = leader ? global_ns() : 0;
    int32_t level = p.level;
    uint32_t runs = 0;
    if (leader) {
        s_next[0] = 0;
        s_arcs[0] = 0;
    }
    cluster.sync();
    /* every thread of the cluster holds the same values: the loop is uniform */
    while (!bb_loop_stops(&p, level, count, arcs, prev, unexplored, runs)) {
        const unsigned slot = runs % 3;
        if (leader) {   /* the counter after this one: last read before the last barrier */
            s_next[(slot + 1) % 3] = 0;
            s_arcs[(slot + 1) % 3] = 0;
        }
        for (uint64_t base = (uint64_t)rank * kThreads; base < count;
             base += (uint64_t)kBlocks * kThreads) {
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
                if (atomicCAS((int *)k.level + v, -1, level + 1) != -1) continue;
                k.pred[v] = (int64_t)s_u[lo];   /* one device: local = global ids */
                if (k.visited) bb_mark(k.visited, k.visited_bits, v);
                nxt[atomicAdd(next_ctr + slot, 1u)] = v;
                atomicAdd(arcs_ctr + slot, bb_degree(k.offsets, v));
            }
            __syncthreads();   /* the round's shared arrays are free again */
        }
        cluster.sync();   /* the level is done everywhere: its counts are final */
        if (leader) {
            const uint64_t now = global_ns();
            uint64_t *log = k.level_log + (size_t)runs * BB_LOG_FIELDS;
            log[0] = count;
            log[1] = arcs;
            log[2] = now - t_prev;
            log[3] = 0;
            t_prev = now;
        }
        unexplored = bb_unexplored_after(unexplored, arcs);
        prev = count;
        count = next_ctr[slot];
        arcs = arcs_ctr[slot];
        uint32_t *t = cur;
        cur = nxt;
        nxt = t;
        level++;
        runs++;
    }
    if (leader) {
        ctr[BB_CTR_EXPANDED] = runs;
        ctr[BB_CTR_NEXT] = count;
        ctr[BB_CTR_NEXT_ARCS] = arcs;
    }
    cluster.sync();   /* block 0's shared memory outlives every reader */
}

}  // namespace

extern "C" boxbfs_status_t bb_cuda_small_levels(const bb_kstate_t *k, void *stream,
                                                const bb_loop_params_t *p)
{
    BB_CHECK(bb_cuda_bind(stream));
    if (k->ndev != 1 || k->level_log == NULL)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "cuda small_levels: one device with a log only");
    small_levels<<<kBlocks, kThreads, 0, (cudaStream_t)stream>>>(*k, *p);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}
