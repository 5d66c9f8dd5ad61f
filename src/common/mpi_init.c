/* bb_mpi_init and boxbfs_finalize (see mpi_init.h): the only MPI_Init and
 * MPI_Finalize calls in boxbfs. */
#include "config.h"

#include "common/mpi_init.h"

#include <mpi.h>

#include "common/error.h"

static int initialized_here;   /* boxbfs called MPI_Init: boxbfs_finalize ends it */

boxbfs_status_t bb_mpi_init(void)
{
    int flag = 0, provided;
    MPI_Finalized(&flag);
    if (flag) return bb_error_set(BOXBFS_ERR_DEVICE, "MPI was finalized already: it cannot start again");
    MPI_Initialized(&flag);
    if (flag) return BOXBFS_OK;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return bb_error_set(BOXBFS_ERR_DEVICE, "MPI_Init_thread failed");
    initialized_here = 1;
    return BOXBFS_OK;
}

void boxbfs_finalize(void)
{
    int finalized = 0;
    if (!initialized_here) return;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
    initialized_here = 0;
}
