#include <cstdint>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor I8Gemm(const HostTensor &x, const HostTensor &x_scale, const HostTensor &weights,
                  const HostTensor &weights_scale, const HostTensor *bias) {
  Require(x.ndim() == 2 && weights.ndim() == 2, "I8Gemm", "x and weights must be 2-D");
  const size_t m_size = x.shape()[0], k_size = x.shape()[1], n_size = weights.shape()[1];
  Require(weights.shape()[0] == k_size, "I8Gemm", "weights must have x's K rows");
  Require(x_scale.numel() == m_size && weights_scale.numel() == n_size, "I8Gemm",
          "x_scale must hold M elements and weights_scale N");
  Require(bias == nullptr || bias->numel() == n_size, "I8Gemm", "bias must hold N elements");
  const std::vector<double> xs = x.ToDoubles(), ws = weights.ToDoubles();
  const std::vector<double> row_scale = x_scale.ToDoubles(), column_scale = weights_scale.ToDoubles();
  const std::vector<double> shift = bias != nullptr ? bias->ToDoubles() : std::vector<double>(n_size, 0.0);
  // Columns of weights gathered once, so each dot product walks two contiguous runs.
  std::vector<int64_t> columns(n_size * k_size), rows(m_size * k_size);
  for (size_t k = 0; k < k_size; ++k) {
    for (size_t n = 0; n < n_size; ++n) columns[n * k_size + k] = static_cast<int64_t>(ws[k * n_size + n]);
  }
  for (size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<int64_t>(xs[i]);
  std::vector<double> out(m_size * n_size);
  for (size_t m = 0; m < m_size; ++m) {
    for (size_t n = 0; n < n_size; ++n) {
      int64_t sum = 0;  // exact: |sum| <= K·2^14
      for (size_t k = 0; k < k_size; ++k) sum += rows[m * k_size + k] * columns[n * k_size + k];
      out[m * n_size + n] = row_scale[m] * column_scale[n] * static_cast<double>(sum) + shift[n];
    }
  }
  return F64Tensor({m_size, n_size}, out);
}

}  // namespace infinicts::oracle
