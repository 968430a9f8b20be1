// Whether cuDNN may be given a convolution's pointers. cuDNN's kernels assume 16-byte
// aligned tensors; the suite's offset views are aligned only to their element, and cuDNN
// then refuses them (a misaligned-pointer status) or faults. Such calls take the direct
// kernel instead (conv.cu). Plain C++, tested on the CPU.
#ifndef INFINICTS_REF_OP_CUDA_CUDNN_CUDNN_ALIGNMENT_H
#define INFINICTS_REF_OP_CUDA_CUDNN_CUDNN_ALIGNMENT_H

#include <cstdint>
#include <initializer_list>

namespace infinicts::ref::op::cuda {

constexpr uintptr_t kCudnnAlignment = 16;

// NULL pointers (no bias, no workspace) do not count.
inline bool CudnnAligned(std::initializer_list<const void *> pointers) {
  for (const void *pointer : pointers) {
    if (pointer != nullptr && reinterpret_cast<uintptr_t>(pointer) % kCudnnAlignment != 0) return false;
  }
  return true;
}

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_CUDNN_CUDNN_ALIGNMENT_H
