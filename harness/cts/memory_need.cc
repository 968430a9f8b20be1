#include "cts/memory_need.h"

#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <sstream>

#include "cts/case.h"

namespace infinicts::cts {
namespace {

// MemAvailable of /proc/meminfo (what can be allocated without swapping), else the free pages.
size_t HostAvailableBytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string key;
    size_t kib = 0;
    if (fields >> key >> kib && key == "MemAvailable:") return kib * 1024;
  }
  const long pages = sysconf(_SC_AVPHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
  return pages > 0 && page_size > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page_size) : SIZE_MAX;
}

std::string MiB(size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

std::optional<std::string> MissingMemory(const std::vector<int> &devices, size_t device_bytes, size_t host_bytes) {
  for (int device : devices) {
    size_t free_bytes = 0, total_bytes = 0;
    // A backend without GetMemInfo gets no device check: the allocation itself will tell.
    if (device_bytes > 0 &&
        rt().infinirtGetMemInfo(device_type(), device, &free_bytes, &total_bytes) == INFINI_STATUS_SUCCESS &&
        free_bytes < device_bytes) {
      return "needs " + MiB(device_bytes) + " of device memory" + (devices.size() > 1 ? " per device" : "") +
             "; device " + std::to_string(device) + " has " + MiB(free_bytes) + " free";
    }
  }
  if (device_type() == INFINI_DEVICE_CPU) host_bytes += device_bytes * devices.size();
  const size_t available = HostAvailableBytes();
  if (host_bytes > available) {
    return "needs " + MiB(host_bytes) + " of host memory; the host has " + MiB(available) + " available";
  }
  return std::nullopt;
}

}  // namespace infinicts::cts
