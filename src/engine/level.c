/* One BFS on the engine: a host thread per device runs the levels
 * [003 §3, 004 §2]. A top-down level expands the owned frontier, contracts
 * it (sort-unique, valid-flag or atomic), exchanges each owner's segment
 * with the left-right schedule (list or bitmap on the wire [004 §5]) and
 * updates; a bottom-up level [Beamer] all-gathers every device's part of the
 * frontier as a bitmap and lets each owned unvisited vertex find its parent
 * there. The direction of each level follows Beamer's rule on global counts
 * (the same on every backend and process). The search stops when no device
 * has a next frontier or at the depth limit. Device 0's thread also keeps
 * the books for the level (traffic of the small control messages, modeled
 * time, report). How devices meet and share their rows and books is the
 * team's job: threads of one process, or one device per MPI rank (engine.h,
 * bb_team_ops_t). */
#include "config.h"

#include "engine/engine.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/timer.h"
#include "engine/engine2d.h"

typedef struct {
    boxbfs_engine_t e;
} run_arg_t;

static uint64_t bitmap_words(boxbfs_engine_t e, int o)
{
    return (e->part.lo[o + 1] - e->part.lo[o] + 31) / 32;
}

boxbfs_status_t bb_engine_read_counters(boxbfs_engine_t e, int d)
{
    bb_engine_dev_t *D = &e->devs[d];
    BB_CHECK(e->ops->copy_d2h(D->dev, D->ctr, D->k.counters, BB_CTR_COUNT(e->ndev) * 8));
    return e->ops->sync(D->dev);
}

/* Phase timestamps (slots 0-4 of a level, read by read_phase_times): stamp
 * records one on the stream after work; same marks a slot that follows
 * another with no work between (one device has no exchange, the atomic
 * method no contraction): no event and no query, several host calls less
 * per level. */
static boxbfs_status_t stamp(boxbfs_engine_t e, int d, int slot)
{
    bb_engine_dev_t *D = &e->devs[d];
    D->alias[slot] = (int8_t)slot;
    D->last_stamp = slot;
    return e->ops->timer_record(D->dev, slot);
}

static void same(boxbfs_engine_t e, int d, int slot)
{
    e->devs[d].alias[slot] = (int8_t)e->devs[d].last_stamp;
}

/* The next frontier and its arcs are counted from here on (the atomic
 * method and bottom-up update own vertices in their first kernel): every
 * counter from the template in one copy (zeros; each owner's send offset at
 * its range's start, where the atomic method's outbox segments begin). */
static boxbfs_status_t begin_level(boxbfs_engine_t e, int d)
{
    bb_engine_dev_t *D = &e->devs[d];
    size_t count = BB_CTR_COUNT(e->ndev);
    BB_CHECK(stamp(e, d, 0));
    return e->ops->copy_h2d(D->dev, D->k.counters, D->ctr + count, count * 8);
}

/* Expand and contract this device's frontier; leave the segment sizes in row d. */
/* One device, atomic, auto: a top-down level also leaves its discoveries as
 * bits of own_bits, so that a bottom-up level next skips the pack of the
 * list (the bits cost a few atomics on an L2-resident bitmap; both backends,
 * the same rows and bytes). */
int bb_engine_td_marks_bits(const struct boxbfs_engine *e)
{
    return e->ndev == 1 && e->bottom_up && e->opts.direction == BOXBFS_SEARCH_AUTO &&
           e->opts.contract == BOXBFS_CONTRACT_ATOMIC;
}

static boxbfs_status_t expand_contract(boxbfs_engine_t e, int d, uint64_t fcount, int32_t level)
{
    bb_engine_dev_t *D = &e->devs[d];
    const bb_kernel_ops_t *K = &e->ops->kernels;
    void *stream = e->ops->stream(D->dev);
    int ndev = e->ndev;
    BB_CHECK(begin_level(e, d));
    if (fcount == 0) {
        memset(D->ctr + BB_CTR_SEND, 0, 2 * (size_t)ndev * 8);
        same(e, d, 1);
        same(e, d, 2);
    } else if (e->opts.contract == BOXBFS_CONTRACT_ATOMIC) {
        if (bb_engine_td_marks_bits(e))   /* zeroed: pack_bitmap of no ids */
            BB_CHECK(K->pack_bitmap(&D->k, stream, D->k.frontier, 0, D->k.own_bits,
                                    D->k.hi - D->k.lo));
        D->k.next_bits = bb_engine_td_marks_bits(e) ? D->k.own_bits : NULL;
        if (D->k.outbox_bits && D->outbox_dirty) {   /* after the last level's copies from it */
            BB_CHECK(e->ops->zero(D->dev, D->k.outbox_bits, (D->k.n + 31) / 32 * 4));
            D->outbox_dirty = 0;
        }
        if (D->k.rank_prefix && bb_prefix_raises(e->total_arcs, D->k.n))
            BB_CHECK(K->raise_prefix(&D->k, stream));
        BB_CHECK(K->expand_atomic(&D->k, stream, fcount, (int)e->opts.expand, level + 1));
        D->k.next_bits = NULL;
        BB_CHECK(stamp(e, d, 1));
        same(e, d, 2);
        /* one device: nothing to send (own vertices are done), so no round trip here */
        if (ndev > 1) BB_CHECK(bb_engine_read_counters(e, d));
        else memset(D->ctr + BB_CTR_SEND, 0, 2 * (size_t)ndev * 8);
    } else {
        /* valid-flag drops visited neighbors in the expand already: the same
         * vertices and bytes as flagging them after the sort, less to sort */
        int filter = e->opts.contract == BOXBFS_CONTRACT_VALID_FLAG;
        BB_CHECK(K->expand(&D->k, stream, fcount, filter, (int)e->opts.expand));
        BB_CHECK(stamp(e, d, 1));
        BB_CHECK(bb_engine_read_counters(e, d));
        BB_CHECK(K->contract(&D->k, stream, D->ctr[BB_CTR_EXPANDED]));
        BB_CHECK(stamp(e, d, 2));
        BB_CHECK(bb_engine_read_counters(e, d));
    }
    for (int o = 0; o < ndev; o++) {
        e->send_count[(size_t)d * ndev + o] = D->ctr[BB_CTR_SEND_COUNT(o)];
        e->send_offset[(size_t)d * ndev + o] = D->ctr[BB_CTR_SEND_OFFSET(ndev, o)];
        if (o != d && D->ctr[BB_CTR_SEND_COUNT(o)]) {   /* bits set; parents to recompute */
            D->outbox_dirty = 1;
            bb_level_set_add(&D->sent_levels, level);
        }
    }
    return BOXBFS_OK;
}

/* Where device d takes source o's message: its inbox region for o. The lean
 * inbox has a region of d's range in words per other source, else a region
 * of the range per source. */
uint32_t *bb_engine_inbox_region(boxbfs_engine_t e, int d, int o)
{
    bb_engine_dev_t *D = &e->devs[d];
    if (bb_engine_lean_outbox(e))
        return D->k.inbox + (size_t)(o - (o > d)) * bitmap_words(e, d);
    return D->k.inbox + (size_t)o * (D->k.hi - D->k.lo);
}

/* MPI moves the messages from the host thread: what the stream wrote must
 * be there first. Peer, staged and NCCL copies follow it on the stream. */
static int host_reads_sends(const struct boxbfs_engine *e)
{
    return e->ndev > 1 && e->opts.exchange == BOXBFS_EXCHANGE_MPI;
}

/* Choose list or bitmap per destination, fill row d of the round. Sort-based
 * and atomic with wire list: a list is the owner's outbox segment, a bitmap is
 * packed from it into alt. The lean outbox (bb_engine_lean_outbox) is the
 * bitmap already: an owner's segment goes as it is, or is unpacked into its
 * list where that is shorter (wire auto). */
static boxbfs_status_t prepare_sends(boxbfs_engine_t e, int d)
{
    bb_engine_dev_t *D = &e->devs[d];
    void *stream = e->ops->stream(D->dev);
    int ndev = e->ndev, lean = bb_engine_lean_outbox(e);
    uint64_t packed = 0;   /* words of alt used by bitmaps so far */
    for (int o = 0; o < ndev; o++) {
        size_t cell = (size_t)d * ndev + o;
        uint64_t count = e->send_count[cell], words = bitmap_words(e, o);
        uint64_t lo = e->part.lo[o], nbits = e->part.lo[o + 1] - lo;
        int bitmap = count > 0 && (e->opts.wire == BOXBFS_WIRE_BITMAP ||
                                   (e->opts.wire == BOXBFS_WIRE_AUTO && count > words));
        e->as_bitmap[cell] = (uint8_t)bitmap;
        e->bytes[cell] = 0;
        if (o == d) continue;
        e->recv[(size_t)d * ndev + o] = bb_engine_inbox_region(e, d, o);
        if (count == 0) continue;
        e->bytes[cell] = bitmap ? words * 4 : count * 4;
        if (lean) {   /* lo is a multiple of 32 (the partition): the segment starts a word */
            const uint32_t *bits = D->k.outbox_bits + lo / 32;
            uint32_t *list = D->k.outbox + lo / 32;
            if (!bitmap) BB_CHECK(e->ops->kernels.unpack_bitmap(&D->k, stream, bits, nbits, list));
            e->src[cell] = bitmap ? (const void *)bits : list;
        } else if (bitmap) {
            uint32_t *bits = D->k.alt + packed;
            BB_CHECK(e->ops->kernels.pack_bitmap(&D->k, stream, D->k.outbox + e->send_offset[cell],
                                                 count, bits, nbits));
            packed += words;
            e->src[cell] = bits;
        } else {
            e->src[cell] = D->k.outbox + e->send_offset[cell];
        }
    }
    return host_reads_sends(e) ? e->ops->sync(D->dev) : BOXBFS_OK;
}

/* A bottom-up level [Beamer]: this device's part of the frontier as a
 * bitmap (packed from the list after a top-down level; written by the last
 * bottom-up step otherwise) goes to every device's copy of the whole
 * frontier bitmap (counted as the frontier_bitmap phase), then every owned
 * vertex not reached yet looks for a parent in it. Timer slots: 0 start,
 * 1 packed, 2 gathered, 3 searched (= 4: no update). */
static boxbfs_status_t bottom_up_level(boxbfs_engine_t e, int d, uint64_t fcount, int32_t level,
                                       int packed)
{
    bb_engine_dev_t *D = &e->devs[d];
    const bb_kernel_ops_t *K = &e->ops->kernels;
    void *stream = e->ops->stream(D->dev);
    int ndev = e->ndev;
    uint64_t lo = D->k.lo, bytes = bitmap_words(e, d) * 4;
    bb_exchange_round_t round = {e->src, e->recv, e->bytes, BOXBFS_PHASE_FRONTIER_BITMAP, level};
    BB_CHECK(begin_level(e, d));
    if (!packed) {
        BB_CHECK(K->pack_bitmap(&D->k, stream, D->k.frontier, fcount, D->k.own_bits,
                                D->k.hi - lo));
        BB_CHECK(stamp(e, d, 1));
    } else {
        same(e, d, 1);
    }
    if (ndev == 1) {   /* the own part is the whole bitmap: the two trade places */
        uint32_t *t = D->k.frontier_bits;
        D->k.frontier_bits = D->k.own_bits;
        D->k.own_bits = t;
    } else {   /* the own part is a local copy; lo is a multiple of 32 (the partition) */
        BB_CHECK(e->ops->peer_copy(D->dev, D->k.frontier_bits + lo / 32, D->dev, D->k.own_bits,
                                   bytes));
    }
    for (int o = 0; o < ndev; o++) {
        size_t cell = (size_t)d * ndev + o;
        e->send_count[cell] = e->send_offset[cell] = 0;
        e->as_bitmap[cell] = 0;
        e->bytes[cell] = o == d ? 0 : bytes;
        e->src[cell] = D->k.own_bits;
        e->recv[cell] = D->k.frontier_bits + e->part.lo[o] / 32;   /* d receives o's part */
    }
    if (host_reads_sends(e)) BB_CHECK(e->ops->sync(D->dev));
    if (e->team->publish_rows(e, d)) return BOXBFS_OK;
    BB_CHECK(e->team->exchange(e, &round, d));
    if (bb_barrier_aborted(&e->barrier)) return BOXBFS_OK;   /* inbox not whole */
    if (ndev > 1) {
        BB_CHECK(stamp(e, d, 2));
        BB_CHECK(K->mark_frontier(&D->k, stream));
    } else {
        same(e, d, 2);
    }
    BB_CHECK(K->bottom_up(&D->k, stream, level + 1));
    BB_CHECK(stamp(e, d, 3));
    same(e, d, 4);
    return bb_engine_read_counters(e, d);
}

/* Own discoveries first (their parents are local), then each source in
 * device order: the first to deliver a vertex becomes its parent's device. */
static boxbfs_status_t update(boxbfs_engine_t e, int d, int32_t next_level)
{
    bb_engine_dev_t *D = &e->devs[d];
    const bb_kernel_ops_t *K = &e->ops->kernels;
    void *stream = e->ops->stream(D->dev);
    int ndev = e->ndev;
    uint64_t nloc = D->k.hi - D->k.lo;
    size_t own = (size_t)d * ndev + d;
    int launched = e->send_count[own] > 0;
    if (launched)
        BB_CHECK(K->update_list(&D->k, stream, D->k.outbox + e->send_offset[own],
                                D->k.outbox_parent, e->send_count[own], d,
                                next_level));
    for (int s = 0; s < ndev; s++) {
        size_t cell = (size_t)s * ndev + d;
        if (s == d || e->send_count[cell] == 0) continue;
        const uint32_t *in = bb_engine_inbox_region(e, d, s);
        launched = 1;
        if (e->as_bitmap[cell])
            BB_CHECK(K->update_bitmap(&D->k, stream, in, nloc, s, next_level));
        else
            BB_CHECK(K->update_list(&D->k, stream, in, NULL, e->send_count[cell], s, next_level));
    }
    if (launched) BB_CHECK(stamp(e, d, 4));
    else same(e, d, 4);
    return bb_loop_queues(e) ? bb_loop_queue(e, d, next_level) : bb_engine_read_counters(e, d);
}

static double elapsed(boxbfs_engine_t e, int d, int from, int to)
{
    const bb_engine_dev_t *D = &e->devs[d];
    double s;
    if (D->alias[from] == D->alias[to]) return 0;   /* no work between them */
    return e->ops->timer_elapsed(D->dev, D->alias[from], D->alias[to], &s) == BOXBFS_OK ? s : 0;
}

/* Slots 0-4 as the level recorded them: top-down expand, contract, exchange,
 * update; bottom-up pack (contract), gather (exchange), search (expand). */
static void read_phase_times(boxbfs_engine_t e, int d, int dir)
{
    bb_engine_dev_t *D = &e->devs[d];
    int bu = dir == BOXBFS_SEARCH_BOTTOM_UP;
    D->contract_s = elapsed(e, d, bu ? 0 : 1, bu ? 1 : 2);
    D->exchange_s = elapsed(e, d, bu ? 1 : 2, bu ? 2 : 3);
    D->expand_s = elapsed(e, d, bu ? 2 : 0, bu ? 3 : 1);
    D->update_s = elapsed(e, d, 3, 4);
}

/* Beamer's rule (bb_choose_direction, kernels.h) on the totals of the next
 * level (e->total_*, e->unexplored). The device loop stops on the same tests
 * (bb_loop_stops), and the device search takes the same rule. */
bb_dir_rule_t bb_engine_dir_rule(const struct boxbfs_engine *e)
{
    bb_dir_rule_t r = {e->bottom_up, (int)e->opts.direction, e->ndev == 1, e->opts.alpha,
                       e->opts.beta, (uint64_t)e->graph->n};
    return r;
}

static int choose_direction(const struct boxbfs_engine *e)
{
    bb_dir_rule_t r = bb_engine_dir_rule(e);
    bb_loop_walk_t w = {0, 0, e->total_frontier, e->total_arcs, e->prev_total_frontier,
                        e->unexplored};
    return bb_choose_direction(&r, &w, e->prev_dir);
}

/* After every device finished level L and published its books, on the first
 * device of each process: termination and the next level's table row; on
 * device 0 also the books: control messages, level report. Returns non-OK
 * only on allocation failure. */
/* After level `level` found total_next vertices with total_arcs out-arcs:
 * termination, the next level's totals and direction (the same on every
 * process), its row in the books. */
boxbfs_status_t bb_engine_advance(boxbfs_engine_t e, int level, uint64_t total_next,
                                  uint64_t total_arcs)
{
    uint64_t level_arcs = e->total_arcs;
    e->done = bb_search_ends(total_next, level + 1, e->opts.max_depth);
    e->unexplored = bb_unexplored_after(e->unexplored, level_arcs);
    e->prev_total_frontier = e->total_frontier;
    e->total_frontier = total_next;
    e->total_arcs = total_arcs;
    e->prev_dir = e->dir;
    e->dir = choose_direction(e);
    return e->done ? BOXBFS_OK : bb_traffic_level(&e->traffic, level + 1);
}

void bb_engine_book_round(boxbfs_engine_t e, int level, int dir, const uint64_t *frontier)
{
    int ndev = e->ndev;
    boxbfs_level_report_t *r = &e->traffic.levels[level];
    /* AUTO's switch needs the frontier's arcs with its size: 16 bytes, else 8 */
    int64_t reduce_bytes = e->opts.direction == BOXBFS_SEARCH_AUTO && e->bottom_up ? 16 : 8;
    r->direction = dir;
    r->frontier_arcs = (int64_t)e->total_arcs;
    r->unexplored_arcs = (int64_t)e->unexplored;
    for (int s = 0; s < ndev; s++) {
        r->frontier += (int64_t)frontier[s];
        for (int d = 0; d < ndev; d++) {
            size_t cell = (size_t)s * ndev + d;
            if (s == d || dir == BOXBFS_SEARCH_BOTTOM_UP) continue;
            r->sent_vertices += (int64_t)e->send_count[cell];
            r->bitmap_messages += e->as_bitmap[cell] && e->send_count[cell] ? 1 : 0;
            /* the receiver learns each segment's size and format before the copy
             * (bottom-up parts have sizes known to all) */
            bb_traffic_add(&e->traffic, BOXBFS_PHASE_SIZES, level, s, d, 8, 1);
        }
        if (s > 0) {   /* next-frontier sizes: reduce to device 0, broadcast the sum */
            bb_traffic_add(&e->traffic, BOXBFS_PHASE_TERMINATION, level, s, 0, reduce_bytes, 1);
            bb_traffic_add(&e->traffic, BOXBFS_PHASE_TERMINATION, level, 0, s, reduce_bytes, 1);
        }
    }
    r->modeled_exchange_s = bb_linkmat_leftright_s(&e->linkmat, e->bytes);
}

static boxbfs_status_t close_level(boxbfs_engine_t e, int d0, int level, const uint64_t *frontier,
                                   const uint64_t *next, const uint64_t *next_arcs)
{
    int ndev = e->ndev;
    boxbfs_level_report_t *r = &e->traffic.levels[level];
    uint64_t total_next = 0, total_arcs = 0;
    double now = bb_now_s(), busiest = 0;
    for (int s = 0; s < ndev; s++) {
        total_next += next[s];
        total_arcs += next_arcs[s];
    }
    if (d0 != 0) return bb_engine_advance(e, level, total_next, total_arcs);
    bb_engine_book_round(e, level, e->dir, frontier);
    for (int s = 0; s < ndev; s++) {
        bb_engine_dev_t *D = &e->devs[s];
        double sum = D->expand_s + D->contract_s + D->exchange_s + D->update_s;
        if (sum > busiest) busiest = sum;
        e->traffic.level_devices[(size_t)level * ndev + s] =
            (boxbfs_level_device_t){.frontier = (int64_t)frontier[s], .expand_s = D->expand_s,
                                    .contract_s = D->contract_s, .exchange_s = D->exchange_s,
                                    .update_s = D->update_s};
        if (D->expand_s > r->expand_s) r->expand_s = D->expand_s;
        if (D->contract_s > r->contract_s) r->contract_s = D->contract_s;
        if (D->exchange_s > r->exchange_s) r->exchange_s = D->exchange_s;
        if (D->update_s > r->update_s) r->update_s = D->update_s;
    }
    /* less the device loop queued behind this level (its rows carry its time) */
    r->time_s = now - e->t_level - (ndev == 1 && e->devs[0].loop_runs > 0 ? e->devs[0].loop_s : 0);
    r->overhead_s = r->time_s > busiest ? r->time_s - busiest : 0;
    e->t_level = now;
    return bb_engine_advance(e, level, total_next, total_arcs);
}

static boxbfs_status_t copy_results(boxbfs_engine_t e, int d)
{
    bb_engine_dev_t *D = &e->devs[d];
    uint64_t nloc = D->k.hi - D->k.lo;
    if (e->parent_out)
        BB_CHECK(e->ops->copy_d2h(D->dev, e->parent_out + D->k.lo, D->k.pred, nloc * 8));
    if (e->level_out)
        BB_CHECK(e->ops->copy_d2h(D->dev, e->level_out + D->k.lo, D->k.level, nloc * 4));
    return e->ops->sync(D->dev);
}

/* A top-down round where no device sends anything (a road network's level
 * whose frontier stays on its owner) needs no exchange: every device reads
 * the same published matrix, and none rewrites its row before the level's
 * books are published, so all skip it together. */
static int round_has_messages(const struct boxbfs_engine *e)
{
    size_t cells = (size_t)e->ndev * (size_t)e->ndev;
    for (size_t c = 0; c < cells; c++)
        if (e->bytes[c]) return 1;
    return 0;
}

/* Wait for every device; 1 if the search was aborted. */
#define SYNC_ALL(e) (e)->team->barrier(e)

static boxbfs_status_t device_main(int tid, int nlocal, void *arg)
{
    boxbfs_engine_t e = ((run_arg_t *)arg)->e;
    int d = e->first + tid;
    bb_engine_dev_t *D = &e->devs[d];
    boxbfs_status_t st = BOXBFS_OK;
    int marked = 0;   /* the last level was top-down and left own_bits = next frontier */
    (void)nlocal;
    D->loop_runs = -1;
    D->outbox_dirty = 1;   /* not cleared since allocated, or the gather's */
    memset(&D->sent_levels, 0, sizeof D->sent_levels);
    BB_CHECK_GOTO(e->ops->kernels.reset(&D->k, e->ops->stream(D->dev), (uint64_t)e->root), st, out);
    BB_CHECK_GOTO(bb_engine_read_counters(e, d), st, out);
    e->frontier_count[d] = D->ctr[BB_CTR_NEXT];
    e->frontier_arcs[d] = D->ctr[BB_CTR_NEXT_ARCS];
    D->loop_tag = e->searches << 32;   /* no mailbox holds a tag of this search yet */
    if (e->search_peers) BB_CHECK_GOTO(bb_search_wake(e, d), st, out);   /* untimed */
    if (SYNC_ALL(e)) return BOXBFS_OK;
    if (d == 0) e->t_start = e->t_level = bb_now_s();
    if (bb_search_fits(e)) {   /* to the end */
        BB_CHECK_GOTO(bb_search_run(e, d), st, out);
        if (bb_barrier_aborted(&e->barrier)) return BOXBFS_OK;
    }
    for (int level = 0; !e->done; level++) {
        uint64_t fcount = e->frontier_count[d], runs = 0;
        int dir = e->dir, packed = e->prev_dir == BOXBFS_SEARCH_BOTTOM_UP;
        bb_exchange_round_t round = {e->src, e->recv, e->bytes, BOXBFS_PHASE_FRONTIER, level};
        if (dir == BOXBFS_SEARCH_TOP_DOWN && packed)   /* bottom-up left a bitmap: the list */
            BB_CHECK_GOTO(e->ops->kernels.unpack_bitmap(&D->k, e->ops->stream(D->dev),
                                                        D->k.own_bits, D->k.hi - D->k.lo,
                                                        D->k.frontier), st, out);
        if (D->loop_runs >= 0) {   /* queued behind the last level: its levels, if any */
            runs = (uint64_t)D->loop_runs;
            D->loop_runs = -1;
            if (runs > 0) {
                BB_CHECK_GOTO(bb_loop_book(e, d, &level, runs, D->loop_next, D->loop_next_arcs),
                              st, out);
                marked = 0;
                level--;
                continue;
            }
        } else if (bb_loop_fits(e)) {   /* every device decides so from the same totals */
            int aborted;
            BB_CHECK_GOTO(bb_loop_run(e, d, &level, &runs, &aborted), st, out);
            if (aborted) return BOXBFS_OK;
            if (runs > 0) {
                marked = 0;
                level--;   /* the loop moved past its levels */
                continue;
            }
        }
        /* no barrier here: the last level's closed with one */
        if (dir == BOXBFS_SEARCH_BOTTOM_UP) {
            BB_CHECK_GOTO(bottom_up_level(e, d, fcount, level, packed || marked), st, out);
            marked = 0;
        } else {
            marked = fcount > 0 && bb_engine_td_marks_bits(e);
            BB_CHECK_GOTO(expand_contract(e, d, fcount, level), st, out);
            BB_CHECK_GOTO(prepare_sends(e, d), st, out);
            if (e->team->publish_rows(e, d)) return BOXBFS_OK;   /* every row of the round */
            if (round_has_messages(e)) {
                BB_CHECK_GOTO(e->team->exchange(e, &round, d), st, out);
                if (bb_barrier_aborted(&e->barrier)) return BOXBFS_OK;   /* inbox not whole */
            }
            if (e->ndev > 1) BB_CHECK_GOTO(stamp(e, d, 3), st, out);
            else same(e, d, 3);
            BB_CHECK_GOTO(update(e, d, level + 1), st, out);
        }
        read_phase_times(e, d, dir);
        {
            bb_kstate_t *k = &D->k;   /* the next frontier becomes the frontier */
            uint32_t *t = k->frontier;
            k->frontier = k->next_frontier;
            k->next_frontier = t;
        }
        e->level_frontier[d] = fcount;
        e->frontier_count[d] = D->ctr[BB_CTR_NEXT];
        e->frontier_arcs[d] = D->ctr[BB_CTR_NEXT_ARCS];
        if (e->team->publish_books(e, d)) return BOXBFS_OK;
        if (d == e->first)
            BB_CHECK_GOTO(close_level(e, d, level, e->level_frontier, e->frontier_count,
                                      e->frontier_arcs), st, out);
        if (SYNC_ALL(e)) return BOXBFS_OK;
    }
    if (e->ndev > 1 && !e->search_peers) BB_CHECK_GOTO(bb_engine_gather(e, d), st, out);
    if (SYNC_ALL(e)) return BOXBFS_OK;
    if (d == 0) e->report.time_s = bb_now_s() - e->t_start;
    BB_CHECK_GOTO(copy_results(e, d), st, out);
    BB_CHECK_GOTO(e->team->finish(e, d), st, out);
out:
    if (st != BOXBFS_OK) {
        bb_engine_raise_abort(e, d);
        bb_engine_fail(e, st);
    }
    return BOXBFS_OK;
}

static void fill_report(boxbfs_engine_t e)
{
    boxbfs_search_report_t *r = &e->report;
    bb_traffic_t *t = &e->traffic;
    r->root = e->root;
    r->levels = t->nlevels;
    r->total_bytes = bb_traffic_total_bytes(t);
    r->total_messages = bb_traffic_total_messages(t);
    memcpy(r->phase_bytes, t->phase_bytes, sizeof r->phase_bytes);
    memcpy(r->phase_messages, t->phase_messages, sizeof r->phase_messages);
    r->link_bytes = t->link_bytes;
    r->link_messages = t->link_messages;
    r->nlevels = t->nlevels;
    r->level_reports = t->levels;
    r->level_link_bytes = t->level_link_bytes;
    r->level_devices = t->level_devices;
    r->modeled_exchange_s = 0;
    for (int l = 0; l < t->nlevels; l++) r->modeled_exchange_s += t->levels[l].modeled_exchange_s;
    r->modeled_exchange_s += e->gather_modeled_s;
}

boxbfs_status_t boxbfs_engine_run(boxbfs_engine_t e, int64_t root, int64_t *parent,
                                  int32_t *level, const boxbfs_search_report_t **report_p)
{
    run_arg_t arg = {e};
    boxbfs_status_t st;
    int64_t *own_parent = NULL;
    int32_t *own_level = NULL;
    if (e == NULL) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "boxbfs_engine_run: NULL engine");
    if (root < 0 || root >= e->graph->n)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "root %lld out of range [0, %lld)",
                            (long long)root, (long long)e->graph->n);
    /* the reached count needs the levels: use a scratch array when not asked */
    if (level == NULL)
        BB_CHECK(bb_malloc((size_t)e->graph->n * 4, "levels", &own_level));
    e->root = root;
    e->searches++;
    e->parent_out = parent ? parent : own_parent;
    e->level_out = level ? level : own_level;
    e->done = e->opts.max_depth == 0;
    /* level 0: the root alone; nothing explored before it */
    e->total_frontier = 1;
    e->prev_total_frontier = 0;
    e->total_arcs = (uint64_t)(e->graph->offsets[root + 1] - e->graph->offsets[root]);
    e->unexplored = (uint64_t)e->graph->arcs;
    e->prev_dir = BOXBFS_SEARCH_TOP_DOWN;
    e->dir = choose_direction(e);
    e->fail = BOXBFS_OK;
    e->gather_modeled_s = 0;
    memset(&e->report, 0, sizeof e->report);
    bb_barrier_reset(&e->barrier);
    if (e->abort_word) __atomic_store_n(e->abort_word, 0, __ATOMIC_RELEASE);
    bb_traffic_reset(&e->traffic);
    BB_CHECK_GOTO(bb_traffic_level(&e->traffic, 0), st, out);
    e->traffic.levels[0].direction = e->dir;   /* the row stays as is with --max-depth 0 */
    /* --partition 2d: its own level loop (engine2d.c) */
    BB_CHECK_GOTO(bb_parallel_run(e->nlocal, e->grid ? bb_grid2d_main : device_main, &arg), st, out);
    if (e->fail != BOXBFS_OK) {
        st = bb_error_set(e->fail, "%s", e->fail_message);
        goto out;
    }
    fill_report(e);
    {   /* this process's rows (another rank's levels are rank 0's only), summed */
        int64_t lo = (int64_t)e->part.lo[e->first], hi = (int64_t)e->part.lo[e->first + e->nlocal];
        e->report.reached = 0;
        for (int64_t v = lo; v < hi; v++) e->report.reached += e->level_out[v] >= 0;
        BB_CHECK_GOTO(e->team->allreduce(e, &e->report.reached, 1, 0), st, out);
    }
    if (report_p) *report_p = &e->report;
out:
    free(own_parent);
    free(own_level);
    e->parent_out = NULL;
    e->level_out = NULL;
    return st;
}
