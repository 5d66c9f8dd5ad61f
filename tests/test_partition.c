/* The 1D partition: contiguous ranges covering [0, n), balanced by edges,
 * owner lookup agreeing with the ranges, any device count (also more devices
 * than vertices). */
#include "config.h"

#include <stdlib.h>

#include "boxbfs.h"
#include "check.h"
#include "engine/partition.h"

static void check_partition(const int64_t *off, int64_t n, int ndev)
{
    bb_partition_t p;
    double total = (double)off[n] + (double)n;
    CHECK_OK(bb_partition_by_edges(off, n, ndev, &p));
    CHECK(p.lo[0] == 0 && p.lo[ndev] == (uint64_t)n);
    for (int d = 0; d < ndev; d++) {
        double w = (double)(off[p.lo[d + 1]] - off[p.lo[d]]) + (double)(p.lo[d + 1] - p.lo[d]);
        CHECK(p.lo[d] <= p.lo[d + 1]);
        /* each range within one heaviest vertex and the heaviest alignment
         * run (BB_PARTITION_ALIGN vertices) at each end of the ideal share */
        double maxw = 0, maxrun = 0;
        for (int64_t v = 0; v < n; v++) {
            double vw = (double)(off[v + 1] - off[v]) + 1;
            if (vw > maxw) maxw = vw;
        }
        for (int64_t v = 0; v < n; v += BB_PARTITION_ALIGN) {
            int64_t end = v + BB_PARTITION_ALIGN < n ? v + BB_PARTITION_ALIGN : n;
            double rw = (double)(off[end] - off[v]) + (double)(end - v);
            if (rw > maxrun) maxrun = rw;
        }
        CHECK(w <= total / ndev + maxw + 2 * maxrun + 1e-9);
        if (d > 0 && d < ndev && p.lo[d] < (uint64_t)n) CHECK(p.lo[d] % BB_PARTITION_ALIGN == 0);
        for (uint64_t v = p.lo[d]; v < p.lo[d + 1]; v++) CHECK(bb_partition_owner(&p, v) == d);
    }
    bb_partition_free(&p);
}

int main(void)
{
    boxbfs_graph_t g = NULL;
    int64_t off[6] = {0, 0, 0, 0, 0, 0};
    CHECK_OK(boxbfs_graph_load("kron:10", NULL, &g));
    for (int ndev = 1; ndev <= 9; ndev++)
        check_partition(boxbfs_graph_offsets(g), boxbfs_graph_vertices(g), ndev);
    boxbfs_graph_free(g);
    check_partition(off, 5, 7);   /* isolated vertices, more devices than vertices */
    {
        bb_partition_t p;
        CHECK(bb_partition_by_edges(off, 5, 0, &p) == BOXBFS_ERR_INVALID_ARG);
    }
    CHECK_DONE();
}
