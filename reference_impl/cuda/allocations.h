// The live allocations the CUDA runtime made (device memory with its device and how it was
// allocated, pinned host memory), so that the dispatch layer can tell any address apart
// as inside one of them or not, like the CPU runtime's. Thread-safe.
#ifndef INFINICTS_REF_CUDA_ALLOCATIONS_H
#define INFINICTS_REF_CUDA_ALLOCATIONS_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>

#include "runtime/device_runtime.h"

namespace infinicts::ref::cuda {

struct Allocation {
  uintptr_t base = 0;
  size_t size = 0;
  int device = -1;             // -1 for pinned host memory
  bool stream_ordered = false;  // from cudaMallocAsync
};

class Allocations {
 public:
  // `allocation` has size > 0 and overlaps no live one.
  void AddDevice(const Allocation &allocation);
  void AddHost(const Allocation &allocation);
  // Removes and returns the live device (or host) allocation that starts exactly at p.
  std::optional<Allocation> TakeDevice(const void *p);
  std::optional<Allocation> TakeHost(const void *p);

  MemoryRange Locate(const void *p) const;
  bool OverlapsDevice(const void *p, size_t bytes) const;

 private:
  using Map = std::map<uintptr_t, Allocation>;
  static std::optional<Allocation> Containing(const Map &map, uintptr_t address);
  static std::optional<Allocation> TakeStartingAt(Map &map, const void *p);

  mutable std::mutex mutex_;
  Map device_;
  Map host_;
};

}  // namespace infinicts::ref::cuda

#endif  // INFINICTS_REF_CUDA_ALLOCATIONS_H
