// The infinictsRef entry points for the sibling reference libraries (see
// include/infinicts_ref/runtime_internal.h).
#include "infinicts_ref/runtime_internal.h"

#include "cpu/host_blocks.h"
#include "runtime/routing.h"

using infinicts::ref::DeviceRuntime;

__INFINI_C infiniStatus_t infinictsRefStreamEnqueue(infinirtStream_t stream, void (*fn)(void *), void *arg) {
  if (fn == nullptr) return INFINI_STATUS_NULL_POINTER;
  DeviceRuntime *runtime = nullptr;
  infiniStatus_t status = infinicts::ref::RouteStream(stream, &runtime, &stream);
  if (status != INFINI_STATUS_SUCCESS) return status;
  return runtime->LaunchHostFunc(stream, fn, arg);
}

__INFINI_C infiniStatus_t infinictsRefStreamEnqueueReplayable(infinirtStream_t stream, void (*fn)(void *), void *arg,
                                                               void (*release)(void *)) {
  infiniStatus_t status = INFINI_STATUS_NULL_POINTER;
  if (fn != nullptr) {
    DeviceRuntime *runtime = nullptr;
    status = infinicts::ref::RouteStream(stream, &runtime, &stream);
    if (status == INFINI_STATUS_SUCCESS) status = runtime->LaunchReplayableHostFunc(stream, fn, arg, release);
  }
  // Refused work never runs: what it holds goes at once.
  if (status != INFINI_STATUS_SUCCESS && release != nullptr) release(arg);
  return status;
}

__INFINI_C infiniStatus_t infinictsRefStreamDevice(infinirtStream_t stream, infiniDevice_t *type, int *device_id) {
  if (type == nullptr || device_id == nullptr) return INFINI_STATUS_NULL_POINTER;
  DeviceRuntime *runtime = nullptr;
  infiniStatus_t status = infinicts::ref::RouteStream(stream, &runtime, &stream);
  if (status != INFINI_STATUS_SUCCESS) return status;
  int device = 0;
  status = runtime->StreamDevice(stream, &device);
  if (status != INFINI_STATUS_SUCCESS) return status;
  *type = runtime->Type();
  *device_id = device;
  return INFINI_STATUS_SUCCESS;
}

__INFINI_C infiniStatus_t infinictsRefStreamRunsAtCall(infinirtStream_t stream, int *runs_at_call) {
  if (runs_at_call == nullptr) return INFINI_STATUS_NULL_POINTER;
  DeviceRuntime *runtime = nullptr;
  const infiniStatus_t status = infinicts::ref::RouteStream(stream, &runtime, &stream);
  if (status != INFINI_STATUS_SUCCESS) return status;
  *runs_at_call = runtime->RunsWorkAtCall() ? 1 : 0;
  return INFINI_STATUS_SUCCESS;
}

__INFINI_C infiniStatus_t infinictsRefPointerDevice(const void *ptr, size_t size, infiniDevice_t *type,
                                                    int *device_id) {
  if (ptr == nullptr || type == nullptr || device_id == nullptr) return INFINI_STATUS_NULL_POINTER;
  infinicts::ref::MemoryRange range;
  DeviceRuntime *owner = infinicts::ref::FindAllocation(ptr, &range);
  if (owner == nullptr || range.kind != infinicts::ref::MemoryRange::Kind::kDevice ||
      !range.Holds(ptr, size == 0 ? 1 : size)) {
    return INFINI_STATUS_BAD_PARAM;
  }
  *type = owner->Type();
  *device_id = range.device;
  return INFINI_STATUS_SUCCESS;
}

__INFINI_C void infinictsRefShareLargeDeviceBlocks(void) { infinicts::ref::cpu::MakeLargeBlocksShareable(); }

__INFINI_C infiniStatus_t infinictsRefSharedBlock(const void *ptr, size_t size, int *fd, size_t *offset,
                                                  size_t *block_bytes, uint64_t *serial) {
  if (ptr == nullptr || fd == nullptr || offset == nullptr || block_bytes == nullptr || serial == nullptr) {
    return INFINI_STATUS_NULL_POINTER;
  }
  infinicts::ref::MemoryRange range;
  if (infinicts::ref::FindAllocation(ptr, &range) == nullptr || range.kind != infinicts::ref::MemoryRange::Kind::kDevice ||
      range.shared_fd < 0 || !range.Holds(ptr, size == 0 ? 1 : size)) {
    return INFINI_STATUS_BAD_PARAM;
  }
  *fd = range.shared_fd;
  *offset = static_cast<size_t>(static_cast<const char *>(ptr) - range.base);
  *block_bytes = range.shared_bytes;
  *serial = range.shared_serial;
  return INFINI_STATUS_SUCCESS;
}
