/* The left-right exchange [003 §5.2] over a backend's peer copies or host
 * staging (see exchange.h). Stream-ordered: the sender issues the copy on its
 * stream and waits for it; a barrier separates the two directions of a step. */
#include "config.h"

#include "peer/exchange.h"

#include "common/error.h"
#include "common/timer.h"

static boxbfs_status_t send_one(const bb_exchange_t *x, const bb_exchange_round_t *r, int s, int d)
{
    size_t cell = (size_t)s * (size_t)x->ndev + (size_t)d;
    uint64_t bytes = r->bytes[cell];
    void *dst = r->recv[(size_t)d * (size_t)x->ndev + (size_t)s];
    double t0 = bb_now_s();
    if (bytes == 0) return BOXBFS_OK;
    bb_traffic_add(x->traffic, r->phase, r->level, s, d, (int64_t)bytes, 1);
    if (x->staged) {
        /* device s -> pinned host -> device d, both issued by s's thread */
        BB_CHECK(x->ops->copy_d2h(x->devs[s], x->stage[s], r->src[cell], bytes));
        BB_CHECK(x->ops->sync(x->devs[s]));
        BB_CHECK(x->ops->copy_h2d(x->devs[d], dst, x->stage[s], bytes));
        BB_CHECK(x->ops->sync(x->devs[d]));
    } else {
        BB_CHECK(x->ops->peer_copy(x->devs[d], dst, x->devs[s], r->src[cell], bytes));
        BB_CHECK(x->ops->sync(x->devs[s]));
    }
    if (x->throttle) bb_wait_until(t0 + bb_linkmat_copy_s(x->throttle, r->bytes, s, d));
    return BOXBFS_OK;
}

boxbfs_status_t bb_exchange_leftright(const bb_exchange_t *x, const bb_exchange_round_t *r,
                                      int self)
{
    boxbfs_status_t st = BOXBFS_OK;
    for (int j = 1; j < x->ndev; j++) {
        /* (a) i -> i + j */
        if (st == BOXBFS_OK && self + j < x->ndev) st = send_one(x, r, self, self + j);
        if (st != BOXBFS_OK) bb_barrier_abort(x->barrier);
        if (bb_barrier_wait(x->barrier)) return st;
        /* (b) i + j -> i */
        if (st == BOXBFS_OK && self - j >= 0) st = send_one(x, r, self, self - j);
        if (st != BOXBFS_OK) bb_barrier_abort(x->barrier);
        if (bb_barrier_wait(x->barrier)) return st;
    }
    return st;
}
