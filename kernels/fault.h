/* Fault injection for tests [README "Fault injection"]: BOXBFS_FAULT names
 * one device call that fails, and bb_fault_wrap puts a table in front of a
 * backend's bb_device_ops_t whose entries count the calls of that kind and
 * fail the N-th, then forward; the same wrapper serves cpu and cuda.
 *
 *   BOXBFS_FAULT=KIND:N[:dev D]   KIND alloc (device and pinned host memory),
 *                                 copy (host <-> device), launch (any kernel),
 *                                 peer_copy; the N-th such call (N >= 1) on
 *                                 any device thread, or on device ordinal D
 *   BOXBFS_FAULT=level:L[:dev D]  the device search or the 2D device loop
 *                                 (any device, or ordinal D) fails as it
 *                                 starts level L: its peers stop waiting for
 *                                 it (the abort word)
 *   BOXBFS_FAULT=wake:N[:dev D]   the device comes to its N-th wake before
 *                                 a search across devices, or its N-th 2D
 *                                 device loop, after the others' meeting
 *                                 timed out
 *   BOXBFS_FAULT=rank:R[:N]       the N-th kernel launch (default 1) of MPI
 *                                 rank R (bb_fault_set_rank) */
#ifndef BB_FAULT_H
#define BB_FAULT_H

#include "kernels/grid2d.h"
#include "kernels/kernels.h"

/* *ops_p = base where BOXBFS_FAULT is unset or empty, else the counting
 * wrapper in front of base. INVALID_ARG names a malformed BOXBFS_FAULT. */
boxbfs_status_t bb_fault_wrap(const bb_device_ops_t *base, const bb_device_ops_t **ops_p);

/* *ops_p = base (the backend's 2D kernels, kernels/grid2d.h) where ops is
 * not a counting wrapper of bb_fault_wrap, else a wrapper in front of base
 * whose kernels count as launches (launch:N) with the device table's. */
boxbfs_status_t bb_fault_wrap_grid2d(const bb_device_ops_t *ops, const bb_grid2d_ops_t *base,
                                     const bb_grid2d_ops_t **ops_p);

/* level:L: L where device dev (opened through the wrapper) is to fail as
 * it starts level L of the 2D device loop; -1 for any other switch, another
 * device, or a device opened without the wrapper. */
int32_t bb_fault_level(const bb_device_t *dev);

/* This process's MPI rank (for rank:R); -1 (the default) outside MPI. */
void bb_fault_set_rank(int rank);

#endif /* BB_FAULT_H */
