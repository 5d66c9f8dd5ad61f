/* The centrality kernels' operations sub-table [DESIGN "Beyond the 1D
 * engine", TurboBFS 001]: shortest-path counts (sigma) travelling with the
 * frontier, TurboBFS's masked SpMV forms of the same search, and Brandes'
 * backward dependency accumulation. The cpu backend (kernels/cpu/centrality.c)
 * and the cuda backend (kernels/cuda/centrality.cu) define the same entry
 * points; the driver (src/centrality/) picks the table by the device table's
 * name (bb_centrality_ops_for) and reaches memory, copies and streams through
 * bb_device_ops_t as the 1D engine does.
 *
 * Counts are exact 64-bit integers; an addition that wraps sets
 * counters[BB_CC_OVERFLOW] (the driver then recomputes that output in
 * double). */
#ifndef BB_CENTRALITY_KERNELS_H
#define BB_CENTRALITY_KERNELS_H

#include <stdint.h>

#include "kernels/kernels.h"

/* Layout of bb_cstate_t.counters (uint64 entries in device memory). */
enum {
    BB_CC_NEXT = 0,       /* vertices discovered at this level              */
    BB_CC_NEXT_ARCS = 1,  /* their out-arcs                                 */
    BB_CC_OVERFLOW = 2,   /* nonzero: a count wrapped past 2^64 - 1         */
    BB_CC_CREDIT = 3,     /* input edges credited to discovered vertices (TEPS) */
    BB_CC_GATHER = 4,     /* gather's slots                                 */
    BB_CC_SEND = 5        /* then ndev pair counts, one per owner           */
};
#define BB_CC_COUNT(ndev) (5 + (size_t)(ndev))
/* Vertices with more arcs than this are summed by a whole block (pull and
 * backward) rather than by a group of lanes: a hub's arcs in one group would
 * be a serial chain of loads that the whole step waits for. */
#define BB_CC_HEAVY 256

/* TurboBFS's SpMV variants. */
typedef enum { BB_SPMV_CSC_SCALAR = 0, BB_SPMV_CSC_VECTOR = 1, BB_SPMV_COOC = 2 } bb_spmv_t;

/* One device's centrality state; pointers are that device's memory. The
 * device owns vertices [lo, hi) of n (the 1D partition); local ids lid = gid -
 * lo. Betweenness gives each device the whole graph (lo = 0, hi = n). */
typedef struct {
    int ndev, self;
    uint64_t n, lo, hi;
    const uint64_t *range_lo;     /* ndev + 1 owner boundaries */
    const uint64_t *seg_lo;       /* ndev + 1: outbox segment of each owner */
    const int64_t *offsets;       /* owned rows' out-arcs: hi - lo + 1, from 0 */
    const uint32_t *columns;      /* global ids */
    const int64_t *in_offsets;    /* owned rows' in-arcs (CSC columns); NULL: push only */
    const uint32_t *in_columns;   /* global ids (= local: pull runs on one device) */
    uint64_t in_arcs;             /* in_offsets[hi - lo], known on the host */
    const uint32_t *cooc_col;     /* COOC: the head (column) of each in-arc; NULL unless spmv cooc */
    const int64_t *credit;        /* owned: input edges credited to the vertex */
    int32_t *level;               /* owned: depth or -1 */
    uint64_t *sigma;              /* owned: shortest paths from the root */
    uint32_t *frontier, *next;    /* owned lids, capacity hi - lo */
    uint32_t *fbits;              /* pull: the frontier as hi - lo bits */
    uint32_t *out_vid;            /* pairs to owners: owner-local id ... */
    uint64_t *out_sig;            /* ... and the count it carries */
    uint64_t *f, *ft;             /* spmv: frontier vector and A^T f (hi - lo each) */
    double *delta, *bc;           /* betweenness: dependency and the running sums */
    const uint32_t *heavy_in;     /* lids with more than BB_CC_HEAVY in-arcs (pull) */
    const uint32_t *heavy_out;    /* ... out-arcs (backward); both NULL with push only */
    uint64_t nheavy_in, nheavy_out;
    uint64_t *counters;           /* BB_CC_COUNT(ndev) */
} bb_cstate_t;

typedef struct {
    /* level = -1, sigma = 0 (f = 0, delta = 0 where allocated); the root, if
     * owned: level 0, sigma 1 (f 1), frontier {root}; counters zeroed, then
     * NEXT = 1, NEXT_ARCS = its out-degree, CREDIT = its credit if owned. */
    boxbfs_status_t (*reset)(const bb_cstate_t *k, void *stream, uint64_t root);
    /* Top-down (push): for every arc u -> v of the count frontier vertices,
     * v owned: level -1 -> next_level (joins next, NEXT, NEXT_ARCS, CREDIT)
     * and, where level[v] == next_level, sigma[v] += sigma[u]; v of another
     * owner: the pair (v - its lo, sigma[u]) goes to that owner's segment of
     * the outbox (counters[SEND + owner]). */
    boxbfs_status_t (*push)(const bb_cstate_t *k, void *stream, uint64_t count,
                            int32_t next_level);
    /* Received pairs (owned lids, counts): the same update as push's own arcs. */
    boxbfs_status_t (*apply)(const bb_cstate_t *k, void *stream, const uint32_t *vid,
                             const uint64_t *sig, uint64_t count, int32_t next_level);
    /* Bottom-up (pull), one device: fbits = the vertices at next_level - 1;
     * every vertex with level -1 sums sigma over its in-arcs from fbits; a
     * non-zero sum discovers it (level, sigma, NEXT, NEXT_ARCS, CREDIT). It
     * makes no list: gather does, where a push follows. */
    boxbfs_status_t (*pull)(const bb_cstate_t *k, void *stream, uint64_t count,
                            int32_t next_level);
    /* frontier = the lids at level (in no particular order). */
    boxbfs_status_t (*gather)(const bb_cstate_t *k, void *stream, int32_t level);
    /* TurboBFS top-down step [001 Alg. 1-5], one device: ft = A^T f (CSC
     * masked by sigma == 0: a thread or a warp per vertex; COOC: a thread per
     * arc, then the mask), f = ft, sigma += f, level = next_level where f != 0
     * (NEXT, NEXT_ARCS, CREDIT). */
    boxbfs_status_t (*spmv_top_down)(const bb_cstate_t *k, void *stream, bb_spmv_t variant,
                                     int32_t next_level);
    /* TurboBFS bottom-up step [001 Alg. 6-7], one device: every vertex with
     * level -1 looks for an in-neighbour at next_level - 1 and stops at the
     * first (a thread, or a warp for vector); then the counts of the found:
     * sigma = the sum over in-arcs at next_level - 1 (f unused from here on). */
    boxbfs_status_t (*spmv_bottom_up)(const bb_cstate_t *k, void *stream, int vector,
                                      int32_t next_level);
    /* Brandes' backward step, whole graph on the device: every v at depth
     * sums sigma[v] / sigma[w] * (1 + delta[w]) over its out-arcs v -> w with
     * level[w] == depth + 1 into delta[v], and bc[v] += delta[v] (v != root). */
    boxbfs_status_t (*backward)(const bb_cstate_t *k, void *stream, int32_t depth, uint64_t root);
} bb_centrality_ops_t;

#define BB_DECLARE_CENTRALITY(PREFIX)                                                         \
    boxbfs_status_t PREFIX##_sigma_reset(const bb_cstate_t *k, void *stream, uint64_t root);   \
    boxbfs_status_t PREFIX##_sigma_push(const bb_cstate_t *k, void *stream, uint64_t count,    \
                                        int32_t next_level);                                   \
    boxbfs_status_t PREFIX##_sigma_apply(const bb_cstate_t *k, void *stream,                   \
                                         const uint32_t *vid, const uint64_t *sig,             \
                                         uint64_t count, int32_t next_level);                  \
    boxbfs_status_t PREFIX##_sigma_pull(const bb_cstate_t *k, void *stream, uint64_t count,    \
                                        int32_t next_level);                                   \
    boxbfs_status_t PREFIX##_sigma_gather(const bb_cstate_t *k, void *stream, int32_t level);  \
    boxbfs_status_t PREFIX##_spmv_top_down(const bb_cstate_t *k, void *stream,                 \
                                           bb_spmv_t variant, int32_t next_level);             \
    boxbfs_status_t PREFIX##_spmv_bottom_up(const bb_cstate_t *k, void *stream, int vector,    \
                                            int32_t next_level);                               \
    boxbfs_status_t PREFIX##_bc_backward(const bb_cstate_t *k, void *stream, int32_t depth,    \
                                         uint64_t root);

BB_DECLARE_CENTRALITY(bb_cpu)
BB_DECLARE_CENTRALITY(bb_cuda)

extern const bb_centrality_ops_t bb_cpu_centrality_ops;
/* NULL when built without CUDA. */
extern const bb_centrality_ops_t *const bb_cuda_centrality_ops_ptr;

/* The sub-table that goes with a device table (by its name); NULL if none. */
static inline const bb_centrality_ops_t *bb_centrality_ops_for(const bb_device_ops_t *ops)
{
    if (ops == &bb_cpu_ops) return &bb_cpu_centrality_ops;
    return bb_cuda_centrality_ops_ptr;
}

#endif /* BB_CENTRALITY_KERNELS_H */
