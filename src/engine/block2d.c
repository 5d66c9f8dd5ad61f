/* One device's block of the adjacency matrix for the 2D engine (README "2D
 * partition"), built on the host's cores: at kron:26 a grid column holds
 * half a billion arcs or more, and two single-threaded passes over them took
 * longer than the searches. Threads take equal shares of the column's rows;
 * a first pass counts each row's arcs into the block, a scan of the per-thread
 * sums gives each share its start, and a second pass writes the columns. */
#include "config.h"

#include "engine/block2d.h"

#include <stdlib.h>

#include "common/error.h"
#include "common/threads.h"

typedef struct {
    const bb_block2d_spec_t *s;
    uint64_t rows;                      /* local ids of the CSR's rows */
    int64_t *off;                       /* rows + 1: counts, then offsets */
    uint32_t *col;
    uint64_t *start;                    /* per thread: arcs before its share, then its count */
} block_job_t;

/* The gid of row `local` of the block's CSR (n or past: no such vertex). */
static uint64_t source_gid(const bb_block2d_spec_t *s, uint64_t local)
{
    uint64_t R = (uint64_t)s->R, bs = s->bs;
    if (!s->transposed) return (uint64_t)s->col * R * bs + local;
    return ((local / bs) * R + (uint64_t)s->row) * bs + local % bs;   /* a row-local id */
}

/* Whether the arc's other end v is in the block, and its local id there:
 * row-local (the top-down block) or column-local (transposed). */
static int target_local(const bb_block2d_spec_t *s, uint64_t v, uint32_t *local)
{
    uint64_t R = (uint64_t)s->R, bs = s->bs, b = v / bs;
    if (s->transposed) {
        if (b / R != (uint64_t)s->col) return 0;
        *local = (uint32_t)(v - (uint64_t)s->col * R * bs);
        return 1;
    }
    if (b % R != (uint64_t)s->row) return 0;
    *local = (uint32_t)((b / R) * bs + v % bs);
    return 1;
}

static boxbfs_status_t count_rows(int tid, int nthreads, void *arg)
{
    block_job_t *j = arg;
    const bb_block2d_spec_t *s = j->s;
    int64_t lo, hi;
    uint64_t sum = 0;
    uint32_t local;
    bb_split_range((int64_t)j->rows, tid, nthreads, &lo, &hi);
    for (int64_t u = lo; u < hi; u++) {
        uint64_t gu = source_gid(s, (uint64_t)u);
        if (gu >= s->n) continue;
        for (int64_t a = s->offsets[gu]; a < s->offsets[gu + 1]; a++)
            sum += (uint64_t)target_local(s, (uint64_t)s->columns[a], &local);
    }
    j->start[tid] = sum;
    return BOXBFS_OK;
}

static boxbfs_status_t fill_rows(int tid, int nthreads, void *arg)
{
    block_job_t *j = arg;
    const bb_block2d_spec_t *s = j->s;
    int64_t lo, hi;
    uint64_t t = j->start[tid];
    uint32_t local;
    bb_split_range((int64_t)j->rows, tid, nthreads, &lo, &hi);
    for (int64_t u = lo; u < hi; u++) {
        uint64_t gu = source_gid(s, (uint64_t)u);
        for (int64_t a = gu < s->n ? s->offsets[gu] : 0; gu < s->n && a < s->offsets[gu + 1]; a++)
            if (target_local(s, (uint64_t)s->columns[a], &local)) j->col[t++] = local;
        j->off[u + 1] = (int64_t)t;
    }
    return BOXBFS_OK;
}

boxbfs_status_t bb_block2d_build(const bb_block2d_spec_t *spec, int d, int64_t **off_p,
                                 uint32_t **col_p, uint64_t *arcs_p)
{
    uint64_t arcs = 0;
    int threads = bb_cpu_count();
    block_job_t j = {spec, (uint64_t)(spec->transposed ? spec->C : spec->R) * spec->bs, NULL,
                     NULL, NULL};
    boxbfs_status_t st = BOXBFS_OK;
    if ((int64_t)j.rows < threads) threads = j.rows > 0 ? (int)j.rows : 1;
    BB_CHECK(bb_calloc((size_t)threads, sizeof *j.start, "the block builder's thread sums",
                       &j.start));
    BB_CHECK_GOTO(bb_malloc((size_t)(j.rows + 1) * 8, "a 2D block's offsets", &j.off), st, out);
    BB_CHECK_GOTO(bb_parallel_run(threads, count_rows, &j), st, out);
    for (int t = 0; t < threads; t++) {   /* exclusive scan of the shares' counts */
        uint64_t c = j.start[t];
        j.start[t] = arcs;
        arcs += c;
    }
    if (arcs >> 32)
        BB_FAIL_GOTO(st, BOXBFS_ERR_UNSUPPORTED, out,
                     "device %d's block holds %llu arcs; at most 2^32 per device: use more "
                     "devices", d, (unsigned long long)arcs);
    BB_CHECK_GOTO(bb_malloc((size_t)(arcs ? arcs : 1) * 4, "a 2D block's columns", &j.col), st,
                  out);
    j.off[0] = 0;
    BB_CHECK_GOTO(bb_parallel_run(threads, fill_rows, &j), st, out);
    *off_p = j.off;
    *col_p = j.col;
    *arcs_p = arcs;
    j.off = NULL;
    j.col = NULL;
out:
    free(j.start);
    free(j.off);
    free(j.col);
    return st;
}
