/* MPI for the parts of boxbfs that need it (the MPI team, slice loading):
 * one place initializes MPI when the caller has not, and remembers it, so
 * that boxbfs_finalize() ends only what boxbfs began. Built --with-mpi. */
#ifndef BB_MPI_INIT_H
#define BB_MPI_INIT_H

#include "boxbfs.h"

/* MPI_Init_thread (MPI_THREAD_FUNNELED) unless MPI is initialized already.
 * Returns OK, or DEVICE when MPI cannot start (or was finalized). */
boxbfs_status_t bb_mpi_init(void);

#endif /* BB_MPI_INIT_H */
