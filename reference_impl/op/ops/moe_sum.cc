// MoeSum: output[t, h] = Σ_j input[t, j, h] over each token's k expert outputs (spec section
// OP-MOESUM), every tensor through its strides: Sum over dim 1 (ops/sum_plan.h), whose
// across-rows path adds a token's k rows into one F32 accumulator, rounded once.
#include <memory>

#include "core/api.h"
#include "infiniop.h"
#include "ops/sum_plan.h"

namespace infinicts::ref::op {
namespace {

// MoeSum's own checks; the sum itself is Sum's over dim 1.
infiniStatus_t MakePlan(const TensorLayout &output, const TensorLayout &input, SumPlan *plan) {
  const infiniDtype_t dtype = input.dtype;
  if (dtype != INFINI_DTYPE_F16 && dtype != INFINI_DTYPE_BF16 && dtype != INFINI_DTYPE_F32) {
    return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  if (output.dtype != dtype) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  if (input.ndim() != 3 || output.ndim() != 2) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  if (input.shape[1] == 0) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  const size_t expert_dim = 1;
  return MakeSumPlan(output, input, &expert_dim, 1, /*keepdim=*/false, plan);
}

class MoeSumDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kMoeSum;

  MoeSumDescriptor(const InfiniopHandle &handle, std::shared_ptr<const SumPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *output, const void *input,
                         void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const size_t outputs = plan_->kept.numel();
    INFINIOP_RETURN_IF_ERROR(CheckData({{output, outputs}, {input, outputs > 0 ? plan_->input_count : 0}}));
    std::shared_ptr<const SumPlan> plan = plan_;
    return Launch(*this, stream, [plan, output, input] { RunSum(*plan, output, input); });
  }

 private:
  std::shared_ptr<const SumPlan> plan_;
};

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateMoeSumDescriptor(infiniopHandle_t handle, infiniopMoeSumDescriptor_t *desc_ptr,
                                                         infiniopTensorDescriptor_t output_desc,
                                                         infiniopTensorDescriptor_t input_desc) {
  return CreateDescriptor(handle, desc_ptr, {output_desc, input_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<SumPlan>();
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
