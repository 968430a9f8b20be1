// Row-major GEMM through OpenBLAS, typed for float and double, plus the test that maps
// a strided matrix onto BLAS's (transpose flag, leading dimension) description.
#ifndef INFINICTS_REF_OP_CORE_BLAS_H
#define INFINICTS_REF_OP_CORE_BLAS_H

#include <cblas.h>

#include <cstddef>

namespace infinicts::ref::op {

// Element (r, c) lives at r * row_stride + c * col_stride.
struct MatrixLayout {
  size_t rows = 0;
  size_t cols = 0;
  ptrdiff_t row_stride = 0;
  ptrdiff_t col_stride = 0;
};

// How BLAS reads a MatrixLayout: row-major (element (r, c) at r * ld + c) or
// column-major (at c * ld + r).
struct BlasMatrix {
  bool column_major = false;
  int ld = 1;
};

// Succeeds when the matrix has unit stride in one of its dims and a leading
// stride that steps past a whole row (or column); dims of size 1 impose nothing.
bool ToBlasMatrix(const MatrixLayout &layout, BlasMatrix *blas);

// C (row-major, ldc) = alpha * op(A) * op(B) + beta * C; op transposes when asked.
inline void BlasGemm(bool transpose_a, bool transpose_b, int m, int n, int k, float alpha, const float *a, int lda,
                     const float *b, int ldb, float beta, float *c, int ldc) {
  cblas_sgemm(CblasRowMajor, transpose_a ? CblasTrans : CblasNoTrans, transpose_b ? CblasTrans : CblasNoTrans, m, n, k,
              alpha, a, lda, b, ldb, beta, c, ldc);
}

inline void BlasGemm(bool transpose_a, bool transpose_b, int m, int n, int k, double alpha, const double *a, int lda,
                     const double *b, int ldb, double beta, double *c, int ldc) {
  cblas_dgemm(CblasRowMajor, transpose_a ? CblasTrans : CblasNoTrans, transpose_b ? CblasTrans : CblasNoTrans, m, n, k,
              alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_CORE_BLAS_H
