/* One BFS on the engine: a host thread per device runs the levels
 * [003 §3, 004 §2]: expand the owned frontier, contract it (sort-unique,
 * valid-flag or atomic), exchange each owner's segment with the left-right
 * schedule (list or bitmap on the wire [004 §5]), update, and stop when no
 * device has a next frontier. Device 0's thread also keeps the books for the
 * level (traffic of the small control messages, modeled time, report). How
 * devices meet and share their rows and books is the team's job: threads of
 * one process, or one device per MPI rank (engine.h, bb_team_ops_t). */
#include "config.h"

#include "engine/engine.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/timer.h"

typedef struct {
    boxbfs_engine_t e;
} run_arg_t;

static uint64_t bitmap_words(boxbfs_engine_t e, int o)
{
    return (e->part.lo[o + 1] - e->part.lo[o] + 31) / 32;
}

static boxbfs_status_t read_counters(boxbfs_engine_t e, int d)
{
    bb_engine_dev_t *D = &e->devs[d];
    BB_CHECK(e->ops->copy_d2h(D->dev, D->ctr, D->k.counters, BB_CTR_COUNT(e->ndev) * 8));
    return e->ops->sync(D->dev);
}

/* Expand and contract this device's frontier; leave the segment sizes in row d. */
static boxbfs_status_t expand_contract(boxbfs_engine_t e, int d, uint64_t fcount, int32_t level)
{
    bb_engine_dev_t *D = &e->devs[d];
    const bb_kernel_ops_t *K = &e->ops->kernels;
    void *stream = e->ops->stream(D->dev);
    int ndev = e->ndev;
    uint64_t zero = 0;
    BB_CHECK(e->ops->timer_record(D->dev, 0));
    /* the next frontier is counted from here on (atomic updates own vertices in the expand) */
    BB_CHECK(e->ops->copy_h2d(D->dev, D->k.counters + BB_CTR_NEXT, &zero, 8));
    if (fcount == 0) {
        memset(D->ctr, 0, BB_CTR_COUNT(ndev) * 8);
        BB_CHECK(e->ops->timer_record(D->dev, 1));
        BB_CHECK(e->ops->timer_record(D->dev, 2));
    } else if (e->opts.contract == BOXBFS_CONTRACT_ATOMIC) {
        BB_CHECK(K->expand_atomic(&D->k, stream, fcount, (int)e->opts.expand, level + 1));
        BB_CHECK(e->ops->timer_record(D->dev, 1));
        BB_CHECK(e->ops->timer_record(D->dev, 2));
        BB_CHECK(read_counters(e, d));
    } else {
        /* valid-flag drops visited neighbors in the expand already: the same
         * vertices and bytes as flagging them after the sort, less to sort */
        int filter = e->opts.contract == BOXBFS_CONTRACT_VALID_FLAG;
        BB_CHECK(K->expand(&D->k, stream, fcount, filter, (int)e->opts.expand));
        BB_CHECK(e->ops->timer_record(D->dev, 1));
        BB_CHECK(read_counters(e, d));
        BB_CHECK(K->contract(&D->k, stream, D->ctr[BB_CTR_EXPANDED]));
        BB_CHECK(e->ops->timer_record(D->dev, 2));
        BB_CHECK(read_counters(e, d));
    }
    for (int o = 0; o < ndev; o++) {
        e->send_count[(size_t)d * ndev + o] = D->ctr[BB_CTR_SEND_COUNT(o)];
        e->send_offset[(size_t)d * ndev + o] = D->ctr[BB_CTR_SEND_OFFSET(ndev, o)];
    }
    return BOXBFS_OK;
}

/* Choose list or bitmap per destination, pack bitmaps, fill row d of the round. */
static boxbfs_status_t prepare_sends(boxbfs_engine_t e, int d)
{
    bb_engine_dev_t *D = &e->devs[d];
    int ndev = e->ndev;
    uint64_t packed = 0;   /* words of alt used by bitmaps so far */
    for (int o = 0; o < ndev; o++) {
        size_t cell = (size_t)d * ndev + o;
        uint64_t count = e->send_count[cell], words = bitmap_words(e, o);
        const uint32_t *list = D->k.outbox + e->send_offset[cell];
        int bitmap = count > 0 && (e->opts.wire == BOXBFS_WIRE_BITMAP ||
                                   (e->opts.wire == BOXBFS_WIRE_AUTO && count > words));
        e->as_bitmap[cell] = (uint8_t)bitmap;
        e->bytes[cell] = 0;
        /* where this device takes o's message: its inbox region for o */
        e->recv[(size_t)d * ndev + o] = D->k.inbox + (size_t)o * (D->k.hi - D->k.lo);
        if (o == d || count == 0) continue;
        if (bitmap) {
            uint32_t *bits = D->k.alt + packed;
            BB_CHECK(e->ops->kernels.pack_bitmap(&D->k, e->ops->stream(D->dev), list, count, bits,
                                                 e->part.lo[o + 1] - e->part.lo[o]));
            packed += words;
            e->src[cell] = bits;
            e->bytes[cell] = words * 4;
        } else {
            e->src[cell] = list;
            e->bytes[cell] = count * 4;
        }
    }
    return e->ops->sync(D->dev);
}

/* Own discoveries first (their parents are local), then each source in
 * device order: the first to deliver a vertex becomes its parent's device. */
static boxbfs_status_t update(boxbfs_engine_t e, int d, int32_t next_level, uint64_t *next_p)
{
    bb_engine_dev_t *D = &e->devs[d];
    const bb_kernel_ops_t *K = &e->ops->kernels;
    void *stream = e->ops->stream(D->dev);
    int ndev = e->ndev;
    uint64_t nloc = D->k.hi - D->k.lo;
    size_t own = (size_t)d * ndev + d;
    if (e->send_count[own] > 0)
        BB_CHECK(K->update_list(&D->k, stream, D->k.outbox + e->send_offset[own],
                                D->k.outbox_parent + e->send_offset[own], e->send_count[own], d,
                                next_level));
    for (int s = 0; s < ndev; s++) {
        size_t cell = (size_t)s * ndev + d;
        const uint32_t *in = D->k.inbox + (size_t)s * nloc;
        if (s == d || e->send_count[cell] == 0) continue;
        if (e->as_bitmap[cell])
            BB_CHECK(K->update_bitmap(&D->k, stream, in, nloc, s, next_level));
        else
            BB_CHECK(K->update_list(&D->k, stream, in, NULL, e->send_count[cell], s, next_level));
    }
    BB_CHECK(e->ops->timer_record(D->dev, 4));
    BB_CHECK(read_counters(e, d));
    *next_p = D->ctr[BB_CTR_NEXT];
    return BOXBFS_OK;
}

static void read_phase_times(boxbfs_engine_t e, int d)
{
    bb_engine_dev_t *D = &e->devs[d];
    if (e->ops->timer_elapsed(D->dev, 0, 1, &D->expand_s) != BOXBFS_OK) D->expand_s = 0;
    if (e->ops->timer_elapsed(D->dev, 1, 2, &D->contract_s) != BOXBFS_OK) D->contract_s = 0;
    if (e->ops->timer_elapsed(D->dev, 2, 3, &D->exchange_s) != BOXBFS_OK) D->exchange_s = 0;
    if (e->ops->timer_elapsed(D->dev, 3, 4, &D->update_s) != BOXBFS_OK) D->update_s = 0;
}

/* After every device finished level L and published its books, on the first
 * device of each process: termination and the next level's table row; on
 * device 0 also the books: control messages, level report. Returns non-OK
 * only on allocation failure. */
static boxbfs_status_t close_level(boxbfs_engine_t e, int d0, int level, const uint64_t *frontier,
                                   const uint64_t *next)
{
    int ndev = e->ndev;
    boxbfs_level_report_t *r = &e->traffic.levels[level];
    uint64_t total_next = 0;
    double now = bb_now_s();
    for (int s = 0; s < ndev; s++) total_next += next[s];
    e->done = total_next == 0;
    if (d0 != 0) return e->done ? BOXBFS_OK : bb_traffic_level(&e->traffic, level + 1);
    for (int s = 0; s < ndev; s++) {
        r->frontier += (int64_t)frontier[s];
        for (int d = 0; d < ndev; d++) {
            size_t cell = (size_t)s * ndev + d;
            if (s == d) continue;
            r->sent_vertices += (int64_t)e->send_count[cell];
            r->bitmap_messages += e->as_bitmap[cell] && e->send_count[cell] ? 1 : 0;
            /* the receiver learns each segment's size and format before the copy */
            bb_traffic_add(&e->traffic, BOXBFS_PHASE_SIZES, level, s, d, 8, 1);
        }
        if (s > 0) {   /* next-frontier sizes: reduce to device 0, broadcast the sum */
            bb_traffic_add(&e->traffic, BOXBFS_PHASE_TERMINATION, level, s, 0, 8, 1);
            bb_traffic_add(&e->traffic, BOXBFS_PHASE_TERMINATION, level, 0, s, 8, 1);
        }
        bb_engine_dev_t *D = &e->devs[s];
        e->traffic.level_devices[(size_t)level * ndev + s] =
            (boxbfs_level_device_t){.frontier = (int64_t)frontier[s], .expand_s = D->expand_s,
                                    .contract_s = D->contract_s, .exchange_s = D->exchange_s,
                                    .update_s = D->update_s};
        if (D->expand_s > r->expand_s) r->expand_s = D->expand_s;
        if (D->contract_s > r->contract_s) r->contract_s = D->contract_s;
        if (D->exchange_s > r->exchange_s) r->exchange_s = D->exchange_s;
        if (D->update_s > r->update_s) r->update_s = D->update_s;
    }
    r->modeled_exchange_s = bb_linkmat_leftright_s(&e->linkmat, e->bytes);
    r->time_s = now - e->t_level;
    e->t_level = now;
    return e->done ? BOXBFS_OK : bb_traffic_level(&e->traffic, level + 1);
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

/* Wait for every device; 1 if the search was aborted. */
#define SYNC_ALL(e) (e)->team->barrier(e)

static boxbfs_status_t device_main(int tid, int nlocal, void *arg)
{
    boxbfs_engine_t e = ((run_arg_t *)arg)->e;
    int d = e->first + tid;
    bb_engine_dev_t *D = &e->devs[d];
    boxbfs_status_t st = BOXBFS_OK;
    (void)nlocal;
    BB_CHECK_GOTO(e->ops->kernels.reset(&D->k, e->ops->stream(D->dev), (uint64_t)e->root), st, out);
    BB_CHECK_GOTO(read_counters(e, d), st, out);
    e->frontier_count[d] = D->ctr[BB_CTR_NEXT];
    if (SYNC_ALL(e)) return BOXBFS_OK;
    if (d == 0) e->t_start = e->t_level = bb_now_s();
    for (int level = 0;; level++) {
        uint64_t fcount = e->frontier_count[d], next = 0;
        bb_exchange_round_t round = {e->src, e->recv, e->bytes, BOXBFS_PHASE_FRONTIER, level};
        if (SYNC_ALL(e)) return BOXBFS_OK;   /* everyone read this level's counts */
        BB_CHECK_GOTO(expand_contract(e, d, fcount, level), st, out);
        BB_CHECK_GOTO(prepare_sends(e, d), st, out);
        if (e->team->publish_rows(e, d)) return BOXBFS_OK;   /* every row of the round */
        BB_CHECK_GOTO(e->team->exchange(e, &round, d), st, out);
        BB_CHECK_GOTO(e->ops->timer_record(D->dev, 3), st, out);
        BB_CHECK_GOTO(update(e, d, level + 1, &next), st, out);
        read_phase_times(e, d);
        {
            bb_kstate_t *k = &D->k;   /* the next frontier becomes the frontier */
            uint32_t *t = k->frontier;
            k->frontier = k->next_frontier;
            k->next_frontier = t;
        }
        e->level_frontier[d] = fcount;
        e->frontier_count[d] = next;
        if (e->team->publish_books(e, d)) return BOXBFS_OK;
        if (d == e->first)
            BB_CHECK_GOTO(close_level(e, d, level, e->level_frontier, e->frontier_count), st, out);
        if (SYNC_ALL(e)) return BOXBFS_OK;
        if (e->done) break;
    }
    if (e->ndev > 1) BB_CHECK_GOTO(bb_engine_gather(e, d), st, out);
    if (SYNC_ALL(e)) return BOXBFS_OK;
    if (d == 0) e->report.time_s = bb_now_s() - e->t_start;
    BB_CHECK_GOTO(copy_results(e, d), st, out);
    BB_CHECK_GOTO(e->team->finish(e, d), st, out);
out:
    if (st != BOXBFS_OK) bb_engine_fail(e, st);
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
    e->parent_out = parent ? parent : own_parent;
    e->level_out = level ? level : own_level;
    e->done = 0;
    e->fail = BOXBFS_OK;
    e->gather_modeled_s = 0;
    memset(&e->report, 0, sizeof e->report);
    bb_barrier_reset(&e->barrier);
    bb_traffic_reset(&e->traffic);
    BB_CHECK_GOTO(bb_traffic_level(&e->traffic, 0), st, out);
    BB_CHECK_GOTO(bb_parallel_run(e->nlocal, device_main, &arg), st, out);
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
