/* An MPI rank's slice of a graph (boxbfs_load_options_t.mpi_slice): the
 * columns of the rows [lo, hi) that bb_partition_by_edges gives this rank of
 * MPI_COMM_WORLD on the whole graph (the engine's partition, so the traffic
 * is that of a single process), with the whole graph's offsets and edge
 * credits. kron: takes two passes, because the partition depends on the
 * deduplicated degrees: (a) build the rows of an equal vertex range and
 * allgather their degrees and credits, (b) partition and build the final
 * rows. A .bbcsr file is read by range (io/binary.c). Every rank returns the
 * same status: one that failed makes the others fail too, none hangs. */
#include "config.h"

#include "graph/graph.h"

#include <inttypes.h>
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/mpi_init.h"
#include "common/timer.h"
#include "engine/partition.h"
#include "io/io.h"

typedef struct {
    MPI_Comm comm;
    int rank, size;
} world_t;

/* After this rank's step ended with st: OK when every rank's did, else st
 * here and, elsewhere, the status of the lowest failing rank. */
static boxbfs_status_t agree(const world_t *w, boxbfs_status_t st, const char *spec)
{
    boxbfs_status_t status;
    int first = bb_mpi_first_failure(w->comm, st, &status, NULL, 0);
    if (first < 0) return BOXBFS_OK;
    if (st != BOXBFS_OK) return st;
    return bb_error_set(status,
                        "%s: rank %d failed to load its slice (its message is on its stderr)",
                        spec, first);
}

/* This rank's rows of the engine's partition over all ranks. */
static boxbfs_status_t rank_rows(const world_t *w, const int64_t *offsets, int64_t n,
                                 int64_t *lo_p, int64_t *hi_p)
{
    bb_partition_t part;
    BB_CHECK(bb_partition_by_edges(offsets, n, w->size, &part));
    *lo_p = (int64_t)part.lo[w->rank];
    *hi_p = (int64_t)part.lo[w->rank + 1];
    bb_partition_free(&part);
    return BOXBFS_OK;
}

static boxbfs_status_t pick_rows(const int64_t *offsets, int64_t n, void *arg, int64_t *lo_p,
                                 int64_t *hi_p)
{
    return rank_rows(arg, offsets, n, lo_p, hi_p);
}

/* Pass (a): the rows [r n / P, (r + 1) n / P) of every rank r make the whole
 * graph's offsets (n + 1) and edge credits (n), and its dropped self-loops
 * and duplicates. */
static boxbfs_status_t global_rows(const world_t *w, const char *spec, int scale, int edgefactor,
                                   uint64_t seed, int directed, int threads, int64_t n,
                                   int64_t *offsets, int64_t *credit, int64_t dropped[2])
{
    boxbfs_status_t st;
    bb_rows_t rows;
    int *counts = NULL, *displs = NULL;
    int64_t lo = n * w->rank / w->size, hi = n * (w->rank + 1) / w->size;

    memset(&rows, 0, sizeof rows);
    st = bb_calloc((size_t)w->size, sizeof *counts, "slice row counts", &counts);
    if (st == BOXBFS_OK) st = bb_calloc((size_t)w->size, sizeof *displs, "slice row offsets", &displs);
    if (st == BOXBFS_OK) st = bb_kron_rows(scale, edgefactor, seed, directed, threads, lo, hi, &rows);
    BB_CHECK_GOTO(agree(w, st, spec), st, out);
    for (int r = 0; r < w->size; r++) {
        counts[r] = (int)(n * (r + 1) / w->size - n * r / w->size);
        displs[r] = (int)(n * r / w->size);
    }
    /* degree of v into offsets[v + 1], then the prefix sum */
    for (int64_t v = lo; v < hi; v++) offsets[v + 1] = rows.offsets[v - lo + 1] - rows.offsets[v - lo];
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, offsets + 1, counts, displs, MPI_INT64_T,
                   w->comm);
    offsets[0] = 0;
    for (int64_t v = 0; v < n; v++) offsets[v + 1] += offsets[v];
    memcpy(credit + lo, rows.edge_credit, (size_t)(hi - lo) * sizeof *credit);
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, credit, counts, displs, MPI_INT64_T,
                   w->comm);
    dropped[0] = rows.self_loops;
    dropped[1] = rows.duplicate_arcs;
    MPI_Allreduce(MPI_IN_PLACE, dropped, 2, MPI_INT64_T, MPI_SUM, w->comm);
out:
    bb_rows_free(&rows);
    free(counts);
    free(displs);
    return st;
}

/* Pass (b): this rank's final rows, which must be the rows that pass (a)
 * described. */
static boxbfs_status_t final_rows(const world_t *w, int scale, int edgefactor, uint64_t seed,
                                  int directed, int threads, int64_t n, const int64_t *offsets,
                                  const int64_t *credit, bb_rows_t *rows_p)
{
    int64_t lo, hi;
    BB_CHECK(rank_rows(w, offsets, n, &lo, &hi));
    BB_CHECK(bb_kron_rows(scale, edgefactor, seed, directed, threads, lo, hi, rows_p));
    for (int64_t v = lo; v < hi; v++) {
        int64_t deg = rows_p->offsets[v - lo + 1] - rows_p->offsets[v - lo];
        if (deg != offsets[v + 1] - offsets[v] || rows_p->edge_credit[v - lo] != credit[v]) {
            boxbfs_status_t st = bb_error_set(
                BOXBFS_ERR_INTERNAL,
                "kron slice: vertex %lld has %lld arcs and credit %lld in its final row, but "
                "%lld and %lld when the degrees were gathered", (long long)v, (long long)deg,
                (long long)rows_p->edge_credit[v - lo], (long long)(offsets[v + 1] - offsets[v]),
                (long long)credit[v]);
            bb_rows_free(rows_p);
            return st;
        }
    }
    return BOXBFS_OK;
}

static boxbfs_status_t load_kron(const world_t *w, const char *spec, int directed, int threads,
                                 boxbfs_graph_t *graph_p)
{
    boxbfs_status_t st = BOXBFS_OK;
    boxbfs_graph_t g = NULL;
    bb_rows_t rows;
    int scale, edgefactor;
    uint64_t seed;
    int64_t n, m, dropped[2];
    int64_t *offsets = NULL, *credit = NULL;
    double t0;

    memset(&rows, 0, sizeof rows);
    /* the same on every rank: no agreement needed before the first collective */
    BB_CHECK(bb_kron_parse(spec, &scale, &edgefactor, &seed));
    BB_CHECK(bb_kron_sizes(scale, edgefactor, &n, &m));
    if (n > INT_MAX)   /* MPI counts and displacements are int */
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "%s: per-rank slices of graphs of 2^31 or more vertices are not "
                            "supported (use --whole-graph)", spec);
    st = bb_malloc((size_t)(n + 1) * sizeof *offsets, "CSR offsets", &offsets);
    if (st == BOXBFS_OK) st = bb_malloc((size_t)n * sizeof *credit, "edge credits", &credit);
    BB_CHECK_GOTO(agree(w, st, spec), st, out);
    t0 = bb_now_s();
    BB_CHECK_GOTO(global_rows(w, spec, scale, edgefactor, seed, directed, threads, n, offsets,
                              credit, dropped), st, out);
    BB_INFO(-1, "%s: rank %d: pass (a), degrees of %lld rows generated and allgathered in %.3f s",
            spec, w->rank, (long long)(n / w->size), bb_now_s() - t0);
    t0 = bb_now_s();
    st = final_rows(w, scale, edgefactor, seed, directed, threads, n, offsets, credit, &rows);
    if (st == BOXBFS_OK)
        BB_INFO(-1, "%s: rank %d: pass (b), rows [%lld, %lld) generated in %.3f s", spec, w->rank,
                (long long)rows.lo, (long long)rows.hi, bb_now_s() - t0);
    if (st == BOXBFS_OK) st = bb_calloc(1, sizeof *g, "graph", &g);
    BB_CHECK_GOTO(agree(w, st, spec), st, out);
    g->n = n;
    g->arcs = offsets[n];
    g->input_edges = m;
    g->directed = directed != 0;
    g->offsets = offsets;
    g->columns = rows.columns;
    g->edge_credit = credit;
    g->row_lo = rows.lo;
    g->row_hi = rows.hi;
    g->columns_base = offsets[rows.lo];
    g->self_loops = dropped[0];
    g->duplicate_arcs = dropped[1];
    snprintf(g->name, sizeof g->name, "kron:%d:%d:%" PRIu64, scale, edgefactor, seed);
    rows.columns = NULL;
    offsets = credit = NULL;
    *graph_p = g;
    g = NULL;
out:
    free(g);
    bb_rows_free(&rows);
    free(offsets);
    free(credit);
    return st;
}

boxbfs_status_t bb_graph_load_slice(const char *spec, int directed, int threads,
                                    boxbfs_graph_t *graph_p)
{
    boxbfs_status_t st;
    world_t w;
    BB_CHECK(bb_mpi_init());
    MPI_Comm_dup(MPI_COMM_WORLD, &w.comm);
    MPI_Comm_rank(w.comm, &w.rank);
    MPI_Comm_size(w.comm, &w.size);
    if (strncmp(spec, "kron:", 5) == 0) {
        st = load_kron(&w, spec, directed, threads, graph_p);
    } else {
        boxbfs_graph_t g = NULL;
        st = agree(&w, bb_io_load_binary_rows(spec, pick_rows, &w, &g), spec);
        if (st == BOXBFS_OK) *graph_p = g;
        else boxbfs_graph_free(g);
    }
    MPI_Comm_free(&w.comm);
    return st;
}
