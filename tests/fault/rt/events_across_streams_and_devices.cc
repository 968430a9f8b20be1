// Two faults of events that hold on one stream and one device but not across them:
// - `event_clock_per_stream`: each stream stamps its events on a clock of its own, started when
//   the stream was created, so elapsed times between two streams are off by the difference of
//   their ages (and right on one stream, where the origins cancel);
// - `stream_wait_ignores_other_devices_events`: StreamWaitEvent answers SUCCESS without waiting
//   when the event belongs to another device than the current one (a wait that looks the
//   event up among the current device's).
#include <chrono>
#include <map>
#include <mutex>

#include "rt/rt_faults.h"

namespace infinicts::fault {
namespace {

using Clock = std::chrono::steady_clock;

std::mutex g_mutex;
const Clock::time_point g_process_start = Clock::now();  // the NULL stream's origin
std::map<infinirtStream_t, Clock::time_point> g_stream_origins;
std::map<infinirtEvent_t, infinirtStream_t> g_recorded_on;  // each event's latest record
std::map<infinirtEvent_t, int> g_event_devices;

// ---- event_clock_per_stream

Clock::time_point OriginOf(infinirtStream_t stream) {
  const auto found = g_stream_origins.find(stream);
  return found == g_stream_origins.end() ? g_process_start : found->second;
}

infiniStatus_t StreamCreateStartingAClock(infinirtStream_t *stream_ptr) {
  const infiniStatus_t status = TargetRt().infinirtStreamCreate(stream_ptr);
  if (status == INFINI_STATUS_SUCCESS && stream_ptr != nullptr && *stream_ptr != nullptr) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_stream_origins[*stream_ptr] = Clock::now();
  }
  return status;
}

infiniStatus_t RecordNotingStream(infinirtEvent_t event, infinirtStream_t stream) {
  const infiniStatus_t status = TargetRt().infinirtEventRecord(event, stream);
  if (status == INFINI_STATUS_SUCCESS) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_recorded_on[event] = stream;
  }
  return status;
}

infiniStatus_t ElapsedOnStreamClocks(float *ms_ptr, infinirtEvent_t start, infinirtEvent_t end) {
  const infiniStatus_t status = TargetRt().infinirtEventElapsedTime(ms_ptr, start, end);
  if (status != INFINI_STATUS_SUCCESS) return status;
  std::lock_guard<std::mutex> lock(g_mutex);
  const auto from = g_recorded_on.find(start), to = g_recorded_on.find(end);
  if (from != g_recorded_on.end() && to != g_recorded_on.end()) {
    *ms_ptr -= std::chrono::duration<float, std::milli>(OriginOf(to->second) - OriginOf(from->second)).count();
  }
  return status;
}

// ---- stream_wait_ignores_other_devices_events

void NoteDevice(infinirtEvent_t event) {
  infiniDevice_t type{};
  int id = -1;
  if (TargetRt().infinirtGetDevice(&type, &id) != INFINI_STATUS_SUCCESS) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  g_event_devices[event] = id;
}

infiniStatus_t EventCreateNotingDevice(infinirtEvent_t *event_ptr) {
  const infiniStatus_t status = TargetRt().infinirtEventCreate(event_ptr);
  if (status == INFINI_STATUS_SUCCESS && event_ptr != nullptr) NoteDevice(*event_ptr);
  return status;
}

infiniStatus_t EventCreateWithFlagsNotingDevice(infinirtEvent_t *event_ptr, uint32_t flags) {
  const infiniStatus_t status = TargetRt().infinirtEventCreateWithFlags(event_ptr, flags);
  if (status == INFINI_STATUS_SUCCESS && event_ptr != nullptr) NoteDevice(*event_ptr);
  return status;
}

infiniStatus_t WaitOnCurrentDevicesEventsOnly(infinirtStream_t stream, infinirtEvent_t event) {
  infiniDevice_t type{};
  int current = -1;
  if (event != nullptr && TargetRt().infinirtGetDevice(&type, &current) == INFINI_STATUS_SUCCESS) {
    std::lock_guard<std::mutex> lock(g_mutex);
    const auto found = g_event_devices.find(event);
    if (found != g_event_devices.end() && found->second != current) return INFINI_STATUS_SUCCESS;
  }
  return TargetRt().infinirtStreamWaitEvent(stream, event);
}

}  // namespace

void InstallEventClockPerStream(RtTable &calls) {
  calls.infinirtStreamCreate = &StreamCreateStartingAClock;
  calls.infinirtEventRecord = &RecordNotingStream;
  calls.infinirtEventElapsedTime = &ElapsedOnStreamClocks;
}

void InstallStreamWaitIgnoresOtherDevicesEvents(RtTable &calls) {
  calls.infinirtEventCreate = &EventCreateNotingDevice;
  calls.infinirtEventCreateWithFlags = &EventCreateWithFlagsNotingDevice;
  calls.infinirtStreamWaitEvent = &WaitOnCurrentDevicesEventsOnly;
}

INFINICTS_FAULT(RtTable, "event_clock_per_stream",
                "each stream stamps its events on a clock started when the stream was created",
                InstallEventClockPerStream);

INFINICTS_FAULT(RtTable, "stream_wait_ignores_other_devices_events",
                "StreamWaitEvent answers SUCCESS without waiting for an event of another device than the current "
                "one",
                InstallStreamWaitIgnoresOtherDevicesEvents);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Stream clocks that differ by the streams' ages: only elapsed times across two streams.
// fault-detection: event_clock_per_stream TIMEOUT 30 ONLY EXPECT
// fault-detection:   rt.event.conformance/elapsed_across_streams
// A wait for another device's event that does not wait.
// fault-detection: stream_wait_ignores_other_devices_events TIMEOUT 30 ONLY EXPECT
// fault-detection:   rt.event.conformance/wait_for_another_devices_event
