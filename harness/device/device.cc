#include "device/rt_call.h"

namespace infinicts::device {

using detail::CallRt;

std::unique_ptr<Stream> Device::CreateStream() {
  ActiveDeviceGuard guard(rt_, id_);
  infinirtStream_t raw = nullptr;
  detail::ThrowIfFailed(CallRt(rt_.infinirtStreamCreate, &raw), "infinirtStreamCreate");
  return std::unique_ptr<Stream>(new Stream(*this, raw));
}

std::unique_ptr<Event> Device::CreateEvent(uint32_t flags) {
  ActiveDeviceGuard guard(rt_, id_);
  infinirtEvent_t raw = nullptr;
  const char *call = flags == INFINIRT_EVENT_DEFAULT ? "infinirtEventCreate" : "infinirtEventCreateWithFlags";
  infiniStatus_t status = flags == INFINIRT_EVENT_DEFAULT ? CallRt(rt_.infinirtEventCreate, &raw)
                                                          : CallRt(rt_.infinirtEventCreateWithFlags, &raw, flags);
  detail::ThrowIfFailed(status, call);
  if (raw == nullptr) throw DeviceError(call, INFINI_STATUS_SUCCESS, "with a NULL event");
  return std::unique_ptr<Event>(new Event(*this, raw));
}

DeviceBuffer Device::Allocate(size_t bytes) {
  ActiveDeviceGuard guard(rt_, id_);
  void *data = nullptr;
  detail::ThrowIfFailed(CallRt(rt_.infinirtMalloc, &data, bytes), "infinirtMalloc");
  if (data == nullptr && bytes > 0) {
    throw DeviceError("infinirtMalloc", INFINI_STATUS_SUCCESS, "with a NULL pointer for " + std::to_string(bytes) + " bytes");
  }
  return DeviceBuffer(&rt_, id_, data, bytes, /*host=*/false);
}

DeviceBuffer Device::AllocatePinnedHost(size_t bytes, const AllocationOptions &options) {
  if (options.HasPinnedDevice() && *options.pinned_device() != id_) {
    throw std::invalid_argument("AllocatePinnedHost on " + ToString(id_) + " with options pinned to " +
                                ToString(*options.pinned_device()));
  }
  ActiveDeviceGuard guard(rt_, id_);
  void *data = nullptr;
  detail::ThrowIfFailed(CallRt(rt_.infinirtMallocHost, &data, bytes), "infinirtMallocHost");
  if (data == nullptr && bytes > 0) {
    throw DeviceError("infinirtMallocHost", INFINI_STATUS_SUCCESS,
                      "with a NULL pointer for " + std::to_string(bytes) + " bytes");
  }
  return DeviceBuffer(&rt_, id_, data, bytes, /*host=*/true);
}

void Device::Synchronize() { SynchronizeDevice(rt_, id_); }

void Device::MemInfo(size_t *free_bytes, size_t *total_bytes) const {
  ActiveDeviceGuard guard(rt_, id_);
  detail::ThrowIfFailed(CallRt(rt_.infinirtGetMemInfo, id_.type, id_.index, free_bytes, total_bytes),
                        "infinirtGetMemInfo");
}

}  // namespace infinicts::device
