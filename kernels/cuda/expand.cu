/* Frontier expansion on the GPU [004 §3.4, 002 §4]: an exclusive scan of the
 * frontier's degrees (CUB, into k->scan) maps every frontier edge to a
 * thread. Two load balancers:
 *   binsearch [004 §3.4.1]: K consecutive edges per thread, one binary search
 *     for the first, linear steps for the rest, the K edges processed
 *     interleaved; grid-stride, so the edge total never leaves the device.
 *   mergepath [002 §4.3]: the merge path of (frontier scan, edge ids) cut in
 *     equal tiles per block, split per thread in shared memory, and the
 *     columns gathered coalesced from a shared-memory staging of the tile.
 * The neighbors go to nbr/nbr_parent (all, or the unvisited ones appended
 * with warp-aggregated atomics), or through the atomic visited test-and-set
 * into their owner's outbox segment [004 §3.4 Algorithm 3]. The scan and
 * the two producers are in expand_lb.cuh (the 2D expand uses them too); the
 * consumers that make them the 1D methods are here. */
#include "config.h"

#include <cub/block/block_reduce.cuh>

#include "kernels/cuda/expand_lb.cuh"

namespace {

/* ---- consumers: called by all 32 lanes of a warp with K items each --------- */

/* Every neighbor, at its edge index (coalesced, same order as the cpu twin). */
struct WriteAll {
    uint32_t *nbr, *nbr_parent;
    unsigned long long *expanded;
    __device__ unsigned long long *next_arcs() const { return nullptr; }
    __device__ void flush(WarpStage *) const {}
    __device__ void start(uint64_t total) const { *expanded = total; }
    template <int K>
    __device__ void operator()(const bool (&valid)[K], const uint64_t (&e)[K],
                               const uint32_t (&v)[K], const uint32_t (&u)[K],
                               bb_block_sum &arcs_acc, WarpStage *stage) const
    {
        (void)arcs_acc;
        (void)stage;
#pragma unroll
        for (int j = 0; j < K; j++)
            if (valid[j]) {
                nbr[e[j]] = v[j];
                nbr_parent[e[j]] = u[j];
            }
    }
};

/* Neighbors not yet visited on this device, appended (one atomic per warp
 * and call). visited is not written during expand: read-only loads. */
struct FilterAppend {
    const void *visited;
    int bits;
    uint32_t *nbr, *nbr_parent;
    unsigned long long *expanded;
    __device__ unsigned long long *next_arcs() const { return nullptr; }
    __device__ void flush(WarpStage *) const {}
    __device__ void start(uint64_t) const {}
    template <int K>
    __device__ void operator()(const bool (&valid)[K], const uint64_t (&e)[K],
                               const uint32_t (&v)[K], const uint32_t (&u)[K],
                               bb_block_sum &arcs_acc, WarpStage *stage) const
    {
        bool keep[K];
        unsigned n = 0;
        (void)e;
        (void)arcs_acc;
        (void)stage;
#pragma unroll
        for (int j = 0; j < K; j++) {
            bool seen = false;
            if (valid[j])
                seen = bits ? (__ldg((const uint32_t *)visited + (v[j] >> 5)) >> (v[j] & 31)) & 1u
                            : __ldg((const unsigned char *)visited + v[j]) != 0;
            keep[j] = valid[j] && !seen;
            n += keep[j];
        }
        unsigned long long slot = bb_warp_append(expanded, n);
#pragma unroll
        for (int j = 0; j < K; j++)
            if (keep[j]) {
                nbr[slot] = v[j];
                nbr_parent[slot] = u[j];
                slot++;
            }
    }
};

/* Atomic method [004 §3.4]: the thread that sets v's visited bit updates v
 * at once when this device owns it (level, parent, next frontier: the
 * update's work, without the round trip through the outbox), else counts it
 * in send_count[owner] and appends the owner-local id at range_lo[owner] +
 * its slot, or with outbox_bits sets v's bit there (its parent lid in
 * remote_parent where there is one: else recomputed after the search). The
 * device search across devices (to_list) appends it and its parent's gid
 * straight into the owner's inbox region for this device instead (peer
 * memory: to_list[owner], to_parent[owner]). */
struct AtomicVisit {
    void *visited;
    int bits, ndev, self;
    const uint64_t *range_lo;
    uint32_t *outbox, *outbox_parent, *remote_parent, *outbox_bits;
    uint32_t *const *to_list, *const *to_parent;
    unsigned long long *send_count;
    int32_t *level;
    int64_t *pred;
    uint32_t *next_frontier, *next_bits;
    unsigned long long *next, *arcs_counter;
    const int64_t *offsets;
    uint64_t lo, hi;
    int32_t next_level;
    /* a step that splits the hubs' rows: frontier vertices from hub_base on
     * are hub rows, their parents hub_gid's */
    const uint32_t *hub_gid = nullptr;
    uint32_t hub_base = UINT32_MAX;
    __device__ uint32_t parent_of(uint32_t u) const
    {
        return u >= hub_base ? __ldg(hub_gid + (u - hub_base)) : (uint32_t)(lo + u);
    }
    __device__ unsigned long long *next_arcs() const { return arcs_counter; }
    __device__ void start(uint64_t) const {}
    /* The warp's staged ids to the next frontier (all lanes call it). */
    __device__ void flush(WarpStage *stage) const { stage->flush(next, next_frontier); }
    template <int K>
    __device__ void operator()(const bool (&valid)[K], const uint64_t (&e)[K],
                               const uint32_t (&v)[K], const uint32_t (&u)[K],
                               bb_block_sum &arcs_acc, WarpStage *stage) const
    {
        bool win[K];
        (void)e;
#pragma unroll
        for (int j = 0; j < K; j++)   /* cheap read first: most edges hit visited */
            win[j] = valid[j] && !bb_is_visited(visited, bits, v[j]);
#pragma unroll
        for (int j = 0; j < K; j++)
            if (win[j]) win[j] = bb_visit(visited, bits, v[j]);
        bool own[K];
        unsigned n = 0;
#pragma unroll
        for (int j = 0; j < K; j++) {
            own[j] = win[j] && v[j] >= lo && v[j] < hi;
            n += own[j];
        }
        /* own vertices: staged per warp (binsearch), else one aggregated
         * atomic per warp for the next frontier */
        uint32_t *to;
        unsigned long long arcs = 0, slot = list_slot(stage, n, next, next_frontier, &to);
#pragma unroll
        for (int j = 0; j < K; j++)
            if (own[j]) {
                uint32_t lid = (uint32_t)(v[j] - lo);
                level[lid] = next_level;
                pred[lid] = (int64_t)parent_of(u[j]);
                to[slot++] = lid;
                if (next_bits) atomicOr(next_bits + (lid >> 5), 1u << (lid & 31));
                arcs += bb_degree(offsets, lid);
            }
        if (stage) __syncwarp();   /* the ids are staged before the next flush reads them */
        bb_warp_add(&arcs_acc.value, arcs);   /* shared: one global atomic per block */
        if (ndev == 1) return;
#pragma unroll
        for (int j = 0; j < K; j++)
            if (win[j] && !own[j]) {
                int o = bb_owner(range_lo, ndev, v[j]);
                uint64_t lo = __ldg(range_lo + o);
                if (to_list) {
                    unsigned long long slot = bb_keyed_append(send_count, (unsigned)o);
                    to_list[o][slot] = (uint32_t)(v[j] - lo);
                    to_parent[o][slot] = parent_of(u[j]);
                    continue;
                }
                unsigned long long slot = lo + bb_keyed_append(send_count, (unsigned)o);
                if (outbox_bits) atomicOr(outbox_bits + (v[j] >> 5), 1u << (v[j] & 31));
                else outbox[slot] = (uint32_t)(v[j] - lo);
                if (remote_parent)   /* not outbox_parent */
                    remote_parent[bb_remote_slot(v[j], this->lo, hi)] = u[j];
            }
    }
};

/* The atomic method's consumer for kstate k, discoveries at next_level. */
__host__ __device__ inline AtomicVisit atomic_visit(const bb_kstate_t &k, int32_t next_level)
{
    unsigned long long *ctr = (unsigned long long *)k.counters;
    return AtomicVisit{k.visited, k.visited_bits, k.ndev, k.self, k.range_lo, k.outbox,
                       k.outbox_parent, k.remote_parent, k.outbox_bits, nullptr, nullptr,
                       ctr + BB_CTR_SEND,
                       k.level, k.pred, k.next_frontier, k.next_bits, ctr + BB_CTR_NEXT,
                       ctr + BB_CTR_NEXT_ARCS, k.offsets, k.lo, k.hi, next_level};
}

/* ---- the device search's top-down step (its frontier size is on the device) -- */

/* The degree scan in tiles of kSmallScan vertices: the block of tile t
 * writes its degrees into scan and sums them (search_scan_sums), one block
 * scans the sums (search_scan_offsets), the block of tile t scans its
 * degrees from there (search_scan_tiles): the degrees' random reads once, as
 * in CUB's scan. A frontier of one tile needs only the last, which then reads
 * the degrees itself: degree_scan_small's work. */
__host__ __device__ inline uint64_t scan_tiles_of(uint64_t count)
{
    return (count + kSmallScan - 1) / kSmallScan;
}

/* The visited-prefix skip (kstate rank_prefix): lowers rank_prefix[1] to
 * the first rank at or past rank_prefix[0] whose vertex is not visited,
 * where the caller set [0] to where the last raise ended and [1] to n (the
 * device search's decide, prefix_begin; a level that does not raise sets
 * [1] = [0], and every block stops at once). Blocks take chunks of
 * kPrefixChunk ranks in order and stop once a lower one holds an unvisited
 * vertex, so a raise reads about the ranks it passes. */
constexpr int kPrefixThreads = 256, kPrefixItems = 8;
constexpr uint32_t kPrefixChunk = kPrefixThreads * kPrefixItems;

struct PrefixArgs {
    uint32_t *prefix;
    const uint32_t *by_rank;
    const void *visited;
    int bits;
    uint64_t n;
};

__global__ void __launch_bounds__(kPrefixThreads) raise_prefix(PrefixArgs a)
{
    using Reduce = cub::BlockReduce<uint32_t, kPrefixThreads>;
    __shared__ typename Reduce::TempStorage tmp;
    __shared__ uint32_t best;
    bb_let_next_start();   /* the device search's scan (search_expand_k) */
    const uint64_t from = a.prefix[0];
    for (uint64_t first = from + (uint64_t)blockIdx.x * kPrefixChunk; first < a.n;
         first += (uint64_t)gridDim.x * kPrefixChunk) {
        if (threadIdx.x == 0) best = *(volatile uint32_t *)(a.prefix + 1);
        __syncthreads();
        if (first >= best) return;   /* (block-uniform) */
        uint32_t mine = UINT32_MAX;
#pragma unroll
        for (int j = 0; j < kPrefixItems; j++) {
            const uint64_t r = first + (uint64_t)j * kPrefixThreads + threadIdx.x;
            if (r < a.n && mine == UINT32_MAX && !bb_is_visited(a.visited, a.bits, a.by_rank[r]))
                mine = (uint32_t)r;
        }
        mine = Reduce(tmp).Reduce(mine, ::cuda::minimum<>{});
        if (threadIdx.x == 0 && mine != UINT32_MAX) atomicMin(a.prefix + 1, mine);
        if (__syncthreads_or(threadIdx.x == 0 && mine != UINT32_MAX)) return;
    }
}

PrefixArgs prefix_args(const bb_kstate_t &k)
{
    return PrefixArgs{k.rank_prefix, k.by_rank, k.visited, k.visited_bits, k.n};
}

/* A host-driven level's start of a raise: [0] = [1], [1] = n. */
__global__ void prefix_begin(uint32_t *prefix, uint32_t n)
{
    prefix[0] = prefix[1];
    prefix[1] = n;
}

__device__ __forceinline__ DegreeOp search_degree(const bb_search_dev *d)
{
    DegreeOp op = skip_degree(d->a.k, d->a.k.frontier);
    op.split = d->a.split;   /* the hubs' rows in the list */
    op.nloc = (uint32_t)(d->a.k.hi - d->a.k.lo);
    op.hub_degree = d->a.k.hub_degree;
    return op;
}

template <class ScanT>
__global__ void __launch_bounds__(kScanThreads) search_scan_sums(const bb_search_dev *d)
{
    using Reduce = cub::BlockReduce<ScanT, kScanThreads>;
    __shared__ typename Reduce::TempStorage tmp;
    bb_let_next_start();
    const uint64_t count = d->a.count, tiles = scan_tiles_of(count);
    const DegreeOp degree = search_degree(d);
    bb_wait_previous();   /* (the raise: the degrees read the prefix) */
    if (tiles < 2) return;
    for (uint64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
        ScanT sum = 0;
#pragma unroll
        for (int j = 0; j < kScanItems; j++) {
            const uint64_t i = t * kSmallScan + threadIdx.x * kScanItems + j;
            if (i < count) {
                const uint32_t x = degree((uint32_t)i);
                ((ScanT *)d->a.k.scan)[i] = x;
                sum += x;
            }
        }
        sum = Reduce(tmp).Sum(sum);
        if (threadIdx.x == 0) ((ScanT *)d->tile_sums)[t] = sum;
        __syncthreads();   /* tmp is reused */
    }
}

template <class ScanT>
__global__ void __launch_bounds__(kScanThreads) search_scan_offsets(const bb_search_dev *d)
{
    __shared__ typename TileScan<ScanT>::TempStorage tmp;
    bb_let_next_start();
    const uint64_t tiles = scan_tiles_of(d->a.count);
    ScanT carry = 0, *sums = (ScanT *)d->tile_sums;
    bb_wait_previous();
    if (tiles < 2) return;
    for (uint64_t base = 0; base < tiles; base += kSmallScan) {
        ScanT x[kScanItems], total;
#pragma unroll
        for (int j = 0; j < kScanItems; j++) {
            const uint64_t t = base + threadIdx.x * kScanItems + j;
            x[j] = t < tiles ? sums[t] : 0;
        }
        TileScan<ScanT>(tmp).ExclusiveSum(x, x, total);
#pragma unroll
        for (int j = 0; j < kScanItems; j++) {
            const uint64_t t = base + threadIdx.x * kScanItems + j;
            if (t < tiles) sums[t] = x[j] + carry;
        }
        carry += total;
        __syncthreads();
    }
}

template <class ScanT>
__global__ void __launch_bounds__(kScanThreads) search_scan_tiles(const bb_search_dev *d)
{
    __shared__ typename TileScan<ScanT>::TempStorage tmp;
    bb_let_next_start();
    const uint64_t count = d->a.count, tiles = scan_tiles_of(count);
    const DegreeOp degree = search_degree(d);
    ScanT *scan = (ScanT *)d->a.k.scan;
    bb_wait_previous();
    for (uint64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
        ScanT *end = scan + count;   /* the total: frontier_edges with the hubs' rows */
        if (tiles > 1)   /* pass 1 stored the degrees */
            scan_tile(tmp, [=](uint32_t i) { return scan[i]; }, scan, count, t,
                      ((const ScanT *)d->tile_sums)[t], end);
        else
            scan_tile(tmp, degree, scan, count, t, ScanT(0), end);
        __syncthreads();
    }
}

/* The producers with their arguments in c_steps[bb_cslot<Shared>(slot)]
 * (cuda_kernels.h bb_search_args and bb_cslot). */
__constant__ bb_search_args c_steps[BB_LOOP_MAX_DEV];

template <bool Shared, class ScanT>
__device__ __forceinline__ Frontier<ScanT> search_frontier(unsigned slot)
{
    const bb_search_args &c = c_steps[bb_cslot<Shared>(slot)];
    const int mode = sizeof(ScanT) == 4 ? expand_mode(c.expand) : MODE_BINSEARCH;
    return Frontier<ScanT>{c.k.frontier, c.k.offsets, c.k.columns, (const ScanT *)c.k.scan,
                           (uint32_t)c.count, mode, c.k.expand_f0,
                           c.k.rank_prefix ? c.k.skip : nullptr, true};
}

/* The step's consumer: on several devices remote winners go to this
 * device's list for their owner (bb_search_t.stage). */
template <bool Shared>
__device__ __forceinline__ AtomicVisit search_visit(unsigned slot)
{
    const bb_search_args &c = c_steps[bb_cslot<Shared>(slot)];
    AtomicVisit a = atomic_visit(c.k, c.next_level);
    if (c.k.ndev > 1) {   /* gathered here, copied into the owners' inboxes after */
        a.to_list = c.search->stage;
        a.to_parent = c.search->stage_parent;
    }
    if (c.split) {
        a.hub_gid = c.k.hub_gid;
        a.hub_base = (uint32_t)(c.k.hi - c.k.lo);
    }
    return a;
}

template <int K, bool Shared, class ScanT>
__global__ void __launch_bounds__(kThreads, 4) search_binsearch(unsigned slot)
{
    bb_let_next_start();
    bb_wait_previous();   /* the scan */
    binsearch_body<K>(search_frontier<Shared, ScanT>(slot), search_visit<Shared>(slot));
}

template <int K, bool Shared>
__global__ void __launch_bounds__(kMpThreads) search_mergepath(unsigned slot)
{
    bb_let_next_start();
    mergepath_body<K>(search_frontier<Shared, uint32_t>(slot), search_visit<Shared>(slot));
}

/* The producers of a step, reading copy slot of the arguments (64-bit arc
 * indices: binsearch alone, as run_expand). */
template <int K, bool Shared, class ScanT>
boxbfs_status_t search_produce(cudaStream_t s, int mode, unsigned slot)
{
    if (sizeof(ScanT) == 8) mode = MODE_BINSEARCH;
    if (mode != MODE_MERGEPATH)
        BB_CHECK(bb_launch_dependent(search_binsearch<K, Shared, ScanT>,
                                     dim3(bb_cuda_persistent_grid<search_binsearch<K, Shared, ScanT>>(
                                         kThreads)),
                                     dim3(kThreads), 0, s, slot));
    if (sizeof(ScanT) == 4 && mode != MODE_BINSEARCH) {
        search_mergepath<K, Shared>
            <<<bb_cuda_persistent_grid<search_mergepath<K, Shared>>(kMpThreads), kMpThreads, 0,
               s>>>(slot);
        BB_CUDA_LAUNCH_CHECK();
    }
    return BOXBFS_OK;
}

template <int K, class ScanT>
boxbfs_status_t search_expand_k(const bb_search_dev *d, cudaStream_t s, uint64_t nloc, int expand,
                                const bb_kstate_t *k)
{
    const int mode = expand_mode(expand);
    const int grid =
        bb_cuda_grid_for<search_scan_tiles<ScanT>>(scan_tiles_of(nloc), kScanThreads);
    const unsigned slot = (unsigned)k->cslot;
    BB_CUDA_CHECK(cudaMemcpyToSymbolAsync(c_steps, &d->a, sizeof d->a, slot * sizeof d->a,
                                          cudaMemcpyDeviceToDevice, s));
    if (k->rank_prefix) {
        raise_prefix<<<bb_cuda_persistent_grid<raise_prefix>(kPrefixThreads), kPrefixThreads, 0,
                       s>>>(prefix_args(*k));
        BB_CUDA_LAUNCH_CHECK();
    }
    /* each kernel from here a programmatic dependent of the one before it,
     * resident before that one ends (the first, after the raise; a kernel
     * after the copy node cannot be one) */
    if (k->rank_prefix) {
        BB_CHECK(bb_launch_dependent(search_scan_sums<ScanT>, dim3(grid), dim3(kScanThreads), 0,
                                     s, (const bb_search_dev *)d));
    } else {
        search_scan_sums<ScanT><<<grid, kScanThreads, 0, s>>>(d);
        BB_CUDA_LAUNCH_CHECK();
    }
    BB_CHECK(bb_launch_dependent(search_scan_offsets<ScanT>, dim3(1), dim3(kScanThreads), 0, s,
                                 (const bb_search_dev *)d));
    BB_CHECK(bb_launch_dependent(search_scan_tiles<ScanT>, dim3(grid), dim3(kScanThreads), 0, s,
                                 (const bb_search_dev *)d));
    return slot ? search_produce<K, true, ScanT>(s, mode, slot)
                : search_produce<K, false, ScanT>(s, mode, 0);
}

/* The step at K with the device's arc index width (kstate arcs64). */
template <int K>
boxbfs_status_t search_expand_at(const bb_search_dev *d, cudaStream_t s, uint64_t nloc, int expand,
                                 const bb_kstate_t *k)
{
    return k->arcs64 ? search_expand_k<K, uint64_t>(d, s, nloc, expand, k)
                     : search_expand_k<K, uint32_t>(d, s, nloc, expand, k);
}

/* This device's frontier through the load-balanced expand (expand_lb.cuh). */
template <class C>
boxbfs_status_t run_expand_k(const bb_kstate_t *k, cudaStream_t stream, uint64_t fcount,
                             int expand, const C &consume)
{
    return expand_lb(ExpandArgs{k->frontier, k->offsets, k->columns, k->scan, k->scratch,
                                k->scratch_bytes, fcount, expand, k->expand_k, k->expand_f0,
                                skip_degree(*k, k->frontier), k->arcs64 != 0},
                     stream, consume);
}

}  // namespace

extern "C" boxbfs_status_t bb_cuda_expand_scratch(uint64_t max_frontier, size_t *bytes_p)
{
    size_t bytes = 0, wide = 0;   /* the larger of the two widths' (a few KiB apart) */
    uint32_t count = max_frontier > UINT32_MAX ? UINT32_MAX : (uint32_t)max_frontier;
    BB_CUDA_CHECK(degree_scan(NULL, bytes, DegreeOp{NULL, NULL}, (uint32_t *)NULL, count, 0));
    BB_CUDA_CHECK(degree_scan(NULL, wide, DegreeOp{NULL, NULL}, (uint64_t *)NULL, count, 0));
    *bytes_p = bytes > wide ? bytes : wide;
    return BOXBFS_OK;
}

extern "C" boxbfs_status_t bb_cuda_expand(const bb_kstate_t *k, void *stream,
                                          uint64_t frontier_count, int filter_visited, int expand)
{
    cudaStream_t s = (cudaStream_t)stream;
    unsigned long long *ctr = (unsigned long long *)k->counters;
    BB_CHECK(bb_cuda_bind(stream));
    filter_visited = filter_visited && k->visited != NULL;
    if (frontier_count == 0 || filter_visited)
        BB_CUDA_CHECK(cudaMemsetAsync(ctr + BB_CTR_EXPANDED, 0, sizeof *ctr, s));
    if (frontier_count == 0) return BOXBFS_OK;
    if (filter_visited)
        return run_expand_k(k, s, frontier_count, expand,
                          FilterAppend{k->visited, k->visited_bits, k->nbr, k->nbr_parent,
                                       ctr + BB_CTR_EXPANDED});
    return run_expand_k(k, s, frontier_count, expand,
                      WriteAll{k->nbr, k->nbr_parent, ctr + BB_CTR_EXPANDED});
}

extern "C" boxbfs_status_t bb_cuda_expand_atomic(const bb_kstate_t *k, void *stream,
                                                 uint64_t frontier_count, int expand,
                                                 int32_t next_level)
{
    cudaStream_t s = (cudaStream_t)stream;
    BB_CHECK(bb_cuda_bind(stream));
    if (frontier_count == 0) return BOXBFS_OK;
    if (k->visited == NULL)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "cuda expand_atomic: no visited array");
    return run_expand_k(k, s, frontier_count, expand, atomic_visit(*k, next_level));
}

boxbfs_status_t bb_cuda_raise(uint32_t *prefix, const uint32_t *by_rank, const void *visited,
                              int bits, uint64_t n, cudaStream_t s)
{
    prefix_begin<<<1, 1, 0, s>>>(prefix, (uint32_t)n);
    BB_CUDA_LAUNCH_CHECK();
    raise_prefix<<<bb_cuda_persistent_grid<raise_prefix>(kPrefixThreads), kPrefixThreads, 0, s>>>(
        PrefixArgs{prefix, by_rank, visited, bits, n});
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

extern "C" boxbfs_status_t bb_cuda_raise_prefix(const bb_kstate_t *k, void *stream)
{
    BB_CHECK(bb_cuda_bind(stream));
    return bb_cuda_raise(k->rank_prefix, k->by_rank, k->visited, k->visited_bits, k->n,
                         (cudaStream_t)stream);
}

boxbfs_status_t bb_cuda_search_expand(const bb_search_dev *d, cudaStream_t s,
                                      const bb_kstate_t *k, int expand)
{
    const uint64_t nloc = k->hi - k->lo;
    if (nloc == 0) return BOXBFS_OK;
    switch (k->expand_k) {   /* the K of expand_lb */
    case kAutoK: return search_expand_at<kAutoK>(d, s, nloc, expand, k);
    case 1: return search_expand_at<1>(d, s, nloc, expand, k);
    case 2: return search_expand_at<2>(d, s, nloc, expand, k);
    case 8: return search_expand_at<8>(d, s, nloc, expand, k);
    case 16: return search_expand_at<16>(d, s, nloc, expand, k);
    default: return search_expand_at<4>(d, s, nloc, expand, k);
    }
}
