// CausalSoftmax over the last dim of (..., seq, total), total >= seq: row i keeps the
// columns j <= total - seq + i and the others become 0.
#include "infiniop.h"
#include "ops/softmax_rows.h"

using namespace infinicts::ref::op;
using Descriptor = SoftmaxDescriptor<OpKind::kCausalSoftmax>;

#ifdef INFINIOP_WITH_CUDA
namespace {
INFINIOP_CUDA_PATH(CausalSoftmax)
}  // namespace
#endif

__INFINI_C infiniStatus_t infiniopCreateCausalSoftmaxDescriptor(infiniopHandle_t handle,
                                                                infiniopCausalSoftmaxDescriptor_t *desc_ptr,
                                                                infiniopTensorDescriptor_t y_desc,
                                                                infiniopTensorDescriptor_t x_desc) {
  return CreateDescriptor(handle, desc_ptr, {y_desc, x_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            INFINIOP_RETURN_IF_ERROR(CheckSoftmaxPair(*y_desc, *x_desc, /*causal=*/true));
                            const size_t ndim = y_desc->ndim();
                            const size_t seq = y_desc->shape[ndim - 2];
                            auto plan = std::make_shared<SoftmaxPlan>();
                            plan->dtype = y_desc->dtype;
                            plan->rows = MakeRowLoop<2>({y_desc, x_desc}, ndim - 1);
                            plan->causal_seq_len = seq;
#ifdef INFINIOP_WITH_CUDA
                            plan->device_args = cuda_rows::CausalSoftmaxArgsFor(*y_desc, *x_desc);
#endif
                            made->reset(new Descriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetCausalSoftmaxWorkspaceSize(infiniopCausalSoftmaxDescriptor_t desc,
                                                                size_t *size) {
  return GetWorkspaceSize<Descriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopCausalSoftmax(infiniopCausalSoftmaxDescriptor_t desc, void *workspace,
                                                size_t workspace_size, void *y, const void *x, void *stream) {
  return Descriptor::Compute(desc, workspace, workspace_size, y, x, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyCausalSoftmaxDescriptor(infiniopCausalSoftmaxDescriptor_t desc) {
  return DestroyDescriptor<Descriptor>(desc);
}
