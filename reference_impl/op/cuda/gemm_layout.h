// How Gemm's row- or column-major operands become one cuBLAS call (gemm.cc), apart so that
// the CPU tests check it against cuBLAS's rules. cuBLAS is column-major: a row-major C
// (m x n) is the column-major C^T, so C = A * B is computed as C^T = B^T * A^T with the
// operands swapped; each operand is transposed or not by how it is stored.
#ifndef INFINICTS_REF_OP_CUDA_GEMM_LAYOUT_H
#define INFINICTS_REF_OP_CUDA_GEMM_LAYOUT_H

#include "cuda/gemm.h"

namespace infinicts::ref::op::cuda {

// One column-major product as cuBLAS gets it: C' (rows x cols, ld c.ld) = op(first) *
// op(second), op transposing where `transpose_*` says. `swapped`: first is B and second A.
struct ColumnMajorCall {
  bool transpose_first, transpose_second;
  int rows, cols, depth;
  GemmMatrix first, second;
  bool swapped;
};

inline ColumnMajorCall Arrange(const GemmProblem &p) {
  const int m = static_cast<int>(p.m), n = static_cast<int>(p.n), k = static_cast<int>(p.k);
  if (p.c.column_major) {
    // C = A * B directly; a row-major operand is read as its transpose.
    return {!p.a.column_major, !p.b.column_major, m, n, k, p.a, p.b, false};
  }
  // C^T = B^T * A^T: a row-major operand already is its transpose in column-major terms.
  return {p.b.column_major, p.a.column_major, n, m, k, p.b, p.a, true};
}

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_GEMM_LAYOUT_H
