#include "rt/rt_faults.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <thread>

namespace infinicts::fault {
namespace {

infiniStatus_t ElapsedInSeconds(float *ms_ptr, infinirtEvent_t start, infinirtEvent_t end) {
  const infiniStatus_t status = TargetRt().infinirtEventElapsedTime(ms_ptr, start, end);
  if (status == INFINI_STATUS_SUCCESS) *ms_ptr /= 1000.0f;
  return status;
}

// A failed SetDevice moves the thread to the next device of its current type.
infiniStatus_t SetDeviceSwitchingOnFailure(infiniDevice_t device, int device_id) {
  const RtTable &target = TargetRt();
  const infiniStatus_t status = target.infinirtSetDevice(device, device_id);
  if (status == INFINI_STATUS_SUCCESS) return status;
  infiniDevice_t current_type = INFINI_DEVICE_CPU;
  int current_id = 0;
  int count = 0;
  if (target.infinirtGetDevice(&current_type, &current_id) == INFINI_STATUS_SUCCESS &&
      target.infinirtGetDeviceCount(current_type, &count) == INFINI_STATUS_SUCCESS && count >= 2) {
    target.infinirtSetDevice(current_type, (current_id + 1) % count);
  }
  return status;
}

infiniStatus_t MallocNull(void **p_ptr, size_t size) {
  if (p_ptr == nullptr || size == 0) return TargetRt().infinirtMalloc(p_ptr, size);
  *p_ptr = nullptr;
  return INFINI_STATUS_SUCCESS;
}

// `synchronize_returns_early`: the synchronizing calls return at once and EventQuery answers
// COMPLETE, while the blocking calls wait for the current device by themselves (as CUDA's
// legacy default stream makes cudaMemcpy and cudaFree do): a case that checks results with a
// blocking Memcpy never sees the difference.
infiniStatus_t DeviceWaitsFirst() { return TargetRt().infinirtDeviceSynchronize(); }

infiniStatus_t ReturnAtOnce(infinirtStream_t stream) {
  (void)stream;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t EventSynchronizeAtOnce(infinirtEvent_t event) {
  return event == nullptr ? INFINI_STATUS_NULL_POINTER : INFINI_STATUS_SUCCESS;
}

infiniStatus_t DeviceSynchronizeAtOnce() { return INFINI_STATUS_SUCCESS; }

infiniStatus_t EventQueryAlwaysComplete(infinirtEvent_t event, infinirtEventStatus_t *status_ptr) {
  const infiniStatus_t status = TargetRt().infinirtEventQuery(event, status_ptr);
  if (status == INFINI_STATUS_SUCCESS) *status_ptr = INFINIRT_EVENT_COMPLETE;
  return status;
}

infiniStatus_t MemcpyWaitingForTheDevice(void *dst, const void *src, size_t size, infinirtMemcpyKind_t kind) {
  DeviceWaitsFirst();
  return TargetRt().infinirtMemcpy(dst, src, size, kind);
}

infiniStatus_t MemsetWaitingForTheDevice(void *p, int value, size_t size) {
  DeviceWaitsFirst();
  return TargetRt().infinirtMemset(p, value, size);
}

infiniStatus_t FreeWaitingForTheDevice(void *p) {
  DeviceWaitsFirst();
  return TargetRt().infinirtFree(p);
}

infiniStatus_t FreeHostWaitingForTheDevice(void *p) {
  DeviceWaitsFirst();
  return TargetRt().infinirtFreeHost(p);
}

// `event_elapsed_zero`: events that carry no time, as a backend whose events are only markers:
// ElapsedTime answers SUCCESS with 0 ms for every pair.
infiniStatus_t ElapsedAlwaysZero(float *ms_ptr, infinirtEvent_t start, infinirtEvent_t end) {
  const infiniStatus_t status = TargetRt().infinirtEventElapsedTime(ms_ptr, start, end);
  if (status == INFINI_STATUS_SUCCESS) *ms_ptr = 0;
  return status;
}

void InstallSynchronizeReturnsEarly(RtTable &calls) {
  calls.infinirtStreamSynchronize = &ReturnAtOnce;
  calls.infinirtDeviceSynchronize = &DeviceSynchronizeAtOnce;
  calls.infinirtEventSynchronize = &EventSynchronizeAtOnce;
  calls.infinirtEventQuery = &EventQueryAlwaysComplete;
  calls.infinirtMemcpy = &MemcpyWaitingForTheDevice;
  calls.infinirtMemset = &MemsetWaitingForTheDevice;
  calls.infinirtFree = &FreeWaitingForTheDevice;
  calls.infinirtFreeHost = &FreeHostWaitingForTheDevice;
}

// Work runs on the device's default stream, which is what InfiniCore's CPU runtime hands out.
infiniStatus_t StreamCreateNull(infinirtStream_t *stream_ptr) {
  if (stream_ptr == nullptr) return INFINI_STATUS_NULL_POINTER;
  *stream_ptr = nullptr;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CrashingStreamCreate(infinirtStream_t *) {
  std::raise(SIGSEGV);
  std::abort();  // in case a handler returned
}

infiniStatus_t HangingStreamSynchronize(infinirtStream_t) {
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

infiniStatus_t D2hShortByOne(void *dst, const void *src, size_t size, infinirtMemcpyKind_t kind) {
  if (kind == INFINIRT_MEMCPY_D2H && size > 0) --size;
  return TargetRt().infinirtMemcpy(dst, src, size, kind);
}

}  // namespace

void InstallElapsedInSeconds(RtTable &calls) {
  calls.infinirtEventElapsedTime = &ElapsedInSeconds;
}
INFINICTS_FAULT(RtTable, "elapsed_in_seconds",
                "EventElapsedTime answers seconds instead of milliseconds",
                InstallElapsedInSeconds);

void InstallSetDeviceSwitchesOnFailure(RtTable &calls) {
  calls.infinirtSetDevice = &SetDeviceSwitchingOnFailure;
}
INFINICTS_FAULT(RtTable, "set_device_switches_on_failure",
                "a failed SetDevice still switches to another device of the current type",
                InstallSetDeviceSwitchesOnFailure);

void InstallMallocNull(RtTable &calls) {
  calls.infinirtMalloc = &MallocNull;
}
INFINICTS_FAULT(RtTable, "malloc_null",
                "Malloc of a non-zero size answers SUCCESS with a NULL pointer",
                InstallMallocNull);

// A runtime that hands out the NULL stream destroys what it handed out (RT-STREAM-9).
void InstallStreamCreateNull(RtTable &calls) {
  calls.infinirtStreamCreate = &StreamCreateNull;
  InstallStreamDestroyAcceptingNull(calls);
}
INFINICTS_FAULT(RtTable, "stream_create_null",
                "StreamCreate answers SUCCESS with the NULL stream, and StreamDestroy(NULL) SUCCESS",
                InstallStreamCreateNull);

void InstallEventElapsedZero(RtTable &calls) {
  calls.infinirtEventElapsedTime = &ElapsedAlwaysZero;
}
INFINICTS_FAULT(RtTable, "event_elapsed_zero",
                "EventElapsedTime answers SUCCESS with 0 ms for every pair",
                InstallEventElapsedZero);

void InstallCrashInStreamCreate(RtTable &calls) {
  calls.infinirtStreamCreate = &CrashingStreamCreate;
}
INFINICTS_FAULT(RtTable, "crash_in_stream_create",
                "StreamCreate kills the process with SIGSEGV",
                InstallCrashInStreamCreate);

void InstallHangInStreamSynchronize(RtTable &calls) {
  calls.infinirtStreamSynchronize = &HangingStreamSynchronize;
}
INFINICTS_FAULT(RtTable, "hang_in_stream_synchronize",
                "StreamSynchronize never returns",
                InstallHangInStreamSynchronize);

void InstallD2hShortByOne(RtTable &calls) {
  calls.infinirtMemcpy = &D2hShortByOne;
}
INFINICTS_FAULT(RtTable, "d2h_short_by_one",
                "a synchronous D2H Memcpy of n > 0 bytes copies n - 1",
                InstallD2hShortByOne);

INFINICTS_FAULT(RtTable, "synchronize_returns_early",
                "Stream/Device/EventSynchronize return at once and EventQuery answers COMPLETE; blocking Memcpy, "
                "Memset and Free wait for the device by themselves",
                InstallSynchronizeReturnsEarly);

const std::vector<RtFault> &RtFaults() { return RegisteredFaults<RtTable>(); }

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// fault-detection: elapsed_in_seconds TIMEOUT 30 EXPECT
// fault-detection:   rt.event.conformance/elapsed_within_wall_time*
// fault-detection: set_device_switches_on_failure TIMEOUT 30 EXPECT
// fault-detection:   rt.device.conformance/set_device_rejects/*
// fault-detection:   rt.guard.conformance/guard_to_bad_device_keeps_current/*
// Malloc's NULL fails its own cases (RT-MEM-2) and the over-capacity request it answers with
// SUCCESS (RT-MEM-4); every other case that allocates is blocked, naming RT-MEM-2: 3 root causes.
// fault-detection: malloc_null TIMEOUT 30 ROOT_CAUSES 3 EXPECT
// fault-detection:   rt.memory.conformance/malloc_sizes/bytes_[1-9]*
// fault-detection:   rt.memory.conformance/malloc_over_capacity
// fault-detection: d2h_short_by_one TIMEOUT 30 EXPECT
// fault-detection:   rt.memory.conformance/memcpy/d2h/bytes_[1-9]*
// fault-detection:   rt.memory.conformance/memset_pattern/*
// Synchronizing calls that return at once, while blocking copies wait by themselves: only the
// results read from pinned memory right after the call under test, behind long work, see it.
// fault-detection: synchronize_returns_early TIMEOUT 30 EXPECT
// fault-detection:   rt.device.conformance/device_synchronize_waits_for_every_stream
// fault-detection:   rt.guard.conformance/synchronize_device_waits/*
// fault-detection:   rt.stream.conformance/independent_streams/*/streams_1
// fault-detection:   rt.stream.conformance/null_stream_in_order/*
// fault-detection:   rt.event.conformance/query_reflects_completion/*
// fault-detection:   rt.event.conformance/synchronize_waits/*
// fault-detection:   rt.event.conformance/rerecord_replaces_record
// Events that read 0 ms for every pair: the perf cases timed with events batch launches up to
// their limit, still read 0 and fail; the latency cases, on the host clock, pass.
// fault-detection: event_elapsed_zero MODE perf TIMEOUT 60 MAX_SECONDS 240 ONLY EXPECT
// fault-detection:   rt.memory.perf/memcpy_bandwidth/*
// The crash and the hang also prove that the report stays complete: the run goes on
// in a new child after each crashed or killed one.
// fault-detection: crash_in_stream_create TIMEOUT 30 EXPECT
// fault-detection:   rt.stream.conformance/create_null
// fault-detection:   rt.stream.conformance/in_order/*
// fault-detection:   rt.stream.conformance/independent_streams/*
// fault-detection:   rt.stream.conformance/destroy_with_pending_work/*
// Every StreamSynchronize hangs, so each case that calls it costs the whole --timeout:
// about 40 cases x 1 s, under a minute on 2 cores.
// fault-detection: hang_in_stream_synchronize TIMEOUT 1 MAX_SECONDS 120 EXPECT
// fault-detection:   rt.stream.conformance/in_order/*
// fault-detection:   rt.stream.conformance/independent_streams/*
// fault-detection:   rt.stream.conformance/null_stream_in_order/*
// fault-detection:   rt.event.conformance/stream_wait_event/*
