// Sub: c = a - b.
#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct SubFn {
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>) return Wrapping(a, b, '-');
    else return a - b;
  }
  static constexpr bool kIntegers = true;  // I32 and I64 too (the CPU path)
  static constexpr simd::MapOp kVectorOp = simd::MapOp::kSub;  // its one-pass vector kernel (core/simd.h)
};

using SubDescriptor = ElementwiseDescriptor<OpKind::kSub, 2, SubFn>;

}  // namespace
}  // namespace infinicts::ref::op

using infinicts::ref::op::SubDescriptor;

__INFINI_C infiniStatus_t infiniopCreateSubDescriptor(infiniopHandle_t handle, infiniopSubDescriptor_t *desc_ptr,
                                                     infiniopTensorDescriptor_t c_desc, infiniopTensorDescriptor_t a_desc,
                                                     infiniopTensorDescriptor_t b_desc) {
  return SubDescriptor::Create(handle, desc_ptr, c_desc, {a_desc, b_desc});
}

__INFINI_C infiniStatus_t infiniopGetSubWorkspaceSize(infiniopSubDescriptor_t desc, size_t *size) {
  return infinicts::ref::op::GetWorkspaceSize<SubDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopSub(infiniopSubDescriptor_t desc, void *workspace, size_t workspace_size, void *c,
                                     const void *a, const void *b, void *stream) {
  return SubDescriptor::Compute(desc, workspace, workspace_size, c, {a, b}, stream);
}

__INFINI_C infiniStatus_t infiniopDestroySubDescriptor(infiniopSubDescriptor_t desc) {
  return infinicts::ref::op::DestroyDescriptor<SubDescriptor>(desc);
}
