/* The device search across devices on the GPUs (docs/architecture.md "Where
 * a search runs"): search.cu's graphs on every device at once, no host
 * between levels; the devices work in each other's memory over peer access
 * and meet in each other's mailboxes (meet.cuh). This file holds what
 * differs from one device: decide and the branches.
 *   decide (one thread of a block, bb_decide_block, resident before its
 *     step's last kernel ends as on one device): closes the step that
 *     ran (a top-down or bottom-up step meets the others with its part of
 *     the next frontier, size and arcs; the loop's last meeting did so
 *     already), logs the row, picks the next step by the engine's rules,
 *     sets its arguments and launches its branch's graph;
 *   loop: [unpack] the device loop across devices (small_levels.cu);
 *   top-down: [unpack] [split hubs: the levels of this device's hubs that
 *     changed into every device's hub_level] [share visited: meet, this
 *     device's part of it into every other device's] [meet, where either
 *     came before] the atomic expand (expand.cu: remote winners with their
 *     parents into this device's list for their owner; with split hubs
 *     also the part of each hub at the frontier's level that leads here,
 *     after its list, its own hubs' whole rows left out), the lists into
 *     their owners' inboxes, meet (each list's size), take the inboxes;
 *   bottom-up: [pack this device's part of the frontier bitmap, store it
 *     into every other device's copy, meet], mark the frontier visited, the
 *     bottom-up step (bottom_up.cu) into this device's part of the other
 *     bitmap, store that part into every other device's.
 * The cpu backend runs the same steps (kernels/cpu/search_peers.c), so both
 * log the same rows and book the same bytes. */
#include "config.h"

#include "kernels/cuda/meet.cuh"

#if CUDART_VERSION >= 13000

namespace {

constexpr int kThreads = 256;

/* A failed meeting's end of the search (its BB_MEET_* in status). */
__device__ void stop(bb_search_t *s, int status)
{
    s->aborted = status;
    s->abort_code = s->peers.abort ? *(volatile uint32_t *)s->peers.abort : 0;
}

/* This device fails here: the others stop waiting for it (its abort). */
__device__ void fail_here(bb_search_t *s, int self)
{
    bb_raise_abort(s->peers, (uint32_t)self + 1);
    s->aborted = BB_MEET_ABORTED;
    s->abort_code = (uint32_t)self + 1;
}

/* decide's logic on the block's copy of the state (bb_decide_block; next:
 * the branch its graph runs after it, bb_search_start_step). */
__device__ void decide_peers_logic(bb_search_dev *d, uint64_t now, int next,
                                   const unsigned long long *ctr)
{
    bb_search_t *s = &d->s;
    bb_kstate_t *k = &d->a.k;
    const int ndev = k->ndev, self = k->self;
    const size_t width = BB_LOG_ROW(ndev);
    const uint64_t at = k->lo / 32;
    if (d->step == BB_STEP_NONE) {
        d->t_first = now;
    } else if (d->step == BB_STEP_LOOP) {   /* its rows are logged, its walk in d->loop */
        const uint32_t runs = d->loop.runs;
        if (ctr[BB_CTR_EXPANDED] == BB_LOOP_FAILED) {
            const uint32_t code = s->peers.abort ? *(volatile uint32_t *)s->peers.abort : 0;
            stop(s, code & BB_ABORT_TIMEOUT ? BB_MEET_TIMEOUT : BB_MEET_ABORTED);
        } else {
            bb_search_after_loop(s, &d->loop);
            s->mine = ctr[BB_CTR_NEXT];
            s->mine_arcs = ctr[BB_CTR_NEXT_ARCS];
            s->peers.tag += bb_loop_meetings(runs);
            for (int o = 0; o < ndev; o++) s->spill[o] = ctr[BB_CTR_SEND_COUNT(o)];
        }
    } else if (!s->aborted) {   /* a top-down or bottom-up step: the level's end */
        uint64_t v[2][BB_LOOP_MAX_DEV], g[2][BB_LOOP_MAX_DEV] = {};   /* next frontier, arcs */
        for (int o = 0; o < ndev; o++) {
            v[0][o] = ctr[BB_CTR_NEXT];
            v[1][o] = ctr[BB_CTR_NEXT_ARCS];
        }
        const uint64_t waited = d->wait_ns;
        const int st = bb_meet(s->peers, ndev, self, ++s->peers.tag, 2, v, g);
        const uint64_t met = bb_global_ns();
        if (st != BB_MEET_OK) {
            stop(s, st);
        } else {
            uint64_t total = v[0][self], total_arcs = v[1][self];
            uint64_t *row = d->log + (size_t)s->rows * width;
            for (int o = 0; o < ndev; o++) {
                if (o == self) continue;
                total += g[0][o];
                total_arcs += g[1][o];
            }
            uint64_t sent[BB_LOOP_MAX_DEV];
            for (int o = 0; o < ndev; o++)
                sent[o] = d->step == BB_STEP_TOP_DOWN && o != self ? ctr[BB_CTR_SEND_COUNT(o)] : 0;
            bb_peers_log_row(row, s, ndev, d->step, met - d->t0,
                             d->step == BB_STEP_BOTTOM_UP ? now - d->t0 - waited
                                                          : d->t_own - d->t0,
                             waited + (met - now), sent);
            row[BB_LOG_HUBS] = d->hubs_stored;
            bb_peers_advance(s, d->step, total, total_arcs, v[0][self], v[1][self]);
        }
    }
    int step = bb_search_step(s);
    if (step != BB_STEP_NONE && s->fault_level == s->w.level) {   /* tests: this device fails */
        fail_here(s, self);
        step = BB_STEP_NONE;
    }
    int pack = 0;
    const int unpack = step != BB_STEP_NONE && bb_peers_begin(s, step, &pack);
    for (size_t i = 0; i < BB_CTR_COUNT(ndev); i++) ((unsigned long long *)k->counters)[i] = 0;
    k->frontier = s->frontier;
    k->next_frontier = s->next_frontier;
    k->next_bits = nullptr;
    if (step == BB_STEP_BOTTOM_UP) {   /* the frontier's bitmap; the next one's part here */
        k->frontier_bits = s->bits[s->parity][self];
        k->own_bits = s->bits[s->parity ^ 1][self] + at;
    } else if (unpack) {   /* the part search_unpack makes the list of */
        k->own_bits = s->bits[s->parity][self] + at;
    }
    if (step == BB_STEP_TOP_DOWN && k->rank_prefix) {   /* search_prefix raises [1] from [0] */
        k->rank_prefix[0] = k->rank_prefix[1];
        if (bb_prefix_raises(s->w.arcs, k->n)) k->rank_prefix[1] = (uint32_t)k->n;
    }
    const int split = bb_peers_split_hubs(step, s->w.count, s->w.arcs, k->hubs, k->hub_degree);
    d->a.count = s->mine;
    d->a.split = split;
    d->hubs_stored = 0;
    d->a.next_level = s->w.level + 1;
    d->a.expand = s->expand;
    d->a.loop = bb_search_loop_params(s);   /* the top-down step's consumer reads its peers */
    k->level_log = d->log + (size_t)s->rows * width;
    d->wait_ns = 0;
    d->t_own = 0;
    bb_search_start_step(d, step, unpack, pack,
                         (bb_peers_share_visited(step, s->w.arcs, s->rule.n) ? BB_TD_SHARE : 0) |
                             (split ? BB_TD_SPLIT : 0),
                         next);
}

__global__ void __launch_bounds__(kDecideThreads)
    decide_peers(bb_search_dev *d, const cudaGraphExec_t *bodies, int wait, int next, int self,
                 const unsigned long long *ctr, unsigned nctr)
{
    bb_decide_block(
        d, wait, next, self, bodies, ctr, nctr,
        [=](bb_search_dev *sd, uint64_t now, const unsigned long long *counts) {
            decide_peers_logic(sd, now, next, counts);
        },
        [](bb_search_dev *sd) { fail_here(&sd->s, sd->a.k.self); });   /* a refused launch */
}

/* The top-down step's meeting: each list's size for its owner; what every
 * source sent here into d->got (zeros where the meeting failed). */
__global__ void meet_sizes(bb_search_dev *d)
{
    bb_search_t *s = &d->s;
    const int ndev = d->a.k.ndev, self = d->a.k.self;
    const unsigned long long *ctr = (const unsigned long long *)d->a.k.counters;
    uint64_t sent[1][BB_LOOP_MAX_DEV], got[1][BB_LOOP_MAX_DEV] = {};
    const uint64_t t = bb_global_ns();
    for (int o = 0; o < ndev; o++) sent[0][o] = o == self ? 0 : ctr[BB_CTR_SEND_COUNT(o)];
    d->t_own = t - d->wait_ns;   /* less the wait after sharing visited */
    const int st = bb_meet(s->peers, ndev, self, ++s->peers.tag, 1, sent, got);
    d->wait_ns += bb_global_ns() - t;
    if (st != BB_MEET_OK) {
        stop(s, st);
        for (int o = 0; o < ndev; o++) got[0][o] = 0;
    }
    for (int o = 0; o < ndev; o++) d->got[o] = got[0][o];
}

/* The packing bottom-up step's meeting: every part of the frontier is here
 * (or a sharing top-down step's: every part of visited). */
__global__ void meet_parts(bb_search_dev *d)
{
    bb_search_t *s = &d->s;
    if (d->a.skip) return;   /* a step its decide did not choose (search.cu) */
    const uint64_t t = bb_global_ns();
    const int st = bb_meet(s->peers, d->a.k.ndev, d->a.k.self, ++s->peers.tag, 0, nullptr, nullptr);
    d->wait_ns += bb_global_ns() - t;
    if (st != BB_MEET_OK) stop(s, st);
}

/* Every source's list for this device (d->got of them): the first to claim
 * a vertex gives it its level and its parent (a gid), and it joins the next
 * frontier (one atomic per warp; its arcs summed per block). The claim is
 * the visited bit's, as in the expand (a read first, then the atomic, both
 * in the few MiB of visited that stay in L2), not a compare-and-swap on the
 * level array in DRAM. */
__global__ void __launch_bounds__(kThreads) take_inboxes(const bb_search_dev *d)
{
    bb_let_next_start();   /* the decide after it */
    const bb_kstate_t &k = d->a.k;
    const int ndev = k.ndev, self = k.self;
    const int32_t level = d->a.next_level;
    unsigned long long *ctr = (unsigned long long *)k.counters;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    __shared__ bb_block_sum arcs_acc;
    arcs_acc.begin();
    for (int o = 0; o < ndev; o++) {
        if (o == self) continue;
        const uint64_t got = d->got[o];
        const uint32_t *in = d->s.peers.from[o], *in_parent = d->s.peers.from_parent[o];
        for (uint64_t base = (uint64_t)blockIdx.x * blockDim.x; base < got; base += stride) {
            const uint64_t i = base + threadIdx.x;   /* (the loop is block-uniform) */
            uint32_t lid = 0;
            bool fresh = false;
            if (i < got) {
                lid = __ldcg(in + i);
                const uint32_t v = (uint32_t)(k.lo + lid);
                fresh = !bb_is_visited(k.visited, k.visited_bits, v) &&
                        bb_visit(k.visited, k.visited_bits, v);
                if (fresh) {
                    k.level[lid] = level;
                    k.pred[lid] = (int64_t)__ldcg(in_parent + i);
                }
            }
            const unsigned long long slot = bb_warp_append(ctr + BB_CTR_NEXT, fresh ? 1u : 0u);
            if (fresh) k.next_frontier[slot] = lid;
            bb_warp_add(&arcs_acc.value, fresh ? bb_degree(k.offsets, lid) : 0ull);
        }
    }
    arcs_acc.end(ctr + BB_CTR_NEXT_ARCS);
}

/* The split hubs' step (kernels.h bb_peers_split_hubs): the level of each
 * of this device's hubs that changed since it last stored it, into every
 * device's hub_level (its own copy too: what it stored last); how many in
 * d->hubs_stored. */
__global__ void __launch_bounds__(kThreads) stamp_hubs(bb_search_dev *d)
{
    const bb_kstate_t &k = d->a.k;
    const int ndev = k.ndev;
    unsigned long long stored = 0;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < k.hub_own;
         i += gridDim.x * blockDim.x) {
        const uint32_t h = k.hub_first + i;
        const int32_t level = k.level[k.hub_gid[h] - k.lo];
        if (level == k.hub_level[h]) continue;
        for (int o = 0; o < ndev; o++) d->s.hub_level[o][h] = level;
        stored++;
    }
    bb_warp_add(&d->hubs_stored, stored);
}

/* The split hubs' step, after the meeting that follows stamp_hubs: the
 * rows of the hubs at the frontier's level (hi - lo + h) after this
 * device's list (the expand's frontier; one atomic per warp). */
__global__ void __launch_bounds__(kThreads) list_hubs(bb_search_dev *d)
{
    const bb_kstate_t &k = d->a.k;
    const uint32_t nloc = (uint32_t)(k.hi - k.lo);
    const int32_t level = d->a.next_level - 1;
    const uint32_t stride = gridDim.x * blockDim.x;
    for (uint32_t base = blockIdx.x * blockDim.x; base < k.hubs; base += stride) {
        const uint32_t h = base + threadIdx.x;   /* (the loop is block-uniform) */
        const bool at = h < k.hubs && k.hub_level[h] == level;
        const unsigned long long slot = bb_warp_append(&d->a.count, at ? 1u : 0u);
        if (at) k.frontier[slot] = nloc + h;
    }
}

/* This device's lists (stage[o], stage_parent[o], counters' send counts)
 * into their owners' inboxes: consecutive threads, consecutive entries. */
__global__ void __launch_bounds__(kThreads) push_lists(const bb_search_dev *d)
{
    const bb_search_t &s = d->s;
    const int ndev = d->a.k.ndev, self = d->a.k.self;
    const unsigned long long *ctr = (const unsigned long long *)d->a.k.counters;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (int o = 0; o < ndev; o++) {
        if (o == self) continue;
        const uint64_t count = ctr[BB_CTR_SEND_COUNT(o)];
        for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
            s.peers.to[o][i] = s.stage[o][i];
            s.peers.to_parent[o][i] = s.stage_parent[o][i];
        }
    }
}

/* This device's part (words words from word at) of bitmap b (the frontier,
 * or with next the one the bottom-up step wrote) into every other device's
 * bitmap b: consecutive threads, consecutive words. */
__global__ void __launch_bounds__(kThreads) push_part(const bb_search_dev *d, int next,
                                                      uint64_t words, uint64_t at)
{
    bb_let_next_start();   /* the decide after a bottom-up step's */
    if (d->a.skip) return;   /* a step its decide did not choose (search.cu) */
    const bb_search_t &s = d->s;
    const int ndev = d->a.k.ndev, self = d->a.k.self, b = next ? s.parity ^ 1 : s.parity;
    const uint32_t *part = s.bits[b][self] + at;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; w < words; w += stride) {
        const uint32_t x = part[w];
        for (int o = 0; o < ndev; o++)
            if (o != self) s.bits[b][o][at + w] = x;
    }
}

/* Elements [from, from + count) of this device's visited array (T: its
 * words, or its bytes) into every other device's: consecutive threads,
 * consecutive elements. */
template <class T>
__global__ void __launch_bounds__(kThreads) push_visited(const bb_search_dev *d, uint64_t from,
                                                         uint64_t count)
{
    const bb_search_t &s = d->s;
    const int ndev = d->a.k.ndev, self = d->a.k.self;
    const T *part = (const T *)d->a.k.visited + from;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
        const T x = part[i];
        for (int o = 0; o < ndev; o++)
            if (o != self) ((T *)s.visited[o])[from + i] = x;
    }
}

/* kernels.h bb_peers_share_visited: a meeting (every device is done with
 * its array: the loop before may have undone a level after its last
 * meeting), this device's part of visited into every other device's, then
 * the meeting after the stores. */
boxbfs_status_t share_visited(bb_search_dev *d, cudaStream_t s, const bb_kstate_t *k)
{
    const uint64_t nloc = k->hi - k->lo;
    meet_parts<<<1, 1, 0, s>>>(d);
    BB_CUDA_LAUNCH_CHECK();
    if (nloc > 0) {   /* (an empty range, a small graph's, stores nothing; the meetings stay) */
        const uint64_t words = (nloc + 31) / 32;
        if (k->visited_bits)
            push_visited<uint32_t><<<bb_cuda_grid_for<push_visited<uint32_t>>(
                                         bb_cuda_blocks(words, kThreads), kThreads),
                                     kThreads, 0, s>>>(d, k->lo / 32, words);
        else
            push_visited<uint8_t><<<bb_cuda_grid_for<push_visited<uint8_t>>(
                                        bb_cuda_blocks(nloc, kThreads), kThreads),
                                    kThreads, 0, s>>>(d, k->lo, nloc);
        BB_CUDA_LAUNCH_CHECK();
    }
    meet_parts<<<1, 1, 0, s>>>(d);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

boxbfs_status_t push(bb_search_dev *d, cudaStream_t s, int next, uint64_t nloc, uint64_t at)
{
    const uint64_t words = (nloc + 31) / 32;
    if (words == 0) return BOXBFS_OK;
    push_part<<<bb_cuda_grid_for<push_part>(bb_cuda_blocks(words, kThreads), kThreads), kThreads,
                0, s>>>(d, next, words, at);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

}  // namespace

boxbfs_status_t bb_cuda_peers_decide(bb_search_dev *d, cudaStream_t s,
                                     const cudaGraphExec_t *bodies, int wait, int next, int self,
                                     const bb_kstate_t *k)
{
    return bb_launch_dependent(decide_peers, dim3(1), dim3(kDecideThreads), 0, s, d, bodies, wait,
                               next, self, (const unsigned long long *)k->counters,
                               (unsigned)BB_CTR_COUNT(k->ndev));
}

boxbfs_status_t bb_cuda_peers_branch(bb_search_dev *d, cudaStream_t s, int branch,
                                     const bb_kstate_t *k, const bb_search_t *search)
{
    const uint64_t nloc = k->hi - k->lo, at = k->lo / 32;
    const int td = branch - BB_BR_TOP_DOWN;
    if (branch == BB_BR_UNPACK_LOOP) BB_CHECK(bb_cuda_search_unpack(d, s, nloc));
    if (branch == BB_BR_LOOP || branch == BB_BR_UNPACK_LOOP)
        return bb_cuda_search_peer_loop(d, s, (unsigned)k->cslot);
    if (branch >= BB_BR_TOP_DOWN && branch < BB_BR_BOTTOM_UP) {
        if (td & BB_TD_UNPACK) BB_CHECK(bb_cuda_search_unpack(d, s, nloc));
        if ((td & BB_TD_SPLIT) && k->hub_own) {
            stamp_hubs<<<bb_cuda_grid_for<stamp_hubs>(bb_cuda_blocks(k->hub_own, kThreads),
                                                      kThreads),
                         kThreads, 0, s>>>(d);
            BB_CUDA_LAUNCH_CHECK();
        }
        if (td & BB_TD_SHARE) {   /* its first meeting also publishes the hubs' levels */
            BB_CHECK(share_visited(d, s, k));
        } else if (td & BB_TD_SPLIT) {
            meet_parts<<<1, 1, 0, s>>>(d);
            BB_CUDA_LAUNCH_CHECK();
        }
        if ((td & BB_TD_SPLIT) && k->hubs) {   /* (no hubs: never chosen, but captured) */
            list_hubs<<<bb_cuda_grid_for<list_hubs>(bb_cuda_blocks(k->hubs, kThreads), kThreads),
                        kThreads, 0, s>>>(d);
            BB_CUDA_LAUNCH_CHECK();
        }
        BB_CHECK(bb_cuda_search_expand(d, s, k, search->expand));
        push_lists<<<bb_cuda_persistent_grid<push_lists>(kThreads), kThreads, 0, s>>>(d);
        BB_CUDA_LAUNCH_CHECK();
        meet_sizes<<<1, 1, 0, s>>>(d);
        BB_CUDA_LAUNCH_CHECK();
        if (nloc == 0) return BOXBFS_OK;
        take_inboxes<<<bb_cuda_grid_for<take_inboxes>(bb_cuda_blocks(nloc, kThreads), kThreads),
                       kThreads, 0, s>>>(d);
        BB_CUDA_LAUNCH_CHECK();
        return BOXBFS_OK;
    }
    if (branch == BB_BR_PACK_BOTTOM_UP) {
        BB_CHECK(bb_cuda_search_pack(d, s, nloc, at));
        BB_CHECK(push(d, s, 0, nloc, at));
        meet_parts<<<1, 1, 0, s>>>(d);
        BB_CUDA_LAUNCH_CHECK();
    }
    BB_CHECK(bb_cuda_search_mark(d, s, k->n));
    BB_CHECK(bb_cuda_search_bottom_up(d, s, nloc, (unsigned)k->cslot, 0));
    return push(d, s, 1, nloc, at);
}

#endif

namespace {

constexpr int kWakeLines = 256;

/* kernels.h peers_wake: thread t stores into the t-th 256th of every other
 * device's inbox region for this device (p.cap[o] entries; its content
 * means nothing until a meeting counts it), then thread 0 meets the others;
 * *status its BB_MEET_*. */
__global__ void __launch_bounds__(kWakeLines)
    wake(bb_loop_peers_t p, int ndev, int self, unsigned long long *status)
{
    for (int o = 0; o < ndev; o++) {
        const uint64_t span = o == self ? 0 : p.cap[o];
        if (span) p.to[o][threadIdx.x * span / kWakeLines] = 0;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        const bb_loop_peers_t peers = p;   /* a parameter's address: not for bb_meet */
        *status = (unsigned long long)bb_meet(peers, ndev, self, p.tag + 1, 0, nullptr, nullptr);
    }
}

}  // namespace

extern "C" boxbfs_status_t bb_cuda_peers_wake(const bb_kstate_t *k, void *stream,
                                              const bb_loop_peers_t *p)
{
    cudaStream_t s = (cudaStream_t)stream;
    BB_CHECK(bb_cuda_bind(stream));
    wake<<<1, kWakeLines, 0, s>>>(*p, k->ndev, k->self,
                                  (unsigned long long *)k->counters + BB_CTR_EXPANDED);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}
