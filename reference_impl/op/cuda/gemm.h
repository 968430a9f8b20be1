// The CUDA path of Gemm (ops/gemm.cc calls it for NVIDIA descriptors): the plan the CPU
// validated, as cuBLAS sees it. Plain C++; the work is in gemm.cc (cuBLAS) and
// gemm_scale.cu (k = 0).
#ifndef INFINICTS_REF_OP_CUDA_GEMM_H
#define INFINICTS_REF_OP_CUDA_GEMM_H

#include <cstddef>
#include <cstdint>

#include "core/descriptor.h"

namespace infinicts::ref::op::cuda {

// Element (r, c) of batch i is at i * batch_stride + (column_major ? r + c * ld : r * ld + c).
struct GemmMatrix {
  bool column_major = false;
  int ld = 1;
  int64_t batch_stride = 0;  // 0: one matrix serves every batch
};

struct GemmProblem {
  infiniDtype_t dtype;
  size_t batch, m, n, k;  // m, n, k <= INT_MAX (checked at creation)
  GemmMatrix a, b, c;
};

// C = alpha * A * B + beta * C for every batch; beta == 0 never reads C; k == 0 sets
// C = beta * C. Pointers are device pointers.
infiniStatus_t Gemm(const InfiniopDescriptor &desc, const GemmProblem &problem, void *c, const void *a,
                    const void *b, float alpha, float beta, void *stream);

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_GEMM_H
