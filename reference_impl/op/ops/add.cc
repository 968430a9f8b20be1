// Add: c = a + b.
#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct AddFn {
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>) return Wrapping(a, b, '+');
    else return a + b;
  }
  static constexpr bool kIntegers = true;  // I32 and I64 too (the CPU path)
  static constexpr simd::MapOp kVectorOp = simd::MapOp::kAdd;  // its one-pass vector kernel (core/simd.h)
};

using AddDescriptor = ElementwiseDescriptor<OpKind::kAdd, 2, AddFn>;

}  // namespace
}  // namespace infinicts::ref::op

using infinicts::ref::op::AddDescriptor;

__INFINI_C infiniStatus_t infiniopCreateAddDescriptor(infiniopHandle_t handle, infiniopAddDescriptor_t *desc_ptr,
                                                     infiniopTensorDescriptor_t c_desc, infiniopTensorDescriptor_t a_desc,
                                                     infiniopTensorDescriptor_t b_desc) {
  return AddDescriptor::Create(handle, desc_ptr, c_desc, {a_desc, b_desc});
}

__INFINI_C infiniStatus_t infiniopGetAddWorkspaceSize(infiniopAddDescriptor_t desc, size_t *size) {
  return infinicts::ref::op::GetWorkspaceSize<AddDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopAdd(infiniopAddDescriptor_t desc, void *workspace, size_t workspace_size, void *c,
                                     const void *a, const void *b, void *stream) {
  return AddDescriptor::Compute(desc, workspace, workspace_size, c, {a, b}, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyAddDescriptor(infiniopAddDescriptor_t desc) {
  return infinicts::ref::op::DestroyDescriptor<AddDescriptor>(desc);
}
