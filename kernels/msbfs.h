/* The kernels of concurrent multi-source BFS (iBFS [000 §4, §6]): their own
 * operations table beside bb_device_ops_t (the driver in src/msbfs/ looks it
 * up by the backend's name), with the same entry points on the cpu backend
 * (kernels/cpu/msbfs.c) and the cuda backend (kernels/cuda/msbfs.cu).
 *
 * A group of G = 32 * nw instances shares one bitwise status array: vertex
 * v's bits are the nw 32-bit words vis[v * nw .. v * nw + nw), bit i & 31 of
 * word i >> 5 set once instance i reached v (BSA_k of [000 Alg. 1]); nxt is
 * BSA_{k+1}, written by the level's step. identify then turns nxt - vis into
 * the next joint frontiers and per-instance counts [000 Alg. 2]. */
#ifndef BB_KERNELS_MSBFS_H
#define BB_KERNELS_MSBFS_H

#include <stddef.h>
#include <stdint.h>

#include "boxbfs.h"

#define BB_MS_MAX_GROUP 128
/* A vertex whose (in- or out-) degree reaches this goes to the "large" end of
 * a queue: a warp shares its arcs on the GPU; a thread takes a small one. */
#define BB_MS_LARGE_DEGREE 32

/* Layout of bb_ms_state_t.counters (uint64). The top-down queue holds its
 * small vertices at [0, TD_SMALL) and its large ones at [n - TD_LARGE, n);
 * the bottom-up queue likewise. */
enum {
    BB_MS_TD_SMALL = 0, BB_MS_TD_LARGE = 1,
    BB_MS_TD_ARCS = 2,        /* out-arcs of the joint frontier */
    BB_MS_BU_SMALL = 3, BB_MS_BU_LARGE = 4,
    BB_MS_BU_ARCS = 5,        /* in-arcs of the vertices not reached by every instance */
    BB_MS_TOUCHED = 6,        /* arcs the level's step inspected */
    BB_MS_NEW = 8,            /* G: instances' vertices newly reached at the level */
    BB_MS_CREDIT = 8 + BB_MS_MAX_GROUP,       /* G: input edges credited to reached vertices */
    BB_MS_ARCS = 8 + 2 * BB_MS_MAX_GROUP,     /* G: out-arcs of reached vertices */
    BB_MS_COUNTERS = 8 + 3 * BB_MS_MAX_GROUP
};

/* One group's state on one device (device pointers). */
typedef struct {
    uint64_t n;
    int nw;                            /* 32-bit status words per vertex: 1, 2 or 4 */
    uint32_t full[4];                  /* the bits of the group's instances (words >= nw: 0) */
    const int64_t *offsets;            /* n + 1 */
    const uint32_t *columns;           /* out-arcs */
    const int64_t *in_offsets;         /* in-arcs (the same arrays for undirected graphs) */
    const uint32_t *in_columns;
    const uint32_t *credit;            /* n: Graph500 input edges credited to each vertex */
    uint32_t *vis, *nxt;               /* n * nw each */
    uint32_t *td_queue, *bu_queue;     /* n each */
    uint32_t *bu_next;                 /* n: identify writes the next bottom-up queue here
                                          (the driver then swaps it with bu_queue) */
    const uint32_t *sources;           /* G: the group's sources, instance order */
    const int32_t *keep_slot;          /* G: depth row of instance i, or -1 */
    int32_t *depths;                   /* rows of n depths (-1 unreached), one per kept instance */
    uint64_t *counters;                /* BB_MS_COUNTERS */
} bb_ms_state_t;

typedef struct {
    /* vis = nxt = 0, every depth row -1, then nxt[source i] = bit i of the
     * count sources (identify at level 0 then finds them). */
    boxbfs_status_t (*seed)(const bb_ms_state_t *k, void *stream, int count, int depth_rows);
    /* Top-down [000 Alg. 1 l. 5]: each vertex f of the top-down queue ORs
     * vis[f] into nxt[w] of its out-neighbors w (atomic OR, skipped when the
     * bits are there already). counters[TOUCHED] += arcs inspected. */
    boxbfs_status_t (*top_down)(const bb_ms_state_t *k, void *stream, uint64_t small,
                                uint64_t large);
    /* Bottom-up [000 Alg. 1 l. 7-10]: each vertex f of the bottom-up queue
     * ORs vis[u] of its in-neighbors u into nxt[f], and stops as soon as all
     * of full is set (early termination). counters[TOUCHED] += arcs. */
    boxbfs_status_t (*bottom_up)(const bb_ms_state_t *k, void *stream, uint64_t small,
                                 uint64_t large);
    /* Frontier identification [000 Alg. 2]: new = nxt ^ vis; a vertex with
     * new bits joins the top-down queue, one that is not full (and has
     * in-arcs) the next bottom-up queue (bu_next); counters[NEW + i] +=
     * vertices whose bit i is new; kept instances get depth level; vis = nxt.
     * It looks at every vertex, or, with from_queue (after a bottom-up step,
     * which changes no vertex outside it), only at the bottom-up queue's
     * small + large entries. The queue counters and arcs must be zero before
     * (the driver zeroes all). */
    boxbfs_status_t (*identify)(const bb_ms_state_t *k, void *stream, int32_t level,
                                int from_queue, uint64_t small, uint64_t large);
    /* After the last level: counters[CREDIT + i] and [ARCS + i] = sums of
     * credit and out-degree over the vertices instance i reached. */
    boxbfs_status_t (*finish)(const bb_ms_state_t *k, void *stream);
} bb_msbfs_ops_t;

#define BB_DECLARE_MSBFS_KERNELS(PREFIX)                                                     \
    boxbfs_status_t PREFIX##_ms_seed(const bb_ms_state_t *k, void *stream, int count,       \
                                     int depth_rows);                                       \
    boxbfs_status_t PREFIX##_ms_top_down(const bb_ms_state_t *k, void *stream,              \
                                         uint64_t small, uint64_t large);                   \
    boxbfs_status_t PREFIX##_ms_bottom_up(const bb_ms_state_t *k, void *stream,             \
                                          uint64_t small, uint64_t large);                  \
    boxbfs_status_t PREFIX##_ms_identify(const bb_ms_state_t *k, void *stream, int32_t level, \
                                         int from_queue, uint64_t small, uint64_t large);   \
    boxbfs_status_t PREFIX##_ms_finish(const bb_ms_state_t *k, void *stream);

extern const bb_msbfs_ops_t bb_cpu_msbfs_ops;
/* NULL when built without CUDA. */
extern const bb_msbfs_ops_t *const bb_cuda_msbfs_ops_ptr;

#endif /* BB_KERNELS_MSBFS_H */
