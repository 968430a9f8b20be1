// The CUDA path of the elementwise operators (ops/elementwise.h calls it for NVIDIA
// descriptors): y = f(x...) over NumIn inputs of one dtype and shape, f picked by the
// operator kind. Plain C++ declarations; the kernels are in elementwise.cu.
#ifndef INFINICTS_REF_OP_CUDA_ELEMENTWISE_H
#define INFINICTS_REF_OP_CUDA_ELEMENTWISE_H

#include <array>

#include "core/descriptor.h"
#include "cuda/strided_operands.h"

namespace infinicts::ref::op::cuda {

// `layout` covers the output (operand 0) and the inputs in order; pointers are device
// pointers, never read on the host. An operator kind of another arity -> BAD_PARAM.
infiniStatus_t Elementwise(const InfiniopDescriptor &desc, OpKind kind, infiniDtype_t dtype,
                           const StridedOperands<2> &layout, void *out, const std::array<const void *, 1> &in,
                           void *stream);
// The unary operators whose create calls carry two attributes: HardTanh (min_val, max_val)
// and Softplus (beta, threshold).
struct UnaryAttributes {
  float first = 0.0f, second = 0.0f;
};
infiniStatus_t Elementwise(const InfiniopDescriptor &desc, OpKind kind, infiniDtype_t dtype,
                           const StridedOperands<2> &layout, void *out, const std::array<const void *, 1> &in,
                           const UnaryAttributes &attributes, void *stream);
infiniStatus_t Elementwise(const InfiniopDescriptor &desc, OpKind kind, infiniDtype_t dtype,
                           const StridedOperands<3> &layout, void *out, const std::array<const void *, 2> &in,
                           void *stream);
infiniStatus_t Elementwise(const InfiniopDescriptor &desc, OpKind kind, infiniDtype_t dtype,
                           const StridedOperands<4> &layout, void *out, const std::array<const void *, 3> &in,
                           void *stream);

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_ELEMENTWISE_H
