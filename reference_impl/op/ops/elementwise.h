// Elementwise operators with NumIn inputs: one floating dtype for every tensor (or I32 / I64
// for a rule with kIntegers, any integer dtype, BYTE or BOOL for one with kEveryDtype), one shape (an input broadcasts only through stride 0), an output
// that does not overlap itself. The arithmetic is the operator's rule (rules/elementwise.h),
// the same functor the CUDA kernels run; ops/elementwise_rows.cc defines the C functions of
// every SAME_SHAPE row over it.
#ifndef INFINICTS_REF_OP_OPS_ELEMENTWISE_H
#define INFINICTS_REF_OP_OPS_ELEMENTWISE_H

#include <array>
#include <cmath>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

#include "core/api.h"
#include "core/dtype.h"
#include "core/simd.h"
#include "core/strided_loop.h"
#include "rules/elementwise.h"
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

inline bool IsElementwiseInteger(infiniDtype_t dtype) {
  return dtype == INFINI_DTYPE_I32 || dtype == INFINI_DTYPE_I64;
}

template <size_t NumIn>
infiniStatus_t MakeElementwisePlan(const TensorLayout &out, const std::array<const TensorLayout *, NumIn> &in,
                                   bool integers, bool every_dtype, ElementwisePlan<NumIn> *plan) {
  const bool admitted = IsFloatDtype(out.dtype) || (integers && IsElementwiseInteger(out.dtype)) ||
                        (every_dtype && IsWordDtype(out.dtype));
  if (!admitted) return INFINI_STATUS_BAD_TENSOR_DTYPE;
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

// The rules with a one-pass vector kernel of their own (core/simd.h), for F16 and F32; the
// others run the rule, F16 through F32 blocks. A speed-up only: no operator needs a line here.
template <class Rule>
struct VectorKernel {
  static constexpr bool kHas = false;
};
#define INFINIOP_VECTOR_KERNEL(Rule, map_op)               \
  template <>                                              \
  struct VectorKernel<rules::Rule> {                       \
    static constexpr bool kHas = true;                     \
    static constexpr simd::MapOp kOp = simd::MapOp::map_op; \
  };
INFINIOP_VECTOR_KERNEL(Add, kAdd)
INFINIOP_VECTOR_KERNEL(Sub, kSub)
INFINIOP_VECTOR_KERNEL(Mul, kMul)
INFINIOP_VECTOR_KERNEL(SwiGLU, kSwiGLU)
INFINIOP_VECTOR_KERNEL(Relu, kRelu)
INFINIOP_VECTOR_KERNEL(Silu, kSilu)
INFINIOP_VECTOR_KERNEL(Gelu, kGelu)
INFINIOP_VECTOR_KERNEL(Sigmoid, kSigmoid)
#undef INFINIOP_VECTOR_KERNEL

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
  if constexpr (VectorKernel<F>::kHas && (kF16 || std::is_same_v<T, float>)) {
    constexpr simd::MapOp kOp = VectorKernel<F>::kOp;
    const void *in[NumIn] = {x[K]...};
    simd::Map(kOp, kF16, in, y, count, streaming && simd::StreamsLargeOutputs(kOp));
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
      const bool integers = rules::TakesIntegers<F>::value, every_dtype = rules::TakesEveryDtype<F>::value;
      INFINIOP_RETURN_IF_ERROR(MakeElementwisePlan<NumIn>(*out, in, integers, every_dtype, plan.get()));
      made->reset(new ElementwiseDescriptor(h, std::move(plan), f));
      return INFINI_STATUS_SUCCESS;
    };
    if (handle == nullptr || desc_ptr == nullptr || out == nullptr) return INFINI_STATUS_NULL_POINTER;
    for (const TensorLayout *input : in) {
      if (input == nullptr) return INFINI_STATUS_NULL_POINTER;
    }
    return CreateDescriptor(handle, desc_ptr, {}, make);
  }

  // `run_rule`, where given, replaces the create-time one for this call (an operator's run-time
  // scalars: MulScalar's alpha).
  static infiniStatus_t Compute(InfiniopDescriptor *desc, void *workspace, size_t workspace_size, void *out,
                                const std::array<const void *, NumIn> &in, void *stream,
                                const F *run_rule = nullptr) {
    ElementwiseDescriptor *self = nullptr;
    INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*self, workspace, workspace_size));
    const size_t count = self->plan_->loop.numel();
    INFINIOP_RETURN_IF_ERROR(CheckData({{out, count}}));
    for (const void *input : in) INFINIOP_RETURN_IF_ERROR(CheckData({{input, count}}));
    std::shared_ptr<const ElementwisePlan<NumIn>> plan = self->plan_;
    const F rule = run_rule != nullptr ? *run_rule : self->f_;
#ifdef INFINIOP_WITH_CUDA
    if (self->device_type == INFINI_DEVICE_NVIDIA) {
      return cuda::Elementwise<NumIn>(*self, Kind, plan->dtype, plan->device_layout, out, in, &rule, stream);
    }
#endif
    return Launch(*self, stream, [plan, out, in, f = rule] {
      const auto run = [&](auto tag) {
        using T = typename decltype(tag)::type;
        RunElementwiseTyped<T, F, NumIn>(plan->loop, out, in, f, std::make_index_sequence<NumIn>{});
      };
      if (DispatchFloat(plan->dtype, run)) return;
      if constexpr (rules::TakesEveryDtype<F>::value) {
        DispatchWord(plan->dtype, run);
      } else if constexpr (rules::TakesIntegers<F>::value) {
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

// Whether Rule refuses some create-time attributes: bool AttributesValid() const.
template <class Rule, class = void>
struct ChecksAttributes : std::false_type {};
template <class Rule>
struct ChecksAttributes<Rule, std::void_t<decltype(std::declval<const Rule &>().AttributesValid())>>
    : std::true_type {};

template <OpKind Kind, class Rule>
using ElementwiseDescriptorOf = ElementwiseDescriptor<Kind, rules::kArity<Rule>, Rule>;

template <OpKind Kind, class Rule, class Tuple, size_t... I, size_t... A>
infiniStatus_t CreateFromRow(infiniopHandle_t handle, InfiniopDescriptor **desc_ptr, infiniopTensorDescriptor_t out,
                             const Tuple &args, std::index_sequence<I...>, std::index_sequence<A...>) {
  static_assert((std::is_same_v<std::tuple_element_t<I, Tuple>, infiniopTensorDescriptor_t> && ...),
                "a row's tensor descriptors come before its attributes");
  constexpr size_t kInputs = sizeof...(I);
  const Rule rule{std::get<kInputs + A>(args)...};
  if constexpr (ChecksAttributes<Rule>::value) {
    if (!rule.AttributesValid()) return INFINI_STATUS_BAD_PARAM;
  }
  const std::array<const TensorLayout *, kInputs> in{std::get<I>(args)...};
  return ElementwiseDescriptorOf<Kind, Rule>::Create(handle, desc_ptr, out, in, rule);
}

// Create<Name>Descriptor of a SAME_SHAPE row: the output's descriptor, the inputs' (as many as
// the rule takes), then the create-time attributes, which make the rule. Attributes the rule
// refuses -> BAD_PARAM, before any other check.
template <OpKind Kind, class Rule, class... Args>
infiniStatus_t CreateElementwise(infiniopHandle_t handle, InfiniopDescriptor **desc_ptr,
                                 infiniopTensorDescriptor_t out, Args... args) {
  constexpr size_t kInputs = rules::kArity<Rule>;
  static_assert(kInputs >= 1 && kInputs <= sizeof...(Args), "the row's descriptors must match its rule's arity");
  return CreateFromRow<Kind, Rule>(handle, desc_ptr, out, std::tuple<Args...>(args...),
                                   std::make_index_sequence<kInputs>{},
                                   std::make_index_sequence<sizeof...(Args) - kInputs>{});
}

// infiniop<Name> of a SAME_SHAPE row: the output's data, then the inputs'.
template <OpKind Kind, class Rule, class... In>
infiniStatus_t ComputeElementwise(InfiniopDescriptor *desc, void *workspace, size_t workspace_size, void *stream,
                                  void *out, In... in) {
  return ElementwiseDescriptorOf<Kind, Rule>::Compute(desc, workspace, workspace_size, out, {in...}, stream);
}

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_OPS_ELEMENTWISE_H
