// Names of the interface's enum values, for messages, reports and the command line.
#pragma once

#include <optional>
#include <string>

#include "infinirt.h"

namespace infinicts {

std::string StatusName(int status);  // "INFINI_STATUS_BAD_PARAM", or "status 42"
std::string DeviceTypeName(int type);  // "cpu", "nvidia", ..., or "type 42"
// Accepts a name ("cpu", "NVIDIA") or a number ("1").
std::optional<infiniDevice_t> ParseDeviceType(const std::string &text);

}  // namespace infinicts
