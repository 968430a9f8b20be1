#include "device/rt_call.h"

namespace infinicts::device {

using detail::CallRt;

Stream::~Stream() {
  if (is_default()) return;  // the device's default stream is not the caller's to destroy
  detail::QuietDeviceScope scope(device_.rt(), device_.id());
  detail::ReportIgnoredFailure("infinirtStreamDestroy", CallRt(device_.rt().infinirtStreamDestroy, raw_));
}

void Stream::Synchronize() {
  ActiveDeviceGuard guard(device_.rt(), device_.id());
  detail::ThrowIfFailed(CallRt(device_.rt().infinirtStreamSynchronize, raw_), "infinirtStreamSynchronize");
}

}  // namespace infinicts::device
