// What MoeTopkSoftmax and MoeTopkSigmoid share (spec section OP-MOETOPK): the create checks,
// the plan and the descriptor; the two operators differ in their scores alone
// (ops/moe_topk_route.h). Rows in parallel, each row's scores computed once into a
// per-thread buffer (MoeTopkScores), then selected; every tensor through its strides.
#ifndef INFINICTS_REF_OP_OPS_MOE_TOPK_H
#define INFINICTS_REF_OP_OPS_MOE_TOPK_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>

#include "core/api.h"
#include "core/dtype.h"
#include "core/parallel.h"
#include "core/simd.h"
#include "core/tensor.h"
#include "infinicore.h"
#include "ops/moe_topk_route.h"
#include "ops/topk_select.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/moe_routing.h"
#endif

namespace infinicts::ref::op {

inline infiniStatus_t MakeMoeTopkPlan(const TensorLayout &weights, const TensorLayout &indices,
                                      const TensorLayout &gating, const TensorLayout *bias, MoeTopkParams params,
                                      MoeTopkPlan *plan) {
  const bool float_gating =
      gating.dtype == INFINI_DTYPE_F16 || gating.dtype == INFINI_DTYPE_BF16 || gating.dtype == INFINI_DTYPE_F32;
  if (!float_gating || weights.dtype != INFINI_DTYPE_F32 || indices.dtype != INFINI_DTYPE_I32 ||
      (bias != nullptr && bias->dtype != INFINI_DTYPE_F32)) {
    return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  if (gating.ndim() != 2 || weights.ndim() != 2 || indices.ndim() != 2) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  const size_t tokens = gating.shape[0], experts = gating.shape[1], topk = weights.shape[1];
  const bool fits = weights.shape[0] == tokens && indices.shape[0] == tokens && indices.shape[1] == topk &&
                    topk >= 1 && topk <= experts && topk <= static_cast<size_t>(kMoeTopkMaxTopk) &&
                    (bias == nullptr || (bias->ndim() == 1 && bias->shape[0] == experts));
  if (!fits) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  if (OverlapsItself(weights) || OverlapsItself(indices)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  *plan = {};
  plan->dtype = gating.dtype;
  plan->params = params;
  plan->tokens = static_cast<int64_t>(tokens);
  plan->experts = static_cast<int64_t>(experts);
  plan->topk = static_cast<int64_t>(topk);
  for (int d = 0; d < 2; ++d) {
    plan->gating_strides[d] = gating.strides[d];
    plan->weight_strides[d] = weights.strides[d];
    plan->index_strides[d] = indices.strides[d];
  }
  plan->has_bias = bias != nullptr;
  plan->bias_stride = bias != nullptr ? bias->strides[0] : 0;
  return INFINI_STATUS_SUCCESS;
}

// One row's scores into `scores`. The exponentials are taken once per logit, by the vector exp
// where there is one, in F32 (`capped`: the softmax's capped logits, the sigmoid's −x); sums
// and quotients in double.
template <class LoadLogit>
void MoeTopkScores(const MoeTopkParams &params, const LoadLogit &logit, int64_t n, float *capped, double *scores) {
  const auto count = static_cast<size_t>(n);
  if (params.score == MoeScore::kSigmoid) {
    if (!simd::Enabled()) {
      for (int64_t i = 0; i < n; ++i) scores[i] = MoeScoreOf(logit(i), params, SoftmaxRowStats{0.0, 1.0});
      return;
    }
    // e^(−x) by the vector exp (Inf beyond F32's range, whose sigmoid is 0), then 1 / (1 + e^(−x)).
    for (int64_t i = 0; i < n; ++i) capped[i] = -static_cast<float>(logit(i));
    simd::ExpShiftedSum(capped, 0.0f, capped, count);
    for (int64_t i = 0; i < n; ++i) scores[i] = 1.0 / (1.0 + static_cast<double>(capped[i]));
    return;
  }
  const auto softcap = static_cast<double>(params.softcap);
  for (int64_t i = 0; i < n; ++i) capped[i] = static_cast<float>(CappedLogit(logit(i), softcap));
  double sum = 0.0;
  if (simd::Enabled()) {
    const float max = simd::RowMax(capped, count);
    sum = simd::ExpShiftedSum(capped, max, capped, count);
    for (int64_t i = 0; i < n; ++i) scores[i] = static_cast<double>(capped[i]);
  } else {
    const double max = static_cast<double>(*std::max_element(capped, capped + n));
    for (int64_t i = 0; i < n; ++i) {
      scores[i] = exp(static_cast<double>(capped[i]) - max);
      sum += scores[i];
    }
  }
  for (int64_t i = 0; i < n; ++i) scores[i] /= sum;
}

template <class T>
void RunMoeTopk(const MoeTopkPlan &plan, float *weights, int32_t *indices, const T *gating, const float *bias) {
  const int64_t n = plan.experts;
  const size_t grain = std::max<size_t>(1, (size_t(1) << 12) / static_cast<size_t>(n));  // rows per chunk
  ParallelFor(static_cast<size_t>(plan.tokens), grain, [&](size_t begin, size_t end) {
    double *scores = RouterScratch<double, 0>(static_cast<size_t>(n));
    float *capped = RouterScratch<float, 1>(static_cast<size_t>(n));
    const auto bias_of = [&](int64_t i) {
      return plan.has_bias ? static_cast<double>(bias[i * plan.bias_stride]) : 0.0;
    };
    for (size_t r = begin; r < end; ++r) {
      const T *row = gating + static_cast<int64_t>(r) * plan.gating_strides[0];
      const auto logit = [&](int64_t i) { return static_cast<double>(Num<T>::Load(row[i * plan.gating_strides[1]])); };
      MoeTopkScores(plan.params, logit, n, capped, scores);
      SelectMoeExperts([scores](int64_t i) { return scores[i]; }, bias_of, n, plan.topk, plan.params.renormalize,
                       weights + static_cast<int64_t>(r) * plan.weight_strides[0], plan.weight_strides[1],
                       indices + static_cast<int64_t>(r) * plan.index_strides[0], plan.index_strides[1]);
    }
  });
}

template <OpKind kOpKind>
class MoeTopkDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = kOpKind;

  MoeTopkDescriptor(const InfiniopHandle &handle, MoeTopkPlan plan) : InfiniopDescriptor(kKind, handle), plan_(plan) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *weights, void *indices,
                         const void *gating, const void *bias, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const auto selected = static_cast<size_t>(plan_.tokens * plan_.topk);
    INFINIOP_RETURN_IF_ERROR(CheckData(
        {{weights, selected}, {indices, selected}, {gating, static_cast<size_t>(plan_.tokens * plan_.experts)}}));
    if (plan_.has_bias) INFINIOP_RETURN_IF_ERROR(CheckData({{bias, static_cast<size_t>(plan_.experts)}}));
    auto *w = static_cast<float *>(weights);
    auto *ix = static_cast<int32_t *>(indices);
    auto *b = plan_.has_bias ? static_cast<const float *>(bias) : nullptr;
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) return cuda::MoeTopk(*this, plan_, w, ix, gating, b, stream);
#endif
    const MoeTopkPlan plan = plan_;
    return Launch(*this, stream, [plan, w, ix, gating, b] {
      DispatchFloat(plan.dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        RunMoeTopk(plan, w, ix, static_cast<const T *>(gating), b);
      });
    });
  }

 private:
  MoeTopkPlan plan_;
};

// The create call of either router.
template <class Descriptor>
infiniStatus_t CreateMoeTopkDescriptor(infiniopHandle_t handle, InfiniopDescriptor **desc_ptr,
                                       infiniopTensorDescriptor_t weights, infiniopTensorDescriptor_t indices,
                                       infiniopTensorDescriptor_t gating, infiniopTensorDescriptor_t bias,
                                       MoeTopkParams params) {
  return CreateDescriptor(handle, desc_ptr, {weights, indices, gating},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            MoeTopkPlan plan{};
                            INFINIOP_RETURN_IF_ERROR(MakeMoeTopkPlan(*weights, *indices, *gating, bias, params, &plan));
                            made->reset(new Descriptor(h, plan));
                            return INFINI_STATUS_SUCCESS;
                          });
}

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_OPS_MOE_TOPK_H
