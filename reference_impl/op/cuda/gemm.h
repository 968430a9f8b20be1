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

// The workspace a Gemm with k > 0 asks for: cuBLAS's, without which Hopper's split-K and
// stream-K kernels are shut out. It comes with each call, so calls on different streams
// never share one (the device's one cuBLAS handle serves them all).
constexpr size_t kCublasWorkspaceBytes = size_t{32} << 20;
constexpr size_t kCublasWorkspaceAlignment = 256;
constexpr size_t kGemmWorkspaceBytes = kCublasWorkspaceBytes + kCublasWorkspaceAlignment;

// C = alpha * A * B + beta * C for every batch; beta == 0 never reads C; k == 0 sets
// C = beta * C. Pointers are device pointers; `workspace` holds kGemmWorkspaceBytes.
infiniStatus_t Gemm(const InfiniopDescriptor &desc, const GemmProblem &problem, void *c, const void *a,
                    const void *b, float alpha, float beta, void *workspace, void *stream);

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_GEMM_H
