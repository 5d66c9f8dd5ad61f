/* MPI for the parts of boxbfs that need it (the MPI team, slice loading):
 * one place initializes MPI when the caller has not, and remembers it, so
 * that boxbfs_finalize() ends only what boxbfs began; and the agreement on
 * a failure that both use. Built --with-mpi. */
#ifndef BB_MPI_INIT_H
#define BB_MPI_INIT_H

#include <mpi.h>
#include <stddef.h>

#include "boxbfs.h"

/* MPI_Init_thread (MPI_THREAD_FUNNELED) unless MPI is initialized already.
 * Returns OK, or DEVICE when MPI cannot start (or was finalized). */
boxbfs_status_t bb_mpi_init(void);

/* Every rank of comm calls it after its part ended with st: -1 when every
 * rank's part succeeded, else the lowest failing rank, whose status goes to
 * *status_p and, where message is not NULL, its message to message (len
 * bytes; every rank passes NULL, or none does). */
int bb_mpi_first_failure(MPI_Comm comm, boxbfs_status_t st, boxbfs_status_t *status_p,
                         char *message, size_t len);

#endif /* BB_MPI_INIT_H */
