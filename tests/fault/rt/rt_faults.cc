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

const std::vector<RtFault> &RtFaults() {
  static const std::vector<RtFault> faults = {
      {"memcpy_async_out_of_order",
       "MemcpyAsync runs at the next Stream/Device/EventSynchronize, after the work enqueued behind it",
       &InstallMemcpyAsyncOutOfOrder},
      {"elapsed_in_seconds", "EventElapsedTime answers seconds instead of milliseconds",
       [](RtTable &calls) { calls.infinirtEventElapsedTime = &ElapsedInSeconds; }},
      {"set_device_switches_on_failure", "a failed SetDevice still switches to another device of the current type",
       [](RtTable &calls) { calls.infinirtSetDevice = &SetDeviceSwitchingOnFailure; }},
      {"malloc_null", "Malloc of a non-zero size answers SUCCESS with a NULL pointer",
       [](RtTable &calls) { calls.infinirtMalloc = &MallocNull; }},
      {"stream_create_null", "StreamCreate answers SUCCESS with the NULL stream",
       [](RtTable &calls) { calls.infinirtStreamCreate = &StreamCreateNull; }},
      // The runtime side of InfiniCore's CPU backend (the operator wrapper adds its check order).
      {"infinicore_cpu_like", "StreamCreate answers SUCCESS with the NULL stream",
       [](RtTable &calls) { calls.infinirtStreamCreate = &StreamCreateNull; }},
      {"crash_in_stream_create", "StreamCreate kills the process with SIGSEGV",
       [](RtTable &calls) { calls.infinirtStreamCreate = &CrashingStreamCreate; }},
      {"hang_in_stream_synchronize", "StreamSynchronize never returns",
       [](RtTable &calls) { calls.infinirtStreamSynchronize = &HangingStreamSynchronize; }},
      {"d2h_short_by_one", "a synchronous D2H Memcpy of n > 0 bytes copies n - 1",
       [](RtTable &calls) { calls.infinirtMemcpy = &D2hShortByOne; }},
  };
  return faults;
}

}  // namespace infinicts::fault
