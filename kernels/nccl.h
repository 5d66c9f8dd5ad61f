/* --exchange nccl, the device side: one NCCL communicator per device of this
 * process, rank = engine device index: all of them from ncclCommInitAll when
 * one process drives every GPU, or this process's one rank from
 * ncclCommInitRank when each MPI rank drives one GPU (the unique id made on
 * rank 0 and broadcast by the MPI team); and one round of point-to-point
 * messages per call. Built by
 * kernels/cuda/nccl.cu when configure found NCCL; kernels/cuda/nccl_none.c
 * leaves bb_nccl_ops_ptr NULL otherwise. No NCCL or CUDA type crosses this
 * header: communicators are opaque, streams are the backend's void *. */
#ifndef BB_NCCL_H
#define BB_NCCL_H

#include <stdint.h>

#include "boxbfs.h"

typedef struct bb_nccl bb_nccl_t;

/* sizeof(ncclUniqueId) (NCCL_UNIQUE_ID_BYTES), checked where nccl.h is seen */
#define BB_NCCL_ID_BYTES 128

typedef struct {
    /* One communicator per device: rank r drives the GPU of ordinal
     * ordinals[r] (n of them, all different). Sets NCCL_NVLS_ENABLE=0 in the
     * process environment first when it is unset (the GPU machines need NVLink
     * SHARP off). Errors: DEVICE with NCCL's message (ncclCommInitAll),
     * INVALID_ARG for a repeated ordinal, NO_MEMORY. */
    boxbfs_status_t (*open)(const int *ordinals, int n, bb_nccl_t **nccl_p);
    /* Rank 0 of a communicator spanning processes: a fresh unique id for
     * every process to pass to open_rank. Errors: DEVICE with NCCL's message. */
    boxbfs_status_t (*unique_id)(unsigned char id[BB_NCCL_ID_BYTES]);
    /* This process's one rank (engine device `rank` of nranks) of the
     * communicator named by id, on GPU `ordinal`; every process calls it
     * with the same id, concurrently (ncclCommInitRank blocks until all
     * ranks have joined). Sets NCCL_NVLS_ENABLE=0 as open does. Errors:
     * DEVICE with NCCL's message, NO_MEMORY. */
    boxbfs_status_t (*open_rank)(const unsigned char id[BB_NCCL_ID_BYTES], int nranks, int rank,
                                 int ordinal, bb_nccl_t **nccl_p);
    /* Done with the communicators; NULL is fine. A clique from open with
     * every rank alive and no asynchronous error is kept for the next open
     * over the same ordinals (one clique at a time: keeping one destroys
     * the one kept before, an open over other ordinals or the process's
     * exit destroys it); any other is destroyed. */
    void (*close)(bb_nccl_t *nccl);
    /* Rank self's part of one round: bytes[s * n + d] is what s sends to d,
     * from src[s * n + d] (memory of s) into recv[d * n + s] (memory of d).
     * Inside one ncclGroupStart/ncclGroupEnd, an ncclSend for every non-empty
     * message of row self and an ncclRecv for every non-empty message of
     * column self, on stream; then waits for the stream. self must be a
     * rank this process opened. Every rank of the
     * communicator calls it for the same round concurrently, each from its
     * own host thread. While waiting it polls aborted(arg): when another
     * device failed it aborts this rank's communicator (no hang on a dead
     * partner) and returns DEVICE; later rounds on it fail at once. */
    boxbfs_status_t (*round)(bb_nccl_t *nccl, int self, void *stream, const void *const *src,
                             void *const *recv, const uint64_t *bytes,
                             int (*aborted)(void *arg), void *arg);
} bb_nccl_ops_t;

/* NULL when built without NCCL. */
extern const bb_nccl_ops_t *const bb_nccl_ops_ptr;

#endif /* BB_NCCL_H */
