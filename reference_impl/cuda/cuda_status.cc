#include "cuda/cuda_status.h"

#include "infinicts_ref/cuda_errors.h"

namespace infinicts::ref::cuda {

infiniStatus_t ToStatus(cudaError_t error) {
  if (error == cudaSuccess) return INFINI_STATUS_SUCCESS;
  AbortOnStickyCudaError(error, "libinfinirt");
  cudaGetLastError();
  switch (error) {
    case cudaErrorInvalidValue:
    case cudaErrorInvalidResourceHandle:
    case cudaErrorInvalidDevicePointer:
    case cudaErrorInvalidMemcpyDirection:
      return INFINI_STATUS_BAD_PARAM;
    case cudaErrorInvalidDevice:
    case cudaErrorNoDevice:
      return INFINI_STATUS_DEVICE_NOT_FOUND;
    case cudaErrorInsufficientDriver:
    case cudaErrorInitializationError:
      return INFINI_STATUS_DEVICE_NOT_INITIALIZED;
    default:
      // cudaErrorMemoryAllocation included: InfiniRT reports out of memory as
      // INTERNAL_ERROR (docs/spec/rt.md, Malloc), and cudaErrorNotReady too (ElapsedTime).
      return INFINI_STATUS_INTERNAL_ERROR;
  }
}

DeviceGuard::DeviceGuard(int device) {
  status_ = ToStatus(cudaGetDevice(&previous_));
  if (status_ != INFINI_STATUS_SUCCESS || previous_ == device) return;
  status_ = ToStatus(cudaSetDevice(device));
  switched_ = status_ == INFINI_STATUS_SUCCESS;
}

DeviceGuard::~DeviceGuard() {
  if (switched_) cudaSetDevice(previous_);
}

}  // namespace infinicts::ref::cuda
