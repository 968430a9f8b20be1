// A small in-memory InfiniRT for the device layer's tests: a per-thread current
// device, a device count per type, live stream / event / allocation handles, a
// counter and the current device of every call, and switches that make a call
// answer a chosen status instead of doing its work.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "device/device.h"

namespace infinicts::device::testing {

struct FakeEvent {
  DeviceId device;
  uint32_t flags = 0;
  bool recorded = false;
  infinirtStream_t recorded_on = nullptr;
  double timestamp_ms = 0.0;
};

struct FakeAllocation {
  DeviceId device;
  size_t size = 0;
  bool host = false;
};

struct FakeRuntime {
  std::mutex mutex;
  // Configuration.
  int device_count[INFINI_DEVICE_TYPE_COUNT] = {};
  std::map<std::string, infiniStatus_t> forced_status;  // call name -> answered without doing the work
  bool events_pending = false;                          // recorded events are not reached yet
  // Observations.
  std::map<std::string, int> calls;
  std::map<std::string, DeviceId> device_at_last_call;
  std::map<infinirtStream_t, DeviceId> live_streams;
  std::map<infinirtEvent_t, FakeEvent> live_events;
  std::map<void *, FakeAllocation> live_allocations;
  infinirtStream_t last_synchronized_stream = nullptr;
  infinirtStream_t last_waiting_stream = nullptr;
  infinirtEvent_t last_waited_event = nullptr;
  infinirtEvent_t last_synchronized_event = nullptr;
  double clock_ms = 0.0;
  size_t next_handle = 1;

  int Calls(const std::string &call) {
    std::lock_guard<std::mutex> lock(mutex);
    auto found = calls.find(call);
    return found == calls.end() ? 0 : found->second;
  }
  std::optional<DeviceId> DeviceAtLastCall(const std::string &call) {
    std::lock_guard<std::mutex> lock(mutex);
    auto found = device_at_last_call.find(call);
    if (found == device_at_last_call.end()) return std::nullopt;
    return found->second;
  }
};

FakeRuntime &Fake();
// Back to a fresh state: cpu x2, nvidia x3, the rest 0; no switches, no calls, no
// handles; the calling thread's current device cpu:0.
void ResetFake();
// The current device the fake holds for the calling thread (read without a call).
DeviceId FakeCurrentDevice();
// A table whose InfiniRT members all point to the fake (infinirtInit and
// infinirtGetAllDeviceCount are left NULL: the layer never needs them).
RtApi FakeRtApi();

}  // namespace infinicts::device::testing
