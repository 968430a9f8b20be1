// Walks N operands that share one shape, each with its own strides (in elements).
// Dims of size 1 are dropped and neighbouring dims that are contiguous for every
// operand are merged, so the innermost run is as long as the layouts allow.
#ifndef INFINICTS_REF_OP_CORE_STRIDED_LOOP_H
#define INFINICTS_REF_OP_CORE_STRIDED_LOOP_H

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

#include "core/parallel.h"

namespace infinicts::ref::op {

template <size_t N>
using Offsets = std::array<ptrdiff_t, N>;

template <size_t N>
class StridedLoop {
 public:
  StridedLoop() = default;

  // `strides[k]` holds operand k's stride for every dim of `shape`.
  StridedLoop(const std::vector<size_t> &shape, const std::array<const std::vector<ptrdiff_t> *, N> &strides) {
    numel_ = 1;
    for (size_t dim : shape) numel_ *= dim;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] == 1) continue;
      Offsets<N> step;
      for (size_t k = 0; k < N; ++k) step[k] = (*strides[k])[d];
      if (!shape_.empty()) {
        bool mergeable = true;
        for (size_t k = 0; k < N; ++k) {
          mergeable = mergeable && strides_.back()[k] == step[k] * static_cast<ptrdiff_t>(shape[d]);
        }
        if (mergeable) {
          shape_.back() *= shape[d];
          strides_.back() = step;
          continue;
        }
      }
      shape_.push_back(shape[d]);
      strides_.push_back(step);
    }
    if (shape_.empty()) {
      shape_.push_back(1);
      strides_.push_back(Offsets<N>{});
    }
  }

  size_t numel() const { return numel_; }

  // body(first, offsets, inner_strides, count) for every innermost run of the linear
  // (row-major) index range [begin, end); `first` is the run's first linear index.
  template <class Body>
  void ForRange(size_t begin, size_t end, Body &&body) const {
    if (begin >= end) return;
    const size_t ndim = shape_.size();
    const size_t last = ndim - 1;
    std::vector<size_t> index(ndim);
    Offsets<N> offsets{};
    size_t rest = begin;
    for (size_t d = ndim; d-- > 0;) {
      index[d] = rest % shape_[d];
      rest /= shape_[d];
      for (size_t k = 0; k < N; ++k) offsets[k] += static_cast<ptrdiff_t>(index[d]) * strides_[d][k];
    }
    size_t position = begin;
    while (position < end) {
      const size_t count = std::min(shape_[last] - index[last], end - position);
      body(position, offsets, strides_[last], count);
      position += count;
      if (position >= end) break;
      index[last] += count;
      for (size_t k = 0; k < N; ++k) offsets[k] += static_cast<ptrdiff_t>(count) * strides_[last][k];
      for (size_t d = last; d > 0 && index[d] == shape_[d]; --d) {
        for (size_t k = 0; k < N; ++k) {
          offsets[k] += strides_[d - 1][k] - static_cast<ptrdiff_t>(shape_[d]) * strides_[d][k];
        }
        index[d] = 0;
        ++index[d - 1];
      }
    }
  }

  // ForRange over every element, split across the pool in chunks of >= grain elements.
  template <class Body>
  void ParallelForEach(size_t grain, Body &&body) const {
    ParallelFor(numel_, grain, [&](size_t begin, size_t end) { ForRange(begin, end, body); });
  }

  // Every element once, as body(offsets, inner_strides, count), in no fixed order. When
  // an operand has unit stride along an outer dim but not along the innermost one (a
  // transpose), the two dims are walked in square tiles so that both operands reuse
  // their cache lines; otherwise this is ParallelForEach in linear order.
  template <class Body>
  void ParallelForEachTiled(size_t grain, Body &&body) const {
    const size_t tiled = TiledDim();
    if (tiled == kNoDim) {
      ParallelForEach(grain, [&](size_t, const Offsets<N> &offsets, const Offsets<N> &steps, size_t count) {
        body(offsets, steps, count);
      });
      return;
    }
    const size_t last = shape_.size() - 1;
    // The dims other than the two tiled ones, walked as a loop of their own.
    std::vector<size_t> rest_shape;
    std::array<std::vector<ptrdiff_t>, N> rest_strides;
    std::array<const std::vector<ptrdiff_t> *, N> rest_pointers;
    for (size_t d = 0; d < last; ++d) {
      if (d == tiled) continue;
      rest_shape.push_back(shape_[d]);
      for (size_t k = 0; k < N; ++k) rest_strides[k].push_back(strides_[d][k]);
    }
    for (size_t k = 0; k < N; ++k) rest_pointers[k] = &rest_strides[k];
    const StridedLoop<N> rest(rest_shape, rest_pointers);
    const size_t rows = shape_[tiled], cols = shape_[last];
    const size_t row_tiles = (rows + kTile - 1) / kTile, col_tiles = (cols + kTile - 1) / kTile;
    const size_t per_rest = row_tiles * col_tiles;
    ParallelFor(rest.numel() * per_rest, 1, [&](size_t begin, size_t end) {
      for (size_t unit = begin; unit < end; ++unit) {
        Offsets<N> base{};
        rest.ForRange(unit / per_rest, unit / per_rest + 1,
                      [&](size_t, const Offsets<N> &offsets, const Offsets<N> &, size_t) { base = offsets; });
        const size_t row0 = (unit % per_rest) / col_tiles * kTile, col0 = (unit % per_rest) % col_tiles * kTile;
        const size_t row_end = std::min(rows, row0 + kTile), count = std::min(cols, col0 + kTile) - col0;
        for (size_t r = row0; r < row_end; ++r) {
          Offsets<N> offsets;
          for (size_t k = 0; k < N; ++k) {
            offsets[k] = base[k] + static_cast<ptrdiff_t>(r) * strides_[tiled][k] +
                         static_cast<ptrdiff_t>(col0) * strides_[last][k];
          }
          body(offsets, strides_[last], count);
        }
      }
    });
  }

 private:
  static constexpr size_t kNoDim = static_cast<size_t>(-1);
  static constexpr size_t kTile = 64;

  // An outer dim along which some operand has unit stride while its innermost stride is
  // not unit; kNoDim when there is none (nothing to gain from tiling).
  size_t TiledDim() const {
    const size_t last = shape_.size() - 1;
    for (size_t k = 0; k < N; ++k) {
      if (strides_[last][k] == 1 || strides_[last][k] == -1) continue;
      for (size_t d = 0; d < last; ++d) {
        if (strides_[d][k] == 1 || strides_[d][k] == -1) return d;
      }
    }
    return kNoDim;
  }

 public:

 private:
  std::vector<size_t> shape_;
  std::vector<Offsets<N>> strides_;
  size_t numel_ = 0;
};

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_CORE_STRIDED_LOOP_H
