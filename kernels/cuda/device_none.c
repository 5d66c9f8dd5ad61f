/* Built without CUDA: the cuda backend is absent and says so. */
#include "config.h"

#include "kernels/kernels.h"

const bb_device_ops_t *const bb_cuda_ops_ptr = NULL;
