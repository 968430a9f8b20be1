#include "cuda/cudnn/cudnn_handles.h"

#include "infinicts_ref/cuda_errors.h"

namespace infinicts::ref::op::cuda {

infiniStatus_t CudnnToStatus(cudnnStatus_t status) {
  if (status == CUDNN_STATUS_SUCCESS) return INFINI_STATUS_SUCCESS;
  AbortIfCudaContextLost("libinfiniop, cuDNN");
  switch (CUDNN_STATUS_CATEGORY(status)) {
    case CUDNN_STATUS_BAD_PARAM: return INFINI_STATUS_BAD_PARAM;
    case CUDNN_STATUS_NOT_SUPPORTED: return INFINI_STATUS_NOT_IMPLEMENTED;
    default: return INFINI_STATUS_INTERNAL_ERROR;
  }
}

CudnnLease::CudnnLease(int device, cudaStream_t stream)
    : DeviceHandleLease(device, [](cudnnHandle_t *out) { return CudnnToStatus(cudnnCreate(out)); }) {
  if (status_ == INFINI_STATUS_SUCCESS) status_ = CudnnToStatus(cudnnSetStream(handle(), stream));
}

}  // namespace infinicts::ref::op::cuda
