// Conv on cuDNN's convolution API (cudnnConvolutionForward), for the problems it takes:
// 1 to 3 spatial dims, positive strides, a packed weight (NCHW or channels-last) and sizes
// within int. Only the GEMM-like algorithms are used (implicit GEMM, precomputed implicit
// GEMM, explicit GEMM, direct): FFT and Winograd round differently from a plain sum of
// products, and F32 runs without TF32, so that the result is as accurate as the CPU
// reference's. Built only where the CUDA toolkit has cuDNN (INFINIOP_WITH_CUDNN).
#ifndef INFINICTS_REF_OP_CUDA_CONV_CUDNN_H
#define INFINICTS_REF_OP_CUDA_CONV_CUDNN_H

#include <cudnn.h>

#include <memory>

#include "cuda/conv.h"

namespace infinicts::ref::op::cuda {

class CudnnConv {
 public:
  // cuDNN's plan for `problem` on CUDA device `device`, or null where cuDNN does not take
  // the problem (the direct kernel computes it then).
  static std::shared_ptr<const CudnnConv> Plan(int device, const ConvProblem &problem);
  ~CudnnConv();
  CudnnConv(const CudnnConv &) = delete;
  CudnnConv &operator=(const CudnnConv &) = delete;

  size_t workspace_bytes() const { return workspace_bytes_; }

  // y = conv(x, w), plus y's old value when `accumulate` (one rounding to y's type), queued
  // on `stream` of `device`, which must be current. Answers cuDNN's status.
  cudnnStatus_t Run(int device, cudaStream_t stream, void *y, const void *x, const void *w, bool accumulate,
                    void *workspace) const;

 private:
  CudnnConv() = default;

  cudnnTensorDescriptor_t x_ = nullptr, y_ = nullptr;
  cudnnFilterDescriptor_t w_ = nullptr;
  cudnnConvolutionDescriptor_t conv_ = nullptr;
  cudnnConvolutionFwdAlgo_t algorithm_ = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
  bool double_scales_ = false;  // alpha and beta are doubles for F64, floats otherwise
  size_t workspace_bytes_ = 0;
};

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_CONV_CUDNN_H
