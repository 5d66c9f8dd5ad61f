/* Bottom-up step on the GPU [Beamer et al., direction-optimizing BFS]: a
 * warp takes words of the device's part of a bitmap (32 consecutive owned
 * vertices each, the partition being aligned to 32), each lane one vertex
 * of a word. A lane whose vertex is not reached yet looks for a parent in
 * the gathered frontier bitmap (n bits; parent_scan.cuh). A ballot gives
 * the word of the next frontier's bitmap (written for every word, so no
 * clearing pass). The next frontier is that bitmap (unpack_bitmap makes
 * the list when a top-down level follows): with a list, every warp of the
 * grid would append through one contended counter. A step of the device
 * search on one device also lists what it finds where few enough
 * (BlockList). Its size and out-arcs are summed per block. Also visited |=
 * frontier (mark_frontier). */
#include "config.h"

#include "kernels/cuda/parent_scan.cuh"

namespace {

constexpr int kThreads = 256;

/* Where a bottom-up step also lists the vertices it finds: a block
 * gathers its finds in shared memory (a warp's, in its lanes' words, with
 * one shared atomic after each round of words: list_words), then takes
 * their places in the list at its end with one atomic on a cursor
 * (take_places); a block that finds more than kListBlock lists none, so
 * the list is whole where the cursor ends equal to the vertices found. On
 * an H200, kron:24: a warp's atomic on the cursor for each word, and a load
 * of it to stop at a cap, ran the listing level 36-49 us instead of 17-20;
 * a shared atomic for each word inside the loop ran --relabel none 3 %
 * slower. Only grids that fill the GPU list (bb_cuda_search_bottom_up_lists). */
constexpr unsigned kListBlock = 256;
struct BlockList {
    uint32_t ids[kListBlock];
    unsigned count;   /* past kListBlock: the block lists none */
    unsigned long long at;
};

/* The warp's finds, next in word mine of each lane, into the block's list
 * (every lane calls it); 0 where the block's list is past its room. */
__device__ __forceinline__ bool list_words(BlockList *into, uint64_t mine, uint32_t next)
{
    const unsigned n = (unsigned)__popc(next);
    unsigned before = n;   /* inclusive, then exclusive: the lanes' places */
    for (int d = 1; d < 32; d *= 2) {
        const unsigned v = __shfl_up_sync(BB_FULL_MASK, before, d);
        if ((int)bb_lane() >= d) before += v;
    }
    unsigned at = 0;
    if (bb_lane() == 31) at = atomicAdd(&into->count, before);
    at = __shfl_sync(BB_FULL_MASK, at, 31) + before - n;
    const unsigned end = __shfl_sync(BB_FULL_MASK, at + n, 31);
    if (end > kListBlock) return false;   /* the block lists none */
    for (uint32_t b = next; b; b &= b - 1)
        into->ids[at++] = (uint32_t)(mine * 32 + (uint64_t)(__ffs(b) - 1));
    return true;
}

/* A warp's words are w, w + W, w + 2 W, ... (W: the grid's warps), taken 32
 * at a time: each lane loads one word's visited bits, all 32 loads in
 * flight together, and the warp then runs only the words with a vertex not
 * visited. A word taken alone cost one dependent load per round of every
 * warp even where all its vertices were visited (the runs of vertices no
 * search reaches, and nearly all of them once the wave has passed): on one
 * H200 kron:24's bottom-up level that found 465 K vertices took 62 us, as
 * long as its top-down level. into: the block's list (shared memory;
 * NULL: none). */
__device__ __forceinline__ void bottom_up_body(const bb_kstate_t &k, int32_t next_level,
                                               BlockList *into = nullptr)
{
    const uint64_t nloc = k.hi - k.lo, nwords = (nloc + 31) / 32;
    const uint64_t nwarps = ((uint64_t)gridDim.x * blockDim.x) >> 5;
    const bool bits_layout = k.visited && k.visited_bits;
    uint32_t *const seen_words = bits_layout ? (uint32_t *)k.visited + (k.lo >> 5) : nullptr;
    unsigned long long *ctr = (unsigned long long *)k.counters;
    __shared__ bb_block_sum found_acc, arcs_acc;
    unsigned long long found_n = 0, arcs = 0;   /* this thread's, summed at the end */
    bool listing = into != nullptr;             /* warp-uniform */
    if (into && threadIdx.x == 0) into->count = 0;   /* (found_acc.begin's barrier) */
    found_acc.begin();
    arcs_acc.begin();
    for (uint64_t first = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5; first < nwords;
         first += 32 * nwarps) {   /* warp-uniform */
        const uint64_t mine = first + (uint64_t)bb_lane() * nwarps;   /* this lane's word */
        /* its visited bits (one level per vertex instead: none skipped) */
        const uint32_t seen = mine >= nwords ? ~0u : bits_layout ? seen_words[mine] : 0u;
        uint32_t next = 0;   /* the next frontier's word `mine` */
        for (unsigned todo = __ballot_sync(BB_FULL_MASK, seen != ~0u); todo; todo &= todo - 1) {
            const int j = __ffs(todo) - 1;
            const uint32_t word = __shfl_sync(BB_FULL_MASK, seen, j);
            const uint64_t lid = (first + (uint64_t)j * nwarps) * 32 + bb_lane();
            const bool open = lid < nloc && (bits_layout ? !((word >> bb_lane()) & 1u)
                                                         : k.level[lid] == -1);
            uint32_t parent = 0;
            const bool found = bb_find_parent(k.in_offsets, k.in_columns, k.frontier_bits, lid,
                                              open, &parent);
            const unsigned bits = __ballot_sync(BB_FULL_MASK, found);
            if ((int)bb_lane() == j) next = bits;
            if (found) {
                k.level[lid] = next_level;
                k.pred[lid] = (int64_t)parent;
                if (k.visited && !k.visited_bits) ((uint8_t *)k.visited)[k.lo + lid] = 1;
                found_n++;
                arcs += bb_degree(k.offsets, (uint32_t)lid);
            }
        }
        if (mine < nwords) {
            k.own_bits[mine] = next;
            if (bits_layout && next) seen_words[mine] |= next;   /* the word is this warp's alone */
        }
        if (listing && __any_sync(BB_FULL_MASK, next != 0)) listing = list_words(into, mine, next);
    }
    /* no list and one atomic per block: the counters are every warp's */
    bb_warp_add(&found_acc.value, found_n);
    bb_warp_add(&arcs_acc.value, arcs);
    found_acc.end(ctr + BB_CTR_NEXT);
    arcs_acc.end(ctr + BB_CTR_NEXT_ARCS);
}

/* The block's list into list at its places, taken on cursor (after
 * bottom_up_body: its last barrier). */
__device__ __forceinline__ void take_places(BlockList *b, uint32_t *list,
                                            unsigned long long *cursor)
{
    const unsigned count = b->count;
    if (count == 0 || count > kListBlock) return;
    if (threadIdx.x == 0) b->at = atomicAdd(cursor, (unsigned long long)count);
    __syncthreads();
    for (unsigned i = threadIdx.x; i < count; i += blockDim.x) list[b->at + i] = b->ids[i];
}

__global__ void __launch_bounds__(kThreads) bottom_up(bb_kstate_t k, int32_t next_level)
{
    bottom_up_body(k, next_level);
}

/* The device search's: its arguments in c_steps[bb_cslot<Shared>(slot)]
 * (cuda_kernels.h bb_search_args and bb_cslot). */
__constant__ bb_search_args c_steps[BB_LOOP_MAX_DEV];

/* Lists: the kernel of one device whose steps list their finds
 * (bb_cuda_search_bottom_up_lists), six blocks an SM and 40 registers, as
 * many as without the list. The others run the kernel without the list's
 * code and room: where every graph's kernel held them, used or not, the
 * graphs that do not list ran each bottom-up level 1-2 us slower on an
 * H200 (8d53374: email-Enron 0.963x, facebook_combined 0.967x). */
template <bool Shared, bool Lists>
__global__ void __launch_bounds__(kThreads, Lists ? 6 : 0) search_bottom_up(unsigned slot)
{
    const unsigned c = bb_cslot<Shared>(slot);
    bb_let_next_start();
    if (c_steps[c].skip) return;   /* a step its decide did not choose (search.cu) */
    if constexpr (Lists) {
        __shared__ BlockList listed;
        const bool lists = c_steps[c].list;
        bottom_up_body(c_steps[c].k, c_steps[c].next_level, lists ? &listed : nullptr);
        if (lists)   /* the cursor: counters[EXPANDED], which a bottom-up step leaves alone */
            take_places(&listed, c_steps[c].k.next_frontier,
                        (unsigned long long *)c_steps[c].k.counters + BB_CTR_EXPANDED);
    } else {
        bottom_up_body(c_steps[c].k, c_steps[c].next_level);
    }
}

/* Grid of a bottom-up step over nloc vertices: a warp per word, as many
 * as fill the device. */
template <auto Kernel>
int bottom_up_grid(uint64_t nloc)
{
    return bb_cuda_grid_for<Kernel>(bb_cuda_blocks((nloc + 31) / 32 * 32, kThreads), kThreads);
}

/* Word per thread; the byte layout sets one byte per frontier bit. */
__device__ __forceinline__ void mark_body(const uint32_t *frontier_bits, uint64_t nwords,
                                          uint64_t n, void *visited, int bits_layout)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; w < nwords; w += stride) {
        uint32_t f = frontier_bits[w];
        if (f == 0) continue;
        if (bits_layout) {
            ((uint32_t *)visited)[w] |= f;
            continue;
        }
        while (f) {
            uint64_t v = w * 32 + (uint64_t)(__ffs(f) - 1);
            f &= f - 1;
            if (v < n) ((uint8_t *)visited)[v] = 1;
        }
    }
}

__global__ void __launch_bounds__(kThreads)
    mark_frontier(const uint32_t *frontier_bits, uint64_t nwords, uint64_t n, void *visited,
                  int bits_layout)
{
    mark_body(frontier_bits, nwords, n, visited, bits_layout);
}

/* The device search's (the frontier bitmap read from d when it runs). */
__global__ void __launch_bounds__(kThreads) search_mark(const bb_search_dev *d, uint64_t n)
{
    if (d->a.skip) return;   /* a step its decide did not choose (search.cu) */
    mark_body(d->a.k.frontier_bits, (n + 31) / 32, n, d->a.k.visited, d->a.k.visited_bits);
}

}  // namespace

extern "C" boxbfs_status_t bb_cuda_bottom_up(const bb_kstate_t *k, void *stream, int32_t next_level)
{
    cudaStream_t s = (cudaStream_t)stream;
    uint64_t nloc = k->hi - k->lo;
    BB_CHECK(bb_cuda_bind(stream));
    if (nloc == 0) return BOXBFS_OK;
    if (k->frontier_bits == NULL || k->own_bits == NULL || k->in_offsets == NULL)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "cuda bottom_up: no frontier bitmap or in-arcs");
    bottom_up<<<bottom_up_grid<bottom_up>(nloc), kThreads, 0, s>>>(*k, next_level);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

extern "C" boxbfs_status_t bb_cuda_mark_frontier(const bb_kstate_t *k, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    uint64_t nwords = (k->n + 31) / 32;
    BB_CHECK(bb_cuda_bind(stream));
    if (k->visited == NULL || nwords == 0) return BOXBFS_OK;
    const int grid = bb_cuda_grid_for<mark_frontier>(bb_cuda_blocks(nwords, kThreads), kThreads);
    mark_frontier<<<grid, kThreads, 0, s>>>(k->frontier_bits, nwords, k->n, k->visited,
                                            k->visited_bits);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t bb_cuda_search_bottom_up(const bb_search_dev *d, cudaStream_t s, uint64_t nloc,
                                         unsigned slot, int lists)
{
    if (nloc == 0) return BOXBFS_OK;
    BB_CUDA_CHECK(cudaMemcpyToSymbolAsync(c_steps, &d->a, sizeof d->a, slot * sizeof d->a,
                                          cudaMemcpyDeviceToDevice, s));
    if (slot)   /* logical devices of one GPU: several devices, no list */
        search_bottom_up<true, false>
            <<<bottom_up_grid<search_bottom_up<true, false>>(nloc), kThreads, 0, s>>>(slot);
    else if (lists)
        search_bottom_up<false, true>
            <<<bottom_up_grid<search_bottom_up<false, true>>(nloc), kThreads, 0, s>>>(0);
    else
        search_bottom_up<false, false>
            <<<bottom_up_grid<search_bottom_up<false, false>>(nloc), kThreads, 0, s>>>(0);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

bool bb_cuda_search_bottom_up_lists(uint64_t nloc)
{
    const uint64_t nwords = (nloc + 31) / 32;   /* a block: at least twice what it may list */
    return nwords > 0 &&
           (uint64_t)bottom_up_grid<search_bottom_up<false, true>>(nloc) * 2 * kListBlock <=
               nwords * 32;
}

boxbfs_status_t bb_cuda_search_mark(const bb_search_dev *d, cudaStream_t s, uint64_t n)
{
    const uint64_t nwords = (n + 31) / 32;
    if (nwords == 0) return BOXBFS_OK;
    search_mark<<<bb_cuda_grid_for<search_mark>(bb_cuda_blocks(nwords, kThreads), kThreads),
                  kThreads, 0, s>>>(d, n);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}
