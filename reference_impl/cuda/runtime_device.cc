// The CUDA runtime: devices.
#include "cuda/cuda_status.h"
#include "cuda/runtime.h"

namespace infinicts::ref::cuda {
namespace {

// Never fails: no driver, no device or any other error counts as no device. The count is
// fixed for the process (CUDA reads CUDA_VISIBLE_DEVICES once).
int CountDevices() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

}  // namespace

CudaRuntime &Instance() {
  static CudaRuntime *const instance = new CudaRuntime();
  return *instance;
}

CudaRuntime::CudaRuntime()
    : device_count_(CountDevices()), default_streams_(static_cast<size_t>(device_count_), nullptr) {}

infiniStatus_t CudaRuntime::MemInfo(int device, size_t *free_bytes, size_t *total_bytes) {
  DeviceGuard guard(device);
  if (guard.status() != INFINI_STATUS_SUCCESS) return guard.status();
  return ToStatus(cudaMemGetInfo(free_bytes, total_bytes));
}

infiniStatus_t CudaRuntime::SynchronizeDevice(int device) {
  DeviceGuard guard(device);
  if (guard.status() != INFINI_STATUS_SUCCESS) return guard.status();
  return ToStatus(cudaDeviceSynchronize());
}

}  // namespace infinicts::ref::cuda
