/* CSR rows to a device over any backend's bb_device_ops_t: the one upload
 * that the level engine, shortest-path counts and multi-source BFS share. */
#ifndef BB_UPLOAD_H
#define BB_UPLOAD_H

#include "kernels/kernels.h"

/* Copy rows [lo, hi) of a CSR to dev: hi - lo + 1 offsets rebased to 0 into
 * dst_off (64-bit) and their arcs' columns narrowed to 32 bits into dst_col,
 * through a bounded host buffer (32 MiB whatever the graph). columns holds
 * the arcs from index columns_base on (a slice holds its own rows only). */
boxbfs_status_t bb_upload_csr_rows(const bb_device_ops_t *ops, bb_device_t *dev,
                                   const int64_t *off, const int64_t *columns,
                                   int64_t columns_base, uint64_t lo, uint64_t hi,
                                   int64_t *dst_off, uint32_t *dst_col);

#endif /* BB_UPLOAD_H */
