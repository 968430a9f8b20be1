// The CPU runtime: virtual devices whose memory is host memory and whose streams are
// worker threads. One instance per process, never destroyed (see Instance()).
#ifndef INFINICTS_REF_CPU_CPU_RUNTIME_H
#define INFINICTS_REF_CPU_CPU_RUNTIME_H

#include <atomic>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "cpu/config.h"
#include "cpu/event.h"
#include "cpu/graph.h"
#include "cpu/memory.h"
#include "cpu/stream.h"
#include "runtime/device_runtime.h"

namespace infinicts::ref::cpu {

class CpuRuntime final : public DeviceRuntime {
 public:
  explicit CpuRuntime(const Config &config);

  infiniDevice_t Type() const override { return INFINI_DEVICE_CPU; }
  int DeviceCount() const override { return config_.device_count; }
  infiniStatus_t MemInfo(int device, size_t *free_bytes, size_t *total_bytes) override;
  infiniStatus_t SynchronizeDevice(int device) override;

  infiniStatus_t DefaultStream(int device, infinirtStream_t *stream) override;
  bool OwnsStream(infinirtStream_t stream) override;
  infiniStatus_t StreamDevice(infinirtStream_t stream, int *device) override;
  infiniStatus_t CreateStream(int device, infinirtStream_t *stream) override;
  infiniStatus_t DestroyStream(infinirtStream_t stream) override;
  infiniStatus_t SynchronizeStream(infinirtStream_t stream) override;
  infiniStatus_t StreamWaitEvent(infinirtStream_t stream, infinirtEvent_t event) override;
  infiniStatus_t LaunchHostFunc(infinirtStream_t stream, void (*fn)(void *), void *arg) override;
  infiniStatus_t LaunchReplayableHostFunc(infinirtStream_t stream, void (*fn)(void *), void *arg,
                                          void (*release)(void *)) override;
  bool RunsWorkAtCall() const override { return config_.synchronous; }

  bool OwnsEvent(infinirtEvent_t event) override;
  infiniStatus_t CreateEvent(int device, uint32_t flags, infinirtEvent_t *event) override;
  infiniStatus_t DestroyEvent(infinirtEvent_t event) override;
  infiniStatus_t RecordEvent(infinirtEvent_t event, infinirtStream_t stream) override;
  infiniStatus_t QueryEvent(infinirtEvent_t event, infinirtEventStatus_t *status) override;
  infiniStatus_t SynchronizeEvent(infinirtEvent_t event) override;
  infiniStatus_t ElapsedTime(float *ms, infinirtEvent_t start, infinirtEvent_t end) override;

  infiniStatus_t BeginCapture(infinirtStream_t stream, infinirtStreamCaptureMode_t mode) override;
  infiniStatus_t EndCapture(infinirtStream_t stream, infinirtGraph_t *graph) override;
  bool OwnsGraph(infinirtGraph_t graph) override;
  infiniStatus_t DestroyGraph(infinirtGraph_t graph) override;
  infiniStatus_t InstantiateGraph(infinirtGraphExec_t *exec, infinirtGraph_t graph) override;
  bool OwnsGraphExec(infinirtGraphExec_t exec) override;
  infiniStatus_t DestroyGraphExec(infinirtGraphExec_t exec) override;
  infiniStatus_t LaunchGraph(infinirtGraphExec_t exec, infinirtStream_t stream) override;

  MemoryRange Locate(const void *p) override { return memory_.Locate(p); }
  bool OverlapsDeviceMemory(const void *p, size_t bytes) override { return memory_.OverlapsDevice(p, bytes); }
  infiniStatus_t Malloc(int device, void **p, size_t bytes) override;
  infiniStatus_t MallocAsync(void **p, size_t bytes, infinirtStream_t stream) override;
  infiniStatus_t MallocHost(void **p, size_t bytes) override;
  infiniStatus_t Free(void *p) override;
  infiniStatus_t FreeAsync(void *p, infinirtStream_t stream) override;
  infiniStatus_t FreeHost(void *p) override;
  infiniStatus_t Memcpy(void *dst, const void *src, size_t bytes, infinirtMemcpyKind_t kind) override;
  infiniStatus_t MemcpyAsync(void *dst, const void *src, size_t bytes, infinirtMemcpyKind_t kind,
                             infinirtStream_t stream) override;
  infiniStatus_t Memset(void *p, int value, size_t bytes) override;
  infiniStatus_t MemsetAsync(void *p, int value, size_t bytes, infinirtStream_t stream) override;

 private:
  std::shared_ptr<Stream> FindStream(infinirtStream_t stream);
  std::shared_ptr<Event> FindEvent(infinirtEvent_t event);
  // Waits for the work enqueued so far on every stream of `device` (device < 0: of every
  // device), except the stream whose worker is calling.
  void WaitForDevice(int device);
  // Synchronous copies, fills and frees act in order with all earlier work of the device
  // they touch (device < 0: of every device), like CUDA's legacy default stream and
  // cudaFree. Skipped inside stream work, where waiting for other streams could wait for
  // this very work.
  void WaitImplicitly(int device);
  void WaitBeforeTouching(const void *device_memory);
  // Whether work may run more than once: only such work is recorded by a capturing stream.
  enum class Replay { kOnce, kReplayable };
  // Adds work, or records it when the stream is capturing (BAD_PARAM there for kOnce work);
  // BAD_PARAM when the stream was destroyed meanwhile.
  infiniStatus_t Enqueue(infinirtStream_t stream, Stream::Work work, Replay replay);
  // Whether the stream is capturing a graph: the calls that cannot be captured refuse it.
  bool IsCapturing(infinirtStream_t stream);
  // Records `work` into the stream's capture; false when the stream is not capturing.
  bool Capture(infinirtStream_t stream, Stream::Work &work);
  // Ends the stream's capture, if any, keeping nothing.
  void DiscardCapture(infinirtStream_t stream);
  // Drops a graph (graph exec) handle; BAD_PARAM when `handles` does not hold it.
  infiniStatus_t Forget(std::unordered_map<const void *, std::shared_ptr<const Graph>> &handles,
                        const void *handle);

  const Config config_;
  Memory memory_;

  std::mutex streams_mutex_;
  std::unordered_map<const void *, std::shared_ptr<Stream>> streams_;  // default streams included
  std::vector<Stream *> default_streams_;                              // by device; NULL until first use

  std::mutex events_mutex_;
  std::unordered_map<const void *, std::shared_ptr<Event>> events_;

  // Captures under way, by stream; graphs and graph execs by handle. Every enqueue looks at the
  // captures only while some exist.
  std::mutex graphs_mutex_;
  std::atomic<int> captures_under_way_{0};
  std::unordered_map<const void *, std::shared_ptr<Graph>> captures_;
  std::unordered_map<const void *, std::shared_ptr<const Graph>> graphs_;
  std::unordered_map<const void *, std::shared_ptr<const Graph>> graph_execs_;
};

// The process's CPU runtime, built on first use from the environment and never destroyed:
// stream workers may still run while static destructors do, and then exit ends them.
CpuRuntime &Instance();

}  // namespace infinicts::ref::cpu

#endif  // INFINICTS_REF_CPU_CPU_RUNTIME_H
