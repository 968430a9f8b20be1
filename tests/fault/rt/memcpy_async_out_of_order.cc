// The fault `memcpy_async_out_of_order`: MemcpyAsync only records the copy; the copy is
// made after the real stream drained, at the next StreamSynchronize of its stream (or
// StreamDestroy), DeviceSynchronize or EventSynchronize. Work enqueued behind the copy
// therefore runs before it, deterministically. Calls with arguments the target refuses
// on sight (NULL, unknown kind) or with nothing to copy still go to the target, so
// that only ordering changes.
#include <mutex>
#include <vector>

#include "rt/rt_faults.h"

namespace infinicts::fault {
namespace {

struct DeferredCopy {
  void *dst;
  const void *src;
  size_t size;
  infinirtMemcpyKind_t kind;
  infinirtStream_t stream;
};

std::mutex pending_mutex;
std::vector<DeferredCopy> pending;

bool RefusedOnSight(void *dst, const void *src, size_t size, infinirtMemcpyKind_t kind) {
  const int kind_value = static_cast<int>(kind);
  return size == 0 || dst == nullptr || src == nullptr || kind_value < INFINIRT_MEMCPY_H2H ||
         kind_value > INFINIRT_MEMCPY_D2D;
}

// Makes, in enqueue order, the deferred copies of `stream` (or all of them).
void MakeDeferredCopies(bool all_streams, infinirtStream_t stream) {
  std::vector<DeferredCopy> due;
  {
    std::lock_guard<std::mutex> lock(pending_mutex);
    std::vector<DeferredCopy> kept;
    for (const DeferredCopy &copy : pending) {
      (all_streams || copy.stream == stream ? due : kept).push_back(copy);
    }
    pending.swap(kept);
  }
  for (const DeferredCopy &copy : due) {
    TargetRt().infinirtMemcpy(copy.dst, copy.src, copy.size, copy.kind);
  }
}

infiniStatus_t DeferredMemcpyAsync(void *dst, const void *src, size_t size, infinirtMemcpyKind_t kind,
                                   infinirtStream_t stream) {
  if (RefusedOnSight(dst, src, size, kind)) {
    return TargetRt().infinirtMemcpyAsync(dst, src, size, kind, stream);
  }
  std::lock_guard<std::mutex> lock(pending_mutex);
  pending.push_back({dst, src, size, kind, stream});
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t StreamSynchronizeThenCopy(infinirtStream_t stream) {
  const infiniStatus_t status = TargetRt().infinirtStreamSynchronize(stream);
  MakeDeferredCopies(false, stream);
  return status;
}

infiniStatus_t StreamDestroyThenCopy(infinirtStream_t stream) {
  const infiniStatus_t status = TargetRt().infinirtStreamDestroy(stream);
  if (status == INFINI_STATUS_SUCCESS) MakeDeferredCopies(false, stream);
  return status;
}

infiniStatus_t DeviceSynchronizeThenCopy() {
  const infiniStatus_t status = TargetRt().infinirtDeviceSynchronize();
  MakeDeferredCopies(true, nullptr);
  return status;
}

infiniStatus_t EventSynchronizeThenCopy(infinirtEvent_t event) {
  const infiniStatus_t status = TargetRt().infinirtEventSynchronize(event);
  MakeDeferredCopies(true, nullptr);
  return status;
}

}  // namespace

void InstallMemcpyAsyncOutOfOrder(RtTable &calls) {
  calls.infinirtMemcpyAsync = &DeferredMemcpyAsync;
  calls.infinirtStreamSynchronize = &StreamSynchronizeThenCopy;
  calls.infinirtStreamDestroy = &StreamDestroyThenCopy;
  calls.infinirtDeviceSynchronize = &DeviceSynchronizeThenCopy;
  calls.infinirtEventSynchronize = &EventSynchronizeThenCopy;
}

INFINICTS_FAULT(RtTable, "memcpy_async_out_of_order",
                "MemcpyAsync runs at the next Stream/Device/EventSynchronize, after the work enqueued behind it",
                InstallMemcpyAsyncOutOfOrder);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// fault-detection: memcpy_async_out_of_order TIMEOUT 30 EXPECT
// fault-detection:   rt.stream.conformance/in_order/copy_then_memset/*
// fault-detection:   rt.stream.conformance/in_order/d2d_then_memset_source/*
// fault-detection:   rt.stream.conformance/in_order/d2h_then_memset/*
// fault-detection:   rt.stream.conformance/null_stream_in_order/*
// fault-detection:   rt.event.conformance/stream_wait_event/*
