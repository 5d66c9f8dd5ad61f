/* The public multi-source BFS (boxbfs_msbfs_*, boxbfs.h): options, argument
 * checks (NULL, ranges, duplicate sources), the run over the driver
 * (driver.c) and the result with its report in the public structs; the
 * check against the reference BFS is check.c. */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "graph/graph.h"
#include "msbfs/msbfs.h"

void boxbfs_msbfs_options_init(boxbfs_msbfs_options_t *opts)
{
    bb_msbfs_opts_t o;
    if (opts == NULL) return;
    bb_msbfs_opts_init(&o);
    memset(opts, 0, sizeof *opts);
    opts->backend = o.backend;
    opts->devices = o.devices;
    opts->group_size = o.group_size;
    opts->groupby = o.groupby;
    opts->groupby_p = o.groupby_p;
    opts->groupby_q = o.groupby_q;
    opts->max_depth = o.max_depth;
    opts->alpha = o.alpha;
}

/* The public options into the driver's, checked (NULL: the defaults). */
static boxbfs_status_t driver_options(const boxbfs_msbfs_options_t *opts, bb_msbfs_opts_t *o)
{
    boxbfs_msbfs_options_t defaults;
    if (opts == NULL) {
        boxbfs_msbfs_options_init(&defaults);
        opts = &defaults;
    }
    if (opts->backend != BOXBFS_BACKEND_CPU && opts->backend != BOXBFS_BACKEND_CUDA)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "msbfs: unknown backend %d", (int)opts->backend);
    if (opts->devices < 1 || opts->devices > 64)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "msbfs: %d devices: must be 1 to 64",
                            opts->devices);
    if (opts->group_size != 32 && opts->group_size != 64 && opts->group_size != 128)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "msbfs: group size %d: must be 32, 64 or 128",
                            opts->group_size);
    if (opts->groupby_p < 1 || opts->groupby_q < 0)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "msbfs: GroupBy p %lld and q %lld: p must be >= 1, q >= 0",
                            (long long)opts->groupby_p, (long long)opts->groupby_q);
    if (!(opts->alpha > 0) || opts->alpha > 1e300)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "msbfs: alpha %g: must be a positive number",
                            opts->alpha);
    bb_msbfs_opts_init(o);
    o->backend = opts->backend;
    o->devices = opts->devices;
    o->group_size = opts->group_size;
    o->groupby = opts->groupby != 0;
    o->groupby_p = opts->groupby_p;
    o->groupby_q = opts->groupby_q;
    o->max_depth = opts->max_depth < 0 ? -1 : opts->max_depth;
    o->alpha = opts->alpha;
    return BOXBFS_OK;
}

/* NULLs, the count, every source in range and none twice. */
static boxbfs_status_t check_sources(boxbfs_graph_t g, const int64_t *sources, int64_t nsources)
{
    uint8_t *seen;
    boxbfs_status_t st = BOXBFS_OK;
    if (g == NULL) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "msbfs: graph is NULL");
    if (sources == NULL) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "msbfs: sources is NULL");
    if (nsources < 1 || nsources > INT_MAX)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "msbfs: %lld sources: must be 1 to %d",
                            (long long)nsources, INT_MAX);
    BB_CHECK(bb_calloc((size_t)g->n / 8 + 1, 1, "the sources seen", &seen));
    for (int64_t i = 0; i < nsources && st == BOXBFS_OK; i++) {
        int64_t s = sources[i];
        if (s < 0 || s >= g->n)
            st = bb_error_set(BOXBFS_ERR_INVALID_ARG, "msbfs: source %lld (number %lld) out of "
                              "range [0, %lld)", (long long)s, (long long)i, (long long)g->n);
        else if (seen[s >> 3] & (1u << (s & 7)))
            st = bb_error_set(BOXBFS_ERR_INVALID_ARG, "msbfs: source %lld given twice (number %lld "
                              "repeats it)", (long long)s, (long long)i);
        else
            seen[s >> 3] |= (uint8_t)(1u << (s & 7));
    }
    free(seen);
    return st;
}

boxbfs_status_t boxbfs_msbfs_group_order(boxbfs_graph_t graph, const int64_t *sources,
                                         int64_t nsources, const boxbfs_msbfs_options_t *opts,
                                         int64_t *order)
{
    bb_msbfs_opts_t o;
    int *idx;
    boxbfs_status_t st;
    BB_CHECK(check_sources(graph, sources, nsources));
    BB_CHECK(driver_options(opts, &o));
    if (order == NULL) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "msbfs: order is NULL");
    BB_CHECK(bb_graph_require_whole(graph, "multi-source BFS"));
    BB_CHECK(bb_malloc((size_t)nsources * sizeof *idx, "the group order", &idx));
    st = bb_msbfs_group_order(graph, sources, (int)nsources, &o, idx);
    for (int64_t i = 0; st == BOXBFS_OK && i < nsources; i++) order[i] = idx[i];
    free(idx);
    return st;
}

/* Wasserman-Faust closeness (boxbfs.h, boxbfs_msbfs_source_t). */
static double closeness(const bb_msbfs_source_t *s, int64_t n)
{
    if (s->reached <= 1 || s->sum_depth == 0 || n <= 1) return 0;
    return ((double)(s->reached - 1) / (double)(n - 1)) *
           ((double)(s->reached - 1) / (double)s->sum_depth);
}

/* The driver's result into the public structs of the report. */
static boxbfs_status_t fill_report(boxbfs_msbfs_result_t r, const int64_t *sources)
{
    const bb_msbfs_result_t *res = &r->res;
    boxbfs_msbfs_report_t *rep = &r->report;
    BB_CHECK(bb_calloc((size_t)res->nsources, sizeof *r->sources, "the source figures", &r->sources));
    BB_CHECK(bb_calloc((size_t)res->ngroups, sizeof *r->groups, "the group figures", &r->groups));
    BB_CHECK(bb_calloc((size_t)res->ndev, sizeof *r->devices, "the device figures", &r->devices));
    BB_CHECK(bb_malloc((size_t)res->nsources * sizeof *r->order, "the group order", &r->order));
    for (int i = 0; i < res->nsources; i++) {
        const bb_msbfs_source_t *s = &res->per_source[i];
        boxbfs_msbfs_source_t *p = &r->sources[i];
        p->source = sources[i];
        p->group = s->group;
        p->reached = s->reached;
        p->eccentricity = s->eccentricity;
        p->sum_depth = s->sum_depth;
        p->closeness = closeness(s, r->n);
        p->input_edges = s->input_edges;
        p->arcs = s->arcs;
        r->order[i] = res->order[i];
        rep->input_edges += s->input_edges;
        rep->arcs += s->arcs;
    }
    for (int gi = 0; gi < res->ngroups; gi++) {
        const bb_msbfs_group_t *g = &res->groups[gi];
        boxbfs_msbfs_group_t *p = &r->groups[gi];
        p->device = g->device;
        p->size = g->count;
        p->levels = g->levels;
        p->top_down_levels = g->td_levels;
        p->bottom_up_levels = g->bu_levels;
        p->time_s = g->time_s;
        p->arcs_touched = g->touched;
        p->input_edges = g->input_edges;
        p->arcs = g->arcs;
    }
    for (int d = 0; d < res->ndev; d++) {
        const bb_msbfs_device_t *dv = &res->devices[d];
        boxbfs_msbfs_device_t *p = &r->devices[d];
        memcpy(p->name, dv->name, sizeof p->name);
        p->groups = dv->groups;
        p->busy_s = dv->busy_s;
        p->arcs_touched = dv->touched;
        p->input_edges = dv->input_edges;
        p->arcs = dv->arcs;
    }
    rep->nsources = res->nsources;
    rep->ngroups = res->ngroups;
    rep->ndevices = res->ndev;
    rep->total_s = res->total_s;
    rep->teps = res->total_s > 0 ? (double)rep->input_edges / res->total_s : 0;
    rep->teps_arc = res->total_s > 0 ? (double)rep->arcs / res->total_s : 0;
    rep->sources = r->sources;
    rep->groups = r->groups;
    rep->devices = r->devices;
    rep->order = r->order;
    return BOXBFS_OK;
}

boxbfs_status_t boxbfs_msbfs_run(boxbfs_graph_t graph, const int64_t *sources, int64_t nsources,
                                 const boxbfs_msbfs_options_t *opts, const uint8_t *keep,
                                 boxbfs_msbfs_result_t *result_p)
{
    bb_msbfs_opts_t o;
    boxbfs_msbfs_result_t r;
    boxbfs_status_t st;
    BB_CHECK(check_sources(graph, sources, nsources));
    BB_CHECK(driver_options(opts, &o));
    if (result_p == NULL) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "msbfs: result_p is NULL");
    BB_CHECK(bb_calloc(1, sizeof *r, "the multi-source BFS result", &r));
    r->n = graph->n;
    r->max_depth = o.max_depth;
    BB_CHECK_GOTO(bb_msbfs_run(graph, sources, (int)nsources, &o, keep, &r->res), st, fail);
    BB_CHECK_GOTO(fill_report(r, sources), st, fail);
    *result_p = r;
    return BOXBFS_OK;
fail:
    boxbfs_msbfs_free(r);
    return st;
}

void boxbfs_msbfs_free(boxbfs_msbfs_result_t result)
{
    if (result == NULL) return;
    bb_msbfs_result_free(&result->res);
    free(result->sources);
    free(result->groups);
    free(result->devices);
    free(result->order);
    free(result);
}

const boxbfs_msbfs_report_t *boxbfs_msbfs_report(boxbfs_msbfs_result_t result)
{
    return result == NULL ? NULL : &result->report;
}

const int32_t *boxbfs_msbfs_depths(boxbfs_msbfs_result_t result, int64_t index)
{
    if (result == NULL || index < 0 || index >= result->res.nsources) return NULL;
    if (result->res.depth_row[index] < 0) return NULL;
    return result->res.depths + (size_t)result->res.depth_row[index] * (size_t)result->n;
}
