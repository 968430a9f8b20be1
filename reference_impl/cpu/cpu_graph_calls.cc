// The CPU runtime: graphs. A capturing stream records the replayable work enqueued on it (copies,
// fills, operators) instead of running it; what cannot be replayed or has no meaning inside a
// graph (a synchronize, an event record or wait, stream-ordered allocation, once-only host work)
// is refused on it with BAD_PARAM and leaves the capture going. A launch enqueues all the steps
// as one piece of work, so they run in capture order and in the launch stream's order.
#include "cpu/cpu_runtime.h"

namespace infinicts::ref::cpu {
namespace {

// A host function that may run many times; its release runs when the last copy of the work
// holding it (stream queue, graph, graph exec) is gone.
struct ReplayableHostFunc {
  void (*fn)(void *);
  void *arg;
  void (*release)(void *);
  ReplayableHostFunc(void (*run)(void *), void *data, void (*release_data)(void *))
      : fn(run), arg(data), release(release_data) {}
  ReplayableHostFunc(const ReplayableHostFunc &) = delete;
  ReplayableHostFunc &operator=(const ReplayableHostFunc &) = delete;
  ~ReplayableHostFunc() {
    if (release != nullptr) release(arg);
  }
};

}  // namespace

bool CpuRuntime::IsCapturing(infinirtStream_t stream) {
  if (captures_under_way_.load(std::memory_order_acquire) == 0) return false;
  std::lock_guard<std::mutex> lock(graphs_mutex_);
  return captures_.count(stream) != 0;
}

bool CpuRuntime::Capture(infinirtStream_t stream, Stream::Work &work) {
  if (captures_under_way_.load(std::memory_order_acquire) == 0) return false;
  std::lock_guard<std::mutex> lock(graphs_mutex_);
  auto found = captures_.find(stream);
  if (found == captures_.end()) return false;
  found->second->Append(std::move(work));
  return true;
}

void CpuRuntime::DiscardCapture(infinirtStream_t stream) {
  std::shared_ptr<Graph> discarded;  // released outside the lock: releases may call back in
  std::lock_guard<std::mutex> lock(graphs_mutex_);
  auto found = captures_.find(stream);
  if (found == captures_.end()) return;
  discarded = std::move(found->second);
  captures_.erase(found);
  captures_under_way_.fetch_sub(1, std::memory_order_release);
}

infiniStatus_t CpuRuntime::LaunchReplayableHostFunc(infinirtStream_t stream, void (*fn)(void *), void *arg,
                                                    void (*release)(void *)) {
  auto held = std::make_shared<ReplayableHostFunc>(fn, arg, release);
  const infiniStatus_t status = Enqueue(stream, [held] { held->fn(held->arg); }, Replay::kReplayable);
  // Refused work left `held` alone; the caller releases (DeviceRuntime's contract).
  if (status != INFINI_STATUS_SUCCESS) held->release = nullptr;
  return status;
}

infiniStatus_t CpuRuntime::BeginCapture(infinirtStream_t stream, infinirtStreamCaptureMode_t) {
  std::shared_ptr<Stream> target = FindStream(stream);
  // The default stream orders with every blocking call of its device (cpu_runtime.h), which a
  // capture could not honour: like CUDA's legacy stream, it cannot be captured.
  if (target == nullptr || target->is_default()) return INFINI_STATUS_BAD_PARAM;
  // The modes differ in which other threads' unsafe calls they forbid; this runtime has no call
  // that a capture elsewhere makes unsafe, so all three record the same way.
  std::lock_guard<std::mutex> lock(graphs_mutex_);
  if (!captures_.emplace(stream, std::make_shared<Graph>(target->device())).second) return INFINI_STATUS_BAD_PARAM;
  captures_under_way_.fetch_add(1, std::memory_order_release);
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CpuRuntime::EndCapture(infinirtStream_t stream, infinirtGraph_t *graph) {
  std::lock_guard<std::mutex> lock(graphs_mutex_);
  auto found = captures_.find(stream);
  if (found == captures_.end()) return INFINI_STATUS_BAD_PARAM;
  std::shared_ptr<const Graph> captured = std::move(found->second);
  captures_.erase(found);
  captures_under_way_.fetch_sub(1, std::memory_order_release);
  *graph = const_cast<Graph *>(captured.get());
  graphs_.emplace(captured.get(), std::move(captured));
  return INFINI_STATUS_SUCCESS;
}

bool CpuRuntime::OwnsGraph(infinirtGraph_t graph) {
  std::lock_guard<std::mutex> lock(graphs_mutex_);
  return graphs_.count(graph) != 0;
}

infiniStatus_t CpuRuntime::DestroyGraph(infinirtGraph_t graph) { return Forget(graphs_, graph); }

infiniStatus_t CpuRuntime::InstantiateGraph(infinirtGraphExec_t *exec, infinirtGraph_t graph) {
  std::lock_guard<std::mutex> lock(graphs_mutex_);
  auto found = graphs_.find(graph);
  if (found == graphs_.end()) return INFINI_STATUS_BAD_PARAM;
  // A copy: the exec outlives the graph and later changes to neither reach the other.
  auto instantiated = std::make_shared<const Graph>(*found->second);
  *exec = const_cast<Graph *>(instantiated.get());
  graph_execs_.emplace(instantiated.get(), std::move(instantiated));
  return INFINI_STATUS_SUCCESS;
}

bool CpuRuntime::OwnsGraphExec(infinirtGraphExec_t exec) {
  std::lock_guard<std::mutex> lock(graphs_mutex_);
  return graph_execs_.count(exec) != 0;
}

infiniStatus_t CpuRuntime::DestroyGraphExec(infinirtGraphExec_t exec) {
  // Launches still pending hold the steps until they have run.
  return Forget(graph_execs_, exec);
}

infiniStatus_t CpuRuntime::Forget(std::unordered_map<const void *, std::shared_ptr<const Graph>> &handles,
                                  const void *handle) {
  std::shared_ptr<const Graph> forgotten;  // released outside the lock: releases may call back in
  std::lock_guard<std::mutex> lock(graphs_mutex_);
  auto found = handles.find(handle);
  if (found == handles.end()) return INFINI_STATUS_BAD_PARAM;
  forgotten = std::move(found->second);
  handles.erase(found);
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CpuRuntime::LaunchGraph(infinirtGraphExec_t exec, infinirtStream_t stream) {
  std::shared_ptr<const Graph> launched;
  {
    std::lock_guard<std::mutex> lock(graphs_mutex_);
    auto found = graph_execs_.find(exec);
    if (found == graph_execs_.end()) return INFINI_STATUS_BAD_PARAM;
    launched = found->second;
  }
  int device = 0;
  const infiniStatus_t status = StreamDevice(stream, &device);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (device != launched->device()) return INFINI_STATUS_BAD_PARAM;
  // A launch on a capturing stream is itself captured: its steps replay with that graph.
  return Enqueue(stream, Graph::RunAll(std::move(launched)), Replay::kReplayable);
}

}  // namespace infinicts::ref::cpu
