/* Internal graph representation: CSR with 64-bit offsets and column ids
 * (DESIGN.md "Data model"), plus what TEPS and id mapping need. Builders,
 * loaders and the generator produce a bb_edges_t and hand it to
 * bb_graph_build(), the one place where a CSR is made. */
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
    int64_t arcs;           /* stored arcs (CSR columns) */
    int64_t input_edges;    /* edges as read, duplicates and self-loops included */
    int directed;
    int64_t *offsets;       /* n + 1 */
    int64_t *columns;       /* arcs, each adjacency list sorted ascending, no duplicates */
    /* Graph500 TEPS counts input edges inside the traversed component. Each
     * input edge (u, v) is credited to u (for undirected graphs u and v share a
     * component), so the count for a search is the sum of edge_credit over the
     * reached vertices. */
    int64_t *edge_credit;   /* n */
    /* External ids: external[i] when external != NULL (sorted ascending, as
     * SNAP ids with gaps), else i + id_base (1 for Matrix Market, 0 otherwise). */
    int64_t *external;
    int64_t id_base;
    int64_t self_loops, duplicate_arcs;   /* dropped while building */
    char name[256];
    /* When arrays point into a mapped binary file, the mapping to release. */
    void *mapping;
    size_t mapping_bytes;
};

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
/* Parse "kron:SCALE[:EDGEFACTOR[:SEED]]" (scale 1..40, edgefactor >= 1). */
boxbfs_status_t bb_kron_parse(const char *spec, int *scale_p, int *edgefactor_p, uint64_t *seed_p);

/* Online CPUs (>= 1), for default thread counts. */
int bb_cpu_count(void);

#endif /* BB_GRAPH_H */
