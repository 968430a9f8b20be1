// Relu: y = max(x, 0); NaN stays NaN.
#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct ReluFn {
  template <class C>
  C operator()(C x) const {
    return x > C(0) || std::isnan(x) ? x : C(0);
  }
  static constexpr simd::MapOp kVectorOp = simd::MapOp::kRelu;  // its one-pass vector kernel (core/simd.h)
};

using ReluDescriptor = ElementwiseDescriptor<OpKind::kRelu, 1, ReluFn>;

}  // namespace
}  // namespace infinicts::ref::op

using infinicts::ref::op::ReluDescriptor;

__INFINI_C infiniStatus_t infiniopCreateReluDescriptor(infiniopHandle_t handle, infiniopReluDescriptor_t *desc_ptr,
                                                     infiniopTensorDescriptor_t y_desc, infiniopTensorDescriptor_t x_desc) {
  return ReluDescriptor::Create(handle, desc_ptr, y_desc, {x_desc});
}

__INFINI_C infiniStatus_t infiniopGetReluWorkspaceSize(infiniopReluDescriptor_t desc, size_t *size) {
  return infinicts::ref::op::GetWorkspaceSize<ReluDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopRelu(infiniopReluDescriptor_t desc, void *workspace, size_t workspace_size, void *y,
                                     const void *x, void *stream) {
  return ReluDescriptor::Compute(desc, workspace, workspace_size, y, {x}, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyReluDescriptor(infiniopReluDescriptor_t desc) {
  return infinicts::ref::op::DestroyDescriptor<ReluDescriptor>(desc);
}
