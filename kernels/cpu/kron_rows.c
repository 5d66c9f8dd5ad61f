/* kernels.h kron_rows on the host: bb_kron_rows (src/graph/kron_rows.c)
 * makes the rows, copied into the device's arrays (host memory) with 32-bit
 * heads. */
#include "config.h"

#include <string.h>

#include "common/error.h"
#include "graph/graph.h"
#include "kernels/cpu/cpu_kernels.h"

boxbfs_status_t bb_cpu_kron_rows(const bb_kstate_t *k, void *stream, const bb_kron_job_t *job,
                                 uint64_t cap, int64_t *credit, uint64_t *arcs_p)
{
    const uint64_t nloc = k->hi - k->lo;
    bb_rows_t rows;
    (void)stream;
    BB_CHECK(bb_kron_rows(job->scale, job->edgefactor, job->seed, 0, 0, (int64_t)k->lo,
                          (int64_t)k->hi, &rows));
    const uint64_t arcs = (uint64_t)rows.offsets[nloc];
    boxbfs_status_t st = BOXBFS_OK;
    *arcs_p = arcs;
    if (cap > 0 && cap < arcs) {
        st = bb_error_set(BOXBFS_ERR_INTERNAL, "kron_rows: %llu arcs for a room of %llu",
                          (unsigned long long)arcs, (unsigned long long)cap);
    } else if (cap > 0) {
        uint32_t *columns = (uint32_t *)k->columns;
        memcpy((int64_t *)k->offsets, rows.offsets, (size_t)(nloc + 1) * 8);
        for (uint64_t i = 0; i < arcs; i++) columns[i] = (uint32_t)rows.columns[i];
        memcpy(credit, rows.edge_credit, (size_t)nloc * 8);
    }
    bb_rows_free(&rows);
    return st;
}
