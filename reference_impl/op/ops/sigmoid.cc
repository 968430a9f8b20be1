// Sigmoid: y = 1 / (1 + exp(-x)).
#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct SigmoidFn {
  template <class C>
  C operator()(C x) const {
    return C(1) / (C(1) + std::exp(-x));
  }
  static constexpr simd::MapOp kVectorOp = simd::MapOp::kSigmoid;  // its one-pass vector kernel (core/simd.h)
};

using SigmoidDescriptor = ElementwiseDescriptor<OpKind::kSigmoid, 1, SigmoidFn>;

}  // namespace
}  // namespace infinicts::ref::op

using infinicts::ref::op::SigmoidDescriptor;

__INFINI_C infiniStatus_t infiniopCreateSigmoidDescriptor(infiniopHandle_t handle, infiniopSigmoidDescriptor_t *desc_ptr,
                                                     infiniopTensorDescriptor_t y_desc, infiniopTensorDescriptor_t x_desc) {
  return SigmoidDescriptor::Create(handle, desc_ptr, y_desc, {x_desc});
}

__INFINI_C infiniStatus_t infiniopGetSigmoidWorkspaceSize(infiniopSigmoidDescriptor_t desc, size_t *size) {
  return infinicts::ref::op::GetWorkspaceSize<SigmoidDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopSigmoid(infiniopSigmoidDescriptor_t desc, void *workspace, size_t workspace_size, void *y,
                                     const void *x, void *stream) {
  return SigmoidDescriptor::Compute(desc, workspace, workspace_size, y, {x}, stream);
}

__INFINI_C infiniStatus_t infiniopDestroySigmoidDescriptor(infiniopSigmoidDescriptor_t desc) {
  return infinicts::ref::op::DestroyDescriptor<SigmoidDescriptor>(desc);
}
