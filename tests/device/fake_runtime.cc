#include "fake_runtime.h"

#include <new>

namespace infinicts::device::testing {
namespace {

thread_local DeviceId current_device{INFINI_DEVICE_CPU, 0};

using Lock = std::lock_guard<std::mutex>;

// Counts the call, notes the device it ran on, and answers the forced status if any.
// The caller holds the fake's mutex.
std::optional<infiniStatus_t> Enter(const char *call) {
  FakeRuntime &fake = Fake();
  ++fake.calls[call];
  fake.device_at_last_call[call] = current_device;
  auto forced = fake.forced_status.find(call);
  if (forced == fake.forced_status.end()) return std::nullopt;
  return forced->second;
}

void *NewHandle() {
  // Distinct, never dereferenced.
  return reinterpret_cast<void *>(0x10000 + 0x100 * Fake().next_handle++);
}

bool ValidType(infiniDevice_t type) { return type >= 0 && type < INFINI_DEVICE_TYPE_COUNT; }

infiniStatus_t GetDeviceCount(infiniDevice_t type, int *count) {
  Lock lock(Fake().mutex);
  if (count == nullptr) return INFINI_STATUS_NULL_POINTER;
  if (!ValidType(type)) {
    *count = 0;
    return INFINI_STATUS_BAD_PARAM;
  }
  // A sloppy backend: it fills the count even when it answers an error.
  *count = Fake().device_count[type];
  if (auto forced = Enter("infinirtGetDeviceCount")) return *forced;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t SetDevice(infiniDevice_t type, int index) {
  Lock lock(Fake().mutex);
  if (auto forced = Enter("infinirtSetDevice")) return *forced;
  if (!ValidType(type) || Fake().device_count[type] <= 0) return INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED;
  if (index < 0 || index >= Fake().device_count[type]) return INFINI_STATUS_DEVICE_NOT_FOUND;
  current_device = DeviceId{type, index};
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t GetDevice(infiniDevice_t *type, int *index) {
  Lock lock(Fake().mutex);
  if (auto forced = Enter("infinirtGetDevice")) return *forced;
  if (type == nullptr || index == nullptr) return INFINI_STATUS_NULL_POINTER;
  *type = current_device.type;
  *index = current_device.index;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t GetMemInfo(infiniDevice_t type, int index, size_t *free_bytes, size_t *total_bytes) {
  Lock lock(Fake().mutex);
  if (auto forced = Enter("infinirtGetMemInfo")) return *forced;
  if (free_bytes == nullptr || total_bytes == nullptr) return INFINI_STATUS_NULL_POINTER;
  if (!ValidType(type) || Fake().device_count[type] <= 0) return INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED;
  if (index < 0 || index >= Fake().device_count[type]) return INFINI_STATUS_DEVICE_NOT_FOUND;
  size_t used = 0;
  for (const auto &[pointer, allocation] : Fake().live_allocations) {
    if (!allocation.host && allocation.device == DeviceId{type, index}) used += allocation.size;
  }
  *total_bytes = size_t{1} << 30;
  *free_bytes = *total_bytes - used;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t DeviceSynchronize() {
  Lock lock(Fake().mutex);
  if (auto forced = Enter("infinirtDeviceSynchronize")) return *forced;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t StreamCreate(infinirtStream_t *stream) {
  Lock lock(Fake().mutex);
  if (auto forced = Enter("infinirtStreamCreate")) return *forced;
  if (stream == nullptr) return INFINI_STATUS_NULL_POINTER;
  *stream = NewHandle();
  Fake().live_streams[*stream] = current_device;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t StreamDestroy(infinirtStream_t stream) {
  Lock lock(Fake().mutex);
  if (auto forced = Enter("infinirtStreamDestroy")) return *forced;
  if (Fake().live_streams.erase(stream) == 0) return INFINI_STATUS_BAD_PARAM;
  return INFINI_STATUS_SUCCESS;
}

bool KnownStream(infinirtStream_t stream) { return stream == nullptr || Fake().live_streams.count(stream) != 0; }

infiniStatus_t StreamSynchronize(infinirtStream_t stream) {
  Lock lock(Fake().mutex);
  if (auto forced = Enter("infinirtStreamSynchronize")) return *forced;
  if (!KnownStream(stream)) return INFINI_STATUS_BAD_PARAM;
  Fake().last_synchronized_stream = stream;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t StreamWaitEvent(infinirtStream_t stream, infinirtEvent_t event) {
  Lock lock(Fake().mutex);
  if (auto forced = Enter("infinirtStreamWaitEvent")) return *forced;
  if (event == nullptr) return INFINI_STATUS_NULL_POINTER;
  if (!KnownStream(stream) || Fake().live_events.count(event) == 0) return INFINI_STATUS_BAD_PARAM;
  Fake().last_waiting_stream = stream;
  Fake().last_waited_event = event;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t CreateEventWithFlags(const char *call, infinirtEvent_t *event, uint32_t flags) {
  if (auto forced = Enter(call)) return *forced;
  if (event == nullptr) return INFINI_STATUS_NULL_POINTER;
  if ((flags & ~uint32_t{INFINIRT_EVENT_DISABLE_TIMING | INFINIRT_EVENT_BLOCKING_SYNC}) != 0) {
    return INFINI_STATUS_BAD_PARAM;
  }
  *event = NewHandle();
  FakeEvent made;
  made.device = current_device;
  made.flags = flags;
  Fake().live_events[*event] = made;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t EventCreate(infinirtEvent_t *event) {
  Lock lock(Fake().mutex);
  return CreateEventWithFlags("infinirtEventCreate", event, INFINIRT_EVENT_DEFAULT);
}

infiniStatus_t EventCreateWithFlags(infinirtEvent_t *event, uint32_t flags) {
  Lock lock(Fake().mutex);
  return CreateEventWithFlags("infinirtEventCreateWithFlags", event, flags);
}

FakeEvent *FindEvent(infinirtEvent_t event) {
  auto found = Fake().live_events.find(event);
  return found == Fake().live_events.end() ? nullptr : &found->second;
}

infiniStatus_t EventRecord(infinirtEvent_t event, infinirtStream_t stream) {
  Lock lock(Fake().mutex);
  if (auto forced = Enter("infinirtEventRecord")) return *forced;
  FakeEvent *found = FindEvent(event);
  if (found == nullptr || !KnownStream(stream)) return INFINI_STATUS_BAD_PARAM;
  found->recorded = true;
  found->recorded_on = stream;
  Fake().clock_ms += 1.5;
  found->timestamp_ms = Fake().clock_ms;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t EventQuery(infinirtEvent_t event, infinirtEventStatus_t *status) {
  Lock lock(Fake().mutex);
  if (auto forced = Enter("infinirtEventQuery")) return *forced;
  if (status == nullptr) return INFINI_STATUS_NULL_POINTER;
  FakeEvent *found = FindEvent(event);
  if (found == nullptr) return INFINI_STATUS_BAD_PARAM;
  *status = found->recorded && Fake().events_pending ? INFINIRT_EVENT_NOT_READY : INFINIRT_EVENT_COMPLETE;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t EventSynchronize(infinirtEvent_t event) {
  Lock lock(Fake().mutex);
  if (auto forced = Enter("infinirtEventSynchronize")) return *forced;
  if (FindEvent(event) == nullptr) return INFINI_STATUS_BAD_PARAM;
  Fake().last_synchronized_event = event;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t EventDestroy(infinirtEvent_t event) {
  Lock lock(Fake().mutex);
  if (auto forced = Enter("infinirtEventDestroy")) return *forced;
  if (event == nullptr) return INFINI_STATUS_NULL_POINTER;
  if (Fake().live_events.erase(event) == 0) return INFINI_STATUS_BAD_PARAM;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t EventElapsedTime(float *ms, infinirtEvent_t start, infinirtEvent_t end) {
  Lock lock(Fake().mutex);
  if (auto forced = Enter("infinirtEventElapsedTime")) return *forced;
  if (ms == nullptr || start == nullptr || end == nullptr) return INFINI_STATUS_NULL_POINTER;
  FakeEvent *first = FindEvent(start);
  FakeEvent *last = FindEvent(end);
  if (first == nullptr || last == nullptr || !first->recorded || !last->recorded) return INFINI_STATUS_BAD_PARAM;
  if (((first->flags | last->flags) & INFINIRT_EVENT_DISABLE_TIMING) != 0) return INFINI_STATUS_BAD_PARAM;
  *ms = static_cast<float>(last->timestamp_ms - first->timestamp_ms);
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t Allocate(const char *call, void **pointer, size_t size, bool host) {
  if (auto forced = Enter(call)) return *forced;
  if (pointer == nullptr) return INFINI_STATUS_NULL_POINTER;
  if (size == 0) {
    *pointer = nullptr;
    return INFINI_STATUS_SUCCESS;
  }
  *pointer = ::operator new(size);
  Fake().live_allocations[*pointer] = FakeAllocation{current_device, size, host};
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t Release(const char *call, void *pointer, bool host) {
  if (auto forced = Enter(call)) return *forced;
  if (pointer == nullptr) return INFINI_STATUS_SUCCESS;
  auto found = Fake().live_allocations.find(pointer);
  if (found == Fake().live_allocations.end() || found->second.host != host) return INFINI_STATUS_BAD_PARAM;
  Fake().live_allocations.erase(found);
  ::operator delete(pointer);
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t Malloc(void **pointer, size_t size) {
  Lock lock(Fake().mutex);
  return Allocate("infinirtMalloc", pointer, size, false);
}

infiniStatus_t MallocHost(void **pointer, size_t size) {
  Lock lock(Fake().mutex);
  return Allocate("infinirtMallocHost", pointer, size, true);
}

infiniStatus_t Free(void *pointer) {
  Lock lock(Fake().mutex);
  return Release("infinirtFree", pointer, false);
}

infiniStatus_t FreeHost(void *pointer) {
  Lock lock(Fake().mutex);
  return Release("infinirtFreeHost", pointer, true);
}

}  // namespace

FakeRuntime &Fake() {
  static FakeRuntime fake;
  return fake;
}

void ResetFake() {
  FakeRuntime &fake = Fake();
  Lock lock(fake.mutex);
  for (int &count : fake.device_count) count = 0;
  fake.device_count[INFINI_DEVICE_CPU] = 2;
  fake.device_count[INFINI_DEVICE_NVIDIA] = 3;
  fake.forced_status.clear();
  fake.events_pending = false;
  fake.calls.clear();
  fake.device_at_last_call.clear();
  fake.live_streams.clear();
  fake.live_events.clear();
  for (const auto &[pointer, allocation] : fake.live_allocations) ::operator delete(pointer);
  fake.live_allocations.clear();
  fake.last_synchronized_stream = nullptr;
  fake.last_waiting_stream = nullptr;
  fake.last_waited_event = nullptr;
  fake.last_synchronized_event = nullptr;
  fake.clock_ms = 0.0;
  current_device = DeviceId{INFINI_DEVICE_CPU, 0};
}

DeviceId FakeCurrentDevice() { return current_device; }

RtApi FakeRtApi() {
  RtApi rt;
  rt.infinirtGetDeviceCount = &GetDeviceCount;
  rt.infinirtSetDevice = &SetDevice;
  rt.infinirtGetDevice = &GetDevice;
  rt.infinirtGetMemInfo = &GetMemInfo;
  rt.infinirtDeviceSynchronize = &DeviceSynchronize;
  rt.infinirtStreamCreate = &StreamCreate;
  rt.infinirtStreamDestroy = &StreamDestroy;
  rt.infinirtStreamSynchronize = &StreamSynchronize;
  rt.infinirtStreamWaitEvent = &StreamWaitEvent;
  rt.infinirtEventCreate = &EventCreate;
  rt.infinirtEventCreateWithFlags = &EventCreateWithFlags;
  rt.infinirtEventRecord = &EventRecord;
  rt.infinirtEventQuery = &EventQuery;
  rt.infinirtEventSynchronize = &EventSynchronize;
  rt.infinirtEventDestroy = &EventDestroy;
  rt.infinirtEventElapsedTime = &EventElapsedTime;
  rt.infinirtMalloc = &Malloc;
  rt.infinirtMallocHost = &MallocHost;
  rt.infinirtFree = &Free;
  rt.infinirtFreeHost = &FreeHost;
  return rt;
}

}  // namespace infinicts::device::testing
