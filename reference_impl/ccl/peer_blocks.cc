#include "ccl/peer_blocks.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <list>
#include <mutex>
#include <string>
#include <utility>

#include "infinicts_ref/runtime_internal.h"

namespace infinicts::ref::ccl {
namespace {

// Peers' blocks stay mapped between collectives, since mapping a block anew costs a page
// fault per page touched; a freed block's pages stay alive while mapped, so the kept
// mappings have a budget.
constexpr size_t kKeptMappingBytes = size_t{1} << 30;

struct KeptMapping {
  int32_t pid;
  uint64_t serial;
  std::shared_ptr<MappedBlock> block;
};

std::mutex &KeptMutex() {
  static auto *mutex = new std::mutex;
  return *mutex;
}
// Most recently used first.
std::list<KeptMapping> &Kept() {
  static auto *kept = new std::list<KeptMapping>;
  return *kept;
}

std::shared_ptr<MappedBlock> MapAnew(const BufferPlace &place) {
  const std::string path = "/proc/" + std::to_string(place.pid) + "/fd/" + std::to_string(place.fd);
  const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return nullptr;
  void *data = mmap(nullptr, place.block_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (data == MAP_FAILED) return nullptr;
  return std::make_shared<MappedBlock>(data, place.block_bytes);
}

}  // namespace

MappedBlock::~MappedBlock() { munmap(data_, bytes_); }

BufferPlace PlaceOf(const void *p, size_t bytes) {
  BufferPlace place{};
  if (p == nullptr || bytes == 0) return place;
  int fd = -1;
  size_t offset = 0, block_bytes = 0;
  uint64_t serial = 0;
  if (infinictsRefSharedBlock(p, bytes, &fd, &offset, &block_bytes, &serial) != INFINI_STATUS_SUCCESS) {
    place.state = BufferPlace::kPrivate;
    return place;
  }
  place.state = BufferPlace::kShared;
  place.pid = static_cast<int32_t>(getpid());
  place.fd = fd;
  place.serial = serial;
  place.block_bytes = block_bytes;
  place.offset = offset;
  return place;
}

std::shared_ptr<MappedBlock> MapPeerBlock(const BufferPlace &place) {
  std::lock_guard<std::mutex> lock(KeptMutex());
  std::list<KeptMapping> &kept = Kept();
  for (auto it = kept.begin(); it != kept.end(); ++it) {
    if (it->pid == place.pid && it->serial == place.serial) {
      kept.splice(kept.begin(), kept, it);
      return kept.front().block;
    }
  }
  std::shared_ptr<MappedBlock> block = MapAnew(place);
  if (!block) return nullptr;
  kept.push_front({place.pid, place.serial, block});
  size_t total = 0;
  for (auto it = kept.begin(); it != kept.end();) {
    total += it->block->bytes();
    // Over budget, the least recently used go (the newest always stays; a holder keeps its
    // own reference while it uses one).
    if (total > kKeptMappingBytes && it != kept.begin()) {
      total -= it->block->bytes();
      it = kept.erase(it);
    } else {
      ++it;
    }
  }
  return block;
}

}  // namespace infinicts::ref::ccl
