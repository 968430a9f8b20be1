// LogSoftmax along one dim: output = (input - max) - log(sum(exp(input - max))).
#include "infiniop.h"
#include "ops/softmax_rows.h"

using namespace infinicts::ref::op;
using Descriptor = SoftmaxDescriptor<OpKind::kLogSoftmax>;

#ifdef INFINIOP_WITH_CUDA
namespace {
INFINIOP_CUDA_PATH(LogSoftmax)
}  // namespace
#endif

__INFINI_C infiniStatus_t infiniopCreateLogSoftmaxDescriptor(infiniopHandle_t handle,
                                                             infiniopLogSoftmaxDescriptor_t *desc_ptr,
                                                             infiniopTensorDescriptor_t output_desc,
                                                             infiniopTensorDescriptor_t input_desc, int dim) {
  return CreateAxisSoftmax<OpKind::kLogSoftmax>(handle, desc_ptr, output_desc, input_desc, dim, /*log=*/true);
}

__INFINI_C infiniStatus_t infiniopGetLogSoftmaxWorkspaceSize(infiniopLogSoftmaxDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<Descriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopLogSoftmax(infiniopLogSoftmaxDescriptor_t desc, void *workspace,
                                             size_t workspace_size, void *output, const void *input, void *stream) {
  return Descriptor::Compute(desc, workspace, workspace_size, output, input, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyLogSoftmaxDescriptor(infiniopLogSoftmaxDescriptor_t desc) {
  return DestroyDescriptor<Descriptor>(desc);
}
