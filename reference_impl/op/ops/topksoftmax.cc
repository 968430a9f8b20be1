// Topksoftmax, MoE routing by softmax (Mixtral, Qwen-MoE): per row of x [tokens, experts],
// the topk experts of largest logit (ties to the lower index), largest first, into indices
// (I32), and their softmax probabilities over the whole row into values (F32), divided by
// their own sum when norm != 0. values and indices are contiguous [tokens, topk].
//
// The probability is increasing in the logit, so the selection runs on the logits, and the
// row's maximum is the first expert selected. With norm the row's Σ e^(x - max) divides
// out, so only the topk exponentials are taken; without it one more pass sums them (the
// vector exp for F32 and F16 rows). Sums and quotients in double. On NVIDIA:
// cuda/moe_routing.h.
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
#ifdef INFINIOP_WITH_CUDA
#include "cuda/moe_routing.h"
#endif

namespace infinicts::ref::op {
namespace {

// The spec's topk ends at min(experts, 32) (InfiniCore's kernels are built for at most 32);
// the reference refuses what lies beyond with BAD_PARAM.
constexpr size_t kMaxTopk = 32;

struct TopksoftmaxPlan {
  infiniDtype_t dtype;
  size_t tokens = 0, experts = 0;
  ptrdiff_t token_stride = 0, expert_stride = 0;
};

infiniStatus_t MakePlan(const TensorLayout &x, TopksoftmaxPlan *plan) {
  if (!IsFloatDtype(x.dtype)) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  if (x.ndim() != 2 || x.shape[1] == 0) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  plan->dtype = x.dtype;
  plan->tokens = x.shape[0];
  plan->experts = x.shape[1];
  plan->token_stride = x.strides[0];
  plan->expert_stride = x.strides[1];
  return INFINI_STATUS_SUCCESS;
}

// One row's logits as Score (F32 for the float dtypes but F64): the row itself when it is
// already that, contiguous; else a per-thread copy (F16 through the vector conversion).
template <class T, class Score>
const Score *RowLogits(const T *row, size_t n, ptrdiff_t step) {
  if constexpr (std::is_same_v<T, Score>) {
    if (step == 1) return row;
  }
  Score *copy = RouterScratch<Score, 0>(n);
  if constexpr (std::is_same_v<T, f16_t>) {
    if (step == 1 && simd::Enabled()) {
      simd::F16ToF32(reinterpret_cast<const uint16_t *>(row), copy, n);
      return copy;
    }
  }
  for (size_t i = 0; i < n; ++i) copy[i] = static_cast<Score>(Num<T>::Load(row[static_cast<ptrdiff_t>(i) * step]));
  return copy;
}

template <class T>
void Run(const TopksoftmaxPlan &plan, float *values, int32_t *indices, const T *x, size_t topk, bool norm) {
  using Score = std::conditional_t<std::is_same_v<T, double>, double, float>;
  const size_t n = plan.experts;
  const size_t grain = std::max<size_t>(1, (size_t(1) << 14) / n);  // rows per chunk: ~16K logits
  ParallelFor(plan.tokens, grain, [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      const T *row = x + static_cast<ptrdiff_t>(r) * plan.token_stride;
      const Score *logits = RowLogits<T, Score>(row, n, plan.expert_stride);
      Score *best = RouterScratch<Score, 1>(topk);
      int32_t *chosen = indices + r * topk;
      SelectTopK([logits](int64_t i) { return logits[i]; }, static_cast<int64_t>(n), static_cast<int64_t>(topk), best,
                 chosen);
      const double max = static_cast<double>(best[0]);
      double denominator = 0.0;
      if (norm) {
        for (size_t j = 0; j < topk; ++j) denominator += std::exp(static_cast<double>(best[j]) - max);
      } else if constexpr (std::is_same_v<Score, float>) {
        if (simd::Enabled()) {
          denominator = simd::ExpShiftedSum(logits, best[0], nullptr, n);
        } else {
          for (size_t i = 0; i < n; ++i) denominator += std::exp(static_cast<double>(logits[i]) - max);
        }
      } else {
        for (size_t i = 0; i < n; ++i) denominator += std::exp(logits[i] - max);
      }
      float *out = values + r * topk;
      for (size_t j = 0; j < topk; ++j) {
        out[j] = static_cast<float>(std::exp(static_cast<double>(best[j]) - max) / denominator);
      }
    }
  });
}

class TopksoftmaxDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kTopksoftmax;

  TopksoftmaxDescriptor(const InfiniopHandle &handle, std::shared_ptr<const TopksoftmaxPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *values, void *indices, const void *x,
                         size_t topk, int norm, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const size_t selected = plan_->tokens * topk;
    INFINIOP_RETURN_IF_ERROR(
        CheckData({{values, selected}, {indices, selected}, {x, plan_->tokens * plan_->experts}}));
    if (topk == 0 || topk > plan_->experts || topk > kMaxTopk) return INFINI_STATUS_BAD_PARAM;
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      const cuda::RouterGeometry g{static_cast<int64_t>(plan_->tokens), static_cast<int64_t>(plan_->experts),
                                   plan_->token_stride, plan_->expert_stride, 0};
      return cuda::Topksoftmax(*this, g, plan_->dtype, static_cast<float *>(values), static_cast<int32_t *>(indices),
                               x, static_cast<int64_t>(topk), norm != 0, stream);
    }
#endif
    std::shared_ptr<const TopksoftmaxPlan> plan = plan_;
    const bool renormalize = norm != 0;
    return Launch(*this, stream, [plan, values, indices, x, topk, renormalize] {
      DispatchFloat(plan->dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        Run(*plan, static_cast<float *>(values), static_cast<int32_t *>(indices), static_cast<const T *>(x), topk,
            renormalize);
      });
    });
  }

 private:
  std::shared_ptr<const TopksoftmaxPlan> plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(Topksoftmax)
#endif

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateTopksoftmaxDescriptor(infiniopHandle_t handle,
                                                              infiniopTopksoftmaxDescriptor_t *desc_ptr,
                                                              infiniopTensorDescriptor_t x_desc) {
  return CreateDescriptor(handle, desc_ptr, {x_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<TopksoftmaxPlan>();
                            INFINIOP_RETURN_IF_ERROR(MakePlan(*x_desc, plan.get()));
                            made->reset(new TopksoftmaxDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetTopksoftmaxWorkspaceSize(infiniopTopksoftmaxDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<TopksoftmaxDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopTopksoftmax(infiniopTopksoftmaxDescriptor_t desc, void *workspace,
                                              size_t workspace_size, void *values, void *indices, const void *x,
                                              const size_t topk, const int norm, void *stream) {
  TopksoftmaxDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, values, indices, x, topk, norm, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyTopksoftmaxDescriptor(infiniopTopksoftmaxDescriptor_t desc) {
  return DestroyDescriptor<TopksoftmaxDescriptor>(desc);
}
