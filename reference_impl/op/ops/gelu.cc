// Gelu, the exact (erf) form: y = x / 2 * (1 + erf(x / sqrt(2))) = x / 2 * erfc(-x / sqrt(2)).
#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct GeluFn {
  template <class C>
  C operator()(C x) const {
    // 1 + erf(t) as erfc(-t): the same function, without 1 + erf's cancellation for x < 0;
    // in double, since x / sqrt(2) rounded to float would cost up to 20 ulps in the tail.
    const double wide = static_cast<double>(x);
    return static_cast<C>(0.5 * wide * std::erfc(wide * -0.70710678118654752440));
  }
  static constexpr simd::MapOp kVectorOp = simd::MapOp::kGelu;  // its one-pass vector kernel (core/simd.h)
};

using GeluDescriptor = ElementwiseDescriptor<OpKind::kGelu, 1, GeluFn>;

}  // namespace
}  // namespace infinicts::ref::op

using infinicts::ref::op::GeluDescriptor;

__INFINI_C infiniStatus_t infiniopCreateGeluDescriptor(infiniopHandle_t handle, infiniopGeluDescriptor_t *desc_ptr,
                                                     infiniopTensorDescriptor_t y_desc, infiniopTensorDescriptor_t x_desc) {
  return GeluDescriptor::Create(handle, desc_ptr, y_desc, {x_desc});
}

__INFINI_C infiniStatus_t infiniopGetGeluWorkspaceSize(infiniopGeluDescriptor_t desc, size_t *size) {
  return infinicts::ref::op::GetWorkspaceSize<GeluDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopGelu(infiniopGeluDescriptor_t desc, void *workspace, size_t workspace_size, void *y,
                                     const void *x, void *stream) {
  return GeluDescriptor::Compute(desc, workspace, workspace_size, y, {x}, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyGeluDescriptor(infiniopGeluDescriptor_t desc) {
  return infinicts::ref::op::DestroyDescriptor<GeluDescriptor>(desc);
}
