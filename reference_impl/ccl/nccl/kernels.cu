#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>

#include "ccl/nccl/kernels.h"
#include "infinicore.h"

namespace infinicts::ref::ccl::nccl {
namespace {

constexpr unsigned kThreads = 256;
// Grid-stride loops: a bounded grid covers any count.
constexpr size_t kMaxBlocks = 4096;

unsigned Blocks(size_t count) { return static_cast<unsigned>(std::min(kMaxBlocks, (count + kThreads - 1) / kThreads)); }

template <class From, class To>
__global__ void Convert(const From *src, To *dst, size_t count) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    dst[i] = static_cast<To>(src[i]);
  }
}

template <class T, class Wide>
__global__ void Divide(T *data, size_t count, Wide divisor) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    data[i] = static_cast<T>(static_cast<Wide>(data[i]) / divisor);
  }
}

template <class From, class To>
cudaError_t LaunchConvert(const void *src, void *dst, size_t count, cudaStream_t stream) {
  Convert<<<Blocks(count), kThreads, 0, stream>>>(static_cast<const From *>(src), static_cast<To *>(dst), count);
  return cudaGetLastError();
}

template <class T, class Wide>
cudaError_t LaunchDivideAs(void *data, size_t count, int divisor, cudaStream_t stream) {
  Divide<<<Blocks(count), kThreads, 0, stream>>>(static_cast<T *>(data), count, static_cast<Wide>(divisor));
  return cudaGetLastError();
}

}  // namespace

cudaError_t LaunchWiden16(const void *src, void *dst, size_t count, bool is_signed, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  return is_signed ? LaunchConvert<int16_t, int32_t>(src, dst, count, stream)
                   : LaunchConvert<uint16_t, uint32_t>(src, dst, count, stream);
}

cudaError_t LaunchNarrowTo16(const void *src, void *dst, size_t count, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  return LaunchConvert<uint32_t, uint16_t>(src, dst, count, stream);
}

cudaError_t LaunchDivide(void *data, size_t count, int dtype, int divisor, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  switch (dtype) {
    case INFINI_DTYPE_F16:
      return LaunchDivideAs<__half, float>(data, count, divisor, stream);
    case INFINI_DTYPE_BF16:
      return LaunchDivideAs<__nv_bfloat16, float>(data, count, divisor, stream);
    case INFINI_DTYPE_F32:
      return LaunchDivideAs<float, double>(data, count, divisor, stream);
    case INFINI_DTYPE_F64:
      return LaunchDivideAs<double, double>(data, count, divisor, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace infinicts::ref::ccl::nccl
