#include <utility>

#include "device/rt_call.h"

namespace infinicts::device {

DeviceBuffer::~DeviceBuffer() { Release(); }

DeviceBuffer::DeviceBuffer(DeviceBuffer &&other) noexcept
    : rt_(std::exchange(other.rt_, nullptr)),
      device_(other.device_),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) noexcept {
  if (this != &other) {
    Release();
    rt_ = std::exchange(other.rt_, nullptr);
    device_ = other.device_;
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

void DeviceBuffer::Release() noexcept {
  // Malloc(0) may answer NULL: then there is nothing to free.
  if (rt_ != nullptr && data_ != nullptr) {
    detail::QuietDeviceScope scope(*rt_, device_);
    detail::ReportIgnoredFailure("infinirtFree", detail::CallRt(rt_->infinirtFree, data_));
  }
  rt_ = nullptr;
  data_ = nullptr;
  size_ = 0;
}

}  // namespace infinicts::device
