/* An MPI rank's slice of a graph (boxbfs_load_options_t.mpi_slice): the
 * columns of the rows [lo, hi) that bb_partition_by_edges gives this rank of
 * MPI_COMM_WORLD on the whole graph (the engine's partition, so the traffic
 * is that of a single process), with the whole graph's offsets and edge
 * credits. kron: the partition depends on the deduplicated degrees, so (a)
 * every rank generates 1/P of the edges and sends each edge to the ranks
 * whose equal vertex range holds an end of it (the generator runs once over
 * all ranks, not once per rank), builds the rows of its equal range and
 * allgathers their degrees and credits; (b) the ranks partition and pass the
 * built rows on to the ranks whose final range holds them. Where MPI's int
 * counts would not hold a rank's share, every rank generates every edge
 * twice instead (bb_kron_rows for each range). A .bbcsr file is read by range
 * (io/binary.c). Every rank returns the same status: one that failed makes
 * the others fail too, none hangs. */
#include "config.h"

#include "graph/graph.h"

#include <inttypes.h>
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* The rank whose equal vertex range [r n / P, (r + 1) n / P) holds v. */
static int equal_owner(int64_t v, int64_t n, int size)
{
    int r = (int)((__int128)v * size / n);
    while (r > 0 && v < n * r / size) r--;
    while (r + 1 < size && v >= n * (r + 1) / size) r++;
    return r;
}

/* Pass (a), generation: this rank's 1/P of the edge list, each edge sent to
 * the rank of its source's equal range and (undirected) of its target's;
 * *kept_p gets every edge with an end in this rank's equal range, the edges
 * that bb_kron_rows would keep for it. 1 in *fits_p, or 0 (nothing done)
 * when the counts would not fit MPI's int. */
static boxbfs_status_t spread_edges(const world_t *w, int scale, int edgefactor, uint64_t seed,
                                    int directed, int threads, int64_t n, int64_t m,
                                    bb_edges_t *kept_p, int *fits_p)
{
    enum { CHUNK = 1 << 20 };
    boxbfs_status_t st = BOXBFS_OK;
    int64_t first = m * w->rank / w->size, last = m * (w->rank + 1) / w->size;
    int P = w->size;
    bb_edges_t chunk, *dest = NULL;
    int *scount = NULL, *rcount = NULL, *sdispl = NULL, *rdispl = NULL;
    int64_t *sbuf = NULL, total = 0;
    memset(&chunk, 0, sizeof chunk);
    memset(kept_p, 0, sizeof *kept_p);
    *fits_p = 2 * (m / P + 1) + 64 <= INT_MAX;   /* the same verdict on every rank */
    if (!*fits_p) return BOXBFS_OK;
    st = bb_calloc((size_t)P, sizeof *dest, "edges per rank", &dest);
    if (st == BOXBFS_OK) st = bb_edges_init(&chunk, CHUNK);
    for (int r = 0; r < P && st == BOXBFS_OK; r++)
        st = bb_edges_init(&dest[r], (last - first) * (directed ? 1 : 2) / P + 16);
    for (int64_t at = first; at < last && st == BOXBFS_OK; at += CHUNK) {
        int64_t count = last - at < CHUNK ? last - at : CHUNK;
        st = bb_kron_generate_range(scale, edgefactor, seed, threads, at, count, &chunk);
        for (int64_t i = 0; i < count && st == BOXBFS_OK; i++) {
            int64_t u = chunk.src[i], v = chunk.dst[i];
            int ru = equal_owner(u, n, P), rv = directed ? ru : equal_owner(v, n, P);
            st = bb_edges_push(&dest[ru], u, v);
            if (st == BOXBFS_OK && rv != ru) st = bb_edges_push(&dest[rv], u, v);
        }
    }
    bb_edges_free(&chunk);
    if (st == BOXBFS_OK) st = bb_calloc((size_t)P * 4, sizeof *scount, "exchange counts", &scount);
    if (st == BOXBFS_OK) {
        rcount = scount + P;
        sdispl = scount + 2 * P;
        rdispl = scount + 3 * P;
        for (int r = 0; r < P; r++) {
            sdispl[r] = (int)total;
            scount[r] = (int)dest[r].count;
            total += dest[r].count;
        }
        st = bb_malloc((size_t)(total > 0 ? total : 1) * sizeof *sbuf, "edges to send", &sbuf);
    }
    BB_CHECK_GOTO(agree(w, st, "kron"), st, out);
    MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, w->comm);
    total = 0;
    for (int r = 0; r < P; r++) {
        rdispl[r] = (int)total;
        total += rcount[r];
    }
    st = total > INT_MAX ? bb_error_set(BOXBFS_ERR_UNSUPPORTED, "kron: rank %d would receive "
                                        "%lld edges, more than MPI's int counts hold (use "
                                        "--whole-graph)", w->rank, (long long)total)
                         : bb_edges_init(kept_p, total > 0 ? total : 1);
    BB_CHECK_GOTO(agree(w, st, "kron"), st, out);
    for (int end = 0; end < 2; end++) {   /* sources, then targets */
        for (int r = 0; r < P; r++)
            memcpy(sbuf + sdispl[r], end ? dest[r].dst : dest[r].src,
                   (size_t)dest[r].count * sizeof *sbuf);
        MPI_Alltoallv(sbuf, scount, sdispl, MPI_INT64_T, end ? kept_p->dst : kept_p->src,
                      rcount, rdispl, MPI_INT64_T, w->comm);
    }
    kept_p->count = total;
    kept_p->n = n;
out:
    for (int r = 0; dest != NULL && r < P; r++) bb_edges_free(&dest[r]);
    free(dest);
    free(scount);
    free(sbuf);
    if (st != BOXBFS_OK) bb_edges_free(kept_p);
    return st;
}

/* Pass (a): the rows [r n / P, (r + 1) n / P) of every rank r make the whole
 * graph's offsets (n + 1) and edge credits (n), and its dropped self-loops
 * and duplicates. rows_p gets this rank's equal-range rows when the edges
 * were spread (*spread_p = 1), else is left empty. */
static boxbfs_status_t global_rows(const world_t *w, const char *spec, int scale, int edgefactor,
                                   uint64_t seed, int directed, int threads, int64_t n, int64_t m,
                                   int64_t *offsets, int64_t *credit, int64_t dropped[2],
                                   bb_rows_t *rows_p, int *spread_p)
{
    boxbfs_status_t st;
    bb_rows_t rows;
    bb_edges_t kept;
    int *counts = NULL, *displs = NULL;
    int64_t lo = n * w->rank / w->size, hi = n * (w->rank + 1) / w->size;

    memset(&rows, 0, sizeof rows);
    st = spread_edges(w, scale, edgefactor, seed, directed, threads, n, m, &kept, spread_p);
    if (st != BOXBFS_OK) return st;   /* agreed */
    st = bb_calloc((size_t)w->size, sizeof *counts, "slice row counts", &counts);
    if (st == BOXBFS_OK) st = bb_calloc((size_t)w->size, sizeof *displs, "slice row offsets", &displs);
    if (st == BOXBFS_OK && *spread_p) st = bb_rows_build(&kept, lo, hi, directed, threads, &rows);
    else if (st == BOXBFS_OK) st = bb_kron_rows(scale, edgefactor, seed, directed, threads, lo, hi, &rows);
    if (*spread_p) bb_edges_free(&kept);   /* consumed by bb_rows_build, or not built */
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
    if (*spread_p) {
        *rows_p = rows;
        memset(&rows, 0, sizeof rows);
    }
out:
    bb_rows_free(&rows);
    free(counts);
    free(displs);
    return st;
}

/* Pass (b) after spreading: the equal-range rows each rank built go to the
 * ranks whose final range holds them (every rank knows every range and
 * degree, so the counts need no message); the offsets and credits are the
 * gathered ones. eq is consumed. */
static boxbfs_status_t pass_rows(const world_t *w, int64_t n, const int64_t *offsets,
                                 const int64_t *credit, bb_rows_t *eq, bb_rows_t *rows_p)
{
    boxbfs_status_t st;
    bb_partition_t part;
    int P = w->size;
    int *c = NULL;   /* scount, sdispl, rcount, rdispl */
    bb_rows_t rows;
    int64_t lo = 0, hi = 0;
    memset(&rows, 0, sizeof rows);
    memset(&part, 0, sizeof part);
    st = bb_partition_by_edges(offsets, n, P, &part);
    if (st == BOXBFS_OK) st = bb_calloc((size_t)P * 4, sizeof *c, "row exchange counts", &c);
    if (st == BOXBFS_OK) {
        lo = (int64_t)part.lo[w->rank];
        hi = (int64_t)part.lo[w->rank + 1];
        rows.lo = lo;
        rows.hi = hi;
        if (offsets[hi] - offsets[lo] > INT_MAX)
            st = bb_error_set(BOXBFS_ERR_UNSUPPORTED, "kron: rank %d's %lld arcs are more than "
                              "MPI's int counts hold (use --whole-graph)", w->rank,
                              (long long)(offsets[hi] - offsets[lo]));
    }
    if (st == BOXBFS_OK) st = bb_malloc((size_t)(hi - lo + 1) * 8, "CSR offsets of the slice", &rows.offsets);
    if (st == BOXBFS_OK) st = bb_malloc((size_t)(hi - lo > 0 ? hi - lo : 1) * 8, "edge credits of the slice", &rows.edge_credit);
    if (st == BOXBFS_OK)
        st = bb_malloc((size_t)(offsets[hi] - offsets[lo] > 0 ? offsets[hi] - offsets[lo] : 1) * 8,
                       "CSR columns of the slice", &rows.columns);
    BB_CHECK_GOTO(agree(w, st, "kron"), st, out);
    for (int r = 0; r < P; r++) {
        /* rows this rank holds for r (send) and r holds for this rank (receive) */
        int64_t a = eq->lo > (int64_t)part.lo[r] ? eq->lo : (int64_t)part.lo[r];
        int64_t b = eq->hi < (int64_t)part.lo[r + 1] ? eq->hi : (int64_t)part.lo[r + 1];
        int64_t rlo = n * r / P, rhi = n * (r + 1) / P;
        int64_t ra = rlo > lo ? rlo : lo, rb = rhi < hi ? rhi : hi;
        c[r] = a < b ? (int)(offsets[b] - offsets[a]) : 0;
        c[P + r] = a < b ? (int)(offsets[a] - offsets[eq->lo]) : 0;
        c[2 * P + r] = ra < rb ? (int)(offsets[rb] - offsets[ra]) : 0;
        c[3 * P + r] = ra < rb ? (int)(offsets[ra] - offsets[lo]) : 0;
    }
    MPI_Alltoallv(eq->columns, c, c + P, MPI_INT64_T, rows.columns, c + 2 * P, c + 3 * P,
                  MPI_INT64_T, w->comm);
    for (int64_t v = lo; v <= hi; v++) rows.offsets[v - lo] = offsets[v] - offsets[lo];
    memcpy(rows.edge_credit, credit + lo, (size_t)(hi - lo) * sizeof *credit);
    *rows_p = rows;
    memset(&rows, 0, sizeof rows);
out:
    bb_rows_free(&rows);
    bb_rows_free(eq);
    bb_partition_free(&part);
    free(c);
    return st;
}

/* Pass (b) without spreading: this rank's final rows generated again, which
 * must be the rows that pass (a) described. */
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
    bb_rows_t eq;
    int spread = 0;

    memset(&rows, 0, sizeof rows);
    memset(&eq, 0, sizeof eq);
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
    BB_CHECK_GOTO(global_rows(w, spec, scale, edgefactor, seed, directed, threads, n, m, offsets,
                              credit, dropped, &eq, &spread), st, out);
    BB_INFO(-1, "%s: rank %d: pass (a), %s, %lld rows built, degrees allgathered in %.3f s",
            spec, w->rank, spread ? "1/P of the edges generated and spread" : "every edge generated",
            (long long)(n / w->size), bb_now_s() - t0);
    t0 = bb_now_s();
    if (spread) st = pass_rows(w, n, offsets, credit, &eq, &rows);
    else st = final_rows(w, scale, edgefactor, seed, directed, threads, n, offsets, credit, &rows);
    if (st == BOXBFS_OK)
        BB_INFO(-1, "%s: rank %d: pass (b), rows [%lld, %lld) %s in %.3f s", spec, w->rank,
                (long long)rows.lo, (long long)rows.hi, spread ? "passed on" : "generated",
                bb_now_s() - t0);
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
    bb_rows_free(&eq);
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
    if (threads <= 0) {   /* all CPUs of the host, shared by its ranks */
        MPI_Comm host;
        int local = 1;
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        MPI_Comm_split_type(w.comm, MPI_COMM_TYPE_SHARED, w.rank, MPI_INFO_NULL, &host);
        MPI_Comm_size(host, &local);
        MPI_Comm_free(&host);
        threads = cpus > local ? (int)(cpus / local) : 1;
    }
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
