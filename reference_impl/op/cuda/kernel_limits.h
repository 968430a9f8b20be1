// The size every kernel's parameter block must stay within: 4 KB, the limit of every CUDA
// version and architecture (later ones allow more, but only for newer drivers). Each
// kernel parameter type asserts it where it is defined, so a layout or geometry struct
// that grows past it fails the build instead of a launch on a GPU.
#ifndef INFINICTS_REF_OP_CUDA_KERNEL_LIMITS_H
#define INFINICTS_REF_OP_CUDA_KERNEL_LIMITS_H

#include <cstddef>

namespace infinicts::ref::op::cuda {

constexpr size_t kKernelParameterBytes = 4096;
// Room for the data pointers and counts a kernel takes beside its one struct.
constexpr size_t kKernelScalarArgumentBytes = 128;

template <class Parameter>
constexpr bool FitsKernelParameters() {
  return sizeof(Parameter) + kKernelScalarArgumentBytes <= kKernelParameterBytes;
}

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_KERNEL_LIMITS_H
