// Softplus with its create-time beta and threshold: y = x where beta·x > threshold, else
// ln(1 + e^(beta·x)) / beta, the latter as max(bx, 0) + ln(1 + e^-|bx|) so that it never
// overflows (a threshold above e^x's range changes nothing).
#include <cmath>

#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct SoftplusFn {
  float beta = 1.0f;
  float threshold = 20.0f;

  template <class C>
  C operator()(C x) const {
    const C b = static_cast<C>(beta);
    const C bx = b * x;
    if (bx > static_cast<C>(threshold)) return x;
    if (std::isnan(bx)) return bx;
    const C positive = bx > C(0) ? bx : C(0);
    return (positive + std::log1p(std::exp(-std::fabs(bx)))) / b;
  }
#ifdef INFINIOP_WITH_CUDA
  cuda::UnaryAttributes DeviceAttributes() const { return {beta, threshold}; }
#endif
};

using SoftplusDescriptor = ElementwiseDescriptor<OpKind::kSoftplus, 1, SoftplusFn>;

}  // namespace
}  // namespace infinicts::ref::op

using infinicts::ref::op::SoftplusDescriptor;

__INFINI_C infiniStatus_t infiniopCreateSoftplusDescriptor(infiniopHandle_t handle,
                                                           infiniopSoftplusDescriptor_t *desc_ptr,
                                                           infiniopTensorDescriptor_t y_desc,
                                                           infiniopTensorDescriptor_t x_desc, float beta,
                                                           float threshold) {
  // beta divides: 0 (or NaN) has no softplus.
  if (!(beta != 0.0f) || std::isnan(threshold)) return INFINI_STATUS_BAD_PARAM;
  return SoftplusDescriptor::Create(handle, desc_ptr, y_desc, {x_desc}, {beta, threshold});
}

__INFINI_C infiniStatus_t infiniopGetSoftplusWorkspaceSize(infiniopSoftplusDescriptor_t desc, size_t *size) {
  return infinicts::ref::op::GetWorkspaceSize<SoftplusDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopSoftplus(infiniopSoftplusDescriptor_t desc, void *workspace, size_t workspace_size,
                                           void *y, const void *x, void *stream) {
  return SoftplusDescriptor::Compute(desc, workspace, workspace_size, y, {x}, stream);
}

__INFINI_C infiniStatus_t infiniopDestroySoftplusDescriptor(infiniopSoftplusDescriptor_t desc) {
  return infinicts::ref::op::DestroyDescriptor<SoftplusDescriptor>(desc);
}
