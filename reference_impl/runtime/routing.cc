#include "runtime/routing.h"

namespace infinicts::ref {

infiniStatus_t RouteCurrentDevice(DeviceRuntime **runtime, int *device) {
  const CurrentDevice current = GetCurrentDevice();
  *runtime = RuntimeFor(current.type);
  if (*runtime == nullptr) return INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED;
  *device = current.id;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t RouteStream(infinirtStream_t stream, DeviceRuntime **runtime, infinirtStream_t *resolved) {
  if (stream == nullptr) {
    int device = 0;
    infiniStatus_t status = RouteCurrentDevice(runtime, &device);
    if (status != INFINI_STATUS_SUCCESS) return status;
    return (*runtime)->DefaultStream(device, resolved);
  }
  // The current device's runtime is the likely owner; ask it first.
  DeviceRuntime *current = RuntimeFor(GetCurrentDevice().type);
  if (current != nullptr && current->OwnsStream(stream)) {
    *runtime = current;
    *resolved = stream;
    return INFINI_STATUS_SUCCESS;
  }
  for (DeviceRuntime *const *it = AllRuntimes(); *it != nullptr; ++it) {
    if (*it != current && (*it)->OwnsStream(stream)) {
      *runtime = *it;
      *resolved = stream;
      return INFINI_STATUS_SUCCESS;
    }
  }
  return INFINI_STATUS_BAD_PARAM;
}

namespace {

// The runtime for which owns(runtime, handle) holds; BAD_PARAM when none does.
template <typename Owns>
infiniStatus_t RouteByOwner(void *handle, Owns owns, DeviceRuntime **runtime) {
  for (DeviceRuntime *const *it = AllRuntimes(); *it != nullptr; ++it) {
    if (owns(**it, handle)) {
      *runtime = *it;
      return INFINI_STATUS_SUCCESS;
    }
  }
  return INFINI_STATUS_BAD_PARAM;
}

}  // namespace

infiniStatus_t RouteEvent(infinirtEvent_t event, DeviceRuntime **runtime) {
  return RouteByOwner(event, [](DeviceRuntime &owner, void *handle) { return owner.OwnsEvent(handle); }, runtime);
}

infiniStatus_t RouteGraph(infinirtGraph_t graph, DeviceRuntime **runtime) {
  return RouteByOwner(graph, [](DeviceRuntime &owner, void *handle) { return owner.OwnsGraph(handle); }, runtime);
}

infiniStatus_t RouteGraphExec(infinirtGraphExec_t exec, DeviceRuntime **runtime) {
  return RouteByOwner(exec, [](DeviceRuntime &owner, void *handle) { return owner.OwnsGraphExec(handle); }, runtime);
}

DeviceRuntime *FindAllocation(const void *p, MemoryRange *range) {
  for (DeviceRuntime *const *it = AllRuntimes(); *it != nullptr; ++it) {
    *range = (*it)->Locate(p);
    if (range->kind != MemoryRange::Kind::kNone) return *it;
  }
  return nullptr;
}

DeviceRuntime *FindDeviceRange(const void *p, size_t bytes) {
  MemoryRange range;
  DeviceRuntime *owner = FindAllocation(p, &range);
  if (owner == nullptr || range.kind != MemoryRange::Kind::kDevice || !range.Holds(p, bytes)) return nullptr;
  return owner;
}

bool TouchesDeviceMemory(const void *p, size_t bytes) {
  for (DeviceRuntime *const *it = AllRuntimes(); *it != nullptr; ++it) {
    if ((*it)->OverlapsDeviceMemory(p, bytes)) return true;
  }
  return false;
}

}  // namespace infinicts::ref
