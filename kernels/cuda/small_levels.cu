/* The device loop of small levels on the GPU: one cluster of kBlocks blocks
 * of 1024 threads (Hopper thread block clusters) per device runs top-down
 * level after level inside one launch, so a level with a few thousand
 * vertices costs a few dependent memory accesses and cluster barriers
 * instead of launches, copies and host syncs (high-diameter graphs have
 * thousands of such levels). Per level, the frontier in rounds of kBlocks x
 * 1024 vertices, block b taking the b-th 1024: a block scan of their
 * degrees maps each of the block's arcs to a thread (binary search in
 * shared memory). Counters live in block 0's shared memory (distributed
 * shared memory), one of three used in turn so that the barriers order
 * their reset, use and reading; after a level each block's thread 0 reads
 * them once for its block. The stopping rule is the engine's (see
 * bb_loop_params_t); each level's row goes to the level log.
 *
 * One device: a thread claims an unvisited neighbour with a compare-and-swap
 * on its level; one cluster barrier per level; a vertex's row read as its
 * short row (kernels.h) where the device has them. Levels that fit one
 * block (solo_fits) run on block 0 alone, one block barrier each, the
 * frontier's list with each vertex's row and first arc in its shared
 * memory, the claims in a copy of the visited bits there where it has room,
 * while the other blocks wait at the cluster barrier (solo_levels).
 *
 * Several devices (one kernel each, all launched with the same totals): a
 * thread claims a neighbour in visited as the atomic method does; an own
 * one joins the next frontier, a remote one is appended to its owner's
 * inbox region for this device (peer memory), with its parent's gid where
 * the owner keeps the parents (the device search). Then the devices meet
 * once (meet.cuh): the leader stores, in every other device's mailbox, how
 * many vertices it sent there and the size and arcs of the part of the
 * frontier it expanded, and waits for the same from each; all decide on the
 * same sums whether that level belonged to the loop (kernels.h
 * bb_loop_stops_here), and every device takes its inbox in source order.
 * Lists fill the inbox regions from alternate ends (bb_loop_slot). A meeting
 * that fails (the abort word raised, or a peer that never came) ends the
 * loop with BB_LOOP_FAILED. The device search runs the same levels as one
 * of its steps (search_peer_levels). */
#include "config.h"

#include <pthread.h>

#include <cooperative_groups.h>
#include <cub/block/block_scan.cuh>

#include "kernels/cuda/meet.cuh"

namespace cg = cooperative_groups;

namespace {

constexpr int kThreads = 1024;
constexpr int kBlocks = 8;   /* the portable cluster size */

using Scan = cub::BlockScan<uint32_t, kThreads>;
/* block 0's levels alone: warp scans, whose temporaries (a word a warp, not
 * one a thread) leave room for both lists' rows in 48 KiB */
using SoloScan = cub::BlockScan<uint32_t, kThreads, cub::BLOCK_SCAN_WARP_SCANS>;

struct RoundShared {   /* one block's round of the frontier */
    typename Scan::TempStorage scan_tmp;
    uint32_t scan[kThreads], u[kThreads];
    uint4 row[kThreads];   /* each vertex's row (loop_row) */
};

/* Vertex u's row as the loop levels take it (docs/architecture.md, "One
 * device"): its short row where the device has them (one 16-byte load, read
 * beside u's claim, so the next level takes a short row's heads without a
 * load), else a long one from its offsets. Short: the device may have them
 * (one device; the loop across devices reads offsets). */
template <bool Short = true>
__device__ __forceinline__ uint4 loop_row(const bb_kstate_t &k, uint32_t u)
{
    if (Short && k.short_rows) return __ldg(reinterpret_cast<const uint4 *>(k.short_rows) + u);
    const int64_t first = __ldg(k.offsets + u);
    return make_uint4(BB_SHORT_LONG, (uint32_t)(__ldg(k.offsets + u + 1) - first), (uint32_t)first,
                      (uint32_t)((uint64_t)first >> 32));
}

__device__ __forceinline__ uint32_t row_degree(const uint4 &r)
{
    return bb_short_degree(r.x, r.y, r.z, r.w);
}

/* Head j (below its degree) of row r. */
template <bool Short = true>
__device__ __forceinline__ uint32_t row_head(const bb_kstate_t &k, const uint4 &r, uint32_t j)
{
    if (!Short || r.x == BB_SHORT_LONG) return __ldg(k.columns + bb_short_first(r.z, r.w) + j);
    return bb_short_head(r.x, r.y, r.z, r.w, j, k.columns);
}

/* Every arc u -> v of the count frontier vertices in cur (local ids),
 * visit(true, v, u) with v's global id, called by whole warps (a lane
 * without an arc: visit(false, ...)); the block's threads all call it, then
 * a cluster barrier. A round takes up to kBlocks x kThreads vertices, an
 * equal share to each block: a road network's level of a few hundred
 * vertices keeps all the blocks busy with an arc or two a thread, where one
 * block that took the first kThreads vertices walked two or three arcs a
 * thread one after another (USA-road-FLA on an H200: 8.26 -> 5.78 ms a
 * search, with the degree read beside the claim). */
template <bool Short, class Visit>
__device__ __forceinline__ void expand_rounds(const bb_kstate_t &k, const uint32_t *cur,
                                              uint64_t count, unsigned rank, RoundShared &sh,
                                              Visit visit)
{
    /* 32-bit indices: a list holds distinct vertex ids (fewer registers) */
    constexpr uint32_t kRound = kBlocks * kThreads;
    const uint32_t n = (uint32_t)count;
    for (uint32_t round = 0; round < n; round += kRound) {
        const uint32_t left = n - round < kRound ? n - round : kRound;
        const uint32_t share = (left + kBlocks - 1) / kBlocks;   /* <= kThreads */
        const uint32_t base = round + rank * share, end = round + left;
        const uint32_t nv = base >= end ? 0 : (end - base < share ? end - base : share);
        const uint32_t i = base + threadIdx.x;
        uint32_t deg = 0, u = 0, first, total;
        uint4 row = make_uint4(BB_SHORT_NONE, BB_SHORT_NONE, BB_SHORT_NONE, BB_SHORT_NONE);
        if (threadIdx.x < nv) {
            u = cur[i];
            row = loop_row<Short>(k, u);
            deg = Short ? row_degree(row) : row.y;
        }
        sh.u[threadIdx.x] = u;   /* read after the barrier below */
        sh.row[threadIdx.x] = row;
        Scan(sh.scan_tmp).ExclusiveSum(deg, first, total);
        sh.scan[threadIdx.x] = first;
        __syncthreads();
        for (uint32_t e = threadIdx.x; e - threadIdx.x < total; e += kThreads) {   /* warp-uniform */
            uint32_t v = 0, u = 0;
            if (e < total) {
                const uint32_t lo = bb_item_of(sh.scan, nv, e);
                v = row_head<Short>(k, sh.row[lo], e - sh.scan[lo]);
                u = sh.u[lo];
            }
            visit(e < total, v, u);
        }
        /* the round's shared arrays are free again (after the last round
         * the callers' cluster barrier follows) */
        if (round + kRound < n) __syncthreads();
    }
}

/* A level of at most kThreads vertices and kSoloMaxArcs arcs runs on one
 * block: a block barrier ends it instead of the cluster's, whose wait for
 * the slowest block was about a third of a road level. Larger levels run
 * faster on the cluster, one SM's requests to L2 bound them (USA-road-FLA
 * on an H200: levels of 600-1024 vertices took 4.7 us alone against 3.6 on
 * the cluster; of 1024, 768 and 1536 arcs, 1024 ran its search fastest). */
constexpr uint64_t kSoloMaxArcs = 1024;

__device__ __forceinline__ bool solo_fits(const bb_loop_walk_t &w)
{
    return w.count <= kThreads && w.arcs <= kSoloMaxArcs;
}

struct SoloShared {   /* block 0's levels alone (solo_levels) */
    typename SoloScan::TempStorage scan_tmp;     /* the first level's */
    /* the frontier's list, and the next: each vertex, its row (loop_row)
     * and its first arc in the level (the exclusive sum of the degrees
     * before it: at most kSoloMaxArcs) */
    uint32_t u[2][kThreads];
    uint4 row[2][kThreads];
    uint16_t scan[2][kThreads];
    /* the next list's places and arcs, count | arcs << 32 (the arcs' low 32
     * bits), used in turn as the cluster's counters */
    unsigned long long pos[3];
    unsigned long long warp_arcs[2][32];         /* each warp's winners' arcs, in turn */
};
static_assert(kThreads == 32 * 32, "a warp's lane per warp of the block (warp_arcs)");

/* Block 0's copy of the visited bits of all n vertices for its levels
 * alone, in the launch's dynamic shared memory where it has room for them
 * (loop_bits_bytes: one device, the atomic method's visited bits): a claim
 * there is an atomic on the SM (~0.1 us) instead of a compare-and-swap on
 * the vertex's level in L2, the longest link of a level alone's chain.
 * Copied from the visited bits at each entry to the levels alone (the
 * cluster's levels and every other step claim in visited and level). */
extern __shared__ uint32_t s_bits[];

__device__ __forceinline__ bool solo_bits(const bb_kstate_t &k)
{
    uint32_t bytes;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
    return bytes != 0 && (uint64_t)bytes >= (k.n + 31) / 32 * 4;
}

/* The sum over a warp of values below 2^54 (arcs), in two 32-bit
 * reductions of 27-bit parts that cannot overflow. */
__device__ __forceinline__ unsigned long long warp_sum(unsigned long long x)
{
    constexpr unsigned long long kLow = (1ull << 27) - 1;
    const unsigned lo = __reduce_add_sync(~0u, (unsigned)(x & kLow));
    const unsigned hi = __reduce_add_sync(~0u, (unsigned)(x >> 27));
    return lo + ((unsigned long long)hi << 27);
}

/* The level just run: its row of the level log (block 0's thread 0). */
__device__ __forceinline__ void log_level(const bb_kstate_t &k, const bb_loop_walk_t &w,
                                          uint64_t *t_prev)
{
    const uint64_t now = bb_global_ns();
    uint64_t *log = k.level_log + (size_t)w.runs * BB_LOG_FIELDS;
    log[0] = w.count;
    log[1] = w.arcs;
    log[2] = now - *t_prev;
    log[3] = 0;
    *t_prev = now;
}

/* One device's levels on block 0 alone while they fit (solo_fits; every
 * thread of block 0 calls it), from the frontier in cur; the walk where they
 * stopped, the frontier in cur or nxt as for the cluster's levels (each
 * level swaps them). The winners also list themselves in shared memory with
 * their row and their first arc in the next level: a warp's winners take
 * their places and their arcs with one atomic (a block scan of the degrees
 * runs only before the first level), so a level reads from memory only its
 * arcs' claims and the winners' rows beside them (and a long row's
 * columns), and ends at its one block barrier. */
__device__ __forceinline__ bb_loop_walk_t solo_levels(const bb_kstate_t &k,
                                                      const bb_loop_params_t &p,
                                                      bb_loop_walk_t w, uint32_t *cur,
                                                      uint32_t *nxt, SoloShared &s,
                                                      uint64_t *t_prev)
{
    const unsigned t = threadIdx.x, lane = t & 31u;
    const bool bits = solo_bits(k);
    unsigned in = 0;
    uint32_t total = 0;   /* the frontier's arcs: solo_fits keeps them below 2^32 */
    if (t == 0) s.pos[0] = 0;   /* ordered before the first claim by the scan's barrier */
    if (!bb_loop_stops(&p, &w) && solo_fits(w)) {   /* the first list, from cur */
        if (bits)   /* L2's words: the cluster's claims since the last copy */
            for (uint64_t i = t; i < (k.n + 31) / 32; i += kThreads)
                s_bits[i] = __ldcg(static_cast<const uint32_t *>(k.visited) + i);
        uint32_t deg = 0, first;
        if (t < w.count) {
            const uint32_t u = cur[t];
            const uint4 row = loop_row(k, u);
            deg = row_degree(row);
            s.u[0][t] = u;
            s.row[0][t] = row;
        }
        SoloScan(s.scan_tmp).ExclusiveSum(deg, first, total);
        s.scan[0][t] = (uint16_t)first;
        __syncthreads();
    }
    for (unsigned slot = 0; !bb_loop_stops(&p, &w) && solo_fits(w); slot = (slot + 1) % 3) {
        const unsigned out = in ^ 1u;
        const uint32_t n = (uint32_t)w.count;
        if (t == 0) s.pos[(slot + 1) % 3] = 0;
        unsigned long long arcs = 0;   /* lane 0's: its warp's winners' */
        for (uint32_t e = t; e - t < total; e += kThreads) {   /* warp-uniform */
            uint32_t v = 0;
            uint4 vrow = make_uint4(0, 0, 0, 0);
            bool won = false;
            if (e < total) {   /* v's row read beside the claim */
                const uint32_t i = bb_item_of(s.scan[in], n, e);
                v = row_head(k, s.row[in][i], e - s.scan[in][i]);
                vrow = loop_row(k, v);
                if (bits) {
                    const uint32_t bit = 1u << (v & 31u);
                    won = !(atomicOr(s_bits + (v >> 5), bit) & bit);
                    if (won) k.level[v] = w.level + 1;
                } else {
                    won = atomicCAS((int *)k.level + v, -1, w.level + 1) == -1;
                }
                if (won) {
                    k.pred[v] = (int64_t)s.u[in][i];   /* one device: local = global ids */
                    if (k.visited) bb_mark(k.visited, k.visited_bits, v);
                }
            }
            /* a warp's winners take their places and arcs with one atomic on
             * the block's counter (an atomic each serialized them: ~30 ns a
             * winner), each its first arc by the warp's sum of the degrees
             * before it */
            const unsigned m = __ballot_sync(~0u, won);
            if (m == 0) continue;
            const uint32_t d = won ? row_degree(vrow) : 0;
            uint32_t before = d;
            for (unsigned o = 1; o < 32; o <<= 1) {
                const uint32_t x = __shfl_up_sync(~0u, before, o);
                if (lane >= o) before += x;
            }
            const unsigned long long warp_d = warp_sum(d);
            unsigned long long at = 0;
            if (lane == 0) {
                at = atomicAdd(&s.pos[slot], (unsigned long long)__popc(m) |
                                                 (unsigned long long)(uint32_t)warp_d << 32);
                arcs += warp_d;
            }
            at = __shfl_sync(~0u, at, 0);
            if (!won) continue;
            const unsigned i = (uint32_t)at + __popc(m & ((1u << lane) - 1u));
            nxt[i] = v;
            if (i < kThreads) {   /* a longer list ends the levels alone */
                s.u[out][i] = v;
                s.row[out][i] = vrow;
                /* past kSoloMaxArcs (cut to 16 bits) the levels alone end too */
                s.scan[out][i] = (uint16_t)((uint32_t)(at >> 32) + before - d);
            }
        }
        if (lane == 0) s.warp_arcs[in][t >> 5] = arcs;
        __syncthreads();   /* the level is done: its counts and list are final */
        if (t == 0) log_level(k, w, t_prev);
        bb_loop_advance(&w, (uint32_t)s.pos[slot], warp_sum(s.warp_arcs[in][lane]));
        total = (uint32_t)w.arcs;
        uint32_t *x = cur;
        cur = nxt;
        nxt = x;
        in = out;
    }
    return w;
}

/* One device's levels from walk w (each level's row of the level log at
 * its run), the frontier's list in cur, the next one's room in nxt (every
 * thread of the cluster calls it); the walk where they stopped. */
__device__ __forceinline__ bb_loop_walk_t one_device_levels(const bb_kstate_t &k,
                                                           const bb_loop_params_t &p,
                                                           bb_loop_walk_t w, uint32_t *cur,
                                                           uint32_t *nxt)
{
    __shared__ union {
        RoundShared round;
        SoloShared solo;                        /* block 0's alone */
    } sh;
    __shared__ unsigned s_next[3];              /* block 0's are the cluster's */
    __shared__ unsigned long long s_arcs[3];
    __shared__ unsigned s_took;                 /* this block's copy of the level's */
    __shared__ unsigned long long s_took_arcs;
    __shared__ bb_loop_walk_t s_walk;           /* where block 0's levels alone stopped */
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank();
    const bool leader = rank == 0 && threadIdx.x == 0;
    unsigned *next_ctr = cluster.map_shared_rank(s_next, 0);
    unsigned long long *arcs_ctr = cluster.map_shared_rank(s_arcs, 0);
    uint64_t t_prev = leader ? bb_global_ns() : 0;
    if (leader) {
        s_next[0] = 0;
        s_arcs[0] = 0;
    }
    cluster.sync();
    /* every thread of the cluster holds the same values: the loop is uniform */
    for (unsigned slot = 0; !bb_loop_stops(&p, &w);) {
        if (solo_fits(w)) {
            const uint32_t runs = w.runs;
            if (rank == 0) {
                const bb_loop_walk_t solo = solo_levels(k, p, w, cur, nxt, sh.solo, &t_prev);
                if (threadIdx.x == 0) s_walk = solo;
            }
            cluster.sync();   /* block 0's levels are done and seen */
            if (threadIdx.x == 0 && rank != 0) s_walk = *cluster.map_shared_rank(&s_walk, 0);
            __syncthreads();
            w = s_walk;
            if ((w.runs - runs) & 1u) {
                uint32_t *t = cur;
                cur = nxt;
                nxt = t;
            }
            continue;
        }
        if (leader) {   /* the counter after this one: last read before the last barrier */
            s_next[(slot + 1) % 3] = 0;
            s_arcs[(slot + 1) % 3] = 0;
        }
        expand_rounds<true>(k, cur, w.count, rank, sh.round, [&](bool arc, uint32_t v, uint32_t u) {
            /* v's row read beside the claim, not after it: one memory
             * latency less on the level's path */
            bool won = false;
            uint32_t deg = 0;
            if (arc) {
                const uint4 row = loop_row(k, v);
                won = atomicCAS((int *)k.level + v, -1, w.level + 1) == -1;
                if (won) {
                    k.pred[v] = (int64_t)u;   /* one device: local = global ids */
                    if (k.visited) bb_mark(k.visited, k.visited_bits, v);
                    deg = row_degree(row);
                }
            }
            /* a warp's winners take their places and add their arcs with
             * one atomic each on block 0's counters, not one a winner */
            const unsigned m = __ballot_sync(~0u, won), lane = threadIdx.x & 31u;
            if (m == 0) return;
            const unsigned long long warp_d = warp_sum(deg);
            unsigned base = 0;
            if (lane == 0) {
                base = atomicAdd(next_ctr + slot, (unsigned)__popc(m));
                atomicAdd(arcs_ctr + slot, warp_d);
            }
            base = __shfl_sync(~0u, base, 0);
            if (won) nxt[base + __popc(m & ((1u << lane) - 1u))] = v;
        });
        cluster.sync();   /* the level is done everywhere: its counts are final */
        if (leader) log_level(k, w, &t_prev);
        if (threadIdx.x == 0) {   /* read once a block (await_verdict) */
            s_took = next_ctr[slot];
            s_took_arcs = arcs_ctr[slot];
        }
        __syncthreads();
        bb_loop_advance(&w, s_took, s_took_arcs);
        uint32_t *t = cur;
        cur = nxt;
        nxt = t;
        slot = (slot + 1) % 3;   /* the cluster's levels take the counters in turn */
    }
    cluster.sync();   /* block 0's shared memory outlives every reader */
    return w;
}

__global__ void __cluster_dims__(kBlocks, 1, 1) __launch_bounds__(kThreads, 1)
    small_levels(bb_kstate_t k, bb_loop_params_t p)
{
    unsigned long long *ctr = (unsigned long long *)k.counters;
    /* from_counters: the level before this launch left them (the leader writes
     * ctr only after the levels' last cluster barrier, when all have read) */
    const bb_loop_walk_t w =
        one_device_levels(k, p,
                          bb_loop_begin(&p, p.from_counters ? ctr[BB_CTR_NEXT] : p.count,
                                        p.from_counters ? ctr[BB_CTR_NEXT_ARCS] : p.arcs),
                          k.frontier, k.next_frontier);
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        ctr[BB_CTR_EXPANDED] = w.runs;
        ctr[BB_CTR_NEXT] = w.count;
        ctr[BB_CTR_NEXT_ARCS] = w.arcs;
    }
}

/* The search across devices' loop step: its arguments in
 * c_steps[bb_cslot<Shared>(slot)] (cuda_kernels.h bb_search_args and
 * bb_cslot). */
__constant__ bb_search_args c_steps[BB_LOOP_MAX_DEV];

/* What one device's loop step reads that every search of its engine
 * shares, in constant memory as c_steps (as its launch's arguments the road
 * graphs' levels ran 0.7-1.3 % slower on an H200). A GPU holds one engine's
 * (its search cache's id in c_loop_owner): a search finds its own there or
 * writes them first (bb_cuda_search_loop_own). */
__constant__ bb_loop_fixed c_loop;
constexpr int kOwnedGpus = 64;
pthread_mutex_t c_loop_lock = PTHREAD_MUTEX_INITIALIZER;
uint64_t c_loop_owner[kOwnedGpus];   /* 0: none */

/* One device's loop step of the device search: its kstate and the loop's
 * parameters that hold for every search in c_loop (p: the whole log's rows
 * in log_cap; search.cu checks them); what the decide before it wrote for
 * this step (skip, the lists' order, the rows of the log left, where the
 * walk starts) it reads from d once the kernel before it ended. Launched as
 * that kernel's programmatic dependent, it is resident before then, and no
 * copy node runs before it. Its walk counts the log's rows from k's first
 * (the search's rows before this step as its runs: each level's row where
 * k.level_log and the run put it, bb_loop_stops at the log's end), and goes
 * back to d with this step's runs. */
__global__ void __cluster_dims__(kBlocks, 1, 1) __launch_bounds__(kThreads, 1)
    search_levels(bb_search_dev *d)
{
    const bb_kstate_t &k = c_loop.k;
    const bb_loop_params_t &p = c_loop.p;
    bb_let_next_start();
    bb_prefetch_l2(&d->a, sizeof d->a);   /* resident before the step before it ends */
    bb_wait_previous();
    const bb_search_args *a = &d->a;
    if (a->skip) return;   /* a step its decide did not choose (search.cu) */
    const bb_loop_walk_t w0 = {a->loop.level,      p.log_cap - a->loop.log_cap,
                               a->loop.count,      a->loop.arcs,
                               a->loop.prev_count, a->loop.unexplored};
    /* the lists are k's two in the order the step has them: pointers read
     * from memory would compile to generic loads and stores (road levels
     * 1-2 % slower), k's are known to be global */
    const bool swapped = a->k.frontier == k.next_frontier;
    bb_loop_walk_t w = one_device_levels(k, p, w0, swapped ? k.next_frontier : k.frontier,
                                         swapped ? k.frontier : k.next_frontier);
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        w.runs -= p.log_cap - a->loop.log_cap;   /* (read again: a register less) */
        d->loop = w;
    }
}

/* Block 0's shared state of the loop across devices; the other blocks'
 * copies hold what their threads read of it (await_verdict, take_counts). */
struct PeerShared {
    unsigned next[3];
    unsigned long long arcs[3];
    unsigned long long sent[3][BB_LOOP_MAX_DEV];   /* this level's list for each device */
    uint64_t got[BB_LOOP_MAX_DEV];                 /* each source's list for this device */
    uint64_t total_count, total_arcs;              /* the frontier's, from the meeting */
    int status;                                    /* the meeting's BB_MEET_* */
    int stop;                                      /* the totals say: no level here */
    unsigned verdict;                              /* run + 1 of the meeting posted here */
    uint64_t took, took_arcs;                      /* this device's next frontier (copies) */
};

/* Block 0's leader posts a meeting's outcome (PeerShared) to every block of
 * the cluster, and the other blocks wait for it: a release and acquire at
 * cluster scope in place of a cluster barrier (the leader waits for no
 * one); then each block's threads, through a block barrier. What the
 * threads read of block 0's state its thread 0 reads once for the block:
 * every thread reading block 0's counters over the cluster's shared memory
 * cost a level of USA-road-FLA on one H100 about 0.3 us of its 3.9. */
__device__ __forceinline__ void post_verdict(unsigned *verdict, unsigned run)
{
    asm volatile("st.release.cluster.u32 [%0], %1;" ::"l"(verdict), "r"(run + 1) : "memory");
}

__device__ __forceinline__ void await_verdict(const PeerShared *S, PeerShared &own,
                                              unsigned rank, unsigned run, int ndev)
{
    if (threadIdx.x == 0) {
        for (unsigned v = 0; v != run + 1;)
            asm volatile("ld.acquire.cluster.u32 %0, [%1];" : "=r"(v) : "l"(&S->verdict) : "memory");
        if (rank != 0) {   /* block 0's own is S */
            own.status = S->status;
            own.stop = S->stop;
            own.total_count = S->total_count;
            own.total_arcs = S->total_arcs;
            for (int o = 0; o < ndev; o++) own.got[o] = S->got[o];
        }
    }
    __syncthreads();
}

/* This device's next frontier's size and arcs from block 0's counters of
 * the level into own (once a block, as await_verdict). */
__device__ __forceinline__ void take_counts(const PeerShared *S, PeerShared &own, unsigned slot)
{
    if (threadIdx.x == 0) {
        own.took = S->next[slot];
        own.took_arcs = S->arcs[slot];
    }
    __syncthreads();
}

/* Undo the expansion of a level the loop should not have run: this
 * device's winners (own vertices in nxt, remote ones in the lists it sent,
 * at bb_loop_slot of run `runs`) unvisited again, its own ones without a
 * level and parent (every thread of the cluster calls it). */
__device__ __forceinline__ void undo_level(const bb_kstate_t &k, const uint32_t *nxt,
                                           uint64_t won, const unsigned long long *sent,
                                           uint32_t *const *to, const uint64_t *cap,
                                           uint32_t runs, unsigned rank)
{
    const uint64_t first = (uint64_t)rank * kThreads + threadIdx.x, stride = kBlocks * kThreads;
    for (uint64_t i = first; i < won; i += stride) {
        const uint32_t lid = nxt[i];
        k.level[lid] = -1;
        k.pred[lid] = -1;
        bb_unmark(k.visited, k.visited_bits, (uint32_t)(k.lo + lid));
    }
    for (int o = 0; o < k.ndev; o++) {
        if (o == k.self) continue;
        for (uint64_t i = first; i < sent[o]; i += stride)
            bb_unmark(k.visited, k.visited_bits,
                      (uint32_t)(k.range_lo[o] + __ldcg(to[o] + bb_loop_slot(i, runs, cap[o]))));
    }
}

/* The levels across devices from p (every thread of the cluster calls it);
 * the walk where they stopped, *status_p a failed meeting's BB_MEET_*.
 * One meeting a level (kernels.h bb_loop_stops_here): a device expands its
 * part of the frontier, then meets the others with its part's size and
 * arcs and the list it sent each one; the sums decide whether that level
 * belonged to the loop (else it is undone and the loop ends there), and
 * each device takes its inbox into its part of the next frontier. */
__device__ __forceinline__ bb_loop_walk_t peer_levels_body(const bb_kstate_t &k,
                                                          const bb_loop_params_t &p,
                                                          int *status_p)
{
    __shared__ RoundShared sh;
    __shared__ PeerShared s_own;
    __shared__ uint32_t *s_to[BB_LOOP_MAX_DEV];   /* p.peers.to, indexed without a local copy */
    __shared__ uint32_t *s_to_parent[BB_LOOP_MAX_DEV];
    __shared__ uint64_t s_cap[BB_LOOP_MAX_DEV];
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank();
    const bool leader = rank == 0 && threadIdx.x == 0;
    PeerShared *S = cluster.map_shared_rank(&s_own, 0);
    const int ndev = k.ndev, self = k.self;
    const uint64_t lo = k.lo, hi = k.hi;
    const size_t row = BB_LOG_ROW(ndev);
    uint32_t *cur = k.frontier, *nxt = k.next_frontier;
    bb_loop_walk_t w = bb_loop_begin(&p, p.count, p.arcs);
    uint64_t mine = p.peers.local_count, mine_arcs = p.peers.local_arcs;
    uint64_t t_prev = leader ? bb_global_ns() : 0, t_expand = 0, wait = 0;   /* the leader's */
    int status = BB_MEET_OK, undone = 0;
    bool known = true;   /* w.count and w.arcs are the frontier's totals (else the meeting's) */
    unsigned slot = 0;
    if (threadIdx.x < (unsigned)ndev) {
        s_to[threadIdx.x] = p.peers.to[threadIdx.x];
        s_to_parent[threadIdx.x] = p.peers.to_parent[threadIdx.x];
        s_cap[threadIdx.x] = p.peers.cap[threadIdx.x];
    }
    if (leader) {
        s_own.next[0] = 0;
        s_own.arcs[0] = 0;
        for (int o = 0; o < ndev; o++) s_own.sent[0][o] = 0;
        s_own.verdict = 0;
    }
    cluster.sync();
    /* every thread of the cluster holds the same values: the loop is uniform */
    while (!(known && bb_loop_stops(&p, &w))) {
        const uint32_t runs = w.runs;
        const bool expand = !bb_loop_stops_here(&p, &w, mine_arcs);
        slot = runs % 3;
        if (leader) {   /* the counters after this level's: last read before the last barrier */
            const unsigned after = (slot + 1) % 3;
            s_own.next[after] = 0;
            s_own.arcs[after] = 0;
            for (int o = 0; o < ndev; o++) s_own.sent[after][o] = 0;
        }
        if (expand)
            expand_rounds<false>(k, cur, mine, rank, sh, [&](bool arc, uint32_t v, uint32_t u) {
                if (!arc) return;
                const bool own = v >= lo && v < hi;   /* its degree read beside the claim */
                const unsigned long long deg = own ? bb_degree(k.offsets, (uint32_t)(v - lo)) : 0;
                if (!bb_visit(k.visited, k.visited_bits, v)) return;
                if (own) {
                    const uint32_t lid = (uint32_t)(v - lo);
                    k.level[lid] = w.level + 1;
                    k.pred[lid] = (int64_t)(lo + u);
                    nxt[atomicAdd(S->next + slot, 1u)] = lid;
                    atomicAdd(S->arcs + slot, deg);
                    return;
                }
                const int o = bb_owner(k.range_lo, ndev, v);
                const uint64_t at = bb_loop_slot(atomicAdd(&S->sent[slot][o], 1ull), runs, s_cap[o]);
                s_to[o][at] = (uint32_t)(v - __ldg(k.range_lo + o));
                if (s_to_parent[o]) s_to_parent[o][at] = (uint32_t)(lo + u);
                else if (k.remote_parent) k.remote_parent[bb_remote_slot(v, lo, hi)] = u;
            });
        /* (1) this device's expansion is done; the leader's fence in the
         * meeting publishes the lists it observed through this barrier
         * (cumulativity: no fence per writing thread) */
        cluster.sync();
        if (leader) {
            uint32_t v[BB_MAIL_VALUES][BB_LOOP_MAX_DEV], g[BB_MAIL_VALUES][BB_LOOP_MAX_DEV] = {};
            bool sent = false;
            for (int o = 0; o < ndev; o++) {   /* (counts of 32-bit vertex ids) */
                v[0][o] = o == self ? 0 : (uint32_t)S->sent[slot][o];
                v[1][o] = (uint32_t)mine;
                v[2][o] = (uint32_t)mine_arcs;
                v[3][o] = (uint32_t)(mine_arcs >> 32);
                sent = sent || v[0][o];
            }
            const bb_loop_peers_t peers = p.peers;   /* p may be __constant__: no address */
            t_expand = bb_global_ns();
            s_own.status = bb_meet_words(peers, ndev, self, p.peers.tag + runs + 1, sent, v, g);
            wait = bb_global_ns() - t_expand;
            uint64_t total = mine, total_arcs = mine_arcs;
            for (int o = 0; o < ndev; o++) {
                if (o == self) continue;
                s_own.got[o] = g[0][o];
                total += g[1][o];
                total_arcs += g[2][o] | (uint64_t)g[3][o] << 32;
            }
            bb_loop_walk_t at = w;
            at.count = total;
            at.arcs = total_arcs;
            s_own.total_count = total;
            s_own.total_arcs = total_arcs;
            s_own.stop = !known && bb_loop_stops(&p, &at);
            post_verdict(&s_own.verdict, runs);
        }
        await_verdict(S, s_own, rank, runs, ndev);   /* (2) the totals; every list has landed */
        status = s_own.status;
        if (status != BB_MEET_OK) break;
        w.count = s_own.total_count;
        w.arcs = s_own.total_arcs;
        if (s_own.stop) {
            if (expand) undo_level(k, nxt, S->next[slot], S->sent[slot], s_to, s_cap, runs, rank);
            undone = expand;
            break;
        }
        for (int s = 0; s < ndev; s++) {   /* the first source to deliver a vertex is its parent's */
            if (s == self) continue;
            const uint64_t got = s_own.got[s];
            const uint32_t *in = p.peers.from[s], *in_parent = p.peers.from_parent[s];
            for (uint64_t i = (uint64_t)rank * kThreads + threadIdx.x; i < got;
                 i += (uint64_t)kBlocks * kThreads) {
                const uint64_t at = bb_loop_slot(i, runs, p.peers.cap[self]);
                const uint32_t lid = __ldcg(in + at);
                if (atomicCAS((int *)k.level + lid, -1, w.level + 1) != -1) continue;
                k.pred[lid] = in_parent ? (int64_t)__ldcg(in_parent + at) : -(int64_t)s - 2;
                bb_mark(k.visited, k.visited_bits, (uint32_t)(lo + lid));
                nxt[atomicAdd(S->next + slot, 1u)] = lid;
                atomicAdd(S->arcs + slot, bb_degree(k.offsets, lid));
            }
            if (ndev > 2) cluster.sync();   /* in source order */
        }
        cluster.sync();   /* (3) this device's next frontier is whole */
        if (leader) {
            const uint64_t now = bb_global_ns();
            uint64_t *log = k.level_log + (size_t)runs * row;
            log[0] = w.count;
            log[1] = w.arcs;
            log[2] = now - t_prev;
            log[3] = mine;
            log[BB_LOG_EXPAND_NS] = t_expand - t_prev;
            log[BB_LOG_MEET_NS] = wait;
            log[BB_LOG_STEP] = BB_STEP_LOOP;
            log[BB_LOG_UNDONE] = 0;
            log[BB_LOG_HUBS] = 0;
            for (int o = 0; o < ndev; o++) log[BB_LOG_SENT + o] = o == self ? 0 : S->sent[slot][o];
            t_prev = now;
        }
        take_counts(S, s_own, slot);
        bb_loop_advance(&w, 0, 0);   /* the next frontier's totals come with the next meeting */
        known = false;
        mine = s_own.took;
        mine_arcs = s_own.took_arcs;
        uint32_t *t = cur;
        cur = nxt;
        nxt = t;
    }
    if (leader) {
        unsigned long long *ctr = (unsigned long long *)k.counters;
        ctr[BB_CTR_EXPANDED] = status != BB_MEET_OK ? BB_LOOP_FAILED : w.runs;
        ctr[BB_CTR_NEXT] = mine;
        ctr[BB_CTR_NEXT_ARCS] = mine_arcs;
        for (int o = 0; o < ndev; o++)
            ctr[BB_CTR_SEND_COUNT(o)] = undone && o != self ? S->sent[slot][o] : 0;
    }
    *status_p = status;
    cluster.sync();   /* block 0's shared memory outlives every reader */
    return w;
}

__global__ void __cluster_dims__(kBlocks, 1, 1) __launch_bounds__(kThreads, 1)
    peer_levels(bb_kstate_t k, bb_loop_params_t p)
{
    int status;
    peer_levels_body(k, p, &status);
}

/* The device search's loop step across devices: its arguments as
 * search_levels', the walk where it stopped back to d. */
template <bool Shared>
__global__ void __cluster_dims__(kBlocks, 1, 1) __launch_bounds__(kThreads, 1)
    search_peer_levels(bb_search_dev *d, unsigned slot)
{
    int status;
    const bb_search_args &c = c_steps[bb_cslot<Shared>(slot)];
    bb_let_next_start();   /* the decide after it */
    if (c.skip) return;   /* a step its decide did not choose (search.cu) */
    const bb_loop_walk_t w = peer_levels_body(c.k, c.loop, &status);
    if (blockIdx.x == 0 && threadIdx.x == 0) d->loop = w;
}

/* Each of the device's n vertices' short row (kernels.h bb_short_row). */
__global__ void make_short_rows(const int64_t *offsets, const uint32_t *columns, uint64_t n,
                                uint4 *rows)
{
    for (uint64_t v = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; v < n;
         v += (uint64_t)gridDim.x * blockDim.x) {
        uint32_t w[4];
        bb_short_row(offsets, columns, v, w);
        rows[v] = make_uint4(w[0], w[1], w[2], w[3]);
    }
}

}  // namespace

extern "C" boxbfs_status_t bb_cuda_short_rows(const bb_kstate_t *k, void *stream)
{
    const uint64_t n = k->hi - k->lo;
    BB_CHECK(bb_cuda_bind(stream));
    if (n == 0) return BOXBFS_OK;
    const unsigned blocks = (unsigned)(n / 256 + 1 < 65536 ? n / 256 + 1 : 65536);
    make_short_rows<<<blocks, 256, 0, (cudaStream_t)stream>>>(
        k->offsets, k->columns, n, reinterpret_cast<uint4 *>(const_cast<uint32_t *>(k->short_rows)));
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

/* The dynamic shared memory of one device's loop kernel: room for the
 * visited bits of all n vertices (solo_bits) where the atomic method keeps
 * them as bits and they fit beside the kernel's static shared memory, the
 * kernel allowed that much; else 0 (*bytes_p). */
template <class Kernel>
static boxbfs_status_t loop_bits_bytes(const bb_kstate_t *k, Kernel kernel, size_t *bytes_p)
{
    const size_t bytes = (size_t)((k->n + 31) / 32) * 4;
    cudaFuncAttributes attr;
    int dev, most;
    *bytes_p = 0;
    if (k->ndev != 1 || !k->visited || !k->visited_bits || k->contract != BOXBFS_CONTRACT_ATOMIC)
        return BOXBFS_OK;
    BB_CUDA_CHECK(cudaGetDevice(&dev));
    BB_CUDA_CHECK(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    BB_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    if (attr.sharedSizeBytes + bytes > (size_t)most) return BOXBFS_OK;
    BB_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       (int)bytes));
    *bytes_p = bytes;
    return BOXBFS_OK;
}

extern "C" boxbfs_status_t bb_cuda_small_levels(const bb_kstate_t *k, void *stream,
                                                const bb_loop_params_t *p)
{
    BB_CHECK(bb_cuda_bind(stream));
    if (k->level_log == NULL || k->ndev > BB_LOOP_MAX_DEV ||
        (k->ndev > 1 && (k->visited == NULL || p->from_counters)))
        return bb_error_set(BOXBFS_ERR_INTERNAL, "cuda small_levels: no log, or no visited");
    if (k->ndev == 1) {
        size_t bits;
        BB_CHECK(loop_bits_bytes(k, small_levels, &bits));
        small_levels<<<kBlocks, kThreads, bits, (cudaStream_t)stream>>>(*k, *p);
    } else
        peer_levels<<<kBlocks, kThreads, 0, (cudaStream_t)stream>>>(*k, *p);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t bb_cuda_search_loop(const bb_kstate_t *k, bb_search_dev *d, cudaStream_t s)
{
    size_t bits;
    BB_CHECK(loop_bits_bytes(k, search_levels, &bits));
    return bb_launch_dependent(search_levels, dim3(kBlocks), dim3(kThreads), bits, s, d);
}

boxbfs_status_t bb_cuda_search_loop_own(int dev, uint64_t owner, const bb_loop_fixed *f,
                                        cudaStream_t s)
{
    boxbfs_status_t st = BOXBFS_OK;
    if (dev < 0 || dev >= kOwnedGpus)
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED, "the device search runs on GPUs 0 to %d",
                            kOwnedGpus - 1);
    /* ids are never reused: finding its own there needs no lock */
    if (__atomic_load_n(&c_loop_owner[dev], __ATOMIC_ACQUIRE) == owner) return BOXBFS_OK;
    pthread_mutex_lock(&c_loop_lock);
    if (c_loop_owner[dev] != owner) {
        cudaError_t e = cudaMemcpyToSymbolAsync(c_loop, f, sizeof *f, 0, cudaMemcpyHostToDevice, s);
        if (e == cudaSuccess) e = cudaStreamSynchronize(s);
        if (e == cudaSuccess) __atomic_store_n(&c_loop_owner[dev], owner, __ATOMIC_RELEASE);
        else st = bb_error_set(BOXBFS_ERR_DEVICE, "cuda search: the loop's constants: %s",
                               cudaGetErrorString(e));
    }
    pthread_mutex_unlock(&c_loop_lock);
    return st;
}

/* The loop step across devices: its arguments into this device's constant
 * copy (slot: kstate.cslot), then the loop kernel (on a shared GPU, the one
 * that reads that slot). */
boxbfs_status_t bb_cuda_search_peer_loop(bb_search_dev *d, cudaStream_t s, unsigned slot)
{
    BB_CUDA_CHECK(cudaMemcpyToSymbolAsync(c_steps, &d->a, sizeof d->a, slot * sizeof d->a,
                                          cudaMemcpyDeviceToDevice, s));
    if (slot) search_peer_levels<true><<<kBlocks, kThreads, 0, s>>>(d, slot);
    else search_peer_levels<false><<<kBlocks, kThreads, 0, s>>>(d, 0);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}
