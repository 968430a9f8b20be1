// The memory of the virtual CPU devices and of MallocHost: every live allocation is
// registered (device memory and host memory in separate maps) and every device has a
// capacity it cannot exceed. Thread-safe.
#ifndef INFINICTS_REF_CPU_MEMORY_H
#define INFINICTS_REF_CPU_MEMORY_H

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "cpu/allocation_map.h"
#include "runtime/device_runtime.h"

namespace infinicts::ref::cpu {

class Memory {
 public:
  Memory(int device_count, size_t capacity_bytes);

  // bytes > 0. INTERNAL_ERROR (out of memory) beyond the device's free capacity.
  infiniStatus_t AllocateDevice(int device, size_t bytes, void **p);
  infiniStatus_t AllocateHost(size_t bytes, void **p);

  // Takes the live device (or host) allocation starting at p out of the registry: from
  // then on p is no longer valid for any call, but its bytes stay taken until Release.
  // BAD_PARAM when no such allocation starts at p.
  infiniStatus_t RetireDevice(void *p, Allocation *retired);
  infiniStatus_t RetireHost(void *p, Allocation *retired);
  // Gives a retired allocation's bytes back to the host and to its device's capacity.
  void Release(const Allocation &retired);

  MemoryRange Locate(const void *p) const;
  bool OverlapsDevice(const void *p, size_t bytes) const;
  void Info(int device, size_t *free_bytes, size_t *total_bytes) const;

 private:
  const size_t capacity_bytes_;
  mutable std::mutex mutex_;
  AllocationMap device_allocations_;
  AllocationMap host_allocations_;
  std::vector<size_t> used_bytes_;  // by device, counted in reserved bytes
  uint64_t shared_blocks_made_;  // the last shareable block's serial
};

}  // namespace infinicts::ref::cpu

#endif  // INFINICTS_REF_CPU_MEMORY_H
