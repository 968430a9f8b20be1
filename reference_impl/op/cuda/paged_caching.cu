// PagedCaching on the GPU: one thread per element of the keys (then of the values), copied
// as a 2- or 4-byte word, to the place paged_caching.h computes.
#include <cstdint>

#include "cuda/device_types.cuh"
#include "cuda/launch.h"
#include "cuda/paged_caching.h"

namespace infinicts::ref::op::cuda {
namespace {

template <class Bits>
__global__ void ScatterKernel(const __grid_constant__ PagedCachingGeometry g, PagedPool pool, Bits *cache,
                              const Bits *entries, const int64_t *slots) {
  const uint64_t total = static_cast<uint64_t>(g.tokens) * static_cast<uint64_t>(g.heads) *
                         static_cast<uint64_t>(pool.dim);
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += step) {
    const PagedElement e = LocatePagedElement(g, pool, i);
    int64_t block = 0, offset = 0;
    if (!SlotPlace(g, slots[e.token * g.slot_step], &block, &offset)) continue;
    cache[PoolOffset(pool, e, block, offset)] = entries[EntryOffset(pool, e)];
  }
}

template <class Bits>
void Scatter(const PagedCachingGeometry &g, const PagedPool &pool, void *cache, const void *entries,
             const int64_t *slots, cudaStream_t stream) {
  const uint64_t total = static_cast<uint64_t>(g.tokens) * static_cast<uint64_t>(g.heads) *
                         static_cast<uint64_t>(pool.dim);
  if (total == 0) return;
  ScatterKernel<Bits><<<BlocksFor(total), kThreads, 0, stream>>>(g, pool, static_cast<Bits *>(cache),
                                                                 static_cast<const Bits *>(entries), slots);
}

}  // namespace

infiniStatus_t PagedCaching(const InfiniopDescriptor &desc, const PagedCachingGeometry &geometry, size_t element_size,
                            void *k_cache, void *v_cache, const void *k, const void *v, const void *slot_mapping,
                            void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  const auto *slots = static_cast<const int64_t *>(slot_mapping);
  const bool known = DispatchCopyWord(element_size, [&](auto tag) {
    using Word = typename decltype(tag)::type;
    Scatter<Word>(geometry, geometry.k, k_cache, k, slots, scope.stream());
    Scatter<Word>(geometry, geometry.v, v_cache, v, slots, scope.stream());
  });
  if (!known) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  return scope.Finish();
}

}  // namespace infinicts::ref::op::cuda
