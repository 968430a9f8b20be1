// The driver of the Gemm faults that compute their result on the host
// (gemm_f16_accumulates_in_f16, gemm_batch_stride_0_as_packed): each gives which descriptors
// it changes and the writes it makes; the creation, compute and destroy calls are shared.
#pragma once

#include <vector>

#include "op/host_compute.h"
#include "op/op_table.h"
#include "op/tensor_layout.h"

namespace infinicts::fault {

struct GemmLayouts {
  TensorLayout c, a, b;
};

// One operand's strides: a 2-D operand, or a batch of 1, serves every batch.
struct GemmMatrix {
  ptrdiff_t batch_stride, row_stride, col_stride;

  explicit GemmMatrix(const TensorLayout &of);
  ptrdiff_t At(size_t batch, size_t row, size_t col) const {
    return static_cast<ptrdiff_t>(batch) * batch_stride + static_cast<ptrdiff_t>(row) * row_stride +
           static_cast<ptrdiff_t>(col) * col_stride;
  }
};

// Calls visit(batch, row, col) for every element of C from batch `first_batch` on (a 2-D C is
// one batch).
template <class Visit>
void ForEachOutputElement(const TensorLayout &c, size_t first_batch, Visit visit) {
  const size_t ndim = c.shape.size();
  const size_t batches = ndim == 3 ? c.shape[0] : 1, m = c.shape[ndim - 2], n = c.shape[ndim - 1];
  for (size_t batch = first_batch; batch < batches; ++batch) {
    for (size_t i = 0; i < m; ++i) {
      for (size_t j = 0; j < n; ++j) visit(batch, i, j);
    }
  }
}

using GemmSelect = bool (*)(const GemmLayouts &layouts);
using GemmHostWrites = std::vector<ElementWrite> (*)(const GemmLayouts &layouts, void *c, const void *a,
                                                      const void *b, float alpha, float beta);

// Gemm descriptors whose tracked layouts `select` accepts get their C from `writes` (after
// the real call, ComputeOnHostInstead); the others go to the target untouched. One fault
// per process, as the wrapper installs.
void InstallHostGemm(OpTable &calls, GemmSelect select, GemmHostWrites writes);

}  // namespace infinicts::fault
