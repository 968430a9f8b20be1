// MoeSum: output[t, h] = Σ_j input[t, j, h] over each token's k expert outputs (spec section
// OP-MOESUM), every tensor through its strides. The sum runs in F32 (F16 and BF16 rounded once
// at the end), a block of a token's hidden row at a time: the k rows of the block are converted
// and added into one accumulator, then stored.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <type_traits>

#include "core/api.h"
#include "core/dtype.h"
#include "core/parallel.h"
#include "core/simd.h"
#include "infiniop.h"

namespace infinicts::ref::op {
namespace {

constexpr size_t kBlock = 1024;  // hidden elements per accumulator block

struct MoeSumPlan {
  infiniDtype_t dtype;
  size_t tokens = 0, k = 0, hidden = 0;
  ptrdiff_t in_token = 0, in_expert = 0, in_hidden = 0;  // input's strides, elements
  ptrdiff_t out_token = 0, out_hidden = 0;                // output's
  size_t input_count = 0;
};

infiniStatus_t MakePlan(const TensorLayout &output, const TensorLayout &input, MoeSumPlan *plan) {
  const infiniDtype_t dtype = input.dtype;
  if (dtype != INFINI_DTYPE_F16 && dtype != INFINI_DTYPE_BF16 && dtype != INFINI_DTYPE_F32) {
    return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  if (output.dtype != dtype) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  if (input.ndim() != 3 || output.ndim() != 2) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  if (output.shape[0] != input.shape[0] || output.shape[1] != input.shape[2] || input.shape[1] == 0) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (OverlapsItself(output)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  plan->dtype = dtype;
  plan->tokens = input.shape[0];
  plan->k = input.shape[1];
  plan->hidden = input.shape[2];
  plan->in_token = input.strides[0];
  plan->in_expert = input.strides[1];
  plan->in_hidden = input.strides[2];
  plan->out_token = output.strides[0];
  plan->out_hidden = output.strides[1];
  plan->input_count = Numel(input);
  return INFINI_STATUS_SUCCESS;
}

// Adds n elements of `row` (stride `step`) into acc as F32; `first` overwrites.
template <class T>
void Accumulate(const T *row, ptrdiff_t step, size_t n, bool first, float *acc) {
  if constexpr (std::is_same_v<T, f16_t>) {
    if (step == 1 && simd::Enabled()) {
      alignas(32) float converted[kBlock];
      simd::F16ToF32(reinterpret_cast<const uint16_t *>(row), first ? acc : converted, n);
      if (!first) {
        for (size_t i = 0; i < n; ++i) acc[i] += converted[i];
      }
      return;
    }
  }
  for (size_t i = 0; i < n; ++i) {
    const float value = Num<T>::Load(row[static_cast<ptrdiff_t>(i) * step]);
    acc[i] = first ? value : acc[i] + value;
  }
}

template <class T>
void Store(const float *acc, size_t n, T *out, ptrdiff_t step) {
  if constexpr (std::is_same_v<T, f16_t>) {
    if (step == 1 && simd::Enabled()) {
      simd::F32ToF16(acc, reinterpret_cast<uint16_t *>(out), n);
      return;
    }
  }
  for (size_t i = 0; i < n; ++i) out[static_cast<ptrdiff_t>(i) * step] = Num<T>::Store(acc[i]);
}

template <class T>
void RunTyped(const MoeSumPlan &plan, void *output, const void *input) {
  const size_t blocks_per_token = (plan.hidden + kBlock - 1) / kBlock;
  ParallelFor(plan.tokens * blocks_per_token, 1, [&](size_t begin, size_t end) {
    alignas(32) float acc[kBlock];
    for (size_t unit = begin; unit < end; ++unit) {
      const size_t t = unit / blocks_per_token, h0 = unit % blocks_per_token * kBlock;
      const size_t n = std::min(kBlock, plan.hidden - h0);
      const T *token = static_cast<const T *>(input) + static_cast<ptrdiff_t>(t) * plan.in_token +
                       static_cast<ptrdiff_t>(h0) * plan.in_hidden;
      for (size_t j = 0; j < plan.k; ++j) {
        Accumulate(token + static_cast<ptrdiff_t>(j) * plan.in_expert, plan.in_hidden, n, j == 0, acc);
      }
      T *out = static_cast<T *>(output) + static_cast<ptrdiff_t>(t) * plan.out_token +
               static_cast<ptrdiff_t>(h0) * plan.out_hidden;
      Store(acc, n, out, plan.out_hidden);
    }
  });
}

void Run(const MoeSumPlan &plan, void *output, const void *input) {
  switch (plan.dtype) {
    case INFINI_DTYPE_F16: RunTyped<f16_t>(plan, output, input); break;
    case INFINI_DTYPE_BF16: RunTyped<bf16_t>(plan, output, input); break;
    default: RunTyped<float>(plan, output, input); break;
  }
}

class MoeSumDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kMoeSum;

  MoeSumDescriptor(const InfiniopHandle &handle, std::shared_ptr<const MoeSumPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *output, const void *input,
                         void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const size_t outputs = plan_->tokens * plan_->hidden;
    INFINIOP_RETURN_IF_ERROR(CheckData({{output, outputs}, {input, outputs > 0 ? plan_->input_count : 0}}));
    std::shared_ptr<const MoeSumPlan> plan = plan_;
    return Launch(*this, stream, [plan, output, input] { Run(*plan, output, input); });
  }

 private:
  std::shared_ptr<const MoeSumPlan> plan_;
};

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateMoeSumDescriptor(infiniopHandle_t handle, infiniopMoeSumDescriptor_t *desc_ptr,
                                                         infiniopTensorDescriptor_t output_desc,
                                                         infiniopTensorDescriptor_t input_desc) {
  return CreateDescriptor(handle, desc_ptr, {output_desc, input_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<MoeSumPlan>();
                            INFINIOP_RETURN_IF_ERROR(MakePlan(*output_desc, *input_desc, plan.get()));
                            made->reset(new MoeSumDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetMoeSumWorkspaceSize(infiniopMoeSumDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<MoeSumDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopMoeSum(infiniopMoeSumDescriptor_t desc, void *workspace, size_t workspace_size,
                                         void *output, const void *input, void *stream) {
  MoeSumDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, output, input, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyMoeSumDescriptor(infiniopMoeSumDescriptor_t desc) {
  return DestroyDescriptor<MoeSumDescriptor>(desc);
}
