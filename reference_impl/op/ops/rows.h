// Row-wise operators (norms, softmaxes, RoPE): a loop over every row, with per-operand
// offsets of the row's first element and per-operand strides along the row.
#ifndef INFINICTS_REF_OP_OPS_ROWS_H
#define INFINICTS_REF_OP_OPS_ROWS_H

#include <algorithm>
#include <array>
#include <vector>

#include "core/strided_loop.h"
#include "core/tensor.h"

namespace infinicts::ref::op {

template <size_t N>
struct RowLoop {
  StridedLoop<N> rows;  // over the dims that are not the row
  size_t length = 0;    // elements per row
  Offsets<N> along{};   // each operand's stride along the row
};

// Rows along `axis` of operands that all have `shape`.
template <size_t N>
RowLoop<N> MakeRowLoop(const std::array<const TensorLayout *, N> &operands, size_t axis) {
  RowLoop<N> loop;
  const TensorLayout outer = WithoutDim(*operands[0], axis);
  std::array<std::vector<ptrdiff_t>, N> outer_strides;
  std::array<const std::vector<ptrdiff_t> *, N> pointers;
  for (size_t k = 0; k < N; ++k) {
    outer_strides[k] = WithoutDim(*operands[k], axis).strides;
    pointers[k] = &outer_strides[k];
    loop.along[k] = operands[k]->strides[axis];
  }
  loop.rows = StridedLoop<N>(outer.shape, pointers);
  loop.length = operands[0]->shape[axis];
  return loop;
}

// body(row_index, offsets) for every row, rows split across the pool.
template <size_t N, class Body>
void ForEachRow(const RowLoop<N> &loop, Body &&body) {
  const size_t grain = std::max<size_t>(1, (size_t(1) << 14) / std::max<size_t>(loop.length, 1));
  loop.rows.ParallelForEach(grain, [&](size_t first, const Offsets<N> &offsets, const Offsets<N> &steps,
                                       size_t count) {
    Offsets<N> current = offsets;
    for (size_t i = 0; i < count; ++i) {
      body(first + i, current);
      for (size_t k = 0; k < N; ++k) current[k] += steps[k];
    }
  });
}

// Per-thread scratch of at least n doubles, reused across rows and calls.
inline double *RowScratch(size_t n) {
  thread_local std::vector<double> scratch;
  if (scratch.size() < n) scratch.resize(n);
  return scratch.data();
}

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_OPS_ROWS_H
