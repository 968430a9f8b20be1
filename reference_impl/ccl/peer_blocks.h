// The buffers of ranks in other processes, reached without staging: a rank describes where
// its buffers lie in the runtime's shareable device blocks (infinictsRefSharedBlock), and its
// peers map those blocks (/proc/PID/fd/FD) and run the in-process algorithm on them
// (collectives_across.h).
#ifndef INFINICTS_REF_CCL_PEER_BLOCKS_H
#define INFINICTS_REF_CCL_PEER_BLOCKS_H

#include <cstddef>
#include <cstdint>
#include <memory>

namespace infinicts::ref::ccl {

// Where one buffer of a rank lies, as its peers read it from shared memory.
struct BufferPlace {
  enum State : uint32_t { kEmpty = 0, kShared = 1, kPrivate = 2 };
  uint32_t state;  // kEmpty: no bytes to reach (NULL or 0 bytes)
  int32_t pid;
  int32_t fd;
  uint32_t unused;
  uint64_t serial;
  uint64_t block_bytes;
  uint64_t offset;
};

// The place of [p, p + bytes) in this process.
BufferPlace PlaceOf(const void *p, size_t bytes);

// A peer's block mapped here; unmapped when the last holder lets go of it.
class MappedBlock {
 public:
  MappedBlock(void *data, size_t bytes) : data_(static_cast<unsigned char *>(data)), bytes_(bytes) {}
  ~MappedBlock();
  MappedBlock(const MappedBlock &) = delete;
  MappedBlock &operator=(const MappedBlock &) = delete;
  unsigned char *data() const { return data_; }
  size_t bytes() const { return bytes_; }

 private:
  unsigned char *data_;
  size_t bytes_;
};

// The block of a kShared place, mapped (a mapping is kept for the next collective, up to a
// budget of bytes, the least recently used let go first); NULL when it cannot be mapped.
std::shared_ptr<MappedBlock> MapPeerBlock(const BufferPlace &place);

}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_PEER_BLOCKS_H
