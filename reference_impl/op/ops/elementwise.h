// Elementwise operators with NumIn inputs: one floating dtype for every tensor (or I32 / I64,
// on the CPU, for a functor with kIntegers), one shape (an input broadcasts only through
// stride 0), an output that does not overlap itself. Each operator file supplies the
// arithmetic as a functor on compute values.
#ifndef INFINICTS_REF_OP_OPS_ELEMENTWISE_H
#define INFINICTS_REF_OP_OPS_ELEMENTWISE_H

#include <array>
#include <cmath>
#include <memory>
#include <type_traits>
#include <utility>

#include "core/api.h"
#include "core/dtype.h"
#include "core/simd.h"
#include "core/strided_loop.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/elementwise.h"
#endif

namespace infinicts::ref::op {

constexpr size_t kElementwiseGrain = 1 << 14;

template <size_t NumIn>
struct ElementwisePlan {
  infiniDtype_t dtype;
  StridedLoop<NumIn + 1> loop;  // operand 0 is the output
#ifdef INFINIOP_WITH_CUDA
  cuda::StridedOperands<NumIn + 1> device_layout;  // the same walk, for the CUDA kernels
#endif
};

// Whether F also takes I32 and I64 operands: static constexpr bool kIntegers = true.
template <class F, class = void>
struct TakesIntegers : std::false_type {};
template <class F>
struct TakesIntegers<F, std::void_t<decltype(F::kIntegers)>> : std::bool_constant<F::kIntegers> {};

inline bool IsElementwiseInteger(infiniDtype_t dtype) {
  return dtype == INFINI_DTYPE_I32 || dtype == INFINI_DTYPE_I64;
}

template <size_t NumIn>
infiniStatus_t MakeElementwisePlan(const TensorLayout &out, const std::array<const TensorLayout *, NumIn> &in,
                                   bool integers, ElementwisePlan<NumIn> *plan) {
  if (!IsFloatDtype(out.dtype) && !(integers && IsElementwiseInteger(out.dtype))) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  for (const TensorLayout *input : in) {
    if (input->dtype != out.dtype) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  for (const TensorLayout *input : in) {
    if (!SameShape(*input, out)) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (OverlapsItself(out)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  std::array<const std::vector<ptrdiff_t> *, NumIn + 1> strides;
  strides[0] = &out.strides;
  for (size_t k = 0; k < NumIn; ++k) strides[k + 1] = &in[k]->strides;
  plan->dtype = out.dtype;
  plan->loop = StridedLoop<NumIn + 1>(out.shape, strides);
#ifdef INFINIOP_WITH_CUDA
  plan->device_layout = cuda::MergeOperands<NumIn + 1>(out.shape, strides);
#endif
  return INFINI_STATUS_SUCCESS;
}

#ifdef INFINIOP_WITH_CUDA
// Whether F carries create-time attributes to the CUDA kernel: cuda::UnaryAttributes
// DeviceAttributes() const.
template <class F, class = void>
struct HasDeviceAttributes : std::false_type {};
template <class F>
struct HasDeviceAttributes<F, std::void_t<decltype(std::declval<const F &>().DeviceAttributes())>> : std::true_type {};
#endif

// Whether F names its one-pass vector kernel: static constexpr simd::MapOp kVectorOp.
template <class F, class = void>
struct HasVectorOp : std::false_type {};
template <class F>
struct HasVectorOp<F, std::void_t<decltype(F::kVectorOp)>> : std::true_type {};

// A contiguous F16 run of an operator without a vector kernel, a block at a time: inputs
// converted to F32, F's scalar form, the block converted back. In place (y == an input)
// is safe: a block is read whole before it is written.
template <class F, size_t NumIn, size_t... K>
void RunF16Blocks(const F &f, f16_t *y, const std::array<const f16_t *, NumIn> &x, size_t count,
                  std::index_sequence<K...>) {
  constexpr size_t kBlock = 1024;
  alignas(32) float inputs[NumIn][kBlock];
  alignas(32) float output[kBlock];
  for (size_t begin = 0; begin < count; begin += kBlock) {
    const size_t n = std::min(kBlock, count - begin);
    for (size_t k = 0; k < NumIn; ++k) simd::F16ToF32(reinterpret_cast<const uint16_t *>(x[k] + begin), inputs[k], n);
    for (size_t i = 0; i < n; ++i) output[i] = f(inputs[K][i]...);
    simd::F32ToF16(output, reinterpret_cast<uint16_t *>(y + begin), n);
  }
}

// The vector path of a contiguous run, where there is one: F's one-pass kernel (F16 or
// F32), or F16 blocks through F32 for the others. Answers false where none applies.
template <class T, class F, size_t NumIn, size_t... K>
bool RunContiguousVector(const F &f, T *y, const std::array<const T *, NumIn> &x, size_t count, bool streaming,
                         std::index_sequence<K...> indices) {
  constexpr bool kF16 = std::is_same_v<T, f16_t>;
  if constexpr (HasVectorOp<F>::value && (kF16 || std::is_same_v<T, float>)) {
    const void *in[NumIn] = {x[K]...};
    simd::Map(F::kVectorOp, kF16, in, y, count, streaming && simd::StreamsLargeOutputs(F::kVectorOp));
    return true;
  } else if constexpr (kF16) {
    RunF16Blocks<F, NumIn>(f, y, x, count, indices);
    return true;
  }
  return false;
}

template <class T, class F, size_t NumIn, size_t... K>
void RunElementwiseTyped(const StridedLoop<NumIn + 1> &loop, void *out, const std::array<const void *, NumIn> &in,
                         const F &f, std::index_sequence<K...>) {
  const bool streaming = loop.numel() * sizeof(T) >= simd::kStreamingOutputBytes;
  loop.ParallelForEachTiled(kElementwiseGrain, [&](const Offsets<NumIn + 1> &offsets,
                                                   const Offsets<NumIn + 1> &steps, size_t count) {
    T *y = static_cast<T *>(out) + offsets[0];
    const std::array<const T *, NumIn> x{(static_cast<const T *>(in[K]) + offsets[K + 1])...};
    bool contiguous = steps[0] == 1;
    for (size_t k = 1; k <= NumIn; ++k) contiguous = contiguous && steps[k] == 1;
    if (contiguous && simd::Enabled() &&
        RunContiguousVector<T, F, NumIn>(f, y, x, count, streaming, std::index_sequence<K...>{})) {
      return;
    }
    if (contiguous) {  // a separate loop the compiler can vectorise
      for (size_t i = 0; i < count; ++i) y[i] = Num<T>::Store(f(Num<T>::Load(x[K][i])...));
    } else {
      for (size_t i = 0; i < count; ++i) {
        const ptrdiff_t j = static_cast<ptrdiff_t>(i);
        y[j * steps[0]] = Num<T>::Store(f(Num<T>::Load(x[K][j * steps[K + 1]])...));
      }
    }
  });
}

template <OpKind Kind, size_t NumIn, class F>
class ElementwiseDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = Kind;

  // `f` carries the operator's create-time attributes, if it has any.
  static infiniStatus_t Create(infiniopHandle_t handle, InfiniopDescriptor **desc_ptr, const TensorLayout *out,
                               const std::array<const TensorLayout *, NumIn> &in, F f = F{}) {
    auto make = [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
      auto plan = std::make_shared<ElementwisePlan<NumIn>>();
      const bool integers = TakesIntegers<F>::value;
      INFINIOP_RETURN_IF_ERROR(MakeElementwisePlan<NumIn>(*out, in, integers, plan.get()));
      made->reset(new ElementwiseDescriptor(h, std::move(plan), f));
      return INFINI_STATUS_SUCCESS;
    };
    if (handle == nullptr || desc_ptr == nullptr || out == nullptr) return INFINI_STATUS_NULL_POINTER;
    for (const TensorLayout *input : in) {
      if (input == nullptr) return INFINI_STATUS_NULL_POINTER;
    }
    return CreateDescriptor(handle, desc_ptr, {}, make);
  }

  static infiniStatus_t Compute(InfiniopDescriptor *desc, void *workspace, size_t workspace_size, void *out,
                                const std::array<const void *, NumIn> &in, void *stream) {
    ElementwiseDescriptor *self = nullptr;
    INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*self, workspace, workspace_size));
    const size_t count = self->plan_->loop.numel();
    INFINIOP_RETURN_IF_ERROR(CheckData({{out, count}}));
    for (const void *input : in) INFINIOP_RETURN_IF_ERROR(CheckData({{input, count}}));
    std::shared_ptr<const ElementwisePlan<NumIn>> plan = self->plan_;
#ifdef INFINIOP_WITH_CUDA
    if (self->device_type == INFINI_DEVICE_NVIDIA) {
      if constexpr (HasDeviceAttributes<F>::value) {
        return cuda::Elementwise(*self, Kind, plan->dtype, plan->device_layout, out, in, self->f_.DeviceAttributes(),
                                 stream);
      } else {
        return cuda::Elementwise(*self, Kind, plan->dtype, plan->device_layout, out, in, stream);
      }
    }
#endif
    return Launch(*self, stream, [plan, out, in, f = self->f_] {
      const auto run = [&](auto tag) {
        using T = typename decltype(tag)::type;
        RunElementwiseTyped<T, F, NumIn>(plan->loop, out, in, f, std::make_index_sequence<NumIn>{});
      };
      if (DispatchFloat(plan->dtype, run)) return;
      if constexpr (TakesIntegers<F>::value) {
        if (plan->dtype == INFINI_DTYPE_I32) run(TypeTag<int32_t>{});
        else if (plan->dtype == INFINI_DTYPE_I64) run(TypeTag<int64_t>{});
      }
    });
  }

 private:
  ElementwiseDescriptor(const InfiniopHandle &handle, std::shared_ptr<const ElementwisePlan<NumIn>> plan, F f)
      : InfiniopDescriptor(Kind, handle), plan_(std::move(plan)), f_(f) {}

  std::shared_ptr<const ElementwisePlan<NumIn>> plan_;
  F f_;
};

}  // namespace infinicts::ref::op

// The four C functions of a unary elementwise operator without create-time attributes,
// over ElementwiseDescriptor<OpKind::k<Name>, 1, Fn> (Fn fully qualified).
#define INFINIOP_DEFINE_UNARY_ELEMENTWISE(Name, Fn)                                                                  \
  using Name##ElementwiseDescriptor =                                                                              \
      ::infinicts::ref::op::ElementwiseDescriptor<::infinicts::ref::op::OpKind::k##Name, 1, Fn>;                   \
  __INFINI_C infiniStatus_t infiniopCreate##Name##Descriptor(infiniopHandle_t handle,                              \
                                                             infiniop##Name##Descriptor_t *desc_ptr,               \
                                                             infiniopTensorDescriptor_t y,                         \
                                                             infiniopTensorDescriptor_t x) {                       \
    return Name##ElementwiseDescriptor::Create(handle, desc_ptr, y, {x});                                          \
  }                                                                                                                \
  __INFINI_C infiniStatus_t infiniopGet##Name##WorkspaceSize(infiniop##Name##Descriptor_t desc, size_t *size) {    \
    return ::infinicts::ref::op::GetWorkspaceSize<Name##ElementwiseDescriptor>(desc, size);                        \
  }                                                                                                                \
  __INFINI_C infiniStatus_t infiniop##Name(infiniop##Name##Descriptor_t desc, void *workspace,                     \
                                           size_t workspace_size, void *y, const void *x, void *stream) {          \
    return Name##ElementwiseDescriptor::Compute(desc, workspace, workspace_size, y, {x}, stream);                  \
  }                                                                                                                \
  __INFINI_C infiniStatus_t infiniopDestroy##Name##Descriptor(infiniop##Name##Descriptor_t desc) {                 \
    return ::infinicts::ref::op::DestroyDescriptor<Name##ElementwiseDescriptor>(desc);                             \
  }

#endif  // INFINICTS_REF_OP_OPS_ELEMENTWISE_H
