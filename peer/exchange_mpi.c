/* --exchange mpi: one round's payloads between ranks, point to point. The
 * receiver knows each message's size from the published rows (the `sizes`
 * phase) and where it goes (recv: an inbox region, a gather buffer), so
 * rank self posts MPI_Irecv for the non-empty messages of its column and
 * MPI_Isend for those of its row, then waits for all of them. Point to point
 * rather than MPI_Alltoallv: the payloads of one row lie in different
 * buffers (list segments in the outbox, packed bitmaps in alt) and land at
 * addresses the receiver chose, with no packing copy; an empty message is not
 * sent, as in the left-right schedule, so each send is one counted message.
 * --throttle paces the whole round: a rank returns no earlier than the
 * link model's time for the round's left-right schedule after it began. */
#include "config.h"

#include "peer/exchange.h"

#include <limits.h>
#include <mpi.h>
#include <stdlib.h>

#include "common/error.h"
#include "common/timer.h"

boxbfs_status_t bb_exchange_mpi(const bb_exchange_t *x, const bb_exchange_round_t *r, int self)
{
    MPI_Comm comm = *(MPI_Comm *)x->comm;
    size_t n = (size_t)x->ndev;
    int nreq = 0, rc, tag = (int)r->phase;
    double t0 = bb_now_s();
    MPI_Request *req;
    /* every rank sees the same matrix: all refuse, or none does */
    for (size_t c = 0; c < n * n; c++)
        if (r->bytes[c] > INT_MAX)
            return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                                "a %llu-byte message from device %zu to %zu: MPI messages are at "
                                "most 2^31 - 1 bytes here", (unsigned long long)r->bytes[c],
                                c / n, c % n);
    BB_CHECK(bb_calloc(2 * n, sizeof *req, "MPI requests", &req));
    for (size_t s = 0; s < n; s++) {
        uint64_t bytes = r->bytes[s * n + (size_t)self];
        if (s == (size_t)self || bytes == 0) continue;
        MPI_Irecv(r->recv[(size_t)self * n + s], (int)bytes, MPI_BYTE, (int)s, tag, comm,
                  &req[nreq++]);
    }
    for (size_t d = 0; d < n; d++) {
        size_t cell = (size_t)self * n + d;
        uint64_t bytes = r->bytes[cell];
        if (d == (size_t)self || bytes == 0) continue;
        bb_traffic_add(x->traffic, r->phase, r->level, self, (int)d, (int64_t)bytes, 1);
        MPI_Isend((void *)r->src[cell], (int)bytes, MPI_BYTE, (int)d, tag, comm, &req[nreq++]);
    }
    rc = MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
    free(req);
    if (rc != MPI_SUCCESS) return bb_error_set(BOXBFS_ERR_DEVICE, "MPI_Waitall failed (%d)", rc);
    if (x->throttle) bb_wait_until(t0 + bb_linkmat_leftright_s(x->throttle, r->bytes));
    return BOXBFS_OK;
}
