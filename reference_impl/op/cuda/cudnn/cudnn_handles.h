// The device's cuDNN handle (../device_handles.h), bound to the caller's stream.
#ifndef INFINICTS_REF_OP_CUDA_CUDNN_HANDLES_H
#define INFINICTS_REF_OP_CUDA_CUDNN_HANDLES_H

#include <cudnn.h>

#include "cuda/device_handles.h"

namespace infinicts::ref::op::cuda {

// cuDNN's status by category: NOT_SUPPORTED* -> NOT_IMPLEMENTED, BAD_PARAM* -> BAD_PARAM,
// the rest (internal, execution, initialisation failures) -> INTERNAL_ERROR.
infiniStatus_t CudnnToStatus(cudnnStatus_t status);

class CudnnLease : public DeviceHandleLease<cudnnHandle_t> {
 public:
  // `device` must be the current CUDA device.
  CudnnLease(int device, cudaStream_t stream);
};

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_CUDNN_HANDLES_H
