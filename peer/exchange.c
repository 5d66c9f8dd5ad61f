/* The left-right exchange [003 §5.2] over a backend's peer copies or host
 * staging (see exchange.h). Peer copies are ordered on the devices: a copy
 * waits on its stream for the receiver's work before the round, the
 * receiver's stream for the copies into it, and the host threads meet twice
 * per round whatever the number of devices. Host staging and --throttle keep
 * the steps on the hosts: the sender waits for each copy, and a barrier
 * separates the two directions of a step. */
#include "config.h"

#include "peer/exchange.h"

#include "common/error.h"
#include "common/timer.h"

static boxbfs_status_t send_one(const bb_exchange_t *x, const bb_exchange_round_t *r, int s, int d,
                                int host_ordered)
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
        if (!host_ordered) BB_CHECK(x->ops->stream_wait(x->devs[s], x->devs[d], BB_XCHG_SLOT_READY));
        BB_CHECK(x->ops->peer_copy(x->devs[d], dst, x->devs[s], r->src[cell], bytes));
        if (host_ordered) BB_CHECK(x->ops->sync(x->devs[s]));
    }
    if (x->throttle) bb_wait_until(t0 + bb_linkmat_copy_s(x->throttle, r->bytes, s, d));
    return BOXBFS_OK;
}

/* Staged or throttled: each step on the hosts. */
static boxbfs_status_t leftright_steps(const bb_exchange_t *x, const bb_exchange_round_t *r,
                                       int self)
{
    boxbfs_status_t st = BOXBFS_OK;
    for (int j = 1; j < x->ndev; j++) {
        /* (a) i -> i + j */
        if (st == BOXBFS_OK && self + j < x->ndev) st = send_one(x, r, self, self + j, 1);
        if (st != BOXBFS_OK) bb_barrier_abort(x->barrier);
        if (bb_barrier_wait(x->barrier)) return st;
        /* (b) i + j -> i */
        if (st == BOXBFS_OK && self - j >= 0) st = send_one(x, r, self, self - j, 1);
        if (st != BOXBFS_OK) bb_barrier_abort(x->barrier);
        if (bb_barrier_wait(x->barrier)) return st;
    }
    return st;
}

/* Peer copies ordered on the devices: every device marks READY (its work
 * so far, which may still use the memory others write into); after a
 * barrier each sender's stream waits for its receiver's READY and copies,
 * in the schedule's order, then marks SENT; after a second barrier each
 * receiver's stream waits for the SENT of every other device (not only of
 * those that sent to it: after that barrier a device may already write its
 * row of the caller's next round, so no row is read there). Both
 * directions of a step may share the link at once (the links are full
 * duplex); the bytes and messages are the same. No mark is recorded again
 * before every wait on it was issued: READY is waited on between the two
 * barriers and marked again only in the next round; SENT is marked again
 * only after the next round's first barrier, which a device reaches after
 * its waits. */
static boxbfs_status_t leftright_ordered(const bb_exchange_t *x, const bb_exchange_round_t *r,
                                         int self)
{
    boxbfs_status_t st;
    bb_device_t *me = x->devs[self];
    int n = x->ndev;
    st = x->ops->timer_record(me, BB_XCHG_SLOT_READY);
    if (st != BOXBFS_OK) bb_barrier_abort(x->barrier);
    if (bb_barrier_wait(x->barrier)) return st;
    for (int j = 1; j < n && st == BOXBFS_OK; j++) {
        if (self + j < n) st = send_one(x, r, self, self + j, 0);
        if (st == BOXBFS_OK && self - j >= 0) st = send_one(x, r, self, self - j, 0);
    }
    if (st == BOXBFS_OK) st = x->ops->timer_record(me, BB_XCHG_SLOT_SENT);
    if (st != BOXBFS_OK) bb_barrier_abort(x->barrier);
    if (bb_barrier_wait(x->barrier)) return st;
    for (int s = 0; s < n && st == BOXBFS_OK; s++)
        if (s != self) st = x->ops->stream_wait(me, x->devs[s], BB_XCHG_SLOT_SENT);
    if (st != BOXBFS_OK) bb_barrier_abort(x->barrier);
    return st;
}

boxbfs_status_t bb_exchange_leftright(const bb_exchange_t *x, const bb_exchange_round_t *r,
                                      int self)
{
    return x->staged || x->throttle ? leftright_steps(x, r, self) : leftright_ordered(x, r, self);
}
