/* boxbfs_graph_relabel_by_degree: a copy of a graph with its vertices
 * numbered by decreasing degree (docs/architecture.md, "Vertex order by degree").
 *
 * In a Kronecker graph a few percent of the vertices are the ends of most
 * arcs (kron:22: the 2^19 of highest degree, 12 % of the vertices, are the
 * ends of 92 % of the arcs). Numbered first, their Visited and frontier
 * bits fill a few KiB that stay in every SM's L1, where a search probes
 * them once per arc; in the order as generated (ids scrambled) each probe
 * is an L2 request. With several stripes (one per device of the 1D
 * partition) degree rank r goes to stripe r % stripes: every stripe, a
 * contiguous range, holds about the same arcs, so the edge-balanced device
 * ranges fall near the stripe boundaries and each device holds its share of
 * the hubs at the start of its range. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/threads.h"
#include "graph/graph.h"

typedef struct {
    const struct boxbfs_graph *g;
    const int64_t *loaded, *relabeled;   /* the new order: new -> g's id, g's id -> new */
    const int64_t *off;                  /* the new rows */
    int64_t *cols;
} rows_job_t;

/* New row v: old row loaded[v] with every column renamed, sorted. */
static boxbfs_status_t fill_rows(int tid, int nthreads, void *arg)
{
    rows_job_t *job = arg;
    const struct boxbfs_graph *g = job->g;
    bb_sort_scratch_t scratch = {NULL, 0};
    int64_t r0, r1;
    bb_rows_of_thread(job->off, g->n, tid, nthreads, &r0, &r1);
    for (int64_t v = r0; v < r1; v++) {
        int64_t u = job->loaded[v], *row = job->cols + job->off[v];
        int64_t len = job->off[v + 1] - job->off[v];
        for (int64_t k = 0; k < len; k++) row[k] = job->relabeled[g->columns[g->offsets[u] + k]];
        bb_sort_row(row, len, &scratch);
    }
    bb_sort_scratch_free(&scratch);
    return BOXBFS_OK;
}

/* Degree of every vertex: out-arcs, plus in-arcs for a directed graph (a
 * search probes a vertex once per arc into it, and reads its frontier bit
 * once per arc out of it in a bottom-up step) whose every row is here (an
 * MPI rank's slice holds the offsets of all rows, the columns of its own). */
static boxbfs_status_t degrees(const struct boxbfs_graph *g, int64_t **deg_p, int64_t *max_p)
{
    int64_t *deg, max = 0;
    BB_CHECK(bb_calloc((size_t)g->n + 1, sizeof *deg, "vertex degrees", &deg));
    for (int64_t u = 0; u < g->n; u++) deg[u] = g->offsets[u + 1] - g->offsets[u];
    if (g->directed && !bb_graph_is_slice(g))
        for (int64_t k = 0; k < g->arcs; k++) deg[g->columns[k]]++;
    for (int64_t u = 0; u < g->n; u++)
        if (deg[u] > max) max = deg[u];
    *deg_p = deg;
    *max_p = max;
    return BOXBFS_OK;
}

/* by_degree[r], r in [0, n): the vertices by decreasing deg (deg[u] <= max),
 * ties by increasing id: a stable counting sort. */
static boxbfs_status_t order_by_degree(const int64_t *deg, int64_t n, int64_t max,
                                       int64_t *by_degree)
{
    int64_t *first;
    BB_CHECK(bb_calloc((size_t)max + 2, sizeof *first, "degree buckets", &first));
    for (int64_t u = 0; u < n; u++) first[max - deg[u] + 1]++;   /* bucket 0: degree max */
    for (int64_t b = 0; b <= max; b++) first[b + 1] += first[b];
    for (int64_t u = 0; u < n; u++) by_degree[first[max - deg[u]]++] = u;
    free(first);
    return BOXBFS_OK;
}

boxbfs_status_t bb_graph_degree_order(const struct boxbfs_graph *g, int64_t *by_degree)
{
    int64_t *deg, max;
    boxbfs_status_t st;
    BB_CHECK(degrees(g, &deg, &max));
    st = order_by_degree(deg, g->n, max, by_degree);
    free(deg);
    return st;
}

/* loaded[v] for every new id v: degree rank r (bb_graph_degree_order) becomes
 * vertex r / stripes of stripe r % stripes; stripe s holds
 * ceil((n - s) / stripes) vertices. by_degree: n entries of scratch. */
static boxbfs_status_t degree_order(const struct boxbfs_graph *g, int stripes, int64_t *by_degree,
                                    int64_t *loaded)
{
    int64_t n = g->n, per = n / stripes, extra = n % stripes;
    BB_CHECK(bb_graph_degree_order(g, by_degree));
    for (int64_t r = 0; r < n; r++) {
        int64_t s = r % stripes;
        loaded[s * per + (s < extra ? s : extra) + r / stripes] = by_degree[r];
    }
    return BOXBFS_OK;
}

boxbfs_status_t boxbfs_graph_relabel_by_degree(boxbfs_graph_t graph, int stripes,
                                               boxbfs_graph_t *relabeled_p)
{
    const struct boxbfs_graph *g = graph;
    struct boxbfs_graph *r;
    rows_job_t job;
    int64_t *inverse = NULL;
    boxbfs_status_t st;
    if (graph == NULL || relabeled_p == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "boxbfs_graph_relabel_by_degree: %s is NULL",
                            graph == NULL ? "graph" : "relabeled_p");
    if (stripes < 1)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "boxbfs_graph_relabel_by_degree: stripes %d must be >= 1", stripes);
    BB_CHECK(bb_graph_require_whole(g, "relabeling by degree"));
    BB_CHECK(bb_calloc(1, sizeof *r, "the relabeled graph", &r));
    r->n = g->n;
    r->arcs = g->arcs;
    r->input_edges = g->input_edges;
    r->directed = g->directed;
    r->row_hi = g->n;
    r->self_loops = g->self_loops;
    r->duplicate_arcs = g->duplicate_arcs;
    memcpy(r->name, g->name, sizeof r->name);
    BB_CHECK_GOTO(bb_graph_copy_ids(r, g), st, fail);
    free(r->loaded);   /* g's external ids are kept; the order is made below */
    free(r->relabeled);
    BB_CHECK_GOTO(bb_malloc((size_t)(g->n > 0 ? g->n : 1) * sizeof *r->loaded, "vertex order",
                            &r->loaded), st, fail);
    BB_CHECK_GOTO(bb_malloc((size_t)(g->n > 0 ? g->n : 1) * sizeof *r->relabeled, "vertex order",
                            &r->relabeled), st, fail);
    BB_CHECK_GOTO(bb_malloc((size_t)(g->n > 0 ? g->n : 1) * sizeof *inverse, "vertex order",
                            &inverse), st, fail);
    BB_CHECK_GOTO(degree_order(g, stripes, inverse, r->loaded), st, fail);   /* inverse: scratch */
    for (int64_t v = 0; v < g->n; v++) inverse[r->loaded[v]] = v;

    BB_CHECK_GOTO(bb_malloc(((size_t)g->n + 1) * sizeof *r->offsets, "CSR offsets", &r->offsets),
                  st, fail);
    if (g->edge_credit != NULL)   /* else the validator counts stored edges, as for g */
        BB_CHECK_GOTO(bb_malloc((size_t)(g->n > 0 ? g->n : 1) * sizeof *r->edge_credit,
                                "edge credits", &r->edge_credit), st, fail);
    r->offsets[0] = 0;
    for (int64_t v = 0; v < g->n; v++) {
        int64_t u = r->loaded[v];
        r->offsets[v + 1] = r->offsets[v] + g->offsets[u + 1] - g->offsets[u];
        if (r->edge_credit != NULL) r->edge_credit[v] = g->edge_credit[u];
    }
    BB_CHECK_GOTO(bb_malloc((size_t)(g->arcs > 0 ? g->arcs : 1) * sizeof *r->columns,
                            "CSR columns", &r->columns), st, fail);
    job.g = g;
    job.loaded = r->loaded;
    job.relabeled = inverse;
    job.off = r->offsets;
    job.cols = r->columns;
    BB_CHECK_GOTO(bb_parallel_run(bb_cpu_count(), fill_rows, &job), st, fail);

    /* against the order as loaded: through graph's own order, if any */
    if (g->loaded != NULL)
        for (int64_t v = 0; v < g->n; v++) r->loaded[v] = g->loaded[r->loaded[v]];
    for (int64_t v = 0; v < g->n; v++) r->relabeled[r->loaded[v]] = v;
    free(inverse);
    *relabeled_p = r;
    return BOXBFS_OK;
fail:
    free(inverse);
    boxbfs_graph_free(r);
    return st;
}
