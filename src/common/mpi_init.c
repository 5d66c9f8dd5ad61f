/* bb_mpi_init and boxbfs_finalize (see mpi_init.h): the only MPI_Init and
 * MPI_Finalize calls in boxbfs; and bb_mpi_first_failure. */
#include "config.h"

#include "common/mpi_init.h"

#include <limits.h>
#include <stdio.h>

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

int bb_mpi_first_failure(MPI_Comm comm, boxbfs_status_t st, boxbfs_status_t *status_p,
                         char *message, size_t len)
{
    int rank, mine, first;
    struct {
        int status;
        char message[1024];
    } err = {(int)st, ""};
    MPI_Comm_rank(comm, &rank);
    mine = st != BOXBFS_OK ? rank : INT_MAX;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
    if (first == INT_MAX) return -1;
    if (message == NULL) {
        MPI_Bcast(&err.status, 1, MPI_INT, first, comm);
    } else {
        if (first == rank) snprintf(err.message, sizeof err.message, "%s", boxbfs_last_error());
        MPI_Bcast(&err, (int)sizeof err, MPI_BYTE, first, comm);
        snprintf(message, len, "%s", err.message);
    }
    *status_p = (boxbfs_status_t)err.status;
    return first;
}
