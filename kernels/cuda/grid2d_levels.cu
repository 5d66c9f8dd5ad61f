/* The device loop of small top-down levels of the 2D partition on the GPU
 * (bb_grid2d_ops_t.levels, kernels/grid2d.h; README "2D partition"): one
 * block of 1024 threads per device runs level after level in one launch,
 * the steps of kernels/cpu/grid2d_levels.c: its list into the grid column's
 * inbox_col regions (peer memory), a column meeting, the append, the
 * visited prefix raised where the host-driven level raises it, the expand
 * [004 Algorithm 3] with grid2d.cu's claims, the pairs into the grid row's
 * inbox_row regions, a row meeting, the updates one sender after the other
 * in grid order (the first to deliver a vertex gives its parent), a meeting
 * of every device for the next totals, and the same stopping rule
 * (bb_g2_loop_stops). Meetings: values, then the tag with release at system
 * scope; each member's tag with acquire, polling the abort word, with a
 * timeout (meet.cuh's protocol and bb_await_word in grid2d.h's mailbox
 * layout). One block a device, so that every device's kernel is resident at
 * once even where logical devices share one GPU. */
#include "config.h"

#include <new>

#include <cub/block/block_scan.cuh>

#include "kernels/cuda/meet.cuh"

extern "C" {
#include "kernels/grid2d.h"
}

namespace {

constexpr int kThreads = 1024;
constexpr int kMaxDev = 1024;   /* the most devices of a grid (bfs_args.c) */
typedef unsigned long long ull;
using Scan = cub::BlockScan<ull, kThreads, cub::BLOCK_SCAN_WARP_SCANS>;

/* The launch's arguments: the state and parameters, and the peer pointers
 * the kernel reads (p.inbox_col, p.inbox_row and p.mail are host arrays):
 * the inbox_col of the device in grid row r of this column at col_in[r],
 * the inbox_row of the device in grid column j of this row at row_in[j],
 * every device's mailbox at mail[d]. About 25 KB: kernel parameters may
 * hold 32764 bytes since CUDA 12.1 (Volta and later). */
struct Args {
    bb_g2state_t k;
    bb_g2loop_t p;
    uint32_t *col_in[kMaxDev];
    uint32_t *row_in[kMaxDev];
    uint64_t *mail[kMaxDev];
};
static_assert(sizeof(Args) <= 32764, "kernel parameters");

struct Shared {
    typename Scan::TempStorage scan;
    ull first[kThreads];      /* a round of the column frontier: each vertex's first arc in it */
    int64_t arc[kThreads];    /* its row's first arc past the prefix */
    uint32_t u[kThreads];     /* its column-local id */
    ull next, arcs, next_arcs;             /* counters[NEXT], [ARCS], [NEXT_ARCS] */
    ull tot_next, tot_arcs, most;          /* the other devices' at the meeting of all */
    uint32_t prefix;                       /* prefix[1] (k.prefix set) */
    uint32_t unmarked;                     /* the raise: the first rank not marked */
    int status;                            /* a failed meeting's BB_MEET_* */
};
/* dynamic: counters[BUCKET + j] (cols), then the values of the column's or
 * the row's meeting by member (max(rows, cols)) */
extern __shared__ ull s_dyn[];

__device__ __forceinline__ void store_release_sys(uint64_t *p, uint64_t v)
{
    asm volatile("st.release.sys.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

/* A meeting of the group of kind at level (every thread of the block calls
 * it, after a barrier that put the block's stores into the members' inboxes
 * before it): thread t stores value(i, j) (nvalues of them) into member i's
 * mailbox for every i = t mod 1024, then the tag with release at system
 * scope (cumulative: the inbox stores other threads made before the
 * barrier go before it too); then waits for member i's tag in this
 * device's mailbox with acquire and hands got(i, half) its half. BB_MEET_*
 * (the same on every thread, after a barrier). */
template <class Value, class Got>
__device__ int meet(const Args &a, Shared &s, int kind, int32_t level, int nvalues, Value value,
                    Got got)
{
    const bb_g2state_t &k = a.k;
    const int n = bb_g2_group_size(&k, kind), me = bb_g2_group_index(&k, kind);
    const uint64_t tag = bb_g2_tag(a.p.tag0, level, kind);
    for (int i = threadIdx.x; i < n; i += kThreads) {
        if (i == me) continue;
        uint64_t *half = bb_g2_mail(a.mail[bb_g2_group_device(&k, kind, i)], k.rows, k.cols,
                                    kind, me, level);
        for (int j = 0; j < nvalues; j++) bb_store_relaxed_sys(half + 1 + j, value(i, j));
        store_release_sys(half, tag);
    }
    const uint64_t t0 = bb_global_ns();
    for (int i = threadIdx.x; i < n; i += kThreads) {
        if (i == me) continue;
        const uint64_t *half = bb_g2_mail(a.mail[k.self], k.rows, k.cols, kind, i, level);
        uint64_t x;
        const int st = bb_await_word(a.p.abort, a.p.timeout_ns, k.self, half, t0,
                                     [tag](uint64_t w) { return w == tag; }, &x);
        if (st != BB_MEET_OK) {
            atomicCAS(&s.status, BB_MEET_OK, st);
            break;
        }
        got(i, half);
    }
    __syncthreads();
    return *(volatile int *)&s.status;
}

/* Value j of a member's half, read after its tag's acquire. */
__device__ __forceinline__ uint64_t half_value(const uint64_t *half, int j)
{
    return *(volatile const uint64_t *)(half + 1 + j);
}

/* The visited prefix's raise (grid2d.h raise_prefix; every thread calls
 * it): prefix[0] = prefix[1], then prefix[1] = the first rank at or past it
 * whose vertex visited does not mark (cols * bs if none), 1024 ranks at a
 * time. visited is read from L2 (__ldcg): the block's claims are atomics
 * there, and an L1 line read before them would be stale. */
__device__ void raise_prefix(const bb_g2state_t &k, Shared &s)
{
    const uint32_t ids = (uint32_t)((uint64_t)k.cols * k.bs);
    const uint32_t from = s.prefix;
    if (threadIdx.x == 0) {
        k.prefix[0] = from;
        s.unmarked = ids;
    }
    __syncthreads();
    for (uint64_t base = from; base < ids; base += kThreads) {
        const uint32_t r = (uint32_t)(base + threadIdx.x);
        bool unmarked = false;
        if (base + threadIdx.x < ids) {
            const uint32_t v = k.by_rank[r];
            unmarked = !((__ldcg(k.visited + (v >> 5)) >> (v & 31)) & 1u);
            if (unmarked) atomicMin(&s.unmarked, r);
        }
        if (__syncthreads_or(unmarked)) break;
    }
    __syncthreads();   /* s.unmarked is final */
    if (threadIdx.x == 0) {
        s.prefix = s.unmarked;
        k.prefix[1] = s.unmarked;
    }
    __syncthreads();
}

__global__ void __launch_bounds__(kThreads, 1) g2_levels(const __grid_constant__ Args a)
{
    __shared__ Shared s;
    Shared *const sp = &s;   /* for the lambdas (no capture of static storage) */
    const bb_g2state_t &k = a.k;
    const bb_g2loop_t &p = a.p;
    const unsigned t = threadIdx.x;
    const bool leader = t == 0;
    const uint64_t bs = k.bs, seg = k.seg;
    const int R = k.rows, C = k.cols;
    ull *bucket = s_dyn;          /* C */
    ull *recv = s_dyn + C;        /* max(R, C) */
    const size_t width = BB_G2_LOG_ROW(C);
    uint32_t *cur = k.frontier, *nxt = k.next_frontier;
    bb_loop_walk_t w = p.w;
    uint64_t mine = p.count, most = p.most;
    int st = BB_MEET_OK;
    if (leader) {
        s.status = BB_MEET_OK;
        s.prefix = k.prefix ? k.prefix[1] : 0;
    }
    __syncthreads();
    /* every thread holds the same w, mine and most: the loop is uniform */
    while (!bb_g2_loop_stops(&p, &w, most, w.runs ? BOXBFS_SEARCH_TOP_DOWN : p.last_dir)) {
        const int32_t level = w.level, next_level = level + 1;
        uint64_t *log = p.log + (size_t)w.runs * width;
        const uint64_t t0 = bb_global_ns();
        uint64_t t1, t2, t3, exchange_ns, expand_ns, update_ns;
        if (level == p.fault_level) {   /* tests: this device fails here */
            if (leader) bb_raise_abort_word(p.abort, (uint32_t)k.self + 1);
            st = BB_MEET_ABORTED;
            break;
        }
        /* expand [004 Algorithm 3]: the own list into the inbox_col region
         * of every other device of the grid column */
        if (mine)
            for (int r = 0; r < R; r++) {
                if (r == k.row) continue;
                uint32_t *to = a.col_in[r] + (size_t)k.row * bs;
                for (uint64_t i = t; i < mine; i += kThreads) to[i] = cur[i];
            }
        __syncthreads();
        st = meet(a, s, BB_G2_MEET_COL, level, 1,
                  [mine](int, int) { return (uint64_t)mine; },
                  [recv](int i, const uint64_t *half) { recv[i] = half_value(half, 0); });
        if (st != BB_MEET_OK) break;
        /* the column's frontier: each part at its block's offset in grid
         * order (one grid row: the frontier is the column's); the counters
         * zeroed (the last level's were read before two barriers) */
        uint32_t *colfront = R == 1 ? cur : k.colfront;
        uint64_t total = 0;
        for (int r = 0; r < R; r++) {
            const bool own = r == k.row;
            const uint64_t count = own ? mine : recv[r];
            const uint32_t offset = (uint32_t)((uint64_t)r * bs);
            if (R > 1 && own)
                for (uint64_t i = t; i < count; i += kThreads) colfront[total + i] = cur[i] + offset;
            else if (R > 1) {
                const uint32_t *msg = a.col_in[k.row] + (size_t)r * bs;
                for (uint64_t i = t; i < count; i += kThreads)
                    colfront[total + i] = __ldcg(msg + i) + offset;
            }
            total += count;
        }
        for (int j = t; j < C; j += kThreads) bucket[j] = 0;
        if (leader) {
            s.next = s.arcs = s.next_arcs = 0;
            s.tot_next = s.tot_arcs = s.most = 0;
        }
        __syncthreads();   /* colfront whole, the counters zeroed */
        t1 = bb_global_ns();
        exchange_ns = t1 - t0;
        /* a big column frontier raises the visited prefix first, as
         * engine2d.c's expand */
        if (k.prefix && total >= (uint64_t)R * bs / 64) raise_prefix(k, s);
        {
            const uint32_t prefix = k.prefix ? s.prefix : 0;
            const uint64_t col_first = (uint64_t)k.col * R * bs;   /* gid of column-local 0 */
            for (uint64_t round = 0; round < total; round += kThreads) {
                const uint64_t i = round + t;
                const uint32_t nv = (uint32_t)(total - round < kThreads ? total - round : kThreads);
                ull deg = 0, first, sum;
                uint32_t u = 0;
                int64_t b = 0;
                if (i < total) {
                    u = colfront[i];
                    b = k.offsets[u];
                    const int64_t e = k.offsets[u + 1];
                    if (prefix) b = bb_row_past_prefix(k.columns, k.rank, b, e, prefix);
                    deg = (ull)(e - b);
                }
                Scan(s.scan).ExclusiveSum(deg, first, sum);
                s.first[t] = first;
                s.arc[t] = b;
                s.u[t] = u;
                __syncthreads();
                for (ull e = t; e < sum; e += kThreads) {
                    const uint32_t it = bb_item_of(s.first, nv, e);
                    const uint32_t v = k.columns[s.arc[it] + (int64_t)(e - s.first[it])];
                    const uint32_t from = s.u[it];
                    /* grid2d.cu's Discover: the thread whose atomicOr sets
                     * v's visited bit owns it for this device */
                    if (bb_is_visited(k.visited, 1, v) || !bb_visit(k.visited, 1, v)) continue;
                    const uint32_t o = (uint32_t)(v / bs);
                    if (o == (uint32_t)k.col) {   /* own: updated at once */
                        const uint32_t off = (uint32_t)(v - o * bs);
                        k.level[off] = next_level;
                        k.pred[off] = (int64_t)(col_first + from);
                        nxt[atomicAdd(&s.next, 1ull)] = off;
                        if (k.degree) atomicAdd(&s.next_arcs, (ull)k.degree[off]);
                        continue;
                    }
                    uint32_t *pair = k.outbox + (uint64_t)o * seg + 2 * atomicAdd(bucket + o, 1ull);
                    pair[0] = (uint32_t)(v - o * bs);
                    pair[1] = from;
                }
                if (leader) s.arcs += sum;
                __syncthreads();   /* the round's arrays are free again */
            }
        }
        __syncthreads();   /* the expand is done: its pairs and counts are final */
        t2 = bb_global_ns();
        expand_ns = t2 - t1;
        for (int j = t; j < C; j += kThreads) log[BB_G2_LOG_PAIRS + j] = bucket[j];
        /* fold: the pairs for each other grid column of the row into its
         * device's inbox_row region */
        for (int j = 0; j < C; j++) {
            const uint64_t words = 2 * bucket[j];
            if (j == k.col || words == 0) continue;
            const uint32_t *from = k.outbox + (size_t)j * seg;
            uint32_t *to = a.row_in[j] + (size_t)k.col * seg;
            for (uint64_t i = t; i < words; i += kThreads) to[i] = from[i];
        }
        __syncthreads();
        st = meet(a, s, BB_G2_MEET_ROW, level, 1,
                  [bucket](int i, int) { return (uint64_t)bucket[i]; },
                  [recv](int i, const uint64_t *half) { recv[i] = half_value(half, 0); });
        if (st != BB_MEET_OK) break;
        t3 = bb_global_ns();
        exchange_ns += t3 - t2;
        /* update from each sender in grid order, one after the other (the
         * host-driven fold's order: the first to deliver a vertex gives its
         * parent); a message holds a vertex once */
        for (int j = 0; j < C; j++) {
            const uint64_t count = j == k.col ? 0 : recv[j];
            if (count == 0) continue;   /* block-uniform */
            const uint32_t *pairs = a.row_in[k.col] + (size_t)j * seg;
            const uint64_t base = (uint64_t)j * R * bs;   /* gid of its column-local 0 */
            for (uint64_t i = t; i < count; i += kThreads) {
                const uint32_t off = __ldcg(pairs + 2 * i);
                if (off >= k.nloc || k.level[off] >= 0) continue;
                const uint64_t rl = (uint64_t)k.col * bs + off;
                k.level[off] = next_level;
                k.pred[off] = (int64_t)(base + __ldcg(pairs + 2 * i + 1));
                atomicOr(k.visited + (rl >> 5), 1u << (rl & 31));
                nxt[atomicAdd(&s.next, 1ull)] = off;
                if (k.degree) atomicAdd(&s.next_arcs, (ull)k.degree[off]);
            }
            __syncthreads();   /* this sender's vertices are taken before the next's */
        }
        __syncthreads();   /* the next frontier is whole */
        update_ns = bb_global_ns() - t3;
        /* every device: the next frontier's totals */
        st = meet(a, s, BB_G2_MEET_ALL, level, 2,
                  [sp](int, int j) { return (uint64_t)(j ? sp->next_arcs : sp->next); },
                  [sp](int, const uint64_t *half) {
                      const ull count = half_value(half, 0);
                      atomicAdd(&sp->tot_next, count);
                      atomicAdd(&sp->tot_arcs, (ull)half_value(half, 1));
                      atomicMax(&sp->most, count);
                  });
        if (st != BB_MEET_OK) break;
        const uint64_t own = s.next, own_arcs = s.next_arcs;
        const uint64_t next = own + s.tot_next, next_arcs = own_arcs + s.tot_arcs;
        most = own > s.most ? own : s.most;
        if (leader) {
            log[BB_G2_LOG_FRONTIER] = mine;
            log[BB_G2_LOG_SCANNED] = s.arcs;
            log[BB_G2_LOG_NEXT] = own;
            log[BB_G2_LOG_NEXT_ARCS] = own_arcs;
            log[BB_G2_LOG_NS] = bb_global_ns() - t0;
            log[BB_G2_LOG_EXPAND_NS] = expand_ns;
            log[BB_G2_LOG_EXCHANGE_NS] = exchange_ns;
            log[BB_G2_LOG_UPDATE_NS] = update_ns;
            k.counters[BB_G2_CTR_NEXT] = own;   /* as the host-driven level leaves them */
            k.counters[BB_G2_CTR_ARCS] = s.arcs;
            k.counters[BB_G2_CTR_NEXT_ARCS] = own_arcs;
            for (int j = 0; j < C; j++) k.counters[BB_G2_CTR_BUCKET + j] = bucket[j];
        }
        bb_loop_advance(&w, next, next_arcs);
        mine = own;
        uint32_t *x = cur;
        cur = nxt;
        nxt = x;
    }
    if (leader) {
        p.out[0] = w.runs;
        p.out[1] = (uint64_t)st;
    }
}

}  // namespace

extern "C" boxbfs_status_t bb_cuda_g2_levels(const bb_g2state_t *k, void *stream,
                                             const bb_g2loop_t *p)
{
    const int R = k->rows, C = k->cols;
    const size_t dyn = 8 * ((size_t)C + (size_t)(R > C ? R : C));
    BB_CHECK(bb_cuda_bind(stream));
    if ((size_t)R * (size_t)C > (size_t)kMaxDev)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "cuda 2D device loop: %d x %d devices, at most %d",
                            R, C, kMaxDev);
    cudaFuncAttributes attr;   /* loaded before the launch (grid2d.cu g2_levels: lazy loading) */
    BB_CUDA_CHECK(cudaFuncGetAttributes(&attr, g2_levels));
    Args *a = new (std::nothrow) Args;   /* 25 KB: not on a device thread's stack */
    if (a == nullptr) return bb_error_set(BOXBFS_ERR_NO_MEMORY, "cuda 2D device loop: arguments");
    a->k = *k;
    a->p = *p;
    for (int r = 0; r < R; r++) a->col_in[r] = p->inbox_col[k->col * R + r];
    for (int j = 0; j < C; j++) a->row_in[j] = p->inbox_row[j * R + k->row];
    for (int d = 0; d < R * C; d++) a->mail[d] = p->mail[d];
    g2_levels<<<1, kThreads, dyn, (cudaStream_t)stream>>>(*a);
    delete a;   /* the launch copied its parameters */
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}
