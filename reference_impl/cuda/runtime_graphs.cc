// The CUDA runtime: graphs, on CUDA's stream capture, and host work that a capture replays.
#include "cuda/cuda_status.h"
#include "cuda/runtime.h"
#include "runtime/registry.h"

namespace infinicts::ref::cuda {
namespace {

cudaStreamCaptureMode CudaMode(infinirtStreamCaptureMode_t mode) {
  switch (mode) {
    case INFINIRT_STREAM_CAPTURE_MODE_THREAD_LOCAL: return cudaStreamCaptureModeThreadLocal;
    case INFINIRT_STREAM_CAPTURE_MODE_RELAXED: return cudaStreamCaptureModeRelaxed;
    default: return cudaStreamCaptureModeGlobal;
  }
}

// Host work that may run many times, with the stream's device as the thread's InfiniRT device
// (as RunHostCall in runtime_streams.cc); `release` runs when CUDA lets it go.
struct ReplayableCall {
  void (*fn)(void *);
  void *arg;
  void (*release)(void *);
  int device;
};

void RunReplayableCall(void *data) {
  const ReplayableCall *call = static_cast<const ReplayableCall *>(data);
  const CurrentDevice previous = GetCurrentDevice();
  SetCurrentDevice(CurrentDevice{INFINI_DEVICE_NVIDIA, call->device});
  call->fn(call->arg);
  SetCurrentDevice(previous);
}

void ReleaseReplayableCall(void *data) {
  ReplayableCall *call = static_cast<ReplayableCall *>(data);
  if (call->release != nullptr) call->release(call->arg);
  delete call;
}

void RunThenReleaseReplayableCall(void *data) {
  RunReplayableCall(data);
  ReleaseReplayableCall(data);
}

}  // namespace

// Outside a capture: one host call that runs and then releases. During one: a host node that
// runs on every launch, and a user object owned by the capture's graph (so by every graph exec
// instantiated from it) whose destruction releases.
infiniStatus_t CudaRuntime::LaunchReplayableHostFunc(infinirtStream_t stream, void (*fn)(void *), void *arg,
                                                     void (*release)(void *)) {
  std::optional<StreamHandle> target = FindStream(stream);
  if (!target) return INFINI_STATUS_BAD_PARAM;
  DeviceGuard guard(target->device);
  if (guard.status() != INFINI_STATUS_SUCCESS) return guard.status();
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  cudaGraph_t graph = nullptr;
  infiniStatus_t status = ToStatus(cudaStreamGetCaptureInfo(target->stream, &capture, nullptr, &graph));
  if (status != INFINI_STATUS_SUCCESS) return status;
  auto *call = new ReplayableCall{fn, arg, release, target->device};
  if (capture != cudaStreamCaptureStatusActive) {
    status = ToStatus(cudaLaunchHostFunc(target->stream, RunThenReleaseReplayableCall, call));
    if (status != INFINI_STATUS_SUCCESS) delete call;  // the dispatch layer releases
    return status;
  }
  cudaUserObject_t owner = nullptr;
  status = ToStatus(cudaUserObjectCreate(&owner, call, ReleaseReplayableCall, 1, cudaUserObjectNoDestructorSync));
  if (status != INFINI_STATUS_SUCCESS) {
    delete call;
    return status;
  }
  // The graph takes the one reference: from here on CUDA releases, whatever happens next.
  status = ToStatus(cudaGraphRetainUserObject(graph, owner, 1, cudaGraphUserObjectMove));
  if (status != INFINI_STATUS_SUCCESS) {
    call->release = nullptr;  // the dispatch layer releases; the object still frees the call
    cudaUserObjectRelease(owner, 1);
    return status;
  }
  status = ToStatus(cudaLaunchHostFunc(target->stream, RunReplayableCall, call));
  // The graph frees the call either way; on a refused node the dispatch layer releases now.
  if (status != INFINI_STATUS_SUCCESS) call->release = nullptr;
  return status;
}

std::optional<int> CudaRuntime::GraphDevice(const std::unordered_map<const void *, int> &handles,
                                            const void *handle) {
  std::lock_guard<std::mutex> lock(graphs_mutex_);
  auto found = handles.find(handle);
  if (found == handles.end()) return std::nullopt;
  return found->second;
}

infiniStatus_t CudaRuntime::BeginCapture(infinirtStream_t stream, infinirtStreamCaptureMode_t mode) {
  std::optional<StreamHandle> target = FindStream(stream);
  if (!target || target->is_default) return INFINI_STATUS_BAD_PARAM;
  DeviceGuard guard(target->device);
  if (guard.status() != INFINI_STATUS_SUCCESS) return guard.status();
  return ToStatus(cudaStreamBeginCapture(target->stream, CudaMode(mode)));
}

infiniStatus_t CudaRuntime::EndCapture(infinirtStream_t stream, infinirtGraph_t *graph) {
  std::optional<StreamHandle> target = FindStream(stream);
  if (!target) return INFINI_STATUS_BAD_PARAM;
  DeviceGuard guard(target->device);
  if (guard.status() != INFINI_STATUS_SUCCESS) return guard.status();
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  infiniStatus_t status = ToStatus(cudaStreamIsCapturing(target->stream, &capture));
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (capture == cudaStreamCaptureStatusNone) return INFINI_STATUS_BAD_PARAM;
  cudaGraph_t captured = nullptr;
  status = ToStatus(cudaStreamEndCapture(target->stream, &captured));
  if (status != INFINI_STATUS_SUCCESS) return status;
  std::lock_guard<std::mutex> lock(graphs_mutex_);
  graphs_.emplace(captured, target->device);
  *graph = captured;
  return INFINI_STATUS_SUCCESS;
}

bool CudaRuntime::OwnsGraph(infinirtGraph_t graph) { return GraphDevice(graphs_, graph).has_value(); }

bool CudaRuntime::Forget(std::unordered_map<const void *, int> &handles, const void *handle) {
  std::lock_guard<std::mutex> lock(graphs_mutex_);
  return handles.erase(handle) == 1;
}

infiniStatus_t CudaRuntime::DestroyGraph(infinirtGraph_t graph) {
  if (!Forget(graphs_, graph)) return INFINI_STATUS_BAD_PARAM;
  return ToStatus(cudaGraphDestroy(static_cast<cudaGraph_t>(graph)));
}

infiniStatus_t CudaRuntime::InstantiateGraph(infinirtGraphExec_t *exec, infinirtGraph_t graph) {
  const std::optional<int> device = GraphDevice(graphs_, graph);
  if (!device) return INFINI_STATUS_BAD_PARAM;
  DeviceGuard guard(*device);
  if (guard.status() != INFINI_STATUS_SUCCESS) return guard.status();
  cudaGraphExec_t instantiated = nullptr;
  const infiniStatus_t status = ToStatus(cudaGraphInstantiate(&instantiated, static_cast<cudaGraph_t>(graph), 0));
  if (status != INFINI_STATUS_SUCCESS) return status;
  std::lock_guard<std::mutex> lock(graphs_mutex_);
  graph_execs_.emplace(instantiated, *device);
  *exec = instantiated;
  return INFINI_STATUS_SUCCESS;
}

bool CudaRuntime::OwnsGraphExec(infinirtGraphExec_t exec) { return GraphDevice(graph_execs_, exec).has_value(); }

infiniStatus_t CudaRuntime::DestroyGraphExec(infinirtGraphExec_t exec) {
  if (!Forget(graph_execs_, exec)) return INFINI_STATUS_BAD_PARAM;
  return ToStatus(cudaGraphExecDestroy(static_cast<cudaGraphExec_t>(exec)));
}

infiniStatus_t CudaRuntime::LaunchGraph(infinirtGraphExec_t exec, infinirtStream_t stream) {
  const std::optional<int> device = GraphDevice(graph_execs_, exec);
  std::optional<StreamHandle> target = FindStream(stream);
  if (!device || !target || target->device != *device) return INFINI_STATUS_BAD_PARAM;
  DeviceGuard guard(*device);
  if (guard.status() != INFINI_STATUS_SUCCESS) return guard.status();
  return ToStatus(cudaGraphLaunch(static_cast<cudaGraphExec_t>(exec), target->stream));
}

}  // namespace infinicts::ref::cuda
