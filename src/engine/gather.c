/* Parent gather after the search [DESIGN "Parents"; 004 §2]: a device that
 * discovered a remote vertex kept the parent (remote_parent); the owner only
 * recorded which device delivered it. Owners send each such device the
 * owner-local ids they need (4 bytes each, received into the answering
 * device's outbox at the owner's range offset), the device answers in place
 * with its parent lids (4 bytes each, into the owner's gather_resp), and the
 * owner writes the parents. Both rounds use the left-right schedule and are
 * counted as the parent_gather phase. */
#include "config.h"

#include "engine/engine.h"

#include "common/error.h"
#include "common/timer.h"

boxbfs_status_t bb_engine_gather(boxbfs_engine_t e, int self)
{
    bb_engine_dev_t *D = &e->devs[self];
    const bb_kernel_ops_t *K = &e->ops->kernels;
    void *stream = e->ops->stream(D->dev);
    int ndev = e->ndev;
    bb_exchange_round_t round = {e->src, e->recv, e->bytes, BOXBFS_PHASE_PARENTS, -1};
    double t0 = bb_now_s(), modeled = 0;
    /* requests: owner self -> source s; counts in row self of send_count */
    BB_CHECK(K->gather_requests(&D->k, stream));
    BB_CHECK(e->ops->copy_d2h(D->dev, D->ctr, D->k.counters, BB_CTR_COUNT(ndev) * 8));
    BB_CHECK(e->ops->sync(D->dev));
    for (int s = 0; s < ndev; s++) {
        size_t cell = (size_t)self * ndev + s;
        e->send_count[cell] = s == self ? 0 : D->ctr[BB_CTR_SEND_COUNT(s)];
        e->send_offset[cell] = D->ctr[BB_CTR_SEND_OFFSET(ndev, s)];
        e->bytes[cell] = e->send_count[cell] * 4;
        e->src[cell] = D->k.gather_req + e->send_offset[cell];
        /* owner s's requests land in this device's outbox at s's range offset */
        e->recv[cell] = D->k.outbox + e->part.lo[s];
    }
    if (e->team->publish_rows(e, self)) return BOXBFS_OK;
    if (self == 0) modeled = bb_linkmat_leftright_s(&e->linkmat, e->bytes);
    BB_CHECK(e->team->exchange(e, &round, self));
    if (bb_barrier_aborted(&e->barrier)) return BOXBFS_OK;   /* inbox not whole */
    /* answers: device self answers requester r in place, then sends them back */
    for (int r = 0; r < ndev; r++) {
        size_t in = (size_t)r * ndev + self, out = (size_t)self * ndev + r;
        uint64_t count = r == self ? 0 : e->send_count[in];
        uint32_t *buf = D->k.outbox + e->part.lo[r];
        if (count) BB_CHECK(K->gather_answer(&D->k, stream, buf, count, e->part.lo[r]));
        /* row self now describes answers self -> r (requests were read above) */
        e->src[out] = buf;
        e->bytes[out] = count * 4;
        /* r's answers land in gather_resp where this device's requests to r were */
        e->recv[out] = D->k.gather_resp + e->send_offset[out];
    }
    BB_CHECK(e->ops->sync(D->dev));
    if (e->team->publish_rows(e, self)) return BOXBFS_OK;
    if (self == 0) modeled += bb_linkmat_leftright_s(&e->linkmat, e->bytes);
    BB_CHECK(e->team->exchange(e, &round, self));
    if (bb_barrier_aborted(&e->barrier)) return BOXBFS_OK;   /* inbox not whole */
    for (int s = 0; s < ndev; s++) {
        size_t cell = (size_t)self * ndev + s;
        if (s == self || e->send_count[cell] == 0) continue;
        BB_CHECK(K->gather_apply(&D->k, stream, D->k.gather_req + e->send_offset[cell],
                                 D->k.gather_resp + e->send_offset[cell], e->send_count[cell],
                                 e->part.lo[s]));
    }
    BB_CHECK(e->ops->sync(D->dev));
    if (self == 0) {
        e->gather_modeled_s = modeled;
        e->report.gather_s = bb_now_s() - t0;
    }
    return BOXBFS_OK;
}
