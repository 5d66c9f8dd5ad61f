/* CSR rows to a device through a bounded host buffer (kernels/upload.h). */
#include "config.h"

#include "kernels/upload.h"

#include <stdlib.h>

#include "common/error.h"

boxbfs_status_t bb_upload_csr_rows(const bb_device_ops_t *ops, bb_device_t *dev,
                                   const int64_t *off, const int64_t *columns,
                                   int64_t columns_base, uint64_t lo, uint64_t hi,
                                   int64_t *dst_off, uint32_t *dst_col)
{
    enum { CHUNK = 1 << 22 };
    int64_t base = off[lo], arcs = off[hi] - off[lo], first = base - columns_base;
    boxbfs_status_t st = BOXBFS_OK;
    void *buf;
    BB_CHECK(bb_malloc((size_t)CHUNK * 8, "the upload buffer", &buf));
    for (uint64_t i = 0; i <= hi - lo; i += CHUNK) {
        uint64_t cnt = hi - lo + 1 - i < CHUNK ? hi - lo + 1 - i : CHUNK;
        int64_t *o64 = buf;
        for (uint64_t j = 0; j < cnt; j++) o64[j] = off[lo + i + j] - base;
        BB_CHECK_GOTO(ops->copy_h2d(dev, dst_off + i, o64, cnt * 8), st, out);
        BB_CHECK_GOTO(ops->sync(dev), st, out);
    }
    for (int64_t i = 0; i < arcs; i += CHUNK) {
        int64_t cnt = arcs - i < CHUNK ? arcs - i : CHUNK;
        uint32_t *c32 = buf;
        for (int64_t j = 0; j < cnt; j++) c32[j] = (uint32_t)columns[first + i + j];
        BB_CHECK_GOTO(ops->copy_h2d(dev, dst_col + i, c32, (size_t)cnt * 4), st, out);
        BB_CHECK_GOTO(ops->sync(dev), st, out);
    }
out:
    free(buf);
    return st;
}
