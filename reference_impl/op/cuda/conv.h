// The CUDA path of Conv (ops/conv.cc calls it for NVIDIA descriptors): the n-d
// cross-correlation the CPU plan validated, computed directly (one thread per output
// element, F32 accumulation for F16/BF16/F32, F64 for F64). Plain C++; the kernel is in
// conv.cu.
#ifndef INFINICTS_REF_OP_CUDA_CONV_H
#define INFINICTS_REF_OP_CUDA_CONV_H

#include <cstddef>
#include <vector>

#include "core/descriptor.h"

namespace infinicts::ref::op::cuda {

// The plan's facts, by reference (valid for the call). Sizes and attributes have one entry
// per spatial dim; strides are the tensors' own (batch, channel, spatial...).
struct ConvProblem {
  infiniDtype_t dtype;
  size_t batch, in_channels, out_channels;
  const std::vector<size_t> &in_size, &kernel, &out_size, &pads, &dilations;
  const std::vector<ptrdiff_t> &steps, &x_strides, &w_strides, &y_strides;
  bool has_bias;
  ptrdiff_t bias_step;
};

// y = conv(x, w) (+ bias[co] when has_bias); device pointers.
infiniStatus_t Conv(const InfiniopDescriptor &desc, const ConvProblem &problem, void *y, const void *x,
                    const void *w, const void *bias, void *stream);

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_CONV_H
