// Whether the machine has the memory a case is about to take, and if not, why: the free
// bytes the backend reports for each device, and the host's available memory, which on
// the CPU device type backs the device memory too. Large perf cases skip with the reason.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace infinicts::cts {

// The reason to skip, or nothing when `device_bytes` on each of `devices` (of the type
// under test) and `host_bytes` of host memory fit.
std::optional<std::string> MissingMemory(const std::vector<int> &devices, size_t device_bytes, size_t host_bytes);

}  // namespace infinicts::cts
