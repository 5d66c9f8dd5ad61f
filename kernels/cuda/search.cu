/* The device search on the GPU (kernels.h bb_search_t; README "The search
 * on the device"): one device's whole search launched once from the host,
 * so that no level waits for it. A graph per branch: one step's kernels,
 * then decide; the host launches a graph of decide alone, and each decide
 * launches the next step's graph from the device (device graph launch:
 * beside its own graph where it is that graph's last node, else to run
 * when its own graph ends; bb_decide_block), until it chooses none.
 *
 * decide (a block, bb_decide_block: the first of a launch takes the state,
 * bb_search_dev, from its pinned host mirror, the last stores it back with
 * the log's first rows and then the word the host waits on; one thread on
 * the block's copy in shared memory does the rest) closes the step that
 * ran (its row in the level log, the next level by the engine's rules:
 * bb_search_advance or bb_search_after_loop), picks the next step
 * (bb_search_step), writes the step's arguments and launches its branch:
 * the device loop, a top-down level or a bottom-up level, the first two
 * after an unpack of the frontier's bitmap where a bottom-up level left
 * it, the last after a pack where the frontier is a list. A step costs the
 * device about 6 us besides its kernels this way, against 10.7 through a
 * while node and a switch node (benchmarks/graph-costs on an H200). Of a
 * decide's 4 us on kron:24 the launch takes about 2, and the launched
 * graph starts 3.4 us after the decide's end: so on one device a graph
 * also runs the steps its decides choose most of the time (chain_of) right
 * after it, each step's kernels and a decide, which do nothing where a
 * decide before them chose another. The graphs are built and instantiated
 * once per engine device (the engine keeps them in its cache slot). Several devices: every device's graphs run
 * at once, with search_peers.cu's decide and branches.
 *
 * Between searches the device waits for the next one (bb_search_bell): the
 * last decide launches a graph of a decide whose first warp reads a line
 * in pinned host memory first (bb_wait_bell); the host stores the next launch's
 * number there instead of launching a graph (cudaGraphLaunch took 15-22 us
 * of the host, cold after the host's own work between searches), and with
 * it the words of the state that changed since the last launch
 * (mirror_delta), so that the decide need not read the state over PCIe. The
 * graphs run on a stream of their own, so the engine's copies and kernels
 * between searches do not queue behind the waiter; the engine has waited
 * for its stream (its counters read) before it calls a search. An
 * allocation waits for every kernel of the device, so the backend's
 * allocations first let the waiters go (bb_cuda_search_release). */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/timer.h"
#include "kernels/cuda/cuda_kernels.h"

#if CUDART_VERSION >= 13000   /* the graph API as CUDA 13 has it (device graph launch: 12.0) */

namespace {

/* The graphs: [br] a branch's, [kHostGraph] a launch's first decide (the
 * host launches it), [kWaiter] the same waiting for the bell first (the
 * last decide launches it); each with the steps after it (chain_of). */
constexpr int kHostGraph = BB_BR_NONE, kWaiter = BB_BR_NONE + 1, kGraphs = BB_BR_NONE + 2;

/* How long the device waits for the next search (BOXBFS_SEARCH_WAIT_MS):
 * longer than the host's validation of a tree between two searches (a
 * kron:26 tree takes 1.3-1.6 s on 16-32 cores; where the waiter gave up
 * after 1 s, each search after one cost the host 15-25 us more), shorter
 * than the devices' meeting timeout (BB_PEER_TIMEOUT_NS, 10 s), so that
 * whatever might queue behind a waiter still meets in time. */
constexpr uint64_t kWaitMsDefault = 5000;

struct Cache {
    int dev;
    cudaStream_t build;       /* captures the branches */
    cudaStream_t run;         /* runs the graphs */
    cudaGraph_t graphs[kGraphs];
    cudaGraphExec_t execs[kGraphs];
    cudaGraphExec_t *bodies;  /* device memory: execs[0 .. BB_BR_COUNT - 1] */
    bb_loop_fixed loop;       /* one device's loop kernel's (loop_rules) */
    uint64_t id;              /* this cache's, for bb_cuda_search_loop_own */
    bb_search_dev *d;         /* device memory */
    bb_search_dev *h;         /* its pinned host mirror */
    bb_search_bell *bell;     /* pinned */
    uint64_t *sent;           /* device memory: the mirror a launch's first decide took */
    int has_last;             /* c->last is that mirror (mirror_delta) */
    int stamps;               /* BOXBFS_LOG=debug: the host's times of each call after the
                               * first (bb_cuda_search), summed into host_s over stamped */
    void *tile_sums;
    uint64_t *first_rows;     /* where the first rows go (the engine's pinned log) */
    uint32_t first;
    uint64_t seq;             /* launches so far (read by other threads: atomics) */
    int armed;                /* a waiter waits for launch seq + 1 (atomics) */
    Cache *next;              /* every open cache (g_caches) */
    /* after what every search reads (2.3 KB: on lines of its own) */
    bb_search_dev last;       /* the mirror a launch's first decide took, where has_last */
    uint64_t rung_delta;      /* launches rung with the changed words (BOXBFS_LOG=debug) */
    double host_s[3];
    uint64_t stamped;
};

/* Every open cache, for bb_cuda_search_release. */
pthread_mutex_t g_caches_lock = PTHREAD_MUTEX_INITIALIZER;
Cache *g_caches;
uint64_t g_cache_ids;   /* the last cache's id (atomics) */

/* decide's logic on the block's copy of the state (bb_decide_block; next:
 * the branch its graph runs after it, bb_search_start_step). Its stores to
 * global memory (the row of the step that ran, the next step's counters,
 * the visited prefix) come after its last read of the copy: through
 * generic pointers they could alias it, and every read after them would
 * go to shared memory again (kron:24 on an H200: 0.55-1.1 us a decide's
 * logic at d9cf613). */
__device__ void decide_logic(bb_search_dev *d, uint64_t now, int next,
                             const unsigned long long *counts)
{
    bb_search_t *s = &d->s;
    const int ran = d->step;
    /* a bottom-up step that listed every vertex it found (bottom_up.cu) */
    const int listed = ran == BB_STEP_BOTTOM_UP && d->a.list &&
                       counts[BB_CTR_EXPANDED] == counts[BB_CTR_NEXT];
    uint32_t *prefix = d->a.k.rank_prefix;
    const uint32_t raised = prefix ? prefix[1] : 0;   /* (its latency under the rest) */
    uint64_t *row = NULL;
    const uint64_t row_count = s->w.count, row_arcs = s->w.arcs, row_ns = now - d->t0;
    if (ran == BB_STEP_NONE) d->t_first = now;
    if (ran == BB_STEP_LOOP) {   /* its rows are logged, its walk in d->loop */
        bb_search_after_loop(s, &d->loop);
    } else if (ran != BB_STEP_NONE) {
        row = d->log + (size_t)s->rows * BB_LOG_FIELDS;
        bb_search_advance(s, ran, counts[BB_CTR_NEXT], counts[BB_CTR_NEXT_ARCS]);
        if (listed) s->in_list = 1;   /* no unpack before the step after it */
    }
    const int step = bb_search_step(s);
    int pack = 0;
    const int unpack = step != BB_STEP_NONE && bb_search_begin(s, step, &pack);
    d->a.k.frontier = s->frontier;
    d->a.k.next_frontier = s->next_frontier;
    d->a.k.frontier_bits = s->frontier_bits;
    d->a.k.own_bits = s->own_bits;
    d->a.k.next_bits = step == BB_STEP_TOP_DOWN && s->marks_bits ? s->own_bits : NULL;
    /* search_prefix raises [1] from [0] */
    const int raise = step == BB_STEP_TOP_DOWN && prefix,
              raises = raise && bb_prefix_raises(s->w.arcs, d->a.k.n);
    const uint32_t n = (uint32_t)d->a.k.n;
    unsigned long long *ctr = (unsigned long long *)d->a.k.counters;
    d->a.count = s->w.count;
    d->a.split = 0;
    d->a.next_level = s->w.level + 1;
    d->a.expand = s->expand;
    /* a bottom-up step lists its finds too (where few enough): after the
     * last of a run the loop or a top-down step would unpack them first
     * (kron:24 on an H200: 4.0 us between the decide and the loop). Every
     * one, not only those whose frontier shrinks: a run's last level does
     * not always (email-Enron, facebook_combined: where it did not, the
     * loop's graph was launched, 4-7 us more a search) */
    d->a.list = step == BB_STEP_BOTTOM_UP && d->bu_lists;
    d->a.k.level_log = d->log + (size_t)s->rows * BB_LOG_FIELDS;
    if (step == BB_STEP_LOOP) bb_search_loop_walk(&d->a.loop, s);
    if (row) {
        row[0] = row_count;
        row[1] = row_arcs;
        row[2] = row_ns;
        row[3] = (uint64_t)ran;
    }
    for (size_t i = 0; i < BB_CTR_COUNT(1); i++) ctr[i] = 0;
    if (raise) {
        prefix[0] = raised;
        if (raises) prefix[1] = n;
    }
    bb_search_start_step(d, step, unpack, pack, 0, next);
}

/* self: the graph it is a node of; ctr: the device's counters
 * (bb_decide_block) */
__global__ void __launch_bounds__(kDecideThreads)
    decide(bb_search_dev *d, const cudaGraphExec_t *bodies, int wait, int next, int self,
           const unsigned long long *ctr)
{
    bb_decide_block(
        d, wait, next, self, bodies, ctr, (unsigned)BB_CTR_COUNT(1),
        [=](bb_search_dev *sd, uint64_t now, const unsigned long long *counts) {
            decide_logic(sd, now, next, counts);
        },
        [](bb_search_dev *) {});
}

/* The loop's parameters that every search of the engine shares (its
 * rules, the depth limit, the whole log's rows): one device's loop kernel
 * reads them and the kstate from constant memory (small_levels.cu
 * search_levels), the rest from the state; each search checks them (across
 * devices the loop takes all of them from the state). */
bb_loop_params_t loop_rules(const bb_search_t *s)
{
    bb_loop_params_t p = bb_search_loop_params(s);
    p.level = 0;
    p.count = p.arcs = p.prev_count = p.unexplored = 0;
    p.log_cap = s->log_cap;
    return p;
}

/* Whether the device's bottom-up levels list what they find (one device;
 * bb_cuda_search_bottom_up_lists, decide_logic). */
bool bottom_up_lists(const bb_kstate_t *k)
{
    return k->ndev == 1 && bb_cuda_search_bottom_up_lists(k->hi - k->lo);
}

/* One branch's kernels, launched on c->build while it captures (several
 * devices: search_peers.cu's). */
boxbfs_status_t launch_branch(Cache *c, int br, const bb_kstate_t *k, const bb_search_t *s)
{
    const uint64_t nloc = k->hi - k->lo;
    if (k->ndev > 1) return bb_cuda_peers_branch(c->d, c->build, br, k, s);
    const int td = br - BB_BR_TOP_DOWN;
    if (br >= BB_BR_TOP_DOWN && br < BB_BR_BOTTOM_UP) {
        if (td & (BB_TD_SHARE | BB_TD_SPLIT)) return BOXBFS_OK;   /* one device: never chosen */
        if (td & BB_TD_UNPACK) BB_CHECK(bb_cuda_search_unpack(c->d, c->build, nloc));
        if (s->marks_bits) BB_CHECK(bb_cuda_search_zero(c->d, c->build, nloc, 1, 0));
        return bb_cuda_search_expand(c->d, c->build, k, s->expand);
    }
    if (br == BB_BR_UNPACK_LOOP) BB_CHECK(bb_cuda_search_unpack(c->d, c->build, nloc));
    if (br == BB_BR_PACK_BOTTOM_UP) BB_CHECK(bb_cuda_search_pack(c->d, c->build, nloc, 0));
    if (br == BB_BR_LOOP || br == BB_BR_UNPACK_LOOP)
        return bb_cuda_search_loop(k, c->d, c->build);
    return bb_cuda_search_bottom_up(c->d, c->build, nloc, (unsigned)k->cslot,
                                    bottom_up_lists(k));
}

/* decide, launched on c->build while it captures graph g (several devices:
 * search_peers.cu's; wait and next: bb_decide_block's): a programmatic
 * dependent of the kernel before it, resident before that kernel ends
 * (bb_let_next_start), so that it does not wait for a launch after the
 * step. */
boxbfs_status_t launch_decide(Cache *c, int g, const bb_kstate_t *k, int wait, int next)
{
    if (k->ndev > 1) return bb_cuda_peers_decide(c->d, c->build, c->bodies, wait, next, g, k);
    return bb_launch_dependent(decide, dim3(1), dim3(kDecideThreads), 0, c->build, c->d,
                               (const cudaGraphExec_t *)c->bodies, wait, next, g,
                               (const unsigned long long *)k->counters);
}

/* The most steps a graph runs after its own (chain_of). */
constexpr int kChainMax = 4;

/* The branches graph g runs after its decide, in order, each where the
 * decide before it chooses it most of the time (into chain, their number
 * returned; BOXBFS_NEXT_STEPS=0: none; across devices every device's graph
 * runs the same, since every decide chooses alike): the loop after a
 * launch's first decide (a search starts small); where bottom-up steps may
 * run, a bottom-up step after a top-down one (no pack where top-down levels
 * mark bits, else the pack first) and after a bottom-up one. Where the rule
 * picks each level's direction and the loop may run, a run of three
 * bottom-up levels and then the loop: a top-down graph holds the run and
 * the loop after it, the packing bottom-up graph the rest of the run and
 * the loop, the bottom-up graph (launched where a run is longer) the loop
 * (kron:24 on an H200: 15 of 17 searches ran top-down, three bottom-up,
 * then the loop; each step run without a launch saves its decide the
 * launch, 2-4 us, and its kernels start 1-3 us sooner). On one device
 * whose bottom-up grid fills the GPU a bottom-up level lists what it finds
 * where few enough (decide_logic), so the loop after a run unpacks
 * nothing; elsewhere it does. A decide that
 * chooses another costs the graph about 1 us a node it skips (the steps'
 * kernels and decides after it). Never a top-down step: its kernels do not
 * return where their decide chose another (a waiter that ran the first
 * loop and then a top-down step, 9f94188, expanded where the decide after
 * the loop chose bottom-up). */
int chain_of(int g, const bb_kstate_t *k, const bb_search_t *s, int *chain)
{
    const char *env = getenv("BOXBFS_NEXT_STEPS");
    const int dir = s->rule.direction, bu = s->rule.bottom_up && dir != BOXBFS_SEARCH_TOP_DOWN;
    const int runs = bu && dir == BOXBFS_SEARCH_AUTO && s->loop_arcs;
    /* one device never runs the top-down variants that share or split */
    const int td = g - BB_BR_TOP_DOWN,
              top_down = g >= BB_BR_TOP_DOWN && g < BB_BR_BOTTOM_UP &&
                         (k->ndev > 1 || !(td & (BB_TD_SHARE | BB_TD_SPLIT)));
    /* after a run: its list is there where the levels list their finds */
    const int loop = bottom_up_lists(k) ? BB_BR_LOOP : BB_BR_UNPACK_LOOP;
    int n = 0;
    if (env && strcmp(env, "0") == 0) return 0;
    if (g == kHostGraph || g == kWaiter) {
        if (s->loop_arcs && dir != BOXBFS_SEARCH_BOTTOM_UP) chain[n++] = BB_BR_LOOP;
        return n;
    }
    if (!bu) return 0;
    if (top_down)   /* marks_bits: no pack */
        chain[n++] = s->marks_bits ? BB_BR_BOTTOM_UP : BB_BR_PACK_BOTTOM_UP;
    else if (g == BB_BR_BOTTOM_UP && runs)
        chain[n++] = loop;
    else if (g == BB_BR_BOTTOM_UP || g == BB_BR_PACK_BOTTOM_UP)
        chain[n++] = BB_BR_BOTTOM_UP;
    else
        return 0;
    if (runs && g != BB_BR_BOTTOM_UP) {   /* the run's other levels, then the loop */
        if (g != BB_BR_PACK_BOTTOM_UP) chain[n++] = BB_BR_BOTTOM_UP;
        chain[n++] = BB_BR_BOTTOM_UP;
        chain[n++] = loop;
    }
    return n;
}

/* Capture into c->graphs[g] what fn launches on c->build, then decide
 * (wait: the waiter's), then each step g runs after it (chain_of): that
 * branch's kernels and a decide; instantiate it for launches from the
 * device (the host launches kHostGraph). */
template <class Fn>
boxbfs_status_t capture(Cache *c, int g, const bb_kstate_t *k, const bb_search_t *s, Fn fn)
{
    int chain[kChainMax];
    const int len = chain_of(g, k, s, chain);
    BB_CUDA_CHECK(cudaStreamBeginCapture(c->build, cudaStreamCaptureModeRelaxed));
    boxbfs_status_t st = fn();
    if (st == BOXBFS_OK) st = launch_decide(c, g, k, g == kWaiter, len ? chain[0] : BB_BR_NONE);
    for (int i = 0; i < len && st == BOXBFS_OK; i++) {
        st = launch_branch(c, chain[i], k, s);
        if (st == BOXBFS_OK)
            st = launch_decide(c, g, k, 0, i + 1 < len ? chain[i + 1] : BB_BR_NONE);
    }
    cudaError_t ce = cudaStreamEndCapture(c->build, &c->graphs[g]);   /* also after a failure */
    BB_CHECK(st);
    BB_CUDA_CHECK(ce);
    const unsigned long long flags = g == kHostGraph ? 0 : cudaGraphInstantiateFlagDeviceLaunch;
    BB_CUDA_CHECK(cudaGraphInstantiate(&c->execs[g], c->graphs[g], flags));
    BB_CUDA_CHECK(cudaGraphUpload(c->execs[g], c->build));
    return BOXBFS_OK;
}

boxbfs_status_t build(Cache *c, const bb_kstate_t *k, const bb_search_t *s)
{
    const auto none = [] { return BOXBFS_OK; };
    BB_CUDA_CHECK(cudaStreamCreateWithFlags(&c->build, cudaStreamNonBlocking));
    BB_CUDA_CHECK(cudaStreamCreateWithFlags(&c->run, cudaStreamNonBlocking));
    BB_CUDA_CHECK(cudaMalloc((void **)&c->bodies, BB_BR_COUNT * sizeof *c->bodies));
    c->loop.k = *k;
    c->loop.p = loop_rules(s);
    c->id = __atomic_add_fetch(&g_cache_ids, 1, __ATOMIC_RELAXED);
    for (int br = 0; br < BB_BR_COUNT; br++)
        BB_CHECK(capture(c, br, k, s, [&] { return launch_branch(c, br, k, s); }));
    BB_CHECK(capture(c, kHostGraph, k, s, none));
    if (c->h->bell_wait_ns) BB_CHECK(capture(c, kWaiter, k, s, none));
    c->h->waiter = c->execs[kWaiter];
    BB_CUDA_CHECK(cudaMemcpyAsync(c->bodies, c->execs, BB_BR_COUNT * sizeof *c->bodies,
                                  cudaMemcpyHostToDevice, c->build));
    BB_CUDA_CHECK(cudaStreamSynchronize(c->build));
    return BOXBFS_OK;
}

/* BOXBFS_SEARCH_WAIT_MS: how long the device waits for the next search, in
 * ns (0: it does not, the host launches every search). */
boxbfs_status_t wait_ns_of(uint64_t *ns_p)
{
    const char *env = getenv("BOXBFS_SEARCH_WAIT_MS");
    char *end;
    unsigned long long ms = kWaitMsDefault;
    if (env && *env) {
        ms = strtoull(env, &end, 10);
        if (*end || *env == '-' || ms > 3600000ull)
            return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                                "BOXBFS_SEARCH_WAIT_MS='%s': milliseconds from 0 to 3600000", env);
    }
    *ns_p = (uint64_t)ms * 1000000u;
    return BOXBFS_OK;
}

boxbfs_status_t open_cache(const bb_kstate_t *k, const bb_search_t *s, uint64_t *first_rows,
                           uint32_t first, Cache **c_p)
{
    Cache *c = (Cache *)calloc(1, sizeof *c);
    uint64_t tiles = (k->hi - k->lo + k->hubs) / 4096 + 1;   /* the degree scan's, expand.cu */
    uint64_t wait_ns = 0;
    if (c == NULL) return bb_error_set(BOXBFS_ERR_NO_MEMORY, "device search: no host memory");
    *c_p = c;   /* the caller frees what was made on failure */
    BB_CHECK(wait_ns_of(&wait_ns));
    c->stamps = bb_log_enabled(BB_LOG_DEBUG);
    c->first_rows = first_rows;
    c->first = first;
    BB_CUDA_CHECK(cudaGetDevice(&c->dev));
    BB_CUDA_CHECK(cudaMalloc((void **)&c->d, sizeof *c->d));
    BB_CUDA_CHECK(cudaMalloc(&c->tile_sums, tiles * 8));   /* 64-bit sums fit too */
    BB_CUDA_CHECK(cudaMallocHost((void **)&c->h, sizeof *c->h));
    memset(c->h, 0, sizeof *c->h);
    BB_CUDA_CHECK(cudaMallocHost((void **)&c->bell, sizeof *c->bell));
    memset(c->bell, 0, sizeof *c->bell);
    BB_CUDA_CHECK(cudaMalloc((void **)&c->sent, sizeof *c->h));
    /* the first decide takes the state from c->h, the last leaves it there
     * with the first rows (where they go is fixed for the cache) */
    c->h->step = BB_STEP_NONE;
    c->h->host = c->h;
    c->h->host_rows = first_rows;
    c->h->host_first = first;
    c->h->host_width = (uint32_t)BB_LOG_ROW(k->ndev);
    c->h->bell = c->bell;
    c->h->sent = c->sent;
    c->h->bell_wait_ns = wait_ns;
    c->h->bu_lists = bottom_up_lists(k);
    BB_CHECK(build(c, k, s));
    BB_CUDA_CHECK(cudaMemcpyAsync(c->d, c->h, sizeof *c->d, cudaMemcpyHostToDevice, c->build));
    BB_CUDA_CHECK(cudaStreamSynchronize(c->build));
    pthread_mutex_lock(&g_caches_lock);
    c->next = g_caches;
    g_caches = c;
    pthread_mutex_unlock(&g_caches_lock);
    return BOXBFS_OK;
}

/* The words of the mirror that differ from the one the device took last
 * (c->last), as the bell's delta words of launch c->seq (bb_search_bell)
 * into delta; 1 where they fit, 0 where more differ or the device's copy
 * is not known. c->last becomes the mirror, known once the launch ran. */
int mirror_delta(Cache *c, uint64_t *delta)
{
    constexpr size_t kChunk = 64;
    const unsigned char *now = reinterpret_cast<const unsigned char *>(c->h);
    unsigned char *last = reinterpret_cast<unsigned char *>(&c->last);
    int n = 0;
    for (size_t at = 0; at < sizeof c->last; at += kChunk) {   /* most chunks are alike */
        const size_t len = sizeof c->last - at < kChunk ? sizeof c->last - at : kChunk;
        if (memcmp(now + at, last + at, len) == 0) continue;
        for (size_t i = 0; i < len / 4; i++) {
            uint32_t x, y;
            memcpy(&x, now + at + 4 * i, 4);
            memcpy(&y, last + at + 4 * i, 4);
            if (x == y) continue;
            if (n < kBellWords) delta[n] = bb_delta_word(c->seq, (uint32_t)(at / 4 + i), x);
            n++;
        }
        memcpy(last + at, now + at, len);
    }
    const int fits = c->has_last && n <= kBellWords;
    for (int i = n; i < kBellWords; i++) delta[i] = bb_delta_word(c->seq, kDeltaNone, 0);
    c->has_last = 0;
    return fits;
}

/* Starts launch c->seq: rings the waiter where one waits (with the
 * mirror's changed words where they fit: mirror_delta), else (or where it
 * gave up) launches the host's graph. */
boxbfs_status_t start(Cache *c)
{
    int launch = 1;
    uint64_t delta[kBellWords];
    const int fits = mirror_delta(c, delta);
    if (__atomic_load_n(&c->armed, __ATOMIC_RELAXED)) {
        volatile bb_search_bell *b = c->bell;
        __atomic_store_n(&c->armed, 0, __ATOMIC_RELAXED);
        if (fits)
            for (int i = 0; i < kBellWords; i++) b->delta[i] = delta[i];
        __atomic_thread_fence(__ATOMIC_RELEASE);   /* (the tags keep a late word out) */
        b->bell = fits ? c->seq | kBellDelta : c->seq;
        c->rung_delta += fits;
        __atomic_thread_fence(__ATOMIC_SEQ_CST);   /* rung before its answer is read */
        launch = b->gave_up == c->seq;
        b->ack = launch ? c->seq | kBellFallback : c->seq;
    }
    if (launch) BB_CUDA_CHECK(cudaGraphLaunch(c->execs[kHostGraph], c->run));
    return BOXBFS_OK;
}

/* Until the launch's last decide has stored its number into c->h->done (the
 * state and the first rows are there then), asking the stream now and then
 * whether the graph failed or ended without it. */
boxbfs_status_t wait_done(Cache *c, cudaStream_t st)
{
    const volatile uint64_t *done = &c->h->done;
    for (unsigned spins = 1; *done != c->seq; spins++) {
        if (spins % 4096) continue;
        cudaError_t q = cudaStreamQuery(st);
        if (q == cudaErrorNotReady) continue;
        BB_CUDA_CHECK(q);
        if (*done != c->seq)
            return bb_error_set(BOXBFS_ERR_INTERNAL,
                                "cuda search: the graph ended without its last decide");
    }
    __atomic_thread_fence(__ATOMIC_ACQUIRE);   /* the state after the word */
    return BOXBFS_OK;
}

}  // namespace

extern "C" void bb_cuda_search_release(void)
{
    pthread_mutex_lock(&g_caches_lock);
    for (Cache *c = g_caches; c; c = c->next)
        if (__atomic_load_n(&c->armed, __ATOMIC_RELAXED))
            ((volatile bb_search_bell *)c->bell)->release =
                __atomic_load_n(&c->seq, __ATOMIC_RELAXED) + 1;
    pthread_mutex_unlock(&g_caches_lock);
}

extern "C" void bb_cuda_search_free(void *cache)
{
    Cache *c = (Cache *)cache;
    if (c == NULL) return;
    bb_cuda_search_release();   /* every waiter: the frees below wait for the device */
    pthread_mutex_lock(&g_caches_lock);
    for (Cache **p = &g_caches; *p; p = &(*p)->next)
        if (*p == c) {
            *p = c->next;
            break;
        }
    pthread_mutex_unlock(&g_caches_lock);
    BB_DEBUG(-1, "device search on GPU %d: %llu launches, %llu rung with the words that "
             "changed", c->dev, (unsigned long long)c->seq, (unsigned long long)c->rung_delta);
    if (c->stamped)   /* printed here, not in the searches' time */
        BB_DEBUG(-1, "device search on GPU %d, the host's part of a search (the mean of %llu): "
                 "%.2f us to the ring, %.2f from the ring to the done word less the device's "
                 "span, %.2f after it", c->dev, (unsigned long long)c->stamped,
                 c->host_s[0] * 1e6 / (double)c->stamped, c->host_s[1] * 1e6 / (double)c->stamped,
                 c->host_s[2] * 1e6 / (double)c->stamped);
    if (cudaSetDevice(c->dev) == cudaSuccess) {
        if (c->run) (void)cudaStreamSynchronize(c->run);   /* its waiter gone */
        for (int br = 0; br < kGraphs; br++) {
            if (c->execs[br]) cudaGraphExecDestroy(c->execs[br]);
            if (c->graphs[br]) cudaGraphDestroy(c->graphs[br]);
        }
        cudaFree(c->bodies);
        if (c->build) cudaStreamDestroy(c->build);
        if (c->run) cudaStreamDestroy(c->run);
        cudaFree(c->d);
        cudaFree(c->tile_sums);
        cudaFreeHost(c->h);
        cudaFreeHost(c->bell);
        cudaFree(c->sent);
    }
    (void)cudaGetLastError();
    free(c);
}

extern "C" boxbfs_status_t bb_cuda_search(const bb_kstate_t *k, void *stream, bb_search_t *s,
                                          void **cache, uint64_t *first_rows, uint32_t first)
{
    Cache *c;
    const double t_in = *cache && ((Cache *)*cache)->stamps ? bb_now_s() : 0;
    BB_CHECK(bb_cuda_bind(stream));
    if (k->ndev > BB_LOOP_MAX_DEV || k->level_log == NULL || k->visited == NULL)
        return bb_error_set(BOXBFS_ERR_INTERNAL,
                            "cuda search: at most %d devices, with visited and a level log",
                            BB_LOOP_MAX_DEV);
    if (*cache == NULL) {
        Cache *made = NULL;
        boxbfs_status_t rc = open_cache(k, s, first_rows, first, &made);
        if (rc != BOXBFS_OK) {
            char why[256];
            snprintf(why, sizeof why, "%s", boxbfs_last_error());
            bb_cuda_search_free(made);
            if (rc == BOXBFS_ERR_INVALID_ARG) return bb_error_set(rc, "%s", why);
            return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                                "the device search's CUDA graph could not be built (%s)", why);
        }
        *cache = made;
    }
    if (s->prepare) return BOXBFS_OK;
    c = (Cache *)*cache;
    if (c->first_rows != first_rows || c->first != first)   /* the graph copies there */
        return bb_error_set(BOXBFS_ERR_INTERNAL, "cuda search: the first rows moved");
    if (k->ndev == 1) {   /* the loop's constants hold (loop_rules), and are the GPU's */
        const bb_loop_params_t rules = loop_rules(s);
        const bb_kstate_t *lk = &c->loop.k;
        if (memcmp(&rules, &c->loop.p, sizeof rules) != 0 ||
            !((s->frontier == lk->frontier && s->next_frontier == lk->next_frontier) ||
              (s->frontier == lk->next_frontier && s->next_frontier == lk->frontier)))
            return bb_error_set(BOXBFS_ERR_INTERNAL,
                                "cuda search: the loop's rules or the frontier's lists changed");
        BB_CHECK(bb_cuda_search_loop_own(c->dev, c->id, &c->loop, c->build));
    }
    c->h->s = *s;
    c->h->a.k = *k;
    c->h->a.search = &c->d->s;
    c->h->log = k->level_log;
    c->h->tile_sums = c->tile_sums;
    c->h->step = BB_STEP_NONE;
    c->h->seq = __atomic_add_fetch(&c->seq, 1, __ATOMIC_RELAXED);
    c->h->launch_error = 0;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);   /* the mirror before the launch reads it */
    BB_CHECK(start(c));
    const double t_rung = t_in ? bb_now_s() : 0;
    BB_CHECK(wait_done(c, c->run));
    const double t_done = t_in ? bb_now_s() : 0;
    __atomic_store_n(&c->armed, c->h->waiter != NULL, __ATOMIC_RELAXED);
    if (c->h->launch_error)
        return bb_error_set(BOXBFS_ERR_DEVICE,
                            "cuda search: the device could not launch a step's graph (%s)",
                            cudaGetErrorString((cudaError_t)c->h->launch_error));
    c->has_last = 1;   /* the launch's first decide took c->last */
    *s = c->h->s;
    if (t_in) {   /* where the host's part of a search goes (the span is the device's own) */
        c->host_s[0] += t_rung - t_in;
        c->host_s[1] += t_done - t_rung - (double)s->span_ns * 1e-9;
        c->host_s[2] += bb_now_s() - t_done;
        c->stamped++;
    }
    return BOXBFS_OK;
}

#else   /* an older toolkit: the host drives the levels */

extern "C" void bb_cuda_search_release(void) {}

extern "C" void bb_cuda_search_free(void *cache) { (void)cache; }

extern "C" boxbfs_status_t bb_cuda_search(const bb_kstate_t *k, void *stream, bb_search_t *s,
                                          void **cache, uint64_t *first_rows, uint32_t first)
{
    (void)k, (void)stream, (void)s, (void)cache, (void)first_rows, (void)first;
    return bb_error_set(BOXBFS_ERR_UNSUPPORTED, "the device search needs CUDA 13 to build");
}

#endif
