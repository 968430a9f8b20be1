// Device-side storage types and their compute types, as core/dtype.h has them on the
// host: F16/BF16/F32 compute in float, F64 in double; one rounding (to nearest even) when
// a result is stored. For the .cu files of cuda/ only.
#ifndef INFINICTS_REF_OP_CUDA_DEVICE_TYPES_CUH
#define INFINICTS_REF_OP_CUDA_DEVICE_TYPES_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "infinicore.h"

namespace infinicts::ref::op::cuda {

template <class T>
struct DeviceNum;
template <>
struct DeviceNum<float> {
  using Compute = float;
  static __device__ float Load(float v) { return v; }
  static __device__ float Store(float c) { return c; }
};
template <>
struct DeviceNum<double> {
  using Compute = double;
  static __device__ double Load(double v) { return v; }
  static __device__ double Store(double c) { return c; }
};
template <>
struct DeviceNum<__half> {
  using Compute = float;
  static __device__ float Load(__half v) { return __half2float(v); }
  static __device__ __half Store(float c) { return __float2half_rn(c); }
};
template <>
struct DeviceNum<__nv_bfloat16> {
  using Compute = float;
  static __device__ float Load(__nv_bfloat16 v) { return __bfloat162float(v); }
  static __device__ __nv_bfloat16 Store(float c) { return __float2bfloat16_rn(c); }
};

template <class T>
using DeviceCompute = typename DeviceNum<T>::Compute;

template <class T>
struct DeviceTypeTag {
  using type = T;
};

// Calls fn(DeviceTypeTag<T>{}) with the device storage type of a floating dtype; false
// for any other dtype (callers validated it at descriptor creation).
template <class Fn>
bool DispatchDeviceFloat(infiniDtype_t dtype, Fn &&fn) {
  switch (dtype) {
    case INFINI_DTYPE_F16: fn(DeviceTypeTag<__half>{}); return true;
    case INFINI_DTYPE_BF16: fn(DeviceTypeTag<__nv_bfloat16>{}); return true;
    case INFINI_DTYPE_F32: fn(DeviceTypeTag<float>{}); return true;
    case INFINI_DTYPE_F64: fn(DeviceTypeTag<double>{}); return true;
    default: return false;
  }
}

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_DEVICE_TYPES_CUH
