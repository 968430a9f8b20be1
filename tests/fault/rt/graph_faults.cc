// Faults of graph capture and of the resource snapshot, each a bug a real backend plausibly has.
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "rt/rt_faults.h"

namespace infinicts::fault {
namespace {

bool ModeInRange(infinirtStreamCaptureMode_t mode) {
  return mode >= INFINIRT_STREAM_CAPTURE_MODE_GLOBAL && mode <= INFINIRT_STREAM_CAPTURE_MODE_RELAXED;
}

// `graph_launch_runs_nothing`: GraphLuanch answers SUCCESS and enqueues nothing.
infiniStatus_t LaunchNothing(infinirtGraphExec_t exec, infinirtStream_t stream) {
  if (exec == nullptr) return TargetRt().infinirtGraphLuanch(exec, stream);
  return INFINI_STATUS_SUCCESS;
}

// `capture_runs_eagerly`: BeginCapture only marks the stream, so its work runs at the call, and
// EndCapture hands back an empty graph (captured right then) that launches do nothing with.
std::mutex eager_mutex;
std::set<infinirtStream_t> eager_streams;

infiniStatus_t BeginCaptureMarking(infinirtStream_t stream, infinirtStreamCaptureMode_t mode) {
  if (!ModeInRange(mode)) return TargetRt().infinirtStreamBeginCapture(stream, mode);
  std::lock_guard<std::mutex> lock(eager_mutex);
  return eager_streams.insert(stream).second ? INFINI_STATUS_SUCCESS : INFINI_STATUS_BAD_PARAM;
}

infiniStatus_t EndCaptureEmpty(infinirtStream_t stream, infinirtGraph_t *graph_ptr) {
  if (graph_ptr == nullptr) return INFINI_STATUS_NULL_POINTER;
  {
    std::lock_guard<std::mutex> lock(eager_mutex);
    if (eager_streams.erase(stream) == 0) return TargetRt().infinirtStreamEndCapture(stream, graph_ptr);
  }
  const infiniStatus_t status = TargetRt().infinirtStreamBeginCapture(stream, INFINIRT_STREAM_CAPTURE_MODE_GLOBAL);
  if (status != INFINI_STATUS_SUCCESS) return status;
  return TargetRt().infinirtStreamEndCapture(stream, graph_ptr);
}

// `graph_snapshots_host_at_capture`: a captured H2D copy stages its host source at the call (as
// CUDA does for pageable memory), so every launch copies the bytes the host held at capture.
std::mutex capture_mutex;
std::set<infinirtStream_t> capturing;
std::vector<std::unique_ptr<std::vector<uint8_t>>> staged;  // kept for the process's life

infiniStatus_t BeginCaptureTracked(infinirtStream_t stream, infinirtStreamCaptureMode_t mode) {
  const infiniStatus_t status = TargetRt().infinirtStreamBeginCapture(stream, mode);
  std::lock_guard<std::mutex> lock(capture_mutex);
  if (status == INFINI_STATUS_SUCCESS) capturing.insert(stream);
  return status;
}

infiniStatus_t EndCaptureTracked(infinirtStream_t stream, infinirtGraph_t *graph_ptr) {
  const infiniStatus_t status = TargetRt().infinirtStreamEndCapture(stream, graph_ptr);
  std::lock_guard<std::mutex> lock(capture_mutex);
  if (status == INFINI_STATUS_SUCCESS) capturing.erase(stream);
  return status;
}

infiniStatus_t MemcpyAsyncStagingHost(void *dst, const void *src, size_t size, infinirtMemcpyKind_t kind,
                                      infinirtStream_t stream) {
  std::lock_guard<std::mutex> lock(capture_mutex);
  if (kind != INFINIRT_MEMCPY_H2D || src == nullptr || size == 0 || capturing.count(stream) == 0) {
    return TargetRt().infinirtMemcpyAsync(dst, src, size, kind, stream);
  }
  const auto *bytes = static_cast<const uint8_t *>(src);
  const std::vector<uint8_t> &copy = *staged.emplace_back(std::make_unique<std::vector<uint8_t>>(bytes, bytes + size));
  return TargetRt().infinirtMemcpyAsync(dst, copy.data(), size, kind, stream);
}

// `graph_destroy_takes_its_execs`: destroying a graph destroys the execs instantiated from it.
std::mutex execs_mutex;
std::multimap<infinirtGraph_t, infinirtGraphExec_t> execs_of;

infiniStatus_t InstantiateRemembering(infinirtGraphExec_t *exec_ptr, infinirtGraph_t graph,
                                      infinirtGraphNode_t *node_ptr, char *log_buffer, size_t buffer_size) {
  const infiniStatus_t status = TargetRt().infinirtGraphInstantiate(exec_ptr, graph, node_ptr, log_buffer, buffer_size);
  std::lock_guard<std::mutex> lock(execs_mutex);
  if (status == INFINI_STATUS_SUCCESS) execs_of.emplace(graph, *exec_ptr);
  return status;
}

infiniStatus_t GraphDestroyWithExecs(infinirtGraph_t graph) {
  const infiniStatus_t status = TargetRt().infinirtGraphDestroy(graph);
  std::lock_guard<std::mutex> lock(execs_mutex);
  if (status != INFINI_STATUS_SUCCESS) return status;
  auto [first, last] = execs_of.equal_range(graph);
  for (auto it = first; it != last; ++it) TargetRt().infinirtGraphExecDestroy(it->second);
  execs_of.erase(first, last);
  return status;
}

// `snapshot_total_from_host`: the snapshot's memory is the host's, not the device's.
infiniStatus_t SnapshotOfHostMemory(infiniDevice_t device, int device_id, infinirtDeviceResourceSnapshot_t *snapshot) {
  const infiniStatus_t status = TargetRt().infinirtGetDeviceResourceSnapshot(device, device_id, snapshot);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  snapshot->total_bytes = static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) * page;
  snapshot->free_bytes = static_cast<size_t>(sysconf(_SC_AVPHYS_PAGES)) * page;
  snapshot->used_bytes = snapshot->total_bytes - snapshot->free_bytes;
  return status;
}

// `snapshot_device_id_zero`: the snapshot says device 0 whichever was asked for (InfiniCore's
// CPU runtime does so).
infiniStatus_t SnapshotOfDeviceZero(infiniDevice_t device, int device_id, infinirtDeviceResourceSnapshot_t *snapshot) {
  const infiniStatus_t status = TargetRt().infinirtGetDeviceResourceSnapshot(device, device_id, snapshot);
  if (status == INFINI_STATUS_SUCCESS) snapshot->device_id = 0;
  return status;
}

// `graph_calls_accept_bad_input`: no argument check: an unknown capture mode captures as GLOBAL,
// and a NULL exec or graph pointer is answered SUCCESS without a call.
infiniStatus_t BeginCaptureAnyMode(infinirtStream_t stream, infinirtStreamCaptureMode_t mode) {
  return TargetRt().infinirtStreamBeginCapture(stream, ModeInRange(mode) ? mode : INFINIRT_STREAM_CAPTURE_MODE_GLOBAL);
}

infiniStatus_t EndCaptureNullAccepted(infinirtStream_t stream, infinirtGraph_t *graph_ptr) {
  if (graph_ptr == nullptr) return INFINI_STATUS_SUCCESS;
  return TargetRt().infinirtStreamEndCapture(stream, graph_ptr);
}

infiniStatus_t InstantiateNullAccepted(infinirtGraphExec_t *exec_ptr, infinirtGraph_t graph,
                                       infinirtGraphNode_t *node_ptr, char *log_buffer, size_t buffer_size) {
  if (exec_ptr == nullptr) return INFINI_STATUS_SUCCESS;
  return TargetRt().infinirtGraphInstantiate(exec_ptr, graph, node_ptr, log_buffer, buffer_size);
}

infiniStatus_t LaunchNullAccepted(infinirtGraphExec_t exec, infinirtStream_t stream) {
  if (exec == nullptr) return INFINI_STATUS_SUCCESS;
  return TargetRt().infinirtGraphLuanch(exec, stream);
}

// `snapshot_accepts_bad_input`: NULL and unknown devices answer SUCCESS (the latter with the first
// device's snapshot), and the snapshot marks bits it does not know and ratios above 1.
infiniStatus_t SnapshotWithoutChecks(infiniDevice_t device, int device_id, infinirtDeviceResourceSnapshot_t *snapshot) {
  if (snapshot == nullptr) return INFINI_STATUS_SUCCESS;
  int count = 0;
  const bool known = TargetRt().infinirtGetDeviceCount(device, &count) == INFINI_STATUS_SUCCESS && device_id >= 0 &&
                     device_id < count;
  const infiniStatus_t status =
      TargetRt().infinirtGetDeviceResourceSnapshot(known ? device : INFINI_DEVICE_CPU, known ? device_id : 0, snapshot);
  if (status != INFINI_STATUS_SUCCESS) return status;
  snapshot->valid_fields |= (uint64_t{1} << 7) | INFINIRT_RESOURCE_FIELD_COMPUTE_UTILIZATION;
  snapshot->estimated_fields |= INFINIRT_RESOURCE_FIELD_KERNEL_TIME_RATIO;
  snapshot->compute_utilization = 1.5f;
  return status;
}

}  // namespace

void InstallGraphCallsAcceptBadInput(RtTable &calls) {
  calls.infinirtStreamBeginCapture = &BeginCaptureAnyMode;
  calls.infinirtStreamEndCapture = &EndCaptureNullAccepted;
  calls.infinirtGraphInstantiate = &InstantiateNullAccepted;
  calls.infinirtGraphLuanch = &LaunchNullAccepted;
}

void InstallSnapshotAcceptsBadInput(RtTable &calls) {
  calls.infinirtGetDeviceResourceSnapshot = &SnapshotWithoutChecks;
}

void InstallGraphLaunchRunsNothing(RtTable &calls) { calls.infinirtGraphLuanch = &LaunchNothing; }

void InstallCaptureRunsEagerly(RtTable &calls) {
  calls.infinirtStreamBeginCapture = &BeginCaptureMarking;
  calls.infinirtStreamEndCapture = &EndCaptureEmpty;
}

void InstallGraphSnapshotsHostAtCapture(RtTable &calls) {
  calls.infinirtStreamBeginCapture = &BeginCaptureTracked;
  calls.infinirtStreamEndCapture = &EndCaptureTracked;
  calls.infinirtMemcpyAsync = &MemcpyAsyncStagingHost;
}

void InstallGraphDestroyTakesItsExecs(RtTable &calls) {
  calls.infinirtGraphInstantiate = &InstantiateRemembering;
  calls.infinirtGraphDestroy = &GraphDestroyWithExecs;
}

void InstallSnapshotTotalFromHost(RtTable &calls) { calls.infinirtGetDeviceResourceSnapshot = &SnapshotOfHostMemory; }

void InstallSnapshotDeviceIdZero(RtTable &calls) { calls.infinirtGetDeviceResourceSnapshot = &SnapshotOfDeviceZero; }

INFINICTS_FAULT(RtTable, "graph_launch_runs_nothing",
                "GraphLuanch answers SUCCESS and enqueues nothing",
                InstallGraphLaunchRunsNothing);

INFINICTS_FAULT(RtTable, "capture_runs_eagerly",
                "StreamBeginCapture only marks the stream: its work runs at the call, and EndCapture gives an "
                "empty graph",
                InstallCaptureRunsEagerly);

INFINICTS_FAULT(RtTable, "graph_snapshots_host_at_capture",
                "a captured H2D copy stages its host source at the call: every launch copies the bytes held at "
                "capture",
                InstallGraphSnapshotsHostAtCapture);

INFINICTS_FAULT(RtTable, "graph_destroy_takes_its_execs",
                "GraphDestroy also destroys the graph execs instantiated from the graph",
                InstallGraphDestroyTakesItsExecs);

INFINICTS_FAULT(RtTable, "snapshot_total_from_host",
                "the resource snapshot reports the host's physical memory, not the device's",
                InstallSnapshotTotalFromHost);

INFINICTS_FAULT(RtTable, "snapshot_device_id_zero",
                "the resource snapshot says device 0 whichever device was asked for",
                InstallSnapshotDeviceIdZero);

INFINICTS_FAULT(RtTable, "graph_calls_accept_bad_input",
                "an unknown capture mode captures as GLOBAL; EndCapture, GraphInstantiate and GraphLuanch answer "
                "SUCCESS for a NULL out-pointer or exec",
                InstallGraphCallsAcceptBadInput);

INFINICTS_FAULT(RtTable, "snapshot_accepts_bad_input",
                "the resource snapshot answers SUCCESS for NULL and unknown devices, and marks an unknown bit, "
                "an estimate outside valid_fields and a utilization of 1.5",
                InstallSnapshotAcceptsBadInput);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Graph capture and the resource snapshot (optional parts): ONLY over their subjects, so each
// fault is caught by the cases meant for it and no other graph or snapshot case fails.
// fault-detection: graph_launch_runs_nothing TIMEOUT 30 ONLY
// fault-detection:   FILTER rt.graph.* rt.resource_snapshot.*
// fault-detection:   EXPECT rt.graph.conformance/replay_matches_eager/* rt.graph.conformance/launch_twice_rereads_inputs
// fault-detection:   rt.graph.conformance/launch_on_other_stream rt.graph.conformance/exec_outlives_graph_and_pending_destroy
// fault-detection: capture_runs_eagerly TIMEOUT 30 ONLY
// fault-detection:   FILTER rt.graph.* rt.resource_snapshot.*
// fault-detection:   EXPECT rt.graph.conformance/capture_defers_work/* rt.graph.conformance/replay_matches_eager/*
// fault-detection:   rt.graph.conformance/launch_twice_rereads_inputs rt.graph.conformance/launch_on_other_stream
// fault-detection:   rt.graph.conformance/exec_outlives_graph_and_pending_destroy
// fault-detection:   rt.graph.conformance/synchronize_while_capturing_refused
// fault-detection: graph_snapshots_host_at_capture TIMEOUT 30 ONLY
// fault-detection:   FILTER rt.graph.* rt.resource_snapshot.*
// fault-detection:   EXPECT rt.graph.conformance/launch_twice_rereads_inputs rt.graph.conformance/launch_on_other_stream
// fault-detection:   rt.graph.conformance/exec_outlives_graph_and_pending_destroy
// fault-detection: graph_destroy_takes_its_execs TIMEOUT 30 ONLY
// fault-detection:   FILTER rt.graph.* rt.resource_snapshot.*
// fault-detection:   EXPECT rt.graph.conformance/exec_outlives_graph_and_pending_destroy
// fault-detection: snapshot_total_from_host TIMEOUT 30 ONLY
// fault-detection:   FILTER rt.graph.* rt.resource_snapshot.*
// fault-detection:   EXPECT rt.resource_snapshot.conformance/agrees_with_mem_info/*
// fault-detection: snapshot_device_id_zero TIMEOUT 30 ONLY
// fault-detection:   FILTER rt.graph.* rt.resource_snapshot.*
// fault-detection:   EXPECT rt.resource_snapshot.conformance/identifies_device/dev_last
// fault-detection: graph_calls_accept_bad_input TIMEOUT 30 ONLY
// fault-detection:   FILTER rt.graph.* rt.resource_snapshot.*
// fault-detection:   EXPECT rt.graph.conformance/begin_capture_bad_mode rt.graph.conformance/end_capture_refusals
// fault-detection:   rt.graph.conformance/instantiate_null_exec rt.graph.conformance/launch_null_exec
// fault-detection: snapshot_accepts_bad_input TIMEOUT 30 ONLY
// fault-detection:   FILTER rt.graph.* rt.resource_snapshot.*
// fault-detection:   EXPECT rt.resource_snapshot.conformance/null_snapshot rt.resource_snapshot.conformance/bad_device
// fault-detection:   rt.resource_snapshot.conformance/identifies_device/*
