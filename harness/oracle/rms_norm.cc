#include <cmath>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor RMSNorm(const HostTensor &x, const HostTensor &w, double epsilon) {
  Require(x.ndim() >= 1, "RMSNorm", "x needs at least one dimension");
  const size_t width = x.shape().back();
  Require(w.ndim() == 1 && w.shape()[0] == width, "RMSNorm",
          "w must be [" + std::to_string(width) + "], got " + ShapeText(w.shape()));
  std::vector<double> values = x.ToDoubles();
  const std::vector<double> weights = w.ToDoubles();
  for (size_t start = 0; start < values.size(); start += width) {
    double sum_of_squares = 0.0;
    for (size_t j = 0; j < width; ++j) sum_of_squares += values[start + j] * values[start + j];
    const double rms = std::sqrt(sum_of_squares / static_cast<double>(width) + epsilon);  // eps inside the root
    for (size_t j = 0; j < width; ++j) values[start + j] = values[start + j] * weights[j] / rms;
  }
  return F64Tensor(x.shape(), values);
}

}  // namespace infinicts::oracle
