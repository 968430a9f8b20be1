#include "cpu/host_blocks.h"

#include <sys/mman.h>

#include <cstdlib>

namespace infinicts::ref::cpu {
namespace {

// From this size on a block is its own mapping: backed lazily by the OS and returned to it
// at once on release, so a device's full capacity can be handed out on a smaller host.
constexpr size_t kMappedBlockBytes = size_t{1} << 20;
constexpr size_t kHugePageBytes = size_t{2} << 20;

}  // namespace

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
