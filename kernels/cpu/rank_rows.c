/* The visited-prefix skip's setup on the host (kernels.h rank_rows, README
 * "Visited-prefix skip"): the engine's degree order becomes by_rank and its
 * inverse rank, then every row of this device is sorted by its heads'
 * ranks (graph/rank_sort.c). */
#include "config.h"

#include <string.h>

#include "common/error.h"
#include "graph/graph.h"
#include "kernels/cpu/cpu_kernels.h"

boxbfs_status_t bb_cpu_rank_rows(const bb_kstate_t *k, void *stream, const int64_t *offsets,
                                 const uint32_t *order)
{
    uint32_t *rank = (uint32_t *)k->rank;
    (void)stream;
    (void)offsets;   /* k->offsets are host memory here */
    memcpy((uint32_t *)k->by_rank, order, (size_t)k->n * 4);
    for (uint64_t r = 0; r < k->n; r++) rank[order[r]] = (uint32_t)r;
    return bb_rows_by_rank(k->offsets, (uint32_t *)k->columns, (int64_t)(k->hi - k->lo), k->rank,
                           k->by_rank);
}
