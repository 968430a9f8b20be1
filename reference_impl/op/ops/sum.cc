// Sum: output = input summed over a list of dims (spec section OP-SUM), keepdim leaving them as
// dims of 1, through the shared sum plan (ops/sum_plan.h).
// The dim list and keepdim given again at compute are those of create (the suite passes the
// same): not read.
#include <memory>

#include "core/api.h"
#include "infiniop.h"
#include "ops/sum_plan.h"

namespace infinicts::ref::op {
namespace {

class SumDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kSum;

  SumDescriptor(const InfiniopHandle &handle, std::shared_ptr<const SumPlan> plan)
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

__INFINI_C infiniStatus_t infiniopCreateSumDescriptor(infiniopHandle_t handle, infiniopSumDescriptor_t *desc_ptr,
                                                      infiniopTensorDescriptor_t output_desc,
                                                      infiniopTensorDescriptor_t input_desc, size_t *dim,
                                                      size_t dim_size, bool keepdim) {
  return CreateDescriptor(handle, desc_ptr, {output_desc, input_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<SumPlan>();
                            INFINIOP_RETURN_IF_ERROR(MakeSumPlan(*output_desc, *input_desc, dim, dim_size, keepdim, plan.get()));
                            made->reset(new SumDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetSumWorkspaceSize(infiniopSumDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<SumDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopSum(infiniopSumDescriptor_t desc, void *workspace, size_t workspace_size,
                                      void *output, const void *input, size_t *, size_t, bool, void *stream) {
  SumDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, output, input, stream);
}

__INFINI_C infiniStatus_t infiniopDestroySumDescriptor(infiniopSumDescriptor_t desc) {
  return DestroyDescriptor<SumDescriptor>(desc);
}
