// Device-side storage types and their compute types, as core/dtype.h has them on the
// host: F16/BF16/F32 compute in float, F64 in double; one rounding (to nearest even) when
// a result is stored. For the .cu files of cuda/ only.
#ifndef INFINICTS_REF_OP_CUDA_DEVICE_TYPES_CUH
#define INFINICTS_REF_OP_CUDA_DEVICE_TYPES_CUH

#include <cstddef>
#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "infinicore.h"

namespace infinicts::ref::op::cuda {

template <class T>
struct DeviceNum;
// F32, F64 and the integer types compute in themselves.
template <class T>
struct StoredAsComputedOnDevice {
  using Compute = T;
  static __device__ T Load(T v) { return v; }
  static __device__ T Store(T c) { return c; }
};
template <>
struct DeviceNum<float> : StoredAsComputedOnDevice<float> {};
template <>
struct DeviceNum<double> : StoredAsComputedOnDevice<double> {};
template <>
struct DeviceNum<int32_t> : StoredAsComputedOnDevice<int32_t> {};
template <>
struct DeviceNum<int64_t> : StoredAsComputedOnDevice<int64_t> {};
// The other integer widths, for the fills (Zeros, Ones).
template <>
struct DeviceNum<int8_t> : StoredAsComputedOnDevice<int8_t> {};
template <>
struct DeviceNum<int16_t> : StoredAsComputedOnDevice<int16_t> {};
template <>
struct DeviceNum<uint8_t> : StoredAsComputedOnDevice<uint8_t> {};
template <>
struct DeviceNum<uint16_t> : StoredAsComputedOnDevice<uint16_t> {};
template <>
struct DeviceNum<uint32_t> : StoredAsComputedOnDevice<uint32_t> {};
template <>
struct DeviceNum<uint64_t> : StoredAsComputedOnDevice<uint64_t> {};
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

// A value of any storage type as double, and a double stored with the CPU reference's two
// roundings (to the compute type, then to storage), as StoreDouble does there.
template <class T>
__device__ double LoadF64(T v) {
  return static_cast<double>(DeviceNum<T>::Load(v));
}
template <class T>
__device__ T StoreF64(double v) {
  return DeviceNum<T>::Store(static_cast<DeviceCompute<T>>(v));
}

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

// Calls fn(DeviceTypeTag<W>{}) with the unsigned word W of `element_size` bytes (1, 2, 4 or 8),
// for the kernels that copy elements bit for bit; false for any other size.
template <class Fn>
bool DispatchCopyWord(size_t element_size, Fn &&fn) {
  switch (element_size) {
    case 1: fn(DeviceTypeTag<uint8_t>{}); return true;
    case 2: fn(DeviceTypeTag<uint16_t>{}); return true;
    case 4: fn(DeviceTypeTag<uint32_t>{}); return true;
    case 8: fn(DeviceTypeTag<uint64_t>{}); return true;
    default: return false;
  }
}

// The same for I32 and I64.
template <class Fn>
bool DispatchDeviceInteger(infiniDtype_t dtype, Fn &&fn) {
  switch (dtype) {
    case INFINI_DTYPE_I32: fn(DeviceTypeTag<int32_t>{}); return true;
    case INFINI_DTYPE_I64: fn(DeviceTypeTag<int64_t>{}); return true;
    default: return false;
  }
}

// The same for the word dtypes the fills take: every integer dtype, BYTE and BOOL as bytes.
template <class Fn>
bool DispatchDeviceWord(infiniDtype_t dtype, Fn &&fn) {
  switch (dtype) {
    case INFINI_DTYPE_BYTE:
    case INFINI_DTYPE_BOOL:
    case INFINI_DTYPE_U8: fn(DeviceTypeTag<uint8_t>{}); return true;
    case INFINI_DTYPE_I8: fn(DeviceTypeTag<int8_t>{}); return true;
    case INFINI_DTYPE_I16: fn(DeviceTypeTag<int16_t>{}); return true;
    case INFINI_DTYPE_U16: fn(DeviceTypeTag<uint16_t>{}); return true;
    case INFINI_DTYPE_U32: fn(DeviceTypeTag<uint32_t>{}); return true;
    case INFINI_DTYPE_U64: fn(DeviceTypeTag<uint64_t>{}); return true;
    default: return DispatchDeviceInteger(dtype, fn);
  }
}

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_DEVICE_TYPES_CUH
