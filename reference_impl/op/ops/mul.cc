// Mul: c = a * b.
#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct MulFn {
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>) return Wrapping(a, b, '*');
    else return a * b;
  }
  static constexpr bool kIntegers = true;  // I32 and I64 too (the CPU path)
  static constexpr simd::MapOp kVectorOp = simd::MapOp::kMul;  // its one-pass vector kernel (core/simd.h)
};

using MulDescriptor = ElementwiseDescriptor<OpKind::kMul, 2, MulFn>;

}  // namespace
}  // namespace infinicts::ref::op

using infinicts::ref::op::MulDescriptor;

__INFINI_C infiniStatus_t infiniopCreateMulDescriptor(infiniopHandle_t handle, infiniopMulDescriptor_t *desc_ptr,
                                                     infiniopTensorDescriptor_t c_desc, infiniopTensorDescriptor_t a_desc,
                                                     infiniopTensorDescriptor_t b_desc) {
  return MulDescriptor::Create(handle, desc_ptr, c_desc, {a_desc, b_desc});
}

__INFINI_C infiniStatus_t infiniopGetMulWorkspaceSize(infiniopMulDescriptor_t desc, size_t *size) {
  return infinicts::ref::op::GetWorkspaceSize<MulDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopMul(infiniopMulDescriptor_t desc, void *workspace, size_t workspace_size, void *c,
                                     const void *a, const void *b, void *stream) {
  return MulDescriptor::Compute(desc, workspace, workspace_size, c, {a, b}, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyMulDescriptor(infiniopMulDescriptor_t desc) {
  return infinicts::ref::op::DestroyDescriptor<MulDescriptor>(desc);
}
