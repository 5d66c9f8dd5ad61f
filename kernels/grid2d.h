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
#include "kernels/kernels.h"

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

/* The device loop of small top-down levels (bb_grid2d_ops_t.levels;
 * README "2D partition"). Its meetings follow 1D's protocol (kernels.h
 * bb_mail_half: values, then the tag with release; each other device's tag
 * with acquire, then its values), in areas of their own in each device's
 * mailbox: the grid column's, the grid row's and every device's meeting,
 * 8 words a source each (sources by grid row, grid column, device), in two
 * halves by the level's parity: [tag, up to three values]. A device writes
 * a half of level l + 2 only after the meeting of every device at l + 1,
 * which every other device reaches only once it has read all of level l. */
enum { BB_G2_MEET_COL = 0, BB_G2_MEET_ROW = 1, BB_G2_MEET_ALL = 2 };
#define BB_G2_MAIL_WORDS(rows, cols) (8 * ((size_t)(rows) + (size_t)(cols) + \
                                           (size_t)(rows) * (size_t)(cols)))
/* The devices of k's grid column, grid row or all (kind): how many, device
 * i of them, and k's index among them. */
static inline BB_HOST_DEVICE int bb_g2_group_size(const bb_g2state_t *k, int kind)
{
    return kind == BB_G2_MEET_COL ? k->rows : kind == BB_G2_MEET_ROW ? k->cols
                                                                     : k->rows * k->cols;
}
static inline BB_HOST_DEVICE int bb_g2_group_device(const bb_g2state_t *k, int kind, int i)
{
    return kind == BB_G2_MEET_COL ? k->col * k->rows + i
           : kind == BB_G2_MEET_ROW ? i * k->rows + k->row
                                    : i;
}
static inline BB_HOST_DEVICE int bb_g2_group_index(const bb_g2state_t *k, int kind)
{
    return kind == BB_G2_MEET_COL ? k->row : kind == BB_G2_MEET_ROW ? k->col : k->self;
}
/* Source `from`'s half of level `level` in area `kind` of mailbox mail. */
static inline BB_HOST_DEVICE uint64_t *bb_g2_mail(uint64_t *mail, int rows, int cols, int kind,
                                                  int from, int32_t level)
{
    size_t area = kind == BB_G2_MEET_COL ? 0
                  : kind == BB_G2_MEET_ROW ? (size_t)rows
                                           : (size_t)rows + (size_t)cols;
    return mail + 8 * (area + (size_t)from) + 4 * (size_t)(level & 1);
}
/* The tag of the meeting of kind at level (every device the same): tag0 +
 * 3 level + kind + 1, never 0 (a fresh mailbox) and never repeated within
 * a search, whose tag0 has the engine's search count in its high half. */
static inline BB_HOST_DEVICE uint64_t bb_g2_tag(uint64_t tag0, int32_t level, int kind)
{
    return tag0 + 3 * (uint64_t)level + (uint64_t)kind + 1;
}

/* A row of the loop's log per level: this device's frontier (the list it
 * sent each other device of its grid column), the arcs its expand scanned,
 * its next frontier and their out-arcs, the level's nanoseconds and, of
 * them, its expand's, its sends' and meetings' and its update's; then the
 * pairs it sent the device of each grid column of its row (its own: 0). */
enum {
    BB_G2_LOG_FRONTIER = 0,
    BB_G2_LOG_SCANNED = 1,
    BB_G2_LOG_NEXT = 2,
    BB_G2_LOG_NEXT_ARCS = 3,
    BB_G2_LOG_NS = 4,
    BB_G2_LOG_EXPAND_NS = 5,
    BB_G2_LOG_EXCHANGE_NS = 6,
    BB_G2_LOG_UPDATE_NS = 7,
    BB_G2_LOG_PAIRS = 8
};
#define BB_G2_LOG_ROW(cols) (BB_G2_LOG_PAIRS + (size_t)(cols))
/* p->out: the levels the loop ran, then BB_MEET_OK or a failed meeting's
 * BB_MEET_* (the loop stopped there; BB_MEET_ABORTED also where this
 * device failed as the fault injection asked). */
#define BB_G2_LOOP_OUT 2

typedef struct {
    int32_t level;          /* the first level's depth */
    int32_t last_dir;       /* the direction of the level before it */
    int32_t max_depth;      /* < 0: none */
    int32_t fault_level;    /* tests (BOXBFS_FAULT=level:L): fail as level L starts; -1: none */
    bb_dir_rule_t rule;     /* the engine's direction rule */
    /* the totals before the first level: frontier, its out-arcs, the one
     * before, the arcs not explored yet (runs 0) */
    bb_loop_walk_t w;
    uint64_t count;         /* this device's part of the frontier */
    uint64_t most;          /* the largest device's part */
    uint64_t max_arcs;      /* a level runs with at most this many out-arcs (--device-loop) */
    uint64_t list_max;      /* a part goes to the grid column as a list only up to this many
                               ids (--wire auto on a grid of several rows: bs / 32; else
                               UINT64_MAX) */
    uint32_t log_cap;       /* rows log holds: the loop stops when it is full */
    uint64_t tag0;          /* the meetings' tags (bb_g2_tag) */
    uint64_t timeout_ns;    /* give up waiting for a device after this */
    uint32_t *abort;        /* the engine's abort word (kernels.h BB_ABORT_TIMEOUT) */
    /* every device's inbox_col (rows x bs), inbox_row (cols x seg) and
     * mailbox (BB_G2_MAIL_WORDS), by device: peer memory */
    uint32_t *const *inbox_col;
    uint32_t *const *inbox_row;
    uint64_t *const *mail;
    uint64_t *log;          /* log_cap rows of BB_G2_LOG_ROW(cols) (device memory) */
    uint64_t *out;          /* BB_G2_LOOP_OUT entries (device memory) */
} bb_g2loop_t;

/* Where the loop stops before the level w stands at (most: the largest
 * device's part of its frontier; last: the direction of the level before):
 * the search ends there, its frontier has more out-arcs than max_arcs, a
 * part would go as a bitmap, the log is full, or the engine's direction
 * rule leaves top-down. The engine asks the same before it calls the loop,
 * so the loop runs at least one level wherever it is called. */
static inline BB_HOST_DEVICE int bb_g2_loop_stops(const bb_g2loop_t *p, const bb_loop_walk_t *w,
                                                  uint64_t most, int last)
{
    return bb_search_ends(w->count, w->level, p->max_depth) || w->arcs > p->max_arcs ||
           most > p->list_max || w->runs == p->log_cap ||
           bb_choose_direction(&p->rule, w, last) != BOXBFS_SEARCH_TOP_DOWN;
}

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
    /* The device loop of small top-down levels (bb_g2loop_t; NULL: the
     * backend has none, the host drives every level): called on every
     * device at once, it runs level after level from k->frontier (the list
     * of p->count ids; the next one in k->next_frontier, the two swapped
     * after every level) while bb_g2_loop_stops lets it, meeting the other
     * devices in their memory, and leaves a row per level in p->log and
     * p->out. A level: this device's frontier list into the inbox_col
     * region of every device of its grid column; a meeting of the column;
     * append and expand as the host-driven level's (the visited prefix
     * raised where it would be); each other grid column's pairs from
     * outbox into its device's inbox_row region; a meeting of the grid
     * row; update from each sender in grid order; a meeting of every
     * device for the next frontier's totals, from which each device
     * decides alone whether the next level runs. */
    boxbfs_status_t (*levels)(const bb_g2state_t *k, void *stream, const bb_g2loop_t *p);
} bb_grid2d_ops_t;

extern const bb_grid2d_ops_t bb_cpu_grid2d_ops;
/* Its loop (kernels/cpu/grid2d_levels.c), which runs the table's steps. */
boxbfs_status_t bb_cpu_g2_levels(const bb_g2state_t *k, void *stream, const bb_g2loop_t *p);
/* NULL when built without CUDA. */
extern const bb_grid2d_ops_t *const bb_cuda_grid2d_ops_ptr;
/* The cuda backend's loop (kernels/cuda/grid2d_levels.cu: one block a
 * device, the cpu loop's steps, rows and meetings); built with CUDA only. */
boxbfs_status_t bb_cuda_g2_levels(const bb_g2state_t *k, void *stream, const bb_g2loop_t *p);

#endif /* BB_GRID2D_KERNELS_H */
