// The CUDA runtime: events.
#include "cuda/cuda_status.h"
#include "cuda/runtime.h"

namespace infinicts::ref::cuda {
namespace {

unsigned int CudaEventFlags(uint32_t flags) {
  unsigned int cuda_flags = cudaEventDefault;
  if ((flags & INFINIRT_EVENT_DISABLE_TIMING) != 0) cuda_flags |= cudaEventDisableTiming;
  if ((flags & INFINIRT_EVENT_BLOCKING_SYNC) != 0) cuda_flags |= cudaEventBlockingSync;
  return cuda_flags;
}

}  // namespace

std::optional<EventHandle> CudaRuntime::FindEvent(infinirtEvent_t event) {
  std::lock_guard<std::mutex> lock(events_mutex_);
  auto found = events_.find(event);
  if (found == events_.end()) return std::nullopt;
  return *found->second;
}

bool CudaRuntime::OwnsEvent(infinirtEvent_t event) { return FindEvent(event).has_value(); }

infiniStatus_t CudaRuntime::CreateEvent(int device, uint32_t flags, infinirtEvent_t *event) {
  DeviceGuard guard(device);
  if (guard.status() != INFINI_STATUS_SUCCESS) return guard.status();
  cudaEvent_t created = nullptr;
  infiniStatus_t status = ToStatus(cudaEventCreateWithFlags(&created, CudaEventFlags(flags)));
  if (status != INFINI_STATUS_SUCCESS) return status;
  auto handle = std::make_unique<EventHandle>(EventHandle{device, flags, created, /*recorded=*/false});
  std::lock_guard<std::mutex> lock(events_mutex_);
  *event = handle.get();
  events_.emplace(handle.get(), std::move(handle));
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CudaRuntime::DestroyEvent(infinirtEvent_t event) {
  std::unique_ptr<EventHandle> destroyed;
  {
    std::lock_guard<std::mutex> lock(events_mutex_);
    auto found = events_.find(event);
    if (found == events_.end()) return INFINI_STATUS_BAD_PARAM;
    destroyed = std::move(found->second);
    events_.erase(found);
  }
  DeviceGuard guard(destroyed->device);
  if (guard.status() != INFINI_STATUS_SUCCESS) return guard.status();
  return ToStatus(cudaEventDestroy(destroyed->event));
}

infiniStatus_t CudaRuntime::RecordEvent(infinirtEvent_t event, infinirtStream_t stream) {
  std::optional<EventHandle> recorded = FindEvent(event);
  std::optional<StreamHandle> target = FindStream(stream);
  if (!recorded || !target) return INFINI_STATUS_BAD_PARAM;
  // CUDA records an event only on a stream of the event's own device.
  if (recorded->device != target->device) return INFINI_STATUS_BAD_PARAM;
  DeviceGuard guard(target->device);
  if (guard.status() != INFINI_STATUS_SUCCESS) return guard.status();
  infiniStatus_t status = ToStatus(cudaEventRecord(recorded->event, target->stream));
  if (status != INFINI_STATUS_SUCCESS) return status;
  std::lock_guard<std::mutex> lock(events_mutex_);
  auto found = events_.find(event);
  if (found != events_.end()) found->second->recorded = true;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CudaRuntime::QueryEvent(infinirtEvent_t event, infinirtEventStatus_t *status) {
  std::optional<EventHandle> found = FindEvent(event);
  if (!found) return INFINI_STATUS_BAD_PARAM;
  // Never recorded: CUDA answers cudaSuccess, which is InfiniRT's COMPLETE too.
  const cudaError_t queried = cudaEventQuery(found->event);
  if (queried == cudaErrorNotReady) {
    cudaGetLastError();
    *status = INFINIRT_EVENT_NOT_READY;
    return INFINI_STATUS_SUCCESS;
  }
  const infiniStatus_t mapped = ToStatus(queried);
  if (mapped == INFINI_STATUS_SUCCESS) *status = INFINIRT_EVENT_COMPLETE;
  return mapped;
}

infiniStatus_t CudaRuntime::SynchronizeEvent(infinirtEvent_t event) {
  std::optional<EventHandle> found = FindEvent(event);
  if (!found) return INFINI_STATUS_BAD_PARAM;
  return ToStatus(cudaEventSynchronize(found->event));
}

infiniStatus_t CudaRuntime::ElapsedTime(float *ms, infinirtEvent_t start, infinirtEvent_t end) {
  std::optional<EventHandle> first = FindEvent(start);
  std::optional<EventHandle> last = FindEvent(end);
  if (!first || !last) return INFINI_STATUS_BAD_PARAM;
  if (((first->flags | last->flags) & INFINIRT_EVENT_DISABLE_TIMING) != 0) return INFINI_STATUS_BAD_PARAM;
  if (!first->recorded || !last->recorded) return INFINI_STATUS_BAD_PARAM;
  // Recorded but not reached: cudaErrorNotReady, INTERNAL_ERROR as the spec says.
  return ToStatus(cudaEventElapsedTime(ms, first->event, last->event));
}

}  // namespace infinicts::ref::cuda
