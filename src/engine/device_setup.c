/* One device's setup [DESIGN "Memory"]: the memory plan (what each array
 * needs, computed before anything is allocated and checked against the free
 * memory, with an error naming the shortfall and its parts), the
 * allocations, and the upload of the device's graph slice. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "engine/engine.h"
#include "kernels/upload.h"

/* What one device needs, in bytes, by array (the memory plan). */
typedef struct {
    uint64_t nloc, arcs, in_arcs, work_cap, bitmap_words;
    int inbox_shared;   /* in the sort buffers: no allocation of its own */
    size_t graph, in_graph, bitmaps, state, visited, remote, work, outbox, inbox, scratch,
        total;
} mem_plan_t;

static uint64_t words32(uint64_t bits) { return (bits + 31) / 32; }

/* One device with bottom-up levels and a visited bitmap: each search starts
 * from a visited bitmap with the vertices that have no in-arcs set
 * (k.visited_init). No top-down level meets them (they are nobody's
 * neighbor) and no bottom-up level can reach them, so no row changes; the
 * bottom-up levels skip them at the cost of the visited word they read
 * anyway, instead of reading their in_offsets (kron graphs: about half of
 * all vertices, in every bottom-up level). */
static int dead_bits(const struct boxbfs_engine *e)
{
    return e->ndev == 1 && e->bottom_up && e->opts.visited == BOXBFS_VISITED_BIT &&
           e->opts.contract != BOXBFS_CONTRACT_SORT_UNIQUE;
}

/* k.visited_init from the in-arc offsets (the out-arcs' where undirected). */
static boxbfs_status_t upload_dead_bits(boxbfs_engine_t e, int d)
{
    bb_engine_dev_t *D = &e->devs[d];
    const int64_t *off = e->in_offsets ? e->in_offsets : e->graph->offsets;
    uint64_t n = (uint64_t)e->graph->n;
    uint32_t *bits;
    boxbfs_status_t st;
    BB_CHECK(bb_calloc((size_t)words32(n), 4, "the dead-vertex bitmap", &bits));
    for (uint64_t v = 0; v < n; v++)
        if (off[v + 1] == off[v]) bits[v >> 5] |= 1u << (v & 31);
    st = e->ops->copy_h2d(D->dev, (void *)D->k.visited_init, bits, (size_t)words32(n) * 4);
    if (st == BOXBFS_OK) st = e->ops->sync(D->dev);
    free(bits);
    return st;
}

static void plan_device(boxbfs_engine_t e, int d, mem_plan_t *p)
{
    const boxbfs_engine_options_t *o = &e->opts;
    uint64_t n = (uint64_t)e->graph->n, lo = e->part.lo[d], hi = e->part.lo[d + 1];
    int ndev = e->ndev;
    memset(p, 0, sizeof *p);
    p->nloc = hi - lo;
    p->arcs = (uint64_t)(e->graph->offsets[hi] - e->graph->offsets[lo]);
    for (int o2 = 0; o2 < ndev; o2++) p->bitmap_words += words32(e->part.lo[o2 + 1] - e->part.lo[o2]);
    /* sort-based methods hold a whole level's neighbors: at most this slice's arcs */
    p->work_cap = o->contract == BOXBFS_CONTRACT_ATOMIC ? p->bitmap_words
                  : (p->arcs > p->bitmap_words ? p->arcs : p->bitmap_words);
    p->graph = (size_t)(p->nloc + 1) * 8 + (size_t)p->arcs * 4 + (size_t)(ndev + 1) * 8;
    if (e->in_offsets) {   /* a directed graph's in-arcs, for bottom-up levels */
        p->in_arcs = (uint64_t)(e->in_offsets[hi] - e->in_offsets[lo]);
        p->in_graph = (size_t)(p->nloc + 1) * 8 + (size_t)p->in_arcs * 4;
    }
    if (e->bottom_up)      /* the frontier of all n vertices, and this device's next part */
        p->bitmaps = (size_t)words32(n) * 4 + (size_t)words32(p->nloc) * 4;
    p->state = (size_t)p->nloc * (4 + 8 + 4 + 4 + 4) + 4 + BB_CTR_COUNT(ndev) * 8;
    if (ndev == 1) p->state += (size_t)BB_LOOP_LOG * BB_LOG_FIELDS * 8;   /* the loop's log */
    if (o->contract != BOXBFS_CONTRACT_SORT_UNIQUE)
        p->visited = o->visited == BOXBFS_VISITED_BIT ? (size_t)words32(n) * 4 : (size_t)n;
    if (dead_bits(e)) p->visited += (size_t)words32(n) * 4;   /* visited_init */
    p->remote = ndev > 1 ? (size_t)(n - p->nloc) * 4 : 0;   /* bb_remote_slot */
    p->work = o->contract == BOXBFS_CONTRACT_ATOMIC ? (size_t)p->work_cap * 4
                                                    : (size_t)p->work_cap * 4 * 5 + 4;
    /* the outbox's vertices (n: segments of every owner), and the parents of
     * the own segment only (remote vertices' parents are in remote_parent) */
    p->outbox = (size_t)n * 4 + (size_t)p->nloc * 4;
    p->inbox = (size_t)ndev * (size_t)p->nloc * 4;
    /* Several devices [README "Memory plan"]: with sort-based contraction the
     * sort's buffers are dead from the end of contract to the next expand, so
     * the inbox (written by the exchange, read by update) lives in nbr_parent
     * where it fits; alt is left to bitmap packing. The parent gather's
     * requests and answers (after the search) live in the inbox's first two
     * regions, dead by then. */
    p->inbox_shared = ndev > 1 && o->contract != BOXBFS_CONTRACT_ATOMIC &&
                      p->work_cap >= (uint64_t)ndev * p->nloc;
    if (p->inbox_shared) p->inbox = 0;
}

static const char *human(char buf[24], double bytes);

static boxbfs_status_t dev_alloc(boxbfs_engine_t e, int d, size_t bytes, void *ptr_p)
{
    bb_engine_dev_t *D = &e->devs[d];
    void *p;
    if (D->nallocs == BB_MAX_ALLOCS)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "too many allocations on device %d", d);
    boxbfs_status_t st = e->ops->alloc(D->dev, bytes, &p);
    if (st == BOXBFS_ERR_DEVICE_MEMORY) {   /* the plan fit, the device said no: say both */
        char cause[512];
        size_t free_b = 0, total_b = 0;
        snprintf(cause, sizeof cause, "%s", boxbfs_last_error());
        if (e->ops->mem_info(D->dev, &free_b, &total_b) != BOXBFS_OK) free_b = 0;
        char h[3][24];
        return bb_error_set(st, "device %d (%s) ran out of memory: %s needed, %s allocated so "
                            "far of this device's plan, %s free (%s); try more devices "
                            "(--devices N) or a smaller graph", d, D->name,
                            human(h[0], (double)bytes), human(h[1], (double)D->memory_bytes),
                            human(h[2], (double)free_b), cause);
    }
    BB_CHECK(st);
    D->allocs[D->nallocs++] = p;
    D->memory_bytes += bytes;
    *(void **)ptr_p = p;
    return BOXBFS_OK;
}

/* bytes as "12.3 KiB|MiB|GiB" into buf (the figures of the memory messages). */
static const char *human(char buf[24], double bytes)
{
    const char *unit = bytes >= 1073741824.0 ? "GiB" : bytes >= 1048576.0 ? "MiB" : "KiB";
    double scale = bytes >= 1073741824.0 ? 1073741824.0 : bytes >= 1048576.0 ? 1048576.0 : 1024.0;
    snprintf(buf, 24, "%.2f %s", bytes / scale, unit);
    return buf;
}

boxbfs_status_t bb_engine_dev_alloc(boxbfs_engine_t e, int d, size_t bytes, void *ptr_p)
{
    return dev_alloc(e, d, bytes, ptr_p);
}

static boxbfs_status_t check_memory(boxbfs_engine_t e, int d, const mem_plan_t *p)
{
    size_t free_b, total_b;
    char h[10][24];
    BB_CHECK(e->ops->mem_info(e->devs[d].dev, &free_b, &total_b));
    if (e->opts.device_memory_limit && e->opts.device_memory_limit < free_b)
        free_b = e->opts.device_memory_limit;
    if (p->total <= free_b) return BOXBFS_OK;
    return bb_error_set(
        BOXBFS_ERR_DEVICE_MEMORY,
        "device %d (%s) needs %s but has %s free%s (short by %s): graph slice %s, visited %s, "
        "remote parents %s, level work %s, outbox %s, inbox %s, other %s; try more devices "
        "(--devices N)%s",
        d, e->devs[d].name, human(h[0], (double)p->total), human(h[1], (double)free_b),
        e->opts.device_memory_limit ? " under --memory-limit" : "",
        human(h[2], (double)(p->total - free_b)), human(h[3], (double)(p->graph + p->in_graph)),
        human(h[4], (double)p->visited), human(h[5], (double)p->remote),
        human(h[6], (double)p->work), human(h[7], (double)p->outbox),
        human(h[8], (double)p->inbox),
        human(h[9], (double)(p->state + p->scratch + p->bitmaps)),
        e->opts.visited == BOXBFS_VISITED_BYTE && e->opts.contract != BOXBFS_CONTRACT_SORT_UNIQUE
            ? " or --visited bit"
            : "");
}

/* The device's rows (and in-arcs where bottom-up needs them) and the ranges. */
static boxbfs_status_t upload_slice(boxbfs_engine_t e, int d)
{
    bb_engine_dev_t *D = &e->devs[d];
    const struct boxbfs_graph *g = e->graph;
    uint64_t lo = e->part.lo[d], hi = e->part.lo[d + 1];
    BB_CHECK(bb_upload_csr_rows(e->ops, D->dev, g->offsets, g->columns, g->columns_base, lo, hi,
                                (int64_t *)D->k.offsets, (uint32_t *)D->k.columns));
    if (e->in_offsets)
        BB_CHECK(bb_upload_csr_rows(e->ops, D->dev, e->in_offsets, e->in_columns, 0, lo, hi,
                                    (int64_t *)D->k.in_offsets, (uint32_t *)D->k.in_columns));
    BB_CHECK(e->ops->copy_h2d(D->dev, (uint64_t *)D->k.range_lo, e->part.lo,
                              (size_t)(e->ndev + 1) * 8));
    return e->ops->sync(D->dev);
}

static boxbfs_status_t setup_device(boxbfs_engine_t e, int d, const mem_plan_t *p)
{
    bb_engine_dev_t *D = &e->devs[d];
    bb_kstate_t *k = &D->k;
    int ndev = e->ndev;
    int sorted = e->opts.contract != BOXBFS_CONTRACT_ATOMIC;
    k->ndev = ndev;
    k->self = d;
    k->contract = (int)e->opts.contract;
    k->visited_bits = e->opts.visited == BOXBFS_VISITED_BIT;
    k->expand_k = e->opts.expand_edges_per_thread;
    k->expand_f0 = (uint32_t)e->opts.expand_f0;
    k->n = (uint64_t)e->graph->n;
    k->lo = e->part.lo[d];
    k->hi = e->part.lo[d + 1];
    k->work_cap = p->work_cap;
    BB_CHECK(dev_alloc(e, d, (size_t)(ndev + 1) * 8, &k->range_lo));
    BB_CHECK(dev_alloc(e, d, (size_t)(p->nloc + 1) * 8, &k->offsets));
    BB_CHECK(dev_alloc(e, d, (size_t)p->arcs * 4, &k->columns));
    if (p->in_graph) {
        BB_CHECK(dev_alloc(e, d, (size_t)(p->nloc + 1) * 8, &k->in_offsets));
        BB_CHECK(dev_alloc(e, d, (size_t)p->in_arcs * 4, &k->in_columns));
    } else if (e->bottom_up) {   /* undirected: the in-arcs are the rows */
        k->in_offsets = k->offsets;
        k->in_columns = k->columns;
    }
    if (p->bitmaps) {
        BB_CHECK(dev_alloc(e, d, (size_t)words32(k->n) * 4, &k->frontier_bits));
        BB_CHECK(dev_alloc(e, d, (size_t)words32(p->nloc) * 4, &k->own_bits));
    }
    BB_CHECK(dev_alloc(e, d, (size_t)p->nloc * 4, &k->level));
    BB_CHECK(dev_alloc(e, d, (size_t)p->nloc * 8, &k->pred));
    BB_CHECK(dev_alloc(e, d, (size_t)p->nloc * 4, &k->frontier));
    BB_CHECK(dev_alloc(e, d, (size_t)p->nloc * 4, &k->next_frontier));
    BB_CHECK(dev_alloc(e, d, (size_t)(p->nloc + 1) * 4, &k->scan));
    BB_CHECK(dev_alloc(e, d, BB_CTR_COUNT(ndev) * 8, &k->counters));
    if (ndev == 1) {
        BB_CHECK(dev_alloc(e, d, (size_t)BB_LOOP_LOG * BB_LOG_FIELDS * 8, &k->level_log));
        /* pinned: read back with the counters in one round trip */
        BB_CHECK(e->ops->host_alloc(D->dev, (size_t)BB_LOOP_LOG * BB_LOG_FIELDS * 8,
                                    (void **)&D->loop_log));
    }
    if (dead_bits(e)) {
        uint32_t *init;
        BB_CHECK(dev_alloc(e, d, (size_t)words32(k->n) * 4, &init));
        k->visited_init = init;
        BB_CHECK(dev_alloc(e, d, p->visited - (size_t)words32(k->n) * 4, &k->visited));
        D->visited_bytes = p->visited - (size_t)words32(k->n) * 4;
        BB_CHECK(upload_dead_bits(e, d));
    } else if (p->visited) {
        BB_CHECK(dev_alloc(e, d, p->visited, &k->visited));
        D->visited_bytes = p->visited;
    }
    if (p->remote) BB_CHECK(dev_alloc(e, d, p->remote, &k->remote_parent));
    BB_CHECK(dev_alloc(e, d, (size_t)p->work_cap * 4, &k->alt));
    if (sorted) {
        BB_CHECK(dev_alloc(e, d, (size_t)p->work_cap * 4, &k->nbr));
        BB_CHECK(dev_alloc(e, d, (size_t)p->work_cap * 4, &k->nbr_parent));
        BB_CHECK(dev_alloc(e, d, (size_t)p->work_cap * 4, &k->alt_parent));
        BB_CHECK(dev_alloc(e, d, (size_t)p->work_cap * 4 + 4, &k->flags));
    }
    BB_CHECK(dev_alloc(e, d, (size_t)k->n * 4, &k->outbox));
    BB_CHECK(dev_alloc(e, d, (size_t)p->nloc * 4, &k->outbox_parent));
    if (p->inbox_shared) k->inbox = k->nbr_parent;
    else BB_CHECK(dev_alloc(e, d, p->inbox, &k->inbox));
    if (ndev > 1) {   /* the parent gather: in the inbox's first two regions */
        k->gather_req = k->inbox;
        k->gather_resp = k->inbox + p->nloc;
    }
    if (p->scratch) {
        BB_CHECK(dev_alloc(e, d, p->scratch, &k->scratch));
        k->scratch_bytes = p->scratch;
    }
    /* pinned: the per-level counter reads are true asynchronous copies */
    BB_CHECK(e->ops->host_alloc(D->dev, BB_CTR_COUNT(ndev) * 8, (void **)&D->ctr));
    memset(D->ctr, 0, BB_CTR_COUNT(ndev) * 8);
    return upload_slice(e, d);
}

boxbfs_status_t bb_engine_setup_device(boxbfs_engine_t e, int d)
{
    mem_plan_t p;
    plan_device(e, d, &p);
    if ((p.work_cap | p.arcs) >> 32)
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "device %d would hold %llu arcs; at most 2^32 per device: use "
                            "more devices", d, (unsigned long long)p.arcs);
    BB_CHECK(e->ops->scratch_bytes(e->devs[d].dev, p.work_cap, p.nloc, e->ndev, &p.scratch));
    p.total = p.graph + p.in_graph + p.bitmaps + p.state + p.visited + p.remote + p.work +
              p.outbox + p.inbox + p.scratch;
    BB_CHECK(check_memory(e, d, &p));
    return setup_device(e, d, &p);
}
