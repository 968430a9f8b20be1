// InfiniRT: graphs (stream capture, instantiate, launch).
#include "runtime/routing.h"

using infinicts::ref::DeviceRuntime;

namespace {

bool ModeInRange(infinirtStreamCaptureMode_t mode) {
  const int value = static_cast<int>(mode);
  return value >= INFINIRT_STREAM_CAPTURE_MODE_GLOBAL && value <= INFINIRT_STREAM_CAPTURE_MODE_RELAXED;
}

}  // namespace

__INFINI_C infiniStatus_t infinirtStreamBeginCapture(infinirtStream_t stream, infinirtStreamCaptureMode_t mode) {
  if (!ModeInRange(mode)) return INFINI_STATUS_BAD_PARAM;
  DeviceRuntime *runtime = nullptr;
  const infiniStatus_t status = infinicts::ref::RouteStream(stream, &runtime, &stream);
  if (status != INFINI_STATUS_SUCCESS) return status;
  return runtime->BeginCapture(stream, mode);
}

__INFINI_C infiniStatus_t infinirtStreamEndCapture(infinirtStream_t stream, infinirtGraph_t *graph_ptr) {
  if (graph_ptr == nullptr) return INFINI_STATUS_NULL_POINTER;
  DeviceRuntime *runtime = nullptr;
  const infiniStatus_t status = infinicts::ref::RouteStream(stream, &runtime, &stream);
  if (status != INFINI_STATUS_SUCCESS) return status;
  return runtime->EndCapture(stream, graph_ptr);
}

__INFINI_C infiniStatus_t infinirtGraphDestroy(infinirtGraph_t graph) {
  if (graph == nullptr) return INFINI_STATUS_NULL_POINTER;
  DeviceRuntime *runtime = nullptr;
  const infiniStatus_t status = infinicts::ref::RouteGraph(graph, &runtime);
  if (status != INFINI_STATUS_SUCCESS) return status;
  return runtime->DestroyGraph(graph);
}

__INFINI_C infiniStatus_t infinirtGraphInstantiate(infinirtGraphExec_t *graph_exec_ptr, infinirtGraph_t graph,
                                                   infinirtGraphNode_t *node_ptr, char *log_buffer,
                                                   size_t buffer_size) {
  if (graph_exec_ptr == nullptr || graph == nullptr) return INFINI_STATUS_NULL_POINTER;
  DeviceRuntime *runtime = nullptr;
  infiniStatus_t status = infinicts::ref::RouteGraph(graph, &runtime);
  if (status != INFINI_STATUS_SUCCESS) return status;
  status = runtime->InstantiateGraph(graph_exec_ptr, graph);
  if (status != INFINI_STATUS_SUCCESS) return status;
  // CUDA's out-parameters for a failed instantiation: no node at fault, an empty log.
  if (node_ptr != nullptr) *node_ptr = nullptr;
  if (log_buffer != nullptr && buffer_size > 0) log_buffer[0] = '\0';
  return INFINI_STATUS_SUCCESS;
}

__INFINI_C infiniStatus_t infinirtGraphExecDestroy(infinirtGraphExec_t graph_exec) {
  if (graph_exec == nullptr) return INFINI_STATUS_NULL_POINTER;
  DeviceRuntime *runtime = nullptr;
  const infiniStatus_t status = infinicts::ref::RouteGraphExec(graph_exec, &runtime);
  if (status != INFINI_STATUS_SUCCESS) return status;
  return runtime->DestroyGraphExec(graph_exec);
}

__INFINI_C infiniStatus_t infinirtGraphLuanch(infinirtGraphExec_t graph_exec, infinirtStream_t stream) {
  if (graph_exec == nullptr) return INFINI_STATUS_NULL_POINTER;
  DeviceRuntime *exec_runtime = nullptr;
  infiniStatus_t status = infinicts::ref::RouteGraphExec(graph_exec, &exec_runtime);
  if (status != INFINI_STATUS_SUCCESS) return status;
  DeviceRuntime *stream_runtime = nullptr;
  status = infinicts::ref::RouteStream(stream, &stream_runtime, &stream);
  if (status != INFINI_STATUS_SUCCESS) return status;
  // A graph runs on streams of the device type it was captured on.
  if (stream_runtime != exec_runtime) return INFINI_STATUS_BAD_PARAM;
  return exec_runtime->LaunchGraph(graph_exec, stream);
}
