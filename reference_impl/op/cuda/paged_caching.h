// The CUDA path of PagedCaching (ops/paged_caching.cc calls it for NVIDIA descriptors): each
// token's keys and values scattered into the paged pools, bit for bit. The geometry and
// where each element goes are plain host and device functions (tested on the CPU); the
// kernel is in paged_caching.cu.
#ifndef INFINICTS_REF_OP_CUDA_PAGED_CACHING_H
#define INFINICTS_REF_OP_CUDA_PAGED_CACHING_H

#include <cstddef>
#include <cstdint>

#include "core/descriptor.h"
#include "cuda/kernel_limits.h"
#include "core/host_device.h"

namespace infinicts::ref::op::cuda {

// One pool and its entries: pool [block, head, offset, dim], entries [token, head, dim]
// (strides in elements).
struct PagedPool {
  int64_t pool_strides[4];
  int64_t entry_strides[3];
  int64_t dim;
};

struct PagedCachingGeometry {
  int64_t tokens, heads, blocks, block_size;
  int64_t slot_step;
  PagedPool k, v;
};
static_assert(FitsKernelParameters<PagedCachingGeometry>(), "PagedCaching's parameters must fit in 4 KB");

// Where token t's slot lands: its block and offset; false for a slot that writes nothing
// (negative: padding; at or past the pool's end: skipped).
INFINICTS_HOST_DEVICE inline bool SlotPlace(const PagedCachingGeometry &g, int64_t slot, int64_t *block,
                                                  int64_t *offset) {
  if (slot < 0 || g.block_size <= 0 || slot / g.block_size >= g.blocks) return false;
  *block = slot / g.block_size;
  *offset = slot % g.block_size;
  return true;
}

// Element i of one pool's copy (token-major, then head, then dim, i < tokens * heads * dim):
// its token, and its offsets in the pool (for a slot placed at block, offset) and in the entries.
struct PagedElement {
  int64_t token, head, d;
};
INFINICTS_HOST_DEVICE inline PagedElement LocatePagedElement(const PagedCachingGeometry &g, const PagedPool &pool,
                                                                 uint64_t i) {
  const uint64_t dim = static_cast<uint64_t>(pool.dim), heads = static_cast<uint64_t>(g.heads);
  return {static_cast<int64_t>(i / (dim * heads)), static_cast<int64_t>(i / dim % heads),
          static_cast<int64_t>(i % dim)};
}
INFINICTS_HOST_DEVICE inline int64_t PoolOffset(const PagedPool &pool, const PagedElement &e, int64_t block,
                                                      int64_t offset) {
  return block * pool.pool_strides[0] + e.head * pool.pool_strides[1] + offset * pool.pool_strides[2] +
         e.d * pool.pool_strides[3];
}
INFINICTS_HOST_DEVICE inline int64_t EntryOffset(const PagedPool &pool, const PagedElement &e) {
  return e.token * pool.entry_strides[0] + e.head * pool.entry_strides[1] + e.d * pool.entry_strides[2];
}

// Copies k into k_cache and v into v_cache at the tokens' slots (slot_mapping: I64 device
// memory, one per token at slot_step); element_size 2 or 4.
infiniStatus_t PagedCaching(const InfiniopDescriptor &desc, const PagedCachingGeometry &geometry, size_t element_size,
                            void *k_cache, void *v_cache, const void *k, const void *v, const void *slot_mapping,
                            void *stream);

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_PAGED_CACHING_H
