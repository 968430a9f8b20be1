// Topkrouter, DeepSeek-V3's group-limited MoE routing (256 experts in 8 groups of 32, 4
// groups kept), per row of x [tokens, 256]:
//   s_i = sigmoid(x_i); b_i = s_i + correction_bias_i (F32 [256]), which only selects;
//   a group's score is the sum of its two largest b; the 4 best groups are kept (ties: the
//   lower group index); c_i = b_i in a kept group, 0 in the others; the topk experts of
//   largest c, largest first (ties: the lower index), go to indices (I32) and
//   routed_scaling_factor · s_e / (Σ_selected s + 1e-9) to values (F32), both contiguous
//   [tokens, topk].
// The sigmoids of contiguous F32 and F16 rows go through the vector kernel (F32); the
// selection and the sums run in double. On NVIDIA: cuda/moe_routing.h.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <type_traits>

#include "core/api.h"
#include "core/dtype.h"
#include "core/parallel.h"
#include "core/simd.h"
#include "infiniop.h"
#include "ops/topk_select.h"
#include "ops/topkrouter_route.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/moe_routing.h"
#endif

namespace infinicts::ref::op {
namespace {

constexpr size_t kExperts = static_cast<size_t>(kRouterExperts);

struct TopkrouterPlan {
  infiniDtype_t dtype;
  size_t tokens = 0;
  ptrdiff_t token_stride = 0, expert_stride = 0, bias_stride = 0;
};

infiniStatus_t MakePlan(const TensorLayout &x, const TensorLayout &bias, TopkrouterPlan *plan) {
  if (!IsFloatDtype(x.dtype) || bias.dtype != INFINI_DTYPE_F32) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  if (x.ndim() != 2 || x.shape[1] != kExperts || bias.ndim() != 1 || bias.shape[0] != kExperts) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  plan->dtype = x.dtype;
  plan->tokens = x.shape[0];
  plan->token_stride = x.strides[0];
  plan->expert_stride = x.strides[1];
  plan->bias_stride = bias.strides[0];
  return INFINI_STATUS_SUCCESS;
}

// s_i = 1 / (1 + e^(-x_i)) of one row into scores (F32).
template <class T>
void RowScores(const T *row, ptrdiff_t step, float *scores) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, f16_t>) {
    if (step == 1 && simd::Enabled()) {
      const void *operands[1] = {row};
      if constexpr (std::is_same_v<T, f16_t>) {
        simd::F16ToF32(reinterpret_cast<const uint16_t *>(row), scores, kExperts);
        operands[0] = scores;  // in place, as Map allows
      }
      simd::Map(simd::MapOp::kSigmoid, false, operands, scores, kExperts, false);
      return;
    }
  }
  for (size_t i = 0; i < kExperts; ++i) {
    const double v = LoadDouble(row[static_cast<ptrdiff_t>(i) * step]);
    scores[i] = static_cast<float>(1.0 / (1.0 + std::exp(-v)));  // e^(-v) = Inf gives 0
  }
}

template <class T>
void Run(const TopkrouterPlan &plan, float *values, int32_t *indices, const T *x, const float *bias,
         float routed_scaling_factor, size_t topk) {
  ParallelFor(plan.tokens, 64, [&](size_t begin, size_t end) {
    float *scores = RouterScratch<float, 0>(kExperts);
    double *choice = RouterScratch<double, 0>(kExperts);
    double *best = RouterScratch<double, 1>(topk);
    for (size_t r = begin; r < end; ++r) {
      RowScores(x + static_cast<ptrdiff_t>(r) * plan.token_stride, plan.expert_stride, scores);
      RouteTopkrouterRow(scores, [&](int64_t i) { return bias[i * plan.bias_stride]; }, routed_scaling_factor,
                         static_cast<int64_t>(topk), choice, best, values + r * topk, indices + r * topk);
    }
  });
}

class TopkrouterDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kTopkrouter;

  TopkrouterDescriptor(const InfiniopHandle &handle, std::shared_ptr<const TopkrouterPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *values, void *indices, const void *x,
                         const void *correction_bias, float routed_scaling_factor, size_t topk, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const size_t selected = plan_->tokens * topk;
    INFINIOP_RETURN_IF_ERROR(CheckData({{values, selected},
                                        {indices, selected},
                                        {x, plan_->tokens * kExperts},
                                        {correction_bias, kExperts}}));
    if (topk == 0 || topk > kExperts) return INFINI_STATUS_BAD_PARAM;
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      const cuda::RouterGeometry g{static_cast<int64_t>(plan_->tokens), static_cast<int64_t>(kExperts),
                                   plan_->token_stride, plan_->expert_stride, plan_->bias_stride};
      return cuda::Topkrouter(*this, g, plan_->dtype, static_cast<float *>(values), static_cast<int32_t *>(indices), x,
                              static_cast<const float *>(correction_bias), routed_scaling_factor,
                              static_cast<int64_t>(topk), stream);
    }
#endif
    std::shared_ptr<const TopkrouterPlan> plan = plan_;
    return Launch(*this, stream, [plan, values, indices, x, correction_bias, routed_scaling_factor, topk] {
      DispatchFloat(plan->dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        Run(*plan, static_cast<float *>(values), static_cast<int32_t *>(indices), static_cast<const T *>(x),
            static_cast<const float *>(correction_bias), routed_scaling_factor, topk);
      });
    });
  }

 private:
  std::shared_ptr<const TopkrouterPlan> plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(Topkrouter)
#endif

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateTopkrouterDescriptor(infiniopHandle_t handle,
                                                             infiniopTopkrouterDescriptor_t *desc_ptr,
                                                             infiniopTensorDescriptor_t x_desc,
                                                             infiniopTensorDescriptor_t correction_bias_desc) {
  return CreateDescriptor(handle, desc_ptr, {x_desc, correction_bias_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<TopkrouterPlan>();
                            INFINIOP_RETURN_IF_ERROR(MakePlan(*x_desc, *correction_bias_desc, plan.get()));
                            made->reset(new TopkrouterDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetTopkrouterWorkspaceSize(infiniopTopkrouterDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<TopkrouterDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopTopkrouter(infiniopTopkrouterDescriptor_t desc, void *workspace,
                                             size_t workspace_size, void *values, void *indices, const void *x,
                                             const void *correction_bias, const float routed_scaling_factor,
                                             const size_t topk, void *stream) {
  TopkrouterDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, values, indices, x, correction_bias, routed_scaling_factor, topk,
                       stream);
}

__INFINI_C infiniStatus_t infiniopDestroyTopkrouterDescriptor(infiniopTopkrouterDescriptor_t desc) {
  return DestroyDescriptor<TopkrouterDescriptor>(desc);
}
