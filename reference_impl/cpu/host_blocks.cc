#include "cpu/host_blocks.h"

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>

#include <cstdlib>

namespace infinicts::ref::cpu {
namespace {

// From kMappedBlockBytes on a block is its own mapping: backed lazily by the OS and returned
// to it at once on release, so a device's full capacity can be handed out on a smaller host.
constexpr size_t kHugePageBytes = size_t{2} << 20;

std::atomic<bool> share_large_blocks{false};

void *MapShareable(size_t bytes, int *fd) {
  const int memory = memfd_create("infinicts-device-block", MFD_CLOEXEC);
  if (memory < 0) return nullptr;
  void *block = MAP_FAILED;
  if (ftruncate(memory, static_cast<off_t>(bytes)) == 0) {
    block = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, memory, 0);
  }
  if (block == MAP_FAILED) {
    close(memory);
    return nullptr;
  }
  *fd = memory;
  return block;
}

}  // namespace

void MakeLargeBlocksShareable() { share_large_blocks.store(true, std::memory_order_relaxed); }

void *AllocateDeviceBlock(size_t bytes, int *fd) {
  *fd = -1;
  if (bytes >= kMappedBlockBytes && share_large_blocks.load(std::memory_order_relaxed)) {
    if (void *block = MapShareable(bytes, fd)) return block;
  }
  return AllocateBlock(bytes);
}

void ReleaseDeviceBlock(void *block, size_t bytes, int fd) {
  if (fd < 0) {
    ReleaseBlock(block, bytes);
    return;
  }
  munmap(block, bytes);
  close(fd);
}

void *AllocateBlock(size_t bytes) {
  if (bytes < kMappedBlockBytes) return std::aligned_alloc(kBlockAlignment, bytes);
  void *block = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (block == MAP_FAILED) return nullptr;
  // Fewer page faults and TLB misses for the large copies benchmarks make; advisory only.
  if (bytes >= kHugePageBytes) madvise(block, bytes, MADV_HUGEPAGE);
  return block;
}

void ReleaseBlock(void *block, size_t bytes) {
  if (bytes < kMappedBlockBytes) {
    std::free(block);
  } else {
    munmap(block, bytes);
  }
}

}  // namespace infinicts::ref::cpu
