// The CUDA path of Attention (ops/attention.cc calls it for NVIDIA descriptors), in four
// kernels on the caller's stream: k and v copied into the caches' rows pos .. pos + seq - 1;
// every visible score q·k / sqrt(d) in F32 into the workspace; a max-subtracted softmax of
// each score row (its sum in double, as on the CPU); out = scores · v in F32, rounded once.
// Which heads, rows and elements each step reads and writes is plain host and device code
// (tested on the CPU); the kernels are in attention.cu.
#ifndef INFINICTS_REF_OP_CUDA_ATTENTION_H
#define INFINICTS_REF_OP_CUDA_ATTENTION_H

#include <cstddef>
#include <cstdint>

#include "core/descriptor.h"
#include "cuda/kernel_limits.h"
#include "core/host_device.h"

namespace infinicts::ref::op::cuda {

// q [n_q, seq, d], k and v [n_kv, seq, d], caches [n_kv, capacity, d], out [seq, n_q, d]
// (strides in elements); group = n_q / n_kv.
struct AttentionGeometry {
  int64_t n_q, n_kv, group, seq, dim, pos;
  int64_t out[3], q[3], k[3], v[3], k_cache[3], v_cache[3];
};
static_assert(FitsKernelParameters<AttentionGeometry>(), "Attention's parameters must fit in 4 KB");

// The keys every score row has room for: the cache rows 0 .. pos + seq - 1.
INFINICTS_HOST_DEVICE inline int64_t ScoreRowLength(const AttentionGeometry &g) { return g.pos + g.seq; }
// Score row r belongs to q head r / seq and token r % seq (n_q * seq rows).
INFINICTS_HOST_DEVICE inline int64_t HeadOfRow(const AttentionGeometry &g, int64_t row) { return row / g.seq; }
INFINICTS_HOST_DEVICE inline int64_t TokenOfRow(const AttentionGeometry &g, int64_t row) {
  return row % g.seq;
}
// The kv head q head h reads (grouped-query attention).
INFINICTS_HOST_DEVICE inline int64_t KvHeadOf(const AttentionGeometry &g, int64_t h) { return h / g.group; }
// Token i sits at position pos + i and sees keys 0 .. pos + i.
INFINICTS_HOST_DEVICE inline int64_t VisibleKeys(const AttentionGeometry &g, int64_t token) {
  return g.pos + token + 1;
}

INFINICTS_HOST_DEVICE inline int64_t At3(const int64_t (&strides)[3], int64_t a, int64_t b, int64_t c) {
  return a * strides[0] + b * strides[1] + c * strides[2];
}

// The F32 score rows the kernels keep in the workspace (with room to align it).
inline size_t AttentionWorkspaceBytes(const AttentionGeometry &g) {
  return static_cast<size_t>(g.n_q * g.seq * ScoreRowLength(g)) * sizeof(float) + 256;
}

// dtype F16, BF16 or F32; `workspace` of AttentionWorkspaceBytes.
infiniStatus_t Attention(const InfiniopDescriptor &desc, const AttentionGeometry &geometry, infiniDtype_t dtype,
                         void *out, const void *q, const void *k, const void *v, void *k_cache, void *v_cache,
                         void *workspace, void *stream);

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_ATTENTION_H
