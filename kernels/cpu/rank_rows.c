/* The visited-prefix skip's setup on the host (kernels.h rank_rows, README
 * "Visited-prefix skip"): the vertices ranked by decreasing degree
 * (bb_order_by_degree, relabel's order: ties keep increasing ids), then
 * every row sorted by its heads' ranks, the rows split over the host's
 * threads by arcs. */
#include "config.h"

#include <stdlib.h>

#include "common/error.h"
#include "common/threads.h"
#include "graph/graph.h"
#include "kernels/cpu/cpu_kernels.h"

typedef struct {
    const bb_kstate_t *k;
    int64_t widest;   /* the longest row: each thread's key buffer */
} rank_job_t;

static boxbfs_status_t sort_rows(int tid, int nthreads, void *arg)
{
    const rank_job_t *job = arg;
    const bb_kstate_t *k = job->k;
    uint32_t *columns = (uint32_t *)k->columns;
    int64_t r0, r1, *keys;
    bb_rows_of_thread(k->offsets, (int64_t)(k->hi - k->lo), tid, nthreads, &r0, &r1);
    BB_CHECK(bb_calloc((size_t)job->widest + 1, sizeof *keys, "a row's rank keys", &keys));
    for (int64_t u = r0; u < r1; u++) {
        int64_t b = k->offsets[u], len = k->offsets[u + 1] - b;
        for (int64_t j = 0; j < len; j++) keys[j] = k->rank[columns[b + j]];
        bb_sort_row(keys, len);
        for (int64_t j = 0; j < len; j++) columns[b + j] = k->by_rank[keys[j]];
    }
    free(keys);
    return BOXBFS_OK;
}

boxbfs_status_t bb_cpu_rank_rows(const bb_kstate_t *k, void *stream, const int64_t *offsets)
{
    const int64_t n = (int64_t)k->n;
    uint32_t *rank = (uint32_t *)k->rank, *by_rank = (uint32_t *)k->by_rank;
    int64_t *deg, *order;
    rank_job_t job = {k, 0};
    boxbfs_status_t st;
    (void)stream;
    (void)offsets;   /* k->offsets are host memory here */
    if (k->ndev != 1 || k->hi - k->lo != k->n)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "rank_rows: one device holding every row only");
    BB_CHECK(bb_calloc((size_t)n + 1, sizeof *deg, "vertex degrees", &deg));
    st = bb_calloc((size_t)n + 1, sizeof *order, "the degree order", &order);
    for (int64_t v = 0; v < n && st == BOXBFS_OK; v++) {
        deg[v] = k->offsets[v + 1] - k->offsets[v];
        if (deg[v] > job.widest) job.widest = deg[v];
    }
    if (st == BOXBFS_OK) st = bb_order_by_degree(deg, n, job.widest, order);
    for (int64_t r = 0; r < n && st == BOXBFS_OK; r++) {
        by_rank[r] = (uint32_t)order[r];
        rank[order[r]] = (uint32_t)r;
    }
    free(order);
    free(deg);
    BB_CHECK(st);
    return bb_parallel_run(bb_cpu_count(), sort_rows, &job);
}
