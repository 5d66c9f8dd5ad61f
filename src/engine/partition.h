/* 1D vertex partition [003 §3, 004 §2]: device d owns the contiguous range
 * [lo[d], lo[d+1]) and the adjacency lists of those vertices. Ranges are
 * balanced by edges (each vertex weighs its degree plus one, so ranges of
 * isolated vertices still split), and the owner of a vertex is found by
 * binary search over the ndev + 1 boundaries. Inner boundaries are multiples
 * of BB_PARTITION_ALIGN, so that each device's part of a bitmap over all
 * vertices is whole 32-bit words (the bottom-up frontier all-gather copies
 * them into place). */
#ifndef BB_PARTITION_H
#define BB_PARTITION_H

#include <stdint.h>

#include "boxbfs.h"

#define BB_PARTITION_ALIGN 32

typedef struct {
    int ndev;
    uint64_t *lo;   /* ndev + 1 boundaries, lo[0] = 0, lo[ndev] = n */
} bb_partition_t;

boxbfs_status_t bb_partition_by_edges(const int64_t *offsets, int64_t n, int ndev,
                                      bb_partition_t *part_p);
int bb_partition_owner(const bb_partition_t *part, uint64_t v);
void bb_partition_free(bb_partition_t *part);

#endif /* BB_PARTITION_H */
