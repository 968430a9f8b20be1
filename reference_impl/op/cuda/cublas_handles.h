// The device's cuBLAS handle (device_handles.h), bound to the caller's stream and to the
// call's own workspace (so that calls queued on different streams share no memory).
#ifndef INFINICTS_REF_OP_CUDA_CUBLAS_HANDLES_H
#define INFINICTS_REF_OP_CUDA_CUBLAS_HANDLES_H

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "cuda/device_handles.h"

namespace infinicts::ref::op::cuda {

infiniStatus_t CublasToStatus(cublasStatus_t status);

class CublasLease : public DeviceHandleLease<cublasHandle_t> {
 public:
  // `device` must be the current CUDA device (a LaunchScope of it is open). `workspace`
  // holds `bytes` plus 256 bytes of slack for alignment; NULL: cuBLAS gets none.
  CublasLease(int device, cudaStream_t stream, void *workspace, size_t bytes);
};

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_CUBLAS_HANDLES_H
