// The CPU runtime: devices, streams and events.
#include "cpu/cpu_runtime.h"

#include <system_error>

#include "runtime/registry.h"

namespace infinicts::ref::cpu {

namespace {

// Work on a stream runs with the stream's device current, so that runtime calls made from
// inside it (NULL stream, Malloc) act on that device; the thread's own device comes back after
// (a synchronous stream runs its work on the caller's thread).
std::shared_ptr<Stream> StartStream(int device, bool is_default, bool synchronous) {
  return std::make_shared<Stream>(device, is_default, synchronous, [device](Stream::Work &work) {
    const CurrentDevice caller = GetCurrentDevice();
    SetCurrentDevice(CurrentDevice{INFINI_DEVICE_CPU, device});
    work();
    SetCurrentDevice(caller);
  });
}

}  // namespace

CpuRuntime &Instance() {
  static CpuRuntime *const instance = new CpuRuntime(ReadConfig());
  return *instance;
}

CpuRuntime::CpuRuntime(const Config &config)
    : config_(config),
      memory_(config.device_count, config.device_memory_bytes),
      default_streams_(static_cast<size_t>(config.device_count), nullptr) {}

infiniStatus_t CpuRuntime::MemInfo(int device, size_t *free_bytes, size_t *total_bytes) {
  memory_.Info(device, free_bytes, total_bytes);
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CpuRuntime::SynchronizeDevice(int device) {
  WaitForDevice(device);
  return INFINI_STATUS_SUCCESS;
}

void CpuRuntime::WaitForDevice(int device) {
  std::vector<std::shared_ptr<Stream>> streams;
  {
    std::lock_guard<std::mutex> lock(streams_mutex_);
    streams.reserve(streams_.size());
    for (const auto &entry : streams_) {
      if (device < 0 || entry.second->device() == device) streams.push_back(entry.second);
    }
  }
  for (const std::shared_ptr<Stream> &stream : streams) {
    // A stream's own work cannot wait for itself to finish.
    if (!stream->IsCallerWorker()) stream->Synchronize();
  }
}

std::shared_ptr<Stream> CpuRuntime::FindStream(infinirtStream_t stream) {
  std::lock_guard<std::mutex> lock(streams_mutex_);
  auto found = streams_.find(stream);
  return found == streams_.end() ? nullptr : found->second;
}

infiniStatus_t CpuRuntime::Enqueue(infinirtStream_t stream, Stream::Work work, Replay replay) {
  std::shared_ptr<Stream> target = FindStream(stream);
  if (target == nullptr) return INFINI_STATUS_BAD_PARAM;
  if (replay == Replay::kOnce) {
    if (IsCapturing(stream)) return INFINI_STATUS_BAD_PARAM;
  } else if (Capture(stream, work)) {
    return INFINI_STATUS_SUCCESS;
  }
  return target->Enqueue(std::move(work)) ? INFINI_STATUS_SUCCESS : INFINI_STATUS_BAD_PARAM;
}

infiniStatus_t CpuRuntime::DefaultStream(int device, infinirtStream_t *stream) {
  std::lock_guard<std::mutex> lock(streams_mutex_);
  Stream *&slot = default_streams_[static_cast<size_t>(device)];
  if (slot == nullptr) {
    std::shared_ptr<Stream> created;
    try {
      created = StartStream(device, /*is_default=*/true, config_.synchronous);
    } catch (const std::system_error &) {
      return INFINI_STATUS_INTERNAL_ERROR;
    }
    slot = created.get();
    streams_.emplace(slot, std::move(created));
  }
  *stream = slot;
  return INFINI_STATUS_SUCCESS;
}

bool CpuRuntime::OwnsStream(infinirtStream_t stream) {
  std::lock_guard<std::mutex> lock(streams_mutex_);
  return streams_.count(stream) != 0;
}

infiniStatus_t CpuRuntime::StreamDevice(infinirtStream_t stream, int *device) {
  std::shared_ptr<Stream> found = FindStream(stream);
  if (found == nullptr) return INFINI_STATUS_BAD_PARAM;
  *device = found->device();
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CpuRuntime::CreateStream(int device, infinirtStream_t *stream) {
  std::shared_ptr<Stream> created;
  try {
    created = StartStream(device, /*is_default=*/false, config_.synchronous);
  } catch (const std::system_error &) {
    return INFINI_STATUS_INTERNAL_ERROR;  // the host would not start another thread
  }
  std::lock_guard<std::mutex> lock(streams_mutex_);
  *stream = created.get();
  streams_.emplace(created.get(), std::move(created));
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CpuRuntime::DestroyStream(infinirtStream_t stream) {
  std::shared_ptr<Stream> destroyed;
  {
    std::lock_guard<std::mutex> lock(streams_mutex_);
    auto found = streams_.find(stream);
    if (found == streams_.end() || found->second->is_default() || found->second->IsCallerWorker()) {
      return INFINI_STATUS_BAD_PARAM;
    }
    destroyed = std::move(found->second);
    streams_.erase(found);
  }
  DiscardCapture(stream);  // what it was capturing dies with it
  // Pending work still runs: the worker drains its queue before it is joined.
  destroyed->Shutdown();
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CpuRuntime::SynchronizeStream(infinirtStream_t stream) {
  std::shared_ptr<Stream> found = FindStream(stream);
  // Work waiting for its own stream would wait forever; a capturing stream has nothing of its
  // capture to wait for, and a caller that thinks otherwise has a bug.
  if (found == nullptr || found->IsCallerWorker() || IsCapturing(stream)) return INFINI_STATUS_BAD_PARAM;
  found->Synchronize();
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CpuRuntime::StreamWaitEvent(infinirtStream_t stream, infinirtEvent_t event) {
  std::shared_ptr<Event> found = FindEvent(event);
  if (found == nullptr) return INFINI_STATUS_BAD_PARAM;
  // A graph holds no cross-stream dependencies here: a capture cannot wait for an event.
  if (!OwnsStream(stream) || IsCapturing(stream)) return INFINI_STATUS_BAD_PARAM;
  // The record to wait for is the latest at the time of this call.
  std::shared_ptr<Completion> record = found->Latest();
  if (record == nullptr || record->done()) return INFINI_STATUS_SUCCESS;
  return Enqueue(stream, [record] { record->Wait(); }, Replay::kOnce);
}

infiniStatus_t CpuRuntime::LaunchHostFunc(infinirtStream_t stream, void (*fn)(void *), void *arg) {
  return Enqueue(stream, [fn, arg] { fn(arg); }, Replay::kOnce);
}

std::shared_ptr<Event> CpuRuntime::FindEvent(infinirtEvent_t event) {
  std::lock_guard<std::mutex> lock(events_mutex_);
  auto found = events_.find(event);
  return found == events_.end() ? nullptr : found->second;
}

bool CpuRuntime::OwnsEvent(infinirtEvent_t event) { return FindEvent(event) != nullptr; }

infiniStatus_t CpuRuntime::CreateEvent(int device, uint32_t flags, infinirtEvent_t *event) {
  auto created = std::make_shared<Event>(device, flags);
  std::lock_guard<std::mutex> lock(events_mutex_);
  *event = created.get();
  events_.emplace(created.get(), std::move(created));
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CpuRuntime::DestroyEvent(infinirtEvent_t event) {
  // A record still pending keeps its Completion alive through the work that completes it.
  std::lock_guard<std::mutex> lock(events_mutex_);
  return events_.erase(event) == 1 ? INFINI_STATUS_SUCCESS : INFINI_STATUS_BAD_PARAM;
}

infiniStatus_t CpuRuntime::RecordEvent(infinirtEvent_t event, infinirtStream_t stream) {
  std::shared_ptr<Event> found = FindEvent(event);
  std::shared_ptr<Stream> target = FindStream(stream);
  // An event recorded into a capture would stand for no work until a launch: refused.
  if (found == nullptr || target == nullptr || IsCapturing(stream)) return INFINI_STATUS_BAD_PARAM;
  auto record = std::make_shared<Completion>();
  const bool enqueued = found->Record(record, [&] { return target->Enqueue([record] { record->Complete(); }); });
  return enqueued ? INFINI_STATUS_SUCCESS : INFINI_STATUS_BAD_PARAM;
}

infiniStatus_t CpuRuntime::QueryEvent(infinirtEvent_t event, infinirtEventStatus_t *status) {
  std::shared_ptr<Event> found = FindEvent(event);
  if (found == nullptr) return INFINI_STATUS_BAD_PARAM;
  std::shared_ptr<Completion> record = found->Latest();
  *status = record == nullptr || record->done() ? INFINIRT_EVENT_COMPLETE : INFINIRT_EVENT_NOT_READY;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CpuRuntime::SynchronizeEvent(infinirtEvent_t event) {
  std::shared_ptr<Event> found = FindEvent(event);
  if (found == nullptr) return INFINI_STATUS_BAD_PARAM;
  if (std::shared_ptr<Completion> record = found->Latest()) record->Wait();
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CpuRuntime::ElapsedTime(float *ms, infinirtEvent_t start, infinirtEvent_t end) {
  std::shared_ptr<Event> start_event = FindEvent(start);
  std::shared_ptr<Event> end_event = FindEvent(end);
  if (start_event == nullptr || end_event == nullptr) return INFINI_STATUS_BAD_PARAM;
  if (((start_event->flags() | end_event->flags()) & INFINIRT_EVENT_DISABLE_TIMING) != 0) {
    return INFINI_STATUS_BAD_PARAM;
  }
  std::shared_ptr<Completion> first = start_event->Latest();
  std::shared_ptr<Completion> last = end_event->Latest();
  if (first == nullptr || last == nullptr) return INFINI_STATUS_BAD_PARAM;
  // CUDA's "not ready": the caller has to synchronize first.
  if (!first->done() || !last->done()) return INFINI_STATUS_INTERNAL_ERROR;
  *ms = static_cast<float>(static_cast<double>(last->time_ns() - first->time_ns()) / 1e6);
  return INFINI_STATUS_SUCCESS;
}

}  // namespace infinicts::ref::cpu
