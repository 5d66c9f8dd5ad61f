/* Graphs built on the devices (boxbfs_load_options_t build_on_devices,
 * docs/architecture.md "Graphs built on the devices"): each device of the
 * engine makes its rows of a Graph500 Kronecker graph itself (kernels.h
 * kron_rows: every edge from the seed, those with an end in its range kept,
 * merged and sorted on the device), so the whole graph never sits in host
 * memory; the host gets the offsets and edge credits, n-sized, for the
 * roots, the memory plan, TEPS and validation. Validation reads each
 * device's columns back in bands and checks each band's rows
 * (bfs/validate.c on a range). */
#include "config.h"

#include "engine/engine.h"

#include <stdlib.h>
#include <string.h>

#include "bfs/bfs.h"
#include "common/error.h"
#include "common/threads.h"
#include "graph/graph.h"

/* Rows whose columns the validation reads back at once, at most. */
#define VALIDATE_BAND_ARCS ((int64_t)1 << 26)

typedef struct {
    boxbfs_engine_t e;
    int64_t **local;   /* per local device: its rows' offsets from 0, read back */
} build_job_t;

static boxbfs_status_t build_device(int tid, int nthreads, void *arg)
{
    const build_job_t *job = arg;
    boxbfs_engine_t e = job->e;
    struct boxbfs_graph *g = (struct boxbfs_graph *)e->graph;
    int d = e->first + tid;
    bb_engine_dev_t *D = &e->devs[d];
    bb_kstate_t *k = &D->k;
    const bb_kron_job_t kron = {g->kron_scale, g->kron_edgefactor, g->kron_seed};
    uint64_t bound = 0, arcs = 0;
    (void)nthreads;
    k->lo = e->part.lo[d];
    k->hi = e->part.lo[d + 1];
    k->n = (uint64_t)g->n;
    BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)(k->hi - k->lo + 1) * 8, &k->offsets));
    BB_CHECK(e->ops->kernels.kron_rows(k, e->ops->stream(D->dev), &kron, 0, NULL, &bound));
    if (bound == 0) bound = 1;
    BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)bound * 4, &k->columns));
    BB_CHECK(e->ops->kernels.kron_rows(k, e->ops->stream(D->dev), &kron, bound,
                                       g->edge_credit + k->lo, &arcs));
    BB_CHECK(bb_malloc((size_t)(k->hi - k->lo + 1) * 8, "a device's row offsets",
                       &job->local[tid]));
    BB_CHECK(e->ops->copy_d2h(D->dev, job->local[tid], k->offsets, (size_t)(k->hi - k->lo + 1) * 8));
    BB_CHECK(e->ops->sync(D->dev));
    D->built_bytes = (size_t)(k->hi - k->lo + 1) * 8 + (size_t)bound * 4;
    return BOXBFS_OK;
}

boxbfs_status_t bb_engine_build_rows(boxbfs_engine_t e)
{
    struct boxbfs_graph *g = (struct boxbfs_graph *)e->graph;
    build_job_t job = {e, NULL};
    boxbfs_status_t st;
    int64_t base = 0;
    BB_CHECK(bb_calloc((size_t)e->nlocal, sizeof *job.local, "the devices' offsets", &job.local));
    st = bb_parallel_run(e->nlocal, build_device, &job);
    for (int i = 0; i < e->nlocal && st == BOXBFS_OK; i++) {   /* the devices' rows in order */
        const int d = e->first + i;
        const uint64_t lo = e->part.lo[d], hi = e->part.lo[d + 1];
        for (uint64_t v = lo; v <= hi; v++) g->offsets[v] = base + job.local[i][v - lo];
        base = g->offsets[hi];
    }
    for (int i = 0; i < e->nlocal; i++) free(job.local[i]);
    free(job.local);
    BB_CHECK(st);
    g->arcs = base;
    return BOXBFS_OK;
}

/* A band's rows [b0, b1) in cols (from the graph's offsets[b0]): each
 * sorted by head, the order the validator's binary searches need (a device
 * may hold its rows in another: the visited-prefix skip's rank order). */
typedef struct {
    const int64_t *offsets;
    int64_t b0, b1, *cols;
} band_t;

static boxbfs_status_t sort_band(int tid, int nthreads, void *arg)
{
    const band_t *b = arg;
    bb_sort_scratch_t scratch = {NULL, 0};
    int64_t r0, r1;
    bb_split_range(b->b1 - b->b0, tid, nthreads, &r0, &r1);
    for (int64_t v = b->b0 + r0; v < b->b0 + r1; v++)
        bb_sort_row(b->cols + (b->offsets[v] - b->offsets[b->b0]),
                    b->offsets[v + 1] - b->offsets[v], &scratch);
    bb_sort_scratch_free(&scratch);
    return BOXBFS_OK;
}

boxbfs_status_t bb_engine_validate_built(boxbfs_engine_t e, int64_t root, const int64_t *parent,
                                         const int32_t *level, boxbfs_tree_info_t *info_p)
{
    const struct boxbfs_graph *g = e->graph;
    boxbfs_tree_info_t all = {0, 0, 0, 0};
    int64_t *columns = NULL;
    uint32_t *heads = NULL;
    boxbfs_status_t st = bb_malloc((size_t)VALIDATE_BAND_ARCS * 8, "a band's columns", &columns);
    if (st == BOXBFS_OK)
        st = bb_malloc((size_t)VALIDATE_BAND_ARCS * 4, "a band's heads", &heads);
    for (int d = e->first; d < e->first + e->nlocal && st == BOXBFS_OK; d++) {
        const bb_engine_dev_t *D = &e->devs[d];
        const int64_t lo = (int64_t)e->part.lo[d], hi = (int64_t)e->part.lo[d + 1];
        for (int64_t b0 = lo; b0 < hi && st == BOXBFS_OK;) {
            int64_t b1 = b0 + 1;   /* rows up to a band's arcs; a longer row alone */
            while (b1 < hi && g->offsets[b1 + 1] - g->offsets[b0] <= VALIDATE_BAND_ARCS) b1++;
            const int64_t first = g->offsets[b0], arcs = g->offsets[b1] - first;
            int64_t *cols = columns;
            uint32_t *h = heads;
            if (arcs > VALIDATE_BAND_ARCS) {   /* one row longer than a band */
                cols = NULL;
                h = NULL;
                st = bb_malloc((size_t)arcs * 8, "a row's columns", &cols);
                if (st == BOXBFS_OK) st = bb_malloc((size_t)arcs * 4, "a row's heads", &h);
            }
            const uint32_t *dev_cols = (const uint32_t *)D->k.columns + (first - g->offsets[lo]);
            if (st == BOXBFS_OK) st = e->ops->copy_d2h(D->dev, h, dev_cols, (size_t)arcs * 4);
            if (st == BOXBFS_OK) st = e->ops->sync(D->dev);
            for (int64_t i = 0; st == BOXBFS_OK && i < arcs; i++) cols[i] = h[i];
            band_t sort = {g->offsets, b0, b1, cols};
            if (st == BOXBFS_OK)
                st = bb_parallel_run(b1 - b0 < 4096 ? 1 : bb_cpu_count(), sort_band, &sort);
            if (st == BOXBFS_OK) {   /* the band as a slice of the graph */
                struct boxbfs_graph band = *g;
                boxbfs_tree_info_t info;
                band.columns = cols;
                band.row_lo = b0;
                band.row_hi = b1;
                band.columns_base = first;
                st = bb_validate_rows(&band, b0, b1, root, parent, level, e->opts.max_depth,
                                      NULL, &info);
                if (st != BOXBFS_OK) info = (boxbfs_tree_info_t){0, 0, 0, 0};
                all.reached += info.reached;
                all.input_edges += info.input_edges;
                all.arcs += info.arcs;
                if (info.levels > all.levels) all.levels = info.levels;
            }
            if (cols != columns) free(cols);
            if (h != heads) free(h);
            b0 = b1;
        }
    }
    free(columns);
    free(heads);
    BB_CHECK(st);
    *info_p = all;
    return BOXBFS_OK;
}
