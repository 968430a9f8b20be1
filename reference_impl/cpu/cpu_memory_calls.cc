// The CPU runtime: memory. Ranges arrive validated by the dispatch layer.
#include <cstring>

#include "cpu/cpu_runtime.h"

namespace infinicts::ref::cpu {
namespace {

void CopyBytes(void *dst, const void *src, size_t bytes) {
  const uintptr_t to = reinterpret_cast<uintptr_t>(dst);
  const uintptr_t from = reinterpret_cast<uintptr_t>(src);
  const bool overlapping = to < from + bytes && from < to + bytes;
  if (overlapping) {
    std::memmove(dst, src, bytes);
  } else {
    std::memcpy(dst, src, bytes);
  }
}

bool DeviceSideIsDestination(infinirtMemcpyKind_t kind) {
  return kind == INFINIRT_MEMCPY_H2D || kind == INFINIRT_MEMCPY_D2D;
}

bool DeviceSideIsSource(infinirtMemcpyKind_t kind) {
  return kind == INFINIRT_MEMCPY_D2H || kind == INFINIRT_MEMCPY_D2D;
}

}  // namespace

void CpuRuntime::WaitImplicitly(int device) {
  if (!Stream::CallerIsAnyWorker()) WaitForDevice(device);
}

void CpuRuntime::WaitBeforeTouching(const void *device_memory) {
  const MemoryRange range = memory_.Locate(device_memory);
  if (range.kind == MemoryRange::Kind::kDevice) WaitImplicitly(range.device);
}

infiniStatus_t CpuRuntime::Malloc(int device, void **p, size_t bytes) {
  return memory_.AllocateDevice(device, bytes, p);
}

infiniStatus_t CpuRuntime::MallocAsync(void **p, size_t bytes, infinirtStream_t stream) {
  // Allocated at once on the stream's device: usable by all work enqueued after this call.
  int device = 0;
  infiniStatus_t status = StreamDevice(stream, &device);
  if (status != INFINI_STATUS_SUCCESS) return status;
  // A graph would allocate once, at capture, and free on every launch: no memory nodes here.
  if (IsCapturing(stream)) return INFINI_STATUS_BAD_PARAM;
  return memory_.AllocateDevice(device, bytes, p);
}

infiniStatus_t CpuRuntime::MallocHost(void **p, size_t bytes) { return memory_.AllocateHost(bytes, p); }

infiniStatus_t CpuRuntime::Free(void *p) {
  Allocation retired{};
  infiniStatus_t status = memory_.RetireDevice(p, &retired);
  if (status != INFINI_STATUS_SUCCESS) return status;
  // Work already enqueued on the device may still use the memory.
  WaitImplicitly(retired.device);
  memory_.Release(retired);
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CpuRuntime::FreeAsync(void *p, infinirtStream_t stream) {
  std::shared_ptr<Stream> target = FindStream(stream);
  if (target == nullptr || IsCapturing(stream)) return INFINI_STATUS_BAD_PARAM;
  Allocation retired{};
  infiniStatus_t status = memory_.RetireDevice(p, &retired);
  if (status != INFINI_STATUS_SUCCESS) return status;
  // The bytes come back (to the host and to the device's capacity) when the stream gets here.
  if (!target->Enqueue([this, retired] { memory_.Release(retired); })) {
    memory_.Release(retired);  // the stream was destroyed meanwhile: nothing left to order after
  }
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CpuRuntime::FreeHost(void *p) {
  Allocation retired{};
  infiniStatus_t status = memory_.RetireHost(p, &retired);
  if (status != INFINI_STATUS_SUCCESS) return status;
  WaitImplicitly(-1);  // pinned memory may be the host side of pending copies on any device
  memory_.Release(retired);
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CpuRuntime::Memcpy(void *dst, const void *src, size_t bytes, infinirtMemcpyKind_t kind) {
  if (DeviceSideIsDestination(kind)) WaitBeforeTouching(dst);
  if (DeviceSideIsSource(kind)) WaitBeforeTouching(src);
  CopyBytes(dst, src, bytes);
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CpuRuntime::MemcpyAsync(void *dst, const void *src, size_t bytes, infinirtMemcpyKind_t,
                                       infinirtStream_t stream) {
  return Enqueue(stream, [dst, src, bytes] { CopyBytes(dst, src, bytes); }, Replay::kReplayable);
}

infiniStatus_t CpuRuntime::Memset(void *p, int value, size_t bytes) {
  WaitBeforeTouching(p);
  std::memset(p, static_cast<unsigned char>(value), bytes);
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CpuRuntime::MemsetAsync(void *p, int value, size_t bytes, infinirtStream_t stream) {
  const unsigned char byte = static_cast<unsigned char>(value);
  return Enqueue(stream, [p, byte, bytes] { std::memset(p, byte, bytes); }, Replay::kReplayable);
}

}  // namespace infinicts::ref::cpu
