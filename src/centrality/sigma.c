/* The centrality driver [DESIGN "Beyond the 1D engine"]: its own level loop
 * over the device-operations table, one host thread per device (a fork-join
 * with an abortable barrier), the 1D partition of the engine, and the same
 * traffic books.
 *
 * Shortest-path counts travel with the frontier: a device expands its
 * frontier's out-arcs; a head it owns gets the count added at once, a head of
 * another device becomes a (owner-local id, count) pair in that owner's
 * segment, copied device to device after the level (12 bytes a pair, counted
 * per link as the phase "sigma_pairs"; the pair counts as "sigma_sizes", the
 * frontier sums as "sigma_termination"). On one device the loop also pulls
 * (bottom-up: each unreached vertex sums the counts of its in-neighbours in
 * the frontier) when the frontier's arcs outweigh the unreached ones, and
 * runs TurboBFS's SpMV forms [001]. Betweenness gives each device the whole
 * graph and a share of the sources; each device sums its dependencies and the
 * host adds the devices' sums. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "centrality/centrality.h"
#include "common/error.h"
#include "common/threads.h"
#include "common/timer.h"
#include "engine/partition.h"
#include "kernels/upload.h"
#include "graph/graph.h"

#define MAX_ALLOCS 24
/* Frontier step: pull once the frontier's arcs times this exceed the arcs
 * of the vertices not reached yet (a pull reads those once, coalesced, and
 * tests a bitmap; a push does a random atomic per arc). */
#define PULL_FACTOR 3

typedef struct {
    bb_device_t *dev;
    char name[128];
    bb_cstate_t k;
    uint64_t *ctr;                /* host copy of the counters */
    uint64_t *inbox_off;          /* ndev + 1: region of each source in the inbox */
    uint32_t *in_vid;
    uint64_t *in_sig;
    void *allocs[MAX_ALLOCS];
    int nallocs;
} cdev_t;

struct bb_centrality {
    boxbfs_graph_t g;
    bb_centrality_options_t o;
    const bb_device_ops_t *ops;
    const bb_centrality_ops_t *cops;
    int ndev, view;               /* view: devices of one search (1 when whole_graph) */
    bb_partition_t part;
    uint64_t *seg;                /* ndev x (ndev + 1): outbox segments of device s */
    cdev_t *d;
    bb_traffic_t traffic;
    bb_barrier_t bar;
    uint64_t *sent;               /* ndev x ndev pair counts of the level */
};

const char *bb_spmv_name(bb_spmv_t v)
{
    switch (v) {
    case BB_SPMV_CSC_SCALAR: return "csc-scalar";
    case BB_SPMV_CSC_VECTOR: return "csc-vector";
    case BB_SPMV_COOC: return "cooc";
    }
    return "?";
}

const char *bb_sigma_algorithm_name(bb_sigma_algorithm_t a)
{
    return a == BB_SIGMA_SPMV ? "spmv" : "frontier";
}

static boxbfs_status_t dalloc(bb_centrality_t *c, cdev_t *D, size_t bytes, void *ptr_p)
{
    void *p;
    if (D->nallocs == MAX_ALLOCS)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "centrality: too many allocations");
    BB_CHECK(c->ops->alloc(D->dev, bytes ? bytes : 8, &p));
    D->allocs[D->nallocs++] = p;
    *(void **)ptr_p = p;
    return BOXBFS_OK;
}

/* The COOC column array of rows [lo, hi) into a new device array: each
 * arc's row (the head of an in-arc), through a bounded host buffer. */
static boxbfs_status_t upload_cooc(bb_centrality_t *c, cdev_t *D, const int64_t *off,
                                   uint64_t lo, uint64_t hi, const uint32_t **cooc_p)
{
    enum { CHUNK = 1 << 22 };
    int64_t base = off[lo], arcs = off[hi] - off[lo];
    uint64_t v = lo;
    boxbfs_status_t st = BOXBFS_OK;
    uint32_t *buf, *dcooc;
    BB_CHECK(dalloc(c, D, (size_t)arcs * 4, &dcooc));
    *cooc_p = dcooc;
    BB_CHECK(bb_malloc((size_t)CHUNK * 4, "the upload buffer", &buf));
    for (int64_t i = 0; i < arcs; i += CHUNK) {
        int64_t cnt = arcs - i < CHUNK ? arcs - i : CHUNK;
        for (int64_t j = 0; j < cnt; j++) {
            while (off[v + 1] <= base + i + j) v++;
            buf[j] = (uint32_t)(v - lo);
        }
        BB_CHECK_GOTO(c->ops->copy_h2d(D->dev, dcooc + i, buf, (size_t)cnt * 4), st, out);
        BB_CHECK_GOTO(c->ops->sync(D->dev), st, out);
    }
out:
    free(buf);
    return st;
}

/* Rows [lo, hi) of a CSR (bb_upload_csr_rows) into new device arrays. */
static boxbfs_status_t upload_rows(bb_centrality_t *c, cdev_t *D, const int64_t *off,
                                   const int64_t *col, uint64_t lo, uint64_t hi,
                                   const int64_t **dst_off_p, const uint32_t **dst_col_p)
{
    int64_t arcs = off[hi] - off[lo];
    int64_t *doff;
    uint32_t *dcol;
    BB_CHECK(dalloc(c, D, (hi - lo + 1) * 8, &doff));
    BB_CHECK(dalloc(c, D, (size_t)arcs * 4, &dcol));
    BB_CHECK(bb_upload_csr_rows(c->ops, D->dev, off, col, 0, lo, hi, doff, dcol));
    *dst_off_p = doff;
    *dst_col_p = dcol;
    return BOXBFS_OK;
}

static boxbfs_status_t upload(bb_centrality_t *c, cdev_t *D, const void *src, size_t bytes,
                              void *ptr_p)
{
    void *p;
    BB_CHECK(dalloc(c, D, bytes, &p));
    BB_CHECK(c->ops->copy_h2d(D->dev, p, src, bytes));
    BB_CHECK(c->ops->sync(D->dev));
    *(void **)ptr_p = p;
    return BOXBFS_OK;
}

/* The lids of rows [lo, hi) with more than BB_CC_HEAVY arcs. */
static boxbfs_status_t upload_heavy(bb_centrality_t *c, cdev_t *D, const int64_t *off,
                                    uint64_t lo, uint64_t hi, const uint32_t **list_p,
                                    uint64_t *count_p)
{
    uint32_t *list;
    uint64_t n = 0;
    boxbfs_status_t st;
    BB_CHECK(bb_malloc((hi - lo + 1) * 4, "the heavy vertices", &list));
    for (uint64_t v = lo; v < hi; v++)
        if (off[v + 1] - off[v] > BB_CC_HEAVY) list[n++] = (uint32_t)(v - lo);
    st = upload(c, D, list, n * 4, list_p);
    free(list);
    if (st == BOXBFS_OK) *count_p = n;
    return st;
}

/* Pairs each device sends each owner at most: its arcs into the owner's range. */
static boxbfs_status_t plan_segments(bb_centrality_t *c)
{
    int nd = c->ndev;
    const struct boxbfs_graph *g = c->g;
    BB_CHECK(bb_calloc((size_t)nd * (size_t)(nd + 1), sizeof *c->seg, "the pair segments",
                       &c->seg));
    for (int s = 0; s < nd; s++) {
        uint64_t *seg = c->seg + (size_t)s * (size_t)(nd + 1);
        for (int64_t e = g->offsets[c->part.lo[s]]; e < g->offsets[c->part.lo[s + 1]]; e++)
            seg[bb_partition_owner(&c->part, (uint64_t)g->columns[e]) + 1]++;
        seg[s + 1] = 0;   /* own heads are updated in place */
        for (int o = 0; o < nd; o++) seg[o + 1] += seg[o];
    }
    return BOXBFS_OK;
}

static boxbfs_status_t setup_device(bb_centrality_t *c, int d, const int64_t *in_off,
                                    const int64_t *in_col)
{
    cdev_t *D = &c->d[d];
    bb_cstate_t *k = &D->k;
    const struct boxbfs_graph *g = c->g;
    int nd = c->view, cooc = c->o.algorithm == BB_SIGMA_SPMV && c->o.spmv == BB_SPMV_COOC;
    uint64_t lo = c->o.whole_graph ? 0 : c->part.lo[d];
    uint64_t hi = c->o.whole_graph ? (uint64_t)g->n : c->part.lo[d + 1], nloc = hi - lo;
    BB_CHECK(c->ops->open(c->o.device_ids ? c->o.device_ids[d] : d, &D->dev, D->name,
                          sizeof D->name));
    k->ndev = nd;
    k->self = c->o.whole_graph ? 0 : d;
    k->n = (uint64_t)g->n;
    k->lo = lo;
    k->hi = hi;
    BB_CHECK(upload_rows(c, D, g->offsets, g->columns, lo, hi, &k->offsets, &k->columns));
    if (in_off && in_col != g->columns) {
        BB_CHECK(upload_rows(c, D, in_off, in_col, lo, hi, &k->in_offsets, &k->in_columns));
    } else if (in_off) {
        k->in_offsets = k->offsets;   /* undirected: in-arcs are the out-arcs */
        k->in_columns = k->columns;
    }
    if (in_off) k->in_arcs = (uint64_t)(in_off[hi] - in_off[lo]);
    if (in_off && cooc) BB_CHECK(upload_cooc(c, D, in_off, lo, hi, &k->cooc_col));
    if (nd > 1) {
        uint64_t *seg = c->seg + (size_t)d * (size_t)(nd + 1);
        BB_CHECK(upload(c, D, c->part.lo, (size_t)(nd + 1) * 8, &k->range_lo));
        BB_CHECK(upload(c, D, seg, (size_t)(nd + 1) * 8, &k->seg_lo));
        BB_CHECK(dalloc(c, D, seg[nd] * 4, &k->out_vid));
        BB_CHECK(dalloc(c, D, seg[nd] * 8, &k->out_sig));
        BB_CHECK(bb_calloc((size_t)nd + 1, 8, "the inbox regions", &D->inbox_off));
        for (int s = 0; s < nd; s++) {
            const uint64_t *ss = c->seg + (size_t)s * (size_t)(nd + 1);
            D->inbox_off[s + 1] = D->inbox_off[s] + (ss[d + 1] - ss[d]);
        }
        BB_CHECK(dalloc(c, D, D->inbox_off[nd] * 4, &D->in_vid));
        BB_CHECK(dalloc(c, D, D->inbox_off[nd] * 8, &D->in_sig));
    }
    BB_CHECK(upload(c, D, g->edge_credit + lo, nloc * 8, &k->credit));
    BB_CHECK(dalloc(c, D, nloc * 4, &k->level));
    BB_CHECK(dalloc(c, D, nloc * 8, &k->sigma));
    BB_CHECK(dalloc(c, D, nloc * 4, &k->frontier));
    BB_CHECK(dalloc(c, D, nloc * 4, &k->next));
    if (in_off) {
        BB_CHECK(dalloc(c, D, (nloc + 31) / 32 * 4, &k->fbits));
        BB_CHECK(upload_heavy(c, D, in_off, lo, hi, &k->heavy_in, &k->nheavy_in));
        BB_CHECK(upload_heavy(c, D, g->offsets, lo, hi, &k->heavy_out, &k->nheavy_out));
    }
    if (c->o.algorithm == BB_SIGMA_SPMV) {
        BB_CHECK(dalloc(c, D, nloc * 8, &k->f));
        BB_CHECK(dalloc(c, D, nloc * 8, &k->ft));
    }
    if (c->o.whole_graph) {
        BB_CHECK(dalloc(c, D, nloc * 8, &k->delta));
        BB_CHECK(dalloc(c, D, nloc * 8, &k->bc));
        BB_CHECK(c->ops->zero(D->dev, k->bc, nloc * 8));
    }
    BB_CHECK(dalloc(c, D, BB_CC_COUNT(nd) * 8, &k->counters));
    BB_CHECK(c->ops->host_alloc(D->dev, BB_CC_COUNT(nd) * 8, (void **)&D->ctr));
    return c->ops->sync(D->dev);
}

static boxbfs_status_t check_options(boxbfs_graph_t g, const bb_centrality_options_t *o)
{
    BB_CHECK(bb_graph_require_whole(g, "shortest-path counts and betweenness"));
    if (g->n >= (int64_t)UINT32_MAX)
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "graph has %lld vertices; centrality supports fewer than 2^32",
                            (long long)g->n);
    if (o->devices < 1 || o->devices > 64)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "centrality: %d devices (1 to 64)",
                            o->devices);
    if (o->algorithm == BB_SIGMA_SPMV && o->devices > 1 && !o->whole_graph)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "--algorithm spmv runs on one device; %d devices asked for (use "
                            "--devices 1, or --algorithm frontier for several)",
                            o->devices);
    if (o->devices > 1 && !o->whole_graph && o->direction == BOXBFS_SEARCH_BOTTOM_UP)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "shortest-path counts on %d devices run top-down (the counts travel "
                            "with the frontier); --direction bottom-up needs --devices 1",
                            o->devices);
    return BOXBFS_OK;
}

boxbfs_status_t bb_centrality_create(boxbfs_graph_t g, const bb_centrality_options_t *o,
                                     bb_centrality_t **c_p)
{
    boxbfs_status_t st = BOXBFS_OK;
    bb_centrality_t *c = NULL;
    int64_t *in_off = NULL, *in_col = NULL;
    int count = 0;
    BB_CHECK(check_options(g, o));
    BB_CHECK(bb_calloc(1, sizeof *c, "the centrality driver", &c));
    c->g = g;
    c->o = *o;
    c->ndev = o->devices;
    c->view = o->whole_graph ? 1 : o->devices;
    c->ops = o->backend == BOXBFS_BACKEND_CUDA ? bb_cuda_ops_ptr : &bb_cpu_ops;
    if (c->ops == NULL)
        BB_FAIL_GOTO(st, BOXBFS_ERR_UNSUPPORTED, fail,
                     "the cuda backend is not built in (configure --with-cuda)");
    c->cops = bb_centrality_ops_for(c->ops);
    if (c->cops == NULL)
        BB_FAIL_GOTO(st, BOXBFS_ERR_UNSUPPORTED, fail, "no centrality kernels for backend %s",
                     c->ops->name);
    BB_CHECK_GOTO(c->ops->count(&count), st, fail);
    if (count > 0 && count < c->ndev && o->device_ids == NULL)
        BB_FAIL_GOTO(st, BOXBFS_ERR_NO_DEVICE, fail, "%d devices asked for, %d present",
                     c->ndev, count);
    for (int d = 0; o->device_ids && d < c->ndev; d++)
        if (o->device_ids[d] < 0 || (count > 0 && o->device_ids[d] >= count))
            BB_FAIL_GOTO(st, BOXBFS_ERR_NO_DEVICE, fail,
                         "device %d does not exist (%d %s device%s present)", o->device_ids[d],
                         count, c->ops->name, count == 1 ? "" : "s");
    if (o->backend == BOXBFS_BACKEND_CUDA && count == 0)
        BB_FAIL_GOTO(st, BOXBFS_ERR_NO_DEVICE, fail, "no GPU found for the cuda backend");
    BB_CHECK_GOTO(bb_partition_by_edges(g->offsets, c->view == 1 ? g->n : g->n, c->view, &c->part),
                  st, fail);
    if (c->view > 1) BB_CHECK_GOTO(plan_segments(c), st, fail);
    /* in-arcs: pull and spmv run on one device's view */
    if (c->view == 1) {
        if (g->directed) {
            BB_CHECK_GOTO(bb_graph_transpose_csr(g, &in_off, &in_col), st, fail);
        }
    }
    BB_CHECK_GOTO(bb_calloc((size_t)c->ndev, sizeof *c->d, "the centrality devices", &c->d), st,
                  fail);
    for (int d = 0; d < c->ndev; d++)
        BB_CHECK_GOTO(setup_device(c, d, c->view > 1 ? NULL : in_off ? in_off : g->offsets,
                                   c->view > 1 ? NULL : in_off ? in_col : g->columns),
                      st, fail);
    BB_CHECK_GOTO(bb_traffic_init(&c->traffic, c->ndev), st, fail);
    BB_CHECK_GOTO(bb_barrier_init(&c->bar, c->ndev), st, fail);
    BB_CHECK_GOTO(bb_calloc((size_t)c->ndev * (size_t)c->ndev, 8, "the pair counts", &c->sent),
                  st, fail);
    free(in_off);
    free(in_col);
    *c_p = c;
    return BOXBFS_OK;
fail:
    free(in_off);
    free(in_col);
    bb_centrality_free(c);
    return st;
}

void bb_centrality_free(bb_centrality_t *c)
{
    if (c == NULL) return;
    for (int d = 0; c->d && d < c->ndev; d++) {
        cdev_t *D = &c->d[d];
        if (D->dev == NULL) continue;
        (void)c->ops->sync(D->dev);
        for (int i = 0; i < D->nallocs; i++) c->ops->free(D->dev, D->allocs[i]);
        if (D->ctr) c->ops->host_free(D->dev, D->ctr);
        free(D->inbox_off);
        c->ops->close(D->dev);
    }
    if (c->traffic.ndev) {
        bb_traffic_free(&c->traffic);
        bb_barrier_destroy(&c->bar);
    }
    bb_partition_free(&c->part);
    free(c->d);
    free(c->seg);
    free(c->sent);
    free(c);
}

const char *bb_centrality_device_name(const bb_centrality_t *c, int device)
{
    return c->d[device].name;
}

/* Counters NEXT, NEXT_ARCS and the pair counts to zero (OVERFLOW and CREDIT
 * run over the whole search). */
static boxbfs_status_t zero_level(bb_centrality_t *c, cdev_t *D)
{
    BB_CHECK(c->ops->zero(D->dev, D->k.counters, 2 * 8));
    return c->ops->zero(D->dev, D->k.counters + BB_CC_SEND, (size_t)D->k.ndev * 8);
}

/* The copy follows the level's kernels on the device's stream: one sync. */
static boxbfs_status_t read_counters(bb_centrality_t *c, cdev_t *D)
{
    BB_CHECK(c->ops->copy_d2h(D->dev, D->ctr, D->k.counters, BB_CC_COUNT(D->k.ndev) * 8));
    return c->ops->sync(D->dev);
}

/* Each device's pairs to their owners, then the owners apply them. */
static boxbfs_status_t exchange_pairs(bb_centrality_t *c, int self, int32_t level)
{
    cdev_t *D = &c->d[self];
    int nd = c->view;
    const uint64_t *seg = c->seg + (size_t)self * (size_t)(nd + 1);
    for (int o = 0; o < nd; o++) {
        cdev_t *O = &c->d[o];
        uint64_t cnt = D->ctr[BB_CC_SEND + o];
        if (o == self) continue;
        c->sent[self * nd + o] = cnt;
        bb_traffic_add(&c->traffic, BOXBFS_PHASE_SIZES, level, self, o, 8, 1);
        if (cnt == 0) continue;
        BB_CHECK(c->ops->peer_copy(O->dev, O->in_vid + O->inbox_off[self], D->dev,
                                   D->k.out_vid + seg[o], cnt * 4));
        BB_CHECK(c->ops->peer_copy(O->dev, O->in_sig + O->inbox_off[self], D->dev,
                                   D->k.out_sig + seg[o], cnt * 8));
        bb_traffic_add(&c->traffic, BOXBFS_PHASE_FRONTIER, level, self, o, (int64_t)cnt * 12, 2);
    }
    BB_CHECK(c->ops->sync(D->dev));
    if (bb_barrier_wait(&c->bar)) return BOXBFS_ERR_INTERNAL;
    for (int s = 0; s < nd; s++) {
        uint64_t cnt = c->sent[s * nd + self];
        if (s == self || cnt == 0) continue;
        BB_CHECK(c->cops->apply(&D->k, c->ops->stream(D->dev), D->in_vid + D->inbox_off[s],
                                D->in_sig + D->inbox_off[s], cnt, level + 1));
    }
    return BOXBFS_OK;
}

typedef struct {
    bb_centrality_t *c;
    int64_t root;
    int32_t levels;
    int bottom_up_levels;
    double t0, t1;
} run_t;

/* One search's level loop on device self (view > 1: all devices together). */
static boxbfs_status_t forward(bb_centrality_t *c, int self, int64_t root, run_t *r)
{
    cdev_t *D = &c->d[self];
    int nd = c->view, multi = nd > 1, switched = 0, have_list = 1;
    void *stream = c->ops->stream(D->dev);
    uint64_t discovered_arcs = 0, arcs = (uint64_t)c->g->arcs;
    int32_t level = 0;
    BB_CHECK(c->cops->reset(&D->k, stream, (uint64_t)root));
    BB_CHECK(read_counters(c, D));
    for (;;) {
        uint64_t count = 0, farcs = 0, fcount = D->ctr[BB_CC_NEXT];
        int pull;
        if (multi && bb_barrier_wait(&c->bar)) return BOXBFS_ERR_INTERNAL;
        for (int o = 0; o < nd; o++) {
            const uint64_t *ctr = multi ? c->d[o].ctr : D->ctr;
            count += ctr[BB_CC_NEXT];
            farcs += ctr[BB_CC_NEXT_ARCS];
            if (multi && o != self)
                bb_traffic_add(&c->traffic, BOXBFS_PHASE_TERMINATION, level, self, o, 16, 1);
        }
        if (multi && bb_barrier_wait(&c->bar)) return BOXBFS_ERR_INTERNAL;
        if (count == 0) break;
        discovered_arcs += farcs;
        BB_CHECK(zero_level(c, D));
        if (c->o.algorithm == BB_SIGMA_SPMV) {
            pull = c->o.direction == BOXBFS_SEARCH_BOTTOM_UP ||
                   (c->o.direction == BOXBFS_SEARCH_AUTO &&
                    (switched || (double)count >= c->o.switch_density * (double)c->g->n));
            switched |= pull;
            if (pull)
                BB_CHECK(c->cops->spmv_bottom_up(&D->k, stream, c->o.spmv == BB_SPMV_CSC_VECTOR,
                                                 level + 1));
            else
                BB_CHECK(c->cops->spmv_top_down(&D->k, stream, c->o.spmv, level + 1));
        } else {
            pull = !multi && (c->o.direction == BOXBFS_SEARCH_BOTTOM_UP ||
                              (c->o.direction == BOXBFS_SEARCH_AUTO &&
                               farcs * PULL_FACTOR > arcs - discovered_arcs));
            if (!pull && !have_list) BB_CHECK(c->cops->gather(&D->k, stream, level));
            if (pull) BB_CHECK(c->cops->pull(&D->k, stream, fcount, level + 1));
            else BB_CHECK(c->cops->push(&D->k, stream, fcount, level + 1));
            have_list = !pull;
        }
        r->bottom_up_levels += pull;
        if (multi) {
            BB_CHECK(read_counters(c, D));
            if (bb_barrier_wait(&c->bar)) return BOXBFS_ERR_INTERNAL;
            BB_CHECK(exchange_pairs(c, self, level));
        }
        BB_CHECK(read_counters(c, D));
        {
            uint32_t *t = D->k.frontier;
            D->k.frontier = D->k.next;
            D->k.next = t;
        }
        level++;
    }
    r->levels = level;
    return BOXBFS_OK;
}

static boxbfs_status_t sigma_thread(int tid, int nthreads, void *arg)
{
    run_t *r = arg;
    bb_centrality_t *c = r->c;
    boxbfs_status_t st;
    (void)nthreads;
    if (bb_barrier_wait(&c->bar)) return BOXBFS_ERR_INTERNAL;
    if (tid == 0) r->t0 = bb_now_s();
    st = forward(c, tid, r->root, r);
    if (st != BOXBFS_OK) {
        bb_barrier_abort(&c->bar);
        return st;
    }
    if (bb_barrier_wait(&c->bar)) return BOXBFS_ERR_INTERNAL;
    if (tid == 0) r->t1 = bb_now_s();
    return BOXBFS_OK;
}

boxbfs_status_t bb_centrality_sigma(bb_centrality_t *c, int64_t root, int32_t *level,
                                    uint64_t *sigma, bb_sigma_report_t *report_p)
{
    run_t r;
    boxbfs_status_t st;
    bb_sigma_report_t rep;
    if (c->o.whole_graph)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "centrality: counts need a partitioned driver");
    if (root < 0 || root >= c->g->n)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "root %lld out of range [0, %lld)",
                            (long long)root, (long long)c->g->n);
    memset(&r, 0, sizeof r);
    memset(&rep, 0, sizeof rep);
    r.c = c;
    r.root = root;
    bb_traffic_reset(&c->traffic);
    bb_barrier_reset(&c->bar);
    st = bb_parallel_run(c->ndev, sigma_thread, &r);
    if (st != BOXBFS_OK) return st;
    rep.time_s = r.t1 - r.t0;
    rep.levels = r.levels;
    rep.bottom_up_levels = r.bottom_up_levels;
    rep.traffic = &c->traffic;
    for (int d = 0; d < c->ndev; d++) {
        cdev_t *D = &c->d[d];
        uint64_t nloc = D->k.hi - D->k.lo;
        rep.input_edges += (int64_t)D->ctr[BB_CC_CREDIT];
        rep.overflow |= D->ctr[BB_CC_OVERFLOW] != 0;
        if (level) BB_CHECK(c->ops->copy_d2h(D->dev, level + D->k.lo, D->k.level, nloc * 4));
        if (sigma) BB_CHECK(c->ops->copy_d2h(D->dev, sigma + D->k.lo, D->k.sigma, nloc * 8));
        BB_CHECK(c->ops->sync(D->dev));
    }
    /* TurboBFS's forms take a count of 0 for "not reached", as the paper
     * does: past 2^64 a count that wraps to 0 loses its vertex */
    if (rep.overflow && c->o.algorithm == BB_SIGMA_SPMV)
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "root %lld: a shortest-path count exceeds 2^64 - 1, and the spmv "
                            "forms mark vertices reached by a nonzero count; use "
                            "--algorithm frontier",
                            (long long)root);
    if (level)
        for (int64_t v = 0; v < c->g->n; v++) rep.reached += level[v] >= 0;
    if (report_p) *report_p = rep;
    return BOXBFS_OK;
}

typedef struct {
    bb_centrality_t *c;
    const int64_t *sources;
    int64_t nsources;
    double *time_s;
    int64_t *edges;
    bb_bc_times_t *times;
    int64_t next;                 /* the next source to hand out (atomic) */
    double *start_s;              /* ndev: when each device left the meeting of the ready */
    double *busy_s;               /* ndev: the sources' times per device */
} bc_run_t;

/* Source i: forward levels, backward sweeps, its time and edges. */
static boxbfs_status_t bc_source(bc_run_t *b, int tid, int64_t i, double *t_p)
{
    bb_centrality_t *c = b->c;
    cdev_t *D = &c->d[tid];
    void *stream = c->ops->stream(D->dev);
    run_t r;
    double t0 = bb_now_s();
    memset(&r, 0, sizeof r);
    BB_CHECK(forward(c, tid, b->sources[i], &r));
    for (int32_t d = r.levels - 2; d >= 1; d--)
        BB_CHECK(c->cops->backward(&D->k, stream, d, (uint64_t)b->sources[i]));
    BB_CHECK(c->ops->sync(D->dev));
    *t_p = bb_now_s() - t0;
    if (D->ctr[BB_CC_OVERFLOW])
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "source %lld: a shortest-path count exceeds 2^64 - 1; betweenness "
                            "keeps exact 64-bit counts and cannot go on",
                            (long long)b->sources[i]);
    return BOXBFS_OK;
}

/* Every device first runs one source untimed (its kernels loaded, its
 * memory touched) and clears its sums; once every device is there, the time
 * starts and each device takes the next source whenever it finishes one, so
 * that no device waits for another's share (a source in a small component
 * costs next to nothing, one in the giant component the whole graph). */
static boxbfs_status_t bc_thread(int tid, int nthreads, void *arg)
{
    bc_run_t *b = arg;
    bb_centrality_t *c = b->c;
    cdev_t *D = &c->d[tid];
    boxbfs_status_t st;
    double t;
    (void)nthreads;
    st = bc_source(b, tid, tid % b->nsources, &t);   /* the warm-up */
    if (st == BOXBFS_OK) st = c->ops->zero(D->dev, D->k.bc, (size_t)c->g->n * 8);
    if (st == BOXBFS_OK) st = c->ops->sync(D->dev);
    if (st != BOXBFS_OK) bb_barrier_abort(&c->bar);
    if (bb_barrier_wait(&c->bar)) return st;   /* aborted: the failing device says why */
    b->start_s[tid] = bb_now_s();   /* the earliest is the run's start */
    for (;;) {
        int64_t i = __atomic_fetch_add(&b->next, 1, __ATOMIC_RELAXED);
        if (i >= b->nsources || bb_barrier_aborted(&c->bar)) break;
        st = bc_source(b, tid, i, &t);
        if (st != BOXBFS_OK) {   /* the others stop after their current source */
            bb_barrier_abort(&c->bar);
            return st;
        }
        b->time_s[i] = t;
        b->edges[i] = (int64_t)D->ctr[BB_CC_CREDIT];
        b->busy_s[tid] += t;
        if (b->times && b->times->device) b->times->device[i] = tid;
    }
    return BOXBFS_OK;
}

boxbfs_status_t bb_centrality_bc(bb_centrality_t *c, const int64_t *sources, int64_t nsources,
                                 double *bc, double *time_s, int64_t *edges, bb_bc_times_t *times)
{
    bc_run_t b = {c, sources, nsources, time_s, edges, times, 0, NULL, NULL};
    int64_t n = c->g->n;
    double *part = NULL;
    boxbfs_status_t st = BOXBFS_OK;
    if (!c->o.whole_graph)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "centrality: betweenness needs the whole graph "
                                                    "on every device");
    if (nsources < 1) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "betweenness: no sources");
    for (int64_t i = 0; i < nsources; i++)
        if (sources[i] < 0 || sources[i] >= n)
            return bb_error_set(BOXBFS_ERR_INVALID_ARG, "source %lld out of range [0, %lld)",
                                (long long)sources[i], (long long)n);
    BB_CHECK(bb_calloc((size_t)c->ndev * 2, sizeof *b.busy_s, "the device times", &b.busy_s));
    b.start_s = b.busy_s + c->ndev;
    bb_barrier_reset(&c->bar);
    BB_CHECK_GOTO(bb_parallel_run(c->ndev, bc_thread, &b), st, out);
    BB_CHECK_GOTO(bb_malloc((size_t)n * sizeof *part, "the betweenness sums", &part), st, out);
    memset(bc, 0, (size_t)n * sizeof *bc);
    for (int d = 0; d < c->ndev; d++) {
        BB_CHECK_GOTO(c->ops->copy_d2h(c->d[d].dev, part, c->d[d].k.bc, (size_t)n * 8), st, out);
        BB_CHECK_GOTO(c->ops->sync(c->d[d].dev), st, out);
        for (int64_t v = 0; v < n; v++) bc[v] += part[v];
    }
    if (times) {
        double t0 = b.start_s[0];
        for (int d = 1; d < c->ndev; d++)
            if (b.start_s[d] < t0) t0 = b.start_s[d];
        times->total_s = bb_now_s() - t0;
        if (times->busy_s) memcpy(times->busy_s, b.busy_s, (size_t)c->ndev * sizeof *b.busy_s);
    }
out:
    free(part);
    free(b.busy_s);
    return st;
}
