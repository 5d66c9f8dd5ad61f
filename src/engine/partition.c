/* Edge-balanced contiguous vertex ranges (see partition.h). */
#include "config.h"

#include "engine/partition.h"

#include <stdlib.h>

#include "common/error.h"

boxbfs_status_t bb_partition_by_edges(const int64_t *offsets, int64_t n, int ndev,
                                      bb_partition_t *part_p)
{
    uint64_t *lo;
    /* weight of [0, v) is offsets[v] + v: find the first v reaching d/ndev of the total */
    double total = (double)offsets[n] + (double)n;
    if (ndev < 1) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "device count %d must be >= 1", ndev);
    BB_CHECK(bb_calloc((size_t)ndev + 1, sizeof *lo, "partition boundaries", &lo));
    lo[0] = 0;
    lo[ndev] = (uint64_t)n;
    for (int d = 1; d < ndev; d++) {
        double target = total * d / ndev;
        int64_t a = (int64_t)lo[d - 1], b = n;
        while (a < b) {   /* first v with weight(v) >= target */
            int64_t mid = a + (b - a) / 2;
            if ((double)offsets[mid] + (double)mid < target) a = mid + 1; else b = mid;
        }
        /* the nearer multiple of BB_PARTITION_ALIGN, not below the previous boundary */
        a = (a + BB_PARTITION_ALIGN / 2) / BB_PARTITION_ALIGN * BB_PARTITION_ALIGN;
        if (a < (int64_t)lo[d - 1]) a = (int64_t)lo[d - 1];
        if (a > n) a = n;
        lo[d] = (uint64_t)a;
    }
    part_p->ndev = ndev;
    part_p->lo = lo;
    return BOXBFS_OK;
}

int bb_partition_owner(const bb_partition_t *part, uint64_t v)
{
    int a = 0, b = part->ndev - 1;
    while (a < b) {
        int mid = (a + b + 1) / 2;
        if (part->lo[mid] <= v) a = mid; else b = mid - 1;
    }
    return a;
}

void bb_partition_free(bb_partition_t *part)
{
    free(part->lo);
    part->lo = NULL;
    part->ndev = 0;
}
