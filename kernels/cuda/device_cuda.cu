/* The cuda backend: one GPU per bb_device_t with one non-blocking stream and
 * BB_TIMER_SLOTS events; memory, copies and peer copies on that stream, and
 * the kernels of kernels/cuda/ (one .cu per phase). Several host threads call
 * these ops on several devices (the host-staged exchange copies into another
 * device), so every op first makes its device current. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cuda/cuda_kernels.h"

struct bb_device {
    int ordinal;
    cudaStream_t stream;
    cudaEvent_t ev[BB_TIMER_SLOTS];
};

/* Allocations are padded to whole 16-byte units: the byte-layout visited
 * array is updated with atomics on its containing 32-bit words. */
static size_t padded(size_t bytes) { return bytes ? (bytes + 15) & ~(size_t)15 : 16; }

/* No driver, no device or any other failure: 0 devices, not an error, so
 * that callers can probe for GPUs and fall back (nothing else runs before it). */
static boxbfs_status_t cuda_count(int *count_p)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        BB_INFO(-1, "cudaGetDeviceCount: %s: no cuda device", cudaGetErrorString(err));
        count = 0;
    }
    *count_p = count;
    return BOXBFS_OK;
}

static void destroy(bb_device_t *dev)
{
    (void)cudaSetDevice(dev->ordinal);
    for (int i = 0; i < BB_TIMER_SLOTS; i++)
        if (dev->ev[i]) (void)cudaEventDestroy(dev->ev[i]);
    if (dev->stream) (void)cudaStreamDestroy(dev->stream);
    (void)cudaGetLastError();
    free(dev);
}

static boxbfs_status_t cuda_open(int ordinal, bb_device_t **dev_p, char *name, size_t name_len)
{
    bb_device_t *dev;
    cudaDeviceProp prop;
    boxbfs_status_t st = BOXBFS_OK;
    BB_CHECK(bb_calloc(1, sizeof *dev, "a cuda device record", &dev));
    dev->ordinal = ordinal;
    BB_CUDA_CHECK_GOTO(cudaSetDevice(ordinal), st, fail);
    BB_CUDA_CHECK_GOTO(cudaGetDeviceProperties(&prop, ordinal), st, fail);
    BB_CUDA_CHECK_GOTO(cudaStreamCreateWithFlags(&dev->stream, cudaStreamNonBlocking), st, fail);
    for (int i = 0; i < BB_TIMER_SLOTS; i++)
        BB_CUDA_CHECK_GOTO(cudaEventCreate(&dev->ev[i]), st, fail);
    snprintf(name, name_len, "%s (%04x:%02x:%02x.0)", prop.name, (unsigned)prop.pciDomainID,
             (unsigned)prop.pciBusID, (unsigned)prop.pciDeviceID);
    *dev_p = dev;
    return BOXBFS_OK;
fail:
    destroy(dev);
    return st;
}

static void cuda_close(bb_device_t *dev)
{
    if (dev) destroy(dev);
}

static boxbfs_status_t cuda_mem_info(bb_device_t *dev, size_t *free_p, size_t *total_p)
{
    size_t free_b, total_b;
    BB_CUDA_CHECK(cudaSetDevice(dev->ordinal));
    BB_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    *free_p = free_b;
    *total_p = total_b;
    return BOXBFS_OK;
}

static boxbfs_status_t cuda_alloc(bb_device_t *dev, size_t bytes, void **ptr_p)
{
    void *p = NULL;
    cudaError_t err;
    bb_cuda_search_release();   /* it waits for the device's kernels */
    BB_CUDA_CHECK(cudaSetDevice(dev->ordinal));
    err = cudaMalloc(&p, padded(bytes));
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        return bb_error_set(bb_cuda_status(err), "cudaMalloc(%zu bytes) on device %d failed: %s",
                            bytes, dev->ordinal, cudaGetErrorString(err));
    }
    *ptr_p = p;
    return BOXBFS_OK;
}

static void cuda_free(bb_device_t *dev, void *ptr)
{
    if (ptr == NULL) return;
    bb_cuda_search_release();   /* it waits for the device's kernels */
    (void)cudaSetDevice(dev->ordinal);
    (void)cudaFree(ptr);
    (void)cudaGetLastError();
}

static boxbfs_status_t cuda_host_alloc(bb_device_t *dev, size_t bytes, void **ptr_p)
{
    void *p = NULL;
    cudaError_t err;
    bb_cuda_search_release();   /* it waits for the device's kernels */
    BB_CUDA_CHECK(cudaSetDevice(dev->ordinal));
    err = cudaMallocHost(&p, bytes ? bytes : 1);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        return bb_error_set(err == cudaErrorMemoryAllocation ? BOXBFS_ERR_NO_MEMORY
                                                             : bb_cuda_status(err),
                            "cudaMallocHost(%zu bytes) for device %d failed: %s", bytes,
                            dev->ordinal, cudaGetErrorString(err));
    }
    *ptr_p = p;
    return BOXBFS_OK;
}

static void cuda_host_free(bb_device_t *dev, void *ptr)
{
    if (ptr == NULL) return;
    bb_cuda_search_release();   /* it waits for the device's kernels */
    (void)cudaSetDevice(dev->ordinal);
    (void)cudaFreeHost(ptr);
    (void)cudaGetLastError();
}

static boxbfs_status_t cuda_copy_h2d(bb_device_t *dev, void *dst, const void *src, size_t bytes)
{
    if (bytes == 0) return BOXBFS_OK;
    BB_CUDA_CHECK(cudaSetDevice(dev->ordinal));
    BB_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, dev->stream));
    return BOXBFS_OK;
}

static boxbfs_status_t cuda_copy_d2h(bb_device_t *dev, void *dst, const void *src, size_t bytes)
{
    if (bytes == 0) return BOXBFS_OK;
    BB_CUDA_CHECK(cudaSetDevice(dev->ordinal));
    BB_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, dev->stream));
    return BOXBFS_OK;
}

static boxbfs_status_t cuda_zero(bb_device_t *dev, void *dst, size_t bytes)
{
    if (bytes == 0) return BOXBFS_OK;
    BB_CUDA_CHECK(cudaSetDevice(dev->ordinal));
    BB_CUDA_CHECK(cudaMemsetAsync(dst, 0, bytes, dev->stream));
    return BOXBFS_OK;
}

static boxbfs_status_t cuda_peer_copy(bb_device_t *dst_dev, void *dst, bb_device_t *src_dev,
                                      const void *src, size_t bytes)
{
    if (bytes == 0) return BOXBFS_OK;
    BB_CUDA_CHECK(cudaSetDevice(src_dev->ordinal));
    BB_CUDA_CHECK(cudaMemcpyPeerAsync(dst, dst_dev->ordinal, src, src_dev->ordinal, bytes,
                                      src_dev->stream));
    return BOXBFS_OK;
}

/* The ordered pairs of GPUs whose peer access this process enabled (an
 * earlier engine's; nothing here disables it or resets a device): enabling
 * a pair again fails with cudaErrorPeerAccessAlreadyEnabled, an error that
 * compute-sanitizer reports even where it is cleared. */
constexpr int kPeerPairs = 64;
static unsigned char peer_enabled[kPeerPairs][kPeerPairs];

static boxbfs_status_t cuda_enable_peer(bb_device_t *a, bb_device_t *b, int *ok_p)
{
    int can = 0;
    cudaError_t err;
    const bool known = a->ordinal < kPeerPairs && b->ordinal < kPeerPairs;
    if (a->ordinal == b->ordinal ||
        (known && __atomic_load_n(&peer_enabled[a->ordinal][b->ordinal], __ATOMIC_ACQUIRE))) {
        *ok_p = 1;
        return BOXBFS_OK;
    }
    BB_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, a->ordinal, b->ordinal));
    if (!can) {
        *ok_p = 0;
        return BOXBFS_OK;
    }
    BB_CUDA_CHECK(cudaSetDevice(a->ordinal));
    err = cudaDeviceEnablePeerAccess(b->ordinal, 0);
    if (err == cudaErrorPeerAccessAlreadyEnabled) {   /* another thread's, or past the table */
        (void)cudaGetLastError();
        err = cudaSuccess;
    }
    BB_CUDA_CHECK(err);
    if (known) __atomic_store_n(&peer_enabled[a->ordinal][b->ordinal], 1, __ATOMIC_RELEASE);
    *ok_p = 1;
    return BOXBFS_OK;
}

static boxbfs_status_t cuda_sync(bb_device_t *dev)
{
    BB_CUDA_CHECK(cudaSetDevice(dev->ordinal));
    BB_CUDA_CHECK(cudaStreamSynchronize(dev->stream));
    return BOXBFS_OK;
}

static void *cuda_stream(bb_device_t *dev) { return (void *)dev->stream; }

/* CUB temporaries, sized once per device: the max of the sort and flag scan
 * of work_cap neighbors, the degree scan of a whole frontier and, with
 * several devices, the parent gather's select and scan. A frontier
 * holds at most nloc vertices and nloc <= 32 * work_cap (work_cap is at least
 * the bitmap words of all ranges), so that bounds the degree scan. */
static boxbfs_status_t cuda_scratch_bytes(bb_device_t *dev, uint64_t work_cap, uint64_t nloc,
                                          int ndev, size_t *bytes_p)
{
    size_t contract_b = 0, expand_b = 0, gather_b = 0;
    BB_CUDA_CHECK(cudaSetDevice(dev->ordinal));
    BB_CHECK(bb_cuda_contract_scratch(work_cap, &contract_b));
    BB_CHECK(bb_cuda_expand_scratch(nloc + 1, &expand_b));
    /* several devices: the parent gather's (the n bits' words <= work_cap) */
    if (ndev > 1) BB_CHECK(bb_cuda_gather_scratch(nloc, work_cap, &gather_b));
    if (expand_b > contract_b) contract_b = expand_b;
    *bytes_p = gather_b > contract_b ? gather_b : contract_b;
    return BOXBFS_OK;
}

static boxbfs_status_t cuda_timer_record(bb_device_t *dev, int slot)
{
    if (slot < 0 || slot >= BB_TIMER_SLOTS)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "timer slot %d out of range", slot);
    BB_CUDA_CHECK(cudaSetDevice(dev->ordinal));
    BB_CUDA_CHECK(cudaEventRecord(dev->ev[slot], dev->stream));
    return BOXBFS_OK;
}

static boxbfs_status_t cuda_timer_elapsed(bb_device_t *dev, int from, int to, double *seconds_p)
{
    float ms = 0;
    if (from < 0 || from >= BB_TIMER_SLOTS || to < 0 || to >= BB_TIMER_SLOTS)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "timer slots %d, %d out of range", from, to);
    BB_CUDA_CHECK(cudaSetDevice(dev->ordinal));
    BB_CUDA_CHECK(cudaEventElapsedTime(&ms, dev->ev[from], dev->ev[to]));
    *seconds_p = ms / 1000.0;
    return BOXBFS_OK;
}

static boxbfs_status_t cuda_stream_wait(bb_device_t *dev, bb_device_t *other, int slot)
{
    if (slot < 0 || slot >= BB_TIMER_SLOTS)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "timer slot %d out of range", slot);
    BB_CUDA_CHECK(cudaSetDevice(dev->ordinal));
    BB_CUDA_CHECK(cudaStreamWaitEvent(dev->stream, other->ev[slot], 0));
    return BOXBFS_OK;
}

/* Name, PCI bus id ("0000:1b:00.0"), memory and SMs from the properties;
 * NUMA node and CPU list are left to topology/discover.c (sysfs). */
static boxbfs_status_t cuda_describe(bb_device_t *dev, bb_device_info_t *info)
{
    cudaDeviceProp prop;
    memset(info, 0, sizeof *info);
    BB_CUDA_CHECK(cudaGetDeviceProperties(&prop, dev->ordinal));
    snprintf(info->name, sizeof info->name, "%.*s", (int)sizeof info->name - 1, prop.name);
    snprintf(info->pci_bus_id, sizeof info->pci_bus_id, "%04x:%02x:%02x.0",
             (unsigned)prop.pciDomainID, (unsigned)prop.pciBusID, (unsigned)prop.pciDeviceID);
    info->memory_bytes = prop.totalGlobalMem;
    info->sm_count = prop.multiProcessorCount;
    info->numa_node = -1;
    return BOXBFS_OK;
}

static boxbfs_status_t cuda_p2p(bb_device_t *a, bb_device_t *b, bb_p2p_info_t *info)
{
    int access = 0, rank = -1, atomics = 0;
    memset(info, 0, sizeof *info);
    BB_CUDA_CHECK(cudaDeviceGetP2PAttribute(&access, cudaDevP2PAttrAccessSupported, a->ordinal,
                                            b->ordinal));
    if (access) {
        BB_CUDA_CHECK(cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, a->ordinal,
                                                b->ordinal));
        BB_CUDA_CHECK(cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported,
                                                a->ordinal, b->ordinal));
    }
    info->access = access;
    info->perf_rank = access ? rank : -1;
    info->native_atomics = atomics;
    return BOXBFS_OK;
}

/* Fields in declaration order (C++ designated initializers). */
static const bb_device_ops_t bb_cuda_ops = {
    .name = "cuda",
    .kernels = {
        .reset = bb_cuda_reset,
        .expand = bb_cuda_expand,
        .contract = bb_cuda_contract,
        .expand_atomic = bb_cuda_expand_atomic,
        .pack_bitmap = bb_cuda_pack_bitmap,
        .unpack_bitmap = bb_cuda_unpack_bitmap,
        .update_list = bb_cuda_update_list,
        .update_bitmap = bb_cuda_update_bitmap,
        .gather_requests = bb_cuda_gather_requests,
        .gather_answer = bb_cuda_gather_answer,
        .gather_apply = bb_cuda_gather_apply,
        .gather_recompute = bb_cuda_gather_recompute,
        .bottom_up = bb_cuda_bottom_up,
        .mark_frontier = bb_cuda_mark_frontier,
        .small_levels = bb_cuda_small_levels,
        .search = bb_cuda_search,
        .search_free = bb_cuda_search_free,
        .peers_wake = bb_cuda_peers_wake,
        .rank_rows = bb_cuda_rank_rows,
        .kron_rows = bb_cuda_kron_rows,
        .raise_prefix = bb_cuda_raise_prefix,
        .check_rows = bb_cuda_check_rows,
        .short_rows = bb_cuda_short_rows,
    },
    .count = cuda_count,
    .open = cuda_open,
    .close = cuda_close,
    .mem_info = cuda_mem_info,
    .alloc = cuda_alloc,
    .free = cuda_free,
    .host_alloc = cuda_host_alloc,
    .host_free = cuda_host_free,
    .copy_h2d = cuda_copy_h2d,
    .copy_d2h = cuda_copy_d2h,
    .zero = cuda_zero,
    .peer_copy = cuda_peer_copy,
    .enable_peer = cuda_enable_peer,
    .sync = cuda_sync,
    .stream = cuda_stream,
    .scratch_bytes = cuda_scratch_bytes,
    .timer_record = cuda_timer_record,
    .timer_elapsed = cuda_timer_elapsed,
    .stream_wait = cuda_stream_wait,
    .describe = cuda_describe,
    .p2p = cuda_p2p,
};

/* Declared extern "C" in kernels/kernels.h (through cuda_kernels.h), so this
 * definition has external C linkage despite being const. */
const bb_device_ops_t *const bb_cuda_ops_ptr = &bb_cuda_ops;
