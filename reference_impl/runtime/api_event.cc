// InfiniRT: events.
#include "runtime/routing.h"

using infinicts::ref::DeviceRuntime;

namespace {

constexpr uint32_t kKnownEventFlags = INFINIRT_EVENT_DISABLE_TIMING | INFINIRT_EVENT_BLOCKING_SYNC;

// The runtime of a handle given to one of the event calls; NULL handle -> NULL_POINTER.
infiniStatus_t RouteNonNullEvent(infinirtEvent_t event, DeviceRuntime **runtime) {
  if (event == nullptr) return INFINI_STATUS_NULL_POINTER;
  return infinicts::ref::RouteEvent(event, runtime);
}

}  // namespace

__INFINI_C infiniStatus_t infinirtEventCreateWithFlags(infinirtEvent_t *event_ptr, uint32_t flags) {
  if (event_ptr == nullptr) return INFINI_STATUS_NULL_POINTER;
  if ((flags & ~kKnownEventFlags) != 0) return INFINI_STATUS_BAD_PARAM;
  DeviceRuntime *runtime = nullptr;
  int device = 0;
  infiniStatus_t status = infinicts::ref::RouteCurrentDevice(&runtime, &device);
  if (status != INFINI_STATUS_SUCCESS) return status;
  return runtime->CreateEvent(device, flags, event_ptr);
}

__INFINI_C infiniStatus_t infinirtEventCreate(infinirtEvent_t *event_ptr) {
  return infinirtEventCreateWithFlags(event_ptr, INFINIRT_EVENT_DEFAULT);
}

__INFINI_C infiniStatus_t infinirtEventRecord(infinirtEvent_t event, infinirtStream_t stream) {
  DeviceRuntime *event_runtime = nullptr;
  infiniStatus_t status = RouteNonNullEvent(event, &event_runtime);
  if (status != INFINI_STATUS_SUCCESS) return status;
  DeviceRuntime *stream_runtime = nullptr;
  status = infinicts::ref::RouteStream(stream, &stream_runtime, &stream);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (event_runtime != stream_runtime) return INFINI_STATUS_BAD_PARAM;
  return event_runtime->RecordEvent(event, stream);
}

__INFINI_C infiniStatus_t infinirtEventQuery(infinirtEvent_t event, infinirtEventStatus_t *status_ptr) {
  if (status_ptr == nullptr) return INFINI_STATUS_NULL_POINTER;
  DeviceRuntime *runtime = nullptr;
  infiniStatus_t status = RouteNonNullEvent(event, &runtime);
  if (status != INFINI_STATUS_SUCCESS) return status;
  return runtime->QueryEvent(event, status_ptr);
}

__INFINI_C infiniStatus_t infinirtEventSynchronize(infinirtEvent_t event) {
  DeviceRuntime *runtime = nullptr;
  infiniStatus_t status = RouteNonNullEvent(event, &runtime);
  if (status != INFINI_STATUS_SUCCESS) return status;
  return runtime->SynchronizeEvent(event);
}

__INFINI_C infiniStatus_t infinirtEventDestroy(infinirtEvent_t event) {
  DeviceRuntime *runtime = nullptr;
  infiniStatus_t status = RouteNonNullEvent(event, &runtime);
  if (status != INFINI_STATUS_SUCCESS) return status;
  return runtime->DestroyEvent(event);
}

__INFINI_C infiniStatus_t infinirtEventElapsedTime(float *ms_ptr, infinirtEvent_t start, infinirtEvent_t end) {
  if (ms_ptr == nullptr || start == nullptr || end == nullptr) return INFINI_STATUS_NULL_POINTER;
  DeviceRuntime *start_runtime = nullptr;
  infiniStatus_t status = infinicts::ref::RouteEvent(start, &start_runtime);
  if (status != INFINI_STATUS_SUCCESS) return status;
  DeviceRuntime *end_runtime = nullptr;
  status = infinicts::ref::RouteEvent(end, &end_runtime);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (start_runtime != end_runtime) return INFINI_STATUS_BAD_PARAM;
  return start_runtime->ElapsedTime(ms_ptr, start, end);
}
