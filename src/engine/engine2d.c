/* The 2D-partitioned BFS [004 §2.2, §3, §5] (README "2D partition").
 *
 * R x C devices: device p sits at grid row p % R, grid column p / R, and owns
 * vertex block p (bs ids, bs a multiple of 32): the level, parent and
 * frontier of those vertices. It holds one block of the adjacency matrix:
 * the arcs u -> v with u among its grid column's vertices (blocks
 * jR .. jR+R-1, contiguous) and v among its grid row's (blocks jR + i for
 * every j), as a CSR with 32-bit local ids (kernels/grid2d.h), and a visited
 * bitmap and discovered-parent array over its grid row's vertices.
 *
 * A top-down level, on every device:
 *   expand  the owned frontier goes to the other R - 1 devices of the grid
 *           column (a list of block-local ids, or a bitmap of the block when
 *           that is smaller: --wire); each device then holds the column's
 *           frontier and scans its block's arcs from it, keeping targets not
 *           yet visited here with their parents, grouped by their owner's
 *           grid column;
 *   fold    each group goes to its owner, one of the C - 1 other devices of
 *           the grid row, as (vertex, parent) pairs;
 *   update  the owner keeps what it had not reached, with the parent that
 *           came with it: the next frontier (its own discoveries join it in
 *           expand already [004 Algorithm 3]);
 *   stop    when every next frontier is empty: each device's size goes to
 *           device 0, which sends every size back (the next expand's
 *           message sizes).
 * A bottom-up level (bottom_up below; the same direction rule as 1D, where
 * bottom-up levels may run each device also holds its block transposed and
 * its owned vertices' out-degrees) gathers the column's frontier as a
 * bitmap in the same expand round, searches parents along the grid row in C
 * sub-steps, and folds (id, parent) pairs to the owners.
 * The host reads a device's counters once after expand (the fold's sizes; on
 * a grid of one column the level's counts too), and again only after
 * updates from other devices; it waits for its stream otherwise only before
 * peers read freshly packed bitmaps.
 * A device thus talks to R + C - 2 peers per level instead of P - 1. Both
 * rounds go through the exchange of the run (--exchange peer|host: the
 * left-right schedule, whose non-empty steps are exactly left-right within
 * each grid column, then within each grid row; nccl: NCCL point-to-point in
 * one process or one GPU per MPI rank; mpi), and each message is counted on
 * its link, in the phases `expand` and `fold`, where the exchange issues it
 * (the same code for every exchange); the 8-byte size of every message of a
 * round in `sizes`, booked from the published rows (shared memory, or
 * MPI_Allgather across processes, as in 1D). Every fold carries the
 * parents, so no parent gather follows the search (where [004 §3.3] sends
 * ids alone and asks the discoverers afterwards: 4 bytes a vertex in the
 * fold and 8 in the gather, against 8 in the pairs).
 * A device writes its row of the next round right after a round (fold after
 * expand): every exchange returns only once every device of the process has
 * finished reading the round (exchange.h). */
#include "config.h"

#include "engine/engine2d.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/timer.h"
#include "engine/block2d.h"
#include "engine/engine.h"
#include "kernels/fault.h"
#include "kernels/grid2d.h"

typedef struct {
    bb_g2state_t k;
    uint32_t *packed;      /* bs bits: the own frontier's bitmap */
    uint32_t *inbox_col;   /* R x bs: the expand message of each device of the column */
    uint32_t *inbox_row;   /* C x 2 bs: the fold's pairs from each device of the row */
    uint32_t *done;        /* bs bits: a bottom-up sub-step's slice, sent to the left */
    uint32_t *done_in[2];  /* bs bits each: the slices from the right, by sub-step parity */
    uint64_t *ctr;         /* host copy of k.counters */
    uint64_t arcs;         /* arcs of the block */
    uint64_t *colcount;    /* R: the column's frontier sizes, read before the expand round
                              (a device past it may publish its next one) */
    int in_bits;           /* the owned frontier is k.frontier_bits (after a bottom-up level),
                              else the list k.frontier */
    /* the device loop of small top-down levels (run_loop): this device's
     * mailbox, its level rows and result (device memory; kernels/grid2d.h
     * bb_g2loop_t), their host copy (LOOP_LOG rows, then the result), and
     * the out-arcs of the owned frontier (the loop's rule) */
    uint64_t *loop_mail, *loop_log, *loop_out;
    uint64_t *loop_rows;
    uint64_t out_arcs;
} g2dev_t;

struct bb_grid2d {
    int rows, cols;
    uint64_t bs;
    const bb_grid2d_ops_t *kops;
    g2dev_t *dev;
    /* device 0's books of the level in progress */
    double modeled_s;
    int64_t sent_vertices, bitmap_messages;
    /* the device loop (loop_fits): this engine's searches may run it; every
     * device's inbox_col, inbox_row and mailbox, where the loop stores */
    int loop;
    uint32_t **inbox_col, **inbox_row;
    uint64_t **mail;
};

/* Rows of a device's loop log: a loop stops when it is full, and the host
 * books its levels and starts it again. */
#define LOOP_LOG 1024

#define SYNC_ALL(e) (e)->team->barrier(e)
/* Another device failed and aborted the team (its failure is recorded; the
 * first one wins): the helpers stop, the thread leaves through bb_engine_fail. */
#define ABORTED BOXBFS_ERR_INTERNAL

static int grid_row(const struct bb_grid2d *g, int p) { return p % g->rows; }
static int grid_col(const struct bb_grid2d *g, int p) { return p / g->rows; }

/* The device loop of small top-down levels may run (its arrays are set
 * up): the backend has one, every device is a thread of this process, and
 * the levels' messages are the peer exchange's lists (--exchange peer, no
 * --throttle, --wire list or auto), with --device-loop above 0. */
static int loop_possible(const boxbfs_engine_t e)
{
    const boxbfs_engine_options_t *o = &e->opts;
    return e->grid->kops->levels != NULL && e->team == &bb_team_threads &&
           o->exchange == BOXBFS_EXCHANGE_PEER && !o->throttle && o->device_loop_arcs > 0 &&
           o->wire != BOXBFS_WIRE_BITMAP;
}

boxbfs_status_t bb_grid2d_check(boxbfs_graph_t g, const boxbfs_engine_options_t *o)
{
    if (o->partition != BOXBFS_PARTITION_2D) return BOXBFS_OK;
    if (o->backend != BOXBFS_BACKEND_CPU && bb_cuda_grid2d_ops_ptr == NULL)
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "--partition 2d: the cuda backend's 2D kernels are not built in (use "
                            "--backend cpu)");
    if ((o->grid_rows == 0) != (o->grid_cols == 0) || o->grid_rows < 0 || o->grid_cols < 0 ||
        o->grid_rows > 1024 || o->grid_cols > 1024)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "grid %dx%d: rows and columns must be in [1, 1024] (0x0: the "
                            "squarest grid)", o->grid_rows, o->grid_cols);
    if (g->on_devices)
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "graph %s is built on the devices, in the 1d partition: --partition "
                            "2d needs it built on the host", g->name);
    if (bb_graph_is_slice(g))
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "graph %s is an MPI rank's slice of the 1D partition: --partition 2d "
                            "needs the whole graph on every rank (--whole-graph)", g->name);
    return BOXBFS_OK;
}

boxbfs_status_t bb_grid2d_partition(boxbfs_engine_t e)
{
    struct bb_grid2d *g;
    int rows = e->opts.grid_rows, cols = e->opts.grid_cols, ndev = e->ndev;
    uint64_t n = (uint64_t)e->graph->n, bs;
    if (rows == 0 && cols == 0) boxbfs_grid_default(ndev, &rows, &cols);
    if ((long)rows * cols != ndev)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "grid %dx%d has %ld devices, but the search runs on %d (--grid RxC "
                            "needs R x C = --devices, or the ranks of mpirun)", rows, cols,
                            (long)rows * cols, ndev);
    bs = (n + (uint64_t)ndev - 1) / (uint64_t)ndev;
    bs = (bs + 31) / 32 * 32;
    if (bs == 0) bs = 32;
    if ((uint64_t)(rows > cols ? rows : cols) * bs >= UINT32_MAX)
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "grid %dx%d on %llu vertices: a grid row or column holds 2^32 ids or "
                            "more (32-bit local ids); use a squarer grid", rows, cols,
                            (unsigned long long)n);
    BB_CHECK(bb_calloc(1, sizeof *g, "the 2D grid", &g));
    e->grid = g;
    g->rows = rows;
    g->cols = cols;
    g->bs = bs;
    g->kops = e->opts.backend == BOXBFS_BACKEND_CPU ? &bb_cpu_grid2d_ops : bb_cuda_grid2d_ops_ptr;
    BB_CHECK(bb_fault_wrap_grid2d(e->ops, g->kops, &g->kops));   /* BOXBFS_FAULT (tests) */
    e->opts.grid_rows = rows;
    e->opts.grid_cols = cols;
    BB_CHECK(bb_calloc((size_t)ndev, sizeof *g->dev, "2D device records", &g->dev));
    g->loop = loop_possible(e);
    if (g->loop) {
        BB_CHECK(bb_calloc((size_t)ndev, sizeof *g->inbox_col, "the loop's inboxes", &g->inbox_col));
        BB_CHECK(bb_calloc((size_t)ndev, sizeof *g->inbox_row, "the loop's inboxes", &g->inbox_row));
        BB_CHECK(bb_calloc((size_t)ndev, sizeof *g->mail, "the loop's mailboxes", &g->mail));
    }
    BB_CHECK(bb_calloc((size_t)ndev + 1, sizeof *e->part.lo, "the partition", &e->part.lo));
    e->part.ndev = ndev;
    for (int p = 0; p <= ndev; p++) e->part.lo[p] = (uint64_t)p * bs < n ? (uint64_t)p * bs : n;
    return BOXBFS_OK;
}

void bb_grid2d_free(boxbfs_engine_t e)
{
    struct bb_grid2d *g = e->grid;
    if (g == NULL) return;
    for (int d = 0; g->dev && d < e->ndev; d++) {
        if (g->dev[d].ctr) e->ops->host_free(e->devs[d].dev, g->dev[d].ctr);
        if (g->dev[d].loop_rows) e->ops->host_free(e->devs[d].dev, g->dev[d].loop_rows);
        free(g->dev[d].colcount);
    }
    free(g->inbox_col);
    free(g->inbox_row);
    free(g->mail);
    free(g->dev);
    free(g);
    e->grid = NULL;
}

/* What device d holds, in bytes (the memory plan). A grid of one row has
 * no column frontier to assemble: expand reads the frontier in place. */
typedef struct {
    size_t block, state, row_state, work, scratch, total;
} plan2d_t;

/* tarcs: the transposed block's arcs, when bottom-up levels may run (else
 * ~0: none of their arrays); skip: the visited-prefix skip's arrays; the
 * device loop's (g->loop: its mailbox, log and result, and the degrees) */
static void plan(const struct bb_grid2d *g, uint64_t arcs, uint64_t tarcs, size_t scratch,
                 int skip, plan2d_t *p)
{
    size_t bs = (size_t)g->bs, R = (size_t)g->rows, C = (size_t)g->cols;
    int bu = tarcs != UINT64_MAX;
    p->block = (R * bs + 1) * 8 + (size_t)arcs * 4 + (bu ? (C * bs + 1) * 8 + tarcs * 4 : 0);
    p->state = bs * (4 + 8 + 4 + 4 + (bu || g->loop ? 4 : 0)) +   /* level, pred, frontiers, */
               BB_G2_CTR_COUNT(C) * 8 +                           /* degree */
               (g->loop ? (BB_G2_MAIL_WORDS(R, C) + LOOP_LOG * BB_G2_LOG_ROW(C) +
                           BB_G2_LOOP_OUT) * 8 : 0);
    p->row_state = C * bs / 8 +                                  /* visited */
                   (skip ? C * bs * 8 + 8 : 0);                  /* rank, by_rank, prefix */
    p->work = (R > 1 ? R * bs * 4 * 2 : 0) + R * bs * 4 +        /* colfront, inbox_col; scan */
              C * bs * 8 * 2 +                      /* outbox, inbox_row: pairs */
              bs / 8 +                              /* packed */
              (bu ? R * bs / 8 + 4 * bs / 8 : 0) +  /* colbits, done, done_in, frontier_bits */
              (skip ? R * bs * 4 : 0);              /* skip */
    p->scratch = scratch;
    p->total = p->block + p->state + p->row_state + p->work + p->scratch;
}

/* Device d's grid row ranked by decreasing degree (the whole graph's order,
 * bb_engine_skip_order, restricted to the row; its ids past the graph
 * last), and its block's rows (offsets off, columns col) by their heads'
 * ranks. rank and by_rank: cols * bs entries each. */
static boxbfs_status_t rank_row(boxbfs_engine_t e, int d, const int64_t *off, uint32_t *col,
                                uint32_t *rank, uint32_t *by_rank)
{
    const struct bb_grid2d *g = e->grid;
    const uint64_t bs = g->bs, R = (uint64_t)g->rows, ids = (uint64_t)g->cols * bs;
    const uint64_t n = (uint64_t)e->graph->n, row = (uint64_t)grid_row(g, d);
    uint64_t r = 0;
    BB_CHECK(bb_engine_skip_order(e));
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t v = e->skip_order[i], b = v / bs;
        if (b % R != row) continue;
        by_rank[r] = (uint32_t)((b / R) * bs + v % bs);
        rank[by_rank[r]] = (uint32_t)r;
        r++;
    }
    for (uint64_t l = 0; l < ids; l++) {   /* ids past the graph's last vertex */
        const uint64_t v = ((l / bs) * R + row) * bs + l % bs;
        if (v < n) continue;
        by_rank[r] = (uint32_t)l;
        rank[l] = (uint32_t)r++;
    }
    return bb_rows_by_rank(off, col, (int64_t)(R * bs), rank, by_rank);
}

boxbfs_status_t bb_grid2d_setup_device(boxbfs_engine_t e, int d)
{
    struct bb_grid2d *g = e->grid;
    g2dev_t *G = &g->dev[d];
    bb_g2state_t *k = &G->k;
    bb_engine_dev_t *D = &e->devs[d];
    size_t bs = (size_t)g->bs, R = (size_t)g->rows, C = (size_t)g->cols, free_b, total_b;
    size_t scratch;
    int64_t *off = NULL, *toff = NULL;
    uint32_t *col = NULL, *tcol = NULL, *degree = NULL, *rank = NULL, *by_rank = NULL;
    uint64_t tarcs = UINT64_MAX;
    int skip = bb_engine_skip_asked();   /* dropped below where a device has no room */
    plan2d_t p;
    boxbfs_status_t st = BOXBFS_OK;
    bb_block2d_spec_t spec = {e->graph->offsets, e->graph->columns, (uint64_t)e->graph->n,
                              g->bs, g->rows, g->cols, grid_row(g, d), grid_col(g, d), 0};
    /* the degree scan of a whole column frontier (no sort: no work entries) */
    BB_CHECK(e->ops->scratch_bytes(D->dev, 0, R * bs, e->ndev, &scratch));
    BB_CHECK(bb_calloc(R, sizeof *G->colcount, "the column's frontier sizes", &G->colcount));
    BB_CHECK(bb_block2d_build(&spec, d, &off, &col, &G->arcs));
    if (e->bottom_up) {   /* in-arcs: the transpose on a directed graph */
        spec.transposed = 1;
        if (e->in_offsets) {
            spec.offsets = e->in_offsets;
            spec.columns = e->in_columns;
        }
        BB_CHECK_GOTO(bb_block2d_build(&spec, d, &toff, &tcol, &tarcs), st, out);
    }
    if (e->bottom_up || g->loop) {   /* the direction rule's and the loop's out-arcs */
        BB_CHECK_GOTO(bb_calloc(bs, sizeof *degree, "the owned vertices' degrees", &degree), st,
                      out);
        for (uint64_t v = 0; v < e->part.lo[d + 1] - e->part.lo[d]; v++) {
            uint64_t gv = e->part.lo[d] + v;
            int64_t deg = e->graph->offsets[gv + 1] - e->graph->offsets[gv];
            degree[v] = deg > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)deg;
        }
    }
    plan(g, G->arcs, tarcs, scratch, skip, &p);
    BB_CHECK_GOTO(e->ops->mem_info(D->dev, &free_b, &total_b), st, out);
    if (e->opts.device_memory_limit && e->opts.device_memory_limit < free_b)
        free_b = e->opts.device_memory_limit;
    if (skip && p.total > free_b) {   /* the skip goes first */
        skip = 0;
        plan(g, G->arcs, tarcs, scratch, skip, &p);
        if (p.total <= free_b) bb_engine_dropped(e, d, BB_SKIP_ARRAYS);
    }
    if (p.total > free_b)
        BB_FAIL_GOTO(st, BOXBFS_ERR_DEVICE_MEMORY, out,
                     "device %d (%s) needs %.2f GiB for its 2D share but has %.2f GiB free: "
                     "block of the matrix %.2f, owned vertex state %.2f, grid-row state %.2f, "
                     "level work %.2f GiB; try more devices", d, D->name,
                     p.total / 1073741824.0, free_b / 1073741824.0, p.block / 1073741824.0,
                     p.state / 1073741824.0, p.row_state / 1073741824.0,
                     (p.work + p.scratch) / 1073741824.0);
    *k = (bb_g2state_t){.rows = g->rows, .cols = g->cols, .row = grid_row(g, d),
                        .col = grid_col(g, d), .self = d, .n = (uint64_t)e->graph->n,
                        .bs = g->bs, .lo = e->part.lo[d],
                        .nloc = e->part.lo[d + 1] - e->part.lo[d],
                        .expand = (int)e->opts.expand,
                        .expand_k = e->opts.expand_edges_per_thread,
                        .expand_f0 = (uint32_t)e->opts.expand_f0};
    BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, (R * bs + 1) * 8, &k->offsets), st, out);
    BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, (size_t)(G->arcs ? G->arcs : 1) * 4, &k->columns),
                  st, out);
    BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, bs * 4, &k->level), st, out);
    BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, bs * 8, &k->pred), st, out);
    BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, bs * 4, &k->frontier), st, out);
    BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, bs * 4, &k->next_frontier), st, out);
    BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, C * bs / 8, &k->visited), st, out);
    D->visited_bytes = C * bs / 8;
    if (R > 1) {
        BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, R * bs * 4, &k->colfront), st, out);
        BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, R * bs * 4, &G->inbox_col), st, out);
    } else {
        k->colfront = k->frontier;
    }
    BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, R * bs * 4, &k->scan), st, out);
    if (scratch) BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, scratch, &k->scratch), st, out);
    k->scratch_bytes = scratch;
    k->seg = 2 * bs;
    BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, C * k->seg * 4, &k->outbox), st, out);
    BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, BB_G2_CTR_COUNT(C) * 8, &k->counters), st, out);
    BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, bs / 8, &G->packed), st, out);
    BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, C * k->seg * 4, &G->inbox_row), st, out);
    if (e->bottom_up) {
        BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, (C * bs + 1) * 8, &k->toffsets), st, out);
        BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, (size_t)(tarcs ? tarcs : 1) * 4, &k->tcolumns),
                      st, out);
        BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, R * bs / 8, &k->colbits), st, out);
        BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, bs / 8, &k->frontier_bits), st, out);
        BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, bs / 8, &G->done), st, out);
        for (int i = 0; i < 2; i++)
            BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, bs / 8, &G->done_in[i]), st, out);
        BB_CHECK_GOTO(e->ops->copy_h2d(D->dev, (void *)k->toffsets, toff, (C * bs + 1) * 8), st,
                      out);
        if (tarcs)
            BB_CHECK_GOTO(e->ops->copy_h2d(D->dev, (void *)k->tcolumns, tcol, (size_t)tarcs * 4),
                          st, out);
    }
    if (degree) {
        BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, bs * 4, &k->degree), st, out);
        BB_CHECK_GOTO(e->ops->copy_h2d(D->dev, (void *)k->degree, degree, bs * 4), st, out);
    }
    if (g->loop) {   /* the device loop: a fresh mailbox holds no tag (kernels/grid2d.h) */
        size_t mail = BB_G2_MAIL_WORDS(R, C) * 8, rows = LOOP_LOG * BB_G2_LOG_ROW(C) * 8;
        BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, mail, &G->loop_mail), st, out);
        BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, rows, &G->loop_log), st, out);
        BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, BB_G2_LOOP_OUT * 8, &G->loop_out), st, out);
        BB_CHECK_GOTO(e->ops->zero(D->dev, G->loop_mail, mail), st, out);
        BB_CHECK_GOTO(e->ops->host_alloc(D->dev, rows + BB_G2_LOOP_OUT * 8,
                                         (void **)&G->loop_rows), st, out);
        g->inbox_col[d] = G->inbox_col;
        g->inbox_row[d] = G->inbox_row;
        g->mail[d] = G->loop_mail;
    }
    if (skip) {
        BB_CHECK_GOTO(bb_malloc(C * bs * 4, "the grid row's ranks", &rank), st, out);
        BB_CHECK_GOTO(bb_malloc(C * bs * 4, "the grid row's vertices by rank", &by_rank), st, out);
        BB_CHECK_GOTO(rank_row(e, d, off, col, rank, by_rank), st, out);
        BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, C * bs * 4, &k->rank), st, out);
        BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, C * bs * 4, &k->by_rank), st, out);
        BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, 8, &k->prefix), st, out);
        BB_CHECK_GOTO(bb_engine_dev_alloc(e, d, R * bs * 4, &k->skip), st, out);
        BB_CHECK_GOTO(e->ops->copy_h2d(D->dev, (void *)k->rank, rank, C * bs * 4), st, out);
        BB_CHECK_GOTO(e->ops->copy_h2d(D->dev, (void *)k->by_rank, by_rank, C * bs * 4), st, out);
        BB_CHECK_GOTO(e->ops->zero(D->dev, k->prefix, 8), st, out);
        D->skips = 1;
    }
    BB_CHECK_GOTO(e->ops->host_alloc(D->dev, BB_G2_CTR_COUNT(C) * 8, (void **)&G->ctr), st, out);
    memset(G->ctr, 0, BB_G2_CTR_COUNT(C) * 8);
    BB_CHECK_GOTO(e->ops->copy_h2d(D->dev, (void *)k->offsets, off, (R * bs + 1) * 8), st, out);
    if (G->arcs)
        BB_CHECK_GOTO(e->ops->copy_h2d(D->dev, (void *)k->columns, col, (size_t)G->arcs * 4), st,
                      out);
    BB_CHECK_GOTO(e->ops->sync(D->dev), st, out);
out:
    free(off);
    free(col);
    free(toff);
    free(tcol);
    free(degree);
    free(rank);
    free(by_rank);
    return st;
}

static boxbfs_status_t read_counters(boxbfs_engine_t e, int d)
{
    g2dev_t *G = &e->grid->dev[d];
    BB_CHECK(e->ops->copy_d2h(e->devs[d].dev, G->ctr, G->k.counters,
                              BB_G2_CTR_COUNT(e->grid->cols) * 8));
    return e->ops->sync(e->devs[d].dev);
}

/* count block-local ids of list as a bitmap of the block at bits. */
static boxbfs_status_t pack(boxbfs_engine_t e, int d, const uint32_t *list, uint64_t count,
                            uint32_t *bits)
{
    bb_kstate_t none;
    memset(&none, 0, sizeof none);
    return e->ops->kernels.pack_bitmap(&none, e->ops->stream(e->devs[d].dev), list, count, bits,
                                       e->grid->bs);
}

/* A message of count block-local ids goes as a bitmap of the block when
 * --wire says so (auto: when the list would be longer) [004 §5]. */
static int as_bitmap(const boxbfs_engine_t e, uint64_t count)
{
    uint64_t words = e->grid->bs / 32;
    return count > 0 && (e->opts.wire == BOXBFS_WIRE_BITMAP ||
                         (e->opts.wire == BOXBFS_WIRE_AUTO && count > words));
}

static void clear_row(boxbfs_engine_t e, int d)
{
    size_t row = (size_t)d * e->ndev;
    memset(e->send_count + row, 0, (size_t)e->ndev * 8);
    memset(e->send_offset + row, 0, (size_t)e->ndev * 8);
    memset(e->bytes + row, 0, (size_t)e->ndev * 8);
    memset(e->as_bitmap + row, 0, (size_t)e->ndev);
}

/* A bottom-up level's expand message is always a bitmap of the block (as
 * 1D's bottom-up parts are, whatever --wire says): its frontier is large,
 * the receiver wants bits, and a list would have to be made from the bits
 * the level before left. */
static int expand_bitmap(const boxbfs_engine_t e, uint64_t count, int bottom_up)
{
    return count > 0 && (bottom_up || as_bitmap(e, count));
}

/* Row d of a round: count ids to peer o, from list (or, bitmap set, its
 * bitmap at bits). */
static void set_cell(boxbfs_engine_t e, int d, int o, uint64_t count, int bitmap,
                     const uint32_t *list, const uint32_t *bits)
{
    size_t cell = (size_t)d * e->ndev + o;
    e->send_count[cell] = count;
    e->as_bitmap[cell] = (uint8_t)bitmap;
    e->bytes[cell] = bitmap ? e->grid->bs / 8 : count * 4;
    e->src[cell] = bitmap ? (const void *)bits : (const void *)list;
}

/* Row d of a bottom-up fold: count (id, parent) pairs to peer o. */
static void set_pairs(boxbfs_engine_t e, int d, int o, uint64_t count, const uint32_t *pairs)
{
    size_t cell = (size_t)d * e->ndev + o;
    e->send_count[cell] = count;
    e->as_bitmap[cell] = 0;
    e->bytes[cell] = count * 8;
    e->src[cell] = pairs;
}

/* Device 0, once a round's rows are published: the receivers of a fold
 * learn every message's size (8 bytes per pair of the grid row, as 1D counts
 * every pair; an expand message's size is the sender's frontier size, which
 * every device has from the termination round before), the sent vertices,
 * and the round's modeled time. */
static void book_round(boxbfs_engine_t e, int level, int column)
{
    struct bb_grid2d *g = e->grid;
    for (int s = 0; s < e->ndev; s++)
        for (int d = 0; d < e->ndev; d++) {
            size_t cell = (size_t)s * e->ndev + d;
            int peers = column ? grid_col(g, s) == grid_col(g, d) : grid_row(g, s) == grid_row(g, d);
            if (s == d || !peers) continue;
            if (!column) bb_traffic_add(&e->traffic, BOXBFS_PHASE_SIZES, level, s, d, 8, 1);
            g->sent_vertices += (int64_t)e->send_count[cell];
            g->bitmap_messages += e->as_bitmap[cell] && e->send_count[cell];
        }
    g->modeled_s += bb_linkmat_leftright_s(&e->linkmat, e->bytes);
}

/* The owned frontier to the grid column (list or bitmap, --wire); the
 * column's frontier then goes to colfront as a list (top-down: *total ids)
 * or to colbits as a bitmap (bottom-up). */
static boxbfs_status_t gather_column(boxbfs_engine_t e, int d, int level, uint64_t fcount,
                                     int bottom_up, uint64_t *total)
{
    struct bb_grid2d *g = e->grid;
    g2dev_t *G = &g->dev[d];
    bb_engine_dev_t *D = &e->devs[d];
    const bb_grid2d_ops_t *K = g->kops;
    void *stream = e->ops->stream(D->dev);
    int R = g->rows, col = grid_col(g, d);
    int send_bits = R > 1 && expand_bitmap(e, fcount, bottom_up);
    uint64_t bs = g->bs, base = 0;
    bb_exchange_round_t round = {e->src, e->recv, e->bytes, BOXBFS_PHASE_EXPAND, level};
    double t0 = bb_now_s();
    /* the own part as the message needs it: a list goes out as a list */
    if (G->in_bits && R > 1 && !send_bits) {
        BB_CHECK(K->unpack(&G->k, stream, G->k.frontier_bits, fcount, G->k.frontier));
        G->in_bits = 0;
    }
    if (send_bits && !G->in_bits) {
        BB_CHECK(pack(e, d, G->k.frontier, fcount, G->packed));
        BB_CHECK(e->ops->sync(D->dev));
    }
    for (int r = 0; r < R; r++) G->colcount[r] = e->frontier_count[col * R + r];
    if (R > 1) {   /* one grid row: no round */
        clear_row(e, d);
        for (int r = 0; r < R; r++) {
            int o = col * R + r;
            if (o == d) continue;
            set_cell(e, d, o, fcount, send_bits, G->k.frontier,
                     G->in_bits ? G->k.frontier_bits : G->packed);
            e->recv[(size_t)d * e->ndev + o] = G->inbox_col + (size_t)r * bs;
        }
        if (e->team->publish_rows(e, d)) return ABORTED;
        if (d == 0) book_round(e, level, 1);
        BB_CHECK(e->team->exchange(e, &round, d));
    }
    /* every device's part at its block's offset (what o sent is known from
     * o's published frontier size); one grid row and a list: the frontier
     * is the column's, in place */
    for (int r = 0; r < R; r++) {
        int o = col * R + r, own = o == d;
        uint64_t count = G->colcount[r];
        const uint32_t *msg = !own ? G->inbox_col + (size_t)r * bs
                              : G->in_bits ? G->k.frontier_bits : G->k.frontier;
        int bitmap = own ? G->in_bits : expand_bitmap(e, count, bottom_up);
        if (bottom_up) BB_CHECK(K->mark(&G->k, stream, msg, bitmap, count, r));
        else if ((R > 1 || bitmap) && count)
            BB_CHECK(K->append(&G->k, stream, msg, bitmap, count, (uint32_t)(r * bs), base));
        base += count;
    }
    *total = base;
    D->exchange_s = bb_now_s() - t0;
    return BOXBFS_OK;
}

/* Top-down expand: the column's frontier scanned over the block. */
static boxbfs_status_t expand(boxbfs_engine_t e, int d, int level, uint64_t fcount)
{
    g2dev_t *G = &e->grid->dev[d];
    bb_engine_dev_t *D = &e->devs[d];
    uint64_t total;
    double t1;
    BB_CHECK(gather_column(e, d, level, fcount, 0, &total));
    t1 = bb_now_s();
    /* the next frontier is counted from here on, own discoveries first */
    BB_CHECK(e->ops->zero(D->dev, G->k.counters, BB_G2_CTR_COUNT(e->grid->cols) * 8));
    /* a big level raises the visited prefix first: one whose column
     * frontier holds 1/64 of the column's vertices or more (a raise reads
     * about the ranks it passes; small levels pass none) */
    if (G->k.prefix && total >= (uint64_t)e->grid->rows * e->grid->bs / 64)
        BB_CHECK(e->grid->kops->raise_prefix(&G->k, e->ops->stream(D->dev)));
    if (total)
        BB_CHECK(e->grid->kops->expand(&G->k, e->ops->stream(D->dev), total, level + 1));
    BB_CHECK(read_counters(e, d));
    D->expand_s = bb_now_s() - t1;
    return BOXBFS_OK;
}

/* A bottom-up level's search along the grid row [Beamer, Buluc, Asanovic
 * and Patterson 2013, the 2D bottom-up step]: with the column's frontier in
 * colbits, sub-step t takes slice (col + t) mod C (the vertices of the
 * device in that grid column of the row) and looks for parents of the ones
 * not yet done among the column's frontier; the slice's done bits then go
 * to the left neighbour in the row (C - 1 passes of bs bits, phase fold), so
 * that each vertex is found once. Own finds are settled at once; the others
 * go to their owners in the fold that follows. */
static boxbfs_status_t bottom_up(boxbfs_engine_t e, int d, int level, uint64_t fcount)
{
    struct bb_grid2d *g = e->grid;
    g2dev_t *G = &g->dev[d];
    bb_engine_dev_t *D = &e->devs[d];
    void *stream = e->ops->stream(D->dev);
    int R = g->rows, C = g->cols, row = grid_row(g, d), col = grid_col(g, d);
    int left = (col + C - 1) % C * R + row, right = (col + 1) % C * R + row;
    uint64_t bs = g->bs, total;
    bb_exchange_round_t round = {e->src, e->recv, e->bytes, BOXBFS_PHASE_FOLD, level};
    double t;
    BB_CHECK(gather_column(e, d, level, fcount, 1, &total));
    t = bb_now_s();
    D->expand_s = 0;
    BB_CHECK(e->ops->zero(D->dev, G->k.counters, BB_G2_CTR_COUNT(C) * 8));
    for (int step = 0; step < C; step++) {
        int slice = (col + step) % C;
        const uint32_t *in = step == 0 ? G->k.visited + (uint64_t)slice * (bs / 32)
                                       : G->done_in[(step - 1) & 1];
        BB_CHECK(g->kops->bottom_up(&G->k, stream, in, G->done, slice, level + 1));
        if (step == C - 1) break;
        BB_CHECK(e->ops->sync(D->dev));
        D->expand_s += bb_now_s() - t;
        t = bb_now_s();
        clear_row(e, d);
        set_cell(e, d, left, bs, 1, NULL, G->done);   /* a bitmap of the whole slice */
        e->recv[(size_t)d * e->ndev + right] = G->done_in[step & 1];
        if (e->team->publish_rows(e, d)) return ABORTED;
        if (d == 0) {
            g->modeled_s += bb_linkmat_leftright_s(&e->linkmat, e->bytes);
            g->bitmap_messages += e->ndev;
        }
        BB_CHECK(e->team->exchange(e, &round, d));
        D->exchange_s += bb_now_s() - t;
        t = bb_now_s();
    }
    BB_CHECK(read_counters(e, d));
    D->expand_s += bb_now_s() - t;
    return BOXBFS_OK;
}

/* Fold: each owner's discoveries to it within the grid row as (id, parent)
 * pairs, then update (expand took the own ones; after a bottom-up level the
 * owner settles them into its frontier's bitmap). One grid column: no
 * round. Then the counters, read again where updates added to them: the
 * next frontier's size, and its out-arcs where bottom-up levels may run
 * (every kernel that adds a vertex adds its out-degree). */
static boxbfs_status_t fold(boxbfs_engine_t e, int d, int level, int bottom_up)
{
    struct bb_grid2d *g = e->grid;
    g2dev_t *G = &g->dev[d];
    bb_engine_dev_t *D = &e->devs[d];
    const bb_grid2d_ops_t *K = g->kops;
    void *stream = e->ops->stream(D->dev);
    int R = g->rows, C = g->cols, row = grid_row(g, d);
    uint64_t *bucket = G->ctr + BB_G2_CTR_BUCKET;
    bb_exchange_round_t round = {e->src, e->recv, e->bytes, BOXBFS_PHASE_FOLD, level};
    double t0 = bb_now_s(), t1;
    int updated = 0;
    D->update_s = 0;
    if (C == 1) return BOXBFS_OK;   /* expand's counts stand */
    clear_row(e, d);
    for (int j = 0; j < C; j++) {   /* the pairs were complete at expand's read */
        int o = j * R + row;
        if (o == d) continue;
        set_pairs(e, d, o, bucket[j], G->k.outbox + (size_t)j * G->k.seg);
        e->recv[(size_t)d * e->ndev + o] = G->inbox_row + (size_t)j * G->k.seg;
    }
    if (e->team->publish_rows(e, d)) return ABORTED;
    if (d == 0) book_round(e, level, 0);
    BB_CHECK(e->team->exchange(e, &round, d));
    t1 = bb_now_s();
    D->exchange_s += t1 - t0;
    /* after the own discoveries, each sender's in device order: the first
     * to deliver a vertex is its recorded discoverer, on every backend */
    for (int j = 0; j < C; j++) {
        int o = j * R + row;
        size_t cell = (size_t)o * e->ndev + d;
        const uint32_t *msg = G->inbox_row + (size_t)j * G->k.seg;
        if (o == d || e->send_count[cell] == 0) continue;
        if (bottom_up)
            BB_CHECK(K->settle(&G->k, stream, msg, e->send_count[cell], j, level + 1));
        else
            BB_CHECK(K->update(&G->k, stream, msg, e->send_count[cell], j, level + 1));
        updated = 1;
    }
    if (updated) BB_CHECK(read_counters(e, d));   /* else the counts expand read stand */
    D->update_s = bb_now_s() - t1;
    return BOXBFS_OK;
}

/* The level's next frontier becomes the frontier (and, in a grid of one
 * row, the column's frontier that expand reads). */
static void next_frontier(boxbfs_engine_t e, int d)
{
    bb_g2state_t *k = &e->grid->dev[d].k;
    uint32_t *t = k->frontier;
    k->frontier = k->next_frontier;
    k->next_frontier = t;
    if (e->grid->rows == 1) k->colfront = k->frontier;
}

/* After every device published its books for the level: termination, and
 * on device 0 the level's row (frontier, sent vertices, control messages,
 * phase times, modeled time of both rounds; time_s the level's). */
static boxbfs_status_t close_level(boxbfs_engine_t e, int d0, int level, double time_s)
{
    struct bb_grid2d *g = e->grid;
    int ndev = e->ndev;
    uint64_t total_next = 0, arcs = 0;
    /* each device's next-frontier size (and, for the direction rule, its
     * out-arcs) to device 0, which sends back every size (the next expand's
     * message sizes) and the sum of the arcs */
    int64_t arcs_bytes = e->opts.direction == BOXBFS_SEARCH_AUTO && e->bottom_up ? 8 : 0;
    int64_t reduce_bytes = 8 + arcs_bytes, vector_bytes = 8 * (int64_t)ndev + arcs_bytes;
    for (int s = 0; s < ndev; s++) {
        total_next += e->frontier_count[s];
        arcs += e->frontier_arcs[s];
    }
    if (!e->bottom_up) e->total_arcs = arcs;   /* top-down only: the arcs expand scanned */
    if (d0 == 0) {
        boxbfs_level_report_t *r = &e->traffic.levels[level];
        double busiest = 0;
        r->direction = e->dir;
        r->frontier_arcs = (int64_t)e->total_arcs;
        r->unexplored_arcs = (int64_t)e->unexplored;
        r->sent_vertices = g->sent_vertices;
        r->bitmap_messages = g->bitmap_messages;
        r->modeled_exchange_s = g->modeled_s;
        for (int s = 0; s < ndev; s++) {
            bb_engine_dev_t *D = &e->devs[s];
            double sum = D->expand_s + D->exchange_s + D->update_s;
            r->frontier += (int64_t)e->level_frontier[s];
            if (s > 0) {   /* next-frontier sizes: reduce to device 0, broadcast the sum */
                bb_traffic_add(&e->traffic, BOXBFS_PHASE_TERMINATION, level, s, 0, reduce_bytes,
                               1);
                bb_traffic_add(&e->traffic, BOXBFS_PHASE_TERMINATION, level, 0, s, vector_bytes,
                               1);
            }
            e->traffic.level_devices[(size_t)level * ndev + s] = (boxbfs_level_device_t){
                .frontier = (int64_t)e->level_frontier[s], .expand_s = D->expand_s,
                .exchange_s = D->exchange_s, .update_s = D->update_s};
            if (D->expand_s > r->expand_s) r->expand_s = D->expand_s;
            if (D->exchange_s > r->exchange_s) r->exchange_s = D->exchange_s;
            if (D->update_s > r->update_s) r->update_s = D->update_s;
            if (sum > busiest) busiest = sum;
        }
        r->time_s = time_s;
        r->overhead_s = r->time_s > busiest ? r->time_s - busiest : 0;
        e->t_level = bb_now_s();
        g->modeled_s = 0;
        g->sent_vertices = g->bitmap_messages = 0;
    }
    return bb_engine_advance(e, level, total_next, e->bottom_up ? arcs : 0);
}

/* Idle NVLink lanes sleep, and the first store across one waits ~100 us for
 * it to wake (docs/performance.md "The ~120 us first levels"): before its
 * time starts, a search copies up to 4 MiB (whatever the buffer holds) into
 * its region of every grid peer's inbox, where nothing is read before a
 * round overwrites it; not booked. Peer copies in one process only. */
#define WAKE_BYTES ((size_t)4 << 20)
static boxbfs_status_t wake_links(boxbfs_engine_t e, int d)
{
    struct bb_grid2d *g = e->grid;
    g2dev_t *G = &g->dev[d];
    size_t bs = (size_t)g->bs, bytes = bs * 4 < WAKE_BYTES ? bs * 4 : WAKE_BYTES;
    if (e->team != &bb_team_threads || e->xchg.run != bb_exchange_leftright || e->xchg.staged)
        return BOXBFS_OK;
    for (int o = 0; o < e->ndev; o++) {
        const g2dev_t *P = &g->dev[o];
        uint32_t *dst;
        if (o == d) continue;
        if (grid_col(g, o) == grid_col(g, d))
            dst = P->inbox_col + (size_t)grid_row(g, d) * bs;
        else if (grid_row(g, o) == grid_row(g, d))
            dst = P->inbox_row + (size_t)grid_col(g, d) * P->k.seg;
        else
            continue;
        BB_CHECK(e->ops->peer_copy(e->devs[o].dev, dst, e->devs[d].dev, G->k.outbox, bytes));
    }
    return e->ops->sync(e->devs[d].dev);
}

static boxbfs_status_t copy_results(boxbfs_engine_t e, int d)
{
    const bb_g2state_t *k = &e->grid->dev[d].k;
    bb_device_t *dev = e->devs[d].dev;
    if (k->nloc == 0) return BOXBFS_OK;
    if (e->parent_out) BB_CHECK(e->ops->copy_d2h(dev, e->parent_out + k->lo, k->pred, k->nloc * 8));
    if (e->level_out) BB_CHECK(e->ops->copy_d2h(dev, e->level_out + k->lo, k->level, k->nloc * 4));
    return e->ops->sync(dev);
}

/* ---- the device loop of small top-down levels (kernels/grid2d.h bb_g2loop_t) ---- */

/* The loop's parameters on device d before level `level`, from the
 * engine's totals (the same on every device). */
static bb_g2loop_t loop_params(const boxbfs_engine_t e, int d, int level)
{
    const struct bb_grid2d *g = e->grid;
    bb_g2loop_t p;
    uint64_t arcs = 0, most = 0;
    for (int s = 0; s < e->ndev; s++) {
        arcs += g->dev[s].out_arcs;
        if (e->frontier_count[s] > most) most = e->frontier_count[s];
    }
    memset(&p, 0, sizeof p);
    p.level = level;
    p.last_dir = e->prev_dir;
    p.max_depth = e->opts.max_depth;
    p.fault_level = -1;
    p.rule = bb_engine_dir_rule(e);
    p.w = (bb_loop_walk_t){level, 0, e->total_frontier, arcs, e->prev_total_frontier,
                           e->unexplored};
    p.count = e->frontier_count[d];
    p.most = most;
    p.max_arcs = (uint64_t)e->opts.device_loop_arcs;
    p.list_max = g->rows > 1 && e->opts.wire == BOXBFS_WIRE_AUTO ? g->bs / 32 : UINT64_MAX;
    p.log_cap = LOOP_LOG;
    p.tag0 = e->searches << 32;
    p.timeout_ns = BB_PEER_TIMEOUT_NS;
    p.abort = e->abort_word;
    p.inbox_col = g->inbox_col;
    p.inbox_row = g->inbox_row;
    p.mail = g->mail;
    p.log = g->dev[d].loop_log;
    p.out = g->dev[d].loop_out;
    return p;
}

/* Whether level `level` runs in the loop: it is set up, the exchange
 * copies between the devices (no host staging), and the loop's rule lets
 * it run a level (every device decides the same on the engine's totals). */
static int loop_fits(const boxbfs_engine_t e, int level)
{
    bb_g2loop_t p;
    if (!e->grid->loop || e->xchg.staged || e->done || e->dir != BOXBFS_SEARCH_TOP_DOWN) return 0;
    p = loop_params(e, 0, level);
    return !bb_g2_loop_stops(&p, &p.w, p.most, p.last_dir);
}

/* Book level `level` from row i of every device's loop log as the
 * host-driven level would: the expand round's lists and the fold round's
 * pairs on their links with their sizes (book_round), every device's part
 * and times, then close_level (termination, the row, the advance). The
 * level's time is device 0's: every device leaves the level's last meeting
 * at about the same moment, and the busiest device's level times would add
 * up to more than the search (each level's busiest device may have left
 * the meeting before it the earliest). */
static boxbfs_status_t book_loop_level(boxbfs_engine_t e, int level, uint64_t i)
{
    struct bb_grid2d *g = e->grid;
    const int R = g->rows, C = g->cols, ndev = e->ndev;
    const size_t width = BB_G2_LOG_ROW(C);
    double time_s = (double)g->dev[0].loop_rows[i * width + BB_G2_LOG_NS] * 1e-9;
    for (int round = 0; round < 2; round++) {   /* expand (grid columns), fold (grid rows) */
        int column = round == 0;
        if (column ? R == 1 : C == 1) continue;   /* no round */
        for (int s = 0; s < ndev; s++) {
            const uint64_t *L = g->dev[s].loop_rows + i * width;
            clear_row(e, s);
            for (int m = 0; m < (column ? R : C); m++) {
                int o = column ? grid_col(g, s) * R + m : m * R + grid_row(g, s);
                if (o == s) continue;
                if (column) set_cell(e, s, o, L[BB_G2_LOG_FRONTIER], 0, NULL, NULL);
                else set_pairs(e, s, o, L[BB_G2_LOG_PAIRS + m], NULL);
            }
        }
        book_round(e, level, column);
        for (size_t c = 0; c < (size_t)ndev * ndev; c++)   /* as the exchange counts them */
            if (e->bytes[c])
                bb_traffic_add(&e->traffic, column ? BOXBFS_PHASE_EXPAND : BOXBFS_PHASE_FOLD,
                               level, (int)(c / ndev), (int)(c % ndev), (int64_t)e->bytes[c], 1);
    }
    for (int s = 0; s < ndev; s++) {
        const uint64_t *L = g->dev[s].loop_rows + i * width;
        bb_engine_dev_t *D = &e->devs[s];
        e->level_frontier[s] = L[BB_G2_LOG_FRONTIER];
        e->frontier_count[s] = L[BB_G2_LOG_NEXT];
        e->frontier_arcs[s] = L[e->bottom_up ? BB_G2_LOG_NEXT_ARCS : BB_G2_LOG_SCANNED];
        D->expand_s = (double)L[BB_G2_LOG_EXPAND_NS] * 1e-9;
        D->exchange_s = (double)L[BB_G2_LOG_EXCHANGE_NS] * 1e-9;
        D->update_s = (double)L[BB_G2_LOG_UPDATE_NS] * 1e-9;
        D->contract_s = 0;
    }
    BB_CHECK(close_level(e, 0, level, time_s));
    e->traffic.levels[level].device_loop = 1;
    return BOXBFS_OK;
}

/* The message of a loop that a failed meeting ended on device d (the
 * abort word says who failed first; one device has none: itself). */
static boxbfs_status_t loop_failure(const boxbfs_engine_t e, int d, int32_t fault_level)
{
    uint32_t code = e->abort_word ? __atomic_load_n(e->abort_word, __ATOMIC_ACQUIRE)
                                  : (uint32_t)d + 1;
    int failed = (int)(code & ~BB_ABORT_TIMEOUT) - 1;
    if (code & BB_ABORT_TIMEOUT)
        return bb_error_set(BOXBFS_ERR_DEVICE,
                            "2D device loop: device %d waited %.0f s in a meeting for another "
                            "device and gave up (a device failed, or the devices cannot all run "
                            "at once: try --device-loop 0)", failed, BB_PEER_TIMEOUT_NS * 1e-9);
    if (failed == d && fault_level >= 0)
        return bb_error_set(BOXBFS_ERR_DEVICE,
                            "injected fault (BOXBFS_FAULT=level:%d): device %d failed as it "
                            "started level %d of the 2D device loop", fault_level, d,
                            fault_level);
    return bb_error_set(BOXBFS_ERR_DEVICE, "2D device loop: device %d failed; device %d stopped",
                        failed, d);
}

/* Every device's thread: the loop from level *level_p (loop_fits said it
 * runs), then device 0 books its levels from every device's log while the
 * others wait (two barriers); *level_p moves past them. *aborted_p = 1
 * where a barrier was aborted. */
static boxbfs_status_t run_loop(boxbfs_engine_t e, int d, int *level_p, int *aborted_p)
{
    struct bb_grid2d *g = e->grid;
    g2dev_t *G = &g->dev[d];
    bb_engine_dev_t *D = &e->devs[d];
    void *stream = e->ops->stream(D->dev);
    const size_t width = BB_G2_LOG_ROW(g->cols);
    bb_g2loop_t p = loop_params(e, d, *level_p);
    uint64_t *out = G->loop_rows + LOOP_LOG * width, runs;
    double t0 = bb_now_s();
    *aborted_p = 0;
    p.fault_level = bb_fault_level(D->dev);
    if (G->in_bits) {   /* after a bottom-up level: the list the loop sends */
        BB_CHECK(g->kops->unpack(&G->k, stream, G->k.frontier_bits, p.count, G->k.frontier));
        G->in_bits = 0;
    }
    BB_CHECK(g->kops->levels(&G->k, stream, &p));
    BB_CHECK(e->ops->copy_d2h(D->dev, out, G->loop_out, BB_G2_LOOP_OUT * 8));
    BB_CHECK(e->ops->sync(D->dev));
    if (out[1] != BB_MEET_OK) return loop_failure(e, d, p.fault_level);
    runs = out[0];
    if (runs == 0 || runs > LOOP_LOG)
        return bb_error_set(BOXBFS_ERR_INTERNAL,
                            "2D device loop on device %d ran %llu levels from level %d, where "
                            "its rule lets it run 1 to %d", d, (unsigned long long)runs,
                            *level_p, LOOP_LOG);
    BB_CHECK(e->ops->copy_d2h(D->dev, G->loop_rows, G->loop_log, runs * width * 8));
    BB_CHECK(e->ops->sync(D->dev));
    BB_DEBUG(d, "2D device loop: levels %d to %d, %.1f us", *level_p,
             *level_p + (int)runs - 1, (bb_now_s() - t0) * 1e6);
    if (runs % 2) {   /* the last level's next frontier is in the other buffer */
        uint32_t *t = G->k.frontier;
        G->k.frontier = G->k.next_frontier;
        G->k.next_frontier = t;
        if (g->rows == 1) G->k.colfront = G->k.frontier;
    }
    G->out_arcs = G->loop_rows[(runs - 1) * width + BB_G2_LOG_NEXT_ARCS];
    if ((*aborted_p = SYNC_ALL(e))) return BOXBFS_OK;   /* every device's rows are here */
    for (uint64_t i = 0; d == 0 && i < runs; i++) {
        BB_CHECK(book_loop_level(e, *level_p + (int)i, i));
        if (i + 1 < runs && (e->done || e->dir != BOXBFS_SEARCH_TOP_DOWN))
            return bb_error_set(BOXBFS_ERR_INTERNAL,
                                "2D device loop: ran level %d where the engine would not",
                                *level_p + (int)i + 1);
    }
    *aborted_p = SYNC_ALL(e);   /* the books, the totals and the next direction are set */
    *level_p += (int)runs;
    return BOXBFS_OK;
}

boxbfs_status_t bb_grid2d_main(int tid, int nlocal, void *arg)
{
    boxbfs_engine_t e = *(boxbfs_engine_t *)arg;
    int d = e->first + tid;
    g2dev_t *G = &e->grid->dev[d];
    boxbfs_status_t st = BOXBFS_OK;
    (void)nlocal;
    if (d == 0) {
        e->grid->modeled_s = 0;
        e->grid->sent_vertices = e->grid->bitmap_messages = 0;
    }
    BB_CHECK_GOTO(e->grid->kops->reset(&G->k, e->ops->stream(e->devs[d].dev), (uint64_t)e->root),
                  st, out);
    BB_CHECK_GOTO(read_counters(e, d), st, out);
    BB_CHECK_GOTO(wake_links(e, d), st, out);
    G->in_bits = 0;
    e->frontier_count[d] = G->ctr[BB_G2_CTR_NEXT];
    G->out_arcs = G->ctr[BB_G2_CTR_NEXT] ? (uint64_t)e->total_arcs : 0;   /* the root's */
    if (e->team->publish_books(e, d)) return BOXBFS_OK;   /* every device's first frontier */
    if (d == 0) e->t_start = e->t_level = bb_now_s();
    for (int level = 0; !e->done; level++) {
        uint64_t fcount = e->frontier_count[d];
        while (loop_fits(e, level)) {   /* small top-down levels without the host between them */
            int aborted;
            BB_CHECK_GOTO(run_loop(e, d, &level, &aborted), st, out);
            if (aborted) return BOXBFS_OK;
            fcount = e->frontier_count[d];
        }
        if (e->done) break;
        if (e->dir == BOXBFS_SEARCH_BOTTOM_UP)
            BB_CHECK_GOTO(bottom_up(e, d, level, fcount), st, out);
        else
            BB_CHECK_GOTO(expand(e, d, level, fcount), st, out);
        BB_CHECK_GOTO(fold(e, d, level, e->dir == BOXBFS_SEARCH_BOTTOM_UP), st, out);
        G->in_bits = e->dir == BOXBFS_SEARCH_BOTTOM_UP;
        next_frontier(e, d);
        e->level_frontier[d] = fcount;
        e->frontier_count[d] = G->ctr[BB_G2_CTR_NEXT];
        /* what the direction rule needs: the next frontier's out-arcs where
         * bottom-up levels may run, else the arcs this level scanned */
        e->frontier_arcs[d] = G->ctr[e->bottom_up ? BB_G2_CTR_NEXT_ARCS : BB_G2_CTR_ARCS];
        G->out_arcs = G->ctr[BB_G2_CTR_NEXT_ARCS];   /* the loop's rule (0 without degrees) */
        e->devs[d].contract_s = 0;   /* no contraction: the visited bitmap filters in expand */
        if (e->team->publish_books(e, d)) return BOXBFS_OK;
        if (d == e->first)
            BB_CHECK_GOTO(close_level(e, d, level, bb_now_s() - e->t_level), st, out);
        if (SYNC_ALL(e)) return BOXBFS_OK;
    }
    if (SYNC_ALL(e)) return BOXBFS_OK;
    if (d == 0) e->report.time_s = bb_now_s() - e->t_start;
    BB_CHECK_GOTO(copy_results(e, d), st, out);
    BB_CHECK_GOTO(e->team->finish(e, d), st, out);
out:
    if (st != BOXBFS_OK) {
        bb_engine_raise_abort(e, d);   /* the others stop waiting in the loop's meetings */
        bb_engine_fail(e, d, st);
    }
    return BOXBFS_OK;
}
