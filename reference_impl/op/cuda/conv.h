// The CUDA path of Conv (ops/conv.cc calls it for NVIDIA descriptors): the n-d
// cross-correlation the CPU plan validated, on cuDNN where the build has it and cuDNN takes
// the problem (cudnn/conv_cudnn.h), else computed directly (one thread per output element).
// F32 accumulation for F16/BF16/F32, F64 for F64. Plain C++; the kernels are in conv.cu.
#ifndef INFINICTS_REF_OP_CUDA_CONV_H
#define INFINICTS_REF_OP_CUDA_CONV_H

#include <cstddef>
#include <memory>
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

class CudnnConv;  // cudnn/conv_cudnn.h, in builds with cuDNN

// The plan of the NVIDIA path, made once per descriptor on CUDA device `device`: cuDNN's,
// or null where this build has no cuDNN or cuDNN does not take the problem (the direct
// kernel computes it then).
std::shared_ptr<const CudnnConv> PlanConv(int device, const ConvProblem &problem);

// The workspace `plan` needs (0 for the direct kernel).
size_t ConvWorkspaceBytes(const CudnnConv *plan);

// y = conv(x, w) (+ bias[co] when has_bias); device pointers, `workspace` of
// ConvWorkspaceBytes(plan).
infiniStatus_t Conv(const InfiniopDescriptor &desc, const ConvProblem &problem, const CudnnConv *plan, void *y,
                    const void *x, const void *w, const void *bias, void *workspace, void *stream);

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_CONV_H
