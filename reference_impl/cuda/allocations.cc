#include "cuda/allocations.h"

namespace infinicts::ref::cuda {

void Allocations::AddDevice(const Allocation &allocation) {
  std::lock_guard<std::mutex> lock(mutex_);
  device_[allocation.base] = allocation;
}

void Allocations::AddHost(const Allocation &allocation) {
  std::lock_guard<std::mutex> lock(mutex_);
  host_[allocation.base] = allocation;
}

std::optional<Allocation> Allocations::TakeStartingAt(Map &map, const void *p) {
  auto found = map.find(reinterpret_cast<uintptr_t>(p));
  if (found == map.end()) return std::nullopt;
  Allocation taken = found->second;
  map.erase(found);
  return taken;
}

std::optional<Allocation> Allocations::TakeDevice(const void *p) {
  std::lock_guard<std::mutex> lock(mutex_);
  return TakeStartingAt(device_, p);
}

std::optional<Allocation> Allocations::TakeHost(const void *p) {
  std::lock_guard<std::mutex> lock(mutex_);
  return TakeStartingAt(host_, p);
}

std::optional<Allocation> Allocations::Containing(const Map &map, uintptr_t address) {
  auto after = map.upper_bound(address);
  if (after == map.begin()) return std::nullopt;
  const Allocation &candidate = std::prev(after)->second;
  if (address - candidate.base >= candidate.size) return std::nullopt;
  return candidate;
}

MemoryRange Allocations::Locate(const void *p) const {
  const uintptr_t address = reinterpret_cast<uintptr_t>(p);
  std::lock_guard<std::mutex> lock(mutex_);
  MemoryRange range;
  std::optional<Allocation> found = Containing(device_, address);
  range.kind = MemoryRange::Kind::kDevice;
  if (!found) {
    found = Containing(host_, address);
    range.kind = MemoryRange::Kind::kHost;
  }
  if (!found) return MemoryRange{};
  range.device = found->device;
  range.base = reinterpret_cast<const char *>(found->base);
  range.size = found->size;
  return range;
}

bool Allocations::OverlapsDevice(const void *p, size_t bytes) const {
  if (bytes == 0) return false;
  const uintptr_t first = reinterpret_cast<uintptr_t>(p);
  const uintptr_t last = bytes - 1 > UINTPTR_MAX - first ? UINTPTR_MAX : first + (bytes - 1);
  std::lock_guard<std::mutex> lock(mutex_);
  // An allocation starting inside the range, or the one containing its first byte.
  auto inside = device_.lower_bound(first);
  if (inside != device_.end() && inside->first <= last) return true;
  return Containing(device_, first).has_value();
}

}  // namespace infinicts::ref::cuda
