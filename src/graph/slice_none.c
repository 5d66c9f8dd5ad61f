/* Built without MPI: there are no ranks to load slices for. */
#include "config.h"

#include "graph/graph.h"

#include "common/error.h"

boxbfs_status_t bb_graph_load_slice(const char *spec, int directed, int threads,
                                    boxbfs_graph_t *graph_p)
{
    (void)directed;
    (void)threads;
    (void)graph_p;
    return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                        "%s: per-rank slices (mpi_slice) need MPI, and this boxbfs is not built "
                        "with MPI (rebuild with --with-mpi)", spec);
}
