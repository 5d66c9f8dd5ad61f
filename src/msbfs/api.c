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
    if (opts == NULL) return;
    memset(opts, 0, sizeof *opts);
    opts->backend = BOXBFS_BACKEND_CPU;
    opts->devices = 1;
    opts->group_size = 128;
    opts->groupby = 1;
    opts->groupby_p = 128;
    opts->groupby_q = 128;
    opts->max_depth = -1;
    opts->alpha = 4;   /* README "Multi-source BFS": bottom-up rarely ends early here */
}

/* The options the driver runs with: *opts checked, or the defaults for NULL. */
static boxbfs_status_t driver_options(const boxbfs_msbfs_options_t *opts, boxbfs_msbfs_options_t *o)
{
    if (opts == NULL) {
        boxbfs_msbfs_options_init(o);
        return BOXBFS_OK;
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
    *o = *opts;
    o->max_depth = opts->max_depth < 0 ? -1 : opts->max_depth;
    return BOXBFS_OK;
}

/* NULLs, the count, every source in range and none twice. */
static boxbfs_status_t check_sources(boxbfs_graph_t g, const int64_t *sources, int64_t nsources)
{
    if (g == NULL) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "msbfs: graph is NULL");
    if (sources == NULL) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "msbfs: sources is NULL");
    if (nsources < 1 || nsources > INT_MAX)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "msbfs: %lld sources: must be 1 to %d",
                            (long long)nsources, INT_MAX);
    return bb_graph_check_sources(g, sources, nsources, "msbfs");
}

boxbfs_status_t boxbfs_msbfs_group_order(boxbfs_graph_t graph, const int64_t *sources,
                                         int64_t nsources, const boxbfs_msbfs_options_t *opts,
                                         int64_t *order)
{
    boxbfs_msbfs_options_t o;
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

/* The report in the public structs: the driver's, with the order widened. */
static boxbfs_status_t fill_report(boxbfs_msbfs_result_t r)
{
    const bb_msbfs_result_t *res = &r->res;
    boxbfs_msbfs_report_t *rep = &r->report;
    BB_CHECK(bb_malloc((size_t)res->nsources * sizeof *r->order, "the group order", &r->order));
    for (int i = 0; i < res->nsources; i++) {
        r->order[i] = res->order[i];
        rep->input_edges += res->per_source[i].input_edges;
        rep->arcs += res->per_source[i].arcs;
    }
    rep->nsources = res->nsources;
    rep->ngroups = res->ngroups;
    rep->ndevices = res->ndev;
    rep->total_s = res->total_s;
    rep->teps = res->total_s > 0 ? (double)rep->input_edges / res->total_s : 0;
    rep->teps_arc = res->total_s > 0 ? (double)rep->arcs / res->total_s : 0;
    rep->sources = res->per_source;
    rep->groups = res->groups;
    rep->devices = res->devices;
    rep->order = r->order;
    return BOXBFS_OK;
}

boxbfs_status_t boxbfs_msbfs_run(boxbfs_graph_t graph, const int64_t *sources, int64_t nsources,
                                 const boxbfs_msbfs_options_t *opts, const uint8_t *keep,
                                 boxbfs_msbfs_result_t *result_p)
{
    boxbfs_msbfs_options_t o;
    boxbfs_msbfs_result_t r;
    boxbfs_status_t st;
    BB_CHECK(check_sources(graph, sources, nsources));
    BB_CHECK(driver_options(opts, &o));
    if (result_p == NULL) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "msbfs: result_p is NULL");
    BB_CHECK(bb_calloc(1, sizeof *r, "the multi-source BFS result", &r));
    r->n = graph->n;
    r->max_depth = o.max_depth;
    BB_CHECK_GOTO(bb_msbfs_run(graph, sources, (int)nsources, &o, keep, &r->res), st, fail);
    BB_CHECK_GOTO(fill_report(r), st, fail);
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
