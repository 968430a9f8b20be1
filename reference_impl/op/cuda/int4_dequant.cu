// DequantizeAWQ and DequantizeGPTQ on the GPU (cuda/int4_dequant.h): one thread per element
// of out, grid-strided, the words read by core/int4_words.h's element functions; the product
// of the exact difference and the scale in F32 (exact), rounded once into out's dtype.
#include <cmath>
#include <cstdint>

#include "core/int4_words.h"
#include "cuda/device_types.cuh"
#include "cuda/int4_dequant.h"
#include "cuda/launch.h"

namespace infinicts::ref::op::cuda {
namespace {

template <class T>
__global__ void AwqKernel(const Int4Geometry g, T *out, const int32_t *qweight, const T *scales, const int32_t *zeros) {
  const int64_t count = g.k * g.n;
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += step) {
    const Int4Element e = AwqElement(g, qweight, zeros, i / g.n, i % g.n);
    out[i] = DeviceNum<T>::Store(static_cast<float>(e.difference) * DeviceNum<T>::Load(scales[e.scale_index]));
  }
}

template <class T>
__global__ void GptqKernel(const Int4Geometry g, T *out, const int32_t *qweight, const T *scales, const int32_t *zeros,
                           const int32_t *g_idx) {
  const int64_t count = g.k * g.n;
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += step) {
    Int4Element e{};
    const bool defined = GptqElement(g, qweight, zeros, g_idx, i / g.n, i % g.n, &e);
    // A row whose g_idx names no group has no value (OP-DEQUANTIZEGPTQ-4): NaN says so.
    out[i] = DeviceNum<T>::Store(defined ? static_cast<float>(e.difference) * DeviceNum<T>::Load(scales[e.scale_index])
                                         : NAN);
  }
}

}  // namespace

infiniStatus_t DequantizeAwq(const InfiniopDescriptor &desc, infiniDtype_t dtype, const Int4Geometry &g, void *out,
                             const int32_t *qweight, const void *scales, const int32_t *zeros, void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  if (g.k == 0 || g.n == 0) return INFINI_STATUS_SUCCESS;
  const bool known = DispatchDeviceFloat(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    AwqKernel<T><<<BlocksFor(static_cast<uint64_t>(g.k * g.n)), kThreads, 0, scope.stream()>>>(
        g, static_cast<T *>(out), qweight, static_cast<const T *>(scales), zeros);
  });
  if (!known) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  return scope.Finish();
}

infiniStatus_t DequantizeGptq(const InfiniopDescriptor &desc, infiniDtype_t dtype, const Int4Geometry &g, void *out,
                              const int32_t *qweight, const void *scales, const int32_t *zeros, const int32_t *g_idx,
                              void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  if (g.k == 0 || g.n == 0) return INFINI_STATUS_SUCCESS;
  const bool known = DispatchDeviceFloat(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    GptqKernel<T><<<BlocksFor(static_cast<uint64_t>(g.k * g.n)), kThreads, 0, scope.stream()>>>(
        g, static_cast<T *>(out), qweight, static_cast<const T *>(scales), zeros, g_idx);
  });
  if (!known) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  return scope.Finish();
}

}  // namespace infinicts::ref::op::cuda
