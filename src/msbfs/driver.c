/* The multi-source BFS driver [000 §4, §6, §7]: one host thread per device
 * (bb_parallel_run), each device holding the whole graph and one group's
 * bitwise status array. Once every device holds the graph and has run a
 * warm-up group (the search time starts there, as bfs excludes setup),
 * devices pull the next group from a shared counter when they finish one,
 * from both ends of the group order inward (the last first), so the groups
 * spread by measured work (a device that drew heavy groups takes fewer), not
 * by count. Per
 * level the driver picks the direction from the joint counters (bottom-up
 * when the joint frontier's out-arcs times alpha exceed the in-arcs of the
 * vertices not yet reached by every instance still searching: Beamer's test
 * on iBFS's joint quantities), runs the step, then identification, and folds
 * the per-instance counts of newly reached vertices into reached,
 * eccentricity and sum of depths; an instance that reached nothing new
 * leaves the early-termination mask. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/threads.h"
#include "common/timer.h"
#include "graph/graph.h"
#include "kernels/kernels.h"
#include "kernels/msbfs.h"
#include "kernels/upload.h"
#include "msbfs/msbfs.h"

typedef struct {
    boxbfs_graph_t g;
    const boxbfs_msbfs_options_t *o;
    const bb_device_ops_t *ops;
    const bb_msbfs_ops_t *mops;
    const int64_t *sources;
    const uint8_t *keep;
    const int64_t *in_off, *in_col;   /* directed graphs: in-arcs; else the out-arcs */
    bb_msbfs_result_t *res;
    int G, nw, max_keep;
    pthread_mutex_t lock;
    int next_group;
    bb_barrier_t ready;               /* every device set up and warmed up */
    double *start_s, *end_s;          /* per device */
} run_t;

typedef struct {
    bb_device_t *dev;
    bb_ms_state_t k;
    void *allocs[16];
    int nallocs;
    uint64_t counters[BB_MS_COUNTERS];
} dev_t_;

static boxbfs_status_t dalloc(const run_t *r, dev_t_ *d, size_t bytes, void *ptr_p)
{
    void *p;
    BB_CHECK(r->ops->alloc(d->dev, bytes ? bytes : 4, &p));
    d->allocs[d->nallocs++] = p;
    *(void **)ptr_p = p;
    return BOXBFS_OK;
}

static boxbfs_status_t setup(const run_t *r, dev_t_ *d)
{
    boxbfs_graph_t g = r->g;
    uint64_t n = (uint64_t)g->n;
    bb_ms_state_t *k = &d->k;
    uint32_t *credit;
    boxbfs_status_t st = BOXBFS_OK;
    k->n = n;
    k->nw = r->nw;
    BB_CHECK(dalloc(r, d, (n + 1) * 8, &k->offsets));
    BB_CHECK(dalloc(r, d, (size_t)g->arcs * 4, &k->columns));
    BB_CHECK(bb_upload_csr_rows(r->ops, d->dev, g->offsets, g->columns, 0, 0, n, (int64_t *)k->offsets,
                                (uint32_t *)k->columns));
    if (r->in_off != g->offsets) {
        BB_CHECK(dalloc(r, d, (n + 1) * 8, &k->in_offsets));
        BB_CHECK(dalloc(r, d, (size_t)g->arcs * 4, &k->in_columns));
        BB_CHECK(bb_upload_csr_rows(r->ops, d->dev, r->in_off, r->in_col, 0, 0, n,
                                    (int64_t *)k->in_offsets, (uint32_t *)k->in_columns));
    } else {
        k->in_offsets = k->offsets;
        k->in_columns = k->columns;
    }
    BB_CHECK(dalloc(r, d, n * 4, &k->credit));
    BB_CHECK(bb_malloc(n * 4 + 4, "edge credits", &credit));
    for (uint64_t v = 0; v < n; v++) credit[v] = (uint32_t)g->edge_credit[v];
    st = r->ops->copy_h2d(d->dev, (uint32_t *)k->credit, credit, n * 4);
    if (st == BOXBFS_OK) st = r->ops->sync(d->dev);
    free(credit);
    BB_CHECK(st);
    BB_CHECK(dalloc(r, d, n * (uint64_t)r->nw * 4, &k->vis));
    BB_CHECK(dalloc(r, d, n * (uint64_t)r->nw * 4, &k->nxt));
    BB_CHECK(dalloc(r, d, n * 4, &k->td_queue));
    BB_CHECK(dalloc(r, d, n * 4, &k->bu_queue));
    BB_CHECK(dalloc(r, d, n * 4, &k->bu_next));
    BB_CHECK(dalloc(r, d, BB_MS_MAX_GROUP * 4, &k->sources));
    BB_CHECK(dalloc(r, d, BB_MS_MAX_GROUP * 4, &k->keep_slot));
    BB_CHECK(dalloc(r, d, (size_t)r->max_keep * n * 4, &k->depths));
    BB_CHECK(dalloc(r, d, BB_MS_COUNTERS * 8, &k->counters));
    return BOXBFS_OK;
}

/* Wasserman-Faust closeness (boxbfs.h, boxbfs_msbfs_source_t). */
static double closeness(int64_t reached, int64_t sum_depth, int64_t n)
{
    if (reached <= 1 || sum_depth == 0 || n <= 1) return 0;
    return ((double)(reached - 1) / (double)(n - 1)) * ((double)(reached - 1) / (double)sum_depth);
}

/* One group from its sources to its last level. record: 0 for the warm-up.
 * The copy of kept depth rows to the host (validation, --output-depths) is
 * not search time: its seconds go to *copy_s_p. */
static boxbfs_status_t run_group(run_t *r, dev_t_ *d, int dev_index, int gi, int record,
                                 double *copy_s_p)
{
    bb_msbfs_result_t *res = r->res;
    bb_ms_state_t *k = &d->k;
    const bb_device_ops_t *ops = r->ops;
    void *stream = ops->stream(d->dev);
    int first = gi * r->G, count = res->nsources - first < r->G ? res->nsources - first : r->G;
    const int *idx = res->order + first;
    uint32_t src[BB_MS_MAX_GROUP];
    int32_t slot[BB_MS_MAX_GROUP];
    int64_t reached[BB_MS_MAX_GROUP] = {0}, ecc[BB_MS_MAX_GROUP] = {0}, sum[BB_MS_MAX_GROUP] = {0};
    int rows = 0, levels = 0, td = 0, bu = 0, last_bu = 0;
    int64_t touched = 0;
    uint64_t *c = d->counters;
    double t0, t_level;
    for (int i = 0; i < BB_MS_MAX_GROUP; i++) slot[i] = -1;
    for (int i = 0; i < count; i++) {
        src[i] = (uint32_t)r->sources[idx[i]];
        if (record && r->keep && r->keep[idx[i]]) slot[i] = rows++;
    }
    memset(k->full, 0, sizeof k->full);
    for (int i = 0; i < count; i++) k->full[i >> 5] |= 1u << (i & 31);
    BB_CHECK(ops->copy_h2d(d->dev, (uint32_t *)k->sources, src, (size_t)count * 4));
    BB_CHECK(ops->copy_h2d(d->dev, (int32_t *)k->keep_slot, slot, sizeof slot));
    BB_CHECK(ops->sync(d->dev));
    t0 = t_level = bb_now_s();
    BB_CHECK(r->mops->seed(k, stream, count, rows));
    for (int32_t level = 0;; level++) {
        uint64_t tds, tdl, bus = 0, bul = 0;
        int bottom_up = 0, from_queue;
        if (level > 0) {   /* the step from level - 1 */
            tds = c[BB_MS_TD_SMALL];
            tdl = c[BB_MS_TD_LARGE];
            bus = c[BB_MS_BU_SMALL];
            bul = c[BB_MS_BU_LARGE];
            bottom_up = (double)c[BB_MS_TD_ARCS] * r->o->alpha > (double)c[BB_MS_BU_ARCS];
            BB_CHECK(ops->zero(d->dev, k->counters, BB_MS_COUNTERS * 8));
            if (bottom_up) BB_CHECK(r->mops->bottom_up(k, stream, bus, bul));
            else BB_CHECK(r->mops->top_down(k, stream, tds, tdl));
            bu += bottom_up;
            td += !bottom_up;
            last_bu = bottom_up;
        } else {
            BB_CHECK(ops->zero(d->dev, k->counters, BB_MS_COUNTERS * 8));
        }
        /* a bottom-up step changes only its queue's vertices: identification
         * looks at those alone when they are few (fewer than n / 4) */
        from_queue = bottom_up && (bus + bul) * 4 < k->n;
        BB_CHECK(r->mops->identify(k, stream, level, from_queue, bus, bul));
        {
            uint32_t *q = k->bu_queue;   /* the launch took its copy of the state */
            k->bu_queue = k->bu_next;
            k->bu_next = q;
        }
        BB_CHECK(ops->copy_d2h(d->dev, c, k->counters, BB_MS_COUNTERS * 8));
        BB_CHECK(ops->sync(d->dev));
        touched += (int64_t)c[BB_MS_TOUCHED];
        if (record && bb_log_enabled(BB_LOG_INFO)) {   /* BOXBFS_LOG=info: the level table */
            double now = bb_now_s();
            BB_INFO(dev_index, "group %d level %d %s: touched %llu, next td %llu+%llu (%llu arcs), "
                    "bu %llu+%llu (%llu arcs), %.3f ms", gi, level,
                    level == 0 ? "seed" : last_bu ? "bu" : "td",
                    (unsigned long long)c[BB_MS_TOUCHED], (unsigned long long)c[BB_MS_TD_SMALL],
                    (unsigned long long)c[BB_MS_TD_LARGE], (unsigned long long)c[BB_MS_TD_ARCS],
                    (unsigned long long)c[BB_MS_BU_SMALL], (unsigned long long)c[BB_MS_BU_LARGE],
                    (unsigned long long)c[BB_MS_BU_ARCS], (now - t_level) * 1e3);
            t_level = now;
        }
        for (int i = 0; i < count; i++) {
            int64_t fresh = (int64_t)c[BB_MS_NEW + i];
            /* Nothing new: instance i's reached set is closed under out-arcs,
             * so no vertex it has not reached has an in-neighbour it reached,
             * and its bit can never come. It leaves the early-termination
             * mask: a vertex counts as full once every instance still
             * searching reached it. One instance in a small component (or
             * one that finished early) otherwise kept every vertex of the
             * giant component in the bottom-up queue, scanned to its last
             * in-arc at every bottom-up level (kron:20, 1024 sources: one
             * group of 126 M arcs against ~18 M, from a source whose
             * component has 2 vertices). Depths and counts do not change. */
            if (fresh == 0 && level > 0) k->full[i >> 5] &= ~(1u << (i & 31));
            if (fresh == 0) continue;
            reached[i] += fresh;
            sum[i] += fresh * level;
            ecc[i] = level;
        }
        if (c[BB_MS_TD_SMALL] + c[BB_MS_TD_LARGE] == 0) break;
        levels = level + 1;
        if (r->o->max_depth >= 0 && level >= r->o->max_depth) break;
        /* every vertex with in-arcs has all bits: no step can change anything */
        if (c[BB_MS_BU_SMALL] + c[BB_MS_BU_LARGE] == 0) break;
    }
    BB_CHECK(ops->zero(d->dev, k->counters, BB_MS_COUNTERS * 8));
    BB_CHECK(r->mops->finish(k, stream));
    BB_CHECK(ops->copy_d2h(d->dev, c, k->counters, BB_MS_COUNTERS * 8));
    BB_CHECK(ops->sync(d->dev));
    if (!record) return BOXBFS_OK;
    {
        boxbfs_msbfs_group_t *gr = &res->groups[gi];
        gr->time_s = bb_now_s() - t0;
        gr->device = dev_index;
        gr->size = count;
        gr->levels = levels;
        gr->top_down_levels = td;
        gr->bottom_up_levels = bu;
        gr->arcs_touched = touched;
        double tc = bb_now_s();
        for (int i = 0; i < count; i++) {
            boxbfs_msbfs_source_t *s = &res->per_source[idx[i]];
            s->source = r->sources[idx[i]];
            s->reached = reached[i];
            s->eccentricity = ecc[i];
            s->sum_depth = sum[i];
            s->closeness = closeness(reached[i], sum[i], r->g->n);
            s->input_edges = (int64_t)c[BB_MS_CREDIT + i];
            s->arcs = (int64_t)c[BB_MS_ARCS + i];
            s->group = gi;
            gr->input_edges += s->input_edges;
            gr->arcs += s->arcs;
            if (slot[i] >= 0)
                BB_CHECK(ops->copy_d2h(d->dev, res->depths + (size_t)res->depth_row[idx[i]] * r->g->n,
                                       k->depths + (size_t)slot[i] * r->g->n, (size_t)r->g->n * 4));
        }
        BB_CHECK(ops->sync(d->dev));
        *copy_s_p += bb_now_s() - tc;
    }
    return BOXBFS_OK;
}

/* The k-th group handed out: from both ends of the group order inward,
 * the last first (last, 0, last - 1, 1, ...). GroupBy puts the sources
 * that are out of step with the rest at the ends (groups.c: the hubs
 * themselves first, the sources far from any hub last), and their groups
 * take longest, the last (the leftover sources) longest of all: handed out
 * first, the short groups of the middle fill in at the end (kron:24, 1024
 * sources: docs/performance.md). */
static int handed_out(int k, int ngroups)
{
    return k % 2 == 0 ? ngroups - 1 - k / 2 : k / 2;
}

static boxbfs_status_t device_main(int tid, int nthreads, void *arg)
{
    run_t *r = arg;
    dev_t_ d;
    char name[128];
    double copy_s = 0;
    boxbfs_status_t st = BOXBFS_OK;
    (void)nthreads;
    memset(&d, 0, sizeof d);
    st = r->ops->open(tid, &d.dev, name, sizeof name);
    if (st == BOXBFS_OK) {
        memcpy(r->res->devices[tid].name, name, sizeof name);
        st = setup(r, &d);
    }
    if (st == BOXBFS_OK) st = run_group(r, &d, tid, 0, 0, &copy_s);   /* warm-up, not timed */
    /* Every device starts once all hold the graph: a device still uploading
     * its copy would find every group taken (kron:24 on two GPUs: device 0
     * ran all 8 groups) and the search time would include its setup. */
    if (st != BOXBFS_OK) bb_barrier_abort(&r->ready);
    if (bb_barrier_wait(&r->ready)) goto out;   /* aborted: the failing device says why */
    r->start_s[tid] = bb_now_s();
    for (;;) {
        int k;
        pthread_mutex_lock(&r->lock);
        k = r->next_group++;
        pthread_mutex_unlock(&r->lock);
        if (k >= r->res->ngroups) break;
        BB_CHECK_GOTO(run_group(r, &d, tid, handed_out(k, r->res->ngroups), 1, &copy_s), st, out);
    }
    r->end_s[tid] = bb_now_s() - copy_s;   /* the depth copies are not search time */
out:
    if (st != BOXBFS_OK) {   /* the others stop after their current group */
        pthread_mutex_lock(&r->lock);
        r->next_group = r->res->ngroups;
        pthread_mutex_unlock(&r->lock);
    }
    for (int i = d.nallocs - 1; i >= 0; i--) r->ops->free(d.dev, d.allocs[i]);
    if (d.dev) r->ops->close(d.dev);
    return st;
}

void bb_msbfs_result_free(bb_msbfs_result_t *res)
{
    free(res->order);
    free(res->groups);
    free(res->per_source);
    free(res->devices);
    free(res->depths);
    free(res->depth_row);
    memset(res, 0, sizeof *res);
}

static boxbfs_status_t check_args(boxbfs_graph_t g, const int64_t *sources, int nsources,
                                  const boxbfs_msbfs_options_t *o)
{
    int available = 0;
    BB_CHECK(bb_graph_require_whole(g, "multi-source BFS"));
    if (o->group_size != 32 && o->group_size != 64 && o->group_size != 128)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "group size %d: must be 32, 64 or 128",
                            o->group_size);
    if (nsources < 1) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "no sources to search from");
    if (o->devices < 1 || o->devices > 64)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "device count %d: must be 1 to 64", o->devices);
    if (g->n > (int64_t)UINT32_MAX)
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "%lld vertices: multi-source BFS takes at most 2^32 - 1",
                            (long long)g->n);
    for (int64_t v = 0; v < g->n; v++)
        if (g->edge_credit[v] < 0 || g->edge_credit[v] > (int64_t)UINT32_MAX)
            return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                                "vertex %lld is credited %lld input edges, over 2^32 - 1",
                                (long long)v, (long long)g->edge_credit[v]);
    for (int i = 0; i < nsources; i++)
        if (sources[i] < 0 || sources[i] >= g->n)
            return bb_error_set(BOXBFS_ERR_INVALID_ARG, "source %lld out of range [0, %lld)",
                                (long long)sources[i], (long long)g->n);
    if (o->backend == BOXBFS_BACKEND_CUDA) {
        if (bb_cuda_ops_ptr == NULL || bb_cuda_msbfs_ops_ptr == NULL)
            return bb_error_set(BOXBFS_ERR_UNSUPPORTED, "the cuda backend is not built in");
        BB_CHECK(bb_cuda_ops_ptr->count(&available));
        if (available == 0) return bb_error_set(BOXBFS_ERR_NO_DEVICE, "the cuda backend found no GPU");
        if (o->devices > available)
            return bb_error_set(BOXBFS_ERR_NO_DEVICE, "%d devices asked for, %d GPU%s present",
                                o->devices, available, available == 1 ? "" : "s");
    }
    return BOXBFS_OK;
}

boxbfs_status_t bb_msbfs_run(boxbfs_graph_t g, const int64_t *sources, int nsources,
                             const boxbfs_msbfs_options_t *o, const uint8_t *keep,
                             bb_msbfs_result_t *res)
{
    run_t r;
    int64_t *in_off = NULL, *in_col = NULL;
    int nkept = 0;
    boxbfs_status_t st = BOXBFS_OK;
    memset(res, 0, sizeof *res);
    BB_CHECK(check_args(g, sources, nsources, o));
    memset(&r, 0, sizeof r);
    r.g = g;
    r.o = o;
    r.sources = sources;
    r.keep = keep;
    r.res = res;
    r.G = o->group_size;
    r.nw = o->group_size / 32;
    r.ops = o->backend == BOXBFS_BACKEND_CUDA ? bb_cuda_ops_ptr : &bb_cpu_ops;
    r.mops = o->backend == BOXBFS_BACKEND_CUDA ? bb_cuda_msbfs_ops_ptr : &bb_cpu_msbfs_ops;
    res->nsources = nsources;
    res->ndev = o->devices;
    res->ngroups = (nsources + r.G - 1) / r.G;
    BB_CHECK_GOTO(bb_malloc((size_t)nsources * sizeof *res->order, "the group order", &res->order), st, fail);
    BB_CHECK_GOTO(bb_calloc((size_t)res->ngroups, sizeof *res->groups, "group results", &res->groups), st, fail);
    BB_CHECK_GOTO(bb_calloc((size_t)nsources, sizeof *res->per_source, "source results",
                            &res->per_source), st, fail);
    BB_CHECK_GOTO(bb_calloc((size_t)o->devices, sizeof *res->devices, "device results",
                            &res->devices), st, fail);
    BB_CHECK_GOTO(bb_malloc((size_t)nsources * sizeof *res->depth_row, "depth rows",
                            &res->depth_row), st, fail);
    BB_CHECK_GOTO(bb_msbfs_group_order(g, sources, nsources, o, res->order), st, fail);
    for (int i = 0; i < nsources; i++) res->depth_row[i] = keep && keep[i] ? nkept++ : -1;
    for (int gi = 0; gi < res->ngroups; gi++) {   /* depth rows one group needs */
        int rows = 0;
        for (int i = gi * r.G; i < nsources && i < (gi + 1) * r.G; i++)
            rows += keep && keep[res->order[i]];
        if (rows > r.max_keep) r.max_keep = rows;
    }
    if (nkept)
        BB_CHECK_GOTO(bb_malloc((size_t)nkept * (size_t)g->n * 4, "the kept depth arrays",
                                &res->depths), st, fail);
    if (g->directed) {
        BB_CHECK_GOTO(bb_graph_transpose_csr(g, &in_off, &in_col), st, fail);
        r.in_off = in_off;
        r.in_col = in_col;
    } else {
        r.in_off = g->offsets;
        r.in_col = g->columns;
    }
    BB_CHECK_GOTO(bb_calloc((size_t)o->devices * 2, sizeof(double), "device times", &r.start_s), st, fail);
    r.end_s = r.start_s + o->devices;
    BB_CHECK_GOTO(bb_barrier_init(&r.ready, o->devices), st, fail);
    pthread_mutex_init(&r.lock, NULL);
    st = bb_parallel_run(o->devices, device_main, &r);
    pthread_mutex_destroy(&r.lock);
    bb_barrier_destroy(&r.ready);
    if (st != BOXBFS_OK) goto fail;
    {
        double t0 = r.start_s[0], t1 = r.end_s[0];
        for (int dv = 1; dv < o->devices; dv++) {
            if (r.start_s[dv] < t0) t0 = r.start_s[dv];
            if (r.end_s[dv] > t1) t1 = r.end_s[dv];
        }
        res->total_s = t1 - t0;
    }
    for (int gi = 0; gi < res->ngroups; gi++) {
        boxbfs_msbfs_group_t *gr = &res->groups[gi];
        boxbfs_msbfs_device_t *dv = &res->devices[gr->device];
        dv->groups++;
        dv->busy_s += gr->time_s;
        dv->arcs_touched += gr->arcs_touched;
        dv->input_edges += gr->input_edges;
        dv->arcs += gr->arcs;
    }
    free(r.start_s);
    free(in_off);
    free(in_col);
    return BOXBFS_OK;
fail:
    free(r.start_s);
    free(in_off);
    free(in_col);
    bb_msbfs_result_free(res);
    return st;
}
