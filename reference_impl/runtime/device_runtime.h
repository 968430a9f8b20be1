// The internal interface every device type's runtime implements (CPU now, CUDA later).
// The dispatch layer (api_*.cc) checks the caller's arguments, picks the runtime by the
// thread's current device type, by the owner of a stream or event handle, or by the
// owner of a pointer, and calls one of these methods. Stream handles reaching a runtime
// are never NULL: the dispatch layer replaces NULL by DefaultStream(current device).
#ifndef INFINICTS_REF_RUNTIME_DEVICE_RUNTIME_H
#define INFINICTS_REF_RUNTIME_DEVICE_RUNTIME_H

#include <cstddef>
#include <cstdint>

#include "infinirt.h"

namespace infinicts::ref {

// What a runtime knows about one address.
struct MemoryRange {
  enum class Kind { kNone, kDevice, kHost };
  Kind kind = Kind::kNone;
  int device = -1;  // for kDevice
  const char *base = nullptr;
  size_t size = 0;
  // A CPU device block other processes can map (host_blocks.h): its memfd, the bytes it
  // maps, and a number no other block of this process had. -1 / 0 otherwise.
  int shared_fd = -1;
  size_t shared_bytes = 0;
  uint64_t shared_serial = 0;

  // Whether [p, p + bytes) lies wholly inside this allocation.
  bool Holds(const void *p, size_t bytes) const {
    const uintptr_t start = reinterpret_cast<uintptr_t>(p);
    const uintptr_t first = reinterpret_cast<uintptr_t>(base);
    return kind != Kind::kNone && start >= first && start - first <= size && bytes <= size - (start - first);
  }
};

class DeviceRuntime {
 public:
  virtual ~DeviceRuntime() = default;

  virtual infiniDevice_t Type() const = 0;
  virtual int DeviceCount() const = 0;
  // `device` is in [0, DeviceCount()) for every method that takes one.
  virtual infiniStatus_t MemInfo(int device, size_t *free_bytes, size_t *total_bytes) = 0;
  virtual infiniStatus_t SynchronizeDevice(int device) = 0;

  // Streams.
  virtual infiniStatus_t DefaultStream(int device, infinirtStream_t *stream) = 0;
  virtual bool OwnsStream(infinirtStream_t stream) = 0;
  virtual infiniStatus_t StreamDevice(infinirtStream_t stream, int *device) = 0;
  virtual infiniStatus_t CreateStream(int device, infinirtStream_t *stream) = 0;
  virtual infiniStatus_t DestroyStream(infinirtStream_t stream) = 0;
  virtual infiniStatus_t SynchronizeStream(infinirtStream_t stream) = 0;
  virtual infiniStatus_t StreamWaitEvent(infinirtStream_t stream, infinirtEvent_t event) = 0;
  // Runs fn(arg) on the host in stream order (for the sibling reference libraries).
  virtual infiniStatus_t LaunchHostFunc(infinirtStream_t stream, void (*fn)(void *), void *arg) = 0;
  // The same for work that may run again: once outside a capture, once per launch of a graph
  // captured from the stream; release(arg) (may be NULL) once no run can follow. On an error
  // status release has not been called: the dispatch layer calls it.
  virtual infiniStatus_t LaunchReplayableHostFunc(infinirtStream_t stream, void (*fn)(void *), void *arg,
                                                  void (*release)(void *)) = 0;
  // Whether work enqueued on this runtime's streams has run when the enqueueing call returns
  // (the CPU runtime's synchronous mode).
  virtual bool RunsWorkAtCall() const { return false; }

  // Events.
  virtual bool OwnsEvent(infinirtEvent_t event) = 0;
  virtual infiniStatus_t CreateEvent(int device, uint32_t flags, infinirtEvent_t *event) = 0;
  virtual infiniStatus_t DestroyEvent(infinirtEvent_t event) = 0;
  virtual infiniStatus_t RecordEvent(infinirtEvent_t event, infinirtStream_t stream) = 0;
  virtual infiniStatus_t QueryEvent(infinirtEvent_t event, infinirtEventStatus_t *status) = 0;
  virtual infiniStatus_t SynchronizeEvent(infinirtEvent_t event) = 0;
  virtual infiniStatus_t ElapsedTime(float *ms, infinirtEvent_t start, infinirtEvent_t end) = 0;

  // Graphs. The dispatch layer has checked the mode's range and that out-pointers are non-NULL.
  virtual infiniStatus_t BeginCapture(infinirtStream_t stream, infinirtStreamCaptureMode_t mode) = 0;
  virtual infiniStatus_t EndCapture(infinirtStream_t stream, infinirtGraph_t *graph) = 0;
  virtual bool OwnsGraph(infinirtGraph_t graph) = 0;
  virtual infiniStatus_t DestroyGraph(infinirtGraph_t graph) = 0;
  virtual infiniStatus_t InstantiateGraph(infinirtGraphExec_t *exec, infinirtGraph_t graph) = 0;
  virtual bool OwnsGraphExec(infinirtGraphExec_t exec) = 0;
  virtual infiniStatus_t DestroyGraphExec(infinirtGraphExec_t exec) = 0;
  virtual infiniStatus_t LaunchGraph(infinirtGraphExec_t exec, infinirtStream_t stream) = 0;

  // Memory. The allocation (device or host) containing p, or kNone.
  virtual MemoryRange Locate(const void *p) = 0;
  // Whether any byte of [p, p + bytes) is device memory of this runtime.
  virtual bool OverlapsDeviceMemory(const void *p, size_t bytes) = 0;
  // Sizes are > 0 here: the dispatch layer answers size 0 itself.
  virtual infiniStatus_t Malloc(int device, void **p, size_t bytes) = 0;
  virtual infiniStatus_t MallocAsync(void **p, size_t bytes, infinirtStream_t stream) = 0;
  virtual infiniStatus_t MallocHost(void **p, size_t bytes) = 0;
  // p is non-NULL and Locate(p) is not kNone; the runtime checks that p starts a live
  // allocation of the right kind, atomically with releasing it.
  virtual infiniStatus_t Free(void *p) = 0;
  virtual infiniStatus_t FreeAsync(void *p, infinirtStream_t stream) = 0;
  virtual infiniStatus_t FreeHost(void *p) = 0;
  // Copies and fills whose ranges the dispatch layer has validated.
  virtual infiniStatus_t Memcpy(void *dst, const void *src, size_t bytes, infinirtMemcpyKind_t kind) = 0;
  virtual infiniStatus_t MemcpyAsync(void *dst, const void *src, size_t bytes, infinirtMemcpyKind_t kind,
                                     infinirtStream_t stream) = 0;
  virtual infiniStatus_t Memset(void *p, int value, size_t bytes) = 0;
  virtual infiniStatus_t MemsetAsync(void *p, int value, size_t bytes, infinirtStream_t stream) = 0;
};

}  // namespace infinicts::ref

#endif  // INFINICTS_REF_RUNTIME_DEVICE_RUNTIME_H
