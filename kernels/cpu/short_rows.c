/* Short rows on the host (kernels.h short_rows; docs/architecture.md, "One
 * device"): the cpu backend's loop levels read them as the cuda kernel
 * does, so that CI runs the format. */
#include "config.h"

#include "kernels/cpu/cpu_kernels.h"

boxbfs_status_t bb_cpu_short_rows(const bb_kstate_t *k, void *stream)
{
    uint32_t *rows = (uint32_t *)k->short_rows;
    (void)stream;
    for (uint64_t v = 0; v < k->hi - k->lo; v++) bb_short_row(k->offsets, k->columns, v, rows + 4 * v);
    return BOXBFS_OK;
}
