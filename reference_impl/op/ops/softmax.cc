// Softmax along one axis: y = exp(x - max) / sum(exp(x - max)).
#include "infiniop.h"
#include "ops/softmax_rows.h"

using namespace infinicts::ref::op;
using Descriptor = SoftmaxDescriptor<OpKind::kSoftmax>;

#ifdef INFINIOP_WITH_CUDA
namespace {
INFINIOP_CUDA_PATH(Softmax)
}  // namespace
#endif

__INFINI_C infiniStatus_t infiniopCreateSoftmaxDescriptor(infiniopHandle_t handle,
                                                          infiniopSoftmaxDescriptor_t *desc_ptr,
                                                          infiniopTensorDescriptor_t y_desc,
                                                          infiniopTensorDescriptor_t x_desc, int axis) {
  return CreateAxisSoftmax<OpKind::kSoftmax>(handle, desc_ptr, y_desc, x_desc, axis, /*log=*/false);
}

__INFINI_C infiniStatus_t infiniopGetSoftmaxWorkspaceSize(infiniopSoftmaxDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<Descriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopSoftmax(infiniopSoftmaxDescriptor_t desc, void *workspace, size_t workspace_size,
                                          void *y, const void *x, void *stream) {
  return Descriptor::Compute(desc, workspace, workspace_size, y, x, stream);
}

__INFINI_C infiniStatus_t infiniopDestroySoftmaxDescriptor(infiniopSoftmaxDescriptor_t desc) {
  return DestroyDescriptor<Descriptor>(desc);
}
