// Raw host memory behind CPU device and MallocHost allocations.
#ifndef INFINICTS_REF_CPU_HOST_BLOCKS_H
#define INFINICTS_REF_CPU_HOST_BLOCKS_H

#include <cstddef>

namespace infinicts::ref::cpu {

// Every block starts on this boundary (the alignment InfiniRT promises for device memory).
constexpr size_t kBlockAlignment = 256;

// bytes > 0 and a multiple of kBlockAlignment. NULL when the host has no memory for it.
// Large blocks are mapped without reserving swap, so that pages are backed only when touched.
void *AllocateBlock(size_t bytes);
// Gives back a block of AllocateBlock with the same size.
void ReleaseBlock(void *block, size_t bytes);

// From this call on, device blocks of kMappedBlockBytes and more are made shareable: their
// memory is a memfd's, which other processes of this host map through /proc/PID/fd/FD, so
// that collectives across processes reach each rank's buffers without staging them. Off
// until then: a memfd's pages are the shared-memory kind, which the kernel often gives no
// huge pages, so a process that never shares keeps private mappings.
void MakeLargeBlocksShareable();
constexpr size_t kMappedBlockBytes = size_t{1} << 20;

// AllocateBlock, shareable where MakeLargeBlocksShareable was called and the block is large:
// then *fd is its memfd (kept open while the block lives), else -1. A memfd that cannot be
// had (no descriptors left) gives an ordinary block.
void *AllocateDeviceBlock(size_t bytes, int *fd);
// Gives back a block of AllocateDeviceBlock with the same size and fd.
void ReleaseDeviceBlock(void *block, size_t bytes, int fd);

}  // namespace infinicts::ref::cpu

#endif  // INFINICTS_REF_CPU_HOST_BLOCKS_H
