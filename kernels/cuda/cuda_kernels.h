/* The cuda backend's kernel launchers (bb_cuda_<name>, the signatures of
 * bb_kernel_ops_t; asynchronous on the stream, never synchronizing) and the
 * device helpers they share: visited layouts (32-bit words, bit v & 31 of word
 * v >> 5, or one byte per vertex), owner lookup, warp-aggregated appends. */
#ifndef BB_CUDA_KERNELS_H
#define BB_CUDA_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime.h>

#include "kernels/cuda/cuda_check.h"

extern "C" {
#include "kernels/kernels.h"

BB_DECLARE_KERNELS(bb_cuda)

/* CUB temporary bytes (queried on the current device, never allocated):
 * the frontier-degree scan of up to max_frontier vertices (expand.cu), the
 * sort + flag scan of up to work_cap neighbors (contract.cu) and the parent
 * gather's select and scan (gather.cu). */
boxbfs_status_t bb_cuda_expand_scratch(uint64_t max_frontier, size_t *bytes_p);
boxbfs_status_t bb_cuda_contract_scratch(uint64_t work_cap, size_t *bytes_p);
/* The parent gather's: a select over nloc lids and a scan over words bitmap
 * words (gather.cu). */
boxbfs_status_t bb_cuda_gather_scratch(uint64_t nloc, uint64_t words, size_t *bytes_p);
}

/* Make the stream's device current on this host thread: several host threads
 * drive several devices, and a launch into another device's stream fails. */
static inline boxbfs_status_t bb_cuda_bind(void *stream)
{
    int dev;
    BB_CUDA_CHECK(cudaStreamGetDevice((cudaStream_t)stream, &dev));
    BB_CUDA_CHECK(cudaSetDevice(dev));
    return BOXBFS_OK;
}

/* Blocks for a grid-stride kernel that fills the device once: multiprocessors
 * times resident blocks per multiprocessor (occupancy of this kernel). The
 * occupancy is computed once per kernel (thread-safe static). */
template <auto Kernel>
static inline int bb_cuda_persistent_grid(int threads)
{
    static const int per_sm = [threads] {
        int b = 0;
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, Kernel, threads, 0) != cudaSuccess) {
            (void)cudaGetLastError();
            b = 1;
        }
        return b < 1 ? 1 : b;
    }();
    int dev = 0, sms = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) {
        (void)cudaGetLastError();
        sms = 132;
    }
    return sms * per_sm;
}

static inline unsigned bb_cuda_blocks(uint64_t items, int threads)
{
    return (unsigned)((items + (uint64_t)threads - 1) / (uint64_t)threads);
}

/* CUB's temporaries of one job: grown to the most any of its calls asks
 * (never shrunk), freed with the job. */
struct bb_cub_room {
    void *ptr = nullptr;
    size_t bytes = 0;
    ~bb_cub_room() { cudaFree(ptr); }
    boxbfs_status_t at_least(size_t need)
    {
        if (need <= bytes) return BOXBFS_OK;
        BB_CUDA_CHECK(cudaFree(ptr));
        ptr = nullptr;
        BB_CUDA_CHECK(cudaMalloc(&ptr, need));
        bytes = need;
        return BOXBFS_OK;
    }
};

/* The persistent grid of a grid-stride kernel, but no more than the blocks
 * its work needs. */
template <auto Kernel>
static inline int bb_cuda_grid_for(uint64_t blocks, int threads)
{
    int grid = bb_cuda_persistent_grid<Kernel>(threads);
    return (uint64_t)grid > blocks ? (int)blocks : grid;
}

#define BB_FULL_MASK 0xffffffffu

/* ---- device helpers ---------------------------------------------------------- */

/* Owner of gid v: the last device whose range starts at or before v. */
static __device__ __forceinline__ int bb_owner(const uint64_t *range_lo, int ndev, uint64_t v)
{
    int lo = 0, hi = ndev - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) >> 1;
        if (__ldg(range_lo + mid) <= v) lo = mid; else hi = mid - 1;
    }
    return lo;
}

/* Visited test. Plain loads: callers that race with writers in the same
 * kernel only use the answer as a hint before an atomic test-and-set. */
static __device__ __forceinline__ bool bb_is_visited(const void *visited, int bits, uint32_t v)
{
    if (bits) return (((const uint32_t *)visited)[v >> 5] >> (v & 31)) & 1u;
    return ((const uint8_t *)visited)[v] != 0;
}

/* Atomic test-and-set; true for the one thread that marked v. The byte
 * layout ors the byte's low bit into its containing 32-bit word (the
 * allocation is padded to whole words, device_cuda.cu) and checks the old
 * byte, so it agrees with plain byte stores of 1 elsewhere. */
static __device__ __forceinline__ bool bb_visit(void *visited, int bits, uint32_t v)
{
    if (bits) {
        uint32_t m = 1u << (v & 31);
        return !(atomicOr((uint32_t *)visited + (v >> 5), m) & m);
    }
    uint32_t shift = (v & 3u) * 8u;
    uint32_t old = atomicOr((uint32_t *)((uint8_t *)visited + (v & ~3u)), 1u << shift);
    return ((old >> shift) & 0xffu) == 0;
}

/* Non-atomic mark for a vertex no other thread of the kernel marks
 * (bit layout still needs the atomic: neighbours share the word). */
static __device__ __forceinline__ void bb_mark(void *visited, int bits, uint32_t v)
{
    if (bits) atomicOr((uint32_t *)visited + (v >> 5), 1u << (v & 31));
    else ((uint8_t *)visited)[v] = 1;
}

/* v unvisited again (the loop across devices undoing a level): no other
 * thread marks v meanwhile. */
static __device__ __forceinline__ void bb_unmark(void *visited, int bits, uint32_t v)
{
    if (bits) atomicAnd((uint32_t *)visited + (v >> 5), ~(1u << (v & 31)));
    else ((uint8_t *)visited)[v] = 0;
}

static __device__ __forceinline__ unsigned bb_lane(void) { return threadIdx.x & 31u; }

/* Sum of x over this lane and the lanes below it; every lane of the warp
 * must call it. */
static __device__ __forceinline__ unsigned bb_warp_inclusive_sum(unsigned x)
{
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        unsigned t = __shfl_up_sync(BB_FULL_MASK, x, d);
        if (bb_lane() >= (unsigned)d) x += t;
    }
    return x;
}

/* The item whose range holds e: the last of the n items whose first
 * (an exclusive scan, first[0] = 0) is <= e; binary search (a round of a
 * frontier, arc e of it: small_levels.cu, grid2d_levels.cu). */
template <class T, class E>
static __device__ __forceinline__ uint32_t bb_item_of(const T *first, uint32_t n, E e)
{
    uint32_t lo = 0, hi = n - 1;
    while (lo < hi) {
        const uint32_t mid = (lo + hi + 1) >> 1;
        if (first[mid] <= e) lo = mid; else hi = mid - 1;
    }
    return lo;
}

/* Warp-wide append of n items per lane to one counter; every lane of the
 * warp must call it (n may be 0). Returns this lane's first slot. */
static __device__ __forceinline__ unsigned long long bb_warp_append(unsigned long long *counter,
                                                                    unsigned n)
{
    unsigned incl = bb_warp_inclusive_sum(n);
    unsigned total = __shfl_sync(BB_FULL_MASK, incl, 31);
    unsigned long long base = 0;
    if (bb_lane() == 31 && total) base = atomicAdd(counter, (unsigned long long)total);
    base = __shfl_sync(BB_FULL_MASK, base, 31);
    return base + (incl - n);
}

/* Warp-wide sum of x added to *counter with one atomic (none when 0); every
 * lane of the warp must call it. For a counter that every warp of the grid
 * adds to, pass a block's shared accumulator (bb_block_sum) instead: one
 * global atomic per block, not per warp, on the contended address. */
static __device__ __forceinline__ void bb_warp_add(unsigned long long *counter,
                                                   unsigned long long x)
{
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) x += __shfl_down_sync(BB_FULL_MASK, x, d);
    if (bb_lane() == 0 && x) atomicAdd(counter, x);
}

/* A block's shared accumulator of a global counter: begin() before the
 * block's work (all threads), add with bb_warp_add(&acc, x), end() after it
 * (all threads): one global atomic per block. */
struct bb_block_sum {
    unsigned long long value;
    __device__ void begin()
    {
        if (threadIdx.x == 0) value = 0;
        __syncthreads();
    }
    __device__ void end(unsigned long long *counter)
    {
        __syncthreads();
        if (threadIdx.x == 0 && value) atomicAdd(counter, value);
    }
};

/* Out-arcs of owned local vertex lid (Beamer's counts). */
static __device__ __forceinline__ unsigned long long bb_degree(const int64_t *offsets, uint32_t lid)
{
    return (unsigned long long)(__ldg(offsets + lid + 1) - __ldg(offsets + lid));
}

/* First index in [lo, hi) where the monotone predicate (true, then false)
 * is false, by a 32-way search: one ballot narrows the range 32 times, so a
 * few dependent loads instead of log2(hi - lo). All 32 lanes must call it
 * with the same arguments; all get the answer. */
template <class Pred>
static __device__ __forceinline__ uint64_t bb_warp_partition_point(uint64_t lo, uint64_t hi,
                                                                   Pred pred)
{
    while (lo < hi) {
        uint64_t step = (hi - lo + 31) / 32, idx = lo + bb_lane() * step;
        bool t = idx < hi && pred(idx);
        uint64_t c = (uint64_t)__popc(__ballot_sync(BB_FULL_MASK, t));
        uint64_t nlo = c ? lo + (c - 1) * step + 1 : lo, nhi = lo + c * step;
        lo = nlo;
        hi = c == 32 || nhi > hi ? hi : nhi;
    }
    return lo;
}

/* Append one item to counters[key] from any set of converged lanes (lanes
 * with equal keys share one atomic). Returns the item's slot. */
static __device__ __forceinline__ unsigned long long bb_keyed_append(unsigned long long *counters,
                                                                     unsigned key)
{
    unsigned active = __activemask();
    unsigned peers = __match_any_sync(active, key);
    int leader = __ffs(peers) - 1;
    unsigned long long base = 0;
    if ((int)bb_lane() == leader)
        base = atomicAdd(counters + key, (unsigned long long)__popc(peers));
    base = __shfl_sync(active, base, leader);
    return base + __popc(peers & ((1u << bb_lane()) - 1u));
}

/* Nanoseconds of the GPU's global timer (the device loop's and the device
 * search's level times). */
static __device__ __forceinline__ uint64_t bb_global_ns(void)
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* ---- the device search (kernels/cuda/search.cu) -------------------------------- */

/* What a step's kernels take as arguments. A branch's CUDA graph runs every
 * level of its kind, so they read what changes per level (the frontier
 * pointers, next_bits, the level, the frontier's size) from device memory,
 * where decide writes it; the hot kernels (expand, bottom-up, the loop
 * across devices) get it copied into their file's __constant__ copy by a
 * memcpy node first, and read it there as they would read kernel arguments
 * (from shared or global memory the loads cost them up to 17 %); one
 * device's loop kernel reads what every search shares from a constant copy
 * written before the search and the rest from here (small_levels.cu
 * search_levels). */
struct bb_search_args {
    bb_kstate_t k;          /* level_log: the step's first row */
    unsigned long long count;   /* the frontier's vertices (with split, list_hubs adds
                                 * the rows of the hubs at its level) */
    int32_t split;          /* the step splits the hubs' rows (kernels.h bb_peers_split_hubs) */
    int32_t next_level;
    int32_t expand;         /* boxbfs_expand_t */
    int32_t skip;           /* the kernels return at once: a step this graph runs after its
                             * decide, which chose another (bb_search_start_step) */
    int32_t list;           /* a bottom-up step also lists its finds in k.next_frontier
                             * where few enough (bottom_up.cu BlockList; one device,
                             * bb_search_dev.bu_lists) */
    bb_loop_params_t loop;  /* the device loop's (bb_search_loop_params) */
    /* the search's state in global memory (bb_search_dev.s): the kernels read
     * these arguments from a __constant__ copy, whose addresses they cannot
     * hand on (no generic address reaches constant memory) */
    const bb_search_t *search;
};

/* Where a device waits for its next search (search.cu, pinned host memory):
 * after a search the device keeps a kernel (the waiter) reading bell until
 * the host stores the next launch's number there, so that a search starts
 * without a launch from the host; on a timeout, or where the host stores
 * that number into release (before an allocation, which would wait for the
 * waiter), it gives up and says so in gave_up. The host rings, then reads
 * gave_up: where the waiter gave up it launches the search itself (ack: the
 * number with kBellFallback), else it lets it run (ack: the number); a
 * waiter that gave up after the ring waits for ack. The bell's line also
 * carries the words of the host's mirror (bb_search_dev) that differ from
 * the mirror the device took last (its copy, bb_search_dev.sent): where no
 * more than kBellWords differ the host rings with kBellDelta, and the
 * waiter, whose warp reads the whole line each turn, patches its copy
 * instead of reading the mirror over PCIe after the bell (a trip less at
 * every search's start). A delta word is 16 bits of the launch's number,
 * the index of a 4-byte word of the mirror (kDeltaNone: none) and its
 * value: one read before the host stored it holds an older number, and the
 * waiter reads the line again. */
constexpr int kBellWords = 14;
struct bb_search_bell {
    uint64_t bell, release;
    uint64_t delta[kBellWords];   /* with bell and release, one 128-byte line */
    uint64_t gave_up, ack;
};
constexpr uint64_t kBellFallback = 1ull << 63, kBellDelta = 1ull << 62;
constexpr uint32_t kDeltaNone = 0xffff;

/* A delta word's tag: 16 bits of launch seq's number, its top bits. */
__host__ __device__ constexpr uint64_t bb_delta_tag(uint64_t seq)
{
    return (seq & 0xffff) << 48;
}

/* Launch seq's delta word for the mirror's 4-byte word at (kDeltaNone: none). */
__host__ __device__ constexpr uint64_t bb_delta_word(uint64_t seq, uint32_t at, uint32_t value)
{
    return bb_delta_tag(seq) | (uint64_t)at << 32 | value;
}

/* The device search's state in device memory. */
struct bb_search_dev {
    bb_search_t s;          /* where the search stands (kernels.h) */
    bb_search_args a;       /* this step's arguments */
    uint64_t *log;          /* the level log's row 0 */
    bb_loop_walk_t loop;    /* where the device loop stopped */
    void *tile_sums;   /* the degree scan's per-tile sums, (hi - lo + hubs) / 4096 + 1 of
                        * the scan's width (kstate arcs64) */
    int32_t step;           /* the step running (BB_STEP_*) */
    int32_t bu_lists;       /* bottom-up steps list their finds (bb_cuda_search_bottom_up_lists) */
    uint64_t t0, t_first;   /* when it began; when the first step began (bb_global_ns) */
    /* several devices (search_peers.cu): each source's list for this device
     * (the top-down step's first meeting), when the step's own work before
     * that meeting ended, its waits in meetings so far */
    uint64_t got[BB_LOOP_MAX_DEV];
    uint64_t t_own, wait_ns;
    unsigned long long hubs_stored;   /* the step's hub levels stored (stamp_hubs) */
    /* The host's side (search.cu, bb_decide_block): its pinned mirror of
     * this state, where a launch's first decide takes it from and its last
     * leaves s; the engine's pinned log rows, of which it takes host_first
     * rows of host_width words; the launch's number, which the last decide
     * stores into host->done, the word the host waits on. */
    bb_search_dev *host;
    uint64_t *host_rows;
    uint32_t host_first, host_width;
    uint64_t seq, done;
    int32_t launch_error;   /* host's mirror: a step's graph the device could not launch */
    /* the next decide returns at once: its waiter gave up (bb_wait_bell), or
     * the step before it in its graph did not run (bb_search_start_step) */
    int32_t idle;
    int32_t launch;         /* the branch this decide launches (BB_BR_NONE: none) */
    /* the waiter's graph (NULL: none, the host launches every search), its
     * bell and how long it waits */
    cudaGraphExec_t waiter;
    bb_search_bell *bell;
    uint64_t bell_wait_ns;
    uint64_t *sent;         /* device memory: the mirror as a launch's first decide took it */
};

/* Which copy of a step's arguments a kernel reads in its file's __constant__
 * array c_steps[BB_LOOP_MAX_DEV]: the device's kstate.cslot. A device with
 * its GPU to itself reads copy 0, an index the compiler folds into the
 * instructions' operands; logical devices of one GPU share its constant
 * memory, and a kernel instantiated with Shared reads the slot given at run
 * time (its loads take addresses: at 5df59a2, where every kernel did, the
 * bottom-up levels of kron:24 on one H200 ran 6-18 % slower). */
template <bool Shared>
__device__ __forceinline__ unsigned bb_cslot(unsigned slot)
{
    return Shared ? slot : 0u;
}

/* The steps' kernels, reading d (captured into the graph; nloc = hi - lo;
 * slot: the device's kstate.cslot, whose copy of the arguments the hot
 * kernels read (bb_cslot); the expand takes it from k->cslot;
 * the top-down step takes k's expand_k and, where k has the visited-prefix
 * skip (rank_prefix), raises it first; expand: the engine's option;
 * lists: the bottom-up steps list their finds, d->bu_lists, and run the
 * kernel that does). */
boxbfs_status_t bb_cuda_search_expand(const bb_search_dev *d, cudaStream_t s,
                                      const bb_kstate_t *k, int expand);
boxbfs_status_t bb_cuda_search_bottom_up(const bb_search_dev *d, cudaStream_t s, uint64_t nloc,
                                         unsigned slot, int lists);
/* Whether one device's bottom-up step over nloc vertices lists what it
 * finds (bb_search_args.list): where its grid fills the GPU, so that a
 * block covers more vertices than it may list (at least twice as many):
 * the large levels then overflow the blocks' lists at once and cost
 * nothing. Where a block covers no more, every level lists whole. With
 * every graph listing, facebook_combined ran 0.967x on an H200 (kron:24
 * 1.010x), but so did it without listing where its kernel held the list's
 * code and room (8d53374): what listing every level costs was not
 * measured apart; the rule keeps such grids off the list. */
bool bb_cuda_search_bottom_up_lists(uint64_t nloc);
/* own_bits -> the frontier list (cursor counters[EXPANDED], zeroed by the step) */
boxbfs_status_t bb_cuda_search_unpack(const bb_search_dev *d, cudaStream_t s, uint64_t nloc);
/* zero own_bits (own = 1) or frontier_bits from word `at` (own = 0); pack
 * the list into frontier_bits from word at (this device's part: at = lo / 32
 * on several devices, 0 on one) */
boxbfs_status_t bb_cuda_search_zero(const bb_search_dev *d, cudaStream_t s, uint64_t nloc, int own,
                                    uint64_t at);
boxbfs_status_t bb_cuda_search_pack(const bb_search_dev *d, cudaStream_t s, uint64_t nloc,
                                    uint64_t at);
/* one device's loop step (small_levels.cu search_levels); k: the device's
 * kstate (its visited bits in block 0's shared memory where they fit) */
boxbfs_status_t bb_cuda_search_loop(const bb_kstate_t *k, bb_search_dev *d, cudaStream_t s);
/* What one device's loop step reads that every search of its engine shares:
 * its kstate and the loop's parameters (search.cu loop_rules). */
struct bb_loop_fixed {
    bb_kstate_t k;
    bb_loop_params_t p;
};
/* Before a search of cache `owner` (an id) on GPU dev: its f into the GPU's
 * constant copy where another's is there (copied on s, then waited for). */
boxbfs_status_t bb_cuda_search_loop_own(int dev, uint64_t owner, const bb_loop_fixed *f,
                                        cudaStream_t s);
/* visited |= frontier_bits (all n vertices; bottom_up.cu) */
boxbfs_status_t bb_cuda_search_mark(const bb_search_dev *d, cudaStream_t s, uint64_t n);
/* several devices: the device loop across devices (small_levels.cu), its
 * walk into d->loop; the top-down step's expand is bb_cuda_search_expand's
 * (remote winners into their owners' inboxes) */
boxbfs_status_t bb_cuda_search_peer_loop(bb_search_dev *d, cudaStream_t s, unsigned slot);

/* The device search's branches (search.cu: a graph each); BB_BR_NONE: none
 * runs. The top-down step's are BB_BR_TOP_DOWN plus its BB_TD_* flags: unpack the
 * list first, share visited first (kernels.h bb_peers_share_visited), split
 * the hubs' rows (bb_peers_split_hubs). */
enum { BB_TD_UNPACK = 1, BB_TD_SHARE = 2, BB_TD_SPLIT = 4, BB_TD_VARIANTS = 8 };
enum {
    BB_BR_LOOP, BB_BR_UNPACK_LOOP, BB_BR_TOP_DOWN, BB_BR_BOTTOM_UP = BB_BR_TOP_DOWN + BB_TD_VARIANTS,
    BB_BR_PACK_BOTTOM_UP, BB_BR_COUNT, BB_BR_NONE = BB_BR_COUNT
};

/* The visited-prefix skip's raise (expand.cu; 1D's kstate and the 2D
 * blocks'): prefix[0] = prefix[1], then prefix[1] = the first rank at or
 * past it whose vertex by_rank[rank] visited does not mark (n if none);
 * bits: visited holds a bit a vertex, else a byte. */
boxbfs_status_t bb_cuda_raise(uint32_t *prefix, const uint32_t *by_rank, const void *visited,
                              int bits, uint64_t n, cudaStream_t s);

/* Every device's waiter for its next search (search.cu) gives up now: an
 * allocation or free, which waits for the device's kernels, comes next. */
extern "C" void bb_cuda_search_release(void);

/* The device search across devices (search_peers.cu): decide (one thread:
 * closes the step that ran, meets the others, picks the next) and one
 * branch's kernels, captured into search.cu's graphs. */
#if CUDART_VERSION >= 13000
/* The end of a decide's logic (search.cu, search_peers.cu): the chosen
 * step starts now, in its branch's graph (unpack or pack first where the
 * frontier must change form; a top-down step's BB_TD_* flags in td), which
 * the decide launches (d->launch; bb_decide_block). Where the decide's own
 * graph runs branch next after it (BB_BR_NONE: none), that step starts
 * there, without a launch: the launch cost the decide about 2 us and the
 * launched graph's start 1.1-3.4 more (an H200); another choice leaves the
 * kernels of that step nothing to do (skip) and the decide after them too
 * (idle). No step: the search ends here. */
static __device__ __forceinline__ void bb_search_start_step(bb_search_dev *d, int step, int unpack,
                                                            int pack, int td, int next)
{
    const int br = step == BB_STEP_LOOP        ? BB_BR_LOOP + unpack
                   : step == BB_STEP_TOP_DOWN  ? BB_BR_TOP_DOWN + td + unpack
                   : step == BB_STEP_BOTTOM_UP ? BB_BR_BOTTOM_UP + pack
                                               : BB_BR_NONE;
    const int here = br != BB_BR_NONE && br == next;
    d->a.skip = d->idle = next != BB_BR_NONE && !here;
    d->launch = here ? BB_BR_NONE : br;
    d->step = step;
    d->t0 = bb_global_ns();
    d->s.span_ns = d->t0 - d->t_first;
}

/* The waiter's wait (bb_search_bell), warp 0 of its block: until the host
 * rings for launch d->seq + 1, or it gives up after d->bell_wait_ns or when
 * released: says so in gave_up, sets d->idle and returns d. Rung, it
 * returns the host's mirror, where the launch's state is, or NULL where the
 * bell's line carried the words of it that changed (into delta: kBellWords,
 * each of this launch). Where the host rang in the meantime, its ack says
 * which way it read gave_up (rung so, it reads the whole mirror). */
static __device__ __forceinline__ const bb_search_dev *bb_wait_bell(bb_search_dev *d,
                                                                    uint64_t *delta)
{
    volatile bb_search_bell *b = d->bell;
    const unsigned lane = threadIdx.x & 31u;
    const uint64_t want = d->seq + 1, wait = d->bell_wait_ns, t0 = bb_global_ns();
    const uint64_t tag = bb_delta_tag(want);
    /* a lane a word of the bell's line (bell, release, delta); two more a
     * word of the mirror's page and of the first rows' page, in the same
     * trip: their translations stay at hand for the reads and writes of
     * the search */
    const volatile uint64_t *at = lane < 2 + kBellWords ? &b->bell + lane
                                  : lane == 2 + kBellWords
                                      ? reinterpret_cast<const volatile uint64_t *>(d->host)
                                  : lane == 3 + kBellWords ? d->host_rows
                                                           : nullptr;
    for (;;) {   /* the line in one trip over PCIe a turn */
        const uint64_t v = at ? *at : 0;
        const uint64_t bell = __shfl_sync(~0u, v, 0), release = __shfl_sync(~0u, v, 1);
        if ((bell & ~kBellDelta) == want) {
            if (!(bell & kBellDelta)) return d->host;
            const bool word = lane >= 2 && lane < 2 + kBellWords;
            if (__all_sync(~0u, !word || bb_delta_tag(v >> 48) == tag)) {
                if (word) delta[lane - 2] = v;
                return nullptr;
            }
        }
        if (release == want || bb_global_ns() - t0 > wait) break;
    }
    const bb_search_dev *rung = d;
    if (lane == 0) {
        b->gave_up = want;
        __threadfence_system();   /* given up before the bell is read again */
        if ((b->bell & ~kBellDelta) == want) {
            uint64_t a;
            while ((a = b->ack) != want && a != (want | kBellFallback)) {
            }
            if (a == want) rung = d->host;
        }
        if (rung == d) d->idle = 1;
    }
    return reinterpret_cast<const bb_search_dev *>(
        __shfl_sync(~0u, reinterpret_cast<unsigned long long>(rung), 0));
}

static_assert(sizeof(bb_search_dev) % 8 == 0 && alignof(bb_search_dev) <= 8,
              "the state is copied in 8-byte words");
static_assert(sizeof(bb_search_dev) / 4 < kDeltaNone, "a delta word's index names any word");
static_assert(2 + kBellWords + 2 <= 32, "a lane of warp 0 for each word the waiter polls");
static_assert(sizeof(bb_search_dev) / 8 >= BB_CTR_COUNT(BB_LOOP_MAX_DEV),
              "a thread of the copy for each counter");
/* A thread per word of the state, in whole warps: each copy is one load
 * per thread, one memory latency (128 threads took three: the copy in
 * 1.48 -> 0.71 us a decide on an H200, kron:24). */
constexpr int kDecideThreads = (int)((sizeof(bb_search_dev) / 8 + 31) / 32 * 32);

/* The kernel that follows may start now (programmatic dependent launch,
 * sm_90): search.cu launches one device's decides so after their step's
 * last kernel, and the loop kernel after the decide or the unpack before
 * it; such a kernel is resident before this one ends, and its first act
 * waits for this one's end and its memory (bb_wait_previous). A no-op
 * where no such kernel follows. */
static __device__ __forceinline__ void bb_let_next_start(void)
{
#if __CUDA_ARCH__ >= 900
    cudaTriggerProgrammaticLaunchCompletion();
#endif
}

/* A programmatic dependent's wait for the kernel before it
 * (bb_let_next_start); returns at once where none is. */
static __device__ __forceinline__ void bb_wait_previous(void)
{
#if __CUDA_ARCH__ >= 900
    cudaGridDependencySynchronize();
#endif
}

/* Bring bytes at p into L2 (and their page into the TLB), a 128-byte line
 * per thread of the block, without waiting for them: a programmatic
 * dependent asks so for what it reads after bb_wait_previous while the
 * kernel before it still runs. L2 is where every SM's stores meet, so lines
 * that kernel writes later are read as written. */
static __device__ __forceinline__ void bb_prefetch_l2(const void *p, size_t bytes)
{
    const char *c = static_cast<const char *>(p);
    for (size_t at = (size_t)threadIdx.x * 128; at < bytes; at += (size_t)blockDim.x * 128)
        asm volatile("prefetch.global.L2 [%0];" ::"l"(c + at));
}

/* Launch kernel on s as a programmatic dependent of the kernel before it
 * there (grid blocks of block threads, smem bytes of dynamic shared
 * memory): it may be resident once that one lets it (bb_let_next_start) and
 * waits for it in bb_wait_previous. */
template <class... Params, class... Args>
static inline boxbfs_status_t bb_launch_dependent(void (*kernel)(Params...), dim3 grid, dim3 block,
                                                  size_t smem, cudaStream_t s, Args... args)
{
    cudaLaunchAttribute early = {};
    early.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    early.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cfg.dynamicSmemBytes = smem;
    cfg.stream = s;
    cfg.attrs = &early;
    cfg.numAttrs = 1;
    BB_CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel, args...));
    return BOXBFS_OK;
}

/* A decide's block of kDecideThreads (wait: the waiter's, whose warp 0
 * first waits for the bell, bb_wait_bell): the threads copy the state into
 * shared memory (a rung waiter from the host's mirror, or from the last
 * mirror, d->sent, patched with the words the bell carried; another decide
 * from d, then from the mirror where a launch begins: d->step is
 * BB_STEP_NONE after every launch's end; a launch's first keeps the mirror
 * it took in d->sent), thread 0 runs logic(state, now)
 * on the copy, the threads copy it back, and thread 0 launches the chosen
 * step's graph (d->launch, of bodies): beside this graph (a sibling, which
 * starts 1.1 us after the launch against 3.4 us after this graph's end for a
 * tail launch: benchmarks/graph-costs on an H200) where this decide is its
 * graph's last node (next: BB_BR_NONE) and the graph is not this one (self,
 * which runs one instance at a time), else after it; the state is in
 * device memory before either starts. A launch the device refuses (also
 * as a tail launch) ends the search: failed(state) and the error in the
 * host's mirror (launch_error). Where the launch ends there (step
 * NONE), they also store s and the log's first rows into the host's pinned
 * memory, then the launch's number into host->done: the graph has no copy
 * nodes, and the host sees the end before the graph has retired (kron:24 on
 * an H200 at 121633c: the call 40 -> 28 us longer than the device's span,
 * the time outside the levels 93 -> 80 us on one GPU, 115 -> 95 on two),
 * and launch the waiter for the next one (bb_search_bell). A decide that
 * finds idle set returns at once; where its graph runs a step after it
 * (next: bb_search_start_step), that step and the decide after it too.
 * The step's counters (nctr words at ctr, which logic reads as counts)
 * are read beside the state, not after it: one memory latency less on
 * the path of a decide after a level. A decide launched as a programmatic
 * dependent of its step's last kernel (bb_let_next_start) is resident
 * before that kernel ends and waits for it first; a loop kernel after it is
 * resident before it ends, in turn. */
template <class Logic, class Failed>
static __device__ __forceinline__ void bb_decide_block(bb_search_dev *d, int wait, int next,
                                                       int self, const cudaGraphExec_t *bodies,
                                                       const unsigned long long *ctr,
                                                       unsigned nctr, Logic logic, Failed failed)
{
    constexpr unsigned kWords = sizeof(bb_search_dev) / 8;
    __shared__ uint64_t raw[kWords];
    __shared__ unsigned long long counts[BB_CTR_COUNT(BB_LOOP_MAX_DEV)];
    __shared__ const bb_search_dev *from;   /* the waiter's: where it reads the state */
    __shared__ uint64_t delta[kBellWords];  /* the waiter's: the words that changed */
    bb_search_dev *sd = reinterpret_cast<bb_search_dev *>(raw);
    if (!wait) {   /* resident before the step ends: what this block reads next */
        bb_prefetch_l2(d, sizeof *d);
        bb_prefetch_l2(ctr, nctr * 8);
    }
    bb_wait_previous();
    if (wait) {   /* the mirror as the last launch took it, then the bell */
        const uint64_t *sent = d->sent;
        for (unsigned i = threadIdx.x; i < kWords; i += blockDim.x) raw[i] = sent[i];
        if (threadIdx.x < 32) {
            const bb_search_dev *f = bb_wait_bell(d, delta);
            if (threadIdx.x == 0) from = f;
        }
        __syncthreads();   /* from, delta, and d->idle (global) seen by every thread */
    }
    bb_let_next_start();   /* (after the bell: not resident between searches) */
    const uint64_t now = bb_global_ns();
    /* the state and the counters in one round of loads, idle and step then
     * read from the copy (not three dependent trips to L2 first); a waiter
     * that was rung reads the host's mirror at once (not d first: one trip
     * to L2 less on every search's path), or patches the last one with the
     * words the bell carried (no trip) */
    const bb_search_dev *src = wait ? from : d;
    if (src) {
        const uint64_t *dev = reinterpret_cast<const uint64_t *>(src);
        for (unsigned i = threadIdx.x; i < kWords; i += blockDim.x) raw[i] = dev[i];
    } else if (threadIdx.x < kBellWords) {
        const uint64_t w = delta[threadIdx.x];
        const uint32_t at = (uint32_t)(w >> 32) & 0xffffu;
        if (at != kDeltaNone) reinterpret_cast<uint32_t *>(raw)[at] = (uint32_t)w;
    }
    if (threadIdx.x < nctr) counts[threadIdx.x] = ctr[threadIdx.x];
    __syncthreads();
    if (sd->idle) {
        if (threadIdx.x == 0) d->a.skip = d->idle = next != BB_BR_NONE;
        return;
    }
    if (threadIdx.x == 32) {   /* the last decide's writes: their pages' translations */
        asm volatile("prefetch.global.L2 [%0];" ::"l"(&sd->host->s));
        asm volatile("prefetch.global.L2 [%0];" ::"l"(sd->host_rows));
    }
    if (sd->step == BB_STEP_NONE && src == d) {   /* a launch's first: the host's mirror */
        const uint64_t *host = reinterpret_cast<const uint64_t *>(sd->host);
        __syncthreads();   /* every thread has read the copy's step and host */
        for (unsigned i = threadIdx.x; i < kWords; i += blockDim.x) raw[i] = host[i];
        __syncthreads();
    }
    if (sd->step == BB_STEP_NONE) {   /* a launch's first: the mirror it took, for the next */
        uint64_t *sent = sd->sent;
        for (unsigned i = threadIdx.x; i < kWords; i += blockDim.x) sent[i] = raw[i];
        __syncthreads();   /* read before logic changes the copy */
    }
    if (threadIdx.x == 0) logic(sd, now, counts);
    __syncthreads();
    uint64_t *back = reinterpret_cast<uint64_t *>(d);
    for (unsigned i = threadIdx.x; i < kWords; i += blockDim.x) back[i] = raw[i];
    if (sd->launch != BB_BR_NONE) {
        __syncthreads();   /* the state stored before the launch (a sibling starts at once) */
        if (threadIdx.x == 0) {
            const cudaStream_t tail = cudaStreamGraphTailLaunch;
            const cudaStream_t mode = next == BB_BR_NONE && sd->launch != self
                                          ? cudaStreamGraphFireAndForgetAsSibling
                                          : tail;
            __threadfence();
            cudaError_t e = cudaGraphLaunch(bodies[sd->launch], mode);
            if (e != cudaSuccess && mode != tail) e = cudaGraphLaunch(bodies[sd->launch], tail);
            if (e != cudaSuccess) {
                sd->host->launch_error = (int32_t)e;
                failed(sd);
                sd->step = d->step = BB_STEP_NONE;
            }
        }
        __syncthreads();
    }
    if (sd->step != BB_STEP_NONE) return;
    const uint64_t *s = reinterpret_cast<const uint64_t *>(&sd->s);
    uint64_t *host_s = reinterpret_cast<uint64_t *>(&sd->host->s);
    for (unsigned i = threadIdx.x; i < sizeof sd->s / 8; i += blockDim.x) host_s[i] = s[i];
    const size_t rows = sd->s.rows < sd->host_first ? sd->s.rows : sd->host_first;
    for (size_t i = threadIdx.x; i < rows * sd->host_width; i += blockDim.x)
        sd->host_rows[i] = sd->log[i];
    __threadfence_system();   /* the state and rows before the word that says so */
    __syncthreads();
    if (threadIdx.x != 0) return;
    *(volatile uint64_t *)&sd->host->done = sd->seq;
    /* the waiter for the next launch; where the device cannot start it, the
     * host sees it given up when it rings */
    if (sd->waiter && cudaGraphLaunch(sd->waiter, cudaStreamGraphTailLaunch) != cudaSuccess)
        *(volatile uint64_t *)&sd->bell->gave_up = sd->seq + 1;
}

/* k: the device's kstate (its counters, read by every decide); wait, next,
 * self: bb_decide_block's */
boxbfs_status_t bb_cuda_peers_decide(bb_search_dev *d, cudaStream_t s,
                                     const cudaGraphExec_t *bodies, int wait, int next, int self,
                                     const bb_kstate_t *k);
boxbfs_status_t bb_cuda_peers_branch(bb_search_dev *d, cudaStream_t s, int branch,
                                     const bb_kstate_t *k, const bb_search_t *search);
#endif

#endif /* BB_CUDA_KERNELS_H */
