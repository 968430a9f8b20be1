// The fault `peer_copy_source_must_be_current`: a D2D copy (blocking or async) whose source
// lies on another device than the current one answers INTERNAL_ERROR and copies nothing, as a
// backend that can only push data from the current device would. Copies within one device,
// and peer copies made with the source's device current, work.
#include <map>
#include <mutex>

#include "rt/rt_faults.h"

namespace infinicts::fault {
namespace {

struct Allocation {
  size_t size;
  int device;
};

std::mutex allocations_mutex;
std::map<const char *, Allocation> allocations;  // by start

int CurrentDeviceId() {
  infiniDevice_t type = INFINI_DEVICE_CPU;
  int id = -1;
  return TargetRt().infinirtGetDevice(&type, &id) == INFINI_STATUS_SUCCESS ? id : -1;
}

// The device of the allocation holding `p`, or -1.
int DeviceOf(const void *p) {
  const char *address = static_cast<const char *>(p);
  std::lock_guard<std::mutex> lock(allocations_mutex);
  auto found = allocations.upper_bound(address);
  if (found == allocations.begin()) return -1;
  --found;
  return address < found->first + found->second.size ? found->second.device : -1;
}

bool FromAnotherDevice(const void *src, infinirtMemcpyKind_t kind) {
  if (kind != INFINIRT_MEMCPY_D2D) return false;
  const int source = DeviceOf(src);
  return source >= 0 && source != CurrentDeviceId();
}

infiniStatus_t MallocRecorded(void **p_ptr, size_t size) {
  const infiniStatus_t status = TargetRt().infinirtMalloc(p_ptr, size);
  if (status == INFINI_STATUS_SUCCESS && *p_ptr != nullptr && size > 0) {
    std::lock_guard<std::mutex> lock(allocations_mutex);
    allocations[static_cast<const char *>(*p_ptr)] = {size, CurrentDeviceId()};
  }
  return status;
}

infiniStatus_t FreeForgetting(void *p) {
  {
    std::lock_guard<std::mutex> lock(allocations_mutex);
    allocations.erase(static_cast<const char *>(p));
  }
  return TargetRt().infinirtFree(p);
}

infiniStatus_t FreeAsyncForgetting(void *p, infinirtStream_t stream) {
  {
    std::lock_guard<std::mutex> lock(allocations_mutex);
    allocations.erase(static_cast<const char *>(p));
  }
  return TargetRt().infinirtFreeAsync(p, stream);
}

infiniStatus_t MemcpyOnlyFromCurrent(void *dst, const void *src, size_t size, infinirtMemcpyKind_t kind) {
  if (size > 0 && FromAnotherDevice(src, kind)) return INFINI_STATUS_INTERNAL_ERROR;
  return TargetRt().infinirtMemcpy(dst, src, size, kind);
}

infiniStatus_t MemcpyAsyncOnlyFromCurrent(void *dst, const void *src, size_t size, infinirtMemcpyKind_t kind,
                                          infinirtStream_t stream) {
  if (size > 0 && FromAnotherDevice(src, kind)) return INFINI_STATUS_INTERNAL_ERROR;
  return TargetRt().infinirtMemcpyAsync(dst, src, size, kind, stream);
}

}  // namespace

void InstallPeerCopySourceMustBeCurrent(RtTable &calls) {
  calls.infinirtMalloc = &MallocRecorded;
  calls.infinirtFree = &FreeForgetting;
  calls.infinirtFreeAsync = &FreeAsyncForgetting;
  calls.infinirtMemcpy = &MemcpyOnlyFromCurrent;
  calls.infinirtMemcpyAsync = &MemcpyAsyncOnlyFromCurrent;
}

INFINICTS_FAULT(RtTable, "peer_copy_source_must_be_current",
                "a D2D copy whose source is on another device than the current one answers INTERNAL_ERROR",
                InstallPeerCopySourceMustBeCurrent);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Peer copies work with the source's device current only: the cases with the destination's fail,
// and the cross-device event case, which copies so, is blocked by them.
// fault-detection: peer_copy_source_must_be_current TIMEOUT 30 ONLY EXPECT
// fault-detection:   rt.memory.conformance/peer_copy/*/destination_current
// fault-detection:   BLOCKED rt.event.conformance/wait_for_another_devices_event
