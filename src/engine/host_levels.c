/* Host-driven levels [003 §3, 004 §2], a strategy of the engine (engine.c
 * picks it where the search cannot run on the devices alone): a host thread
 * per device runs the levels. A top-down level expands the owned frontier,
 * contracts it (sort-unique, valid-flag or atomic), exchanges each owner's
 * segment with the left-right schedule (list or bitmap on the wire [004 §5])
 * and updates; a bottom-up level [Beamer] all-gathers every device's part of
 * the frontier as a bitmap and lets each owned unvisited vertex find its
 * parent there; runs of small top-down levels go to the device loop
 * (device_loop.c). The direction of each level follows Beamer's rule on
 * global counts (books.c: the same on every backend and process). Device
 * 0's thread also keeps the books for the level (traffic of the small
 * control messages, modeled time, report). How devices meet and share their
 * rows and books is the team's job: threads of one process, or one device
 * per MPI rank (engine.h, bb_team_ops_t). */
#include "config.h"

#include "engine/engine.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/timer.h"

static uint64_t bitmap_words(boxbfs_engine_t e, int o)
{
    return (e->part.lo[o + 1] - e->part.lo[o] + 31) / 32;
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

/* After every device finished level L and published its books, on the first
 * device of each process: termination and the next level's table row; on
 * device 0 also the books: control messages, level report. Returns non-OK
 * only on allocation failure. */
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

boxbfs_status_t bb_host_levels_run(boxbfs_engine_t e, int d)
{
    bb_engine_dev_t *D = &e->devs[d];
    int marked = 0;   /* the last level was top-down and left own_bits = next frontier */
    for (int level = 0; !e->done; level++) {
        uint64_t fcount = e->frontier_count[d], runs = 0;
        int dir = e->dir, packed = e->prev_dir == BOXBFS_SEARCH_BOTTOM_UP;
        bb_exchange_round_t round = {e->src, e->recv, e->bytes, BOXBFS_PHASE_FRONTIER, level};
        if (dir == BOXBFS_SEARCH_TOP_DOWN && packed)   /* bottom-up left a bitmap: the list */
            BB_CHECK(e->ops->kernels.unpack_bitmap(&D->k, e->ops->stream(D->dev), D->k.own_bits,
                                                   D->k.hi - D->k.lo, D->k.frontier));
        if (D->loop_runs >= 0) {   /* queued behind the last level: its levels, if any */
            runs = (uint64_t)D->loop_runs;
            D->loop_runs = -1;
            if (runs > 0) {
                BB_CHECK(bb_loop_book(e, d, &level, runs, D->loop_next, D->loop_next_arcs));
                marked = 0;
                level--;
                continue;
            }
        } else if (bb_loop_fits(e)) {   /* every device decides so from the same totals */
            int aborted;
            BB_CHECK(bb_loop_run(e, d, &level, &runs, &aborted));
            if (aborted) return BOXBFS_OK;
            if (runs > 0) {
                marked = 0;
                level--;   /* the loop moved past its levels */
                continue;
            }
        }
        /* no barrier here: the last level's closed with one */
        if (dir == BOXBFS_SEARCH_BOTTOM_UP) {
            BB_CHECK(bottom_up_level(e, d, fcount, level, packed || marked));
            marked = 0;
        } else {
            marked = fcount > 0 && bb_engine_td_marks_bits(e);
            BB_CHECK(expand_contract(e, d, fcount, level));
            BB_CHECK(prepare_sends(e, d));
            if (e->team->publish_rows(e, d)) return BOXBFS_OK;   /* every row of the round */
            if (round_has_messages(e)) {
                BB_CHECK(e->team->exchange(e, &round, d));
                if (bb_barrier_aborted(&e->barrier)) return BOXBFS_OK;   /* inbox not whole */
            }
            if (e->ndev > 1) BB_CHECK(stamp(e, d, 3));
            else same(e, d, 3);
            BB_CHECK(update(e, d, level + 1));
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
            BB_CHECK(close_level(e, d, level, e->level_frontier, e->frontier_count,
                                 e->frontier_arcs));
        if (SYNC_ALL(e)) return BOXBFS_OK;
    }
    return BOXBFS_OK;
}
