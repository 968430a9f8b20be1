// How the dispatch layer finds the runtime that answers a call: by the current device,
// by the owner of a stream or event handle, or by the owner of a pointer.
#ifndef INFINICTS_REF_RUNTIME_ROUTING_H
#define INFINICTS_REF_RUNTIME_ROUTING_H

#include "runtime/registry.h"

namespace infinicts::ref {

// The runtime of the thread's current device and the device's id.
// DEVICE_TYPE_NOT_SUPPORTED when this library has no runtime for the current type.
infiniStatus_t RouteCurrentDevice(DeviceRuntime **runtime, int *device);

// The runtime owning `stream`, and the handle to give it: NULL stands for the current
// device's default stream. BAD_PARAM for a handle no runtime knows.
infiniStatus_t RouteStream(infinirtStream_t stream, DeviceRuntime **runtime, infinirtStream_t *resolved);

// The runtime owning a non-NULL event; BAD_PARAM for a handle no runtime knows.
infiniStatus_t RouteEvent(infinirtEvent_t event, DeviceRuntime **runtime);

// The runtime owning a non-NULL graph (graph exec); BAD_PARAM for a handle no runtime knows.
infiniStatus_t RouteGraph(infinirtGraph_t graph, DeviceRuntime **runtime);
infiniStatus_t RouteGraphExec(infinirtGraphExec_t exec, DeviceRuntime **runtime);

// The runtime whose allocation (device or host) contains p, and that allocation; NULL when none.
DeviceRuntime *FindAllocation(const void *p, MemoryRange *range);

// The runtime whose device memory holds all of [p, p + bytes); NULL when none does.
DeviceRuntime *FindDeviceRange(const void *p, size_t bytes);

// Whether any byte of [p, p + bytes) is device memory of any runtime.
bool TouchesDeviceMemory(const void *p, size_t bytes);

}  // namespace infinicts::ref

#endif  // INFINICTS_REF_RUNTIME_ROUTING_H
