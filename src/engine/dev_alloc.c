/* Device memory for the engine's arrays: every allocation is kept with its
 * device (freed with the engine) and counted in the device's memory_bytes
 * and under its array's name, a device that refuses one is named with the
 * bytes asked, held and free, and the optional arrays a device goes without
 * are noted for its report. Below the memory plan (device_setup.c) and the
 * hubs (hubs.c), which both allocate through it. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "engine/engine.h"

const char *bb_engine_human_bytes(char buf[24], double bytes)
{
    const char *unit = bytes >= 1073741824.0 ? "GiB" : bytes >= 1048576.0 ? "MiB" : "KiB";
    double scale = bytes >= 1073741824.0 ? 1073741824.0 : bytes >= 1048576.0 ? 1048576.0 : 1024.0;
    snprintf(buf, 24, "%.2f %s", bytes / scale, unit);
    return buf;
}

/* Device d's record of the array named by expr ("&k->offsets", "&D->bits[b]":
 * what follows the last -> or . or &, up to a [), bytes added. */
static void count_array(bb_engine_dev_t *D, const char *expr, size_t bytes)
{
    char name[sizeof D->arrays[0].name];
    const char *s = expr;
    for (const char *c = expr; *c; c++)
        if (*c == '&' || *c == '.' || (*c == '>' && c > expr && c[-1] == '-')) s = c + 1;
    size_t len = strcspn(s, "[ )");
    snprintf(name, sizeof name, "%.*s", (int)len, s);
    for (int i = 0; i < D->narrays; i++) {
        if (strcmp(D->arrays[i].name, name) != 0) continue;
        D->arrays[i].bytes += bytes;
        return;
    }
    snprintf(D->arrays[D->narrays].name, sizeof name, "%s", name);   /* narrays <= nallocs */
    D->arrays[D->narrays++].bytes = bytes;
}

boxbfs_status_t bb_engine_dev_alloc_named(boxbfs_engine_t e, int d, size_t bytes, void *ptr_p,
                                          const char *name)
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
    count_array(D, name, bytes);
    *(void **)ptr_p = p;
    return BOXBFS_OK;
}

void bb_engine_dropped(boxbfs_engine_t e, int d, const char *what)
{
    char *s = e->devs[d].dropped;
    size_t len = strlen(s);
    snprintf(s + len, sizeof e->devs[d].dropped - len, "%s%s", len ? "; " : "", what);
}
