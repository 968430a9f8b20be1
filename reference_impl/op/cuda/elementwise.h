// The CUDA path of the elementwise operators (ops/elementwise.h calls it for NVIDIA
// descriptors): y = f(x...) over NumIn inputs of one dtype and shape, f the operator's rule.
// Plain C++ declarations; the kernels are in elementwise.cu.
#ifndef INFINICTS_REF_OP_CUDA_ELEMENTWISE_H
#define INFINICTS_REF_OP_CUDA_ELEMENTWISE_H

#include <array>

#include "core/descriptor.h"
#include "cuda/strided_operands.h"

namespace infinicts::ref::op::cuda {

// `layout` covers the output (operand 0) and the inputs in order; pointers are device
// pointers, never read on the host. `rule` is the operator's rule (rules/elementwise.h, of
// the row `kind` names), with its create-time attributes. A kind without a rule of NumIn
// inputs -> BAD_PARAM. Instantiated for 1, 2 and 3 inputs.
template <size_t NumIn>
infiniStatus_t Elementwise(const InfiniopDescriptor &desc, OpKind kind, infiniDtype_t dtype,
                           const StridedOperands<NumIn + 1> &layout, void *out,
                           const std::array<const void *, NumIn> &in, const void *rule, void *stream);

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_ELEMENTWISE_H
