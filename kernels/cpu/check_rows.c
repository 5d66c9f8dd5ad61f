/* kernels.h check_rows on the host: a device's rows against a search's
 * tree, the rows split over threads in contiguous slices, so the first
 * vertex that breaks a rule is the first slice's that has one. */
#include "config.h"

#include "common/error.h"
#include "common/threads.h"
#include "kernels/cpu/cpu_kernels.h"

typedef struct {
    const bb_kstate_t *k;
    const int32_t *level;
    const int64_t *parent;
    int64_t root;
    int32_t max_depth;
    uint64_t first[64];   /* per thread */
} check_job_t;

/* Row vertex u (local row r) breaks R2, R4, R5 or R7. */
static int breaks(const check_job_t *job, uint64_t r)
{
    const bb_kstate_t *k = job->k;
    const int64_t *offsets = (const int64_t *)k->offsets;
    const uint32_t *columns = (const uint32_t *)k->columns;
    const int64_t u = (int64_t)(k->lo + r), p = job->parent[r];
    const int32_t lu = job->level[u];
    if (lu < 0) return 0;   /* unreached: its parent and level the host's rules check */
    if (job->max_depth >= 0 && lu > job->max_depth) return 1;
    const int arcs_checked = job->max_depth < 0 || lu < job->max_depth;
    const uint32_t limit = (uint32_t)lu + 1u;
    int found = u == job->root;
    for (int64_t j = offsets[r]; j < offsets[r + 1]; j++) {
        const uint32_t w = columns[j];
        found |= (int64_t)w == p;
        if (arcs_checked && (uint32_t)job->level[w] > limit) return 1;
    }
    return !found;
}

static boxbfs_status_t check_slice(int tid, int nthreads, void *arg)
{
    check_job_t *job = arg;
    int64_t lo, hi;
    bb_split_range((int64_t)(job->k->hi - job->k->lo), tid, nthreads, &lo, &hi);
    job->first[tid] = UINT64_MAX;
    for (int64_t r = lo; r < hi; r++)
        if (breaks(job, (uint64_t)r)) {
            job->first[tid] = job->k->lo + (uint64_t)r;
            break;
        }
    return BOXBFS_OK;
}

boxbfs_status_t bb_cpu_check_rows(const bb_kstate_t *k, void *stream, const int32_t *level,
                                  const int64_t *parent, int64_t root, int32_t max_depth,
                                  uint64_t *first_p)
{
    check_job_t job = {k, level, parent, root, max_depth, {0}};
    const uint64_t rows = k->hi - k->lo;
    int nthreads = (int)(rows / 65536 + 1), cpus = bb_cpu_count();
    (void)stream;
    if (nthreads > cpus) nthreads = cpus;
    if (nthreads > 64) nthreads = 64;
    BB_CHECK(bb_parallel_run(nthreads, check_slice, &job));
    *first_p = UINT64_MAX;
    for (int t = 0; t < nthreads && *first_p == UINT64_MAX; t++) *first_p = job.first[t];
    return BOXBFS_OK;
}
