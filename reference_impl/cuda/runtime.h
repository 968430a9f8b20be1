// The CUDA runtime of InfiniRT (INFINI_DEVICE_NVIDIA) on the CUDA runtime API. One instance
// per process, never destroyed (see Instance()).
//
// Streams: every InfiniRT stream wraps a cudaStream_t in an object this runtime owns, so
// that OwnsStream/StreamDevice answer exactly. Created streams are *blocking* streams
// (cudaStreamDefault): they order with the legacy NULL stream, so synchronous Memcpy,
// Memset and Free act in order with earlier work of every stream of the device, as on the
// CPU runtime. The default stream of a device stands for cudaStreamLegacy (named
// explicitly, so that a build with per-thread default streams does not change it): one
// stream per device shared by all threads, which DeviceSynchronize covers.
//
// Graphs: cudaStreamBeginCapture (modes map one to one), cudaStreamEndCapture,
// cudaGraphInstantiate, cudaGraphLaunch and the destroys; the handles are the CUDA graph and
// graph exec themselves, remembered with their device so that routing answers exactly. The
// default stream (cudaStreamLegacy) cannot be captured: CUDA refuses, and so does InfiniRT.
//
// Events: DEFAULT -> cudaEventDefault, DISABLE_TIMING -> cudaEventDisableTiming,
// BLOCKING_SYNC -> cudaEventBlockingSync (bits combine). The runtime remembers whether an
// event was ever recorded, since InfiniRT answers BAD_PARAM for ElapsedTime on one that was
// not, where CUDA answers an invalid handle.
#ifndef INFINICTS_REF_CUDA_RUNTIME_H
#define INFINICTS_REF_CUDA_RUNTIME_H

#include <cuda_runtime_api.h>

#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "cuda/allocations.h"
#include "runtime/device_runtime.h"

namespace infinicts::ref::cuda {

struct StreamHandle {
  int device = 0;
  cudaStream_t stream = nullptr;
  bool is_default = false;
};

struct EventHandle {
  int device = 0;
  uint32_t flags = 0;
  cudaEvent_t event = nullptr;
  bool recorded = false;
};

class CudaRuntime final : public DeviceRuntime {
 public:
  CudaRuntime();

  infiniDevice_t Type() const override { return INFINI_DEVICE_NVIDIA; }
  int DeviceCount() const override { return device_count_; }
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

  MemoryRange Locate(const void *p) override { return allocations_.Locate(p); }
  bool OverlapsDeviceMemory(const void *p, size_t bytes) override { return allocations_.OverlapsDevice(p, bytes); }
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

  // The CUDA stream behind a stream handle of this runtime (for the sibling libraries).
  std::optional<StreamHandle> FindStream(infinirtStream_t stream);

 private:
  std::optional<EventHandle> FindEvent(infinirtEvent_t event);
  // The device a synchronous copy runs on: its device side's, or for H2H the calling
  // thread's current NVIDIA device (0 when the current device is of another type).
  int CopyDevice(const void *dst, const void *src, infinirtMemcpyKind_t kind);
  // Free's and FreeAsync's release of an allocation already taken from the registry; the
  // caller puts it back when this fails (the memory is still allocated then).
  infiniStatus_t ReleaseDevice(const Allocation &freed, void *p);
  infiniStatus_t ReleaseDeviceOnStream(const Allocation &freed, void *p, const StreamHandle &target);

  const int device_count_;
  Allocations allocations_;

  std::mutex streams_mutex_;
  std::unordered_map<const void *, std::unique_ptr<StreamHandle>> streams_;  // default streams included
  std::vector<StreamHandle *> default_streams_;                             // by device; NULL until first use

  std::mutex events_mutex_;
  std::unordered_map<const void *, std::unique_ptr<EventHandle>> events_;

  // Live graphs and graph execs, each with the device it was captured on.
  std::mutex graphs_mutex_;
  std::unordered_map<const void *, int> graphs_;
  std::unordered_map<const void *, int> graph_execs_;
  // The device of a live graph (graph exec), or nothing.
  std::optional<int> GraphDevice(const std::unordered_map<const void *, int> &handles, const void *handle);
  // Drops a live graph (graph exec) handle; false when `handles` does not hold it.
  bool Forget(std::unordered_map<const void *, int> &handles, const void *handle);
};

// The process's CUDA runtime, built on first use and never destroyed.
CudaRuntime &Instance();

}  // namespace infinicts::ref::cuda

#endif  // INFINICTS_REF_CUDA_RUNTIME_H
