// MulScalar: output = alpha · input (spec section OP-MULSCALAR), alpha given at compute. The
// elementwise machinery of one input (ops/elementwise.h) runs it, with the call's alpha as its
// rule; the F16 and BF16 products are taken in F32 with alpha rounded to F32 (as InfiniCore's
// CPU kernel takes them), F32's too, F64's in double.
#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct MulScalarRule {
  double alpha = 1.0;
  template <class C>
  C operator()(C x) const {
    return x * static_cast<C>(alpha);
  }
};

using MulScalarDescriptor = ElementwiseDescriptor<OpKind::kMulScalar, 1, MulScalarRule>;

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateMulScalarDescriptor(infiniopHandle_t handle,
                                                            infiniopMulScalarDescriptor_t *desc_ptr,
                                                            infiniopTensorDescriptor_t output,
                                                            infiniopTensorDescriptor_t input) {
  return MulScalarDescriptor::Create(handle, desc_ptr, output, {input});
}

__INFINI_C infiniStatus_t infiniopGetMulScalarWorkspaceSize(infiniopMulScalarDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<MulScalarDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopMulScalar(infiniopMulScalarDescriptor_t desc, void *workspace, size_t workspace_size,
                                            void *output, const void *input, double alpha, void *stream) {
  const MulScalarRule rule{alpha};
  return MulScalarDescriptor::Compute(desc, workspace, workspace_size, output, {input}, stream, &rule);
}

__INFINI_C infiniStatus_t infiniopDestroyMulScalarDescriptor(infiniopMulScalarDescriptor_t desc) {
  return DestroyDescriptor<MulScalarDescriptor>(desc);
}
