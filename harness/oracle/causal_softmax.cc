#include <cmath>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor CausalSoftmax(const HostTensor &x) {
  Require(x.ndim() == 2 || x.ndim() == 3, "CausalSoftmax", "x must be [seq, total] or [batch, seq, total]");
  const size_t seq = x.shape()[x.ndim() - 2];
  const size_t total = x.shape()[x.ndim() - 1];
  Require(total >= seq, "CausalSoftmax", "total length must be at least the sequence length");
  std::vector<double> values = x.ToDoubles();
  for (size_t row_start = 0; row_start < values.size(); row_start += total) {
    const size_t i = (row_start / total) % seq;
    // Query i of the new tokens sits at absolute position total - seq + i and sees every
    // key up to and including that position.
    const size_t visible = total - seq + i + 1;
    double *row = values.data() + row_start;
    double max_value = row[0];
    for (size_t j = 1; j < visible; ++j) max_value = std::fmax(max_value, row[j]);
    double sum = 0.0;
    for (size_t j = 0; j < visible; ++j) {
      row[j] = std::exp(row[j] - max_value);
      sum += row[j];
    }
    for (size_t j = 0; j < visible; ++j) row[j] /= sum;
    for (size_t j = visible; j < total; ++j) row[j] = 0.0;
  }
  return F64Tensor(x.shape(), values);
}

}  // namespace infinicts::oracle
