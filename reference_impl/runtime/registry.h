// The runtimes this library holds, by device type, and the calling thread's current device.
#ifndef INFINICTS_REF_RUNTIME_REGISTRY_H
#define INFINICTS_REF_RUNTIME_REGISTRY_H

#include "runtime/device_runtime.h"

namespace infinicts::ref {

// The runtime of a device type, or NULL where this library has none (or `type` is out of range).
DeviceRuntime *RuntimeFor(infiniDevice_t type);
// Every runtime this library has, each with at least one device; ends at a NULL entry.
DeviceRuntime *const *AllRuntimes();

struct CurrentDevice {
  infiniDevice_t type;
  int id;
};
// Per thread; a new thread starts at (CPU, 0).
CurrentDevice GetCurrentDevice();
void SetCurrentDevice(CurrentDevice device);

}  // namespace infinicts::ref

#endif  // INFINICTS_REF_RUNTIME_REGISTRY_H
