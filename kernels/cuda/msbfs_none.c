/* Built without CUDA: no GPU kernels for multi-source BFS (kernels/msbfs.h). */
#include "config.h"

#include "kernels/msbfs.h"

const bb_msbfs_ops_t *const bb_cuda_msbfs_ops_ptr = NULL;
