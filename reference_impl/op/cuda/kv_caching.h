// The CUDA path of KVCaching (ops/kv_caching.cc calls it for NVIDIA descriptors): each
// sequence's new keys and values appended to its caches at its past length, bit for bit.
// Where each element goes is plain host and device code (tested on the CPU); the kernel is
// in kv_caching.cu.
#ifndef INFINICTS_REF_OP_CUDA_KV_CACHING_H
#define INFINICTS_REF_OP_CUDA_KV_CACHING_H

#include <cstddef>
#include <cstdint>

#include "core/descriptor.h"
#include "cuda/kernel_limits.h"
#include "core/host_device.h"

namespace infinicts::ref::op::cuda {

// Caches [batch, head, position, dim] and entries [batch, head, new position, dim] (strides in
// elements); the past lengths I32 or I64, one per sequence at length_step.
struct KVCachingGeometry {
  int64_t batch, heads, max_seq, new_len, head_dim;
  int64_t length_step;
  bool lengths_64;
  int64_t k_cache[4], v_cache[4], k[4], v[4];
};
static_assert(FitsKernelParameters<KVCachingGeometry>(), "KVCaching's parameters must fit in 4 KB");

// Element i (batch-major, then head, new position, dim; i < batch * heads * new_len * head_dim).
struct KVElement {
  int64_t b, h, s, d;
};
INFINICTS_HOST_DEVICE inline KVElement LocateKVElement(const KVCachingGeometry &g, uint64_t i) {
  const uint64_t dim = static_cast<uint64_t>(g.head_dim), len = static_cast<uint64_t>(g.new_len),
                 heads = static_cast<uint64_t>(g.heads);
  return {static_cast<int64_t>(i / (dim * len * heads)), static_cast<int64_t>(i / (dim * len) % heads),
          static_cast<int64_t>(i / dim % len), static_cast<int64_t>(i % dim)};
}

// Whether a sequence with `past` entries takes the new ones (0 <= past, past + new_len <= max_seq).
INFINICTS_HOST_DEVICE inline bool FitsCache(const KVCachingGeometry &g, int64_t past) {
  return past >= 0 && past <= g.max_seq - g.new_len;
}

INFINICTS_HOST_DEVICE inline int64_t Offset4(const int64_t (&strides)[4], int64_t a, int64_t b, int64_t c,
                                                int64_t d) {
  return a * strides[0] + b * strides[1] + c * strides[2] + d * strides[3];
}

infiniStatus_t KVCaching(const InfiniopDescriptor &desc, const KVCachingGeometry &geometry, size_t element_size,
                         void *k_cache, void *v_cache, const void *k, const void *v, const void *past_lengths,
                         void *stream);

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_KV_CACHING_H
