/* The device loop of small levels (bb_kernel_ops_t.small_levels): while a
 * top-down frontier has at most --device-loop arcs, the devices run level
 * after level without the host; afterwards the host reads each device's
 * log and books the levels as if it had run them (level rows, the traffic
 * of every message, the modeled exchange time). On one device the loop can
 * also be queued right behind a host level; across devices every device
 * thread launches its loop at once, and the lists go straight into the
 * owners' inboxes (README "The device loop"). */
#include "config.h"

#include "engine/engine.h"

#include <string.h>

#include "common/error.h"
#include "common/timer.h"

/* Top-down, a frontier within device_loop_arcs: one device, or every device
 * of the process where bb_loop_across_devices (and the exchange is not
 * staged: peer access is missing somewhere). */
int bb_loop_fits(const struct boxbfs_engine *e)
{
    if (e->opts.device_loop_arcs <= 0 || e->dir != BOXBFS_SEARCH_TOP_DOWN ||
        e->total_frontier == 0 || e->total_arcs > (uint64_t)e->opts.device_loop_arcs)
        return 0;
    return e->ndev == 1 || (bb_loop_across_devices(e) && !e->xchg.staged);
}

/* The loop's parameters for a frontier at `level` with the engine's totals. */
static bb_loop_params_t loop_params(const struct boxbfs_engine *e, int level, uint64_t count,
                                    uint64_t arcs, uint64_t prev_count, uint64_t unexplored)
{
    bb_loop_params_t p = {
        .level = level, .max_depth = e->opts.max_depth, .count = count, .arcs = arcs,
        .prev_count = prev_count, .unexplored = unexplored, .n = (uint64_t)e->graph->n,
        .max_arcs = (uint64_t)e->opts.device_loop_arcs,
        /* where choose_direction would turn to bottom-up, the loop stops */
        .alpha = e->bottom_up && e->opts.direction == BOXBFS_SEARCH_AUTO ? e->opts.alpha : 0,
        .td_arcs = e->ndev == 1 ? BB_TOP_DOWN_ARCS : 0,
        .log_cap = bb_loop_log_rows(e->ndev)};
    return p;
}

/* Launch the device loop on k (D->k, or a copy whose frontier is the next
 * one) and read the counters and the log's first BB_LOOP_LOG_FIRST levels
 * back in one round trip; the rest (a road network's long run) after them. */
static boxbfs_status_t run_loop(boxbfs_engine_t e, int d, const bb_kstate_t *k,
                                const bb_loop_params_t *p, uint64_t *runs_p)
{
    bb_engine_dev_t *D = &e->devs[d];
    size_t row = BB_LOG_ROW(e->ndev);
    uint64_t runs;
    BB_CHECK(e->ops->kernels.small_levels(k, e->ops->stream(D->dev), p));
    BB_CHECK(e->ops->copy_d2h(D->dev, D->loop_log, D->k.level_log, BB_LOOP_LOG_FIRST * row * 8));
    BB_CHECK(bb_engine_read_counters(e, d));
    runs = D->ctr[BB_CTR_EXPANDED];
    if (runs == BB_LOOP_FAILED)
        return bb_error_set(BOXBFS_ERR_DEVICE,
                            "device loop on device %d: another device did not reach the level "
                            "in %.0f s (it failed, or the kernels cannot run at once: try "
                            "--device-loop 0)", d, BB_PEER_TIMEOUT_NS * 1e-9);
    if (runs > p->log_cap)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "device loop ran %llu levels, log holds %u",
                            (unsigned long long)runs, p->log_cap);
    if (runs > BB_LOOP_LOG_FIRST) {
        size_t first = BB_LOOP_LOG_FIRST * row;
        BB_CHECK(e->ops->copy_d2h(D->dev, D->loop_log + first, D->k.level_log + first,
                                  (runs - BB_LOOP_LOG_FIRST) * row * 8));
        BB_CHECK(e->ops->sync(D->dev));
    }
    *runs_p = runs;
    return BOXBFS_OK;
}

/* The frontier left by runs levels is in the other buffer when runs is odd. */
static void settle_frontier(boxbfs_engine_t e, int d, uint64_t runs, uint64_t next,
                            uint64_t next_arcs)
{
    bb_engine_dev_t *D = &e->devs[d];
    if (runs % 2) {
        uint32_t *t = D->k.frontier;
        D->k.frontier = D->k.next_frontier;
        D->k.next_frontier = t;
    }
    e->frontier_count[d] = next;
    e->frontier_arcs[d] = next_arcs;
}

/* Book the runs levels one device's loop ran from level *level_p (one row
 * each, times from the device's log; next and next_arcs: the frontier it
 * left); *level_p moves past them. */
boxbfs_status_t bb_loop_book(boxbfs_engine_t e, int d, int *level_p, uint64_t runs, uint64_t next,
                             uint64_t next_arcs)
{
    bb_engine_dev_t *D = &e->devs[d];
    const uint64_t *log = D->loop_log;
    for (uint64_t i = 0; i < runs; i++) {
        const uint64_t *L = log + i * BB_LOG_FIELDS, *N = L + BB_LOG_FIELDS;
        BB_CHECK(bb_engine_book_row(e, *level_p + (int)i, L, BOXBFS_SEARCH_TOP_DOWN, 1,
                                  i + 1 < runs ? N[0] : next, i + 1 < runs ? N[1] : next_arcs));
    }
    settle_frontier(e, d, runs, next, next_arcs);
    e->t_level = bb_now_s();
    *level_p += (int)runs;
    return BOXBFS_OK;
}

/* Book level `level` of a loop across devices from row i of every device's
 * log as a host level: the round's matrices from the logs (lists only), each
 * list on its link (the frontier phase, as the exchange counts it), then
 * bb_engine_book_round; the times are the devices' own, split into expand,
 * exchange (the first meeting) and update (the rest), each level-wide the
 * busiest device's. */
static void book_peer_level(boxbfs_engine_t e, int level, uint64_t i)
{
    int ndev = e->ndev;
    size_t row = BB_LOG_ROW(ndev);
    boxbfs_level_report_t *r = &e->traffic.levels[level];
    uint64_t frontier[BB_LOOP_MAX_DEV];
    for (int s = 0; s < ndev; s++) {
        const uint64_t *L = e->devs[s].loop_log + i * row;
        frontier[s] = L[3];
        for (int d = 0; d < ndev; d++) {
            size_t cell = (size_t)s * ndev + d;
            e->send_count[cell] = d == s ? 0 : L[BB_LOG_SENT + d];
            e->as_bitmap[cell] = 0;
            e->bytes[cell] = e->send_count[cell] * 4;
            if (e->bytes[cell])
                bb_traffic_add(&e->traffic, BOXBFS_PHASE_FRONTIER, level, s, d,
                               (int64_t)e->bytes[cell], 1);
        }
        bb_engine_book_device(e, level, s, L);
    }
    r->device_loop = 1;
    bb_engine_book_round(e, level, BOXBFS_SEARCH_TOP_DOWN, frontier);
}

/* The lists the loop sent in the level it undid (each device's counters),
 * booked at that level, which the host levels run next: their bytes went
 * over the links all the same. */
static void book_spill(boxbfs_engine_t e, int level)
{
    boxbfs_level_report_t *r = &e->traffic.levels[level];
    for (int s = 0; s < e->ndev; s++)
        for (int d = 0; d < e->ndev; d++) {
            uint64_t sent = d == s ? 0 : e->devs[s].ctr[BB_CTR_SEND_COUNT(d)];
            if (!sent) continue;
            bb_traffic_add(&e->traffic, BOXBFS_PHASE_FRONTIER, level, s, d, (int64_t)sent * 4, 1);
            r->sent_vertices += (int64_t)sent;
            r->undone_vertices += (int64_t)sent;
        }
}

/* Every device's thread: the loop across devices from level *level_p,
 * then device 0 books the levels from every device's log while the others
 * wait (two barriers). The levels at which this device sent vertices go to
 * its sent_levels (the parent recompute reads their arcs). Returns 1 in
 * *aborted_p where the search was aborted at a barrier. */
static boxbfs_status_t peer_loop(boxbfs_engine_t e, int d, int *level_p, uint64_t *runs_p,
                                 int *aborted_p)
{
    bb_engine_dev_t *D = &e->devs[d];
    int ndev = e->ndev;
    size_t row = BB_LOG_ROW(ndev);
    bb_loop_params_t p = loop_params(e, *level_p, e->total_frontier, e->total_arcs,
                                     e->prev_total_frontier, e->unexplored);
    uint64_t runs, next = 0, next_arcs = 0;
    p.peers.tag = D->loop_tag;
    p.peers.local_count = e->frontier_count[d];
    p.peers.local_arcs = e->frontier_arcs[d];
    p.peers.timeout_ns = BB_PEER_TIMEOUT_NS;
    p.peers.abort = e->abort_word;
    for (int o = 0; o < ndev; o++) {
        p.peers.mail[o] = e->devs[o].loop_mail;
        p.peers.cap[o] = bb_engine_inbox_cap(e, o);
        if (o == d) continue;
        p.peers.to[o] = bb_engine_inbox_region(e, o, d);
        p.peers.from[o] = bb_engine_inbox_region(e, d, o);
    }
    BB_CHECK(run_loop(e, d, &D->k, &p, &runs));
    D->loop_tag += bb_loop_meetings((uint32_t)runs);
    for (uint64_t i = 0; i < runs; i++) {
        int level = *level_p + (int)i;
        for (int o = 0; o < ndev; o++)
            if (o != d && D->loop_log[i * row + BB_LOG_SENT + o])
                bb_level_set_add(&D->sent_levels, level);
    }
    settle_frontier(e, d, runs, D->ctr[BB_CTR_NEXT], D->ctr[BB_CTR_NEXT_ARCS]);
    *aborted_p = e->team->barrier(e);   /* every log and next frontier is here */
    if (*aborted_p) return BOXBFS_OK;
    if (d == 0) {
        for (int s = 0; s < ndev; s++) {
            next += e->frontier_count[s];
            next_arcs += e->frontier_arcs[s];
        }
        for (uint64_t i = 0; i < runs; i++) {
            int level = *level_p + (int)i;
            const uint64_t *N = D->loop_log + (i + 1) * row;
            book_peer_level(e, level, i);
            BB_CHECK(bb_engine_advance(e, level, i + 1 < runs ? N[0] : next,
                                       i + 1 < runs ? N[1] : next_arcs));
        }
        if (!e->done) book_spill(e, *level_p + (int)runs);
        e->t_level = bb_now_s();
    }
    *aborted_p = e->team->barrier(e);   /* the books and the next direction are set */
    *level_p += (int)runs;
    *runs_p = runs;
    return BOXBFS_OK;
}

boxbfs_status_t bb_loop_run(boxbfs_engine_t e, int d, int *level_p, uint64_t *runs_p,
                            int *aborted_p)
{
    bb_engine_dev_t *D = &e->devs[d];
    bb_loop_params_t p;
    uint64_t runs;
    *aborted_p = 0;
    if (e->ndev > 1) return peer_loop(e, d, level_p, runs_p, aborted_p);
    p = loop_params(e, *level_p, e->total_frontier, e->total_arcs, e->prev_total_frontier,
                    e->unexplored);
    BB_CHECK(run_loop(e, d, &D->k, &p, &runs));
    BB_CHECK(bb_loop_book(e, d, level_p, runs, D->ctr[BB_CTR_NEXT], D->ctr[BB_CTR_NEXT_ARCS]));
    *runs_p = runs;
    return BOXBFS_OK;
}

/* One device, after a top-down level whose frontier shrank (a search's tail,
 * where the small levels begin): the device loop is queued right behind the
 * level, with the level's next frontier and its arcs read on the device
 * (from_counters), so that one round trip reads both instead of two. With
 * the same stopping rule on the same totals it runs exactly the levels that
 * bb_loop_run would run after this level, or none; device_main books them
 * (loop_runs) after this level's row, whose time leaves out theirs. */
int bb_loop_queues(const struct boxbfs_engine *e)
{
    return e->ndev == 1 && e->opts.device_loop_arcs > 0 && e->total_frontier > 0 &&
           e->total_frontier < e->prev_total_frontier;
}

boxbfs_status_t bb_loop_queue(boxbfs_engine_t e, int d, int32_t next_level)
{
    bb_engine_dev_t *D = &e->devs[d];
    bb_kstate_t k = D->k;   /* the level's next frontier is the loop's frontier */
    bb_loop_params_t p = loop_params(e, next_level, 0, 0, e->total_frontier,
                                     bb_unexplored_after(e->unexplored, e->total_arcs));
    uint64_t runs;
    p.from_counters = 1;
    k.frontier = D->k.next_frontier;
    k.next_frontier = D->k.frontier;
    BB_CHECK(run_loop(e, d, &k, &p, &runs));
    D->loop_runs = (int64_t)runs;
    D->loop_next = D->ctr[BB_CTR_NEXT];
    D->loop_next_arcs = D->ctr[BB_CTR_NEXT_ARCS];
    D->loop_s = 0;
    for (uint64_t i = 0; i < runs; i++) D->loop_s += (double)D->loop_log[i * BB_LOG_FIELDS + 2] * 1e-9;
    if (runs > 0) {   /* this level's own next frontier: the loop's first row */
        D->ctr[BB_CTR_NEXT] = D->loop_log[0];
        D->ctr[BB_CTR_NEXT_ARCS] = D->loop_log[1];
    }
    return BOXBFS_OK;
}
