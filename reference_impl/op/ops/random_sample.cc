// RandomSample, InfiniCore's rule, in double. `probs` holds n logits; NaN ranks as -Inf.
//  - random_val == 0, topp == 0, topk == 1 or temperature == 0: the index of the largest
//    logit (the lowest such index on ties).
//  - otherwise: rank the logits from largest to smallest (ties: lower index first);
//    with max the largest, cum[i] = sum over ranks r <= i of exp((v_r - max) / temperature)
//    (so cum[0] = 1), K = topk when 0 < topk <= n else n, total = cum over all n;
//    limit = random_val * min(cum[K - 1], total * topp); the result is the index at
//    the first rank i with limit <= cum[i] (the rank K - 1 when none: random_val > 1).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>

#include "core/api.h"
#include "core/dtype.h"
#include "infiniop.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/rows/rows_args.h"
#include "cuda/rows/rows_ops.h"
#endif

namespace infinicts::ref::op {
namespace {

struct RandomSamplePlan {
  infiniDtype_t result_dtype, probs_dtype;
  size_t n = 0;
  ptrdiff_t probs_step = 1;
#ifdef INFINIOP_WITH_CUDA
  cuda_rows::RandomSampleArgs device_args;  // the same logits, for the CUDA path
#endif
};

struct Sample {
  float random_val, topp, temperature;
  int topk;
};

// The largest index a result dtype can hold.
uint64_t LargestIndex(infiniDtype_t dtype) {
  uint64_t largest = 0;
  DispatchInteger(dtype, [&](auto tag) {
    using I = typename decltype(tag)::type;
    largest = static_cast<uint64_t>(std::numeric_limits<I>::max());
  });
  return largest;
}

infiniStatus_t MakePlan(const TensorLayout &result, const TensorLayout &probs, RandomSamplePlan *plan) {
  if (!IsIntegerDtype(result.dtype) || !IsFloatDtype(probs.dtype)) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  if (result.ndim() != 0 || probs.ndim() != 1 || probs.shape[0] == 0) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  if (probs.shape[0] - 1 > LargestIndex(result.dtype)) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  plan->result_dtype = result.dtype;
  plan->probs_dtype = probs.dtype;
  plan->n = probs.shape[0];
  plan->probs_step = probs.strides[0];
#ifdef INFINIOP_WITH_CUDA
  plan->device_args = cuda_rows::RandomSampleArgsFor(result, probs);
#endif
  return INFINI_STATUS_SUCCESS;
}

size_t WorkspaceBytes(const RandomSamplePlan &plan) { return plan.n * (sizeof(double) + sizeof(size_t)); }

double RankKey(double v) { return std::isnan(v) ? -INFINITY : v; }

size_t Draw(const double *values, size_t *order, size_t n, const Sample &s) {
  const auto ranks_before = [values](size_t a, size_t b) {
    const double ka = RankKey(values[a]), kb = RankKey(values[b]);
    return ka > kb || (ka == kb && a < b);
  };
  for (size_t i = 0; i < n; ++i) order[i] = i;
  if (s.random_val == 0 || s.topp == 0 || s.topk == 1 || s.temperature == 0) {
    return *std::min_element(order, order + n, ranks_before);
  }
  const size_t k = (s.topk > 0 && static_cast<size_t>(s.topk) <= n) ? static_cast<size_t>(s.topk) : n;
  std::partial_sort(order, order + k, order + n, ranks_before);
  const double max = RankKey(values[order[0]]);
  const double temperature = s.temperature;
  double total = 0;
  for (size_t i = 0; i < n; ++i) total += std::exp((RankKey(values[i]) - max) / temperature);
  double cum_k = 0;
  for (size_t i = 0; i < k; ++i) cum_k += std::exp((RankKey(values[order[i]]) - max) / temperature);
  const double limit = static_cast<double>(s.random_val) * std::min(cum_k, total * static_cast<double>(s.topp));
  double cum = 0;
  for (size_t i = 0; i < k; ++i) {
    cum += std::exp((RankKey(values[order[i]]) - max) / temperature);
    if (limit <= cum) return order[i];
  }
  return order[k - 1];
}

void Run(const RandomSamplePlan &plan, void *result, const void *probs, const Sample &sample, void *workspace) {
  double *values = static_cast<double *>(AlignWorkspace(workspace));
  size_t *order = reinterpret_cast<size_t *>(values + plan.n);
  DispatchFloat(plan.probs_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T *p = static_cast<const T *>(probs);
    for (size_t i = 0; i < plan.n; ++i) values[i] = LoadDouble(p[static_cast<ptrdiff_t>(i) * plan.probs_step]);
  });
  const size_t index = Draw(values, order, plan.n, sample);
  DispatchInteger(plan.result_dtype, [&](auto tag) {
    using I = typename decltype(tag)::type;
    *static_cast<I *>(result) = static_cast<I>(index);
  });
}

class RandomSampleDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kRandomSample;

  RandomSampleDescriptor(const InfiniopHandle &handle, std::shared_ptr<const RandomSamplePlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {
    workspace_size = WorkspaceWithSlack(WorkspaceBytes(*plan_));
#ifdef INFINIOP_WITH_CUDA
    // The GPU ranks a power-of-two padding of the logits (cuda/rows/random_sample.cu).
    if (device_type == INFINI_DEVICE_NVIDIA) {
      workspace_size = cuda_rows::RandomSampleWorkspaceBytes(static_cast<int64_t>(plan_->n));
    }
#endif
  }

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *result, const void *probs,
                         const Sample &sample, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    INFINIOP_RETURN_IF_ERROR(CheckData({{result, 1}, {probs, plan_->n}}));
    std::shared_ptr<const RandomSamplePlan> plan = plan_;
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      const cuda_rows::SampleParams params{sample.random_val, sample.topp, sample.temperature, sample.topk};
      return cuda_rows::RandomSample(*this, plan->device_args, params, result, probs, workspace, stream);
    }
#endif
    return Launch(*this, stream, [=] { Run(*plan, result, probs, sample, workspace); });
  }

 private:
  std::shared_ptr<const RandomSamplePlan> plan_;
};

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateRandomSampleDescriptor(infiniopHandle_t handle,
                                                               infiniopRandomSampleDescriptor_t *desc_ptr,
                                                               infiniopTensorDescriptor_t result,
                                                               infiniopTensorDescriptor_t probs) {
  return CreateDescriptor(handle, desc_ptr, {result, probs},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<RandomSamplePlan>();
                            INFINIOP_RETURN_IF_ERROR(MakePlan(*result, *probs, plan.get()));
                            made->reset(new RandomSampleDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetRandomSampleWorkspaceSize(infiniopRandomSampleDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<RandomSampleDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopRandomSample(infiniopRandomSampleDescriptor_t desc, void *workspace,
                                               size_t workspace_size, void *result, const void *probs,
                                               float random_val, float topp, int topk, float temperature,
                                               void *stream) {
  RandomSampleDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, result, probs, Sample{random_val, topp, temperature, topk}, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyRandomSampleDescriptor(infiniopRandomSampleDescriptor_t desc) {
  return DestroyDescriptor<RandomSampleDescriptor>(desc);
}
