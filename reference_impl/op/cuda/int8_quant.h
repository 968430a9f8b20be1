// The CUDA paths of the int8 quantisers (ops/per_channel_quant_int8.cc,
// ops/per_tensor_quant_int8.cc and ops/per_tensor_dequant_int8.cc call them for NVIDIA
// descriptors), with the F32 steps of core/int8_steps.h. Where an element lies is plain host
// and device code (tested on the CPU); the kernels are in int8_quant.cu.
#ifndef INFINICTS_REF_OP_CUDA_INT8_QUANT_H
#define INFINICTS_REF_OP_CUDA_INT8_QUANT_H

#include <cstddef>
#include <cstdint>

#include "core/descriptor.h"
#include "core/host_device.h"
#include "cuda/kernel_limits.h"
#include "infinicore.h"

namespace infinicts::ref::op::cuda {

// PerChannelQuantI8: x [rows, cols] and x_packed alike, x_scale and x_zero [rows, 1] (strides
// in elements).
struct PerRowQuantGeometry {
  int64_t rows, cols;
  int64_t x_row, x_col, packed_row, packed_col, scale_step, zero_step;
};
static_assert(FitsKernelParameters<PerRowQuantGeometry>(), "PerRowQuantGeometry must fit in 4 KB");

// The per-tensor operators: x and x_packed of one shape (at most kMaxQuantDims dims).
constexpr int kMaxQuantDims = 8;
struct PerTensorGeometry {
  int32_t ndim;
  int64_t count;
  int64_t shape[kMaxQuantDims];
  int64_t x_strides[kMaxQuantDims];
  int64_t packed_strides[kMaxQuantDims];
};
static_assert(FitsKernelParameters<PerTensorGeometry>(), "PerTensorGeometry must fit in 4 KB");

// The offsets in x and in x_packed of the element of row-major index `linear`.
INFINICTS_HOST_DEVICE inline void PerTensorOffsets(const PerTensorGeometry &g, int64_t linear, int64_t *x_offset,
                                                   int64_t *packed_offset) {
  int64_t x_at = 0, packed_at = 0;
  for (int d = g.ndim - 1; d >= 0; --d) {
    const int64_t index = linear % g.shape[d];
    linear /= g.shape[d];
    x_at += index * g.x_strides[d];
    packed_at += index * g.packed_strides[d];
  }
  *x_offset = x_at;
  *packed_offset = packed_at;
}

// x_zero NULL: the symmetric form.
infiniStatus_t PerChannelQuantI8(const InfiniopDescriptor &desc, infiniDtype_t dtype, const PerRowQuantGeometry &g,
                                 int8_t *x_packed, float *x_scale, float *x_zero, const void *x, void *stream);

// Dynamic (is_static false): the maximum goes through `amax_scratch` (one float of the
// workspace), so x_scale's prior content never matters.
infiniStatus_t PerTensorQuantI8(const InfiniopDescriptor &desc, infiniDtype_t dtype, const PerTensorGeometry &g,
                                int8_t *x_packed, float *x_scale, const void *x, bool is_static, float *amax_scratch,
                                void *stream);

infiniStatus_t PerTensorDequantI8(const InfiniopDescriptor &desc, infiniDtype_t dtype, const PerTensorGeometry &g,
                                  void *x, const int8_t *x_packed, const float *x_scale, void *stream);

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_INT8_QUANT_H
