/* Device memory for the engine's arrays: every allocation is kept with its
 * device (freed with the engine) and counted in the device's memory_bytes,
 * and a device that refuses one is named with the bytes asked, held and
 * free. Below the memory plan (device_setup.c) and the hubs (hubs.c), which
 * both allocate through it. */
#include "config.h"

#include <stdio.h>

#include "common/error.h"
#include "engine/engine.h"

const char *bb_engine_human_bytes(char buf[24], double bytes)
{
    const char *unit = bytes >= 1073741824.0 ? "GiB" : bytes >= 1048576.0 ? "MiB" : "KiB";
    double scale = bytes >= 1073741824.0 ? 1073741824.0 : bytes >= 1048576.0 ? 1048576.0 : 1024.0;
    snprintf(buf, 24, "%.2f %s", bytes / scale, unit);
    return buf;
}

boxbfs_status_t bb_engine_dev_alloc(boxbfs_engine_t e, int d, size_t bytes, void *ptr_p)
{
    bb_engine_dev_t *D = &e->devs[d];
    void *p;
    if (D->nallocs == BB_MAX_ALLOCS)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "too many allocations on device %d", d);
    boxbfs_status_t st = e->ops->alloc(D->dev, bytes, &p);
    if (st == BOXBFS_ERR_DEVICE_MEMORY) {   /* the plan fit, the device said no: say both */
        char cause[512];
        size_t free_b = 0, total_b = 0;
        snprintf(cause, sizeof cause, "%s", boxbfs_last_error());
        if (e->ops->mem_info(D->dev, &free_b, &total_b) != BOXBFS_OK) free_b = 0;
        char h[3][24];
        return bb_error_set(st, "device %d (%s) ran out of memory: %s needed, %s allocated so "
                            "far of this device's plan, %s free (%s); try more devices "
                            "(--devices N) or a smaller graph", d, D->name,
                            bb_engine_human_bytes(h[0], (double)bytes),
                            bb_engine_human_bytes(h[1], (double)D->memory_bytes),
                            bb_engine_human_bytes(h[2], (double)free_b), cause);
    }
    BB_CHECK(st);
    D->allocs[D->nallocs++] = p;
    D->memory_bytes += bytes;
    *(void **)ptr_p = p;
    return BOXBFS_OK;
}
