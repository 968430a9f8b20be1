// C = beta * C (zeros where beta == 0, C not read) over every batch: Gemm with k = 0.
#ifndef INFINICTS_REF_OP_CUDA_GEMM_SCALE_H
#define INFINICTS_REF_OP_CUDA_GEMM_SCALE_H

#include <cuda_runtime_api.h>

#include "cuda/gemm.h"

namespace infinicts::ref::op::cuda {

// Launches on `stream` (the problem's device current); false for a non-float dtype.
bool LaunchGemmScale(const GemmProblem &problem, void *c, float beta, cudaStream_t stream);

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_GEMM_SCALE_H
