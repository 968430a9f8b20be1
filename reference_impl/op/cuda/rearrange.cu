// Rearrange on the GPU, by the path rearrange_path.h chooses.
#include <cstdint>

#include "cuda/device_types.cuh"
#include "cuda/kernel_limits.h"
#include "cuda/launch.h"
#include "cuda/rearrange.h"
#include "cuda/rearrange_path.h"

namespace infinicts::ref::op::cuda {
namespace {

// 16-byte elements (C128) may sit only 8 bytes aligned.
struct alignas(8) Bytes16 {
  uint64_t halves[2];
};

template <class E>
__global__ void StridedCopyKernel(const __grid_constant__ StridedOperands<2> layout, E *dst, const E *src) {
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < layout.numel; i += step) {
    int64_t dst_offset = 0, src_offset = 0;
    uint64_t rest = i;
    for (int d = layout.ndim - 1; d >= 0; --d) {
      const uint64_t extent = static_cast<uint64_t>(layout.shape[d]);
      const int64_t index = static_cast<int64_t>(rest % extent);
      rest /= extent;
      dst_offset += index * layout.strides[0][d];
      src_offset += index * layout.strides[1][d];
    }
    dst[dst_offset] = src[src_offset];
  }
}

template <class E>
void LaunchStridedCopy(const StridedOperands<2> &layout, void *dst, const void *src, cudaStream_t stream) {
  StridedCopyKernel<E><<<BlocksFor(layout.numel), kThreads, 0, stream>>>(layout, static_cast<E *>(dst),
                                                                        static_cast<const E *>(src));
}

static_assert(FitsKernelParameters<StridedOperands<2>>(), "the strided copy's parameters must fit in 4 KB");

}  // namespace

infiniStatus_t Rearrange(const InfiniopDescriptor &desc, size_t element_size, const StridedOperands<2> &layout,
                         void *dst, const void *src, void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  if (element_size != 1 && element_size != 2 && element_size != 4 && element_size != 8 && element_size != 16) {
    return INFINI_STATUS_BAD_PARAM;
  }
  int max_pitch = 0;
  INFINIOP_RETURN_IF_ERROR(ToStatus(cudaDeviceGetAttribute(&max_pitch, cudaDevAttrMaxPitch, scope.device())));
  const cudaStream_t s = scope.stream();
  const auto src_address = reinterpret_cast<uintptr_t>(src);
  const size_t pitch_limit = static_cast<size_t>(max_pitch);
  RearrangePath path =
      ChooseRearrangePath(layout, element_size, dst == src, pitch_limit,
                          OperandsOverlap(layout, element_size, reinterpret_cast<uintptr_t>(dst), src_address));
  void *staging = nullptr;
  if (path == RearrangePath::kStagedCopy) {
    // The source's bytes go aside first, in stream order; the copy from there meets nothing.
    const ByteSpan span = SpanOf(layout, 1, element_size, src_address);
    const size_t bytes = span.high - span.low;
    INFINIOP_RETURN_IF_ERROR(ToStatus(cudaMallocAsync(&staging, bytes, s)));
    const infiniStatus_t copied =
        ToStatus(cudaMemcpyAsync(staging, reinterpret_cast<const void *>(span.low), bytes, cudaMemcpyDeviceToDevice, s));
    if (copied != INFINI_STATUS_SUCCESS) {
      cudaFreeAsync(staging, s);
      return copied;
    }
    src = static_cast<const char *>(staging) + (src_address - span.low);
    path = ChooseRearrangePath(layout, element_size, false, pitch_limit, false);
  }
  infiniStatus_t status = INFINI_STATUS_SUCCESS;
  switch (path) {
    case RearrangePath::kNothing:
    case RearrangePath::kStagedCopy:  // chosen above: not again
      break;
    case RearrangePath::kContiguousCopy:
      status = ToStatus(cudaMemcpyAsync(dst, src, layout.numel * element_size, cudaMemcpyDeviceToDevice, s));
      break;
    case RearrangePath::kPitchedCopy: {
      const size_t row_bytes = static_cast<size_t>(layout.shape[1]) * element_size;
      status = ToStatus(cudaMemcpy2DAsync(dst, static_cast<size_t>(layout.strides[0][0]) * element_size, src,
                                          static_cast<size_t>(layout.strides[1][0]) * element_size, row_bytes,
                                          static_cast<size_t>(layout.shape[0]), cudaMemcpyDeviceToDevice, s));
      break;
    }
    case RearrangePath::kStridedKernel: {
      const bool word = DispatchCopyWord(element_size, [&](auto tag) {
        LaunchStridedCopy<typename decltype(tag)::type>(layout, dst, src, s);
      });
      if (!word) LaunchStridedCopy<Bytes16>(layout, dst, src, s);  // 16 bytes: checked above
      status = scope.Finish();
      break;
    }
  }
  if (staging != nullptr) {
    const infiniStatus_t freed = ToStatus(cudaFreeAsync(staging, s));
    if (status == INFINI_STATUS_SUCCESS) status = freed;
  }
  return status;
}

}  // namespace infinicts::ref::op::cuda
