/* --exchange nccl in one process: the device threads move a round's payloads
 * as NCCL point-to-point messages (kernels/cuda/nccl.cu), each thread its own
 * rank's group, concurrently (NCCL supports one thread per rank; a single
 * thread issuing the ranks' groups in turn would deadlock). The round's
 * sizes are already whole on every device (the rows were published), so
 * messages are exactly their payloads and empty ones are not sent: each send
 * is counted here, where it is issued, as the left-right exchange counts a
 * copy (same bytes, phase and level, one message per non-empty payload).
 * NCCL's messages cannot be paced one by one: --throttle paces the round
 * (no device returns before the link model's time for the round's
 * left-right schedule), as the MPI exchange does.
 * A device's NCCL group completes when its own messages are through: it
 * does not wait for a device it has no message with this round, and NCCL
 * does not promise that a send waits until its receive is posted. The
 * callers write their row of the next round right after some rounds: the
 * 2D engine's fold after expand (a device in B's grid row but not its grid
 * column shares no expand message with B, finishes, and writes a fold size
 * that B, still in expand, reads as an expand size), and the parent
 * gather's answers after its requests (1D and 2D; a hazard where a send
 * completes before its receive is posted). The slower device would post a
 * receive that is never sent, or miss one that is. So the round ends on the
 * process's barrier, as the left-right schedule's last step does (with one
 * device per MPI rank a barrier of one: each rank has its own copy of the
 * matrices). */
#include "config.h"

#include "peer/exchange.h"

#include "common/error.h"
#include "common/timer.h"

static int barrier_aborted(void *arg) { return bb_barrier_aborted((bb_barrier_t *)arg); }

boxbfs_status_t bb_exchange_nccl(const bb_exchange_t *x, const bb_exchange_round_t *r, int self)
{
    size_t n = (size_t)x->ndev;
    double t0 = bb_now_s();
    boxbfs_status_t st;
    if (bb_nccl_ops_ptr == NULL || x->nccl == NULL)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "--exchange nccl without NCCL communicators");
    if (bb_barrier_aborted(x->barrier)) return BOXBFS_OK;   /* the caller sees the abort */
    for (size_t d = 0; d < n; d++) {
        uint64_t bytes = r->bytes[(size_t)self * n + d];
        if (d == (size_t)self || bytes == 0) continue;
        bb_traffic_add(x->traffic, r->phase, r->level, self, (int)d, (int64_t)bytes, 1);
    }
    st = bb_nccl_ops_ptr->round(x->nccl, self, x->ops->stream(x->devs[self]),
                                (const void *const *)r->src, (void *const *)r->recv, r->bytes,
                                barrier_aborted, x->barrier);
    if (st != BOXBFS_OK) {
        bb_barrier_abort(x->barrier);
        return st;
    }
    if (x->throttle) bb_wait_until(t0 + bb_linkmat_leftright_s(x->throttle, r->bytes));
    (void)bb_barrier_wait(x->barrier);   /* aborted: the caller sees it */
    return BOXBFS_OK;
}
