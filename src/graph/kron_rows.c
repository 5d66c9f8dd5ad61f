/* The generator's rows [lo, hi) in bounded memory (an MPI rank's slice,
 * slice_mpi.c): every edge is generated, one chunk at a time (edge k depends
 * only on the seed and k, kron.c), the edges with an end in the range are
 * kept, and bb_rows_build makes exactly the rows the whole graph has there.
 * Memory: one chunk plus the kept edges, never the whole edge list. */
#include "config.h"

#include "graph/graph.h"

#include <stdint.h>
#include <string.h>

#include "common/error.h"

#define CHUNK_EDGES ((int64_t)1 << 20)

boxbfs_status_t bb_kron_rows(int scale, int edgefactor, uint64_t seed, int directed, int threads,
                             int64_t lo, int64_t hi, bb_rows_t *rows_p)
{
    boxbfs_status_t st = BOXBFS_OK;
    bb_edges_t chunk, kept;
    int64_t n, m, guess;
    const uint64_t nrows = (uint64_t)(hi - lo);

    memset(&chunk, 0, sizeof chunk);
    memset(&kept, 0, sizeof kept);
    BB_CHECK(bb_kron_sizes(scale, edgefactor, &n, &m));
    if (lo < 0 || lo > hi || hi > n)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "kron: rows [%lld, %lld) are not a range of "
                            "[0, %lld)", (long long)lo, (long long)hi, (long long)n);
    /* the range's share of the arcs if degrees were even; the list grows past it */
    guess = (int64_t)((double)m * (directed ? 1.0 : 2.0) * (double)nrows / (double)n) + 16;
    BB_CHECK_GOTO(bb_edges_init(&chunk, m < CHUNK_EDGES ? m : CHUNK_EDGES), st, out);
    BB_CHECK_GOTO(bb_edges_init(&kept, guess), st, out);
    kept.n = n;
    for (int64_t first = 0; first < m; first += CHUNK_EDGES) {
        int64_t count = m - first < CHUNK_EDGES ? m - first : CHUNK_EDGES;
        BB_CHECK_GOTO(bb_kron_generate_range(scale, edgefactor, seed, threads, first, count,
                                             &chunk), st, out);
        for (int64_t i = 0; i < count; i++) {
            int64_t u = chunk.src[i], v = chunk.dst[i];
            /* unsigned: ids below lo wrap past nrows */
            if ((uint64_t)(u - lo) < nrows || (!directed && (uint64_t)(v - lo) < nrows))
                BB_CHECK_GOTO(bb_edges_push(&kept, u, v), st, out);
        }
    }
    bb_edges_free(&chunk);
    return bb_rows_build(&kept, lo, hi, directed, threads, rows_p);   /* consumes kept */
out:
    bb_edges_free(&chunk);
    bb_edges_free(&kept);
    return st;
}
