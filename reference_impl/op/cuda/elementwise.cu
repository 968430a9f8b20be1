// The elementwise kernels: one template over the operator's functor, a contiguous path
// with 16-byte loads and stores (every operand contiguous and 16-byte aligned) and a
// strided path (any layout, broadcast through stride 0). The functors are the rules of
// rules/elementwise.h, one per SAME_SHAPE row of operators.def, picked from the row.
#include <cstdint>
#include <type_traits>
#include <utility>

#include "cuda/device_types.cuh"
#include "cuda/elementwise.h"
#include "cuda/kernel_limits.h"
#include "cuda/launch.h"
#include "cuda/paths.h"
#include "rules/elementwise.h"

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
  if constexpr (rules::TakesEveryDtype<F>::value) {
    known = known || DispatchDeviceWord(dtype, launch);
  } else if constexpr (rules::TakesIntegers<F>::value) {
    known = known || DispatchDeviceInteger(dtype, launch);
  }
  if (!known) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  return scope.Finish();
}

// The rule of the row, with the attributes the host made it with, where it takes NumIn inputs.
template <class Rule, size_t NumIn>
infiniStatus_t RunRule(const InfiniopDescriptor &desc, infiniDtype_t dtype, const StridedOperands<NumIn + 1> &layout,
                       void *out, const std::array<const void *, NumIn> &in, const void *rule, void *stream) {
  if constexpr (rules::kArity<Rule> == NumIn) {
    return Run<Rule, NumIn>(desc, dtype, layout, out, in, stream, *static_cast<const Rule *>(rule));
  } else {
    return INFINI_STATUS_BAD_PARAM;
  }
}

// Every SAME_SHAPE row has a CUDA path: this file's kernels over its rule.
#define INFINIOP_CUDA_ROW_OWN_SHAPES(Name)
#define INFINIOP_CUDA_ROW_SAME_SHAPE(Name) INFINIOP_CUDA_PATH(Name)
#define OPERATOR(Name, subject, shapes, ...) INFINIOP_CUDA_ROW_##shapes(Name)
#include "infiniop/operators.def"
#undef OPERATOR
#undef INFINIOP_CUDA_ROW_SAME_SHAPE

}  // namespace

template <size_t NumIn>
infiniStatus_t Elementwise(const InfiniopDescriptor &desc, OpKind kind, infiniDtype_t dtype,
                           const StridedOperands<NumIn + 1> &layout, void *out,
                           const std::array<const void *, NumIn> &in, const void *rule, void *stream) {
  switch (kind) {
#define INFINIOP_CUDA_ROW_SAME_SHAPE(Name) \
  case OpKind::k##Name:                    \
    return RunRule<rules::Name, NumIn>(desc, dtype, layout, out, in, rule, stream);
#define OPERATOR(Name, subject, shapes, ...) INFINIOP_CUDA_ROW_##shapes(Name)
#include "infiniop/operators.def"
#undef OPERATOR
#undef INFINIOP_CUDA_ROW_SAME_SHAPE
#undef INFINIOP_CUDA_ROW_OWN_SHAPES
    default:
      return INFINI_STATUS_BAD_PARAM;
  }
}

template infiniStatus_t Elementwise<1>(const InfiniopDescriptor &, OpKind, infiniDtype_t, const StridedOperands<2> &,
                                       void *, const std::array<const void *, 1> &, const void *, void *);
template infiniStatus_t Elementwise<2>(const InfiniopDescriptor &, OpKind, infiniDtype_t, const StridedOperands<3> &,
                                       void *, const std::array<const void *, 2> &, const void *, void *);
template infiniStatus_t Elementwise<3>(const InfiniopDescriptor &, OpKind, infiniDtype_t, const StridedOperands<4> &,
                                       void *, const std::array<const void *, 3> &, const void *, void *);

}  // namespace infinicts::ref::op::cuda
