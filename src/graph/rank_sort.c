/* Every row of a CSR with its heads in the order of their ranks (the
 * visited-prefix skip's rows: kernels/cpu/rank_rows.c for 1D, the 2D
 * engine's blocks), the rows split over the host's threads by arcs. */
#include "config.h"

#include <stdlib.h>

#include "common/error.h"
#include "common/threads.h"
#include "graph/graph.h"

typedef struct {
    const int64_t *offsets;
    uint32_t *columns;
    int64_t rows, widest;   /* widest: the longest row, each thread's key buffer */
    const uint32_t *rank, *by_rank;
} rank_sort_job_t;

static boxbfs_status_t sort_rows(int tid, int nthreads, void *arg)
{
    const rank_sort_job_t *job = arg;
    bb_sort_scratch_t scratch = {NULL, 0};
    int64_t r0, r1, *keys;
    bb_rows_of_thread(job->offsets, job->rows, tid, nthreads, &r0, &r1);
    BB_CHECK(bb_calloc((size_t)job->widest + 1, sizeof *keys, "a row's rank keys", &keys));
    for (int64_t u = r0; u < r1; u++) {
        int64_t b = job->offsets[u], len = job->offsets[u + 1] - b;
        for (int64_t j = 0; j < len; j++) keys[j] = job->rank[job->columns[b + j]];
        bb_sort_row(keys, len, &scratch);
        for (int64_t j = 0; j < len; j++) job->columns[b + j] = job->by_rank[keys[j]];
    }
    bb_sort_scratch_free(&scratch);
    free(keys);
    return BOXBFS_OK;
}

boxbfs_status_t bb_rows_by_rank(const int64_t *offsets, uint32_t *columns, int64_t rows,
                                const uint32_t *rank, const uint32_t *by_rank)
{
    rank_sort_job_t job = {offsets, columns, rows, 0, rank, by_rank};
    for (int64_t u = 0; u < rows; u++)
        if (offsets[u + 1] - offsets[u] > job.widest) job.widest = offsets[u + 1] - offsets[u];
    return bb_parallel_run(bb_cpu_count(), sort_rows, &job);
}
