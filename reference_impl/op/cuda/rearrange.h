// The CUDA path of Rearrange (ops/rearrange.cc calls it for NVIDIA descriptors): dst = src
// element by element between two layouts of one shape, elements copied as bytes. Plain C++;
// the work is in rearrange.cu.
#ifndef INFINICTS_REF_OP_CUDA_REARRANGE_H
#define INFINICTS_REF_OP_CUDA_REARRANGE_H

#include <cstddef>

#include "core/descriptor.h"
#include "cuda/strided_operands.h"

namespace infinicts::ref::op::cuda {

// layout: operand 0 dst, operand 1 src; element_size 1, 2, 4, 8 or 16 (else BAD_PARAM).
infiniStatus_t Rearrange(const InfiniopDescriptor &desc, size_t element_size, const StridedOperands<2> &layout,
                         void *dst, const void *src, void *stream);

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_REARRANGE_H
