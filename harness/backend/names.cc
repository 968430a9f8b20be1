#include "backend/names.h"

#include <algorithm>
#include <cctype>

namespace infinicts {
namespace {

const char *const kDeviceTypeNames[INFINI_DEVICE_TYPE_COUNT] = {
    "cpu", "nvidia", "cambricon", "ascend", "metax", "moore", "iluvatar", "kunlun", "hygon", "qy", "ali"};

}  // namespace

std::string StatusName(int status) {
  switch (status) {
    case INFINI_STATUS_SUCCESS: return "INFINI_STATUS_SUCCESS";
    case INFINI_STATUS_INTERNAL_ERROR: return "INFINI_STATUS_INTERNAL_ERROR";
    case INFINI_STATUS_NOT_IMPLEMENTED: return "INFINI_STATUS_NOT_IMPLEMENTED";
    case INFINI_STATUS_BAD_PARAM: return "INFINI_STATUS_BAD_PARAM";
    case INFINI_STATUS_NULL_POINTER: return "INFINI_STATUS_NULL_POINTER";
    case INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED: return "INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED";
    case INFINI_STATUS_DEVICE_NOT_FOUND: return "INFINI_STATUS_DEVICE_NOT_FOUND";
    case INFINI_STATUS_DEVICE_NOT_INITIALIZED: return "INFINI_STATUS_DEVICE_NOT_INITIALIZED";
    case INFINI_STATUS_DEVICE_ARCHITECTURE_NOT_SUPPORTED: return "INFINI_STATUS_DEVICE_ARCHITECTURE_NOT_SUPPORTED";
    case INFINI_STATUS_BAD_TENSOR_DTYPE: return "INFINI_STATUS_BAD_TENSOR_DTYPE";
    case INFINI_STATUS_BAD_TENSOR_SHAPE: return "INFINI_STATUS_BAD_TENSOR_SHAPE";
    case INFINI_STATUS_BAD_TENSOR_STRIDES: return "INFINI_STATUS_BAD_TENSOR_STRIDES";
    case INFINI_STATUS_INSUFFICIENT_WORKSPACE: return "INFINI_STATUS_INSUFFICIENT_WORKSPACE";
    default: return "status " + std::to_string(status);
  }
}

std::string DeviceTypeName(int type) {
  if (type >= 0 && type < INFINI_DEVICE_TYPE_COUNT) return kDeviceTypeNames[type];
  return "type " + std::to_string(type);
}

std::optional<infiniDevice_t> ParseDeviceType(const std::string &text) {
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (int type = 0; type < INFINI_DEVICE_TYPE_COUNT; ++type) {
    if (lower == kDeviceTypeNames[type]) return static_cast<infiniDevice_t>(type);
  }
  if (!lower.empty() && std::all_of(lower.begin(), lower.end(), [](unsigned char c) { return std::isdigit(c); }) &&
      lower.size() < 4) {
    int value = std::stoi(lower);
    if (value < INFINI_DEVICE_TYPE_COUNT) return static_cast<infiniDevice_t>(value);
  }
  return std::nullopt;
}

}  // namespace infinicts
