/* Moving data between devices [003 §5.2]. The left-right schedule: for
 * j = 1 .. N-1, every device i with i + j < N sends to i + j, then i + j
 * sends to i; the N-1 steps cover each unordered pair once. Copies are peer
 * copies (--exchange peer), ordered on the devices by events (no host waits
 * per copy), or staged through host memory (--exchange host), where both
 * wait for each copy and a barrier separates the directions (as with
 * --throttle, which paces each copy on the host). --exchange nccl moves the same messages as NCCL
 * point-to-point sends in one group per device (peer/exchange_nccl.c), and
 * --exchange mpi between ranks. Each message is counted on its link as it is
 * issued, so the bytes and messages are the same whatever moves them. */
#ifndef BB_EXCHANGE_H
#define BB_EXCHANGE_H

#include <stdint.h>

#include "boxbfs.h"
#include "common/threads.h"
#include "kernels/kernels.h"
#include "kernels/nccl.h"
#include "peer/traffic.h"

typedef struct bb_exchange bb_exchange_t;

/* Timer slots of the device-ordered exchange (the level uses 0-4): READY,
 * the receiver's work before a round; SENT, a sender's copies of a round. */
#define BB_XCHG_SLOT_READY 5
#define BB_XCHG_SLOT_SENT 6
typedef struct bb_exchange_round bb_exchange_round_t;

/* How one round's payloads move for device self (the team's exchange op
 * calls it; setup picks it from the --exchange option). */
typedef boxbfs_status_t (*bb_exchange_fn)(const bb_exchange_t *x, const bb_exchange_round_t *r,
                                          int self);

struct bb_exchange {
    int ndev;
    bb_exchange_fn run;  /* bb_exchange_leftright or bb_exchange_nccl */
    const bb_device_ops_t *ops;
    bb_device_t **devs;
    bb_barrier_t *barrier;
    bb_traffic_t *traffic;
    int staged;          /* 1: through host staging buffers */
    void **stage;        /* per source device, stage_bytes each (staged only) */
    size_t stage_bytes;
    void *comm;          /* --exchange mpi: the MPI_Comm (rank = device) */
    bb_nccl_t *nccl;     /* --exchange nccl: the communicators (rank = device) */
    /* --throttle: pace every copy to these figures (NULL: as fast as it goes).
     * A copy s -> d issued at t0 returns no earlier than t0 + bb_linkmat_copy_s
     * (latency + bytes / bandwidth, shared slots divided): sleep while more
     * than 200 us remain, then spin on the monotonic clock. */
    const bb_linkmat_t *throttle;
};

/* One all-to-all round: bytes[s * ndev + d] is what s sends to d, from
 * src[s * ndev + d] (memory of s) into recv[d * ndev + s] (memory of d: the
 * receiver says where it takes each source's message). */
struct bb_exchange_round {
    const void **src;    /* [s * ndev + d], on device s */
    void **recv;         /* [d * ndev + s], on device d */
    const uint64_t *bytes;
    boxbfs_phase_t phase;
    int level;           /* for the level table; -1 for none */
};

/* Run the round's left-right schedule for device self; every device thread
 * calls it. On return what self receives is ordered before the later work
 * of self's stream (peer: on the device; staged: already there), and self's
 * sources may be written by its later work. Returns OK, or the failing
 * copy's status; returns OK at once when the barrier was aborted by another
 * device (the caller checks). */
boxbfs_status_t bb_exchange_leftright(const bb_exchange_t *x, const bb_exchange_round_t *r,
                                      int self);

/* --exchange nccl (peer/exchange_nccl.c; one process, or one device per MPI
 * rank): every device thread calls it for the round at the same time (NCCL
 * needs the group calls of all ranks issued concurrently); device self
 * counts each non-empty message of its row on its link, then sends its row
 * and receives its column in one NCCL group on its stream and waits for it,
 * then for this process's other devices (the barrier): as after the
 * left-right schedule, no device returns before every device of the process
 * has read the round's matrices, so each may write its row of the next
 * round at once. Returns OK at once when the barrier was already aborted; a
 * failure aborts the barrier. */
boxbfs_status_t bb_exchange_nccl(const bb_exchange_t *x, const bb_exchange_round_t *r, int self);

/* --exchange mpi (peer/exchange_mpi.c, built with MPI): device self is rank
 * self of x->comm. Every rank knows the whole bytes matrix (the engine
 * published the rows); rank self posts a receive for each non-empty message
 * of column self and a send for each of row self (counted where it is
 * issued), then waits for all. */
boxbfs_status_t bb_exchange_mpi(const bb_exchange_t *x, const bb_exchange_round_t *r, int self);

#endif /* BB_EXCHANGE_H */
