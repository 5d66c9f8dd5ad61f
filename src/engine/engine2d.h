/* The 2D-partitioned engine [004 §2.2] (README "2D partition"): its own
 * driver beside the 1D one (level.c), over the same graph, device table,
 * team, exchange and traffic books. engine.c calls these where the 1D engine
 * partitions and sets up its devices; boxbfs_engine_run runs bb_grid2d_main
 * on every device thread instead of the 1D level loop. */
#ifndef BB_ENGINE2D_H
#define BB_ENGINE2D_H

#include "boxbfs.h"

/* Options the 2D engine cannot run, refused with a message saying why. */
boxbfs_status_t bb_grid2d_check(boxbfs_graph_t g, const boxbfs_engine_options_t *o);
/* The grid (the squarest when 0 x 0) over e->ndev devices, the block size,
 * e->part (device p owns block p) and e->grid. */
boxbfs_status_t bb_grid2d_partition(boxbfs_engine_t e);
/* Plan, check, allocate and upload device d's block of the matrix. */
boxbfs_status_t bb_grid2d_setup_device(boxbfs_engine_t e, int d);
/* A device thread of one search (bb_parallel_run); arg points to the engine
 * handle (the first member of level.c's run argument). */
boxbfs_status_t bb_grid2d_main(int tid, int nlocal, void *arg);
/* Host memory of e->grid (device memory goes with the devices' allocs). */
void bb_grid2d_free(boxbfs_engine_t e);

#endif /* BB_ENGINE2D_H */
