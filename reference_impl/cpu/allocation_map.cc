#include "cpu/allocation_map.h"

namespace infinicts::ref::cpu {

void AllocationMap::Insert(const Allocation &allocation) { by_base_.emplace(allocation.base, allocation); }

std::optional<Allocation> AllocationMap::Containing(const void *p) const {
  const uintptr_t address = reinterpret_cast<uintptr_t>(p);
  auto after = by_base_.upper_bound(address);
  if (after == by_base_.begin()) return std::nullopt;
  const Allocation &candidate = std::prev(after)->second;
  if (address - candidate.base >= candidate.size) return std::nullopt;
  return candidate;
}

bool AllocationMap::Overlaps(const void *p, size_t bytes) const {
  if (bytes == 0) return false;
  const uintptr_t first = reinterpret_cast<uintptr_t>(p);
  // The last byte of the range, clamped where the range would run past the address space.
  const uintptr_t last = bytes - 1 > UINTPTR_MAX - first ? UINTPTR_MAX : first + (bytes - 1);
  if (Containing(p).has_value()) return true;
  // Otherwise only an allocation starting inside the range can overlap it.
  auto next = by_base_.upper_bound(first);
  return next != by_base_.end() && next->first <= last;
}

std::optional<Allocation> AllocationMap::TakeStartingAt(const void *p) {
  auto found = by_base_.find(reinterpret_cast<uintptr_t>(p));
  if (found == by_base_.end()) return std::nullopt;
  Allocation allocation = found->second;
  by_base_.erase(found);
  return allocation;
}

}  // namespace infinicts::ref::cpu
