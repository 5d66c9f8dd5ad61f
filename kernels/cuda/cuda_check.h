/* CUDA error handling for the cuda backend: every runtime call goes through
 * BB_CUDA_CHECK, every kernel launch is followed by BB_CUDA_LAUNCH_CHECK().
 * A failure becomes a boxbfs_status_t (out of memory -> DEVICE_MEMORY, no
 * device or driver -> NO_DEVICE, anything else -> DEVICE) with the message
 * "cudaXxx(...) failed at file:line: <cudaGetErrorString>". Never aborts. */
#ifndef BB_CUDA_CHECK_H
#define BB_CUDA_CHECK_H

#include <string.h>

#include <cuda_runtime.h>

extern "C" {
#include "common/error.h"
}

static inline boxbfs_status_t bb_cuda_status(cudaError_t err)
{
    switch (err) {
    case cudaSuccess: return BOXBFS_OK;
    case cudaErrorMemoryAllocation: return BOXBFS_ERR_DEVICE_MEMORY;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver: return BOXBFS_ERR_NO_DEVICE;
    default: return BOXBFS_ERR_DEVICE;
    }
}

/* Record the failure of what (the call's text) and return its status. The
 * runtime's last-error slot is cleared so that a later launch check does not
 * report this failure again. */
static inline boxbfs_status_t bb_cuda_fail(cudaError_t err, const char *what, const char *file,
                                           int line)
{
    const char *rel = strstr(file, "kernels/");
    (void)cudaGetLastError();
    return bb_error_set(bb_cuda_status(err), "%s failed at %s:%d: %s", what, rel ? rel : file,
                        line, cudaGetErrorString(err));
}

/* Return the mapped status from the enclosing function if call failed. */
#define BB_CUDA_CHECK(call)                                                     \
    do {                                                                        \
        cudaError_t bb_cuda_err_ = (call);                                      \
        if (bb_cuda_err_ != cudaSuccess)                                        \
            return bb_cuda_fail(bb_cuda_err_, #call, __FILE__, __LINE__);       \
    } while (0)

/* Store the mapped status in st and jump to label if call failed. */
#define BB_CUDA_CHECK_GOTO(call, st, label)                                     \
    do {                                                                        \
        cudaError_t bb_cuda_err_ = (call);                                      \
        if (bb_cuda_err_ != cudaSuccess) {                                      \
            (st) = bb_cuda_fail(bb_cuda_err_, #call, __FILE__, __LINE__);       \
            goto label;                                                         \
        }                                                                       \
    } while (0)

/* After every <<<...>>>: a bad configuration or a sticky error from an
 * earlier kernel shows here; errors inside the kernel show at the next sync. */
#define BB_CUDA_LAUNCH_CHECK()                                                  \
    do {                                                                        \
        cudaError_t bb_cuda_err_ = cudaGetLastError();                         \
        if (bb_cuda_err_ != cudaSuccess)                                        \
            return bb_cuda_fail(bb_cuda_err_, "kernel launch", __FILE__, __LINE__); \
    } while (0)

#endif /* BB_CUDA_CHECK_H */
