/* The visited-prefix skip's setup on the host (kernels.h rank_rows, README
 * "Visited-prefix skip"): the engine's degree order becomes by_rank and its
 * inverse rank, then every row of this device is sorted by its heads'
 * ranks, the rows split over the host's threads by arcs. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

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
    bb_sort_scratch_t scratch = {NULL, 0};
    int64_t r0, r1, *keys;
    bb_rows_of_thread(k->offsets, (int64_t)(k->hi - k->lo), tid, nthreads, &r0, &r1);
    BB_CHECK(bb_calloc((size_t)job->widest + 1, sizeof *keys, "a row's rank keys", &keys));
    for (int64_t u = r0; u < r1; u++) {
        int64_t b = k->offsets[u], len = k->offsets[u + 1] - b;
        for (int64_t j = 0; j < len; j++) keys[j] = k->rank[columns[b + j]];
        bb_sort_row(keys, len, &scratch);
        for (int64_t j = 0; j < len; j++) columns[b + j] = k->by_rank[keys[j]];
    }
    bb_sort_scratch_free(&scratch);
    free(keys);
    return BOXBFS_OK;
}

boxbfs_status_t bb_cpu_rank_rows(const bb_kstate_t *k, void *stream, const int64_t *offsets,
                                 const uint32_t *order)
{
    uint32_t *rank = (uint32_t *)k->rank;
    rank_job_t job = {k, 0};
    (void)stream;
    (void)offsets;   /* k->offsets are host memory here */
    memcpy((uint32_t *)k->by_rank, order, (size_t)k->n * 4);
    for (uint64_t r = 0; r < k->n; r++) rank[order[r]] = (uint32_t)r;
    for (uint64_t u = 0; u < k->hi - k->lo; u++) {
        int64_t len = k->offsets[u + 1] - k->offsets[u];
        if (len > job.widest) job.widest = len;
    }
    return bb_parallel_run(bb_cpu_count(), sort_rows, &job);
}
