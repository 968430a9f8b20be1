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

}  // namespace infinicts::ref::cpu

#endif  // INFINICTS_REF_CPU_HOST_BLOCKS_H
