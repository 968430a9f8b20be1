// SwiGLU: c = a * silu(b), InfiniCore's order (a is the up projection, b the gate).
#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct SwiGLUFn {
  template <class C>
  C operator()(C a, C b) const {
    return a * (b / (C(1) + std::exp(-b)));
  }
  static constexpr simd::MapOp kVectorOp = simd::MapOp::kSwiGLU;  // its one-pass vector kernel (core/simd.h)
};

using SwiGLUDescriptor = ElementwiseDescriptor<OpKind::kSwiGLU, 2, SwiGLUFn>;

}  // namespace
}  // namespace infinicts::ref::op

using infinicts::ref::op::SwiGLUDescriptor;

__INFINI_C infiniStatus_t infiniopCreateSwiGLUDescriptor(infiniopHandle_t handle, infiniopSwiGLUDescriptor_t *desc_ptr,
                                                     infiniopTensorDescriptor_t c_desc, infiniopTensorDescriptor_t a_desc,
                                                     infiniopTensorDescriptor_t b_desc) {
  return SwiGLUDescriptor::Create(handle, desc_ptr, c_desc, {a_desc, b_desc});
}

__INFINI_C infiniStatus_t infiniopGetSwiGLUWorkspaceSize(infiniopSwiGLUDescriptor_t desc, size_t *size) {
  return infinicts::ref::op::GetWorkspaceSize<SwiGLUDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopSwiGLU(infiniopSwiGLUDescriptor_t desc, void *workspace, size_t workspace_size, void *c,
                                     const void *a, const void *b, void *stream) {
  return SwiGLUDescriptor::Compute(desc, workspace, workspace_size, c, {a, b}, stream);
}

__INFINI_C infiniStatus_t infiniopDestroySwiGLUDescriptor(infiniopSwiGLUDescriptor_t desc) {
  return infinicts::ref::op::DestroyDescriptor<SwiGLUDescriptor>(desc);
}
