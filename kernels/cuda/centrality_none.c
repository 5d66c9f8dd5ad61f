/* Built without CUDA: no cuda centrality kernels. */
#include "config.h"

#include "kernels/centrality.h"

const bb_centrality_ops_t *const bb_cuda_centrality_ops_ptr = NULL;
