/* Built without NCCL: --exchange nccl is absent and says so (engine.c). */
#include "config.h"

#include "kernels/nccl.h"

const bb_nccl_ops_t *const bb_nccl_ops_ptr = NULL;
