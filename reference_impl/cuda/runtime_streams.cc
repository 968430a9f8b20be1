// The CUDA runtime: streams.
#include "cuda/cuda_status.h"
#include "cuda/runtime.h"
#include "runtime/registry.h"

namespace infinicts::ref::cuda {
namespace {

// A host function with the stream's device as the InfiniRT current device of the thread
// CUDA runs it on, as on the CPU runtime's stream workers.
struct HostCall {
  void (*fn)(void *);
  void *arg;
  int device;
};

void RunHostCall(void *data) {
  HostCall *call = static_cast<HostCall *>(data);
  const CurrentDevice previous = GetCurrentDevice();
  SetCurrentDevice(CurrentDevice{INFINI_DEVICE_NVIDIA, call->device});
  call->fn(call->arg);
  SetCurrentDevice(previous);
  delete call;
}

}  // namespace

std::optional<StreamHandle> CudaRuntime::FindStream(infinirtStream_t stream) {
  std::lock_guard<std::mutex> lock(streams_mutex_);
  auto found = streams_.find(stream);
  if (found == streams_.end()) return std::nullopt;
  return *found->second;
}

infiniStatus_t CudaRuntime::DefaultStream(int device, infinirtStream_t *stream) {
  std::lock_guard<std::mutex> lock(streams_mutex_);
  StreamHandle *&slot = default_streams_[static_cast<size_t>(device)];
  if (slot == nullptr) {
    auto created = std::make_unique<StreamHandle>(StreamHandle{device, cudaStreamLegacy, /*is_default=*/true});
    slot = created.get();
    streams_.emplace(slot, std::move(created));
  }
  *stream = slot;
  return INFINI_STATUS_SUCCESS;
}

bool CudaRuntime::OwnsStream(infinirtStream_t stream) { return FindStream(stream).has_value(); }

infiniStatus_t CudaRuntime::StreamDevice(infinirtStream_t stream, int *device) {
  std::optional<StreamHandle> found = FindStream(stream);
  if (!found) return INFINI_STATUS_BAD_PARAM;
  *device = found->device;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CudaRuntime::CreateStream(int device, infinirtStream_t *stream) {
  DeviceGuard guard(device);
  if (guard.status() != INFINI_STATUS_SUCCESS) return guard.status();
  cudaStream_t created = nullptr;
  // Blocking (cudaStreamDefault), not cudaStreamNonBlocking: see runtime.h.
  infiniStatus_t status = ToStatus(cudaStreamCreateWithFlags(&created, cudaStreamDefault));
  if (status != INFINI_STATUS_SUCCESS) return status;
  auto handle = std::make_unique<StreamHandle>(StreamHandle{device, created, /*is_default=*/false});
  std::lock_guard<std::mutex> lock(streams_mutex_);
  *stream = handle.get();
  streams_.emplace(handle.get(), std::move(handle));
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CudaRuntime::DestroyStream(infinirtStream_t stream) {
  std::unique_ptr<StreamHandle> destroyed;
  {
    std::lock_guard<std::mutex> lock(streams_mutex_);
    auto found = streams_.find(stream);
    if (found == streams_.end() || found->second->is_default) return INFINI_STATUS_BAD_PARAM;
    destroyed = std::move(found->second);
    streams_.erase(found);
  }
  // CUDA lets pending work finish and releases the stream afterwards.
  DeviceGuard guard(destroyed->device);
  if (guard.status() != INFINI_STATUS_SUCCESS) return guard.status();
  return ToStatus(cudaStreamDestroy(destroyed->stream));
}

infiniStatus_t CudaRuntime::SynchronizeStream(infinirtStream_t stream) {
  std::optional<StreamHandle> found = FindStream(stream);
  if (!found) return INFINI_STATUS_BAD_PARAM;
  DeviceGuard guard(found->device);
  if (guard.status() != INFINI_STATUS_SUCCESS) return guard.status();
  return ToStatus(cudaStreamSynchronize(found->stream));
}

infiniStatus_t CudaRuntime::StreamWaitEvent(infinirtStream_t stream, infinirtEvent_t event) {
  std::optional<StreamHandle> target = FindStream(stream);
  std::optional<EventHandle> awaited = FindEvent(event);
  if (!target || !awaited) return INFINI_STATUS_BAD_PARAM;
  // A never-recorded event is no wait (CUDA agrees); the event may be another device's.
  DeviceGuard guard(target->device);
  if (guard.status() != INFINI_STATUS_SUCCESS) return guard.status();
  return ToStatus(cudaStreamWaitEvent(target->stream, awaited->event, 0));
}

// CUDA forbids CUDA calls inside a host function (they may deadlock or fail): fn must not
// call InfiniRT on NVIDIA streams or memory, unlike on the CPU runtime. Device work belongs
// on the raw stream (infinictsRefCudaStream), not in here.
infiniStatus_t CudaRuntime::LaunchHostFunc(infinirtStream_t stream, void (*fn)(void *), void *arg) {
  std::optional<StreamHandle> target = FindStream(stream);
  if (!target) return INFINI_STATUS_BAD_PARAM;
  DeviceGuard guard(target->device);
  if (guard.status() != INFINI_STATUS_SUCCESS) return guard.status();
  auto *call = new HostCall{fn, arg, target->device};
  const infiniStatus_t status = ToStatus(cudaLaunchHostFunc(target->stream, RunHostCall, call));
  if (status != INFINI_STATUS_SUCCESS) delete call;
  return status;
}

}  // namespace infinicts::ref::cuda
