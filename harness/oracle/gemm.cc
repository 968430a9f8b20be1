#include <string>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {
namespace {

// A 2-D or 3-D matrix operand viewed as [batch, rows, cols].
struct Matrices {
  size_t batch, rows, cols;
  std::vector<double> values;  // row-major [batch][rows][cols]

  double At(size_t b, size_t r, size_t c) const {
    const size_t used_batch = batch == 1 ? 0 : b;  // batch 1 serves every batch
    return values[(used_batch * rows + r) * cols + c];
  }
};

Matrices ReadMatrices(const HostTensor &tensor, const char *name) {
  Require(tensor.ndim() == 2 || tensor.ndim() == 3, "Gemm",
          std::string(name) + " must be 2-D or 3-D, got " + ShapeText(tensor.shape()));
  const Shape &shape = tensor.shape();
  const size_t batch = tensor.ndim() == 3 ? shape[0] : 1;
  return Matrices{batch, shape[tensor.ndim() - 2], shape[tensor.ndim() - 1], tensor.ToDoubles()};
}

}  // namespace

HostTensor Gemm(const HostTensor &c, const HostTensor &a, const HostTensor &b, double alpha, double beta) {
  const Matrices c_in = ReadMatrices(c, "c");
  const Matrices a_in = ReadMatrices(a, "a");
  const Matrices b_in = ReadMatrices(b, "b");
  const size_t batch = c_in.batch, m = c_in.rows, n = c_in.cols, k = a_in.cols;
  Require(a_in.rows == m && b_in.rows == k && b_in.cols == n, "Gemm",
          "shapes do not chain: a " + ShapeText(a.shape()) + ", b " + ShapeText(b.shape()) + ", c " +
              ShapeText(c.shape()));
  Require((a_in.batch == batch || a_in.batch == 1) && (b_in.batch == batch || b_in.batch == 1), "Gemm",
          "a and b need c's batch or batch 1");

  std::vector<double> result(batch * m * n);
  for (size_t p = 0; p < batch; ++p) {
    for (size_t i = 0; i < m; ++i) {
      for (size_t j = 0; j < n; ++j) {
        double dot = 0.0;
        for (size_t q = 0; q < k; ++q) dot += a_in.At(p, i, q) * b_in.At(p, q, j);
        // beta = 0 means C is not an input: never multiply it (0 · NaN would be NaN).
        const double previous = beta == 0.0 ? 0.0 : beta * c_in.At(p, i, j);
        result[(p * m + i) * n + j] = alpha * dot + previous;
      }
    }
  }
  return F64Tensor(c.shape(), result);
}

}  // namespace infinicts::oracle
