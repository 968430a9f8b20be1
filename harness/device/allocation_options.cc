#include "device/device.h"

namespace infinicts::device {

void AllocationOptions::SetPinnedDevice(DeviceId device) {
  if (pinned_device_ && *pinned_device_ != device) {
    throw std::logic_error("AllocationOptions: pinned device already set to " + ToString(*pinned_device_) +
                           ", cannot pin to " + ToString(device));
  }
  pinned_device_ = device;
}

void AllocationOptions::SetNumaNode(int node) {
  if (node < 0) throw std::invalid_argument("AllocationOptions: NUMA node " + std::to_string(node) + " is negative");
  numa_node_ = node;
}

}  // namespace infinicts::device
