/* The public betweenness centrality (boxbfs_bc_*, boxbfs.h): argument checks
 * (NULL, ranges, duplicate sources), the run over the centrality driver
 * (sigma.c) with the whole graph on every device, networkx's scaling
 * (bb_bc_scale), and the check against the sequential Brandes. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "centrality/centrality.h"
#include "common/error.h"
#include "graph/graph.h"

struct boxbfs_bc_result {
    int64_t n;
    double *raw;                  /* n: unscaled sums (the check compares these) */
    double *bc;                   /* n: scaled */
    int64_t *sources, *edges;     /* nsources each */
    double *time_s;               /* nsources */
    int32_t *device;              /* nsources: the device that ran each source */
    double *busy_s;               /* devices: the times of the sources each ran */
    char (*names)[128];           /* devices */
    boxbfs_bc_report_t report;
};

void boxbfs_bc_options_init(boxbfs_bc_options_t *opts)
{
    if (opts == NULL) return;
    memset(opts, 0, sizeof *opts);
    opts->backend = BOXBFS_BACKEND_CPU;
    opts->devices = 1;
}

/* NULLs, options, counts, ids in range and none twice. */
static boxbfs_status_t check_args(boxbfs_graph_t g, const int64_t *sources, int64_t nsources,
                                  const boxbfs_bc_options_t *o, boxbfs_bc_result_t *result_p)
{
    if (g == NULL || result_p == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "bc: %s is NULL", g == NULL ? "graph" : "result_p");
    if (o->backend != BOXBFS_BACKEND_CPU && o->backend != BOXBFS_BACKEND_CUDA)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "bc: unknown backend %d", (int)o->backend);
    if (o->devices < 1 || o->devices > 64)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "bc: %d devices: must be 1 to 64", o->devices);
    if (sources == NULL && nsources != 0)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "bc: sources is NULL but nsources is %lld (NULL "
                            "with 0 means every vertex)", (long long)nsources);
    if (sources == NULL) return BOXBFS_OK;
    if (nsources < 1)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "bc: %lld sources: an empty list (pass NULL and 0 "
                            "for every vertex)", (long long)nsources);
    return bb_graph_check_sources(g, sources, nsources, "bc");
}

static boxbfs_status_t alloc_result(boxbfs_bc_result_t r, int64_t n, int64_t k, int devices)
{
    BB_CHECK(bb_malloc((size_t)n * sizeof *r->raw, "the betweenness sums", &r->raw));
    BB_CHECK(bb_malloc((size_t)n * sizeof *r->bc, "the betweenness values", &r->bc));
    BB_CHECK(bb_malloc((size_t)k * sizeof *r->sources, "the sources", &r->sources));
    BB_CHECK(bb_calloc((size_t)k, sizeof *r->edges, "the per-source edges", &r->edges));
    BB_CHECK(bb_calloc((size_t)k, sizeof *r->time_s, "the per-source times", &r->time_s));
    BB_CHECK(bb_calloc((size_t)k, sizeof *r->device, "the per-source devices", &r->device));
    BB_CHECK(bb_calloc((size_t)devices, sizeof *r->busy_s, "the device times", &r->busy_s));
    BB_CHECK(bb_calloc((size_t)devices, sizeof *r->names, "the device names", &r->names));
    return BOXBFS_OK;
}

boxbfs_status_t boxbfs_bc_run(boxbfs_graph_t graph, const int64_t *sources, int64_t nsources,
                              const boxbfs_bc_options_t *opts, boxbfs_bc_result_t *result_p)
{
    boxbfs_bc_options_t defaults;
    bb_centrality_options_t o;
    bb_centrality_t *c = NULL;
    boxbfs_bc_result_t r = NULL;
    boxbfs_status_t st;
    int64_t k;
    bb_bc_times_t times = {0, NULL, NULL};
    if (opts == NULL) {
        boxbfs_bc_options_init(&defaults);
        opts = &defaults;
    }
    BB_CHECK(check_args(graph, sources, nsources, opts, result_p));
    k = sources ? nsources : graph->n;
    memset(&o, 0, sizeof o);
    o.backend = opts->backend;
    o.devices = opts->devices;
    o.algorithm = BB_SIGMA_FRONTIER;
    o.direction = BOXBFS_SEARCH_AUTO;
    o.whole_graph = 1;
    BB_CHECK(bb_calloc(1, sizeof *r, "the betweenness result", &r));
    r->n = graph->n;
    BB_CHECK_GOTO(alloc_result(r, graph->n, k, opts->devices), st, fail);
    for (int64_t i = 0; i < k; i++) r->sources[i] = sources ? sources[i] : i;
    BB_CHECK_GOTO(bb_centrality_create(graph, &o, &c), st, fail);
    for (int d = 0; d < opts->devices; d++)
        memcpy(r->names[d], bb_centrality_device_name(c, d), sizeof r->names[d]);
    times.busy_s = r->busy_s;
    times.device = r->device;
    BB_CHECK_GOTO(bb_centrality_bc(c, r->sources, k, r->raw, r->time_s, r->edges, &times), st,
                  fail);
    r->report.total_s = times.total_s;   /* from every device ready: no setup, no warm-up */
    memcpy(r->bc, r->raw, (size_t)graph->n * sizeof *r->bc);
    bb_bc_scale(r->bc, graph->n, graph->directed, opts->normalized != 0, k);
    r->report.nsources = k;
    r->report.devices = opts->devices;
    r->report.sources = r->sources;
    r->report.source_time_s = r->time_s;
    r->report.source_input_edges = r->edges;
    r->report.source_device = r->device;
    r->report.device_busy_s = r->busy_s;
    bb_centrality_free(c);
    *result_p = r;
    return BOXBFS_OK;
fail:
    bb_centrality_free(c);
    boxbfs_bc_free(r);
    return st;
}

void boxbfs_bc_free(boxbfs_bc_result_t result)
{
    if (result == NULL) return;
    free(result->raw);
    free(result->bc);
    free(result->sources);
    free(result->edges);
    free(result->time_s);
    free(result->device);
    free(result->busy_s);
    free(result->names);
    free(result);
}

const double *boxbfs_bc_values(boxbfs_bc_result_t result) { return result ? result->bc : NULL; }

const boxbfs_bc_report_t *boxbfs_bc_report(boxbfs_bc_result_t result)
{
    return result ? &result->report : NULL;
}

const char *boxbfs_bc_device_name(boxbfs_bc_result_t result, int device)
{
    if (result == NULL || device < 0 || device >= result->report.devices) return "";
    return result->names[device];
}

boxbfs_status_t boxbfs_bc_validate(boxbfs_graph_t graph, boxbfs_bc_result_t result,
                                   double *difference_p)
{
    double *ref, worst = 0;
    int64_t at = 0;
    boxbfs_status_t st;
    if (graph == NULL || result == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "bc validate: %s is NULL",
                            graph == NULL ? "graph" : "result");
    if (graph->n != result->n)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "bc validate: the graph has %lld vertices, the "
                            "run's %lld", (long long)graph->n, (long long)result->n);
    BB_CHECK(bb_malloc((size_t)graph->n * sizeof *ref, "the reference betweenness", &ref));
    st = bb_ref_brandes(graph, result->sources, result->report.nsources, ref);
    for (int64_t v = 0; st == BOXBFS_OK && v < graph->n; v++) {
        double d = fabs(result->raw[v] - ref[v]) / (fabs(ref[v]) > 1 ? fabs(ref[v]) : 1);
        if (d > worst) {
            worst = d;
            at = v;
        }
    }
    if (st == BOXBFS_OK && worst > 1e-9)
        st = bb_error_set(BOXBFS_ERR_VALIDATION, "betweenness differs from the reference by %g "
                          "(relative) at vertex %lld: %.17g, the reference says %.17g", worst,
                          (long long)boxbfs_graph_external_id(graph, at), result->raw[at], ref[at]);
    free(ref);
    if ((st == BOXBFS_OK || st == BOXBFS_ERR_VALIDATION) && difference_p) *difference_p = worst;
    return st;
}
