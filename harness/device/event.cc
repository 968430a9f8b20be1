#include "device/rt_call.h"

namespace infinicts::device {

using detail::CallRt;

Event::~Event() {
  detail::QuietDeviceScope scope(device_.rt(), device_.id());
  detail::ReportIgnoredFailure("infinirtEventDestroy", CallRt(device_.rt().infinirtEventDestroy, raw_));
}

void Event::Record(Stream *stream) {
  ActiveDeviceGuard guard(device_.rt(), device_.id());
  infinirtStream_t raw_stream = stream == nullptr ? nullptr : stream->raw();
  detail::ThrowIfFailed(CallRt(device_.rt().infinirtEventRecord, raw_, raw_stream), "infinirtEventRecord");
}

bool Event::Query() {
  ActiveDeviceGuard guard(device_.rt(), device_.id());
  infinirtEventStatus_t status = INFINIRT_EVENT_NOT_READY;
  detail::ThrowIfFailed(CallRt(device_.rt().infinirtEventQuery, raw_, &status), "infinirtEventQuery");
  return status == INFINIRT_EVENT_COMPLETE;
}

void Event::Synchronize() {
  ActiveDeviceGuard guard(device_.rt(), device_.id());
  detail::ThrowIfFailed(CallRt(device_.rt().infinirtEventSynchronize, raw_), "infinirtEventSynchronize");
}

float Event::ElapsedMsSince(const Event &start) const {
  ActiveDeviceGuard guard(device_.rt(), device_.id());
  float ms = 0.0f;
  detail::ThrowIfFailed(CallRt(device_.rt().infinirtEventElapsedTime, &ms, start.raw(), raw_),
                        "infinirtEventElapsedTime");
  return ms;
}

}  // namespace infinicts::device
