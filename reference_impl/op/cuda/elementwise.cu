// The elementwise kernels: one template over the operator's functor, a contiguous path
// with 16-byte loads and stores (every operand contiguous and 16-byte aligned) and a
// strided path (any layout, broadcast through stride 0). The functors are in
// elementwise_ops.h.
#include <cstdint>
#include <type_traits>
#include <utility>

#include "cuda/device_types.cuh"
#include "cuda/elementwise.h"
#include "cuda/elementwise_ops.h"
#include "cuda/kernel_limits.h"
#include "cuda/launch.h"

namespace infinicts::ref::op::cuda {
namespace {

template <class T, size_t NumIn>
struct Pointers {
  T *out;
  const T *in[NumIn];
};

// The strided kernel's parameters: the merged layout, the functor (its attributes) and the pointers.
template <class T, class F, size_t NumIn>
struct StridedParameters {
  StridedOperands<NumIn + 1> layout;
  F f;
  Pointers<T, NumIn> pointers;
};

// 16 bytes of T, loaded and stored as one vector.
template <class T>
struct alignas(16) Pack {
  static constexpr unsigned kCount = 16 / sizeof(T);
  T values[kCount];
};

template <class T, class F, size_t... K>
__device__ T ApplyScalar(const F &f, const T (&x)[sizeof...(K)], std::index_sequence<K...>) {
  return DeviceNum<T>::Store(f(DeviceNum<T>::Load(x[K])...));
}

template <class T, class F, size_t NumIn, size_t... K>
__global__ void ContiguousKernel(F f, Pointers<T, NumIn> p, uint64_t numel, std::index_sequence<K...> order) {
  constexpr unsigned kCount = Pack<T>::kCount;
  const uint64_t first = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  const uint64_t packs = numel / kCount;
  for (uint64_t v = first; v < packs; v += step) {
    Pack<T> x[NumIn];
    for (size_t k = 0; k < NumIn; ++k) x[k] = reinterpret_cast<const Pack<T> *>(p.in[k])[v];
    Pack<T> y;
#pragma unroll
    for (unsigned j = 0; j < kCount; ++j) {
      const T operands[NumIn] = {x[K].values[j]...};
      y.values[j] = ApplyScalar<T>(f, operands, order);
    }
    reinterpret_cast<Pack<T> *>(p.out)[v] = y;
  }
  // The tail after the last whole pack.
  for (uint64_t i = packs * kCount + first; i < numel; i += step) {
    const T operands[NumIn] = {p.in[K][i]...};
    p.out[i] = ApplyScalar<T>(f, operands, order);
  }
}

template <class T, class F, size_t NumIn, size_t... K>
__global__ void StridedKernel(const __grid_constant__ StridedOperands<NumIn + 1> layout, F f, Pointers<T, NumIn> p,
                              std::index_sequence<K...> order) {
  const uint64_t first = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = first; i < layout.numel; i += step) {
    int64_t offsets[NumIn + 1] = {};
    uint64_t rest = i;
    for (int d = layout.ndim - 1; d >= 0; --d) {
      const uint64_t extent = static_cast<uint64_t>(layout.shape[d]);
      const int64_t index = static_cast<int64_t>(rest % extent);
      rest /= extent;
      for (size_t k = 0; k <= NumIn; ++k) offsets[k] += index * layout.strides[k][d];
    }
    const T operands[NumIn] = {p.in[K][offsets[K + 1]]...};
    p.out[offsets[0]] = ApplyScalar<T>(f, operands, order);
  }
}

// Whether F also takes I32 and I64 (static constexpr bool kIntegers = true).
template <class F, class = void>
struct TakesIntegers : std::false_type {};
template <class F>
struct TakesIntegers<F, std::void_t<decltype(F::kIntegers)>> : std::bool_constant<F::kIntegers> {};

bool Aligned16(const void *pointer) { return reinterpret_cast<uintptr_t>(pointer) % 16 == 0; }

template <class T, class F, size_t NumIn>
void LaunchTyped(cudaStream_t stream, const F &f, const StridedOperands<NumIn + 1> &layout, void *out,
                 const std::array<const void *, NumIn> &in) {
  Pointers<T, NumIn> p;
  p.out = static_cast<T *>(out);
  bool aligned = Aligned16(out);
  for (size_t k = 0; k < NumIn; ++k) {
    p.in[k] = static_cast<const T *>(in[k]);
    aligned = aligned && Aligned16(in[k]);
  }
  const auto order = std::make_index_sequence<NumIn>{};
  if (layout.AllContiguous() && aligned) {
    const uint64_t threads_needed = layout.numel / Pack<T>::kCount + Pack<T>::kCount;
    ContiguousKernel<T, F, NumIn><<<BlocksFor(threads_needed), kThreads, 0, stream>>>(f, p, layout.numel, order);
  } else {
    static_assert(FitsKernelParameters<StridedParameters<T, F, NumIn>>(),
                  "the strided kernel's parameters must fit in 4 KB");
    StridedKernel<T, F, NumIn><<<BlocksFor(layout.numel), kThreads, 0, stream>>>(layout, f, p, order);
  }
}

template <class F, size_t NumIn>
infiniStatus_t Run(const InfiniopDescriptor &desc, infiniDtype_t dtype, const StridedOperands<NumIn + 1> &layout,
                   void *out, const std::array<const void *, NumIn> &in, void *stream, const F &f = F{}) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  if (layout.numel == 0) return INFINI_STATUS_SUCCESS;
  const auto launch = [&](auto tag) {
    LaunchTyped<typename decltype(tag)::type, F, NumIn>(scope.stream(), f, layout, out, in);
  };
  bool known = DispatchDeviceFloat(dtype, launch);
  if constexpr (TakesIntegers<F>::value) known = known || DispatchDeviceInteger(dtype, launch);
  if (!known) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  return scope.Finish();
}

}  // namespace

infiniStatus_t Elementwise(const InfiniopDescriptor &desc, OpKind kind, infiniDtype_t dtype,
                           const StridedOperands<2> &layout, void *out, const std::array<const void *, 1> &in,
                           void *stream) {
  switch (kind) {
    case OpKind::kRelu: return Run<ReluOp, 1>(desc, dtype, layout, out, in, stream);
    case OpKind::kSilu: return Run<SiluOp, 1>(desc, dtype, layout, out, in, stream);
    case OpKind::kGelu: return Run<GeluOp, 1>(desc, dtype, layout, out, in, stream);
    case OpKind::kSigmoid: return Run<SigmoidOp, 1>(desc, dtype, layout, out, in, stream);
    case OpKind::kErf: return Run<ErfOp, 1>(desc, dtype, layout, out, in, stream);
    case OpKind::kFloor: return Run<FloorOp, 1>(desc, dtype, layout, out, in, stream);
    case OpKind::kTanh: return Run<TanhOp, 1>(desc, dtype, layout, out, in, stream);
    case OpKind::kSinh: return Run<SinhOp, 1>(desc, dtype, layout, out, in, stream);
    case OpKind::kLog1p: return Run<Log1pOp, 1>(desc, dtype, layout, out, in, stream);
    case OpKind::kReciprocal: return Run<ReciprocalOp, 1>(desc, dtype, layout, out, in, stream);
    case OpKind::kRelu6: return Run<Relu6Op, 1>(desc, dtype, layout, out, in, stream);
    case OpKind::kHardSwish: return Run<HardSwishOp, 1>(desc, dtype, layout, out, in, stream);
    case OpKind::kGeluTanh: return Run<GeluTanhOp, 1>(desc, dtype, layout, out, in, stream);
    case OpKind::kQuickGelu: return Run<QuickGeluOp, 1>(desc, dtype, layout, out, in, stream);
    case OpKind::kSelu: return Run<SeluOp, 1>(desc, dtype, layout, out, in, stream);
    case OpKind::kSoftsign: return Run<SoftsignOp, 1>(desc, dtype, layout, out, in, stream);
    case OpKind::kOnes: return Run<OnesOp, 1>(desc, dtype, layout, out, in, stream);
    case OpKind::kZeros: return Run<ZerosOp, 1>(desc, dtype, layout, out, in, stream);
    default: return INFINI_STATUS_BAD_PARAM;
  }
}

infiniStatus_t Elementwise(const InfiniopDescriptor &desc, OpKind kind, infiniDtype_t dtype,
                           const StridedOperands<2> &layout, void *out, const std::array<const void *, 1> &in,
                           const UnaryAttributes &attributes, void *stream) {
  switch (kind) {
    case OpKind::kHardTanh:
      return Run<HardTanhOp, 1>(desc, dtype, layout, out, in, stream, HardTanhOp{attributes.first, attributes.second});
    case OpKind::kSoftplus:
      return Run<SoftplusOp, 1>(desc, dtype, layout, out, in, stream, SoftplusOp{attributes.first, attributes.second});
    default: return INFINI_STATUS_BAD_PARAM;
  }
}

infiniStatus_t Elementwise(const InfiniopDescriptor &desc, OpKind kind, infiniDtype_t dtype,
                           const StridedOperands<3> &layout, void *out, const std::array<const void *, 2> &in,
                           void *stream) {
  switch (kind) {
    case OpKind::kAdd: return Run<AddOp, 2>(desc, dtype, layout, out, in, stream);
    case OpKind::kSub: return Run<SubOp, 2>(desc, dtype, layout, out, in, stream);
    case OpKind::kMul: return Run<MulOp, 2>(desc, dtype, layout, out, in, stream);
    case OpKind::kSwiGLU: return Run<SwiGLUOp, 2>(desc, dtype, layout, out, in, stream);
    default: return INFINI_STATUS_BAD_PARAM;
  }
}

infiniStatus_t Elementwise(const InfiniopDescriptor &desc, OpKind kind, infiniDtype_t dtype,
                           const StridedOperands<4> &layout, void *out, const std::array<const void *, 3> &in,
                           void *stream) {
  switch (kind) {
    case OpKind::kClip: return Run<ClipOp, 3>(desc, dtype, layout, out, in, stream);
    default: return INFINI_STATUS_BAD_PARAM;
  }
}

}  // namespace infinicts::ref::op::cuda
