#include "device/rt_call.h"

namespace infinicts::device {

using detail::CallRt;

std::unique_ptr<Stream> Device::CreateStream() {
  ActiveDeviceGuard guard(rt_, id_);
  infinirtStream_t raw = nullptr;
  detail::ThrowIfFailed(CallRt(rt_.infinirtStreamCreate, &raw), "infinirtStreamCreate");
  return std::unique_ptr<Stream>(new Stream(*this, raw));
}

DeviceBuffer Device::Allocate(size_t bytes) {
  ActiveDeviceGuard guard(rt_, id_);
  void *data = nullptr;
  detail::ThrowIfFailed(CallRt(rt_.infinirtMalloc, &data, bytes), "infinirtMalloc");
  if (data == nullptr && bytes > 0) {
    throw DeviceError("infinirtMalloc", INFINI_STATUS_SUCCESS, "with a NULL pointer for " + std::to_string(bytes) + " bytes");
  }
  return DeviceBuffer(&rt_, id_, data, bytes);
}

void Device::Synchronize() { SynchronizeDevice(rt_, id_); }

void Device::MemInfo(size_t *free_bytes, size_t *total_bytes) const {
  ActiveDeviceGuard guard(rt_, id_);
  detail::ThrowIfFailed(CallRt(rt_.infinirtGetMemInfo, id_.type, id_.index, free_bytes, total_bytes),
                        "infinirtGetMemInfo");
}

}  // namespace infinicts::device
