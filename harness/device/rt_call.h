// Internal helpers of the device layer: calling through an RtApi table and turning
// statuses into DeviceError (or, where nothing may throw, into a line on stderr).
#pragma once

#include "device/device.h"

namespace infinicts::device::detail {

// A member left NULL in the table answers NOT_IMPLEMENTED, like the loader's stand-ins.
template <typename Fn, typename... Args>
infiniStatus_t CallRt(Fn *function, Args... args) noexcept {
  return function == nullptr ? INFINI_STATUS_NOT_IMPLEMENTED : function(args...);
}

inline void ThrowIfFailed(infiniStatus_t status, const char *call) {
  if (status != INFINI_STATUS_SUCCESS) throw DeviceError(call, status);
}

// For destructors: a failure there cannot throw, and must not pass silently.
void ReportIgnoredFailure(const char *call, infiniStatus_t status) noexcept;

// Makes a device current for a destructor's backend call without ever throwing; the
// call is attempted even when the switch fails, since the handle names its own device.
// When the current device cannot be read it does not switch (it could not switch back).
class QuietDeviceScope {
 public:
  QuietDeviceScope(const RtApi &rt, DeviceId device) noexcept;
  ~QuietDeviceScope();
  QuietDeviceScope(const QuietDeviceScope &) = delete;
  QuietDeviceScope &operator=(const QuietDeviceScope &) = delete;

 private:
  const RtApi &rt_;
  std::optional<DeviceId> previous_;  // empty when the current device could not be read
};

}  // namespace infinicts::device::detail
