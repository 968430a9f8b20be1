// InfiniRT: streams.
#include "runtime/routing.h"

using infinicts::ref::DeviceRuntime;

__INFINI_C infiniStatus_t infinirtStreamCreate(infinirtStream_t *stream_ptr) {
  if (stream_ptr == nullptr) return INFINI_STATUS_NULL_POINTER;
  DeviceRuntime *runtime = nullptr;
  int device = 0;
  infiniStatus_t status = infinicts::ref::RouteCurrentDevice(&runtime, &device);
  if (status != INFINI_STATUS_SUCCESS) return status;
  return runtime->CreateStream(device, stream_ptr);
}

__INFINI_C infiniStatus_t infinirtStreamDestroy(infinirtStream_t stream) {
  // The default stream (NULL) lives as long as the process.
  if (stream == nullptr) return INFINI_STATUS_BAD_PARAM;
  DeviceRuntime *runtime = nullptr;
  infiniStatus_t status = infinicts::ref::RouteStream(stream, &runtime, &stream);
  if (status != INFINI_STATUS_SUCCESS) return status;
  return runtime->DestroyStream(stream);
}

__INFINI_C infiniStatus_t infinirtStreamSynchronize(infinirtStream_t stream) {
  DeviceRuntime *runtime = nullptr;
  infiniStatus_t status = infinicts::ref::RouteStream(stream, &runtime, &stream);
  if (status != INFINI_STATUS_SUCCESS) return status;
  return runtime->SynchronizeStream(stream);
}

__INFINI_C infiniStatus_t infinirtStreamWaitEvent(infinirtStream_t stream, infinirtEvent_t event) {
  if (event == nullptr) return INFINI_STATUS_NULL_POINTER;
  DeviceRuntime *stream_runtime = nullptr;
  infiniStatus_t status = infinicts::ref::RouteStream(stream, &stream_runtime, &stream);
  if (status != INFINI_STATUS_SUCCESS) return status;
  DeviceRuntime *event_runtime = nullptr;
  status = infinicts::ref::RouteEvent(event, &event_runtime);
  if (status != INFINI_STATUS_SUCCESS) return status;
  // A stream cannot wait for another device type's event.
  if (event_runtime != stream_runtime) return INFINI_STATUS_BAD_PARAM;
  return stream_runtime->StreamWaitEvent(stream, event);
}
