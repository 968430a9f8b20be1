// How the CUDA Rearrange copies a layout (rearrange.cu), apart so that the choice is tested
// on the CPU: one cudaMemcpyAsync when both sides are contiguous, one cudaMemcpy2DAsync for
// rows of unit stride on both sides whose pitches the device takes, else the strided kernel;
// a source whose bytes the destination's overlap is first copied aside (neither copy nor
// kernel is defined on overlapping ranges).
#ifndef INFINICTS_REF_OP_CUDA_REARRANGE_PATH_H
#define INFINICTS_REF_OP_CUDA_REARRANGE_PATH_H

#include <cstddef>
#include <cstdint>

#include "cuda/strided_operands.h"

namespace infinicts::ref::op::cuda {

enum class RearrangePath { kNothing, kContiguousCopy, kPitchedCopy, kStridedKernel, kStagedCopy };

// The bytes [low, high) that operand `operand` of `layout` reaches from its address `base`.
struct ByteSpan {
  uintptr_t low = 0, high = 0;
};
inline ByteSpan SpanOf(const StridedOperands<2> &layout, int operand, size_t element_size, uintptr_t base) {
  int64_t low = 0, high = 0;  // in elements, from base
  for (int d = 0; d < layout.ndim; ++d) {
    const int64_t reach = (layout.shape[d] - 1) * layout.strides[operand][d];
    (reach < 0 ? low : high) += reach;
  }
  const auto bytes = static_cast<int64_t>(element_size);
  return {base + static_cast<uintptr_t>(low * bytes), base + static_cast<uintptr_t>((high + 1) * bytes)};
}

// Whether the destination's bytes and the source's share one (numel > 0).
inline bool OperandsOverlap(const StridedOperands<2> &layout, size_t element_size, uintptr_t dst, uintptr_t src) {
  if (layout.numel == 0) return false;
  const ByteSpan d = SpanOf(layout, 0, element_size, dst), s = SpanOf(layout, 1, element_size, src);
  return d.low < s.high && s.low < d.high;
}

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

// `in_place`: dst and src are the same address; `overlapping`: their bytes meet
// (OperandsOverlap), which the same address implies.
inline RearrangePath ChooseRearrangePath(const StridedOperands<2> &layout, size_t element_size, bool in_place,
                                         size_t max_pitch_bytes, bool overlapping = false) {
  // In place with one layout (OP-ALIAS-1): every element is already where it belongs.
  if (layout.numel == 0 || (in_place && SameLayoutForBoth(layout))) return RearrangePath::kNothing;
  if (in_place || overlapping) return RearrangePath::kStagedCopy;
  if (layout.AllContiguous()) return RearrangePath::kContiguousCopy;
  if (IsPitchedRows(layout, element_size, max_pitch_bytes)) return RearrangePath::kPitchedCopy;
  return RearrangePath::kStridedKernel;
}

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_REARRANGE_PATH_H
