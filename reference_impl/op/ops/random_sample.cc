// RandomSample: one draw by InfiniCore's rule (ops/sampling.h) from n logits.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>

#include "core/api.h"
#include "core/dtype.h"
#include "infiniop.h"
#include "ops/sampling.h"
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

size_t WorkspaceBytes(const RandomSamplePlan &plan) { return SampleScratchBytes(plan.n); }

void Run(const RandomSamplePlan &plan, void *result, const void *probs, const Sample &sample, void *workspace) {
  double *values = static_cast<double *>(AlignWorkspace(workspace));
  size_t *order = reinterpret_cast<size_t *>(values + plan.n);
  StoreIndex(plan.result_dtype, result, 0, DrawFromRow(plan.probs_dtype, probs, plan.probs_step, plan.n, values, order, sample));
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

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(RandomSample)
#endif

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

// RandomSample's query and destroy serve RandomSampleBatch's descriptors too
// (OP-RANDOMSAMPLEBATCH-3): InfiniCore declares neither for the batch form.
__INFINI_C infiniStatus_t infiniopGetRandomSampleWorkspaceSize(infiniopRandomSampleDescriptor_t desc, size_t *size) {
  if (desc != nullptr && desc->kind == OpKind::kRandomSampleBatch) return GetRandomSampleBatchWorkspaceSize(desc, size);
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
  if (desc != nullptr && desc->kind == OpKind::kRandomSampleBatch) return DestroyRandomSampleBatchDescriptor(desc);
  return DestroyDescriptor<RandomSampleDescriptor>(desc);
}
