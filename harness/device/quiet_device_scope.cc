#include <cstdio>

#include "backend/names.h"
#include "device/rt_call.h"

namespace infinicts::device::detail {

void ReportIgnoredFailure(const char *call, infiniStatus_t status) noexcept {
  if (status == INFINI_STATUS_SUCCESS) return;
  try {
    std::fprintf(stderr, "infinicts: %s failed in a destructor: %s (ignored)\n", call, StatusName(status).c_str());
  } catch (...) {
    // StatusName could not allocate: nothing more can be said.
  }
}

QuietDeviceScope::QuietDeviceScope(const RtApi &rt, DeviceId device) noexcept : rt_(rt) {
  DeviceId current;
  infiniStatus_t status = CallRt(rt.infinirtGetDevice, &current.type, &current.index);
  if (status != INFINI_STATUS_SUCCESS) {
    // Without the previous device a switch could not be undone: stay where we are.
    ReportIgnoredFailure("infinirtGetDevice", status);
    return;
  }
  previous_ = current;
  ReportIgnoredFailure("infinirtSetDevice", UncheckedSetDevice(rt, device));
}

QuietDeviceScope::~QuietDeviceScope() {
  if (previous_) ReportIgnoredFailure("infinirtSetDevice", UncheckedSetDevice(rt_, *previous_));
}

}  // namespace infinicts::device::detail
