// N operands of one shape, each with its own strides (in elements), in the fixed-size form
// a kernel takes as a parameter. Dims of size 1 are dropped and neighbouring dims that are
// contiguous for every operand are merged (as core/strided_loop.h does on the host), so a
// layout that is contiguous for all operands becomes one dim of unit strides.
// Plain C++: built on the host at descriptor creation, read by the kernels.
#ifndef INFINICTS_REF_OP_CUDA_STRIDED_OPERANDS_H
#define INFINICTS_REF_OP_CUDA_STRIDED_OPERANDS_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace infinicts::ref::op::cuda {

// A tensor descriptor has at most 32 dims (core/tensor.h); merging never adds any.
constexpr int kMaxStridedDims = 32;

template <size_t N>
struct StridedOperands {
  int ndim = 0;  // 0: a single element (every dim was 1) or no element at all
  uint64_t numel = 0;
  int64_t shape[kMaxStridedDims] = {};
  int64_t strides[N][kMaxStridedDims] = {};  // strides[operand][dim]

  // Every operand walks the elements in order with unit stride (numel <= 1 included).
  bool AllContiguous() const {
    if (ndim == 0) return true;
    if (ndim != 1) return false;
    for (size_t k = 0; k < N; ++k) {
      if (strides[k][0] != 1) return false;
    }
    return true;
  }
};

// `strides[k]` holds operand k's stride for every dim of `shape`.
template <size_t N>
StridedOperands<N> MergeOperands(const std::vector<size_t> &shape,
                                 const std::array<const std::vector<ptrdiff_t> *, N> &strides) {
  StridedOperands<N> merged;
  merged.numel = 1;
  for (size_t dim : shape) merged.numel *= dim;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    const int last = merged.ndim - 1;
    bool mergeable = last >= 0;
    for (size_t k = 0; k < N && mergeable; ++k) {
      mergeable = merged.strides[k][last] == (*strides[k])[d] * static_cast<int64_t>(shape[d]);
    }
    if (mergeable) {
      merged.shape[last] *= static_cast<int64_t>(shape[d]);
      for (size_t k = 0; k < N; ++k) merged.strides[k][last] = (*strides[k])[d];
      continue;
    }
    merged.shape[merged.ndim] = static_cast<int64_t>(shape[d]);
    for (size_t k = 0; k < N; ++k) merged.strides[k][merged.ndim] = (*strides[k])[d];
    ++merged.ndim;
  }
  return merged;
}

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_STRIDED_OPERANDS_H
