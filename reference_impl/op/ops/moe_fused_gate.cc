// MoeFusedGate, SGLang's grouped sigmoid MoE router (spec section OP-MOEFUSEDGATE), per row of
// input [tokens, E] (F16, BF16 or F32), with G groups of V = E / G consecutive experts:
//   s_i = sigmoid(x_i); c_i = s_i + bias_i (F32 [E]), which only selects;
//   a group's score is the sum of its two largest c (its one c when V = 1); the topk_group
//   best groups are kept (ties: the lower group); the R = topk − S largest c of the kept
//   groups' experts, largest first (ties: the lower index), go to topk_indices (I32) and
//   s_e / Σ_selected s to topk_weights (F32), then the S fused shared experts E, E + 1, …
//   weighted 1 / routed_scaling_factor; every weight times routed_scaling_factor when
//   apply_routed_scaling_factor_on_output.
// All in F32, as SGLang's kernel computes; every tensor through its strides. No CUDA path:
// on NVIDIA the create call answers NOT_IMPLEMENTED (core/api.h).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>

#include "core/api.h"
#include "core/dtype.h"
#include "core/parallel.h"
#include "infiniop.h"
#include "ops/topk_select.h"

namespace infinicts::ref::op {
namespace {

struct MoeFusedGatePlan {
  infiniDtype_t dtype;
  size_t tokens = 0, experts = 0, groups = 0, kept_groups = 0, topk = 0, shared = 0;
  float routed_scaling_factor = 1.0f;
  bool apply_on_output = false;
  ptrdiff_t input_strides[2] = {}, weight_strides[2] = {}, index_strides[2] = {}, bias_stride = 0;

  size_t GroupSize() const { return experts / groups; }
  size_t Routed() const { return topk - shared; }
};

// Checks in RULES order: the attributes alone (BAD_PARAM), dtypes, shapes, the attributes
// against the shapes (BAD_PARAM), then the outputs' layouts.
infiniStatus_t MakePlan(const TensorLayout &weights, const TensorLayout &indices, const TensorLayout &input,
                        const TensorLayout &bias, size_t groups, size_t kept_groups, size_t shared, float scale,
                        bool apply_on_output, MoeFusedGatePlan *plan) {
  if (groups == 0 || kept_groups == 0 || kept_groups > groups) return INFINI_STATUS_BAD_PARAM;
  const bool float_input =
      input.dtype == INFINI_DTYPE_F16 || input.dtype == INFINI_DTYPE_BF16 || input.dtype == INFINI_DTYPE_F32;
  if (!float_input || weights.dtype != INFINI_DTYPE_F32 || indices.dtype != INFINI_DTYPE_I32 ||
      bias.dtype != INFINI_DTYPE_F32) {
    return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  if (input.ndim() != 2 || bias.ndim() != 1 || weights.ndim() != 2 || indices.ndim() != 2) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  const size_t tokens = input.shape[0], experts = input.shape[1], topk = weights.shape[1];
  if (bias.shape[0] != experts || weights.shape[0] != tokens || indices.shape[0] != tokens ||
      indices.shape[1] != topk) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (experts % groups != 0 || topk <= shared || topk - shared > kept_groups * (experts / groups)) {
    return INFINI_STATUS_BAD_PARAM;
  }
  if (OverlapsItself(weights) || OverlapsItself(indices)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  plan->dtype = input.dtype;
  plan->tokens = tokens;
  plan->experts = experts;
  plan->groups = groups;
  plan->kept_groups = kept_groups;
  plan->topk = topk;
  plan->shared = shared;
  plan->routed_scaling_factor = scale;
  plan->apply_on_output = apply_on_output;
  for (int d = 0; d < 2; ++d) {
    plan->input_strides[d] = input.strides[d];
    plan->weight_strides[d] = weights.strides[d];
    plan->index_strides[d] = indices.strides[d];
  }
  plan->bias_stride = bias.strides[0];
  return INFINI_STATUS_SUCCESS;
}

// The sum of the two largest of values[0 .. n) (the one value when n = 1).
float SumOfTwoLargestF32(const float *values, size_t n) {
  float largest = -INFINITY, second = -INFINITY;
  for (size_t i = 0; i < n; ++i) {
    if (values[i] > largest) {
      second = largest;
      largest = values[i];
    } else if (values[i] > second) {
      second = values[i];
    }
  }
  return n > 1 ? largest + second : largest;
}

template <class T>
void Run(const MoeFusedGatePlan &plan, float *weights, int32_t *indices, const T *input, const float *bias) {
  const size_t experts = plan.experts, groups = plan.groups, group_size = plan.GroupSize();
  const size_t routed = plan.Routed();
  const float output_scale = plan.apply_on_output ? plan.routed_scaling_factor : 1.0f;
  const float shared_weight = plan.apply_on_output ? 1.0f : 1.0f / plan.routed_scaling_factor;
  const size_t grain = std::max<size_t>(1, (size_t(1) << 12) / std::max<size_t>(experts, 1));  // rows per chunk
  ParallelFor(plan.tokens, grain, [&](size_t begin, size_t end) {
    float *score = RouterScratch<float, 0>(experts);
    float *biased = RouterScratch<float, 1>(experts);
    float *group_score = RouterScratch<float, 2>(groups);
    float *best = RouterScratch<float, 3>(std::max(plan.kept_groups, routed));
    int32_t *kept_group = RouterScratch<int32_t, 0>(plan.kept_groups);
    int32_t *candidates = RouterScratch<int32_t, 1>(experts);
    int32_t *chosen = RouterScratch<int32_t, 2>(routed);
    uint8_t *kept = RouterScratch<uint8_t, 0>(groups);
    for (size_t r = begin; r < end; ++r) {
      const T *row = input + static_cast<ptrdiff_t>(r) * plan.input_strides[0];
      for (size_t i = 0; i < experts; ++i) {
        const float x = static_cast<float>(Num<T>::Load(row[static_cast<ptrdiff_t>(i) * plan.input_strides[1]]));
        score[i] = 1.0f / (1.0f + std::exp(-x));  // e^(-x) = Inf gives 0
        biased[i] = score[i] + bias[static_cast<ptrdiff_t>(i) * plan.bias_stride];
      }
      for (size_t g = 0; g < groups; ++g) group_score[g] = SumOfTwoLargestF32(biased + g * group_size, group_size);
      SelectTopK<float>([&](int64_t g) { return group_score[g]; }, static_cast<int64_t>(groups),
                        static_cast<int64_t>(plan.kept_groups), best, kept_group);
      std::fill(kept, kept + groups, uint8_t{0});
      for (size_t j = 0; j < plan.kept_groups; ++j) kept[kept_group[j]] = 1;
      // The kept groups' experts in index order, so SelectTopK's ties go to the lower index.
      int64_t count = 0;
      for (size_t i = 0; i < experts; ++i) {
        if (kept[i / group_size]) candidates[count++] = static_cast<int32_t>(i);
      }
      SelectTopK<float>([&](int64_t j) { return biased[candidates[j]]; }, count, static_cast<int64_t>(routed), best,
                        chosen);
      float sum = 0.0f;
      for (size_t j = 0; j < routed; ++j) sum += score[candidates[chosen[j]]];
      float *weight_row = weights + static_cast<ptrdiff_t>(r) * plan.weight_strides[0];
      int32_t *index_row = indices + static_cast<ptrdiff_t>(r) * plan.index_strides[0];
      for (size_t j = 0; j < plan.topk; ++j) {
        const bool is_routed = j < routed;
        weight_row[static_cast<ptrdiff_t>(j) * plan.weight_strides[1]] =
            is_routed ? score[candidates[chosen[j]]] / sum * output_scale : shared_weight;
        index_row[static_cast<ptrdiff_t>(j) * plan.index_strides[1]] =
            is_routed ? candidates[chosen[j]] : static_cast<int32_t>(experts + (j - routed));
      }
    }
  });
}

class MoeFusedGateDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kMoeFusedGate;

  MoeFusedGateDescriptor(const InfiniopHandle &handle, std::shared_ptr<const MoeFusedGatePlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *topk_weights, void *topk_indices,
                         const void *input, const void *bias, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const size_t selected = plan_->tokens * plan_->topk;
    INFINIOP_RETURN_IF_ERROR(CheckData({{topk_weights, selected},
                                        {topk_indices, selected},
                                        {input, plan_->tokens * plan_->experts},
                                        {bias, plan_->experts}}));
    std::shared_ptr<const MoeFusedGatePlan> plan = plan_;
    return Launch(*this, stream, [plan, topk_weights, topk_indices, input, bias] {
      DispatchFloat(plan->dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        Run(*plan, static_cast<float *>(topk_weights), static_cast<int32_t *>(topk_indices),
            static_cast<const T *>(input), static_cast<const float *>(bias));
      });
    });
  }

 private:
  std::shared_ptr<const MoeFusedGatePlan> plan_;
};

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateMoeFusedGateDescriptor(
    infiniopHandle_t handle, infiniopMoeFusedGateDescriptor_t *desc_ptr, infiniopTensorDescriptor_t topk_weights_desc,
    infiniopTensorDescriptor_t topk_indices_desc, infiniopTensorDescriptor_t input_desc,
    infiniopTensorDescriptor_t bias_desc, size_t num_expert_group, size_t topk_group, size_t num_fused_shared_experts,
    float routed_scaling_factor, bool apply_routed_scaling_factor_on_output) {
  return CreateDescriptor(
      handle, desc_ptr, {topk_weights_desc, topk_indices_desc, input_desc, bias_desc},
      [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
        auto plan = std::make_shared<MoeFusedGatePlan>();
        INFINIOP_RETURN_IF_ERROR(MakePlan(*topk_weights_desc, *topk_indices_desc, *input_desc, *bias_desc,
                                          num_expert_group, topk_group, num_fused_shared_experts,
                                          routed_scaling_factor, apply_routed_scaling_factor_on_output, plan.get()));
        made->reset(new MoeFusedGateDescriptor(h, std::move(plan)));
        return INFINI_STATUS_SUCCESS;
      });
}

__INFINI_C infiniStatus_t infiniopGetMoeFusedGateWorkspaceSize(infiniopMoeFusedGateDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<MoeFusedGateDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopMoeFusedGate(infiniopMoeFusedGateDescriptor_t desc, void *workspace,
                                               size_t workspace_size, void *topk_weights, void *topk_indices,
                                               const void *input, const void *bias, void *stream) {
  MoeFusedGateDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, topk_weights, topk_indices, input, bias, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyMoeFusedGateDescriptor(infiniopMoeFusedGateDescriptor_t desc) {
  return DestroyDescriptor<MoeFusedGateDescriptor>(desc);
}
