/* Load-balanced frontier expansion on the GPU [004 §3.4, 002 §4], shared by
 * the 1D expand (expand.cu) and the 2D expand (grid2d.cu): an exclusive scan
 * of the frontier's degrees (CUB, into a scan array) maps every frontier arc
 * to a thread; binsearch [004 §3.4.1] or mergepath [002 §4.3] (expand.cu's
 * opening comment says how each works) hands each warp 32 x K arcs and calls
 * a consumer with them, which does the method's work on each neighbor.
 *
 * A consumer C provides, called by all 32 lanes of a warp:
 *   template <int K> void operator()(const bool (&valid)[K], const uint64_t (&e)[K],
 *       const uint32_t (&v)[K], const uint32_t (&u)[K], bb_block_sum &arcs_acc,
 *       WarpStage *stage) const   K arcs per lane: edge index e, neighbor v,
 *                                 frontier vertex u (stage: NULL in mergepath)
 *   void flush(WarpStage *) const       at the end of a binsearch block
 *   void start(uint64_t total) const    once per launch, with the arc total
 *   unsigned long long *next_arcs() const   where arcs_acc goes (or NULL) */
#ifndef BB_EXPAND_LB_CUH
#define BB_EXPAND_LB_CUH

#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "kernels/cuda/cuda_kernels.h"

namespace {

constexpr int kThreads = 256;                        /* binsearch block      */
constexpr int kMpThreads = 256;                      /* mergepath block      */
constexpr int kMpSteps = 8;                          /* path steps per thread */
constexpr uint32_t kMpTile = kMpThreads * kMpSteps;  /* path items per tile   */
/* Staged ids per warp: 32 x 8 (K <= 8 fits whole). 8 KiB per block; with
 * 512 a binsearch block took 33 KiB of shared memory, and its four blocks per
 * SM (64 registers per thread) left 92 KiB of L1 instead of 124. */
constexpr int kStage = 256;

/* The binsearch block's staging of a list that every warp of the grid
 * appends to (the atomic method's next frontier, the 2D expand's own
 * segment): each warp gathers its ids here and appends kStage at a time, so
 * the list's counter sees one atomic per kStage ids instead of one per call.
 * (The merge path's tiles fill its shared memory: it appends directly.) */
struct WarpStage {
    uint32_t ids[kThreads / 32][kStage];
    unsigned count[kThreads / 32];

    /* The warp's staged ids to out[*counter ..] (all lanes call it). */
    __device__ void flush(unsigned long long *counter, uint32_t *out)
    {
        const unsigned w = threadIdx.x >> 5, c = count[w];
        unsigned long long base = 0;
        if (c == 0) return;   /* warp-uniform */
        if (bb_lane() == 0) base = atomicAdd(counter, (unsigned long long)c);
        base = __shfl_sync(BB_FULL_MASK, base, 0);
        for (unsigned i = bb_lane(); i < c; i += 32) out[base + i] = ids[w][i];
        __syncwarp();
        if (bb_lane() == 0) count[w] = 0;
        __syncwarp();
    }
    /* Room for n ids per lane (all lanes call it), after a flush to
     * (counter, out) when they would not fit: this lane's first slot in *to_p,
     * ids[warp], or, for more than kStage ids at once (K = 16), in out itself
     * after one atomic for the warp. Write them, then __syncwarp() before the
     * next flush. */
    __device__ unsigned long long reserve(unsigned n, unsigned long long *counter, uint32_t *out,
                                          uint32_t **to_p)
    {
        const unsigned incl = bb_warp_inclusive_sum(n), w = threadIdx.x >> 5;
        const unsigned total = __shfl_sync(BB_FULL_MASK, incl, 31);
        if (count[w] + total > (unsigned)kStage) flush(counter, out);
        if (total > (unsigned)kStage) {
            unsigned long long base = 0;
            if (bb_lane() == 0) base = atomicAdd(counter, (unsigned long long)total);
            *to_p = out;
            return __shfl_sync(BB_FULL_MASK, base, 0) + incl - n;
        }
        const unsigned c = count[w];
        __syncwarp();
        if (bb_lane() == 0) count[w] = c + total;
        *to_p = ids[w];
        return c + incl - n;
    }
};
/* The slot of this lane's first of n ids in a list behind counter that
 * every warp of the grid appends to: in the warp's stage (binsearch; *to_p =
 * the stage, flushed to the list when full) or in the list itself after one
 * atomic for the warp (merge path: stage NULL; *to_p = list). Every lane
 * calls it; once the ids are written a staging warp calls __syncwarp()
 * before the next flush reads them. */
__device__ __forceinline__ unsigned long long list_slot(WarpStage *stage, unsigned n,
                                                        unsigned long long *counter,
                                                        uint32_t *list, uint32_t **to_p)
{
    if (stage == NULL) {
        *to_p = list;
        return bb_warp_append(counter, n);
    }
    return stage->reserve(n, counter, list, to_p);
}
/* The binsearch block's transposition of each warp's 32 x K edges (lane l
 * finds the vertices of edges l K .. l K + K - 1 and loads the columns of
 * edges l, l + 32, ...). One padding word per 32 keeps both the writes
 * (stride K) and the reads (stride 1) free of bank conflicts. K = 16 keeps
 * the lane-consecutive loads (and the shared memory it would take). */
template <int K> constexpr bool kTranspose = K <= 8;
template <int K> constexpr int kTrWords = kTranspose<K> ? 32 * K + K : 1;
template <int K>
struct Transpose {
    uint32_t pairs[kThreads / 32][2][kTrWords<K>];
};
/* A binsearch block's shared memory, sized for KS edges per thread: one
 * variable per KS in a kernel, so that the bodies of an automatic K share it
 * (one each for K = 2, 4 and 8 would take 54 KiB a block instead of 25, and
 * the L1 that the Visited probes use). */
template <int KS>
struct BinsearchShared {
    bb_block_sum arcs_acc;
    WarpStage stage;
    Transpose<KS> gather;
};
template <int KS>
__device__ __forceinline__ BinsearchShared<KS> &binsearch_shared()
{
    __shared__ BinsearchShared<KS> sh;
    return sh;
}

/* --expand-k auto (kAutoK): each level's edges per thread from its arcs per
 * thread of the grid: K = 2 below 32, 4 below 128, else 8. A level of few
 * arcs a thread runs in few rounds of the grid at K = 8, the last part
 * empty and each long: kron:24's hub level (1.7 M arcs, 12.6 a thread of an
 * H200) took 116-121 us at K = 8, 105-110 at 2 or 4; levels of hundreds a
 * thread want 8 (kron:24 --direction top-down at K = 2: 0.80x). Against K =
 * 8 on one H200: kron:22 1.031x, kron:24 1.011x, top-down 1.017x; the
 * thresholds 16 / 64, 8 / 32 and 2 or 8 at 64 were within 0.5 % of these.
 * The merge path keeps 8. */
constexpr int kAutoK = 0;
constexpr uint64_t kAutoK4From = 32, kAutoK8From = 128;
template <int K> constexpr int kMergeK = K == kAutoK ? 8 : K;
/* K, the edges per thread [004 §3.4.1, Fig 3: 4 was best], and f0, the
 * hybrid threshold [002 §4.4, §5.1: expand factor (edges over frontier
 * vertices) above f0 = 10 takes the merge path], come from the engine options
 * (--expand-k, --expand-f0) so that both can be measured. */

enum { MODE_AUTO = 0, MODE_BINSEARCH = 1, MODE_MERGEPATH = 2 };

__host__ __device__ inline int expand_mode(int expand)
{
    return expand == BOXBFS_EXPAND_BINSEARCH ? MODE_BINSEARCH
           : expand == BOXBFS_EXPAND_MERGEPATH ? MODE_MERGEPATH : MODE_AUTO;
}

/* Degree of the i-th frontier vertex, the scan's input (fused, no pass).
 * With rank (the visited-prefix skip, kstate rank_prefix): its arcs past
 * the prefix *prefix, the ones skipped stored in skip[i]. */
struct DegreeOp {
    const uint32_t *frontier;
    const int64_t *offsets;
    const uint32_t *columns = nullptr, *rank = nullptr, *prefix = nullptr;
    uint32_t *skip = nullptr;
    /* A step that splits the hubs' rows (kernels.h bb_peers_split_hubs):
     * the list also holds the rows nloc + h of the hubs at the frontier's
     * level (search_peers.cu list_hubs), and a vertex of its own of at
     * least hub_degree arcs is a hub, left to its row's parts. */
    uint32_t nloc = 0, hub_degree = 0;
    bool split = false;
    __host__ __device__ uint32_t operator()(uint32_t i) const
    {
        const uint32_t u = frontier[i];
        const int64_t b = offsets[u], e = offsets[u + 1];
        if (split && u < nloc && e - b >= hub_degree) {
            if (skip) skip[i] = 0;
            return 0;
        }
        if (rank == nullptr) return (uint32_t)(e - b);
        const uint32_t p = *prefix;
        const int64_t past = p ? bb_row_past_prefix(columns, rank, b, e, p) : b;
        skip[i] = (uint32_t)(past - b);
        return (uint32_t)(e - past);
    }
};
/* The degrees as the scan's entries: 32-bit sums where the device's arcs
 * fit them, else 64-bit (kstate arcs64). */
template <class ScanT>
struct DegreeAs {
    DegreeOp op;
    __host__ __device__ ScanT operator()(uint32_t i) const { return op(i); }
};
template <class ScanT>
using DegreeIt = thrust::transform_iterator<DegreeAs<ScanT>, thrust::counting_iterator<uint32_t>>;

/* The visited-prefix skip's degrees of kstate k's frontier (no skip where
 * k has none). */
__host__ __device__ inline DegreeOp skip_degree(const bb_kstate_t &k, const uint32_t *frontier)
{
    if (k.rank_prefix == nullptr) return DegreeOp{frontier, k.offsets};
    return DegreeOp{frontier, k.offsets, k.columns, k.rank, k.rank_prefix + 1, k.skip};
}

/* Exclusive scan of frontier degrees; one function for the size query and
 * the run so both instantiate the same CUB dispatch. ScanT uint32_t where
 * the device holds fewer arcs than the engine's 64-bit threshold (its sums
 * fit), else uint64_t. */
template <class ScanT>
cudaError_t degree_scan(void *tmp, size_t &bytes, const DegreeOp &degree, ScanT *out,
                        uint32_t count, cudaStream_t stream)
{
    DegreeIt<ScanT> in(thrust::counting_iterator<uint32_t>(0), DegreeAs<ScanT>{degree});
    return cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, count, stream);
}

/* The same scan of a frontier of at most kSmallScan vertices by one block:
 * one launch and no host work, where CUB's device scan launches two kernels
 * after host-side queries (a host-driven level's fixed cost). */
constexpr int kScanThreads = 1024, kScanItems = 4;
constexpr uint32_t kSmallScan = kScanThreads * kScanItems;
template <class ScanT>
using TileScan = cub::BlockScan<ScanT, kScanThreads>;

/* Tile t of the scan of count items (all threads of the block call it):
 * out[i] = offset + the sum of load(j) for j in the tile before i; the
 * last tile also stores the sum of all in *end where end is given. */
template <class ScanT, class Load>
__device__ __forceinline__ void scan_tile(typename TileScan<ScanT>::TempStorage &tmp, Load load,
                                          ScanT *out, uint64_t count, uint64_t t, ScanT offset,
                                          ScanT *end = nullptr)
{
    ScanT x[kScanItems], sum;
#pragma unroll
    for (int j = 0; j < kScanItems; j++) {
        const uint64_t i = t * kSmallScan + threadIdx.x * kScanItems + j;
        x[j] = i < count ? load((uint32_t)i) : 0;
    }
    TileScan<ScanT>(tmp).ExclusiveSum(x, x, sum);
    if (end && threadIdx.x == 0 && (t + 1) * kSmallScan >= count) *end = offset + sum;
#pragma unroll
    for (int j = 0; j < kScanItems; j++) {
        const uint64_t i = t * kSmallScan + threadIdx.x * kScanItems + j;
        if (i < count) out[i] = x[j] + offset;
    }
}

template <class ScanT>
__global__ void __launch_bounds__(kScanThreads)
    degree_scan_small(DegreeOp degree, ScanT *out, uint32_t count)
{
    __shared__ typename TileScan<ScanT>::TempStorage tmp;
    scan_tile(tmp, degree, out, count, 0, ScanT(0));
}

/* What the producers read. scan[i] = first edge of frontier vertex i;
 * skip (NULL: none): the arcs skipped at the start of frontier vertex i's
 * row (the visited-prefix skip, kstate rank_prefix). */
template <class ScanT>
struct Frontier {
    const uint32_t *frontier;
    const int64_t *offsets;
    const uint32_t *columns;
    const ScanT *scan;
    uint32_t count;
    int mode;
    uint64_t f0;
    const uint32_t *skip;
    bool scan_end = false;   /* scan[count] holds the arcs (search_scan_tiles) */
};

/* The first arc of frontier vertex i (= u) that the expand takes. */
template <class ScanT>
__device__ __forceinline__ uint64_t row_start(const Frontier<ScanT> &f, uint32_t i, uint32_t u)
{
    return (uint64_t)__ldg(f.offsets + u) + (f.skip ? __ldg(f.skip + i) : 0u);
}

/* A frontier arc's column, read once: evict-first (ld.global.cs), so that
 * the stream of columns does not push the Visited words out of L1 (with
 * --relabel degree most probes hit the hubs' few KiB of them). */
__device__ __forceinline__ uint32_t load_column(const uint32_t *p) { return __ldcs(p); }

/* The arcs the frontier's scan covers (the last vertex's row may be left
 * out, DegreeOp's split: the device search's scan stores its end). */
template <class ScanT>
__device__ __forceinline__ uint64_t frontier_edges(const Frontier<ScanT> &f)
{
    if (f.scan_end) return __ldg(f.scan + f.count);
    uint32_t u = __ldg(f.frontier + f.count - 1);
    return (uint64_t)__ldg(f.scan + f.count - 1) + (uint64_t)__ldg(f.offsets + u + 1) -
           row_start(f, f.count - 1, u);
}

/* The hybrid rule, decided on the device where the edge total lives. */
template <class ScanT>
__device__ __forceinline__ bool take_mergepath(const Frontier<ScanT> &f, uint64_t total)
{
    if (f.mode == MODE_MERGEPATH) return true;
    if (f.mode == MODE_BINSEARCH) return false;
    return total > f.f0 * (uint64_t)f.count;
}

/* ---- producers ---------------------------------------------------------------- */

/* The greatest i in [k, count) with scan[i] <= e, given scan[k] <= e: a
 * gallop forward from k, then a binary search over the bracket. Frontier
 * vertices with no arcs to take (the visited-prefix skip leaves many) share
 * one scan value, so a step to the next arc may pass many of them. */
template <class ScanT>
__device__ __forceinline__ uint32_t last_at_or_below(const ScanT *scan, uint32_t k,
                                                     uint32_t count, uint64_t e)
{
    uint64_t step = 1;
    while ((uint64_t)k + step < count && __ldg(scan + k + step) <= e) {
        k += (uint32_t)step;
        step <<= 1;
    }
    uint32_t hi = (uint64_t)k + step < count ? (uint32_t)(k + step - 1) : count - 1;
    while (k < hi) {
        uint32_t mid = k + (hi - k + 1) / 2;
        if (__ldg(scan + mid) <= e) k = mid; else hi = mid - 1;
    }
    return k;
}

/* [004 §3.4.1] Lane chunks of K consecutive edges; a warp's chunks are
 * adjacent, so the warp-uniform loop keeps all lanes at the consumer. The
 * search for a lane's first edge is split: the warp finds the vertex of its
 * first edge with a 32-way search (a few dependent loads, starting from the
 * previous one: chunks only move forward), then each lane gallops forward
 * from there and finishes with a binary search over the short bracket; its
 * next edges gallop on from the vertex of the one before. */
template <int K, int KS, class ScanT, class C>
__device__ __forceinline__ void binsearch_run(const Frontier<ScanT> &f, const C &consume,
                                              uint64_t total)
{
    static_assert(!kTranspose<K> || kTrWords<K> <= kTrWords<KS>, "the shared rows hold K");
    BinsearchShared<KS> &sh = binsearch_shared<KS>();
    bb_block_sum &arcs_acc = sh.arcs_acc;
    WarpStage &stage = sh.stage;
    if (blockIdx.x == 0 && threadIdx.x == 0) consume.start(total);
    if (bb_lane() == 0) stage.count[threadIdx.x >> 5] = 0;
    arcs_acc.begin();   /* (its barrier also publishes the stage counts) */
    const ScanT *scan = f.scan;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x * K;
    uint32_t kw = 0;   /* vertex of the warp's first edge; scan[kw] <= wbase */
    for (uint64_t wbase = ((uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u)) * K;
         wbase < total; wbase += stride) {
        kw = (uint32_t)bb_warp_partition_point(
                 kw, f.count, [=](uint64_t i) { return (uint64_t)__ldg(scan + i) <= wbase; }) - 1;
        const uint64_t e0 = wbase + (uint64_t)bb_lane() * K;
        /* greatest vertex whose first edge is <= e0 */
        const uint32_t k = e0 < total ? last_at_or_below(scan, kw, f.count, e0) : kw;
        bool valid[K];
        uint64_t e[K], col[K];
        uint32_t kv[K], u[K], v[K];
        uint32_t kc = k;
#pragma unroll
        for (int j = 0; j < K; j++) {
            e[j] = e0 + j;
            valid[j] = e[j] < total;
            if (valid[j] && kc + 1 < f.count && __ldg(f.scan + kc + 1) <= e[j])
                kc = last_at_or_below(scan, kc + 1, f.count, e[j]);
            kv[j] = kc;
        }
        /* interleaved: K independent loads per stage */
#pragma unroll
        for (int j = 0; j < K; j++) u[j] = valid[j] ? __ldg(f.frontier + kv[j]) : 0;
#pragma unroll
        for (int j = 0; j < K; j++)
            col[j] = valid[j] ? row_start(f, kv[j], u[j]) + (e[j] - __ldg(f.scan + kv[j])) : 0;
        if (kTranspose<K> && sizeof(ScanT) == 4) {
            /* the warp's 32 x K (parent, column index) pairs through shared
             * memory, so that lane l takes edges wbase + 32 j + l: each
             * column load below is one coalesced 128 B request instead of
             * 32 sectors 4 K bytes apart (32-bit column indices: only where
             * the device's arcs fit them) */
            uint32_t(&tr)[2][kTrWords<KS>] = sh.gather.pairs[threadIdx.x >> 5];
#pragma unroll
            for (int j = 0; j < K; j++) {
                const unsigned s = bb_lane() * K + j;
                tr[0][s + s / 32] = u[j];
                tr[1][s + s / 32] = (uint32_t)col[j];
            }
            __syncwarp();
#pragma unroll
            for (int j = 0; j < K; j++) {
                const unsigned s = (unsigned)j * 32u + bb_lane();
                e[j] = wbase + s;
                valid[j] = e[j] < total;
                u[j] = tr[0][s + j];
                col[j] = tr[1][s + j];
            }
            __syncwarp();   /* read before the next chunk overwrites */
        }
#pragma unroll
        for (int j = 0; j < K; j++) v[j] = valid[j] ? load_column(f.columns + col[j]) : 0;
        consume(valid, e, v, u, arcs_acc, &stage);
    }
    consume.flush(&stage);
    arcs_acc.end(consume.next_arcs());
}

/* The binsearch producer at K edges per thread, or (kAutoK) at the level's
 * K, chosen from its arcs and the grid alike by every block. */
template <int K, class ScanT, class C>
__device__ __forceinline__ void binsearch_body(const Frontier<ScanT> &f, const C &consume)
{
    if (f.count == 0) return;
    const uint64_t total = frontier_edges(f);
    if (take_mergepath(f, total)) return;   /* (both returns are grid-uniform) */
    if constexpr (K == kAutoK) {
        const uint64_t threads = (uint64_t)gridDim.x * blockDim.x;
        if (total >= kAutoK8From * threads) binsearch_run<8, 8>(f, consume, total);
        else if (total >= kAutoK4From * threads) binsearch_run<4, 8>(f, consume, total);
        else binsearch_run<2, 8>(f, consume, total);
    } else {
        binsearch_run<K, K>(f, consume, total);
    }
}

template <int K, class ScanT, class C>
__global__ void __launch_bounds__(kThreads) expand_binsearch(Frontier<ScanT> f, C consume)
{
    binsearch_body<K>(f, consume);
}

/* Split of the merge path at diagonal d: how many frontier vertices come
 * before path position d (a vertex precedes edge b when scan <= b; the
 * predicate is monotone in the vertex index). Called by a whole warp. */
__device__ __forceinline__ uint32_t path_split(const uint32_t *scan, uint32_t count, uint64_t total,
                                               uint64_t d)
{
    uint64_t lo = d > total ? d - total : 0, hi = d < count ? d : count;
    return (uint32_t)bb_warp_partition_point(
        lo, hi, [=](uint64_t mid) { return (uint64_t)__ldg(scan + mid) <= d - 1 - mid; });
}

/* [002 §4.3] Tiles of kMpTile path items (vertices + edges) per block; its
 * shared arrays hold 32-bit arc indices, so only devices whose arcs fit
 * them take it (a device of 64-bit arcs runs binsearch). */
template <int K, class C>
__device__ __forceinline__ void mergepath_body(const Frontier<uint32_t> &f, const C &consume)
{
    constexpr int KM = kMergeK<K>;
    /* entry i describes vertex a0 - 1 + i of the tile */
    __shared__ uint32_t s_scan[kMpTile + 1], s_start[kMpTile + 1], s_u[kMpTile + 1];
    __shared__ uint32_t s_col[kMpTile], s_par[kMpTile];
    __shared__ uint32_t s_split[2];
    if (f.count == 0) return;
    const uint64_t total = frontier_edges(f);
    if (!take_mergepath(f, total)) return;   /* (both returns are grid-uniform) */
    if (blockIdx.x == 0 && threadIdx.x == 0) consume.start(total);
    __shared__ bb_block_sum arcs_acc;
    arcs_acc.begin();
    const uint64_t path = total + f.count;
    for (uint64_t tile = blockIdx.x; tile * kMpTile < path; tile += gridDim.x) {
        const uint64_t d0 = tile * kMpTile, d1 = d0 + kMpTile < path ? d0 + kMpTile : path;
        if (threadIdx.x < 64) {   /* warps 0 and 1 split the path at d0 and d1 */
            const uint64_t d = threadIdx.x < 32 ? d0 : d1;
            uint32_t a = path_split(f.scan, f.count, total, d);
            if (bb_lane() == 0) s_split[threadIdx.x >> 5] = a;
        }
        __syncthreads();
        const uint32_t a0 = s_split[0], na = s_split[1] - a0;
        const uint64_t b0 = d0 - a0;
        const uint32_t nb = (uint32_t)(d1 - s_split[1] - b0);
        for (uint32_t i = threadIdx.x; i <= na; i += blockDim.x) {
            if (i == 0 && a0 == 0) continue;   /* no vertex before the first */
            uint32_t kv = a0 - 1 + i, u = __ldg(f.frontier + kv);
            s_scan[i] = __ldg(f.scan + kv);
            s_u[i] = u;
            s_start[i] = (uint32_t)row_start(f, kv, u);
        }
        __syncthreads();
        /* this thread's part of the tile's path, split in shared memory */
        const uint32_t len = (uint32_t)(d1 - d0);
        const uint32_t dt = threadIdx.x * kMpSteps < len ? threadIdx.x * kMpSteps : len;
        const uint32_t dend = dt + kMpSteps < len ? dt + kMpSteps : len;
        uint32_t lo = dt > nb ? dt - nb : 0, hi = dt < na ? dt : na;
        while (lo < hi) {
            uint32_t mid = (lo + hi) >> 1;
            if ((uint64_t)s_scan[mid + 1] <= b0 + (dt - 1 - mid)) lo = mid + 1; else hi = mid;
        }
        uint32_t ai = lo, bi = dt - lo;
        for (uint32_t step = dt; step < dend; step++) {
            if (ai < na && (bi >= nb || (uint64_t)s_scan[ai + 1] <= b0 + bi)) {
                ai++;   /* next vertex */
            } else {    /* edge b0 + bi belongs to vertex a0 - 1 + ai */
                s_col[bi] = s_start[ai] + (uint32_t)(b0 + bi - s_scan[ai]);
                s_par[bi] = s_u[ai];
                bi++;
            }
        }
        __syncthreads();
        /* gather the tile's columns: lane-adjacent edges, coalesced */
        const uint32_t warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
        for (uint32_t base = warp * 32u * KM; base < nb; base += nwarps * 32u * KM) {
            bool valid[KM];
            uint64_t e[KM];
            uint32_t col[KM], u[KM], v[KM];
#pragma unroll
            for (int j = 0; j < KM; j++) {
                uint32_t i = base + (uint32_t)j * 32u + bb_lane();
                valid[j] = i < nb;
                e[j] = b0 + i;
                col[j] = valid[j] ? s_col[i] : 0;
                u[j] = valid[j] ? s_par[i] : 0;
            }
#pragma unroll
            for (int j = 0; j < KM; j++) v[j] = valid[j] ? load_column(f.columns + col[j]) : 0;
            consume(valid, e, v, u, arcs_acc, nullptr);
        }
        __syncthreads();
    }
    arcs_acc.end(consume.next_arcs());
}

template <int K, class C>
__global__ void __launch_bounds__(kMpThreads) expand_mergepath(Frontier<uint32_t> f, C consume)
{
    mergepath_body<K>(f, consume);
}

/* What one expand reads: count frontier vertices (ids into offsets), the CSR,
 * scan (count entries, written: the degree scan; 64-bit entries where wide),
 * CUB scratch of scratch_bytes (bb_cuda_expand_scratch), the method
 * (boxbfs_expand_t), K (edges per thread: 1, 2, 4, 8, 16, checked by the
 * engine), f0, the visited-prefix skip's degrees (skip_degree; default:
 * every arc), and wide (kstate arcs64: 64-bit arc indices, binsearch only). */
struct ExpandArgs {
    const uint32_t *frontier;
    const int64_t *offsets;
    const uint32_t *columns;
    void *scan;
    void *scratch;
    size_t scratch_bytes;
    uint64_t count;
    int expand, k;
    uint32_t f0;
    DegreeOp degree = DegreeOp{frontier, offsets};
    bool wide = false;
};

/* Scan the degrees into a.scan and launch the producer(s). AUTO launches
 * both: each decides on the device from the scanned total (no host sync),
 * and the one not chosen exits at once. */
template <int K, class ScanT, class C>
boxbfs_status_t run_expand(const ExpandArgs &a, cudaStream_t stream, const C &consume)
{
    size_t bytes = a.scratch_bytes;
    ScanT *scan = (ScanT *)a.scan;
    Frontier<ScanT> f;
    if (a.count > UINT32_MAX)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "frontier of %llu vertices exceeds 2^32",
                            (unsigned long long)a.count);
    if (a.scratch == NULL)
        return bb_error_set(BOXBFS_ERR_INTERNAL,
                            "cuda expand: no scratch memory for the degree scan");
    if (a.count <= kSmallScan) {
        degree_scan_small<ScanT><<<1, kScanThreads, 0, stream>>>(a.degree, scan, (uint32_t)a.count);
        BB_CUDA_LAUNCH_CHECK();
    } else {
        BB_CUDA_CHECK(degree_scan(a.scratch, bytes, a.degree, scan, (uint32_t)a.count, stream));
    }
    f.frontier = a.frontier;
    f.offsets = a.offsets;
    f.columns = a.columns;
    f.scan = scan;
    f.count = (uint32_t)a.count;
    f.mode = sizeof(ScanT) == 4 ? expand_mode(a.expand) : MODE_BINSEARCH;
    f.f0 = a.f0;
    f.skip = a.degree.rank ? a.degree.skip : nullptr;
    if (f.mode != MODE_MERGEPATH) {
        int grid = bb_cuda_persistent_grid<expand_binsearch<K, ScanT, C>>(kThreads);
        expand_binsearch<K, ScanT, C><<<grid, kThreads, 0, stream>>>(f, consume);
        BB_CUDA_LAUNCH_CHECK();
    }
    if constexpr (sizeof(ScanT) == 4) {
        if (f.mode != MODE_BINSEARCH) {
            int grid = bb_cuda_persistent_grid<expand_mergepath<K, C>>(kMpThreads);
            expand_mergepath<K, C><<<grid, kMpThreads, 0, stream>>>(f, consume);
            BB_CUDA_LAUNCH_CHECK();
        }
    }
    return BOXBFS_OK;
}

/* The expand at K edges per thread, with 32-bit arc indices or (Wide, where
 * a.wide) 64-bit ones. */
template <int K, bool Wide, class C>
boxbfs_status_t run_expand_at(const ExpandArgs &a, cudaStream_t stream, const C &consume)
{
    if constexpr (Wide) {
        if (a.wide) return run_expand<K, uint64_t>(a, stream, consume);
    }
    return run_expand<K, uint32_t>(a, stream, consume);
}

/* The expand of a.count > 0 frontier vertices, each arc handed to consume
 * (Wide false: the caller's devices never hold 64-bit arcs). */
template <bool Wide = true, class C>
boxbfs_status_t expand_lb(const ExpandArgs &a, cudaStream_t stream, const C &consume)
{
    if (!Wide && a.wide)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "expand: 64-bit arc indices not built here");
    switch (a.k) {
    case kAutoK: return run_expand_at<kAutoK, Wide>(a, stream, consume);
    case 1: return run_expand_at<1, Wide>(a, stream, consume);
    case 2: return run_expand_at<2, Wide>(a, stream, consume);
    case 8: return run_expand_at<8, Wide>(a, stream, consume);
    case 16: return run_expand_at<16, Wide>(a, stream, consume);
    default: return run_expand_at<4, Wide>(a, stream, consume);
    }
}

}  // namespace

#endif /* BB_EXPAND_LB_CUH */
