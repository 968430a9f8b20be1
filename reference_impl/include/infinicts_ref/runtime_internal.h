/* infinicts: internal entry points of the reference libinfinirt.so for its sibling
 * reference libraries (libinfiniop.so, libinfiniccl.so), which link against it.
 *
 * Not part of InfiniRT: a vendor's backend has none of these and the harness never calls
 * them. They are exported (with the `infinictsRef` prefix) only so that the operators and
 * collectives can run their host work in stream order on the reference runtime.
 *
 * Streams follow InfiniRT's rules: NULL is the calling thread's current device's default
 * stream; a handle no runtime of this library created answers INFINI_STATUS_BAD_PARAM. */
#ifndef INFINICTS_REF_RUNTIME_INTERNAL_H
#define INFINICTS_REF_RUNTIME_INTERNAL_H

#include "infinirt.h"

/* Runs fn(arg) on the host, in the order of `stream`: after all work enqueued on it
 * before, before all work enqueued after. On SUCCESS fn is called exactly once, on
 * another thread (the stream's worker, whose current device is the stream's device);
 * on any other status never.
 * fn may block (e.g. to meet work on other streams: every CPU stream has its own worker)
 * and may enqueue work on any stream, but must not synchronize or destroy its own stream
 * (BAD_PARAM); synchronous runtime calls made inside it (Memcpy, Memset, Free) do not
 * wait for other streams.
 * fn NULL -> NULL_POINTER; unknown stream -> BAD_PARAM; NULL stream while the current
 * device type has no runtime here -> DEVICE_TYPE_NOT_SUPPORTED. */
__INFINI_C __export infiniStatus_t infinictsRefStreamEnqueue(infinirtStream_t stream, void (*fn)(void *), void *arg);

/* infinictsRefStreamEnqueue for work that may run any number of times: the form a stream that
 * is capturing a graph (infinirtStreamBeginCapture) records instead of running it. Outside a
 * capture fn runs once, in stream order, as infinictsRefStreamEnqueue's does; during one it does
 * not run at all, and every launch of a graph instantiated from the capture runs it again, in
 * that launch's stream order. release(arg) (may be NULL) is called exactly once, after the last
 * run fn can ever have (the work ran, or the last graph and graph exec holding it were
 * destroyed), on any thread; on a status other than SUCCESS right away, before returning.
 * infinictsRefStreamEnqueue itself is refused on a capturing stream (BAD_PARAM): its fn is
 * meant to run once. */
__INFINI_C __export infiniStatus_t infinictsRefStreamEnqueueReplayable(infinirtStream_t stream, void (*fn)(void *),
                                                                       void *arg, void (*release)(void *));

/* The device a stream belongs to (NULL: the calling thread's current device).
 * type or device_id NULL -> NULL_POINTER; unknown stream -> BAD_PARAM. */
__INFINI_C __export infiniStatus_t infinictsRefStreamDevice(infinirtStream_t stream, infiniDevice_t *type,
                                                            int *device_id);

/* Whether work enqueued on the stream (NULL: the current device's default stream) has run when
 * the enqueueing call returns: 1 for the CPU runtime's synchronous mode (INFINICTS_CPU_SYNC=1),
 * else 0. runs_at_call NULL -> NULL_POINTER; unknown stream -> BAD_PARAM. */
__INFINI_C __export infiniStatus_t infinictsRefStreamRunsAtCall(infinirtStream_t stream, int *runs_at_call);

/* The device whose live allocation holds all of [ptr, ptr + size) (size 0: ptr itself).
 * ptr, type or device_id NULL -> NULL_POINTER; not inside one device allocation
 * (host memory included) -> BAD_PARAM. */
__INFINI_C __export infiniStatus_t infinictsRefPointerDevice(const void *ptr, size_t size, infiniDevice_t *type,
                                                             int *device_id);

/* From this call on, CPU device allocations of 1 MiB and more are made so that other processes
 * of this host can map them (infinictsRefSharedBlock). The collectives call it when a
 * communicator across processes forms; allocations made before stay private. */
__INFINI_C __export void infinictsRefShareLargeDeviceBlocks(void);

/* Where another process of this host maps the memory of [ptr, ptr + size) (size 0: ptr
 * itself): /proc/<this pid>/fd/<*fd>, *block_bytes long, ptr at *offset in it. *serial differs
 * for every such block this process ever made, so a peer can keep its mapping by (pid, serial).
 * The fd is valid while the allocation lives. Any NULL -> NULL_POINTER; not inside one
 * shareable device allocation -> BAD_PARAM. */
__INFINI_C __export infiniStatus_t infinictsRefSharedBlock(const void *ptr, size_t size, int *fd, size_t *offset,
                                                           size_t *block_bytes, uint64_t *serial);

/* The cudaStream_t (as void *) behind an NVIDIA stream (NULL: the current device's default
 * stream, cudaStreamLegacy). Only in builds with the CUDA runtime.
 * cuda_stream NULL -> NULL_POINTER; unknown or non-NVIDIA stream -> BAD_PARAM. */
__INFINI_C __export infiniStatus_t infinictsRefCudaStream(infinirtStream_t stream, void **cuda_stream);

#ifdef __cplusplus
#include <functional>
#include <utility>

namespace infinicts_ref {

/* infinictsRefStreamEnqueue for any callable: `work` runs once in stream order. */
inline infiniStatus_t EnqueueOnStream(infinirtStream_t stream, std::function<void()> work) {
  auto *heap_work = new std::function<void()>(std::move(work));
  const infiniStatus_t status = infinictsRefStreamEnqueue(
      stream,
      [](void *arg) {
        auto *owned = static_cast<std::function<void()> *>(arg);
        (*owned)();
        delete owned;
      },
      heap_work);
  if (status != INFINI_STATUS_SUCCESS) delete heap_work;
  return status;
}

/* infinictsRefStreamEnqueueReplayable for any callable: `work` runs in stream order, once, or
 * once per launch of a graph captured from the stream; it must therefore read its inputs when it
 * runs and keep no state from one run to the next. */
inline infiniStatus_t EnqueueReplayableOnStream(infinirtStream_t stream, std::function<void()> work) {
  auto *heap_work = new std::function<void()>(std::move(work));
  return infinictsRefStreamEnqueueReplayable(
      stream, [](void *arg) { (*static_cast<std::function<void()> *>(arg))(); }, heap_work,
      [](void *arg) { delete static_cast<std::function<void()> *>(arg); });
}

}  // namespace infinicts_ref
#endif

#endif /* INFINICTS_REF_RUNTIME_INTERNAL_H */
