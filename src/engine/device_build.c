/* Graphs built on the devices (boxbfs_load_options_t build_on_devices,
 * docs/architecture.md "Graphs built on the devices"): each device of the
 * engine makes its rows of a Graph500 Kronecker graph itself (kernels.h
 * kron_rows: every edge from the seed, those with an end in its range kept,
 * merged and sorted on the device), so the whole graph never sits in host
 * memory; the host gets the offsets and edge credits, n-sized, for the
 * roots, the memory plan, TEPS and validation. Validation checks the rules
 * of the vertices on the host (bb_validate_vertices) and those of the rows
 * on each device (kernels.h check_rows, with the levels and parents copied
 * there); where a device has no room for them, or a row breaks a rule, the
 * host reads the columns back in bands and checks each band's rows as they
 * are (bfs/validate.c on a range of unsorted rows): the band of the first
 * such row names the failure. */
#include "config.h"

#include "engine/engine.h"

#include <stdlib.h>
#include <string.h>

#include "bfs/bfs.h"
#include "common/error.h"
#include "common/threads.h"
#include "graph/graph.h"

/* Rows whose columns the validation reads back at once, at most:
 * BOXBFS_VALIDATE_BAND_ARCS (tests: many bands on small graphs), else 2^26. */
static int64_t band_cap(void)
{
    const char *env = getenv("BOXBFS_VALIDATE_BAND_ARCS");
    long long v = env ? atoll(env) : 0;
    return v >= 1 && v <= ((int64_t)1 << 26) ? (int64_t)v : (int64_t)1 << 26;
}

/* BOXBFS_VALIDATE_ROWS: where the rules of the rows are checked, "devices"
 * (the default) or "host" (every row read back, as where a device has no
 * room for the levels: tests and measurements); *host_p. */
static boxbfs_status_t rows_on_host(int *host_p)
{
    const char *env = getenv("BOXBFS_VALIDATE_ROWS");
    *host_p = env && strcmp(env, "host") == 0;
    if (env && *env && !*host_p && strcmp(env, "devices") != 0)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "BOXBFS_VALIDATE_ROWS='%s': host or devices",
                            env);
    return BOXBFS_OK;
}

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
    for (int d = e->first; d < e->first + e->nlocal; d++) {   /* refused before building */
        const uint64_t nloc = e->part.lo[d + 1] - e->part.lo[d];
        const double arcs = 2.0 * (double)g->input_edges * ((double)nloc / (double)g->n);
        BB_CHECK(bb_engine_check_build(e, d, (size_t)(nloc + 1) * 8 + (size_t)arcs * 4));
    }
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

/* A band of rows read back for validation: rows [b0, b1) of local device
 * i (i == nlocal: none left). */
typedef struct {
    int i;
    int64_t b0, b1;
} band_t;

/* The band that starts at row b0 of local device i, or at the next device's
 * first row once b0 passes its range: rows up to a band's arcs, a longer
 * row alone. */
static band_t band_from(boxbfs_engine_t e, int64_t cap, int i, int64_t b0)
{
    const int64_t *offsets = e->graph->offsets;
    while (i < e->nlocal && b0 >= (int64_t)e->part.lo[e->first + i + 1])
        if (++i < e->nlocal) b0 = (int64_t)e->part.lo[e->first + i];
    if (i == e->nlocal) return (band_t){i, 0, 0};
    const int64_t hi = (int64_t)e->part.lo[e->first + i + 1];
    int64_t b1 = b0 + 1;
    while (b1 < hi && offsets[b1 + 1] - offsets[b0] <= cap) b1++;
    return (band_t){i, b0, b1};
}

static int64_t band_arcs(boxbfs_engine_t e, band_t b)
{
    return e->graph->offsets[b.b1] - e->graph->offsets[b.b0];
}

/* Starts copying the band's columns into heads, on its device's stream. */
static boxbfs_status_t band_fetch(boxbfs_engine_t e, band_t b, uint32_t *heads)
{
    const int d = e->first + b.i;
    const int64_t *offsets = e->graph->offsets;
    const uint32_t *columns = (const uint32_t *)e->devs[d].k.columns;
    return e->ops->copy_d2h(e->devs[d].dev, heads,
                            columns + (offsets[b.b0] - offsets[e->part.lo[d]]),
                            (size_t)band_arcs(e, b) * 4);
}

/* Checks the band's rows as a slice of the graph, their columns the heads
 * read back (rank order with the prefix skip: scanned, not sorted); adds
 * its counts to all. */
static boxbfs_status_t check_band(boxbfs_engine_t e, band_t b, const uint32_t *heads,
                                  int64_t root, const int64_t *parent, const int32_t *level,
                                  boxbfs_tree_info_t *all)
{
    struct boxbfs_graph band = *e->graph;
    boxbfs_tree_info_t info;
    band.columns = NULL;
    band.columns32 = heads;
    band.row_lo = b.b0;
    band.row_hi = b.b1;
    band.columns_base = e->graph->offsets[b.b0];
    BB_CHECK(bb_validate_rows(&band, b.b0, b.b1, root, parent, level, e->opts.max_depth, NULL,
                              &info));
    all->reached += info.reached;
    all->input_edges += info.input_edges;
    all->arcs += info.arcs;
    if (info.levels > all->levels) all->levels = info.levels;
    return BOXBFS_OK;
}

/* Local devices' rows [from, to) (global ids) read back band after band
 * and checked on the host: the next band's copy (into the other pinned
 * buffer) runs while the host checks this one. */
static boxbfs_status_t validate_bands(boxbfs_engine_t e, int64_t from, int64_t to, int64_t root,
                                      const int64_t *parent, const int32_t *level,
                                      boxbfs_tree_info_t *info_p)
{
    bb_device_t *host = e->devs[e->first].dev;
    const int64_t cap = band_cap(), *offsets = e->graph->offsets;
    const int64_t here = offsets[e->part.lo[e->first + e->nlocal]] - offsets[e->part.lo[e->first]];
    const size_t room = (size_t)(here < cap ? (here > 0 ? here : 1) : cap) * 4;
    boxbfs_tree_info_t all = {0, 0, 0, 0};
    uint32_t *heads[2] = {NULL, NULL};
    int slot = 0;
    int i0 = 0;
    while (i0 + 1 < e->nlocal && from >= (int64_t)e->part.lo[e->first + i0 + 1]) i0++;
    band_t b = band_from(e, cap, i0, from);
    /* pinned, as large as a band of this graph can be */
    boxbfs_status_t st = e->ops->host_alloc(host, room, (void **)&heads[0]);
    if (st == BOXBFS_OK) st = e->ops->host_alloc(host, room, (void **)&heads[1]);
    if (st == BOXBFS_OK && b.i < e->nlocal && band_arcs(e, b) <= cap)
        st = band_fetch(e, b, heads[0]);
    while (st == BOXBFS_OK && b.i < e->nlocal && b.b0 < to) {
        const int64_t arcs = band_arcs(e, b);
        uint32_t *h = heads[slot], *long_h = NULL;
        if (arcs > cap) {   /* one row longer than a band: its own buffer */
            st = bb_malloc((size_t)arcs * 4, "a row's heads", &long_h);
            if (st == BOXBFS_OK) st = band_fetch(e, b, long_h);
            h = long_h;
        }
        if (st == BOXBFS_OK) st = e->ops->sync(e->devs[e->first + b.i].dev);
        const band_t next = band_from(e, cap, b.i, b.b1);
        if (st == BOXBFS_OK && next.i < e->nlocal && next.b0 < to && band_arcs(e, next) <= cap)
            st = band_fetch(e, next, heads[1 - slot]);
        if (st == BOXBFS_OK) st = check_band(e, b, h, root, parent, level, &all);
        free(long_h);
        b = next;
        slot = 1 - slot;
    }
    for (int i = 0; i < e->nlocal; i++)   /* no copy still landing in a buffer freed below */
        (void)e->ops->sync(e->devs[e->first + i].dev);
    for (int k = 0; k < 2; k++)
        if (heads[k]) e->ops->host_free(host, heads[k]);
    BB_CHECK(st);
    *info_p = all;
    return BOXBFS_OK;
}

typedef struct {
    uint64_t first;   /* the device's first row that breaks a rule, UINT64_MAX if none */
    int roomless;     /* no device memory for the levels and parents */
} dev_check_t;

typedef struct {
    boxbfs_engine_t e;
    int64_t root;
    const int64_t *parent;
    const int32_t *level;
    dev_check_t *dev;   /* per local device */
} rows_job_t;

/* Local device tid's rows checked on the device: the levels of all n
 * vertices and its rows' parents copied there (bb_engine_dev_t
 * check_level, check_parent). */
static boxbfs_status_t check_device_rows(int tid, int nthreads, void *arg)
{
    rows_job_t *job = arg;
    boxbfs_engine_t e = job->e;
    bb_engine_dev_t *D = &e->devs[e->first + tid];
    const uint64_t n = D->k.n, nloc = D->k.hi - D->k.lo;
    (void)nthreads;
    job->dev[tid].first = UINT64_MAX;
    if (D->check_level == NULL &&
        (e->ops->alloc(D->dev, n * 4, (void **)&D->check_level) != BOXBFS_OK ||
         e->ops->alloc(D->dev, (nloc ? nloc : 1) * 8, (void **)&D->check_parent) != BOXBFS_OK)) {
        e->ops->free(D->dev, D->check_level);   /* no room: the host reads the rows back */
        D->check_level = NULL;
        job->dev[tid].roomless = 1;
        return BOXBFS_OK;
    }
    BB_CHECK(e->ops->copy_h2d(D->dev, D->check_level, job->level, n * 4));
    BB_CHECK(e->ops->copy_h2d(D->dev, D->check_parent, job->parent + D->k.lo, nloc * 8));
    BB_CHECK(e->ops->kernels.check_rows(&D->k, e->ops->stream(D->dev), D->check_level,
                                        D->check_parent, job->root, e->opts.max_depth,
                                        &job->dev[tid].first));
    return e->ops->sync(D->dev);
}

/* The vertices' rules on the host, the rows' on the devices; the band of
 * the first row a device flags is checked on the host, which names the
 * failure. Without the levels, where a device has no room for them, or
 * with BOXBFS_VALIDATE_ROWS=host, every band is read back. */
boxbfs_status_t bb_engine_validate_built(boxbfs_engine_t e, int64_t root, const int64_t *parent,
                                         const int32_t *level, boxbfs_tree_info_t *info_p)
{
    const int64_t lo = (int64_t)e->part.lo[e->first], hi = (int64_t)e->part.lo[e->first + e->nlocal];
    rows_job_t job = {e, root, parent, level, NULL};
    uint64_t first = UINT64_MAX;
    int roomless = 0, host;
    BB_CHECK(rows_on_host(&host));
    if (level == NULL || host) return validate_bands(e, lo, hi, root, parent, level, info_p);
    struct boxbfs_graph rowless = *e->graph;   /* no columns here: no rule reads them */
    rowless.row_lo = lo;
    rowless.row_hi = hi;
    BB_CHECK(bb_validate_vertices(&rowless, lo, hi, root, parent, level, e->opts.max_depth,
                                  info_p));
    BB_CHECK(bb_calloc((size_t)e->nlocal, sizeof *job.dev, "the row check", &job.dev));
    boxbfs_status_t st = bb_parallel_run(e->nlocal, check_device_rows, &job);
    for (int i = 0; i < e->nlocal; i++) {
        roomless |= job.dev[i].roomless;
        if (job.dev[i].first < first) first = job.dev[i].first;
    }
    free(job.dev);
    BB_CHECK(st);
    if (roomless) {
        BB_INFO(-1, "validation: no device memory for the levels and parents: the host checks "
                    "the rows, read back");
        return validate_bands(e, lo, hi, root, parent, level, info_p);
    }
    if (first == UINT64_MAX) return BOXBFS_OK;
    boxbfs_tree_info_t unused;
    BB_CHECK(validate_bands(e, (int64_t)first, (int64_t)first + 1, root, parent, level, &unused));
    return bb_error_set(BOXBFS_ERR_INTERNAL,
                        "validation: a device found row %llu breaking a rule that the host's "
                        "check of its rows does not find", (unsigned long long)first);
}

