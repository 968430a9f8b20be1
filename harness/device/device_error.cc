#include "backend/names.h"
#include "device/device.h"

namespace infinicts::device {
namespace {

// "answered SUCCESS with a NULL pointer …" reads as the suites' messages about the same answer do.
std::string Describe(const std::string &call, infiniStatus_t status) {
  return call + " answered " + (status == INFINI_STATUS_SUCCESS ? std::string("SUCCESS") : StatusName(status));
}

}  // namespace

DeviceError::DeviceError(const std::string &what_call, infiniStatus_t status)
    : std::runtime_error(Describe(what_call, status)), call_(what_call), status_(status) {}

DeviceError::DeviceError(const std::string &what_call, infiniStatus_t status, const std::string &detail)
    : std::runtime_error(Describe(what_call, status) + " " + detail), call_(what_call), status_(status) {}

std::string ToString(DeviceId device) {
  return DeviceTypeName(device.type) + ":" + std::to_string(device.index);
}

}  // namespace infinicts::device
