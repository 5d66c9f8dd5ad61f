/* The public shortest-path counts (boxbfs_sigma_*, boxbfs.h): options and
 * their checks, a handle over the centrality driver (sigma.c) in its
 * partitioned form, the double counts when a uint64 count overflows
 * (summed level by level, brandes_ref.c), and the check against the
 * sequential reference. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "centrality/centrality.h"
#include "common/error.h"
#include "graph/graph.h"

struct boxbfs_sigma {
    boxbfs_graph_t g;
    bb_centrality_t *c;
    boxbfs_sigma_report_t report;
    int64_t *link_bytes;          /* devices x devices, the last run's */
};

void boxbfs_sigma_options_init(boxbfs_sigma_options_t *opts)
{
    if (opts == NULL) return;
    memset(opts, 0, sizeof *opts);
    opts->backend = BOXBFS_BACKEND_CPU;
    opts->devices = 1;
    opts->algorithm = BOXBFS_SIGMA_FRONTIER;
    opts->spmv = BOXBFS_SPMV_CSC_VECTOR;
    opts->direction = BOXBFS_SEARCH_AUTO;
    opts->switch_density = 0.10;
}

const char *boxbfs_sigma_algorithm_name(boxbfs_sigma_algorithm_t v)
{
    return v == BOXBFS_SIGMA_FRONTIER || v == BOXBFS_SIGMA_SPMV
               ? bb_sigma_algorithm_name((bb_sigma_algorithm_t)v) : "?";
}

const char *boxbfs_spmv_name(boxbfs_spmv_t v) { return bb_spmv_name((bb_spmv_t)v); }

/* The public options into the driver's, checked (NULL: the defaults); the
 * driver checks the combinations. */
static boxbfs_status_t driver_options(const boxbfs_sigma_options_t *opts, bb_centrality_options_t *o)
{
    boxbfs_sigma_options_t defaults;
    if (opts == NULL) {
        boxbfs_sigma_options_init(&defaults);
        opts = &defaults;
    }
    if (opts->backend != BOXBFS_BACKEND_CPU && opts->backend != BOXBFS_BACKEND_CUDA)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "sigma: unknown backend %d", (int)opts->backend);
    if (opts->algorithm != BOXBFS_SIGMA_FRONTIER && opts->algorithm != BOXBFS_SIGMA_SPMV)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "sigma: unknown algorithm %d",
                            (int)opts->algorithm);
    if (opts->spmv < BOXBFS_SPMV_CSC_SCALAR || opts->spmv > BOXBFS_SPMV_COOC)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "sigma: unknown spmv variant %d", (int)opts->spmv);
    if (opts->direction < BOXBFS_SEARCH_AUTO || opts->direction > BOXBFS_SEARCH_BOTTOM_UP)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "sigma: unknown direction %d",
                            (int)opts->direction);
    if (!(opts->switch_density > 0 && opts->switch_density <= 1))
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "sigma: switch density %g: must be in (0, 1]",
                            opts->switch_density);
    memset(o, 0, sizeof *o);
    o->backend = opts->backend;
    o->devices = opts->devices;   /* the driver checks [1, 64] */
    o->algorithm = (bb_sigma_algorithm_t)opts->algorithm;
    o->spmv = (bb_spmv_t)opts->spmv;
    o->direction = opts->direction;
    o->switch_density = opts->switch_density;
    o->device_ids = opts->device_ids;   /* the driver checks them against the devices present */
    return BOXBFS_OK;
}

boxbfs_status_t boxbfs_sigma_create(boxbfs_graph_t graph, const boxbfs_sigma_options_t *opts,
                                    boxbfs_sigma_t *sigma_p)
{
    bb_centrality_options_t o;
    boxbfs_sigma_t s;
    boxbfs_status_t st;
    if (graph == NULL || sigma_p == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "sigma: %s is NULL",
                            graph == NULL ? "graph" : "sigma_p");
    BB_CHECK(driver_options(opts, &o));
    BB_CHECK(bb_calloc(1, sizeof *s, "the shortest-path counts handle", &s));
    s->g = graph;
    BB_CHECK_GOTO(bb_centrality_create(graph, &o, &s->c), st, fail);
    BB_CHECK_GOTO(bb_calloc((size_t)o.devices * (size_t)o.devices, sizeof *s->link_bytes,
                            "the link bytes", &s->link_bytes), st, fail);
    s->report.devices = o.devices;
    s->report.link_bytes = s->link_bytes;
    *sigma_p = s;
    return BOXBFS_OK;
fail:
    boxbfs_sigma_free(s);
    return st;
}

void boxbfs_sigma_free(boxbfs_sigma_t sigma)
{
    if (sigma == NULL) return;
    bb_centrality_free(sigma->c);
    free(sigma->link_bytes);
    free(sigma);
}

/* The driver's report into the public one. */
static void fill_report(boxbfs_sigma_t s, int64_t root, const bb_sigma_report_t *rep)
{
    boxbfs_sigma_report_t *p = &s->report;
    int nd = p->devices;
    p->root = root;
    p->time_s = rep->time_s;
    p->levels = rep->levels;
    p->bottom_up_levels = rep->bottom_up_levels;
    p->reached = rep->reached;
    p->input_edges = rep->input_edges;
    p->overflow = rep->overflow;
    p->pair_bytes = rep->traffic->phase_bytes[BOXBFS_PHASE_FRONTIER];
    p->size_bytes = rep->traffic->phase_bytes[BOXBFS_PHASE_SIZES];
    p->termination_bytes = rep->traffic->phase_bytes[BOXBFS_PHASE_TERMINATION];
    p->messages = bb_traffic_total_messages(rep->traffic);
    memcpy(s->link_bytes, rep->traffic->link_bytes, (size_t)nd * (size_t)nd * sizeof *s->link_bytes);
}

boxbfs_status_t boxbfs_sigma_run(boxbfs_sigma_t sigma, int64_t root, int32_t *level,
                                 uint64_t *counts, double *sigma_d,
                                 const boxbfs_sigma_report_t **report_p)
{
    int32_t *lv = level;
    uint64_t *cnt = counts;
    bb_sigma_report_t rep;
    boxbfs_status_t st = BOXBFS_OK;
    int64_t n;
    if (sigma == NULL) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "sigma: the handle is NULL");
    n = sigma->g->n;
    if (root < 0 || root >= n)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "sigma: root %lld out of range [0, %lld)",
                            (long long)root, (long long)n);
    /* the levels count the reached vertices; the counts feed sigma_d */
    if (lv == NULL) BB_CHECK_GOTO(bb_malloc((size_t)n * sizeof *lv, "the levels", &lv), st, out);
    if (cnt == NULL && sigma_d != NULL)
        BB_CHECK_GOTO(bb_malloc((size_t)n * sizeof *cnt, "the counts", &cnt), st, out);
    BB_CHECK_GOTO(bb_centrality_sigma(sigma->c, root, lv, cnt, &rep), st, out);
    if (sigma_d != NULL && rep.overflow)
        BB_CHECK_GOTO(bb_sigma_double_from_levels(sigma->g, root, lv, sigma_d), st, out);
    else if (sigma_d != NULL)
        for (int64_t v = 0; v < n; v++) sigma_d[v] = (double)cnt[v];
    fill_report(sigma, root, &rep);
    if (report_p) *report_p = &sigma->report;
out:
    if (lv != level) free(lv);
    if (cnt != counts) free(cnt);
    return st;
}

boxbfs_status_t boxbfs_sigma_validate(boxbfs_graph_t graph, int64_t root, const int32_t *level,
                                      const uint64_t *counts)
{
    int32_t *rl = NULL;
    uint64_t *rs = NULL;
    int overflow = 0;
    boxbfs_status_t st;
    if (graph == NULL || level == NULL || counts == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "sigma validate: %s is NULL",
                            graph == NULL ? "graph" : level == NULL ? "level" : "counts");
    BB_CHECK_GOTO(bb_malloc((size_t)graph->n * sizeof *rl, "the reference levels", &rl), st, out);
    BB_CHECK_GOTO(bb_malloc((size_t)graph->n * sizeof *rs, "the reference counts", &rs), st, out);
    BB_CHECK_GOTO(bb_ref_sigma(graph, root, rl, rs, NULL, &overflow), st, out);
    for (int64_t v = 0; v < graph->n; v++) {
        if (rl[v] == level[v] && (overflow || rs[v] == counts[v])) continue;
        st = bb_error_set(BOXBFS_ERR_VALIDATION,
                          "vertex %lld: level %d count %llu, the reference says level %d count %llu",
                          (long long)boxbfs_graph_external_id(graph, v), level[v],
                          (unsigned long long)counts[v], rl[v], (unsigned long long)rs[v]);
        break;
    }
out:
    free(rl);
    free(rs);
    return st;
}
