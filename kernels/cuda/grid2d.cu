/* The 2D-partitioned BFS kernels on the GPU (kernels/grid2d.h): not written
 * yet, so the cuda backend refuses --partition 2d (engine2d.c says so). */
#include "config.h"

#include <cstddef>

extern "C" {
#include "kernels/grid2d.h"
}

extern "C" const bb_grid2d_ops_t *const bb_cuda_grid2d_ops_ptr = NULL;
