#include "fake_runtime.h"

#include <cmath>

#include <algorithm>
#include <chrono>
#include <thread>

namespace infinicts::timing::test {
namespace {

FakeRuntime *current_fake = nullptr;

FakeRuntime &Fake() { return *FakeRuntime::Current(); }

FakeStream *FindStream(infinirtStream_t stream) {
  for (const auto &owned : Fake().streams) {
    if (owned.get() == stream) return owned.get();
  }
  return nullptr;
}

FakeEvent *FindEvent(infinirtEvent_t event) {
  auto it = Fake().events.find(event);
  return it == Fake().events.end() ? nullptr : it->second.get();
}

infiniStatus_t SetDevice(infiniDevice_t type, int device_id) {
  Fake().Log("set_device");
  if (type != INFINI_DEVICE_CPU || device_id < 0) return INFINI_STATUS_DEVICE_NOT_FOUND;
  Fake().current_device = device_id;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t GetDevice(infiniDevice_t *type, int *device_id) {
  *type = INFINI_DEVICE_CPU;
  *device_id = Fake().current_device;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t StreamSynchronize(infinirtStream_t stream) {
  Fake().Log("sync");
  FakeStream *found = FindStream(stream);
  if (found == nullptr) return INFINI_STATUS_BAD_PARAM;
  if (found->pending_ms > 0) std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(found->pending_ms));
  found->pending_ms = 0;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t EventCreate(infinirtEvent_t *event_ptr) {
  Fake().Log("create_event");
  if (Fake().event_create_status != INFINI_STATUS_SUCCESS) return static_cast<infiniStatus_t>(Fake().event_create_status);
  auto event = std::make_unique<FakeEvent>();
  event->device_id = Fake().current_device;
  *event_ptr = event.get();
  Fake().events.emplace(event.get(), std::move(event));
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t EventDestroy(infinirtEvent_t event) {
  return Fake().events.erase(event) == 1 ? INFINI_STATUS_SUCCESS : INFINI_STATUS_BAD_PARAM;
}

// Like a real device runtime: the event, its stream and the current device must agree.
infiniStatus_t EventRecord(infinirtEvent_t event, infinirtStream_t stream) {
  Fake().Log("record");
  if (Fake().event_record_status != INFINI_STATUS_SUCCESS) return static_cast<infiniStatus_t>(Fake().event_record_status);
  FakeEvent *found_event = FindEvent(event);
  FakeStream *found_stream = FindStream(stream);
  if (found_event == nullptr || found_stream == nullptr) return INFINI_STATUS_BAD_PARAM;
  if (found_event->device_id != found_stream->device_id || found_stream->device_id != Fake().current_device) {
    return INFINI_STATUS_BAD_PARAM;
  }
  found_event->recorded = true;
  found_event->stamp_ms = found_stream->clock_ms;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t EventElapsedTime(float *ms_ptr, infinirtEvent_t start, infinirtEvent_t end) {
  if (Fake().event_elapsed_status != INFINI_STATUS_SUCCESS) return static_cast<infiniStatus_t>(Fake().event_elapsed_status);
  FakeEvent *found_start = FindEvent(start);
  FakeEvent *found_end = FindEvent(end);
  if (found_start == nullptr || found_end == nullptr || !found_start->recorded || !found_end->recorded) {
    return INFINI_STATUS_BAD_PARAM;
  }
  double ms = found_end->stamp_ms - found_start->stamp_ms;
  // A coarse clock reads whole ticks.
  if (Fake().event_tick_ms > 0) ms = std::floor(ms / Fake().event_tick_ms) * Fake().event_tick_ms;
  *ms_ptr = static_cast<float>(ms);
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t Malloc(void **p_ptr, size_t size) {
  Fake().Log("malloc");
  if (size > Fake().largest_allocation) return INFINI_STATUS_INTERNAL_ERROR;
  static uintptr_t next_address = 0x10000;
  next_address += 0x10000;
  *p_ptr = reinterpret_cast<void *>(next_address);  // never dereferenced
  Fake().allocations[*p_ptr] = size;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t Free(void *ptr) {
  Fake().Log("free");
  return Fake().allocations.erase(ptr) == 1 ? INFINI_STATUS_SUCCESS : INFINI_STATUS_BAD_PARAM;
}

infiniStatus_t MemsetAsync(void *ptr, int, size_t size, infinirtStream_t stream) {
  Fake().Log("memset");
  if (Fake().memset_status != INFINI_STATUS_SUCCESS) return static_cast<infiniStatus_t>(Fake().memset_status);
  auto it = Fake().allocations.find(ptr);
  if (it == Fake().allocations.end() || it->second < size || FindStream(stream) == nullptr) return INFINI_STATUS_BAD_PARAM;
  Fake().memset_sizes.push_back(size);
  return INFINI_STATUS_SUCCESS;
}

}  // namespace

FakeRuntime::FakeRuntime() : previous_(current_fake) { current_fake = this; }

FakeRuntime::~FakeRuntime() { current_fake = previous_; }

FakeRuntime *FakeRuntime::Current() { return current_fake; }

RtApi FakeRuntime::Api() const {
  RtApi api;
#define X(name, params, args) \
  api.name = [] params -> infiniStatus_t { return INFINI_STATUS_NOT_IMPLEMENTED; };
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "backend/rt_symbols.def"
#pragma GCC diagnostic pop
#undef X
  api.infinirtSetDevice = SetDevice;
  api.infinirtGetDevice = GetDevice;
  api.infinirtStreamSynchronize = StreamSynchronize;
  api.infinirtEventCreate = EventCreate;
  api.infinirtEventDestroy = EventDestroy;
  api.infinirtEventRecord = EventRecord;
  api.infinirtEventElapsedTime = EventElapsedTime;
  api.infinirtMalloc = Malloc;
  api.infinirtFree = Free;
  api.infinirtMemsetAsync = MemsetAsync;
  return api;
}

infinirtStream_t FakeRuntime::AddStream(int device_id) {
  streams.push_back(std::make_unique<FakeStream>());
  streams.back()->device_id = device_id;
  return streams.back().get();
}

void FakeRuntime::Enqueue(infinirtStream_t stream, double device_ms) {
  Log("launch");
  auto *target = static_cast<FakeStream *>(stream);
  target->clock_ms += device_ms;
  target->pending_ms += device_ms;
}

int CountCalls(const FakeRuntime &fake, const std::string &call) {
  return static_cast<int>(std::count(fake.calls.begin(), fake.calls.end(), call));
}

}  // namespace infinicts::timing::test
