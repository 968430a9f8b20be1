// HardTanh with its create-time bounds: y = min(max(x, min_val), max_val); NaN stays NaN.
#include <cmath>

#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct HardTanhFn {
  float min_val = -1.0f;
  float max_val = 1.0f;

  template <class C>
  C operator()(C x) const {
    if (std::isnan(x)) return x;
    const C low = static_cast<C>(min_val), high = static_cast<C>(max_val);
    return x < low ? low : (x > high ? high : x);
  }
#ifdef INFINIOP_WITH_CUDA
  cuda::UnaryAttributes DeviceAttributes() const { return {min_val, max_val}; }
#endif
};

using HardTanhDescriptor = ElementwiseDescriptor<OpKind::kHardTanh, 1, HardTanhFn>;

}  // namespace
}  // namespace infinicts::ref::op

using infinicts::ref::op::HardTanhDescriptor;

__INFINI_C infiniStatus_t infiniopCreateHardTanhDescriptor(infiniopHandle_t handle,
                                                           infiniopHardTanhDescriptor_t *desc_ptr,
                                                           infiniopTensorDescriptor_t output,
                                                           infiniopTensorDescriptor_t input, float min_val,
                                                           float max_val) {
  // Bounds that are NaN or in the wrong order bound nothing.
  if (!(min_val <= max_val)) return INFINI_STATUS_BAD_PARAM;
  return HardTanhDescriptor::Create(handle, desc_ptr, output, {input}, {min_val, max_val});
}

__INFINI_C infiniStatus_t infiniopGetHardTanhWorkspaceSize(infiniopHardTanhDescriptor_t desc, size_t *size) {
  return infinicts::ref::op::GetWorkspaceSize<HardTanhDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopHardTanh(infiniopHardTanhDescriptor_t desc, void *workspace, size_t workspace_size,
                                           void *output, const void *input, void *stream) {
  return HardTanhDescriptor::Compute(desc, workspace, workspace_size, output, {input}, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyHardTanhDescriptor(infiniopHardTanhDescriptor_t desc) {
  return infinicts::ref::op::DestroyDescriptor<HardTanhDescriptor>(desc);
}
