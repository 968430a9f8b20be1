#include "cpu/memory.h"

#include <random>

#include "cpu/host_blocks.h"

namespace infinicts::ref::cpu {
namespace {

constexpr int kHostOwner = -1;

// The bytes a block of `bytes` takes; false when rounding up overflows.
bool ReservedBytes(size_t bytes, size_t *reserved) {
  if (bytes > SIZE_MAX - (kBlockAlignment - 1)) return false;
  *reserved = (bytes + kBlockAlignment - 1) / kBlockAlignment * kBlockAlignment;
  return true;
}

MemoryRange ToRange(const Allocation &allocation, MemoryRange::Kind kind) {
  MemoryRange range;
  range.kind = kind;
  range.device = allocation.device;
  range.base = reinterpret_cast<const char *>(allocation.base);
  range.size = allocation.size;
  if (allocation.shared_fd >= 0) {
    range.shared_fd = allocation.shared_fd;
    range.shared_bytes = allocation.reserved;
    range.shared_serial = allocation.shared_serial;
  }
  return range;
}

}  // namespace

Memory::Memory(int device_count, size_t capacity_bytes)
    : capacity_bytes_(capacity_bytes),
      used_bytes_(static_cast<size_t>(device_count), 0),
      // Random high bits: a peer that keeps a mapping by (pid, serial) never takes a block
      // of a later process with the same pid for this one's.
      shared_blocks_made_(static_cast<uint64_t>(std::random_device{}()) << 32) {}

infiniStatus_t Memory::AllocateDevice(int device, size_t bytes, void **p) {
  size_t reserved = 0;
  if (!ReservedBytes(bytes, &reserved)) return INFINI_STATUS_INTERNAL_ERROR;
  {
    // Reserve first, so that concurrent callers never overshoot the capacity together.
    std::lock_guard<std::mutex> lock(mutex_);
    if (reserved > capacity_bytes_ - used_bytes_[device]) return INFINI_STATUS_INTERNAL_ERROR;
    used_bytes_[device] += reserved;
  }
  int fd = -1;
  void *block = AllocateDeviceBlock(reserved, &fd);
  std::lock_guard<std::mutex> lock(mutex_);
  if (block == nullptr) {
    used_bytes_[device] -= reserved;
    return INFINI_STATUS_INTERNAL_ERROR;
  }
  device_allocations_.Insert(Allocation{reinterpret_cast<uintptr_t>(block), bytes, reserved, device, fd,
                                        fd >= 0 ? ++shared_blocks_made_ : 0});
  *p = block;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t Memory::AllocateHost(size_t bytes, void **p) {
  size_t reserved = 0;
  if (!ReservedBytes(bytes, &reserved)) return INFINI_STATUS_INTERNAL_ERROR;
  void *block = AllocateBlock(reserved);
  if (block == nullptr) return INFINI_STATUS_INTERNAL_ERROR;
  std::lock_guard<std::mutex> lock(mutex_);
  host_allocations_.Insert(Allocation{reinterpret_cast<uintptr_t>(block), bytes, reserved, kHostOwner});
  *p = block;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t Memory::RetireDevice(void *p, Allocation *retired) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::optional<Allocation> taken = device_allocations_.TakeStartingAt(p);
  if (!taken) return INFINI_STATUS_BAD_PARAM;
  *retired = *taken;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t Memory::RetireHost(void *p, Allocation *retired) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::optional<Allocation> taken = host_allocations_.TakeStartingAt(p);
  if (!taken) return INFINI_STATUS_BAD_PARAM;
  *retired = *taken;
  return INFINI_STATUS_SUCCESS;
}

void Memory::Release(const Allocation &retired) {
  if (retired.device == kHostOwner) {
    ReleaseBlock(reinterpret_cast<void *>(retired.base), retired.reserved);
    return;
  }
  ReleaseDeviceBlock(reinterpret_cast<void *>(retired.base), retired.reserved, retired.shared_fd);
  std::lock_guard<std::mutex> lock(mutex_);
  used_bytes_[retired.device] -= retired.reserved;
}

MemoryRange Memory::Locate(const void *p) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (std::optional<Allocation> found = device_allocations_.Containing(p)) {
    return ToRange(*found, MemoryRange::Kind::kDevice);
  }
  if (std::optional<Allocation> found = host_allocations_.Containing(p)) {
    return ToRange(*found, MemoryRange::Kind::kHost);
  }
  return MemoryRange{};
}

bool Memory::OverlapsDevice(const void *p, size_t bytes) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return device_allocations_.Overlaps(p, bytes);
}

void Memory::Info(int device, size_t *free_bytes, size_t *total_bytes) const {
  std::lock_guard<std::mutex> lock(mutex_);
  *total_bytes = capacity_bytes_;
  *free_bytes = capacity_bytes_ - used_bytes_[device];
}

}  // namespace infinicts::ref::cpu
