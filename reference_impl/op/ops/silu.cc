// Silu: y = x * sigmoid(x).
#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct SiluFn {
  template <class C>
  C operator()(C x) const {
    return x / (C(1) + std::exp(-x));
  }
  static constexpr simd::MapOp kVectorOp = simd::MapOp::kSilu;  // its one-pass vector kernel (core/simd.h)
};

using SiluDescriptor = ElementwiseDescriptor<OpKind::kSilu, 1, SiluFn>;

}  // namespace
}  // namespace infinicts::ref::op

using infinicts::ref::op::SiluDescriptor;

__INFINI_C infiniStatus_t infiniopCreateSiluDescriptor(infiniopHandle_t handle, infiniopSiluDescriptor_t *desc_ptr,
                                                     infiniopTensorDescriptor_t y_desc, infiniopTensorDescriptor_t x_desc) {
  return SiluDescriptor::Create(handle, desc_ptr, y_desc, {x_desc});
}

__INFINI_C infiniStatus_t infiniopGetSiluWorkspaceSize(infiniopSiluDescriptor_t desc, size_t *size) {
  return infinicts::ref::op::GetWorkspaceSize<SiluDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopSilu(infiniopSiluDescriptor_t desc, void *workspace, size_t workspace_size, void *y,
                                     const void *x, void *stream) {
  return SiluDescriptor::Compute(desc, workspace, workspace_size, y, {x}, stream);
}

__INFINI_C infiniStatus_t infiniopDestroySiluDescriptor(infiniopSiluDescriptor_t desc) {
  return infinicts::ref::op::DestroyDescriptor<SiluDescriptor>(desc);
}
