// Whether a paged sequence can be computed, one copy for both paths (ops/paged_kv.h over the
// block tables copied to the host, cuda/paged_attention.h over device memory).
#ifndef INFINICTS_REF_OP_OPS_PAGED_FIT_H
#define INFINICTS_REF_OP_OPS_PAGED_FIT_H

#include <cstdint>

#include "core/host_device.h"

namespace infinicts::ref::op {

// A sequence of `length` keys fits its block-table row when 1 <= length <= max_blocks ·
// block_size and each of the ceil(length / block_size) blocks it uses lies in [0, num_blocks).
// block_at(b) answers the row's b-th entry, widened to int64. Such a sequence is computed; the
// others get NaN (the spec leaves them open). block_size >= 1.
template <class BlockAt>
INFINICTS_HOST_DEVICE bool FitsBlockTable(int64_t length, uint64_t max_blocks, uint64_t block_size,
                                          uint64_t num_blocks, const BlockAt &block_at) {
  if (length < 1 || static_cast<uint64_t>(length) > max_blocks * block_size) return false;
  const uint64_t used = (static_cast<uint64_t>(length) + block_size - 1) / block_size;
  for (uint64_t b = 0; b < used; ++b) {
    const int64_t block = block_at(b);
    if (block < 0 || static_cast<uint64_t>(block) >= num_blocks) return false;
  }
  return true;
}

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_OPS_PAGED_FIT_H
