/* Built without CUDA: no cuda 2D kernels (kernels/grid2d.h). */
#include "config.h"

#include <stddef.h>

#include "kernels/grid2d.h"

const bb_grid2d_ops_t *const bb_cuda_grid2d_ops_ptr = NULL;
