/* The device search on the GPU (kernels.h bb_search_t; README "The search
 * on the device"): one device's whole search launched once from the host,
 * so that no level waits for it. A graph per branch: one step's kernels,
 * then decide; the host launches a graph of decide alone, and each decide
 * launches the next step's graph from the device to run when its own graph
 * ends (device graph launch, tail mode), until it chooses none.
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
 * while node and a switch node (benchmarks/graph-costs on an H200). The
 * graphs are built and instantiated once per engine device (the engine
 * keeps them in its cache slot). Several devices: every device's graphs run
 * at once, with search_peers.cu's decide and branches. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cuda/cuda_kernels.h"

#if CUDART_VERSION >= 13000   /* the graph API as CUDA 13 has it (device graph launch: 12.0) */

namespace {


struct Cache {
    int dev;
    cudaStream_t build;       /* captures the branches (the engine's stream runs the graphs) */
    cudaGraph_t graphs[BB_BR_COUNT + 1];   /* [br]: a branch's; [BB_BR_NONE]: the host's */
    cudaGraphExec_t execs[BB_BR_COUNT + 1];
    cudaGraphExec_t *bodies;  /* device memory: execs[0 .. BB_BR_COUNT - 1] */
    bb_search_dev *d;         /* device memory */
    bb_search_dev *h;         /* its pinned host mirror */
    void *tile_sums;
    uint64_t *first_rows;     /* where the first rows go (the engine's pinned log) */
    uint32_t first;
    uint64_t seq;             /* launches so far */
};

/* decide's logic on the block's copy of the state (bb_decide_block). */
__device__ void decide_logic(bb_search_dev *d, uint64_t now, const cudaGraphExec_t *bodies)
{
    bb_search_t *s = &d->s;
    unsigned long long *ctr = (unsigned long long *)d->a.k.counters;
    if (d->step == BB_STEP_NONE) d->t_first = now;
    if (d->step == BB_STEP_LOOP) {   /* its rows are logged, its walk in d->loop */
        bb_search_after_loop(s, &d->loop);
    } else if (d->step != BB_STEP_NONE) {
        uint64_t *row = d->log + (size_t)s->rows * BB_LOG_FIELDS;
        row[0] = s->w.count;
        row[1] = s->w.arcs;
        row[2] = now - d->t0;
        row[3] = (uint64_t)d->step;
        bb_search_advance(s, d->step, ctr[BB_CTR_NEXT], ctr[BB_CTR_NEXT_ARCS]);
    }
    const int step = bb_search_step(s);
    int pack = 0;
    const int unpack = step != BB_STEP_NONE && bb_search_begin(s, step, &pack);
    for (size_t i = 0; i < BB_CTR_COUNT(1); i++) ctr[i] = 0;
    d->a.k.frontier = s->frontier;
    d->a.k.next_frontier = s->next_frontier;
    d->a.k.frontier_bits = s->frontier_bits;
    d->a.k.own_bits = s->own_bits;
    d->a.k.next_bits = step == BB_STEP_TOP_DOWN && s->marks_bits ? s->own_bits : NULL;
    if (step == BB_STEP_TOP_DOWN && d->a.k.rank_prefix) {   /* search_prefix raises [1] from [0] */
        d->a.k.rank_prefix[0] = d->a.k.rank_prefix[1];
        if (bb_prefix_raises(s->w.arcs, d->a.k.n)) d->a.k.rank_prefix[1] = (uint32_t)d->a.k.n;
    }
    d->a.count = s->w.count;
    d->a.split = 0;
    d->a.next_level = s->w.level + 1;
    d->a.expand = s->expand;
    d->a.k.level_log = d->log + (size_t)s->rows * BB_LOG_FIELDS;
    if (step == BB_STEP_LOOP) d->a.loop = bb_search_loop_params(s);
    bb_search_start_step(d, step, unpack, pack, 0, bodies);
}

__global__ void __launch_bounds__(kDecideThreads)
    decide(bb_search_dev *d, const cudaGraphExec_t *bodies)
{
    bb_decide_block(d, [=](bb_search_dev *sd, uint64_t now) { decide_logic(sd, now, bodies); });
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
        return bb_cuda_search_loop(c->d, c->build, (unsigned)k->cslot);
    return bb_cuda_search_bottom_up(c->d, c->build, nloc, (unsigned)k->cslot);
}

/* decide, launched on c->build while it captures (several devices:
 * search_peers.cu's). */
boxbfs_status_t launch_decide(Cache *c, const bb_kstate_t *k)
{
    if (k->ndev > 1) return bb_cuda_peers_decide(c->d, c->build, c->bodies);
    decide<<<1, kDecideThreads, 0, c->build>>>(c->d, c->bodies);
    BB_CUDA_LAUNCH_CHECK();
    return BOXBFS_OK;
}

/* Capture into c->graphs[br] what fn launches on c->build, then decide,
 * and instantiate it for launches from the device (the host launches the
 * graph of decide alone, br = BB_BR_NONE). */
template <class Fn>
boxbfs_status_t capture(Cache *c, int br, const bb_kstate_t *k, Fn fn)
{
    BB_CUDA_CHECK(cudaStreamBeginCapture(c->build, cudaStreamCaptureModeRelaxed));
    boxbfs_status_t st = fn();
    if (st == BOXBFS_OK) st = launch_decide(c, k);
    cudaError_t ce = cudaStreamEndCapture(c->build, &c->graphs[br]);   /* also after a failure */
    BB_CHECK(st);
    BB_CUDA_CHECK(ce);
    const unsigned long long flags = br == BB_BR_NONE ? 0 : cudaGraphInstantiateFlagDeviceLaunch;
    BB_CUDA_CHECK(cudaGraphInstantiate(&c->execs[br], c->graphs[br], flags));
    BB_CUDA_CHECK(cudaGraphUpload(c->execs[br], c->build));
    return BOXBFS_OK;
}

boxbfs_status_t build(Cache *c, const bb_kstate_t *k, const bb_search_t *s)
{
    BB_CUDA_CHECK(cudaStreamCreateWithFlags(&c->build, cudaStreamNonBlocking));
    BB_CUDA_CHECK(cudaMalloc((void **)&c->bodies, BB_BR_COUNT * sizeof *c->bodies));
    for (int br = 0; br < BB_BR_COUNT; br++)
        BB_CHECK(capture(c, br, k, [&] { return launch_branch(c, br, k, s); }));
    BB_CHECK(capture(c, BB_BR_NONE, k, [] { return BOXBFS_OK; }));
    BB_CUDA_CHECK(cudaMemcpyAsync(c->bodies, c->execs, BB_BR_COUNT * sizeof *c->bodies,
                                  cudaMemcpyHostToDevice, c->build));
    BB_CUDA_CHECK(cudaStreamSynchronize(c->build));
    return BOXBFS_OK;
}

boxbfs_status_t open_cache(const bb_kstate_t *k, const bb_search_t *s, uint64_t *first_rows,
                           uint32_t first, Cache **c_p)
{
    Cache *c = (Cache *)calloc(1, sizeof *c);
    uint64_t tiles = (k->hi - k->lo + k->hubs) / 4096 + 1;   /* the degree scan's, expand.cu */
    if (c == NULL) return bb_error_set(BOXBFS_ERR_NO_MEMORY, "device search: no host memory");
    *c_p = c;   /* the caller frees what was made on failure */
    c->first_rows = first_rows;
    c->first = first;
    BB_CUDA_CHECK(cudaGetDevice(&c->dev));
    BB_CUDA_CHECK(cudaMalloc((void **)&c->d, sizeof *c->d));
    BB_CUDA_CHECK(cudaMalloc(&c->tile_sums, tiles * 8));   /* 64-bit sums fit too */
    BB_CUDA_CHECK(cudaMallocHost((void **)&c->h, sizeof *c->h));
    memset(c->h, 0, sizeof *c->h);
    /* the first decide takes the state from c->h, the last leaves it there
     * with the first rows (where they go is fixed for the cache) */
    c->h->step = BB_STEP_NONE;
    c->h->host = c->h;
    c->h->host_rows = first_rows;
    c->h->host_first = first;
    c->h->host_width = (uint32_t)BB_LOG_ROW(k->ndev);
    BB_CHECK(build(c, k, s));
    BB_CUDA_CHECK(cudaMemcpyAsync(c->d, c->h, sizeof *c->d, cudaMemcpyHostToDevice, c->build));
    BB_CUDA_CHECK(cudaStreamSynchronize(c->build));
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

extern "C" void bb_cuda_search_free(void *cache)
{
    Cache *c = (Cache *)cache;
    if (c == NULL) return;
    if (cudaSetDevice(c->dev) == cudaSuccess) {
        for (int br = 0; br <= BB_BR_COUNT; br++) {
            if (c->execs[br]) cudaGraphExecDestroy(c->execs[br]);
            if (c->graphs[br]) cudaGraphDestroy(c->graphs[br]);
        }
        cudaFree(c->bodies);
        if (c->build) cudaStreamDestroy(c->build);
        cudaFree(c->d);
        cudaFree(c->tile_sums);
        cudaFreeHost(c->h);
    }
    (void)cudaGetLastError();
    free(c);
}

extern "C" boxbfs_status_t bb_cuda_search(const bb_kstate_t *k, void *stream, bb_search_t *s,
                                          void **cache, uint64_t *first_rows, uint32_t first)
{
    cudaStream_t st = (cudaStream_t)stream;
    Cache *c;
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
            return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                                "the device search's CUDA graph could not be built (%s)", why);
        }
        *cache = made;
    }
    if (s->prepare) return BOXBFS_OK;
    c = (Cache *)*cache;
    if (c->first_rows != first_rows || c->first != first)   /* the graph copies there */
        return bb_error_set(BOXBFS_ERR_INTERNAL, "cuda search: the first rows moved");
    c->h->s = *s;
    c->h->a.k = *k;
    c->h->a.search = &c->d->s;
    c->h->log = k->level_log;
    c->h->tile_sums = c->tile_sums;
    c->h->step = BB_STEP_NONE;
    c->h->seq = ++c->seq;
    c->h->launch_error = 0;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);   /* the mirror before the launch reads it */
    BB_CUDA_CHECK(cudaGraphLaunch(c->execs[BB_BR_NONE], st));
    BB_CHECK(wait_done(c, st));
    if (c->h->launch_error)
        return bb_error_set(BOXBFS_ERR_DEVICE,
                            "cuda search: the device could not launch a step's graph (%s)",
                            cudaGetErrorString((cudaError_t)c->h->launch_error));
    *s = c->h->s;
    return BOXBFS_OK;
}

#else   /* an older toolkit: the host drives the levels */

extern "C" void bb_cuda_search_free(void *cache) { (void)cache; }

extern "C" boxbfs_status_t bb_cuda_search(const bb_kstate_t *k, void *stream, bb_search_t *s,
                                          void **cache, uint64_t *first_rows, uint32_t first)
{
    (void)k, (void)stream, (void)s, (void)cache, (void)first_rows, (void)first;
    return bb_error_set(BOXBFS_ERR_UNSUPPORTED, "the device search needs CUDA 13 to build");
}

#endif
