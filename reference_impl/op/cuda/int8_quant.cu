// The int8 quantisers on the GPU. PerChannelQuantI8: one block per row, a shared-memory
// reduction of the row's maximum (and minimum), then the row quantised with its scale.
// PerTensorQuantI8, dynamic: the maximum |x| gathered by atomicMax on the bits of
// non-negative floats (their order as integers is their order as floats) into a zeroed
// word of the workspace, then every element quantised. PerTensorDequantI8: one thread per
// element. All arithmetic is core/int8_steps.h's.
#include <cstdint>

#include "core/int8_steps.h"
#include "cuda/device_types.cuh"
#include "cuda/int8_quant.h"
#include "cuda/launch.h"

namespace infinicts::ref::op::cuda {
namespace {

constexpr unsigned kRowThreads = 256;

template <class T>
__global__ void PerRowKernel(const __grid_constant__ PerRowQuantGeometry g, int8_t *packed, float *scale, float *zero,
                             const T *x) {
  __shared__ float high[kRowThreads], low[kRowThreads];
  const int64_t row = blockIdx.x;
  const T *in = x + row * g.x_row;
  float hi = 0.0f, lo = 0.0f;
  bool first = true;
  for (int64_t k = threadIdx.x; k < g.cols; k += blockDim.x) {
    const float v = DeviceNum<T>::Load(in[k * g.x_col]);
    const float key = zero == nullptr ? fabsf(v) : v;
    hi = first ? key : fmaxf(hi, key);
    lo = first ? key : fminf(lo, key);
    first = false;
  }
  // Threads with no element take the row's first, which changes neither extreme.
  if (first) {
    const float v = DeviceNum<T>::Load(in[0]);
    hi = lo = zero == nullptr ? fabsf(v) : v;
  }
  high[threadIdx.x] = hi;
  low[threadIdx.x] = lo;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      high[threadIdx.x] = fmaxf(high[threadIdx.x], high[threadIdx.x + half]);
      low[threadIdx.x] = fminf(low[threadIdx.x], low[threadIdx.x + half]);
    }
    __syncthreads();
  }
  float s, inv, z = 0.0f, bottom = -127.0f;
  if (zero == nullptr) {
    s = SymmetricScale(high[0], kInt8ScaleFloor);
    inv = 1.0f / s;
  } else {
    s = AsymmetricScale(high[0], low[0]);
    inv = 1.0f / s;
    z = AsymmetricZero(low[0], inv);
    bottom = -128.0f;
  }
  if (threadIdx.x == 0) {
    scale[row * g.scale_step] = s;
    if (zero != nullptr) zero[row * g.zero_step] = z;
  }
  int8_t *out = packed + row * g.packed_row;
  for (int64_t k = threadIdx.x; k < g.cols; k += blockDim.x) {
    out[k * g.packed_col] = SaturateToI8(DeviceNum<T>::Load(in[k * g.x_col]) * inv + z, bottom, 127.0f);
  }
}

template <class T>
__global__ void MaxAbsKernel(const __grid_constant__ PerTensorGeometry g, const T *x, unsigned int *amax_bits) {
  float local = 0.0f;
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < g.count; i += step) {
    int64_t x_at = 0, packed_at = 0;
    PerTensorOffsets(g, i, &x_at, &packed_at);
    local = fmaxf(local, fabsf(DeviceNum<T>::Load(x[x_at])));
  }
  atomicMax(amax_bits, __float_as_uint(local));
}

template <class T>
__global__ void PerTensorKernel(const __grid_constant__ PerTensorGeometry g, int8_t *packed, float *scale,
                                const T *x, const float *amax) {
  const float s = amax != nullptr ? SymmetricScale(*amax, 0.0f) : *scale;
  const float inv = 1.0f / s;
  if (amax != nullptr && blockIdx.x == 0 && threadIdx.x == 0) *scale = s;
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < g.count; i += step) {
    int64_t x_at = 0, packed_at = 0;
    PerTensorOffsets(g, i, &x_at, &packed_at);
    packed[packed_at] = SaturateToI8(DeviceNum<T>::Load(x[x_at]) * inv, -127.0f, 127.0f);
  }
}

template <class T>
__global__ void DequantKernel(const __grid_constant__ PerTensorGeometry g, T *x, const int8_t *packed,
                              const float *scale) {
  const float s = *scale;
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < g.count; i += step) {
    int64_t x_at = 0, packed_at = 0;
    PerTensorOffsets(g, i, &x_at, &packed_at);
    x[x_at] = DeviceNum<T>::Store(static_cast<float>(packed[packed_at]) * s);
  }
}

}  // namespace

infiniStatus_t PerChannelQuantI8(const InfiniopDescriptor &desc, infiniDtype_t dtype, const PerRowQuantGeometry &g,
                                 int8_t *x_packed, float *x_scale, float *x_zero, const void *x, void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  if (g.rows == 0 || g.cols == 0) return INFINI_STATUS_SUCCESS;
  const bool known = DispatchDeviceFloat(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    PerRowKernel<T><<<static_cast<unsigned>(g.rows), kRowThreads, 0, scope.stream()>>>(g, x_packed, x_scale, x_zero,
                                                                                         static_cast<const T *>(x));
  });
  if (!known) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  return scope.Finish();
}

infiniStatus_t PerTensorQuantI8(const InfiniopDescriptor &desc, infiniDtype_t dtype, const PerTensorGeometry &g,
                                int8_t *x_packed, float *x_scale, const void *x, bool is_static, float *amax_scratch,
                                void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  if (g.count == 0) return INFINI_STATUS_SUCCESS;
  if (!is_static) INFINIOP_RETURN_IF_ERROR(ToStatus(cudaMemsetAsync(amax_scratch, 0, sizeof(float), scope.stream())));
  const bool known = DispatchDeviceFloat(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T *input = static_cast<const T *>(x);
    if (!is_static) {
      MaxAbsKernel<T><<<BlocksFor(static_cast<uint64_t>(g.count)), kThreads, 0, scope.stream()>>>(
          g, input, reinterpret_cast<unsigned int *>(amax_scratch));
    }
    PerTensorKernel<T><<<BlocksFor(static_cast<uint64_t>(g.count)), kThreads, 0, scope.stream()>>>(
        g, x_packed, x_scale, input, is_static ? nullptr : amax_scratch);
  });
  if (!known) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  return scope.Finish();
}

infiniStatus_t PerTensorDequantI8(const InfiniopDescriptor &desc, infiniDtype_t dtype, const PerTensorGeometry &g,
                                  void *x, const int8_t *x_packed, const float *x_scale, void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  if (g.count == 0) return INFINI_STATUS_SUCCESS;
  const bool known = DispatchDeviceFloat(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    DequantKernel<T><<<BlocksFor(static_cast<uint64_t>(g.count)), kThreads, 0, scope.stream()>>>(
        g, static_cast<T *>(x), x_packed, x_scale);
  });
  if (!known) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  return scope.Finish();
}

}  // namespace infinicts::ref::op::cuda
