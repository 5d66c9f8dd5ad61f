/* Internal graph representation: CSR with 64-bit offsets and column ids
 * (DESIGN.md "Data model"), plus what TEPS and id mapping need. Builders,
 * loaders and the generator produce a bb_edges_t and hand it to
 * bb_graph_build() (or, for a slice, bb_rows_build()), the one place where
 * CSR rows are made. A graph may be a slice: the columns of rows [row_lo,
 * row_hi) only, everything else global (an MPI rank's share). */
#ifndef BB_GRAPH_H
#define BB_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "boxbfs.h"

/* A growable edge list of internal ids in [0, n). */
typedef struct {
    int64_t n;
    int64_t count, capacity;
    int64_t *src, *dst;
} bb_edges_t;

boxbfs_status_t bb_edges_init(bb_edges_t *edges, int64_t capacity);
boxbfs_status_t bb_edges_push(bb_edges_t *edges, int64_t src, int64_t dst);
void bb_edges_free(bb_edges_t *edges);

struct boxbfs_graph {
    int64_t n;              /* vertices */
    int64_t arcs;           /* stored arcs of the whole graph */
    int64_t input_edges;    /* edges as read, duplicates and self-loops included */
    int directed;
    int64_t *offsets;       /* n + 1, of the whole graph */
    /* Each adjacency list sorted ascending (but where columns32), no
     * duplicates. Only rows [row_lo,
     * row_hi) are held: the arcs of row v are columns[offsets[v] -
     * columns_base .. offsets[v + 1] - columns_base), columns_base =
     * offsets[row_lo]. A whole graph: 0, n, 0. */
    int64_t *columns;
    int64_t row_lo, row_hi, columns_base;
    /* Graph500 TEPS counts input edges inside the traversed component. Each
     * input edge (u, v) is credited to u (for undirected graphs u and v share a
     * component), so the count for a search is the sum of edge_credit over the
     * reached vertices. */
    int64_t *edge_credit;   /* n */
    /* External ids: external[i] when external != NULL (sorted ascending, as
     * SNAP ids with gaps), else i + id_base (1 for Matrix Market, 0 otherwise). */
    int64_t *external;
    int64_t id_base;
    /* Vertex order (boxbfs_graph_relabel_by_degree): vertex v is vertex
     * loaded[v] of the graph as loaded, to which the external ids above
     * belong, and vertex u of that graph is relabeled[u] here. NULL: as
     * loaded. */
    int64_t *loaded, *relabeled;
    int64_t self_loops, duplicate_arcs;   /* dropped while building */
    /* A Kronecker graph built on the devices (boxbfs_load_options_t
     * build_on_devices): no columns here (a slice of no rows), its offsets
     * and credits zero until an engine's devices built their rows and
     * filled them (engine/device_build.c); the generator's parameters. */
    int on_devices;
    /* A band of such a graph read back for validation: its columns as the
     * devices hold them, 32-bit, the rows in the devices' order (columns
     * NULL; bfs/validate.c scans the rows instead of searching them). */
    const uint32_t *columns32;
    int kron_scale, kron_edgefactor;
    uint64_t kron_seed;
    char name[256];
    /* When arrays point into a mapped binary file, the mapping to release. */
    void *mapping;
    size_t mapping_bytes;
};

/* 1 when graph holds the columns of some rows only (an MPI rank's slice). */
static inline int bb_graph_is_slice(const struct boxbfs_graph *g)
{
    return g->row_lo != 0 || g->row_hi != g->n;
}
/* OK for a whole graph; for a slice UNSUPPORTED with a message saying that
 * what (e.g. "the reference BFS") needs the whole graph. */
boxbfs_status_t bb_graph_require_whole(const struct boxbfs_graph *g, const char *what);
/* OK when every one of count sources is a vertex of g and none comes twice;
 * else INVALID_ARG, the message starting "what: source ..." and naming it. */
boxbfs_status_t bb_graph_check_sources(const struct boxbfs_graph *g, const int64_t *sources,
                                       int64_t count, const char *what);

/* CSR rows [lo, hi) of a graph of n vertices, as bb_rows_build makes them. */
typedef struct {
    int64_t lo, hi;
    int64_t *offsets;       /* hi - lo + 1, offsets[0] = 0 */
    int64_t *columns;       /* offsets[hi - lo]: global ids, rows sorted, no duplicates */
    int64_t *edge_credit;   /* hi - lo: input edges whose source is the row's vertex */
    int64_t self_loops, duplicate_arcs;   /* dropped from these rows */
} bb_rows_t;

/* Rows [lo, hi) of the CSR of edges (consumed: freed on return, success or
 * not): exactly the rows bb_graph_build makes for those vertices, from the
 * arcs whose source is in the range (directed = 0: both arcs of an edge).
 * Every id is checked against [0, edges->n). threads <= 0: online CPUs.
 * Returns OK, INVALID_ARG (bad range, an id outside [0, n)), NO_MEMORY. */
boxbfs_status_t bb_rows_build(bb_edges_t *edges, int64_t lo, int64_t hi, int directed, int threads,
                              bb_rows_t *rows_p);
void bb_rows_free(bb_rows_t *rows);

/* Build a CSR from edges (consumed: freed on return, success or not).
 * directed = 0 stores both directions. threads <= 0: online CPUs.
 * external (may be NULL) is adopted by the graph and freed on failure too.
 * Returns OK, INVALID_ARG
 * (an id outside [0, n)), NO_MEMORY. */
boxbfs_status_t bb_graph_build(bb_edges_t *edges, int directed, int threads, int64_t *external,
                               int64_t id_base, const char *name, boxbfs_graph_t *graph_p);

/* Graph500 Kronecker generator [Graph500 spec]: A,B,C = 0.57,0.19,0.19,
 * 2^scale vertices, edgefactor * 2^scale edges, ids scrambled by a seeded
 * bijection. Reproducible for a given seed on any machine and thread count. */
boxbfs_status_t bb_kron_generate(int scale, int edgefactor, uint64_t seed, int threads,
                                 bb_edges_t *edges);
/* The vertices (2^scale) and edges (edgefactor * 2^scale) of kron:scale:
 * edgefactor; INVALID_ARG when either is out of range. */
boxbfs_status_t bb_kron_sizes(int scale, int edgefactor, int64_t *n_p, int64_t *m_p);
/* Edges [first, first + count) of that sequence into edges, which must have
 * room for count edges (its contents are replaced; n is set to 2^scale). */
boxbfs_status_t bb_kron_generate_range(int scale, int edgefactor, uint64_t seed, int threads,
                                       int64_t first, int64_t count, bb_edges_t *edges);
/* Rows [lo, hi) of the generator's graph, equal to those of the whole graph
 * built by bb_graph_build, in memory O(hi - lo + their arcs + one chunk of
 * edges): every edge is generated, chunk by chunk, and those with an end in
 * the range kept (kron_rows.c). */
boxbfs_status_t bb_kron_rows(int scale, int edgefactor, uint64_t seed, int directed, int threads,
                             int64_t lo, int64_t hi, bb_rows_t *rows_p);
/* Parse "kron:SCALE[:EDGEFACTOR[:SEED]]" (scale 1..40, edgefactor >= 1). */
boxbfs_status_t bb_kron_parse(const char *spec, int *scale_p, int *edgefactor_p, uint64_t *seed_p);

/* boxbfs_graph_load with mpi_slice, for a kron: spec or a .bbcsr file: this
 * MPI rank's slice (slice_mpi.c; slice_none.c without MPI says UNSUPPORTED).
 * directed applies to kron: only. */
boxbfs_status_t bb_graph_load_slice(const char *spec, int directed, int threads,
                                    boxbfs_graph_t *graph_p);

/* The in-arcs of every vertex of a whole graph as CSR rows (offsets n + 1,
 * columns arcs, each row ascending); the caller frees both. Returns OK,
 * UNSUPPORTED for a slice, NO_MEMORY. */
boxbfs_status_t bb_graph_transpose_csr(const struct boxbfs_graph *g, int64_t **offsets_p,
                                       int64_t **columns_p);

/* to (same n as from) maps ids as from does: external ids and vertex order
 * copied. Returns OK or NO_MEMORY (what was copied is to's, freed with it). */
boxbfs_status_t bb_graph_copy_ids(struct boxbfs_graph *to, const struct boxbfs_graph *from);

/* Sort a row of column ids ascending (the CSR builders): rows of 64 ids or
 * more by radix through scratch, which grows as rows need it (zeroed to
 * start, one per thread, bb_sort_scratch_free after the last row); shorter
 * rows, rows with a negative id, or where scratch cannot grow, by introsort. */
typedef struct {
    int64_t *buf;
    int64_t cap;
} bb_sort_scratch_t;
void bb_sort_row(int64_t *a, int64_t len, bb_sort_scratch_t *scratch);
void bb_sort_scratch_free(bb_sort_scratch_t *scratch);
/* by_degree[r], r in [0, n): g's vertices by decreasing degree (out-arcs,
 * plus in-arcs where directed and not a slice), ties by increasing id
 * (relabel.c: relabel's order, and the visited-prefix skip's ranks). */
boxbfs_status_t bb_graph_degree_order(const struct boxbfs_graph *g, int64_t *by_degree);
/* Each of the rows of a CSR (offsets from its first arc) with its heads in
 * increasing rank: a head h becomes the key rank[h], and the sorted keys
 * by_rank[key] (rank_sort.c; by_rank is rank's inverse). */
boxbfs_status_t bb_rows_by_rank(const int64_t *offsets, uint32_t *columns, int64_t rows,
                                const uint32_t *rank, const uint32_t *by_rank);
/* The rows [*r0_p, *r1_p) of CSR offsets off (nrows rows) that thread tid of
 * nthreads takes so that every thread holds about the same number of arcs. */
void bb_rows_of_thread(const int64_t *off, int64_t nrows, int tid, int nthreads, int64_t *r0_p,
                       int64_t *r1_p);

/* Online CPUs (>= 1), for default thread counts. */
int bb_cpu_count(void);

#endif /* BB_GRAPH_H */
