// The element-wise kernels the NVIDIA collectives add to NCCL's work, each launched on the
// given stream of the current device (the caller makes the rank's device current):
// 16-bit integers widened to 32 bits and back, since NCCL cannot reduce them, and the
// division that turns a floating SUM into an AVG rounded once.
#ifndef INFINICTS_REF_CCL_NCCL_KERNELS_H
#define INFINICTS_REF_CCL_NCCL_KERNELS_H

#include <cuda_runtime_api.h>

#include <cstddef>

namespace infinicts::ref::ccl::nccl {

// dst[i] = src[i] as 32 bits: sign-extended (I16 -> I32) or zero-extended (U16 -> U32).
cudaError_t LaunchWiden16(const void *src, void *dst, size_t count, bool is_signed, cudaStream_t stream);

// dst[i] = the low 16 bits of src[i] (32-bit elements).
cudaError_t LaunchNarrowTo16(const void *src, void *dst, size_t count, cudaStream_t stream);

// data[i] /= divisor for a floating dtype (its raw value: F16, BF16, F32, F64), rounded
// once: F16 and BF16 divide in F32, F32 divides in F64 (as the CPU reference does).
cudaError_t LaunchDivide(void *data, size_t count, int dtype, int divisor, cudaStream_t stream);

}  // namespace infinicts::ref::ccl::nccl

#endif  // INFINICTS_REF_CCL_NCCL_KERNELS_H
