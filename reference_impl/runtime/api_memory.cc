// InfiniRT: memory. The checks on pointers live here, once for every runtime: a device
// side must lie wholly inside one live device allocation, a host side must not touch
// device memory, and a copy between two device allocations stays within one device type.
#include "runtime/routing.h"

using infinicts::ref::DeviceRuntime;
using infinicts::ref::MemoryRange;

namespace {

bool KindInRange(infinirtMemcpyKind_t kind) { return kind >= INFINIRT_MEMCPY_H2H && kind <= INFINIRT_MEMCPY_D2D; }

// For a copy of bytes > 0 between non-NULL pointers: the runtime owning its device side
// (NULL for H2H, which has none), or BAD_PARAM when a side is not where `kind` says.
infiniStatus_t RouteCopy(void *dst, const void *src, size_t bytes, infinirtMemcpyKind_t kind,
                         DeviceRuntime **device_owner) {
  using infinicts::ref::FindDeviceRange;
  using infinicts::ref::TouchesDeviceMemory;
  *device_owner = nullptr;
  switch (kind) {
    case INFINIRT_MEMCPY_H2H:
      if (TouchesDeviceMemory(dst, bytes) || TouchesDeviceMemory(src, bytes)) return INFINI_STATUS_BAD_PARAM;
      return INFINI_STATUS_SUCCESS;
    case INFINIRT_MEMCPY_H2D:
      *device_owner = FindDeviceRange(dst, bytes);
      if (*device_owner == nullptr || TouchesDeviceMemory(src, bytes)) return INFINI_STATUS_BAD_PARAM;
      return INFINI_STATUS_SUCCESS;
    case INFINIRT_MEMCPY_D2H:
      *device_owner = FindDeviceRange(src, bytes);
      if (*device_owner == nullptr || TouchesDeviceMemory(dst, bytes)) return INFINI_STATUS_BAD_PARAM;
      return INFINI_STATUS_SUCCESS;
    case INFINIRT_MEMCPY_D2D: {
      *device_owner = FindDeviceRange(dst, bytes);
      DeviceRuntime *source_owner = FindDeviceRange(src, bytes);
      if (*device_owner == nullptr || source_owner != *device_owner) return INFINI_STATUS_BAD_PARAM;
      return INFINI_STATUS_SUCCESS;
    }
  }
  return INFINI_STATUS_BAD_PARAM;
}

// The runtime owning the allocation (device or host) containing p; BAD_PARAM when none does.
// Whether p starts it, and is of the right kind, the runtime checks as it releases it.
infiniStatus_t RouteAllocation(const void *p, DeviceRuntime **owner) {
  MemoryRange range;
  *owner = infinicts::ref::FindAllocation(p, &range);
  return *owner == nullptr ? INFINI_STATUS_BAD_PARAM : INFINI_STATUS_SUCCESS;
}

}  // namespace

__INFINI_C infiniStatus_t infinirtMalloc(void **p_ptr, size_t size) {
  if (p_ptr == nullptr) return INFINI_STATUS_NULL_POINTER;
  if (size == 0) {
    *p_ptr = nullptr;
    return INFINI_STATUS_SUCCESS;
  }
  DeviceRuntime *runtime = nullptr;
  int device = 0;
  infiniStatus_t status = infinicts::ref::RouteCurrentDevice(&runtime, &device);
  if (status != INFINI_STATUS_SUCCESS) return status;
  return runtime->Malloc(device, p_ptr, size);
}

__INFINI_C infiniStatus_t infinirtMallocHost(void **p_ptr, size_t size) {
  if (p_ptr == nullptr) return INFINI_STATUS_NULL_POINTER;
  if (size == 0) {
    *p_ptr = nullptr;
    return INFINI_STATUS_SUCCESS;
  }
  DeviceRuntime *runtime = nullptr;
  int device = 0;
  infiniStatus_t status = infinicts::ref::RouteCurrentDevice(&runtime, &device);
  if (status != INFINI_STATUS_SUCCESS) return status;
  return runtime->MallocHost(p_ptr, size);
}

__INFINI_C infiniStatus_t infinirtMallocAsync(void **p_ptr, size_t size, infinirtStream_t stream) {
  if (p_ptr == nullptr) return INFINI_STATUS_NULL_POINTER;
  if (size == 0) {
    *p_ptr = nullptr;
    return INFINI_STATUS_SUCCESS;
  }
  DeviceRuntime *runtime = nullptr;
  infiniStatus_t status = infinicts::ref::RouteStream(stream, &runtime, &stream);
  if (status != INFINI_STATUS_SUCCESS) return status;
  return runtime->MallocAsync(p_ptr, size, stream);
}

__INFINI_C infiniStatus_t infinirtFree(void *ptr) {
  if (ptr == nullptr) return INFINI_STATUS_SUCCESS;
  DeviceRuntime *owner = nullptr;
  infiniStatus_t status = RouteAllocation(ptr, &owner);
  if (status != INFINI_STATUS_SUCCESS) return status;
  return owner->Free(ptr);
}

__INFINI_C infiniStatus_t infinirtFreeHost(void *ptr) {
  if (ptr == nullptr) return INFINI_STATUS_SUCCESS;
  DeviceRuntime *owner = nullptr;
  infiniStatus_t status = RouteAllocation(ptr, &owner);
  if (status != INFINI_STATUS_SUCCESS) return status;
  return owner->FreeHost(ptr);
}

__INFINI_C infiniStatus_t infinirtFreeAsync(void *ptr, infinirtStream_t stream) {
  if (ptr == nullptr) return INFINI_STATUS_SUCCESS;
  DeviceRuntime *owner = nullptr;
  infiniStatus_t status = RouteAllocation(ptr, &owner);
  if (status != INFINI_STATUS_SUCCESS) return status;
  DeviceRuntime *stream_runtime = nullptr;
  status = infinicts::ref::RouteStream(stream, &stream_runtime, &stream);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (stream_runtime != owner) return INFINI_STATUS_BAD_PARAM;
  return owner->FreeAsync(ptr, stream);
}

__INFINI_C infiniStatus_t infinirtMemcpy(void *dst, const void *src, size_t size, infinirtMemcpyKind_t kind) {
  if (size == 0) return INFINI_STATUS_SUCCESS;
  if (dst == nullptr || src == nullptr) return INFINI_STATUS_NULL_POINTER;
  if (!KindInRange(kind)) return INFINI_STATUS_BAD_PARAM;
  DeviceRuntime *runtime = nullptr;
  infiniStatus_t status = RouteCopy(dst, src, size, kind, &runtime);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (runtime == nullptr) {  // H2H: the current device's runtime copies
    int device = 0;
    status = infinicts::ref::RouteCurrentDevice(&runtime, &device);
    if (status != INFINI_STATUS_SUCCESS) return status;
  }
  return runtime->Memcpy(dst, src, size, kind);
}

__INFINI_C infiniStatus_t infinirtMemcpyAsync(void *dst, const void *src, size_t size, infinirtMemcpyKind_t kind,
                                              infinirtStream_t stream) {
  if (size == 0) return INFINI_STATUS_SUCCESS;
  if (dst == nullptr || src == nullptr) return INFINI_STATUS_NULL_POINTER;
  if (!KindInRange(kind)) return INFINI_STATUS_BAD_PARAM;
  DeviceRuntime *device_owner = nullptr;
  infiniStatus_t status = RouteCopy(dst, src, size, kind, &device_owner);
  if (status != INFINI_STATUS_SUCCESS) return status;
  DeviceRuntime *stream_runtime = nullptr;
  status = infinicts::ref::RouteStream(stream, &stream_runtime, &stream);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (device_owner != nullptr && device_owner != stream_runtime) return INFINI_STATUS_BAD_PARAM;
  return stream_runtime->MemcpyAsync(dst, src, size, kind, stream);
}

__INFINI_C infiniStatus_t infinirtMemset(void *ptr, int value, size_t size) {
  if (size == 0) return INFINI_STATUS_SUCCESS;
  if (ptr == nullptr) return INFINI_STATUS_NULL_POINTER;
  DeviceRuntime *owner = infinicts::ref::FindDeviceRange(ptr, size);
  if (owner == nullptr) return INFINI_STATUS_BAD_PARAM;
  return owner->Memset(ptr, value, size);
}

__INFINI_C infiniStatus_t infinirtMemsetAsync(void *ptr, int value, size_t size, infinirtStream_t stream) {
  if (size == 0) return INFINI_STATUS_SUCCESS;
  if (ptr == nullptr) return INFINI_STATUS_NULL_POINTER;
  DeviceRuntime *owner = infinicts::ref::FindDeviceRange(ptr, size);
  if (owner == nullptr) return INFINI_STATUS_BAD_PARAM;
  DeviceRuntime *stream_runtime = nullptr;
  infiniStatus_t status = infinicts::ref::RouteStream(stream, &stream_runtime, &stream);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (stream_runtime != owner) return INFINI_STATUS_BAD_PARAM;
  return owner->MemsetAsync(ptr, value, size, stream);
}
