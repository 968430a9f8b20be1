#include "cuda/launch.h"

#include "infinicts_ref/cuda_errors.h"
#include "infinicts_ref/runtime_internal.h"

namespace infinicts::ref::op::cuda {

infiniStatus_t ToStatus(cudaError_t error) {
  if (error == cudaSuccess) return INFINI_STATUS_SUCCESS;
  AbortOnStickyCudaError(error, "libinfiniop");
  cudaGetLastError();
  switch (error) {
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInvalidDevice:
      return INFINI_STATUS_DEVICE_NOT_FOUND;
    case cudaErrorNoKernelImageForDevice:
      return INFINI_STATUS_DEVICE_ARCHITECTURE_NOT_SUPPORTED;
    case cudaErrorInvalidValue:
      return INFINI_STATUS_BAD_PARAM;
    default:
      return INFINI_STATUS_INTERNAL_ERROR;
  }
}

LaunchScope::LaunchScope(const InfiniopDescriptor &desc, void *stream) : device_(desc.device_id) {
  // An error an earlier call left (a library's, a failed launch's) is not this scope's.
  ClearLeftoverCudaError("libinfiniop");
  infiniDevice_t stream_type = INFINI_DEVICE_CPU;
  int stream_device = 0;
  status_ = infinictsRefStreamDevice(stream, &stream_type, &stream_device);
  if (status_ != INFINI_STATUS_SUCCESS) return;
  if (stream_type != desc.device_type || stream_device != desc.device_id) {
    status_ = INFINI_STATUS_BAD_PARAM;
    return;
  }
  void *raw = nullptr;
  status_ = infinictsRefCudaStream(stream, &raw);
  if (status_ != INFINI_STATUS_SUCCESS) return;
  stream_ = static_cast<cudaStream_t>(raw);
  current_.emplace(device_);
  status_ = current_->status();
}

CurrentDeviceScope::CurrentDeviceScope(int device) {
  status_ = ToStatus(cudaGetDevice(&previous_));
  if (status_ != INFINI_STATUS_SUCCESS) return;
  if (previous_ != device) {
    status_ = ToStatus(cudaSetDevice(device));
    switched_ = status_ == INFINI_STATUS_SUCCESS;
  }
}

CurrentDeviceScope::~CurrentDeviceScope() {
  if (switched_) cudaSetDevice(previous_);
}

}  // namespace infinicts::ref::op::cuda
