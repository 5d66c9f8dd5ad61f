/* The cpu backend: devices emulated by host threads, each with its own
 * allocations. A peer copy is a real memcpy between two devices' buffers,
 * issued and counted like any other, so traffic experiments run without GPUs
 * and give the same byte counts as the cuda backend. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/timer.h"
#include "kernels/cpu/cpu_kernels.h"

struct bb_device {
    int ordinal;
    double stamp[BB_TIMER_SLOTS];
};

static boxbfs_status_t cpu_count(int *count_p)
{
    *count_p = 0;   /* any number */
    return BOXBFS_OK;
}

static boxbfs_status_t cpu_open(int ordinal, bb_device_t **dev_p, char *name, size_t name_len)
{
    bb_device_t *dev;
    BB_CHECK(bb_calloc(1, sizeof *dev, "an emulated device", &dev));
    dev->ordinal = ordinal;
    snprintf(name, name_len, "cpu-emulated %d", ordinal);
    *dev_p = dev;
    return BOXBFS_OK;
}

static void cpu_close(bb_device_t *dev) { free(dev); }

static boxbfs_status_t cpu_mem_info(bb_device_t *dev, size_t *free_p, size_t *total_p)
{
    long pages = sysconf(_SC_AVPHYS_PAGES), total = sysconf(_SC_PHYS_PAGES);
    long page = sysconf(_SC_PAGESIZE);
    (void)dev;
    *free_p = pages > 0 && page > 0 ? (size_t)pages * (size_t)page : (size_t)1 << 40;
    *total_p = total > 0 && page > 0 ? (size_t)total * (size_t)page : (size_t)1 << 40;
    return BOXBFS_OK;
}

static boxbfs_status_t cpu_alloc(bb_device_t *dev, size_t bytes, void **ptr_p)
{
    void *p = malloc(bytes ? bytes : 1);
    if (p == NULL)
        return bb_error_set(BOXBFS_ERR_DEVICE_MEMORY,
                            "emulated device %d: cannot allocate %zu bytes", dev->ordinal, bytes);
    *ptr_p = p;
    return BOXBFS_OK;
}

static void cpu_free(bb_device_t *dev, void *ptr)
{
    (void)dev;
    free(ptr);
}

static boxbfs_status_t cpu_host_alloc(bb_device_t *dev, size_t bytes, void **ptr_p)
{
    (void)dev;
    return bb_malloc(bytes, "a staging buffer", ptr_p);
}

static boxbfs_status_t cpu_copy(bb_device_t *dev, void *dst, const void *src, size_t bytes)
{
    (void)dev;
    if (bytes) memcpy(dst, src, bytes);
    return BOXBFS_OK;
}

static boxbfs_status_t cpu_zero(bb_device_t *dev, void *dst, size_t bytes)
{
    (void)dev;
    if (bytes) memset(dst, 0, bytes);
    return BOXBFS_OK;
}

static boxbfs_status_t cpu_peer_copy(bb_device_t *dst_dev, void *dst, bb_device_t *src_dev,
                                     const void *src, size_t bytes)
{
    (void)dst_dev;
    (void)src_dev;
    if (bytes) memcpy(dst, src, bytes);
    return BOXBFS_OK;
}

static boxbfs_status_t cpu_enable_peer(bb_device_t *a, bb_device_t *b, int *ok_p)
{
    (void)a;
    (void)b;
    *ok_p = 1;
    return BOXBFS_OK;
}

static boxbfs_status_t cpu_sync(bb_device_t *dev)
{
    (void)dev;
    return BOXBFS_OK;
}

static void *cpu_stream(bb_device_t *dev) { return dev; }

static boxbfs_status_t cpu_scratch_bytes(bb_device_t *dev, uint64_t work_cap, uint64_t nloc,
                                         int ndev, size_t *bytes_p)
{
    (void)dev;
    (void)work_cap;
    (void)nloc;
    (void)ndev;
    *bytes_p = 0;
    return BOXBFS_OK;
}

static boxbfs_status_t cpu_timer_record(bb_device_t *dev, int slot)
{
    dev->stamp[slot] = bb_now_s();
    return BOXBFS_OK;
}

static boxbfs_status_t cpu_timer_elapsed(bb_device_t *dev, int from, int to, double *seconds_p)
{
    *seconds_p = dev->stamp[to] - dev->stamp[from];
    return BOXBFS_OK;
}

static boxbfs_status_t cpu_stream_wait(bb_device_t *dev, bb_device_t *other, int slot)
{
    (void)dev;
    (void)other;
    (void)slot;
    return BOXBFS_OK;
}

/* Emulated: host memory, no PCI, no SMs; said in the name and the flag. */
static boxbfs_status_t cpu_describe(bb_device_t *dev, bb_device_info_t *info)
{
    size_t free_b, total_b;
    memset(info, 0, sizeof *info);
    snprintf(info->name, sizeof info->name, "cpu-emulated %d (host memory)", dev->ordinal);
    snprintf(info->pci_bus_id, sizeof info->pci_bus_id, "emulated");
    cpu_mem_info(dev, &free_b, &total_b);
    info->memory_bytes = total_b;
    info->numa_node = -1;
    info->emulated = 1;
    return BOXBFS_OK;
}

/* Every emulated pair can copy (memcpy); rank 0, atomics as the host's. */
static boxbfs_status_t cpu_p2p(bb_device_t *a, bb_device_t *b, bb_p2p_info_t *info)
{
    (void)a;
    (void)b;
    info->access = 1;
    info->perf_rank = 0;
    info->native_atomics = 1;
    info->emulated = 1;
    return BOXBFS_OK;
}

const bb_device_ops_t bb_cpu_ops = {
    .name = "cpu",
    .kernels = {
        .reset = bb_cpu_reset,
        .expand = bb_cpu_expand,
        .contract = bb_cpu_contract,
        .expand_atomic = bb_cpu_expand_atomic,
        .pack_bitmap = bb_cpu_pack_bitmap,
        .unpack_bitmap = bb_cpu_unpack_bitmap,
        .update_list = bb_cpu_update_list,
        .update_bitmap = bb_cpu_update_bitmap,
        .gather_requests = bb_cpu_gather_requests,
        .gather_answer = bb_cpu_gather_answer,
        .gather_apply = bb_cpu_gather_apply,
        .gather_recompute = bb_cpu_gather_recompute,
        .bottom_up = bb_cpu_bottom_up,
        .mark_frontier = bb_cpu_mark_frontier,
        .small_levels = bb_cpu_small_levels,
        .search = bb_cpu_search,
        .search_free = bb_cpu_search_free,
        .peers_wake = bb_cpu_peers_wake,
        .rank_rows = bb_cpu_rank_rows,
        .raise_prefix = bb_cpu_raise_prefix,
        .kron_rows = bb_cpu_kron_rows,
        .check_rows = bb_cpu_check_rows,
        .short_rows = bb_cpu_short_rows,
    },
    .count = cpu_count,
    .open = cpu_open,
    .close = cpu_close,
    .mem_info = cpu_mem_info,
    .alloc = cpu_alloc,
    .free = cpu_free,
    .host_alloc = cpu_host_alloc,
    .host_free = cpu_free,
    .copy_h2d = cpu_copy,
    .copy_d2h = cpu_copy,
    .zero = cpu_zero,
    .peer_copy = cpu_peer_copy,
    .enable_peer = cpu_enable_peer,
    .sync = cpu_sync,
    .stream = cpu_stream,
    .scratch_bytes = cpu_scratch_bytes,
    .timer_record = cpu_timer_record,
    .timer_elapsed = cpu_timer_elapsed,
    .stream_wait = cpu_stream_wait,
    .describe = cpu_describe,
    .p2p = cpu_p2p,
};
