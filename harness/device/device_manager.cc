#include "backend/names.h"
#include "device/device.h"

namespace infinicts::device {

int DeviceManager::GetDeviceCount() const noexcept {
  if (type_value_ < 0 || type_value_ >= INFINI_DEVICE_TYPE_COUNT) return 0;  // no such type: no device
  return device::GetDeviceCount(rt_, type());
}

Device &DeviceManager::GetDevice(int index) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = devices_.find(index);
  if (found != devices_.end()) return *found->second;
  int count = GetDeviceCount();
  if (index < 0 || index >= count) {
    throw std::out_of_range("device " + DeviceTypeName(type_value_) + ":" + std::to_string(index) +
                            " does not exist (the backend reports " +
                            std::to_string(count) + ")");
  }
  auto &slot = devices_[index];
  slot = std::make_unique<Device>(rt_, DeviceId{type(), index});
  return *slot;
}

}  // namespace infinicts::device
