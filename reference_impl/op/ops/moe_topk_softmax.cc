// MoeTopkSoftmax: SGLang's softmax MoE router with an optional correction bias and soft cap
// (spec section OP-MOETOPK; the shared parts in ops/moe_topk.h).
#include "infiniop.h"
#include "ops/moe_topk.h"

namespace infinicts::ref::op {
namespace {

using MoeTopkSoftmaxDescriptor = MoeTopkDescriptor<OpKind::kMoeTopkSoftmax>;

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(MoeTopkSoftmax)
#endif

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateMoeTopkSoftmaxDescriptor(
    infiniopHandle_t handle, infiniopMoeTopkSoftmaxDescriptor_t *desc_ptr, infiniopTensorDescriptor_t topk_weights_desc,
    infiniopTensorDescriptor_t topk_indices_desc, infiniopTensorDescriptor_t gating_output_desc,
    infiniopTensorDescriptor_t correction_bias_desc, bool renormalize, float moe_softcapping) {
  return CreateMoeTopkDescriptor<MoeTopkSoftmaxDescriptor>(handle, desc_ptr, topk_weights_desc, topk_indices_desc,
                                                          gating_output_desc, correction_bias_desc,
                                                          MoeTopkParams{MoeScore::kSoftmax, renormalize, moe_softcapping});
}

__INFINI_C infiniStatus_t infiniopGetMoeTopkSoftmaxWorkspaceSize(infiniopMoeTopkSoftmaxDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<MoeTopkSoftmaxDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopMoeTopkSoftmax(infiniopMoeTopkSoftmaxDescriptor_t desc, void *workspace,
                                               size_t workspace_size, void *topk_weights, void *topk_indices,
                                               const void *gating_output, const void *correction_bias, void *stream) {
  MoeTopkSoftmaxDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, topk_weights, topk_indices, gating_output, correction_bias, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyMoeTopkSoftmaxDescriptor(infiniopMoeTopkSoftmaxDescriptor_t desc) {
  return DestroyDescriptor<MoeTopkSoftmaxDescriptor>(desc);
}
