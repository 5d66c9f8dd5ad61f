/* Kernels of the 2D-partitioned BFS [004 §2.2, §3] (README "2D partition"),
 * an ops sub-table beside the device-operations table: devices sit on an
 * R x C grid, device p at grid row p % R and grid column p / R; vertices are
 * split into R*C blocks of bs ids (bs a multiple of 32), device p owns block
 * p. Grid column j's vertices (blocks jR .. jR+R-1) are contiguous: their
 * column-local id is v - jRbs. Grid row i's vertices are the blocks jR + i
 * for every j: their row-local id is j*bs + v % bs. Device (i, j) holds the
 * arcs u -> v with u in column j and v in row i, as a CSR over the R*bs
 * column-local ids with 32-bit row-local columns. kernels/cpu/grid2d.c and
 * kernels/cuda/grid2d.cu implement the same entry points. */
#ifndef BB_GRID2D_KERNELS_H
#define BB_GRID2D_KERNELS_H

#include <stdint.h>

#include "boxbfs.h"

/* Layout of g2state.counters (uint64 entries in device memory). */
enum {
    BB_G2_CTR_NEXT = 0,      /* owned vertices added to the next frontier (expand, update) */
    BB_G2_CTR_ARCS = 1,      /* arcs of the block scanned by expand this level */
    BB_G2_CTR_NEXT_ARCS = 2, /* out-arcs of the next frontier, where bottom-up levels may
                                run (every kernel that adds to NEXT) */
    BB_G2_CTR_BUCKET = 3     /* then C counts: expand's and bottom_up's discoveries per
                                owner's grid column */
};
#define BB_G2_CTR_COUNT(cols) (3 + (size_t)(cols))

typedef struct {
    int rows, cols;            /* the grid: R x C */
    int row, col, self;        /* this device: self = col * rows + row */
    uint64_t n, bs;            /* vertices of the graph; ids per block */
    uint64_t lo, nloc;         /* owned: global ids [lo, lo + nloc), nloc <= bs */
    /* the block of the matrix: column-local source -> row-local targets */
    const int64_t *offsets;    /* rows * bs + 1 */
    const uint32_t *columns;
    /* bottom-up levels only (else NULL): the same arcs the other way, a CSR
     * over the cols * bs row-local ids with column-local sources (on a
     * directed graph: the in-arcs of the grid row's vertices from the grid
     * column's); the out-degree of each owned vertex (bs) */
    const int64_t *toffsets;
    const uint32_t *tcolumns;
    const uint32_t *degree;
    /* owned vertex state */
    int32_t *level;            /* bs: depth or -1 */
    int64_t *pred;             /* bs: parent gid; -1 unreached */
    uint32_t *frontier;        /* bs: owned frontier (block-local ids) */
    uint32_t *next_frontier;   /* bs: the next one (expand, update); the engine swaps them */
    uint32_t *frontier_bits;   /* bs bits, bottom-up levels possible: the next frontier a
                                  bottom-up level leaves (bottom_up's own slice, settle) */
    /* grid-row state: one entry per row-local id (cols * bs) */
    uint32_t *visited;         /* cols * bs bits */
    /* The visited-prefix skip in the 2D top-down expand (NULL: off): the
     * grid row's vertices ranked by decreasing degree (rank: row-local id ->
     * rank, by_rank its inverse; ids past the graph's last rank last), the
     * block's rows in increasing rank of their heads; prefix[1]: every
     * vertex of rank below it is marked in visited (0 after reset; the raise
     * starts from prefix[0]); the expand skips each row's arcs into that
     * prefix (skip: those skipped at the start of each column frontier
     * vertex's row, rows * bs entries, cuda only). The skipped arcs lead to
     * vertices visited here, which expand would drop: the same pairs. */
    const uint32_t *rank, *by_rank;
    uint32_t *prefix;
    uint32_t *skip;
    /* per-level work */
    uint32_t *colfront;        /* rows * bs: the column's frontier, column-local ids (one grid
                                  row: the frontier itself) */
    uint32_t *colbits;         /* rows * bs bits: the column's frontier as a bitmap (bottom-up
                                  levels) */
    uint32_t *outbox;          /* cols * seg: discoveries as (block-local id, column-local
                                  parent) pairs, segment per owner's grid column (the own
                                  segment stays empty) */
    uint64_t seg;              /* words per outbox segment: 2 bs */
    uint64_t *counters;        /* BB_G2_CTR_COUNT(cols) */
    /* the load-balanced expand (cuda; the cpu backend walks colfront in order) */
    uint32_t *scan;            /* rows * bs: the column frontier's degree scan */
    void *scratch;             /* backend temporaries (CUB), scratch_bytes */
    size_t scratch_bytes;
    int expand, expand_k;      /* boxbfs_expand_t; edges per thread */
    uint32_t expand_f0;        /* hybrid rule: merge path above f0 arcs per vertex */
} bb_g2state_t;

typedef struct {
    /* Clear the owned state and this device's grid-row state; the root's
     * owner puts it at level 0 in the frontier (counters[NEXT] = 1, else 0);
     * the devices of the root's grid row mark it visited. */
    boxbfs_status_t (*reset)(const bb_g2state_t *k, void *stream, uint64_t root);
    /* Write a message of block-local ids (a list of count ids, or a bitmap
     * of bs bits holding count ids) to colfront[base ..] as column-local
     * ids (+ offset). */
    boxbfs_status_t (*append)(const bb_g2state_t *k, void *stream, const uint32_t *msg,
                              int bitmap, uint64_t count, uint32_t offset, uint64_t base);
    /* Scan the block's arcs of colfront[0 .. count) [004 Algorithm 3], each
     * row from its first head of rank prefix[1] or more where the skip is
     * on: every
     * target not yet visited here is marked; one this device owns gets
     * next_level and its parent's gid and joins next_frontier at
     * counters[NEXT] (it had not been reached: whoever reaches an owned
     * vertex marks it here), its out-degree added to counters[NEXT_ARCS]
     * where degree is set; any other goes to its owner's segment of outbox
     * as the pair (block-local id, column-local parent), the pairs' count in
     * counters[BUCKET + j]; counters[ARCS] += arcs scanned, those skipped
     * not counted (the engine zeroes the counters). */
    boxbfs_status_t (*expand)(const bb_g2state_t *k, void *stream, uint64_t count,
                              int32_t next_level);
    /* The count (id, parent) pairs a top-down expand of the device in grid
     * column src_col (another of the grid row) found among the owned
     * vertices: each not reached yet gets next_level, its parent's gid, a
     * visited mark, and joins next_frontier at counters[NEXT] (out-degrees
     * to counters[NEXT_ARCS] where degree is set). A message holds a vertex
     * once; the engine updates from the senders in grid order, so the first
     * to deliver a vertex gives its parent, on every backend. */
    boxbfs_status_t (*update)(const bb_g2state_t *k, void *stream, const uint32_t *pairs,
                              uint64_t count, int src_col, int32_t next_level);
    /* Block r of colbits (bs bits) from a message of block-local ids (a
     * list of count ids, or a bitmap of bs bits holding count ids). */
    boxbfs_status_t (*mark)(const bb_g2state_t *k, void *stream, const uint32_t *msg,
                            int bitmap, uint64_t count, int r);
    /* A bottom-up sub-step over slice s of the grid row (the vertices owned
     * by the device in grid column s): done_in holds a bit for every vertex
     * of the slice reached before, or found by a sub-step before this one
     * (bs bits). Every other vertex with an arc from colbits is found: its
     * parent is the first such arc's column-local source in tcolumns order;
     * it is marked visited here. In the own slice (s == col) it gets
     * next_level and its parent's gid, frontier_bits gets the slice's finds
     * (every word written) and counters[NEXT] / [NEXT_ARCS] their count and
     * out-degrees; in another it goes to outbox segment s as the pair
     * (block-local id, column-local parent), the pairs' count in
     * counters[BUCKET + s].
     * done_out = done_in | found (it may be done_in itself); the slice's
     * words of visited |= done_out. */
    boxbfs_status_t (*bottom_up)(const bb_g2state_t *k, void *stream, const uint32_t *done_in,
                                 uint32_t *done_out, int s, int32_t next_level);
    /* The count (id, parent) pairs a bottom-up sub-step of device src_col
     * (a grid column of this row) found among the owned vertices: each gets
     * next_level, its parent's gid, a visited mark and its bit in
     * frontier_bits, counted in counters[NEXT] and [NEXT_ARCS] (the pairs of
     * a level are disjoint, and none is in the own slice's finds). */
    boxbfs_status_t (*settle)(const bb_g2state_t *k, void *stream, const uint32_t *pairs,
                              uint64_t count, int src_col, int32_t next_level);
    /* The count ids of bits (a bitmap of the block) as a list at out. */
    boxbfs_status_t (*unpack)(const bb_g2state_t *k, void *stream, const uint32_t *bits,
                              uint64_t count, uint32_t *out);
    /* The skip's raise (k->prefix set): prefix[0] = prefix[1], then
     * prefix[1] = the first rank at or past it whose vertex visited does not
     * mark (cols * bs if none). */
    boxbfs_status_t (*raise_prefix)(const bb_g2state_t *k, void *stream);
} bb_grid2d_ops_t;

extern const bb_grid2d_ops_t bb_cpu_grid2d_ops;
/* NULL when built without CUDA. */
extern const bb_grid2d_ops_t *const bb_cuda_grid2d_ops_ptr;

#endif /* BB_GRID2D_KERNELS_H */
