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
    const int64_t *offsets, *columns;   /* the whole graph's CSR */
    uint64_t first, rows;               /* the column's existing rows: first .. first + rows */
    uint64_t bs, R;
    uint64_t row;                       /* the device's grid row */
    int64_t *off;                       /* rows_ids + 1: counts, then offsets */
    uint32_t *col;
    uint64_t *start;                    /* per thread: arcs before its share, then its count */
} block_job_t;

static int in_row(const block_job_t *j, uint64_t v) { return (v / j->bs) % j->R == j->row; }

/* v's id among the grid row's vertices: (its block's index in the row) x bs + v % bs */
static uint32_t row_local(const block_job_t *j, uint64_t v)
{
    uint64_t b = v / j->bs;
    return (uint32_t)((b / j->R) * j->bs + v % j->bs);
}

static boxbfs_status_t count_rows(int tid, int nthreads, void *arg)
{
    block_job_t *j = arg;
    int64_t lo, hi;
    uint64_t sum = 0;
    bb_split_range((int64_t)j->rows, tid, nthreads, &lo, &hi);
    for (int64_t u = lo; u < hi; u++) {
        uint64_t gu = j->first + (uint64_t)u, c = 0;
        for (int64_t a = j->offsets[gu]; a < j->offsets[gu + 1]; a++)
            c += (uint64_t)in_row(j, (uint64_t)j->columns[a]);
        sum += c;
    }
    j->start[tid] = sum;
    return BOXBFS_OK;
}

static boxbfs_status_t fill_rows(int tid, int nthreads, void *arg)
{
    block_job_t *j = arg;
    int64_t lo, hi;
    uint64_t t = j->start[tid];
    bb_split_range((int64_t)j->rows, tid, nthreads, &lo, &hi);
    for (int64_t u = lo; u < hi; u++) {
        uint64_t gu = j->first + (uint64_t)u;
        for (int64_t a = j->offsets[gu]; a < j->offsets[gu + 1]; a++) {
            uint64_t v = (uint64_t)j->columns[a];
            if (in_row(j, v)) j->col[t++] = row_local(j, v);
        }
        j->off[u + 1] = (int64_t)t;
    }
    return BOXBFS_OK;
}

boxbfs_status_t bb_block2d_build(const struct boxbfs_graph *g, uint64_t first, uint64_t rows_ids,
                                 uint64_t bs, int R, int row, int d, int64_t **off_p,
                                 uint32_t **col_p, uint64_t *arcs_p)
{
    uint64_t n = (uint64_t)g->n, arcs = 0;
    int threads = bb_cpu_count();
    block_job_t j = {g->offsets, g->columns, first, first < n ? n - first : 0, bs, (uint64_t)R,
                     (uint64_t)row, NULL, NULL, NULL};
    boxbfs_status_t st = BOXBFS_OK;
    if (j.rows > rows_ids) j.rows = rows_ids;
    if ((int64_t)j.rows < threads) threads = j.rows > 0 ? (int)j.rows : 1;
    BB_CHECK(bb_calloc((size_t)threads, sizeof *j.start, "the block builder's thread sums",
                       &j.start));
    BB_CHECK_GOTO(bb_malloc((size_t)(rows_ids + 1) * 8, "a 2D block's offsets", &j.off), st, out);
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
    for (uint64_t u = j.rows; u < rows_ids; u++) j.off[u + 1] = (int64_t)arcs;   /* past n */
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
