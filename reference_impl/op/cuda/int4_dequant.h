// The CUDA paths of DequantizeAWQ and DequantizeGPTQ (ops/dequantize_awq.cc and
// ops/dequantize_gptq.cc call them for NVIDIA descriptors): one thread per output element,
// reading the words as core/int4_words.h says. The kernels are in int4_dequant.cu.
#ifndef INFINICTS_REF_OP_CUDA_INT4_DEQUANT_H
#define INFINICTS_REF_OP_CUDA_INT4_DEQUANT_H

#include <cstdint>

#include "core/descriptor.h"
#include "core/int4_words.h"
#include "infinicore.h"

namespace infinicts::ref::op::cuda {

infiniStatus_t DequantizeAwq(const InfiniopDescriptor &desc, infiniDtype_t dtype, const Int4Geometry &g, void *out,
                             const int32_t *qweight, const void *scales, const int32_t *zeros, void *stream);

infiniStatus_t DequantizeGptq(const InfiniopDescriptor &desc, infiniDtype_t dtype, const Int4Geometry &g, void *out,
                              const int32_t *qweight, const void *scales, const int32_t *zeros, const int32_t *g_idx,
                              void *stream);

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_INT4_DEQUANT_H
