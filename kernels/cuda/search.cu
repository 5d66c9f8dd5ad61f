/* The device search on the GPU (kernels.h bb_search_t; README "The search
 * on the device"): one device's whole search as one CUDA graph launch, so
 * that no level waits for the host. The graph is a while node whose body is
 *
 *   decide -> if unpack -> if loop -> if top-down -> if pack -> if bottom-up
 *
 * decide (one thread) closes the step that ran (its row in the level log,
 * the next level by the engine's rules: bb_search_advance or
 * bb_search_after_loop), picks the next step (bb_search_step), points the
 * step's kstate at the right buffers and sets the conditions; the step's
 * kernels read their arguments from the same device memory (bb_search_dev)
 * when they run, since one graph serves every level. The graph is built and
 * instantiated once per engine device (the engine keeps it in its cache
 * slot) and launched once per search. */
#include "config.h"

#include <stdlib.h>

#include "kernels/cuda/cuda_kernels.h"

namespace {

struct Handles {
    cudaGraphConditionalHandle run, unpack, loop, top_down, pack, bottom_up;
};

struct Cache {
    int dev;
    cudaStream_t build;       /* captures the bodies (the engine's stream runs them) */
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    bb_search_dev *d;         /* device memory */
    bb_search_dev *h;         /* its pinned host mirror */
    uint32_t *tile_sums;
};

__global__ void decide(bb_search_dev *d, Handles h)
{
    bb_search_t *s = &d->s;
    unsigned long long *ctr = (unsigned long long *)d->a.k.counters;
    const uint64_t now = bb_global_ns();
    if (d->step == BB_STEP_NONE) d->t_first = now;
    if (d->step == BB_STEP_LOOP) {   /* its rows are logged, its walk in d->loop */
        bb_search_after_loop(s, &d->loop);
    } else if (d->step != BB_STEP_NONE) {
        uint64_t *row = d->a.k.level_log + (size_t)s->rows * BB_LOG_FIELDS;
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
    d->a.count = s->w.count;
    d->a.next_level = s->w.level + 1;
    d->a.expand = s->expand;
    d->step = step;
    d->t0 = bb_global_ns();
    s->span_ns = d->t0 - d->t_first;
    cudaGraphSetConditional(h.run, step != BB_STEP_NONE);
    cudaGraphSetConditional(h.unpack, unpack);
    cudaGraphSetConditional(h.loop, step == BB_STEP_LOOP);
    cudaGraphSetConditional(h.top_down, step == BB_STEP_TOP_DOWN);
    cudaGraphSetConditional(h.pack, pack);
    cudaGraphSetConditional(h.bottom_up, step == BB_STEP_BOTTOM_UP);
}

/* A conditional node of graph g after dep (none: NULL), with its body. */
boxbfs_status_t add_conditional(cudaGraph_t g, cudaGraphNode_t dep, cudaGraphConditionalHandle h,
                                cudaGraphConditionalNodeType type, cudaGraphNode_t *node_p,
                                cudaGraph_t *body_p)
{
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeConditional;
    p.conditional.handle = h;
    p.conditional.type = type;
    p.conditional.size = 1;
    BB_CUDA_CHECK(cudaGraphAddNode(node_p, g, dep ? &dep : NULL, NULL, dep ? 1 : 0, &p));
    *body_p = p.conditional.phGraph_out[0];
    return BOXBFS_OK;
}

/* The kernels of one body, launched on c->build while it captures into body. */
enum { BODY_DECIDE, BODY_UNPACK, BODY_LOOP, BODY_TOP_DOWN, BODY_PACK, BODY_BOTTOM_UP };

boxbfs_status_t launch_body(Cache *c, int body, const bb_kstate_t *k, const bb_search_t *s,
                            const Handles &h)
{
    const uint64_t nloc = k->hi - k->lo;
    switch (body) {
    case BODY_DECIDE:
        decide<<<1, 1, 0, c->build>>>(c->d, h);
        BB_CUDA_LAUNCH_CHECK();
        return BOXBFS_OK;
    case BODY_UNPACK: return bb_cuda_search_unpack(c->d, c->build, nloc);
    case BODY_LOOP: return bb_cuda_search_loop(c->d, c->build);
    case BODY_TOP_DOWN:
        if (s->marks_bits) BB_CHECK(bb_cuda_search_zero(c->d, c->build, nloc, 1));
        return bb_cuda_search_expand(c->d, c->build, nloc, s->expand, k->expand_k);
    case BODY_PACK: return bb_cuda_search_pack(c->d, c->build, nloc);
    default: return bb_cuda_search_bottom_up(c->d, c->build, nloc);
    }
}

boxbfs_status_t capture(Cache *c, cudaGraph_t body, int which, const bb_kstate_t *k,
                        const bb_search_t *s, const Handles &h)
{
    cudaGraph_t out;
    boxbfs_status_t st;
    BB_CUDA_CHECK(cudaStreamBeginCaptureToGraph(c->build, body, NULL, NULL, 0,
                                                cudaStreamCaptureModeRelaxed));
    st = launch_body(c, which, k, s, h);
    cudaError_t ce = cudaStreamEndCapture(c->build, &out);   /* also after a failed launch */
    BB_CHECK(st);
    BB_CUDA_CHECK(ce);
    return BOXBFS_OK;
}

boxbfs_status_t build(Cache *c, const bb_kstate_t *k, const bb_search_t *s)
{
    Handles h;
    cudaGraph_t loop_body, bodies[BODY_BOTTOM_UP + 1];
    cudaGraphConditionalHandle *conds[] = {NULL, &h.unpack, &h.loop, &h.top_down, &h.pack,
                                           &h.bottom_up};
    cudaGraphNode_t node, prev;
    size_t one = 1;
    BB_CUDA_CHECK(cudaStreamCreateWithFlags(&c->build, cudaStreamNonBlocking));
    BB_CUDA_CHECK(cudaGraphCreate(&c->graph, 0));
    BB_CUDA_CHECK(cudaGraphConditionalHandleCreate(&h.run, c->graph, 1, cudaGraphCondAssignDefault));
    BB_CHECK(add_conditional(c->graph, NULL, h.run, cudaGraphCondTypeWhile, &node, &loop_body));
    for (int b = BODY_UNPACK; b <= BODY_BOTTOM_UP; b++)
        BB_CUDA_CHECK(cudaGraphConditionalHandleCreate(conds[b], loop_body, 0, 0));
    BB_CHECK(capture(c, loop_body, BODY_DECIDE, k, s, h));
    BB_CUDA_CHECK(cudaGraphGetNodes(loop_body, &prev, &one));   /* decide, the only node */
    for (int b = BODY_UNPACK; b <= BODY_BOTTOM_UP; b++) {
        BB_CHECK(add_conditional(loop_body, prev, *conds[b], cudaGraphCondTypeIf, &node,
                                 &bodies[b]));
        prev = node;
    }
    for (int b = BODY_UNPACK; b <= BODY_BOTTOM_UP; b++) BB_CHECK(capture(c, bodies[b], b, k, s, h));
    BB_CUDA_CHECK(cudaGraphInstantiate(&c->exec, c->graph, 0));
    return BOXBFS_OK;
}

boxbfs_status_t open_cache(const bb_kstate_t *k, const bb_search_t *s, Cache **c_p)
{
    Cache *c = (Cache *)calloc(1, sizeof *c);
    boxbfs_status_t st;
    uint64_t tiles = (k->hi - k->lo) / 4096 + 1;   /* the degree scan's, expand.cu */
    if (c == NULL) return bb_error_set(BOXBFS_ERR_NO_MEMORY, "device search: no host memory");
    BB_CUDA_CHECK(cudaGetDevice(&c->dev));
    *c_p = c;   /* the caller frees what was made on failure */
    BB_CUDA_CHECK(cudaMalloc((void **)&c->d, sizeof *c->d));
    BB_CUDA_CHECK(cudaMalloc((void **)&c->tile_sums, tiles * 4));
    BB_CUDA_CHECK(cudaMallocHost((void **)&c->h, sizeof *c->h));
    st = build(c, k, s);
    return st;
}

}  // namespace

extern "C" void bb_cuda_search_free(void *cache)
{
    Cache *c = (Cache *)cache;
    if (c == NULL) return;
    if (cudaSetDevice(c->dev) == cudaSuccess) {
        if (c->exec) cudaGraphExecDestroy(c->exec);
        if (c->graph) cudaGraphDestroy(c->graph);
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
    if (k->ndev != 1 || k->level_log == NULL || k->visited == NULL)
        return bb_error_set(BOXBFS_ERR_INTERNAL,
                            "cuda search: one device with visited and a level log only");
    if (*cache == NULL) {
        Cache *made = NULL;
        boxbfs_status_t rc = open_cache(k, s, &made);
        if (rc != BOXBFS_OK) {
            bb_cuda_search_free(made);
            return rc;
        }
        *cache = made;
    }
    c = (Cache *)*cache;
    c->h->s = *s;
    c->h->a.k = *k;
    c->h->tile_sums = c->tile_sums;
    c->h->step = BB_STEP_NONE;
    BB_CUDA_CHECK(cudaMemcpyAsync(c->d, c->h, sizeof *c->d, cudaMemcpyHostToDevice, st));
    BB_CUDA_CHECK(cudaGraphLaunch(c->exec, st));
    /* s and the first rows in the same round trip (first_rows: pinned, the engine's) */
    BB_CUDA_CHECK(cudaMemcpyAsync(&c->h->s, &c->d->s, sizeof c->d->s, cudaMemcpyDeviceToHost, st));
    BB_CUDA_CHECK(cudaMemcpyAsync(first_rows, k->level_log, (size_t)first * BB_LOG_FIELDS * 8,
                                  cudaMemcpyDeviceToHost, st));
    BB_CUDA_CHECK(cudaStreamSynchronize(st));
    *s = c->h->s;
    return BOXBFS_OK;
}
