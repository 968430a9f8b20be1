// RandomSampleBatch: one draw by InfiniCore's rule (ops/sampling.h) per row of probs
// [batch, n] into result [batch], row i under random_val[i], topp[i], topk[i] and
// temperature[i]. The four arrays are host memory the caller may reuse once the call
// returns, so they are copied at the call; the rows are drawn in parallel. On NVIDIA each row
// is RandomSample's CUDA draw (cuda/rows/random_sample.cu), queued one after another on the
// stream with the one workspace.
#include <memory>
#include <vector>

#include "core/api.h"
#include "core/dtype.h"
#include "core/parallel.h"
#include "infiniop.h"
#include "ops/sampling.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/rows/rows_ops.h"
#endif

namespace infinicts::ref::op {
namespace {

struct RandomSampleBatchPlan {
  infiniDtype_t result_dtype, probs_dtype;
  size_t rows = 0, n = 0;
  ptrdiff_t result_step = 1, row_step = 0, probs_step = 1;
#ifdef INFINIOP_WITH_CUDA
  cuda_rows::RandomSampleArgs device_row;  // one row's draw, for the CUDA path
#endif
};

infiniStatus_t MakePlan(const TensorLayout &result, const TensorLayout &probs, RandomSampleBatchPlan *plan) {
  if (!IsIntegerDtype(result.dtype) || !IsFloatDtype(probs.dtype)) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  if (result.ndim() != 1 || probs.ndim() != 2 || probs.shape[0] != result.shape[0] || probs.shape[0] == 0 ||
      probs.shape[1] == 0) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (probs.shape[1] - 1 > LargestIndex(result.dtype)) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  if (OverlapsItself(result)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  plan->result_dtype = result.dtype;
  plan->probs_dtype = probs.dtype;
  plan->rows = probs.shape[0];
  plan->n = probs.shape[1];
  plan->result_step = result.strides[0];
  plan->row_step = probs.strides[0];
  plan->probs_step = probs.strides[1];
#ifdef INFINIOP_WITH_CUDA
  plan->device_row.result_dtype = result.dtype;
  plan->device_row.probs_dtype = probs.dtype;
  plan->device_row.n = static_cast<int64_t>(plan->n);
  plan->device_row.probs_step = plan->probs_step;
#endif
  return INFINI_STATUS_SUCCESS;
}

void Run(const RandomSampleBatchPlan &plan, void *result, const void *probs, const std::vector<Sample> &samples) {
  const size_t element = DtypeSize(plan.probs_dtype);
  ParallelFor(plan.rows, 1, [&](size_t begin, size_t end) {
    std::vector<double> values(plan.n);
    std::vector<size_t> order(plan.n);
    for (size_t row = begin; row < end; ++row) {
      const void *logits = static_cast<const char *>(probs) + static_cast<ptrdiff_t>(row) * plan.row_step *
                                                                  static_cast<ptrdiff_t>(element);
      const size_t index =
          DrawFromRow(plan.probs_dtype, logits, plan.probs_step, plan.n, values.data(), order.data(), samples[row]);
      StoreIndex(plan.result_dtype, result, static_cast<ptrdiff_t>(row) * plan.result_step, index);
    }
  });
}

class RandomSampleBatchDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kRandomSampleBatch;

  RandomSampleBatchDescriptor(const InfiniopHandle &handle, std::shared_ptr<const RandomSampleBatchPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {
#ifdef INFINIOP_WITH_CUDA
    // The GPU ranks a power-of-two padding of a row's logits, one row at a time.
    if (device_type == INFINI_DEVICE_NVIDIA) {
      workspace_size = cuda_rows::RandomSampleWorkspaceBytes(static_cast<int64_t>(plan_->n));
    }
#endif
  }

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *result, const void *probs,
                         const float *random_val, const float *topp, const int *topk, const float *temperature,
                         int batch_size, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    INFINIOP_RETURN_IF_ERROR(CheckData({{result, plan_->rows}, {probs, plan_->rows * plan_->n}}));
    if (random_val == nullptr || topp == nullptr || topk == nullptr || temperature == nullptr) {
      return INFINI_STATUS_NULL_POINTER;
    }
    if (batch_size < 0 || static_cast<size_t>(batch_size) != plan_->rows) return INFINI_STATUS_BAD_PARAM;
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      const ptrdiff_t result_bytes = static_cast<ptrdiff_t>(DtypeSize(plan_->result_dtype));
      const ptrdiff_t probs_bytes = static_cast<ptrdiff_t>(DtypeSize(plan_->probs_dtype));
      for (size_t row = 0; row < plan_->rows; ++row) {
        const ptrdiff_t r = static_cast<ptrdiff_t>(row);
        const cuda_rows::SampleParams params{random_val[row], topp[row], temperature[row], topk[row]};
        INFINIOP_RETURN_IF_ERROR(cuda_rows::RandomSample(
            *this, plan_->device_row, params, static_cast<char *>(result) + r * plan_->result_step * result_bytes,
            static_cast<const char *>(probs) + r * plan_->row_step * probs_bytes, workspace, stream));
      }
      return INFINI_STATUS_SUCCESS;
    }
#endif
    auto samples = std::make_shared<std::vector<Sample>>(plan_->rows);
    for (size_t row = 0; row < plan_->rows; ++row) {
      (*samples)[row] = Sample{random_val[row], topp[row], temperature[row], topk[row]};
    }
    std::shared_ptr<const RandomSampleBatchPlan> plan = plan_;
    return Launch(*this, stream, [=] { Run(*plan, result, probs, *samples); });
  }

 private:
  std::shared_ptr<const RandomSampleBatchPlan> plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(RandomSampleBatch)
#endif

}  // namespace

infiniStatus_t GetRandomSampleBatchWorkspaceSize(InfiniopDescriptor *desc, size_t *size) {
  return GetWorkspaceSize<RandomSampleBatchDescriptor>(desc, size);
}

infiniStatus_t DestroyRandomSampleBatchDescriptor(InfiniopDescriptor *desc) {
  return DestroyDescriptor<RandomSampleBatchDescriptor>(desc);
}

}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateRandomSampleBatchDescriptor(infiniopHandle_t handle,
                                                                    infiniopRandomSampleBatchDescriptor_t *desc_ptr,
                                                                    infiniopTensorDescriptor_t result,
                                                                    infiniopTensorDescriptor_t probs) {
  return CreateDescriptor(handle, desc_ptr, {result, probs},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<RandomSampleBatchPlan>();
                            INFINIOP_RETURN_IF_ERROR(MakePlan(*result, *probs, plan.get()));
                            made->reset(new RandomSampleBatchDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopRandomSampleBatch(infiniopRandomSampleBatchDescriptor_t desc, void *workspace,
                                                    size_t workspace_size, void *result, const void *probs,
                                                    const float *random_val, const float *topp, const int *topk,
                                                    const float *temperature, int batch_size, void *stream) {
  RandomSampleBatchDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, result, probs, random_val, topp, topk, temperature, batch_size,
                       stream);
}
