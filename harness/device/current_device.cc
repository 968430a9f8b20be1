// PyTorch's device guard primitives over InfiniRT's per-thread current device.
#include <cstdio>

#include "device/rt_call.h"

namespace infinicts::device {

using detail::CallRt;

DeviceId GetCurrentDevice(const RtApi &rt) {
  DeviceId current;
  detail::ThrowIfFailed(CallRt(rt.infinirtGetDevice, &current.type, &current.index), "infinirtGetDevice");
  return current;
}

int GetDeviceCount(const RtApi &rt, infiniDevice_t type) noexcept {
  int count = 0;
  if (CallRt(rt.infinirtGetDeviceCount, type, &count) != INFINI_STATUS_SUCCESS) return 0;
  return count < 0 ? 0 : count;
}

DeviceId ExchangeDevice(const RtApi &rt, DeviceId device) {
  DeviceId previous = GetCurrentDevice(rt);
  if (previous == device) return previous;
  infiniStatus_t status = CallRt(rt.infinirtSetDevice, device.type, device.index);
  if (status != INFINI_STATUS_SUCCESS) throw DeviceError("infinirtSetDevice(" + ToString(device) + ")", status);
  return previous;
}

infiniStatus_t UncheckedSetDevice(const RtApi &rt, DeviceId device) noexcept {
  DeviceId current;
  if (CallRt(rt.infinirtGetDevice, &current.type, &current.index) == INFINI_STATUS_SUCCESS && current == device) {
    return INFINI_STATUS_SUCCESS;
  }
  return CallRt(rt.infinirtSetDevice, device.type, device.index);
}

void SynchronizeDevice(const RtApi &rt, DeviceId device) {
  ActiveDeviceGuard guard(rt, device);
  detail::ThrowIfFailed(CallRt(rt.infinirtDeviceSynchronize), "infinirtDeviceSynchronize");
}

ActiveDeviceGuard::ActiveDeviceGuard(const RtApi &rt, DeviceId device)
    : rt_(rt), device_(device), previous_(ExchangeDevice(rt, device)) {}

ActiveDeviceGuard::~ActiveDeviceGuard() {
  infiniStatus_t status = UncheckedSetDevice(rt_, previous_);
  if (status != INFINI_STATUS_SUCCESS) {
    // The thread is left on the guarded device; say so, since a destructor cannot throw.
    try {
      std::fprintf(stderr, "infinicts: could not restore device %s after a guard on %s: %s\n",
                   ToString(previous_).c_str(), ToString(device_).c_str(), DeviceError("infinirtSetDevice", status).what());
    } catch (...) {
    }
  }
}

}  // namespace infinicts::device
