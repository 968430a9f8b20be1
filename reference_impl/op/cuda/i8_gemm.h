// I8Gemm's CUDA path (ops/i8_gemm.cc calls it for NVIDIA descriptors): cuBLASLt's int8
// matmul (int32 sums into the workspace), or where cuBLASLt takes no such operands a kernel of
// our own, then an epilogue kernel that scales and adds the bias (core/int8_steps.h's
// I8GemmScaled) and rounds to out's dtype. The geometry and the workspace's layout are plain
// host and device code (tested on the CPU); the kernels are in i8_gemm.cu.
#ifndef INFINICTS_REF_OP_CUDA_I8_GEMM_H
#define INFINICTS_REF_OP_CUDA_I8_GEMM_H

#include <cstddef>
#include <cstdint>

#include "core/descriptor.h"
#include "core/host_device.h"
#include "cuda/kernel_limits.h"
#include "infinicore.h"

namespace infinicts::ref::op::cuda {

// x [m, k] row-major (row stride x_row), weights [k, n] column-major (column stride
// weights_column), out [m, n] row-major (row stride out_row); the scales and the bias by their
// element steps (strides in elements).
struct I8GemmGeometry {
  int64_t m, n, k;
  int64_t x_row, weights_column, out_row;
  int64_t x_scale_step, weights_scale_step, bias_step;
};
static_assert(FitsKernelParameters<I8GemmGeometry>(), "I8GemmGeometry must fit in 4 KB");

// cuBLASLt's own workspace, after the sums.
constexpr size_t kI8GemmLtWorkspaceBytes = size_t(32) << 20;
constexpr size_t kI8GemmAlignment = 256;

// Where the int32 sums [m, n] (row-major, row stride n) end and cuBLASLt's part begins.
INFINICTS_HOST_DEVICE inline size_t I8GemmLtOffset(int64_t m, int64_t n) {
  const size_t sums = static_cast<size_t>(m) * static_cast<size_t>(n) * sizeof(int32_t);
  return (sums + kI8GemmAlignment - 1) / kI8GemmAlignment * kI8GemmAlignment;
}

// The whole workspace, with room to align its start.
inline size_t I8GemmWorkspaceBytes(int64_t m, int64_t n) {
  return kI8GemmAlignment + I8GemmLtOffset(m, n) + kI8GemmLtWorkspaceBytes;
}

// Whether cuBLASLt's int8 matmul may take the operands: its TN form needs leading dims that
// are multiples of 4 and 4-byte aligned operands; elsewhere the path's own kernel sums.
INFINICTS_HOST_DEVICE inline bool I8GemmSuitsCublasLt(const I8GemmGeometry &g, uintptr_t x, uintptr_t weights) {
  return g.k > 0 && g.x_row % 4 == 0 && g.weights_column % 4 == 0 && g.n % 4 == 0 && x % 4 == 0 && weights % 4 == 0;
}

// bias NULL: none. `workspace` holds I8GemmWorkspaceBytes(m, n).
infiniStatus_t I8Gemm(const InfiniopDescriptor &desc, infiniDtype_t out_dtype, const I8GemmGeometry &g, void *out,
                      const void *bias, const int8_t *x, const float *x_scale, const int8_t *weights,
                      const float *weights_scale, void *workspace, void *stream);

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_I8_GEMM_H
