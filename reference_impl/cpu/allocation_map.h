// An interval map of live allocations (base -> size), so that any address can be told
// apart as the start of an allocation, inside one, or in none. Not thread-safe.
#ifndef INFINICTS_REF_CPU_ALLOCATION_MAP_H
#define INFINICTS_REF_CPU_ALLOCATION_MAP_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>

namespace infinicts::ref::cpu {

struct Allocation {
  uintptr_t base;
  size_t size;      // the bytes asked for: the range a caller may use
  size_t reserved;  // the bytes taken from the host (size rounded up to the block alignment)
  int device;       // owning device; -1 for host memory
  int shared_fd = -1;          // a shareable block's memfd (host_blocks.h)
  uint64_t shared_serial = 0;  // unique among this process's shareable blocks
};

class AllocationMap {
 public:
  // `allocation` must not overlap a live one and must have size > 0.
  void Insert(const Allocation &allocation);
  // The live allocation containing p.
  std::optional<Allocation> Containing(const void *p) const;
  // Whether any byte of [p, p + bytes) belongs to a live allocation.
  bool Overlaps(const void *p, size_t bytes) const;
  // Removes and returns the live allocation that starts exactly at p.
  std::optional<Allocation> TakeStartingAt(const void *p);

 private:
  std::map<uintptr_t, Allocation> by_base_;
};

}  // namespace infinicts::ref::cpu

#endif  // INFINICTS_REF_CPU_ALLOCATION_MAP_H
