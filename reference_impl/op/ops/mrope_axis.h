// MRoPE's frequency-to-position rule, one copy for both paths (ops/mrope.cc and the CUDA
// kernel, cuda/mrope.h), so the host tests of the one check the other.
#ifndef INFINICTS_REF_OP_OPS_MROPE_AXIS_H
#define INFINICTS_REF_OP_OPS_MROPE_AXIS_H

#include <cstdint>

#include "core/host_device.h"

namespace infinicts::ref::op {

// The position row (0 t, 1 h, 2 w) rotary frequency i < rotary_dim / 2 takes. Contiguous:
// the first section_t frequencies t, the next section_h h, the rest w. Interleaved: i mod 3 = 1
// is h while i < 3·section_h, i mod 3 = 2 is w while i < 3·section_w, every other one t.
INFINICTS_HOST_DEVICE inline int MRoPEAxisOf(int64_t i, int64_t section_t, int64_t section_h, int64_t section_w,
                                             bool interleaved) {
  if (interleaved) {
    if (i % 3 == 1 && i < 3 * section_h) return 1;
    if (i % 3 == 2 && i < 3 * section_w) return 2;
    return 0;
  }
  return i < section_t ? 0 : i < section_t + section_h ? 1 : 2;
}

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_OPS_MROPE_AXIS_H
