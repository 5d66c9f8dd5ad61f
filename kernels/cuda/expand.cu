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
 * into their owner's outbox segment [004 §3.4 Algorithm 3]. */
#include "config.h"

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "kernels/cuda/cuda_kernels.h"

namespace {

constexpr int kThreads = 256;                        /* binsearch block      */
constexpr int kMpThreads = 256;                      /* mergepath block      */
constexpr int kMpSteps = 8;                          /* path steps per thread */
constexpr uint32_t kMpTile = kMpThreads * kMpSteps;  /* path items per tile   */
constexpr int kStage = 512;                          /* staged ids per warp: >= 32 x K */

/* The binsearch block's staging of the atomic method's next frontier: each
 * warp gathers its own vertices' ids here and appends kStage at a time, so
 * the next-frontier counter, which every warp of the grid adds to, sees one
 * atomic per kStage ids instead of one per call. (The merge path's tiles
 * fill its shared memory: it appends directly.) */
struct WarpStage {
    uint32_t ids[kThreads / 32][kStage];
    unsigned count[kThreads / 32];
};
/* The binsearch block's transposition of each warp's 32 x K edges (lane l
 * finds the vertices of edges l K .. l K + K - 1 and loads the columns of
 * edges l, l + 32, ...). One padding word per 32 keeps both the writes
 * (stride K) and the reads (stride 1) free of bank conflicts. K = 16 would
 * take the static shared memory past 48 KB with the WarpStage: it keeps the
 * lane-consecutive loads. */
template <int K> constexpr bool kTranspose = K <= 8;
template <int K> constexpr int kTrWords = kTranspose<K> ? 32 * K + K : 1;
template <int K>
struct Transpose {
    uint32_t pairs[kThreads / 32][2][kTrWords<K>];
};
/* K, the edges per thread [004 §3.4.1, Fig 3: 4 was best], and f0, the
 * hybrid threshold [002 §4.4, §5.1: expand factor (edges over frontier
 * vertices) above f0 = 10 takes the merge path], come from the engine options
 * (--expand-k, --expand-f0) so that both can be measured. */

enum { MODE_AUTO = 0, MODE_BINSEARCH = 1, MODE_MERGEPATH = 2 };

/* Degree of the i-th frontier vertex, the scan's input (fused, no pass). */
struct DegreeOp {
    const uint32_t *frontier;
    const int64_t *offsets;
    __host__ __device__ uint32_t operator()(uint32_t i) const
    {
        uint32_t u = frontier[i];
        return (uint32_t)(offsets[u + 1] - offsets[u]);
    }
};
using DegreeIt = thrust::transform_iterator<DegreeOp, thrust::counting_iterator<uint32_t>>;

/* Exclusive scan of frontier degrees; one function for the size query and
 * the run so both instantiate the same CUB dispatch. Sums fit in 32 bits: a
 * device holds fewer than 2^32 arcs (engine check). */
cudaError_t degree_scan(void *tmp, size_t &bytes, const uint32_t *frontier, const int64_t *offsets,
                        uint32_t *out, uint32_t count, cudaStream_t stream)
{
    DegreeIt in(thrust::counting_iterator<uint32_t>(0), DegreeOp{frontier, offsets});
    return cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, count, stream);
}

/* What the producers read. scan[i] = first edge of frontier vertex i. */
struct Frontier {
    const uint32_t *frontier;
    const int64_t *offsets;
    const uint32_t *columns;
    const uint32_t *scan;
    uint32_t count;
    int mode;
    uint64_t f0;
};

__device__ __forceinline__ uint64_t frontier_edges(const Frontier &f)
{
    uint32_t u = __ldg(f.frontier + f.count - 1);
    return (uint64_t)__ldg(f.scan + f.count - 1) +
           (uint64_t)(__ldg(f.offsets + u + 1) - __ldg(f.offsets + u));
}

/* The hybrid rule, decided on the device where the edge total lives. */
__device__ __forceinline__ bool take_mergepath(const Frontier &f, uint64_t total)
{
    if (f.mode == MODE_MERGEPATH) return true;
    if (f.mode == MODE_BINSEARCH) return false;
    return total > f.f0 * (uint64_t)f.count;
}

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
 * remote_parent where there is one: else recomputed after the search). */
struct AtomicVisit {
    void *visited;
    int bits, ndev, self;
    const uint64_t *range_lo;
    uint32_t *outbox, *outbox_parent, *remote_parent, *outbox_bits;
    unsigned long long *send_count;
    int32_t *level;
    int64_t *pred;
    uint32_t *next_frontier, *next_bits;
    unsigned long long *next, *arcs_counter;
    const int64_t *offsets;
    uint64_t lo, hi;
    int32_t next_level;
    __device__ unsigned long long *next_arcs() const { return arcs_counter; }
    __device__ void start(uint64_t) const {}
    /* The warp's staged ids to the next frontier (all lanes call it). */
    __device__ void flush(WarpStage *stage) const
    {
        const unsigned w = threadIdx.x >> 5, c = stage->count[w];
        unsigned long long base = 0;
        if (c == 0) return;   /* warp-uniform */
        if (bb_lane() == 0) base = atomicAdd(next, (unsigned long long)c);
        base = __shfl_sync(BB_FULL_MASK, base, 0);
        for (unsigned i = bb_lane(); i < c; i += 32) next_frontier[base + i] = stage->ids[w][i];
        __syncwarp();
        if (bb_lane() == 0) stage->count[w] = 0;
        __syncwarp();
    }
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
        unsigned long long slot, arcs = 0;
        uint32_t *to = next_frontier;
        if (stage) {
            unsigned incl = n;
#pragma unroll
            for (int d = 1; d < 32; d <<= 1) {
                unsigned t = __shfl_up_sync(BB_FULL_MASK, incl, d);
                if (bb_lane() >= (unsigned)d) incl += t;
            }
            const unsigned total = __shfl_sync(BB_FULL_MASK, incl, 31), w = threadIdx.x >> 5;
            if (stage->count[w] + total > (unsigned)kStage) flush(stage);
            const unsigned c = stage->count[w];
            __syncwarp();
            if (bb_lane() == 0) stage->count[w] = c + total;
            slot = c + incl - n;
            to = stage->ids[w];
        } else {
            slot = bb_warp_append(next, n);
        }
#pragma unroll
        for (int j = 0; j < K; j++)
            if (own[j]) {
                uint32_t lid = (uint32_t)(v[j] - lo);
                level[lid] = next_level;
                pred[lid] = (int64_t)(lo + u[j]);
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
                unsigned long long slot = lo + bb_keyed_append(send_count, (unsigned)o);
                if (outbox_bits) atomicOr(outbox_bits + (v[j] >> 5), 1u << (v[j] & 31));
                else outbox[slot] = (uint32_t)(v[j] - lo);
                if (remote_parent)   /* not outbox_parent */
                    remote_parent[bb_remote_slot(v[j], this->lo, hi)] = u[j];
            }
    }
};

/* ---- producers ---------------------------------------------------------------- */

/* [004 §3.4.1] Lane chunks of K consecutive edges; a warp's chunks are
 * adjacent, so the warp-uniform loop keeps all lanes at the consumer. The
 * search for a lane's first edge is split: the warp finds the vertex of its
 * first edge with a 32-way search (a few dependent loads, starting from the
 * previous one: chunks only move forward), then each lane gallops forward
 * from there and finishes with a binary search over the short bracket. */
template <int K, class C>
__global__ void __launch_bounds__(kThreads) expand_binsearch(Frontier f, C consume)
{
    if (f.count == 0) return;
    const uint64_t total = frontier_edges(f);
    if (take_mergepath(f, total)) return;   /* (both returns are grid-uniform) */
    if (blockIdx.x == 0 && threadIdx.x == 0) consume.start(total);
    __shared__ bb_block_sum arcs_acc;
    __shared__ WarpStage stage;
    __shared__ Transpose<K> gather;
    if (bb_lane() == 0) stage.count[threadIdx.x >> 5] = 0;
    arcs_acc.begin();   /* (its barrier also publishes the stage counts) */
    const uint32_t *scan = f.scan;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x * K;
    uint32_t kw = 0;   /* vertex of the warp's first edge; scan[kw] <= wbase */
    for (uint64_t wbase = ((uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u)) * K;
         wbase < total; wbase += stride) {
        kw = (uint32_t)bb_warp_partition_point(
                 kw, f.count, [=](uint64_t i) { return (uint64_t)__ldg(scan + i) <= wbase; }) - 1;
        const uint64_t e0 = wbase + (uint64_t)bb_lane() * K;
        uint32_t k = kw;
        if (e0 < total) {   /* greatest vertex whose first edge is <= e0 */
            uint64_t step = 1;
            uint32_t hi;
            while ((uint64_t)k + step < f.count && __ldg(scan + k + step) <= e0) {
                k += (uint32_t)step;
                step <<= 1;
            }
            hi = (uint64_t)k + step < f.count ? (uint32_t)(k + step - 1) : f.count - 1;
            while (k < hi) {
                uint32_t mid = k + (hi - k + 1) / 2;
                if (__ldg(scan + mid) <= e0) k = mid; else hi = mid - 1;
            }
        }
        bool valid[K];
        uint64_t e[K], col[K];
        uint32_t kv[K], u[K], v[K];
        uint32_t kc = k;
#pragma unroll
        for (int j = 0; j < K; j++) {
            e[j] = e0 + j;
            valid[j] = e[j] < total;
            if (valid[j])
                while (kc + 1 < f.count && __ldg(f.scan + kc + 1) <= e[j]) kc++;
            kv[j] = kc;
        }
        /* interleaved: K independent loads per stage */
#pragma unroll
        for (int j = 0; j < K; j++) u[j] = valid[j] ? __ldg(f.frontier + kv[j]) : 0;
#pragma unroll
        for (int j = 0; j < K; j++)
            col[j] = valid[j] ? (uint64_t)__ldg(f.offsets + u[j]) + (e[j] - __ldg(f.scan + kv[j]))
                              : 0;
        if (kTranspose<K>) {
            /* the warp's 32 x K (parent, column index) pairs through shared
             * memory, so that lane l takes edges wbase + 32 j + l: each
             * column load below is one coalesced 128 B request instead of
             * 32 sectors 4 K bytes apart (a device holds < 2^32 arcs) */
            uint32_t(&tr)[2][kTrWords<K>] = gather.pairs[threadIdx.x >> 5];
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
        for (int j = 0; j < K; j++) v[j] = valid[j] ? __ldg(f.columns + col[j]) : 0;
        consume(valid, e, v, u, arcs_acc, &stage);
    }
    consume.flush(&stage);
    arcs_acc.end(consume.next_arcs());
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

/* [002 §4.3] Tiles of kMpTile path items (vertices + edges) per block. */
template <int K, class C>
__global__ void __launch_bounds__(kMpThreads) expand_mergepath(Frontier f, C consume)
{
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
            s_start[i] = (uint32_t)__ldg(f.offsets + u);
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
        for (uint32_t base = warp * 32u * K; base < nb; base += nwarps * 32u * K) {
            bool valid[K];
            uint64_t e[K];
            uint32_t col[K], u[K], v[K];
#pragma unroll
            for (int j = 0; j < K; j++) {
                uint32_t i = base + (uint32_t)j * 32u + bb_lane();
                valid[j] = i < nb;
                e[j] = b0 + i;
                col[j] = valid[j] ? s_col[i] : 0;
                u[j] = valid[j] ? s_par[i] : 0;
            }
#pragma unroll
            for (int j = 0; j < K; j++) v[j] = valid[j] ? __ldg(f.columns + col[j]) : 0;
            consume(valid, e, v, u, arcs_acc, nullptr);
        }
        __syncthreads();
    }
    arcs_acc.end(consume.next_arcs());
}

/* Scan the degrees into k->scan and launch the
 * producer(s). AUTO launches both: each decides on the device from the
 * scanned total (no host sync), and the one not chosen exits at once. */
template <int K, class C>
boxbfs_status_t run_expand(const bb_kstate_t *k, cudaStream_t stream, uint64_t fcount, int expand,
                           const C &consume)
{
    size_t bytes = k->scratch_bytes;
    Frontier f;
    if (fcount > UINT32_MAX)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "frontier of %llu vertices exceeds 2^32",
                            (unsigned long long)fcount);
    if (k->scratch == NULL)
        return bb_error_set(BOXBFS_ERR_INTERNAL,
                            "cuda expand: no scratch memory for the degree scan");
    BB_CUDA_CHECK(degree_scan(k->scratch, bytes, k->frontier, k->offsets, k->scan,
                              (uint32_t)fcount, stream));
    f.frontier = k->frontier;
    f.offsets = k->offsets;
    f.columns = k->columns;
    f.scan = k->scan;
    f.count = (uint32_t)fcount;
    f.mode = expand == BOXBFS_EXPAND_BINSEARCH ? MODE_BINSEARCH
             : expand == BOXBFS_EXPAND_MERGEPATH ? MODE_MERGEPATH : MODE_AUTO;
    f.f0 = k->expand_f0;
    if (f.mode != MODE_MERGEPATH) {
        int grid = bb_cuda_persistent_grid<expand_binsearch<K, C>>(kThreads);
        expand_binsearch<K, C><<<grid, kThreads, 0, stream>>>(f, consume);
        BB_CUDA_LAUNCH_CHECK();
    }
    if (f.mode != MODE_BINSEARCH) {
        int grid = bb_cuda_persistent_grid<expand_mergepath<K, C>>(kMpThreads);
        expand_mergepath<K, C><<<grid, kMpThreads, 0, stream>>>(f, consume);
        BB_CUDA_LAUNCH_CHECK();
    }
    return BOXBFS_OK;
}

/* The engine checked that K is 1, 2, 4 or 8. */
template <class C>
boxbfs_status_t run_expand_k(const bb_kstate_t *k, cudaStream_t stream, uint64_t fcount,
                             int expand, const C &consume)
{
    switch (k->expand_k) {
    case 1: return run_expand<1>(k, stream, fcount, expand, consume);
    case 2: return run_expand<2>(k, stream, fcount, expand, consume);
    case 8: return run_expand<8>(k, stream, fcount, expand, consume);
    case 16: return run_expand<16>(k, stream, fcount, expand, consume);
    default: return run_expand<4>(k, stream, fcount, expand, consume);
    }
}

}  // namespace

extern "C" boxbfs_status_t bb_cuda_expand_scratch(uint64_t max_frontier, size_t *bytes_p)
{
    size_t bytes = 0;
    uint32_t count = max_frontier > UINT32_MAX ? UINT32_MAX : (uint32_t)max_frontier;
    BB_CUDA_CHECK(degree_scan(NULL, bytes, NULL, NULL, NULL, count, 0));
    *bytes_p = bytes;
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
    unsigned long long *ctr = (unsigned long long *)k->counters;
    size_t ndev = (size_t)k->ndev;
    BB_CHECK(bb_cuda_bind(stream));
    /* expanded = 0, send counts = 0, send offsets = range_lo (one device sends
     * nothing, and the engine reads none of them: three calls fewer a level) */
    if (ndev > 1) {
        if (k->outbox_bits)   /* this level's remote vertices, n bits */
            BB_CUDA_CHECK(cudaMemsetAsync(k->outbox_bits, 0, ((k->n + 31) / 32) * 4, s));
        BB_CUDA_CHECK(cudaMemsetAsync(ctr + BB_CTR_EXPANDED, 0, sizeof *ctr, s));
        BB_CUDA_CHECK(cudaMemsetAsync(ctr + BB_CTR_SEND, 0, ndev * sizeof *ctr, s));
        BB_CUDA_CHECK(cudaMemcpyAsync(ctr + BB_CTR_SEND_OFFSET(ndev, 0), k->range_lo,
                                      ndev * sizeof *ctr, cudaMemcpyDeviceToDevice, s));
    }
    if (frontier_count == 0) return BOXBFS_OK;
    if (k->visited == NULL)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "cuda expand_atomic: no visited array");
    return run_expand_k(k, s, frontier_count, expand,
                      AtomicVisit{k->visited, k->visited_bits, k->ndev, k->self, k->range_lo,
                                  k->outbox, k->outbox_parent, k->remote_parent,
                                  k->outbox_bits, ctr + BB_CTR_SEND, k->level, k->pred, k->next_frontier,
                                  k->next_bits, ctr + BB_CTR_NEXT, ctr + BB_CTR_NEXT_ARCS,
                                  k->offsets, k->lo, k->hi, next_level});
}
