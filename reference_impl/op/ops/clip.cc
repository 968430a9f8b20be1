// Clip: y = max(min(x, max_val), min_val) elementwise, so min_val wins where the bounds
// cross (InfiniCore's order); a NaN x stays NaN, a NaN bound leaves x as it is.
#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct ClipFn {
  template <class C>
  C operator()(C x, C low, C high) const {
    const C capped = x > high ? high : x;
    return capped < low ? low : capped;
  }
};

using ClipDescriptor = ElementwiseDescriptor<OpKind::kClip, 3, ClipFn>;

}  // namespace
}  // namespace infinicts::ref::op

using infinicts::ref::op::ClipDescriptor;

__INFINI_C infiniStatus_t infiniopCreateClipDescriptor(infiniopHandle_t handle, infiniopClipDescriptor_t *desc_ptr,
                                                       infiniopTensorDescriptor_t y_desc, infiniopTensorDescriptor_t x_desc,
                                                       infiniopTensorDescriptor_t min_val_desc,
                                                       infiniopTensorDescriptor_t max_val_desc) {
  return ClipDescriptor::Create(handle, desc_ptr, y_desc, {x_desc, min_val_desc, max_val_desc});
}

__INFINI_C infiniStatus_t infiniopGetClipWorkspaceSize(infiniopClipDescriptor_t desc, size_t *size) {
  return infinicts::ref::op::GetWorkspaceSize<ClipDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopClip(infiniopClipDescriptor_t desc, void *workspace, size_t workspace_size, void *y,
                                       const void *x, const void *min_val, const void *max_val, void *stream) {
  return ClipDescriptor::Compute(desc, workspace, workspace_size, y, {x, min_val, max_val}, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyClipDescriptor(infiniopClipDescriptor_t desc) {
  return infinicts::ref::op::DestroyDescriptor<ClipDescriptor>(desc);
}
