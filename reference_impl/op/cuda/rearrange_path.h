// How the CUDA Rearrange copies a layout (rearrange.cu), apart so that the choice is tested
// on the CPU: one cudaMemcpyAsync when both sides are contiguous, one cudaMemcpy2DAsync for
// rows of unit stride on both sides whose pitches the device takes, else the strided kernel.
#ifndef INFINICTS_REF_OP_CUDA_REARRANGE_PATH_H
#define INFINICTS_REF_OP_CUDA_REARRANGE_PATH_H

#include <cstddef>
#include <cstdint>

#include "cuda/strided_operands.h"

namespace infinicts::ref::op::cuda {

enum class RearrangePath { kNothing, kContiguousCopy, kPitchedCopy, kStridedKernel };

inline bool SameLayoutForBoth(const StridedOperands<2> &layout) {
  for (int d = 0; d < layout.ndim; ++d) {
    if (layout.strides[0][d] != layout.strides[1][d]) return false;
  }
  return true;
}

// Two dims, unit stride inside rows on both sides, rows apart by at least a row, and both
// row pitches within `max_pitch_bytes` (cudaDevAttrMaxPitch): cudaMemcpy2DAsync refuses a
// larger pitch.
inline bool IsPitchedRows(const StridedOperands<2> &layout, size_t element_size, size_t max_pitch_bytes) {
  if (layout.ndim != 2) return false;
  for (int k = 0; k < 2; ++k) {
    if (layout.strides[k][1] != 1 || layout.strides[k][0] < layout.shape[1]) return false;
    if (static_cast<uint64_t>(layout.strides[k][0]) > max_pitch_bytes / element_size) return false;
  }
  return true;
}

// `in_place`: dst and src are the same address.
inline RearrangePath ChooseRearrangePath(const StridedOperands<2> &layout, size_t element_size, bool in_place,
                                         size_t max_pitch_bytes) {
  // In place with one layout (OP-ALIAS-1): every element is already where it belongs.
  if (layout.numel == 0 || (in_place && SameLayoutForBoth(layout))) return RearrangePath::kNothing;
  if (layout.AllContiguous()) return RearrangePath::kContiguousCopy;
  if (IsPitchedRows(layout, element_size, max_pitch_bytes)) return RearrangePath::kPitchedCopy;
  return RearrangePath::kStridedKernel;
}

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_REARRANGE_PATH_H
