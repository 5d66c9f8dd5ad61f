/* Built without MPI: no MPI team (--exchange mpi says it is not built in),
 * and nothing to finalize. */
#include "config.h"

#include "engine/engine.h"

const bb_team_ops_t *const bb_team_mpi_ptr = NULL;

void boxbfs_finalize(void) {}
