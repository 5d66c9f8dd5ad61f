/* The visited-prefix skip's setup on the host (kernels.h rank_rows, README
 * "Visited-prefix skip"): the vertices ranked by decreasing degree with a
 * counting sort (stable, so ties keep increasing ids), then every row sorted
 * by its heads' ranks, rows split over the host's threads. */
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
    int64_t lo, hi, *keys;
    bb_split_range((int64_t)(k->hi - k->lo), tid, nthreads, &lo, &hi);
    BB_CHECK(bb_calloc((size_t)job->widest + 1, sizeof *keys, "a row's rank keys", &keys));
    for (int64_t u = lo; u < hi; u++) {
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
    uint64_t n = k->n, *start;
    uint32_t *rank = (uint32_t *)k->rank, *by_rank = (uint32_t *)k->by_rank;
    rank_job_t job = {k, 0};
    (void)stream;
    (void)offsets;   /* k->offsets are host memory here */
    if (k->ndev != 1 || k->hi - k->lo != n)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "rank_rows: one device holding every row only");
    for (uint64_t v = 0; v < n; v++) {
        int64_t d = k->offsets[v + 1] - k->offsets[v];
        if (d > job.widest) job.widest = d;
    }
    /* start[w]: the first rank of the vertices of degree widest - w */
    BB_CHECK(bb_calloc((size_t)job.widest + 2, sizeof *start, "the degree counts", &start));
    for (uint64_t v = 0; v < n; v++) start[job.widest - (k->offsets[v + 1] - k->offsets[v]) + 1]++;
    for (int64_t w = 0; w <= job.widest; w++) start[w + 1] += start[w];
    for (uint64_t v = 0; v < n; v++) {
        uint64_t r = start[job.widest - (k->offsets[v + 1] - k->offsets[v])]++;
        rank[v] = (uint32_t)r;
        by_rank[r] = (uint32_t)v;
    }
    free(start);
    return bb_parallel_run(bb_cpu_count(), sort_rows, &job);
}
