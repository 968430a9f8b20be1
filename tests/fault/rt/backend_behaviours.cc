// Runtime behaviours real backends show that the interface allows (docs/spec/rt.md's Why texts):
// each a fault of its own, so that together ("infinicore_cpu_like", common/fault_env.cc) they
// imitate a backend the suite must judge fairly, and alone they show which verdict each moves.
#include <csignal>
#include <cstdint>
#include <mutex>
#include <unordered_set>

#include "rt/rt_faults.h"

namespace infinicts::fault {
namespace {

// ---- null_arguments_unchecked: a NULL the target refuses with NULL_POINTER is dereferenced.

RtTable g_before_unchecked;  // the calls as they were before this fault wrapped them

infiniStatus_t CrashOnNullPointer(infiniStatus_t status) {
  if (status == INFINI_STATUS_NULL_POINTER) std::raise(SIGSEGV);  // where an unchecked backend reads through it
  return status;
}

namespace unchecked {
#define X(name, params, args) \
  infiniStatus_t name params { return CrashOnNullPointer(g_before_unchecked.name args); }
#include "backend/rt_symbols.def"
#undef X
}  // namespace unchecked

// ---- runs_work_at_the_call: every *Async call returns once its work is done.

RtTable g_before_sync;

infiniStatus_t Finished(infiniStatus_t status, infinirtStream_t stream) {
  if (status != INFINI_STATUS_SUCCESS) return status;
  return g_before_sync.infinirtStreamSynchronize(stream);
}

infiniStatus_t MemcpyAsyncAtTheCall(void *dst, const void *src, size_t size, infinirtMemcpyKind_t kind,
                                    infinirtStream_t stream) {
  return Finished(g_before_sync.infinirtMemcpyAsync(dst, src, size, kind, stream), stream);
}

infiniStatus_t MemsetAsyncAtTheCall(void *p, int value, size_t size, infinirtStream_t stream) {
  return Finished(g_before_sync.infinirtMemsetAsync(p, value, size, stream), stream);
}

infiniStatus_t MallocAsyncAtTheCall(void **p, size_t size, infinirtStream_t stream) {
  return Finished(g_before_sync.infinirtMallocAsync(p, size, stream), stream);
}

infiniStatus_t FreeAsyncAtTheCall(void *p, infinirtStream_t stream) {
  return Finished(g_before_sync.infinirtFreeAsync(p, stream), stream);
}

infiniStatus_t EventRecordAtTheCall(infinirtEvent_t event, infinirtStream_t stream) {
  return Finished(g_before_sync.infinirtEventRecord(event, stream), stream);
}

// ---- malloc_16_byte_aligned: device allocations 16 bytes into a larger block, as malloc gives.

constexpr uintptr_t kMallocOffset = 16;

std::mutex g_offset_mutex;
std::unordered_set<void *> g_offset_pointers;  // what Malloc handed out, each kMallocOffset into its block
RtTable g_before_offset;

void *BlockOf(void *p) { return static_cast<uint8_t *>(p) - kMallocOffset; }

// The block behind a pointer this fault handed out, or the pointer itself; `forget` drops it.
void *TargetPointer(void *p, bool forget) {
  std::lock_guard<std::mutex> lock(g_offset_mutex);
  const auto found = g_offset_pointers.find(p);
  if (found == g_offset_pointers.end()) return p;
  if (forget) g_offset_pointers.erase(found);
  return BlockOf(p);
}

infiniStatus_t MallocOffset(void **p_ptr, size_t size) {
  if (p_ptr == nullptr || size == 0 || size > SIZE_MAX - kMallocOffset) return g_before_offset.infinirtMalloc(p_ptr, size);
  void *block = nullptr;
  const infiniStatus_t status = g_before_offset.infinirtMalloc(&block, size + kMallocOffset);
  if (status != INFINI_STATUS_SUCCESS || block == nullptr) return status;
  *p_ptr = static_cast<uint8_t *>(block) + kMallocOffset;
  std::lock_guard<std::mutex> lock(g_offset_mutex);
  g_offset_pointers.insert(*p_ptr);
  return status;
}

infiniStatus_t FreeOffset(void *p) {
  void *target = TargetPointer(p, /*forget=*/false);
  const infiniStatus_t status = g_before_offset.infinirtFree(target);
  if (status == INFINI_STATUS_SUCCESS) TargetPointer(p, /*forget=*/true);
  return status;
}

infiniStatus_t FreeAsyncOffset(void *p, infinirtStream_t stream) {
  void *target = TargetPointer(p, /*forget=*/false);
  const infiniStatus_t status = g_before_offset.infinirtFreeAsync(target, stream);
  if (status == INFINI_STATUS_SUCCESS) TargetPointer(p, /*forget=*/true);
  return status;
}

// ---- the NULL stream's runtime, StreamWaitEvent and graphs.

infiniStatus_t StreamDestroyAcceptingNull(infinirtStream_t stream) {
  return stream == nullptr ? INFINI_STATUS_SUCCESS : TargetRt().infinirtStreamDestroy(stream);
}

infiniStatus_t StreamWaitEventNotImplemented(infinirtStream_t, infinirtEvent_t) {
  return INFINI_STATUS_NOT_IMPLEMENTED;
}

infiniStatus_t BeginCaptureUnsupported(infinirtStream_t, infinirtStreamCaptureMode_t) {
  return INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED;
}
infiniStatus_t EndCaptureUnsupported(infinirtStream_t, infinirtGraph_t *) {
  return INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED;
}
infiniStatus_t GraphDestroyUnsupported(infinirtGraph_t) { return INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED; }
infiniStatus_t InstantiateUnsupported(infinirtGraphExec_t *, infinirtGraph_t, infinirtGraphNode_t *, char *, size_t) {
  return INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED;
}
infiniStatus_t ExecDestroyUnsupported(infinirtGraphExec_t) { return INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED; }
infiniStatus_t LaunchUnsupported(infinirtGraphExec_t, infinirtStream_t) {
  return INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED;
}

}  // namespace

void InstallNullArgumentsUnchecked(RtTable &calls) {
  g_before_unchecked = calls;
#define X(name, params, args) calls.name = &unchecked::name;
#include "backend/rt_symbols.def"
#undef X
}

void InstallRunsWorkAtTheCall(RtTable &calls) {
  g_before_sync = calls;
  calls.infinirtMemcpyAsync = &MemcpyAsyncAtTheCall;
  calls.infinirtMemsetAsync = &MemsetAsyncAtTheCall;
  calls.infinirtMallocAsync = &MallocAsyncAtTheCall;
  calls.infinirtFreeAsync = &FreeAsyncAtTheCall;
  calls.infinirtEventRecord = &EventRecordAtTheCall;
}

void InstallMalloc16ByteAligned(RtTable &calls) {
  g_before_offset = calls;
  calls.infinirtMalloc = &MallocOffset;
  calls.infinirtFree = &FreeOffset;
  calls.infinirtFreeAsync = &FreeAsyncOffset;
}

void InstallStreamDestroyAcceptingNull(RtTable &calls) { calls.infinirtStreamDestroy = &StreamDestroyAcceptingNull; }

void InstallStreamWaitEventNotImplemented(RtTable &calls) {
  calls.infinirtStreamWaitEvent = &StreamWaitEventNotImplemented;
}

void InstallGraphsNotSupported(RtTable &calls) {
  calls.infinirtStreamBeginCapture = &BeginCaptureUnsupported;
  calls.infinirtStreamEndCapture = &EndCaptureUnsupported;
  calls.infinirtGraphDestroy = &GraphDestroyUnsupported;
  calls.infinirtGraphInstantiate = &InstantiateUnsupported;
  calls.infinirtGraphExecDestroy = &ExecDestroyUnsupported;
  calls.infinirtGraphLuanch = &LaunchUnsupported;
}

INFINICTS_FAULT(RtTable, "runs_work_at_the_call",
                "every *Async call and EventRecord return once their stream is done",
                InstallRunsWorkAtTheCall);

INFINICTS_FAULT(RtTable, "stream_wait_event_not_implemented",
                "StreamWaitEvent answers NOT_IMPLEMENTED",
                InstallStreamWaitEventNotImplemented);

INFINICTS_FAULT(RtTable, "graphs_not_supported",
                "every graph function answers DEVICE_TYPE_NOT_SUPPORTED",
                InstallGraphsNotSupported);

INFINICTS_FAULT(RtTable, "null_arguments_unchecked",
                "a NULL argument the target refuses with NULL_POINTER crashes the process (SIGSEGV)",
                InstallNullArgumentsUnchecked);

INFINICTS_FAULT(RtTable, "malloc_16_byte_aligned",
                "Malloc hands out pointers 16 bytes into their blocks (16-, never 256-byte aligned)",
                InstallMalloc16ByteAligned);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Each behaviour alone. Malloc's 16-byte alignment (256 is RT-MEM-22, a SHOULD): every case passes.
// fault-detection: malloc_16_byte_aligned TIMEOUT 30 ONLY
