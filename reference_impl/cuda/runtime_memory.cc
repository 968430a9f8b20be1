// The CUDA runtime: memory. The dispatch layer has validated every range; this file only
// picks the device each call runs on and keeps the allocation registry.
#include "cuda/cuda_status.h"
#include "cuda/runtime.h"
#include "runtime/registry.h"

namespace infinicts::ref::cuda {
namespace {

cudaMemcpyKind ToCudaKind(infinirtMemcpyKind_t kind) {
  switch (kind) {
    case INFINIRT_MEMCPY_H2H:
      return cudaMemcpyHostToHost;
    case INFINIRT_MEMCPY_H2D:
      return cudaMemcpyHostToDevice;
    case INFINIRT_MEMCPY_D2H:
      return cudaMemcpyDeviceToHost;
    case INFINIRT_MEMCPY_D2D:
      return cudaMemcpyDeviceToDevice;
  }
  return cudaMemcpyDefault;
}

// cudaMemcpy may return before a device-to-device copy is done and cudaMemset before its
// fill is; InfiniRT's synchronous calls are complete when they return.
infiniStatus_t FinishOnLegacyStream(cudaError_t issued) {
  if (issued != cudaSuccess) return ToStatus(issued);
  return ToStatus(cudaStreamSynchronize(cudaStreamLegacy));
}

}  // namespace

infiniStatus_t CudaRuntime::Malloc(int device, void **p, size_t bytes) {
  DeviceGuard guard(device);
  if (guard.status() != INFINI_STATUS_SUCCESS) return guard.status();
  void *allocated = nullptr;
  infiniStatus_t status = ToStatus(cudaMalloc(&allocated, bytes));
  if (status != INFINI_STATUS_SUCCESS) return status;
  allocations_.AddDevice(Allocation{reinterpret_cast<uintptr_t>(allocated), bytes, device, false});
  *p = allocated;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CudaRuntime::MallocAsync(void **p, size_t bytes, infinirtStream_t stream) {
  std::optional<StreamHandle> target = FindStream(stream);
  if (!target) return INFINI_STATUS_BAD_PARAM;
  DeviceGuard guard(target->device);
  if (guard.status() != INFINI_STATUS_SUCCESS) return guard.status();
  void *allocated = nullptr;
  infiniStatus_t status = ToStatus(cudaMallocAsync(&allocated, bytes, target->stream));
  if (status != INFINI_STATUS_SUCCESS) return status;
  allocations_.AddDevice(Allocation{reinterpret_cast<uintptr_t>(allocated), bytes, target->device, true});
  *p = allocated;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CudaRuntime::MallocHost(void **p, size_t bytes) {
  // Pinned memory is portable under unified addressing: any current device will do.
  void *allocated = nullptr;
  infiniStatus_t status = ToStatus(cudaMallocHost(&allocated, bytes));
  if (status != INFINI_STATUS_SUCCESS) return status;
  allocations_.AddHost(Allocation{reinterpret_cast<uintptr_t>(allocated), bytes, -1, false});
  *p = allocated;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CudaRuntime::Free(void *p) {
  // Taken out first: a concurrent second Free of p answers BAD_PARAM, never frees twice.
  // Put back when the release fails: the allocation is still live.
  std::optional<Allocation> freed = allocations_.TakeDevice(p);
  if (!freed) return INFINI_STATUS_BAD_PARAM;
  const infiniStatus_t status = ReleaseDevice(*freed, p);
  if (status != INFINI_STATUS_SUCCESS) allocations_.AddDevice(*freed);
  return status;
}

infiniStatus_t CudaRuntime::ReleaseDevice(const Allocation &freed, void *p) {
  DeviceGuard guard(freed.device);
  if (guard.status() != INFINI_STATUS_SUCCESS) return guard.status();
  // cudaFree waits for the device's work before releasing a cudaMalloc block, but not
  // before releasing a stream-ordered one: wait here, as InfiniRT's Free is ordered after
  // all earlier work of the device.
  if (freed.stream_ordered) {
    infiniStatus_t status = ToStatus(cudaDeviceSynchronize());
    if (status != INFINI_STATUS_SUCCESS) return status;
  }
  return ToStatus(cudaFree(p));
}

infiniStatus_t CudaRuntime::FreeAsync(void *p, infinirtStream_t stream) {
  std::optional<StreamHandle> target = FindStream(stream);
  if (!target) return INFINI_STATUS_BAD_PARAM;
  std::optional<Allocation> freed = allocations_.TakeDevice(p);
  if (!freed) return INFINI_STATUS_BAD_PARAM;
  const infiniStatus_t status = ReleaseDeviceOnStream(*freed, p, *target);
  if (status != INFINI_STATUS_SUCCESS) allocations_.AddDevice(*freed);
  return status;
}

infiniStatus_t CudaRuntime::ReleaseDeviceOnStream(const Allocation &freed, void *p, const StreamHandle &target) {
  DeviceGuard guard(target.device);
  if (guard.status() != INFINI_STATUS_SUCCESS) return guard.status();
  if (freed.stream_ordered) return ToStatus(cudaFreeAsync(p, target.stream));
  // cudaFreeAsync takes only stream-ordered memory: wait for the stream to reach this
  // point, then release the cudaMalloc block.
  infiniStatus_t status = ToStatus(cudaStreamSynchronize(target.stream));
  if (status != INFINI_STATUS_SUCCESS) return status;
  DeviceGuard owner(freed.device);
  if (owner.status() != INFINI_STATUS_SUCCESS) return owner.status();
  return ToStatus(cudaFree(p));
}

infiniStatus_t CudaRuntime::FreeHost(void *p) {
  std::optional<Allocation> freed = allocations_.TakeHost(p);
  if (!freed) return INFINI_STATUS_BAD_PARAM;
  return ToStatus(cudaFreeHost(p));
}

int CudaRuntime::CopyDevice(const void *dst, const void *src, infinirtMemcpyKind_t kind) {
  const void *device_side = kind == INFINIRT_MEMCPY_D2H ? src : dst;
  if (kind != INFINIRT_MEMCPY_H2H) {
    const MemoryRange range = allocations_.Locate(device_side);
    if (range.kind == MemoryRange::Kind::kDevice) return range.device;
  }
  const CurrentDevice current = GetCurrentDevice();
  return current.type == INFINI_DEVICE_NVIDIA ? current.id : 0;
}

infiniStatus_t CudaRuntime::Memcpy(void *dst, const void *src, size_t bytes, infinirtMemcpyKind_t kind) {
  DeviceGuard guard(CopyDevice(dst, src, kind));
  if (guard.status() != INFINI_STATUS_SUCCESS) return guard.status();
  return FinishOnLegacyStream(cudaMemcpy(dst, src, bytes, ToCudaKind(kind)));
}

infiniStatus_t CudaRuntime::MemcpyAsync(void *dst, const void *src, size_t bytes, infinirtMemcpyKind_t kind,
                                        infinirtStream_t stream) {
  std::optional<StreamHandle> target = FindStream(stream);
  if (!target) return INFINI_STATUS_BAD_PARAM;
  DeviceGuard guard(target->device);
  if (guard.status() != INFINI_STATUS_SUCCESS) return guard.status();
  return ToStatus(cudaMemcpyAsync(dst, src, bytes, ToCudaKind(kind), target->stream));
}

infiniStatus_t CudaRuntime::Memset(void *p, int value, size_t bytes) {
  DeviceGuard guard(allocations_.Locate(p).device);
  if (guard.status() != INFINI_STATUS_SUCCESS) return guard.status();
  return FinishOnLegacyStream(cudaMemset(p, value, bytes));
}

infiniStatus_t CudaRuntime::MemsetAsync(void *p, int value, size_t bytes, infinirtStream_t stream) {
  std::optional<StreamHandle> target = FindStream(stream);
  if (!target) return INFINI_STATUS_BAD_PARAM;
  DeviceGuard guard(target->device);
  if (guard.status() != INFINI_STATUS_SUCCESS) return guard.status();
  return ToStatus(cudaMemsetAsync(p, value, bytes, target->stream));
}

}  // namespace infinicts::ref::cuda
