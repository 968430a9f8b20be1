// KVCaching on the GPU: one thread per element of the new keys and values, copied as a 2-
// or 4-byte word to the place kv_caching.h computes.
#include <cstdint>

#include "cuda/kv_caching.h"
#include "cuda/device_types.cuh"
#include "cuda/launch.h"

namespace infinicts::ref::op::cuda {
namespace {

template <class Bits>
__global__ void AppendKernel(const __grid_constant__ KVCachingGeometry g, Bits *k_cache, Bits *v_cache,
                             const Bits *k, const Bits *v, const void *lengths) {
  const uint64_t total = static_cast<uint64_t>(g.batch) * static_cast<uint64_t>(g.heads) *
                         static_cast<uint64_t>(g.new_len) * static_cast<uint64_t>(g.head_dim);
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += step) {
    const KVElement e = LocateKVElement(g, i);
    const int64_t past = g.lengths_64 ? static_cast<const int64_t *>(lengths)[e.b * g.length_step]
                                      : static_cast<const int32_t *>(lengths)[e.b * g.length_step];
    if (!FitsCache(g, past)) continue;
    const int64_t position = past + e.s;
    k_cache[Offset4(g.k_cache, e.b, e.h, position, e.d)] = k[Offset4(g.k, e.b, e.h, e.s, e.d)];
    v_cache[Offset4(g.v_cache, e.b, e.h, position, e.d)] = v[Offset4(g.v, e.b, e.h, e.s, e.d)];
  }
}

template <class Bits>
void Append(const KVCachingGeometry &g, void *k_cache, void *v_cache, const void *k, const void *v,
            const void *lengths, cudaStream_t stream) {
  const uint64_t total = static_cast<uint64_t>(g.batch) * static_cast<uint64_t>(g.heads) *
                         static_cast<uint64_t>(g.new_len) * static_cast<uint64_t>(g.head_dim);
  if (total == 0) return;
  AppendKernel<Bits><<<BlocksFor(total), kThreads, 0, stream>>>(
      g, static_cast<Bits *>(k_cache), static_cast<Bits *>(v_cache), static_cast<const Bits *>(k),
      static_cast<const Bits *>(v), lengths);
}

}  // namespace

infiniStatus_t KVCaching(const InfiniopDescriptor &desc, const KVCachingGeometry &geometry, size_t element_size,
                         void *k_cache, void *v_cache, const void *k, const void *v, const void *past_lengths,
                         void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  const bool known = DispatchCopyWord(element_size, [&](auto tag) {
    Append<typename decltype(tag)::type>(geometry, k_cache, v_cache, k, v, past_lengths, scope.stream());
  });
  if (!known) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  return scope.Finish();
}

}  // namespace infinicts::ref::op::cuda
