#include "core/blas.h"

#include <algorithm>
#include <climits>

namespace infinicts::ref::op {

bool ToBlasMatrix(const MatrixLayout &layout, BlasMatrix *blas) {
  const size_t rows = layout.rows;
  const size_t cols = layout.cols;
  const auto fits = [](size_t v) { return v <= static_cast<size_t>(INT_MAX); };
  // Row-major: unit column stride (or one column), rows at least a row apart.
  if ((layout.col_stride == 1 || cols <= 1) &&
      (rows <= 1 || layout.row_stride >= static_cast<ptrdiff_t>(std::max<size_t>(cols, 1)))) {
    const size_t ld = rows <= 1 ? std::max<size_t>(cols, 1) : static_cast<size_t>(layout.row_stride);
    if (!fits(ld)) return false;
    *blas = {false, static_cast<int>(ld)};
    return true;
  }
  // Column-major: unit row stride (or one row), columns at least a column apart.
  if ((layout.row_stride == 1 || rows <= 1) &&
      (cols <= 1 || layout.col_stride >= static_cast<ptrdiff_t>(std::max<size_t>(rows, 1)))) {
    const size_t ld = cols <= 1 ? std::max<size_t>(rows, 1) : static_cast<size_t>(layout.col_stride);
    if (!fits(ld)) return false;
    *blas = {true, static_cast<int>(ld)};
    return true;
  }
  return false;
}

}  // namespace infinicts::ref::op
