// The CUDA path of MRoPE (ops/mrope.cc calls it for NVIDIA descriptors): one thread per
// rotated pair (i, i + rotary_dim / 2) of a head, or per element past rotary_dim (copied),
// in double as on the CPU, rounded once when stored. Which token, head and pair a thread
// takes, which position row each frequency reads (sections or interleaved) and which
// tokens are left unwritten are plain host and device functions (tested on the CPU); the
// kernel is in mrope.cu.
#ifndef INFINICTS_REF_OP_CUDA_MROPE_H
#define INFINICTS_REF_OP_CUDA_MROPE_H

#include <cstddef>
#include <cstdint>

#include "core/descriptor.h"
#include "core/host_device.h"
#include "cuda/kernel_limits.h"
#include "ops/mrope_axis.h"

namespace infinicts::ref::op::cuda {

// q, q_out [tokens, q_heads · head_size], k, k_out [tokens, k_heads · head_size], cos and
// sin [table_len, rotary_dim / 2] (strides in elements); positions [3, tokens] (per_axis)
// or [tokens], I32 or I64.
struct MRoPEGeometry {
  int64_t tokens, q_heads, k_heads, head_size, rotary_dim, table_len;
  int64_t section_t, section_h, section_w;
  int64_t q_out[2], k_out[2], q[2], k[2], cos[2], sin[2];
  int64_t pos_axis_step, pos_token_step;
  int32_t interleaved, per_axis, positions_64;
};
static_assert(FitsKernelParameters<MRoPEGeometry>(), "MRoPE's parameters must fit in 4 KB");

// The position row (0 t, 1 h, 2 w) rotary frequency i < rotary_dim / 2 takes: the CPU's rule.
INFINICTS_HOST_DEVICE inline int MRoPEAxis(const MRoPEGeometry &g, int64_t i) {
  return MRoPEAxisOf(i, g.section_t, g.section_h, g.section_w, g.interleaved != 0);
}

// Token t's three positions; false where any is outside [0, table_len) (the token is left
// unwritten).
INFINICTS_HOST_DEVICE inline bool MRoPEPositions(const MRoPEGeometry &g, const void *positions, int64_t t,
                                                       int64_t (&position)[3]) {
  bool inside = true;
  for (int axis = 0; axis < 3; ++axis) {
    const int64_t at = (g.per_axis ? axis : 0) * g.pos_axis_step + t * g.pos_token_step;
    position[axis] = g.positions_64 ? static_cast<const int64_t *>(positions)[at]
                                    : static_cast<int64_t>(static_cast<const int32_t *>(positions)[at]);
    inside = inside && position[axis] >= 0 && position[axis] < g.table_len;
  }
  return inside;
}

// Work item i: token, head (q heads first, then k heads) and lane; lanes below
// rotary_dim / 2 rotate the pair (lane, lane + rotary_dim / 2), the others copy element
// rotary_dim + (lane − rotary_dim / 2).
struct MRoPEItem {
  int64_t token, head, lane;
};
INFINICTS_HOST_DEVICE inline int64_t MRoPELanes(const MRoPEGeometry &g) {
  return g.rotary_dim / 2 + (g.head_size - g.rotary_dim);
}
INFINICTS_HOST_DEVICE inline MRoPEItem LocateMRoPE(const MRoPEGeometry &g, uint64_t i) {
  const uint64_t lanes = static_cast<uint64_t>(MRoPELanes(g)), heads = static_cast<uint64_t>(g.q_heads + g.k_heads);
  return {static_cast<int64_t>(i / (lanes * heads)), static_cast<int64_t>(i / lanes % heads),
          static_cast<int64_t>(i % lanes)};
}

// dtype a float dtype, positions I32 or I64 (geometry.positions_64).
infiniStatus_t MRoPE(const InfiniopDescriptor &desc, const MRoPEGeometry &geometry, infiniDtype_t dtype, void *q_out,
                     void *k_out, const void *q, const void *k, const void *cos, const void *sin,
                     const void *positions, void *stream);

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_MROPE_H
