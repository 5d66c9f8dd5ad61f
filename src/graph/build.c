/* The CSR builder: the one place where CSR rows are made. bb_rows_build makes
 * rows [lo, hi) from the arcs of an edge list whose source lies in the range
 * (an MPI rank's slice); bb_graph_build is the whole graph, lo = 0, hi = n.
 * Parallel counting sort over pthreads: count arcs per row (atomics), prefix
 * sum, scatter into the rows, then sort and deduplicate every row; self-loops
 * are dropped, duplicates merged, and every input edge is credited to its
 * source for Graph500 TEPS (DESIGN.md "Validation and measurement"). */
#include "config.h"

#include "graph/graph.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/search.h"
#include "common/threads.h"

/* Below this many edges + vertices one thread does everything. */
#define BUILD_SERIAL_BELOW 65536
#define INSERTION_SORT_BELOW 24
/* Edges whose column slots scatter_arcs takes before it writes them. */
#define SCATTER_BATCH 64
/* Rows this long or longer sort by radix (bb_sort_row), 11 bits a pass. */
#define RADIX_SORT_FROM 64
#define RADIX_BITS 11
#define RADIX_BUCKETS (1 << RADIX_BITS)

typedef struct {
    const int64_t *src, *dst;
    int64_t n, m;            /* ids are in [0, n) */
    int64_t lo, nrows;       /* rows lo .. lo + nrows - 1 are built; off etc. index row - lo */
    int directed;
    int atomic;              /* more than one thread: counters need atomics */
    int64_t *off;            /* nrows + 1: counts, then row ends, then row starts */
    int64_t *credit;         /* nrows: input edges per source vertex */
    int64_t *cols;           /* raw arcs (self-loops included), before deduplication */
    int64_t raw_arcs;
    int64_t *newdeg;         /* nrows: row lengths after deduplication */
    int64_t *bad_edge;       /* per thread: first edge with an id out of range, -1 if none */
    int64_t *loops;          /* per thread: self-loops seen */
    int64_t *sums;           /* per thread: block sums of the prefix scan */
} build_job_t;

static inline int64_t fetch_add(int64_t *p, int64_t x, int atomic)
{
    int64_t old;
    if (atomic) return __atomic_fetch_add(p, x, __ATOMIC_RELAXED);
    old = *p;
    *p = old + x;
    return old;
}

/* Pass 1 over the edges: check ids, count arcs per row (an arc whose source
 * row is not built is skipped: unsigned u - lo wraps past nrows). A self-loop
 * (u, u) takes a slot in row u until the row pass (which credits and drops it). */
static boxbfs_status_t count_arcs(int tid, int nthreads, void *arg)
{
    build_job_t *job = arg;
    const uint64_t n = (uint64_t)job->n, rows = (uint64_t)job->nrows, base = (uint64_t)job->lo;
    int64_t lo, hi, loops = 0;
    bb_split_range(job->m, tid, nthreads, &lo, &hi);
    job->bad_edge[tid] = -1;
    for (int64_t k = lo; k < hi; k++) {
        int64_t u = job->src[k], v = job->dst[k];
        uint64_t ru = (uint64_t)u - base, rv = (uint64_t)v - base;
        if ((uint64_t)u >= n || (uint64_t)v >= n) {   /* negative ids wrap to huge */
            job->bad_edge[tid] = k;
            break;
        }
        if (ru < rows) {
            loops += u == v;
            fetch_add(&job->off[ru], 1, job->atomic);
        }
        if (!job->directed && u != v && rv < rows) fetch_add(&job->off[rv], 1, job->atomic);
    }
    job->loops[tid] = loops;
    return BOXBFS_OK;
}

/* Prefix scan of the counts in off[0, nrows), two passes around a serial scan of
 * the per-thread block sums: off[i] becomes the end of row i. */
static boxbfs_status_t scan_local(int tid, int nthreads, void *arg)
{
    build_job_t *job = arg;
    int64_t lo, hi, sum = 0;
    bb_split_range(job->nrows, tid, nthreads, &lo, &hi);
    for (int64_t i = lo; i < hi; i++) {
        sum += job->off[i];
        job->off[i] = sum;
    }
    job->sums[tid] = sum;
    return BOXBFS_OK;
}

static boxbfs_status_t scan_add(int tid, int nthreads, void *arg)
{
    build_job_t *job = arg;
    int64_t lo, hi, base = job->sums[tid];   /* exclusive block prefix by now */
    if (base == 0) return BOXBFS_OK;
    bb_split_range(job->nrows, tid, nthreads, &lo, &hi);
    for (int64_t i = lo; i < hi; i++) job->off[i] += base;
    return BOXBFS_OK;
}

/* Pass 2 over the edges: fill each row from its end; afterwards off[i] is the
 * start of row i. The order inside a row depends on the threads' timing, so
 * the rows are sorted next. The reverse arc of an undirected edge is stored
 * complemented (~u < 0), so that the row pass can count the edges whose
 * source is the row's vertex (their Graph500 credit) without atomics here.
 * The slots of SCATTER_BATCH edges are taken first, then written: an atomic
 * waits for the stores before it, so a store into the columns (a miss, far
 * from the last) between two atomics would make every edge wait for memory;
 * a batch's stores overlap instead. */
static boxbfs_status_t scatter_arcs(int tid, int nthreads, void *arg)
{
    build_job_t *job = arg;
    const uint64_t rows = (uint64_t)job->nrows, base = (uint64_t)job->lo;
    int64_t lo, hi, slot[2 * SCATTER_BATCH], value[2 * SCATTER_BATCH];
    bb_split_range(job->m, tid, nthreads, &lo, &hi);
    for (int64_t k0 = lo; k0 < hi; k0 += SCATTER_BATCH) {
        int64_t k1 = hi - k0 < SCATTER_BATCH ? hi : k0 + SCATTER_BATCH, taken = 0;
        for (int64_t k = k0; k < k1; k++) {
            int64_t u = job->src[k], v = job->dst[k];
            uint64_t ru = (uint64_t)u - base, rv = (uint64_t)v - base;
            if (ru < rows) {
                slot[taken] = fetch_add(&job->off[ru], -1, job->atomic) - 1;
                value[taken++] = v;
            }
            if (!job->directed && u != v && rv < rows) {
                slot[taken] = fetch_add(&job->off[rv], -1, job->atomic) - 1;
                value[taken++] = ~u;
            }
        }
        for (int64_t i = 0; i < taken; i++) job->cols[slot[i]] = value[i];
    }
    return BOXBFS_OK;
}

static void insertion_sort(int64_t *a, int64_t len)
{
    for (int64_t i = 1; i < len; i++) {
        int64_t x = a[i], j = i;
        while (j > 0 && a[j - 1] > x) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = x;
    }
}

static void sift_down(int64_t *a, int64_t root, int64_t len)
{
    int64_t x = a[root];
    for (;;) {
        int64_t child = 2 * root + 1;
        if (child >= len) break;
        if (child + 1 < len && a[child + 1] > a[child]) child++;
        if (a[child] <= x) break;
        a[root] = a[child];
        root = child;
    }
    a[root] = x;
}

static void heap_sort(int64_t *a, int64_t len)
{
    for (int64_t i = len / 2 - 1; i >= 0; i--) sift_down(a, i, len);
    for (int64_t end = len - 1; end > 0; end--) {
        int64_t t = a[0];
        a[0] = a[end];
        a[end] = t;
        sift_down(a, 0, end);
    }
}

/* Introsort: Hoare quicksort with a median-of-three pivot, recursing on the
 * smaller side, heap sort past the depth limit, insertion sort for short
 * ranges. Rows of a Kronecker graph hold many equal ids; Hoare's scheme
 * splits runs of equal keys evenly. */
static void intro_sort(int64_t *a, int64_t len, int depth)
{
    while (len > INSERTION_SORT_BELOW) {
        int64_t mid = len / 2, i = -1, j = len, pivot, t;
        if (depth-- == 0) {
            heap_sort(a, len);
            return;
        }
        if (a[mid] < a[0]) { t = a[mid]; a[mid] = a[0]; a[0] = t; }
        if (a[len - 1] < a[0]) { t = a[len - 1]; a[len - 1] = a[0]; a[0] = t; }
        if (a[len - 1] < a[mid]) { t = a[len - 1]; a[len - 1] = a[mid]; a[mid] = t; }
        pivot = a[mid];
        for (;;) {
            do i++; while (a[i] < pivot);
            do j--; while (a[j] > pivot);
            if (i >= j) break;
            t = a[i]; a[i] = a[j]; a[j] = t;
        }
        /* [0, j] <= pivot <= [j + 1, len), both sides non-empty */
        if (j + 1 < len - (j + 1)) {
            intro_sort(a, j + 1, depth);
            a += j + 1;
            len -= j + 1;
        } else {
            intro_sort(a + j + 1, len - (j + 1), depth);
            len = j + 1;
        }
    }
    insertion_sort(a, len);
}

/* LSD radix sort of len non-negative ids below 2^bits through tmp (len
 * entries), RADIX_BITS at a time; a digit that every id shares is skipped. */
static void radix_sort(int64_t *a, int64_t *tmp, int64_t len, int bits)
{
    int64_t *src = a, *dst = tmp;
    for (int shift = 0; shift < bits; shift += RADIX_BITS) {
        int64_t first[RADIX_BUCKETS + 1] = {0};
        for (int64_t i = 0; i < len; i++) first[((src[i] >> shift) & (RADIX_BUCKETS - 1)) + 1]++;
        if (first[((src[0] >> shift) & (RADIX_BUCKETS - 1)) + 1] == len) continue;
        for (int b = 0; b < RADIX_BUCKETS; b++) first[b + 1] += first[b];
        for (int64_t i = 0; i < len; i++)
            dst[first[(src[i] >> shift) & (RADIX_BUCKETS - 1)]++] = src[i];
        int64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != a) memcpy(a, src, (size_t)len * sizeof *a);
}

/* Whether scratch holds len entries, grown to them where it was smaller. */
static int scratch_holds(bb_sort_scratch_t *scratch, int64_t len)
{
    if (scratch->cap < len) {
        int64_t *grown = realloc(scratch->buf, (size_t)len * sizeof *grown);
        if (grown == NULL) return 0;
        scratch->buf = grown;
        scratch->cap = len;
    }
    return 1;
}

/* Rows of RADIX_SORT_FROM non-negative ids or more (a Kronecker graph's
 * hubs hold most of its arcs) by radix, O(len) a digit; shorter rows, or
 * where the scratch cannot grow, by introsort. */
void bb_sort_row(int64_t *a, int64_t len, bb_sort_scratch_t *scratch)
{
    int depth = 0, bits = 0;
    int64_t min = 0, max = 0;
    if (len >= RADIX_SORT_FROM) {
        for (int64_t i = 0; i < len; i++) {
            if (a[i] < min) min = a[i];
            if (a[i] > max) max = a[i];
        }
        while (bits < 63 && (max >> bits) != 0) bits++;
        if (min >= 0 && scratch_holds(scratch, len)) {
            radix_sort(a, scratch->buf, len, bits);
            return;
        }
    }
    for (int64_t l = len; l > 1; l >>= 1) depth += 2;
    intro_sort(a, len, depth);
}

void bb_sort_scratch_free(bb_sort_scratch_t *scratch)
{
    free(scratch->buf);
    scratch->buf = NULL;
    scratch->cap = 0;
}

/* Per row: credit the forward entries, decode the reverse ones, sort, drop
 * duplicates and the self-loop. Threads take row ranges holding about the
 * same number of raw arcs. */
void bb_rows_of_thread(const int64_t *off, int64_t nrows, int tid, int nthreads, int64_t *r0_p,
                       int64_t *r1_p)
{
    int64_t arcs = off[nrows];   /* thread t starts at the row of arc t x arcs / nthreads */
    *r0_p = tid == 0 ? 0
                     : bb_lower_bound_i64(off, 0, nrows,
                                          arcs / nthreads * tid + arcs % nthreads * tid / nthreads);
    *r1_p = tid == nthreads - 1
                ? nrows
                : bb_lower_bound_i64(off, 0, nrows,
                                     arcs / nthreads * (tid + 1) +
                                         arcs % nthreads * (tid + 1) / nthreads);
}

static boxbfs_status_t sort_rows(int tid, int nthreads, void *arg)
{
    build_job_t *job = arg;
    bb_sort_scratch_t scratch = {NULL, 0};
    int64_t r0, r1;
    bb_rows_of_thread(job->off, job->nrows, tid, nthreads, &r0, &r1);
    for (int64_t r = r0; r < r1; r++) {
        int64_t *a = job->cols + job->off[r], self = job->lo + r;
        int64_t len = job->off[r + 1] - job->off[r], fwd = 0, k = 0;
        for (int64_t i = 0; i < len; i++) {
            if (a[i] >= 0) fwd++;
            else a[i] = ~a[i];
        }
        job->credit[r] = fwd;
        bb_sort_row(a, len, &scratch);
        for (int64_t i = 0; i < len; i++)
            if (a[i] != self && (k == 0 || a[i] != a[k - 1])) a[k++] = a[i];
        job->newdeg[r] = k;
    }
    bb_sort_scratch_free(&scratch);
    return BOXBFS_OK;
}


boxbfs_status_t bb_rows_build(bb_edges_t *edges, int64_t lo, int64_t hi, int directed, int threads,
                              bb_rows_t *rows_p)
{
    boxbfs_status_t st = BOXBFS_OK;
    build_job_t job;
    int64_t n, m, nrows, loops = 0, arcs, pos, sum;
    int64_t *shrunk;

    memset(&job, 0, sizeof job);
    if (edges == NULL || rows_p == NULL)
        BB_FAIL_GOTO(st, BOXBFS_ERR_INVALID_ARG, out_free, "graph build: %s is NULL",
                     edges == NULL ? "edge list" : "rows output");
    n = edges->n;
    m = edges->count;
    if (n <= 0)
        BB_FAIL_GOTO(st, BOXBFS_ERR_INVALID_ARG, out_free,
                     "graph build: vertex count %lld must be positive", (long long)n);
    if (lo < 0 || lo > hi || hi > n)
        BB_FAIL_GOTO(st, BOXBFS_ERR_INVALID_ARG, out_free,
                     "graph build: rows [%lld, %lld) are not a range of [0, %lld)", (long long)lo,
                     (long long)hi, (long long)n);
    if (m < 0 || (m > 0 && (edges->src == NULL || edges->dst == NULL)))
        BB_FAIL_GOTO(st, BOXBFS_ERR_INVALID_ARG, out_free, "graph build: malformed edge list");
    if (m > INT64_MAX / 2 || (uint64_t)n >= SIZE_MAX / sizeof(int64_t) ||
        (uint64_t)m >= SIZE_MAX / (2 * sizeof(int64_t)))
        BB_FAIL_GOTO(st, BOXBFS_ERR_NO_MEMORY, out_free,
                     "graph build: %lld vertices and %lld edges do not fit in memory",
                     (long long)n, (long long)m);
    nrows = hi - lo;
    if (threads <= 0) threads = bb_cpu_count();
    if (m + nrows < BUILD_SERIAL_BELOW) threads = 1;
    if (threads > 1024) threads = 1024;

    job.src = edges->src;
    job.dst = edges->dst;
    job.n = n;
    job.m = m;
    job.lo = lo;
    job.nrows = nrows;
    job.directed = directed != 0;
    job.atomic = threads > 1;
    BB_CHECK_GOTO(bb_calloc((size_t)threads, 3 * sizeof(int64_t), "builder thread state",
                            &job.bad_edge), st, out_free);
    job.loops = job.bad_edge + threads;
    job.sums = job.loops + threads;
    BB_CHECK_GOTO(bb_calloc((size_t)nrows + 1, sizeof(int64_t), "CSR offsets", &job.off), st,
                  out_free);

    BB_CHECK_GOTO(bb_parallel_run(threads, count_arcs, &job), st, out_free);
    for (int t = 0; t < threads; t++) {
        if (job.bad_edge[t] >= 0) {   /* chunks are in edge order: the first is the earliest */
            int64_t k = job.bad_edge[t], u = edges->src[k];
            int64_t bad = (u < 0 || u >= n) ? u : edges->dst[k];
            BB_FAIL_GOTO(st, BOXBFS_ERR_INVALID_ARG, out_free,
                         "edge %lld: vertex %lld out of range [0, %lld)", (long long)k,
                         (long long)bad, (long long)n);
        }
        loops += job.loops[t];
    }

    BB_CHECK_GOTO(bb_parallel_run(threads, scan_local, &job), st, out_free);
    sum = 0;
    for (int t = 0; t < threads; t++) {
        int64_t s = job.sums[t];
        job.sums[t] = sum;
        sum += s;
    }
    BB_CHECK_GOTO(bb_parallel_run(threads, scan_add, &job), st, out_free);
    job.raw_arcs = sum;
    job.off[nrows] = sum;

    BB_CHECK_GOTO(bb_malloc((size_t)job.raw_arcs * sizeof(int64_t), "CSR columns", &job.cols), st,
                  out_free);
    BB_CHECK_GOTO(bb_parallel_run(threads, scatter_arcs, &job), st, out_free);
    bb_edges_free(edges);   /* consumed: release it before the row pass */
    job.src = job.dst = NULL;

    BB_CHECK_GOTO(bb_malloc((size_t)nrows * sizeof(int64_t), "row lengths", &job.newdeg), st,
                  out_free);
    BB_CHECK_GOTO(bb_malloc((size_t)nrows * sizeof(int64_t), "edge credits", &job.credit), st,
                  out_free);
    BB_CHECK_GOTO(bb_parallel_run(threads, sort_rows, &job), st, out_free);

    /* Compact the deduplicated rows in place, left to right: a row only ever
     * moves left, onto space already read. off[r] is read before it is
     * overwritten with the new start. */
    pos = 0;
    for (int64_t r = 0; r < nrows; r++) {
        int64_t start = job.off[r], len = job.newdeg[r];
        if (pos != start) memmove(job.cols + pos, job.cols + start, (size_t)len * sizeof(int64_t));
        job.off[r] = pos;
        pos += len;
    }
    job.off[nrows] = pos;
    arcs = pos;
    if (arcs < job.raw_arcs) {
        shrunk = realloc(job.cols, (size_t)(arcs ? arcs : 1) * sizeof(int64_t));
        if (shrunk != NULL) job.cols = shrunk;   /* else keep the larger block */
    }

    rows_p->lo = lo;
    rows_p->hi = hi;
    rows_p->offsets = job.off;
    rows_p->columns = job.cols;
    rows_p->edge_credit = job.credit;
    rows_p->self_loops = loops;
    rows_p->duplicate_arcs = job.raw_arcs - loops - arcs;
    job.off = job.cols = job.credit = NULL;

out_free:
    free(job.newdeg);
    free(job.cols);
    free(job.credit);
    free(job.off);
    free(job.bad_edge);
    if (edges != NULL) bb_edges_free(edges);
    return st;
}

void bb_rows_free(bb_rows_t *rows)
{
    if (rows == NULL) return;
    free(rows->offsets);
    free(rows->columns);
    free(rows->edge_credit);
    rows->offsets = rows->columns = rows->edge_credit = NULL;
}

boxbfs_status_t bb_graph_build(bb_edges_t *edges, int directed, int threads, int64_t *external,
                               int64_t id_base, const char *name, boxbfs_graph_t *graph_p)
{
    boxbfs_status_t st = BOXBFS_OK;
    boxbfs_graph_t g = NULL;
    bb_rows_t rows;
    int64_t n, m;

    memset(&rows, 0, sizeof rows);
    if (edges == NULL || graph_p == NULL) {
        st = bb_error_set(BOXBFS_ERR_INVALID_ARG, "graph build: %s is NULL",
                          edges == NULL ? "edge list" : "graph output");
        if (edges != NULL) bb_edges_free(edges);
        goto out_free;
    }
    n = edges->n;
    m = edges->count;
    BB_CHECK_GOTO(bb_rows_build(edges, 0, n > 0 ? n : 0, directed, threads, &rows), st, out_free);
    BB_CHECK_GOTO(bb_calloc(1, sizeof *g, "graph", &g), st, out_free);
    g->n = n;
    g->arcs = rows.offsets[n];
    g->input_edges = m;
    g->directed = directed != 0;
    g->offsets = rows.offsets;
    g->columns = rows.columns;
    g->edge_credit = rows.edge_credit;
    g->row_lo = 0;
    g->row_hi = n;
    g->columns_base = 0;
    g->external = external;
    g->id_base = id_base;
    g->self_loops = rows.self_loops;
    g->duplicate_arcs = rows.duplicate_arcs;
    snprintf(g->name, sizeof g->name, "%s", name != NULL ? name : "");
    memset(&rows, 0, sizeof rows);
    external = NULL;
    *graph_p = g;

out_free:
    bb_rows_free(&rows);
    free(external);   /* adopted: released on failure too */
    return st;
}
